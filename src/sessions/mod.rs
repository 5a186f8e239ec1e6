//! Finding the session logs dsh stores (issue 15).
//!
//! 1. The project directory of a cwd is `<root>/--<projectKey(cwd)>--`
//!    ([`key::project_key`]); with `all`, every `--*--` directory of the root.
//! 2. Each session directory in it holds `session.jsonl.zstd` or, with
//!    compression off, `session.jsonl`. Its header line (the container's
//!    first frame) gives the session's id, cwd and `createdAt`.
//! 3. The key is lossy, so a session belongs to a cwd only when its header
//!    cwd equals that cwd. An id is matched whole (as
//!    [`key::encode_segment`] names its directory), else as the unique
//!    start of one session's id.
//! 4. The sessions are listed as dsh's web sidebar lists them
//!    ([`listing`]): newest first by when they were updated (the later of
//!    creation and the latest human prompt), blank sessions (no turn yet)
//!    and subagent sessions hidden. `latest` is the first session listed.
//!
//! A root holds one encoding: finding both is an error.

pub mod key;
pub mod summary;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::Deserialize;

use crate::logfile::{Encoding, zstd::MAGIC};

/// The file names of a stored log, by encoding.
pub const LOG_NAMES: [(&str, Encoding); 2] = [
    ("session.jsonl.zstd", Encoding::Zstd),
    ("session.jsonl", Encoding::Plain),
];

/// The longest header line read.
const HEADER_MAX: u64 = 1 << 20;

/// One stored session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The header's id, else the session directory's name.
    pub id: String,
    pub path: PathBuf,
    pub encoding: Encoding,
    /// Bytes on disk.
    pub size: u64,
    pub modified: Option<SystemTime>,
    /// The header's `createdAt`, milliseconds since the epoch.
    pub created_ms: Option<i64>,
    /// The header's cwd.
    pub cwd: Option<String>,
    /// The header's `origin` (`subagent` for a subagent's session).
    pub origin: Option<String>,
    /// The header's `parentSession`: the session it was forked from.
    pub parent: Option<String>,
    /// The header's `agentPreset`: the preset it was created with.
    pub agent_preset: Option<String>,
}

/// A stored session as the session list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub stored: Stored,
    /// What its events say, when its log decodes within the cap.
    pub summary: Option<summary::Summary>,
}

impl Listed {
    /// When it was updated: the later of its creation and its latest human
    /// prompt, milliseconds (creation alone when the log was not read).
    #[must_use]
    pub fn updated_ms(&self) -> Option<i64> {
        let prompt = self.summary.as_ref().and_then(|s| s.last_prompt_ms);
        match (self.stored.created_ms, prompt) {
            (Some(c), Some(p)) => Some(c.max(p)),
            (c, p) => c.or(p),
        }
    }

    /// Blank: no turn has run. A log that was not read is not blank (dsh
    /// shows what it cannot check).
    #[must_use]
    pub fn blank(&self) -> bool {
        self.summary.as_ref().is_some_and(|s| !s.started)
    }

    /// A subagent's session (dsh lists it under its parent, not on its own).
    #[must_use]
    pub fn subagent(&self) -> bool {
        self.stored.origin.as_deref() == Some("subagent")
    }

    /// Whether the sidebar shows it.
    #[must_use]
    pub fn shown(&self) -> bool {
        !self.blank() && !self.subagent()
    }

    /// The preset it runs: the latest selection, else the header's.
    #[must_use]
    pub fn preset(&self) -> Option<&str> {
        self.summary
            .as_ref()
            .and_then(|s| s.preset.as_deref())
            .or(self.stored.agent_preset.as_deref())
    }

    /// The latest title, when there is one and it is not empty.
    #[must_use]
    pub fn title(&self) -> Option<&str> {
        self.summary
            .as_ref()
            .and_then(|s| s.title.as_deref())
            .filter(|t| !t.is_empty())
    }

    /// The workspace label dsh shows for a session outside its Host
    /// Workspaces (whose titles agentctx does not read): the last segment
    /// of the cwd, else the cwd.
    #[must_use]
    pub fn workspace(&self) -> Option<&str> {
        let cwd = self.stored.cwd.as_deref().filter(|c| !c.is_empty())?;
        let trimmed = cwd.trim_end_matches(['/', '\\']);
        match trimmed.rsplit(['/', '\\']).next() {
            Some(base) if !base.is_empty() => Some(base),
            _ => Some(cwd),
        }
    }
}

/// Logs are summarised when they decode to at most this many bytes.
pub const SUMMARY_DECODED: u64 = 128 << 20;

/// Sorts listed sessions as the sidebar does: updated, newest first, then
/// the id.
fn sidebar_order(listed: &mut [Listed]) {
    listed.sort_by(|a, b| {
        b.updated_ms()
            .cmp(&a.updated_ms())
            .then_with(|| a.stored.id.cmp(&b.stored.id))
    });
}

/// The stored sessions of the scope, each with its summary, in the
/// sidebar's order; hidden ones included ([`Listed::shown`] tells).
///
/// # Errors
/// As [`list`].
pub fn listing(scope: Scope<'_>) -> Result<Vec<Listed>, String> {
    let mut listed: Vec<Listed> = list(scope)?
        .into_iter()
        .map(|stored| {
            let summary = summary::read(&stored.path, stored.encoding, SUMMARY_DECODED)
                .ok()
                .flatten();
            Listed { stored, summary }
        })
        .collect();
    sidebar_order(&mut listed);
    Ok(listed)
}

/// The newest session the sidebar shows, reading as few logs as it can: a
/// log last written before the best one found so far was updated cannot
/// hold a later prompt.
fn newest_shown(stored: Vec<Stored>) -> Option<Stored> {
    let mut best: Option<Listed> = None;
    for s in stored {
        if let (Some(b), Some(modified)) = (&best, s.modified) {
            let modified_ms = modified
                .duration_since(std::time::UNIX_EPOCH)
                .ok()
                .and_then(|d| i64::try_from(d.as_millis()).ok());
            if modified_ms.is_some_and(|m| Some(m) < b.updated_ms()) {
                break;
            }
        }
        let summary = summary::read(&s.path, s.encoding, SUMMARY_DECODED)
            .ok()
            .flatten();
        let candidate = Listed { stored: s, summary };
        if !candidate.shown() {
            continue;
        }
        let better = best.as_ref().is_none_or(|b| {
            (
                candidate.updated_ms(),
                std::cmp::Reverse(&candidate.stored.id),
            ) > (b.updated_ms(), std::cmp::Reverse(&b.stored.id))
        });
        if better {
            best = Some(candidate);
        }
    }
    best.map(|l| l.stored)
}

/// Which stored session to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick<'a> {
    Latest,
    Id(&'a str),
}

impl<'a> Pick<'a> {
    /// `latest`, else an id (or the start of one).
    #[must_use]
    pub fn parse(raw: &'a str) -> Self {
        if raw == "latest" {
            Pick::Latest
        } else {
            Pick::Id(raw)
        }
    }
}

/// Where to look.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    pub root: &'a Path,
    /// The session cwd, absolute and normalised.
    pub cwd: &'a Path,
    /// Every project of the root, not only the cwd's.
    pub all: bool,
}

/// Lists the stored sessions of the cwd (or of every project), newest first.
///
/// # Errors
///
/// With `all`, the root cannot be listed; a project directory exists but
/// cannot be read; or the root holds logs of both encodings. The message is one line for the user.
pub fn list(scope: Scope<'_>) -> Result<Vec<Stored>, String> {
    let projects = if scope.all {
        project_dirs(scope.root)?
    } else {
        let cwd = scope.cwd.to_string_lossy();
        vec![scope.root.join(key::project_key(&cwd))]
    };
    let mut found = Vec::new();
    for project in projects {
        let entries = match std::fs::read_dir(&project) {
            Ok(entries) => entries,
            // No directory: no session of that cwd was stored.
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            // One that cannot be read may hold sessions: never "none".
            Err(e) => {
                return Err(format!(
                    "{}: cannot read the project directory: {e}",
                    project.display()
                ));
            }
        };
        let mut dirs: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
        dirs.sort();
        for dir in dirs {
            if let Some(stored) = stored_in(&dir) {
                found.push(stored);
            }
        }
    }
    if let (Some(z), Some(p)) = (
        found.iter().find(|s| s.encoding == Encoding::Zstd),
        found.iter().find(|s| s.encoding == Encoding::Plain),
    ) {
        return Err(format!(
            "{} holds both zstd and plain session logs ({} and {}); dsh writes one encoding per root",
            scope.root.display(),
            z.path.display(),
            p.path.display()
        ));
    }
    if !scope.all {
        found.retain(|s| {
            s.cwd
                .as_deref()
                .is_some_and(|c| crate::paths::normalize(Path::new("/"), Path::new(c)) == scope.cwd)
        });
    }
    found.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.id.cmp(&b.id)));
    Ok(found)
}

/// Finds the log of one session of the cwd.
///
/// # Errors
///
/// As [`list`]; or no session matches `pick`, or an id prefix matches
/// several. The message is one line for the user.
pub fn find(scope: Scope<'_>, pick: Pick<'_>) -> Result<Stored, String> {
    let found = list(Scope {
        all: false,
        ..scope
    })?;
    let whose = || format!("{} under {}", scope.cwd.display(), scope.root.display());
    let id = match pick {
        Pick::Latest => {
            let stored = found.len();
            return newest_shown(found).ok_or_else(|| match stored {
                0 => format!("no dsh session of {}", whose()),
                n => format!(
                    "no dsh session of {} has started a conversation ({n} blank or subagent session{} hidden: `agentctx sessions --all` lists them)",
                    whose(),
                    if n == 1 { "" } else { "s" }
                ),
            });
        }
        Pick::Id(id) => id,
    };
    let encoded = key::encode_segment(id);
    let exact = found.iter().position(|s| {
        s.id == id || s.path.parent().and_then(Path::file_name) == Some(encoded.as_ref())
    });
    if let Some(i) = exact {
        return Ok(found[i].clone());
    }
    let mut prefixed: Vec<&Stored> = found.iter().filter(|s| s.id.starts_with(id)).collect();
    match prefixed.len() {
        0 => Err(format!("no dsh session {id:?} of {}", whose())),
        1 => Ok(prefixed.remove(0).clone()),
        n => {
            prefixed.sort_by(|a, b| a.id.cmp(&b.id));
            let ids: Vec<String> = prefixed
                .iter()
                .take(5)
                .map(|s| format!("{:?}", s.id))
                .collect();
            Err(format!(
                "session id {id:?} is ambiguous: {n} sessions of {} begin with it ({}{})",
                whose(),
                ids.join(", "),
                if n > 5 { ", ..." } else { "" }
            ))
        }
    }
}

/// The `--*--` directories of a root, sorted.
fn project_dirs(root: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = match std::fs::read_dir(root) {
        Ok(entries) => entries,
        // No root: dsh has stored no session yet.
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", root.display())),
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_name()?.to_str()?;
            (name.len() >= 4 && name.starts_with("--") && name.ends_with("--")).then_some(path)
        })
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// The session stored in `dir`, if it holds a log.
fn stored_in(dir: &Path) -> Option<Stored> {
    let (path, encoding, meta) = LOG_NAMES.iter().find_map(|(name, encoding)| {
        let path = dir.join(name);
        let meta = std::fs::metadata(&path)
            .ok()
            .filter(std::fs::Metadata::is_file)?;
        Some((path, *encoding, meta))
    })?;
    let header = read_header(&path).unwrap_or_default();
    let dir_name = dir.file_name()?.to_string_lossy().into_owned();
    Some(Stored {
        id: header.id.unwrap_or(dir_name),
        path,
        encoding,
        size: meta.len(),
        modified: meta.modified().ok(),
        created_ms: header.created_at,
        cwd: header.cwd,
        origin: header.origin,
        parent: header.parent_session,
        agent_preset: header.agent_preset,
    })
}

/// Whether the container at `path` decodes to at most `cap` bytes, found by
/// decoding at most `cap + 1` of them. One that cannot be decoded is
/// "within": reading it stops where this did, with the error to report.
#[must_use]
pub fn decodes_within(path: &Path, cap: u64) -> bool {
    let decoded = File::open(path)
        .and_then(zstd::stream::read::Decoder::new)
        .and_then(|d| io::copy(&mut d.take(cap + 1), &mut io::sink()));
    decoded.map_or(true, |n| n <= cap)
}

/// The fields of a session header line that listing uses.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Header {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub id: Option<String>,
    pub cwd: Option<String>,
    pub created_at: Option<i64>,
    pub origin: Option<String>,
    pub parent_session: Option<String>,
    pub agent_preset: Option<String>,
}

/// Reads the header line of a stored log (its first line, decoded from the
/// first frame of a container), without reading further.
///
/// # Errors
///
/// The file cannot be opened or decoded, or its first line is not a JSON
/// session header.
pub fn read_header(path: &Path) -> io::Result<Header> {
    let mut file = File::open(path)?;
    let mut magic = [0u8; 4];
    let n = file.read(&mut magic)?;
    let file = File::open(path)?;
    let mut line = Vec::new();
    if magic[..n] == MAGIC {
        let decoder = zstd::stream::read::Decoder::new(file)?.single_frame();
        BufReader::new(decoder.take(HEADER_MAX)).read_until(b'\n', &mut line)?;
    } else {
        BufReader::new(file.take(HEADER_MAX)).read_until(b'\n', &mut line)?;
    }
    let header: Header = serde_json::from_slice(line.trim_ascii()).map_err(io::Error::other)?;
    if header.kind.as_deref() != Some("session") {
        return Err(io::Error::other("the first line is not a session header"));
    }
    Ok(header)
}

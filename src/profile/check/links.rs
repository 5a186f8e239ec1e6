//! The link and stub rules of dsh applied to every harness's files, and
//! whether a CLAUDE.md only mirrors the AGENTS.md beside it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::show::Shower;
use crate::check::{Detail, link_finding, pointer_to, stub_finding, stub_target};
use crate::discovery::{Realms, probe_link};
use crate::settings::Settings;

/// What `check` judges of a symlinked or stub candidate of any harness:
/// the same rules as dsh's (a secret, a link leaving the project, a
/// symlink checked out as text), each path once.
pub(super) struct Links<'a> {
    settings: &'a Settings,
    realms: HashMap<PathBuf, Realms>,
    /// The project root of each directory seen (dsh's root search, each
    /// directory's markers `stat`-ed once).
    roots: HashMap<PathBuf, Option<PathBuf>>,
    done: HashMap<String, Vec<Detail>>,
}

impl<'a> Links<'a> {
    pub(super) fn new(settings: &'a Settings) -> Self {
        Links {
            settings,
            realms: HashMap::new(),
            roots: HashMap::new(),
            done: HashMap::new(),
        }
    }

    /// `discovery::find_root(dir)`, remembering every directory's answer:
    /// the nearest ancestor-or-self holding a root marker, else `dir`.
    fn root_of(&mut self, dir: &Path) -> PathBuf {
        self.marked(dir).unwrap_or_else(|| dir.to_path_buf())
    }

    fn marked(&mut self, dir: &Path) -> Option<PathBuf> {
        if let Some(known) = self.roots.get(dir) {
            return known.clone();
        }
        let markers = &self.settings.root_markers.value;
        let here = markers
            .iter()
            .any(|m| crate::bounded::metadata(dir.join(m)).is_ok());
        let found = if here {
            Some(dir.to_path_buf())
        } else {
            dir.parent().and_then(|p| self.marked(p))
        };
        self.roots.insert(dir.to_path_buf(), found.clone());
        found
    }

    /// The link and stub findings of a file the harness loads.
    fn judge(&mut self, path: &str, shower: &Shower) -> Vec<Detail> {
        if let Some(found) = self.done.get(path) {
            return found.clone();
        }
        let p = Path::new(path);
        let dir = p.parent().unwrap_or(Path::new("/")).to_path_buf();
        let root = self.root_of(&dir);
        let settings = self.settings;
        let realms = self
            .realms
            .entry(root.clone())
            .or_insert_with(|| Realms::new(Some(&root), settings));
        let mut found = Vec::new();
        let (probe, link) = probe_link(p, Some(realms));
        if let Some(link) = &link {
            let readable = matches!(probe, crate::discovery::Probe::File { .. });
            let shown_root = shower.show(&crate::profile::show(&root));
            found.extend(link_finding(link, readable, Some(&shown_root)));
        } else if let Some(name) = p.file_name().and_then(|n| n.to_str()) {
            // A text stub is short: read only a small file.
            if crate::profile::file_size(p).is_some_and(|n| n <= 256) {
                if let Ok(bytes) = crate::profile::read_file(p, Some(256)) {
                    let text = String::from_utf8_lossy(&bytes);
                    if let Some(sibling) = stub_target(&dir, name, &text) {
                        let shown = shower.show(&crate::profile::show(&dir.join(sibling)));
                        found.push(stub_finding(&shown));
                    }
                }
            }
        }
        self.done.insert(path.to_owned(), found.clone());
        found
    }
}

/// The link judge of a check, or none (explain: links are not judged).
pub(super) trait MaybeLinks {
    fn judge_path(&mut self, path: &str, shower: &Shower) -> Vec<Detail>;
}

impl MaybeLinks for Links<'_> {
    fn judge_path(&mut self, path: &str, shower: &Shower) -> Vec<Detail> {
        self.judge(path, shower)
    }
}

impl MaybeLinks for Option<()> {
    fn judge_path(&mut self, _: &str, _: &Shower) -> Vec<Detail> {
        Vec::new()
    }
}

/// Whether opencode's "CLAUDE.md ignored" is a false alarm: the CLAUDE.md
/// is a symlink to the AGENTS.md beside it (or the one that won), holds
/// the same text, only points at it, or is a symlink to it checked out as
/// text (`AGENTS.md`, which dsh's stub rule reports).
pub(super) fn same_as_agents(claude: &str, by: &str) -> bool {
    let claude = Path::new(claude);
    let sibling = claude.with_file_name("AGENTS.md");
    let agents = if crate::profile::file_size(&sibling).is_some() {
        sibling
    } else {
        PathBuf::from(by)
    };
    mirrors(claude, &agents)
}

/// Whether `claude` is `agents` under another name: a symlink to it, the
/// same text, or only a pointer at it.
pub(super) fn mirrors(claude: &Path, agents: &Path) -> bool {
    let real = |p: &Path| crate::bounded::canonicalize(p).ok();
    if real(claude).is_some() && real(claude) == real(agents) {
        return true;
    }
    let text = |p: &Path| {
        crate::profile::read_file(p, Some(crate::bounded::MAX_FILE_BYTES))
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    match (text(claude), text(agents)) {
        (Some(c), Some(a)) => {
            let c = crate::text::js_trim(&c);
            c == crate::text::js_trim(&a) || c == "AGENTS.md" || pointer_to(c, "AGENTS.md")
        }
        (Some(c), None) => pointer_to(&c, "AGENTS.md"),
        _ => false,
    }
}

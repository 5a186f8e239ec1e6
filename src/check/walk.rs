//! Stage 1 of check: the directories under a target, in sorted walk order,
//! with what their listings hold and without what ignore rules skip.
//!
//! Ignore rules (`.gitignore`, nested ones, `.git/info/exclude`, and
//! `.agentctxignore` in the same syntax) are matched with the `ignore`
//! crate's gitignore matcher and decide which *directories* are walked. A
//! file in a walked directory is never hidden by them: sessions load an
//! ignored `AGENTS.local.md` all the same, so check must see it to give the
//! baseline `render` gives. Precedence, as ripgrep's: `.agentctxignore`
//! (deepest first), then `.gitignore` (deepest first, only inside a git
//! repository and not across a nested one), then the repository's
//! `.git/info/exclude`. Each ignore file is read bounded (`ignorefile`):
//! a FIFO, a device or an over-long file is a warning, never a hang.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use ignore::Match;
use ignore::gitignore::Gitignore;

use super::ignorefile;
use super::is_plain_name;
use crate::discovery::os_error;
use crate::settings::Settings;

/// The ignore file of check, in `.gitignore` syntax.
pub const AGENTCTX_IGNORE: &str = ".agentctxignore";
const GITIGNORE: &str = ".gitignore";
const GIT: &str = ".git";

/// The configured names the walk looks for in listings.
#[derive(Debug)]
pub(super) struct Names {
    pub base: Vec<String>,
    pub local: Vec<String>,
    /// Markers that are not (`.`, `a/b`, empty): `stat`-ed in every directory.
    pub other_markers: Vec<String>,
    /// Candidates, then the markers that are plain names (found through the
    /// listing), then the other harnesses' names; a node's hits index this.
    pub all: Vec<String>,
    pub candidates: usize,
    /// Where the other harnesses' names start in `all`.
    pub markers_end: usize,
    /// For each of those names, the harnesses it is a name of (bit i:
    /// harness i).
    pub harness_masks: Vec<u32>,
    /// ASCII-lowercased name to its indices in `all`.
    by_folded: HashMap<String, Vec<usize>>,
}

impl Names {
    pub fn new(settings: &Settings) -> Self {
        Self::with_harnesses(settings, &[])
    }

    /// dsh's names and those of other harnesses (one list each).
    pub fn with_harnesses(settings: &Settings, harness_names: &[Vec<String>]) -> Self {
        let base = settings.candidates.value.names.clone();
        let local = settings.local_candidates.value.names.clone();
        let (plain_markers, other_markers): (Vec<String>, Vec<String>) = settings
            .root_markers
            .value
            .iter()
            .cloned()
            .partition(|m| is_plain_name(m));
        let mut all: Vec<String> = base
            .iter()
            .chain(&local)
            .chain(&plain_markers)
            .cloned()
            .collect();
        let markers_end = all.len();
        let mut harness_masks: Vec<u32> = Vec::new();
        for (i, names) in harness_names.iter().enumerate() {
            for name in names {
                if let Some(at) = all[markers_end..].iter().position(|n| n == name) {
                    harness_masks[at] |= 1 << i;
                } else {
                    all.push(name.clone());
                    harness_masks.push(1 << i);
                }
            }
        }
        let mut by_folded: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, name) in all.iter().enumerate() {
            by_folded
                .entry(name.to_ascii_lowercase())
                .or_default()
                .push(i);
        }
        Names {
            candidates: base.len() + local.len(),
            markers_end,
            harness_masks,
            base,
            local,
            other_markers,
            all,
            by_folded,
        }
    }

    /// Records in `hits` every configured name `entry` may be. The match
    /// ignores ASCII case so that a case-insensitive filesystem, where
    /// `stat("AGENTS.md")` finds `agents.md`, still gets its `stat`.
    pub fn record(&self, entry: &str, symlink: bool, hits: &mut Vec<Hit>) {
        let Some(indices) = self.by_folded.get(&entry.to_ascii_lowercase()) else {
            return;
        };
        for &name in indices {
            // The other harnesses look their names up exactly.
            if name >= self.markers_end && self.all[name] != entry {
                continue;
            }
            match hits.iter_mut().find(|h| h.name == name) {
                Some(hit) => hit.symlink |= symlink,
                None => hits.push(Hit { name, symlink }),
            }
        }
    }

    pub fn is_candidate(&self, hit: &Hit) -> bool {
        hit.name < self.candidates
    }

    /// Whether a hit is a plain root marker.
    pub fn is_marker(&self, hit: &Hit) -> bool {
        (self.candidates..self.markers_end).contains(&hit.name)
    }

    /// The harnesses a hit is a name of (0 for dsh's own names).
    pub fn harness_mask(&self, hit: &Hit) -> u32 {
        hit.name
            .checked_sub(self.markers_end)
            .map_or(0, |i| self.harness_masks[i])
    }

    /// Whether `folded` (ASCII-lowercased) is a candidate name of dsh or
    /// of another harness, ignoring ASCII case.
    pub fn is_instruction_folded(&self, folded: &str) -> bool {
        self.by_folded.get(folded).is_some_and(|ids| {
            ids.iter()
                .any(|&i| i < self.candidates || i >= self.markers_end)
        })
    }

    /// Whether `name` is one of the configured candidate names.
    pub fn is_candidate_name(&self, name: &str) -> bool {
        self.base.iter().chain(&self.local).any(|n| n == name)
    }
}

/// A configured name a listing may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Hit {
    /// Index into `Names::all` (full width: any number of names works).
    pub name: usize,
    /// Whether a matching entry is a symlink.
    pub symlink: bool,
}

/// One walked directory.
#[derive(Debug)]
pub(super) struct Node {
    pub path: PathBuf,
    /// Index of the parent node (`None` for the top).
    pub parent: Option<usize>,
    /// The configured names its listing may hold.
    pub hits: Vec<Hit>,
    /// Why the listing failed, if it did: then every name is `stat`-ed.
    pub unlisted: Option<String>,
}

/// Where a walk hands each finished session directory (with its mask).
pub(super) type Sink<'a> = dyn Fn(&Node, u32) + 'a;

/// How a walk treats names and ignore files.
pub(super) struct WalkOptions<'a> {
    pub names: &'a Names,
    /// Names (no `/`) or paths relative to the target (with `/`) not to enter.
    pub exclude: &'a [String],
    /// Whether ignore rules apply (`--no-ignore` turns them off).
    pub ignore: bool,
    /// Where shown paths are relative to (for warnings).
    pub base: &'a Path,
    /// Told every finished directory that is a session directory of the
    /// other harnesses, with their mask (the top: every one), as soon as
    /// its listing is complete, so that their loads run while the walk
    /// goes on.
    pub sink: Option<&'a Sink<'a>>,
}

/// What a walk found, and which excludes matched something.
#[derive(Debug, Default)]
pub(super) struct Walked {
    pub nodes: Vec<Node>,
    /// Per `--exclude` entry: whether it matched a directory.
    pub excluded: Vec<bool>,
    /// Ignore files refused or cut, one line each.
    pub warnings: Vec<String>,
}

/// The ignore matchers of one open directory.
#[derive(Debug, Default, Clone)]
struct Rules {
    agentctx: Option<Rc<Gitignore>>,
    git: Option<Rc<Gitignore>>,
    /// `.git/info/exclude`, on a repository's top directory.
    exclude: Option<Rc<Gitignore>>,
    /// This directory holds `.git`: parent `.gitignore` files stop here.
    repo: bool,
    /// Bytes of the patterns these matchers hold.
    bytes: usize,
}

/// What loading ignore files needs: where shown paths start, the
/// warnings, and the pattern bytes of the matchers in force.
struct Loading<'a> {
    base: &'a Path,
    warnings: &'a mut Vec<String>,
    live: usize,
}

impl Loading<'_> {
    /// Reads an ignore file bounded, its patterns within what the matchers
    /// in force leave of [`ignorefile::MAX_LIVE_PATTERN_BYTES`].
    fn matcher(&mut self, dir: &Path, file: &Path, bytes: &mut usize) -> Option<Rc<Gitignore>> {
        let budget = ignorefile::MAX_LIVE_PATTERN_BYTES.saturating_sub(self.live);
        let shown = crate::paths::relative(self.base, file);
        let loaded = ignorefile::load(dir, file, &shown, budget);
        self.warnings.extend(loaded.warnings);
        self.live += loaded.pattern_bytes;
        *bytes += loaded.pattern_bytes;
        loaded.matcher.map(Rc::new)
    }
}

/// The ignore rules of the directories above `top`, up to and including
/// the repository holding it (none when it is not in one), broadest first.
fn rules_above(top: &Path, loading: &mut Loading<'_>) -> Vec<Rules> {
    let Some(repo) = top.ancestors().find(|d| d.join(GIT).exists()) else {
        return Vec::new();
    };
    let mut dirs: Vec<&Path> = top
        .ancestors()
        .skip(1)
        .take_while(|d| d.starts_with(repo))
        .collect();
    // Broadest first, so that a budget cut drops the deepest rules.
    dirs.reverse();
    dirs.into_iter()
        .map(|d| rules_of(d, d == repo, loading))
        .collect()
}

/// Reads the ignore files of a directory above the walk (a missing one is
/// no rules and no warning).
fn rules_of(dir: &Path, repo: bool, loading: &mut Loading<'_>) -> Rules {
    let mut bytes = 0;
    Rules {
        agentctx: loading.matcher(dir, &dir.join(AGENTCTX_IGNORE), &mut bytes),
        git: loading.matcher(dir, &dir.join(GITIGNORE), &mut bytes),
        exclude: if repo {
            loading.matcher(dir, &dir.join(".git/info/exclude"), &mut bytes)
        } else {
            None
        },
        repo,
        bytes,
    }
}

/// Whether the open directories' rules (broadest first) ignore `path`.
fn ignored(stack: &[Rules], path: &Path) -> bool {
    let decide = |m: Match<&ignore::gitignore::Glob>| match m {
        Match::None => None,
        Match::Ignore(_) => Some(true),
        Match::Whitelist(_) => Some(false),
    };
    for rules in stack.iter().rev() {
        if let Some(v) = rules
            .agentctx
            .as_ref()
            .and_then(|m| decide(m.matched(path, true)))
        {
            return v;
        }
    }
    // `.gitignore` applies only inside a repository, up to its top.
    let Some(repo) = stack.iter().rposition(|r| r.repo) else {
        return false;
    };
    for rules in stack[repo..].iter().rev() {
        if let Some(v) = rules
            .git
            .as_ref()
            .and_then(|m| decide(m.matched(path, true)))
        {
            return v;
        }
    }
    stack[repo]
        .exclude
        .as_ref()
        .and_then(|m| decide(m.matched(path, true)))
        .unwrap_or(false)
}

/// One entry of a listing: its path, name and type (links not followed).
struct Entry {
    path: PathBuf,
    name: OsString,
    is_dir: bool,
    symlink: bool,
}

/// Ignore files and `.git` sort first in a listing, so that a directory's
/// rules are known before any of its subdirectories is entered; the order
/// of everything else is by file name.
fn listing_order(a: &Entry, b: &Entry) -> std::cmp::Ordering {
    let rank = |e: &Entry| {
        let n = e.name.as_os_str();
        u8::from(!(n == GIT || n == GITIGNORE || n == AGENTCTX_IGNORE))
    };
    rank(a).cmp(&rank(b)).then_with(|| a.name.cmp(&b.name))
}

/// Reads a directory's listing whole, in [`listing_order`], and the first
/// error: the directory's (then nothing is listed), or that of an entry
/// that could not be read or typed (left out).
fn list(dir: &Path) -> (Vec<Entry>, Option<io::Error>) {
    let items = match fs::read_dir(dir) {
        Ok(items) => items,
        Err(e) => return (Vec::new(), Some(e)),
    };
    let mut entries = Vec::new();
    let mut error = None;
    for item in items {
        match item.and_then(|e| e.file_type().map(|t| (e, t))) {
            Ok((e, t)) => entries.push(Entry {
                path: e.path(),
                name: e.file_name(),
                is_dir: t.is_dir(),
                symlink: t.is_symlink(),
            }),
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    }
    entries.sort_by(listing_order);
    (entries, error)
}

/// Whether the walk lists `top`: a directory, or a symlink to one (the
/// top is followed; links below it are not); `None` when it cannot be
/// `lstat`-ed (nothing is walked).
fn lists_top(top: &Path) -> Option<bool> {
    let meta = fs::symlink_metadata(top).ok()?;
    Some(if meta.file_type().is_symlink() {
        fs::metadata(top).is_ok_and(|m| m.is_dir())
    } else {
        meta.is_dir()
    })
}

/// A directory being walked: its node and the subdirectories left to enter.
struct Open {
    node: usize,
    subdirs: std::vec::IntoIter<Entry>,
}

/// Walks `top`: the directories in sorted order, parents first. Each
/// directory's listing is read whole when it is entered: its names, its
/// ignore files and (for the memo of the other harnesses' loads) the
/// listing itself are known before any subdirectory is entered, and it is
/// handed to the sink then.
pub(super) fn walk(top: &Path, opts: &WalkOptions<'_>) -> Walked {
    let mut out = Walked {
        nodes: Vec::new(),
        excluded: vec![false; opts.exclude.len()],
        warnings: Vec::new(),
    };
    let Some(listed) = lists_top(top) else {
        return out;
    };
    // The ignore rules of each open directory (and those above the top).
    let mut rules: Vec<Rules> = if opts.ignore {
        let mut loading = Loading {
            base: opts.base,
            warnings: &mut out.warnings,
            live: 0,
        };
        rules_above(top, &mut loading)
    } else {
        Vec::new()
    };
    let mut stack: Vec<Open> = Vec::new();
    let first = enter(
        &mut out,
        &mut rules,
        opts,
        (top.to_path_buf(), None),
        listed,
    );
    stack.push(first);
    while let Some(open) = stack.last_mut() {
        let parent = open.node;
        let Some(entry) = open.subdirs.next() else {
            stack.pop();
            rules.pop();
            continue;
        };
        if skip(
            opts,
            top,
            (&entry.path, &entry.name),
            &rules,
            &mut out.excluded,
        ) {
            continue;
        }
        let next = enter(&mut out, &mut rules, opts, (entry.path, Some(parent)), true);
        stack.push(next);
    }
    out
}

/// Adds the node of a directory entered, reads its listing (when `listed`)
/// into its names, its ignore rules and the memo, hands it to the sink,
/// and returns its subdirectories to enter.
fn enter(
    out: &mut Walked,
    rules: &mut Vec<Rules>,
    opts: &WalkOptions<'_>,
    (path, parent): (PathBuf, Option<usize>),
    listed: bool,
) -> Open {
    let (entries, error) = if listed {
        list(&path)
    } else {
        (Vec::new(), None)
    };
    let mut node = Node {
        path,
        parent,
        hits: Vec::new(),
        unlisted: error.as_ref().map(os_error),
    };
    let mut own = Rules::default();
    for entry in &entries {
        let Some(name) = entry.name.to_str() else {
            continue;
        };
        opts.names.record(name, entry.symlink, &mut node.hits);
        if opts.ignore {
            let mut loading = Loading {
                base: opts.base,
                warnings: &mut out.warnings,
                live: rules.iter().map(|r| r.bytes).sum::<usize>() + own.bytes,
            };
            note_ignore_file(&mut own, (&entry.path, name, entry.is_dir), &mut loading);
        }
    }
    rules.push(own);
    if listed && error.is_none() {
        crate::bounded::note_listing(&node.path, entries.iter().map(|e| e.name.as_os_str()));
    }
    if let Some(sink) = opts.sink {
        emit(sink, opts.names, &node, parent.is_none());
    }
    let subdirs: Vec<Entry> = entries.into_iter().filter(|e| e.is_dir).collect();
    out.nodes.push(node);
    Open {
        node: out.nodes.len() - 1,
        subdirs: subdirs.into_iter(),
    }
}

/// Hands a finished directory to the sink when another harness has a
/// session there (the top always).
fn emit(sink: &Sink<'_>, names: &Names, node: &Node, top: bool) {
    let mask = if top {
        u32::MAX
    } else {
        node.hits.iter().fold(0, |m, h| m | names.harness_mask(h))
    };
    if mask != 0 {
        sink(node, mask);
    }
}

/// Takes an ignore file or `.git` seen in a listing into its directory's rules.
fn note_ignore_file(
    rules: &mut Rules,
    (path, name, is_dir): (&Path, &str, bool),
    loading: &mut Loading<'_>,
) {
    let dir = path.parent().unwrap_or(path);
    let bytes = &mut rules.bytes;
    match name {
        GIT if is_dir => {
            rules.repo = true;
            rules.exclude = loading.matcher(dir, &path.join("info/exclude"), bytes);
        }
        // A submodule's `.git` file: a repository without its own exclude.
        GIT => rules.repo = true,
        GITIGNORE if !is_dir => rules.git = loading.matcher(dir, path, bytes),
        AGENTCTX_IGNORE if !is_dir => rules.agentctx = loading.matcher(dir, path, bytes),
        _ => {}
    }
}

/// Whether a subdirectory is not entered: `.git`, an exclude, or ignored.
fn skip(
    opts: &WalkOptions<'_>,
    top: &Path,
    (path, name): (&Path, &OsStr),
    rules: &[Rules],
    excluded: &mut [bool],
) -> bool {
    if name == GIT {
        return true;
    }
    let rel = path.strip_prefix(top).unwrap_or(path);
    let mut hit = false;
    for (i, x) in opts.exclude.iter().enumerate() {
        let matches = if x.contains('/') {
            let x = x.strip_prefix("./").unwrap_or(x);
            rel == Path::new(x.trim_end_matches('/'))
        } else {
            name == x.as_str()
        };
        if matches {
            excluded[i] = true;
            hit = true;
        }
    }
    hit || (opts.ignore && ignored(rules, path))
}

/// Whether `dir` exists as a directory (for a deleted file's directory).
pub(super) fn is_dir(dir: &Path) -> bool {
    fs::metadata(dir).is_ok_and(|m| m.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn names(all: &[&str], candidates: usize) -> Names {
        let mut by_folded: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, n) in all.iter().enumerate() {
            by_folded.entry(n.to_ascii_lowercase()).or_default().push(i);
        }
        Names {
            base: all[..candidates].iter().map(|s| (*s).to_owned()).collect(),
            local: vec![],
            other_markers: vec![],
            all: all.iter().map(|s| (*s).to_owned()).collect(),
            candidates,
            markers_end: all.len(),
            harness_masks: Vec::new(),
            by_folded,
        }
    }

    #[test]
    fn names_match_listing_entries_ignoring_ascii_case() {
        let names = names(&["AGENTS.md", ".git"], 1);
        let mut hits = Vec::new();
        names.record("agents.md", false, &mut hits);
        names.record("README.md", true, &mut hits);
        names.record(".git", false, &mut hits);
        names.record("AGENTS.md", true, &mut hits);
        let hit = |name, symlink| Hit { name, symlink };
        assert_eq!(hits, vec![hit(0, true), hit(1, false)]);
    }

    /// A u16 index once made every name past 65,535 the wrong one.
    #[test]
    fn names_past_u16_keep_their_index() {
        let mut all: Vec<String> = (0..70_000).map(|i| format!("n{i}")).collect();
        all.push("AGENTS.md".into());
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let names = names(&refs, refs.len());
        let mut hits = Vec::new();
        names.record("AGENTS.md", false, &mut hits);
        assert_eq!(
            hits,
            vec![Hit {
                name: 70_000,
                symlink: false
            }]
        );
    }
}

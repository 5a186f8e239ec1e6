//! `check` (SPEC 7): every directory of a tree, against the byte budget.
//!
//! The algorithm, in the same three stages as discovery:
//!
//! 1. **Walk.** Walk the tree under PATH once with walkdir, sorted by file
//!    name, never into `.git` nor into directories named by `--exclude`.
//!    Each directory becomes a node that remembers which configured names
//!    (candidates and plain root markers) its listing holds; nothing is
//!    stat-ed during the walk.
//! 2. **Scan.** Visit the nodes in walk order (parents before children). A
//!    node's project root is its parent's, unless a root marker in its own
//!    listing makes it a new root (SPEC 2.2); the walk's top node takes the
//!    root found upward from PATH, and its chain starts with the directories
//!    between that root and PATH. A node whose listing holds a candidate
//!    name is scanned with `discovery::scan_dir_listed` (only listed names
//!    are probed, every file is read once) and joins its children's chain;
//!    the chain is shared (`Rc`), never rebuilt by walking up again. A node
//!    without candidates costs nothing beyond the walk.
//! 3. **Render and judge.** For every node holding a candidate, the loaded
//!    files of its chain (the user-global file first when asked) are fitted
//!    with `render::fit`, exactly as `render --cwd DIR` does. Anything
//!    omitted or truncated is an error of that directory; each candidate
//!    file is judged once, in the directory that holds it.
//!
//! Everything here returns data; `cmd::check` presents it.

use std::cell::OnceCell;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use anyhow::{Result, bail};
use serde::Serialize;
use walkdir::WalkDir;

use crate::discovery::{
    self, Candidate, Dir, Fate, Load, Probe, ScanOptions, TierKind, find_root, js_trim, os_error,
};
use crate::paths;
use crate::render::{self, Item, Truncation};
use crate::settings::{Precedence, Settings, USER_GLOBAL_FILE};

/// What to check and how.
#[derive(Debug, Clone)]
pub struct Options<'a> {
    pub settings: &'a Settings,
    /// The tree to walk: absolute and normalised.
    pub path: PathBuf,
    /// The directory shown paths are relative to (where check was started).
    pub base: PathBuf,
    /// Directory names not to descend into.
    pub exclude: &'a [String],
    pub include_user_global: bool,
    /// Also collect every checked directory's baseline numbers (for JSON).
    pub directories: bool,
}

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// What a finding is about, with its facts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Detail {
    /// The baseline of a directory omits or truncates files.
    OverBudget {
        /// Bytes of the message a session there gets.
        bytes: usize,
        /// Bytes the whole baseline would need.
        whole_bytes: usize,
        max_bytes: i64,
        /// Omitted files, shown relative to where check was started.
        omitted: Vec<String>,
        /// The cut file (at most one), shown likewise.
        truncated: Vec<Truncation>,
    },
    /// A candidate larger than max-source-bytes: never loaded.
    Oversized { bytes: u64, max_source_bytes: i64 },
    /// `first`: a shadowed candidate whose content differs from the winner.
    Drift { winner: String },
    /// `all`: two siblings of one tier both load, with different content.
    TwoSources { sibling: String },
    /// A symlinked candidate whose target lies outside its project root.
    SymlinkLeavesTree {
        target: String,
        project_root: String,
    },
    /// A candidate name that is a symlink to nothing.
    BrokenSymlink { target: String },
    /// Invalid UTF-8, loaded with U+FFFD.
    InvalidUtf8,
    /// A literal `</system-reminder>` (escaped in the prompt).
    SystemReminder { line: usize },
    /// An empty file, or one holding only whitespace.
    Empty { whitespace: bool },
    /// A candidate that is a directory, FIFO, socket or device.
    NotRegular { file_type: &'static str },
    /// The whole content is the name of a sibling file.
    SymlinkStub { sibling: String },
    /// `stat` or the read failed: sessions skip it.
    Unavailable { error: String },
    /// A directory that could not be listed: nothing below it is checked.
    UnreadableDir { error: String },
}

impl Detail {
    pub fn severity(&self) -> Severity {
        match self {
            Detail::OverBudget { .. } | Detail::Oversized { .. } => Severity::Error,
            _ => Severity::Warning,
        }
    }

    /// A short title (GitHub annotation titles).
    pub fn title(&self) -> &'static str {
        match self {
            Detail::OverBudget { .. } => "Instruction budget exceeded",
            Detail::Oversized { .. } => "Instruction file too large",
            Detail::Drift { .. } => "Instruction files drift",
            Detail::TwoSources { .. } => "Two sources of truth",
            Detail::SymlinkLeavesTree { .. } => "Symlink leaves the project",
            Detail::BrokenSymlink { .. } => "Broken symlink",
            Detail::InvalidUtf8 => "Invalid UTF-8",
            Detail::SystemReminder { .. } => "Literal </system-reminder>",
            Detail::Empty { .. } => "Empty instruction file",
            Detail::NotRegular { .. } => "Not a regular file",
            Detail::SymlinkStub { .. } => "Symlink checked out as text",
            Detail::Unavailable { .. } => "Unreadable instruction file",
            Detail::UnreadableDir { .. } => "Unreadable directory",
        }
    }
}

/// One finding: about a file (or, for a budget, about the directory whose
/// own instruction file it is attached to).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub severity: Severity,
    /// The directory, relative to where check was started (`.` for it).
    pub dir: String,
    /// The file the finding is attached to, relative to where check was started.
    pub file: String,
    pub title: &'static str,
    /// One sentence for people (raw: escape it before printing).
    pub message: String,
    #[serde(flatten)]
    pub detail: Detail,
}

impl Finding {
    fn new(dir: String, file: String, detail: Detail, message: String) -> Self {
        Finding {
            severity: detail.severity(),
            dir,
            file,
            title: detail.title(),
            message,
            detail,
        }
    }
}

/// One loaded file of a checked directory's baseline, as `render --format
/// json` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BaselineFile {
    /// The display path the prompt shows (root-relative).
    pub path: String,
    pub scope: String,
    pub digest: String,
    pub bytes: usize,
    pub represented: bool,
}

/// The baseline a session started in one checked directory gets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DirBaseline {
    /// The directory, relative to where check was started.
    pub dir: String,
    /// Its project root, absolute (as `render --format json` prints it).
    pub project_root: String,
    pub identity: String,
    pub bytes: usize,
    pub whole_bytes: usize,
    pub max_bytes: i64,
    /// Display paths, as the budget notice names them.
    pub omitted: Vec<String>,
    /// The cut file (at most one), as `render --format json` lists it.
    pub truncated: Vec<Truncation>,
    pub files: Vec<BaselineFile>,
}

/// The largest baseline of the tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Largest {
    pub dir: String,
    pub bytes: usize,
}

/// Everything check found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The tree walked, absolute.
    pub path: String,
    /// Directories walked.
    pub walked: usize,
    /// Directories holding a candidate, whose baseline was rendered.
    pub checked: usize,
    pub max_bytes: i64,
    pub largest: Option<Largest>,
    pub errors: usize,
    pub warnings: usize,
    /// In walk order: the user-global file first, then per directory its
    /// budget error and its files' findings in candidate order.
    pub findings: Vec<Finding>,
    /// Every checked directory in walk order (only when asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub directories: Option<Vec<DirBaseline>>,
}

impl Report {
    /// The exit status: 1 on an error, or a warning when warnings are denied.
    pub fn failed(&self, deny_warnings: bool) -> bool {
        self.errors > 0 || (deny_warnings && self.warnings > 0)
    }
}

/// Checks the tree under `opts.path`.
pub fn check(opts: &Options<'_>) -> Result<Report> {
    match fs::metadata(&opts.path) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => bail!("check {}: not a directory", opts.path.display()),
        Err(e) => bail!("check {}: {}", opts.path.display(), os_error(&e)),
    }
    let names = Names::new(opts.settings);
    let nodes = walk(opts, &names);
    Checker::new(opts, names).run(&nodes)
}

/// The configured names the walk looks for in listings.
#[derive(Debug)]
struct Names {
    base: Vec<String>,
    local: Vec<String>,
    /// Markers that are not (`.`, `a/b`, empty): `stat`-ed in every directory.
    other_markers: Vec<String>,
    /// Candidates, then the markers that are plain names (found through the
    /// listing); a node's hits index this.
    all: Vec<String>,
    candidates: usize,
}

impl Names {
    fn new(settings: &Settings) -> Self {
        let base = settings.candidates.value.names.clone();
        let local = settings.local_candidates.value.names.clone();
        let (plain_markers, other_markers): (Vec<String>, Vec<String>) = settings
            .root_markers
            .value
            .iter()
            .cloned()
            .partition(|m| is_plain_name(m));
        let all: Vec<String> = base
            .iter()
            .chain(&local)
            .chain(&plain_markers)
            .cloned()
            .collect();
        Names {
            candidates: base.len() + local.len(),
            base,
            local,
            other_markers,
            all,
        }
    }

    /// Records in `hits` every configured name `entry` may be. The match
    /// ignores ASCII case so that a case-insensitive filesystem, where
    /// `stat("AGENTS.md")` finds `agents.md`, still gets its `stat`.
    fn record(&self, entry: &str, symlink: bool, hits: &mut Vec<Hit>) {
        for (i, name) in self.all.iter().enumerate() {
            if name.len() == entry.len() && name.eq_ignore_ascii_case(entry) {
                let name = u16::try_from(i).unwrap_or(u16::MAX);
                match hits.iter_mut().find(|h| h.name == name) {
                    Some(hit) => hit.symlink |= symlink,
                    None => hits.push(Hit { name, symlink }),
                }
            }
        }
    }
}

/// What a directory's listing says of a candidate name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// Not in the listing.
    None,
    /// In the listing, not a symlink.
    Plain,
    /// In the listing as a symlink, or the listing is unknown: `lstat` tells.
    MaybeSymlink,
}

/// A configured name a listing may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hit {
    /// Index into `Names::all`.
    name: u16,
    /// Whether a matching entry is a symlink (from the listing's file type,
    /// so only those are `lstat`-ed for the leaves-the-root check).
    symlink: bool,
}

impl Names {
    fn is_candidate(&self, hit: &Hit) -> bool {
        usize::from(hit.name) < self.candidates
    }
}

fn is_plain_name(name: &str) -> bool {
    !(name.is_empty() || name == "." || name == ".." || name.contains('/'))
}

/// One walked directory.
#[derive(Debug)]
struct Node {
    path: PathBuf,
    /// Index of the parent node (`usize::MAX` for the top).
    parent: usize,
    /// The configured names its listing may hold.
    hits: Vec<Hit>,
    /// Why the listing failed, if it did: then every name is `stat`-ed.
    unlisted: Option<String>,
}

/// Stage 1: the directories under `opts.path` in sorted walk order.
fn walk(opts: &Options<'_>, names: &Names) -> Vec<Node> {
    let mut nodes: Vec<Node> = Vec::new();
    // The node index of the directory open at each depth.
    let mut stack: Vec<usize> = Vec::new();
    let mut it = WalkDir::new(&opts.path).sort_by_file_name().into_iter();
    while let Some(next) = it.next() {
        let entry = match next {
            Ok(entry) => entry,
            Err(err) => {
                let error = err.io_error().map_or_else(|| err.to_string(), os_error);
                let depth = err.depth().min(stack.len().saturating_sub(1));
                let index = err
                    .path()
                    .and_then(|p| stack.iter().rev().find(|&&i| nodes[i].path == p))
                    .or_else(|| stack.get(depth))
                    .copied();
                if let Some(node) = index.and_then(|i| nodes.get_mut(i)) {
                    node.unlisted.get_or_insert(error);
                }
                continue;
            }
        };
        let depth = entry.depth();
        let name = entry.file_name().to_str();
        let parent = if depth == 0 {
            usize::MAX
        } else {
            let parent = stack[depth - 1];
            if let Some(name) = name {
                let symlink = entry.file_type().is_symlink();
                names.record(name, symlink, &mut nodes[parent].hits);
            }
            parent
        };
        if depth > 0 && !entry.file_type().is_dir() {
            continue;
        }
        if depth > 0 && name.is_some_and(|n| n == ".git" || opts.exclude.iter().any(|x| x == n)) {
            it.skip_current_dir();
            continue;
        }
        stack.truncate(depth);
        stack.push(nodes.len());
        nodes.push(Node {
            path: entry.into_path(),
            parent,
            hits: Vec::new(),
            unlisted: None,
        });
    }
    nodes
}

/// A project root, with its real path computed once when a symlink needs it.
#[derive(Debug)]
struct Root {
    path: PathBuf,
    canonical: OnceCell<Option<PathBuf>>,
}

impl Root {
    fn new(path: PathBuf) -> Rc<Self> {
        Rc::new(Root {
            path,
            canonical: OnceCell::new(),
        })
    }

    fn canonical(&self) -> Option<&Path> {
        self.canonical
            .get_or_init(|| fs::canonicalize(&self.path).ok())
            .as_deref()
    }
}

/// The root a directory's sessions get.
#[derive(Debug, Clone)]
enum RootOf {
    /// No marker up to `/`: every directory is its own root.
    Own,
    At(Rc<Root>),
}

/// A scanned chain directory and the chain above it.
#[derive(Debug)]
struct Link {
    dir: Dir,
    up: Option<Rc<Link>>,
}

/// What a node hands its children.
#[derive(Debug, Clone)]
struct State {
    root: RootOf,
    chain: Option<Rc<Link>>,
}

struct Checker<'a> {
    opts: &'a Options<'a>,
    names: Names,
    max_source: u64,
    user_global: Option<Dir>,
    /// Settings whose cwd is set per directory, for the identity.
    dir_settings: Settings,
    findings: Vec<Finding>,
    directories: Vec<DirBaseline>,
    checked: usize,
    largest: Option<(usize, String)>,
}

impl<'a> Checker<'a> {
    fn new(opts: &'a Options<'a>, names: Names) -> Self {
        let settings = opts.settings;
        Checker {
            opts,
            names,
            max_source: u64::try_from(settings.max_source_bytes.value.max(1)).unwrap_or(1),
            user_global: None,
            dir_settings: settings.clone(),
            findings: Vec::new(),
            directories: Vec::new(),
            checked: 0,
            largest: None,
        }
    }

    fn scan_options(&self) -> ScanOptions<'_> {
        ScanOptions {
            precedence: self.opts.settings.precedence.value,
            max_source: self.max_source,
            probe_all: true,
            loaded_path: self.user_global_path(),
        }
    }

    /// The user-global file's path when it is present (it claims the path).
    fn user_global_path(&self) -> Option<&Path> {
        let cand = self.user_global.as_ref()?.candidates.first()?;
        cand.probe
            .as_ref()
            .filter(|p| p.is_present())
            .map(|_| cand.path.as_path())
    }

    fn run(mut self, nodes: &[Node]) -> Result<Report> {
        let settings = self.opts.settings;
        if self.opts.include_user_global {
            let opts = ScanOptions {
                loaded_path: None,
                ..self.scan_options()
            };
            let ug = discovery::scan_user_global(
                &settings.dsh_home.value,
                settings.user_global_display(),
                opts,
            );
            // Shown by its display path (`~/.dsh`), as the prompt names it.
            let display = settings.user_global_display();
            let shown_dir = display
                .strip_suffix(USER_GLOBAL_FILE)
                .and_then(|d| d.strip_suffix('/'))
                .unwrap_or(display)
                .to_owned();
            for cand in &ug.candidates {
                self.judge_file(&ug, cand, &shown_dir, None);
            }
            self.user_global = Some(ug);
        }
        // The states of the current node's ancestors (node index, state):
        // nodes come parent-first, so a finished subtree's chain is dropped.
        let mut open: Vec<(usize, State)> = Vec::new();
        for (index, node) in nodes.iter().enumerate() {
            while open.last().is_some_and(|(i, _)| *i != node.parent) {
                open.pop();
            }
            let state = match open.last() {
                None => self.top_state(&node.path),
                Some(_) if self.has_marker(node) => State {
                    root: RootOf::At(Root::new(node.path.clone())),
                    chain: None,
                },
                Some((_, parent)) => match &parent.root {
                    RootOf::Own => State {
                        root: RootOf::Own,
                        chain: None,
                    },
                    RootOf::At(_) => parent.clone(),
                },
            };
            let state = self.visit(node, state);
            open.push((index, state));
        }
        let errors = self
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        Ok(Report {
            path: self.opts.path.to_string_lossy().into_owned(),
            walked: nodes.len(),
            checked: self.checked,
            max_bytes: settings.max_bytes.value,
            largest: self.largest.map(|(bytes, dir)| Largest { dir, bytes }),
            errors,
            warnings: self.findings.len() - errors,
            findings: self.findings,
            directories: self.opts.directories.then_some(self.directories),
        })
    }

    /// The walk's top directory: its root is searched upward (SPEC 2.2), and
    /// the directories between that root and it are scanned with `stat`.
    fn top_state(&self, path: &Path) -> State {
        let settings = self.opts.settings;
        let search = find_root(path, &settings.root_markers.value);
        if search.marker.is_none() {
            return State {
                root: RootOf::Own,
                chain: None,
            };
        }
        let root = Root::new(search.root);
        let mut chain: Option<Rc<Link>> = None;
        for dir_path in discovery::chain(&root.path, path) {
            if dir_path == path {
                break;
            }
            let display = paths::dir_display(&root.path, &dir_path);
            let dir = discovery::scan_dir(
                &dir_path,
                &display,
                &self.names.base,
                &self.names.local,
                self.scan_options(),
            );
            if dir.candidates.iter().any(is_found) {
                chain = Some(Rc::new(Link { dir, up: chain }));
            }
        }
        State {
            root: RootOf::At(root),
            chain,
        }
    }

    /// Whether a root marker exists in this directory (SPEC 2.2: `stat`
    /// succeeds, whatever the type). Plain names are `stat`-ed only when the
    /// listing holds them.
    fn has_marker(&self, node: &Node) -> bool {
        let exists = |name: &str| fs::metadata(node.path.join(name)).is_ok();
        if node.unlisted.is_some() {
            return self
                .opts
                .settings
                .root_markers
                .value
                .iter()
                .any(|m| exists(m));
        }
        let listed = node
            .hits
            .iter()
            .filter(|h| !self.names.is_candidate(h))
            .any(|h| exists(&self.names.all[usize::from(h.name)]));
        listed || self.names.other_markers.iter().any(|m| exists(m))
    }

    /// Stage 2 and 3 for one directory: scan it if it holds a candidate,
    /// judge its files, render its baseline. Returns what its children get.
    fn visit(&mut self, node: &Node, state: State) -> State {
        let has_candidate = node.hits.iter().any(|h| self.names.is_candidate(h));
        if !has_candidate && node.unlisted.is_none() {
            return state;
        }
        let shown_dir = self.shown(&node.path);
        if let Some(error) = &node.unlisted {
            let detail = Detail::UnreadableDir {
                error: error.clone(),
            };
            let message = format!("unreadable directory ({error}): nothing below it is checked");
            self.findings.push(Finding::new(
                shown_dir.clone(),
                shown_dir.clone(),
                detail,
                message,
            ));
        }
        let root = match &state.root {
            RootOf::Own => Root::new(node.path.clone()),
            RootOf::At(root) => Rc::clone(root),
        };
        let display = paths::dir_display(&root.path, &node.path);
        let dir = if node.unlisted.is_some() {
            discovery::scan_dir(
                &node.path,
                &display,
                &self.names.base,
                &self.names.local,
                self.scan_options(),
            )
        } else {
            let listed = |name: &str| self.listed(node, name).is_some();
            discovery::scan_dir_listed(
                &node.path,
                &display,
                &self.names.base,
                &self.names.local,
                self.scan_options(),
                &listed,
            )
        };
        let start = self.findings.len();
        for cand in &dir.candidates {
            // A directory that can be neither listed nor searched makes every
            // name unavailable for the same reason: its warning says it once.
            let same_error = matches!(
                (&cand.probe, &node.unlisted),
                (Some(Probe::Unavailable(e)), Some(d)) if e == d
            );
            if !same_error {
                // Unlisted: the file type is unknown, so `lstat` it.
                let entry = match node.unlisted {
                    Some(_) => Entry::MaybeSymlink,
                    None => match self.listed(node, &cand.name) {
                        None => Entry::None,
                        Some(hit) if hit.symlink => Entry::MaybeSymlink,
                        Some(_) => Entry::Plain,
                    },
                };
                self.judge_file(&dir, cand, &shown_dir, Some((&root, entry)));
            }
        }
        if !dir.candidates.iter().any(is_found) {
            return state;
        }
        let chain = Some(Rc::new(Link {
            dir,
            up: state.chain,
        }));
        // The directory's budget error comes first in its group.
        if let Some(budget) = self.judge_baseline(node, &root.path, chain.as_ref(), &shown_dir) {
            self.findings.insert(start, budget);
        }
        State {
            root: state.root,
            chain,
        }
    }

    /// Renders the baseline of a session in `node`; a cut is an error.
    fn judge_baseline(
        &mut self,
        node: &Node,
        root: &Path,
        chain: Option<&Rc<Link>>,
        shown_dir: &str,
    ) -> Option<Finding> {
        let mut dirs: Vec<&Dir> = Vec::new();
        let mut link = chain;
        while let Some(l) = link {
            dirs.push(&l.dir);
            link = l.up.as_ref();
        }
        dirs.extend(self.user_global.as_ref());
        dirs.reverse();
        let loaded: Vec<(&Dir, &Candidate, &str)> = dirs
            .iter()
            .flat_map(|d| {
                d.loaded()
                    .filter_map(move |c| c.text().map(|t| (*d, c, t.text.as_str())))
            })
            .collect();
        let items: Vec<Item<'_>> = loaded
            .iter()
            .map(|(_, c, text)| Item {
                path: &c.display,
                head: render::baseline_head(&c.display),
                content: text,
            })
            .collect();
        let max_bytes = self.opts.settings.max_bytes.value;
        let fit = render::fit(&items, render::INTRO, render::COMPACT, max_bytes);
        let bytes = fit.bytes();
        let whole_bytes = if items.is_empty() {
            0
        } else if fit.text.is_some() && !fit.is_cut() {
            bytes
        } else {
            render::build(
                "",
                render::INTRO,
                items.iter().map(|i| (i.head.as_str(), i.content)),
            )
            .len()
        };
        self.checked += 1;
        if self.largest.as_ref().is_none_or(|(b, _)| bytes > *b) {
            self.largest = Some((bytes, shown_dir.to_owned()));
        }
        if self.opts.directories {
            let precedence = self.opts.settings.precedence.value;
            self.dir_settings.cwd.value = node.path.clone();
            self.directories.push(DirBaseline {
                dir: shown_dir.to_owned(),
                project_root: root.to_string_lossy().into_owned(),
                identity: self.dir_settings.identity(root),
                bytes,
                whole_bytes,
                max_bytes,
                omitted: fit.omitted.clone(),
                truncated: fit.truncated.iter().cloned().collect(),
                files: loaded
                    .iter()
                    .zip(&fit.represented)
                    .map(|((d, c, text), represented)| BaselineFile {
                        path: c.display.clone(),
                        scope: d.scope_key_of(c, precedence),
                        digest: c.text().map(|t| t.digest.clone()).unwrap_or_default(),
                        bytes: text.len(),
                        represented: *represented,
                    })
                    .collect(),
            });
        }
        if !fit.is_cut() {
            return None;
        }
        let shown_item = |(d, c, _): &(&Dir, &Candidate, &str)| self.shown_file(d, c);
        let omitted: Vec<String> = loaded[..fit.omitted.len()].iter().map(shown_item).collect();
        let truncated: Vec<Truncation> = fit
            .truncated
            .iter()
            .map(|t| Truncation {
                path: loaded.last().map(shown_item).unwrap_or_default(),
                ..t.clone()
            })
            .collect();
        let mut message = format!(
            "over budget: a session in {shown_dir} gets {bytes} of max {max_bytes} bytes, its whole baseline needs {whole_bytes}"
        );
        let mut parts = Vec::new();
        if !omitted.is_empty() {
            parts.push(format!("omitted {}", omitted.join(", ")));
        }
        for t in &truncated {
            parts.push(format!(
                "truncated {} from {} to {} bytes",
                t.path, t.original_bytes, t.included_bytes
            ));
        }
        message.push_str(": ");
        message.push_str(&parts.join("; "));
        // Attach it to the directory's own file: its first loaded candidate,
        // else its first one found.
        let own = chain.map(|l| &l.dir);
        let file = own
            .and_then(|d| {
                d.loaded()
                    .next()
                    .or_else(|| d.candidates.iter().find(|c| is_found(c)))
                    .map(|c| self.shown(&c.path))
            })
            .unwrap_or_else(|| shown_dir.to_owned());
        let detail = Detail::OverBudget {
            bytes,
            whole_bytes,
            max_bytes,
            omitted,
            truncated,
        };
        Some(Finding::new(shown_dir.to_owned(), file, detail, message))
    }

    /// The listing's entry for a configured name, if it holds one.
    fn listed(&self, node: &Node, name: &str) -> Option<Hit> {
        node.hits
            .iter()
            .find(|h| self.names.all[usize::from(h.name)] == name)
            .copied()
    }

    /// Judges one candidate file, once, in the directory that holds it.
    /// `place` is its project root and what the listing says of it (`None`
    /// for the user-global file).
    fn judge_file(
        &mut self,
        dir: &Dir,
        cand: &Candidate,
        shown_dir: &str,
        place: Option<(&Root, Entry)>,
    ) {
        let root = place.map(|(root, _)| root);
        let mut found: Vec<(Detail, String)> = Vec::new();
        let max_source_bytes = self.opts.settings.max_source_bytes.value;
        match &cand.probe {
            None => {}
            Some(Probe::Missing(_)) => {
                // Listed as a symlink, yet `stat` finds nothing: dangling.
                let link = match place {
                    Some((_, Entry::MaybeSymlink)) => fs::read_link(&cand.path).ok(),
                    _ => None,
                };
                if let Some(target) = link {
                    let target = target.to_string_lossy().into_owned();
                    found.push((
                        Detail::BrokenSymlink {
                            target: target.clone(),
                        },
                        format!(
                            "broken symlink: points to {target}, which does not exist, so sessions load nothing from it"
                        ),
                    ));
                }
            }
            Some(Probe::NotRegular(kind)) => found.push((
                Detail::NotRegular { file_type: kind },
                format!("not a regular file (a {kind}): sessions skip it"),
            )),
            Some(Probe::Unavailable(error)) => found.push((
                Detail::Unavailable {
                    error: error.clone(),
                },
                format!("unreadable ({error}): sessions skip it"),
            )),
            Some(Probe::File { size }) => match &cand.load {
                None => {}
                Some(Load::Oversized { bytes, .. }) => {
                    let what = if *size > self.max_source {
                        format!("{bytes} bytes")
                    } else {
                        format!("{bytes} bytes once decoded")
                    };
                    found.push((
                        Detail::Oversized {
                            bytes: *bytes,
                            max_source_bytes,
                        },
                        format!(
                            "too large: {what}, over max-source-bytes {max_source_bytes}, so sessions do not load it"
                        ),
                    ));
                }
                Some(Load::Unreadable(error)) => found.push((
                    Detail::Unavailable {
                        error: error.clone(),
                    },
                    format!("unreadable ({error}): sessions skip it"),
                )),
                Some(Load::Text(_)) => {}
            },
        }
        let leaves = match (place, &cand.probe) {
            (
                Some((root, Entry::MaybeSymlink)),
                Some(Probe::File { .. } | Probe::NotRegular(_)),
            ) => leaves_root(&cand.path, root).map(|link| (link, self.shown(&root.path))),
            _ => None,
        };
        if let Some((link, shown_root)) = leaves {
            found.push((
                Detail::SymlinkLeavesTree {
                    target: link.clone(),
                    project_root: shown_root.clone(),
                },
                format!(
                    "symlink leaves the project: points to {link}, which resolves outside its project root ({shown_root})"
                ),
            ));
        }
        if let Some(text) = cand.text() {
            let stub = root.and_then(|_| stub_target(dir, cand, &text.text));
            if let Some(sibling) = &stub {
                let shown = self.shown(&dir.path.join(sibling));
                found.push((
                    Detail::SymlinkStub {
                        sibling: shown.clone(),
                    },
                    format!(
                        "symlink checked out as text: the whole content is the name of its sibling {shown}, so sessions get the name instead of the instructions"
                    ),
                ));
            }
            if stub.is_none() {
                if let Some(other) = self.differs(dir, cand) {
                    found.push(other);
                }
            }
            if text.lossy {
                found.push((
                    Detail::InvalidUtf8,
                    "invalid UTF-8: sessions get U+FFFD in place of the invalid bytes".to_owned(),
                ));
            }
            if let Some(at) = text.text.find(render::CLOSE) {
                let line = 1 + text.text[..at].bytes().filter(|b| *b == b'\n').count();
                found.push((
                    Detail::SystemReminder { line },
                    format!(
                        "literal </system-reminder> on line {line}: sessions see it escaped as <\\/system-reminder>"
                    ),
                ));
            }
            if js_trim(&text.text).is_empty() {
                let whitespace = !text.text.is_empty();
                let message = if whitespace {
                    "only whitespace: sessions get an empty section"
                } else {
                    "empty file: sessions get an empty section"
                };
                found.push((Detail::Empty { whitespace }, message.to_owned()));
            }
        }
        if found.is_empty() {
            return;
        }
        let file = self.shown_file(dir, cand);
        for (detail, message) in found {
            self.findings.push(Finding::new(
                shown_dir.to_owned(),
                file.clone(),
                detail,
                message,
            ));
        }
    }

    /// Drift (`first`: a shadowed file that differs from its winner) or two
    /// sources of truth (`all`: a later sibling of the same tier that loads
    /// too, so its trimmed content differs).
    fn differs(&self, dir: &Dir, cand: &Candidate) -> Option<(Detail, String)> {
        let text = cand.text()?;
        match (&cand.fate, self.opts.settings.precedence.value) {
            (Fate::Shadowed { by }, Precedence::First) => {
                let winner = dir
                    .candidates
                    .iter()
                    .find(|c| c.tier == cand.tier && &c.display == by)?;
                let won = winner.text()?;
                if js_trim(&won.text) == js_trim(&text.text) {
                    return None;
                }
                let shown = self.shown(&winner.path);
                Some((
                    Detail::Drift {
                        winner: shown.clone(),
                    },
                    format!(
                        "drift: differs from {shown}, which wins, so sessions never see this file"
                    ),
                ))
            }
            (Fate::Loaded, Precedence::All) => {
                let first = dir
                    .candidates
                    .iter()
                    .find(|c| c.tier == cand.tier && c.fate == Fate::Loaded)?;
                if std::ptr::eq(first, cand) {
                    return None;
                }
                let shown = self.shown(&first.path);
                Some((
                    Detail::TwoSources {
                        sibling: shown.clone(),
                    },
                    format!(
                        "two sources of truth: loads next to {shown} with different content, sessions get both"
                    ),
                ))
            }
            _ => None,
        }
    }

    /// A path as shown: relative to where check was started.
    fn shown(&self, path: &Path) -> String {
        relative(&self.opts.base, path)
    }

    /// A candidate as shown; the user-global file by its display path.
    fn shown_file(&self, dir: &Dir, cand: &Candidate) -> String {
        if cand.tier == TierKind::UserGlobal {
            cand.display.clone()
        } else {
            self.shown(&dir.path.join(&cand.name))
        }
    }
}

/// Whether a candidate's name exists in some form (file, non-file, or
/// unavailable): its directory then holds a candidate.
fn is_found(cand: &Candidate) -> bool {
    matches!(
        cand.probe,
        Some(Probe::File { .. } | Probe::NotRegular(_) | Probe::Unavailable(_))
    )
}

/// The link text of a symlinked candidate whose target lies outside `root`
/// (both compared as real paths).
fn leaves_root(path: &Path, root: &Root) -> Option<String> {
    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_symlink() {
        return None;
    }
    let target = fs::canonicalize(path).ok()?;
    if target.starts_with(root.canonical()?) {
        return None;
    }
    Some(fs::read_link(path).ok()?.to_string_lossy().into_owned())
}

/// The sibling a file names when its whole (trimmed) content is the name of
/// another file in its directory: a symlink checked out as a text stub.
fn stub_target(dir: &Dir, cand: &Candidate, text: &str) -> Option<String> {
    let name = js_trim(text);
    if !is_plain_name(name) || name.len() > 255 || name.contains(['\n', '\r', '\0']) {
        return None;
    }
    if name == cand.name {
        return None;
    }
    match fs::metadata(dir.path.join(name)) {
        Ok(meta) if meta.is_file() => Some(name.to_owned()),
        Ok(_) => None,
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(_) => None,
    }
}

/// `path` relative to `base` (both absolute and normalised), with `/`
/// separators: `.`, `a/b`, `../x`.
pub fn relative(base: &Path, path: &Path) -> String {
    let base: Vec<Component<'_>> = base.components().collect();
    let path: Vec<Component<'_>> = path.components().collect();
    let common = base.iter().zip(&path).take_while(|(a, b)| a == b).count();
    let parts: Vec<String> = std::iter::repeat_n("..".to_owned(), base.len() - common)
        .chain(
            path[common..]
                .iter()
                .map(|c| c.as_os_str().to_string_lossy().into_owned()),
        )
        .collect();
    if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn relative_paths_go_up_then_down() {
        let base = Path::new("/r/a");
        assert_eq!(relative(base, Path::new("/r/a")), ".");
        assert_eq!(relative(base, Path::new("/r/a/b/c")), "b/c");
        assert_eq!(relative(base, Path::new("/r/x/y")), "../x/y");
        assert_eq!(relative(base, Path::new("/r")), "..");
        assert_eq!(relative(Path::new("/"), Path::new("/r")), "r");
    }

    #[test]
    fn names_match_listing_entries_ignoring_ascii_case() {
        let names = Names {
            base: vec!["AGENTS.md".into()],
            local: vec![],
            other_markers: vec![],
            all: vec!["AGENTS.md".into(), ".git".into()],
            candidates: 1,
        };
        let mut hits = Vec::new();
        names.record("agents.md", false, &mut hits);
        names.record("README.md", true, &mut hits);
        names.record(".git", false, &mut hits);
        names.record("AGENTS.md", true, &mut hits);
        let hit = |name, symlink| Hit { name, symlink };
        assert_eq!(hits, vec![hit(0, true), hit(1, false)]);
    }

    #[test]
    fn plain_names_exclude_dots_and_paths() {
        assert!(is_plain_name(".git"));
        assert!(!is_plain_name(""));
        assert!(!is_plain_name("."));
        assert!(!is_plain_name(".."));
        assert!(!is_plain_name("a/b"));
    }
}

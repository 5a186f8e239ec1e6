//! Stage 2 of check: each walked directory's project root and chain, and
//! the driver that runs stage 3 on every directory holding a candidate.

use std::cell::{Cell, OnceCell};
use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::budget::{Cut, Excess, Lost};
use super::prepared::{NameNode, Prepared, Sums};
use super::walk::{self, Names, Node, WalkOptions};
use super::{DirBaseline, Finding, Largest, Received, Report, Request, Session, Severity, Target};
use crate::discovery::{self, Dir, Probe, Realms, ScanOptions, find_root};
use crate::paths;
use crate::settings::{Settings, USER_GLOBAL_FILE};

/// A project root, with the real paths its symlinks are judged against
/// computed once, when a scan first needs them.
#[derive(Debug)]
pub(super) struct Root {
    pub path: PathBuf,
    realms: OnceCell<Realms>,
}

impl Root {
    fn new(path: PathBuf) -> Rc<Self> {
        Rc::new(Root {
            path,
            realms: OnceCell::new(),
        })
    }

    pub fn realms(&self, settings: &Settings) -> &Realms {
        self.realms
            .get_or_init(|| Realms::new(Some(&self.path), settings))
    }
}

/// The root a directory's sessions get.
#[derive(Debug, Clone)]
enum RootOf {
    /// No marker up to `/`: every directory is its own root.
    Own,
    At(Rc<Root>),
}

/// A scanned chain directory and the chain above it, with what its
/// baselines need of its loaded files, prepared once when it joins.
#[derive(Debug)]
pub(super) struct Link {
    pub dir: Dir,
    pub up: Option<Rc<Link>>,
    /// Links above it.
    pub depth: usize,
    /// Its loaded files that have text, in order.
    pub files: Vec<Prepared>,
    /// Sums over every loaded file above it (the user-global file included).
    pub before: Sums,
    /// Shown paths of the loaded files up to and including its own.
    pub names: Option<Rc<NameNode>>,
    /// Whether its own baseline was judged (then every double load within
    /// it was too).
    pub judged: Cell<bool>,
}

/// What a node hands its children, its root and the chain above them
/// (`None`: left out, with its subtree).
#[derive(Debug, Clone)]
struct Inherited {
    root: RootOf,
    chain: Option<Rc<Link>>,
}

pub(super) struct Checker<'a> {
    pub opts: &'a Request<'a>,
    pub names: Names,
    pub max_source: u64,
    pub user_global: Option<Dir>,
    user_realms: Realms,
    /// Settings whose cwd is set per directory, for the identity.
    pub dir_settings: Settings,
    pub findings: Vec<Finding>,
    pub directories: Vec<DirBaseline>,
    pub received: Vec<Received>,
    pub checked: usize,
    pub largest: Option<(usize, String)>,
    /// Directories already reported (targets may overlap).
    seen: HashSet<PathBuf>,
    /// Files already judged for a secret or double load.
    pub judged: HashSet<PathBuf>,
    /// The chain last judged, top first (links stay shared, never copied).
    pub stack: Vec<Rc<Link>>,
    /// The user-global file's prepared data, before every chain.
    pub ug_files: Vec<Prepared>,
    pub ug_names: Option<Rc<NameNode>>,
    /// Positions in `stack`'s baseline of each real (unlinked) file's path,
    /// and of each symlink's resolved path, ascending.
    pub real_at: HashMap<PathBuf, Vec<usize>>,
    pub links_to: HashMap<PathBuf, Vec<usize>>,
    /// File entries the baseline judging visited (a deterministic work count).
    pub work: u64,
    /// Every cut baseline in walk order, and its numbers.
    pub cuts: Vec<Cut>,
    pub excesses: Vec<Excess>,
    /// Files whose losses are final (they left the chain).
    pub lost: Vec<Lost>,
    /// Whether the directory being judged records its cut (not when an
    /// overlapping target reaches it again).
    pub recording: bool,
    /// The order of each directory's group of findings.
    pub groups: HashMap<String, usize>,
    /// The other harnesses' session directories, and where each is listed.
    sessions: Vec<Session>,
    session_at: HashMap<PathBuf, usize>,
}

/// Checks every target of `opts` into one report, with the work count of
/// the baseline judging.
pub(super) fn run_counted(opts: &Request<'_>) -> (Report, u64) {
    let settings = opts.settings;
    let mut checker = Checker::new(opts);
    if opts.include_user_global && opts.dsh {
        checker.scan_user_global();
    }
    let mut excluded = vec![false; opts.exclude.len()];
    let mut ignore_warnings = Vec::new();
    let mut walked = 0;
    let send = |node: &Node, mask: u32| {
        if let Some(tx) = &opts.sink {
            // A closed channel only means nobody preloads.
            let _ = tx.send((node.path.clone(), mask));
        }
    };
    for target in &opts.targets {
        // A file's target leaves nested roots out, which the walk does not
        // know: its sessions are listed after it.
        let streams = opts.sink.is_some() && target.nested_roots;
        let walk_opts = WalkOptions {
            names: &checker.names,
            exclude: opts.exclude,
            ignore: opts.ignore,
            base: &opts.base,
            sink: streams.then_some(&send as &walk::Sink<'_>),
        };
        let mut found = walk::walk(&target.path, &walk_opts);
        ignore_warnings.append(&mut found.warnings);
        for (x, hit) in excluded.iter_mut().zip(&found.excluded) {
            *x |= hit;
        }
        walked += checker.run_target(target, &found.nodes);
    }
    checker.unwind(0);
    checker.finish_user_global();
    let budget = checker.budget_findings();
    checker.findings = checker.place(budget);
    let errors = checker
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let report = Report {
        harness: "dsh",
        paths: opts
            .targets
            .iter()
            .map(|t| t.path.to_string_lossy().into_owned())
            .collect(),
        walked,
        checked: checker.checked,
        max_bytes: Some(settings.max_bytes.value),
        largest: checker.largest.map(|(bytes, dir)| Largest { dir, bytes }),
        errors,
        warnings: checker.findings.len() - errors,
        findings: checker.findings,
        directories: opts.directories.then_some(checker.directories),
        received: checker.received,
        sessions: checker.sessions,
        unmatched_excludes: opts
            .exclude
            .iter()
            .zip(&excluded)
            .filter(|(_, hit)| !**hit)
            .map(|(x, _)| x.clone())
            .collect(),
        ignore_warnings,
    };
    (report, checker.work)
}

impl<'a> Checker<'a> {
    fn new(opts: &'a Request<'a>) -> Self {
        let settings = opts.settings;
        Checker {
            opts,
            names: Names::with_harnesses(settings, &opts.harness_names),
            max_source: settings.max_source(),
            user_global: None,
            user_realms: Realms::new(None, settings),
            dir_settings: settings.clone(),
            findings: Vec::new(),
            directories: Vec::new(),
            received: Vec::new(),
            checked: 0,
            largest: None,
            seen: HashSet::new(),
            judged: HashSet::new(),
            stack: Vec::new(),
            ug_files: Vec::new(),
            ug_names: None,
            real_at: HashMap::new(),
            links_to: HashMap::new(),
            work: 0,
            cuts: Vec::new(),
            excesses: Vec::new(),
            lost: Vec::new(),
            recording: true,
            groups: HashMap::new(),
            sessions: Vec::new(),
            session_at: HashMap::new(),
        }
    }
}

impl Checker<'_> {
    pub fn scan_options<'s>(&'s self, root: Option<&'s Root>) -> ScanOptions<'s> {
        ScanOptions {
            precedence: self.opts.settings.precedence.value,
            max_source: self.max_source,
            probe_all: true,
            loaded_path: self.user_global_path(),
            realms: Some(root.map_or(&self.user_realms, |r| r.realms(self.opts.settings))),
        }
    }

    /// The user-global file's path when it is present (it claims the path).
    fn user_global_path(&self) -> Option<&Path> {
        self.user_global.as_ref()?.present_user_global()
    }

    /// Scans and judges the user-global file, shown by its display path.
    fn scan_user_global(&mut self) {
        let settings = self.opts.settings;
        let opts = ScanOptions {
            loaded_path: None,
            ..self.scan_options(None)
        };
        let display = settings.user_global_display();
        let ug = discovery::scan_user_global(&settings.dsh_home.value, display, opts);
        let shown_dir = display
            .strip_suffix(USER_GLOBAL_FILE)
            .and_then(|d| d.strip_suffix('/'))
            .unwrap_or(display)
            .to_owned();
        self.group(&shown_dir);
        for cand in &ug.candidates {
            self.judge_file(&ug, cand, &shown_dir, None);
        }
        self.ug_files = self.prepare(&ug, &shown_dir);
        self.ug_names = NameNode::new(&self.ug_files, None);
        for (pos, f) in self.ug_files.iter().enumerate() {
            let cand = &ug.candidates[f.cand];
            super::prepared::index(&mut self.real_at, &mut self.links_to, cand, pos);
        }
        self.user_global = Some(ug);
    }

    /// Visits the nodes of one target; returns how many were new.
    fn run_target(&mut self, target: &Target, nodes: &[Node]) -> usize {
        // What each open ancestor hands down (node index, inherited):
        // nodes come parent-first, so a finished subtree's chain is dropped.
        let mut open: Vec<(usize, Option<Inherited>)> = Vec::new();
        let mut walked = 0;
        for (index, node) in nodes.iter().enumerate() {
            while open.last().is_some_and(|(i, _)| Some(*i) != node.parent) {
                open.pop();
            }
            let inherited = match open.last() {
                None => Some(self.top_inherited(&node.path)),
                Some((_, None)) => None,
                Some(_) if self.has_marker(node) => target.nested_roots.then(|| Inherited {
                    root: RootOf::At(Root::new(node.path.clone())),
                    chain: None,
                }),
                Some((_, Some(parent))) => Some(match &parent.root {
                    RootOf::Own => Inherited {
                        root: RootOf::Own,
                        chain: None,
                    },
                    RootOf::At(_) => parent.clone(),
                }),
            };
            let inherited = inherited.map(|inherited| {
                walked += usize::from(!self.seen.contains(&node.path));
                self.note_session(node, index == 0);
                self.visit(node, inherited)
            });
            open.push((index, inherited));
        }
        walked
    }

    /// The walk's top directory: its root is searched upward (SPEC 2.2), and
    /// the directories between that root and it are scanned with `stat`.
    fn top_inherited(&mut self, path: &Path) -> Inherited {
        let settings = self.opts.settings;
        let search = find_root(path, &settings.root_markers.value);
        if search.marker.is_none() {
            return Inherited {
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
                self.scan_options(Some(&root)),
            );
            if dir.candidates.iter().any(is_found) {
                let group = self.shown(&dir_path);
                self.group(&group);
                chain = Some(self.link(dir, chain, &group));
            }
        }
        Inherited {
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
            .filter(|h| self.names.is_marker(h))
            .any(|h| exists(&self.names.all[h.name]));
        listed || self.names.other_markers.iter().any(|m| exists(m))
    }

    /// Stage 2 and 3 for one directory: scan it if it holds a candidate,
    /// judge its files, render its baseline. Returns what its children get.
    fn visit(&mut self, node: &Node, inherited: Inherited) -> Inherited {
        let has_candidate = node.hits.iter().any(|h| self.names.is_candidate(h));
        if !self.opts.dsh {
            return inherited;
        }
        if !has_candidate && node.unlisted.is_none() {
            if self.opts.also.contains(&node.path) {
                self.render_only(node, &inherited);
            }
            return inherited;
        }
        let root = match &inherited.root {
            RootOf::Own => Root::new(node.path.clone()),
            RootOf::At(root) => Rc::clone(root),
        };
        let dir = self.scan(node, &root);
        // A directory already reported by an overlapping target is scanned
        // again for its chain, and its findings dropped.
        let first_time = self.seen.insert(node.path.clone());
        let (findings, directories, checked) =
            (self.findings.len(), self.directories.len(), self.checked);
        let received = self.received.len();
        let largest = self.largest.clone();
        let shown_dir = self.shown(&node.path);
        self.group(&shown_dir);
        self.judge_dir(node, &dir, &root, &shown_dir);
        let inherited = if dir.candidates.iter().any(is_found) {
            let chain = self.link(dir, inherited.chain, &shown_dir);
            let at = findings + usize::from(node.unlisted.is_some());
            self.recording = first_time;
            self.judge_baseline(&node.path, &root, &chain, &shown_dir, Some(at));
            self.recording = true;
            Inherited {
                root: inherited.root,
                chain: Some(chain),
            }
        } else {
            inherited
        };
        if !first_time {
            self.findings.truncate(findings);
            self.directories.truncate(directories);
            self.received.truncate(received);
            self.checked = checked;
            self.largest = largest;
        }
        inherited
    }

    fn scan(&self, node: &Node, root: &Root) -> Dir {
        let display = paths::dir_display(&root.path, &node.path);
        let opts = self.scan_options(Some(root));
        if node.unlisted.is_some() {
            discovery::scan_dir(
                &node.path,
                &display,
                &self.names.base,
                &self.names.local,
                opts,
            )
        } else {
            let listed = |name: &str| node.hits.iter().any(|h| self.names.all[h.name] == name);
            discovery::scan_dir_listed(
                &node.path,
                &display,
                &self.names.base,
                &self.names.local,
                opts,
                &listed,
            )
        }
    }

    /// The unreadable-directory warning and every candidate file's findings.
    fn judge_dir(&mut self, node: &Node, dir: &Dir, root: &Root, shown_dir: &str) {
        if let Some(error) = &node.unlisted {
            let detail = super::Detail::UnreadableDir {
                error: error.clone(),
            };
            self.findings.push(Finding::new(
                shown_dir.to_owned(),
                shown_dir.to_owned(),
                detail,
            ));
        }
        for cand in &dir.candidates {
            // A directory that can be neither listed nor searched makes every
            // name unavailable for the same reason: its warning says it once.
            let same_error = matches!(
                (&cand.probe, &node.unlisted),
                (Some(Probe::Unavailable(e)), Some(d)) if e == d
            );
            if !same_error {
                self.judge_file(dir, cand, shown_dir, Some(root));
            }
        }
    }

    /// A path as shown: relative to where check was started.
    pub fn shown(&self, path: &Path) -> String {
        crate::paths::relative(&self.opts.base, path)
    }

    /// Reports what a session in a directory without its own instruction
    /// file gets (its chain's), without judging it ([`Request::also`]).
    fn render_only(&mut self, node: &Node, inherited: &Inherited) {
        let (RootOf::At(root), Some(chain)) = (&inherited.root, &inherited.chain) else {
            return;
        };
        if !self.opts.directories || !self.seen.insert(node.path.clone()) {
            return;
        }
        let shown_dir = self.shown(&node.path);
        let root = Rc::clone(root);
        let chain = Rc::clone(chain);
        self.judge_baseline(&node.path, &root, &chain, &shown_dir, None);
    }

    /// The order of a directory's group of findings: first seen, first.
    fn group(&mut self, dir: &str) {
        let next = self.groups.len();
        self.groups.entry(dir.to_owned()).or_insert(next);
    }

    /// Lists a walked directory for the other harnesses: one whose listing
    /// holds one of their names, and the top of each target (a session
    /// there gets its ancestors' files and the global ones).
    fn note_session(&mut self, node: &Node, top: bool) {
        if self.opts.harness_names.is_empty() {
            return;
        }
        let all = u32::MAX >> (32 - self.opts.harness_names.len().min(32));
        let mask = if top {
            all
        } else {
            node.hits
                .iter()
                .fold(0, |m, h| m | self.names.harness_mask(h))
        };
        let only = if self.opts.also.contains(&node.path) {
            all & !mask
        } else {
            0
        };
        if mask | only == 0 {
            return;
        }
        if let Some(&i) = self.session_at.get(&node.path) {
            let s = &mut self.sessions[i];
            s.mask |= mask;
            s.only = (s.only | only) & !s.mask;
        } else {
            self.session_at
                .insert(node.path.clone(), self.sessions.len());
            self.sessions.push(Session {
                path: node.path.clone(),
                mask,
                only,
            });
        }
    }
}

/// Whether a candidate's name exists in some form (file, non-file, or
/// unavailable): its directory then holds a candidate.
pub(super) fn is_found(cand: &discovery::Candidate) -> bool {
    matches!(
        cand.probe,
        Some(Probe::File { .. } | Probe::NotRegular(_) | Probe::Unavailable(_))
    )
}

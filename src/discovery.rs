//! Discovery: which instruction files a session started in a directory sees.
//!
//! The algorithm (SPEC 2 and 3), in three stages:
//!
//! 1. **Find paths.** Walk upward from the cwd testing the root markers in
//!    order; the first directory holding one (file or directory, links
//!    followed) is the project root, else the cwd is. The chain is every
//!    directory from the root down to the cwd.
//! 2. **Read them.** The user-global `<dsh home>/AGENTS.md` first, then for
//!    each chain directory its base tier then its local tier. Each candidate
//!    is probed with `stat` following links: a regular file is present; a
//!    missing path or a non-file is absent (a FIFO is never opened); a
//!    component that is not a directory is absent in `first` mode and
//!    unavailable in `all` mode; any other error makes it unavailable. A
//!    present file larger than max-source-bytes is oversized; otherwise at
//!    most max-source-bytes + 1 bytes are read as dsh's filesystem provider
//!    reads text (a NUL in the first 8192 bytes or invalid UTF-8 makes it
//!    unreadable, one leading BOM is removed) and hashed with SHA-1.
//! 3. **Resolve scopes.** `first`: per directory and tier the first present
//!    candidate wins, and an oversized or unreadable winner yields nothing.
//!    `all`: every present candidate loads, then per directory a file whose
//!    trimmed content repeats an earlier kept file is dropped. The same
//!    absolute path never loads twice.
//!
//! Rendering the loaded files is `render`'s job; this module returns data.

use std::fs;
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};

use crate::paths;
use crate::settings::{Precedence, Settings, USER_GLOBAL_FILE};

mod link;
mod probe;
mod read;
mod root;

pub use link::{Place, Realms, Symlink, probe_link, secret_place};
pub use probe::{Absence, Probe, kind_name, os_error, probe};
pub use read::{
    BINARY_SAMPLE_BYTES, Load, Text, Unreadable, decode, is_js_whitespace, js_trim, load, sha1_hex,
};
pub use root::{MarkerHit, RootSearch, chain, find_root};

/// The scope key and display name of the user-global directory.
pub const USER_GLOBAL: &str = "user-global";

/// Which tier of a directory a candidate belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierKind {
    UserGlobal,
    Base,
    Local,
}

/// What happened to one candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// It loaded and counts toward the baseline.
    Loaded,
    /// Not looked at: an earlier candidate of its tier won (`first`).
    NotProbed,
    /// Present, but an earlier candidate of its tier won (`first`).
    Shadowed { by: String },
    /// Dropped: same trimmed content as an earlier file of its directory (`all`).
    Duplicate { of: String },
    /// The same absolute path already loaded (as the user-global file).
    SamePath,
    /// Absent, unavailable, oversized or unreadable: see its probe and load.
    NotLoaded,
}

/// One candidate file name in one directory tier.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub name: String,
    pub path: PathBuf,
    pub display: String,
    pub tier: TierKind,
    pub probe: Option<Probe>,
    /// Set when the probe found a symlink.
    pub link: Option<Symlink>,
    pub load: Option<Load>,
    pub fate: Fate,
}

impl Candidate {
    /// The loaded text, when it loaded or was read.
    #[must_use]
    pub fn text(&self) -> Option<&Text> {
        match &self.load {
            Some(Load::Text(t)) => Some(t),
            _ => None,
        }
    }
}

/// The state of one scope key now (what reconciliation compares).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScopeStatus {
    /// Loaded from the candidate at this index of the directory's list.
    Loaded(usize),
    /// Present but dropped as a duplicate (`all`) of the candidate at index.
    Duplicate(usize),
    /// Every candidate of the scope probed absent.
    Absent,
    /// No candidate present and one unavailable: no transition.
    Unavailable,
    /// An oversized or unreadable winner: nothing loads and no transition
    /// happens.
    Blocked,
    /// The candidate at this index is present, but its path already loaded
    /// in this scan (the user-global file): it is not read. Reconciliation
    /// decides again by what its own pass claimed (SPEC 6).
    SamePath(usize),
}

/// One scope of a directory: its key and status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    pub key: String,
    pub tier: TierKind,
    pub status: ScopeStatus,
}

/// One scanned directory: its candidates and scopes.
#[derive(Debug, Clone)]
pub struct Dir {
    pub path: PathBuf,
    /// `.` for the root, `a/b` below it, `user-global` for the dsh home.
    pub display: String,
    pub candidates: Vec<Candidate>,
    pub scopes: Vec<Scope>,
}

impl Dir {
    #[must_use]
    pub fn is_user_global(&self) -> bool {
        self.display == USER_GLOBAL
    }

    /// For the user-global directory: the file's path when it is present
    /// (it claims that path, so no project file loads it again).
    #[must_use]
    pub fn present_user_global(&self) -> Option<&Path> {
        let cand = self.candidates.first()?;
        cand.probe
            .as_ref()
            .filter(|p| p.is_present())
            .map(|_| cand.path.as_path())
    }

    /// The candidates that load, in order.
    pub fn loaded(&self) -> impl Iterator<Item = &Candidate> {
        self.candidates.iter().filter(|c| c.fate == Fate::Loaded)
    }

    /// The scope key a candidate belongs to under `precedence`.
    #[must_use]
    pub fn scope_key_of(&self, candidate: &Candidate, precedence: Precedence) -> String {
        scope_key(&self.display, candidate.tier, &candidate.name, precedence)
    }
}

/// The scope key of a candidate (SPEC 3.2).
#[must_use]
pub fn scope_key(dir: &str, tier: TierKind, name: &str, precedence: Precedence) -> String {
    match (tier, precedence) {
        (TierKind::UserGlobal, Precedence::First) => USER_GLOBAL.to_owned(),
        (TierKind::UserGlobal, Precedence::All) => [USER_GLOBAL, "\0", USER_GLOBAL_FILE].concat(),
        (TierKind::Base, Precedence::First) => dir.to_owned(),
        (TierKind::Local, Precedence::First) => [dir, "\0local"].concat(),
        (_, Precedence::All) => [dir, "\0", name].concat(),
    }
}

/// The directory part of a scope key: `user-global`, `.`, or `a/b`.
#[must_use]
pub fn scope_dir(key: &str) -> &str {
    key.split('\0').next().unwrap_or(key)
}

/// Options for scanning.
#[derive(Debug, Clone, Copy)]
pub struct ScanOptions<'a> {
    pub precedence: Precedence,
    pub max_source: u64,
    /// Probe and read every candidate, also those a `first` winner shadows
    /// (for explain and check); render and diff stop at the winner.
    pub probe_all: bool,
    /// A path that already loaded and must not load again.
    pub loaded_path: Option<&'a Path>,
    /// Where symlinks are judged against (none: links are not followed up).
    pub realms: Option<&'a Realms>,
}

/// Scans one directory of the chain (or a touched directory).
#[must_use]
pub fn scan_dir(
    path: &Path,
    display: &str,
    base: &[String],
    local: &[String],
    opts: ScanOptions<'_>,
) -> Dir {
    let tiers = [(TierKind::Base, base), (TierKind::Local, local)];
    scan(path, display, &tiers, opts, &|path, _| {
        probe_link(path, opts.realms)
    })
}

/// Scans one directory whose listing is already known: `listed(name)` says
/// whether the listing holds an entry that may be `name`. A name it does not
/// hold is taken as missing without a `stat` (what `stat` would say of a name
/// that is not in the directory); every other name is probed as `scan_dir`
/// does, so the Probe, Load, Fate and `ScopeStatus` rules are the same.
pub fn scan_dir_listed(
    path: &Path,
    display: &str,
    base: &[String],
    local: &[String],
    opts: ScanOptions<'_>,
    listed: &dyn Fn(&str) -> bool,
) -> Dir {
    let tiers = [(TierKind::Base, base), (TierKind::Local, local)];
    scan(path, display, &tiers, opts, &|path, name| {
        if listed(name) {
            probe_link(path, opts.realms)
        } else {
            (Probe::Missing(Absence::NoEntry), None)
        }
    })
}

/// How `scan` probes a candidate: its path and its name.
type Prober<'p> = dyn Fn(&Path, &str) -> (Probe, Option<Symlink>) + 'p;

/// An open handle on a chain directory (`O_PATH`: it reads nothing and
/// needs only the search permission that `stat` of a path in it needs).
/// The first is opened by its path, each one after it by its last
/// component in the one before, as resolving its path would find it.
/// `None` when it cannot be opened: its names are then probed by path.
fn open_chain_dir(parent: Option<&OwnedFd>, path: &Path) -> Option<OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let last = path.components().next_back();
    match (parent, last) {
        (Some(parent), Some(Component::Normal(name))) => {
            rustix::fs::openat(parent, name, flags, Mode::empty())
        }
        _ => rustix::fs::open(path, flags, Mode::empty()),
    }
    .ok()
}

/// [`scan_dir`] of a chain directory through `handle`, an open handle on
/// it: a name is asked of the handle (`lstat` in it), so the kernel walks
/// one component, not the directory's whole path (issue 28: `render` 12
/// levels deep asks 52 names; through handles its CPU time fell by about
/// 2%, 0.95 to 0.93 ms, medians of 500 runs). A missing name or
/// a regular file is what `lstat` of its path says; anything else (a
/// symlink, an error) is probed by path, as [`scan_dir`] probes it.
fn scan_chain_dir(
    path: &Path,
    display: &str,
    (base, local): (&[String], &[String]),
    opts: ScanOptions<'_>,
    handle: &OwnedFd,
) -> Dir {
    use rustix::fs::{AtFlags, FileType};
    let tiers = [(TierKind::Base, base), (TierKind::Local, local)];
    scan(
        path,
        display,
        &tiers,
        opts,
        &|path, name| match rustix::fs::statat(handle, name, AtFlags::SYMLINK_NOFOLLOW) {
            Err(rustix::io::Errno::NOENT) => (Probe::Missing(Absence::NoEntry), None),
            Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile => {
                let size = u64::try_from(stat.st_size).unwrap_or(0);
                (Probe::File { size }, None)
            }
            _ => probe_link(path, opts.realms),
        },
    )
}

/// Scans the user-global directory (the dsh home): `AGENTS.md` only.
#[must_use]
pub fn scan_user_global(dsh_home: &Path, display: &str, opts: ScanOptions<'_>) -> Dir {
    let names = [USER_GLOBAL_FILE.to_owned()];
    let mut dir = scan(
        dsh_home,
        USER_GLOBAL,
        &[(TierKind::UserGlobal, &names)],
        opts,
        &|path, _| probe_link(path, opts.realms),
    );
    if let Some(c) = dir.candidates.first_mut() {
        display.clone_into(&mut c.display);
    }
    dir
}

fn scan(
    path: &Path,
    display: &str,
    tiers: &[(TierKind, &[String])],
    opts: ScanOptions<'_>,
    probe: &Prober<'_>,
) -> Dir {
    let mut dir = Dir {
        path: path.to_path_buf(),
        display: display.to_owned(),
        candidates: Vec::new(),
        scopes: Vec::new(),
    };
    for &(tier, names) in tiers {
        let scan = TierScan {
            tier,
            names,
            opts,
            probe,
        };
        match opts.precedence {
            Precedence::First => scan.first(&mut dir),
            Precedence::All => scan.all(&mut dir),
        }
    }
    if opts.precedence == Precedence::All {
        drop_duplicates(&mut dir);
    }
    dir
}

fn new_candidate(dir: &Dir, tier: TierKind, name: &str) -> Candidate {
    Candidate {
        name: name.to_owned(),
        path: dir.path.join(name),
        display: paths::file_display(&dir.display, name),
        tier,
        probe: None,
        link: None,
        load: None,
        fate: Fate::NotLoaded,
    }
}

/// A present candidate that is to load: nothing when its path already
/// loaded (the user-global file), else it is read; an oversized or unreadable
/// file blocks its scope. `index` is its place in the directory's list.
fn take_present(
    cand: &mut Candidate,
    size: u64,
    index: usize,
    opts: ScanOptions<'_>,
) -> ScopeStatus {
    if opts.loaded_path == Some(cand.path.as_path()) {
        cand.fate = Fate::SamePath;
        return ScopeStatus::SamePath(index);
    }
    let loaded = load(&cand.path, size, opts.max_source);
    let status = if matches!(loaded, Load::Text(_)) {
        cand.fate = Fate::Loaded;
        ScopeStatus::Loaded(index)
    } else {
        ScopeStatus::Blocked
    };
    cand.load = Some(loaded);
    status
}

/// One tier of a directory to scan.
struct TierScan<'a, 'p> {
    tier: TierKind,
    names: &'a [String],
    opts: ScanOptions<'a>,
    probe: &'a Prober<'p>,
}

impl TierScan<'_, '_> {
    /// Probes a candidate, recording its symlink.
    fn probe(&self, cand: &mut Candidate, name: &str) -> Probe {
        let (probe, link) = (self.probe)(&cand.path, name);
        cand.link = link;
        probe
    }

    /// `first`: the first present candidate of the tier wins; the rest are
    /// shadowed (probed and read only with `probe_all`).
    fn first(&self, dir: &mut Dir) {
        let TierScan {
            tier, names, opts, ..
        } = *self;
        if names.is_empty() {
            return;
        }
        let key = scope_key(&dir.display, tier, "", Precedence::First);
        let mut status = ScopeStatus::Absent;
        let mut winner: Option<String> = None;
        for name in names {
            let mut cand = new_candidate(dir, tier, name);
            if let Some(by) = &winner {
                if !opts.probe_all {
                    cand.fate = Fate::NotProbed;
                    dir.candidates.push(cand);
                    continue;
                }
                let probe = self.probe(&mut cand, name);
                if let Probe::File { size } = probe {
                    cand.load = Some(load(&cand.path, size, opts.max_source));
                    cand.fate = Fate::Shadowed { by: by.clone() };
                }
                cand.probe = Some(probe);
                dir.candidates.push(cand);
                continue;
            }
            let probe = self.probe(&mut cand, name);
            match probe {
                Probe::File { size } => {
                    winner = Some(cand.display.clone());
                    status = take_present(&mut cand, size, dir.candidates.len(), opts);
                }
                Probe::Unavailable(_) => status = ScopeStatus::Unavailable,
                Probe::Missing(_) | Probe::NotRegular(_) => {}
            }
            cand.probe = Some(probe);
            dir.candidates.push(cand);
        }
        dir.scopes.push(Scope { key, tier, status });
    }

    /// `all`: every present candidate of the tier loads, each its own scope.
    fn all(&self, dir: &mut Dir) {
        let TierScan {
            tier, names, opts, ..
        } = *self;
        for name in names {
            let mut cand = new_candidate(dir, tier, name);
            let index = dir.candidates.len();
            let probe = unavailable_through_file(self.probe(&mut cand, name), &cand.path);
            let status = match probe {
                Probe::File { size } => take_present(&mut cand, size, index, opts),
                Probe::Unavailable(_) => ScopeStatus::Unavailable,
                Probe::Missing(_) | Probe::NotRegular(_) => ScopeStatus::Absent,
            };
            cand.probe = Some(probe);
            let key = scope_key(&dir.display, tier, name, Precedence::All);
            dir.candidates.push(cand);
            dir.scopes.push(Scope { key, tier, status });
        }
    }
}

/// `all` mode (SPEC 2.3): dsh resolves a candidate's real path before it
/// probes it, and that fails when a component on the way is not a directory
/// (`ENOTDIR`), so the candidate is unavailable, not absent. A symlink whose
/// target runs through a file fails alike; `stat` says which dangling links
/// those are (one more call, for dangling links only).
fn unavailable_through_file(probe: Probe, path: &Path) -> Probe {
    let through_file = match probe {
        Probe::Missing(Absence::NotADirectory) => true,
        Probe::Missing(Absence::DanglingLink) => {
            fs::metadata(path).is_err_and(|e| e.kind() == io::ErrorKind::NotADirectory)
        }
        _ => false,
    };
    if through_file {
        Probe::Unavailable(os_error(&io::Error::from_raw_os_error(libc::ENOTDIR)))
    } else {
        probe
    }
}

/// `all` mode: within the directory, a loaded file whose trimmed content has
/// the same SHA-1 as an earlier kept file is dropped.
fn drop_duplicates(dir: &mut Dir) {
    // One loaded file has nothing to equal: no digest to take.
    let loaded = dir
        .scopes
        .iter()
        .filter(|s| matches!(s.status, ScopeStatus::Loaded(_)));
    if loaded.count() < 2 {
        return;
    }
    let mut kept: Vec<(String, usize)> = Vec::new();
    for scope in &mut dir.scopes {
        let ScopeStatus::Loaded(index) = scope.status else {
            continue;
        };
        let Some(text) = dir.candidates[index].text() else {
            continue;
        };
        let trimmed = sha1_hex(js_trim(&text.text).as_bytes());
        if let Some((_, first)) = kept.iter().find(|(digest, _)| *digest == trimmed) {
            let of = dir.candidates[*first].display.clone();
            dir.candidates[index].fate = Fate::Duplicate { of };
            scope.status = ScopeStatus::Duplicate(index);
        } else {
            kept.push((trimmed, index));
        }
    }
}

/// The directories a session in the settings' cwd loads from, scanned.
#[derive(Debug, Clone)]
pub struct Workspace {
    pub search: RootSearch,
    /// The real root, home and dsh home symlinks are judged against.
    pub realms: Realms,
    /// The user-global directory first, then the chain, broadest first.
    pub dirs: Vec<Dir>,
}

impl Workspace {
    pub fn root(&self) -> &Path {
        &self.search.root
    }

    /// The loaded files in baseline order.
    pub fn loaded(&self) -> impl Iterator<Item = (&Dir, &Candidate)> {
        self.dirs
            .iter()
            .flat_map(|d| d.loaded().map(move |c| (d, c)))
    }

    /// Scans a directory of the project (a chain directory, or a touched or
    /// visible scope's) with these settings.
    pub fn scan_in_project(&self, settings: &Settings, path: &Path, probe_all: bool) -> Dir {
        let display = paths::dir_display(self.root(), path);
        self.scan_shown(settings, (path, &display), probe_all, None)
    }

    /// [`Self::scan_in_project`] of a directory whose display path is known
    /// (through `handle`, an open handle on it, when there is one).
    fn scan_shown(
        &self,
        settings: &Settings,
        (path, display): (&Path, &str),
        probe_all: bool,
        handle: Option<&OwnedFd>,
    ) -> Dir {
        let base = &settings.candidates.value.names;
        let local = &settings.local_candidates.value.names;
        let opts = self.options(settings, probe_all);
        match handle {
            Some(handle) => scan_chain_dir(path, display, (base, local), opts, handle),
            None => scan_dir(path, display, base, local, opts),
        }
    }

    fn options<'a>(&'a self, settings: &Settings, probe_all: bool) -> ScanOptions<'a> {
        ScanOptions {
            precedence: settings.precedence.value,
            max_source: settings.max_source(),
            probe_all,
            loaded_path: self.user_global_path(),
            realms: Some(&self.realms),
        }
    }

    /// The user-global file's path when it is present (it claims the path).
    fn user_global_path(&self) -> Option<&Path> {
        self.dirs
            .first()
            .filter(|d| d.is_user_global())?
            .present_user_global()
    }
}

/// Discovers the workspace for the settings' cwd (stages 1 to 3): the
/// user-global directory first, then the chain from the root to the cwd.
#[must_use]
pub fn discover(settings: &Settings, probe_all: bool) -> Workspace {
    let cwd = &settings.cwd.value;
    let search = find_root(cwd, &settings.root_markers.value);
    let user_realms = Realms::new(None, settings);
    let base_opts = ScanOptions {
        precedence: settings.precedence.value,
        max_source: settings.max_source(),
        probe_all,
        loaded_path: None,
        realms: Some(&user_realms),
    };
    let dirs = vec![scan_user_global(
        &settings.dsh_home.value,
        settings.user_global_display(),
        base_opts,
    )];
    let realms = Realms::new(Some(&search.root), settings);
    let mut ws = Workspace {
        search,
        realms,
        dirs,
    };
    let chain = chain(ws.root(), cwd);
    let shown = root::chain_displays(ws.root(), &chain);
    let mut handle = None;
    let chain_dirs: Vec<Dir> = chain
        .iter()
        .zip(&shown)
        .map(|(path, display)| {
            handle = open_chain_dir(handle.as_ref(), path);
            ws.scan_shown(settings, (path, display), probe_all, handle.as_ref())
        })
        .collect();
    ws.dirs.extend(chain_dirs);
    ws
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn js_trim_strips_bom_but_not_next_line() {
        assert_eq!(js_trim("\u{feff} a \n"), "a");
        assert_eq!(js_trim("\u{85}a"), "\u{85}a");
    }

    #[test]
    fn sha1_is_lowercase_hex() {
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    }

    #[test]
    fn scope_keys_follow_the_table() {
        use Precedence::*;
        use TierKind::*;
        assert_eq!(
            scope_key("x", UserGlobal, "AGENTS.md", First),
            "user-global"
        );
        assert_eq!(
            scope_key("x", UserGlobal, "AGENTS.md", All),
            "user-global\0AGENTS.md"
        );
        assert_eq!(scope_key(".", Base, "AGENTS.md", First), ".");
        assert_eq!(scope_key("a/b", Local, "X", First), "a/b\0local");
        assert_eq!(
            scope_key("a", Local, "CLAUDE.local.md", All),
            "a\0CLAUDE.local.md"
        );
        assert_eq!(scope_dir("a/b\0local"), "a/b");
        assert_eq!(scope_dir("."), ".");
    }

    /// A chain directory scanned through its handle, opened from the one
    /// before (a symlinked directory on the way included), is what
    /// `scan_dir` of its path says, whatever each name is.
    #[test]
    fn scanning_through_chain_handles_equals_scanning_by_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let real = dir.path().join("real");
        fs::create_dir_all(real.join("c")).unwrap();
        fs::create_dir(&root).unwrap();
        std::os::unix::fs::symlink(&real, root.join("b")).unwrap();
        let chain = [root.clone(), root.join("b"), root.join("b").join("c")];
        let c = &chain[2];
        fs::write(c.join("AGENTS.md"), "a").unwrap();
        std::os::unix::fs::symlink("AGENTS.md", c.join("to-file")).unwrap();
        std::os::unix::fs::symlink("gone", c.join("dangling")).unwrap();
        std::os::unix::fs::symlink("loop", c.join("loop")).unwrap();
        std::os::unix::fs::symlink("..", c.join("to-dir")).unwrap();
        fs::create_dir(c.join("dir")).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            c.join("fifo"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .unwrap();
        fs::write(root.join("CLAUDE.md"), "r").unwrap();
        let names: Vec<String> = [
            "AGENTS.md",
            "to-file",
            "dangling",
            "loop",
            "to-dir",
            "dir",
            "fifo",
            "none",
            "AGENTS.md/x",
            "dir/../AGENTS.md",
            "CLAUDE.md",
        ]
        .map(str::to_owned)
        .to_vec();
        let local = ["x.local.md".to_owned()];
        for opts in every_scan_option() {
            let mut handle = None;
            for path in &chain {
                handle = open_chain_dir(handle.as_ref(), path);
                let by_path = scan_dir(path, ".", &names, &local, opts);
                let fd = handle.as_ref().unwrap();
                let by_handle = scan_chain_dir(path, ".", (&names, &local), opts, fd);
                assert_eq!(format!("{by_handle:?}"), format!("{by_path:?}"));
            }
        }
    }

    /// Each precedence, probing all or not (no realms, 100-byte files).
    fn every_scan_option() -> Vec<ScanOptions<'static>> {
        let mut all = Vec::new();
        for precedence in [Precedence::First, Precedence::All] {
            for probe_all in [false, true] {
                all.push(ScanOptions {
                    precedence,
                    max_source: 100,
                    probe_all,
                    loaded_path: None,
                    realms: None,
                });
            }
        }
        all
    }

    #[test]
    fn scan_dir_listed_equals_scan_dir_given_the_real_listing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path();
        fs::write(p.join("CLAUDE.md"), "c").unwrap();
        fs::write(p.join("AGENTS.local.md"), " c ").unwrap();
        std::os::unix::fs::symlink("gone", p.join("CLAUDE.local.md")).unwrap();
        fs::create_dir(p.join("AGENTS.md")).unwrap();
        let listing: Vec<String> = fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let base = ["AGENTS.md".to_owned(), "CLAUDE.md".to_owned()];
        let local = ["AGENTS.local.md".to_owned(), "CLAUDE.local.md".to_owned()];
        for opts in every_scan_option() {
            let listed = |name: &str| listing.iter().any(|l| l == name);
            let by_stat = scan_dir(p, ".", &base, &local, opts);
            let by_listing = scan_dir_listed(p, ".", &base, &local, opts, &listed);
            assert_eq!(format!("{by_listing:?}"), format!("{by_stat:?}"));
        }
    }

    /// lstat-then-stat gives stat's outcome, and says why a name is missing.
    #[test]
    fn probe_follows_links_and_names_the_absence() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let p = |name: &str| dir.path().join(name);
        fs::write(p("file"), "abc").unwrap();
        fs::create_dir(p("dir")).unwrap();
        symlink("file", p("to-file")).unwrap();
        symlink("dir", p("to-dir")).unwrap();
        symlink("nothing", p("dangling")).unwrap();
        symlink("file/x", p("through-file")).unwrap();
        symlink("loop", p("loop")).unwrap();
        assert_eq!(probe(&p("file")), Probe::File { size: 3 });
        assert_eq!(probe(&p("to-file")), Probe::File { size: 3 });
        assert_eq!(probe(&p("dir")), Probe::NotRegular("directory"));
        assert_eq!(probe(&p("to-dir")), Probe::NotRegular("directory"));
        assert_eq!(probe(&p("none")), Probe::Missing(Absence::NoEntry));
        assert_eq!(probe(&p("dangling")), Probe::Missing(Absence::DanglingLink));
        assert_eq!(
            probe(&p("through-file")),
            Probe::Missing(Absence::DanglingLink)
        );
        assert_eq!(probe(&p("file/x")), Probe::Missing(Absence::NotADirectory));
        assert!(matches!(probe(&p("loop")), Probe::Unavailable(e) if e.contains("os error 40")));
    }

    #[test]
    fn load_refuses_what_is_not_utf8_text_and_drops_one_leading_bom() {
        let dir = tempfile::tempdir().unwrap();
        let read = |bytes: &[u8], max: u64| {
            let path = dir.path().join("f");
            fs::write(&path, bytes).unwrap();
            load(&path, bytes.len() as u64, max)
        };
        let text = |t: &str, bom: bool| Load::Text(Text::new(t.to_owned(), bom));
        let bad =
            |offset: u64, cut: bool| Load::Unreadable(Unreadable::InvalidUtf8 { offset, cut });
        assert_eq!(read(b"\xEF\xBB\xBFa", 9), text("a", true));
        // The digest is of the text without its BOM.
        assert!(
            matches!(read(b"\xEF\xBB\xBFabc", 9), Load::Text(t) if t.digest() == sha1_hex(b"abc"))
        );
        assert_eq!(
            read(b"\xEF\xBB\xBF\xEF\xBB\xBFa", 9),
            text("\u{feff}a", true)
        );
        assert_eq!(read(b"a\xEF\xBB\xBF", 9), text("a\u{feff}", false));
        assert_eq!(read(b"a\xffb", 9), bad(1, false));
        assert_eq!(read(b"\xEF\xBB\xBFab\xC3", 9), bad(5, true));
        assert_eq!(read(b"ab\xE2\x82", 9), bad(2, true));
        assert_eq!(read(b"\xED\xA0\x80", 9), bad(0, false));
        let mut nul = vec![b'a'; 9000];
        nul[8191] = 0;
        assert_eq!(
            read(&nul, 10_000),
            Load::Unreadable(Unreadable::Binary { offset: 8191 })
        );
        nul[8191] = b'a';
        nul[8192] = 0;
        assert!(matches!(read(&nul, 10_000), Load::Text(t) if t.text.len() == 9000));
        // The stat size holds the BOM; the cap is on what the probe saw.
        assert_eq!(
            read(b"\xEF\xBB\xBFab", 4),
            Load::Oversized {
                bytes: 5,
                grew: false
            }
        );
        assert_eq!(read(b"\xEF\xBB\xBFab", 5), text("ab", true));
    }

    #[test]
    fn load_counts_growth_after_the_probe_as_oversized() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, b"abc").unwrap();
        assert_eq!(
            load(&path, 30, 4),
            Load::Oversized {
                bytes: 30,
                grew: false
            }
        );
        // The probe saw 2 bytes; the read found more than the cap of 2.
        assert_eq!(
            load(&path, 2, 2),
            Load::Oversized {
                bytes: 2,
                grew: true
            }
        );
    }
}

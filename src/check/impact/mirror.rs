//! Steps 1 and 2 of `--base`: read what decides REV's baselines with git
//! and mirror it into a private temporary directory laid out like the
//! work tree, never writing outside it.

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{OpenOptionsExt, symlink};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::super::git::{self, Git, Object};
use super::super::walk::Names;
use super::super::{Request, Target};
use super::tree::{Entry, base_name, is_ignore_file, ls_tree, toplevel, wanted};
use crate::discovery::os_error;
use crate::paths;

/// A mirror of REV's tree, to check with the same options: the targets
/// and the start directory mapped into it, and what could not be mirrored
/// (one warning each, naming REV and the path). The mirror is removed
/// when this is dropped.
#[derive(Debug)]
pub struct Revision {
    pub targets: Vec<Target>,
    pub base: PathBuf,
    pub warnings: Vec<String>,
    /// The work tree's directories that hold an instruction file at REV
    /// (absolute): the work tree's check renders them too.
    pub candidate_dirs: HashSet<PathBuf>,
    /// The work tree's top, the mirror's tree, and every directory REV's
    /// tree holds (tree paths).
    top: PathBuf,
    tree: PathBuf,
    dirs: HashSet<Vec<u8>>,
    _mirror: tempfile::TempDir,
}

impl Revision {
    /// The mirror's top and the work tree's, as strings: a harness's
    /// absolute paths in the one stand for the other.
    #[must_use]
    pub fn alias(&self) -> (String, String) {
        (
            self.tree.to_string_lossy().into_owned(),
            self.top.to_string_lossy().into_owned(),
        )
    }

    /// `opts` pointed at the mirror (every directory's report collected),
    /// rendering there as well the work tree's checked directories `also`
    /// (absolute work-tree paths) that REV's tree holds.
    #[must_use]
    pub fn request<'a>(&self, opts: &Request<'a>, also: &[PathBuf]) -> Request<'a> {
        let mut mapped = HashSet::new();
        for dir in also {
            let Ok(rel) = dir.strip_prefix(&self.top) else {
                continue;
            };
            let bytes = rel.as_os_str().as_bytes();
            if !bytes.is_empty() && !self.dirs.contains(bytes) {
                continue;
            }
            if make_dirs(&self.tree, bytes, false).is_ok() {
                mapped.insert(self.tree.join(rel));
            }
        }
        Request {
            targets: self.targets.clone(),
            base: self.base.clone(),
            directories: true,
            also: mapped,
            ..opts.clone()
        }
    }
}

/// The longest symlink target read from a tree (Linux's `PATH_MAX`).
const MAX_LINK_TARGET: u64 = 4096;

/// Mirrors REV for `opts` (its targets, candidate and harness names) in a
/// new directory in `temp`; `config` names the other harnesses' config
/// files (paths relative to a directory: `.codex/config.toml`), brought
/// too. The directories of the work tree's checked directories that REV
/// holds are made as well, so that a directory whose own file REV lacks is
/// still checked there.
///
/// # Errors
///
/// `git` fails or is missing, REV does not name a tree, a target lies
/// outside the git work tree, or the mirror cannot be made.
pub fn check_revision(
    opts: &Request<'_>,
    rev: &str,
    temp: &Path,
    config: &[&str],
) -> Result<Revision> {
    let probe = opts.targets.first().map_or(&opts.base, |t| &t.path);
    let git = Git::new(probe)?;
    let top = toplevel(&git)?;
    let git = git.at(&top);
    let mirror = tempfile::Builder::new()
        .prefix("agentctx-base-")
        .tempdir_in(temp)
        .with_context(|| format!("--base {rev}: creating a directory in {}", temp.display()))?;
    let tree = mirror.path().join("tree");
    let store = mirror.path().join("objects");
    for dir in [&tree, &store] {
        fs::create_dir(dir).with_context(|| format!("--base {rev}: creating {}", dir.display()))?;
    }
    let names = Names::with_harnesses(opts.settings, &opts.harness_names);
    let mut m = Mirror {
        git: &git,
        top: &top,
        rev,
        tree: &tree,
        store: &store,
        max_source: opts.settings.max_source(),
        stored: HashMap::new(),
        links: HashMap::new(),
        objects: HashMap::new(),
        warnings: Vec::new(),
        config,
        dirs: HashSet::new(),
        candidate_dirs: HashSet::new(),
    };
    m.materialize(&names)?;
    let map = |p: &Path| -> Result<PathBuf> {
        let rel = p.strip_prefix(&top).map_err(|_| {
            anyhow::anyhow!(
                "--base {rev}: {} is outside the git work tree {}",
                p.display(),
                top.display()
            )
        })?;
        // `join("")` would add a trailing `/`, which a harness's cwd keeps.
        Ok(if rel.as_os_str().is_empty() {
            tree.clone()
        } else {
            tree.join(rel)
        })
    };
    let mut targets = Vec::new();
    for t in &opts.targets {
        let path = map(&t.path)?;
        let rel = path.strip_prefix(&tree).unwrap_or(Path::new(""));
        if let Err(e) = make_dirs(&tree, rel.as_os_str().as_bytes(), true) {
            m.warn(rel.as_os_str().as_bytes(), &e);
            continue;
        }
        targets.push(Target {
            path,
            nested_roots: t.nested_roots,
        });
    }
    let warnings = std::mem::take(&mut m.warnings);
    let dirs = std::mem::take(&mut m.dirs);
    let candidate_dirs = std::mem::take(&mut m.candidate_dirs);
    Ok(Revision {
        targets,
        base: map(&opts.base)?,
        warnings,
        candidate_dirs,
        top: top.clone(),
        tree: tree.clone(),
        dirs,
        _mirror: mirror,
    })
}

/// What the mirror holds of one object id, in `objects/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stored {
    /// Its bytes (at most max-source-bytes).
    Whole,
    /// A sparse file of its size, never read (an oversized candidate is
    /// refused by its size, as in a checkout).
    Sized,
}

/// The mirror of one revision being made: the objects read so far (each
/// distinct id once) and the warnings.
struct Mirror<'a> {
    git: &'a Git,
    top: &'a Path,
    rev: &'a str,
    tree: &'a Path,
    store: &'a Path,
    max_source: u64,
    /// Object files in `store`, by id.
    stored: HashMap<String, Stored>,
    /// Symlink targets read, by id.
    links: HashMap<String, Vec<u8>>,
    /// What `cat-file --batch-check` said, by id.
    objects: HashMap<String, Object>,
    warnings: Vec<String>,
    /// The other harnesses' config files (paths below a directory).
    config: &'a [&'a str],
    /// Every directory REV's tree holds (as tree paths).
    dirs: HashSet<Vec<u8>>,
    /// The directories holding a candidate at REV, as work-tree paths.
    candidate_dirs: HashSet<PathBuf>,
}

impl Mirror<'_> {
    fn warn(&mut self, path: &[u8], what: &str) {
        self.warnings.push(format!(
            "--base {}: {}: {what}",
            self.rev,
            String::from_utf8_lossy(path)
        ));
    }

    /// Mirrors what decides REV's baselines into the tree directory.
    fn materialize(&mut self, names: &Names) -> Result<()> {
        let entries = ls_tree(self.git, self.top, self.rev)?;
        let folded: HashSet<Vec<u8>> = names
            .all
            .iter()
            .map(|n| n.to_ascii_lowercase().into_bytes())
            .collect();
        for path in entries.keys() {
            let mut at = 0;
            while let Some(i) = path[at..].iter().position(|b| *b == b'/') {
                self.dirs.insert(path[..at + i].to_vec());
                at += i + 1;
            }
        }
        // Paths below any directory: the other harnesses' config files, and
        // root markers that are not plain names (`a/b`, `a\b`), which the
        // walk stats instead of finding them in a listing.
        let config = self.config;
        let markers = names.other_markers.iter().map(String::as_str);
        let below: Vec<&str> = config.iter().copied().chain(markers).collect();
        let is_config = |p: &[u8]| {
            below.iter().any(|c| {
                let c = c.as_bytes();
                !c.is_empty()
                    && (p == c || (p.ends_with(c) && p[..p.len() - c.len()].ends_with(b"/")))
            })
        };
        let mut first: Vec<&Entry> = entries
            .values()
            .filter(|e| {
                e.mode == git::MODE_SUBMODULE || wanted(&folded, &e.path) || is_config(&e.path)
            })
            .collect();
        first.sort_by(|a, b| a.path.cmp(&b.path));
        let mut chosen = self.safe(first);
        for e in &chosen {
            let name = String::from_utf8_lossy(base_name(&e.path)).to_ascii_lowercase();
            if e.mode != git::MODE_SUBMODULE && names.is_instruction_folded(&name) {
                let dir = Path::new(OsStr::from_bytes(&e.path))
                    .parent()
                    .unwrap_or(Path::new(""));
                self.candidate_dirs.insert(self.top.join(dir));
            }
        }
        self.fetch(&chosen)?;
        // Symlinked candidates pull in their in-repository targets (a chain
        // of at most 8 links, as far as REV holds them).
        let mut seen: HashSet<Vec<u8>> = chosen.iter().map(|e| e.path.clone()).collect();
        let mut links: Vec<&Entry> = chosen.iter().copied().filter(|e| e.is_link()).collect();
        for _ in 0..8 {
            let mut more = Vec::new();
            for link in &links {
                let Some(target) = self.links.get(&link.oid) else {
                    continue;
                };
                let dir = Path::new(OsStr::from_bytes(&link.path))
                    .parent()
                    .unwrap_or(Path::new(""));
                let resolved =
                    paths::normalize(&self.top.join(dir), Path::new(OsStr::from_bytes(target)));
                let Ok(inside) = resolved.strip_prefix(self.top) else {
                    continue;
                };
                let inside = inside.as_os_str().as_bytes().to_vec();
                if let Some(e) = entries.get(&inside).filter(|_| seen.insert(inside.clone())) {
                    more.push(e);
                }
            }
            more.sort_by(|a, b| a.path.cmp(&b.path));
            let more = self.safe(more);
            if more.is_empty() {
                break;
            }
            self.fetch(&more)?;
            chosen.extend(more.iter().copied());
            links = more.into_iter().filter(|e| e.is_link()).collect();
        }
        chosen.sort_by(|a, b| a.path.cmp(&b.path));
        self.copy_exclude()?;
        for e in chosen {
            if let Err(problem) = self.write_entry(e) {
                self.warn(&e.path, &problem);
            }
        }
        Ok(())
    }

    /// The entries whose paths git would check out; a warning for each other.
    fn safe<'e>(&mut self, entries: Vec<&'e Entry>) -> Vec<&'e Entry> {
        entries
            .into_iter()
            .filter(|e| match git::path_problem(&e.path, e.mode) {
                None => true,
                Some(problem) => {
                    self.warn(
                        &e.path,
                        &format!("not a path git checks out ({problem}), skipped"),
                    );
                    false
                }
            })
            .collect()
    }

    /// Sizes every new object of `entries`, then reads, once per id, the
    /// blobs that fit max-source-bytes (symlink targets: 4096 bytes) into
    /// the object store; oversized ones become sparse files of their size.
    fn fetch(&mut self, entries: &[&Entry]) -> Result<()> {
        let mut new: Vec<&str> = entries
            .iter()
            .filter(|e| e.mode != git::MODE_SUBMODULE && !self.objects.contains_key(&e.oid))
            .map(|e| e.oid.as_str())
            .collect();
        new.sort_unstable();
        new.dedup();
        let sizes = self.git.sizes(&new)?;
        self.objects.extend(sizes);
        let mut read: Vec<&str> = Vec::new();
        let mut sparse: Vec<(&str, u64)> = Vec::new();
        let mut text: HashSet<&str> = HashSet::new();
        for e in entries {
            let Some(Object::Present { kind, size }) = self.objects.get(&e.oid) else {
                continue;
            };
            if kind != "blob" {
                continue;
            }
            let (size, oid) = (*size, e.oid.as_str());
            if e.is_link() {
                if size <= MAX_LINK_TARGET && !self.links.contains_key(oid) {
                    text.insert(oid);
                    read.push(oid);
                }
            } else if self.stored.contains_key(oid) {
            } else if size <= self.max_source {
                read.push(oid);
            } else {
                sparse.push((oid, size));
            }
        }
        read.sort_unstable();
        read.dedup();
        for (oid, size) in sparse {
            if self.stored.contains_key(oid) {
                continue;
            }
            let file = create_new(&self.store.join(oid))?;
            file.set_len(size)
                .with_context(|| format!("--base {}: sizing object {oid}", self.rev))?;
            self.stored.insert(oid.to_owned(), Stored::Sized);
        }
        let (store, max_source) = (self.store, self.max_source);
        let (stored, links) = (&mut self.stored, &mut self.links);
        self.git.read(&read, |oid, size, body| {
            if text.contains(oid) {
                let mut bytes = Vec::new();
                body.take(MAX_LINK_TARGET).read_to_end(&mut bytes)?;
                if size <= max_source && !stored.contains_key(oid) {
                    create_new(&store.join(oid))?.write_all(&bytes)?;
                    stored.insert(oid.to_owned(), Stored::Whole);
                }
                links.insert(oid.to_owned(), bytes);
            } else if !stored.contains_key(oid) {
                let mut file = create_new(&store.join(oid))?;
                std::io::copy(&mut body.take(max_source), &mut file)?;
                stored.insert(oid.to_owned(), Stored::Whole);
            }
            Ok(())
        })
    }

    /// Copies the work tree's `.git/info/exclude` (a regular file of at most
    /// max-source-bytes) into the mirror.
    fn copy_exclude(&self) -> Result<()> {
        let info = self.tree.join(".git/info");
        fs::create_dir_all(&info)?;
        let source = self.top.join(".git/info/exclude");
        let Ok(meta) = fs::symlink_metadata(&source) else {
            return Ok(());
        };
        if !meta.is_file() || meta.len() > self.max_source {
            return Ok(());
        }
        let Ok(file) = fs::File::open(&source) else {
            return Ok(());
        };
        let mut bytes = Vec::new();
        if file.take(self.max_source).read_to_end(&mut bytes).is_ok() {
            create_new(&info.join("exclude"))?.write_all(&bytes)?;
        }
        Ok(())
    }

    /// Writes one entry of REV into the mirror: directories made one at a
    /// time and never through a symlink, files created new (hard links to
    /// the object store), so nothing is written outside the mirror. The
    /// error is the warning's text.
    fn write_entry(&self, e: &Entry) -> std::result::Result<(), String> {
        let rel = Path::new(OsStr::from_bytes(&e.path));
        let path = self.tree.join(rel);
        let parent = e
            .path
            .iter()
            .rposition(|b| *b == b'/')
            .map_or(&b""[..], |i| &e.path[..i]);
        make_dirs(self.tree, parent, false)?;
        let failed = |err: std::io::Error| format!("not mirrored: {}", os_error(&err));
        if e.mode == git::MODE_SUBMODULE {
            // A nested root, as its `.git` file makes it in a checkout.
            make_dirs(self.tree, &e.path, false)?;
            let mut file = create_new_io(&path.join(".git")).map_err(failed)?;
            return file.write_all(b"gitdir: submodule\n").map_err(failed);
        }
        match self.objects.get(&e.oid) {
            Some(Object::Missing) | None => {
                return Err(format!(
                    "unavailable at {} (object {} is not in the repository, never fetched), skipped",
                    self.rev, e.oid
                ));
            }
            Some(Object::Present { kind, .. }) if kind != "blob" => {
                return Err(format!(
                    "unavailable at {} (object {} is a {kind}, not a blob), skipped",
                    self.rev, e.oid
                ));
            }
            Some(Object::Present { size, .. }) => {
                let size = *size;
                if e.is_link() {
                    let Some(target) = self.links.get(&e.oid) else {
                        return Err(format!(
                            "symlink target of {size} bytes, over {MAX_LINK_TARGET}, skipped"
                        ));
                    };
                    return symlink(self.link_target(e, target), &path).map_err(failed);
                }
                if is_ignore_file(base_name(&e.path)) && size > self.max_source {
                    return Err(format!(
                        "oversized, not read: {size} bytes > max-source-bytes {}",
                        self.max_source
                    ));
                }
            }
        }
        let object = self.store.join(&e.oid);
        match fs::hard_link(&object, &path) {
            Ok(()) => Ok(()),
            // Too many links to one inode: a copy of what the store holds.
            Err(err) if err.raw_os_error() == Some(libc::EMLINK) => {
                let mut to = create_new_io(&path).map_err(failed)?;
                let mut from = fs::File::open(&object).map_err(failed)?;
                match self.stored.get(&e.oid) {
                    Some(Stored::Sized) => to.set_len(from.metadata().map_err(failed)?.len()),
                    _ => std::io::copy(&mut from, &mut to).map(|_| ()),
                }
                .map_err(failed)
            }
            Err(err) => Err(failed(err)),
        }
    }

    /// What a mirrored symlink points at: inside the repository the link
    /// keeps its text (it resolves in the mirror); outside, it points where
    /// it points from the work tree.
    fn link_target(&self, e: &Entry, target: &[u8]) -> PathBuf {
        let target = Path::new(OsStr::from_bytes(target));
        let dir = Path::new(OsStr::from_bytes(&e.path))
            .parent()
            .unwrap_or(Path::new(""));
        let real = paths::normalize(&self.top.join(dir), target);
        let inside = real.starts_with(self.top);
        if inside && target.is_relative() {
            target.to_path_buf()
        } else if inside {
            self.tree.join(real.strip_prefix(self.top).unwrap_or(&real))
        } else {
            real
        }
    }
}

/// Makes the directories of `rel` (a checked tree path) below `root`, one
/// component at a time, refusing to pass through anything that is not a
/// directory itself (a symlink is refused, never followed).
fn make_dirs(root: &Path, rel: &[u8], target: bool) -> std::result::Result<(), String> {
    let mut dir = root.to_path_buf();
    for part in rel.split(|b| *b == b'/').filter(|p| !p.is_empty()) {
        dir.push(OsStr::from_bytes(part));
        match fs::symlink_metadata(&dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) if target => {
                return Err(
                    "not a directory at this revision (a symlink or file), not checked there"
                        .to_owned(),
                );
            }
            Ok(_) => {
                return Err("below a symlink or file of the same tree, skipped".to_owned());
            }
            Err(_) => {
                fs::create_dir(&dir).map_err(|e| format!("not mirrored: {}", os_error(&e)))?;
            }
        }
    }
    Ok(())
}

/// Creates a file that did not exist (never through a symlink).
fn create_new_io(path: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW)
        .mode(0o600)
        .open(path)
}

fn create_new(path: &Path) -> Result<fs::File> {
    create_new_io(path).with_context(|| format!("--base: creating {}", path.display()))
}

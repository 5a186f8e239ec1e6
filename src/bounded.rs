//! The one bounded reader of every file a harness profile reads and of
//! dsh's configuration layers (`dshconfig`): config files
//! (codex `config.toml`, gemini `settings.json`, opencode `opencode.json[c]`)
//! and instruction files (memory files, instructions, imports, project docs).
//!
//! Like the dsh profile's candidates (`discovery/read.rs`): `stat` first
//! (links followed), only a regular file is opened, non-blocking (a path
//! swapped for a FIFO cannot hang us), the open file's `fstat` must say
//! regular file too, and no more than a cap is ever read: a file larger by
//! `stat` is refused without being opened, one that grows past the cap
//! while read is refused too. The caps are agentctx's, not the harnesses'
//! (gemini and opencode read any size; codex's `project_doc_max_bytes` and
//! claude's 4 MiB are applied by their profiles on top of these).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The kind of a path after following links, or the error stat gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    File(u64),
    Dir,
    Other,
}

/// What one check learns of its one unchanging tree, shared by every
/// thread that loads for it ([`Memo::run`]): `stat`, `lstat` and real
/// paths by path, and the walk's listings, which answer "absent" for a
/// name they do not hold without a system call.
#[derive(Debug, Default)]
pub struct Memo {
    shards: [Mutex<Shard>; SHARDS],
    /// Picks a path's shard.
    hasher: std::hash::RandomState,
    /// How many lookups a listing answered (tests check the short cut ran).
    #[cfg(test)]
    pub(crate) absent_answers: std::sync::atomic::AtomicUsize,
}

/// Locks are taken per shard (by the path's bytes), so that the loading
/// threads seldom wait for each other.
const SHARDS: usize = 16;

#[derive(Debug, Default)]
struct Shard {
    /// `lstat` (0) and `stat` (1) by path (the path's bytes: hashing them
    /// is cheap, hashing a `Path` parses it).
    stat: [Map<OsString, Result<Metadata, Failed>>; 2],
    real: Map<OsString, Result<PathBuf, Failed>>,
    /// A walked directory's entries, ASCII-lowercased; `None` when one of
    /// them might match an ASCII name under a filesystem's Unicode case
    /// folding (then its names are always `stat`-ed).
    listings: Map<OsString, Option<Names>>,
}

/// The names of one listing, ASCII-lowercased.
type Names = HashSet<Box<[u8]>>;

/// The maps are `std`'s, with its keyed hash: the tree is the repository's
/// (a pull request's, in CI), so its paths must not be able to pick
/// colliding hashes.
type Map<K, V> = HashMap<K, V>;

thread_local! {
    /// The memo this thread's loads use, while [`Memo::run`] runs.
    static CURRENT: RefCell<Option<Arc<Memo>>> = const { RefCell::new(None) };
}

/// A failed `stat`, kept so that it can be given again.
#[derive(Debug, Clone, Copy)]
enum Failed {
    Os(i32),
    Kind(io::ErrorKind),
}

impl Failed {
    fn of(e: &io::Error) -> Self {
        e.raw_os_error().map_or(Failed::Kind(e.kind()), Failed::Os)
    }

    fn error(self) -> io::Error {
        match self {
            Failed::Os(code) => io::Error::from_raw_os_error(code),
            Failed::Kind(kind) => io::Error::from(kind),
        }
    }
}

fn kept<T: Clone>(got: &io::Result<T>) -> Result<T, Failed> {
    match got {
        Ok(value) => Ok(value.clone()),
        Err(e) => Err(Failed::of(e)),
    }
}

fn not_found() -> io::Error {
    io::Error::from_raw_os_error(libc::ENOENT)
}

/// Whether `path` is absolute and spelled plainly: no `.` or `..`
/// component, no `//`, no trailing `/` (what the memo answers for; any
/// other spelling goes to the system as written).
fn plain(bytes: &[u8]) -> bool {
    bytes.first() == Some(&b'/')
        && (bytes.len() == 1
            || bytes[1..]
                .split(|&b| b == b'/')
                .all(|c| !(c.is_empty() || c == b"." || c == b"..")))
}

/// Whether a listed name may equal an ASCII name on a case-insensitive
/// filesystem without being equal to it ignoring ASCII case: a non-ASCII
/// character whose case mappings hold an ASCII one (KELVIN SIGN, long s,
/// dotless i, `ß`, ligatures), or a name that is not UTF-8.
fn unsure(name: &[u8]) -> bool {
    match std::str::from_utf8(name) {
        Ok(name) => name.chars().any(|c| {
            !c.is_ascii()
                && c.to_lowercase()
                    .chain(c.to_uppercase())
                    .any(|m| m.is_ascii())
        }),
        Err(_) => true,
    }
}

/// `f` of `name` ASCII-lowercased (on the stack when it is short).
fn lowered<T>(name: &[u8], f: impl FnOnce(&[u8]) -> T) -> T {
    let mut short = [0; 256];
    match short.get_mut(..name.len()) {
        Some(buf) => {
            buf.copy_from_slice(name);
            buf.make_ascii_lowercase();
            f(buf)
        }
        None => f(&name.to_ascii_lowercase()),
    }
}

impl Memo {
    /// A memo with nothing known yet.
    #[must_use]
    pub fn new() -> Arc<Self> {
        Arc::default()
    }

    /// Runs `f` with this memo answering this thread's [`metadata`],
    /// [`symlink_metadata`], [`stat`], [`canonicalize`] and [`read_dir`]:
    /// for a check, which reads one tree it assumes unchanging.
    pub fn run<T>(self: &Arc<Self>, f: impl FnOnce() -> T) -> T {
        let outer = CURRENT.with(|c| c.replace(Some(Arc::clone(self))));
        let out = f();
        CURRENT.with(|c| *c.borrow_mut() = outer);
        out
    }

    fn shard(&self, key: &[u8]) -> std::sync::MutexGuard<'_, Shard> {
        let hash = std::hash::BuildHasher::hash_one(&self.hasher, key);
        let at = usize::try_from(hash >> 60).unwrap_or(0) % SHARDS;
        self.shards[at]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Takes in the complete listing of the walked directory `dir`.
    fn note_listing<'a>(&self, dir: &Path, names: impl IntoIterator<Item = &'a OsStr>) {
        let mut set = HashSet::new();
        let mut sure = true;
        for name in names {
            let bytes = name.as_bytes();
            if bytes.is_ascii() {
                set.insert(bytes.to_ascii_lowercase().into_boxed_slice());
            } else if unsure(bytes) {
                sure = false;
                break;
            }
        }
        let key = dir.as_os_str();
        self.shard(key.as_bytes())
            .listings
            .insert(key.to_owned(), sure.then_some(set));
    }

    /// Whether a listing says `path` does not exist: the deepest listed
    /// directory it lies in lacks its next component (an ASCII name,
    /// compared ignoring ASCII case, as a case-insensitive filesystem
    /// would find it). `false` is "ask the system".
    fn absent(&self, path: &Path) -> bool {
        let bytes = path.as_os_str().as_bytes();
        if !plain(bytes) {
            return false;
        }
        let mut end = bytes.len();
        while let Some(slash) = bytes[..end].iter().rposition(|&b| b == b'/') {
            let name = &bytes[slash + 1..end];
            let dir = if slash == 0 {
                &bytes[..1]
            } else {
                &bytes[..slash]
            };
            if !name.is_empty() {
                let shard = self.shard(dir);
                if let Some(listing) = shard.listings.get(OsStr::from_bytes(dir)) {
                    let absent = match listing {
                        Some(set) if name.is_ascii() => !lowered(name, |n| set.contains(n)),
                        _ => false,
                    };
                    #[cfg(test)]
                    if absent {
                        self.absent_answers
                            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    return absent;
                }
            }
            if slash == 0 {
                break;
            }
            end = slash;
        }
        false
    }

    fn metadata(&self, path: &Path, follow: bool) -> io::Result<Metadata> {
        if self.absent(path) {
            return Err(not_found());
        }
        let key = path.as_os_str();
        let at = usize::from(follow);
        if let Some(known) = self.shard(key.as_bytes()).stat[at].get(key) {
            return known.clone().map_err(Failed::error);
        }
        let got = system_metadata(path, follow);
        self.shard(key.as_bytes()).stat[at].insert(key.to_owned(), kept(&got));
        got
    }

    /// `realpath`: a plainly spelled path that is no symlink is its
    /// parent's real path and its name (each directory resolved once);
    /// a symlink, or any other spelling, is resolved by the system.
    fn real(&self, path: &Path) -> io::Result<PathBuf> {
        let key = path.as_os_str();
        if !plain(key.as_bytes()) {
            return std::fs::canonicalize(path);
        }
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return Ok(path.to_path_buf());
        };
        if let Some(known) = self.shard(key.as_bytes()).real.get(key) {
            return known.clone().map_err(Failed::error);
        }
        let got = match self.metadata(path, false) {
            Err(e) => Err(e),
            Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path),
            Ok(_) => self.real(parent).map(|p| p.join(name)),
        };
        self.shard(key.as_bytes())
            .real
            .insert(key.to_owned(), kept(&got));
        got
    }
}

/// The walk's complete listing of `dir`, for the memo running (if any).
pub(crate) fn note_listing<'a>(dir: &Path, names: impl IntoIterator<Item = &'a OsStr>) {
    CURRENT.with(|c| {
        if let Some(memo) = c.borrow().as_ref() {
            memo.note_listing(dir, names);
        }
    });
}

fn system_metadata(path: &Path, follow: bool) -> io::Result<Metadata> {
    if follow {
        std::fs::metadata(path)
    } else {
        std::fs::symlink_metadata(path)
    }
}

fn remembered(path: &Path, follow: bool) -> io::Result<Metadata> {
    CURRENT.with(|c| match c.borrow().as_ref() {
        Some(memo) => memo.metadata(path, follow),
        None => system_metadata(path, follow),
    })
}

/// `std::fs::metadata`, remembered inside [`Memo::run`].
pub(crate) fn metadata(path: impl AsRef<Path>) -> io::Result<Metadata> {
    remembered(path.as_ref(), true)
}

/// `std::fs::symlink_metadata`, remembered inside [`Memo::run`].
pub(crate) fn symlink_metadata(path: impl AsRef<Path>) -> io::Result<Metadata> {
    remembered(path.as_ref(), false)
}

/// `std::fs::canonicalize`, remembered inside [`Memo::run`].
pub(crate) fn canonicalize(path: impl AsRef<Path>) -> io::Result<PathBuf> {
    let path = path.as_ref();
    CURRENT.with(|c| match c.borrow().as_ref() {
        Some(memo) => memo.real(path),
        None => std::fs::canonicalize(path),
    })
}

/// `std::fs::read_dir`; inside [`Memo::run`], a directory a listing says
/// is absent fails as the system would (`ENOENT`) without a call.
pub(crate) fn read_dir(path: impl AsRef<Path>) -> io::Result<std::fs::ReadDir> {
    let path = path.as_ref();
    let absent = CURRENT.with(|c| c.borrow().as_ref().is_some_and(|m| m.absent(path)));
    if absent {
        return Err(not_found());
    }
    std::fs::read_dir(path)
}

/// `stat` (links followed), remembered inside [`Memo::run`].
pub(crate) fn stat(path: &Path) -> io::Result<Kind> {
    metadata(path).map(|m| {
        if m.is_file() {
            Kind::File(m.len())
        } else if m.is_dir() {
            Kind::Dir
        } else {
            Kind::Other
        }
    })
}

/// Bytes read of one instruction file (a memory file, an instruction, an
/// import, a project doc): 16 MiB, far past any budget a harness applies.
pub(crate) const MAX_FILE_BYTES: u64 = 16 << 20;

/// Bytes read of one config file: 4 MiB.
pub(crate) const MAX_CONFIG_BYTES: u64 = 4 << 20;

/// Reads a regular file whole, refusing one over `cap` bytes.
pub(crate) fn read_capped(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    let (file, len) = open_regular(path)?;
    if len > cap {
        return Err(too_large(len, cap));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len.min(cap)).unwrap_or(0));
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_large(bytes.len() as u64, cap));
    }
    Ok(bytes)
}

/// Reads at most `limit` bytes of a regular file (a prefix: codex cuts its
/// project docs at the budget left).
pub(crate) fn read_prefix(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let (file, len) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len.min(limit)).unwrap_or(0));
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// A config file, or `Ok(None)` when it does not exist.
pub(crate) fn read_config(path: &Path) -> io::Result<Option<Vec<u8>>> {
    match read_capped(path, MAX_CONFIG_BYTES) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Opens a regular file non-blocking; its length by `fstat`.
fn open_regular(path: &Path) -> io::Result<(File, u64)> {
    match stat(path)? {
        Kind::Dir => return Err(io::Error::from_raw_os_error(libc::EISDIR)),
        Kind::Other => return Err(not_regular()),
        Kind::File(_) => {}
    }
    let file: File = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::from_raw_os_error(libc::EISDIR));
    }
    if !meta.is_file() {
        return Err(not_regular());
    }
    Ok((file, meta.len()))
}

fn not_regular() -> io::Error {
    io::Error::other("not a regular file")
}

fn too_large(bytes: u64, cap: u64) -> io::Error {
    io::Error::other(format!(
        "too large: {bytes} bytes, over the {cap}-byte cap agentctx reads"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn devices_fifos_and_large_files_are_refused() {
        let e = read_capped(Path::new("/dev/zero"), 10).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file");
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big");
        std::fs::write(&big, b"0123456789a").unwrap();
        let e = read_capped(&big, 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "too large: 11 bytes, over the 10-byte cap agentctx reads"
        );
        assert_eq!(read_capped(&big, 11).unwrap(), b"0123456789a");
        assert_eq!(read_prefix(&big, 3).unwrap(), b"012");
        assert_eq!(read_config(&dir.path().join("none")).unwrap(), None);
    }
}

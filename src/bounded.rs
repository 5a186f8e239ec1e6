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

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The kind of a path after following links, or the error stat gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    File(u64),
    Dir,
    Other,
}

thread_local! {
    /// The `stat` results of this thread's loads, while [`with_stat_memo`]
    /// runs (`check` loads many directories of one tree: their ancestors'
    /// names are looked up once, not once per load).
    static STAT_MEMO: std::cell::RefCell<Option<Memo>> = const { std::cell::RefCell::new(None) };
}

/// What [`with_stat_memo`] remembers: `lstat` and `stat` by path (the
/// path's bytes: hashing them is cheap, hashing a `Path` parses it).
type Memo = [std::collections::HashMap<std::ffi::OsString, Result<std::fs::Metadata, Failed>>; 2];

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

/// Runs `f` with every [`metadata`] (and so [`stat`]) of this thread
/// remembered: for a check, which reads one unchanging tree.
pub fn with_stat_memo<T>(f: impl FnOnce() -> T) -> T {
    let outer = STAT_MEMO.with(|m| m.borrow().is_some());
    if !outer {
        STAT_MEMO.with(|m| *m.borrow_mut() = Some(Memo::default()));
    }
    let out = f();
    if !outer {
        STAT_MEMO.with(|m| *m.borrow_mut() = None);
    }
    out
}

/// `std::fs::metadata`, remembered inside [`with_stat_memo`].
pub(crate) fn metadata(path: &Path) -> io::Result<std::fs::Metadata> {
    remembered(path, true)
}

/// `std::fs::symlink_metadata`, remembered inside [`with_stat_memo`].
pub(crate) fn symlink_metadata(path: &Path) -> io::Result<std::fs::Metadata> {
    remembered(path, false)
}

fn remembered(path: &Path, follow: bool) -> io::Result<std::fs::Metadata> {
    let at = usize::from(follow);
    let known = STAT_MEMO.with(|m| {
        m.borrow()
            .as_ref()
            .map(|m| m[at].get(path.as_os_str()).cloned())
    });
    if let Some(Some(known)) = known {
        return known.map_err(Failed::error);
    }
    let got = if follow {
        std::fs::metadata(path)
    } else {
        std::fs::symlink_metadata(path)
    };
    if known.is_some() {
        STAT_MEMO.with(|m| {
            if let Some(m) = m.borrow_mut().as_mut() {
                let value = got.as_ref().map(Clone::clone).map_err(Failed::of);
                m[at].insert(path.as_os_str().to_owned(), value);
            }
        });
    }
    got
}

/// `stat` (links followed), remembered inside [`with_stat_memo`].
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

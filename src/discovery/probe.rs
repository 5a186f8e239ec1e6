//! Stage 2's probe: what `stat` says of a candidate path.

use std::fs;
use std::io;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

use super::probe_link;

/// What `stat` (following links) says of a candidate path (SPEC 2.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    /// A regular file of this many bytes.
    File { size: u64 },
    /// Nothing there (`ENOENT`, `ENOTDIR`), and why.
    Missing(Absence),
    /// Something that is not a regular file: absent, never opened.
    NotRegular(&'static str),
    /// Any other error: skipped for this render, never a deletion.
    Unavailable(String),
}

/// Why a candidate is missing (all three are the same absence to SPEC 2.3;
/// people are told which).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absence {
    /// No such entry.
    NoEntry,
    /// A symlink whose target does not exist.
    DanglingLink,
    /// A component on the way is not a directory (`ENOTDIR`).
    NotADirectory,
}

impl Probe {
    #[must_use]
    pub fn is_present(&self) -> bool {
        matches!(self, Probe::File { .. })
    }
    #[must_use]
    pub fn is_unavailable(&self) -> bool {
        matches!(self, Probe::Unavailable(_))
    }
}

/// Probes `path` with `stat`, following a final symlink (SPEC 2.3).
///
/// It asks `lstat` first and follows with `stat` only for a symlink: the
/// outcome is `stat`'s (the components before the last resolve alike), a
/// plain file or absence costs one call, and a dangling link is told apart
/// from a missing name for free.
#[must_use]
pub fn probe(path: &Path) -> Probe {
    probe_link(path, None).0
}

pub(super) fn classify(meta: &fs::Metadata) -> Probe {
    if meta.is_file() {
        Probe::File { size: meta.len() }
    } else {
        Probe::NotRegular(kind_name(meta.file_type()))
    }
}

pub(super) fn probe_error(err: &io::Error) -> Probe {
    match err.kind() {
        io::ErrorKind::NotFound => Probe::Missing(Absence::NoEntry),
        io::ErrorKind::NotADirectory => Probe::Missing(Absence::NotADirectory),
        _ => Probe::Unavailable(os_error(err)),
    }
}

/// What a file that is not a regular file is, in a word or two.
#[must_use]
pub fn kind_name(ft: fs::FileType) -> &'static str {
    if ft.is_dir() {
        "directory"
    } else if ft.is_fifo() {
        "FIFO"
    } else if ft.is_socket() {
        "socket"
    } else if ft.is_block_device() {
        "block device"
    } else if ft.is_char_device() {
        "character device"
    } else {
        "special file"
    }
}

/// An OS error as one short line ("Permission denied (os error 13)").
#[must_use]
pub fn os_error(err: &io::Error) -> String {
    err.to_string()
}

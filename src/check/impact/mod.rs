//! `check --base REV`: what a change does to what sessions receive,
//! directory by directory.
//!
//! 1. **Read REV** with the `git` executable only, run as `git` (the
//!    module) says, never writing, fetching or running anything the
//!    repository configured: `git ls-tree -r -z` lists the revision's tree,
//!    `git cat-file --batch-check` sizes the objects that decide baselines
//!    (candidate files, root markers, ignore files, and the in-repository
//!    targets of symlinked candidates), `git cat-file --batch` reads each
//!    distinct one once, at most max-source-bytes of it (a symlink's target:
//!    4096 bytes). Nothing is checked out and nothing in the repository is
//!    written. A path git would not check out (`..`, `.`, empty or absolute
//!    components, `.git` in any case) and an object the repository lacks
//!    are skipped with a warning naming REV and the path.
//! 2. **Mirror** those entries into a fresh private temporary directory,
//!    laid out like the work tree (symlinks kept, targets that leave the
//!    repository pointed at the same absolute place, submodules as nested
//!    roots): directories are made one component at a time and never
//!    through a symlink, files are created new (`O_EXCL | O_NOFOLLOW`) as
//!    hard links to one copy per object id, and an oversized blob is a
//!    sparse file of its size, refused by its size as in a checkout.
//! 3. **Check both** with the same options: the mirror gives every
//!    directory's baseline at REV, the work tree the current one; paths are
//!    shown relative to the same start directory, so they compare as strings.
//! 4. **Compare** per directory: received text, bytes, files added, removed
//!    and changed, newly omitted or truncated files; and which errors are
//!    new (absent at REV for the same rule and file).

mod compare;
mod mirror;
mod tree;

use serde::Serialize;

use super::Finding;

pub use compare::{compare, reanchor};
pub use mirror::{Revision, check_revision};

/// What the change does to one directory's baseline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DirChange {
    pub dir: String,
    /// Bytes sent before and after (`None`: no instruction files there).
    pub bytes_before: Option<usize>,
    pub bytes_after: Option<usize>,
    /// Display paths of loaded files.
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
    pub newly_omitted: Vec<String>,
    pub newly_truncated: Vec<String>,
    /// Over budget now, not before.
    pub newly_failing: bool,
}

/// The impact of the work tree against REV.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Impact {
    pub base: String,
    /// Directories whose received text changes, in path order.
    pub directories: Vec<DirChange>,
    /// Errors that REV did not have (for the same rule and file).
    pub new_errors: Vec<Finding>,
    pub new_warnings: Vec<Finding>,
    pub preexisting_errors: usize,
    pub preexisting_warnings: usize,
}

impl Impact {
    /// Exit 1 only for what the change brings.
    #[must_use]
    pub fn failed(&self, deny_warnings: bool) -> bool {
        !self.new_errors.is_empty() || (deny_warnings && !self.new_warnings.is_empty())
    }
}

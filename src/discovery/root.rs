//! Stage 1: the project root above the cwd, and the chain of directories
//! from it down to the cwd.

use std::fs;
use std::path::{Path, PathBuf};

use crate::paths;

/// The result of the upward root search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootSearch {
    /// Every directory tested, from the cwd upward.
    pub walked: Vec<PathBuf>,
    /// The marker that decided the root, if any.
    pub marker: Option<MarkerHit>,
    /// The project root.
    pub root: PathBuf,
}

/// A root marker found on the way up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkerHit {
    pub dir: PathBuf,
    pub name: String,
    pub is_dir: bool,
}

/// Finds the project root for `cwd` (SPEC 2.2).
#[must_use]
pub fn find_root(cwd: &Path, markers: &[String]) -> RootSearch {
    let mut walked = Vec::new();
    for dir in cwd.ancestors() {
        walked.push(dir.to_path_buf());
        for name in markers {
            if let Ok(meta) = fs::metadata(dir.join(name)) {
                return RootSearch {
                    walked,
                    marker: Some(MarkerHit {
                        dir: dir.to_path_buf(),
                        name: name.clone(),
                        is_dir: meta.is_dir(),
                    }),
                    root: dir.to_path_buf(),
                };
            }
        }
    }
    RootSearch {
        walked,
        marker: None,
        root: cwd.to_path_buf(),
    }
}

/// The chain root..=cwd, broadest first.
pub fn chain(root: &Path, cwd: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = cwd
        .ancestors()
        .take_while(|d| d.starts_with(root))
        .map(Path::to_path_buf)
        .collect();
    dirs.reverse();
    dirs
}

/// The display path of each directory of a [`chain`], as
/// [`paths::dir_display`] makes it, each built from the one before: a chain
/// directory is its parent and one more component (13 walks of every
/// component were a seventh of `render`'s discovery).
pub(super) fn chain_displays(root: &Path, chain: &[PathBuf]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(chain.len());
    for dir in chain {
        let display = match (out.last(), dir.components().next_back()) {
            (Some(parent), Some(last)) => {
                paths::file_display(parent, &last.as_os_str().to_string_lossy())
            }
            _ => paths::dir_display(root, dir),
        };
        out.push(display);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn chain_displays_are_dir_displays() {
        for (root, cwd) in [
            ("/r", "/r/a/b/c"),
            ("/r", "/r"),
            ("/", "/x/y"),
            ("/r/", "/r/a/"),
            ("/r", "/r/a b/\u{e9}/.hidden"),
            ("/nope", "/r/a"),
        ] {
            let (root, cwd) = (Path::new(root), Path::new(cwd));
            let dirs = chain(root, cwd);
            let expected: Vec<String> = dirs.iter().map(|d| paths::dir_display(root, d)).collect();
            assert_eq!(chain_displays(root, &dirs), expected, "{cwd:?}");
        }
        let odd = std::ffi::OsStr::from_bytes(b"/r/a/\xff");
        let dirs = chain(Path::new("/r"), Path::new(odd));
        let expected: Vec<String> = dirs
            .iter()
            .map(|d| paths::dir_display(Path::new("/r"), d))
            .collect();
        assert_eq!(chain_displays(Path::new("/r"), &dirs), expected);
    }
}

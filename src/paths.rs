//! Lexical path handling (SPEC 2.1): absolute, normalised without touching the
//! filesystem, and the `/`-separated display paths the harness persists.

use std::path::{Component, Path, PathBuf};

/// Makes `path` absolute against `base` and removes `.` and `..` lexically
/// (no symlink resolution, as the harness does).
#[must_use]
pub fn normalize(base: &Path, path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    };
    let mut out = PathBuf::from("/");
    for component in joined.components() {
        match component {
            Component::Prefix(_) | Component::RootDir | Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(part) => out.push(part),
        }
    }
    out
}

/// An absolute, lexically normalised `path` with its links resolved, as
/// `realpath` does, for the longest prefix that exists; the components
/// after it (missing, or past a dangling link) are kept as written. This is
/// the directory `cd path` leaves a process in (SPEC 10.1).
#[must_use]
pub fn physical(path: &Path) -> PathBuf {
    for prefix in path.ancestors() {
        if let Ok(real) = std::fs::canonicalize(prefix) {
            return match path.strip_prefix(prefix) {
                Ok(rest) if !rest.as_os_str().is_empty() => real.join(rest),
                _ => real,
            };
        }
    }
    path.to_path_buf()
}

/// Expands a leading `~` or `~/` against the home directory.
#[must_use]
pub fn expand_tilde(raw: &str, home: Option<&Path>) -> PathBuf {
    match (raw, home) {
        ("~", Some(home)) => home.to_path_buf(),
        (_, Some(home)) if raw.starts_with("~/") => home.join(&raw[2..]),
        _ => PathBuf::from(raw),
    }
}

/// The display path of `dir` relative to `root`: `.` for the root itself,
/// else its components joined with `/`. Non-UTF-8 bytes become U+FFFD.
#[must_use]
pub fn dir_display(root: &Path, dir: &Path) -> String {
    match dir.strip_prefix(root) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
        Ok(rel) => join_components(rel),
        Err(_) => dir.to_string_lossy().into_owned(),
    }
}

/// The display path of a file named `name` in a directory displayed as `dir`.
#[must_use]
pub fn file_display(dir: &str, name: &str) -> String {
    if dir == "." {
        name.to_owned()
    } else {
        let mut out = String::with_capacity(dir.len() + 1 + name.len());
        out.push_str(dir);
        out.push('/');
        out.push_str(name);
        out
    }
}

fn join_components(rel: &Path) -> String {
    let mut out = String::with_capacity(rel.as_os_str().len());
    for (i, c) in rel.components().enumerate() {
        if i > 0 {
            out.push('/');
        }
        out.push_str(&c.as_os_str().to_string_lossy());
    }
    out
}

/// The relative path from `cwd` up to its ancestor `root`: `""`, `".."`, `"../.."`.
#[must_use]
pub fn up_to(cwd: &Path, root: &Path) -> String {
    let depth = cwd
        .strip_prefix(root)
        .map_or(0, |rel| rel.components().count());
    vec![".."; depth].join("/")
}

/// The directory a display path names, resolved against `root` (`.` is the root).
#[must_use]
pub fn from_display(root: &Path, display: &str) -> PathBuf {
    if display == "." {
        root.to_path_buf()
    } else {
        display
            .split('/')
            .fold(root.to_path_buf(), |p, part| p.join(part))
    }
}

/// `path` relative to `base` (both absolute and normalised), with `/`
/// separators: `.`, `a/b`, `../x`.
#[must_use]
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
    fn physical_resolves_links_and_keeps_missing_components() {
        let t = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir(top.join("real")).unwrap();
        std::os::unix::fs::symlink("real", top.join("ln")).unwrap();
        std::os::unix::fs::symlink("nowhere", top.join("dangling")).unwrap();
        assert_eq!(physical(&top.join("ln")), top.join("real"));
        assert_eq!(physical(&top.join("ln/x/y")), top.join("real/x/y"));
        assert_eq!(physical(&top.join("dangling/z")), top.join("dangling/z"));
        assert_eq!(physical(Path::new("/")), Path::new("/"));
    }

    #[test]
    fn normalize_removes_dots_lexically() {
        let base = Path::new("/a/b");
        assert_eq!(
            normalize(base, Path::new("../c/./d")),
            PathBuf::from("/a/c/d")
        );
        assert_eq!(
            normalize(base, Path::new("/x/../../y")),
            PathBuf::from("/y")
        );
        assert_eq!(normalize(base, Path::new(".")), PathBuf::from("/a/b"));
    }

    #[test]
    fn tilde_expands_only_alone_or_before_a_slash() {
        let home = Path::new("/home/u");
        assert_eq!(expand_tilde("~", Some(home)), PathBuf::from("/home/u"));
        assert_eq!(expand_tilde("~/x", Some(home)), PathBuf::from("/home/u/x"));
        assert_eq!(expand_tilde("~x", Some(home)), PathBuf::from("~x"));
        assert_eq!(expand_tilde("~/x", None), PathBuf::from("~/x"));
    }

    #[test]
    fn display_paths_are_root_relative_with_slashes() {
        let root = Path::new("/r");
        assert_eq!(dir_display(root, Path::new("/r")), ".");
        assert_eq!(dir_display(root, Path::new("/r/a/b")), "a/b");
        assert_eq!(file_display(".", "AGENTS.md"), "AGENTS.md");
        assert_eq!(file_display("a/b", "AGENTS.md"), "a/b/AGENTS.md");
        assert_eq!(up_to(Path::new("/r/a/b"), root), "../..");
        assert_eq!(up_to(root, root), "");
        assert_eq!(from_display(root, "a/b"), PathBuf::from("/r/a/b"));
    }

    #[test]
    fn relative_paths_go_up_then_down() {
        let base = Path::new("/r/a");
        assert_eq!(relative(base, Path::new("/r/a")), ".");
        assert_eq!(relative(base, Path::new("/r/a/b/c")), "b/c");
        assert_eq!(relative(base, Path::new("/r/x/y")), "../x/y");
        assert_eq!(relative(base, Path::new("/r")), "..");
        assert_eq!(relative(Path::new("/"), Path::new("/r")), "r");
    }
}

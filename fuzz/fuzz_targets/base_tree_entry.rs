//! Fuzzes what `check --base` accepts of a revision's tree entry path
//! (issue 21): `agentctx::check::git::path_problem`.
//!
//! Build (CI never runs it): `RUSTC_BOOTSTRAP=1 cargo fuzz build -s none base_tree_entry`
//! from `fuzz/`; run: `cargo fuzz run base_tree_entry -s none -- -max_total_time=120`.
//!
//! The first byte picks the entry's mode (blob, executable, symlink,
//! submodule, tree); the rest is the path as `ls-tree -z` would print it
//! (`/`, `\`, NUL, `..` and any bytes allowed). Besides "never panics":
//! - an accepted path is relative, has no NUL and no empty, `.` or `..`
//!   component, and joined to a directory stays strictly below it with as
//!   many components as it has (so the mirror can only write inside);
//! - no accepted component is `.git` in any case;
//! - the mode only adds refusals for a symlink (`.gitmodules`): whatever a
//!   symlink may be named, a blob may be too;
//! - a refusal is one of a few fixed phrases.
#![no_main]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path};

use agentctx::check::git::{MODE_LINK, MODE_SUBMODULE, MODE_TREE, path_problem};
use libfuzzer_sys::fuzz_target;

const MODES: [u32; 5] = [0o100_644, 0o100_755, MODE_LINK, MODE_SUBMODULE, MODE_TREE];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, path)) = data.split_first() else {
        return;
    };
    let mode = MODES[usize::from(pick) % MODES.len()];
    let verdict = path_problem(path, mode);
    if let Some(problem) = verdict {
        assert!(problem.len() < 64 && !problem.contains('\n'), "{problem:?}");
        return;
    }
    assert_eq!(path_problem(path, 0o100_644), None, "a symlink's name refused for a blob");
    assert!(!path.is_empty() && path[0] != b'/' && !path.contains(&0));
    let parts: Vec<&[u8]> = path.split(|b| *b == b'/').collect();
    for part in &parts {
        assert!(!matches!(*part, b"" | b"." | b".."), "{path:?}");
        assert!(!part.eq_ignore_ascii_case(b".git"), "{path:?}");
    }
    let root = Path::new("/mirror/tree");
    let joined = agentctx::paths::normalize(root, Path::new(OsStr::from_bytes(path)));
    assert!(joined.starts_with(root) && joined != root, "{path:?} leaves the mirror");
    let below = joined.strip_prefix(root).map(|p| p.components().count());
    assert_eq!(below, Ok(parts.len()), "{path:?}");
    assert!(
        Path::new(OsStr::from_bytes(path))
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
    );
});

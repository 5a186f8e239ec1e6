//! The conformance-vector runners' shared half: a case materialised as its
//! `run.py` does, the case list, and the failures of a whole run.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The strings of a JSON array (empty when not an array).
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Copies a directory tree, recreating symlinks verbatim.
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let ft = entry.file_type().unwrap();
        if ft.is_symlink() {
            symlink(fs::read_link(entry.path()).unwrap(), &target).unwrap();
        } else if ft.is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Materialises a conformance-vector case as its runner does: `tree/`
/// copied into a fresh temp dir under /tmp, then the case's `setup` (empty
/// dirs, FIFOs, files, symlinks verbatim). Returns the temp dir and the tree.
pub fn materialize(case_dir: &Path, case: &Value) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::Builder::new()
        .prefix("agentctx-vec-")
        .tempdir_in("/tmp")
        .unwrap();
    let tree = tmp.path().join("tree");
    if case_dir.join("tree").is_dir() {
        copy_tree(&case_dir.join("tree"), &tree);
    }
    fs::create_dir_all(&tree).unwrap();
    let setup = &case["setup"];
    for rel in strings(&setup["empty_dirs"]) {
        fs::create_dir_all(tree.join(rel)).unwrap();
    }
    for rel in strings(&setup["fifos"]) {
        let p = tree.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        let ok = Command::new("mkfifo").arg(&p).status().unwrap().success();
        assert!(ok, "mkfifo {}", p.display());
    }
    // `.git` files, and texts holding the tree's absolute path (@TREE@).
    if let Some(files) = setup["files"].as_object() {
        let tree_str = tree.to_str().unwrap();
        for (rel, text) in files {
            let p = tree.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text.as_str().unwrap().replace("@TREE@", tree_str)).unwrap();
        }
    }
    if let Some(links) = setup["symlinks"].as_object() {
        for (rel, target) in links {
            let p = tree.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            symlink(target.as_str().unwrap(), p).unwrap();
        }
    }
    (tmp, tree)
}

/// The case directories under `cases` (those holding a case.json), sorted.
pub fn case_dirs(cases: &Path) -> Vec<PathBuf> {
    let mut names: Vec<PathBuf> = fs::read_dir(cases)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("case.json").is_file())
        .collect();
    names.sort();
    names
}

/// Reads a JSON file.
pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// Runs `run_case` on every case under `cases`; returns the number of cases
/// and one line (`case: why`) per failing case.
pub fn run_cases(cases: &Path, run_case: impl Fn(&Path) -> Option<String>) -> (usize, Vec<String>) {
    let names = case_dirs(cases);
    let failures = names
        .iter()
        .filter_map(|d| {
            run_case(d).map(|p| format!("{}: {p}", d.file_name().unwrap().to_string_lossy()))
        })
        .collect();
    (names.len(), failures)
}

/// Why a case's run failed, when it exited non-zero: `exit CODE: STDERR`.
pub fn exit_failure(out: &Output) -> Option<String> {
    (!out.status.success()).then(|| {
        format!(
            "exit {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).trim()
        )
    })
}

/// The first of `keys` where `got` and `expected` differ, as a failure line.
pub fn first_difference(got: &Value, expected: &Value, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find(|&&key| got[key] != expected[key])
        .map(|key| {
            format!(
                "{key} differs:\n  expected {}\n  got      {}",
                expected[key], got[key]
            )
        })
}

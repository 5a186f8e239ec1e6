//! The conformance vectors of tests/vectors/cases (from an independent
//! implementation of SPEC.md), run against the real binary as
//! tests/vectors/run.py does: parts and source compared byte for byte.
// Test code: a failed unwrap is a failed test (clippy's allow-unwrap-in-tests
// does not reach helper functions of an integration-test crate).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use serde_json::Value;

fn copy_tree(from: &Path, to: &Path) {
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

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn run_case(dir: &Path) -> Option<String> {
    let case: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("case.json")).unwrap()).unwrap();
    let expected: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    if strings(&case["requires"]).iter().any(|r| r == "non-root") && common::is_root() {
        eprintln!("skipping {}: needs a non-root user", dir.display());
        return None;
    }
    let tmp = tempfile::Builder::new()
        .prefix("agentctx-vec-")
        .tempdir_in("/tmp")
        .unwrap();
    let tree = tmp.path().join("tree");
    if dir.join("tree").is_dir() {
        copy_tree(&dir.join("tree"), &tree);
    }
    fs::create_dir_all(&tree).unwrap();
    let setup = &case["setup"];
    for rel in strings(&setup["empty_dirs"]) {
        fs::create_dir_all(tree.join(rel)).unwrap();
    }
    for rel in strings(&setup["fifos"]) {
        let p = tree.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&p)
                .status()
                .unwrap()
                .success()
        );
    }
    for (rel, text) in setup["files"].as_object().unwrap() {
        let p = tree.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text.as_str().unwrap()).unwrap();
    }
    if let Some(links) = setup["symlinks"].as_object() {
        for (rel, target) in links {
            let p = tree.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            symlink(target.as_str().unwrap(), p).unwrap();
        }
    }
    let tree_str = tree.to_str().unwrap();
    let sub = |s: &str| s.replace("@TREE@", tree_str);
    let mut cmd = common::agentctx();
    cmd.current_dir(tmp.path())
        .env_remove("HOME")
        .env_remove("DSH_HOME");
    cmd.arg(case["command"].as_str().unwrap());
    if case["pass_cwd"].as_bool().unwrap() {
        cmd.arg("--cwd")
            .arg(tree.join(case["cwd"].as_str().unwrap()));
    }
    if let Some(log) = case["log"].as_str() {
        let escaped = serde_json::to_string(tree_str).unwrap();
        let text = fs::read_to_string(dir.join(log))
            .unwrap()
            .replace("@TREE@", &escaped[1..escaped.len() - 1]);
        let log_path = tmp.path().join("session.jsonl");
        fs::write(&log_path, text).unwrap();
        cmd.arg("--log").arg(log_path);
    }
    for arg in strings(&case["args"]) {
        cmd.arg(sub(&arg));
    }
    for (k, v) in case["env"].as_object().unwrap() {
        cmd.env(k, sub(v.as_str().unwrap()));
    }
    cmd.args(["--format", "json"]);
    let out = cmd.output().unwrap();
    if !out.status.success() {
        return Some(format!(
            "exit {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["parts", "source"] {
        if got[key] != expected[key] {
            return Some(format!(
                "{key} differs:\n  expected {}\n  got      {}",
                expected[key], got[key]
            ));
        }
    }
    None
}

#[test]
fn conformance_vectors_pass() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/cases");
    let mut names: Vec<_> = fs::read_dir(&cases)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("case.json").is_file())
        .map(|e| e.path())
        .collect();
    names.sort();
    assert!(
        names.len() >= 60,
        "expected the vector cases, found {}",
        names.len()
    );
    let failures: Vec<String> = names
        .iter()
        .filter_map(|d| {
            run_case(d).map(|p| format!("{}: {p}", d.file_name().unwrap().to_string_lossy()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} vectors failed:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}

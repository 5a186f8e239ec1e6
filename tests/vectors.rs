//! The conformance vectors of tests/vectors/cases (from an independent
//! implementation of SPEC.md), run against the real binary as
//! tests/vectors/run.py does: parts and source compared byte for byte.
// Test code: a failed unwrap is a failed test (clippy's allow-unwrap-in-tests
// does not reach helper functions of an integration-test crate).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;

use common::vectors::{exit_failure, first_difference, materialize, read_json, run_cases, strings};

fn run_case(dir: &Path) -> Option<String> {
    let case = read_json(&dir.join("case.json"));
    let expected = read_json(&dir.join("expected.json"));
    if strings(&case["requires"]).iter().any(|r| r == "non-root") && common::is_root() {
        eprintln!("skipping {}: needs a non-root user", dir.display());
        return None;
    }
    let (tmp, tree) = materialize(dir, &case);
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
    if let Some(failure) = exit_failure(&out) {
        return Some(failure);
    }
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    first_difference(&got, &expected, &["parts", "source"])
}

#[test]
fn conformance_vectors_pass() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/cases");
    let (count, failures) = run_cases(&cases, run_case);
    assert!(count >= 60, "expected the vector cases, found {count}");
    assert!(
        failures.is_empty(),
        "{} of {count} vectors failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

//! The harness-profile conformance vectors of tests/vectors-profiles/cases
//! (SPEC 10, from an independent implementation cross-checked against the
//! harnesses), run against the real binary as their run.py does: parts,
//! partKinds, exact and files compared, plus the upstream substrings.
// Test code: a failed unwrap is a failed test (clippy's allow-unwrap-in-tests
// does not reach helper functions of an integration-test crate).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::Path;

use common::PROFILE_VARS;
use common::vectors::{exit_failure, first_difference, materialize, read_json, run_cases, strings};
use serde_json::{Map, Value};

/// Replaces @TREE@ in every string of a JSON value.
fn subst(v: &Value, tree: &str) -> Value {
    match v {
        Value::String(s) => Value::String(s.replace("@TREE@", tree)),
        Value::Array(a) => Value::Array(a.iter().map(|x| subst(x, tree)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), subst(x, tree)))
                .collect::<Map<_, _>>(),
        ),
        other => other.clone(),
    }
}

/// `files` reduced to the compared keys (path, bytes, included, truncated);
/// for claude only the included files are compared, as run.py does.
fn norm_files(files: &Value, profile: &str) -> Value {
    let items = files.as_array().cloned().unwrap_or_default();
    Value::Array(
        items
            .iter()
            .filter(|f| profile != "claude" || f["included"] == Value::Bool(true))
            .map(|f| {
                let mut g = Map::new();
                for key in ["path", "bytes", "included"] {
                    g.insert(key.to_owned(), f.get(key).cloned().unwrap_or(Value::Null));
                }
                if let Some(t) = f.get("truncated").filter(|t| !t.is_null()) {
                    g.insert("truncated".to_owned(), t.clone());
                }
                Value::Object(g)
            })
            .collect(),
    )
}

fn run_case(dir: &Path) -> Option<String> {
    let case = read_json(&dir.join("case.json"));
    let (tmp, tree) = materialize(dir, &case);
    let tree_str = tree.to_str().unwrap();
    let expected = subst(&read_json(&dir.join("expected.json")), tree_str);
    let mut cmd = common::agentctx();
    // Every variable a profile reads, removed before the case's env is laid over.
    cmd.current_dir(tmp.path()).env_remove("HOME");
    for var in PROFILE_VARS {
        cmd.env_remove(var);
    }
    cmd.arg(case["command"].as_str().unwrap())
        .args(["--profile", case["profile"].as_str().unwrap()])
        .arg("--cwd")
        .arg(tree.join(case["cwd"].as_str().unwrap()));
    for arg in strings(&case["args"]) {
        cmd.arg(arg.replace("@TREE@", tree_str));
    }
    cmd.args(["--format", "json"]);
    for (k, v) in case["env"].as_object().unwrap() {
        cmd.env(k, v.as_str().unwrap().replace("@TREE@", tree_str));
    }
    let out = cmd.output().unwrap();
    if let Some(failure) = exit_failure(&out) {
        return Some(failure);
    }
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    if let Some(failure) = first_difference(&got, &expected, &["parts", "partKinds", "exact"]) {
        return Some(failure);
    }
    let profile = case["profile"].as_str().unwrap();
    if norm_files(&got["files"], profile) != expected["files"] {
        return Some(format!(
            "files differ:\n  expected {}\n  got      {}",
            expected["files"],
            norm_files(&got["files"], profile)
        ));
    }
    let text = strings(&got["parts"]).join("\n");
    let upstream = &case["upstream"];
    for c in strings(&upstream["contains"]) {
        if !text.contains(&c.replace("@TREE@", tree_str)) {
            return Some(format!("upstream assertion: missing {c:?}"));
        }
    }
    for c in strings(&upstream["not_contains"]) {
        if text.contains(&c.replace("@TREE@", tree_str)) {
            return Some(format!("upstream assertion: unexpected {c:?}"));
        }
    }
    None
}

/// Cases where the pinned real agent disagrees with the vector (the real
/// agent wins, PROFILES.md 10): agentctx does what the agent does, so these
/// are checked to fail that way instead.
const REAL_AGENT_WINS: [(&str, &str); 2] = [
    // codex 0.171.0 refuses a trust_level other than trusted/untrusted
    // ("unknown variant `maybe`"; realagents case cx-trust-other-value).
    (
        "cx-h46-trust-other-level",
        ".trust_level must be \"trusted\" or \"untrusted\", got \"maybe\"",
    ),
    // opencode 1.18.33 refuses a config whose {file:...} names a missing
    // file ("bad file reference"; realagents case oc-file-ref).
    (
        "oc-h31-file-ref-inexact",
        "bad file reference: \"{file:./y}\"",
    ),
];

#[test]
fn profile_conformance_vectors_pass() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors-profiles/cases");
    let (count, failures) = run_cases(&cases, |dir| {
        let name = dir.file_name().unwrap().to_str().unwrap();
        let got = run_case(dir);
        match REAL_AGENT_WINS.iter().find(|(case, _)| *case == name) {
            Some((_, refusal)) => match got {
                Some(ref why) if why.starts_with("exit Some(2): ") && why.contains(refusal) => None,
                other => Some(format!(
                    "expected exit 2 with {refusal:?} (the real agent refuses), got {other:?}"
                )),
            },
            None => got,
        }
    });
    assert_eq!(
        count, 196,
        "expected the 196 codex, gemini and opencode cases (claude's 62 are in tests/vectors-profiles-claude)"
    );
    assert!(
        failures.is_empty(),
        "{} of {count} profile vectors failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The claude cases (`cl-`) of the same public set, vendored on their own
/// (tests/vectors-profiles-claude/cases) and run the same way.
#[test]
fn claude_profile_conformance_vectors_pass() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors-profiles-claude/cases");
    let (count, failures) = run_cases(&cases, run_case);
    assert_eq!(count, 62, "expected the 62 claude profile vector cases");
    assert!(
        failures.is_empty(),
        "{} of {count} claude profile vectors failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

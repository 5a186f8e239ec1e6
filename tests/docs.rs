//! The documentation's console examples print what the documentation shows
//! (issue 27): `scripts/check-examples.sh` runs every ```console block of
//! README.md, docs/JSON.md and docs/sessions.md against the binary under
//! test, and README.md stays short.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

use pretty_assertions::assert_eq;

/// `scripts/check-examples.sh FILES` with this test's binary:
/// (stdout, stderr, exit code).
fn check_examples(files: &[&str]) -> (String, String, i32) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("scripts/check-examples.sh"))
        .args(files)
        .env("AGENTCTX", assert_cmd::cargo::cargo_bin("agentctx"))
        .env_remove("DSH_HOME")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .current_dir(root)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// Whether `program` runs here.
fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Every block is `ok` (their line numbers move as the files change, so
/// the blocks are counted, not listed).
#[test]
fn readme_and_json_md_examples_print_what_they_show() {
    let (out, err, code) = check_examples(&["README.md", "docs/JSON.md"]);
    assert_eq!((err.as_str(), code), ("", 0), "{out}");
    let blocks: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("examples:"))
        .collect();
    let readme = blocks
        .iter()
        .filter(|l| l.starts_with("ok    README.md:"))
        .count();
    let json = blocks
        .iter()
        .filter(|l| l.starts_with("ok    docs/JSON.md:"))
        .count();
    assert_eq!((readme, json, blocks.len()), (4, 1, 5), "{out}");
    assert!(
        out.ends_with("\nexamples: 5 blocks, all as printed\n"),
        "{out}"
    );
}

/// docs/sessions.md's example stores sessions with
/// examples/make-acme-sessions.py, which needs python3 and zstd.
#[test]
fn sessions_md_example_prints_what_it_shows() {
    if !(installed("python3") && installed("zstd")) {
        eprintln!("skipped: docs/sessions.md's example needs python3 and zstd");
        return;
    }
    let (out, err, code) = check_examples(&["docs/sessions.md"]);
    assert_eq!((err.as_str(), code), ("", 0), "{out}");
    assert!(out.starts_with("ok    docs/sessions.md:"), "{out}");
    assert!(
        out.ends_with("\nexamples: 1 blocks, all as printed\n"),
        "{out}"
    );
}

/// An example that prints something else fails, with a diff naming where.
#[test]
fn an_example_that_differs_fails_with_a_diff() {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("doc.md");
    std::fs::write(
        &doc,
        "Intro.\n\n```console\n$ echo one; false\none\n$ echo $?\n0\n$ printf 'no newline'\nno newline\n```\n",
    )
    .unwrap();
    let (out, err, code) = check_examples(&[doc.to_str().unwrap()]);
    let name = doc.display();
    assert_eq!(
        (out, err, code),
        (
            format!("DIFF  {name}:3\nexamples: 1 blocks, some differ\n"),
            format!("{name}:3: $ echo $?\n--- expected\n+++ actual\n@@ -1 +1 @@\n-0\n+1\n"),
            1
        )
    );
}

/// README.md stays at most 300 lines.
#[test]
fn readme_stays_short() {
    let readme = include_str!("../README.md");
    let lines = readme.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines");
}

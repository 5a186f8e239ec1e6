//! Where the output goes (issues 12.4, 13): a reader that closes the pipe
//! early never changes the verdict, a full disk is one error line and exit
//! 2, never a panic or a silent success. (A stdout closed before start,
//! `>&-`, cannot be told apart: the Rust runtime reopens it on /dev/null
//! read-write before main, exactly what a caller's read-write /dev/null,
//! such as Python's subprocess.DEVNULL, looks like.)
// Test code: a failed unwrap or expect is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs::OpenOptions;
use std::process::{Command, Stdio};

use common::Tree;
use pretty_assertions::assert_eq;

/// Runs `cmd` with stdout a pipe whose reader is already gone, so that every
/// write fails with EPIPE: (stderr, exit code).
fn into_closed_pipe(cmd: &mut Command) -> (String, i32) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    with_stdout(cmd, Stdio::from(writer))
}

/// Runs `cmd` with stdout on /dev/full: (stderr, exit code).
fn into_full_disk(cmd: &mut Command) -> (String, i32) {
    let full = OpenOptions::new().write(true).open("/dev/full").unwrap();
    with_stdout(cmd, Stdio::from(full))
}

/// Runs `cmd` with stdout on `stdout`: (stderr, exit code).
fn with_stdout(cmd: &mut Command, stdout: Stdio) -> (String, i32) {
    let out = cmd.stdout(stdout).stderr(Stdio::piped()).output().unwrap();
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A project whose baseline blows a 300-byte budget (check: one error).
fn over_budget() -> Tree {
    let t = Tree::new();
    t.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "x".repeat(400));
    t
}

#[test]
fn a_closed_pipe_keeps_the_exit_status_the_findings_decide() {
    let t = over_budget();
    for format in ["text", "json", "github"] {
        let (err, code) = into_closed_pipe(t.cmd().current_dir(t.path("proj")).args([
            "check",
            "--max-bytes",
            "300",
            "--format",
            format,
        ]));
        assert_eq!((err.as_str(), code), ("", 1), "check --format {format}");
    }
    let (err, code) = into_closed_pipe(t.cmd().args([
        "render",
        "--cwd",
        "proj",
        "--format",
        "json",
        "--max-bytes",
        "300",
        "--check",
    ]));
    assert_eq!(
        (err.as_str(), code),
        (
            "agentctx: the byte budget (max-bytes 300) cut this baseline: truncated AGENTS.md from 400 to 66 bytes\n",
            1
        ),
        "render --check"
    );
    let (err, code) = into_closed_pipe(
        t.cmd()
            .args(["render", "--cwd", "proj", "--format", "json"]),
    );
    assert_eq!((err.as_str(), code), ("", 0), "render");
    let (err, code) = into_closed_pipe(t.cmd().args(["explain", "--cwd", "proj"]));
    assert_eq!((err.as_str(), code), ("", 0), "explain");
    let (err, code) = into_closed_pipe(t.cmd().args(["completions", "bash"]));
    assert_eq!((err.as_str(), code), ("", 0), "completions");
    let (err, code) = into_closed_pipe(t.cmd().arg("--help"));
    assert_eq!((err.as_str(), code), ("", 0), "--help");
}

#[test]
fn a_full_disk_is_one_error_line_and_exit_2() {
    let t = over_budget();
    let line = "agentctx: writing to stdout: No space left on device (os error 28)\n";
    for args in [
        &["completions", "bash"][..],
        &["render", "--cwd", "proj"],
        &["check", "proj", "--max-bytes", "300"],
        &["explain", "--cwd", "proj"],
        &["--help"],
        &["render", "--help"],
        &["--version"],
    ] {
        let (err, code) = into_full_disk(t.cmd().args(args));
        assert_eq!((err.as_str(), code), (line, 2), "{args:?}");
    }
}

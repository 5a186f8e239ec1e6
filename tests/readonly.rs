//! agentctx never writes (SPEC 1): every subcommand runs over a fixture tree,
//! a dsh home and a session log, and afterwards every file, link and
//! directory has the same contents, mode, mtime and ctime, and no entry was
//! added or removed. Explain and check are included whatever state they are
//! in: the test only demands that they neither write nor panic.
// Test code: a failed unwrap or expect is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;
use serde_json::json;

use common::Tree;

/// What the test compares of one filesystem entry (not the access time,
/// which reading may change).
#[derive(Debug, PartialEq, Eq)]
struct Entry {
    kind: &'static str,
    mode: u32,
    mtime: (i64, i64),
    ctime: (i64, i64),
    content: Option<Vec<u8>>,
    link: Option<PathBuf>,
}

fn snapshot(root: &Path) -> BTreeMap<PathBuf, Entry> {
    walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .map(|e| {
            let e = e.expect("walk");
            let meta = e.path().symlink_metadata().expect("lstat");
            let ft = meta.file_type();
            let kind = if ft.is_symlink() {
                "symlink"
            } else if ft.is_dir() {
                "dir"
            } else if ft.is_fifo() {
                "fifo"
            } else {
                "file"
            };
            let entry = Entry {
                kind,
                mode: meta.mode(),
                mtime: (meta.mtime(), meta.mtime_nsec()),
                ctime: (meta.ctime(), meta.ctime_nsec()),
                content: (kind == "file").then(|| fs::read(e.path()).expect("read")),
                link: ft
                    .is_symlink()
                    .then(|| fs::read_link(e.path()).expect("readlink")),
            };
            (e.path().to_path_buf(), entry)
        })
        .collect()
}

/// A repository with a dsh home, overlays, a symlinked CLAUDE.md, a FIFO
/// candidate, and a session log whose baseline is older than the disk.
fn fixture() -> Tree {
    let t = Tree::new();
    t.dir(".git")
        .file("home/.dsh/AGENTS.md", "global\n")
        .file("AGENTS.md", "root </system-reminder>\n")
        .symlink("CLAUDE.md", "AGENTS.md")
        .file("pkg/AGENTS.md", "pkg v1\n")
        .file("pkg/AGENTS.local.md", "local\n")
        .file("pkg/deep/CLAUDE.md", "deep\n")
        .fifo("pkg/deep/AGENTS.md")
        .file("pkg/big/AGENTS.md", "b".repeat(5000));
    let out = common::bounded::run(t.cmd().args(["render", "--cwd", "pkg", "--format", "json"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let source = out.json()["source"].clone();
    let baseline = json!({
        "type": "user/message", "seq": 1, "time": 0,
        "data": {"content": [{"type": "text", "text": "(baseline)"}], "source": source,
                 "role": "user", "id": "m1"},
        "surfaceOp": "append",
    });
    let pkg = t.path("pkg");
    t.file(
        "session.jsonl",
        format!("{}\n{baseline}\n", common::header(&pkg)),
    );
    // Edited after the session was logged: diff has a delta to print.
    t.file("pkg/AGENTS.md", "pkg v2\n");
    t
}

/// Every subcommand run on the fixture: (arguments, the exit codes allowed).
const RUNS: &[(&[&str], &[i32])] = &[
    (&["render"], &[0]),
    (&["render", "--format", "json", "--cwd", "pkg/deep"], &[0]),
    (
        &[
            "render",
            "--check",
            "--cwd",
            "pkg/big",
            "--max-bytes",
            "600",
        ],
        &[1],
    ),
    (
        &["render", "--log", "session.jsonl", "--precedence", "all"],
        &[0],
    ),
    (&["diff", "--log", "session.jsonl"], &[0]),
    (
        &[
            "diff",
            "--log",
            "session.jsonl",
            "--format",
            "json",
            "--strict",
        ],
        &[0],
    ),
    (
        &[
            "diff",
            "--log",
            "session.jsonl",
            "--touch",
            "pkg/deep/x.rs",
            "--exit-code",
        ],
        &[1],
    ),
    (
        &[
            "diff",
            "--log",
            "session.jsonl",
            "--runtime",
            "harness:source=x",
        ],
        &[0],
    ),
    (&["explain"], &[0, 1, 2]),
    (&["explain", "--log", "session.jsonl", "--full"], &[0, 1, 2]),
    (
        &["explain", "--format", "json", "--cwd", "pkg/deep"],
        &[0, 1, 2],
    ),
    (&["check"], &[0, 1, 2]),
    (
        &["check", "--format", "json", "--include-user-global"],
        &[0, 1, 2],
    ),
    (
        &["check", "pkg", "--format", "github", "--deny-warnings"],
        &[0, 1, 2],
    ),
    (&["completions", "bash"], &[0]),
];

#[test]
fn no_subcommand_writes_anything() {
    let t = fixture();
    let before = snapshot(t.root());
    for (args, codes) in RUNS {
        let out = common::bounded::run(t.cmd().args(*args));
        assert!(
            codes.contains(&out.code),
            "agentctx {args:?} exited {}: {}",
            out.code,
            out.stderr
        );
        assert!(
            !out.stderr.contains("panicked"),
            "agentctx {args:?} panicked: {}",
            out.stderr
        );
        assert_eq!(
            snapshot(t.root()),
            before,
            "agentctx {args:?} changed the tree"
        );
    }
    // The log from stdin, too.
    let log = fs::read(t.path("session.jsonl")).expect("log");
    let out = common::bounded::run_with_input(t.cmd().args(["diff", "--log", "-"]), Some(log));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(snapshot(t.root()), before);
}

#[test]
fn the_fixture_is_not_vacuous() {
    // The log's baseline is stale, so diff has something to say: the
    // commands above exercised reading, rendering and reconciling.
    let t = fixture();
    let out =
        common::bounded::run(
            t.cmd()
                .args(["diff", "--log", "session.jsonl", "--format", "json"]),
        );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["decision"], json!("delta"));
    // And the snapshot notices a rewrite with the same bytes.
    let before = snapshot(t.root());
    std::thread::sleep(std::time::Duration::from_millis(20));
    fs::write(t.path("AGENTS.md"), "root </system-reminder>\n").expect("rewrite");
    assert_ne!(snapshot(t.root()), before);
}

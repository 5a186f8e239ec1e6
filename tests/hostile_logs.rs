//! Hostile session logs, round three (issue 21, items 7, 11, 15–19 and the
//! "Also" line): zstd bombs, long lines under `explain` and `sessions`, a
//! live log, skippable frames, sparse seqs, invalid JSON in lines that
//! matter, torn lines under `sessions`, and the messages that name a fault.
//! Memory cases measure the child's peak RSS with GNU time (`%M`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use agentctx::sessions::key::{encode_segment, project_key};
use common::{Tree, bounded, header};
use pretty_assertions::assert_eq;
use serde_json::json;

/// Stores `bytes` as session `id` of `cwd` under `home/.dsh/sessions`.
fn store(t: &Tree, cwd: &Path, id: &str, name: &str, bytes: &[u8]) -> PathBuf {
    let key = project_key(&cwd.to_string_lossy());
    let rel = format!("home/.dsh/sessions/{key}/{}/{name}", encode_segment(id));
    t.file(&rel, bytes);
    t.path(&rel)
}

fn session_header(id: &str, cwd: &Path) -> String {
    json!({"type":"session","version":0,"id":id,"createdAt":0,"cwd":cwd}).to_string()
}

/// Runs `cmd` under GNU time: its output and its peak RSS in KiB.
fn peak_rss(t: &Tree, cmd: Command) -> (bounded::Output, u64) {
    let report = t.path("time.out");
    let program = cmd.get_program().to_owned();
    let args: Vec<_> = cmd.get_args().map(ToOwned::to_owned).collect();
    let mut timed = Command::new("/usr/bin/time");
    timed
        .arg("-o")
        .arg(&report)
        .args(["-f", "%M"])
        .arg(program)
        .args(args)
        .current_dir(t.root())
        .env("HOME", t.path("home"))
        .env_remove("DSH_HOME")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    let out = bounded::run(&mut timed);
    let text = std::fs::read_to_string(&report).unwrap();
    let kb = text.lines().last().unwrap().trim().parse().unwrap();
    (out, kb)
}

/// Item 19: a final torn line that starts with a form feed is no record to
/// the scanner, so it is no packed row either: `sessions` counts 1 event,
/// never 2^64 - 1 (a debug build panicked on the underflow).
#[test]
fn a_torn_final_row_after_a_form_feed_does_not_underflow_events() {
    let t = Tree::new();
    let p = t.path("p");
    t.dir("p/.git");
    let row = r#"{"type":"text-chunks","seq0":2,"time0":2,"data":{"texts":["a","b","c"]}}"#;
    let text = format!(
        "{}\n{}\n\u{c}{row}",
        session_header("s1", &p),
        r#"{"type":"assistant/message","seq":1,"time":1,"data":{}}"#
    );
    store(&t, &p, "s1", "session.jsonl", text.as_bytes());
    let out = bounded::run(t.cmd().args(["sessions", "--cwd", "p", "--format", "json"]));
    assert_eq!((out.stderr.as_str(), out.code), ("", 0));
    let v = out.json();
    assert_eq!(v[0]["events"], json!(1), "{v}");
}

/// A log of a header and one `len`-byte assistant line that cannot matter
/// (no marker, no packed row), then a workspace-free tail line.
fn long_line_log(t: &Tree, rel: &str, len: usize) -> PathBuf {
    let cwd = t.path("p");
    t.dir("p/.git");
    let mut text = header(&cwd).into_bytes();
    text.extend_from_slice(b"\n{\"type\":\"assistant/chunk\",\"seq\":1,\"data\":{\"text\":\"");
    text.resize(text.len() + len, b'y');
    text.extend_from_slice(b"\"}}\n{\"type\":\"assistant/message\",\"seq\":2,\"data\":{}}\n");
    t.file(rel, &text);
    t.path(rel)
}

/// Item 11: `explain --log` counts packed rows in the scanner itself, so a
/// 64 MiB line that cannot matter is streamed, not held (it was held twice:
/// 2 GB on a 1 GB line).
#[test]
fn explain_streams_a_long_line_that_cannot_matter() {
    let t = Tree::new();
    let log = long_line_log(&t, "s.jsonl", 64 << 20);
    let mut cmd = t.cmd();
    cmd.args(["explain", "--cwd", "p", "--format", "json", "--log"])
        .arg(&log);
    let (out, kb) = peak_rss(&t, cmd);
    assert_eq!((out.stderr.as_str(), out.code), ("", 0));
    let v = out.json();
    assert_eq!(v["session"]["records"], json!(3), "{}", v["session"]);
    assert!(kb < 48 << 10, "peak RSS {kb} KiB");
}

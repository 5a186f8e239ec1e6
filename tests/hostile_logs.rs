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
    // Blank (no turn yet), so listed with --all.
    let out = bounded::run(
        t.cmd()
            .args(["sessions", "--cwd", "p", "--all", "--format", "json"]),
    );
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
/// One zstd frame (with a checksum) of `parts` written one after another,
/// so that a bomb is built without holding its text.
fn zstd_frame(parts: impl Iterator<Item = Vec<u8>>, level: i32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = zstd::stream::Encoder::new(&mut out, level).unwrap();
    enc.include_checksum(true).unwrap();
    for part in parts {
        std::io::Write::write_all(&mut enc, &part).unwrap();
    }
    enc.finish().unwrap();
    out
}

/// A container: the header frame, `skippable` empty skippable frames, then
/// one frame of an appended message.
fn skippable_log(t: &Tree, rel: &str, skippable: usize) -> PathBuf {
    let cwd = t.path("p");
    t.dir("p/.git");
    let mut bytes = zstd_frame(
        std::iter::once(format!("{}\n", header(&cwd)).into_bytes()),
        3,
    );
    for _ in 0..skippable {
        bytes.extend_from_slice(&[0x50, 0x2A, 0x4D, 0x18, 0, 0, 0, 0]);
    }
    let event = br#"{"type":"assistant/message","seq":1,"time":1,"surfaceOp":"append","data":{}}
"#;
    bytes.extend(zstd_frame(std::iter::once(event.to_vec()), 3));
    t.file(rel, &bytes);
    t.path(rel)
}

/// Item 16: skippable frames cost nothing kept (40M of them took 631 MB):
/// four times as many take the same memory, and every frame is counted.
#[test]
fn skippable_frames_cost_no_memory() {
    let t = Tree::new();
    let mut peaks = Vec::new();
    for (rel, n) in [("small.jsonl.zstd", 100_000), ("large.jsonl.zstd", 400_000)] {
        let log = skippable_log(&t, rel, n);
        let mut cmd = t.cmd();
        cmd.args(["explain", "--cwd", "p", "--format", "json", "--log"])
            .arg(&log);
        let (out, kb) = peak_rss(&t, cmd);
        assert_eq!((out.stderr.as_str(), out.code), ("", 0));
        let v = out.json();
        assert_eq!(v["session"]["frames"], json!(n + 2), "{}", v["session"]);
        assert_eq!(v["session"]["records"], json!(2), "{}", v["session"]);
        peaks.push(kb);
    }
    assert!(
        peaks[1] < peaks[0] + (4 << 10),
        "peak RSS {} KiB at 100k frames, {} KiB at 400k",
        peaks[0],
        peaks[1]
    );
}

/// Also: a frame whose window is over the decoder's 128 MiB limit is named
/// for what it is, not "corrupt".
#[test]
fn a_frame_with_a_window_over_the_limit_says_so() {
    let t = Tree::new();
    let cwd = t.path("p");
    t.dir("p/.git");
    let mut bytes = zstd_frame(
        std::iter::once(format!("{}\n", header(&cwd)).into_bytes()),
        3,
    );
    let offset = bytes.len();
    // A frame header with no content size and a 2^28-byte window
    // (exponent 18), then one raw last block of "{}\n".
    bytes.extend_from_slice(&[0x28, 0xB5, 0x2F, 0xFD, 0x00, 18 << 3]);
    let block = 1u32 | (3 << 3);
    bytes.extend_from_slice(&block.to_le_bytes()[..3]);
    bytes.extend_from_slice(b"{}\n");
    t.file("w.jsonl.zstd", &bytes);
    let out = bounded::run(
        t.cmd()
            .args(["diff", "--cwd", "p", "--log", "w.jsonl.zstd"]),
    );
    assert_eq!(
        (out.stderr, out.code),
        (
            format!(
                "agentctx: w.jsonl.zstd: the zstd frame at byte {offset} asks for a 256 MiB window, more than the 128 MiB limit\n"
            ),
            2
        )
    );
}

/// Also: a project directory that cannot be read may hold sessions, so
/// `sessions` says it cannot read it instead of "no dsh session".
#[test]
fn an_unreadable_project_directory_is_named_not_taken_as_empty() {
    use std::os::unix::fs::PermissionsExt;
    let t = Tree::new();
    let p = t.path("p");
    t.dir("p/.git");
    let log = store(
        &t,
        &p,
        "s1",
        "session.jsonl",
        session_header("s1", &p).as_bytes(),
    );
    for entry in walkdir::WalkDir::new(t.root()) {
        let entry = entry.unwrap();
        if entry.file_type().is_dir() {
            let open = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(entry.path(), open).unwrap();
        }
    }
    let Some(mut cmd) = t.unprivileged_cmd() else {
        return;
    };
    let project = log.parent().unwrap().parent().unwrap().to_owned();
    std::fs::set_permissions(&project, std::fs::Permissions::from_mode(0o311)).unwrap();
    let out = bounded::run(cmd.args(["sessions", "--cwd", "p"]));
    std::fs::set_permissions(&project, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(
        (out.stderr, out.code),
        (
            format!(
                "agentctx: {}: cannot read the project directory: Permission denied (os error 13)\n",
                project.display()
            ),
            2
        )
    );
}

/// Item 18: a line that matters (here by its surfaceOp) is read as
/// `JSON.parse` reads it in both modes: invalid JSON inside it is the same
/// error, with line and column, with and without `--strict` (the default
/// mode skipped the bad value and exited 0).
#[test]
fn invalid_json_in_a_line_that_matters_is_an_error_in_both_modes() {
    let t = Tree::new();
    t.dir("p/.git");
    let cases = [
        ("tru", 44, "expected ident"),
        ("NaN", 41, "expected value"),
        ("01", 42, "invalid number"),
        (r#""\q""#, 43, "invalid escape"),
        ("[1,,2]", 44, "expected value"),
        (
            "\"a\tb\"",
            42,
            r"control character (\u0000-\u001F) found while parsing a string",
        ),
    ];
    for (value, column, why) in cases {
        let text = format!(
            "{}\n{{\"type\":\"assistant/message\",\"seq\":1,\"x\":{value},\"surfaceOp\":\"append\"}}\n",
            header(&t.path("p"))
        );
        t.file("l.jsonl", &text);
        for strict in [false, true] {
            let mut cmd = t.cmd();
            cmd.args(["diff", "--cwd", "p", "--log", "l.jsonl"]);
            if strict {
                cmd.arg("--strict");
            }
            let out = bounded::run(&mut cmd);
            assert_eq!(
                (out.stderr, out.code),
                (
                    format!("agentctx: l.jsonl:2:{column}: malformed JSON: {why}\n"),
                    2
                ),
                "{value} strict {strict}"
            );
        }
    }
}

/// Item 17: appends of seqs 2^33 apart keep the surface compact (a
/// `RoaringTreemap` took 266 bytes a seq: 2M of them, 532 MB). 200,000 of
/// them took 53 MB more than the binary's own; now a few MB.
#[test]
fn sparse_seqs_keep_the_surface_compact() {
    let t = Tree::new();
    t.dir("p/.git");
    let mut text = header(&t.path("p"));
    text.push('\n');
    for k in 0..200_000u64 {
        let seq = k << 33;
        text.push_str(&format!(
            "{{\"type\":\"assistant/message\",\"seq\":{seq},\"surfaceOp\":\"append\"}}\n"
        ));
    }
    t.file("s.jsonl", &text);
    let mut cmd = t.cmd();
    cmd.args([
        "explain", "--cwd", "p", "--format", "json", "--log", "s.jsonl",
    ]);
    let (out, kb) = peak_rss(&t, cmd);
    assert_eq!((out.stderr.as_str(), out.code), ("", 0));
    assert_eq!(out.json()["session"]["records"], json!(200_001));
    assert!(kb < 32 << 10, "peak RSS {kb} KiB");
}

/// A container of the header frame, one frame holding a `len`-byte
/// assistant line that cannot matter (built in parts, never held), and a
/// frame of one more message.
fn long_line_container(t: &Tree, rel: &str, len: usize) -> PathBuf {
    let cwd = t.path("p");
    t.dir("p/.git");
    let mut bytes = zstd_frame(
        std::iter::once(format!("{}\n", header(&cwd)).into_bytes()),
        1,
    );
    let open = b"{\"type\":\"assistant/chunk\",\"seq\":1,\"data\":{\"text\":\"".to_vec();
    let step = 1 << 20;
    let body = (0..len.div_ceil(step)).map(move |i| vec![b'y'; step.min(len - i * step)]);
    let line = std::iter::once(open)
        .chain(body)
        .chain(std::iter::once(b"\"}}\n".to_vec()));
    bytes.extend(zstd_frame(line, 1));
    let last = br#"{"type":"assistant/message","seq":2,"data":{}}
"#;
    bytes.extend(zstd_frame(std::iter::once(last.to_vec()), 1));
    t.file(rel, &bytes);
    t.path(rel)
}

/// Item 7: a zstd bomb of one 256 MiB line that cannot matter is streamed
/// from the decoder through the scanner, never held (a 1 GB one took 2 GB,
/// a 3 GB one aborted): `diff --log` says what it says of the same log
/// with a short line, within a small peak.
#[test]
fn a_zstd_bomb_of_one_long_line_is_streamed_not_held() {
    let t = Tree::new();
    let bomb = long_line_container(&t, "bomb.zst", 256 << 20);
    let small = long_line_container(&t, "small.zst", 100);
    let on_disk = std::fs::metadata(&bomb).unwrap().len();
    assert!(on_disk < 64 << 10, "{on_disk} bytes on disk");
    let diff = |log: &Path| {
        let mut cmd = t.cmd();
        cmd.args(["diff", "--cwd", "p", "--log"]).arg(log);
        cmd
    };
    let (out, kb) = peak_rss(&t, diff(&bomb));
    let expected = bounded::run(&mut diff(&small));
    let name = |o: &bounded::Output, n: &str| o.text().replace(n, "LOG");
    assert_eq!(
        (name(&out, "bomb.zst"), out.stderr.as_str(), out.code),
        (
            name(&expected, "small.zst"),
            expected.stderr.as_str(),
            expected.code
        )
    );
    assert!(kb < 64 << 10, "peak RSS {kb} KiB");
}

/// Item 7: a torn last frame too big to hold (over 4 MiB decoded) cannot
/// be dropped, its first bytes having been read as they decoded: it is an
/// error naming its offset, not the warning a held torn frame gets.
#[test]
fn a_torn_frame_too_big_to_hold_is_an_error() {
    let t = Tree::new();
    let log = long_line_container(&t, "whole.zst", 6 << 20);
    let bytes = std::fs::read(&log).unwrap();
    let cwd = t.path("p");
    let head = zstd_frame(
        std::iter::once(format!("{}\n", header(&cwd)).into_bytes()),
        1,
    );
    let tail = zstd_frame(
        std::iter::once(
            br#"{"type":"assistant/message","seq":2,"data":{}}
"#
            .to_vec(),
        ),
        1,
    );
    // The big frame, cut 3 bytes before its end; the last frame gone.
    let cut = bytes.len() - tail.len() - 3;
    t.file("torn.zst", &bytes[..cut]);
    let out = bounded::run(t.cmd().args(["diff", "--cwd", "p", "--log", "torn.zst"]));
    let torn = cut - head.len();
    assert_eq!(
        (out.text(), out.stderr, out.code),
        (
            String::new(),
            format!(
                "agentctx: torn.zst: the last zstd frame, at byte {}, is incomplete ({torn} bytes; a writer stopped mid-frame?), and it decodes to more than 4 MiB, which are read as they decode: it cannot be dropped\n",
                head.len()
            ),
            2
        )
    );
}

/// Item 7: `sessions` reads a log to count its events only when it is
/// small on disk and decodes to at most 32 MiB: a tiny container of
/// 200 MiB of `{}` lines shows EVENTS `?` at once (2 GB of them took
/// 15–26 s and 2 GB), and a small one is still counted.
#[test]
fn sessions_bounds_what_it_decodes_to_count_events() {
    let t = Tree::new();
    let p = t.path("p");
    t.dir("p/.git");
    let head = std::iter::once(format!("{}\n", session_header("bomb", &p)).into_bytes());
    let mut bytes = zstd_frame(head, 1);
    let lines = (0..200).map(|_| b"{}\n".repeat((1 << 20) / 3));
    bytes.extend(zstd_frame(lines, 3));
    assert!(bytes.len() < 1 << 20, "{} bytes on disk", bytes.len());
    store(&t, &p, "bomb", "session.jsonl.zstd", &bytes);
    let head = std::iter::once(format!("{}\n", session_header("small", &p)).into_bytes());
    let mut small = zstd_frame(head, 1);
    small.extend(zstd_frame(std::iter::once(b"{}\n{}\n".to_vec()), 1));
    store(&t, &p, "small", "session.jsonl.zstd", &small);
    // "small" is blank (no turn yet), so both are listed with --all; the
    // bomb is past the summary's cap too (unread, so not known blank).
    let mut cmd = t.cmd();
    cmd.args(["sessions", "--cwd", "p", "--all", "--format", "json"]);
    let (out, kb) = peak_rss(&t, cmd);
    assert_eq!((out.stderr.as_str(), out.code), ("", 0));
    let v = out.json();
    let events: Vec<(String, serde_json::Value)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_str().unwrap().to_owned(), r["events"].clone()))
        .collect();
    let mut events = events;
    events.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        events,
        vec![
            ("bomb".to_owned(), json!(null)),
            ("small".to_owned(), json!(2))
        ]
    );
    let summarised: Vec<&serde_json::Value> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["summarised"])
        .collect();
    assert_eq!(summarised.len(), 2);
    assert!(
        v.as_array()
            .unwrap()
            .iter()
            .any(|r| r["id"] == "bomb" && r["summarised"] == false && r["hidden"].is_null()),
        "{v}"
    );
    assert!(kb < 64 << 10, "peak RSS {kb} KiB");
}

/// The "Also" line: an error about an event of an array log says where the
/// event begins, `FILE:LINE:COLUMN`, as well as its index (it said only
/// "event N of the array"); brackets, commas and escaped quotes inside
/// strings and nested values do not move the count.
#[test]
fn an_array_event_error_gives_line_and_column() {
    let t = Tree::new();
    t.dir("p/.git");
    let first =
        r#"{"type":"assistant/message","seq":1,"data":{"text":"[,\"],{"},"x":[[1,2],{"a":[3]}]}"#;
    let text = format!("\n[\n  {first},\n\n    7 ]\n");
    t.file("a.json", text.as_bytes());
    let out = bounded::run(t.cmd().args(["diff", "--cwd", "p", "--log", "a.json"]));
    assert_eq!(
        (out.text(), out.stderr.as_str(), out.code),
        (
            String::new(),
            "agentctx: a.json:5:5: event 2 of the array: an event must be a JSON object\n",
            2
        )
    );
}

/// The "Also" line: seqs of 2^64 and more are integers to JavaScript and are
/// read as the doubles they are (they were refused): 2^64 - 1 is 2^64, so
/// it is already on the surface; a replace range orders them as doubles;
/// messages give their exact digits.
#[test]
fn seqs_of_two_to_the_64_and_more_read_as_doubles() {
    let t = Tree::new();
    let p = t.path("p");
    t.dir("p/.git");
    let set = r#""data":{"source":{"kind":"agent-instructions","changes":[{"action":"set","scope":".","path":"AGENTS.md","digest":"d"}]}}"#;
    let event = |seq: &str, op: &str| {
        format!(r#"{{"type":"user/message","seq":{seq},"surfaceOp":{op},{set}}}"#)
    };
    let log = |name: &str, events: &[String]| {
        let text = format!("{}\n{}\n", header(&p), events.join("\n"));
        t.file(name, text.as_bytes());
    };
    let append = r#""append""#;
    let replace = |a: &str, b: &str| format!(r#"{{"op":"replace","start":{a},"end":{b}}}"#);
    log(
        "dup.jsonl",
        &[
            event("18446744073709551616", append),
            event("18446744073709551615", append),
        ],
    );
    log(
        "rep.jsonl",
        &[
            event("18446744073709551616", append),
            event(
                "1e300",
                &replace("18446744073709551616", "18446744073709555712"),
            ),
        ],
    );
    log(
        "ok.jsonl",
        &[
            event("9223372036854775808", append),
            event("18446744073709551616", append),
            event(
                "1e300",
                &replace("9223372036854775807", "18446744073709551615"),
            ),
        ],
    );
    let run =
        |name: &str, cmd: &str| bounded::run(t.cmd().args([cmd, "--cwd", "p", "--log", name]));
    let errors: Vec<(String, i32)> = ["dup.jsonl", "rep.jsonl"]
        .iter()
        .map(|n| {
            let out = run(n, "diff");
            (out.stderr, out.code)
        })
        .collect();
    assert_eq!(
        errors,
        vec![
            (
                "agentctx: dup.jsonl:3: seq 18446744073709551616 is already on the surface\n"
                    .to_owned(),
                2
            ),
            (
                "agentctx: rep.jsonl:3: replace end 18446744073709555712 is not on the surface\n"
                    .to_owned(),
                2
            ),
        ]
    );
    let out = run("ok.jsonl", "explain");
    assert_eq!((out.stderr.as_str(), out.code), ("", 0));
    let text = out.text();
    let shadowed: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("seq "))
        .map(|l| l.split("  ").next().unwrap())
        .collect();
    assert_eq!(
        shadowed,
        ["seq 9223372036854775808", "seq 18446744073709551616"]
    );
}

//! The log read as `JSON.parse` reads it, and bounded by the input's shape
//! (issue 13): each case reads the same way with and without `--strict`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use agentctx::log::{Log, ReadOptions, read_from};
use common::message::jsonl;
use pretty_assertions::assert_eq;

fn both(text: &str) -> Result<Log, String> {
    let read = |strict| {
        read_from(
            text.as_bytes(),
            "t.jsonl".into(),
            ReadOptions {
                strict,
                ..ReadOptions::ALL
            },
        )
        .map_err(|e| e.message)
    };
    let (fast, strict) = (read(false), read(true));
    match (&fast, &strict) {
        (Ok(a), Ok(b)) => assert_eq!(
            format!("{:?}{:?}{:?}", a.workspace, a.surface.to_vec(), a.system),
            format!("{:?}{:?}{:?}", b.workspace, b.surface.to_vec(), b.system),
            "fast and strict read differently"
        ),
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("fast {fast:?} vs strict {strict:?}"),
    }
    fast
}

const HEADER: &str = r#"{"type":"session","cwd":"/x"}"#;

fn ws(seq: &str, extra: &str) -> String {
    format!(
        r#"{{"type":"user/message","seq":{seq},"data":{{"source":{{"kind":"agent-instructions","baseline":true,"changes":[{{"action":"set","scope":".","path":"AGENTS.md"}}]{extra}}}}},"surfaceOp":"append"}}"#
    )
}

fn log(lines: &[&str]) -> String {
    jsonl(std::iter::once(HEADER).chain(lines.iter().copied()))
}

#[test]
fn duplicate_keys_keep_the_last_one() {
    // "seq":0,"seq":1 is seq 1; a later "type" decides; a later "source" wins.
    let line = ws("0,\"seq\":1", "");
    let l = both(&log(&[&line])).unwrap();
    assert_eq!(l.surface.to_vec(), vec![1]);
    assert_eq!(l.workspace[0].seq, 1);
    let retyped = line
        .replacen("{\"type\":\"user/message\"", "{\"type\":\"tool/result\"", 1)
        .replace(",\"surfaceOp\"", ",\"type\":\"user/message\",\"surfaceOp\"");
    assert_eq!(both(&log(&[&retyped])).unwrap().workspace.len(), 1);
    let sourced = line.replace("\"data\":{", "\"data\":{\"source\":{},");
    assert_eq!(both(&log(&[&sourced])).unwrap().workspace.len(), 1);
    let unsourced = line.replace("},\"surfaceOp\"", ",\"source\":{}},\"surfaceOp\"");
    assert_eq!(both(&log(&[&unsourced])).unwrap().workspace.len(), 0);
}

#[test]
fn only_objects_are_objects() {
    let l = both(&log(&[r#"{"type":"user/message","seq":0,"data":[{"source":{"kind":"agent-instructions","changes":[]}}],"surfaceOp":"append"}"#])).unwrap();
    assert!(l.workspace.is_empty());
    let err = both(&log(&[
        &ws("0", ""),
        &ws("1", ""),
        r#"{"type":"user/message","seq":5,"surfaceOp":["replace",0,1]}"#,
    ]))
    .unwrap_err();
    assert_eq!(err, r#"t.jsonl:4: unknown surfaceOp ["replace",0,1]"#);
    // In an array log, an array element is not an event (serde would read
    // it as a struct's fields in order).
    let err = both(r#"[["user/message",1,{"source":{"kind":"agent-instructions","changes":[]}}]]"#)
        .unwrap_err();
    assert_eq!(
        err,
        "t.jsonl:1:2: event 1 of the array: an event must be a JSON object"
    );
    // An array part holds no text; the message's own text is used instead.
    let l = both(&log(&[
        r#"{"type":"system/message","seq":0,"data":{"content":[["inner"]],"text":"outer"}}"#,
    ]))
    .unwrap();
    assert_eq!(l.system[0].text, "outer");
}

#[test]
fn seqs_are_javascript_numbers() {
    for (raw, seq) in [("1.0", 1), ("1e0", 1), ("-0", 0), ("10E-1", 1)] {
        let l = both(&log(&[&ws(raw, "")])).unwrap();
        assert_eq!(l.surface.to_vec(), vec![seq], "{raw}");
    }
    // 2^53 and 2^53 + 1 are the same double, so the same seq.
    let err = both(&log(&[
        &ws("9007199254740992", ""),
        &ws("9007199254740993", ""),
    ]))
    .unwrap_err();
    assert_eq!(
        err,
        "t.jsonl:3: seq 9007199254740992 is already on the surface"
    );
    let err = both(&log(&[&ws("1.5", "")])).unwrap_err();
    assert_eq!(
        err,
        "t.jsonl:2: seq must be a non-negative integer, got 1.5"
    );
}

#[test]
fn lone_surrogates_keep_the_event_and_warn_once() {
    let line = ws("0", "").replace("AGENTS.md", "AGENTS\\ud800.md");
    let l = both(&log(&[&line, &line.replace("\"seq\":0", "\"seq\":1")])).unwrap();
    assert_eq!(l.workspace.len(), 2);
    assert_eq!(l.workspace[0].changes[0].path, "AGENTS\u{FFFD}.md");
    assert_eq!(
        l.warnings,
        vec![
            "t.jsonl:2: a lone surrogate escape (such as \\ud800) is read as U+FFFD, as JSON.parse reads it (and in 1 more events)"
                .to_owned()
        ]
    );
    let l = both("{\"type\":\"session\",\"cwd\":\"/x\\udc00\"}\n").unwrap();
    assert_eq!(l.header_cwd, None);
    assert_eq!(
        l.warnings[0],
        "t.jsonl:1: the session header's cwd holds a lone surrogate escape, so it names no path; the process cwd is used (pass --cwd)"
    );
}

#[test]
fn a_deeply_nested_source_is_read() {
    let deep = format!(",\"extra\":{}1{}", "[".repeat(5000), "]".repeat(5000));
    let l = both(&log(&[&ws("0", &deep)])).unwrap();
    assert_eq!(l.workspace.len(), 1);
    assert_eq!(l.visible_baseline, Some(0));
}

/// Logs larger than a buffer are read in two halves on two threads: the
/// result, line numbers and first error are those of one reading in order.
#[test]
fn two_threads_read_in_log_order() {
    let mut lines = vec![HEADER.to_owned()];
    let pad = "p".repeat(300);
    for seq in 0..30_000u64 {
        lines.push(if seq % 997 == 0 {
            ws(&seq.to_string(), "")
        } else {
            format!(r#"{{"type":"assistant/message","seq":{seq},"data":{{"text":"{pad}"}},"surfaceOp":"append"}}"#)
        });
    }
    let text = jsonl(&lines);
    assert!(text.len() > 9 << 20);
    let l = both(&text).unwrap();
    assert_eq!(
        (l.lines, l.records, l.surface.len()),
        (30_001, 30_001, 30_000)
    );
    assert_eq!(l.workspace.len(), 31);
    assert_eq!(l.workspace[30].line, 29_912);
    // Errors in both halves: the earlier one is reported.
    lines[20_000] = "x".into();
    lines[25_000] = "y".into();
    let err = both(&jsonl(&lines)).unwrap_err();
    assert_eq!(err, "t.jsonl:20001: malformed line: not a JSON object");
}

#[test]
fn dev_zero_is_rejected_at_once() {
    let t = common::Tree::new();
    t.file("proj/AGENTS.md", "x\n");
    let out = common::bounded::run(
        t.cmd()
            .args(["diff", "--cwd", "proj", "--log", "/dev/zero"]),
    );
    assert_eq!(
        (out.code, out.text(), out.stderr),
        (
            2,
            String::new(),
            "agentctx: /dev/zero:1: malformed line: not a JSON object\n".to_owned()
        )
    );
}

#[test]
fn blank_lines_before_the_log_are_counted_not_held() {
    let text = format!("{}{}\n", "\n \n".repeat(3 << 20), ws("\"x\"", ""));
    let err = read_from(text.as_bytes(), "t".into(), ReadOptions::default()).unwrap_err();
    assert_eq!(
        err.message,
        format!(
            "t:{}: seq must be a non-negative integer, got \"x\"",
            (6 << 20) + 1
        )
    );
    let text = format!("{}[{}]", "\n".repeat(5), ws("\"x\"", ""));
    let err = read_from(text.as_bytes(), "t".into(), ReadOptions::default()).unwrap_err();
    assert_eq!(
        err.message,
        "t:6:2: event 1 of the array: seq must be a non-negative integer, got \"x\""
    );
    // A malformed array names its line, counting the blank lines before it.
    let text = format!("{}[{{}},\n{{]", "\n".repeat(5));
    let err = read_from(text.as_bytes(), "t".into(), ReadOptions::default()).unwrap_err();
    assert_eq!(
        err.message,
        "t:7:2: malformed JSON array: key must be a string"
    );
}

/// Peak memory stays flat however many blank lines come first (run with
/// `cargo test --release -- --ignored`; needs GNU time).
#[test]
#[ignore = "slow: a gigabyte log; run with --release -- --ignored, needs GNU time"]
fn a_gigabyte_of_blank_lines_costs_no_memory() {
    let t = common::Tree::new();
    t.file("proj/AGENTS.md", "x\n");
    let path = t.path("blank.jsonl");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        let chunk = "\n".repeat(1 << 20);
        for _ in 0..1024 {
            f.write_all(chunk.as_bytes()).unwrap();
        }
        writeln!(f, "{}", ws("0", "")).unwrap();
    }
    let bin = assert_cmd::cargo::cargo_bin("agentctx");
    let out = std::process::Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(bin)
        .args(["diff", "--cwd"])
        .arg(t.path("proj"))
        .arg("--log")
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let kb: u64 = stderr.lines().last().unwrap().trim().parse().unwrap();
    assert!(kb < 64 << 10, "peak RSS {kb} KB");
}

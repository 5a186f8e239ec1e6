//! Session logs as dsh stores them (issue 15): the zstd container, decided
//! by its first bytes, and packed chunk rows.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::message::{jsonl, rendered_baseline_event};
use common::{Tree, run, run_stdin, zstd_container};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

const DELTA: &str = "<system-reminder>
Updated instructions from: AGENTS.md

This file changed after it was loaded. Use the following content instead of the previously loaded instructions from this file.

# rules
# more

</system-reminder>";

/// A project whose log holds a baseline of `# rules`, packed rows and an
/// assistant message; AGENTS.md has changed since, so diff sends a delta.
fn project() -> (Tree, String) {
    let t = Tree::new();
    t.dir("p/.git").file("p/AGENTS.md", "# rules\n");
    let out = t
        .cmd()
        .args([
            "render",
            "--format",
            "json",
            "--precedence",
            "all",
            "--cwd",
            "p",
        ])
        .output()
        .unwrap();
    let rendered: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cwd = t.path("p");
    let lines = [
        json!({"type":"session","version":0,"id":"s1","createdAt":0,"cwd":cwd}).to_string(),
        rendered_baseline_event(&rendered).to_string(),
        r#"{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1,1],"texts":["a","b","c"]}}"#.to_owned(),
        r#"{"type":"tool-call-chunks","seq0":4,"time0":5,"data":{"turn":1,"step":1,"index":1,"id":"c","dt":[1,1,1],"args":["{","a","b","}"]}}"#.to_owned(),
        r#"{"type":"assistant/message","seq":8,"time":9,"surfaceOp":"append","data":{"message":{"content":[]}}}"#.to_owned(),
    ];
    let text = jsonl(&lines);
    t.file("p/AGENTS.md", "# rules\n# more\n");
    (t, text)
}

fn diff(t: &Tree, log: &str, extra: &[&str]) -> (String, String, i32) {
    run(t
        .cmd()
        .args(["diff", "--precedence", "all", "--log", log])
        .args(extra))
}

#[test]
fn plain_and_zstd_logs_give_the_same_diff() {
    let (t, text) = project();
    t.file("plain.jsonl", &text);
    t.file("log.bin", zstd_container(&text, 2).0);
    let plain = diff(&t, "plain.jsonl", &[]);
    assert_eq!(plain, (DELTA.to_owned(), String::new(), 0));
    assert_eq!(diff(&t, "log.bin", &[]), plain);
    let json = diff(&t, "plain.jsonl", &["--format", "json"]);
    assert_eq!(diff(&t, "log.bin", &["--format", "json"]), json);
    // One frame per line, and one frame for everything after the header.
    t.file("one.bin", zstd_container(&text, 1).0);
    t.file("all.bin", zstd_container(&text, 100).0);
    assert_eq!(diff(&t, "one.bin", &[]), plain);
    assert_eq!(diff(&t, "all.bin", &[]), plain);
}

#[test]
fn a_zstd_log_reads_from_stdin() {
    let (t, text) = project();
    let (bytes, _) = zstd_container(&text, 2);
    let mut cmd = t.cmd();
    cmd.args(["diff", "--precedence", "all", "--log", "-"]);
    assert_eq!(run_stdin(cmd, bytes), (DELTA.to_owned(), String::new(), 0));
}

fn explain_stdin(t: &Tree, input: Vec<u8>, format: &str) -> String {
    let mut cmd = t.cmd();
    cmd.args(["explain", "--precedence", "all", "--log", "-", "--cwd", "p"])
        .args(["--format", format]);
    let (out, err, code) = run_stdin(cmd, input);
    assert_eq!((err.as_str(), code), ("", 0));
    out
}

#[test]
fn explain_counts_packed_rows_and_names_the_container() {
    let (t, text) = project();
    let (bytes, _) = zstd_container(&text, 2);
    let plain = explain_stdin(&t, text.clone().into_bytes(), "text");
    let packed = "  packed rows       2, standing for 7 chunk events\n";
    assert!(plain.contains(packed), "{plain}");
    let storage = "  storage           zstd container, 3 frames\n";
    let expected = plain.replace(packed, &format!("{storage}{packed}"));
    assert_eq!(explain_stdin(&t, bytes.clone(), "text"), expected);

    let mut plain: Value =
        serde_json::from_str(&explain_stdin(&t, text.into_bytes(), "json")).unwrap();
    let zstd: Value = serde_json::from_str(&explain_stdin(&t, bytes, "json")).unwrap();
    assert_eq!(
        (
            &plain["session"]["encoding"],
            &plain["session"]["frames"],
            &plain["session"]["packed"]
        ),
        (
            &json!("plain"),
            &Value::Null,
            &json!({"rows": 2, "events": 7, "uncounted": 0})
        )
    );
    plain["session"]["encoding"] = json!("zstd");
    plain["session"]["frames"] = json!(3);
    assert_eq!(zstd, plain);
}

#[test]
fn a_torn_last_frame_is_dropped_with_one_warning() {
    let (t, text) = project();
    let (bytes, offsets) = zstd_container(&text, 2);
    // The last frame holds the assistant message; cut it in half.
    let last = offsets[offsets.len() - 1];
    let cut = last + (bytes.len() - last) / 2;
    t.file("torn.zst", &bytes[..cut]);
    let kept: String = text.split_inclusive('\n').take(3).collect();
    t.file("kept.jsonl", &kept);
    let dropped = cut - last;
    let warning = format!(
        "agentctx: warning: torn.zst: ignoring the incomplete last zstd frame at byte {last} ({dropped} bytes dropped; a writer stopped mid-frame?)\n"
    );
    let (out, _, code) = diff(&t, "kept.jsonl", &[]);
    assert_eq!(diff(&t, "torn.zst", &[]), (out, warning, code));
    assert_eq!(
        diff(&t, "torn.zst", &["--strict"]),
        (
            String::new(),
            format!(
                "agentctx: torn.zst: the last zstd frame, at byte {last}, is incomplete ({dropped} bytes; a writer stopped mid-frame?)\n"
            ),
            2
        )
    );
}

#[test]
fn a_corrupt_complete_frame_is_an_error_naming_its_offset() {
    let (t, text) = project();
    let (bytes, offsets) = zstd_container(&text, 2);
    // The last byte of the second frame is part of its checksum.
    let mut flipped = bytes.clone();
    flipped[offsets[2] - 1] ^= 0x55;
    t.file("flipped.zst", &flipped);
    let second = offsets[1];
    assert_eq!(
        diff(&t, "flipped.zst", &[]),
        (
            String::new(),
            format!(
                "agentctx: flipped.zst: the zstd frame at byte {second} is corrupt: Restored data doesn't match checksum\n"
            ),
            2
        )
    );
    // A byte in the middle of the compressed data of the same frame.
    let mut flipped = bytes;
    flipped[second + (offsets[2] - second) / 2] ^= 0xff;
    t.file("middle.zst", &flipped);
    let (out, err, code) = diff(&t, "middle.zst", &[]);
    let prefix = format!("agentctx: middle.zst: the zstd frame at byte {second} is corrupt: ");
    assert_eq!(
        (
            out.as_str(),
            err.starts_with(&prefix),
            err.lines().count(),
            code
        ),
        ("", true, 1, 2),
        "{err}"
    );
}

#[test]
fn a_malformed_line_names_its_line_and_frame() {
    let (t, text) = project();
    let text = text.replacen("{\"type\":\"assistant", "{\"type\" \"assistant", 1);
    let (bytes, offsets) = zstd_container(&text, 2);
    t.file("bad.zst", bytes);
    let (out, err, code) = diff(&t, "bad.zst", &[]);
    assert_eq!(
        (out, err, code),
        (
            String::new(),
            format!(
                "agentctx: bad.zst:5:9: malformed JSON: expected `:` (in the zstd frame at byte {})\n",
                offsets[2]
            ),
            2
        )
    );
}

#[test]
fn packed_rows_are_accepted_and_strict_checks_their_shape() {
    let (t, text) = project();
    let bad = text.replacen("\"seq0\":4", "\"seq0\":\"4\"", 1);
    t.file("bad.jsonl", &bad);
    let (out, _, code) = diff(&t, "bad.jsonl", &[]);
    assert_eq!((out.as_str(), code), (DELTA, 0));
    assert_eq!(
        diff(&t, "bad.jsonl", &["--strict"]),
        (
            String::new(),
            "agentctx: bad.jsonl:4: a tool-call-chunks row needs seq0, a non-negative integer\n"
                .to_owned(),
            2
        )
    );
    // An earlier malformed line is still the one reported.
    let worse = bad.replacen("\"seq\":0", "\"seq\":0,", 1);
    t.file("worse.jsonl", &worse);
    let (_, err, code) = diff(&t, "worse.jsonl", &["--strict"]);
    assert_eq!(
        (err.starts_with("agentctx: worse.jsonl:2:"), code),
        (true, 2),
        "{err}"
    );
    for (from, to, why) in [
        (
            "\"time0\":5,\"data\":{\"turn\":1,\"step\":1,\"index\":0",
            "\"time0\":null,\"data\":{\"turn\":1,\"step\":1,\"index\":0",
            "a text-chunks row needs time0, an integer",
        ),
        (
            "\"data\":{\"turn\":1,\"step\":1,\"index\":0",
            "\"data\":[{\"turn\":1,\"step\":1,\"index\":0}],\"x\":{\"y\":0",
            "a text-chunks row needs data, an object",
        ),
    ] {
        let text = text.replacen(from, to, 1);
        t.file("shape.zst", zstd_container(&text, 2).0);
        assert_eq!(
            diff(&t, "shape.zst", &["--strict"]),
            (
                String::new(),
                format!(
                    "agentctx: shape.zst:3: {why} (in the zstd frame at byte {})\n",
                    zstd_container(&text, 2).1[1]
                ),
                2
            )
        );
    }
}

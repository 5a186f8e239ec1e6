//! Unit tests of the prompt report.

use super::Snapshot;
use super::rewrite::paragraph_diff;
use super::values::find_values;
use super::*;

use crate::log::{ReadOptions, read_from};
use crate::output::prompt::{Level, Line, PromptLines};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

/// The report as explain presents it: the data, and its warning sentences.
fn analyze(log: &Log) -> PromptReport {
    crate::output::prompt::with_warnings(super::analyze(log))
}

fn log_of(events: &[Value]) -> Log {
    let mut text = json!({"type":"session","cwd":"/w"}).to_string();
    for e in events {
        text.push('\n');
        text.push_str(&e.to_string());
    }
    text.push('\n');
    read_from(text.as_bytes(), "t.jsonl".into(), ReadOptions::default()).unwrap()
}

fn system(seq: u64, text: &str) -> Value {
    json!({"type":"system/message","seq":seq,"data":{"content":[{"type":"text","text":text}]}})
}

fn header(seq: u64, text: &str) -> Value {
    json!({"type":"request/header","seq":seq,"data":{"header":{"system":text,"model":"m"}}})
}

fn snapshot(seq: u64, sections: &[(&str, &str)]) -> Value {
    let sections: Vec<Value> = sections
        .iter()
        .map(|(name, text)| json!({"name":name,"text":text}))
        .collect();
    json!({"type":"user/message","seq":seq,"data":{
        "content":[{"type":"text","text":"runtime"}],
        "source":{"kind":"plugin","plugin":PLUGIN,"form":"snapshot","sections":sections}}})
}

fn user(seq: u64, text: &str) -> Value {
    json!({"type":"user/message","seq":seq,"data":{"content":[{"type":"text","text":text}]}})
}

fn section(name: &str, text: &str) -> Section {
    Section {
        name: name.to_owned(),
        text: text.to_owned(),
    }
}

fn para(index: usize, text: &str) -> Paragraph {
    Paragraph {
        index,
        text: text.to_owned(),
    }
}

/// The version record of prompt `text`.
fn version(
    number: u64,
    seq: Option<u64>,
    line: u64,
    origin: PromptOrigin,
    paragraphs: usize,
    text: &str,
) -> PromptVersion {
    PromptVersion {
        seq,
        line,
        origin,
        paragraphs,
        bytes: text.len(),
        digest: sha1_hex(text.as_bytes()),
        number,
    }
}

/// A report line written as it reads: its indentation, then its text.
fn line(level: Level, indented: &str) -> Line {
    let text = indented.trim_start_matches(' ');
    Line {
        level,
        indent: indented.len() - text.len(),
        text: text.to_owned(),
    }
}

fn web(port: u16) -> String {
    format!("Current DeepSeek Harness Web GUI URL: \"http://127.0.0.1:{port}\".")
}

const CHECKOUT: &str = "Current DeepSeek Harness implementation checkout: \"/home/u/dsh\".";
const INTRO: &str = "You are dsh, a coding agent.";
const BRIEF: &str = "Keep answers short.";

fn gui(port: u16) -> String {
    format!("The Web GUI of this session is http://127.0.0.1:{port}; open it when asked.")
}

fn value(seq: u64, line: u64, paragraph: usize, start: &str, value: &str) -> ProcessValue {
    ProcessValue {
        seq: Some(seq),
        line,
        paragraph,
        paragraph_start: start.to_owned(),
        value: value.to_owned(),
        kind: ValueKind::Url,
        explicit_port: true,
        loopback: true,
        earlier_format: None,
        kept_verbatim: false,
    }
}

/// A prompt that embeds the Web GUI URL, logged on port 41234 and then
/// 41235: its two versions, and the report of them.
fn port_change() -> (String, String, PromptReport) {
    let v1 = format!("{INTRO}\n\n{}\n\n{BRIEF}", gui(41234));
    let v2 = format!("{INTRO}\n\n{}\n\n{BRIEF}", gui(41235));
    let log = log_of(&[
        system(0, &v1),
        user(1, "hi"),
        header(2, &v1),
        header(5, &v2),
        system(5, &v2),
    ]);
    let report = analyze(&log);
    (v1, v2, report)
}

const PORT_REWRITE: &str = "head rewrite at seq 5 (line 5): version 2 differs from version 1; on routes without in-history prompt updates a resumed Claude session is rejected (400, signature bound to a different conversation)";

/// The warning of the URL in paragraph 2 of the port-change prompt.
fn port_value_warning(seq: u64, port: u16) -> String {
    let line = if seq == 0 { 2 } else { 5 };
    format!(
        "paragraph 2 (\"The Web GUI of this session is http://127.0.0.1:{port};…\") of the prompt at seq {seq} (line {line}) holds a loopback URL with an explicit port http://127.0.0.1:{port}: such values belong in runtime context"
    )
}

/// A prompt that embeds the Web GUI URL changes with every port: one head
/// rewrite whose only difference is the port, and a warning per value.
#[test]
fn prompt_changing_only_by_port_is_a_head_rewrite_of_process_values() {
    let (v1, v2, report) = port_change();
    let start = "The Web GUI of this session is http://127.0.0.1:41234;…";
    let start2 = "The Web GUI of this session is http://127.0.0.1:41235;…";
    assert_eq!(
        report,
        PromptReport {
            versions_not_kept: 0,
            versions: vec![
                version(1, Some(0), 2, PromptOrigin::SystemMessage, 3, &v1),
                version(2, Some(5), 5, PromptOrigin::RequestHeader, 3, &v2),
            ],
            rewrites: vec![HeadRewrite {
                seq: Some(5),
                line: 5,
                version: 2,
                previous: 1,
                removed: vec![para(2, &gui(41234))],
                added: vec![para(2, &gui(41235))],
                only_process_values: true,
                value_changes: vec![ValueChange {
                    from: "http://127.0.0.1:41234".to_owned(),
                    to: "http://127.0.0.1:41235".to_owned(),
                }],
            }],
            process_values: vec![
                value(0, 2, 2, start, "http://127.0.0.1:41234"),
                value(5, 5, 2, start2, "http://127.0.0.1:41235"),
            ],
            earlier_format: EarlierFormat {
                source: None,
                web: None,
                seq: Some(5),
            },
            runtime_context: None,
            snapshots: 0,
            warnings: vec![
                PORT_REWRITE.to_owned(),
                port_value_warning(0, 41234),
                port_value_warning(5, 41235),
            ],
        }
    );
}

/// The port-change report as explain shows it.
#[test]
fn a_port_change_reads_as_a_rewrite_and_two_values() {
    let (v1, v2, report) = port_change();
    assert_eq!(
        report.lines(),
        vec![
            line(Level::Heading, "System prompt"),
            line(Level::Info, "  2 versions, 1 head rewrite"),
            line(
                Level::Info,
                &format!(
                    "  version 1: seq 0 (line 2), system/message, 3 paragraphs, {} bytes, sha1 {}",
                    v1.len(),
                    sha1_hex(v1.as_bytes())
                )
            ),
            line(
                Level::Info,
                &format!(
                    "  version 2: seq 5 (line 5), request/header, 3 paragraphs, {} bytes, sha1 {}",
                    v2.len(),
                    sha1_hex(v2.as_bytes())
                )
            ),
            line(Level::Warning, &format!("  {PORT_REWRITE}")),
            line(
                Level::Info,
                "    only process-specific values changed: http://127.0.0.1:41234 -> http://127.0.0.1:41235"
            ),
            line(
                Level::Info,
                &format!("    - removed paragraph 2: {}", gui(41234))
            ),
            line(
                Level::Info,
                &format!("    + added paragraph 2: {}", gui(41235))
            ),
            line(
                Level::Heading,
                "Process-specific values in the system prompt"
            ),
            line(
                Level::Warning,
                &format!("  {}", port_value_warning(0, 41234))
            ),
            line(
                Level::Warning,
                &format!("  {}", port_value_warning(5, 41235))
            ),
            line(Level::Heading, "Earlier-format paragraphs (kept verbatim)"),
            line(Level::Info, "  harness:source: none"),
            line(Level::Info, "  app:web-surface: none"),
            line(Level::Heading, "Runtime context"),
            line(Level::Info, "  no runtime-context snapshot in the log"),
        ]
    );
}

const LEGACY_SOURCE: &str = "The DeepSeek Harness implementation checkout is at /home/u/dsh. Read it when the user asks about the harness itself.";
const LEGACY_WEB: &str = "You are interacting with the user through the DeepSeek Harness Web GUI at http://127.0.0.1:41234. Links you print open in it.";

/// An earlier-format session resumed on another port: the logged prompt
/// (with its earlier paragraphs) stays byte-identical, an emptied system
/// message neither counts as a version nor clears the fold, a later
/// legitimate change keeps the earlier paragraphs, and the current values
/// come from the latest snapshot.
fn earlier_format_session() -> (String, String, PromptReport) {
    let v1 = format!("{INTRO}\n\n{LEGACY_SOURCE}\n\n{LEGACY_WEB}");
    let v2 = format!("{v1}\n\nPlan mode is active.");
    let log = log_of(&[
        json!({"type":"system/message","seq":0,"data":{"content":[
            {"type":"text","text":INTRO},
            {"type":"image","url":"x"},
            {"type":"text","text":format!("{LEGACY_SOURCE}\n\n{LEGACY_WEB}")}]}}),
        header(1, &v1),
        user(2, "hi"),
        snapshot(
            3,
            &[
                ("harness:source", CHECKOUT),
                ("app:web-surface", &web(41235)),
            ],
        ),
        header(4, &v1),
        json!({"type":"system/message","seq":5,"data":{"text":""}}),
        header(6, &v1),
        json!({"type":"system/message","seq":7,"data":{"text":v2}}),
    ]);
    (v1, v2, analyze(&log))
}

#[test]
fn earlier_format_paragraphs_are_kept_across_a_port_change() {
    let (v1, v2, report) = earlier_format_session();
    let kept = |paragraph, start: &str, v: &str, kind, name| ProcessValue {
        seq: Some(0),
        line: 2,
        paragraph,
        paragraph_start: start.to_owned(),
        value: v.to_owned(),
        kind,
        explicit_port: kind == ValueKind::Url,
        loopback: kind == ValueKind::Url,
        earlier_format: Some(name),
        kept_verbatim: true,
    };
    let expected_values = vec![
        kept(
            2,
            "The DeepSeek Harness implementation checkout is at /home/u/dsh.…",
            "/home/u/dsh",
            ValueKind::AbsolutePath,
            SOURCE_SECTION,
        ),
        kept(
            3,
            "You are interacting with the user through the…",
            "http://127.0.0.1:41234",
            ValueKind::Url,
            WEB_SECTION,
        ),
    ];
    assert_eq!(report.process_values, expected_values);
    assert_eq!(
        report.versions,
        vec![
            version(1, Some(0), 2, PromptOrigin::SystemMessage, 3, &v1),
            version(2, Some(7), 9, PromptOrigin::SystemMessage, 4, &v2),
        ]
    );
    assert_eq!(
        report.rewrites,
        vec![HeadRewrite {
            seq: Some(7),
            line: 9,
            version: 2,
            previous: 1,
            removed: vec![],
            added: vec![para(4, "Plan mode is active.")],
            only_process_values: false,
            value_changes: vec![],
        }]
    );
    assert_eq!(
        report.earlier_format,
        EarlierFormat {
            source: Some(LEGACY_SOURCE.to_owned()),
            web: Some(LEGACY_WEB.to_owned()),
            seq: Some(7),
        }
    );
    assert_eq!(
        report.runtime_context,
        Some(RuntimeContext {
            seq: Some(3),
            line: 5,
            sections: vec![
                section("harness:source", CHECKOUT),
                section("app:web-surface", &web(41235)),
            ],
            checkout: Some("/home/u/dsh".to_owned()),
            web_url: Some("http://127.0.0.1:41235".to_owned()),
        })
    );
}

/// The earlier-format session as explain shows its last sections, and the
/// warning of a paragraph it keeps verbatim.
#[test]
fn earlier_format_paragraphs_read_with_the_prompt_they_come_from() {
    let (_, _, report) = earlier_format_session();
    let lines = report.lines();
    let tail: Vec<Line> = lines[lines.len() - 9..].to_vec();
    assert_eq!(
        tail,
        vec![
            line(Level::Heading, "Earlier-format paragraphs (kept verbatim)"),
            line(
                Level::Info,
                &format!("  harness:source (from the prompt at seq 7): {LEGACY_SOURCE}")
            ),
            line(
                Level::Info,
                &format!("  app:web-surface (from the prompt at seq 7): {LEGACY_WEB}")
            ),
            line(Level::Heading, "Runtime context"),
            line(
                Level::Info,
                "  latest snapshot at seq 3 (line 5), the last of 1, 2 sections"
            ),
            line(Level::Info, &format!("  harness:source: {CHECKOUT}")),
            line(Level::Info, &format!("  app:web-surface: {}", web(41235))),
            line(Level::Info, "  current checkout: /home/u/dsh"),
            line(Level::Info, "  current Web GUI URL: http://127.0.0.1:41235"),
        ]
    );
    assert_eq!(
        report.warnings[1],
        "paragraph 2 (\"The DeepSeek Harness implementation checkout is at /home/u/dsh.…\") of the prompt at seq 0 (line 2) holds an absolute path /home/u/dsh: such values belong in runtime context (the earlier-format harness:source paragraph this session keeps verbatim)"
    );
}

/// The fold takes each nonempty system message's earlier paragraphs or
/// null: a request header never changes it, a later system message
/// without them clears it, and text broken across lines never matches.
#[test]
fn earlier_format_fold_follows_system_messages_only() {
    let broken = "The DeepSeek Harness implementation checkout is at /opt/dsh.\nRead it.";
    let log = log_of(&[
        system(0, &format!("{INTRO}\n\n{LEGACY_SOURCE}")),
        header(1, INTRO),
    ]);
    assert_eq!(
        analyze(&log).earlier_format,
        EarlierFormat {
            source: Some(LEGACY_SOURCE.to_owned()),
            web: None,
            seq: Some(0),
        }
    );
    let log = log_of(&[
        system(0, &format!("{INTRO}\n\n{LEGACY_SOURCE}\n\n{LEGACY_WEB}")),
        system(3, &format!("{INTRO}\n\n{broken}")),
    ]);
    assert_eq!(
        analyze(&log).earlier_format,
        EarlierFormat {
            source: None,
            web: None,
            seq: Some(3),
        }
    );
    // A header first, then the same text as a system message: one
    // version, and the fold still sees the system message.
    let log = log_of(&[header(0, LEGACY_WEB), system(1, LEGACY_WEB)]);
    let report = analyze(&log);
    assert_eq!(report.versions.len(), 1);
    assert_eq!(report.versions[0].origin, PromptOrigin::RequestHeader);
    assert_eq!(
        report.earlier_format,
        EarlierFormat {
            source: None,
            web: Some(LEGACY_WEB.to_owned()),
            seq: Some(0),
        }
    );
}

/// The latest snapshot is the last in log order even when compaction
/// shadowed it; its values are parsed from the two known sections.
#[test]
fn latest_snapshot_after_a_port_change_even_when_shadowed() {
    let log = log_of(&[
        json!({"type":"user/message","seq":0,"surfaceOp":"append","data":{"content":[]}}),
        {
            let mut s = snapshot(1, &[("app:web-surface", &web(41234))]);
            s["surfaceOp"] = json!("append");
            s
        },
        {
            let mut s = snapshot(2, &[("app:web-surface", &web(41235))]);
            s["surfaceOp"] = json!("append");
            s
        },
        json!({"type":"user/message","seq":3,"surfaceOp":{"op":"replace","start":0,"end":2},"data":{"content":[]}}),
    ]);
    let report = analyze(&log);
    assert_eq!(report.snapshots, 2);
    assert_eq!(
        report.runtime_context,
        Some(RuntimeContext {
            seq: Some(2),
            line: 4,
            sections: vec![section("app:web-surface", &web(41235))],
            checkout: None,
            web_url: Some("http://127.0.0.1:41235".to_owned()),
        })
    );
    assert_eq!(
        report.lines(),
        vec![
            line(Level::Heading, "System prompt"),
            line(
                Level::Info,
                "  no system prompt in the log (no system/message, no request/header with a string header.system)"
            ),
            line(Level::Heading, "Earlier-format paragraphs (kept verbatim)"),
            line(Level::Info, "  harness:source: none"),
            line(Level::Info, "  app:web-surface: none"),
            line(Level::Heading, "Runtime context"),
            line(
                Level::Info,
                "  latest snapshot at seq 2 (line 4), the last of 2, 1 section"
            ),
            line(Level::Info, &format!("  app:web-surface: {}", web(41235))),
            line(Level::Info, "  current Web GUI URL: http://127.0.0.1:41235"),
        ]
    );
    assert_eq!(report.warnings, Vec::<String>::new());
}

/// A section in an unexpected form yields no value and says so.
#[test]
fn snapshot_section_in_another_form_names_no_value() {
    let log = log_of(&[snapshot(
        4,
        &[
            ("harness:source", "Checkout: /home/u/dsh"),
            ("x:other", "y"),
        ],
    )]);
    let report = analyze(&log);
    let lines = report.lines();
    assert_eq!(
        lines[lines.len() - 3..].to_vec(),
        vec![
            line(Level::Info, "  harness:source: Checkout: /home/u/dsh"),
            line(Level::Info, "  x:other: y"),
            line(
                Level::Info,
                "  harness:source names no checkout in the form Current DeepSeek Harness implementation checkout: \"<value>\"."
            ),
        ]
    );
}

#[test]
fn no_snapshot_and_no_prompt_is_an_empty_report() {
    let log = log_of(&[user(0, "hi")]);
    let report = analyze(&log);
    assert_eq!(
        report,
        PromptReport {
            earlier_format: EarlierFormat::default(),
            ..PromptReport::default()
        }
    );
    assert_eq!(
        serde_json::to_value(&report).unwrap(),
        json!({
            "versions": [],
            "versionsNotKept": 0,
            "rewrites": [],
            "processValues": [],
            "earlierFormat": {"source": null, "web": null, "seq": null},
            "runtimeContext": null,
            "snapshots": 0,
            "warnings": []
        })
    );
    assert_eq!(
        report.lines().last(),
        Some(&line(
            Level::Info,
            "  no runtime-context snapshot in the log"
        ))
    );
}

/// The JSON form uses the camelCase names explain documents.
#[test]
fn report_json_field_names() {
    let v1 = format!("{INTRO}\n\n{}", gui(1));
    let v2 = format!("{INTRO}\n\n{}", gui(2));
    let log = log_of(&[
        system(0, &v1),
        system(1, &v2),
        snapshot(2, &[("app:web-surface", &web(2))]),
    ]);
    let value = serde_json::to_value(analyze(&log)).unwrap();
    assert_eq!(
        value["rewrites"][0],
        json!({
            "seq": 1, "line": 3, "version": 2, "previous": 1,
            "removed": [{"index": 2, "text": gui(1)}],
            "added": [{"index": 2, "text": gui(2)}],
            "onlyProcessValues": true,
            "valueChanges": [{"from": "http://127.0.0.1:1", "to": "http://127.0.0.1:2"}]
        })
    );
    assert_eq!(
        value["versions"][0],
        json!({"seq": 0, "line": 2, "origin": "system/message", "paragraphs": 2,
               "bytes": v1.len(), "digest": sha1_hex(v1.as_bytes()), "number": 1})
    );
    assert_eq!(
        value["processValues"][0],
        json!({"seq": 0, "line": 2, "paragraph": 2,
               "paragraphStart": "The Web GUI of this session is http://127.0.0.1:1;…",
               "value": "http://127.0.0.1:1", "kind": "url", "explicitPort": true,
               "loopback": true, "earlierFormat": null, "keptVerbatim": false})
    );
    assert_eq!(
        value["runtimeContext"],
        json!({"seq": 2, "line": 4,
               "sections": [{"name": "app:web-surface", "text": web(2)}],
               "checkout": null, "webUrl": "http://127.0.0.1:2"})
    );
}

mod parts;

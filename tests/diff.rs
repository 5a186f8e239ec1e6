//! `agentctx diff` against real trees and logs in the dsh event shape
//! (issue 3). Baseline and touch events are what `agentctx render` and
//! `agentctx diff --touch` print, embedded as the harness would write them;
//! then files change "offline" and the resumed session's message is
//! compared whole: text bytes, and the JSON `source`.

// Test code: a failed unwrap is a failed test (clippy's allow-unwrap-in-tests
// does not reach helper functions of an integration-test crate).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::io::Write;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Stdio;

use common::message::{
    EMPTY, INTRO, baseline, baseline_source, current_baseline_source, default_identity,
    delta_source, framed, identity, jsonl, remove, remove_section, replace, replace_section,
    replacement, section, set, set_section, switch, switch_section,
};
use common::{Tree, header, render_json, run, run_json};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

// ---------------------------------------------------------------- sources

/// The identity under default settings but `max` bytes and these candidates.
fn identity_with(root: &str, max: i64, cands: &str, locals: &str) -> String {
    identity(root, r#"".git""#, max, 1_048_576, cands, locals)
}

// ---------------------------------------------------------------- logs

/// A dsh session log under construction, in the real event shape: every
/// event has a seq; message events append to the surface.
struct Session {
    lines: Vec<String>,
    next: u64,
    turn: u64,
    surface: Vec<u64>,
    surface_ops: bool,
}

impl Session {
    fn new(cwd: &Path) -> Self {
        Session {
            lines: vec![header(cwd)],
            next: 0,
            turn: 0,
            surface: Vec::new(),
            surface_ops: true,
        }
    }

    /// A legacy log: no event carries a surfaceOp.
    fn legacy(cwd: &Path) -> Self {
        Session {
            surface_ops: false,
            ..Session::new(cwd)
        }
    }

    fn event(&mut self, kind: &str, data: &Value, message: bool) -> u64 {
        let seq = self.next;
        self.next += 1;
        let op = if message && self.surface_ops {
            self.surface.push(seq);
            r#","surfaceOp":"append""#
        } else {
            ""
        };
        let time = seq * 1000;
        self.lines.push(format!(
            r#"{{"type":"{kind}","seq":{seq},"time":{time},"data":{data}{op}}}"#
        ));
        seq
    }

    fn user_message(&mut self, parts: &[&str], source: Option<&Value>) -> u64 {
        let content: Vec<Value> = parts
            .iter()
            .map(|t| json!({"type": "text", "text": t}))
            .collect();
        let id = format!("msg-{}", self.next);
        let data = match source {
            Some(source) => {
                format!(
                    r#"{{"content":{},"source":{source},"role":"user","id":"{id}"}}"#,
                    json!(content)
                )
            }
            None => format!(
                r#"{{"content":{},"role":"user","id":"{id}"}}"#,
                json!(content)
            ),
        };
        self.event("user/message", &serde_json::from_str(&data).unwrap(), true)
    }

    /// A direct user prompt.
    fn prompt(&mut self, text: &str) -> u64 {
        self.user_message(&[text], None)
    }

    /// The message a render or diff JSON report says would be sent.
    fn workspace(&mut self, report: &Value) -> u64 {
        let parts: Vec<&str> = report["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        assert!(!parts.is_empty(), "nothing to log: {report}");
        self.user_message(&parts, Some(&report["source"]))
    }

    /// One turn of unrelated events: a tool reads `path`. The tool result
    /// quotes workspace-looking JSON, which must not count.
    fn turn(&mut self, path: &str) {
        let (t, call) = (self.turn, format!("call-{}", self.turn));
        self.turn += 1;
        self.event("turn/start", &json!({"turn": t}), false);
        self.event("step/start", &json!({"turn": t, "step": 0}), false);
        self.event(
            "assistant/chunk",
            &json!({"turn": t, "step": 0, "text": "Let me read it."}),
            false,
        );
        self.event(
            "tool/call",
            &json!({"turn": t, "step": 0, "id": call, "name": "read", "input": {"path": path}}),
            false,
        );
        let quoted = r#"{"type":"user/message","data":{"source":{"kind":"workspace-instructions","baseline":true,"changes":[]}}}"#;
        self.event(
            "tool/result",
            &json!({"turn": t, "step": 0, "id": call, "content": [{"type": "text", "text": quoted}]}),
            true,
        );
        self.event(
            "agent/inbox/spliced",
            &json!({"turn": t, "step": 0, "count": 0}),
            false,
        );
        self.event(
            "assistant/message",
            &json!({"turn": t, "step": 0, "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}}),
            true,
        );
        self.event("step/end", &json!({"turn": t, "step": 0}), false);
        self.event("turn/end", &json!({"turn": t}), false);
    }

    /// Compaction: replaces the surface run from `start` to `end`.
    fn compact(&mut self, start: u64, end: u64) -> u64 {
        let a = self.surface.iter().position(|s| *s == start).unwrap();
        let b = self.surface.iter().position(|s| *s == end).unwrap();
        let covered: Vec<u64> = self.surface[a..=b].to_vec();
        let seq = self.next;
        self.next += 1;
        self.surface.splice(a..=b, [seq]);
        let data = json!({
            "content": [{"type": "text", "text": "Summary of the earlier conversation."}],
            "source": {"kind": "compaction", "sourceEventSeqs": covered},
            "role": "user",
            "id": format!("msg-{seq}"),
        });
        self.lines.push(format!(
            r#"{{"type":"user/message","seq":{seq},"time":{},"data":{data},"surfaceOp":{{"op":"replace","start":{start},"end":{end}}}}}"#,
            seq * 1000
        ));
        seq
    }

    fn jsonl(&self) -> String {
        jsonl(&self.lines)
    }

    /// Writes the log into the tree (as `session.jsonl` unless named).
    fn write(&self, tree: &Tree, name: &str) {
        tree.file(name, self.jsonl());
    }
}

// ---------------------------------------------------------------- running

/// The flags that make `render` write what the earlier generation (design
/// note 000) wrote.
const FIRST_GEN: [&str; 4] = [
    "--precedence",
    "first",
    "--source-kind",
    "workspace-instructions",
];

/// `diff --log LOG ARGS` in text form: (stdout, stderr, exit code), resumed
/// by the generation that wrote the log unless ARGS say otherwise.
fn diff(tree: &Tree, log: &str, args: &[&str]) -> (String, String, i32) {
    let args = common::resumed_by_writer(&tree.path(log), args);
    run(tree.cmd().args(["diff", "--log", log]).args(args))
}

/// `diff --log LOG ARGS --format json`, expected to succeed (resumed as
/// [`diff`] resumes it).
fn diff_json(tree: &Tree, log: &str, args: &[&str]) -> Value {
    let args = common::resumed_by_writer(&tree.path(log), args);
    let (value, code) = run_json(
        tree.cmd()
            .args(["diff", "--log", log])
            .args(&args)
            .args(["--format", "json"]),
    );
    assert_eq!(code, 0, "diff {args:?}");
    value
}

/// The warning for a candidate that is a symlink loop (ELOOP).
fn loop_warning(path: &str) -> String {
    format!(
        "agentctx: warning: {path}: unavailable, skipped: Too many levels of symbolic links (os error 40)\n"
    )
}

/// Runs `diff` text and JSON and checks both against the expected parts
/// and source; returns the JSON report.
fn assert_diff(tree: &Tree, args: &[&str], parts: &[String], source: &Value) -> Value {
    assert_diff_warning(tree, args, parts, source, "")
}

/// `assert_diff` for a run that warns, on stderr, exactly `warnings`.
fn assert_diff_warning(
    tree: &Tree,
    args: &[&str],
    parts: &[String],
    source: &Value,
    warnings: &str,
) -> Value {
    let (out, err, code) = diff(tree, "session.jsonl", args);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (parts.join("\n").as_str(), warnings, 0),
        "diff text"
    );
    let json = diff_json(tree, "session.jsonl", args);
    assert_eq!(json["parts"], json!(parts), "diff JSON parts");
    assert_eq!(&json["source"], source, "diff JSON source");
    json
}

/// The standard project: `proj/.git`, root and `pkg` AGENTS.md, cwd `pkg`,
/// a baseline logged after a first prompt, then a turn.
fn project() -> (Tree, Session) {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root v1\n")
        .file("proj/pkg/AGENTS.md", "pkg v1\n");
    let session = start(&tree, "proj/pkg", &[]);
    (tree, session)
}

/// A session in `cwd` whose first request carried the baseline that
/// `render ARGS` prints now. Unless ARGS say otherwise the session was
/// written by the earlier generation (design note 000: precedence `first`,
/// kind `workspace-instructions`), which most cases here pin; `diff` then
/// infers both from the log.
fn start(tree: &Tree, cwd: &str, args: &[&str]) -> Session {
    let mut session = Session::new(&tree.path(cwd));
    session.prompt("Fix the failing test.");
    let mut base: Vec<&str> = vec!["--cwd", cwd];
    if !args.contains(&"--precedence") {
        base.extend(&FIRST_GEN[..2]);
    }
    if !args.contains(&"--source-kind") {
        base.extend(&FIRST_GEN[2..]);
    }
    base.extend(args.iter().copied());
    session.workspace(&render_json(tree, &base));
    session.turn("src/lib.rs");
    session.write(tree, "session.jsonl");
    session
}

/// Logs what `diff --touch PATH` says a structured touch adds.
fn touch(tree: &Tree, session: &mut Session, path: &str) -> Value {
    session.write(tree, "session.jsonl");
    let report = diff_json(tree, "session.jsonl", &["--touch", path]);
    session.workspace(&report);
    session.turn(path);
    session.write(tree, "session.jsonl");
    report
}

// ---------------------------------------------------------------- cases

#[test]
fn nothing_changed_sends_nothing() {
    let (tree, _) = project();
    let json = assert_diff(&tree, &[], &[], &Value::Null);
    assert_eq!(
        json,
        json!({
            "decision": "none",
            "reason": "the visible baseline (seq 1) matches the current identity: only changes are sent; nothing changed",
            "parts": [],
            "source": null,
            "omitted": [],
            "truncated": [],
            "identity": default_identity(".."),
            "visibleBaselineSeq": 1,
            "identityMatches": true,
            "identityDiff": null,
            "runtime": null,
        })
    );
    let (out, _, code) = diff(&tree, "session.jsonl", &["--exit-code"]);
    assert_eq!((out.as_str(), code), ("", 0));
}

#[test]
fn a_log_without_a_baseline_gets_the_complete_baseline() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("home/.dsh/AGENTS.md", "global\n")
        .file("proj/AGENTS.md", "root\n")
        .file("proj/pkg/AGENTS.md", "pkg\n");
    let mut session = Session::new(&tree.path("proj/pkg"));
    session.prompt("Hello");
    session.turn("README.md");
    session.write(&tree, "session.jsonl");
    let text = baseline(&[
        ("~/.dsh/AGENTS.md", "global\n"),
        ("AGENTS.md", "root\n"),
        ("pkg/AGENTS.md", "pkg\n"),
    ]);
    // No change entry in the log: the current generation's defaults apply.
    let source = current_baseline_source(
        &default_identity(".."),
        vec![
            set("user-global\0AGENTS.md", "~/.dsh/AGENTS.md", "global\n"),
            set(".\0AGENTS.md", "AGENTS.md", "root\n"),
            set("pkg\0AGENTS.md", "pkg/AGENTS.md", "pkg\n"),
        ],
    );
    let json = assert_diff(&tree, &[], std::slice::from_ref(&text), &source.clone());
    assert_eq!(
        json,
        json!({
            "decision": "baseline",
            "reason": "the log has no workspace baseline: a complete current baseline is sent",
            "parts": [text],
            "source": source,
            "omitted": [],
            "truncated": [],
            "identity": default_identity(".."),
            "visibleBaselineSeq": null,
            "identityMatches": null,
            "identityDiff": null,
            "runtime": null,
        })
    );
    // What render prints is exactly this baseline.
    let rendered = render_json(&tree, &["--cwd", "proj/pkg"]);
    assert_eq!(
        (&rendered["parts"], &rendered["source"]),
        (&json["parts"], &json["source"])
    );
    let (_, _, code) = diff(&tree, "session.jsonl", &["--exit-code"]);
    assert_eq!(code, 1);
}

#[test]
fn compaction_shadowing_the_baseline_sends_a_fresh_one_then_reconciles() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root v1\n")
        .file("proj/lib/AGENTS.md", "lib v1\n")
        .file("proj/docs/AGENTS.md", "docs v1\n");
    let mut session = start(&tree, "proj", &[]);
    let docs = touch(&tree, &mut session, "docs/guide.md");
    assert_eq!(
        (&docs["parts"], &docs["source"]),
        (
            &json!([framed(&[set_section(
                "docs/AGENTS.md",
                "docs",
                "docs v1\n"
            )])]),
            &delta_source(vec![set("docs", "docs/AGENTS.md", "docs v1\n")])
        )
    );
    let docs_seq = session.next - 10; // the touch message, before its turn
    touch(&tree, &mut session, "lib/x.rs");
    // Compaction swallows the prompt, the baseline and the docs message;
    // the lib message stays visible.
    session.compact(0, docs_seq);
    session.write(&tree, "session.jsonl");
    tree.file("proj/AGENTS.md", "root v2\n")
        .file("proj/lib/AGENTS.md", "lib v2\n")
        .file("proj/docs/AGENTS.md", "docs v2\n");
    let json = assert_diff(
        &tree,
        &[],
        &[
            baseline(&[("AGENTS.md", "root v2\n")]),
            framed(&[replace_section("lib/AGENTS.md", "lib v2\n")]),
        ],
        &baseline_source(
            &default_identity(""),
            vec![
                set(".", "AGENTS.md", "root v2\n"),
                replace("lib", "lib/AGENTS.md", "lib v2\n"),
            ],
        ),
    );
    assert_eq!(json["decision"], "baseline");
    assert_eq!(
        json["reason"],
        "the baseline was shadowed by compaction: a complete current baseline is sent"
    );
    assert_eq!(json["visibleBaselineSeq"], Value::Null);
}

#[test]
fn after_a_fresh_baseline_unchanged_visible_scopes_stay_silent() {
    // The shadowed baseline's root file is unchanged and a still-visible
    // delta set pkg (outside the chain), also unchanged: the fresh baseline
    // is sent and nothing repeats pkg.
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root\n")
        .file("proj/pkg/AGENTS.md", "pkg v1\n");
    let mut session = start(&tree, "proj", &[]);
    touch(&tree, &mut session, "pkg/x.rs");
    session.compact(0, 1);
    session.write(&tree, "session.jsonl");
    assert_diff(
        &tree,
        &[],
        &[baseline(&[("AGENTS.md", "root\n")])],
        &baseline_source(&default_identity(""), vec![set(".", "AGENTS.md", "root\n")]),
    );
}

#[test]
fn an_incompatible_identity_gets_a_replacement_baseline() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("home/.dsh/AGENTS.md", "global\n")
        .file("proj/AGENTS.md", "agents\n")
        .file("proj/CLAUDE.md", "claude\n")
        .file("proj/pkg/AGENTS.md", "pkg\n")
        .file("proj/pkg/AGENTS.local.md", "pkg local\n")
        .file("proj/pkg/lib/AGENTS.md", "lib v1\n");
    let mut session = start(&tree, "proj/pkg", &[]);
    touch(&tree, &mut session, "lib/x.rs");
    tree.file("proj/pkg/lib/AGENTS.md", "lib v2\n");
    // A changed candidate order and no local overlays: the old baseline's
    // local scope is removed first, then every current file is set; then the
    // visible scope outside the baseline is reconciled.
    let args = [
        "--candidates",
        "CLAUDE.md,AGENTS.md",
        "--local-candidates",
        "",
    ];
    let id = identity_with("..", 65536, r#""CLAUDE.md","AGENTS.md""#, "");
    let text = replacement(&[
        ("~/.dsh/AGENTS.md", "global\n"),
        ("CLAUDE.md", "claude\n"),
        ("pkg/AGENTS.md", "pkg\n"),
    ]);
    let delta = framed(&[replace_section("pkg/lib/AGENTS.md", "lib v2\n")]);
    let source = baseline_source(
        &id,
        vec![
            remove("pkg\0local", "pkg/AGENTS.local.md"),
            set("user-global", "~/.dsh/AGENTS.md", "global\n"),
            set(".", "CLAUDE.md", "claude\n"),
            set("pkg", "pkg/AGENTS.md", "pkg\n"),
            replace("pkg/lib", "pkg/lib/AGENTS.md", "lib v2\n"),
        ],
    );
    let json = assert_diff(
        &tree,
        &args,
        &[text.clone(), delta.clone()],
        &source.clone(),
    );
    assert_eq!(
        json,
        json!({
            "decision": "replacement",
            "reason": "the visible baseline (seq 1) has another identity (instructionFileCandidates differs): a replacement baseline is sent",
            "parts": [text, delta],
            "source": source,
            "omitted": [],
            "truncated": [],
            "identity": id,
            "visibleBaselineSeq": 1,
            "identityMatches": false,
            "identityDiff": "instructionFileCandidates",
            "runtime": null,
        })
    );
}

#[test]
fn a_replacement_removes_only_what_the_old_baseline_itself_set() {
    // The old baseline set `.` and `pkg`; a later visible delta set
    // `pkg/lib`. With another max-bytes nothing in the chain loads any more:
    // the replacement removes the baseline's own scopes, and the lib scope
    // (not a baseline scope, file gone) is removed by reconciliation.
    let (tree, mut session) = project();
    tree.file("proj/pkg/lib/AGENTS.md", "lib\n");
    touch(&tree, &mut session, "lib/x.rs");
    fs::remove_file(tree.path("proj/AGENTS.md")).unwrap();
    fs::remove_file(tree.path("proj/pkg/AGENTS.md")).unwrap();
    fs::remove_file(tree.path("proj/pkg/lib/AGENTS.md")).unwrap();
    let id = identity_with(
        "..",
        5000,
        r#""AGENTS.md","CLAUDE.md""#,
        r#""AGENTS.local.md","CLAUDE.local.md""#,
    );
    let json = assert_diff(
        &tree,
        &["--max-bytes", "5000"],
        &[
            framed(&[EMPTY.to_owned()]),
            framed(&[remove_section("pkg/lib/AGENTS.md")]),
        ],
        &baseline_source(
            &id,
            vec![
                remove(".", "AGENTS.md"),
                remove("pkg", "pkg/AGENTS.md"),
                remove("pkg/lib", "pkg/lib/AGENTS.md"),
            ],
        ),
    );
    assert_eq!(json["identityDiff"], "maxBytes");
}

#[test]
fn the_empty_replacement_when_nothing_loads() {
    let (tree, _) = project();
    fs::remove_file(tree.path("proj/AGENTS.md")).unwrap();
    fs::remove_file(tree.path("proj/pkg/AGENTS.md")).unwrap();
    let text = format!("<system-reminder>\n{EMPTY}\n</system-reminder>");
    let id = identity_with(
        "..",
        5000,
        r#""AGENTS.md","CLAUDE.md""#,
        r#""AGENTS.local.md","CLAUDE.local.md""#,
    );
    let json = assert_diff(
        &tree,
        &["--max-bytes", "5000"],
        &[text],
        &baseline_source(
            &id,
            vec![remove(".", "AGENTS.md"), remove("pkg", "pkg/AGENTS.md")],
        ),
    );
    assert_eq!(json["decision"], "replacement");
    // An EMPTY replacement that does not fit max-bytes is not sent.
    let json = assert_diff(&tree, &["--max-bytes", "100"], &[], &Value::Null);
    assert_eq!(json["decision"], "none");
    assert_eq!(
        json["reason"],
        "the visible baseline (seq 1) has another identity (maxBytes differs): the empty replacement baseline does not fit max-bytes 100, so nothing is sent"
    );
}

#[test]
fn an_offline_edit_gives_exactly_one_updated_part() {
    let (tree, _) = project();
    tree.file("proj/AGENTS.md", "root v2\n");
    let json = assert_diff(
        &tree,
        &[],
        &[framed(&[replace_section("AGENTS.md", "root v2\n")])],
        &delta_source(vec![replace(".", "AGENTS.md", "root v2\n")]),
    );
    assert_eq!(json["decision"], "delta");
    let (_, _, code) = diff(&tree, "session.jsonl", &["--exit-code"]);
    assert_eq!(code, 1);
}

#[test]
fn new_files_are_set_in_batch_order() {
    let (tree, _) = project();
    tree.file("home/.dsh/AGENTS.md", "global\n")
        .file("proj/pkg/CLAUDE.local.md", "pkg local\n")
        .file("proj/CLAUDE.md", "shadowed by AGENTS.md\n");
    assert_diff(
        &tree,
        &[],
        &[framed(&[
            set_section("~/.dsh/AGENTS.md", "user-global", "global\n"),
            set_section("pkg/CLAUDE.local.md", "pkg", "pkg local\n"),
        ])],
        &delta_source(vec![
            set("user-global", "~/.dsh/AGENTS.md", "global\n"),
            set("pkg\0local", "pkg/CLAUDE.local.md", "pkg local\n"),
        ]),
    );
}

#[test]
fn a_deleted_file_is_removed() {
    let (tree, _) = project();
    fs::remove_file(tree.path("proj/pkg/AGENTS.md")).unwrap();
    assert_diff(
        &tree,
        &[],
        &[framed(&[remove_section("pkg/AGENTS.md")])],
        &delta_source(vec![remove("pkg", "pkg/AGENTS.md")]),
    );
}

#[test]
fn a_removed_scope_that_reappears_is_set_again() {
    let (tree, mut session) = project();
    fs::remove_file(tree.path("proj/pkg/AGENTS.md")).unwrap();
    let report = diff_json(&tree, "session.jsonl", &[]);
    session.workspace(&report);
    session.turn("x");
    session.write(&tree, "session.jsonl");
    assert_diff(&tree, &[], &[], &Value::Null);
    tree.file("proj/pkg/AGENTS.md", "pkg v1\n");
    assert_diff(
        &tree,
        &[],
        &[framed(&[set_section("pkg/AGENTS.md", "pkg", "pkg v1\n")])],
        &delta_source(vec![set("pkg", "pkg/AGENTS.md", "pkg v1\n")]),
    );
}

#[test]
fn a_file_the_budget_now_omits_is_removed_if_visibly_loaded() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root v1\n")
        .file("proj/pkg/AGENTS.md", "pkg\n");
    start(&tree, "proj/pkg", &["--max-bytes", "1000"]);
    tree.file("proj/AGENTS.md", "x".repeat(2000));
    assert_diff(
        &tree,
        &[],
        &[framed(&[remove_section("AGENTS.md")])],
        &delta_source(vec![remove(".", "AGENTS.md")]),
    );
}

#[test]
fn a_file_the_budget_always_omitted_stays_silent() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "x".repeat(2000))
        .file("proj/pkg/AGENTS.md", "pkg\n");
    start(&tree, "proj/pkg", &["--max-bytes", "1000"]);
    tree.file("proj/AGENTS.md", "y".repeat(2000));
    assert_diff(&tree, &[], &[], &Value::Null);
}

#[test]
fn all_mode_duplicates_are_removed_first_in_their_directory() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "A\n")
        .file("proj/CLAUDE.md", "C\n")
        .file("proj/AGENTS.local.md", "L\n");
    start(&tree, "proj", &["--precedence", "all"]);
    // Offline: AGENTS.md changes, CLAUDE.md becomes its duplicate, a new
    // local overlay appears. The precedence comes from the log's scope keys.
    tree.file("proj/AGENTS.md", "A2\n")
        .file("proj/CLAUDE.md", "  A2")
        .file("proj/CLAUDE.local.md", "CL\n");
    assert_diff(
        &tree,
        &[],
        &[framed(&[
            remove_section("CLAUDE.md"),
            replace_section("AGENTS.md", "A2\n"),
            set_section("CLAUDE.local.md", ".", "CL\n"),
        ])],
        &delta_source(vec![
            remove(".\0CLAUDE.md", "CLAUDE.md"),
            replace(".\0AGENTS.md", "AGENTS.md", "A2\n"),
            set(".\0CLAUDE.local.md", "CLAUDE.local.md", "CL\n"),
        ]),
    );
}

/// SPEC 6 removal order: outside the baseline chain (a directory reached by
/// a visible scope or `--touch`) a duplicate is removed in its candidate-list
/// position, after an earlier candidate's `replace`.
#[test]
fn outside_the_chain_a_duplicate_is_removed_in_its_place() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "A\n")
        .file("proj/sub/AGENTS.md", "S\n")
        .file("proj/sub/CLAUDE.md", "C\n");
    let mut session = start(&tree, "proj", &["--precedence", "all"]);
    touch(&tree, &mut session, "sub/x.rs");
    // Offline: sub/AGENTS.md changes and sub/CLAUDE.md becomes its duplicate.
    tree.file("proj/sub/AGENTS.md", "S2\n")
        .file("proj/sub/CLAUDE.md", "S2");
    assert_diff(
        &tree,
        &[],
        &[framed(&[
            replace_section("sub/AGENTS.md", "S2\n"),
            remove_section("sub/CLAUDE.md"),
        ])],
        &delta_source(vec![
            replace("sub\0AGENTS.md", "sub/AGENTS.md", "S2\n"),
            remove("sub\0CLAUDE.md", "sub/CLAUDE.md"),
        ]),
    );
}

/// SPEC 6 same path: "already loaded" means claimed earlier in the same
/// pass. With the dsh home at the project root and the user-global file
/// omitted by the budget, the root scope of that same file is reconciled like
/// any candidate (`set`), and the delta budget may omit it in turn.
#[test]
fn a_budget_omitted_user_global_file_leaves_its_root_scope_to_reconcile() {
    for (precedence, pkg_scope) in [("all", "pkg\0AGENTS.md"), ("first", "pkg")] {
        let tree = Tree::new();
        let big = "r".repeat(300);
        tree.dir("proj/.git")
            .dir("home")
            .file("proj/AGENTS.md", &big)
            .file("proj/pkg/AGENTS.md", "pkg\n");
        let flags = ["--dsh-home", "proj", "--max-bytes", "400"];
        let mut args = vec![
            "--precedence",
            precedence,
            "--source-kind",
            "agent-instructions",
        ];
        args.extend(flags);
        let session = start(&tree, "proj/pkg", &args);
        let logged = session.jsonl();
        assert!(
            logged.contains("omitted $DSH_HOME/AGENTS.md"),
            "the budget must omit the user-global file: {logged}"
        );
        tree.file("proj/pkg/AGENTS.md", "pkg v2\n");
        let (out, err, code) = diff(&tree, "session.jsonl", &flags);
        assert_eq!(
            (out.as_str(), err.as_str(), code),
            (
                framed(&[
                    "Workspace instruction budget 400 bytes: omitted AGENTS.md".to_owned(),
                    replace_section("pkg/AGENTS.md", "pkg v2\n"),
                ])
                .as_str(),
                "",
                0
            ),
            "{precedence}"
        );
        let json = diff_json(&tree, "session.jsonl", &flags);
        assert_eq!(
            json["source"],
            json!({"kind": "agent-instructions", "form": "instructions",
                   "changes": [replace(pkg_scope, "pkg/AGENTS.md", "pkg v2\n")]}),
            "{precedence}"
        );
        // Only the delta travels: its own budget record.
        assert_eq!(json["omitted"], json!(["AGENTS.md"]), "{precedence}");
    }
}

#[test]
fn a_logged_scope_outside_the_root_is_reconciled_with_a_warning() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root\n")
        .file("outside/AGENTS.md", "out v1\n");
    let mut session = start(&tree, "proj", &[]);
    for _ in 0..2 {
        session.workspace(&json!({
            "parts": [framed(&[set_section("../outside/AGENTS.md", "../outside", "out v1\n")])],
            "source": delta_source(vec![set("../outside", "../outside/AGENTS.md", "out v1\n")]),
        }));
    }
    session.write(&tree, "session.jsonl");
    let line = session
        .jsonl()
        .lines()
        .position(|l| l.contains("../outside"))
        .unwrap()
        + 1;
    tree.file("outside/AGENTS.md", "out v2\n");
    assert_diff_warning(
        &tree,
        &[],
        &[framed(&[replace_section(
            "../outside/AGENTS.md",
            "out v2\n",
        )])],
        &delta_source(vec![replace(
            "../outside",
            "../outside/AGENTS.md",
            "out v2\n",
        )]),
        &format!(
            "agentctx: warning: session.jsonl:{line}: the logged scope ../outside is outside the project root; reconciled as logged\n"
        ),
    );
}

#[test]
fn an_unavailable_file_is_no_transition() {
    let (tree, _) = project();
    // ELOOP: a symlink to itself. Not a deletion: nothing is sent.
    fs::remove_file(tree.path("proj/AGENTS.md")).unwrap();
    symlink("AGENTS.md", tree.path("proj/AGENTS.md")).unwrap();
    let json = assert_diff_warning(&tree, &[], &[], &Value::Null, &loop_warning("AGENTS.md"));
    assert_eq!(json["decision"], "none");
    let (_, _, code) = diff(&tree, "session.jsonl", &["--exit-code"]);
    assert_eq!(code, 0);
}

#[test]
fn first_mode_skips_an_unavailable_winner_for_the_next_present_name() {
    let (tree, _) = project();
    fs::remove_file(tree.path("proj/pkg/AGENTS.md")).unwrap();
    symlink("AGENTS.md", tree.path("proj/pkg/AGENTS.md")).unwrap();
    tree.file("proj/pkg/CLAUDE.md", "pkg claude\n");
    assert_diff_warning(
        &tree,
        &[],
        &[framed(&[switch_section(
            "pkg/CLAUDE.md",
            "pkg/AGENTS.md",
            "pkg",
            "pkg claude\n",
        )])],
        &delta_source(vec![switch(
            "pkg",
            "pkg/CLAUDE.md",
            "pkg/AGENTS.md",
            "pkg claude\n",
        )]),
        &loop_warning("pkg/AGENTS.md"),
    );
}

#[test]
fn all_mode_freezes_a_directory_whose_loaded_file_became_unavailable() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "A\n")
        .file("proj/CLAUDE.md", "C\n")
        .file("proj/pkg/AGENTS.md", "P\n");
    start(&tree, "proj/pkg", &["--precedence", "all"]);
    // Root: the loaded AGENTS.md turns into a loop; nothing else in the
    // root may move. pkg: a CLAUDE.md loop the session never saw does not
    // freeze it, so its edit goes through.
    fs::remove_file(tree.path("proj/AGENTS.md")).unwrap();
    symlink("AGENTS.md", tree.path("proj/AGENTS.md")).unwrap();
    symlink("CLAUDE.md", tree.path("proj/pkg/CLAUDE.md")).unwrap();
    tree.file("proj/CLAUDE.md", "C2\n")
        .file("proj/AGENTS.local.md", "new local\n")
        .file("proj/pkg/AGENTS.md", "P2\n");
    assert_diff_warning(
        &tree,
        &[],
        &[framed(&[replace_section("pkg/AGENTS.md", "P2\n")])],
        &delta_source(vec![replace("pkg\0AGENTS.md", "pkg/AGENTS.md", "P2\n")]),
        &(loop_warning("AGENTS.md") + &loop_warning("pkg/CLAUDE.md")),
    );
}

#[test]
fn first_mode_winner_switch_is_a_replace_with_previous_path() {
    let (tree, _) = project();
    // Root: the same bytes under the next name still switch. pkg: new text.
    fs::remove_file(tree.path("proj/AGENTS.md")).unwrap();
    fs::remove_file(tree.path("proj/pkg/AGENTS.md")).unwrap();
    tree.file("proj/CLAUDE.md", "root v1\n")
        .file("proj/pkg/CLAUDE.md", "pkg v2\n");
    assert_diff(
        &tree,
        &[],
        &[framed(&[
            switch_section("CLAUDE.md", "AGENTS.md", ".", "root v1\n"),
            switch_section("pkg/CLAUDE.md", "pkg/AGENTS.md", "pkg", "pkg v2\n"),
        ])],
        &delta_source(vec![
            switch(".", "CLAUDE.md", "AGENTS.md", "root v1\n"),
            switch("pkg", "pkg/CLAUDE.md", "pkg/AGENTS.md", "pkg v2\n"),
        ]),
    );
}

#[test]
fn visible_scopes_outside_the_baseline_are_reconciled_in_first_set_order() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root\n")
        .file("proj/lib/AGENTS.md", "lib v1\n")
        .file("proj/docs/AGENTS.md", "docs\n")
        .file("proj/tools/AGENTS.md", "tools\n");
    let mut session = start(&tree, "proj", &[]);
    touch(&tree, &mut session, "lib/a.rs");
    touch(&tree, &mut session, "docs/b.md");
    touch(&tree, &mut session, "tools/c.sh");
    // tools/AGENTS.md goes away and the session is told (a tombstone).
    fs::remove_file(tree.path("proj/tools/AGENTS.md")).unwrap();
    let report = diff_json(&tree, "session.jsonl", &[]);
    assert_eq!(
        report["source"],
        delta_source(vec![remove("tools", "tools/AGENTS.md")])
    );
    session.workspace(&report);
    session.turn("x");
    session.write(&tree, "session.jsonl");
    // Offline: lib edited, docs deleted, tools back.
    tree.file("proj/lib/AGENTS.md", "lib v2\n")
        .file("proj/tools/AGENTS.md", "tools again\n");
    fs::remove_file(tree.path("proj/docs/AGENTS.md")).unwrap();
    assert_diff(
        &tree,
        &[],
        &[framed(&[
            replace_section("lib/AGENTS.md", "lib v2\n"),
            remove_section("docs/AGENTS.md"),
            set_section("tools/AGENTS.md", "tools", "tools again\n"),
        ])],
        &delta_source(vec![
            replace("lib", "lib/AGENTS.md", "lib v2\n"),
            remove("docs", "docs/AGENTS.md"),
            set("tools", "tools/AGENTS.md", "tools again\n"),
        ]),
    );
}

#[test]
fn a_visible_key_of_the_other_precedence_is_left_alone() {
    // An all-mode build once set `old\0AGENTS.md`; the log's last change is
    // first-mode, so diff runs in first mode and never removes that key.
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root\n")
        .file("proj/old/AGENTS.md", "old\n");
    let mut session = Session::new(&tree.path("proj"));
    session.prompt("Hi");
    session.workspace(&json!({
        "parts": [framed(&[set_section("old/AGENTS.md", "old", "old\n")])],
        "source": delta_source(vec![set("old\0AGENTS.md", "old/AGENTS.md", "old\n")]),
    }));
    session.workspace(&render_json(
        &tree,
        &[
            "--cwd",
            "proj",
            FIRST_GEN[0],
            FIRST_GEN[1],
            FIRST_GEN[2],
            FIRST_GEN[3],
        ],
    ));
    session.turn("x");
    session.write(&tree, "session.jsonl");
    fs::remove_file(tree.path("proj/old/AGENTS.md")).unwrap();
    assert_diff(&tree, &[], &[], &Value::Null);
}

#[test]
fn the_delta_batch_has_its_own_budget() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "r1\n")
        .file("proj/pkg/AGENTS.md", "p1\n")
        .file("proj/pkg/AGENTS.local.md", "l1\n");
    let (r, p, l) = ("r".repeat(100), "p".repeat(100), "l".repeat(100));
    // The budget is exactly what the new baseline needs: the baseline would
    // fit whole, but the three replace sections do not.
    let current = baseline(&[
        ("AGENTS.md", &r),
        ("pkg/AGENTS.md", &p),
        ("pkg/AGENTS.local.md", &l),
    ]);
    let max = current.len();
    start(&tree, "proj/pkg", &["--max-bytes", &max.to_string()]);
    tree.file("proj/AGENTS.md", &r)
        .file("proj/pkg/AGENTS.md", &p)
        .file("proj/pkg/AGENTS.local.md", &l);
    let whole = framed(&[
        replace_section("AGENTS.md", &r),
        replace_section("pkg/AGENTS.md", &p),
        replace_section("pkg/AGENTS.local.md", &l),
    ]);
    let cut = framed(&[
        format!("Workspace instruction budget {max} bytes: omitted AGENTS.md"),
        replace_section("pkg/AGENTS.md", &p),
        replace_section("pkg/AGENTS.local.md", &l),
    ]);
    assert!(whole.len() > max && cut.len() <= max);
    let json = assert_diff(
        &tree,
        &[],
        &[cut],
        &delta_source(vec![
            replace("pkg", "pkg/AGENTS.md", &p),
            replace("pkg\0local", "pkg/AGENTS.local.md", &l),
        ]),
    );
    assert_eq!(json["omitted"], json!(["AGENTS.md"]));
    assert_eq!(json["truncated"], json!([]));
}

#[test]
fn touch_discovers_nested_directories_below_the_cwd_only() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root v1\n")
        .file("proj/pkg/AGENTS.md", "pkg\n")
        .file("proj/pkg/src/CLAUDE.md", "src\n")
        .file("proj/pkg/src/AGENTS.local.md", "src local\n")
        .file("elsewhere/AGENTS.md", "outside\n");
    start(&tree, "proj", &[]);
    tree.file("proj/AGENTS.md", "root v2\n");
    let abs = tree.path("proj/pkg/src/lib.rs");
    let args = [
        "--touch",
        "main.rs",
        "--touch",
        "../elsewhere/x.rs",
        "--touch",
        abs.to_str().unwrap(),
        "--touch",
        "pkg/other.rs",
    ];
    assert_diff(
        &tree,
        &args,
        &[framed(&[
            replace_section("AGENTS.md", "root v2\n"),
            set_section("pkg/AGENTS.md", "pkg", "pkg\n"),
            set_section("pkg/src/CLAUDE.md", "pkg/src", "src\n"),
            set_section("pkg/src/AGENTS.local.md", "pkg/src", "src local\n"),
        ])],
        &delta_source(vec![
            replace(".", "AGENTS.md", "root v2\n"),
            set("pkg", "pkg/AGENTS.md", "pkg\n"),
            set("pkg/src", "pkg/src/CLAUDE.md", "src\n"),
            set("pkg/src\0local", "pkg/src/AGENTS.local.md", "src local\n"),
        ]),
    );
    // A touch whose parent is the cwd, or outside it, adds nothing.
    tree.file("proj/AGENTS.md", "root v1\n");
    assert_diff(
        &tree,
        &["--touch", "main.rs", "--touch", "../elsewhere/x.rs"],
        &[],
        &Value::Null,
    );
}

#[test]
fn precedence_is_inferred_from_the_logged_scope_keys() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "agents\n");
    start(&tree, "proj", &["--precedence", "all"]);
    tree.file("proj/CLAUDE.md", "claude\n");
    // All-mode keys in the log: CLAUDE.md loads beside AGENTS.md.
    assert_diff(
        &tree,
        &[],
        &[framed(&[set_section("CLAUDE.md", ".", "claude\n")])],
        &delta_source(vec![set(".\0CLAUDE.md", "CLAUDE.md", "claude\n")]),
    );
    // The flag wins. In first mode the logged all-mode keys are left alone,
    // and the directory's first-mode scope `.` was never set: AGENTS.md is.
    assert_diff(
        &tree,
        &["--precedence", "first"],
        &[framed(&[set_section("AGENTS.md", ".", "agents\n")])],
        &delta_source(vec![set(".", "AGENTS.md", "agents\n")]),
    );

    // First-mode keys (the last one `.\0local`): CLAUDE.md stays shadowed.
    fs::remove_file(tree.path("proj/CLAUDE.md")).unwrap();
    tree.file("proj/AGENTS.local.md", "local\n");
    start(&tree, "proj", &[]);
    tree.file("proj/CLAUDE.md", "claude\n");
    assert_diff(&tree, &[], &[], &Value::Null);
}

#[test]
fn a_legacy_log_without_surface_ops_has_every_message_visible() {
    let (tree, _) = project();
    let mut session = Session::legacy(&tree.path("proj/pkg"));
    session.prompt("Hi");
    session.workspace(&render_json(
        &tree,
        &[
            "--cwd",
            "proj/pkg",
            FIRST_GEN[0],
            FIRST_GEN[1],
            FIRST_GEN[2],
            FIRST_GEN[3],
        ],
    ));
    session.turn("x");
    session.write(&tree, "session.jsonl");
    assert!(!session.jsonl().contains("surfaceOp"));
    tree.file("proj/AGENTS.md", "root v2\n");
    let json = assert_diff(
        &tree,
        &[],
        &[framed(&[replace_section("AGENTS.md", "root v2\n")])],
        &delta_source(vec![replace(".", "AGENTS.md", "root v2\n")]),
    );
    assert_eq!(json["visibleBaselineSeq"], 1);
}

#[test]
fn in_a_log_with_surface_ops_an_event_without_one_is_not_visible() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root\n");
    let mut session = Session::new(&tree.path("proj"));
    session.prompt("Hi");
    // The baseline line lacks its surfaceOp; the rest of the log has them.
    let base = render_json(&tree, &["--cwd", "proj"]);
    session.surface_ops = false;
    session.workspace(&base);
    session.surface_ops = true;
    session.turn("x");
    session.write(&tree, "session.jsonl");
    let json = assert_diff(
        &tree,
        &[],
        &[baseline(&[("AGENTS.md", "root\n")])],
        &base["source"].clone(),
    );
    assert_eq!(json["decision"], "baseline");
}

/// The same events as one JSON array (pretty-printed, header first).
fn as_array(session: &Session) -> String {
    let events: Vec<Value> = session
        .lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    serde_json::to_string_pretty(&events).unwrap()
}

#[test]
fn a_json_array_log_reads_like_json_lines() {
    let (tree, session) = project();
    tree.file("session.jsonl", as_array(&session));
    tree.file("proj/AGENTS.md", "root v2\n");
    assert_diff(
        &tree,
        &[],
        &[framed(&[replace_section("AGENTS.md", "root v2\n")])],
        &delta_source(vec![replace(".", "AGENTS.md", "root v2\n")]),
    );
    // A truncated array is an error: no final-line leniency.
    let text = as_array(&session);
    tree.file("session.jsonl", &text[..text.len() - 2]);
    let (out, err, code) = diff(&tree, "session.jsonl", &[]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(
        err.starts_with("agentctx: session.jsonl:")
            && err.ends_with('\n')
            && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn the_current_generation_ignores_an_earlier_kind_log() {
    // A log of the current kind, resumed by default: a delta of its kind.
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root v1\n");
    start(&tree, "proj", &["--source-kind", "agent-instructions"]);
    tree.file("proj/AGENTS.md", "root v2\n");
    let json = diff_json(&tree, "session.jsonl", &[]);
    assert_eq!(
        json["source"],
        json!({"kind": "agent-instructions", "form": "instructions", "changes": [replace(".", "AGENTS.md", "root v2\n")]})
    );
    // An earlier-kind build resuming it reads none of its events: a fresh
    // baseline of its own kind, under the default precedence (all).
    let json = diff_json(
        &tree,
        "session.jsonl",
        &["--source-kind", "workspace-instructions"],
    );
    assert_eq!(
        json["parts"],
        json!([baseline(&[("AGENTS.md", "root v2\n")])])
    );
    assert_eq!(
        json["source"],
        baseline_source(
            &default_identity(""),
            vec![set(".\u{0}AGENTS.md", "AGENTS.md", "root v2\n")]
        )
    );

    // A log the earlier generation wrote, resumed by the current dsh with
    // no flag: it ignores those events and sends a complete fresh baseline.
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root v1\n");
    start(&tree, "proj", &[]);
    let (json, code) =
        run_json(
            tree.cmd()
                .args(["diff", "--log", "session.jsonl", "--format", "json"]),
        );
    assert_eq!(code, 0);
    assert_eq!(
        json["parts"],
        json!([baseline(&[("AGENTS.md", "root v1\n")])])
    );
    assert_eq!(
        json["source"],
        current_baseline_source(
            &default_identity(""),
            vec![set(".\u{0}AGENTS.md", "AGENTS.md", "root v1\n")]
        )
    );
    let (json, code) =
        run_json(
            tree.cmd()
                .args(["explain", "--log", "session.jsonl", "--format", "json"]),
        );
    assert_eq!(code, 0);
    assert_eq!(
        json["session"]["ignoredKind"],
        json!({"kind": "workspace-instructions", "events": 1})
    );
    assert_eq!(json["session"]["sourceKind"], json!("agent-instructions"));
}

#[test]
fn max_bytes_zero_sends_nothing() {
    let (tree, _) = project();
    tree.file("proj/AGENTS.md", "root v2\n");
    let json = assert_diff(&tree, &["--max-bytes", "0"], &[], &Value::Null);
    assert_eq!(json["decision"], "none");
}

#[test]
fn a_replace_endpoint_off_the_surface_is_an_error() {
    let (tree, session) = project();
    let mut text = session.jsonl();
    text.push_str(r#"{"type":"user/message","seq":99,"time":0,"data":{"content":[{"type":"text","text":"Summary."}],"source":{"kind":"compaction","sourceEventSeqs":[50]},"role":"user","id":"c"},"surfaceOp":{"op":"replace","start":50,"end":2}}"#);
    text.push('\n');
    tree.file("session.jsonl", &text);
    let line = text.lines().count();
    let (out, err, code) = diff(&tree, "session.jsonl", &[]);
    assert_eq!(
        (out.as_str(), err, code),
        (
            "",
            format!("agentctx: session.jsonl:{line}: replace start 50 is not on the surface\n"),
            2
        )
    );
}

#[test]
fn a_malformed_middle_line_is_an_error_naming_file_line_and_column() {
    let (tree, session) = project();
    let mut lines = session.lines.clone();
    lines.insert(3, r#"{"type":"user/message","seq":40,}"#.to_owned());
    tree.file("session.jsonl", jsonl(&lines));
    let (out, err, code) = diff(&tree, "session.jsonl", &[]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "",
            "agentctx: session.jsonl:4:33: malformed JSON: trailing comma\n",
            2
        )
    );
    // A line that is not an object at all: no column to name.
    let mut lines = session.lines.clone();
    lines.insert(2, "garbage".to_owned());
    tree.file("session.jsonl", jsonl(&lines));
    let (_, err, code) = diff(&tree, "session.jsonl", &[]);
    assert_eq!(
        (err.as_str(), code),
        (
            "agentctx: session.jsonl:3: malformed line: not a JSON object\n",
            2
        )
    );
}

#[test]
fn a_truncated_final_line_is_ignored_with_a_warning() {
    let (tree, session) = project();
    tree.file("proj/AGENTS.md", "root v2\n");
    let text = session.jsonl() + r#"{"type":"user/message","seq":40,"time":0,"data":{"con"#;
    tree.file("session.jsonl", &text);
    let line = text.lines().count();
    let (out, err, code) = diff(&tree, "session.jsonl", &[]);
    assert_eq!(
        (out, err, code),
        (
            framed(&[replace_section("AGENTS.md", "root v2\n")]),
            format!(
                "agentctx: warning: session.jsonl:{line}: ignoring a final line without a newline that is not valid JSON (a writer stopped mid-line?)\n"
            ),
            0
        )
    );
    // -q silences the warning.
    let (_, err, code) = run(tree.cmd().args(["-q", "diff", "--log", "session.jsonl"]));
    assert_eq!((err.as_str(), code), ("", 0));
}

#[test]
fn dash_reads_the_log_from_stdin() {
    let (tree, session) = project();
    tree.file("proj/AGENTS.md", "root v2\n");
    let mut child = tree
        .cmd()
        .args([
            "diff",
            "--log",
            "-",
            "--source-kind",
            "workspace-instructions",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(session.jsonl().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
            out.status.code()
        ),
        (
            framed(&[replace_section("AGENTS.md", "root v2\n")]),
            String::new(),
            Some(0)
        )
    );
}

#[test]
fn surface_errors_name_the_line() {
    let (tree, session) = project();
    let base = session.jsonl();
    let line = base.lines().count() + 1;
    let cases = [
        (
            r#"{"type":"user/message","seq":90,"time":0,"data":{},"surfaceOp":"prepend"}"#,
            r#"unknown surfaceOp "prepend""#.to_owned(),
        ),
        (
            r#"{"type":"user/message","seq":90,"time":0,"data":{},"surfaceOp":{"op":"replace","start":8,"end":6}}"#,
            "replace start 8 lies after its end 6".to_owned(),
        ),
        (
            r#"{"type":"assistant/message","seq":1,"time":0,"data":{},"surfaceOp":"append"}"#,
            "seq 1 is already on the surface".to_owned(),
        ),
        (
            r#"{"type":"user/message","seq":-1,"time":0,"data":{},"surfaceOp":"append"}"#,
            "seq must be a non-negative integer, got -1".to_owned(),
        ),
    ];
    for (bad, why) in cases {
        tree.file("session.jsonl", format!("{base}{bad}\n"));
        let (out, err, code) = diff(&tree, "session.jsonl", &[]);
        assert_eq!(
            (out.as_str(), err, code),
            ("", format!("agentctx: session.jsonl:{line}: {why}\n"), 2),
            "{bad}"
        );
    }
}

#[test]
fn strict_parses_lines_that_cannot_matter() {
    let (tree, session) = project();
    let mut lines = session.lines.clone();
    // Balanced braces, bad JSON, and none of the bytes that make a line matter.
    lines.insert(
        4,
        r#"{"type":"assistant/chunk","seq":41,"data":{"text":"x"},}"#.to_owned(),
    );
    tree.file("session.jsonl", jsonl(&lines));
    assert_diff(&tree, &[], &[], &Value::Null);
    let (out, err, code) = diff(&tree, "session.jsonl", &["--strict"]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "",
            "agentctx: session.jsonl:5:56: malformed JSON: trailing comma\n",
            2
        )
    );
}

#[test]
fn an_oversized_file_during_reconciliation_is_no_transition() {
    // first mode: the winner grew past max-source-bytes; no fall-through
    // to CLAUDE.md, no removal.
    let (tree, _) = project();
    let args = ["--max-source-bytes", "100"];
    start(&tree, "proj/pkg", &args);
    tree.file("proj/AGENTS.md", "x".repeat(101))
        .file("proj/CLAUDE.md", "claude\n");
    let oversized =
        "agentctx: warning: AGENTS.md: oversized, not loaded: 101 bytes > max-source-bytes 100\n";
    assert_diff_warning(&tree, &[], &[], &Value::Null, oversized);

    // all mode: an oversized sibling freezes nothing; the edit goes through.
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "A\n")
        .file("proj/CLAUDE.md", "C\n");
    start(
        &tree,
        "proj",
        &["--precedence", "all", "--max-source-bytes", "100"],
    );
    tree.file("proj/AGENTS.md", "x".repeat(101))
        .file("proj/CLAUDE.md", "C2\n");
    assert_diff_warning(
        &tree,
        &[],
        &[framed(&[replace_section("CLAUDE.md", "C2\n")])],
        &delta_source(vec![replace(".\0CLAUDE.md", "CLAUDE.md", "C2\n")]),
        oversized,
    );
}

#[test]
fn a_fresh_baseline_and_touched_scopes_travel_together() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root\n")
        .file("proj/pkg/AGENTS.md", "pkg\n");
    let mut session = Session::new(&tree.path("proj"));
    session.prompt("Hi");
    session.write(&tree, "session.jsonl");
    assert_diff(
        &tree,
        &["--touch", "pkg/a.rs"],
        &[
            baseline(&[("AGENTS.md", "root\n")]),
            framed(&[set_section("pkg/AGENTS.md", "pkg", "pkg\n")]),
        ],
        &current_baseline_source(
            &default_identity(""),
            vec![
                set(".\0AGENTS.md", "AGENTS.md", "root\n"),
                set("pkg\0AGENTS.md", "pkg/AGENTS.md", "pkg\n"),
            ],
        ),
    );
}

#[test]
fn omitted_lists_the_baseline_records_then_the_deltas() {
    let tree = Tree::new();
    let (g, l, d) = ("g".repeat(300), "l".repeat(200), "d".repeat(200));
    tree.dir("proj/.git")
        .file("home/.dsh/AGENTS.md", &g)
        .file("proj/AGENTS.md", "root\n")
        .file("proj/lib/AGENTS.md", "lib v1\n")
        .file("proj/docs/AGENTS.md", "docs v1\n");
    // No baseline was ever logged; two touch messages are visible.
    let mut session = Session::new(&tree.path("proj"));
    session.prompt("Hi");
    for (dir, text) in [("lib", "lib v1\n"), ("docs", "docs v1\n")] {
        let path = format!("{dir}/AGENTS.md");
        session.workspace(&json!({
            "parts": [framed(&[set_section(&path, dir, text)])],
            "source": delta_source(vec![set(dir, &path, text)]),
        }));
        session.turn(&path);
    }
    session.write(&tree, "session.jsonl");
    tree.file("proj/lib/AGENTS.md", &l)
        .file("proj/docs/AGENTS.md", &d);
    let base = framed(&[
        "Workspace instruction budget 600 bytes: omitted ~/.dsh/AGENTS.md".to_owned(),
        INTRO.to_owned(),
        section("AGENTS.md", "root\n"),
    ]);
    let delta = framed(&[
        "Workspace instruction budget 600 bytes: omitted lib/AGENTS.md".to_owned(),
        replace_section("docs/AGENTS.md", &d),
    ]);
    let id = identity_with(
        "",
        600,
        r#""AGENTS.md","CLAUDE.md""#,
        r#""AGENTS.local.md","CLAUDE.local.md""#,
    );
    let json = assert_diff(
        &tree,
        &["--max-bytes", "600"],
        &[base, delta],
        &baseline_source(
            &id,
            vec![
                set(".", "AGENTS.md", "root\n"),
                replace("docs", "docs/AGENTS.md", &d),
            ],
        ),
    );
    assert_eq!(
        json["omitted"],
        json!(["~/.dsh/AGENTS.md", "lib/AGENTS.md"])
    );
}

#[test]
fn no_baseline_and_nothing_to_load_sends_nothing() {
    let tree = Tree::new();
    tree.dir("proj/.git").dir("home");
    let mut session = Session::new(&tree.path("proj"));
    session.prompt("Hi");
    session.turn("x");
    session.write(&tree, "session.jsonl");
    let json = assert_diff(&tree, &[], &[], &Value::Null);
    assert_eq!(json["decision"], "none");
    assert_eq!(
        json["reason"],
        "the log has no workspace baseline, and no instruction file loads now: there is no baseline to send"
    );
    let (_, _, code) = diff(&tree, "session.jsonl", &["--exit-code"]);
    assert_eq!(code, 0);
}

#[test]
fn a_missing_log_is_an_error() {
    let (tree, _) = project();
    let (out, err, code) = diff(&tree, "nope.jsonl", &[]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "",
            "agentctx: nope.jsonl: No such file or directory (os error 2)\n",
            2
        )
    );
}

#[test]
fn invalid_change_entries_are_skipped_with_a_warning() {
    let tree = Tree::new();
    tree.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root v1\n");
    let mut session = Session::new(&tree.path("proj"));
    session.prompt("Hi");
    let mut base = render_json(&tree, &["--cwd", "proj"]);
    let changes = base["source"]["changes"].as_array_mut().unwrap();
    changes.push(json!({"action": "explode", "scope": "x", "path": "x/AGENTS.md"}));
    changes.push(json!({"action": "set", "scope": 7, "path": "y/AGENTS.md"}));
    session.workspace(&base);
    session.write(&tree, "session.jsonl");
    tree.file("proj/AGENTS.md", "root v2\n");
    let (out, err, code) = diff(&tree, "session.jsonl", &[]);
    assert_eq!(
        (out, err, code),
        (
            framed(&[replace_section("AGENTS.md", "root v2\n")]),
            "agentctx: warning: session.jsonl: skipped 2 invalid change entries\n".to_owned(),
            0
        )
    );
}

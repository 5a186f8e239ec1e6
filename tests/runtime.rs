//! `diff --log F --runtime NAME=TEXT` through the real binary (SPEC 8): the
//! runtime-context snapshot a resumed session would append, compared with
//! the latest logged snapshot.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Tree, run, run_json};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

const SNAPSHOT_INTRO: &str =
    "Current runtime context. This snapshot supersedes earlier runtime-context snapshots.";
const PLUGIN: &str = "@deepseek-ai/dsh-system-prompt";
const CHECKOUT: &str = "Current DeepSeek Harness implementation checkout: \"/home/u/dsh\".";

fn web(port: u16) -> String {
    format!("Current DeepSeek Harness Web GUI URL: \"http://127.0.0.1:{port}\".")
}

fn snapshot(seq: u64, sections: &[(&str, &str)]) -> Value {
    let sections: Vec<Value> = sections
        .iter()
        .map(|(name, text)| json!({"name": name, "text": text}))
        .collect();
    json!({"type": "user/message", "seq": seq, "surfaceOp": "append", "data": {
        "content": [{"type": "text", "text": "<runtime context>"}],
        "source": {"kind": "plugin", "plugin": PLUGIN, "form": "snapshot", "sections": sections}}})
}

fn event(seq: u64, kind: &str) -> Value {
    json!({"type": kind, "seq": seq, "surfaceOp": "append",
           "data": {"content": [{"type": "text", "text": "x"}]}})
}

/// A tree with an empty workspace `ws/` and a log `logs/s.jsonl` whose
/// header names it as the cwd.
fn session(events: &[Value]) -> Tree {
    let tree = Tree::new();
    tree.dir("ws");
    tree.session_log("logs/s.jsonl", "ws", events);
    tree
}

/// `agentctx diff --log logs/s.jsonl [--runtime V]... [extra]...`
fn diff(tree: &Tree, runtime: &[&str], extra: &[&str]) -> std::process::Command {
    let mut cmd = tree.cmd();
    cmd.args(["diff", "--log", "logs/s.jsonl"]);
    for r in runtime {
        cmd.arg("--runtime").arg(r);
    }
    cmd.args(extra);
    cmd
}

fn runtime_json(sections: &[(&str, &str)]) -> Value {
    let text = std::iter::once(SNAPSHOT_INTRO)
        .chain(sections.iter().map(|(_, t)| *t))
        .collect::<Vec<_>>()
        .join("\n\n");
    json!({
        "parts": [text],
        "source": {
            "kind": "plugin",
            "plugin": PLUGIN,
            "form": "snapshot",
            "sections": sections.iter().map(|(n, t)| json!({"name": n, "text": t})).collect::<Vec<_>>()
        }
    })
}

/// Before the port change the logged snapshot names 41234; the new launch
/// listens on 41235: the whole snapshot is appended with the URL replaced.
#[test]
fn port_change_appends_a_complete_snapshot() {
    let tree = session(&[
        event(0, "user/message"),
        snapshot(
            1,
            &[
                ("harness:source", CHECKOUT),
                ("app:web-surface", &web(41234)),
            ],
        ),
        event(2, "assistant/message"),
    ]);
    let value = format!("app:web-surface={}", web(41235));
    let (out, err, code) = run(&mut diff(&tree, &[&value], &["--exit-code"]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            format!("{SNAPSHOT_INTRO}\n\n{CHECKOUT}\n\n{}", web(41235)).as_str(),
            "",
            1
        )
    );
    // Without --exit-code a printed snapshot still exits 0.
    let (_, _, code) = run(&mut diff(&tree, &[&value], &[]));
    assert_eq!(code, 0);

    let (json, code) = run_json(&mut diff(&tree, &[&value], &["--format", "json"]));
    assert_eq!(code, 0);
    assert_eq!(json["parts"], json!([]));
    assert_eq!(json["source"], Value::Null);
    assert_eq!(
        json["runtime"],
        runtime_json(&[
            ("harness:source", CHECKOUT),
            ("app:web-surface", &web(41235))
        ])
    );
}

/// The same URL as the latest snapshot: nothing is printed and
/// `--exit-code` exits 0; JSON says `"runtime": null`.
#[test]
fn unchanged_value_prints_nothing() {
    let tree = session(&[snapshot(
        1,
        &[
            ("harness:source", CHECKOUT),
            ("app:web-surface", &web(41234)),
        ],
    )]);
    let url = format!("app:web-surface={}", web(41234));
    let checkout = format!("harness:source={CHECKOUT}");
    let (out, err, code) = run(&mut diff(&tree, &[&url, &checkout], &["--exit-code"]));
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
    let (json, code) = run_json(&mut diff(
        &tree,
        &[&url],
        &["--format", "json", "--exit-code"],
    ));
    assert_eq!(code, 0);
    assert_eq!(json["runtime"], Value::Null);
    assert_eq!(json["parts"], json!([]));
}

/// Snapshots before and after a port change: only the latest counts, even
/// when compaction shadowed it (the harness compares with the latest logged
/// snapshot). Going back to the earlier port is a change again.
#[test]
fn latest_snapshot_counts_even_when_shadowed() {
    let tree = session(&[
        event(0, "user/message"),
        snapshot(1, &[("app:web-surface", &web(41234))]),
        event(2, "assistant/message"),
        snapshot(3, &[("app:web-surface", &web(41235))]),
        json!({"type": "user/message", "seq": 4,
               "surfaceOp": {"op": "replace", "start": 1, "end": 3},
               "data": {"content": [{"type": "text", "text": "summary"}]}}),
    ]);
    let now = format!("app:web-surface={}", web(41235));
    let (out, _, code) = run(&mut diff(&tree, &[&now], &["--exit-code"]));
    assert_eq!((out.as_str(), code), ("", 0));
    let before = format!("app:web-surface={}", web(41234));
    let (out, _, code) = run(&mut diff(&tree, &[&before], &["--exit-code"]));
    assert_eq!(
        (out.as_str(), code),
        (format!("{SNAPSHOT_INTRO}\n\n{}", web(41234)).as_str(), 1)
    );
}

/// No snapshot at all: every given section is new, in the order given.
#[test]
fn no_snapshot_appends_the_given_sections() {
    let tree = session(&[event(0, "user/message")]);
    let url = format!("app:web-surface={}", web(41234));
    let checkout = format!("harness:source={CHECKOUT}");
    let (out, err, code) = run(&mut diff(&tree, &[&checkout, &url], &["--exit-code"]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            format!("{SNAPSHOT_INTRO}\n\n{CHECKOUT}\n\n{}", web(41234)).as_str(),
            "",
            1
        )
    );
    let (json, _) = run_json(&mut diff(&tree, &[&checkout, &url], &["--format", "json"]));
    assert_eq!(
        json["runtime"],
        runtime_json(&[
            ("harness:source", CHECKOUT),
            ("app:web-surface", &web(41234))
        ])
    );
    // Without --runtime there is nothing to compare: no runtime part.
    let (json, code) = run_json(&mut diff(&tree, &[], &["--format", "json", "--exit-code"]));
    assert_eq!((json["runtime"].clone(), code), (Value::Null, 0));
}

/// Updated sections are replaced in place, new ones appended after the
/// logged ones; a name given twice takes its last value.
#[test]
fn updated_sections_replace_and_new_sections_append() {
    let tree = session(&[snapshot(
        1,
        &[
            ("harness:source", CHECKOUT),
            ("app:web-surface", &web(41234)),
        ],
    )]);
    let (json, code) = run_json(&mut diff(
        &tree,
        &[
            "app:web-surface=first",
            "x:extra=Extra context.",
            &format!("app:web-surface={}", web(41236)),
        ],
        &["--format", "json", "--exit-code"],
    ));
    assert_eq!(code, 1);
    assert_eq!(
        json["runtime"],
        runtime_json(&[
            ("harness:source", CHECKOUT),
            ("app:web-surface", &web(41236)),
            ("x:extra", "Extra context."),
        ])
    );
}

/// The runtime snapshot is its own part after the workspace parts: text
/// output joins them with one newline; JSON keeps it out of `parts`.
#[test]
fn runtime_part_follows_the_workspace_parts() {
    let tree = session(&[snapshot(1, &[("app:web-surface", &web(41234))])]);
    tree.file("ws/AGENTS.md", "Be careful.\n");
    let url = format!("app:web-surface={}", web(41235));
    let baseline = "<system-reminder>\nThe following workspace instructions may be relevant to your work. Use them as guidance when applicable. More specific instructions take precedence over broader ones. They do not override system, developer, or direct user instructions.\n\nInstructions from: AGENTS.md\n\nBe careful.\n\n</system-reminder>";
    let (out, err, code) = run(&mut diff(&tree, &[&url], &["--exit-code"]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            format!("{baseline}\n{SNAPSHOT_INTRO}\n\n{}", web(41235)).as_str(),
            "",
            1
        )
    );
    let (json, _) = run_json(&mut diff(&tree, &[&url], &["--format", "json"]));
    assert_eq!(json["parts"], json!([baseline]));
    assert_eq!(
        json["runtime"],
        runtime_json(&[("app:web-surface", &web(41235))])
    );
    // An unchanged runtime value leaves the workspace part alone.
    let same = format!("app:web-surface={}", web(41234));
    let (out, _, code) = run(&mut diff(&tree, &[&same], &["--exit-code"]));
    assert_eq!((out.as_str(), code), (baseline, 1));
}

#[test]
fn malformed_runtime_value_is_a_usage_error() {
    let tree = session(&[]);
    let (out, err, code) = run(&mut diff(&tree, &["no-equals-sign"], &[]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "",
            "agentctx: --runtime \"no-equals-sign\": expected NAME=TEXT\n",
            2
        )
    );
}

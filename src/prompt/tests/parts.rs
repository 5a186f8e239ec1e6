//! The parts of the analysis on their own: process values, paragraph
//! diffs, system versions and runtime-context snapshots.

use super::*;
use pretty_assertions::assert_eq;

fn values(text: &str) -> Vec<(&str, ValueKind, bool, bool)> {
    find_values(text)
        .into_iter()
        .map(|f| (&text[f.start..f.end], f.kind, f.explicit_port, f.loopback))
        .collect()
}

#[test]
fn process_values_are_absolute_paths_and_port_or_loopback_urls() {
    use ValueKind::{AbsolutePath as P, Url as U};
    assert_eq!(
        values("Checkout at /home/u/dsh. Logs in `/tmp/dsh/log`, see (/var/x/y)."),
        vec![
            ("/home/u/dsh", P, false, false),
            ("/tmp/dsh/log", P, false, false),
            ("/var/x/y", P, false, false),
        ]
    );
    assert_eq!(
        values(
            "Open http://127.0.0.1:41234/app?x=1, https://example.com:8443/a and http://localhost/ now."
        ),
        vec![
            ("http://127.0.0.1:41234/app?x=1", U, true, true),
            ("https://example.com:8443/a", U, true, false),
            ("http://localhost/", U, false, true),
        ]
    );
    assert_eq!(
        values("IPv6 http://[::1]:8080/x and http://[::ffff:127.0.0.1]/ and http://127.9.9.9."),
        vec![
            ("http://[::1]:8080/x", U, true, true),
            ("http://[::ffff:127.0.0.1]/", U, false, true),
            ("http://127.9.9.9", U, false, true),
        ]
    );
    assert_eq!(
        values("PATH=/usr/bin:/usr/local/bin; C:\\Users\\u\\dsh and file:///home/u/x.md"),
        vec![
            ("/usr/bin", P, false, false),
            ("/usr/local/bin", P, false, false),
            ("C:\\Users\\u\\dsh", P, false, false),
            ("file:///home/u/x.md", P, false, false),
        ]
    );
    assert_eq!(
        values(
            "Use /help or /compact, and/or </system-reminder>; see https://example.com/a/b, //c/d, ~/x/y, 1/2/3."
        ),
        vec![]
    );
    assert_eq!(
        values("配置：/etc/dsh/config。地址“http://localhost:3000”"),
        vec![
            ("/etc/dsh/config", P, false, false),
            ("http://localhost:3000", U, true, true),
        ]
    );
}

#[test]
fn paragraphs_are_separated_by_blank_lines() {
    assert_eq!(
        paragraphs("\n a\n\n\nb\n  \t\nc\nd\r\n\r\ne\n"),
        vec![" a", "b", "c\nd\r", "e"]
    );
    assert_eq!(paragraphs(""), Vec::<&str>::new());
    assert_eq!(paragraphs("\n\n"), Vec::<&str>::new());
}

#[test]
fn paragraph_diff_shows_moves_as_removed_and_added() {
    assert_eq!(
        paragraph_diff(&["a", "b", "c", "d"], &["a", "c", "x", "b", "d"]),
        (vec![para(2, "b")], vec![para(3, "x"), para(4, "b")])
    );
    assert_eq!(paragraph_diff(&["a", "b"], &["a", "b"]), (vec![], vec![]));
    assert_eq!(
        paragraph_diff(&["a"], &["b", "c"]),
        (vec![para(1, "a")], vec![para(1, "b"), para(2, "c")])
    );
}

#[test]
fn same_paragraphs_with_other_spacing_is_a_rewrite_with_no_paragraph_change() {
    let log = log_of(&[system(0, "a\n\nb"), system(1, "a\n\n\nb")]);
    let report = analyze(&log);
    assert_eq!(
        report.rewrites,
        vec![HeadRewrite {
            seq: Some(1),
            line: 3,
            version: 2,
            previous: 1,
            removed: vec![],
            added: vec![],
            only_process_values: false,
            value_changes: vec![],
        }]
    );
    let lines = report.lines();
    assert_eq!(
        lines[5],
        line(
            Level::Info,
            "    same paragraphs; only the blank lines between them changed"
        )
    );
}

/// System prompt text: content texts joined with a blank line, else
/// data.text; request headers only with a string system; consecutive
/// equal versions collapse across event kinds.
#[test]
fn system_versions_come_from_system_messages_and_string_headers() {
    let log = log_of(&[
        json!({"type":"system/message","seq":0,"data":{"content":[{"text":"a"},{"text":"b"}],"text":"ignored"}}),
        json!({"type":"request/header","seq":1,"data":{"header":{"system":[{"text":"a"}]}}}),
        json!({"type":"request/header","seq":2,"data":{"header":{"system":"a\n\nb"}}}),
        json!({"type":"system/message","seq":3,"data":{"content":[],"text":"c"}}),
        json!({"type":"request/header","seq":4,"data":{"header":{"system":"a\n\nb"}}}),
    ]);
    let got: Vec<(Option<u64>, PromptOrigin, bool, &str)> = log
        .system
        .iter()
        .map(|v| (v.seq, v.origin, v.system_message, v.text.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (Some(0), PromptOrigin::SystemMessage, true, "a\n\nb"),
            (Some(3), PromptOrigin::SystemMessage, true, "c"),
            (Some(4), PromptOrigin::RequestHeader, false, "a\n\nb"),
        ]
    );
}

fn logged(sections: &[(&str, &str)]) -> Snapshot {
    Snapshot {
        seq: Some(1),
        line: 2,
        sections: sections.iter().map(|(n, t)| section(n, t)).collect(),
    }
}

#[test]
fn snapshot_update_replaces_appends_and_is_silent_when_unchanged() {
    let latest = logged(&[("harness:source", CHECKOUT), ("app:web-surface", &web(1))]);
    assert_eq!(snapshot_update(Some(&latest), &[]), None);
    assert_eq!(
        snapshot_update(Some(&latest), &[section("app:web-surface", &web(1))]),
        None
    );
    // A name given twice takes its last value; back to the logged one is no change.
    assert_eq!(
        snapshot_update(
            Some(&latest),
            &[
                section("app:web-surface", &web(2)),
                section("app:web-surface", &web(1))
            ]
        ),
        None
    );
    let update = snapshot_update(
        Some(&latest),
        &[
            section("x:new", "New."),
            section("app:web-surface", &web(2)),
        ],
    );
    assert_eq!(
        update,
        Some(Runtime {
            parts: vec![format!(
                "{SNAPSHOT_INTRO}\n\n{CHECKOUT}\n\n{}\n\nNew.",
                web(2)
            )],
            source: RuntimeSource {
                kind: "plugin",
                plugin: PLUGIN,
                form: "snapshot",
                sections: vec![
                    section("harness:source", CHECKOUT),
                    section("app:web-surface", &web(2)),
                    section("x:new", "New."),
                ],
            },
        })
    );
    assert_eq!(
        snapshot_update(None, &[section("app:web-surface", &web(1))]).map(|r| r.parts),
        Some(vec![format!("{SNAPSHOT_INTRO}\n\n{}", web(1))])
    );
}

#[test]
fn runtime_values_parse_at_the_first_equals_sign() {
    assert_eq!(
        parse_values(&["a=b=c".to_owned(), "d=".to_owned()]).unwrap(),
        vec![section("a", "b=c"), section("d", "")]
    );
    assert_eq!(
        parse_values(&["=x".to_owned()]).unwrap_err().to_string(),
        "--runtime \"=x\": expected NAME=TEXT"
    );
    assert_eq!(
        parse_values(&["x".to_owned()]).unwrap_err().to_string(),
        "--runtime \"x\": expected NAME=TEXT"
    );
}

//! Properties that must hold for any input (issue 8): the budget never lets
//! more than max-bytes through, escaping leaves no `</system-reminder>`
//! inside the frame, and the JSON output always parses back to what was
//! meant — through the serialisers for many random values, and through the
//! real binary for a handful of hostile files.
// Test code: a failed unwrap or expect is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;

use proptest::prelude::*;
use serde_json::json;

use agentctx::baseline::{Action, Change, Source};
use agentctx::render::{
    self, CLOSE, COMPACT, INTRO, Item, OPEN, REPLACE, Step, baseline_head, remove_text,
    replace_head, set_head, switch_head,
};

/// Text pieces that stress the renderer: the closing tag and near misses,
/// multibyte characters (cut points), controls, bidi, a BOM, line breaks.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(CLOSE.to_owned()),
        Just("</system-reminder".to_owned()),
        Just("<\\/system-reminder>".to_owned()),
        Just(OPEN.to_owned()),
        Just("é中😀".to_owned()),
        Just("\u{1b}[31m\u{0}\u{7f}\u{85}\u{202e}\u{feff}\u{2028}".to_owned()),
        Just("\n\n".to_owned()),
        "[a-z ]{0,40}",
        "(?s).{0,30}",
    ]
}

fn text(max_pieces: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(piece(), 0..max_pieces).prop_map(|v| v.concat())
}

/// One item of a baseline or a delta: (kind, path, extra, content).
fn item_spec() -> impl Strategy<Value = (u8, String, String, String)> {
    (0u8..5, text(3), text(2), text(12))
}

/// Builds an item of the given kind: baseline, set, replace, switch, remove.
fn item<'a>(kind: u8, path: &'a str, extra: &str, content: &'a str) -> Item<'a> {
    let (head, content) = match kind {
        0 => (baseline_head(path), content),
        1 => (set_head(path, extra), content),
        2 => (replace_head(path), content),
        3 => (switch_head(path, extra, extra), content),
        _ => (remove_text(path), ""),
    };
    Item {
        path,
        head,
        content,
    }
}

fn intro(choice: u8) -> String {
    match choice {
        0 => INTRO.to_owned(),
        1 => format!("{REPLACE}{INTRO}"),
        _ => String::new(),
    }
}

/// The closing tag appears at most once, as the frame's last bytes.
fn close_only_ends_the_frame(text: &str) -> bool {
    match text.find(CLOSE) {
        None => true,
        Some(i) => i + CLOSE.len() == text.len() && text.starts_with(OPEN),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn fit_never_exceeds_max_bytes_nor_leaks_the_closing_tag(
        specs in proptest::collection::vec(item_spec(), 0..5),
        intro_choice in 0u8..3,
        max in prop_oneof![-3i64..1, 1i64..600, 600i64..4000],
    ) {
        let items: Vec<Item<'_>> = specs
            .iter()
            .map(|(k, p, e, c)| item(*k, p, e, c))
            .collect();
        let intro = intro(intro_choice);
        let got = render::fit(&items, &intro, COMPACT, agentctx::jsnum::MaxBytes(max as f64));
        prop_assert_eq!(got.represented.len(), items.len());
        let Some(text) = &got.text else {
            prop_assert!(max <= 0 || items.is_empty());
            prop_assert!(got.represented.iter().all(|r| !r));
            return Ok(());
        };
        prop_assert!(max > 0 && !items.is_empty());
        prop_assert!(i64::try_from(text.len()).unwrap() <= max, "{} bytes > {}", text.len(), max);
        prop_assert!(close_only_ends_the_frame(text), "closing tag inside: {:?}", text);
        // Omitted files are the broadest ones, in order.
        let prefix: Vec<&str> = items.iter().take(got.omitted.len()).map(|i| i.path).collect();
        prop_assert_eq!(got.omitted.iter().map(String::as_str).collect::<Vec<_>>(), prefix);
        if let Some(t) = &got.truncated {
            prop_assert_eq!(t.path.as_str(), items[items.len() - 1].path);
            prop_assert!(t.included_bytes <= t.original_bytes);
        }
        if got.step == Step::Whole {
            prop_assert!(!got.is_cut());
            prop_assert!(got.represented.iter().all(|r| *r));
        }
        // A represented item's heading is in the text, escaped.
        for (it, represented) in items.iter().zip(&got.represented) {
            if *represented {
                prop_assert!(text.contains(&render::escape(&it.head)));
            }
        }
    }

    #[test]
    fn escaping_leaves_no_closing_tag(s in text(16)) {
        let escaped = render::escape(&s);
        prop_assert!(!escaped.contains(CLOSE));
        if !s.contains(CLOSE) {
            prop_assert_eq!(&escaped, &s);
        }
        let framed = render::build(&s, &s, [(s.as_str(), s.as_str())]);
        prop_assert!(close_only_ends_the_frame(&framed));
        prop_assert!(framed.starts_with(OPEN) && framed.ends_with(CLOSE));
    }

    #[test]
    fn json_documents_parse_back_to_their_values(
        kind in text(3),
        identity in proptest::option::of(text(6)),
        changes in proptest::collection::vec((0u8..3, text(4), text(4), proptest::option::of(text(2))), 0..4),
        part in text(20),
    ) {
        let changes: Vec<Change> = changes
            .into_iter()
            .map(|(a, scope, path, previous)| Change {
                action: [Action::Set, Action::Replace, Action::Remove][usize::from(a)],
                digest: (a != 2).then(|| agentctx::discovery::sha1_hex(path.as_bytes())),
                scope,
                path,
                previous_path: previous,
            })
            .collect();
        let source = Source::new(&kind, identity, changes);
        let doc = json!({"parts": [part], "source": source});
        let mut out = Vec::new();
        agentctx::output::json(&mut out, &doc).expect("write");
        prop_assert_eq!(out.last(), Some(&b'\n'));
        let back: serde_json::Value = serde_json::from_slice(&out).expect("parses");
        prop_assert_eq!(back, doc);
    }
}

/// Bytes of a file or directory name: anything but `/` and NUL, never `.`/`..`.
fn name_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            Just(b'\n'),
            Just(0x1b),
            Just(0xff),
            Just(0xc3),
            Just(b'<'),
            Just(b'\\'),
            (b'a'..=b'z'),
        ],
        1..10,
    )
    .prop_map(|mut v| {
        v.push(b'd');
        v
    })
}

fn content_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            piece().prop_map(String::into_bytes),
            proptest::collection::vec(any::<u8>(), 0..8),
            Just(vec![0xef, 0xbb, 0xbf]),
            Just(vec![0xf0, 0x9f, 0x98]),
        ],
        0..10,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// The real binary over a hostile file in a hostile directory: the JSON
    /// parses, its part is exactly the text output, and the file is read as
    /// dsh's reader reads it (SPEC 2.4): a NUL in the first 8192 bytes or
    /// invalid UTF-8 loads nothing (one warning), else one leading BOM goes,
    /// the digest is SHA-1 of the rest and the text is the SPEC's rendering.
    #[test]
    fn the_binary_json_always_parses_and_matches_the_text(
        name in name_bytes(),
        content in content_bytes(),
    ) {
        let t = common::Tree::new();
        t.dir(".git");
        let dir = t.root().join(OsStr::from_bytes(&name));
        fs::create_dir(&dir).expect("mkdir");
        fs::write(dir.join("AGENTS.md"), &content).expect("write");

        let mut cmd = t.cmd();
        cmd.args(["render", "--format", "json", "--cwd"]).arg(&dir);
        let json_out = common::bounded::run(&mut cmd);
        let mut cmd = t.cmd();
        cmd.args(["render", "--cwd"]).arg(&dir);
        let text_out = common::bounded::run(&mut cmd);
        prop_assert_eq!((json_out.code, text_out.code), (0, 0));
        let binary = content[..content.len().min(8192)].contains(&0);
        let body = content.strip_prefix(b"\xef\xbb\xbf".as_slice()).unwrap_or(&content);
        let decoded = match std::str::from_utf8(body) {
            Ok(text) if !binary => text,
            _ => {
                prop_assert_eq!(text_out.text(), "");
                prop_assert_eq!(&json_out.json()["parts"], &json!([]));
                prop_assert!(json_out.stderr.contains(": unreadable, not loaded: "), "{}", json_out.stderr);
                prop_assert_eq!(json_out.stderr.lines().count(), 1);
                return Ok(());
            }
        };
        prop_assert_eq!((json_out.stderr.as_str(), text_out.stderr.as_str()), ("", ""));
        let path = format!("{}/AGENTS.md", String::from_utf8_lossy(&name));
        let want = format!(
            "{OPEN}\n{}\n{CLOSE}",
            render::escape(&format!("{INTRO}\n\nInstructions from: {path}\n\n{decoded}"))
        );
        prop_assert_eq!(text_out.text(), want.clone());
        let doc = json_out.json();
        prop_assert_eq!(&doc["parts"], &json!([want]));
        prop_assert_eq!(&doc["files"][0]["path"], &json!(path));
        prop_assert_eq!(
            &doc["files"][0]["digest"],
            &json!(agentctx::discovery::sha1_hex(decoded.as_bytes()))
        );
        prop_assert_eq!(&doc["files"][0]["bytes"], &json!(decoded.len()));
    }
}

#[test]
fn close_tag_check_is_not_vacuous() {
    assert!(close_only_ends_the_frame(
        "<system-reminder>\nx\n</system-reminder>"
    ));
    assert!(!close_only_ends_the_frame(
        "<system-reminder>\n</system-reminder>x\n</system-reminder>"
    ));
    assert!(!close_only_ends_the_frame("x</system-reminder>"));
}

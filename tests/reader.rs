//! Files are read as dsh's filesystem provider reads them (SPEC 2.4, the
//! revision of issue 22), and the rest of that revision: ENOTDIR (2.3), the
//! all-mode replace (6), the resuming kind (5.2) and any number for
//! max-bytes (1). Each case was also run through the real dsh 0.1.0-rc.8
//! (docs/reading.md names the realdsh cases).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use common::message::{
    baseline, current_baseline_source, framed, rendered_baseline_event, replace, replace_section,
    set,
};
use common::{Tree, render_json, run, run_json};

const BOM: &[u8] = b"\xef\xbb\xbf";

/// A project `proj` (a `.git` directory) and an empty home.
fn project() -> Tree {
    let t = Tree::new();
    t.dir("proj/.git").dir("home");
    t
}

/// `render ARGS` in text: (stdout, stderr, exit code).
fn render(t: &Tree, args: &[&str]) -> (String, String, i32) {
    run(t.cmd().arg("render").args(args))
}

fn warning(line: &str) -> String {
    format!("agentctx: warning: {line}\n")
}

/// 9,000 bytes of text with one NUL at `at`.
fn nul_at(at: usize) -> Vec<u8> {
    let mut bytes = vec![b'a'; 9_000];
    bytes[at] = 0;
    bytes
}

#[test]
fn a_nul_in_the_first_8192_bytes_is_binary_and_later_is_text() {
    for at in [100, 8191] {
        let t = project();
        t.file("proj/AGENTS.md", nul_at(at))
            .file("proj/CLAUDE.md", "Sibling.\n");
        assert_eq!(
            render(&t, &["--cwd", "proj"]),
            (
                baseline(&[("CLAUDE.md", "Sibling.\n")]),
                warning(&format!(
                    "AGENTS.md: unreadable, not loaded: binary (NUL at byte {at})"
                )),
                0
            ),
            "NUL at {at}"
        );
    }
    let t = project();
    t.file("proj/AGENTS.md", nul_at(8192));
    let text = String::from_utf8(nul_at(8192)).unwrap();
    assert_eq!(
        render(&t, &["--cwd", "proj"]),
        (baseline(&[("AGENTS.md", &text)]), String::new(), 0)
    );
    // The sample is of raw bytes: a BOM counts toward the 8192.
    let t = project();
    let mut bytes = BOM.to_vec();
    bytes.extend(nul_at(8188));
    t.file("proj/AGENTS.md", &bytes);
    assert_eq!(
        render(&t, &["--cwd", "proj"]).1,
        warning("AGENTS.md: unreadable, not loaded: binary (NUL at byte 8191)")
    );
}

#[test]
fn the_user_global_file_is_read_the_same_way() {
    let t = project();
    t.file("home/.dsh/AGENTS.md", b"home \xff rule\n")
        .file("proj/AGENTS.md", "Project rule.\n");
    assert_eq!(
        render(&t, &["--cwd", "proj"]),
        (
            baseline(&[("AGENTS.md", "Project rule.\n")]),
            warning("~/.dsh/AGENTS.md: unreadable, not loaded: invalid UTF-8 at byte 5"),
            0
        )
    );
    let mut bom = BOM.to_vec();
    bom.extend(b"Home rule.\n");
    t.file("home/.dsh/AGENTS.md", &bom);
    assert_eq!(
        render(&t, &["--cwd", "proj"]),
        (
            baseline(&[
                ("~/.dsh/AGENTS.md", "Home rule.\n"),
                ("AGENTS.md", "Project rule.\n")
            ]),
            String::new(),
            0
        )
    );
}

/// A file that differs from its sibling only by a leading BOM is the same
/// file to dsh's dedup: it loads once.
#[test]
fn a_bom_alone_does_not_make_two_sources() {
    let t = project();
    let mut bom = BOM.to_vec();
    bom.extend(b"Same rule.\n");
    t.file("proj/AGENTS.md", "Same rule.\n")
        .file("proj/CLAUDE.md", &bom);
    assert_eq!(
        render(&t, &["--cwd", "proj"]),
        (baseline(&[("AGENTS.md", "Same rule.\n")]), String::new(), 0)
    );
}

/// The session log of a session started in `proj` whose baseline is what
/// `render` prints now (the current generation).
fn logged_session(t: &Tree, args: &[&str]) -> String {
    let mut render_args = vec!["--cwd", "proj"];
    render_args.extend(args);
    let rendered = render_json(t, &render_args);
    t.session_log(
        "session.jsonl",
        "proj",
        &[rendered_baseline_event(&rendered)],
    )
}

fn diff_json(t: &Tree, log: &str, args: &[&str]) -> Value {
    let (json, code) = run_json(
        t.cmd()
            .args(["diff", "--log", log, "--format", "json"])
            .args(args),
    );
    assert_eq!(code, 0, "diff {args:?}");
    json
}

#[test]
fn a_visible_file_that_became_invalid_gets_no_transition() {
    let t = project();
    t.file("proj/AGENTS.md", "Root rule.\n");
    let log = logged_session(&t, &[]);
    t.file("proj/AGENTS.md", b"Root rule.\n\xff\n");
    let (out, err, code) = run(t.cmd().args(["diff", "--log", &log]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "",
            warning("AGENTS.md: unreadable, not loaded: invalid UTF-8 at byte 11").as_str(),
            0
        )
    );
    // A BOM added in front keeps the digest: nothing to say either.
    let mut bom = BOM.to_vec();
    bom.extend(b"Root rule.\n");
    t.file("proj/AGENTS.md", &bom);
    let (out, err, code) = run(t.cmd().args(["diff", "--log", &log]));
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
}

#[test]
fn enotdir_under_a_visible_scope_freezes_it() {
    let t = project();
    t.file("proj/AGENTS.md", "Root rule.\n")
        .file("proj/sub/AGENTS.md", "Sub rule.\n");
    let rendered = render_json(&t, &["--cwd", "proj"]);
    // The session touched sub/ and got its file as a delta.
    let log = t.session_log(
        "session.jsonl",
        "proj",
        &[rendered_baseline_event(&rendered)],
    );
    let touched = diff_json(&t, &log, &["--touch", "sub/x.txt"]);
    let delta = json!({"type": "user/message", "seq": 1, "time": 1, "surfaceOp": "append",
        "data": {"role": "user", "content": [{"type": "text", "text": touched["parts"][0]}],
            "source": touched["source"]}});
    let log = t.session_log(
        "session.jsonl",
        "proj",
        &[rendered_baseline_event(&rendered), delta],
    );
    // sub/ is replaced by a regular file, and the root file edited.
    std::fs::remove_dir_all(t.path("proj/sub")).unwrap();
    t.file("proj/sub", "now a file\n")
        .file("proj/AGENTS.md", "Root rule v2.\n");
    let json = diff_json(&t, &log, &[]);
    assert_eq!(
        json["parts"],
        json!([framed(&[replace_section("AGENTS.md", "Root rule v2.\n")])])
    );
    assert_eq!(
        json["source"]["changes"],
        json!([replace(".\u{0}AGENTS.md", "AGENTS.md", "Root rule v2.\n")])
    );
}

/// The dsh home moving between `~/.dsh` and `$DSH_HOME` changes only the
/// user-global display path: an all-mode `replace` without previousPath
/// and with the "changed after it was loaded" text.
#[test]
fn a_user_global_display_path_change_is_a_plain_replace() {
    let t = project();
    t.file("home/.dsh/AGENTS.md", "Home rule.\n")
        .file("proj/AGENTS.md", "Root rule.\n");
    let log = logged_session(&t, &[]);
    // The same directory under another name: `$DSH_HOME/AGENTS.md` now.
    t.symlink("alt-home", "home/.dsh");
    let home = t.path_str("alt-home");
    let json = diff_json(&t, &log, &["--dsh-home", &home]);
    assert_eq!(
        json["parts"],
        json!([framed(&[replace_section(
            "$DSH_HOME/AGENTS.md",
            "Home rule.\n"
        )])])
    );
    assert_eq!(
        json["source"],
        json!({"kind": "agent-instructions", "form": "instructions", "changes": [
            replace("user-global\u{0}AGENTS.md", "$DSH_HOME/AGENTS.md", "Home rule.\n")
        ]})
    );
}

/// `--max-bytes` takes any number and prints it as JavaScript does, in the
/// notice and in the identity; NaN and infinity disable loading.
#[test]
fn max_bytes_takes_any_number_and_prints_it_as_javascript() {
    let t = project();
    t.file("proj/AGENTS.md", "a".repeat(150))
        .file("proj/CLAUDE.md", "b".repeat(150));
    let identity = |max: &str| {
        format!(
            r#"{{"projectRoot":"","projectRootMarkers":[".git"],"maxBytes":{max},"maxSourceBytes":1048576,"instructionFileCandidates":["AGENTS.md","CLAUDE.md"],"localInstructionFileCandidates":["AGENTS.local.md","CLAUDE.local.md"]}}"#
        )
    };
    let json = render_json(&t, &["--cwd", "proj", "--max-bytes", "600.5"]);
    let b = "b".repeat(150);
    assert_eq!(
        json["parts"],
        json!([framed(&[
            "Workspace instruction budget 600.5 bytes: omitted AGENTS.md".to_owned(),
            common::message::INTRO.to_owned(),
            common::message::section("CLAUDE.md", &b),
        ])])
    );
    assert_eq!(
        json["source"],
        current_baseline_source(
            &identity("600.5"),
            vec![set(".\u{0}CLAUDE.md", "CLAUDE.md", &b)]
        )
    );
    assert_eq!(json["maxBytes"], json!(600.5));
    let json = render_json(&t, &["--cwd", "proj", "--max-bytes", "1e5"]);
    assert_eq!(json["identity"], json!(identity("100000")));
    assert_eq!(json["maxBytes"], json!(100_000));
    for off in ["inf", "-inf", "nan", ".NaN", "-1", "0"] {
        let json = render_json(&t, &["--cwd", "proj", "--max-bytes", off]);
        assert_eq!(
            (&json["parts"], &json["source"]),
            (&json!([]), &Value::Null),
            "{off}"
        );
    }
    let json = render_json(&t, &["--cwd", "proj", "--max-bytes", "nan"]);
    assert_eq!(json["identity"], json!(identity("null")));
    let (out, err, code) = render(&t, &["--cwd", "proj", "--max-bytes", "1e21"]);
    assert_eq!((err.as_str(), code), ("", 0));
    assert!(out.starts_with("<system-reminder>\nThe following"), "{out}");
    let json = render_json(&t, &["--cwd", "proj", "--max-bytes", "1e21"]);
    assert_eq!(json["identity"], json!(identity("1e+21")));
}

#[test]
fn explain_says_why_and_where_a_file_is_unreadable() {
    let t = project();
    t.file("proj/AGENTS.md", b"caf\xe9\n")
        .file("proj/CLAUDE.md", nul_at(100))
        .file("proj/AGENTS.local.md", b"cut \xe2\x82")
        .file("proj/CLAUDE.local.md", [BOM, b"Local.\n"].concat());
    let (out, err, code) = run(t.cmd().args(["explain", "--cwd", "proj"]));
    assert_eq!((err.as_str(), code), ("", 0));
    let files = &out[out.find("\n  .  ").unwrap()..out.find("\n\nBudget").unwrap()];
    assert_eq!(
        files.replace(t.root().to_str().unwrap(), "@T"),
        "
  .  @T/proj
    base   AGENTS.md        unreadable   invalid UTF-8 at byte 3, not loaded
           CLAUDE.md        unreadable   binary (NUL at byte 100), not loaded
    local  AGENTS.local.md  unreadable   invalid UTF-8 at byte 4 (a sequence cut short by the end of the file), not loaded
           CLAUDE.local.md  loaded       7 bytes  9faeaf6b  leading BOM removed"
    );
    let (json, _) = run_json(
        t.cmd()
            .args(["explain", "--cwd", "proj", "--format", "json"]),
    );
    let cands = &json["directories"][1]["candidates"];
    let facts: Vec<Value> = cands
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            json!([
                c["outcome"],
                c["reason"],
                c["offset"],
                c["cutAtEnd"],
                c["leadingBom"]
            ])
        })
        .collect();
    assert_eq!(
        facts,
        [
            json!(["unreadable", "invalid-utf8", 3, false, false]),
            json!(["unreadable", "binary", 100, false, false]),
            json!(["unreadable", "invalid-utf8", 4, true, false]),
            json!(["loaded", null, null, null, true]),
        ]
    );
}

#[test]
fn check_reports_unreadable_files_as_errors_in_every_format() {
    let t = project();
    t.file("proj/AGENTS.md", "Fine.\n")
        .file("proj/a/AGENTS.md", b"caf\xe9\n")
        .file("proj/b/AGENTS.md", nul_at(100));
    let (out, err, code) = run(&mut common::check(&t, "proj", &[]));
    assert_eq!((err.as_str(), code), ("", 1));
    let (head, _) = out.split_once("\n\nchecked").unwrap();
    assert_eq!(
        head,
        "\
a
  error: a/AGENTS.md: invalid UTF-8 at byte 3: dsh reads instruction files as strict UTF-8, so sessions never load it
    fix: re-encode a/AGENTS.md as UTF-8: the first bad sequence is at byte 3

b
  error: b/AGENTS.md: binary (NUL at byte 100): dsh takes it for a binary file, so sessions never load it
    fix: remove the NUL byte at byte 100 of b/AGENTS.md (save it as UTF-8 text)"
    );
    let (json, code) = run_json(&mut common::check(&t, "proj", &["--format", "json"]));
    assert_eq!(code, 1);
    let found: Vec<Value> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| json!([f["rule"], f["severity"], f["kind"], f["file"], f["offset"]]))
        .collect();
    assert_eq!(
        found,
        [
            json!(["AGX008", "error", "invalidUtf8", "a/AGENTS.md", 3]),
            json!(["AGX017", "error", "binary", "b/AGENTS.md", 100]),
        ]
    );
    let (out, _, code) = run(&mut common::check(&t, "proj", &["--format", "github"]));
    assert_eq!(code, 1);
    let annotations: Vec<&str> = out.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(
        annotations,
        [
            "::error file=a/AGENTS.md,line=1,title=Invalid UTF-8::invalid UTF-8 at byte 3: dsh reads instruction files as strict UTF-8, so sessions never load it%0Afix: re-encode a/AGENTS.md as UTF-8: the first bad sequence is at byte 3",
            "::error file=b/AGENTS.md,line=1,title=Binary instruction file::binary (NUL at byte 100): dsh takes it for a binary file, so sessions never load it%0Afix: remove the NUL byte at byte 100 of b/AGENTS.md (save it as UTF-8 text)",
        ]
    );
    let (sarif, code) = run_json(&mut common::check(&t, "proj", &["--format", "sarif"]));
    assert_eq!(code, 1);
    let errors: Vec<String> = common::sarif_validator()
        .iter_errors(&sarif)
        .map(|e| e.to_string())
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    let results: Vec<Value> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["ruleId"], r["level"]]))
        .collect();
    assert_eq!(
        results,
        [json!(["AGX008", "error"]), json!(["AGX017", "error"])]
    );
}

//! `agentctx render` against real trees (issue 2): the real binary, HOME
//! and `DSH_HOME` inside a temp dir, whole outputs compared. The expected
//! message bytes are built here from the SPEC 4.1 constants, spelled out.

// Test code: a failed unwrap is a failed test (clippy's allow-unwrap-in-tests
// does not reach helper functions of an integration-test crate).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::message::{
    CLOSE, COMPACT, INTRO, OPEN, baseline, baseline_source, current_baseline_source,
    default_identity, framed, identity, section, set, sha1,
};
use common::{Tree, header, render_json, run, run_json};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

/// `render ARGS` in text form: asserts a clean exit and returns stdout.
fn render(tree: &Tree, args: &[&str]) -> String {
    render_warning(tree, args, "")
}

/// `render ARGS` in text form: asserts exit 0 with exactly `warnings` on
/// stderr and returns stdout.
fn render_warning(tree: &Tree, args: &[&str], warnings: &str) -> String {
    let (out, err, code) = run(tree.cmd().arg("render").args(args));
    assert_eq!((err.as_str(), code), (warnings, 0), "render {args:?}");
    out
}

/// A project `proj` with a `.git` directory and a user home with a dsh home.
fn project() -> Tree {
    let tree = Tree::new();
    tree.dir("proj/.git").dir("home");
    tree
}

#[test]
fn default_dsh_home_displays_as_tilde_path() {
    let tree = project();
    tree.file("home/.dsh/AGENTS.md", "global rules\n")
        .file("dsh/AGENTS.md", "custom home\n")
        .file("proj/AGENTS.md", "root rules\n");
    let default = baseline(&[
        ("~/.dsh/AGENTS.md", "global rules\n"),
        ("AGENTS.md", "root rules\n"),
    ]);
    assert_eq!(render(&tree, &["--cwd", "proj"]), default);
    // Blank DSH_HOME (ECMAScript trim, which includes U+FEFF) counts as unset.
    for blank in ["", " \t\n", "\u{feff}"] {
        let (out, err, code) = run(tree
            .cmd()
            .env("DSH_HOME", blank)
            .args(["render", "--cwd", "proj"]));
        assert_eq!((out, err, code), (default.clone(), String::new(), 0));
    }
    // The default test is lexical on the normalised path: `~/.dsh`, or the
    // same directory spelled with `.` and a trailing slash, is the default.
    assert_eq!(
        render(&tree, &["--cwd", "proj", "--dsh-home", "~/.dsh"]),
        default
    );
    let spelled = format!("{}/./.dsh/", tree.path("home").display());
    let (out, _, code) = run(tree
        .cmd()
        .env("DSH_HOME", &spelled)
        .args(["render", "--cwd", "proj"]));
    assert_eq!((out, code), (default, 0));

    let json = render_json(&tree, &["--cwd", "proj"]);
    assert_eq!(
        json["source"],
        current_baseline_source(
            &default_identity(""),
            vec![
                set(
                    "user-global\0AGENTS.md",
                    "~/.dsh/AGENTS.md",
                    "global rules\n"
                ),
                set(".\0AGENTS.md", "AGENTS.md", "root rules\n"),
            ]
        )
    );
}

#[test]
fn configured_dsh_home_displays_as_dsh_home_variable() {
    let tree = project();
    tree.file("home/.dsh/AGENTS.md", "global rules\n")
        .file("dsh/AGENTS.md", "custom home\n")
        .file("proj/AGENTS.md", "root rules\n");
    let custom = baseline(&[
        ("$DSH_HOME/AGENTS.md", "custom home\n"),
        ("AGENTS.md", "root rules\n"),
    ]);
    let dsh = tree.path("dsh");
    let (out, err, code) = run(tree
        .cmd()
        .env("DSH_HOME", &dsh)
        .args(["render", "--cwd", "proj"]));
    assert_eq!((out, err, code), (custom.clone(), String::new(), 0));
    // `~/x` expands against HOME, then normalises: ~/../dsh is <tree>/dsh.
    assert_eq!(
        render(&tree, &["--cwd", "proj", "--dsh-home", "~/../dsh"]),
        custom
    );
    // A relative --dsh-home resolves against the process working directory.
    assert_eq!(
        render(&tree, &["--cwd", "proj", "--dsh-home", "dsh"]),
        custom
    );
    // The flag wins over DSH_HOME.
    let (out, _, code) = run(tree.cmd().env("DSH_HOME", "/nonexistent").args([
        "render",
        "--cwd",
        "proj",
        "--dsh-home",
        "dsh",
    ]));
    assert_eq!((out, code), (custom, 0));
    // `~` alone is HOME itself, which is not the default home.
    tree.file("home/AGENTS.md", "home itself\n");
    assert_eq!(
        render(&tree, &["--cwd", "proj", "--dsh-home", "~"]),
        baseline(&[
            ("$DSH_HOME/AGENTS.md", "home itself\n"),
            ("AGENTS.md", "root rules\n"),
        ])
    );
    let json = render_json(&tree, &["--cwd", "proj", "--dsh-home", "dsh"]);
    assert_eq!(
        json["source"]["changes"][0],
        set(
            "user-global\0AGENTS.md",
            "$DSH_HOME/AGENTS.md",
            "custom home\n"
        )
    );
}

#[test]
fn dsh_home_at_the_project_root_loads_that_file_once() {
    let tree = project();
    tree.file("proj/AGENTS.md", "root rules\n")
        .file("proj/CLAUDE.md", "claude\n");
    let json = render_json(
        &tree,
        &[
            "--precedence",
            "first",
            "--cwd",
            "proj",
            "--dsh-home",
            "proj",
        ],
    );
    assert_eq!(
        json["parts"],
        json!([baseline(&[("$DSH_HOME/AGENTS.md", "root rules\n")])])
    );
    assert_eq!(
        json["source"]["changes"],
        json!([set("user-global", "$DSH_HOME/AGENTS.md", "root rules\n")])
    );
}

#[test]
fn git_file_marks_the_root() {
    let tree = Tree::new();
    tree.dir("home")
        .file("AGENTS.md", "above the root\n")
        .file("proj/.git", "gitdir: /elsewhere/.git/worktrees/proj\n")
        .file("proj/AGENTS.md", "root\n")
        .file("proj/sub/AGENTS.md", "sub\n");
    let json = render_json(&tree, &["--cwd", "proj/sub"]);
    let text = baseline(&[("AGENTS.md", "root\n"), ("sub/AGENTS.md", "sub\n")]);
    assert_eq!(json["parts"], json!([text]));
    assert_eq!(
        json["source"],
        current_baseline_source(
            &default_identity(".."),
            vec![
                set(".\0AGENTS.md", "AGENTS.md", "root\n"),
                set("sub\0AGENTS.md", "sub/AGENTS.md", "sub\n"),
            ]
        )
    );
    assert_eq!(json["projectRoot"], json!(tree.path_str("proj")));
}

#[test]
fn the_nearest_directory_with_any_marker_is_the_root() {
    let tree = Tree::new();
    tree.dir("home")
        .dir("proj/.git")
        .file("proj/AGENTS.md", "outer\n")
        .file("proj/sub/.hg", "")
        .file("proj/sub/AGENTS.md", "inner\n")
        .file("proj/sub/deep/AGENTS.md", "deep\n")
        .symlink("proj/sub/deep/.git", "missing-target");
    // A dangling .git link is no marker (stat follows it and fails); the
    // walk goes on to sub, where the second marker hits first.
    assert_eq!(
        render(
            &tree,
            &["--cwd", "proj/sub/deep", "--root-markers", ".git,.hg"]
        ),
        baseline(&[("AGENTS.md", "inner\n"), ("deep/AGENTS.md", "deep\n")])
    );
}

#[test]
fn without_a_marker_the_cwd_is_the_root() {
    let tree = Tree::new();
    tree.dir("home")
        .file("a/AGENTS.md", "a\n")
        .file("a/b/AGENTS.md", "b\n");
    let json = render_json(&tree, &["--cwd", "a/b"]);
    assert_eq!(json["parts"], json!([baseline(&[("AGENTS.md", "b\n")])]));
    assert_eq!(
        json["source"],
        current_baseline_source(
            &default_identity(""),
            vec![set(".\0AGENTS.md", "AGENTS.md", "b\n")]
        )
    );
    // An empty marker list means no marker, even with a .git present.
    tree.dir("a/.git");
    let json = render_json(&tree, &["--cwd", "a/b", "--root-markers", ""]);
    assert_eq!(json["parts"], json!([baseline(&[("AGENTS.md", "b\n")])]));
    assert_eq!(
        json["identity"],
        json!(identity(
            "",
            "",
            65536,
            1_048_576,
            r#""AGENTS.md","CLAUDE.md""#,
            r#""AGENTS.local.md","CLAUDE.local.md""#
        ))
    );
}

#[test]
fn agents_md_wins_over_claude_md_which_is_the_fallback() {
    let tree = project();
    tree.file("proj/AGENTS.md", "agents\n")
        .file("proj/CLAUDE.md", "claude\n")
        .file("proj/pkg/CLAUDE.md", "pkg claude\n");
    let json = render_json(&tree, &["--precedence", "first", "--cwd", "proj/pkg"]);
    assert_eq!(
        json["parts"],
        json!([baseline(&[
            ("AGENTS.md", "agents\n"),
            ("pkg/CLAUDE.md", "pkg claude\n")
        ])])
    );
    assert_eq!(
        json["source"],
        current_baseline_source(
            &default_identity(".."),
            vec![
                set(".", "AGENTS.md", "agents\n"),
                set("pkg", "pkg/CLAUDE.md", "pkg claude\n"),
            ]
        )
    );
}

#[test]
fn the_local_overlay_loads_after_the_base_file() {
    let tree = project();
    tree.file("proj/CLAUDE.local.md", "claude local\n")
        .file("proj/AGENTS.local.md", "agents local\n")
        .file("proj/CLAUDE.md", "base\n")
        .file("proj/pkg/CLAUDE.local.md", "pkg local only\n");
    let json = render_json(&tree, &["--precedence", "first", "--cwd", "proj/pkg"]);
    assert_eq!(
        json["parts"],
        json!([baseline(&[
            ("CLAUDE.md", "base\n"),
            ("AGENTS.local.md", "agents local\n"),
            ("pkg/CLAUDE.local.md", "pkg local only\n"),
        ])])
    );
    assert_eq!(
        json["source"]["changes"],
        json!([
            set(".", "CLAUDE.md", "base\n"),
            set(".\0local", "AGENTS.local.md", "agents local\n"),
            set("pkg\0local", "pkg/CLAUDE.local.md", "pkg local only\n"),
        ])
    );
}

#[test]
fn all_mode_loads_every_name_and_collapses_duplicates() {
    let tree = project();
    tree.file("home/.dsh/AGENTS.md", "pkg\n")
        .file("proj/AGENTS.md", "agents\n")
        .file("proj/CLAUDE.md", "claude\n")
        .file("proj/pkg/AGENTS.md", "pkg\n")
        .symlink("proj/pkg/CLAUDE.md", "AGENTS.md")
        // Same content once trimmed (U+FEFF is ECMAScript whitespace).
        .file("proj/pkg/AGENTS.local.md", "\u{feff}  pkg\n\n")
        .file("proj/pkg/CLAUDE.local.md", "pkg local\n");
    let json = render_json(&tree, &["--cwd", "proj/pkg", "--precedence", "all"]);
    assert_eq!(
        json["parts"],
        json!([baseline(&[
            ("~/.dsh/AGENTS.md", "pkg\n"),
            ("AGENTS.md", "agents\n"),
            ("CLAUDE.md", "claude\n"),
            ("pkg/AGENTS.md", "pkg\n"),
            ("pkg/CLAUDE.local.md", "pkg local\n"),
        ])])
    );
    assert_eq!(
        json["source"]["changes"],
        json!([
            set("user-global\0AGENTS.md", "~/.dsh/AGENTS.md", "pkg\n"),
            set(".\0AGENTS.md", "AGENTS.md", "agents\n"),
            set(".\0CLAUDE.md", "CLAUDE.md", "claude\n"),
            set("pkg\0AGENTS.md", "pkg/AGENTS.md", "pkg\n"),
            set("pkg\0CLAUDE.local.md", "pkg/CLAUDE.local.md", "pkg local\n"),
        ])
    );
}

#[test]
fn a_directory_named_agents_md_is_absent() {
    let tree = project();
    tree.file("proj/AGENTS.md/inner.md", "not an instruction file\n")
        .file("proj/CLAUDE.md", "claude\n");
    let expected = baseline(&[("CLAUDE.md", "claude\n")]);
    let warning =
        "agentctx: warning: AGENTS.md: not a regular file (directory), treated as absent\n";
    assert_eq!(render_warning(&tree, &["--cwd", "proj"], warning), expected);
    assert_eq!(
        render_warning(&tree, &["--cwd", "proj", "--precedence", "all"], warning),
        expected
    );
}

/// Runs `cmd` and fails (after killing it) if it has not exited by the
/// deadline: a hang guard, not a timing assertion.
fn run_with_deadline(cmd: &mut Command) -> (String, String, i32) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn agentctx");
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("agentctx blocked (on the FIFO?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn a_fifo_named_agents_md_is_absent_and_never_opened() {
    let tree = project();
    tree.fifo("proj/AGENTS.md")
        .fifo("proj/AGENTS.local.md")
        .file("proj/CLAUDE.md", "claude\n");
    let expected = baseline(&[("CLAUDE.md", "claude\n")]);
    for mode in ["first", "all"] {
        let got =
            run_with_deadline(
                tree.cmd()
                    .args(["render", "--cwd", "proj", "--precedence", mode]),
            );
        let warnings = "agentctx: warning: AGENTS.md: not a regular file (FIFO), treated as absent\n\
                        agentctx: warning: AGENTS.local.md: not a regular file (FIFO), treated as absent\n";
        assert_eq!(got, (expected.clone(), warnings.to_owned(), 0), "{mode}");
    }
}

#[test]
fn an_oversized_winner_does_not_fall_through_in_first_mode() {
    let tree = project();
    tree.file("proj/AGENTS.md", "0123456789X")
        .file("proj/CLAUDE.md", "fallback\n")
        .file("proj/a/AGENTS.md", "0123456789")
        // 8 bytes of text after an 11-byte stat size: the BOM counts
        // toward max-source-bytes (SPEC 2.4), so it is oversized.
        .file("proj/a/b/AGENTS.md", b"\xef\xbb\xbfabcdefgh")
        .file("proj/a/b/CLAUDE.md", "b fallback");
    let args = [
        "--precedence",
        "first",
        "--cwd",
        "proj/a/b",
        "--max-source-bytes",
        "10",
    ];
    let oversized = |path: &str| {
        format!(
            "agentctx: warning: {path}: oversized, not loaded: 11 bytes > max-source-bytes 10\n"
        )
    };
    let warnings = oversized("AGENTS.md") + &oversized("a/b/AGENTS.md");
    assert_eq!(
        render_warning(&tree, &args, &warnings),
        baseline(&[("a/AGENTS.md", "0123456789")])
    );
    let mut all = args;
    all[1] = "all";
    assert_eq!(
        render_warning(&tree, &all, &warnings),
        baseline(&[
            ("CLAUDE.md", "fallback\n"),
            ("a/AGENTS.md", "0123456789"),
            ("a/b/CLAUDE.md", "b fallback"),
        ])
    );
}

/// dsh's reader refuses ill-formed UTF-8 (SPEC 2.4): the file loads
/// nothing, its sibling still loads, and one warning names the raw byte
/// offset of the first bad sequence (a leading BOM counted).
#[test]
fn invalid_utf8_is_unreadable_and_loads_nothing() {
    let tree = project();
    tree.file(
        "proj/AGENTS.md",
        b"\xef\xbb\xbfbom kept\nbad \xff\xfe here \xe2\x82 end\n\xf0\x9f\x98",
    )
    .file("proj/CLAUDE.md", "fine\n")
    .file("proj/a/AGENTS.md", b"cut at the end \xf0\x9f\x98");
    let json = render_json(&tree, &["--cwd", "proj/a"]);
    assert_eq!(json["parts"], json!([baseline(&[("CLAUDE.md", "fine\n")])]));
    assert_eq!(
        json["files"],
        json!([{"path": "CLAUDE.md", "scope": ".\0CLAUDE.md", "digest": sha1("fine\n"), "bytes": 5, "represented": true}])
    );
    assert_eq!(
        render_warning(
            &tree,
            &["--cwd", "proj/a"],
            "agentctx: warning: AGENTS.md: unreadable, not loaded: invalid UTF-8 at byte 16\nagentctx: warning: a/AGENTS.md: unreadable, not loaded: invalid UTF-8 at byte 15 (a sequence cut short by the end of the file)\n"
        ),
        baseline(&[("CLAUDE.md", "fine\n")])
    );
}

/// One leading BOM goes before the digest and the text; a second one, or
/// one later in the file, is content (U+FEFF), and the stat size with the
/// BOM decides oversized.
#[test]
fn one_leading_bom_is_removed_and_a_second_one_stays() {
    let tree = project();
    tree.file("proj/AGENTS.md", b"\xef\xbb\xbfRoot rules.\n")
        .file(
            "proj/a/AGENTS.md",
            b"\xef\xbb\xbf\xef\xbb\xbfTwo\xef\xbb\xbf.\n",
        );
    let json = render_json(&tree, &["--cwd", "proj/a"]);
    let second = "\u{feff}Two\u{feff}.\n";
    assert_eq!(
        json["parts"],
        json!([baseline(&[
            ("AGENTS.md", "Root rules.\n"),
            ("a/AGENTS.md", second)
        ])])
    );
    assert_eq!(
        json["files"],
        json!([
            {"path": "AGENTS.md", "scope": ".\0AGENTS.md", "digest": sha1("Root rules.\n"), "bytes": 12, "represented": true},
            {"path": "a/AGENTS.md", "scope": "a\0AGENTS.md", "digest": sha1(second), "bytes": second.len(), "represented": true},
        ])
    );
    // The persisted digest is of the text without the BOM (with it, the
    // digest would be fa1e53d5...).
    assert_eq!(
        json["source"]["changes"][0]["digest"],
        json!("30eb2b6daf8552fda67051d5f65947aacc2ed4d6")
    );
}

#[test]
fn closing_tags_in_content_are_escaped() {
    let tree = project();
    tree.file("proj/AGENTS.md", "a </system-reminder> b\n");
    assert_eq!(
        render(&tree, &["--cwd", "proj"]),
        baseline(&[("AGENTS.md", "a <\\/system-reminder> b\n")])
    );
}

#[test]
fn identity_at_the_root_and_two_levels_below() {
    let tree = project();
    tree.file("proj/AGENTS.md", "root\n").dir("proj/a/b");
    let at_root = render_json(&tree, &["--cwd", "proj"]);
    assert_eq!(at_root["identity"], json!(default_identity("")));
    assert_eq!(
        at_root["source"]["baselineIdentity"],
        json!(default_identity(""))
    );
    let below = render_json(&tree, &["--cwd", "proj/a/b"]);
    assert_eq!(below["identity"], json!(default_identity("../..")));
    assert_eq!(
        below["identity"],
        json!(
            r#"{"projectRoot":"../..","projectRootMarkers":[".git"],"maxBytes":65536,"maxSourceBytes":1048576,"instructionFileCandidates":["AGENTS.md","CLAUDE.md"],"localInstructionFileCandidates":["AGENTS.local.md","CLAUDE.local.md"]}"#
        )
    );
    let custom = render_json(
        &tree,
        &[
            "--cwd",
            "proj/a/b",
            "--max-bytes",
            "4096",
            "--max-source-bytes",
            "2048",
            "--candidates",
            "CLAUDE.md,AGENTS.md",
            "--local-candidates",
            "",
            "--root-markers",
            ".git,.hg",
        ],
    );
    assert_eq!(
        custom["identity"],
        json!(identity(
            "../..",
            r#"".git",".hg""#,
            4096,
            2048,
            r#""CLAUDE.md","AGENTS.md""#,
            ""
        ))
    );
}

#[test]
fn max_bytes_zero_or_less_sends_nothing() {
    let tree = project();
    tree.file("proj/AGENTS.md", "root\n");
    for max in ["0", "-1"] {
        let (out, err, code) =
            run(tree
                .cmd()
                .args(["render", "--cwd", "proj", "--max-bytes", max]));
        assert_eq!((out, err, code), (String::new(), String::new(), 0), "{max}");
        let json = render_json(&tree, &["--cwd", "proj", "--max-bytes", max]);
        assert_eq!(json["parts"], json!([]));
        assert_eq!(json["source"], Value::Null);
        assert_eq!(json["bytes"], json!(0));
        assert_eq!(json["files"], json!([]), "loading is disabled");
    }
}

#[test]
fn nothing_to_load_prints_nothing() {
    let tree = project();
    let (out, err, code) = run(tree.cmd().args(["render", "--cwd", "proj", "--check"]));
    assert_eq!((out, err, code), (String::new(), String::new(), 0));
}

#[test]
fn check_exits_1_only_when_something_was_cut() {
    let tree = project();
    let big = "a".repeat(200);
    tree.file("proj/AGENTS.md", &big)
        .file("proj/pkg/AGENTS.md", "pkg\n");
    let notice = "Workspace instruction budget 400 bytes: omitted AGENTS.md".to_owned();
    let expected = framed(&[notice, INTRO.to_owned(), section("pkg/AGENTS.md", "pkg\n")]);
    assert!(expected.len() <= 400);
    let (out, err, code) = run(tree.cmd().args([
        "render",
        "--cwd",
        "proj/pkg",
        "--max-bytes",
        "400",
        "--check",
    ]));
    // stderr says what was cut (issue 27).
    let cut = "agentctx: the byte budget (max-bytes 400) cut this baseline: omitted AGENTS.md\n";
    assert_eq!((out, err, code), (expected, cut.to_owned(), 1));
    // Without --check the same cut is not a finding.
    let (_, _, code) = run(tree
        .cmd()
        .args(["render", "--cwd", "proj/pkg", "--max-bytes", "400"]));
    assert_eq!(code, 0);
    // Everything fits: exit 0.
    let (out, _, code) = run(tree.cmd().args(["render", "--cwd", "proj/pkg", "--check"]));
    assert_eq!(
        (out, code),
        (
            baseline(&[("AGENTS.md", &big), ("pkg/AGENTS.md", "pkg\n")]),
            0
        )
    );
}

#[test]
fn check_exits_1_when_the_last_file_is_truncated() {
    let tree = project();
    let big = "b".repeat(1000);
    tree.file("proj/AGENTS.md", &big);
    // The longest prefix whose message fits 400 bytes (the notice names it).
    let build = |n: usize| {
        framed(&[
            format!(
                "Workspace instruction budget 400 bytes: truncated AGENTS.md from 1000 to {n} bytes"
            ),
            INTRO.to_owned(),
            section("AGENTS.md", &big[..n]),
        ])
    };
    let n = (0..=1000).rev().find(|&n| build(n).len() <= 400).unwrap();
    assert!(n > 0);
    let (json, code) = run_json(tree.cmd().args([
        "render",
        "--cwd",
        "proj",
        "--max-bytes",
        "400",
        "--check",
        "--format",
        "json",
    ]));
    assert_eq!(code, 1);
    assert_eq!(json["parts"], json!([build(n)]));
    assert_eq!(json["omitted"], json!([]));
    assert_eq!(
        json["truncated"],
        json!([{"path": "AGENTS.md", "originalBytes": 1000, "includedBytes": n}])
    );
    // The digest is of the whole file, also when the budget truncated it.
    assert_eq!(
        json["source"]["changes"],
        json!([set(".\0AGENTS.md", "AGENTS.md", &big)])
    );
}

#[test]
fn compact_intro_when_the_normal_intro_leaves_no_room() {
    let tree = project();
    let big = "c".repeat(500);
    tree.file("proj/AGENTS.md", &big);
    // 300 bytes cannot hold INTRO (238 bytes) with the notice and the
    // heading: the compact intro is used.
    let build = |n: usize| {
        framed(&[
            format!(
                "Workspace instruction budget 300 bytes: truncated AGENTS.md from 500 to {n} bytes"
            ),
            COMPACT.to_owned(),
            section("AGENTS.md", &big[..n]),
        ])
    };
    let n = (0..=500).rev().find(|&n| build(n).len() <= 300).unwrap();
    assert!(n > 0);
    assert_eq!(
        render(&tree, &["--cwd", "proj", "--max-bytes", "300"]),
        build(n)
    );
}

#[test]
fn frameless_notice_when_no_frame_fits() {
    let tree = project();
    tree.file("proj/AGENTS.md", "c".repeat(500));
    let text = "Workspace instruction budget 200 bytes: truncated AGENTS.md from 500 to 0 bytes\n\nInstructions from: AGENTS.md\n\n";
    let json = render_json(&tree, &["--cwd", "proj", "--max-bytes", "200"]);
    assert_eq!(json["parts"], json!([text]));
    // The file is not represented; the baseline is still sent, with no changes.
    assert_eq!(
        json["source"],
        current_baseline_source(
            &identity(
                "",
                r#"".git""#,
                200,
                1_048_576,
                r#""AGENTS.md","CLAUDE.md""#,
                r#""AGENTS.local.md","CLAUDE.local.md""#
            ),
            vec![]
        )
    );
    // Too small for the heading: the notice alone, then the notice cut.
    let json = render_json(&tree, &["--cwd", "proj", "--max-bytes", "90"]);
    assert_eq!(
        json["parts"],
        json!(["Workspace instruction budget 90 bytes: truncated AGENTS.md from 500 to 0 bytes"])
    );
    let json = render_json(&tree, &["--cwd", "proj", "--max-bytes", "20"]);
    assert_eq!(json["parts"], json!(["Workspace instructio"]));
}

#[test]
fn json_report_has_every_field() {
    let tree = project();
    tree.file("home/.dsh/AGENTS.md", "global\n")
        .file("proj/AGENTS.md", "x".repeat(300))
        .file("proj/pkg/CLAUDE.md", "pkg\n");
    let notice = "Workspace instruction budget 500 bytes: omitted ~/.dsh/AGENTS.md, AGENTS.md";
    let text = framed(&[
        notice.to_owned(),
        INTRO.to_owned(),
        section("pkg/CLAUDE.md", "pkg\n"),
    ]);
    let json = render_json(&tree, &["--cwd", "proj/pkg", "--max-bytes", "500"]);
    let id = identity(
        "..",
        r#"".git""#,
        500,
        1_048_576,
        r#""AGENTS.md","CLAUDE.md""#,
        r#""AGENTS.local.md","CLAUDE.local.md""#,
    );
    assert_eq!(
        json,
        json!({
            "parts": [text],
            "source": current_baseline_source(&id, vec![set("pkg\0CLAUDE.md", "pkg/CLAUDE.md", "pkg\n")]),
            "identity": id,
            "projectRoot": tree.path_str("proj"),
            "bytes": text.len(),
            "maxBytes": 500,
            "omitted": ["~/.dsh/AGENTS.md", "AGENTS.md"],
            "truncated": [],
            "files": [
                {"path": "~/.dsh/AGENTS.md", "scope": "user-global\0AGENTS.md", "digest": sha1("global\n"), "bytes": 7, "represented": false},
                {"path": "AGENTS.md", "scope": ".\0AGENTS.md", "digest": sha1(&"x".repeat(300)), "bytes": 300, "represented": false},
                {"path": "pkg/CLAUDE.md", "scope": "pkg\0CLAUDE.md", "digest": sha1("pkg\n"), "bytes": 4, "represented": true},
            ],
        })
    );
}

#[test]
fn json_report_when_nothing_loads() {
    let tree = project();
    let json = render_json(&tree, &["--cwd", "proj"]);
    assert_eq!(
        json,
        json!({
            "parts": [],
            "source": null,
            "identity": default_identity(""),
            "projectRoot": tree.path_str("proj"),
            "bytes": 0,
            "maxBytes": 65536,
            "omitted": [],
            "truncated": [],
            "files": [],
        })
    );
}

#[test]
fn source_kind_flag_renames_the_kind() {
    let tree = project();
    tree.file("proj/AGENTS.md", "root\n");
    // The default is what dsh writes since 2026-08-13; the flag asks for the
    // earlier generation's name.
    let json = render_json(&tree, &["--cwd", "proj"]);
    assert_eq!(json["source"]["kind"], "agent-instructions");
    let json = render_json(
        &tree,
        &["--cwd", "proj", "--source-kind", "workspace-instructions"],
    );
    assert_eq!(
        json["source"],
        baseline_source(
            &default_identity(""),
            vec![set(".\0AGENTS.md", "AGENTS.md", "root\n")]
        )
    );
}

/// A `user/message` event carrying a rendered workspace message.
fn workspace_event(seq: u64, render: &Value, surface_op: Value) -> String {
    let content: Vec<Value> = render["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| json!({"type": "text", "text": p}))
        .collect();
    let mut event = json!({
        "type": "user/message", "seq": seq, "time": 0,
        "data": {"content": content, "source": render["source"], "role": "user", "id": format!("m{seq}")},
    });
    event["surfaceOp"] = surface_op;
    event.to_string()
}

#[test]
fn render_log_takes_cwd_and_settings_from_the_latest_baseline() {
    let tree = project();
    tree.file("proj/AGENTS.md", "agents\n")
        .file("proj/CLAUDE.md", "claude\n")
        .file("proj/sub/AGENTS.local.md", "local\n");
    // An old baseline under the defaults, then a newer one written by an
    // all-mode build with other settings, then compaction shadows the newer.
    let old = render_json(&tree, &["--cwd", "proj/sub"]);
    let newer = render_json(
        &tree,
        &[
            "--cwd",
            "proj/sub",
            "--candidates",
            "CLAUDE.md",
            "--local-candidates",
            "",
            "--max-bytes",
            "5000",
            "--precedence",
            "all",
            "--source-kind",
            "agent-instructions",
        ],
    );
    let log = [
        header(&tree.path("proj/sub")),
        workspace_event(0, &old, json!("append")),
        json!({"type":"assistant/message","seq":1,"time":0,"data":{"role":"assistant","content":[{"type":"text","text":"ok"}]},"surfaceOp":"append"}).to_string(),
        workspace_event(2, &newer, json!("append")),
        json!({"type":"assistant/message","seq":3,"time":0,"data":{"role":"assistant","content":[{"type":"text","text":"ok"}]},"surfaceOp":"append"}).to_string(),
        json!({"type":"user/message","seq":4,"time":0,"data":{"content":[{"type":"text","text":"Summary."}],"source":{"kind":"compaction","sourceEventSeqs":[2,3]},"role":"user","id":"c"},"surfaceOp":{"op":"replace","start":2,"end":3}}).to_string(),
    ]
    .join("\n")
        + "\n";
    tree.file("session.jsonl", &log);

    // Run from the tree root: the cwd comes from the header.
    let got = render_json(&tree, &["--log", "session.jsonl"]);
    assert_eq!(got["parts"], newer["parts"]);
    assert_eq!(got["source"], newer["source"]);
    assert_eq!(
        got["source"],
        current_baseline_source(
            &identity("..", r#"".git""#, 5000, 1_048_576, r#""CLAUDE.md""#, ""),
            vec![set(".\0CLAUDE.md", "CLAUDE.md", "claude\n")]
        )
    );
    assert_eq!(
        render(&tree, &["--log", "session.jsonl"]),
        baseline(&[("CLAUDE.md", "claude\n")])
    );
    // Flags override the logged values; --cwd overrides the header.
    let flagged = render_json(
        &tree,
        &[
            "--log",
            "session.jsonl",
            "--cwd",
            "proj",
            "--candidates",
            "AGENTS.md",
            "--precedence",
            "first",
            "--source-kind",
            "workspace-instructions",
        ],
    );
    assert_eq!(
        flagged["source"],
        baseline_source(
            &identity("", r#"".git""#, 5000, 1_048_576, r#""AGENTS.md""#, ""),
            vec![set(".", "AGENTS.md", "agents\n")]
        )
    );
}

#[test]
fn text_output_has_no_trailing_newline_when_piped() {
    let tree = project();
    tree.file("proj/AGENTS.md", "root");
    let out = render(&tree, &["--cwd", "proj"]);
    assert_eq!(
        out,
        format!("{OPEN}\n{INTRO}\n\nInstructions from: AGENTS.md\n\nroot\n{CLOSE}")
    );
}

#[test]
fn candidate_lists_drop_entries_that_are_not_file_names() {
    let tree = project();
    tree.file("proj/x", "x is not a candidate\n")
        .file("proj/AGENTS.md", "agents\n")
        .file("proj/AGENTS.local.md", "local\n")
        .file("proj/CLAUDE.md", "claude\n");
    let json = render_json(
        &tree,
        &[
            "--cwd",
            "proj",
            "--candidates",
            ",./x,.,..,a\\b,AGENTS.md",
            "--local-candidates",
            "",
        ],
    );
    assert_eq!(
        json["parts"],
        json!([baseline(&[("AGENTS.md", "agents\n")])])
    );
    assert_eq!(
        json["identity"],
        json!(identity(
            "",
            r#"".git""#,
            65536,
            1_048_576,
            r#""AGENTS.md""#,
            ""
        ))
    );
}

#[test]
fn an_empty_file_is_represented_by_its_heading() {
    let tree = project();
    tree.file("proj/AGENTS.md", "");
    let json = render_json(&tree, &["--cwd", "proj"]);
    assert_eq!(
        json["parts"],
        json!([framed(&[
            INTRO.to_owned(),
            "Instructions from: AGENTS.md\n\n".to_owned()
        ])])
    );
    assert_eq!(
        json["source"]["changes"],
        json!([{"action": "set", "scope": ".\0AGENTS.md", "path": "AGENTS.md", "digest": "da39a3ee5e6b4b0d3255bfef95601890afd80709"}])
    );
}

#[test]
fn text_output_ends_with_a_newline_on_a_terminal() {
    // util-linux `script` gives the binary a pseudo-terminal as stdout.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipping: util-linux `script` is not installed");
        return;
    }
    let tree = project();
    tree.file("proj/AGENTS.md", "root\n");
    let bin = assert_cmd::cargo::cargo_bin("agentctx");
    let line = format!(
        "'{}' --color never render --cwd '{}'",
        bin.display(),
        tree.path("proj").display()
    );
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env("HOME", tree.path("home"))
        .env_remove("DSH_HOME")
        .stdin(Stdio::null())
        .output()
        .expect("script");
    assert!(out.status.success(), "{out:?}");
    // The terminal shows every `\n` as `\r\n`; one more ends the output.
    let expected = baseline(&[("AGENTS.md", "root\n")]) + "\n";
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        expected.replace('\n', "\r\n")
    );
}

#[test]
fn non_utf8_directory_names_display_with_replacement_characters() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let tree = project();
    let dir = tree.path("proj").join(OsStr::from_bytes(b"caf\xe9"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("AGENTS.md"), "latin-1 name\n").unwrap();
    let (json, code) = run_json(
        tree.cmd()
            .args(["render", "--format", "json", "--cwd"])
            .arg(&dir),
    );
    assert_eq!(code, 0);
    assert_eq!(
        json["parts"],
        json!([baseline(&[("caf\u{fffd}/AGENTS.md", "latin-1 name\n")])])
    );
    assert_eq!(
        json["source"]["changes"],
        json!([set(
            "caf\u{fffd}\0AGENTS.md",
            "caf\u{fffd}/AGENTS.md",
            "latin-1 name\n"
        )])
    );
}

/// SPEC 1 "Harness generations": without flags the current dsh is
/// reproduced (every candidate loads, kind `agent-instructions`); the flags
/// ask for design note 000's generation.
#[test]
fn defaults_follow_the_current_generation_and_flags_ask_for_the_earlier_one() {
    let tree = project();
    tree.file("proj/AGENTS.md", "agents\n")
        .file("proj/CLAUDE.md", "claude\n");
    let json = render_json(&tree, &["--cwd", "proj"]);
    assert_eq!(
        json["parts"],
        json!([baseline(&[
            ("AGENTS.md", "agents\n"),
            ("CLAUDE.md", "claude\n")
        ])])
    );
    assert_eq!(
        json["source"],
        current_baseline_source(
            &default_identity(""),
            vec![
                set(".\0AGENTS.md", "AGENTS.md", "agents\n"),
                set(".\0CLAUDE.md", "CLAUDE.md", "claude\n"),
            ]
        )
    );
    let json = render_json(
        &tree,
        &[
            "--cwd",
            "proj",
            "--precedence",
            "first",
            "--source-kind",
            "workspace-instructions",
        ],
    );
    assert_eq!(
        json["parts"],
        json!([baseline(&[("AGENTS.md", "agents\n")])])
    );
    assert_eq!(
        json["source"],
        baseline_source(
            &default_identity(""),
            vec![set(".", "AGENTS.md", "agents\n")]
        )
    );
}

//! Regression tests for check defects (issues 12 and 13): each failed
//! before its fix. Whole outputs are compared; the superlinear cases bound
//! the output's growth, not the wall time.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use common::{Tree, check, run, run_json};

/// render and check describe one directory with one JSON shape: with
/// `--max-bytes 0` neither lists files (check listed them, render did not).
#[test]
fn render_and_check_json_agree_on_a_directory_with_max_bytes_zero() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/AGENTS.md", "Rules.\n")
        .dir("nohome");
    let nohome = t.path("nohome");
    for max in ["0", "1000"] {
        let args = ["--max-bytes", max, "--dsh-home", nohome.to_str().unwrap()];
        let (rendered, _) = run_json(
            t.cmd()
                .current_dir(t.path("r"))
                .arg("render")
                .args(args)
                .args(["--format", "json"]),
        );
        let (checked, _) = run_json(&mut check(
            &t,
            "r",
            &[&args[..], &["--format", "json"]].concat(),
        ));
        let mut dir = checked["directories"][0].clone();
        let obj = dir.as_object_mut().unwrap();
        assert_eq!(obj.remove("dir"), Some(json!(".")));
        assert!(obj.remove("wholeBytes").is_some());
        let mut render = rendered.clone();
        let robj = render.as_object_mut().unwrap();
        robj.remove("parts");
        robj.remove("source");
        assert_eq!(dir, render, "--max-bytes {max}");
    }
}

#[test]
fn exclude_takes_names_or_paths_and_warns_when_it_matches_nothing() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/web/.agents/AGENTS.md", "Web agents.\n")
        .file("r/api/.agents/AGENTS.md", "Api agents.\n");
    let (out, err, code) = run(&mut check(
        &t,
        "r",
        &[
            "--exclude",
            "web/.agents",
            "--exclude",
            "nothing/here",
            "--exclude",
            "absent",
        ],
    ));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "checked 1 of 4 directories; largest baseline: 328 bytes in api/.agents; 0 errors, 0 warnings\n",
            "\
agentctx: warning: --exclude nothing/here matched no directory (a NAME, or a PATH relative to the checked tree)
agentctx: warning: --exclude absent matched no directory (a NAME, or a PATH relative to the checked tree)
",
            0
        )
    );
    let (out, err, _) = run(&mut check(&t, "r", &["--exclude", ".agents"]));
    assert_eq!(
        (out.as_str(), err.as_str()),
        (
            "checked 0 of 3 directories; no instruction files; 0 errors, 0 warnings\n",
            ""
        )
    );
}

#[test]
fn github_annotation_carries_the_line_of_a_system_reminder() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/AGENTS.md", "One.\nTwo.\nx </system-reminder>\n");
    let (out, _, code) = run(&mut check(&t, "r", &["--format", "github"]));
    assert_eq!(
        (out.as_str(), code),
        (
            "\
::warning file=AGENTS.md,line=3,title=Literal </system-reminder>::literal </system-reminder> on line 3: sessions see it escaped as <\\/system-reminder>%0Afix: remove or reword the </system-reminder> on line 3
agentctx check: checked 1 of 1 directory; largest baseline: 336 bytes in .; 0 errors, 1 warning
",
            0
        )
    );
}

#[test]
fn github_file_property_escapes_control_and_bidi_characters() {
    let t = Tree::new();
    t.dir("r/.git").file("r/a\u{202e}b\u{7}/AGENTS.md", "");
    let (out, _, _) = run(&mut check(&t, "r", &["--format", "github"]));
    assert_eq!(
        out.lines().next().unwrap(),
        "::warning file=a\\u{202e}b\\x07/AGENTS.md,line=1,title=Empty instruction file::empty file: sessions get an empty section%0Afix: add instructions to it, or delete it"
    );
}

#[test]
fn first_mode_shadowed_stub_is_not_reported_and_all_mode_says_both_load() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/AGENTS.md", "Rules.\nShared line.\n")
        .file("r/CLAUDE.md", "AGENTS.md");
    let (out, _, code) = run(&mut check(&t, "r", &["--precedence", "first"]));
    assert_eq!(
        (out.as_str(), code),
        (
            "checked 1 of 1 directory; largest baseline: 324 bytes in .; 0 errors, 0 warnings\n",
            0
        )
    );
    t.file("r/CLAUDE.md", "Other rules.\nShared line.\n");
    let (out, _, _) = run(&mut check(&t, "r", &["--precedence", "all"]));
    assert_eq!(
        out,
        "\
.
  warning: CLAUDE.md: two sources of truth: differs from AGENTS.md and both load; 12 bytes of overlapping instructions
    fix: merge CLAUDE.md into AGENTS.md and make it a symlink to it (or a pointer: @AGENTS.md)

checked 1 of 1 directory; largest baseline: 382 bytes in .; 0 errors, 1 warning
"
    );
}

#[test]
fn a_file_reached_twice_through_a_symlink_is_a_warning() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/.agents/AGENTS.md", "Shared rules.\n")
        .symlink("r/AGENTS.md", ".agents/AGENTS.md");
    let (out, _, code) = run(&mut check(&t, "r", &["--precedence", "all"]));
    assert_eq!(
        (out.as_str(), code),
        (
            "\
.agents
  warning: AGENTS.md: loads twice: a symlink to .agents/AGENTS.md, which a session in .agents also loads, so it gets the same 14 bytes twice
    fix: delete the symlink AGENTS.md or stop loading .agents/AGENTS.md under its own name: one of them is enough

checked 2 of 2 directories; largest baseline: 372 bytes in .agents; 0 errors, 1 warning
",
            0
        )
    );
}

/// A chain `depth` directories deep with a 1 KB AGENTS.md per level, checked
/// with a budget that omits most of them: (text bytes, JSON omitted lists).
fn deep(depth: usize) -> (String, Value) {
    let t = Tree::new();
    t.dir("r/.git");
    let mut rel = "r".to_owned();
    for _ in 0..depth {
        t.file(
            &format!("{rel}/AGENTS.md"),
            format!("{}\n", "x".repeat(1023)),
        );
        rel.push_str("/d");
    }
    let (out, _, code) = run(&mut check(&t, "r", &["--max-bytes", "3000"]));
    assert_eq!(code, 1);
    let (json, _) = run_json(&mut check(
        &t,
        "r",
        &["--max-bytes", "3000", "--format", "json"],
    ));
    (out, json)
}

#[test]
fn deep_over_budget_trees_name_a_few_omitted_files_and_count_the_rest() {
    let (small, json) = deep(20);
    // One finding per file that loses bytes: the root file is omitted by
    // the deepest 18 directories' sessions, which it names three of.
    let root = small.lines().nth(1).unwrap();
    assert_eq!(
        root,
        "  error: AGENTS.md: over budget: cut from 1,024 to 0 bytes for sessions in 18 directories (d/d, d/d/d, d/d/d/d and 15 more)"
    );
    let deepest = ["d"; 19].join("/");
    assert_eq!(
        small.lines().nth(2).unwrap(),
        format!(
            "    fix: cut 18,772 bytes from what a session in {deepest} loads (the largest excess), or raise max-bytes (now 3,000) to 21,772"
        )
    );
    // JSON keeps the whole lists.
    let findings = json["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 19);
    let dirs = findings[0]["directories"].as_array().unwrap();
    assert_eq!(dirs.len(), 18);
    assert_eq!(dirs.last().unwrap(), &json!(deepest));
    // Doubling the depth about doubles the file names printed (a whole
    // list per directory would quadruple them). Names, not bytes: each
    // directory's own path grows with the depth.
    let (large, _) = deep(40);
    let names = |text: &str| text.matches("AGENTS.md").count();
    let count = |text: &str| f64::from(u32::try_from(names(text)).unwrap());
    let ratio = count(&large) / count(&small);
    assert!(ratio < 2.5, "names grew {ratio:.2}x for 2x the depth");
}

/// Past 65,535 configured names (a u16 index once wrapped), the name at
/// that index is still found.
#[test]
fn more_than_65535_candidate_names_still_find_the_file() {
    let t = Tree::new();
    t.dir("r/.git").file("r/AGENTS.local.md", "Local.\n");
    let base = vec!["x"; 60_000].join(",");
    let local = format!("{},AGENTS.local.md", vec!["y"; 5_600].join(","));
    let (got, code) = run_json(&mut check(
        &t,
        "r",
        &[
            "--candidates",
            &base,
            "--local-candidates",
            &local,
            "--format",
            "json",
        ],
    ));
    assert_eq!(code, 0);
    assert_eq!(got["checked"], json!(1));
    assert_eq!(
        got["directories"][0]["files"][0]["path"],
        json!("AGENTS.local.md")
    );
}

/// An instruction file that is a symlink to `/proc/self/environ`: a link
/// into process state. check errors (not "leaves the project"); render and
/// explain warn on stderr. dsh's reader takes the NUL-separated environment
/// for a binary file (SPEC 2.4), so nothing of it is sent after all: that is
/// an error of its own, and the payload stays empty.
#[test]
fn a_symlink_into_proc_is_an_error_for_check_and_a_warning_for_render_and_explain() {
    let t = Tree::new();
    t.dir("r/.git").symlink("r/AGENTS.md", "/proc/self/environ");
    let (out, err, code) = run(&mut check(&t, "r", &[]));
    assert_eq!((err.as_str(), code), ("", 1), "{out}");
    let (head, _) = out.split_once("\n\nchecked").unwrap();
    // Where the first NUL falls depends on the child's first variable.
    let nul = head
        .split_once("NUL at byte ")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map_or("?", |(n, _)| n);
    assert_eq!(
        head,
        format!("\
.
  error: AGENTS.md: binary (NUL at byte {nul}): dsh takes it for a binary file, so sessions never load it
    fix: remove the NUL byte at byte {nul} of AGENTS.md (save it as UTF-8 text)
  error: AGENTS.md: symlink to a secret: points to /proc/self/environ, in /proc, /sys or /dev, so sessions send what it holds to the model
    fix: replace the symlink with a regular file that holds only instructions")
    );
    let secret = "agentctx: warning: AGENTS.md: symlink to /proc/self/environ, in /proc, /sys or /dev: sessions send what it holds to the model\n";
    let mut render = t.cmd();
    render
        .current_dir(t.path("r"))
        .arg("render")
        .env("AGENTCTX_TEST_SECRET", "s3cret");
    let (out, err, code) = run(&mut render);
    assert_eq!((out.as_str(), err.as_str(), code), ("", secret, 0));
    let (out, err, code) = run(t.cmd().current_dir(t.path("r")).arg("explain"));
    assert_eq!((err.as_str(), code), (secret, 0));
    assert!(out.contains("AGENTS.md"), "{out}");
}

#[test]
fn a_symlink_into_the_home_directory_outside_the_project_is_an_error() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("home/.ssh/id_rsa", "PRIVATE KEY\n")
        .symlink("r/AGENTS.md", "../home/.ssh/id_rsa")
        .file("home/.dsh/shared.md", "Mine.\n")
        .symlink("r/a/AGENTS.md", "../../home/.dsh/shared.md");
    let (out, err, code) = run(&mut check(&t, "r", &[]));
    let key = t.path("home/.ssh/id_rsa");
    assert_eq!(
        (out, err.as_str(), code),
        (
            format!(
                "\
.
  error: AGENTS.md: symlink to a secret: points to ../home/.ssh/id_rsa, which resolves to {} in the home directory outside the project, so sessions send what it holds to the model
    fix: replace the symlink with a regular file that holds only instructions

a
  warning: a/AGENTS.md: symlink leaves the project: points to ../../home/.dsh/shared.md, which resolves outside its project root (.)
    fix: copy the instructions into the project, or point the link at a file inside its project root (.), so that every checkout gets the same text

checked 2 of 2 directories; largest baseline: 356 bytes in a; 1 error, 1 warning
",
                key.display()
            ),
            "",
            1
        )
    );
}

//! `agentctx check` on temp monorepos: the findings (JSON parsed back), the
//! exact text and GitHub outputs, the exit codes, and that every checked
//! directory's numbers are what `agentctx render --cwd DIR` gives.

// Test code: a panic is the failure report (helpers outside #[test] fns
// are not covered by clippy.toml's allow-*-in-tests).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use common::{Lcg, Tree, run, run_json, strings_at};

/// The byte limits of the monorepo fixture: `packages/big` is over budget,
/// `packages/huge/AGENTS.md` over max-source-bytes.
const LIMITS: [&str; 4] = ["--max-bytes", "1000", "--max-source-bytes", "1500"];

/// A monorepo: nested packages, an over-budget directory, an oversized file,
/// a drifting CLAUDE.md, a symlink leaving the tree, a nested `.git` (a
/// submodule's `.git` file), an in-tree symlink with the same content (no
/// finding), a `.git` directory holding a decoy AGENTS.md, and `node_modules`.
fn monorepo() -> Tree {
    let t = Tree::new();
    t.file("mono/.git/HEAD", "ref: refs/heads/main\n")
        .file("mono/.git/AGENTS.md", "never read\n")
        .file("mono/AGENTS.md", "# Monorepo\nUse pnpm.\n")
        .symlink("mono/CLAUDE.md", "AGENTS.md")
        .file("mono/docs/guide.md", "guide\n")
        .file("mono/packages/app/AGENTS.md", "App: run pnpm test.\n")
        .file("mono/packages/app/CLAUDE.md", "App: run npm test.\n")
        .file("mono/packages/app/src/AGENTS.local.md", "Local notes.\n")
        .file(
            "mono/packages/big/AGENTS.md",
            format!("{}\n", "B".repeat(900)),
        )
        .file("mono/packages/huge/AGENTS.md", "H".repeat(2000))
        .file("outside/AGENTS.md", "Outside rules\n")
        .symlink(
            "mono/packages/shared/AGENTS.md",
            "../../../outside/AGENTS.md",
        )
        .file("mono/vendor/lib/.git", "gitdir: ../../.git/modules/lib\n")
        .file("mono/vendor/lib/AGENTS.md", "Vendored lib.\n")
        .file("mono/vendor/lib/src/CLAUDE.md", "Vendored src.\n")
        .file("mono/node_modules/pkg/AGENTS.md", "dependency\n")
        .dir("nohome");
    t
}

/// `agentctx check` run from `tree/cwd`. Unless ARGS name a precedence, the
/// earlier generation's `first` (whose drift rule most cases here pin).
fn check(tree: &Tree, cwd: &str, args: &[&str]) -> Command {
    if args.contains(&"--precedence") {
        common::check(tree, cwd, args)
    } else {
        common::check(tree, cwd, &[&["--precedence", "first"], args].concat())
    }
}

/// The monorepo check every output test runs.
fn mono_check(tree: &Tree, format: &str) -> Command {
    let mut args = LIMITS.to_vec();
    args.extend(["--exclude", "node_modules", "--format", format]);
    check(tree, "mono", &args)
}

#[test]
fn text_output_groups_findings_by_directory_with_a_summary() {
    let t = monorepo();
    let (out, err, code) = run(&mut mono_check(&t, "text"));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "\
.
  error: AGENTS.md: over budget: cut from 21 to 0 bytes for sessions in 1 directory (packages/big)
    fix: cut 271 bytes from what a session in packages/big loads (the largest excess), or raise max-bytes (now 1,000) to 1,271

packages/app
  warning: packages/app/CLAUDE.md: drift: differs from packages/app/AGENTS.md, which wins, so sessions never see this file
    fix: delete packages/app/CLAUDE.md, or make it a symlink to packages/app/AGENTS.md (or a pointer: @AGENTS.md)

packages/big
  error: packages/big/AGENTS.md: over budget: cut from 901 to 567 bytes for sessions in 1 directory (packages/big)
    fix: cut 271 bytes from what a session in packages/big loads (the largest excess), or raise max-bytes (now 1,000) to 1,271

packages/huge
  error: packages/huge/AGENTS.md: too large: 2000 bytes, over max-source-bytes 1500, so sessions do not load it
    fix: cut 500 bytes from packages/huge/AGENTS.md, or raise max-source-bytes (now 1,500) to 2,000

packages/shared
  warning: packages/shared/AGENTS.md: symlink leaves the project: points to ../../../outside/AGENTS.md, which resolves outside its project root (.)
    fix: copy the instructions into the project, or point the link at a file inside its project root (.), so that every checkout gets the same text

checked 8 of 11 directories; largest baseline: 1000 bytes in packages/big; 3 errors, 2 warnings
",
            "",
            1
        )
    );
}

#[test]
fn github_output_is_one_workflow_command_per_finding() {
    let t = monorepo();
    let (out, err, code) = run(&mut mono_check(&t, "github"));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "\
::error file=AGENTS.md,line=1,title=Instruction budget exceeded::over budget: cut from 21 to 0 bytes for sessions in 1 directory (packages/big)%0Afix: cut 271 bytes from what a session in packages/big loads (the largest excess), or raise max-bytes (now 1,000) to 1,271
::warning file=packages/app/CLAUDE.md,line=1,title=Instruction files drift::drift: differs from packages/app/AGENTS.md, which wins, so sessions never see this file%0Afix: delete packages/app/CLAUDE.md, or make it a symlink to packages/app/AGENTS.md (or a pointer: @AGENTS.md)
::error file=packages/big/AGENTS.md,line=1,title=Instruction budget exceeded::over budget: cut from 901 to 567 bytes for sessions in 1 directory (packages/big)%0Afix: cut 271 bytes from what a session in packages/big loads (the largest excess), or raise max-bytes (now 1,000) to 1,271
::error file=packages/huge/AGENTS.md,line=1,title=Instruction file too large::too large: 2000 bytes, over max-source-bytes 1500, so sessions do not load it%0Afix: cut 500 bytes from packages/huge/AGENTS.md, or raise max-source-bytes (now 1,500) to 2,000
::warning file=packages/shared/AGENTS.md,line=1,title=Symlink leaves the project::symlink leaves the project: points to ../../../outside/AGENTS.md, which resolves outside its project root (.)%0Afix: copy the instructions into the project, or point the link at a file inside its project root (.), so that every checkout gets the same text
agentctx check: checked 8 of 11 directories; largest baseline: 1000 bytes in packages/big; 3 errors, 2 warnings
",
            "",
            1
        )
    );
}

#[test]
fn json_output_pins_every_finding() {
    let t = monorepo();
    let (got, code) = run_json(&mut mono_check(&t, "json"));
    assert_eq!(code, 1);
    assert_eq!(got["paths"], json!([t.path("mono")]));
    assert_eq!(
        [
            &got["walked"],
            &got["checked"],
            &got["maxBytes"],
            &got["largest"],
            &got["errors"],
            &got["warnings"]
        ],
        [
            &json!(11),
            &json!(8),
            &json!(1000),
            &json!({"dir": "packages/big", "bytes": 1000}),
            &json!(3),
            &json!(2)
        ]
    );
    assert_eq!(got["findings"], mono_findings());
    let dirs = strings_at(&got["directories"], "dir");
    // docs holds no candidate; .git and node_modules are never entered.
    assert_eq!(
        dirs,
        [
            ".",
            "packages/app",
            "packages/app/src",
            "packages/big",
            "packages/huge",
            "packages/shared",
            "vendor/lib",
            "vendor/lib/src"
        ]
    );
}

/// The monorepo's findings, as `check --format json` lists them.
fn mono_findings() -> Value {
    json!([
        {
            "bytes": 21,
            "dir": ".",
            "directories": [
                "packages/big"
            ],
            "excess": 271,
            "file": "AGENTS.md",
            "hint": "cut 271 bytes from what a session in packages/big loads (the largest excess), or raise max-bytes (now 1,000) to 1,271",
            "keptBytes": 0,
            "kind": "overBudget",
            "maxBytes": 1000,
            "message": "over budget: cut from 21 to 0 bytes for sessions in 1 directory (packages/big)",
            "omittedIn": 1,
            "rule": "AGX001",
            "severity": "error",
            "title": "Instruction budget exceeded",
            "truncatedIn": 0,
            "wholeBytes": 1271,
            "worst": "packages/big"
        },
        {
            "dir": "packages/app",
            "file": "packages/app/CLAUDE.md",
            "hint": "delete packages/app/CLAUDE.md, or make it a symlink to packages/app/AGENTS.md (or a pointer: @AGENTS.md)",
            "kind": "drift",
            "message": "drift: differs from packages/app/AGENTS.md, which wins, so sessions never see this file",
            "rule": "AGX004",
            "severity": "warning",
            "title": "Instruction files drift",
            "winner": "packages/app/AGENTS.md"
        },
        {
            "bytes": 901,
            "dir": "packages/big",
            "directories": [
                "packages/big"
            ],
            "excess": 271,
            "file": "packages/big/AGENTS.md",
            "hint": "cut 271 bytes from what a session in packages/big loads (the largest excess), or raise max-bytes (now 1,000) to 1,271",
            "keptBytes": 567,
            "kind": "overBudget",
            "maxBytes": 1000,
            "message": "over budget: cut from 901 to 567 bytes for sessions in 1 directory (packages/big)",
            "omittedIn": 0,
            "rule": "AGX001",
            "severity": "error",
            "title": "Instruction budget exceeded",
            "truncatedIn": 1,
            "wholeBytes": 1271,
            "worst": "packages/big"
        },
        {
            "bytes": 2000,
            "dir": "packages/huge",
            "file": "packages/huge/AGENTS.md",
            "hint": "cut 500 bytes from packages/huge/AGENTS.md, or raise max-source-bytes (now 1,500) to 2,000",
            "kind": "oversized",
            "maxSourceBytes": 1500,
            "message": "too large: 2000 bytes, over max-source-bytes 1500, so sessions do not load it",
            "rule": "AGX002",
            "severity": "error",
            "title": "Instruction file too large"
        },
        {
            "dir": "packages/shared",
            "file": "packages/shared/AGENTS.md",
            "hint": "copy the instructions into the project, or point the link at a file inside its project root (.), so that every checkout gets the same text",
            "kind": "symlinkLeavesTree",
            "message": "symlink leaves the project: points to ../../../outside/AGENTS.md, which resolves outside its project root (.)",
            "projectRoot": ".",
            "rule": "AGX006",
            "severity": "warning",
            "target": "../../../outside/AGENTS.md",
            "title": "Symlink leaves the project"
        }
    ])
}

/// The fields of `render --format json` that check's directory entries repeat.
const RENDER_FIELDS: [&str; 6] = [
    "bytes",
    "identity",
    "projectRoot",
    "omitted",
    "truncated",
    "files",
];

/// Asserts that every directory check reports has exactly the numbers of
/// `agentctx render --cwd DIR` with the same settings (the user-global file
/// left out through an empty dsh home unless `dsh_home` names one).
fn assert_matches_render(tree: &Tree, cwd: &str, report: &Value, args: &[&str]) {
    let dirs = report["directories"].as_array().unwrap();
    assert!(!dirs.is_empty(), "no directories checked");
    for dir in dirs {
        let path = tree.path(cwd).join(dir["dir"].as_str().unwrap());
        let mut cmd = tree.cmd();
        cmd.current_dir(tree.path(cwd))
            .arg("render")
            .arg("--cwd")
            .arg(&path)
            .args(["--format", "json"]);
        if !args.contains(&"--precedence") {
            cmd.args(["--precedence", "first"]);
        }
        cmd.args(args);
        let (render, code) = run_json(&mut cmd);
        assert_eq!(code, 0);
        for key in RENDER_FIELDS {
            assert_eq!(dir[key], render[key], "{key} of {}", path.display());
        }
        // What the whole baseline needs: more than max exactly when cut.
        let whole = dir["wholeBytes"].as_i64().unwrap();
        let cut = !dir["omitted"].as_array().unwrap().is_empty()
            || !dir["truncated"].as_array().unwrap().is_empty();
        if cut {
            assert!(whole > dir["maxBytes"].as_i64().unwrap());
        } else {
            assert_eq!(whole, dir["bytes"].as_i64().unwrap());
        }
    }
}

#[test]
fn every_checked_directory_gets_the_bytes_render_gives() {
    let t = monorepo();
    let (got, _) = run_json(&mut mono_check(&t, "json"));
    let mut args = LIMITS.to_vec();
    let nohome = t.path("nohome");
    args.extend(["--dsh-home", nohome.to_str().unwrap()]);
    assert_matches_render(&t, "mono", &got, &args);
}

#[test]
fn exclude_is_what_keeps_node_modules_out_and_git_is_never_entered() {
    let t = monorepo();
    let mut args = LIMITS.to_vec();
    args.extend(["--format", "json"]);
    let (got, _) = run_json(&mut check(&t, "mono", &args));
    let dirs = strings_at(&got["directories"], "dir");
    assert_eq!(dirs[..2], [".", "node_modules/pkg"]);
    assert_eq!(got["walked"], json!(13));
    assert!(!dirs.iter().any(|d| d.starts_with(".git")));
}

#[test]
fn default_path_is_the_project_root_and_paths_are_relative_to_the_cwd() {
    let t = monorepo();
    let mut args = LIMITS.to_vec();
    args.extend(["--exclude", "node_modules", "--format", "github"]);
    let (out, _, code) = run(&mut check(&t, "mono/packages/app", &args));
    assert_eq!(
        out,
        "\
::error file=../../AGENTS.md,line=1,title=Instruction budget exceeded::over budget: cut from 21 to 0 bytes for sessions in 1 directory (../big)%0Afix: cut 271 bytes from what a session in ../big loads (the largest excess), or raise max-bytes (now 1,000) to 1,271
::warning file=CLAUDE.md,line=1,title=Instruction files drift::drift: differs from AGENTS.md, which wins, so sessions never see this file%0Afix: delete CLAUDE.md, or make it a symlink to AGENTS.md (or a pointer: @AGENTS.md)
::error file=../big/AGENTS.md,line=1,title=Instruction budget exceeded::over budget: cut from 901 to 567 bytes for sessions in 1 directory (../big)%0Afix: cut 271 bytes from what a session in ../big loads (the largest excess), or raise max-bytes (now 1,000) to 1,271
::error file=../huge/AGENTS.md,line=1,title=Instruction file too large::too large: 2000 bytes, over max-source-bytes 1500, so sessions do not load it%0Afix: cut 500 bytes from ../huge/AGENTS.md, or raise max-source-bytes (now 1,500) to 2,000
::warning file=../shared/AGENTS.md,line=1,title=Symlink leaves the project::symlink leaves the project: points to ../../../outside/AGENTS.md, which resolves outside its project root (../..)%0Afix: copy the instructions into the project, or point the link at a file inside its project root (../..), so that every checkout gets the same text
agentctx check: checked 8 of 11 directories; largest baseline: 1000 bytes in ../big; 3 errors, 2 warnings
"
    );
    assert_eq!(code, 1);
}

#[test]
fn a_path_below_the_root_keeps_the_chain_above_it() {
    let t = monorepo();
    let mut args = LIMITS.to_vec();
    args.extend(["packages/app", "--format", "json"]);
    let (got, code) = run_json(&mut check(&t, "mono", &args));
    // Only the drift below packages/app; the root AGENTS.md still counts.
    assert_eq!(code, 0);
    assert_eq!(got["walked"], json!(2));
    assert_eq!(got["warnings"], json!(1));
    assert_eq!(got["findings"][0]["file"], json!("packages/app/CLAUDE.md"));
    let files = strings_at(&got["directories"][1]["files"], "path");
    assert_eq!(
        files,
        [
            "AGENTS.md",
            "packages/app/AGENTS.md",
            "packages/app/src/AGENTS.local.md"
        ]
    );
    let nohome = t.path("nohome");
    let mut args = LIMITS.to_vec();
    args.extend(["--dsh-home", nohome.to_str().unwrap()]);
    assert_matches_render(&t, "mono", &got, &args);
}

#[test]
fn exit_codes_errors_warnings_and_bad_input() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/AGENTS.md", "Rules.\n")
        .file("r/a/AGENTS.md", "A.\n")
        .file("r/a/CLAUDE.md", "A, older.\n")
        .file("r/clean/AGENTS.md", "Clean.\n");
    // Warnings only: 0, or 1 with --deny-warnings.
    let (out, err, code) = run(&mut check(&t, "r", &[]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "\
a
  warning: a/CLAUDE.md: drift: differs from a/AGENTS.md, which wins, so sessions never see this file
    fix: delete a/CLAUDE.md, or make it a symlink to a/AGENTS.md (or a pointer: @AGENTS.md)

checked 3 of 3 directories; largest baseline: 356 bytes in clean; 0 errors, 1 warning
",
            "",
            0
        )
    );
    let (_, _, code) = run(&mut check(&t, "r", &["--deny-warnings"]));
    assert_eq!(code, 1);
    // Clean: 0 even with --deny-warnings; the summary alone.
    let (out, _, code) = run(&mut check(&t, "r", &["clean", "--deny-warnings"]));
    assert_eq!(
        (out.as_str(), code),
        (
            "checked 1 of 1 directory; largest baseline: 356 bytes in clean; 0 errors, 0 warnings\n",
            0
        )
    );
    // An error: 1.
    let (_, _, code) = run(&mut check(&t, "r", &["--max-bytes", "100"]));
    assert_eq!(code, 1);
    // Bad input: 2, one line on stderr.
    let missing = t.path("r/missing");
    let (out, err, code) = run(&mut check(&t, "r", &["missing"]));
    assert_eq!(
        (out.as_str(), err, code),
        (
            "",
            format!(
                "agentctx: check {}: No such file or directory (os error 2)\n",
                missing.display()
            ),
            2
        )
    );
    // A missing file that is no instruction file is bad input too.
    let (_, err, code) = run(&mut check(&t, "r", &["a/README.md"]));
    assert_eq!(
        (err, code),
        (
            format!(
                "agentctx: check {}: No such file or directory (os error 2)\n",
                t.path("r/a/README.md").display()
            ),
            2
        )
    );
    let (_, _, code) = run(&mut check(&t, "r", &["--format", "yaml"]));
    assert_eq!(code, 2);
    let (_, _, code) = run(&mut check(&t, "r", &["--max-source-bytes", "0"]));
    assert_eq!(code, 2);
}

/// One directory per file-level warning kind (a literal closing tag at the
/// root, empty, whitespace-only, a directory, a FIFO, a
/// symlink stub, a dangling symlink), and a symlink that stays inside the
/// root.
fn file_warnings_tree() -> Tree {
    let t = Tree::new();
    t.dir("r/.git")
        .file(
            "r/AGENTS.md",
            "caf\u{e9} rules\nthen </system-reminder> here\n",
        )
        .file("r/empty/AGENTS.md", "")
        .file("r/empty/CLAUDE.local.md", " \n\t\n")
        .dir("r/dir/AGENTS.md")
        .file("r/dir/CLAUDE.md", "Fallback.\n")
        .fifo("r/fifo/CLAUDE.md")
        .file("r/stub/AGENTS.md", "CLAUDE.md")
        .file("r/stub/CLAUDE.md", "Stubbed rules.\n")
        .symlink("r/broken/AGENTS.md", "gone.md")
        .file("r/broken/CLAUDE.md", "Broken neighbour.\n")
        .symlink("r/same/CLAUDE.md", "../stub/CLAUDE.md");
    t
}

/// `check --precedence first --format json` on the file-warnings tree.
fn file_warnings_report(t: &Tree) -> Value {
    let (got, code) = run_json(&mut check(
        t,
        "r",
        &["--precedence", "first", "--format", "json"],
    ));
    assert_eq!(code, 0);
    got
}

#[test]
fn file_warnings_each_once_per_file() {
    let t = file_warnings_tree();
    let got = file_warnings_report(&t);
    let found: Vec<(String, String)> = got["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want = [
        (
            "AGENTS.md",
            "literal </system-reminder> on line 2: sessions see it escaped as <\\/system-reminder>",
        ),
        (
            "broken/AGENTS.md",
            "dangling symlink: points to gone.md, which does not exist, so sessions load nothing from it",
        ),
        (
            "dir/AGENTS.md",
            "not a regular file (a directory): sessions skip it",
        ),
        (
            "empty/AGENTS.md",
            "empty file: sessions get an empty section",
        ),
        (
            "empty/CLAUDE.local.md",
            "only whitespace: sessions get an empty section",
        ),
        (
            "fifo/CLAUDE.md",
            "not a regular file (a FIFO): sessions skip it",
        ),
        (
            "stub/AGENTS.md",
            "symlink checked out as text: the whole content is the name of its sibling stub/CLAUDE.md, so sessions get the name instead of the instructions",
        ),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(f, m)| ((*f).to_owned(), (*m).to_owned()))
        .collect();
    assert_eq!(found, want);
}

#[test]
fn file_warnings_carry_their_kind_and_details() {
    let t = file_warnings_tree();
    let got = file_warnings_report(&t);
    let kinds: Vec<&str> = got["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "systemReminder",
            "danglingSymlink",
            "notRegular",
            "empty",
            "empty",
            "notRegular",
            "symlinkStub"
        ]
    );
    assert_eq!(got["findings"][0]["line"], json!(2));
    assert_eq!(got["findings"][2]["fileType"], json!("directory"));
    assert_eq!(got["findings"][4]["whitespace"], json!(true));
    assert_eq!(got["findings"][6]["sibling"], json!("stub/CLAUDE.md"));
    // The symlink out of same/ stays inside the project root: no finding.
    assert_eq!(
        strings_at(&got["directories"], "dir"),
        [".", "broken", "dir", "empty", "fifo", "same", "stub"]
    );
    // The root file is judged once, not once per directory below it.
    assert_eq!(got["warnings"], json!(7));
}

#[test]
fn file_warnings_fail_under_deny_warnings_and_match_render() {
    let t = file_warnings_tree();
    let got = file_warnings_report(&t);
    let (_, code) = run_json(&mut check(
        &t,
        "r",
        &[
            "--precedence",
            "first",
            "--format",
            "json",
            "--deny-warnings",
        ],
    ));
    assert_eq!(code, 1);
    let nohome = t.path("nohome");
    t.dir("nohome");
    assert_matches_render(
        &t,
        "r",
        &got,
        &[
            "--precedence",
            "first",
            "--dsh-home",
            nohome.to_str().unwrap(),
        ],
    );
}

#[test]
fn all_precedence_reports_two_sources_of_truth_instead_of_drift() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/AGENTS.md", "Use pnpm.\nRun the tests.\n")
        .file("r/CLAUDE.md", "Use npm.\nRun the tests.\n")
        .file("r/AGENTS.local.md", "Mine.\n")
        .file("r/same/AGENTS.md", "Same.\n")
        .file("r/same/CLAUDE.md", "\u{feff}Same.")
        .dir("nohome");
    let (got, code) = run_json(&mut check(
        &t,
        "r",
        &["--precedence", "all", "--format", "json"],
    ));
    assert_eq!(code, 0);
    assert_eq!(
        got["findings"],
        json!([{
            "severity": "warning",
            "kind": "twoSources",
            "dir": ".",
            "file": "CLAUDE.md",
            "title": "Two sources of truth",
            "rule": "AGX005",
            "message": "two sources of truth: differs from AGENTS.md and both load; 14 bytes of overlapping instructions",
            "hint": "merge CLAUDE.md into AGENTS.md and make it a symlink to it (or a pointer: @AGENTS.md)",
            "sibling": "AGENTS.md",
            "overlapBytes": 14
        }])
    );
    let nohome = t.path("nohome");
    assert_matches_render(
        &t,
        "r",
        &got,
        &[
            "--precedence",
            "all",
            "--dsh-home",
            nohome.to_str().unwrap(),
        ],
    );
    // The same tree under `first`: drift, and the duplicate is no finding.
    let (got, _) = run_json(&mut check(&t, "r", &["--format", "json"]));
    let kinds: Vec<&Value> = got["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| &f["kind"])
        .collect();
    assert_eq!(kinds, [&json!("drift")]);
}

#[test]
fn user_global_file_only_with_the_flag() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/AGENTS.md", "Rules.\n")
        .file("home/.dsh/AGENTS.md", "Global rules.\n");
    let (without, _) = run_json(&mut check(&t, "r", &["--format", "json"]));
    let (with, code) = run_json(&mut check(
        &t,
        "r",
        &["--format", "json", "--include-user-global"],
    ));
    assert_eq!(code, 0);
    assert_eq!(
        without["directories"][0]["files"].as_array().unwrap().len(),
        1
    );
    assert_eq!(
        strings_at(&with["directories"][0]["files"], "path"),
        ["~/.dsh/AGENTS.md", "AGENTS.md"]
    );
    // render always includes the user-global file.
    assert_matches_render(&t, "r", &with, &[]);
    // The user-global file is judged too, under its display path.
    t.file("home/.dsh/AGENTS.md", "");
    let (out, _, code) = run(&mut check(&t, "r", &["--include-user-global"]));
    assert_eq!(
        (out.as_str(), code),
        (
            "\
~/.dsh
  warning: ~/.dsh/AGENTS.md: empty file: sessions get an empty section
    fix: add instructions to it, or delete it

checked 1 of 1 directory; largest baseline: 350 bytes in .; 0 errors, 1 warning
",
            0
        )
    );
}

#[test]
fn without_a_root_marker_every_directory_is_its_own_root() {
    let t = Tree::new();
    t.file("r/AGENTS.md", "Top.\n")
        .file("r/a/AGENTS.md", "A.\n")
        .file("r/a/b/CLAUDE.md", "B.\n")
        .dir("nohome");
    let (got, _) = run_json(&mut check(&t, "r", &["--format", "json"]));
    let roots: Vec<(&Value, usize)> = got["directories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (&d["identity"], d["files"].as_array().unwrap().len()))
        .collect();
    let own = json!(
        r#"{"projectRoot":"","projectRootMarkers":[".git"],"maxBytes":65536,"maxSourceBytes":1048576,"instructionFileCandidates":["AGENTS.md","CLAUDE.md"],"localInstructionFileCandidates":["AGENTS.local.md","CLAUDE.local.md"]}"#
    );
    assert_eq!(roots, [(&own, 1), (&own, 1), (&own, 1)]);
    let nohome = t.path("nohome");
    assert_matches_render(&t, "r", &got, &["--dsh-home", nohome.to_str().unwrap()]);
}

#[test]
fn colour_only_when_asked_and_names_are_escaped() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/e\u{1b}[31mvil/AGENTS.md", "Rules.\n")
        .file("r/e\u{1b}[31mvil/CLAUDE.md", "Other.\n");
    let (out, _, code) = run(&mut check(&t, "r", &[]));
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "\
e\\x1b[31mvil
  warning: e\\x1b[31mvil/CLAUDE.md: drift: differs from e\\x1b[31mvil/AGENTS.md, which wins, so sessions never see this file
    fix: delete e\\x1b[31mvil/CLAUDE.md, or make it a symlink to e\\x1b[31mvil/AGENTS.md (or a pointer: @AGENTS.md)

checked 1 of 2 directories; largest baseline: 321 bytes in e\\x1b[31mvil; 0 errors, 1 warning
"
    );
    let mut cmd = check(&t, "r", &[]);
    cmd.args(["--color", "always"]);
    let (out, _, _) = run(&mut cmd);
    assert_eq!(
        out,
        "\
[1me\\x1b[31mvil[0m
  [33;1mwarning[0m: e\\x1b[31mvil/CLAUDE.md: drift: differs from e\\x1b[31mvil/AGENTS.md, which wins, so sessions never see this file
    fix: delete e\\x1b[31mvil/CLAUDE.md, or make it a symlink to e\\x1b[31mvil/AGENTS.md (or a pointer: @AGENTS.md)

checked 1 of 2 directories; largest baseline: 321 bytes in e\\x1b[31mvil; 0 errors, [33;1m1 warning[0m
"
    );
    // GitHub commands: the file property and the message are escaped for
    // people, then per the workflow rules (no raw ESC reaches the log).
    let (out, _, _) = run(&mut check(&t, "r", &["--format", "github"]));
    assert_eq!(
        out.lines().next().unwrap(),
        "::warning file=e\\x1b[31mvil/CLAUDE.md,line=1,title=Instruction files drift::drift: differs from e\\x1b[31mvil/AGENTS.md, which wins, so sessions never see this file%0Afix: delete e\\x1b[31mvil/CLAUDE.md, or make it a symlink to e\\x1b[31mvil/AGENTS.md (or a pointer: @AGENTS.md)"
    );
}

#[test]
fn github_properties_and_messages_are_escaped() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/a:b,c%d/AGENTS.md", "One.\n")
        .file("r/a:b,c%d/CLAUDE.md", "Two.\n");
    let (out, _, _) = run(&mut check(&t, "r", &["--format", "github"]));
    assert_eq!(
        out,
        "\
::warning file=a%3Ab%2Cc%25d/CLAUDE.md,line=1,title=Instruction files drift::drift: differs from a:b,c%25d/AGENTS.md, which wins, so sessions never see this file%0Afix: delete a:b,c%25d/CLAUDE.md, or make it a symlink to a:b,c%25d/AGENTS.md (or a pointer: @AGENTS.md)
agentctx check: checked 1 of 2 directories; largest baseline: 317 bytes in a:b,c%d; 0 errors, 1 warning
"
    );
}

/// `agentctx check` run from `tree/cwd` as an unprivileged user (as root,
/// where permissions do not bind, as nobody, the tree's root opened up).
fn check_unprivileged(tree: &Tree, cwd: &str) -> Option<Command> {
    let mut cmd = tree.unprivileged_cmd()?;
    cmd.current_dir(tree.path(cwd)).arg("check");
    Some(cmd)
}

#[test]
fn an_unreadable_directory_is_one_warning_and_still_scanned() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/locked/AGENTS.md", "Locked.\n")
        .file("r/locked/deep/AGENTS.md", "Deep.\n")
        .file("r/shut/AGENTS.md", "Shut.\n");
    let Some(mut cmd) = check_unprivileged(&t, "r") else {
        return;
    };
    let mode = |rel: &str, mode: u32| {
        fs::set_permissions(t.path(rel), fs::Permissions::from_mode(mode)).unwrap();
    };
    // locked: listing denied, search allowed: its file is still found by
    // name. shut: neither: its names are all unavailable, said once.
    mode("r/locked", 0o311);
    mode("r/shut", 0o000);
    let (out, _, code) = run(&mut cmd);
    mode("r/locked", 0o755);
    mode("r/shut", 0o755);
    assert_eq!(
        (out.as_str(), code),
        (
            "\
locked
  warning: locked: unreadable directory (Permission denied (os error 13)): nothing below it is checked
    fix: make locked readable (its permissions), or skip it with --exclude locked

shut
  warning: shut: unreadable directory (Permission denied (os error 13)): nothing below it is checked
    fix: make shut readable (its permissions), or skip it with --exclude shut

checked 2 of 3 directories; largest baseline: 319 bytes in locked; 0 errors, 2 warnings
",
            0
        )
    );
}

/// Random trees (nested roots, every candidate name, symlinks in and out,
/// directories and FIFOs under candidate names, tiny budgets): every
/// directory check renders has the numbers `render --cwd` gives, and every
/// directory holding a candidate is checked.
#[test]
fn random_trees_match_render_everywhere() {
    for seed in [1u64, 2, 3] {
        let mut rng = Lcg(seed);
        let t = Tree::new();
        t.dir("nohome");
        let mut dirs = vec!["r".to_owned()];
        for i in 0..24 {
            let parent = dirs[rng.index(dirs.len())].clone();
            dirs.push(format!("{parent}/d{i}"));
        }
        let names = [
            "AGENTS.md",
            "CLAUDE.md",
            "AGENTS.local.md",
            "CLAUDE.local.md",
        ];
        let mut with_candidates = Vec::new();
        for (i, d) in dirs.iter().enumerate() {
            t.dir(d);
            if i > 0 && rng.below(6) == 0 {
                t.dir(&format!("{d}/.git"));
            }
            let mut any = false;
            for name in names {
                let path = format!("{d}/{name}");
                match rng.below(10) {
                    0..=2 => {
                        let len = rng.index(300);
                        t.file(&path, format!("{name} in {d}: {}", "w".repeat(len)));
                    }
                    3 => {
                        t.symlink(&path, "AGENTS.md");
                    }
                    4 => {
                        t.symlink(&path, "../AGENTS.md");
                    }
                    5 if rng.below(2) == 0 => {
                        t.dir(&path);
                    }
                    _ => continue,
                }
                any = true;
            }
            if any {
                with_candidates.push(d.clone());
            }
        }
        let nohome = t.path("nohome");
        for precedence in ["first", "all"] {
            let args = [
                "--max-bytes",
                "900",
                "--max-source-bytes",
                "250",
                "--precedence",
                precedence,
            ];
            let mut check_args = args.to_vec();
            check_args.extend(["--format", "json"]);
            let (got, _) = run_json(&mut check(&t, "r", &check_args));
            let mut render_args = args.to_vec();
            render_args.extend(["--dsh-home", nohome.to_str().unwrap()]);
            assert_matches_render(&t, "r", &got, &render_args);
            // Every directory whose listing holds a candidate that exists in
            // some form is checked (a lone dangling symlink is not).
            let checked = strings_at(&got["directories"], "dir");
            for d in &with_candidates {
                let rel = Path::new(d).strip_prefix("r").unwrap();
                let rel = if rel.as_os_str().is_empty() {
                    ".".to_owned()
                } else {
                    rel.to_string_lossy().into_owned()
                };
                let exists = names.iter().any(|n| match fs::metadata(t.path(d).join(n)) {
                    Ok(_) => true,
                    Err(e) => e.kind() != std::io::ErrorKind::NotFound,
                });
                assert_eq!(checked.contains(&rel), exists, "seed {seed}: {rel}");
            }
        }
    }
}

/// A backslash separates like `/` in a plain name (SPEC 1; the one rule,
/// `settings::is_plain_name`): a file whose whole text is `notes\todo.md`
/// names no sibling, even beside a file of that name, so it is no symlink
/// checked out as text (check's own rule used to ignore `\`).
#[test]
fn a_name_with_a_backslash_is_no_symlink_stub() {
    let t = Tree::new();
    t.file("r/.git/HEAD", "ref: refs/heads/main\n")
        .file("r/AGENTS.md", "notes\\todo.md\n")
        .file("r/notes\\todo.md", "one\n");
    let (out, err, code) = run(&mut check(&t, "r", &[]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "checked 1 of 1 directory; largest baseline: 318 bytes in .; 0 errors, 0 warnings\n",
            "",
            0
        )
    );
}

/// The rules that fire are the table's: every finding of a run that fires
/// errors and warnings carries the id, kind and level its rule has in the
/// SARIF rule list (written from the one table, `check::RULES`).
#[test]
fn every_finding_carries_its_rules_kind_and_level() {
    let t = file_warnings_tree();
    let args = [
        "--precedence",
        "first",
        "--max-bytes",
        "400",
        "--max-source-bytes",
        "20",
    ];
    let (got, code) = run_json(&mut check(
        &t,
        "r",
        &[&args[..], &["--format", "json"]].concat(),
    ));
    assert_eq!(code, 1);
    let (sarif, _) = run_json(&mut check(
        &t,
        "r",
        &[&args[..], &["--format", "sarif"]].concat(),
    ));
    let rules: std::collections::HashMap<String, (Value, Value)> =
        sarif["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let id = r["id"].as_str().unwrap().to_owned();
                (
                    id,
                    (
                        r["name"].clone(),
                        r["defaultConfiguration"]["level"].clone(),
                    ),
                )
            })
            .collect();
    let findings = got["findings"].as_array().unwrap();
    let mut levels: Vec<&str> = findings
        .iter()
        .map(|f| f["severity"].as_str().unwrap())
        .collect();
    levels.dedup();
    assert_eq!(
        levels.contains(&"error") && levels.contains(&"warning"),
        true
    );
    for f in findings {
        let rule = f["rule"].as_str().unwrap();
        assert_eq!(
            rules.get(rule),
            Some(&(f["kind"].clone(), f["severity"].clone())),
            "{rule}"
        );
    }
}

//! `agentctx check` as a CI gate (issue 17): ignore rules, file arguments,
//! SARIF, the budget summary, pull-request impact against a git revision,
//! the Markdown comment, and the pre-commit hook run by the real tool.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use common::{Tree, check, git, git_commit_all, run, run_json};

/// A repository with every kind of ignore rule: a root `.gitignore`
/// (`node_modules/`, `build`, `*.local.md`), a nested one (`gen/`),
/// `.git/info/exclude` (`scratch/`), and `.agentctxignore` (`fixtures`);
/// hidden `.agents/` and `.github/` hold instruction files too.
fn ignoring_repo() -> Tree {
    let t = Tree::new();
    t.file("r/.gitignore", "node_modules/\nbuild\n*.local.md\n")
        .file("r/.git/info/exclude", "scratch/\n")
        .file("r/.agentctxignore", "fixtures\n")
        .file("r/packages/app/.gitignore", "gen/\n")
        .file("r/packages/app/AGENTS.local.md", "Mine.\n");
    for d in [
        ".",
        "node_modules/x",
        "build",
        "packages/app",
        "packages/app/gen",
        "scratch",
        "fixtures",
        ".agents",
        ".github",
        ".git",
    ] {
        t.file(&format!("r/{d}/AGENTS.md"), format!("Rules for {d}.\n"));
    }
    t
}

fn dirs_of(report: &Value) -> Vec<String> {
    report["directories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["dir"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn ignore_rules_skip_directories_like_rg_and_no_ignore_walks_them() {
    let t = ignoring_repo();
    let (out, err, code) = run(&mut check(&t, "r", &["--summary"]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "\
directory     bytes  of max  largest file                 headroom
packages/app    443    0.7%  packages/app/AGENTS.md (24)     65093
.agents         376    0.6%  .agents/AGENTS.md (19)          65160
.github         376    0.6%  .github/AGENTS.md (19)          65160
.               317    0.5%  AGENTS.md (13)                  65219

checked 4 of 5 directories; largest baseline: 443 bytes in packages/app; 0 errors, 0 warnings
",
            "",
            0
        )
    );
    // The ignored AGENTS.local.md still loads: sessions read it.
    let (got, _) = run_json(&mut check(&t, "r", &["--format", "json"]));
    assert_eq!(dirs_of(&got), [".", ".agents", ".github", "packages/app"]);
    let files: Vec<&Value> = got["directories"][3]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| &f["path"])
        .collect();
    assert_eq!(
        files,
        [
            &json!("AGENTS.md"),
            &json!("packages/app/AGENTS.md"),
            &json!("packages/app/AGENTS.local.md")
        ]
    );
    let (got, _) = run_json(&mut check(&t, "r", &["--no-ignore", "--format", "json"]));
    assert_eq!(
        dirs_of(&got),
        [
            ".",
            ".agents",
            ".github",
            "build",
            "fixtures",
            "node_modules/x",
            "packages/app",
            "packages/app/gen",
            "scratch"
        ]
    );
}

#[test]
fn gitignore_applies_only_inside_a_repository_and_agentctxignore_always() {
    let t = Tree::new();
    t.file("r/.gitignore", "skipped/\n")
        .file("r/.agentctxignore", "vendor/\n!vendor/keep/\n")
        .file("r/skipped/AGENTS.md", "Kept: no repository.\n")
        .file("r/vendor/AGENTS.md", "Vendored.\n")
        .file("r/vendor/keep/AGENTS.md", "Unreachable.\n");
    let (got, _) = run_json(&mut check(&t, "r", &["--format", "json"]));
    // Without a .git, .gitignore is not a rule (as in rg); an ignored
    // directory is not entered, so a whitelisted child is not reached.
    assert_eq!(dirs_of(&got), ["skipped"]);
}

/// A repository for file arguments: a nested root below `a`.
fn nested_repo() -> Tree {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/AGENTS.md", "Root.\n")
        .file("r/README.md", "Not instructions.\n")
        .file("r/a/AGENTS.md", "A.\n")
        .file("r/a/b/CLAUDE.md", "B.\n")
        .file("r/a/sub/.git", "gitdir: x\n")
        .file("r/a/sub/AGENTS.md", "Sub.\n")
        .file("r/c/AGENTS.md", "C.\n")
        .file("home/.dsh/AGENTS.md", "Global.\n");
    t
}

#[test]
fn a_file_argument_checks_the_directories_whose_baseline_it_is_part_of() {
    let t = nested_repo();
    let args = ["--format", "json", "--precedence", "first"];
    let (got, code) = run_json(&mut check(
        &t,
        "r",
        &[&["a/AGENTS.md", "README.md"], &args[..]].concat(),
    ));
    assert_eq!(code, 0);
    // a and a/b load a/AGENTS.md; a/sub is another root; c and . do not.
    assert_eq!(dirs_of(&got), ["a", "a/b"]);
    assert_eq!(got["paths"], json!([t.path("r/a")]));
    // Several paths, one report; a directory named twice counts once.
    let (got, _) = run_json(&mut check(
        &t,
        "r",
        &[&["c/AGENTS.md", "a/b/CLAUDE.md", "a", "c"], &args[..]].concat(),
    ));
    assert_eq!(dirs_of(&got), ["a", "a/b", "a/sub", "c"]);
    // A deleted instruction file still checks its directory.
    fs::remove_file(t.path("r/c/AGENTS.md")).unwrap();
    let (out, err, code) = run(&mut check(&t, "r", &["c/AGENTS.md", "README.md"]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "checked 0 of 1 directory; no instruction files; 0 errors, 0 warnings\n",
            "",
            0
        )
    );
    // Only other files: nothing to check, silently.
    let (out, _, code) = run(&mut check(&t, "r", &["README.md"]));
    assert_eq!(
        (out.as_str(), code),
        (
            "checked 0 of 0 directories; no instruction files; 0 errors, 0 warnings\n",
            0
        )
    );
}

#[test]
fn the_user_global_file_as_argument_checks_the_whole_project_with_it() {
    let t = nested_repo();
    let global = t.path("home/.dsh/AGENTS.md");
    let (got, _) = run_json(&mut check(
        &t,
        "r/a",
        &[global.to_str().unwrap(), "--format", "json"],
    ));
    assert_eq!(dirs_of(&got), ["..", ".", "b", "sub", "../c"]);
    let first: Vec<&Value> = got["directories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["files"][0]["path"])
        .collect();
    assert!(
        first.iter().all(|p| **p == json!("~/.dsh/AGENTS.md")),
        "{first:?}"
    );
}

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

use common::{Tree, check, git, git_commit_all, run, run_json, strings_at};

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

/// The `dir` of every directory a check report lists.
fn dirs_of(report: &Value) -> Vec<String> {
    strings_at(&report["directories"], "dir")
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

/// A tree with a finding of most kinds (`first` precedence).
fn findings_tree() -> Tree {
    let t = Tree::new();
    t.dir("r/.git")
        .symlink("r/AGENTS.md", ".agents/AGENTS.md")
        .file("r/big/AGENTS.md", "B".repeat(700))
        .file("r/huge/AGENTS.md", "H".repeat(1200))
        .file("r/drift/AGENTS.md", "One.\n")
        .file("r/drift/CLAUDE.md", "Two.\n")
        .symlink("r/secret/AGENTS.md", "/proc/version")
        .file("outside/AGENTS.md", "Outside.\n")
        .symlink("r/leaves/AGENTS.md", "../../outside/AGENTS.md")
        .symlink("r/broken/AGENTS.md", "gone.md")
        .file("r/bad utf8/AGENTS.md", b"caf\xe9\n")
        .file("r/tag/AGENTS.md", "caf\u{e9}\nx </system-reminder>\n")
        .file("r/binary/AGENTS.md", b"\x7fELF\x00\x01")
        .file("r/empty/AGENTS.md", "")
        .dir("r/dir/AGENTS.md")
        .file("r/stub/AGENTS.md", "CLAUDE.md")
        .file("r/stub/CLAUDE.md", "Stubbed.\n")
        .symlink("r/loop/AGENTS.md", "AGENTS.md")
        .file(
            "r/.agents/AGENTS.md",
            "Shared rules, loaded from the root too.\n",
        );
    t
}

const SARIF_ARGS: [&str; 10] = [
    "--precedence",
    "first",
    "--max-bytes",
    "800",
    "--max-source-bytes",
    "1000",
    "--warn-at",
    "50",
    "--format",
    "sarif",
];

#[test]
fn sarif_output_validates_and_fingerprints_are_stable_across_runs() {
    let t = findings_tree();
    let (first, code) = run_json(&mut check(&t, "r", &SARIF_ARGS));
    assert_eq!(code, 1);
    let validator = common::sarif_validator();
    let errors: Vec<String> = validator
        .iter_errors(&first)
        .map(|e| e.to_string())
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    let run0 = &first["runs"][0];
    assert_eq!(
        run0["tool"]["driver"]["rules"].as_array().unwrap().len(),
        19
    );
    assert_eq!(run0["tool"]["driver"]["rules"][0]["id"], json!("AGX001"));
    let results: Vec<(String, String, String, Value)> = run0["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            (
                r["ruleId"].as_str().unwrap().to_owned(),
                r["level"].as_str().unwrap().to_owned(),
                loc["artifactLocation"]["uri"].as_str().unwrap().to_owned(),
                loc["region"].clone(),
            )
        })
        .collect();
    // The secret's size is the kernel's: its near-budget warning may come or go.
    let results: Vec<_> = results
        .into_iter()
        .filter(|r| !(r.0 == "AGX015" && r.2 == "secret/AGENTS.md"))
        .collect();
    let want = [
        // The root file big's session omits: its finding is on it.
        ("AGX001", "error", "AGENTS.md", Value::Null),
        ("AGX015", "warning", ".agents/AGENTS.md", Value::Null),
        ("AGX016", "warning", "AGENTS.md", Value::Null),
        ("AGX008", "error", "bad%20utf8/AGENTS.md", Value::Null),
        ("AGX001", "error", "big/AGENTS.md", Value::Null),
        ("AGX017", "error", "binary/AGENTS.md", Value::Null),
        ("AGX007", "warning", "broken/AGENTS.md", Value::Null),
        ("AGX011", "warning", "dir/AGENTS.md", Value::Null),
        ("AGX004", "warning", "drift/CLAUDE.md", Value::Null),
        ("AGX010", "warning", "empty/AGENTS.md", Value::Null),
        ("AGX002", "error", "huge/AGENTS.md", Value::Null),
        ("AGX006", "warning", "leaves/AGENTS.md", Value::Null),
        ("AGX013", "warning", "loop/AGENTS.md", Value::Null),
        ("AGX003", "error", "secret/AGENTS.md", Value::Null),
        ("AGX012", "warning", "stub/AGENTS.md", Value::Null),
        ("AGX015", "warning", "tag/AGENTS.md", Value::Null),
        (
            "AGX009",
            "warning",
            "tag/AGENTS.md",
            json!({"startLine": 2}),
        ),
    ];
    let want: Vec<(String, String, String, Value)> = want
        .iter()
        .map(|(a, b, c, d)| ((*a).into(), (*b).into(), (*c).into(), d.clone()))
        .collect();
    assert_eq!(results, want);
    // Fingerprints hold across runs, also when the numbers change.
    t.file("r/big/AGENTS.md", "B".repeat(750));
    let (second, _) = run_json(&mut check(&t, "r", &SARIF_ARGS));
    let prints = |log: &Value| -> Vec<Value> {
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["partialFingerprints"].clone())
            .collect()
    };
    assert_eq!(prints(&first), prints(&second));
    assert_ne!(first, second);
}

#[test]
fn sarif_whole_document_for_one_finding() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/a/AGENTS.md", "x </system-reminder>\n");
    let (mut got, code) = run_json(&mut check(&t, "r", &["--format", "sarif"]));
    assert_eq!(code, 0);
    let driver = &mut got["runs"][0]["tool"]["driver"];
    let rules = driver["rules"].take();
    let ids: Vec<&str> = rules
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        // dsh's rules: AGX001-AGX017, then its configuration's AGX026-AGX027
        // (AGX018-AGX025 are the other harnesses').
        (1..=17)
            .chain(26..=27)
            .map(|i| format!("AGX{i:03}"))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        rules[8],
        json!({
            "id": "AGX009",
            "name": "systemReminder",
            "shortDescription": {"text": "Literal </system-reminder>"},
            "fullDescription": {"text": "The file holds a literal </system-reminder>, which sessions see escaped."},
            "help": {"text": "Remove or reword the closing tag."},
            "defaultConfiguration": {"level": "warning"},
            "properties": {"tags": ["dsh"]}
        })
    );
    let print = got["runs"][0]["results"][0]["partialFingerprints"]["agentctxFinding/v1"].clone();
    assert!(print.as_str().unwrap().len() == 40, "{print}");
    assert_eq!(
        got,
        json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {
                    "name": "agentctx",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": null
                }},
                "originalUriBaseIds": {"SRCROOT": {"uri": format!("file://{}/", t.path("r").display())}},
                "results": [{
                    "ruleId": "AGX009",
                    "ruleIndex": 8,
                    "level": "warning",
                    "message": {"text": "literal </system-reminder> on line 1: sessions see it escaped as <\\/system-reminder>\nFix: remove or reword the </system-reminder> on line 1"},
                    "locations": [{"physicalLocation": {
                        "artifactLocation": {"uri": "a/AGENTS.md", "uriBaseId": "SRCROOT"},
                        "region": {"startLine": 1}
                    }}],
                    "partialFingerprints": {"agentctxFinding/v1": print},
                    "properties": {"hint": "remove or reword the </system-reminder> on line 1"}
                }]
            }]
        })
    );
}

/// A repository with two commits: `docs/AGENTS.md` moved to `guide/`,
/// `old/AGENTS.md` deleted, `app/AGENTS.md` grown, `big/AGENTS.md` grown
/// past the budget (newly truncated), `huge/AGENTS.md` oversized in both;
/// an ignored `node_modules/AGENTS.md` and a user-global file besides.
fn two_commits() -> Tree {
    let t = Tree::new();
    t.file("r/.gitignore", "node_modules/\n")
        .file("r/AGENTS.md", "Root rules.\n")
        .file("r/docs/AGENTS.md", "Docs.\n")
        .file("r/old/AGENTS.md", "Old.\n")
        .file("r/app/AGENTS.md", "App.\n")
        .file("r/big/AGENTS.md", format!("{}\n", "B".repeat(200)))
        .file("r/huge/AGENTS.md", format!("{}\n", "H".repeat(1200)))
        .file("r/node_modules/AGENTS.md", "dep\n")
        .file("home/.dsh/AGENTS.md", "Global.\n");
    let repo = t.path("r");
    git_commit_all(&repo, "one");
    git(&repo, &["mv", "docs", "guide"]);
    fs::remove_file(t.path("r/old/AGENTS.md")).unwrap();
    t.file("r/app/AGENTS.md", "App.\nApp, more rules.\n")
        .file("r/big/AGENTS.md", format!("{}\n", "B".repeat(600)));
    git_commit_all(&repo, "two");
    t
}

const BASE_ARGS: [&str; 9] = [
    "--precedence",
    "all",
    "--max-bytes",
    "800",
    "--max-source-bytes",
    "1000",
    "--include-user-global",
    "--base",
    "HEAD~1",
];

#[test]
fn base_reports_what_the_change_does_per_directory_and_fails_only_on_new_errors() {
    let t = two_commits();
    let status = git(&t.path("r"), &["status", "--porcelain", "--ignored"]);
    let (out, err, code) = run(&mut check(&t, "r", &BASE_ARGS));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "\
big
  error: big/AGENTS.md: over budget: grew from 201 to 601 bytes and pushes ~/.dsh/AGENTS.md, AGENTS.md out of sessions in 1 directory (big); itself cut from 601 to 368 bytes for sessions in 1 directory (big)
    fix: cut 200 bytes from what a session in big loads (the largest excess), or raise max-bytes (now 800) to 1,000

huge
  error: huge/AGENTS.md: too large: 1201 bytes, over max-source-bytes 1000, so sessions do not load it
    fix: cut 201 bytes from huge/AGENTS.md, or raise max-source-bytes (now 1,000) to 1,201

impact against HEAD~1: 5 directories change what sessions receive
  app: 404 -> 421 bytes (+17); changed app/AGENTS.md
  big: 600 -> 800 bytes (+200); changed big/AGENTS.md; newly omitted AGENTS.md, ~/.dsh/AGENTS.md; newly truncated big/AGENTS.md; now over budget
  docs: 406 bytes -> none (-406); removed AGENTS.md, docs/AGENTS.md, ~/.dsh/AGENTS.md
  guide: none -> 407 bytes (+407); added AGENTS.md, guide/AGENTS.md, ~/.dsh/AGENTS.md
  old: 404 -> 363 bytes (-41); removed old/AGENTS.md
new: 1 error, 0 warnings; pre-existing: 1 error, 0 warnings

checked 5 of 6 directories; largest baseline: 800 bytes in big; 2 errors, 0 warnings
",
            "",
            1
        )
    );
    // Nothing in the repository was written.
    assert_eq!(
        git(&t.path("r"), &["status", "--porcelain", "--ignored"]),
        status
    );
    // The pre-existing error alone does not fail the change.
    let mut args = BASE_ARGS.to_vec();
    args[3] = "2000";
    let (out, _, code) = run(&mut check(&t, "r", &args));
    assert_eq!(code, 0, "{out}");
    // Against itself: nothing changes.
    let mut args = BASE_ARGS.to_vec();
    args[8] = "HEAD";
    let (got, code) = run_json(&mut check(
        &t,
        "r",
        &[&args[..], &["--format", "json"]].concat(),
    ));
    assert_eq!(code, 0);
    assert_eq!(got["impact"]["directories"], json!([]));
    assert_eq!(got["impact"]["preexistingErrors"], json!(4));
}

#[test]
fn base_markdown_shows_the_impact_per_directory() {
    let t = two_commits();
    let (out, _, code) = run(&mut check(
        &t,
        "r",
        &[&BASE_ARGS[..], &["--format", "markdown"]].concat(),
    ));
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "\
### agentctx check

**5 directories change what sessions receive** against `HEAD~1`: 1 new error, 1 pre-existing.

| Directory | Before | After | Change | Files |
|---|---:|---:|---:|---|
| app | 404 | 421 | +17 | 1 changed |
| big (now over budget) | 600 | 800 | +200 | 1 changed, 2 newly omitted, 1 newly truncated |
| docs | 406 | none | -406 | 3 removed |
| guide | none | 407 | +407 | 3 added |
| old | 404 | 363 | -41 | 1 removed |

<details><summary>app: 404 → 421 bytes</summary>

- changed: app/AGENTS.md

</details>

<details><summary>big: 600 → 800 bytes</summary>

- changed: big/AGENTS.md
- newly omitted: AGENTS.md
- newly omitted: \\~/.dsh/AGENTS.md
- newly truncated: big/AGENTS.md

</details>

<details><summary>docs: 406 bytes → none</summary>

- removed: AGENTS.md
- removed: docs/AGENTS.md
- removed: \\~/.dsh/AGENTS.md

</details>

<details><summary>guide: none → 407 bytes</summary>

- added: AGENTS.md
- added: guide/AGENTS.md
- added: \\~/.dsh/AGENTS.md

</details>

<details><summary>old: 404 → 363 bytes</summary>

- removed: old/AGENTS.md

</details>

- new error: big/AGENTS.md: over budget: grew from 201 to 601 bytes and pushes \\~/.dsh/AGENTS.md, AGENTS.md out of sessions in 1 directory (big); itself cut from 601 to 368 bytes for sessions in 1 directory (big)

| | File | Finding | Fix |
|---|---|---|---|
| error | big/AGENTS.md | over budget: grew from 201 to 601 bytes and pushes \\~/.dsh/AGENTS.md, AGENTS.md out of sessions in 1 directory (big); itself cut from 601 to 368 bytes for sessions in 1 directory (big) | cut 200 bytes from what a session in big loads (the largest excess), or raise max-bytes (now 800) to 1,000 |
| error | huge/AGENTS.md | too large: 1201 bytes, over max-source-bytes 1000, so sessions do not load it | cut 201 bytes from huge/AGENTS.md, or raise max-source-bytes (now 1,000) to 1,201 |

checked 5 of 6 directories; largest baseline: 800 bytes in big: 2 errors, 0 warnings
"
    );
}

#[test]
fn base_json_carries_the_same_impact_as_markdown() {
    let t = two_commits();
    let (got, _) = run_json(&mut check(
        &t,
        "r",
        &[&BASE_ARGS[..], &["--format", "json"]].concat(),
    ));
    let impact = &got["impact"];
    let dir = |d: &str, before: Value, after: Value, lists: [&[&str]; 5], failing: bool| {
        json!({
            "dir": d, "bytesBefore": before, "bytesAfter": after,
            "added": lists[0], "removed": lists[1], "changed": lists[2],
            "newlyOmitted": lists[3], "newlyTruncated": lists[4], "newlyFailing": failing
        })
    };
    let global = "~/.dsh/AGENTS.md";
    assert_eq!(
        impact["directories"],
        json!([
            dir(
                "app",
                json!(404),
                json!(421),
                [&[], &[], &["app/AGENTS.md"], &[], &[]],
                false
            ),
            dir(
                "big",
                json!(600),
                json!(800),
                [
                    &[],
                    &[],
                    &["big/AGENTS.md"],
                    &["AGENTS.md", global],
                    &["big/AGENTS.md"]
                ],
                true
            ),
            dir(
                "docs",
                json!(406),
                Value::Null,
                [&[], &["AGENTS.md", "docs/AGENTS.md", global], &[], &[], &[]],
                false
            ),
            dir(
                "guide",
                Value::Null,
                json!(407),
                [
                    &["AGENTS.md", "guide/AGENTS.md", global],
                    &[],
                    &[],
                    &[],
                    &[]
                ],
                false
            ),
            // old/AGENTS.md is deleted, its directory stays: its sessions
            // still get the root's files.
            dir(
                "old",
                json!(404),
                json!(363),
                [&[], &["old/AGENTS.md"], &[], &[], &[]],
                false
            ),
        ])
    );
    assert_eq!(impact["newErrors"][0]["file"], json!("big/AGENTS.md"));
    assert_eq!(impact["newErrors"].as_array().unwrap().len(), 1);
    assert_eq!(
        [
            &impact["preexistingErrors"],
            &impact["preexistingWarnings"],
            &impact["base"]
        ],
        [&json!(1), &json!(0), &json!("HEAD~1")]
    );
}

#[test]
fn base_needs_a_revision_and_a_work_tree() {
    let t = two_commits();
    let (out, err, code) = run(&mut check(&t, "r", &["--base", "nope"]));
    assert_eq!(
        (out.as_str(), err, code),
        (
            "",
            format!(
                "agentctx: --base nope: not a revision of {}\n",
                t.path("r").display()
            ),
            2
        )
    );
    t.file("plain/AGENTS.md", "x\n");
    let (_, err, code) = run(&mut check(&t, "plain", &["--base", "HEAD"]));
    assert_eq!(code, 2);
    assert!(
        err.starts_with(
            "agentctx: --base: git rev-parse --show-toplevel: fatal: not a git repository"
        ),
        "{err}"
    );
}

/// Installs pre-commit from the Python package index into its own virtual environment in `dir`;
/// `None` (after saying why) when that is not possible here.
fn install_pre_commit(dir: &Path) -> Option<std::path::PathBuf> {
    let venv = dir.join("venv");
    let steps: [(&str, Vec<&std::ffi::OsStr>); 2] = [
        (
            "python3",
            vec!["-m".as_ref(), "venv".as_ref(), venv.as_os_str()],
        ),
        (
            "pip",
            vec!["install".as_ref(), "-q".as_ref(), "pre-commit".as_ref()],
        ),
    ];
    for (program, args) in steps {
        let program = if program == "pip" {
            venv.join("bin/pip")
        } else {
            program.into()
        };
        let ok = Command::new(&program).args(args).output().map(|o| {
            o.status.success() || {
                eprintln!("{}", String::from_utf8_lossy(&o.stderr));
                false
            }
        });
        if !matches!(ok, Ok(true)) {
            println!(
                "skipped: could not install pre-commit ({} failed)",
                program.display()
            );
            return None;
        }
    }
    Some(venv.join("bin/pre-commit"))
}

/// The real pre-commit runs the hook of this checkout (`try-repo`) on a
/// temporary repository, once passing and once failing. Ignored by default:
/// pre-commit builds agentctx with `cargo install`, minutes on a cold
/// cache. Run it with `cargo test --test check_ci -- --ignored`.
#[test]
#[ignore = "installs pre-commit from PyPI and builds agentctx with cargo install (minutes cold)"]
fn pre_commit_runs_the_hook_from_this_checkout() {
    let t = Tree::new();
    let Some(pre_commit) = install_pre_commit(t.root()) else {
        return;
    };
    t.file("repo/AGENTS.md", "Rules.\n")
        .file("repo/a/AGENTS.md", "A.\n")
        .file("repo/README.md", "Read me.\n");
    let repo = t.path("repo");
    git_commit_all(&repo, "one");
    let checkout = env!("CARGO_MANIFEST_DIR");
    let hook = |files: &[&str]| {
        let mut cmd = Command::new(&pre_commit);
        cmd.current_dir(&repo)
            .args([
                "try-repo",
                checkout,
                "agentctx-check",
                "--color",
                "never",
                "--files",
            ])
            .args(files)
            .env("PRE_COMMIT_HOME", t.path("pre-commit-home"))
            // A quick build in a target directory of its own, kept across runs.
            .env(
                "CARGO_TARGET_DIR",
                Path::new(checkout).join("target/pre-commit"),
            )
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
            .env("CARGO_PROFILE_RELEASE_PANIC", "unwind")
            .env("HOME", t.path("home"));
        let (out, _, code) = run(&mut cmd);
        // What the hook printed, after try-repo's preamble.
        let at = out.find("agentctx check.").unwrap_or(0);
        (out[at..].to_owned(), code)
    };
    let dots = ".".repeat(59);
    assert_eq!(
        hook(&["AGENTS.md", "a/AGENTS.md", "README.md"]),
        (format!("agentctx check{dots}Passed\n"), 0)
    );
    t.file("repo/a/AGENTS.md", format!("{}\n", "A".repeat(70_000)));
    assert_eq!(
        hook(&["a/AGENTS.md", "README.md"]),
        (
            format!(
                "\
agentctx check{dots}Failed
- hook id: agentctx-check
- exit code: 1

a
  error: a/AGENTS.md: over budget: a session in a gets 65536 of max 65536 bytes, its whole baseline needs 70346: omitted AGENTS.md; truncated a/AGENTS.md from 70001 to 65120 bytes

checked 1 of 1 directory; largest baseline: 65536 bytes in a; 1 error, 0 warnings

"
            ),
            1
        )
    );
}

/// Three directories at different shares of a 1000-byte budget.
fn budget_tree() -> Tree {
    let t = Tree::new();
    t.dir("r/.git")
        .file("r/AGENTS.md", "Root.\n")
        .file("r/half/AGENTS.md", format!("{}\n", "h".repeat(200)))
        .file("r/full/AGENTS.md", format!("{}\n", "f".repeat(620)))
        .file("r/over/CLAUDE.md", format!("{}\n", "o".repeat(900)));
    t
}

#[test]
fn summary_and_warn_at_show_each_directory_share_of_the_budget() {
    let t = budget_tree();
    let args = ["--max-bytes", "1000", "--summary", "--warn-at", "80"];
    let (out, err, code) = run(&mut check(&t, "r", &args));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "\
.
  error: AGENTS.md: over budget: cut from 6 to 0 bytes for sessions in 1 directory (over)
    fix: cut 248 bytes from what a session in over loads (the largest excess), or raise max-bytes (now 1,000) to 1,248

full
  warning: full/AGENTS.md: near budget: a session in full gets 968 of max 1000 bytes (96%, warn at 80%), 32 bytes of headroom
    fix: 32 bytes of headroom left: cut from what a session in full loads before it grows, or raise max-bytes (now 1,000)

over
  error: over/CLAUDE.md: over budget: cut from 901 to 583 bytes for sessions in 1 directory (over)
    fix: cut 248 bytes from what a session in over loads (the largest excess), or raise max-bytes (now 1,000) to 1,248

directory  bytes  of max  largest file          headroom
over        1248  124.8%  over/CLAUDE.md (901)      -248
full         968   96.8%  full/AGENTS.md (621)        32
half         548   54.8%  half/AGENTS.md (201)       452
.            310   31.0%  AGENTS.md (6)              690

checked 4 of 4 directories; largest baseline: 1000 bytes in over; 2 errors, 1 warning
",
            "",
            1
        )
    );
    let (got, _) = run_json(&mut check(
        &t,
        "r",
        &[&args[..], &["--format", "json"]].concat(),
    ));
    assert_eq!(
        got["summary"][1],
        json!({
            "dir": "full", "bytes": 968, "maxBytes": 1000, "percent": 96.8,
            "largestFile": "full/AGENTS.md", "largestBytes": 621, "headroom": 32
        })
    );
    assert_eq!(got["summary"].as_array().unwrap().len(), 4);
    assert_eq!(got["findings"][1]["kind"], json!("nearBudget"));
    assert_eq!(got["findings"][1]["percent"], json!(96));
}

#[test]
fn markdown_without_base_is_a_summary_line_and_a_table() {
    let t = budget_tree();
    t.file("r/half/AGENTS.md", "a | b *c*\n</system-reminder>\n");
    let (out, _, code) = run(&mut check(
        &t,
        "r",
        &["--max-bytes", "1000", "--format", "markdown"],
    ));
    assert_eq!(
        (out.as_str(), code),
        (
            "\
### agentctx check

**2 errors, 1 warning**: checked 4 of 4 directories; largest baseline: 1000 bytes in over

| | File | Finding | Fix |
|---|---|---|---|
| error | AGENTS.md | over budget: cut from 6 to 0 bytes for sessions in 1 directory (over) | cut 248 bytes from what a session in over loads (the largest excess), or raise max-bytes (now 1,000) to 1,248 |
| warning | half/AGENTS.md | literal \\</system-reminder\\> on line 2: sessions see it escaped as \\<\\\\/system-reminder\\> | remove or reword the \\</system-reminder\\> on line 2 |
| error | over/CLAUDE.md | over budget: cut from 901 to 583 bytes for sessions in 1 directory (over) | cut 248 bytes from what a session in over loads (the largest excess), or raise max-bytes (now 1,000) to 1,248 |

",
            1
        )
    );
}

/// A root marker that is no plain name (`pkg\root`, `a/b`: the walk stats
/// it instead of finding it in a listing) is mirrored from REV like a
/// plain one: against itself, the nested root it makes changes nothing.
#[test]
fn base_mirrors_root_markers_that_are_not_plain_names() {
    let t = Tree::new();
    t.file("r/AGENTS.md", "Root.\n")
        .file("r/sub/AGENTS.md", "Sub.\n")
        .file("r/sub/pkg\\root", "")
        .file("r/lib/AGENTS.md", "Lib.\n")
        .file("r/lib/meta/root", "");
    git_commit_all(&t.path("r"), "one");
    let args = [
        "--root-markers",
        ".git,pkg\\root,meta/root",
        "--base",
        "HEAD",
        "--format",
        "json",
    ];
    let (got, code) = run_json(&mut check(&t, "r", &args));
    assert_eq!((got["impact"]["directories"].clone(), code), (json!([]), 0));
    let files: Vec<Vec<String>> = got["directories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| strings_at(&d["files"], "path"))
        .collect();
    assert_eq!(
        files,
        [vec!["AGENTS.md"], vec!["AGENTS.md"], vec!["AGENTS.md"]]
    );
}

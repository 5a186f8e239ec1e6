//! `check --profile all` (issue 26): every harness in one walk, every
//! format, on one repository with one finding per harness (dsh: an empty
//! file; codex: its budget cuts the root file; gemini: an import that
//! fails; opencode: a CLAUDE.md it ignores), whole strings each; the
//! anchoring of budget findings on the file that loses bytes, with its
//! blast radius and the exact fix; and the false alarms it no longer
//! raises.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::process::Command;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use common::{Tree, git, git_commit_all, run};

/// One finding per harness, nothing else.
fn four_harnesses() -> Tree {
    let t = Tree::new();
    t.dir("home")
        .file(
            "r/AGENTS.md",
            "# Rules\nUse pnpm. Run the tests before a commit.\n",
        )
        .file("r/docs/AGENTS.md", "")
        .file("r/sub/CLAUDE.md", "Claude: keep answers short.\n")
        .file("r/GEMINI.md", "Read @./missing.md first.\n")
        .file("r/src/main.rs", "fn main() {}\n");
    git_commit_all(&t.path("r"), "one");
    t
}

/// `check --profile all --project-doc-max-bytes 40 ARGS` in `r`, with no
/// variable a harness reads.
fn check_all(t: &Tree, args: &[&str]) -> Command {
    let mut cmd = t.profile_cmd();
    cmd.current_dir(t.path("r"))
        .args(["check", "--profile", "all", "--project-doc-max-bytes", "40"])
        .args(args);
    cmd
}

/// Compares `got` with the file `tests/check-harnesses/NAME` whole
/// (`AGENTCTX_REGENERATE=1` writes it instead).
fn expect_file(name: &str, got: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/check-harnesses")
        .join(name);
    if std::env::var_os("AGENTCTX_REGENERATE").is_some() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, got).unwrap();
    }
    let want = fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        got,
        want,
        "{} (AGENTCTX_REGENERATE=1 rewrites it)",
        path.display()
    );
}

/// stdout with the tree's path as `ROOT`, stderr, exit status.
fn out_of(t: &Tree, cmd: &mut Command) -> (String, String, i32) {
    let (out, err, code) = run(cmd);
    let root = t.path_str("");
    let root = root.trim_end_matches('/');
    (out.replace(root, "ROOT"), err, code)
}

const TEXT: &str = "\
dsh: docs
  warning: docs/AGENTS.md: empty file: sessions get an empty section
    fix: add instructions to it, or delete it

codex: .
  error: AGENTS.md: over budget: cut from 49 to 40 bytes for sessions in 2 directories (., docs)
    fix: cut 9 bytes from what a session in . loads (the largest excess), or raise project_doc_max_bytes (now 40) to 49

gemini: .
  warning: GEMINI.md: import @./missing.md failed: ENOENT: no such file or directory, access 'missing.md'
    fix: fix the import @./missing.md (the error says why), or remove it

opencode: sub
  warning: sub/CLAUDE.md: ignored by opencode: an AGENTS.md exists in the chain (AGENTS.md), and the first name found wins for every directory
    fix: merge what it says into AGENTS.md and make it a symlink to it (or a pointer: @AGENTS.md)

claude: .
  warning: AGENTS.md: not loaded: sub/CLAUDE.md holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)
    fix: merge what it says into sub/CLAUDE.md, or make sub/CLAUDE.md a pointer to it (@AGENTS.md)

dsh: checked 3 of 4 directories; largest baseline: 417 bytes in sub; 0 errors, 1 warning
codex: checked 2 of 4 directories; largest baseline: 134 bytes in docs; 1 error, 0 warnings
gemini: checked 1 of 4 directories; largest baseline: 332 bytes in .; 0 errors, 1 warning
opencode: checked 3 of 4 directories; largest baseline: 106 bytes in .; 0 errors, 1 warning
claude: checked 3 of 4 directories; largest baseline: 382 bytes in .; 0 errors, 1 warning
";

#[test]
fn text_has_every_harness_and_one_summary_line_each() {
    let t = four_harnesses();
    assert_eq!(
        out_of(&t, &mut check_all(&t, &[])),
        (TEXT.to_owned(), String::new(), 1)
    );
    // `--profile dsh,codex` is those two; `dsh` alone is the default, whose
    // lines carry no name.
    let mut cmd = t.profile_cmd();
    cmd.current_dir(t.path("r")).args([
        "check",
        "--profile",
        "codex,dsh",
        "--project-doc-max-bytes",
        "40",
    ]);
    let (out, _, code) = out_of(&t, &mut cmd);
    assert_eq!(
        (out.as_str(), code),
        (
            "\
dsh: docs
  warning: docs/AGENTS.md: empty file: sessions get an empty section
    fix: add instructions to it, or delete it

codex: .
  error: AGENTS.md: over budget: cut from 49 to 40 bytes for sessions in 2 directories (., docs)
    fix: cut 9 bytes from what a session in . loads (the largest excess), or raise project_doc_max_bytes (now 40) to 49

dsh: checked 3 of 4 directories; largest baseline: 417 bytes in sub; 0 errors, 1 warning
codex: checked 2 of 4 directories; largest baseline: 134 bytes in docs; 1 error, 0 warnings
",
            1
        )
    );
    let mut cmd = t.profile_cmd();
    cmd.current_dir(t.path("r"))
        .args(["check", "--profile", "dsh"]);
    let (dsh, _, _) = out_of(&t, &mut cmd);
    let mut cmd = t.profile_cmd();
    cmd.current_dir(t.path("r")).arg("check");
    assert_eq!(out_of(&t, &mut cmd).0, dsh);
    assert_eq!(
        dsh,
        "\
docs
  warning: docs/AGENTS.md: empty file: sessions get an empty section
    fix: add instructions to it, or delete it

checked 3 of 4 directories; largest baseline: 417 bytes in sub; 0 errors, 1 warning
"
    );
}

#[test]
fn github_annotations_name_their_harness() {
    let t = four_harnesses();
    assert_eq!(
        out_of(&t, &mut check_all(&t, &["--format", "github"])),
        (
            "\
::warning file=docs/AGENTS.md,line=1,title=Empty instruction file (dsh)::empty file: sessions get an empty section%0Afix: add instructions to it, or delete it
::error file=AGENTS.md,line=1,title=Instruction budget exceeded (codex)::over budget: cut from 49 to 40 bytes for sessions in 2 directories (., docs)%0Afix: cut 9 bytes from what a session in . loads (the largest excess), or raise project_doc_max_bytes (now 40) to 49
::warning file=GEMINI.md,line=1,title=Import not expanded (gemini)::import @./missing.md failed: ENOENT: no such file or directory, access 'missing.md'%0Afix: fix the import @./missing.md (the error says why), or remove it
::warning file=sub/CLAUDE.md,line=1,title=Instruction file ignored (opencode)::ignored by opencode: an AGENTS.md exists in the chain (AGENTS.md), and the first name found wins for every directory%0Afix: merge what it says into AGENTS.md and make it a symlink to it (or a pointer: @AGENTS.md)
::warning file=AGENTS.md,line=1,title=Instruction file ignored (claude)::not loaded: sub/CLAUDE.md holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)%0Afix: merge what it says into sub/CLAUDE.md, or make sub/CLAUDE.md a pointer to it (@AGENTS.md)
agentctx check: dsh: checked 3 of 4 directories; largest baseline: 417 bytes in sub; 0 errors, 1 warning
agentctx check: codex: checked 2 of 4 directories; largest baseline: 134 bytes in docs; 1 error, 0 warnings
agentctx check: gemini: checked 1 of 4 directories; largest baseline: 332 bytes in .; 0 errors, 1 warning
agentctx check: opencode: checked 3 of 4 directories; largest baseline: 106 bytes in .; 0 errors, 1 warning
agentctx check: claude: checked 3 of 4 directories; largest baseline: 382 bytes in .; 0 errors, 1 warning
"
            .to_owned(),
            String::new(),
            1
        )
    );
}

#[test]
fn markdown_has_a_section_per_harness() {
    let t = four_harnesses();
    assert_eq!(
        out_of(&t, &mut check_all(&t, &["--format", "markdown"])),
        (
            "\
### agentctx check

#### dsh

**0 errors, 1 warning**: checked 3 of 4 directories; largest baseline: 417 bytes in sub

| | File | Finding | Fix |
|---|---|---|---|
| warning | docs/AGENTS.md | empty file: sessions get an empty section | add instructions to it, or delete it |

#### codex

**1 error, 0 warnings**: checked 2 of 4 directories; largest baseline: 134 bytes in docs

| | File | Finding | Fix |
|---|---|---|---|
| error | AGENTS.md | over budget: cut from 49 to 40 bytes for sessions in 2 directories (., docs) | cut 9 bytes from what a session in . loads (the largest excess), or raise project\\_doc\\_max\\_bytes (now 40) to 49 |

#### gemini

**0 errors, 1 warning**: checked 1 of 4 directories; largest baseline: 332 bytes in .

| | File | Finding | Fix |
|---|---|---|---|
| warning | GEMINI.md | import @\u{200b}./missing.md failed: ENOENT: no such file or directory, access 'missing.md' | fix the import @\u{200b}./missing.md (the error says why), or remove it |

#### opencode

**0 errors, 1 warning**: checked 3 of 4 directories; largest baseline: 106 bytes in .

| | File | Finding | Fix |
|---|---|---|---|
| warning | sub/CLAUDE.md | ignored by opencode: an AGENTS.md exists in the chain (AGENTS.md), and the first name found wins for every directory | merge what it says into AGENTS.md and make it a symlink to it (or a pointer: @\u{200b}AGENTS.md) |

#### claude

**0 errors, 1 warning**: checked 3 of 4 directories; largest baseline: 382 bytes in .

| | File | Finding | Fix |
|---|---|---|---|
| warning | AGENTS.md | not loaded: sub/CLAUDE.md holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text) | merge what it says into sub/CLAUDE.md, or make sub/CLAUDE.md a pointer to it (@\u{200b}AGENTS.md) |

"
            .to_owned(),
            String::new(),
            1
        )
    );
}

#[test]
fn json_is_one_document_with_every_harness() {
    let t = four_harnesses();
    let (out, err, code) = out_of(&t, &mut check_all(&t, &["--format", "json"]));
    assert_eq!((err.as_str(), code), ("", 1));
    expect_file("all.json", &out);
    let got: Value = serde_json::from_str(&out).unwrap();
    let harnesses: Vec<&Value> = got["harnesses"].as_array().unwrap().iter().collect();
    assert_eq!(
        harnesses.iter().map(|h| &h["harness"]).collect::<Vec<_>>(),
        ["dsh", "codex", "gemini", "opencode", "claude"]
    );
    assert_eq!((&got["errors"], &got["warnings"]), (&json!(1), &json!(4)));
    let findings: Vec<&Value> = harnesses.iter().map(|h| &h["findings"][0]).collect();
    assert_eq!(
        findings,
        [
            &json!({
                "severity": "warning", "rule": "AGX010", "kind": "empty", "dir": "docs",
                "file": "docs/AGENTS.md", "title": "Empty instruction file",
                "message": "empty file: sessions get an empty section",
                "hint": "add instructions to it, or delete it", "whitespace": false
            }),
            &json!({
                "severity": "error", "rule": "AGX001", "kind": "overBudget", "dir": ".",
                "file": "AGENTS.md", "title": "Instruction budget exceeded",
                "message": "over budget: cut from 49 to 40 bytes for sessions in 2 directories (., docs)",
                "hint": "cut 9 bytes from what a session in . loads (the largest excess), or raise project_doc_max_bytes (now 40) to 49",
                "bytes": 49, "keptBytes": 40, "maxBytes": 40, "directories": [".", "docs"],
                "omittedIn": 0, "truncatedIn": 2, "worst": ".", "wholeBytes": 49, "excess": 9
            }),
            &json!({
                "severity": "warning", "rule": "AGX022", "kind": "importProblem", "dir": ".",
                "file": "GEMINI.md", "title": "Import not expanded",
                "message": "import @./missing.md failed: ENOENT: no such file or directory, access 'missing.md'",
                "hint": "fix the import @./missing.md (the error says why), or remove it",
                "token": "./missing.md", "problem": "failed",
                "error": "ENOENT: no such file or directory, access 'missing.md'"
            }),
            &json!({
                "severity": "warning", "rule": "AGX018", "kind": "ignoredName", "dir": "sub",
                "file": "sub/CLAUDE.md", "title": "Instruction file ignored",
                "message": "ignored by opencode: an AGENTS.md exists in the chain (AGENTS.md), and the first name found wins for every directory",
                "hint": "merge what it says into AGENTS.md and make it a symlink to it (or a pointer: @AGENTS.md)",
                "by": "AGENTS.md"
            }),
            &json!({
                "severity": "warning", "rule": "AGX018", "kind": "ignoredName", "dir": ".",
                "file": "AGENTS.md", "title": "Instruction file ignored",
                "message": "not loaded: sub/CLAUDE.md holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)",
                "hint": "merge what it says into sub/CLAUDE.md, or make sub/CLAUDE.md a pointer to it (@AGENTS.md)",
                "by": "sub/CLAUDE.md"
            }),
        ]
    );
    // Every harness reports what each checked directory receives.
    let dirs = |h: &Value| -> Vec<String> { common::strings_at(&h["directories"], "dir") };
    assert_eq!(dirs(harnesses[0]), [".", "docs", "sub"]);
    assert_eq!(dirs(harnesses[1]), [".", "docs"]);
    assert_eq!(dirs(harnesses[2]), ["."]);
    assert_eq!(dirs(harnesses[3]), [".", "docs", "sub"]);
    assert_eq!(dirs(harnesses[4]), [".", "docs", "sub"]);
    assert_eq!(
        harnesses[1]["directories"][0],
        json!({
            "dir": ".", "bytes": 129, "wholeBytes": 138, "maxBytes": 40,
            "files": [{"path": "AGENTS.md", "bytes": 49, "digest": "fc73491b80ffcf2329f067adba0e8def222442e8"}],
            "omitted": [], "truncated": ["AGENTS.md"]
        })
    );
}

#[test]
fn sarif_is_one_run_with_harness_scoped_rules_and_validates() {
    let t = four_harnesses();
    let (out, err, code) = out_of(&t, &mut check_all(&t, &["--format", "sarif"]));
    assert_eq!((err.as_str(), code), ("", 1));
    expect_file(
        "all.sarif",
        &out.replace(
            &format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION")),
            "\"version\": \"VERSION\"",
        ),
    );
    let log: Value = serde_json::from_str(&out).unwrap();
    let errors: Vec<String> = common::sarif_validator()
        .iter_errors(&log)
        .map(|e| e.to_string())
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(log["runs"].as_array().unwrap().len(), 1);
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    // dsh's 17 and its configuration's 2 (AGX026, AGX027), then each
    // harness's own (those a harness besides dsh reports).
    let theirs = [
        "AGX001", "AGX002", "AGX003", "AGX006", "AGX011", "AGX012", "AGX013", "AGX014", "AGX015",
        "AGX018", "AGX019", "AGX020", "AGX021", "AGX022", "AGX023", "AGX024", "AGX025",
    ];
    let mut want: Vec<String> = (1..=17)
        .chain(26..=27)
        .map(|i| format!("AGX{i:03}"))
        .collect();
    for h in ["codex", "gemini", "opencode", "claude"] {
        want.extend(theirs.iter().map(|r| format!("{r}/{h}")));
    }
    assert_eq!(ids, want);
    assert_sarif_results(run, &ids);
    assert_eq!(
        rules[19],
        json!({
            "id": "AGX001/codex", "name": "overBudget/codex",
            "shortDescription": {"text": "Instruction budget exceeded (codex)"},
            "fullDescription": {"text": "Sessions started in the directories the finding names lose bytes of this file: the byte budget (dsh's max-bytes, codex's project_doc_max_bytes) omits or truncates it."},
            "help": {"text": "Cut the bytes the finding names from what those sessions load (move detail into files read on demand), or raise the budget to the size the finding names."},
            "defaultConfiguration": {"level": "error"},
            "properties": {"tags": ["codex"]}
        })
    );
}

/// The SARIF run's results: rule, level, file, the rule its index names,
/// message.
fn assert_sarif_results(run: &Value, ids: &[&str]) {
    let results: Vec<Value> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            json!([
                r["ruleId"],
                r["level"],
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                ids[usize::try_from(r["ruleIndex"].as_u64().unwrap()).unwrap()],
                r["message"]["text"]
            ])
        })
        .collect();
    assert_eq!(
        results,
        [
            json!([
                "AGX010",
                "warning",
                "docs/AGENTS.md",
                "AGX010",
                "empty file: sessions get an empty section\nFix: add instructions to it, or delete it"
            ]),
            json!([
                "AGX001/codex",
                "error",
                "AGENTS.md",
                "AGX001/codex",
                "over budget: cut from 49 to 40 bytes for sessions in 2 directories (., docs)\nFix: cut 9 bytes from what a session in . loads (the largest excess), or raise project_doc_max_bytes (now 40) to 49"
            ]),
            json!([
                "AGX022/gemini",
                "warning",
                "GEMINI.md",
                "AGX022/gemini",
                "import @./missing.md failed: ENOENT: no such file or directory, access 'missing.md'\nFix: fix the import @./missing.md (the error says why), or remove it"
            ]),
            json!([
                "AGX018/opencode",
                "warning",
                "sub/CLAUDE.md",
                "AGX018/opencode",
                "ignored by opencode: an AGENTS.md exists in the chain (AGENTS.md), and the first name found wins for every directory\nFix: merge what it says into AGENTS.md and make it a symlink to it (or a pointer: @AGENTS.md)"
            ]),
            json!([
                "AGX018/claude",
                "warning",
                "AGENTS.md",
                "AGX018/claude",
                "not loaded: sub/CLAUDE.md holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)\nFix: merge what it says into sub/CLAUDE.md, or make sub/CLAUDE.md a pointer to it (@AGENTS.md)"
            ]),
        ]
    );
}

#[test]
fn summary_warn_at_base_and_file_arguments_work_for_every_harness() {
    let t = four_harnesses();
    // The change: the root file grows, docs/AGENTS.md is deleted (docs
    // stays: its sessions still get the root file).
    t.file(
        "r/AGENTS.md",
        "# Rules\nUse pnpm. Run the tests before a commit. Never push.\n",
    );
    fs::remove_file(t.path("r/docs/AGENTS.md")).unwrap();
    t.file("r/docs/guide.md", "Guide.\n");
    git_commit_all(&t.path("r"), "two");
    let (out, err, code) = out_of(
        &t,
        &mut check_all(&t, &["--base", "HEAD~1", "--summary", "--warn-at", "50"]),
    );
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "\
codex: .
  error: AGENTS.md: over budget: cut from 61 to 40 bytes for sessions in 1 directory (.)
    fix: cut 21 bytes from what a session in . loads (the largest excess), or raise project_doc_max_bytes (now 40) to 61

gemini: .
  warning: GEMINI.md: import @./missing.md failed: ENOENT: no such file or directory, access 'missing.md'
    fix: fix the import @./missing.md (the error says why), or remove it

opencode: sub
  warning: sub/CLAUDE.md: ignored by opencode: an AGENTS.md exists in the chain (AGENTS.md), and the first name found wins for every directory
    fix: merge what it says into AGENTS.md and make it a symlink to it (or a pointer: @AGENTS.md)

claude: .
  warning: AGENTS.md: not loaded: sub/CLAUDE.md holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)
    fix: merge what it says into sub/CLAUDE.md, or make sub/CLAUDE.md a pointer to it (@AGENTS.md)

dsh
directory  bytes  of max  largest file    headroom
sub          429    0.7%  AGENTS.md (61)     65107
.            365    0.6%  AGENTS.md (61)     65171

codex
directory  bytes  of max  largest file    headroom
.            150  375.0%  AGENTS.md (61)      -110

gemini
directory  bytes  of max  largest file    headroom
.            332       -  GEMINI.md (26)         -

opencode
directory  bytes  of max  largest file    headroom
.            118       -  AGENTS.md (61)         -
sub          118       -  AGENTS.md (61)         -

claude
directory  bytes  of max  largest file        headroom
.            394       -  AGENTS.md (61)             -
sub          365       -  sub/CLAUDE.md (28)         -

dsh: impact against HEAD~1: 3 directories change what sessions receive
  .: 353 -> 365 bytes (+12); changed AGENTS.md
  docs: 390 -> 365 bytes (-25); changed AGENTS.md; removed docs/AGENTS.md
  sub: 417 -> 429 bytes (+12); changed AGENTS.md
new: 0 errors, 0 warnings; pre-existing: 0 errors, 0 warnings

codex: impact against HEAD~1: 0 directories change what sessions receive
new: 0 errors, 0 warnings; pre-existing: 1 error, 0 warnings

gemini: impact against HEAD~1: 0 directories change what sessions receive
new: 0 errors, 0 warnings; pre-existing: 0 errors, 1 warning

opencode: impact against HEAD~1: 3 directories change what sessions receive
  .: 106 -> 118 bytes (+12); changed AGENTS.md
  docs: 106 -> 118 bytes (+12); changed AGENTS.md
  sub: 106 -> 118 bytes (+12); changed AGENTS.md
new: 0 errors, 0 warnings; pre-existing: 0 errors, 1 warning

claude: impact against HEAD~1: 2 directories change what sessions receive
  .: 382 -> 394 bytes (+12); changed AGENTS.md
  docs: 382 -> 394 bytes (+12); changed AGENTS.md
new: 0 errors, 0 warnings; pre-existing: 0 errors, 1 warning

dsh: checked 2 of 4 directories; largest baseline: 429 bytes in sub; 0 errors, 0 warnings
codex: checked 1 of 4 directories; largest baseline: 129 bytes in .; 1 error, 0 warnings
gemini: checked 1 of 4 directories; largest baseline: 332 bytes in .; 0 errors, 1 warning
opencode: checked 2 of 4 directories; largest baseline: 118 bytes in .; 0 errors, 1 warning
claude: checked 2 of 4 directories; largest baseline: 394 bytes in .; 0 errors, 1 warning
",
            "",
            0
        )
    );
    // Nothing in the repository was written.
    assert_eq!(git(&t.path("r"), &["status", "--porcelain"]), "");
    assert_file_arguments_work(&t);
}

/// The pre-commit mode: file arguments, for every harness.
fn assert_file_arguments_work(t: &Tree) {
    let (out, _, code) = out_of(t, &mut check_all(t, &["sub/CLAUDE.md", "GEMINI.md"]));
    assert_eq!(
        (out.as_str(), code),
        (
            "\
codex: .
  error: AGENTS.md: over budget: cut from 61 to 40 bytes for sessions in 2 directories (., sub)
    fix: cut 21 bytes from what a session in . loads (the largest excess), or raise project_doc_max_bytes (now 40) to 61

gemini: .
  warning: GEMINI.md: import @./missing.md failed: ENOENT: no such file or directory, access 'missing.md'
    fix: fix the import @./missing.md (the error says why), or remove it

opencode: sub
  warning: sub/CLAUDE.md: ignored by opencode: an AGENTS.md exists in the chain (AGENTS.md), and the first name found wins for every directory
    fix: merge what it says into AGENTS.md and make it a symlink to it (or a pointer: @AGENTS.md)

claude: .
  warning: AGENTS.md: not loaded: sub/CLAUDE.md holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)
    fix: merge what it says into sub/CLAUDE.md, or make sub/CLAUDE.md a pointer to it (@AGENTS.md)

dsh: checked 2 of 4 directories; largest baseline: 429 bytes in sub; 0 errors, 0 warnings
codex: checked 2 of 4 directories; largest baseline: 133 bytes in sub; 1 error, 0 warnings
gemini: checked 2 of 4 directories; largest baseline: 332 bytes in .; 0 errors, 1 warning
opencode: checked 2 of 4 directories; largest baseline: 118 bytes in .; 0 errors, 1 warning
claude: checked 2 of 4 directories; largest baseline: 394 bytes in .; 0 errors, 1 warning
",
            1
        )
    );
}

/// The repository of the issue: an 82,501-byte root CLAUDE.md beside an
/// 18-byte AGENTS.md pointing at it, and 14 directories below with their
/// own small AGENTS.md.
fn big_claude() -> Tree {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/AGENTS.md", "See CLAUDE.md for")
        .file("r/CLAUDE.md", format!("{}\n", "C".repeat(82_500)));
    for d in [
        "a", "a/b", "a/b/c", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l",
    ] {
        t.file(&format!("r/{d}/AGENTS.md"), format!("Rules of {d}.\n"));
    }
    t
}

#[test]
fn a_budget_finding_is_on_the_file_that_loses_bytes_once_with_its_blast_radius() {
    let t = big_claude();
    let (out, err, code) = out_of(&t, common::check(&t, "r", &[]).env_remove("DSH_HOME"));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "\
.
  error: AGENTS.md: over budget: cut from 17 to 0 bytes for sessions in 15 directories (., a, a/b and 12 more)
    fix: cut 17,468 bytes from what a session in a/b/c loads (the largest excess), or raise max-bytes (now 65,536) to 83,004
  error: CLAUDE.md: over budget: cut from 82,501 to 65,124 bytes for sessions in 1 directory, to 0 in 14 (., a, a/b and 12 more)
    fix: cut 17,468 bytes from what a session in a/b/c loads (the largest excess), or raise max-bytes (now 65,536) to 83,004

checked 15 of 15 directories; largest baseline: 65536 bytes in .; 2 errors, 0 warnings
",
            "",
            1
        )
    );
    // The JSON keeps the whole radius.
    let (got, _) = common::run_json(&mut common::check(&t, "r", &["--format", "json"]));
    assert_eq!(
        got["findings"][1]["directories"],
        json!([
            ".", "a", "a/b", "a/b/c", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"
        ])
    );
    assert_eq!(
        [
            &got["findings"][1]["omittedIn"],
            &got["findings"][1]["truncatedIn"]
        ],
        [&json!(14), &json!(1)]
    );
}

#[test]
fn the_hint_cuts_the_exact_excess() {
    let t = big_claude();
    // One byte short of the excess still cuts; the excess itself fits.
    for (cut, code) in [(17_467, 1), (17_468, 0)] {
        t.file("r/CLAUDE.md", format!("{}\n", "C".repeat(82_500 - cut)));
        let (_, _, got) = run(&mut common::check(&t, "r", &[]));
        assert_eq!(got, code, "cut {cut}");
    }
    // Raising max-bytes to the size the hint names fits as well.
    t.file("r/CLAUDE.md", format!("{}\n", "C".repeat(82_500)));
    let (_, _, got) = run(&mut common::check(&t, "r", &["--max-bytes", "83004"]));
    assert_eq!(got, 0);
    let (_, _, got) = run(&mut common::check(&t, "r", &["--max-bytes", "83003"]));
    assert_eq!(got, 1);
}

#[test]
fn a_grown_file_that_pushes_an_unchanged_one_out_carries_the_finding() {
    let t = Tree::new();
    t.dir("home")
        .file("r/AGENTS.md", format!("# Root\n{}\n", "r".repeat(1_000)))
        .file("r/a/AGENTS.md", "A.\n")
        .file("r/a/b/AGENTS.md", "B.\n");
    git_commit_all(&t.path("r"), "one");
    t.file("r/a/AGENTS.md", format!("A.\n{}\n", "a".repeat(64_600)));
    git_commit_all(&t.path("r"), "two");
    // Without --base: on the file that loses bytes.
    let (out, _, code) = out_of(&t, &mut common::check(&t, "r", &[]));
    assert_eq!(
        (out.as_str(), code),
        (
            "\
.
  error: AGENTS.md: over budget: cut from 1,008 to 0 bytes for sessions in 2 directories (a, a/b)
    fix: cut 453 bytes from what a session in a/b loads (the largest excess), or raise max-bytes (now 65,536) to 65,989

checked 3 of 3 directories; largest baseline: 65010 bytes in a/b; 1 error, 0 warnings
",
            1
        )
    );
    // With --base: the root file did not change; a/AGENTS.md grew and
    // pushed it out, so the finding is on a/AGENTS.md and names who loses.
    let (out, _, code) = out_of(&t, &mut common::check(&t, "r", &["--base", "HEAD~1"]));
    assert_eq!(
        (out.as_str(), code),
        (
            "\
a
  error: a/AGENTS.md: over budget: grew from 3 to 64,604 bytes and pushes AGENTS.md out of sessions in 2 directories (a, a/b)
    fix: cut 453 bytes from what a session in a/b loads (the largest excess), or raise max-bytes (now 65,536) to 65,989

impact against HEAD~1: 2 directories change what sessions receive
  a: 1,349 -> 64,971 bytes (+63,622); changed a/AGENTS.md; newly omitted AGENTS.md; now over budget
  a/b: 1,388 -> 65,010 bytes (+63,622); changed a/AGENTS.md; newly omitted AGENTS.md; now over budget
new: 1 error, 0 warnings; pre-existing: 0 errors, 0 warnings

checked 3 of 3 directories; largest baseline: 65010 bytes in a/b; 1 error, 0 warnings
",
            1
        )
    );
}

/// Pointer stubs and symlinks are no second source of truth, for dsh nor
/// for opencode; a stub or a link out of the project is judged for every
/// harness.
#[test]
fn pointers_and_symlinks_raise_no_false_alarm() {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/AGENTS.md", "Use pnpm.\nRun the tests.\n")
        .file(
            "r/CLAUDE.md",
            "# CLAUDE.md\n\nThis file guides Claude Code.\n\nSee @AGENTS.md\n",
        )
        .file("r/a/AGENTS.md", "A rules.\n")
        .file("r/a/CLAUDE.md", "[AGENTS.md](./AGENTS.md)\n")
        .file("r/b/AGENTS.md", "B rules.\n")
        .symlink("r/b/CLAUDE.md", "AGENTS.md")
        .file("r/c/AGENTS.md", "C rules.\n")
        .file("r/c/CLAUDE.md", "C rules.\n")
        .file("outside/AGENTS.md", "Elsewhere.\n")
        .symlink("r/d/AGENTS.md", "../../outside/AGENTS.md")
        .file("r/e/CLAUDE.md", "AGENTS.md")
        .file("r/e/AGENTS.md", "E rules.\n");
    let (out, err, code) = out_of(
        &t,
        t.profile_cmd()
            .current_dir(t.path("r"))
            .args(["check", "--profile", "all"]),
    );
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "\
dsh: d
  warning: d/AGENTS.md: symlink leaves the project: points to ../../outside/AGENTS.md, which resolves outside its project root (.)
    fix: copy the instructions into the project, or point the link at a file inside its project root (.), so that every checkout gets the same text

dsh: e
  warning: e/CLAUDE.md: symlink checked out as text: the whole content is the name of its sibling e/AGENTS.md, so sessions get the name instead of the instructions
    fix: check it out as a symlink (git config core.symlinks true, then check out again), or replace the text with e/AGENTS.md's content

codex: d
  warning: d/AGENTS.md: symlink leaves the project: points to ../../outside/AGENTS.md, which resolves outside its project root (.)
    fix: copy the instructions into the project, or point the link at a file inside its project root (.), so that every checkout gets the same text

opencode: d
  warning: d/AGENTS.md: symlink leaves the project: points to ../../outside/AGENTS.md, which resolves outside its project root (.)
    fix: copy the instructions into the project, or point the link at a file inside its project root (.), so that every checkout gets the same text

claude: .
  warning: AGENTS.md: outside the cwd; Claude Code skips it unless the project approves external imports (hasClaudeMdExternalIncludesApproved) (imported by CLAUDE.md)
    fix: move AGENTS.md inside the project, or approve external imports for it in Claude Code

claude: d
  warning: d/AGENTS.md: not loaded: CLAUDE.md holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)
    fix: merge what it says into CLAUDE.md, or make CLAUDE.md a pointer to it (@AGENTS.md)

claude: e
  warning: e/CLAUDE.md: symlink checked out as text: the whole content is the name of its sibling e/AGENTS.md, so claude sessions get the name instead of the instructions
    fix: check it out as a symlink (git config core.symlinks true, then check out again), or replace the text with e/AGENTS.md's content

dsh: checked 6 of 6 directories; largest baseline: 522 bytes in a; 0 errors, 2 warnings
codex: checked 6 of 6 directories; largest baseline: 129 bytes in d; 0 errors, 1 warning
gemini: checked 1 of 6 directories; largest baseline: 0 bytes in .; 0 errors, 0 warnings
opencode: checked 6 of 6 directories; largest baseline: 153 bytes in d; 0 errors, 1 warning
claude: checked 6 of 6 directories; largest baseline: 522 bytes in a; 0 errors, 3 warnings
",
            "",
            0
        )
    );
}

/// Where `--base` mirrors REV does not change what any harness is told:
/// with `TMPDIR` unset the mirror may go to memory (`/dev/shm`), but not
/// for claude, which reads nothing under `/dev`; its report matches the
/// one with the mirror in a temp directory of the test's own.
#[test]
fn base_reports_the_same_wherever_the_mirror_goes() {
    let t = four_harnesses();
    t.file("r/AGENTS.md", "# Rules\nUse pnpm. Never push.\n");
    fs::remove_file(t.path("r/docs/AGENTS.md")).unwrap();
    t.file("r/docs/guide.md", "Guide.\n");
    git_commit_all(&t.path("r"), "two");
    t.dir("tmp");
    for profile in ["claude", "dsh", "all"] {
        let run_with = |tmpdir: Option<&str>| {
            let mut cmd = t.profile_cmd();
            cmd.current_dir(t.path("r")).args([
                "check",
                "--profile",
                profile,
                "--base",
                "HEAD~1",
                "--summary",
            ]);
            match tmpdir {
                Some(dir) => cmd.env("TMPDIR", t.path(dir)),
                None => cmd.env_remove("TMPDIR"),
            };
            out_of(&t, &mut cmd)
        };
        let ours = run_with(Some("tmp"));
        assert!(ours.0.contains("directory  bytes"), "{profile}: {ours:?}");
        assert_eq!(run_with(None), ours, "{profile}");
    }
    assert_eq!(fs::read_dir(t.path("tmp")).unwrap().count(), 0);
}

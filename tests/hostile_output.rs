//! Output as a channel (issue 21, items 3 to 6): names never become markup,
//! mentions or links in the Markdown comment, never act as GitHub Actions
//! workflow commands in any human-facing output, and every path a session
//! would read from a secret location (a dsh symlink, a profile's file,
//! config entry, glob or import) is an error in check and a warning in
//! render and explain.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use pretty_assertions::assert_eq;
use serde_json::json;

use common::{Tree, check, git_commit_all, run, run_json};

/// The directory names of the issue that try to act as workflow commands,
/// one indented (the runner trims leading whitespace), and one with the
/// legacy `##[` form the runner obeys anywhere in a line.
const COMMAND_NAMES: [&str; 5] = [
    "::add-mask::warning",
    "::stop-commands::x",
    "::error title=agentctx::all verified, merge is safe",
    " ::warning::indented",
    "p ##[error]q",
];

/// Every line of `text` that a GitHub Actions runner would obey: one that
/// starts with `::` after whitespace (trimmed as .NET trims), or holds
/// `##[` anywhere. agentctx's own annotations (`::error file=`,
/// `::warning file=`) are allowed when `github` is set.
fn command_lines(text: &str, github: bool) -> Vec<String> {
    text.lines()
        .filter(|line| {
            let own = github
                && (line.starts_with("::error file=") || line.starts_with("::warning file="));
            !own && (line.trim_start().starts_with("::") || line.contains("##["))
        })
        .map(str::to_owned)
        .collect()
}

/// A repository whose first commit is empty and whose second adds an
/// empty `AGENTS.md` and a dangling `CLAUDE.md` in each of
/// [`COMMAND_NAMES`], so that every one has findings.
fn command_repo() -> Tree {
    let t = Tree::new();
    t.file("r/README", "x\n");
    git_commit_all(&t.path("r"), "one");
    for name in COMMAND_NAMES {
        t.file(&format!("r/{name}/AGENTS.md"), "")
            .symlink(&format!("r/{name}/CLAUDE.md"), "missing.md");
    }
    git_commit_all(&t.path("r"), "two");
    t
}

#[test]
fn check_text_never_starts_a_line_with_a_workflow_command_from_a_name() {
    let t = command_repo();
    let (out, err, code) = run(&mut check(&t, "r", &[]));
    let dangling = "dangling symlink: points to missing.md, which does not exist, so sessions load nothing from it";
    let empty = "empty file: sessions get an empty section";
    let empty_fix = "add instructions to it, or delete it";
    let shown = [
        " \\:\\:warning::indented",
        "\\:\\:add-mask::warning",
        "\\:\\:error title=agentctx::all verified, merge is safe",
        "\\:\\:stop-commands::x",
        "p \\#\\#[error]q",
    ];
    let mut want = String::new();
    for dir in shown {
        // Inside a line (the fix names the file) `::` starts nothing.
        let inner = dir.replace("\\:\\:", "::");
        want.push_str(&format!(
            "{dir}\n  warning: {dir}/AGENTS.md: {empty}\n    fix: {empty_fix}\n  warning: {dir}/CLAUDE.md: {dangling}\n    fix: point the link at an existing file, or delete {inner}/CLAUDE.md\n\n"
        ));
    }
    want.push_str("checked 5 of 6 directories; largest baseline: 356 bytes in ::error title=agentctx::all verified, merge is safe; 0 errors, 10 warnings\n");
    assert_eq!((out.as_str(), err.as_str(), code), (want.as_str(), "", 0));
    assert_eq!(command_lines(&out, false), Vec::<String>::new());
}

#[test]
fn summary_base_and_file_arguments_never_start_a_line_with_a_command() {
    let t = command_repo();
    let (out, err, code) = run(&mut check(&t, "r", &["--summary", "--base", "HEAD~1"]));
    assert_eq!((err.as_str(), code), ("", 0));
    let tail = out
        .split_once("directory ")
        .map(|(_, tail)| format!("directory {tail}"))
        .unwrap();
    assert_eq!(
        tail,
        "\
directory                                              bytes  of max  largest file                                                         headroom
 \\:\\:warning::indented                                   325    0.5%   \\:\\:warning::indented/AGENTS.md (0)                                    65211
\\:\\:add-mask::warning                                    324    0.5%  \\:\\:add-mask::warning/AGENTS.md (0)                                     65212
\\:\\:error title=agentctx::all verified, merge is safe    356    0.5%  \\:\\:error title=agentctx::all verified, merge is safe/AGENTS.md (0)     65180
\\:\\:stop-commands::x                                     323    0.5%  \\:\\:stop-commands::x/AGENTS.md (0)                                      65213
p \\#\\#[error]q                                           317    0.5%  p \\#\\#[error]q/AGENTS.md (0)                                            65219

impact against HEAD~1: 5 directories change what sessions receive
   \\:\\:warning::indented: none -> 325 bytes (+325); added  \\:\\:warning::indented/AGENTS.md
  \\:\\:add-mask::warning: none -> 324 bytes (+324); added \\:\\:add-mask::warning/AGENTS.md
  \\:\\:error title=agentctx::all verified, merge is safe: none -> 356 bytes (+356); added \\:\\:error title=agentctx::all verified, merge is safe/AGENTS.md
  \\:\\:stop-commands::x: none -> 323 bytes (+323); added \\:\\:stop-commands::x/AGENTS.md
  p \\#\\#[error]q: none -> 317 bytes (+317); added p \\#\\#[error]q/AGENTS.md
new: 0 errors, 10 warnings; pre-existing: 0 errors, 0 warnings

checked 5 of 6 directories; largest baseline: 356 bytes in ::error title=agentctx::all verified, merge is safe; 0 errors, 10 warnings
"
    );
    assert_eq!(command_lines(&out, false), Vec::<String>::new());
    // The pre-commit hook's mode: file names as arguments.
    let files: Vec<String> = COMMAND_NAMES
        .iter()
        .map(|n| format!("{n}/AGENTS.md"))
        .collect();
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let (out, err, code) = run(&mut check(&t, "r", &args));
    assert_eq!((err.as_str(), code), ("", 0));
    assert!(out.starts_with(" \\:\\:warning::indented\n"), "{out}");
    assert_eq!(command_lines(&out, false), Vec::<String>::new());
    // Markdown and --deny-warnings (exit 1) too.
    let (out, _, code) = run(&mut check(
        &t,
        "r",
        &["--format", "markdown", "--deny-warnings"],
    ));
    assert_eq!(code, 1);
    assert_eq!(command_lines(&out, false), Vec::<String>::new());
}

#[test]
fn github_format_commands_are_agentctxs_own_and_the_summary_line_is_inert() {
    let t = command_repo();
    let (out, err, code) = run(&mut check(&t, "r", &["--format", "github"]));
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(command_lines(&out, true), Vec::<String>::new());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 11);
    // The file property names the real file, its `:` and `,` escaped.
    assert_eq!(
        lines[4],
        "::warning file=%3A%3Aerror title=agentctx%3A%3Aall verified%2C merge is safe/AGENTS.md,line=1,title=Empty instruction file::empty file: sessions get an empty section%0Afix: add instructions to it, or delete it"
    );
    assert_eq!(
        lines[10],
        "agentctx check: checked 5 of 6 directories; largest baseline: 356 bytes in ::error title=agentctx::all verified, merge is safe; 0 errors, 10 warnings"
    );
}

#[test]
fn explain_and_warnings_never_start_a_line_with_a_command() {
    let t = command_repo();
    for name in COMMAND_NAMES {
        let cwd = format!("r/{name}");
        let (out, err, code) = run(t.cmd().args(["explain", "--cwd", &cwd]));
        assert_eq!(code, 0, "{err}");
        assert_eq!(command_lines(&out, false), Vec::<String>::new(), "{name}");
        assert_eq!(command_lines(&err, false), Vec::<String>::new(), "{name}");
        let (_, err, code) = run(t.cmd().args(["render", "--cwd", &cwd]));
        assert_eq!(code, 0);
        assert!(err.contains("CLAUDE.md: dangling symlink"), "{err}");
        assert_eq!(command_lines(&err, false), Vec::<String>::new(), "{name}");
    }
    // A name shown in an error line.
    let (_, err, code) = run(t.cmd().args(["render", "--cwd", "r/::add-mask::gone"]));
    assert_eq!(code, 2);
    assert_eq!(command_lines(&err, false), Vec::<String>::new(), "{err}");
}

/// The names of the issue that try to become markup, a mention and a code
/// span breaker, and a link.
const MARKUP_NAMES: [&str; 4] = [
    "<a href=\"https:\\\\evil.example\" title=\"x\">Approve this PR",
    "@org",
    "x`y",
    "see https:",
];

#[test]
fn markdown_names_never_become_html_mentions_or_links() {
    let t = Tree::new();
    t.file("r/README", "x\n");
    git_commit_all(&t.path("r"), "one");
    for name in MARKUP_NAMES {
        t.file(&format!("r/{name}/AGENTS.md"), "A.\n");
    }
    t.file("r/@org/team/AGENTS.md", "");
    t.symlink("r/see https:/CLAUDE.md", "https://evil.example/x");
    git_commit_all(&t.path("r"), "two");
    let (out, err, code) = run(&mut check(
        &t,
        "r",
        &["--base", "HEAD~1", "--format", "markdown"],
    ));
    assert_eq!((err.as_str(), code), ("", 0));
    // Markdown contexts: punctuation backslash-escaped. The <summary> of
    // an HTML block: HTML-escaped. Both: U+200B after `@` and a URL's `:`.
    let z = '\u{200B}';
    let a_md = "\\<a href=\"https:\\\\\\\\evil.example\" title=\"x\"\\>Approve this PR";
    let a_html =
        "&lt;a href=&quot;https:\\\\evil.example&quot; title=&quot;x&quot;&gt;Approve this PR";
    assert_eq!(
        out,
        format!(
            "\
### agentctx check

**5 directories change what sessions receive** against `HEAD~1`: 0 new errors, 0 pre-existing.

| Directory | Before | After | Change | Files |
|---|---:|---:|---:|---|
| {a_md} | none | 364 | +364 | 1 added |
| @{z}org | none | 312 | +312 | 1 added |
| @{z}org/team | none | 354 | +354 | 2 added |
| see https: | none | 318 | +318 | 1 added |
| x\\`y | none | 311 | +311 | 1 added |

<details><summary>{a_html}: none → 364 bytes</summary>

- added: {a_md}/AGENTS.md

</details>

<details><summary>@{z}org: none → 312 bytes</summary>

- added: @{z}org/AGENTS.md

</details>

<details><summary>@{z}org/team: none → 354 bytes</summary>

- added: @{z}org/AGENTS.md
- added: @{z}org/team/AGENTS.md

</details>

<details><summary>see https:: none → 318 bytes</summary>

- added: see https:{z}/AGENTS.md

</details>

<details><summary>x`y: none → 311 bytes</summary>

- added: x\\`y/AGENTS.md

</details>

| | File | Finding | Fix |
|---|---|---|---|
| warning | @{z}org/team/AGENTS.md | empty file: sessions get an empty section | add instructions to it, or delete it |
| warning | see https:{z}/CLAUDE.md | dangling symlink: points to https:{z}//evil.example/x, which does not exist, so sessions load nothing from it | point the link at an existing file, or delete see https:{z}/CLAUDE.md |

checked 5 of 6 directories; largest baseline: 364 bytes in {a_md}: 0 errors, 2 warnings
"
        )
    );
}

#[test]
fn profile_configs_that_pull_secrets_are_errors_and_warnings() {
    let t = Tree::new();
    t.file("home/.ssh/id_rsa", "PRIVATE KEY\n")
        .dir("r/.git")
        .file("r/.git/config", "[remote]\n\ttoken = x\n")
        .file("r/AGENTS.md", "Rules.\n")
        .file(
            "r/opencode.json",
            r#"{"instructions":["/proc/self/environ","~/.ssh/id_rsa","~/.aws/*"]}"#,
        )
        .file(
            "r/.gemini/settings.json",
            r#"{"context":{"fileName":["../.ssh/id_rsa","GEMINI.md"]}}"#,
        )
        .file("r/GEMINI.md", "Read @.git/config please.\n");
    let home = t.path_str("home");
    let root = t.path_str("r");
    let mut cmd = t.profile_cmd();
    cmd.current_dir(t.path("r"))
        .args(["check", "--profile", "opencode"]);
    let (out, err, code) = run(&mut cmd);
    // The bytes sent hold /proc/self/environ, which is the environment's.
    let out = match out.split_once("largest baseline: ") {
        Some((head, tail)) => {
            let rest = tail.split_once(' ').map_or("", |(_, r)| r);
            format!("{head}largest baseline: N {rest}")
        }
        None => out,
    };
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            // opencode resolves globs now (issue 25): no "not exact" warning.
            "\
opencode: /proc/self
  error: /proc/self/environ: reads a secret: in /proc, /sys or /dev, so opencode sends what it holds to the model
    fix: replace it with a regular file inside the project that holds only instructions

opencode: ~/.ssh
  error: ~/.ssh/id_rsa: reads a secret: in a credentials store (.ssh, .gnupg, .aws, .netrc, .git-credentials), so opencode sends what it holds to the model
    fix: replace it with a regular file inside the project that holds only instructions

opencode: .
  error: instructions entry ~/.aws/*: a glob into a secret: in a credentials store (.ssh, .gnupg, .aws, .netrc, .git-credentials), so opencode sends what it matches to the model
    fix: remove the instructions entry ~/.aws/*

opencode: checked 1 of 2 directories; largest baseline: N bytes in .; 3 errors, 0 warnings
",
            "",
            1
        )
    );
    let mut cmd = t.profile_cmd();
    cmd.current_dir(t.path("r"))
        .args(["check", "--profile", "gemini", "--format", "json"]);
    let (got, code) = run_json(&mut cmd);
    assert_eq!(code, 1);
    let ssh = format!("{home}/.ssh/id_rsa");
    let gemini_md = format!("{root}/GEMINI.md");
    let found: Vec<serde_json::Value> = got["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| json!([f["file"], f["severity"], f["rule"], f["message"]]))
        .collect();
    // The secret reached through the repository's context.fileName is
    // reported though it lies in the home directory (a global file).
    assert_eq!(
        found,
        [
            json!([
                "GEMINI.md",
                "error",
                "AGX003",
                format!(
                    "import @.git/config reads a secret: it resolves to {root}/.git/config in a git directory (.git), so gemini sends what it holds to the model"
                )
            ]),
            json!([
                "~/.ssh/id_rsa",
                "error",
                "AGX003",
                "reads a secret: in a credentials store (.ssh, .gnupg, .aws, .netrc, .git-credentials), so gemini sends what it holds to the model"
            ]),
        ]
    );
    // render still sends what the harness sends; stderr says so.
    let mut cmd = t.profile_cmd();
    cmd.current_dir(t.path("r"))
        .args(["render", "--profile", "gemini"]);
    let (out, err, code) = run(&mut cmd);
    assert_eq!(code, 0);
    assert!(
        out.contains("PRIVATE KEY") && out.contains("token = x"),
        "{out}"
    );
    assert_eq!(
        err,
        format!(
            "\
agentctx: warning: {gemini_md}: import @.git/config reads a secret: it resolves to {root}/.git/config in a git directory (.git), so gemini sends what it holds to the model
agentctx: warning: {ssh}: reads a secret: in a credentials store (.ssh, .gnupg, .aws, .netrc, .git-credentials), so gemini sends what it holds to the model
"
        )
    );
    let mut cmd = t.profile_cmd();
    cmd.current_dir(t.path("r"))
        .args(["explain", "--profile", "opencode"]);
    let (out, err, code) = run(&mut cmd);
    assert_eq!(code, 0);
    assert!(err.contains("/proc/self/environ: reads a secret"), "{err}");
    assert!(
        out.contains("  error: /proc/self/environ: reads a secret"),
        "{out}"
    );
}

#[test]
fn links_into_git_are_errors_in_check_and_warnings_in_render() {
    let t = Tree::new();
    t.file(
        "r/.git/config",
        "[remote \"origin\"]\n\textraheader = AUTHORIZATION: basic x\n",
    )
    .file("r/AGENTS.md", "Root.\n")
    .symlink("r/docs/AGENTS.md", "../.git/config");
    let root = t.path_str("r");
    let (out, err, code) = run(&mut check(&t, "r", &[]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            format!(
                "\
docs
  error: docs/AGENTS.md: symlink to a secret: points to ../.git/config, which resolves to {root}/.git/config in a git directory (.git), so sessions send what it holds to the model
    fix: replace the symlink with a regular file that holds only instructions

checked 2 of 2 directories; largest baseline: 403 bytes in docs; 1 error, 0 warnings
"
            )
            .as_str(),
            "",
            1
        )
    );
    let (got, _) = run_json(&mut check(&t, "r", &["--format", "json"]));
    assert_eq!(got["findings"][0]["rule"], json!("AGX003"));
    assert_eq!(got["findings"][0]["place"], json!("git"));
    // render sends it as dsh would, and warns.
    let warning = format!(
        "agentctx: warning: docs/AGENTS.md: symlink to ../.git/config ({root}/.git/config), in a git directory (.git): sessions send what it holds to the model\n"
    );
    let (out, err, code) = run(t.cmd().args(["render", "--cwd", "r/docs"]));
    assert_eq!((err.as_str(), code), (warning.as_str(), 0));
    assert!(
        out.contains("Instructions from: docs/AGENTS.md\n\n[remote \"origin\"]"),
        "{out}"
    );
    let (_, err, code) = run(t.cmd().args(["explain", "--cwd", "r/docs"]));
    assert_eq!((err.as_str(), code), (warning.as_str(), 0));
}

#[test]
fn links_to_the_shadow_file_are_errors_in_check() {
    if !std::path::Path::new("/etc/shadow").exists() {
        eprintln!("skipping: no /etc/shadow on this machine");
        return;
    }
    let t = Tree::new();
    t.dir("r/.git").symlink("r/AGENTS.md", "/etc/shadow");
    let (got, code) = run_json(&mut check(&t, "r", &["--format", "json"]));
    assert_eq!(code, 1);
    assert_eq!(
        (
            &got["findings"][0]["rule"],
            &got["findings"][0]["place"],
            &got["findings"][0]["message"]
        ),
        (
            &json!("AGX003"),
            &json!("secrets"),
            &json!(
                "symlink to a secret: points to /etc/shadow, in the system's secrets (/etc/shadow, /etc/gshadow, /run/secrets, /var/run/secrets), so sessions send what it holds to the model"
            )
        )
    );
}

//! `--profile` (SPEC 10): each profile's edge cases and the usage rules,
//! run on fixture trees with whole-string comparisons of stdout, stderr and
//! the exit code.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Tree, run};
use pretty_assertions::assert_eq;

/// (stdout, stderr, exit) of `agentctx ARGS` in the tree.
fn agentctx(t: &Tree, args: &[&str]) -> (String, String, i32) {
    run(t.profile_cmd().args(args))
}

/// (stdout, stderr, exit) of `render --profile PROFILE --cwd CWD EXTRA`.
fn render_profile(t: &Tree, profile: &str, cwd: &str, extra: &[&str]) -> (String, String, i32) {
    agentctx(
        t,
        &[&["render", "--profile", profile, "--cwd", cwd], extra].concat(),
    )
}

fn ok(stdout: &str) -> (String, String, i32) {
    (stdout.to_owned(), String::new(), 0)
}

fn usage(line: &str) -> (String, String, i32) {
    (String::new(), format!("agentctx: {line}\n"), 2)
}

fn codex_part(cwd: &str, text: &str) -> String {
    format!("# AGENTS.md instructions for {cwd}\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>")
}

#[test]
fn codex_budget_cuts_mid_character_into_one_replacement() {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/AGENTS.md", "ab\u{20ac}cd");
    let cwd = &t.path_str("r");
    let got = render_profile(&t, "codex", cwd, &["--project-doc-max-bytes", "4"]);
    assert_eq!(got, ok(&codex_part(cwd, "ab\u{fffd}")));
    let got = agentctx(
        &t,
        &[
            "check",
            "--profile",
            "codex",
            "r",
            "--project-doc-max-bytes",
            "4",
        ],
    );
    assert_eq!(
        got,
        (
            "\
codex: r
  error: r/AGENTS.md: over budget: cut from 7 to 4 bytes for sessions in 1 directory (r)
    fix: cut 3 bytes from what a session in r loads (the largest excess), or raise project_doc_max_bytes (now 4) to 7

codex: checked 1 of 1 directory; largest baseline: 94 bytes in r; 1 error, 0 warnings
"
            .to_owned(),
            String::new(),
            1
        )
    );
}

#[test]
fn codex_empty_override_hides_agents_md() {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/AGENTS.override.md", " \n")
        .file("r/AGENTS.md", "hidden\n");
    let cwd = &t.path_str("r");
    assert_eq!(render_profile(&t, "codex", cwd, &[]), ok(""));
    assert_eq!(
        agentctx(&t, &["check", "--profile", "codex", "r"]),
        (
            "\
codex: r
  warning: r/AGENTS.md: hidden by the empty r/AGENTS.override.md: codex loads nothing from this directory
    fix: delete the empty r/AGENTS.override.md, or give it the instructions

codex: checked 1 of 1 directory; largest baseline: 0 bytes in r; 0 errors, 1 warning
"
            .to_owned(),
            String::new(),
            0
        )
    );
}

#[test]
fn codex_global_only_drops_the_cwd_from_the_frame() {
    let t = Tree::new();
    t.file("home/.codex/AGENTS.md", "\n  global rules \n")
        .dir("w");
    let cwd = &t.path_str("w");
    assert_eq!(
        render_profile(&t, "codex", cwd, &[]),
        ok("# AGENTS.md instructions\n\n<INSTRUCTIONS>\nglobal rules\n</INSTRUCTIONS>")
    );
}

#[test]
fn codex_global_then_project_with_the_separator() {
    let t = Tree::new();
    t.file("home/.codex/AGENTS.md", "G")
        .dir("r/.git")
        .file("r/AGENTS.md", "R\n")
        .file("r/a/AGENTS.md", "A\n");
    let cwd = &t.path_str("r/a");
    assert_eq!(
        render_profile(&t, "codex", cwd, &[]),
        ok(&codex_part(cwd, "G\n\n--- project-doc ---\n\nR\n\n\nA\n"))
    );
}

#[test]
fn codex_settings_name_their_origins() {
    let t = Tree::new();
    t.file(
        "ch/config.toml",
        "project_doc_max_bytes = 100\nproject_doc_fallback_filenames = [\"README.md\"]\n",
    )
    .dir("w");
    let cwd = t.path("w");
    let ch = t.path("ch");
    let out = t
        .profile_cmd()
        .env("CODEX_HOME", &ch)
        .args(["explain", "--profile", "codex", "--format", "json", "--cwd"])
        .arg(&cwd)
        .args(["--project-root-markers", ".hg"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let config = format!("config:{}/config.toml", ch.display());
    assert_eq!(
        v["settings"],
        serde_json::json!({
            "codex_home": {"value": ch, "origin": "env:CODEX_HOME"},
            "project_doc_max_bytes": {"value": 100, "origin": config},
            "project_doc_fallback_filenames": {"value": ["README.md"], "origin": config},
            "project_root_markers": {"value": [".hg"], "origin": "flag"},
            "trust": {"value": null, "origin": "default"},
        })
    );
}

#[test]
fn codex_invalid_config_is_exit_2_with_its_position() {
    let t = Tree::new();
    t.file(
        "home/.codex/config.toml",
        "a = 1\nproject_doc_max_bytes = = 3\n",
    )
    .dir("w");
    let got = render_profile(&t, "codex", &t.path_str("w"), &[]);
    let config = t.path("home/.codex/config.toml");
    assert_eq!(
        got,
        usage(&format!(
            "{}:2:25: invalid TOML: extra `=`, expected nothing",
            config.display()
        ))
    );
}

#[test]
fn gemini_import_cycle_and_traversal() {
    let t = Tree::new();
    t.dir("home")
        .dir("p/.git")
        .file("p/GEMINI.md", "top @./a.md and @../out.md\n")
        .file("p/a.md", "A @./GEMINI.md @./a.md\n")
        .file("out.md", "outside\n");
    let cwd = &t.path_str("p");
    let file = format!("{cwd}/GEMINI.md");
    let expected = format!(
        "<loaded_context>\n<project_context>\n--- Context from: {file} ---\n\
         top <!-- Imported from: ./a.md -->\n\
         A <!-- Imported from: ./GEMINI.md -->\n\
         top <!-- File already processed: ./a.md --> and <!-- Import failed: ../out.md - Path traversal attempt -->\n\n\
         <!-- End of import from: ./GEMINI.md --> <!-- File already processed: ./a.md -->\n\n\
         <!-- End of import from: ./a.md --> and <!-- Import failed: ../out.md - Path traversal attempt -->\n\
         --- End of Context from: {file} ---\n</project_context>\n</loaded_context>"
    );
    assert_eq!(render_profile(&t, "gemini", cwd, &[]), ok(&expected));
}

#[test]
fn gemini_flat_import_format_is_unsupported() {
    let t = Tree::new();
    t.file(
        "home/.gemini/settings.json",
        "{\n  // flat is not modelled\n  \"context\": {\"importFormat\": \"flat\"}\n}\n",
    )
    .dir("w");
    let got = render_profile(&t, "gemini", &t.path_str("w"), &[]);
    assert_eq!(
        got,
        usage(&format!(
            "{}: context.importFormat \"flat\" is not supported (only \"tree\")",
            t.path("home/.gemini/settings.json").display()
        ))
    );
}

#[test]
fn gemini_settings_expand_variables_and_name_their_origin() {
    let t = Tree::new();
    t.file(
        "home/.gemini/settings.json",
        "{\"context\": {\"fileName\": \"${KIND:-X}.md\" /* c */}}",
    )
    .file("w/X.md", "x")
    .dir("w/.git");
    let cwd = t.path("w");
    let out = t
        .profile_cmd()
        .env_remove("KIND")
        .args([
            "explain",
            "--profile",
            "gemini",
            "--format",
            "json",
            "--cwd",
        ])
        .arg(&cwd)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let settings = format!(
        "settings:{}",
        t.path("home/.gemini/settings.json").display()
    );
    assert_eq!(
        v["settings"]["context.fileName"],
        serde_json::json!({"value": "X.md", "origin": settings})
    );
    assert_eq!(
        v["settings"]["names"]["value"],
        serde_json::json!(["X.md", "GEMINI.md"])
    );
    assert_eq!(v["files"][0]["path"], format!("{}/X.md", cwd.display()));
}

#[test]
fn opencode_first_name_wins_across_the_chain() {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/CLAUDE.md", "root claude")
        .file("r/a/AGENTS.md", "a agents")
        .file("r/a/b/CLAUDE.md", "b claude");
    let cwd = &t.path_str("r/a/b");
    let agents = t.path("r/a/AGENTS.md");
    assert_eq!(
        render_profile(&t, "opencode", cwd, &[]),
        ok(&format!(
            "Instructions from: {}\na agents",
            agents.display()
        ))
    );
}

#[test]
fn opencode_env_switch_and_jsonc_config_origins() {
    let t = Tree::new();
    t.file(
        "home/.config/opencode/opencode.jsonc",
        "{\n  // shared rules\n  \"instructions\": [\"rules.md\",],\n}\n",
    )
    .file("home/.config/opencode/rules.md", "R")
    .dir("r/.git");
    let cwd = t.path("r");
    let out = t
        .profile_cmd()
        .env("OPENCODE_DISABLE_PROJECT_CONFIG", "TRUE")
        .args([
            "render",
            "--profile",
            "opencode",
            "--format",
            "json",
            "--cwd",
        ])
        .arg(&cwd)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let dir = t.path("home/.config/opencode");
    assert_eq!(
        v["settings"]["disable_project_config"],
        serde_json::json!({"value": true, "origin": "env:OPENCODE_DISABLE_PROJECT_CONFIG"})
    );
    assert_eq!(
        v["settings"]["instructions"],
        serde_json::json!({"value": ["rules.md"], "origin": format!("config:{}/opencode.jsonc", dir.display())})
    );
    assert_eq!(
        v["parts"],
        serde_json::json!([format!("Instructions from: {}/rules.md\nR", dir.display())])
    );
}

#[test]
fn dsh_only_flags_with_another_profile_are_bad_usage() {
    let t = Tree::new();
    t.dir("home").dir("w");
    assert_eq!(
        agentctx(&t, &["render", "--profile", "codex", "--max-bytes", "5"]),
        usage(
            "--max-bytes is a dsh setting; it does not apply to --profile codex; codex's byte budget is --project-doc-max-bytes"
        )
    );
    assert_eq!(
        agentctx(
            &t,
            &["render", "--profile", "gemini", "--root-markers", "x"]
        ),
        usage(
            "--root-markers is a dsh setting; it does not apply to --profile gemini; gemini's root markers are --memory-boundary-markers"
        )
    );
    assert_eq!(
        agentctx(&t, &["explain", "--profile", "gemini", "--log", "x.jsonl"]),
        usage("--log is a dsh setting; it does not apply to --profile gemini")
    );
    assert_eq!(
        agentctx(&t, &["check", "--profile", "codex", "--precedence", "all"]),
        usage("--precedence is a dsh setting; it does not apply to --profile codex")
    );
}

#[test]
fn a_profile_flag_without_its_profile_is_bad_usage() {
    let t = Tree::new();
    t.dir("home").dir("w");
    assert_eq!(
        agentctx(&t, &["render", "--touch", "src/x.rs"]),
        usage(
            "--touch is a setting of --profile gemini; it does not apply to dsh; for dsh, `agentctx diff --log FILE --touch PATH` shows what a read or edit of PATH adds to a resumed session"
        )
    );
    // With dsh among them, dsh's settings apply; a profile's flag needs its profile.
    assert_eq!(
        agentctx(
            &t,
            &["check", "--profile", "dsh,gemini", "--instructions", "a.md"]
        ),
        usage(
            "--instructions is a setting of --profile opencode; it does not apply to --profile dsh,gemini"
        )
    );
    assert_eq!(
        agentctx(&t, &["render", "--codex-home", "x"]),
        usage("--codex-home is a setting of --profile codex; it does not apply to dsh")
    );
    assert_eq!(
        agentctx(
            &t,
            &["render", "--profile", "gemini", "--instructions", "a.md"]
        ),
        usage(
            "--instructions is a setting of --profile opencode; it does not apply to --profile gemini"
        )
    );
}

#[test]
fn a_profile_the_subcommand_does_not_take_is_bad_usage() {
    let t = Tree::new();
    t.dir("home").dir("w");
    assert_eq!(
        agentctx(&t, &["check", "--profile", "copilot"]),
        usage(
            "--profile copilot has no check: it is documented behaviour, not byte-exact (explain takes it)"
        )
    );
    assert_eq!(
        agentctx(&t, &["render", "--profile", "dsh,codex"]),
        usage(
            "--profile takes one harness here; a list (dsh,codex) works with check only; try '--help'"
        )
    );
    assert_eq!(
        agentctx(&t, &["diff", "--log", "x.jsonl", "--profile", "opencode"]),
        usage(
            "diff replays a dsh session log: --profile opencode does not apply (render and explain take it)"
        )
    );
    assert_eq!(
        agentctx(&t, &["render", "--profile", "copilot"]),
        usage(
            "--profile copilot is documented behaviour, not byte-exact: it works with explain only"
        )
    );
    assert_eq!(
        agentctx(&t, &["explain", "--profile", "all"]),
        usage("--profile all works with check only")
    );
}

#[test]
fn check_all_reports_every_profile_in_one_walk() {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/AGENTS.md", "root\n")
        .file("r/CLAUDE.md", "claude\n")
        .file("r/a/GEMINI.md", "see @./missing.md\n");
    let got = agentctx(&t, &["check", "--profile", "all", "r"]);
    assert_eq!(
        got,
        (
            "\
dsh: r
  warning: r/CLAUDE.md: two sources of truth: differs from r/AGENTS.md and both load; 0 bytes of overlapping instructions
    fix: merge r/CLAUDE.md into r/AGENTS.md and make it a symlink to it (or a pointer: @AGENTS.md)

gemini: r/a
  warning: r/a/GEMINI.md: import @./missing.md failed: ENOENT: no such file or directory, access 'r/a/missing.md'
    fix: fix the import @./missing.md (the error says why), or remove it

opencode: r
  warning: r/CLAUDE.md: ignored by opencode: an AGENTS.md exists in the chain (r/AGENTS.md), and the first name found wins for every directory
    fix: merge what it says into r/AGENTS.md and make it a symlink to it (or a pointer: @AGENTS.md)

claude: r
  warning: r/AGENTS.md: not loaded: r/CLAUDE.md holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)
    fix: merge what it says into r/CLAUDE.md, or make r/CLAUDE.md a pointer to it (@AGENTS.md)

dsh: checked 1 of 2 directories; largest baseline: 348 bytes in r; 0 errors, 1 warning
codex: checked 1 of 2 directories; largest baseline: 94 bytes in r; 0 errors, 0 warnings
gemini: checked 2 of 2 directories; largest baseline: 330 bytes in r/a; 0 errors, 1 warning
opencode: checked 1 of 2 directories; largest baseline: 62 bytes in r; 0 errors, 1 warning
claude: checked 1 of 2 directories; largest baseline: 340 bytes in r; 0 errors, 1 warning
"
            .to_owned(),
            String::new(),
            0
        )
    );
    let (_, _, code) = agentctx(&t, &["check", "--profile", "all", "r", "--deny-warnings"]);
    assert_eq!(code, 1);
}

#[test]
fn explain_lists_files_with_status_and_why() {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/AGENTS.md", "0123456789")
        .file("r/README.md", "readme")
        .file("r/a/AGENTS.md", "a");
    let r = &t.path_str("r");
    let home = &t.path_str("home");
    let got = agentctx(
        &t,
        &[
            "explain",
            "--profile",
            "codex",
            "--cwd",
            &format!("{r}/a"),
            "--project-doc-max-bytes",
            "4",
            "--project-doc-fallback-filenames",
            "README.md",
        ],
    );
    let part = codex_part(&format!("{r}/a"), "0123").len();
    let expected = format!(
        "Profile: codex (exact)\ncwd: {r}/a\n\nSettings:\n\
         \x20 codex_home                      {home}/.codex  (default)\n\
         \x20 project_doc_max_bytes           4  (flag)\n\
         \x20 project_doc_fallback_filenames  [\"README.md\"]  (flag)\n\
         \x20 project_root_markers            [\".git\"]  (default)\n\
         \x20 trust                           null  (default)\n\n\
         Files (load order):\n\
         \x20 truncated       {r}/AGENTS.md  (10 bytes, 4 kept)\n\
         \x20                 codex cuts it silently to the bytes left: project_doc_max_bytes is 4\n\
         \x20 shadowed        {r}/README.md  (6 bytes)\n\
         \x20                 codex loads one file per directory: {r}/AGENTS.md wins\n\
         \x20 over-budget     {r}/a/AGENTS.md  (1 byte)\n\
         \x20                 the budget was used up by earlier files; dropped silently: project_doc_max_bytes is 4\n\n\
         Parts:\n  user-instructions  {part} bytes, 5 lines\n\n\
         Findings (as check reports them):\n\
         \x20 error: {r}/AGENTS.md: over budget: cut from 10 to 4 bytes (project_doc_max_bytes 4)\n\
         \x20 error: {r}/a/AGENTS.md: over budget: cut from 1 to 0 bytes (project_doc_max_bytes 4)\n"
    );
    assert_eq!(got, ok(&expected));
}

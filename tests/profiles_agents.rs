//! The rules issue 25 changed so that codex, gemini, opencode and copilot
//! match the pinned real agents (PROFILES.md's revision; each rule was
//! checked on the agent with scripts/realagents/cases.py): whole stdout,
//! stderr and exit code of each.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Tree, run};
use pretty_assertions::assert_eq;

/// (stdout, stderr, exit) of `agentctx ARGS` in the tree.
fn agentctx(t: &Tree, args: &[&str]) -> (String, String, i32) {
    run(t.profile_cmd().args(args))
}

fn render(t: &Tree, profile: &str, cwd: &str, extra: &[&str]) -> (String, String, i32) {
    agentctx(
        t,
        &[&["render", "--profile", profile, "--cwd", cwd], extra].concat(),
    )
}

fn ok(stdout: &str) -> (String, String, i32) {
    (stdout.to_owned(), String::new(), 0)
}

fn warned(stdout: &str, warnings: &[String]) -> (String, String, i32) {
    let stderr: String = warnings
        .iter()
        .map(|w| format!("agentctx: warning: {w}\n"))
        .collect();
    (stdout.to_owned(), stderr, 0)
}

fn usage(line: &str) -> (String, String, i32) {
    (String::new(), format!("agentctx: {line}\n"), 2)
}

fn codex_part(head: &str, text: &str) -> String {
    format!("{head}\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>")
}

fn trust(t: &Tree, entries: &[(&str, &str)], top: &str) {
    let table: String = entries
        .iter()
        .map(|(dir, level)| {
            format!(
                "[projects.\"{}\"]\ntrust_level = \"{level}\"\n",
                t.path_str(dir)
            )
        })
        .collect();
    t.file("home/.codex/config.toml", format!("{top}{table}"));
}

// ------------------------------------------------------------------ codex

#[test]
fn codex_header_names_the_cwd_only_when_a_project_doc_gives_text() {
    let t = Tree::new();
    t.file("home/.codex/AGENTS.md", "Global.\n")
        .dir("r/.git")
        .file("r/AGENTS.md", " \n\t\n")
        .file("r/a/AGENTS.md", "Project.\n");
    let blank = t.path_str("r");
    assert_eq!(
        render(&t, "codex", &blank, &[]),
        ok(&codex_part("# AGENTS.md instructions", "Global."))
    );
    let a = t.path_str("r/a");
    let budget_zero = render(&t, "codex", &a, &["--project-doc-max-bytes", "0"]);
    assert_eq!(
        budget_zero,
        ok(&codex_part("# AGENTS.md instructions", "Global."))
    );
    assert_eq!(
        render(&t, "codex", &a, &[]),
        ok(&codex_part(
            &format!("# AGENTS.md instructions for {a}"),
            "Global.\n\n--- project-doc ---\n\nProject.\n"
        ))
    );
}

#[test]
fn codex_trusted_layers_set_the_budget_and_names_nearest_first() {
    let t = Tree::new();
    trust(&t, &[("r", "trusted")], "project_doc_max_bytes = 100\n");
    t.dir("r/.git")
        .file("r/AGENTS.md", "root doc long\n")
        .file(
            "r/.codex/config.toml",
            "project_doc_max_bytes = 4\nproject_doc_fallback_filenames = [\"N.md\"]\n",
        )
        .file("r/u/.codex/config.toml", "project_doc_max_bytes = 9\n")
        .file("r/u/N.md", "u fallback\n");
    let cwd = t.path_str("r/u");
    assert_eq!(
        render(&t, "codex", &cwd, &[]),
        ok(&codex_part(
            &format!("# AGENTS.md instructions for {cwd}"),
            "root doc "
        ))
    );
    let (out, err, code) = agentctx(
        &t,
        &[
            "explain",
            "--profile",
            "codex",
            "--format",
            "json",
            "--cwd",
            &cwd,
        ],
    );
    assert_eq!((err.as_str(), code), ("", 0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = t.path_str("r");
    assert_eq!(
        v["settings"],
        serde_json::json!({
            "codex_home": {"value": t.path_str("home/.codex"), "origin": "default"},
            "project_doc_max_bytes": {"value": 9, "origin": format!("config:{cwd}/.codex/config.toml")},
            "project_doc_fallback_filenames": {"value": ["N.md"], "origin": format!("config:{r}/.codex/config.toml")},
            "project_root_markers": {"value": [".git"], "origin": "default"},
            "trust": {"value": "trusted", "origin": format!("config:{}", t.path_str("home/.codex/config.toml"))},
        })
    );
}

#[test]
fn codex_untrusted_cwd_loads_no_project_docs_and_an_untrusted_layer_is_not_read() {
    let t = Tree::new();
    trust(&t, &[("r", "trusted"), ("r/u", "untrusted")], "");
    t.file("home/.codex/AGENTS.md", "Global.\n")
        .dir("r/.git")
        .file("r/AGENTS.md", "Root.\n")
        .file("r/u/AGENTS.md", "U.\n")
        .file("r/u/.codex/config.toml", "project_doc_max_bytes = 1\n");
    let cwd = t.path_str("r/u");
    let config = t.path_str("home/.codex/config.toml");
    assert_eq!(
        render(&t, "codex", &cwd, &[]),
        warned(
            &codex_part("# AGENTS.md instructions", "Global."),
            &[
                format!(
                    "{cwd}/.codex/config.toml: not read: codex reads a project's .codex/config.toml only when the project is trusted"
                ),
                format!(
                    "{cwd}: trust_level is \"untrusted\" in {config}; codex loads no project docs"
                ),
            ]
        )
    );
    assert_eq!(
        agentctx(&t, &["check", "--profile", "codex", &t.path_str("r")]),
        (
            // check's shape (issue 26): grouped, each with its fix; a
            // harness's own warning keeps its words (absolute paths).
            format!(
                "codex: .\n  \
                 warning: {cwd}/.codex/config.toml: not read: codex reads a project's .codex/config.toml only when the project is trusted\n    \
                 fix: fix the setting or file the warning names, as codex reads it\n  \
                 warning: {cwd}: trust_level is \"untrusted\" in {config}; codex loads no project docs\n    \
                 fix: fix the setting or file the warning names, as codex reads it\n\n\
                 codex: checked 2 of 3 directories; largest baseline: 125 bytes in r; 0 errors, 2 warnings\n"
            ),
            String::new(),
            0
        )
    );
}

#[test]
fn codex_refuses_a_trust_level_it_does_not_know() {
    let t = Tree::new();
    trust(&t, &[("r", "maybe")], "");
    t.dir("r");
    let config = t.path_str("home/.codex/config.toml");
    let r = t.path_str("r");
    assert_eq!(
        render(&t, "codex", &r, &[]),
        usage(&format!(
            "{config}: projects.\"{r}\".trust_level must be \"trusted\" or \"untrusted\", got \"maybe\""
        ))
    );
}

#[test]
fn codex_ignores_a_fallback_name_that_is_not_a_filename() {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/docs/AI.md", "docs\n")
        .file("r/X.md", "plain x\n");
    let r = t.path_str("r");
    assert_eq!(
        render(
            &t,
            "codex",
            &r,
            &["--project-doc-fallback-filenames", "docs/AI.md,..,X.md"]
        ),
        warned(
            &codex_part(&format!("# AGENTS.md instructions for {r}"), "plain x\n"),
            &[
                "project_doc_fallback_filenames entry \"docs/AI.md\" is not a filename; codex ignores it".to_owned(),
                "project_doc_fallback_filenames entry \"..\" is not a filename; codex ignores it".to_owned(),
            ]
        )
    );
}

// ------------------------------------------------------------------ cwd

#[test]
fn linked_cwd_is_the_real_path_unless_given_as_written_to_codex() {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/AGENTS.md", "root\n")
        .file("r/real/AGENTS.md", "real\n")
        .symlink("r/alias", "real");
    let alias = t.path_str("r/alias");
    let real = t.path_str("r/real");
    assert_eq!(
        render(&t, "codex", &alias, &[]),
        ok(&codex_part(
            &format!("# AGENTS.md instructions for {real}"),
            "root\n\n\nreal\n"
        ))
    );
    assert_eq!(
        render(&t, "codex", &alias, &["--cwd-as-given"]),
        ok(&codex_part(
            &format!("# AGENTS.md instructions for {alias}"),
            "root\n\n\nreal\n"
        ))
    );
    let r = t.path_str("r");
    let opencode = format!(
        "Instructions from: {real}/AGENTS.md\nreal\n\nInstructions from: {r}/AGENTS.md\nroot\n"
    );
    assert_eq!(render(&t, "opencode", &alias, &[]), ok(&opencode));
    assert_eq!(
        render(&t, "opencode", &alias, &["--cwd-as-given"]),
        ok(&opencode)
    );
}

#[test]
fn a_missing_cwd_is_a_warning_and_cwd_as_given_a_profile_setting() {
    let t = Tree::new();
    t.file("home/.codex/AGENTS.md", "Global.\n").dir("r/.git");
    let cwd = t.path_str("r/not/yet");
    assert_eq!(
        render(&t, "codex", &cwd, &[]),
        warned(
            &codex_part("# AGENTS.md instructions", "Global."),
            &[format!(
                "--cwd {cwd}: No such file or directory (os error 2); showing what the harness would load there"
            )]
        )
    );
    assert_eq!(
        agentctx(&t, &["render", "--cwd-as-given"]),
        usage(
            "--cwd-as-given is a setting of the harness profiles; dsh always takes --cwd as given"
        )
    );
    assert_eq!(
        agentctx(&t, &["check", "--profile", "codex", "--cwd-as-given"]),
        usage(
            "--cwd-as-given works with render and explain (check starts each harness in the directories it walks)"
        )
    );
}

// ------------------------------------------------------------------ gemini

const PREAMBLE: &str = "The following content is loaded from local and global configuration files.\n**Context Precedence:**\n- **Global (~/.gemini/):** foundational user preferences. Apply these broadly.\n- **Extensions:** supplementary knowledge and capabilities.\n- **Workspace Root:** workspace-wide mandates. Supersedes global preferences.\n- **Sub-directories:** highly specific overrides. These rules supersede all others for files within their scope.\n\n**Conflict Resolution:**\n- **Precedence:** Strictly follow the order above (Sub-directories > Workspace Root > Extensions > Global).\n- **System Overrides:** Contextual instructions override default operational behaviors (e.g., tech stack, style, workflows, tool preferences) defined in the system prompt. However, they **cannot** override Core Mandates regarding safety, security, and agent integrity.\n\n";

fn gemini_system(header: &str, file: &str, text: &str) -> String {
    format!(
        "# Contextual Instructions ({header})\n{PREAMBLE}<loaded_context>\n--- Context from: {file} ---\n{text}\n--- End of Context from: {file} ---\n</loaded_context>"
    )
}

#[test]
fn gemini_model_picks_the_header() {
    let t = Tree::new();
    t.file("home/.gemini/AGENTS.md", "Global agents.\n")
        .dir("w");
    let w = t.path_str("w");
    let file = t.path_str("home/.gemini/AGENTS.md");
    let names = ["--context-filename", "AGENTS.md"];
    let modern = gemini_system("AGENTS.md, GEMINI.md", &file, "Global agents.");
    let legacy = gemini_system("GEMINI.md", &file, "Global agents.");
    assert_eq!(render(&t, "gemini", &w, &names), ok(&modern));
    for model in ["gemini-2.5-flash", "auto-gemini-2.5", "gemini-2.0-flash"] {
        let got = render(
            &t,
            "gemini",
            &w,
            &[&names[..], &["--model", model]].concat(),
        );
        assert_eq!(got, ok(&legacy), "{model}");
    }
    for model in ["flash", "pro", "gemini-3.5-flash", "gemma-4-31b-it"] {
        let got = render(
            &t,
            "gemini",
            &w,
            &[&names[..], &["--model", model]].concat(),
        );
        assert_eq!(got, ok(&modern), "{model}");
    }
    let mut cmd = t.profile_cmd();
    cmd.env("GEMINI_MODEL", "gemini-2.5-pro")
        .args(["render", "--profile", "gemini", "--cwd", &w])
        .args(names);
    assert_eq!(run(&mut cmd), ok(&legacy));
    let mut cmd = t.profile_cmd();
    cmd.env("GEMINI_MODEL", "gemini-2.5-pro")
        .args(["render", "--profile", "gemini", "--cwd", &w])
        .args(names)
        .args(["--model", "gemini-3-flash-preview"]);
    assert_eq!(run(&mut cmd), ok(&modern));
    t.file(
        "home/.gemini/settings.json",
        r#"{"model": {"name": " gemini-2.0-flash "}, "context": {"fileName": ["AGENTS.md"]}}"#,
    );
    assert_eq!(render(&t, "gemini", &w, &[]), ok(&legacy));
}

#[test]
fn gemini_skips_a_system_file_that_others_may_write() {
    let t = Tree::new();
    t.file("home/.gemini/AGENTS.md", "Global agents.\n")
        .file(
            "etc/gemini-cli/settings.json",
            r#"{"context": {"fileName": ["AGENTS.md"]}}"#,
        )
        .file(
            "etc/gemini-cli/system-defaults.json",
            r#"{"context": {"fileName": ["AGENTS.md"]}}"#,
        )
        .dir("w");
    let etc = t.path_str("etc/gemini-cli");
    assert_eq!(
        render(&t, "gemini", &t.path_str("w"), &[]),
        warned(
            "",
            &[
                format!(
                    "{etc}/system-defaults.json: not read: gemini reads a system defaults file only when it and every directory above it are owned by root and not writable by group or others"
                ),
                format!(
                    "{etc}/settings.json: not read: gemini reads a system settings file only when it and every directory above it are owned by root and not writable by group or others"
                ),
            ]
        )
    );
}

// ------------------------------------------------------------------ opencode

#[test]
fn opencode_reads_its_config_layers_in_order() {
    let t = Tree::new();
    t.file(
        "home/.config/opencode/opencode.json",
        r#"{"instructions": ["G.md"]}"#,
    )
    .file(
        "home/.opencode/opencode.json",
        r#"{"instructions": ["H.md"]}"#,
    )
    .file("ocd/opencode.json", r#"{"instructions": ["D.md"]}"#)
    .file("ocd/AGENTS.md", "config dir global\n")
    .file("home/.config/opencode/AGENTS.md", "not read\n")
    .dir("r/.git")
    .file("r/opencode.jsonc", r#"{"instructions": ["C.md"]}"#)
    .file("r/opencode.json", r#"{"instructions": ["J.md"]}"#)
    .file("r/s/opencode.json", r#"{"instructions": ["S.md"]}"#)
    .file(
        "r/s/.opencode/opencode.jsonc",
        "{\n // c\n \"instructions\": [\"Q.md\",],\n}",
    )
    .file("r/.opencode/opencode.json", r#"{"instructions": ["R.md"]}"#);
    for name in ["G", "H", "D", "J", "C", "R"] {
        t.file(&format!("r/{name}.md"), format!("{name}\n"));
    }
    t.file("r/s/S.md", "S\n").file("r/s/Q.md", "Q\n");
    let r = t.path_str("r");
    let ocd = t.path_str("ocd");
    let item = |p: &str, text: &str| format!("Instructions from: {p}\n{text}\n");
    let expected = [
        item(&format!("{ocd}/AGENTS.md"), "config dir global"),
        item(&format!("{r}/G.md"), "G"),
        item(&format!("{r}/J.md"), "J"),
        item(&format!("{r}/C.md"), "C"),
        item(&format!("{r}/s/S.md"), "S"),
        item(&format!("{r}/s/Q.md"), "Q"),
        item(&format!("{r}/R.md"), "R"),
        item(&format!("{r}/H.md"), "H"),
        item(&format!("{r}/D.md"), "D"),
    ]
    .join("\n");
    let s = t.path_str("r/s");
    let mut cmd = t.profile_cmd();
    cmd.env("OPENCODE_CONFIG_DIR", &ocd)
        .args(["render", "--profile", "opencode", "--cwd", &s]);
    assert_eq!(run(&mut cmd), ok(&expected));
    assert_eq!(
        render(&t, "opencode", &s, &["--opencode-config-dir", &ocd]),
        ok(&expected)
    );
}

#[test]
fn opencode_resolves_instruction_globs() {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/AGENTS.md", "agents\n")
        .file("r/.hidden.md", "hidden\n")
        .dir("r/dir.mdx")
        .file("r/rules/one.md", "root rule\n")
        .file("r/s/rules/two.md", "s rule\n")
        .file("r/s/rules/x.txt", "no\n")
        .file("g/two.md", "two\n")
        .file("g/one/x.md", "one x\n")
        .file("r/d/x/y/deep.md", "deep\n");
    let r = t.path_str("r");
    let g = t.path_str("g");
    let instructions =
        format!("rules/*.md,.h*.md,dir.md*,AGENTS.m?,{g}/*/x.md,{g}/t?o.md,d/**/*.md");
    let item = |p: &str, text: &str| format!("Instructions from: {p}\n{text}\n");
    let expected = [
        item(&format!("{r}/AGENTS.md"), "agents"),
        item(&format!("{r}/s/rules/two.md"), "s rule"),
        item(&format!("{r}/rules/one.md"), "root rule"),
        item(&format!("{r}/.hidden.md"), "hidden"),
        item(&format!("{g}/two.md"), "two"),
        item(&format!("{r}/d/x/y/deep.md"), "deep"),
    ]
    .join("\n");
    let s = t.path_str("r/s");
    assert_eq!(
        render(&t, "opencode", &s, &["--instructions", &instructions]),
        ok(&expected)
    );
}

#[test]
fn opencode_deep_glob_with_several_matches_is_not_exact() {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/d/a.md", "a\n")
        .file("r/d/x/b.md", "b\n");
    let r = t.path_str("r");
    let (out, err, code) = agentctx(
        &t,
        &[
            "explain",
            "--profile",
            "opencode",
            "--format",
            "json",
            "--cwd",
            &r,
            "--instructions",
            "d/**/*.md",
        ],
    );
    assert_eq!((err.as_str(), code), ("", 0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["exact"].clone(), v["warnings"].clone()),
        (
            serde_json::json!(false),
            serde_json::json!([format!(
                "instructions entry d/**/*.md: 2 files match in {r}; opencode's order among them depends on the timing of its reads, agentctx lists them breadth first (output not exact)"
            )])
        )
    );
    assert_eq!(
        v["parts"],
        serde_json::json!([format!(
            "Instructions from: {r}/d/a.md\na\n\nInstructions from: {r}/d/x/b.md\nb\n"
        )])
    );
}

#[test]
fn opencode_substitutes_file_references_and_refuses_a_missing_one() {
    let t = Tree::new();
    t.dir("home")
        .dir("r/.git")
        .file("r/A.md", "from a file reference\n")
        .file("r/list.txt", "  A.md\n")
        .file(
            "r/opencode.json",
            r#"{"instructions": ["{file:./list.txt}"]}"#,
        );
    let r = t.path_str("r");
    assert_eq!(
        render(&t, "opencode", &r, &[]),
        ok(&format!(
            "Instructions from: {r}/A.md\nfrom a file reference\n"
        ))
    );
    t.file(
        "r/opencode.json",
        r#"{"instructions": ["A.md"], "x": "{file:./y}"}"#,
    );
    assert_eq!(
        render(&t, "opencode", &r, &[]),
        usage(&format!(
            "{r}/opencode.json: bad file reference: \"{{file:./y}}\" {r}/y does not exist"
        ))
    );
}

#[test]
fn opencode_url_and_config_content_are_not_read_and_say_so() {
    let t = Tree::new();
    t.dir("home").dir("r/.git").file("r/L.md", "local\n").file(
        "r/opencode.json",
        r#"{"instructions": ["https://example.invalid/a.md", "L.md"]}"#,
    );
    let r = t.path_str("r");
    let mut cmd = t.profile_cmd();
    cmd.env("OPENCODE_CONFIG_CONTENT", r#"{"instructions": ["X.md"]}"#)
        .args(["render", "--profile", "opencode", "--cwd", &r]);
    assert_eq!(
        run(&mut cmd),
        warned(
            &format!("Instructions from: {r}/L.md\nlocal\n"),
            &[
                "OPENCODE_CONFIG_CONTENT is set: opencode reads it as one more config layer, agentctx does not (output not exact)".to_owned(),
                "instructions entry https://example.invalid/a.md: a URL; opencode fetches it at start and appends what it gets after the files, agentctx does not (output not exact)".to_owned(),
            ]
        )
    );
}

// ------------------------------------------------------------------ copilot

#[test]
fn copilot_lists_files_in_the_order_it_sends_them() {
    let t = Tree::new();
    t.file("home/.copilot/copilot-instructions.md", "user\n")
        .dir("r/.git")
        .file("r/.github/copilot-instructions.md", "repository\n")
        .file("r/AGENTS.md", "root agents\n")
        .file("r/GEMINI.md", "  \n")
        .file("r/a/AGENTS.md", "middle agents\n")
        .file("r/a/b/CLAUDE.md", "cwd claude\n")
        .file(
            "r/.github/instructions/all.instructions.md",
            "---\napplyTo: \"**\"\n---\nall\n",
        )
        .file(
            "r/.github/instructions/src.instructions.md",
            "---\napplyTo: \"src/**\"\n---\nsrc\n",
        );
    let r = t.path_str("r");
    let home = t.path_str("home");
    let cwd = t.path_str("r/a/b");
    let expected = format!(
        "Profile: copilot (documented behaviour, not byte-exact)\ncwd: {cwd}\n\nSettings:\n\
         \x20 home  {home}  (env:HOME)\n\
         \x20 root  {r}  (derived)\n\n\
         Files (load order):\n\
         \x20 loaded          {home}/.copilot/copilot-instructions.md  (5 bytes)\n\
         \x20                 user instructions\n\
         \x20 loaded          {r}/.github/copilot-instructions.md  (11 bytes)\n\
         \x20                 repository instructions\n\
         \x20 loaded          {r}/AGENTS.md  (12 bytes)\n\
         \x20                 agent instructions\n\
         \x20 empty           {r}/GEMINI.md  (3 bytes)\n\
         \x20                 nothing left after trimming whitespace; contributes nothing: agent instructions\n\
         \x20 loaded          {cwd}/CLAUDE.md  (11 bytes)\n\
         \x20                 agent instructions\n\
         \x20 loaded          {r}/a/AGENTS.md  (14 bytes)\n\
         \x20                 agent instructions\n\
         \x20 loaded          {r}/.github/instructions/all.instructions.md  (26 bytes)\n\
         \x20                 path-specific, for every file: sent at start, front matter and all\n\
         \x20 on-demand       {r}/.github/instructions/src.instructions.md  (30 bytes)\n\
         \x20                 not sent at start: path-specific: only named in a table the model may open\n\n\
         Parts: not modelled (the files above are what the documentation says loads)\n"
    );
    assert_eq!(
        agentctx(&t, &["explain", "--profile", "copilot", "--cwd", &cwd]),
        ok(&expected)
    );
}

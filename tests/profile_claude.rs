//! `--profile claude` (SPEC 10.6): each rule of the Claude Code profile on a
//! fixture tree, with whole-string comparisons of stdout, stderr and the
//! exit code of render, explain (text and JSON) and check (text and JSON).
//! Every rule here was also run through the real claude-code 2.1.332
//! (scripts/realagents/claude_cases.py).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Tree, run};
use pretty_assertions::assert_eq;

const HEAD: &str = "<system-reminder>\nCodebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.\n\n";
const PROJECT: &str = "project instructions, checked into the codebase";
const LOCAL: &str = "user's private project instructions, not checked in";
const USER: &str = "user's private global instructions for all projects";

fn agentctx(t: &Tree, args: &[&str]) -> (String, String, i32) {
    run(t.profile_cmd().args(args))
}

fn render(t: &Tree, cwd: &str) -> (String, String, i32) {
    agentctx(t, &["render", "--profile", "claude", "--cwd", cwd])
}

fn ok(stdout: &str) -> (String, String, i32) {
    (stdout.to_owned(), String::new(), 0)
}

/// The block of `entries` (path, description, text).
fn block(entries: &[(&str, &str, &str)]) -> String {
    let body: Vec<String> = entries
        .iter()
        .map(|(p, d, text)| format!("Contents of {p} ({d}):\n\n{text}"))
        .collect();
    format!("{HEAD}{}\n</system-reminder>", body.join("\n\n"))
}

#[test]
fn order_user_then_each_directory_then_agents_md() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("home/.claude/CLAUDE.md", "user\n")
        .file("home/.claude/rules/u.md", "user rule\n")
        .file("r/.claude/rules/r.md", "root rule\n")
        .file("r/AGENTS.md", "root agents\n")
        .file("r/s/CLAUDE.local.md", "s local\n")
        .file("r/s/.claude/AGENTS.md", "s dot agents\n")
        .file("r/s/below/CLAUDE.md", "below the cwd: not read\n");
    let p = |rel: &str| t.path_str(rel);
    let got = render(&t, &p("r/s"));
    assert_eq!(
        got,
        ok(&block(&[
            (&p("home/.claude/CLAUDE.md"), USER, "user"),
            (&p("home/.claude/rules/u.md"), USER, "user rule"),
            (&p("r/.claude/rules/r.md"), PROJECT, "root rule"),
            (&p("r/s/CLAUDE.local.md"), LOCAL, "s local"),
        ]))
    );
    std::fs::remove_file(t.path("r/s/CLAUDE.local.md")).unwrap();
    let got = render(&t, &p("r/s"));
    assert_eq!(
        got,
        ok(&block(&[
            (&p("home/.claude/CLAUDE.md"), USER, "user"),
            (&p("home/.claude/rules/u.md"), USER, "user rule"),
            (&p("r/.claude/rules/r.md"), PROJECT, "root rule"),
            (&p("r/AGENTS.md"), PROJECT, "root agents"),
            (&p("r/s/.claude/AGENTS.md"), PROJECT, "s dot agents"),
        ]))
    );
}

#[test]
fn imports_are_entries_inside_the_cwd_unless_approved() {
    let t = Tree::new();
    t.dir("r/.git")
        .dir("home")
        .file("o.md", "outside\n")
        .file("r/CLAUDE.md", "root @./a.md @../o.md `@./no.md`\n")
        .file("r/a.md", "a @./CLAUDE.md\n")
        .file("r/no.md", "in a code span\n");
    let p = |rel: &str| t.path_str(rel);
    let got = render(&t, &p("r"));
    assert_eq!(
        got,
        ok(&block(&[
            (
                &p("r/CLAUDE.md"),
                PROJECT,
                "root @./a.md @../o.md `@./no.md`"
            ),
            (&p("r/a.md"), PROJECT, "a @./CLAUDE.md"),
        ]))
    );
    let key = p("r");
    t.file(
        "home/.claude.json",
        format!(r#"{{"projects": {{"{key}": {{"hasClaudeMdExternalIncludesApproved": true}}}}}}"#),
    );
    let got = render(&t, &p("r"));
    assert_eq!(
        got,
        ok(&block(&[
            (
                &p("r/CLAUDE.md"),
                PROJECT,
                "root @./a.md @../o.md `@./no.md`"
            ),
            (&p("r/a.md"), PROJECT, "a @./CLAUDE.md"),
            (&p("o.md"), PROJECT, "outside"),
        ]))
    );
}

#[test]
fn frontmatter_and_block_comments_are_removed() {
    let t = Tree::new();
    t.dir("r/.git").dir("home").file(
        "r/CLAUDE.md",
        "---\ntitle: x\n---\n# Rules\n<!-- for humans -->\nUse pnpm. <!-- inline stays -->\n",
    );
    let p = |rel: &str| t.path_str(rel);
    assert_eq!(
        render(&t, &p("r")),
        ok(&block(&[(
            &p("r/CLAUDE.md"),
            PROJECT,
            "# Rules\nUse pnpm. <!-- inline stays -->"
        )]))
    );
}

#[test]
fn disabled_sends_nothing_and_auto_memory_is_not_exact() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("home/.claude/projects/-r/memory/MEMORY.md", "memory\n")
        .file("r/CLAUDE.md", "r\n");
    let p = |rel: &str| t.path_str(rel);
    let got = run(t
        .profile_cmd()
        .env("CLAUDE_CODE_DISABLE_CLAUDE_MDS", " Yes ")
        .args(["render", "--profile", "claude", "--cwd", &p("r")]));
    assert_eq!(got, ok(""));
    let (out, err, code) = render(&t, &p("r"));
    assert_eq!(
        (out, err, code),
        (
            block(&[(&p("r/CLAUDE.md"), PROJECT, "r")]),
            format!(
                "agentctx: warning: {}: an auto-memory directory; Claude Code may add its MEMORY.md after the project files, agentctx does not model it (output not exact)\n",
                p("home/.claude/projects/-r/memory")
            ),
            0
        )
    );
}

#[test]
fn config_dir_flag_and_variable() {
    let t = Tree::new();
    t.dir("r/.git")
        .file("home/.claude/CLAUDE.md", "home\n")
        .file("cfg/CLAUDE.md", "cfg\n")
        .file("r/cfg2/CLAUDE.md", "relative\n");
    let p = |rel: &str| t.path_str(rel);
    let got = agentctx(
        &t,
        &[
            "render",
            "--profile",
            "claude",
            "--cwd",
            &p("r"),
            "--claude-config-dir",
            &p("cfg"),
        ],
    );
    assert_eq!(got, ok(&block(&[(&p("cfg/CLAUDE.md"), USER, "cfg")])));
    // The variable as set: relative to the cwd, and written as joined.
    let got = run(t.profile_cmd().env("CLAUDE_CONFIG_DIR", "cfg2").args([
        "render",
        "--profile",
        "claude",
        "--cwd",
        &p("r"),
    ]));
    assert_eq!(got, ok(&block(&[("cfg2/CLAUDE.md", USER, "relative")])));
    assert_eq!(
        agentctx(&t, &["render", "--claude-config-dir", "x"]),
        (
            String::new(),
            "agentctx: --claude-config-dir is a setting of --profile claude; it does not apply to dsh\n"
                .to_owned(),
            2
        )
    );
}

/// A tree where every fate of SPEC 10.6 happens once.
fn fates(t: &Tree) {
    t.dir("r/.git")
        .dir("home")
        .file("o.md", "outside\n")
        .file(
            "r/CLAUDE.md",
            "root @./l1.md @../o.md @./img.png @./missing.md @./empty.md\n",
        )
        .file("r/l1.md", "l1 @./l2.md @./CLAUDE.md\n")
        .file("r/l2.md", "l2 @./l3.md\n")
        .file("r/l3.md", "l3 @./l4.md\n")
        .file("r/l4.md", "l4 @./l5.md\n")
        .file("r/l5.md", "l5\n")
        .file("r/img.png", "png\n")
        .file("r/empty.md", "<!-- only a comment -->\n")
        .file(
            "r/.claude/rules/scoped.md",
            "---\npaths: src/**\n---\nscoped\n",
        )
        .file("r/AGENTS.md", "agents\n");
}

#[test]
fn explain_shows_every_files_fate() {
    let t = Tree::new();
    fates(&t);
    let p = |rel: &str| t.path_str(rel);
    let r = p("r");
    let home = p("home");
    let got = agentctx(&t, &["explain", "--profile", "claude", "--cwd", &r]);
    let part = block(&[
        (
            &p("r/CLAUDE.md"),
            PROJECT,
            "root @./l1.md @../o.md @./img.png @./missing.md @./empty.md",
        ),
        (&p("r/l1.md"), PROJECT, "l1 @./l2.md @./CLAUDE.md"),
        (&p("r/l2.md"), PROJECT, "l2 @./l3.md"),
        (&p("r/l3.md"), PROJECT, "l3 @./l4.md"),
        (&p("r/l4.md"), PROJECT, "l4 @./l5.md"),
    ]);
    let expected = format!(
        "Profile: claude (exact)\ncwd: {r}\n\nSettings:\n\
         \x20 config_dir                  {home}/.claude  (default)\n\
         \x20 global_config               {home}/.claude.json  (derived)\n\
         \x20 project_key                 {r}  (derived)\n\
         \x20 external_includes_approved  false  (default)\n\
         \x20 disable_claude_mds          false  (default)\n\n\
         Files (load order):\n\
         \x20 loaded          {r}/CLAUDE.md [project]  (60 bytes)\n\
         \x20 loaded          {r}/l1.md [project]  (25 bytes)\n\
         \x20                 import of {r}/CLAUDE.md\n\
         \x20 loaded          {r}/l2.md [project]  (12 bytes)\n\
         \x20                 import of {r}/l1.md\n\
         \x20 loaded          {r}/l3.md [project]  (12 bytes)\n\
         \x20                 import of {r}/l2.md\n\
         \x20 loaded          {r}/l4.md [project]  (12 bytes)\n\
         \x20                 import of {r}/l3.md\n\
         \x20 too-deep        {r}/l5.md [project]  (3 bytes)\n\
         \x20                 deeper than four levels of imports; skipped (import of {r}/l4.md)\n\
         \x20 duplicate       {r}/CLAUDE.md [project]  (60 bytes)\n\
         \x20                 a cycle: this file is being imported already (import of {r}/l1.md)\n\
         \x20 outside         {}/o.md [project]  (8 bytes)\n\
         \x20                 outside the cwd, and the project has not approved external imports; skipped (import of {r}/CLAUDE.md)\n\
         \x20 not-text        {r}/img.png [project]  (4 bytes)\n\
         \x20                 not a text file by its extension; skipped (import of {r}/CLAUDE.md)\n\
         \x20 unreadable      {r}/missing.md [project]  (missing)\n\
         \x20                 cannot be read; contributes nothing: No such file or directory (import of {r}/CLAUDE.md)\n\
         \x20 empty           {r}/empty.md [project]  (24 bytes)\n\
         \x20                 nothing left after frontmatter, block comments and whitespace; its imports are not read (import of {r}/CLAUDE.md)\n\
         \x20 conditional     {r}/.claude/rules/scoped.md [project]  (29 bytes)\n\
         \x20                 a `paths:` rule: loaded when a matching file is read, not at start\n\
         \x20 held-back       {r}/AGENTS.md [project]  (7 bytes)\n\
         \x20                 AGENTS.md blocked by {r}/CLAUDE.md (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)\n\n\
         Parts:\n  system-reminder  {} bytes, {} lines\n\n\
         Findings (as check reports them):\n\
         \x20 warning: {r}/l5.md: an import deeper than four levels; Claude Code does not read it (imported by {r}/l4.md)\n\
         \x20 warning: {}/o.md: outside the cwd; Claude Code skips it unless the project approves external imports (hasClaudeMdExternalIncludesApproved) (imported by {r}/CLAUDE.md)\n\
         \x20 warning: {r}/img.png: not a text file by its extension; Claude Code skips the import (imported by {r}/CLAUDE.md)\n\
         \x20 warning: {r}/missing.md: an import that cannot be resolved: No such file or directory; Claude Code skips it (imported by {r}/CLAUDE.md)\n\
         \x20 warning: {r}/AGENTS.md: not loaded: {r}/CLAUDE.md holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)\n",
        t.root().display(),
        part.len(),
        part.lines().count(),
        t.root().display(),
    );
    assert_eq!(got, ok(&expected));
}

#[test]
fn explain_json_carries_type_and_imported_by() {
    let t = Tree::new();
    t.dir("r/.git")
        .dir("home")
        .file("r/CLAUDE.local.md", "local @./inc.md\n")
        .file("r/inc.md", "inc\n");
    let p = |rel: &str| t.path_str(rel);
    let r = p("r");
    let home = p("home");
    let (out, err, code) = agentctx(
        &t,
        &[
            "explain",
            "--profile",
            "claude",
            "--cwd",
            &r,
            "--format",
            "json",
        ],
    );
    assert_eq!((err.as_str(), code), ("", 0));
    let got: serde_json::Value = serde_json::from_str(&out).unwrap();
    let part = block(&[
        (&format!("{r}/CLAUDE.local.md"), LOCAL, "local @./inc.md"),
        (&format!("{r}/inc.md"), LOCAL, "inc"),
    ]);
    let expected = serde_json::json!({
        "profile": "claude",
        "exact": true,
        "parts": [part],
        "partKinds": ["system-reminder"],
        "files": [
            {"path": format!("{r}/CLAUDE.local.md"), "bytes": 16, "included": true, "status": "loaded", "type": "local"},
            {"path": format!("{r}/inc.md"), "bytes": 4, "included": true, "status": "loaded", "type": "local",
             "importedBy": format!("{r}/CLAUDE.local.md")}
        ],
        "settings": {
            "config_dir": {"value": format!("{home}/.claude"), "origin": "default"},
            "global_config": {"value": format!("{home}/.claude.json"), "origin": "derived"},
            "project_key": {"value": r, "origin": "derived"},
            "external_includes_approved": {"value": false, "origin": "default"},
            "disable_claude_mds": {"value": false, "origin": "default"}
        },
        "warnings": []
    });
    assert_eq!(got, expected);
}

#[test]
fn check_warns_about_what_claude_skips_and_long_files() {
    let t = Tree::new();
    fates(&t);
    // big/ is a cwd of its own: from there r/CLAUDE.md's imports lie outside the cwd.
    t.file("r/big/CLAUDE.md", "x".repeat(40_001));
    let p = |rel: &str| t.path_str(rel);
    let r = p("r");
    let got = agentctx(&t, &["check", "--profile", "claude", &r]);
    // check's shape (issue 26): grouped by directory, paths relative to
    // where check started, each finding with its fix.
    let outside = "outside the cwd; Claude Code skips it unless the project approves external imports (hasClaudeMdExternalIncludesApproved)";
    let expected = format!(
        "claude: r\n\
         \x20 warning: r/l5.md: an import deeper than four levels; Claude Code does not read it (imported by r/l4.md)\n\
         \x20   fix: flatten the imports: Claude Code stops after four levels\n\
         \x20 warning: r/img.png: not a text file by its extension; Claude Code skips the import (imported by r/CLAUDE.md)\n\
         \x20   fix: import a text file (.md) instead of r/img.png, or remove the import\n\
         \x20 warning: r/missing.md: an import that cannot be resolved: No such file or directory; Claude Code skips it (imported by r/CLAUDE.md)\n\
         \x20   fix: fix the import of r/missing.md (the error says why), or remove it\n\
         \x20 warning: r/AGENTS.md: not loaded: r/CLAUDE.md holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)\n\
         \x20   fix: merge what it says into r/CLAUDE.md, or make r/CLAUDE.md a pointer to it (@AGENTS.md)\n\
         \x20 warning: r/l1.md: {outside} (imported by r/CLAUDE.md)\n\
         \x20   fix: move r/l1.md inside the project, or approve external imports for it in Claude Code\n\
         \x20 warning: r/img.png: {outside} (imported by r/CLAUDE.md)\n\
         \x20   fix: move r/img.png inside the project, or approve external imports for it in Claude Code\n\
         \x20 warning: r/empty.md: {outside} (imported by r/CLAUDE.md)\n\
         \x20   fix: move r/empty.md inside the project, or approve external imports for it in Claude Code\n\
         \n\
         claude: .\n\
         \x20 warning: o.md: {outside} (imported by r/CLAUDE.md)\n\
         \x20   fix: move o.md inside the project, or approve external imports for it in Claude Code\n\
         \n\
         claude: r/big\n\
         \x20 warning: r/big/CLAUDE.md: 40001 characters; Claude Code warns above 40000 (a large memory file costs every request)\n\
         \x20   fix: cut r/big/CLAUDE.md to 40000 characters or fewer (or move parts into .claude/rules): Claude Code sends it with every request\n\
         \n\
         claude: checked 2 of 4 directories; largest baseline: 40502 bytes in r/big; 0 errors, 9 warnings\n"
    );
    assert_eq!(got, ok(&expected));
    let (out, err, code) = agentctx(
        &t,
        &[
            "check",
            "--profile",
            "claude",
            &r,
            "--format",
            "json",
            "--deny-warnings",
        ],
    );
    assert_eq!((err.as_str(), code), ("", 1));
    let got: serde_json::Value = serde_json::from_str(&out).unwrap();
    let big: Vec<&serde_json::Value> = got["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["file"] == "r/big/CLAUDE.md")
        .collect();
    assert_eq!(
        big,
        [&serde_json::json!({
            "severity": "warning",
            "rule": "AGX025",
            "dir": "r/big",
            "file": "r/big/CLAUDE.md",
            "title": "Harness warning",
            "message": "40001 characters; Claude Code warns above 40000 (a large memory file costs every request)",
            "hint": "cut r/big/CLAUDE.md to 40000 characters or fewer (or move parts into .claude/rules): Claude Code sends it with every request",
            "kind": "harnessWarning"
        })]
    );
    assert_eq!(
        (got["errors"].clone(), got["warnings"].clone()),
        (serde_json::json!(0), serde_json::json!(9))
    );
}

#[test]
fn too_large_files_are_skipped_and_warned() {
    let t = Tree::new();
    t.dir("r/.git")
        .dir("home")
        .file("r/CLAUDE.md", vec![b'x'; 4_194_305])
        .file("r/CLAUDE.local.md", "local\n");
    let p = |rel: &str| t.path_str(rel);
    let r = p("r");
    assert_eq!(
        render(&t, &r),
        ok(&block(&[(&format!("{r}/CLAUDE.local.md"), LOCAL, "local")]))
    );
    assert_eq!(
        agentctx(&t, &["check", "--profile", "claude", &r]),
        ok("claude: r\n\
            \x20 warning: r/CLAUDE.md: over 4194304 bytes (4194305); Claude Code skips it\n\
            \x20   fix: cut r/CLAUDE.md to 4194304 bytes or fewer, or split it\n\
            \n\
            claude: checked 1 of 1 directory; largest baseline: 349 bytes in r; 0 errors, 1 warning\n")
    );
}

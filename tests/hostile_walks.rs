//! Hostile walks (issue 21, items 8, 9, 12, 13, 14): ignore files that are
//! FIFOs, devices or huge; profile files that are FIFOs, devices or sparse
//! giants; a deep chain of directories; a Gemini import fan-out. Every run
//! is under a deadline (`bounded`: a hang kills the child and fails the
//! test), and every bound is asserted on the input's shape, never on time.
// Test code: a failed unwrap or expect is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use pretty_assertions::assert_eq;

use common::Tree;
use common::bounded;

/// A repository tree: `.git` at its root, an `AGENTS.md` there and in
/// `skip/` (which its `.gitignore` would ignore) and in `kept/`.
fn repo() -> Tree {
    let t = Tree::new();
    t.dir(".git/info")
        .file("AGENTS.md", "root\n")
        .file("kept/AGENTS.md", "kept\n")
        .file("skip/AGENTS.md", "skip\n");
    t
}

fn check(t: &Tree) -> bounded::Output {
    bounded::run(&mut common::check(t, ".", &[]))
}

const THREE: &str =
    "checked 3 of 3 directories; largest baseline: 351 bytes in kept; 0 errors, 0 warnings\n";
const TWO: &str =
    "checked 2 of 2 directories; largest baseline: 351 bytes in kept; 0 errors, 0 warnings\n";

/// A FIFO as `.gitignore`, `.agentctxignore` or `.git/info/exclude` once
/// hung `check` (the ignore crate opened it blocking): now a warning
/// naming it, its rules unread, and the walk goes on.
#[test]
fn fifo_ignore_files_are_warnings_not_hangs() {
    for name in [
        ".gitignore",
        ".agentctxignore",
        ".git/info/exclude",
        "kept/.gitignore",
    ] {
        let t = repo();
        t.fifo(name);
        let out = check(&t);
        assert_eq!(
            (out.text(), out.stderr.as_str(), out.code),
            (
                THREE.to_owned(),
                format!(
                    "agentctx: warning: ignore file {name} is not a regular file (a FIFO): its rules are not read\n"
                )
                .as_str(),
                0
            ),
            "{name}"
        );
    }
}

/// A `.gitignore` linking to `/dev/zero` once read until 2 GB and aborted.
#[test]
fn device_ignore_files_are_warnings() {
    let t = repo();
    t.symlink(".gitignore", "/dev/zero")
        .symlink(".agentctxignore", "/dev/null");
    let out = check(&t);
    assert_eq!(
        (out.text(), out.stderr.as_str(), out.code),
        (
            THREE.to_owned(),
            "agentctx: warning: ignore file .agentctxignore is not a regular file (a character device): its rules are not read\n\
             agentctx: warning: ignore file .gitignore is not a regular file (a character device): its rules are not read\n",
            0
        )
    );
}

/// A benign ignore file reached through a symlink still applies, as before.
#[test]
fn a_symlinked_regular_ignore_file_still_applies() {
    let t = repo();
    t.file("rules", "skip/\n").symlink(".gitignore", "rules");
    let out = check(&t);
    assert_eq!(
        (out.text(), out.stderr.as_str(), out.code),
        (TWO.to_owned(), "", 0)
    );
}

/// A 4.5 MB `.gitignore` of `???…` patterns once took 6 s and 2 GB: now
/// only its first 1 MiB is read and its first 64 KiB of patterns kept,
/// with a warning each; the patterns kept still apply.
#[test]
fn huge_ignore_files_are_cut_with_warnings() {
    let t = repo();
    let mut text = String::from("skip/\n");
    let line = format!("{}\n", "?".repeat(40));
    while text.len() < 4_500_000 {
        text.push_str(&line);
    }
    t.file(".gitignore", &text);
    let out = check(&t);
    // 1 MiB holds 25,575 whole lines of 41 bytes after the first 6; the
    // first 1,598 patterns of 40 bytes fit in 64 KiB after `skip/`.
    assert_eq!(
        (out.text(), out.stderr.as_str(), out.code),
        (
            TWO.to_owned(),
            "agentctx: warning: ignore file .gitignore is over 1048576 bytes: the lines past its first 1048576 bytes are dropped\n\
             agentctx: warning: ignore file .gitignore has more patterns than check keeps (1639 patterns, 65525 bytes of them; at most 10000 and 65536 bytes): the last 23936 are dropped\n",
            0
        )
    );
}

/// Pattern bytes in force at once are capped across a chain of ignore
/// files: a deep chain of hostile ones cannot add up.
#[test]
fn ignore_patterns_in_force_are_capped_across_directories() {
    let t = repo();
    let big: String = (0..6000).map(|i| format!("p{i:08}\n")).collect();
    let mut dir = String::new();
    for i in 0..6 {
        t.file(&format!("{dir}.gitignore"), &big);
        dir.push_str(&format!("d{i}/"));
    }
    t.file(&format!("{dir}AGENTS.md"), "deep\n");
    let out = check(&t);
    let warnings: Vec<&str> = out.stderr.lines().collect();
    // Four files of 54,000 bytes of patterns fit in 256 KiB; the fifth is
    // cut to what is left, the sixth keeps nothing.
    assert_eq!(warnings.len(), 2, "{}{}", out.text(), out.stderr);
    assert!(warnings[0].starts_with("agentctx: warning: ignore file d0/d1/d2/d3/.gitignore has more patterns than check keeps (5127 patterns"), "{}", warnings[0]);
    assert!(warnings[1].starts_with("agentctx: warning: ignore file d0/d1/d2/d3/d4/.gitignore has more patterns than check keeps (0 patterns"), "{}", warnings[1]);
    assert_eq!(out.code, 0);
}

// ---------------------------------------------------------------------------
// Item 9: every file a profile reads goes through one bounded reader.

/// `render --profile P` in the tree root, under the deadline.
fn render_profile(t: &Tree, profile: &str, extra: &[&str]) -> bounded::Output {
    let mut cmd = t.profile_cmd();
    cmd.args(["render", "--profile", profile])
        .arg("--cwd")
        .arg(t.root())
        .args(extra);
    bounded::run(&mut cmd)
}

/// A config file that is a FIFO once hung the profile; one linking to
/// `/dev/zero` read until memory ran out. Now: exit 2 naming the file.
#[test]
fn profile_configs_that_are_fifos_or_devices_are_errors() {
    for (profile, config, fifo) in [
        ("opencode", "opencode.json", true),
        ("opencode", "opencode.json", false),
        ("gemini", ".gemini/settings.json", true),
        ("gemini", ".gemini/settings.json", false),
    ] {
        let t = Tree::new();
        t.dir(".git")
            .file("AGENTS.md", "a\n")
            .file("GEMINI.md", "g\n");
        if fifo {
            t.fifo(config);
        } else {
            t.symlink(config, "/dev/zero");
        }
        let out = render_profile(&t, profile, &[]);
        assert_eq!(
            (out.text(), out.stderr, out.code),
            (
                String::new(),
                format!(
                    "agentctx: reading {}: not a regular file\n",
                    t.path_str(config)
                ),
                2
            ),
            "{profile} {config} fifo={fifo}"
        );
    }
}

/// A 3 GiB sparse instruction file once aborted `--profile gemini` and
/// `--profile opencode` (read whole); now it is refused by its stat size,
/// unread, and `check --profile` warns that it cannot be read.
#[test]
fn giant_profile_instruction_files_are_refused_by_size() {
    for (profile, name) in [("gemini", "GEMINI.md"), ("opencode", "AGENTS.md")] {
        let t = Tree::new();
        t.dir(".git");
        let f = std::fs::File::create(t.path(name)).unwrap();
        f.set_len(3 << 30).unwrap();
        drop(f);
        let out = render_profile(&t, profile, &["--format", "json"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let json = out.json();
        assert_eq!(json["parts"], serde_json::json!([]), "{profile}");
        assert_eq!(json["files"][0]["status"], "unreadable", "{profile}");
        assert_eq!(json["files"][0]["bytes"], 3u64 << 30, "{profile}");
        let mut cmd = t.profile_cmd();
        cmd.current_dir(t.root())
            .args(["check", "--profile", profile]);
        let out = bounded::run(&mut cmd);
        assert_eq!(
            (out.text(), out.code),
            (
                format!(
                    "\
{profile}: .
  warning: {name}: unreadable (too large: 3221225472 bytes, over the 16777216-byte cap agentctx reads): {profile} sends nothing from it
    fix: cut {name} below the cap the error names, or split it

{profile}: checked 1 of 1 directory; largest baseline: 0 bytes in .; 0 errors, 1 warning
"
                ),
                0
            )
        );
    }
}

// ---------------------------------------------------------------------------
// Item 13: a Gemini `@import` fan-out.

/// A tree whose `GEMINI.md` imports `k` files, each of which imports the
/// same `k` files of the next level, six levels deep (the sixth is never
/// expanded: depth 5).
fn fan_out(k: usize) -> Tree {
    let t = Tree::new();
    t.dir(".git");
    for level in 0..6 {
        let names: Vec<String> = if level == 0 {
            vec!["GEMINI.md".into()]
        } else {
            (0..k).map(|i| format!("l{level}_{i}.md")).collect()
        };
        let imports: String = (0..k)
            .map(|j| format!("@./l{}_{j}.md\n", level + 1))
            .collect();
        for name in names {
            t.file(&name, format!("L{level}\n{imports}"));
        }
    }
    t
}

/// What gemini makes of level `level`'s file content (SPEC 10.4 rule 9).
fn expanded(k: usize, level: usize) -> String {
    let mut out = format!("L{level}\n");
    for j in 0..k {
        let token = format!("./l{}_{j}.md", level + 1);
        if level == 5 {
            out.push_str(&format!("@{token}\n"));
        } else {
            out.push_str(&format!(
                "<!-- Imported from: {token} -->\n{}\n<!-- End of import from: {token} -->\n",
                expanded(k, level + 1)
            ));
        }
    }
    out
}

/// The expansion of a small fan-out is gemini's, byte for byte (the
/// memoised reads change nothing).
#[test]
fn a_small_import_fan_out_gives_geminis_bytes() {
    let t = fan_out(2);
    let out = render_profile(&t, "gemini", &[]);
    let shown = t.path_str("GEMINI.md");
    let body = expanded(2, 0);
    let expected = format!(
        "<loaded_context>\n<project_context>\n--- Context from: {shown} ---\n{}\n--- End of Context from: {shown} ---\n</project_context>\n</loaded_context>",
        body.trim_end()
    );
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(out.text().trim_end(), expected);
}

/// k = 8 over five levels is 8^5 expansions of five files a level: it
/// finishes exact; k = 16 (16^5 copies, over 190 MB) stops at the cap
/// with a warning, and its output stays within a small multiple of it.
#[test]
fn an_import_fan_out_is_capped() {
    let t = fan_out(8);
    let out = render_profile(&t, "gemini", &["--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json = out.json();
    assert_eq!(json["exact"], true);
    let text = json["parts"][0].as_str().unwrap();
    assert!(text.contains(&expanded(8, 1)));

    let t = fan_out(16);
    let out = render_profile(&t, "gemini", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let cap = 16 << 20;
    assert!(out.stdout.len() > cap / 2, "{}", out.stdout.len());
    assert!(out.stdout.len() < 2 * cap, "{}", out.stdout.len());
    let mut cmd = t.profile_cmd();
    cmd.current_dir(t.root())
        .args(["check", "--profile", "gemini"]);
    let out = bounded::run(&mut cmd);
    assert_eq!(
        (out.text(), out.code),
        (
            "\
gemini: .
  warning: GEMINI.md: import @./l6_0.md is deeper than 5 levels: gemini leaves it as text
    fix: flatten the imports: gemini stops after 5 levels
  warning: GEMINI.md: import @./l5_9.md failed: not expanded: this file's imports pass 16777216 bytes, the most agentctx expands; the rest stay as written
    fix: fix the import @./l5_9.md (the error says why), or remove it

gemini: checked 1 of 1 directory; largest baseline: 22524754 bytes in .; 0 errors, 2 warnings
"
            .to_owned(),
            0
        )
    );
}

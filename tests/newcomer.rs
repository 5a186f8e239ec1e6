//! A newcomer's first commands say something useful (issue 27): `render`
//! with nothing to send says why on a terminal, `render --check` says what
//! the budget cut.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use pretty_assertions::assert_eq;

use common::{Tree, run};

/// A project `proj` (a `.git` directory) and an empty home.
fn project() -> Tree {
    let t = Tree::new();
    t.dir("proj/.git").dir("home");
    t
}

/// `render ARGS` in text, piped: (stdout, stderr, exit code).
fn render(t: &Tree, args: &[&str]) -> (String, String, i32) {
    run(t.cmd().arg("render").args(args))
}

/// `render` through the library with stdout taken for a terminal:
/// (stdout, stderr, exit code).
fn render_on_a_terminal(t: &Tree, args: &[&str]) -> (String, String, u8) {
    let mut argv: Vec<std::ffi::OsString> = vec!["agentctx".into(), "render".into()];
    argv.extend(args.iter().map(Into::into));
    let cli = agentctx::app::Cli::parse_args(argv).unwrap();
    let mut env = agentctx::env::Env::from_process();
    env.stdout_tty = true;
    env.home = Some(t.path("home"));
    env.dsh_home = None;
    env.process_cwd = Ok(t.root().to_path_buf());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = agentctx::run(&cli, &env, &mut out, &mut err).unwrap();
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
        code,
    )
}

/// On a terminal an empty baseline says why and where to look; piped, the
/// payload stays empty and silent.
#[test]
fn an_empty_baseline_on_a_terminal_says_why() {
    let t = project();
    t.dir("proj/a");
    let root = t.path_str("proj");
    assert_eq!(
        render_on_a_terminal(&t, &["--cwd", "proj/a"]),
        (
            String::new(),
            format!(
                "agentctx: no instruction file applies here: no AGENTS.md, CLAUDE.md, AGENTS.local.md or CLAUDE.local.md in 2 directories from the project root {root} down to the cwd, and no ~/.dsh/AGENTS.md; `agentctx explain` shows every file looked for\n"
            ),
            0
        )
    );
    assert_eq!(
        render(&t, &["--cwd", "proj/a"]),
        (String::new(), String::new(), 0)
    );
    t.file("proj/AGENTS.md", b"\xff\n");
    assert_eq!(
        render_on_a_terminal(&t, &["--cwd", "proj/a"]).1,
        "agentctx: warning: AGENTS.md: unreadable, not loaded: invalid UTF-8 at byte 0\nagentctx: no instruction file loads here: 1 candidate found, none loaded (the warnings above say why); `agentctx explain` shows every file looked for\n"
    );
    t.file("proj/AGENTS.md", "Rule.\n");
    assert_eq!(
        render_on_a_terminal(&t, &["--cwd", "proj/a", "--max-bytes", "0"]).1,
        "agentctx: nothing is sent: max-bytes 0 disables loading (<= 0, NaN or infinite); `agentctx explain` shows where each setting came from\n"
    );
    assert_eq!(
        render_on_a_terminal(&t, &["--cwd", "proj/a", "--max-bytes", "0", "-q"]).1,
        ""
    );
}

/// `render --check` exiting 1 says what the budget cut.
#[test]
fn render_check_says_what_was_cut() {
    let t = project();
    t.file("proj/AGENTS.md", "a".repeat(150))
        .file("proj/CLAUDE.md", "b".repeat(150));
    let (out, err, code) = render(&t, &["--cwd", "proj", "--check", "--max-bytes", "600.5"]);
    assert_eq!(
        (err.as_str(), code),
        (
            "agentctx: the byte budget (max-bytes 600.5) cut this baseline: omitted AGENTS.md\n",
            1
        )
    );
    assert!(out.starts_with(
        "<system-reminder>\nWorkspace instruction budget 600.5 bytes: omitted AGENTS.md\n\n"
    ));
    let (_, err, code) = render(&t, &["--cwd", "proj", "--check"]);
    assert_eq!((err.as_str(), code), ("", 0));
}

/// A candidate entry that is no file name is ignored (SPEC 1); render says
/// so, naming the setting and why, instead of silently probing nothing.
#[test]
fn an_ignored_candidate_entry_is_a_warning() {
    let t = project();
    t.file("proj/docs/AGENTS.md", "Docs rules.\n")
        .file("proj/AGENTS.md", "Root rules.\n");
    let (out, err, code) = render(
        &t,
        &[
            "--cwd",
            "proj",
            "--candidates",
            "docs/AGENTS.md,AGENTS.md,,..",
            "--local-candidates",
            "a\\b",
        ],
    );
    assert_eq!(
        (err.as_str(), code),
        (
            "agentctx: warning: --candidates: entry \"docs/AGENTS.md\" is ignored: it holds a path separator: candidates are file names, looked for in every directory of the chain\n\
             agentctx: warning: --candidates: entry \"\" is ignored: it is empty\n\
             agentctx: warning: --candidates: entry \"..\" is ignored: it names a directory, not a file\n\
             agentctx: warning: --local-candidates: entry \"a\\b\" is ignored: it holds a path separator: candidates are file names, looked for in every directory of the chain\n",
            0
        )
    );
    assert!(
        out.contains("Instructions from: AGENTS.md\n\nRoot rules.\n"),
        "{out}"
    );
}

/// `-h` shows one example and the command's own exit codes (explain never
/// exits 1; check does); at 80 columns every example line is a comment or
/// a command, never a wrapped comment that reads like a command.
#[test]
fn help_shows_examples_and_the_commands_own_exit_codes_at_80_columns() {
    let t = project();
    let help = |args: &[&str]| {
        let (out, err, code) = run(t.cmd().env("COLUMNS", "80").args(args));
        assert_eq!((err.as_str(), code), ("", 0), "{args:?}");
        out
    };
    let short = help(&["explain", "-h"]);
    assert!(
        short.ends_with(
            "\n\nExample:\n  # why this directory gets what it gets\n  agentctx explain\n\nExit status:\n  0  success\n  2  bad usage or unusable input\n"
        ),
        "{short}"
    );
    let check = help(&["check", "-h"]);
    let exit = &check[check.find("Exit status:").expect("exit codes")..];
    assert!(exit.contains("\n  1  "), "{exit}");
    for args in [
        &["--help"][..],
        &["render", "--help"],
        &["diff", "--help"],
        &["explain", "--help"],
        &["check", "--help"],
        &["sessions", "--help"],
    ] {
        let long = help(args);
        let examples = &long[long.find("\nExamples:\n").expect("examples") + 11..];
        let examples = &examples[..examples.find("\n\n").expect("end of examples")];
        for line in examples.lines() {
            assert!(
                line.starts_with("  # ") || line.starts_with("  agentctx "),
                "{args:?}: {line:?}"
            );
            assert!(line.chars().count() <= 80, "{args:?}: {line:?}");
        }
    }
}

/// `COMMAND ARGS` at 80 columns: stdout, which must be all there is.
fn help_at_80(t: &Tree, args: &[&str]) -> String {
    let (out, err, code) = run(t.cmd().env("COLUMNS", "80").args(args));
    assert_eq!((err.as_str(), code), ("", 0), "{args:?}");
    out
}

/// The headings of a help text: after its usage line, the lines that are
/// not indented and end in `:`.
fn headings(help: &str) -> Vec<&str> {
    help.lines()
        .skip_while(|l| !l.starts_with("Usage:"))
        .skip(1)
        .filter(|l| !l.starts_with(' ') && l.ends_with(':'))
        .collect()
}

/// The section of a help text from the line `heading:` up to the next
/// heading.
fn section<'a>(help: &'a str, heading: &str) -> &'a str {
    let start = help
        .find(&format!("\n{heading}:\n"))
        .unwrap_or_else(|| panic!("no {heading:?} in {help}"))
        + 1;
    let rest = &help[start..];
    let mut end = rest.len();
    let mut offset = rest.find('\n').unwrap_or(rest.len()) + 1;
    while offset < rest.len() {
        let line = rest[offset..].lines().next().unwrap_or("");
        if !line.starts_with(' ') && line.ends_with(':') {
            end = offset;
            break;
        }
        offset += line.len() + 1;
    }
    &rest[..end]
}

/// Every command's `--help` has the same headings in the same order (its
/// own options first), `--profile` and `--source-kind` under "Harness",
/// and no profile's own settings (those are behind `--help-profile P`).
#[test]
fn every_help_has_the_same_headings_and_no_profile_settings() {
    let t = project();
    let headings = |command: &str| -> Vec<String> {
        headings(&help_at_80(&t, &[command, "--help"]))
            .into_iter()
            .map(str::to_owned)
            .collect()
    };
    let common = [
        "Options:",
        "Session:",
        "Harness:",
        "dsh settings:",
        "Output:",
        "Examples:",
        "Exit status:",
    ];
    for command in ["render", "diff", "explain"] {
        assert_eq!(headings(command), common, "{command}");
    }
    assert_eq!(
        headings("check"),
        [
            "Arguments:",
            "Options:",
            "What to check:",
            "Harness:",
            "dsh settings:",
            "Output:",
            "Examples:",
            "Exit status:"
        ]
    );
    assert_eq!(
        headings("sessions"),
        [
            "Options:",
            "Session:",
            "dsh settings:",
            "Output:",
            "Examples:",
            "Exit status:"
        ]
    );
    for command in ["render", "diff", "explain", "check", "sessions"] {
        let help = help_at_80(&t, &[command, "--help"]);
        for flag in [
            "--codex-home",
            "--context-filename",
            "--untrusted",
            "--instructions",
            "--opencode-config-dir",
        ] {
            assert!(!help.contains(flag), "{command} --help shows {flag}");
        }
    }
}

/// The Harness section of `render --help` at 80 columns: the profiles
/// render takes, where their settings are, the generation.
#[test]
fn render_help_harness_section_at_80_columns() {
    let t = project();
    let help = help_at_80(&t, &["render", "--help"]);
    assert_eq!(
        section(&help, "Harness"),
        "\
Harness:
      --profile <P>
          The harness whose baseline to print [default: dsh]; a profile's own
          settings: --help-profile P

          Possible values:
          - dsh:      DeepSeek Harness, the default
          - codex:    OpenAI Codex CLI (exact)
          - gemini:   Google Gemini CLI (exact)
          - opencode: opencode, V1 engine (exact)
          - claude:   Claude Code 2.1.332 (exact)

      --help-profile <P>
          Print the settings of --profile P (codex, gemini, opencode, claude)
          and exit

      --cwd-as-given
          --cwd handed over as written, as `codex -C DIR` (links kept) [default:
          as `cd DIR && agent`, links resolved]

      --source-kind <K>
          The generation that resumes the log and the kind it persists [default:
          agent-instructions].
          
          `agent-instructions` is what dsh writes since 2026-08-13 (aacab0cafd);
          `workspace-instructions` is dsh builds before 2026-08-13. A build
          reads only events of its own kind, so the current dsh resuming a
          `workspace-instructions` log sends a complete fresh baseline.

"
    );
    // diff takes dsh only, and says so; its usage names --session beside --log.
    let diff = help_at_80(&t, &["diff", "--help"]);
    assert!(
        diff.contains("\nUsage: agentctx diff [OPTIONS] <--log <FILE>|--session <ID|latest>>\n"),
        "{diff}"
    );
    assert!(
        section(&diff, "Harness").starts_with(
            "Harness:\n      --profile <P>\n          The harness profile; diff replays dsh logs, so only dsh [default: dsh]\n\n      --source-kind <K>\n"
        ),
        "{diff}"
    );
}

/// `--help-profile P`: one profile's settings alone, whole.
#[test]
fn help_profile_shows_one_profiles_settings_at_80_columns() {
    let t = project();
    assert_eq!(
        help_at_80(&t, &["render", "--help-profile", "codex"]),
        "\
The settings of --profile codex, for agentctx render: each applies only with
--profile codex.

Usage: agentctx render --profile codex [OPTIONS]

codex settings:
      --codex-home <DIR>
          The Codex home [default: $CODEX_HOME if non-empty, else ~/.codex]

      --project-doc-max-bytes <N>
          Byte budget of Codex's project docs; 0 disables them [default:
          config.toml, else 32768]

      --project-doc-fallback-filenames <A,B>
          Names Codex tries after AGENTS.md, comma separated [default:
          config.toml, else none]

      --project-root-markers <A,B>
          Names marking Codex's project root [default: config.toml, else .git]

`agentctx render --help` shows every other option.
"
    );
    assert_eq!(
        help_at_80(&t, &["check", "--help-profile", "gemini"]),
        "\
The settings of --profile gemini, for agentctx check: each applies only with
--profile gemini.

Usage: agentctx check --profile gemini [OPTIONS]

gemini settings:
      --context-filename <A,B>
          Gemini CLI's context file names [default: settings context.fileName,
          else GEMINI.md]

      --memory-boundary-markers <A,B>
          Names marking Gemini CLI's memory boundary [default: settings, else
          .git]

      --untrusted
          The workspace is not trusted: no project memory, no workspace settings

      --touch <PATH>
          A path a Gemini CLI tool touched, for its just-in-time context
          (repeatable)

      --model <M>
          The model, which picks the memory header [default: $GEMINI_MODEL, else
          settings model.name, else auto]

`agentctx check --help` shows every other option.
"
    );
    let opencode = help_at_80(&t, &["explain", "--help-profile", "opencode"]);
    assert!(
        opencode.contains("\nopencode settings:\n      --opencode-config-dir <DIR>\n"),
        "{opencode}"
    );
}

/// `sessions --format` describes its own output, not other commands'.
#[test]
fn sessions_help_describes_its_own_format_at_80_columns() {
    let t = project();
    let help = help_at_80(&t, &["sessions", "--help"]);
    assert_eq!(
        section(&help, "Output"),
        "\
Output:
      --all
          List every session of every project under the root, hidden ones too,
          with their cwd

      --check-drift
          Read each log and say whether its visible baseline matches the
          workspace

      --format <FORMAT>
          Output format

          Possible values:
          - text: A table, newest first
          - json: One JSON array, an object per session
          
          [default: text]

"
    );
}

/// `agentctx` alone: a short usage on stderr, exit 2.
#[test]
fn no_command_prints_a_short_usage_on_stderr() {
    let t = project();
    let alone = run(&mut common::agentctx());
    assert_eq!(alone, run(&mut t.cmd()), "with --color never as well");
    assert_eq!(
        alone,
        (
            String::new(),
            "\
Usage: agentctx [OPTIONS] <COMMAND>

Commands: render, diff, explain, check, sessions, completions

Example:
  # the baseline a new session here gets
  agentctx render

`agentctx --help` and `agentctx COMMAND --help` show more.
"
            .to_owned(),
            2
        )
    );
}

/// A file that is no session log says so (not "malformed JSON array"),
/// and a log of records agentctx cannot read says it has no header.
#[test]
fn odd_logs_say_what_they_are() {
    let t = project();
    t.file("proj/Cargo.toml", "[package]\nname = \"x\"\n")
        .file("proj/README.md", "# x\n")
        .file("proj/empty.jsonl", "{}\n")
        .file("proj/two.jsonl", "{}\n{\"a\":1}\n");
    let diff = |log: &str| run(t.cmd().args(["diff", "--cwd", "proj", "--log", log]));
    assert_eq!(
        diff("proj/Cargo.toml"),
        (
            String::new(),
            "agentctx: proj/Cargo.toml:1:2: not a session log: it begins with [ but is no JSON array: expected value\n".to_owned(),
            2
        )
    );
    assert_eq!(
        diff("proj/README.md"),
        (
            String::new(),
            "agentctx: proj/README.md:1: not a session log: its first line is not a JSON object\n"
                .to_owned(),
            2
        )
    );
    let (_, err, code) = diff("proj/empty.jsonl");
    assert_eq!(
        (err.as_str(), code),
        (
            "agentctx: warning: proj/empty.jsonl: the log has no session header, and its one record is no event agentctx reads: is it a dsh session log?\n",
            0
        )
    );
    let (_, err, code) = diff("proj/two.jsonl");
    assert_eq!(
        (err.as_str(), code),
        (
            "agentctx: warning: proj/two.jsonl: the log has no session header, and none of its 2 records is an event agentctx reads: is it a dsh session log?\n",
            0
        )
    );
}

/// explain's Files and "Not in the baseline" sections (up to Budget), the
/// tree's root shown as `@T`.
fn files_and_gaps(t: &Tree, cwd: &str) -> String {
    let (out, err, code) = run(t.cmd().args(["explain", "--cwd", cwd]));
    assert_eq!((err.as_str(), code), ("", 0));
    let start = out.find("\nFiles").expect("Files") + 1;
    let end = out.find("\nBudget").expect("Budget");
    out[start..end].replace(&t.path_str(""), "@T/")
}

/// At a repository root, the files below it say when they load; a run of
/// directories with nothing in them is one line, each named once.
#[test]
fn explain_names_the_files_below_the_cwd_and_folds_empty_runs() {
    let t = project();
    t.file("proj/AGENTS.md", "Root.\n")
        .file("proj/sub/AGENTS.md", "Sub.\n")
        .file("proj/sub/deep/CLAUDE.md", "Deep.\n")
        .file("proj/a/b/c/AGENTS.local.md", "Local.\n")
        .file("proj/ignored/AGENTS.md", "Ignored.\n")
        .file("proj/.gitignore", "ignored/\n")
        .dir("proj/a/b/c/d/e");
    assert_eq!(
        files_and_gaps(&t, "proj"),
        "\
Files  (precedence all: every present name loads; same trimmed content loads once per directory)
  user-global  @T/home/.dsh
    user   AGENTS.md        missing
  .  @T/proj
    base   AGENTS.md        loaded       6 bytes  2079b806
           CLAUDE.md        missing
    local  AGENTS.local.md  missing
           CLAUDE.local.md  missing

Not in the baseline
  a/b/c/AGENTS.local.md  loads when the session touches a/b/c/
  sub/AGENTS.md          loads when the session touches sub/
  sub/deep/CLAUDE.md     loads when the session touches sub/deep/
"
    );
    assert_eq!(
        files_and_gaps(&t, "proj/a/b/c/d/e"),
        "\
Files  (precedence all: every present name loads; same trimmed content loads once per directory)
  user-global  @T/home/.dsh
    user   AGENTS.md        missing
  .  @T/proj
    base   AGENTS.md        loaded       6 bytes  2079b806
           CLAUDE.md        missing
    local  AGENTS.local.md  missing
           CLAUDE.local.md  missing
  a, a/b  all missing  AGENTS.md, CLAUDE.md, AGENTS.local.md, CLAUDE.local.md
  a/b/c  @T/proj/a/b/c
    base   AGENTS.md        missing
           CLAUDE.md        missing
    local  AGENTS.local.md  loaded       7 bytes  9faeaf6b
           CLAUDE.local.md  missing
  a/b/c/d, a/b/c/d/e  all missing  AGENTS.md, CLAUDE.md, AGENTS.local.md, CLAUDE.local.md
"
    );
    t.dir("proj/a/b/c/d/e/f/g");
    let deep = files_and_gaps(&t, "proj/a/b/c/d/e/f/g");
    assert!(
        deep.ends_with(
            "\n  a/b/c/d to a/b/c/d/e/f/g (4 directories)  all missing  AGENTS.md, CLAUDE.md, AGENTS.local.md, CLAUDE.local.md\n"
        ),
        "{deep}"
    );
}

/// Outside any repository the chain is the cwd alone: the files of the
/// directories above it are named as skipped.
#[test]
fn explain_outside_a_repository_names_the_parent_files_it_skips() {
    let t = Tree::new();
    t.dir("home")
        .file("work/AGENTS.md", "Work.\n")
        .file("work/notes/CLAUDE.local.md", "Mine.\n")
        .dir("work/notes/today");
    assert_eq!(
        files_and_gaps(&t, "work/notes/today"),
        "\
Files  (precedence all: every present name loads; same trimmed content loads once per directory)
  user-global  @T/home/.dsh
    user   AGENTS.md        missing
  .  all missing  AGENTS.md, CLAUDE.md, AGENTS.local.md, CLAUDE.local.md

Not in the baseline
  @T/work/notes/CLAUDE.local.md  above the cwd: no root marker (.git) was found, so the chain is the cwd alone
  @T/work/AGENTS.md              above the cwd: no root marker (.git) was found, so the chain is the cwd alone
"
    );
    let (out, _, _) =
        run(t
            .cmd()
            .args(["explain", "--cwd", "work/notes/today", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["notLoaded"],
        serde_json::json!({
            "below": [],
            "belowStopped": false,
            "above": [t.path_str("work/notes/CLAUDE.local.md"), t.path_str("work/AGENTS.md")],
        })
    );
}

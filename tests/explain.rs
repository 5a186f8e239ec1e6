//! `agentctx explain` on fixture trees: every candidate outcome, the root
//! search, the budget and, with a log, the session view, in text (colour
//! off, whole outputs compared with the temp root shown as `@T`) and in JSON
//! (parsed back and compared as whole values).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers: a panic is the failure report

mod common;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use common::message::{INTRO, set_digest};
use common::{Tree, header, run, run_json};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

/// The identity of a session whose cwd is the project root, default settings.
const ID_ROOT: &str = r#"{"projectRoot":"","projectRootMarkers":[".git"],"maxBytes":65536,"maxSourceBytes":1048576,"instructionFileCandidates":["AGENTS.md","CLAUDE.md"],"localInstructionFileCandidates":["AGENTS.local.md","CLAUDE.local.md"]}"#;

fn root_str(t: &Tree) -> &str {
    t.root().to_str().unwrap()
}

/// Runs `explain ARGS` in the tree; checks it succeeds silently and returns
/// stdout with the tree root shown as `@T`.
fn explain(t: &Tree, args: &[&str]) -> String {
    explain_with(t, t.cmd().arg("explain").args(resumed(args)))
}

/// With `--log L`: resumed by the generation that wrote L (see
/// `common::resumed_by_writer`).
fn resumed<'a>(args: &[&'a str]) -> Vec<&'a str> {
    match args.iter().position(|a| *a == "--log") {
        Some(i) if i + 1 < args.len() => common::resumed_by_writer(Path::new(args[i + 1]), args),
        _ => args.to_vec(),
    }
}

fn explain_with(t: &Tree, cmd: &mut Command) -> String {
    let (out, err, code) = run(cmd);
    assert_eq!((err.as_str(), code), ("", 0), "stdout:\n{out}");
    out.replace(root_str(t), "@T")
}

/// Runs `explain --format json ARGS`; every string has the root shown as `@T`.
fn explain_json(t: &Tree, args: &[&str]) -> Value {
    let (v, code) = run_json(
        t.cmd()
            .arg("explain")
            .arg("--format")
            .arg("json")
            .args(resumed(args)),
    );
    assert_eq!(code, 0);
    rooted(v, root_str(t))
}

fn rooted(v: Value, root: &str) -> Value {
    match v {
        Value::String(s) => Value::String(s.replace(root, "@T")),
        Value::Array(a) => Value::Array(a.into_iter().map(|x| rooted(x, root)).collect()),
        Value::Object(o) => {
            Value::Object(o.into_iter().map(|(k, x)| (k, rooted(x, root))).collect())
        }
        other => other,
    }
}

/// Sets `key` of a JSON object.
fn with(mut v: Value, key: &str, value: Value) -> Value {
    v.as_object_mut().unwrap().insert(key.to_owned(), value);
    v
}

/// Merges the fields of `extra` into `v`.
fn merge(mut v: Value, extra: Value) -> Value {
    let Value::Object(extra) = extra else {
        panic!("merge: not an object: {extra}")
    };
    v.as_object_mut().unwrap().extend(extra);
    v
}

/// A candidate in directory `dir` (absolute, `@T`-rooted) shown as `display`,
/// with its outcome fields; not read, not a link.
fn cand(dir: &str, display: &str, tier: &str, scope: &str, outcome: Value) -> Value {
    let name = display.rsplit('/').next().unwrap();
    merge(
        json!({
            "name": name, "path": format!("{dir}/{name}"), "display": display,
            "tier": tier, "scope": scope, "bytes": null, "digest": null,
            "leadingBom": false, "symlink": null, "budget": null,
        }),
        outcome,
    )
}

/// A candidate whose content was read.
fn read(v: Value, bytes: usize, digest: &str) -> Value {
    merge(v, json!({"bytes": bytes, "digest": digest}))
}

fn loaded(v: Value, bytes: usize, digest: &str, budget: &str) -> Value {
    with(read(v, bytes, digest), "budget", json!(budget))
}

fn missing() -> Value {
    json!({"outcome": "missing"})
}

fn link(v: Value, target: &str, outside: Option<bool>) -> Value {
    with(
        v,
        "symlink",
        json!({"target": target, "outsideRoot": outside}),
    )
}

/// The default settings block for a cwd, with `overrides` merged in.
fn settings(cwd: &str, overrides: Value) -> Value {
    merge(
        json!({
            "cwd": {"value": cwd, "origin": "flag"},
            "dshHome": {"value": "@T/home/.dsh", "origin": "default"},
            "maxBytes": {"value": 65536, "origin": "default"},
            "maxSourceBytes": {"value": 1_048_576, "origin": "default"},
            "candidates": {"value": ["AGENTS.md", "CLAUDE.md"], "ignored": [], "origin": "default"},
            "localCandidates": {"value": ["AGENTS.local.md", "CLAUDE.local.md"], "ignored": [], "origin": "default"},
            "rootMarkers": {"value": [".git"], "origin": "default"},
            "precedence": {"value": "first", "origin": "flag"},
        }),
        overrides,
    )
}

fn default_home() -> Value {
    json!({"path": "@T/home/.dsh", "file": "@T/home/.dsh/AGENTS.md", "display": "~/.dsh/AGENTS.md"})
}

/// The user-global directory of the default home with a missing AGENTS.md.
fn user_global_missing(precedence_all: bool) -> Value {
    let scope = if precedence_all {
        "user-global\u{0}AGENTS.md"
    } else {
        "user-global"
    };
    json!({
        "display": "user-global", "path": "@T/home/.dsh", "userGlobal": true,
        "candidates": [cand("@T/home/.dsh", "~/.dsh/AGENTS.md", "user-global", scope, missing())],
        "scopes": [{"key": scope, "tier": "user-global", "status": "absent"}],
    })
}

/// The four default candidates of a chain directory, all missing (`first`).
fn all_missing_first(dir_abs: &str, display: &str) -> Value {
    let file = |name: &str| {
        if display == "." {
            name.to_owned()
        } else {
            format!("{display}/{name}")
        }
    };
    let local = format!("{display}\u{0}local");
    json!({
        "display": display, "path": dir_abs, "userGlobal": false,
        "candidates": [
            cand(dir_abs, &file("AGENTS.md"), "base", display, missing()),
            cand(dir_abs, &file("CLAUDE.md"), "base", display, missing()),
            cand(dir_abs, &file("AGENTS.local.md"), "local", &local, missing()),
            cand(dir_abs, &file("CLAUDE.local.md"), "local", &local, missing()),
        ],
        "scopes": [
            {"key": display, "tier": "base", "status": "absent"},
            {"key": local, "tier": "local", "status": "absent"},
        ],
    })
}

/// The "System prompt and runtime context" section as explain prints
/// `prompt::analyze(log).lines()`: each line two spaces in from its own
/// indentation, warnings marked after that indentation, escaped.
fn prompt_section(log: &Path) -> String {
    let log = agentctx::logfile::read(log, agentctx::log::ReadOptions::ALL).unwrap();
    let lines = agentctx::output::prompt::PromptLines::lines(&agentctx::prompt::analyze(&log));
    let mut out = String::from("\nSystem prompt and runtime context\n");
    if lines.is_empty() {
        out.push_str("  nothing to report\n");
    }
    for line in lines {
        let body = agentctx::output::escape(&line.text);
        let pad = " ".repeat(2 + line.indent);
        match line.level {
            agentctx::output::prompt::Level::Warning => {
                writeln!(out, "{pad}warning: {body}").unwrap();
            }
            _ => writeln!(out, "{pad}{body}").unwrap(),
        }
    }
    out
}

/// The `prompt` field explain's JSON carries for a log.
fn prompt_json(log: &Path) -> Value {
    let log = agentctx::logfile::read(log, agentctx::log::ReadOptions::ALL).unwrap();
    let report = agentctx::output::prompt::with_warnings(agentctx::prompt::analyze(&log));
    serde_json::to_value(report).unwrap()
}

// ---------------------------------------------------------------------------
// first mode: loaded, shadowed (content differs), not a file (directory,
// FIFO), symlinks inside and outside the root, unavailable (a link loop),
// a missing user-global file.

fn first_mode_tree() -> Tree {
    let t = Tree::new();
    t.dir("home")
        .dir("proj/.git")
        .file("proj/AGENTS.md", "root rules\n")
        .file("proj/CLAUDE.md", "old root rules\n")
        .dir("proj/AGENTS.local.md")
        .file("outside.md", "outside\n")
        .symlink("proj/CLAUDE.local.md", "../outside.md")
        .symlink("proj/app/AGENTS.md", "AGENTS.md")
        .file("proj/app/CLAUDE.md", "app rules\n")
        .fifo("proj/app/AGENTS.local.md")
        .symlink("proj/app/CLAUDE.local.md", "../CLAUDE.md");
    t
}

const IDENTITY_UP1: &str = r#"{"projectRoot":"..","projectRootMarkers":[".git"],"maxBytes":65536,"maxSourceBytes":1048576,"instructionFileCandidates":["AGENTS.md","CLAUDE.md"],"localInstructionFileCandidates":["AGENTS.local.md","CLAUDE.local.md"]}"#;

#[test]
fn first_mode_text_shows_every_outcome() {
    let t = first_mode_tree();
    let out = explain(&t, &["--precedence", "first", "--cwd", "proj/app"]);
    let expected = format!(
        r"Settings
  cwd               flag     @T/proj/app
  dsh home          default  @T/home/.dsh  (user-global file shown as ~/.dsh/AGENTS.md)
  max bytes         default  65536
  max source bytes  default  1048576
  candidates        default  AGENTS.md, CLAUDE.md
  local candidates  default  AGENTS.local.md, CLAUDE.local.md
  root markers      default  .git
  precedence        flag     first  (dsh before 2026-07-22)

dsh configuration
  profile    web  (default)
  preset     standard  (agent-presets row (bundle:@deepseek-ai/dsh-web-app))
  dsh home   @T/home/.dsh  (no layer there: what dsh ships applies)
  outcome    loaded
  settings   from config  (default)

Root search  (markers: .git; from the cwd upward)
  project root  @T/proj  (.git directory found there)
  walked        @T/proj/app
                @T/proj

Files  (precedence first: per directory and tier the first present name wins)
  user-global  @T/home/.dsh
    user   AGENTS.md        missing
  .  @T/proj
    base   AGENTS.md        loaded       11 bytes  30274595
           CLAUDE.md        shadowed     15 bytes  1dd12c40  by AGENTS.md, content differs
    local  AGENTS.local.md  not a file   directory
           CLAUDE.local.md  loaded        8 bytes  053a8ae9
                            symlink → ../outside.md  (outside the project root)
  app  @T/proj/app
    base   AGENTS.md        unavailable  Too many levels of symbolic links (os error 40); skipped
                            symlink → AGENTS.md  (inside the project root)
           CLAUDE.md        loaded       10 bytes  fc9ca74a
    local  AGENTS.local.md  not a file   FIFO
           CLAUDE.local.md  loaded       15 bytes  1dd12c40
                            symlink → ../CLAUDE.md  (inside the project root)

Budget
  used       464 of 65536 bytes (0.7%), headroom 65072 bytes, 4 files
  omitted    none
  truncated  none

Identity
  {IDENTITY_UP1}
"
    );
    assert_eq!(out, expected);
}

#[test]
fn first_mode_json_carries_the_same_facts() {
    let t = first_mode_tree();
    let v = explain_json(&t, &["--precedence", "first", "--cwd", "proj/app"]);
    let p = "@T/proj";
    let a = "@T/proj/app";
    let expected = json!({
        "settings": settings("@T/proj/app", json!({})),
        "dshHome": default_home(),
        "rootSearch": {
            "markers": [".git"],
            "walked": ["@T/proj/app", "@T/proj"],
            "marker": {"name": ".git", "dir": "@T/proj", "isDir": true},
            "root": "@T/proj",
        },
        "directories": [
            user_global_missing(false),
            {
                "display": ".", "path": p, "userGlobal": false,
                "candidates": [
                    loaded(cand(p, "AGENTS.md", "base", ".", json!({"outcome": "loaded"})),
                        11, "30274595b867743d7be5b27a407a9fd2b686a957", "included"),
                    read(cand(p, "CLAUDE.md", "base", ".",
                        json!({"outcome": "shadowed", "by": "AGENTS.md", "contentDiffers": true})),
                        15, "1dd12c404018bc0022a87fec473f3adb0fbdadd3"),
                    cand(p, "AGENTS.local.md", "local", ".\u{0}local",
                        json!({"outcome": "not-regular", "fileType": "directory"})),
                    link(loaded(cand(p, "CLAUDE.local.md", "local", ".\u{0}local", json!({"outcome": "loaded"})),
                        8, "053a8ae94dd9dc12c73c61cafcfa8de441ddb053", "included"),
                        "../outside.md", Some(true)),
                ],
                "scopes": [
                    {"key": ".", "tier": "base", "status": "loaded"},
                    {"key": ".\u{0}local", "tier": "local", "status": "loaded"},
                ],
            },
            {
                "display": "app", "path": a, "userGlobal": false,
                "candidates": [
                    link(cand(a, "app/AGENTS.md", "base", "app", json!({
                        "outcome": "unavailable", "stage": "stat",
                        "error": "Too many levels of symbolic links (os error 40)",
                    })), "AGENTS.md", Some(false)),
                    loaded(cand(a, "app/CLAUDE.md", "base", "app", json!({"outcome": "loaded"})),
                        10, "fc9ca74a5e1a5fec91450e3b6e53100e0309f155", "included"),
                    cand(a, "app/AGENTS.local.md", "local", "app\u{0}local",
                        json!({"outcome": "not-regular", "fileType": "FIFO"})),
                    link(loaded(cand(a, "app/CLAUDE.local.md", "local", "app\u{0}local", json!({"outcome": "loaded"})),
                        15, "1dd12c404018bc0022a87fec473f3adb0fbdadd3", "included"),
                        "../CLAUDE.md", Some(false)),
                ],
                "scopes": [
                    {"key": "app", "tier": "base", "status": "loaded"},
                    {"key": "app\u{0}local", "tier": "local", "status": "loaded"},
                ],
            },
        ],
        "budget": {
            "maxBytes": 65536, "usedBytes": 464, "percent": 0.7, "headroomBytes": 65072,
            "files": 4, "sent": true, "step": "whole", "omitted": [], "truncated": null,
        },
        "identity": IDENTITY_UP1,
        "notLoaded": {"below": [], "belowStopped": false, "above": []},
        "session": null,
        "prompt": null,
        "dshConfig": web_config("@T/home/.dsh"),
    });
    assert_eq!(v, expected);
}

/// The shadowed file's content equal to the winner's is said so.
#[test]
fn a_shadowed_file_with_the_winners_content_is_marked_same() {
    let t = Tree::new();
    t.dir("home")
        .dir("proj/.git")
        .file("proj/AGENTS.md", "same\n")
        .file("proj/CLAUDE.md", "same\n");
    let out = explain(&t, &["--precedence", "first", "--cwd", "proj"]);
    let files: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Files"))
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(
        files,
        [
            "Files  (precedence first: per directory and tier the first present name wins)",
            "  user-global  @T/home/.dsh",
            "    user   AGENTS.md        missing",
            "  .  @T/proj",
            "    base   AGENTS.md        loaded       5 bytes  2c985b16",
            "           CLAUDE.md        shadowed     5 bytes  2c985b16  by AGENTS.md, same content",
            "    local  AGENTS.local.md  missing",
            "           CLAUDE.local.md  missing",
        ]
    );
    let v = explain_json(&t, &["--precedence", "first", "--cwd", "proj"]);
    assert_eq!(
        v["directories"][1]["candidates"][1],
        read(
            cand(
                "@T/proj",
                "CLAUDE.md",
                "base",
                ".",
                json!({"outcome": "shadowed", "by": "AGENTS.md", "contentDiffers": false})
            ),
            5,
            "2c985b161217a952b7a410fd91495cebc349f520"
        )
    );
}

/// A run of chain directories where every candidate is missing takes one
/// line, which names each directory once.
#[test]
fn a_run_of_directories_with_every_candidate_missing_is_one_line() {
    let t = Tree::new();
    t.dir("home")
        .file("proj/.git", "gitdir: ../elsewhere\n")
        .file("proj/mid/app/AGENTS.md", "app\n");
    let out = explain(&t, &["--precedence", "first", "--cwd", "proj/mid/app"]);
    let expected = r"Root search  (markers: .git; from the cwd upward)
  project root  @T/proj  (.git file found there)
  walked        @T/proj/mid/app
                @T/proj/mid
                @T/proj

Files  (precedence first: per directory and tier the first present name wins)
  user-global  @T/home/.dsh
    user   AGENTS.md        missing
  ., mid  all missing  AGENTS.md, CLAUDE.md, AGENTS.local.md, CLAUDE.local.md
  mid/app  @T/proj/mid/app
    base   AGENTS.md        loaded       4 bytes  8d494114
           CLAUDE.md        missing
    local  AGENTS.local.md  missing
           CLAUDE.local.md  missing
";
    let start = out.find("Root search").unwrap();
    let end = out.find("\nBudget").unwrap();
    assert_eq!(&out[start..end], expected);
    let v = explain_json(&t, &["--precedence", "first", "--cwd", "proj/mid/app"]);
    assert_eq!(
        v["rootSearch"]["marker"],
        json!({"name": ".git", "dir": "@T/proj", "isDir": false})
    );
    assert_eq!(v["directories"][0], user_global_missing(false));
    assert_eq!(v["directories"][1], all_missing_first("@T/proj", "."));
    assert_eq!(v["directories"][2], all_missing_first("@T/proj/mid", "mid"));
}

// ---------------------------------------------------------------------------
// all mode: duplicate of a sibling, same path as the user-global file.

fn all_mode_tree() -> Tree {
    let t = Tree::new();
    t.dir("home")
        .dir("proj/.git")
        .file("proj/AGENTS.md", "shared rules\n")
        .symlink("proj/CLAUDE.md", "AGENTS.md")
        .file("proj/AGENTS.local.md", "  shared rules\n\n")
        .file("proj/lib/AGENTS.md", "lib\n")
        .file("proj/lib/CLAUDE.md", "lib claude\n");
    t
}

const ALL_ARGS: [&str; 6] = [
    "--cwd",
    "proj/lib",
    "--precedence",
    "all",
    "--dsh-home",
    "proj",
];

#[test]
fn all_mode_text_shows_duplicates_and_the_same_path() {
    let t = all_mode_tree();
    let out = explain(&t, &ALL_ARGS);
    let expected = format!(
        r"Settings
  cwd               flag     @T/proj/lib
  dsh home          flag     @T/proj  (user-global file shown as $DSH_HOME/AGENTS.md)
  max bytes         default  65536
  max source bytes  default  1048576
  candidates        default  AGENTS.md, CLAUDE.md
  local candidates  default  AGENTS.local.md, CLAUDE.local.md
  root markers      default  .git
  precedence        flag     all  (dsh since 2026-07-22)

dsh configuration
  profile    web  (default)
  preset     standard  (agent-presets row (bundle:@deepseek-ai/dsh-web-app))
  dsh home   @T/home/.dsh  (no layer there: what dsh ships applies)
  outcome    loaded
  settings   from config  (default)

Root search  (markers: .git; from the cwd upward)
  project root  @T/proj  (.git directory found there)
  walked        @T/proj/lib
                @T/proj

Files  (precedence all: every present name loads; same trimmed content loads once per directory)
  user-global  @T/proj
    user   AGENTS.md        loaded       13 bytes  39ce704c
  .  @T/proj
    base   AGENTS.md        same path    already loaded as the user-global file
           CLAUDE.md        loaded       13 bytes  39ce704c
                            symlink → AGENTS.md  (inside the project root)
    local  AGENTS.local.md  duplicate    16 bytes  31a56ffc  of CLAUDE.md (same trimmed content)
           CLAUDE.local.md  missing
  lib  @T/proj/lib
    base   AGENTS.md        loaded        4 bytes  37645643
           CLAUDE.md        loaded       11 bytes  3781ef40
    local  AGENTS.local.md  missing
           CLAUDE.local.md  missing

Budget
  used       459 of 65536 bytes (0.7%), headroom 65077 bytes, 4 files
  omitted    none
  truncated  none

Identity
  {IDENTITY_UP1}
"
    );
    assert_eq!(out, expected);
}

#[test]
fn all_mode_json_names_the_duplicate_and_the_same_path() {
    let t = all_mode_tree();
    let v = explain_json(&t, &ALL_ARGS);
    let p = "@T/proj";
    let l = "@T/proj/lib";
    let expected_dirs = json!([
        {
            "display": "user-global", "path": p, "userGlobal": true,
            "candidates": [loaded(
                cand(p, "$DSH_HOME/AGENTS.md", "user-global", "user-global\u{0}AGENTS.md", json!({"outcome": "loaded"})),
                13, "39ce704c7612011b8b217d128254369ff32c045d", "included")],
            "scopes": [{"key": "user-global\u{0}AGENTS.md", "tier": "user-global", "status": "loaded"}],
        },
        {
            "display": ".", "path": p, "userGlobal": false,
            "candidates": [
                cand(p, "AGENTS.md", "base", ".\u{0}AGENTS.md", json!({"outcome": "same-path"})),
                link(loaded(cand(p, "CLAUDE.md", "base", ".\u{0}CLAUDE.md", json!({"outcome": "loaded"})),
                    13, "39ce704c7612011b8b217d128254369ff32c045d", "included"), "AGENTS.md", Some(false)),
                read(cand(p, "AGENTS.local.md", "local", ".\u{0}AGENTS.local.md",
                    json!({"outcome": "duplicate", "of": "CLAUDE.md"})),
                    16, "31a56ffc5b55479f4bad206dd91adb5af2eceb92"),
                cand(p, "CLAUDE.local.md", "local", ".\u{0}CLAUDE.local.md", missing()),
            ],
            "scopes": [
                {"key": ".\u{0}AGENTS.md", "tier": "base", "status": "blocked"},
                {"key": ".\u{0}CLAUDE.md", "tier": "base", "status": "loaded"},
                {"key": ".\u{0}AGENTS.local.md", "tier": "local", "status": "duplicate"},
                {"key": ".\u{0}CLAUDE.local.md", "tier": "local", "status": "absent"},
            ],
        },
        {
            "display": "lib", "path": l, "userGlobal": false,
            "candidates": [
                loaded(cand(l, "lib/AGENTS.md", "base", "lib\u{0}AGENTS.md", json!({"outcome": "loaded"})),
                    4, "376456435d4ceec3acb6ab963107280ef80aca1b", "included"),
                loaded(cand(l, "lib/CLAUDE.md", "base", "lib\u{0}CLAUDE.md", json!({"outcome": "loaded"})),
                    11, "3781ef400fcf0112eb422694f0a5229af18d514f", "included"),
                cand(l, "lib/AGENTS.local.md", "local", "lib\u{0}AGENTS.local.md", missing()),
                cand(l, "lib/CLAUDE.local.md", "local", "lib\u{0}CLAUDE.local.md", missing()),
            ],
            "scopes": [
                {"key": "lib\u{0}AGENTS.md", "tier": "base", "status": "loaded"},
                {"key": "lib\u{0}CLAUDE.md", "tier": "base", "status": "loaded"},
                {"key": "lib\u{0}AGENTS.local.md", "tier": "local", "status": "absent"},
                {"key": "lib\u{0}CLAUDE.local.md", "tier": "local", "status": "absent"},
            ],
        },
    ]);
    assert_eq!(v["directories"], expected_dirs);
    assert_eq!(
        v["dshHome"],
        json!({"path": p, "file": "@T/proj/AGENTS.md", "display": "$DSH_HOME/AGENTS.md"})
    );
    assert_eq!(
        v["settings"],
        settings(
            "@T/proj/lib",
            json!({
                "dshHome": {"value": p, "origin": "flag"},
                "precedence": {"value": "all", "origin": "flag"},
            })
        )
    );
}

// ---------------------------------------------------------------------------
// oversized files, invalid UTF-8, a shadowed file that was never compared.

/// Twenty numbered lines of `name`'s rules (460 bytes).
fn rules(name: &str) -> String {
    (0..20).fold(String::new(), |mut text, i| {
        writeln!(text, "line {i:02} of the {name} rules").unwrap();
        text
    })
}

fn oversized_tree() -> Tree {
    let t = Tree::new();
    let b_rules = rules("b");
    t.dir("proj/.git")
        .file("home/.dsh/AGENTS.md", "global\n")
        .file("proj/AGENTS.md", format!("{}\n", "x".repeat(40)))
        .file("proj/CLAUDE.md", "fallback\n")
        .file("proj/a/AGENTS.md", "a rules\n")
        .file("proj/a/b/AGENTS.md", b_rules)
        .file(
            "proj/a/b/AGENTS.local.md",
            b"\xef\xbb\xbflocal \xef\xbb\xbf bytes\n",
        );
    t
}

const OVERSIZED_ARGS: [&str; 8] = [
    "--precedence",
    "first",
    "--cwd",
    "proj/a/b",
    "--max-source-bytes",
    "40",
    "--max-bytes",
    "600",
];

#[test]
fn oversized_text_names_sizes_and_the_blocked_tier() {
    let t = oversized_tree();
    let out = explain(&t, &OVERSIZED_ARGS);
    let expected = r#"Settings
  cwd               flag     @T/proj/a/b
  dsh home          default  @T/home/.dsh  (user-global file shown as ~/.dsh/AGENTS.md)
  max bytes         flag     600
  max source bytes  flag     40
  candidates        default  AGENTS.md, CLAUDE.md
  local candidates  default  AGENTS.local.md, CLAUDE.local.md
  root markers      default  .git
  precedence        flag     first  (dsh before 2026-07-22)

dsh configuration
  profile    web  (default)
  preset     standard  (agent-presets row (bundle:@deepseek-ai/dsh-web-app))
  dsh home   @T/home/.dsh  (no layer there: what dsh ships applies)
  outcome    loaded
  settings   from config  (default)

Root search  (markers: .git; from the cwd upward)
  project root  @T/proj  (.git directory found there)
  walked        @T/proj/a/b
                @T/proj/a
                @T/proj

Files  (precedence first: per directory and tier the first present name wins)
  user-global  @T/home/.dsh
    user   AGENTS.md        loaded        7 bytes  54652f53
  .  @T/proj
    base   AGENTS.md        oversized    41 > 40 bytes, not read; its tier loads nothing
           CLAUDE.md        shadowed      9 bytes  111c27cd  by AGENTS.md, content not compared
    local  AGENTS.local.md  missing
           CLAUDE.local.md  missing
  a  @T/proj/a
    base   AGENTS.md        loaded        8 bytes  88e72008
           CLAUDE.md        missing
    local  AGENTS.local.md  missing
           CLAUDE.local.md  missing
  a/b  @T/proj/a/b
    base   AGENTS.md        oversized    460 > 40 bytes, not read; its tier loads nothing
           CLAUDE.md        missing
    local  AGENTS.local.md  loaded       16 bytes  e37c3420  leading BOM removed
           CLAUDE.local.md  missing

Budget
  used       418 of 600 bytes (69.7%), headroom 182 bytes, 3 files
  omitted    none
  truncated  none

Identity
  {"projectRoot":"../..","projectRootMarkers":[".git"],"maxBytes":600,"maxSourceBytes":40,"instructionFileCandidates":["AGENTS.md","CLAUDE.md"],"localInstructionFileCandidates":["AGENTS.local.md","CLAUDE.local.md"]}
"#;
    assert_eq!(out, expected);
}

#[test]
fn oversized_json_gives_size_and_cap() {
    let t = oversized_tree();
    let v = explain_json(&t, &OVERSIZED_ARGS);
    let p = "@T/proj";
    assert_eq!(
        v["directories"][1]["candidates"],
        json!([
            cand(
                p,
                "AGENTS.md",
                "base",
                ".",
                json!({"outcome": "oversized", "size": 41, "maxSourceBytes": 40, "changed": false})
            ),
            read(
                cand(
                    p,
                    "CLAUDE.md",
                    "base",
                    ".",
                    json!({"outcome": "shadowed", "by": "AGENTS.md", "contentDiffers": null})
                ),
                9,
                "111c27cd8f949517096575bc02ffc6a590e88602"
            ),
            cand(p, "AGENTS.local.md", "local", ".\u{0}local", missing()),
            cand(p, "CLAUDE.local.md", "local", ".\u{0}local", missing()),
        ])
    );
    assert_eq!(
        v["directories"][1]["scopes"],
        json!([
            {"key": ".", "tier": "base", "status": "blocked"},
            {"key": ".\u{0}local", "tier": "local", "status": "absent"},
        ])
    );
}

/// Below an oversized base file, the local tier of the same directory
/// still loads; the caps come from the flags.
#[test]
fn oversized_json_keeps_the_local_tier() {
    let t = oversized_tree();
    let v = explain_json(&t, &OVERSIZED_ARGS);
    let b = "@T/proj/a/b";
    assert_eq!(
        v["directories"][3]["candidates"],
        json!([
            cand(
                b,
                "a/b/AGENTS.md",
                "base",
                "a/b",
                json!({"outcome": "oversized", "size": 460, "maxSourceBytes": 40, "changed": false})
            ),
            cand(b, "a/b/CLAUDE.md", "base", "a/b", missing()),
            with(
                loaded(
                    cand(
                        b,
                        "a/b/AGENTS.local.md",
                        "local",
                        "a/b\u{0}local",
                        json!({"outcome": "loaded"})
                    ),
                    16,
                    "e37c34208115683f26ac2a73c48a5b4e37611b5f",
                    "included"
                ),
                "leadingBom",
                json!(true)
            ),
            cand(
                b,
                "a/b/CLAUDE.local.md",
                "local",
                "a/b\u{0}local",
                missing()
            ),
        ])
    );
    assert_eq!(
        v["settings"],
        settings(
            "@T/proj/a/b",
            json!({
                "maxBytes": {"value": 600, "origin": "flag"},
                "maxSourceBytes": {"value": 40, "origin": "flag"},
            })
        )
    );
}

// ---------------------------------------------------------------------------
// the budget: omitted and truncated files, headroom, disabled loading.

fn budget_tree() -> Tree {
    let t = Tree::new();
    let a_rules = rules("a");
    t.dir("home")
        .dir("proj/.git")
        .file("proj/AGENTS.md", format!("{}\n", "x".repeat(40)))
        .file("proj/AGENTS.local.md", "middle\n")
        .file("proj/a/AGENTS.md", a_rules);
    t
}

/// The Files, Budget and Identity sections of a budget-tree explain.
fn budget_tail(max: &str, rows: [&str; 3], budget: &str) -> String {
    format!(
        r#"Files  (precedence first: per directory and tier the first present name wins)
  user-global  @T/home/.dsh
    user   AGENTS.md        missing
  .  @T/proj
    base   AGENTS.md        loaded        41 bytes  c14fccc5{}
           CLAUDE.md        missing
    local  AGENTS.local.md  loaded         7 bytes  c58943aa{}
           CLAUDE.local.md  missing
  a  @T/proj/a
    base   AGENTS.md        loaded       460 bytes  aafe0598{}
           CLAUDE.md        missing
    local  AGENTS.local.md  missing
           CLAUDE.local.md  missing

Budget
{budget}
Identity
  {{"projectRoot":"..","projectRootMarkers":[".git"],"maxBytes":{max},"maxSourceBytes":1048576,"instructionFileCandidates":["AGENTS.md","CLAUDE.md"],"localInstructionFileCandidates":["AGENTS.local.md","CLAUDE.local.md"]}}
"#,
        rows[0], rows[1], rows[2]
    )
}

fn from_files(out: &str) -> String {
    out[out.find("Files").unwrap()..].to_owned()
}

#[test]
fn budget_text_shows_omitted_truncated_and_headroom() {
    let t = budget_tree();
    let out = explain(
        &t,
        &[
            "--precedence",
            "first",
            "--cwd",
            "proj/a",
            "--max-bytes",
            "500",
        ],
    );
    assert_eq!(
        from_files(&out),
        budget_tail(
            "500",
            [
                "  omitted by the budget",
                "  omitted by the budget",
                "  truncated by the budget to 74 of 460 bytes",
            ],
            "  used       500 of 500 bytes (100.0%), headroom 0 bytes, 3 files
  omitted    AGENTS.md, AGENTS.local.md
  truncated  a/AGENTS.md from 460 to 74 bytes
"
        )
    );
    let out = explain(
        &t,
        &[
            "--precedence",
            "first",
            "--cwd",
            "proj/a",
            "--max-bytes",
            "0",
        ],
    );
    let not_sent = "  not sent: max bytes <= 0";
    assert_eq!(
        from_files(&out),
        budget_tail(
            "0",
            [not_sent; 3],
            "  used       0 bytes: max bytes 0 <= 0 disables loading, no message is sent
"
        )
    );
}

#[test]
fn budget_json_shows_omitted_truncated_and_headroom() {
    let t = budget_tree();
    let v = explain_json(&t, &["--cwd", "proj/a", "--max-bytes", "500"]);
    assert_eq!(
        v["budget"],
        json!({
            "maxBytes": 500, "usedBytes": 500, "percent": 100.0, "headroomBytes": 0,
            "files": 3, "sent": true, "step": "truncated",
            "omitted": ["AGENTS.md", "AGENTS.local.md"],
            "truncated": {"path": "a/AGENTS.md", "originalBytes": 460, "includedBytes": 74},
        })
    );
    let budgets: Vec<&Value> = v["directories"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["candidates"].as_array().unwrap())
        .map(|c| &c["budget"])
        .collect();
    assert_eq!(
        budgets,
        [
            &Value::Null,
            &json!("omitted"),
            &Value::Null,
            &json!("omitted"),
            &Value::Null,
            &json!("truncated"),
            &Value::Null,
            &Value::Null,
            &Value::Null
        ]
    );
    let v = explain_json(&t, &["--cwd", "proj/a", "--max-bytes", "-1"]);
    assert_eq!(
        v["budget"],
        json!({
            "maxBytes": -1, "usedBytes": 0, "percent": null, "headroomBytes": null,
            "files": 3, "sent": false, "step": "disabled", "omitted": [], "truncated": null,
        })
    );
    assert_eq!(v["directories"][1]["candidates"][0]["budget"], "not-sent");
}

// ---------------------------------------------------------------------------
// no marker, ignored candidate entries, DSH_HOME from the environment, and a
// file name holding an escape sequence.

fn hostile_tree() -> Tree {
    let t = Tree::new();
    t.dir("home")
        .file("dsh/AGENTS.md", "g\n")
        .file("w/\u{1b}[31mred/\u{1b}[31mevil.md", "evil\n");
    t
}

fn hostile_cmd(t: &Tree) -> Command {
    let mut cmd = t.cmd();
    cmd.env("DSH_HOME", t.path("dsh"))
        .arg("explain")
        .arg("--cwd")
        .arg("w/\u{1b}[31mred")
        .arg("--candidates")
        .arg("AGENTS.md,,../x,\u{1b}[31mevil.md")
        .arg("--local-candidates")
        .arg("")
        .args(["--precedence", "first"]);
    cmd
}

#[test]
fn no_marker_ignored_entries_and_escaped_names_in_text() {
    let t = hostile_tree();
    let out = explain_with(&t, &mut hostile_cmd(&t));
    assert!(!out.contains('\u{1b}'), "raw escape in output:\n{out}");
    let expected = r#"Settings
  cwd               flag     @T/w/\x1b[31mred
  dsh home          env      @T/dsh  (user-global file shown as $DSH_HOME/AGENTS.md)
  max bytes         default  65536
  max source bytes  default  1048576
  candidates        flag     AGENTS.md, \x1b[31mevil.md
                             ignored "", "../x": not a plain file name (empty, ".", "..", or holding "/" or "\")
  local candidates  flag     none
  root markers      default  .git
  precedence        flag     first  (dsh before 2026-07-22)

dsh configuration
  profile    web  (default)
  preset     standard  (agent-presets row (bundle:@deepseek-ai/dsh-web-app))
  dsh home   @T/dsh  (no layer there: what dsh ships applies)
  outcome    loaded
  settings   from config  (default)

Root search  (markers: .git; from the cwd upward)
  project root  @T/w/\x1b[31mred  (no marker found: root = cwd)
  walked        @T/w/\x1b[31mred
                @T/w
                @T
                /tmp
                /

Files  (precedence first: per directory and tier the first present name wins)
  user-global  @T/dsh
    user   AGENTS.md        loaded       2 bytes  a5938ace
  .  @T/w/\x1b[31mred
    base   AGENTS.md        missing
           \x1b[31mevil.md  loaded       5 bytes  fe45d304

Budget
  used       356 of 65536 bytes (0.5%), headroom 65180 bytes, 2 files
  omitted    none
  truncated  none

Identity
  {"projectRoot":"","projectRootMarkers":[".git"],"maxBytes":65536,"maxSourceBytes":1048576,"instructionFileCandidates":["AGENTS.md","\u001b[31mevil.md"],"localInstructionFileCandidates":[]}
"#;
    assert_eq!(out, expected);
}

#[test]
fn no_marker_ignored_entries_and_names_in_json() {
    let t = hostile_tree();
    let (v, code) = run_json(hostile_cmd(&t).arg("--format").arg("json"));
    assert_eq!(code, 0);
    let v = rooted(v, root_str(&t));
    let cwd = "@T/w/\u{1b}[31mred";
    assert_eq!(
        v["settings"],
        settings(
            cwd,
            json!({
                "dshHome": {"value": "@T/dsh", "origin": "env"},
                "candidates": {"value": ["AGENTS.md", "\u{1b}[31mevil.md"], "ignored": ["", "../x"], "origin": "flag"},
                "localCandidates": {"value": [], "ignored": [], "origin": "flag"},
            })
        )
    );
    assert_eq!(
        v["rootSearch"],
        json!({
            "markers": [".git"],
            "walked": [cwd, "@T/w", "@T", "/tmp", "/"],
            "marker": null,
            "root": cwd,
        })
    );
    assert_eq!(
        v["directories"][1],
        json!({
            "display": ".", "path": cwd, "userGlobal": false,
            "candidates": [
                cand(cwd, "AGENTS.md", "base", ".", missing()),
                loaded(cand(cwd, "\u{1b}[31mevil.md", "base", ".", json!({"outcome": "loaded"})),
                    5, "fe45d304523ba62242503a06ad0e64d98df4f986", "included"),
            ],
            "scopes": [{"key": ".", "tier": "base", "status": "loaded"}],
        })
    );
}

// ---------------------------------------------------------------------------
// session logs.

fn event(seq: u64, data: Value, surface: Option<Value>) -> String {
    let mut e = json!({"type": "user/message", "seq": seq, "time": seq});
    e["data"] = data;
    if let Some(op) = surface {
        e = with(e, "surfaceOp", op);
    }
    e.to_string()
}

fn workspace(seq: u64, source: Value, surface: Option<Value>) -> String {
    let mut data = json!({"role": "user", "content": [{"type": "text", "text": "<system-reminder>\n…\n</system-reminder>"}]});
    data["source"] = source;
    event(seq, data, surface)
}

fn assistant(seq: u64, surface: Option<Value>) -> String {
    let mut e = json!({"type": "assistant/message", "seq": seq, "time": seq,
        "data": {"message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}]}}});
    if let Some(op) = surface {
        e = with(e, "surfaceOp", op);
    }
    e.to_string()
}

/// Writes `session.jsonl`: a header for `cwd`, then `lines`; returns its path.
fn write_log(t: &Tree, cwd: &str, lines: &[String]) -> String {
    t.session_log("session.jsonl", cwd, lines)
}

/// The diff parts the same log gives, for cross-checking explain's parts.
fn diff_parts(t: &Tree, args: &[&str]) -> Value {
    let (v, code) = run_json(
        t.cmd()
            .arg("diff")
            .arg("--format")
            .arg("json")
            .args(resumed(args)),
    );
    assert_eq!(code, 0);
    v["parts"].clone()
}

/// Compaction shadowed the baseline (all mode, inferred from the log).
fn compaction_tree() -> (Tree, String) {
    let t = Tree::new();
    t.dir("home")
        .dir("proj/.git")
        .file("proj/AGENTS.md", "root v2\n")
        .file("proj/lib/AGENTS.md", "lib v2\n");
    let append = || Some(json!("append"));
    let log = write_log(
        &t,
        "proj",
        &[
            workspace(
                0,
                json!({"kind": "workspace-instructions", "form": "instructions", "baseline": true,
                    "baselineIdentity": ID_ROOT,
                    "changes": [set_digest(".\u{0}AGENTS.md", "AGENTS.md", "03a239107f37e0434607b6bceeff6ab8b38a8426")]}),
                append(),
            ),
            assistant(1, append()),
            workspace(
                2,
                json!({"kind": "workspace-instructions", "form": "instructions",
                    "changes": [set_digest("lib\u{0}AGENTS.md", "lib/AGENTS.md", "f9944fade787624ad481187ad3b4951986e42c3c")]}),
                append(),
            ),
            assistant(3, append()),
            event(
                4,
                json!({"role": "user", "content": [{"type": "text", "text": "Summary."}], "source": {"kind": "compaction"}}),
                Some(json!({"op": "replace", "start": 0, "end": 1})),
            ),
        ],
    );
    (t, log)
}

#[test]
fn a_baseline_shadowed_by_compaction_in_text() {
    let (t, log) = compaction_tree();
    let out = explain(&t, &["--log", &log]);
    let expected = format!(
        r"Settings
  cwd               log      @T/proj
  dsh home          default  @T/home/.dsh  (user-global file shown as ~/.dsh/AGENTS.md)
  max bytes         log      65536
  max source bytes  log      1048576
  candidates        log      AGENTS.md, CLAUDE.md
  local candidates  log      AGENTS.local.md, CLAUDE.local.md
  root markers      log      .git
  precedence        log      all  (inferred from the log's scope keys)

dsh configuration
  profile    headless  (the log)
  dsh home   @T/home/.dsh  (no layer there: what dsh ships applies)
  outcome    loaded
  settings   from log  (--log names a file, which may come from another machine)

Root search  (markers: .git; from the cwd upward)
  project root  @T/proj  (.git directory found there)
  walked        @T/proj

Files  (precedence all: every present name loads; same trimmed content loads once per directory)
  user-global  @T/home/.dsh
    user   AGENTS.md        missing
  .  @T/proj
    base   AGENTS.md        loaded       8 bytes  7004c108
           CLAUDE.md        missing
    local  AGENTS.local.md  missing
           CLAUDE.local.md  missing

Not in the baseline
  lib/AGENTS.md  loads when the session touches lib/

Budget
  used       312 of 65536 bytes (0.5%), headroom 65224 bytes, 1 file
  omitted    none
  truncated  none

Identity
  {ID_ROOT}

Session  @T/session.jsonl
  header cwd        @T/proj
  records           6, 2 workspace events
  source kind       workspace-instructions  (dsh before 2026-08-13)
  visible baseline  none: compaction shadowed the baseline

Visible scopes  (last change per scope, in first-set order)
  scope             action  path           digest    seq
  lib\x00AGENTS.md  set     lib/AGENTS.md  f9944fad  2

Shadowed by compaction
  seq 0  baseline  set AGENTS.md

What diff would send
  decision  baseline
  reason    the baseline was shadowed by compaction: a complete current baseline is sent
  part 1    baseline, 312 bytes: set AGENTS.md
    │ <system-reminder>
    │ {INTRO}
    │
    │ Instructions from: AGENTS.md
    │
    │ root v2
    … 19 more bytes
  part 2    delta, 214 bytes: replace lib/AGENTS.md
    │ <system-reminder>
    │ Updated instructions from: lib/AGENTS.md
    │
    │ This file changed after it was loaded. Use the following content instead of the previously loaded instructions from this file.
    │
    │ lib v2
    … 19 more bytes
{}",
        prompt_section(Path::new(&log))
    );
    assert_eq!(out, expected);
}

#[test]
fn a_baseline_shadowed_by_compaction_in_json() {
    let (t, log) = compaction_tree();
    let v = explain_json(&t, &["--log", &log]);
    let parts = rooted(diff_parts(&t, &["--log", &log]), root_str(&t));
    let session = &v["session"];
    assert_eq!(
        session,
        &json!({
            "log": "@T/session.jsonl",
            "headerCwd": "@T/proj",
            "ignoredKind": null,
            "legacy": false,
            "records": 6,
            "encoding": "plain",
            "frames": null,
            "packed": {"rows": 0, "events": 0, "uncounted": 0},
            "workspaceEvents": 2,
            "invalidChanges": 0,
            "sourceKind": "workspace-instructions",
            "visibleBaseline": null,
            "scopes": [{"scope": "lib\u{0}AGENTS.md", "action": "set", "path": "lib/AGENTS.md",
                "previousPath": null, "digest": "f9944fade787624ad481187ad3b4951986e42c3c", "seq": 2}],
            "shadowed": [{"seq": 0, "baseline": true, "identity": ID_ROOT,
                "changes": [set_digest(".\u{0}AGENTS.md", "AGENTS.md", "03a239107f37e0434607b6bceeff6ab8b38a8426")]}],
            "decision": "baseline",
            "reason": "the baseline was shadowed by compaction: a complete current baseline is sent",
            "parts": [
                {"role": "baseline", "text": parts[0], "bytes": 312,
                    "changes": [set_digest(".\u{0}AGENTS.md", "AGENTS.md", "7004c108c360c3b0b5149cd1cfbba512e299160a")],
                    "omitted": [], "truncated": null},
                {"role": "delta", "text": parts[1], "bytes": 214,
                    "changes": [{"action": "replace", "scope": "lib\u{0}AGENTS.md", "path": "lib/AGENTS.md",
                        "digest": "50b24c462d93f5929b1c63a8c18ab76129974140"}],
                    "omitted": [], "truncated": null},
            ],
            "source": {"kind": "workspace-instructions", "form": "instructions", "baseline": true,
                "baselineIdentity": ID_ROOT,
                "changes": [
                    set_digest(".\u{0}AGENTS.md", "AGENTS.md", "7004c108c360c3b0b5149cd1cfbba512e299160a"),
                    {"action": "replace", "scope": "lib\u{0}AGENTS.md", "path": "lib/AGENTS.md",
                        "digest": "50b24c462d93f5929b1c63a8c18ab76129974140"},
                ]},
            "outsideScopes": [],
        })
    );
    assert_eq!(parts.as_array().unwrap().len(), 2);
    assert_eq!(v["prompt"], prompt_json(Path::new(&log)));
    assert_eq!(
        v["settings"]["precedence"],
        json!({"value": "all", "origin": "log"})
    );
}

/// The visible baseline was written under other settings (max bytes).
fn incompatible_tree() -> (Tree, String) {
    let t = Tree::new();
    t.dir("home")
        .dir("proj/.git")
        .file("proj/AGENTS.md", "new\n");
    let append = || Some(json!("append"));
    let log = write_log(
        &t,
        "proj",
        &[
            workspace(
                0,
                json!({"kind": "workspace-instructions", "form": "instructions", "baseline": true,
                "baselineIdentity": ID_ROOT,
                "changes": [
                    set_digest(".", "AGENTS.md", "281bac2b704617e807850e07e54bae3469f6a2e7"),
                    set_digest("old", "old/AGENTS.md", "5af617cb088ab40873e9aa52cc24726092c9424e"),
                ]}),
                append(),
            ),
            assistant(1, append()),
        ],
    );
    (t, log)
}

#[test]
fn an_incompatible_identity_in_text_with_full_parts() {
    let (t, log) = incompatible_tree();
    let out = explain(&t, &["--log", &log, "--max-bytes", "4000", "--full"]);
    let session = &out[out.find("\nSession").unwrap()..];
    let expected = format!(
        r"
Session  @T/session.jsonl
  header cwd        @T/proj
  records           3, 1 workspace event
  source kind       workspace-instructions  (dsh before 2026-08-13)
  visible baseline  seq 0, identity differs: maxBytes

Visible scopes  (last change per scope, in first-set order)
  scope  action  path           digest    seq
  .      set     AGENTS.md      281bac2b  0
  old    set     old/AGENTS.md  5af617cb  0

Shadowed by compaction
  none

What diff would send
  decision  replacement
  reason    the visible baseline (seq 0) has another identity (maxBytes differs): a replacement baseline is sent
  part 1    replacement baseline, 407 bytes: remove old/AGENTS.md, set AGENTS.md
    │ <system-reminder>
    │ This complete workspace instruction baseline replaces all earlier workspace instruction baselines. {INTRO}
    │
    │ Instructions from: AGENTS.md
    │
    │ new
    │
    │ </system-reminder>
{}",
        prompt_section(Path::new(&log))
    );
    assert_eq!(session, expected);
    assert!(
        out.starts_with("Settings\n  cwd               log      @T/proj\n"),
        "{out}"
    );
    assert!(
        out.contains("\n  max bytes         flag     4000\n  max source bytes  log      1048576\n"),
        "{out}"
    );
}

#[test]
fn an_incompatible_identity_in_json() {
    let (t, log) = incompatible_tree();
    let args = ["--log", log.as_str(), "--max-bytes", "4000"];
    let v = explain_json(&t, &args);
    let parts = diff_parts(&t, &args);
    let s = &v["session"];
    assert_eq!(
        s["visibleBaseline"],
        json!({"seq": 0, "identity": ID_ROOT, "identityMatches": false, "identityDiff": "maxBytes"})
    );
    assert_eq!(s["decision"], "replacement");
    assert_eq!(
        s["parts"],
        json!([{
            "role": "replacement", "text": parts[0], "bytes": 407,
            "changes": [
                {"action": "remove", "scope": "old", "path": "old/AGENTS.md"},
                set_digest(".", "AGENTS.md", "389cc6b7ae5a659383eab5dfc253764eccf84732"),
            ],
            "omitted": [], "truncated": null,
        }])
    );
    assert_eq!(s["shadowed"], json!([]));
    assert_eq!(
        s["scopes"],
        json!([
            {"scope": ".", "action": "set", "path": "AGENTS.md", "previousPath": null,
                "digest": "281bac2b704617e807850e07e54bae3469f6a2e7", "seq": 0},
            {"scope": "old", "action": "set", "path": "old/AGENTS.md", "previousPath": null,
                "digest": "5af617cb088ab40873e9aa52cc24726092c9424e", "seq": 0},
        ])
    );
    assert_eq!(
        v["settings"]["maxBytes"],
        json!({"value": 4000, "origin": "flag"})
    );
    assert_eq!(
        v["settings"]["maxSourceBytes"],
        json!({"value": 1_048_576, "origin": "log"})
    );
}

/// A legacy log (no surfaceOp) whose compatible baseline needs a delta.
fn legacy_tree() -> (Tree, String) {
    let t = Tree::new();
    t.dir("home")
        .dir("proj/.git")
        .file("proj/AGENTS.md", "root v2\n")
        .file("proj/app/AGENTS.md", "app v1\n");
    let log = write_log(
        &t,
        "proj",
        &[
            workspace(
                0,
                json!({"kind": "agent-instructions", "form": "instructions", "baseline": true,
                "baselineIdentity": ID_ROOT,
                "changes": [
                    set_digest(".", "AGENTS.md", "03a239107f37e0434607b6bceeff6ab8b38a8426"),
                    set_digest(".\u{0}local", "AGENTS.local.md", "5a9b181f58cbce1450c74d07918b188b712610b6"),
                ]}),
                None,
            ),
            workspace(
                1,
                json!({"kind": "agent-instructions", "form": "instructions",
                    "changes": [set_digest("app", "app/AGENTS.md", "ad23bb12b6f56e10201ac3c118e987f514ed3330")]}),
                None,
            ),
        ],
    );
    (t, log)
}

#[test]
fn a_compatible_legacy_log_in_text_abbreviates_the_delta() {
    let (t, log) = legacy_tree();
    let out = explain(&t, &["--log", &log]);
    let session = &out[out.find("\nSession").unwrap()..];
    let expected = format!(
        r"
Session  @T/session.jsonl
  header cwd        @T/proj
  records           3, 2 workspace events (legacy log: no surfaceOp, every message visible)
  source kind       agent-instructions  (dsh since 2026-08-13)
  visible baseline  seq 0, identity matches

Visible scopes  (last change per scope, in first-set order)
  scope       action  path             digest    seq
  .           set     AGENTS.md        03a23910  0
  .\x00local  set     AGENTS.local.md  5a9b181f  0
  app         set     app/AGENTS.md    ad23bb12  1

Shadowed by compaction
  none

What diff would send
  decision  delta
  reason    the visible baseline (seq 0) matches the current identity: only changes are sent
  part 1    delta, 318 bytes: replace AGENTS.md, remove AGENTS.local.md
    │ <system-reminder>
    │ Updated instructions from: AGENTS.md
    │
    │ This file changed after it was loaded. Use the following content instead of the previously loaded instructions from this file.
    │
    │ root v2
    … 126 more bytes
{}",
        prompt_section(Path::new(&log))
    );
    assert_eq!(session, expected);
}

#[test]
fn a_compatible_legacy_log_in_json() {
    let (t, log) = legacy_tree();
    let v = explain_json(&t, &["--log", &log]);
    let parts = diff_parts(&t, &["--log", &log]);
    let s = &v["session"];
    assert_eq!(s["legacy"], true);
    assert_eq!(s["sourceKind"], "agent-instructions");
    assert_eq!(
        s["visibleBaseline"],
        json!({"seq": 0, "identity": ID_ROOT, "identityMatches": true, "identityDiff": null})
    );
    assert_eq!(s["decision"], "delta");
    assert_eq!(
        s["parts"],
        json!([{
            "role": "delta", "text": parts[0], "bytes": 318,
            "changes": [
                {"action": "replace", "scope": ".", "path": "AGENTS.md",
                    "digest": "7004c108c360c3b0b5149cd1cfbba512e299160a"},
                {"action": "remove", "scope": ".\u{0}local", "path": "AGENTS.local.md"},
            ],
            "omitted": [], "truncated": null,
        }])
    );
    assert_eq!(
        s["source"],
        json!({"kind": "agent-instructions", "form": "instructions", "changes": [
            {"action": "replace", "scope": ".", "path": "AGENTS.md",
                "digest": "7004c108c360c3b0b5149cd1cfbba512e299160a"},
            {"action": "remove", "scope": ".\u{0}local", "path": "AGENTS.local.md"},
        ]})
    );
}

// ---------------------------------------------------------------------------
// colour.

/// Removes SGR sequences (`ESC [ ... m`).
fn strip_sgr(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn colour_is_decided_once_and_only_when_asked() {
    let t = first_mode_tree();
    let plain = explain(&t, &["--cwd", "proj/app"]);
    let bare = || {
        let mut cmd = common::agentctx();
        cmd.current_dir(t.root())
            .env("HOME", t.path("home"))
            .env_remove("DSH_HOME")
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE");
        cmd
    };
    // --color always: the same text, painted.
    let coloured = explain_with(
        &t,
        bare()
            .args(["--color", "always", "explain", "--cwd", "proj/app"])
            .env("NO_COLOR", "1"),
    );
    assert!(coloured.contains("\u{1b}["), "{coloured}");
    assert_eq!(strip_sgr(&coloured), plain);
    // A pipe gets no colour by default; CLICOLOR_FORCE forces it.
    let piped = explain_with(&t, bare().args(["explain", "--cwd", "proj/app"]));
    assert_eq!(piped, plain);
    let forced = explain_with(
        &t,
        bare()
            .args(["explain", "--cwd", "proj/app"])
            .env("CLICOLOR_FORCE", "1"),
    );
    assert_eq!(forced, coloured);
    // JSON is never coloured.
    let (out, _, code) = run(bare().args([
        "--color", "always", "explain", "--cwd", "proj/app", "--format", "json",
    ]));
    assert_eq!(code, 0);
    assert!(!out.contains('\u{1b}'));
    serde_json::from_str::<Value>(&out).unwrap();
}

// ---------------------------------------------------------------------------
// errors and the read stage.

#[test]
fn a_missing_log_is_one_error_line() {
    let t = Tree::new();
    t.dir("home");
    let (out, err, code) = run(t.cmd().args(["explain", "--log", "nope.jsonl"]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "",
            "agentctx: nope.jsonl: No such file or directory (os error 2)\n",
            2
        )
    );
}

/// A file stat can see but not open is unavailable at the read stage (needs
/// a non-root user: root opens anything).
#[test]
fn an_unreadable_file_is_unavailable_at_the_read_stage() {
    use std::os::unix::fs::PermissionsExt;
    let t = Tree::new();
    t.dir("home")
        .dir("proj/.git")
        .file("proj/AGENTS.md", "secret\n");
    std::fs::set_permissions(
        t.path("proj/AGENTS.md"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    // Root reads a mode-000 file: run as an unprivileged user.
    let (Some(mut json_cmd), Some(mut text_cmd)) = (t.unprivileged_cmd(), t.unprivileged_cmd())
    else {
        return;
    };
    let (v, code) = run_json(json_cmd.args([
        "explain",
        "--format",
        "json",
        "--precedence",
        "first",
        "--cwd",
        "proj",
    ]));
    assert_eq!(code, 0);
    let v = rooted(v, root_str(&t));
    assert_eq!(
        v["directories"][1]["candidates"][0],
        cand(
            "@T/proj",
            "AGENTS.md",
            "base",
            ".",
            json!({"outcome": "unavailable", "stage": "read", "error": "Permission denied (os error 13)"})
        )
    );
    let out = explain_with(
        &t,
        text_cmd.args(["explain", "--precedence", "first", "--cwd", "proj"]),
    );
    assert!(
        out.contains("\n    base   AGENTS.md        unavailable  reading failed: Permission denied (os error 13); its tier loads nothing\n"),
        "{out}"
    );
}

/// The prompt-stability section, spelled out: a system prompt that changes
/// only by its Web GUI port, and a runtime snapshot.
#[test]
fn explain_log_shows_prompt_rewrites_and_runtime_context_literally() {
    let t = Tree::new();
    t.dir("proj/.git").dir("home");
    let cwd = t.path("proj");
    let system = |seq: u64, port: u16| {
        json!({"type": "system/message", "seq": seq, "time": 0, "surfaceOp": "append",
               "data": {"content": [{"type": "text", "text": format!(
                   "You are a coding agent.\n\nYou are interacting with the user through the DeepSeek Harness Web GUI at http://127.0.0.1:{port}. Links open in it.")}]}})
        .to_string()
    };
    let snapshot = json!({"type": "user/message", "seq": 2, "time": 0, "surfaceOp": "append",
        "data": {"role": "user", "content": [{"type": "text", "text": "ctx"}],
                 "source": {"kind": "plugin", "plugin": "@deepseek-ai/dsh-system-prompt", "form": "snapshot",
                            "sections": [{"name": "app:web-surface",
                                          "text": "Current DeepSeek Harness Web GUI URL: \"http://127.0.0.1:41235\"."}]}}})
    .to_string();
    let log = t.path("s.jsonl");
    std::fs::write(
        &log,
        [header(&cwd), system(0, 41234), system(1, 41235), snapshot].join("\n") + "\n",
    )
    .unwrap();
    let out = explain(&t, &["--log", log.to_str().unwrap()]);
    let section = &out[out.find("System prompt and runtime context").unwrap()..];
    assert_eq!(
        section,
        "System prompt and runtime context
  System prompt
    2 versions, 1 head rewrite
    version 1: seq 0 (line 2), system/message, 2 paragraphs, 140 bytes, sha1 a041c78b78062157b41c13dc4c92fd9e2e40d168
    version 2: seq 1 (line 3), system/message, 2 paragraphs, 140 bytes, sha1 5870796e9e6b04ac6a280fa822ad18fd645b6474
    warning: head rewrite at seq 1 (line 3): version 2 differs from version 1; on routes without in-history prompt updates a resumed Claude session is rejected (400, signature bound to a different conversation)
      only process-specific values changed: http://127.0.0.1:41234 -> http://127.0.0.1:41235
      - removed paragraph 2: You are interacting with the user through the DeepSeek Harness Web GUI at http://127.0.0.1:41234. Links open in it.
      + added paragraph 2: You are interacting with the user through the DeepSeek Harness Web GUI at http://127.0.0.1:41235. Links open in it.
  Process-specific values in the system prompt
    warning: paragraph 2 (\"You are interacting with the user through the…\") of the prompt at seq 0 (line 2) holds a loopback URL with an explicit port http://127.0.0.1:41234: such values belong in runtime context (it matches the earlier app:web-surface template)
    warning: paragraph 2 (\"You are interacting with the user through the…\") of the prompt at seq 1 (line 3) holds a loopback URL with an explicit port http://127.0.0.1:41235: such values belong in runtime context (the earlier-format app:web-surface paragraph this session keeps verbatim)
  Earlier-format paragraphs (kept verbatim)
    harness:source: none
    app:web-surface (from the prompt at seq 1): You are interacting with the user through the DeepSeek Harness Web GUI at http://127.0.0.1:41235. Links open in it.
  Runtime context
    latest snapshot at seq 2 (line 4), the last of 1, 1 section
    app:web-surface: Current DeepSeek Harness Web GUI URL: \"http://127.0.0.1:41235\".
    current Web GUI URL: http://127.0.0.1:41235
"
    );
}

/// explain names the generation each precedence value stands for, and where
/// it came from: the default, the flag, or the log's scope keys.
#[test]
fn the_precedence_row_names_its_generation_and_origin() {
    let t = Tree::new();
    t.dir("home")
        .dir("proj/.git")
        .file("proj/AGENTS.md", "agents\n");
    let row = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("  precedence"))
            .unwrap()
            .to_owned()
    };
    assert_eq!(
        row(&explain(&t, &["--cwd", "proj"])),
        "  precedence        default  all  (default: dsh since 2026-07-22)"
    );
    assert_eq!(
        row(&explain(&t, &["--cwd", "proj", "--precedence", "first"])),
        "  precedence        flag     first  (dsh before 2026-07-22)"
    );
    assert_eq!(
        row(&explain(&t, &["--cwd", "proj", "--precedence", "all"])),
        "  precedence        flag     all  (dsh since 2026-07-22)"
    );
    let first = write_log(
        &t,
        "proj",
        &[workspace(
            1,
            json!({"kind": "workspace-instructions", "form": "instructions", "changes": [set_digest(".", "AGENTS.md", "d")]}),
            Some(json!("append")),
        )],
    );
    assert_eq!(
        row(&explain(&t, &["--log", &first])),
        "  precedence        log      first  (inferred from the log's scope keys)"
    );
    // A log with no change entry infers nothing: the default applies.
    let empty = write_log(&t, "proj", &[assistant(1, Some(json!("append")))]);
    assert_eq!(
        row(&explain(&t, &["--log", &empty])),
        "  precedence        default  all  (default: dsh since 2026-07-22)"
    );
}

/// One word per fact: the decision is `none` in explain text and JSON alike.
#[test]
fn an_unchanged_session_has_decision_none_in_text_and_json() {
    let t = Tree::new();
    t.dir("home")
        .dir("proj/.git")
        .file("proj/AGENTS.md", "agents\n");
    let (rendered, code) = run_json(
        t.cmd()
            .args(["render", "--cwd", "proj", "--format", "json"]),
    );
    assert_eq!(code, 0);
    let log = write_log(
        &t,
        "proj",
        &[workspace(
            1,
            rendered["source"].clone(),
            Some(json!("append")),
        )],
    );
    let out = explain(&t, &["--log", &log]);
    let decision = out.lines().find(|l| l.starts_with("  decision")).unwrap();
    assert_eq!(decision, "  decision  none");
    assert_eq!(
        explain_json(&t, &["--log", &log])["session"]["decision"],
        "none"
    );
}

/// A log whose system prompt changes on every request keeps a bounded
/// number of versions (the first ones and the latest two), counts the rest,
/// and says so; `--full` keeps every one (issue 13: 1M alternating prompts
/// took 9 GB).
#[test]
fn prompt_versions_are_bounded_unless_full() {
    let t = Tree::new();
    t.dir("home").dir("proj/.git");
    let lines: Vec<String> = (0..1000u64)
        .map(|i| {
            let text = if i % 2 == 0 { "Prompt A." } else { "Prompt B." };
            json!({"type": "system/message", "seq": i, "time": i,
                   "data": {"content": [{"type": "text", "text": text}]}})
            .to_string()
        })
        .collect();
    let log = write_log(&t, "proj", &lines);
    let v = explain_json(&t, &["--log", &log]);
    let numbers: Vec<u64> = v["prompt"]["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["number"].as_u64().unwrap())
        .collect();
    let expected: Vec<u64> = (1..=98).chain([999, 1000]).collect();
    assert_eq!(numbers, expected);
    assert_eq!(v["prompt"]["versionsNotKept"], 900);
    assert_eq!(v["prompt"]["rewrites"].as_array().unwrap().len(), 99);
    let gap = &v["prompt"]["rewrites"][97];
    assert_eq!(
        (&gap["version"], &gap["previous"]),
        (&json!(999), &json!(98))
    );
    let out = explain(&t, &["--log", &log]);
    let summary: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(" versions, ") || l.contains("not kept"))
        .collect();
    assert_eq!(
        summary,
        [
            "    1000 versions, 999 head rewrites",
            "    … 900 versions between version 98 and version 999 not kept (explain --full keeps every one)",
        ]
    );
    let full = explain_json(&t, &["--log", &log, "--full"]);
    assert_eq!(full["prompt"]["versions"].as_array().unwrap().len(), 1000);
    assert_eq!(full["prompt"]["versionsNotKept"], 0);
}

/// The `dshConfig` of a dsh home holding no layer, for `dsh web` (the default
/// without a log): what dsh ships, its standard preset.
fn web_config(home: &str) -> serde_json::Value {
    let key = |key: &str, value: serde_json::Value, origin: &str| json!({"key": key, "value": value, "origin": origin, "line": null, "expression": null});
    json!({
        "profile": "web",
        "profileFrom": "default",
        "preset": "standard",
        "presetFrom": "agent-presets row (bundle:@deepseek-ai/dsh-web-app)",
        "dshHome": home,
        "layers": [
            {"layer": "bundle @deepseek-ai/dsh-base", "file": "bundle:@deepseek-ai/dsh-base", "status": "built in"},
            {"layer": "bundle @deepseek-ai/dsh-web-app", "file": "bundle:@deepseek-ai/dsh-web-app", "status": "built in"},
            {"layer": "profile", "file": format!("{home}/profiles/web/cordis.patch.yml"), "status": "absent"},
            {"layer": "home", "file": format!("{home}/cordis.patch.yml"), "status": "absent"},
            {"layer": "preset standard", "file": "preset:standard", "status": "built in"},
        ],
        "outcome": "loaded",
        "file": null,
        "line": null,
        "message": null,
        "row": [
            key("maxBytes", json!(65536), "preset:standard"),
            key("maxSourceBytes", json!(1_048_576), "default"),
            key("projectRootMarkers", json!([".git"]), "default"),
            key("instructionFileCandidates", json!(["AGENTS.md", "CLAUDE.md"]), "default"),
            key("localInstructionFileCandidates", json!(["AGENTS.local.md", "CLAUDE.local.md"]), "default"),
            key("dshHome", json!(home), "default"),
        ],
        "ignoredKeys": [],
        "warnings": [],
        "sessionsRoot": null,
        "settingsFrom": "config",
        "settingsFromOrigin": "default",
        "differsFromLog": null,
    })
}

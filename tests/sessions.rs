//! Finding dsh's stored sessions (issue 15): `--session ID|latest` and
//! `agentctx sessions`, which lists them as dsh's web sidebar does (issue
//! 27).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

use agentctx::sessions::key::{encode_segment, project_key};
use common::message::{jsonl, rendered_baseline_event};
use common::{Tree, run, zstd_container};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

/// 2025-12-01T10:30:00Z.
const T0: u64 = 1_764_585_000;

/// A session log for `cwd`: a header, then `n` assistant messages.
fn log_text(id: &str, cwd: &Path, created_ms: i64, n: u64) -> String {
    let header =
        json!({"type":"session","version":0,"id":id,"createdAt":created_ms,"cwd":cwd}).to_string();
    let events = (0..n).map(|seq| {
        format!(
            r#"{{"type":"assistant/message","seq":{seq},"time":{seq},"surfaceOp":"append","data":{{"message":{{"content":[]}}}}}}"#
        )
    });
    jsonl(std::iter::once(header).chain(events))
}

/// A conversation as dsh writes one: its header (with `extra` fields),
/// then a turn that starts with a prompt typed `prompt_s` seconds after
/// `T0`, the fallback title, and an assistant message.
fn talk(id: &str, cwd: &Path, created_s: u64, prompt_s: u64, title: &str, extra: Value) -> String {
    let mut header =
        json!({"type":"session","version":0,"id":id,"createdAt":(T0 + created_s) * 1000,"cwd":cwd});
    header
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let time = (T0 + prompt_s) * 1000;
    jsonl([
        header,
        json!({"type":"turn/start","seq":0,"time":time,"data":{"turn":1}}),
        json!({"type":"user/message","seq":1,"time":time,"surfaceOp":"append",
               "data":{"content":[{"type":"text","text":title}],"source":{"kind":"user"}}}),
        json!({"type":"session/title","seq":2,"time":time + 1,
               "data":{"title":title,"messageSeqs":[1],"source":{"kind":"fallback"}}}),
        json!({"type":"assistant/message","seq":3,"time":time + 2,"surfaceOp":"append",
               "data":{"message":{"content":[]}}}),
    ])
}

/// Stores a session as dsh does under `home/.dsh/sessions`, modified at `mtime`.
fn store(t: &Tree, cwd: &Path, id: &str, text: &str, zstd: bool, mtime: u64) -> String {
    let key = project_key(&cwd.to_string_lossy());
    let name = if zstd {
        "session.jsonl.zstd"
    } else {
        "session.jsonl"
    };
    let rel = format!("home/.dsh/sessions/{key}/{}/{name}", encode_segment(id));
    if zstd {
        t.file(&rel, zstd_container(text, 2).0);
    } else {
        t.file(&rel, text);
    }
    let file = std::fs::File::options()
        .write(true)
        .open(t.path(&rel))
        .unwrap();
    file.set_modified(UNIX_EPOCH + Duration::from_secs(mtime))
        .unwrap();
    rel
}

fn with_project(t: &Tree, rel: &str) -> std::path::PathBuf {
    t.dir(&format!("{rel}/.git"))
        .file(&format!("{rel}/AGENTS.md"), "# rules\n");
    t.path(rel)
}

/// `latest` is the first session `agentctx sessions` lists: the newest by
/// its latest prompt (not by when its file was written), among those the
/// sidebar shows; an id finds a hidden one too.
#[test]
fn latest_is_the_first_session_the_list_shows() {
    let t = Tree::new();
    let p = with_project(&t, "p");
    // "early" was written last, but "later" was prompted last.
    store(
        &t,
        &p,
        "later",
        &talk("later", &p, 0, 100, "Later", json!({})),
        true,
        T0 + 200,
    );
    store(
        &t,
        &p,
        "early",
        &talk("early", &p, 50, 60, "Early", json!({})),
        true,
        T0 + 300,
    );
    // A blank session (no turn yet) and a subagent's are newer still.
    let blank_ms = i64::try_from((T0 + 400) * 1000).unwrap();
    store(
        &t,
        &p,
        "blank",
        &log_text("blank", &p, blank_ms, 1),
        true,
        T0 + 400,
    );
    let child = json!({"origin":"subagent","parentSession":"later"});
    store(
        &t,
        &p,
        "child",
        &talk("child", &p, 500, 500, "Child", child),
        true,
        T0 + 500,
    );
    let explain = |session: &str| {
        let (out, err, code) = run(t.cmd().args([
            "explain",
            "--cwd",
            "p",
            "--session",
            session,
            "--format",
            "json",
        ]));
        let v: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
        (
            v["session"]["log"].as_str().unwrap().to_owned(),
            v["session"]["records"].clone(),
            code,
        )
    };
    let root = t
        .path("home/.dsh/sessions")
        .join(project_key(&p.to_string_lossy()));
    let log = |id: &str| format!("{}/{id}/session.jsonl.zstd", root.display());
    assert_eq!(explain("latest"), (log("later"), json!(5), 0));
    assert_eq!(explain("early"), (log("early"), json!(5), 0));
    // A unique start of an id is enough, and an id finds a hidden session.
    assert_eq!(explain("ea").0, log("early"));
    assert_eq!(explain("blank"), (log("blank"), json!(2), 0));
}

#[test]
fn a_lossy_project_key_is_settled_by_the_header_cwd() {
    let t = Tree::new();
    let ab = with_project(&t, "a-b");
    let a_b = with_project(&t, "a/b");
    assert_eq!(
        project_key(&ab.to_string_lossy()),
        project_key(&a_b.to_string_lossy())
    );
    store(
        &t,
        &ab,
        "one",
        &talk("one", &ab, 0, 0, "One", json!({})),
        false,
        T0,
    );
    let two = talk("two", &a_b, 60, 60, "Two", json!({}));
    store(&t, &a_b, "two", &two, false, T0 + 60);
    let list = |cwd: &str| run(t.cmd().args(["sessions", "--cwd", cwd, "--format", "json"]));
    let ids = |(out, _, _): (String, String, i32)| -> Vec<String> {
        let v: Value = serde_json::from_str(&out).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(ids(list("a-b")), ["one"]);
    assert_eq!(ids(list("a/b")), ["two"]);
    // The newer session belongs to the other cwd: latest of a-b is "one".
    let (_, err, code) = run(t.cmd().args([
        "render",
        "--cwd",
        "a-b",
        "--session",
        "latest",
        "--precedence",
        "all",
    ]));
    assert_eq!((err.as_str(), code), ("", 0));
    let (_, err, code) = run(t.cmd().args(["diff", "--cwd", "a-b", "--session", "two"]));
    assert_eq!(
        (err, code),
        (
            format!(
                "agentctx: no dsh session \"two\" of {} under {}\n",
                ab.display(),
                t.path("home/.dsh/sessions").display()
            ),
            2
        )
    );
}

#[test]
fn ids_and_cwds_with_tilde_and_non_ascii_are_found() {
    let t = Tree::new();
    let p = with_project(&t, "ça~va");
    let id = "sé~1 ok";
    let rel = store(
        &t,
        &p,
        id,
        &talk(id, &p, 0, 0, "Say hi", json!({})),
        true,
        T0,
    );
    assert!(
        rel.contains("/--") && rel.contains("-~00E7a~007Eva--/s~00E9~007E1~0020ok/"),
        "{rel}"
    );
    let (out, err, code) = run(t.cmd().args(["sessions", "--cwd", "ça~va"]));
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "\
ID       UPDATED               PRESET  WORKSPACE  TITLE
sé~1 ok  2025-12-01T10:30:00Z  -       ça~va      Say hi
",
            "",
            0
        )
    );
    let (_, err, code) = run(t.cmd().args([
        "diff",
        "--cwd",
        "ça~va",
        "--session",
        id,
        "--precedence",
        "all",
    ]));
    assert_eq!((err.as_str(), code), ("", 0));
    // --ids, for shell completion: the ids listed, one a line.
    let (out, err, code) = run(t.cmd().args(["sessions", "--cwd", "ça~va", "--ids"]));
    assert_eq!((out.as_str(), err.as_str(), code), ("sé~1 ok\n", "", 0));
}

/// The table shows what the sidebar shows (id, updated, preset, workspace,
/// title: the latest session/title); JSON has every fact, from the same rows.
#[test]
fn sessions_lists_text_and_json_from_the_same_facts() {
    let t = Tree::new();
    let proj = with_project(&t, "p");
    // "a" was created with the preset "plan", then switched to "code".
    let switched = talk(
        "a",
        &proj,
        0,
        10,
        "Fix the build",
        json!({"agentPreset":"plan"}),
    ) + &jsonl([
        json!({"type":"agent-preset/selected","seq":4,"time":(T0 + 11) * 1000,"data":{"agentPreset":"code"}}),
        json!({"type":"session/title","seq":5,"time":(T0 + 12) * 1000,"data":{"title":"Build fixed"}}),
    ]);
    let a = store(&t, &proj, "a", &switched, false, T0 + 20);
    // "b": created later, but prompted earlier than "a"; no preset.
    let b = store(
        &t,
        &proj,
        "b",
        &talk("b", &proj, 5, 5, "Add a test", json!({})),
        false,
        T0 + 3600,
    );
    let size = |rel: &str| std::fs::metadata(t.path(rel)).unwrap().len();
    let (out, err, code) = run(t.cmd().args(["sessions", "--cwd", "p"]));
    let expected = "\
ID  UPDATED               PRESET  WORKSPACE  TITLE
a   2025-12-01T10:30:10Z  code    p          Build fixed
b   2025-12-01T10:30:05Z  -       p          Add a test
";
    assert_eq!((out.as_str(), err.as_str(), code), (expected, "", 0));
    let (out, _, code) = run(t.cmd().args(["sessions", "--cwd", "p", "--format", "json"]));
    let got: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (got, code),
        (
            json!([
                {"id": "a", "title": "Build fixed", "workspace": "p", "updated": "2025-12-01T10:30:10Z",
                 "preset": "code", "hidden": null, "summarised": true,
                 "created": "2025-12-01T10:30:00Z", "modified": "2025-12-01T10:30:20Z",
                 "bytes": size(&a), "encoding": "plain", "events": 6, "cwd": proj, "parent": null,
                 "path": t.path(&a), "drift": null},
                {"id": "b", "title": "Add a test", "workspace": "p", "updated": "2025-12-01T10:30:05Z",
                 "preset": null, "hidden": null, "summarised": true,
                 "created": "2025-12-01T10:30:05Z", "modified": "2025-12-01T11:30:00Z",
                 "bytes": size(&b), "encoding": "plain", "events": 4, "cwd": proj, "parent": null,
                 "path": t.path(&b), "drift": null},
            ]),
            0
        )
    );
}

/// With no session to list, `sessions` exits 0 and says why on stderr:
/// the hidden ones, the subdirectories that have sessions, `--all`; with
/// no sessions root at all, it says that in words.
#[test]
fn no_session_to_list_is_a_hint_not_an_error() {
    let t = Tree::new();
    let p = with_project(&t, "p");
    let root = t.path("home/.dsh/sessions");
    let (out, err, code) = run(t.cmd().args(["sessions", "--cwd", "p"]));
    let no_root = format!(
        "the sessions root {} does not exist (dsh makes it when it stores its first session)",
        root.display()
    );
    assert_eq!(
        (out.as_str(), err, code),
        (
            "",
            format!("agentctx: no dsh session of {}: {no_root}\n", p.display()),
            0
        )
    );
    let (out, err, code) = run(t.cmd().args(["sessions", "--all"]));
    assert_eq!(
        (out.as_str(), err, code),
        (
            "",
            format!("agentctx: no dsh session is stored: {no_root}\n"),
            0
        )
    );
    let blank_ms = i64::try_from(T0 * 1000).unwrap();
    store(
        &t,
        &p,
        "blank",
        &log_text("blank", &p, blank_ms, 0),
        true,
        T0,
    );
    let app = p.join("packages/app");
    let web = p.join("packages/web");
    store(
        &t,
        &app,
        "a1",
        &talk("a1", &app, 0, 0, "A", json!({})),
        true,
        T0,
    );
    store(
        &t,
        &app,
        "a2",
        &talk("a2", &app, 0, 0, "A", json!({})),
        true,
        T0,
    );
    store(
        &t,
        &web,
        "w1",
        &talk("w1", &web, 0, 0, "W", json!({})),
        true,
        T0,
    );
    let (out, err, code) = run(t.cmd().args(["sessions", "--cwd", "p", "--format", "json"]));
    assert_eq!(
        (out.as_str(), err, code),
        (
            "[]\n",
            format!(
                "agentctx: no dsh session of {} under {}; 1 blank or subagent session is hidden; subdirectories with sessions: packages/app (2), packages/web (1) (list one with --cwd DIR); `agentctx sessions --all` lists every session of every project\n",
                p.display(),
                root.display()
            ),
            0
        )
    );
    assert_eq!(
        run(t.cmd().args(["sessions", "--cwd", "p", "-q"])),
        (String::new(), String::new(), 0)
    );
}

/// A log whose visible baseline is what `render` sends for the project now.
fn baseline_log(t: &Tree, id: &str, cwd: &Path) -> String {
    let out = t
        .cmd()
        .current_dir(cwd)
        .args(["render", "--format", "json", "--precedence", "all"])
        .output()
        .unwrap();
    let rendered: Value = serde_json::from_slice(&out.stdout).unwrap();
    let lines = [
        json!({"type":"session","version":0,"id":id,"createdAt":0,"cwd":cwd}),
        json!({"type":"turn/start","seq":0,"time":T0 * 1000,"data":{"turn":1}}),
        rendered_baseline_event(&rendered),
    ];
    jsonl(&lines)
}

#[test]
fn check_drift_says_which_sessions_a_resume_would_update() {
    let t = Tree::new();
    let p = with_project(&t, "p");
    store(&t, &p, "old", &baseline_log(&t, "old", &p), true, T0);
    t.file("p/AGENTS.md", "# rules, changed\n");
    store(&t, &p, "new", &baseline_log(&t, "new", &p), true, T0 + 60);
    let (out, err, code) = run(t.cmd().args(["sessions", "--cwd", "p", "--check-drift"]));
    // Untitled, they show the workspace as their title, as dsh does; with
    // no human prompt, updated is the creation (both at 0: the id decides).
    let expected = "\
ID   UPDATED               PRESET  WORKSPACE  DRIFT           TITLE
new  1970-01-01T00:00:00Z  -       p          matches         p
old  1970-01-01T00:00:00Z  -       p          drifted: delta  p
";
    assert_eq!((out.as_str(), err.as_str(), code), (expected, "", 0));
    let (out, _, _) = run(t.cmd().args([
        "sessions",
        "--cwd",
        "p",
        "--check-drift",
        "--format",
        "json",
    ]));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (&v[0]["drift"], &v[1]["drift"]),
        (&json!("none"), &json!("delta"))
    );
}

#[test]
fn no_match_ambiguity_and_mixed_encodings_are_one_line_errors() {
    let t = Tree::new();
    let p = with_project(&t, "p");
    let root = t.path("home/.dsh/sessions");
    let (_, err, code) = run(t.cmd().args(["diff", "--cwd", "p", "--session", "latest"]));
    assert_eq!(
        (err, code),
        (
            format!(
                "agentctx: no dsh session of {} under {}\n",
                p.display(),
                root.display()
            ),
            2
        )
    );
    store(&t, &p, "run-1", &log_text("run-1", &p, 0, 1), true, T0);
    store(&t, &p, "run-2", &log_text("run-2", &p, 0, 1), true, T0);
    // Both are blank: none is `latest`.
    let (_, err, code) = run(t.cmd().args(["diff", "--cwd", "p", "--session", "latest"]));
    assert_eq!(
        (err, code),
        (
            format!(
                "agentctx: no dsh session of {} under {} has started a conversation (2 blank or subagent sessions hidden: `agentctx sessions --all` lists them)\n",
                p.display(),
                root.display()
            ),
            2
        )
    );
    let (_, err, code) = run(t.cmd().args(["explain", "--cwd", "p", "--session", "run"]));
    assert_eq!(
        (err, code),
        (
            format!(
                "agentctx: session id \"run\" is ambiguous: 2 sessions of {} under {} begin with it (\"run-1\", \"run-2\")\n",
                p.display(),
                root.display()
            ),
            2
        )
    );
    let plain = store(&t, &p, "run-3", &log_text("run-3", &p, 0, 1), false, T0);
    let (_, err, code) = run(t.cmd().args(["sessions", "--cwd", "p"]));
    let zstd = t.path(&plain.replace("run-3/session.jsonl", "run-1/session.jsonl.zstd"));
    assert_eq!(
        (err, code),
        (
            format!(
                "agentctx: {} holds both zstd and plain session logs ({} and {}); dsh writes one encoding per root\n",
                root.display(),
                zstd.display(),
                t.path(&plain).display()
            ),
            2
        )
    );
    let (_, err, code) = run(t
        .cmd()
        .args(["diff", "--log", "x.jsonl", "--session", "latest"]));
    assert_eq!(
        (err.as_str(), code),
        (
            "agentctx: the argument '--log <FILE>' cannot be used with '--session <ID|latest>'; try '--help'\n",
            2
        )
    );
}

/// `--all`: every session of every project of the root, hidden ones too,
/// each with why the sidebar hides it and its cwd.
#[test]
fn all_lists_every_session_of_a_given_root_with_its_cwd() {
    let t = Tree::new();
    let proj = with_project(&t, "p");
    let other = with_project(&t, "q");
    let blank_ms = i64::try_from(T0 * 1000).unwrap();
    store(
        &t,
        &proj,
        "a",
        &log_text("a", &proj, blank_ms, 1),
        false,
        T0,
    );
    store(
        &t,
        &other,
        "b",
        &talk("b", &other, 60, 60, "Ship it", json!({})),
        false,
        T0 + 60,
    );
    let child = json!({"origin":"subagent","parentSession":"b"});
    store(
        &t,
        &other,
        "c",
        &talk("c", &other, 30, 30, "Look around", child),
        false,
        T0 + 60,
    );
    // The store moved elsewhere: --sessions-root names it.
    std::fs::rename(t.path("home/.dsh/sessions"), t.path("elsewhere")).unwrap();
    let (out, err, code) = run(t
        .cmd()
        .args(["sessions", "--all", "--sessions-root", "elsewhere"]));
    let expected = format!(
        "\
ID  UPDATED               PRESET  WORKSPACE  HIDDEN    CWD{pad}  TITLE
b   2025-12-01T10:31:00Z  -       q          -         {q}  Ship it
c   2025-12-01T10:30:30Z  -       q          subagent  {q}  Look around
a   2025-12-01T10:30:00Z  -       p          blank     {p}  New Session
",
        pad = " ".repeat(other.display().to_string().len() - 3),
        q = other.display(),
        p = proj.display(),
    );
    assert_eq!((out, err, code), (expected, String::new(), 0));
}

/// The bash script (from `agentctx completions bash`, in a bash without
/// the bash-completion package) completes `--session` with `latest` and
/// the ids `agentctx sessions` lists for the current directory, and
/// `--profile` with what the command takes.
#[test]
fn bash_completes_latest_and_the_session_ids_for_session() {
    let t = Tree::new();
    let p = with_project(&t, "p");
    store(
        &t,
        &p,
        "s-1",
        &talk("s-1", &p, 0, 0, "One", json!({})),
        true,
        T0,
    );
    store(
        &t,
        &p,
        "s-2",
        &talk("s-2", &p, 9, 9, "Two", json!({})),
        true,
        T0 + 9,
    );
    let blank_ms = i64::try_from((T0 + 60) * 1000).unwrap();
    store(
        &t,
        &p,
        "s-3",
        &log_text("s-3", &p, blank_ms, 0),
        true,
        T0 + 60,
    );
    let (script, err, code) = run(t.cmd().args(["completions", "bash"]));
    assert_eq!((err.as_str(), code), ("", 0));
    t.file("agentctx.bash", script);
    let bin = assert_cmd::cargo::cargo_bin("agentctx");
    let complete = |words: &[&str]| -> String {
        let mut all = vec![bin.to_str().unwrap()];
        all.extend(words);
        let quoted: Vec<String> = all.iter().map(|w| format!("'{w}'")).collect();
        let line = format!(
            "source {script}; COMP_WORDS=({words}); COMP_CWORD={cword}; _agentctx {cmd} {cur} {prev}; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script = t.path_str("agentctx.bash"),
            words = quoted.join(" "),
            cword = all.len() - 1,
            cmd = quoted[0],
            cur = quoted[all.len() - 1],
            prev = quoted[all.len() - 2],
        );
        let out = std::process::Command::new("bash")
            .args(["--norc", "--noprofile", "-c", &line])
            .current_dir(&p)
            .env("HOME", t.path("home"))
            .env_remove("DSH_HOME")
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(complete(&["diff", "--session", ""]), "latest\ns-2\ns-1\n");
    assert_eq!(complete(&["render", "--session", "s-"]), "s-2\ns-1\n");
    assert_eq!(complete(&["explain", "--session", "la"]), "latest\n");
    assert_eq!(
        complete(&["render", "--profile", ""]),
        "dsh\ncodex\ngemini\nopencode\nclaude\n"
    );
    assert_eq!(
        complete(&["explain", "--profile", "c"]),
        "codex\nclaude\ncopilot\n"
    );
    assert_eq!(complete(&["check", "--profile", "a"]), "all\n");
    assert_eq!(complete(&["diff", "--profile", ""]), "dsh\n");
}

/// fish (where installed; CI needs only bash) completes `--session` the
/// same way.
#[test]
fn fish_completes_latest_and_the_session_ids_where_installed() {
    if !std::process::Command::new("fish")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("skipped: fish is not installed");
        return;
    }
    let t = Tree::new();
    let p = with_project(&t, "p");
    store(
        &t,
        &p,
        "s-1",
        &talk("s-1", &p, 0, 0, "One", json!({})),
        true,
        T0,
    );
    let (script, _, _) = run(t.cmd().args(["completions", "fish"]));
    t.file("agentctx.fish", script);
    let bin = assert_cmd::cargo::cargo_bin("agentctx");
    t.dir("bin");
    std::os::unix::fs::symlink(&bin, t.path("bin/agentctx")).unwrap();
    let path = format!(
        "{}:{}",
        t.path_str("bin"),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("fish")
        .args([
            "--no-config",
            "-c",
            &format!(
                "source {}; complete -C 'agentctx diff --session '",
                t.path_str("agentctx.fish")
            ),
        ])
        .current_dir(&p)
        .env("HOME", t.path("home"))
        .env("PATH", path)
        .env_remove("DSH_HOME")
        .output()
        .unwrap();
    let words: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').next().unwrap_or("").to_owned())
        .collect();
    assert_eq!(words, ["latest", "s-1"]);
}

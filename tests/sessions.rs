//! Finding dsh's stored sessions (issue 15): `--session ID|latest` and
//! `agentctx sessions`.
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

#[test]
fn latest_is_the_newest_session_of_the_cwd() {
    let t = Tree::new();
    let p = with_project(&t, "p");
    store(&t, &p, "older", &log_text("older", &p, 0, 1), true, T0);
    store(&t, &p, "newer", &log_text("newer", &p, 0, 2), true, T0 + 60);
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
    assert_eq!(
        explain("latest"),
        (
            format!("{}/newer/session.jsonl.zstd", root.display()),
            json!(3),
            0
        )
    );
    assert_eq!(
        explain("older"),
        (
            format!("{}/older/session.jsonl.zstd", root.display()),
            json!(2),
            0
        )
    );
    // A unique start of an id is enough.
    assert_eq!(explain("ne").1, json!(3));
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
    store(&t, &ab, "one", &log_text("one", &ab, 0, 1), false, T0);
    store(
        &t,
        &a_b,
        "two",
        &log_text("two", &a_b, 0, 1),
        false,
        T0 + 60,
    );
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
    let rel = store(&t, &p, id, &log_text(id, &p, 0, 1), true, T0);
    assert!(
        rel.contains("/--") && rel.contains("-~00E7a~007Eva--/s~00E9~007E1~0020ok/"),
        "{rel}"
    );
    let (out, err, code) = run(t.cmd().args(["sessions", "--cwd", "ça~va"]));
    assert_eq!(
        (out, err, code),
        (
            "\
ID       CREATED               MODIFIED              SIZE  ENCODING  EVENTS
sé~1 ok  1970-01-01T00:00:00Z  2025-12-01T10:30:00Z  "
                .to_owned()
                + &format!(
                    "{:<4}  zstd      1\n",
                    std::fs::metadata(t.path(&rel)).unwrap().len()
                ),
            String::new(),
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
}

#[test]
fn sessions_lists_text_and_json_from_the_same_facts() {
    let t = Tree::new();
    let proj = with_project(&t, "p");
    let a = store(
        &t,
        &proj,
        "a",
        &log_text("a", &proj, 1_764_547_200_123, 2),
        false,
        T0,
    );
    let b = store(
        &t,
        &proj,
        "b",
        &log_text("b", &proj, 1_764_547_260_000, 3),
        false,
        T0 + 3600,
    );
    let size = |rel: &str| std::fs::metadata(t.path(rel)).unwrap().len();
    let (out, err, code) = run(t.cmd().args(["sessions", "--cwd", "p"]));
    let expected = format!(
        "\
ID  CREATED               MODIFIED              SIZE  ENCODING  EVENTS
b   2025-12-01T00:01:00Z  2025-12-01T11:30:00Z  {:<4}  plain     3
a   2025-12-01T00:00:00Z  2025-12-01T10:30:00Z  {:<4}  plain     2
",
        size(&b),
        size(&a)
    );
    assert_eq!((out, err, code), (expected, String::new(), 0));
    let (out, _, code) = run(t.cmd().args(["sessions", "--cwd", "p", "--format", "json"]));
    let got: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (got, code),
        (
            json!([
                {"id": "b", "created": "2025-12-01T00:01:00Z", "modified": "2025-12-01T11:30:00Z",
                 "bytes": size(&b), "encoding": "plain", "events": 3, "cwd": proj, "path": t.path(&b), "drift": null},
                {"id": "a", "created": "2025-12-01T00:00:00Z", "modified": "2025-12-01T10:30:00Z",
                 "bytes": size(&a), "encoding": "plain", "events": 2, "cwd": proj, "path": t.path(&a), "drift": null},
            ]),
            0
        )
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
        rendered_baseline_event(&rendered),
    ];
    jsonl(&lines)
}

#[test]
fn check_drift_says_which_sessions_a_resume_would_update() {
    let t = Tree::new();
    let p = with_project(&t, "p");
    let old = store(&t, &p, "old", &baseline_log(&t, "old", &p), true, T0);
    t.file("p/AGENTS.md", "# rules, changed\n");
    let new = store(&t, &p, "new", &baseline_log(&t, "new", &p), true, T0 + 60);
    let size = |rel: &str| std::fs::metadata(t.path(rel)).unwrap().len();
    let (out, err, code) = run(t.cmd().args(["sessions", "--cwd", "p", "--check-drift"]));
    let expected = format!(
        "\
ID   CREATED               MODIFIED              SIZE  ENCODING  EVENTS  DRIFT
new  1970-01-01T00:00:00Z  2025-12-01T10:31:00Z  {:<4}  zstd      1       matches
old  1970-01-01T00:00:00Z  2025-12-01T10:30:00Z  {:<4}  zstd      1       drifted: delta
",
        size(&new),
        size(&old)
    );
    assert_eq!((out, err, code), (expected, String::new(), 0));
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

#[test]
fn all_lists_every_project_of_a_given_root_with_its_cwd() {
    let t = Tree::new();
    let proj = with_project(&t, "p");
    let other = with_project(&t, "q");
    let a = store(&t, &proj, "a", &log_text("a", &proj, 0, 1), false, T0);
    let b = store(
        &t,
        &other,
        "b",
        &log_text("b", &other, 0, 1),
        false,
        T0 + 60,
    );
    // The store moved elsewhere: --sessions-root names it.
    std::fs::rename(t.path("home/.dsh/sessions"), t.path("elsewhere")).unwrap();
    let moved = |rel: &str| rel.replace("home/.dsh/sessions", "elsewhere");
    let size = |rel: &str| std::fs::metadata(t.path(&moved(rel))).unwrap().len();
    let (out, err, code) = run(t
        .cmd()
        .args(["sessions", "--all", "--sessions-root", "elsewhere"]));
    let expected = format!(
        "\
ID  CREATED               MODIFIED              SIZE  ENCODING  EVENTS  CWD
b   1970-01-01T00:00:00Z  2025-12-01T10:31:00Z  {:<4}  plain     1       {}
a   1970-01-01T00:00:00Z  2025-12-01T10:30:00Z  {:<4}  plain     1       {}
",
        size(&b),
        other.display(),
        size(&a),
        proj.display()
    );
    assert_eq!((out, err, code), (expected, String::new(), 0));
}

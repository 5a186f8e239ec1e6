//! Hostile inputs (issue 8; SPEC 2.3, 2.4, 5.1): every bad file, link, log
//! line and flag gets a clear answer. Each test runs the real binary under a
//! deadline (`bounded`: a hang kills the child and fails the test) and pins
//! the exit code, the whole stdout and the whole stderr: the one-line
//! `agentctx: ...` error or warning naming the path or `file:line[:col]`, and
//! never a panic message.
// Test code: a failed unwrap or expect is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use agentctx::discovery::{self, Load};
use common::Tree;
use common::bounded::{self, Output};
use common::message::{baseline, jsonl};

// ---------------------------------------------------------------------------
// Helpers

/// A tree whose root holds the `.git` marker.
fn tree() -> Tree {
    let t = Tree::new();
    t.dir(".git");
    t
}

fn warning(text: &str) -> String {
    format!("agentctx: warning: {text}\n")
}

fn error(text: &str) -> String {
    format!("agentctx: {text}\n")
}

/// Pins all three: exit code, whole stdout, whole stderr.
#[track_caller]
fn expect(out: &Output, code: i32, stdout: &str, stderr: &str) {
    assert_eq!(
        (out.code, out.text().as_str(), out.stderr.as_str()),
        (code, stdout, stderr)
    );
}

fn run(cmd: &mut Command) -> Output {
    bounded::run(cmd)
}

fn os_error(code: i32) -> String {
    io::Error::from_raw_os_error(code).to_string()
}

/// Writes a JSON Lines log (each line plus `\n`) into the tree.
fn write_log(t: &Tree, name: &str, lines: &[String]) {
    t.file(name, jsonl(lines));
}

fn header(t: &Tree) -> String {
    common::header(t.root())
}

/// The persisted source `render` reports for the tree now: what a log
/// whose baseline matches the disk carries.
fn current_source(t: &Tree) -> Value {
    let out = run(t.cmd().args(["render", "--format", "json"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.json()["source"].clone()
}

/// A baseline `user/message` event carrying `source`.
fn baseline_event(seq: u64, source: &Value, surfaced: bool) -> String {
    let mut ev = json!({
        "type": "user/message", "seq": seq, "time": 0,
        "data": {"content": [{"type": "text", "text": "(baseline)"}], "source": source,
                 "role": "user", "id": format!("m{seq}")},
    });
    if surfaced {
        ev["surfaceOp"] = json!("append");
    }
    ev.to_string()
}

// ---------------------------------------------------------------------------
// Filesystem: things named like a candidate that are not regular files

#[test]
fn fifo_named_like_a_candidate_is_absent_and_never_opened() {
    let t = tree();
    t.fifo("AGENTS.md").file("CLAUDE.md", "claude\n");
    let want = baseline(&[("CLAUDE.md", "claude\n")]);
    let warn = warning("AGENTS.md: not a regular file (FIFO), treated as absent");
    expect(&run(t.cmd().arg("render")), 0, &want, &warn);
    let all = run(t.cmd().args(["render", "--precedence", "all"]));
    expect(&all, 0, &want, &warn);
    // diff probes the same candidates (and warns alike); it must not block on the FIFO either.
    write_log(&t, "s.jsonl", &[header(&t)]);
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        0,
        &want,
        &warn,
    );
}

#[test]
fn socket_named_like_a_candidate_is_absent() {
    let t = tree();
    t.file("CLAUDE.md", "claude\n");
    let _listener = UnixListener::bind(t.path("AGENTS.md")).expect("bind a socket");
    expect(
        &run(t.cmd().arg("render")),
        0,
        &baseline(&[("CLAUDE.md", "claude\n")]),
        &warning("AGENTS.md: not a regular file (socket), treated as absent"),
    );
}

#[test]
fn directory_named_like_a_candidate_is_absent() {
    let t = tree();
    t.dir("AGENTS.md")
        .file("AGENTS.md/inner.md", "x")
        .file("CLAUDE.md", "claude\n");
    expect(
        &run(t.cmd().arg("render")),
        0,
        &baseline(&[("CLAUDE.md", "claude\n")]),
        &warning("AGENTS.md: not a regular file (directory), treated as absent"),
    );
}

#[test]
fn symlink_to_a_directory_is_absent() {
    let t = tree();
    t.dir("docs")
        .symlink("AGENTS.md", "docs")
        .file("CLAUDE.md", "claude\n");
    expect(
        &run(t.cmd().arg("render")),
        0,
        &baseline(&[("CLAUDE.md", "claude\n")]),
        &warning("AGENTS.md: not a regular file (symlink to a directory), treated as absent"),
    );
}

#[test]
fn symlink_to_a_file_loads_the_target_under_the_link_name() {
    let t = tree();
    t.file("docs/guide.md", "guide\n")
        .symlink("AGENTS.md", "docs/guide.md");
    expect(
        &run(t.cmd().arg("render")),
        0,
        &baseline(&[("AGENTS.md", "guide\n")]),
        "",
    );
}

#[test]
fn symlink_loop_is_unavailable_and_skipped() {
    let t = tree();
    t.symlink("AGENTS.md", "loop.md")
        .symlink("loop.md", "AGENTS.md")
        .file("CLAUDE.md", "claude\n");
    // SPEC 2.3: ELOOP is "unavailable": skipped, so the next name wins.
    expect(
        &run(t.cmd().arg("render")),
        0,
        &baseline(&[("CLAUDE.md", "claude\n")]),
        &warning(&format!(
            "AGENTS.md: unavailable, skipped: {}",
            os_error(libc::ELOOP)
        )),
    );
}

#[test]
fn dangling_symlink_is_absent() {
    let t = tree();
    t.symlink("AGENTS.md", "gone.md")
        .file("CLAUDE.md", "claude\n");
    expect(
        &run(t.cmd().arg("render")),
        0,
        &baseline(&[("CLAUDE.md", "claude\n")]),
        &warning("AGENTS.md: dangling symlink to gone.md, treated as absent"),
    );
}

/// dsh resolves a candidate's real path before probing it (SPEC 2.3): a
/// link through a file fails there with ENOTDIR, so in `all` mode the
/// candidate is unavailable; `first`-mode builds probed with `lstat`/`stat`
/// and took it for absent.
#[test]
fn symlink_through_a_file_is_unavailable_in_all_mode_and_absent_in_first() {
    let t = tree();
    t.file("notes.txt", "n")
        .symlink("AGENTS.md", "notes.txt/AGENTS.md")
        .file("CLAUDE.md", "claude\n");
    expect(
        &run(t.cmd().arg("render")),
        0,
        &baseline(&[("CLAUDE.md", "claude\n")]),
        &warning("AGENTS.md: unavailable, skipped: Not a directory (os error 20)"),
    );
    expect(
        &run(t.cmd().args(["render", "--precedence", "first"])),
        0,
        &baseline(&[("CLAUDE.md", "claude\n")]),
        &warning("AGENTS.md: dangling symlink to notes.txt/AGENTS.md, treated as absent"),
    );
}

#[test]
fn dsh_home_that_is_a_file_is_unavailable_in_all_mode_and_absent_in_first() {
    let t = tree();
    t.file("home-file", "not a dir").file("AGENTS.md", "root\n");
    let out = run(t.cmd().args(["render", "--dsh-home", "home-file"]));
    expect(
        &out,
        0,
        &baseline(&[("AGENTS.md", "root\n")]),
        &warning("$DSH_HOME/AGENTS.md: unavailable, skipped: Not a directory (os error 20)"),
    );
    let out = run(t
        .cmd()
        .args(["render", "--dsh-home", "home-file", "--precedence", "first"]));
    expect(
        &out,
        0,
        &baseline(&[("AGENTS.md", "root\n")]),
        &warning(&format!(
            "$DSH_HOME/AGENTS.md: {} is not a directory, treated as absent",
            t.path("home-file").display()
        )),
    );
}

// ---------------------------------------------------------------------------
// Filesystem: permissions (as an unprivileged user)

/// Opens the tree to the unprivileged user: every directory 0755.
fn open_tree(t: &Tree) {
    for entry in walkdir::WalkDir::new(t.root()) {
        let entry = entry.expect("walk");
        if entry.file_type().is_dir() {
            fs::set_permissions(entry.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
        }
    }
}

fn chmod(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).expect("chmod");
}

/// `agentctx` as an unprivileged user, set up like `Tree::cmd`, every
/// directory of the tree open to that user.
fn unprivileged(t: &Tree) -> Option<Command> {
    open_tree(t);
    t.unprivileged_cmd()
}

#[test]
fn unreadable_candidate_is_unavailable_and_does_not_fall_through() {
    let t = tree();
    t.file("AGENTS.md", "secret\n")
        .file("CLAUDE.md", "fallback\n")
        .file("pkg/AGENTS.md", "pkg\n");
    let Some(mut cmd) = unprivileged(&t) else {
        return;
    };
    chmod(&t.path("AGENTS.md"), 0o000);
    // SPEC 3.3: an unreadable winner yields nothing for its tier; CLAUDE.md
    // does not step in.
    let out = run(cmd.args(["render", "--precedence", "first", "--cwd", "pkg"]));
    expect(
        &out,
        0,
        &baseline(&[("pkg/AGENTS.md", "pkg\n")]),
        &warning(&format!(
            "AGENTS.md: unreadable, not loaded: {}",
            os_error(libc::EACCES)
        )),
    );
}

#[test]
fn unsearchable_directory_makes_its_candidates_unavailable() {
    let t = tree();
    t.file("AGENTS.md", "root\n")
        .file("locked/AGENTS.md", "locked\n");
    let Some(mut cmd) = unprivileged(&t) else {
        return;
    };
    // Readable but not searchable: every stat inside fails with EACCES.
    chmod(&t.path("locked"), 0o644);
    let out = run(cmd.args(["render", "--cwd", "locked"]));
    let denied = os_error(libc::EACCES);
    let warns: String = [
        "AGENTS.md",
        "CLAUDE.md",
        "AGENTS.local.md",
        "CLAUDE.local.md",
    ]
    .iter()
    .map(|name| warning(&format!("locked/{name}: unavailable, skipped: {denied}")))
    .collect();
    expect(&out, 0, &baseline(&[("AGENTS.md", "root\n")]), &warns);
    chmod(&t.path("locked"), 0o755);
}

#[test]
fn cwd_inside_an_unsearchable_directory_is_an_error() {
    let t = tree();
    t.file("locked/inner/AGENTS.md", "x\n");
    let Some(mut cmd) = unprivileged(&t) else {
        return;
    };
    chmod(&t.path("locked"), 0o000);
    let out = run(cmd.args(["render", "--cwd", "locked/inner"]));
    expect(
        &out,
        2,
        "",
        &error(&format!(
            "--cwd {}: {}",
            t.path("locked/inner").display(),
            os_error(libc::EACCES)
        )),
    );
    chmod(&t.path("locked"), 0o755);
}

// ---------------------------------------------------------------------------
// Filesystem: sizes

#[test]
fn sparse_two_gib_candidate_is_refused_by_size_without_reading() {
    let t = tree();
    File::create(t.path("AGENTS.md"))
        .and_then(|f| f.set_len(2 << 30))
        .expect("sparse file");
    t.file("CLAUDE.md", "not a fallback\n")
        .file("pkg/AGENTS.md", "pkg\n");
    // The warning quotes the stat size: a read would have stopped at
    // max-source-bytes + 1 = 1048577 and reported that instead.
    let out = run(t
        .cmd()
        .args(["render", "--precedence", "first", "--cwd", "pkg"]));
    expect(
        &out,
        0,
        &baseline(&[("pkg/AGENTS.md", "pkg\n")]),
        &warning("AGENTS.md: oversized, not loaded: 2147483648 bytes > max-source-bytes 1048576"),
    );
}

#[test]
fn a_read_stops_at_max_source_bytes_plus_one_however_long_the_file() {
    let t = tree();
    t.file("grown.md", "g".repeat(1000));
    // The probe saw 10 bytes; the file has 1000 by the time it is read: the
    // size reported is the probe's, and that it grew.
    assert_eq!(
        discovery::load(&t.path("grown.md"), 10, 100),
        Load::Oversized {
            bytes: 10,
            grew: true
        }
    );
    // A file that grew but still fits is loaded whole (SPEC 2.4).
    let Load::Text(text) = discovery::load(&t.path("grown.md"), 10, 1000) else {
        panic!("expected the text");
    };
    assert_eq!(text.text, "g".repeat(1000));
}

#[test]
fn a_file_growing_while_read_is_loaded_bounded_or_oversized() {
    const MAX: usize = 4096;
    let t = tree();
    t.file("data.md", "a".repeat(100))
        .symlink("AGENTS.md", "data.md");
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (stop, path) = (Arc::clone(&stop), t.path("data.md"));
        thread::spawn(move || {
            let chunk = [b'a'; 512];
            while !stop.load(Ordering::Relaxed) {
                let f = OpenOptions::new().write(true).open(&path).expect("open");
                f.set_len(0).expect("truncate");
                let mut f = OpenOptions::new().append(true).open(&path).expect("open");
                for _ in 0..16 {
                    f.write_all(&chunk).expect("append");
                }
            }
        })
    };
    for _ in 0..6 {
        let out = run(t.cmd().args([
            "render",
            "--format",
            "json",
            "--max-source-bytes",
            &MAX.to_string(),
        ]));
        assert_eq!(out.code, 0, "{}", out.stderr);
        let doc = out.json();
        match doc["files"].as_array().expect("files").as_slice() {
            [file] => {
                // Loaded: some prefix of the growing file, never over the cap.
                let bytes = usize::try_from(file["bytes"].as_u64().expect("bytes")).expect("usize");
                assert!(bytes <= MAX, "loaded {bytes} bytes");
                assert_eq!(
                    doc["parts"][0].as_str().expect("part"),
                    baseline(&[("AGENTS.md", &"a".repeat(bytes))])
                );
                assert_eq!(out.stderr, "");
            }
            [] => {
                // Oversized: by stat size (at most the 8192 the writer makes),
                // or it grew past the cap after the probe saw a size that fit.
                let rest = out
                    .stderr
                    .strip_prefix("agentctx: warning: AGENTS.md: oversized, not loaded: ")
                    .unwrap_or_else(|| panic!("unexpected stderr: {}", out.stderr));
                let by_stat = rest
                    .strip_suffix(&format!(" bytes > max-source-bytes {MAX}\n"))
                    .and_then(|n| n.parse::<usize>().ok());
                let grew = rest
                    .strip_prefix("it changed while being read (")
                    .and_then(|r| {
                        r.strip_suffix(&format!(
                            " bytes when probed, more than max-source-bytes {MAX} when read)\n"
                        ))
                    })
                    .and_then(|n| n.parse::<usize>().ok());
                match (by_stat, grew) {
                    (Some(n), None) => assert!((MAX + 1..=8192).contains(&n), "reported {n} bytes"),
                    (None, Some(n)) => assert!(n <= MAX, "probed {n} bytes"),
                    _ => panic!("unexpected stderr: {}", out.stderr),
                }
                assert_eq!(doc["parts"], json!([]));
            }
            more => panic!("one candidate, got {more:?}"),
        }
    }
    stop.store(true, Ordering::Relaxed);
    writer.join().expect("writer");
}

// ---------------------------------------------------------------------------
// Filesystem: names

#[test]
fn non_utf8_directory_names_become_replacement_characters() {
    let t = tree();
    let dir = t.root().join(OsStr::from_bytes(b"pkg\xff\xfe"));
    fs::create_dir(&dir).expect("mkdir");
    fs::write(dir.join("AGENTS.md"), "pkg\n").expect("write");
    Command::new("mkfifo")
        .arg(dir.join("CLAUDE.local.md"))
        .status()
        .expect("mkfifo");
    let mut cmd = t.cmd();
    cmd.arg("render").arg("--cwd").arg(&dir);
    expect(
        &run(&mut cmd),
        0,
        &baseline(&[("pkg\u{fffd}\u{fffd}/AGENTS.md", "pkg\n")]),
        &warning(
            "pkg\u{fffd}\u{fffd}/CLAUDE.local.md: not a regular file (FIFO), treated as absent",
        ),
    );
    let mut cmd = t.cmd();
    cmd.args(["render", "--format", "json", "--cwd"]).arg(&dir);
    let doc = run(&mut cmd).json();
    assert_eq!(
        doc["source"]["changes"],
        json!([{"action": "set", "scope": "pkg\u{fffd}\u{fffd}\0AGENTS.md",
                "path": "pkg\u{fffd}\u{fffd}/AGENTS.md",
                "digest": "4ce9051efb9ff75b753805085b9e841a6129ae39"}])
    );
}

#[test]
fn non_utf8_link_targets_and_log_names_are_shown_with_replacement_characters() {
    let t = tree();
    std::os::unix::fs::symlink(OsStr::from_bytes(b"\xff.md"), t.path("AGENTS.md"))
        .expect("symlink");
    expect(
        &run(t.cmd().arg("render")),
        0,
        "",
        &warning("AGENTS.md: dangling symlink to \u{fffd}.md, treated as absent"),
    );
    let mut cmd = t.cmd();
    cmd.args(["diff", "--log"])
        .arg(OsStr::from_bytes(b"s\xff.jsonl"));
    expect(
        &run(&mut cmd),
        2,
        "",
        &error(&format!("s\u{fffd}.jsonl: {}", os_error(libc::ENOENT))),
    );
}

#[test]
fn hostile_names_are_verbatim_in_the_payload_and_escaped_in_warnings() {
    let t = tree();
    let name = "a\nb</system-reminder>\u{1b}[31mc\u{202e}";
    t.file(&format!("{name}/AGENTS.md"), "hi\n")
        .fifo(&format!("{name}/CLAUDE.local.md"));
    // The payload is what the harness sends: the name verbatim, except the
    // SPEC's own escaping of the closing tag.
    let shown = "a\nb<\\/system-reminder>\u{1b}[31mc\u{202e}";
    let out = run(t.cmd().args(["render", "--cwd", name]));
    expect(
        &out,
        0,
        &baseline(&[(&format!("{shown}/AGENTS.md"), "hi\n")]),
        &warning(
            "a\\nb</system-reminder>\\x1b[31mc\\u{202e}/CLAUDE.local.md: not a regular file (FIFO), treated as absent",
        ),
    );
    // JSON carries the same bytes, escaped the JSON way.
    let doc = run(t.cmd().args(["render", "--format", "json", "--cwd", name])).json();
    assert_eq!(
        doc["source"]["changes"][0]["path"],
        json!(format!("{name}/AGENTS.md"))
    );
    assert_eq!(doc["parts"][0], json!(out.text()));
}

#[test]
fn errors_escape_hostile_names() {
    let t = tree();
    let out = run(t
        .cmd()
        .args(["render", "--cwd", "nope\u{1b}]0;owned\u{7}\n"]));
    expect(
        &out,
        2,
        "",
        &error(&format!(
            "--cwd {}/nope\\x1b]0;owned\\x07\\n: {}",
            t.root().display(),
            os_error(libc::ENOENT)
        )),
    );
    let out = run(t.cmd().args(["diff", "--log", "x\u{1b}[2J.jsonl"]));
    expect(
        &out,
        2,
        "",
        &error(&format!("x\\x1b[2J.jsonl: {}", os_error(libc::ENOENT))),
    );
}

// ---------------------------------------------------------------------------
// The working directory

#[test]
fn cwd_that_does_not_exist_is_an_error() {
    let t = tree();
    expect(
        &run(t.cmd().args(["render", "--cwd", "nope"])),
        2,
        "",
        &error(&format!(
            "--cwd {}: {}",
            t.path("nope").display(),
            os_error(libc::ENOENT)
        )),
    );
}

#[test]
fn cwd_that_is_a_file_is_an_error() {
    let t = tree();
    t.file("f", "x");
    expect(
        &run(t.cmd().args(["render", "--cwd", "f"])),
        2,
        "",
        &error(&format!("--cwd {}: not a directory", t.path("f").display())),
    );
    // ENOTDIR on the way: a file where a directory of the cwd should be.
    expect(
        &run(t.cmd().args(["render", "--cwd", "f/sub"])),
        2,
        "",
        &error(&format!(
            "--cwd {}: {}",
            t.path("f/sub").display(),
            os_error(libc::ENOTDIR)
        )),
    );
}

#[test]
fn deleted_process_cwd_is_an_error() {
    let t = tree();
    t.dir("gone");
    let out = run(Command::new("sh")
        .current_dir(t.root())
        .env("HOME", t.path("home"))
        .args([
            "-c",
            "cd gone && rmdir ../gone && exec \"$0\" --color never render",
        ])
        .arg(env!("CARGO_BIN_EXE_agentctx")));
    expect(
        &out,
        2,
        "",
        &error(&format!(
            "reading the current directory: {}",
            os_error(libc::ENOENT)
        )),
    );
}

/// An absolute --cwd, or --log with an absolute path and header cwd, does
/// not need the process's own working directory, even when it was deleted.
#[test]
fn absolute_paths_work_when_the_process_cwd_was_deleted() {
    let t = tree();
    t.dir("gone").file("AGENTS.md", "root\n");
    write_log(
        &t,
        "s.jsonl",
        &[json!({"type": "session", "cwd": t.root()}).to_string()],
    );
    let script = "cd gone && rmdir ../gone && \"$0\" --color never render --cwd \"$1\" && \"$0\" --color never diff --log \"$1/s.jsonl\"";
    let out = run(Command::new("sh")
        .current_dir(t.root())
        .env("HOME", t.path("home"))
        .env_remove("DSH_HOME")
        .args(["-c", script])
        .arg(env!("CARGO_BIN_EXE_agentctx"))
        .arg(t.root()));
    let base = baseline(&[("AGENTS.md", "root\n")]);
    expect(&out, 0, &format!("{base}{base}"), "");
}

#[test]
fn log_header_cwd_that_does_not_exist_names_the_log() {
    let t = tree();
    t.file("AGENTS.md", "root\n");
    write_log(
        &t,
        "s.jsonl",
        &[json!({"type": "session", "cwd": "/nonexistent/elsewhere"}).to_string()],
    );
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        2,
        "",
        &error(&format!(
            "s.jsonl: the session cwd /nonexistent/elsewhere from its header is unusable: {} (pass --cwd)",
            os_error(libc::ENOENT)
        )),
    );
    // --cwd overrides the header.
    let out = run(t.cmd().args(["diff", "--log", "s.jsonl", "--cwd", "."]));
    expect(&out, 0, &baseline(&[("AGENTS.md", "root\n")]), "");
}

// ---------------------------------------------------------------------------
// Logs

fn log_tree() -> Tree {
    let t = tree();
    t.file("AGENTS.md", "root\n");
    t
}

#[test]
fn empty_log_warns_and_falls_back_to_the_current_directory() {
    let t = log_tree();
    t.file("s.jsonl", "");
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        0,
        &baseline(&[("AGENTS.md", "root\n")]),
        &warning("s.jsonl: the log holds no events, not even a session header"),
    );
    t.file("a.json", " [ ] ");
    expect(
        &run(t.cmd().args(["diff", "--log", "a.json"])),
        0,
        &baseline(&[("AGENTS.md", "root\n")]),
        &warning("a.json: the log holds no events, not even a session header"),
    );
}

#[test]
fn header_cwd_of_the_wrong_type_is_a_warning() {
    let t = log_tree();
    write_log(
        &t,
        "s.jsonl",
        &[json!({"type": "session", "cwd": 42}).to_string()],
    );
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        0,
        &baseline(&[("AGENTS.md", "root\n")]),
        &warning("s.jsonl:1: the session header has no string cwd"),
    );
}

#[test]
fn header_only_log_gets_a_fresh_baseline() {
    let t = log_tree();
    write_log(&t, "s.jsonl", &[header(&t)]);
    let want = baseline(&[("AGENTS.md", "root\n")]);
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        0,
        &want,
        "",
    );
    let doc = run(t
        .cmd()
        .args(["diff", "--log", "s.jsonl", "--format", "json"]))
    .json();
    assert_eq!(doc["decision"], json!("baseline"));
    assert_eq!(doc["parts"], json!([want]));
}

#[test]
fn malformed_middle_line_names_file_and_line() {
    let t = log_tree();
    write_log(&t, "s.jsonl", &[header(&t), "not json".into(), "{}".into()]);
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        2,
        "",
        &error("s.jsonl:2: malformed line: not a JSON object"),
    );
}

#[test]
fn malformed_json_in_a_line_that_matters_names_the_column() {
    let t = log_tree();
    let bad = r#"   {"type":"user/message","seq":1,}"#;
    write_log(&t, "s.jsonl", &[header(&t), bad.into(), "{}".into()]);
    // Column 35: the `}` after the trailing comma, counting the 3 blanks.
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        2,
        "",
        &error("s.jsonl:2:35: malformed JSON: trailing comma"),
    );
    // The same line as the final one without a newline is a crash, not an error.
    t.file("t.jsonl", format!("{}\n{bad}", header(&t)));
    expect(
        &run(t.cmd().args(["diff", "--log", "t.jsonl"])),
        0,
        &baseline(&[("AGENTS.md", "root\n")]),
        &warning(
            "t.jsonl:2: ignoring a final line without a newline that is not valid JSON (a writer stopped mid-line?)",
        ),
    );
}

#[test]
fn truncated_final_line_is_ignored_with_a_warning() {
    let t = log_tree();
    let source = current_source(&t);
    let text = format!(
        "{}\n{}\n{{\"type\":\"user/message\",\"seq\":2,\"data\":{{\"sour",
        header(&t),
        baseline_event(1, &source, true)
    );
    t.file("s.jsonl", text);
    // The baseline on line 2 still counts: nothing to send.
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl", "--exit-code"])),
        0,
        "",
        &warning(
            "s.jsonl:3: ignoring a final line without a newline that is not valid JSON (a writer stopped mid-line?)",
        ),
    );
}

#[test]
fn valid_json_that_is_not_an_object_is_malformed() {
    let t = log_tree();
    for (i, line) in ["[1,2]", "\"text\"", "7", "null"].iter().enumerate() {
        let name = format!("s{i}.jsonl");
        write_log(&t, &name, &[header(&t), (*line).into()]);
        expect(
            &run(t.cmd().args(["diff", "--log", &name])),
            2,
            "",
            &error(&format!("{name}:2: malformed line: not a JSON object")),
        );
    }
}

#[test]
fn seq_of_the_wrong_type_is_an_error() {
    let t = log_tree();
    for (i, (seq, shown)) in [
        ("\"3\"", "\"3\""),
        ("-1", "-1"),
        ("1.5", "1.5"),
        ("{\"n\":1}", "{\"n\":1}"),
    ]
    .iter()
    .enumerate()
    {
        let name = format!("s{i}.jsonl");
        let line = format!(r#"{{"type":"user/message","seq":{seq},"surfaceOp":"append"}}"#);
        write_log(&t, &name, &[header(&t), line]);
        expect(
            &run(t.cmd().args(["diff", "--log", &name])),
            2,
            "",
            &error(&format!(
                "{name}:2: seq must be a non-negative integer, got {shown}"
            )),
        );
    }
}

#[test]
fn a_null_seq_is_no_seq() {
    let t = log_tree();
    let line = r#"{"type":"user/message","seq":null,"surfaceOp":"append"}"#;
    write_log(&t, "s.jsonl", &[header(&t), line.into()]);
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        2,
        "",
        &error("s.jsonl:2: an event with a surfaceOp needs a seq"),
    );
}

#[test]
fn a_huge_bad_seq_is_quoted_shortened() {
    let t = log_tree();
    let long = "9".repeat(5000);
    let line = format!(r#"{{"type":"user/message","seq":"{long}"}}"#);
    write_log(&t, "s.jsonl", &[header(&t), line]);
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        2,
        "",
        &error(&format!(
            "s.jsonl:2: seq must be a non-negative integer, got \"{}... (5002 bytes)",
            "9".repeat(59)
        )),
    );
}

#[test]
fn seq_of_the_wrong_type_on_a_line_that_cannot_matter_is_only_caught_by_strict() {
    let t = log_tree();
    let line = r#"{"type":"assistant/chunk","seq":"3"}"#;
    write_log(&t, "s.jsonl", &[header(&t), line.into()]);
    // SPEC 5.1: lines that cannot matter are brace-checked only.
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        0,
        &baseline(&[("AGENTS.md", "root\n")]),
        "",
    );
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl", "--strict"])),
        2,
        "",
        &error("s.jsonl:2: seq must be a non-negative integer, got \"3\""),
    );
}

#[test]
fn changes_that_are_not_an_array_make_no_workspace_event() {
    let t = log_tree();
    let mut source = current_source(&t);
    source["changes"] = json!({"0": source["changes"][0].clone()});
    let mut no_seq: Value =
        serde_json::from_str(&baseline_event(9, &current_source(&t), false)).expect("event");
    no_seq.as_object_mut().expect("object").remove("seq");
    write_log(
        &t,
        "s.jsonl",
        &[
            header(&t),
            baseline_event(1, &source, false),
            no_seq.to_string(),
        ],
    );
    // Neither counts as a baseline, so a fresh one is sent.
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        0,
        &baseline(&[("AGENTS.md", "root\n")]),
        &warning(
            "s.jsonl:2: a message of kind agent-instructions whose changes is not an array is not a workspace event: ignored, with 1 more like it",
        ),
    );
}

#[test]
fn replace_endpoint_not_on_the_surface_is_an_error() {
    let t = log_tree();
    let append =
        |seq: u64| json!({"type": "turn/start", "seq": seq, "surfaceOp": "append"}).to_string();
    let replace = |seq: u64, start: u64, end: u64| {
        json!({"type": "user/message", "seq": seq, "data": {"content": "summary"},
               "sourceEventSeqs": [start, end],
               "surfaceOp": {"op": "replace", "start": start, "end": end}})
        .to_string()
    };
    let cases = [
        (replace(5, 1, 7), "replace end 7 is not on the surface"),
        (replace(5, 0, 2), "replace start 0 is not on the surface"),
        (replace(5, 3, 1), "replace start 3 lies after its end 1"),
    ];
    for (i, (line, msg)) in cases.into_iter().enumerate() {
        let name = format!("s{i}.jsonl");
        write_log(
            &t,
            &name,
            &[header(&t), append(1), append(2), append(3), line],
        );
        expect(
            &run(t.cmd().args(["diff", "--log", &name])),
            2,
            "",
            &error(&format!("{name}:5: {msg}")),
        );
    }
}

#[test]
fn surface_ops_spelled_with_escapes_are_the_same_ops() {
    let t = log_tree();
    let source = current_source(&t);
    // JSON.parse reads "app\u0065nd" as "append": so must we.
    let event = baseline_event(1, &source, true).replace("\"append\"", "\"app\\u0065nd\"");
    assert!(event.contains(r#""surfaceOp":"app\u0065nd""#), "{event}");
    write_log(&t, "s.jsonl", &[header(&t), event]);
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl", "--exit-code"])),
        0,
        "",
        "",
    );
}

#[test]
fn unknown_surface_ops_are_errors_quoted_shortened() {
    let t = log_tree();
    let long = "x".repeat(100);
    let lines = [
        (json!("prepend"), "unknown surfaceOp \"prepend\"".to_owned()),
        (
            json!({"op": long, "start": 1, "end": 1}),
            format!("unknown surfaceOp \"{}... (102 bytes)", "x".repeat(59)),
        ),
        (
            json!({"op": "replace", "start": "1", "end": 1}),
            r#"unknown surfaceOp {"end":1,"op":"replace","start":"1"}"#.to_owned(),
        ),
    ];
    for (i, (op, msg)) in lines.into_iter().enumerate() {
        let name = format!("s{i}.jsonl");
        let line = json!({"type": "tool/result", "seq": 1, "surfaceOp": op}).to_string();
        write_log(&t, &name, &[header(&t), line]);
        expect(
            &run(t.cmd().args(["diff", "--log", &name])),
            2,
            "",
            &error(&format!("{name}:2: {msg}")),
        );
    }
}

#[test]
fn duplicated_seqs_on_the_surface_are_errors() {
    let t = log_tree();
    let ev = |seq: u64, op: Value| {
        json!({"type": "tool/result", "seq": seq, "surfaceOp": op}).to_string()
    };
    write_log(
        &t,
        "a.jsonl",
        &[header(&t), ev(1, json!("append")), ev(1, json!("append"))],
    );
    expect(
        &run(t.cmd().args(["diff", "--log", "a.jsonl"])),
        2,
        "",
        &error("a.jsonl:3: seq 1 is already on the surface"),
    );
    // A compaction whose own seq already stands elsewhere on the surface.
    let replace = json!({"op": "replace", "start": 1, "end": 1});
    write_log(
        &t,
        "b.jsonl",
        &[
            header(&t),
            ev(1, json!("append")),
            ev(2, json!("append")),
            ev(2, replace),
        ],
    );
    expect(
        &run(t.cmd().args(["diff", "--log", "b.jsonl"])),
        2,
        "",
        &error("b.jsonl:4: seq 2 is already on the surface"),
    );
}

#[test]
fn duplicated_seqs_in_a_legacy_log_are_accepted_and_the_last_baseline_wins() {
    let t = log_tree();
    let current = current_source(&t);
    let mut stale = current.clone();
    stale["changes"][0]["digest"] = json!("0000000000000000000000000000000000000000");
    // No surfaceOp anywhere: legacy, every message is visible, and SPEC 5.3
    // makes only surface events unique.
    write_log(
        &t,
        "s.jsonl",
        &[
            header(&t),
            baseline_event(1, &stale, false),
            baseline_event(1, &current, false),
        ],
    );
    let out = run(t.cmd().args(["diff", "--log", "s.jsonl", "--exit-code"]));
    expect(&out, 0, "", "");
}

#[test]
fn json_array_log_reads_like_its_lines() {
    let t = log_tree();
    let source = current_source(&t);
    let events = [header(&t), baseline_event(1, &source, true)];
    t.file(
        "a.json",
        format!("[\n  {},\n  {}\n]\n", events[0], events[1]),
    );
    let out = run(t
        .cmd()
        .args(["diff", "--log", "a.json", "--format", "json"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc = out.json();
    assert_eq!(
        (&doc["decision"], &doc["visibleBaselineSeq"], &doc["parts"]),
        (&json!("none"), &json!(1), &json!([]))
    );
    // Without the header the cwd is the process's, and the same holds.
    t.file("b.json", format!("[{}]", events[1]));
    expect(&run(t.cmd().args(["diff", "--log", "b.json"])), 0, "", "");
}

#[test]
fn truncated_json_array_is_an_error_without_final_line_leniency() {
    let t = log_tree();
    let text = format!("[{},{{\"type\":\"tool/result\",\"seq\":1}}", header(&t));
    t.file("a.json", &text);
    expect(
        &run(t.cmd().args(["diff", "--log", "a.json"])),
        2,
        "",
        &error(&format!(
            "a.json:1:{}: malformed JSON array: EOF while parsing a list",
            text.len()
        )),
    );
    let text = format!("[{},\n{{\"type\":\"us", header(&t));
    t.file("b.json", &text);
    expect(
        &run(t.cmd().args(["diff", "--log", "b.json"])),
        2,
        "",
        &error("b.json:2:11: malformed JSON array: EOF while parsing a string"),
    );
}

#[test]
fn json_array_element_that_is_not_an_object_is_an_error() {
    let t = log_tree();
    t.file("a.json", format!("[{}, 7]", header(&t)));
    expect(
        &run(t.cmd().args(["diff", "--log", "a.json"])),
        2,
        "",
        &error(&format!(
            "a.json:1:{}: event 2 of the array: an event must be a JSON object",
            header(&t).len() + 4
        )),
    );
}

#[test]
fn stdin_log_reads_like_a_file() {
    let t = log_tree();
    let source = current_source(&t);
    let good = format!("{}\n{}\n", header(&t), baseline_event(1, &source, true));
    let out = bounded::run_with_input(
        t.cmd().args(["diff", "--log", "-", "--exit-code"]),
        Some(good.into_bytes()),
    );
    expect(&out, 0, "", "");
    let bad = format!("{}\n[]\n", header(&t));
    let out = bounded::run_with_input(t.cmd().args(["diff", "--log", "-"]), Some(bad.into_bytes()));
    expect(
        &out,
        2,
        "",
        &error("-:2: malformed line: not a JSON object"),
    );
    // render --log - takes the cwd from the piped header.
    let out = bounded::run_with_input(
        t.cmd().args(["render", "--log", "-"]).current_dir("/"),
        Some(format!("{}\n", header(&t)).into_bytes()),
    );
    expect(&out, 0, &baseline(&[("AGENTS.md", "root\n")]), "");
}

#[test]
fn log_that_is_a_fifo_is_read_like_a_pipe() {
    let t = log_tree();
    t.fifo("s.fifo");
    let writer = {
        let (path, line) = (t.path("s.fifo"), header(&t));
        thread::spawn(move || {
            let mut f = OpenOptions::new()
                .write(true)
                .open(path)
                .expect("open fifo");
            writeln!(f, "{line}").expect("write fifo");
        })
    };
    expect(
        &run(t.cmd().args(["diff", "--log", "s.fifo"])),
        0,
        &baseline(&[("AGENTS.md", "root\n")]),
        "",
    );
    writer.join().expect("writer");
}

#[test]
fn log_that_is_a_directory_or_missing_is_an_error() {
    let t = log_tree();
    t.dir("logs");
    for sub in ["diff", "render"] {
        expect(
            &run(t.cmd().args([sub, "--log", "logs"])),
            2,
            "",
            &error("logs: is a directory, not a session log"),
        );
    }
    expect(
        &run(t.cmd().args(["diff", "--log", "missing.jsonl"])),
        2,
        "",
        &error(&format!("missing.jsonl: {}", os_error(libc::ENOENT))),
    );
}

/// Writes a log with two `size`-byte lines: an `assistant/chunk` that the
/// fast path only brace-checks, then the baseline event with a `size`-byte
/// message text, which must be parsed. Streams it: the test never holds it.
fn big_line_log(t: &Tree, name: &str, size: usize) {
    let source = current_source(t);
    let mut f = BufWriter::new(File::create(t.path(name)).expect("create"));
    let filler = |f: &mut BufWriter<File>| {
        let block = vec![b'x'; 1 << 16];
        let mut left = size;
        while left > 0 {
            let n = left.min(block.len());
            f.write_all(&block[..n]).expect("write");
            left -= n;
        }
    };
    writeln!(f, "{}", header(t)).expect("write");
    f.write_all(br#"{"type":"assistant/chunk","seq":1,"time":0,"data":{"text":""#)
        .expect("write");
    filler(&mut f);
    f.write_all(b"\"}}\n").expect("write");
    f.write_all(br#"{"type":"user/message","seq":2,"time":0,"surfaceOp":"append","data":{"role":"user","source":"#)
        .expect("write");
    f.write_all(source.to_string().as_bytes()).expect("write");
    f.write_all(br#","content":[{"type":"text","text":""#)
        .expect("write");
    filler(&mut f);
    f.write_all(b"\"}]}}\n").expect("write");
    f.flush().expect("flush");
}

fn check_big_line_log(t: &Tree, name: &str) {
    let out = run(t.cmd().args(["diff", "--log", name, "--format", "json"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc = out.json();
    assert_eq!(
        (&doc["decision"], &doc["visibleBaselineSeq"], &doc["parts"]),
        (&json!("none"), &json!(2), &json!([]))
    );
    // The same bytes through a pipe (small reads) give the same answer.
    let bytes = fs::read(t.path(name)).expect("read log");
    let out = bounded::run_with_input(
        t.cmd().args(["diff", "--log", "-", "--exit-code"]),
        Some(bytes),
    );
    expect(&out, 0, "", "");
}

#[test]
fn long_lines_of_a_few_mib_are_read_from_files_and_pipes() {
    let t = log_tree();
    big_line_log(&t, "big.jsonl", 3 << 20);
    check_big_line_log(&t, "big.jsonl");
}

/// The full-size case: two 200 MiB lines (run with `--ignored`).
#[test]
#[ignore = "writes a 400 MiB log; run with --ignored"]
fn lines_of_200_mib_are_read_from_files_and_pipes() {
    let t = log_tree();
    big_line_log(&t, "big.jsonl", 200 << 20);
    check_big_line_log(&t, "big.jsonl");
}

// ---------------------------------------------------------------------------
// Flags

#[test]
fn max_bytes_minus_one_sends_nothing() {
    let t = log_tree();
    expect(
        &run(t.cmd().args(["render", "--max-bytes", "-1", "--check"])),
        0,
        "",
        "",
    );
    let doc = run(t
        .cmd()
        .args(["render", "--max-bytes", "-1", "--format", "json"]))
    .json();
    assert_eq!((&doc["parts"], &doc["source"]), (&json!([]), &Value::Null));
    write_log(&t, "s.jsonl", &[header(&t)]);
    expect(
        &run(t.cmd().args([
            "diff",
            "--log",
            "s.jsonl",
            "--max-bytes",
            "-1",
            "--exit-code",
        ])),
        0,
        "",
        "",
    );
}

#[test]
fn max_source_bytes_below_one_is_an_error() {
    let t = log_tree();
    for n in ["0", "-5"] {
        expect(
            &run(t.cmd().args(["render", "--max-source-bytes", n])),
            2,
            "",
            &error(&format!("--max-source-bytes must be at least 1, got {n}")),
        );
    }
}

#[test]
fn max_source_bytes_zero_recorded_in_a_log_names_the_log() {
    let t = log_tree();
    let mut source = current_source(&t);
    let identity = source["baselineIdentity"]
        .as_str()
        .expect("identity")
        .replace("\"maxSourceBytes\":1048576", "\"maxSourceBytes\":0");
    source["baselineIdentity"] = json!(identity);
    write_log(
        &t,
        "s.jsonl",
        &[header(&t), baseline_event(1, &source, true)],
    );
    expect(
        &run(t.cmd().args(["diff", "--log", "s.jsonl"])),
        2,
        "",
        &error(
            "s.jsonl: the latest baseline identity records maxSourceBytes 0, but it must be at least 1 (override it with --max-source-bytes)",
        ),
    );
    // The flag overrides the log; the identities then differ: a replacement.
    let out = run(t.cmd().args([
        "diff",
        "--log",
        "s.jsonl",
        "--max-source-bytes",
        "1048576",
        "--format",
        "json",
    ]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["decision"], json!("replacement"));
}

#[test]
fn usage_errors_are_one_line() {
    let t = log_tree();
    let cases: [(&[&str], &str); 4] = [
        (
            &["render", "--max-bytes", "abc"],
            "invalid value 'abc' for '--max-bytes <N>': expected a number (65536, 600.5, 1e5, -1, inf or nan); try '--help'",
        ),
        (
            &["render", "--maxbytes", "3"],
            "unexpected argument '--maxbytes' found; tip: a similar argument exists: '--max-bytes'; try '--help'",
        ),
        (
            &["diff"],
            "the following required arguments were not provided: <--log <FILE>|--session <ID|latest>>; try '--help'",
        ),
        (
            &["render", "--format", "xml"],
            "invalid value 'xml' for '--format <FORMAT>' [possible values: text, json]; try '--help'",
        ),
    ];
    for (args, msg) in cases {
        expect(&run(t.cmd().args(args)), 2, "", &error(msg));
    }
}

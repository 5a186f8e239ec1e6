//! The one shared helper of the integration tests: fixture trees in temp
//! dirs and the real binary with a controlled environment (here), the dsh
//! message shapes expected outputs are built from (`message`), runs under a
//! deadline (`bounded`) and the conformance-vector runners' shared half
//! (`vectors`). Add a helper here rather than copying it between files.
//!
//! Every `tests/*.rs` file is its own crate that includes this module with
//! `mod common;` and uses only part of it, so an item unused in one crate is
//! not dead code: `dead_code` is allowed for the whole module. Test code: a
//! failed unwrap or expect is a failed test.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod bounded;
pub mod message;
pub mod vectors;

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use assert_cmd::cargo::CommandCargoExt;

/// A fixture tree in a temp dir whose ancestors hold no root marker.
pub struct Tree {
    pub dir: tempfile::TempDir,
}

impl Tree {
    pub fn new() -> Self {
        Tree {
            dir: tempfile::Builder::new()
                .prefix("agentctx-test-")
                .tempdir_in("/tmp")
                .expect("temp dir"),
        }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// `path(rel)` as text (temp paths are UTF-8).
    pub fn path_str(&self, rel: &str) -> String {
        self.path(rel).to_str().expect("UTF-8 temp path").to_owned()
    }

    /// Writes a file, creating parents.
    pub fn file(&self, rel: &str, content: impl AsRef<[u8]>) -> &Self {
        let p = self.path(rel);
        fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        fs::write(&p, content).expect("write");
        self
    }

    pub fn dir(&self, rel: &str) -> &Self {
        fs::create_dir_all(self.path(rel)).expect("mkdir");
        self
    }

    pub fn symlink(&self, rel: &str, target: &str) -> &Self {
        let p = self.path(rel);
        fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        symlink(target, &p).expect("symlink");
        self
    }

    pub fn fifo(&self, rel: &str) -> &Self {
        let p = self.path(rel);
        fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        let ok = Command::new("mkfifo")
            .arg(&p)
            .status()
            .expect("mkfifo")
            .success();
        assert!(ok, "mkfifo failed");
        self
    }

    /// `agentctx ARGS` with `HOME` in the tree, `DSH_HOME` unset, colour off,
    /// run from the tree root.
    pub fn cmd(&self) -> Command {
        self.controlled(agentctx())
    }

    /// `cmd()` as an unprivileged user (see `unprivileged`), so that
    /// permission bits apply; `None` when privileges cannot be dropped.
    pub fn unprivileged_cmd(&self) -> Option<Command> {
        unprivileged(self.root()).map(|cmd| self.controlled(cmd))
    }

    /// `cmd` (the binary) run from the tree root with `HOME` in the tree,
    /// `DSH_HOME` and the colour variables unset, and `--color never`.
    fn controlled(&self, mut cmd: Command) -> Command {
        cmd.current_dir(self.root())
            .env("HOME", self.path("home"))
            .env_remove("DSH_HOME")
            .env_remove("AGENTCTX_DSH_PROFILE")
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .arg("--color")
            .arg("never");
        cmd
    }

    /// Writes the session log `rel`: the header of a session whose cwd is
    /// `cwd` (relative to the tree), then `lines`, each ending in `\n`.
    /// Returns the log's absolute path.
    pub fn session_log(&self, rel: &str, cwd: &str, lines: &[impl std::fmt::Display]) -> String {
        let header = header(&self.path(cwd));
        self.file(
            rel,
            message::jsonl(std::iter::once(header).chain(lines.iter().map(ToString::to_string))),
        );
        self.path(rel).to_str().expect("UTF-8 temp path").to_owned()
    }

    /// `cmd()` without any variable a harness profile reads (SPEC 10.1).
    pub fn profile_cmd(&self) -> Command {
        let mut cmd = self.cmd();
        for var in PROFILE_VARS {
            cmd.env_remove(var);
        }
        // Never the machine's /etc/gemini-cli/settings.json.
        cmd.env(
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
            self.path("etc/gemini-cli/settings.json"),
        );
        cmd
    }
}

/// Every environment variable a harness profile reads.
pub const PROFILE_VARS: [&str; 15] = [
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
    "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
    "GEMINI_MODEL",
    "XDG_CONFIG_HOME",
    "OPENCODE_CONFIG",
    "OPENCODE_CONFIG_DIR",
    "OPENCODE_CONFIG_CONTENT",
    "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT",
    "OPENCODE_DISABLE_PROJECT_CONFIG",
    "GEMINI_SYSTEM_MD",
    "DSH_HOME",
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_DISABLE_CLAUDE_MDS",
];

/// The agentctx binary under test.
pub fn agentctx() -> Command {
    Command::cargo_bin("agentctx").expect("binary")
}

/// A small deterministic generator (no dependency for a test): a 64-bit
/// linear congruential generator whose high bits are drawn.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next 31 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// An index below `len`.
    pub fn index(&mut self, len: usize) -> usize {
        let len = u64::try_from(len).expect("len fits u64");
        usize::try_from(self.below(len)).expect("below len fits usize")
    }
}

/// Whether the tests run as root (permission tests then drop privileges).
pub fn is_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// The uid and gid the permission tests drop to when they run as root.
pub const NOBODY: u32 = 65_534;

/// A command that runs the binary as an unprivileged user, so that
/// permission bits apply: as root, the binary is linked (or copied) into
/// `dir`, `dir` is opened to everyone, and the child drops to uid/gid 65534;
/// as another user it runs as is. `None` (with the reason printed) when the
/// privileges cannot be dropped: the caller skips, never silently.
pub fn unprivileged(dir: &Path) -> Option<Command> {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_agentctx"));
    if !is_root() {
        return Some(Command::new(exe));
    }
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).expect("chmod 755");
    let copy = dir.join("agentctx-bin");
    // Linked or copied once per tree: copying onto an existing hard link
    // would truncate the binary under test itself.
    if !copy.exists() && fs::hard_link(&exe, &copy).is_err() {
        fs::copy(&exe, &copy).expect("copy the binary");
    }
    fs::set_permissions(&copy, fs::Permissions::from_mode(0o755)).expect("chmod binary");
    let mut probe = Command::new(&copy);
    probe
        .arg("--version")
        .uid(NOBODY)
        .gid(NOBODY)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    match probe.status() {
        Ok(s) if s.success() => {}
        Ok(s) => {
            eprintln!("skipping: the binary does not run as uid {NOBODY} ({s})");
            return None;
        }
        Err(e) => {
            eprintln!("skipping: cannot drop privileges to uid {NOBODY}: {e}");
            return None;
        }
    }
    let mut cmd = Command::new(copy);
    cmd.uid(NOBODY).gid(NOBODY);
    Some(cmd)
}

/// Runs a command and returns (stdout, stderr, exit code).
pub fn run(cmd: &mut Command) -> (String, String, i32) {
    let out = cmd.output().expect("run agentctx");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// `render ARGS --format json`: asserts a clean exit.
pub fn render_json(tree: &Tree, args: &[&str]) -> Value {
    let (value, code) = run_json(
        tree.cmd()
            .arg("render")
            .args(args)
            .args(["--format", "json"]),
    );
    assert_eq!(code, 0, "render {args:?}");
    value
}

/// The string field `key` of every object in the JSON array `array` (such
/// as the `dir` of each of a check report's `directories`).
pub fn strings_at(array: &Value, key: &str) -> Vec<String> {
    array
        .as_array()
        .expect("a JSON array")
        .iter()
        .map(|item| item[key].as_str().expect("a string field").to_owned())
        .collect()
}

/// Runs a command expected to print JSON on stdout.
pub fn run_json(cmd: &mut Command) -> (serde_json::Value, i32) {
    let (out, err, code) = run(cmd);
    let value = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {out}\nstderr: {err}"));
    (value, code)
}

/// A dsh session log header line.
pub fn header(cwd: &Path) -> String {
    serde_json::json!({"type":"session","version":0,"id":"s","createdAt":0,"cwd":cwd}).to_string()
}

/// A dsh `session.jsonl.zstd` container of JSONL `text`, as dsh writes it:
/// the first line in a frame of its own, then frames of `batch` lines each,
/// every frame with a content checksum. Returns the bytes and the offset of
/// each frame.
pub fn zstd_container(text: &str, batch: usize) -> (Vec<u8>, Vec<usize>) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut groups: Vec<String> = Vec::new();
    if let Some((first, rest)) = lines.split_first() {
        groups.push((*first).to_owned());
        groups.extend(rest.chunks(batch.max(1)).map(<[&str]>::concat));
    }
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for group in groups {
        offsets.push(out.len());
        let mut enc = zstd::stream::Encoder::new(&mut out, 3).expect("encoder");
        enc.include_checksum(true).expect("checksum");
        std::io::Write::write_all(&mut enc, group.as_bytes()).expect("compress");
        enc.finish().expect("finish");
    }
    (out, offsets)
}

/// Runs a command with `input` on stdin; returns (stdout, stderr, exit code).
pub fn run_stdin(cmd: Command, input: impl Into<Vec<u8>>) -> (String, String, i32) {
    let out = assert_cmd::Command::from_std(cmd)
        .write_stdin(input.into())
        .output()
        .expect("run agentctx");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// `agentctx check ARGS` run from `tree/cwd`.
pub fn check(tree: &Tree, cwd: &str, args: &[&str]) -> Command {
    let mut cmd = tree.cmd();
    cmd.current_dir(tree.path(cwd)).arg("check").args(args);
    cmd
}

/// `git ARGS` in `dir` with no user or system configuration and a fixed
/// identity and clock, so commits are reproducible.
pub fn git_command(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z");
    cmd
}

/// Runs [`git_command`]; its stdout. Panics on failure.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = git_command(dir, args).output().expect("run git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Makes `dir` a git repository on branch `main` and commits everything.
pub fn git_commit_all(dir: &Path, message: &str) -> String {
    if !dir.join(".git").exists() {
        git(dir, &["init", "-q", "-b", "main"]);
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", message]);
    git(dir, &["rev-parse", "HEAD"]).trim().to_owned()
}

/// A validator for the vendored SARIF 2.1.0 schema (tests/sarif/). Its
/// `language` pattern has a stray `]`, a literal to ECMAScript regexes but
/// an error to Rust's: it is escaped before compiling.
pub fn sarif_validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sarif/sarif-2.1.0-rtm.5.json");
    let text = fs::read_to_string(path)
        .expect("schema")
        .replace("{2}]?$", "{2}\\\\]?$");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("schema JSON");
    jsonschema::draft4::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("schema compiles")
}

/// Writes a session log of `shadowed` workspace events that compaction takes
/// off the surface (a baseline, then deltas, with a compaction every 1,000
/// events and one after the last), then `visible` events that stay on it (a
/// baseline and deltas). Issue 13's memory shape.
pub fn compaction_log(cwd: &Path, shadowed: u64, visible: u64, out: &mut impl std::io::Write) {
    let event = |seq: u64, baseline: bool, scope: &str, op: Value| {
        let dir = scope.trim_end_matches("\u{0}AGENTS.md");
        let path = if dir == "." {
            "AGENTS.md".to_owned()
        } else {
            format!("{dir}/AGENTS.md")
        };
        let mut source = serde_json::json!({"kind": "agent-instructions", "form": "instructions",
            "changes": [{"action": "set", "scope": scope, "path": path,
                "digest": format!("{seq:040x}")}]});
        if baseline {
            source["baseline"] = Value::Bool(true);
            source["baselineIdentity"] = Value::String("{}".into());
        }
        serde_json::json!({"type": "user/message", "seq": seq,
            "data": {"role": "user", "content": [{"type": "text", "text": "<system-reminder>"}], "source": source},
            "surfaceOp": op})
        .to_string()
    };
    writeln!(out, "{}", header(cwd)).unwrap();
    let mut head = 0;
    let mut seq = 0;
    for k in 0..shadowed {
        let scope = format!("d{}\u{0}AGENTS.md", k % 50);
        writeln!(out, "{}", event(seq, k == 0, &scope, "append".into())).unwrap();
        seq += 1;
        if (k + 1) % 1000 == 0 || k + 1 == shadowed {
            let op = serde_json::json!({"op": "replace", "start": head, "end": seq - 1});
            let summary = serde_json::json!({"type": "user/message", "seq": seq,
                "data": {"role": "user", "content": [{"type": "text", "text": "Summary."}],
                    "source": {"kind": "compaction"}}, "surfaceOp": op});
            writeln!(out, "{summary}").unwrap();
            head = seq;
            seq += 1;
        }
    }
    for k in 0..visible {
        let scope = if k == 0 {
            ".\u{0}AGENTS.md".to_owned()
        } else {
            format!("v{k}\u{0}AGENTS.md")
        };
        writeln!(out, "{}", event(seq, k == 0, &scope, "append".into())).unwrap();
        seq += 1;
    }
}

/// `ARGS` plus `--source-kind workspace-instructions` when the log at `log`
/// was written by the earlier generation and `ARGS` name no kind: most cases
/// pin how that generation resumes its own log. The current one ignores its
/// events (SPEC 5.2), which
/// `diff::the_current_generation_ignores_an_earlier_kind_log` pins.
#[allow(dead_code)] // not every test binary resumes logs
pub fn resumed_by_writer<'a>(log: &Path, args: &[&'a str]) -> Vec<&'a str> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let written_before = [
        r#""kind":"workspace-instructions""#,
        r#""kind": "workspace-instructions""#,
    ]
    .iter()
    .any(|k| text.contains(k));
    let mut args = args.to_vec();
    if !args.contains(&"--source-kind") && written_before {
        args.extend(["--source-kind", "workspace-instructions"]);
    }
    args
}

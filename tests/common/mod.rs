//! The one shared helper of the integration tests: fixture trees in temp
//! dirs and the real binary with a controlled environment.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::{MetadataExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;

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

    /// `agentctx ARGS` with HOME in the tree, DSH_HOME unset, colour off,
    /// run from the tree root.
    pub fn cmd(&self) -> Command {
        let mut cmd = agentctx();
        cmd.current_dir(self.root())
            .env("HOME", self.path("home"))
            .env_remove("DSH_HOME")
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .arg("--color")
            .arg("never");
        cmd
    }
}

/// The agentctx binary under test.
pub fn agentctx() -> Command {
    Command::cargo_bin("agentctx").expect("binary")
}

/// Whether the tests run as root (permission tests then drop privileges).
pub fn is_root() -> bool {
    fs::metadata("/proc/self")
        .map(|m| m.uid() == 0)
        .unwrap_or(false)
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

/// `agentctx check ARGS` run from `tree/cwd`.
pub fn check(tree: &Tree, cwd: &str, args: &[&str]) -> Command {
    let mut cmd = tree.cmd();
    cmd.current_dir(tree.path(cwd)).arg("check").args(args);
    cmd
}

/// Runs `git ARGS` in `dir` with no user or system configuration and a
/// fixed identity and clock, so commits are reproducible; panics on failure.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .output()
        .expect("run git");
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

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

/// A dsh `session.jsonl.zstd` container of JSONL `text`, as dsh writes it:
/// the first line in a frame of its own, then frames of `batch` lines each,
/// every frame with a content checksum. Returns the bytes and the offset of
/// each frame.
pub fn zstd_container(text: &str, batch: usize) -> (Vec<u8>, Vec<usize>) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut groups: Vec<String> = Vec::new();
    if let Some((first, rest)) = lines.split_first() {
        groups.push((*first).to_owned());
        groups.extend(rest.chunks(batch.max(1)).map(|c| c.concat()));
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

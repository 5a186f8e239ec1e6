//! Runs the real binary under a deadline, for the hostile-input tests: a
//! hang kills the child and fails the test instead of stalling the suite.
//! The deadline is a guard, not a speed assertion; it is generous.
#![allow(dead_code)]

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long one run may take before it counts as a hang.
pub const DEADLINE: Duration = Duration::from_secs(120);

/// The uid and gid the permission tests drop to when they run as root.
pub const NOBODY: u32 = 65534;

/// What one bounded run gave.
#[derive(Debug)]
pub struct Output {
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub code: i32,
}

impl Output {
    /// stdout as text (it must be UTF-8: the payload always is).
    pub fn text(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }

    /// stdout parsed as one JSON document.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}): {}\nstderr: {}",
                String::from_utf8_lossy(&self.stdout),
                self.stderr
            )
        })
    }
}

/// Runs with stdin closed.
pub fn run(cmd: &mut Command) -> Output {
    run_with_input(cmd, None)
}

/// Runs with `input` written to stdin by a thread (or stdin closed).
pub fn run_with_input(cmd: &mut Command, input: Option<Vec<u8>>) -> Output {
    cmd.stdin(if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn agentctx");
    let feeder = input.map(|bytes| {
        let mut stdin = child.stdin.take().expect("stdin");
        // A child that stops reading early closes the pipe: that is its right.
        thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        })
    });
    let stdout = drain(child.stdout.take().expect("stdout"));
    let stderr = drain(child.stderr.take().expect("stderr"));
    let status = wait(&mut child);
    if let Some(f) = feeder {
        f.join().expect("stdin feeder");
    }
    let stdout = stdout.join().expect("stdout reader");
    let stderr = String::from_utf8(stderr.join().expect("stderr reader")).expect("stderr is UTF-8");
    let code = status
        .code()
        .unwrap_or_else(|| panic!("agentctx died by a signal ({status:?}); stderr: {stderr}"));
    Output {
        stdout,
        stderr,
        code,
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// Polls the child until it exits; past the deadline it is killed and the
/// test fails.
fn wait(child: &mut Child) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("agentctx did not finish within {DEADLINE:?}: killed it (a hang)");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// Whether this process runs as root (permission bits do not bind root).
pub fn is_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

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
    if fs::hard_link(&exe, &copy).is_err() {
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

//! Runs the real binary under a deadline, for the hostile-input tests: a
//! hang kills the child and fails the test instead of stalling the suite.
//! The deadline is a guard, not a speed assertion; it is generous.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long one run may take before it counts as a hang.
pub const DEADLINE: Duration = Duration::from_secs(120);

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

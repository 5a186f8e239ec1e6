//! The `git` children of `check --base`, and what a revision's tree may name.
//!
//! Every child is `git --no-pager [--no-lazy-fetch] -c protocol.allow=never
//! -c core.fsmonitor=false -c core.hooksPath=/dev/null -C DIR ARGS`, with
//! stdin a pipe or `/dev/null`, and an environment cleaned of every `GIT_*`
//! variable except those that choose configuration files
//! (`GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`, `GIT_CONFIG_NOSYSTEM`,
//! `GIT_CONFIG_COUNT`/`_KEY_n`/`_VALUE_n`, `GIT_CONFIG_PARAMETERS`: they
//! hold `safe.directory` in CI containers), then `GIT_NO_LAZY_FETCH=1`,
//! `GIT_TERMINAL_PROMPT=0`, `GIT_PAGER=cat`, `PAGER=cat`,
//! `GIT_OPTIONAL_LOCKS=0` and `GIT_ALLOW_PROTOCOL=` (empty: no transport is
//! allowed, whatever `protocol.<name>.allow` the repository sets). The
//! repository is always the one holding the checked directory (`GIT_DIR`,
//! `GIT_WORK_TREE`, `GIT_OBJECT_DIRECTORY`, ... are not inherited).
//! `--no-lazy-fetch` is passed when `git --version` says 2.44 or later (older
//! gits do not know it; there the protocol policy refuses a lazy fetch
//! before any connection or configured command).
//!
//! Only `--version`, `rev-parse`, `ls-tree -r -z` and `cat-file
//! --batch-check` / `--batch` run. Objects are read by id, sized first, each
//! distinct id at most once.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result, bail};

/// The options every git child gets before its subcommand.
const CONFIG: [&str; 6] = [
    "-c",
    "protocol.allow=never",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
];

/// Inherited `GIT_*` variables that only choose configuration files.
fn keeps(name: &str) -> bool {
    matches!(
        name,
        "GIT_CONFIG_GLOBAL"
            | "GIT_CONFIG_SYSTEM"
            | "GIT_CONFIG_NOSYSTEM"
            | "GIT_CONFIG_COUNT"
            | "GIT_CONFIG_PARAMETERS"
    ) || name.starts_with("GIT_CONFIG_KEY_")
        || name.starts_with("GIT_CONFIG_VALUE_")
}

/// A repository's git, run the one safe way.
#[derive(Debug, Clone)]
pub struct Git {
    dir: PathBuf,
    no_lazy_fetch: bool,
}

/// What `cat-file --batch-check` says of one object id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Object {
    /// Present, with its type and size in bytes.
    Present { kind: String, size: u64 },
    /// Not in the repository (a partial clone, a shallow or broken one).
    Missing,
}

impl Git {
    /// git for the repository holding `dir` (`git --version` runs once).
    ///
    /// # Errors
    /// git is missing or cannot run.
    pub fn new(dir: &Path) -> Result<Git> {
        let out = base_command()
            .arg("--version")
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .with_context(|| "--base: running git (is it on PATH?)".to_owned())?;
        let text = String::from_utf8_lossy(&out.stdout);
        Ok(Git {
            dir: dir.to_path_buf(),
            no_lazy_fetch: version_at_least(&text, (2, 44)),
        })
    }

    /// The same git for another directory.
    #[must_use]
    pub fn at(&self, dir: &Path) -> Git {
        Git {
            dir: dir.to_path_buf(),
            no_lazy_fetch: self.no_lazy_fetch,
        }
    }

    /// `git ... -C dir ARGS` with the safe options and environment.
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = base_command();
        if self.no_lazy_fetch {
            cmd.arg("--no-lazy-fetch");
        }
        cmd.args(CONFIG).arg("-C").arg(&self.dir).args(args);
        cmd
    }

    /// Runs `ARGS` with stdin closed; its stdout, or an error naming the
    /// command (as the user would type it) and git's first message line.
    ///
    /// # Errors
    /// git cannot run or exits non-zero.
    pub fn output(&self, args: &[&str]) -> Result<Vec<u8>> {
        let out = self
            .command(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .with_context(|| "--base: running git (is it on PATH?)".to_owned())?;
        if !out.status.success() {
            bail!(
                "--base: git {}: {}",
                args.join(" "),
                first_line(&out.stderr)
            );
        }
        Ok(out.stdout)
    }

    /// Sizes objects with one `cat-file --batch-check` (each id once).
    ///
    /// # Errors
    /// git fails or answers something else than one line per id.
    pub fn sizes(&self, oids: &[&str]) -> Result<HashMap<String, Object>> {
        let mut map = HashMap::new();
        if oids.is_empty() {
            return Ok(map);
        }
        let (mut child, feeders) = self.batch(&["cat-file", "--batch-check"], oids)?;
        let stdout = child.stdout.take().context("--base: git cat-file stdout")?;
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        let result = (|| -> Result<()> {
            for _ in 0..oids.len() {
                line.clear();
                if reader.read_line(&mut line)? == 0 {
                    break;
                }
                let fields: Vec<&str> = line.split_whitespace().collect();
                match fields.as_slice() {
                    [oid, "missing"] => {
                        map.insert((*oid).to_owned(), Object::Missing);
                    }
                    [oid, kind, size] => {
                        let size = size.parse().context("--base: git cat-file size")?;
                        let kind = (*kind).to_owned();
                        map.insert((*oid).to_owned(), Object::Present { kind, size });
                    }
                    _ => bail!("--base: git cat-file: unexpected output {:?}", line.trim()),
                }
            }
            Ok(())
        })();
        finish(child, feeders, "cat-file --batch-check", result)?;
        Ok(map)
    }

    /// Streams objects with one `cat-file --batch`: `each(oid, size, body)`
    /// gets a reader of exactly `size` bytes (what it leaves unread is
    /// skipped). Ask only for ids [`Git::sizes`] found present.
    ///
    /// # Errors
    /// git fails, answers out of order, or `each` fails.
    pub fn read(
        &self,
        oids: &[&str],
        mut each: impl FnMut(&str, u64, &mut dyn Read) -> Result<()>,
    ) -> Result<()> {
        if oids.is_empty() {
            return Ok(());
        }
        let (mut child, feeders) = self.batch(&["cat-file", "--batch"], oids)?;
        let stdout = child.stdout.take().context("--base: git cat-file stdout")?;
        let mut reader = BufReader::new(stdout);
        let mut header = String::new();
        let result = (|| -> Result<()> {
            for want in oids {
                header.clear();
                if reader.read_line(&mut header)? == 0 {
                    bail!("--base: git cat-file: output ended before {want}");
                }
                let fields: Vec<&str> = header.split_whitespace().collect();
                let [oid, _kind, size] = fields.as_slice() else {
                    bail!(
                        "--base: git cat-file: unexpected output {:?}",
                        header.trim()
                    );
                };
                if oid != want {
                    bail!("--base: git cat-file: asked for {want}, got {oid}");
                }
                let size: u64 = size.parse().context("--base: git cat-file size")?;
                let mut body = (&mut reader).take(size);
                each(oid, size, &mut body)?;
                std::io::copy(&mut body, &mut std::io::sink())?;
                let mut newline = [0u8; 1];
                reader.read_exact(&mut newline)?;
            }
            Ok(())
        })();
        finish(child, feeders, "cat-file --batch", result)
    }

    /// Spawns a `cat-file` batch with the ids fed on stdin by a thread.
    fn batch(&self, args: &[&str], oids: &[&str]) -> Result<(Child, Feeders)> {
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| "--base: running git (is it on PATH?)".to_owned())?;
        let mut stdin = child.stdin.take().context("--base: git cat-file stdin")?;
        let mut input = Vec::with_capacity(oids.len() * 41);
        for oid in oids {
            input.extend_from_slice(oid.as_bytes());
            input.push(b'\n');
        }
        let stdin = std::thread::spawn(move || stdin.write_all(&input));
        // Drained while stdout is read (a git that prints an error per
        // object must not block on a full pipe); its start is kept.
        let mut err = child.stderr.take().context("--base: git cat-file stderr")?;
        let stderr = std::thread::spawn(move || {
            let mut kept = Vec::new();
            let _ = (&mut err).take(4096).read_to_end(&mut kept);
            let _ = std::io::copy(&mut err, &mut std::io::sink());
            kept
        });
        Ok((child, Feeders { stdin, stderr }))
    }
}

/// The threads that feed a batch child's stdin and drain its stderr.
struct Feeders {
    stdin: std::thread::JoinHandle<std::io::Result<()>>,
    stderr: std::thread::JoinHandle<Vec<u8>>,
}

/// Waits for a batch child; its failure (or the reader's) is one error.
fn finish(mut child: Child, feeders: Feeders, what: &str, result: Result<()>) -> Result<()> {
    if result.is_err() {
        let _ = child.kill();
    }
    drop(child.stdout.take());
    let status = child.wait().context("--base: running git")?;
    let _ = feeders.stdin.join();
    let stderr = feeders.stderr.join().unwrap_or_default();
    result?;
    if !status.success() {
        bail!("--base: git {what}: {}", first_line(&stderr));
    }
    Ok(())
}

/// `git` with the cleaned environment (see the module doc).
fn base_command() -> Command {
    let mut cmd = Command::new("git");
    for (name, _) in std::env::vars_os() {
        let bytes = name.as_bytes();
        if bytes.starts_with(b"GIT_") && !std::str::from_utf8(bytes).is_ok_and(keeps) {
            cmd.env_remove(&name);
        }
    }
    cmd.env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_PAGER", "cat")
        .env("PAGER", "cat")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_ALLOW_PROTOCOL", "")
        .arg("--no-pager");
    cmd
}

/// git's first non-blank message line.
fn first_line(stderr: &[u8]) -> String {
    let err = String::from_utf8_lossy(stderr);
    err.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("failed")
        .trim()
        .to_owned()
}

/// Whether `git version X.Y...` is at least `want`.
fn version_at_least(text: &str, want: (u32, u32)) -> bool {
    let Some(rest) = text.trim().strip_prefix("git version ") else {
        return false;
    };
    let mut parts = rest.split(|c: char| !c.is_ascii_digit());
    let major = parts.next().and_then(|p| p.parse::<u32>().ok());
    let minor = parts.next().and_then(|p| p.parse::<u32>().ok());
    match (major, minor) {
        (Some(major), Some(minor)) => (major, minor) >= want,
        _ => false,
    }
}

/// Tree entry modes (octal, as `ls-tree` prints them).
pub const MODE_LINK: u32 = 0o120_000;
pub const MODE_SUBMODULE: u32 = 0o160_000;
pub const MODE_TREE: u32 = 0o040_000;

/// Why a path a revision's tree names cannot be mirrored, or `None` when it
/// can: the checks of git's `verify_path` (as it runs on Unix with
/// `core.protectNTFS`, its default, and `core.protectHFS`), which cover an
/// empty, absolute, `.` or `..` component, plus NUL. A `.git` in any case
/// (or its NTFS and HFS+ aliases) as a component is refused, and for a
/// symlink also `.gitmodules`.
#[must_use]
pub fn path_problem(path: &[u8], mode: u32) -> Option<&'static str> {
    if path.is_empty() {
        return Some("an empty path");
    }
    if path.contains(&0) {
        return Some("a NUL byte in the name");
    }
    if path[0] == b'/' {
        return Some("an absolute path");
    }
    let link = mode == MODE_LINK;
    for part in path.split(|b| *b == b'/') {
        match part {
            b"" => return Some("an empty component"),
            b"." => return Some("a `.` component"),
            b".." => return Some("a `..` component"),
            _ => {}
        }
        // NTFS reads `\` as a separator too: git checks each piece.
        for piece in part.split(|b| *b == b'\\') {
            if is_ntfs_dotgit(piece) || is_hfs_named(piece, b".git") {
                return Some("a `.git` component");
            }
            if link && (is_ntfs_dotgitmodules(piece) || is_hfs_named(piece, b".gitmodules")) {
                return Some("a symlink named `.gitmodules`");
            }
        }
    }
    None
}

/// `.git` or `git~1`, any case, followed only by dots and spaces (git's
/// `is_ntfs_dotgit`, for one component).
fn is_ntfs_dotgit(name: &[u8]) -> bool {
    let rest = if let Some(rest) = strip_prefix_ci(name, b".git") {
        rest
    } else if let Some(rest) = strip_prefix_ci(name, b"git~1") {
        rest
    } else {
        return false;
    };
    rest.iter().all(|b| matches!(b, b'.' | b' '))
}

/// `.gitmodules` or its 8.3 aliases (`gitmod~N`, `gi7eba~N`), any case,
/// followed only by dots and spaces (git's `is_ntfs_dotgitmodules`).
fn is_ntfs_dotgitmodules(name: &[u8]) -> bool {
    let trailing = |rest: &[u8]| rest.iter().all(|b| matches!(b, b'.' | b' '));
    if let Some(rest) = strip_prefix_ci(name, b".gitmodules") {
        return trailing(rest);
    }
    for short in [&b"gitmod~"[..], b"gi7eba~"] {
        if let Some(rest) = strip_prefix_ci(name, short) {
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            if (1..=4).contains(&digits) && rest[0] != b'0' {
                return trailing(&rest[digits..]);
            }
        }
    }
    false
}

/// HFS+ ignores some zero-width code points and case: whether `name` reads
/// as `want` there (git's `is_hfs_dotgit`).
fn is_hfs_named(name: &[u8], want: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(name) else {
        return false;
    };
    let ignorable = |c: char| {
        matches!(c as u32,
            0x200c..=0x200f | 0x202a..=0x202e | 0x206a..=0x206f | 0xfeff)
    };
    let folded: String = text.chars().filter(|c| !ignorable(*c)).collect();
    folded.len() != text.len() && folded.as_bytes().eq_ignore_ascii_case(want)
}

fn strip_prefix_ci<'a>(name: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    (name.len() >= prefix.len() && name[..prefix.len()].eq_ignore_ascii_case(prefix))
        .then(|| &name[prefix.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn path_problem_refuses_what_git_verify_path_refuses() {
        let file = 0o100_644;
        let cases: [(&[u8], u32, Option<&str>); 22] = [
            (b"AGENTS.md", file, None),
            (b"a/b/AGENTS.md", file, None),
            (b".github/AGENTS.md", file, None),
            (b".gitignore", file, None),
            (b"a/..b/...", file, None),
            (b"a\\b", file, None),
            (b".gitmodules", file, None),
            (b"", file, Some("an empty path")),
            (b"/etc/passwd", file, Some("an absolute path")),
            (b"a//b", file, Some("an empty component")),
            (b"a/", file, Some("an empty component")),
            (b"./a", file, Some("a `.` component")),
            (b"..", file, Some("a `..` component")),
            (b"a/../AGENTS.md", file, Some("a `..` component")),
            (b"a\0b", file, Some("a NUL byte in the name")),
            (b".git/config", file, Some("a `.git` component")),
            (b"x/.GiT/hooks/pre-commit", file, Some("a `.git` component")),
            (b"GIT~1/config", file, Some("a `.git` component")),
            (b"a/.git. . /x", file, Some("a `.git` component")),
            (b"a\\.git\\x", file, Some("a `.git` component")),
            (
                "a/.g\u{200c}it/x".as_bytes(),
                file,
                Some("a `.git` component"),
            ),
            (
                b".gitmodules",
                MODE_LINK,
                Some("a symlink named `.gitmodules`"),
            ),
        ];
        for (path, mode, want) in cases {
            assert_eq!(
                path_problem(path, mode),
                want,
                "{}",
                String::from_utf8_lossy(path)
            );
        }
    }

    #[test]
    fn version_at_least_reads_git_version_lines() {
        assert!(version_at_least("git version 2.47.3\n", (2, 44)));
        assert!(version_at_least("git version 2.44.0.windows.1", (2, 44)));
        assert!(version_at_least("git version 3.0.0", (2, 44)));
        assert!(!version_at_least(
            "git version 2.39.5 (Apple Git-154)",
            (2, 44)
        ));
        assert!(!version_at_least("", (2, 44)));
    }
}

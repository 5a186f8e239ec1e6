//! `check --base REV` on hostile revisions (issue 21, items 1, 2 and 10):
//! trees whose entries escape the mirror or lead through symlinks, a
//! repository configured to run a command on a lazy fetch, an environment
//! that would redirect git, and one blob referenced by hundreds of
//! directories. Hostile trees are written with `git hash-object -t tree
//! --literally`, which takes what `git fsck` refuses.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{Tree, bounded, git, git_commit_all};
use pretty_assertions::assert_eq;

/// `git ARGS` in `dir` with `input` on stdin (the fixed identity of
/// `common::git`); its stdout, trimmed.
fn git_in(dir: &Path, args: &[&str], input: &[u8]) -> String {
    let mut child = common::git_command(dir, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn blob(repo: &Path, content: &[u8]) -> String {
    git_in(repo, &["hash-object", "-w", "--stdin"], content)
}

/// Writes a tree object with exactly these entries (mode, name, id), names
/// unchecked, as a hostile pusher can.
fn raw_tree(repo: &Path, entries: &[(&str, &str, &str)]) -> String {
    let mut bytes = Vec::new();
    for (mode, name, oid) in entries {
        bytes.extend_from_slice(format!("{mode} {name}\0").as_bytes());
        let raw: Vec<u8> = (0..oid.len() / 2)
            .map(|i| u8::from_str_radix(&oid[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        bytes.extend_from_slice(&raw);
    }
    git_in(
        repo,
        &["hash-object", "-w", "-t", "tree", "--literally", "--stdin"],
        &bytes,
    )
}

fn commit(repo: &Path, tree: &str) -> String {
    git_in(repo, &["commit-tree", tree, "-m", "hostile"], b"")
}

/// A repository at `t/r` whose work tree holds one `AGENTS.md`, and the
/// mirror's temp directory `t/a/b/tmp`.
fn repo(t: &Tree) -> PathBuf {
    t.dir("a/b/tmp");
    t.file("r/AGENTS.md", "Use cargo.\n");
    git_commit_all(&t.path("r"), "one");
    t.path("r")
}

/// Every path below `root` outside `skip`, with file contents (symlinks by
/// target), sorted: what "nothing outside was written" compares.
fn snapshot(root: &Path, skip: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.starts_with(skip) {
                continue;
            }
            let meta = fs::symlink_metadata(&path).unwrap();
            let what = if meta.is_symlink() {
                format!("-> {}", fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                stack.push(path.clone());
                "dir".to_owned()
            } else {
                String::from_utf8_lossy(&fs::read(&path).unwrap()).into_owned()
            };
            out.push((path.display().to_string(), what));
        }
    }
    out.sort();
    out
}

/// `check --base REV` from the repository, the mirror made in `t/a/b/tmp`
/// (so that `..` entries would land inside `t`); quiet about findings.
fn check_base(t: &Tree, rev: &str) -> bounded::Output {
    let mut cmd = t.cmd();
    cmd.current_dir(t.path("r"))
        .env("TMPDIR", t.path("a/b/tmp"))
        .args(["check", "--format", "json", "--base", rev]);
    bounded::run(&mut cmd)
}

#[test]
fn dot_dot_entries_are_skipped_with_a_warning_and_nothing_outside_is_written() {
    let t = Tree::new();
    let r = repo(&t);
    let evil = blob(&r, b"attacker text\n");
    let inner = raw_tree(&r, &[("100644", "AGENTS.md", &evil)]);
    let up = raw_tree(&r, &[("40000", "..", &inner)]);
    let root = raw_tree(
        &r,
        &[
            ("40000", "..", &up),
            ("100644", "AGENTS.md", &blob(&r, b"Use cargo.\n")),
        ],
    );
    let rev = commit(&r, &root);
    let before = snapshot(t.root(), &r);
    let out = check_base(&t, &rev);
    assert_eq!(
        (out.stderr.as_str(), out.code),
        (
            format!(
                "agentctx: warning: --base {rev}: ../../AGENTS.md: not a path git checks out (a `..` component), skipped\n"
            )
            .as_str(),
            0
        )
    );
    assert_eq!(out.json()["impact"]["directories"], serde_json::json!([]));
    assert_eq!(snapshot(t.root(), &r), before);
    assert!(!t.path("AGENTS.md").exists() && !t.path("a/AGENTS.md").exists());
}

#[test]
fn a_symlinked_candidate_is_never_written_through() {
    let t = Tree::new();
    t.file("outside/secret.txt", "original\n");
    let r = repo(&t);
    let target = t.path_str("outside/secret.txt");
    let evil = blob(&r, b"attacker text\n");
    let agents = raw_tree(&r, &[("100644", "AGENTS.md", &evil)]);
    let dotdot = raw_tree(&r, &[("40000", "..", &agents)]);
    // AGENTS.md -> outside/secret.txt, and a blob at a/../AGENTS.md.
    let root = raw_tree(
        &r,
        &[
            ("120000", "AGENTS.md", &blob(&r, target.as_bytes())),
            ("40000", "a", &dotdot),
        ],
    );
    let rev = commit(&r, &root);
    let before = snapshot(t.root(), &r);
    let out = check_base(&t, &rev);
    assert_eq!(
        out.stderr,
        format!(
            "agentctx: warning: --base {rev}: a/../AGENTS.md: not a path git checks out (a `..` component), skipped\n"
        )
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "original\n");
    assert_eq!(snapshot(t.root(), &r), before);
}

#[test]
fn a_file_below_a_symlink_of_the_same_tree_is_skipped() {
    let t = Tree::new();
    t.dir("outside");
    let r = repo(&t);
    let target = t.path_str("outside");
    let evil = blob(&r, b"attacker text\n");
    let inner = raw_tree(&r, &[("100644", "AGENTS.md", &evil)]);
    // CLAUDE.md -> outside/ and CLAUDE.md/AGENTS.md: two entries of one name.
    let root = raw_tree(
        &r,
        &[
            ("120000", "CLAUDE.md", &blob(&r, target.as_bytes())),
            ("40000", "CLAUDE.md", &inner),
        ],
    );
    let rev = commit(&r, &root);
    let before = snapshot(t.root(), &r);
    let out = check_base(&t, &rev);
    assert_eq!(
        out.stderr,
        format!(
            "agentctx: warning: --base {rev}: CLAUDE.md/AGENTS.md: below a symlink or file of the same tree, skipped\n"
        )
    );
    assert!(!t.path("outside/AGENTS.md").exists());
    assert_eq!(snapshot(t.root(), &r), before);
}

/// The first `git` on PATH.
fn real_git() -> String {
    let out = Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

#[test]
fn a_missing_object_is_unavailable_and_never_fetched_by_a_configured_command() {
    let t = Tree::new();
    let r = repo(&t);
    t.file("r/AGENTS.md", "Use cargo and make.\n");
    git_commit_all(&r, "two");
    // HEAD~1's AGENTS.md leaves the object store: a partial clone's blob.
    let old = git(&r, &["rev-parse", "HEAD~1:AGENTS.md"])
        .trim()
        .to_owned();
    fs::remove_file(r.join(format!(".git/objects/{}/{}", &old[..2], &old[2..]))).unwrap();
    let marker = t.path("marker");
    t.file(
        "ssh.sh",
        format!("#!/bin/sh\necho ran >> {}\nexit 1\n", marker.display()),
    );
    fs::set_permissions(t.path("ssh.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    for (key, value) in [
        ("core.repositoryformatversion", "1"),
        ("extensions.partialClone", "origin"),
        ("remote.origin.url", "ssh://git@example.invalid/r.git"),
        ("remote.origin.promisor", "true"),
        ("remote.origin.partialclonefilter", "blob:none"),
        ("protocol.ssh.allow", "always"),
        ("core.sshCommand", &t.path_str("ssh.sh")),
    ] {
        git(&r, &["config", key, value]);
    }
    let mut cmd = t.cmd();
    cmd.current_dir(&r)
        .env("TMPDIR", t.path("tmp"))
        .args(["check", "--base", "HEAD~1"]);
    fs::create_dir(t.path("tmp")).unwrap();
    let out = bounded::run(&mut cmd);
    assert_eq!(
        (out.stderr.as_str(), out.code),
        (
            format!(
                "agentctx: warning: --base HEAD~1: AGENTS.md: unavailable at HEAD~1 (object {old} is not in the repository, never fetched), skipped\n"
            )
            .as_str(),
            0
        )
    );
    assert!(!marker.exists(), "the repository's sshCommand ran");
}

#[test]
fn inherited_git_variables_do_not_redirect_or_trace() {
    let t = Tree::new();
    let r = repo(&t);
    t.file("r/AGENTS.md", "Use cargo and make.\n");
    git_commit_all(&r, "two");
    fs::create_dir(t.path("tmp")).unwrap();
    let mut cmd = t.cmd();
    cmd.current_dir(&r)
        .env("TMPDIR", t.path("tmp"))
        .env("GIT_DIR", t.path("elsewhere/.git"))
        .env("GIT_WORK_TREE", t.path("elsewhere"))
        .env("GIT_OBJECT_DIRECTORY", t.path("elsewhere/objects"))
        .env("GIT_TRACE", t.path("trace.log"))
        .env("GIT_TRACE_PACKET", t.path("trace.log"))
        .env("GIT_ALLOW_PROTOCOL", "ssh:ext:file")
        .args(["check", "--format", "json", "--base", "HEAD~1"]);
    let out = bounded::run(&mut cmd);
    assert_eq!((out.stderr.as_str(), out.code), ("", 0));
    assert_eq!(
        out.json()["impact"]["directories"][0]["changed"],
        serde_json::json!(["AGENTS.md"])
    );
    assert!(!t.path("trace.log").exists(), "git traced into a file");
}

/// A `git` on PATH that runs the real one and records, per run, its
/// arguments, its `GIT_*` environment and how many bytes it printed.
fn counting_git(t: &Tree) -> PathBuf {
    let bin = t.path("bin");
    fs::create_dir_all(&bin).unwrap();
    let log = t.path("git.log");
    t.file(
        "bin/git",
        format!(
            "#!/bin/sh\n\
             out=$(mktemp)\n\
             {{ printf 'args %s\\n' \"$*\"; printf 'env %s\\n' \"$(env | grep '^GIT_' | sort | tr '\\n' ' ')\"; }} >> {log}\n\
             {real} \"$@\" > \"$out\"; rc=$?\n\
             printf 'bytes %s\\n' \"$(wc -c < \"$out\")\" >> {log}\n\
             cat \"$out\"; rm -f \"$out\"; exit $rc\n",
            log = log.display(),
            real = real_git(),
        ),
    );
    fs::set_permissions(bin.join("git"), fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// A revision whose `dirs` directories all hold one AGENTS.md blob of
/// `size` bytes (one blob, one subtree, referenced `dirs` times).
fn blob_bomb(r: &Path, dirs: usize, size: usize) -> String {
    let big = blob(r, &vec![b'x'; size]);
    let sub = raw_tree(r, &[("100644", "AGENTS.md", &big)]);
    let names: Vec<String> = (0..dirs).map(|i| format!("d{i:04}")).collect();
    let entries: Vec<(&str, &str, &str)> = names
        .iter()
        .map(|n| ("40000", n.as_str(), sub.as_str()))
        .collect();
    commit(r, &raw_tree(r, &entries))
}

/// Runs `check --base REV` with the counting git; (bytes git printed in
/// all, the log's lines).
fn git_bytes(t: &Tree, rev: &str, extra: &[&str]) -> (u64, Vec<String>) {
    let bin = counting_git(t);
    let log = t.path("git.log");
    let _ = fs::remove_file(&log);
    fs::create_dir_all(t.path("tmp")).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let mut cmd = t.cmd();
    cmd.current_dir(t.path("r"))
        .env("PATH", path)
        .env("TMPDIR", t.path("tmp"))
        .args(["check", "--format", "json"])
        .args(extra)
        .args(["--base", rev]);
    let out = bounded::run(&mut cmd);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<String> = fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let bytes = lines
        .iter()
        .filter_map(|l| l.strip_prefix("bytes "))
        .map(|n| n.trim().parse::<u64>().unwrap())
        .sum();
    (bytes, lines)
}

#[test]
fn one_blob_in_many_directories_is_read_once() {
    let t = Tree::new();
    let r = repo(&t);
    let size = 20_000;
    let small = blob_bomb(&r, 200, size);
    let large = blob_bomb(&r, 400, size);
    let (bytes_200, lines) = git_bytes(&t, &small, &[]);
    let (bytes_400, _) = git_bytes(&t, &large, &[]);
    // The blob once, plus the listing (under 100 bytes per directory);
    // before, every reference was read: 200 * 20,000 bytes.
    assert!(
        bytes_200 < (size + 200 * 100) as u64,
        "{bytes_200} bytes from git"
    );
    assert!(
        bytes_400 < (size + 400 * 100) as u64,
        "{bytes_400} bytes from git"
    );
    assert!(bytes_400 <= bytes_200 * 2, "{bytes_200} -> {bytes_400}");
    // Every git child ran with the safe options and environment.
    let runs: Vec<&String> = lines.iter().filter(|l| l.starts_with("args ")).collect();
    assert!(runs.len() >= 5, "{lines:?}");
    let version = Command::new(real_git()).arg("--version").output().unwrap();
    let version = String::from_utf8(version.stdout).unwrap();
    let numbers: Vec<u32> = version
        .trim()
        .trim_start_matches("git version ")
        .split(|c: char| !c.is_ascii_digit())
        .take(2)
        .map(|n| n.parse().unwrap())
        .collect();
    let lazy = if numbers >= vec![2, 44] {
        "--no-lazy-fetch "
    } else {
        ""
    };
    let prefix = format!(
        "args --no-pager {lazy}-c protocol.allow=never -c core.fsmonitor=false -c core.hooksPath=/dev/null -C "
    );
    for run in runs {
        if run != "args --no-pager --version" {
            assert!(run.starts_with(&prefix), "{run}");
        }
    }
    for env in lines.iter().filter(|l| l.starts_with("env ")) {
        for want in [
            "GIT_ALLOW_PROTOCOL= ",
            "GIT_NO_LAZY_FETCH=1 ",
            "GIT_OPTIONAL_LOCKS=0 ",
            "GIT_PAGER=cat ",
            "GIT_TERMINAL_PROMPT=0 ",
        ] {
            assert!(env.contains(want), "{want} missing: {env}");
        }
    }
}

#[test]
fn an_oversized_blob_is_sized_and_never_read() {
    let t = Tree::new();
    let r = repo(&t);
    let size = 3_000_000;
    let rev = blob_bomb(&r, 50, size);
    let (bytes, _) = git_bytes(&t, &rev, &["--max-source-bytes", "1000000"]);
    assert!(bytes < 100_000, "{bytes} bytes from git");
}

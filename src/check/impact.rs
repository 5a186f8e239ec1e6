//! `check --base REV`: what a change does to what sessions receive,
//! directory by directory.
//!
//! 1. **Read REV** with the `git` executable only: `git ls-tree -r -z`
//!    lists the revision's tree, `git cat-file --batch` reads the blobs
//!    that decide baselines (candidate files, root markers, ignore files,
//!    and the in-repository targets of symlinked candidates). Nothing is
//!    checked out and nothing in the repository is written.
//! 2. **Mirror** those entries into a private temporary directory, laid out
//!    like the work tree (symlinks kept, targets that leave the repository
//!    pointed at the same absolute place, submodules as nested roots).
//! 3. **Check both** with the same options: the mirror gives every
//!    directory's baseline at REV, the work tree the current one; paths are
//!    shown relative to the same start directory, so they compare as strings.
//! 4. **Compare** per directory: received text, bytes, files added, removed
//!    and changed, newly omitted or truncated files; and which errors are
//!    new (absent at REV for the same rule and file).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use serde::Serialize;

use super::walk::{AGENTCTX_IGNORE, Names};
use super::{DirBaseline, Finding, Options, Report, Severity, Target};
use crate::paths;

/// What the change does to one directory's baseline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DirChange {
    pub dir: String,
    /// Bytes sent before and after (`None`: no instruction files there).
    pub bytes_before: Option<usize>,
    pub bytes_after: Option<usize>,
    /// Display paths of loaded files.
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
    pub newly_omitted: Vec<String>,
    pub newly_truncated: Vec<String>,
    /// Over budget now, not before.
    pub newly_failing: bool,
}

/// The impact of the work tree against REV.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Impact {
    pub base: String,
    /// Directories whose received text changes, in path order.
    pub directories: Vec<DirChange>,
    /// Errors that REV did not have (for the same rule and file).
    pub new_errors: Vec<Finding>,
    pub new_warnings: Vec<Finding>,
    pub preexisting_errors: usize,
    pub preexisting_warnings: usize,
}

impl Impact {
    /// Exit 1 only for what the change brings.
    #[must_use]
    pub fn failed(&self, deny_warnings: bool) -> bool {
        !self.new_errors.is_empty() || (deny_warnings && !self.new_warnings.is_empty())
    }
}

/// The check of REV: `opts` applied to a mirror of its tree. `temp` is the
/// directory the mirror is made in.
///
/// # Errors
///
/// `git` fails or is missing, REV does not name a tree, a target lies
/// outside the git work tree, or the mirror cannot be written.
pub fn check_revision(opts: &Options<'_>, rev: &str, temp: &Path) -> Result<Report> {
    let probe = opts.targets.first().map_or(&opts.base, |t| &t.path);
    let top = toplevel(probe)?;
    let mirror = tempfile::Builder::new()
        .prefix("agentctx-base-")
        .tempdir_in(temp)
        .with_context(|| format!("--base {rev}: creating a directory in {}", temp.display()))?;
    let names = Names::new(opts.settings);
    materialize(&top, rev, mirror.path(), &names)?;
    let map = |p: &Path| -> Result<PathBuf> {
        let rel = p.strip_prefix(&top).map_err(|_| {
            anyhow::anyhow!(
                "--base {rev}: {} is outside the git work tree {}",
                p.display(),
                top.display()
            )
        })?;
        Ok(mirror.path().join(rel))
    };
    let mut targets = Vec::new();
    for t in &opts.targets {
        let path = map(&t.path)?;
        fs::create_dir_all(&path).with_context(|| format!("creating {}", path.display()))?;
        targets.push(Target {
            path,
            nested_roots: t.nested_roots,
        });
    }
    let at_rev = Options {
        targets,
        base: map(&opts.base)?,
        directories: true,
        ..opts.clone()
    };
    super::check(&at_rev)
}

/// The work tree's top directory holding `dir`.
fn toplevel(dir: &Path) -> Result<PathBuf> {
    let out = git(dir, &["rev-parse", "--show-toplevel"], None)?;
    let text = String::from_utf8_lossy(&out);
    Ok(PathBuf::from(text.trim_end_matches('\n')))
}

/// Runs `git -C dir ARGS` (with `input` on stdin) and returns its stdout.
fn git(dir: &Path, args: &[&str], input: Option<&[u8]>) -> Result<Vec<u8>> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| "--base: running git (is it on PATH?)".to_owned())?;
    let writer = match (input, child.stdin.take()) {
        (Some(bytes), Some(mut stdin)) => {
            let bytes = bytes.to_vec();
            Some(std::thread::spawn(move || stdin.write_all(&bytes)))
        }
        _ => None,
    };
    let out = child.wait_with_output().context("--base: running git")?;
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("failed");
        bail!("--base: git {}: {}", args.join(" "), line.trim());
    }
    Ok(out.stdout)
}

/// One entry of `git ls-tree`.
#[derive(Debug, Clone)]
struct Entry {
    mode: String,
    oid: String,
    path: String,
}

/// Lists REV's tree: every blob, symlink and submodule, by path.
fn ls_tree(top: &Path, rev: &str) -> Result<HashMap<String, Entry>> {
    let spec = format!("{rev}^{{tree}}");
    git(top, &["rev-parse", "--verify", "--quiet", &spec], None)
        .map_err(|_| anyhow::anyhow!("--base {rev}: not a revision of {}", top.display()))?;
    let out = git(top, &["ls-tree", "-r", "-z", "--full-tree", &spec], None)?;
    let mut entries = HashMap::new();
    for record in out.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let record = String::from_utf8_lossy(record);
        let Some((meta, path)) = record.split_once('\t') else {
            continue;
        };
        let mut parts = meta.split(' ');
        let (Some(mode), Some(_kind), Some(oid)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        entries.insert(
            path.to_owned(),
            Entry {
                mode: mode.to_owned(),
                oid: oid.to_owned(),
                path: path.to_owned(),
            },
        );
    }
    Ok(entries)
}

/// Whether an entry decides baselines: a candidate, a plain root marker or
/// an ignore file (names matched ignoring ASCII case, as the walk does).
fn wanted(folded_names: &HashSet<String>, path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    folded_names.contains(&base.to_ascii_lowercase())
        || base == ".gitignore"
        || base == AGENTCTX_IGNORE
}

/// Mirrors what decides REV's baselines into `dest`.
fn materialize(top: &Path, rev: &str, dest: &Path, names: &Names) -> Result<()> {
    let entries = ls_tree(top, rev)?;
    let folded: HashSet<String> = names.all.iter().map(|n| n.to_ascii_lowercase()).collect();
    let mut chosen: Vec<&Entry> = entries
        .values()
        .filter(|e| e.mode == "160000" || wanted(&folded, &e.path))
        .collect();
    let blobs: Vec<&Entry> = chosen
        .iter()
        .copied()
        .filter(|e| e.mode != "160000")
        .collect();
    let mut contents = cat_blobs(top, &blobs)?;
    // Symlinked candidates pull in their in-repository targets (a chain of
    // at most 8 links, as far as REV holds them).
    let mut seen: HashSet<String> = chosen.iter().map(|e| e.path.clone()).collect();
    let mut links: Vec<&Entry> = blobs.into_iter().filter(|e| e.mode == "120000").collect();
    for _ in 0..8 {
        let mut more = Vec::new();
        for link in &links {
            let target = String::from_utf8_lossy(&contents[&link.oid]).into_owned();
            let dir = Path::new(&link.path).parent().unwrap_or(Path::new(""));
            let resolved = paths::normalize(&top.join(dir), Path::new(&target));
            let Ok(inside) = resolved.strip_prefix(top) else {
                continue;
            };
            let inside = inside.to_string_lossy().into_owned();
            if let Some(e) = entries.get(&inside).filter(|_| seen.insert(inside.clone())) {
                more.push(e);
            }
        }
        if more.is_empty() {
            break;
        }
        contents.extend(cat_blobs(top, &more)?);
        chosen.extend(more.iter().copied());
        links = more.into_iter().filter(|e| e.mode == "120000").collect();
    }
    fs::create_dir_all(dest.join(".git/info"))?;
    if let Ok(exclude) = fs::read(top.join(".git/info/exclude")) {
        fs::write(dest.join(".git/info/exclude"), exclude)?;
    }
    for e in chosen {
        write_entry(top, dest, e, &contents)
            .with_context(|| format!("--base {rev}: mirroring {}", e.path))?;
    }
    Ok(())
}

/// Writes one entry of REV into the mirror.
fn write_entry(
    top: &Path,
    dest: &Path,
    e: &Entry,
    contents: &HashMap<String, Vec<u8>>,
) -> Result<()> {
    let path = dest.join(&e.path);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    match e.mode.as_str() {
        // A submodule: a nested root, as its `.git` file makes it in a checkout.
        "160000" => {
            fs::create_dir_all(&path)?;
            fs::write(path.join(".git"), "gitdir: submodule\n")?;
        }
        "120000" => {
            let target = String::from_utf8_lossy(&contents[&e.oid]).into_owned();
            let dir = Path::new(&e.path).parent().unwrap_or(Path::new(""));
            let real = paths::normalize(&top.join(dir), Path::new(&target));
            // Inside the repository the link keeps its text (it resolves in
            // the mirror); outside, it points where it points from the work tree.
            let inside = real.starts_with(top);
            let link = if inside && Path::new(&target).is_relative() {
                PathBuf::from(&target)
            } else if inside {
                dest.join(real.strip_prefix(top).unwrap_or(&real))
            } else {
                real
            };
            symlink(link, &path)?;
        }
        _ => fs::write(&path, &contents[&e.oid])?,
    }
    Ok(())
}

/// Reads blobs with one `git cat-file --batch`, keyed by object id.
fn cat_blobs(top: &Path, entries: &[&Entry]) -> Result<HashMap<String, Vec<u8>>> {
    let mut input = String::new();
    for e in entries {
        input.push_str(&e.oid);
        input.push('\n');
    }
    let out = git(top, &["cat-file", "--batch"], Some(input.as_bytes()))?;
    let mut reader = BufReader::new(out.as_slice());
    let mut blobs = HashMap::new();
    let mut header = String::new();
    loop {
        header.clear();
        if reader.read_line(&mut header)? == 0 {
            break;
        }
        let mut parts = header.split_whitespace();
        let (Some(oid), Some(_kind), Some(size)) = (parts.next(), parts.next(), parts.next())
        else {
            bail!(
                "--base: git cat-file: unexpected output {:?}",
                header.trim()
            );
        };
        let size: usize = size.parse().context("--base: git cat-file size")?;
        let mut body = vec![0; size + 1];
        reader.read_exact(&mut body)?;
        body.pop();
        blobs.insert(oid.to_owned(), body);
    }
    Ok(blobs)
}

/// Compares the check of REV with the work tree's.
#[must_use]
pub fn compare(rev: &str, before: &Report, after: &Report) -> Impact {
    let dirs = |r: &Report| -> HashMap<String, DirBaseline> {
        r.directories
            .iter()
            .flatten()
            .map(|d| (d.dir.clone(), d.clone()))
            .collect()
    };
    let (old, new) = (dirs(before), dirs(after));
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    keys.sort();
    keys.dedup();
    let directories = keys
        .into_iter()
        .filter_map(|k| dir_change(k, old.get(k), new.get(k)))
        .collect();
    let key = |f: &Finding| (f.rule, f.file.clone());
    let had: HashSet<(&str, String)> = before.findings.iter().map(key).collect();
    let (old_findings, new_findings): (Vec<&Finding>, Vec<&Finding>) =
        after.findings.iter().partition(|f| had.contains(&key(f)));
    let pick = |list: &[&Finding], s: Severity| -> Vec<Finding> {
        list.iter()
            .filter(|f| f.severity == s)
            .map(|f| (*f).clone())
            .collect()
    };
    let count = |s: Severity| old_findings.iter().filter(|f| f.severity == s).count();
    Impact {
        base: rev.to_owned(),
        directories,
        new_errors: pick(&new_findings, Severity::Error),
        new_warnings: pick(&new_findings, Severity::Warning),
        preexisting_errors: count(Severity::Error),
        preexisting_warnings: count(Severity::Warning),
    }
}

/// The change of one directory, when its received text changes.
fn dir_change(
    dir: &str,
    old: Option<&DirBaseline>,
    new: Option<&DirBaseline>,
) -> Option<DirChange> {
    let digest = |d: Option<&DirBaseline>| d.and_then(|d| d.text_digest.clone());
    if digest(old) == digest(new) {
        return None;
    }
    let files = |d: Option<&DirBaseline>| -> HashMap<String, String> {
        d.map(|d| {
            d.baseline
                .files
                .iter()
                .map(|f| (f.path.clone(), f.digest.clone()))
                .collect()
        })
        .unwrap_or_default()
    };
    let (of, nf) = (files(old), files(new));
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let only = |a: &HashMap<String, String>, b: &HashMap<String, String>| {
        sorted(a.keys().filter(|k| !b.contains_key(*k)).cloned().collect())
    };
    let cut = |d: Option<&DirBaseline>| -> (HashSet<String>, HashSet<String>) {
        d.map(|d| {
            let b = &d.baseline;
            let truncated = b.truncated.iter().map(|t| t.path.clone()).collect();
            (b.omitted.iter().cloned().collect(), truncated)
        })
        .unwrap_or_default()
    };
    let ((oo, ot), (no, nt)) = (cut(old), cut(new));
    let fails = |d: Option<&DirBaseline>| {
        d.is_some_and(|d| !(d.baseline.omitted.is_empty() && d.baseline.truncated.is_empty()))
    };
    Some(DirChange {
        dir: dir.to_owned(),
        bytes_before: old.map(|d| d.baseline.bytes),
        bytes_after: new.map(|d| d.baseline.bytes),
        added: only(&nf, &of),
        removed: only(&of, &nf),
        changed: sorted(
            nf.iter()
                .filter(|(k, v)| of.get(*k).is_some_and(|o| o != *v))
                .map(|(k, _)| k.clone())
                .collect(),
        ),
        newly_omitted: sorted(no.difference(&oo).cloned().collect()),
        newly_truncated: sorted(nt.difference(&ot).cloned().collect()),
        newly_failing: fails(new) && !fails(old),
    })
}

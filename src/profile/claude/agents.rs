//! Rule 8: the AGENTS.md files Claude Code reads where no CLAUDE.md holds
//! them back, and where their entries go in the block.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::MemoryType;
use super::walk::{Entry, Walk};
use crate::discovery::js_trim;
use crate::profile::{Status, Why};

/// The directory of an entry for the AGENTS.md placement: the path before
/// its last `/.claude/`, else its directory.
pub(super) fn project_dir_of(path: &str) -> &str {
    let cut = path.rfind("/.claude/").or_else(|| path.rfind('/'));
    match cut {
        Some(i) if i > 0 => &path[..i],
        _ => "/",
    }
}

pub(super) fn is_below(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with('/'))
        && path != dir
        || dir == "/" && path.len() > 1 && path.starts_with('/')
}

/// Rule 8's insertion point for a group of AGENTS.md entries of `dir`.
fn insertion_index(entries: &[Entry], dir: &str) -> usize {
    if let Some(i) = entries
        .iter()
        .position(|e| e.ty.is_project_own() && is_below(project_dir_of(&e.root), dir))
    {
        return i;
    }
    match entries.iter().rposition(|e| e.ty.is_project_own()) {
        Some(i) => i + 1,
        None => entries.len(),
    }
}

/// Rule 8: the AGENTS.md entries to add, or none (held back, each listed).
pub(super) fn agents_md(
    walk: &mut Walk<'_>,
    dirs: &[PathBuf],
    first_seen: [&Path; 2],
    approved: bool,
    entries: &[Entry],
) -> Vec<Entry> {
    let fresh_seen: HashSet<PathBuf> = first_seen.iter().map(|p| p.to_path_buf()).collect();
    if let Some(by) = holder(walk, dirs, &fresh_seen, approved) {
        hold_back(walk, dirs, &by);
        return Vec::new();
    }
    let mut agents = Walk {
        cwd: walk.cwd,
        home: walk.home,
        seen: fresh_seen,
        skipped: Vec::new(),
        record: true,
        stack: Vec::new(),
    };
    let mut found = Vec::new();
    for dir in dirs {
        for name in ["AGENTS.md", ".claude/AGENTS.md"] {
            let parts = agents.read(&dir.join(name), MemoryType::Project, 0, None, approved);
            let root = parts.first().map(|p| p.path.clone());
            for mut part in parts {
                if let Some(root) = &root {
                    part.root.clone_from(root);
                }
                found.push(part);
            }
        }
    }
    walk.skipped.append(&mut agents.skipped);
    dedupe(walk, found, entries)
}

/// The first CLAUDE.md (or `.claude/CLAUDE.md`, `CLAUDE.local.md`) of the
/// chain that gives an entry of its own: it holds every AGENTS.md back.
fn holder(
    walk: &Walk<'_>,
    dirs: &[PathBuf],
    fresh_seen: &HashSet<PathBuf>,
    approved: bool,
) -> Option<PathBuf> {
    for dir in dirs {
        for name in ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"] {
            let path = dir.join(name);
            let mut probe = Walk {
                cwd: walk.cwd,
                home: walk.home,
                seen: fresh_seen.clone(),
                skipped: Vec::new(),
                record: false,
                stack: Vec::new(),
            };
            let ty = if name == "CLAUDE.local.md" {
                MemoryType::Local
            } else {
                MemoryType::Project
            };
            if probe
                .read(&path, ty, 0, None, approved)
                .iter()
                .any(|e| e.parent.is_none())
            {
                return Some(path);
            }
        }
    }
    None
}

/// Every AGENTS.md of the chain, listed as held back by `by`.
fn hold_back(walk: &mut Walk<'_>, dirs: &[PathBuf], by: &Path) {
    for dir in dirs {
        for name in ["AGENTS.md", ".claude/AGENTS.md"] {
            let path = dir.join(name);
            if crate::bounded::symlink_metadata(&path).is_ok() {
                walk.skip(
                    &path,
                    Status::HeldBack,
                    Why::By(crate::profile::show(by)),
                    MemoryType::Project,
                    None,
                );
            }
        }
    }
}

/// The AGENTS.md entries that are neither an entry already nor the same
/// text as a project entry (those are listed as duplicates).
fn dedupe(walk: &mut Walk<'_>, found: Vec<Entry>, entries: &[Entry]) -> Vec<Entry> {
    let mut paths: HashSet<String> = entries.iter().map(|e| e.path.clone()).collect();
    let texts: HashSet<&str> = entries
        .iter()
        .filter(|e| e.ty.is_project_own())
        .map(|e| js_trim(&e.content))
        .collect();
    let mut kept = Vec::new();
    for part in found {
        let text = js_trim(&part.content);
        if paths.contains(&part.path) || !text.is_empty() && texts.contains(text) {
            let why = if paths.contains(&part.path) {
                Why::Rule("already an entry")
            } else {
                Why::Rule("the same text as a project entry")
            };
            walk.skip(
                Path::new(&part.path),
                Status::Duplicate,
                why,
                MemoryType::Project,
                part.parent.as_deref(),
            );
            continue;
        }
        paths.insert(part.path.clone());
        kept.push(part);
    }
    kept
}

/// Rule 8's placement: the AGENTS.md entries grouped by directory, each
/// group before the first project or local entry below it.
pub(super) fn insert_agents(mut entries: Vec<Entry>, agents: Vec<Entry>) -> Vec<Entry> {
    let mut groups: Vec<(String, Vec<Entry>)> = Vec::new();
    for a in agents {
        let dir = project_dir_of(&a.root).to_owned();
        match groups.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, g)) => g.push(a),
            None => groups.push((dir, vec![a])),
        }
    }
    for (dir, group) in groups {
        let at = insertion_index(&entries, &dir);
        entries.splice(at..at, group);
    }
    entries
}

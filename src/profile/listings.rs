//! Documented listings for harnesses agentctx cannot reproduce byte for
//! byte (SPEC 10.6): Claude Code and GitHub Copilot CLI. `explain` only;
//! `exact: false`, no parts, every present file the documentation names.

use std::path::{Path, PathBuf};

use super::{FileEntry, Origin, Profile, Report, Setting, Settings, Status, Why};

/// The inputs of a listing.
#[derive(Debug, Clone)]
pub struct Input {
    /// Absolute, lexically normalised.
    pub cwd: PathBuf,
    pub home: PathBuf,
    pub home_origin: Origin,
}

/// A regular file (links followed) gets an entry.
fn push(report: &mut Report, path: &Path, why: Why) {
    if let Some(size) = super::file_size(path) {
        report
            .files
            .push(FileEntry::new(super::show(path), Some(size), Status::Loaded).why(why));
    }
}

/// Every `*.md` file (or `*{suffix}`) under `dir`, sorted by path, links followed.
fn markdown_under(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.file_name().to_string_lossy().ends_with(suffix))
        .map(walkdir::DirEntry::into_path)
        .collect();
    out.sort();
    out
}

fn settings(input: &Input) -> Settings {
    let mut s = Settings::default();
    s.push(
        "home",
        Setting::new(super::show(&input.home), input.home_origin.clone()),
    );
    s
}

/// `cwd` and its ancestors, broadest (`/`) first.
fn chain(cwd: &Path) -> Vec<&Path> {
    let mut dirs: Vec<&Path> = cwd.ancestors().collect();
    dirs.reverse();
    dirs
}

/// Claude Code's memory files [D-cl].
pub fn claude(input: &Input) -> Report {
    let mut report = Report::new(Profile::Claude, settings(input));
    report.exact = false;
    push(
        &mut report,
        Path::new("/etc/claude-code/CLAUDE.md"),
        Why::Rule("managed policy"),
    );
    let user = input.home.join(".claude");
    push(
        &mut report,
        &user.join("CLAUDE.md"),
        Why::Rule("user memory"),
    );
    for p in markdown_under(&user.join("rules"), ".md") {
        push(&mut report, &p, Why::Rule("user rule"));
    }
    for dir in chain(&input.cwd) {
        let claude = dir.join("CLAUDE.md");
        let has_claude = super::file_size(&claude).is_some();
        push(&mut report, &claude, Why::Rule("project memory"));
        push(
            &mut report,
            &dir.join(".claude/CLAUDE.md"),
            Why::Rule("project memory"),
        );
        for p in markdown_under(&dir.join(".claude/rules"), ".md") {
            push(&mut report, &p, Why::Rule("project rule"));
        }
        push(
            &mut report,
            &dir.join("CLAUDE.local.md"),
            Why::Rule("local project memory"),
        );
        if !has_claude {
            push(
                &mut report,
                &dir.join("AGENTS.md"),
                Why::Rule("read because this directory has no CLAUDE.md"),
            );
        }
    }
    report
}

/// The repository root: the nearest ancestor-or-self holding `.git`, else cwd.
fn repo_root(cwd: &Path) -> &Path {
    cwd.ancestors()
        .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
        .unwrap_or(cwd)
}

/// GitHub Copilot CLI's custom instructions [D-co].
pub fn copilot(input: &Input) -> Report {
    let root = repo_root(&input.cwd).to_path_buf();
    let mut s = settings(input);
    s.push("root", Setting::new(super::show(&root), Origin::Derived));
    let mut report = Report::new(Profile::Copilot, s);
    report.exact = false;
    push(
        &mut report,
        &input.home.join(".copilot/copilot-instructions.md"),
        Why::Rule("user instructions"),
    );
    push(
        &mut report,
        &root.join(".github/copilot-instructions.md"),
        Why::Rule("repository instructions"),
    );
    for p in markdown_under(&root.join(".github/instructions"), ".instructions.md") {
        push(
            &mut report,
            &p,
            Why::Rule("path-specific: its applyTo front matter decides"),
        );
    }
    let mut dirs: Vec<&Path> = input
        .cwd
        .ancestors()
        .take_while(|d| d.starts_with(&root))
        .collect();
    dirs.reverse();
    for dir in dirs {
        push(
            &mut report,
            &dir.join("AGENTS.md"),
            Why::Rule("agent instructions"),
        );
    }
    push(
        &mut report,
        &root.join("CLAUDE.md"),
        Why::Rule("agent instructions at the root"),
    );
    push(
        &mut report,
        &root.join("GEMINI.md"),
        Why::Rule("agent instructions at the root"),
    );
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_is_broadest_first() {
        assert_eq!(
            chain(Path::new("/a/b")),
            [Path::new("/"), Path::new("/a"), Path::new("/a/b")]
        );
    }
}

//! Documented listings for harnesses agentctx cannot reproduce byte for
//! byte (SPEC 10.7): GitHub Copilot CLI. `explain` only; `exact: false`, no
//! parts, every present file the documentation names.

use std::path::{Path, PathBuf};

use super::{FileEntry, Origin, Profile, ProfileSettings, Report, Setting, Status, Why};

/// The inputs of a listing.
#[derive(Debug, Clone)]
pub struct Input {
    /// Absolute, lexically normalised.
    pub cwd: PathBuf,
    pub home: PathBuf,
    pub home_origin: Origin,
}

/// The report of a listing: each documented path that is a regular file
/// (links followed) gets an entry, in order, with the rule that loads it.
fn listing(
    profile: Profile,
    settings: ProfileSettings,
    named: Vec<(PathBuf, &'static str)>,
) -> Report {
    let mut report = Report::new(profile, settings);
    report.exact = false;
    for (path, rule) in named {
        if let Some(size) = super::file_size(&path) {
            let entry = FileEntry::new(super::show(&path), Some(size), Status::Loaded);
            report.files.push(entry.why(Why::Rule(rule)));
        }
    }
    report
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

fn settings(input: &Input) -> ProfileSettings {
    let mut s = ProfileSettings::default();
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

/// The repository root: the nearest ancestor-or-self holding `.git`, else cwd.
fn repo_root(cwd: &Path) -> &Path {
    cwd.ancestors()
        .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
        .unwrap_or(cwd)
}

/// GitHub Copilot CLI's custom instructions [D-co].
#[must_use]
pub fn copilot(input: &Input) -> Report {
    let root = repo_root(&input.cwd).to_path_buf();
    let mut settings = settings(input);
    settings.push("root", Setting::new(super::show(&root), Origin::Derived));
    let mut named: Vec<(PathBuf, &'static str)> = vec![
        (
            input.home.join(".copilot/copilot-instructions.md"),
            "user instructions",
        ),
        (
            root.join(".github/copilot-instructions.md"),
            "repository instructions",
        ),
    ];
    let path_specific = markdown_under(&root.join(".github/instructions"), ".instructions.md");
    let why = "path-specific: its applyTo front matter decides";
    named.extend(path_specific.into_iter().map(|p| (p, why)));
    for dir in chain(&input.cwd) {
        if dir.starts_with(&root) {
            named.push((dir.join("AGENTS.md"), "agent instructions"));
        }
    }
    for name in ["CLAUDE.md", "GEMINI.md"] {
        named.push((root.join(name), "agent instructions at the root"));
    }
    listing(Profile::Copilot, settings, named)
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

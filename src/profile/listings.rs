//! Documented listings for harnesses agentctx cannot reproduce byte for
//! byte (SPEC 10.7): GitHub Copilot CLI. `explain` only; `exact: false`, no
//! parts, every present file the documentation names.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::registry::{Definition, FlagValues, home};
use super::{
    FileEntry, HarnessReport, HarnessSetting, Profile, ProfileSettings, Status, ValueOrigin, Why,
};
use crate::env::Env;

/// GitHub Copilot CLI's handle in the registry: a documented listing.
pub const COPILOT: Profile = Profile::new(&Copilot);

/// The copilot harness: explain only, no flags, no check.
#[derive(Debug)]
pub struct Copilot;

impl Definition for Copilot {
    fn name(&self) -> &'static str {
        "copilot"
    }
    fn about(&self) -> &'static str {
        "GitHub Copilot CLI: documented behaviour, not byte-exact"
    }
    fn title(&self) -> &'static str {
        "GitHub Copilot CLI"
    }
    fn exact(&self) -> bool {
        false
    }
    fn heading(&self) -> &'static str {
        "copilot settings"
    }
    fn load(&self, env: &Env, _: &FlagValues, cwd: &Path) -> Result<HarnessReport> {
        Ok(copilot(&Input {
            cwd: cwd.to_path_buf(),
            home: home(env)?,
            home_origin: match env.vars.nonempty("HOME") {
                Some(_) => ValueOrigin::Env("HOME".to_owned()),
                None => ValueOrigin::Default,
            },
        }))
    }
}

/// The inputs of a listing.
#[derive(Debug, Clone)]
pub struct Input {
    /// Absolute, lexically normalised.
    pub cwd: PathBuf,
    pub home: PathBuf,
    pub home_origin: ValueOrigin,
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
        HarnessSetting::new(super::show(&input.home), input.home_origin.clone()),
    );
    s
}

/// The repository root: the nearest ancestor-or-self holding `.git`, else cwd.
fn repo_root(cwd: &Path) -> &Path {
    cwd.ancestors()
        .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
        .unwrap_or(cwd)
}

/// GitHub Copilot CLI's custom instructions [D-co], in the order 1.0.102
/// sends them (realagents cases `cp-order`, `cp-order-mixed`): the user
/// file, the repository file, `AGENTS.md`, `CLAUDE.md`, `GEMINI.md` of the
/// root, of the cwd, then of each directory between (root side first), then
/// the path-specific files sorted by path: those for every file sent,
/// the others `on-demand`. Blank files are `empty`.
#[must_use]
pub fn copilot(input: &Input) -> HarnessReport {
    let root = repo_root(&input.cwd).to_path_buf();
    let mut settings = settings(input);
    settings.push(
        "root",
        HarnessSetting::new(super::show(&root), ValueOrigin::Derived),
    );
    let mut report = HarnessReport::new(COPILOT, settings);
    report.exact = false;
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
    let mut dirs: Vec<&Path> = vec![&root];
    if input.cwd != root {
        dirs.push(&input.cwd);
        let mut between: Vec<&Path> = input
            .cwd
            .ancestors()
            .skip(1)
            .take_while(|d| *d != root && d.starts_with(&root))
            .collect();
        between.reverse();
        dirs.extend(between);
    }
    for dir in dirs {
        for name in ["AGENTS.md", "CLAUDE.md", "GEMINI.md"] {
            named.push((dir.join(name), "agent instructions"));
        }
    }
    for (path, rule) in named {
        push_copilot(&mut report, &path, rule, true);
    }
    for path in markdown_under(&root.join(".github/instructions"), ".instructions.md") {
        let text = std::fs::read(&path)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let every_file = applies_to_every_file(&text);
        let rule = if every_file {
            "path-specific, for every file: sent at start, front matter and all"
        } else {
            "path-specific: only named in a table the model may open"
        };
        push_copilot(&mut report, &path, rule, every_file);
    }
    report
}

/// One listed file, if it is a regular file (links followed).
fn push_copilot(report: &mut HarnessReport, path: &Path, rule: &'static str, sent: bool) {
    let Some(size) = super::file_size(path) else {
        return;
    };
    let blank = std::fs::read(path).is_ok_and(|b| String::from_utf8_lossy(&b).trim().is_empty());
    let status = match (blank, sent) {
        (true, _) => Status::Empty,
        (false, true) => Status::Loaded,
        (false, false) => Status::OnDemand,
    };
    let entry = FileEntry::new(super::show(path), Some(size), status);
    report.files.push(entry.why(Why::Rule(rule)));
}

/// Whether copilot sends a path-specific file at start: its front matter's
/// `applyTo` is missing, not a string or list, or every pattern of it (a
/// list, or a string split on `,`, each trimmed) is `**`, `*` or `**/*`
/// (realagents cases `cp-apply-to`, `cp-apply-forms`, `cp-apply-catch-all`).
/// No front matter, or front matter that is not YAML (`applyTo: **`), is
/// the same as no `applyTo`.
#[must_use]
pub fn applies_to_every_file(text: &str) -> bool {
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    if lines.next().map(str::trim_end) != Some("---") {
        return true;
    }
    let mut value = None;
    for line in lines {
        if line.trim_end() == "---" {
            return match value {
                None => true,
                Some(v) => apply_to_patterns(v).is_none_or(|patterns| {
                    patterns
                        .iter()
                        .all(|p| matches!(p.as_str(), "**" | "*" | "**/*"))
                }),
            };
        }
        if let Some(rest) = line.strip_prefix("applyTo:") {
            value = Some(rest.trim());
        }
    }
    true
}

/// The patterns of an `applyTo` value (YAML: a quoted or plain string, or a
/// flow list); None when it is no string or list, or not YAML.
fn apply_to_patterns(value: &str) -> Option<Vec<String>> {
    let scalar = |v: &str| -> Option<String> {
        let v = v.trim();
        if let Some(inner) = v.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
            return Some(inner.replace("\\\"", "\""));
        }
        if let Some(inner) = v.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')) {
            return Some(inner.replace("''", "'"));
        }
        // A plain scalar: `*` starts an alias (not YAML here), a number is
        // no string.
        if v.is_empty()
            || v.starts_with(['*', '&', '!', '[', '{', '|', '>'])
            || v.parse::<f64>().is_ok()
        {
            return None;
        }
        Some(v.to_owned())
    };
    if let Some(inner) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        return inner.split(',').map(scalar).collect();
    }
    let s = scalar(value)?;
    Some(
        s.split(',')
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copilot_sends_path_specific_files_for_every_file_only() {
        let every = |t: &str| applies_to_every_file(t);
        for sent in [
            "no front matter\n",
            "---\napplyTo: \"**\"\n---\nx",
            "---\napplyTo: '**'\n---\nx",
            "---\r\napplyTo: '**'\r\n---\r\nx",
            "---\napplyTo: \"*\"\n---\nx",
            "---\napplyTo: \"**/*\"\n---\nx",
            "---\napplyTo: \" ** \"\n---\nx",
            "---\napplyTo: \"**, *\"\n---\nx",
            "---\napplyTo: [\"**\", \"*\"]\n---\nx",
            "---\napplyTo: \"\"\n---\nx",
            "---\napplyTo: **\n---\nx",
            "---\napplyTo: 7\n---\nx",
            "---\nApplyTo: \"src/**\"\n---\nx",
            "---\ndescription: x\n---\nx",
            "---\napplyTo: \"src/**\"\nunclosed",
            "\n---\napplyTo: \"src/**\"\n---\nx",
        ] {
            assert!(every(sent), "{sent:?}");
        }
        for table in [
            "---\napplyTo: \"src/**\"\n---\nx",
            "---\napplyTo: \"**/*.md\"\n---\nx",
            "---\napplyTo: \"**/**\"\n---\nx",
            "---\napplyTo: \"./**\"\n---\nx",
            "---\napplyTo: \"*.*\"\n---\nx",
            "---\napplyTo: \"**/\"\n---\nx",
            "---\napplyTo: \"src/**,**\"\n---\nx",
            "---\napplyTo: [\"**\", \"src/**\"]\n---\nx",
            "---\napplyTo: src/**\n---\nx",
        ] {
            assert!(!every(table), "{table:?}");
        }
    }
}

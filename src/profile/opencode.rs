//! opencode, the V1 engine (SPEC 10.5): the global file, the first name that
//! matches anywhere in the chain, and the `instructions` of its config files.

use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::{
    FileEntry, Kind, Note, NoteKind, Origin, Part, Profile, ProfileSettings, Report, Setting,
    Status, Vars, Why,
};
use crate::paths;

/// Everything the opencode profile needs, resolved by the caller.
#[derive(Debug, Clone)]
pub struct Input {
    /// Absolute, lexically normalised.
    pub cwd: PathBuf,
    pub home: PathBuf,
    pub config_dir: PathBuf,
    pub config_dir_origin: Origin,
    pub disable_claude: bool,
    pub disable_claude_origin: Origin,
    pub disable_project: bool,
    pub disable_project_origin: Origin,
    /// `--instructions`, replacing the config files'.
    pub instructions: Option<Vec<String>>,
    /// `$OPENCODE_CONFIG`, absolute.
    pub extra_config: Option<PathBuf>,
    /// For `{env:NAME}` in config files.
    pub vars: Vars,
}

/// Rule 1: the nearest ancestor-or-self holding `.git`, else `/`.
#[must_use]
pub fn worktree(cwd: &Path) -> PathBuf {
    cwd.ancestors()
        .find(|d| super::metadata(&d.join(".git")).is_ok())
        .unwrap_or(Path::new("/"))
        .to_path_buf()
}

/// `dir` and its ancestors up to `top` inclusive, nearest first (only `dir`
/// when `top` is not an ancestor).
fn up_to<'a>(dir: &'a Path, top: &'a Path) -> Vec<&'a Path> {
    let mut out = Vec::new();
    for d in dir.ancestors() {
        out.push(d);
        if d == top {
            break;
        }
    }
    out
}

/// Whether a path exists (links followed); None for an error other than ENOENT.
fn exists(path: &Path) -> Option<bool> {
    match super::metadata(path) {
        Ok(_) => Some(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Some(false),
        Err(_) => None,
    }
}

/// What opencode loads for `input.cwd`.
///
/// # Errors
///
/// A config file that exists but cannot be read or parsed, or whose
/// `instructions` is not a list of strings.
pub fn load(input: &Input) -> Result<Report> {
    let tree = worktree(&input.cwd);
    let (instructions, origin) = instructions(input, &tree)?;
    let mut settings = ProfileSettings::default();
    settings.push(
        "config_dir",
        Setting::new(
            super::show(&input.config_dir),
            input.config_dir_origin.clone(),
        ),
    );
    settings.push(
        "disable_claude_code_prompt",
        Setting::new(input.disable_claude, input.disable_claude_origin.clone()),
    );
    settings.push(
        "disable_project_config",
        Setting::new(input.disable_project, input.disable_project_origin.clone()),
    );
    settings.push(
        "worktree",
        Setting::new(super::show(&tree), Origin::Derived),
    );
    settings.push("instructions", Setting::new(instructions.clone(), origin));
    let mut report = Report::new(Profile::Opencode, settings);

    let mut paths: Vec<PathBuf> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut add = |p: PathBuf, paths: &mut Vec<PathBuf>| {
        if seen.insert(p.clone()) {
            paths.push(p);
        }
    };
    let globals = [
        Some(input.config_dir.join("AGENTS.md")),
        (!input.disable_claude).then(|| input.home.join(".claude/CLAUDE.md")),
    ];
    if let Some(g) = globals
        .into_iter()
        .flatten()
        .find(|p| exists(p) == Some(true))
    {
        add(g, &mut paths);
    }
    if !input.disable_project {
        for p in project(input, &tree, &mut report) {
            add(p, &mut paths);
        }
    }
    let mut urls = Vec::new();
    for entry in &instructions {
        for p in resolve_entry(input, &tree, entry, &mut report, &mut urls) {
            add(p, &mut paths);
        }
    }
    let mut items = Vec::new();
    for path in &paths {
        let shown = super::show(path);
        let size = super::file_size(path);
        match read(path) {
            Ok(text) if text.is_empty() => {
                report
                    .files
                    .push(FileEntry::new(shown, size, Status::Empty));
            }
            Ok(text) => {
                items.push(format!("Instructions from: {shown}\n{text}"));
                report
                    .files
                    .push(FileEntry::new(shown, size, Status::Loaded));
            }
            Err(e) => {
                let why = Why::Error(crate::discovery::os_error(&e));
                report
                    .files
                    .push(FileEntry::new(shown, size, Status::Unreadable).why(why));
            }
        }
    }
    for url in urls {
        report
            .files
            .push(FileEntry::new(url, None, Status::UrlNotFetched));
        report.exact = false;
    }
    if !items.is_empty() {
        report.parts.push(Part {
            kind: "system".to_owned(),
            text: items.join("\n"),
        });
    }
    Ok(report)
}

/// Rule 4: the first name with a match anywhere in the chain wins for the
/// whole chain; later names' matches are noted (a CLAUDE.md ignored).
fn project(input: &Input, tree: &Path, report: &mut Report) -> Vec<PathBuf> {
    let mut names = vec!["AGENTS.md"];
    if !input.disable_claude {
        names.push("CLAUDE.md");
    }
    names.push("CONTEXT.md");
    let chain = up_to(&input.cwd, tree);
    let mut winner: Option<(Vec<PathBuf>, &str)> = None;
    for name in names {
        let mut found = Vec::new();
        for dir in &chain {
            let p = dir.join(name);
            match exists(&p) {
                Some(true) => found.push(p),
                Some(false) => {}
                None => {
                    found.clear();
                    break;
                }
            }
        }
        match &winner {
            None if !found.is_empty() => winner = Some((found, name)),
            Some((won, by)) => {
                for p in found {
                    report.notes.push(Note {
                        path: super::show(&p),
                        kind: NoteKind::IgnoredName {
                            by: super::show(&won[0]),
                            name: (*by).to_owned(),
                        },
                    });
                }
            }
            None => {}
        }
    }
    winner.map(|(found, _)| found).unwrap_or_default()
}

/// Rule 5: one `instructions` entry's files; URLs are collected, globs noted.
fn resolve_entry(
    input: &Input,
    tree: &Path,
    entry: &str,
    report: &mut Report,
    urls: &mut Vec<String>,
) -> Vec<PathBuf> {
    if entry.starts_with("https://") || entry.starts_with("http://") {
        urls.push(entry.to_owned());
        return Vec::new();
    }
    if entry.contains(['*', '?', '[', ']', '{', '}']) {
        report.exact = false;
        report.notes.push(Note {
            path: entry.to_owned(),
            kind: NoteKind::Unresolved,
        });
        return Vec::new();
    }
    let expanded = match entry.strip_prefix("~/") {
        Some(rest) => input.home.join(rest),
        None => PathBuf::from(entry),
    };
    let is_file = |p: &Path| matches!(super::stat(p), Ok(Kind::File(_)));
    if expanded.is_absolute() {
        let p = paths::normalize(Path::new("/"), &expanded);
        return if is_file(&p) { vec![p] } else { Vec::new() };
    }
    let dirs = if input.disable_project {
        vec![input.config_dir.as_path()]
    } else {
        up_to(&input.cwd, tree)
    };
    dirs.into_iter()
        .map(|d| paths::normalize(d, &expanded))
        .filter(|p| is_file(p))
        .collect()
}

/// Rule 7: UTF-8 with U+FFFD, one leading BOM dropped.
fn read(path: &Path) -> io::Result<String> {
    let bytes = super::read_file(path, None)?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned())
}

/// Rule 5: the `instructions` of every config file, concatenated, first
/// occurrence kept; or the flag's.
fn instructions(input: &Input, tree: &Path) -> Result<(Vec<String>, Origin)> {
    if let Some(flag) = &input.instructions {
        return Ok((flag.clone(), Origin::Flag));
    }
    let mut files = vec![
        input.config_dir.join("config.json"),
        input.config_dir.join("opencode.json"),
        input.config_dir.join("opencode.jsonc"),
    ];
    files.extend(input.extra_config.clone());
    if !input.disable_project {
        let mut chain = up_to(&input.cwd, tree);
        chain.reverse();
        for name in ["opencode.jsonc", "opencode.json"] {
            files.extend(chain.iter().map(|d| d.join(name)));
        }
    }
    let mut entries: Vec<String> = Vec::new();
    let mut from = Vec::new();
    for file in files {
        let Some(list) = config_instructions(&file, &input.vars)? else {
            continue;
        };
        from.push(super::show(&file));
        entries.extend(list);
    }
    let out = super::first_occurrences(entries);
    let origin = match from.len() {
        0 => Origin::Default,
        _ => Origin::Config(from.join(",")),
    };
    Ok((out, origin))
}

/// The `instructions` list of one config file; None when the file does not
/// exist or has no such key.
fn config_instructions(path: &Path, vars: &Vars) -> Result<Option<Vec<String>>> {
    let bytes = match super::bounded::read_config(path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::EISDIR) => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let text = String::from_utf8_lossy(&bytes);
    let text = substitute_env(&text, vars);
    let shown = path.display().to_string();
    let value = super::jsonc::parse(&shown, &text, true)?;
    match value.get("instructions") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                other => bail!("{shown}: instructions must be a list of strings, got {other}"),
            })
            .collect::<Result<Vec<_>>>()
            .map(Some),
        Some(other) => bail!("{shown}: instructions must be a list of strings, got {other}"),
    }
}

/// `{env:NAME}` -> the variable's value, or `""` when unset.
#[must_use]
pub fn substitute_env(text: &str, vars: &Vars) -> String {
    super::replace_refs(text, "{env:", |name| {
        (!name.is_empty()).then(|| vars.get(name).unwrap_or("").to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_references_are_substituted_or_emptied() {
        let vars = Vars([("A".to_owned(), "x".to_owned())].into_iter().collect());
        assert_eq!(
            substitute_env("{env:A}/{env:B}|{env:}|{env:A", &vars),
            "x/|{env:}|{env:A"
        );
    }

    #[test]
    fn up_to_stops_at_the_top() {
        let got = up_to(Path::new("/a/b/c"), Path::new("/a"));
        assert_eq!(
            got,
            [Path::new("/a/b/c"), Path::new("/a/b"), Path::new("/a")]
        );
        assert_eq!(up_to(Path::new("/a"), Path::new("/")).len(), 2);
    }
}

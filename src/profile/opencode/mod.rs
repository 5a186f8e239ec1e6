//! opencode, the V1 engine (SPEC 10.5): the global file, the first name that
//! matches anywhere in the chain, and the `instructions` of its config files.

mod harness;

pub use harness::{PROFILE, input};
use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::{
    FileEntry, HarnessReport, HarnessSetting, Kind, Note, NoteKind, Part, ProfileSettings, Status,
    ValueOrigin, Vars, Why, glob,
};
use crate::discovery::js_trim;

/// Everything the opencode profile needs, resolved by the caller.
#[derive(Debug, Clone)]
pub struct Input {
    /// Absolute, links resolved (10.5.1).
    pub cwd: PathBuf,
    pub home: PathBuf,
    /// X: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`.
    pub xdg_dir: PathBuf,
    pub xdg_dir_origin: ValueOrigin,
    /// `OPENCODE_CONFIG_DIR` (or `--opencode-config-dir`), when set.
    pub config_dir: Option<(PathBuf, ValueOrigin)>,
    pub disable_claude: bool,
    pub disable_claude_origin: ValueOrigin,
    pub disable_project: bool,
    pub disable_project_origin: ValueOrigin,
    /// `--instructions`, replacing the config files'.
    pub instructions: Option<Vec<String>>,
    /// `$OPENCODE_CONFIG`, absolute.
    pub extra_config: Option<PathBuf>,
    /// `$OPENCODE_CONFIG_CONTENT` is set and not empty (not modelled).
    pub config_content: bool,
    /// For `{env:NAME}` in config files.
    pub vars: Vars,
}

impl Input {
    /// C: `OPENCODE_CONFIG_DIR` when set, else X (rule 1).
    #[must_use]
    pub fn global_dir(&self) -> &Path {
        self.config_dir.as_ref().map_or(&self.xdg_dir, |(d, _)| d)
    }
}

/// Rule 1: the nearest ancestor-or-self holding `.git`, else `/`.
#[must_use]
pub fn worktree(cwd: &Path) -> PathBuf {
    cwd.ancestors()
        .find(|d| super::metadata(d.join(".git")).is_ok())
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
pub fn load(input: &Input) -> Result<HarnessReport> {
    let tree = worktree(&input.cwd);
    let mut warnings = Vec::new();
    let mut exact = true;
    let (instructions, origin) = instructions(input, &tree, &mut warnings, &mut exact)?;
    let global_dir = input.global_dir();
    let settings = settings(input, &tree, &instructions, origin);
    let mut report = HarnessReport::new(PROFILE, settings);
    report.warnings = warnings;
    report.exact = exact;

    let mut paths: Vec<PathBuf> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut add = |p: PathBuf, paths: &mut Vec<PathBuf>| {
        if seen.insert(p.clone()) {
            paths.push(p);
        }
    };
    let globals = [
        Some(global_dir.join("AGENTS.md")),
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
    let items = read_items(&paths, &mut report);
    // Rule 8: opencode appends each fetched URL's item after the files;
    // agentctx never fetches, so its part is the real one without them.
    for url in urls {
        report.warnings.push(url_warning(&url));
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

/// The settings `load` reports, each with its origin.
fn settings(
    input: &Input,
    tree: &Path,
    instructions: &[String],
    origin: ValueOrigin,
) -> ProfileSettings {
    let global_dir = input.global_dir();
    let mut settings = ProfileSettings::default();
    let global_origin = input
        .config_dir
        .as_ref()
        .map_or(input.xdg_dir_origin.clone(), |(_, o)| o.clone());
    settings.push(
        "config_dir",
        HarnessSetting::new(super::show(global_dir), global_origin),
    );
    settings.push(
        "xdg_config_dir",
        HarnessSetting::new(super::show(&input.xdg_dir), input.xdg_dir_origin.clone()),
    );
    settings.push(
        "disable_claude_code_prompt",
        HarnessSetting::new(input.disable_claude, input.disable_claude_origin.clone()),
    );
    settings.push(
        "disable_project_config",
        HarnessSetting::new(input.disable_project, input.disable_project_origin.clone()),
    );
    settings.push(
        "worktree",
        HarnessSetting::new(super::show(tree), ValueOrigin::Derived),
    );
    settings.push(
        "instructions",
        HarnessSetting::new(instructions.to_vec(), origin),
    );
    settings
}

/// Reads each of `paths` into its `Instructions from:` item (empty files
/// listed, no item), listing every file in `report`.
fn read_items(paths: &[PathBuf], report: &mut HarnessReport) -> Vec<String> {
    let mut items = Vec::new();
    for path in paths {
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
    items
}

/// Rule 4: the first name with a match anywhere in the chain wins for the
/// whole chain; later names' matches are noted (a CLAUDE.md ignored).
fn project(input: &Input, tree: &Path, report: &mut HarnessReport) -> Vec<PathBuf> {
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

/// Rule 6: one `instructions` entry's files; URLs are collected.
fn resolve_entry(
    input: &Input,
    tree: &Path,
    entry: &str,
    report: &mut HarnessReport,
    urls: &mut Vec<String>,
) -> Vec<PathBuf> {
    if entry.starts_with("https://") || entry.starts_with("http://") {
        urls.push(entry.to_owned());
        return Vec::new();
    }
    if glob::has_magic(entry) {
        // Judged by its own text for secrets (check::mark_secrets).
        report.notes.push(Note {
            path: entry.to_owned(),
            kind: NoteKind::Glob,
        });
    }
    if glob::has_extglob(entry) {
        report.exact = false;
        report.warnings.push(format!(
            "instructions entry {entry}: an extglob; opencode matches it, agentctx reads it as plain glob characters (output not exact)"
        ));
    }
    let expanded = match entry.strip_prefix("~/") {
        Some(rest) => input.home.join(rest),
        None => PathBuf::from(entry),
    };
    let searches: Vec<(PathBuf, String)> = if expanded.is_absolute() {
        // The pattern is the last segment; the directory is taken literally.
        let shown = super::show(&expanded);
        let (dir, base) = shown.rsplit_once('/').unwrap_or(("", &shown));
        let dir = if dir.is_empty() { "/" } else { dir };
        vec![(PathBuf::from(dir), base.to_owned())]
    } else if input.disable_project {
        vec![(input.global_dir().to_path_buf(), entry.to_owned())]
    } else {
        up_to(&input.cwd, tree)
            .into_iter()
            .map(|d| (d.to_path_buf(), entry.to_owned()))
            .collect()
    };
    let mut out = Vec::new();
    for (dir, pattern) in searches {
        let found = glob::glob(&dir, &pattern);
        if found.timing {
            report.exact = false;
            report.warnings.push(format!(
                "instructions entry {entry}: {} files match in {}; opencode's order among them depends on the timing of its reads, agentctx lists them breadth first (output not exact)",
                found.files.len(),
                super::show(&dir)
            ));
        }
        out.extend(found.files);
    }
    out
}

/// Rule 7: UTF-8 with U+FFFD, one leading BOM dropped.
fn read(path: &Path) -> io::Result<String> {
    let bytes = super::read_file(path, None)?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned())
}

/// Rule 5's layers, in order: the XDG files, `$OPENCODE_CONFIG`, the
/// project files from the worktree down to the cwd, then each config
/// directory once (`.opencode` from the cwd up, `~/.opencode`,
/// `$OPENCODE_CONFIG_DIR`).
fn layers(input: &Input, tree: &Path) -> Vec<PathBuf> {
    let mut files = vec![
        input.xdg_dir.join("config.json"),
        input.xdg_dir.join("opencode.json"),
        input.xdg_dir.join("opencode.jsonc"),
    ];
    files.extend(input.extra_config.clone());
    let chain = up_to(&input.cwd, tree);
    let mut dirs: Vec<PathBuf> = Vec::new();
    if !input.disable_project {
        for d in chain.iter().rev() {
            files.push(d.join("opencode.json"));
            files.push(d.join("opencode.jsonc"));
        }
        dirs.extend(chain.iter().map(|d| d.join(".opencode")));
    }
    dirs.push(input.home.join(".opencode"));
    dirs.extend(input.config_dir.as_ref().map(|(d, _)| d.clone()));
    for dir in super::first_occurrences(dirs.iter().map(|d| super::show(d))) {
        let dir = PathBuf::from(dir);
        // One stat for a directory that is not there (the common case).
        if matches!(super::stat(&dir), Ok(Kind::Dir)) {
            files.push(dir.join("opencode.json"));
            files.push(dir.join("opencode.jsonc"));
        }
    }
    files
}

/// Rule 5: the `instructions` of every config layer, concatenated, first
/// occurrence kept; or the flag's (then no layer is read). What agentctx
/// does not read makes the output inexact, with a warning.
fn instructions(
    input: &Input,
    tree: &Path,
    warnings: &mut Vec<String>,
    exact: &mut bool,
) -> Result<(Vec<String>, ValueOrigin)> {
    if let Some(flag) = &input.instructions {
        return Ok((flag.clone(), ValueOrigin::Flag));
    }
    if input.config_content {
        *exact = false;
        warnings.push(
            "OPENCODE_CONFIG_CONTENT is set: opencode reads it as one more config layer, agentctx does not (output not exact)"
                .to_owned(),
        );
    }
    let mut entries: Vec<String> = Vec::new();
    let mut from = Vec::new();
    // A missing layer or a directory is skipped; one that is neither a
    // regular file nor a directory (a FIFO, a device: opencode would block
    // or read forever) is exit 2 naming it.
    for file in layers(input, tree) {
        let Some(list) = config_instructions(&file, &input.home, &input.vars)? else {
            continue;
        };
        from.push(super::show(&file));
        entries.extend(list);
    }
    let out = super::first_occurrences(entries);
    let origin = match from.len() {
        0 => ValueOrigin::Default,
        _ => ValueOrigin::Config(from.join(",")),
    };
    Ok((out, origin))
}

/// One config layer's `instructions` list; None when the file does not
/// exist or has no such key. `{env:NAME}`, then `{file:PATH}` are replaced
/// in its text first, as opencode does.
fn config_instructions(path: &Path, home: &Path, vars: &Vars) -> Result<Option<Vec<String>>> {
    let bytes = match super::bounded::read_config(path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::EISDIR) => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let text = String::from_utf8_lossy(&bytes);
    let text = substitute_env(&text, vars);
    let text = substitute_files(&text, path, home)?;
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

/// opencode's `{file:PATH}` in a config layer's text (after `{env:...}`):
/// each match, unless the first line holding it starts with `//`, is
/// replaced (once, in order) by the file's trimmed text as a JSON string's
/// inside; PATH is `~/`-expanded, else taken against the layer's
/// directory. A missing file makes the config invalid, as it does for
/// opencode (realagents case `oc-file-ref`).
fn substitute_files(text: &str, config: &Path, home: &Path) -> Result<String> {
    let mut matches = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("{file:") {
        let after = &rest[i..];
        match after[6..].find('}') {
            Some(end) if end > 0 => {
                matches.push(after[..=6 + end].to_owned());
                rest = &after[6 + end + 1..];
            }
            _ => rest = &after[6..],
        }
    }
    if matches.is_empty() {
        return Ok(text.to_owned());
    }
    let dir = config.parent().unwrap_or(Path::new("/"));
    let shown = config.display();
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = text.to_owned();
    for m in matches {
        let commented = lines
            .iter()
            .find(|line| line.contains(&m))
            .is_some_and(|line| js_trim(line).starts_with("//"));
        if commented {
            continue;
        }
        let raw = &m[6..m.len() - 1];
        let target = match raw.strip_prefix("~/") {
            Some(rest) => home.join(rest),
            None => crate::paths::normalize(dir, Path::new(raw)),
        };
        let content = match super::read_file(&target, None) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => bail!(
                "{shown}: bad file reference: \"{m}\" {} does not exist",
                target.display()
            ),
            Err(e) => bail!("{shown}: bad file reference: \"{m}\": {e}"),
        };
        let quoted = serde_json::to_string(js_trim(&content)).unwrap_or_default();
        let inner = &quoted[1..quoted.len() - 1];
        if let Some(at) = out.find(&m) {
            let replacement = js_replacement(inner, &m, &out[..at], &out[at + m.len()..]);
            out.replace_range(at..at + m.len(), &replacement);
        }
    }
    Ok(out)
}

/// A `String.prototype.replace` replacement string with its `$` patterns
/// (`$$`, `$&`, `` $` ``, `$'`) applied.
fn js_replacement(replacement: &str, matched: &str, before: &str, after: &str) -> String {
    let mut out = String::with_capacity(replacement.len());
    let mut chars = replacement.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '$' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('$') => out.push('$'),
            Some('&') => out.push_str(matched),
            Some('`') => out.push_str(before),
            Some('\'') => out.push_str(after),
            _ => {
                out.push('$');
                continue;
            }
        }
        chars.next();
    }
    out
}

/// `{env:NAME}` -> the variable's value, or `""` when unset.
#[must_use]
pub fn substitute_env(text: &str, vars: &Vars) -> String {
    super::replace_refs(text, "{env:", |name| {
        (!name.is_empty()).then(|| vars.get(name).unwrap_or("").to_owned())
    })
}

/// The warning of an `instructions` URL: opencode fetches it, agentctx
/// does not.
#[must_use]
pub fn url_warning(url: &str) -> String {
    format!(
        "instructions entry {url}: a URL; opencode fetches it at start and appends what it gets after the files, agentctx does not (output not exact)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_references_are_substituted_or_emptied() {
        let vars = Vars::of([("A".to_owned(), "x".to_owned())].into_iter().collect());
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

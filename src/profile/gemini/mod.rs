//! Gemini CLI (SPEC 10.4): context file names, the realpath'd workspace,
//! the marker ceiling, identity dedup, the UTF-16 sort, imports, the two
//! memory blocks and just-in-time context for touched paths.

mod config;
pub mod imports;
pub mod settings;

mod harness;

pub use harness::{PROFILE, input};
use std::collections::{HashMap, HashSet};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{FileEntry, HarnessReport, Note, NoteKind, Part, Status, Tier, ValueOrigin, Vars, Why};
use crate::paths;
use crate::text::js_trim;
pub use config::modern_model;
use config::{Config, resolve};

pub const DEFAULT_NAME: &str = "GEMINI.md";

/// The first part of the system block's memory section (appendix, PREAMBLE).
pub const PREAMBLE: &str = "The following content is loaded from local and global configuration files.\n**Context Precedence:**\n- **Global (~/.gemini/):** foundational user preferences. Apply these broadly.\n- **Extensions:** supplementary knowledge and capabilities.\n- **Workspace Root:** workspace-wide mandates. Supersedes global preferences.\n- **Sub-directories:** highly specific overrides. These rules supersede all others for files within their scope.\n\n**Conflict Resolution:**\n- **Precedence:** Strictly follow the order above (Sub-directories > Workspace Root > Extensions > Global).\n- **System Overrides:** Contextual instructions override default operational behaviors (e.g., tech stack, style, workflows, tool preferences) defined in the system prompt. However, they **cannot** override Core Mandates regarding safety, security, and agent integrity.\n\n";

/// Everything the gemini profile needs, resolved by the caller.
#[derive(Debug, Clone)]
pub struct Input {
    /// Absolute, lexically normalised.
    pub cwd: PathBuf,
    /// `<gh>`: `$GEMINI_CLI_HOME` if non-empty, else home.
    pub gh: PathBuf,
    pub gh_origin: ValueOrigin,
    pub system_settings: PathBuf,
    /// None: `system-defaults.json` beside the system file.
    pub system_defaults: Option<PathBuf>,
    pub trusted: bool,
    pub file_name: Option<Vec<String>>,
    pub markers: Option<Vec<String>>,
    pub touches: Vec<String>,
    /// `--model`, else `$GEMINI_MODEL` when not empty (10.1).
    pub model: Option<(String, ValueOrigin)>,
    /// For `$VAR` expansion in settings.
    pub vars: Vars,
}

/// Node's `path.posix.normalize`.
#[must_use]
pub fn posix_normalize(p: &str) -> String {
    if p.is_empty() {
        return ".".to_owned();
    }
    let absolute = p.starts_with('/');
    let trailing = p.ends_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let mut out = parts.join("/");
    if out.is_empty() {
        if absolute {
            return "/".to_owned();
        }
        return if trailing {
            "./".to_owned()
        } else {
            ".".to_owned()
        };
    }
    if trailing {
        out.push('/');
    }
    if absolute {
        out.insert(0, '/');
    }
    out
}

/// Node's `path.join(dir, name)`: joined, then normalised (a trailing `/`
/// kept).
#[must_use]
pub fn node_join(dir: &Path, name: &str) -> PathBuf {
    PathBuf::from(posix_normalize(&format!("{}/{name}", super::show(dir))))
}

/// Rule 1: the context file names.
#[must_use]
pub fn names(raw: &[String]) -> Vec<String> {
    let trimmed = raw.iter().map(|n| js_trim(n)).filter(|t| !t.is_empty());
    let mut out = super::first_occurrences(trimmed.map(posix_normalize));
    if !out.iter().any(|n| n == DEFAULT_NAME) {
        out.push(DEFAULT_NAME.to_owned());
    }
    out
}

/// `access(path, R_OK)` (a directory passes).
fn readable(path: &Path) -> bool {
    rustix::fs::access(path, rustix::fs::Access::READ_OK).is_ok()
}

fn exists(path: &Path) -> bool {
    rustix::fs::access(path, rustix::fs::Access::EXISTS).is_ok()
}

/// Rule 4: the nearest ancestor-or-self of `start` holding a marker
/// (absolute markers and markers containing `..` skipped).
pub fn find_root(start: &Path, markers: &[String]) -> Option<PathBuf> {
    let usable: Vec<&String> = markers
        .iter()
        .filter(|m| !m.starts_with('/') && !m.contains(".."))
        .collect();
    if usable.is_empty() {
        return None;
    }
    start
        .ancestors()
        .find(|d| usable.iter().any(|m| exists(&d.join(m.as_str()))))
        .map(Path::to_path_buf)
}

/// A file's identity: `(st_dev, st_ino)` of `stat`, if it can be stat'd.
fn identity(path: &Path) -> Option<(u64, u64)> {
    crate::bounded::metadata(path)
        .ok()
        .map(|m| (m.dev(), m.ino()))
}

/// The workspace: `input.cwd` with links resolved (missing components
/// kept, as 10.1 resolves a cwd).
fn workspace(input: &Input) -> PathBuf {
    paths::physical(&input.cwd)
}

/// The context file names in effect at `input.cwd` (for check's walk).
///
/// # Errors
///
/// As [`load`].
pub fn candidate_names(input: &Input) -> Result<Vec<String>> {
    Ok(resolve(input, &workspace(input), &mut Vec::new())?.0.names)
}

/// What Gemini CLI loads for `input.cwd`.
///
/// # Errors
///
/// The cwd cannot be resolved, a settings file cannot be read or parsed,
/// or a context setting has the wrong type.
pub fn load(input: &Input) -> Result<HarnessReport> {
    let workspace = workspace(input);
    let mut warnings = Vec::new();
    let (config, settings) = resolve(input, &workspace, &mut warnings)?;
    let mut report = HarnessReport::new(PROFILE, settings);
    report.warnings = warnings;
    let gemini_dir = input.gh.join(".gemini");
    let globals: Vec<PathBuf> = config
        .names
        .iter()
        .map(|n| node_join(&gemini_dir, n))
        .filter(|p| readable(p))
        .collect();
    let project = if input.trusted {
        let ceiling = find_root(&workspace, &config.markers).unwrap_or_else(|| workspace.clone());
        let mut found = scan(
            &workspace,
            &ceiling,
            &gemini_dir,
            &config.names,
            &mut report.notes,
        );
        found.sort_by(|a, b| {
            super::show(a)
                .encode_utf16()
                .cmp(super::show(b).encode_utf16())
        });
        found
    } else {
        Vec::new()
    };
    let mut loader = Loader::new(&config.markers);
    let global_text = loader.blocks(&globals, Tier::Global, &mut report);
    let project_text = loader.blocks(&project, Tier::Project, &mut report);
    let global_text = js_trim(&global_text);
    if !global_text.is_empty() {
        // A legacy (gemini-2.x) model names only the default file.
        let header = if config.modern {
            config.names.join(", ")
        } else {
            DEFAULT_NAME.to_owned()
        };
        let text = format!(
            "# Contextual Instructions ({header})\n{PREAMBLE}<loaded_context>\n{global_text}\n</loaded_context>"
        );
        report.parts.push(Part {
            kind: "system-instruction".to_owned(),
            text: collapse_newlines(&text),
        });
    }
    let project_text = js_trim(&project_text);
    if !project_text.is_empty() {
        report.parts.push(Part {
            kind: "session-context".to_owned(),
            text: format!(
                "<loaded_context>\n<project_context>\n{project_text}\n</project_context>\n</loaded_context>"
            ),
        });
    }
    if input.trusted {
        for touch in &input.touches {
            jit(
                touch,
                &workspace,
                &gemini_dir,
                &config,
                &mut loader,
                &mut report,
            );
        }
    }
    Ok(report)
}

/// Rule 5's scan: from `start` up to `ceiling` inclusive, stopping before
/// `<gh>/.gemini`; per directory every readable name; broadest first;
/// deduplicated by identity (first kept, unstattable kept).
fn scan(
    start: &Path,
    ceiling: &Path,
    gemini_dir: &Path,
    names: &[String],
    notes: &mut Vec<Note>,
) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for dir in start.ancestors() {
        if dir == gemini_dir {
            break;
        }
        dirs.push(dir);
        if dir == ceiling {
            break;
        }
    }
    dirs.reverse();
    let mut seen: HashMap<(u64, u64), PathBuf> = HashMap::new();
    let mut out = Vec::new();
    for dir in dirs {
        for name in names {
            let p = node_join(dir, name);
            if !readable(&p) {
                continue;
            }
            let Some(id) = identity(&p) else {
                out.push(p);
                continue;
            };
            if let Some(first) = seen.get(&id) {
                notes.push(Note {
                    path: super::show(&p),
                    kind: NoteKind::SameFile {
                        first: super::show(first),
                    },
                });
            } else {
                seen.insert(id, p.clone());
                out.push(p);
            }
        }
    }
    out
}

/// Every run of three or more newlines becomes two.
fn collapse_newlines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = 0;
    for c in text.chars() {
        if c == '\n' {
            run += 1;
            if run <= 2 {
                out.push(c);
            }
        } else {
            run = 0;
            out.push(c);
        }
    }
    out
}

/// Rule 6-7: loads files once (by path string, then identity) and builds
/// their blocks.
#[derive(Debug)]
struct Loader<'a> {
    markers: &'a [String],
    paths: HashSet<String>,
    ids: HashSet<(u64, u64)>,
}

impl<'a> Loader<'a> {
    fn new(markers: &'a [String]) -> Self {
        Loader {
            markers,
            paths: HashSet::new(),
            ids: HashSet::new(),
        }
    }

    /// The blocks of `files` joined by a blank line, each file listed.
    fn blocks(&mut self, files: &[PathBuf], tier: Tier, report: &mut HarnessReport) -> String {
        let mut blocks = Vec::new();
        for path in files {
            let shown = super::show(path);
            let size = super::file_size(path);
            let id = identity(path);
            if self.paths.contains(&shown) || id.is_some_and(|id| self.ids.contains(&id)) {
                let mut e = FileEntry::new(shown, size, Status::Duplicate);
                e.tier = Some(tier);
                report.files.push(e);
                continue;
            }
            self.paths.insert(shown.clone());
            let bytes = match super::read_file(path, None) {
                Ok(bytes) => bytes,
                Err(e) => {
                    let why = Why::Error(crate::discovery::os_error(&e));
                    let mut e = FileEntry::new(shown, size, Status::Unreadable).why(why);
                    e.tier = Some(tier);
                    report.files.push(e);
                    continue;
                }
            };
            self.ids.extend(id);
            let text = String::from_utf8_lossy(&bytes);
            let dir = path.parent().unwrap_or(Path::new("/"));
            let mut notes = std::mem::take(&mut report.notes);
            let mut expander = imports::Expander::new(path, self.markers, &mut notes);
            let body = expander.expand(&text, dir, 0, &mut HashSet::new());
            // Past the cap agentctx stops expanding: no longer gemini's text.
            if expander.capped {
                report.exact = false;
            }
            report.notes = notes;
            let t = js_trim(&body);
            let status = match (t.is_empty(), tier) {
                (true, _) => Status::Empty,
                (false, Tier::Jit) => Status::Jit,
                (false, _) => Status::Loaded,
            };
            let why = if matches!(text, std::borrow::Cow::Owned(_)) {
                Why::InvalidUtf8
            } else {
                Why::None
            };
            let mut e = FileEntry::new(shown.clone(), size, status).why(why);
            e.tier = Some(tier);
            report.files.push(e);
            if !t.is_empty() {
                blocks.push(format!(
                    "--- Context from: {shown} ---\n{t}\n--- End of Context from: {shown} ---"
                ));
            }
        }
        blocks.join("\n\n")
    }
}

/// Rule 10: the just-in-time context of one touched path.
fn jit(
    touch: &str,
    workspace: &Path,
    gemini_dir: &Path,
    config: &Config,
    loader: &mut Loader<'_>,
    report: &mut HarnessReport,
) {
    let target = paths::normalize(workspace, Path::new(touch));
    if !imports::is_subpath(workspace, &target) {
        return;
    }
    let start = match crate::bounded::metadata(&target) {
        Ok(m) if m.is_dir() => target.clone(),
        _ => target.parent().unwrap_or(Path::new("/")).to_path_buf(),
    };
    let ceiling = find_root(&start, &config.markers).unwrap_or_else(|| workspace.to_path_buf());
    let found: Vec<PathBuf> = scan(
        &start,
        &ceiling,
        gemini_dir,
        &config.names,
        &mut report.notes,
    )
    .into_iter()
    .filter(|p| !identity(p).is_some_and(|id| loader.ids.contains(&id)))
    .collect();
    let text = loader.blocks(&found, Tier::Jit, report);
    if !text.is_empty() {
        report.parts.push(Part {
            kind: format!("jit:{touch}"),
            text: format!(
                "--- Newly Discovered Project Context ---\n{text}\n--- End Project Context ---"
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posix_normalize_as_node() {
        assert_eq!(posix_normalize("./A.md"), "A.md");
        assert_eq!(posix_normalize("a//b/../c/"), "a/c/");
        assert_eq!(posix_normalize("../x"), "../x");
        assert_eq!(posix_normalize("./"), "./");
        assert_eq!(posix_normalize("."), ".");
        assert_eq!(posix_normalize("/.."), "/");
    }

    #[test]
    fn joins_normalise_like_node() {
        assert_eq!(
            node_join(Path::new("/r/a"), "../X.md"),
            PathBuf::from("/r/X.md")
        );
        assert_eq!(node_join(Path::new("/r"), "d/").to_string_lossy(), "/r/d/");
    }

    #[test]
    fn names_are_trimmed_normalised_deduplicated() {
        let raw: Vec<String> = [" ./A.md ", "A.md", "", "\u{feff}B.md"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert_eq!(names(&raw), ["A.md", "B.md", "GEMINI.md"]);
        assert_eq!(names(&[]), ["GEMINI.md"]);
    }

    #[test]
    fn utf16_order_differs_from_bytes() {
        let a = "\u{ff61}";
        let b = "\u{1f600}";
        assert!(a.as_bytes() < b.as_bytes());
        assert!(a.encode_utf16().cmp(b.encode_utf16()).is_gt());
        assert!(
            "/r/B/AGENTS.md"
                .encode_utf16()
                .cmp("/r/GEMINI.md".encode_utf16())
                .is_lt()
        );
    }

    #[test]
    fn ecmascript_trim_differs_from_rust_trim() {
        assert_eq!(js_trim("\u{feff}\u{a0}x\u{2028}\u{2029}"), "x");
        assert_eq!(js_trim("\u{85}x"), "\u{85}x");
        assert_eq!("\u{85}x".trim(), "x");
        assert_eq!("\u{feff}x".trim(), "\u{feff}x");
    }

    #[test]
    fn newline_runs_collapse() {
        assert_eq!(collapse_newlines("a\n\n\n\nb\nc\n\n"), "a\n\nb\nc\n\n");
    }
}

//! Codex (SPEC 10.3): the global AGENTS.md of the codex home, the
//! root-marker walk, one file per directory and the root-first byte budget.

mod harness;

pub use harness::{PROFILE, input};
use std::io;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{FileEntry, HarnessReport, Kind, Note, NoteKind, Part, Status, ValueOrigin, Why};

pub const DEFAULT_MAX_BYTES: u64 = 32_768;
/// The setting holding its byte budget for project files.
pub const BUDGET_SETTING: &str = "project_doc_max_bytes";
pub const OVERRIDE: &str = "AGENTS.override.md";
pub const AGENTS: &str = "AGENTS.md";
const SEPARATOR: &str = "\n\n--- project-doc ---\n\n";

/// The codex flags, as given (None: not given).
#[derive(Debug, Clone, Default)]
pub struct Flags {
    pub max_bytes: Option<u64>,
    pub fallbacks: Option<Vec<String>>,
    pub markers: Option<Vec<String>>,
}

/// Everything the codex profile needs, resolved by the caller.
#[derive(Debug, Clone)]
pub struct Input {
    /// Absolute, lexically normalised.
    pub cwd: PathBuf,
    /// The codex home and where it came from (flag, `env:CODEX_HOME`, default).
    pub home: PathBuf,
    pub home_origin: ValueOrigin,
    pub flags: Flags,
}

/// The resolved codex settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub max_bytes: u64,
    pub fallbacks: Vec<String>,
    pub markers: Vec<String>,
}

/// A `[projects."<path>"] trust_level` codex honours (rule 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    Trusted,
    Untrusted,
}

impl Trust {
    fn name(self) -> &'static str {
        match self {
            Trust::Trusted => "trusted",
            Trust::Untrusted => "untrusted",
        }
    }
}

mod config;

pub use config::resolve;
use config::{Chain, resolve_all};

/// The candidate names in effect (for check's walk).
///
/// # Errors
///
/// As [`resolve`].
pub fn candidate_names(input: &Input) -> Result<Vec<String>> {
    Ok(names(&resolve(input)?.0.fallbacks))
}

/// What codex loads for `input.cwd`.
///
/// # Errors
///
/// As [`resolve`]; what codex cannot read later becomes an entry.
pub fn load(input: &Input) -> Result<HarnessReport> {
    let r = resolve_all(input)?;
    let mut report = HarnessReport::new(PROFILE, r.settings);
    report.warnings = r.warnings;
    let global = global(&input.home, &mut report);
    let project = if r.config.max_bytes == 0 || r.trust == Some(Trust::Untrusted) {
        Vec::new()
    } else {
        project(r.chain, &r.config, &mut report)
    };
    let mut text = global.unwrap_or_default();
    if !project.is_empty() {
        if !text.is_empty() {
            text.push_str(SEPARATOR);
        }
        text.push_str(&project.join("\n\n"));
    }
    if !text.is_empty() {
        // Rule 9: the cwd is named only when a project doc gives text.
        let head = if project.is_empty() {
            "# AGENTS.md instructions".to_owned()
        } else {
            format!("# AGENTS.md instructions for {}", super::show(&input.cwd))
        };
        report.parts.push(Part {
            kind: "user-instructions".to_owned(),
            text: format!("{head}\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>"),
        });
    }
    Ok(report)
}

/// Rule 1: the first non-empty global file's trimmed text.
fn global(home: &Path, report: &mut HarnessReport) -> Option<String> {
    for name in [OVERRIDE, AGENTS] {
        let path = home.join(name);
        let shown = super::show(&path);
        let size = match super::stat(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Ok(Kind::Dir) => continue,
            Ok(Kind::Other) => {
                report.warnings.push(format!(
                    "{shown}: not a regular file; codex would block reading it"
                ));
                report.files.push(
                    FileEntry::new(shown, None, Status::Unreadable)
                        .why(Why::Error("not a regular file".to_owned())),
                );
                continue;
            }
            Err(e) => {
                unreadable(report, shown, None, &e);
                continue;
            }
            Ok(Kind::File(n)) => n,
        };
        let bytes = match super::read_file(&path, None) {
            Ok(bytes) => bytes,
            Err(e) => {
                unreadable(report, shown, Some(size), &e);
                continue;
            }
        };
        let decoded = String::from_utf8_lossy(&bytes);
        let invalid = matches!(decoded, std::borrow::Cow::Owned(_));
        let text = decoded.trim();
        if text.is_empty() {
            report
                .files
                .push(FileEntry::new(shown, Some(size), Status::Empty));
            continue;
        }
        let why = if invalid { Why::InvalidUtf8 } else { Why::None };
        report
            .files
            .push(FileEntry::new(shown, Some(size), Status::Loaded).why(why));
        return Some(text.to_owned());
    }
    None
}

fn unreadable(report: &mut HarnessReport, shown: String, size: Option<u64>, e: &io::Error) {
    report.warnings.push(format!(
        "{shown}: cannot read: {}",
        crate::discovery::os_error(e)
    ));
    report.files.push(
        FileEntry::new(shown, size, Status::Unreadable)
            .why(Why::Error(crate::discovery::os_error(e))),
    );
}

/// Whether a fallback name names a file in the directory itself (rule 5):
/// not empty, no `/`, not `.` or `..`.
fn is_filename(name: &str) -> bool {
    !name.is_empty() && !name.contains('/') && name != "." && name != ".."
}

/// The candidate names of every directory (rule 5).
#[must_use]
pub fn names(fallbacks: &[String]) -> Vec<String> {
    let fallbacks = fallbacks.iter().filter(|n| is_filename(n)).cloned();
    let fixed = [OVERRIDE, AGENTS].map(str::to_owned);
    super::first_occurrences(fixed.into_iter().chain(fallbacks))
}

/// Why project discovery stopped (rule 7).
#[derive(Debug)]
struct Abort {
    path: PathBuf,
    err: io::Error,
    /// The directories' winners found before the error.
    found: Vec<Found>,
}

/// One directory's winner and the regular files it shadows.
#[derive(Debug)]
struct Found {
    path: PathBuf,
    size: u64,
    shadowed: Vec<(PathBuf, u64)>,
}

/// Rule 3: the nearest directory holding a marker, or None.
fn find_root(cwd: &Path, markers: &[String]) -> Result<Option<PathBuf>, Abort> {
    if markers.is_empty() {
        return Ok(None);
    }
    for dir in cwd.ancestors() {
        for marker in markers {
            let path = dir.join(marker);
            match super::metadata(&path) {
                Ok(_) => return Ok(Some(dir.to_path_buf())),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(err) => {
                    return Err(Abort {
                        path,
                        err,
                        found: Vec::new(),
                    });
                }
            }
        }
    }
    Ok(None)
}

/// Rules 4-5: the winner of every chain directory, broadest first.
fn discover(
    chain: &[PathBuf],
    config: &Config,
    skipped: &mut Vec<PathBuf>,
) -> Result<Vec<Found>, Abort> {
    let names = names(&config.fallbacks);
    let mut found = Vec::new();
    for dir in chain {
        let mut winner: Option<Found> = None;
        for name in &names {
            let path = dir.join(name);
            let kind = super::stat(&path);
            if let Some(w) = winner.as_mut() {
                if let Ok(Kind::File(n)) = kind {
                    w.shadowed.push((path, n));
                }
                continue;
            }
            match kind {
                Ok(Kind::File(size)) => {
                    winner = Some(Found {
                        path,
                        size,
                        shadowed: Vec::new(),
                    });
                }
                Ok(_) => skipped.push(path),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    if super::symlink_metadata(&path).is_ok() {
                        skipped.push(path);
                    }
                }
                Err(err) => return Err(Abort { path, err, found }),
            }
        }
        found.extend(winner);
    }
    Ok(found)
}

/// Rules 2-7: the project docs' texts, with every file listed.
fn project(chain: Chain, config: &Config, report: &mut HarnessReport) -> Vec<String> {
    let mut skipped = Vec::new();
    let found = match chain.root {
        Ok(_) => discover(&chain.dirs, config, &mut skipped),
        Err(abort) => Err(abort),
    };
    report.notes.extend(skipped.iter().map(|p| Note {
        path: super::show(p),
        kind: NoteKind::NonRegular,
    }));
    let found = match found {
        Ok(found) => found,
        Err(abort) => {
            aborted(report, &abort, &abort.found);
            return Vec::new();
        }
    };
    let mut remaining = config.max_bytes;
    let mut texts = Vec::new();
    let mut entries = Vec::new();
    for f in &found {
        let shown = super::show(&f.path);
        if remaining == 0 {
            entries.push(FileEntry::new(shown, Some(f.size), Status::OverBudget).why(
                Why::Budget {
                    setting: BUDGET_SETTING,
                    max: config.max_bytes,
                },
            ));
        } else {
            let bytes = match super::read_file(&f.path, Some(remaining)) {
                Ok(bytes) => bytes,
                Err(err) => {
                    let abort = Abort {
                        path: f.path.clone(),
                        err,
                        found: Vec::new(),
                    };
                    aborted(report, &abort, &found);
                    return Vec::new();
                }
            };
            let cut = f.size > remaining;
            let decoded = String::from_utf8_lossy(&bytes);
            let invalid = matches!(decoded, std::borrow::Cow::Owned(_));
            let kept = bytes.len() as u64;
            if decoded.trim().is_empty() {
                entries.push(FileEntry::new(shown, Some(f.size), Status::Empty));
            } else {
                let mut entry = if cut {
                    let mut e =
                        FileEntry::new(shown, Some(f.size), Status::Truncated).why(Why::Budget {
                            setting: BUDGET_SETTING,
                            max: config.max_bytes,
                        });
                    e.truncated = Some(kept);
                    e
                } else {
                    let why = if invalid { Why::InvalidUtf8 } else { Why::None };
                    FileEntry::new(shown, Some(f.size), Status::Loaded).why(why)
                };
                if invalid && cut {
                    entry.why = Why::Budget {
                        setting: BUDGET_SETTING,
                        max: config.max_bytes,
                    };
                }
                entries.push(entry);
                texts.push(decoded.into_owned());
                remaining -= kept;
            }
        }
        let empty = entries
            .last()
            .is_some_and(|e: &FileEntry| e.status == Status::Empty);
        shadowed(f, empty, &mut report.notes, &mut entries);
    }
    report.files.extend(entries);
    texts
}

/// The files a directory's winner shadows, and the AGENTS.md an empty
/// AGENTS.override.md hides (the winner's entry `empty`).
fn shadowed(f: &Found, empty: bool, notes: &mut Vec<Note>, entries: &mut Vec<FileEntry>) {
    let empty_override = f.path.ends_with(OVERRIDE) && empty;
    for (path, size) in &f.shadowed {
        if empty_override && path.ends_with(AGENTS) {
            notes.push(Note {
                path: super::show(path),
                kind: NoteKind::HiddenByEmptyOverride {
                    by: super::show(&f.path),
                },
            });
        }
        entries.push(
            FileEntry::new(super::show(path), Some(*size), Status::Shadowed)
                .why(Why::By(super::show(&f.path))),
        );
    }
}

/// Rule 7: every project entry found so far is dropped.
fn aborted(report: &mut HarnessReport, abort: &Abort, found: &[Found]) {
    let why = crate::discovery::os_error(&abort.err);
    report.warnings.push(format!(
        "{}: {why}; codex drops every project doc",
        super::show(&abort.path)
    ));
    for f in found {
        report.files.push(
            FileEntry::new(super::show(&f.path), Some(f.size), Status::Aborted)
                .why(Why::Error(why.clone())),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::config::line_col;
    use super::*;

    #[test]
    fn names_skip_empty_and_repeated_fallbacks() {
        let got = names(&[
            String::new(),
            "AGENTS.md".into(),
            "README.md".into(),
            "README.md".into(),
        ]);
        assert_eq!(got, ["AGENTS.override.md", "AGENTS.md", "README.md"]);
    }

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("a\nbé=", 5), (2, 3));
        assert_eq!(line_col("é", 1), (1, 1));
        assert_eq!(line_col("x", 0), (1, 1));
    }

    #[test]
    fn rust_trim_keeps_feff_and_drops_nel() {
        assert_eq!("\u{85}a\u{85}".trim(), "a");
        assert_eq!("\u{feff}a".trim(), "\u{feff}a");
    }
}

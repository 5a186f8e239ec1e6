//! `check --profile P` (SPEC 10.7): one walk of a tree (gitignore
//! respected, hidden directories walked, never `.git`, sorted), each
//! directory that holds a candidate file of a profile loaded as that
//! harness would from there, and the problems found, per profile.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Result;
use serde::Serialize;

use super::{FileEntry, ImportProblem, Note, NoteKind, Profile, Report, Status, Via, Why};
use crate::check::Severity;
use crate::discovery::Place;

/// One problem, with the file it is about (as the harness writes paths).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Finding {
    pub path: String,
    pub severity: Severity,
    /// One sentence for people (raw: escape it before printing).
    pub message: String,
    /// The rule id, for the findings dsh's check has a rule for (a secret:
    /// `AGX003`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
}

/// One profile's result.
#[derive(Debug, Clone, Serialize)]
pub struct ProfileReport {
    pub profile: Profile,
    /// The directories loaded as a cwd.
    pub directories: usize,
    pub findings: Vec<Finding>,
    pub errors: usize,
    pub warnings: usize,
}

/// The options of one check.
#[derive(Debug)]
pub struct Options<'a> {
    pub path: PathBuf,
    /// Directory names not descended into.
    pub exclude: &'a [String],
    pub profiles: &'a [Profile],
}

/// The candidate names of each profile, resolved once by the caller.
pub trait Loader: Sync {
    /// Whether a file name is a candidate of `profile` (a directory holding
    /// one is loaded as a cwd).
    fn is_candidate(&self, profile: Profile, name: &str) -> bool;
    /// What `profile` loads with `dir` as the cwd.
    ///
    /// # Errors
    ///
    /// The profile's inputs are unusable (as its loader says).
    fn load(&self, profile: Profile, dir: &Path) -> Result<Report>;
}

/// Walks `opts.path` once and checks every profile.
///
/// # Errors
///
/// The first error of [`Loader::load`] for any directory.
pub fn check(opts: &Options<'_>, loader: &dyn Loader) -> Result<Vec<ProfileReport>> {
    let dirs = candidate_dirs(opts, loader);
    let mut out = Vec::new();
    for (i, profile) in opts.profiles.iter().enumerate() {
        let mut findings = BTreeSet::new();
        let mut directories = 0;
        for (dir, mask) in &dirs {
            if mask & (1 << i) == 0 {
                continue;
            }
            directories += 1;
            let report = loader.load(*profile, dir)?;
            findings.extend(findings_of(&report));
        }
        let findings: Vec<Finding> = findings.into_iter().collect();
        let errors = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        out.push(ProfileReport {
            profile: *profile,
            directories,
            warnings: findings.len() - errors,
            errors,
            findings,
        });
    }
    Ok(out)
}

/// The directories holding a candidate of some profile (bit i: profile i),
/// sorted by path (the order of a sorted walk). The walk runs on every core;
/// the sort makes the result independent of thread timing.
fn candidate_dirs(opts: &Options<'_>, loader: &dyn Loader) -> Vec<(PathBuf, u32)> {
    let exclude: HashSet<OsString> = opts.exclude.iter().map(OsString::from).collect();
    let walker = ignore::WalkBuilder::new(&opts.path)
        .hidden(false)
        .ignore(false)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(move |e| {
            let name = e.file_name();
            !(name == ".git" || e.file_type().is_some_and(|t| t.is_dir()) && exclude.contains(name))
        })
        .build_parallel();
    let found: Mutex<HashMap<PathBuf, u32>> = Mutex::new(HashMap::new());
    walker.run(|| {
        let found = &found;
        Box::new(move |entry| {
            let Ok(entry) = entry else {
                return ignore::WalkState::Continue;
            };
            if !entry.file_type().is_some_and(|t| t.is_dir()) {
                let name = entry.file_name().to_string_lossy();
                let mask = opts
                    .profiles
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| loader.is_candidate(**p, &name))
                    .fold(0, |m, (i, _)| m | (1 << i));
                if let (true, Some(dir), Ok(mut all)) =
                    (mask != 0, entry.path().parent(), found.lock())
                {
                    *all.entry(dir.to_path_buf()).or_default() |= mask;
                }
            }
            ignore::WalkState::Continue
        })
    });
    let mut found = found.into_inner().unwrap_or_default();
    // The top is always a cwd of every profile: its global files and
    // ancestors count too.
    found.insert(opts.path.clone(), u32::MAX);
    let mut dirs: Vec<(PathBuf, u32)> = found.into_iter().collect();
    dirs.sort();
    dirs
}

fn finding(path: &str, severity: Severity, message: String) -> Finding {
    Finding {
        path: path.to_owned(),
        severity,
        message,
        rule: None,
    }
}

/// Notes every secret the report's harness reads ([`NoteKind::Secret`]):
/// each file it sends (a candidate, a global file, an `instructions`
/// entry, a `context.fileName`), judged by its real path, and each
/// `instructions` glob, judged by its own text. Gemini's imports are noted
/// as they are read. The one classifier is `discovery::secret_place`.
pub fn mark_secrets(report: &mut Report) {
    let mut found = Vec::new();
    for f in report.files.iter().filter(|f| f.included) {
        if let Some((real, place)) = super::secret_of(Path::new(&f.path)) {
            found.push(Note {
                path: f.path.clone(),
                kind: NoteKind::Secret {
                    real,
                    place,
                    via: Via::File,
                },
            });
        }
    }
    for note in &report.notes {
        if note.kind != NoteKind::Glob {
            continue;
        }
        if let Some(place) = crate::discovery::secret_place(Path::new(&note.path), None) {
            found.push(Note {
                path: note.path.clone(),
                kind: NoteKind::Secret {
                    real: note.path.clone(),
                    place,
                    via: Via::Glob,
                },
            });
        }
    }
    report.notes.extend(found);
}

/// The sentence for a secret the harness reads: the finding of check, the
/// warning of render and explain (dsh's secret-link wording).
fn secret_message(profile: Profile, path: &str, real: &str, place: Place, via: &Via) -> String {
    let place_words = place.words();
    let at = if place == Place::System || real == path {
        place_words.to_owned()
    } else {
        format!("it resolves to {real} {place_words}")
    };
    match via {
        Via::File => {
            format!("{path}: reads a secret: {at}, so {profile} sends what it holds to the model")
        }
        Via::Import(token) => format!(
            "{path}: import @{token} reads a secret: {at}, so {profile} sends what it holds to the model"
        ),
        Via::Glob => format!(
            "instructions entry {path}: a glob into a secret: {at}, so {profile} sends what it matches to the model"
        ),
    }
}

/// The warnings render and explain print for the secrets a report reads.
#[must_use]
pub fn secret_warnings(report: &Report) -> Vec<String> {
    report
        .notes
        .iter()
        .filter_map(|note| match &note.kind {
            NoteKind::Secret { real, place, via } => Some(secret_message(
                report.profile,
                &note.path,
                real,
                *place,
                via,
            )),
            _ => None,
        })
        .collect()
}

/// The findings of one report (10.7).
#[must_use]
pub fn findings_of(report: &Report) -> Vec<Finding> {
    let mut out: Vec<Finding> = report
        .warnings
        .iter()
        .map(|w| finding("", Severity::Warning, w.clone()))
        .collect();
    for f in &report.files {
        out.extend(file_finding(report.profile, f));
    }
    for note in &report.notes {
        let message = match &note.kind {
            NoteKind::Secret { real, place, via } => {
                let message = secret_message(report.profile, &note.path, real, *place, via);
                let mut f = finding(&note.path, Severity::Error, message);
                f.rule = Some("AGX003");
                out.push(f);
                continue;
            }
            NoteKind::LongMemory { chars } => {
                super::claude::long_memory_message(&note.path, *chars)
            }
            NoteKind::NonRegular => format!(
                "{}: not a regular file; {} skips it",
                note.path, report.profile
            ),
            NoteKind::IgnoredName { name, .. } => {
                if !(note.path.ends_with("CLAUDE.md") && name == "AGENTS.md") {
                    continue;
                }
                format!(
                    "{}: ignored by opencode when an AGENTS.md exists in the chain (the first name found wins for every directory)",
                    note.path
                )
            }
            NoteKind::Glob => continue,
            NoteKind::HiddenByEmptyOverride { by } => format!(
                "{}: hidden by the empty {by}; codex loads nothing from this directory",
                note.path
            ),
            NoteKind::SameFile { first } => format!(
                "{}: the same file as {first} (device and inode); gemini loads it once",
                note.path
            ),
            NoteKind::Import { token, problem } => match problem {
                ImportProblem::Traversal => format!(
                    "{}: import @{token} leaves the project root; gemini writes a path traversal comment instead",
                    note.path
                ),
                ImportProblem::Cycle => format!(
                    "{}: import @{token} is already being imported (a cycle); gemini writes a comment instead",
                    note.path
                ),
                ImportProblem::Failed(why) => {
                    format!("{}: import @{token} failed: {why}", note.path)
                }
                ImportProblem::DepthLimit => format!(
                    "{}: import @{token} is deeper than {} levels; gemini leaves it as text",
                    note.path,
                    super::gemini::imports::MAX_DEPTH
                ),
            },
        };
        out.push(finding(&note.path, Severity::Warning, message));
    }
    out
}

fn file_finding(profile: Profile, f: &FileEntry) -> Option<Finding> {
    if profile == Profile::Claude {
        return super::claude::finding_message(f).map(|m| finding(&f.path, Severity::Warning, m));
    }
    let max = match f.why {
        Why::Budget(max) => max,
        _ => 0,
    };
    let original = f.bytes.unwrap_or(0);
    let message = match (profile, f.status) {
        (Profile::Codex, Status::Truncated) => {
            let kept = f.truncated.unwrap_or(0);
            return Some(finding(
                &f.path,
                Severity::Error,
                format!(
                    "{}: project docs exceed project_doc_max_bytes ({max}); cut from {original} to {kept} bytes",
                    f.path
                ),
            ));
        }
        (Profile::Codex, Status::OverBudget) => {
            return Some(finding(
                &f.path,
                Severity::Error,
                format!(
                    "{}: project docs exceed project_doc_max_bytes ({max}); cut from {original} to 0 bytes",
                    f.path
                ),
            ));
        }
        (Profile::Codex, Status::Aborted) => {
            format!("{}: dropped: codex's project doc discovery failed", f.path)
        }
        (Profile::Gemini, Status::Duplicate) => format!(
            "{}: the same file as one loaded earlier; gemini loads it once",
            f.path
        ),
        (_, Status::Unreadable) => format!("{}: cannot be read; contributes nothing", f.path),
        (_, _) if f.why == Why::InvalidUtf8 => format!(
            "{}: invalid UTF-8; {profile} replaces it with U+FFFD",
            f.path
        ),
        _ => return None,
    };
    Some(finding(&f.path, Severity::Warning, message))
}

//! The findings of one harness's report (SPEC 10.8), in check's terms:
//! each file's status and each note as a rule, a message and a hint.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::links::{MaybeLinks, mirrors, same_as_agents};
use super::secrets::secret_words;
use super::show::Shower;
use super::{CutFacts, Harness, Raw};
use crate::check::{Detail, Severity, budget};
use crate::profile::{
    FileEntry, HarnessReport, ImportProblem, NoteKind, Profile, Status, Via, Why,
};

/// The findings of one report as `explain --profile` lists them: the
/// file as the harness writes it, the severity, the message.
#[must_use]
pub fn explain_findings(
    h_profile: Profile,
    report: &HarnessReport,
) -> Vec<(Severity, String, String)> {
    let shower = Shower {
        absolute: true,
        base: PathBuf::from("/"),
        base_real: None,
        home: None,
        home_real: None,
    };
    let plain = Plain(h_profile);
    findings_of(&plain, report, &shower, &mut None, true)
        .into_iter()
        .map(|raw| match raw {
            Raw::Plain { file, found } => (found.0.severity(), file, found.1),
            Raw::Cut(c) => (
                Severity::Error,
                c.file,
                format!(
                    "over budget: cut from {} to {} bytes (project_doc_max_bytes {})",
                    budget::bytes(c.original),
                    budget::bytes(c.kept),
                    budget::thousands(c.max)
                ),
            ),
        })
        .collect()
}

/// A harness known only by its profile (for explain's list of findings).
struct Plain(Profile);

impl Harness for Plain {
    fn profile(&self) -> Profile {
        self.0
    }
    fn names(&self) -> &[String] {
        &[]
    }
    fn is_global(&self, _: &str, _: &FileEntry) -> bool {
        false
    }
    fn load(&self, _: &Path) -> Result<HarnessReport> {
        anyhow::bail!("not loadable")
    }
}

/// The findings of one report (10.8): a budget cut apart, each other one
/// with its file shown.
pub(super) fn findings_of(
    h: &dyn Harness,
    report: &HarnessReport,
    shower: &Shower,
    links: &mut dyn MaybeLinks,
    include_global: bool,
) -> Vec<Raw> {
    let profile = report.profile;
    let mut out: Vec<Raw> = Vec::new();
    for w in &report.warnings {
        // A URL's warning is its file's finding (AGX021), said once.
        let url = report.files.iter().any(|f| {
            f.status == Status::UrlNotFetched
                && *w == crate::profile::opencode::url_warning(&f.path)
        });
        if url {
            continue;
        }
        out.push(plain(
            String::new(),
            Detail::HarnessWarning {},
            w.clone(),
            format!("fix the setting or file the warning names, as {profile} reads it"),
        ));
    }
    let global = |path: &str| {
        report
            .files
            .iter()
            .find(|f| f.path == path)
            .is_some_and(|f| h.is_global(path, f))
    };
    let mut linked: HashSet<String> = HashSet::new();
    for f in &report.files {
        let skip = !include_global && h.is_global(&f.path, f);
        let file = shower.show(&f.path);
        if f.included {
            for found in links.judge_path(&f.path, shower) {
                if skip && !matches!(found.0, Detail::SecretSymlink { .. }) {
                    continue;
                }
                if matches!(found.0, Detail::SecretSymlink { .. }) {
                    linked.insert(f.path.clone());
                }
                out.push(Raw::Plain {
                    file: file.clone(),
                    found: Box::new(found),
                });
            }
        }
        // An AGENTS.md Claude Code holds back that loses nothing is no finding.
        let mirrored = profile == crate::profile::claude::PROFILE && claude_mirrored(report, f);
        if !(skip || mirrored) {
            out.extend(file_finding(profile, f, file, shower));
        }
    }
    for note in &report.notes {
        let file = shower.show(&note.path);
        // A global file is the user's, judged with --include-user-global;
        // a secret is judged always (a repository's setting may reach it).
        let secret = matches!(note.kind, NoteKind::Secret { .. });
        if !include_global && global(&note.path) && !secret {
            continue;
        }
        out.extend(note_finding(profile, note, file, shower, &linked));
    }
    out
}

/// The finding of one note of a report (`None`: no finding, or said
/// already by a file's finding).
fn note_finding(
    profile: Profile,
    note: &crate::profile::Note,
    file: String,
    shower: &Shower,
    linked: &HashSet<String>,
) -> Option<Raw> {
    let (detail, message, hint) = match &note.kind {
        NoteKind::Secret { real, place, via } => {
            if linked.contains(&note.path) && *via == Via::File {
                return None;
            }
            return Some(secret_finding(profile, note, (real, *place, via), file));
        }
        NoteKind::LongMemory { chars } => (
            Detail::HarnessWarning {},
            crate::profile::claude::long_memory_words(*chars),
            format!(
                "cut {file} to {} characters or fewer (or move parts into .claude/rules): Claude Code sends it with every request",
                crate::profile::claude::WARN_CHARS
            ),
        ),
        NoteKind::NonRegular => {
            let kind = crate::bounded::metadata(&note.path).map_or("special file", |m| {
                crate::discovery::kind_name(m.file_type())
            });
            (
                Detail::NotRegular { file_type: kind },
                format!("not a regular file (a {kind}): {profile} skips it"),
                format!(
                    "rename or remove the {kind} {file}, or make it a regular file with instructions"
                ),
            )
        }
        NoteKind::IgnoredName { by, name } => ignored_finding(&note.path, by, name, shower)?,
        NoteKind::HiddenByEmptyOverride { by } => {
            let by = shower.show(by);
            (
                Detail::HiddenByOverride { by: by.clone() },
                format!("hidden by the empty {by}: codex loads nothing from this directory"),
                format!("delete the empty {by}, or give it the instructions"),
            )
        }
        NoteKind::SameFile { first } => {
            let first = shower.show(first);
            (
                Detail::LoadsOnce {
                    first: first.clone(),
                },
                format!("the same file as {first} (device and inode): gemini loads it once"),
                format!("keep one name for it: delete {file} or {first}"),
            )
        }
        NoteKind::Import { token, problem } => import_finding(token, problem, shower),
        NoteKind::Glob => return None,
    };
    Some(plain(file, detail, message, hint))
}

/// The finding of a secret the harness reads.
fn secret_finding(
    profile: Profile,
    note: &crate::profile::Note,
    (real, place, via): (&str, crate::discovery::Place, &Via),
    file: String,
) -> Raw {
    let message = secret_words(profile, &note.path, real, place, via);
    let detail = Detail::SecretSymlink {
        target: file.clone(),
        resolved: real.to_owned(),
        place: place.name(),
    };
    let hint = match via {
        Via::File => {
            "replace it with a regular file inside the project that holds only instructions"
                .to_owned()
        }
        Via::Import(token) => format!("remove the import @{token}"),
        Via::Glob => format!("remove the instructions entry {}", note.path),
    };
    let file = if *via == Via::Glob {
        String::new()
    } else {
        file
    };
    plain(file, detail, message, hint)
}

/// opencode's "CLAUDE.md ignored", unless the CLAUDE.md mirrors the
/// AGENTS.md that won.
fn ignored_finding(
    path: &str,
    by: &str,
    name: &str,
    shower: &Shower,
) -> Option<(Detail, String, String)> {
    if !(path.ends_with("CLAUDE.md") && name == "AGENTS.md") {
        return None;
    }
    if same_as_agents(path, by) {
        return None;
    }
    let sibling = Path::new(path).with_file_name("AGENTS.md");
    let by = if crate::profile::file_size(&sibling).is_some() {
        shower.show(&crate::profile::show(&sibling))
    } else {
        shower.show(by)
    };
    Some((
        Detail::IgnoredName { by: by.clone() },
        format!(
            "ignored by opencode: an AGENTS.md exists in the chain ({by}), and the first name found wins for every directory"
        ),
        format!(
            "merge what it says into {by} and make it a symlink to it (or a pointer: @AGENTS.md)"
        ),
    ))
}

/// A gemini import it replaced by a comment.
fn import_finding(
    token: &str,
    problem: &ImportProblem,
    shower: &Shower,
) -> (Detail, String, String) {
    let (kind, error, message, hint) = match problem {
        ImportProblem::Traversal => (
            "traversal",
            None,
            format!(
                "import @{token} leaves the project root: gemini writes a path traversal comment instead"
            ),
            format!("import a file inside the project instead of @{token}"),
        ),
        ImportProblem::Cycle => (
            "cycle",
            None,
            format!(
                "import @{token} is already being imported (a cycle): gemini writes a comment instead"
            ),
            format!("remove the import @{token}: it imports itself"),
        ),
        ImportProblem::Failed(why) => (
            "failed",
            Some(shower.within(why)),
            format!("import @{token} failed: {}", shower.within(why)),
            format!("fix the import @{token} (the error says why), or remove it"),
        ),
        ImportProblem::DepthLimit => (
            "depth",
            None,
            format!(
                "import @{token} is deeper than {} levels: gemini leaves it as text",
                crate::profile::gemini::imports::MAX_DEPTH
            ),
            format!(
                "flatten the imports: gemini stops after {} levels",
                crate::profile::gemini::imports::MAX_DEPTH
            ),
        ),
    };
    (
        Detail::ImportProblem {
            token: token.to_owned(),
            problem: kind,
            error,
        },
        message,
        hint,
    )
}

fn plain(file: String, detail: Detail, message: String, hint: String) -> Raw {
    Raw::Plain {
        file,
        found: Box::new((detail, message, hint)),
    }
}

/// The finding of one probed file, by its status.
fn file_finding(profile: Profile, f: &FileEntry, file: String, shower: &Shower) -> Option<Raw> {
    if profile == crate::profile::claude::PROFILE {
        return claude_finding(f, file, shower);
    }
    let max = match f.why {
        Why::Budget(max) => max,
        _ => 0,
    };
    let original = usize::try_from(f.bytes.unwrap_or(0)).unwrap_or(usize::MAX);
    let (detail, message, hint) = match (profile, f.status) {
        (_, Status::Truncated | Status::OverBudget) if matches!(f.why, Why::Budget(_)) => {
            let kept = if f.status == Status::Truncated {
                usize::try_from(f.truncated.unwrap_or(0)).unwrap_or(usize::MAX)
            } else {
                0
            };
            // An empty file past the budget loses nothing.
            if original <= kept {
                return None;
            }
            return Some(Raw::Cut(CutFacts {
                file,
                original,
                kept,
                max,
            }));
        }
        (_, Status::Aborted) => (
            Detail::Aborted {},
            format!("dropped: {profile}'s project doc discovery failed, so no project doc loads"),
            "fix the path the harness warning names (its permissions, a symlink loop)".to_owned(),
        ),
        (_, Status::Duplicate) => (
            Detail::LoadsOnce {
                first: String::new(),
            },
            format!("the same file as one loaded earlier: {profile} loads it once"),
            format!("keep one name for it: {file} is loaded under another"),
        ),
        (_, Status::UrlNotFetched) => (
            Detail::NotExact { reason: "url" },
            crate::profile::opencode::url_warning(&f.path),
            "keep the instructions in a file of the repository to have them checked".to_owned(),
        ),
        (_, Status::Unreadable) => {
            let error = match &f.why {
                Why::Error(e) => shower.within(e),
                _ => "cannot be read".to_owned(),
            };
            (
                Detail::Unavailable {
                    error: error.clone(),
                },
                format!("unreadable ({error}): {profile} sends nothing from it"),
                if error.starts_with("too large") {
                    format!("cut {file} below the cap the error names, or split it")
                } else {
                    format!("make {file} readable (its permissions, or what it links to)")
                },
            )
        }
        (_, _) if f.why == Why::InvalidUtf8 => (
            Detail::LossyUtf8 {},
            format!("invalid UTF-8: {profile} replaces each bad sequence with U+FFFD"),
            format!("re-encode {file} as UTF-8"),
        ),
        _ => return None,
    };
    let file = if f.status == Status::UrlNotFetched {
        String::new()
    } else {
        file
    };
    Some(Raw::Plain {
        file,
        found: Box::new((detail, message, hint)),
    })
}

/// Whether an AGENTS.md Claude Code holds back loses nothing: the same
/// file also loads (a CLAUDE.md imports it), or the CLAUDE.md beside it is
/// it under another name (a symlink, the same text, a pointer).
fn claude_mirrored(report: &HarnessReport, f: &FileEntry) -> bool {
    if f.status != Status::HeldBack {
        return false;
    }
    let loaded = report.files.iter().any(|g| g.included && g.path == f.path);
    // A pointer or a copy speaks for the AGENTS.md beside it only.
    let agents = Path::new(&f.path);
    let sibling = agents.with_file_name("CLAUDE.md");
    loaded || (crate::profile::file_size(&sibling).is_some() && mirrors(&sibling, agents))
}

/// The finding of one file Claude Code skips or holds back (real agent:
/// the realagents claude cases), each a warning as Claude Code goes on.
fn claude_finding(f: &FileEntry, file: String, shower: &Shower) -> Option<Raw> {
    let by = f.imported_by.as_deref().map(|b| shower.show(b));
    let of = |what: String| match &by {
        Some(by) => format!("{what} (imported by {by})"),
        None => what,
    };
    let import = |problem: &'static str, error: Option<String>| Detail::ImportProblem {
        token: file.clone(),
        problem,
        error,
    };
    let (detail, message, hint) = match f.status {
        Status::TooLarge => {
            let bytes = f.bytes.unwrap_or(0);
            (
                Detail::Unavailable {
                    error: format!("over {} bytes ({bytes})", crate::profile::claude::MAX_BYTES),
                },
                of(format!(
                    "over {} bytes ({bytes}); Claude Code skips it",
                    crate::profile::claude::MAX_BYTES
                )),
                format!(
                    "cut {file} to {} bytes or fewer, or split it",
                    crate::profile::claude::MAX_BYTES
                ),
            )
        }
        Status::NotText => (
            import("not-text", None),
            of("not a text file by its extension; Claude Code skips the import".to_owned()),
            format!("import a text file (.md) instead of {file}, or remove the import"),
        ),
        Status::TooDeep => (
            import("depth", None),
            of("an import deeper than four levels; Claude Code does not read it".to_owned()),
            "flatten the imports: Claude Code stops after four levels".to_owned(),
        ),
        Status::Outside => (
            import("outside", None),
            of("outside the cwd; Claude Code skips it unless the project approves external imports (hasClaudeMdExternalIncludesApproved)".to_owned()),
            format!("move {file} inside the project, or approve external imports for it in Claude Code"),
        ),
        Status::Unreadable if f.imported_by.is_some() => {
            let error = match &f.why {
                Why::Error(e) => Some(shower.within(e)),
                _ => None,
            };
            let why = error.as_ref().map(|e| format!(": {e}")).unwrap_or_default();
            (
                import("failed", error),
                of(format!(
                    "an import that cannot be resolved{why}; Claude Code skips it"
                )),
                format!("fix the import of {file} (the error says why), or remove it"),
            )
        }
        _ => claude_held_or_unreadable(f, &file, shower)?,
    };
    Some(Raw::Plain {
        file,
        found: Box::new((detail, message, hint)),
    })
}

/// A file Claude Code holds back or cannot read (not an import).
fn claude_held_or_unreadable(
    f: &FileEntry,
    file: &str,
    shower: &Shower,
) -> Option<(Detail, String, String)> {
    Some(match f.status {
        Status::HeldBack => {
            let holder = match &f.why {
                Why::By(b) => shower.show(b),
                _ => "a CLAUDE.md".to_owned(),
            };
            (
                Detail::IgnoredName { by: holder.clone() },
                format!(
                    "not loaded: {holder} holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)"
                ),
                format!(
                    "merge what it says into {holder}, or make {holder} a pointer to it (@AGENTS.md)"
                ),
            )
        }
        Status::Unreadable => {
            let error = match &f.why {
                Why::Error(e) => shower.within(e),
                _ => "cannot be read".to_owned(),
            };
            (
                Detail::Unavailable { error },
                "cannot be read; contributes nothing".to_owned(),
                format!("make {file} readable (its permissions, or what it links to)"),
            )
        }
        _ => return None,
    })
}

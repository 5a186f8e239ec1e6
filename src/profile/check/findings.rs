//! The findings of one harness's report (SPEC 10.8), in check's terms:
//! each file's status and each note as a rule's facts (`output::check`
//! words them).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::links::{MaybeLinks, mirrors, same_as_agents};
use super::show::Shower;
use super::{CutFacts, Harness, Raw, dir_of};
use crate::check::{Detail, Finding, Reach, Said};
use crate::profile::{
    FileEntry, HarnessReport, ImportProblem, NoteKind, Profile, Status, Via, Why,
};

/// A finding as `explain --profile` lists it, the file as the harness
/// writes it: one of check's, or what a budget cut of one file.
#[derive(Debug)]
pub enum Explained {
    Found(Box<Finding>),
    Cut {
        file: String,
        original: usize,
        kept: usize,
        max: u64,
    },
}

/// The findings of one report as `explain --profile` lists them.
#[must_use]
pub fn explain_findings(h_profile: Profile, report: &HarnessReport) -> Vec<Explained> {
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
            Raw::Plain { file, found } => Explained::Found(Box::new(
                Finding::new(dir_of(&file), file, *found).by(h_profile.name()),
            )),
            Raw::Cut(c) => Explained::Cut {
                file: c.file,
                original: c.original,
                kept: c.kept,
                max: c.max,
            },
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
            Detail::HarnessWarning {
                said: Said::Warning(w.clone()),
            },
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
                if skip && !matches!(found, Detail::SecretSymlink { .. }) {
                    continue;
                }
                if matches!(found, Detail::SecretSymlink { .. }) {
                    linked.insert(f.path.clone());
                }
                out.push(Raw::Plain {
                    file: file.clone(),
                    found: Box::new(found),
                });
            }
        }
        // An AGENTS.md Claude Code holds back that loses nothing is no finding.
        let mirrored = profile.definition().skips_files() && claude_mirrored(report, f);
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
        out.extend(note_finding(note, file, shower, &linked));
    }
    out
}

/// The finding of one note of a report (`None`: no finding, or said
/// already by a file's finding).
fn note_finding(
    note: &crate::profile::Note,
    file: String,
    shower: &Shower,
    linked: &HashSet<String>,
) -> Option<Raw> {
    let detail = match &note.kind {
        NoteKind::Secret { real, place, via } => {
            if linked.contains(&note.path) && *via == Via::File {
                return None;
            }
            return Some(secret_finding(note, (real, *place, via), file));
        }
        NoteKind::LongMemory { chars } => Detail::HarnessWarning {
            said: Said::LongMemory { chars: *chars },
        },
        NoteKind::NonRegular => {
            let kind = crate::bounded::metadata(&note.path).map_or("special file", |m| {
                crate::discovery::kind_name(m.file_type())
            });
            Detail::NotRegular { file_type: kind }
        }
        NoteKind::IgnoredName { by, name } => ignored_finding(&note.path, by, name, shower)?,
        NoteKind::HiddenByEmptyOverride { by } => Detail::HiddenByOverride {
            by: shower.show(by),
        },
        NoteKind::SameFile { first } => Detail::LoadsOnce {
            first: shower.show(first),
        },
        NoteKind::Import { token, problem } => import_finding(token, problem, shower),
        NoteKind::Glob => return None,
    };
    Some(plain(file, detail))
}

/// The finding of a secret the harness reads.
fn secret_finding(
    note: &crate::profile::Note,
    (real, place, via): (&str, crate::discovery::Place, &Via),
    file: String,
) -> Raw {
    let path = note.path.clone();
    let reach = match via {
        Via::File => Reach::File { path },
        Via::Import(token) => Reach::Import {
            path,
            token: token.clone(),
        },
        Via::Glob => Reach::Glob { path },
    };
    let detail = Detail::SecretSymlink {
        target: file.clone(),
        resolved: real.to_owned(),
        place: place.name(),
        at: place,
        reach,
    };
    let file = if *via == Via::Glob {
        String::new()
    } else {
        file
    };
    plain(file, detail)
}

/// opencode's "CLAUDE.md ignored", unless the CLAUDE.md mirrors the
/// AGENTS.md that won.
fn ignored_finding(path: &str, by: &str, name: &str, shower: &Shower) -> Option<Detail> {
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
    Some(Detail::IgnoredName { by })
}

/// A gemini import it replaced by a comment.
fn import_finding(token: &str, problem: &ImportProblem, shower: &Shower) -> Detail {
    let (kind, error) = match problem {
        ImportProblem::Traversal => ("traversal", None),
        ImportProblem::Cycle => ("cycle", None),
        ImportProblem::Failed(why) => ("failed", Some(shower.within(why))),
        ImportProblem::DepthLimit => ("depth", None),
    };
    Detail::ImportProblem {
        token: token.to_owned(),
        problem: kind,
        error,
        imported_by: None,
    }
}

fn plain(file: String, detail: Detail) -> Raw {
    Raw::Plain {
        file,
        found: Box::new(detail),
    }
}

/// The finding of one probed file, by its status.
fn file_finding(profile: Profile, f: &FileEntry, file: String, shower: &Shower) -> Option<Raw> {
    if profile.definition().skips_files() {
        return claude_finding(f, file, shower);
    }
    let max = match f.why {
        Why::Budget { max, .. } => max,
        _ => 0,
    };
    let original = usize::try_from(f.bytes.unwrap_or(0)).unwrap_or(usize::MAX);
    let detail = match (profile, f.status) {
        (_, Status::Truncated | Status::OverBudget) if matches!(f.why, Why::Budget { .. }) => {
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
        (_, Status::Aborted) => Detail::Aborted {},
        (_, Status::Duplicate) => Detail::LoadsOnce {
            first: String::new(),
        },
        (_, Status::UrlNotFetched) => Detail::NotExact {
            reason: "url",
            url: f.path.clone(),
        },
        (_, Status::Unreadable) => Detail::Unavailable {
            error: match &f.why {
                Why::Error(e) => shower.within(e),
                _ => "cannot be read".to_owned(),
            },
            too_large: None,
            imported_by: None,
        },
        (_, _) if f.why == Why::InvalidUtf8 => Detail::LossyUtf8 {},
        _ => return None,
    };
    let file = if f.status == Status::UrlNotFetched {
        String::new()
    } else {
        file
    };
    Some(plain(file, detail))
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
    let import = |problem: &'static str, error: Option<String>| Detail::ImportProblem {
        token: file.clone(),
        problem,
        error,
        imported_by: by.clone(),
    };
    let detail = match f.status {
        Status::TooLarge => {
            let bytes = f.bytes.unwrap_or(0);
            Detail::Unavailable {
                error: format!("over {} bytes ({bytes})", crate::profile::claude::MAX_BYTES),
                too_large: Some(bytes),
                imported_by: by.clone(),
            }
        }
        Status::NotText => import("not-text", None),
        Status::TooDeep => import("depth", None),
        Status::Outside => import("outside", None),
        Status::Unreadable if f.imported_by.is_some() => {
            let error = match &f.why {
                Why::Error(e) => Some(shower.within(e)),
                _ => None,
            };
            import("failed", error)
        }
        _ => claude_held_or_unreadable(f, shower)?,
    };
    Some(plain(file, detail))
}

/// A file Claude Code holds back or cannot read (not an import).
fn claude_held_or_unreadable(f: &FileEntry, shower: &Shower) -> Option<Detail> {
    Some(match f.status {
        Status::HeldBack => Detail::IgnoredName {
            by: match &f.why {
                Why::By(b) => shower.show(b),
                _ => "a CLAUDE.md".to_owned(),
            },
        },
        Status::Unreadable => Detail::Unavailable {
            error: match &f.why {
                Why::Error(e) => shower.within(e),
                _ => "cannot be read".to_owned(),
            },
            too_large: None,
            imported_by: None,
        },
        _ => return None,
    })
}

//! Stages 2 and 3 of explain: the root search and every candidate of every
//! scanned directory with its one outcome.

use serde::Serialize;

use crate::baseline::Baseline;
use crate::discovery::{
    self, Candidate, Dir, Fate, Load, Probe, ScopeStatus, TierKind, Unreadable,
};
use crate::settings::Settings;

use super::lossy;

/// The upward root search (SPEC 2.2).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RootReport {
    pub markers: Vec<String>,
    /// Every directory tested, from the cwd upward.
    pub walked: Vec<String>,
    /// The marker that decided the root; `null`: no marker, root = cwd.
    pub marker: Option<MarkerReport>,
    pub root: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MarkerReport {
    pub name: String,
    pub dir: String,
    pub is_dir: bool,
}

/// One scanned directory.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DirReport {
    /// `user-global`, `.` for the root, else the root-relative path.
    pub display: String,
    pub path: String,
    pub user_global: bool,
    pub candidates: Vec<CandidateReport>,
    /// The scope keys of this directory and their status now.
    pub scopes: Vec<ScopeReport>,
}

/// A scope of a directory and its status now.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScopeReport {
    pub key: String,
    pub tier: TierName,
    pub status: ScopeState,
}

/// The status of a scope (see `discovery::ScopeStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScopeState {
    Loaded,
    Duplicate,
    Absent,
    Unavailable,
    /// An oversized or unreadable winner, or a path already loaded: the tier
    /// loads nothing and does not fall through to the next name.
    Blocked,
}

/// Which tier a candidate belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TierName {
    UserGlobal,
    Base,
    Local,
}

impl From<TierKind> for TierName {
    fn from(t: TierKind) -> Self {
        match t {
            TierKind::UserGlobal => TierName::UserGlobal,
            TierKind::Base => TierName::Base,
            TierKind::Local => TierName::Local,
        }
    }
}

/// One candidate and what happened to it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateReport {
    pub name: String,
    pub path: String,
    /// The path as messages show it.
    pub display: String,
    pub tier: TierName,
    /// The scope key it belongs to under the precedence in use (SPEC 3.2).
    pub scope: String,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// UTF-8 bytes of the decoded text, when it was read.
    pub bytes: Option<usize>,
    /// Lowercase hex SHA-1 of the decoded text, when it was read.
    pub digest: Option<String>,
    /// Whether a leading BOM was removed before the text (SPEC 2.4).
    pub leading_bom: bool,
    /// The final path component is a symbolic link.
    pub symlink: Option<LinkReport>,
    /// For a loaded file: what the byte budget did with it.
    pub budget: Option<InMessage>,
}

/// What happened to a candidate. Serialised as `"outcome": "<kind>"` plus
/// the variant's fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "outcome",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum Outcome {
    /// It loads.
    Loaded,
    /// Present, but an earlier candidate of its tier won (`first`).
    /// `contentDiffers` is `null` when either file could not be read.
    Shadowed {
        by: String,
        content_differs: Option<bool>,
    },
    /// Same trimmed content as an earlier file of its directory (`all`).
    Duplicate { of: String },
    /// The same absolute path already loaded as the user-global file.
    SamePath,
    /// Nothing there.
    Missing,
    /// A symlink whose target does not exist: absent (its target is in
    /// `symlink`).
    DanglingSymlink,
    /// A directory, FIFO, socket or device: absent, never opened.
    NotRegular { file_type: String },
    /// Larger than max-source-bytes (by stat size, or after decoding).
    /// `changed`: the file grew past the cap between the probe and the
    /// read; `size` is the probe's.
    Oversized {
        size: u64,
        max_source_bytes: u64,
        changed: bool,
    },
    /// Not text to dsh's filesystem provider (SPEC 2.4): never loaded, and
    /// no transition on resume. `offset` is the raw byte offset of the NUL
    /// or of the first ill-formed UTF-8 sequence; `cutAtEnd` when that
    /// sequence is cut short by the end of the file.
    Unreadable {
        reason: NotText,
        offset: u64,
        cut_at_end: bool,
    },
    /// `stat` (stage `stat`) or the read (stage `read`) failed with an OS
    /// error: skipped for this render, never taken as a deletion.
    Unavailable { error: String, stage: Stage },
    /// Not looked at (only when probing stopped at a winner).
    NotProbed,
}

/// Why a file is not text to dsh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotText {
    /// A NUL among the first 8192 raw bytes.
    Binary,
    /// Not strict UTF-8.
    InvalidUtf8,
}

/// Where an unavailable candidate failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    Stat,
    Read,
}

/// A symlinked candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkReport {
    /// The link's own text, as `readlink` gives it.
    pub target: String,
    /// Whether the fully resolved target lies outside the project root
    /// (`null` for the user-global file, which has no project root).
    pub outside_root: Option<bool>,
    /// Set when it resolves into a secret location
    /// (`discovery::link::secret_place`, or the home directory outside the
    /// project): sessions send that content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<SecretLink>,
}

/// Where a symlinked candidate pointing at a secret resolves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SecretLink {
    /// The real path it resolves to.
    pub resolved: String,
    /// `system` (`/proc`, `/sys`, `/dev`), `home`, `secrets` (`/etc/shadow`,
    /// `/run/secrets`, ...), `git` (a `.git` directory) or `credentials`
    /// (`.ssh`, `.aws`, ...).
    pub place: &'static str,
}

/// What the budget did with a loaded file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InMessage {
    /// Its whole content is in the message.
    Included,
    /// The budget cut its content.
    Truncated,
    /// The budget left it out.
    Omitted,
    /// No message is sent at all (max-bytes <= 0).
    NotSent,
}

pub(super) fn dir_report(
    dir: &Dir,
    index: usize,
    settings: &Settings,
    fresh: &Baseline,
) -> DirReport {
    let precedence = settings.precedence.value;
    let max_source = settings.max_source();
    let user_global = dir.is_user_global();
    let candidates = dir
        .candidates
        .iter()
        .map(|c| {
            let text = c.text();
            CandidateReport {
                name: c.name.clone(),
                path: lossy(&c.path),
                display: c.display.clone(),
                tier: c.tier.into(),
                scope: dir.scope_key_of(c, precedence),
                outcome: outcome(dir, c, max_source),
                bytes: text.map(|t| t.text.len()),
                digest: text.map(|t| t.digest().to_owned()),
                leading_bom: text.is_some_and(|t| t.bom),
                symlink: symlink(c),
                budget: (c.fate == Fate::Loaded).then(|| in_message(fresh, index, &c.display)),
            }
        })
        .collect();
    let scopes = dir
        .scopes
        .iter()
        .map(|s| ScopeReport {
            key: s.key.clone(),
            tier: s.tier.into(),
            status: match s.status {
                ScopeStatus::Loaded(_) => ScopeState::Loaded,
                ScopeStatus::Duplicate(_) => ScopeState::Duplicate,
                ScopeStatus::Absent => ScopeState::Absent,
                ScopeStatus::Unavailable => ScopeState::Unavailable,
                ScopeStatus::Blocked | ScopeStatus::SamePath(_) => ScopeState::Blocked,
            },
        })
        .collect();
    DirReport {
        display: dir.display.clone(),
        path: lossy(&dir.path),
        user_global,
        candidates,
        scopes,
    }
}

/// The one outcome of a candidate, from its fate, probe and load.
fn outcome(dir: &Dir, c: &Candidate, max_source: u64) -> Outcome {
    match &c.fate {
        Fate::Loaded => Outcome::Loaded,
        Fate::Shadowed { by } => {
            let winner = dir
                .candidates
                .iter()
                .find(|w| &w.display == by && w.tier == c.tier)
                .and_then(Candidate::text);
            Outcome::Shadowed {
                by: by.clone(),
                content_differs: match (winner, c.text()) {
                    (Some(w), Some(me)) => Some(w.digest() != me.digest()),
                    _ => None,
                },
            }
        }
        Fate::Duplicate { of } => Outcome::Duplicate { of: of.clone() },
        Fate::SamePath => Outcome::SamePath,
        Fate::NotProbed => Outcome::NotProbed,
        Fate::NotLoaded => match (&c.probe, &c.load) {
            (Some(Probe::Missing(discovery::Absence::DanglingLink)), _) => Outcome::DanglingSymlink,
            (Some(Probe::Missing(_)), _) => Outcome::Missing,
            (Some(Probe::NotRegular(kind)), _) => Outcome::NotRegular {
                file_type: (*kind).to_owned(),
            },
            (Some(Probe::Unavailable(error)), _) => Outcome::Unavailable {
                error: error.clone(),
                stage: Stage::Stat,
            },
            (_, Some(Load::Oversized { bytes, grew })) => Outcome::Oversized {
                size: *bytes,
                max_source_bytes: max_source,
                changed: *grew,
            },
            (_, Some(Load::Unreadable(Unreadable::Error(error)))) => Outcome::Unavailable {
                error: error.clone(),
                stage: Stage::Read,
            },
            (_, Some(Load::Unreadable(Unreadable::Binary { offset }))) => Outcome::Unreadable {
                reason: NotText::Binary,
                offset: *offset,
                cut_at_end: false,
            },
            (_, Some(Load::Unreadable(Unreadable::InvalidUtf8 { offset, cut }))) => {
                Outcome::Unreadable {
                    reason: NotText::InvalidUtf8,
                    offset: *offset,
                    cut_at_end: *cut,
                }
            }
            // A present file always has a load; a candidate without a probe
            // was not looked at.
            _ => Outcome::NotProbed,
        },
    }
}

/// The symlink of a candidate's final component, if it is one, as the
/// probe recorded it.
fn symlink(c: &Candidate) -> Option<LinkReport> {
    let link = c.link.as_ref()?;
    let readable = matches!(c.probe, Some(Probe::File { .. }));
    let secret = (readable && link.place.is_secret()).then(|| SecretLink {
        resolved: link.resolved.as_deref().map(lossy).unwrap_or_default(),
        place: link.place.name(),
    });
    Some(LinkReport {
        target: link.target.clone(),
        outside_root: link.outside_root,
        secret,
    })
}

fn in_message(fresh: &Baseline, dir: usize, display: &str) -> InMessage {
    let is_file = fresh
        .files
        .iter()
        .any(|f| f.dir == dir && f.path == display);
    if fresh.fit.text.is_none() || !is_file {
        InMessage::NotSent
    } else if fresh.fit.omitted.iter().any(|p| p == display) {
        InMessage::Omitted
    } else if fresh
        .fit
        .truncated
        .as_ref()
        .is_some_and(|t| t.path == display)
    {
        InMessage::Truncated
    } else {
        InMessage::Included
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use std::path::Path;

    #[test]
    fn outcomes_serialise_as_a_tag_with_camel_case_fields() {
        let v = serde_json::to_value(Outcome::Shadowed {
            by: "AGENTS.md".into(),
            content_differs: Some(true),
        })
        .unwrap();
        assert_eq!(
            v,
            serde_json::json!({"outcome":"shadowed","by":"AGENTS.md","contentDiffers":true})
        );
        let v = serde_json::to_value(Outcome::Oversized {
            size: 9,
            max_source_bytes: 4,
            changed: false,
        })
        .unwrap();
        assert_eq!(
            v,
            serde_json::json!({"outcome":"oversized","size":9,"maxSourceBytes":4,"changed":false})
        );
        assert_eq!(
            serde_json::to_value(Outcome::SamePath).unwrap(),
            serde_json::json!({"outcome":"same-path"})
        );
    }

    fn candidate(name: &str, probe: Probe, load: Option<Load>, fate: Fate) -> Candidate {
        Candidate {
            name: name.to_owned(),
            path: Path::new("/r").join(name),
            display: name.to_owned(),
            tier: TierKind::Base,
            probe: Some(probe),
            link: None,
            load,
            fate,
        }
    }

    /// A read error is `unavailable` at the `read` stage; a stat error at
    /// the `stat` stage (root cannot provoke the first on a real file).
    #[test]
    fn unavailable_says_which_stage_failed() {
        let unreadable = candidate(
            "A.md",
            Probe::File { size: 3 },
            Some(Load::Unreadable(discovery::Unreadable::Error(
                "Permission denied (os error 13)".into(),
            ))),
            Fate::NotLoaded,
        );
        let looped = candidate(
            "B.md",
            Probe::Unavailable("Too many levels of symbolic links (os error 40)".into()),
            None,
            Fate::NotLoaded,
        );
        let dir = Dir {
            path: "/r".into(),
            display: ".".into(),
            candidates: vec![unreadable.clone(), looped.clone()],
            scopes: vec![],
        };
        assert_eq!(
            outcome(&dir, &unreadable, 10),
            Outcome::Unavailable {
                error: "Permission denied (os error 13)".into(),
                stage: Stage::Read
            }
        );
        assert_eq!(
            outcome(&dir, &looped, 10),
            Outcome::Unavailable {
                error: "Too many levels of symbolic links (os error 40)".into(),
                stage: Stage::Stat
            }
        );
    }
}

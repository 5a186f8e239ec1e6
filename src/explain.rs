//! The facts `agentctx explain` reports (SPEC 1, 7), gathered as plain data.
//!
//! `gather` runs the same stages as render and diff, but keeps every decision
//! on the way instead of only the result:
//!
//! 1. **Settings**: each resolved value with its origin, and the candidate
//!    entries that were ignored.
//! 2. **Root search**: every directory tested and the marker that decided.
//! 3. **Candidates**: discovery with `probe_all`, so that a `first` winner's
//!    shadowed siblings are probed and read too; each candidate gets one
//!    outcome, its bytes and digest when read, and its symlink target.
//! 4. **Budget**: the fresh baseline rendered under max-bytes.
//!    **Not in the baseline**: inside a project, the candidates below the
//!    cwd, each of which loads once the session touches its directory (a
//!    walk as bounded as [`BELOW_DIRS`]); with no root marker found, the
//!    candidates of the directories above the cwd the chain skipped.
//! 5. **Session** (with a log): the visible baseline, the visible scopes with
//!    the seq that set them, the workspace events compaction shadowed, and the
//!    decision `diff` would make with the parts it would send.
//! 6. **Prompt** (with a log): the system-prompt and runtime-context report.
//!
//! Nothing here prints; `cmd::explain` presents the `Report` as text or JSON.

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;

use crate::baseline::{self, Baseline, Change, Source};
use crate::discovery::{
    self, Candidate, Dir, Fate, Load, Probe, ScopeStatus, TierKind, Unreadable,
};
use crate::jsnum::MaxBytes;
use crate::log::Log;
use crate::prompt::{self, PromptReport};
use crate::reconcile::{self, Decision, Request};
use crate::render::{self, Step, Truncation};
use crate::settings::{NameList, Origin, Precedence, Setting, Settings};

/// Everything explain reports, in the order it is shown.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub settings: SettingsReport,
    pub dsh_home: DshHome,
    pub root_search: RootReport,
    /// The user-global directory first, then the chain, broadest first.
    pub directories: Vec<DirReport>,
    pub budget: BudgetReport,
    /// The baseline identity of a session in this cwd (SPEC 2.5).
    pub identity: String,
    /// Instruction files that are not in the baseline.
    pub not_loaded: NotLoaded,
    /// The session view, with `--log`.
    pub session: Option<SessionReport>,
    /// System prompt stability and runtime context (SPEC 8), with `--log`.
    pub prompt: Option<PromptReport>,
    /// dsh's configuration (CONFIG 11.7), filled in by the command.
    pub dsh_config: Option<crate::dshconfig::report::Report>,
}

/// Instruction files a person may expect in the baseline that are not in
/// it (issue 27).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotLoaded {
    /// Inside a project: the candidates in the directories below the cwd,
    /// in walk order. Each loads only once the session reads, writes or
    /// edits a file in its directory (SPEC 6, `--touch`).
    pub below: Vec<Nested>,
    /// Whether the walk below the cwd stopped at [`BELOW_DIRS`] directories
    /// (more may exist).
    pub below_stopped: bool,
    /// With no root marker found (the chain is the cwd alone): the
    /// candidates of the directories above the cwd, nearest first.
    pub above: Vec<String>,
}

/// A candidate below the cwd.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Nested {
    /// Its display path (root-relative, as messages name it).
    pub path: String,
    /// The directory whose touch loads it, root-relative, with a final `/`.
    pub touch: String,
}

/// The most directories the walk below the cwd visits.
pub const BELOW_DIRS: usize = 10_000;

/// The resolved settings, each with where it came from.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SettingsReport {
    pub cwd: Setting<String>,
    pub dsh_home: Setting<String>,
    pub max_bytes: Setting<MaxBytes>,
    pub max_source_bytes: Setting<i64>,
    pub candidates: ListSetting,
    pub local_candidates: ListSetting,
    pub root_markers: Setting<Vec<String>>,
    pub precedence: Setting<Precedence>,
}

/// A candidate list: the usable names and the ignored entries.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListSetting {
    pub value: Vec<String>,
    /// Entries dropped because they are empty, `.`, `..` or hold `/` or `\`.
    pub ignored: Vec<String>,
    pub origin: Origin,
}

impl ListSetting {
    fn new(s: &Setting<NameList>) -> Self {
        ListSetting {
            value: s.value.names.clone(),
            ignored: s.value.ignored.clone(),
            origin: s.origin.clone(),
        }
    }
}

/// The dsh home and how the user-global file is named in messages.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DshHome {
    pub path: String,
    /// The user-global file's absolute path.
    pub file: String,
    /// `~/.dsh/AGENTS.md` or `$DSH_HOME/AGENTS.md` (SPEC 2.1).
    pub display: String,
}

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
    pub tier: Tier,
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
pub enum Tier {
    UserGlobal,
    Base,
    Local,
}

impl From<TierKind> for Tier {
    fn from(t: TierKind) -> Self {
        match t {
            TierKind::UserGlobal => Tier::UserGlobal,
            TierKind::Base => Tier::Base,
            TierKind::Local => Tier::Local,
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
    pub tier: Tier,
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
    pub symlink: Option<Symlink>,
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
pub struct Symlink {
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

/// The byte budget of the fresh baseline (SPEC 4.3).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetReport {
    pub max_bytes: MaxBytes,
    /// Bytes of the rendered message (0 when none).
    pub used_bytes: usize,
    /// used / max in percent, one decimal; `null` when max <= 0.
    pub percent: Option<f64>,
    /// max - used; `null` when max <= 0.
    pub headroom_bytes: Option<i64>,
    /// How many files load.
    pub files: usize,
    /// Whether a message is sent at all.
    pub sent: bool,
    pub step: Step,
    pub omitted: Vec<String>,
    pub truncated: Option<Truncation>,
}

/// The session view of a log.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionReport {
    /// The log as named on the command line (`-` for stdin).
    pub log: String,
    pub header_cwd: Option<String>,
    /// No event carries a surfaceOp: every message event is visible.
    pub legacy: bool,
    /// JSON records read (the header included).
    pub records: u64,
    /// How the log is stored: `plain` or `zstd`.
    pub encoding: crate::logfile::Encoding,
    /// Complete zstd frames read (`null` for a plain log).
    pub frames: Option<u64>,
    /// Packed chunk rows and the `assistant/chunk` events they stand for.
    pub packed: Option<crate::logfile::packed::PackedCount>,
    pub workspace_events: usize,
    /// Invalid change entries skipped.
    pub invalid_changes: u64,
    /// The kind of the generation that resumes the log, which diff persists.
    pub source_kind: String,
    /// Events of a workspace kind this generation ignores (SPEC 5.2): the
    /// first such kind and how many events; `null` when there are none.
    pub ignored_kind: Option<IgnoredKind>,
    pub visible_baseline: Option<VisibleBaseline>,
    /// The visible scopes, in the order they were first set.
    pub scopes: Vec<VisibleScope>,
    /// Workspace events compaction took off the surface (the latest
    /// `log::SHADOWED_CAP` of them).
    pub shadowed: Vec<ShadowedEvent>,
    /// How many earlier shadowed events `shadowed` leaves out, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shadowed_not_listed: Option<u64>,
    /// Whether compaction shadowed a baseline event (listed or not).
    #[serde(skip)]
    pub shadowed_baseline: bool,
    pub decision: Decision,
    pub reason: String,
    /// The parts diff would send, in order.
    pub parts: Vec<PartReport>,
    /// The persisted source diff would write; `null` when nothing is sent.
    pub source: Option<Source>,
    /// Visible scopes whose directory leaves the project root.
    pub outside_scopes: Vec<reconcile::OutsideScope>,
}

/// The visible baseline event.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VisibleBaseline {
    #[serde(serialize_with = "crate::log::serialize_seq")]
    pub seq: u64,
    pub identity: Option<String>,
    pub identity_matches: bool,
    /// The first key (identity order) whose value differs.
    pub identity_diff: Option<String>,
}

/// A visible scope: its last change and the seq of the event that made it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VisibleScope {
    pub scope: String,
    pub action: baseline::Action,
    pub path: String,
    pub previous_path: Option<String>,
    pub digest: Option<String>,
    #[serde(serialize_with = "crate::log::serialize_seq")]
    pub seq: u64,
}

/// A workspace event that compaction shadowed.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShadowedEvent {
    #[serde(serialize_with = "crate::log::serialize_seq")]
    pub seq: u64,
    pub baseline: bool,
    pub identity: Option<String>,
    pub changes: Vec<Change>,
}

/// One part diff would send.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PartReport {
    pub role: PartRole,
    /// The exact text (the text view abbreviates it unless `--full`).
    pub text: String,
    pub bytes: usize,
    pub changes: Vec<Change>,
    pub omitted: Vec<String>,
    pub truncated: Option<Truncation>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PartRole {
    /// A complete baseline (none was visible).
    Baseline,
    /// A replacement baseline (the identity changed).
    Replacement,
    /// Set, replace and remove sections.
    Delta,
}

/// Events of a kind the resuming generation ignores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IgnoredKind {
    pub kind: String,
    pub events: u64,
}

/// Gathers the report for the resolved settings and an optional log
/// resumed by the generation of `kind`.
pub fn gather(settings: &Settings, log: Option<&Log>, kind: &str) -> Report {
    let ws = discovery::discover(settings, true);
    let fresh = baseline::render(&ws, settings, render::INTRO);
    let root = ws.root().to_path_buf();
    let directories = ws
        .dirs
        .iter()
        .enumerate()
        .map(|(i, d)| dir_report(d, i, settings, &fresh))
        .collect();
    let session = log.map(|log| session_report(settings, &ws, log, kind));
    Report {
        settings: settings_report(settings),
        dsh_home: DshHome {
            path: lossy(&settings.dsh_home.value),
            file: lossy(&settings.user_global_path()),
            display: settings.user_global_display().to_owned(),
        },
        root_search: RootReport {
            markers: settings.root_markers.value.clone(),
            walked: ws.search.walked.iter().map(|p| lossy(p)).collect(),
            marker: ws.search.marker.as_ref().map(|m| MarkerReport {
                name: m.name.clone(),
                dir: lossy(&m.dir),
                is_dir: m.is_dir,
            }),
            root: lossy(&root),
        },
        directories,
        budget: budget_report(settings, &fresh),
        identity: fresh.identity.clone(),
        not_loaded: not_loaded(settings, &ws),
        session,
        prompt: log.map(prompt::analyze),
        dsh_config: None,
    }
}

/// The candidates below the cwd (inside a project) and above it (with no
/// root marker found).
fn not_loaded(settings: &Settings, ws: &discovery::Workspace) -> NotLoaded {
    let names: Vec<&str> = settings
        .candidates
        .value
        .names
        .iter()
        .chain(&settings.local_candidates.value.names)
        .map(String::as_str)
        .collect();
    let cwd = &settings.cwd.value;
    let mut report = NotLoaded::default();
    if ws.search.marker.is_none() {
        for dir in ws.search.walked.iter().skip(1) {
            for name in &names {
                let path = dir.join(name);
                if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_dir()) {
                    report.above.push(lossy(&path));
                }
            }
        }
        return report;
    }
    let walk = ignore::WalkBuilder::new(cwd)
        .standard_filters(false)
        .git_ignore(true)
        .git_exclude(true)
        .parents(true)
        .require_git(true)
        .add_custom_ignore_filename(crate::check::AGENTCTX_IGNORE)
        .filter_entry(|e| e.file_name() != ".git")
        .sort_by_file_name(std::cmp::Ord::cmp)
        .build();
    let mut dirs = 0usize;
    for entry in walk.flatten() {
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        if is_dir {
            dirs += 1;
            if dirs > BELOW_DIRS {
                report.below_stopped = true;
                break;
            }
            continue;
        }
        // Files of the cwd itself are the chain's.
        if entry.depth() < 2 {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        if !names.contains(&name.as_ref()) {
            continue;
        }
        let Some(dir) = entry.path().parent() else {
            continue;
        };
        let shown = crate::paths::dir_display(ws.root(), dir);
        report.below.push(Nested {
            path: crate::paths::file_display(&shown, &name),
            touch: format!("{shown}/"),
        });
    }
    report
}

fn lossy(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn settings_report(s: &Settings) -> SettingsReport {
    let path = |p: &Setting<std::path::PathBuf>| Setting::new(lossy(&p.value), p.origin.clone());
    SettingsReport {
        cwd: path(&s.cwd),
        dsh_home: path(&s.dsh_home),
        max_bytes: s.max_bytes.clone(),
        max_source_bytes: s.max_source_bytes.clone(),
        candidates: ListSetting::new(&s.candidates),
        local_candidates: ListSetting::new(&s.local_candidates),
        root_markers: s.root_markers.clone(),
        precedence: s.precedence.clone(),
    }
}

fn dir_report(dir: &Dir, index: usize, settings: &Settings, fresh: &Baseline) -> DirReport {
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
                digest: text.map(|t| t.digest.clone()),
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
                    (Some(w), Some(me)) => Some(w.digest != me.digest),
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
fn symlink(c: &Candidate) -> Option<Symlink> {
    let link = c.link.as_ref()?;
    let readable = matches!(c.probe, Some(Probe::File { .. }));
    let secret = (readable && link.place.is_secret()).then(|| SecretLink {
        resolved: link.resolved.as_deref().map(lossy).unwrap_or_default(),
        place: link.place.name(),
    });
    Some(Symlink {
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

fn budget_report(settings: &Settings, fresh: &Baseline) -> BudgetReport {
    let max = settings.max_bytes.value;
    let used = fresh.fit.bytes();
    BudgetReport {
        max_bytes: max,
        used_bytes: used,
        percent: max.percent(used),
        headroom_bytes: max.headroom(used),
        files: fresh.files.len(),
        sent: fresh.fit.text.is_some(),
        step: fresh.fit.step,
        omitted: fresh.fit.omitted.clone(),
        truncated: fresh.fit.truncated.clone(),
    }
}

fn session_report(
    settings: &Settings,
    ws: &discovery::Workspace,
    log: &Log,
    kind: &str,
) -> SessionReport {
    let outcome = reconcile::diff(&Request {
        settings,
        workspace: ws,
        log,
        touches: &[],
        kind,
    });
    let visible_baseline = log.visible_baseline_event().map(|ev| VisibleBaseline {
        seq: ev.seq,
        identity: ev.identity.clone(),
        identity_matches: outcome.identity_matches == Some(true),
        identity_diff: outcome.identity_diff.clone(),
    });
    let baseline_role = match outcome.decision {
        Decision::Replacement => PartRole::Replacement,
        _ => PartRole::Baseline,
    };
    let parts = outcome
        .baseline
        .iter()
        .map(|p| (baseline_role, p))
        .chain(outcome.delta.iter().map(|p| (PartRole::Delta, p)))
        .map(|(role, p)| PartReport {
            role,
            text: p.text.clone(),
            bytes: p.text.len(),
            changes: p.changes.clone(),
            omitted: p.fit.omitted.clone(),
            truncated: p.fit.truncated.clone(),
        })
        .collect();
    SessionReport {
        log: log.name.clone(),
        header_cwd: log.header_cwd.clone(),
        legacy: log.is_legacy(),
        records: log.records,
        encoding: log.storage.encoding,
        frames: (log.storage.encoding == crate::logfile::Encoding::Zstd)
            .then_some(log.storage.frames),
        packed: log.storage.packed,
        workspace_events: usize::try_from(log.workspace_events).unwrap_or(usize::MAX),
        invalid_changes: log.invalid_changes,
        source_kind: kind.to_owned(),
        ignored_kind: log.ignored_kind.as_ref().map(|(kind, events)| IgnoredKind {
            kind: kind.clone(),
            events: *events,
        }),
        visible_baseline,
        scopes: visible_scopes(log),
        shadowed: log
            .shadowed
            .iter()
            .map(|e| ShadowedEvent {
                seq: e.seq,
                baseline: e.baseline,
                identity: e.identity.clone(),
                changes: e.changes.clone(),
            })
            .collect(),
        shadowed_not_listed: (log.shadowed_total > log.shadowed.len() as u64)
            .then(|| log.shadowed_total - log.shadowed.len() as u64),
        shadowed_baseline: log.shadowed_baseline,
        decision: outcome.decision,
        reason: outcome.reason.clone(),
        source: outcome.source(),
        outside_scopes: outcome.outside.clone(),
        parts,
    }
}

/// The visible state (SPEC 5.4) with the seq of the event that set each
/// scope, in the order the scopes were first set.
fn visible_scopes(log: &Log) -> Vec<VisibleScope> {
    let mut order: Vec<String> = Vec::new();
    let mut last: HashMap<String, (u64, &Change)> = HashMap::new();
    for ev in log.workspace.iter().filter(|e| e.visible) {
        for change in &ev.changes {
            if !last.contains_key(&change.scope) {
                order.push(change.scope.clone());
            }
            last.insert(change.scope.clone(), (ev.seq, change));
        }
    }
    order
        .iter()
        .filter_map(|scope| last.get(scope))
        .map(|(seq, c)| VisibleScope {
            scope: c.scope.clone(),
            action: c.action,
            path: c.path.clone(),
            previous_path: c.previous_path.clone(),
            digest: c.digest.clone(),
            seq: *seq,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

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

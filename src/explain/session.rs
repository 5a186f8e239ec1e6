//! Stage 5 of explain: a log's session view, the visible state and the
//! decision diff would make.

use serde::Serialize;

use crate::baseline::{self, Change, Source};
use crate::discovery;
use crate::log::Log;
use crate::reconcile::{self, Decision, Request, VisibleScopes};
use crate::render::Truncation;
use crate::settings::Settings;

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

pub(super) fn session_report(
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
    let state = VisibleScopes::visible(log);
    state
        .iter()
        .map(|c| VisibleScope {
            scope: c.scope.clone(),
            action: c.action,
            path: c.path.clone(),
            previous_path: c.previous_path.clone(),
            digest: c.digest.clone(),
            seq: state.seq(&c.scope).unwrap_or_default(),
        })
        .collect()
}

//! What a resumed session receives (SPEC 5.4, 6): the visible state of its
//! log compared with the files on disk now.

use std::borrow::Cow;
use std::collections::HashSet;
use std::path::PathBuf;

use serde::Serialize;

use crate::baseline::{self, Action, Baseline, Change, Source};
use crate::discovery::{
    self, Candidate, Dir, Load, Probe, ScopeStatus, Text, USER_GLOBAL, Workspace,
};
use crate::jsnum::MaxBytes;
use crate::log::Log;
use crate::paths;
use crate::render::{self, Fit, Item, Truncation};
use crate::settings::{self, Settings};

mod visible;

pub use visible::VisibleScopes;

/// What diff decided to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    None,
    Delta,
    Baseline,
    Replacement,
}

impl Decision {
    /// The one name of the decision, in text and JSON alike.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::None => "none",
            Decision::Delta => "delta",
            Decision::Baseline => "baseline",
            Decision::Replacement => "replacement",
        }
    }
}

/// One message part and its budget records.
#[derive(Debug, Clone)]
pub struct Part {
    pub text: String,
    pub fit: Fit,
    pub changes: Vec<Change>,
}

/// A visible scope whose directory leaves the project root (`../x`, or an
/// absolute path): reconciled as logged, since the harness trusts its log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutsideScope {
    /// The log line of the event that first set it.
    pub line: u64,
    /// The scope's directory as logged.
    pub dir: String,
}

/// Everything diff computed.
#[derive(Debug, Clone)]
pub struct Reconciliation {
    /// Visible scopes outside the project root, each once.
    pub outside: Vec<OutsideScope>,
    pub decision: Decision,
    pub reason: String,
    pub identity: String,
    pub kind: String,
    pub visible_baseline_seq: Option<u64>,
    pub identity_matches: Option<bool>,
    pub identity_diff: Option<String>,
    pub baseline: Option<Part>,
    pub delta: Option<Part>,
}

impl Reconciliation {
    /// Sends a whole baseline (fresh or replacement): its changes become
    /// the visible state the delta is computed against.
    fn send_baseline(&mut self, decision: Decision, part: Part, state: &mut VisibleScopes) {
        for c in &part.changes {
            state.set(c.clone());
        }
        self.baseline = Some(part);
        self.decision = decision;
    }

    #[must_use]
    pub fn parts(&self) -> Vec<&str> {
        self.baseline
            .iter()
            .chain(&self.delta)
            .map(|p| p.text.as_str())
            .collect()
    }

    #[must_use]
    pub fn source(&self) -> Option<Source> {
        if self.baseline.is_none() && self.delta.is_none() {
            return None;
        }
        let identity = self.baseline.as_ref().map(|_| self.identity.clone());
        let changes = self
            .baseline
            .iter()
            .chain(&self.delta)
            .flat_map(|p| p.changes.iter().cloned())
            .collect();
        Some(Source::new(&self.kind, identity, changes))
    }

    #[must_use]
    pub fn omitted(&self) -> Vec<String> {
        self.baseline
            .iter()
            .chain(&self.delta)
            .flat_map(|p| p.fit.omitted.iter().cloned())
            .collect()
    }

    #[must_use]
    pub fn truncated(&self) -> Vec<Truncation> {
        self.baseline
            .iter()
            .chain(&self.delta)
            .filter_map(|p| p.fit.truncated.clone())
            .collect()
    }
}

/// Inputs of a diff.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub settings: &'a Settings,
    /// The workspace as discovered now for these settings (explain's
    /// probe-everything scan will do: scope outcomes are the same).
    pub workspace: &'a Workspace,
    pub log: &'a Log,
    pub touches: &'a [PathBuf],
    pub kind: &'a str,
}

/// A pending transition in the delta batch.
struct Pending {
    change: Change,
    head: String,
    content: String,
}

/// Computes what the resumed session receives.
#[must_use]
pub fn diff(req: &Request<'_>) -> Reconciliation {
    let settings = req.settings;
    let ws = req.workspace;
    let current = baseline::render(ws, settings, render::INTRO);
    let mut state = VisibleScopes::visible(req.log);
    let visible = req.log.visible_baseline_event();
    let identity = current.identity.clone();
    let identity_matches = visible.map(|v| v.identity.as_deref() == Some(identity.as_str()));
    let identity_diff = visible
        .and_then(|v| settings::identity_diff(v.identity.as_deref().unwrap_or(""), &identity));
    let mut out = Reconciliation {
        outside: Vec::new(),
        decision: Decision::None,
        reason: String::new(),
        identity,
        kind: req.kind.to_owned(),
        visible_baseline_seq: visible.map(|v| v.seq),
        identity_matches,
        identity_diff,
        baseline: None,
        delta: None,
    };
    if !settings.max_bytes.value.is_enabled() {
        format!(
            "max-bytes {} disables loading (<= 0, NaN or infinite): nothing is sent",
            settings.max_bytes.value
        )
        .clone_into(&mut out.reason);
        return out;
    }
    let extra = extra_dirs(ws, settings, &state, req.touches);
    out.outside = outside_scopes(&state);
    match visible {
        None => send_fresh(&mut out, &current, req.log.any_baseline, &mut state),
        Some(old) if out.identity_matches != Some(true) => {
            send_replacement(&mut out, req, old, &mut state);
        }
        Some(old) => {
            out.reason = format!(
                "the visible baseline (seq {}) matches the current identity: only changes are sent",
                crate::log::seq_text(old.seq)
            );
        }
    }
    let compatible = visible.is_some() && out.identity_matches == Some(true);
    let mut pass = Pass {
        current: &current,
        state: &state,
        settings,
        claimed: HashSet::new(),
        pending: Vec::new(),
    };
    if let Some(sent) = &out.baseline {
        // The files a fresh or replacement baseline represents are loaded
        // (both hold `current`'s files; only the intro, and so the budget's
        // cut, differs).
        let represented = current.files.iter().zip(&sent.fit.represented);
        pass.claimed.extend(
            represented
                .filter(|(_, r)| **r)
                .map(|(f, _)| f.abs_path.clone()),
        );
    }
    if compatible {
        for (i, dir) in ws.dirs.iter().enumerate() {
            pass.reconcile_dir(dir, Some(i));
        }
    }
    for dir in &extra {
        pass.reconcile_dir(dir, None);
    }
    let pending = pass.pending;
    if let Some(part) = delta_part(&pending, settings.max_bytes.value) {
        out.delta = Some(part);
        if out.decision == Decision::None {
            out.decision = Decision::Delta;
        }
    }
    if compatible && out.delta.is_none() {
        out.reason.push_str("; nothing changed");
    }
    out
}

/// No visible baseline: a complete current baseline is sent, when any
/// file loads now.
fn send_fresh(
    out: &mut Reconciliation,
    current: &Baseline,
    shadowed: bool,
    state: &mut VisibleScopes,
) {
    let why = if shadowed {
        "the baseline was shadowed by compaction"
    } else {
        "the log has no workspace baseline"
    };
    out.reason = if current.fit.text.is_some() {
        format!("{why}: a complete current baseline is sent")
    } else {
        format!("{why}, and no instruction file loads now: there is no baseline to send")
    };
    if let Some(text) = current.fit.text.clone() {
        let part = Part {
            text,
            fit: current.fit.clone(),
            changes: current.changes(),
        };
        out.send_baseline(Decision::Baseline, part, state);
    }
}

/// A visible baseline of another identity: a replacement baseline removes
/// its scopes and sets the current ones.
fn send_replacement(
    out: &mut Reconciliation,
    req: &Request<'_>,
    old: &crate::log::WorkspaceEvent,
    state: &mut VisibleScopes,
) {
    let (ws, settings) = (req.workspace, req.settings);
    out.reason = format!(
        "the visible baseline (seq {}) has another identity ({} differs): a replacement baseline is sent",
        crate::log::seq_text(old.seq),
        out.identity_diff.as_deref().unwrap_or("identity")
    );
    let intro = format!("{}{}", render::REPLACE, render::INTRO);
    let fresh = baseline::render(ws, settings, &intro);
    let sets = fresh.changes();
    let mut changes: Vec<Change> = Vec::new();
    // Scopes the new baseline sets, then those already removed.
    let mut taken: HashSet<&str> = sets.iter().map(|s| s.scope.as_str()).collect();
    for c in &old.changes {
        if c.action != Action::Remove && taken.insert(&c.scope) {
            changes.push(Change {
                action: Action::Remove,
                scope: c.scope.clone(),
                path: c.path.clone(),
                previous_path: None,
                digest: None,
            });
        }
    }
    changes.extend(sets);
    let text = if fresh.files.is_empty() {
        render::empty_replacement(settings.max_bytes.value)
    } else {
        fresh.fit.text.clone()
    };
    if text.is_none() {
        out.reason = format!(
            "the visible baseline (seq {}) has another identity ({} differs): the empty replacement baseline does not fit max-bytes {}, so nothing is sent",
            crate::log::seq_text(old.seq),
            out.identity_diff.as_deref().unwrap_or("identity"),
            settings.max_bytes.value
        );
    }
    if let Some(text) = text {
        let part = Part {
            text,
            fit: fresh.fit.clone(),
            changes,
        };
        out.send_baseline(Decision::Replacement, part, state);
    }
}

/// The visible scopes whose directory is absolute or climbs with `..`.
fn outside_scopes(state: &VisibleScopes) -> Vec<OutsideScope> {
    let mut seen = HashSet::new();
    state
        .iter()
        .filter_map(|change| {
            let dir = discovery::scope_dir(&change.scope);
            let leaves = dir.starts_with('/') || dir.split('/').any(|c| c == "..");
            (leaves && seen.insert(dir)).then(|| OutsideScope {
                line: state.first_line(&change.scope).unwrap_or(0),
                dir: dir.to_owned(),
            })
        })
        .collect()
}

/// Directories beyond the baseline's: those of visible scopes (first-set
/// order), then the touched ones, each once.
fn extra_dirs(
    ws: &Workspace,
    settings: &Settings,
    state: &VisibleScopes,
    touches: &[PathBuf],
) -> Vec<Dir> {
    // The baseline's own directories and every one already listed.
    let mut seen: HashSet<PathBuf> = ws
        .dirs
        .iter()
        .filter(|d| !d.is_user_global())
        .map(|d| d.path.clone())
        .collect();
    let mut paths_seen: Vec<PathBuf> = Vec::new();
    for change in state.iter() {
        let d = discovery::scope_dir(&change.scope);
        if d == USER_GLOBAL {
            continue;
        }
        let path = paths::from_display(ws.root(), d);
        if seen.insert(path.clone()) {
            paths_seen.push(path);
        }
    }
    let cwd = &settings.cwd.value;
    for touch in touches {
        let target = paths::normalize(cwd, touch);
        let Some(parent) = target.parent() else {
            continue;
        };
        if parent == cwd || !parent.starts_with(cwd) {
            continue;
        }
        for dir in discovery::chain(cwd, parent).into_iter().skip(1) {
            if seen.insert(dir.clone()) {
                paths_seen.push(dir);
            }
        }
    }
    paths_seen
        .iter()
        .map(|p| ws.scan_in_project(settings, p, false))
        .collect()
}

/// The scope as the `set` and switch sections name it.
fn scope_label(dir: &Dir) -> &str {
    &dir.display
}

/// One reconciliation pass over the batch's directories (SPEC 6, compatible).
struct Pass<'a> {
    current: &'a Baseline,
    state: &'a VisibleScopes,
    settings: &'a Settings,
    /// Lexical absolute paths already loaded earlier in this pass.
    claimed: HashSet<PathBuf>,
    pending: Vec<Pending>,
}

/// What a scope holds now, once this pass's claims are applied.
enum Now<'d> {
    /// Present and loading, with its text.
    Loaded(&'d Candidate, Cow<'d, Text>),
    /// Every candidate absent: a visibly loaded scope is removed.
    Absent,
    /// No transition (unavailable, oversized, unreadable, already claimed).
    Nothing,
}

impl Pass<'_> {
    /// Adds the transitions of one directory. `dir_index` is the
    /// directory's index in the workspace (for the baseline's own omitted and
    /// duplicate-dropped files), or `None` for a directory outside the baseline.
    fn reconcile_dir(&mut self, dir: &Dir, dir_index: Option<usize>) {
        // all mode: an unavailable candidate whose scope is visibly loaded
        // freezes the directory (and so claims nothing).
        if self.settings.precedence.value == settings::Precedence::All
            && dir.scopes.iter().any(|s| {
                s.status == ScopeStatus::Unavailable && self.state.loaded(&s.key).is_some()
            })
        {
            return;
        }
        // Only the current baseline's own budget-omitted or duplicate-dropped
        // files move to the front, matched by scope key, never probed.
        let in_baseline = |s: &discovery::Scope| {
            dir_index.is_some()
                && (matches!(s.status, ScopeStatus::Duplicate(_))
                    || self.current.omits(dir_index, &s.key))
        };
        for scope in dir.scopes.iter().filter(|s| in_baseline(s)) {
            self.remove_if_loaded(&scope.key);
        }
        for scope in dir.scopes.iter().filter(|s| !in_baseline(s)) {
            match self.now(dir, &scope.status) {
                Now::Loaded(cand, text) => self.transition(dir, &scope.key, cand, &text),
                Now::Absent => self.remove_if_loaded(&scope.key),
                Now::Nothing => {}
            }
        }
    }

    /// The scope's state for this pass: a present winner whose path is
    /// already claimed gives nothing; otherwise it claims the path.
    fn now<'d>(&mut self, dir: &'d Dir, status: &ScopeStatus) -> Now<'d> {
        match *status {
            ScopeStatus::Loaded(i) => {
                let cand = &dir.candidates[i];
                match cand.text() {
                    Some(text) if self.claimed.insert(cand.path.clone()) => {
                        Now::Loaded(cand, Cow::Borrowed(text))
                    }
                    _ => Now::Nothing,
                }
            }
            // The scan left it unread because the user-global file had the
            // same path; if that file claimed nothing here, it loads now.
            ScopeStatus::SamePath(i) => {
                let cand = &dir.candidates[i];
                let Some(Probe::File { size }) = cand.probe else {
                    return Now::Nothing;
                };
                if self.claimed.contains(&cand.path) {
                    return Now::Nothing;
                }
                self.claimed.insert(cand.path.clone());
                match discovery::load(&cand.path, size, self.settings.max_source()) {
                    Load::Text(text) => Now::Loaded(cand, Cow::Owned(text)),
                    Load::Oversized { .. } | Load::Unreadable(_) => Now::Nothing,
                }
            }
            // A duplicate outside the baseline chain is removed in its place.
            ScopeStatus::Absent | ScopeStatus::Duplicate(_) => Now::Absent,
            ScopeStatus::Unavailable | ScopeStatus::Blocked => Now::Nothing,
        }
    }

    fn transition(&mut self, dir: &Dir, key: &str, cand: &Candidate, text: &Text) {
        let path = &cand.display;
        let first = self.settings.precedence.value == settings::Precedence::First;
        let (action, head, previous) = match self.state.loaded(key) {
            None => (Action::Set, render::set_head(path, scope_label(dir)), None),
            // all mode (SPEC 6): a changed path is a plain replace without
            // previousPath, even when the digest is equal.
            Some(p) if &p.path != path && !first => {
                (Action::Replace, render::replace_head(path), None)
            }
            Some(p) if &p.path != path => (
                Action::Replace,
                render::switch_head(path, &p.path, scope_label(dir)),
                Some(p.path.clone()),
            ),
            Some(p) if p.digest.as_deref() != Some(text.digest()) => {
                (Action::Replace, render::replace_head(path), None)
            }
            Some(_) => return,
        };
        self.pending.push(Pending {
            change: Change {
                action,
                scope: key.to_owned(),
                path: path.clone(),
                previous_path: previous,
                digest: Some(text.digest().to_owned()),
            },
            head,
            content: text.text.clone(),
        });
    }

    fn remove_if_loaded(&mut self, key: &str) {
        let Some(prev) = self.state.loaded(key) else {
            return;
        };
        self.pending.push(Pending {
            change: Change {
                action: Action::Remove,
                scope: prev.scope.clone(),
                path: prev.path.clone(),
                previous_path: None,
                digest: None,
            },
            head: render::remove_text(&prev.path),
            content: String::new(),
        });
    }
}

/// Renders the delta batch under its own budget; `None` when it represents nothing.
fn delta_part(pending: &[Pending], max: MaxBytes) -> Option<Part> {
    if pending.is_empty() {
        return None;
    }
    let items: Vec<Item<'_>> = pending
        .iter()
        .map(|p| Item {
            path: &p.change.path,
            head: p.head.clone(),
            content: &p.content,
        })
        .collect();
    let fit = render::fit(&items, "", render::COMPACT, max);
    let changes: Vec<Change> = pending
        .iter()
        .zip(&fit.represented)
        .filter(|(_, r)| **r)
        .map(|(p, _)| p.change.clone())
        .collect();
    if changes.is_empty() {
        return None;
    }
    Some(Part {
        text: fit.text.clone()?,
        fit,
        changes,
    })
}

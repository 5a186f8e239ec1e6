//! What a resumed session receives (SPEC 5.4, 6): the visible state of its
//! log compared with the files on disk now.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::baseline::{self, Action, Baseline, Change, Source};
use crate::discovery::{self, Dir, ScopeStatus, USER_GLOBAL, Workspace};
use crate::log::Log;
use crate::paths;
use crate::render::{self, Fit, Item, Truncation};
use crate::settings::{self, Settings};

/// What diff decided to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    None,
    Delta,
    Baseline,
    Replacement,
}

/// The visible state of a log: the last change per scope, in the order the
/// scopes were first set.
#[derive(Debug, Clone, Default)]
pub struct State {
    order: Vec<String>,
    entries: HashMap<String, Change>,
}

impl State {
    /// Folds the changes of every visible workspace event (SPEC 5.4).
    pub fn visible(log: &Log) -> Self {
        let mut state = State::default();
        for ev in log.workspace.iter().filter(|e| e.visible) {
            for change in &ev.changes {
                state.set(change.clone());
            }
        }
        state
    }

    pub fn set(&mut self, change: Change) {
        if !self.entries.contains_key(&change.scope) {
            self.order.push(change.scope.clone());
        }
        self.entries.insert(change.scope.clone(), change);
    }

    pub fn get(&self, scope: &str) -> Option<&Change> {
        self.entries.get(scope)
    }

    /// The visible, non-removed entry of a scope.
    pub fn loaded(&self, scope: &str) -> Option<&Change> {
        self.get(scope).filter(|c| c.action != Action::Remove)
    }

    /// Scopes in first-set order, with their last change.
    pub fn iter(&self) -> impl Iterator<Item = &Change> {
        self.order.iter().filter_map(|s| self.entries.get(s))
    }
}

/// One message part and its budget records.
#[derive(Debug, Clone)]
pub struct Part {
    pub text: String,
    pub fit: Fit,
    pub changes: Vec<Change>,
}

/// Everything diff computed.
#[derive(Debug, Clone)]
pub struct Outcome {
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

impl Outcome {
    pub fn parts(&self) -> Vec<&str> {
        self.baseline
            .iter()
            .chain(&self.delta)
            .map(|p| p.text.as_str())
            .collect()
    }

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

    pub fn omitted(&self) -> Vec<String> {
        self.baseline
            .iter()
            .chain(&self.delta)
            .flat_map(|p| p.fit.omitted.iter().cloned())
            .collect()
    }

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
pub fn diff(req: &Request<'_>) -> Outcome {
    let settings = req.settings;
    let ws = req.workspace;
    let current = baseline::render(ws, settings, render::INTRO);
    let mut state = State::visible(req.log);
    let visible = req.log.visible_baseline_event();
    let identity = current.identity.clone();
    let identity_matches = visible.map(|v| v.identity.as_deref() == Some(identity.as_str()));
    let identity_diff = visible
        .and_then(|v| settings::identity_diff(v.identity.as_deref().unwrap_or(""), &identity));
    let mut out = Outcome {
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
    if settings.max_bytes.value <= 0 {
        out.reason = "max-bytes <= 0 disables loading: nothing is sent".to_owned();
        return out;
    }
    let extra = extra_dirs(ws, settings, &state, req.touches);
    match visible {
        None => {
            let why = if req.log.workspace.iter().any(|e| e.baseline) {
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
                let changes = current.changes();
                for c in &changes {
                    state.set(c.clone());
                }
                out.baseline = Some(Part {
                    text,
                    fit: current.fit.clone(),
                    changes,
                });
                out.decision = Decision::Baseline;
            }
        }
        Some(old) if out.identity_matches != Some(true) => {
            out.reason = format!(
                "the visible baseline (seq {}) has another identity ({} differs): a replacement baseline is sent",
                old.seq,
                out.identity_diff.as_deref().unwrap_or("identity")
            );
            let intro = format!("{}{}", render::REPLACE, render::INTRO);
            let fresh = baseline::render(ws, settings, &intro);
            let sets = fresh.changes();
            let mut changes: Vec<Change> = Vec::new();
            for c in &old.changes {
                let kept = sets.iter().any(|s| s.scope == c.scope);
                let listed = changes.iter().any(|r| r.scope == c.scope);
                if c.action != Action::Remove && !kept && !listed {
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
                    old.seq,
                    out.identity_diff.as_deref().unwrap_or("identity"),
                    settings.max_bytes.value
                );
            }
            if let Some(text) = text {
                for c in &changes {
                    state.set(c.clone());
                }
                out.baseline = Some(Part {
                    text,
                    fit: fresh.fit.clone(),
                    changes,
                });
                out.decision = Decision::Replacement;
            }
        }
        Some(old) => {
            out.reason = format!(
                "the visible baseline (seq {}) matches the current identity: only changes are sent",
                old.seq
            );
        }
    }
    let compatible = visible.is_some() && out.identity_matches == Some(true);
    let mut pending = Vec::new();
    if compatible {
        for (i, dir) in ws.dirs.iter().enumerate() {
            reconcile_dir(dir, Some(i), &current, &state, settings, &mut pending);
        }
    }
    for dir in &extra {
        reconcile_dir(dir, None, &current, &state, settings, &mut pending);
    }
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

/// Directories beyond the baseline's: those of visible scopes (first-set
/// order), then the touched ones, each once.
fn extra_dirs(ws: &Workspace, settings: &Settings, state: &State, touches: &[PathBuf]) -> Vec<Dir> {
    let known: Vec<&Path> = ws
        .dirs
        .iter()
        .filter(|d| !d.is_user_global())
        .map(|d| d.path.as_path())
        .collect();
    let mut paths_seen: Vec<PathBuf> = Vec::new();
    for change in state.iter() {
        let d = discovery::scope_dir(&change.scope);
        if d == USER_GLOBAL {
            continue;
        }
        let path = paths::from_display(ws.root(), d);
        if !known.contains(&path.as_path()) && !paths_seen.contains(&path) {
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
            if !known.contains(&dir.as_path()) && !paths_seen.contains(&dir) {
                paths_seen.push(dir);
            }
        }
    }
    paths_seen
        .iter()
        .map(|p| ws.scan_extra(settings, p, false))
        .collect()
}

/// The scope as the `set` and switch sections name it.
fn scope_label(dir: &Dir) -> &str {
    &dir.display
}

/// Adds the transitions of one directory to the batch (SPEC 6, compatible).
/// `dir_index` is the directory's index in the workspace (for baseline
/// omission), or `None` for a directory outside the baseline.
fn reconcile_dir(
    dir: &Dir,
    dir_index: Option<usize>,
    current: &Baseline,
    state: &State,
    settings: &Settings,
    pending: &mut Vec<Pending>,
) {
    let precedence = settings.precedence.value;
    // all mode: an unavailable candidate whose scope is visibly loaded freezes the directory.
    if precedence == settings::Precedence::All
        && dir
            .scopes
            .iter()
            .any(|s| s.status == ScopeStatus::Unavailable && state.loaded(&s.key).is_some())
    {
        return;
    }
    let omitted_count = current.fit.omitted.len();
    // The budget omits a prefix of the baseline's files.
    let omitted = |scope: &str| {
        current.files[..omitted_count.min(current.files.len())]
            .iter()
            .any(|f| Some(f.dir) == dir_index && f.scope == scope)
    };
    let dropped =
        |s: &discovery::Scope| matches!(s.status, ScopeStatus::Duplicate(_)) || omitted(&s.key);
    let remove = |prev: &Change| Pending {
        change: Change {
            action: Action::Remove,
            scope: prev.scope.clone(),
            path: prev.path.clone(),
            previous_path: None,
            digest: None,
        },
        head: render::remove_text(&prev.path),
        content: String::new(),
    };
    for scope in dir.scopes.iter().filter(|s| dropped(s)) {
        if let Some(prev) = state.loaded(&scope.key) {
            pending.push(remove(prev));
        }
    }
    for scope in dir.scopes.iter().filter(|s| !dropped(s)) {
        let prev = state.loaded(&scope.key);
        match scope.status {
            ScopeStatus::Loaded(i) => {
                let cand = &dir.candidates[i];
                let Some(text) = cand.text() else { continue };
                let path = &cand.display;
                let (action, head, previous) = match prev {
                    None => (Action::Set, render::set_head(path, scope_label(dir)), None),
                    Some(p) if &p.path != path => (
                        Action::Replace,
                        render::switch_head(path, &p.path, scope_label(dir)),
                        Some(p.path.clone()),
                    ),
                    Some(p) if p.digest.as_deref() != Some(text.digest.as_str()) => {
                        (Action::Replace, render::replace_head(path), None)
                    }
                    Some(_) => continue,
                };
                pending.push(Pending {
                    change: Change {
                        action,
                        scope: scope.key.clone(),
                        path: path.clone(),
                        previous_path: previous,
                        digest: Some(text.digest.clone()),
                    },
                    head,
                    content: text.text.clone(),
                });
            }
            ScopeStatus::Absent => {
                if let Some(prev) = prev {
                    pending.push(remove(prev));
                }
            }
            ScopeStatus::Duplicate(_) | ScopeStatus::Unavailable | ScopeStatus::Blocked => {}
        }
    }
}

/// Renders the delta batch under its own budget; `None` when it represents nothing.
fn delta_part(pending: &[Pending], max: i64) -> Option<Part> {
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

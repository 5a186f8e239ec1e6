//! The visible state of a log (SPEC 5.4): what a resumed session was last
//! told about each scope.

use std::collections::HashMap;

use crate::baseline::{Action, Change};
use crate::log::Log;

/// The visible state of a log: the last change per scope, in the order the
/// scopes were first set.
#[derive(Debug, Clone, Default)]
pub struct VisibleScopes {
    order: Vec<String>,
    entries: HashMap<String, Change>,
    /// The log line of the event that first set each visible scope.
    first_line: HashMap<String, u64>,
    /// The seq of the visible event that last set each scope (none once a
    /// change of this pass replaced it).
    last_seq: HashMap<String, u64>,
}

impl VisibleScopes {
    /// Folds the changes of every visible workspace event (SPEC 5.4).
    #[must_use]
    pub fn visible(log: &Log) -> Self {
        let mut state = VisibleScopes::default();
        for ev in log.workspace.iter().filter(|e| e.visible) {
            for change in &ev.changes {
                state
                    .first_line
                    .entry(change.scope.clone())
                    .or_insert(ev.line);
                state.set(change.clone());
                state.last_seq.insert(change.scope.clone(), ev.seq);
            }
        }
        state
    }

    pub fn set(&mut self, change: Change) {
        if !self.entries.contains_key(&change.scope) {
            self.order.push(change.scope.clone());
        }
        self.last_seq.remove(&change.scope);
        self.entries.insert(change.scope.clone(), change);
    }

    /// The log line of the event that first set a scope.
    #[must_use]
    pub fn first_line(&self, scope: &str) -> Option<u64> {
        self.first_line.get(scope).copied()
    }

    /// The seq of the logged event that set a scope's entry, when one did.
    #[must_use]
    pub fn seq(&self, scope: &str) -> Option<u64> {
        self.last_seq.get(scope).copied()
    }

    #[must_use]
    pub fn get(&self, scope: &str) -> Option<&Change> {
        self.entries.get(scope)
    }

    /// The visible, non-removed entry of a scope.
    #[must_use]
    pub fn loaded(&self, scope: &str) -> Option<&Change> {
        self.get(scope).filter(|c| c.action != Action::Remove)
    }

    /// Scopes in first-set order, with their last change.
    pub fn iter(&self) -> impl Iterator<Item = &Change> {
        self.order.iter().filter_map(|s| self.entries.get(s))
    }
}

//! Which workspace events a read log keeps (issue 13: memory bounded by the
//! visible state, not by the log's length).
//!
//! Given the final surface, every workspace event is either visible (kept in
//! [`Log::workspace`]), shadowed by compaction (the last [`SHADOWED_CAP`] of
//! them kept for `explain`, the rest counted), or neither (counted only). A
//! seekable log is read twice, and its second pass feeds each event here as
//! it is read; a pipe is read once, every event held, and sorted here at the
//! end. Both give the same [`Log`].

use std::collections::VecDeque;

use crate::log::{Log, Surface, WorkspaceEvent};

/// How many shadowed workspace events a log keeps (the latest ones).
pub const SHADOWED_CAP: usize = 100;

/// Sorts workspace events, in log order, against a final surface.
pub(crate) struct Sorter {
    surface: Surface,
    ordinals: Vec<usize>,
    legacy: bool,
    /// How many workspace events were seen (a legacy log's surface order).
    index: u64,
    /// The surface position of the last-placed visible baseline so far, and
    /// its index in `Log::workspace`.
    best: Option<((usize, u64), usize)>,
}

impl Sorter {
    pub(crate) fn new(surface: Surface, legacy: bool) -> Self {
        let ordinals = surface.ordinals();
        Sorter {
            surface,
            ordinals,
            legacy,
            index: 0,
            best: None,
        }
    }

    /// Keeps `ev` in `log` if it is visible, among the shadowed if compaction
    /// took it off the surface, else only counts it.
    pub(crate) fn keep(&mut self, log: &mut Log, mut ev: WorkspaceEvent) {
        let pos = if self.legacy {
            Some((0, self.index))
        } else if ev.surfaced {
            self.surface.position(&self.ordinals, ev.seq)
        } else {
            None
        };
        self.index += 1;
        match pos {
            Some(pos) => {
                ev.visible = true;
                if ev.baseline && self.best.is_none_or(|(b, _)| pos >= b) {
                    self.best = Some((pos, log.workspace.len()));
                }
                log.workspace.push(ev);
            }
            None if ev.surfaced => {
                ev.visible = false;
                log.shadowed_total += 1;
                log.shadowed_baseline |= ev.baseline;
                if log.shadowed.len() == SHADOWED_CAP {
                    log.shadowed.pop_front();
                }
                log.shadowed.push_back(ev);
            }
            None => {}
        }
    }

    /// Records the visible baseline in `log` and hands the surface back.
    pub(crate) fn finish(self, log: &mut Log) -> Surface {
        log.visible_baseline = self.best.map(|(_, i)| i);
        self.surface
    }
}

/// Sorts the events a one-pass read held, as the second pass would have.
pub(crate) fn sort_held(log: &mut Log) {
    let held = std::mem::take(&mut log.workspace);
    log.shadowed = VecDeque::new();
    log.shadowed_total = 0;
    log.shadowed_baseline = false;
    let mut sorter = Sorter::new(std::mem::take(&mut log.surface), log.is_legacy());
    for ev in held {
        sorter.keep(log, ev);
    }
    log.surface = sorter.finish(log);
}

/// Moves what the second pass kept into the first pass's log.
pub(crate) fn take_kept(log: &mut Log, second: &mut Log) {
    log.workspace = std::mem::take(&mut second.workspace);
    log.shadowed = std::mem::take(&mut second.shadowed);
    log.shadowed_total = second.shadowed_total;
    log.shadowed_baseline = second.shadowed_baseline;
    log.visible_baseline = second.visible_baseline;
}

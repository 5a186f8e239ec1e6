//! What the budget's cuts do to each chain position, and the over-budget
//! findings they become (see `budget` for the bookkeeping's invariants):
//! a cut is recorded once at the deepest position it reaches, handed down
//! to broader positions as each leaves the chain, and every file's losses
//! become one finding, placed first in its directory's group.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use super::budget::{self, Cut, Excess, Loss, Lost, NAMED, Radius};
use super::chains::{Checker, Link};
use super::prepared::{Prepared, View, index, unindex};
use super::{Detail, Finding};
use crate::render::Plan;

impl Checker<'_> {
    /// The loss record of chain position `pos` of the current stack.
    fn loss_at(&self, pos: usize) -> &RefCell<Loss> {
        if pos < self.ug_files.len() {
            return &self.ug_files[pos].loss;
        }
        let i = self.stack.partition_point(|l| l.before.files <= pos);
        let link = &self.stack[i - 1];
        &link.files[pos - link.before.files].loss
    }

    /// A file leaves the chain: its losses become final, and what it
    /// counted for deeper positions passes to the next broader one.
    fn finish(&mut self, f: &Prepared, pos: usize) -> (usize, Option<(usize, usize)>) {
        let loss = f.loss.take();
        if loss.pending == 0 {
            return (0, None);
        }
        let worst = loss.pending_worst.unwrap_or((0, 0));
        self.lost.push(Lost {
            file: f.shown.to_string(),
            dir: f.group.to_string(),
            pos,
            bytes: f.bytes,
            count: loss.pending,
            truncated: loss.truncated,
            kept_max: loss.kept_max,
            kept_min: loss.kept_min,
            worst,
            first: loss.first,
            spans: vec![(loss.since, self.cuts.len())],
        });
        (loss.pending, loss.pending_worst)
    }

    /// Hands a finished position's counts to position `pos`.
    fn hand_down(cell: &RefCell<Loss>, (count, worst): (usize, Option<(usize, usize)>)) {
        let mut loss = cell.borrow_mut();
        loss.pending += count;
        loss.pending_worst = max_worst(loss.pending_worst, worst);
    }

    /// Pops the stack down to `keep` links, finishing their files.
    pub(super) fn unwind(&mut self, keep: usize) {
        while self.stack.len() > keep {
            let Some(l) = self.stack.pop() else { break };
            for (j, f) in l.files.iter().enumerate().rev() {
                self.work += 1;
                unindex(
                    &mut self.real_at,
                    &mut self.links_to,
                    &l.dir.candidates[f.cand],
                );
                let pos = l.before.files + j;
                let handed = self.finish(f, pos);
                if handed.0 == 0 {
                    continue;
                }
                if j > 0 {
                    Self::hand_down(&l.files[j - 1].loss, handed);
                } else if pos > 0 {
                    Self::hand_down(self.loss_at(pos - 1), handed);
                }
            }
        }
    }

    /// Finishes the user-global files (after every chain left).
    pub(super) fn finish_user_global(&mut self) {
        let files = std::mem::take(&mut self.ug_files);
        for (pos, f) in files.iter().enumerate().rev() {
            let handed = self.finish(f, pos);
            if handed.0 > 0 && pos > 0 {
                Self::hand_down(&files[pos - 1].loss, handed);
            }
        }
        self.ug_files = files;
    }

    /// Records the cut of a directory's baseline: the first `lost`
    /// positions of its chain lose bytes. O(log n) plus the names filled;
    /// returns that work.
    pub(super) fn record_cut(
        view: &View<'_>,
        plan: &Plan,
        shown_dir: &str,
        limit: Option<usize>,
        (cuts, excesses): (&mut Vec<Cut>, &mut Vec<Excess>),
    ) -> u64 {
        if plan.omitted == 0 && plan.truncated.is_none() {
            return 0;
        }
        let Some(limit) = limit else {
            return 0;
        };
        let n = view.n;
        let lost = if plan.truncated.is_some() {
            n
        } else {
            plan.omitted
        };
        let idx = cuts.len();
        let excess = plan.whole.saturating_sub(limit);
        cuts.push(Cut {
            dir: shown_dir.to_owned(),
            lost,
        });
        excesses.push(Excess {
            whole: plan.whole,
            excess,
        });
        let loss_at = |pos: usize| &view.at(pos).2.loss;
        {
            let mut top = loss_at(lost - 1).borrow_mut();
            top.pending += 1;
            top.pending_worst = max_worst(top.pending_worst, Some((excess, idx)));
        }
        if let Some((_, included)) = plan.truncated {
            let mut deepest = loss_at(n - 1).borrow_mut();
            if deepest.truncated == 0 {
                deepest.kept_min = included;
            }
            deepest.truncated += 1;
            deepest.kept_max = deepest.kept_max.max(included);
            deepest.kept_min = deepest.kept_min.min(included);
        }
        // The positions still short of names are a suffix of [0, lost):
        // every cut fills a prefix, and a broader position was in the
        // chain whenever a deeper one was.
        let mut lo = 0;
        let mut hi = lost;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if loss_at(mid).borrow().first.len() >= NAMED {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for pos in lo..lost {
            loss_at(pos).borrow_mut().first.push(idx);
        }
        (lost - lo) as u64 + u64::from(lost.checked_ilog2().unwrap_or(0))
    }

    /// Makes `stack` the chain ending in `chain`: the links it shares with
    /// the chain last judged stay, the rest are replaced.
    pub(super) fn sync(&mut self, chain: &Rc<Link>) {
        let mut missing = Vec::new();
        let mut at = Some(chain);
        while let Some(l) = at {
            if self.stack.get(l.depth).is_some_and(|s| Rc::ptr_eq(s, l)) {
                break;
            }
            missing.push(Rc::clone(l));
            at = l.up.as_ref();
        }
        let keep = at.map_or(0, |l| l.depth + 1);
        self.unwind(keep);
        for l in missing.into_iter().rev() {
            for (j, f) in l.files.iter().enumerate() {
                self.work += 1;
                let cand = &l.dir.candidates[f.cand];
                index(
                    &mut self.real_at,
                    &mut self.links_to,
                    cand,
                    l.before.files + j,
                );
            }
            self.stack.push(l);
        }
    }

    /// One over-budget finding per file that any session lost bytes of,
    /// in the order of their groups, then chain position.
    pub(super) fn budget_findings(&mut self) -> Vec<(usize, usize, Finding)> {
        let cuts: Arc<[Cut]> = std::mem::take(&mut self.cuts).into();
        let mut merged: Vec<Lost> = Vec::new();
        let mut at: HashMap<String, usize> = HashMap::new();
        for l in std::mem::take(&mut self.lost) {
            if let Some(&i) = at.get(&l.file) {
                let m = &mut merged[i];
                m.count += l.count;
                if l.truncated > 0 {
                    m.kept_min = if m.truncated == 0 {
                        l.kept_min
                    } else {
                        m.kept_min.min(l.kept_min)
                    };
                    m.kept_max = m.kept_max.max(l.kept_max);
                }
                m.truncated += l.truncated;
                if l.worst.0 > m.worst.0 {
                    m.worst = l.worst;
                }
                m.first.extend(l.first);
                m.first.sort_unstable();
                m.first.dedup();
                m.first.truncate(budget::NAMED);
                m.spans.extend(l.spans.iter().map(|&(a, b)| (a, b)));
            } else {
                at.insert(l.file.clone(), merged.len());
                merged.push(l);
            }
        }
        let max = self.opts.settings.max_bytes.value;
        let mut out = Vec::with_capacity(merged.len());
        for l in merged {
            let first: Vec<String> = l.first.iter().map(|&i| cuts[i].dir.clone()).collect();
            let spans = l.spans.iter().map(|&(a, b)| (a, b, l.pos)).collect();
            let radius = Radius::of_cuts(l.count, first, Arc::clone(&cuts), spans);
            let (_, worst_cut) = l.worst;
            let worst_dir = cuts[worst_cut].dir.clone();
            let worst = self.excesses[worst_cut];
            let detail = Detail::OverBudget {
                bytes: l.bytes,
                kept_bytes: if l.truncated > 0 { l.kept_max } else { 0 },
                max_bytes: max,
                directories: radius,
                omitted_in: l.count - l.truncated,
                truncated_in: l.truncated,
                worst: worst_dir,
                whole_bytes: worst.whole,
                excess: worst.excess,
                pushes_out: Vec::new(),
                grew_from: None,
                kept_min: l.kept_min,
                setting: "max-bytes",
                itself: None,
            };
            let seq = self.groups.get(&l.dir).copied().unwrap_or(0);
            out.push((seq, l.pos, Finding::new(l.dir, l.file, detail)));
        }
        out.sort_by_key(|(seq, pos, _)| (*seq, *pos));
        out
    }

    /// The findings with each budget finding first in its group.
    pub(super) fn place(&mut self, budget: Vec<(usize, usize, Finding)>) -> Vec<Finding> {
        let findings = std::mem::take(&mut self.findings);
        let mut out = Vec::with_capacity(findings.len() + budget.len());
        let mut budget = budget.into_iter().peekable();
        for f in findings {
            let seq = self.groups.get(&f.dir).copied().unwrap_or(0);
            while let Some((_, _, b)) = budget.next_if(|(s, _, _)| *s <= seq) {
                out.push(b);
            }
            out.push(f);
        }
        out.extend(budget.map(|(_, _, b)| b));
        out
    }
}

/// The larger excess, the earlier cut on a tie.
fn max_worst(a: Option<(usize, usize)>, b: Option<(usize, usize)>) -> Option<(usize, usize)> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.0 > x.0 || (y.0 == x.0 && y.1 < x.1) {
            y
        } else {
            x
        }),
        (x, None) => x,
        (None, y) => y,
    }
}

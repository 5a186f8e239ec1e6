//! Over-budget findings anchored on the file that loses bytes (issue 26):
//! one finding per file that some session gets omitted or truncated, with
//! its blast radius (every checked directory whose session loses bytes of
//! it) and the exact fix.
//!
//! dsh drops files broadest first, so a directory whose baseline omits `k`
//! files loses exactly the first `k` of its chain. The chain judging
//! ([`Loss`] on each prepared file) records each cut once, at the last
//! position it reaches, and hands the count down to broader positions when
//! a position leaves the chain: every cut costs O(log n) however many files
//! it omits, and a file's whole list of directories is computed only when
//! it is printed ([`Radius`]).

use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use crate::jsnum::MaxBytes;

/// How many directories a finding names before it counts the rest.
pub const NAMED: usize = 3;

/// `82,501`: a byte count with thousands grouped by commas.
#[must_use]
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// [`thousands`] of a `usize`.
#[must_use]
pub fn bytes(n: usize) -> String {
    thousands(u64::try_from(n).unwrap_or(u64::MAX))
}

/// A budget as messages write it: a whole number grouped (`65,536`), any
/// other value as the config writes it (`600.5`).
#[must_use]
pub fn budget(max: MaxBytes) -> String {
    match max.limit() {
        // Whole budgets only: `as` is exact for them.
        #[allow(clippy::cast_precision_loss)]
        Some(limit) if (limit as f64 - max.0).abs() < f64::EPSILON => bytes(limit),
        _ => max.to_string(),
    }
}

/// One directory whose baseline was cut: the first `lost` positions of its
/// chain lose bytes (omitted, and the last of them truncated when `cut`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    pub dir: String,
    pub lost: usize,
}

/// Where to find every directory of a file's radius.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Listing {
    /// Listed whole (the profiles' findings, tests).
    Listed(Vec<String>),
    /// The cuts of a walk: in each span `(start, end, pos)` of it, the cuts
    /// that lose position `pos`.
    Cuts {
        cuts: Arc<[Cut]>,
        spans: Vec<(usize, usize, usize)>,
    },
}

/// The directories whose sessions lose bytes of one file, in walk order:
/// their count and first names at hand, the whole list when asked.
#[derive(Clone, PartialEq, Eq)]
pub struct Radius {
    pub count: usize,
    /// The first [`NAMED`] of them.
    pub first: Vec<String>,
    listing: Listing,
}

impl Radius {
    /// The directories of `cuts` that lose position `pos`, within `spans`.
    #[must_use]
    pub fn of_cuts(
        count: usize,
        first: Vec<String>,
        cuts: Arc<[Cut]>,
        spans: Vec<(usize, usize, usize)>,
    ) -> Self {
        Radius {
            count,
            first,
            listing: Listing::Cuts { cuts, spans },
        }
    }

    /// Every directory, in walk order.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        match &self.listing {
            Listing::Listed(all) => all.clone(),
            Listing::Cuts { cuts, spans } => {
                let mut out = Vec::with_capacity(self.count);
                for &(start, end, pos) in spans {
                    let span = &cuts[start.min(cuts.len())..end.min(cuts.len())];
                    out.extend(span.iter().filter(|c| c.lost > pos).map(|c| c.dir.clone()));
                }
                out
            }
        }
    }
}

impl From<Vec<String>> for Radius {
    fn from(all: Vec<String>) -> Self {
        Radius {
            count: all.len(),
            first: all.iter().take(NAMED).cloned().collect(),
            listing: Listing::Listed(all),
        }
    }
}

impl fmt::Debug for Radius {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl Serialize for Radius {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.names())
    }
}

/// What the cuts of one walk did to one chain position (a prepared file):
/// `pending` counts are handed to the next broader position when this one
/// leaves the chain.
#[derive(Debug, Default, Clone)]
pub struct Loss {
    /// Cuts that lose this position or a deeper one, not yet handed down.
    pub pending: usize,
    /// The largest excess among them and its cut.
    pub pending_worst: Option<(usize, usize)>,
    /// Cuts that truncate this file (it is their last position).
    pub truncated: usize,
    /// The most and least bytes a truncation keeps of it.
    pub kept_max: usize,
    pub kept_min: usize,
    /// The first cuts that lose it (at most [`NAMED`]), by index.
    pub first: Vec<usize>,
    /// The length of the walk's cut list when it joined the chain.
    pub since: usize,
}

/// A file's losses once it left the chain: what its finding says.
#[derive(Debug, Clone)]
pub struct Lost {
    /// The file as shown, and the directory its finding is grouped under.
    pub file: String,
    pub dir: String,
    /// Its position in every chain it is part of.
    pub pos: usize,
    /// Its bytes.
    pub bytes: usize,
    pub count: usize,
    pub truncated: usize,
    pub kept_max: usize,
    pub kept_min: usize,
    /// The cuts' largest excess and the cut holding it.
    pub worst: (usize, usize),
    pub first: Vec<usize>,
    /// `(start, end)` of the cut list while it was in the chain.
    pub spans: Vec<(usize, usize)>,
}

/// The numbers of one cut directory, for a file's worst case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Excess {
    /// Bytes the whole baseline needs.
    pub whole: usize,
    /// Bytes past the budget's limit.
    pub excess: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn thousands_are_grouped_by_commas() {
        for (n, s) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (82_501, "82,501"),
            (1_234_567, "1,234,567"),
        ] {
            assert_eq!(thousands(n), s);
        }
        assert_eq!(budget(MaxBytes(65_536.0)), "65,536");
        assert_eq!(budget(MaxBytes(600.5)), "600.5");
    }

    #[test]
    fn a_radius_of_cuts_lists_the_cuts_that_reach_its_position() {
        let cuts: Arc<[Cut]> = vec![
            Cut {
                dir: ".".into(),
                lost: 1,
            },
            Cut {
                dir: "a".into(),
                lost: 3,
            },
            Cut {
                dir: "b".into(),
                lost: 2,
            },
        ]
        .into();
        let r = Radius::of_cuts(2, vec!["a".into(), "b".into()], cuts, vec![(0, 3, 1)]);
        assert_eq!(r.names(), vec!["a", "b"]);
    }
}

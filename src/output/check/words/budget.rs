//! The words of the budget's findings: a cut (and, with `--base`, the
//! file whose growth caused it), a baseline near its budget, a file over
//! max-source-bytes.

use super::Pair;
use crate::check::Detail;
use crate::check::budget::{self, NAMED, Radius};

/// `over budget: cut from 82,501 to 65,124 bytes for sessions in 1
/// directory, to 0 in 13 (., a, a/b and 11 more)`; with `--base`, `over
/// budget: grew from 40 to 9,000 bytes and pushes a/b/AGENTS.md out of
/// sessions in 1 directory (a/b)`, and what it loses itself.
pub(super) fn over_budget(d: &Detail) -> String {
    let Detail::OverBudget {
        bytes,
        kept_bytes,
        kept_min,
        directories,
        omitted_in,
        truncated_in,
        pushes_out,
        grew_from,
        itself,
        ..
    } = d
    else {
        return String::new();
    };
    if let Some(was) = grew_from {
        let first: Vec<String> = pushes_out.iter().take(NAMED).cloned().collect();
        let pushed = format!(
            "over budget: grew from {} to {} bytes and pushes {} out of sessions in {}",
            budget::bytes(*was),
            budget::bytes(*bytes),
            abbreviated(&first, pushes_out.len()),
            radius(directories)
        );
        return match itself {
            Some(own) => {
                let own = over_budget(own);
                let own = own.strip_prefix("over budget: ").unwrap_or(&own);
                format!("{pushed}; itself {own}")
            }
            None => pushed,
        };
    }
    let kept = if kept_bytes == kept_min {
        budget::bytes(*kept_bytes)
    } else {
        format!("at most {}", budget::bytes(*kept_bytes))
    };
    let from = budget::bytes(*bytes);
    match (*truncated_in, *omitted_in) {
        (0, _) => format!(
            "over budget: cut from {from} to 0 bytes for sessions in {}",
            radius(directories)
        ),
        (_, 0) => format!(
            "over budget: cut from {from} to {kept} bytes for sessions in {}",
            radius(directories)
        ),
        (t, o) => format!(
            "over budget: cut from {from} to {kept} bytes for sessions in {}, to 0 in {o} ({})",
            directories_words(t),
            abbreviated(&directories.first, directories.count)
        ),
    }
}

/// The fix of a cut: the exact excess of the worst directory, or the
/// budget to raise from its current value.
pub(super) fn cut_hint(d: &Detail) -> String {
    let Detail::OverBudget {
        max_bytes,
        worst,
        whole_bytes,
        excess,
        setting,
        ..
    } = d
    else {
        return String::new();
    };
    format!(
        "cut {} bytes from what a session in {worst} loads (the largest excess), or raise {setting} (now {}) to {}",
        budget::bytes(*excess),
        budget::budget(*max_bytes),
        budget::bytes(*whole_bytes)
    )
}

/// `14 directories (., a, a/b and 11 more)`.
#[must_use]
pub fn radius(r: &Radius) -> String {
    format!(
        "{} ({})",
        directories_words(r.count),
        abbreviated(&r.first, r.count)
    )
}

/// `1 directory`, `14 directories`.
#[must_use]
pub fn directories_words(n: usize) -> String {
    if n == 1 {
        "1 directory".to_owned()
    } else {
        format!("{n} directories")
    }
}

/// `a, b, c and 11 more` of the first names of a list of `total`.
#[must_use]
pub fn abbreviated(first: &[String], total: usize) -> String {
    let shown = first[..first.len().min(NAMED)].join(", ");
    match total.saturating_sub(NAMED) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

pub(super) fn oversized(file: &str, bytes: u64, max_source_bytes: i64, grew: bool) -> Pair {
    let what = if grew {
        format!("{bytes} bytes when probed, but it grew while read")
    } else {
        format!("{bytes} bytes")
    };
    let max = u64::try_from(max_source_bytes).unwrap_or(0);
    (
        format!(
            "too large: {what}, over max-source-bytes {max_source_bytes}, so sessions do not load it"
        ),
        format!(
            "cut {} bytes from {file}, or raise max-source-bytes (now {}) to {}",
            budget::thousands(bytes.saturating_sub(max)),
            budget::thousands(max),
            budget::thousands(bytes)
        ),
    )
}

pub(super) fn near_budget(d: &Detail) -> Pair {
    let Detail::NearBudget {
        bytes,
        max_bytes,
        percent,
        session,
        warn_at,
        setting,
    } = d
    else {
        return Pair::default();
    };
    let headroom = max_bytes.headroom(*bytes).unwrap_or(0);
    (
        format!(
            "near budget: a session in {session} gets {bytes} of max {max_bytes} bytes ({percent}%, warn at {warn_at}%), {headroom} bytes of headroom"
        ),
        format!(
            "{} bytes of headroom left: cut from what a session in {session} loads before it grows, or raise {setting} (now {})",
            budget::thousands(u64::try_from(headroom).unwrap_or(0)),
            budget::budget(*max_bytes)
        ),
    )
}

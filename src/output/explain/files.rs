//! The files section of the explain view: each scanned directory with its
//! candidates and their outcomes, and the files not in the baseline.

use std::fmt::Write as _;

use crate::explain::{
    CandidateReport, DirReport, Explanation, InMessage, Outcome, Stage, TierName,
};
use crate::output::palette::Tone;
use crate::output::{escape, not_text};
use crate::render::Truncation;
use crate::settings::Precedence;

use super::{Writer, cell, list, width};

pub(super) fn files(w: &mut Writer, r: &Explanation) {
    w.out.push('\n');
    let mode = match r.settings.precedence.value {
        Precedence::First => {
            "(precedence first: per directory and tier the first present name wins)"
        }
        Precedence::All => {
            "(precedence all: every present name loads; same trimmed content loads once per directory)"
        }
    };
    w.heading_note("Files", mode);
    let all: Vec<&CandidateReport> = r.directories.iter().flat_map(|d| &d.candidates).collect();
    let name_w = all
        .iter()
        .map(|c| width(&escape(&c.name)))
        .max()
        .unwrap_or(0);
    let bytes_w = all
        .iter()
        .filter_map(|c| c.bytes)
        .map(|b| b.to_string().len())
        .max()
        .unwrap_or(0);
    let first = r.settings.precedence.value == Precedence::First;
    let mut dirs = r.directories.iter().peekable();
    while let Some(dir) = dirs.next() {
        // A run of directories where every candidate is missing is one
        // line, named by its directories alone.
        if all_missing(dir) {
            missing_run(w, dir, &mut dirs);
            continue;
        }
        w.row(
            2,
            &[
                cell(escape(&dir.display), Tone::Heading),
                cell(escape(&dir.path), Tone::Dim),
            ],
            &[],
        );
        let mut last_tier = None;
        for c in &dir.candidates {
            let tier = if last_tier == Some(c.tier) {
                ""
            } else {
                match c.tier {
                    TierName::UserGlobal => "user",
                    TierName::Base => "base",
                    TierName::Local => "local",
                }
            };
            last_tier = Some(c.tier);
            candidate_row(
                w,
                dir,
                c,
                tier,
                [name_w, bytes_w],
                first,
                r.budget.truncated.as_ref(),
            );
        }
    }
}

/// A run of directories from `dir` where every candidate is missing, as
/// one line named by its directories alone.
fn missing_run<'a>(
    w: &mut Writer,
    dir: &'a DirReport,
    dirs: &mut std::iter::Peekable<std::slice::Iter<'a, DirReport>>,
) {
    let mut run = vec![dir];
    while let Some(next) = dirs.next_if(|d| all_missing(d)) {
        run.push(next);
    }
    let names = match run.as_slice() {
        [one] => escape(&one.display).into_owned(),
        [a, b] => format!("{}, {}", escape(&a.display), escape(&b.display)),
        [a, .., z] => format!(
            "{} to {} ({} directories)",
            escape(&a.display),
            escape(&z.display),
            run.len()
        ),
        [] => String::new(),
    };
    let candidates: Vec<String> = dir.candidates.iter().map(|c| c.name.clone()).collect();
    w.row(
        2,
        &[
            cell(names, Tone::Heading),
            cell("all missing", Tone::Dim),
            cell(list(&candidates), Tone::Dim),
        ],
        &[],
    );
}

/// Whether every candidate of a directory is missing (and none is a
/// symlink), so that it says nothing but that.
fn all_missing(dir: &DirReport) -> bool {
    dir.candidates.len() > 1
        && dir
            .candidates
            .iter()
            .all(|c| c.outcome == Outcome::Missing && c.symlink.is_none())
}

/// How many files below the cwd the text view names.
const BELOW_SHOWN: usize = 20;

/// The instruction files that are not in the baseline: below the cwd,
/// each with the directory whose touch loads it; above a cwd with no root
/// marker, skipped.
pub(super) fn not_loaded(w: &mut Writer, r: &Explanation) {
    let n = &r.not_loaded;
    if n.below.is_empty() && n.above.is_empty() {
        return;
    }
    w.out.push('\n');
    w.heading("Not in the baseline");
    let path_w = n
        .below
        .iter()
        .take(BELOW_SHOWN)
        .map(|f| width(&escape(&f.path)))
        .chain(n.above.iter().map(|p| width(&escape(p))))
        .max()
        .unwrap_or(0);
    for f in n.below.iter().take(BELOW_SHOWN) {
        w.row(
            2,
            &[
                cell(escape(&f.path), Tone::Name),
                cell(
                    format!("loads when the session touches {}", escape(&f.touch)),
                    Tone::Dim,
                ),
            ],
            &[path_w],
        );
    }
    if n.below.len() > BELOW_SHOWN {
        w.line(
            2,
            &[cell(
                format!("and {} more below the cwd", n.below.len() - BELOW_SHOWN),
                Tone::Dim,
            )],
        );
    }
    if n.below_stopped {
        w.line(
            2,
            &[cell(
                format!(
                    "(the walk below the cwd stopped after {} directories)",
                    crate::explain::BELOW_DIRS
                ),
                Tone::Dim,
            )],
        );
    }
    let markers = list(&r.root_search.markers);
    for p in &n.above {
        w.row(
            2,
            &[
                cell(escape(p), Tone::Name),
                cell(
                    format!(
                        "above the cwd: no root marker ({markers}) was found, so the chain is the cwd alone"
                    ),
                    Tone::Dim,
                ),
            ],
            &[path_w],
        );
    }
}

/// Indent of candidate rows, and of the columns before the outcome.
const CAND_INDENT: usize = 4;
const TIER_W: usize = 5;
const OUTCOME_W: usize = 11;

fn candidate_row(
    w: &mut Writer,
    dir: &DirReport,
    c: &CandidateReport,
    tier: &str,
    [name_w, bytes_w]: [usize; 2],
    first: bool,
    truncation: Option<&Truncation>,
) {
    let (label, tone, detail) = described(dir, c, bytes_w, first, truncation);
    let detail = if c.leading_bom {
        format!("{detail}  leading BOM removed")
    } else {
        detail
    };
    w.row(
        CAND_INDENT,
        &[
            cell(tier, Tone::Dim),
            cell(escape(&c.name), Tone::Name),
            cell(label, tone),
            cell(detail, Tone::Plain),
        ],
        &[TIER_W, name_w, OUTCOME_W],
    );
    if let Some(link) = &c.symlink {
        let where_ = match link.outside_root {
            Some(true) => "  (outside the project root)",
            Some(false) => "  (inside the project root)",
            None => "",
        };
        let pad = CAND_INDENT + TIER_W + 2 + name_w + 2;
        w.line(
            pad,
            &[cell(
                format!("symlink → {}{where_}", escape(&link.target)),
                if link.outside_root == Some(true) {
                    Tone::Warn
                } else {
                    Tone::Plain
                },
            )],
        );
    }
}

/// A candidate's outcome as its label, tone and detail (size, digest, and
/// the file it refers to, by name).
fn described(
    dir: &DirReport,
    c: &CandidateReport,
    bytes_w: usize,
    first: bool,
    truncation: Option<&Truncation>,
) -> (&'static str, Tone, String) {
    // The winner or earlier file a candidate refers to, by its name.
    let name_of = |display: &str| -> String {
        dir.candidates
            .iter()
            .find(|o| o.display == display)
            .map_or_else(
                || escape(display).into_owned(),
                |o| escape(&o.name).into_owned(),
            )
    };
    let size = || {
        c.bytes
            .map(|b| format!("{b:>bytes_w$} bytes  {}", short(c.digest.as_deref())))
            .unwrap_or_default()
    };
    // With precedence first, a file that fails to load empties its tier.
    let tier = if first {
        "; its tier loads nothing"
    } else {
        ""
    };
    match &c.outcome {
        Outcome::Loaded => {
            let budget = budget_note(c, truncation);
            ("loaded", Tone::Good, format!("{}{budget}", size()))
        }
        Outcome::Shadowed {
            by,
            content_differs,
        } => {
            let how = match content_differs {
                Some(true) => "content differs",
                Some(false) => "same content",
                None => "content not compared",
            };
            let mut detail = size();
            if !detail.is_empty() {
                detail.push_str("  ");
            }
            let _ = write!(detail, "by {}, {how}", name_of(by));
            ("shadowed", Tone::Warn, detail)
        }
        Outcome::Duplicate { of } => (
            "duplicate",
            Tone::Warn,
            format!("{}  of {} (same trimmed content)", size(), name_of(of)),
        ),
        Outcome::SamePath => (
            "same path",
            Tone::Dim,
            "already loaded as the user-global file".to_owned(),
        ),
        Outcome::Missing => ("missing", Tone::Dim, String::new()),
        Outcome::DanglingSymlink => ("dangling symlink", Tone::Warn, String::new()),
        Outcome::NotRegular { file_type } => ("not a file", Tone::Warn, file_type.clone()),
        Outcome::Oversized {
            size,
            max_source_bytes,
            changed,
        } => (
            "oversized",
            Tone::Bad,
            oversized(*size, *max_source_bytes, *changed, tier),
        ),
        Outcome::Unavailable { error, stage } => {
            ("unavailable", Tone::Bad, unavailable(error, *stage, tier))
        }
        Outcome::Unreadable {
            reason,
            offset,
            cut_at_end,
        } => (
            "unreadable",
            Tone::Bad,
            format!(
                "{}, not loaded{tier}",
                not_text(*reason, *offset, *cut_at_end)
            ),
        ),
        Outcome::NotProbed => ("not probed", Tone::Dim, String::new()),
    }
}

/// Why an oversized candidate was not loaded (`tier`: what that did to
/// its tier).
fn oversized(size: u64, max_source_bytes: u64, changed: bool, tier: &str) -> String {
    if changed {
        format!(
            "{size} bytes when probed, grew past {max_source_bytes} while read, not loaded{tier}"
        )
    } else {
        format!("{size} > {max_source_bytes} bytes, not read{tier}")
    }
}

/// Where an unavailable candidate failed (`tier`: what a failed read did
/// to its tier).
fn unavailable(error: &str, stage: Stage, tier: &str) -> String {
    match stage {
        Stage::Stat => format!("{}; skipped", escape(error)),
        Stage::Read => format!("reading failed: {}{tier}", escape(error)),
    }
}

/// What the budget did to a loaded file, as a note after its size.
fn budget_note(c: &CandidateReport, truncation: Option<&Truncation>) -> String {
    match c.budget {
        Some(InMessage::Truncated) => truncation.filter(|t| t.path == c.display).map_or_else(
            || "  truncated by the budget".to_owned(),
            |t| {
                format!(
                    "  truncated by the budget to {} of {} bytes",
                    t.included_bytes, t.original_bytes
                )
            },
        ),
        Some(InMessage::Omitted) => "  omitted by the budget".to_owned(),
        Some(InMessage::NotSent) => "  not sent: max bytes <= 0".to_owned(),
        Some(InMessage::Included) | None => String::new(),
    }
}

/// The first 8 hex digits of a digest.
pub(super) fn short(digest: Option<&str>) -> &str {
    digest.map_or("", |d| d.get(..8).unwrap_or(d))
}

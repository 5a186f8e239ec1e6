//! The session view of `explain --log`: the log, its visible baseline and
//! scopes, what diff would send, and the prompt report.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::files::short;
use super::{PART_LINES, Tone, Writer, cell, list, width};
use crate::baseline::Change;
use crate::explain::{PartRole, SessionReport};
use crate::log::seq_text;
use crate::output::escape;

/// `set AGENTS.md, replace lib/AGENTS.md`.
fn changes(list: &[Change]) -> String {
    if list.is_empty() {
        return "no changes".to_owned();
    }
    list.iter()
        .map(|c| format!("{} {}", c.action.as_str(), escape(&c.path)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One `key  value` row of the session section.
fn kv(w: &mut Writer, key: &str, value: String, tone: Tone) {
    w.row(2, &[cell(key, Tone::Plain), cell(value, tone)], &[16]);
}

pub(super) fn session_view(w: &mut Writer, s: &SessionReport, full: bool) {
    w.out.push('\n');
    w.row(
        0,
        &[
            cell("Session", Tone::Heading),
            cell(escape(&s.log), Tone::Name),
        ],
        &[],
    );
    kv(
        w,
        "header cwd",
        s.header_cwd.as_deref().map_or_else(
            || "none (no session header)".to_owned(),
            |c| escape(c).into_owned(),
        ),
        Tone::Plain,
    );
    kv(
        w,
        "records",
        format!(
            "{}, {}{}",
            s.records,
            crate::output::plural(s.workspace_events, "workspace event", "workspace events"),
            if s.legacy {
                " (legacy log: no surfaceOp, every message visible)"
            } else {
                ""
            }
        ),
        Tone::Plain,
    );
    storage_rows(w, s);
    if s.invalid_changes > 0 {
        kv(
            w,
            "invalid changes",
            format!("{} skipped", s.invalid_changes),
            Tone::Warn,
        );
    }
    baseline_rows(w, s);
    visible_scopes(w, s);
    shadowed(w, s);
    what_diff_sends(w, s, full);
}

/// How the log is stored: its zstd frames and packed rows.
fn storage_rows(w: &mut Writer, s: &SessionReport) {
    if let Some(frames) = s.frames {
        kv(
            w,
            "storage",
            format!(
                "zstd container, {}",
                crate::output::plural(
                    usize::try_from(frames).unwrap_or(usize::MAX),
                    "frame",
                    "frames"
                )
            ),
            Tone::Plain,
        );
    }
    if let Some(p) = s.packed.filter(|p| p.rows > 0) {
        let uncounted = match p.uncounted {
            0 => String::new(),
            n => format!(" ({n} without a member array not counted)"),
        };
        kv(
            w,
            "packed rows",
            format!(
                "{}, standing for {}{uncounted}",
                p.rows,
                crate::output::plural(
                    usize::try_from(p.events).unwrap_or(usize::MAX),
                    "chunk event",
                    "chunk events"
                )
            ),
            Tone::Plain,
        );
    }
}

/// The source kind and the visible baseline.
fn baseline_rows(w: &mut Writer, s: &SessionReport) {
    let kind = match crate::settings::kind_generation(&s.source_kind) {
        Some(generation) => format!("{}  ({generation})", s.source_kind),
        None => escape(&s.source_kind).into_owned(),
    };
    kv(w, "source kind", kind, Tone::Plain);
    if let Some(ignored) = &s.ignored_kind {
        let generation = crate::settings::kind_generation(&ignored.kind)
            .map_or_else(String::new, |g| format!(" ({g})"));
        kv(
            w,
            "ignored",
            format!(
                "{} of kind {}{generation}: this generation reads only its own kind (--source-kind {} shows the log as that build resumes it)",
                crate::output::plural(
                    usize::try_from(ignored.events).unwrap_or(usize::MAX),
                    "event",
                    "events"
                ),
                escape(&ignored.kind),
                escape(&ignored.kind),
            ),
            Tone::Warn,
        );
    }
    let (visible, tone) = match &s.visible_baseline {
        Some(v) if v.identity_matches => (
            format!("seq {}, identity matches", seq_text(v.seq)),
            Tone::Good,
        ),
        Some(v) => (
            format!(
                "seq {}, identity differs: {}",
                seq_text(v.seq),
                escape(v.identity_diff.as_deref().unwrap_or("identity"))
            ),
            Tone::Warn,
        ),
        None if s.shadowed_baseline => (
            "none: compaction shadowed the baseline".to_owned(),
            Tone::Warn,
        ),
        None => (
            "none: the log has no workspace baseline".to_owned(),
            Tone::Warn,
        ),
    };
    kv(w, "visible baseline", visible, tone);
}

fn visible_scopes(w: &mut Writer, s: &SessionReport) {
    w.out.push('\n');
    w.heading_note(
        "Visible scopes",
        "(last change per scope, in first-set order)",
    );
    if s.scopes.is_empty() {
        w.line(2, &[cell("none", Tone::Dim)]);
    } else {
        let rows: Vec<[String; 5]> = s
            .scopes
            .iter()
            .map(|v| {
                let path = match &v.previous_path {
                    Some(prev) => format!("{} (was {})", escape(&v.path), escape(prev)),
                    None => escape(&v.path).into_owned(),
                };
                [
                    escape(&v.scope).into_owned(),
                    v.action.as_str().to_owned(),
                    path,
                    v.digest
                        .as_deref()
                        .map_or("-", |d| short(Some(d)))
                        .to_owned(),
                    seq_text(v.seq),
                ]
            })
            .collect();
        let head = ["scope", "action", "path", "digest", "seq"].map(str::to_owned);
        let widths: Vec<usize> = (0..5)
            .map(|i| {
                rows.iter()
                    .chain(std::iter::once(&head))
                    .map(|r| width(&r[i]))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        w.row(2, &head.clone().map(|h| cell(h, Tone::Dim)), &widths);
        for r in rows {
            let [scope, action, path, digest, seq] = r;
            w.row(
                2,
                &[
                    cell(scope, Tone::Name),
                    cell(action, Tone::Plain),
                    cell(path, Tone::Plain),
                    cell(digest, Tone::Plain),
                    cell(seq, Tone::Plain),
                ],
                &widths,
            );
        }
    }
}

fn shadowed(w: &mut Writer, s: &SessionReport) {
    w.out.push('\n');
    w.heading("Shadowed by compaction");
    if s.shadowed.is_empty() {
        w.line(2, &[cell("none", Tone::Dim)]);
    }
    if let Some(n) = s.shadowed_not_listed {
        let what = if n == 1 { "event" } else { "events" };
        w.line(
            2,
            &[cell(
                format!("and {n} earlier shadowed {what}, not listed"),
                Tone::Dim,
            )],
        );
    }
    let seq_w = s
        .shadowed
        .iter()
        .map(|e| seq_text(e.seq).len() + 4)
        .max()
        .unwrap_or(0);
    for e in &s.shadowed {
        w.row(
            2,
            &[
                cell(format!("seq {}", seq_text(e.seq)), Tone::Plain),
                cell(if e.baseline { "baseline" } else { "delta" }, Tone::Plain),
                cell(changes(&e.changes), Tone::Plain),
            ],
            &[seq_w, 8],
        );
    }
}

fn what_diff_sends(w: &mut Writer, s: &SessionReport, full: bool) {
    w.out.push('\n');
    w.heading("What diff would send");
    let widths = [8];
    w.row(
        2,
        &[
            cell("decision", Tone::Plain),
            cell(s.decision.as_str(), Tone::Heading),
        ],
        &widths,
    );
    w.row(
        2,
        &[
            cell("reason", Tone::Plain),
            cell(escape(&s.reason), Tone::Plain),
        ],
        &widths,
    );
    for (i, p) in s.parts.iter().enumerate() {
        let role = match p.role {
            PartRole::Baseline => "baseline",
            PartRole::Replacement => "replacement baseline",
            PartRole::Delta => "delta",
        };
        let mut about = format!("{role}, {} bytes: {}", p.bytes, changes(&p.changes));
        if !p.omitted.is_empty() {
            let _ = write!(about, "; omitted {}", list(&p.omitted));
        }
        if let Some(t) = &p.truncated {
            let _ = write!(
                about,
                "; truncated {} from {} to {} bytes",
                escape(&t.path),
                t.original_bytes,
                t.included_bytes
            );
        }
        w.row(
            2,
            &[
                cell(format!("part {}", i + 1), Tone::Plain),
                cell(about, Tone::Plain),
            ],
            &widths,
        );
        snippet(w, &p.text, full);
    }
}

/// A part's text, escaped line by line: whole, or its first lines and how
/// many bytes follow.
fn snippet(w: &mut Writer, text: &str, full: bool) {
    let mut shown = 0usize;
    for (i, line) in text.split('\n').enumerate() {
        if !full && i == PART_LINES {
            break;
        }
        shown += line.len() + 1;
        let escaped: Cow<'_, str> = escape(line);
        w.out.push_str("    ");
        w.out.push_str(&w.palette.paint(Tone::Dim, "│"));
        if !escaped.is_empty() {
            w.out.push(' ');
            w.out.push_str(&escaped);
        }
        w.out.push('\n');
    }
    let rest = text.len().saturating_sub(shown);
    if rest > 0 {
        let more = w.palette.paint(
            Tone::Dim,
            &format!(
                "… {}",
                crate::output::plural(rest, "more byte", "more bytes")
            ),
        );
        w.out.push_str("    ");
        w.out.push_str(&more);
        w.out.push('\n');
    }
}

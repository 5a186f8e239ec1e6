//! check's pull-request comment (`--format markdown`), and the summary
//! table and impact section of its text output. Pure presentation: every
//! fact comes from the report, the impact and the summary rows.

use std::fmt::Write as _;

use super::{View, summary_line};
use crate::check::impact::{DirChange, Impact};
use crate::check::summary::Row;
use crate::output;

/// Escapes text for a Markdown table cell or list item: controls and bidi
/// characters as for people, then Markdown's punctuation.
fn md(text: &str) -> String {
    let safe = output::escape(text);
    let mut out = String::with_capacity(safe.len());
    for c in safe.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '~' | '&'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `+250`, `-12`, `0`.
fn delta(before: Option<usize>, after: Option<usize>) -> String {
    let d = after.unwrap_or(0) as i128 - before.unwrap_or(0) as i128;
    if d > 0 {
        format!("+{d}")
    } else {
        d.to_string()
    }
}

fn bytes(b: Option<usize>) -> String {
    b.map_or_else(|| "none".to_owned(), |b| b.to_string())
}

/// `404 -> 421 bytes`, `406 bytes -> none`, `none -> 407 bytes`.
fn before_after(c: &DirChange, arrow: &str) -> String {
    match (c.bytes_before, c.bytes_after) {
        (Some(b), Some(a)) => format!("{b} {arrow} {a} bytes"),
        (Some(b), None) => format!("{b} bytes {arrow} none"),
        (None, Some(a)) => format!("none {arrow} {a} bytes"),
        (None, None) => format!("none {arrow} none"),
    }
}

/// `1 changed, 2 added` for a directory's files.
fn file_counts(c: &DirChange) -> String {
    let parts: Vec<String> = [
        (c.changed.len(), "changed"),
        (c.added.len(), "added"),
        (c.removed.len(), "removed"),
        (c.newly_omitted.len(), "newly omitted"),
        (c.newly_truncated.len(), "newly truncated"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    if parts.is_empty() {
        "text only".to_owned()
    } else {
        parts.join(", ")
    }
}

/// The whole comment: the impact when there is one, else the findings.
#[must_use]
pub fn render(view: &View<'_>) -> String {
    let report = view.report;
    let mut s = String::from("### agentctx check\n\n");
    let counts = format!(
        "{}, {}",
        output::plural(report.errors, "error", "errors"),
        output::plural(report.warnings, "warning", "warnings")
    );
    match view.impact {
        Some(impact) => impact_md(&mut s, impact),
        None => {
            let _ = writeln!(s, "**{counts}**: {}\n", md(&summary_line(report)));
        }
    }
    if !report.findings.is_empty() {
        s.push_str("| | File | Finding |\n|---|---|---|\n");
        for f in &report.findings {
            let level = f.severity.name();
            let _ = writeln!(s, "| {level} | {} | {} |", md(&f.file), md(&f.message));
        }
        s.push('\n');
    }
    if view.impact.is_some() {
        let _ = writeln!(s, "{}: {counts}", md(&summary_line(report)));
    }
    if let Some(rows) = &view.summary {
        s.push('\n');
        summary_md(&mut s, rows);
    }
    s
}

/// The impact: a summary line, a table of changed directories, and a
/// collapsed details block per directory.
fn impact_md(s: &mut String, impact: &Impact) {
    let n = impact.directories.len();
    let _ = writeln!(
        s,
        "**{} {} what sessions receive** against `{}`: {} new {}, {} pre-existing.\n",
        output::plural(n, "directory", "directories"),
        if n == 1 { "changes" } else { "change" },
        output::escape(&impact.base).replace('`', ""),
        impact.new_errors.len(),
        if impact.new_errors.len() == 1 {
            "error"
        } else {
            "errors"
        },
        impact.preexisting_errors,
    );
    if n > 0 {
        s.push_str("| Directory | Before | After | Change | Files |\n|---|---:|---:|---:|---|\n");
        for c in &impact.directories {
            let _ = writeln!(
                s,
                "| {}{} | {} | {} | {} | {} |",
                md(&c.dir),
                if c.newly_failing {
                    " (now over budget)"
                } else {
                    ""
                },
                bytes(c.bytes_before),
                bytes(c.bytes_after),
                delta(c.bytes_before, c.bytes_after),
                file_counts(c)
            );
        }
        s.push('\n');
        for c in &impact.directories {
            let _ = writeln!(
                s,
                "<details><summary>{}: {}</summary>\n",
                md(&c.dir),
                before_after(c, "→")
            );
            for (what, list) in lists(c) {
                for path in list {
                    let _ = writeln!(s, "- {what}: {}", md(path));
                }
            }
            s.push_str("\n</details>\n\n");
        }
    }
    for f in &impact.new_errors {
        let _ = writeln!(s, "- new error: {}: {}", md(&f.file), md(&f.message));
    }
    if !impact.new_errors.is_empty() {
        s.push('\n');
    }
}

fn lists(c: &DirChange) -> [(&'static str, &[String]); 5] {
    [
        ("changed", &c.changed),
        ("added", &c.added),
        ("removed", &c.removed),
        ("newly omitted", &c.newly_omitted),
        ("newly truncated", &c.newly_truncated),
    ]
}

fn summary_md(s: &mut String, rows: &[Row]) {
    s.push_str(
        "| Directory | Bytes | Of max | Largest file | Headroom |\n|---|---:|---:|---|---:|\n",
    );
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {:.1}% | {} ({}) | {} |",
            md(&r.dir),
            r.bytes,
            r.percent,
            md(&r.largest_file),
            r.largest_bytes,
            r.headroom
        );
    }
}

/// The summary table of the text output; a bar per row on a terminal.
#[must_use]
pub fn summary_table(rows: &[Row], tty: bool) -> String {
    let head = ["directory", "bytes", "of max", "largest file", "headroom"];
    let cells: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            [
                output::escape(&r.dir).into_owned(),
                r.bytes.to_string(),
                format!("{:.1}%", r.percent),
                format!("{} ({})", output::escape(&r.largest_file), r.largest_bytes),
                r.headroom.to_string(),
            ]
        })
        .collect();
    let mut width = head.map(|h| h.chars().count());
    for row in &cells {
        for (w, c) in width.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = String::new();
    let line = |s: &mut String, row: [&str; 5], bar: Option<f64>| {
        let _ = write!(
            s,
            "{:<w0$}  {:>w1$}  {:>w2$}  {:<w3$}  {:>w4$}",
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            w0 = width[0],
            w1 = width[1],
            w2 = width[2],
            w3 = width[3],
            w4 = width[4]
        );
        if let Some(percent) = bar {
            // A share of max-bytes: 0 to 10 cells, whatever the float holds.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let filled = (percent / 10.0).round().clamp(0.0, 10.0) as usize;
            let _ = write!(s, "  [{}{}]", "#".repeat(filled), ".".repeat(10 - filled));
        }
        s.push('\n');
    };
    line(&mut s, head, None);
    for (row, r) in cells.iter().zip(rows) {
        let row = [0, 1, 2, 3, 4].map(|i| row[i].as_str());
        line(&mut s, row, tty.then_some(r.percent));
    }
    s
}

/// The impact section of the text output.
#[must_use]
pub fn impact_text(impact: &Impact) -> String {
    let n = impact.directories.len();
    let mut s = format!(
        "impact against {}: {} {} what sessions receive\n",
        output::escape(&impact.base),
        output::plural(n, "directory", "directories"),
        if n == 1 { "changes" } else { "change" }
    );
    for c in &impact.directories {
        let _ = write!(
            s,
            "  {}: {} ({})",
            output::escape(&c.dir),
            before_after(c, "->"),
            delta(c.bytes_before, c.bytes_after)
        );
        for (what, list) in lists(c) {
            if !list.is_empty() {
                let names: Vec<String> = list
                    .iter()
                    .map(|p| output::escape(p).into_owned())
                    .collect();
                let _ = write!(s, "; {what} {}", names.join(", "));
            }
        }
        if c.newly_failing {
            s.push_str("; now over budget");
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "new: {}, {}; pre-existing: {}, {}",
        output::plural(impact.new_errors.len(), "error", "errors"),
        output::plural(impact.new_warnings.len(), "warning", "warnings"),
        output::plural(impact.preexisting_errors, "error", "errors"),
        output::plural(impact.preexisting_warnings, "warning", "warnings"),
    );
    s
}

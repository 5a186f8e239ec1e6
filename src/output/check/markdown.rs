//! check's pull-request comment (`--format markdown`), and the summary
//! table and impact section of its text output. Pure presentation: every
//! fact comes from the report, the impact and the summary rows.

use std::fmt::Write as _;

use super::{View, Views, summary_line, words};
use crate::check::impact::{DirChange, Impact};
use crate::check::summary::Row;
use crate::output;

/// Escapes text for a Markdown table cell or list item: escaped for people
/// (controls, bidi, workflow commands), then Markdown's punctuation
/// backslash-escaped, then GitHub's links broken ([`unlink`]).
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
    unlink(&out)
}

/// Escapes text inside an HTML element (`<summary>`): an HTML block, where
/// Markdown's backslash escapes are shown as they are, so HTML's own
/// (`&amp;`, `&lt;`, `&gt;`, `&quot;`), then GitHub's links broken.
fn html(text: &str) -> String {
    let safe = output::escape(text);
    let mut out = String::with_capacity(safe.len());
    for c in safe.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    unlink(&out)
}

/// A zero-width space (U+200B): invisible, and no mention, reference or
/// autolink reads across it.
const ZWSP: char = '\u{200B}';

/// Breaks what GitHub turns into a link or a notification in the rendered
/// text of a comment (escaping cannot: it finds them after rendering), by a
/// zero-width space after the character that starts one: every `@` (user
/// and team mentions, e-mail addresses), a `#` before a digit and the `GH`
/// of `GH-` before a digit (issue references), a `:` before `/` (URLs) or
/// before a letter, digit, `_`, `+` or `-` (emoji shortcodes), and the
/// `www` of `www.`.
fn unlink(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or(' ');
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        out.push(c);
        let next = at(i + 1);
        // Whether the characters just before `c` are `s`, any case.
        let after = |s: &str| {
            let n = s.chars().count();
            i >= n
                && chars[i - n..i]
                    .iter()
                    .zip(s.chars())
                    .all(|(a, b)| a.eq_ignore_ascii_case(&b))
        };
        let breaks = match c {
            '@' => true,
            '#' => next.is_ascii_digit(),
            ':' => next == '/' || next.is_ascii_alphanumeric() || "_+-".contains(next),
            'w' | 'W' => next == '.' && after("ww"),
            'h' | 'H' => next == '-' && at(i + 2).is_ascii_digit() && after("g"),
            _ => false,
        };
        if breaks {
            out.push(ZWSP);
        }
    }
    out
}

/// `text` as a Markdown code span: a fence of one backtick more than the
/// longest run of backticks inside, and a space inside each fence when the
/// text starts or ends with a backtick or a space (`CommonMark` strips one
/// each side), so any text reads back exactly. Nothing in a code span is
/// markup, a link or a mention. The text is escaped for people first.
fn code_span(text: &str) -> String {
    let safe = output::escape(text);
    let mut longest = 0;
    let mut run = 0;
    for c in safe.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = safe.starts_with(['`', ' ']) || safe.ends_with(['`', ' ']);
    let pad = if pad && !safe.chars().all(|c| c == ' ') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{safe}{pad}{fence}")
}

/// `+250`, `-12`, `0`, `+63,622`.
fn delta(before: Option<usize>, after: Option<usize>) -> String {
    let (b, a) = (before.unwrap_or(0), after.unwrap_or(0));
    let n = crate::check::budget::bytes;
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => format!("+{}", n(a - b)),
        std::cmp::Ordering::Less => format!("-{}", n(b - a)),
        std::cmp::Ordering::Equal => "0".to_owned(),
    }
}

fn bytes(b: Option<usize>) -> String {
    b.map_or_else(|| "none".to_owned(), |b| b.to_string())
}

/// `404 -> 421 bytes`, `11,068 -> 11,067 bytes`, `406 bytes -> none`,
/// `none -> 407 bytes`.
fn before_after(c: &DirChange, arrow: &str) -> String {
    let n = crate::check::budget::bytes;
    match (c.bytes_before, c.bytes_after) {
        (Some(b), Some(a)) => format!("{} {arrow} {} bytes", n(b), n(a)),
        (Some(b), None) => format!("{} bytes {arrow} none", n(b)),
        (None, Some(a)) => format!("none {arrow} {} bytes", n(a)),
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

/// The whole comment: per harness, the impact when there is one, else the
/// findings (several harnesses: a section each).
#[must_use]
pub fn render(views: &Views<'_>) -> String {
    let mut s = String::from("### agentctx check\n\n");
    for view in &views.0 {
        if views.multi() {
            if !s.ends_with("\n\n") {
                s.push('\n');
            }
            let _ = writeln!(s, "#### {}\n", md(view.report.harness));
        }
        body(&mut s, view);
    }
    s
}

/// One harness's part of the comment.
fn body(s: &mut String, view: &View<'_>) {
    let report = view.report;
    let counts = format!(
        "{}, {}",
        output::plural(report.errors, "error", "errors"),
        output::plural(report.warnings, "warning", "warnings")
    );
    match view.impact {
        Some(impact) => impact_md(s, impact),
        None => {
            let _ = writeln!(s, "**{counts}**: {}\n", md(&summary_line(report)));
        }
    }
    if !report.findings.is_empty() {
        s.push_str("| | File | Finding | Fix |\n|---|---|---|---|\n");
        for f in &report.findings {
            let level = f.severity.name();
            let said = words::words(f);
            let _ = writeln!(
                s,
                "| {level} | {} | {} | {} |",
                md(&f.file),
                md(&said.message),
                md(&said.hint)
            );
        }
        s.push('\n');
    }
    if view.impact.is_some() {
        let _ = writeln!(s, "{}: {counts}", md(&summary_line(report)));
    }
    if let Some(rows) = &view.summary {
        s.push('\n');
        summary_md(s, rows);
    }
}

/// The impact: a summary line, a table of changed directories, and a
/// collapsed details block per directory.
fn impact_md(s: &mut String, impact: &Impact) {
    let n = impact.directories.len();
    let _ = writeln!(
        s,
        "**{} {} what sessions receive** against {}: {} new {}, {} pre-existing.\n",
        output::plural(n, "directory", "directories"),
        if n == 1 { "changes" } else { "change" },
        code_span(&impact.base),
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
                html(&c.dir),
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
        let message = words::message(f);
        let _ = writeln!(s, "- new error: {}: {}", md(&f.file), md(&message));
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
            "| {} | {} | {} | {} ({}) | {} |",
            md(&r.dir),
            r.bytes,
            percent(r.percent),
            md(&r.largest_file),
            r.largest_bytes,
            r.headroom.map_or_else(|| "-".to_owned(), |h| h.to_string())
        );
    }
}

/// `42.0%`, or `-` without a budget.
fn percent(p: Option<f64>) -> String {
    p.map_or_else(|| "-".to_owned(), |p| format!("{p:.1}%"))
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
                percent(r.percent),
                format!("{} ({})", output::escape(&r.largest_file), r.largest_bytes),
                r.headroom.map_or_else(|| "-".to_owned(), |h| h.to_string()),
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
    let line = |s: &mut String, row: [&str; 5], bar: Option<Option<f64>>| {
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
        if let Some(Some(percent)) = bar {
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

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn links_and_mentions_are_broken_by_a_zero_width_space() {
        assert_eq!(
            unlink("@org/team a@b.c #12 #x GH-3 gh-pages https://x www.y :+1: a: b"),
            "@\u{200B}org/team a@\u{200B}b.c #\u{200B}12 #x GH\u{200B}-3 gh-pages https:\u{200B}//x www\u{200B}.y :\u{200B}+1: a: b"
        );
        assert_eq!(unlink("src/app"), "src/app");
    }

    #[test]
    fn html_escapes_what_an_html_block_would_read() {
        assert_eq!(
            html("<a href=\"x\">&amp; @me"),
            "&lt;a href=&quot;x&quot;&gt;&amp;amp; @\u{200B}me"
        );
        assert_eq!(html("my_dir *x*"), "my_dir *x*");
    }

    #[test]
    fn code_spans_outlast_every_backtick_run() {
        assert_eq!(code_span("HEAD~1"), "`HEAD~1`");
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("``x"), "``` ``x ```");
        assert_eq!(code_span(" a "), "`  a  `");
        assert_eq!(code_span("   "), "`   `");
    }
}

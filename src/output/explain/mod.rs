//! The text view of `agentctx explain`: aligned sections, coloured when
//! stdout wants colour. `crate::explain::gather` collects the facts; this
//! module words them. Every name, path, target and snippet goes through
//! `output::escape`. It makes no filesystem call.

use std::fmt::Write as _;

use crate::explain::Explanation;
use crate::output::escape;
use crate::output::palette::{Palette, Tone};
use crate::output::prompt::{Level, PromptLines};

mod dshconfig;
mod files;
mod session;
mod settings;

use files::{files, not_loaded};
use session::session_view;
use settings::{root_search, settings};

/// How many lines of a part the abbreviated view shows.
const PART_LINES: usize = 6;

/// Options of the text view.
#[derive(Debug, Clone, Copy)]
pub struct TextOptions {
    pub palette: Palette,
    /// Print the parts whole.
    pub full: bool,
}

/// One cell of a row: its text (already escaped) and tone.
struct Cell {
    text: String,
    tone: Tone,
}

fn cell(text: impl Into<String>, tone: Tone) -> Cell {
    Cell {
        text: text.into(),
        tone,
    }
}

fn width(text: &str) -> usize {
    text.chars().count()
}

/// The report as text.
#[must_use]
pub fn text(report: &Explanation, opts: TextOptions) -> String {
    let mut w = Writer {
        palette: opts.palette,
        out: String::new(),
    };
    settings(&mut w, report);
    if let Some(dsh) = &report.dsh_config {
        dshconfig::section(&mut w, dsh);
    }
    root_search(&mut w, report);
    files(&mut w, report);
    not_loaded(&mut w, report);
    budget(&mut w, report);
    w.out.push('\n');
    w.heading("Identity");
    w.line(2, &[cell(escape(&report.identity), Tone::Plain)]);
    if let Some(session) = &report.session {
        session_view(&mut w, session, opts.full);
    }
    if let Some(prompt) = &report.prompt {
        w.out.push('\n');
        w.heading("System prompt and runtime context");
        let lines = prompt.lines();
        if lines.is_empty() {
            w.line(2, &[cell("nothing to report", Tone::Dim)]);
        }
        // Each line keeps its own indentation, two spaces in under the section.
        for line in lines {
            let body = escape(&line.text);
            let indent = 2 + line.indent;
            match line.level {
                Level::Heading => w.line(indent, &[cell(body, Tone::Heading)]),
                Level::Info => w.line(indent, &[cell(body, Tone::Plain)]),
                Level::Warning => w.line(indent, &[cell(format!("warning: {body}"), Tone::Warn)]),
            }
        }
    }
    w.out
}

/// Accumulates the text view.
struct Writer {
    palette: Palette,
    out: String,
}

impl Writer {
    fn heading(&mut self, text: &str) {
        let painted = self.palette.paint(Tone::Heading, text);
        self.out.push_str(&painted);
        self.out.push('\n');
    }

    /// A heading followed by a dimmed note on the same line.
    fn heading_note(&mut self, text: &str, note: &str) {
        let head = self.palette.paint(Tone::Heading, text);
        let note = self.palette.paint(Tone::Dim, note);
        let _ = writeln!(self.out, "{head}  {note}");
    }

    /// A line of cells at `indent`, joined by two spaces, empty cells left out.
    fn line(&mut self, indent: usize, cells: &[Cell]) {
        self.row(indent, cells, &[]);
    }

    /// A row: cells padded to `widths` (where given, except the last shown
    /// cell), joined by two spaces; empty trailing cells and trailing
    /// whitespace never appear.
    fn row(&mut self, indent: usize, cells: &[Cell], widths: &[usize]) {
        let last = cells.iter().rposition(|c| !c.text.is_empty());
        let Some(last) = last else {
            return;
        };
        let mut line = " ".repeat(indent);
        for (i, c) in cells.iter().enumerate().take(last + 1) {
            let pad = widths.get(i).copied().unwrap_or(0);
            if c.text.is_empty() && pad == 0 {
                continue;
            }
            line.push_str(&self.palette.paint(c.tone, &c.text));
            if i < last {
                line.push_str(&" ".repeat(pad.saturating_sub(width(&c.text))));
                line.push_str("  ");
            }
        }
        self.out.push_str(&line);
        self.out.push('\n');
    }
}

/// A list for people: escaped names joined by `, `, or `none`.
fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names
            .iter()
            .map(|n| escape(n).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Entries shown quoted, so that an empty one is visible.
fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("\"{}\"", escape(n)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn budget(w: &mut Writer, r: &Explanation) {
    let b = &r.budget;
    w.out.push('\n');
    w.heading("Budget");
    let widths = [9];
    let used = match (b.percent, b.headroom_bytes) {
        _ if !b.max_bytes.is_enabled() => format!(
            "0 bytes: max bytes {} {} disables loading, no message is sent",
            b.max_bytes,
            if b.max_bytes.0 <= 0.0 {
                "<= 0"
            } else {
                "(NaN or infinite)"
            }
        ),
        _ if !b.sent => format!(
            "0 of {} bytes: no file loads, no message is sent",
            b.max_bytes
        ),
        (Some(pct), Some(headroom)) => format!(
            "{} of {} bytes ({pct:.1}%), headroom {headroom} bytes, {}",
            b.used_bytes,
            b.max_bytes,
            crate::output::plural(b.files, "file", "files")
        ),
        _ => format!("{} of {} bytes", b.used_bytes, b.max_bytes),
    };
    w.row(
        2,
        &[cell("used", Tone::Plain), cell(used, Tone::Plain)],
        &widths,
    );
    if !b.sent {
        return;
    }
    let omitted = list(&b.omitted);
    w.row(
        2,
        &[
            cell("omitted", Tone::Plain),
            cell(
                omitted,
                if b.omitted.is_empty() {
                    Tone::Dim
                } else {
                    Tone::Bad
                },
            ),
        ],
        &widths,
    );
    let truncated = b.truncated.as_ref().map_or_else(
        || cell("none", Tone::Dim),
        |t| {
            cell(
                format!(
                    "{} from {} to {} bytes",
                    escape(&t.path),
                    t.original_bytes,
                    t.included_bytes
                ),
                Tone::Bad,
            )
        },
    );
    w.row(2, &[cell("truncated", Tone::Plain), truncated], &widths);
}

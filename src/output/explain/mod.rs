//! The text view of `agentctx explain`: aligned sections, coloured when
//! stdout wants colour. `crate::explain::gather` collects the facts; this
//! module words them. Every name, path, target and snippet goes through
//! `output::escape`. It makes no filesystem call.

use std::fmt::Write as _;

use crate::explain::{CandidateReport, DirReport, InMessage, Outcome, Report, Stage, Tier};
use crate::output::palette::{Palette, Tone};
use crate::output::prompt::{Level, PromptLines};
use crate::output::{escape, not_text};
use crate::render::Truncation;
use crate::settings::{Origin, Precedence};

mod dshconfig;
mod session;
use session::session_view;

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
pub fn text(report: &Report, opts: TextOptions) -> String {
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

fn origin(o: Origin) -> String {
    o.to_string()
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

fn settings(w: &mut Writer, r: &Report) {
    let s = &r.settings;
    w.heading("Settings");
    let p = s.precedence.value;
    let why = match s.precedence.origin {
        Origin::Default => format!("default: {}", p.generation()),
        Origin::Log => "inferred from the log's scope keys".to_owned(),
        Origin::Flag | Origin::Env | Origin::Config(_) => p.generation().to_owned(),
    };
    let no_entries: &[String] = &[];
    // Name, origin, value and its tone, and the entries the setting ignored.
    let rows = [
        (
            "cwd",
            s.cwd.origin.clone(),
            escape(&s.cwd.value).into_owned(),
            Tone::Name,
            no_entries,
        ),
        (
            "dsh home",
            s.dsh_home.origin.clone(),
            format!(
                "{}  (user-global file shown as {})",
                escape(&s.dsh_home.value),
                r.dsh_home.display
            ),
            Tone::Plain,
            no_entries,
        ),
        (
            "max bytes",
            s.max_bytes.origin.clone(),
            s.max_bytes.value.to_string(),
            Tone::Plain,
            no_entries,
        ),
        (
            "max source bytes",
            s.max_source_bytes.origin.clone(),
            s.max_source_bytes.value.to_string(),
            Tone::Plain,
            no_entries,
        ),
        (
            "candidates",
            s.candidates.origin.clone(),
            list(&s.candidates.value),
            Tone::Plain,
            &s.candidates.ignored,
        ),
        (
            "local candidates",
            s.local_candidates.origin.clone(),
            list(&s.local_candidates.value),
            Tone::Plain,
            &s.local_candidates.ignored,
        ),
        (
            "root markers",
            s.root_markers.origin.clone(),
            list(&s.root_markers.value),
            Tone::Plain,
            no_entries,
        ),
        (
            "precedence",
            s.precedence.origin.clone(),
            format!("{}  ({why})", p.as_str()),
            Tone::Plain,
            no_entries,
        ),
    ];
    let origin_width = rows
        .iter()
        .map(|(_, o, ..)| width(&o.to_string()))
        .max()
        .unwrap_or(0);
    let widths = [16, origin_width.max(7)];
    for (name, o, value, tone, ignored) in rows {
        w.row(
            2,
            &[
                cell(name, Tone::Plain),
                cell(origin(o), Tone::Dim),
                cell(value, tone),
            ],
            &widths,
        );
        if !ignored.is_empty() {
            let note = format!(
                "ignored {}: not a plain file name (empty, \".\", \"..\", or holding \"/\" or \"\\\")",
                quoted(ignored)
            );
            w.row(
                2,
                &[
                    cell("", Tone::Plain),
                    cell("", Tone::Plain),
                    cell(note, Tone::Warn),
                ],
                &widths,
            );
        }
    }
}

fn root_search(w: &mut Writer, r: &Report) {
    let rs = &r.root_search;
    w.out.push('\n');
    w.heading_note(
        "Root search",
        &format!("(markers: {}; from the cwd upward)", list(&rs.markers)),
    );
    let widths = [12];
    let found = match &rs.marker {
        Some(m) => cell(
            format!(
                "({} {} found there)",
                escape(&m.name),
                if m.is_dir { "directory" } else { "file" }
            ),
            Tone::Good,
        ),
        None => cell("(no marker found: root = cwd)", Tone::Warn),
    };
    w.row(
        2,
        &[
            cell("project root", Tone::Plain),
            cell(escape(&rs.root), Tone::Name),
            found,
        ],
        &[12, width(&escape(&rs.root))],
    );
    for (i, dir) in rs.walked.iter().enumerate() {
        w.row(
            2,
            &[
                cell(if i == 0 { "walked" } else { "" }, Tone::Plain),
                cell(escape(dir), Tone::Plain),
            ],
            &widths,
        );
    }
}

fn files(w: &mut Writer, r: &Report) {
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
                    Tier::UserGlobal => "user",
                    Tier::Base => "base",
                    Tier::Local => "local",
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
fn not_loaded(w: &mut Writer, r: &Report) {
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
            format!(
                "{}{}",
                if *changed {
                    format!(
                        "{size} bytes when probed, grew past {max_source_bytes} while read, not loaded"
                    )
                } else {
                    format!("{size} > {max_source_bytes} bytes, not read")
                },
                if first {
                    "; its tier loads nothing"
                } else {
                    ""
                }
            ),
        ),
        Outcome::Unavailable { error, stage } => (
            "unavailable",
            Tone::Bad,
            match stage {
                Stage::Stat => format!("{}; skipped", escape(error)),
                Stage::Read => format!(
                    "reading failed: {}{}",
                    escape(error),
                    if first {
                        "; its tier loads nothing"
                    } else {
                        ""
                    }
                ),
            },
        ),
        Outcome::Unreadable {
            reason,
            offset,
            cut_at_end,
        } => (
            "unreadable",
            Tone::Bad,
            format!(
                "{}, not loaded{}",
                not_text(*reason, *offset, *cut_at_end),
                if first {
                    "; its tier loads nothing"
                } else {
                    ""
                }
            ),
        ),
        Outcome::NotProbed => ("not probed", Tone::Dim, String::new()),
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
fn short(digest: Option<&str>) -> &str {
    digest.map_or("", |d| d.get(..8).unwrap_or(d))
}

fn budget(w: &mut Writer, r: &Report) {
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

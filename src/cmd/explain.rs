//! `agentctx explain`: every decision, for a person at a terminal.
//!
//! `crate::explain::gather` collects the facts; this module only presents
//! them: as aligned text sections (coloured when stdout wants colour), or as
//! one JSON document (never coloured). Every name, path, target and snippet
//! shown as text goes through `output::escape`.

use std::borrow::Cow;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use owo_colors::{OwoColorize, Style};

use super::Ctx;
use crate::baseline::Change;
use crate::cli::{ConfigArgs, Format, ProfileArgs, SessionArgs};
use crate::explain::{
    self, CandidateReport, DirReport, InMessage, Outcome, PartRole, Report, SessionReport, Stage,
    Tier,
};
use crate::output::prompt::{Level, PromptLines};
use crate::output::{self, escape};
use crate::render::Truncation;
use crate::settings::{Origin, Precedence};

/// Explain which instruction files a session gets, and why.
///
/// Prints, in sections: the settings and where each value came from (flag,
/// env, log, default) with any ignored candidate entries; the root search,
/// directory by directory, up to the marker that decided the root; every
/// candidate of the user-global directory and of each chain directory, tier
/// by tier, with its outcome (loaded, shadowed, duplicate, missing, not a
/// regular file, oversized, unavailable, same path), its bytes and short
/// digest, and its symlink target; what the byte budget did (used/max,
/// omitted, truncated, headroom); and the baseline identity.
///
/// With --log it adds the session view: the header cwd, the event counts,
/// the visible baseline and whether its identity matches, the visible scopes
/// with the seq that set them, the workspace events compaction shadowed, the
/// decision diff would make and why, the parts it would send (abbreviated
/// unless --full), and the system prompt and runtime-context report.
///
/// Names, paths and snippets are shown with control and bidi characters
/// escaped (`\x1b`, `\u{202e}`). --format json prints the same facts as one
/// JSON document with stable camelCase field names (listed in the README).
#[derive(Debug, Args)]
#[command(after_long_help = AFTER_HELP, after_help = crate::cli::EXIT_CODES)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub session: SessionArgs,

    /// Also explain this session log (plain or zstd): what a resumed session receives and why (`-` reads stdin).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,

    #[command(flatten)]
    pub config: ConfigArgs,

    #[command(flatten)]
    pub profile: ProfileArgs,

    /// With --log, print the parts diff would send whole instead of their first lines.
    #[arg(long)]
    pub full: bool,

    /// Output format: a readable report, or one JSON document.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

const AFTER_HELP: &str = "\
Examples:
  agentctx explain                                   # why this directory gets what it gets
  agentctx explain --cwd packages/app --log session.jsonl
  agentctx explain --log session.jsonl --full        # with the parts diff would send, whole
  agentctx explain --format json | jq .budget

Exit status:
  0  success
  2  bad usage or unusable input";

pub fn run(ctx: &mut Ctx<'_>, args: &ExplainArgs) -> Result<u8> {
    let mut dsh_only = args.config.given();
    dsh_only.extend(args.log.as_ref().map(|_| "--log"));
    dsh_only.extend(args.full.then_some("--full"));
    dsh_only.extend(args.session.strict.then_some("--strict"));
    dsh_only.extend(args.session.session.as_ref().map(|_| "--session"));
    dsh_only.extend(
        args.session
            .sessions_root
            .as_ref()
            .map(|_| "--sessions-root"),
    );
    let command = super::profile::Command::Explain;
    if let Some(profiles) = super::profile::select(command, &args.profile, &dsh_only)? {
        let cwd = args.session.cwd.as_deref();
        return super::profile::explain(ctx, &args.profile, profiles[0], cwd, args.format);
    }
    let (log, settings) = super::session(
        ctx,
        args.log.as_deref(),
        if args.full {
            crate::log::Needs::EVERY_VERSION
        } else {
            crate::log::Needs::ALL
        },
        &args.session,
        &args.config,
        true,
    )?;
    let mut report = explain::gather(&settings, log.as_ref());
    report.prompt = report.prompt.map(output::prompt::with_warnings);
    // A candidate that points at a secret is said on stderr too (SPEC 7).
    let warnings: Vec<String> = report
        .directories
        .iter()
        .flat_map(|d| &d.candidates)
        .filter_map(|c| {
            let link = c.symlink.as_ref()?;
            let secret = link.secret.as_ref()?;
            Some(output::secret_link_warning(
                &c.display,
                &link.target,
                &secret.resolved,
                secret.place == "system",
            ))
        })
        .collect();
    output::warnings(ctx.err, ctx.quiet, &warnings)?;
    if let Some(session) = &report.session {
        let outside = output::outside_scope_warnings(&session.log, &session.outside_scopes);
        output::warnings(ctx.err, ctx.quiet, &outside)?;
    }
    match args.format {
        Format::Json => output::json(ctx.out, &report)?,
        Format::Text => {
            let paint = Paint {
                on: ctx.stdout_color(),
            };
            let opts = TextOptions {
                paint,
                full: args.full,
            };
            ctx.out.write_all(text(&report, opts).as_bytes())?;
        }
    }
    Ok(0)
}

/// How many lines of a part the abbreviated view shows.
const PART_LINES: usize = 6;

/// Options of the text view.
#[derive(Debug, Clone, Copy)]
pub struct TextOptions {
    pub paint: Paint,
    /// Print the parts whole.
    pub full: bool,
}

/// The colours of the text view, decided once; `on: false` writes no escape
/// codes at all.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    pub on: bool,
}

/// The role of a piece of text, which picks its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tone {
    Plain,
    Heading,
    Name,
    Good,
    Warn,
    Bad,
    Dim,
}

impl Paint {
    fn paint(self, tone: Tone, text: &str) -> String {
        if !self.on || text.is_empty() {
            return text.to_owned();
        }
        let style = match tone {
            Tone::Plain => return text.to_owned(),
            Tone::Heading => Style::new().bold(),
            Tone::Name => Style::new().cyan(),
            Tone::Good => Style::new().green(),
            Tone::Warn => Style::new().yellow(),
            Tone::Bad => Style::new().red(),
            Tone::Dim => Style::new().dimmed(),
        };
        text.style(style).to_string()
    }
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
pub fn text(report: &Report, opts: TextOptions) -> String {
    let mut w = Writer {
        paint: opts.paint,
        out: String::new(),
    };
    settings(&mut w, report);
    root_search(&mut w, report);
    files(&mut w, report);
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
        // The report's lines carry their own indentation (headings at the
        // margin, items at two spaces, details at four): keep it, under the section.
        for line in lines {
            let text = escape(&line.text);
            let body = text.trim_start_matches(' ');
            let indent = 2 + text.len() - body.len();
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
    paint: Paint,
    out: String,
}

impl Writer {
    fn heading(&mut self, text: &str) {
        let painted = self.paint.paint(Tone::Heading, text);
        self.out.push_str(&painted);
        self.out.push('\n');
    }

    /// A heading followed by a dimmed note on the same line.
    fn heading_note(&mut self, text: &str, note: &str) {
        let head = self.paint.paint(Tone::Heading, text);
        let note = self.paint.paint(Tone::Dim, note);
        self.out.push_str(&format!("{head}  {note}\n"));
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
            line.push_str(&self.paint.paint(c.tone, &c.text));
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
    let widths = [16, 7];
    let row = |w: &mut Writer, name: &str, o: Origin, value: String, tone: Tone| {
        w.row(
            2,
            &[
                cell(name, Tone::Plain),
                cell(origin(o), Tone::Dim),
                cell(value, tone),
            ],
            &widths,
        );
    };
    row(
        w,
        "cwd",
        s.cwd.origin,
        escape(&s.cwd.value).into_owned(),
        Tone::Name,
    );
    row(
        w,
        "dsh home",
        s.dsh_home.origin,
        format!(
            "{}  (user-global file shown as {})",
            escape(&s.dsh_home.value),
            r.dsh_home.display
        ),
        Tone::Plain,
    );
    row(
        w,
        "max bytes",
        s.max_bytes.origin,
        s.max_bytes.value.to_string(),
        Tone::Plain,
    );
    row(
        w,
        "max source bytes",
        s.max_source_bytes.origin,
        s.max_source_bytes.value.to_string(),
        Tone::Plain,
    );
    let ignored_note = |w: &mut Writer, ignored: &[String]| {
        if !ignored.is_empty() {
            w.row(
                2,
                &[
                    cell("", Tone::Plain),
                    cell("", Tone::Plain),
                    cell(
                        format!(
                            "ignored {}: not a plain file name (empty, \".\", \"..\", or holding \"/\" or \"\\\")",
                            quoted(ignored)
                        ),
                        Tone::Warn,
                    ),
                ],
                &widths,
            );
        }
    };
    row(
        w,
        "candidates",
        s.candidates.origin,
        list(&s.candidates.value),
        Tone::Plain,
    );
    ignored_note(w, &s.candidates.ignored);
    row(
        w,
        "local candidates",
        s.local_candidates.origin,
        list(&s.local_candidates.value),
        Tone::Plain,
    );
    ignored_note(w, &s.local_candidates.ignored);
    row(
        w,
        "root markers",
        s.root_markers.origin,
        list(&s.root_markers.value),
        Tone::Plain,
    );
    let p = s.precedence.value;
    let why = match s.precedence.origin {
        Origin::Default => format!("default: {}", p.generation()),
        Origin::Log => "inferred from the log's scope keys".to_owned(),
        Origin::Flag | Origin::Env => p.generation().to_owned(),
    };
    row(
        w,
        "precedence",
        s.precedence.origin,
        format!("{}  ({why})", p.as_str()),
        Tone::Plain,
    );
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
    for dir in &r.directories {
        w.row(
            2,
            &[
                cell(escape(&dir.display), Tone::Heading),
                cell(escape(&dir.path), Tone::Dim),
            ],
            &[],
        );
        if dir.candidates.len() > 1
            && dir
                .candidates
                .iter()
                .all(|c| c.outcome == Outcome::Missing && c.symlink.is_none())
        {
            w.row(
                CAND_INDENT,
                &[
                    cell("all missing", Tone::Dim),
                    cell(
                        list(
                            &dir.candidates
                                .iter()
                                .map(|c| c.name.clone())
                                .collect::<Vec<_>>(),
                        ),
                        Tone::Dim,
                    ),
                ],
                &[],
            );
            continue;
        }
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
    let (label, tone, detail): (&str, Tone, String) = match &c.outcome {
        Outcome::Loaded => {
            let budget = match c.budget {
                Some(InMessage::Truncated) => {
                    truncation.filter(|t| t.path == c.display).map_or_else(
                        || "  truncated by the budget".to_owned(),
                        |t| {
                            format!(
                                "  truncated by the budget to {} of {} bytes",
                                t.included_bytes, t.original_bytes
                            )
                        },
                    )
                }
                Some(InMessage::Omitted) => "  omitted by the budget".to_owned(),
                Some(InMessage::NotSent) => "  not sent: max bytes <= 0".to_owned(),
                Some(InMessage::Included) | None => String::new(),
            };
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
            detail.push_str(&format!("by {}, {how}", name_of(by)));
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
        Outcome::NotProbed => ("not probed", Tone::Dim, String::new()),
    };
    let detail = if c.invalid_utf8 {
        format!("{detail}  invalid UTF-8 replaced with U+FFFD")
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
        _ if b.max_bytes <= 0 => format!(
            "0 bytes: max bytes {} <= 0 disables loading, no message is sent",
            b.max_bytes
        ),
        _ if !b.sent => format!(
            "0 of {} bytes: no file loads, no message is sent",
            b.max_bytes
        ),
        (Some(pct), Some(headroom)) => format!(
            "{} of {} bytes ({pct:.1}%), headroom {headroom} bytes, {}",
            b.used_bytes,
            b.max_bytes,
            output::plural(b.files, "file", "files")
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

fn session_view(w: &mut Writer, s: &SessionReport, full: bool) {
    w.out.push('\n');
    w.row(
        0,
        &[
            cell("Session", Tone::Heading),
            cell(escape(&s.log), Tone::Name),
        ],
        &[],
    );
    let widths = [16];
    let kv = |w: &mut Writer, key: &str, value: String, tone: Tone| {
        w.row(2, &[cell(key, Tone::Plain), cell(value, tone)], &widths);
    };
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
            output::plural(s.workspace_events, "workspace event", "workspace events"),
            if s.legacy {
                " (legacy log: no surfaceOp, every message visible)"
            } else {
                ""
            }
        ),
        Tone::Plain,
    );
    if let Some(frames) = s.frames {
        kv(
            w,
            "storage",
            format!(
                "zstd container, {}",
                output::plural(frames as usize, "frame", "frames")
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
                output::plural(p.events as usize, "chunk event", "chunk events")
            ),
            Tone::Plain,
        );
    }
    if s.invalid_changes > 0 {
        kv(
            w,
            "invalid changes",
            format!("{} skipped", s.invalid_changes),
            Tone::Warn,
        );
    }
    let kind = match crate::settings::kind_generation(&s.source_kind) {
        Some(generation) => format!("{}  ({generation})", s.source_kind),
        None => escape(&s.source_kind).into_owned(),
    };
    kv(w, "source kind", kind, Tone::Plain);
    let (visible, tone) = match &s.visible_baseline {
        Some(v) if v.identity_matches => (format!("seq {}, identity matches", v.seq), Tone::Good),
        Some(v) => (
            format!(
                "seq {}, identity differs: {}",
                v.seq,
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
                    v.seq.to_string(),
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
        .map(|e| e.seq.to_string().len() + 4)
        .max()
        .unwrap_or(0);
    for e in &s.shadowed {
        w.row(
            2,
            &[
                cell(format!("seq {}", e.seq), Tone::Plain),
                cell(if e.baseline { "baseline" } else { "delta" }, Tone::Plain),
                cell(changes(&e.changes), Tone::Plain),
            ],
            &[seq_w, 8],
        );
    }

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
            about.push_str(&format!("; omitted {}", list(&p.omitted)));
        }
        if let Some(t) = &p.truncated {
            about.push_str(&format!(
                "; truncated {} from {} to {} bytes",
                escape(&t.path),
                t.original_bytes,
                t.included_bytes
            ));
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
        w.out.push_str(&w.paint.paint(Tone::Dim, "│"));
        if !escaped.is_empty() {
            w.out.push(' ');
            w.out.push_str(&escaped);
        }
        w.out.push('\n');
    }
    let rest = text.len().saturating_sub(shown);
    if rest > 0 {
        let more = w.paint.paint(
            Tone::Dim,
            &format!("… {}", output::plural(rest, "more byte", "more bytes")),
        );
        w.out.push_str("    ");
        w.out.push_str(&more);
        w.out.push('\n');
    }
}

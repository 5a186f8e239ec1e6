//! The wording of `agentctx sessions`: one row per stored session, as a
//! table (the columns dsh's web sidebar shows) or JSON (every fact).

use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;

use crate::logfile::Encoding;
use crate::output::escape;
use crate::reconcile::Decision;

/// The optional columns of the table.
#[derive(Debug, Clone, Copy)]
pub struct Columns {
    /// DRIFT, with `--check-drift`.
    pub drift: bool,
    /// CWD and HIDDEN, with `--all`.
    pub all: bool,
}

/// One listed session.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub id: String,
    /// The latest `session/title`'s title; `null` when there is none (or
    /// the log was not read).
    pub title: Option<String>,
    /// The workspace label: the last segment of the cwd.
    pub workspace: Option<String>,
    /// The later of creation and the latest human prompt, as a UTC time.
    pub updated: Option<String>,
    /// The agent preset it runs.
    pub preset: Option<String>,
    /// Why the sidebar hides it (`blank`: no turn yet; `subagent`), or
    /// `null`.
    pub hidden: Option<Hidden>,
    /// Whether its events were read for the title, updated and blank
    /// (not when the log decodes to more than 128 MiB).
    pub summarised: bool,
    /// The header's createdAt, as a UTC time.
    pub created: Option<String>,
    pub modified: Option<String>,
    pub bytes: u64,
    pub encoding: Encoding,
    /// Events, packed chunk events counted one by one; `null` when unknown.
    pub events: Option<u64>,
    pub cwd: Option<String>,
    /// The header's parentSession.
    pub parent: Option<String>,
    pub path: String,
    /// With --check-drift: what a resume would send (`none`: the baseline matches).
    pub drift: Option<Decision>,
    /// Why the log could not be read (a warning, not part of the JSON).
    #[serde(skip)]
    pub unreadable: Option<String>,
}

/// Why dsh's sidebar does not list a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Hidden {
    /// No turn has run yet.
    Blank,
    /// A subagent's session, listed under its parent.
    Subagent,
}

impl Hidden {
    fn word(self) -> &'static str {
        match self {
            Hidden::Blank => "blank",
            Hidden::Subagent => "subagent",
        }
    }
}

/// The word the table shows for a drift decision.
fn drift_word(decision: Decision) -> &'static str {
    match decision {
        Decision::None => "matches",
        Decision::Delta => "drifted: delta",
        Decision::Baseline => "drifted: fresh baseline",
        Decision::Replacement => "drifted: replacement baseline",
    }
}

/// The title the table shows, as dsh's sidebar words it: `New Session`
/// for a blank one, else the latest title, else (untitled) the workspace
/// label, else the id; `?` for a log that was not read.
fn shown_title(r: &Row) -> String {
    if r.hidden == Some(Hidden::Blank) {
        return "New Session".to_owned();
    }
    match (&r.title, r.summarised) {
        (Some(title), _) => title.clone(),
        (None, false) => "?".to_owned(),
        (None, true) => r.workspace.clone().unwrap_or_else(|| r.id.clone()),
    }
}

/// The table: a header line, then one line per session, columns padded;
/// the title, of any length, last.
///
/// # Errors
/// Whatever writing to `out` returns.
pub fn table(out: &mut dyn Write, rows: &[Row], columns: Columns) -> io::Result<()> {
    let mut head = vec!["ID", "UPDATED", "PRESET", "WORKSPACE"];
    if columns.drift {
        head.push("DRIFT");
    }
    if columns.all {
        head.extend(["HIDDEN", "CWD"]);
    }
    head.push("TITLE");
    let unknown = || "?".to_owned();
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut line = vec![
                escape(&r.id).into_owned(),
                r.updated.clone().unwrap_or_else(unknown),
                r.preset
                    .as_deref()
                    .map_or_else(|| "-".to_owned(), |p| escape(p).into_owned()),
                r.workspace
                    .as_deref()
                    .map_or_else(unknown, |w| escape(w).into_owned()),
            ];
            if columns.drift {
                line.push(r.drift.map_or("unreadable", drift_word).to_owned());
            }
            if columns.all {
                line.push(r.hidden.map_or("-", Hidden::word).to_owned());
                line.push(
                    r.cwd
                        .as_deref()
                        .map_or_else(unknown, |c| escape(c).into_owned()),
                );
            }
            line.push(escape(&shown_title(r)).into_owned());
            line
        })
        .collect();
    let width = |i: usize| {
        cells
            .iter()
            .map(|c| c[i].chars().count())
            .chain([head[i].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..head.len()).map(width).collect();
    let head: Vec<String> = head.iter().map(|h| (*h).to_owned()).collect();
    for line in std::iter::once(&head).chain(&cells) {
        let mut text = String::new();
        for (i, cell) in line.iter().enumerate() {
            if i + 1 == line.len() {
                text.push_str(cell);
            } else {
                let pad = widths[i] - cell.chars().count();
                text.push_str(cell);
                text.push_str(&" ".repeat(pad + 2));
            }
        }
        writeln!(out, "{}", text.trim_end())?;
    }
    Ok(())
}

/// The line `agentctx sessions` says on stderr when it lists nothing
/// (exit 0): where it looked, the hidden sessions of the cwd, and the
/// subdirectories that have sessions, as (path relative to the cwd, count).
#[must_use]
pub fn none_hint(
    cwd: &str,
    root: &str,
    root_exists: bool,
    hidden: usize,
    below: &[(String, usize)],
) -> String {
    if !root_exists {
        return format!(
            "no dsh session of {cwd}: the sessions root {root} does not exist (dsh makes it when it stores its first session)"
        );
    }
    let mut line = format!("no dsh session of {cwd} under {root}");
    if hidden > 0 {
        let _ = write!(
            line,
            "; {hidden} blank or subagent session{} hidden",
            if hidden == 1 { " is" } else { "s are" }
        );
    }
    if !below.is_empty() {
        let shown: Vec<String> = below
            .iter()
            .take(5)
            .map(|(dir, n)| format!("{dir} ({n})"))
            .collect();
        let _ = write!(
            line,
            "; subdirectories with sessions: {}{} (list one with --cwd DIR)",
            shown.join(", "),
            if below.len() > 5 { ", ..." } else { "" }
        );
    }
    line.push_str("; `agentctx sessions --all` lists every session of every project");
    line
}

/// What `agentctx sessions --all` says on stderr when there is none.
#[must_use]
pub fn none_at_all_hint(root: &str, root_exists: bool) -> String {
    if root_exists {
        format!("no dsh session is stored under {root}")
    } else {
        format!(
            "no dsh session is stored: the sessions root {root} does not exist (dsh makes it when it stores its first session)"
        )
    }
}

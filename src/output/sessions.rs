//! The wording of `agentctx sessions`: one row per stored session, as a
//! table or JSON.

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
    /// CWD, with `--all`.
    pub cwd: bool,
}

/// One listed session.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub id: String,
    /// The header's createdAt, as a UTC time.
    pub created: Option<String>,
    pub modified: Option<String>,
    pub bytes: u64,
    pub encoding: Encoding,
    /// Events, packed chunk events counted one by one; `null` when unknown.
    pub events: Option<u64>,
    pub cwd: Option<String>,
    pub path: String,
    /// With --check-drift: what a resume would send (`none`: the baseline matches).
    pub drift: Option<Decision>,
    /// Why the log could not be read (a warning, not part of the JSON).
    #[serde(skip)]
    pub unreadable: Option<String>,
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

/// The table: a header line, then one line per session, columns padded.
///
/// # Errors
/// Whatever writing to `out` returns.
pub fn table(out: &mut dyn Write, rows: &[Row], columns: Columns) -> io::Result<()> {
    let mut head = vec!["ID", "CREATED", "MODIFIED", "SIZE", "ENCODING", "EVENTS"];
    if columns.drift {
        head.push("DRIFT");
    }
    if columns.cwd {
        head.push("CWD");
    }
    let unknown = || "?".to_owned();
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut line = vec![
                escape(&r.id).into_owned(),
                r.created.clone().unwrap_or_else(unknown),
                r.modified.clone().unwrap_or_else(unknown),
                r.bytes.to_string(),
                r.encoding.name().to_owned(),
                r.events.map_or_else(unknown, |n| n.to_string()),
            ];
            if columns.drift {
                line.push(r.drift.map_or("unreadable", drift_word).to_owned());
            }
            if columns.cwd {
                line.push(
                    r.cwd
                        .as_deref()
                        .map_or_else(unknown, |c| escape(c).into_owned()),
                );
            }
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
        writeln!(out, "{text}")?;
    }
    Ok(())
}

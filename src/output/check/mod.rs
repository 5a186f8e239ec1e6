//! The wording of `agentctx check`: findings grouped by directory (text),
//! one document (JSON), workflow commands (`github`), a pull-request comment
//! and the text tables (`markdown`). Every fact comes from the report, the
//! impact and the summary rows; nothing here touches the filesystem.

pub mod github;
pub mod markdown;

use std::fmt;
use std::io::{self, Write};

use crate::check::impact::Impact;
use crate::check::{Finding, Report, Severity, summary};
use crate::output::palette::{Palette, Tone};
use crate::output::{escape, plural};

/// What the presentations show: the report, the impact against a
/// revision, the summary rows.
#[derive(Debug)]
pub struct View<'a> {
    pub report: &'a Report,
    pub impact: Option<&'a Impact>,
    pub summary: Option<Vec<summary::Row>>,
}

impl View<'_> {
    /// The JSON document: the report, with `summary` and `impact` when asked for.
    #[must_use]
    pub fn json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self.report).unwrap_or_default();
        if let Some(rows) = &self.summary {
            value["summary"] = serde_json::to_value(rows).unwrap_or_default();
        }
        if let Some(impact) = self.impact {
            value["impact"] = serde_json::to_value(impact).unwrap_or_default();
        }
        value
    }
}

/// A finding as a line of the text output, under its directory:
/// `  error: FILE: MESSAGE`, the label coloured by the palette.
#[derive(Debug)]
pub struct Listed<'a> {
    pub finding: &'a Finding,
    pub palette: Palette,
}

impl fmt::Display for Listed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tone = match self.finding.severity {
            Severity::Error => Tone::Error,
            Severity::Warning => Tone::Warning,
        };
        write!(
            f,
            "  {}: {}: {}",
            self.palette.paint(tone, self.finding.severity.name()),
            escape(&self.finding.file),
            escape(&self.finding.message)
        )
    }
}

/// Findings grouped by directory (in walk order), the summary table and
/// the impact when asked for, then the summary line.
///
/// # Errors
/// Whatever writing to `out` returns.
pub fn text(out: &mut dyn Write, view: &View<'_>, palette: Palette, tty: bool) -> io::Result<()> {
    let report = view.report;
    let mut group: Option<&str> = None;
    for finding in &report.findings {
        if group != Some(finding.dir.as_str()) {
            if group.is_some() {
                writeln!(out)?;
            }
            writeln!(
                out,
                "{}",
                palette.paint(Tone::Heading, &escape(&finding.dir))
            )?;
            group = Some(&finding.dir);
        }
        writeln!(out, "{}", Listed { finding, palette })?;
    }
    if group.is_some() {
        writeln!(out)?;
    }
    if let Some(rows) = &view.summary {
        out.write_all(markdown::summary_table(rows, tty).as_bytes())?;
        writeln!(out)?;
    }
    if let Some(impact) = view.impact {
        out.write_all(markdown::impact_text(impact).as_bytes())?;
        writeln!(out)?;
    }
    let count = |n: usize, one: &str, many: &str, tone: Tone| {
        let words = plural(n, one, many);
        if n > 0 {
            palette.paint(tone, &words)
        } else {
            words
        }
    };
    writeln!(
        out,
        "{}; {}, {}",
        escape(&summary_line(report)),
        count(report.errors, "error", "errors", Tone::Error),
        count(report.warnings, "warning", "warnings", Tone::Warning)
    )
}

/// `checked N of M directories; largest baseline: B bytes in DIR`.
#[must_use]
pub fn summary_line(report: &Report) -> String {
    let largest = match &report.largest {
        Some(l) => format!("largest baseline: {} bytes in {}", l.bytes, l.dir),
        None => "no instruction files".to_owned(),
    };
    format!(
        "checked {} of {} {}; {largest}",
        report.checked,
        report.walked,
        if report.walked == 1 {
            "directory"
        } else {
            "directories"
        }
    )
}

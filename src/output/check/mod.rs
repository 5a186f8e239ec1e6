//! The wording of `agentctx check`: findings grouped by directory (text),
//! one document (JSON), workflow commands (`github`), a pull-request comment
//! and the text tables (`markdown`), a SARIF log (`sarif`). Every fact comes
//! from the report, the impact and the summary rows, every finding's message
//! and hint from `words`; nothing here touches the filesystem.

pub mod github;
pub mod markdown;
pub mod sarif;
pub mod words;

use std::fmt;
use std::io::{self, Write};

use crate::check::impact::Impact;
use serde::Serialize;

use crate::check::{Detail, Finding, Report, Severity, summary};
use crate::output::palette::{Palette, Tone};
use crate::output::{escape, plural};

/// What the presentations show of one harness: its report, the impact
/// against a revision, the summary rows.
#[derive(Debug)]
pub struct View<'a> {
    pub report: &'a Report,
    pub impact: Option<&'a Impact>,
    pub summary: Option<Vec<summary::Row>>,
}

impl View<'_> {
    /// The JSON document of one harness: the report, with `summary` and
    /// `impact` when asked for (and, for a harness besides dsh, what each
    /// directory receives as `directories`).
    #[must_use]
    pub fn json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self.report).unwrap_or_default();
        value["findings"] = worded(&self.report.findings);
        if self.report.directories.is_none() && self.report.harness != "dsh" {
            let shown: Vec<&crate::check::Received> =
                self.report.received.iter().filter(|d| !d.also).collect();
            value["directories"] = serde_json::to_value(shown).unwrap_or_default();
        }
        if let Some(rows) = &self.summary {
            value["summary"] = serde_json::to_value(rows).unwrap_or_default();
        }
        if let Some(impact) = self.impact {
            value["impact"] = serde_json::to_value(impact).unwrap_or_default();
            value["impact"]["newErrors"] = worded(&impact.new_errors);
            value["impact"]["newWarnings"] = worded(&impact.new_warnings);
        }
        value
    }

    /// `codex: ` before its lines when it must be told apart: several
    /// harnesses, or one besides dsh.
    #[must_use]
    pub fn label(&self, multi: bool) -> String {
        if multi || self.report.harness != "dsh" {
            format!("{}: ", self.report.harness)
        } else {
            String::new()
        }
    }
}

/// A finding as the JSON holds it: its facts with its `message` and `hint`
/// in their place (after `title`, before the kind's fields).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Worded<'a> {
    severity: Severity,
    rule: &'a str,
    dir: &'a str,
    file: &'a str,
    title: &'a str,
    message: String,
    hint: String,
    #[serde(flatten)]
    detail: &'a Detail,
}

/// The JSON of findings, each with its words.
fn worded(findings: &[Finding]) -> serde_json::Value {
    let list: Vec<Worded<'_>> = findings
        .iter()
        .map(|f| {
            let w = words::words(f);
            Worded {
                severity: f.severity,
                rule: f.rule,
                dir: &f.dir,
                file: &f.file,
                title: f.title,
                message: w.message,
                hint: w.hint,
                detail: &f.detail,
            }
        })
        .collect();
    serde_json::to_value(list).unwrap_or_default()
}

/// Every harness checked, in order (dsh first when it is one).
#[derive(Debug)]
pub struct Views<'a>(pub Vec<View<'a>>);

impl Views<'_> {
    /// Whether several harnesses were checked.
    #[must_use]
    pub fn multi(&self) -> bool {
        self.0.len() > 1
    }

    /// One harness: its document; several: `{"harnesses": [...], "errors",
    /// "warnings"}`.
    #[must_use]
    pub fn json(&self) -> serde_json::Value {
        match self.0.as_slice() {
            [one] => one.json(),
            views => {
                let errors: usize = views.iter().map(|v| v.report.errors).sum();
                let warnings: usize = views.iter().map(|v| v.report.warnings).sum();
                serde_json::json!({
                    "harnesses": views.iter().map(View::json).collect::<Vec<_>>(),
                    "errors": errors,
                    "warnings": warnings,
                })
            }
        }
    }
}

/// A finding as lines of the text output, under its directory:
/// `  error: FILE: MESSAGE`, the label coloured by the palette, then
/// `    fix: HINT`.
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
        let label = self.palette.paint(tone, self.finding.severity.name());
        let said = words::words(self.finding);
        if self.finding.file.is_empty() {
            write!(f, "  {label}: {}", escape(&said.message))?;
        } else {
            write!(
                f,
                "  {label}: {}: {}",
                escape(&self.finding.file),
                escape(&said.message)
            )?;
        }
        write!(f, "\n    fix: {}", escape(&said.hint))
    }
}

/// Findings grouped by harness and directory (in walk order), the
/// summary tables and the impacts when asked for, then one summary line
/// per harness.
///
/// # Errors
/// Whatever writing to `out` returns.
pub fn text(out: &mut dyn Write, views: &Views<'_>, palette: Palette, tty: bool) -> io::Result<()> {
    let multi = views.multi();
    let mut any = false;
    for view in &views.0 {
        let label = view.label(multi);
        let mut group: Option<&str> = None;
        for finding in &view.report.findings {
            if group != Some(finding.dir.as_str()) {
                if any {
                    writeln!(out)?;
                }
                let heading = format!("{label}{}", finding.dir);
                writeln!(out, "{}", palette.paint(Tone::Heading, &escape(&heading)))?;
                group = Some(&finding.dir);
                any = true;
            }
            writeln!(out, "{}", Listed { finding, palette })?;
        }
    }
    if any {
        writeln!(out)?;
    }
    for view in &views.0 {
        if let Some(rows) = &view.summary {
            if multi {
                writeln!(out, "{}", view.report.harness)?;
            }
            out.write_all(markdown::summary_table(rows, tty).as_bytes())?;
            writeln!(out)?;
        }
    }
    for view in &views.0 {
        if let Some(impact) = view.impact {
            write!(out, "{}", escape(&view.label(multi)))?;
            out.write_all(markdown::impact_text(impact).as_bytes())?;
            writeln!(out)?;
        }
    }
    for view in &views.0 {
        let report = view.report;
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
            "{}{}; {}, {}",
            escape(&view.label(multi)),
            escape(&summary_line(report)),
            count(report.errors, "error", "errors", Tone::Error),
            count(report.warnings, "warning", "warnings", Tone::Warning)
        )?;
    }
    Ok(())
}

/// `checked N of M directories; largest baseline: B bytes in DIR`: the one
/// summary line of every harness and format.
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

//! check's `--format github`: one workflow command per finding, so the
//! annotations land on the files, then the summary as a plain log line.

use std::fmt;
use std::io::{self, Write};

use super::{Views, summary_line};
use crate::check::Finding;
use crate::output::{escape, escape_controls, plural};

/// Writes the workflow commands of every harness, then one summary line
/// each.
///
/// # Errors
/// Whatever writing to `out` returns.
pub fn write(out: &mut dyn Write, views: &Views<'_>) -> io::Result<()> {
    let multi = views.multi();
    for view in &views.0 {
        let harness = (!view.label(multi).is_empty()).then_some(view.report.harness);
        for finding in &view.report.findings {
            writeln!(out, "{}", Annotation { finding, harness })?;
        }
    }
    for view in &views.0 {
        let report = view.report;
        writeln!(
            out,
            "agentctx check: {}{}; {}, {}",
            escape(&view.label(multi)),
            escape(&summary_line(report)),
            plural(report.errors, "error", "errors"),
            plural(report.warnings, "warning", "warnings")
        )?;
    }
    Ok(())
}

/// A finding as `::error file=F,line=N,title=T::MESSAGE` with GitHub's
/// escaping. The file has its control and bidi characters escaped (so the
/// annotation names the real file otherwise), the message is escaped for
/// people (`\:\:`, `\#\#[` as everywhere); then both follow the
/// workflow-command rules, which keep a property or the message from
/// ending the command or starting another (`%`, CR, LF; `:` and `,` in
/// properties). The line is the finding's, else 1. The title names the
/// harness when it must be told apart; the message ends with the fix on a
/// line of its own. A finding about no file (a harness's own warning) has
/// no `file=`.
#[derive(Debug)]
pub struct Annotation<'a> {
    pub finding: &'a Finding,
    pub harness: Option<&'a str>,
}

impl fmt::Display for Annotation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let finding = self.finding;
        let words = super::words::words(finding);
        let title = match self.harness {
            Some(h) => format!("{} ({h})", finding.title),
            None => finding.title.to_owned(),
        };
        write!(f, "::{} ", finding.severity.name())?;
        if !finding.file.is_empty() {
            write!(
                f,
                "file={},line={},",
                escape_property(&escape_controls(&finding.file)),
                finding.detail.line().unwrap_or(1)
            )?;
        }
        write!(
            f,
            "title={}::{}",
            escape_property(&title),
            escape_data(&format!(
                "{}\nfix: {}",
                escape(&words.message),
                escape(&words.hint)
            ))
        )
    }
}

/// Workflow-command message escaping: `%`, CR, LF.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Workflow-command property escaping: the message set plus `:` and `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn github_escaping_follows_the_workflow_command_rules() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}

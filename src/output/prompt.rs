//! The wording of the prompt report (`explain --log`'s "System prompt"
//! sections): text lines and the warning sentences the JSON carries, both
//! from `prompt::PromptReport`'s data.

use crate::output::plural;
use crate::prompt::PromptOrigin;
use crate::prompt::{
    CHECKOUT_START, HeadRewrite, ProcessValue, PromptReport, QUOTED_END, SOURCE_SECTION, ValueKind,
    WEB_SECTION, WEB_URL_START,
};

/// How a report line should be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Heading,
    Info,
    Warning,
}

/// One line of the report's text form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub level: Level,
    pub text: String,
}

/// The report as text lines.
pub trait PromptLines {
    /// Headings start at the margin, items are indented by two spaces and
    /// their details by four (names and snippets not yet escaped).
    fn lines(&self) -> Vec<Line>;
}

/// The report with its `warnings` filled in, for JSON.
pub fn with_warnings(mut report: PromptReport) -> PromptReport {
    report.warnings = report
        .rewrites
        .iter()
        .map(rewrite_warning)
        .chain(report.process_values.iter().map(value_warning))
        .collect();
    report
}

fn rewrite_warning(r: &HeadRewrite) -> String {
    format!(
        "head rewrite at {}: version {} differs from version {}; on routes without in-history prompt updates a resumed Claude session is rejected (400, signature bound to a different conversation)",
        at(r.seq, r.line),
        r.version,
        r.previous
    )
}

fn value_warning(v: &ProcessValue) -> String {
    let mut text = format!(
        "paragraph {} (\"{}\") of the prompt at {} holds {} {}: such values belong in runtime context",
        v.paragraph,
        v.paragraph_start,
        at(v.seq, v.line),
        description(v),
        v.value
    );
    match (v.earlier_format, v.kept_verbatim) {
        (Some(name), true) => text.push_str(&format!(
            " (the earlier-format {name} paragraph this session keeps verbatim)"
        )),
        (Some(name), false) => {
            text.push_str(&format!(" (it matches the earlier {name} template)"));
        }
        (None, _) => {}
    }
    text
}

/// `seq 7 (line 9)`, or `line 9 (no seq)`.
fn at(seq: Option<u64>, line: u64) -> String {
    match seq {
        Some(s) => format!("seq {s} (line {line})"),
        None => format!("line {line} (no seq)"),
    }
}

fn description(v: &ProcessValue) -> &'static str {
    {
        match (v.kind, v.explicit_port, v.loopback) {
            (ValueKind::AbsolutePath, _, _) => "an absolute path",
            (ValueKind::Url, true, true) => "a loopback URL with an explicit port",
            (ValueKind::Url, true, false) => "a URL with an explicit port",
            (ValueKind::Url, false, _) => "a loopback URL",
        }
    }
}

impl PromptLines for PromptReport {
    /// The report as text lines (names and snippets not yet escaped).
    /// Headings start at the margin, items are indented by two spaces and
    /// their details by four.
    fn lines(&self) -> Vec<Line> {
        let mut out = Vec::new();
        let mut push = |level, text: String| out.push(Line { level, text });
        push(Level::Heading, "System prompt".to_owned());
        if self.versions.is_empty() {
            push(
                Level::Info,
                "  no system prompt in the log (no system/message, no request/header with a string header.system)".to_owned(),
            );
        } else {
            let total =
                self.versions.len() + usize::try_from(self.versions_not_kept).unwrap_or(usize::MAX);
            push(
                Level::Info,
                format!(
                    "  {}, {}",
                    plural(total, "version", "versions"),
                    plural(total - 1, "head rewrite", "head rewrites")
                ),
            );
        }
        for (k, v) in self.versions.iter().enumerate() {
            if let Some(prev) = k.checked_sub(1).map(|p| &self.versions[p]) {
                if v.number > prev.number + 1 {
                    push(
                        Level::Info,
                        format!(
                            "  … {} between version {} and version {} not kept (explain --full keeps every one)",
                            plural(
                                usize::try_from(v.number - prev.number - 1).unwrap_or(usize::MAX),
                                "version",
                                "versions"
                            ),
                            prev.number,
                            v.number
                        ),
                    );
                }
            }
            push(
                Level::Info,
                format!(
                    "  version {}: {}, {}, {}, {}, sha1 {}",
                    v.number,
                    at(v.seq, v.line),
                    match v.origin {
                        PromptOrigin::SystemMessage => "system/message",
                        PromptOrigin::RequestHeader => "request/header",
                    },
                    plural(v.paragraphs, "paragraph", "paragraphs"),
                    plural(v.bytes, "byte", "bytes"),
                    v.digest
                ),
            );
        }
        for r in &self.rewrites {
            push(Level::Warning, format!("  {}", rewrite_warning(r)));
            if r.removed.is_empty() && r.added.is_empty() {
                push(
                    Level::Info,
                    "    same paragraphs; only the blank lines between them changed".to_owned(),
                );
            }
            if r.only_process_values {
                let changes: Vec<String> = r
                    .value_changes
                    .iter()
                    .map(|c| format!("{} -> {}", c.from, c.to))
                    .collect();
                push(
                    Level::Info,
                    format!(
                        "    only process-specific values changed: {}",
                        changes.join(", ")
                    ),
                );
            }
            for p in &r.removed {
                push(
                    Level::Info,
                    format!("    - removed paragraph {}: {}", p.index, p.text),
                );
            }
            for p in &r.added {
                push(
                    Level::Info,
                    format!("    + added paragraph {}: {}", p.index, p.text),
                );
            }
        }
        if !self.process_values.is_empty() {
            push(
                Level::Heading,
                "Process-specific values in the system prompt".to_owned(),
            );
        }
        for v in &self.process_values {
            push(Level::Warning, format!("  {}", value_warning(v)));
        }
        push(
            Level::Heading,
            "Earlier-format paragraphs (kept verbatim)".to_owned(),
        );
        let e = &self.earlier_format;
        let from = match e.seq {
            Some(s) => format!(" (from the prompt at seq {s})"),
            None => String::new(),
        };
        for (name, para) in [(SOURCE_SECTION, &e.source), (WEB_SECTION, &e.web)] {
            let text = match para {
                Some(p) => format!("  {name}{from}: {p}"),
                None => format!("  {name}: none"),
            };
            push(Level::Info, text);
        }
        push(Level::Heading, "Runtime context".to_owned());
        match &self.runtime_context {
            None => push(
                Level::Info,
                "  no runtime-context snapshot in the log".to_owned(),
            ),
            Some(rc) => {
                push(
                    Level::Info,
                    format!(
                        "  latest snapshot at {}, the last of {}, {}",
                        at(rc.seq, rc.line),
                        self.snapshots,
                        plural(rc.sections.len(), "section", "sections")
                    ),
                );
                for s in &rc.sections {
                    push(Level::Info, format!("  {}: {}", s.name, s.text));
                }
                let has = |name| rc.sections.iter().any(|s| s.name == name);
                for (name, value, what, form) in [
                    (SOURCE_SECTION, &rc.checkout, "checkout", CHECKOUT_START),
                    (WEB_SECTION, &rc.web_url, "Web GUI URL", WEB_URL_START),
                ] {
                    match value {
                        Some(v) => push(Level::Info, format!("  current {what}: {v}")),
                        None if has(name) => push(
                            Level::Info,
                            format!(
                                "  {name} names no {what} in the form {form}<value>{QUOTED_END}"
                            ),
                        ),
                        None => {}
                    }
                }
            }
        }
        out
    }
}

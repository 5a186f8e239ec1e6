//! The wording of the prompt report (`explain --log`'s "System prompt"
//! sections): text lines and the warning sentences the JSON carries, both
//! from `prompt::PromptReport`'s data.

use std::fmt::Write as _;

use crate::log::seq_text;
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
    /// Spaces before the text: 0 for headings, 2 for items, 4 for their details.
    pub indent: usize,
    /// The text (names and snippets not yet escaped).
    pub text: String,
}

/// The report as text lines.
pub trait PromptLines {
    /// Headings at the margin, items indented by two spaces and their
    /// details by four.
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
        (Some(name), true) => {
            let _ = write!(
                text,
                " (the earlier-format {name} paragraph this session keeps verbatim)"
            );
        }
        (Some(name), false) => {
            let _ = write!(text, " (it matches the earlier {name} template)");
        }
        (None, _) => {}
    }
    text
}

/// `seq 7 (line 9)`, or `line 9 (no seq)`.
fn at(seq: Option<u64>, line: u64) -> String {
    match seq {
        Some(s) => format!("seq {} (line {line})", seq_text(s)),
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
    fn lines(&self) -> Vec<Line> {
        let mut out = Lines(Vec::new());
        out.versions(self);
        out.rewrites(self);
        if !self.process_values.is_empty() {
            out.heading("Process-specific values in the system prompt");
        }
        for v in &self.process_values {
            out.push(Level::Warning, ITEM, value_warning(v));
        }
        out.earlier_format(self);
        out.runtime_context(self);
        out.0
    }
}

/// Indentation of an item and of its details.
const ITEM: usize = 2;
const DETAIL: usize = 4;

/// The lines being built.
struct Lines(Vec<Line>);

impl Lines {
    fn push(&mut self, level: Level, indent: usize, text: impl Into<String>) {
        self.0.push(Line {
            level,
            indent,
            text: text.into(),
        });
    }

    fn heading(&mut self, text: &str) {
        self.push(Level::Heading, 0, text);
    }

    fn info(&mut self, indent: usize, text: impl Into<String>) {
        self.push(Level::Info, indent, text);
    }

    /// The count of versions, then one line per kept version (with a note
    /// where versions in between were not kept).
    fn versions(&mut self, report: &PromptReport) {
        self.heading("System prompt");
        if report.versions.is_empty() {
            self.info(
                ITEM,
                "no system prompt in the log (no system/message, no request/header with a string header.system)",
            );
        } else {
            let total = report.versions.len()
                + usize::try_from(report.versions_not_kept).unwrap_or(usize::MAX);
            self.info(
                ITEM,
                format!(
                    "{}, {}",
                    plural(total, "version", "versions"),
                    plural(total - 1, "head rewrite", "head rewrites")
                ),
            );
        }
        for (k, v) in report.versions.iter().enumerate() {
            if let Some(prev) = k.checked_sub(1).map(|p| &report.versions[p]) {
                if v.number > prev.number + 1 {
                    self.info(
                        ITEM,
                        format!(
                            "… {} between version {} and version {} not kept (explain --full keeps every one)",
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
            self.info(
                ITEM,
                format!(
                    "version {}: {}, {}, {}, {}, sha1 {}",
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
    }

    /// Each head rewrite as a warning, with what changed beneath it.
    fn rewrites(&mut self, report: &PromptReport) {
        for r in &report.rewrites {
            self.push(Level::Warning, ITEM, rewrite_warning(r));
            if r.removed.is_empty() && r.added.is_empty() {
                self.info(
                    DETAIL,
                    "same paragraphs; only the blank lines between them changed",
                );
            }
            if r.only_process_values {
                let changes: Vec<String> = r
                    .value_changes
                    .iter()
                    .map(|c| format!("{} -> {}", c.from, c.to))
                    .collect();
                self.info(
                    DETAIL,
                    format!(
                        "only process-specific values changed: {}",
                        changes.join(", ")
                    ),
                );
            }
            for p in &r.removed {
                self.info(
                    DETAIL,
                    format!("- removed paragraph {}: {}", p.index, p.text),
                );
            }
            for p in &r.added {
                self.info(DETAIL, format!("+ added paragraph {}: {}", p.index, p.text));
            }
        }
    }

    fn earlier_format(&mut self, report: &PromptReport) {
        self.heading("Earlier-format paragraphs (kept verbatim)");
        let e = &report.earlier_format;
        let from = match e.seq {
            Some(s) => format!(" (from the prompt at seq {})", seq_text(s)),
            None => String::new(),
        };
        for (name, para) in [(SOURCE_SECTION, &e.source), (WEB_SECTION, &e.web)] {
            let text = match para {
                Some(p) => format!("{name}{from}: {p}"),
                None => format!("{name}: none"),
            };
            self.info(ITEM, text);
        }
    }

    fn runtime_context(&mut self, report: &PromptReport) {
        self.heading("Runtime context");
        let Some(rc) = &report.runtime_context else {
            self.info(ITEM, "no runtime-context snapshot in the log");
            return;
        };
        self.info(
            ITEM,
            format!(
                "latest snapshot at {}, the last of {}, {}",
                at(rc.seq, rc.line),
                report.snapshots,
                plural(rc.sections.len(), "section", "sections")
            ),
        );
        for s in &rc.sections {
            self.info(ITEM, format!("{}: {}", s.name, s.text));
        }
        let has = |name| rc.sections.iter().any(|s| s.name == name);
        for (name, value, what, form) in [
            (SOURCE_SECTION, &rc.checkout, "checkout", CHECKOUT_START),
            (WEB_SECTION, &rc.web_url, "Web GUI URL", WEB_URL_START),
        ] {
            match value {
                Some(v) => self.info(ITEM, format!("current {what}: {v}")),
                None if has(name) => self.info(
                    ITEM,
                    format!("{name} names no {what} in the form {form}<value>{QUOTED_END}"),
                ),
                None => {}
            }
        }
    }
}

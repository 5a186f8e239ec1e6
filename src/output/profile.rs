//! Presentation of profile reports (`render`/`explain --profile`): their
//! JSON document and the explain text, built from the same `HarnessReport`; no
//! filesystem calls here.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use crate::output::palette::{Palette, Tone};
use crate::output::{escape, plural};
use crate::profile::{FileEntry, HarnessReport, Profile, ProfileSettings, Status, Why};

/// The JSON document of a profile report.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Json<'a> {
    profile: Profile,
    exact: bool,
    parts: Vec<&'a str>,
    part_kinds: Vec<&'a str>,
    files: &'a [FileEntry],
    settings: &'a ProfileSettings,
    warnings: &'a [String],
}

/// The JSON of one report.
pub(crate) fn json(report: &HarnessReport) -> Json<'_> {
    Json {
        profile: report.profile,
        exact: report.exact,
        parts: report.parts.iter().map(|p| p.text.as_str()).collect(),
        part_kinds: report.parts.iter().map(|p| p.kind.as_str()).collect(),
        files: &report.files,
        settings: &report.settings,
        warnings: &report.warnings,
    }
}

/// The label of a profile's fidelity.
pub(crate) fn label(report: &HarnessReport) -> &'static str {
    if report.profile.is_listing() {
        "documented behaviour, not byte-exact"
    } else if report.exact {
        "exact"
    } else {
        "exact except what is marked not reproduced"
    }
}

/// A file's status, padded to its column, in the tone of what it means.
fn status(palette: Palette, status: Status) -> String {
    let tone = match status {
        Status::Loaded | Status::Jit => Tone::Good,
        Status::Truncated | Status::OverBudget | Status::Aborted | Status::Unreadable => Tone::Bad,
        Status::UrlNotFetched
        | Status::Outside
        | Status::TooDeep
        | Status::TooLarge
        | Status::NotText => Tone::Warn,
        _ => Tone::Dim,
    };
    palette.paint(tone, &format!("{:<15}", status.name()))
}

/// The explain text of one report.
pub(crate) fn text(report: &HarnessReport, cwd: &Path, palette: Palette) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} ({})",
        palette.paint(Tone::Heading, "Profile:"),
        report.profile,
        label(report)
    );
    let _ = writeln!(out, "cwd: {}", escape(&cwd.to_string_lossy()));
    settings(report, palette, &mut out);
    out.push('\n');
    if report.files.is_empty() {
        let _ = writeln!(out, "{} none", palette.paint(Tone::Heading, "Files:"));
    } else {
        let _ = writeln!(
            out,
            "{}",
            palette.paint(Tone::Heading, "Files (load order):")
        );
    }
    for f in &report.files {
        file_line(report, palette, f, &mut out);
    }
    out.push('\n');
    parts(report, palette, &mut out);
    let findings = crate::profile::check::explain_findings(report.profile, report);
    if !findings.is_empty() {
        out.push('\n');
        out.push_str(&palette.paint(Tone::Heading, "Findings (as check reports them):"));
        out.push('\n');
        for found in &findings {
            let (severity, file, message) = explained(found);
            let _ = if file.is_empty() {
                writeln!(out, "  {}: {}", severity.name(), escape(&message))
            } else {
                writeln!(
                    out,
                    "  {}: {}: {}",
                    severity.name(),
                    escape(file),
                    escape(&message)
                )
            };
        }
    }
    out
}

/// A finding of explain's list: its severity, its file and its message
/// (a budget cut says what it keeps of the file).
fn explained(found: &crate::profile::check::Explained) -> (crate::check::Severity, &str, String) {
    use crate::check::budget;
    use crate::profile::check::Explained;
    match found {
        Explained::Found(f) => (f.severity, &f.file, super::check::words::message(f)),
        Explained::Cut {
            file,
            original,
            kept,
            max,
        } => (
            crate::check::Severity::Error,
            file,
            format!(
                "over budget: cut from {} to {} bytes (project_doc_max_bytes {})",
                budget::bytes(*original),
                budget::bytes(*kept),
                budget::thousands(*max)
            ),
        ),
    }
}

/// The settings section: each setting with its origin.
fn settings(report: &HarnessReport, palette: Palette, out: &mut String) {
    out.push('\n');
    out.push_str(&palette.paint(Tone::Heading, "Settings:"));
    out.push('\n');
    let width = report
        .settings
        .0
        .iter()
        .map(|(n, _)| n.len())
        .max()
        .unwrap_or(0);
    for (name, setting) in &report.settings.0 {
        let _ = writeln!(
            out,
            "  {name:<width$}  {}  ({})",
            escape(&match &setting.value {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            }),
            escape(&setting.origin.to_string())
        );
    }
}

/// One file of the files section, with why it loads.
fn file_line(report: &HarnessReport, palette: Palette, f: &FileEntry, out: &mut String) {
    let _ = write!(out, "  {} {}", status(palette, f.status), escape(&f.path));
    if let Some(tier) = f.tier {
        let _ = write!(out, " [{}]", format!("{tier:?}").to_lowercase());
    }
    if let Some(memory) = f.memory {
        let _ = write!(out, " [{}]", format!("{memory:?}").to_lowercase());
    }
    let _ = writeln!(out, "  ({})", size(f));
    let mut why = why(report.profile, f);
    if let Some(by) = &f.imported_by {
        why = if why.is_empty() {
            format!("import of {by}")
        } else {
            format!("{why} (import of {by})")
        };
    }
    if !why.is_empty() {
        let _ = writeln!(out, "{:18}{}", "", escape(&why));
    }
}

fn parts(report: &HarnessReport, palette: Palette, out: &mut String) {
    let instead = if report.profile.is_listing() {
        Some("not modelled (the files above are what the documentation says loads)")
    } else if report.parts.is_empty() {
        Some("none (the harness sends nothing)")
    } else {
        None
    };
    if let Some(instead) = instead {
        let _ = writeln!(out, "{} {instead}", palette.paint(Tone::Heading, "Parts:"));
        return;
    }
    out.push_str(&palette.paint(Tone::Heading, "Parts:"));
    out.push('\n');
    for p in &report.parts {
        let _ = writeln!(
            out,
            "  {}  {}, {}",
            escape(&p.kind),
            plural(p.text.len(), "byte", "bytes"),
            plural(p.text.lines().count(), "line", "lines")
        );
    }
}

/// Why a file has `status`, in the words every harness shares (a
/// harness's own are its `Definition::status_reason`).
fn reason(status: Status) -> &'static str {
    match status {
        Status::Loaded | Status::Conditional => "",
        Status::Outside => {
            "outside the cwd, and the project has not approved external imports; skipped"
        }
        Status::TooDeep => "deeper than four levels of imports; skipped",
        Status::TooLarge => "over 4 MiB; skipped",
        Status::NotText => "not a text file by its extension; skipped",
        Status::HeldBack => "AGENTS.md blocked by a CLAUDE.md",
        Status::Truncated => "cut",
        Status::Empty => "nothing left after trimming whitespace; contributes nothing",
        Status::Shadowed => "another file takes its place",
        Status::OverBudget => "the budget was used up by earlier files; dropped silently",
        Status::Unreadable => "cannot be read; contributes nothing",
        Status::Duplicate => "the same file was already loaded",
        Status::Aborted => "project discovery failed; every project file is dropped",
        Status::Jit => "loaded just in time for a touched path",
        Status::UrlNotFetched => "a URL: the harness fetches it, agentctx does not",
        Status::OnDemand => "not sent at start",
    }
}

fn size(f: &FileEntry) -> String {
    let bytes = |n: u64| plural(usize::try_from(n).unwrap_or(usize::MAX), "byte", "bytes");
    match (f.bytes, f.truncated) {
        (Some(n), Some(kept)) => format!("{}, {kept} kept", bytes(n)),
        (Some(n), None) => bytes(n),
        (None, _) if f.status == Status::UrlNotFetched => "not fetched".to_owned(),
        (None, _) if f.why == Why::Error(crate::profile::claude::MISSING.to_owned()) => {
            "missing".to_owned()
        }
        (None, _) => "not a regular file".to_owned(),
    }
}

/// Why a file has its status, in words.
fn why(profile: Profile, f: &FileEntry) -> String {
    let extra = match &f.why {
        Why::None => String::new(),
        Why::Error(e) => e.clone(),
        Why::By(path) => format!("{path} wins"),
        Why::Budget { setting, max } => format!("{setting} is {max}"),
        Why::InvalidUtf8 => "invalid UTF-8 replaced with U+FFFD".to_owned(),
        Why::Rule(rule) => (*rule).to_owned(),
    };
    if let (Status::HeldBack, Why::By(by)) = (f.status, &f.why) {
        return format!(
            "AGENTS.md blocked by {by} (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)"
        );
    }
    let base = profile
        .definition()
        .status_reason(f.status)
        .unwrap_or_else(|| reason(f.status));
    match (base.is_empty(), extra.is_empty()) {
        (true, _) => extra,
        (false, true) => base.to_owned(),
        (false, false) => format!("{base}: {extra}"),
    }
}

//! Runtime context and system-prompt stability (SPEC 8, seed 001).
//!
//! A system prompt that changes between resumes rewrites the conversation
//! head; on routes without in-history prompt updates Claude then rejects the
//! resumed session (400, signature bound to a different conversation). The
//! harness therefore keeps process-specific values (the checkout path, the
//! Web GUI URL) in runtime-context snapshots, and keeps earlier-format
//! paragraphs of old sessions verbatim. This module
//! 1. lists the logged system prompt versions and, for every later version,
//!    the paragraphs its head rewrite added and removed;
//! 2. finds process-specific values (absolute paths, URLs with an explicit
//!    port or a loopback host) inside prompt paragraphs;
//! 3. folds the nonempty system messages into the earlier-format state
//!    `{source, web}`;
//! 4. reads the latest runtime-context snapshot, and computes the snapshot
//!    `diff --runtime` would append.
//!
//! It returns data and never prints; `output::prompt` words the report.
//! The parts: `values` finds process-specific values, `rewrite` splits
//! prompts into paragraphs and compares versions, `snapshot` computes what
//! `diff --runtime` appends.

mod rewrite;
mod snapshot;
mod values;

pub use rewrite::paragraphs;
pub use snapshot::{Runtime, RuntimeSource, parse_values, snapshot_update};

use std::collections::HashSet;

use serde::Serialize;

use crate::log::Log;
use crate::text::sha1_hex;
use rewrite::rewrite;
use values::{find_values, first_words};

pub const PLUGIN: &str = "@deepseek-ai/dsh-system-prompt";
pub const SNAPSHOT_INTRO: &str =
    "Current runtime context. This snapshot supersedes earlier runtime-context snapshots.";

/// The earlier `harness:source` template's fixed start (seed 001).
pub const LEGACY_SOURCE_START: &str = "The DeepSeek Harness implementation checkout is at ";
/// The earlier `app:web-surface` template's fixed start (seed 001).
pub const LEGACY_WEB_START: &str =
    "You are interacting with the user through the DeepSeek Harness Web GUI at ";
/// The runtime-context section that names the checkout, and its text form.
pub const SOURCE_SECTION: &str = "harness:source";
pub const CHECKOUT_START: &str = "Current DeepSeek Harness implementation checkout: \"";
/// The runtime-context section that names the Web GUI URL, and its text form.
pub const WEB_SECTION: &str = "app:web-surface";
pub const WEB_URL_START: &str = "Current DeepSeek Harness Web GUI URL: \"";
pub const QUOTED_END: &str = "\".";

pub use crate::log::records::{PromptOrigin, Section, Snapshot, SystemVersion};

/// What `explain --log` reports about system-prompt stability and runtime
/// context (SPEC 8). Presentation-free: `lines()` gives neutral text lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptReport {
    /// The system prompt versions, in log order, consecutive equal ones
    /// collapsed; past a bound only the first ones and the latest are kept.
    pub versions: Vec<PromptVersion>,
    /// Versions counted but not kept (`explain --full` keeps every one).
    pub versions_not_kept: u64,
    /// One per version after the first: the head rewrite it causes.
    pub rewrites: Vec<HeadRewrite>,
    /// Process-specific values in prompt paragraphs, each distinct paragraph
    /// and value once, from the first version that holds it.
    pub process_values: Vec<ProcessValue>,
    /// The earlier-format paragraphs the harness keeps verbatim.
    pub earlier_format: EarlierFormat,
    /// The latest runtime-context snapshot, visible or not.
    pub runtime_context: Option<RuntimeContext>,
    /// How many runtime-context snapshots the log holds.
    pub snapshots: u64,
    /// The warnings (head rewrites, process-specific values) as sentences:
    /// left empty here, filled by `output::prompt::with_warnings` for JSON.
    pub warnings: Vec<String>,
}

/// One system prompt version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptVersion {
    #[serde(serialize_with = "crate::log::serialize_opt_seq")]
    pub seq: Option<u64>,
    pub line: u64,
    /// The event that first carried it.
    pub origin: PromptOrigin,
    pub paragraphs: usize,
    pub bytes: usize,
    /// Lowercase hex SHA-1 of the text.
    pub digest: String,
    /// Its 1-based number among all versions of the log.
    pub number: u64,
}

/// A later system prompt version: the head rewrite a resume would cause.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeadRewrite {
    #[serde(serialize_with = "crate::log::serialize_opt_seq")]
    pub seq: Option<u64>,
    pub line: u64,
    /// The 1-based number of the new version.
    pub version: u64,
    /// The number of the version it is compared with: `version - 1`, or
    /// less where versions between were counted but not kept.
    pub previous: u64,
    /// Paragraphs of the previous version that are gone (their index there).
    pub removed: Vec<Paragraph>,
    /// Paragraphs of the new version that are new (their index there).
    pub added: Vec<Paragraph>,
    /// Whether the removed and added paragraphs differ only in their
    /// process-specific values (the rewrite runtime context avoids).
    pub only_process_values: bool,
    /// When only process-specific values changed: each old and new value.
    pub value_changes: Vec<ValueChange>,
}

/// A paragraph of a version (1-based index).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Paragraph {
    pub index: usize,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueChange {
    pub from: String,
    pub to: String,
}

/// What kind of process-specific value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ValueKind {
    AbsolutePath,
    Url,
}

/// A process-specific value inside a system prompt paragraph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProcessValue {
    /// The first version whose prompt holds the paragraph.
    #[serde(serialize_with = "crate::log::serialize_opt_seq")]
    pub seq: Option<u64>,
    pub line: u64,
    /// The paragraph's 1-based index in that version.
    pub paragraph: usize,
    /// The paragraph's first words.
    pub paragraph_start: String,
    pub value: String,
    pub kind: ValueKind,
    /// A URL with an explicit port.
    pub explicit_port: bool,
    /// A URL whose host is loopback (localhost, 127.x, [`::1`]).
    pub loopback: bool,
    /// The earlier template the paragraph matches, if any.
    pub earlier_format: Option<&'static str>,
    /// Whether it is the earlier-format paragraph the session keeps verbatim.
    pub kept_verbatim: bool,
}

/// The seed's earlier-format projection: folding every nonempty system
/// message in order, the paragraphs of that prompt that match an earlier
/// template (no line break), or null.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct EarlierFormat {
    pub source: Option<String>,
    pub web: Option<String>,
    /// The seq of the prompt version the state was taken from (the version
    /// of the last nonempty system message), null when the log has none.
    #[serde(serialize_with = "crate::log::serialize_opt_seq")]
    pub seq: Option<u64>,
}

/// The latest runtime-context snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeContext {
    #[serde(serialize_with = "crate::log::serialize_opt_seq")]
    pub seq: Option<u64>,
    pub line: u64,
    pub sections: Vec<Section>,
    /// From the `harness:source` section.
    pub checkout: Option<String>,
    /// From the `app:web-surface` section.
    pub web_url: Option<String>,
}

/// Analyses the system prompt versions and runtime snapshots of a log.
#[must_use]
pub fn analyze(log: &Log) -> PromptReport {
    let split: Vec<Vec<&str>> = log.system.iter().map(|v| paragraphs(&v.text)).collect();
    let versions = log
        .system
        .iter()
        .zip(&split)
        .map(|(v, paras)| PromptVersion {
            seq: v.seq,
            line: v.line,
            origin: v.origin,
            paragraphs: paras.len(),
            bytes: v.text.len(),
            digest: sha1_hex(v.text.as_bytes()),
            number: v.number,
        })
        .collect();
    let rewrites = log
        .system
        .iter()
        .zip(&split)
        .enumerate()
        .skip(1)
        .map(|(k, (v, paras))| {
            let mut r = rewrite(v.seq, v.line, v.number, &split[k - 1], paras);
            r.previous = log.system[k - 1].number;
            r
        })
        .collect();
    let earlier_format = fold_earlier_format(log);
    let mut process_values = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for (v, paras) in log.system.iter().zip(&split) {
        for (i, para) in paras.iter().enumerate() {
            if !seen.insert(para) {
                continue;
            }
            let template = earlier_template(para);
            let kept = template.is_some()
                && [&earlier_format.source, &earlier_format.web]
                    .iter()
                    .any(|p| p.as_deref() == Some(para));
            let mut values_here: HashSet<&str> = HashSet::new();
            let start = first_words(para);
            for found in find_values(para) {
                let value = &para[found.start..found.end];
                if !values_here.insert(value) {
                    continue;
                }
                process_values.push(ProcessValue {
                    seq: v.seq,
                    line: v.line,
                    paragraph: i + 1,
                    paragraph_start: start.clone(),
                    value: value.to_owned(),
                    kind: found.kind,
                    explicit_port: found.explicit_port,
                    loopback: found.loopback,
                    earlier_format: template,
                    kept_verbatim: kept,
                });
            }
        }
    }
    let runtime_context = log.latest_snapshot.as_ref().map(|s| RuntimeContext {
        seq: s.seq,
        line: s.line,
        sections: s.sections.clone(),
        checkout: section_value(&s.sections, SOURCE_SECTION, CHECKOUT_START),
        web_url: section_value(&s.sections, WEB_SECTION, WEB_URL_START),
    });
    PromptReport {
        versions_not_kept: log.system_not_kept,
        versions,
        rewrites,
        process_values,
        earlier_format,
        runtime_context,
        snapshots: log.snapshots,
        warnings: Vec::new(),
    }
}

/// Which earlier template a paragraph matches: it starts with the
/// template's fixed start and holds no line break (SPEC 8).
fn earlier_template(paragraph: &str) -> Option<&'static str> {
    if paragraph.contains(['\n', '\r']) {
        return None;
    }
    if paragraph.starts_with(LEGACY_SOURCE_START) {
        Some(SOURCE_SECTION)
    } else if paragraph.starts_with(LEGACY_WEB_START) {
        Some(WEB_SECTION)
    } else {
        None
    }
}

/// The seed's `harnessDevLegacyPrompt` fold: every nonempty system message,
/// in order, sets the state to the paragraphs of its prompt that match an
/// earlier template (the first of each), or null. Consecutive equal versions
/// give the same state, so the fold runs over the versions a system message
/// carried.
fn fold_earlier_format(log: &Log) -> EarlierFormat {
    let mut state = EarlierFormat::default();
    for v in log
        .system
        .iter()
        .filter(|v| v.system_message && !v.text.is_empty())
    {
        let paras = paragraphs(&v.text);
        let find = |name| {
            paras
                .iter()
                .find(|p| earlier_template(p) == Some(name))
                .map(|p| (*p).to_owned())
        };
        state = EarlierFormat {
            source: find(SOURCE_SECTION),
            web: find(WEB_SECTION),
            seq: v.seq,
        };
    }
    state
}

/// The quoted value of the first line of section `name` that reads
/// `<start><value>".` (surrounding whitespace ignored).
fn section_value(sections: &[Section], name: &str, start: &str) -> Option<String> {
    sections
        .iter()
        .filter(|s| s.name == name)
        .flat_map(|s| s.text.lines())
        .find_map(|l| l.trim().strip_prefix(start)?.strip_suffix(QUOTED_END))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests;

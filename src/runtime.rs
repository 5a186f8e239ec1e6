//! Runtime context and system-prompt stability (SPEC 8, seed 001).

use anyhow::{Result, bail};
use serde::Serialize;

use crate::log::{Section, Snapshot};

pub const PLUGIN: &str = "@deepseek-ai/dsh-system-prompt";
pub const SNAPSHOT_INTRO: &str =
    "Current runtime context. This snapshot supersedes earlier runtime-context snapshots.";

/// A runtime-context snapshot diff would append.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Runtime {
    pub parts: Vec<String>,
    pub source: RuntimeSource,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuntimeSource {
    pub kind: &'static str,
    pub plugin: &'static str,
    pub form: &'static str,
    pub sections: Vec<Section>,
}

/// Parses `NAME=TEXT` values.
pub fn parse_values(raw: &[String]) -> Result<Vec<Section>> {
    raw.iter()
        .map(|r| match r.split_once('=') {
            Some((name, text)) if !name.is_empty() => Ok(Section {
                name: name.to_owned(),
                text: text.to_owned(),
            }),
            _ => bail!("--runtime {r:?}: expected NAME=TEXT"),
        })
        .collect()
}

/// The snapshot to append when any given section differs from the latest
/// logged one: all sections, updated ones replaced, new ones appended.
pub fn snapshot_update(latest: Option<&Snapshot>, values: &[Section]) -> Option<Runtime> {
    if values.is_empty() {
        return None;
    }
    let mut sections: Vec<Section> = latest.map(|s| s.sections.clone()).unwrap_or_default();
    let mut changed = false;
    for v in values {
        match sections.iter_mut().find(|s| s.name == v.name) {
            Some(s) if s.text == v.text => {}
            Some(s) => {
                s.text = v.text.clone();
                changed = true;
            }
            None => {
                sections.push(v.clone());
                changed = true;
            }
        }
    }
    if !changed {
        return None;
    }
    let text = std::iter::once(SNAPSHOT_INTRO)
        .chain(sections.iter().map(|s| s.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n\n");
    Some(Runtime {
        parts: vec![text],
        source: RuntimeSource {
            kind: "plugin",
            plugin: PLUGIN,
            form: "snapshot",
            sections,
        },
    })
}

/// What `explain --log` reports about system-prompt stability and runtime
/// context (SPEC 8). Presentation-free: `lines()` gives neutral text lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptReport {
    /// Warnings about process-specific values in system prompt paragraphs.
    pub warnings: Vec<String>,
}

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

/// Analyses the system prompt versions and runtime snapshots of a log.
pub fn analyze(log: &crate::log::Log) -> PromptReport {
    let _ = log;
    PromptReport::default()
}

impl PromptReport {
    /// The report as text lines (names and snippets not yet escaped).
    pub fn lines(&self) -> Vec<Line> {
        self.warnings
            .iter()
            .map(|w| Line {
                level: Level::Warning,
                text: w.clone(),
            })
            .collect()
    }
}

//! The runtime-context snapshot `diff --runtime NAME=TEXT` appends.

use anyhow::{Result, bail};
use serde::Serialize;

use super::{PLUGIN, SNAPSHOT_INTRO};
use super::{Section, Snapshot};

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

/// Parses `NAME=TEXT` values (split at the first `=`; NAME must not be empty).
///
/// # Errors
/// An entry without `=`, or with an empty NAME.
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
/// logged one: all sections, updated ones replaced, new ones appended (a
/// name given twice takes its last value). None when the result equals the
/// latest snapshot.
#[must_use]
pub fn snapshot_update(latest: Option<&Snapshot>, values: &[Section]) -> Option<Runtime> {
    let logged: &[Section] = latest.map_or(&[], |s| &s.sections);
    let mut sections = logged.to_vec();
    for v in values {
        match sections.iter_mut().find(|s| s.name == v.name) {
            Some(s) => s.text.clone_from(&v.text),
            None => sections.push(v.clone()),
        }
    }
    if sections == logged {
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

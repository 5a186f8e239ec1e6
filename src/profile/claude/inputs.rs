//! What decides a Claude Code load besides the memory files: the approval
//! of external imports in `~/.claude.json` (rule 9), the switch that turns
//! the files off, the managed settings' `claudeMd`, and what agentctx does
//! not model (rule 11).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::walk::Entry;
use super::{Input, MANAGED_SETTINGS, MemoryType, node_join};
use crate::profile::{HarnessReport, ValueOrigin};

/// Rule 9: whether G approves imports leaving the cwd for project `key`.
pub(super) fn approval(
    global: &Path,
    key: &Path,
    warnings: &mut Vec<String>,
) -> (bool, ValueOrigin) {
    let bytes = match crate::bounded::read_config(global) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return (false, ValueOrigin::Default),
        Err(e) => {
            warnings.push(format!(
                "{}: cannot be read ({}); imports outside the cwd count as not approved",
                global.display(),
                crate::discovery::os_error(&e)
            ));
            return (false, ValueOrigin::Default);
        }
    };
    let value: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            warnings.push(format!(
                "{}: not valid JSON ({e}); imports outside the cwd count as not approved",
                global.display()
            ));
            return (false, ValueOrigin::Default);
        }
    };
    // JavaScript truthiness (real agent: cases `cl-approved-truthy-*`).
    let approved = value
        .get("projects")
        .and_then(|p| p.get(crate::profile::show(key)))
        .and_then(|p| p.get("hasClaudeMdExternalIncludesApproved"))
        .is_some_and(|v| match v {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
            Value::String(s) => !s.is_empty(),
            Value::Array(_) | Value::Object(_) => true,
        });
    (
        approved,
        ValueOrigin::Settings(crate::profile::show(global)),
    )
}

/// The project key of `~/.claude.json`: the nearest ancestor-or-self of
/// the cwd holding `.git`, else the cwd.
pub(super) fn project_key(cwd: &Path) -> PathBuf {
    cwd.ancestors()
        .find(|d| crate::bounded::symlink_metadata(d.join(".git")).is_ok())
        .unwrap_or(cwd)
        .to_path_buf()
}

/// Whether `CLAUDE_CODE_DISABLE_CLAUDE_MDS` switches the files off.
pub(super) fn disabled(value: Option<&str>) -> bool {
    value.is_some_and(|v| {
        matches!(
            v.trim().to_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )
    })
}

/// Rule 11: what agentctx does not reproduce, found and said.
pub(super) fn not_modelled(input: &Input, dirs: &[PathBuf], report: &mut HarnessReport) {
    let inexact = |report: &mut HarnessReport, message: String| {
        report.exact = false;
        report.warnings.push(message);
    };
    let projects = input.cwd.join(node_join(&input.config_dir, "projects"));
    let memory =
        |p: PathBuf| Some(p.join("memory")).filter(|m| crate::bounded::symlink_metadata(m).is_ok());
    if let Some(first) = first_listed(&projects, memory) {
        inexact(
            report,
            format!(
                "{}: an auto-memory directory; Claude Code may add its MEMORY.md after the project files, agentctx does not model it (output not exact)",
                first.display()
            ),
        );
    }
    let drop_ins = input.managed_dir.join("managed-settings.d");
    let sets = |p: PathBuf| Some(p).filter(|p| has_key(p, &["claudeMd"]));
    if let Some(first) = first_listed(&drop_ins, sets) {
        inexact(
            report,
            format!(
                "{}: a managed drop-in that sets claudeMd; agentctx does not merge drop-ins (output not exact)",
                first.display()
            ),
        );
    }
    let mut settings = vec![
        input
            .cwd
            .join(node_join(&input.config_dir, "settings.json")),
    ];
    for dir in dirs {
        settings.push(dir.join(".claude/settings.json"));
        settings.push(dir.join(".claude/settings.local.json"));
    }
    let keys = [
        "claudeMdExcludes",
        "instructionFiles",
        "projectInstructions",
    ];
    for file in settings {
        if has_key(&file, &keys) {
            inexact(
                report,
                format!(
                    "{}: sets claudeMdExcludes, instructionFiles or projectInstructions; agentctx does not apply them (output not exact)",
                    file.display()
                ),
            );
        }
    }
}

/// The `claudeMd` text of the managed settings file, as the entry Claude
/// Code adds right after the managed CLAUDE.md (real agent: case
/// `clm-order` with a managed-settings.json).
pub(super) fn managed_settings_text(managed_dir: &Path) -> Option<Entry> {
    let path = managed_dir.join("managed-settings.json");
    let bytes = crate::bounded::read_config(&path).ok()??;
    let value: Value = serde_json::from_slice(&bytes).ok()?;
    let text = value.get("claudeMd")?.as_str().filter(|t| !t.is_empty())?;
    Some(Entry {
        path: MANAGED_SETTINGS.to_owned(),
        ty: MemoryType::Managed,
        content: text.to_owned(),
        parent: None,
        root: MANAGED_SETTINGS.to_owned(),
        bytes: None,
        conditional: false,
    })
}

/// Whether a JSON file holds any of `keys` (at any depth).
fn has_key(path: &Path, keys: &[&str]) -> bool {
    fn walk(v: &Value, keys: &[&str]) -> bool {
        match v {
            Value::Object(map) => map
                .iter()
                .any(|(k, v)| keys.contains(&k.as_str()) || walk(v, keys)),
            Value::Array(items) => items.iter().any(|v| walk(v, keys)),
            _ => false,
        }
    }
    let Ok(Some(bytes)) = crate::bounded::read_config(path) else {
        return false;
    };
    serde_json::from_slice::<Value>(&bytes).is_ok_and(|v| walk(&v, keys))
}

/// The first (by path) of what `pick` keeps of `dir`'s entries.
fn first_listed(dir: &Path, pick: impl Fn(PathBuf) -> Option<PathBuf>) -> Option<PathBuf> {
    let listing = crate::bounded::read_dir(dir).ok()?;
    listing
        .filter_map(Result::ok)
        .filter_map(|e| pick(e.path()))
        .min()
}

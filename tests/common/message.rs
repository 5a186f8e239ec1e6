//! The dsh workspace-instruction message and its persisted `source`, spelled
//! out from the SPEC 4.1 constants so that a test's expected bytes never come
//! from the code under test.

use std::fmt::{Display, Write as _};

use serde_json::{Value, json};
use sha1::{Digest, Sha1};

// SPEC 4.1, byte for byte.
pub const OPEN: &str = "<system-reminder>";
pub const CLOSE: &str = "</system-reminder>";
pub const INTRO: &str = "The following workspace instructions may be relevant to your work. Use them as guidance when applicable. More specific instructions take precedence over broader ones. They do not override system, developer, or direct user instructions.";
pub const REPLACE: &str = "This complete workspace instruction baseline replaces all earlier workspace instruction baselines. ";
pub const EMPTY: &str = "This complete workspace instruction baseline replaces all earlier workspace instruction baselines. No workspace instructions are currently active.";
pub const COMPACT: &str =
    "Workspace instructions were omitted or truncated to fit the configured byte budget.";

// ---------------------------------------------------------------- text

/// OPEN, the blocks joined by a blank line, CLOSE (SPEC 4.2; no escaping).
pub fn framed(blocks: &[String]) -> String {
    format!("{OPEN}\n{}\n{CLOSE}", blocks.join("\n\n"))
}

/// A baseline section: `Instructions from: {path}\n\n{content}`.
pub fn section(path: &str, content: &str) -> String {
    format!("Instructions from: {path}\n\n{content}")
}

/// A delta section for a file that was not loaded before.
pub fn set_section(path: &str, scope: &str, content: &str) -> String {
    format!(
        "Additional instructions from: {path}\n\nThese instructions apply to work under `{scope}`. Use them as guidance when relevant; more specific instructions take precedence. They do not override system, developer, or direct user instructions.\n\n{content}"
    )
}

/// A delta section for a loaded file whose content changed.
pub fn replace_section(path: &str, content: &str) -> String {
    format!(
        "Updated instructions from: {path}\n\nThis file changed after it was loaded. Use the following content instead of the previously loaded instructions from this file.\n\n{content}"
    )
}

/// A delta section for a scope whose winning file is now another name.
pub fn switch_section(path: &str, previous: &str, scope: &str, content: &str) -> String {
    format!(
        "Updated instructions from: {path}\n\nThe instructions previously loaded from `{previous}` no longer apply. Use the following content for `{scope}` instead.\n\n{content}"
    )
}

/// A delta section for a loaded file that is gone.
pub fn remove_section(path: &str) -> String {
    format!(
        "Instructions removed: {path}\n\nThe previously loaded instructions from this file no longer apply."
    )
}

/// A complete baseline with `intro` and one section per (path, content).
pub fn baseline_with(intro: &str, files: &[(&str, &str)]) -> String {
    let mut blocks = vec![intro.to_owned()];
    blocks.extend(files.iter().map(|(p, c)| section(p, c)));
    framed(&blocks)
}

/// A complete baseline with INTRO and one section per (path, content).
pub fn baseline(files: &[(&str, &str)]) -> String {
    baseline_with(INTRO, files)
}

/// A baseline that replaces an earlier one (REPLACE before INTRO).
pub fn replacement(files: &[(&str, &str)]) -> String {
    baseline_with(&format!("{REPLACE}{INTRO}"), files)
}

// ---------------------------------------------------------------- source

/// Lowercase hex SHA-1 of the text's UTF-8 bytes.
pub fn sha1(text: &str) -> String {
    Sha1::digest(text.as_bytes())
        .iter()
        .fold(String::new(), |mut hex, b| {
            write!(hex, "{b:02x}").unwrap();
            hex
        })
}

/// The SPEC 2.5 identity string, spelled out.
pub fn identity(
    root: &str,
    markers: &str,
    max: i64,
    max_source: i64,
    cands: &str,
    locals: &str,
) -> String {
    format!(
        r#"{{"projectRoot":"{root}","projectRootMarkers":[{markers}],"maxBytes":{max},"maxSourceBytes":{max_source},"instructionFileCandidates":[{cands}],"localInstructionFileCandidates":[{locals}]}}"#
    )
}

/// The identity under default settings.
pub fn default_identity(root: &str) -> String {
    identity(
        root,
        r#"".git""#,
        65_536,
        1_048_576,
        r#""AGENTS.md","CLAUDE.md""#,
        r#""AGENTS.local.md","CLAUDE.local.md""#,
    )
}

/// A `set` change with the given digest.
pub fn set_digest(scope: &str, path: &str, digest: &str) -> Value {
    json!({"action": "set", "scope": scope, "path": path, "digest": digest})
}

/// A `set` change as the persisted source holds it.
pub fn set(scope: &str, path: &str, content: &str) -> Value {
    set_digest(scope, path, &sha1(content))
}

/// A `replace` change: the file at `path` now holds `content`.
pub fn replace(scope: &str, path: &str, content: &str) -> Value {
    json!({"action": "replace", "scope": scope, "path": path, "digest": sha1(content)})
}

/// A `replace` change whose scope was served by `previous` before.
pub fn switch(scope: &str, path: &str, previous: &str, content: &str) -> Value {
    json!({"action": "replace", "scope": scope, "path": path, "previousPath": previous, "digest": sha1(content)})
}

/// A `remove` change.
pub fn remove(scope: &str, path: &str) -> Value {
    json!({"action": "remove", "scope": scope, "path": path})
}

/// The source of a delta message (earlier generation's kind).
pub fn delta_source(changes: Vec<Value>) -> Value {
    let mut source = json!({"kind": "workspace-instructions", "form": "instructions"});
    source["changes"] = Value::Array(changes);
    source
}

/// The source of a baseline message of source kind `kind`.
pub fn baseline_source_of_kind(kind: &str, identity: &str, changes: Vec<Value>) -> Value {
    let mut source = json!({
        "kind": kind,
        "form": "instructions",
        "baseline": true,
        "baselineIdentity": identity,
    });
    source["changes"] = Value::Array(changes);
    source
}

/// A baseline source of the earlier generation (kind `workspace-instructions`).
pub fn baseline_source(identity: &str, changes: Vec<Value>) -> Value {
    baseline_source_of_kind("workspace-instructions", identity, changes)
}

/// The baseline source the current generation writes (kind `agent-instructions`).
pub fn current_baseline_source(identity: &str, changes: Vec<Value>) -> Value {
    baseline_source_of_kind("agent-instructions", identity, changes)
}

// ---------------------------------------------------------------- logs

/// The `user/message` event (seq 0, on the surface) that carries, as a
/// session's baseline, the first part and the source `render --format json`
/// printed.
pub fn rendered_baseline_event(rendered: &Value) -> Value {
    json!({"type":"user/message","seq":0,"time":0,"surfaceOp":"append",
        "data":{"role":"user","content":[{"type":"text","text":rendered["parts"][0]}],"source":rendered["source"]}})
}

/// JSON Lines text: every line followed by `\n`.
pub fn jsonl<T: Display>(lines: impl IntoIterator<Item = T>) -> String {
    lines.into_iter().fold(String::new(), |mut text, line| {
        writeln!(text, "{line}").unwrap();
        text
    })
}

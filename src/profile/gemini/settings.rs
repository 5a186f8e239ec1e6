//! Gemini CLI's settings files (SPEC 10.1, [G-set]): system defaults, user,
//! workspace (trusted only), system; last definition wins, lists replace;
//! comments stripped; `$VAR`, `${VAR}`, `${VAR:-d}` expanded in strings.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde_json::Value;

use super::super::{ValueOrigin, Vars, replace_refs};

/// The values of the context keys agentctx reads, each with the file that
/// defined it last (None: no file did).
#[derive(Debug, Clone, Default)]
pub struct Context {
    pub file_name: Option<(Value, ValueOrigin)>,
    pub markers: Option<(Value, ValueOrigin)>,
    pub import_format: Option<(Value, ValueOrigin)>,
    /// `model.name`.
    pub model: Option<(Value, ValueOrigin)>,
}

/// Reads the files in merge order (missing files skipped) and keeps the
/// last definition of each key.
///
/// # Errors
///
/// A file that exists but cannot be read, is not JSON, or is not an object.
pub fn read(files: &[PathBuf], vars: &Vars) -> Result<Context> {
    let mut ctx = Context::default();
    for path in files {
        let Some(value) = read_one(path, vars)? else {
            continue;
        };
        let origin = ValueOrigin::Settings(super::super::show(path));
        let context = value.get("context");
        let pick = |key: &str| context.and_then(|c| c.get(key)).cloned();
        if let Some(v) = pick("fileName") {
            ctx.file_name = Some((v, origin.clone()));
        }
        if let Some(v) = pick("memoryBoundaryMarkers") {
            ctx.markers = Some((v, origin.clone()));
        }
        if let Some(v) = pick("importFormat") {
            ctx.import_format = Some((v, origin.clone()));
        }
        if let Some(v) = value.get("model").and_then(|m| m.get("name")) {
            ctx.model = Some((v.clone(), origin));
        }
    }
    Ok(ctx)
}

fn read_one(path: &Path, vars: &Vars) -> Result<Option<Value>> {
    let bytes = match super::super::bounded::read_config(path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let text = String::from_utf8_lossy(&bytes);
    let shown = path.display().to_string();
    let value = super::super::jsonc::parse(&shown, &text, false)?;
    if !value.is_object() {
        bail!("{shown}: settings must be a JSON object");
    }
    Ok(Some(expand_value(value, vars)))
}

/// Whether Gemini CLI reads a system or system-defaults file [G-set]: it
/// and every directory above it (`stat`, links followed) are owned by uid 0
/// with no group or other write bit, every link among them is itself owned
/// by uid 0, and, when its real path differs, the real file and its
/// ancestors pass too.
#[must_use]
pub fn is_secure(path: &Path) -> bool {
    fn chain_ok(path: &Path) -> bool {
        path.ancestors().all(|p| {
            let Ok(meta) = crate::bounded::metadata(p) else {
                return false;
            };
            if meta.uid() != 0 || meta.mode() & 0o022 != 0 {
                return false;
            }
            match crate::bounded::symlink_metadata(p) {
                Ok(link) if link.file_type().is_symlink() => link.uid() == 0,
                Ok(_) => true,
                Err(_) => false,
            }
        })
    }
    if !chain_ok(path) {
        return false;
    }
    match crate::bounded::canonicalize(path) {
        Ok(real) => real == path || chain_ok(&real),
        Err(_) => false,
    }
}

/// Expands variables in every string of a JSON value.
fn expand_value(value: Value, vars: &Vars) -> Value {
    match value {
        Value::String(s) => Value::String(expand(&s, vars)),
        Value::Array(items) => {
            Value::Array(items.into_iter().map(|v| expand_value(v, vars)).collect())
        }
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, expand_value(v, vars)))
                .collect(),
        ),
        other => other,
    }
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Gemini's three passes: `${NAME:-default}`, then `${NAME}`, then `$NAME`
/// (NAME = `\w+`); an unset variable without a default is kept as written.
#[must_use]
pub fn expand(text: &str, vars: &Vars) -> String {
    let pass1 = replace_refs(text, "${", |inner| {
        let (name, default) = inner.split_once(":-")?;
        if name.is_empty() || !name.chars().all(is_word) || default.is_empty() {
            return None;
        }
        Some(vars.get(name).unwrap_or(default).to_owned())
    });
    let pass2 = replace_refs(&pass1, "${", |name| {
        if name.is_empty() || !name.chars().all(is_word) {
            return None;
        }
        vars.get(name).map(str::to_owned)
    });
    let mut out = String::with_capacity(pass2.len());
    let mut rest = pass2.as_str();
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let len = after.find(|c: char| !is_word(c)).unwrap_or(after.len());
        if let Some(value) = vars.get(&after[..len]).filter(|_| len > 0) {
            out.push_str(value);
        } else {
            out.push('$');
            out.push_str(&after[..len]);
        }
        rest = &after[len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Vars {
        Vars::of(
            [("A", "x"), ("E", ""), ("B_1", "y")]
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        )
    }

    #[test]
    fn three_passes() {
        let v = vars();
        assert_eq!(expand("$A/${B_1}/$NOPE/${NOPE}", &v), "x/y/$NOPE/${NOPE}");
        assert_eq!(expand("${NOPE:-d}|${A:-d}|${E:-d}", &v), "d|x|");
        assert_eq!(expand("${NOPE:-}|$|$-|${a b}", &v), "${NOPE:-}|$|$-|${a b}");
        assert_eq!(expand("$A$A.md", &v), "xx.md");
    }
}

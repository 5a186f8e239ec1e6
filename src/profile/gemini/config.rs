//! The gemini settings in effect (SPEC 10.1): the settings files in merge
//! order, and the context file names, boundary markers, import format and
//! model they resolve to, each with its origin.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde_json::Value;

use super::super::{HarnessSetting, ProfileSettings, ValueOrigin};
use super::{Input, names, settings};
use crate::text::js_trim;

/// The resolved gemini settings.
#[derive(Debug, Clone)]
pub(super) struct Config {
    pub(super) names: Vec<String>,
    pub(super) markers: Vec<String>,
    /// The model gets the modern header (rule 8).
    pub(super) modern: bool,
}

fn string_list(v: &Value, key: &str, origin: &ValueOrigin) -> Result<Vec<String>> {
    let list: Option<Vec<String>> = match v {
        Value::String(s) => Some(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|x| x.as_str().map(str::to_owned))
            .collect(),
        _ => None,
    };
    match list {
        Some(list) => Ok(list),
        None => bail!(
            "{}: {key} must be a string or a list of strings, got {v}",
            origin_path(origin)
        ),
    }
}

fn origin_path(origin: &ValueOrigin) -> String {
    match origin {
        ValueOrigin::Settings(p) | ValueOrigin::Config(p) => p.clone(),
        other => other.to_string(),
    }
}

/// The settings files in merge order (10.1), a system or system-defaults
/// file that exists but is not secure ([`settings::is_secure`]) left out
/// with a warning.
fn settings_files(input: &Input, workspace: &Path, warnings: &mut Vec<String>) -> Vec<PathBuf> {
    let defaults = input.system_defaults.clone().unwrap_or_else(|| {
        input
            .system_settings
            .parent()
            .unwrap_or(Path::new("/"))
            .join("system-defaults.json")
    });
    let mut system = |path: PathBuf, what: &str| {
        let exists = crate::bounded::symlink_metadata(&path).is_ok();
        if exists && !settings::is_secure(&path) {
            warnings.push(format!(
                "{}: not read: gemini reads a {what} file only when it and every directory above it are owned by root and not writable by group or others",
                super::super::show(&path)
            ));
            return None;
        }
        Some(path)
    };
    let defaults = system(defaults, "system defaults");
    let system_file = system(input.system_settings.clone(), "system settings");
    let user_dir = input.gh.join(".gemini");
    let mut files: Vec<PathBuf> = defaults.into_iter().collect();
    files.push(user_dir.join("settings.json"));
    let ws_dir = workspace.join(".gemini");
    let real = |p: &Path| crate::bounded::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    if input.trusted && real(&ws_dir) != real(&user_dir) {
        files.push(ws_dir.join("settings.json"));
    }
    files.extend(system_file);
    files
}

/// [G-model]: the model a name resolves to, and whether that model gets
/// the modern memory header (a gemini-3 model, or one not named
/// `gemini-*`).
#[must_use]
pub fn modern_model(name: &str) -> bool {
    let resolved = match name {
        "auto" | "pro" | "auto-gemini-3" => "gemini-3-pro-preview",
        "auto-gemini-2.5" => "gemini-2.5-pro",
        "flash" => "gemini-3-flash-preview",
        "flash-lite" => "gemini-3.1-flash-lite",
        other => other,
    };
    match resolved.strip_prefix("gemini-3") {
        Some(rest) => rest.is_empty() || rest.starts_with(['.', '-']),
        None => !resolved.starts_with("gemini-"),
    }
}

/// The settings in effect for `input` at `workspace`, and each one's
/// origin (warnings: system files left out).
pub(super) fn resolve(
    input: &Input,
    workspace: &Path,
    warnings: &mut Vec<String>,
) -> Result<(Config, ProfileSettings)> {
    let files = settings_files(input, workspace, warnings);
    let ctx = settings::read(&files, &input.vars)?;
    let mut s = ProfileSettings::default();
    s.push(
        "gemini_home",
        HarnessSetting::new(super::super::show(&input.gh), input.gh_origin.clone()),
    );
    s.push(
        "workspace",
        HarnessSetting::new(super::super::show(workspace), ValueOrigin::Derived),
    );
    s.push(
        "trusted",
        HarnessSetting::new(
            input.trusted,
            if input.trusted {
                ValueOrigin::Default
            } else {
                ValueOrigin::Flag
            },
        ),
    );
    let names = names(&file_names(input, &ctx, &mut s)?);
    s.push(
        "names",
        HarnessSetting::new(names.clone(), ValueOrigin::Derived),
    );
    let markers = markers(input, &ctx, &mut s)?;
    import_format(&ctx, &mut s)?;
    let modern = model(input, &ctx, &mut s)?;
    Ok((
        Config {
            names,
            markers,
            modern,
        },
        s,
    ))
}

/// `context.fileName`: the flag, else the settings, else none (rule 1
/// adds the default).
fn file_names(
    input: &Input,
    ctx: &settings::Context,
    s: &mut ProfileSettings,
) -> Result<Vec<String>> {
    Ok(match (&input.file_name, &ctx.file_name) {
        (Some(flag), _) => {
            s.push(
                "context.fileName",
                HarnessSetting::new(flag.clone(), ValueOrigin::Flag),
            );
            flag.clone()
        }
        (None, Some((Value::Null, _)) | None) => {
            s.push(
                "context.fileName",
                HarnessSetting::new(Value::Null, ValueOrigin::Default),
            );
            Vec::new()
        }
        (None, Some((v, origin))) => {
            let list = string_list(v, "context.fileName", origin)?;
            s.push(
                "context.fileName",
                HarnessSetting::new(v.clone(), origin.clone()),
            );
            list
        }
    })
}

/// `context.memoryBoundaryMarkers`: the flag, else the settings, else
/// `.git`.
fn markers(input: &Input, ctx: &settings::Context, s: &mut ProfileSettings) -> Result<Vec<String>> {
    let (list, origin) = match (&input.markers, &ctx.markers) {
        (Some(flag), _) => (flag.clone(), ValueOrigin::Flag),
        (None, Some((v, origin))) if !v.is_null() => {
            let list = match v {
                Value::Array(_) => string_list(v, "context.memoryBoundaryMarkers", origin)?,
                _ => bail!(
                    "{}: context.memoryBoundaryMarkers must be a list of strings, got {v}",
                    origin_path(origin)
                ),
            };
            (list, origin.clone())
        }
        _ => (vec![".git".to_owned()], ValueOrigin::Default),
    };
    s.push(
        "context.memoryBoundaryMarkers",
        HarnessSetting::new(list.clone(), origin),
    );
    Ok(list)
}

/// `context.importFormat`: only `tree` is supported.
fn import_format(ctx: &settings::Context, s: &mut ProfileSettings) -> Result<()> {
    match &ctx.import_format {
        Some((Value::String(f), origin)) if f == "flat" => bail!(
            "{}: context.importFormat \"flat\" is not supported (only \"tree\")",
            origin_path(origin)
        ),
        Some((v, origin)) if !v.is_null() => {
            s.push(
                "context.importFormat",
                HarnessSetting::new(v.clone(), origin.clone()),
            );
        }
        _ => s.push(
            "context.importFormat",
            HarnessSetting::new("tree", ValueOrigin::Default),
        ),
    }
    Ok(())
}

/// `model.name` (the flag or `$GEMINI_MODEL`, else the settings, else
/// `auto`); returns whether it gets the modern header.
fn model(input: &Input, ctx: &settings::Context, s: &mut ProfileSettings) -> Result<bool> {
    let (model, origin) = match (&input.model, &ctx.model) {
        (Some((m, origin)), _) | (None, Some((Value::String(m), origin))) => {
            (m.clone(), origin.clone())
        }
        (None, Some((v, origin))) if !v.is_null() => bail!(
            "{}: model.name must be a string, got {v}",
            origin_path(origin)
        ),
        _ => ("auto".to_owned(), ValueOrigin::Default),
    };
    let model = js_trim(&model).to_owned();
    let modern = modern_model(&model);
    s.push("model", HarnessSetting::new(model, origin));
    s.push("modern", HarnessSetting::new(modern, ValueOrigin::Derived));
    Ok(modern)
}

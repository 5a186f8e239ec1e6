//! Steps 2-4: the layers of dsh's configuration, each read bounded and
//! parsed as a patch list.

use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::bounded;
use crate::paths;

use super::yaml::{self, Node, Value};
use super::{
    ConfigOrigin, DshConfig, Input, Layer, LayerKind, LayerStatus, MAX_LAYER_BYTES, Refusal,
    Warning, builtin,
};

/// dsh creates `$DSH_HOME/profiles/node_modules` before anything else and
/// dies when the home is a file (realdsh case r22-enotdir-dsh-home).
pub(super) fn home_is_a_dir(home: &Path) -> Result<(), Refusal> {
    let not_a_dir = match std::fs::metadata(home) {
        Ok(meta) => !meta.is_dir(),
        Err(e) => e.raw_os_error() == Some(libc::ENOTDIR),
    };
    if not_a_dir {
        return Err(Refusal {
            origin: ConfigOrigin::Config(home.to_path_buf()),
            line: None,
            message: format!(
                "Error: ENOTDIR: not a directory, mkdir '{}'",
                home.join("profiles").join("node_modules").display()
            ),
        });
    }
    Ok(())
}

/// Step 2: each bundle's layer, installed, built in, or (not installed)
/// a warning.
pub(super) fn bundle_layers(
    home: &Path,
    profile: &str,
    config: &mut DshConfig,
    stack: &mut Vec<Node>,
) -> Result<(), Refusal> {
    for name in bundles(home, profile)? {
        if let Some(path) = installed_bundle(home, profile, &name) {
            read_layer(
                &path,
                LayerKind::Bundle(name),
                "overlay",
                true,
                &mut config.layers,
                stack,
            )?;
        } else if let Some(entries) = builtin::bundle_entries(&name) {
            stack.extend(entries);
            config.layers.push(Layer {
                origin: ConfigOrigin::Bundle(name.clone()),
                kind: LayerKind::Bundle(name),
                status: LayerStatus::BuiltIn,
            });
        } else {
            config.warnings.push(Warning {
                file: home.join("profiles").join(profile).display().to_string(),
                line: None,
                message: format!("bundle {name} is not installed under $DSH_HOME/profiles: its layer is skipped (not modelled)"),
            });
            config.layers.push(Layer {
                kind: LayerKind::Bundle(name.clone()),
                origin: ConfigOrigin::Bundle(name),
                status: LayerStatus::Absent,
            });
        }
    }
    Ok(())
}

/// Step 3: the profile and home layers, then each `--patch` file; all
/// listed as ignored with `--no-dsh-config`.
pub(super) fn user_layers(
    input: &Input,
    home: &Path,
    profile: &str,
    config: &mut DshConfig,
    stack: &mut Vec<Node>,
) -> Result<(), Refusal> {
    let user_layers = [
        (
            home.join("profiles").join(profile).join("cordis.patch.yml"),
            LayerKind::Profile,
        ),
        (home.join("cordis.patch.yml"), LayerKind::Home),
    ];
    if input.no_dsh_config {
        for (path, kind) in user_layers {
            config.layers.push(Layer {
                kind,
                origin: ConfigOrigin::Config(path),
                status: LayerStatus::Ignored,
            });
        }
        for path in &input.patches {
            config.layers.push(Layer {
                kind: LayerKind::Patch,
                origin: ConfigOrigin::Config(path.clone()),
                status: LayerStatus::Ignored,
            });
        }
    } else {
        for (path, kind) in user_layers {
            read_layer(&path, kind, "patches", false, &mut config.layers, stack)?;
        }
        for path in &input.patches {
            let path = paths::normalize(&input.cwd, path);
            read_layer(
                &path,
                LayerKind::Patch,
                "overlay",
                true,
                &mut config.layers,
                stack,
            )?;
        }
    }
    Ok(())
}

/// Reads a file bounded; `Ok(None)` when it does not exist.
pub(super) fn read_bounded(path: &Path) -> io::Result<Option<String>> {
    match bounded::read_capped(path, MAX_LAYER_BYTES) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Parses one patch list (dsh:packages/boot/app-boot/src/index.ts
/// `parsePatchList`): a top-level YAML list of mappings. `label` is dsh's
/// word for the file (`patches` for the profile and home layers, `overlay`
/// for bundles and `--patch` files).
fn parse_layer(text: &str, origin: &Rc<ConfigOrigin>, label: &str) -> Result<Vec<Node>, Refusal> {
    let file = origin.file();
    let root = yaml::parse(text, origin).map_err(|e| Refusal {
        origin: (**origin).clone(),
        line: Some(e.line),
        message: format!(
            "failed to parse {label} {file}: YAMLException: {} ({}:{})",
            e.message, e.line, e.column
        ),
    })?;
    let not_list = || Refusal {
        origin: (**origin).clone(),
        line: Some(root.as_ref().map_or(1, |n| n.line)),
        message: format!("{label} {file} must be a top-level YAML array of loader patch entries"),
    };
    let Some(Node {
        value: Value::List(list),
        ..
    }) = &root
    else {
        return Err(not_list());
    };
    let entries = list.borrow().clone();
    for (index, entry) in entries.iter().enumerate() {
        if !matches!(entry.value, Value::Map(_)) {
            return Err(Refusal {
                origin: (**origin).clone(),
                line: Some(entry.line),
                message: format!(
                    "{label} entry {} in {file} must be a mapping (a loader patch entry)",
                    index + 1
                ),
            });
        }
    }
    Ok(entries)
}

/// Reads one layer file into `layers`/`stack`; `required` makes a missing
/// file a refusal (`--patch`).
fn read_layer(
    path: &Path,
    kind: LayerKind,
    label: &str,
    required: bool,
    layers: &mut Vec<Layer>,
    stack: &mut Vec<Node>,
) -> Result<bool, Refusal> {
    let origin = ConfigOrigin::Config(path.to_path_buf());
    let fail = |layers: &mut Vec<Layer>, line, message| {
        layers.push(Layer {
            kind: kind.clone(),
            origin: origin.clone(),
            status: LayerStatus::Error,
        });
        Refusal {
            origin: origin.clone(),
            line,
            message,
        }
    };
    let what = if label == "overlay" {
        "overlay"
    } else {
        "patches"
    };
    let text = match read_bounded(path) {
        Ok(Some(text)) => text,
        Ok(None) if !required => {
            layers.push(Layer {
                kind,
                origin,
                status: LayerStatus::Absent,
            });
            return Ok(false);
        }
        Ok(None) => {
            return Err(fail(
                layers,
                None,
                format!(
                    "failed to read {what} {}: no such file or directory",
                    path.display()
                ),
            ));
        }
        Err(e) => {
            return Err(fail(
                layers,
                None,
                format!("failed to read {what} {}: {e}", path.display()),
            ));
        }
    };
    let entries = match parse_layer(&text, &Rc::new(origin.clone()), label) {
        Ok(entries) => entries,
        Err(r) => return Err(fail(layers, r.line, r.message)),
    };
    stack.extend(entries);
    layers.push(Layer {
        kind,
        origin,
        status: LayerStatus::Read,
    });
    Ok(true)
}

/// The bundles of the profile: `dsh.profile.bundles` of its `package.json`,
/// else the in-box default.
fn bundles(home: &Path, profile: &str) -> Result<Vec<String>, Refusal> {
    let pkg = home.join("profiles").join(profile).join("package.json");
    let origin = ConfigOrigin::Config(pkg.clone());
    let text = read_bounded(&pkg).map_err(|e| Refusal {
        origin: origin.clone(),
        line: None,
        message: format!("failed to read {}: {e}", pkg.display()),
    })?;
    let Some(text) = text else {
        return builtin::default_bundles(profile).ok_or_else(|| Refusal {
            origin: origin.clone(),
            line: None,
            message: format!("profile {profile} does not exist"),
        });
    };
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| Refusal {
        origin: origin.clone(),
        line: Some(e.line()),
        message: format!("failed to parse {}: {e}", pkg.display()),
    })?;
    let list: Vec<String> = json
        .pointer("/dsh/profile/bundles")
        .and_then(serde_json::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    // The legacy tuple [base, web-app, headless] is read as [base, headless].
    if list == [builtin::BASE, builtin::WEB_APP, builtin::HEADLESS] {
        return Ok(vec![builtin::BASE.to_owned(), builtin::HEADLESS.to_owned()]);
    }
    Ok(list)
}

/// An installed bundle's patch file, if any copy is found.
fn installed_bundle(home: &Path, profile: &str, name: &str) -> Option<PathBuf> {
    let dirs = [
        home.join("profiles")
            .join(profile)
            .join("node_modules")
            .join(name),
        home.join("profiles").join("node_modules").join(name),
    ];
    dirs.iter().find_map(|dir| {
        let text = read_bounded(&dir.join("package.json")).ok()??;
        let json: serde_json::Value = serde_json::from_str(&text).ok()?;
        let patch = json.pointer("/dsh/bundle/patch")?.as_str()?;
        Some(paths::normalize(dir, Path::new(patch)))
    })
}

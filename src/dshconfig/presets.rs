//! Step 6: the web presets (11.5).

use std::path::Path;
use std::rc::Rc;

use super::layers::read_bounded;
use super::yaml::{self, Node, Value};
use super::{
    ConfigOrigin, DshConfig, Input, Layer, LayerKind, LayerStatus, Outcome, Refusal, builtin,
    patch, settings_default, validate,
};

/// The web preset (11.5): shipped first, then the user root.
pub(super) fn web_preset(
    input: &Input,
    home: &Path,
    rows: &[Node],
    config: &mut DshConfig,
) -> Result<Outcome, Refusal> {
    let presets_row = patch::find_row(rows, "agent-presets");
    let row_config = presets_row.as_ref().and_then(|r| r.value.get("config"));
    let (id, from) = preset_id(input, home, row_config.as_ref());
    config.preset = Some((id.clone(), from));
    let include_user = !matches!(
        row_config
            .as_ref()
            .and_then(|c| c.value.get("includeUserRoot")),
        Some(Node {
            value: Value::Bool(false),
            ..
        })
    );
    if let Some(entries) = builtin::preset_entries(&id) {
        return Ok(mount_preset(
            &id,
            &ConfigOrigin::Preset(id.clone()),
            &entries,
            LayerStatus::BuiltIn,
            input,
            config,
        ));
    }
    let (origin, entries, kind) = user_preset(home, &id, include_user)?;
    Ok(mount_preset(&id, &origin, &entries, kind, input, config))
}

/// The preset's id and where it came from: `--dsh-preset`, the
/// settings.yaml default, the `agent-presets` row's default, else
/// `standard`.
fn preset_id(input: &Input, home: &Path, row_config: Option<&Node>) -> (String, String) {
    match &input.preset {
        Some(id) if input.preset_from.is_empty() => (id.clone(), "given".to_owned()),
        Some(id) => (id.clone(), input.preset_from.clone()),
        None => match settings_default(home) {
            Some(id) => (id, format!("{}", home.join("settings.yaml").display())),
            None => match row_config.as_ref().and_then(|c| c.value.get("default")) {
                Some(Node {
                    value: Value::String(id),
                    origin,
                    ..
                }) => (id, format!("agent-presets row ({origin})")),
                _ => ("standard".to_owned(), "default".to_owned()),
            },
        },
    }
}

/// A preset of the user root (`$DSH_HOME/.agent-presets/<id>`): its origin,
/// entries and how it was found; unknown when the root is not included.
fn user_preset(
    home: &Path,
    id: &str,
    include_user: bool,
) -> Result<(ConfigOrigin, Vec<Node>, LayerStatus), Refusal> {
    let (origin, text, kind) = {
        let path = home
            .join(".agent-presets")
            .join(id)
            .join("agent.cordis.yml");
        let origin = ConfigOrigin::Preset(path.display().to_string());
        let text = if include_user {
            read_bounded(&path).map_err(|e| Refusal {
                origin: origin.clone(),
                line: None,
                message: format!("failed to read preset {}: {e}", path.display()),
            })?
        } else {
            None
        };
        match text {
            Some(text) => (origin, text, LayerStatus::Read),
            None => {
                return Err(Refusal {
                    origin,
                    line: None,
                    message: format!("unknown agent preset \"{id}\""),
                });
            }
        }
    };
    let rc = Rc::new(origin.clone());
    let entries = match yaml::parse(&text, &rc) {
        Ok(Some(Node {
            value: Value::List(list),
            ..
        })) => list.borrow().clone(),
        Ok(_) => {
            return Err(Refusal {
                origin,
                line: Some(1),
                message: format!("preset {id}: config file must be a top-level array"),
            });
        }
        Err(e) => {
            return Err(Refusal {
                origin,
                line: Some(e.line),
                message: format!(
                    "preset {id}: failed to parse config file: YAMLException: {}",
                    e.message
                ),
            });
        }
    };
    Ok((origin, entries, kind))
}

/// A preset's entry list, mounted as is (no patches): its loader row decides.
fn mount_preset(
    id: &str,
    origin: &ConfigOrigin,
    entries: &[Node],
    status: LayerStatus,
    input: &Input,
    config: &mut DshConfig,
) -> Outcome {
    config.layers.push(Layer {
        kind: LayerKind::Preset(id.to_owned()),
        origin: origin.clone(),
        status,
    });
    let rows = patch::detach(entries);
    let found = patch::loader_rows(&rows, &mut config.warnings);
    if found.iter().all(|r| !r.enabled) && found.iter().all(|r| r.decided_by.is_none()) {
        return Outcome::NotMounted {
            file: origin.file(),
            line: None,
            reason: format!("preset {id} has no agent-instructions row"),
        };
    }
    validate::outcome(&found, input, &mut config.warnings, true)
}

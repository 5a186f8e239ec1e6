//! What explain says of dsh's configuration (CONFIG 11.7): plain facts for
//! the text printer and the JSON `dshConfig` object alike.

use serde::Serialize;

use super::{DshConfig, Effective, Layer, LayerKind, LayerStatus, Outcome, RowSetting};

/// The `dshConfig` section.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigReport {
    pub profile: String,
    /// `flag`, `env` (`AGENTCTX_DSH_PROFILE`), `log` or `default`.
    pub profile_from: String,
    /// Web only: the agent preset and where its id came from.
    pub preset: Option<String>,
    pub preset_from: Option<String>,
    /// The dsh home the layers were read from.
    pub dsh_home: String,
    pub layers: Vec<LayerReport>,
    /// `loaded`, `not mounted` or `refused`.
    pub outcome: &'static str,
    /// The file and line that decide a `not mounted` or `refused` outcome.
    pub file: Option<String>,
    pub line: Option<usize>,
    /// Why nothing is mounted, or dsh's own refusal message.
    pub message: Option<String>,
    /// The loaded row's keys, in dsh's schema order, with their origins.
    pub row: Vec<KeyReport>,
    /// Row keys dsh ignores.
    pub ignored_keys: Vec<String>,
    /// The configuration's warnings, each naming its file (and line).
    pub warnings: Vec<String>,
    /// The sessions root the persistence row sets, when it sets a literal one.
    pub sessions_root: Option<String>,
    /// `config` or `log`: where settings not given as flags came from.
    pub settings_from: &'static str,
    /// `flag`, `log` (`--log FILE`) or `default`.
    pub settings_from_origin: &'static str,
    /// With `--settings-from log`: the first setting whose value dsh's
    /// current configuration would change (a resume sends a replacement).
    pub differs_from_log: Option<String>,
}

/// One layer and what became of it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LayerReport {
    /// `bundle NAME`, `profile`, `home`, `patch` or `preset ID`.
    pub layer: String,
    /// The file, or the built-in's origin (`bundle:NAME`, `preset:ID`).
    pub file: String,
    /// `read`, `absent`, `built in`, `ignored`, `error` or `does not apply to web`.
    pub status: &'static str,
}

/// One key of the loaded row.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyReport {
    pub key: &'static str,
    /// The value as JSON (the schema default when absent or an expression).
    pub value: serde_json::Value,
    /// The value for people (`Infinity`, `a, b`).
    #[serde(skip)]
    pub text: String,
    /// `config:PATH`, `bundle:NAME`, `preset:PATH` or `default`.
    pub origin: String,
    pub line: Option<usize>,
    /// A `!!js` expression, never evaluated: the value above is not what dsh uses.
    pub expression: Option<String>,
}

/// Where the caller's choices came from, for the report.
#[derive(Debug, Clone, Copy)]
pub struct Choices<'a> {
    pub profile_from: &'a str,
    pub settings_from: &'static str,
    pub settings_from_origin: &'static str,
}

impl ConfigReport {
    /// The report of `config`; `differs_from_log` is the caller's comparison.
    #[must_use]
    pub fn new(config: &DshConfig, choices: Choices<'_>, differs_from_log: Option<String>) -> Self {
        let layers = config
            .layers
            .iter()
            .map(|l| layer_report(config, l))
            .collect();
        let (outcome, file, line, message) = match &config.outcome {
            Outcome::Loaded(_) => ("loaded", None, None, None),
            Outcome::NotMounted { file, line, reason } => (
                "not mounted",
                Some(file.clone()).filter(|f| !f.is_empty()),
                *line,
                Some(reason.clone()),
            ),
            Outcome::Refused {
                file,
                line,
                message,
            } => ("refused", Some(file.clone()), *line, Some(message.clone())),
        };
        let (row, ignored_keys) = match &config.outcome {
            Outcome::Loaded(e) => (row_keys(e), e.ignored.clone()),
            _ => (Vec::new(), Vec::new()),
        };
        ConfigReport {
            profile: config.profile.clone(),
            profile_from: choices.profile_from.to_owned(),
            preset: config.preset.as_ref().map(|(id, _)| id.clone()),
            preset_from: config.preset.as_ref().map(|(_, from)| from.clone()),
            dsh_home: config.dsh_home.to_string_lossy().into_owned(),
            layers,
            outcome,
            file,
            line,
            message,
            row,
            ignored_keys,
            warnings: config
                .warnings
                .iter()
                .map(|w| match w.line {
                    Some(line) => format!("{}:{line}: {}", w.file, w.message),
                    None if w.file.is_empty() => w.message.clone(),
                    None => format!("{}: {}", w.file, w.message),
                })
                .collect(),
            sessions_root: config
                .sessions_root
                .as_ref()
                .map(|(p, _, _)| p.to_string_lossy().into_owned()),
            settings_from: choices.settings_from,
            settings_from_origin: choices.settings_from_origin,
            differs_from_log,
        }
    }
}

/// One layer as the report shows it.
fn layer_report(config: &DshConfig, l: &Layer) -> LayerReport {
    let web = config.profile == "web";
    LayerReport {
        layer: match &l.kind {
            LayerKind::Bundle(name) => format!("bundle {name}"),
            LayerKind::Profile => "profile".to_owned(),
            LayerKind::Home => "home".to_owned(),
            LayerKind::Patch => "patch".to_owned(),
            LayerKind::Preset(id) => format!("preset {id}"),
        },
        file: l.origin.file(),
        status: match l.status {
            LayerStatus::Read if web && config.not_for_web.contains(&l.origin) => {
                "does not apply to web"
            }
            LayerStatus::Read => "read",
            LayerStatus::Absent => "absent",
            LayerStatus::BuiltIn => "built in",
            LayerStatus::Ignored => "ignored",
            LayerStatus::Error => "error",
        },
    }
}

/// The loader row's settings, each with its origin.
fn row_keys(e: &Effective) -> Vec<KeyReport> {
    vec![
        key("maxBytes", &e.max_bytes, |v| number(*v), |v| js(*v)),
        key(
            "maxSourceBytes",
            &e.max_source_bytes,
            |v| number(*v),
            |v| js(*v),
        ),
        key(
            "projectRootMarkers",
            &e.project_root_markers,
            list,
            text_list,
        ),
        key(
            "instructionFileCandidates",
            &e.instruction_file_candidates,
            list,
            text_list,
        ),
        key(
            "localInstructionFileCandidates",
            &e.local_instruction_file_candidates,
            list,
            text_list,
        ),
        key(
            "dshHome",
            &e.dsh_home,
            |v| serde_json::json!(v.to_string_lossy()),
            |v| v.to_string_lossy().into_owned(),
        ),
    ]
}

fn key<T>(
    name: &'static str,
    s: &RowSetting<T>,
    value: impl Fn(&T) -> serde_json::Value,
    text: impl Fn(&T) -> String,
) -> KeyReport {
    KeyReport {
        key: name,
        value: value(&s.value),
        text: text(&s.value),
        origin: s.origin.to_string(),
        // A line of what agentctx builds in names nothing a user can open.
        line: s.line.filter(|_| match &s.origin {
            super::ConfigOrigin::Bundle(_) => false,
            super::ConfigOrigin::Preset(id) => super::builtin::preset(id).is_none(),
            _ => true,
        }),
        expression: s.expression.clone(),
    }
}

/// A number as JSON: an integer when it is one, `null` when not finite.
#[allow(clippy::cast_possible_truncation)]
fn number(v: f64) -> serde_json::Value {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15 {
        serde_json::json!(v as i64)
    } else {
        serde_json::json!(v)
    }
}

fn js(v: f64) -> String {
    crate::jsnum::MaxBytes(v).to_string()
}

#[allow(clippy::ptr_arg)]
fn list(v: &Vec<String>) -> serde_json::Value {
    serde_json::json!(v)
}

#[allow(clippy::ptr_arg)]
fn text_list(v: &Vec<String>) -> String {
    if v.is_empty() {
        "none".to_owned()
    } else {
        v.join(", ")
    }
}

//! The loader row's validation and outcome (CONFIG 11.5), as dsh's
//! schemastery schema checks it (dsh:packages/context/agent-instructions/
//! src/config.ts:39-46, `@deepseek-ai/schemastery` 3.18.1): keys in schema
//! order, the first failure is dsh's message, worded as cordis prints it:
//! `invalid config: - $.KEY MESSAGE (at KEY)`.

use std::path::PathBuf;

use super::patch::Found;
use super::yaml::{Node, Value};
use super::{ConfigOrigin, Input, Outcome, Warning, expand_home};

/// One effective setting: its value (the schema default when absent or set
/// by an expression), where it came from, and the expression if any.
#[derive(Debug, Clone, PartialEq)]
pub struct RowSetting<T> {
    pub value: T,
    pub origin: ConfigOrigin,
    pub line: Option<usize>,
    /// A `!!js` value: never evaluated; `value` is then the default.
    pub expression: Option<String>,
}

/// The loaded row's effective settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Effective {
    pub max_bytes: RowSetting<f64>,
    pub max_source_bytes: RowSetting<f64>,
    pub project_root_markers: RowSetting<Vec<String>>,
    /// Filtered as SPEC 1 (no `''`, `.`, `..`, nothing with `/` or `\`).
    pub instruction_file_candidates: RowSetting<Vec<String>>,
    pub local_instruction_file_candidates: RowSetting<Vec<String>>,
    /// The resolved dsh home the user-global `AGENTS.md` is read from.
    pub dsh_home: RowSetting<PathBuf>,
    /// `~/.dsh/AGENTS.md` when the home is `<home>/.dsh`, else `$DSH_HOME/AGENTS.md`.
    pub user_global_display: String,
    /// Keys dsh ignores (`precedence`, typos).
    pub ignored: Vec<String>,
}

const KEYS: [&str; 6] = [
    "dshHome",
    "projectRootMarkers",
    "maxBytes",
    "maxSourceBytes",
    "instructionFileCandidates",
    "localInstructionFileCandidates",
];

struct Fail {
    node: Node,
    message: String,
}

fn refuse(node: &Node, key: &str, at: &str, message: &str) -> Fail {
    Fail {
        node: node.clone(),
        message: format!("invalid config: - $.{key} {message} (at {at})"),
    }
}

/// The outcome for the composed loader rows.
pub fn outcome(found: &[Found], input: &Input, warnings: &mut Vec<Warning>, web: bool) -> Outcome {
    let enabled: Vec<&Found> = found.iter().filter(|f| f.enabled).collect();
    let Some(row) = enabled.last() else {
        return match found.last() {
            Some(Found {
                decided_by: Some(node),
                ..
            }) => Outcome::NotMounted {
                file: node.origin.file(),
                line: Some(node.line),
                reason: "the agent-instructions row is disabled".to_owned(),
            },
            _ => Outcome::NotMounted {
                file: String::new(),
                line: None,
                reason: "no row mounts @deepseek-ai/dsh-agent-instructions".to_owned(),
            },
        };
    };
    if enabled.len() > 1 {
        warnings.push(Warning {
            file: row.row.origin.file(),
            line: Some(row.row.line),
            message: format!(
                "{} enabled agent-instructions rows (unsupported: several loaders); agentctx uses the last",
                enabled.len()
            ),
        });
    }
    match effective(&row.row, input, warnings, web) {
        Ok(e) => Outcome::Loaded(Box::new(e)),
        Err(f) => Outcome::Refused {
            file: f.node.origin.file(),
            line: Some(f.node.line),
            message: f.message,
        },
    }
}

fn defaults(input: &Input, origin: &ConfigOrigin) -> Effective {
    let home = super::dsh_home(input);
    let setting = |value| RowSetting {
        value,
        origin: origin.clone(),
        line: None,
        expression: None,
    };
    let strings = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    Effective {
        max_bytes: setting(0.0).map_default(),
        max_source_bytes: RowSetting::default_of(1_048_576.0),
        project_root_markers: RowSetting::default_of(strings(&[".git"])),
        instruction_file_candidates: RowSetting::default_of(strings(&["AGENTS.md", "CLAUDE.md"])),
        local_instruction_file_candidates: RowSetting::default_of(strings(&[
            "AGENTS.local.md",
            "CLAUDE.local.md",
        ])),
        user_global_display: display(&home, input),
        dsh_home: RowSetting::default_of(home),
        ignored: Vec::new(),
    }
}

impl<T> RowSetting<T> {
    fn default_of(value: T) -> Self {
        RowSetting {
            value,
            origin: ConfigOrigin::Default,
            line: None,
            expression: None,
        }
    }

    fn map_default(self) -> Self {
        RowSetting {
            origin: ConfigOrigin::Default,
            ..self
        }
    }
}

fn display(home: &std::path::Path, input: &Input) -> String {
    let default = input.home.as_ref().map(|h| h.join(".dsh"));
    if default.is_some_and(|d| crate::paths::normalize(&input.cwd, &d) == home) {
        "~/.dsh/AGENTS.md".to_owned()
    } else {
        "$DSH_HOME/AGENTS.md".to_owned()
    }
}

fn from<T>(node: &Node, value: T) -> RowSetting<T> {
    RowSetting {
        value,
        origin: (*node.origin).clone(),
        line: Some(node.line),
        expression: None,
    }
}

fn expression<T>(
    node: &Node,
    default: RowSetting<T>,
    key: &str,
    warnings: &mut Vec<Warning>,
) -> RowSetting<T> {
    let text = match &node.value {
        Value::Expr(e) => e.clone(),
        _ => "a list holding an expression".to_owned(),
    };
    warnings.push(Warning {
        file: node.origin.file(),
        line: Some(node.line),
        message: format!("{key} is set by an expression ({text}): agentctx does not evaluate it"),
    });
    RowSetting {
        origin: (*node.origin).clone(),
        line: Some(node.line),
        expression: Some(text),
        ..default
    }
}

fn string_list(node: &Node, key: &str, warnings: &mut Vec<Warning>) -> Result<Vec<String>, Fail> {
    let Value::List(list) = &node.value else {
        return Err(refuse(
            node,
            key,
            key,
            &format!("expected array but got {}", node.value.js_string()),
        ));
    };
    let mut out = Vec::new();
    for (i, item) in list.borrow().iter().enumerate() {
        match &item.value {
            Value::String(s) => out.push(s.clone()),
            Value::Null => warnings.push(Warning {
                file: item.origin.file(),
                line: Some(item.line),
                message: format!("{key}[{i}] is null: dsh accepts it and fails later; agentctx drops it (not modelled)"),
            }),
            v => {
                return Err(refuse(
                    item,
                    &format!("{key}[{i}]"),
                    &format!("{key}.{i}"),
                    &format!("expected string but got {}", v.js_string()),
                ));
            }
        }
    }
    Ok(out)
}

fn filter_candidates(list: Vec<String>) -> Vec<String> {
    list.into_iter()
        .filter(|c| !matches!(c.as_str(), "" | "." | "..") && !c.contains(['/', '\\']))
        .collect()
}

/// Validates the row's `config` and builds its effective settings.
fn effective(
    row: &Node,
    input: &Input,
    warnings: &mut Vec<Warning>,
    web: bool,
) -> Result<Effective, Fail> {
    let mut e = defaults(input, &ConfigOrigin::Default);
    let config = row.value.get("config");
    let map = match &config {
        None
        | Some(Node {
            value: Value::Null, ..
        }) => None,
        Some(
            node @ Node {
                value: Value::Expr(_),
                ..
            },
        ) => {
            warnings.push(Warning {
                file: node.origin.file(),
                line: Some(node.line),
                message: "config is set by an expression: agentctx does not evaluate it; every setting is its default".to_owned(),
            });
            e.max_bytes.expression = Some("config".to_owned());
            return Ok(e);
        }
        Some(
            node @ Node {
                value: Value::Map(_),
                ..
            },
        ) => Some(node.clone()),
        Some(node) => {
            return Err(Fail {
                node: node.clone(),
                message: format!(
                    "invalid config: - expected object but got {}",
                    node.value.js_string()
                ),
            });
        }
    };
    let at = config.clone().unwrap_or_else(|| row.clone());
    let Some(map) = map else {
        return Err(refuse(
            &at,
            "maxBytes",
            "maxBytes",
            "missing required value",
        ));
    };
    read_keys(&map, &mut e, input, web, warnings)?;
    Ok(e)
}

/// Reads every key of the row's `config` mapping into `e` (after its
/// defaults), refusing as dsh does; unknown keys are ignored with a warning.
fn read_keys(
    map: &Node,
    e: &mut Effective,
    input: &Input,
    web: bool,
    warnings: &mut Vec<Warning>,
) -> Result<(), Fail> {
    let get = |key: &str| map.value.get(key).filter(|n| n.value != Value::Null);
    if let Some(node) = get("dshHome") {
        dsh_home_key(&node, e, input, web, warnings)?;
    }
    // projectRootMarkers
    if let Some(node) = get("projectRootMarkers") {
        if node.value.has_expr() {
            e.project_root_markers = expression(
                &node,
                e.project_root_markers.clone(),
                "projectRootMarkers",
                warnings,
            );
        } else {
            e.project_root_markers =
                from(&node, string_list(&node, "projectRootMarkers", warnings)?);
        }
    }
    // maxBytes: required, any number.
    max_bytes_key(get("maxBytes"), map, e, warnings)?;
    // maxSourceBytes: a number, >= 1, a multiple of 1 from 1.
    if let Some(node) = get("maxSourceBytes") {
        max_source_bytes_key(&node, e, warnings)?;
    }
    for (key, slot) in [
        (
            "instructionFileCandidates",
            &mut e.instruction_file_candidates,
        ),
        (
            "localInstructionFileCandidates",
            &mut e.local_instruction_file_candidates,
        ),
    ] {
        if let Some(node) = get(key) {
            if node.value.has_expr() {
                *slot = expression(&node, slot.clone(), key, warnings);
            } else {
                *slot = from(&node, string_list(&node, key, warnings)?);
            }
        }
    }
    for s in [
        &mut e.instruction_file_candidates,
        &mut e.local_instruction_file_candidates,
    ] {
        s.value = filter_candidates(std::mem::take(&mut s.value));
    }
    if let Value::Map(m) = &map.value {
        for (key, node) in m.borrow().iter() {
            if !KEYS.contains(&key.as_str()) {
                e.ignored.push(key.clone());
                warnings.push(Warning {
                    file: node.origin.file(),
                    line: Some(node.line),
                    message: format!("config key {key} is not one dsh reads: ignored"),
                });
            }
        }
    }
    Ok(())
}

/// `dshHome`: a string (expanded; relative under web is warned), or an
/// expression.
fn dsh_home_key(
    node: &Node,
    e: &mut Effective,
    input: &Input,
    web: bool,
    warnings: &mut Vec<Warning>,
) -> Result<(), Fail> {
    match &node.value {
        Value::Expr(_) => e.dsh_home = expression(node, e.dsh_home.clone(), "dshHome", warnings),
        Value::String(s) => {
            if web && !s.starts_with('~') && !std::path::Path::new(s).is_absolute() {
                warnings.push(Warning {
                    file: node.origin.file(),
                    line: Some(node.line),
                    message: format!("dshHome {s:?} is relative to the dsh web process's cwd, which agentctx cannot know: the session cwd is assumed"),
                });
            }
            let home = expand_home(s, input);
            e.user_global_display = display(&home, input);
            e.dsh_home = from(node, home);
        }
        v => {
            return Err(refuse(
                node,
                "dshHome",
                "dshHome",
                &format!("expected string but got {}", v.js_string()),
            ));
        }
    }
    Ok(())
}

/// `maxBytes`: required, any number, or an expression.
fn max_bytes_key(
    node: Option<Node>,
    map: &Node,
    e: &mut Effective,
    warnings: &mut Vec<Warning>,
) -> Result<(), Fail> {
    match node {
        None => {
            return Err(refuse(
                map,
                "maxBytes",
                "maxBytes",
                "missing required value",
            ));
        }
        Some(node) => match node.value {
            Value::Expr(_) => {
                e.max_bytes = expression(&node, e.max_bytes.clone(), "maxBytes", warnings);
            }
            Value::Number(n) => e.max_bytes = from(&node, n),
            ref v => {
                return Err(refuse(
                    &node,
                    "maxBytes",
                    "maxBytes",
                    &format!("expected number but got {}", v.js_string()),
                ));
            }
        },
    }
    Ok(())
}

/// `maxSourceBytes`: a number >= 1 and a multiple of 1 from 1, or an
/// expression.
fn max_source_bytes_key(
    node: &Node,
    e: &mut Effective,
    warnings: &mut Vec<Warning>,
) -> Result<(), Fail> {
    match node.value {
        Value::Expr(_) => {
            e.max_source_bytes =
                expression(node, e.max_source_bytes.clone(), "maxSourceBytes", warnings);
        }
        Value::Number(n) => {
            let show = crate::jsnum::to_string(n);
            if n < 1.0 {
                return Err(refuse(
                    node,
                    "maxSourceBytes",
                    "maxSourceBytes",
                    &format!("expected number >= 1 but got {show}"),
                ));
            }
            if (n - 1.0) % 1.0 != 0.0 {
                return Err(refuse(
                    node,
                    "maxSourceBytes",
                    "maxSourceBytes",
                    &format!("expected number multiple of 1 but got {show}"),
                ));
            }
            e.max_source_bytes = from(node, n);
        }
        ref v => {
            return Err(refuse(
                node,
                "maxSourceBytes",
                "maxSourceBytes",
                &format!("expected number but got {}", v.js_string()),
            ));
        }
    }
    Ok(())
}

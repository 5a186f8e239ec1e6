//! dsh's own configuration (SPEC section 11, `CONFIG.md`): which loader row a
//! dsh session mounts, with which settings, and whether dsh starts at all.
//! A leaf of the core: it reads files (bounded, never writing), takes the
//! environment as an [`Input`], and returns a [`DshConfig`]; it never prints.
//!
//! The algorithm, in the order the code reads:
//!
//! 1. The dsh home: `$DSH_HOME` unless empty or blank, else `~/.dsh`, with
//!    `~` expanded and resolved against the cwd (dsh:packages/util/home-paths).
//! 2. Bundles (11.2 step 1): `$DSH_HOME/profiles/<p>/package.json`'s
//!    `dsh.profile.bundles`, else the in-box list for `web` and `headless`
//!    (any other profile is refused: "profile <p> does not exist"). Each
//!    bundle's layer is its installed `dsh.bundle.patch` file, else for the
//!    in-box bundles what rc.8 ships ([`builtin`]); a third-party bundle that
//!    cannot be found is a warning and no layer.
//! 3. The profile layer `$DSH_HOME/profiles/<p>/cordis.patch.yml`, then the
//!    home layer `$DSH_HOME/cordis.patch.yml` (both optional), then each
//!    `--patch` file (required). `--no-dsh-config` keeps only the bundles.
//! 4. Each layer is read bounded ([`MAX_LAYER_BYTES`], regular files only,
//!    non-blocking open) and parsed as 11.3 ([`yaml`]); a file that cannot be
//!    read, is not YAML, has a duplicate key, is not a list, or holds an
//!    entry that is not a mapping makes dsh refuse to start: outcome
//!    [`Outcome::Refused`] with `file:line` and dsh's own wording.
//! 5. Every layer's entries are applied in order over an empty list, as
//!    dsh's `applyEntryPatches` does (11.4, [`patch`]): inserts, group
//!    inserts, whole-key replacement, name mismatch and missing rows warned.
//! 6. Web (11.5): the host loader row must be disabled; the preset decides
//!    (shipped ids first, then `$DSH_HOME/.agent-presets/<id>/agent.cordis.yml`
//!    unless the `agent-presets` row sets `includeUserRoot: false`).
//! 7. The enabled rows named `@deepseek-ai/dsh-agent-instructions` (a row is
//!    enabled when its `disabled` is falsy and no enclosing group's is):
//!    none → [`Outcome::NotMounted`]; several → a warning, the last is used;
//!    one → its `config` is validated as dsh's schemastery schema does
//!    (11.5, [`validate`]) → [`Outcome::Loaded`] with every setting's origin,
//!    or [`Outcome::Refused`] with dsh's message.
//!
//! Where CONFIG.md and the real dsh (rc.8, run through `realdsh`) differ,
//! this follows dsh: the refusal message ends in ` (at KEY)`; js-yaml 4.3
//! reads `0b101` as an int; an empty layer file is refused (not a list).

pub mod builtin;
pub mod patch;
pub mod report;
pub mod validate;
pub mod yaml;

mod layers;
mod presets;

use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::paths;

pub use validate::{Effective, RowSetting};
use yaml::{Node, Value};

use layers::{bundle_layers, home_is_a_dir, read_bounded, user_layers};
use presets::web_preset;

/// Bytes read of one layer, preset or `package.json`: 1 MiB (dsh's own
/// layers are a few KiB; a larger file is refused, never read whole).
pub const MAX_LAYER_BYTES: u64 = 1 << 20;

/// The environment and the chosen deployment, resolved by the caller.
#[derive(Debug, Clone, Default)]
pub struct Input {
    /// `$DSH_HOME` as set (blank counts as unset).
    pub dsh_home: Option<String>,
    /// The home directory.
    pub home: Option<PathBuf>,
    /// The session cwd (dsh resolves relative paths against its process cwd).
    pub cwd: PathBuf,
    /// The dsh profile (`web`, `headless`, or a custom one).
    pub profile: String,
    /// The web agent preset, when the caller knows it (flag or log).
    pub preset: Option<String>,
    /// Where `preset` came from, as explain says it (`flag`, `log FILE`).
    pub preset_from: String,
    /// `--patch` files, in order.
    pub patches: Vec<PathBuf>,
    /// `--no-dsh-config`: the shipped bundles only.
    pub no_dsh_config: bool,
}

/// Where a layer, a row key or a setting comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigOrigin {
    /// A file of the user's configuration (a layer or an installed bundle file).
    Config(PathBuf),
    /// An in-box bundle, built in.
    Bundle(String),
    /// A web preset file, or a shipped one built in (`preset:standard`).
    Preset(String),
    /// The schema default.
    Default,
}

impl fmt::Display for ConfigOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigOrigin::Config(path) => write!(f, "config:{}", path.display()),
            ConfigOrigin::Bundle(name) => write!(f, "bundle:{name}"),
            ConfigOrigin::Preset(name) => write!(f, "preset:{name}"),
            ConfigOrigin::Default => f.write_str("default"),
        }
    }
}

impl ConfigOrigin {
    /// The file as a refusal names it: a path, or the built-in's origin.
    #[must_use]
    pub fn file(&self) -> String {
        match self {
            ConfigOrigin::Config(path) => path.display().to_string(),
            other => other.to_string(),
        }
    }
}

/// What a layer is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayerKind {
    Bundle(String),
    Profile,
    Home,
    Patch,
    Preset(String),
}

/// Whether a layer was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayerStatus {
    /// Read from its file.
    Read,
    /// No such file (an optional layer, or a bundle not installed: skipped).
    Absent,
    /// Not installed; what rc.8 ships was used.
    BuiltIn,
    /// Ignored (`--no-dsh-config`).
    Ignored,
    /// It made dsh refuse to start (see the outcome).
    Error,
}

/// One layer (11.2) or the web preset file (11.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    pub kind: LayerKind,
    pub origin: ConfigOrigin,
    pub status: LayerStatus,
}

/// A warning about the configuration, naming the file (and line) it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

/// What a dsh session does with the loader (11.5).
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// One enabled loader row whose config validates.
    Loaded(Box<Effective>),
    /// No enabled loader row: a session receives no agent instructions.
    /// `file`/`line` name what decides (the `disabled` that turned it off,
    /// the preset without a row), `reason` says it in words.
    NotMounted {
        file: String,
        line: Option<usize>,
        reason: String,
    },
    /// dsh would refuse to start, with its own message.
    Refused {
        file: String,
        line: Option<usize>,
        message: String,
    },
}

/// dsh's configuration as agentctx reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct DshConfig {
    /// The dsh home the layers were read from (`$DSH_HOME` or `~/.dsh`).
    pub dsh_home: PathBuf,
    pub profile: String,
    /// The web preset and where its id came from (web only).
    pub preset: Option<(String, String)>,
    pub layers: Vec<Layer>,
    /// Layers that patch the loader row but do not apply to dsh web.
    pub not_for_web: Vec<ConfigOrigin>,
    pub warnings: Vec<Warning>,
    pub outcome: Outcome,
    /// The `session-persistence-jsonl` row's literal `config.root` (CONFIG
    /// 11.6), resolved, with the file and line that set it; `None` when the
    /// row keeps dsh's `!!js dshHomePath('sessions')` (the dsh home's
    /// `sessions`) or dsh would not start.
    pub sessions_root: Option<(PathBuf, ConfigOrigin, usize)>,
}

/// A profile name dsh accepts (dsh:packages/boot/app-boot/src/profile.ts:104-111).
///
/// # Errors
/// The one-line reason a name is bad usage.
pub fn check_profile_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a dsh profile name must not be empty".to_owned());
    }
    if name.contains(['/', '\\']) || matches!(name, "." | ".." | "node_modules") {
        return Err(format!("invalid dsh profile name {name:?}"));
    }
    Ok(())
}

/// The dsh home: `$DSH_HOME` unless blank, else `<home>/.dsh`, tilde
/// expanded, absolute against `cwd`.
#[must_use]
pub fn dsh_home(input: &Input) -> PathBuf {
    let selected = match input.dsh_home.as_deref() {
        Some(v) if !v.trim().is_empty() => v.to_owned(),
        _ => return default_dsh_home(input),
    };
    expand_home(&selected, input)
}

fn default_dsh_home(input: &Input) -> PathBuf {
    let home = input.home.clone().unwrap_or_else(|| PathBuf::from("/"));
    paths::normalize(&input.cwd, &home.join(".dsh"))
}

/// dsh's `resolve(expandHomePath(path))`: `~`, `~/x`, `~\x` against the
/// home, anything else against the cwd (`''` is the cwd).
#[must_use]
pub fn expand_home(path: &str, input: &Input) -> PathBuf {
    let home = input.home.clone().unwrap_or_else(|| PathBuf::from("/"));
    let expanded = if path == "~" {
        home
    } else if let Some(rest) = path.strip_prefix("~/").or_else(|| path.strip_prefix("~\\")) {
        home.join(rest)
    } else {
        PathBuf::from(path)
    };
    paths::normalize(&input.cwd, &expanded)
}

/// A refusal found while reading: which file, which line, dsh's message.
#[derive(Debug)]
struct Refusal {
    origin: ConfigOrigin,
    line: Option<usize>,
    message: String,
}

/// Reads dsh's configuration for `input` (the numbered steps above).
#[must_use]
pub fn read(input: &Input) -> DshConfig {
    let home = dsh_home(input);
    let mut config = DshConfig {
        dsh_home: home.clone(),
        profile: input.profile.clone(),
        preset: None,
        layers: Vec::new(),
        not_for_web: Vec::new(),
        warnings: Vec::new(),
        outcome: Outcome::NotMounted {
            file: String::new(),
            line: None,
            reason: String::new(),
        },
        sessions_root: None,
    };
    config.outcome = match compose(input, &home, &mut config) {
        Ok(outcome) => outcome,
        Err(r) => Outcome::Refused {
            file: r.origin.file(),
            line: r.line,
            message: r.message,
        },
    };
    config
}

fn compose(input: &Input, home: &Path, config: &mut DshConfig) -> Result<Outcome, Refusal> {
    let profile = input.profile.as_str();
    home_is_a_dir(home)?;
    let mut stack: Vec<Node> = Vec::new();
    bundle_layers(home, profile, config, &mut stack)?;
    let user_from = stack.len();
    user_layers(input, home, profile, config, &mut stack)?;
    // Step 5: apply.
    let mut warnings = Vec::new();
    let rows = patch::apply(&stack, &mut warnings);
    config.warnings.extend(warnings);
    config.sessions_root = sessions_root(&rows, input);
    let host = patch::loader_rows(&rows, &mut config.warnings);
    // Step 6: web.
    if profile == "web" {
        if host.iter().all(|r| !r.enabled) {
            for entry in &stack[user_from..] {
                if entry.value.get("id").map(|n| n.value)
                    == Some(Value::String("agent-instructions".to_owned()))
                    && !config.not_for_web.contains(&entry.origin)
                {
                    config.not_for_web.push((*entry.origin).clone());
                }
            }
            return web_preset(input, home, &rows, config);
        }
        config.warnings.push(Warning {
            file: host
                .iter()
                .rev()
                .find(|r| r.enabled)
                .map(|r| r.row.origin.file())
                .unwrap_or_default(),
            line: None,
            message: "the web host's agent-instructions row is enabled: a re-enabled web host row is not modelled; reading it as headless does".to_owned(),
        });
    }
    // Step 7.
    Ok(validate::outcome(
        &host,
        input,
        &mut config.warnings,
        profile == "web",
    ))
}

/// The persistence row's literal `config.root`, resolved as dsh resolves a
/// path (`~` against the home, else against the cwd).
fn sessions_root(rows: &[Node], input: &Input) -> Option<(PathBuf, ConfigOrigin, usize)> {
    let row = patch::find_row(rows, "session-persistence-jsonl")?;
    let root = row.value.get("config")?.value.get("root")?;
    match &root.value {
        Value::String(path) => Some((expand_home(path, input), (*root.origin).clone(), root.line)),
        _ => None,
    }
}

/// `$DSH_HOME/settings.yaml` `agent-presets.default`, a literal string.
fn settings_default(home: &Path) -> Option<String> {
    let text = read_bounded(&home.join("settings.yaml")).ok()??;
    let origin = Rc::new(ConfigOrigin::Config(home.join("settings.yaml")));
    let root = yaml::parse(&text, &origin).ok()??;
    match root.value.get("agent-presets")?.value.get("default")?.value {
        Value::String(id) => Some(id),
        _ => None,
    }
}

#[cfg(test)]
mod tests;

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
//!    [`Outcome::Refused`] with file:line and dsh's own wording.
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

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::bounded;
use crate::paths;

pub use validate::{Effective, Setting};
use yaml::{Node, Value};

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
pub enum Origin {
    /// A file of the user's configuration (a layer or an installed bundle file).
    Config(PathBuf),
    /// An in-box bundle, built in.
    Bundle(String),
    /// A web preset file, or a shipped one built in (`preset:standard`).
    Preset(String),
    /// The schema default.
    Default,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Config(path) => write!(f, "config:{}", path.display()),
            Origin::Bundle(name) => write!(f, "bundle:{name}"),
            Origin::Preset(name) => write!(f, "preset:{name}"),
            Origin::Default => f.write_str("default"),
        }
    }
}

impl Origin {
    /// The file as a refusal names it: a path, or the built-in's origin.
    #[must_use]
    pub fn file(&self) -> String {
        match self {
            Origin::Config(path) => path.display().to_string(),
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
    pub origin: Origin,
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
    pub not_for_web: Vec<Origin>,
    pub warnings: Vec<Warning>,
    pub outcome: Outcome,
    /// The `session-persistence-jsonl` row's literal `config.root` (CONFIG
    /// 11.6), resolved, with the file and line that set it; `None` when the
    /// row keeps dsh's `!!js dshHomePath('sessions')` (the dsh home's
    /// `sessions`) or dsh would not start.
    pub sessions_root: Option<(PathBuf, Origin, usize)>,
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
    origin: Origin,
    line: Option<usize>,
    message: String,
}

/// Reads a file bounded; `Ok(None)` when it does not exist.
fn read_bounded(path: &Path) -> io::Result<Option<String>> {
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
fn parse_layer(text: &str, origin: &Rc<Origin>, label: &str) -> Result<Vec<Node>, Refusal> {
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
    let origin = Origin::Config(path.to_path_buf());
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
    let origin = Origin::Config(pkg.clone());
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
    // dsh creates `$DSH_HOME/profiles/node_modules` before anything else and
    // dies when the home is a file (realdsh case r22-enotdir-dsh-home).
    let not_a_dir = match std::fs::metadata(home) {
        Ok(meta) => !meta.is_dir(),
        Err(e) => e.raw_os_error() == Some(libc::ENOTDIR),
    };
    if not_a_dir {
        return Err(Refusal {
            origin: Origin::Config(home.to_path_buf()),
            line: None,
            message: format!(
                "Error: ENOTDIR: not a directory, mkdir '{}'",
                home.join("profiles").join("node_modules").display()
            ),
        });
    }
    let mut stack: Vec<Node> = Vec::new();
    let mut user_from = 0;
    // Step 2: bundles.
    for name in bundles(home, profile)? {
        if let Some(path) = installed_bundle(home, profile, &name) {
            read_layer(
                &path,
                LayerKind::Bundle(name),
                "overlay",
                true,
                &mut config.layers,
                &mut stack,
            )?;
        } else if let Some(entries) = builtin::bundle_entries(&name) {
            stack.extend(entries);
            config.layers.push(Layer {
                origin: Origin::Bundle(name.clone()),
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
                origin: Origin::Bundle(name),
                status: LayerStatus::Absent,
            });
        }
        user_from = stack.len();
    }
    // Step 3: the user's layers.
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
                origin: Origin::Config(path),
                status: LayerStatus::Ignored,
            });
        }
        for path in &input.patches {
            config.layers.push(Layer {
                kind: LayerKind::Patch,
                origin: Origin::Config(path.clone()),
                status: LayerStatus::Ignored,
            });
        }
    } else {
        for (path, kind) in user_layers {
            read_layer(
                &path,
                kind,
                "patches",
                false,
                &mut config.layers,
                &mut stack,
            )?;
        }
        for path in &input.patches {
            let path = paths::normalize(&input.cwd, path);
            read_layer(
                &path,
                LayerKind::Patch,
                "overlay",
                true,
                &mut config.layers,
                &mut stack,
            )?;
        }
    }
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

/// The web preset (11.5): shipped first, then the user root.
fn web_preset(
    input: &Input,
    home: &Path,
    rows: &[Node],
    config: &mut DshConfig,
) -> Result<Outcome, Refusal> {
    let presets_row = patch::find_row(rows, "agent-presets");
    let row_config = presets_row.as_ref().and_then(|r| r.value.get("config"));
    let (id, from) = match &input.preset {
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
    };
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
            Origin::Preset(id.clone()),
            &entries,
            LayerStatus::BuiltIn,
            input,
            config,
        ));
    }
    let (origin, text, kind) = {
        let path = home
            .join(".agent-presets")
            .join(&id)
            .join("agent.cordis.yml");
        let origin = Origin::Preset(path.display().to_string());
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
    Ok(mount_preset(&id, origin, &entries, kind, input, config))
}

/// A preset's entry list, mounted as is (no patches): its loader row decides.
fn mount_preset(
    id: &str,
    origin: Origin,
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

/// The persistence row's literal `config.root`, resolved as dsh resolves a
/// path (`~` against the home, else against the cwd).
fn sessions_root(rows: &[Node], input: &Input) -> Option<(PathBuf, Origin, usize)> {
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
    let origin = Rc::new(Origin::Config(home.join("settings.yaml")));
    let root = yaml::parse(&text, &origin).ok()??;
    match root.value.get("agent-presets")?.value.get("default")?.value {
        Value::String(id) => Some(id),
        _ => None,
    }
}

#[cfg(test)]
mod tests;

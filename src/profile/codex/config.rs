//! Codex's settings (SPEC 10.3, rule 0): flags, then the trusted project
//! layers (`.codex/config.toml`, nearest first), then the user config,
//! then the defaults; and the project root and chain they decide.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::{Abort, Config, DEFAULT_MAX_BYTES, Input, Trust, find_root, is_filename};
use crate::profile::{HarnessSetting, Kind, ProfileSettings, ValueOrigin};

/// The user config: its table (None: no file) and its path as shown.
struct UserConfig {
    table: Option<toml::Table>,
    shown: String,
}

impl UserConfig {
    /// Reads `<codex home>/config.toml`. Codex refuses a config whose
    /// `trust_level` is neither `trusted` nor `untrusted`, so agentctx does
    /// too (realagents case `cx-trust-other-value`).
    fn read(home: &Path) -> Result<Self> {
        let path = home.join("config.toml");
        let config = UserConfig {
            table: read_config(&path)?,
            shown: crate::profile::show(&path),
        };
        let projects = config.get("projects").and_then(toml::Value::as_table);
        for (key, entry) in projects.into_iter().flatten() {
            match entry.get("trust_level") {
                None => {}
                Some(toml::Value::String(level)) if level == "trusted" || level == "untrusted" => {}
                Some(other) => bail!(
                    "{}: projects.{key:?}.trust_level must be \"trusted\" or \"untrusted\", got {other}",
                    config.shown
                ),
            }
        }
        Ok(config)
    }

    fn get(&self, key: &str) -> Option<&toml::Value> {
        self.table.as_ref().and_then(|t| t.get(key))
    }

    /// The trust entry for `dir`, its key compared as a string.
    fn trust(&self, dir: &Path) -> Option<Trust> {
        let entry = self.get("projects")?.get(crate::profile::show(dir))?;
        match entry.get("trust_level")?.as_str()? {
            "trusted" => Some(Trust::Trusted),
            _ => Some(Trust::Untrusted),
        }
    }
}

/// The project root and the chain of rule 4, or the error of rule 3.
pub(super) struct Chain {
    pub(super) root: Result<Option<PathBuf>, Abort>,
    /// Root first; empty when finding the root failed.
    pub(super) dirs: Vec<PathBuf>,
}

impl Chain {
    fn find(cwd: &Path, markers: &[String]) -> Self {
        let root = find_root(cwd, markers);
        let dirs = match &root {
            Ok(Some(root)) => crate::discovery::chain(root, cwd),
            Ok(None) => vec![cwd.to_path_buf()],
            Err(_) => Vec::new(),
        };
        Chain { root, dirs }
    }
}

/// Rule 0: trust(D) is D's entry, else the project root's, else the
/// repository root's (the nearest ancestor-or-self of the cwd holding `.git`).
struct TrustOf<'a> {
    user: &'a UserConfig,
    pub(super) root: Option<Trust>,
    repo: Option<Trust>,
}

impl<'a> TrustOf<'a> {
    fn new(user: &'a UserConfig, cwd: &Path, chain: &Chain) -> Self {
        let root = match &chain.root {
            Ok(Some(root)) => user.trust(root),
            _ => None,
        };
        // Without a [projects] table nothing is trusted: no walk for `.git`.
        let repo = user
            .get("projects")
            .and_then(|_| {
                cwd.ancestors()
                    .find(|d| crate::bounded::symlink_metadata(d.join(".git")).is_ok())
            })
            .and_then(|d| user.trust(d));
        TrustOf { user, root, repo }
    }

    fn of(&self, dir: &Path) -> Option<Trust> {
        self.user.trust(dir).or(self.root).or(self.repo)
    }
}

/// A project layer that was read: its path as shown and its table.
struct Layer {
    shown: String,
    table: toml::Table,
}

/// Rule 0's project layers: `D/.codex/config.toml` of each trusted chain
/// directory, root first; the others present are warned about.
fn layers(chain: &Chain, trust: &TrustOf<'_>, warnings: &mut Vec<String>) -> Result<Vec<Layer>> {
    let mut out = Vec::new();
    for dir in &chain.dirs {
        let path = dir.join(".codex/config.toml");
        if !matches!(crate::profile::stat(&path), Ok(Kind::File(_))) {
            continue;
        }
        let shown = crate::profile::show(&path);
        if trust.of(dir) != Some(Trust::Trusted) {
            warnings.push(format!(
                "{shown}: not read: codex reads a project's .codex/config.toml only when the project is trusted"
            ));
            continue;
        }
        if let Some(table) = read_config(&path)? {
            out.push(Layer { shown, table });
        }
    }
    Ok(out)
}

/// A key's value and origin: the nearest layer defining it, else the user
/// config; None when neither does.
fn layered<'a>(
    key: &str,
    layers: &'a [Layer],
    user: &'a UserConfig,
) -> Option<(&'a toml::Value, String)> {
    layers
        .iter()
        .rev()
        .find_map(|l| l.table.get(key).map(|v| (v, l.shown.clone())))
        .or_else(|| user.get(key).map(|v| (v, user.shown.clone())))
}

/// Everything resolved before any project doc is read.
pub(super) struct Resolved {
    pub(super) config: Config,
    pub(super) settings: ProfileSettings,
    pub(super) warnings: Vec<String>,
    pub(super) chain: Chain,
    /// trust(cwd).
    pub(super) trust: Option<Trust>,
}

/// Resolves the settings: flags, then the trusted project layers (nearest
/// first), then `<codex home>/config.toml`, then the defaults.
pub(super) fn resolve_all(input: &Input) -> Result<Resolved> {
    let user = UserConfig::read(&input.home)?;
    let mut warnings = Vec::new();
    let mut settings = ProfileSettings::default();
    settings.push(
        "codex_home",
        HarnessSetting::new(crate::profile::show(&input.home), input.home_origin.clone()),
    );

    let (markers, markers_origin) = markers_of(input, &user, &mut warnings);
    let chain = Chain::find(&input.cwd, &markers);
    let trust_of = TrustOf::new(&user, &input.cwd, &chain);
    let layers = layers(&chain, &trust_of, &mut warnings)?;

    let (max_bytes, origin) = max_bytes_of(input, &layers, &user)?;
    settings.push(
        super::BUDGET_SETTING,
        HarnessSetting::new(max_bytes, origin),
    );

    let (fallbacks, origin) = fallbacks_of(input, &layers, &user)?;
    settings.push(
        "project_doc_fallback_filenames",
        HarnessSetting::new(fallbacks.clone(), origin),
    );
    for name in fallbacks
        .iter()
        .filter(|n| !is_filename(n) && !n.is_empty())
    {
        warnings.push(format!(
            "project_doc_fallback_filenames entry {name:?} is not a filename; codex ignores it"
        ));
    }
    settings.push(
        "project_root_markers",
        HarnessSetting::new(markers.clone(), markers_origin),
    );

    let trust = trust_of.of(&input.cwd);
    let trust_origin = if trust.is_some() {
        ValueOrigin::Config(user.shown.clone())
    } else {
        ValueOrigin::Default
    };
    settings.push(
        "trust",
        HarnessSetting::new(
            trust.map_or(serde_json::Value::Null, |t| t.name().into()),
            trust_origin,
        ),
    );
    if trust == Some(Trust::Untrusted) {
        warnings.push(format!(
            "{}: trust_level is \"untrusted\" in {}; codex loads no project docs",
            crate::profile::show(&input.cwd),
            user.shown
        ));
    }
    let config = Config {
        max_bytes,
        fallbacks,
        markers,
    };
    Ok(Resolved {
        config,
        settings,
        warnings,
        chain,
        trust,
    })
}

/// Resolves the settings for `input.cwd`: flags, then the trusted project
/// layers, then `<codex home>/config.toml`, then the defaults. Returns the
/// config, the settings with origins and warnings.
///
/// # Errors
///
/// `config.toml` or a trusted project layer exists but cannot be read, is
/// not UTF-8 TOML, or mistypes a key.
pub fn resolve(input: &Input) -> Result<(Config, ProfileSettings, Vec<String>)> {
    let r = resolve_all(input)?;
    Ok((r.config, r.settings, r.warnings))
}

/// `<codex home>/config.toml` as a table; None when it does not exist.
fn read_config(path: &Path) -> Result<Option<toml::Table>> {
    let bytes = match crate::bounded::read_config(path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let shown = path.display();
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| anyhow::anyhow!("{shown}: invalid UTF-8 at byte {}", e.valid_up_to()))?;
    text.parse::<toml::Table>().map(Some).map_err(|e| {
        let (line, col) = e.span().map_or((1, 1), |s| line_col(text, s.start));
        anyhow::anyhow!("{shown}:{line}:{col}: invalid TOML: {}", e.message())
    })
}

/// 1-based line and column (in characters) of a byte offset.
pub(super) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

pub(super) fn strings(v: &toml::Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|x| x.as_str().map(str::to_owned))
        .collect()
}

/// `project_root_markers`: the flag, else the user config, else `.git`.
fn markers_of(
    input: &Input,
    user: &UserConfig,
    warnings: &mut Vec<String>,
) -> (Vec<String>, ValueOrigin) {
    let default_markers = vec![".git".to_owned()];
    match (&input.flags.markers, user.get("project_root_markers")) {
        (Some(list), _) => (list.clone(), ValueOrigin::Flag),
        (None, Some(v)) => {
            if let Some(list) = strings(v) {
                (list, ValueOrigin::Config(user.shown.clone()))
            } else {
                warnings.push(format!(
                    "{}: project_root_markers must be a list of strings, got {v}; using the default [\".git\"]",
                    user.shown
                ));
                (default_markers, ValueOrigin::Default)
            }
        }
        (None, None) => (default_markers, ValueOrigin::Default),
    }
}

/// `project_doc_max_bytes`: the flag, else the nearest layer, else the default.
fn max_bytes_of(input: &Input, layers: &[Layer], user: &UserConfig) -> Result<(u64, ValueOrigin)> {
    Ok(
        match (
            input.flags.max_bytes,
            layered(super::BUDGET_SETTING, layers, user),
        ) {
            (Some(n), _) => (n, ValueOrigin::Flag),
            (None, Some((v, shown))) => match v.as_integer().and_then(|n| u64::try_from(n).ok()) {
                Some(n) => (n, ValueOrigin::Config(shown)),
                None => {
                    bail!("{shown}: project_doc_max_bytes must be a non-negative integer, got {v}")
                }
            },
            (None, None) => (DEFAULT_MAX_BYTES, ValueOrigin::Default),
        },
    )
}

/// `project_doc_fallback_filenames`: the flag, else the nearest layer, else none.
fn fallbacks_of(
    input: &Input,
    layers: &[Layer],
    user: &UserConfig,
) -> Result<(Vec<String>, ValueOrigin)> {
    Ok(
        match (
            &input.flags.fallbacks,
            layered("project_doc_fallback_filenames", layers, user),
        ) {
            (Some(list), _) => (list.clone(), ValueOrigin::Flag),
            (None, Some((v, shown))) => match strings(v) {
                Some(list) => (list, ValueOrigin::Config(shown)),
                None => {
                    bail!(
                        "{shown}: project_doc_fallback_filenames must be a list of strings, got {v}"
                    )
                }
            },
            (None, None) => (Vec::new(), ValueOrigin::Default),
        },
    )
}

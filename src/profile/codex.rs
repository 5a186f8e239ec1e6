//! Codex (SPEC 10.3): the global AGENTS.md of the codex home, the
//! root-marker walk, one file per directory and the root-first byte budget.

use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::{
    FileEntry, Kind, Note, NoteKind, Origin, Part, Profile, ProfileSettings, Report, Setting,
    Status, Why,
};

pub const DEFAULT_MAX_BYTES: u64 = 32_768;
pub const OVERRIDE: &str = "AGENTS.override.md";
pub const AGENTS: &str = "AGENTS.md";
const SEPARATOR: &str = "\n\n--- project-doc ---\n\n";

/// The codex flags, as given (None: not given).
#[derive(Debug, Clone, Default)]
pub struct Flags {
    pub max_bytes: Option<u64>,
    pub fallbacks: Option<Vec<String>>,
    pub markers: Option<Vec<String>>,
}

/// Everything the codex profile needs, resolved by the caller.
#[derive(Debug, Clone)]
pub struct Input {
    /// Absolute, lexically normalised.
    pub cwd: PathBuf,
    /// The codex home and where it came from (flag, `env:CODEX_HOME`, default).
    pub home: PathBuf,
    pub home_origin: Origin,
    pub flags: Flags,
}

/// The resolved codex settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub max_bytes: u64,
    pub fallbacks: Vec<String>,
    pub markers: Vec<String>,
}

/// A `[projects."<path>"] trust_level` codex honours (rule 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    Trusted,
    Untrusted,
}

impl Trust {
    fn name(self) -> &'static str {
        match self {
            Trust::Trusted => "trusted",
            Trust::Untrusted => "untrusted",
        }
    }
}

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
            shown: super::show(&path),
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
        let entry = self.get("projects")?.get(super::show(dir))?;
        match entry.get("trust_level")?.as_str()? {
            "trusted" => Some(Trust::Trusted),
            _ => Some(Trust::Untrusted),
        }
    }
}

/// The project root and the chain of rule 4, or the error of rule 3.
struct Chain {
    root: Result<Option<PathBuf>, Abort>,
    /// Root first; empty when finding the root failed.
    dirs: Vec<PathBuf>,
}

impl Chain {
    fn find(cwd: &Path, markers: &[String]) -> Self {
        let root = find_root(cwd, markers);
        let dirs = match &root {
            Ok(Some(root)) => {
                let mut dirs: Vec<PathBuf> = cwd
                    .ancestors()
                    .take_while(|d| d.starts_with(root))
                    .map(Path::to_path_buf)
                    .collect();
                dirs.reverse();
                dirs
            }
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
    root: Option<Trust>,
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
        if !matches!(super::stat(&path), Ok(Kind::File(_))) {
            continue;
        }
        let shown = super::show(&path);
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
struct Resolved {
    config: Config,
    settings: ProfileSettings,
    warnings: Vec<String>,
    chain: Chain,
    /// trust(cwd).
    trust: Option<Trust>,
}

/// Resolves the settings: flags, then the trusted project layers (nearest
/// first), then `<codex home>/config.toml`, then the defaults.
fn resolve_all(input: &Input) -> Result<Resolved> {
    let user = UserConfig::read(&input.home)?;
    let mut warnings = Vec::new();
    let mut settings = ProfileSettings::default();
    settings.push(
        "codex_home",
        Setting::new(super::show(&input.home), input.home_origin.clone()),
    );

    let default_markers = vec![".git".to_owned()];
    let (markers, markers_origin) = match (&input.flags.markers, user.get("project_root_markers")) {
        (Some(list), _) => (list.clone(), Origin::Flag),
        (None, Some(v)) => {
            if let Some(list) = strings(v) {
                (list, Origin::Config(user.shown.clone()))
            } else {
                warnings.push(format!(
                    "{}: project_root_markers must be a list of strings, got {v}; using the default [\".git\"]",
                    user.shown
                ));
                (default_markers, Origin::Default)
            }
        }
        (None, None) => (default_markers, Origin::Default),
    };
    let chain = Chain::find(&input.cwd, &markers);
    let trust_of = TrustOf::new(&user, &input.cwd, &chain);
    let layers = layers(&chain, &trust_of, &mut warnings)?;

    let (max_bytes, origin) = match (
        input.flags.max_bytes,
        layered("project_doc_max_bytes", &layers, &user),
    ) {
        (Some(n), _) => (n, Origin::Flag),
        (None, Some((v, shown))) => match v.as_integer().and_then(|n| u64::try_from(n).ok()) {
            Some(n) => (n, Origin::Config(shown)),
            None => bail!("{shown}: project_doc_max_bytes must be a non-negative integer, got {v}"),
        },
        (None, None) => (DEFAULT_MAX_BYTES, Origin::Default),
    };
    settings.push("project_doc_max_bytes", Setting::new(max_bytes, origin));

    let (fallbacks, origin) = match (
        &input.flags.fallbacks,
        layered("project_doc_fallback_filenames", &layers, &user),
    ) {
        (Some(list), _) => (list.clone(), Origin::Flag),
        (None, Some((v, shown))) => match strings(v) {
            Some(list) => (list, Origin::Config(shown)),
            None => {
                bail!("{shown}: project_doc_fallback_filenames must be a list of strings, got {v}")
            }
        },
        (None, None) => (Vec::new(), Origin::Default),
    };
    settings.push(
        "project_doc_fallback_filenames",
        Setting::new(fallbacks.clone(), origin),
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
        Setting::new(markers.clone(), markers_origin),
    );

    let trust = trust_of.of(&input.cwd);
    let trust_origin = if trust.is_some() {
        Origin::Config(user.shown.clone())
    } else {
        Origin::Default
    };
    settings.push(
        "trust",
        Setting::new(
            trust.map_or(serde_json::Value::Null, |t| t.name().into()),
            trust_origin,
        ),
    );
    if trust == Some(Trust::Untrusted) {
        warnings.push(format!(
            "{}: trust_level is \"untrusted\" in {}; codex loads no project docs",
            super::show(&input.cwd),
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
    let bytes = match super::bounded::read_config(path) {
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
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn strings(v: &toml::Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|x| x.as_str().map(str::to_owned))
        .collect()
}

/// The candidate names in effect (for check's walk).
///
/// # Errors
///
/// As [`resolve`].
pub fn candidate_names(input: &Input) -> Result<Vec<String>> {
    Ok(names(&resolve(input)?.0.fallbacks))
}

/// What codex loads for `input.cwd`.
///
/// # Errors
///
/// As [`resolve`]; what codex cannot read later becomes an entry.
pub fn load(input: &Input) -> Result<Report> {
    let r = resolve_all(input)?;
    let mut report = Report::new(Profile::Codex, r.settings);
    report.warnings = r.warnings;
    let global = global(&input.home, &mut report);
    let project = if r.config.max_bytes == 0 || r.trust == Some(Trust::Untrusted) {
        Vec::new()
    } else {
        project(r.chain, &r.config, &mut report)
    };
    let mut text = global.unwrap_or_default();
    if !project.is_empty() {
        if !text.is_empty() {
            text.push_str(SEPARATOR);
        }
        text.push_str(&project.join("\n\n"));
    }
    if !text.is_empty() {
        // Rule 9: the cwd is named only when a project doc gives text.
        let head = if project.is_empty() {
            "# AGENTS.md instructions".to_owned()
        } else {
            format!("# AGENTS.md instructions for {}", super::show(&input.cwd))
        };
        report.parts.push(Part {
            kind: "user-instructions".to_owned(),
            text: format!("{head}\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>"),
        });
    }
    Ok(report)
}

/// Rule 1: the first non-empty global file's trimmed text.
fn global(home: &Path, report: &mut Report) -> Option<String> {
    for name in [OVERRIDE, AGENTS] {
        let path = home.join(name);
        let shown = super::show(&path);
        let size = match super::stat(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Ok(Kind::Dir) => continue,
            Ok(Kind::Other) => {
                report.warnings.push(format!(
                    "{shown}: not a regular file; codex would block reading it"
                ));
                report.files.push(
                    FileEntry::new(shown, None, Status::Unreadable)
                        .why(Why::Error("not a regular file".to_owned())),
                );
                continue;
            }
            Err(e) => {
                unreadable(report, shown, None, &e);
                continue;
            }
            Ok(Kind::File(n)) => n,
        };
        let bytes = match super::read_file(&path, None) {
            Ok(bytes) => bytes,
            Err(e) => {
                unreadable(report, shown, Some(size), &e);
                continue;
            }
        };
        let decoded = String::from_utf8_lossy(&bytes);
        let invalid = matches!(decoded, std::borrow::Cow::Owned(_));
        let text = decoded.trim();
        if text.is_empty() {
            report
                .files
                .push(FileEntry::new(shown, Some(size), Status::Empty));
            continue;
        }
        let why = if invalid { Why::InvalidUtf8 } else { Why::None };
        report
            .files
            .push(FileEntry::new(shown, Some(size), Status::Loaded).why(why));
        return Some(text.to_owned());
    }
    None
}

fn unreadable(report: &mut Report, shown: String, size: Option<u64>, e: &io::Error) {
    report.warnings.push(format!(
        "{shown}: cannot read: {}",
        crate::discovery::os_error(e)
    ));
    report.files.push(
        FileEntry::new(shown, size, Status::Unreadable)
            .why(Why::Error(crate::discovery::os_error(e))),
    );
}

/// Whether a fallback name names a file in the directory itself (rule 5):
/// not empty, no `/`, not `.` or `..`.
fn is_filename(name: &str) -> bool {
    !name.is_empty() && !name.contains('/') && name != "." && name != ".."
}

/// The candidate names of every directory (rule 5).
#[must_use]
pub fn names(fallbacks: &[String]) -> Vec<String> {
    let fallbacks = fallbacks.iter().filter(|n| is_filename(n)).cloned();
    let fixed = [OVERRIDE, AGENTS].map(str::to_owned);
    super::first_occurrences(fixed.into_iter().chain(fallbacks))
}

/// Why project discovery stopped (rule 7).
#[derive(Debug)]
struct Abort {
    path: PathBuf,
    err: io::Error,
    /// The directories' winners found before the error.
    found: Vec<Found>,
}

/// One directory's winner and the regular files it shadows.
#[derive(Debug)]
struct Found {
    path: PathBuf,
    size: u64,
    shadowed: Vec<(PathBuf, u64)>,
}

/// Rule 3: the nearest directory holding a marker, or None.
fn find_root(cwd: &Path, markers: &[String]) -> Result<Option<PathBuf>, Abort> {
    if markers.is_empty() {
        return Ok(None);
    }
    for dir in cwd.ancestors() {
        for marker in markers {
            let path = dir.join(marker);
            match super::metadata(&path) {
                Ok(_) => return Ok(Some(dir.to_path_buf())),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(err) => {
                    return Err(Abort {
                        path,
                        err,
                        found: Vec::new(),
                    });
                }
            }
        }
    }
    Ok(None)
}

/// Rules 4-5: the winner of every chain directory, broadest first.
fn discover(
    chain: &[PathBuf],
    config: &Config,
    skipped: &mut Vec<PathBuf>,
) -> Result<Vec<Found>, Abort> {
    let names = names(&config.fallbacks);
    let mut found = Vec::new();
    for dir in chain {
        let mut winner: Option<Found> = None;
        for name in &names {
            let path = dir.join(name);
            let kind = super::stat(&path);
            if let Some(w) = winner.as_mut() {
                if let Ok(Kind::File(n)) = kind {
                    w.shadowed.push((path, n));
                }
                continue;
            }
            match kind {
                Ok(Kind::File(size)) => {
                    winner = Some(Found {
                        path,
                        size,
                        shadowed: Vec::new(),
                    });
                }
                Ok(_) => skipped.push(path),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    if super::symlink_metadata(&path).is_ok() {
                        skipped.push(path);
                    }
                }
                Err(err) => return Err(Abort { path, err, found }),
            }
        }
        found.extend(winner);
    }
    Ok(found)
}

/// Rules 2-7: the project docs' texts, with every file listed.
fn project(chain: Chain, config: &Config, report: &mut Report) -> Vec<String> {
    let mut skipped = Vec::new();
    let found = match chain.root {
        Ok(_) => discover(&chain.dirs, config, &mut skipped),
        Err(abort) => Err(abort),
    };
    report.notes.extend(skipped.iter().map(|p| Note {
        path: super::show(p),
        kind: NoteKind::NonRegular,
    }));
    let found = match found {
        Ok(found) => found,
        Err(abort) => {
            aborted(report, &abort, &abort.found);
            return Vec::new();
        }
    };
    let mut remaining = config.max_bytes;
    let mut texts = Vec::new();
    let mut entries = Vec::new();
    for f in &found {
        let shown = super::show(&f.path);
        if remaining == 0 {
            entries.push(
                FileEntry::new(shown, Some(f.size), Status::OverBudget)
                    .why(Why::Budget(config.max_bytes)),
            );
        } else {
            let bytes = match super::read_file(&f.path, Some(remaining)) {
                Ok(bytes) => bytes,
                Err(err) => {
                    let abort = Abort {
                        path: f.path.clone(),
                        err,
                        found: Vec::new(),
                    };
                    aborted(report, &abort, &found);
                    return Vec::new();
                }
            };
            let cut = f.size > remaining;
            let decoded = String::from_utf8_lossy(&bytes);
            let invalid = matches!(decoded, std::borrow::Cow::Owned(_));
            let kept = bytes.len() as u64;
            if decoded.trim().is_empty() {
                entries.push(FileEntry::new(shown, Some(f.size), Status::Empty));
            } else {
                let mut entry = if cut {
                    let mut e = FileEntry::new(shown, Some(f.size), Status::Truncated)
                        .why(Why::Budget(config.max_bytes));
                    e.truncated = Some(kept);
                    e
                } else {
                    let why = if invalid { Why::InvalidUtf8 } else { Why::None };
                    FileEntry::new(shown, Some(f.size), Status::Loaded).why(why)
                };
                if invalid && cut {
                    entry.why = Why::Budget(config.max_bytes);
                }
                entries.push(entry);
                texts.push(decoded.into_owned());
                remaining -= kept;
            }
        }
        let empty_override = f.path.ends_with(OVERRIDE)
            && entries
                .last()
                .is_some_and(|e: &FileEntry| e.status == Status::Empty);
        for (path, size) in &f.shadowed {
            if empty_override && path.ends_with(AGENTS) {
                report.notes.push(Note {
                    path: super::show(path),
                    kind: NoteKind::HiddenByEmptyOverride {
                        by: super::show(&f.path),
                    },
                });
            }
            entries.push(
                FileEntry::new(super::show(path), Some(*size), Status::Shadowed)
                    .why(Why::By(super::show(&f.path))),
            );
        }
    }
    report.files.extend(entries);
    texts
}

/// Rule 7: every project entry found so far is dropped.
fn aborted(report: &mut Report, abort: &Abort, found: &[Found]) {
    let why = crate::discovery::os_error(&abort.err);
    report.warnings.push(format!(
        "{}: {why}; codex drops every project doc",
        super::show(&abort.path)
    ));
    for f in found {
        report.files.push(
            FileEntry::new(super::show(&f.path), Some(f.size), Status::Aborted)
                .why(Why::Error(why.clone())),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_skip_empty_and_repeated_fallbacks() {
        let got = names(&[
            String::new(),
            "AGENTS.md".into(),
            "README.md".into(),
            "README.md".into(),
        ]);
        assert_eq!(got, ["AGENTS.override.md", "AGENTS.md", "README.md"]);
    }

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("a\nbé=", 5), (2, 3));
        assert_eq!(line_col("é", 1), (1, 1));
        assert_eq!(line_col("x", 0), (1, 1));
    }

    #[test]
    fn rust_trim_keeps_feff_and_drops_nel() {
        assert_eq!("\u{85}a\u{85}".trim(), "a");
        assert_eq!("\u{feff}a".trim(), "\u{feff}a");
    }
}

//! The resolved configuration (SPEC 1, 9): flags, environment, the log's
//! recorded identity and defaults folded once into plain values, each with
//! where it came from. The core reads only this, never env vars or clap.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use anyhow::{Result, bail};

use crate::dshconfig;
use crate::env::Env;
use crate::jsnum::MaxBytes;
use crate::paths;
use crate::text::js_trim;

pub const DEFAULT_MAX_BYTES: MaxBytes = MaxBytes(65_536.0);
pub const DEFAULT_MAX_SOURCE_BYTES: i64 = 1_048_576;
pub const DEFAULT_CANDIDATES: [&str; 2] = ["AGENTS.md", "CLAUDE.md"];
pub const DEFAULT_LOCAL_CANDIDATES: [&str; 2] = ["AGENTS.local.md", "CLAUDE.local.md"];
pub const DEFAULT_ROOT_MARKERS: [&str; 1] = [".git"];
pub const USER_GLOBAL_FILE: &str = "AGENTS.md";

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Flag,
    Env,
    Log,
    Default,
    /// dsh's configuration (CONFIG 11.6): `config:PATH`, `bundle:NAME` or
    /// `preset:PATH`, as [`crate::dshconfig::ConfigOrigin`] prints it.
    Config(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Flag => "flag",
            Origin::Env => "env",
            Origin::Log => "log",
            Origin::Default => "default",
            Origin::Config(from) => from,
        })
    }
}

impl Serialize for Origin {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Origin {
    /// A configuration origin as settings name it: a file of the user's
    /// (`config:PATH`, `preset:PATH`); what dsh ships (the schema default,
    /// an in-box bundle, a shipped preset) is `default`.
    #[must_use]
    pub fn of_config(origin: &dshconfig::ConfigOrigin) -> Self {
        match origin {
            dshconfig::ConfigOrigin::Default | dshconfig::ConfigOrigin::Bundle(_) => {
                Origin::Default
            }
            dshconfig::ConfigOrigin::Preset(id) if dshconfig::builtin::preset(id).is_some() => {
                Origin::Default
            }
            other => Origin::Config(other.to_string()),
        }
    }
}

/// The four facts of a session log that settings read (SPEC 1): the log's
/// name for messages, its header cwd, the identity of its latest baseline,
/// and the scope key of its last change (for the precedence it was written
/// under). `crate::log::Log` gives them.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogFacts<'a> {
    pub name: &'a str,
    pub header_cwd: Option<&'a str>,
    pub latest_identity: Option<&'a str>,
    pub last_change_scope: Option<&'a str>,
}

/// Where settings not given as flags come from (CONFIG 11.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SettingsFrom {
    /// dsh's configuration as it is now (`--session`, no log).
    Config,
    /// The log's recorded identity (`--log FILE`).
    Log,
}

/// A value and its origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setting<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Setting<T> {
    pub fn new(value: T, origin: Origin) -> Self {
        Setting { value, origin }
    }
}

/// How candidates of one directory and tier compete (SPEC 3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Precedence {
    /// Design note 000 and dsh before 2026-07-22: the first present candidate of each directory and tier wins.
    First,
    /// dsh since 2026-07-22 (the default): every present candidate loads; same-content siblings collapse.
    All,
}

impl Precedence {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Precedence::First => "first",
            Precedence::All => "all",
        }
    }

    /// The harness generation this value stands for (SPEC 1).
    #[must_use]
    pub fn generation(self) -> &'static str {
        match self {
            Precedence::First => "dsh before 2026-07-22",
            Precedence::All => "dsh since 2026-07-22",
        }
    }
}

/// The harness generation a source kind stands for (SPEC 1, 9), if known.
#[must_use]
pub fn kind_generation(kind: &str) -> Option<&'static str> {
    match kind {
        "agent-instructions" => Some("dsh since 2026-08-13"),
        "workspace-instructions" => Some("dsh before 2026-08-13"),
        _ => None,
    }
}

/// A candidate list after dropping entries that are not plain file names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NameList {
    /// Usable names, in order.
    pub names: Vec<String>,
    /// Entries ignored because they are empty, `.`, `..` or hold a separator.
    pub ignored: Vec<String>,
}

impl NameList {
    /// Filters raw entries as SPEC 1 says ([`is_plain_name`]).
    #[must_use]
    pub fn filter(raw: &[String]) -> Self {
        let (names, ignored) = raw.iter().cloned().partition(|entry| is_plain_name(entry));
        NameList { names, ignored }
    }
}

/// Whether `name` is a plain file name (SPEC 1): not empty, `.` or `..`,
/// and holding neither `/` nor `\` (dsh drops any other candidate entry).
/// The one rule for candidate names, the root markers check finds in a
/// directory's listing, and the sibling a symlink stub names.
#[must_use]
pub fn is_plain_name(name: &str) -> bool {
    !(name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']))
}

/// The harness settings given as flags, plain (the CLI layer fills it):
/// `None` where the flag was not given. Lists are already split.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    pub dsh_home: Option<String>,
    pub max_bytes: Option<f64>,
    pub max_source_bytes: Option<i64>,
    pub candidates: Option<Vec<String>>,
    pub local_candidates: Option<Vec<String>>,
    pub root_markers: Option<Vec<String>>,
    pub precedence: Option<Precedence>,
}

/// Everything discovery and rendering need, resolved.
#[derive(Debug, Clone)]
pub struct Settings {
    pub cwd: Setting<PathBuf>,
    pub home: Option<PathBuf>,
    pub dsh_home: Setting<PathBuf>,
    pub max_bytes: Setting<MaxBytes>,
    pub max_source_bytes: Setting<i64>,
    pub candidates: Setting<NameList>,
    pub local_candidates: Setting<NameList>,
    pub root_markers: Setting<Vec<String>>,
    pub precedence: Setting<Precedence>,
}

impl Settings {
    /// The largest instruction file that loads, in bytes (at least 1).
    #[must_use]
    pub fn max_source(&self) -> u64 {
        u64::try_from(self.max_source_bytes.value.max(1)).unwrap_or(1)
    }

    /// The user-global file's absolute path.
    #[must_use]
    pub fn user_global_path(&self) -> PathBuf {
        self.dsh_home.value.join(USER_GLOBAL_FILE)
    }

    /// `~/.dsh/AGENTS.md` when the dsh home is the default one, else
    /// `$DSH_HOME/AGENTS.md` (SPEC 2.1, 9: a lexical comparison).
    pub fn user_global_display(&self) -> &'static str {
        if self.home.as_deref().map(default_dsh_home).as_deref() == Some(&self.dsh_home.value) {
            "~/.dsh/AGENTS.md"
        } else {
            "$DSH_HOME/AGENTS.md"
        }
    }

    /// The baseline identity (SPEC 2.5) for a session whose root is `root`.
    #[must_use]
    pub fn identity(&self, root: &Path) -> String {
        Identity {
            project_root: paths::up_to(&self.cwd.value, root),
            project_root_markers: self.root_markers.value.clone(),
            max_bytes: self.max_bytes.value,
            max_source_bytes: self.max_source_bytes.value,
            instruction_file_candidates: self.candidates.value.names.clone(),
            local_instruction_file_candidates: self.local_candidates.value.names.clone(),
        }
        .to_json()
    }
}

impl Settings {
    /// Resolves the settings for one run without dsh's configuration: the
    /// flags (`overrides`), the environment, the log's recorded identity and
    /// cwd (when given), then the defaults, each value with its origin.
    ///
    /// # Errors
    /// As [`Settings::resolve_from`].
    pub fn resolve(
        env: &Env,
        config: &Overrides,
        cwd: Option<&Path>,
        log: Option<LogFacts<'_>>,
    ) -> Result<Settings> {
        Self::resolve_from(env, config, cwd, log, None)
    }

    /// Resolves the settings for one run (SPEC 1, CONFIG 11.6): a flag wins;
    /// else, with [`SettingsFrom::Config`], the loaded row's value (its schema
    /// default when the key is absent); else the log's recorded identity;
    /// else the default. A value set by a `!!js` expression falls through to
    /// the log, then the default. The row's `dshHome` applies in both modes:
    /// no log records it.
    ///
    /// # Errors
    /// An unusable cwd, no home directory for the default dsh home, or a
    /// max-source-bytes below 1 (each naming the flag or log it came from).
    pub fn resolve_from(
        env: &Env,
        flags: &Overrides,
        cwd: Option<&Path>,
        log: Option<LogFacts<'_>>,
        dsh: Option<(&dshconfig::Effective, SettingsFrom)>,
    ) -> Result<Settings> {
        let logged = log
            .and_then(|l| l.latest_identity)
            .map(LoggedSettings::from_identity)
            .unwrap_or_default();
        let row = dsh.and_then(|(e, from)| (from == SettingsFrom::Config).then_some(e));

        let cwd = session_cwd(env, cwd, log)?;
        let dsh_home = dsh_home_setting(env, flags, dsh)?;

        let max_bytes = pick(
            flags.max_bytes.map(MaxBytes),
            row.map(|e| &e.max_bytes),
            |v| MaxBytes(*v),
            logged.max_bytes.map(MaxBytes),
            DEFAULT_MAX_BYTES,
        );
        let max_source_bytes = pick(
            flags.max_source_bytes,
            row.map(|e| &e.max_source_bytes),
            // Validated as an integer >= 1; a larger one than i64 holds is
            // as unlimited as i64::MAX.
            #[allow(clippy::cast_possible_truncation)]
            |v| v.min(9.0e18) as i64,
            logged.max_source_bytes,
            DEFAULT_MAX_SOURCE_BYTES,
        );
        at_least_one(&max_source_bytes, log)?;
        let strings = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let list = |flag: &Option<Vec<String>>,
                    row: Option<&dshconfig::RowSetting<Vec<String>>>,
                    logged: &Option<Vec<String>>,
                    default: &[&str]| {
            pick(
                flag.clone(),
                row,
                Clone::clone,
                logged.clone(),
                strings(default),
            )
        };
        let names = |s: Setting<Vec<String>>| Setting::new(NameList::filter(&s.value), s.origin);

        let precedence = precedence_setting(flags.precedence, log);

        Ok(Settings {
            cwd,
            home: env.home.as_ref().and_then(|h| env.absolute(h).ok()),
            dsh_home,
            max_bytes,
            max_source_bytes,
            candidates: names(list(
                &flags.candidates,
                row.map(|e| &e.instruction_file_candidates),
                &logged.candidates,
                &DEFAULT_CANDIDATES,
            )),
            local_candidates: names(list(
                &flags.local_candidates,
                row.map(|e| &e.local_instruction_file_candidates),
                &logged.local_candidates,
                &DEFAULT_LOCAL_CANDIDATES,
            )),
            root_markers: list(
                &flags.root_markers,
                row.map(|e| &e.project_root_markers),
                &logged.root_markers,
                &DEFAULT_ROOT_MARKERS,
            ),
            precedence,
        })
    }
}

/// One setting: the flag, else the configuration's value (unless an
/// expression set it), else the log's, else the default.
fn pick<T, C>(
    flag: Option<T>,
    row: Option<&dshconfig::RowSetting<C>>,
    convert: impl Fn(&C) -> T,
    logged: Option<T>,
    default: T,
) -> Setting<T> {
    if let Some(v) = flag {
        return Setting::new(v, Origin::Flag);
    }
    if let Some(c) = row.filter(|c| c.expression.is_none()) {
        return Setting::new(convert(&c.value), Origin::of_config(&c.origin));
    }
    match logged {
        Some(v) => Setting::new(v, Origin::Log),
        None => Setting::new(default, Origin::Default),
    }
}

/// The session cwd: the flag, else the log header's, else the process's; it
/// must be a directory.
///
/// # Errors
/// The cwd is unusable (naming the flag or log it came from).
pub fn session_cwd(
    env: &Env,
    cwd: Option<&Path>,
    log: Option<LogFacts<'_>>,
) -> Result<Setting<PathBuf>> {
    let cwd = match (cwd, log.and_then(|l| l.header_cwd)) {
        (Some(flag), _) => Setting::new(env.absolute(flag)?, Origin::Flag),
        (None, Some(logged)) => Setting::new(env.absolute(Path::new(logged))?, Origin::Log),
        (None, None) => Setting::new(env.absolute(env.process_cwd()?)?, Origin::Default),
    };
    if let Some((_, problem)) = cwd_problem(&cwd.value) {
        let shown = cwd.value.display();
        match (&cwd.origin, log) {
            (Origin::Log, Some(log)) => bail!(
                "{}: the session cwd {shown} from its header is unusable: {problem} (pass --cwd)",
                log.name
            ),
            (Origin::Flag, _) => bail!("--cwd {shown}: {problem}"),
            _ => bail!("the current directory {shown}: {problem}"),
        }
    }
    Ok(cwd)
}

/// Why a cwd is unusable, in one line, with the error when it is one (a
/// caller may accept a missing cwd); none for a directory. Every command's
/// cwd, dsh's and the harness profiles', is checked here.
#[must_use]
pub fn cwd_problem(path: &Path) -> Option<(Option<std::io::Error>, String)> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => None,
        Ok(_) => Some((None, "not a directory".to_owned())),
        Err(e) => {
            let line = e.to_string();
            Some((Some(e), line))
        }
    }
}

/// The dsh home: the flag, else `DSH_HOME` (unless blank), else `~/.dsh`.
fn resolve_dsh_home(env: &Env, config: &Overrides) -> Result<Setting<PathBuf>> {
    let var = env.dsh_home.as_deref().filter(|v| !js_trim(v).is_empty());
    let (raw, origin) = match (config.dsh_home.as_deref(), var) {
        (Some(flag), _) => (flag, Origin::Flag),
        (None, Some(var)) => (var, Origin::Env),
        (None, None) => {
            let Some(home) = &env.home else {
                bail!("no home directory: set HOME, DSH_HOME or --dsh-home");
            };
            return Ok(Setting::new(default_dsh_home(home), Origin::Default));
        }
    };
    let path = paths::expand_tilde(raw, env.home.as_deref());
    Ok(Setting::new(env.absolute(&path)?, origin))
}

/// SPEC 6: the precedence a log was written under, from its last change's scope key.
#[must_use]
pub fn infer_precedence(last_scope: Option<&str>) -> Precedence {
    match last_scope.map(|s| s.split_once('\0')) {
        None => Precedence::All,
        Some(Some((_, name))) if name != "local" => Precedence::All,
        Some(_) => Precedence::First,
    }
}

/// The default dsh home for a home directory: `$HOME/.dsh`, normalised.
#[must_use]
pub fn default_dsh_home(home: &Path) -> PathBuf {
    paths::normalize(Path::new("/"), &home.join(".dsh"))
}

/// The baseline identity record, in the harness's key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Identity {
    pub project_root: String,
    pub project_root_markers: Vec<String>,
    /// As `JSON.stringify` writes it (`1e5` is `100000`, NaN is `null`).
    pub max_bytes: MaxBytes,
    pub max_source_bytes: i64,
    pub instruction_file_candidates: Vec<String>,
    pub local_instruction_file_candidates: Vec<String>,
}

impl Identity {
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The settings a logged identity records, each present only when well typed
/// (SPEC 9): a finite number for maxBytes, an integer for maxSourceBytes,
/// string lists for the lists.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoggedSettings {
    pub max_bytes: Option<f64>,
    pub max_source_bytes: Option<i64>,
    pub candidates: Option<Vec<String>>,
    pub local_candidates: Option<Vec<String>>,
    pub root_markers: Option<Vec<String>>,
}

impl LoggedSettings {
    /// Reads what it can from a `baselineIdentity` string; anything else is `None`.
    #[must_use]
    pub fn from_identity(identity: &str) -> Self {
        let Ok(serde_json::Value::Object(map)) = serde_json::from_str(identity) else {
            return LoggedSettings::default();
        };
        let int = |key: &str| map.get(key).and_then(serde_json::Value::as_i64);
        let list = |key: &str| {
            map.get(key)?
                .as_array()?
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
        };
        LoggedSettings {
            max_bytes: map
                .get("maxBytes")
                .and_then(serde_json::Value::as_f64)
                .filter(|v| v.is_finite()),
            max_source_bytes: int("maxSourceBytes"),
            candidates: list("instructionFileCandidates"),
            local_candidates: list("localInstructionFileCandidates"),
            root_markers: list("projectRootMarkers"),
        }
    }
}

/// The first key (in identity order) whose value differs between two
/// identity strings, or `None` when they are equal or unparseable alike.
#[must_use]
pub fn identity_diff(old: &str, new: &str) -> Option<String> {
    if old == new {
        return None;
    }
    let parse = |s: &str| match serde_json::from_str::<serde_json::Value>(s) {
        Ok(serde_json::Value::Object(map)) => Some(map),
        _ => None,
    };
    let (Some(a), Some(b)) = (parse(old), parse(new)) else {
        return Some("(unparseable identity)".to_owned());
    };
    let keys = [
        "projectRoot",
        "projectRootMarkers",
        "maxBytes",
        "maxSourceBytes",
        "instructionFileCandidates",
        "localInstructionFileCandidates",
    ];
    keys.iter()
        .find(|k| a.get(**k) != b.get(**k))
        .map(|k| (*k).to_owned())
        .or_else(|| {
            a.keys()
                .chain(b.keys())
                .find(|k| a.get(*k) != b.get(*k))
                .cloned()
        })
        .or_else(|| Some("(key order or spacing)".to_owned()))
}

/// `--dsh-home`, else the loaded row's `dshHome` when it set one (not by
/// an expression), else `$DSH_HOME` or `~/.dsh`.
fn dsh_home_setting(
    env: &Env,
    flags: &Overrides,
    dsh: Option<(&dshconfig::Effective, SettingsFrom)>,
) -> Result<Setting<PathBuf>> {
    Ok(match (flags.dsh_home.is_some(), dsh) {
        (false, Some((e, _)))
            if e.dsh_home.origin != dshconfig::ConfigOrigin::Default
                && e.dsh_home.expression.is_none() =>
        {
            Setting::new(
                e.dsh_home.value.clone(),
                Origin::of_config(&e.dsh_home.origin),
            )
        }
        _ => resolve_dsh_home(env, flags)?,
    })
}

/// Max-source-bytes must be at least 1, naming the log that recorded a
/// smaller one.
fn at_least_one(max_source_bytes: &Setting<i64>, log: Option<LogFacts<'_>>) -> Result<()> {
    if max_source_bytes.value < 1 {
        let got = max_source_bytes.value;
        match (&max_source_bytes.origin, log) {
            (Origin::Log, Some(log)) => bail!(
                "{}: the latest baseline identity records maxSourceBytes {got}, but it must be at least 1 (override it with --max-source-bytes)",
                log.name
            ),
            _ => bail!("--max-source-bytes must be at least 1, got {got}"),
        }
    }
    Ok(())
}

/// `--precedence`, else inferred from the log's last change scope, else
/// `all`.
fn precedence_setting(flag: Option<Precedence>, log: Option<LogFacts<'_>>) -> Setting<Precedence> {
    match (flag, log) {
        (Some(p), _) => Setting::new(p, Origin::Flag),
        // A log with no change entry infers nothing: the default applies.
        (None, Some(log)) if log.last_change_scope.is_some() => {
            Setting::new(infer_precedence(log.last_change_scope), Origin::Log)
        }
        (None, _) => Setting::new(Precedence::All, Origin::Default),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    /// One rule for every plain name (SPEC 1): `\` separates like `/`.
    #[test]
    fn plain_names_exclude_dots_and_separators() {
        let plain: Vec<bool> = [".git", "AGENTS.md", "", ".", "..", "a/b", "a\\b"]
            .iter()
            .map(|n| is_plain_name(n))
            .collect();
        assert_eq!(plain, [true, true, false, false, false, false, false]);
    }

    #[test]
    fn precedence_is_inferred_from_the_last_scope_key() {
        assert_eq!(infer_precedence(None), Precedence::All);
        assert_eq!(infer_precedence(Some("pkg")), Precedence::First);
        assert_eq!(infer_precedence(Some("pkg\0local")), Precedence::First);
        assert_eq!(infer_precedence(Some("user-global")), Precedence::First);
        assert_eq!(infer_precedence(Some("pkg\0CLAUDE.md")), Precedence::All);
        assert_eq!(
            infer_precedence(Some("user-global\0AGENTS.md")),
            Precedence::All
        );
    }

    #[test]
    fn blank_dsh_home_counts_as_unset() {
        let mut e = crate::env::tests::env();
        e.dsh_home = Some(" \t\u{feff}".into());
        let s = Settings::resolve(&e, &Overrides::default(), Some(Path::new("/")), None).unwrap();
        assert_eq!(s.dsh_home.value, PathBuf::from("/h/.dsh"));
        assert_eq!(s.dsh_home.origin, Origin::Default);
        assert_eq!(s.user_global_display(), "~/.dsh/AGENTS.md");
        e.dsh_home = Some("~/other".into());
        let s = Settings::resolve(&e, &Overrides::default(), Some(Path::new("/")), None).unwrap();
        assert_eq!(s.dsh_home.value, PathBuf::from("/h/other"));
        assert_eq!(s.user_global_display(), "$DSH_HOME/AGENTS.md");
    }

    #[test]
    fn candidate_filter_drops_non_names_and_keeps_order() {
        let list = NameList::filter(&strings(&["", ".", "..", "a/b", "a\\b", "X.md", "A.md"]));
        assert_eq!(list.names, strings(&["X.md", "A.md"]));
        assert_eq!(list.ignored, strings(&["", ".", "..", "a/b", "a\\b"]));
    }

    #[test]
    fn identity_is_compact_json_in_harness_key_order() {
        let id = Identity {
            project_root: "../..".into(),
            project_root_markers: strings(&[".git"]),
            max_bytes: MaxBytes(-1.0),
            max_source_bytes: 10,
            instruction_file_candidates: strings(&["AGENTS.md"]),
            local_instruction_file_candidates: vec![],
        };
        assert_eq!(
            id.to_json(),
            r#"{"projectRoot":"../..","projectRootMarkers":[".git"],"maxBytes":-1,"maxSourceBytes":10,"instructionFileCandidates":["AGENTS.md"],"localInstructionFileCandidates":[]}"#
        );
    }

    #[test]
    fn logged_settings_take_only_well_typed_values() {
        let got = LoggedSettings::from_identity(
            r#"{"maxBytes":"9","maxSourceBytes":12,"instructionFileCandidates":["A",1],"localInstructionFileCandidates":[],"projectRootMarkers":[".hg"]}"#,
        );
        assert_eq!(
            got,
            LoggedSettings {
                max_bytes: None,
                max_source_bytes: Some(12),
                candidates: None,
                local_candidates: Some(vec![]),
                root_markers: Some(strings(&[".hg"])),
            }
        );
    }

    #[test]
    fn identity_diff_names_the_first_differing_key() {
        let a = r#"{"projectRoot":"","maxBytes":1}"#;
        let b = r#"{"projectRoot":"","maxBytes":2}"#;
        assert_eq!(identity_diff(a, b), Some("maxBytes".to_owned()));
        assert_eq!(identity_diff(a, a), None);
    }
}

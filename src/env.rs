//! The process environment, read once, and the settings resolved from it,
//! the flags and a log (SPEC 1, 9).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::cli::{ColorWhen, ConfigArgs, split_list};
use crate::discovery::js_trim;
use crate::log::Log;
use crate::paths;
use crate::settings::{self, LoggedSettings, NameList, Origin, Precedence, Setting, Settings};

/// Everything agentctx reads from its environment.
#[derive(Debug, Clone)]
pub struct Env {
    /// The process's working directory, or why it cannot be read (it was
    /// deleted): only relative paths need it.
    pub process_cwd: Result<PathBuf, String>,
    pub home: Option<PathBuf>,
    pub dsh_home: Option<String>,
    pub no_color: bool,
    pub clicolor_force: bool,
    pub stdout_tty: bool,
    pub stderr_tty: bool,
    /// Every environment variable (lossy UTF-8), for the harness profiles'
    /// settings and `$VAR` expansion (SPEC 10.1).
    pub vars: crate::profile::Vars,
}

impl Env {
    /// Reads the real process environment.
    pub fn from_process() -> Result<Self> {
        let nonempty = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        Ok(Env {
            process_cwd: std::env::current_dir()
                .map_err(|e| format!("reading the current directory: {e}")),
            home: dirs::home_dir(),
            dsh_home: std::env::var_os("DSH_HOME").map(|v| v.to_string_lossy().into_owned()),
            no_color: nonempty("NO_COLOR"),
            clicolor_force: std::env::var_os("CLICOLOR_FORCE")
                .is_some_and(|v| !v.is_empty() && v != "0"),
            stdout_tty: std::io::stdout().is_terminal(),
            stderr_tty: std::io::stderr().is_terminal(),
            vars: crate::profile::Vars(
                std::env::vars_os()
                    .map(|(k, v)| {
                        (
                            k.to_string_lossy().into_owned(),
                            v.to_string_lossy().into_owned(),
                        )
                    })
                    .collect(),
            ),
        })
    }

    /// The process's working directory; an error when it cannot be read.
    pub fn process_cwd(&self) -> Result<&Path> {
        self.process_cwd
            .as_deref()
            .map_err(|e| anyhow::anyhow!("{e}"))
    }

    /// `path` made absolute and normalised lexically (SPEC 2.1); only a
    /// relative path needs the process's working directory.
    pub fn absolute(&self, path: &Path) -> Result<PathBuf> {
        if path.is_absolute() {
            Ok(paths::normalize(Path::new("/"), path))
        } else {
            Ok(paths::normalize(self.process_cwd()?, path))
        }
    }

    /// Whether to colour a stream (SPEC 1): the flag, then CLICOLOR_FORCE,
    /// then NO_COLOR, then whether it is a terminal.
    pub fn color(&self, when: ColorWhen, tty: bool) -> bool {
        match when {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto if self.clicolor_force => true,
            ColorWhen::Auto if self.no_color => false,
            ColorWhen::Auto => tty,
        }
    }
}

/// Resolves the settings for one run. `log` supplies the cwd and the
/// recorded identity when given.
pub fn resolve(
    env: &Env,
    config: &ConfigArgs,
    cwd: Option<&Path>,
    log: Option<&Log>,
) -> Result<Settings> {
    let logged = log
        .and_then(|l| l.latest_baseline_identity.as_deref())
        .map(LoggedSettings::from_identity)
        .unwrap_or_default();

    let cwd = match (cwd, log.and_then(|l| l.header_cwd.as_deref())) {
        (Some(flag), _) => Setting::new(env.absolute(flag)?, Origin::Flag),
        (None, Some(logged)) => Setting::new(env.absolute(Path::new(logged))?, Origin::Log),
        (None, None) => Setting::new(env.absolute(env.process_cwd()?)?, Origin::Default),
    };
    let problem = match std::fs::metadata(&cwd.value) {
        Ok(meta) if meta.is_dir() => None,
        Ok(_) => Some("not a directory".to_owned()),
        Err(e) => Some(e.to_string()),
    };
    if let Some(problem) = problem {
        let shown = cwd.value.display();
        match (cwd.origin, log) {
            (Origin::Log, Some(log)) => bail!(
                "{}: the session cwd {shown} from its header is unusable: {problem} (pass --cwd)",
                log.name
            ),
            (Origin::Flag, _) => bail!("--cwd {shown}: {problem}"),
            _ => bail!("the current directory {shown}: {problem}"),
        }
    }

    let dsh_home = match (
        &config.dsh_home,
        env.dsh_home.as_deref().filter(|v| !js_trim(v).is_empty()),
    ) {
        (Some(flag), _) => Setting::new(
            env.absolute(&paths::expand_tilde(flag, env.home.as_deref()))?,
            Origin::Flag,
        ),
        (None, Some(var)) => Setting::new(
            env.absolute(&paths::expand_tilde(var, env.home.as_deref()))?,
            Origin::Env,
        ),
        (None, None) => match &env.home {
            Some(home) => Setting::new(settings::default_dsh_home(home), Origin::Default),
            None => bail!("no home directory: set HOME, DSH_HOME or --dsh-home"),
        },
    };

    let int = |flag: Option<i64>, logged: Option<i64>, default: i64| match (flag, logged) {
        (Some(v), _) => Setting::new(v, Origin::Flag),
        (None, Some(v)) => Setting::new(v, Origin::Log),
        (None, None) => Setting::new(default, Origin::Default),
    };
    let list = |flag: &Option<String>, logged: &Option<Vec<String>>, default: &[&str]| match (
        flag, logged,
    ) {
        (Some(v), _) => Setting::new(split_list(v), Origin::Flag),
        (None, Some(v)) => Setting::new(v.clone(), Origin::Log),
        (None, None) => Setting::new(
            default.iter().map(|s| (*s).to_owned()).collect(),
            Origin::Default,
        ),
    };
    let max_source_bytes = int(
        config.max_source_bytes,
        logged.max_source_bytes,
        settings::DEFAULT_MAX_SOURCE_BYTES,
    );
    if max_source_bytes.value < 1 {
        let got = max_source_bytes.value;
        match (max_source_bytes.origin, log) {
            (Origin::Log, Some(log)) => bail!(
                "{}: the latest baseline identity records maxSourceBytes {got}, but it must be at least 1 (override it with --max-source-bytes)",
                log.name
            ),
            _ => bail!("--max-source-bytes must be at least 1, got {got}"),
        }
    }
    let names = |s: Setting<Vec<String>>| Setting::new(NameList::filter(&s.value), s.origin);

    let precedence = match (config.precedence, log) {
        (Some(p), _) => Setting::new(p, Origin::Flag),
        // A log with no change entry infers nothing: the default applies.
        (None, Some(log)) if log.last_change_scope.is_some() => Setting::new(
            infer_precedence(log.last_change_scope.as_deref()),
            Origin::Log,
        ),
        (None, _) => Setting::new(Precedence::All, Origin::Default),
    };

    Ok(Settings {
        cwd,
        home: env.home.as_ref().and_then(|h| env.absolute(h).ok()),
        dsh_home,
        max_bytes: int(
            config.max_bytes,
            logged.max_bytes,
            settings::DEFAULT_MAX_BYTES,
        ),
        max_source_bytes,
        candidates: names(list(
            &config.candidates,
            &logged.candidates,
            &settings::DEFAULT_CANDIDATES,
        )),
        local_candidates: names(list(
            &config.local_candidates,
            &logged.local_candidates,
            &settings::DEFAULT_LOCAL_CANDIDATES,
        )),
        root_markers: list(
            &config.root_markers,
            &logged.root_markers,
            &settings::DEFAULT_ROOT_MARKERS,
        ),
        precedence,
    })
}

/// SPEC 6: the precedence a log was written under, from its last change's scope key.
pub fn infer_precedence(last_scope: Option<&str>) -> Precedence {
    match last_scope.map(|s| s.split_once('\0')) {
        None => Precedence::All,
        Some(Some((_, name))) if name != "local" => Precedence::All,
        Some(_) => Precedence::First,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn env() -> Env {
        Env {
            process_cwd: Ok(PathBuf::from("/")),
            home: Some(PathBuf::from("/h")),
            dsh_home: None,
            no_color: false,
            clicolor_force: false,
            stdout_tty: false,
            stderr_tty: false,
            vars: crate::profile::Vars::default(),
        }
    }

    #[test]
    fn colour_precedence_flag_then_force_then_no_color_then_tty() {
        let mut e = env();
        assert!(e.color(ColorWhen::Auto, true));
        assert!(!e.color(ColorWhen::Auto, false));
        e.no_color = true;
        assert!(!e.color(ColorWhen::Auto, true));
        assert!(e.color(ColorWhen::Always, false));
        e.clicolor_force = true;
        assert!(e.color(ColorWhen::Auto, false));
        assert!(!e.color(ColorWhen::Never, true));
    }

    #[test]
    fn blank_dsh_home_counts_as_unset() {
        let mut e = env();
        e.dsh_home = Some(" \t\u{feff}".into());
        let s = resolve(&e, &ConfigArgs::default(), Some(Path::new("/")), None).unwrap();
        assert_eq!(s.dsh_home.value, PathBuf::from("/h/.dsh"));
        assert_eq!(s.dsh_home.origin, Origin::Default);
        assert_eq!(s.user_global_display(), "~/.dsh/AGENTS.md");
        e.dsh_home = Some("~/other".into());
        let s = resolve(&e, &ConfigArgs::default(), Some(Path::new("/")), None).unwrap();
        assert_eq!(s.dsh_home.value, PathBuf::from("/h/other"));
        assert_eq!(s.user_global_display(), "$DSH_HOME/AGENTS.md");
    }
}

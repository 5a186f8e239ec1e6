//! The process environment, read once, and the settings resolved from it,
//! the flags and a log (SPEC 1, 9).

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::Result;

use crate::paths;

/// Everything agentctx reads from its environment.
#[derive(Debug, Clone)]
pub struct Env {
    /// The process's working directory, or why it cannot be read (it was
    /// deleted): only relative paths need it.
    pub process_cwd: Result<PathBuf, String>,
    pub home: Option<PathBuf>,
    pub dsh_home: Option<String>,
    /// `AGENTCTX_DSH_PROFILE` when set and non-empty (SPEC 11).
    pub dsh_profile: Option<String>,
    pub no_color: bool,
    pub clicolor_force: bool,
    pub stdout_tty: bool,
    pub stderr_tty: bool,
    /// Every environment variable (lossy UTF-8), for the harness profiles'
    /// settings and `$VAR` expansion (SPEC 10.1).
    pub vars: Vars,
}

impl Env {
    /// Reads the real process environment. An unreadable current directory
    /// is kept as an error for the commands that need it.
    #[must_use]
    pub fn from_process() -> Self {
        let nonempty = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        Env {
            process_cwd: std::env::current_dir()
                .map_err(|e| format!("reading the current directory: {e}")),
            home: dirs::home_dir(),
            dsh_home: std::env::var_os("DSH_HOME").map(|v| v.to_string_lossy().into_owned()),
            no_color: nonempty("NO_COLOR"),
            clicolor_force: std::env::var_os("CLICOLOR_FORCE")
                .is_some_and(|v| !v.is_empty() && v != "0"),
            stdout_tty: std::io::stdout().is_terminal(),
            stderr_tty: std::io::stderr().is_terminal(),
            dsh_profile: std::env::var_os("AGENTCTX_DSH_PROFILE")
                .filter(|v| !v.is_empty())
                .map(|v| v.to_string_lossy().into_owned()),
            vars: Vars::process(),
        }
    }

    /// The process's working directory; an error when it cannot be read.
    ///
    /// # Errors
    /// The reason the process's current directory could not be read.
    pub fn process_cwd(&self) -> Result<&Path> {
        self.process_cwd
            .as_deref()
            .map_err(|e| anyhow::anyhow!("{e}"))
    }

    /// `path` made absolute and normalised lexically (SPEC 2.1); only a
    /// relative path needs the process's working directory.
    ///
    /// # Errors
    /// A relative `path` when the current directory could not be read.
    pub fn absolute(&self, path: &Path) -> Result<PathBuf> {
        if path.is_absolute() {
            Ok(paths::normalize(Path::new("/"), path))
        } else {
            Ok(paths::normalize(self.process_cwd()?, path))
        }
    }

    /// Whether to colour a stream (SPEC 1): the flag (`forced`: `Some` for
    /// always or never), then `CLICOLOR_FORCE`, then `NO_COLOR`, then whether
    /// it is a terminal.
    #[must_use]
    pub fn color(&self, forced: Option<bool>, tty: bool) -> bool {
        match forced {
            Some(on) => on,
            None if self.clicolor_force => true,
            None if self.no_color => false,
            None => tty,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A plain environment for tests.
    pub(crate) fn env() -> Env {
        Env {
            process_cwd: Ok(PathBuf::from("/")),
            home: Some(PathBuf::from("/h")),
            dsh_home: None,
            dsh_profile: None,
            no_color: false,
            clicolor_force: false,
            stdout_tty: false,
            stderr_tty: false,
            vars: Vars::default(),
        }
    }

    #[test]
    fn vars_are_the_process_environment_given_ones_or_none() {
        let process = Vars::process();
        for (name, value) in std::env::vars() {
            assert_eq!(process.get(&name), Some(value.as_str()), "{name}");
        }
        assert_eq!(process.get("AGENTCTX_NO_SUCH_VARIABLE_IS_SET"), None);
        let given = Vars::of([("A".to_owned(), String::new())].into_iter().collect());
        assert_eq!(given.get("A"), Some(""));
        assert_eq!(given.nonempty("A"), None);
        assert_eq!(given.get("PATH"), None);
        assert_eq!(Vars::default().get("PATH"), None);
    }

    #[test]
    fn colour_precedence_flag_then_force_then_no_color_then_tty() {
        let mut e = env();
        assert!(e.color(None, true));
        assert!(!e.color(None, false));
        e.no_color = true;
        assert!(!e.color(None, true));
        assert!(e.color(Some(true), false));
        e.clicolor_force = true;
        assert!(e.color(None, false));
        assert!(!e.color(Some(false), true));
    }
}

/// The process environment a profile reads: the process's own, copied the
/// first time a variable is looked up (issue 28: dsh's `render` looks up
/// none, and copying the environment was a fifth of its allocations), or
/// given. Empty by default.
#[derive(Debug, Clone, Default)]
pub struct Vars {
    map: OnceLock<BTreeMap<String, String>>,
    /// Whether `map`, until it is set, is the process's environment.
    process: bool,
}

impl Vars {
    /// The process's environment (lossy UTF-8), read when first looked up.
    #[must_use]
    pub fn process() -> Vars {
        Vars {
            map: OnceLock::new(),
            process: true,
        }
    }

    /// These variables.
    #[must_use]
    pub fn of(map: BTreeMap<String, String>) -> Vars {
        Vars {
            map: OnceLock::from(map),
            process: false,
        }
    }

    fn map(&self) -> &BTreeMap<String, String> {
        self.map.get_or_init(|| {
            if !self.process {
                return BTreeMap::new();
            }
            let lossy = |s: std::ffi::OsString| {
                s.into_string()
                    .unwrap_or_else(|s| s.to_string_lossy().into_owned())
            };
            std::env::vars_os()
                .map(|(k, v)| (lossy(k), lossy(v)))
                .collect()
        })
    }

    /// The value when set (possibly empty).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.map().get(name).map(String::as_str)
    }

    /// The value when set and non-empty.
    #[must_use]
    pub fn nonempty(&self, name: &str) -> Option<&str> {
        self.get(name).filter(|v| !v.is_empty())
    }
}

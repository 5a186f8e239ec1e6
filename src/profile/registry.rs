//! What every harness besides dsh provides ([`Definition`]; [`HARNESSES`]
//! lists them, one line each): its names and help texts, the commands that
//! take it, its flags as plain data ([`Flag`]), the inputs it resolves
//! from the environment and those flags ([`FlagValues`]), its load and its
//! check. The CLI layer builds `--profile`, `--help-profile` and the
//! harnesses' flags from this table; `cmd::profile` runs whatever it lists.
//! A new harness is one module providing a `Definition` and one line in
//! `profile::HARNESSES`.

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde::Serialize;

use super::check::Harness;
use super::{HARNESSES, HarnessReport, Status, ValueOrigin};
use crate::env::Env;

/// A command that takes `--profile` (its verb: `app::Command` is the whole
/// subcommand with its arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Render,
    Explain,
    Check,
}

/// What kind of value a harness flag takes (its clap parser, in the CLI layer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagKind {
    /// A path (`DIR`), resolved against the process cwd by the harness.
    Path,
    /// A non-negative integer (`N`).
    Number,
    /// Comma-separated names (`A,B`); values may start with `-`.
    List,
    /// One free-form value.
    Text,
    /// A switch without a value.
    Switch,
    /// A value given any number of times.
    Repeated,
}

/// One flag of a harness, as plain data: the CLI layer makes it a clap
/// argument under the harness's heading, hidden from `--help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag {
    /// Without the leading `--`.
    pub long: &'static str,
    /// `None` for a switch.
    pub value_name: Option<&'static str>,
    /// The help text (one line, no final period).
    pub help: &'static str,
    pub kind: FlagKind,
}

/// One given value of a harness flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagValue {
    Path(PathBuf),
    Number(u64),
    /// A list's or a text flag's value as written.
    Text(String),
    Switch,
    Many(Vec<String>),
}

/// The harness flags given on the command line (no clap): each with the
/// harness it belongs to, in the order the flags are defined.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlagValues(pub Vec<(Profile, &'static str, FlagValue)>);

impl FlagValues {
    fn get(&self, long: &str) -> Option<&FlagValue> {
        self.0
            .iter()
            .find(|(_, l, _)| *l == long)
            .map(|(_, _, v)| v)
    }

    /// A path flag's value.
    #[must_use]
    pub fn path(&self, long: &str) -> Option<&Path> {
        match self.get(long) {
            Some(FlagValue::Path(p)) => Some(p),
            _ => None,
        }
    }

    /// A number flag's value.
    #[must_use]
    pub fn number(&self, long: &str) -> Option<u64> {
        match self.get(long) {
            Some(FlagValue::Number(n)) => Some(*n),
            _ => None,
        }
    }

    /// A text flag's value.
    #[must_use]
    pub fn text(&self, long: &str) -> Option<&str> {
        match self.get(long) {
            Some(FlagValue::Text(t)) => Some(t),
            _ => None,
        }
    }

    /// A list flag's names (an empty value is no name).
    #[must_use]
    pub fn list(&self, long: &str) -> Option<Vec<String>> {
        self.text(long).map(crate::text::split_list)
    }

    /// Whether a switch is given.
    #[must_use]
    pub fn switch(&self, long: &str) -> bool {
        matches!(self.get(long), Some(FlagValue::Switch))
    }

    /// A repeated flag's values, in order.
    #[must_use]
    pub fn many(&self, long: &str) -> Vec<String> {
        match self.get(long) {
            Some(FlagValue::Many(v)) => v.clone(),
            _ => Vec::new(),
        }
    }
}

/// What one harness provides. Its module defines one (a unit struct) and a
/// `PROFILE` handle onto it; [`HARNESSES`] lists the handles.
pub trait Definition: Sync {
    /// Its `--profile` value, the one spelling of its name.
    fn name(&self) -> &'static str;
    /// The help of its `--profile` value (`OpenAI Codex CLI (exact)`).
    fn about(&self) -> &'static str;
    /// The help of its `--help-profile` value (`OpenAI Codex CLI`).
    fn title(&self) -> &'static str;
    /// Whether what it shows is byte-exact; a documented listing is not.
    fn exact(&self) -> bool {
        true
    }
    /// Whether `command` takes it: a listing only explain, check only a
    /// harness with a [`Definition::check`].
    fn takes(&self, command: Verb) -> bool {
        match command {
            Verb::Render | Verb::Check => self.exact(),
            Verb::Explain => true,
        }
    }
    /// The help heading its flags sit under (`codex settings`).
    fn heading(&self) -> &'static str;
    /// Its flags, in help order.
    fn flags(&self) -> &'static [Flag] {
        &[]
    }
    /// Its counterpart of a dsh flag given with it, as the end of a usage
    /// error (`; codex's byte budget is --project-doc-max-bytes`).
    fn instead(&self, _dsh_flag: &str) -> Option<&'static str> {
        None
    }
    /// Whether it sees the cwd with links resolved, given `--cwd-as-given`.
    fn physical_cwd(&self, _cwd_as_given: bool) -> bool {
        true
    }
    /// Its own wording of why a file has `status`, where the shared one
    /// does not fit (an empty string: nothing to say).
    fn status_reason(&self, _status: Status) -> Option<&'static str> {
        None
    }
    /// Whether it skips files one by one and goes on (Claude Code: an
    /// import too large, too deep, outside or not text; an AGENTS.md held
    /// back): check judges its files by those statuses, each a warning, and
    /// an AGENTS.md held back that its CLAUDE.md mirrors is no finding.
    fn skips_files(&self) -> bool {
        false
    }
    /// What it loads for `cwd`, its inputs resolved from `env` and `flags`.
    ///
    /// # Errors
    ///
    /// Unusable inputs (no home, a bad config file), as its loader says.
    fn load(&self, env: &Env, flags: &FlagValues, cwd: &Path) -> Result<HarnessReport>;
    /// What `check` judges it by, its inputs resolved for the tree at `top`
    /// (`None`: check does not take it).
    ///
    /// # Errors
    ///
    /// Unusable inputs, as [`Definition::load`].
    fn check(
        &self,
        _env: &Env,
        _flags: &FlagValues,
        _top: &Path,
    ) -> Result<Option<Box<dyn Harness>>> {
        Ok(None)
    }
}

/// A harness besides dsh: a handle onto its [`Definition`] in [`HARNESSES`].
/// Compares, prints and serialises as its name.
#[derive(Clone, Copy)]
pub struct Profile(&'static dyn Definition);

impl Profile {
    /// The handle of a definition (a module's `PROFILE`).
    #[must_use]
    pub const fn new(definition: &'static dyn Definition) -> Self {
        Profile(definition)
    }

    /// What it provides.
    #[must_use]
    pub fn definition(self) -> &'static dyn Definition {
        self.0
    }

    /// Its `--profile` name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// Whether the profile is only a documented listing (explain only).
    #[must_use]
    pub fn is_listing(self) -> bool {
        !self.0.exact()
    }

    /// The harness named `name`.
    #[must_use]
    pub fn named(name: &str) -> Option<Profile> {
        HARNESSES.iter().copied().find(|p| p.name() == name)
    }

    /// The harnesses `command` takes, in registry order.
    pub fn taken_by(command: Verb) -> impl Iterator<Item = Profile> {
        HARNESSES
            .iter()
            .copied()
            .filter(move |p| p.0.takes(command))
    }

    /// What it loads for `cwd`, with the secret notes marked.
    ///
    /// # Errors
    ///
    /// As [`Definition::load`].
    pub fn load(self, env: &Env, flags: &FlagValues, cwd: &Path) -> Result<HarnessReport> {
        self.0.load(env, flags, cwd)
    }
}

impl PartialEq for Profile {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Profile {}

impl std::hash::Hash for Profile {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Profile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The home directory, absolute (every harness that reads `~` needs it).
///
/// # Errors
///
/// `HOME` is not set.
pub fn home(env: &Env) -> Result<PathBuf> {
    match &env.home {
        Some(home) => env.absolute(home),
        None => bail!("no home directory: set HOME"),
    }
}

/// A directory flag, else a non-empty variable, else a default under home.
///
/// # Errors
///
/// The default's own error (no home).
pub fn dir_setting(
    env: &Env,
    flag: Option<&Path>,
    var: &str,
    default: impl FnOnce() -> Result<PathBuf>,
) -> Result<(PathBuf, ValueOrigin)> {
    Ok(match (flag, env.vars.nonempty(var)) {
        (Some(flag), _) => (env.absolute(flag)?, ValueOrigin::Flag),
        (None, Some(v)) => (
            env.absolute(Path::new(v))?,
            ValueOrigin::Env(var.to_owned()),
        ),
        (None, None) => (default()?, ValueOrigin::Default),
    })
}

/// A variable holding a path, when not empty, made absolute.
///
/// # Errors
///
/// The process cwd is needed and unusable.
pub fn var_path(env: &Env, name: &str) -> Result<Option<PathBuf>> {
    env.vars
        .nonempty(name)
        .map(|p| env.absolute(Path::new(p)))
        .transpose()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// Names are unique (they are the `--profile` values and the JSON's
    /// `profile`), so are headings and flags across harnesses; a harness
    /// with flags has a heading naming it, its flags a value name exactly
    /// when they take a value, and help without a final period (clap's
    /// derive dropped it).
    #[test]
    fn the_registry_is_consistent() {
        let mut names = HashSet::new();
        let mut headings = HashSet::new();
        let mut longs = HashSet::new();
        for p in HARNESSES {
            let d = p.definition();
            assert!(names.insert(d.name()), "{} twice", d.name());
            assert!(!matches!(d.name(), "dsh" | "all"), "{} is taken", d.name());
            assert!(headings.insert(d.heading()), "{} twice", d.heading());
            assert!(d.heading().starts_with(d.name()), "{}", d.heading());
            assert!(!d.about().is_empty() && !d.title().is_empty());
            for f in d.flags() {
                assert!(longs.insert(f.long), "--{} twice", f.long);
                assert_eq!(
                    f.value_name.is_none(),
                    f.kind == FlagKind::Switch,
                    "--{}",
                    f.long
                );
                assert!(!f.help.ends_with('.'), "--{}", f.long);
                assert!(!f.long.starts_with('-'), "--{}", f.long);
            }
            assert_eq!(Profile::named(d.name()), Some(*p));
            if !d.exact() {
                assert!(!d.takes(Verb::Render) && !d.takes(Verb::Check));
            }
        }
        // Today's order stays (help, flags, `all`); a new one comes after.
        let order: Vec<&str> = HARNESSES.iter().map(|p| p.name()).collect();
        assert_eq!(
            order[..5],
            ["codex", "gemini", "opencode", "claude", "copilot"]
        );
    }

    /// The harnesses check takes are those with a check, and only those.
    #[test]
    fn check_takes_the_harnesses_with_a_check() {
        let mut env = crate::env::tests::env();
        let t = tempfile::tempdir().unwrap();
        env.home = Some(t.path().to_path_buf());
        env.process_cwd = Ok(t.path().to_path_buf());
        for p in HARNESSES {
            let check = p
                .definition()
                .check(&env, &FlagValues::default(), t.path())
                .unwrap();
            assert_eq!(check.is_some(), p.definition().takes(Verb::Check), "{p}");
            if let Some(h) = check {
                assert_eq!(h.profile(), *p);
            }
        }
    }

    #[test]
    fn flag_values_answer_by_kind() {
        let codex = HARNESSES[0];
        let values = FlagValues(vec![
            (codex, "a", FlagValue::Number(7)),
            (codex, "b", FlagValue::Text("x,,y".to_owned())),
            (codex, "c", FlagValue::Switch),
            (codex, "d", FlagValue::Many(vec!["p".to_owned()])),
        ]);
        assert_eq!(values.number("a"), Some(7));
        assert_eq!(values.path("a"), None);
        assert_eq!(
            values.list("b"),
            Some(vec!["x".into(), String::new(), "y".into()])
        );
        assert_eq!(values.list("z"), None);
        assert!(values.switch("c") && !values.switch("a"));
        assert_eq!(values.many("d"), ["p"]);
        assert!(values.many("z").is_empty());
    }
}

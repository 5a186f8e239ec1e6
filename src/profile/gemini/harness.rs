//! Gemini CLI as one harness of the registry (`profile::HARNESSES`): its
//! flags, its inputs resolved from the environment and those flags, and
//! what check judges it by.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{Input, candidate_names, load};
use crate::env::Env;
use crate::profile::check::Harness;
use crate::profile::registry::{
    Definition, Flag, FlagKind, FlagValues, Profile, dir_setting, home, var_path,
};
use crate::profile::{FileEntry, HarnessReport, Tier, ValueOrigin};

/// Gemini CLI's handle in the registry.
pub const PROFILE: Profile = Profile::new(&Gemini);

/// The gemini harness.
#[derive(Debug)]
pub struct Gemini;

const FLAGS: &[Flag] = &[
    Flag {
        long: "context-filename",
        value_name: Some("A,B"),
        help: "Gemini CLI's context file names [default: settings context.fileName, else GEMINI.md]",
        kind: FlagKind::List,
    },
    Flag {
        long: "memory-boundary-markers",
        value_name: Some("A,B"),
        help: "Names marking Gemini CLI's memory boundary [default: settings, else .git]",
        kind: FlagKind::List,
    },
    Flag {
        long: "untrusted",
        value_name: None,
        help: "The workspace is not trusted: no project memory, no workspace settings",
        kind: FlagKind::Switch,
    },
    Flag {
        long: "touch",
        value_name: Some("PATH"),
        help: "A path a Gemini CLI tool touched, for its just-in-time context (repeatable)",
        kind: FlagKind::Repeated,
    },
    Flag {
        long: "model",
        value_name: Some("M"),
        help: "The model, which picks the memory header [default: $GEMINI_MODEL, else settings model.name, else auto]",
        kind: FlagKind::Text,
    },
];

/// The gemini inputs (10.1).
///
/// # Errors
///
/// No home directory when it is needed, an unusable process cwd.
pub fn input(env: &Env, flags: &FlagValues, cwd: &Path) -> Result<Input> {
    let (gh, gh_origin) = dir_setting(env, None, "GEMINI_CLI_HOME", || home(env))?;
    Ok(Input {
        cwd: cwd.to_path_buf(),
        gh,
        gh_origin,
        system_settings: var_path(env, "GEMINI_CLI_SYSTEM_SETTINGS_PATH")?
            .unwrap_or_else(|| PathBuf::from("/etc/gemini-cli/settings.json")),
        system_defaults: var_path(env, "GEMINI_CLI_SYSTEM_DEFAULTS_PATH")?,
        trusted: !flags.switch("untrusted"),
        file_name: flags.list("context-filename"),
        markers: flags.list("memory-boundary-markers"),
        touches: flags.many("touch"),
        model: match (flags.text("model"), env.vars.nonempty("GEMINI_MODEL")) {
            (Some(m), _) => Some((m.to_owned(), ValueOrigin::Flag)),
            (None, Some(m)) => Some((m.to_owned(), ValueOrigin::Env("GEMINI_MODEL".to_owned()))),
            (None, None) => None,
        },
        vars: env.vars.clone(),
    })
}

impl Definition for Gemini {
    fn name(&self) -> &'static str {
        "gemini"
    }
    fn about(&self) -> &'static str {
        "Google Gemini CLI (exact)"
    }
    fn title(&self) -> &'static str {
        "Google Gemini CLI"
    }
    fn heading(&self) -> &'static str {
        "gemini settings"
    }
    fn flags(&self) -> &'static [Flag] {
        FLAGS
    }
    fn instead(&self, dsh_flag: &str) -> Option<&'static str> {
        match dsh_flag {
            "--candidates" => Some("; gemini's file names are --context-filename"),
            "--root-markers" => Some("; gemini's root markers are --memory-boundary-markers"),
            _ => None,
        }
    }
    fn load(&self, env: &Env, flags: &FlagValues, cwd: &Path) -> Result<HarnessReport> {
        load(&input(env, flags, cwd)?)
    }
    fn check(&self, env: &Env, flags: &FlagValues, top: &Path) -> Result<Option<Box<dyn Harness>>> {
        let input = input(env, flags, top)?;
        let names = crate::profile::check::last_names(candidate_names(&input)?);
        Ok(Some(Box::new(Check { input, names })))
    }
}

/// What check judges gemini by.
struct Check {
    input: Input,
    names: Vec<String>,
}

impl Harness for Check {
    fn profile(&self) -> Profile {
        PROFILE
    }
    fn names(&self) -> &[String] {
        &self.names
    }
    fn config_names(&self) -> &[&'static str] {
        &[".gemini/settings.json"]
    }
    fn is_global(&self, _: &str, entry: &FileEntry) -> bool {
        entry.tier == Some(Tier::Global)
    }
    fn load(&self, dir: &Path) -> Result<HarnessReport> {
        load(&Input {
            cwd: dir.to_path_buf(),
            ..self.input.clone()
        })
    }
}

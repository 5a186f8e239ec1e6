//! Codex as one harness of the registry (`profile::HARNESSES`): its flags,
//! its inputs resolved from the environment and those flags, and what
//! check judges it by.

use std::path::Path;

use anyhow::Result;

use super::{Flags, Input, candidate_names, load};
use crate::env::Env;
use crate::profile::check::Harness;
use crate::profile::registry::{
    Definition, Flag, FlagKind, FlagValues, Profile, dir_setting, home,
};
use crate::profile::{FileEntry, HarnessReport, Status};

/// Codex's handle in the registry.
pub const PROFILE: Profile = Profile::new(&Codex);

/// The codex harness.
#[derive(Debug)]
pub struct Codex;

const FLAGS: &[Flag] = &[
    Flag {
        long: "codex-home",
        value_name: Some("DIR"),
        help: "The Codex home [default: $CODEX_HOME if non-empty, else ~/.codex]",
        kind: FlagKind::Path,
    },
    Flag {
        long: "project-doc-max-bytes",
        value_name: Some("N"),
        help: "Byte budget of Codex's project docs; 0 disables them [default: config.toml, else 32768]",
        kind: FlagKind::Number,
    },
    Flag {
        long: "project-doc-fallback-filenames",
        value_name: Some("A,B"),
        help: "Names Codex tries after AGENTS.md, comma separated [default: config.toml, else none]",
        kind: FlagKind::List,
    },
    Flag {
        long: "project-root-markers",
        value_name: Some("A,B"),
        help: "Names marking Codex's project root [default: config.toml, else .git]",
        kind: FlagKind::List,
    },
];

/// The codex inputs (10.1).
///
/// # Errors
///
/// No home directory when it is needed, an unusable process cwd.
pub fn input(env: &Env, flags: &FlagValues, cwd: &Path) -> Result<Input> {
    let (home, home_origin) = dir_setting(env, flags.path("codex-home"), "CODEX_HOME", || {
        Ok(home(env)?.join(".codex"))
    })?;
    Ok(Input {
        cwd: cwd.to_path_buf(),
        home,
        home_origin,
        flags: Flags {
            max_bytes: flags.number("project-doc-max-bytes"),
            fallbacks: flags.list("project-doc-fallback-filenames"),
            markers: flags.list("project-root-markers"),
        },
    })
}

impl Definition for Codex {
    fn name(&self) -> &'static str {
        "codex"
    }
    fn about(&self) -> &'static str {
        "OpenAI Codex CLI (exact)"
    }
    fn title(&self) -> &'static str {
        "OpenAI Codex CLI"
    }
    fn heading(&self) -> &'static str {
        "codex settings"
    }
    fn flags(&self) -> &'static [Flag] {
        FLAGS
    }
    fn instead(&self, dsh_flag: &str) -> Option<&'static str> {
        match dsh_flag {
            "--max-bytes" => Some("; codex's byte budget is --project-doc-max-bytes"),
            "--candidates" => Some("; codex's extra names are --project-doc-fallback-filenames"),
            "--root-markers" => Some("; codex's root markers are --project-root-markers"),
            _ => None,
        }
    }
    /// `codex -C DIR` keeps DIR as written; every other launch (and `cd
    /// DIR && codex`) sees the real path.
    fn physical_cwd(&self, cwd_as_given: bool) -> bool {
        !cwd_as_given
    }
    fn status_reason(&self, status: Status) -> Option<&'static str> {
        match status {
            Status::Truncated => Some("codex cuts it silently to the bytes left"),
            Status::Shadowed => Some("codex loads one file per directory"),
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

/// What check judges codex by.
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
        &[".codex/config.toml"]
    }
    fn is_global(&self, path: &str, _: &FileEntry) -> bool {
        Path::new(path).starts_with(&self.input.home)
    }
    fn budget_setting(&self) -> Option<&'static str> {
        Some(super::BUDGET_SETTING)
    }
    fn load(&self, dir: &Path) -> Result<HarnessReport> {
        load(&Input {
            cwd: dir.to_path_buf(),
            ..self.input.clone()
        })
    }
}

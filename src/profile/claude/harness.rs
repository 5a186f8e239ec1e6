//! Claude Code as one harness of the registry (`profile::HARNESSES`): its
//! flags, its inputs resolved from the environment and those flags, and
//! what check judges it by.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{CANDIDATES, Input, MANAGED_DIR, MemoryType, load};
use crate::env::Env;
use crate::profile::check::Harness;
use crate::profile::registry::{Definition, Flag, FlagKind, FlagValues, Profile, home};
use crate::profile::{FileEntry, HarnessReport, Status, ValueOrigin};

/// Claude Code's handle in the registry.
pub const PROFILE: Profile = Profile::new(&Claude);

/// The claude harness.
#[derive(Debug)]
pub struct Claude;

const FLAGS: &[Flag] = &[Flag {
    long: "claude-config-dir",
    value_name: Some("DIR"),
    help: "Claude Code's config directory [default: $CLAUDE_CONFIG_DIR if non-empty, else ~/.claude]",
    kind: FlagKind::Path,
}];

/// The claude inputs (10.1).
///
/// # Errors
///
/// No home directory, an unusable process cwd.
pub fn input(env: &Env, flags: &FlagValues, cwd: &Path) -> Result<Input> {
    let home = home(env)?;
    // The variable as set, empty included: Claude Code joins it as written and
    // resolves it against its cwd (real agent: `cl-src-config-dir-empty-project`).
    let (config_dir, config_dir_origin) = match (
        flags.path("claude-config-dir"),
        env.vars.get("CLAUDE_CONFIG_DIR"),
    ) {
        (Some(flag), _) => (env.absolute(flag)?, ValueOrigin::Flag),
        (None, Some(v)) => (
            PathBuf::from(v),
            ValueOrigin::Env("CLAUDE_CONFIG_DIR".to_owned()),
        ),
        (None, None) => (home.join(".claude"), ValueOrigin::Default),
    };
    Ok(Input {
        cwd: cwd.to_path_buf(),
        home,
        config_dir,
        config_dir_origin,
        disable: env
            .vars
            .get("CLAUDE_CODE_DISABLE_CLAUDE_MDS")
            .map(str::to_owned),
        managed_dir: PathBuf::from(MANAGED_DIR),
    })
}

impl Definition for Claude {
    fn name(&self) -> &'static str {
        "claude"
    }
    fn about(&self) -> &'static str {
        "Claude Code 2.1.332 (exact)"
    }
    fn title(&self) -> &'static str {
        "Claude Code"
    }
    fn heading(&self) -> &'static str {
        "claude settings"
    }
    fn flags(&self) -> &'static [Flag] {
        FLAGS
    }
    fn status_reason(&self, status: Status) -> Option<&'static str> {
        match status {
            Status::Duplicate => Some(""),
            Status::Empty => Some(
                "nothing left after frontmatter, block comments and whitespace; its imports are not read",
            ),
            _ => None,
        }
    }
    fn skips_files(&self) -> bool {
        true
    }
    fn load(&self, env: &Env, flags: &FlagValues, cwd: &Path) -> Result<HarnessReport> {
        Ok(load(&input(env, flags, cwd)?))
    }
    fn check(&self, env: &Env, flags: &FlagValues, top: &Path) -> Result<Option<Box<dyn Harness>>> {
        let input = input(env, flags, top)?;
        let names = crate::profile::check::last_names(CANDIDATES.map(str::to_owned));
        Ok(Some(Box::new(Check { input, names })))
    }
}

/// What check judges claude by.
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
        &[
            ".claude/CLAUDE.md",
            ".claude/settings.json",
            ".claude/settings.local.json",
        ]
    }
    /// Claude Code never reads a file under `/dev`, `/proc` or `/sys`.
    fn reads_under_dev(&self) -> bool {
        false
    }
    /// The user's and the organisation's memory files (and what they
    /// import) are not the repository's.
    fn is_global(&self, _: &str, entry: &FileEntry) -> bool {
        matches!(entry.memory, Some(MemoryType::User | MemoryType::Managed))
    }
    fn load(&self, dir: &Path) -> Result<HarnessReport> {
        Ok(load(&Input {
            cwd: dir.to_path_buf(),
            ..self.input.clone()
        }))
    }
}

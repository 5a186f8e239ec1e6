//! opencode as one harness of the registry (`profile::HARNESSES`): its
//! flags, its inputs resolved from the environment and those flags, and
//! what check judges it by.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{Input, load};
use crate::env::Env;
use crate::profile::check::Harness;
use crate::profile::registry::{Definition, Flag, FlagKind, FlagValues, Profile, home, var_path};
use crate::profile::{FileEntry, HarnessReport, Status, ValueOrigin};

/// opencode's handle in the registry.
pub const PROFILE: Profile = Profile::new(&Opencode);

/// The opencode harness.
#[derive(Debug)]
pub struct Opencode;

const FLAGS: &[Flag] = &[
    Flag {
        long: "opencode-config-dir",
        value_name: Some("DIR"),
        help: "opencode's config directory, as OPENCODE_CONFIG_DIR: its AGENTS.md replaces the global one, its config is the last layer [default: $OPENCODE_CONFIG_DIR]",
        kind: FlagKind::Path,
    },
    Flag {
        long: "instructions",
        value_name: Some("A,B"),
        help: "opencode's instruction entries, comma separated; replaces the config files' [default: config]",
        kind: FlagKind::List,
    },
    Flag {
        long: "disable-claude-code-prompt",
        value_name: None,
        help: "No CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true)",
        kind: FlagKind::Switch,
    },
    Flag {
        long: "disable-project-config",
        value_name: None,
        help: "No project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true)",
        kind: FlagKind::Switch,
    },
];

/// Whether an opencode switch is on: the flag, else the variable equal to
/// `1` or, lower-cased, `true`.
fn switch(env: &Env, flag: bool, var: &str) -> (bool, ValueOrigin) {
    if flag {
        return (true, ValueOrigin::Flag);
    }
    match env.vars.get(var) {
        Some(v) if v == "1" || v.to_lowercase() == "true" => {
            (true, ValueOrigin::Env(var.to_owned()))
        }
        _ => (false, ValueOrigin::Default),
    }
}

/// The opencode inputs (10.1).
///
/// # Errors
///
/// No home directory, an unusable process cwd.
pub fn input(env: &Env, flags: &FlagValues, cwd: &Path) -> Result<Input> {
    let home = home(env)?;
    let (xdg_dir, xdg_dir_origin) = match env.vars.nonempty("XDG_CONFIG_HOME") {
        Some(xdg) => (
            env.absolute(Path::new(xdg))?.join("opencode"),
            ValueOrigin::Env("XDG_CONFIG_HOME".to_owned()),
        ),
        None => (home.join(".config/opencode"), ValueOrigin::Default),
    };
    let config_dir = match (
        flags.path("opencode-config-dir"),
        env.vars.nonempty("OPENCODE_CONFIG_DIR"),
    ) {
        (Some(flag), _) => Some((env.absolute(flag)?, ValueOrigin::Flag)),
        (None, Some(dir)) => Some((
            env.absolute(Path::new(dir))?,
            ValueOrigin::Env("OPENCODE_CONFIG_DIR".to_owned()),
        )),
        (None, None) => None,
    };
    let (disable_claude, disable_claude_origin) = switch(
        env,
        flags.switch("disable-claude-code-prompt"),
        "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT",
    );
    let (disable_project, disable_project_origin) = switch(
        env,
        flags.switch("disable-project-config"),
        "OPENCODE_DISABLE_PROJECT_CONFIG",
    );
    Ok(Input {
        cwd: cwd.to_path_buf(),
        home,
        xdg_dir,
        xdg_dir_origin,
        config_dir,
        disable_claude,
        disable_claude_origin,
        disable_project,
        disable_project_origin,
        instructions: flags.list("instructions"),
        extra_config: var_path(env, "OPENCODE_CONFIG")?,
        config_content: env.vars.nonempty("OPENCODE_CONFIG_CONTENT").is_some(),
        vars: env.vars.clone(),
    })
}

impl Definition for Opencode {
    fn name(&self) -> &'static str {
        "opencode"
    }
    fn about(&self) -> &'static str {
        "opencode, V1 engine (exact)"
    }
    fn title(&self) -> &'static str {
        "opencode"
    }
    fn heading(&self) -> &'static str {
        "opencode settings"
    }
    fn flags(&self) -> &'static [Flag] {
        FLAGS
    }
    fn status_reason(&self, status: Status) -> Option<&'static str> {
        match status {
            Status::Shadowed => Some("an earlier name matched in the chain"),
            _ => None,
        }
    }
    fn load(&self, env: &Env, flags: &FlagValues, cwd: &Path) -> Result<HarnessReport> {
        load(&input(env, flags, cwd)?)
    }
    fn check(&self, env: &Env, flags: &FlagValues, top: &Path) -> Result<Option<Box<dyn Harness>>> {
        let input = input(env, flags, top)?;
        let names = crate::profile::check::last_names(
            ["AGENTS.md", "CLAUDE.md", "CONTEXT.md"].map(str::to_owned),
        );
        let mut globals = vec![
            input.xdg_dir.clone(),
            input.home.join(".opencode"),
            input.home.join(".claude"),
        ];
        globals.extend(input.config_dir.as_ref().map(|(d, _)| d.clone()));
        Ok(Some(Box::new(Check {
            input,
            names,
            globals,
        })))
    }
}

/// What check judges opencode by.
struct Check {
    input: Input,
    names: Vec<String>,
    /// The user-level files it reads: its config directories (XDG,
    /// `~/.opencode`, `$OPENCODE_CONFIG_DIR`), `~/.claude`.
    globals: Vec<PathBuf>,
}

impl Harness for Check {
    fn profile(&self) -> Profile {
        PROFILE
    }
    fn names(&self) -> &[String] {
        &self.names
    }
    fn config_names(&self) -> &[&'static str] {
        &["opencode.json", "opencode.jsonc"]
    }
    fn is_global(&self, path: &str, _: &FileEntry) -> bool {
        self.globals.iter().any(|g| Path::new(path).starts_with(g))
    }
    fn load(&self, dir: &Path) -> Result<HarnessReport> {
        load(&Input {
            cwd: dir.to_path_buf(),
            ..self.input.clone()
        })
    }
}

//! The harnesses `check` judges besides dsh: one [`Entry`] each, its
//! inputs resolved once from the flags and the environment. A new harness
//! plugs in with one entry in [`HARNESSES`] and a constructor (claude did).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::cli::ProfileArgs;
use crate::env::Env;
use crate::profile::check::Harness;
use crate::profile::{FileEntry, HarnessReport, Profile, Tier, claude, codex, gemini, opencode};

/// A harness of `check` besides dsh.
pub(crate) struct Entry {
    pub profile: Profile,
    /// Its inputs for the tree at `top` (the cwd of each load replaces it).
    pub new: fn(&Env, &ProfileArgs, &Path) -> Result<Box<dyn Harness>>,
}

/// Every harness `check --profile all` judges after dsh, in this order.
pub(crate) const HARNESSES: &[Entry] = &[
    Entry {
        profile: Profile::Codex,
        new: Codex::boxed,
    },
    Entry {
        profile: Profile::Gemini,
        new: Gemini::boxed,
    },
    Entry {
        profile: Profile::Opencode,
        new: Opencode::boxed,
    },
    Entry {
        profile: Profile::Claude,
        new: Claude::boxed,
    },
];

/// The entry of `profile`, when `check` judges it.
pub(crate) fn entry(profile: Profile) -> Option<&'static Entry> {
    HARNESSES.iter().find(|e| e.profile == profile)
}

/// The last component of a configured name (`docs/X.md` is looked for as
/// `X.md` in listings).
fn last_component(name: &str) -> String {
    name.rsplit('/')
        .find(|s| !s.is_empty())
        .unwrap_or(name)
        .to_owned()
}

fn names(all: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = HashSet::new();
    all.into_iter()
        .map(|n| last_component(&n))
        .filter(|n| seen.insert(n.clone()))
        .collect()
}

struct Codex {
    input: codex::Input,
    names: Vec<String>,
}

impl Codex {
    fn boxed(env: &Env, args: &ProfileArgs, top: &Path) -> Result<Box<dyn Harness>> {
        let input = super::codex_input(env, args, top)?;
        let names = names(codex::candidate_names(&input)?);
        Ok(Box::new(Codex { input, names }))
    }
}

impl Harness for Codex {
    fn profile(&self) -> Profile {
        Profile::Codex
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
        Some("project_doc_max_bytes")
    }
    fn load(&self, dir: &Path) -> Result<HarnessReport> {
        codex::load(&codex::Input {
            cwd: dir.to_path_buf(),
            ..self.input.clone()
        })
    }
}

struct Gemini {
    input: gemini::Input,
    names: Vec<String>,
}

impl Gemini {
    fn boxed(env: &Env, args: &ProfileArgs, top: &Path) -> Result<Box<dyn Harness>> {
        let input = super::gemini_input(env, args, top)?;
        let names = names(gemini::candidate_names(&input)?);
        Ok(Box::new(Gemini { input, names }))
    }
}

impl Harness for Gemini {
    fn profile(&self) -> Profile {
        Profile::Gemini
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
        gemini::load(&gemini::Input {
            cwd: dir.to_path_buf(),
            ..self.input.clone()
        })
    }
}

struct Opencode {
    input: opencode::Input,
    names: Vec<String>,
    /// The user-level files it reads: its config directories (XDG,
    /// `~/.opencode`, `$OPENCODE_CONFIG_DIR`), `~/.claude`.
    globals: Vec<PathBuf>,
}

impl Opencode {
    fn boxed(env: &Env, args: &ProfileArgs, top: &Path) -> Result<Box<dyn Harness>> {
        let input = super::opencode_input(env, args, top)?;
        let names = names(["AGENTS.md", "CLAUDE.md", "CONTEXT.md"].map(str::to_owned));
        let mut globals = vec![
            input.xdg_dir.clone(),
            input.home.join(".opencode"),
            input.home.join(".claude"),
        ];
        globals.extend(input.config_dir.as_ref().map(|(d, _)| d.clone()));
        Ok(Box::new(Opencode {
            input,
            names,
            globals,
        }))
    }
}

impl Harness for Opencode {
    fn profile(&self) -> Profile {
        Profile::Opencode
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
        opencode::load(&opencode::Input {
            cwd: dir.to_path_buf(),
            ..self.input.clone()
        })
    }
}

struct Claude {
    input: claude::Input,
    names: Vec<String>,
}

impl Claude {
    fn boxed(env: &Env, args: &ProfileArgs, top: &Path) -> Result<Box<dyn Harness>> {
        let input = super::claude_input(env, args, top)?;
        let names = names(claude::CANDIDATES.map(str::to_owned));
        Ok(Box::new(Claude { input, names }))
    }
}

impl Harness for Claude {
    fn profile(&self) -> Profile {
        Profile::Claude
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
    /// The user's and the organisation's memory files (and what they
    /// import) are not the repository's.
    fn is_global(&self, _: &str, entry: &FileEntry) -> bool {
        matches!(
            entry.memory,
            Some(claude::MemoryType::User | claude::MemoryType::Managed)
        )
    }
    fn load(&self, dir: &Path) -> Result<HarnessReport> {
        Ok(claude::load(&claude::Input {
            cwd: dir.to_path_buf(),
            ..self.input.clone()
        }))
    }
}

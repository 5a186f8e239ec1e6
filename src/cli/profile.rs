//! `--profile`: the harness a command shows, which commands take which,
//! and the settings of the non-dsh harnesses (`--help-profile P`).
#![allow(clippy::doc_markdown)]

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

use super::heading;
use crate::profile::Profile;

/// The harness whose context a command shows (SPEC 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProfileName {
    /// DeepSeek Harness, the default.
    Dsh,
    /// OpenAI Codex CLI (exact).
    Codex,
    /// Google Gemini CLI (exact).
    Gemini,
    /// opencode, V1 engine (exact).
    Opencode,
    /// Claude Code 2.1.332 (exact).
    Claude,
    /// GitHub Copilot CLI: documented behaviour, not byte-exact.
    Copilot,
    /// dsh and every harness with a check: codex, gemini, opencode and claude (check only).
    All,
}

impl ProfileName {
    /// The harness it names (none for dsh and `all`).
    #[must_use]
    pub fn harness(self) -> Option<Profile> {
        match self {
            ProfileName::Codex => Some(Profile::Codex),
            ProfileName::Gemini => Some(Profile::Gemini),
            ProfileName::Opencode => Some(Profile::Opencode),
            ProfileName::Claude => Some(Profile::Claude),
            ProfileName::Copilot => Some(Profile::Copilot),
            ProfileName::Dsh | ProfileName::All => None,
        }
    }

    /// Its `--profile` value (a harness's is [`Profile::name`]).
    #[must_use]
    pub fn name(self) -> &'static str {
        match (self, self.harness()) {
            (_, Some(harness)) => harness.name(),
            (ProfileName::All, None) => "all",
            (_, None) => "dsh",
        }
    }
}

impl From<Profile> for ProfileName {
    fn from(harness: Profile) -> Self {
        match harness {
            Profile::Codex => ProfileName::Codex,
            Profile::Gemini => ProfileName::Gemini,
            Profile::Opencode => ProfileName::Opencode,
            Profile::Claude => ProfileName::Claude,
            Profile::Copilot => ProfileName::Copilot,
        }
    }
}

/// The profiles `render --profile` takes.
pub const RENDER_PROFILES: &[ProfileName] = &[
    ProfileName::Dsh,
    ProfileName::Codex,
    ProfileName::Gemini,
    ProfileName::Opencode,
    ProfileName::Claude,
];

/// The profiles `explain --profile` takes.
pub const EXPLAIN_PROFILES: &[ProfileName] = &[
    ProfileName::Dsh,
    ProfileName::Codex,
    ProfileName::Gemini,
    ProfileName::Opencode,
    ProfileName::Claude,
    ProfileName::Copilot,
];

/// The profiles `check --profile` takes.
pub const CHECK_PROFILES: &[ProfileName] = &[
    ProfileName::Dsh,
    ProfileName::Codex,
    ProfileName::Gemini,
    ProfileName::Opencode,
    ProfileName::Claude,
    ProfileName::All,
];

/// The profiles `diff --profile` takes: diff replays dsh logs.
pub const DIFF_PROFILES: &[ProfileName] = &[ProfileName::Dsh];

/// `--profile` of a command that takes the profiles `offered`: help and
/// completions offer only those, while every name still parses, so that
/// the usage error says why one does not apply (`--profile claude is
/// documented behaviour, not byte-exact: it works with explain only`).
#[must_use]
pub fn profile_parser(
    offered: &'static [ProfileName],
) -> impl TypedValueParser<Value = ProfileName> {
    let values = ProfileName::value_variants().iter().filter_map(|p| {
        let value = p.to_possible_value()?;
        Some(value.hide(!offered.contains(p)))
    });
    ListAware {
        inner: PossibleValuesParser::new(values)
            .try_map(|name| ProfileName::from_str(&name, false)),
        lists: offered.contains(&ProfileName::All),
    }
}

/// [`profile_parser`]'s parser: a list (`dsh,codex`) given to a command
/// that takes one harness says so, instead of clap's "invalid value".
#[derive(Clone)]
struct ListAware<P> {
    inner: P,
    /// The command splits lists itself (check: `value_delimiter`).
    lists: bool,
}

impl<P: TypedValueParser<Value = ProfileName>> TypedValueParser for ListAware<P> {
    type Value = ProfileName;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<ProfileName, clap::Error> {
        if !self.lists && value.to_string_lossy().contains(',') {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                "--profile takes one harness here; a list (dsh,codex) works with check only\n",
            )
            .with_cmd(cmd));
        }
        self.inner.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        self.inner.possible_values()
    }
}

/// The profiles that have settings of their own (`--help-profile P`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SettingsProfile {
    /// OpenAI Codex CLI.
    Codex,
    /// Google Gemini CLI.
    Gemini,
    /// opencode.
    Opencode,
    /// Claude Code.
    Claude,
}

impl SettingsProfile {
    /// The help heading its settings sit under.
    #[must_use]
    pub fn heading(self) -> &'static str {
        match self {
            SettingsProfile::Codex => heading::CODEX,
            SettingsProfile::Gemini => heading::GEMINI,
            SettingsProfile::Opencode => heading::OPENCODE,
            SettingsProfile::Claude => heading::CLAUDE,
        }
    }

    /// The harness whose settings these are.
    #[must_use]
    pub fn harness(self) -> Profile {
        match self {
            SettingsProfile::Codex => Profile::Codex,
            SettingsProfile::Gemini => Profile::Gemini,
            SettingsProfile::Opencode => Profile::Opencode,
            SettingsProfile::Claude => Profile::Claude,
        }
    }

    /// Its `--profile` value.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.harness().name()
    }
}

/// The settings of the non-dsh profiles (SPEC 10.1), each under its
/// profile's heading: hidden from `--help`, shown by `--help-profile P`
/// ([`profile_help`]), the man pages and the completions.
#[derive(Debug, Clone, Default, Args)]
pub struct ProfileArgs {
    /// Print the settings of --profile P (codex, gemini, opencode, claude) and exit.
    #[arg(long, value_enum, value_name = "P", hide_possible_values = true, help_heading = heading::HARNESS)]
    pub help_profile: Option<SettingsProfile>,

    /// The Codex home [default: $CODEX_HOME if non-empty, else ~/.codex].
    #[arg(long, value_name = "DIR", hide = true, help_heading = heading::CODEX)]
    pub codex_home: Option<PathBuf>,

    /// Byte budget of Codex's project docs; 0 disables them [default: config.toml, else 32768].
    #[arg(long, value_name = "N", hide = true, help_heading = heading::CODEX)]
    pub project_doc_max_bytes: Option<u64>,

    /// Names Codex tries after AGENTS.md, comma separated [default: config.toml, else none].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true, hide = true, help_heading = heading::CODEX)]
    pub project_doc_fallback_filenames: Option<String>,

    /// Names marking Codex's project root [default: config.toml, else .git].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true, hide = true, help_heading = heading::CODEX)]
    pub project_root_markers: Option<String>,

    /// Gemini CLI's context file names [default: settings context.fileName, else GEMINI.md].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true, hide = true, help_heading = heading::GEMINI)]
    pub context_filename: Option<String>,

    /// Names marking Gemini CLI's memory boundary [default: settings, else .git].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true, hide = true, help_heading = heading::GEMINI)]
    pub memory_boundary_markers: Option<String>,

    /// The workspace is not trusted: no project memory, no workspace settings.
    #[arg(long, hide = true, help_heading = heading::GEMINI)]
    pub untrusted: bool,

    /// A path a Gemini CLI tool touched, for its just-in-time context (repeatable).
    #[arg(long, value_name = "PATH", hide = true, help_heading = heading::GEMINI)]
    pub touch: Vec<String>,

    /// The model, which picks the memory header [default: $GEMINI_MODEL, else settings model.name, else auto].
    #[arg(long, value_name = "M", hide = true, help_heading = heading::GEMINI)]
    pub model: Option<String>,

    /// opencode's config directory, as OPENCODE_CONFIG_DIR: its AGENTS.md replaces the global one, its config is the last layer [default: $OPENCODE_CONFIG_DIR].
    #[arg(long, value_name = "DIR", hide = true, help_heading = heading::OPENCODE)]
    pub opencode_config_dir: Option<PathBuf>,

    /// opencode's instruction entries, comma separated; replaces the config files' [default: config].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true, hide = true, help_heading = heading::OPENCODE)]
    pub instructions: Option<String>,

    /// No CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true).
    #[arg(long, hide = true, help_heading = heading::OPENCODE)]
    pub disable_claude_code_prompt: bool,

    /// No project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true).
    #[arg(long, hide = true, help_heading = heading::OPENCODE)]
    pub disable_project_config: bool,

    /// --cwd handed over as written, as `codex -C DIR` (links kept) [default: as `cd DIR && agent`, links resolved].
    #[arg(long, help_heading = heading::HARNESS)]
    pub cwd_as_given: bool,

    /// Claude Code's config directory [default: $CLAUDE_CONFIG_DIR if non-empty, else ~/.claude].
    #[arg(long, value_name = "DIR", hide = true, help_heading = heading::CLAUDE)]
    pub claude_config_dir: Option<PathBuf>,
}

/// The help of `agentctx COMMAND --help-profile P`: the settings of one
/// profile, alone, as `--help` would show them were they not hidden; `root`
/// is the whole command line (`app` owns it).
#[must_use]
pub fn profile_help(
    mut root: clap::Command,
    command: &str,
    profile: SettingsProfile,
) -> clap::builder::StyledStr {
    let name = profile.name();
    let Some(sub) = root.find_subcommand_mut(command) else {
        return clap::builder::StyledStr::new();
    };
    let mut page = sub
        .clone()
        .about(format!(
            "The settings of --profile {name}, for agentctx {command}: each applies only with --profile {name}."
        ))
        .long_about(None)
        .override_usage(format!("agentctx {command} --profile {name} [OPTIONS]"))
        .after_help(None::<&str>)
        .after_long_help(format!(
            "`agentctx {command} --help` shows every other option."
        ))
        .disable_help_flag(true)
        .max_term_width(100);
    let ids: Vec<clap::Id> = page.get_arguments().map(|a| a.get_id().clone()).collect();
    for id in ids {
        page = page.mut_arg(id, |a| {
            let mine = a.get_help_heading() == Some(profile.heading());
            a.hide(!mine)
        });
    }
    page.render_long_help()
}

impl ProfileArgs {
    /// The profile flags given, each with the profile it belongs to.
    #[must_use]
    pub fn given(&self) -> Vec<(&'static str, ProfileName)> {
        use ProfileName::{Claude, Codex, Gemini, Opencode};
        [
            ("--codex-home", Codex, self.codex_home.is_some()),
            (
                "--project-doc-max-bytes",
                Codex,
                self.project_doc_max_bytes.is_some(),
            ),
            (
                "--project-doc-fallback-filenames",
                Codex,
                self.project_doc_fallback_filenames.is_some(),
            ),
            (
                "--project-root-markers",
                Codex,
                self.project_root_markers.is_some(),
            ),
            (
                "--context-filename",
                Gemini,
                self.context_filename.is_some(),
            ),
            (
                "--memory-boundary-markers",
                Gemini,
                self.memory_boundary_markers.is_some(),
            ),
            ("--untrusted", Gemini, self.untrusted),
            ("--touch", Gemini, !self.touch.is_empty()),
            ("--model", Gemini, self.model.is_some()),
            (
                "--opencode-config-dir",
                Opencode,
                self.opencode_config_dir.is_some(),
            ),
            ("--instructions", Opencode, self.instructions.is_some()),
            (
                "--disable-claude-code-prompt",
                Opencode,
                self.disable_claude_code_prompt,
            ),
            (
                "--disable-project-config",
                Opencode,
                self.disable_project_config,
            ),
            (
                "--claude-config-dir",
                Claude,
                self.claude_config_dir.is_some(),
            ),
        ]
        .into_iter()
        .filter_map(|(name, profile, given)| given.then_some((name, profile)))
        .collect()
    }
}

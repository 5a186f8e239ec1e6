//! The flag groups every command shares (SPEC 1), as clap derive types, and
//! the manual text of the help and man pages. A leaf: it names only the
//! plain settings types; `app` assembles the whole command line.
// The doc comments of the flags are their --help text, read by people:
// environment variables and names stay unquoted there.
#![allow(clippy::doc_markdown)]

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

use crate::settings::{Overrides, Precedence, SettingsFrom};

/// agentctx's own examples and exit codes (the short help of every
/// command ends with these exit codes).
pub const MANUAL: Manual = Manual {
    examples: &[
        ("render", "the baseline a new session here gets"),
        ("explain", "every decision, for people"),
        (
            "diff --session latest",
            "what the newest dsh session gets on resume",
        ),
        ("check --format github", "the CI gate"),
        ("render --profile codex", "what Codex loads here"),
    ],
    exit: &[
        (0, "success"),
        (1, "a finding (render --check, diff --exit-code, check)"),
        (2, "bad usage or unusable input"),
    ],
};

/// A subcommand's examples and exit codes: the end of its long help, and
/// its man page's EXAMPLES and EXIT STATUS sections.
#[derive(Debug)]
pub struct Manual {
    /// (command line, what it shows; may be empty).
    pub examples: &'static [(&'static str, &'static str)],
    /// (exit code, when).
    pub exit: &'static [(u8, &'static str)],
}

impl Manual {
    /// The text after the options in `--help`: every example, each
    /// comment on a line of its own above its command (so that at 80
    /// columns no comment wraps onto a line that reads like a command),
    /// then the exit codes.
    #[must_use]
    pub fn help(&self) -> String {
        let mut out = String::from("Examples:\n");
        for (command, what) in self.examples {
            if !what.is_empty() {
                let _ = writeln!(out, "  # {what}");
            }
            let _ = writeln!(out, "  agentctx {command}");
        }
        out.push('\n');
        out.push_str(&self.exit_help());
        out
    }

    /// The text after the options in `-h`: the first example, then the
    /// exit codes.
    #[must_use]
    pub fn short_help(&self) -> String {
        let mut out = self.short_example();
        out.push_str(&self.exit_help());
        out
    }

    /// The first example, its comment above it, and a blank line.
    #[must_use]
    pub fn short_example(&self) -> String {
        let mut out = String::new();
        if let Some((command, what)) = self.examples.first() {
            out.push_str("Example:\n");
            if !what.is_empty() {
                let _ = writeln!(out, "  # {what}");
            }
            let _ = writeln!(out, "  agentctx {command}\n");
        }
        out
    }

    /// The exit codes as the help shows them.
    #[must_use]
    pub fn exit_help(&self) -> String {
        let mut out = String::from("Exit status:");
        for (code, when) in self.exit {
            let _ = write!(out, "\n  {code}  {when}");
        }
        out
    }
}

/// The help headings (issue 27). Every command shows its flags under the
/// same headings, in this order: its own options (with the global ones),
/// then [`SESSION`](heading::SESSION), [`HARNESS`](heading::HARNESS),
/// [`DSH`](heading::DSH), [`OUTPUT`](heading::OUTPUT). A profile's own
/// settings sit under their profile's heading, hidden from `--help` and
/// shown by `--help-profile P` (and in the man pages).
pub mod heading {
    /// Where the session runs and which log it is: `--cwd`, `--log`,
    /// `--session`, `--sessions-root`, `--strict`.
    pub const SESSION: &str = "Session";
    /// Which harness, and which of its generations: `--profile`,
    /// `--help-profile`, `--source-kind`.
    pub const HARNESS: &str = "Harness";
    /// The dsh settings (`ConfigArgs`): the values of dsh's configuration.
    pub const DSH: &str = "dsh settings";
    /// What is printed and the exit status: `--format`, `--check`, ...
    pub const OUTPUT: &str = "Output";
    /// The settings of `--profile codex`.
    pub const CODEX: &str = "codex settings";
    /// The settings of `--profile gemini`.
    pub const GEMINI: &str = "gemini settings";
    /// The settings of `--profile opencode`.
    pub const OPENCODE: &str = "opencode settings";
    /// The settings of `--profile claude`.
    pub const CLAUDE: &str = "claude settings";
}

/// The environment variables agentctx reads (the man pages' ENVIRONMENT).
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "DSH_HOME",
        "dsh's home when it is not blank [default: ~/.dsh]: its configuration layers (cordis.patch.yml, profiles/, .agent-presets/), its sessions, and the user-global AGENTS.md unless --dsh-home or the loader's dshHome says otherwise",
    ),
    (
        "AGENTCTX_DSH_PROFILE",
        "the dsh profile whose configuration decides the settings when --dsh-profile is not given and it is not empty (headless, web or a custom one)",
    ),
    (
        "HOME",
        "the home directory: ~ in paths, the default dsh home ~/.dsh",
    ),
    (
        "NO_COLOR",
        "set and not empty: no colour unless --color or CLICOLOR_FORCE asks for it",
    ),
    (
        "CLICOLOR_FORCE",
        "set, not empty and not 0: colour even when the stream is not a terminal",
    ),
    (
        "CODEX_HOME",
        "--profile codex: the Codex home when --codex-home is not given and it is not empty [default: ~/.codex]",
    ),
    (
        "GEMINI_CLI_HOME",
        "--profile gemini: where Gemini CLI keeps its .gemini directory when it is not empty [default: the home directory]",
    ),
    (
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
        "--profile gemini: the system settings file, when not empty",
    ),
    (
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
        "--profile gemini: the system defaults file, when not empty",
    ),
    (
        "GEMINI_MODEL",
        "--profile gemini: the model when --model is not given and it is not empty (it picks the memory header)",
    ),
    (
        "XDG_CONFIG_HOME",
        "--profile opencode: opencode's global config directory is $XDG_CONFIG_HOME/opencode [default: ~/.config/opencode]",
    ),
    (
        "OPENCODE_CONFIG",
        "--profile opencode: one more config file, when not empty",
    ),
    (
        "OPENCODE_CONFIG_DIR",
        "--profile opencode: when not empty and --opencode-config-dir is not given, its AGENTS.md is the global file and its opencode.json(c) the last config layer",
    ),
    (
        "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT",
        "--profile opencode: 1 or true: no CLAUDE.md files, as --disable-claude-code-prompt",
    ),
    (
        "CLAUDE_CONFIG_DIR",
        "--profile claude: Claude Code's config directory when --claude-config-dir is not given and it is not empty [default: ~/.claude]",
    ),
    (
        "OPENCODE_DISABLE_PROJECT_CONFIG",
        "--profile opencode: 1 or true: no project files or project config, as --disable-project-config",
    ),
];

/// The flags every subcommand takes.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// When to colour human-facing output.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, global = true, value_name = "WHEN")]
    pub color: ColorWhen,

    /// Print no warnings on stderr.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

/// When to use colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Colour when the stream is a terminal and NO_COLOR is not set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorWhen {
    /// `Some` when the flag decides (always, never), `None` for auto.
    #[must_use]
    pub fn forced(self) -> Option<bool> {
        match self {
            ColorWhen::Always => Some(true),
            ColorWhen::Never => Some(false),
            ColorWhen::Auto => None,
        }
    }
}

/// Output format of render, diff, explain and sessions; each command
/// describes the two in its own terms ([`format_parser`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `--format text|json` of a command, each value described as that
/// command prints it.
#[must_use]
pub fn format_parser(
    text: &'static str,
    json: &'static str,
) -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new([
        PossibleValue::new("text").help(text),
        PossibleValue::new("json").help(json),
    ])
    .try_map(|name| Format::from_str(&name, false))
}

/// The settings that mirror the harness configuration (shared by every
/// subcommand but completions), under [`heading::DSH`]. A flag that sets a
/// dsh setting belongs here.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = heading::DSH)]
pub struct ConfigArgs {
    /// Home of the user-global AGENTS.md, as the loader's dshHome [default: dsh's configuration, else $DSH_HOME if non-blank, else ~/.dsh].
    #[arg(long, value_name = "DIR")]
    pub dsh_home: Option<String>,

    /// UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536].
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = parse_max_bytes)]
    pub max_bytes: Option<f64>,

    /// Per-file read cap in bytes, at least 1 [default: 1048576].
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_source_bytes: Option<i64>,

    /// Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub candidates: Option<String>,

    /// Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub local_candidates: Option<String>,

    /// Names whose existence marks the project root; empty means none [default: .git].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub root_markers: Option<String>,

    /// How candidates of one directory compete [default: all; with --log, inferred from its scope keys].
    ///
    /// `all` is dsh since 2026-07-22 (9199cd532c): every present candidate
    /// loads. `first` is dsh builds before 2026-07-22: the first present
    /// name of each directory and tier wins.
    #[arg(long, value_enum, value_name = "MODE")]
    pub precedence: Option<PrecedenceArg>,

    /// The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web].
    #[arg(long, value_name = "NAME")]
    pub dsh_profile: Option<String>,

    /// dsh web's agent preset [default: the log's, else agent-presets.default in $DSH_HOME/settings.yaml, else standard].
    #[arg(long, value_name = "ID")]
    pub dsh_preset: Option<String>,

    /// An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order).
    #[arg(long, value_name = "FILE")]
    pub patch: Vec<PathBuf>,

    /// Ignore every layer of dsh's configuration: what dsh ships only.
    #[arg(long)]
    pub no_dsh_config: bool,

    /// Where settings not given as flags come from: dsh's configuration now, or the log's recorded identity [default: config; with --log, log].
    #[arg(long, value_enum, value_name = "FROM")]
    pub settings_from: Option<SettingsFromArg>,
}

/// `--settings-from`: where settings not given as flags come from (CONFIG 11.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SettingsFromArg {
    /// dsh's configuration as it is now (the default, and with --session).
    Config,
    /// The identity the log recorded (the default with --log FILE).
    Log,
}

impl From<SettingsFromArg> for SettingsFrom {
    fn from(s: SettingsFromArg) -> Self {
        match s {
            SettingsFromArg::Config => SettingsFrom::Config,
            SettingsFromArg::Log => SettingsFrom::Log,
        }
    }
}

/// `--max-bytes`: a number as dsh's YAML config writes one (SPEC 1).
fn parse_max_bytes(text: &str) -> Result<f64, String> {
    crate::jsnum::parse(text)
        .ok_or_else(|| "expected a number (65536, 600.5, 1e5, -1, inf or nan)".to_owned())
}

impl ConfigArgs {
    /// The flags as the core takes them.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            dsh_home: self.dsh_home.clone(),
            max_bytes: self.max_bytes,
            max_source_bytes: self.max_source_bytes,
            candidates: self.candidates.as_deref().map(split_list),
            local_candidates: self.local_candidates.as_deref().map(split_list),
            root_markers: self.root_markers.as_deref().map(split_list),
            precedence: self.precedence.map(Precedence::from),
        }
    }
}

/// `--precedence`: how candidates of one directory compete (SPEC 3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PrecedenceArg {
    /// dsh before 2026-07-22: the first present candidate of each directory and tier wins.
    First,
    /// dsh since 2026-07-22 (the default): every present candidate loads; same-content siblings collapse.
    All,
}

impl From<PrecedenceArg> for Precedence {
    fn from(p: PrecedenceArg) -> Self {
        match p {
            PrecedenceArg::First => Precedence::First,
            PrecedenceArg::All => Precedence::All,
        }
    }
}

impl ConfigArgs {
    /// The flags given, by name (each is dsh-only).
    #[must_use]
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--dsh-home", self.dsh_home.is_some()),
            ("--max-bytes", self.max_bytes.is_some()),
            ("--max-source-bytes", self.max_source_bytes.is_some()),
            ("--candidates", self.candidates.is_some()),
            ("--local-candidates", self.local_candidates.is_some()),
            ("--root-markers", self.root_markers.is_some()),
            ("--precedence", self.precedence.is_some()),
            ("--dsh-profile", self.dsh_profile.is_some()),
            ("--dsh-preset", self.dsh_preset.is_some()),
            ("--patch", !self.patch.is_empty()),
            ("--no-dsh-config", self.no_dsh_config),
            ("--settings-from", self.settings_from.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

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

    /// Its `--profile` value.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SettingsProfile::Codex => "codex",
            SettingsProfile::Gemini => "gemini",
            SettingsProfile::Opencode => "opencode",
            SettingsProfile::Claude => "claude",
        }
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

/// Where the session runs: `--cwd`, and an optional log, under
/// [`heading::SESSION`] (the command's `--log` goes there too).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = heading::SESSION)]
pub struct SessionArgs {
    /// The session's working directory [default: the log header's cwd, else the current directory].
    #[arg(long, value_name = "DIR", help_heading = heading::SESSION)]
    pub cwd: Option<PathBuf>,

    /// Parse every log line fully instead of only the lines that can matter.
    #[arg(long, help_heading = heading::SESSION)]
    pub strict: bool,

    /// Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log.
    #[arg(long, value_name = "ID|latest", conflicts_with = "log", value_hint = clap::ValueHint::Other, help_heading = heading::SESSION)]
    pub session: Option<String>,

    /// Where dsh stores session logs [default: $DSH_HOME/sessions].
    #[arg(long, value_name = "DIR", help_heading = heading::SESSION)]
    pub sessions_root: Option<PathBuf>,
}

impl SessionArgs {
    /// The dsh-only session flags given, by name (`--cwd` applies to every
    /// profile).
    #[must_use]
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--strict", self.strict),
            ("--session", self.session.is_some()),
            ("--sessions-root", self.sessions_root.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

/// Splits a list flag on `,` verbatim; an empty value is the empty list.
pub fn split_list(raw: &str) -> Vec<String> {
    if raw.is_empty() {
        Vec::new()
    } else {
        raw.split(',').map(str::to_owned).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_flags_split_verbatim() {
        assert_eq!(split_list(""), Vec::<String>::new());
        assert_eq!(
            split_list(" a,,b"),
            vec![" a".to_owned(), String::new(), "b".to_owned()]
        );
    }
}

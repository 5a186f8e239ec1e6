//! The command line (SPEC 1), as clap derive types. Nothing here does work.
// The doc comments of the flags are their --help text, read by people:
// environment variables and names stay unquoted there.
#![allow(clippy::doc_markdown)]

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::cmd;
use crate::settings::{Overrides, Precedence};

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
        let mut out = String::new();
        if let Some((command, what)) = self.examples.first() {
            out.push_str("Example:\n");
            if !what.is_empty() {
                let _ = writeln!(out, "  # {what}");
            }
            let _ = writeln!(out, "  agentctx {command}\n");
        }
        out.push_str(&self.exit_help());
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

/// The environment variables agentctx reads (the man pages' ENVIRONMENT).
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "DSH_HOME",
        "home of the user-global AGENTS.md when --dsh-home is not given and it is not blank",
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
        "XDG_CONFIG_HOME",
        "--profile opencode: opencode's global config directory is $XDG_CONFIG_HOME/opencode when --opencode-config-dir is not given [default: ~/.config/opencode]",
    ),
    (
        "OPENCODE_CONFIG",
        "--profile opencode: one more config file, when not empty",
    ),
    (
        "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT",
        "--profile opencode: 1 or true: no CLAUDE.md files, as --disable-claude-code-prompt",
    ),
    (
        "OPENCODE_DISABLE_PROJECT_CONFIG",
        "--profile opencode: 1 or true: no project files or project config, as --disable-project-config",
    ),
];

/// Show, byte for byte, the workspace instructions a dsh session receives, and why.
#[derive(Debug, Parser)]
#[command(name = "agentctx", version, about, long_about = None, after_help = MANUAL.short_help(), after_long_help = MANUAL.help())]
#[command(propagate_version = true, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

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

impl Cli {
    /// Parses the command line. `render` runs on every keystroke of an
    /// editor integration, so a successful `render` command line is parsed
    /// against that subcommand alone (building every subcommand's flags is
    /// most of the start-up); anything else, and every error, help or
    /// version request, goes through the whole definition, so what is
    /// printed does not change.
    ///
    /// # Errors
    /// clap's error for a bad command line, or its help or version text to print.
    pub fn parse_args(args: Vec<std::ffi::OsString>) -> Result<Cli, clap::Error> {
        if args.get(1).is_some_and(|a| a == "render") {
            let root = GlobalArgs::augment_args(clap::Command::new("agentctx")).subcommand(
                cmd::render::RenderArgs::augment_args(clap::Command::new("render")),
            );
            if let Ok(matches) = root.try_get_matches_from(&args) {
                let global = GlobalArgs::from_arg_matches(&matches);
                let render = matches
                    .subcommand_matches("render")
                    .map(cmd::render::RenderArgs::from_arg_matches);
                if let (Ok(global), Some(Ok(render))) = (global, render) {
                    return Ok(Cli {
                        global,
                        command: Command::Render(render),
                    });
                }
            }
        }
        <Cli as Parser>::try_parse_from(args)
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Render(cmd::render::RenderArgs),
    Diff(cmd::diff::DiffArgs),
    Explain(cmd::explain::ExplainArgs),
    Check(cmd::check::CheckArgs),
    Sessions(cmd::sessions::SessionsArgs),
    Completions(cmd::completions::CompletionsArgs),
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

/// Output format of render, diff and explain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The exact message bytes (render, diff) or a readable report (explain).
    Text,
    /// One JSON document with stable field names.
    Json,
}

/// The settings that mirror the harness configuration (shared by every subcommand).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Harness settings")]
pub struct ConfigArgs {
    /// Home of the user-global AGENTS.md [default: $DSH_HOME if non-blank, else ~/.dsh].
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
    /// loads. `first` is design note 000 and earlier builds: the first
    /// present name of each directory and tier wins.
    #[arg(long, value_enum, value_name = "MODE")]
    pub precedence: Option<PrecedenceArg>,
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
    /// Design note 000 and dsh before 2026-07-22: the first present candidate of each directory and tier wins.
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
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

/// The harness whose context a command shows (SPEC 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProfileName {
    /// DeepSeek Harness (sections 1-9), the default.
    Dsh,
    /// OpenAI Codex CLI (exact).
    Codex,
    /// Google Gemini CLI (exact).
    Gemini,
    /// opencode, V1 engine (exact).
    Opencode,
    /// Claude Code: documented behaviour, explain only.
    Claude,
    /// GitHub Copilot CLI: documented behaviour, explain only.
    Copilot,
    /// dsh and every harness with a check (check only).
    All,
}

/// `--profile` and the settings of the non-dsh profiles (SPEC 10.1).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Profile settings")]
pub struct ProfileArgs {
    /// The harness to show: dsh, codex, gemini, opencode; claude and copilot with explain; with check also all, or a list (dsh,codex) [default: dsh].
    #[arg(long, value_enum, value_name = "P", value_delimiter = ',')]
    pub profile: Vec<ProfileName>,

    /// codex: its home [default: $CODEX_HOME if non-empty, else ~/.codex].
    #[arg(long, value_name = "DIR")]
    pub codex_home: Option<PathBuf>,

    /// codex: byte budget of the project docs, 0 disables them [default: config.toml, else 32768].
    #[arg(long, value_name = "N")]
    pub project_doc_max_bytes: Option<u64>,

    /// codex: names tried after AGENTS.md, comma separated [default: config.toml, else none].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub project_doc_fallback_filenames: Option<String>,

    /// codex: names marking the project root [default: config.toml, else .git].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub project_root_markers: Option<String>,

    /// gemini: context file names [default: settings context.fileName, else GEMINI.md].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub context_filename: Option<String>,

    /// gemini: names marking the memory boundary [default: settings, else .git].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub memory_boundary_markers: Option<String>,

    /// gemini: the workspace is not trusted (no project memory, no workspace settings).
    #[arg(long)]
    pub untrusted: bool,

    /// gemini: a path a tool touched, for its just-in-time context (repeatable).
    #[arg(long, value_name = "PATH")]
    pub touch: Vec<String>,

    /// opencode: its config directory [default: $XDG_CONFIG_HOME/opencode, else ~/.config/opencode].
    #[arg(long, value_name = "DIR")]
    pub opencode_config_dir: Option<PathBuf>,

    /// opencode: instruction entries, comma separated; replaces the config files' [default: config].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub instructions: Option<String>,

    /// opencode: no CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true).
    #[arg(long)]
    pub disable_claude_code_prompt: bool,

    /// opencode: no project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true).
    #[arg(long)]
    pub disable_project_config: bool,
}

impl ProfileArgs {
    /// The profile flags given, each with the profile it belongs to.
    #[must_use]
    pub fn given(&self) -> Vec<(&'static str, ProfileName)> {
        use ProfileName::{Codex, Gemini, Opencode};
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
        ]
        .into_iter()
        .filter_map(|(name, profile, given)| given.then_some((name, profile)))
        .collect()
    }
}

/// Where the session runs: `--cwd`, and an optional log.
#[derive(Debug, Clone, Default, Args)]
pub struct SessionArgs {
    /// The session's working directory [default: the log header's cwd, else the current directory].
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,

    /// Parse every log line fully instead of only the lines that can matter.
    #[arg(long)]
    pub strict: bool,

    /// Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log.
    #[arg(long, value_name = "ID|latest", conflicts_with = "log")]
    pub session: Option<String>,

    /// Where dsh stores session logs [default: $DSH_HOME/sessions].
    #[arg(long, value_name = "DIR")]
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
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn list_flags_split_verbatim() {
        assert_eq!(split_list(""), Vec::<String>::new());
        assert_eq!(
            split_list(" a,,b"),
            vec![" a".to_owned(), String::new(), "b".to_owned()]
        );
    }

    /// The `render` fast path reads a command line exactly as the whole
    /// definition does, and leaves errors, help and version to it.
    #[test]
    fn the_render_fast_path_parses_as_the_whole_definition() {
        let lines: [&[&str]; 4] = [
            &["agentctx", "render"],
            &[
                "agentctx",
                "render",
                "--cwd",
                "x",
                "--max-bytes",
                "-1",
                "--color",
                "never",
                "-q",
            ],
            &[
                "agentctx",
                "render",
                "--profile",
                "codex",
                "--project-doc-max-bytes",
                "7",
                "--format",
                "json",
            ],
            &[
                "agentctx",
                "render",
                "--precedence",
                "first",
                "--candidates",
                "",
                "--check",
            ],
        ];
        for line in lines {
            let args: Vec<std::ffi::OsString> = line.iter().map(Into::into).collect();
            let fast = Cli::parse_args(args.clone()).unwrap();
            let whole = <Cli as Parser>::try_parse_from(args).unwrap();
            assert_eq!(format!("{fast:?}"), format!("{whole:?}"), "{line:?}");
        }
        for line in [
            &["agentctx", "render", "--help"][..],
            &["agentctx", "render", "--bogus"],
        ] {
            let args: Vec<std::ffi::OsString> = line.iter().map(Into::into).collect();
            let fast = Cli::parse_args(args.clone()).unwrap_err();
            let whole = <Cli as Parser>::try_parse_from(args).unwrap_err();
            assert_eq!(fast.render().to_string(), whole.render().to_string());
        }
    }

    #[test]
    fn negative_numbers_are_values() {
        let cli = Cli::try_parse_from(["agentctx", "render", "--max-bytes", "-1"]).unwrap();
        let Command::Render(args) = cli.command else {
            panic!("render expected")
        };
        assert_eq!(args.config.max_bytes, Some(-1.0));
    }
}

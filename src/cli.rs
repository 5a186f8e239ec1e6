//! The command line (SPEC 1), as clap derive types. Nothing here does work.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::cmd;
use crate::settings::Precedence;

/// The exit codes, shown at the end of every command's help.
pub const EXIT_CODES: &str = "\
Exit status:
  0  success
  1  a finding (render --check, diff --exit-code, check)
  2  bad usage or unusable input";

/// Show, byte for byte, the workspace instructions a dsh session receives, and why.
#[derive(Debug, Parser)]
#[command(name = "agentctx", version, about, long_about = None, after_help = EXIT_CODES)]
#[command(propagate_version = true, max_term_width = 100)]
pub struct Cli {
    /// When to colour human-facing output.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, global = true, value_name = "WHEN")]
    pub color: ColorWhen,

    /// Print no warnings on stderr.
    #[arg(short, long, global = true)]
    pub quiet: bool,

    #[command(subcommand)]
    pub command: Command,
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

    /// UTF-8 byte cap of one rendered message; N <= 0 disables loading [default: 65536].
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_bytes: Option<i64>,

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

    /// How candidates of one directory compete [default: first; with --log, inferred from its scope keys].
    #[arg(long, value_enum, value_name = "MODE")]
    pub precedence: Option<Precedence>,
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

    #[test]
    fn negative_numbers_are_values() {
        let cli = Cli::try_parse_from(["agentctx", "render", "--max-bytes", "-1"]).unwrap();
        let Command::Render(args) = cli.command else {
            panic!("render expected")
        };
        assert_eq!(args.config.max_bytes, Some(-1));
    }
}

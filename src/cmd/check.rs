//! `agentctx check`: the CI gate for instruction budgets.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};

use super::Ctx;
use crate::cli::ConfigArgs;

/// Output format of check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// Grouped findings with a summary line.
    Text,
    /// One JSON document.
    Json,
    /// GitHub Actions workflow commands (annotations on the files).
    Github,
}

/// Check every directory of a repository against the byte budget.
///
/// Walks the tree under PATH and, for every directory holding an instruction
/// file, renders the baseline a session started there gets. Errors: anything
/// omitted or truncated, an oversized file. Warnings: drift between AGENTS.md
/// and CLAUDE.md, symlinks leaving the tree, invalid UTF-8, a literal
/// </system-reminder>, empty files, candidates that are not regular files.
///
/// Example:
///   agentctx check --format github --deny-warnings
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The tree to check [default: the project root of the current directory].
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,

    #[command(flatten)]
    pub config: ConfigArgs,

    /// Skip directories with this name (repeatable).
    #[arg(long, value_name = "NAME")]
    pub exclude: Vec<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,

    /// Exit 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,

    /// Include the user-global AGENTS.md in every baseline.
    #[arg(long)]
    pub include_user_global: bool,
}

pub fn run(_ctx: &mut Ctx<'_>, _args: &CheckArgs) -> Result<u8> {
    anyhow::bail!("check is not built yet")
}

//! `agentctx explain`: every decision, for a person at a terminal.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::Ctx;
use crate::cli::{ConfigArgs, Format, SessionArgs};

/// Explain which instruction files a session gets, and why.
///
/// Shows the settings and where each came from, the root search, every
/// candidate of every directory with its outcome, what the byte budget cut,
/// the baseline identity, and with --log how the session's history changes
/// what it receives.
///
/// Example:
///   agentctx explain --cwd packages/app --log session.jsonl
#[derive(Debug, Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub session: SessionArgs,

    /// Also explain this session log (`-` reads stdin).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,

    #[command(flatten)]
    pub config: ConfigArgs,

    /// Print the parts diff would send in full instead of abbreviated.
    #[arg(long)]
    pub full: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(_ctx: &mut Ctx<'_>, _args: &ExplainArgs) -> Result<u8> {
    anyhow::bail!("explain is not built yet")
}

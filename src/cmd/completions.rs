//! `agentctx completions`: shell completion scripts.

use anyhow::Result;
use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::Ctx;
use crate::cli::Cli;

/// Print a shell completion script.
///
/// Example:
///   agentctx completions bash > ~/.local/share/bash-completion/completions/agentctx
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn run(ctx: &mut Ctx<'_>, args: &CompletionsArgs) -> Result<u8> {
    let mut cmd = Cli::command();
    clap_complete::generate(args.shell, &mut cmd, "agentctx", ctx.out);
    Ok(0)
}

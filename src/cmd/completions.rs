//! `agentctx completions`: shell completion scripts, and the committed
//! generated files (completions/, man/) built from the same CLI definition.

use std::io;

use anyhow::Result;
use clap::{Args, CommandFactory};
use clap_complete::{Generator, Shell};

use super::Ctx;
use crate::cli::Cli;

/// Print a shell completion script.
///
/// The scripts are also committed under completions/ in the source tree.
#[derive(Debug, Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

const AFTER_HELP: &str = "\
Examples:
  agentctx completions bash > ~/.local/share/bash-completion/completions/agentctx
  agentctx completions zsh > ~/.zfunc/_agentctx
  agentctx completions fish > ~/.config/fish/completions/agentctx.fish

Exit status:
  0  success
  2  bad usage";

pub fn run(ctx: &mut Ctx<'_>, args: &CompletionsArgs) -> Result<u8> {
    // clap_complete panics on a failed write: generate into memory, then
    // write it as every command does.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "agentctx", &mut script);
    ctx.out.write_all(&script)?;
    Ok(0)
}

/// Every generated file the repository commits, as (path relative to the
/// crate root, bytes): one completion script per shell and one man page per
/// command (`man/agentctx.1`, `man/agentctx-render.1`, ...).
pub fn artifacts() -> io::Result<Vec<(String, Vec<u8>)>> {
    let mut files = Vec::new();
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::PowerShell,
        Shell::Elvish,
    ] {
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "agentctx", &mut buf);
        files.push((format!("completions/{}", shell.file_name("agentctx")), buf));
    }
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = vec![cmd.clone()];
    pages.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    for page in pages {
        let man = clap_mangen::Man::new(page).manual("agentctx manual");
        let mut buf = Vec::new();
        man.render(&mut buf)?;
        files.push((format!("man/{}", man.get_filename()), buf));
    }
    Ok(files)
}

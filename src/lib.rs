//! agentctx: shows, byte for byte, the workspace instruction context a dsh
//! session receives, and explains why. See SPEC.md for the contract.
//!
//! The core (`discovery`, `render`, `baseline`, `log`, `logfile`,
//! `reconcile`, `prompt`, `sessions`, `check`, `profile`) returns data and
//! never prints; `cmd` and `output` present it. docs/ARCHITECTURE.md draws
//! the layers.

pub mod baseline;
pub(crate) mod bounded;
pub mod check;
pub mod cli;
pub mod cmd;
pub mod discovery;
pub mod dshconfig;
pub mod env;
pub mod explain;
pub mod jsnum;
pub mod log;
pub mod logfile;
pub mod output;
pub mod paths;
pub mod profile;
pub mod prompt;
pub mod reconcile;
pub mod render;
pub mod sessions;
pub mod settings;
pub mod text;

use std::io::Write;

use anyhow::Result;

use cli::{Cli, Command};
use cmd::Ctx;
use env::Env;

/// Runs one command line; returns the exit status (0 ok, 1 a finding).
/// Errors are for the caller to print once.
///
/// # Errors
/// Bad usage or unusable input (exit 2), as one line naming the file.
pub fn run(cli: &Cli, env: &Env, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    let mut ctx = Ctx {
        env,
        color: cli.global.color,
        quiet: cli.global.quiet,
        out,
        err,
    };
    let code = match &cli.command {
        Command::Render(args) => cmd::render::run(&mut ctx, args),
        Command::Diff(args) => cmd::diff::run(&mut ctx, args),
        Command::Explain(args) => cmd::explain::run(&mut ctx, args),
        Command::Check(args) => cmd::check::run(&mut ctx, args),
        Command::Sessions(args) => cmd::sessions::run(&mut ctx, args),
        Command::Completions(args) => cmd::completions::run(&mut ctx, args),
    }?;
    ctx.out.flush()?;
    Ok(code)
}

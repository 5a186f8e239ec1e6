//! One module per subcommand: a clap `Args` struct and `run()`.

pub mod check;
mod check_markdown;
pub mod completions;
pub mod diff;
pub mod explain;
pub mod profile;
pub mod render;

use std::io::Write;

use anyhow::Result;

use crate::cli::{ColorWhen, SessionArgs};
use crate::env::Env;
use crate::log::{self, Log, Needs, ReadOptions};

/// What every subcommand gets besides its own arguments.
#[allow(missing_debug_implementations)]
pub struct Ctx<'a> {
    pub env: &'a Env,
    pub color: ColorWhen,
    pub quiet: bool,
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
}

impl Ctx<'_> {
    /// Whether stdout gets colour.
    pub fn stdout_color(&self) -> bool {
        self.env.color(self.color, self.env.stdout_tty)
    }
}

/// The session a command looks at: the log named by `--log` (its warnings
/// printed; only what `needs` asks for read) and the settings resolved from
/// the flags, the environment and that log.
pub fn session(
    ctx: &mut Ctx<'_>,
    log: Option<&std::path::Path>,
    needs: Needs,
    session: &SessionArgs,
    config: &crate::cli::ConfigArgs,
) -> Result<(Option<Log>, crate::settings::Settings)> {
    let log = read_log(ctx, log, needs, session)?;
    let settings = crate::env::resolve(ctx.env, config, session.cwd.as_deref(), log.as_ref())?;
    Ok((log, settings))
}

/// Reads the log named by `--log`, if any, and prints its warnings.
fn read_log(
    ctx: &mut Ctx<'_>,
    path: Option<&std::path::Path>,
    needs: Needs,
    session: &SessionArgs,
) -> Result<Option<Log>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let log = log::read_with(
        path,
        ReadOptions {
            strict: session.strict,
        },
        needs,
    )?;
    crate::output::warnings(ctx.err, ctx.quiet, &log.warnings)?;
    Ok(Some(log))
}

/// The source kind: the flag, else the last workspace event's, else the default.
pub fn source_kind(flag: Option<&str>, log: Option<&Log>) -> String {
    flag.map(str::to_owned)
        .or_else(|| log.and_then(|l| l.last_kind.clone()))
        .unwrap_or_else(|| crate::baseline::DEFAULT_KIND.to_owned())
}

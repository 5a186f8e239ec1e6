//! One module per subcommand: a clap `Args` struct and `run()`.

pub mod check;
pub mod completions;
pub mod diff;
pub mod explain;
pub mod profile;
pub mod render;
pub mod sessions;

use std::io::Write;

use anyhow::Result;

use crate::cli::{ColorWhen, SessionArgs};
use crate::env::Env;
use crate::log::{Log, Needs};
use crate::logfile::{self, Options};

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
    #[must_use]
    pub fn stdout_color(&self) -> bool {
        self.env.color(self.color.forced(), self.env.stdout_tty)
    }
}

/// The flags that name a command's session and settings: `--log`, the
/// `--session` group, the harness settings.
#[derive(Debug, Clone, Copy)]
pub struct SessionSource<'a> {
    pub log: Option<&'a std::path::Path>,
    pub session: &'a SessionArgs,
    pub config: &'a crate::cli::ConfigArgs,
    /// `--source-kind`: the generation that resumes the log.
    pub source_kind: Option<&'a str>,
}

impl<'a> SessionSource<'a> {
    #[must_use]
    pub fn new(
        log: Option<&'a std::path::Path>,
        session: &'a SessionArgs,
        config: &'a crate::cli::ConfigArgs,
    ) -> Self {
        SessionSource {
            log,
            session,
            config,
            source_kind: None,
        }
    }

    /// The same, resumed by the generation `--source-kind` names.
    #[must_use]
    pub fn resumed_by(self, source_kind: Option<&'a str>) -> Self {
        SessionSource {
            source_kind,
            ..self
        }
    }

    /// The source kind that resumes the log and is persisted: the flag,
    /// else the current one (never the log's, SPEC 1).
    #[must_use]
    pub fn kind(&self) -> String {
        source_kind(self.source_kind)
    }
}

/// The session a command looks at: the log named by `--log` or found by
/// `--session` (its warnings printed; only what `needs` asks for read), and
/// the settings resolved from the flags, the environment and that log.
/// `count_packed` counts the events packed rows stand for (explain).
pub(crate) fn session(
    ctx: &mut Ctx<'_>,
    from: SessionSource<'_>,
    needs: Needs,
    count_packed: bool,
) -> Result<(Option<Log>, crate::settings::Settings)> {
    let kind = crate::log::SourceKind::parse(&from.kind());
    let SessionSource {
        log,
        session,
        config,
        ..
    } = from;
    let found = match &session.session {
        Some(id) => Some(locate(ctx.env, session, config, id)?.path),
        None => None,
    };
    let opts = Options {
        strict: session.strict,
        count_packed,
        needs: needs.resumed_by(kind),
    };
    let log = match found.as_deref().or(log) {
        Some(path) => {
            let log = logfile::read(path, opts)?;
            crate::output::warnings(ctx.err, ctx.quiet, &log.warnings)?;
            Some(log)
        }
        None => None,
    };
    let settings = crate::settings::Settings::resolve(
        ctx.env,
        &config.overrides(),
        session.cwd.as_deref(),
        log.as_ref(),
    )?;
    Ok((log, settings))
}

/// The session as render and diff read it: only the workspace state (no
/// prompt versions, no packed-row counts).
pub(crate) fn state_of(
    ctx: &mut Ctx<'_>,
    from: SessionSource<'_>,
) -> Result<(Option<Log>, crate::settings::Settings)> {
    session(ctx, from, Needs::STATE, false)
}

/// The sessions root: `--sessions-root`, else `sessions` in the dsh home.
pub(crate) fn sessions_root(
    env: &Env,
    flag: Option<&std::path::Path>,
    settings: &crate::settings::Settings,
) -> Result<std::path::PathBuf> {
    match flag {
        Some(dir) => env.absolute(dir),
        None => Ok(settings.dsh_home.value.join("sessions")),
    }
}

/// Finds the stored log `--session` names for the cwd.
fn locate(
    env: &Env,
    session: &SessionArgs,
    config: &crate::cli::ConfigArgs,
    id: &str,
) -> Result<crate::sessions::Stored> {
    let settings =
        crate::settings::Settings::resolve(env, &config.overrides(), session.cwd.as_deref(), None)?;
    let root = sessions_root(env, session.sessions_root.as_deref(), &settings)?;
    let scope = crate::sessions::Scope {
        root: &root,
        cwd: &settings.cwd.value,
        all: false,
    };
    crate::sessions::find(scope, crate::sessions::Pick::parse(id)).map_err(anyhow::Error::msg)
}

/// The source kind: the flag, else the current generation's (SPEC 1: never
/// the log's, so an earlier-kind log is shown as the current dsh resumes it).
#[must_use]
pub fn source_kind(flag: Option<&str>) -> String {
    flag.unwrap_or(crate::baseline::DEFAULT_KIND).to_owned()
}

/// The examples and exit codes of a command by name (`agentctx` itself for
/// any other name).
#[must_use]
pub fn manual(name: &str) -> &'static crate::cli::Manual {
    match name {
        "render" => &render::MANUAL,
        "diff" => &diff::MANUAL,
        "explain" => &explain::MANUAL,
        "check" => &check::MANUAL,
        "sessions" => &sessions::MANUAL,
        "completions" => &completions::MANUAL,
        _ => &crate::cli::MANUAL,
    }
}

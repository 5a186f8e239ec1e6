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
use crate::dshconfig::{DshConfig, Outcome};
use crate::env::Env;
use crate::log::ReadOptions;
use crate::log::{Log, Needs};
use crate::logfile;
use crate::settings::{Settings, SettingsFrom};

/// What every subcommand gets besides its own arguments.
#[allow(missing_debug_implementations)]
pub struct Ctx<'a> {
    pub env: &'a Env,
    /// The whole command line's definition (`app` owns it), for help pages
    /// a command prints itself.
    pub definition: fn() -> clap::Command,
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

/// What a command looks at: the log (if any), dsh's configuration and the
/// settings resolved from the flags, the environment, that configuration
/// and that log.
#[derive(Debug)]
pub(crate) struct Session {
    pub log: Option<Log>,
    pub settings: Settings,
    pub dsh: Dsh,
}

/// dsh's configuration as a command read it, and where its choices came from.
#[derive(Debug)]
pub(crate) struct Dsh {
    pub config: DshConfig,
    /// `flag`, `env` (`AGENTCTX_DSH_PROFILE`), `log` or `default`.
    pub profile_from: &'static str,
    pub settings_from: SettingsFrom,
    /// `flag`, `log` (`--log FILE`) or `default`.
    pub settings_from_origin: &'static str,
}

/// The session a command looks at: the log named by `--log` or found by
/// `--session` (its warnings printed; only what `needs` asks for read),
/// dsh's configuration, and the settings (CONFIG 11.6). `count_packed`
/// counts the events packed rows stand for (explain).
pub(crate) fn session(
    ctx: &mut Ctx<'_>,
    from: SessionSource<'_>,
    needs: Needs,
    count_packed: bool,
) -> Result<Session> {
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
    let opts = ReadOptions {
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
    // `--log FILE` may come from another machine; `--session` is the user's own.
    let (settings_from, settings_from_origin) = match config.settings_from {
        Some(s) => (s.into(), "flag"),
        None if log.is_some() && found.is_none() => (SettingsFrom::Log, "log"),
        None => (SettingsFrom::Config, "default"),
    };
    let cwd = crate::settings::session_cwd(
        ctx.env,
        session.cwd.as_deref(),
        log.as_ref().map(Into::into),
    )?;
    let dsh = dsh_config(
        ctx.env,
        config,
        &cwd.value,
        log.as_ref(),
        settings_from,
        settings_from_origin,
    )?;
    let settings = Settings::resolve_from(
        ctx.env,
        &config.overrides(),
        session.cwd.as_deref(),
        log.as_ref().map(Into::into),
        dsh.effective().map(|e| (e, settings_from)),
    )?;
    Ok(Session { log, settings, dsh })
}

impl Dsh {
    /// The loaded row's settings, when dsh loads instructions.
    #[must_use]
    pub fn effective(&self) -> Option<&crate::dshconfig::Effective> {
        match &self.config.outcome {
            Outcome::Loaded(e) => Some(e),
            _ => None,
        }
    }
}

/// Reads dsh's configuration for the deployment the flags, the environment
/// and the log name (CONFIG 11.1).
pub(crate) fn dsh_config(
    env: &Env,
    config: &crate::cli::ConfigArgs,
    cwd: &std::path::Path,
    log: Option<&Log>,
    settings_from: SettingsFrom,
    settings_from_origin: &'static str,
) -> Result<Dsh> {
    let var = env.dsh_profile.as_deref();
    let (profile, profile_from) = match (&config.dsh_profile, var, log) {
        (Some(p), _, _) => (p.clone(), "flag"),
        (None, Some(p), _) => (p.to_owned(), "env"),
        (None, None, Some(log)) => (if log.web { "web" } else { "headless" }.to_owned(), "log"),
        (None, None, None) => ("web".to_owned(), "default"),
    };
    if let Err(why) = crate::dshconfig::check_profile_name(&profile) {
        match profile_from {
            "env" => anyhow::bail!("AGENTCTX_DSH_PROFILE: {why}"),
            _ => anyhow::bail!("--dsh-profile: {why}"),
        }
    }
    let (preset, preset_from) = match (
        &config.dsh_preset,
        log.and_then(|l| l.agent_preset.as_ref()),
    ) {
        (Some(p), _) => (Some(p.clone()), "flag".to_owned()),
        (None, Some(p)) => (
            Some(p.clone()),
            format!("log {}", log.map_or("", |l| l.name.as_str())),
        ),
        (None, None) => (None, String::new()),
    };
    let mut patches = Vec::with_capacity(config.patch.len());
    for patch in &config.patch {
        let path = env.absolute(patch)?;
        if !config.no_dsh_config {
            match std::fs::metadata(&path) {
                Ok(_) => {}
                Err(e) => anyhow::bail!("--patch {}: {e}", patch.display()),
            }
        }
        patches.push(path);
    }
    let input = crate::dshconfig::Input {
        dsh_home: env.dsh_home.clone(),
        home: env.home.as_ref().and_then(|h| env.absolute(h).ok()),
        cwd: cwd.to_path_buf(),
        profile,
        preset,
        preset_from,
        patches,
        no_dsh_config: config.no_dsh_config,
    };
    Ok(Dsh {
        config: crate::dshconfig::read(&input),
        profile_from,
        settings_from,
        settings_from_origin,
    })
}

/// The session as render and diff read it: only the workspace state (no
/// prompt versions, no packed-row counts).
pub(crate) fn state_of(ctx: &mut Ctx<'_>, from: SessionSource<'_>) -> Result<Session> {
    session(ctx, from, Needs::STATE, false)
}

/// Whether a dsh session loads instructions at all (CONFIG 11.7): `Ok(false)`
/// when no loader row is mounted (one line on stderr says which file decides);
/// an error, worded as dsh's refusal, when dsh would not start.
///
/// # Errors
/// `FILE:LINE: dsh would refuse to start: MESSAGE`.
pub(crate) fn mounted(ctx: &mut Ctx<'_>, dsh: &Dsh) -> Result<bool> {
    let warnings: Vec<String> = dsh_warnings(dsh);
    crate::output::warnings(ctx.err, ctx.quiet, &warnings)?;
    match &dsh.config.outcome {
        Outcome::Loaded(_) => Ok(true),
        Outcome::NotMounted { .. } => {
            crate::output::hint(ctx.err, ctx.quiet, &crate::output::not_mounted(&dsh.config))?;
            Ok(false)
        }
        Outcome::Refused {
            file,
            line,
            message,
        } => anyhow::bail!(
            "{}: dsh would refuse to start: {message}",
            crate::output::file_line(file, *line)
        ),
    }
}

/// The configuration's warnings as render and diff print them.
fn dsh_warnings(dsh: &Dsh) -> Vec<String> {
    let mut out: Vec<String> = dsh
        .config
        .warnings
        .iter()
        .map(|w| {
            format!(
                "{}: {}",
                crate::output::file_line(&w.file, w.line),
                w.message
            )
        })
        .collect();
    out.extend(
        dsh.config
            .not_for_web
            .iter()
            .map(crate::output::not_for_web),
    );
    out
}

/// The sessions root: `--sessions-root`, else the persistence row's literal
/// `root` (CONFIG 11.6), else `sessions` in the dsh home.
pub(crate) fn sessions_root(
    env: &Env,
    flag: Option<&std::path::Path>,
    settings: &Settings,
    dsh: Option<&DshConfig>,
) -> Result<std::path::PathBuf> {
    match (flag, dsh.and_then(|d| d.sessions_root.as_ref())) {
        (Some(dir), _) => env.absolute(dir),
        (None, Some((root, _, _))) => Ok(root.clone()),
        (None, None) => Ok(settings.dsh_home.value.join("sessions")),
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
    let dsh = dsh_config(
        env,
        config,
        &settings.cwd.value,
        None,
        SettingsFrom::Config,
        "default",
    )?;
    let root = sessions_root(
        env,
        session.sessions_root.as_deref(),
        &settings,
        Some(&dsh.config),
    )?;
    let scope = crate::sessions::Scope {
        root: &root,
        cwd: &settings.cwd.value,
        all: false,
    };
    crate::sessions::find(scope, crate::sessions::Pick::parse(id)).map_err(anyhow::Error::msg)
}

/// What a resumed session of `log` would receive now, and the discovery
/// warnings on the way (shared with `sessions --check-drift`).
#[must_use]
pub(crate) fn reconcile_now(
    settings: &crate::settings::Settings,
    log: &crate::log::Log,
    touches: &[std::path::PathBuf],
    kind: &str,
) -> (crate::reconcile::Reconciliation, Vec<String>) {
    let ws = crate::discovery::discover(settings, false);
    let mut warnings = crate::output::ignored_entry_warnings(settings);
    warnings.extend(crate::output::discovery_warnings(
        &ws,
        settings.max_source_bytes.value,
    ));
    let outcome = crate::reconcile::diff(&crate::reconcile::Request {
        settings,
        workspace: &ws,
        log,
        touches,
        kind,
    });
    (outcome, warnings)
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

//! `agentctx render`: the baseline a new session receives.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use super::Ctx;
use crate::baseline::{self, Shape, Source};
use crate::cli::{
    ConfigArgs, Format, Offer, ProfileArgs, ProfileName, SessionArgs, format_parser, heading,
    profile_parser,
};
use crate::discovery;
use crate::output;
use crate::render;

/// Print the exact baseline message a new session in the cwd receives.
///
/// The text output is the message bytes as the harness sends them (a final
/// newline is added only for a terminal). With --log, the cwd comes from the
/// log header and the settings from the identity of its latest baseline; the
/// log's state is not consulted (that is `diff`).
#[derive(Debug, Args)]
#[command(after_long_help = MANUAL.help(), after_help = MANUAL.short_help())]
pub struct RenderArgs {
    /// Take the cwd and settings from this session log (`-` reads stdin).
    #[arg(long, value_name = "FILE", help_heading = heading::SESSION)]
    pub log: Option<PathBuf>,

    #[command(flatten)]
    pub session: SessionArgs,

    /// The harness whose baseline to print [default: dsh]; a profile's own settings: --help-profile P.
    #[arg(long, value_name = "P", value_parser = profile_parser(Offer::Render), help_heading = heading::HARNESS)]
    pub profile: Option<ProfileName>,

    #[command(flatten)]
    pub profiles: ProfileArgs,

    /// The generation that resumes the log and the kind it persists [default: agent-instructions].
    ///
    /// `agent-instructions` is what dsh writes since 2026-08-13 (aacab0cafd);
    /// `workspace-instructions` is dsh builds before 2026-08-13. A build reads
    /// only events of its own kind, so the current dsh resuming a
    /// `workspace-instructions` log sends a complete fresh baseline.
    #[arg(long, value_name = "K", help_heading = heading::HARNESS)]
    pub source_kind: Option<String>,

    #[command(flatten)]
    pub config: ConfigArgs,

    /// Exit 1 when anything was omitted or truncated by the byte budget.
    #[arg(long, help_heading = heading::OUTPUT)]
    pub check: bool,

    /// Output format.
    #[arg(long, help_heading = heading::OUTPUT, value_name = "FORMAT", default_value = "text",
          value_parser = format_parser("The exact message bytes", "One JSON document: parts, source, files, budget records"))]
    pub format: Format,
}

/// Examples and exit codes: the end of the long help, and the man page.
pub const MANUAL: crate::cli::Manual = crate::cli::Manual {
    examples: &[
        ("render", "the baseline for the current directory"),
        ("render --cwd packages/app --format json", ""),
        (
            "render --check --max-bytes 8192",
            "exit 1 when the budget cuts anything",
        ),
        (
            "render --log session.jsonl",
            "cwd and settings of a recorded session",
        ),
    ],
    exit: &[
        (0, "success"),
        (1, "--check and something was omitted or truncated"),
        (2, "bad usage or unusable input"),
    ],
};

#[derive(Serialize)]
struct Json<'a> {
    parts: Vec<&'a str>,
    source: Option<Source>,
    #[serde(flatten)]
    baseline: Shape,
}

pub(crate) fn run(ctx: &mut Ctx<'_>, args: &RenderArgs) -> Result<u8> {
    if let Some(p) = args.profiles.help_profile {
        return super::profile::help(ctx, "render", p);
    }
    if let Some(profiles) = super::profile::select(
        super::profile::Verb::Render,
        args.profile,
        &args.profiles,
        &dsh_only(args),
    )? {
        let shown = super::profile::Shown {
            profiles: &args.profiles,
            cwd: args.session.cwd.as_deref(),
            format: args.format,
        };
        return super::profile::render(ctx, shown, args.check, profiles[0]);
    }
    let from = super::SessionSource::new(args.log.as_deref(), &args.session, &args.config)
        .resumed_by(args.source_kind.as_deref());
    let session = super::state_of(ctx, from)?;
    if !super::mounted(ctx, &session.dsh)? {
        return match args.format {
            Format::Text => Ok(0),
            Format::Json => {
                output::json(
                    ctx.out,
                    &crate::output::NotMounted::new(&session.dsh.config),
                )?;
                Ok(0)
            }
        };
    }
    let settings = session.settings;
    let ws = discovery::discover(&settings, false);
    let mut warnings = output::ignored_entry_warnings(&settings);
    warnings.extend(output::discovery_warnings(
        &ws,
        settings.max_source_bytes.value,
    ));
    output::warnings(ctx.err, ctx.quiet, &warnings)?;
    let b = baseline::render(&ws, &settings, render::INTRO);
    let parts: Vec<&str> = b.fit.text.iter().map(String::as_str).collect();
    // On a terminal an empty payload would say nothing at all: say why.
    if parts.is_empty() && ctx.env.stdout_tty && args.format == Format::Text {
        output::hint(
            ctx.err,
            ctx.quiet,
            &output::nothing_sent_hint(&ws, &settings),
        )?;
    }
    if args.check && b.fit.is_cut() {
        output::hint(
            ctx.err,
            ctx.quiet,
            &output::cut_hint(&b.fit, settings.max_bytes.value),
        )?;
    }
    match args.format {
        Format::Text => output::parts(ctx.out, &parts, ctx.env.stdout_tty)?,
        Format::Json => output::json(
            ctx.out,
            &Json {
                parts: parts.clone(),
                // Only JSON shows the changes, and with them the digests.
                source: b
                    .fit
                    .text
                    .as_ref()
                    .map(|_| Source::new(&from.kind(), Some(b.identity.clone()), b.changes())),
                baseline: Shape::new(
                    &b.files,
                    &b.fit,
                    b.identity.clone(),
                    ws.root(),
                    settings.max_bytes.value,
                ),
            },
        )?,
    }
    let code = u8::from(args.check && b.fit.is_cut());
    // The process ends after this: what discovery read is left to the
    // system, not freed a block at a time (issue 28: dropping the workspace
    // and the baseline was 4% of `render`'s instructions).
    drop(parts);
    std::mem::forget((ws, b, settings));
    Ok(code)
}

/// The dsh-only flags given (bad usage with another profile, SPEC 10.1).
fn dsh_only(args: &RenderArgs) -> Vec<&'static str> {
    let mut given = args.config.given();
    given.extend(args.log.as_ref().map(|_| "--log"));
    given.extend(args.source_kind.as_ref().map(|_| "--source-kind"));
    given.extend(args.session.given());
    given
}

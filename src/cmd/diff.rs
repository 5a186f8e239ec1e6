//! `agentctx diff`: what a resumed session receives.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use super::Ctx;
use crate::baseline::Source;
use crate::cli::{
    ConfigArgs, Format, Offer, ProfileName, SessionArgs, format_parser, heading, profile_parser,
};
use crate::output;
use crate::reconcile::Decision;
use crate::render::Truncation;

/// Print the workspace message that enters a resumed session.
///
/// Compares the session's JSON event log with the instruction files on disk
/// now and prints exactly what the harness would append before the first
/// resumed request: nothing, a delta (set, replace, remove sections), a fresh
/// baseline (the old one was shadowed by compaction) or a replacement
/// baseline (the settings changed).
#[derive(Debug, Args)]
#[command(after_long_help = MANUAL.help(), after_help = MANUAL.short_help())]
#[command(group(clap::ArgGroup::new("which_log").args(["log", "session"]).required(true)))]
pub struct DiffArgs {
    /// The session's JSON event log, plain or dsh's zstd container (`-` reads stdin).
    #[arg(long, value_name = "FILE", help_heading = heading::SESSION)]
    pub log: Option<PathBuf>,

    #[command(flatten)]
    pub session: SessionArgs,

    /// Simulate a successful structured read/write/edit of PATH (repeatable).
    #[arg(long, value_name = "PATH", help_heading = None::<&str>)]
    pub touch: Vec<PathBuf>,

    /// A runtime-context section value NAME=TEXT to compare with the latest snapshot (repeatable).
    #[arg(long, value_name = "NAME=TEXT", help_heading = None::<&str>)]
    pub runtime: Vec<String>,

    /// The harness profile; diff replays dsh logs, so only dsh [default: dsh].
    #[arg(long, value_name = "P", value_parser = profile_parser(Offer::Diff), hide_possible_values = true, help_heading = heading::HARNESS)]
    pub profile: Option<ProfileName>,

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

    /// Output format.
    #[arg(long, help_heading = heading::OUTPUT, value_name = "FORMAT", default_value = "text",
          value_parser = format_parser("The exact message bytes", "One JSON document: decision, reason, parts, source, budget records"))]
    pub format: Format,

    /// Exit 1 when something would be sent.
    #[arg(long, help_heading = heading::OUTPUT)]
    pub exit_code: bool,
}

/// Examples and exit codes: the end of the long help, and the man page.
pub const MANUAL: crate::cli::Manual = crate::cli::Manual {
    examples: &[
        ("diff --log session.jsonl", "what the resumed session gets"),
        ("diff --log session.jsonl --touch src/lib.rs", ""),
        (
            "diff --log session.jsonl --runtime \"app:web-surface=$TEXT\"",
            "",
        ),
        ("diff --log - --format json < session.jsonl", ""),
        (
            "diff --session latest",
            "the newest dsh session of this directory",
        ),
    ],
    exit: &[
        (0, "success (with --exit-code: nothing would be sent)"),
        (1, "--exit-code and something would be sent"),
        (
            2,
            "bad usage or unusable input (named as FILE:LINE, plus :COLUMN where the JSON parser gives one)",
        ),
    ],
};

/// A resumed session under a configuration that mounts no loader.
#[derive(Serialize)]
struct NotMounted {
    decision: Decision,
    reason: &'static str,
    #[serde(flatten)]
    rest: crate::output::NotMounted,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Json<'a> {
    decision: Decision,
    reason: &'a str,
    parts: Vec<&'a str>,
    source: Option<Source>,
    omitted: Vec<String>,
    truncated: Vec<Truncation>,
    identity: &'a str,
    #[serde(serialize_with = "crate::log::serialize_opt_seq")]
    visible_baseline_seq: Option<u64>,
    identity_matches: Option<bool>,
    identity_diff: Option<&'a str>,
    runtime: Option<crate::prompt::Runtime>,
}

pub(crate) fn run(ctx: &mut Ctx<'_>, args: &DiffArgs) -> Result<u8> {
    if let Some(p) = args.profile.filter(|p| *p != crate::cli::ProfileName::Dsh) {
        anyhow::bail!(
            "diff replays a dsh session log: --profile {} does not apply (render and explain take it)",
            p.name()
        );
    }
    let runtime_values = crate::prompt::parse_values(&args.runtime)?;
    let from = super::SessionSource::new(args.log.as_deref(), &args.session, &args.config)
        .resumed_by(args.source_kind.as_deref());
    let session = super::state_of(ctx, from)?;
    if !super::mounted(ctx, &session.dsh)? {
        if args.format == Format::Json {
            output::json(
                ctx.out,
                &NotMounted {
                    decision: Decision::None,
                    reason: "dsh mounts no agent-instructions loader",
                    rest: crate::output::NotMounted::new(&session.dsh.config),
                },
            )?;
        }
        return Ok(0);
    }
    let (log, settings) = (session.log, session.settings);
    let log = log.unwrap_or_default();
    let kind = from.kind();
    let (outcome, warnings) = super::reconcile_now(&settings, &log, &args.touch, &kind);
    output::warnings(ctx.err, ctx.quiet, &warnings)?;
    let outside = output::outside_scope_warnings(&log.name, &outcome.outside);
    output::warnings(ctx.err, ctx.quiet, &outside)?;
    let runtime = crate::prompt::snapshot_update(log.latest_snapshot.as_ref(), &runtime_values);
    let mut parts = outcome.parts();
    if let Some(rt) = &runtime {
        parts.extend(rt.parts.iter().map(String::as_str));
    }
    match args.format {
        Format::Text => output::parts(ctx.out, &parts, ctx.env.stdout_tty)?,
        Format::Json => output::json(
            ctx.out,
            &Json {
                decision: outcome.decision,
                reason: &outcome.reason,
                parts: outcome.parts(),
                source: outcome.source(),
                omitted: outcome.omitted(),
                truncated: outcome.truncated(),
                identity: &outcome.identity,
                visible_baseline_seq: outcome.visible_baseline_seq,
                identity_matches: outcome.identity_matches,
                identity_diff: outcome.identity_diff.as_deref(),
                runtime: runtime.clone(),
            },
        )?,
    }
    Ok(u8::from(args.exit_code && !parts.is_empty()))
}

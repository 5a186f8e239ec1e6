//! `agentctx explain`: every decision, for a person at a terminal.
//!
//! `crate::explain::gather` collects the facts; `output::explain` words them
//! as text, or they print as one JSON document (never coloured).

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::Ctx;
use crate::cli::{
    ConfigArgs, Format, Offer, ProfileArgs, ProfileName, SessionArgs, format_parser, heading,
    profile_parser,
};
use crate::explain;
use crate::output::explain::{TextOptions, text};
use crate::output::palette::Palette;
use crate::output::{self};
use crate::settings::{Settings, SettingsFrom};

/// With settings from the log: the first setting dsh's current configuration
/// would change, worded `KEY: LOGGED in the log, NOW now` (CONFIG 11.6).
fn differs_from_log(
    env: &crate::env::Env,
    config: &ConfigArgs,
    dsh: &super::Dsh,
    settings: &Settings,
    log: Option<&crate::log::Log>,
) -> Result<Option<String>> {
    let (Some(log), Some(effective), SettingsFrom::Log) = (log, dsh.effective(), dsh.settings_from)
    else {
        return Ok(None);
    };
    if log.latest_baseline_identity.is_none() {
        return Ok(None);
    }
    let now = Settings::resolve_from(
        env,
        &config.overrides(),
        Some(&settings.cwd.value),
        Some(log.into()),
        Some((effective, SettingsFrom::Config)),
    )?;
    let list = |v: &[String]| format!("[{}]", v.join(", "));
    let pairs = [
        (
            "maxBytes",
            settings.max_bytes.value.to_string(),
            now.max_bytes.value.to_string(),
        ),
        (
            "maxSourceBytes",
            settings.max_source_bytes.value.to_string(),
            now.max_source_bytes.value.to_string(),
        ),
        (
            "projectRootMarkers",
            list(&settings.root_markers.value),
            list(&now.root_markers.value),
        ),
        (
            "instructionFileCandidates",
            list(&settings.candidates.value.names),
            list(&now.candidates.value.names),
        ),
        (
            "localInstructionFileCandidates",
            list(&settings.local_candidates.value.names),
            list(&now.local_candidates.value.names),
        ),
    ];
    Ok(pairs
        .into_iter()
        .find(|(_, a, b)| a != b)
        .map(|(key, logged, now)| format!("{key}: {logged} in the log, {now} now")))
}

/// Explain which instruction files a session gets, and why.
///
/// Prints, in sections: the settings and where each value came from (flag,
/// env, log, default) with any ignored candidate entries; the root search,
/// directory by directory, up to the marker that decided the root; every
/// candidate of the user-global directory and of each chain directory, tier
/// by tier, with its outcome (loaded, shadowed, duplicate, missing, not a
/// regular file, oversized, unavailable, same path), its bytes and short
/// digest, and its symlink target; what the byte budget did (used/max,
/// omitted, truncated, headroom); and the baseline identity.
///
/// With --log it adds the session view: the header cwd, the event counts,
/// the visible baseline and whether its identity matches, the visible scopes
/// with the seq that set them, the workspace events compaction shadowed, the
/// decision diff would make and why, the parts it would send (abbreviated
/// unless --full), and the system prompt and runtime-context report.
///
/// Names, paths and snippets are shown with control and bidi characters
/// escaped (`\x1b`, `\u{202e}`). --format json prints the same facts as one
/// JSON document with stable camelCase field names (listed in docs/JSON.md).
#[derive(Debug, Args)]
#[command(after_long_help = MANUAL.help(), after_help = MANUAL.short_help())]
pub struct ExplainArgs {
    /// Also explain this session log (plain or zstd): what a resumed session receives and why (`-` reads stdin).
    #[arg(long, value_name = "FILE", help_heading = heading::SESSION)]
    pub log: Option<PathBuf>,

    #[command(flatten)]
    pub session: SessionArgs,

    /// The harness to explain [default: dsh]; a profile's own settings: --help-profile P.
    #[arg(long, value_name = "P", value_parser = profile_parser(Offer::Explain), help_heading = heading::HARNESS)]
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

    /// With --log, print the parts diff would send whole instead of their first lines.
    #[arg(long, help_heading = heading::OUTPUT)]
    pub full: bool,

    /// Output format.
    #[arg(long, help_heading = heading::OUTPUT, value_name = "FORMAT", default_value = "text",
          value_parser = format_parser("A readable report", "One JSON document (its fields: docs/JSON.md)"))]
    pub format: Format,
}

/// Examples and exit codes: the end of the long help, and the man page.
pub const MANUAL: crate::cli::Manual = crate::cli::Manual {
    examples: &[
        ("explain", "why this directory gets what it gets"),
        ("explain --cwd packages/app --log session.jsonl", ""),
        (
            "explain --log session.jsonl --full",
            "with the parts diff would send, whole",
        ),
        ("explain --format json | jq .budget", ""),
    ],
    exit: &[(0, "success"), (2, "bad usage or unusable input")],
};

pub(crate) fn run(ctx: &mut Ctx<'_>, args: &ExplainArgs) -> Result<u8> {
    if let Some(p) = args.profiles.help_profile {
        return super::profile::help(ctx, "explain", p);
    }
    let mut dsh_only = args.config.given();
    dsh_only.extend(args.log.as_ref().map(|_| "--log"));
    dsh_only.extend(args.full.then_some("--full"));
    dsh_only.extend(args.source_kind.as_ref().map(|_| "--source-kind"));
    dsh_only.extend(args.session.given());
    let command = super::profile::Verb::Explain;
    if let Some(profiles) =
        super::profile::select(command, args.profile, &args.profiles, &dsh_only)?
    {
        let shown = super::profile::Shown {
            profiles: &args.profiles,
            cwd: args.session.cwd.as_deref(),
            format: args.format,
        };
        return super::profile::explain(ctx, shown, profiles[0]);
    }
    let needs = if args.full {
        crate::log::Needs::EVERY_VERSION
    } else {
        crate::log::Needs::ALL
    };
    let from = super::SessionSource::new(args.log.as_deref(), &args.session, &args.config)
        .resumed_by(args.source_kind.as_deref());
    let super::Session { log, settings, dsh } = super::session(ctx, from, needs, true)?;
    let mut report = explain::gather(&settings, log.as_ref(), &from.kind());
    let differs = differs_from_log(ctx.env, &args.config, &dsh, &settings, log.as_ref())?;
    if let (Some(what), Some(log)) = (&differs, &log) {
        output::warnings(
            ctx.err,
            ctx.quiet,
            &[output::differs_from_log(&log.name, what)],
        )?;
    }
    let choices = crate::dshconfig::report::Choices {
        profile_from: dsh.profile_from,
        settings_from: match dsh.settings_from {
            SettingsFrom::Config => "config",
            SettingsFrom::Log => "log",
        },
        settings_from_origin: dsh.settings_from_origin,
    };
    report.dsh_config = Some(crate::dshconfig::report::ConfigReport::new(
        &dsh.config,
        choices,
        differs,
    ));
    report.prompt = report.prompt.map(output::prompt::with_warnings);
    output::warnings(ctx.err, ctx.quiet, &secret_warnings(&report))?;
    if let Some(session) = &report.session {
        let outside = output::outside_scope_warnings(&session.log, &session.outside_scopes);
        output::warnings(ctx.err, ctx.quiet, &outside)?;
    }
    match args.format {
        Format::Json => output::json(ctx.out, &report)?,
        Format::Text => {
            let opts = TextOptions {
                palette: Palette {
                    on: ctx.stdout_color(),
                },
                full: args.full,
            };
            ctx.out.write_all(text(&report, opts).as_bytes())?;
        }
    }
    Ok(0)
}

/// A candidate that points at a secret is said on stderr too (SPEC 7).
fn secret_warnings(report: &explain::Explanation) -> Vec<String> {
    report
        .directories
        .iter()
        .flat_map(|d| &d.candidates)
        .filter_map(|c| {
            let link = c.symlink.as_ref()?;
            let secret = link.secret.as_ref()?;
            Some(output::secret_link_warning(
                &c.display,
                &link.target,
                &secret.resolved,
                crate::discovery::Place::from_name(secret.place),
            ))
        })
        .collect()
}

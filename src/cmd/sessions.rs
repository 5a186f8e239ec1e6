//! `agentctx sessions`: the session logs dsh stored for a directory.
// The doc comments of the flags are their --help text, read by people:
// environment variables and names stay unquoted there.
#![allow(clippy::doc_markdown)]

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::Ctx;
use crate::cli::{ConfigArgs, Format, format_parser, heading};
use crate::logfile;
use crate::output;
use crate::output::sessions::{self as sessions_view, Columns, Hidden, Row};
use crate::sessions::{self, Listed, Scope};

/// List the dsh sessions of the cwd, as dsh's web sidebar lists them.
///
/// Looks under the sessions root ($DSH_HOME/sessions) in the directory dsh
/// names after the cwd, and lists each session whose header cwd is the cwd,
/// newest first: its id, when it was updated (the later of its creation and
/// its latest prompt typed by a person), its agent preset, its workspace
/// (the last segment of its cwd) and its title (the latest session/title).
/// Blank sessions (no turn yet) and subagent sessions are hidden, as the
/// sidebar hides them; --all lists every session of every project.
/// --format json adds the rest: created, modified, size, encoding, event
/// count (when cheap to know), cwd, path.
/// --check-drift reads each log and says whether its visible baseline still
/// matches the workspace, as `diff` decides it.
#[derive(Debug, Args)]
#[command(after_long_help = MANUAL.help(), after_help = MANUAL.short_help())]
pub struct SessionsArgs {
    /// The directory whose sessions to list [default: the current directory].
    #[arg(long, value_name = "DIR", help_heading = heading::SESSION)]
    pub cwd: Option<PathBuf>,

    /// Where dsh stores session logs [default: $DSH_HOME/sessions].
    #[arg(long, value_name = "DIR", help_heading = heading::SESSION)]
    pub sessions_root: Option<PathBuf>,

    #[command(flatten)]
    pub config: ConfigArgs,

    /// List every session of every project under the root, hidden ones too, with their cwd.
    #[arg(long, help_heading = heading::OUTPUT)]
    pub all: bool,

    /// Print only the ids listed, one a line (for shell completion).
    #[arg(long, hide = true)]
    pub ids: bool,

    /// Read each log and say whether its visible baseline matches the workspace.
    #[arg(long, help_heading = heading::OUTPUT)]
    pub check_drift: bool,

    /// Output format.
    #[arg(long, help_heading = heading::OUTPUT, value_name = "FORMAT", default_value = "text",
          value_parser = format_parser("A table, newest first", "One JSON array, an object per session"))]
    pub format: Format,
}

/// Examples and exit codes: the end of the long help, and the man page.
pub const MANUAL: crate::cli::Manual = crate::cli::Manual {
    examples: &[
        ("sessions", "this directory's dsh sessions, newest first"),
        ("sessions --check-drift", "which ones a resume would update"),
        ("sessions --all --format json", ""),
        ("diff --session latest", "then look at one"),
    ],
    exit: &[
        (0, "success, also when there is no session to list"),
        (
            2,
            "bad usage, an unreadable root, or a root holding both encodings",
        ),
    ],
};

/// Logs up to this size on disk are read to count their events...
const CHEAP_BYTES: u64 = 1 << 20;
/// ...when they decode to at most this many bytes: a 183 KB container can
/// decode to 2 GB (issue 21), and listing must not read that.
const CHEAP_DECODED: u64 = 32 << 20;

pub(crate) fn run(ctx: &mut Ctx<'_>, args: &SessionsArgs) -> Result<u8> {
    let settings = crate::settings::Settings::resolve(
        ctx.env,
        &args.config.overrides(),
        args.cwd.as_deref(),
        None,
    )?;
    let dsh = super::dsh_config(
        ctx.env,
        &args.config,
        &settings.cwd.value,
        None,
        crate::settings::SettingsFrom::Config,
        "default",
    )?;
    let root = super::sessions_root(
        ctx.env,
        args.sessions_root.as_deref(),
        &settings,
        Some(&dsh.config),
    )?;
    let cwd = &settings.cwd.value;
    let scope = Scope {
        root: &root,
        cwd,
        all: args.all,
    };
    let listed = sessions::listing(scope).map_err(anyhow::Error::msg)?;
    let hidden = listed.iter().filter(|l| !l.shown()).count();
    let listed: Vec<&Listed> = listed.iter().filter(|l| args.all || l.shown()).collect();
    if args.ids {
        for l in &listed {
            writeln!(ctx.out, "{}", l.stored.id)?;
        }
        return Ok(0);
    }
    if listed.is_empty() {
        let root_exists = std::fs::metadata(&root).is_ok_and(|m| m.is_dir());
        let hint = if args.all {
            sessions_view::none_at_all_hint(&root.display().to_string(), root_exists)
        } else {
            let below = if root_exists {
                below(&root, cwd)
            } else {
                Vec::new()
            };
            sessions_view::none_hint(
                &cwd.display().to_string(),
                &root.display().to_string(),
                root_exists,
                hidden,
                &below,
            )
        };
        output::hint(ctx.err, ctx.quiet, &hint)?;
    }
    let rows: Vec<Row> = listed.iter().map(|l| row(ctx, args, l)).collect();
    let warnings: Vec<String> = rows.iter().filter_map(|r| r.unreadable.clone()).collect();
    output::warnings(ctx.err, ctx.quiet, &warnings)?;
    match args.format {
        Format::Json => output::json(ctx.out, &rows)?,
        Format::Text if rows.is_empty() => {}
        Format::Text => {
            let columns = Columns {
                drift: args.check_drift,
                all: args.all,
            };
            sessions_view::table(ctx.out, &rows, columns)?;
        }
    }
    Ok(0)
}

/// The directories below `cwd` that have stored sessions (their headers'
/// cwds, relative to `cwd`), each with how many, sorted. A root that
/// cannot be listed has none to show.
fn below(root: &std::path::Path, cwd: &std::path::Path) -> Vec<(String, usize)> {
    let scope = Scope {
        root,
        cwd,
        all: true,
    };
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for s in sessions::list(scope).unwrap_or_default() {
        let Some(dir) = s.cwd.as_deref() else {
            continue;
        };
        let dir = crate::paths::normalize(std::path::Path::new("/"), std::path::Path::new(dir));
        if let Ok(rel) = dir.strip_prefix(cwd) {
            if !rel.as_os_str().is_empty() {
                *counts.entry(rel.display().to_string()).or_default() += 1;
            }
        }
    }
    counts.into_iter().collect()
}

/// Lists one session, reading its log when that is cheap or asked for.
fn row(ctx: &Ctx<'_>, args: &SessionsArgs, listed: &Listed) -> Row {
    let s = &listed.stored;
    let hidden = if listed.subagent() {
        Some(Hidden::Subagent)
    } else if listed.blank() {
        Some(Hidden::Blank)
    } else {
        None
    };
    let mut row = Row {
        id: s.id.clone(),
        title: listed.title().map(str::to_owned),
        workspace: listed.workspace().map(str::to_owned),
        updated: listed
            .updated_ms()
            .map(|ms| output::utc(ms.div_euclid(1000))),
        preset: listed.preset().map(str::to_owned),
        hidden,
        summarised: listed.summary.is_some(),
        created: s.created_ms.map(|ms| output::utc(ms.div_euclid(1000))),
        modified: s.modified.map(|t| {
            let secs = match t.duration_since(std::time::UNIX_EPOCH) {
                Ok(d) => i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
                Err(e) => -i64::try_from(e.duration().as_secs()).unwrap_or(i64::MAX),
            };
            output::utc(secs)
        }),
        bytes: s.size,
        encoding: s.encoding,
        events: None,
        cwd: s.cwd.clone(),
        parent: s.parent.clone(),
        path: s.path.display().to_string(),
        drift: None,
        unreadable: None,
    };
    let cheap = s.size <= CHEAP_BYTES
        && (s.encoding == logfile::Encoding::Plain
            || sessions::decodes_within(&s.path, CHEAP_DECODED));
    if !(args.check_drift || cheap) {
        return row;
    }
    let opts = crate::log::ReadOptions {
        strict: false,
        count_packed: true,
        needs: crate::log::Needs::STATE,
    };
    let log = match logfile::read(&s.path, opts) {
        Ok(log) => log,
        Err(e) => {
            row.unreadable = Some(e.message);
            return row;
        }
    };
    // The scanner counted both records and rows by its own line
    // classification, so a row is always a record; checked arithmetic says
    // `?` rather than a wrapped count should that ever not hold.
    let header = u64::from(log.header_cwd.is_some());
    row.events = log
        .storage
        .packed
        .filter(|p| p.uncounted == 0)
        .and_then(|p| {
            log.records
                .checked_sub(header)?
                .checked_sub(p.rows)?
                .checked_add(p.events)
        });
    if args.check_drift {
        match drift(ctx, args, &log) {
            Ok(decision) => row.drift = Some(decision),
            Err(e) => row.unreadable = Some(format!("{e:#}")),
        }
    }
    row
}

/// What `diff` would decide for a stored session now (`--check-drift`).
fn drift(
    ctx: &Ctx<'_>,
    args: &SessionsArgs,
    log: &crate::log::Log,
) -> Result<crate::reconcile::Decision> {
    let cwd = if args.all { None } else { args.cwd.as_deref() };
    // A stored session is the user's own: settings from dsh's configuration
    // as it is now (CONFIG 11.6), as `--session` reads them.
    let c = crate::settings::session_cwd(ctx.env, cwd, Some(log.into()))?;
    let dsh = super::dsh_config(
        ctx.env,
        &args.config,
        &c.value,
        Some(log),
        crate::settings::SettingsFrom::Config,
        "default",
    )?;
    let settings = crate::settings::Settings::resolve_from(
        ctx.env,
        &args.config.overrides(),
        cwd,
        Some(log.into()),
        dsh.effective()
            .map(|e| (e, crate::settings::SettingsFrom::Config)),
    )?;
    let kind = super::source_kind(None);
    let (outcome, _) = super::reconcile_now(&settings, log, &[], &kind);
    Ok(outcome.decision)
}

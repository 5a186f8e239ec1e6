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
use crate::output::sessions::{self as sessions_view, Columns, Row};
use crate::sessions::{self, Scope, Stored};

/// List the session logs dsh stored for the cwd.
///
/// Looks under the sessions root ($DSH_HOME/sessions) in the directory dsh
/// names after the cwd, and lists each session whose header cwd is the cwd:
/// its id, when it was created (the header's createdAt), last modified, its
/// size on disk, encoding (zstd or plain), and its event count when that is
/// cheap to know (logs of at most 1 MiB on disk and 32 MiB decoded, or
/// --check-drift; `?` otherwise).
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

    /// List the sessions of every project under the root, with their cwd.
    #[arg(long, help_heading = heading::OUTPUT)]
    pub all: bool,

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
        (0, "success"),
        (
            2,
            "bad usage, no session found, or a root holding both encodings",
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
    let root = super::sessions_root(ctx.env, args.sessions_root.as_deref(), &settings)?;
    let scope = Scope {
        root: &root,
        cwd: &settings.cwd.value,
        all: args.all,
    };
    let stored = sessions::list(scope).map_err(anyhow::Error::msg)?;
    if stored.is_empty() {
        anyhow::bail!(
            "no dsh session of {} under {}",
            if args.all {
                "any project".to_owned()
            } else {
                settings.cwd.value.display().to_string()
            },
            root.display()
        );
    }
    let rows: Vec<Row> = stored.iter().map(|s| row(ctx, args, s)).collect();
    let warnings: Vec<String> = rows.iter().filter_map(|r| r.unreadable.clone()).collect();
    output::warnings(ctx.err, ctx.quiet, &warnings)?;
    match args.format {
        Format::Json => output::json(ctx.out, &rows)?,
        Format::Text => {
            let columns = Columns {
                drift: args.check_drift,
                cwd: args.all,
            };
            sessions_view::table(ctx.out, &rows, columns)?;
        }
    }
    Ok(0)
}

/// Lists one session, reading its log when that is cheap or asked for.
fn row(ctx: &Ctx<'_>, args: &SessionsArgs, s: &Stored) -> Row {
    let mut row = Row {
        id: s.id.clone(),
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
    let opts = logfile::Options {
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
        let cwd = if args.all { None } else { args.cwd.as_deref() };
        match crate::settings::Settings::resolve(ctx.env, &args.config.overrides(), cwd, Some(&log))
        {
            Ok(settings) => {
                let kind = super::source_kind(None);
                let (outcome, _) = super::diff::outcome(&settings, &log, &[], &kind);
                row.drift = Some(outcome.decision);
            }
            Err(e) => row.unreadable = Some(format!("{e:#}")),
        }
    }
    row
}

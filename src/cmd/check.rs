//! `agentctx check`: the CI gate for instruction budgets. The walk, the
//! findings and the impact are `crate::check`'s; this module presents them
//! in the format asked for (`crate::output::check` words them).

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{Args, ValueEnum};

use super::Ctx;
use crate::check::impact;
use crate::check::{self, Options, sarif, summary};
use crate::cli::{CHECK_PROFILES, ConfigArgs, ProfileArgs, ProfileName, heading, profile_parser};
use crate::output;
use crate::output::check::{View, github, markdown, text};
use crate::output::palette::Palette;

/// Examples and exit codes: the end of the long help, and the man page.
pub const MANUAL: crate::cli::Manual = crate::cli::Manual {
    examples: &[
        ("check", ""),
        (
            "check --format github --deny-warnings --exclude node_modules",
            "",
        ),
        ("check packages/app --format json", ""),
        (
            "check AGENTS.md packages/app/CLAUDE.md",
            "as pre-commit calls it",
        ),
        (
            "check --base origin/main --format markdown",
            "what a pull request changes",
        ),
        (
            "check --format sarif > agentctx.sarif",
            "GitHub code scanning",
        ),
        ("check --summary --warn-at 80", ""),
    ],
    exit: &[
        (
            0,
            "no errors (and no warnings with --deny-warnings); with --base: no new ones",
        ),
        (
            1,
            "an error, or a warning with --deny-warnings; with --base: a new one",
        ),
        (2, "bad usage or unusable input"),
    ],
};

/// Output format of check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// Findings grouped by directory, then a summary line.
    Text,
    /// One JSON document: the findings and every checked directory's baseline.
    Json,
    /// GitHub Actions workflow commands, so annotations land on the files.
    Github,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// A pull-request comment: a summary line, a table, details per directory.
    Markdown,
}

/// Check every directory of a repository against the byte budget (the CI gate).
///
/// Walks the tree under each PATH (sorted, never into .git, skipping
/// directories ignored by .gitignore, .git/info/exclude or .agentctxignore,
/// and --exclude ones; hidden directories are walked) and, for every
/// directory holding an instruction file, renders the baseline a session
/// started there gets, exactly as `agentctx render --cwd DIR` would
/// (without the user-global file unless --include-user-global). A PATH that
/// is an instruction file checks the directories whose baseline it is part
/// of; the user-global file checks the whole project; other files are
/// skipped (so pre-commit can pass every changed file).
///
/// Errors: a baseline that omits or truncates files; a file over
/// --max-source-bytes; a symlink into /proc, /sys, /dev or the home
/// directory outside the project. Warnings: two siblings that both load
/// with different content (with --precedence first: drift between AGENTS.md
/// and the CLAUDE.md it shadows), a symlink that leaves the project root, a
/// dangling symlink, the same file loaded twice through a symlink, invalid
/// UTF-8, a literal </system-reminder>, an empty file, a candidate that is
/// not a regular file, a file whose whole content is a sibling's name (a
/// symlink checked out as text), an unreadable file or directory, and with
/// --warn-at a baseline near the budget.
///
/// With --base REV (in a git work tree; git must be on PATH) it also
/// compares every directory's baseline at REV with the work tree and fails
/// only on errors the change brings.
///
/// Paths are shown relative to the current directory.
#[derive(Debug, Args)]
#[command(after_long_help = MANUAL.help(), after_help = MANUAL.short_help())]
pub struct CheckArgs {
    /// Directories or instruction files to check [default: the project root of the current directory].
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Do not descend into directories with this name, or this path relative to PATH when it holds a `/` (repeatable).
    #[arg(long, help_heading = "What to check", value_name = "NAME|PATH")]
    pub exclude: Vec<String>,

    /// Walk directories that .gitignore, .git/info/exclude or .agentctxignore ignore.
    #[arg(long, help_heading = "What to check")]
    pub no_ignore: bool,

    /// Include the user-global AGENTS.md in every baseline (and check it).
    #[arg(long, help_heading = "What to check")]
    pub include_user_global: bool,

    /// Compare with git revision REV: what the change does to each directory's baseline.
    #[arg(long, help_heading = "What to check", value_name = "REV")]
    pub base: Option<String>,

    /// The harness to check for [default: dsh]; a profile's own settings: --help-profile P.
    #[arg(long, value_name = "P", value_parser = profile_parser(CHECK_PROFILES), help_heading = heading::HARNESS)]
    pub profile: Option<ProfileName>,

    #[command(flatten)]
    pub profiles: ProfileArgs,

    #[command(flatten)]
    pub config: ConfigArgs,

    /// Output format: text, json, github (workflow commands), sarif (SARIF 2.1.0) or markdown (a pull-request comment).
    #[arg(long, help_heading = heading::OUTPUT, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,

    /// Exit 1 on warnings too, not only on errors.
    #[arg(long, help_heading = heading::OUTPUT)]
    pub deny_warnings: bool,

    /// Also list every directory that loads anything: bytes, share of max-bytes, largest file, headroom.
    #[arg(long, help_heading = heading::OUTPUT)]
    pub summary: bool,

    /// Warn about a baseline that reaches PCT percent of max-bytes.
    #[arg(long, help_heading = heading::OUTPUT, value_name = "PCT", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub warn_at: Option<u32>,
}

pub(crate) fn run(ctx: &mut Ctx<'_>, args: &CheckArgs) -> Result<u8> {
    if let Some(p) = args.profiles.help_profile {
        return super::profile::help(ctx, "check", p);
    }
    if let Some(profiles) = profile_selected(args)? {
        return super::profile::check::run(ctx, args, &profiles);
    }
    let base = ctx.env.absolute(ctx.env.process_cwd()?)?;
    // Budgets use the settings dsh's configuration gives a session (CONFIG 11.7).
    let dsh = super::dsh_config(
        ctx.env,
        &args.config,
        &base,
        None,
        crate::settings::SettingsFrom::Config,
        "default",
    )?;
    let settings = crate::settings::Settings::resolve_from(
        ctx.env,
        &args.config.overrides(),
        None,
        None,
        dsh.effective()
            .map(|e| (e, crate::settings::SettingsFrom::Config)),
    )?;
    let selection = check::targets(&settings, &base, &args.paths)?;
    let opts = Options {
        settings: &settings,
        targets: selection.targets,
        base: base.clone(),
        exclude: &args.exclude,
        ignore: !args.no_ignore,
        include_user_global: args.include_user_global || selection.user_global,
        directories: args.format != CheckFormat::Text || args.summary || args.base.is_some(),
        warn_at: args.warn_at,
    };
    let mut report = check::check(&opts)?;
    report.add_dsh_config(&dsh.config, &base);
    let mut base_warnings = Vec::new();
    let impact = match &args.base {
        Some(rev) => {
            let before = impact::check_revision(&opts, rev, &mirror_dir())?;
            base_warnings = before.warnings;
            Some(impact::compare(rev, &before.report, &report))
        }
        None => None,
    };
    let mut warnings: Vec<String> = report
        .unmatched_excludes
        .iter()
        .map(|x| format!("--exclude {x} matched no directory (a NAME, or a PATH relative to the checked tree)"))
        .chain(report.ignore_warnings.iter().cloned())
        .collect();
    warnings.extend(base_warnings);
    output::warnings(ctx.err, ctx.quiet, &warnings)?;
    let palette = Palette {
        on: ctx.stdout_color(),
    };
    let view = View {
        report: &report,
        impact: impact.as_ref(),
        summary: args
            .summary
            .then(|| summary::rows(report.directories.as_deref().unwrap_or(&[]))),
    };
    match args.format {
        CheckFormat::Text => text(ctx.out, &view, palette, ctx.env.stdout_tty)?,
        CheckFormat::Json => output::json(ctx.out, &view.json())?,
        CheckFormat::Github => github::write(ctx.out, &report)?,
        CheckFormat::Sarif => output::json(ctx.out, &sarif::log(&report, &base, impact.as_ref()))?,
        CheckFormat::Markdown => ctx.out.write_all(markdown::render(&view).as_bytes())?,
    }
    let failed = match &impact {
        Some(impact) => impact.failed(args.deny_warnings),
        None => report.failed(args.deny_warnings),
    };
    Ok(u8::from(failed))
}

/// Where the `--base` mirror of a revision goes: `$TMPDIR` when set, else
/// memory (`/dev/shm`) when the system has it, else the temp directory. It
/// holds only the revision's instruction files, and on a busy disk file
/// creation is what the impact costs.
fn mirror_dir() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if std::env::var_os("TMPDIR").is_none() && shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// `--profile` (SPEC 10.7): the profiles to check, or None for dsh.
fn profile_selected(args: &CheckArgs) -> Result<Option<Vec<crate::profile::Profile>>> {
    let mut dsh_only = args.config.given();
    dsh_only.extend(args.include_user_global.then_some("--include-user-global"));
    dsh_only.extend(args.no_ignore.then_some("--no-ignore"));
    dsh_only.extend(args.summary.then_some("--summary"));
    dsh_only.extend(args.warn_at.map(|_| "--warn-at"));
    dsh_only.extend(args.base.as_ref().map(|_| "--base"));
    dsh_only.extend((args.paths.len() > 1).then_some("several PATHs"));
    if args.profile.is_some() {
        match args.format {
            CheckFormat::Github => dsh_only.push("--format github"),
            CheckFormat::Sarif => dsh_only.push("--format sarif"),
            CheckFormat::Markdown => dsh_only.push("--format markdown"),
            CheckFormat::Text | CheckFormat::Json => {}
        }
    }
    super::profile::select(
        super::profile::Command::Check,
        args.profile,
        &args.profiles,
        &dsh_only,
    )
}

//! `agentctx check`: the CI gate for instruction budgets. The walk and the
//! findings are `crate::check`'s; this module presents them as text, JSON or
//! GitHub workflow commands.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};
use owo_colors::{OwoColorize, Style};

use super::Ctx;
use crate::check::{self, Finding, Options, Report, Severity};
use crate::cli::ConfigArgs;
use crate::discovery;
use crate::output;
use crate::paths;

const AFTER_HELP: &str = "\
Examples:
  agentctx check
  agentctx check --format github --deny-warnings --exclude node_modules
  agentctx check packages/app --format json

Exit status:
  0  no errors (and no warnings with --deny-warnings)
  1  an error, or a warning with --deny-warnings
  2  bad usage or unusable input";

/// Output format of check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// Findings grouped by directory, then a summary line.
    Text,
    /// One JSON document: the findings and every checked directory's baseline.
    Json,
    /// GitHub Actions workflow commands, so annotations land on the files.
    Github,
}

/// Check every directory of a repository against the byte budget (the CI gate).
///
/// Walks the tree under PATH (sorted, never into .git, skipping --exclude
/// names) and, for every directory holding an instruction file, renders the
/// baseline a session started there gets, exactly as `agentctx render --cwd
/// DIR` would (without the user-global file unless --include-user-global).
///
/// Errors: a baseline that omits or truncates files; a file over
/// --max-source-bytes. Warnings: a shadowed CLAUDE.md whose content differs
/// from AGENTS.md (drift; with --precedence all, two siblings that both load
/// with different content), a symlink whose target leaves the project root,
/// a broken symlink, invalid UTF-8, a literal </system-reminder>, an empty
/// file, a candidate that is not a regular file, a file whose whole content
/// is a sibling's name (a symlink checked out as text), an unreadable file
/// or directory.
///
/// Paths are shown relative to the current directory.
#[derive(Debug, Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct CheckArgs {
    /// The tree to check [default: the project root of the current directory].
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,

    #[command(flatten)]
    pub config: ConfigArgs,

    #[command(flatten)]
    pub profile: crate::cli::ProfileArgs,

    /// Do not descend into directories with this name (repeatable).
    #[arg(long, value_name = "NAME")]
    pub exclude: Vec<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,

    /// Exit 1 on warnings too, not only on errors.
    #[arg(long)]
    pub deny_warnings: bool,

    /// Include the user-global AGENTS.md in every baseline (and check it).
    #[arg(long)]
    pub include_user_global: bool,
}

pub fn run(ctx: &mut Ctx<'_>, args: &CheckArgs) -> Result<u8> {
    if let Some(profiles) = profile_selected(args)? {
        return super::profile::check::run(
            ctx,
            &args.profile,
            &profiles,
            args.path.as_deref(),
            &args.exclude,
            args.format == CheckFormat::Json,
            args.deny_warnings,
        );
    }
    let settings = crate::env::resolve(ctx.env, &args.config, None, None)?;
    let base = ctx.env.absolute(ctx.env.process_cwd()?)?;
    let path = match &args.path {
        Some(path) => paths::normalize(&base, path),
        None => discovery::find_root(&base, &settings.root_markers.value).root,
    };
    let report = check::check(&Options {
        settings: &settings,
        path,
        base,
        exclude: &args.exclude,
        include_user_global: args.include_user_global,
        directories: args.format == CheckFormat::Json,
    })?;
    let color = ctx.stdout_color();
    match args.format {
        CheckFormat::Text => text(ctx.out, &report, color)?,
        CheckFormat::Json => output::json(ctx.out, &report)?,
        CheckFormat::Github => github(ctx.out, &report)?,
    }
    Ok(u8::from(report.failed(args.deny_warnings)))
}

/// `--profile` (SPEC 10.7): the profiles to check, or None for dsh.
fn profile_selected(args: &CheckArgs) -> Result<Option<Vec<crate::profile::Profile>>> {
    let mut dsh_only = args.config.given();
    dsh_only.extend(args.include_user_global.then_some("--include-user-global"));
    if args.format == CheckFormat::Github && args.profile.profile.is_some() {
        dsh_only.push("--format github");
    }
    super::profile::select(super::profile::Command::Check, &args.profile, &dsh_only)
}

/// The styles of the text output, decided once.
struct Palette {
    on: bool,
}

impl Palette {
    fn paint(&self, text: &str, style: Style) -> String {
        if self.on {
            text.style(style).to_string()
        } else {
            text.to_owned()
        }
    }

    fn severity(&self, severity: Severity) -> String {
        match severity {
            Severity::Error => self.paint("error", Style::new().red().bold()),
            Severity::Warning => self.paint("warning", Style::new().yellow().bold()),
        }
    }
}

/// Findings grouped by directory (in walk order), then the summary line.
fn text(out: &mut dyn Write, report: &Report, color: bool) -> std::io::Result<()> {
    let palette = Palette { on: color };
    let mut group: Option<&str> = None;
    for f in &report.findings {
        if group != Some(f.dir.as_str()) {
            if group.is_some() {
                writeln!(out)?;
            }
            writeln!(
                out,
                "{}",
                palette.paint(&output::escape(&f.dir), Style::new().bold())
            )?;
            group = Some(&f.dir);
        }
        writeln!(
            out,
            "  {}: {}: {}",
            palette.severity(f.severity),
            output::escape(&f.file),
            output::escape(&f.message)
        )?;
    }
    if group.is_some() {
        writeln!(out)?;
    }
    let errors = output::plural(report.errors, "error", "errors");
    let warnings = output::plural(report.warnings, "warning", "warnings");
    let errors = if report.errors > 0 {
        palette.paint(&errors, Style::new().red().bold())
    } else {
        errors
    };
    let warnings = if report.warnings > 0 {
        palette.paint(&warnings, Style::new().yellow().bold())
    } else {
        warnings
    };
    writeln!(
        out,
        "{}; {errors}, {warnings}",
        output::escape(&summary(report))
    )
}

/// `checked N of M directories; largest baseline: B bytes in DIR`.
fn summary(report: &Report) -> String {
    let largest = match &report.largest {
        Some(l) => format!("largest baseline: {} bytes in {}", l.bytes, l.dir),
        None => "no instruction files".to_owned(),
    };
    format!(
        "checked {} of {} {}; {largest}",
        report.checked,
        report.walked,
        if report.walked == 1 {
            "directory"
        } else {
            "directories"
        }
    )
}

/// One workflow command per finding, then the summary as a plain log line.
fn github(out: &mut dyn Write, report: &Report) -> std::io::Result<()> {
    for f in &report.findings {
        writeln!(out, "{}", annotation(f))?;
    }
    writeln!(
        out,
        "agentctx check: {}; {}, {}",
        output::escape(&summary(report)),
        output::plural(report.errors, "error", "errors"),
        output::plural(report.warnings, "warning", "warnings")
    )
}

/// `::error file=F,line=1,title=T::MESSAGE` with GitHub's escaping. The
/// message is escaped for people first (so it holds no raw controls).
fn annotation(f: &Finding) -> String {
    let command = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    format!(
        "::{command} file={},line=1,title={}::{}",
        escape_property(&f.file),
        escape_property(f.title),
        escape_data(&output::escape(&f.message))
    )
}

/// Workflow-command message escaping: `%`, CR, LF.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Workflow-command property escaping: the message set plus `:` and `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn github_escaping_follows_the_workflow_command_rules() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}

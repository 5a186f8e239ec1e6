//! `agentctx check`: the CI gate for instruction budgets. The walk, the
//! findings and the impact are `crate::check`'s; this module presents them
//! in the format asked for (`crate::output::check` words them).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, mpsc};

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};

use super::Ctx;
use crate::check::impact::{self, Impact};
use crate::check::{self, Report, Request, summary};
use crate::cli::{ConfigArgs, Offer, ProfileArgs, ProfileName, heading, profile_parser};
use crate::output;
use crate::output::check::{View, Views, github, markdown, text};
use crate::output::palette::Palette;
use crate::profile::check::Harness;
use crate::profile::{HARNESSES, Profile, Verb};

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

    /// The harnesses to check, comma separated, or all [default: dsh]; a profile's own settings: --help-profile P.
    #[arg(long, value_name = "P,Q", value_parser = profile_parser(Offer::Check), value_delimiter = ',', help_heading = heading::HARNESS)]
    pub profile: Vec<ProfileName>,

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
    let chosen = harnesses(args)?;
    let base = ctx.env.absolute(ctx.env.process_cwd()?)?;
    let (dsh, settings) = resolve(ctx, args, chosen.dsh, &base)?;
    let top = input_top(&settings, &base, &args.paths);
    let others: Vec<Box<dyn Harness>> = chosen
        .others
        .iter()
        .map(|p| {
            let made = p.definition().check(ctx.env, &args.profiles.flags, &top)?;
            made.ok_or_else(|| anyhow::anyhow!("--profile {p} has no check"))
        })
        .collect::<Result<_>>()?;
    let harness_names: Vec<Vec<String>> = others.iter().map(|h| h.names().to_vec()).collect();
    let selection = check::targets(&settings, &base, &args.paths, &harness_names)?;
    let opts = Request {
        settings: &settings,
        targets: selection.targets,
        base: base.clone(),
        exclude: &args.exclude,
        ignore: !args.no_ignore,
        include_user_global: args.include_user_global || selection.user_global,
        directories: args.format != CheckFormat::Text || args.summary || args.base.is_some(),
        warn_at: args.warn_at,
        dsh: chosen.dsh,
        harness_names,
        also: HashSet::new(),
        sink: None,
    };
    let home = ctx.env.home.clone();
    let run = |opts: &Request<'_>, alias: Option<(String, String)>| {
        let revision = alias.is_some();
        let (walk, mut reports) = all_harnesses(opts, &others, home.as_deref(), alias)?;
        // What dsh's configuration says belongs to dsh's report alone, and
        // to the work tree's (as before issue 26: --base REV reports it new).
        if let (Some(dsh), false) = (&dsh, revision) {
            if let Some(report) = reports.iter_mut().find(|r| r.harness == "dsh") {
                report.add_dsh_config(&dsh.config, &base);
            }
        }
        Ok::<_, anyhow::Error>((walk, reports))
    };
    let mut base_warnings = Vec::new();
    let (walk, mut reports, before) = match &args.base {
        Some(rev) => {
            let config: Vec<&str> = others
                .iter()
                .flat_map(|h| h.config_names().iter().copied())
                .collect();
            let in_memory = others.iter().all(|h| h.reads_under_dev());
            let revision = impact::check_revision(&opts, rev, &mirror_dir(in_memory), &config)?;
            base_warnings.clone_from(&revision.warnings);
            let now_opts = Request {
                also: revision.candidate_dirs.clone(),
                ..opts.clone()
            };
            let (walk, now) = run(&now_opts, None)?;
            let checked: Vec<PathBuf> = now
                .iter()
                .flat_map(|r| &r.received)
                .map(|d| crate::paths::normalize(&base, Path::new(&d.dir)))
                .collect();
            let (_, before) = run(&revision.request(&opts, &checked), Some(revision.alias()))?;
            (walk, now, Some(before))
        }
        None => {
            let (walk, now) = run(&opts, None)?;
            (walk, now, None)
        }
    };
    let impacts = args
        .base
        .as_deref()
        .zip(before.as_deref())
        .map(|(rev, before)| impacts(rev, &mut reports, before));
    let mut warnings = exclude_warnings(&walk);
    warnings.extend(base_warnings);
    output::warnings(ctx.err, ctx.quiet, &warnings)?;
    present(ctx, args, &reports, impacts.as_deref(), &base)
}

/// `--base REV`: each report re-anchored on the revision's and compared
/// with it.
fn impacts(rev: &str, reports: &mut [Report], before: &[Report]) -> Vec<Impact> {
    reports
        .iter_mut()
        .zip(before)
        .map(|(now, before)| {
            impact::reanchor(before, now);
            impact::compare(rev, before, now)
        })
        .collect()
}

/// The walk's warnings: `--exclude` entries that matched nothing, then
/// the ignore files refused or cut.
fn exclude_warnings(walk: &Report) -> Vec<String> {
    walk.unmatched_excludes
        .iter()
        .map(|x| format!("--exclude {x} matched no directory (a NAME, or a PATH relative to the checked tree)"))
        .chain(walk.ignore_warnings.iter().cloned())
        .collect()
}

/// dsh's configuration (when dsh is checked) and the settings: dsh's
/// budgets use the settings dsh's configuration gives a session (CONFIG
/// 11.7); the other harnesses judge by dsh's root markers only.
fn resolve(
    ctx: &Ctx<'_>,
    args: &CheckArgs,
    dsh: bool,
    base: &Path,
) -> Result<(Option<super::Dsh>, crate::settings::Settings)> {
    let dsh = if dsh {
        Some(super::dsh_config(
            ctx.env,
            &args.config,
            base,
            None,
            crate::settings::SettingsFrom::Config,
            "default",
        )?)
    } else {
        None
    };
    let settings = crate::settings::Settings::resolve_from(
        ctx.env,
        &args.config.overrides(),
        None,
        None,
        dsh.as_ref()
            .and_then(super::Dsh::effective)
            .map(|e| (e, crate::settings::SettingsFrom::Config)),
    )?;
    Ok((dsh, settings))
}

/// Prints the reports (with their impacts under `--base`) in the chosen
/// format; 1 when one fails.
fn present(
    ctx: &mut Ctx<'_>,
    args: &CheckArgs,
    reports: &[Report],
    impacts: Option<&[Impact]>,
    base: &Path,
) -> Result<u8> {
    let palette = Palette {
        on: ctx.stdout_color(),
    };
    let views = Views(
        reports
            .iter()
            .enumerate()
            .map(|(i, report)| View {
                report,
                impact: impacts.map(|v| &v[i]),
                summary: args.summary.then(|| summary::rows(&report.received)),
            })
            .collect(),
    );
    match args.format {
        CheckFormat::Text => text(ctx.out, &views, palette, ctx.env.stdout_tty)?,
        CheckFormat::Json => output::json(ctx.out, &views.json())?,
        CheckFormat::Github => github::write(ctx.out, &views)?,
        CheckFormat::Sarif => {
            let pairs: Vec<(&Report, Option<&Impact>)> =
                views.0.iter().map(|v| (v.report, v.impact)).collect();
            output::json(ctx.out, &output::check::sarif::log(&pairs, base))?;
        }
        CheckFormat::Markdown => ctx.out.write_all(markdown::render(&views).as_bytes())?,
    }
    let failed = views.0.iter().any(|v| match v.impact {
        Some(impact) => impact.failed(args.deny_warnings),
        None => v.report.failed(args.deny_warnings),
    });
    Ok(u8::from(failed))
}

/// The walk (with dsh's report when dsh is checked) and every harness's
/// report, dsh first: one walk, whose finished session directories the
/// other harnesses load on worker threads while it goes on; then each
/// harness's findings, in walk order, on a thread of its own.
fn all_harnesses(
    opts: &Request<'_>,
    others: &[Box<dyn Harness>],
    home: Option<&Path>,
    alias: Option<(String, String)>,
) -> Result<(Report, Vec<Report>)> {
    let loaded: Vec<Loaded> = others.iter().map(|_| Mutex::default()).collect();
    let (tx, rx) = mpsc::channel::<(PathBuf, u32)>();
    let rx = Mutex::new(rx);
    // One memo for the walk and every load of every harness.
    let memo = &crate::profile::Memo::new();
    // As many as there are cores: the walk is as much waiting on the
    // kernel as the loads are.
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .clamp(1, 4);
    let walk = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..if others.is_empty() { 0 } else { workers })
            .map(|_| {
                let (rx, loaded) = (&rx, &loaded);
                scope.spawn(move || load_sessions(memo, rx, others, loaded))
            })
            .collect();
        let streaming = Request {
            sink: (!others.is_empty()).then_some(tx),
            ..opts.clone()
        };
        // The walk's listings answer the loads' lookups of absent names.
        let walk = if others.is_empty() {
            check::check(&streaming)
        } else {
            memo.run(|| check::check(&streaming))
        };
        drop(streaming);
        for h in handles {
            let _ = h.join();
        }
        walk
    })?;
    let popts = crate::profile::check::Options {
        base: &opts.base,
        home,
        settings: opts.settings,
        paths: walk.paths.clone(),
        walked: walk.walked,
        include_user_global: opts.include_user_global,
        directories: opts.directories,
        warn_at: opts.warn_at,
        alias,
    };
    let (sessions, popts) = (&walk.sessions, &popts);
    let others: Vec<Result<Report>> = std::thread::scope(|scope| {
        let handles: Vec<_> = others
            .iter()
            .zip(&loaded)
            .enumerate()
            .map(|(i, (h, loaded))| {
                scope.spawn(move || {
                    harness_report(memo, h.as_ref(), 1 << i, sessions, loaded, popts)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a harness check panicked")))
            })
            .collect()
    });
    let mut reports = Vec::new();
    if opts.dsh {
        reports.push(walk.clone());
    }
    for r in others {
        reports.push(r?);
    }
    Ok((walk, reports))
}
/// What the load workers found of one harness, by session directory.
type Loaded = Mutex<HashMap<PathBuf, Result<crate::profile::HarnessReport>>>;

/// A load worker: takes the walk's finished session directories (each with
/// the mask of the harnesses it holds files of) and loads them for those
/// harnesses, until the walk ends.
fn load_sessions(
    memo: &std::sync::Arc<crate::profile::Memo>,
    rx: &Mutex<mpsc::Receiver<(PathBuf, u32)>>,
    others: &[Box<dyn Harness>],
    loaded: &[Loaded],
) {
    memo.run(|| {
        loop {
            let job = rx
                .lock()
                .map_err(|_| ())
                .and_then(|r| r.recv().map_err(|_| ()));
            let Ok((path, mask)) = job else { break };
            for (i, h) in others.iter().enumerate() {
                if mask & (1 << i) == 0 {
                    continue;
                }
                let report = crate::profile::check::load(h.as_ref(), &path);
                if let Ok(mut map) = loaded[i].lock() {
                    map.insert(path.clone(), report);
                }
            }
        }
    });
}

/// One harness's report (its mask bit `bit`) over the walk's session
/// directories, from what the workers already loaded.
fn harness_report(
    memo: &std::sync::Arc<crate::profile::Memo>,
    h: &dyn Harness,
    bit: u32,
    sessions: &[check::Session],
    loaded: &Loaded,
    popts: &crate::profile::check::Options<'_>,
) -> Result<Report> {
    let dirs: Vec<(PathBuf, bool)> = sessions
        .iter()
        .filter(|s| (s.mask | s.only) & bit != 0)
        .map(|s| (s.path.clone(), s.only & bit != 0))
        .collect();
    let mut pre = loaded
        .lock()
        .map(|mut m| std::mem::take(&mut *m))
        .unwrap_or_default();
    memo.run(|| crate::profile::check::check(h, &dirs, popts, &mut pre))
}

/// The directory the other harnesses' inputs are resolved for (their
/// config layers): the first PATH (a file's directory), else the project
/// root of the current directory.
fn input_top(settings: &crate::settings::Settings, base: &Path, paths: &[PathBuf]) -> PathBuf {
    match paths.first() {
        Some(p) => {
            let p = crate::paths::normalize(base, p);
            if p.is_dir() {
                p
            } else {
                p.parent()
                    .map_or_else(|| base.to_path_buf(), Path::to_path_buf)
            }
        }
        None => crate::discovery::find_root(base, &settings.root_markers.value).root,
    }
}

/// What `--profile` selects for check: dsh or not, and the other harnesses.
struct Chosen {
    dsh: bool,
    others: Vec<Profile>,
}

/// `--profile` for check: empty is dsh; `all` is dsh and every harness
/// with a check; a list (`dsh,codex`) those. A flag of a harness not
/// chosen, or a dsh setting without dsh, is bad usage.
fn harnesses(args: &CheckArgs) -> Result<Chosen> {
    let mut chosen = Chosen {
        dsh: false,
        others: Vec::new(),
    };
    let names = &args.profile;
    if names.is_empty() {
        chosen.dsh = true;
    }
    let push = |p: Profile, chosen: &mut Chosen| {
        if !chosen.others.contains(&p) {
            chosen.others.push(p);
        }
    };
    for name in names {
        match name {
            ProfileName::Dsh => chosen.dsh = true,
            ProfileName::All => {
                chosen.dsh = true;
                for p in Profile::taken_by(Verb::Check) {
                    push(p, &mut chosen);
                }
            }
            ProfileName::Harness(p) if p.definition().takes(Verb::Check) => {
                push(*p, &mut chosen);
            }
            ProfileName::Harness(p) if p.is_listing() => bail!(
                "--profile {p} has no check: it is documented behaviour, not byte-exact (explain takes it)"
            ),
            ProfileName::Harness(p) => {
                bail!("--profile {p} has no check (render and explain take it)")
            }
        }
    }
    // `all` and lists keep one order: dsh, then the table's.
    chosen
        .others
        .sort_by_key(|p| HARNESSES.iter().position(|h| h == p));
    let label = label_of(&chosen);
    if args.profiles.cwd_as_given {
        bail!(
            "--cwd-as-given works with render and explain (check starts each harness in the directories it walks)"
        );
    }
    if !chosen.dsh {
        if let Some(flag) = args.config.given().first() {
            bail!(
                "{flag} is a dsh setting; it does not apply to --profile {label}{}",
                crate::cmd::profile::instead_for(flag, &chosen.others)
            );
        }
    }
    for (flag, owner) in args.profiles.given() {
        if !chosen.others.contains(&owner) {
            bail!(
                "{flag} is a setting of --profile {owner}; it does not apply to --profile {label}"
            );
        }
    }
    Ok(chosen)
}

/// `dsh`, `codex`, `dsh,codex,gemini`: the harnesses chosen, for messages.
fn label_of(chosen: &Chosen) -> String {
    let mut names: Vec<&str> = Vec::new();
    if chosen.dsh {
        names.push("dsh");
    }
    names.extend(chosen.others.iter().map(|p| p.name()));
    names.join(",")
}

/// Where the `--base` mirror of a revision goes: `$TMPDIR` when set, else
/// memory (`/dev/shm`) when the system has it and every harness checked
/// reads files there, else the temp directory. The mirror holds only the
/// revision's instruction files, and creating and removing them is most of
/// what `--base` costs: on an ext4 `/tmp` mounted with `discard`, 1.5 to
/// 2.4 s against 0.6 s in memory on the 50,000-directory bench tree
/// (issue 28). Claude Code never reads a file under `/dev`, `/proc` or
/// `/sys`, and neither does its profile, so with claude the mirror is on disk.
fn mirror_dir(in_memory: bool) -> PathBuf {
    let shm = Path::new("/dev/shm");
    if in_memory && std::env::var_os("TMPDIR").is_none() && shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

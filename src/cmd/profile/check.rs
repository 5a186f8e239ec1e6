//! `check --profile P|all`: the inputs of each profile resolved once, the
//! walk of `crate::profile::check`, and its text or JSON.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use anyhow::{Result, bail};
use serde::Serialize;

use super::super::Ctx;
use crate::cli::ProfileArgs;
use crate::cmd::check::{CheckArgs, CheckFormat};
use crate::env::Env;
use crate::output::{escape, plural};
use crate::paths;
use crate::profile::check::{self, Options, ProfileReport};
use crate::profile::{Profile, Report, claude, codex, gemini, opencode};

/// Each profile's inputs with a placeholder cwd, and its candidate names.
struct Loader {
    codex: Option<codex::Input>,
    gemini: Option<gemini::Input>,
    opencode: Option<opencode::Input>,
    claude: Option<claude::Input>,
    names: Vec<(Profile, HashSet<String>)>,
}

fn last_component(name: &str) -> String {
    name.rsplit('/')
        .find(|s| !s.is_empty())
        .unwrap_or(name)
        .to_owned()
}

impl Loader {
    fn new(env: &Env, args: &ProfileArgs, top: &Path, profiles: &[Profile]) -> Result<Self> {
        let mut loader = Loader {
            codex: None,
            gemini: None,
            opencode: None,
            claude: None,
            names: Vec::new(),
        };
        for p in profiles {
            let names: Vec<String> = match p {
                Profile::Codex => {
                    let input = super::codex_input(env, args, top)?;
                    let names = codex::candidate_names(&input)?;
                    loader.codex = Some(input);
                    names
                }
                Profile::Gemini => {
                    let input = super::gemini_input(env, args, top)?;
                    let names = gemini::candidate_names(&input)?;
                    loader.gemini = Some(input);
                    names
                }
                Profile::Opencode => {
                    loader.opencode = Some(super::opencode_input(env, args, top)?);
                    ["AGENTS.md", "CLAUDE.md", "CONTEXT.md"]
                        .map(str::to_owned)
                        .to_vec()
                }
                Profile::Claude => {
                    loader.claude = Some(super::claude_input(env, args, top)?);
                    claude::CANDIDATES.map(str::to_owned).to_vec()
                }
                other => bail!("--profile {other} has no check"),
            };
            loader
                .names
                .push((*p, names.iter().map(|n| last_component(n)).collect()));
        }
        Ok(loader)
    }
}

impl check::Loader for Loader {
    fn is_candidate(&self, profile: Profile, name: &str) -> bool {
        self.names
            .iter()
            .any(|(p, names)| *p == profile && names.contains(name))
    }

    fn load(&self, profile: Profile, dir: &Path) -> Result<Report> {
        let mut report = self.load_plain(profile, dir)?;
        check::mark_secrets(&mut report);
        Ok(report)
    }
}

impl Loader {
    /// What `profile` loads for `dir`, before its secrets are noted.
    fn load_plain(&self, profile: Profile, dir: &Path) -> Result<Report> {
        match profile {
            Profile::Codex => match &self.codex {
                Some(input) => codex::load(&codex::Input {
                    cwd: dir.to_path_buf(),
                    ..input.clone()
                }),
                None => bail!("codex was not resolved"),
            },
            Profile::Gemini => match &self.gemini {
                Some(input) => gemini::load(&gemini::Input {
                    cwd: dir.to_path_buf(),
                    ..input.clone()
                }),
                None => bail!("gemini was not resolved"),
            },
            Profile::Opencode => match &self.opencode {
                Some(input) => opencode::load(&opencode::Input {
                    cwd: dir.to_path_buf(),
                    ..input.clone()
                }),
                None => bail!("opencode was not resolved"),
            },
            Profile::Claude => match &self.claude {
                Some(input) => Ok(claude::load(&claude::Input {
                    cwd: dir.to_path_buf(),
                    ..input.clone()
                })),
                None => bail!("claude was not resolved"),
            },
            other => bail!("--profile {other} has no check"),
        }
    }
}

/// The JSON of a profile check.
#[derive(Debug, Serialize)]
struct Json<'a> {
    profiles: &'a [ProfileReport],
    errors: usize,
    warnings: usize,
}

/// Runs `check --profile` for `profiles`: the first PATH (else the git
/// work tree of the cwd), `--exclude`, text or JSON, `--deny-warnings`.
pub(crate) fn run(ctx: &mut Ctx<'_>, check_args: &CheckArgs, profiles: &[Profile]) -> Result<u8> {
    let args = &check_args.profiles;
    let exclude = &check_args.exclude;
    let base = ctx.env.absolute(ctx.env.process_cwd()?)?;
    let top = match check_args.paths.first() {
        Some(p) => paths::normalize(&base, p),
        None => base
            .ancestors()
            .find(|d| d.join(".git").exists())
            .unwrap_or(&base)
            .to_path_buf(),
    };
    match std::fs::metadata(&top) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => bail!("{}: not a directory", top.display()),
        Err(e) => bail!("{}: {e}", top.display()),
    }
    // Each directory is a cwd as `cd DIR && agent` sees it: the walk below
    // a real top stays real.
    let top = paths::physical(&top);
    let loader = Loader::new(ctx.env, args, &top, profiles)?;
    let reports = check::check(
        &Options {
            path: top,
            exclude,
            profiles,
        },
        &loader,
    )?;
    let errors: usize = reports.iter().map(|r| r.errors).sum();
    let warnings: usize = reports.iter().map(|r| r.warnings).sum();
    if check_args.format == CheckFormat::Json {
        crate::output::json(
            ctx.out,
            &Json {
                profiles: &reports,
                errors,
                warnings,
            },
        )?;
    } else {
        text(ctx.out, &reports)?;
    }
    Ok(u8::from(
        errors > 0 || check_args.deny_warnings && warnings > 0,
    ))
}

fn text(out: &mut dyn Write, reports: &[ProfileReport]) -> std::io::Result<()> {
    for r in reports {
        for f in &r.findings {
            let word = f.severity.name();
            writeln!(out, "{}: {word}: {}", r.profile, escape(&f.message))?;
        }
        writeln!(
            out,
            "{}: {} checked; {}, {}",
            r.profile,
            plural(r.directories, "directory", "directories"),
            plural(r.errors, "error", "errors"),
            plural(r.warnings, "warning", "warnings")
        )?;
    }
    Ok(())
}

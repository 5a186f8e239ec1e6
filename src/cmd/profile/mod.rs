//! `--profile` (SPEC 10): the usage rules and the render/explain runs of
//! any harness of the registry (`profile::HARNESSES`), which resolves its
//! own inputs from the flags and the environment.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use super::Ctx;
use crate::cli::{Format, ProfileArgs, ProfileName};
use crate::env::Env;
use crate::paths;
pub(crate) use crate::profile::Verb;
use crate::profile::{self, HarnessReport, Profile};

/// The profiles selected, or None for dsh (sections 1-9). Bad usage (10.1)
/// is an error: a dsh-only flag (`dsh_only` names those given) with another
/// profile, a listing outside explain, `all` outside check, or a profile's
/// flag without that profile.
pub(crate) fn select(
    command: Verb,
    profile: Option<ProfileName>,
    args: &ProfileArgs,
    dsh_only: &[&str],
) -> Result<Option<Vec<Profile>>> {
    let given = args.given();
    let chosen = profile.unwrap_or(ProfileName::Dsh);
    let profiles = match chosen {
        ProfileName::Dsh => {
            if args.cwd_as_given {
                bail!(
                    "--cwd-as-given is a setting of the harness profiles; dsh always takes --cwd as given"
                );
            }
            if let Some((flag, owner)) = given.first() {
                bail!(
                    "{flag} is a setting of --profile {}; it does not apply to dsh{}",
                    owner.name(),
                    instead(flag, ProfileName::Dsh)
                );
            }
            return Ok(None);
        }
        ProfileName::Harness(harness) => vec![harness],
        ProfileName::All => Profile::taken_by(Verb::Check).collect(),
    };
    let label = chosen.name();
    if chosen == ProfileName::All && command != Verb::Check {
        bail!("--profile all works with check only");
    }
    if args.cwd_as_given && command == Verb::Check {
        bail!(
            "--cwd-as-given works with render and explain (check starts each harness in the directories it walks)"
        );
    }
    if let Some(harness) = chosen.harness() {
        if !harness.definition().takes(command) {
            if harness.is_listing() {
                bail!(
                    "--profile {label} is documented behaviour, not byte-exact: it works with explain only"
                );
            }
            bail!(
                "--profile {label} does not work with {}",
                format!("{command:?}").to_lowercase()
            );
        }
    }
    if let Some(flag) = dsh_only.first() {
        bail!(
            "{flag} is a dsh setting; it does not apply to --profile {label}{}",
            instead(flag, chosen)
        );
    }
    if chosen != ProfileName::All {
        if let Some((flag, owner)) = given
            .iter()
            .find(|(_, owner)| ProfileName::from(*owner) != chosen)
        {
            bail!(
                "{flag} is a setting of --profile {}; it does not apply to --profile {label}",
                owner.name()
            );
        }
    }
    Ok(Some(profiles))
}

/// `--help-profile P`: the settings of profile P for `command`, printed as
/// clap prints help (styled when stdout is coloured).
pub(crate) fn help(ctx: &mut Ctx<'_>, command: &str, profile: Profile) -> Result<u8> {
    let help = crate::cli::profile_help((ctx.definition)(), command, profile);
    let text = if ctx.stdout_color() {
        help.ansi().to_string()
    } else {
        help.to_string()
    };
    ctx.out.write_all(text.as_bytes())?;
    Ok(0)
}

/// What to use instead of `flag` with `profile`, where there is a
/// counterpart, as the end of a usage error ("; ...").
fn instead(flag: &str, profile: ProfileName) -> &'static str {
    match profile {
        ProfileName::Harness(harness) => harness.definition().instead(flag).unwrap_or(""),
        ProfileName::Dsh if flag == "--touch" => {
            "; for dsh, `agentctx diff --log FILE --touch PATH` shows what a read or edit of PATH adds to a resumed session"
        }
        ProfileName::Dsh | ProfileName::All => "",
    }
}

/// [`instead`] for a dsh flag given to check with the harnesses `others`
/// (the counterpart of the only one, when there is one).
pub(crate) fn instead_for(flag: &str, others: &[Profile]) -> &'static str {
    match others {
        [one] => instead(flag, (*one).into()),
        _ => "",
    }
}

/// The cwd a profile looks at (10.1): `--cwd` (lexically normalised against
/// the process cwd), else the process cwd; with `physical`, its links
/// resolved as `cd DIR && agent` sees it. It must be a directory, or not
/// exist at all: then the second value is the warning that says so (the
/// harness would be started there once it exists).
pub(crate) fn cwd(
    env: &Env,
    flag: Option<&Path>,
    physical: bool,
) -> Result<(PathBuf, Option<String>)> {
    let cwd = match flag {
        Some(flag) => env.absolute(flag)?,
        None => env.absolute(env.process_cwd()?)?,
    };
    let cwd = if physical { paths::physical(&cwd) } else { cwd };
    let problem = match crate::settings::cwd_problem(&cwd) {
        None => return Ok((cwd, None)),
        Some((Some(e), problem)) if flag.is_some() && e.kind() == std::io::ErrorKind::NotFound => {
            let warning = format!(
                "--cwd {}: {problem}; showing what the harness would load there",
                cwd.display()
            );
            return Ok((cwd, Some(warning)));
        }
        Some((_, problem)) => problem,
    };
    match flag {
        Some(_) => bail!("--cwd {}: {problem}", cwd.display()),
        None => bail!("the current directory {}: {problem}", cwd.display()),
    }
}

/// The cwd of `--cwd` (or the process) and what `profile` loads there.
fn load(
    env: &Env,
    args: &ProfileArgs,
    profile: Profile,
    cwd_flag: Option<&Path>,
) -> Result<(PathBuf, HarnessReport)> {
    let physical = profile.definition().physical_cwd(args.cwd_as_given);
    let (cwd, missing) = cwd(env, cwd_flag, physical)?;
    let mut report = profile.load(env, &args.flags, &cwd)?;
    report.warnings.splice(0..0, missing);
    profile::check::mark_secrets(&mut report);
    Ok((cwd, report))
}

/// What `render` and `explain` pass for `--profile P`: the profile
/// flags, `--cwd` and `--format`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shown<'a> {
    pub profiles: &'a ProfileArgs,
    pub cwd: Option<&'a Path>,
    pub format: Format,
}

/// `render --profile P`: the message bytes, or the report's JSON; with
/// `check`, 1 when a file was cut.
pub(crate) fn render(
    ctx: &mut Ctx<'_>,
    args: Shown<'_>,
    check: bool,
    profile: Profile,
) -> Result<u8> {
    let (_, report) = load(ctx.env, args.profiles, profile, args.cwd)?;
    crate::output::warnings(ctx.err, ctx.quiet, &report.warnings)?;
    let secrets = crate::output::check::words::secret_warnings(&report);
    crate::output::warnings(ctx.err, ctx.quiet, &secrets)?;
    match args.format {
        Format::Text => {
            let parts: Vec<&str> = report.parts.iter().map(|p| p.text.as_str()).collect();
            crate::output::parts(ctx.out, &parts, ctx.env.stdout_tty)?;
        }
        Format::Json => crate::output::json(ctx.out, &crate::output::profile::json(&report))?,
    }
    let cut = report.files.iter().any(|f| {
        matches!(
            f.status,
            profile::Status::Truncated | profile::Status::OverBudget
        )
    });
    Ok(u8::from(check && cut))
}

/// `explain --profile P`: the report as text or JSON.
pub(crate) fn explain(ctx: &mut Ctx<'_>, args: Shown<'_>, profile: Profile) -> Result<u8> {
    let (cwd, report) = load(ctx.env, args.profiles, profile, args.cwd)?;
    let secrets = crate::output::check::words::secret_warnings(&report);
    crate::output::warnings(ctx.err, ctx.quiet, &secrets)?;
    match args.format {
        Format::Json => crate::output::json(ctx.out, &crate::output::profile::json(&report))?,
        Format::Text => {
            let palette = crate::output::palette::Palette {
                on: ctx.stdout_color(),
            };
            let text = crate::output::profile::text(&report, &cwd, palette);
            ctx.out.write_all(text.as_bytes())?;
        }
    }
    Ok(0)
}

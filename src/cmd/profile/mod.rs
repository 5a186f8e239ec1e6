//! `--profile` (SPEC 10): the usage rules, the inputs of each harness
//! profile resolved from the flags and the environment (once, here), and the
//! render/explain/check runs. `view` presents the reports.

pub(crate) mod check;

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use super::Ctx;
use crate::cli::{Format, ProfileArgs, ProfileName, split_list};
use crate::env::Env;
use crate::paths;
use crate::profile::{
    self, HarnessReport, Profile, ValueOrigin, claude, codex, gemini, listings, opencode,
};

/// The command a profile runs under, for the usage rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Command {
    Render,
    Explain,
    Check,
}

/// The profiles selected, or None for dsh (sections 1-9). Bad usage (10.1)
/// is an error: a dsh-only flag (`dsh_only` names those given) with another
/// profile, a listing outside explain, `all` outside check, or a profile's
/// flag without that profile.
pub(crate) fn select(
    command: Command,
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
        ProfileName::Codex => vec![Profile::Codex],
        ProfileName::Gemini => vec![Profile::Gemini],
        ProfileName::Opencode => vec![Profile::Opencode],
        ProfileName::Claude => vec![Profile::Claude],
        ProfileName::Copilot => vec![Profile::Copilot],
        ProfileName::All => Profile::EXACT.to_vec(),
    };
    let label = chosen.name();
    if chosen == ProfileName::All && command != Command::Check {
        bail!("--profile all works with check only");
    }
    if args.cwd_as_given && command == Command::Check {
        bail!(
            "--cwd-as-given works with render and explain (check starts each harness in the directories it walks)"
        );
    }
    if chosen == ProfileName::Copilot && command != Command::Explain {
        bail!(
            "--profile {label} is documented behaviour, not byte-exact: it works with explain only"
        );
    }
    if let Some(flag) = dsh_only.first() {
        bail!(
            "{flag} is a dsh setting; it does not apply to --profile {label}{}",
            instead(flag, chosen)
        );
    }
    if chosen != ProfileName::All {
        if let Some((flag, owner)) = given.iter().find(|(_, owner)| *owner != chosen) {
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
pub(crate) fn help(
    ctx: &mut Ctx<'_>,
    command: &str,
    profile: crate::cli::SettingsProfile,
) -> Result<u8> {
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
    match (flag, profile) {
        ("--max-bytes", ProfileName::Codex) => "; codex's byte budget is --project-doc-max-bytes",
        ("--candidates", ProfileName::Codex) => {
            "; codex's extra names are --project-doc-fallback-filenames"
        }
        ("--candidates", ProfileName::Gemini) => "; gemini's file names are --context-filename",
        ("--root-markers", ProfileName::Codex) => {
            "; codex's root markers are --project-root-markers"
        }
        ("--root-markers", ProfileName::Gemini) => {
            "; gemini's root markers are --memory-boundary-markers"
        }
        ("--touch", ProfileName::Dsh) => {
            "; for dsh, `agentctx diff --log FILE --touch PATH` shows what a read or edit of PATH adds to a resumed session"
        }
        _ => "",
    }
}

/// [`instead`] for a dsh flag given to check with the harnesses `others`
/// (the counterpart of the only one, when there is one).
pub(crate) fn instead_for(flag: &str, others: &[&check::Entry]) -> &'static str {
    let one = match others {
        [one] => one.profile,
        _ => return "",
    };
    instead(flag, one.into())
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

fn home(env: &Env) -> Result<PathBuf> {
    match &env.home {
        Some(home) => env.absolute(home),
        None => bail!("no home directory: set HOME"),
    }
}

/// A directory flag, else a non-empty variable, else a default under home.
fn dir_setting(
    env: &Env,
    flag: Option<&Path>,
    var: &str,
    default: impl FnOnce() -> Result<PathBuf>,
) -> Result<(PathBuf, ValueOrigin)> {
    Ok(match (flag, env.vars.nonempty(var)) {
        (Some(flag), _) => (env.absolute(flag)?, ValueOrigin::Flag),
        (None, Some(v)) => (
            env.absolute(Path::new(v))?,
            ValueOrigin::Env(var.to_owned()),
        ),
        (None, None) => (default()?, ValueOrigin::Default),
    })
}

/// The codex inputs (10.1).
pub(crate) fn codex_input(env: &Env, args: &ProfileArgs, cwd: &Path) -> Result<codex::Input> {
    let (home, home_origin) = dir_setting(env, args.codex_home.as_deref(), "CODEX_HOME", || {
        Ok(home(env)?.join(".codex"))
    })?;
    Ok(codex::Input {
        cwd: cwd.to_path_buf(),
        home,
        home_origin,
        flags: codex::Flags {
            max_bytes: args.project_doc_max_bytes,
            fallbacks: args
                .project_doc_fallback_filenames
                .as_deref()
                .map(split_list),
            markers: args.project_root_markers.as_deref().map(split_list),
        },
    })
}

/// Whether an opencode switch is on: the flag, else the variable equal to
/// `1` or, lower-cased, `true`.
fn switch(env: &Env, flag: bool, var: &str) -> (bool, ValueOrigin) {
    if flag {
        return (true, ValueOrigin::Flag);
    }
    match env.vars.get(var) {
        Some(v) if v == "1" || v.to_lowercase() == "true" => {
            (true, ValueOrigin::Env(var.to_owned()))
        }
        _ => (false, ValueOrigin::Default),
    }
}

/// The opencode inputs (10.1).
pub(crate) fn opencode_input(env: &Env, args: &ProfileArgs, cwd: &Path) -> Result<opencode::Input> {
    let home = home(env)?;
    let (xdg_dir, xdg_dir_origin) = match env.vars.nonempty("XDG_CONFIG_HOME") {
        Some(xdg) => (
            env.absolute(Path::new(xdg))?.join("opencode"),
            ValueOrigin::Env("XDG_CONFIG_HOME".to_owned()),
        ),
        None => (home.join(".config/opencode"), ValueOrigin::Default),
    };
    let config_dir = match (
        &args.opencode_config_dir,
        env.vars.nonempty("OPENCODE_CONFIG_DIR"),
    ) {
        (Some(flag), _) => Some((env.absolute(flag)?, ValueOrigin::Flag)),
        (None, Some(dir)) => Some((
            env.absolute(Path::new(dir))?,
            ValueOrigin::Env("OPENCODE_CONFIG_DIR".to_owned()),
        )),
        (None, None) => None,
    };
    let (disable_claude, disable_claude_origin) = switch(
        env,
        args.disable_claude_code_prompt,
        "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT",
    );
    let (disable_project, disable_project_origin) = switch(
        env,
        args.disable_project_config,
        "OPENCODE_DISABLE_PROJECT_CONFIG",
    );
    Ok(opencode::Input {
        cwd: cwd.to_path_buf(),
        home,
        xdg_dir,
        xdg_dir_origin,
        config_dir,
        disable_claude,
        disable_claude_origin,
        disable_project,
        disable_project_origin,
        instructions: args.instructions.as_deref().map(split_list),
        extra_config: env
            .vars
            .nonempty("OPENCODE_CONFIG")
            .map(|p| env.absolute(Path::new(p)))
            .transpose()?,
        config_content: env.vars.nonempty("OPENCODE_CONFIG_CONTENT").is_some(),
        vars: env.vars.clone(),
    })
}

/// The gemini inputs (10.1).
pub(crate) fn gemini_input(env: &Env, args: &ProfileArgs, cwd: &Path) -> Result<gemini::Input> {
    let (gh, gh_origin) = dir_setting(env, None, "GEMINI_CLI_HOME", || home(env))?;
    let var_path = |name: &str| {
        env.vars
            .nonempty(name)
            .map(|p| env.absolute(Path::new(p)))
            .transpose()
    };
    Ok(gemini::Input {
        cwd: cwd.to_path_buf(),
        gh,
        gh_origin,
        system_settings: var_path("GEMINI_CLI_SYSTEM_SETTINGS_PATH")?
            .unwrap_or_else(|| PathBuf::from("/etc/gemini-cli/settings.json")),
        system_defaults: var_path("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")?,
        trusted: !args.untrusted,
        file_name: args.context_filename.as_deref().map(split_list),
        markers: args.memory_boundary_markers.as_deref().map(split_list),
        touches: args.touch.clone(),
        model: match (&args.model, env.vars.nonempty("GEMINI_MODEL")) {
            (Some(m), _) => Some((m.clone(), ValueOrigin::Flag)),
            (None, Some(m)) => Some((m.to_owned(), ValueOrigin::Env("GEMINI_MODEL".to_owned()))),
            (None, None) => None,
        },
        vars: env.vars.clone(),
    })
}

/// The claude inputs (10.1).
pub(crate) fn claude_input(env: &Env, args: &ProfileArgs, cwd: &Path) -> Result<claude::Input> {
    let home = home(env)?;
    // The variable as set, empty included: Claude Code joins it as written and
    // resolves it against its cwd (real agent: `cl-src-config-dir-empty-project`).
    let (config_dir, config_dir_origin) =
        match (&args.claude_config_dir, env.vars.get("CLAUDE_CONFIG_DIR")) {
            (Some(flag), _) => (env.absolute(flag)?, ValueOrigin::Flag),
            (None, Some(v)) => (
                PathBuf::from(v),
                ValueOrigin::Env("CLAUDE_CONFIG_DIR".to_owned()),
            ),
            (None, None) => (home.join(".claude"), ValueOrigin::Default),
        };
    Ok(claude::Input {
        cwd: cwd.to_path_buf(),
        home,
        config_dir,
        config_dir_origin,
        disable: env
            .vars
            .get("CLAUDE_CODE_DISABLE_CLAUDE_MDS")
            .map(str::to_owned),
        managed_dir: PathBuf::from(claude::MANAGED_DIR),
    })
}

fn listing_input(env: &Env, cwd: &Path) -> Result<listings::Input> {
    Ok(listings::Input {
        cwd: cwd.to_path_buf(),
        home: home(env)?,
        home_origin: match env.vars.nonempty("HOME") {
            Some(_) => ValueOrigin::Env("HOME".to_owned()),
            None => ValueOrigin::Default,
        },
    })
}

/// What `profile` loads for `cwd`.
fn report(env: &Env, args: &ProfileArgs, profile: Profile, cwd: &Path) -> Result<HarnessReport> {
    match profile {
        Profile::Codex => codex::load(&codex_input(env, args, cwd)?),
        Profile::Gemini => gemini::load(&gemini_input(env, args, cwd)?),
        Profile::Opencode => opencode::load(&opencode_input(env, args, cwd)?),
        Profile::Claude => Ok(claude::load(&claude_input(env, args, cwd)?)),
        Profile::Copilot => Ok(listings::copilot(&listing_input(env, cwd)?)),
    }
}

/// The cwd of `--cwd` (or the process) and what `profile` loads there.
fn load(
    env: &Env,
    args: &ProfileArgs,
    profile: Profile,
    cwd_flag: Option<&Path>,
) -> Result<(PathBuf, HarnessReport)> {
    // `codex -C DIR` keeps DIR as written; every other launch (and `cd DIR
    // && codex`) sees the real path.
    let physical = !(args.cwd_as_given && profile == Profile::Codex);
    let (cwd, missing) = cwd(env, cwd_flag, physical)?;
    let mut report = report(env, args, profile, &cwd)?;
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
    let secrets = profile::check::secret_warnings(&report);
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
    let secrets = profile::check::secret_warnings(&report);
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

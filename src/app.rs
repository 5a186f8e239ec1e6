//! The application: the whole command line (`Cli`, the `Command` enum), its
//! parse, and the dispatch of each command to its `cmd` module. The one
//! module that names both `cli` (the shared flag groups) and `cmd`.

use std::io::{self, Write};

use anyhow::Result;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::cli::{GlobalArgs, MANUAL};
use crate::cmd::{self, Ctx};
use crate::env::Env;

/// Show, byte for byte, the workspace instructions a dsh session receives, and why.
#[derive(Debug, Parser)]
#[command(name = "agentctx", version, about, long_about = None, after_help = MANUAL.short_help(), after_long_help = MANUAL.help())]
#[command(propagate_version = true, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses the command line. `render` runs on every keystroke of an
    /// editor integration, so a successful `render` command line is parsed
    /// against that subcommand alone (building every subcommand's flags is
    /// most of the start-up); anything else, and every error, help or
    /// version request, goes through the whole definition, so what is
    /// printed does not change.
    ///
    /// # Errors
    /// clap's error for a bad command line, or its help or version text to print.
    pub fn parse_args(args: Vec<std::ffi::OsString>) -> Result<Cli, clap::Error> {
        if let Some(cli) = plain_render(&args) {
            return Ok(cli);
        }
        if args.get(1).is_some_and(|a| a == "render") {
            let root = GlobalArgs::augment_args(clap::Command::new("agentctx")).subcommand(
                cmd::render::RenderArgs::augment_args(clap::Command::new("render")),
            );
            if let Ok(mut matches) = root.try_get_matches_from(&args) {
                // The values are taken out of the matches, not cloned.
                let global = GlobalArgs::from_arg_matches_mut(&mut matches);
                let render = matches
                    .remove_subcommand()
                    .filter(|(name, _)| name == "render")
                    .map(|(_, mut sub)| cmd::render::RenderArgs::from_arg_matches_mut(&mut sub));
                if let (Ok(global), Some(Ok(render))) = (global, render) {
                    return Ok(Cli {
                        global,
                        command: Command::Render(render),
                    });
                }
            }
        }
        <Cli as Parser>::try_parse_from(args)
    }
}

/// `render` with only the flags an editor integration passes (`--cwd DIR`,
/// `--format F`, `--profile P`, `--check`, `--color WHEN`, `-q`), each once,
/// read without building any clap `Command` (that construction is most of
/// `render`'s start-up). Anything else (another flag, `--flag=value`, a
/// value clap would refuse or read as a flag, a repeated flag, a word that
/// is not UTF-8) is `None`, for clap to parse as before.
fn plain_render(args: &[std::ffi::OsString]) -> Option<Cli> {
    use crate::cli::{ColorWhen, Format, ProfileName};
    if args.get(1)? != "render" {
        return None;
    }
    let (mut cwd, mut format, mut profile, mut color) = (None, None, None, None);
    let (mut check, mut quiet) = (false, false);
    let mut words = args[2..].iter();
    while let Some(word) = words.next() {
        let word = word.to_str()?;
        if matches!(word, "--check" | "-q" | "--quiet") {
            let seen = if word == "--check" {
                &mut check
            } else {
                &mut quiet
            };
            if std::mem::replace(seen, true) {
                return None;
            }
            continue;
        }
        // A value clap takes as one: not empty, not a flag.
        let value = words
            .next()?
            .to_str()
            .filter(|v| !v.is_empty() && !v.starts_with('-'))?;
        let fresh = match word {
            "--cwd" => cwd.replace(std::path::PathBuf::from(value)).is_none(),
            "--format" => {
                let f = match value {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    _ => return None,
                };
                format.replace(f).is_none()
            }
            "--profile" => {
                let p = ProfileName::every()
                    .into_iter()
                    .find(|p| p.name() == value)?;
                profile.replace(p).is_none()
            }
            "--color" => {
                let c = match value {
                    "auto" => ColorWhen::Auto,
                    "always" => ColorWhen::Always,
                    "never" => ColorWhen::Never,
                    _ => return None,
                };
                color.replace(c).is_none()
            }
            _ => false,
        };
        if !fresh {
            return None;
        }
    }
    Some(Cli {
        global: GlobalArgs {
            color: color.unwrap_or(ColorWhen::Auto),
            quiet,
        },
        command: Command::Render(cmd::render::RenderArgs {
            log: None,
            session: crate::cli::SessionArgs {
                cwd,
                ..Default::default()
            },
            profile,
            profiles: crate::cli::ProfileArgs::default(),
            source_kind: None,
            config: crate::cli::ConfigArgs::default(),
            check,
            format: format.unwrap_or(Format::Text),
        }),
    })
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Render(cmd::render::RenderArgs),
    Diff(cmd::diff::DiffArgs),
    Explain(cmd::explain::ExplainArgs),
    Check(cmd::check::CheckArgs),
    Sessions(cmd::sessions::SessionsArgs),
    Completions(cmd::completions::CompletionsArgs),
}

/// What `agentctx` alone prints on stderr (exit 2): the usage, the
/// commands, the first example and where the rest is.
#[must_use]
pub fn short_usage() -> String {
    let mut cmd = Cli::command();
    let usage = cmd.render_usage().to_string();
    let commands: Vec<&str> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .map(clap::Command::get_name)
        .collect();
    format!(
        "{}\n\nCommands: {}\n\n{}`agentctx --help` and `agentctx COMMAND --help` show more.\n",
        usage.trim_end(),
        commands.join(", "),
        MANUAL.short_example(),
    )
}

/// The whole definition with every profile setting shown: what the man
/// pages and the completion scripts are built from.
#[must_use]
pub fn reference_command() -> clap::Command {
    let profiles = crate::cli::reference_headings();
    let mut cmd = Cli::command();
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, |mut sub| {
            let ids: Vec<clap::Id> = sub
                .get_arguments()
                .filter(|a| a.get_help_heading().is_some_and(|h| profiles.contains(&h)))
                .map(|a| a.get_id().clone())
                .collect();
            for id in ids {
                sub = sub.mut_arg(id, |a| a.hide(false));
            }
            sub
        });
    }
    cmd
}

/// Runs one command line; returns the exit status (0 ok, 1 a finding).
/// Errors are for the caller to print once.
///
/// # Errors
/// Bad usage or unusable input (exit 2), as one line naming the file.
pub fn run(cli: &Cli, env: &Env, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    let mut ctx = Ctx {
        env,
        definition: <Cli as CommandFactory>::command,
        color: cli.global.color,
        quiet: cli.global.quiet,
        out,
        err,
    };
    let code = match &cli.command {
        Command::Render(args) => cmd::render::run(&mut ctx, args),
        Command::Diff(args) => cmd::diff::run(&mut ctx, args),
        Command::Explain(args) => cmd::explain::run(&mut ctx, args),
        Command::Check(args) => cmd::check::run(&mut ctx, args),
        Command::Sessions(args) => cmd::sessions::run(&mut ctx, args),
        Command::Completions(args) => cmd::completions::run(&mut ctx, args, reference_command()),
    }?;
    ctx.out.flush()?;
    Ok(code)
}

/// Every generated file the repository commits (completions and man pages),
/// built from the whole command line: see [`cmd::completions::artifacts`].
///
/// # Errors
/// Whatever rendering a man page into memory returns.
pub fn artifacts() -> io::Result<Vec<(String, Vec<u8>)>> {
    cmd::completions::artifacts(&reference_command())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// The `render` fast path reads a command line exactly as the whole
    /// definition does, and leaves errors, help and version to it.
    #[test]
    fn the_render_fast_path_parses_as_the_whole_definition() {
        let lines: [&[&str]; 4] = [
            &["agentctx", "render"],
            &[
                "agentctx",
                "render",
                "--cwd",
                "x",
                "--max-bytes",
                "-1",
                "--color",
                "never",
                "-q",
            ],
            &[
                "agentctx",
                "render",
                "--profile",
                "codex",
                "--project-doc-max-bytes",
                "7",
                "--format",
                "json",
            ],
            &[
                "agentctx",
                "render",
                "--precedence",
                "first",
                "--candidates",
                "",
                "--check",
            ],
        ];
        for line in lines {
            let args: Vec<std::ffi::OsString> = line.iter().map(Into::into).collect();
            let fast = Cli::parse_args(args.clone()).unwrap();
            let whole = <Cli as Parser>::try_parse_from(args).unwrap();
            assert_eq!(format!("{fast:?}"), format!("{whole:?}"), "{line:?}");
        }
        for line in [
            &["agentctx", "render", "--help"][..],
            &["agentctx", "render", "--bogus"],
        ] {
            let args: Vec<std::ffi::OsString> = line.iter().map(Into::into).collect();
            let fast = Cli::parse_args(args.clone()).unwrap_err();
            let whole = <Cli as Parser>::try_parse_from(args).unwrap_err();
            assert_eq!(fast.render().to_string(), whole.render().to_string());
        }
    }

    /// The hand-read `render` line is exactly clap's: what it reads parses
    /// the same, what it leaves (repeats, odd values, other flags) goes to
    /// clap, whose result or error is unchanged.
    #[test]
    fn the_plain_render_line_parses_as_the_whole_definition() {
        let lines: &[&[&str]] = &[
            &["render", "--cwd", "a/b", "--format", "json", "--check"],
            &["render", "--profile", "codex", "--color", "always", "-q"],
            &["render", "--quiet", "--color", "auto", "--profile", "dsh"],
            &["render", "--format", "text", "--color", "never"],
            &["render", "--profile", "all"],
            &["render", "--profile", "copilot", "--cwd", "x"],
            &["render", "--cwd", "a", "--cwd", "b"],
            &["render", "-q", "-q"],
            &["render", "--check", "--check"],
            &["render", "--cwd", ""],
            &["render", "--cwd", "-x"],
            &["render", "--cwd", "-"],
            &["render", "--cwd"],
            &["render", "--cwd=x"],
            &["render", "--format", "JSON"],
            &["render", "--format", "yaml"],
            &["render", "--profile", "dsh,codex"],
            &["render", "--profile", "nope"],
            &["render", "--color", "sometimes"],
            &["render", "-qq"],
            &["render", "--", "x"],
            &["render", "x"],
            &["render", "-V"],
            &["render", "--version"],
            &["render", "-h"],
            &["render", "--help"],
            &[
                "render",
                "--check",
                "--profile",
                "codex",
                "--max-bytes",
                "7",
            ],
            &["diff", "--cwd", "x"],
        ];
        for line in lines {
            let args: Vec<std::ffi::OsString> = std::iter::once("agentctx")
                .chain(line.iter().copied())
                .map(Into::into)
                .collect();
            let plain = plain_render(&args);
            match (
                Cli::parse_args(args.clone()),
                <Cli as Parser>::try_parse_from(args),
            ) {
                (Ok(ours), Ok(whole)) => {
                    assert_eq!(format!("{ours:?}"), format!("{whole:?}"), "{line:?}");
                    if let Some(plain) = plain {
                        assert_eq!(format!("{plain:?}"), format!("{whole:?}"), "{line:?}");
                    }
                }
                (Err(ours), Err(whole)) => {
                    assert!(plain.is_none(), "{line:?}");
                    assert_eq!(ours.kind(), whole.kind(), "{line:?}");
                    assert_eq!(ours.render().to_string(), whole.render().to_string());
                }
                (ours, whole) => panic!("{line:?}: {ours:?} vs {whole:?}"),
            }
        }
        let read = |line: &[&str]| {
            let args: Vec<std::ffi::OsString> = line.iter().map(Into::into).collect();
            plain_render(&args).is_some()
        };
        assert!(read(&["agentctx", "render", "--cwd", "x", "--check"]));
        assert!(!read(&["agentctx", "render", "--cwd", "a", "--cwd", "b"]));
        assert!(!read(&["agentctx", "render", "--max-bytes", "7"]));
        // The hand-read line leaves every other field at its default: that
        // holds only while no render argument is read from the environment.
        let whole = <Cli as clap::CommandFactory>::command();
        let render = whole.find_subcommand("render").unwrap();
        let from_env: Vec<_> = render
            .get_arguments()
            .chain(whole.get_arguments())
            .filter(|a| a.get_env().is_some())
            .map(|a| a.get_id().to_string())
            .collect();
        assert!(from_env.is_empty(), "{from_env:?}");
    }

    #[test]
    fn negative_numbers_are_values() {
        let cli = Cli::try_parse_from(["agentctx", "render", "--max-bytes", "-1"]).unwrap();
        let Command::Render(args) = cli.command else {
            panic!("render expected")
        };
        assert_eq!(args.config.max_bytes, Some(-1.0));
    }
}

//! `agentctx completions`: shell completion scripts, and the committed
//! generated files (completions/, man/) built from the same CLI definition.

use std::fmt::Write as _;
use std::io;

use anyhow::Result;
use clap::Args;
use clap_complete::{Generator, Shell};

use super::Ctx;
use roff::{Roff, bold, roman};

use crate::cli::{ENVIRONMENT, Manual};

/// Print a shell completion script.
///
/// The scripts are also committed under completions/ in the source tree.
/// In bash, zsh and fish, --session completes `latest` and the ids of the
/// current directory's sessions (the script runs `agentctx sessions --ids`).
#[derive(Debug, Args)]
#[command(after_long_help = MANUAL.help())]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Examples and exit codes: the end of the long help, and the man page.
pub const MANUAL: crate::cli::Manual = crate::cli::Manual {
    examples: &[
        (
            "completions bash > ~/.local/share/bash-completion/completions/agentctx",
            "",
        ),
        ("completions zsh > ~/.zfunc/_agentctx", ""),
        (
            "completions fish > ~/.config/fish/completions/agentctx.fish",
            "",
        ),
    ],
    exit: &[(0, "success"), (2, "bad usage")],
};

/// Prints the script for the whole command line `cli` (`app` passes its
/// reference definition).
pub(crate) fn run(ctx: &mut Ctx<'_>, args: &CompletionsArgs, cli: clap::Command) -> Result<u8> {
    ctx.out.write_all(&script(args.shell, cli))?;
    Ok(0)
}

/// The completion script for `shell`: `clap_complete`'s, from the whole
/// definition (every profile setting included), with `--session`
/// completing dynamically where the shell can run a command for it.
#[must_use]
pub fn script(shell: Shell, mut cli: clap::Command) -> Vec<u8> {
    // clap_complete panics on a failed write: generate into memory.
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cli, "agentctx", &mut buf);
    let text = String::from_utf8_lossy(&buf);
    match session_completion(shell) {
        Some((static_, dynamic)) => text.replace(static_, dynamic).into_bytes(),
        None => buf,
    }
}

/// What `clap_complete` writes for `--session` (a value with no hint), and
/// what completes `latest` and the session ids of the current directory
/// instead. The bash one needs nothing beyond bash itself (no
/// bash-completion package). `None`: the shell keeps `clap_complete`'s.
fn session_completion(shell: Shell) -> Option<(&'static str, &'static str)> {
    match shell {
        Shell::Bash => Some((
            r#"                --session)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace
                    fi
                    return 0"#,
            r#"                --session)
                    COMPREPLY=($(compgen -W "latest $("$1" sessions --ids 2>/dev/null)" -- "${cur}"))
                    return 0"#,
        )),
        Shell::Zsh => Some((
            r":ID|latest:' \",
            r#":ID|latest:{compadd -- latest ${(f)"$(agentctx sessions --ids 2>/dev/null)"}}' \"#,
        )),
        Shell::Fish => Some((
            "-l session -d 'Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log' -r -f",
            "-l session -d 'Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log' -r -f -a 'latest (agentctx sessions --ids 2>/dev/null)'",
        )),
        _ => None,
    }
}

/// Every generated file the repository commits, as (path relative to the
/// crate root, bytes): one completion script per shell and one man page per
/// command (`man/agentctx.1`, `man/agentctx-render.1`, ...), from the whole
/// command line `cli`.
///
/// # Errors
/// Whatever rendering a man page into memory returns.
pub fn artifacts(cli: &clap::Command) -> io::Result<Vec<(String, Vec<u8>)>> {
    let mut files = Vec::new();
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::PowerShell,
        Shell::Elvish,
    ] {
        files.push((
            format!("completions/{}", shell.file_name("agentctx")),
            script(shell, cli.clone()),
        ));
    }
    let mut cmd = cli.clone().disable_help_subcommand(true);
    cmd.build();
    let mut pages = vec![cmd.clone()];
    pages.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    for page in pages {
        let manual = super::manual(page.get_name());
        let (name, buf) = man_page(page, manual)?;
        files.push((format!("man/{name}"), buf));
    }
    Ok(files)
}

/// One man page: NAME, SYNOPSIS (value names included), a DESCRIPTION that
/// does not repeat NAME, OPTIONS, SUBCOMMANDS, EXIT STATUS, ENVIRONMENT,
/// EXAMPLES, VERSION; the footer names agentctx and its version.
fn man_page(page: clap::Command, manual: &Manual) -> io::Result<(String, Vec<u8>)> {
    // NAME carries the first sentence; DESCRIPTION gets the paragraphs after it.
    let about = page
        .get_about()
        .map(ToString::to_string)
        .unwrap_or_default();
    let long = page
        .get_long_about()
        .map(ToString::to_string)
        .unwrap_or_default();
    let rest = long
        .strip_prefix(about.trim_end_matches('.'))
        .map_or(long.as_str(), |r| r.trim_start_matches('.').trim_start())
        .to_owned();
    let synopsis = synopsis(&page);
    let page = page
        .long_about(rest.clone())
        .after_help(None::<&str>)
        .after_long_help(None::<&str>)
        .override_usage(synopsis);
    let man = clap_mangen::Man::new(page.clone())
        .manual("agentctx manual")
        .source(format!("agentctx {}", env!("CARGO_PKG_VERSION")));
    let mut buf = Vec::new();
    man.render_title(&mut buf)?;
    man.render_name_section(&mut buf)?;
    man.render_synopsis_section(&mut buf)?;
    if !rest.trim().is_empty() {
        man.render_description_section(&mut buf)?;
    }
    if page.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut buf)?;
    }
    if page.has_subcommands() {
        man.render_subcommands_section(&mut buf)?;
    }
    let mut roff = Roff::new();
    roff.control("SH", ["EXIT STATUS"]);
    for (code, when) in manual.exit {
        roff.control("TP", [])
            .text([bold(code.to_string())])
            .text([roman(*when)]);
    }
    roff.control("SH", ["ENVIRONMENT"]);
    for (name, what) in ENVIRONMENT {
        roff.control("TP", [])
            .text([bold(*name)])
            .text([roman(*what)]);
    }
    roff.control("SH", ["EXAMPLES"]);
    for (command, what) in manual.examples {
        roff.control("TP", [])
            .text([bold(format!("agentctx {command}"))]);
        roff.text([roman(if what.is_empty() { " " } else { what })]);
    }
    roff.to_writer(&mut buf)?;
    man.render_version_section(&mut buf)?;
    Ok((man.get_filename(), buf))
}

/// `agentctx render [--cwd <DIR>] [--check] ... [PATH]...`: every option
/// with its value name.
fn synopsis(page: &clap::Command) -> String {
    let name = page.get_bin_name().unwrap_or_else(|| page.get_name());
    let mut out = name.to_owned();
    for arg in page.get_arguments().filter(|a| !a.is_hide_set()) {
        let values: Vec<String> = arg
            .get_value_names()
            .unwrap_or_default()
            .iter()
            .map(|v| format!(" <{v}>"))
            .collect();
        let takes = arg.get_num_args().is_some_and(|n| n.takes_values());
        let value = if takes {
            values.concat()
        } else {
            String::new()
        };
        match (arg.get_long(), arg.get_short()) {
            (Some(long), _) => {
                let _ = write!(out, " [--{long}{value}]");
            }
            (None, Some(short)) => {
                let _ = write!(out, " [-{short}{value}]");
            }
            (None, None) => {
                let id = values.concat();
                let id = if id.is_empty() {
                    format!(" <{}>", arg.get_id())
                } else {
                    id
                };
                let many = if arg.get_num_args().is_some_and(|n| n.max_values() > 1) {
                    "..."
                } else {
                    ""
                };
                let _ = write!(out, " [{}]{many}", id.trim_start());
            }
        }
    }
    if page.has_subcommands() {
        out.push_str(" <COMMAND>");
    }
    out
}

//! The flag groups every command shares (SPEC 1), as clap derive types, and
//! the manual text of the help and man pages. A leaf: it names only the
//! plain settings types and the harness registry (`profile::HARNESSES`,
//! whose flags it makes clap arguments of); `app` assembles the whole
//! command line.
//!
//! `config` holds the dsh settings flags, `profile` the `--profile` value
//! and the other harnesses' settings, `manual` the examples, exit codes,
//! help headings and environment of the help and man pages.
// The doc comments of the flags are their --help text, read by people:
// environment variables and names stay unquoted there.
#![allow(clippy::doc_markdown)]

mod config;
mod manual;
mod profile;

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

pub use config::{ConfigArgs, PrecedenceArg, SettingsFromArg};
pub use manual::{ENVIRONMENT, MANUAL, Manual, heading};
pub use profile::{
    Offer, ProfileArgs, ProfileName, profile_help, profile_parser, reference_headings,
};

/// The flags every subcommand takes.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// When to colour human-facing output.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, global = true, value_name = "WHEN")]
    pub color: ColorWhen,

    /// Print no warnings on stderr.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

/// When to use colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Colour when the stream is a terminal and NO_COLOR is not set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorWhen {
    /// `Some` when the flag decides (always, never), `None` for auto.
    #[must_use]
    pub fn forced(self) -> Option<bool> {
        match self {
            ColorWhen::Always => Some(true),
            ColorWhen::Never => Some(false),
            ColorWhen::Auto => None,
        }
    }
}

/// Output format of render, diff, explain and sessions; each command
/// describes the two in its own terms ([`format_parser`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `--format text|json` of a command, each value described as that
/// command prints it.
#[must_use]
pub fn format_parser(
    text: &'static str,
    json: &'static str,
) -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new([
        PossibleValue::new("text").help(text),
        PossibleValue::new("json").help(json),
    ])
    .try_map(|name| Format::from_str(&name, false))
}

/// Where the session runs: `--cwd`, and an optional log, under
/// [`heading::SESSION`] (the command's `--log` goes there too).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = heading::SESSION)]
pub struct SessionArgs {
    /// The session's working directory [default: the log header's cwd, else the current directory].
    #[arg(long, value_name = "DIR", help_heading = heading::SESSION)]
    pub cwd: Option<PathBuf>,

    /// Parse every log line fully instead of only the lines that can matter.
    #[arg(long, help_heading = heading::SESSION)]
    pub strict: bool,

    /// Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log.
    #[arg(long, value_name = "ID|latest", conflicts_with = "log", value_hint = clap::ValueHint::Other, help_heading = heading::SESSION)]
    pub session: Option<String>,

    /// Where dsh stores session logs [default: $DSH_HOME/sessions].
    #[arg(long, value_name = "DIR", help_heading = heading::SESSION)]
    pub sessions_root: Option<PathBuf>,
}

impl SessionArgs {
    /// The dsh-only session flags given, by name (`--cwd` applies to every
    /// profile).
    #[must_use]
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--strict", self.strict),
            ("--session", self.session.is_some()),
            ("--sessions-root", self.sessions_root.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

pub use crate::text::split_list;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_flags_split_verbatim() {
        assert_eq!(split_list(""), Vec::<String>::new());
        assert_eq!(
            split_list(" a,,b"),
            vec![" a".to_owned(), String::new(), "b".to_owned()]
        );
    }
}

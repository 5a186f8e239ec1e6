//! `--profile`: the harness a command shows, which commands take which,
//! and the settings of the non-dsh harnesses (`--help-profile P`), all
//! built from the registry (`profile::HARNESSES`): a harness's flags are
//! plain data there ([`Flag`]), made clap arguments here.
#![allow(clippy::doc_markdown)]

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Arg, ArgAction, ArgGroup, ArgMatches, Args, FromArgMatches};

use super::heading;
use crate::profile::{Flag, FlagKind, FlagValue, FlagValues, HARNESSES, Profile, Verb};

/// The harness whose context a command shows (SPEC 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileName {
    /// DeepSeek Harness, the default.
    Dsh,
    /// A harness of the registry.
    Harness(Profile),
    /// dsh and every harness with a check (check only).
    All,
}

impl ProfileName {
    /// The harness it names (none for dsh and `all`).
    #[must_use]
    pub fn harness(self) -> Option<Profile> {
        match self {
            ProfileName::Harness(harness) => Some(harness),
            ProfileName::Dsh | ProfileName::All => None,
        }
    }

    /// Its `--profile` value (a harness's is [`Profile::name`]).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ProfileName::Dsh => "dsh",
            ProfileName::Harness(harness) => harness.name(),
            ProfileName::All => "all",
        }
    }

    /// Every name in help order: dsh, the registry's, all.
    #[must_use]
    pub fn every() -> Vec<ProfileName> {
        let mut all = vec![ProfileName::Dsh];
        all.extend(HARNESSES.iter().copied().map(ProfileName::Harness));
        all.push(ProfileName::All);
        all
    }

    /// Its possible value, with its help.
    fn possible_value(self) -> PossibleValue {
        let help = match self {
            ProfileName::Dsh => "DeepSeek Harness, the default".to_owned(),
            ProfileName::Harness(harness) => harness.definition().about().to_owned(),
            ProfileName::All => {
                let names: Vec<&str> = Profile::taken_by(Verb::Check).map(Profile::name).collect();
                format!(
                    "dsh and every harness with a check: {} (check only)",
                    and_list(&names)
                )
            }
        };
        PossibleValue::new(self.name()).help(help)
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl From<Profile> for ProfileName {
    fn from(harness: Profile) -> Self {
        ProfileName::Harness(harness)
    }
}

/// The commands that take `--profile`, for what their help offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    Render,
    Explain,
    Check,
    /// diff replays dsh logs: dsh only.
    Diff,
}

impl Offer {
    /// Whether the command takes `name`: dsh always, `all` check only, a
    /// harness as its definition says.
    #[must_use]
    pub fn takes(self, name: ProfileName) -> bool {
        let command = match self {
            Offer::Render => Verb::Render,
            Offer::Explain => Verb::Explain,
            Offer::Check => Verb::Check,
            Offer::Diff => return name == ProfileName::Dsh,
        };
        match name {
            ProfileName::Dsh => true,
            ProfileName::Harness(harness) => harness.definition().takes(command),
            ProfileName::All => command == Verb::Check,
        }
    }
}

/// `--profile` of a command: help and completions offer only the profiles
/// it takes, while every name still parses, so that the usage error says
/// why one does not apply (`--profile copilot is documented behaviour, not
/// byte-exact: it works with explain only`).
#[must_use]
pub fn profile_parser(offer: Offer) -> impl TypedValueParser<Value = ProfileName> {
    let values = ProfileName::every()
        .into_iter()
        .map(move |p| p.possible_value().hide(!offer.takes(p)));
    ListAware {
        inner: PossibleValuesParser::new(values).try_map(|name| {
            ProfileName::every()
                .into_iter()
                .find(|p| p.name() == name)
                .ok_or("not a profile")
        }),
        lists: offer == Offer::Check,
    }
}

/// [`profile_parser`]'s parser: a list (`dsh,codex`) given to a command
/// that takes one harness says so, instead of clap's "invalid value".
#[derive(Clone)]
struct ListAware<P> {
    inner: P,
    /// The command splits lists itself (check: `value_delimiter`).
    lists: bool,
}

impl<P: TypedValueParser<Value = ProfileName>> TypedValueParser for ListAware<P> {
    type Value = ProfileName;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<ProfileName, clap::Error> {
        if !self.lists && value.to_string_lossy().contains(',') {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                "--profile takes one harness here; a list (dsh,codex) works with check only\n",
            )
            .with_cmd(cmd));
        }
        self.inner.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        self.inner.possible_values()
    }
}

/// The harnesses with settings of their own (`--help-profile P`).
fn with_settings() -> impl Iterator<Item = Profile> {
    HARNESSES
        .iter()
        .copied()
        .filter(|p| !p.definition().flags().is_empty())
}

/// Where `--cwd-as-given` sits among the harnesses' flags: after this
/// harness's (the order the man pages and completions were laid out in).
const CWD_AS_GIVEN_AFTER: &str = "opencode";

const HELP_PROFILE: &str = "help_profile";
const CWD_AS_GIVEN: &str = "cwd_as_given";

/// The settings of the non-dsh profiles (SPEC 10.1), each under its
/// profile's heading: hidden from `--help`, shown by `--help-profile P`
/// ([`profile_help`]), the man pages and the completions. Built from the
/// registry's [`Flag`]s; the values given are [`FlagValues`].
#[derive(Debug, Clone, Default)]
pub struct ProfileArgs {
    /// `--help-profile P`.
    pub help_profile: Option<Profile>,
    /// `--cwd-as-given`.
    pub cwd_as_given: bool,
    /// The harnesses' flags given.
    pub flags: FlagValues,
}

/// The clap argument of one harness flag.
fn arg_of(flag: &Flag, heading: &'static str) -> Arg {
    let arg = Arg::new(flag.long)
        .long(flag.long)
        .help(flag.help)
        .hide(true)
        .help_heading(heading);
    let arg = match flag.value_name {
        Some(name) => arg.value_name(name),
        None => arg,
    };
    match flag.kind {
        FlagKind::Path => arg
            .value_parser(clap::value_parser!(PathBuf))
            .action(ArgAction::Set),
        FlagKind::Number => arg
            .value_parser(clap::value_parser!(u64))
            .action(ArgAction::Set),
        FlagKind::List => arg
            .allow_hyphen_values(true)
            .value_parser(clap::value_parser!(String))
            .action(ArgAction::Set),
        FlagKind::Text => arg
            .value_parser(clap::value_parser!(String))
            .action(ArgAction::Set),
        FlagKind::Switch => arg
            .value_parser(clap::value_parser!(bool))
            .action(ArgAction::SetTrue),
        FlagKind::Repeated => arg
            .value_parser(clap::value_parser!(String))
            .action(ArgAction::Append),
    }
}

/// Every argument of [`ProfileArgs`], in order: `--help-profile`, the
/// harnesses' flags in registry order with `--cwd-as-given` after
/// [`CWD_AS_GIVEN_AFTER`]'s.
fn arguments() -> Vec<Arg> {
    let names: Vec<&str> = with_settings().map(Profile::name).collect();
    let values = with_settings().map(|p| PossibleValue::new(p.name()).help(p.definition().title()));
    let mut args = vec![
        Arg::new(HELP_PROFILE)
            .long("help-profile")
            .value_name("P")
            .hide_possible_values(true)
            .help_heading(heading::HARNESS)
            .value_parser(PossibleValuesParser::new(values))
            .action(ArgAction::Set)
            .help(format!(
                "Print the settings of --profile P ({}) and exit",
                names.join(", ")
            )),
    ];
    let cwd_as_given = Arg::new(CWD_AS_GIVEN)
        .long("cwd-as-given")
        .help_heading(heading::HARNESS)
        .value_parser(clap::value_parser!(bool))
        .action(ArgAction::SetTrue)
        .help("--cwd handed over as written, as `codex -C DIR` (links kept) [default: as `cd DIR && agent`, links resolved]");
    let mut cwd_as_given = Some(cwd_as_given);
    for p in HARNESSES {
        let d = p.definition();
        args.extend(d.flags().iter().map(|f| arg_of(f, d.heading())));
        if d.name() == CWD_AS_GIVEN_AFTER {
            args.extend(cwd_as_given.take());
        }
    }
    args.extend(cwd_as_given);
    args
}

impl Args for ProfileArgs {
    fn group_id() -> Option<clap::Id> {
        Some(clap::Id::from("ProfileArgs"))
    }

    fn augment_args(cmd: clap::Command) -> clap::Command {
        let args = arguments();
        let ids: Vec<clap::Id> = args.iter().map(|a| a.get_id().clone()).collect();
        cmd.group(ArgGroup::new("ProfileArgs").multiple(true).args(ids))
            .args(args)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for ProfileArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Self::from_arg_matches_mut(&mut matches.clone())
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        let mut args = ProfileArgs::default();
        args.update_from_arg_matches_mut(matches)?;
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.update_from_arg_matches_mut(&mut matches.clone())
    }

    fn update_from_arg_matches_mut(&mut self, m: &mut ArgMatches) -> Result<(), clap::Error> {
        let wrong = |e: clap::parser::MatchesError| {
            clap::Error::raw(clap::error::ErrorKind::ArgumentConflict, e.to_string())
        };
        if let Some(name) = m.try_remove_one::<String>(HELP_PROFILE).map_err(wrong)? {
            self.help_profile = Profile::named(&name);
        }
        if let Some(on) = m.try_remove_one::<bool>(CWD_AS_GIVEN).map_err(wrong)? {
            self.cwd_as_given |= on;
        }
        for p in HARNESSES {
            for flag in p.definition().flags() {
                let id = flag.long;
                let value = match flag.kind {
                    FlagKind::Path => m
                        .try_remove_one::<PathBuf>(id)
                        .map_err(wrong)?
                        .map(FlagValue::Path),
                    FlagKind::Number => m
                        .try_remove_one::<u64>(id)
                        .map_err(wrong)?
                        .map(FlagValue::Number),
                    FlagKind::List | FlagKind::Text => m
                        .try_remove_one::<String>(id)
                        .map_err(wrong)?
                        .map(FlagValue::Text),
                    FlagKind::Switch => m
                        .try_remove_one::<bool>(id)
                        .map_err(wrong)?
                        .and_then(|on| on.then_some(FlagValue::Switch)),
                    FlagKind::Repeated => m
                        .try_remove_many::<String>(id)
                        .map_err(wrong)?
                        .map(|v| FlagValue::Many(v.collect()))
                        .filter(|v| *v != FlagValue::Many(Vec::new())),
                };
                if let Some(value) = value {
                    self.flags.0.retain(|(_, long, _)| *long != flag.long);
                    self.flags.0.push((*p, flag.long, value));
                }
            }
        }
        Ok(())
    }
}

/// The help of `agentctx COMMAND --help-profile P`: the settings of one
/// profile, alone, as `--help` would show them were they not hidden; `root`
/// is the whole command line (`app` owns it).
#[must_use]
pub fn profile_help(
    mut root: clap::Command,
    command: &str,
    profile: Profile,
) -> clap::builder::StyledStr {
    let name = profile.name();
    let Some(sub) = root.find_subcommand_mut(command) else {
        return clap::builder::StyledStr::new();
    };
    let mut page = sub
        .clone()
        .about(format!(
            "The settings of --profile {name}, for agentctx {command}: each applies only with --profile {name}."
        ))
        .long_about(None)
        .override_usage(format!("agentctx {command} --profile {name} [OPTIONS]"))
        .after_help(None::<&str>)
        .after_long_help(format!(
            "`agentctx {command} --help` shows every other option."
        ))
        .disable_help_flag(true)
        .max_term_width(100);
    let heading = profile.definition().heading();
    let ids: Vec<clap::Id> = page.get_arguments().map(|a| a.get_id().clone()).collect();
    for id in ids {
        page = page.mut_arg(id, |a| {
            let mine = a.get_help_heading() == Some(heading);
            a.hide(!mine)
        });
    }
    page.render_long_help()
}

/// The headings of the harnesses whose settings the man pages and the
/// completion scripts show.
#[must_use]
pub fn reference_headings() -> Vec<&'static str> {
    HARNESSES
        .iter()
        .map(|p| Profile::definition(*p))
        .filter(|d| !d.flags().is_empty())
        .map(|d| d.heading())
        .collect()
}

impl ProfileArgs {
    /// The profile flags given, each with the profile it belongs to.
    #[must_use]
    pub fn given(&self) -> Vec<(String, Profile)> {
        self.flags
            .0
            .iter()
            .map(|(owner, long, _)| (format!("--{long}"), *owner))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every registry flag becomes one argument, under its harness's
    /// heading, hidden; the shared ones are shown; the order is the
    /// registry's with `--cwd-as-given` after opencode's flags.
    #[test]
    fn the_arguments_follow_the_registry() {
        let args = arguments();
        let longs: Vec<&str> = args.iter().filter_map(Arg::get_long).collect();
        let mut expected = vec!["help-profile"];
        for p in HARNESSES {
            expected.extend(p.definition().flags().iter().map(|f| f.long));
            if p.name() == CWD_AS_GIVEN_AFTER {
                expected.push("cwd-as-given");
            }
        }
        assert_eq!(longs, expected);
        assert!(HARNESSES.iter().any(|p| p.name() == CWD_AS_GIVEN_AFTER));
        for p in HARNESSES {
            let d = p.definition();
            for f in d.flags() {
                let arg = args.iter().find(|a| a.get_long() == Some(f.long)).unwrap();
                assert_eq!(arg.get_help_heading(), Some(d.heading()), "--{}", f.long);
                assert!(arg.is_hide_set(), "--{}", f.long);
            }
        }
        assert!(
            !args
                .iter()
                .any(|a| a.get_long() == Some("cwd-as-given") && a.is_hide_set())
        );
    }

    /// Values parse into the flags of their harness, in definition order;
    /// a switch not given and an empty repetition are not given.
    #[test]
    fn flags_parse_into_flag_values() {
        let cmd = ProfileArgs::augment_args(clap::Command::new("t"));
        let m = cmd
            .try_get_matches_from([
                "t",
                "--model",
                "m",
                "--project-doc-max-bytes",
                "7",
                "--touch",
                "a",
                "--touch",
                "b",
                "--instructions",
                "-x,y",
                "--untrusted",
                "--help-profile",
                "gemini",
            ])
            .unwrap();
        let args = ProfileArgs::from_arg_matches(&m).unwrap();
        assert_eq!(args.help_profile.map(Profile::name), Some("gemini"));
        assert!(!args.cwd_as_given);
        let given: Vec<(String, &str)> = args
            .given()
            .into_iter()
            .map(|(f, p)| (f, p.name()))
            .collect();
        let expected = [
            ("--project-doc-max-bytes", "codex"),
            ("--untrusted", "gemini"),
            ("--touch", "gemini"),
            ("--model", "gemini"),
            ("--instructions", "opencode"),
        ];
        assert_eq!(given, expected.map(|(f, p)| (f.to_owned(), p)));
        assert_eq!(args.flags.many("touch"), ["a", "b"]);
        assert_eq!(
            args.flags.list("instructions"),
            Some(vec!["-x".into(), "y".into()])
        );
        assert_eq!(args.flags.number("project-doc-max-bytes"), Some(7));
    }

    #[test]
    fn names_parse_back() {
        for offer in [Offer::Render, Offer::Explain, Offer::Check, Offer::Diff] {
            let parser = profile_parser(offer);
            let cmd = clap::Command::new("t");
            for name in ProfileName::every() {
                let parsed = parser.parse_ref(&cmd, None, std::ffi::OsStr::new(name.name()));
                assert_eq!(parsed.unwrap(), name);
            }
        }
        assert!(Offer::Explain.takes(ProfileName::from(HARNESSES[4])));
        assert!(!Offer::Render.takes(ProfileName::from(HARNESSES[4])));
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
    }
}

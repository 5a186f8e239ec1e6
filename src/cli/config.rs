//! The flags that set dsh's settings (`--dsh-home`, `--max-bytes`, ...).
#![allow(clippy::doc_markdown)]

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::settings::{Overrides, Precedence, SettingsFrom};

use super::{heading, split_list};

/// The settings that mirror the harness configuration (shared by every
/// subcommand but completions), under [`heading::DSH`]. A flag that sets a
/// dsh setting belongs here.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = heading::DSH)]
pub struct ConfigArgs {
    /// Home of the user-global AGENTS.md, as the loader's dshHome [default: dsh's configuration, else $DSH_HOME if non-blank, else ~/.dsh].
    #[arg(long, value_name = "DIR")]
    pub dsh_home: Option<String>,

    /// UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536].
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = parse_max_bytes)]
    pub max_bytes: Option<f64>,

    /// Per-file read cap in bytes, at least 1 [default: 1048576].
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_source_bytes: Option<i64>,

    /// Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub candidates: Option<String>,

    /// Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub local_candidates: Option<String>,

    /// Names whose existence marks the project root; empty means none [default: .git].
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub root_markers: Option<String>,

    /// How candidates of one directory compete [default: all; with --log, inferred from its scope keys].
    ///
    /// `all` is dsh since 2026-07-22 (9199cd532c): every present candidate
    /// loads. `first` is dsh builds before 2026-07-22: the first present
    /// name of each directory and tier wins.
    #[arg(long, value_enum, value_name = "MODE")]
    pub precedence: Option<PrecedenceArg>,

    /// The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web].
    #[arg(long, value_name = "NAME")]
    pub dsh_profile: Option<String>,

    /// dsh web's agent preset [default: the log's, else agent-presets.default in $DSH_HOME/settings.yaml, else standard].
    #[arg(long, value_name = "ID")]
    pub dsh_preset: Option<String>,

    /// An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order).
    #[arg(long, value_name = "FILE")]
    pub patch: Vec<PathBuf>,

    /// Ignore every layer of dsh's configuration: what dsh ships only.
    #[arg(long)]
    pub no_dsh_config: bool,

    /// Where settings not given as flags come from: dsh's configuration now, or the log's recorded identity [default: config; with --log, log].
    #[arg(long, value_enum, value_name = "FROM")]
    pub settings_from: Option<SettingsFromArg>,
}

/// `--settings-from`: where settings not given as flags come from (CONFIG 11.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SettingsFromArg {
    /// dsh's configuration as it is now (the default, and with --session).
    Config,
    /// The identity the log recorded (the default with --log FILE).
    Log,
}

impl From<SettingsFromArg> for SettingsFrom {
    fn from(s: SettingsFromArg) -> Self {
        match s {
            SettingsFromArg::Config => SettingsFrom::Config,
            SettingsFromArg::Log => SettingsFrom::Log,
        }
    }
}

/// `--max-bytes`: a number as dsh's YAML config writes one (SPEC 1).
fn parse_max_bytes(text: &str) -> Result<f64, String> {
    crate::jsnum::parse(text)
        .ok_or_else(|| "expected a number (65536, 600.5, 1e5, -1, inf or nan)".to_owned())
}

impl ConfigArgs {
    /// The flags as the core takes them.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            dsh_home: self.dsh_home.clone(),
            max_bytes: self.max_bytes,
            max_source_bytes: self.max_source_bytes,
            candidates: self.candidates.as_deref().map(split_list),
            local_candidates: self.local_candidates.as_deref().map(split_list),
            root_markers: self.root_markers.as_deref().map(split_list),
            precedence: self.precedence.map(Precedence::from),
        }
    }
}

/// `--precedence`: how candidates of one directory compete (SPEC 3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PrecedenceArg {
    /// dsh before 2026-07-22: the first present candidate of each directory and tier wins.
    First,
    /// dsh since 2026-07-22 (the default): every present candidate loads; same-content siblings collapse.
    All,
}

impl From<PrecedenceArg> for Precedence {
    fn from(p: PrecedenceArg) -> Self {
        match p {
            PrecedenceArg::First => Precedence::First,
            PrecedenceArg::All => Precedence::All,
        }
    }
}

impl ConfigArgs {
    /// The flags given, by name (each is dsh-only).
    #[must_use]
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--dsh-home", self.dsh_home.is_some()),
            ("--max-bytes", self.max_bytes.is_some()),
            ("--max-source-bytes", self.max_source_bytes.is_some()),
            ("--candidates", self.candidates.is_some()),
            ("--local-candidates", self.local_candidates.is_some()),
            ("--root-markers", self.root_markers.is_some()),
            ("--precedence", self.precedence.is_some()),
            ("--dsh-profile", self.dsh_profile.is_some()),
            ("--dsh-preset", self.dsh_preset.is_some()),
            ("--patch", !self.patch.is_empty()),
            ("--no-dsh-config", self.no_dsh_config),
            ("--settings-from", self.settings_from.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

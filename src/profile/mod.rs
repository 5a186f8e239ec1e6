//! Harness profiles (SPEC 10): what Codex, Gemini CLI, opencode and Claude
//! Code load for a cwd, byte for byte, and what Copilot documents.
//!
//! Each profile takes plain inputs (paths, flag values, the environment
//! variables it reads, already looked up by the CLI layer), walks the
//! filesystem and returns a [`HarnessReport`]: the parts the harness sends, every
//! file it probed with a status, and every setting with its origin. Nothing
//! here prints or reads the process environment.

pub use crate::bounded::Memo;
pub(crate) use crate::bounded::{self, Kind, metadata, stat, symlink_metadata};
pub mod check;
pub mod claude;
pub mod codex;
pub mod gemini;
pub mod glob;
pub mod jsonc;
pub mod listings;
pub mod opencode;
pub mod registry;

pub use registry::{Definition, Flag, FlagKind, FlagValue, FlagValues, Profile, Verb};

/// Every harness besides dsh (its module's `PROFILE`), in the order of the
/// help, the flags and `check --profile all`. A new harness is its module
/// (`pub mod` above) and one line here, at the end.
pub static HARNESSES: &[Profile] = &[
    codex::PROFILE,
    gemini::PROFILE,
    opencode::PROFILE,
    claude::PROFILE,
    listings::COPILOT,
];

use std::collections::HashSet;
use std::fmt;
use std::io;
use std::path::Path;

use serde::Serialize;
use serde::ser::SerializeMap;

/// What the harness did with one probed file (SPEC 10.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Loaded,
    Truncated,
    Empty,
    Shadowed,
    OverBudget,
    Unreadable,
    Duplicate,
    Aborted,
    Jit,
    UrlNotFetched,
    /// Not sent at start: only named in a table the model may open (copilot).
    OnDemand,
    /// claude: an import (or linked rule) outside the cwd, not approved.
    Outside,
    /// claude: an import deeper than four levels.
    TooDeep,
    /// claude: over 4 MiB.
    TooLarge,
    /// claude: an import whose extension is not a text one.
    NotText,
    /// claude: a rule with `paths:`, loaded only when a matching file is read.
    Conditional,
    /// claude: an AGENTS.md held back by a CLAUDE.md.
    HeldBack,
}

impl Status {
    /// Its name, as the JSON spells it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Status::Loaded => "loaded",
            Status::Truncated => "truncated",
            Status::Empty => "empty",
            Status::Shadowed => "shadowed",
            Status::OverBudget => "over-budget",
            Status::Unreadable => "unreadable",
            Status::Duplicate => "duplicate",
            Status::Aborted => "aborted",
            Status::Jit => "jit",
            Status::UrlNotFetched => "url-not-fetched",
            Status::OnDemand => "on-demand",
            Status::Outside => "outside",
            Status::TooDeep => "too-deep",
            Status::TooLarge => "too-large",
            Status::NotText => "not-text",
            Status::Conditional => "conditional",
            Status::HeldBack => "held-back",
        }
    }
}

/// The memory tier of a gemini file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Global,
    Project,
    Jit,
}

/// Why a file got its status, beyond the status itself: the data the
/// presentation words (never wording itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// Nothing to add.
    None,
    /// An OS error message.
    Error(String),
    /// Shadowed or hidden by this path.
    By(String),
    /// Cut by a budget: the setting that holds it (as the harness names
    /// it) and its value.
    Budget { setting: &'static str, max: u64 },
    /// Lossy decoding replaced invalid UTF-8.
    InvalidUtf8,
    /// A free-form fact computed by the profile (a listing's rule).
    Rule(&'static str),
}

/// One probed file, in the harness's probe order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileEntry {
    pub path: String,
    /// Stat size, or None when not a regular file.
    pub bytes: Option<u64>,
    pub included: bool,
    /// Bytes kept when the harness cut the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<u64>,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier: Option<Tier>,
    /// claude: whose file it is.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub memory: Option<claude::MemoryType>,
    /// claude: the file that imported it.
    #[serde(rename = "importedBy", skip_serializing_if = "Option::is_none")]
    pub imported_by: Option<String>,
    #[serde(skip)]
    pub why: Why,
}

impl FileEntry {
    pub fn new(path: impl Into<String>, bytes: Option<u64>, status: Status) -> Self {
        FileEntry {
            path: path.into(),
            bytes,
            included: matches!(status, Status::Loaded | Status::Truncated | Status::Jit),
            truncated: None,
            status,
            tier: None,
            memory: None,
            imported_by: None,
            why: Why::None,
        }
    }

    /// The entry with its reason set.
    #[must_use]
    pub fn why(mut self, why: Why) -> Self {
        self.why = why;
        self
    }
}

/// Where a setting's value came from (SPEC 10.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueOrigin {
    Flag,
    Env(String),
    Config(String),
    Settings(String),
    Default,
    Derived,
}

impl fmt::Display for ValueOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueOrigin::Flag => f.write_str("flag"),
            ValueOrigin::Env(name) => write!(f, "env:{name}"),
            ValueOrigin::Config(path) => write!(f, "config:{path}"),
            ValueOrigin::Settings(path) => write!(f, "settings:{path}"),
            ValueOrigin::Default => f.write_str("default"),
            ValueOrigin::Derived => f.write_str("derived"),
        }
    }
}

impl Serialize for ValueOrigin {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A setting's value (as JSON, the form every profile's values share) and origin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HarnessSetting {
    pub value: serde_json::Value,
    pub origin: ValueOrigin,
}

impl HarnessSetting {
    pub fn new(value: impl Into<serde_json::Value>, origin: ValueOrigin) -> Self {
        HarnessSetting {
            value: value.into(),
            origin,
        }
    }
}

/// A profile's settings in the order it resolves them, each with its origin
/// (not the dsh `crate::settings::Settings`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProfileSettings(pub Vec<(String, HarnessSetting)>);

impl ProfileSettings {
    pub fn push(&mut self, name: &str, setting: HarnessSetting) {
        self.0.push((name.to_owned(), setting));
    }
}

impl Serialize for ProfileSettings {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, setting) in &self.0 {
            map.serialize_entry(name, setting)?;
        }
        map.end()
    }
}

/// One message part the harness sends, with its kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub kind: String,
    pub text: String,
}

/// A fact about a path that is not a loaded file's status: what check
/// warns about and explain mentions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The path (or instruction entry) concerned.
    pub path: String,
    pub kind: NoteKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoteKind {
    /// A candidate that is not a regular file (skipped).
    NonRegular,
    /// A file ignored because an earlier name matched in the chain (opencode).
    IgnoredName { by: String, name: String },
    /// An instruction entry with glob characters (opencode), judged by its
    /// own text for secrets as well as by the files it matches.
    Glob,
    /// An empty AGENTS.override.md hiding this AGENTS.md (codex).
    HiddenByEmptyOverride { by: String },
    /// A file dropped because it is the same file (device and inode) as
    /// `first`, found earlier (gemini).
    SameFile { first: String },
    /// An import the harness replaced by a comment (gemini): the token's path
    /// and the comment's reason.
    Import {
        token: String,
        problem: ImportProblem,
    },
    /// A memory file longer than Claude Code's warning threshold (claude):
    /// its length in UTF-16 code units.
    LongMemory { chars: usize },
    /// Something the harness reads lies in a secret location ([`secret_of`]):
    /// sessions send what it holds to the model.
    Secret {
        /// The real path, as the harness writes paths.
        real: String,
        place: crate::discovery::Place,
        via: Via,
    },
}

/// How a profile reaches a secret ([`NoteKind::Secret`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// A file it loads (the note's path): a candidate, a config entry.
    File,
    /// An `@import` of the note's file (gemini): the token.
    Import(String),
    /// An `instructions` glob (the note's path) whose literal part lies in
    /// a secret location (opencode expands it; agentctx does not).
    Glob,
}

/// Why an import did not expand (gemini).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportProblem {
    Traversal,
    Cycle,
    Failed(String),
    DepthLimit,
}

/// What one profile loads for one cwd.
#[derive(Debug, Clone, PartialEq)]
pub struct HarnessReport {
    pub profile: Profile,
    pub exact: bool,
    pub parts: Vec<Part>,
    pub files: Vec<FileEntry>,
    pub settings: ProfileSettings,
    pub warnings: Vec<String>,
    pub notes: Vec<Note>,
}

impl HarnessReport {
    /// An empty report: nothing loaded, no warnings.
    #[must_use]
    pub fn new(profile: Profile, settings: ProfileSettings) -> Self {
        HarnessReport {
            profile,
            exact: !profile.is_listing(),
            parts: Vec::new(),
            files: Vec::new(),
            settings,
            warnings: Vec::new(),
            notes: Vec::new(),
        }
    }
}

pub use crate::env::Vars;

/// Stat size if `path` is a regular file (links followed).
pub(crate) fn file_size(path: &Path) -> Option<u64> {
    match stat(path) {
        Ok(Kind::File(n)) => Some(n),
        _ => None,
    }
}

/// Reads a regular file through the one bounded reader (`bounded`): with
/// `limit`, its first `limit` bytes; without, the whole file up to
/// [`bounded::MAX_FILE_BYTES`] (a larger one is an error).
pub(crate) fn read_file(path: &Path, limit: Option<u64>) -> io::Result<Vec<u8>> {
    match limit {
        Some(limit) => bounded::read_prefix(path, limit),
        None => bounded::read_capped(path, bounded::MAX_FILE_BYTES),
    }
}

/// Where `path` really lies (links resolved; as written when it does not
/// resolve), when that is a secret location: dsh's one classifier
/// (`discovery::secret_place`), applied to every path a profile reads.
pub(crate) fn secret_of(path: &Path) -> Option<(String, crate::discovery::Place)> {
    let real = crate::bounded::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    crate::discovery::secret_place(&real, None).map(|place| (show(&real), place))
}

/// A path as the harness prints it (lossy for non-UTF-8 bytes).
pub(crate) fn show(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Replaces each `{open}inner}` (`inner` without `}`) with what `value`
/// answers for `inner`. Where it answers `None`, or no `}` follows, `open`
/// stays as written and the scan goes on right after it. Shared by gemini's
/// `${VAR}` and opencode's `{env:NAME}`.
pub(crate) fn replace_refs(
    text: &str,
    open: &str,
    value: impl Fn(&str) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(open) {
        out.push_str(&rest[..i]);
        let after = &rest[i + open.len()..];
        let replaced = after
            .find('}')
            .and_then(|end| Some((value(&after[..end])?, end)));
        if let Some((replacement, end)) = replaced {
            out.push_str(&replacement);
            rest = &after[end + 1..];
        } else {
            out.push_str(open);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// `items` in order, each kept at its first occurrence only (a set
/// remembers what was kept, so long lists stay linear).
pub(crate) fn first_occurrences(items: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = HashSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(item.clone()))
        .collect()
}

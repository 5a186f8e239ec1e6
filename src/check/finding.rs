//! What check reports about one file: a finding, its kind with the facts
//! (`Detail`), its rule and severity (both from the rule table). No
//! sentence is built here: `output::check::words` words every finding from
//! these facts. A fact only the wording needs is `#[serde(skip)]`: the JSON
//! holds the serialised fields, and `message` and `hint` (built by `output`).

use serde::Serialize;

use super::budget::Radius;
use super::rules::{self, RULES, Rule};
use crate::discovery::Place;
use crate::jsnum::MaxBytes;

/// How serious a finding is (of dsh's check and of a profile's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    /// Its name, as the JSON spells it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// What a finding is about, with its facts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Detail {
    /// Sessions lose bytes of this file: the budget omits or truncates it
    /// in the baselines of `directories` (its blast radius).
    OverBudget {
        /// Bytes of the file.
        bytes: usize,
        /// The most any of those sessions keeps of it (0: omitted in all).
        kept_bytes: usize,
        max_bytes: MaxBytes,
        /// Every directory whose session loses bytes of it, in walk order
        /// (relative to where check was started).
        directories: Radius,
        /// How many of them omit it, and how many truncate it.
        omitted_in: usize,
        truncated_in: usize,
        /// The largest cut among them: the directory, the bytes its whole
        /// baseline needs and how many of them are past the budget.
        worst: String,
        whole_bytes: usize,
        excess: usize,
        /// With `--base`: this file grew (from `grewFrom` bytes) and pushed
        /// these unchanged files out of those sessions.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pushes_out: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        grew_from: Option<usize>,
        /// The least bytes a truncation keeps of it (`kept_bytes` is the most).
        #[serde(skip)]
        kept_min: usize,
        /// The setting holding the budget (`max-bytes`, `project_doc_max_bytes`).
        #[serde(skip)]
        setting: &'static str,
        /// With `--base`: the file that grew is cut itself, by these facts.
        #[serde(skip)]
        itself: Option<Box<Detail>>,
    },
    /// A candidate larger than max-source-bytes: never loaded (`grew`: it
    /// grew past the cap while read; `bytes` is the size the probe saw).
    Oversized {
        bytes: u64,
        max_source_bytes: i64,
        #[serde(skip)]
        grew: bool,
    },
    /// A symlinked candidate resolving into a secret location
    /// (`discovery::link::secret_place`), or the home directory outside
    /// the project: sessions send a secret.
    SecretSymlink {
        target: String,
        resolved: String,
        /// `system`, `home`, `secrets`, `git` or `credentials`
        /// (`discovery::Place::name`).
        place: &'static str,
        /// That place.
        #[serde(skip)]
        at: Place,
        /// How the secret is reached: a symlink, or what a harness reads.
        #[serde(skip)]
        reach: Reach,
    },
    /// `first`: a shadowed candidate whose content differs from the winner
    /// (`name`: the winner's file name).
    Drift {
        winner: String,
        #[serde(skip)]
        name: String,
    },
    /// `all`: two siblings of one tier both load, with different content
    /// (`name`: the sibling's file name).
    TwoSources {
        sibling: String,
        /// Bytes of the lines both files hold.
        overlap_bytes: usize,
        #[serde(skip)]
        name: String,
    },
    /// A symlinked candidate whose target lies outside its project root.
    SymlinkLeavesTree {
        target: String,
        project_root: String,
    },
    /// A candidate name that is a symlink to nothing.
    DanglingSymlink { target: String },
    /// Not strict UTF-8 (SPEC 2.4): dsh never loads it. `offset` is the
    /// raw byte offset of the first ill-formed sequence; `cut` when it is
    /// one cut short by the end of the file.
    InvalidUtf8 {
        offset: u64,
        #[serde(skip)]
        cut: bool,
    },
    /// A NUL byte among the first 8192 raw bytes (SPEC 2.4): a binary file,
    /// which dsh never loads.
    Binary { offset: u64 },
    /// A literal `</system-reminder>` (escaped in the prompt).
    SystemReminder { line: usize },
    /// An empty file, or one holding only whitespace.
    Empty { whitespace: bool },
    /// A candidate that is a directory, FIFO, socket or device.
    NotRegular { file_type: &'static str },
    /// The whole content is the name of a sibling file.
    SymlinkStub { sibling: String },
    /// `stat` or the read failed: sessions skip it. Claude Code: `too_large`
    /// is the size of a file over its cap (else it cannot be read), and
    /// `imported_by` the file importing it.
    Unavailable {
        error: String,
        #[serde(skip)]
        too_large: Option<u64>,
        #[serde(skip)]
        imported_by: Option<String>,
    },
    /// A directory that could not be listed: nothing below it is checked.
    UnreadableDir { error: String },
    /// A baseline at or above `--warn-at` percent of max-bytes: `percent`
    /// is the share it uses; the session's directory, `--warn-at` and the
    /// setting holding the budget are for the wording.
    NearBudget {
        bytes: usize,
        max_bytes: MaxBytes,
        percent: u32,
        #[serde(skip)]
        session: String,
        #[serde(skip)]
        warn_at: u32,
        #[serde(skip)]
        setting: &'static str,
    },
    /// A symlinked candidate whose real file also loads under another name
    /// in the same baseline: the same bytes twice.
    LoadsTwice { same_as: String, bytes: usize },
    /// A file the harness ignores because another name won in the chain
    /// (opencode: an AGENTS.md anywhere in it hides every CLAUDE.md).
    IgnoredName { by: String },
    /// codex: an empty `AGENTS.override.md` hides this `AGENTS.md`.
    HiddenByOverride { by: String },
    /// The same file (device and inode, or path) as one the harness loaded
    /// earlier: it loads once (gemini; `first` is empty when the harness
    /// says only that it is a duplicate).
    LoadsOnce { first: String },
    /// An entry agentctx does not reproduce: an opencode URL (`url`; its
    /// globs are resolved since issue 25). The output is not exact.
    NotExact {
        reason: &'static str,
        #[serde(skip)]
        url: String,
    },
    /// An import the harness replaces by a comment or leaves as text
    /// (gemini): `traversal`, `cycle`, `failed` (with the error) or `depth`;
    /// one Claude Code skips (`not-text`, `depth`, `outside`, `failed`),
    /// with the file importing it.
    ImportProblem {
        token: String,
        problem: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
        #[serde(skip)]
        imported_by: Option<String>,
    },
    /// Invalid UTF-8 that the harness replaces with U+FFFD.
    LossyUtf8 {},
    /// codex's project doc discovery failed: every project doc dropped.
    Aborted {},
    /// A warning of the harness about its own inputs (trust, settings,
    /// names).
    HarnessWarning {
        #[serde(skip)]
        said: Said,
    },
    /// dsh's configuration makes dsh refuse to start (CONFIG 11.5): the
    /// finding is on the layer file, with dsh's message.
    DshConfigRefused {
        line: Option<usize>,
        dsh_message: String,
    },
    /// dsh's configuration mounts no loader: sessions get no instructions
    /// (`profile`: dsh's `--profile`).
    DshConfigNotMounted {
        line: Option<usize>,
        reason: String,
        #[serde(skip)]
        profile: String,
    },
}

/// How a secret is reached: through a symlinked candidate, or read by a
/// harness (`path` as the harness writes it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    Link,
    File { path: String },
    Import { path: String, token: String },
    Glob { path: String },
}

/// What a harness warns about: its own words, or Claude Code's long
/// memory file (`chars` characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    Warning(String),
    LongMemory { chars: usize },
}

impl Detail {
    /// How serious it is: its rule's level ([`RULES`] is the one place).
    #[must_use]
    pub fn severity(&self) -> Severity {
        self.rule().level
    }

    /// Its rule (stable id, title, descriptions).
    #[must_use]
    pub fn rule(&self) -> &'static Rule {
        &RULES[rules::index(self)]
    }

    /// The line a finding points at, where one is known.
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            Detail::SystemReminder { line } => Some(*line),
            Detail::DshConfigRefused { line, .. } | Detail::DshConfigNotMounted { line, .. } => {
                *line
            }
            _ => None,
        }
    }
}

/// One finding: about a file (or, for a budget, about the directory whose
/// own instruction file it is attached to).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub severity: Severity,
    /// The stable rule id (`AGX001`...).
    pub rule: &'static str,
    /// The directory, relative to where check was started (`.` for it).
    pub dir: String,
    /// The file the finding is attached to, relative to where check was started.
    pub file: String,
    pub title: &'static str,
    #[serde(flatten)]
    pub detail: Detail,
    /// The harness whose finding it is (`dsh`, `codex`...): its name is
    /// part of the wording.
    #[serde(skip)]
    pub harness: &'static str,
}

impl Finding {
    /// A finding of dsh's check.
    #[must_use]
    pub fn new(dir: String, file: String, detail: Detail) -> Self {
        let rule = detail.rule();
        Finding {
            severity: detail.severity(),
            rule: rule.id,
            dir,
            file,
            title: rule.title,
            detail,
            harness: "dsh",
        }
    }

    /// The same finding, of `harness` (its `--profile` name).
    #[must_use]
    pub fn by(mut self, harness: &'static str) -> Self {
        self.harness = harness;
        self
    }
}

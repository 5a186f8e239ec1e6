//! What check reports about one file: a finding, its kind with the facts
//! (`Detail`), its rule and severity (both from the rule table).

use serde::Serialize;

use super::budget::Radius;
use super::rules::{self, RULES, Rule};
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
    },
    /// A candidate larger than max-source-bytes: never loaded.
    Oversized { bytes: u64, max_source_bytes: i64 },
    /// A symlinked candidate resolving into a secret location
    /// (`discovery::link::secret_place`), or the home directory outside
    /// the project: sessions send a secret.
    SecretSymlink {
        target: String,
        resolved: String,
        /// `system`, `home`, `secrets`, `git` or `credentials`
        /// (`discovery::Place::name`).
        place: &'static str,
    },
    /// `first`: a shadowed candidate whose content differs from the winner.
    Drift { winner: String },
    /// `all`: two siblings of one tier both load, with different content.
    TwoSources {
        sibling: String,
        /// Bytes of the lines both files hold.
        overlap_bytes: usize,
    },
    /// A symlinked candidate whose target lies outside its project root.
    SymlinkLeavesTree {
        target: String,
        project_root: String,
    },
    /// A candidate name that is a symlink to nothing.
    DanglingSymlink { target: String },
    /// Not strict UTF-8 (SPEC 2.4): dsh never loads it. `offset` is the
    /// raw byte offset of the first ill-formed sequence.
    InvalidUtf8 { offset: u64 },
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
    /// `stat` or the read failed: sessions skip it.
    Unavailable { error: String },
    /// A directory that could not be listed: nothing below it is checked.
    UnreadableDir { error: String },
    /// A baseline at or above `--warn-at` percent of max-bytes.
    NearBudget {
        bytes: usize,
        max_bytes: MaxBytes,
        percent: u32,
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
    /// earlier: it loads once (gemini).
    LoadsOnce { first: String },
    /// An entry agentctx does not reproduce: an opencode URL (`url`; its
    /// globs are resolved since issue 25). The output is not exact.
    NotExact { reason: &'static str },
    /// An import the harness replaces by a comment or leaves as text
    /// (gemini): `traversal`, `cycle`, `failed` (with the error) or `depth`.
    ImportProblem {
        token: String,
        problem: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    /// Invalid UTF-8 that the harness replaces with U+FFFD.
    LossyUtf8 {},
    /// codex's project doc discovery failed: every project doc dropped.
    Aborted {},
    /// A warning of the harness about its own inputs (trust, settings,
    /// names).
    HarnessWarning {},
    /// dsh's configuration makes dsh refuse to start (CONFIG 11.5): the
    /// finding is on the layer file, with dsh's message.
    DshConfigRefused {
        line: Option<usize>,
        dsh_message: String,
    },
    /// dsh's configuration mounts no loader: sessions get no instructions.
    DshConfigNotMounted { line: Option<usize>, reason: String },
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
    /// One sentence for people (raw: escape it before printing). Lists are
    /// abbreviated here; the detail keeps them whole.
    pub message: String,
    /// What to do about it, with the numbers: the bytes to cut, the setting
    /// to raise and its value now, or the file to delete or merge.
    pub hint: String,
    #[serde(flatten)]
    pub detail: Detail,
}

impl Finding {
    #[must_use]
    pub fn new(dir: String, file: String, detail: Detail, message: String, hint: String) -> Self {
        let rule = detail.rule();
        Finding {
            severity: detail.severity(),
            rule: rule.id,
            dir,
            file,
            title: rule.title,
            message,
            hint,
            detail,
        }
    }
}

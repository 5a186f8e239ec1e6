//! What the log reader records of system prompts and runtime-context
//! snapshots (SPEC 8), for `crate::prompt` to analyse: the log's own
//! record types, so the reader names nothing above it.

/// Which kind of event carried a system prompt (SPEC 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum PromptOrigin {
    #[serde(rename = "system/message")]
    SystemMessage,
    #[serde(rename = "request/header")]
    RequestHeader,
}

/// One system prompt version (SPEC 8): a run of consecutive events that
/// carried the same text, kept once with the seq and line of its first event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemVersion {
    pub seq: Option<u64>,
    pub line: u64,
    /// The kind of the first event of the run.
    pub origin: PromptOrigin,
    /// Whether any `system/message` event of the run carried this text (the
    /// earlier-format fold of seed 001 reads only system messages).
    pub system_message: bool,
    pub text: String,
    /// Its 1-based number among all versions of the log (kept or not).
    pub number: u64,
}

/// A runtime-context snapshot section.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Section {
    pub name: String,
    pub text: String,
}

/// A runtime-context snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub seq: Option<u64>,
    pub line: u64,
    pub sections: Vec<Section>,
}

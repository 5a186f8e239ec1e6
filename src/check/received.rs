//! What a session started in one directory receives, in terms every
//! harness shares: the bytes sent and needed, the budget, the files loaded
//! (with digests), and those the budget cut. `--summary` and `--base`
//! compare these, so a harness that fills them gets both.

use serde::Serialize;

use crate::jsnum::MaxBytes;

/// One file a session loads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReceivedFile {
    /// Relative to where check was started (`~/...` for a home file).
    pub path: String,
    /// Bytes of its text.
    pub bytes: usize,
    /// SHA-1 of its text, to tell a changed file from an equal one.
    pub digest: String,
}

/// What a session in one checked directory receives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Received {
    /// The directory, relative to where check was started.
    pub dir: String,
    /// Bytes of what is sent.
    pub bytes: usize,
    /// Bytes it would need uncut.
    pub whole_bytes: usize,
    /// The budget (`null`: the harness has none).
    pub max_bytes: Option<MaxBytes>,
    /// The files of its chain that load when the budget allows, in load
    /// order (those it omits too).
    pub files: Vec<ReceivedFile>,
    /// Files the budget left out, and the one(s) it cut.
    pub omitted: Vec<String>,
    pub truncated: Vec<String>,
    /// SHA-1 of everything sent (`None`: nothing is sent).
    #[serde(skip)]
    pub text_digest: Option<String>,
    /// Only for `--base` to compare: the directory holds no instruction
    /// file of its own here, but does on the other side.
    #[serde(skip)]
    pub also: bool,
}

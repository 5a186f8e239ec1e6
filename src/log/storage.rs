//! How a log was stored, as reading it learnt (filled in by the container
//! reader, `crate::logfile`, which sits above the line scanner).

use serde::Serialize;

use crate::log::packed::PackedCount;

/// How a log is stored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// JSON Lines or a JSON array, uncompressed.
    #[default]
    Plain,
    /// dsh's container: Zstandard frames of JSON Lines.
    Zstd,
}

impl Encoding {
    /// The word output uses.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Plain => "plain",
            Encoding::Zstd => "zstd",
        }
    }
}

/// What reading a log learnt about its storage.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Storage {
    pub encoding: Encoding,
    /// Complete zstd frames read.
    pub frames: u64,
    /// What packed rows stand for, when counted (explain, `--strict`).
    pub packed: Option<PackedCount>,
    /// Bytes of the file read (compressed ones for a container): a second
    /// pass reads exactly these, whatever a writer appended meanwhile.
    pub read_bytes: u64,
}

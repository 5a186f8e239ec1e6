//! Stage 2's reading, as dsh's filesystem provider reads text (SPEC 2.4):
//! a present candidate read bounded by max-source-bytes, refused when it is
//! binary (a NUL among the first 8192 bytes) or not strict UTF-8, one
//! leading BOM removed, then hashed; and the ECMAScript whitespace the
//! harness trims with.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use super::os_error;
use crate::text::LazyDigest;

/// How many leading raw bytes dsh samples for a NUL (its
/// `BINARY_SAMPLE_BYTES`): a NUL there makes the file binary.
pub const BINARY_SAMPLE_BYTES: usize = 8192;

/// The UTF-8 byte order mark, which dsh's decoder removes once at the start.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The decoded text of a loaded file.
#[derive(Debug, Clone)]
pub struct Text {
    /// The text, without the leading BOM the file may have had.
    pub text: String,
    /// Whether a leading BOM was removed before the text.
    pub bom: bool,
    /// Of `text`, which is never changed after.
    digest: LazyDigest,
}

impl Text {
    #[must_use]
    pub fn new(text: String, bom: bool) -> Text {
        Text {
            text,
            bom,
            digest: LazyDigest::default(),
        }
    }

    /// Lowercase hex SHA-1 of the text's UTF-8 bytes.
    #[must_use]
    pub fn digest(&self) -> &str {
        self.digest.of(self.text.as_bytes())
    }

    /// The text and its digest (taken or not yet).
    #[must_use]
    pub fn into_parts(self) -> (String, LazyDigest) {
        (self.text, self.digest)
    }
}

/// Texts are equal when their bytes and BOMs are: the digest is the
/// bytes'.
impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.text == other.text && self.bom == other.bom
    }
}

impl Eq for Text {}

/// Why a file dsh would read as text is not text to it (SPEC 2.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// A NUL byte among the first 8192 raw bytes, at this offset.
    Binary { offset: u64 },
    /// The first ill-formed UTF-8 sequence starts at this raw byte offset;
    /// `cut` when it is a sequence cut short by the end of the file.
    InvalidUtf8 { offset: u64, cut: bool },
    /// The read itself failed.
    Error(String),
}

/// What reading a present candidate gave (SPEC 2.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Load {
    Text(Text),
    /// Larger than max-source-bytes: by stat size, or because it grew past
    /// the cap while being read (`grew`: `bytes` is then the size the probe
    /// saw).
    Oversized {
        bytes: u64,
        grew: bool,
    },
    /// Not loaded: binary, invalid UTF-8, or the read failed. Like an
    /// oversized file it gives no transition and freezes nothing.
    Unreadable(Unreadable),
}

/// Reads a candidate whose probe said `size` bytes, bounded by `max_source`.
#[must_use]
pub fn load(path: &Path, size: u64, max_source: u64) -> Load {
    if size > max_source {
        return Load::Oversized {
            bytes: size,
            grew: false,
        };
    }
    match read_bounded(path, max_source.saturating_add(1)) {
        Ok(bytes) => decode(bytes, size, max_source),
        Err(err) => Load::Unreadable(Unreadable::Error(os_error(&err))),
    }
}

/// SPEC 2.4 steps 2 to 5 on the raw bytes read (at most `max_source` + 1 of
/// them); `size` is what the probe saw.
#[must_use]
pub fn decode(bytes: Vec<u8>, size: u64, max_source: u64) -> Load {
    let sample = &bytes[..bytes.len().min(BINARY_SAMPLE_BYTES)];
    // `contains` is core's word-at-a-time search, which probes no CPU
    // features: the memchr crate's first call runs `cpuid` (slow in a VM),
    // and a render whose files are text never needs it.
    if sample.contains(&0) {
        let at = sample.iter().position(|&b| b == 0).unwrap_or(0);
        return Load::Unreadable(Unreadable::Binary { offset: at as u64 });
    }
    let bom = bytes.starts_with(BOM);
    // The text dsh counts has no BOM; more of it than the cap means the file
    // grew after the probe (a bigger stat size was refused above).
    let text_len = bytes.len() - if bom { BOM.len() } else { 0 };
    if text_len as u64 > max_source {
        return Load::Oversized {
            bytes: size,
            grew: true,
        };
    }
    let mut bytes = bytes;
    if bom {
        bytes.drain(..BOM.len());
    }
    let shift = if bom { BOM.len() as u64 } else { 0 };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let e = err.utf8_error();
            return Load::Unreadable(Unreadable::InvalidUtf8 {
                offset: e.valid_up_to() as u64 + shift,
                cut: e.error_len().is_none(),
            });
        }
    };
    Load::Text(Text::new(text, bom))
}

/// Reads at most `limit` bytes. Opens non-blocking so that a path swapped for
/// a FIFO after the probe cannot hang us, and refuses anything but a regular file.
fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file: File = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    // Sized from the open file's own length (plus one byte to see growth), so
    // a file that did not change is read in one call and a bigger one grows.
    let expected = meta.len().min(limit).saturating_add(1);
    let mut bytes = Vec::with_capacity(usize::try_from(expected).unwrap_or(0));
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

pub use crate::text::{is_js_whitespace, js_trim, sha1_hex};

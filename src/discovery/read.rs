//! Stage 2's reading: a present candidate read bounded by max-source-bytes,
//! decoded lossily and hashed, and the ECMAScript whitespace the harness
//! trims with.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use sha1::{Digest, Sha1};

use super::os_error;

/// The decoded text of a loaded file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    pub text: String,
    /// Lowercase hex SHA-1 of the text's UTF-8 bytes.
    pub digest: String,
    /// Whether decoding replaced invalid bytes with U+FFFD.
    pub lossy: bool,
}

/// What reading a present candidate gave (SPEC 2.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Load {
    Text(Text),
    /// Larger than max-source-bytes: by stat size, or after decoding, or
    /// because it grew past the cap while being read (`grew`: `bytes` is
    /// then the size the probe saw).
    Oversized {
        bytes: u64,
        grew: bool,
    },
    /// The read failed: unavailable.
    Unreadable(String),
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
        Ok(bytes) if bytes.len() as u64 > max_source => Load::Oversized {
            bytes: size,
            grew: true,
        },
        Ok(bytes) => {
            let lossy_text = String::from_utf8_lossy(&bytes);
            let lossy = matches!(lossy_text, std::borrow::Cow::Owned(_));
            let text = lossy_text.into_owned();
            if text.len() as u64 > max_source {
                return Load::Oversized {
                    bytes: text.len() as u64,
                    grew: false,
                };
            }
            let digest = sha1_hex(text.as_bytes());
            Load::Text(Text {
                text,
                digest,
                lossy,
            })
        }
        Err(err) => Load::Unreadable(os_error(&err)),
    }
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

/// Lowercase hex SHA-1.
#[must_use]
pub fn sha1_hex(bytes: &[u8]) -> String {
    let digest = Sha1::digest(bytes);
    let mut out = String::with_capacity(40);
    for byte in &digest {
        out.push(char::from_digit(u32::from(byte >> 4), 16).unwrap_or('0'));
        out.push(char::from_digit(u32::from(byte & 0xf), 16).unwrap_or('0'));
    }
    out
}

/// ECMAScript `String.prototype.trim` whitespace: `WhiteSpace` plus
/// `LineTerminator`, which includes U+FEFF but not U+0085.
#[must_use]
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'
            | '\u{000B}'
            | '\u{000C}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{FEFF}'
            | '\u{000A}'
            | '\u{000D}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// `text.trim()` as ECMAScript defines it.
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(is_js_whitespace)
}

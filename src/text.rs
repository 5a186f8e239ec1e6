//! Text helpers every layer shares, with no dependency of their own: the
//! digest and trim dsh uses (SPEC 2.4, 3.2) and counted words.

use sha1::{Digest, Sha1};

/// Splits a list flag on `,` verbatim; an empty value is the empty list.
#[must_use]
pub fn split_list(raw: &str) -> Vec<String> {
    if raw.is_empty() {
        Vec::new()
    } else {
        raw.split(',').map(str::to_owned).collect()
    }
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

/// The lowercase hex SHA-1 of a text, taken the first time it is asked for
/// (issue 28: `render` prints no digest, and the first SHA-1 of a process
/// probes the CPU's features, which a VM answers slowly: 2.5% of `render`'s
/// time, more than the three files' hashing).
#[derive(Debug, Clone, Default)]
pub struct LazyDigest(std::sync::OnceLock<String>);

impl LazyDigest {
    /// The digest of `bytes`, which must be the bytes it was always asked for.
    pub fn of(&self, bytes: &[u8]) -> &str {
        self.0.get_or_init(|| sha1_hex(bytes))
    }
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

/// `n` and the word for it: `1 file`, `2 files`, `1 entry`, `3 entries`.
#[must_use]
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

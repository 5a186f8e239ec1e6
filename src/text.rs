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

//! JSON with comments (SPEC 10.1, 10.5): `//` and `/* */` comments outside
//! strings removed, and for opencode trailing commas before `}` or `]`.
//! Comments become spaces (newlines kept) so parse errors keep their line and
//! column; the result is parsed by `serde_json`, strictly.
//!
//! No crate fits exactly: `jsonc-parser` and `json5` also accept single
//! quotes, unquoted keys or hex numbers, which the harnesses' `JSON.parse`
//! rejects.

use anyhow::{Result, bail};
use serde_json::Value;

/// Removes comments (and, when `trailing_commas`, the commas before a
/// closing bracket), keeping every other byte and every newline in place.
#[must_use]
pub fn strip(text: &str, trailing_commas: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    // Byte index in `out` of the last comma outside strings and comments
    // that no significant character has followed yet.
    let mut pending_comma: Option<usize> = None;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('/', Some('/')) => {
                while let Some(&n) = chars.peek() {
                    if n == '\n' || n == '\r' {
                        break;
                    }
                    chars.next();
                    out.push(' ');
                }
                out.push(' ');
            }
            ('/', Some('*')) => {
                chars.next();
                out.push_str("  ");
                let mut prev = ' ';
                for n in chars.by_ref() {
                    out.push(if n == '\n' || n == '\r' { n } else { ' ' });
                    if prev == '*' && n == '/' {
                        break;
                    }
                    prev = n;
                }
            }
            _ => {
                if c.is_whitespace() {
                    out.push(c);
                    continue;
                }
                if trailing_commas && matches!(c, '}' | ']') {
                    if let Some(at) = pending_comma.take() {
                        out.replace_range(at..=at, " ");
                    }
                }
                pending_comma = None;
                if c == ',' {
                    pending_comma = Some(out.len());
                }
                if c == '"' {
                    in_string = true;
                }
                out.push(c);
            }
        }
    }
    out
}

/// Parses JSONC text.
///
/// # Errors
///
/// The text is not JSON once comments (and trailing commas) are gone; the
/// message names `name:line:col`.
pub fn parse(name: &str, text: &str, trailing_commas: bool) -> Result<Value> {
    match serde_json::from_str(&strip(text, trailing_commas)) {
        Ok(value) => Ok(value),
        Err(e) => bail!(
            "{name}:{}:{}: invalid JSON: {}",
            e.line(),
            e.column(),
            crate::log::strip_position(&e)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_outside_strings_become_spaces() {
        for (text, want) in [
            ("{\"a\"://x\n1}", "{\"a\":   \n1}"),
            ("[1/*c\n*/]", "[1   \n  ]"),
            ("\"//not\"", "\"//not\""),
            ("\"a\\\"/*\"", "\"a\\\"/*\""),
        ] {
            assert_eq!(strip(text, false), want, "{text:?}");
        }
    }

    #[test]
    fn trailing_commas_only_when_asked() {
        for (text, commas, want) in [
            ("[1,]", true, "[1 ]"),
            ("{\"a\":1, /*x*/ }", true, "{\"a\":1        }"),
            ("[1,]", false, "[1,]"),
            ("[\",]\"]", true, "[\",]\"]"),
        ] {
            assert_eq!(strip(text, commas), want, "{text:?}");
        }
        assert!(parse("f", "[1,]", false).is_err());
        assert_eq!(
            parse("f", "[1,2,]", true).unwrap(),
            serde_json::json!([1, 2])
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = parse("s.json", "{\n  // c\n  \"a\": ,\n}", false).unwrap_err();
        assert_eq!(err.to_string(), "s.json:3:8: invalid JSON: expected value");
    }

    #[test]
    fn unterminated_block_comment_swallows_the_rest() {
        assert_eq!(strip("1 /* x", false), "1     ");
    }
}

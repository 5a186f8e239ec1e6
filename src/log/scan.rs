//! Reading just the parts of a JSON log line that agentctx needs, the way
//! JavaScript's `JSON.parse` reads them (issues 13, 15 and 21).
//!
//! [`fields`] walks the members of one object and keeps the raw text of the
//! wanted ones, the last occurrence of a duplicated key winning. Every other
//! value is skipped by [`skip_value`], which checks it as it goes, by the
//! grammar `JSON.parse` accepts (issue 21: a line that matters is read as
//! `JSON.parse` reads it with or without `--strict`). String text and digits
//! are scanned eight bytes at a time in a `u64` (no `unsafe`, no SIMD
//! intrinsics): a log line's keys and values are short, and a word test
//! beats a `memchr` call's set-up there (issue 28). Each escape is checked,
//! and only the few bytes between strings are looked at one by one. Nesting
//! is tracked in bits, iteratively: depth has no limit and costs no
//! recursion.
//!
//! Strings decode as JavaScript decodes them: a lone surrogate escape
//! (`\ud800`) becomes U+FFFD and is reported, never an error. Numbers are
//! JavaScript numbers (doubles).

use std::borrow::Cow;

pub use crate::log::members::{Inner, Raw, elements, fields, fields_within, has_backslash};

/// A line or value that is not JSON (as far as a skip can tell).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bad;

/// The index past the value that starts at `s[i]` (no whitespace before
/// it), which must be valid JSON (see [`is_valid`]): the skip checks what
/// it skips, so a line read is a line checked.
pub fn skip_value(s: &[u8], i: usize) -> Result<usize, Bad> {
    // Most members' values are strings or numbers: no container walk.
    match s.get(i) {
        Some(b'"') => valid_string_end(s, i + 1),
        Some(b'-' | b'0'..=b'9') => number_end(s, i),
        Some(b'[') => seq_list_end(s, i).or_else(|| value_end(s, i)),
        _ => value_end(s, i),
    }
    .ok_or(Bad)
}

/// The index past the array at `s[i]` when it is a list of seqs as dsh
/// writes one (`[1739,1740,1741]`: non-negative integers, no whitespace),
/// in one pass over its bytes rather than a number walk and a separator
/// step for each element (issue 28: `sourceEventSeqs` is most of the
/// structure of a real log's surface lines). `None` when it is anything
/// else, valid or not: the general walk then reads it from `s[i]`. The pass
/// stops at the first byte that is not a digit or a comma, so no byte is
/// looked at more than twice; eight bytes at a time while they are digits
/// and commas that break no rule ([`seq_word`]), the rest one by one.
fn seq_list_end(s: &[u8], i: usize) -> Option<usize> {
    // `after_comma`: the previous byte is `[` or `,` (an element starts);
    // `zero`: the element so far is a lone `0`, which no digit may follow.
    let mut after_comma = true;
    let mut zero = false;
    let body = s.get(i + 1..)?;
    let mut from = 0;
    while let Some(word) = body.get(from..).and_then(<[u8]>::first_chunk::<8>) {
        let Some(state) = seq_word(u64::from_le_bytes(*word), after_comma, zero) else {
            break;
        };
        (after_comma, zero) = state;
        from += 8;
    }
    for (k, &b) in body[from..].iter().enumerate() {
        match b {
            b'0'..=b'9' if zero => return None,
            b'0'..=b'9' => {
                zero = after_comma && b == b'0';
                after_comma = false;
            }
            b',' if !after_comma => {
                after_comma = true;
                zero = false;
            }
            // Not after `[` (an empty list) or a comma (a trailing one).
            b']' if !after_comma => return Some(i + from + k + 2),
            _ => return None,
        }
    }
    None
}

/// The high bit of each byte of `w` that equals `b`, exactly (no borrow
/// between bytes: the low seven bits are added apart from the high one).
fn bytes_equal(w: u64, b: u8) -> u64 {
    let x = w ^ (LOW_BITS * u64::from(b));
    !(((x & !HIGH_BITS) + !HIGH_BITS) | x) & HIGH_BITS
}

/// [`seq_list_end`]'s state after the eight bytes of `w` (little-endian:
/// the first byte lowest), when they are all digits and commas and break
/// none of its rules: no comma after a comma or the `[`, no digit after an
/// element's lone `0`. `None` for any other word, which the byte loop then
/// reads with the state as it was, so the word test only skips ahead.
fn seq_word(w: u64, after_comma: bool, zero: bool) -> Option<(bool, bool)> {
    let low = w & !HIGH_BITS;
    // At least `0` and below `:` (and not at or above 0x80).
    let digits = (low + LOW_BITS * 0x50) & !(low + LOW_BITS * 0x46) & !w & HIGH_BITS;
    let commas = bytes_equal(w, b',');
    if digits | commas != HIGH_BITS {
        return None;
    }
    // Where an element starts: after a comma, or after the word before
    // when that ended in one (or the `[`).
    let starts = (commas << 8) | (u64::from(after_comma) << 7);
    let lone_zero = bytes_equal(w, b'0') & starts;
    if commas & starts != 0 || (zero && digits & 0x80 != 0) || lone_zero & (digits >> 8) != 0 {
        return None;
    }
    Some((commas >> 63 == 1, lone_zero >> 63 == 1))
}

pub(super) fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\r' | b'\n') = s.get(i) {
        i += 1;
    }
    i
}

/// Whether the raw value is an object (only objects are objects: an array
/// where an object is expected is not one).
pub fn is_object(raw: &[u8]) -> bool {
    raw.first() == Some(&b'{')
}

/// A raw JSON string decoded, and whether it held a lone surrogate (read as
/// U+FFFD, as JavaScript shows it). `None` when `raw` is not a string.
pub fn string(raw: &[u8]) -> Option<(Cow<'_, str>, bool)> {
    let inner = raw.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let text = std::str::from_utf8(inner).ok()?;
    if !inner.contains(&b'\\') {
        return Some((Cow::Borrowed(text), false));
    }
    let mut out = String::with_capacity(text.len());
    let mut lone = false;
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let esc = rest.as_bytes().get(at + 1)?;
        rest = &rest[at + 2..];
        match esc {
            b'"' => out.push('"'),
            b'\\' => out.push('\\'),
            b'/' => out.push('/'),
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b'n' => out.push('\n'),
            b'r' => out.push('\r'),
            b't' => out.push('\t'),
            b'u' => {
                let hi = hex4(rest)?;
                rest = &rest[4..];
                let low = rest
                    .strip_prefix("\\u")
                    .and_then(hex4)
                    .filter(|lo| (0xDC00..0xE000).contains(lo));
                let c = match (hi, low) {
                    (0xD800..0xDC00, Some(lo)) => {
                        rest = &rest[6..];
                        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                    }
                    _ => char::from_u32(hi),
                };
                out.push(c.unwrap_or_else(|| {
                    lone = true;
                    '\u{FFFD}'
                }));
            }
            _ => return None,
        }
    }
    out.push_str(rest);
    Some((Cow::Owned(out), lone))
}

fn hex4(s: &str) -> Option<u32> {
    let digits = s.get(..4)?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

/// A raw JSON number as the double JavaScript reads it; `None` for
/// anything that is not a JSON number.
pub fn number(raw: &[u8]) -> Option<f64> {
    if number_end(raw, 0)? != raw.len() {
        return None;
    }
    std::str::from_utf8(raw).ok()?.parse().ok()
}

pub use crate::log::seq::{seq, seq_text, serialize_opt_seq, serialize_seq};

/// Whether `s` is exactly one JSON value, surrounding whitespace allowed,
/// by the grammar `JSON.parse` (and `serde_json`) accept: strings without
/// raw control characters and with only the escapes JSON defines, numbers
/// without leading zeros, `true`/`false`/`null` spelt out, no trailing or
/// doubled commas (issue 21: a line that matters is read as `JSON.parse`
/// reads it in both modes). A lone surrogate escape is valid (it reads as
/// U+FFFD). `s` must be valid UTF-8 (checked before). Iterative: nesting
/// depth costs a bit a level beyond the first 64, no recursion.
#[cfg(test)]
pub fn is_valid(s: &[u8]) -> bool {
    value_end(s, skip_ws(s, 0)).is_some_and(|end| skip_ws(s, end) == s.len())
}

/// The index past the valid JSON value that starts at `s[i]`.
///
/// Containers are walked iteratively: `object` says whether the innermost
/// open one is an object, `outer` keeps the kinds of the ones around it.
fn value_end(s: &[u8], mut i: usize) -> Option<usize> {
    let mut outer = Kinds::default();
    let mut depth = 0usize;
    let mut object = false;
    'value: loop {
        // A value starts at s[i].
        match *s.get(i)? {
            b'"' => i = valid_string_end(s, i + 1)?,
            open @ (b'{' | b'[') => {
                let list = if open == b'[' {
                    seq_list_end(s, i)
                } else {
                    None
                };
                let close = if open == b'{' { b'}' } else { b']' };
                if let Some(end) = list {
                    i = end;
                } else {
                    i = skip_ws(s, i + 1);
                    if s.get(i) == Some(&close) {
                        i += 1;
                    } else {
                        if depth > 0 {
                            outer.push(object);
                        }
                        depth += 1;
                        object = open == b'{';
                        if object {
                            i = key(s, i)?;
                        }
                        continue 'value;
                    }
                }
            }
            b't' if s[i..].starts_with(b"true") => i += 4,
            b'f' if s[i..].starts_with(b"false") => i += 5,
            b'n' if s[i..].starts_with(b"null") => i += 4,
            b'-' | b'0'..=b'9' => i = number_end(s, i)?,
            _ => return None,
        }
        // After a value: close containers, or go on to the next member.
        loop {
            if depth == 0 {
                return Some(i);
            }
            // Compact JSON has no whitespace here: look once, skip if any.
            let mut b = *s.get(i)?;
            if is_ws(b) {
                i = skip_ws(s, i);
                b = *s.get(i)?;
            }
            match b {
                b',' => {
                    i = skip_ws(s, i + 1);
                    if object {
                        i = key(s, i)?;
                    }
                    continue 'value;
                }
                b'}' if object => {}
                b']' if !object => {}
                _ => return None,
            }
            i += 1;
            depth -= 1;
            if depth > 0 {
                object = outer.pop();
            }
        }
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// A member's key and colon at `s[i]`: the index of its value.
#[inline]
fn key(s: &[u8], i: usize) -> Option<usize> {
    if s.get(i) != Some(&b'"') {
        return None;
    }
    let mut colon = valid_string_end(s, i + 1)?;
    if s.get(colon) != Some(&b':') {
        colon = skip_ws(s, colon);
        if s.get(colon) != Some(&b':') {
            return None;
        }
    }
    Some(skip_ws(s, colon + 1))
}

/// The index past the valid string whose body starts at `s[i]`. Most
/// strings of a log line hold no escape: their first special byte is the
/// closing quote, and that path is kept small enough to stay in line (an
/// escape, a long string or an error goes out of line).
#[inline(always)]
pub(super) fn valid_string_end(s: &[u8], i: usize) -> Option<usize> {
    let at = special(s, i)?;
    if s[at] == b'"' {
        return Some(at + 1);
    }
    escaped_string_end(s, at)
}

/// [`valid_string_end`] from `s[i]`, a backslash or a control character.
#[inline(never)]
fn escaped_string_end(s: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match s[i] {
            b'"' => return Some(i + 1),
            b'\\' => match s.get(i + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                b'u' => {
                    let digits = s.get(i + 2..i + 6)?;
                    if !digits.iter().all(u8::is_ascii_hexdigit) {
                        return None;
                    }
                    i += 6;
                }
                _ => return None,
            },
            // A raw control character.
            _ => return None,
        }
        i = special(s, i)?;
    }
}

/// Each byte of a word, as one bit: the low one, and the high one.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `w` that a string's text cannot hold raw
/// (a quote, a backslash, a control character), and maybe of bytes above
/// the first such, never below it: the lowest bit set is exactly the first
/// one. `x - 0x01` per byte borrows (sets the high bit) where `x` is zero,
/// `w - 0x20` where `w` is below 0x20; a borrow carries into the bytes
/// above only, and bytes from 0x80 on (UTF-8) are masked off by `!w`.
fn special_bytes(w: u64) -> u64 {
    let quote = w ^ (LOW_BITS * u64::from(b'"'));
    let backslash = w ^ (LOW_BITS * u64::from(b'\\'));
    (quote.wrapping_sub(LOW_BITS)
        | backslash.wrapping_sub(LOW_BITS)
        | w.wrapping_sub(LOW_BITS * 0x20))
        & !w
        & HIGH_BITS
}

/// The index of the first byte from `s[i]` on that a string's text cannot
/// hold raw: a quote, a backslash or a control character. A word first
/// (most keys and many values of a log line end within eight bytes: one
/// word's test, not two; issue 28, callgrind: a key cost 89 instructions),
/// then sixteen bytes at a time in two words (SWAR: no `unsafe`, no SIMD
/// intrinsics), which for the short keys and values of a log line beats a
/// `memchr` call's set-up.
#[inline(always)]
pub(super) fn special(s: &[u8], i: usize) -> Option<usize> {
    if let Some(word) = s.get(i..)?.first_chunk::<8>() {
        let found = special_bytes(u64::from_le_bytes(*word));
        if found != 0 {
            return Some(i + (found.trailing_zeros() / 8) as usize);
        }
        return special_after(s, i + 8);
    }
    special_after(s, i)
}

/// [`special`] past its first word: out of line, so that the constants of
/// its loop are not set up for the strings that end in the first word.
#[inline(never)]
fn special_after(s: &[u8], i: usize) -> Option<usize> {
    let mut at = i;
    let mut pairs = s.get(i..)?.chunks_exact(16);
    for pair in &mut pairs {
        let (low, high) = pair.split_at(8);
        let low = special_bytes(u64::from_le_bytes(low.try_into().ok()?));
        let high = special_bytes(u64::from_le_bytes(high.try_into().ok()?));
        if low | high != 0 {
            let k = if low != 0 {
                low.trailing_zeros() / 8
            } else {
                8 + high.trailing_zeros() / 8
            };
            return Some(at + k as usize);
        }
        at += 16;
    }
    let rest = pairs.remainder();
    if let Some(word) = rest.first_chunk::<8>() {
        let found = special_bytes(u64::from_le_bytes(*word));
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let k = s[at..]
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
    Some(at + k)
}

/// The index past the run of ASCII digits at `s[i]` (numbers in a log are
/// short: a byte loop beats a word test here).
fn digits_end(s: &[u8], mut i: usize) -> usize {
    while let Some(b'0'..=b'9') = s.get(i) {
        i += 1;
    }
    i
}

/// The index past the JSON number at `s[i]`.
#[inline]
fn number_end(s: &[u8], mut i: usize) -> Option<usize> {
    if s.get(i) == Some(&b'-') {
        i += 1;
    }
    // No leading zeros: `0`, or a digit 1-9 and any digits.
    match s.get(i)? {
        b'0' => i += 1,
        b'1'..=b'9' => i = digits_end(s, i + 1),
        _ => return None,
    }
    if s.get(i) == Some(&b'.') {
        let from = i + 1;
        i = digits_end(s, from);
        if i == from {
            return None;
        }
    }
    if let Some(b'e' | b'E') = s.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = s.get(i) {
            i += 1;
        }
        let from = i;
        i = digits_end(s, from);
        if i == from {
            return None;
        }
    }
    Some(i)
}

/// The kinds (object or array) of the open containers around the innermost
/// one, a bit each: inline for the first 64, then in words on the heap.
#[derive(Default)]
struct Kinds {
    inline: u64,
    deep: Vec<u64>,
    depth: usize,
}

impl Kinds {
    fn push(&mut self, object: bool) {
        let d = self.depth;
        if d < 64 {
            self.inline = (self.inline & !(1 << d)) | (u64::from(object) << d);
        } else {
            let (w, b) = ((d - 64) / 64, (d - 64) % 64);
            if w == self.deep.len() {
                self.deep.push(0);
            }
            self.deep[w] = (self.deep[w] & !(1 << b)) | (u64::from(object) << b);
        }
        self.depth += 1;
    }

    /// Takes off the kind pushed last, and returns it.
    fn pop(&mut self) -> bool {
        self.depth -= 1;
        let d = self.depth;
        if d < 64 {
            self.inline >> d & 1 == 1
        } else {
            let (w, b) = ((d - 64) / 64, (d - 64) % 64);
            self.deep[w] >> b & 1 == 1
        }
    }
}

/// `serde_json`'s message without its " at line L column C" tail (the
/// caller says where, in the log's own terms).
pub(crate) fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::seq::seq_value;
    use pretty_assertions::assert_eq;
    use proptest::prelude::*;

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            "[\\\\\"{}\\[\\]a\n\t]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(6, 64, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::btree_map("[a\\\\\"}]{0,4}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// A skip ends every JSON value exactly where it ends, with quotes,
        /// backslashes and brackets inside its strings.
        #[test]
        fn skips_end_where_values_end(v in json_value(), tail in "[,}\\] ]{0,2}") {
            let text = serde_json::to_string(&v).unwrap();
            let with_tail = format!("{text}{tail}");
            prop_assert_eq!(skip_value(with_tail.as_bytes(), 0), Ok(text.len()));
        }

        /// The validator accepts exactly what `serde_json` accepts, on
        /// valid values and on their mangled bytes.
        #[test]
        fn validity_is_serde_json_validity(v in json_value(), cut in any::<prop::sample::Index>(), junk in "[\\\\\\]\\[{}\",:0-9.eE+\\-tfnaul \t]{0,3}") {
            let text = serde_json::to_string(&v).unwrap();
            let at = cut.index(text.len() + 1);
            let mangled = format!("{}{junk}{}", &text[..at.min(text.len())], &text[at.min(text.len())..]);
            for t in [text.as_str(), mangled.as_str()] {
                let serde = serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok();
                prop_assert_eq!(is_valid(t.as_bytes()), serde, "{:?}", t);
            }
        }

        /// The word scan finds what a byte loop finds, from any start, on
        /// any bytes (those at and above 0x80 included).
        #[test]
        fn the_word_scan_finds_what_a_byte_loop_finds(
            bytes in proptest::collection::vec(prop_oneof![
                Just(b'"'), Just(b'\\'), Just(0x1f_u8), Just(0x20_u8), Just(b'0'), Just(b'9'),
                Just(b'/'), Just(b':'), Just(0x80_u8), Just(0xa2_u8), Just(0xdc_u8), any::<u8>(),
            ], 0..70),
            from in any::<prop::sample::Index>(),
        ) {
            let i = from.index(bytes.len() + 1);
            let want = bytes[i..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
            prop_assert_eq!(special(&bytes, i), want.map(|k| i + k));
        }

        #[test]
        fn strings_decode_as_serde_does_when_serde_can(s in "\\PC*") {
            let raw = serde_json::to_string(&s).unwrap();
            let (decoded, lone) = string(raw.as_bytes()).unwrap();
            prop_assert_eq!(decoded.as_ref(), s.as_str());
            prop_assert!(!lone);
        }
    }

    /// The list walk as a byte loop only: what the word test must agree with.
    fn seq_list_end_bytes(s: &[u8], i: usize) -> Option<usize> {
        let (mut after_comma, mut zero) = (true, false);
        for (k, &b) in s.get(i + 1..)?.iter().enumerate() {
            match b {
                b'0'..=b'9' if zero => return None,
                b'0'..=b'9' => {
                    zero = after_comma && b == b'0';
                    after_comma = false;
                }
                b',' if !after_comma => (after_comma, zero) = (true, false),
                b']' if !after_comma => return Some(i + k + 2),
                _ => return None,
            }
        }
        None
    }

    proptest! {
        /// Eight bytes at a time, a list of seqs ends where (and is refused
        /// where) the byte loop says, across words and at their edges.
        #[test]
        fn the_word_list_walk_is_the_byte_walk(
            body in proptest::collection::vec(prop_oneof![
                4 => Just(b'1'), 2 => Just(b'0'), 2 => Just(b'9'), 3 => Just(b','), 1 => Just(b']'),
                1 => Just(b' '), 1 => Just(b'/'), 1 => Just(b':'), 1 => Just(b'-'), 1 => Just(b'+'),
                1 => Just(0xac_u8), 1 => Just(0xb0_u8), 1 => any::<u8>(),
            ], 0..60),
        ) {
            let text = [b"[".as_slice(), &body].concat();
            prop_assert_eq!(seq_list_end(&text, 0), seq_list_end_bytes(&text, 0), "{:?}", String::from_utf8_lossy(&text));
        }

        /// Valid lists of many seqs, lone zeros among them, read whole.
        #[test]
        fn long_seq_lists_read_whole(seqs in proptest::collection::vec(prop_oneof![Just(0u64), 0u64..10, 0u64..100_000], 1..40), tail in "[,}\\] ]{0,2}") {
            let list = format!("[{}]", seqs.iter().map(u64::to_string).collect::<Vec<_>>().join(","));
            let text = format!("{list}{tail}");
            prop_assert_eq!(seq_list_end(text.as_bytes(), 0), Some(list.len()));
            prop_assert_eq!(seq_list_end_bytes(text.as_bytes(), 0), Some(list.len()));
        }
    }

    /// Lists of seqs take the one-pass short cut; every other array, valid
    /// or not, reads as the general walk reads it: the same end, the same
    /// verdict as serde_json.
    #[test]
    fn seq_lists_read_as_any_array_reads() {
        for text in [
            "[1739,1740,1741]",
            "[0]",
            "[0,10,0]",
            "[7]",
            "[]",
            "[01]",
            "[1,]",
            "[,1]",
            "[1,,2]",
            "[1 ,2]",
            "[1,2 ]",
            "[1.5,2]",
            "[1e3]",
            "[-1]",
            "[1,[2]]",
            "[1,\"a\"]",
            "[1,2",
            "[12",
            "[1,{\"a\":[3]}]",
        ] {
            let serde = serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
            assert_eq!(is_valid(text.as_bytes()), serde, "{text}");
            let nested = format!("{{\"a\":{text},\"b\":[{text}]}}");
            assert_eq!(is_valid(nested.as_bytes()), serde, "{nested}");
            if serde {
                let tail = format!("{text},9");
                assert_eq!(skip_value(tail.as_bytes(), 0), Ok(text.len()), "{text}");
            } else {
                assert_eq!(skip_value(text.as_bytes(), 0), Err(Bad), "{text}");
            }
        }
    }

    /// Nesting past the inline bits (64 levels) and past serde_json's
    /// recursion limit: every closer must match its opener at every depth.
    #[test]
    fn deep_nesting_is_checked_at_every_level() {
        for depth in [1, 63, 64, 65, 66, 127, 128, 129, 200, 1000] {
            // Alternating objects and arrays: {"a":[{"a":[ ... 1 ... ]}]}
            let opens: Vec<bool> = (0..depth).map(|d| d % 3 != 1).collect();
            let mut text = String::new();
            for &object in &opens {
                text.push_str(if object { "{\"a\":" } else { "[" });
            }
            text.push('1');
            let closers: Vec<char> = opens
                .iter()
                .rev()
                .map(|&o| if o { '}' } else { ']' })
                .collect();
            let good: String = text.clone() + &closers.iter().collect::<String>();
            assert!(is_valid(good.as_bytes()), "depth {depth}");
            assert_eq!(skip_value(good.as_bytes(), 0), Ok(good.len()));
            for at in [0, depth / 2, depth - 1] {
                let mut bad = closers.clone();
                bad[at] = if bad[at] == '}' { ']' } else { '}' };
                let bad: String = text.clone() + &bad.iter().collect::<String>();
                assert!(!is_valid(bad.as_bytes()), "depth {depth}, closer {at}");
            }
            assert!(!is_valid(text.as_bytes()), "depth {depth} unclosed");
        }
    }

    #[test]
    fn duplicate_keys_keep_the_last_and_escaped_keys_match() {
        let [a, b] = fields(
            br#"{"seq":0,"x":[{"seq":9}],"s\u0065q":1, "b" : "}" }"#,
            &["seq", "b"],
        )
        .unwrap();
        assert_eq!((a, b), (Some(&b"1"[..]), Some(&br#""}""#[..])));
        assert_eq!(fields(br#"{"a":1}x"#, &["a"]), Err(Bad));
        assert_eq!(fields(br#"["a"]"#, &["a"]), Err(Bad));
        assert_eq!(fields(br#"{"a":{"b":1}"#, &["a"]), Err(Bad));
    }

    #[test]
    fn numbers_and_strings_read_as_javascript_reads_them() {
        for (raw, want) in [
            ("1.0", Some(1)),
            ("1e0", Some(1)),
            ("-0", Some(0)),
            ("0.5", None),
            ("-1", None),
        ] {
            assert_eq!(seq(raw.as_bytes()), want, "{raw}");
        }
        assert_eq!(seq(b"9007199254740993"), Some(1 << 53));
        assert_eq!(seq(b"01"), None);
        assert_eq!(seq(b"1e999"), None);
        // Seqs of 2^63 and more are ranked: order, equality and the digits
        // messages give are JavaScript's.
        let keys: Vec<u64> = [
            "9223372036854774784",
            "9223372036854775807",
            "9223372036854775808",
            "18446744073709549568",
            "18446744073709551615",
            "18446744073709551616",
            "18446744073709555712",
            "1e300",
            "1.7976931348623157e308",
        ]
        .iter()
        .map(|r| seq(r.as_bytes()).unwrap())
        .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
        // 2^63 - 1 is 2^63 to JavaScript, and 2^64 - 1 is 2^64.
        assert_eq!((keys[1], keys[2]), (1 << 63, 1 << 63));
        assert_eq!(keys[0], (1 << 63) - 1024);
        assert_eq!((keys[4], keys[5]), (keys[3] + 1, keys[3] + 1));
        assert_eq!(keys[6], keys[5] + 1);
        let texts: Vec<String> = keys.iter().map(|k| seq_text(*k)).collect();
        assert_eq!(
            texts[..7].to_vec(),
            [
                "9223372036854774784",
                "9223372036854775808",
                "9223372036854775808",
                "18446744073709549568",
                "18446744073709551616",
                "18446744073709551616",
                "18446744073709555712",
            ]
        );
        assert_eq!(seq_value(keys[8]), f64::MAX);
        assert_eq!(seq_text(keys[7]).len(), 301);
        let (s, lone) = string(br#""a\ud800b\ud83d\ude00""#).unwrap();
        assert_eq!((s.as_ref(), lone), ("a\u{FFFD}b\u{1F600}", true));
    }
}

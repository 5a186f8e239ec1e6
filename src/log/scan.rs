//! Reading just the parts of a JSON log line that agentctx needs, the way
//! JavaScript's `JSON.parse` reads them (issues 13, 15 and 21).
//!
//! [`fields`] walks the members of one object and keeps the raw text of the
//! wanted ones, the last occurrence of a duplicated key winning. Every other
//! value is skipped by [`skip_value`], which checks it as it goes, by the
//! grammar `JSON.parse` accepts (issue 21: a line that matters is read as
//! `JSON.parse` reads it with or without `--strict`): `memchr` (SIMD inside,
//! no `unsafe` here) jumps through string text to the next quote or
//! backslash, the span jumped is checked for raw control characters in a
//! loop that vectorises, each escape is checked, and only the few bytes
//! between strings are looked at one by one. Nesting is tracked in bits,
//! iteratively: depth has no limit and costs no recursion.
//!
//! Strings decode as JavaScript decodes them: a lone surrogate escape
//! (`\ud800`) becomes U+FFFD and is reported, never an error. Numbers are
//! JavaScript numbers (doubles).

use std::borrow::Cow;

/// A line or value that is not JSON (as far as a skip can tell).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bad;

/// The index past the value that starts at `s[i]` (no whitespace before
/// it), which must be valid JSON (see [`is_valid`]): the skip checks what
/// it skips, so a line read is a line checked.
pub fn skip_value(s: &[u8], i: usize) -> Result<usize, Bad> {
    value_end(s, i).ok_or(Bad)
}

fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\r' | b'\n') = s.get(i) {
        i += 1;
    }
    i
}

/// Walks the members of the object `s` (exactly one object, whitespace
/// around it allowed) and returns the raw value of each key in `names`: the
/// last one where a key repeats, as `JSON.parse` keeps it. `Err` when `s`
/// is not an object or a value does not end.
pub fn fields<'a, const N: usize>(
    s: &'a [u8],
    names: &[&str; N],
) -> Result<[Option<&'a [u8]>; N], Bad> {
    let mut out = [None; N];
    walk(s, b'{', b'}', |i| {
        if s.get(i) != Some(&b'"') {
            return Err(Bad);
        }
        let key_end = valid_string_end(s, i + 1).ok_or(Bad)?;
        let key = &s[i..key_end];
        let colon = skip_ws(s, key_end);
        if s.get(colon) != Some(&b':') {
            return Err(Bad);
        }
        let v = skip_ws(s, colon + 1);
        let v_end = skip_value(s, v)?;
        if let Some(k) = which(key, names) {
            out[k] = Some(&s[v..v_end]);
        }
        Ok(v_end)
    })?;
    Ok(out)
}

/// The elements of the array `s`; `Err` when it is not an array.
pub fn elements(s: &[u8]) -> Result<Vec<&[u8]>, Bad> {
    let mut out = Vec::new();
    walk(s, b'[', b']', |i| {
        let end = skip_value(s, i)?;
        out.push(&s[i..end]);
        Ok(end)
    })?;
    Ok(out)
}

/// Walks the one container `s` (whitespace around it allowed) that `open`
/// and `close` delimit: `member` reads the member starting at the index it
/// is given and returns the index past it. `Err` when `s` is not one such
/// container or a member does not end.
fn walk(
    s: &[u8],
    open: u8,
    close: u8,
    mut member: impl FnMut(usize) -> Result<usize, Bad>,
) -> Result<(), Bad> {
    let mut i = skip_ws(s, 0);
    if s.get(i) != Some(&open) {
        return Err(Bad);
    }
    i = skip_ws(s, i + 1);
    if s.get(i) != Some(&close) {
        loop {
            i = skip_ws(s, member(i)?);
            match s.get(i) {
                Some(b',') => i = skip_ws(s, i + 1),
                Some(&b) if b == close => break,
                _ => return Err(Bad),
            }
        }
    }
    if skip_ws(s, i + 1) == s.len() {
        Ok(())
    } else {
        Err(Bad)
    }
}

/// Which of `names` the raw key (quotes included) spells, escapes decoded.
fn which<const N: usize>(key: &[u8], names: &[&str; N]) -> Option<usize> {
    let inner = &key[1..key.len() - 1];
    if !inner.contains(&b'\\') {
        return names.iter().position(|n| n.as_bytes() == inner);
    }
    let (decoded, _) = string(key)?;
    names.iter().position(|n| *n == decoded)
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

/// A seq as JavaScript compares it: a JSON number whose double is a
/// non-negative integer (`1.0`, `1e0` are 1; `-0` is 0; 2^53 + 1 is 2^53),
/// as an order-preserving key.
///
/// Below 2^63 the key is the seq itself. Every double from 2^63 on is an
/// integer, and they are fewer than the keys from 2^63 to 2^64 - 1 (2^52 a
/// binade, 961 binades up to `f64::MAX`), so there the key is 2^63 plus
/// the double's rank among them: its bits less those of 2^63 (the bits of
/// positive doubles ascend with their values). So seqs of 2^64 and beyond,
/// integers to JavaScript, are read (issue 21), order and equality hold as
/// JavaScript's, and only [`seq_value`] and [`seq_text`] need to know.
pub fn seq(raw: &[u8]) -> Option<u64> {
    let d = number(raw)?;
    if d.fract() != 0.0 || d <= -1.0 || !d.is_finite() {
        return None;
    }
    if d < SEQ_RANKED {
        // A whole number in (-1, 2^63): exactly a u64 (`-0.0` is 0).
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        return Some(d as u64);
    }
    Some(SEQ_RANK_BASE + (d.to_bits() - SEQ_RANKED.to_bits()))
}

/// 2^63: seqs from here on are ranked, not stored as themselves.
const SEQ_RANKED: f64 = 9_223_372_036_854_775_808.0;
const SEQ_RANK_BASE: u64 = 1 << 63;

/// The double a seq key stands for.
#[must_use]
pub fn seq_value(key: u64) -> f64 {
    if key < SEQ_RANK_BASE {
        #[allow(clippy::cast_precision_loss)]
        return key as f64;
    }
    f64::from_bits(SEQ_RANKED.to_bits() + (key - SEQ_RANK_BASE))
}

/// A seq key as messages write it: the seq's exact integer digits (a seq
/// below 2^63 is its key).
#[must_use]
pub fn seq_text(key: u64) -> String {
    if key < SEQ_RANK_BASE {
        key.to_string()
    } else {
        format!("{:.0}", seq_value(key))
    }
}

/// Serializes a seq key as its seq: the integer below 2^64 (as before),
/// beyond that the double (JSON has no bound on a number, serde_json's
/// writer has).
///
/// # Errors
///
/// Whatever the serializer returns.
pub fn serialize_seq<S: serde::Serializer>(key: &u64, s: S) -> Result<S::Ok, S::Error> {
    let value = seq_value(*key);
    if *key < SEQ_RANK_BASE {
        s.serialize_u64(*key)
    } else if value < 18_446_744_073_709_551_616.0 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        s.serialize_u64(value as u64)
    } else {
        s.serialize_f64(value)
    }
}

/// [`serialize_seq`] for an optional seq.
///
/// # Errors
///
/// Whatever the serializer returns.
#[allow(clippy::ref_option, clippy::trivially_copy_pass_by_ref)]
pub fn serialize_opt_seq<S: serde::Serializer>(key: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
    match key {
        Some(k) => serialize_seq(k, s),
        None => s.serialize_none(),
    }
}

/// Whether `s` is exactly one JSON value, surrounding whitespace allowed,
/// by the grammar `JSON.parse` (and `serde_json`) accept: strings without
/// raw control characters and with only the escapes JSON defines, numbers
/// without leading zeros, `true`/`false`/`null` spelt out, no trailing or
/// doubled commas (issue 21: a line that matters is read as `JSON.parse`
/// reads it in both modes). A lone surrogate escape is valid (it reads as
/// U+FFFD). `s` must be valid UTF-8 (checked before). Iterative: nesting
/// depth costs two bits a level beyond the first 128, no recursion.
#[cfg(test)]
pub fn is_valid(s: &[u8]) -> bool {
    value_end(s, skip_ws(s, 0)).is_some_and(|end| skip_ws(s, end) == s.len())
}

/// The index past the valid JSON value that starts at `s[i]`.
fn value_end(s: &[u8], mut i: usize) -> Option<usize> {
    let mut stack = Stack::default();
    'value: loop {
        // A value starts at s[i].
        match s.get(i) {
            Some(b'{') => {
                i = skip_ws(s, i + 1);
                if s.get(i) == Some(&b'}') {
                    i += 1;
                } else {
                    stack.push(true);
                    i = key(s, i)?;
                    continue 'value;
                }
            }
            Some(b'[') => {
                i = skip_ws(s, i + 1);
                if s.get(i) == Some(&b']') {
                    i += 1;
                } else {
                    stack.push(false);
                    continue 'value;
                }
            }
            Some(b'"') => i = valid_string_end(s, i + 1)?,
            Some(b't') if s[i..].starts_with(b"true") => i += 4,
            Some(b'f') if s[i..].starts_with(b"false") => i += 5,
            Some(b'n') if s[i..].starts_with(b"null") => i += 4,
            Some(b'-' | b'0'..=b'9') => i = number_end(s, i)?,
            _ => return None,
        }
        // After a value: close containers, or go on to the next member.
        loop {
            let Some(object) = stack.top() else {
                return Some(i);
            };
            i = skip_ws(s, i);
            match s.get(i) {
                Some(b',') => {
                    i = skip_ws(s, i + 1);
                    if object {
                        i = key(s, i)?;
                    }
                    continue 'value;
                }
                Some(b'}') if object => {
                    stack.pop();
                    i += 1;
                }
                Some(b']') if !object => {
                    stack.pop();
                    i += 1;
                }
                _ => return None,
            }
        }
    }
}

/// A member's key and colon at `s[i]`: the index of its value.
fn key(s: &[u8], i: usize) -> Option<usize> {
    if s.get(i) != Some(&b'"') {
        return None;
    }
    let colon = skip_ws(s, valid_string_end(s, i + 1)?);
    (s.get(colon) == Some(&b':')).then(|| skip_ws(s, colon + 1))
}

/// The index past the valid string whose body starts at `s[i]`.
fn valid_string_end(s: &[u8], mut i: usize) -> Option<usize> {
    loop {
        let rest = s.get(i..)?;
        let k = memchr::memchr2(b'"', b'\\', rest)?;
        // No early exit: a fold over the span vectorises (valid text is the
        // common case, and has to be read whole anyway).
        if rest[..k]
            .iter()
            .fold(0u8, |acc, &b| acc | u8::from(b < 0x20))
            != 0
        {
            return None;
        }
        i += k;
        if s[i] == b'"' {
            return Some(i + 1);
        }
        match s.get(i + 1)? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
            b'u' => {
                let digits = s.get(i + 2..i + 6)?;
                if !digits.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                i += 6;
            }
            _ => return None,
        }
    }
}

/// The index past the JSON number at `s[i]`.
fn number_end(s: &[u8], mut i: usize) -> Option<usize> {
    let digits = |i: &mut usize| {
        let from = *i;
        while s.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - from
    };
    if s.get(i) == Some(&b'-') {
        i += 1;
    }
    let first = i;
    match digits(&mut i) {
        0 => return None,
        n if n > 1 && s[first] == b'0' => return None,
        _ => {}
    }
    if s.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    Some(i)
}

/// The open containers of [`is_valid`], a bit each (object or array):
/// inline for the first 128 levels, then in words on the heap.
#[derive(Default)]
struct Stack {
    inline: u128,
    deep: Vec<u64>,
    depth: usize,
}

impl Stack {
    fn push(&mut self, object: bool) {
        let d = self.depth;
        if d < 128 {
            self.inline = (self.inline & !(1 << d)) | (u128::from(object) << d);
        } else {
            let (w, b) = ((d - 128) / 64, (d - 128) % 64);
            if w == self.deep.len() {
                self.deep.push(0);
            }
            self.deep[w] = (self.deep[w] & !(1 << b)) | (u64::from(object) << b);
        }
        self.depth += 1;
    }

    fn pop(&mut self) {
        self.depth -= 1;
    }

    fn top(&self) -> Option<bool> {
        let d = self.depth.checked_sub(1)?;
        Some(if d < 128 {
            self.inline >> d & 1 == 1
        } else {
            let (w, b) = ((d - 128) / 64, (d - 128) % 64);
            self.deep[w] >> b & 1 == 1
        })
    }
}

/// Checks that `text` is one JSON object, with no depth limit (values are
/// skipped iteratively) and `serde_json`'s messages ("trailing comma").
pub(super) fn check_syntax(text: &str) -> Result<(), serde_json::Error> {
    use serde::de::{Deserializer as _, IgnoredAny, MapAccess, Visitor};
    struct Object;
    impl<'de> Visitor<'de> for Object {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(())
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_map(Object)?;
    de.end()
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

        #[test]
        fn strings_decode_as_serde_does_when_serde_can(s in "\\PC*") {
            let raw = serde_json::to_string(&s).unwrap();
            let (decoded, lone) = string(raw.as_bytes()).unwrap();
            prop_assert_eq!(decoded.as_ref(), s.as_str());
            prop_assert!(!lone);
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

//! Reading just the parts of a JSON log line that agentctx needs, the way
//! JavaScript's `JSON.parse` reads them (issues 13 and 15).
//!
//! [`fields`] walks the members of one object and keeps the raw text of the
//! wanted ones, the last occurrence of a duplicated key winning. Every other
//! value is skipped by [`skip_value`], which finds where a string, object or
//! array ends with a string-aware bracket scan over 64-byte blocks: per block
//! it builds bit masks of quotes, backslashes and brackets, removes escaped
//! quotes, marks what lies inside strings with a prefix XOR, and counts the
//! brackets outside them. A skipped value is checked only for strings that
//! end and brackets that balance (as SPEC 5.1 treats unparsed lines);
//! `--strict` validates every line in full before this runs.
//!
//! Strings decode as JavaScript decodes them: a lone surrogate escape
//! (`\ud800`) becomes U+FFFD and is reported, never an error. Numbers are
//! JavaScript numbers (doubles).

use std::borrow::Cow;

/// A line or value that is not JSON (as far as a skip can tell).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bad;

const BLOCK: usize = 64;

/// Bit masks of one 64-byte block: bit i stands for byte i.
struct Masks {
    quote: u64,
    backslash: u64,
    open: u64,
    close: u64,
}

/// Written so that the compiler turns it into vector compares and mask
/// extraction on every target that has them (no `unsafe`, no intrinsics).
fn masks(block: &[u8; BLOCK]) -> Masks {
    let mut m = Masks {
        quote: 0,
        backslash: 0,
        open: 0,
        close: 0,
    };
    for (i, &b) in block.iter().enumerate() {
        // `{` 0x7B and `[` 0x5B differ only in bit 0x20; so do `}` and `]`.
        let folded = b | 0x20;
        m.quote |= u64::from(b == b'"') << i;
        m.backslash |= u64::from(b == b'\\') << i;
        m.open |= u64::from(folded == b'{') << i;
        m.close |= u64::from(folded == b'}') << i;
    }
    m
}

/// Bit i set when an odd number of bits at or below i are set in `x`.
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// The bytes a backslash escapes, given the backslashes of a block and
/// whether the block's first byte is escaped by the previous one (`carry`,
/// updated for the next block).
fn escaped(backslash: u64, carry: &mut bool) -> u64 {
    let mut out = u64::from(*carry);
    if backslash == 0 {
        *carry = false;
        return out;
    }
    // A backslash that is itself escaped starts nothing.
    let mut starts = backslash & !out;
    *carry = false;
    while starts != 0 {
        let i = starts.trailing_zeros();
        if i == 63 {
            *carry = true;
            break;
        }
        out |= 1 << (i + 1);
        starts &= !((1 << (i + 1)) | (1 << i));
        starts &= !0 << (i + 1);
    }
    out
}

/// Scans from `i` (inside a string when `in_string`, at bracket depth
/// `depth` > 0 otherwise) to the end of the value: the index just past its
/// closing quote or bracket.
fn scan(s: &[u8], mut i: usize, mut in_string: bool, mut depth: u64) -> Result<usize, Bad> {
    let mut carry = false;
    let mut padded;
    while i < s.len() {
        let block: &[u8; BLOCK] = match s.get(i..i + BLOCK) {
            Some(b) => b.try_into().map_err(|_| Bad)?,
            None => {
                padded = [b' '; BLOCK];
                padded[..s.len() - i].copy_from_slice(&s[i..]);
                &padded
            }
        };
        let m = masks(block);
        let esc = escaped(m.backslash, &mut carry);
        let quotes = m.quote & !esc;
        if depth == 0 {
            // A string: it ends at its first unescaped quote.
            if quotes != 0 {
                return Ok(i + quotes.trailing_zeros() as usize + 1);
            }
            i += BLOCK;
            continue;
        }
        let inside = prefix_xor(quotes) ^ if in_string { !0 } else { 0 };
        in_string = inside >> 63 == 1;
        let open = m.open & !inside & !esc;
        let close = m.close & !inside & !esc;
        if u64::from(close.count_ones()) < depth {
            depth = depth + u64::from(open.count_ones()) - u64::from(close.count_ones());
            i += BLOCK;
            continue;
        }
        let mut both = open | close;
        while both != 0 {
            let bit = both & both.wrapping_neg();
            if open & bit != 0 {
                depth += 1;
            } else {
                depth -= 1;
                if depth == 0 {
                    return Ok(i + bit.trailing_zeros() as usize + 1);
                }
            }
            both &= both - 1;
        }
        i += BLOCK;
    }
    Err(Bad)
}

/// The index past the value that starts at `s[i]` (no whitespace before it).
pub fn skip_value(s: &[u8], i: usize) -> Result<usize, Bad> {
    match s.get(i) {
        Some(b'"') => skip_string(s, i),
        Some(b'{' | b'[') => scan(s, i + 1, false, 1),
        Some(_) => {
            // A number or literal runs to the next delimiter.
            let len = s[i..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n'))
                .unwrap_or(s.len() - i);
            if len == 0 { Err(Bad) } else { Ok(i + len) }
        }
        None => Err(Bad),
    }
}

/// The index past the string that starts at `s[i]` (a quote). Short
/// strings (keys, kinds) end within a few bytes: look there first.
pub fn skip_string(s: &[u8], i: usize) -> Result<usize, Bad> {
    let window = &s[i + 1..s.len().min(i + 1 + 32)];
    match memchr::memchr2(b'"', b'\\', window) {
        Some(k) if window[k] == b'"' => Ok(i + 1 + k + 1),
        _ => scan(s, i + 1, true, 0),
    }
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
    let mut i = skip_ws(s, 0);
    if s.get(i) != Some(&b'{') {
        return Err(Bad);
    }
    i = skip_ws(s, i + 1);
    if s.get(i) == Some(&b'}') {
        return end_of(s, i + 1).map(|()| out);
    }
    loop {
        if s.get(i) != Some(&b'"') {
            return Err(Bad);
        }
        let key_end = skip_string(s, i)?;
        let key = &s[i..key_end];
        i = skip_ws(s, key_end);
        if s.get(i) != Some(&b':') {
            return Err(Bad);
        }
        let v = skip_ws(s, i + 1);
        let v_end = skip_value(s, v)?;
        if let Some(k) = which(key, names) {
            out[k] = Some(&s[v..v_end]);
        }
        i = skip_ws(s, v_end);
        match s.get(i) {
            Some(b',') => i = skip_ws(s, i + 1),
            Some(b'}') => return end_of(s, i + 1).map(|()| out),
            _ => return Err(Bad),
        }
    }
}

fn end_of(s: &[u8], i: usize) -> Result<(), Bad> {
    if skip_ws(s, i) == s.len() {
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

/// The elements of the array `s`; `Err` when it is not an array.
pub fn elements(s: &[u8]) -> Result<Vec<&[u8]>, Bad> {
    let mut out = Vec::new();
    let mut i = skip_ws(s, 0);
    if s.get(i) != Some(&b'[') {
        return Err(Bad);
    }
    i = skip_ws(s, i + 1);
    if s.get(i) == Some(&b']') {
        return end_of(s, i + 1).map(|()| out);
    }
    loop {
        let end = skip_value(s, i)?;
        out.push(&s[i..end]);
        i = skip_ws(s, end);
        match s.get(i) {
            Some(b',') => i = skip_ws(s, i + 1),
            Some(b']') => return end_of(s, i + 1).map(|()| out),
            _ => return Err(Bad),
        }
    }
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
    let mut i = usize::from(raw.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let from = *i;
        while raw.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - from
    };
    let int_start = i;
    match digits(&mut i) {
        0 => return None,
        n if n > 1 && raw[int_start] == b'0' => return None,
        _ => {}
    }
    if raw.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if matches!(raw.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(raw.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i != raw.len() {
        return None;
    }
    std::str::from_utf8(raw).ok()?.parse().ok()
}

/// A seq as JavaScript compares it: a JSON number whose double is a
/// non-negative integer (`1.0`, `1e0` are 1; `-0` is 0; 2^53 + 1 is 2^53).
/// Doubles of 2^64 and beyond do not fit a seq and are refused.
pub fn seq(raw: &[u8]) -> Option<u64> {
    let d = number(raw)?;
    // 2^64 as a double: `as u64` would saturate there.
    const LIMIT: f64 = 18_446_744_073_709_551_616.0;
    (d.fract() == 0.0 && d > -1.0 && d < LIMIT).then_some(d as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use proptest::prelude::*;

    /// Where a value ends, byte by byte (the reference for the block scan;
    /// like it, a backslash escapes the next byte even outside a string,
    /// which only invalid JSON has).
    fn naive_end(s: &[u8], i: usize) -> Option<usize> {
        let (mut depth, mut in_str, mut esc) = (0u64, false, false);
        for (k, &b) in s.iter().enumerate().skip(i) {
            if esc {
                esc = false;
                continue;
            }
            if b == b'\\' {
                esc = true;
                continue;
            }
            if in_str {
                if b == b'\\' {
                    esc = true;
                } else if b == b'"' {
                    in_str = false;
                    if depth == 0 {
                        return Some(k + 1);
                    }
                }
                continue;
            }
            match b {
                b'"' => in_str = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(k + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }

    proptest! {
        /// The 64-byte block scan ends values exactly where a byte-by-byte
        /// scan does, with escapes and brackets across block boundaries.
        #[test]
        fn block_scan_matches_a_byte_scan(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "\"", "\\", "\\\\", "\\\"", "{", "}", "[", "]", "a", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", ",", ":",
                ]),
                0..120,
            ),
            open in proptest::sample::select(vec!["{", "[", "\""]),
        ) {
            let text = format!("{open}{}", parts.concat());
            let s = text.as_bytes();
            prop_assert_eq!(skip_value(s, 0).ok(), naive_end(s, 0));
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
        let (s, lone) = string(br#""a\ud800b\ud83d\ude00""#).unwrap();
        assert_eq!((s.as_ref(), lone), ("a\u{FFFD}b\u{1F600}", true));
    }
}

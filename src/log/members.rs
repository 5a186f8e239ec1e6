//! Walking the members of one JSON object and keeping the raw values of
//! the wanted ones (issue 28: split from `scan`, which checks the values
//! the walk skips and decodes the ones it keeps).

use crate::log::scan::{Bad, skip_value, skip_ws, special, string, valid_string_end};

/// Walks the members of the object `s` (exactly one object, whitespace
/// around it allowed) and returns the raw value of each key in `names`: the
/// last one where a key repeats, as `JSON.parse` keeps it. `Err` when `s`
/// is not an object or a value does not end.
pub fn fields<'a, const N: usize>(s: &'a [u8], names: &[&str; N]) -> Result<Raw<'a, N>, Bad> {
    let mut out = [None; N];
    let end = members(s, skip_ws(s, 0), names, |k, v| {
        let end = skip_value(s, v)?;
        if let Some(k) = k {
            out[k] = Some(&s[v..end]);
        }
        Ok(end)
    })?;
    whole(s, end)?;
    Ok(out)
}

/// The raw values of the members asked for, by position (`None`: absent).
pub type Raw<'a, const N: usize> = [Option<&'a [u8]>; N];

/// What [`fields_within`] reads inside the object it walks.
pub struct Inner<'n, 'k, const M: usize, const K: usize> {
    /// The member whose object value's members `names` are read.
    pub at: usize,
    pub names: &'n [&'n str; M],
    /// A member of that object whose object value's members `deep` are
    /// read too (a user message's `data.source`).
    pub deep_at: usize,
    pub deep: &'n [&'n str; K],
    /// A member of that object, and the length of the value already
    /// checked (a line before this one held it) that the bytes from its
    /// value on begin with, if any. Each such value must be one whole
    /// object, array or string: a value that begins with it is it, since
    /// such a value ends at its own closing byte, so it is taken without a
    /// second check (issue 28: dsh repeats a `request/header`'s `header` of
    /// up to 60 KB line after line).
    #[allow(clippy::type_complexity)]
    pub known: Option<(usize, &'k dyn Fn(&[u8]) -> Option<usize>)>,
}

/// What [`fields_within`] read: the members, those of the inner object
/// (when it was read), and those of its deep one (when it was an object).
pub type Within<'a, const N: usize, const M: usize, const K: usize> =
    (Raw<'a, N>, Option<Raw<'a, M>>, Option<Raw<'a, K>>);

/// [`fields`], and when the value of `names[inner.at]` is an object, its
/// members `inner.names` as [`fields`] reads them, and theirs of
/// `inner.deep_at`, from the same walk: a line's `data` (and its
/// `source`) is checked and read once, not skipped and then walked again.
/// `descend` is asked, with the members read before it, whether that
/// object's members are wanted at all: when not, it is only skipped (and
/// checked), and the inner members are `None`.
pub fn fields_within<'a, const N: usize, const M: usize, const K: usize>(
    s: &'a [u8],
    names: &[&str; N],
    inner: &Inner<'_, '_, M, K>,
    descend: impl Fn(&Raw<'a, N>) -> bool,
) -> Result<Within<'a, N, M, K>, Bad> {
    let mut out = [None; N];
    let mut within = None;
    let mut deep = None;
    let end = members(s, skip_ws(s, 0), names, |k, v| {
        let end = if k == Some(inner.at) && s.get(v) == Some(&b'{') && descend(&out) {
            let (end, sub, sub_deep) = inner_object(s, v, inner)?;
            within = Some(sub);
            deep = sub_deep;
            end
        } else {
            if k == Some(inner.at) {
                within = None;
                deep = None;
            }
            skip_value(s, v)?
        };
        if let Some(k) = k {
            out[k] = Some(&s[v..end]);
        }
        Ok(end)
    })?;
    whole(s, end)?;
    Ok((out, within, deep))
}

/// The inner object of [`fields_within`] at `s[v]`: the index past it, its
/// members, and its deep member's (the last one, when an object).
#[allow(clippy::type_complexity)]
fn inner_object<'a, const M: usize, const K: usize>(
    s: &'a [u8],
    v: usize,
    inner: &Inner<'_, '_, M, K>,
) -> Result<(usize, Raw<'a, M>, Option<Raw<'a, K>>), Bad> {
    let mut sub = [None; M];
    let mut deep = None;
    let end = members(s, v, inner.names, |j, w| {
        let end = if j == Some(inner.deep_at) && s.get(w) == Some(&b'{') {
            let mut d = [None; K];
            let end = members(s, w, inner.deep, |x, y| {
                let end = skip_value(s, y)?;
                if let Some(x) = x {
                    d[x] = Some(&s[y..end]);
                }
                Ok(end)
            })?;
            deep = Some(d);
            end
        } else {
            if j == Some(inner.deep_at) {
                deep = None;
            }
            let known = inner
                .known
                .filter(|&(at, _)| j == Some(at) && matches!(s.get(w), Some(b'{' | b'[' | b'"')))
                .and_then(|(_, known)| known(&s[w..]));
            match known {
                Some(len) => w + len,
                None => skip_value(s, w)?,
            }
        };
        if let Some(j) = j {
            sub[j] = Some(&s[w..end]);
        }
        Ok(end)
    })?;
    Ok((end, sub, deep))
}

/// Walks the members of the object at `s[i]`: `value` is given which of
/// `names` each key spells and where its value starts, and returns the
/// index past that value. Returns the index past the object.
fn members<const N: usize>(
    s: &[u8],
    i: usize,
    names: &[&str; N],
    mut value: impl FnMut(Option<usize>, usize) -> Result<usize, Bad>,
) -> Result<usize, Bad> {
    container(s, i, b'{', b'}', |i| {
        if s.get(i) != Some(&b'"') {
            return Err(Bad);
        }
        // Most keys hold no escape: their first special byte is the quote
        // that ends them, and then no backslash need be looked for.
        let first = special(s, i + 1).ok_or(Bad)?;
        let escaped = s[first] != b'"';
        let key_end = if escaped {
            valid_string_end(s, first).ok_or(Bad)?
        } else {
            first + 1
        };
        let colon = skip_ws(s, key_end);
        if s.get(colon) != Some(&b':') {
            return Err(Bad);
        }
        value(which(&s[i..key_end], names, escaped), skip_ws(s, colon + 1))
    })
}

/// The elements of the array `s`; `Err` when it is not an array.
pub fn elements(s: &[u8]) -> Result<Vec<&[u8]>, Bad> {
    let mut out = Vec::new();
    let end = container(s, skip_ws(s, 0), b'[', b']', |i| {
        let end = skip_value(s, i)?;
        out.push(&s[i..end]);
        Ok(end)
    })?;
    whole(s, end)?;
    Ok(out)
}

/// `Ok` when only whitespace follows `s[end..]`.
fn whole(s: &[u8], end: usize) -> Result<(), Bad> {
    if skip_ws(s, end) == s.len() {
        Ok(())
    } else {
        Err(Bad)
    }
}

/// Walks the container at `s[i]` that `open` and `close` delimit: `member`
/// reads the member starting at the index it is given and returns the
/// index past it. Returns the index past the container; `Err` when there
/// is no such container or a member does not end.
fn container(
    s: &[u8],
    mut i: usize,
    open: u8,
    close: u8,
    mut member: impl FnMut(usize) -> Result<usize, Bad>,
) -> Result<usize, Bad> {
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
    Ok(i + 1)
}

/// Whether the short text `b` (a key, a kind) holds a backslash: a loop in
/// line, where `contains` calls `memchr`, whose set-up costs more than such
/// a text (issue 28, callgrind).
#[allow(clippy::manual_contains)]
pub fn has_backslash(b: &[u8]) -> bool {
    b.iter().any(|&c| c == b'\\')
}

/// Which of `names` the raw key (quotes included) spells, escapes decoded
/// (`escaped`: whether its text holds a backslash).
fn which<const N: usize>(key: &[u8], names: &[&str; N], escaped: bool) -> Option<usize> {
    let inner = &key[1..key.len() - 1];
    // No name holds a backslash: a key spelt as one is that name, and only
    // a key that spells none may be escaped.
    // Compared byte by byte in line: the names are a few bytes long, and
    // a `memcmp` call for each costs more than the comparison.
    let spells = |n: &str| {
        n.len() == inner.len()
            && n.as_bytes().first() == inner.first()
            && n.bytes().zip(inner).all(|(a, b)| a == *b)
    };
    if let Some(k) = names.iter().position(|n| spells(n)) {
        return Some(k);
    }
    if !escaped {
        return None;
    }
    let (decoded, _) = string(key)?;
    names.iter().position(|n| *n == decoded)
}

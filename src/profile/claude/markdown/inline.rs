//! Rule 7's inline half: the `@` tokens of a block's text runs, with
//! code spans, HTML, autolinks, link targets and emphasis read as
//! `marked` reads them.

use std::collections::{HashMap, HashSet};

use crate::discovery::is_js_whitespace;

use super::MAX_NESTING;
use super::blocks::up_to_3;

/// The regular expression `(?:^|\s)@((?:[^\s\\]|\\ )+)` over one text run.
pub(super) fn tokens_in_run(run: &str, found: &mut Vec<String>) {
    let chars: Vec<(usize, char)> = run.char_indices().collect();
    let mut k = 0;
    while k < chars.len() {
        let (_, c) = chars[k];
        let at_start = k == 0 || is_js_whitespace(chars[k - 1].1) || is_line_break(chars[k - 1].1);
        if c != '@' || !at_start {
            k += 1;
            continue;
        }
        let mut token = String::new();
        let mut j = k + 1;
        while j < chars.len() {
            let d = chars[j].1;
            if d == '\\' {
                if chars.get(j + 1).map(|x| x.1) == Some(' ') {
                    token.push_str("\\ ");
                    j += 2;
                    continue;
                }
                break;
            }
            if is_js_whitespace(d) || is_line_break(d) {
                break;
            }
            token.push(d);
            j += 1;
        }
        if token.is_empty() {
            k += 1;
            continue;
        }
        if let Some(path) = keep(&token) {
            found.push(path);
        }
        k = j;
    }
}

fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// A token's path, when Claude Code keeps it: cut at `#`, `\ ` read as a
/// space, and starting with `./`, `~/`, `/` (not alone) or `[A-Za-z0-9._-]`.
fn keep(token: &str) -> Option<String> {
    let token = match token.find('#') {
        Some(i) => &token[..i],
        None => token,
    };
    if token.is_empty() {
        return None;
    }
    let path = token.replace("\\ ", " ");
    let ok = path.starts_with("./")
        || path.starts_with("~/")
        || path.starts_with('/') && path != "/"
        || path
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    ok.then_some(path)
}

/// The next occurrence of a byte string at or after a position, for
/// positions that only grow: each byte is searched once.
struct Next<'a> {
    hay: &'a [u8],
    needle: &'static [u8],
    /// The last search started here and found `hit`.
    from: Option<usize>,
    hit: Option<usize>,
}

impl<'a> Next<'a> {
    fn new(hay: &'a [u8], needle: &'static [u8]) -> Self {
        Next {
            hay,
            needle,
            from: None,
            hit: None,
        }
    }

    fn at(&mut self, i: usize) -> Option<usize> {
        if self.from.is_some_and(|f| f <= i) {
            match self.hit {
                None => return None,
                Some(h) if h >= i => return Some(h),
                Some(_) => {}
            }
        }
        self.from = Some(i);
        self.hit = self
            .hay
            .get(i..)
            .and_then(|rest| {
                rest.windows(self.needle.len())
                    .position(|w| w == self.needle)
            })
            .map(|k| i + k);
        self.hit
    }
}

/// What one pass over an inline text finds: where each code span, `[`
/// and `(` closes.
struct Matches {
    code_end: HashMap<usize, usize>,
    bracket_close: HashMap<usize, usize>,
    paren_close: HashMap<usize, usize>,
}

fn matches(b: &[u8]) -> Matches {
    // Code spans: each backtick run closes at the next run of its length.
    let mut runs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'`' {
            let n = b[i..].iter().take_while(|&&c| c == b'`').count();
            runs.push((i, n));
            i += n;
        } else {
            i += 1;
        }
    }
    let mut next_of_len: HashMap<usize, usize> = HashMap::new();
    let mut code_end = HashMap::new();
    for &(at, n) in runs.iter().rev() {
        if let Some(&later) = next_of_len.get(&n) {
            code_end.insert(at, later + n);
        }
        next_of_len.insert(n, at);
    }
    // Brackets skip escapes and code spans; parentheses skip escapes.
    let mut bracket_close = HashMap::new();
    let mut opens = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => opens.push(i),
            b']' => {
                if let Some(o) = opens.pop() {
                    bracket_close.insert(o, i);
                }
            }
            b'`' => {
                let n = b[i..].iter().take_while(|&&c| c == b'`').count();
                i = code_end.get(&i).map_or(i + n, |&e| e) - 1;
            }
            _ => {}
        }
        i += 1;
    }
    let mut paren_close = HashMap::new();
    let mut opens = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'(' => opens.push(i),
            b')' => {
                if let Some(o) = opens.pop() {
                    paren_close.insert(o, i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    Matches {
        code_end,
        bracket_close,
        paren_close,
    }
}

/// The text runs of inline markdown: code spans, HTML tags, autolinks,
/// images and link targets are skipped; a run restarts after them, inside
/// a link's text, after a backslash escape and after an emphasis delimiter
/// that pairs (real agent: `cl-emph-*`, `cl-imp-bracket`, `cl-link-*`).
/// Near-linear: every search is a table or a forward-only cursor.
pub(super) fn inline(text: &str, defs: &HashSet<String>, depth: usize, found: &mut Vec<String>) {
    if depth >= MAX_NESTING {
        tokens_in_run(text, found);
        return;
    }
    let b = text.as_bytes();
    let m = matches(b);
    let paired = emphasis_delimiters(b, &m.code_end);
    let mut tags = Tags {
        text,
        gt: Next::new(b, b">"),
        lt: Next::new(b, b"<"),
        colon: Next::new(b, b":"),
        at: Next::new(b, b"@"),
        space: Next::new(b, b" "),
        lf: Next::new(b, b"\n"),
        comment_end: Next::new(b, b"-->"),
    };
    let mut rb = Next::new(b, b"]");
    let mut run_start = 0;
    let mut i = 0;
    let flush = |from: usize, to: usize, found: &mut Vec<String>| {
        if from < to {
            tokens_in_run(&text[from..to], found);
        }
    };
    while i < b.len() {
        match b[i] {
            b'`' => {
                let n = b[i..].iter().take_while(|&&c| c == b'`').count();
                if let Some(&end) = m.code_end.get(&i) {
                    flush(run_start, i, found);
                    i = end;
                    run_start = i;
                } else {
                    i += n;
                }
            }
            b'<' => {
                if let Some(end) = tags.end(i) {
                    flush(run_start, i, found);
                    i = end;
                    run_start = i;
                } else {
                    i += 1;
                }
            }
            b'\\' if b.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                flush(run_start, i, found);
                i += 2;
                run_start = i;
            }
            b'*' | b'_' => {
                let n = b[i..].iter().take_while(|&&c| c == b[i]).count();
                if paired.contains(&i) {
                    flush(run_start, i, found);
                    run_start = i + n;
                }
                i += n;
            }
            b'!' if b.get(i + 1) == Some(&b'[') => match link_at(text, i + 1, defs, &m, &mut rb) {
                Some((_, end)) => {
                    flush(run_start, i, found);
                    i = end;
                    run_start = i;
                }
                None => i += 1,
            },
            b'[' => match link_at(text, i, defs, &m, &mut rb) {
                Some((label_end, end)) => {
                    flush(run_start, i, found);
                    inline(&text[i + 1..label_end], defs, depth + 1, found);
                    i = end;
                    run_start = i;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
    flush(run_start, b.len(), found);
}

/// A link starting at the `[` at `open`: where its text ends (the `]`)
/// and where the whole link ends. Inline `[text](target)`, or a reference
/// (`[text][label]`, `[text][]`, `[text]`) whose label is defined.
fn link_at(
    text: &str,
    open: usize,
    defs: &HashSet<String>,
    m: &Matches,
    rb: &mut Next<'_>,
) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let close = *m.bracket_close.get(&open)?;
    if b.get(close + 1) == Some(&b'(') {
        if let Some(&end) = m.paren_close.get(&(close + 1)) {
            return Some((close, end));
        }
    }
    let label_of = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    if b.get(close + 1) == Some(&b'[') {
        let k = rb.at(close + 2)?;
        let label = &text[close + 2..k];
        let label = if label.trim().is_empty() {
            &text[open + 1..close]
        } else {
            label
        };
        return defs.contains(&label_of(label)).then_some((close, k + 1));
    }
    defs.contains(&label_of(&text[open + 1..close]))
        .then_some((close, close + 1))
}

/// Inline HTML: tags, comments and autolinks, found with forward cursors.
struct Tags<'a> {
    text: &'a str,
    gt: Next<'a>,
    lt: Next<'a>,
    colon: Next<'a>,
    at: Next<'a>,
    space: Next<'a>,
    lf: Next<'a>,
    comment_end: Next<'a>,
}

impl Tags<'_> {
    /// The end of an inline HTML tag, comment or autolink starting at `i`.
    fn end(&mut self, i: usize) -> Option<usize> {
        if self.text[i..].starts_with("<!--") {
            return self.comment_end.at(i + 4).map(|j| j + 3);
        }
        let close = self.gt.at(i)?;
        if close == i + 1 {
            return None;
        }
        let within = |hit: Option<usize>| hit.is_some_and(|h| h < close);
        if within(self.lt.at(i + 1)) {
            return None;
        }
        let inner = self.text.as_bytes();
        let first = inner[i + 1];
        let autolink = (within(self.colon.at(i + 1)) || within(self.at.at(i + 1)))
            && !within(self.space.at(i + 1))
            && !within(self.lf.at(i + 1));
        let tag = first.is_ascii_alphabetic()
            || first == b'/' && inner.get(i + 2).is_some_and(u8::is_ascii_alphabetic)
            || first == b'?'
            || first == b'!';
        (autolink || tag).then_some(close + 1)
    }
}

/// A one-line link reference definition: ` {0,3}[label]: destination`,
/// then an optional title in quotes or parentheses (real agent: `cl-def-then`).
pub(super) fn is_definition(line: &str) -> bool {
    let Some(t) = up_to_3(line).and_then(|t| t.strip_prefix('[')) else {
        return false;
    };
    let Some(end) = t.find("]:") else {
        return false;
    };
    let label = &t[..end];
    if label.trim().is_empty() || label.contains(['[', ']']) {
        return false;
    }
    let rest = t[end + 2..].trim_start_matches(' ');
    let dest_len = if let Some(inner) = rest.strip_prefix('<') {
        match inner.find('>') {
            Some(k) => k + 2,
            None => return false,
        }
    } else {
        rest.bytes()
            .take_while(|c| !c.is_ascii_whitespace())
            .count()
    };
    if dest_len == 0 {
        return false;
    }
    let title = rest[dest_len..].trim_matches([' ', '\t']);
    title.is_empty()
        || [('"', '"'), ('\'', '\''), ('(', ')')]
            .iter()
            .any(|(o, c)| title.len() >= 2 && title.starts_with(*o) && title.ends_with(*c))
            && rest
                .as_bytes()
                .get(dest_len)
                .is_some_and(|c| *c == b' ' || *c == b'\t')
}

/// The link reference definitions of a text: their labels, normalised.
pub(super) fn definitions(text: &str) -> HashSet<String> {
    text.lines()
        .filter_map(|l| {
            let t = up_to_3(l)?.strip_prefix('[')?;
            let end = t.find("]:")?;
            let label = &t[..end];
            (!label.trim().is_empty() && !label.contains(['[', ']'])).then(|| {
                label
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .to_lowercase()
            })
        })
        .collect()
}

/// The starts of the `*` and `_` runs that pair as emphasis delimiters: an
/// opener (not followed by whitespace; `_` not inside a word) and a later
/// closer of the same character (not preceded by whitespace; `_` not
/// followed by a letter or digit). A closer pairs with the nearest opener of
/// its character; openers between them are dropped.
fn emphasis_delimiters(b: &[u8], code_end: &HashMap<usize, usize>) -> HashSet<usize> {
    let mut stars: Vec<usize> = Vec::new();
    let mut unders: Vec<usize> = Vec::new();
    let mut out = HashSet::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'`' => {
                let n = b[i..].iter().take_while(|&&c| c == b'`').count();
                i = code_end.get(&i).copied().unwrap_or(i + n);
            }
            b'\\' => i += 2,
            c @ (b'*' | b'_') => {
                let n = b[i..].iter().take_while(|&&x| x == c).count();
                let before = i.checked_sub(1).map(|k| b[k]);
                let after = b.get(i + n).copied();
                let space = |x: Option<u8>| x.is_none_or(|x| x.is_ascii_whitespace());
                let word = |x: Option<u8>| x.is_some_and(|x| x.is_ascii_alphanumeric());
                let opens = !space(after) && (c == b'*' || !word(before));
                let closes = !space(before) && (c == b'*' || !word(after));
                let (same, other) = if c == b'*' {
                    (&mut stars, &mut unders)
                } else {
                    (&mut unders, &mut stars)
                };
                match same.pop() {
                    Some(o) if closes => {
                        out.insert(o);
                        out.insert(i);
                        while other.last().is_some_and(|&x| x > o) {
                            other.pop();
                        }
                    }
                    popped => {
                        same.extend(popped);
                        if opens {
                            same.push(i);
                        }
                    }
                }
                i += n;
            }
            _ => i += 1,
        }
    }
    out
}

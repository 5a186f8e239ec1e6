//! The text rules of Claude Code's memory loader (SPEC 10.6.5-7):
//! frontmatter removed, top-level HTML comment blocks removed, `@imports`
//! found. Claude Code reads the blocks with its `marked` lexer (`gfm`
//! off); this is the part of that block grammar the three rules depend on.

use std::collections::{HashMap, HashSet};

use crate::discovery::{is_js_whitespace, js_trim};

/// The text after its frontmatter, and the `paths` patterns of a rule
/// (None: unconditional) [CL-fm].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Frontmatter<'a> {
    pub body: &'a str,
    pub paths: Option<Vec<String>>,
}

/// Rule 5: when the text (after a BOM) starts with `---`, optional spaces
/// or tabs and a line break, and a later line is `---` with optional
/// spaces or tabs, everything through that line (and its line break) goes.
pub(crate) fn frontmatter(text: &str) -> Frontmatter<'_> {
    let unchanged = Frontmatter {
        body: text,
        paths: None,
    };
    let rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(after) = rest.strip_prefix("---") else {
        return unchanged;
    };
    let after = after.trim_start_matches([' ', '\t']);
    let Some(after) = after
        .strip_prefix("\r\n")
        .or_else(|| after.strip_prefix('\n'))
        .or_else(|| after.strip_prefix('\r'))
    else {
        return unchanged;
    };
    let mut pos = 0;
    while pos <= after.len() {
        let (line, next) = line_at_any(after, pos);
        if line
            .strip_prefix("---")
            .is_some_and(|t| t.trim_matches([' ', '\t']).is_empty())
        {
            let yaml = &after[..pos];
            return Frontmatter {
                body: &after[next..],
                paths: paths_of(yaml).and_then(|v| conditional(&v)),
            };
        }
        if next >= after.len() {
            break;
        }
        pos = next;
    }
    unchanged
}

/// The line at `pos` (without its break) and where the next one starts;
/// a break is CR LF, LF or CR.
fn line_at_any(text: &str, pos: usize) -> (&str, usize) {
    let rest = &text[pos..];
    match rest.find(['\n', '\r']) {
        Some(i) => {
            let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
            (&rest[..i], pos + i + skip)
        }
        None => (rest, text.len()),
    }
}

/// The `paths` key of the frontmatter's YAML, as its list of strings: a
/// string, a flow list `[a, b]` or a block list of `- item` lines. None
/// when the key is absent or empty.
fn paths_of(yaml: &str) -> Option<Vec<String>> {
    let lines: Vec<&str> = yaml.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("paths:"))?;
    let value = lines[at]["paths:".len()..].trim();
    if value.is_empty() {
        let items: Vec<String> = lines[at + 1..]
            .iter()
            .take_while(|l| l.starts_with([' ', '\t', '-']))
            .filter_map(|l| l.trim_start().strip_prefix('-'))
            .filter_map(|item| string_scalar(item.trim()))
            .collect();
        return (!items.is_empty()).then_some(items);
    }
    if let Some(inner) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        return Some(
            split_outside_braces(inner)
                .into_iter()
                .filter_map(|s| string_scalar(&s))
                .collect(),
        );
    }
    let scalar = string_scalar(value)?;
    (!scalar.is_empty()).then(|| vec![scalar])
}

/// A plain YAML scalar that is not a string (core schema: null, booleans,
/// numbers): Claude Code reads no pattern from it.
fn typed_scalar(s: &str) -> bool {
    let s = s.trim();
    matches!(
        s,
        "" | "~"
            | "null"
            | "Null"
            | "NULL"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | ".inf"
            | "-.inf"
            | "+.inf"
            | ".nan"
            | ".NaN"
            | ".NAN"
    ) || s.parse::<f64>().is_ok()
        || s.strip_prefix("0x")
            .is_some_and(|h| !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()))
        || s.strip_prefix("0o")
            .is_some_and(|o| !o.is_empty() && o.bytes().all(|c| (b'0'..=b'7').contains(&c)))
}

/// A YAML scalar as a string pattern, or None when it is typed otherwise.
fn string_scalar(s: &str) -> Option<String> {
    let t = s.trim();
    if !(t.starts_with('"') || t.starts_with('\'')) && typed_scalar(t) {
        return None;
    }
    Some(unquote(t))
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    for q in ['"', '\''] {
        if let Some(inner) = s.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            return inner.to_owned();
        }
    }
    s.to_owned()
}

/// Splits on `,` outside braces, each part trimmed, empty parts dropped.
fn split_outside_braces(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in text.chars() {
        match c {
            '{' => {
                depth += 1;
                cur.push(c);
            }
            '}' => {
                depth -= 1;
                cur.push(c);
            }
            ',' if depth == 0 => {
                let t = cur.trim();
                if !t.is_empty() {
                    out.push(t.to_owned());
                }
                cur.clear();
            }
            _ => cur.push(c),
        }
    }
    let t = cur.trim();
    if !t.is_empty() {
        out.push(t.to_owned());
    }
    out
}

/// `{a,b}` expanded, first group first (a pattern without braces as is).
fn expand_braces(pattern: &str) -> Vec<String> {
    let (Some(open), Some(_)) = (pattern.find('{'), pattern.find('}')) else {
        return vec![pattern.to_owned()];
    };
    let Some(close) = pattern[open..].find('}').map(|i| open + i) else {
        return vec![pattern.to_owned()];
    };
    if close == open + 1 {
        return vec![pattern.to_owned()];
    }
    let (head, inner, tail) = (
        &pattern[..open],
        &pattern[open + 1..close],
        &pattern[close + 1..],
    );
    inner
        .split(',')
        .flat_map(|alt| expand_braces(&format!("{head}{}{tail}", alt.trim())))
        .collect()
}

/// Rule 4: the patterns of `paths`, or None when they leave the rule
/// unconditional (none left, or all `**`).
fn conditional(items: &[String]) -> Option<Vec<String>> {
    let patterns: Vec<String> = items
        .iter()
        .flat_map(|item| split_outside_braces(item))
        .flat_map(|p| expand_braces(&p))
        .map(|p| p.strip_suffix("/**").map(str::to_owned).unwrap_or(p))
        .filter(|p| !p.is_empty())
        .collect();
    if patterns.iter().all(|p| p == "**") {
        None
    } else {
        Some(patterns)
    }
}

/// What a block is, as far as the rules need (the top-level tokens of
/// `marked`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Blank,
    Code,
    Fence,
    Heading,
    Hr,
    Quote,
    List,
    /// An HTML block; `comment` when it starts with `<!--`.
    Html {
        comment: bool,
    },
    /// A link reference definition (`[label]: destination "title"`).
    Definition,
    Paragraph,
}

/// One block: its kind and its byte span in the LF-only text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Block {
    kind: Kind,
    start: usize,
    end: usize,
}

/// Line breaks read as LF (CR LF and lone CR), as `marked` does.
fn to_lf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Rule 6 [CL-html]: the text without its top-level HTML comment blocks,
/// or None when nothing changed (the text is then kept as it is, line
/// breaks included).
pub(crate) fn strip_comments(text: &str) -> Option<String> {
    if !text.contains("<!--") {
        return None;
    }
    let lf = to_lf(text);
    let mut out = String::with_capacity(lf.len());
    let mut copied = 0;
    let mut changed = false;
    for b in blocks(&lf) {
        let raw = &lf[b.start..b.end];
        if b.kind != (Kind::Html { comment: true }) || !raw.contains("-->") {
            continue;
        }
        let rest = remove_comments(raw);
        out.push_str(&lf[copied..b.start]);
        if !js_trim(&rest).is_empty() {
            out.push_str(&rest);
        }
        copied = b.end;
        changed = true;
    }
    if !changed {
        return None;
    }
    out.push_str(&lf[copied..]);
    Some(out)
}

/// Every `<!--`...`-->` removed (lazily matched, as `/<!--[\s\S]*?-->/g`).
fn remove_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("<!--") {
        match rest[i + 4..].find("-->") {
            Some(j) => {
                out.push_str(&rest[..i]);
                rest = &rest[i + 4 + j + 3..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// Rule 7 [CL-imp]: the import tokens of a text (its frontmatter removed),
/// each path once, in order (as written, before resolution).
pub(crate) fn import_tokens(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    if !text.contains('@') {
        return found;
    }
    let lf = to_lf(text);
    let defs = definitions(&lf);
    scan_blocks(&lf, true, &defs, 0, &mut found);
    let mut seen = HashSet::new();
    found.retain(|t| seen.insert(t.clone()));
    found
}

/// How deep quotes, lists and links are read inside each other; deeper
/// text is read as one run (a hostile file cannot exhaust the stack).
const MAX_NESTING: usize = 64;

fn scan_blocks(
    text: &str,
    top: bool,
    defs: &HashSet<String>,
    depth: usize,
    found: &mut Vec<String>,
) {
    if depth >= MAX_NESTING {
        tokens_in_run(text, found);
        return;
    }
    for b in blocks(text) {
        let raw = &text[b.start..b.end];
        match b.kind {
            Kind::Blank | Kind::Code | Kind::Fence | Kind::Hr | Kind::Definition => {}
            Kind::Html { comment } => {
                if comment && js_trim(raw).starts_with("<!--") && raw.contains("-->") {
                    let rest = remove_comments(raw);
                    if !js_trim(&rest).is_empty() {
                        tokens_in_run(&rest, found);
                    }
                }
            }
            Kind::Heading => inline(heading_text(raw), defs, depth, found),
            Kind::Paragraph => {
                let body = raw.trim_end_matches('\n');
                if top {
                    inline(body, defs, depth, found);
                } else {
                    // A list item's text token: its text, then its inline tokens.
                    tokens_in_run(body, found);
                    inline(body, defs, depth, found);
                }
            }
            Kind::Quote => scan_blocks(&quote_content(raw), true, defs, depth + 1, found),
            Kind::List => {
                for item in list_items(raw) {
                    scan_blocks(&item, false, defs, depth + 1, found);
                }
            }
        }
    }
}

/// The text of an ATX heading (marks and a closing `#` run removed) or of a
/// setext heading (its underline removed).
fn heading_text(raw: &str) -> &str {
    let first = raw.trim_end_matches('\n');
    let t = first.trim_start_matches(' ');
    if let Some(rest) = t.strip_prefix('#') {
        let rest = rest.trim_start_matches('#');
        let rest = rest.trim_matches([' ', '\t']);
        let rest = rest.trim_end_matches('#');
        return rest.trim_end_matches([' ', '\t']);
    }
    match first.rfind('\n') {
        Some(i) => &first[..i],
        None => first,
    }
}

/// The regular expression `(?:^|\s)@((?:[^\s\\]|\\ )+)` over one text run.
fn tokens_in_run(run: &str, found: &mut Vec<String>) {
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
fn inline(text: &str, defs: &HashSet<String>, depth: usize, found: &mut Vec<String>) {
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
fn is_definition(line: &str) -> bool {
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
fn definitions(text: &str) -> HashSet<String> {
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

/// The lines of `text` with their spans: (start, end without the LF, next).
fn line_at(text: &str, pos: usize) -> (usize, usize) {
    match text[pos..].find('\n') {
        Some(i) => (pos + i, pos + i + 1),
        None => (text.len(), text.len()),
    }
}

fn is_blank(line: &str) -> bool {
    line.bytes().all(|c| c == b' ' || c == b'\t')
}

/// Leading indentation in columns (a tab to the next multiple of 4).
fn indent_of(line: &str) -> usize {
    let mut col = 0;
    for c in line.bytes() {
        match c {
            b' ' => col += 1,
            b'\t' => col += 4 - col % 4,
            _ => break,
        }
    }
    col
}

/// Up to three leading spaces removed, or None when there are more.
fn up_to_3(line: &str) -> Option<&str> {
    let n = line.bytes().take_while(|&c| c == b' ').count();
    (n <= 3).then(|| &line[n..])
}

fn is_heading(line: &str) -> bool {
    up_to_3(line).is_some_and(|t| {
        let n = t.bytes().take_while(|&c| c == b'#').count();
        (1..=6).contains(&n) && t[n..].chars().next().is_none_or(char::is_whitespace)
    })
}

fn is_hr(line: &str) -> bool {
    let Some(t) = up_to_3(line) else {
        return false;
    };
    for mark in [b'-', b'_', b'*'] {
        let mut count = 0;
        let ok = t.bytes().all(|c| {
            if c == mark {
                count += 1;
                true
            } else {
                c == b' ' || c == b'\t'
            }
        });
        if ok && count >= 3 && t.as_bytes().first() == Some(&mark) {
            return true;
        }
    }
    false
}

/// A fence opener: its character and length.
fn fence_open(line: &str) -> Option<(u8, usize)> {
    let t = up_to_3(line)?;
    let c = *t.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = t.bytes().take_while(|&x| x == c).count();
    if n < 3 || c == b'`' && t[n..].contains('`') {
        return None;
    }
    Some((c, n))
}

fn is_fence_close(line: &str, c: u8, n: usize) -> bool {
    up_to_3(line).is_some_and(|t| {
        let m = t.bytes().take_while(|&x| x == c).count();
        m >= n && t[m..].bytes().all(|x| x == b'`' || x == b'~' || x == b' ')
    })
}

fn is_quote(line: &str) -> bool {
    up_to_3(line).is_some_and(|t| t.starts_with('>'))
}

/// A list item opener: (marker width including its indentation, the
/// bullet or the ordered delimiter, ordered).
fn list_open(line: &str) -> Option<(usize, u8, bool)> {
    let lead = line.bytes().take_while(|&c| c == b' ').count();
    if lead > 3 {
        return None;
    }
    let t = &line[lead..];
    let b = t.as_bytes();
    let (width, mark, ordered) = match b.first()? {
        c @ (b'*' | b'+' | b'-') => (1, *c, false),
        c if c.is_ascii_digit() => {
            let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
            if n > 9 {
                return None;
            }
            match b.get(n) {
                Some(d @ (b'.' | b')')) => (n + 1, *d, true),
                _ => return None,
            }
        }
        _ => return None,
    };
    match b.get(width) {
        None | Some(b' ' | b'\t') => Some((lead + width, mark, ordered)),
        _ => None,
    }
}

/// Where a paragraph line may be interrupted by the next line.
fn interrupts_paragraph(line: &str) -> bool {
    if is_hr(line) || is_heading(line) || is_quote(line) {
        return true;
    }
    if let Some(t) = up_to_3(line) {
        let fence = t.starts_with("```") && !t.trim_start_matches('`').contains('`')
            || t.starts_with("~~~");
        if fence {
            return true;
        }
        let b = t.as_bytes();
        let list = matches!(b.first(), Some(b'*' | b'+' | b'-')) && b.get(1) == Some(&b' ')
            || b.starts_with(b"1.") && b.get(2) == Some(&b' ')
            || b.starts_with(b"1)") && b.get(2) == Some(&b' ');
        if list {
            return true;
        }
    }
    html_interrupts(line)
}

/// `</?(tag)(?: +|\n|/?>)|<(?:script|pre|style|textarea|!--)` at column 0,
/// case-sensitive (real agent: `cl-p-upper-div`; a block opens on `<DIV>`).
fn html_interrupts(line: &str) -> bool {
    if ["<script", "<pre", "<style", "<textarea", "<!--"]
        .iter()
        .any(|p| line.starts_with(p))
    {
        return true;
    }
    block_tag_open(line).is_some()
}

const BLOCK_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "base",
    "basefont",
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "iframe",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "menuitem",
    "meta",
    "nav",
    "noframes",
    "ol",
    "optgroup",
    "option",
    "p",
    "param",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
];

/// `</?(tag)(?: +|\n|$|/?>)` on a lower-cased line without indentation.
fn block_tag_open(lower: &str) -> Option<()> {
    let t = lower.strip_prefix('<')?;
    let t = t.strip_prefix('/').unwrap_or(t);
    let n = t.bytes().take_while(u8::is_ascii_alphanumeric).count();
    if !BLOCK_TAGS.contains(&&t[..n]) {
        return None;
    }
    let after = &t[n..];
    (after.is_empty()
        || after.starts_with(' ')
        || after.starts_with('>')
        || after.starts_with("/>"))
    .then_some(())
}

/// A type-7 HTML block opener: a complete open or closing tag (not
/// script/pre/style/textarea) alone on its line.
fn complete_tag_line(lower: &str) -> bool {
    let Some(t) = lower.strip_prefix('<') else {
        return false;
    };
    let (closing, t) = match t.strip_prefix('/') {
        Some(t) => (true, t),
        None => (false, t),
    };
    let b = t.as_bytes();
    if !b.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let n = b
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-')
        .count();
    if ["script", "pre", "style", "textarea"]
        .iter()
        .any(|s| t.starts_with(s))
    {
        return false;
    }
    let mut rest = &t[n..];
    if !closing {
        loop {
            let spaced = rest.trim_start_matches(' ');
            if spaced.len() == rest.len() {
                break;
            }
            let a = spaced.as_bytes();
            if !a
                .first()
                .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b':' | b'_'))
            {
                break;
            }
            let m = a
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':' | b'-'))
                .count();
            let mut after = &spaced[m..];
            let eq = after.trim_start_matches(' ');
            if let Some(v) = eq.strip_prefix('=') {
                let v = v.trim_start_matches(' ');
                let end = match v.as_bytes().first() {
                    Some(q @ (b'"' | b'\'')) => v[1..].find(*q as char).map(|k| k + 2),
                    Some(_) => Some(
                        v.bytes()
                            .take_while(|c| !c.is_ascii_whitespace() && !b"\"'=<>`".contains(c))
                            .count(),
                    )
                    .filter(|&k| k > 0),
                    None => None,
                };
                match end {
                    Some(k) => after = &v[k..],
                    None => break,
                }
            }
            rest = after;
        }
    }
    let rest = rest.trim_start_matches(' ');
    let rest = if closing {
        rest.strip_prefix('>')
    } else {
        rest.strip_prefix("/>").or_else(|| rest.strip_prefix('>'))
    };
    rest.is_some_and(|r| r.bytes().all(|c| c == b' ' || c == b'\t'))
}

/// The end of an HTML block starting at `start` (its first line `line`),
/// or None when the line opens none.
fn html_block_end(
    text: &str,
    start: usize,
    line: &str,
    after_paragraph: bool,
) -> Option<(usize, bool)> {
    let t = up_to_3(line)?;
    if !t.starts_with('<') {
        return None;
    }
    let lead = line.len() - t.len();
    let body = &text[start + lead..];
    let lower = t.to_ascii_lowercase();
    let newlines_after = |pos: usize| pos + text[pos..].bytes().take_while(|&c| c == b'\n').count();
    let line_end = |pos: usize| line_at(text, pos).0;
    // (1) script, pre, style, textarea
    for name in ["script", "pre", "style", "textarea"] {
        let open = format!("<{name}");
        if lower.starts_with(&open)
            && lower[open.len()..]
                .chars()
                .next()
                .is_none_or(|c| c.is_whitespace() || c == '>')
        {
            let close = format!("</{name}>");
            let found = body
                .as_bytes()
                .windows(close.len())
                .position(|w| w.eq_ignore_ascii_case(close.as_bytes()));
            return Some(match found {
                Some(k) => {
                    let e = line_end(start + lead + k + close.len());
                    (newlines_after(e.min(text.len())), false)
                }
                None => (text.len(), false),
            });
        }
    }
    // (2) comment
    if let Some(after) = body.strip_prefix("<!--") {
        let end = if after.starts_with('>') {
            Some(5)
        } else if after.starts_with("->") {
            Some(6)
        } else {
            after.find("-->").map(|k| 4 + k + 3)
        };
        return Some(match end {
            Some(k) => (newlines_after(line_end(start + lead + k)), true),
            None => (text.len(), true),
        });
    }
    let until = |marker: &str| -> usize {
        match body.find(marker) {
            Some(k) => newlines_after(start + lead + k + marker.len()),
            None => text.len(),
        }
    };
    // (3) processing instruction, (4) declaration, (5) CDATA
    if body.starts_with("<?") {
        return Some((until("?>"), false));
    }
    if body.starts_with("<![CDATA[") {
        return Some((until("]]>"), false));
    }
    if body.starts_with("<!") && body.as_bytes().get(2).is_some_and(u8::is_ascii_uppercase) {
        return Some((until(">"), false));
    }
    // (6) block tags, (7) any complete tag alone on its line (not after a paragraph)
    if block_tag_open(&lower).is_some() || !after_paragraph && complete_tag_line(&lower) {
        return Some((blank_line_end(text, start), false));
    }
    None
}

/// The end of a block that runs to a blank line: through the blank lines
/// `(?:\n[ \t]*)+\n`, or the end of the text.
fn blank_line_end(text: &str, start: usize) -> usize {
    let mut pos = start;
    loop {
        let (_, next) = line_at(text, pos);
        if next >= text.len() {
            return text.len();
        }
        let (nend, _) = line_at(text, next);
        if is_blank(&text[next..nend]) {
            // Through every following blank line and its LF.
            let mut p = next;
            loop {
                let (e, n) = line_at(text, p);
                if !is_blank(&text[p..e]) || e == text.len() {
                    return if e == text.len() && is_blank(&text[p..e]) {
                        text.len()
                    } else {
                        p
                    };
                }
                p = n;
            }
        }
        pos = next;
    }
}

/// The top-level blocks of `text` (LF only). A list item's content is
/// lexed the same way (its paragraphs are `marked`'s `text` tokens).
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut pos = 0;
    let mut prev: Option<Kind> = None;
    while pos < text.len() {
        let (eol, next) = line_at(text, pos);
        let line = &text[pos..eol];
        let start = pos;
        let kind;
        if is_blank(line) {
            let mut p = next;
            while p < text.len() {
                let (e, n) = line_at(text, p);
                if !is_blank(&text[p..e]) {
                    break;
                }
                p = n;
            }
            pos = p;
            kind = Kind::Blank;
        } else if indent_of(line) >= 4 && prev != Some(Kind::Paragraph) {
            let mut p = next;
            while p < text.len() {
                let (e, n) = line_at(text, p);
                let l = &text[p..e];
                if !is_blank(l) && indent_of(l) < 4 {
                    break;
                }
                p = n;
            }
            pos = p;
            kind = Kind::Code;
        } else if let Some((c, n)) = fence_open(line) {
            let mut p = next;
            let mut end = text.len();
            while p < text.len() {
                let (e, nx) = line_at(text, p);
                if is_fence_close(&text[p..e], c, n) {
                    end = e;
                    break;
                }
                p = nx;
            }
            pos = end;
            if text[pos..].starts_with('\n') {
                pos += 1;
            }
            kind = Kind::Fence;
        } else if is_heading(line) {
            pos = next + text[next..].bytes().take_while(|&c| c == b'\n').count();
            kind = Kind::Heading;
        } else if is_hr(line) {
            pos = next + text[next..].bytes().take_while(|&c| c == b'\n').count();
            kind = Kind::Hr;
        } else if is_quote(line) {
            pos = quote_end(text, pos);
            kind = Kind::Quote;
        } else if list_open(line).is_some() {
            pos = list_end(text, pos);
            kind = Kind::List;
        } else if is_definition(line) {
            pos = next + text[next..].bytes().take_while(|&c| c == b'\n').count();
            kind = Kind::Definition;
        } else if let Some((end, comment)) = html_block_end(text, pos, line, false) {
            pos = end.max(next.min(text.len()));
            kind = Kind::Html { comment };
        } else {
            pos = paragraph_end(text, pos);
            kind = Kind::Paragraph;
        }
        if pos <= start {
            pos = next.max(start + 1).min(text.len());
        }
        out.push(Block {
            kind,
            start,
            end: pos,
        });
        prev = Some(kind);
    }
    out
}

/// A paragraph from `pos`: lines until a blank line or an interrupting
/// block; a setext underline ends it (with its LF run).
fn paragraph_end(text: &str, pos: usize) -> usize {
    let (_, mut next) = line_at(text, pos);
    while next < text.len() {
        let (e, n) = line_at(text, next);
        let l = &text[next..e];
        if l.is_empty() || l.bytes().all(|c| c == b' ') {
            return next;
        }
        if is_setext(l) {
            return n + text[n..].bytes().take_while(|&c| c == b'\n').count();
        }
        if interrupts_paragraph(l) {
            return next;
        }
        next = n;
    }
    text.len()
}

fn is_setext(line: &str) -> bool {
    up_to_3(line).is_some_and(|t| {
        let t = t.trim_end_matches(' ');
        !t.is_empty() && (t.bytes().all(|c| c == b'=') || t.bytes().all(|c| c == b'-'))
    })
}

/// A block quote from `pos`: quote lines and their lazy continuations
/// (a paragraph line of the quote continues on a line that would not
/// interrupt a paragraph).
fn quote_end(text: &str, pos: usize) -> usize {
    let content = |l: &str| -> String {
        let t = up_to_3(l).unwrap_or(l);
        let t = t.strip_prefix('>').unwrap_or(t);
        t.strip_prefix(' ').unwrap_or(t).to_owned()
    };
    let paragraph_line = |c: &str| {
        !is_blank(c) && fence_open(c).is_none() && !is_heading(c) && !is_hr(c) && indent_of(c) < 4
    };
    let (e, mut next) = line_at(text, pos);
    let mut lazy_ok = paragraph_line(&content(&text[pos..e]));
    while next < text.len() {
        let (e, n) = line_at(text, next);
        let l = &text[next..e];
        // A lazy line ends at HTML that would start a block even when
        // indented 1-3 spaces (real agent: `cl-q-two`, `cl-q-lazy-then`).
        let html = up_to_3(l).is_some_and(html_interrupts);
        if is_quote(l) {
            lazy_ok = paragraph_line(&content(l));
        } else if !(lazy_ok && !is_blank(l) && !interrupts_paragraph(l) && !html) {
            break;
        }
        next = n;
    }
    next
}

/// The content of a block quote: `>` and one space removed per quote line.
fn quote_content(raw: &str) -> String {
    raw.split_inclusive('\n')
        .map(|l| {
            if is_quote(l) {
                let t = up_to_3(l).unwrap_or(l);
                let t = &t[1..];
                t.strip_prefix(' ').unwrap_or(t).to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect()
}

/// A list from `pos`: its items (marked's list tokenizer), to its end.
fn list_end(text: &str, pos: usize) -> usize {
    list_scan(text, pos).0
}

/// The items' contents (dedented) of a list's raw text.
fn list_items(raw: &str) -> Vec<String> {
    list_scan(raw, 0).1
}

fn list_scan(text: &str, pos: usize) -> (usize, Vec<String>) {
    let Some((_, mark, ordered)) = list_open(&text[pos..line_at(text, pos).0]) else {
        return (line_at(text, pos).1, Vec::new());
    };
    let mut items = Vec::new();
    let mut p = pos;
    let mut end = pos;
    while p < text.len() {
        let (eol, next) = line_at(text, p);
        let line = &text[p..eol];
        let Some((width, m, o)) = list_open(line) else {
            break;
        };
        if m != mark || o != ordered || is_hr(line) {
            break;
        }
        let after = &line[width..];
        let after_tabs = after.replace('\t', "   ");
        let blank_first = after_tabs.trim().is_empty();
        let (indent, mut contents) = if blank_first {
            (width + 1, String::new())
        } else {
            let sp = after_tabs.bytes().take_while(|&c| c == b' ').count();
            let sp = if sp > 4 { 1 } else { sp };
            (width + sp, after_tabs[sp..].to_owned())
        };
        let mut q = next;
        let cap = indent.saturating_sub(1).min(3);
        let mut blank_line = blank_first;
        let mut prev_line = contents.clone();
        let ends_early = blank_first && {
            let (e, _) = line_at(text, q);
            q < text.len() && is_blank(&text[q..e])
        };
        if ends_early {
            q = line_at(text, q).1;
        } else {
            while q < text.len() {
                let (e, n) = line_at(text, q);
                let nl = &text[q..e];
                let lead = nl.bytes().take_while(|&c| c == b' ').count();
                let t = &nl[lead..];
                let small = lead <= cap;
                if small
                    && (t.starts_with("```")
                        || t.starts_with("~~~")
                        || t.starts_with('#')
                        || t.starts_with("<!--")
                        || t.starts_with('<')
                            && t[1..]
                                .chars()
                                .next()
                                .is_some_and(|c| c.is_ascii_alphabetic())
                            && t.contains('>')
                        || list_open(t).is_some()
                        || is_hr(t))
                {
                    break;
                }
                let no_tabs = nl.replace('\t', "    ");
                let ind = no_tabs.bytes().take_while(|&c| c == b' ').count();
                if ind >= indent || no_tabs.trim().is_empty() {
                    contents.push('\n');
                    contents.push_str(no_tabs.get(indent..).unwrap_or(""));
                } else {
                    if blank_line {
                        break;
                    }
                    if indent_of(&prev_line) >= 4
                        || fence_open(&prev_line).is_some()
                        || is_heading(&prev_line)
                        || is_hr(&prev_line)
                    {
                        break;
                    }
                    contents.push('\n');
                    contents.push_str(nl);
                }
                if !blank_line && nl.trim().is_empty() {
                    blank_line = true;
                }
                prev_line = no_tabs.get(indent..).unwrap_or("").to_owned();
                q = n;
            }
        }
        items.push(contents);
        end = q;
        p = q;
    }
    // The list's raw text ends trimmed: trailing blank lines are the next block's.
    let mut last = line_at(text, pos).1;
    let mut q = pos;
    while q < end {
        let (e, n) = line_at(text, q);
        if !is_blank(&text[q..e]) {
            last = n;
        }
        q = n;
    }
    (last.min(text.len()), items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn strip(text: &str) -> String {
        strip_comments(text).unwrap_or_else(|| text.to_owned())
    }

    #[test]
    fn frontmatter_forms() {
        assert_eq!(
            frontmatter("\u{feff}---\r\nt: x\r\n---\r\nbody").body,
            "body"
        );
        assert_eq!(frontmatter("---\nt\n...\nx").body, "---\nt\n...\nx");
        assert_eq!(frontmatter("  ---\nt\n---\nx").body, "  ---\nt\n---\nx");
        assert_eq!(frontmatter("---\nt: x\n---").body, "");
        assert_eq!(frontmatter("---\n---\nbody").body, "body");
        assert_eq!(frontmatter("---\nfoo: [unclosed\n---\nb").body, "b");
    }

    #[test]
    fn paths_decide_conditional_rules() {
        let p = |t: &str| frontmatter(t).paths;
        assert_eq!(p("---\npaths: \"**\"\n---\nx"), None);
        assert_eq!(p("---\npaths: []\n---\nx"), None);
        assert_eq!(
            p("---\npaths:\n  - \"src/**/*.ts\"\n---\nx"),
            Some(vec!["src/**/*.ts".to_owned()])
        );
        assert_eq!(
            p("---\npaths: src/{a,b}/**, **\n---\nx"),
            Some(vec![
                "src/a".to_owned(),
                "src/b".to_owned(),
                "**".to_owned()
            ])
        );
        assert_eq!(
            p("---\npaths: docs/**\n---\nx"),
            Some(vec!["docs".to_owned()])
        );
    }

    #[test]
    fn comment_blocks_where_a_block_starts() {
        assert_eq!(
            strip("p1\n<!-- c1 -->\n\n\n\np2\n\nEND\n"),
            "p1\np2\n\nEND\n"
        );
        assert_eq!(strip("   <!-- three -->\nx\n"), "x\n");
        assert_eq!(strip("<!-- unclosed\nx\n"), "<!-- unclosed\nx\n");
        assert_eq!(
            strip("<div>\n<!-- in div -->\n</div>\n"),
            "<div>\n<!-- in div -->\n</div>\n"
        );
        assert_eq!(strip("> q\n<!-- after quote -->\nz\n"), "> q\nz\n");
        assert_eq!(strip("# H\n<!-- c -->\nz\n"), "# H\nz\n");
        assert_eq!(strip("- a\n<!-- c -->\nz\n"), "- a\nz\n");
        assert_eq!(
            strip("x\n    <!-- four -->\ny\n"),
            "x\n    <!-- four -->\ny\n"
        );
        assert_eq!(
            strip("x\n\n    <!-- code -->\n\ny\n"),
            "x\n\n    <!-- code -->\n\ny\n"
        );
        assert_eq!(strip("<!-- a --><!-- b -->\ntext\n"), "text\n");
        assert_eq!(strip("<!-- a -->text after\nnext\n"), "text after\nnext\n");
        assert_eq!(strip("x\n<!-- c -->\n  \ny\n"), "x\n  \ny\n");
        assert_eq!(
            strip("```\n<!-- f -->\n```\n<!-- r -->\nz\n"),
            "```\n<!-- f -->\n```\nz\n"
        );
        assert_eq!(strip("1. one\n<!-- c -->\nz\n"), "1. one\nz\n");
        assert_eq!(strip("<!--\n-->\nz\n"), "z\n");
        assert_eq!(strip("x\r\n<!-- c -->\r\ny\r\n"), "x\ny\n");
        assert_eq!(
            strip("- item\n  <!-- in -->\nend\n"),
            "- item\n  <!-- in -->\nend\n"
        );
        assert_eq!(
            strip("c <!-- i --> d\n  <!-- ind -->\n<!-- x --> trailing\n"),
            "c <!-- i --> d\n  <!-- ind -->\n trailing\n"
        );
    }

    #[test]
    fn what_the_real_agent_showed_about_blocks() {
        // A quote's lazy line ends at indented HTML; a paragraph's does not.
        assert_eq!(strip("> q\n  <!-- two -->\nz\n"), "> q\nz\n");
        assert_eq!(strip("> q\nlazy\n  <!-- two -->\nz\n"), "> q\nlazy\nz\n");
        assert_eq!(strip("p\n  <!-- two -->\nz\n"), "p\n  <!-- two -->\nz\n");
        // A definition is a block of its own.
        assert_eq!(
            strip("[r]: http://x\n   <!-- three -->\nz\n"),
            "[r]: http://x\nz\n"
        );
        assert_eq!(
            strip("p\n[r]: http://x\n  <!-- two -->\nz\n"),
            "p\n[r]: http://x\n  <!-- two -->\nz\n"
        );
        // Only lower-case tags interrupt a paragraph.
        assert_eq!(strip("p\n<DIV>\n<!-- c -->\nz\n"), "p\n<DIV>\nz\n");
        assert_eq!(
            strip("p\n<div>\n<!-- c -->\nz\n"),
            "p\n<div>\n<!-- c -->\nz\n"
        );
        assert_eq!(import_tokens("p\n<DIV>\ny @./a.md\n"), ["./a.md"]);
    }

    #[test]
    fn what_the_real_agent_showed_about_inline_runs() {
        let t = |s: &str| import_tokens(s);
        assert_eq!(t("*@./a.md and _@./b.md\n"), Vec::<String>::new());
        assert_eq!(
            t("*@./a.md* _@./b.md_ x_@./c.md_ *@./d.md *\n"),
            ["./a.md", "./b.md"]
        );
        assert_eq!(
            t("[@./a.md] [x](@./b.md) [y]( @./c.md) ![@./d.md](i.png)\n"),
            Vec::<String>::new()
        );
        assert_eq!(
            t("[@./a.md](u) [see @./b.md](u) [@./c.md][]\n"),
            ["./a.md", "./b.md"]
        );
        assert_eq!(t("[@./a.md][r]\n\n[r]: http://x\n"), ["./a.md"]);
        assert_eq!(t("\\\\@./a.md x\\_@./b.md\n"), ["./a.md", "./b.md"]);
    }

    #[test]
    fn typed_yaml_paths_are_no_patterns() {
        let p = |t: &str| frontmatter(t).paths;
        for v in ["3", "true", "null", "~", "[3]", "[3, \"**\"]"] {
            assert_eq!(p(&format!("---\npaths: {v}\n---\nx")), None, "{v}");
        }
        assert_eq!(p("---\npaths: \"3\"\n---\nx"), Some(vec!["3".to_owned()]));
    }

    #[test]
    fn any_text_is_read_without_panicking() {
        // Fragments with multi-byte characters next to every marker.
        let parts = [
            "\n",
            "\r",
            "\t",
            " ",
            "é",
            "😀",
            "<!--",
            "-->",
            "<",
            ">",
            "`",
            "```",
            "~~~",
            "*",
            "_",
            "[",
            "]",
            "(",
            ")",
            "\\",
            "@",
            "@./a.md",
            "- ",
            "1. ",
            "> ",
            "#",
            "---",
            "<div>",
            "<?",
            "?>",
            "<![CDATA[",
            "]]>",
            "[r]: ",
            "\u{a0}",
            "\u{2028}",
        ];
        let mut seed: u64 = 25;
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..24 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                text.push_str(parts[(seed >> 33) as usize % parts.len()]);
            }
            let fm = frontmatter(&text);
            let _ = strip_comments(fm.body);
            let _ = import_tokens(fm.body);
        }
    }

    #[test]
    fn imports_in_text_runs_only() {
        let t = |s: &str| import_tokens(s);
        assert_eq!(
            t("see @docs/a.md and `@docs/no.md`\n```\n@./no2.md\n```\n    @./no3.md\n"),
            ["docs/a.md"]
        );
        assert_eq!(
            t("# @./h.md\n**@./b.md** and `c`@./c.md and x@./no.md\n"),
            ["./h.md", "./b.md", "./c.md"]
        );
        assert_eq!(
            t("@./a.md#frag @./my\\ file.md (@./p.md) @./q.md."),
            ["./a.md", "./my file.md", "./q.md."]
        );
        assert_eq!(t("@~/x @/ @/abs @#x @@y"), ["~/x", "/abs"]);
        assert_eq!(t("<!-- @./c.md -->\n"), Vec::<String>::new());
        assert_eq!(t("<!-- c --> @./after.md\n"), ["./after.md"]);
    }
}

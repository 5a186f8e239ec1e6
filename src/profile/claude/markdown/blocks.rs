//! The top-level blocks of a text as `marked` lexes them (`gfm` off):
//! the line tests, the block loop, paragraphs, quotes and lists.

use super::html::{html_block_end, html_interrupts};
use super::inline::is_definition;

/// What a block is, as far as the rules need (the top-level tokens of
/// `marked`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
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
pub(super) struct Block {
    pub(super) kind: Kind,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// The lines of `text` with their spans: (start, end without the LF, next).
pub(super) fn line_at(text: &str, pos: usize) -> (usize, usize) {
    match text[pos..].find('\n') {
        Some(i) => (pos + i, pos + i + 1),
        None => (text.len(), text.len()),
    }
}

pub(super) fn is_blank(line: &str) -> bool {
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
pub(super) fn up_to_3(line: &str) -> Option<&str> {
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

/// The top-level blocks of `text` (LF only). A list item's content is
/// lexed the same way (its paragraphs are `marked`'s `text` tokens).
pub(super) fn blocks(text: &str) -> Vec<Block> {
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
pub(super) fn quote_content(raw: &str) -> String {
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
pub(super) fn list_items(raw: &str) -> Vec<String> {
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
        let (contents, q) = list_item(text, line, width, next);
        items.push(contents);
        end = q;
        p = q;
    }
    (trimmed_end(text, pos, end), items)
}

/// One list item whose opener `line` (marker `width` wide) ends at `next`:
/// its contents (dedented) and where the next line after it starts.
fn list_item(text: &str, line: &str, width: usize, next: usize) -> (String, usize) {
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
        return (contents, line_at(text, q).1);
    }
    while q < text.len() {
        let (e, n) = line_at(text, q);
        let nl = &text[q..e];
        let lead = nl.bytes().take_while(|&c| c == b' ').count();
        if lead <= cap && ends_item(&nl[lead..]) {
            break;
        }
        let no_tabs = nl.replace('\t', "    ");
        let ind = no_tabs.bytes().take_while(|&c| c == b' ').count();
        if ind >= indent || no_tabs.trim().is_empty() {
            contents.push('\n');
            contents.push_str(no_tabs.get(indent..).unwrap_or(""));
        } else {
            if blank_line || ends_lazy_continuation(&prev_line) {
                break;
            }
            contents.push('\n');
            contents.push_str(nl);
        }
        if !blank_line && nl.trim().is_empty() {
            blank_line = true;
        }
        no_tabs
            .get(indent..)
            .unwrap_or("")
            .clone_into(&mut prev_line);
        q = n;
    }
    (contents, q)
}

/// A line (its up to three leading spaces removed) that ends a list item:
/// a fence, a heading, an HTML opener, another item or a rule.
fn ends_item(t: &str) -> bool {
    t.starts_with("```")
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
        || is_hr(t)
}

/// An item's previous line after which a less indented line is no lazy
/// continuation: indented code, a fence, a heading or a rule.
fn ends_lazy_continuation(prev_line: &str) -> bool {
    indent_of(prev_line) >= 4
        || fence_open(prev_line).is_some()
        || is_heading(prev_line)
        || is_hr(prev_line)
}

/// The list's raw text ends trimmed: trailing blank lines are the next block's.
fn trimmed_end(text: &str, pos: usize, end: usize) -> usize {
    let mut last = line_at(text, pos).1;
    let mut q = pos;
    while q < end {
        let (e, n) = line_at(text, q);
        if !is_blank(&text[q..e]) {
            last = n;
        }
        q = n;
    }
    last.min(text.len())
}

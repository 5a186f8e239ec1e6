//! HTML blocks: which lines open one (`marked`'s block tags and complete
//! tag lines) and where it ends.

use super::blocks::{is_blank, line_at, up_to_3};

/// `</?(tag)(?: +|\n|/?>)|<(?:script|pre|style|textarea|!--)` at column 0,
/// case-sensitive (real agent: `cl-p-upper-div`; a block opens on `<DIV>`).
pub(super) fn html_interrupts(line: &str) -> bool {
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
pub(super) fn html_block_end(
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

//! The text rules of Claude Code's memory loader (SPEC 10.6.5-7):
//! frontmatter removed, top-level HTML comment blocks removed, `@imports`
//! found. Claude Code reads the blocks with its `marked` lexer (`gfm`
//! off); this is the part of that block grammar the three rules depend on.
//!
//! `frontmatter` reads rule 5's YAML head, `blocks` (with `html`) cuts a
//! text into `marked`'s top-level blocks, `inline` finds the `@` tokens in
//! a block's text runs.

mod blocks;
mod frontmatter;
mod html;
mod inline;

use std::collections::HashSet;

use crate::discovery::js_trim;

use blocks::{Kind, blocks, list_items, quote_content};
use inline::{definitions, inline, tokens_in_run};

pub(crate) use frontmatter::frontmatter;

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
pub(super) const MAX_NESTING: usize = 64;

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

#[cfg(test)]
mod tests;

//! Process-specific values in prompt text (SPEC 8): absolute paths and URLs
//! with an explicit port or a loopback host, found in one linear pass.

use std::net::{Ipv4Addr, Ipv6Addr};

use super::ValueKind;

/// A process-specific value found in a text (byte range).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Found {
    pub start: usize,
    pub end: usize,
    pub kind: ValueKind,
    pub explicit_port: bool,
    pub loopback: bool,
}

/// Characters that end a path or URL token.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '"' | '\''
                | '`'
                | '<'
                | '>'
                | '('
                | ')'
                | '['
                | ']'
                | '{'
                | '}'
                | ','
                | ';'
                | '|'
                | '“'
                | '”'
                | '‘'
                | '’'
                | '「'
                | '」'
                | '（'
                | '）'
                | '，'
                | '。'
                | '、'
                | '；'
                | '：'
        )
}

/// Characters after which a path may start.
fn opens_path(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '"' | '\'' | '`' | '(' | '[' | '{' | '=' | ':' | '“' | '‘' | '「' | '（' | '：'
        )
}

/// The end of the token starting at `start`: the first delimiter (or `:`,
/// which separates paths in lists such as `PATH`), then sentence punctuation
/// trimmed off the end.
fn token_end(text: &str, start: usize, colon_ends: bool) -> usize {
    let end = text[start..]
        .find(|c| is_delimiter(c) || (colon_ends && c == ':'))
        .map_or(text.len(), |i| start + i);
    start
        + text[start..end]
            .trim_end_matches(['.', ':', '!', '?'])
            .len()
}

fn is_loopback(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return inner.parse::<Ipv6Addr>().is_ok_and(|a| {
            a.is_loopback() || a.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        });
    }
    host.parse::<Ipv4Addr>().is_ok_and(|a| a.is_loopback())
}

/// Absolute paths and URLs with an explicit port or a loopback host, in
/// text order. A path starts with `/` (or a drive such as `C:\`) after a
/// space, quote or bracket and has at least two named segments, so slash
/// commands (`/help`) and `and/or` are not paths; `file:` URLs count as
/// paths; other URLs count when their port is explicit or their host is
/// loopback, and their path part is never taken for a file path.
pub(super) fn find_values(text: &str) -> Vec<Found> {
    let mut found = Vec::new();
    let urls = find_urls(text, &mut found);
    find_paths(text, &urls, &mut found);
    found.sort_by_key(|f| f.start);
    found
}

/// The URLs of `text` as byte ranges in text order; the ones that count as
/// values are added to `found`.
fn find_urls(text: &str, found: &mut Vec<Found>) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut urls: Vec<(usize, usize)> = Vec::new();
    let mut from = 0;
    // Every step below moves forward: the scheme scan stops at the previous
    // URL's end, and the path scan walks the URL list with one cursor, so
    // the search is linear in the text (a prompt of 16,000 URLs included).
    let mut last_end = 0;
    while let Some(k) = text[from..].find("://") {
        let sep = from + k;
        from = sep + 3;
        let mut start = sep;
        while start > last_end
            && (bytes[start - 1].is_ascii_alphanumeric()
                || matches!(bytes[start - 1], b'+' | b'-' | b'.'))
        {
            start -= 1;
        }
        while start < sep && !bytes[start].is_ascii_alphabetic() {
            start += 1;
        }
        if start == sep {
            continue;
        }
        let scheme = &text[start..sep];
        let auth_start = sep + 3;
        // A bracketed IPv6 host holds characters that end other tokens.
        let host_end = match text[auth_start..].strip_prefix('[') {
            Some(rest) => match rest.find(']') {
                Some(i) if !rest[..i].contains(char::is_whitespace) => auth_start + i + 2,
                _ => auth_start,
            },
            None => auth_start,
        };
        let end = token_end(text, host_end, false).max(host_end);
        let auth_end = text[host_end..end]
            .find(['/', '?', '#'])
            .map_or(end, |i| host_end + i);
        urls.push((start, end));
        last_end = end;
        from = from.max(end);
        let authority = &text[auth_start..auth_end];
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let (host, port) = match host_port.rfind(']') {
            Some(b) if host_port.starts_with('[') => {
                let (h, rest) = host_port.split_at(b + 1);
                (h, rest.strip_prefix(':').unwrap_or(""))
            }
            _ => host_port.rsplit_once(':').unwrap_or((host_port, "")),
        };
        let explicit_port = !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit());
        let loopback = is_loopback(host);
        if scheme.eq_ignore_ascii_case("file") {
            if text[auth_end..end].len() > 1 {
                found.push(Found {
                    start,
                    end,
                    kind: ValueKind::AbsolutePath,
                    explicit_port: false,
                    loopback: false,
                });
            }
        } else if explicit_port || loopback {
            found.push(Found {
                start,
                end,
                kind: ValueKind::Url,
                explicit_port,
                loopback,
            });
        }
    }
    urls
}

/// Absolute paths outside the URLs of `urls` (in text order, not
/// overlapping), added to `found`. A path starts only at a `/` or at a
/// letter before `:\\` or `:/`, so only those places are looked at (found
/// with one `memchr2` pass over the text), in text order.
fn find_paths(text: &str, urls: &[(usize, usize)], found: &mut Vec<Found>) {
    let bytes = text.as_bytes();
    let mut next_url = urls.iter().peekable();
    let mut skip_to = 0;
    for hit in memchr::memchr2_iter(b'/', b':', bytes) {
        // A drive path starts at the ASCII letter before its `:`.
        let (i, drive) = if bytes[hit] == b'/' {
            (hit, false)
        } else if hit > 0 && bytes[hit - 1].is_ascii_alphabetic() {
            (hit - 1, true)
        } else {
            continue;
        };
        while next_url.peek().is_some_and(|&&(_, e)| e <= i) {
            next_url.next();
        }
        let in_url = next_url.peek().is_some_and(|&&(s, _)| s <= i);
        if i < skip_to || in_url {
            continue;
        }
        let boundary = text[..i].chars().next_back().is_none_or(opens_path);
        if !boundary {
            continue;
        }
        if let Some(end) = path_at(text, i, drive) {
            found.push(path(i, end));
            skip_to = end;
        }
    }
}

/// The end of the absolute path that starts at `text[i]` (a `/`, or with
/// `drive` the letter of `C:\` or `C:/`), when one does: it names at least
/// two components (a drive path one).
fn path_at(text: &str, i: usize, drive: bool) -> Option<usize> {
    let rest = &text[i..];
    let body = if !drive && !rest.starts_with("//") {
        i + 1
    } else if drive
        && matches!(rest.as_bytes().get(1..3), Some([b':', b'\\' | b'/']))
        && !rest[1..].starts_with("://")
    {
        i + 3
    } else {
        return None;
    };
    let end = token_end(text, body, true);
    let named = text[body..end.max(body)]
        .split(['/', '\\'])
        .filter(|s| !s.is_empty())
        .count();
    (end > body && named >= if drive { 1 } else { 2 }).then_some(end)
}

fn path(start: usize, end: usize) -> Found {
    Found {
        start,
        end,
        kind: ValueKind::AbsolutePath,
        explicit_port: false,
        loopback: false,
    }
}

/// A paragraph's first words (at most 8 words and 80 characters, `…` when cut).
pub(super) fn first_words(paragraph: &str) -> String {
    const WORDS: usize = 8;
    const CHARS: usize = 80;
    // At most one word more than shown: enough to know whether it was cut.
    let words: Vec<&str> = paragraph.split_whitespace().take(WORDS + 1).collect();
    let mut text = words[..words.len().min(WORDS)].join(" ");
    let mut cut = words.len() > WORDS;
    if let Some((end, _)) = text.char_indices().nth(CHARS) {
        text.truncate(end);
        text.truncate(text.trim_end().len());
        cut = true;
    }
    if cut {
        text.push('…');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The char-by-char path search [`find_paths`] replaced: every
    /// character is a possible start.
    fn find_paths_by_chars(text: &str, urls: &[(usize, usize)], found: &mut Vec<Found>) {
        let mut next_url = urls.iter().peekable();
        let mut skip_to = 0;
        let mut prev: Option<char> = None;
        for (i, c) in text.char_indices() {
            let before = prev.replace(c);
            while next_url.peek().is_some_and(|&&(_, e)| e <= i) {
                next_url.next();
            }
            let in_url = next_url.peek().is_some_and(|&&(s, _)| s <= i);
            if i < skip_to || in_url || !before.is_none_or(opens_path) {
                continue;
            }
            let drive = match c {
                '/' => false,
                c if c.is_ascii_alphabetic() => true,
                _ => continue,
            };
            if let Some(end) = path_at(text, i, drive) {
                found.push(path(i, end));
                skip_to = end;
            }
        }
    }

    type Search = fn(&str, &[(usize, usize)], &mut Vec<Found>);

    fn paths(text: &str, search: Search) -> Vec<(usize, usize)> {
        let urls = find_urls(text, &mut Vec::new());
        let mut found = Vec::new();
        search(text, &urls, &mut found);
        found.iter().map(|f| (f.start, f.end)).collect()
    }

    #[test]
    fn paths_are_found_where_they_start() {
        let text =
            "see /usr/local/bin, C:\\Users\\me and d:/x/y; not a/b/c nor //net/x or https://h/p/q";
        assert_eq!(paths(text, find_paths), paths(text, find_paths_by_chars));
        assert_eq!(paths(text, find_paths).len(), 3);
    }

    proptest! {
        /// Looking only where a path can start finds what looking at every
        /// character found.
        #[test]
        fn paths_found_at_their_starts_are_the_paths_found_everywhere(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "/", "//", ":", ":/", ":\\", "C", "d", "x", "é", "“", "：", " ", "\n", "(", "'", "\\",
                "://", "http", "https://h", ":8080", "usr", "a/b", ".", "-", "]", "[", "@",
            ]), 0..40)
        ) {
            let text: String = parts.concat();
            prop_assert_eq!(paths(&text, find_paths), paths(&text, find_paths_by_chars));
        }
    }
}

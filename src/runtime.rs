//! Runtime context and system-prompt stability (SPEC 8, seed 001).
//!
//! A system prompt that changes between resumes rewrites the conversation
//! head; on routes without in-history prompt updates Claude then rejects the
//! resumed session (400, signature bound to a different conversation). The
//! harness therefore keeps process-specific values (the checkout path, the
//! Web GUI URL) in runtime-context snapshots, and keeps earlier-format
//! paragraphs of old sessions verbatim. This module
//! 1. lists the logged system prompt versions and, for every later version,
//!    the paragraphs its head rewrite added and removed;
//! 2. finds process-specific values (absolute paths, URLs with an explicit
//!    port or a loopback host) inside prompt paragraphs;
//! 3. folds the nonempty system messages into the earlier-format state
//!    `{source, web}`;
//! 4. reads the latest runtime-context snapshot, and computes the snapshot
//!    `diff --runtime` would append.
//!
//! It returns data and never prints.

use std::collections::HashSet;
use std::net::{Ipv4Addr, Ipv6Addr};

use anyhow::{Result, bail};
use serde::Serialize;

use crate::discovery::sha1_hex;
use crate::log::{Log, PromptOrigin, Section, Snapshot};
use crate::output::plural;

pub const PLUGIN: &str = "@deepseek-ai/dsh-system-prompt";
pub const SNAPSHOT_INTRO: &str =
    "Current runtime context. This snapshot supersedes earlier runtime-context snapshots.";

/// The earlier `harness:source` template's fixed start (seed 001).
pub const LEGACY_SOURCE_START: &str = "The DeepSeek Harness implementation checkout is at ";
/// The earlier `app:web-surface` template's fixed start (seed 001).
pub const LEGACY_WEB_START: &str =
    "You are interacting with the user through the DeepSeek Harness Web GUI at ";
/// The runtime-context section that names the checkout, and its text form.
pub const SOURCE_SECTION: &str = "harness:source";
const CHECKOUT_START: &str = "Current DeepSeek Harness implementation checkout: \"";
/// The runtime-context section that names the Web GUI URL, and its text form.
pub const WEB_SECTION: &str = "app:web-surface";
const WEB_URL_START: &str = "Current DeepSeek Harness Web GUI URL: \"";
const QUOTED_END: &str = "\".";

/// A runtime-context snapshot diff would append.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Runtime {
    pub parts: Vec<String>,
    pub source: RuntimeSource,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuntimeSource {
    pub kind: &'static str,
    pub plugin: &'static str,
    pub form: &'static str,
    pub sections: Vec<Section>,
}

/// Parses `NAME=TEXT` values (split at the first `=`; NAME must not be empty).
pub fn parse_values(raw: &[String]) -> Result<Vec<Section>> {
    raw.iter()
        .map(|r| match r.split_once('=') {
            Some((name, text)) if !name.is_empty() => Ok(Section {
                name: name.to_owned(),
                text: text.to_owned(),
            }),
            _ => bail!("--runtime {r:?}: expected NAME=TEXT"),
        })
        .collect()
}

/// The snapshot to append when any given section differs from the latest
/// logged one: all sections, updated ones replaced, new ones appended (a
/// name given twice takes its last value). None when the result equals the
/// latest snapshot.
pub fn snapshot_update(latest: Option<&Snapshot>, values: &[Section]) -> Option<Runtime> {
    let logged: &[Section] = latest.map_or(&[], |s| &s.sections);
    let mut sections = logged.to_vec();
    for v in values {
        match sections.iter_mut().find(|s| s.name == v.name) {
            Some(s) => s.text.clone_from(&v.text),
            None => sections.push(v.clone()),
        }
    }
    if sections == logged {
        return None;
    }
    let text = std::iter::once(SNAPSHOT_INTRO)
        .chain(sections.iter().map(|s| s.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n\n");
    Some(Runtime {
        parts: vec![text],
        source: RuntimeSource {
            kind: "plugin",
            plugin: PLUGIN,
            form: "snapshot",
            sections,
        },
    })
}

/// What `explain --log` reports about system-prompt stability and runtime
/// context (SPEC 8). Presentation-free: `lines()` gives neutral text lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptReport {
    /// The system prompt versions, in log order, consecutive equal ones
    /// collapsed; past a bound only the first ones and the latest are kept.
    pub versions: Vec<PromptVersion>,
    /// Versions counted but not kept (`explain --full` keeps every one).
    pub versions_not_kept: u64,
    /// One per version after the first: the head rewrite it causes.
    pub rewrites: Vec<HeadRewrite>,
    /// Process-specific values in prompt paragraphs, each distinct paragraph
    /// and value once, from the first version that holds it.
    pub process_values: Vec<ProcessValue>,
    /// The earlier-format paragraphs the harness keeps verbatim.
    pub earlier_format: EarlierFormat,
    /// The latest runtime-context snapshot, visible or not.
    pub runtime_context: Option<RuntimeContext>,
    /// How many runtime-context snapshots the log holds.
    pub snapshots: u64,
    /// The texts of the warning lines (head rewrites, process-specific values).
    pub warnings: Vec<String>,
}

/// One system prompt version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptVersion {
    pub seq: Option<u64>,
    pub line: u64,
    /// The event that first carried it.
    pub origin: PromptOrigin,
    pub paragraphs: usize,
    pub bytes: usize,
    /// Lowercase hex SHA-1 of the text.
    pub digest: String,
    /// Its 1-based number among all versions of the log.
    pub number: u64,
}

/// A later system prompt version: the head rewrite a resume would cause.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeadRewrite {
    pub seq: Option<u64>,
    pub line: u64,
    /// The 1-based number of the new version.
    pub version: u64,
    /// The number of the version it is compared with: `version - 1`, or
    /// less where versions between were counted but not kept.
    pub previous: u64,
    /// Paragraphs of the previous version that are gone (their index there).
    pub removed: Vec<Paragraph>,
    /// Paragraphs of the new version that are new (their index there).
    pub added: Vec<Paragraph>,
    /// Whether the removed and added paragraphs differ only in their
    /// process-specific values (the rewrite runtime context avoids).
    pub only_process_values: bool,
    /// When only process-specific values changed: each old and new value.
    pub value_changes: Vec<ValueChange>,
}

/// A paragraph of a version (1-based index).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Paragraph {
    pub index: usize,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueChange {
    pub from: String,
    pub to: String,
}

/// What kind of process-specific value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ValueKind {
    AbsolutePath,
    Url,
}

/// A process-specific value inside a system prompt paragraph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProcessValue {
    /// The first version whose prompt holds the paragraph.
    pub seq: Option<u64>,
    pub line: u64,
    /// The paragraph's 1-based index in that version.
    pub paragraph: usize,
    /// The paragraph's first words.
    pub paragraph_start: String,
    pub value: String,
    pub kind: ValueKind,
    /// A URL with an explicit port.
    pub explicit_port: bool,
    /// A URL whose host is loopback (localhost, 127.x, [::1]).
    pub loopback: bool,
    /// The earlier template the paragraph matches, if any.
    pub earlier_format: Option<&'static str>,
    /// Whether it is the earlier-format paragraph the session keeps verbatim.
    pub kept_verbatim: bool,
}

/// The seed's earlier-format projection: folding every nonempty system
/// message in order, the paragraphs of that prompt that match an earlier
/// template (no line break), or null.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct EarlierFormat {
    pub source: Option<String>,
    pub web: Option<String>,
    /// The seq of the prompt version the state was taken from (the version
    /// of the last nonempty system message), null when the log has none.
    pub seq: Option<u64>,
}

/// The latest runtime-context snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeContext {
    pub seq: Option<u64>,
    pub line: u64,
    pub sections: Vec<Section>,
    /// From the `harness:source` section.
    pub checkout: Option<String>,
    /// From the `app:web-surface` section.
    pub web_url: Option<String>,
}

/// How a report line should be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Heading,
    Info,
    Warning,
}

/// One line of the report's text form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub level: Level,
    pub text: String,
}

/// Analyses the system prompt versions and runtime snapshots of a log.
pub fn analyze(log: &Log) -> PromptReport {
    let split: Vec<Vec<&str>> = log.system.iter().map(|v| paragraphs(&v.text)).collect();
    let versions = log
        .system
        .iter()
        .zip(&split)
        .map(|(v, paras)| PromptVersion {
            seq: v.seq,
            line: v.line,
            origin: v.origin,
            paragraphs: paras.len(),
            bytes: v.text.len(),
            digest: sha1_hex(v.text.as_bytes()),
            number: v.number,
        })
        .collect();
    let rewrites = log
        .system
        .iter()
        .zip(&split)
        .enumerate()
        .skip(1)
        .map(|(k, (v, paras))| {
            let mut r = rewrite(v.seq, v.line, v.number, &split[k - 1], paras);
            r.previous = log.system[k - 1].number;
            r
        })
        .collect();
    let earlier_format = fold_earlier_format(log);
    let mut process_values = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for (v, paras) in log.system.iter().zip(&split) {
        for (i, para) in paras.iter().enumerate() {
            if !seen.insert(para) {
                continue;
            }
            let template = earlier_template(para);
            let kept = template.is_some()
                && [&earlier_format.source, &earlier_format.web]
                    .iter()
                    .any(|p| p.as_deref() == Some(para));
            let mut values_here: HashSet<&str> = HashSet::new();
            let start = first_words(para);
            for found in find_values(para) {
                let value = &para[found.start..found.end];
                if !values_here.insert(value) {
                    continue;
                }
                process_values.push(ProcessValue {
                    seq: v.seq,
                    line: v.line,
                    paragraph: i + 1,
                    paragraph_start: start.clone(),
                    value: value.to_owned(),
                    kind: found.kind,
                    explicit_port: found.explicit_port,
                    loopback: found.loopback,
                    earlier_format: template,
                    kept_verbatim: kept,
                });
            }
        }
    }
    let runtime_context = log.latest_snapshot.as_ref().map(|s| RuntimeContext {
        seq: s.seq,
        line: s.line,
        sections: s.sections.clone(),
        checkout: section_value(&s.sections, SOURCE_SECTION, CHECKOUT_START),
        web_url: section_value(&s.sections, WEB_SECTION, WEB_URL_START),
    });
    let mut report = PromptReport {
        versions_not_kept: log.system_not_kept,
        versions,
        rewrites,
        process_values,
        earlier_format,
        runtime_context,
        snapshots: log.snapshots,
        warnings: Vec::new(),
    };
    report.warnings = report
        .lines()
        .into_iter()
        .filter(|l| l.level == Level::Warning)
        .map(|l| l.text.trim_start().to_owned())
        .collect();
    report
}

/// Splits a prompt into paragraphs: maximal runs of lines (split at `\n`)
/// that are not blank (empty or whitespace only), as slices of the text.
pub fn paragraphs(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    let mut end = 0;
    let mut pos = 0;
    for line in text.split('\n') {
        let (start, stop) = (pos, pos + line.len());
        pos = stop + 1;
        if line.trim().is_empty() {
            if let Some(s) = open.take() {
                out.push(&text[s..end]);
            }
        } else {
            open.get_or_insert(start);
            end = stop;
        }
    }
    if let Some(s) = open {
        out.push(&text[s..end]);
    }
    out
}

/// The paragraph-level difference of two versions: (removed, added), each
/// with 1-based indices in its own version, from a longest common
/// subsequence (a moved paragraph shows as removed and added).
fn paragraph_diff(old: &[&str], new: &[&str]) -> (Vec<Paragraph>, Vec<Paragraph>) {
    const MAX_CELLS: usize = 1 << 22;
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let a = &old[prefix..old.len() - suffix];
    let b = &new[prefix..new.len() - suffix];
    let para = |offset: usize, text: &str| Paragraph {
        index: prefix + offset + 1,
        text: text.to_owned(),
    };
    let (mut removed, mut added) = (Vec::new(), Vec::new());
    if (a.len() + 1).saturating_mul(b.len() + 1) > MAX_CELLS {
        removed.extend(a.iter().enumerate().map(|(i, t)| para(i, t)));
        added.extend(b.iter().enumerate().map(|(j, t)| para(j, t)));
        return (removed, added);
    }
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let w = b.len() + 1;
    let mut lcs = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i * w + j] = if a[i] == b[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if j == b.len() || (i < a.len() && lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
            removed.push(para(i, a[i]));
            i += 1;
        } else {
            added.push(para(j, b[j]));
            j += 1;
        }
    }
    (removed, added)
}

fn rewrite(seq: Option<u64>, line: u64, version: u64, old: &[&str], new: &[&str]) -> HeadRewrite {
    let (removed, added) = paragraph_diff(old, new);
    let masked = |ps: &[Paragraph]| {
        let mut m: Vec<(String, Vec<String>)> = ps
            .iter()
            .map(|p| {
                let found = find_values(&p.text);
                let mut text = String::with_capacity(p.text.len());
                let mut at = 0;
                for f in &found {
                    text.push_str(&p.text[at..f.start]);
                    text.push('\0');
                    at = f.end;
                }
                text.push_str(&p.text[at..]);
                let values = found.iter().map(|f| p.text[f.start..f.end].to_owned());
                (text, values.collect())
            })
            .collect();
        m.sort();
        m
    };
    let (old_m, new_m) = (masked(&removed), masked(&added));
    let only_process_values = !removed.is_empty()
        && old_m.len() == new_m.len()
        && old_m.iter().zip(&new_m).all(|(a, b)| a.0 == b.0);
    let mut value_changes: Vec<ValueChange> = Vec::new();
    if only_process_values {
        for ((_, from), (_, to)) in old_m.iter().zip(&new_m) {
            for (f, t) in from.iter().zip(to) {
                let change = ValueChange {
                    from: f.clone(),
                    to: t.clone(),
                };
                if f != t && !value_changes.contains(&change) {
                    value_changes.push(change);
                }
            }
        }
    }
    HeadRewrite {
        seq,
        line,
        version,
        previous: version.saturating_sub(1),
        removed,
        added,
        only_process_values,
        value_changes,
    }
}

/// Which earlier template a paragraph matches: it starts with the
/// template's fixed start and holds no line break (SPEC 8).
fn earlier_template(paragraph: &str) -> Option<&'static str> {
    if paragraph.contains(['\n', '\r']) {
        return None;
    }
    if paragraph.starts_with(LEGACY_SOURCE_START) {
        Some(SOURCE_SECTION)
    } else if paragraph.starts_with(LEGACY_WEB_START) {
        Some(WEB_SECTION)
    } else {
        None
    }
}

/// The seed's `harnessDevLegacyPrompt` fold: every nonempty system message,
/// in order, sets the state to the paragraphs of its prompt that match an
/// earlier template (the first of each), or null. Consecutive equal versions
/// give the same state, so the fold runs over the versions a system message
/// carried.
fn fold_earlier_format(log: &Log) -> EarlierFormat {
    let mut state = EarlierFormat::default();
    for v in log
        .system
        .iter()
        .filter(|v| v.system_message && !v.text.is_empty())
    {
        let paras = paragraphs(&v.text);
        let find = |name| {
            paras
                .iter()
                .find(|p| earlier_template(p) == Some(name))
                .map(|p| (*p).to_owned())
        };
        state = EarlierFormat {
            source: find(SOURCE_SECTION),
            web: find(WEB_SECTION),
            seq: v.seq,
        };
    }
    state
}

/// The quoted value of the first line of section `name` that reads
/// `<start><value>".` (surrounding whitespace ignored).
fn section_value(sections: &[Section], name: &str, start: &str) -> Option<String> {
    sections
        .iter()
        .filter(|s| s.name == name)
        .flat_map(|s| s.text.lines())
        .find_map(|l| l.trim().strip_prefix(start)?.strip_suffix(QUOTED_END))
        .map(str::to_owned)
}

/// A process-specific value found in a text (byte range).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Found {
    start: usize,
    end: usize,
    kind: ValueKind,
    explicit_port: bool,
    loopback: bool,
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
fn find_values(text: &str) -> Vec<Found> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
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
    // `urls` is in text order and its ranges do not overlap.
    let mut next_url = urls.iter().peekable();
    let mut skip_to = 0;
    let mut prev: Option<char> = None;
    for (i, c) in text.char_indices() {
        let before = prev.replace(c);
        while next_url.peek().is_some_and(|&&(_, e)| e <= i) {
            next_url.next();
        }
        let in_url = next_url.peek().is_some_and(|&&(s, _)| s <= i);
        if i < skip_to || in_url {
            continue;
        }
        let boundary = before.is_none_or(opens_path);
        if !boundary {
            continue;
        }
        let rest = &text[i..];
        let body = if c == '/' && !rest.starts_with("//") {
            Some(i + 1)
        } else if c.is_ascii_alphabetic()
            && matches!(rest.as_bytes().get(1..3), Some([b':', b'\\' | b'/']))
            && !rest[1..].starts_with("://")
        {
            Some(i + 3)
        } else {
            None
        };
        let Some(body) = body else {
            continue;
        };
        let end = token_end(text, body, true);
        if end <= body {
            continue;
        }
        let named = text[body..end]
            .split(['/', '\\'])
            .filter(|s| !s.is_empty())
            .count();
        let needed = if c == '/' { 2 } else { 1 };
        if named >= needed {
            found.push(Found {
                start: i,
                end,
                kind: ValueKind::AbsolutePath,
                explicit_port: false,
                loopback: false,
            });
            skip_to = end;
        }
    }
    found.sort_by_key(|f| f.start);
    found
}

/// A paragraph's first words (at most 8 words and 80 characters, `…` when cut).
fn first_words(paragraph: &str) -> String {
    const WORDS: usize = 8;
    const CHARS: usize = 80;
    // At most one word more than shown: enough to know whether it was cut.
    let words: Vec<&str> = paragraph.split_whitespace().take(WORDS + 1).collect();
    let mut text = words[..words.len().min(WORDS)].join(" ");
    let mut cut = words.len() > WORDS;
    if text.chars().count() > CHARS {
        text = text
            .chars()
            .take(CHARS)
            .collect::<String>()
            .trim_end()
            .to_owned();
        cut = true;
    }
    if cut {
        text.push('…');
    }
    text
}

/// `seq 7 (line 9)`, or `line 9 (no seq)`.
fn at(seq: Option<u64>, line: u64) -> String {
    match seq {
        Some(s) => format!("seq {s} (line {line})"),
        None => format!("line {line} (no seq)"),
    }
}

impl ProcessValue {
    fn description(&self) -> &'static str {
        match (self.kind, self.explicit_port, self.loopback) {
            (ValueKind::AbsolutePath, _, _) => "an absolute path",
            (ValueKind::Url, true, true) => "a loopback URL with an explicit port",
            (ValueKind::Url, true, false) => "a URL with an explicit port",
            (ValueKind::Url, false, _) => "a loopback URL",
        }
    }
}

impl PromptReport {
    /// The report as text lines (names and snippets not yet escaped).
    /// Headings start at the margin, items are indented by two spaces and
    /// their details by four.
    pub fn lines(&self) -> Vec<Line> {
        let mut out = Vec::new();
        let mut push = |level, text: String| out.push(Line { level, text });
        push(Level::Heading, "System prompt".to_owned());
        if self.versions.is_empty() {
            push(
                Level::Info,
                "  no system prompt in the log (no system/message, no request/header with a string header.system)".to_owned(),
            );
        } else {
            let total =
                self.versions.len() + usize::try_from(self.versions_not_kept).unwrap_or(usize::MAX);
            push(
                Level::Info,
                format!(
                    "  {}, {}",
                    plural(total, "version", "versions"),
                    plural(total - 1, "head rewrite", "head rewrites")
                ),
            );
        }
        for (k, v) in self.versions.iter().enumerate() {
            if let Some(prev) = k.checked_sub(1).map(|p| &self.versions[p]) {
                if v.number > prev.number + 1 {
                    push(
                        Level::Info,
                        format!(
                            "  … {} between version {} and version {} not kept (explain --full keeps every one)",
                            plural(
                                usize::try_from(v.number - prev.number - 1).unwrap_or(usize::MAX),
                                "version",
                                "versions"
                            ),
                            prev.number,
                            v.number
                        ),
                    );
                }
            }
            push(
                Level::Info,
                format!(
                    "  version {}: {}, {}, {}, {}, sha1 {}",
                    v.number,
                    at(v.seq, v.line),
                    match v.origin {
                        PromptOrigin::SystemMessage => "system/message",
                        PromptOrigin::RequestHeader => "request/header",
                    },
                    plural(v.paragraphs, "paragraph", "paragraphs"),
                    plural(v.bytes, "byte", "bytes"),
                    v.digest
                ),
            );
        }
        for r in &self.rewrites {
            push(
                Level::Warning,
                format!(
                    "  head rewrite at {}: version {} differs from version {}; on routes without in-history prompt updates a resumed Claude session is rejected (400, signature bound to a different conversation)",
                    at(r.seq, r.line),
                    r.version,
                    r.previous
                ),
            );
            if r.removed.is_empty() && r.added.is_empty() {
                push(
                    Level::Info,
                    "    same paragraphs; only the blank lines between them changed".to_owned(),
                );
            }
            if r.only_process_values {
                let changes: Vec<String> = r
                    .value_changes
                    .iter()
                    .map(|c| format!("{} -> {}", c.from, c.to))
                    .collect();
                push(
                    Level::Info,
                    format!(
                        "    only process-specific values changed: {}",
                        changes.join(", ")
                    ),
                );
            }
            for p in &r.removed {
                push(
                    Level::Info,
                    format!("    - removed paragraph {}: {}", p.index, p.text),
                );
            }
            for p in &r.added {
                push(
                    Level::Info,
                    format!("    + added paragraph {}: {}", p.index, p.text),
                );
            }
        }
        if !self.process_values.is_empty() {
            push(
                Level::Heading,
                "Process-specific values in the system prompt".to_owned(),
            );
        }
        for v in &self.process_values {
            let mut text = format!(
                "  paragraph {} (\"{}\") of the prompt at {} holds {} {}: such values belong in runtime context",
                v.paragraph,
                v.paragraph_start,
                at(v.seq, v.line),
                v.description(),
                v.value
            );
            match (v.earlier_format, v.kept_verbatim) {
                (Some(name), true) => text.push_str(&format!(
                    " (the earlier-format {name} paragraph this session keeps verbatim)"
                )),
                (Some(name), false) => {
                    text.push_str(&format!(" (it matches the earlier {name} template)"));
                }
                (None, _) => {}
            }
            push(Level::Warning, text);
        }
        push(
            Level::Heading,
            "Earlier-format paragraphs (kept verbatim)".to_owned(),
        );
        let e = &self.earlier_format;
        let from = match e.seq {
            Some(s) => format!(" (from the prompt at seq {s})"),
            None => String::new(),
        };
        for (name, para) in [(SOURCE_SECTION, &e.source), (WEB_SECTION, &e.web)] {
            let text = match para {
                Some(p) => format!("  {name}{from}: {p}"),
                None => format!("  {name}: none"),
            };
            push(Level::Info, text);
        }
        push(Level::Heading, "Runtime context".to_owned());
        match &self.runtime_context {
            None => push(
                Level::Info,
                "  no runtime-context snapshot in the log".to_owned(),
            ),
            Some(rc) => {
                push(
                    Level::Info,
                    format!(
                        "  latest snapshot at {}, the last of {}, {}",
                        at(rc.seq, rc.line),
                        self.snapshots,
                        plural(rc.sections.len(), "section", "sections")
                    ),
                );
                for s in &rc.sections {
                    push(Level::Info, format!("  {}: {}", s.name, s.text));
                }
                let has = |name| rc.sections.iter().any(|s| s.name == name);
                for (name, value, what, form) in [
                    (SOURCE_SECTION, &rc.checkout, "checkout", CHECKOUT_START),
                    (WEB_SECTION, &rc.web_url, "Web GUI URL", WEB_URL_START),
                ] {
                    match value {
                        Some(v) => push(Level::Info, format!("  current {what}: {v}")),
                        None if has(name) => push(
                            Level::Info,
                            format!(
                                "  {name} names no {what} in the form {form}<value>{QUOTED_END}"
                            ),
                        ),
                        None => {}
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::{ReadOptions, read_from};
    use pretty_assertions::assert_eq;
    use serde_json::{Value, json};

    fn log_of(events: &[Value]) -> Log {
        let mut text = json!({"type":"session","cwd":"/w"}).to_string();
        for e in events {
            text.push('\n');
            text.push_str(&e.to_string());
        }
        text.push('\n');
        read_from(text.as_bytes(), "t.jsonl".into(), ReadOptions::default()).unwrap()
    }

    fn system(seq: u64, text: &str) -> Value {
        json!({"type":"system/message","seq":seq,"data":{"content":[{"type":"text","text":text}]}})
    }

    fn header(seq: u64, text: &str) -> Value {
        json!({"type":"request/header","seq":seq,"data":{"header":{"system":text,"model":"m"}}})
    }

    fn snapshot(seq: u64, sections: &[(&str, &str)]) -> Value {
        let sections: Vec<Value> = sections
            .iter()
            .map(|(name, text)| json!({"name":name,"text":text}))
            .collect();
        json!({"type":"user/message","seq":seq,"data":{
            "content":[{"type":"text","text":"runtime"}],
            "source":{"kind":"plugin","plugin":PLUGIN,"form":"snapshot","sections":sections}}})
    }

    fn user(seq: u64, text: &str) -> Value {
        json!({"type":"user/message","seq":seq,"data":{"content":[{"type":"text","text":text}]}})
    }

    fn section(name: &str, text: &str) -> Section {
        Section {
            name: name.to_owned(),
            text: text.to_owned(),
        }
    }

    fn para(index: usize, text: &str) -> Paragraph {
        Paragraph {
            index,
            text: text.to_owned(),
        }
    }

    fn line(level: Level, text: &str) -> Line {
        Line {
            level,
            text: text.to_owned(),
        }
    }

    fn web(port: u16) -> String {
        format!("Current DeepSeek Harness Web GUI URL: \"http://127.0.0.1:{port}\".")
    }

    const CHECKOUT: &str = "Current DeepSeek Harness implementation checkout: \"/home/u/dsh\".";
    const INTRO: &str = "You are dsh, a coding agent.";
    const BRIEF: &str = "Keep answers short.";

    fn gui(port: u16) -> String {
        format!("The Web GUI of this session is http://127.0.0.1:{port}; open it when asked.")
    }

    fn value(seq: u64, line: u64, paragraph: usize, start: &str, value: &str) -> ProcessValue {
        ProcessValue {
            seq: Some(seq),
            line,
            paragraph,
            paragraph_start: start.to_owned(),
            value: value.to_owned(),
            kind: ValueKind::Url,
            explicit_port: true,
            loopback: true,
            earlier_format: None,
            kept_verbatim: false,
        }
    }

    /// A prompt that embeds the Web GUI URL changes with every port: one head
    /// rewrite whose only difference is the port, and a warning per value.
    #[test]
    fn prompt_changing_only_by_port_is_a_head_rewrite_of_process_values() {
        let v1 = format!("{INTRO}\n\n{}\n\n{BRIEF}", gui(41234));
        let v2 = format!("{INTRO}\n\n{}\n\n{BRIEF}", gui(41235));
        let log = log_of(&[
            system(0, &v1),
            user(1, "hi"),
            header(2, &v1),
            header(5, &v2),
            system(5, &v2),
        ]);
        let report = analyze(&log);
        let start = "The Web GUI of this session is http://127.0.0.1:41234;…";
        let start2 = "The Web GUI of this session is http://127.0.0.1:41235;…";
        let w1 = format!(
            "paragraph 2 (\"{start}\") of the prompt at seq 0 (line 2) holds a loopback URL with an explicit port http://127.0.0.1:41234: such values belong in runtime context"
        );
        let w2 = format!(
            "paragraph 2 (\"{start2}\") of the prompt at seq 5 (line 5) holds a loopback URL with an explicit port http://127.0.0.1:41235: such values belong in runtime context"
        );
        let rewrite_warning = "head rewrite at seq 5 (line 5): version 2 differs from version 1; on routes without in-history prompt updates a resumed Claude session is rejected (400, signature bound to a different conversation)";
        assert_eq!(
            report,
            PromptReport {
                versions_not_kept: 0,
                versions: vec![
                    PromptVersion {
                        seq: Some(0),
                        line: 2,
                        origin: PromptOrigin::SystemMessage,
                        paragraphs: 3,
                        bytes: v1.len(),
                        digest: sha1_hex(v1.as_bytes()),
                        number: 1,
                    },
                    PromptVersion {
                        seq: Some(5),
                        line: 5,
                        origin: PromptOrigin::RequestHeader,
                        paragraphs: 3,
                        bytes: v2.len(),
                        digest: sha1_hex(v2.as_bytes()),
                        number: 2,
                    },
                ],
                rewrites: vec![HeadRewrite {
                    seq: Some(5),
                    line: 5,
                    version: 2,
                    previous: 1,
                    removed: vec![para(2, &gui(41234))],
                    added: vec![para(2, &gui(41235))],
                    only_process_values: true,
                    value_changes: vec![ValueChange {
                        from: "http://127.0.0.1:41234".to_owned(),
                        to: "http://127.0.0.1:41235".to_owned(),
                    }],
                }],
                process_values: vec![
                    value(0, 2, 2, start, "http://127.0.0.1:41234"),
                    value(5, 5, 2, start2, "http://127.0.0.1:41235"),
                ],
                earlier_format: EarlierFormat {
                    source: None,
                    web: None,
                    seq: Some(5),
                },
                runtime_context: None,
                snapshots: 0,
                warnings: vec![rewrite_warning.to_owned(), w1.clone(), w2.clone()],
            }
        );
        assert_eq!(
            report.lines(),
            vec![
                line(Level::Heading, "System prompt"),
                line(Level::Info, "  2 versions, 1 head rewrite"),
                line(
                    Level::Info,
                    &format!(
                        "  version 1: seq 0 (line 2), system/message, 3 paragraphs, {} bytes, sha1 {}",
                        v1.len(),
                        sha1_hex(v1.as_bytes())
                    )
                ),
                line(
                    Level::Info,
                    &format!(
                        "  version 2: seq 5 (line 5), request/header, 3 paragraphs, {} bytes, sha1 {}",
                        v2.len(),
                        sha1_hex(v2.as_bytes())
                    )
                ),
                line(Level::Warning, &format!("  {rewrite_warning}")),
                line(
                    Level::Info,
                    "    only process-specific values changed: http://127.0.0.1:41234 -> http://127.0.0.1:41235"
                ),
                line(
                    Level::Info,
                    &format!("    - removed paragraph 2: {}", gui(41234))
                ),
                line(
                    Level::Info,
                    &format!("    + added paragraph 2: {}", gui(41235))
                ),
                line(
                    Level::Heading,
                    "Process-specific values in the system prompt"
                ),
                line(Level::Warning, &format!("  {w1}")),
                line(Level::Warning, &format!("  {w2}")),
                line(Level::Heading, "Earlier-format paragraphs (kept verbatim)"),
                line(Level::Info, "  harness:source: none"),
                line(Level::Info, "  app:web-surface: none"),
                line(Level::Heading, "Runtime context"),
                line(Level::Info, "  no runtime-context snapshot in the log"),
            ]
        );
    }

    const LEGACY_SOURCE: &str = "The DeepSeek Harness implementation checkout is at /home/u/dsh. Read it when the user asks about the harness itself.";
    const LEGACY_WEB: &str = "You are interacting with the user through the DeepSeek Harness Web GUI at http://127.0.0.1:41234. Links you print open in it.";

    /// An earlier-format session resumed on another port: the logged prompt
    /// (with its earlier paragraphs) stays byte-identical, an emptied system
    /// message neither counts as a version nor clears the fold, a later
    /// legitimate change keeps the earlier paragraphs, and the current values
    /// come from the latest snapshot.
    #[test]
    fn earlier_format_paragraphs_are_kept_across_a_port_change() {
        let v1 = format!("{INTRO}\n\n{LEGACY_SOURCE}\n\n{LEGACY_WEB}");
        let v2 = format!("{v1}\n\nPlan mode is active.");
        let log = log_of(&[
            json!({"type":"system/message","seq":0,"data":{"content":[
                {"type":"text","text":INTRO},
                {"type":"image","url":"x"},
                {"type":"text","text":format!("{LEGACY_SOURCE}\n\n{LEGACY_WEB}")}]}}),
            header(1, &v1),
            user(2, "hi"),
            snapshot(
                3,
                &[
                    ("harness:source", CHECKOUT),
                    ("app:web-surface", &web(41235)),
                ],
            ),
            header(4, &v1),
            json!({"type":"system/message","seq":5,"data":{"text":""}}),
            header(6, &v1),
            json!({"type":"system/message","seq":7,"data":{"text":v2}}),
        ]);
        let report = analyze(&log);
        let kept = |paragraph, start: &str, v: &str, kind, name| ProcessValue {
            seq: Some(0),
            line: 2,
            paragraph,
            paragraph_start: start.to_owned(),
            value: v.to_owned(),
            kind,
            explicit_port: kind == ValueKind::Url,
            loopback: kind == ValueKind::Url,
            earlier_format: Some(name),
            kept_verbatim: true,
        };
        let expected_values = vec![
            kept(
                2,
                "The DeepSeek Harness implementation checkout is at /home/u/dsh.…",
                "/home/u/dsh",
                ValueKind::AbsolutePath,
                SOURCE_SECTION,
            ),
            kept(
                3,
                "You are interacting with the user through the…",
                "http://127.0.0.1:41234",
                ValueKind::Url,
                WEB_SECTION,
            ),
        ];
        assert_eq!(report.process_values, expected_values);
        assert_eq!(
            report.versions,
            vec![
                PromptVersion {
                    seq: Some(0),
                    line: 2,
                    origin: PromptOrigin::SystemMessage,
                    paragraphs: 3,
                    bytes: v1.len(),
                    digest: sha1_hex(v1.as_bytes()),
                    number: 1,
                },
                PromptVersion {
                    seq: Some(7),
                    line: 9,
                    origin: PromptOrigin::SystemMessage,
                    paragraphs: 4,
                    bytes: v2.len(),
                    digest: sha1_hex(v2.as_bytes()),
                    number: 2,
                },
            ]
        );
        assert_eq!(
            report.rewrites,
            vec![HeadRewrite {
                seq: Some(7),
                line: 9,
                version: 2,
                previous: 1,
                removed: vec![],
                added: vec![para(4, "Plan mode is active.")],
                only_process_values: false,
                value_changes: vec![],
            }]
        );
        assert_eq!(
            report.earlier_format,
            EarlierFormat {
                source: Some(LEGACY_SOURCE.to_owned()),
                web: Some(LEGACY_WEB.to_owned()),
                seq: Some(7),
            }
        );
        assert_eq!(
            report.runtime_context,
            Some(RuntimeContext {
                seq: Some(3),
                line: 5,
                sections: vec![
                    section("harness:source", CHECKOUT),
                    section("app:web-surface", &web(41235)),
                ],
                checkout: Some("/home/u/dsh".to_owned()),
                web_url: Some("http://127.0.0.1:41235".to_owned()),
            })
        );
        let lines = report.lines();
        let tail: Vec<Line> = lines[lines.len() - 9..].to_vec();
        assert_eq!(
            tail,
            vec![
                line(Level::Heading, "Earlier-format paragraphs (kept verbatim)"),
                line(
                    Level::Info,
                    &format!("  harness:source (from the prompt at seq 7): {LEGACY_SOURCE}")
                ),
                line(
                    Level::Info,
                    &format!("  app:web-surface (from the prompt at seq 7): {LEGACY_WEB}")
                ),
                line(Level::Heading, "Runtime context"),
                line(
                    Level::Info,
                    "  latest snapshot at seq 3 (line 5), the last of 1, 2 sections"
                ),
                line(Level::Info, &format!("  harness:source: {CHECKOUT}")),
                line(Level::Info, &format!("  app:web-surface: {}", web(41235))),
                line(Level::Info, "  current checkout: /home/u/dsh"),
                line(Level::Info, "  current Web GUI URL: http://127.0.0.1:41235"),
            ]
        );
        assert_eq!(
            report.warnings[1],
            "paragraph 2 (\"The DeepSeek Harness implementation checkout is at /home/u/dsh.…\") of the prompt at seq 0 (line 2) holds an absolute path /home/u/dsh: such values belong in runtime context (the earlier-format harness:source paragraph this session keeps verbatim)"
        );
    }

    /// The fold takes each nonempty system message's earlier paragraphs or
    /// null: a request header never changes it, a later system message
    /// without them clears it, and text broken across lines never matches.
    #[test]
    fn earlier_format_fold_follows_system_messages_only() {
        let broken = "The DeepSeek Harness implementation checkout is at /opt/dsh.\nRead it.";
        let log = log_of(&[
            system(0, &format!("{INTRO}\n\n{LEGACY_SOURCE}")),
            header(1, INTRO),
        ]);
        assert_eq!(
            analyze(&log).earlier_format,
            EarlierFormat {
                source: Some(LEGACY_SOURCE.to_owned()),
                web: None,
                seq: Some(0),
            }
        );
        let log = log_of(&[
            system(0, &format!("{INTRO}\n\n{LEGACY_SOURCE}\n\n{LEGACY_WEB}")),
            system(3, &format!("{INTRO}\n\n{broken}")),
        ]);
        assert_eq!(
            analyze(&log).earlier_format,
            EarlierFormat {
                source: None,
                web: None,
                seq: Some(3),
            }
        );
        // A header first, then the same text as a system message: one
        // version, and the fold still sees the system message.
        let log = log_of(&[header(0, LEGACY_WEB), system(1, LEGACY_WEB)]);
        let report = analyze(&log);
        assert_eq!(report.versions.len(), 1);
        assert_eq!(report.versions[0].origin, PromptOrigin::RequestHeader);
        assert_eq!(
            report.earlier_format,
            EarlierFormat {
                source: None,
                web: Some(LEGACY_WEB.to_owned()),
                seq: Some(0),
            }
        );
    }

    /// The latest snapshot is the last in log order even when compaction
    /// shadowed it; its values are parsed from the two known sections.
    #[test]
    fn latest_snapshot_after_a_port_change_even_when_shadowed() {
        let log = log_of(&[
            json!({"type":"user/message","seq":0,"surfaceOp":"append","data":{"content":[]}}),
            {
                let mut s = snapshot(1, &[("app:web-surface", &web(41234))]);
                s["surfaceOp"] = json!("append");
                s
            },
            {
                let mut s = snapshot(2, &[("app:web-surface", &web(41235))]);
                s["surfaceOp"] = json!("append");
                s
            },
            json!({"type":"user/message","seq":3,"surfaceOp":{"op":"replace","start":0,"end":2},"data":{"content":[]}}),
        ]);
        let report = analyze(&log);
        assert_eq!(report.snapshots, 2);
        assert_eq!(
            report.runtime_context,
            Some(RuntimeContext {
                seq: Some(2),
                line: 4,
                sections: vec![section("app:web-surface", &web(41235))],
                checkout: None,
                web_url: Some("http://127.0.0.1:41235".to_owned()),
            })
        );
        assert_eq!(
            report.lines(),
            vec![
                line(Level::Heading, "System prompt"),
                line(
                    Level::Info,
                    "  no system prompt in the log (no system/message, no request/header with a string header.system)"
                ),
                line(Level::Heading, "Earlier-format paragraphs (kept verbatim)"),
                line(Level::Info, "  harness:source: none"),
                line(Level::Info, "  app:web-surface: none"),
                line(Level::Heading, "Runtime context"),
                line(
                    Level::Info,
                    "  latest snapshot at seq 2 (line 4), the last of 2, 1 section"
                ),
                line(Level::Info, &format!("  app:web-surface: {}", web(41235))),
                line(Level::Info, "  current Web GUI URL: http://127.0.0.1:41235"),
            ]
        );
        assert_eq!(report.warnings, Vec::<String>::new());
    }

    /// A section in an unexpected form yields no value and says so.
    #[test]
    fn snapshot_section_in_another_form_names_no_value() {
        let log = log_of(&[snapshot(
            4,
            &[
                ("harness:source", "Checkout: /home/u/dsh"),
                ("x:other", "y"),
            ],
        )]);
        let report = analyze(&log);
        let lines = report.lines();
        assert_eq!(
            lines[lines.len() - 3..].to_vec(),
            vec![
                line(Level::Info, "  harness:source: Checkout: /home/u/dsh"),
                line(Level::Info, "  x:other: y"),
                line(
                    Level::Info,
                    "  harness:source names no checkout in the form Current DeepSeek Harness implementation checkout: \"<value>\"."
                ),
            ]
        );
    }

    #[test]
    fn no_snapshot_and_no_prompt_is_an_empty_report() {
        let log = log_of(&[user(0, "hi")]);
        let report = analyze(&log);
        assert_eq!(
            report,
            PromptReport {
                earlier_format: EarlierFormat::default(),
                ..PromptReport::default()
            }
        );
        assert_eq!(
            serde_json::to_value(&report).unwrap(),
            json!({
                "versions": [],
                "versionsNotKept": 0,
                "rewrites": [],
                "processValues": [],
                "earlierFormat": {"source": null, "web": null, "seq": null},
                "runtimeContext": null,
                "snapshots": 0,
                "warnings": []
            })
        );
        assert_eq!(
            report.lines().last(),
            Some(&line(
                Level::Info,
                "  no runtime-context snapshot in the log"
            ))
        );
    }

    /// The JSON form uses the camelCase names explain documents.
    #[test]
    fn report_json_field_names() {
        let v1 = format!("{INTRO}\n\n{}", gui(1));
        let v2 = format!("{INTRO}\n\n{}", gui(2));
        let log = log_of(&[
            system(0, &v1),
            system(1, &v2),
            snapshot(2, &[("app:web-surface", &web(2))]),
        ]);
        let value = serde_json::to_value(analyze(&log)).unwrap();
        assert_eq!(
            value["rewrites"][0],
            json!({
                "seq": 1, "line": 3, "version": 2, "previous": 1,
                "removed": [{"index": 2, "text": gui(1)}],
                "added": [{"index": 2, "text": gui(2)}],
                "onlyProcessValues": true,
                "valueChanges": [{"from": "http://127.0.0.1:1", "to": "http://127.0.0.1:2"}]
            })
        );
        assert_eq!(
            value["versions"][0],
            json!({"seq": 0, "line": 2, "origin": "system/message", "paragraphs": 2,
                   "bytes": v1.len(), "digest": sha1_hex(v1.as_bytes()), "number": 1})
        );
        assert_eq!(
            value["processValues"][0],
            json!({"seq": 0, "line": 2, "paragraph": 2,
                   "paragraphStart": "The Web GUI of this session is http://127.0.0.1:1;…",
                   "value": "http://127.0.0.1:1", "kind": "url", "explicitPort": true,
                   "loopback": true, "earlierFormat": null, "keptVerbatim": false})
        );
        assert_eq!(
            value["runtimeContext"],
            json!({"seq": 2, "line": 4,
                   "sections": [{"name": "app:web-surface", "text": web(2)}],
                   "checkout": null, "webUrl": "http://127.0.0.1:2"})
        );
    }

    fn values(text: &str) -> Vec<(&str, ValueKind, bool, bool)> {
        find_values(text)
            .into_iter()
            .map(|f| (&text[f.start..f.end], f.kind, f.explicit_port, f.loopback))
            .collect()
    }

    #[test]
    fn process_values_are_absolute_paths_and_port_or_loopback_urls() {
        use ValueKind::{AbsolutePath as P, Url as U};
        assert_eq!(
            values("Checkout at /home/u/dsh. Logs in `/tmp/dsh/log`, see (/var/x/y)."),
            vec![
                ("/home/u/dsh", P, false, false),
                ("/tmp/dsh/log", P, false, false),
                ("/var/x/y", P, false, false),
            ]
        );
        assert_eq!(
            values(
                "Open http://127.0.0.1:41234/app?x=1, https://example.com:8443/a and http://localhost/ now."
            ),
            vec![
                ("http://127.0.0.1:41234/app?x=1", U, true, true),
                ("https://example.com:8443/a", U, true, false),
                ("http://localhost/", U, false, true),
            ]
        );
        assert_eq!(
            values("IPv6 http://[::1]:8080/x and http://[::ffff:127.0.0.1]/ and http://127.9.9.9."),
            vec![
                ("http://[::1]:8080/x", U, true, true),
                ("http://[::ffff:127.0.0.1]/", U, false, true),
                ("http://127.9.9.9", U, false, true),
            ]
        );
        assert_eq!(
            values("PATH=/usr/bin:/usr/local/bin; C:\\Users\\u\\dsh and file:///home/u/x.md"),
            vec![
                ("/usr/bin", P, false, false),
                ("/usr/local/bin", P, false, false),
                ("C:\\Users\\u\\dsh", P, false, false),
                ("file:///home/u/x.md", P, false, false),
            ]
        );
        assert_eq!(
            values(
                "Use /help or /compact, and/or </system-reminder>; see https://example.com/a/b, //c/d, ~/x/y, 1/2/3."
            ),
            vec![]
        );
        assert_eq!(
            values("配置：/etc/dsh/config。地址“http://localhost:3000”"),
            vec![
                ("/etc/dsh/config", P, false, false),
                ("http://localhost:3000", U, true, true),
            ]
        );
    }

    #[test]
    fn paragraphs_are_separated_by_blank_lines() {
        assert_eq!(
            paragraphs("\n a\n\n\nb\n  \t\nc\nd\r\n\r\ne\n"),
            vec![" a", "b", "c\nd\r", "e"]
        );
        assert_eq!(paragraphs(""), Vec::<&str>::new());
        assert_eq!(paragraphs("\n\n"), Vec::<&str>::new());
    }

    #[test]
    fn paragraph_diff_shows_moves_as_removed_and_added() {
        assert_eq!(
            paragraph_diff(&["a", "b", "c", "d"], &["a", "c", "x", "b", "d"]),
            (vec![para(2, "b")], vec![para(3, "x"), para(4, "b")])
        );
        assert_eq!(paragraph_diff(&["a", "b"], &["a", "b"]), (vec![], vec![]));
        assert_eq!(
            paragraph_diff(&["a"], &["b", "c"]),
            (vec![para(1, "a")], vec![para(1, "b"), para(2, "c")])
        );
    }

    #[test]
    fn same_paragraphs_with_other_spacing_is_a_rewrite_with_no_paragraph_change() {
        let log = log_of(&[system(0, "a\n\nb"), system(1, "a\n\n\nb")]);
        let report = analyze(&log);
        assert_eq!(
            report.rewrites,
            vec![HeadRewrite {
                seq: Some(1),
                line: 3,
                version: 2,
                previous: 1,
                removed: vec![],
                added: vec![],
                only_process_values: false,
                value_changes: vec![],
            }]
        );
        let lines = report.lines();
        assert_eq!(
            lines[5],
            line(
                Level::Info,
                "    same paragraphs; only the blank lines between them changed"
            )
        );
    }

    /// System prompt text: content texts joined with a blank line, else
    /// data.text; request headers only with a string system; consecutive
    /// equal versions collapse across event kinds.
    #[test]
    fn system_versions_come_from_system_messages_and_string_headers() {
        let log = log_of(&[
            json!({"type":"system/message","seq":0,"data":{"content":[{"text":"a"},{"text":"b"}],"text":"ignored"}}),
            json!({"type":"request/header","seq":1,"data":{"header":{"system":[{"text":"a"}]}}}),
            json!({"type":"request/header","seq":2,"data":{"header":{"system":"a\n\nb"}}}),
            json!({"type":"system/message","seq":3,"data":{"content":[],"text":"c"}}),
            json!({"type":"request/header","seq":4,"data":{"header":{"system":"a\n\nb"}}}),
        ]);
        let got: Vec<(Option<u64>, PromptOrigin, bool, &str)> = log
            .system
            .iter()
            .map(|v| (v.seq, v.origin, v.system_message, v.text.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (Some(0), PromptOrigin::SystemMessage, true, "a\n\nb"),
                (Some(3), PromptOrigin::SystemMessage, true, "c"),
                (Some(4), PromptOrigin::RequestHeader, false, "a\n\nb"),
            ]
        );
    }

    fn logged(sections: &[(&str, &str)]) -> Snapshot {
        Snapshot {
            seq: Some(1),
            line: 2,
            sections: sections.iter().map(|(n, t)| section(n, t)).collect(),
        }
    }

    #[test]
    fn snapshot_update_replaces_appends_and_is_silent_when_unchanged() {
        let latest = logged(&[("harness:source", CHECKOUT), ("app:web-surface", &web(1))]);
        assert_eq!(snapshot_update(Some(&latest), &[]), None);
        assert_eq!(
            snapshot_update(Some(&latest), &[section("app:web-surface", &web(1))]),
            None
        );
        // A name given twice takes its last value; back to the logged one is no change.
        assert_eq!(
            snapshot_update(
                Some(&latest),
                &[
                    section("app:web-surface", &web(2)),
                    section("app:web-surface", &web(1))
                ]
            ),
            None
        );
        let update = snapshot_update(
            Some(&latest),
            &[
                section("x:new", "New."),
                section("app:web-surface", &web(2)),
            ],
        );
        assert_eq!(
            update,
            Some(Runtime {
                parts: vec![format!(
                    "{SNAPSHOT_INTRO}\n\n{CHECKOUT}\n\n{}\n\nNew.",
                    web(2)
                )],
                source: RuntimeSource {
                    kind: "plugin",
                    plugin: PLUGIN,
                    form: "snapshot",
                    sections: vec![
                        section("harness:source", CHECKOUT),
                        section("app:web-surface", &web(2)),
                        section("x:new", "New."),
                    ],
                },
            })
        );
        assert_eq!(
            snapshot_update(None, &[section("app:web-surface", &web(1))]).map(|r| r.parts),
            Some(vec![format!("{SNAPSHOT_INTRO}\n\n{}", web(1))])
        );
    }

    #[test]
    fn runtime_values_parse_at_the_first_equals_sign() {
        assert_eq!(
            parse_values(&["a=b=c".to_owned(), "d=".to_owned()]).unwrap(),
            vec![section("a", "b=c"), section("d", "")]
        );
        assert_eq!(
            parse_values(&["=x".to_owned()]).unwrap_err().to_string(),
            "--runtime \"=x\": expected NAME=TEXT"
        );
        assert_eq!(
            parse_values(&["x".to_owned()]).unwrap_err().to_string(),
            "--runtime \"x\": expected NAME=TEXT"
        );
    }
}

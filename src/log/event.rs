//! What one log event says, read from its raw JSON text (SPEC 5.2, 8).
//!
//! [`extract`] is pure: it reads one line or array element into an owned
//! [`Record`] that the log reader then applies in log order, so lines can be
//! read on several threads. Reading follows `JSON.parse` (issue 13): the
//! last of duplicated keys wins, only objects are objects, numbers are
//! doubles, a lone surrogate is U+FFFD (and reported), and nesting depth is
//! no limit (values are skipped by a scan, not a recursive parse).

use std::borrow::Cow;

use crate::baseline::{Action, Change};
use crate::log::records::{PromptOrigin, Section};
use crate::log::scan::{self, Bad};

/// What the reader needs from a log, which decides what is read.
#[derive(Debug, Clone, Copy)]
pub struct Needs {
    /// System prompt versions (`explain`): read `system/message` and
    /// `request/header` events.
    pub prompts: bool,
    /// Keep every system prompt version (`explain --full`), not only the
    /// first ones and the latest (`log::PROMPT_VERSIONS_KEPT`).
    pub every_prompt_version: bool,
    /// Packed storage rows (`crate::log::packed`): count the events
    /// they stand for and, under `--strict`, check their shape.
    pub packed_rows: bool,
    /// The generation that resumes the log: only events of its kind are
    /// workspace events (SPEC 5.2).
    pub kind: SourceKind,
}

/// The `source.kind` of the generation that resumes a log (SPEC 1, 5.2).
/// A build reads only events of its own kind; the other kind's are ignored
/// (only their baseline identity still supplies default settings).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SourceKind {
    /// `agent-instructions`: dsh since 2026-08-13, the default.
    #[default]
    Agent,
    /// `workspace-instructions`: dsh builds before 2026-08-13.
    Workspace,
    /// Any other kind: no logged event is of it.
    Other,
}

impl SourceKind {
    /// The kind a `--source-kind` value names.
    #[must_use]
    pub fn parse(name: &str) -> Self {
        match name {
            "agent-instructions" => SourceKind::Agent,
            "workspace-instructions" => SourceKind::Workspace,
            _ => SourceKind::Other,
        }
    }

    /// Whether an event's `source.kind` is this kind.
    #[must_use]
    pub fn is(self, name: &str) -> bool {
        self != SourceKind::Other && self == SourceKind::parse(name)
    }
}

impl Needs {
    /// Everything: what `explain` reads.
    pub const ALL: Needs = Needs {
        prompts: true,
        every_prompt_version: false,
        kind: SourceKind::Agent,
        packed_rows: false,
    };
    /// Everything, every prompt version kept: `explain --full`.
    pub const EVERY_VERSION: Needs = Needs {
        prompts: true,
        every_prompt_version: true,
        kind: SourceKind::Agent,
        packed_rows: false,
    };
    /// The workspace state and runtime snapshot: what `diff` and `render` read.
    pub const STATE: Needs = Needs {
        prompts: false,
        every_prompt_version: false,
        kind: SourceKind::Agent,
        packed_rows: false,
    };

    /// The same, for a log resumed by the generation of `kind`.
    #[must_use]
    pub fn resumed_by(self, kind: SourceKind) -> Needs {
        Needs { kind, ..self }
    }
}

/// A surface operation as logged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    Append,
    Replace {
        start: u64,
        end: u64,
    },
    /// Anything else: the raw text, for the error.
    Unknown(String),
}

/// A workspace instruction event's content (SPEC 5.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    pub kind: String,
    pub baseline: bool,
    pub identity: Option<String>,
    pub changes: Vec<Change>,
    pub invalid_changes: u64,
}

/// A message of a workspace kind that is not a workspace event, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotWorkspace {
    pub kind: String,
    pub why: &'static str,
}

/// Everything one event says that the reader keeps. Most events say only
/// a seq and a surface operation; the rest is boxed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    /// The seq, or the raw text of one that is not a non-negative integer.
    pub seq: Option<Result<u64, String>>,
    pub op: Option<Op>,
    /// Whether a string read held a lone surrogate.
    pub lone_surrogate: bool,
    pub extra: Option<Box<Extra>>,
}

impl Record {
    fn extra(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(Box::default)
    }
}

/// What only a few events say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extra {
    /// `Some` when the event's type is `session`: what it says of its cwd.
    pub session_cwd: Option<SessionCwd>,
    pub workspace: Option<Workspace>,
    pub not_workspace: Option<NotWorkspace>,
    pub prompt: Option<(PromptOrigin, String)>,
    pub snapshot: Option<Sections>,
    /// The session header's `agentPreset`, or an `agent-preset/selected`
    /// event's `data.agentPreset` (CONFIG 11.1).
    pub preset: Option<Preset>,
}

/// What a line says of the web agent preset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Preset {
    /// The header's `agentPreset` (a string).
    Header(String),
    /// An `agent-preset/selected` event, with its preset when a string.
    Selected(Option<String>),
}

/// A runtime snapshot's sections. A log holds thousands of snapshots and
/// the reader keeps only the latest (issue 28: decoding each one's texts was
/// a tenth of `diff`'s work on real logs), so sections that cannot hold a
/// lone surrogate (no `\u` in them: nothing to report while reading) stay
/// their raw JSON until [`Sections::decode`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sections {
    Decoded(Vec<Section>),
    /// The raw `sections` array, already checked as JSON.
    Raw(Box<[u8]>),
}

impl Sections {
    /// The sections with a string name and text, in order.
    #[must_use]
    pub fn decode(self) -> Vec<Section> {
        match self {
            Sections::Decoded(kept) => kept,
            // A lone surrogate needs a `\u`, which a raw array lacks.
            Sections::Raw(raw) => sections(&raw, &mut false).unwrap_or_default(),
        }
    }
}

/// The sections of the raw array `raw` that have a string name and text.
fn sections(raw: &[u8], lone: &mut bool) -> Result<Vec<Section>, Bad> {
    let mut kept = Vec::new();
    for s in scan::elements(raw)? {
        if let Some([name, body]) = object(Some(s), &["name", "text"])? {
            if let (Some(name), Some(text)) = (text(name, lone), text(body, lone)) {
                kept.push(Section { name, text });
            }
        }
    }
    Ok(kept)
}

/// What a session header says of its cwd.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionCwd {
    /// A string, which names a path.
    Path(String),
    /// A string that holds a lone surrogate escape, so it names no path.
    LoneSurrogate,
    /// No string cwd.
    Missing,
}

/// A string field decoded, noting lone surrogates.
fn text(raw: Option<&[u8]>, lone: &mut bool) -> Option<String> {
    str_of(raw, lone).map(Cow::into_owned)
}

/// A string field as bytes to compare, noting lone surrogates: its text
/// as written when it holds no escape (no decoding, no UTF-8 check: bytes
/// that are not UTF-8 spell no word either), else decoded.
fn word<'a>(raw: Option<&'a [u8]>, lone: &mut bool) -> Option<Cow<'a, [u8]>> {
    let inner = raw?.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if !scan::has_backslash(inner) {
        return Some(Cow::Borrowed(inner));
    }
    str_of(raw, lone).map(|s| Cow::Owned(s.into_owned().into_bytes()))
}

/// A string field decoded without copying when it holds no escape.
fn str_of<'a>(raw: Option<&'a [u8]>, lone: &mut bool) -> Option<Cow<'a, str>> {
    let (s, l) = scan::string(raw?)?;
    *lone |= l;
    Some(s)
}

/// The members `names` of `raw` when it is an object; `Err` when it is a
/// malformed one.
fn object<'a, const N: usize>(
    raw: Option<&'a [u8]>,
    names: &[&str; N],
) -> Result<Option<[Option<&'a [u8]>; N]>, Bad> {
    match raw {
        Some(r) if scan::is_object(r) => scan::fields(r, names).map(Some),
        _ => Ok(None),
    }
}

/// The elements of `raw` when it is an array; `Err` when it is a malformed one.
fn array(raw: Option<&[u8]>) -> Result<Option<Vec<&[u8]>>, Bad> {
    match raw {
        Some(r) if r.first() == Some(&b'[') => scan::elements(r).map(Some),
        _ => Ok(None),
    }
}

/// The system prompt of the latest `request/header` read in one run of
/// lines, in log order, as its raw JSON string, and whether decoding it met
/// a lone surrogate. A `request/header` right after it whose `system` is
/// the same bytes carries the same version, which folds to nothing (the
/// latest version already has that text): it is neither decoded nor copied
/// (issue 28: dsh repeats a prompt of up to 37 KB in header after header).
#[derive(Debug, Default, Clone, Copy)]
pub struct LastPrompt<'a> {
    /// The raw `header` object it came from: the same bytes again need no
    /// walk to find their `system`.
    header: Option<&'a [u8]>,
    raw: Option<&'a [u8]>,
    lone: bool,
}

/// The large `request/header` headers read before on one thread, most
/// recent first: their bytes, checked whole as one object, and the system
/// prompt each sends. dsh alternates between a few headers of up to 60 KB
/// (one per agent, the tools beside the prompt), and the part of the log a
/// thread reads seldom holds the same one twice; a header read before is
/// then compared, not checked, walked and decoded again (issue 28: a tenth
/// of `explain --log`'s work on real logs). What is kept is a function of
/// the bytes alone, so it holds across the parts and buffers of one read.
#[derive(Debug, Default)]
pub struct SeenHeaders {
    kept: Vec<SeenHeader>,
}

#[derive(Debug)]
struct SeenHeader {
    bytes: Box<[u8]>,
    system: System,
}

/// A header's system prompt: where its raw string is in the header, its
/// text, and whether decoding it met a lone surrogate.
#[derive(Debug, Clone)]
struct System {
    at: std::ops::Range<usize>,
    text: String,
    lone: bool,
}

impl SeenHeaders {
    /// How many headers are kept, and the sizes worth keeping: a smaller
    /// header costs less to read again than to keep, and a larger one
    /// (dsh's run to 62 KB) is not held twice, so what is kept stays under
    /// 4 MiB a thread however hostile the log (a header and its prompt).
    const KEPT: usize = 8;
    const WORTH: std::ops::RangeInclusive<usize> = 1024..=(256 << 10);

    /// The bytes of the headers kept, most recent first.
    fn bytes(&self) -> impl Iterator<Item = &[u8]> {
        self.kept.iter().map(|h| &*h.bytes)
    }

    /// The system prompt of `header` (checked whole as one object): the
    /// kept one when it is kept, else read and, when it is worth it, kept.
    fn system(&mut self, header: &[u8]) -> Result<Option<System>, Bad> {
        if let Some(i) = self.kept.iter().position(|h| *h.bytes == *header) {
            self.kept[..=i].rotate_right(1);
            return Ok(Some(self.kept[0].system.clone()));
        }
        let Some([Some(raw)]) = object(Some(header), &["system"])? else {
            return Ok(None);
        };
        let mut lone = false;
        let Some(text) = text(Some(raw), &mut lone) else {
            return Ok(None);
        };
        let start = raw.as_ptr().addr() - header.as_ptr().addr();
        let system = System {
            at: start..start + raw.len(),
            text,
            lone,
        };
        if Self::WORTH.contains(&header.len()) {
            self.kept.truncate(Self::KEPT - 1);
            self.kept.insert(
                0,
                SeenHeader {
                    bytes: header.into(),
                    system: system.clone(),
                },
            );
        }
        Ok(Some(system))
    }
}

/// A `request/header`'s `header.system`: the prompt it sends, unless it is
/// the same bytes as the last one (`last`, then updated).
fn request_header<'a>(
    r: &mut Record,
    header: Option<&'a [u8]>,
    (last, seen): (&mut LastPrompt<'a>, &mut SeenHeaders),
    lone: &mut bool,
) -> Result<(), Bad> {
    let Some(header) = header else {
        return Ok(());
    };
    if last.header == Some(header) {
        *lone |= last.lone;
        return Ok(());
    }
    let Some(system) = seen.system(header)? else {
        return Ok(());
    };
    let raw = &header[system.at];
    *lone |= system.lone;
    if last.raw == Some(raw) {
        last.header = Some(header);
        return Ok(());
    }
    *last = LastPrompt {
        header: Some(header),
        raw: Some(raw),
        lone: system.lone,
    };
    r.extra().prompt = Some((PromptOrigin::RequestHeader, system.text));
    Ok(())
}

/// Reads one event from its raw JSON (one object). `Err` when it is not an
/// object or a value in it does not end. `last` is what the lines before it
/// (in the same run) said of the system prompt, `seen` the large headers
/// this thread read before.
pub fn extract<'a>(
    raw: &'a [u8],
    needs: Needs,
    (last, seen): (&mut LastPrompt<'a>, &mut SeenHeaders),
) -> Result<Record, Bad> {
    // `data`'s members are read in the same walk that checks it, and so is
    // a session header's `agentPreset`; most lines' types (written before
    // their data) say that nothing in their data is read, and then it is
    // only checked.
    const DATA: [&str; 5] = ["source", "content", "text", "header", "agentPreset"];
    // The headers already checked: the last one, then those kept.
    let known = |rest: &[u8]| {
        let last = last.header.filter(|h| rest.starts_with(h));
        last.or_else(|| seen.bytes().find(|h| rest.starts_with(h)))
            .map(<[u8]>::len)
    };
    let inner = scan::Inner {
        at: 2,
        names: &DATA,
        deep_at: 0,
        deep: &SOURCE,
        known: needs
            .prompts
            .then_some((3, &known as &dyn Fn(&[u8]) -> Option<usize>)),
    };
    let (fields, mut within, mut source_fields) = scan::fields_within(
        raw,
        &["type", "seq", "data", "surfaceOp", "cwd", "agentPreset"],
        &inner,
        |seen| seen[0].is_none_or(|kind| reads_data(kind, needs)),
    )?;
    // A null member is an absent one (`"seq":null` is no seq).
    let [kind, seq, data, op, cwd, preset] = fields.map(|f| f.filter(|v| *v != b"null"));
    let mut r = Record::default();
    let mut lone = false;
    let kind = word(kind, &mut lone);
    // A type after the data, or given twice: the data is read again.
    if within.is_none() && kind.as_deref().is_some_and(|k| reads_data(k, needs)) {
        within = object(data, &DATA)?;
        source_fields = None;
    }
    if kind.as_deref() == Some(b"session") {
        let mut cwd_lone = false;
        let cwd = text(cwd, &mut cwd_lone);
        r.extra().session_cwd = Some(match cwd {
            Some(_) if cwd_lone => SessionCwd::LoneSurrogate,
            Some(path) => SessionCwd::Path(path),
            None => SessionCwd::Missing,
        });
        if let Some(preset) = text(preset, &mut lone) {
            r.extra().preset = Some(Preset::Header(preset));
        }
    }
    r.seq = seq.map(|s| scan::seq(s).ok_or_else(|| String::from_utf8_lossy(s).into_owned()));
    r.op = op.map(|op| surface_op(op, &mut lone));
    match (kind.as_deref(), within) {
        (Some(b"user/message"), Some([source, ..])) => {
            let source = match source_fields {
                Some(fields) => Some(fields),
                None => object(source, &SOURCE)?,
            };
            user_message(&mut r, source, &mut lone)?;
        }
        (Some(b"agent-preset/selected"), within) => {
            let preset = within.and_then(|[.., preset]| text(preset, &mut lone));
            r.extra().preset = Some(Preset::Selected(preset));
        }
        (Some(b"system/message"), Some([_, content, body, _, _])) if needs.prompts => {
            r.extra().prompt =
                message_text(content, body, &mut lone)?.map(|t| (PromptOrigin::SystemMessage, t));
            if r.extra().prompt.is_some() {
                *last = LastPrompt::default();
            }
        }
        (Some(b"request/header"), Some([_, _, _, header, _])) if needs.prompts => {
            request_header(&mut r, header, (last, seen), &mut lone)?;
        }
        _ => {}
    }
    r.lone_surrogate = lone;
    Ok(r)
}

/// Whether anything is read from the data of an event of this type: its
/// raw JSON string, or its decoded text (a type spelt with an escape is
/// decoded before it is known).
fn reads_data(kind: &[u8], needs: Needs) -> bool {
    let kind = kind.strip_prefix(b"\"").unwrap_or(kind);
    let kind = kind.strip_suffix(b"\"").unwrap_or(kind);
    if scan::has_backslash(kind) {
        return true;
    }
    match kind {
        b"user/message" | b"agent-preset/selected" => true,
        b"system/message" | b"request/header" => needs.prompts,
        _ => false,
    }
}

fn surface_op(raw: &[u8], lone: &mut bool) -> Op {
    // What dsh writes on nearly every surface line.
    if raw == b"\"append\"" {
        return Op::Append;
    }
    let unknown = || Op::Unknown(String::from_utf8_lossy(raw).into_owned());
    if let Some(name) = str_of(Some(raw), lone) {
        return match name.as_ref() {
            "append" => Op::Append,
            other => Op::Unknown(format!("{other:?}")),
        };
    }
    if !scan::is_object(raw) {
        return unknown();
    }
    let Ok([op, start, end]) = scan::fields(raw, &["op", "start", "end"]) else {
        return unknown();
    };
    match text(op, lone).as_deref() {
        Some("replace") => match (start.and_then(scan::seq), end.and_then(scan::seq)) {
            (Some(start), Some(end)) => Op::Replace { start, end },
            _ => unknown(),
        },
        Some(other) => Op::Unknown(format!("{other:?}")),
        None => unknown(),
    }
}

/// The text of a system message: its content parts' texts joined by blank
/// lines (only objects are parts: `[["..."]]` holds no text), else its `text`.
fn message_text(
    content: Option<&[u8]>,
    body: Option<&[u8]>,
    lone: &mut bool,
) -> Result<Option<String>, Bad> {
    if let Some(parts) = array(content)? {
        let mut texts = Vec::new();
        for part in parts {
            if let Some([t]) = object(Some(part), &["text"])? {
                texts.extend(text(t, lone));
            }
        }
        if !texts.is_empty() {
            return Ok(Some(texts.join("\n\n")));
        }
    }
    Ok(text(body, lone))
}

/// The members of a user message's `data.source` that are read.
const SOURCE: [&str; 6] = [
    "kind",
    "form",
    "sections",
    "changes",
    "baseline",
    "baselineIdentity",
];

/// A user message, from the members [`SOURCE`] of its `data.source` (when
/// that is an object: read in the walk that checked the line).
fn user_message(
    r: &mut Record,
    source: Option<scan::Raw<'_, 6>>,
    lone: &mut bool,
) -> Result<(), Bad> {
    let Some([kind, form, sections, changes, baseline, identity]) = source else {
        return Ok(());
    };
    let kind = word(kind, lone);
    if word(form, lone).as_deref() == Some(b"snapshot") {
        if let Some(raw) = sections.filter(|r| r.first() == Some(&b'[')) {
            r.extra().snapshot = Some(if memchr::memmem::find(raw, b"\\u").is_some() {
                Sections::Decoded(self::sections(raw, lone)?)
            } else {
                Sections::Raw(raw.into())
            });
        }
    }
    let kind = match kind.as_deref() {
        Some(b"workspace-instructions") => "workspace-instructions",
        Some(b"agent-instructions") => "agent-instructions",
        _ => return Ok(()),
    };
    let not_workspace = |why| {
        Some(NotWorkspace {
            kind: kind.to_owned(),
            why,
        })
    };
    let Some(list) = array(changes)? else {
        r.extra().not_workspace = not_workspace("whose changes is not an array");
        return Ok(());
    };
    if r.seq.is_none() {
        r.extra().not_workspace = not_workspace("without a seq");
        return Ok(());
    }
    let mut ws = Workspace {
        kind: kind.to_owned(),
        baseline: baseline == Some(b"true"),
        identity: text(identity, lone),
        changes: Vec::with_capacity(list.len()),
        invalid_changes: 0,
    };
    for raw in list {
        let fields = object(
            Some(raw),
            &["action", "scope", "path", "previousPath", "digest"],
        )?;
        match fields.and_then(|f| change(f, lone)) {
            Some(c) => ws.changes.push(c),
            None => ws.invalid_changes += 1,
        }
    }
    r.extra().workspace = Some(ws);
    Ok(())
}

fn change(fields: [Option<&[u8]>; 5], lone: &mut bool) -> Option<Change> {
    let [action, scope, path, previous, digest] = fields;
    let action = match text(action, lone)?.as_str() {
        "set" => Action::Set,
        "replace" => Action::Replace,
        "remove" => Action::Remove,
        _ => return None,
    };
    let mut optional = |raw: Option<&[u8]>| match raw {
        None => Some(None),
        Some(r) => text(Some(r), lone).map(Some),
    };
    let previous_path = optional(previous)?;
    let digest = optional(digest)?;
    Some(Change {
        action,
        scope: text(scope, lone)?,
        path: text(path, lone)?,
        previous_path,
        digest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    /// Only headers worth keeping are kept, at most eight, the latest first,
    /// and a kept one gives what reading it gives.
    #[test]
    fn seen_headers_keep_eight_worth_keeping() {
        let header = |tag: &str, len: usize| {
            format!(r#"{{"system":"{tag} {}"}}"#, "y".repeat(len)).into_bytes()
        };
        let mut seen = SeenHeaders::default();
        let system = |seen: &mut SeenHeaders, h: &[u8]| seen.system(h).unwrap().map(|s| s.text);
        assert_eq!(
            system(&mut seen, &header("small", 10)),
            Some(format!("small {}", "y".repeat(10)))
        );
        assert_eq!(
            system(&mut seen, &header("huge", 300_000)).map(|t| t.len()),
            Some(300_005)
        );
        assert_eq!(seen.kept.len(), 0);
        let kept: Vec<Vec<u8>> = (0..9).map(|i| header(&format!("h{i}"), 2000)).collect();
        for h in &kept {
            system(&mut seen, h);
        }
        assert_eq!(seen.kept.len(), 8);
        let first: Vec<&[u8]> = seen.bytes().take(2).collect();
        assert_eq!(first, [kept[8].as_slice(), kept[7].as_slice()]);
        // h0 fell out; h3 is kept and moves to the front when asked again.
        assert!(seen.bytes().all(|b| b != kept[0].as_slice()));
        let again = system(&mut seen, &kept[3]);
        assert_eq!(again, Some(format!("h3 {}", "y".repeat(2000))));
        assert_eq!(seen.bytes().next(), Some(kept[3].as_slice()));
        assert_eq!(seen.kept.len(), 8);
    }
}

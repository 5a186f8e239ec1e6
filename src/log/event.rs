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
    /// Packed storage rows (`crate::logfile::packed`): count the events
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
    pub snapshot: Option<Vec<Section>>,
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

/// Reads one event from its raw JSON (one object). `Err` when it is not an
/// object or a value in it does not end.
pub fn extract(raw: &[u8], needs: Needs) -> Result<Record, Bad> {
    let fields = scan::fields(raw, &["type", "seq", "data", "surfaceOp", "cwd"])?;
    // A null member is an absent one (`"seq":null` is no seq).
    let [kind, seq, data, op, cwd] = fields.map(|f| f.filter(|v| *v != b"null"));
    let mut r = Record::default();
    let mut lone = false;
    let kind = str_of(kind, &mut lone);
    if kind.as_deref() == Some("session") {
        let mut cwd_lone = false;
        let cwd = text(cwd, &mut cwd_lone);
        r.extra().session_cwd = Some(match cwd {
            Some(_) if cwd_lone => SessionCwd::LoneSurrogate,
            Some(path) => SessionCwd::Path(path),
            None => SessionCwd::Missing,
        });
        let [preset] = scan::fields(raw, &["agentPreset"])?;
        if let Some(preset) = text(preset, &mut lone) {
            r.extra().preset = Some(Preset::Header(preset));
        }
    }
    r.seq = seq.map(|s| scan::seq(s).ok_or_else(|| String::from_utf8_lossy(s).into_owned()));
    r.op = op.map(|op| surface_op(op, &mut lone));
    match kind.as_deref() {
        Some("user/message") => {
            if let Some([source]) = object(data, &["source"])? {
                user_message(&mut r, source, &mut lone)?;
            }
        }
        Some("agent-preset/selected") => {
            let preset = match object(data, &["agentPreset"])? {
                Some([preset]) => text(preset, &mut lone),
                None => None,
            };
            r.extra().preset = Some(Preset::Selected(preset));
        }
        Some("system/message") if needs.prompts => {
            if let Some([content, body]) = object(data, &["content", "text"])? {
                r.extra().prompt = message_text(content, body, &mut lone)?
                    .map(|t| (PromptOrigin::SystemMessage, t));
            }
        }
        Some("request/header") if needs.prompts => {
            if let Some([header]) = object(data, &["header"])? {
                if let Some([system]) = object(header, &["system"])? {
                    r.extra().prompt =
                        text(system, &mut lone).map(|t| (PromptOrigin::RequestHeader, t));
                }
            }
        }
        _ => {}
    }
    r.lone_surrogate = lone;
    Ok(r)
}

fn surface_op(raw: &[u8], lone: &mut bool) -> Op {
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

fn user_message(r: &mut Record, source: Option<&[u8]>, lone: &mut bool) -> Result<(), Bad> {
    let Some([kind, form, sections, changes, baseline, identity]) = object(
        source,
        &[
            "kind",
            "form",
            "sections",
            "changes",
            "baseline",
            "baselineIdentity",
        ],
    )?
    else {
        return Ok(());
    };
    let kind = text(kind, lone);
    if text(form, lone).as_deref() == Some("snapshot") {
        if let Some(list) = array(sections)? {
            let mut kept = Vec::new();
            for s in list {
                if let Some([name, body]) = object(Some(s), &["name", "text"])? {
                    if let (Some(name), Some(text)) = (text(name, lone), text(body, lone)) {
                        kept.push(Section { name, text });
                    }
                }
            }
            r.extra().snapshot = Some(kept);
        }
    }
    let Some(kind @ ("workspace-instructions" | "agent-instructions")) = kind.as_deref() else {
        return Ok(());
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

//! The fold of a log's events, in log order, into a [`Log`]: the counts, the
//! surface, the system prompt versions, the latest runtime snapshot, the
//! workspace events a read keeps, and the warnings said once at the end.

use std::borrow::Cow;
use std::io;

use crate::log::chunk::{self, LineKind};
use crate::log::event::{self, Needs, Op, Record, Sections, SessionCwd};
use crate::log::keep::{self, Sorter};
use crate::log::records::{PromptOrigin, Snapshot, SystemVersion};
use crate::log::{HELD_EVENTS, Log, LogError, PROMPT_VERSIONS_KEPT, WorkspaceEvent, scan};

/// Where a record came from, for messages.
#[derive(Clone, Copy)]
pub(super) enum At {
    Line(u64),
    /// The `index`th event of an array log, beginning at `line`:`col`.
    Element {
        index: u64,
        line: u64,
        col: u64,
    },
}

/// What a read keeps of the workspace events.
pub(super) enum Keep {
    /// Every event, sorted at the end (one pass: a pipe).
    All,
    /// Every event while there are at most [`HELD_EVENTS`] (then the log
    /// is read once, as with `All`); past that none, and the log asks for
    /// pass 2 (`Log::needs_second_pass`).
    Bounded,
    /// None: only the running values and the count (pass 1).
    Count,
    /// The visible events and the latest shadowed ones, sorted as read
    /// against pass 1's final surface (pass 2).
    Sort(Box<Sorter>),
}

/// Folds events into the log it owns, which [`Fold::finish`] hands over.
pub(super) struct Fold {
    /// The log being built: each step writes its fields by name.
    pub(super) log: Log,
    /// What the events are read for.
    pub(super) needs: Needs,
    /// What is kept of the workspace events.
    pub(super) keep: Keep,
    /// The first line that held a lone surrogate, and how many did.
    lone: Option<(String, u64)>,
    /// The warning for a final line that is not JSON (said at the end).
    pending_final_warning: Option<String>,
    /// Messages of a workspace kind that are not workspace events (no
    /// changes array, no seq): the first one's place and why, and how many.
    not_workspace: Option<(String, u64)>,
    /// The packed rows read so far (kept when `needs.packed_rows`).
    packed: crate::log::packed::PackedCount,
    /// Whether the first record was a session header.
    header: bool,
    /// The latest runtime snapshot (seq, line, sections), decoded at the end.
    latest_snapshot: Option<(Option<u64>, u64, Sections)>,
}

impl Fold {
    pub(super) fn new(name: String, needs: Needs, keep: Keep) -> Self {
        Fold {
            log: Log {
                name,
                ..Log::default()
            },
            needs,
            keep,
            lone: None,
            pending_final_warning: None,
            not_workspace: None,
            packed: crate::log::packed::PackedCount::default(),
            header: false,
            latest_snapshot: None,
        }
    }

    pub(super) fn io(&self, e: &io::Error) -> LogError {
        LogError {
            message: format!("{}: {e}", self.log.name),
            line: None,
        }
    }

    pub(super) fn err(&self, at: At, col: Option<usize>, msg: &str) -> LogError {
        let name = &self.log.name;
        let message = match (at, col) {
            (At::Line(l), Some(c)) => format!("{name}:{l}:{c}: {msg}"),
            (At::Line(l), None) => format!("{name}:{l}: {msg}"),
            (At::Element { index, line, col }, _) => {
                format!("{name}:{line}:{col}: event {index} of the array: {msg}")
            }
        };
        let line = match at {
            At::Line(l) => Some(l),
            At::Element { .. } => None,
        };
        LogError { message, line }
    }

    /// What a line that is not a JSON object is: before any record, the
    /// file is no session log at all (`--log README.md`), which says more
    /// than a malformed line.
    fn not_an_object(&self) -> &'static str {
        if self.log.records == 0 {
            "not a session log: its first line is not a JSON object"
        } else {
            "malformed line: not a JSON object"
        }
    }

    /// Counts a message of a workspace kind that is not a workspace event
    /// (SPEC 5.2), keeping where the first one was and why.
    fn not_workspace(&mut self, at: At, kind: &str, why: &str) {
        if let Some((_, n)) = &mut self.not_workspace {
            *n += 1;
        } else {
            let what = format!("a message of kind {kind} {why} is not a workspace event");
            let first = self.err(at, None, &what).message;
            self.not_workspace = Some((first, 1));
        }
    }

    /// Applies one part of a buffer of lines, in log order.
    pub(super) fn apply(&mut self, part: chunk::Part) -> Result<(), LogError> {
        let (lines, records) = (self.log.lines, self.log.records);
        for item in part.items {
            let line_no = lines + item.line + 1;
            self.log.lines = line_no;
            self.log.records = records + item.records_before;
            let at = At::Line(line_no);
            let (col, msg) = match item.kind {
                LineKind::Event(record) => {
                    self.log.records += 1;
                    self.event(record, at)?;
                    continue;
                }
                LineKind::NotObject => (None, self.not_an_object().to_owned()),
                LineKind::NotUtf8 => {
                    self.log.records += 1;
                    (None, "malformed line: not valid UTF-8".to_owned())
                }
                LineKind::Malformed(col, msg) => {
                    self.log.records += 1;
                    (col, msg)
                }
                LineKind::BadRow(why) => return Err(self.err(at, None, &why)),
            };
            if item.newline {
                return Err(self.err(at, col, &msg));
            }
            self.pending_final_warning = Some(format!(
                "{}:{line_no}: ignoring a final line without a newline that is not valid JSON (a writer stopped mid-line?)",
                self.log.name
            ));
        }
        self.log.lines = lines + part.lines;
        self.log.records = records + part.records;
        self.log.parsed += part.parsed;
        self.packed.rows += part.packed.rows;
        self.packed.events += part.packed.events;
        self.packed.uncounted += part.packed.uncounted;
        Ok(())
    }

    /// A line that was streamed, not held: it holds no marker, so only its
    /// braces are checked, from its first and last non-whitespace bytes.
    pub(super) fn streamed_line(
        &mut self,
        first: Option<u8>,
        last: Option<u8>,
        newline: bool,
    ) -> Result<(), LogError> {
        self.log.lines += 1;
        self.log.streamed += 1;
        let (Some(first), Some(last)) = (first, last) else {
            return Ok(());
        };
        if first != b'{' || last != b'}' {
            let line_no = self.log.lines;
            if newline {
                return Err(self.err(At::Line(line_no), None, self.not_an_object()));
            }
            self.pending_final_warning = Some(format!(
                "{}:{line_no}: ignoring a final line without a newline that is not valid JSON (a writer stopped mid-line?)",
                self.log.name
            ));
            return Ok(());
        }
        self.log.records += 1;
        Ok(())
    }

    /// Folds the `index`th element of an array log, which begins at
    /// `line`:`col` (1-based, bytes).
    pub(super) fn array_element(
        &mut self,
        raw: &str,
        index: u64,
        (line, col): (u64, u64),
    ) -> Result<(), LogError> {
        self.log.records += 1;
        self.log.parsed += 1;
        let at = At::Element { index, line, col };
        if !scan::is_object(raw.as_bytes()) {
            return Err(self.err(at, None, "an event must be a JSON object"));
        }
        // The array's deserializer checked the element's syntax.
        match event::extract(
            raw.as_bytes(),
            self.needs,
            (
                &mut event::LastPrompt::default(),
                &mut event::SeenHeaders::default(),
            ),
        ) {
            Ok(record) => self.event(record, at),
            Err(_) => Err(self.err(at, None, "malformed event: a value does not end")),
        }
    }

    fn event(&mut self, r: Record, at: At) -> Result<(), LogError> {
        let first = self.log.records == 1;
        let line = match at {
            At::Line(l) | At::Element { index: l, .. } => l,
        };
        if r.lone_surrogate {
            if let Some((_, n)) = &mut self.lone {
                *n += 1;
            } else {
                let w = self.err(at, None, "a lone surrogate escape (such as \\ud800) is read as U+FFFD, as JSON.parse reads it").message;
                self.lone = Some((w, 1));
            }
        }
        let extra = r.extra.map(|e| *e).unwrap_or_default();
        if let (true, Some(cwd)) = (first, extra.session_cwd) {
            if let Some(event::Preset::Header(preset)) = extra.preset {
                self.log.web = true;
                self.log.agent_preset.get_or_insert(preset);
            }
            self.session_header(cwd, at);
            return Ok(());
        }
        let seq = match r.seq {
            None => None,
            Some(Ok(s)) => Some(s),
            Some(Err(raw)) => {
                return Err(self.err(
                    at,
                    None,
                    &format!("seq must be a non-negative integer, got {}", shown(&raw)),
                ));
            }
        };
        let surfaced = match &r.op {
            None => false,
            // Pass 2: pass 1 built the surface and checked every op.
            Some(_) if matches!(self.keep, Keep::Sort(_)) => true,
            Some(op) => {
                self.log.surfaced = true;
                let Some(seq) = seq else {
                    return Err(self.err(at, None, "an event with a surfaceOp needs a seq"));
                };
                let done = match op {
                    Op::Append => self.log.surface.append(seq),
                    Op::Replace { start, end } => self.log.surface.replace(*start, *end, seq),
                    Op::Unknown(raw) => Err(format!("unknown surfaceOp {}", shown(raw))),
                };
                done.map_err(|m| self.err(at, None, &m))?;
                true
            }
        };
        if let Some((origin, text)) = extra.prompt {
            self.system_version(seq, line, origin, text);
        }
        if let Some(sections) = extra.snapshot {
            self.log.snapshots += 1;
            self.latest_snapshot = Some((seq, line, sections));
        }
        match extra.preset {
            // A header that is not the first record is no header.
            Some(event::Preset::Header(_)) | None => {}
            Some(event::Preset::Selected(preset)) => {
                self.log.web = true;
                if preset.is_some() {
                    self.log.agent_preset = preset;
                }
            }
        }
        if let Some(nw) = extra.not_workspace {
            self.not_workspace(at, &nw.kind, nw.why);
        }
        if let (Some(ws), Some(seq)) = (extra.workspace, seq) {
            self.workspace(ws, seq, line, surfaced);
        }
        Ok(())
    }

    /// Takes the header's cwd, or says why there is none.
    fn session_header(&mut self, cwd: SessionCwd, at: At) {
        self.header = true;
        let why = match cwd {
            SessionCwd::Path(path) => {
                self.log.header_cwd = Some(path);
                return;
            }
            SessionCwd::LoneSurrogate => {
                "the session header's cwd holds a lone surrogate escape, so it names no path; the process cwd is used (pass --cwd)"
            }
            SessionCwd::Missing => "the session header has no string cwd",
        };
        let w = self.err(at, None, why);
        self.log.warnings.push(w.message);
    }

    /// Records a system prompt; an empty text is no version (a consolidated
    /// series can log an emptied system message; the seed's fold skips it too).
    fn system_version(&mut self, seq: Option<u64>, line: u64, origin: PromptOrigin, text: String) {
        if text.is_empty() {
            return;
        }
        let system_message = origin == PromptOrigin::SystemMessage;
        if let Some(last) = self.log.system.last_mut().filter(|v| v.text == text) {
            last.system_message |= system_message;
            return;
        }
        let number = self.log.system.last().map_or(1, |v| v.number + 1);
        self.log.system.push(SystemVersion {
            seq,
            line,
            origin,
            system_message,
            text,
            number,
        });
        if !self.needs.every_prompt_version && self.log.system.len() > PROMPT_VERSIONS_KEPT {
            // Keep the first ones, the latest system/message version (the
            // earlier-format fold reads it) and the latest; drop the oldest
            // of the rest. The window after the kept head is at most three.
            let head = PROMPT_VERSIONS_KEPT - 2;
            let latest_message = self.log.system.iter().rposition(|v| v.system_message);
            let last = self.log.system.len() - 1;
            if let Some(i) = (head..last).find(|&i| Some(i) != latest_message) {
                self.log.system.remove(i);
                self.log.system_not_kept += 1;
            }
        }
    }

    fn workspace(&mut self, ws: event::Workspace, seq: u64, line: u64, surfaced: bool) {
        // The logged identity is the best record of the deployment's
        // settings, whichever generation wrote it (SPEC 1).
        if ws.baseline {
            if let Some(id) = &ws.identity {
                self.log.latest_baseline_identity = Some(id.clone());
            }
        }
        if !self.needs.kind.is(&ws.kind) {
            // The resuming build ignores events of the other kind entirely.
            let ignored = self.log.ignored_kind.get_or_insert((ws.kind, 0));
            ignored.1 += 1;
            return;
        }
        self.log.invalid_changes += ws.invalid_changes;
        if let Some(last) = ws.changes.last() {
            self.log.last_change_scope = Some(last.scope.clone());
        }
        self.log.any_baseline |= ws.baseline;
        self.log.workspace_events += 1;
        if matches!(self.keep, Keep::Count) {
            return;
        }
        let ev = WorkspaceEvent {
            seq,
            line,
            kind: ws.kind,
            baseline: ws.baseline,
            identity: ws.identity,
            changes: ws.changes,
            surfaced,
            visible: false,
        };
        match &mut self.keep {
            Keep::Sort(sorter) => sorter.keep(&mut self.log, ev),
            Keep::Bounded if self.log.workspace.len() >= HELD_EVENTS => {
                self.log.workspace = Vec::new();
                self.log.needs_second_pass = true;
                self.keep = Keep::Count;
            }
            _ => self.log.workspace.push(ev),
        }
    }

    pub(super) fn finish(mut self) -> Log {
        if let Some((seq, line, sections)) = self.latest_snapshot.take() {
            self.log.latest_snapshot = Some(Snapshot {
                seq,
                line,
                sections: sections.decode(),
            });
        }
        if self.needs.packed_rows {
            self.log.storage.packed = Some(self.packed);
        }
        if self.log.records == 0 {
            self.log.warnings.push(format!(
                "{}: the log holds no events, not even a session header",
                self.log.name
            ));
        }
        let read_anything = self.log.surfaced
            || self.log.workspace_events > 0
            || self.log.ignored_kind.is_some()
            || self.log.snapshots > 0
            || !self.log.system.is_empty();
        if self.log.records > 0 && !self.header && !read_anything {
            self.log.warnings.push(format!(
                "{}: the log has no session header, and {}: is it a dsh session log?",
                self.log.name,
                match self.log.records {
                    1 => "its one record is no event agentctx reads".to_owned(),
                    n => format!("none of its {n} records is an event agentctx reads"),
                }
            ));
        }
        if let Some(w) = self.pending_final_warning.take() {
            self.log.warnings.push(w);
        }
        if let Some((first, n)) = self.lone.take() {
            self.log.warnings.push(match n {
                1 => first,
                n => format!("{first} (and in {} more events)", n - 1),
            });
        }
        if let Some((first, n)) = self.not_workspace.take() {
            self.log.warnings.push(match n {
                1 => format!("{first}: ignored"),
                n => format!("{first}: ignored, with {} more like it", n - 1),
            });
        }
        if matches!(self.keep, Keep::All | Keep::Bounded) {
            keep::sort_held(&mut self.log);
        }
        if self.log.invalid_changes > 0 {
            let n = self.log.invalid_changes;
            self.log.warnings.push(format!(
                "{}: skipped {n} invalid change entr{}",
                self.log.name,
                if n == 1 { "y" } else { "ies" }
            ));
        }
        self.log
    }
}

/// A value from the log quoted in a message, cut to a readable length (a
/// hostile log can put megabytes where a number belongs).
fn shown(raw: &str) -> Cow<'_, str> {
    const MAX: usize = 60;
    if raw.len() <= MAX {
        return Cow::Borrowed(raw);
    }
    let mut end = MAX;
    while !raw.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}... ({} bytes)", &raw[..end], raw.len()))
}

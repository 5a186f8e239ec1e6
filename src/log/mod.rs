//! Reading a dsh session log (SPEC 5): JSON Lines or one JSON array, streamed.
//!
//! A log can be gigabytes. Lines are split in large chunks; each chunk is
//! searched once per marker for the bytes that can make a line matter, and
//! only those lines are parsed (with a borrowing parse that keeps the fields
//! it needs as raw JSON). Every line's braces are still checked. The surface
//! is kept as runs of consecutive seqs, and only workspace events, system
//! prompt versions and the latest runtime snapshot are retained.
//!
//! This file holds the public types and the entry points; the work is done,
//! in the order the bytes meet it, by:
//!
//! - `frame`: framing the bytes into lines (or array elements), streaming
//!   long lines that hold no marker;
//! - `markers`: finding the lines that hold a marker ([`MARKERS`]);
//! - `chunk`: reading a buffer of lines into records, on two threads;
//! - `event` (with `scan`, the raw JSON walk): decoding one line into a
//!   record;
//! - `fold`: folding the records, in log order, into a [`Log`];
//! - `surface`: the surface the events build;
//! - `keep`: which workspace events a read keeps (one pass or two).

mod chunk;
pub(crate) mod event;
mod fold;
mod frame;
mod keep;
mod markers;
mod members;
pub mod packed;
pub mod records;
mod scan;
mod seq;
pub mod storage;

pub use scan::{seq_text, serialize_opt_seq, serialize_seq};
mod surface;

pub(crate) use scan::strip_position;

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};

use crate::baseline::Change;
pub use event::{Needs, SourceKind};
use fold::{Fold, Keep};
pub(crate) use frame::read_some;
pub use keep::SHADOWED_CAP;
use keep::Sorter;

/// Bytes whose presence makes a JSONL line worth parsing (SPEC 5.1).
pub const MARKERS: [&str; 9] = [
    "\"surfaceOp\"",
    "\"user/message\"",
    "\"system/message\"",
    "\"request/header\"",
    "instructions\"",
    "\"session\"",
    "\"agent-preset/selected\"",
    "\\u",
    "\\/",
];

impl<'a> From<&'a Log> for crate::settings::LogFacts<'a> {
    fn from(log: &'a Log) -> Self {
        crate::settings::LogFacts {
            name: &log.name,
            header_cwd: log.header_cwd.as_deref(),
            latest_identity: log.latest_baseline_identity.as_deref(),
            last_change_scope: log.last_change_scope.as_deref(),
        }
    }
}

/// Bytes read at a time (small in unit tests, so lines cross reads). 1 MiB,
/// not 4 (issue 28): a buffer the kernel has just copied into is still in
/// the cache when its lines are read (about 4% less CPU time on the real
/// log, and 6 MiB less memory); a line longer than it grows the buffer.
const CHUNK: usize = if cfg!(test) { 16 << 10 } else { 1 << 20 };

/// How to read a log: one set of options from the file edge
/// (`logfile::read`) down to the line scanner, which reads `strict`.
#[derive(Debug, Clone, Copy)]
pub struct ReadOptions {
    /// Parse every line, packed rows included, not only those that can matter.
    pub strict: bool,
    /// Count the events packed rows stand for.
    pub count_packed: bool,
    /// What the line scanner reads.
    pub needs: Needs,
}

impl ReadOptions {
    /// Everything a command can need (what `explain` reads), fast path.
    pub const ALL: ReadOptions = ReadOptions {
        strict: false,
        count_packed: false,
        needs: Needs::ALL,
    };
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions::ALL
    }
}

/// How many system prompt versions a log keeps unless asked for all: the
/// first ones, the latest `system/message` one and the latest. The rest are
/// counted (`Log::system_not_kept`), so memory is bounded by the kept texts
/// however many times the prompt changed.
pub const PROMPT_VERSIONS_KEPT: usize = 100;

/// An error in a log, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogError {
    pub message: String,
    /// The JSONL line the error is about, when it is about one.
    pub line: Option<u64>,
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LogError {}

/// A workspace instruction event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceEvent {
    /// The event's seq (its place in the session).
    pub seq: u64,
    /// The JSONL line it is on (its index, from 1, in an array log).
    pub line: u64,
    /// The `source.kind` it carries.
    pub kind: String,
    /// Whether it is a baseline (the whole set, not a change to it).
    pub baseline: bool,
    /// Its `baselineIdentity`, when it has one.
    pub identity: Option<String>,
    /// Its valid change entries, in order.
    pub changes: Vec<Change>,
    /// Whether the event itself carried a surfaceOp.
    pub surfaced: bool,
    /// Whether it is on the final surface (filled in at the end).
    pub visible: bool,
}

use crate::log::records::{Snapshot, SystemVersion};
pub use crate::log::surface::Surface;

/// What a log holds that agentctx needs.
// Its flags are independent facts about the log that commands report, not
// states of one machine: an enum would not make them clearer.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, Default)]
pub struct Log {
    /// The name errors use: the path as given, or `-`.
    pub name: String,
    /// The session header's cwd, when it names a path.
    pub header_cwd: Option<String>,
    /// The web agent preset: the last `agent-preset/selected` event's
    /// `data.agentPreset`, else the header's `agentPreset` (CONFIG 11.1).
    pub agent_preset: Option<String>,
    /// Whether the log says it is a web session (a header `agentPreset` or
    /// an `agent-preset/selected` event).
    pub web: bool,
    /// JSONL lines read, blank ones included (none in an array log).
    pub lines: u64,
    /// Lines whose braces enclose them, or array elements.
    pub records: u64,
    /// Lines or elements parsed (a line only when it holds a marker, unless
    /// `strict`).
    pub parsed: u64,
    /// Long lines read through without being held (no marker in them).
    pub streamed: u64,
    /// Long lines whose marker showed up late, so they were read again whole.
    pub reread: u64,
    /// The visible workspace events, in log order (every one in a legacy log).
    pub workspace: Vec<WorkspaceEvent>,
    /// How many workspace events the log holds, visible or not.
    pub workspace_events: u64,
    /// The latest workspace events compaction took off the surface, in log
    /// order: at most [`SHADOWED_CAP`] of them.
    pub shadowed: VecDeque<WorkspaceEvent>,
    /// How many workspace events compaction took off the surface.
    pub shadowed_total: u64,
    /// Whether compaction took a baseline event off the surface.
    pub shadowed_baseline: bool,
    /// Whether any workspace event is a baseline, visible or not.
    pub any_baseline: bool,
    /// Pass 1 held more workspace events than [`HELD_EVENTS`] and dropped
    /// them: the visible ones must be read again ([`fold_visible`]).
    pub needs_second_pass: bool,
    pub surface: Surface,
    /// Whether any event carried a surfaceOp (else the log is legacy).
    pub surfaced: bool,
    /// The scope key of the last change entry in the log.
    pub last_change_scope: Option<String>,
    /// Events of a workspace kind that the resuming generation ignores
    /// (SPEC 5.2): the first such kind seen, and how many events.
    pub ignored_kind: Option<(String, u64)>,
    /// The identity of the last baseline event, visible or not.
    pub latest_baseline_identity: Option<String>,
    /// Change entries skipped as invalid.
    pub invalid_changes: u64,
    /// What the log's reader warns about, in the order said.
    pub warnings: Vec<String>,
    /// The system prompt versions kept, in log order.
    pub system: Vec<SystemVersion>,
    /// System prompt versions counted but not kept (see [`PROMPT_VERSIONS_KEPT`]).
    pub system_not_kept: u64,
    /// The latest runtime context snapshot.
    pub latest_snapshot: Option<Snapshot>,
    /// How many runtime context snapshots the log holds.
    pub snapshots: u64,
    /// The seq of the visible baseline event (index into `workspace`).
    /// Set only when a baseline is visible.
    pub visible_baseline: Option<usize>,
    /// How the log was stored (filled in by `crate::logfile`).
    pub storage: storage::Storage,
}

impl Log {
    /// Whether the log is legacy (no surfaceOp at all).
    #[must_use]
    pub fn is_legacy(&self) -> bool {
        !self.surfaced
    }

    /// The workspace event of the visible baseline, if one is visible.
    #[must_use]
    pub fn visible_baseline_event(&self) -> Option<&WorkspaceEvent> {
        self.visible_baseline.map(|i| &self.workspace[i])
    }
}

/// A log's byte stream. A file can go back and re-read a long line that
/// turns out to need parsing, so such lines are streamed rather than held;
/// a pipe cannot, so there a long line is held while it is read.
pub trait LogSource: Read {
    /// Whether `rewind_to` works.
    fn can_rewind(&self) -> bool {
        false
    }

    /// Repositions the stream `offset` bytes from its start.
    ///
    /// # Errors
    ///
    /// When the stream cannot seek (by default: `Unsupported`).
    fn rewind_to(&mut self, offset: u64) -> io::Result<()> {
        let _ = offset;
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }

    /// Says that the reader may rewind to `offset` later (the start of the
    /// line it holds) and reports nothing before it: a source that must
    /// remember something to rewind keeps what that offset needs.
    fn mark(&mut self, offset: u64) {
        let _ = offset;
    }

    /// Whether the bytes are made on a thread of their own (a container's
    /// decoder): that thread takes a core, which the reader's helper thread
    /// would otherwise have.
    fn has_own_thread(&self) -> bool {
        false
    }
}

impl LogSource for File {
    fn can_rewind(&self) -> bool {
        // A FIFO or a character device opened by path cannot seek.
        self.metadata().is_ok_and(|m| m.is_file())
    }

    fn rewind_to(&mut self, offset: u64) -> io::Result<()> {
        use std::io::Seek;
        self.seek(io::SeekFrom::Start(offset)).map(drop)
    }
}

impl LogSource for io::StdinLock<'_> {}

impl LogSource for &[u8] {}

impl<T: AsRef<[u8]>> LogSource for io::Cursor<T> {
    fn can_rewind(&self) -> bool {
        true
    }

    fn rewind_to(&mut self, offset: u64) -> io::Result<()> {
        self.set_position(offset);
        Ok(())
    }
}

/// Reads a log from any byte stream, everything a command can need.
///
/// # Errors
///
/// When the log cannot be read or is not a log (SPEC 5): the error names
/// the log and, where it is about one, the line.
pub fn read_from<R: LogSource>(
    reader: R,
    name: String,
    opts: ReadOptions,
) -> Result<Log, LogError> {
    read_from_with(reader, name, opts, Needs::ALL)
}

/// How many workspace events pass 1 holds before it drops them and asks for
/// a second pass: a real session's few (reading once, at full speed) are
/// far below it, a hostile log's million far above (bounded memory).
pub const HELD_EVENTS: usize = 10_000;

/// Pass 1 of reading a seekable log: everything [`read_from_with`] reads,
/// the workspace events included while there are at most [`HELD_EVENTS`];
/// past that they are only counted (their running values kept) and
/// `needs_second_pass` says that [`fold_visible`] must read them again.
pub(crate) fn read_surface_from<R: LogSource>(
    reader: R,
    name: String,
    opts: ReadOptions,
    needs: Needs,
) -> Result<Log, LogError> {
    read_keeping(reader, Fold::new(name, needs, Keep::Bounded), opts)
}

/// Pass 2: reads the same log again from `reader` and keeps in `log` (pass
/// 1's) the workspace events on its final surface and the latest shadowed
/// ones. Pass 1 said every warning; pass 2's are dropped.
pub(crate) fn fold_visible<R: LogSource>(
    reader: R,
    log: &mut Log,
    opts: ReadOptions,
    kind: SourceKind,
) -> Result<(), LogError> {
    let sorter = Sorter::new(std::mem::take(&mut log.surface), log.is_legacy());
    let keep = Keep::Sort(Box::new(sorter));
    let mut second = Fold::new(log.name.clone(), Needs::STATE.resumed_by(kind), keep);
    let read = frame::read_stream(reader, &mut second, opts);
    if let Keep::Sort(sorter) = std::mem::replace(&mut second.keep, Keep::Count) {
        log.surface = sorter.finish(&mut second.log);
    }
    read?;
    if (second.log.lines, second.log.records) != (log.lines, log.records) {
        return Err(LogError {
            message: format!("{}: the log changed while it was read", log.name),
            line: None,
        });
    }
    keep::take_kept(log, &mut second.log);
    Ok(())
}

/// Reads from any byte stream only what `needs` asks for.
pub(crate) fn read_from_with<R: LogSource>(
    reader: R,
    name: String,
    opts: ReadOptions,
    needs: Needs,
) -> Result<Log, LogError> {
    read_keeping(reader, Fold::new(name, needs, Keep::All), opts)
}

/// Reads a whole stream into `fold` and hands over its log.
fn read_keeping<R: LogSource>(
    reader: R,
    mut fold: Fold,
    opts: ReadOptions,
) -> Result<Log, LogError> {
    frame::read_stream(reader, &mut fold, opts)?;
    Ok(fold.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn read_str(text: &str) -> Result<Log, LogError> {
        read_from(text.as_bytes(), "t.jsonl".into(), ReadOptions::default())
    }

    #[test]
    fn malformed_middle_line_names_file_and_line() {
        let err = read_str("{\"type\":\"session\",\"cwd\":\"/x\"}\nnot json\n{}\n").unwrap_err();
        assert_eq!(err.message, "t.jsonl:2: malformed line: not a JSON object");
        let err = read_str("{\"type\":\"user/message\",}\n").unwrap_err();
        assert!(
            err.message.starts_with("t.jsonl:1:24: malformed JSON"),
            "{}",
            err.message
        );
    }

    #[test]
    fn truncated_final_line_is_a_warning() {
        let log = read_str("{\"type\":\"session\",\"cwd\":\"/x\"}\n{\"type\":\"user/mess").unwrap();
        assert_eq!(log.header_cwd.as_deref(), Some("/x"));
        assert_eq!(log.warnings.len(), 1);
    }

    /// A type written after the data, or twice, reads the data as a type
    /// written first does (the walk skips the data of most types unread).
    #[test]
    fn the_data_reads_the_same_wherever_the_type_is() {
        let source = r#"{"source":{"kind":"agent-instructions","baseline":true,"changes":[{"action":"set","scope":".","path":"AGENTS.md"}]}}"#;
        let first = format!(
            "{{\"type\":\"session\",\"cwd\":\"/x\"}}\n{{\"type\":\"user/message\",\"seq\":1,\"data\":{source},\"surfaceOp\":\"append\"}}\n"
        );
        let want = format!("{:?}", read_str(&first).unwrap().workspace);
        assert!(want.contains("AGENTS.md"), "{want}");
        for line in [
            format!(r#"{{"seq":1,"data":{source},"type":"user/message","surfaceOp":"append"}}"#),
            format!(
                r#"{{"type":"tool/result","seq":1,"data":{source},"type":"user/message","surfaceOp":"append"}}"#
            ),
            format!(r#"{{"type":"user\/message","seq":1,"data":{source},"surfaceOp":"append"}}"#),
        ] {
            let text = format!("{{\"type\":\"session\",\"cwd\":\"/x\"}}\n{line}\n");
            assert_eq!(
                format!("{:?}", read_str(&text).unwrap().workspace),
                want,
                "{line}"
            );
        }
        let other = format!(
            r#"{{"type":"session","cwd":"/x"}}
{{"type":"user/message","seq":1,"data":{source},"type":"tool/result","surfaceOp":"append"}}
"#
        );
        assert!(read_str(&other).unwrap().workspace.is_empty());
    }

    /// A repeated `source` or `data` reads as its last one, whether it is
    /// read in the walk that checks the line or again after it.
    #[test]
    fn the_last_source_wins() {
        let ws = r#"{"kind":"agent-instructions","baseline":true,"changes":[{"action":"set","scope":".","path":"AGENTS.md"}]}"#;
        let header = r#"{"type":"session","cwd":"/x"}"#;
        let read = |data: &str, type_first: bool| {
            let line = if type_first {
                format!(r#"{{"type":"user/message","seq":1,"data":{data},"surfaceOp":"append"}}"#)
            } else {
                format!(r#"{{"seq":1,"data":{data},"type":"user/message","surfaceOp":"append"}}"#)
            };
            read_str(&format!(
                "{header}
{line}
"
            ))
            .unwrap()
            .workspace
            .len()
        };
        for type_first in [true, false] {
            assert_eq!(read(&format!(r#"{{"source":{ws}}}"#), type_first), 1);
            assert_eq!(
                read(&format!(r#"{{"source":{ws},"source":"x"}}"#), type_first),
                0
            );
            assert_eq!(
                read(&format!(r#"{{"source":"x","source":{ws}}}"#), type_first),
                1
            );
            assert_eq!(
                read(&format!(r#"{{"source":{ws},"source":{{}}}}"#), type_first),
                0
            );
            assert_eq!(
                read(&format!(r#"{{"source":{ws}}},"data":{{}}"#), type_first),
                0
            );
            assert_eq!(
                read(&format!(r#"{{}},"data":{{"source":{ws}}}"#), type_first),
                1
            );
            assert_eq!(
                read(&format!(r#"{{"source":{ws}}},"data":[1]"#), type_first),
                0
            );
        }
    }

    /// A `request/header` that repeats the prompt before it, raw, is the
    /// same version, however many follow and wherever buffers split them.
    #[test]
    fn repeated_prompts_are_one_version() {
        let header = |seq: u64, system: &str| {
            format!(
                r#"{{"type":"request/header","seq":{seq},"data":{{"header":{{"system":"{system}","tools":"t{}"}}}}}}"#,
                seq % 3 / 2
            )
        };
        let mut lines = vec![r#"{"type":"session","cwd":"/x"}"#.to_owned()];
        for seq in 0..3000u64 {
            let system = match seq % 1000 {
                0..=399 => "one\\nprompt",
                400..=401 => "two \\ud800",
                _ => "one\\nprompt",
            };
            lines.push(header(seq, system));
            if seq == 2500 {
                lines.push(
                    r#"{"type":"system/message","seq":9999,"data":{"text":"three"}}"#.to_owned(),
                );
            }
        }
        let log = read_str(&(lines.join("\n") + "\n")).unwrap();
        let versions: Vec<(Option<u64>, &str)> = log
            .system
            .iter()
            .map(|v| (v.seq, v.text.as_str()))
            .collect();
        assert_eq!(
            versions,
            [
                (Some(0), "one\nprompt"),
                (Some(400), "two \u{FFFD}"),
                (Some(402), "one\nprompt"),
                (Some(1400), "two \u{FFFD}"),
                (Some(1402), "one\nprompt"),
                (Some(2400), "two \u{FFFD}"),
                (Some(2402), "one\nprompt"),
                (Some(9999), "three"),
                (Some(2501), "one\nprompt"),
            ]
        );
        assert!(
            log.warnings
                .iter()
                .any(|w| w.contains("(and in 5 more events)")),
            "{:?}",
            log.warnings
        );
    }

    /// Large headers that alternate, across buffers, parts and threads,
    /// read as each one alone reads: a header kept from before is its
    /// version again, with its lone surrogate; a header that only begins
    /// like a kept one, or holds one and then more, is read for itself.
    #[test]
    fn alternating_large_headers_read_as_each_alone() {
        let body = |tag: &str| format!("{tag} {}", "line\\n\\\"q\\\" ".repeat(150));
        let a = format!(r#"{{"system":"{}","tools":"t"}}"#, body("a"));
        let headers = [
            a.clone(),
            format!(r#"{{"system":"{}","tools":"t"}}"#, body("b")),
            format!(r#"{{"system":"{} \ud800","tools":"t"}}"#, body("c")),
            format!(r#"{{"tools":"u","system":"{}"}}"#, body("a")),
            format!(r#"{{"system":"{}","tools":"t","x":1}}"#, body("a")),
            format!(r#"{{"system":1,"tools":"{}"}}"#, body("d")),
            format!(r#"{{"system":"{}","tools":"t"}}"#, body("e")),
        ];
        let text = |tag: &str| format!("{tag} {}", "line\n\"q\" ".repeat(150));
        let texts = [
            Some(text("a")),
            Some(text("b")),
            Some(format!("{} \u{FFFD}", text("c"))),
            Some(text("a")),
            Some(text("a")),
            None,
            Some(text("e")),
        ];
        let line = |seq: usize, h: &str| {
            format!(r#"{{"type":"request/header","seq":{seq},"data":{{"header":{h}}}}}"#)
        };
        let mut lines = vec![r#"{"type":"session","cwd":"/x"}"#.to_owned()];
        let mut want: Vec<(Option<u64>, String)> = Vec::new();
        let mut pick = 7usize;
        for seq in 0..400 {
            pick = (pick * 31 + 11) % 97;
            let h = pick % headers.len();
            lines.push(line(seq, &headers[h]));
            let text = texts[h].clone().unwrap_or_default();
            if !text.is_empty() && want.last().is_none_or(|(_, t)| *t != text) {
                want.push((Some(seq as u64), text));
            }
        }
        let every = |text: &str| {
            let opts = ReadOptions::default();
            read_from_with(
                text.as_bytes(),
                "t.jsonl".into(),
                opts,
                Needs::EVERY_VERSION,
            )
        };
        let log = every(&(lines.join("\n") + "\n")).unwrap();
        let got: Vec<(Option<u64>, String)> =
            log.system.iter().map(|v| (v.seq, v.text.clone())).collect();
        assert!(want.len() > 100, "{}", want.len());
        assert_eq!(got, want);
        let lone = lines.iter().filter(|l| l.contains("\\ud800")).count();
        let said = log.warnings.iter().any(|w| {
            w.contains("lone surrogate")
                && w.contains(&format!("(and in {} more events)", lone - 1))
        });
        assert!(said, "{:?}", log.warnings);
        // A kept header followed by bytes that end no object is an error,
        // the one it is alone.
        let bad = format!(r#"{{"type":"request/header","seq":9,"data":{{"header":{a} x}}}}"#);
        let alone = every(&format!("{}\n{bad}\n", lines[0])).unwrap_err();
        lines.push(bad);
        let after = every(&(lines.join("\n") + "\n")).unwrap_err();
        assert_eq!(
            after
                .message
                .replacen(&format!(":{}:", lines.len()), ":2:", 1),
            alone.message
        );
    }

    /// A header too large to keep is read again each time, as it reads alone.
    #[test]
    fn headers_too_large_to_keep_read_each_time() {
        let big = format!("big {}", "x\\n".repeat(100_000));
        let line = |seq: u64, system: &str| {
            format!(
                r#"{{"type":"request/header","seq":{seq},"data":{{"header":{{"system":"{system}"}}}}}}"#
            )
        };
        let lines = [
            r#"{"type":"session","cwd":"/x"}"#.to_owned(),
            line(1, &big),
            line(2, "small"),
            line(3, &big),
        ];
        let opts = ReadOptions::default();
        let text = lines.join("\n") + "\n";
        let log = read_from_with(
            text.as_bytes(),
            "t.jsonl".into(),
            opts,
            Needs::EVERY_VERSION,
        );
        let got: Vec<(Option<u64>, usize)> = log
            .unwrap()
            .system
            .iter()
            .map(|v| (v.seq, v.text.len()))
            .collect();
        assert_eq!(got, [(Some(1), 200_004), (Some(2), 5), (Some(3), 200_004)]);
    }

    /// Snapshots are kept raw until the end unless a `\u` in them could be
    /// a lone surrogate to report: either way the latest one reads the same.
    #[test]
    fn the_latest_snapshot_reads_the_same_raw_or_decoded() {
        let snapshot = |seq: u64, text: &str| {
            format!(
                r#"{{"type":"user/message","seq":{seq},"data":{{"source":{{"kind":"plugin","form":"snapshot","sections":[{{"name":"a","text":"{text}"}},{{"name":1,"text":"x"}},{{"name":"b","text":"line\nnext \"q\""}}]}}}},"surfaceOp":"append"}}"#
            )
        };
        let header = r#"{"type":"session","cwd":"/x"}"#;
        for (first, latest, want, lone) in [
            ("plain", "also plain", "also plain", false),
            ("lone \\ud800", "plain", "plain", true),
            (
                "plain",
                "lone \\ud800 \\u00e9",
                "lone \u{FFFD} \u{e9}",
                true,
            ),
        ] {
            let text = format!(
                "{header}\n{}\n{}\n",
                snapshot(1, first),
                snapshot(2, latest)
            );
            let log = read_str(&text).unwrap();
            let got = log.latest_snapshot.unwrap();
            assert_eq!(log.snapshots, 2);
            assert_eq!((got.seq, got.line), (Some(2), 3));
            let sections: Vec<(&str, &str)> = got
                .sections
                .iter()
                .map(|s| (s.name.as_str(), s.text.as_str()))
                .collect();
            assert_eq!(sections, [("a", want), ("b", "line\nnext \"q\"")]);
            assert_eq!(log.warnings.len(), usize::from(lone), "{:?}", log.warnings);
        }
    }

    #[test]
    fn unparsed_lines_are_only_brace_checked() {
        let log = read_str("{\"type\":\"assistant/chunk\",\"seq\":\"x\"}\n").unwrap();
        assert_eq!(log.parsed, 0);
        let strict = read_from(
            "{\"type\":\"assistant/chunk\",\"seq\":\"x\"}\n".as_bytes(),
            "t".into(),
            ReadOptions {
                strict: true,
                ..ReadOptions::ALL
            },
        );
        assert!(strict.is_err());
    }
}

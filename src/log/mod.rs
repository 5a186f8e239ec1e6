//! Reading a dsh session log (SPEC 5): JSON Lines or one JSON array, streamed.
//!
//! A log can be gigabytes. Lines are split in large chunks; each chunk is
//! searched once per marker for the bytes that can make a line matter, and
//! only those lines are parsed (with a borrowing parse that keeps the fields
//! it needs as raw JSON). Every line's braces are still checked. The surface
//! is kept as runs of consecutive seqs, and only workspace events, system
//! prompt versions and the latest runtime snapshot are retained.

mod chunk;
pub(crate) mod event;
mod keep;
mod scan;
mod surface;

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use serde_json::value::RawValue;

use crate::baseline::Change;
use chunk::Outcome;
pub use event::Needs;
use event::{Op, Record};
use keep::Fold;
pub use keep::SHADOWED_CAP;

/// Bytes whose presence makes a JSONL line worth parsing (SPEC 5.1).
pub const MARKERS: [&str; 8] = [
    "\"surfaceOp\"",
    "\"user/message\"",
    "\"system/message\"",
    "\"request/header\"",
    "instructions\"",
    "\"session\"",
    "\\u",
    "\\/",
];

#[cfg(not(test))]
const CHUNK: usize = 4 << 20;
#[cfg(test)]
const CHUNK: usize = 16 << 10;

/// How to read a log.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// Parse every line, not only those that can matter.
    pub strict: bool,
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
    pub seq: u64,
    pub line: u64,
    pub kind: String,
    pub baseline: bool,
    pub identity: Option<String>,
    pub changes: Vec<Change>,
    /// Whether the event itself carried a surfaceOp.
    pub surfaced: bool,
    /// Whether it is on the final surface (filled in at the end).
    pub visible: bool,
}

pub use crate::log::surface::Surface;
use crate::prompt::{PromptOrigin, Snapshot, SystemVersion};

/// What a log holds that agentctx needs.
#[derive(Debug, Clone, Default)]
pub struct Log {
    /// The name errors use: the path as given, or `-`.
    pub name: String,
    pub header_cwd: Option<String>,
    pub lines: u64,
    pub records: u64,
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
    /// The kind of the last workspace event.
    pub last_kind: Option<String>,
    /// The identity of the last baseline event, visible or not.
    pub latest_baseline_identity: Option<String>,
    pub invalid_changes: u64,
    pub warnings: Vec<String>,
    pub system: Vec<SystemVersion>,
    /// System prompt versions counted but not kept (see [`PROMPT_VERSIONS_KEPT`]).
    pub system_not_kept: u64,
    pub latest_snapshot: Option<Snapshot>,
    pub snapshots: u64,
    /// The seq of the visible baseline event (index into `workspace`).
    /// Set only when a baseline is visible.
    pub visible_baseline: Option<usize>,
    /// How the log was stored (filled in by `crate::logfile`).
    pub storage: crate::logfile::Storage,
}

impl Log {
    /// Whether the log is legacy (no surfaceOp at all).
    pub fn is_legacy(&self) -> bool {
        !self.surfaced
    }

    pub fn visible_baseline_event(&self) -> Option<&WorkspaceEvent> {
        self.visible_baseline.map(|i| &self.workspace[i])
    }
}

/// Reads a log from `path` (`-` is stdin), everything a command can need.
pub fn read(path: &Path, opts: ReadOptions) -> Result<Log, LogError> {
    read_with(path, opts, Needs::ALL)
}

/// Reads from `path` only what `needs` asks for (`diff` needs no system
/// prompts, so it parses no `request/header` line): plain or dsh's zstd
/// container, told apart by its first bytes (see `crate::logfile`).
pub fn read_with(path: &Path, opts: ReadOptions, needs: Needs) -> Result<Log, LogError> {
    let opts = crate::logfile::Options {
        strict: opts.strict,
        count_packed: false,
        needs,
    };
    crate::logfile::read(path, opts)
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
    fn rewind_to(&mut self, offset: u64) -> io::Result<()> {
        let _ = offset;
        Err(io::Error::from(io::ErrorKind::Unsupported))
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
pub fn read_surface_from<R: LogSource>(
    reader: R,
    name: String,
    opts: ReadOptions,
    needs: Needs,
) -> Result<Log, LogError> {
    let mut scan = Scanner::new(name, needs, Keep::Bounded);
    scan_stream(reader, &mut scan, opts)?;
    Ok(scan.finish())
}

/// Pass 2: reads the same log again from `reader` and keeps in `log` (pass
/// 1's) the workspace events on its final surface and the latest shadowed
/// ones. Pass 1 said every warning; pass 2's are dropped.
pub fn fold_visible<R: LogSource>(
    reader: R,
    log: &mut Log,
    opts: ReadOptions,
) -> Result<(), LogError> {
    let fold = Fold::new(std::mem::take(&mut log.surface), log.is_legacy());
    let keep = Keep::Fold(Box::new(fold));
    let mut second = Scanner::new(log.name.clone(), Needs::STATE, keep);
    let read = scan_stream(reader, &mut second, opts);
    if let Keep::Fold(fold) = std::mem::replace(&mut second.keep, Keep::Count) {
        log.surface = fold.finish(&mut second.log);
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
pub fn read_from_with<R: LogSource>(
    reader: R,
    name: String,
    opts: ReadOptions,
    needs: Needs,
) -> Result<Log, LogError> {
    let mut scan = Scanner::new(name, needs, Keep::All);
    scan_stream(reader, &mut scan, opts)?;
    Ok(scan.finish())
}

/// Reads a whole stream into `scan`.
fn scan_stream<R: LogSource>(
    reader: R,
    scan: &mut Scanner,
    opts: ReadOptions,
) -> Result<(), LogError> {
    let mut reader = reader;
    let mut buf = vec![0u8; CHUNK];
    let mut len = 0usize;
    let mut eof = false;
    // Blank lines before the first event: counted, never held (a gigabyte
    // of them costs no memory).
    let mut blank_lines = 0u64;
    // Decide the form from the first non-whitespace byte.
    loop {
        let n = read_some(&mut reader, &mut buf[len..]).map_err(|e| scan.io(e))?;
        if n == 0 {
            eof = true;
            break;
        }
        len += n;
        // Only the new bytes: a pipe delivers small reads, and rescanning
        // a long whitespace run on each one would be quadratic.
        if buf[len - n..len].iter().any(|b| !is_ws(*b)) {
            break;
        }
        if let Some(i) = memchr::memrchr(b'\n', &buf[..len]) {
            blank_lines += memchr::memchr_iter(b'\n', &buf[..=i]).count() as u64;
            buf.copy_within(i + 1..len, 0);
            len -= i + 1;
        }
        if len == buf.len() {
            // A run of spaces with no newline: keep one.
            len = 1;
        }
    }
    let first = buf[..len].iter().find(|b| !is_ws(**b));
    if first == Some(&b'[') {
        let head = io::Cursor::new(buf[..len].to_vec());
        read_array(head.chain(reader), scan, blank_lines)
    } else {
        scan.log.lines = blank_lines;
        read_lines(reader, buf, len, eof, scan, opts)
    }
}

fn read_some<R: Read>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// A partial line this long that holds no marker yet is streamed (when the
/// source can rewind) instead of held: SPEC 5.1 bounds memory by a constant
/// plus the longest line that must be parsed.
#[cfg(not(test))]
const LONG_LINE: usize = 8 << 20;
#[cfg(test)]
const LONG_LINE: usize = 64 << 10;

/// The bytes kept between reads while streaming a line, so that a marker
/// split across two reads is still found.
const MARKER_OVERLAP: usize = 15;

fn read_lines<R: LogSource>(
    mut reader: R,
    mut buf: Vec<u8>,
    mut len: usize,
    mut eof: bool,
    scan: &mut Scanner,
    opts: ReadOptions,
) -> Result<(), LogError> {
    let markers = MarkerSearch::new(scan.needs.prompts);
    let mut hot: Vec<usize> = Vec::new();
    // `buf[..searched]` is known to hold no newline: searching only the new
    // bytes keeps a long line arriving in small pipe reads linear.
    let mut searched = 0;
    // The stream offset of `buf[0]`, always the start of a line.
    let mut offset: u64 = 0;
    // The line at `buf[0]` holds a marker: it must be held and parsed.
    let mut must_parse = opts.strict;
    let can_rewind = reader.can_rewind();
    loop {
        // Complete lines are those up to the last newline in the buffer.
        let complete = match memchr::memrchr(b'\n', &buf[searched..len]) {
            Some(i) => searched + i + 1,
            None if eof => len,
            None => 0,
        };
        if complete > 0 {
            let mode = chunk::Mode {
                strict: opts.strict,
                needs: scan.needs,
            };
            for part in chunk::read(&buf[..complete], &markers, mode) {
                scan.apply(part)?;
            }
            buf.copy_within(complete..len, 0);
            len -= complete;
            offset += complete as u64;
            must_parse = opts.strict;
        }
        searched = len;
        if eof {
            return Ok(());
        }
        // Once per long line (a pipe cannot rewind: there the line is held).
        if can_rewind && len >= LONG_LINE && !must_parse {
            markers.find(&buf[..len], &mut hot);
            if hot.is_empty() {
                match stream_line(&mut reader, &mut buf, &mut len, &markers, scan)? {
                    Streamed::Done { bytes } => offset += bytes,
                    Streamed::MustParse => {
                        scan.log.reread += 1;
                        reader.rewind_to(offset).map_err(|e| scan.io(e))?;
                        len = 0;
                        eof = false;
                        must_parse = true;
                    }
                    Streamed::Eof => return Ok(()),
                }
                searched = 0;
                continue;
            }
            must_parse = true;
        }
        if len == buf.len() {
            // A line is not an event once its first non-blank byte is not
            // `{`: reject it before holding more of it (`--log /dev/zero`).
            match buf[..len].iter().find(|b| !is_ws(**b)) {
                Some(b'{') => buf.resize(buf.len() * 2, 0),
                Some(_) => {
                    let at = At::Line(scan.log.lines + 1);
                    return Err(scan.err(at, None, "malformed line: not a JSON object"));
                }
                // Blanks cost nothing.
                None => {
                    len = 0;
                    searched = 0;
                }
            }
        }
        let n = read_some(&mut reader, &mut buf[len..]).map_err(|e| scan.io(e))?;
        if n == 0 {
            eof = true;
        }
        len += n;
    }
}

/// How streaming a long line ended.
enum Streamed {
    /// The line ended (its newline consumed) after `bytes` bytes; what follows
    /// it is at the front of the buffer.
    Done { bytes: u64 },
    /// A marker turned up: the line must be re-read whole and parsed.
    MustParse,
    /// The stream ended inside the line (a final line without a newline).
    Eof,
}

/// Reads on through a long line that holds no marker so far, keeping only
/// its first and last non-whitespace bytes (for the brace check) and a few
/// bytes of overlap, never the line itself.
fn stream_line<R: LogSource>(
    reader: &mut R,
    buf: &mut [u8],
    len: &mut usize,
    markers: &MarkerSearch,
    scan: &mut Scanner,
) -> Result<Streamed, LogError> {
    let non_ws = |bytes: &[u8]| bytes.iter().position(|b| !is_ws(*b));
    let mut first = non_ws(&buf[..*len]).map(|i| buf[i]);
    let mut last = buf[..*len].iter().rposition(|b| !is_ws(*b)).map(|i| buf[i]);
    let mut bytes = *len as u64;
    let mut hot = Vec::new();
    loop {
        let keep = MARKER_OVERLAP.min(*len);
        buf.copy_within(*len - keep..*len, 0);
        *len = keep;
        let n = read_some(reader, &mut buf[keep..]).map_err(|e| scan.io(e))?;
        if n == 0 {
            scan.streamed_line(first, last, false)?;
            return Ok(Streamed::Eof);
        }
        *len = keep + n;
        let newline = memchr::memchr(b'\n', &buf[keep..*len]).map(|i| keep + i);
        let end = newline.unwrap_or(*len);
        markers.find(&buf[..end], &mut hot);
        if !hot.is_empty() {
            return Ok(Streamed::MustParse);
        }
        if first.is_none() {
            first = non_ws(&buf[keep..end]).map(|i| buf[keep + i]);
        }
        if let Some(i) = buf[keep..end].iter().rposition(|b| !is_ws(*b)) {
            last = Some(buf[keep + i]);
        }
        match newline {
            Some(nl) => {
                bytes += (nl + 1 - keep) as u64;
                scan.streamed_line(first, last, true)?;
                buf.copy_within(nl + 1..*len, 0);
                *len -= nl + 1;
                return Ok(Streamed::Done { bytes });
            }
            None => bytes += n as u64,
        }
    }
}

/// Finds where the SPEC 5.1 markers occur in a buffer of whole lines.
///
/// One SIMD multi-pattern pass (Teddy, via `aho_corasick::packed`) looks for
/// a distinctive tail of each quoted marker, every hit is completed against
/// the marker's full spelling, and one `memchr` pass finds the backslashes of
/// `\u` and `\/`. That is two passes over the bytes instead of eight.
#[derive(Debug)]
pub(crate) struct MarkerSearch {
    words: Option<aho_corasick::packed::Searcher>,
    /// Whether `"system/message"` and `"request/header"` mark a line (only
    /// when system prompts are needed).
    prompts: bool,
    /// The markers that count, for a line's first and last bytes.
    quick: Vec<memchr::memmem::Finder<'static>>,
}

/// Each searched tail and the prefixes that complete it into a marker.
const TAILS: [(&str, &[&str]); 5] = [
    ("urfaceOp\"", &["\"s"]),
    ("/message\"", &["\"user", "\"system"]),
    ("/header\"", &["\"request"]),
    ("tructions\"", &["ins"]),
    ("ssion\"", &["\"se"]),
];

impl MarkerSearch {
    fn new(prompts: bool) -> Self {
        let words = aho_corasick::packed::Config::new()
            .builder()
            .extend(TAILS.iter().map(|(tail, _)| tail))
            .build();
        let quick = MARKERS
            .iter()
            .filter(|m| prompts || !matches!(**m, "\"system/message\"" | "\"request/header\""))
            .map(|m| memchr::memmem::Finder::new(m.as_bytes()))
            .collect();
        MarkerSearch {
            words,
            prompts,
            quick,
        }
    }

    /// Fills `out`, ascending, with where markers occur in `hay` (which
    /// starts at a line boundary, so no marker begins before it): at least
    /// one position in every line that holds a marker, and at most one per
    /// line and pass, so a line of a million `\/` costs no memory.
    /// Whether a line's first or last 64 bytes hold a marker (most surface
    /// and user message lines show theirs there: `{"type":"user/message"`,
    /// `"surfaceOp":"append"}`), which spares searching the whole line.
    pub(crate) fn quick_hit(&self, line: &[u8]) -> bool {
        const WINDOW: usize = 64;
        let head = &line[..line.len().min(WINDOW)];
        let tail = &line[line.len().saturating_sub(WINDOW)..];
        self.quick
            .iter()
            .any(|f| f.find(head).is_some() || f.find(tail).is_some())
    }

    /// Whether one line (no newline in it) holds a marker.
    #[cfg(test)]
    fn line_matters(&self, line: &[u8]) -> bool {
        let mut hits = Vec::new();
        self.find(line, &mut hits);
        self.quick_hit(line) || !hits.is_empty()
    }

    pub(crate) fn find(&self, hay: &[u8], out: &mut Vec<usize>) {
        out.clear();
        // Each marked line: where its marker is and where the next line starts.
        let mut marked: Vec<(usize, usize)> = Vec::new();
        let next_line =
            |from: usize| memchr::memchr(b'\n', &hay[from..]).map_or(hay.len(), |i| from + i + 1);
        let completes = |at: usize, tail: usize| {
            let before = &hay[..at];
            TAILS[tail].1.iter().any(|p| {
                (self.prompts || !matches!(*p, "\"system" | "\"request"))
                    && before.ends_with(p.as_bytes())
            })
        };
        match &self.words {
            // The tails cannot overlap one another, so searching on from
            // one byte past a hit misses none.
            Some(words) => {
                let mut at = 0;
                while let Some(m) = words.find_in(hay, aho_corasick::Span::from(at..hay.len())) {
                    if completes(m.start(), m.pattern().as_usize()) {
                        at = next_line(m.start());
                        marked.push((m.start(), at));
                    } else {
                        at = m.start() + 1;
                    }
                }
            }
            None => {
                for (tail, (word, _)) in TAILS.iter().enumerate() {
                    let finder = memchr::memmem::Finder::new(word.as_bytes());
                    let mut at = 0;
                    while let Some(i) = finder.find(&hay[at..]) {
                        if completes(at + i, tail) {
                            let hit = at + i;
                            at = next_line(hit);
                            marked.push((hit, at));
                        } else {
                            at += i + 1;
                        }
                    }
                }
            }
        }
        // Backslashes, in lines not marked already: escapes such as `\n`
        // and `\"` are common in tool output, and each costs a call.
        marked.sort_unstable();
        out.extend(marked.iter().map(|&(hit, _)| hit));
        let mut m = 0;
        let mut at = 0;
        while let Some(i) = memchr::memchr(b'\\', &hay[at..]) {
            let p = at + i;
            while m < marked.len() && marked[m].1 <= p {
                m += 1;
            }
            if let Some(&(hit, end)) = marked.get(m) {
                // The next marked line holds p when no newline lies between.
                if hit <= p || memchr::memchr(b'\n', &hay[p..hit]).is_none() {
                    at = end;
                    continue;
                }
            }
            if matches!(hay.get(p + 1), Some(b'u' | b'/')) {
                out.push(p);
                at = next_line(p);
            } else {
                at = p + 1;
            }
        }
        out.sort_unstable();
    }
}

fn read_array<R: Read>(reader: R, scan: &mut Scanner, blank_lines: u64) -> Result<(), LogError> {
    use serde::de::{Deserializer as _, SeqAccess, Visitor};

    struct Each<'s> {
        scan: &'s mut Scanner,
        failure: Option<LogError>,
    }
    impl<'de> Visitor<'de> for &mut Each<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON array of events")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut index = 0u64;
            while let Some(raw) = seq.next_element::<Box<RawValue>>()? {
                index += 1;
                if let Err(e) = self.scan.array_element(raw.get(), index) {
                    self.failure = Some(e);
                    return Err(serde::de::Error::custom("stopped"));
                }
            }
            Ok(())
        }
    }

    let name = scan.name.clone();
    let mut de = serde_json::Deserializer::from_reader(BufReader::with_capacity(CHUNK, reader));
    let mut each = Each {
        scan,
        failure: None,
    };
    let result = (&mut de).deserialize_seq(&mut each).and_then(|()| de.end());
    if let Some(failure) = each.failure {
        return Err(failure);
    }
    result.map_err(|e| LogError {
        line: None,
        message: format!(
            "{name}:{}:{}: malformed JSON array: {}",
            e.line() as u64 + blank_lines,
            e.column(),
            strip_position(&e)
        ),
    })
}

/// Checks that `text` is one JSON object, with no depth limit (values are
/// skipped iteratively) and `serde_json`'s messages ("trailing comma").
pub(crate) fn check_syntax(text: &str) -> Result<(), serde_json::Error> {
    use serde::de::{Deserializer as _, IgnoredAny, MapAccess, Visitor};
    struct Object;
    impl<'de> Visitor<'de> for Object {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(())
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_map(Object)?;
    de.end()
}

pub(crate) fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// Where a record came from, for messages.
#[derive(Clone, Copy)]
enum At {
    Line(u64),
    Element(u64),
}

/// What a read keeps of the workspace events.
enum Keep {
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
    Fold(Box<Fold>),
}

struct Scanner {
    log: Log,
    needs: Needs,
    keep: Keep,
    /// The first line that held a lone surrogate, and how many did.
    lone: Option<(String, u64)>,
    pending_final_warning: Option<String>,
    /// Messages of a workspace kind that are not workspace events (no
    /// changes array, no seq): the first one's place and why, and how many.
    not_workspace: Option<(String, u64)>,
}

impl std::ops::Deref for Scanner {
    type Target = Log;
    fn deref(&self) -> &Log {
        &self.log
    }
}

impl Scanner {
    fn new(name: String, needs: Needs, keep: Keep) -> Self {
        Scanner {
            log: Log {
                name,
                ..Log::default()
            },
            needs,
            keep,
            lone: None,
            pending_final_warning: None,
            not_workspace: None,
        }
    }

    fn io(&self, e: io::Error) -> LogError {
        LogError {
            message: format!("{}: {e}", self.log.name),
            line: None,
        }
    }

    fn err(&self, at: At, col: Option<usize>, msg: &str) -> LogError {
        let name = &self.log.name;
        let message = match (at, col) {
            (At::Line(l), Some(c)) => format!("{name}:{l}:{c}: {msg}"),
            (At::Line(l), None) => format!("{name}:{l}: {msg}"),
            (At::Element(i), _) => format!("{name}: event {i} of the array: {msg}"),
        };
        let line = match at {
            At::Line(l) => Some(l),
            At::Element(_) => None,
        };
        LogError { message, line }
    }

    /// Counts a message of a workspace kind that is not a workspace event
    /// (SPEC 5.2), keeping where the first one was and why.
    fn not_workspace(&mut self, at: At, kind: &str, why: &str) {
        match &mut self.not_workspace {
            Some((_, n)) => *n += 1,
            None => {
                let first = self
                    .err(
                        at,
                        None,
                        &format!("a message of kind {kind} {why} is not a workspace event"),
                    )
                    .message;
                self.not_workspace = Some((first, 1));
            }
        }
    }

    /// Applies one part of a buffer of lines, in log order.
    fn apply(&mut self, part: chunk::Part) -> Result<(), LogError> {
        let (lines, records) = (self.log.lines, self.log.records);
        for item in part.items {
            let line_no = lines + item.line + 1;
            self.log.lines = line_no;
            self.log.records = records + item.records_before;
            let at = At::Line(line_no);
            let (col, msg) = match item.outcome {
                Outcome::Event(record) => {
                    self.log.records += 1;
                    self.event(record, at)?;
                    continue;
                }
                Outcome::NotObject => (None, "malformed line: not a JSON object".to_owned()),
                Outcome::NotUtf8 => {
                    self.log.records += 1;
                    (None, "malformed line: not valid UTF-8".to_owned())
                }
                Outcome::Malformed(col, msg) => {
                    self.log.records += 1;
                    (col, msg)
                }
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
        Ok(())
    }

    /// A line that was streamed, not held: it holds no marker, so only its
    /// braces are checked, from its first and last non-whitespace bytes.
    fn streamed_line(
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
                return Err(self.err(At::Line(line_no), None, "malformed line: not a JSON object"));
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

    fn array_element(&mut self, raw: &str, index: u64) -> Result<(), LogError> {
        self.log.records += 1;
        self.log.parsed += 1;
        let at = At::Element(index);
        if !scan::is_object(raw.as_bytes()) {
            return Err(self.err(at, None, "an event must be a JSON object"));
        }
        // The array's deserializer checked the element's syntax.
        match event::extract(raw.as_bytes(), self.needs) {
            Ok(record) => self.event(record, at),
            Err(_) => Err(self.err(at, None, "malformed event: a value does not end")),
        }
    }

    fn event(&mut self, r: Record, at: At) -> Result<(), LogError> {
        let first = self.log.records == 1;
        let line = match at {
            At::Line(l) | At::Element(l) => l,
        };
        if r.lone_surrogate {
            match &mut self.lone {
                Some((_, n)) => *n += 1,
                None => {
                    let w = self.err(at, None, "a lone surrogate escape (such as \\ud800) is read as U+FFFD, as JSON.parse reads it").message;
                    self.lone = Some((w, 1));
                }
            }
        }
        let extra = r.extra.map(|e| *e).unwrap_or_default();
        if let (true, Some(cwd)) = (first, &extra.session_cwd) {
            self.log.header_cwd = cwd.clone().and_then(Result::ok);
            let why = match cwd {
                Some(Ok(_)) => None,
                Some(Err(())) => Some(
                    "the session header's cwd holds a lone surrogate escape, so it names no path; the process cwd is used (pass --cwd)",
                ),
                None => Some("the session header has no string cwd"),
            };
            if let Some(why) = why {
                let w = self.err(at, None, why);
                self.log.warnings.push(w.message);
            }
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
            Some(_) if matches!(self.keep, Keep::Fold(_)) => true,
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
            self.log.latest_snapshot = Some(Snapshot {
                seq,
                line,
                sections,
            });
        }
        if let Some(nw) = extra.not_workspace {
            self.not_workspace(at, &nw.kind, nw.why);
        }
        if let (Some(ws), Some(seq)) = (extra.workspace, seq) {
            self.workspace(ws, seq, line, surfaced);
        }
        Ok(())
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
        self.log.invalid_changes += ws.invalid_changes;
        if let Some(last) = ws.changes.last() {
            self.log.last_change_scope = Some(last.scope.clone());
        }
        if ws.baseline {
            if let Some(id) = &ws.identity {
                self.log.latest_baseline_identity = Some(id.clone());
            }
        }
        self.log.any_baseline |= ws.baseline;
        self.log.workspace_events += 1;
        if matches!(self.keep, Keep::Count) {
            self.log.last_kind = Some(ws.kind);
            return;
        }
        self.log.last_kind = Some(ws.kind.clone());
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
            Keep::Fold(fold) => fold.keep(&mut self.log, ev),
            Keep::Bounded if self.log.workspace.len() >= HELD_EVENTS => {
                self.log.workspace = Vec::new();
                self.log.needs_second_pass = true;
                self.keep = Keep::Count;
            }
            _ => self.log.workspace.push(ev),
        }
    }

    fn finish(mut self) -> Log {
        if self.log.records == 0 {
            self.log.warnings.push(format!(
                "{}: the log holds no events, not even a session header",
                self.log.name
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

    use proptest::prelude::*;

    proptest! {
        /// The grouped search marks exactly the lines that contain a marker.
        #[test]
        fn marker_search_finds_exactly_the_marker_lines(
            lines in proptest::collection::vec(
                proptest::collection::vec(
                    prop_oneof![
                        proptest::sample::select(MARKERS.to_vec()),
                        proptest::sample::select(vec![
                            "\\", "u", "/", "\"", "s", "i", "urfaceOp\"", "/message\"", "session\"", "ssion\"", "tructions\"",
                            "instructions\"", "/header\"", "user", "system", "request", "x y",
                        ]),
                    ],
                    0..8,
                ).prop_map(|parts| parts.concat()),
                1..12,
            ),
            pad in 0usize..2,
        ) {
            // pad > 0 makes the buffer large (Teddy scans in blocks).
            let filler = "z".repeat(70_000 * pad);
            let mut all = lines.clone();
            all.push(filler);
            let text = all.join("\n");
            let mut hits = Vec::new();
            let search = MarkerSearch::new(true);
            search.find(text.as_bytes(), &mut hits);
            for line in &all {
                let want = MARKERS.iter().any(|m| line.contains(m));
                prop_assert_eq!(search.line_matters(line.as_bytes()), want, "line {:?}", line);
            }
            let mut start = 0;
            for line in &all {
                let end = start + line.len();
                let found = hits.iter().any(|&h| h >= start && h < end);
                let want = MARKERS.iter().any(|m| line.contains(m));
                prop_assert_eq!(found, want, "line {:?}", line);
                start = end + 1;
            }
            prop_assert!(hits.windows(2).all(|w| w[0] <= w[1]));
        }
    }

    /// A rewindable reader that hands out at most `step` bytes per read, so
    /// that markers and newlines fall across read boundaries.
    struct Trickle {
        data: Vec<u8>,
        pos: usize,
        step: usize,
    }

    impl Read for Trickle {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(out.len()).min(self.data.len() - self.pos);
            out[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    impl LogSource for Trickle {
        fn can_rewind(&self) -> bool {
            true
        }
        fn rewind_to(&mut self, offset: u64) -> io::Result<()> {
            self.pos = offset as usize;
            Ok(())
        }
    }

    fn trickle(text: &str, step: usize, strict: bool) -> Result<Log, LogError> {
        let reader = Trickle {
            data: text.as_bytes().to_vec(),
            pos: 0,
            step,
        };
        read_from(reader, "t.jsonl".into(), ReadOptions { strict })
    }

    fn long_chunk(text_len: usize) -> String {
        format!(
            r#"{{"type":"assistant/chunk","seq":1,"data":{{"text":"{}"}}}}"#,
            "y".repeat(text_len)
        )
    }

    const BASELINE: &str = r#"{"type":"user/message","seq":2,"data":{"source":{"kind":"workspace-instructions","form":"instructions","baseline":true,"baselineIdentity":"{}","changes":[{"action":"set","scope":".","path":"AGENTS.md","digest":"d"}]}},"surfaceOp":"append"}"#;

    /// Lines longer than LONG_LINE are streamed when they hold no marker, and
    /// re-read whole when a marker turns up late; either way the log reads as
    /// a full parse reads it.
    #[test]
    fn long_lines_stream_and_decide_as_a_full_parse() {
        let header = r#"{"type":"session","cwd":"/x"}"#;
        let late_marker = format!(
            r#"{{"pad":"{}","type":"user/message","seq":3,"data":{{"source":{{"kind":"workspace-instructions","changes":[{{"action":"remove","scope":".","path":"AGENTS.md"}}]}}}},"surfaceOp":"append"}}"#,
            "z".repeat(LONG_LINE + 100)
        );
        let text = format!(
            "{header}\n{}\n{BASELINE}\n{late_marker}\n{}\n",
            long_chunk(LONG_LINE * 2),
            long_chunk(LONG_LINE * 3)
        );
        let full = trickle(&text, 1 << 20, true).unwrap();
        for step in [CHUNK, 4099, 1 << 20] {
            let fast = trickle(&text, step, false).unwrap();
            assert_eq!((fast.streamed, fast.reread), (2, 1), "step {step}");
            assert_eq!(fast.lines, 5, "step {step}");
            assert_eq!(fast.records, 5, "step {step}");
            assert_eq!(fast.parsed, 3, "step {step}");
            assert_eq!(
                format!("{:?}", fast.workspace),
                format!("{:?}", full.workspace)
            );
            assert_eq!(fast.workspace.len(), 2);
            assert_eq!(fast.visible_baseline, Some(0));
        }
    }

    #[test]
    fn a_long_malformed_line_is_named_and_a_long_final_one_is_a_warning() {
        let bad = format!("{}x", long_chunk(LONG_LINE + 10));
        let text = format!("{BASELINE}\n{bad}\n{BASELINE}\n");
        let err = trickle(&text, 1 << 20, false).unwrap_err();
        assert_eq!(err.message, "t.jsonl:2: malformed line: not a JSON object");
        let text = format!("{BASELINE}\n{bad}");
        let log = trickle(&text, 1 << 20, false).unwrap();
        assert_eq!(
            log.warnings,
            vec!["t.jsonl:2: ignoring a final line without a newline that is not valid JSON (a writer stopped mid-line?)".to_owned()]
        );
        // Whitespace around a long line does not hide its braces.
        let text = format!("  {}  \n", long_chunk(LONG_LINE + 10));
        let log = trickle(&text, 4099, false).unwrap();
        assert_eq!((log.records, log.streamed), (1, 1));
        // A source that cannot rewind (a pipe) holds the line instead.
        let log = read_from(text.as_bytes(), "t".into(), ReadOptions::default()).unwrap();
        assert_eq!((log.records, log.streamed), (1, 0));
    }

    #[test]
    fn truncated_final_line_is_a_warning() {
        let log = read_str("{\"type\":\"session\",\"cwd\":\"/x\"}\n{\"type\":\"user/mess").unwrap();
        assert_eq!(log.header_cwd.as_deref(), Some("/x"));
        assert_eq!(log.warnings.len(), 1);
    }

    #[test]
    fn unparsed_lines_are_only_brace_checked() {
        let log = read_str("{\"type\":\"assistant/chunk\",\"seq\":\"x\"}\n").unwrap();
        assert_eq!(log.parsed, 0);
        let strict = read_from(
            "{\"type\":\"assistant/chunk\",\"seq\":\"x\"}\n".as_bytes(),
            "t".into(),
            ReadOptions { strict: true },
        );
        assert!(strict.is_err());
    }
}

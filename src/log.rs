//! Reading a dsh session log (SPEC 5): JSON Lines or one JSON array, streamed.
//!
//! A log can be gigabytes. Lines are split in large chunks; each chunk is
//! searched once per marker for the bytes that can make a line matter, and
//! only those lines are parsed (with a borrowing parse that keeps the fields
//! it needs as raw JSON). Every line's braces are still checked. The surface
//! is kept as runs of consecutive seqs, and only workspace events, system
//! prompt versions and the latest runtime snapshot are retained.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::baseline::{Action, Change};

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
const CHUNK: usize = 1 << 20;
#[cfg(test)]
const CHUNK: usize = 16 << 10;

/// How to read a log.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// Parse every line, not only those that can matter.
    pub strict: bool,
}

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

/// Which kind of event carried a system prompt (SPEC 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum PromptOrigin {
    #[serde(rename = "system/message")]
    SystemMessage,
    #[serde(rename = "request/header")]
    RequestHeader,
}

/// One system prompt version (SPEC 8): a run of consecutive events that
/// carried the same text, kept once with the seq and line of its first event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemVersion {
    pub seq: Option<u64>,
    pub line: u64,
    /// The kind of the first event of the run.
    pub origin: PromptOrigin,
    /// Whether any `system/message` event of the run carried this text (the
    /// earlier-format fold of seed 001 reads only system messages).
    pub system_message: bool,
    pub text: String,
}

/// A runtime-context snapshot section.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Section {
    pub name: String,
    pub text: String,
}

/// A runtime-context snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub seq: Option<u64>,
    pub line: u64,
    pub sections: Vec<Section>,
}

/// The surface: an ordered list of seqs kept as runs of consecutive values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Surface {
    runs: Vec<(u64, u64)>,
    max_seq: Option<u64>,
}

impl Surface {
    /// The position of `seq` (run index, offset), if it is on the surface.
    pub fn position(&self, seq: u64) -> Option<(usize, u64)> {
        if self.max_seq.is_none_or(|m| seq > m) {
            return None;
        }
        self.runs
            .iter()
            .position(|&(lo, hi)| lo <= seq && seq <= hi)
            .map(|i| (i, seq - self.runs[i].0))
    }

    fn note_max(&mut self, seq: u64) {
        self.max_seq = Some(self.max_seq.map_or(seq, |m| m.max(seq)));
    }

    pub fn append(&mut self, seq: u64) -> Result<(), String> {
        if self.position(seq).is_some() {
            return Err(format!("seq {seq} is already on the surface"));
        }
        match self.runs.last_mut() {
            Some((_, hi)) if hi.checked_add(1) == Some(seq) => *hi = seq,
            _ => self.runs.push((seq, seq)),
        }
        self.note_max(seq);
        Ok(())
    }

    pub fn replace(&mut self, start: u64, end: u64, seq: u64) -> Result<(), String> {
        let a = self
            .position(start)
            .ok_or_else(|| format!("replace start {start} is not on the surface"))?;
        let b = self
            .position(end)
            .ok_or_else(|| format!("replace end {end} is not on the surface"))?;
        if a > b {
            return Err(format!("replace start {start} lies after its end {end}"));
        }
        let (i, j) = (a.0, b.0);
        let (lo_i, _) = self.runs[i];
        let (_, hi_j) = self.runs[j];
        let mut middle = Vec::with_capacity(3);
        if start > lo_i {
            middle.push((lo_i, start - 1));
        }
        middle.push((seq, seq));
        if end < hi_j {
            middle.push((end + 1, hi_j));
        }
        self.runs.splice(i..=j, middle);
        // The new seq must not already stand elsewhere on the surface.
        let seq_at = i + usize::from(start > lo_i);
        let clash = self
            .runs
            .iter()
            .enumerate()
            .any(|(k, &(lo, hi))| k != seq_at && lo <= seq && seq <= hi);
        if clash {
            return Err(format!("seq {seq} is already on the surface"));
        }
        self.note_max(seq);
        Ok(())
    }

    /// How many runs the surface holds (its memory).
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// The number of entries on the surface.
    pub fn len(&self) -> u64 {
        self.runs.iter().map(|(lo, hi)| hi - lo + 1).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// A sorted index for membership tests after the scan.
    fn index(&self) -> Vec<(u64, u64, usize)> {
        let mut idx: Vec<(u64, u64, usize)> = self
            .runs
            .iter()
            .enumerate()
            .map(|(i, &(lo, hi))| (lo, hi, i))
            .collect();
        idx.sort_unstable();
        idx
    }
}

fn lookup(index: &[(u64, u64, usize)], seq: u64) -> Option<(usize, u64)> {
    let k = index.partition_point(|&(lo, _, _)| lo <= seq);
    let &(lo, hi, run) = index.get(k.checked_sub(1)?)?;
    (seq <= hi).then_some((run, seq - lo))
}

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
    pub workspace: Vec<WorkspaceEvent>,
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
    pub latest_snapshot: Option<Snapshot>,
    pub snapshots: u64,
    /// The seq of the visible baseline event (index into `workspace`).
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

/// Reads a log from `path` (`-` is stdin): plain or dsh's zstd container,
/// told apart by its first bytes (see `crate::logfile`).
pub fn read(path: &Path, opts: ReadOptions) -> Result<Log, LogError> {
    let opts = crate::logfile::Options {
        strict: opts.strict,
        count_packed: false,
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

/// Reads a log from any byte stream.
pub fn read_from<R: LogSource>(
    reader: R,
    name: String,
    opts: ReadOptions,
) -> Result<Log, LogError> {
    let mut scan = Scanner::new(name);
    let mut reader = reader;
    let mut buf = vec![0u8; CHUNK];
    let mut len = 0usize;
    let mut eof = false;
    // Decide the form from the first non-whitespace byte.
    loop {
        if len == buf.len() {
            buf.resize(buf.len() * 2, 0);
        }
        let n = read_some(&mut reader, &mut buf[len..]).map_err(|e| scan.io(e))?;
        if n == 0 {
            eof = true;
            break;
        }
        len += n;
        // Only the new bytes: a pipe delivers small reads, and rescanning
        // a long whitespace run on each one would be quadratic.
        if buf[len - n..len].iter().any(|b| !b.is_ascii_whitespace()) {
            break;
        }
    }
    let first = buf[..len].iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'[') {
        let head = io::Cursor::new(buf[..len].to_vec());
        read_array(head.chain(reader), &mut scan)?;
    } else {
        read_lines(reader, buf, len, eof, &mut scan, opts)?;
    }
    Ok(scan.finish())
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

fn trim(line: &[u8]) -> &[u8] {
    let start = line.iter().position(|b| !is_ws(*b)).unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|b| !is_ws(*b))
        .map_or(start, |e| e + 1);
    &line[start..end]
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
    let markers = MarkerSearch::new();
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
            let region = &buf[..complete];
            hot.clear();
            if !opts.strict {
                markers.find(region, &mut hot);
            }
            let mut start = 0;
            let mut h = 0;
            while start < complete {
                let (end, newline) = match memchr::memchr(b'\n', &region[start..]) {
                    Some(i) => (start + i, true),
                    None => (complete, false),
                };
                while h < hot.len() && hot[h] < start {
                    h += 1;
                }
                let matters = opts.strict || (h < hot.len() && hot[h] < end);
                scan.line(&region[start..end], newline, matters)?;
                start = end + 1;
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
            buf.resize(buf.len() * 2, 0);
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
struct MarkerSearch {
    words: Option<aho_corasick::packed::Searcher>,
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
    fn new() -> Self {
        let words = aho_corasick::packed::Config::new()
            .builder()
            .extend(TAILS.iter().map(|(tail, _)| tail))
            .build();
        MarkerSearch { words }
    }

    /// Fills `out`, ascending, with where markers occur in `hay` (which
    /// starts at a line boundary, so no marker begins before it): at least
    /// one position in every line that holds a marker, and at most one per
    /// line and pass, so a line of a million `\/` costs no memory.
    fn find(&self, hay: &[u8], out: &mut Vec<usize>) {
        out.clear();
        let next_line =
            |from: usize| memchr::memchr(b'\n', &hay[from..]).map_or(hay.len(), |i| from + i + 1);
        let completes = |at: usize, tail: usize| {
            let before = &hay[..at];
            TAILS[tail].1.iter().any(|p| before.ends_with(p.as_bytes()))
        };
        match &self.words {
            // The tails cannot overlap one another, so searching on from
            // one byte past a hit misses none.
            Some(words) => {
                let mut at = 0;
                while let Some(m) = words.find_in(hay, aho_corasick::Span::from(at..hay.len())) {
                    if completes(m.start(), m.pattern().as_usize()) {
                        out.push(m.start());
                        at = next_line(m.start());
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
                            out.push(at + i);
                            at = next_line(at + i);
                        } else {
                            at += i + 1;
                        }
                    }
                }
            }
        }
        let mut at = 0;
        while let Some(i) = memchr::memchr(b'\\', &hay[at..]) {
            if matches!(hay.get(at + i + 1), Some(b'u' | b'/')) {
                out.push(at + i);
                at = next_line(at + i);
            } else {
                at += i + 1;
            }
        }
        out.sort_unstable();
    }
}

fn read_array<R: Read>(reader: R, scan: &mut Scanner) -> Result<(), LogError> {
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
            e.line(),
            e.column(),
            strip_position(&e)
        ),
    })
}

fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

#[derive(Deserialize)]
struct RawEvent<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Option<&'a RawValue>,
    #[serde(default, borrow)]
    seq: Option<&'a RawValue>,
    #[serde(default, borrow)]
    data: Option<&'a RawValue>,
    #[serde(rename = "surfaceOp", default, borrow)]
    surface_op: Option<&'a RawValue>,
    #[serde(default, borrow)]
    cwd: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct RawData<'a> {
    #[serde(default, borrow)]
    source: Option<&'a RawValue>,
    #[serde(default, borrow)]
    content: Option<&'a RawValue>,
    #[serde(default, borrow)]
    text: Option<&'a RawValue>,
    #[serde(default, borrow)]
    header: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct RawHeader<'a> {
    #[serde(default, borrow)]
    system: Option<&'a RawValue>,
}

fn as_str(raw: Option<&RawValue>) -> Option<Cow<'_, str>> {
    serde_json::from_str::<Cow<'_, str>>(raw?.get()).ok()
}

fn object<'a, T: Deserialize<'a>>(raw: Option<&'a RawValue>) -> Option<T> {
    let raw = raw?;
    if !raw.get().starts_with('{') {
        return None;
    }
    serde_json::from_str(raw.get()).ok()
}

/// Where a record came from, for messages.
#[derive(Clone, Copy)]
enum At {
    Line(u64),
    Element(u64),
}

struct Scanner {
    log: Log,
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
    fn new(name: String) -> Self {
        Scanner {
            log: Log {
                name,
                ..Log::default()
            },
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

    /// One JSONL line (without its newline).
    fn line(&mut self, raw: &[u8], newline: bool, matters: bool) -> Result<(), LogError> {
        self.log.lines += 1;
        let line_no = self.log.lines;
        let text = trim(raw);
        if text.is_empty() {
            return Ok(());
        }
        let at = At::Line(line_no);
        let malformed = |scan: &mut Scanner, col: Option<usize>, msg: String| {
            if newline {
                Err(scan.err(at, col, &msg))
            } else {
                scan.pending_final_warning = Some(format!(
                    "{}:{line_no}: ignoring a final line without a newline that is not valid JSON (a writer stopped mid-line?)",
                    scan.log.name
                ));
                Ok(())
            }
        };
        if text[0] != b'{' || text[text.len() - 1] != b'}' {
            return malformed(self, None, "malformed line: not a JSON object".to_owned());
        }
        self.log.records += 1;
        if !matters {
            return Ok(());
        }
        self.log.parsed += 1;
        let Ok(text) = std::str::from_utf8(text) else {
            return malformed(self, None, "malformed line: not valid UTF-8".to_owned());
        };
        match serde_json::from_str::<RawEvent<'_>>(text) {
            Ok(event) => self.event(event, at),
            Err(e) => {
                let col = e.column() + (raw.len() - raw.iter().skip_while(|b| is_ws(**b)).count());
                malformed(
                    self,
                    Some(col),
                    format!("malformed JSON: {}", strip_position(&e)),
                )
            }
        }
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
        match serde_json::from_str::<RawEvent<'_>>(raw) {
            Ok(event) => self.event(event, at),
            Err(e) if raw.trim_start().starts_with('{') => Err(self.err(
                at,
                None,
                &format!("malformed event: {}", strip_position(&e)),
            )),
            Err(_) => Err(self.err(at, None, "an event must be a JSON object")),
        }
    }

    fn event(&mut self, event: RawEvent<'_>, at: At) -> Result<(), LogError> {
        let first = self.log.records == 1;
        let kind = as_str(event.kind);
        let line = match at {
            At::Line(l) => l,
            At::Element(i) => i,
        };
        if first && kind.as_deref() == Some("session") {
            self.log.header_cwd = as_str(event.cwd).map(Cow::into_owned);
            if self.log.header_cwd.is_none() {
                let w = self.err(at, None, "the session header has no string cwd");
                self.log.warnings.push(w.message);
            }
            return Ok(());
        }
        let seq = match event.seq {
            None => None,
            Some(raw) => match serde_json::from_str::<u64>(raw.get()) {
                Ok(s) => Some(s),
                Err(_) => {
                    return Err(self.err(
                        at,
                        None,
                        &format!(
                            "seq must be a non-negative integer, got {}",
                            shown(raw.get())
                        ),
                    ));
                }
            },
        };
        let surfaced = match event.surface_op {
            None => false,
            Some(op) => {
                self.log.surfaced = true;
                let Some(seq) = seq else {
                    return Err(self.err(at, None, "an event with a surfaceOp needs a seq"));
                };
                self.surface_op(op, seq)
                    .map_err(|m| self.err(at, None, &m))?;
                true
            }
        };
        match kind.as_deref() {
            Some("user/message") => self.user_message(event.data, seq, at, surfaced),
            Some("system/message") => {
                let data = object::<RawData<'_>>(event.data);
                if let Some(text) = data.and_then(|d| message_text(d.content, d.text)) {
                    self.system_version(seq, line, PromptOrigin::SystemMessage, text);
                }
            }
            Some("request/header") => {
                let data = object::<RawData<'_>>(event.data);
                let header = data.and_then(|d| object::<RawHeader<'_>>(d.header));
                if let Some(text) = header.and_then(|h| as_str(h.system)) {
                    self.system_version(seq, line, PromptOrigin::RequestHeader, text.into_owned());
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn surface_op(&mut self, op: &RawValue, seq: u64) -> Result<(), String> {
        #[derive(Deserialize)]
        struct Replace {
            op: String,
            start: u64,
            end: u64,
        }
        // Cow: "app\u0065nd" is "append" too.
        if let Ok(name) = serde_json::from_str::<Cow<'_, str>>(op.get()) {
            return match name.as_ref() {
                "append" => self.log.surface.append(seq),
                other => Err(format!(
                    "unknown surfaceOp {}",
                    shown(&format!("{other:?}"))
                )),
            };
        }
        match serde_json::from_str::<Replace>(op.get()) {
            Ok(r) if r.op == "replace" => self.log.surface.replace(r.start, r.end, seq),
            Ok(r) => Err(format!(
                "unknown surfaceOp {}",
                shown(&format!("{:?}", r.op))
            )),
            Err(_) => Err(format!("unknown surfaceOp {}", shown(op.get()))),
        }
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
        self.log.system.push(SystemVersion {
            seq,
            line,
            origin,
            system_message,
            text,
        });
    }

    fn user_message(&mut self, data: Option<&RawValue>, seq: Option<u64>, at: At, surfaced: bool) {
        let line = match at {
            At::Line(l) | At::Element(l) => l,
        };
        let Some(data) = object::<RawData<'_>>(data) else {
            return;
        };
        let Some(Value::Object(source)) = data
            .source
            .and_then(|s| serde_json::from_str::<Value>(s.get()).ok())
        else {
            return;
        };
        let kind = source.get("kind").and_then(Value::as_str);
        if source.get("form").and_then(Value::as_str) == Some("snapshot") {
            if let Some(Value::Array(sections)) = source.get("sections") {
                let sections = sections
                    .iter()
                    .filter_map(|s| {
                        Some(Section {
                            name: s.get("name")?.as_str()?.to_owned(),
                            text: s.get("text")?.as_str()?.to_owned(),
                        })
                    })
                    .collect();
                self.log.snapshots += 1;
                self.log.latest_snapshot = Some(Snapshot {
                    seq,
                    line,
                    sections,
                });
            }
        }
        let Some(kind @ ("workspace-instructions" | "agent-instructions")) = kind else {
            return;
        };
        let Some(Value::Array(raw_changes)) = source.get("changes") else {
            self.not_workspace(at, kind, "whose changes is not an array");
            return;
        };
        let Some(seq) = seq else {
            self.not_workspace(at, kind, "without a seq");
            return;
        };
        let mut changes = Vec::with_capacity(raw_changes.len());
        for raw in raw_changes {
            match parse_change(raw) {
                Some(change) => changes.push(change),
                None => self.log.invalid_changes += 1,
            }
        }
        if let Some(last) = changes.last() {
            self.log.last_change_scope = Some(last.scope.clone());
        }
        let baseline = source.get("baseline") == Some(&Value::Bool(true));
        let identity = source
            .get("baselineIdentity")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if baseline {
            if let Some(id) = &identity {
                self.log.latest_baseline_identity = Some(id.clone());
            }
        }
        self.log.last_kind = Some(kind.to_owned());
        self.log.workspace.push(WorkspaceEvent {
            seq,
            line,
            kind: kind.to_owned(),
            baseline,
            identity,
            changes,
            surfaced,
            visible: false,
        });
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
        if let Some((first, n)) = self.not_workspace.take() {
            self.log.warnings.push(match n {
                1 => format!("{first}: ignored"),
                n => format!("{first}: ignored, with {} more like it", n - 1),
            });
        }
        let legacy = self.log.is_legacy();
        let index = self.log.surface.index();
        let mut best: Option<((usize, u64), usize)> = None;
        for (i, ev) in self.log.workspace.iter_mut().enumerate() {
            let pos = if legacy {
                Some((0, i as u64))
            } else if ev.surfaced {
                lookup(&index, ev.seq)
            } else {
                None
            };
            ev.visible = pos.is_some();
            if let (Some(pos), true) = (pos, ev.baseline) {
                if best.is_none_or(|(b, _)| pos >= b) {
                    best = Some((pos, i));
                }
            }
        }
        self.log.visible_baseline = best.map(|(_, i)| i);
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

fn message_text(content: Option<&RawValue>, text: Option<&RawValue>) -> Option<String> {
    #[derive(Deserialize)]
    struct Part<'a> {
        #[serde(default, borrow)]
        text: Option<Cow<'a, str>>,
    }
    if let Some(content) = content {
        if let Ok(parts) = serde_json::from_str::<Vec<Part<'_>>>(content.get()) {
            let texts: Vec<&str> = parts.iter().filter_map(|p| p.text.as_deref()).collect();
            if !texts.is_empty() {
                return Some(texts.join("\n\n"));
            }
        }
    }
    as_str(text).map(Cow::into_owned)
}

fn parse_change(raw: &Value) -> Option<Change> {
    let obj = raw.as_object()?;
    let action = match obj.get("action")?.as_str()? {
        "set" => Action::Set,
        "replace" => Action::Replace,
        "remove" => Action::Remove,
        _ => return None,
    };
    let opt_str = |key: &str| match obj.get(key) {
        None => Some(None),
        Some(Value::String(s)) => Some(Some(s.clone())),
        Some(_) => None,
    };
    Some(Change {
        action,
        scope: obj.get("scope")?.as_str()?.to_owned(),
        path: obj.get("path")?.as_str()?.to_owned(),
        previous_path: opt_str("previousPath")?,
        digest: opt_str("digest")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn read_str(text: &str) -> Result<Log, LogError> {
        read_from(text.as_bytes(), "t.jsonl".into(), ReadOptions::default())
    }

    #[test]
    fn surface_appends_as_runs_and_replaces_inclusive_ranges() {
        let mut s = Surface::default();
        for seq in [0, 1, 2, 4, 5] {
            s.append(seq).unwrap();
        }
        assert_eq!(s.runs, vec![(0, 2), (4, 5)]);
        s.replace(1, 4, 9).unwrap();
        assert_eq!(s.runs, vec![(0, 0), (9, 9), (5, 5)]);
        assert_eq!(s.len(), 3);
        assert!(s.replace(1, 5, 10).is_err());
        assert!(s.replace(5, 0, 10).is_err());
        assert!(s.append(9).is_err());
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
            MarkerSearch::new().find(text.as_bytes(), &mut hits);
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

//! Reading a buffer of whole JSONL lines into what they say, on two threads
//! (issue 15).
//!
//! A buffer is split at the newline nearest its middle; each half is searched
//! for markers and its lines that matter are read into [`Record`]s on its
//! own thread. Nothing here touches the log's state: the reader applies the
//! halves' items in log order, so the result (and the first error) is the
//! one a single thread gives.

use crate::log::event::{self, Needs, Record, SeenHeaders};
use crate::log::markers::MarkerSearch;
use crate::log::packed::{self, PackedCount, Row};
use crate::log::scan;

/// What one line turned out to be (blank lines and lines that hold no marker
/// leave no item; they are only counted).
#[derive(Debug)]
pub enum LineKind {
    /// Its first or last non-blank byte is not a brace.
    NotObject,
    NotUtf8,
    /// Not JSON: the column (in the line as written) when known, and why.
    Malformed(Option<usize>, String),
    Event(Record),
    /// A packed storage row of the wrong shape, under `--strict` (an error
    /// even on a final line: the row is whole JSON, only its shape is off).
    BadRow(String),
}

#[derive(Debug)]
pub struct Item {
    /// The line's index in its part.
    pub line: u64,
    /// How many object lines come before it in its part.
    pub records_before: u64,
    /// Whether a newline ends it (only a final line lacks one).
    pub newline: bool,
    pub kind: LineKind,
}

/// One half of a buffer, read.
#[derive(Debug, Default)]
pub struct Part {
    pub lines: u64,
    /// Lines whose braces enclose them.
    pub records: u64,
    pub parsed: u64,
    /// The packed rows among its lines, when counted (`Needs::packed_rows`).
    pub packed: PackedCount,
    pub items: Vec<Item>,
}

/// How the lines are read.
#[derive(Debug, Clone, Copy)]
pub struct Mode {
    pub strict: bool,
    pub needs: Needs,
}

/// A buffer smaller than this is read on one thread.
const PARALLEL_MIN: usize = if cfg!(test) { 4 << 10 } else { 256 << 10 };

/// A buffer of whole lines, shared with the [`Helper`] while it reads its
/// part (then the reader has it to itself again and refills it).
pub type Shared = std::sync::Arc<Vec<u8>>;

/// A later part of a buffer for the helper: `buf[from..to]`.
#[derive(Debug, Clone)]
pub struct Job {
    buf: Shared,
    from: usize,
    to: usize,
    mode: Mode,
}

/// One part of a buffer's lines: read, or being read on the helper's thread
/// (whose [`Job`] holds the buffer until the part is collected).
#[derive(Debug)]
pub enum Piece {
    Read(Part),
    AtHelper(Job),
}

/// A second thread that reads the later part of each buffer of lines while
/// the reader's own thread reads the earlier part, folds the buffer before
/// and reads the next bytes from the log (issue 28).
///
/// The reader does not wait for the helper at the end of each buffer: it
/// collects the helper's part of a buffer only after it has given it the
/// next buffer's and read its own part of that, so a buffer that is slow on
/// one thread is made up on the next (in the VM's measurements, waiting at
/// every buffer cost both threads ~10% of the wall time).
///
/// How much of a buffer the helper takes adapts: the reader's thread also
/// reads the log and folds the records, so the split that leaves neither
/// thread waiting is found by moving it a step each buffer.
#[derive(Debug)]
pub struct Helper {
    jobs: std::sync::mpsc::SyncSender<Job>,
    done: std::sync::mpsc::Receiver<Part>,
    /// The helper's share of a buffer, in 64ths.
    share: usize,
}

impl Helper {
    /// Starts the helper in `scope`; `None` when no thread can be had (a
    /// process limit), and the reader reads alone.
    pub fn start<'scope>(
        scope: &'scope std::thread::Scope<'scope, '_>,
        markers: &'scope MarkerSearch,
    ) -> Option<Helper> {
        // A job being read and one waiting, and up to two parts back: a
        // send waits only while the helper has not taken the job before.
        let (jobs, inbox) = std::sync::mpsc::sync_channel::<Job>(1);
        let (outbox, done) = std::sync::mpsc::sync_channel(2);
        std::thread::Builder::new()
            .spawn_scoped(scope, move || {
                let mut seen = SeenHeaders::default();
                for job in inbox {
                    let read = part(&job.buf[job.from..job.to], markers, job.mode, &mut seen);
                    // The buffer is the reader's again before it hears back.
                    drop(job);
                    if outbox.send(read).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Helper {
            jobs,
            done,
            share: 32,
        })
    }
}

/// Starts reading `buf[..end]` (whole lines, starting at a line's start;
/// only the last may lack its newline): the later part of its lines is
/// given to the helper, when there is one and the lines are many, and the
/// earlier part is read here (`seen`: the headers this thread read before).
/// The pieces are in log order; each is [`finish`]ed in turn.
pub fn start(
    buf: &Shared,
    end: usize,
    (markers, seen): (&MarkerSearch, &mut SeenHeaders),
    mode: Mode,
    helper: Option<&mut Helper>,
) -> Vec<Piece> {
    let region = &buf[..end];
    let split = helper
        .filter(|_| region.len() >= PARALLEL_MIN)
        .and_then(|h| {
            let at = region.len() / 64 * (64 - h.share);
            let split = memchr::memchr(b'\n', &region[at..]).map(|i| at + i + 1)?;
            (split < region.len()).then_some((h, split))
        });
    let Some((helper, split)) = split else {
        return vec![Piece::Read(part(region, markers, mode, seen))];
    };
    let later = Job {
        buf: std::sync::Arc::clone(buf),
        from: split,
        to: end,
        mode,
    };
    match helper.jobs.send(later.clone()) {
        Ok(()) => {
            let first = part(&region[..split], markers, mode, seen);
            vec![Piece::Read(first), Piece::AtHelper(later)]
        }
        // The helper is gone (it panicked): read it all here.
        Err(_) => vec![Piece::Read(part(region, markers, mode, seen))],
    }
}

/// The lines of `piece`, read: a part at the helper is waited for (parts
/// come back in the order they were given, so pieces are finished in the
/// order [`start`] made them, with the helper that read them).
pub fn finish(piece: Piece, markers: &MarkerSearch, helper: Option<&mut Helper>) -> Part {
    let job = match piece {
        Piece::Read(part) => return part,
        Piece::AtHelper(job) => job,
    };
    let waited = helper.and_then(|helper| match helper.done.try_recv() {
        // The helper was done first: give it more of the next buffer.
        Ok(later) => {
            helper.share = (helper.share + 1).min(60);
            Some(later)
        }
        Err(_) => {
            helper.share = helper.share.saturating_sub(1).max(4);
            helper.done.recv().ok()
        }
    });
    // The helper is gone (it panicked): read its part here.
    waited.unwrap_or_else(|| {
        let seen = &mut SeenHeaders::default();
        part(&job.buf[job.from..job.to], markers, job.mode, seen)
    })
}

/// Whether `b` is JSON whitespace.
pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// A line at least this long is first looked at in its first and last
/// bytes: a surface or user message line shows its marker there, and is then
/// not searched whole. (Issue 28: 256, not 512: on the real log's first
/// 100,000 lines, 7,379 of the 17,693 lines of 256 to 511 bytes are surface
/// lines, which the quick look spares the search; below 256 few are.)
const QUICK_MIN: usize = 256;

/// The end of every line in `region` (each newline, or the region's end),
/// and where markers are: one position in each line that holds one.
fn lines_and_markers(
    region: &[u8],
    markers: &MarkerSearch,
    strict: bool,
) -> (Vec<usize>, Vec<usize>) {
    let mut ends = Vec::new();
    let mut hot = Vec::new();
    let mut found = Vec::new();
    // The lines from `run` on still need the full search.
    let mut run = 0;
    let mut start = 0;
    while start < region.len() {
        let end = memchr::memchr(b'\n', &region[start..]).map_or(region.len(), |i| start + i);
        ends.push(end);
        if !strict && end - start >= QUICK_MIN && markers.quick_hit(&region[start..end]) {
            if run < start {
                markers.find(&region[run..start], &mut found);
                hot.extend(found.iter().map(|p| p + run));
            }
            hot.push(start);
            run = end + 1;
        }
        start = end + 1;
    }
    if !strict && run < region.len() {
        markers.find(&region[run..], &mut found);
        hot.extend(found.iter().map(|p| p + run));
    }
    (ends, hot)
}

fn part(region: &[u8], markers: &MarkerSearch, mode: Mode, seen: &mut SeenHeaders) -> Part {
    let (ends, hot) = lines_and_markers(region, markers, mode.strict);
    // Where packed rows may be: one search of the region, only when asked.
    let rows: Vec<usize> = if mode.needs.packed_rows {
        memchr::memmem::find_iter(region, packed::ROW_NEEDLE).collect()
    } else {
        Vec::new()
    };
    let mut r = 0;
    let mut prompt = event::LastPrompt::default();
    let mut out = Part::default();
    let mut start = 0;
    let mut h = 0;
    for end in ends {
        let newline = end < region.len();
        let raw = &region[start..end];
        while h < hot.len() && hot[h] < start {
            h += 1;
        }
        let matters = mode.strict || (h < hot.len() && hot[h] < end);
        let line = out.lines;
        out.lines += 1;
        start = end + 1;
        let Some(first) = raw.iter().position(|b| !is_ws(*b)) else {
            continue;
        };
        let last = raw.iter().rposition(|b| !is_ws(*b)).unwrap_or(first);
        let text = &raw[first..=last];
        let line_start = start - raw.len() - 1;
        while r < rows.len() && rows[r] < line_start {
            r += 1;
        }
        let row_here = r < rows.len() && rows[r] < line_start + raw.len();
        if text[0] != b'{' || text[text.len() - 1] != b'}' {
            out.items.push(Item {
                line,
                records_before: out.records,
                newline,
                kind: LineKind::NotObject,
            });
            continue;
        }
        // A packed row is read by the scanner's own line classification: a
        // line whose braces enclose it, trimmed of JSON whitespace only.
        let bad_row = if row_here {
            count_row(&mut out.packed, text, mode.strict)
        } else {
            None
        };
        let item = |kind| Item {
            line,
            records_before: out.records,
            newline,
            kind,
        };
        // Each item is made where it is pushed: a line's kind moved through
        // an iterator of options was copied on the stack twice, a quarter of
        // this function's own samples in perf annotate (issue 28).
        if matters {
            out.parsed += 1;
            let kind = classify(text, first, mode, (&mut prompt, seen));
            out.items.push(item(kind));
        }
        if let Some(why) = bad_row {
            out.items.push(item(LineKind::BadRow(why)));
        }
        out.records += 1;
    }
    out
}

/// Counts the packed row `text` (if it is one) into `count`; under
/// `--strict` a misshapen row is returned, to be an error.
fn count_row(count: &mut PackedCount, text: &[u8], strict: bool) -> Option<String> {
    match packed::row(text) {
        Row::Not => None,
        Row::Members(members) => {
            count.rows += 1;
            match members {
                Some(n) => count.events += n,
                None => count.uncounted += 1,
            }
            None
        }
        Row::Misshapen(why) => {
            count.rows += 1;
            count.uncounted += 1;
            strict.then_some(why)
        }
    }
}

/// Whether `bytes` are all ASCII (so UTF-8): one OR over them, with no
/// early exit, which vectorises (most lines that matter are ASCII, and
/// this is a fraction of `from_utf8`'s cost).
fn is_ascii(bytes: &[u8]) -> bool {
    bytes.iter().fold(0, |acc, &b| acc | b) < 0x80
}

/// Checks that `text` is one JSON object, with no depth limit (values are
/// skipped iteratively) and `serde_json`'s messages ("trailing comma").
fn check_syntax(text: &str) -> Result<(), serde_json::Error> {
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

/// Reads one line that matters (`text` trimmed, starting `offset` bytes
/// into the line as written); `last` is the prompt the lines before it in
/// the part said, which a line that is no event forgets.
fn classify<'a>(
    text: &'a [u8],
    offset: usize,
    mode: Mode,
    (last, seen): (&mut event::LastPrompt<'a>, &mut SeenHeaders),
) -> LineKind {
    let kind = classify_event(text, offset, mode, (last, seen));
    if !matches!(kind, LineKind::Event(_)) {
        *last = event::LastPrompt::default();
    }
    kind
}

fn classify_event<'a>(
    text: &'a [u8],
    offset: usize,
    mode: Mode,
    prompts: (&mut event::LastPrompt<'a>, &mut SeenHeaders),
) -> LineKind {
    let syntax = |text: &[u8]| match std::str::from_utf8(text) {
        Err(_) => Some(LineKind::NotUtf8),
        Ok(text) => check_syntax(text).err().map(|e| {
            LineKind::Malformed(
                Some(e.column() + offset),
                format!("malformed JSON: {}", scan::strip_position(&e)),
            )
        }),
    };
    // --strict checks every line in full first; the fast path's read
    // checks the syntax just as fully as it goes (a line that matters).
    if mode.strict {
        if let Some(fault) = syntax(text) {
            return fault;
        }
    }
    match event::extract(text, mode.needs, prompts) {
        // A line that matters is JSON as `JSON.parse` reads it in both
        // modes (issue 21): the read checks the syntax of every value it
        // skips, and the line's bytes are checked for UTF-8 here; serde_json
        // says why when either fails.
        Ok(record) if mode.strict || is_ascii(text) || std::str::from_utf8(text).is_ok() => {
            LineKind::Event(record)
        }
        Ok(record) => syntax(text).unwrap_or(LineKind::Event(record)),
        Err(_) => syntax(text).unwrap_or(LineKind::Malformed(
            None,
            "malformed JSON: a value does not end".to_owned(),
        )),
    }
}

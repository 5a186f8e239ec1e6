//! Reading a buffer of whole JSONL lines into what they say, on two threads
//! (issue 15).
//!
//! A buffer is split at the newline nearest its middle; each half is searched
//! for markers and its lines that matter are read into [`Record`]s on its
//! own thread. Nothing here touches the log's state: the reader applies the
//! halves' items in log order, so the result (and the first error) is the
//! one a single thread gives.

use crate::log::event::{self, Needs, Record};
use crate::log::markers::MarkerSearch;
use crate::log::scan;
use crate::logfile::packed::{self, PackedCount, Row};

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

/// Reads `region` (whole lines, starting at a line's start; only the last may
/// lack its newline) in one or two parts, in log order.
pub fn read(region: &[u8], markers: &MarkerSearch, mode: Mode) -> Vec<Part> {
    let split = (region.len() >= PARALLEL_MIN)
        .then(|| {
            let mid = region.len() / 2;
            memchr::memchr(b'\n', &region[mid..]).map(|i| mid + i + 1)
        })
        .flatten()
        .filter(|&s| s < region.len());
    let Some(split) = split else {
        return vec![part(region, markers, mode)];
    };
    let (a, b) = region.split_at(split);
    std::thread::scope(|scope| {
        // No second thread to be had (a process limit): read in one.
        let Ok(later) = std::thread::Builder::new().spawn_scoped(scope, || part(b, markers, mode))
        else {
            return vec![part(region, markers, mode)];
        };
        let first = part(a, markers, mode);
        let later = later
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        vec![first, later]
    })
}

/// Whether `b` is JSON whitespace.
pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// A line at least this long is first looked at in its first and last
/// bytes: a surface or user message line shows its marker there, and is then
/// not searched whole.
const QUICK_MIN: usize = 512;

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

fn part(region: &[u8], markers: &MarkerSearch, mode: Mode) -> Part {
    let (ends, hot) = lines_and_markers(region, markers, mode.strict);
    // Where packed rows may be: one search of the region, only when asked.
    let rows: Vec<usize> = if mode.needs.packed_rows {
        memchr::memmem::find_iter(region, packed::ROW_NEEDLE).collect()
    } else {
        Vec::new()
    };
    let mut r = 0;
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
        let kind = if matters {
            out.parsed += 1;
            Some(classify(text, first, mode))
        } else {
            None
        };
        for kind in kind.into_iter().chain(bad_row.map(LineKind::BadRow)) {
            out.items.push(Item {
                line,
                records_before: out.records,
                newline,
                kind,
            });
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

/// Reads one line that matters (`text` trimmed, starting `offset` bytes
/// into the line as written).
fn classify(text: &[u8], offset: usize, mode: Mode) -> LineKind {
    let syntax = |text: &[u8]| match std::str::from_utf8(text) {
        Err(_) => Some(LineKind::NotUtf8),
        Ok(text) => scan::check_syntax(text).err().map(|e| {
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
    match event::extract(text, mode.needs) {
        // A line that matters is JSON as `JSON.parse` reads it in both
        // modes (issue 21): the read checks the syntax of every value it
        // skips, and the line's bytes are checked for UTF-8 here; serde_json
        // says why when either fails.
        Ok(record) if mode.strict || std::str::from_utf8(text).is_ok() => LineKind::Event(record),
        Ok(record) => syntax(text).unwrap_or(LineKind::Event(record)),
        Err(_) => syntax(text).unwrap_or(LineKind::Malformed(
            None,
            "malformed JSON: a value does not end".to_owned(),
        )),
    }
}

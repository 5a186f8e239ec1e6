//! Packed storage rows (issue 15). dsh packs a run of three or more
//! consecutive `assistant/chunk` events into one line
//! `{"type":"text-chunks"|"reasoning-chunks"|"tool-call-chunks","seq0":N,"time0":N,"data":{...}}`
//! whose member k has seq `seq0 + k`. The members are the strings of
//! `data.texts` (text and reasoning rows) or `data.args` (tool-call rows),
//! as dsh's session-persistence-jsonl package writes them.
//!
//! Rows are never surface events, so the line scanner treats them like any
//! other non-surface line. [`Tap`] watches the JSONL text on its way to the
//! scanner when a command needs more: `explain` counts the events the rows
//! stand for, and `--strict` checks each row's shape (`seq0` a non-negative
//! integer, `time0` an integer, `data` an object).

use std::borrow::Cow;
use std::io::{self, Read};

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;

use crate::log::{LogError, LogSource};

/// The `type` of each packed row.
pub const ROW_TYPES: [&str; 3] = ["text-chunks", "reasoning-chunks", "tool-call-chunks"];

/// What the packed rows of a log stand for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct PackedCount {
    /// Packed rows read.
    pub rows: u64,
    /// The `assistant/chunk` events they stand for.
    pub events: u64,
    /// Rows whose member array is missing, so their events are not counted.
    pub uncounted: u64,
}

#[derive(Deserialize)]
struct RawRow<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    seq0: Option<&'a RawValue>,
    #[serde(default, borrow)]
    time0: Option<&'a RawValue>,
    #[serde(default, borrow)]
    data: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct RawMembers<'a> {
    #[serde(default, borrow)]
    texts: Option<&'a RawValue>,
    #[serde(default, borrow)]
    args: Option<&'a RawValue>,
}

/// A line read as a packed row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// Not a packed row (or not JSON: the line scanner judges that).
    Not,
    /// A packed row standing for this many events, when its members can be
    /// counted.
    Members(Option<u64>),
    /// A packed row of the wrong shape, and why.
    Misshapen(String),
}

/// Reads one trimmed JSONL line as a packed row.
fn row(line: &[u8]) -> Row {
    if memchr::memmem::find(line, b"-chunks\"").is_none() {
        return Row::Not;
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return Row::Not;
    };
    let Ok(raw) = serde_json::from_str::<RawRow<'_>>(text) else {
        return Row::Not;
    };
    let Some(kind) = raw.kind.filter(|k| ROW_TYPES.contains(&k.as_ref())) else {
        return Row::Not;
    };
    let integer = |v: Option<&RawValue>, signed: bool| {
        v.is_some_and(|v| {
            serde_json::from_str::<u64>(v.get()).is_ok()
                || signed && serde_json::from_str::<i64>(v.get()).is_ok()
        })
    };
    if !integer(raw.seq0, false) {
        return Row::Misshapen(format!("a {kind} row needs seq0, a non-negative integer"));
    }
    if !integer(raw.time0, true) {
        return Row::Misshapen(format!("a {kind} row needs time0, an integer"));
    }
    let Some(data) = raw.data.filter(|d| d.get().starts_with('{')) else {
        return Row::Misshapen(format!("a {kind} row needs data, an object"));
    };
    let members = serde_json::from_str::<RawMembers<'_>>(data.get())
        .ok()
        .and_then(|m| {
            if kind == "tool-call-chunks" {
                m.args
            } else {
                m.texts
            }
        })
        .and_then(|m| serde_json::from_str::<Vec<IgnoredAny>>(m.get()).ok())
        .map(|m| m.len() as u64);
    Row::Members(members)
}

/// Passes a log's bytes through unchanged while reading its JSONL lines as
/// packed rows: counting them and, when strict, checking their shape.
///
/// A misshapen row at line L ends the stream after that line, so the line
/// scanner still reports any earlier error first; the caller then reports
/// the row's (see [`Tap::error`]).
#[derive(Debug)]
pub struct Tap<R> {
    inner: R,
    name: String,
    strict: bool,
    /// The partial line read so far.
    pending: Vec<u8>,
    line: u64,
    /// `Some(true)` once the first byte shows a JSON array (left alone).
    array: Option<bool>,
    count: PackedCount,
    error: Option<LogError>,
    stopped: bool,
}

impl<R: Read> Tap<R> {
    pub fn new(inner: R, name: String, strict: bool) -> Self {
        Tap {
            inner,
            name,
            strict,
            pending: Vec::new(),
            line: 0,
            array: None,
            count: PackedCount::default(),
            error: None,
            stopped: false,
        }
    }

    /// What the rows stand for.
    pub fn count(&self) -> PackedCount {
        self.count
    }

    /// The first misshapen row, under `--strict`.
    pub fn error(&mut self) -> Option<LogError> {
        self.error.take()
    }

    /// One line; false when it stops the stream.
    fn line(&mut self, line: &[u8]) -> bool {
        self.line += 1;
        let trimmed = line.trim_ascii();
        match row(trimmed) {
            Row::Not => true,
            Row::Members(Some(n)) => {
                self.count.rows += 1;
                self.count.events += n;
                true
            }
            Row::Members(None) => {
                self.count.rows += 1;
                self.count.uncounted += 1;
                true
            }
            Row::Misshapen(why) => {
                self.count.rows += 1;
                self.count.uncounted += 1;
                if !self.strict {
                    return true;
                }
                self.error = Some(LogError {
                    message: format!("{}:{}: {why}", self.name, self.line),
                    line: Some(self.line),
                });
                false
            }
        }
    }

    /// Reads the lines that end in `bytes`; returns where to cut the
    /// stream when a line stops it.
    fn scan(&mut self, bytes: &[u8]) -> Option<usize> {
        if self.array.is_none() {
            if let Some(b) = bytes.iter().find(|b| !b.is_ascii_whitespace()) {
                self.array = Some(*b == b'[');
            }
        }
        if self.array == Some(true) {
            return None;
        }
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', bytes) {
            let go_on = if self.pending.is_empty() {
                self.line(&bytes[start..nl])
            } else {
                let mut line = std::mem::take(&mut self.pending);
                line.extend_from_slice(&bytes[start..nl]);
                let go_on = self.line(&line);
                line.clear();
                self.pending = line;
                go_on
            };
            start = nl + 1;
            if !go_on {
                return Some(start);
            }
        }
        self.pending.extend_from_slice(&bytes[start..]);
        None
    }
}

impl<R: Read> Read for Tap<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stopped {
            return Ok(0);
        }
        let n = self.inner.read(buf)?;
        if n == 0 {
            if !self.pending.is_empty() && self.array != Some(true) {
                let last = std::mem::take(&mut self.pending);
                self.line(&last);
            }
            self.stopped = true;
            return Ok(0);
        }
        match self.scan(&buf[..n]) {
            Some(cut) => {
                self.stopped = true;
                Ok(cut)
            }
            None => Ok(n),
        }
    }
}

/// Holding lines, a tap cannot go back: the scanner holds long lines instead.
impl<R: Read> LogSource for Tap<R> {}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn rows_count_their_texts_or_args() {
        let text = br#"{"type":"text-chunks","seq0":4,"time0":104,"data":{"turn":1,"dt":[1,1],"texts":["he","l","lo"]}}"#;
        assert_eq!(row(text), Row::Members(Some(3)));
        let tool = br#"{"type":"tool-call-chunks","seq0":7,"time0":-2,"data":{"id":"c","dt":[5,5,5],"args":["{","","","}"]}}"#;
        assert_eq!(row(tool), Row::Members(Some(4)));
        let no_members = br#"{"type":"reasoning-chunks","seq0":1,"time0":1,"data":{}}"#;
        assert_eq!(row(no_members), Row::Members(None));
    }

    #[test]
    fn other_lines_are_not_rows() {
        assert_eq!(row(br#"{"type":"assistant/chunk","seq":1}"#), Row::Not);
        assert_eq!(row(br#"{"type":"x","data":"text-chunks\""}"#), Row::Not);
        assert_eq!(row(br#"{"type":"text-chunks","#), Row::Not);
    }

    #[test]
    fn misshapen_rows_say_which_field() {
        let cases: [(&[u8], &str); 4] = [
            (
                br#"{"type":"text-chunks","seq0":-1,"time0":1,"data":{}}"#,
                "a text-chunks row needs seq0, a non-negative integer",
            ),
            (
                br#"{"type":"text-chunks","seq0":1.5,"time0":1,"data":{}}"#,
                "a text-chunks row needs seq0, a non-negative integer",
            ),
            (
                br#"{"type":"reasoning-chunks","seq0":1,"data":{}}"#,
                "a reasoning-chunks row needs time0, an integer",
            ),
            (
                br#"{"type":"tool-call-chunks","seq0":1,"time0":1,"data":[]}"#,
                "a tool-call-chunks row needs data, an object",
            ),
        ];
        for (line, why) in cases {
            assert_eq!(row(line), Row::Misshapen(why.to_owned()));
        }
    }
}

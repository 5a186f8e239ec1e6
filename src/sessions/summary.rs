//! What dsh's session list shows of a stored session (issue 27), read from
//! its log as dsh's host derives it (`packages/host/apiproxy`,
//! `sessionListMetadata` and `sessionListFields`, rc.8):
//!
//! - blank: no `turn/start` event (the web sidebar hides blank sessions);
//! - the latest human prompt: the `time` of the latest `user/message` whose
//!   `data.source.kind` is `user` (updated is the later of it and
//!   `createdAt`);
//! - the title: `data.title` of the latest `session/title` event (the
//!   `title` projection);
//! - the preset: `data.agentPreset` of the latest `agent-preset/selected`
//!   event, else the header's `agentPreset` (`resolveSessionPreset`).
//!
//! Only lines that hold one of those event types (or an escape that could
//! spell one) are parsed; a log that decodes to more than the cap is not
//! read at all, and shows as dsh shows a log it cannot read cheaply:
//! visible, updated at its creation.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use memchr::memmem;
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::logfile::Encoding;

/// What the events of one log say about the session, for its list row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// A `turn/start` event: the conversation has started.
    pub started: bool,
    /// The latest human-authored prompt's time, milliseconds.
    pub last_prompt_ms: Option<i64>,
    /// The latest `session/title`'s title (it may be empty).
    pub title: Option<String>,
    /// The latest `agent-preset/selected`'s preset.
    pub preset: Option<String>,
}

/// The event types the summary folds, and the escapes that could spell
/// one in a line that does not hold it verbatim.
const MARKERS: [&str; 6] = [
    "\"turn/start\"",
    "\"user/message\"",
    "\"session/title\"",
    "\"agent-preset/selected\"",
    "\\u",
    "\\/",
];

/// Bytes decoded at a time.
const CHUNK: usize = 1 << 20;

/// Reads the summary of the log at `path`, decoding at most `cap` bytes:
/// `Ok(None)` when it decodes to more. A log whose end cannot be decoded
/// (a writer stopped mid-frame) is summarised up to there, as dsh repairs
/// such a log to its complete part.
///
/// The decoded bytes are searched a chunk at a time for the markers, and
/// only the lines that hold one are cut out and parsed, in log order.
///
/// # Errors
/// The file cannot be opened, or its first frame cannot be decoded.
pub fn read(path: &Path, encoding: Encoding, cap: u64) -> io::Result<Option<Summary>> {
    let file = File::open(path)?;
    // A plain log decodes to its own bytes: one over the cap is known from
    // its size, unread (issue 28: `sessions --check-drift` read the first
    // 128 MiB of a large log for a summary it then dropped).
    if encoding == Encoding::Plain && file.metadata().is_ok_and(|m| m.is_file() && m.len() > cap) {
        return Ok(None);
    }
    let source: Box<dyn Read> = match encoding {
        Encoding::Zstd => Box::new(zstd::stream::read::Decoder::new(file)?),
        Encoding::Plain => Box::new(file),
    };
    let mut source = source.take(cap + 1);
    let finder = Finder::new();
    let mut hits = Vec::new();
    let mut summary = Summary::default();
    // `buf[..len]`: the bytes of a line not yet whole. The buffer is zeroed
    // once (and when a long line grows it), not before every read.
    let mut buf: Vec<u8> = vec![0; CHUNK];
    let mut len = 0;
    let mut total = 0u64;
    loop {
        if buf.len() < len + CHUNK {
            buf.resize(len + CHUNK, 0);
        }
        let n = match source.read(&mut buf[len..len + CHUNK]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            // The complete part is what counts (a last frame cut short).
            Err(_) if total > 0 => 0,
            Err(e) => return Err(e),
        };
        let end = len + n;
        total += n as u64;
        if total > cap {
            return Ok(None);
        }
        // The whole lines read so far (a newline among the new bytes ends
        // them); at the end, the last line too.
        let whole = if n == 0 {
            end
        } else {
            let Some(i) = memchr::memrchr(b'\n', &buf[len..end]) else {
                len = end;
                continue;
            };
            len + i + 1
        };
        let lines = &buf[..whole];
        // Each line once, in order; a hit inside the line just folded is
        // skipped, so every byte is looked at a bounded number of times.
        finder.find(lines, &mut hits);
        let mut done = 0;
        for &at in &hits {
            if at < done {
                continue;
            }
            let start = memchr::memrchr(b'\n', &lines[done..at]).map_or(done, |i| done + i + 1);
            let line_end = memchr::memchr(b'\n', &lines[at..]).map_or(lines.len(), |i| at + i);
            fold(&mut summary, &lines[start..line_end]);
            done = line_end;
        }
        buf.copy_within(whole..end, 0);
        len = end - whole;
        if n == 0 {
            return Ok(Some(summary));
        }
    }
}

/// Each quoted event type of [`MARKERS`] as searched: a tail rare in a log
/// (`"seq"` and `"turn":` are in every line), and the bytes before it.
const TAILS: [(&str, &str); 4] = [
    ("n/start\"", "\"tur"),
    ("r/message\"", "\"use"),
    ("n/title\"", "\"sessio"),
    ("preset/selected\"", "\"agent-"),
];

/// Finds where [`MARKERS`] occur in whole lines: one SIMD pass (Teddy) for
/// the tails of the event types and one `memchr` pass for the backslashes
/// of the escapes (issue 28: a pass per marker, or an automaton stopping at
/// every quote, was most of `sessions`' reading).
struct Finder {
    tails: Option<aho_corasick::packed::Searcher>,
    words: Vec<memmem::Finder<'static>>,
}

impl Finder {
    fn new() -> Self {
        let tails = aho_corasick::packed::Config::new()
            .builder()
            .extend(TAILS.iter().map(|t| t.0))
            .build();
        let words = if tails.is_some() {
            Vec::new()
        } else {
            MARKERS.iter().map(memmem::Finder::new).collect()
        };
        Finder { tails, words }
    }

    /// Fills `out`, ascending, with a position in every line of `hay` that
    /// [`fold`] can read something from. A line as dsh writes it begins
    /// `{"type":"`: its type, when written without an escape, says at once
    /// (a second `type` later in the line makes it no `Event`, as a
    /// duplicate field); any other line is searched for [`MARKERS`].
    fn find(&self, hay: &[u8], out: &mut Vec<usize>) {
        out.clear();
        let mut start = 0;
        while start < hay.len() {
            let end = memchr::memchr(b'\n', &hay[start..]).map_or(hay.len(), |i| start + i);
            match known_type(&hay[start..end]) {
                Some(true) => out.push(start),
                Some(false) => {}
                None => self.search(&hay[start..end], start, out),
            }
            start = end + 1;
        }
    }

    /// Pushes onto `out` where [`MARKERS`] occur in `hay` (at `offset`).
    fn search(&self, hay: &[u8], offset: usize, out: &mut Vec<usize>) {
        let from = out.len();
        let Some(tails) = &self.tails else {
            for word in &self.words {
                out.extend(word.find_iter(hay).map(|i| offset + i));
            }
            out[from..].sort_unstable();
            return;
        };
        let mut at = 0;
        while let Some(m) = tails.find_in(hay, aho_corasick::Span::from(at..hay.len())) {
            at = m.start() + 1;
            if hay[..m.start()].ends_with(TAILS[m.pattern().as_usize()].1.as_bytes()) {
                out.push(offset + m.start());
            }
        }
        out.extend(
            memchr::memchr_iter(b'\\', hay)
                .filter(|&i| matches!(hay.get(i + 1), Some(b'u' | b'/')))
                .map(|i| offset + i),
        );
        out[from..].sort_unstable();
    }
}

/// For a line that begins `{"type":"` and a type without an escape,
/// whether that type is one [`fold`] reads; `None` for any other line.
fn known_type(line: &[u8]) -> Option<bool> {
    let rest = line.strip_prefix(b"{\"type\":\"")?;
    let close = rest.iter().position(|&b| b == b'"' || b == b'\\')?;
    if rest[close] == b'\\' {
        return None;
    }
    Some(matches!(
        &rest[..close],
        b"turn/start" | b"user/message" | b"session/title" | b"agent-preset/selected"
    ))
}

/// One event line, as far as the summary reads it.
#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
    time: Option<serde_json::Number>,
    #[serde(borrow)]
    data: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Prompt<'a> {
    #[serde(borrow)]
    source: Option<PromptSource<'a>>,
}

#[derive(Deserialize)]
struct PromptSource<'a> {
    #[serde(borrow)]
    kind: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Title {
    title: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Preset {
    agent_preset: Option<String>,
}

/// Folds one line into the summary; a line that is not such an event (or
/// not JSON) changes nothing, as it changes nothing in dsh's list.
fn fold(summary: &mut Summary, line: &[u8]) {
    let Ok(event) = serde_json::from_slice::<Event<'_>>(line.trim_ascii()) else {
        return;
    };
    let data = event.data.map(RawValue::get);
    match event.kind.as_deref() {
        Some("turn/start") => summary.started = true,
        Some("user/message") => {
            let human = data
                .and_then(|d| serde_json::from_str::<Prompt<'_>>(d).ok())
                .and_then(|p| p.source)
                .is_some_and(|s| s.kind.as_deref() == Some("user"));
            let time = event
                .time
                .and_then(|t| t.as_i64().or_else(|| t.as_f64().map(truncate)));
            if let (true, Some(time)) = (human, time) {
                summary.last_prompt_ms = Some(time);
            }
        }
        Some("session/title") => {
            if let Some(title) = data
                .and_then(|d| serde_json::from_str::<Title>(d).ok())
                .and_then(|t| t.title)
            {
                summary.title = Some(title);
            }
        }
        Some("agent-preset/selected") => {
            if let Some(preset) = data
                .and_then(|d| serde_json::from_str::<Preset>(d).ok())
                .and_then(|p| p.agent_preset)
            {
                summary.preset = Some(preset);
            }
        }
        _ => {}
    }
}

/// A fractional millisecond time, to whole milliseconds (toward zero).
#[allow(clippy::cast_possible_truncation)]
fn truncate(ms: f64) -> i64 {
    // `as` saturates, and NaN becomes 0: a time no log holds in practice.
    ms.trunc() as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn summary_of(text: &str) -> Summary {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("session.jsonl");
        std::fs::write(&path, text).unwrap();
        read(&path, Encoding::Plain, 64 << 20).unwrap().unwrap()
    }

    /// The latest title and preset win, only human prompts count, and a
    /// `turn/start` anywhere means started.
    #[test]
    fn folds_the_events_the_session_list_reads() {
        let text = [
            r#"{"type":"session","id":"s","createdAt":5,"cwd":"/p"}"#,
            r#"{"type":"agent-preset/selected","seq":0,"time":6,"data":{"agentPreset":"plan"}}"#,
            r#"{"type":"user/message","seq":1,"time":7,"data":{"content":[],"source":{"kind":"user"}}}"#,
            r#"{"type":"turn/start","seq":2,"time":7,"data":{}}"#,
            r#"{"type":"session/title","seq":3,"time":8,"data":{"title":"First","source":{"kind":"fallback"}}}"#,
            r#"{"type":"user/message","seq":4,"time":9,"data":{"content":[],"source":{"kind":"hook"}}}"#,
            r#"{"type":"session/title","seq":5,"time":10,"data":{"title":"Second"}}"#,
            r#"{"type":"agent-preset/selected","seq":6,"time":11,"data":{"agentPreset":"code"}}"#,
            r#"{"type":"assistant/message","seq":7,"time":12,"data":{"text":"\"session/title\""}}"#,
            "not json \"turn/start\"",
        ]
        .join("\n");
        assert_eq!(
            summary_of(&text),
            Summary {
                started: true,
                last_prompt_ms: Some(7),
                title: Some("Second".to_owned()),
                preset: Some("code".to_owned()),
            }
        );
    }

    /// A type spelled with escapes is that type, as JSON.parse reads it.
    #[test]
    fn an_escaped_type_is_still_read() {
        let s = summary_of(r#"{"type":"turn\/start","seq":0,"time":1}"#);
        assert!(s.started);
        let s = summary_of(r#"{"type":"\u0074urn/start","seq":0,"time":1}"#);
        assert!(s.started);
    }

    /// A line whose type is said at its start is judged by it: another
    /// type later in it makes the line no event (a duplicate field), and a
    /// type written with an escape is searched for as before.
    #[test]
    fn a_type_at_the_start_decides_the_line() {
        let s = summary_of(r#"{"type":"x","seq":0,"type":"turn/start"}"#);
        assert!(!s.started);
        let s = summary_of(r#"{"type":"turn/start","seq":0,"type":"x"}"#);
        assert!(!s.started);
        let s = summary_of(r#"{"seq":0,"type":"turn/start"}"#);
        assert!(s.started);
        let s = summary_of(r#"{"type":"turn\u002fstart","seq":0}"#);
        assert!(s.started);
    }

    /// Lines longer than a read, lines cut by a read, a last line with no
    /// newline, and a line of many escapes are each read once, whole.
    #[test]
    fn lines_across_reads_are_whole() {
        let long = "x".repeat(3 * CHUNK);
        let escapes = "\\u0041".repeat(CHUNK / 3);
        let text = format!(
            "{{\"type\":\"session/title\",\"data\":{{\"title\":\"{long}\"}}}}\n{{\"type\":\"assistant/message\",\"data\":{{\"t\":\"{escapes}\"}}}}\n{pad}\n{{\"type\":\"session/title\",\"data\":{{\"title\":\"last\"}}}}",
            pad = "y".repeat(CHUNK - 7)
        );
        let s = summary_of(&text);
        assert_eq!(s.title.as_deref(), Some("last"));
        let s = summary_of(&text[..text.rfind('\n').unwrap()]);
        assert_eq!(s.title.map(|t| t.len()), Some(long.len()));
    }

    /// Past the cap nothing is said: the log is not summarised.
    #[test]
    fn a_log_over_the_cap_is_not_summarised() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("session.jsonl");
        std::fs::write(&path, format!("{}\n", "x".repeat(100))).unwrap();
        assert_eq!(read(&path, Encoding::Plain, 100).unwrap(), None);
        assert!(read(&path, Encoding::Plain, 101).unwrap().is_some());
    }
}

//! Framing a log's bytes (SPEC 5.1): JSON Lines or one JSON array, told apart
//! by the first non-blank byte, read in large chunks.
//!
//! Whole lines go to [`chunk::start`] to be searched and decoded; a long line
//! that holds no marker is streamed through (when the source can rewind)
//! rather than held, and read again whole if a marker turns up late. What
//! the lines say is folded into the log by the [`Fold`].

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, BufReader, Read};
use std::rc::Rc;

use serde_json::value::RawValue;

use crate::log::chunk::{self, Shared, is_ws};
use crate::log::event::SeenHeaders;
use crate::log::fold::{At, Fold};
use crate::log::markers::MarkerSearch;
use crate::log::scan::strip_position;
use crate::log::{CHUNK, LogError, LogSource, ReadOptions};

/// Reads a whole stream into `fold`.
pub(super) fn read_stream<R: LogSource>(
    reader: R,
    fold: &mut Fold,
    opts: ReadOptions,
) -> Result<(), LogError> {
    let mut reader = reader;
    let mut buf = vec![0u8; CHUNK];
    let mut len = 0usize;
    let mut eof = false;
    // Blank lines before the first event: counted, never held (a gigabyte
    // of them costs no memory).
    let mut blank_lines = 0u64;
    // The bytes of those blank lines: where `buf[0]` is in the stream.
    let mut dropped = 0u64;
    // Decide the form from the first non-whitespace byte.
    loop {
        let n = read_some(&mut reader, &mut buf[len..]).map_err(|e| fold.io(&e))?;
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
            dropped += (i + 1) as u64;
        }
        if len == buf.len() {
            // A run of spaces with no newline: keep one.
            dropped += (len - 1) as u64;
            len = 1;
        }
    }
    let first = buf[..len].iter().find(|b| !is_ws(**b));
    if first == Some(&b'[') {
        let head = io::Cursor::new(buf[..len].to_vec());
        read_array(head.chain(reader), fold, blank_lines)
    } else {
        fold.log.lines = blank_lines;
        let at = Buffered {
            len,
            eof,
            offset: dropped,
        };
        read_lines(reader, buf, at, fold, opts)
    }
}

/// One `read`, retried when a signal interrupts it.
pub(crate) fn read_some<R: Read>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            other => return other,
        }
    }
}

/// A partial line this long that holds no marker yet is streamed (when the
/// source can rewind) instead of held: SPEC 5.1 bounds memory by a constant
/// plus the longest line that must be parsed.
const LONG_LINE: usize = if cfg!(test) { 64 << 10 } else { 8 << 20 };

/// The bytes kept between reads while streaming a line, so that a marker
/// split across two reads is still found.
const MARKER_OVERLAP: usize = 15;

/// What `read_lines` starts with: `len` bytes in the buffer, whether the
/// stream ended, and the stream offset of the buffer's first byte.
struct Buffered {
    len: usize,
    eof: bool,
    offset: u64,
}

fn read_lines<R: LogSource>(
    reader: R,
    buf: Vec<u8>,
    at: Buffered,
    fold: &mut Fold,
    opts: ReadOptions,
) -> Result<(), LogError> {
    let markers = MarkerSearch::new(fold.needs.prompts);
    // A helper thread only where a core is free for it: not beside a
    // container's decoder on two cores, where three busy threads share two
    // and the decoder, the slowest, runs at two thirds of a core (issue 28).
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let helped = cores > 1 + usize::from(reader.has_own_thread());
    std::thread::scope(|scope| {
        let mut helper = helped
            .then(|| chunk::Helper::start(scope, &markers))
            .flatten();
        let lines = Lines {
            reader,
            buf: Shared::new(buf),
            next: Shared::default(),
            markers: &markers,
            seen: SeenHeaders::default(),
        };
        lines.read(at, fold, opts, helper.as_mut())
    })
}

/// The state of [`read_lines`]: the log, its buffer, and the spare buffer
/// the next bytes are read into while the buffer's lines are read.
struct Lines<'m, R> {
    reader: R,
    buf: Shared,
    next: Shared,
    markers: &'m MarkerSearch,
    /// The headers this thread read before (its helper keeps its own).
    seen: SeenHeaders,
}

impl<R: LogSource> Lines<'_, R> {
    fn read(
        mut self,
        at: Buffered,
        fold: &mut Fold,
        opts: ReadOptions,
        mut helper: Option<&mut chunk::Helper>,
    ) -> Result<(), LogError> {
        let Buffered {
            mut len,
            mut eof,
            mut offset,
        } = at;
        let mut hot: Vec<usize> = Vec::new();
        // `buf[..searched]` is known to hold no newline: searching only the new
        // bytes keeps a long line arriving in small pipe reads linear.
        let mut searched = 0;
        // `offset`: the stream offset of `buf[0]`, always the start of a line.
        // The line at `buf[0]` holds a marker: it must be held and parsed.
        let mut must_parse = opts.strict;
        let can_rewind = self.reader.can_rewind();
        let mode = chunk::Mode {
            strict: opts.strict,
            needs: fold.needs,
        };
        // The parts of the buffer before, read or being read by the helper,
        // not folded yet.
        let mut pending: Vec<chunk::Piece> = Vec::new();
        loop {
            self.reader.mark(offset);
            // Complete lines are those up to the last newline in the buffer.
            let complete = match memchr::memrchr(b'\n', &self.buf[searched..len]) {
                Some(i) => searched + i + 1,
                None if eof => len,
                None => 0,
            };
            // While the helper reads the later lines of this buffer, this
            // thread reads its own, folds the previous buffer's lines
            // (`pending`), then reads the next bytes into the spare buffer
            // (of the usual size, whatever a long line made this one: what
            // the loop below would read next, in the same order).
            if complete > 0 && !eof && len - complete < CHUNK {
                let n = self.overlapped(
                    (complete, len, offset),
                    mode,
                    helper.as_deref_mut(),
                    &mut pending,
                    fold,
                )?;
                eof = n == 0;
                len = len - complete + n;
                offset += complete as u64;
                searched = len - n;
                must_parse = opts.strict;
                continue;
            }
            self.fold_pending(&mut pending, helper.as_deref_mut(), fold)?;
            if complete > 0 {
                self.in_place(complete, len, mode, helper.as_deref_mut(), fold)?;
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
                let cursor = (&mut len, &mut offset, &mut eof);
                match self.long_line(cursor, &mut hot, fold)? {
                    Long::Streamed => {
                        searched = 0;
                        continue;
                    }
                    Long::Reread => {
                        must_parse = true;
                        searched = 0;
                        continue;
                    }
                    Long::Eof => return Ok(()),
                    Long::Hold => must_parse = true,
                }
            }
            let buf = Shared::make_mut(&mut self.buf);
            if len == buf.len() {
                grow_or_drop(buf, &mut len, &mut searched, fold)?;
            }
            let n = read_some(&mut self.reader, &mut buf[len..]).map_err(|e| fold.io(&e))?;
            if n == 0 {
                eof = true;
            }
            len += n;
        }
    }
}

impl<R: LogSource> Lines<'_, R> {
    /// Folds the pieces of lines read before, in log order (waiting for the
    /// helper's, when it is still reading one).
    fn fold_pending(
        &self,
        pending: &mut Vec<chunk::Piece>,
        mut helper: Option<&mut chunk::Helper>,
        fold: &mut Fold,
    ) -> Result<(), LogError> {
        for piece in pending.drain(..) {
            fold.apply(chunk::finish(piece, self.markers, helper.as_deref_mut()))?;
        }
        Ok(())
    }

    /// Reads and folds the lines of `buf[..complete]` on this thread (and
    /// the helper, when there is one), then moves the rest of the bytes,
    /// `buf[complete..len]`, to the front.
    fn in_place(
        &mut self,
        complete: usize,
        len: usize,
        mode: chunk::Mode,
        mut helper: Option<&mut chunk::Helper>,
        fold: &mut Fold,
    ) -> Result<(), LogError> {
        let mut pieces = chunk::start(
            &self.buf,
            complete,
            (self.markers, &mut self.seen),
            mode,
            helper.as_deref_mut(),
        );
        self.fold_pending(&mut pieces, helper, fold)?;
        Shared::make_mut(&mut self.buf).copy_within(complete..len, 0);
        Ok(())
    }

    /// Starts reading the lines of `buf[..complete]` (`complete, len,
    /// offset`: the whole lines, the bytes, the stream offset of `buf[0]`),
    /// the later ones on the helper, and reads the earlier ones here; then
    /// folds `pending`, the buffer before (its helper's part read meanwhile),
    /// and reads the next bytes into the spare buffer, which then becomes
    /// the buffer (what was past `complete` first). This buffer's pieces are
    /// left in `pending`, to be folded after the next buffer's are started.
    /// Returns the bytes read.
    fn overlapped(
        &mut self,
        (complete, len, offset): (usize, usize, u64),
        mode: chunk::Mode,
        mut helper: Option<&mut chunk::Helper>,
        pending: &mut Vec<chunk::Piece>,
        fold: &mut Fold,
    ) -> Result<usize, LogError> {
        let rest = len - complete;
        let pieces = chunk::start(
            &self.buf,
            complete,
            (self.markers, &mut self.seen),
            mode,
            helper.as_deref_mut(),
        );
        // Folding the buffer before lets go of the spare buffer it was.
        self.fold_pending(pending, helper.as_deref_mut(), fold)?;
        *pending = pieces;
        let next = Shared::make_mut(&mut self.next);
        next.resize(CHUNK, 0);
        next.shrink_to(CHUNK);
        next[..rest].copy_from_slice(&self.buf[complete..len]);
        self.reader.mark(offset + complete as u64);
        let n = match read_some(&mut self.reader, &mut next[rest..]) {
            Ok(n) => n,
            // These lines come before a failed read: their error first.
            Err(e) => {
                self.fold_pending(pending, helper, fold)?;
                return Err(fold.io(&e));
            }
        };
        std::mem::swap(&mut self.buf, &mut self.next);
        Ok(n)
    }

    /// A partial line of `len` bytes, at least [`LONG_LINE`], at stream
    /// `offset`: streamed through when it holds no marker (nor a packed
    /// row to count), else held.
    fn long_line(
        &mut self,
        (len, offset, eof): (&mut usize, &mut u64, &mut bool),
        hot: &mut Vec<usize>,
        fold: &mut Fold,
    ) -> Result<Long, LogError> {
        let markers = self.markers;
        let buf = Shared::make_mut(&mut self.buf);
        markers.find(&buf[..*len], hot);
        let row = fold.needs.packed_rows
            && memchr::memmem::find(&buf[..*len], crate::log::packed::ROW_NEEDLE).is_some();
        if !hot.is_empty() || row {
            return Ok(Long::Hold);
        }
        Ok(
            match stream_line(&mut self.reader, buf, len, markers, fold)? {
                Streamed::Done { bytes } => {
                    *offset += bytes;
                    Long::Streamed
                }
                Streamed::MustParse => {
                    fold.log.reread += 1;
                    self.reader.rewind_to(*offset).map_err(|e| fold.io(&e))?;
                    *len = 0;
                    *eof = false;
                    Long::Reread
                }
                Streamed::Eof => Long::Eof,
            },
        )
    }
}

/// What became of a long partial line.
enum Long {
    /// It was streamed through; what follows it is in the buffer.
    Streamed,
    /// A marker turned up late: it is read again, from its start, whole.
    Reread,
    /// The stream ended inside it.
    Eof,
    /// It holds a marker: it is held and parsed.
    Hold,
}

/// A full buffer of one partial line: doubled when the line can be an
/// event, emptied when it is blanks so far, an error when it is not an
/// object (`--log /dev/zero` is rejected before more of it is held).
fn grow_or_drop(
    buf: &mut Vec<u8>,
    len: &mut usize,
    searched: &mut usize,
    fold: &Fold,
) -> Result<(), LogError> {
    match buf[..*len].iter().find(|b| !is_ws(**b)) {
        Some(b'{') => buf.resize(buf.len() * 2, 0),
        Some(_) => {
            let at = At::Line(fold.log.lines + 1);
            return Err(fold.err(at, None, "malformed line: not a JSON object"));
        }
        // Blanks cost nothing.
        None => {
            *len = 0;
            *searched = 0;
        }
    }
    Ok(())
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
    fold: &mut Fold,
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
        let n = read_some(reader, &mut buf[keep..]).map_err(|e| fold.io(&e))?;
        if n == 0 {
            fold.streamed_line(first, last, false)?;
            return Ok(Streamed::Eof);
        }
        *len = keep + n;
        let newline = memchr::memchr(b'\n', &buf[keep..*len]).map(|i| keep + i);
        let end = newline.unwrap_or(*len);
        markers.find(&buf[..end], &mut hot);
        // A packed row must be read whole when rows are counted.
        let row = fold.needs.packed_rows
            && memchr::memmem::find(&buf[..end], crate::log::packed::ROW_NEEDLE).is_some();
        if !hot.is_empty() || row {
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
                fold.streamed_line(first, last, true)?;
                buf.copy_within(nl + 1..*len, 0);
                *len -= nl + 1;
                return Ok(Streamed::Done { bytes });
            }
            None => bytes += n as u64,
        }
    }
}

fn read_array<R: Read>(reader: R, fold: &mut Fold, blank_lines: u64) -> Result<(), LogError> {
    use serde::de::{Deserializer as _, SeqAccess, Visitor};

    struct Each<'s> {
        fold: &'s mut Fold,
        failure: Option<LogError>,
        starts: Starts,
        blank_lines: u64,
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
                let start = self.starts.borrow_mut().pop_front().unwrap_or((0, 0));
                let at = (start.0 + self.blank_lines, start.1);
                if let Err(e) = self.fold.array_element(raw.get(), index, at) {
                    self.failure = Some(e);
                    return Err(serde::de::Error::custom("stopped"));
                }
            }
            Ok(())
        }
    }

    let name = fold.log.name.clone();
    let starts = Starts::default();
    let positions = Positions::new(BufReader::with_capacity(CHUNK, reader), Rc::clone(&starts));
    let mut de = serde_json::Deserializer::from_reader(positions);
    let mut each = Each {
        fold,
        failure: None,
        starts,
        blank_lines,
    };
    let result = (&mut de).deserialize_seq(&mut each).and_then(|()| de.end());
    if let Some(failure) = each.failure {
        return Err(failure);
    }
    // Before its first element the file is no session log at all
    // (`--log Cargo.toml` begins with `[package]`).
    let what = if each.fold.log.records == 0 {
        "not a session log: it begins with [ but is no JSON array"
    } else {
        "malformed JSON array"
    };
    result.map_err(|e| LogError {
        line: None,
        message: format!(
            "{name}:{}:{}: {what}: {}",
            e.line() as u64 + blank_lines,
            e.column(),
            strip_position(&e)
        ),
    })
}

/// Where the elements of the array read so far begin (line, column), in
/// order, until the visitor takes them.
type Starts = Rc<RefCell<VecDeque<(u64, u64)>>>;

/// A reader that notes where each top-level array element begins as the
/// bytes pass (a small lexer: strings and nesting depth), for messages
/// that say `LINE:COLUMN` (serde_json keeps its position to itself).
struct Positions<R> {
    inner: R,
    starts: Starts,
    line: u64,
    col: u64,
    depth: u64,
    in_string: bool,
    escaped: bool,
    /// After the opening `[` or a top-level `,`: the next non-blank byte
    /// begins an element.
    awaiting: bool,
}

impl<R> Positions<R> {
    fn new(inner: R, starts: Starts) -> Self {
        Positions {
            inner,
            starts,
            line: 1,
            col: 0,
            depth: 0,
            in_string: false,
            escaped: false,
            awaiting: false,
        }
    }

    fn see(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' {
                self.line += 1;
                self.col = 0;
            } else {
                self.col += 1;
            }
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            if self.awaiting && !is_ws(b) && b != b']' {
                self.awaiting = false;
                self.starts.borrow_mut().push_back((self.line, self.col));
            }
            match b {
                b'"' => self.in_string = true,
                b'[' | b'{' => {
                    self.depth += 1;
                    if self.depth == 1 {
                        self.awaiting = true;
                    }
                }
                b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                b',' if self.depth == 1 => self.awaiting = true,
                _ => {}
            }
        }
    }
}

impl<R: Read> Read for Positions<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.see(&buf[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::{Log, read_from};
    use pretty_assertions::assert_eq;

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
            self.pos = usize::try_from(offset).map_err(io::Error::other)?;
            Ok(())
        }
    }

    fn trickle(text: &str, step: usize, strict: bool) -> Result<Log, LogError> {
        let reader = Trickle {
            data: text.as_bytes().to_vec(),
            pos: 0,
            step,
        };
        read_from(
            reader,
            "t.jsonl".into(),
            ReadOptions {
                strict,
                ..ReadOptions::ALL
            },
        )
    }

    fn long_chunk(text_len: usize) -> String {
        format!(
            r#"{{"type":"assistant/chunk","seq":1,"data":{{"text":"{}"}}}}"#,
            "y".repeat(text_len)
        )
    }

    const BASELINE: &str = r#"{"type":"user/message","seq":2,"data":{"source":{"kind":"agent-instructions","form":"instructions","baseline":true,"baselineIdentity":"{}","changes":[{"action":"set","scope":".","path":"AGENTS.md","digest":"d"}]}},"surfaceOp":"append"}"#;

    /// Lines longer than `LONG_LINE` are streamed when they hold no marker, and
    /// re-read whole when a marker turns up late; either way the log reads as
    /// a full parse reads it.
    #[test]
    fn long_lines_stream_and_decide_as_a_full_parse() {
        let header = r#"{"type":"session","cwd":"/x"}"#;
        let late_marker = format!(
            r#"{{"pad":"{}","type":"user/message","seq":3,"data":{{"source":{{"kind":"agent-instructions","changes":[{{"action":"remove","scope":".","path":"AGENTS.md"}}]}}}},"surfaceOp":"append"}}"#,
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

    /// Blank lines before the first event are dropped, not held; a long
    /// line after them read again whole is read from its own start, not
    /// from theirs (which counted them twice).
    #[test]
    fn a_long_line_after_leading_blank_lines_is_read_again_from_its_start() {
        let late_marker = format!(
            r#"{{"pad":"{}","type":"user/message","seq":3,"data":{{"source":{{"kind":"agent-instructions","changes":[]}}}},"surfaceOp":"append"}}"#,
            "z".repeat(LONG_LINE + 100)
        );
        let text = format!("{}{late_marker}\n{BASELINE}\n", "\n".repeat(10_000));
        let log = trickle(&text, 4099, false).unwrap();
        assert_eq!((log.reread, log.lines, log.records), (1, 10_002, 2));
        assert_eq!(log.workspace.len(), 2);
    }

    /// A log of many buffers reads the same in one-byte reads (a line to a
    /// buffer, one thread) as in large ones (the helper thread, the next
    /// bytes read while the lines are): the same log, or the same first
    /// error, wherever the buffers and their parts split it.
    #[test]
    fn buffers_and_their_parts_do_not_change_what_is_read() {
        let mut lines = vec![r#"{"type":"session","cwd":"/x"}"#.to_owned()];
        for seq in 0..3000u64 {
            lines.push(match seq % 7 {
                0 => format!(
                    r#"{{"type":"user/message","seq":{seq},"data":{{"source":{{"kind":"agent-instructions","changes":[{{"action":"set","scope":"s{}","path":"AGENTS.md","digest":"d{seq}"}}]}}}},"surfaceOp":"append"}}"#,
                    seq % 5
                ),
                1 | 2 => format!(r#"{{"type":"assistant/chunk","seq":{seq},"data":{{"text":"{}"}}}}"#, "w".repeat((seq % 300) as usize)),
                3 => format!(r#"{{"type":"tool/result","seq":{seq},"data":{{"text":"a\nb \"c\""}},"surfaceOp":"append"}}"#),
                4 => String::new(),
                5 => format!(r#"{{"type":"step/end","seq":{seq},"data":{{"x":"\u00e9 é"}}}}"#),
                _ => format!(r#"{{"type":"assistant/message","seq":{seq},"data":{{"n":[1,2.5e3,-0]}},"surfaceOp":"append"}}"#),
            });
        }
        let text = lines.join("\n") + "\n";
        assert!(text.len() > 20 * CHUNK, "{}", text.len());
        let one = trickle(&text, 1, false).unwrap();
        for step in [CHUNK, 3 * CHUNK + 17, 1 << 30] {
            let big = trickle(&text, step, false).unwrap();
            assert_eq!(format!("{big:?}"), format!("{one:?}"), "step {step}");
        }
        assert_eq!(one.lines, 3001);
        assert_eq!(one.workspace.len(), 429);
        // A bad line anywhere is the first error, named by its line.
        for bad in [2, 1500, 2999] {
            let mut broken = lines.clone();
            broken[bad] = r#"{"type":"user/message","seq":1,"data":tru}"#.to_owned();
            let text = broken.join("\n") + "\n";
            let want = trickle(&text, 1, false).unwrap_err();
            assert!(
                want.message.starts_with(&format!("t.jsonl:{}:", bad + 1)),
                "{}",
                want.message
            );
            for step in [CHUNK, 1 << 30] {
                assert_eq!(
                    trickle(&text, step, false).unwrap_err(),
                    want,
                    "step {step}"
                );
            }
        }
    }

    /// A source that fails after `fail_at` bytes, in reads of `step`.
    struct Failing {
        data: Vec<u8>,
        pos: usize,
        step: usize,
        fail_at: usize,
    }

    impl Read for Failing {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.pos >= self.fail_at {
                return Err(io::Error::other("disk on fire"));
            }
            let n = self.step.min(out.len()).min(self.fail_at - self.pos);
            out[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    impl LogSource for Failing {}

    /// A read that fails while earlier lines are still being read: a bad
    /// line among those is the error said, else the failed read.
    #[test]
    fn a_failed_read_comes_after_the_lines_before_it() {
        let line = |seq: u64| {
            format!(r#"{{"type":"tool/result","seq":{seq},"data":{{}},"surfaceOp":"append"}}"#)
        };
        let mut lines: Vec<String> = (0..4000).map(line).collect();
        let text = lines.join("\n") + "\n";
        let fail_at = text.len() - 1000;
        for step in [CHUNK / 3, CHUNK, 1 << 30] {
            let read = |text: &str| {
                let reader = Failing {
                    data: text.as_bytes().to_vec(),
                    pos: 0,
                    step,
                    fail_at,
                };
                read_from(reader, "t.jsonl".into(), ReadOptions::default())
            };
            assert_eq!(
                read(&text).unwrap_err().message,
                "t.jsonl: disk on fire",
                "step {step}"
            );
            lines[3000] = r#"{"type":"tool/result","seq":3000,"surfaceOp":"append",}"#.to_owned();
            let broken = lines.join("\n") + "\n";
            let err = read(&broken).unwrap_err();
            assert!(
                err.message.starts_with("t.jsonl:3001:"),
                "step {step}: {}",
                err.message
            );
            lines[3000] = line(3000);
        }
    }
}

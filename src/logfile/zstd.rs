//! dsh's `session.jsonl.zstd` container: independent Zstandard frames, each
//! with a content checksum; the first holds the header line, each later one a
//! batch of whole lines.
//!
//! 1. A decoder thread reads the compressed bytes and decodes one frame at a
//!    time into a batch buffer, remembering the byte offset of each frame.
//!    A frame's bytes are released only once the frame is complete and its
//!    checksum verified, so a torn final frame contributes nothing.
//! 2. Batches of about [`BATCH`] decoded bytes travel over a bounded channel
//!    (constant memory: a few batches plus the largest frame); the reading
//!    side hands them to the line scanner and counts each frame's lines, so
//!    a line number in an error can be traced back to its frame.
//! 3. The end: clean, a torn final frame (the dropped byte count is kept for
//!    one warning), or a corrupt complete frame (an error naming its offset).

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use zstd::stream::raw::{Decoder, InBuffer, Operation, OutBuffer};

use crate::log::read_some;

/// The first bytes of a Zstandard frame.
pub const MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Decoded bytes per batch sent to the reading side.
const BATCH: usize = 1 << 20;
/// Batches in flight between the threads.
const IN_FLIGHT: usize = 3;
/// Compressed bytes read at a time.
const INPUT: usize = 256 << 10;
/// Decoded bytes of recent frames whose line ranges are kept, beyond twice
/// the largest frame: the scanner never lags further behind than that.
const LINE_MAP_WINDOW: u64 = if cfg!(test) { 4 << 10 } else { 16 << 20 };

/// How a container ended, once it is read to the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Every frame was complete.
    Clean,
    /// The last frame, at `offset`, was incomplete: its `bytes` were dropped.
    Torn { offset: u64, bytes: u64 },
}

/// Why a container could not be read.
#[derive(Debug)]
pub enum Failure {
    /// A complete frame at `offset` failed to decode or its checksum differs.
    Corrupt {
        offset: u64,
        why: String,
    },
    /// The frame at `offset` asks for a window of `window` bytes, more than
    /// [`WINDOW_LIMIT`] (the decoder refuses it rather than allocate it).
    WindowTooLarge {
        offset: u64,
        window: u64,
    },
    Io(io::Error),
}

/// The largest window a frame may ask for: zstd's default decoder limit
/// (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`, 2^27 bytes). A frame never costs more
/// than its window of decoder memory.
pub const WINDOW_LIMIT: u64 = 128 << 20;

/// A window size as messages say it: MiB when whole, else bytes.
#[must_use]
pub fn show_bytes(n: u64) -> String {
    if n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else {
        format!("{n}-byte")
    }
}

/// The window a frame header asks for, read from its first bytes (RFC 8878
/// 3.1.1.1); `None` when they are not a whole Zstandard frame header.
fn window_size(head: &[u8]) -> Option<u64> {
    if head.get(..4)? != MAGIC {
        return None;
    }
    let descriptor = *head.get(4)?;
    if descriptor & 0x20 == 0 {
        // Window_Descriptor: exponent and mantissa.
        let wd = *head.get(5)?;
        let base = 1u64 << (10 + u32::from(wd >> 3));
        return Some(base + (base / 8) * u64::from(wd & 7));
    }
    // A single segment: the window is the frame content size.
    let dict = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let fcs = [1, 2, 4, 8][usize::from(descriptor >> 6)];
    let at = 5 + dict;
    let bytes = head.get(at..at + fcs)?;
    let mut size = [0u8; 8];
    size[..fcs].copy_from_slice(bytes);
    let size = u64::from_le_bytes(size);
    Some(if fcs == 2 { size + 256 } else { size })
}

/// One batch of whole decoded frames: the bytes and, per frame, its
/// compressed offset and where its bytes begin in `data`.
struct Batch {
    data: Vec<u8>,
    frames: Vec<(u64, usize)>,
    /// Frames that decoded to nothing (skippable or empty ones): counted,
    /// never listed, so that millions of them cost no memory (issue 21).
    empty: u64,
}

enum Message {
    Batch(Batch),
    /// The end, and how many compressed bytes were read in all.
    End(End, u64),
    Failed(Failure),
}

/// Decodes frames one at a time from a compressed stream.
struct Frames<R> {
    src: R,
    dctx: Decoder<'static>,
    input: Vec<u8>,
    pos: usize,
    len: usize,
    /// Compressed bytes before `input[0]`.
    consumed: u64,
    /// The first bytes of the frame being decoded (its header), for saying
    /// why the decoder refused it.
    head: [u8; 18],
    head_len: usize,
}

enum Next {
    Frame { offset: u64 },
    End(End),
}

impl<R: Read> Frames<R> {
    fn new(src: R) -> io::Result<Self> {
        Ok(Frames {
            src,
            dctx: Decoder::new()?,
            input: vec![0; INPUT],
            pos: 0,
            len: 0,
            consumed: 0,
            head: [0; 18],
            head_len: 0,
        })
    }

    /// Decodes the next whole frame onto the end of `out`; on a torn frame
    /// `out` is left as it was.
    fn next(&mut self, out: &mut Vec<u8>) -> Result<Next, Failure> {
        let offset = self.consumed + self.pos as u64;
        let mark = out.len();
        let mut started = false;
        loop {
            if self.pos == self.len {
                self.consumed += self.len as u64;
                self.pos = 0;
                self.len = read_some(&mut self.src, &mut self.input).map_err(Failure::Io)?;
                if self.len == 0 {
                    if !started {
                        return Ok(Next::End(End::Clean));
                    }
                    out.truncate(mark);
                    let bytes = self.consumed - offset;
                    return Ok(Next::End(End::Torn { offset, bytes }));
                }
            }
            if !started {
                self.head_len = 0;
            }
            if self.head_len < self.head.len() {
                let more = &self.input[self.pos..self.len];
                let n = more.len().min(self.head.len() - self.head_len);
                self.head[self.head_len..self.head_len + n].copy_from_slice(&more[..n]);
                self.head_len += n;
            }
            started = true;
            if out.capacity() - out.len() < (64 << 10) {
                out.reserve(out.capacity().max(128 << 10));
            }
            let mut input = InBuffer::around(&self.input[self.pos..self.len]);
            let at = out.len();
            let mut output = OutBuffer::around_pos(out, at);
            let head = &self.head[..self.head_len];
            let hint = self.dctx.run(&mut input, &mut output).map_err(|e| {
                out.truncate(mark);
                match window_size(head) {
                    Some(window) if window > WINDOW_LIMIT => {
                        Failure::WindowTooLarge { offset, window }
                    }
                    _ => Failure::Corrupt {
                        offset,
                        why: e.to_string(),
                    },
                }
            })?;
            self.pos += input.pos();
            if hint == 0 {
                return Ok(Next::Frame { offset });
            }
        }
    }
}

/// The decoder thread's loop: whole frames, batched.
fn decode<R: Read>(src: R, tx: &SyncSender<Message>, spare: &Receiver<Vec<u8>>) {
    let mut frames = match Frames::new(src) {
        Ok(f) => f,
        Err(e) => {
            let _ = tx.send(Message::Failed(Failure::Io(e)));
            return;
        }
    };
    let mut batch = Batch {
        data: Vec::with_capacity(BATCH + (BATCH >> 2)),
        frames: Vec::new(),
        empty: 0,
    };
    loop {
        let start = batch.data.len();
        let next = frames.next(&mut batch.data);
        let done = match next {
            Ok(Next::Frame { offset }) => {
                if batch.data.len() == start {
                    // No line can begin in it: nothing to trace back to it.
                    batch.empty += 1;
                } else {
                    batch.frames.push((offset, start));
                }
                if batch.data.len() < BATCH {
                    continue;
                }
                None
            }
            Ok(Next::End(end)) => Some(Message::End(end, frames.consumed)),
            Err(failure) => Some(Message::Failed(failure)),
        };
        if !batch.frames.is_empty() || batch.empty > 0 {
            let mut data = spare.try_recv().unwrap_or_default();
            data.clear();
            let full = Batch {
                data: std::mem::replace(&mut batch.data, data),
                frames: std::mem::take(&mut batch.frames),
                empty: std::mem::take(&mut batch.empty),
            };
            if tx.send(Message::Batch(full)).is_err() {
                return;
            }
        }
        if let Some(last) = done {
            let _ = tx.send(last);
            return;
        }
    }
}

/// A frame's place in the decoded text, kept for tracing lines to frames.
#[derive(Debug, Clone, Copy)]
struct FrameLines {
    offset: u64,
    /// The line its first byte belongs to.
    first_line: u64,
    /// Whether it begins inside a line (dsh never splits a line).
    mid_line: bool,
    /// Decoded bytes before the frame.
    start: u64,
    len: u64,
}

/// The decoded text of a container, read by the line scanner.
#[allow(missing_debug_implementations)]
pub struct Container {
    rx: Receiver<Message>,
    spare: SyncSender<Vec<u8>>,
    current: Vec<u8>,
    pos: usize,
    /// Where the frames of `current` begin in it.
    frames: Vec<(u64, usize)>,
    next_frame: usize,
    /// Lines begun before `current[pos]`: newlines handed out, plus one.
    line: u64,
    handed: u64,
    after_newline: bool,
    recent: VecDeque<FrameLines>,
    largest_frame: u64,
    end: Option<End>,
    failure: Option<Failure>,
    pub frame_count: u64,
    /// Compressed bytes read, once the end is reached.
    compressed: u64,
}

impl Container {
    /// Starts decoding `src` (positioned at the container's first byte) on
    /// its own thread.
    ///
    /// # Errors
    ///
    /// When the decoder or its thread cannot be set up.
    pub fn start<R: Read + Send + 'static>(src: R) -> io::Result<Self> {
        let (tx, rx) = sync_channel(IN_FLIGHT);
        let (spare, spare_rx) = sync_channel(IN_FLIGHT);
        std::thread::Builder::new()
            .name("zstd-decoder".into())
            .spawn(move || decode(src, &tx, &spare_rx))?;
        Ok(Container {
            rx,
            spare,
            current: Vec::new(),
            pos: 0,
            frames: Vec::new(),
            next_frame: 0,
            line: 1,
            handed: 0,
            after_newline: true,
            recent: VecDeque::new(),
            largest_frame: 0,
            end: None,
            failure: None,
            frame_count: 0,
            compressed: 0,
        })
    }

    /// How the container ended (after the scanner saw its end).
    #[must_use]
    pub fn end(&self) -> Option<&End> {
        self.end.as_ref()
    }

    /// How many compressed bytes the container was, once its end was read:
    /// a second read of a growing file stops there (issue 21).
    #[must_use]
    pub fn compressed_len(&self) -> u64 {
        self.compressed
    }

    /// Why reading stopped early, if it did.
    pub fn take_failure(&mut self) -> Option<Failure> {
        self.failure.take()
    }

    /// The compressed offset of the frame holding the start of `line`, if
    /// that frame is still remembered.
    #[must_use]
    pub fn frame_of_line(&self, line: u64) -> Option<u64> {
        let k = self.recent.partition_point(|f| f.first_line <= line);
        let mut i = k.checked_sub(1)?;
        // A frame that begins inside `line` (a line split across frames,
        // which dsh never writes) is not where the line starts.
        while i > 0 && self.recent[i].first_line == line && self.recent[i].mid_line {
            i -= 1;
        }
        Some(self.recent[i].offset)
    }

    /// Where the frame of `current` before frame `i` ends: where frame `i`
    /// begins, or the end of the batch.
    fn frame_end(&self, i: usize) -> usize {
        self.frames.get(i).map_or(self.current.len(), |f| f.1)
    }

    /// Takes the next batch; false at the end of the stream.
    fn refill(&mut self) -> bool {
        if self.end.is_some() || self.failure.is_some() {
            return false;
        }
        match self.rx.recv() {
            Ok(Message::Batch(batch)) => {
                let old = std::mem::replace(&mut self.current, batch.data);
                let _ = self.spare.try_send(old);
                self.frame_count += batch.frames.len() as u64 + batch.empty;
                self.frames = batch.frames;
                self.next_frame = 0;
                self.pos = 0;
                true
            }
            Ok(Message::End(end, read)) => {
                self.end = Some(end);
                self.compressed = read;
                false
            }
            Ok(Message::Failed(f)) => {
                self.failure = Some(f);
                false
            }
            Err(_) => {
                self.failure = Some(Failure::Io(io::Error::other("the zstd decoder stopped")));
                false
            }
        }
    }

    /// Notes the frames that begin in `current[from..to]` and counts the
    /// lines handed out.
    fn note(&mut self, from: usize, to: usize) {
        let mut at = from;
        while at < to {
            if self.frames.get(self.next_frame).is_some_and(|f| f.1 == at) {
                let (offset, start) = self.frames[self.next_frame];
                let end = self.frame_end(self.next_frame + 1);
                let len = (end - start) as u64;
                self.largest_frame = self.largest_frame.max(len);
                self.recent.push_back(FrameLines {
                    offset,
                    first_line: self.line,
                    mid_line: self.handed > 0 && !self.after_newline,
                    start: self.handed,
                    len,
                });
                self.next_frame += 1;
            }
            // The frame `at` is in ends where the next one begins.
            let stop = self.frame_end(self.next_frame).min(to);
            self.line += memchr::memchr_iter(b'\n', &self.current[at..stop]).count() as u64;
            if stop > at {
                self.handed += (stop - at) as u64;
                self.after_newline = self.current[stop - 1] == b'\n';
            }
            at = stop;
        }
        let keep = 2 * self.largest_frame + LINE_MAP_WINDOW;
        while self.recent.len() > 1
            && self.recent[1].start + self.recent[1].len + keep < self.handed
        {
            self.recent.pop_front();
        }
    }
}

impl Read for Container {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.current.len() {
            if !self.refill() {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.current.len() - self.pos);
        buf[..n].copy_from_slice(&self.current[self.pos..self.pos + n]);
        self.note(self.pos, self.pos + n);
        self.pos += n;
        Ok(n)
    }
}

impl crate::log::LogSource for &mut Container {}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    /// Frames of `lines_per_frame` lines each, and each frame's offset.
    fn container(lines: &[String], lines_per_frame: usize) -> (Vec<u8>, Vec<u64>) {
        let mut out = Vec::new();
        let mut offsets = Vec::new();
        for group in lines.chunks(lines_per_frame) {
            offsets.push(out.len() as u64);
            let mut enc = zstd::stream::Encoder::new(&mut out, 1).unwrap();
            enc.include_checksum(true).unwrap();
            std::io::Write::write_all(&mut enc, group.concat().as_bytes()).unwrap();
            enc.finish().unwrap();
        }
        (out, offsets)
    }

    fn read_all(c: &mut Container) -> Vec<u8> {
        let mut text = Vec::new();
        let mut buf = [0u8; 1000];
        loop {
            let n = c.read(&mut buf).unwrap();
            if n == 0 {
                return text;
            }
            text.extend_from_slice(&buf[..n]);
        }
    }

    #[test]
    fn lines_trace_back_to_their_frames_within_a_bounded_window() {
        let lines: Vec<String> = (0..3000).map(|i| format!("{{\"n\":{i}}}\n")).collect();
        let (bytes, offsets) = container(&lines, 3);
        let mut c = Container::start(io::Cursor::new(bytes)).unwrap();
        assert_eq!(read_all(&mut c), lines.concat().into_bytes());
        assert_eq!((c.end(), c.frame_count), (Some(&End::Clean), 1000));
        // The last lines are remembered: line 2998 is the first of frame 999.
        assert_eq!(c.frame_of_line(2998), Some(offsets[999]));
        assert_eq!(c.frame_of_line(3000), Some(offsets[999]));
        assert_eq!(c.frame_of_line(2997), Some(offsets[998]));
        // The first ones were forgotten: the map is bounded.
        assert!(c.recent.len() < 1000, "{}", c.recent.len());
        assert_eq!(c.frame_of_line(1), None);
    }

    #[test]
    fn a_line_split_across_frames_belongs_to_the_frame_it_begins_in() {
        let parts = [
            "{\"a\":1}\n{\"b\":".to_owned(),
            "2}\n".to_owned(),
            "{}\n".to_owned(),
        ];
        let (bytes, offsets) = container(&parts, 1);
        let mut c = Container::start(io::Cursor::new(bytes)).unwrap();
        read_all(&mut c);
        assert_eq!(c.frame_of_line(2), Some(offsets[0]));
        assert_eq!(c.frame_of_line(3), Some(offsets[2]));
    }

    #[test]
    fn a_torn_frame_gives_nothing_and_a_corrupt_one_stops_reading() {
        let lines: Vec<String> = (0..4).map(|i| format!("{{\"n\":{i}}}\n")).collect();
        let (bytes, offsets) = container(&lines, 2);
        let cut = bytes.len() - 3;
        let mut c = Container::start(io::Cursor::new(bytes[..cut].to_vec())).unwrap();
        assert_eq!(read_all(&mut c), lines[..2].concat().into_bytes());
        let torn = End::Torn {
            offset: offsets[1],
            bytes: cut as u64 - offsets[1],
        };
        assert_eq!(c.end(), Some(&torn));

        let mut bad = bytes;
        let last = bad.len() - 1;
        bad[last] ^= 1;
        let mut c = Container::start(io::Cursor::new(bad)).unwrap();
        assert_eq!(read_all(&mut c), lines[..2].concat().into_bytes());
        match c.take_failure() {
            Some(Failure::Corrupt { offset, .. }) => assert_eq!(offset, offsets[1]),
            other => panic!("{other:?}"),
        }
    }
}

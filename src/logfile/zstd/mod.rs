//! dsh's `session.jsonl.zstd` container: independent Zstandard frames, each
//! with a content checksum; the first holds the header line, each later one a
//! batch of whole lines.
//!
//! 1. A decoder thread reads the compressed bytes and decodes one frame at a
//!    time into a batch buffer, remembering the byte offset of each frame.
//!    A frame of up to [`HOLD`] decoded bytes is released only once it is
//!    complete and its checksum verified, so a torn final frame contributes
//!    nothing; a larger one is streamed in parts (issue 21: a frame can
//!    decode to gigabytes), and a torn streamed frame is an error, since
//!    its first bytes were already read.
//! 2. Batches of about [`BATCH`] decoded bytes travel over a bounded channel
//!    (constant memory: a few batches of at most [`HOLD`] plus [`BATCH`]);
//!    the reading side hands them to the line scanner and counts each
//!    frame's lines, so a line number in an error can be traced back to its
//!    frame.
//! 3. A container read from a file can rewind (the scanner streams a long
//!    line that cannot matter and reads it again if a marker turns up
//!    late): decoding restarts, with positioned reads of the file, at the
//!    frame holding the line's start, which the scanner's mark
//!    ([`LogSource::mark`]) keeps remembered.
//! 4. The end: clean, a torn final frame (the dropped byte count is kept for
//!    one warning), or a corrupt complete frame (an error naming its offset).

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender};

use crate::log::LogSource;

mod decode;

use decode::{Listed, Message, Positioned, spawn};

/// The first bytes of a Zstandard frame.
pub const MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Decoded bytes per batch sent to the reading side.
const BATCH: usize = 1 << 20;
/// A frame that decodes to at most this many bytes is held until its
/// checksum is verified (a torn one is dropped whole); a larger one is
/// streamed in parts of about [`BATCH`] bytes.
pub const HOLD: usize = if cfg!(test) { 64 << 10 } else { 4 << 20 };
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
    /// The last frame, at `offset`, was incomplete after `bytes` compressed
    /// bytes, and it decoded to more than [`HOLD`] bytes: its first ones
    /// were read already, so it cannot be dropped as a held frame is.
    TornStreamed {
        offset: u64,
        bytes: u64,
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

/// A frame's place in the decoded text, kept for tracing lines to frames
/// and for restarting the decoder there.
#[derive(Debug, Clone, Copy)]
struct FrameLines {
    offset: u64,
    /// Complete frames before it.
    index: u64,
    /// The line its first byte belongs to.
    first_line: u64,
    /// Whether it begins inside a line (dsh never splits a line).
    mid_line: bool,
    /// Decoded bytes before the frame.
    start: u64,
    len: u64,
}

/// The file a container is read from, for restarting its decoder.
#[derive(Debug)]
struct Rewind {
    file: Arc<File>,
    /// Compressed bytes of it that are read.
    end: u64,
}

/// The decoded text of a container, read by the line scanner.
#[allow(missing_debug_implementations)]
pub struct Container {
    rx: Receiver<Message>,
    spare: SyncSender<Vec<u8>>,
    current: Vec<u8>,
    pos: usize,
    /// The frames that begin in `current`.
    frames: Vec<Listed>,
    next_frame: usize,
    /// Lines begun before `current[pos]`: newlines handed out, plus one.
    line: u64,
    handed: u64,
    after_newline: bool,
    recent: VecDeque<FrameLines>,
    largest_frame: u64,
    /// The scanner's mark: it may rewind to this decoded offset (the frame
    /// holding it stays remembered), and reports no line before it.
    mark: Option<u64>,
    rewind: Option<Rewind>,
    end: Option<End>,
    pub(crate) failure: Option<Failure>,
    pub frame_count: u64,
    /// Compressed bytes read, once the end is reached.
    compressed: u64,
}

impl Container {
    /// Starts decoding `src` (positioned at the container's first byte) on
    /// its own thread. It cannot rewind: a long line in it is held.
    ///
    /// # Errors
    ///
    /// When the decoder or its thread cannot be set up.
    pub fn start<R: Read + Send + 'static>(src: R) -> io::Result<Self> {
        let (rx, spare) = spawn(src, 0, 0)?;
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
            mark: None,
            rewind: None,
            end: None,
            failure: None,
            frame_count: 0,
            compressed: 0,
        })
    }

    /// Starts decoding the first `len` bytes of a regular file, which can
    /// rewind (it is read with positioned reads, wherever its cursor is).
    ///
    /// # Errors
    ///
    /// When the decoder or its thread cannot be set up.
    pub fn start_file(file: File, len: u64) -> io::Result<Self> {
        let file = Arc::new(file);
        let src = Positioned {
            file: Arc::clone(&file),
            pos: 0,
            end: len,
        };
        let mut container = Container::start(src)?;
        container.rewind = Some(Rewind { file, end: len });
        Ok(container)
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
        self.frames.get(i).map_or(self.current.len(), |f| f.start)
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
                // A restarted decoder counts again frames counted before.
                self.frame_count = self.frame_count.max(batch.done);
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
            if self
                .frames
                .get(self.next_frame)
                .is_some_and(|f| f.start == at)
            {
                let listed = self.frames[self.next_frame];
                let frame = FrameLines {
                    offset: listed.offset,
                    index: listed.index,
                    first_line: self.line,
                    mid_line: self.handed > 0 && !self.after_newline,
                    start: self.handed,
                    len: 0,
                };
                // A frame that begins inside a line and holds no newline
                // holds no line start: it is never traced to, nor restarted
                // at, so a line split across a million frames keeps one.
                match self.recent.back_mut() {
                    Some(last) if last.mid_line && last.first_line == self.line => *last = frame,
                    _ => self.recent.push_back(frame),
                }
                self.next_frame += 1;
            }
            // The frame `at` is in ends where the next one begins.
            let stop = self.frame_end(self.next_frame).min(to);
            self.line += memchr::memchr_iter(b'\n', &self.current[at..stop]).count() as u64;
            if stop > at {
                self.handed += (stop - at) as u64;
                self.after_newline = self.current[stop - 1] == b'\n';
            }
            // Every byte handed out belongs to the last frame noted (frames
            // that decode to nothing are not listed).
            if let Some(last) = self.recent.back_mut() {
                last.len = self.handed - last.start;
                self.largest_frame = self.largest_frame.max(last.len);
            }
            at = stop;
        }
        self.forget();
    }

    /// Forgets the frames no line can be traced to any more: with a mark,
    /// those wholly before it; without, those far enough behind (the
    /// scanner never lags further behind than twice a held frame).
    fn forget(&mut self) {
        match self.mark {
            Some(mark) => {
                while self.recent.len() > 1 && self.recent[1].start <= mark {
                    self.recent.pop_front();
                }
            }
            None => {
                let keep = 2 * self.largest_frame.min(HOLD as u64) + LINE_MAP_WINDOW;
                while self.recent.len() > 1
                    && self.recent[1].start + self.recent[1].len + keep < self.handed
                {
                    self.recent.pop_front();
                }
            }
        }
    }

    /// Restarts decoding at the frame holding decoded offset `to`, and
    /// skips to it.
    fn restart(&mut self, to: u64) -> io::Result<()> {
        let Some(rewind) = &self.rewind else {
            return Err(io::Error::from(io::ErrorKind::Unsupported));
        };
        let k = self.recent.partition_point(|f| f.start <= to);
        let Some(i) = k.checked_sub(1) else {
            return Err(io::Error::other(
                "the zstd frame to read again was forgotten",
            ));
        };
        let frame = self.recent[i];
        let src = Positioned {
            file: Arc::clone(&rewind.file),
            pos: frame.offset,
            end: rewind.end,
        };
        // The old decoder stops at its next send: its channel is dropped.
        (self.rx, self.spare) = spawn(src, frame.offset, frame.index)?;
        self.recent.truncate(i);
        self.current.clear();
        self.pos = 0;
        self.frames.clear();
        self.next_frame = 0;
        self.line = frame.first_line;
        self.handed = frame.start;
        self.after_newline = !frame.mid_line;
        self.end = None;
        self.failure = None;
        let mut skip = to - frame.start;
        let mut scratch = vec![0u8; BATCH.min(usize::try_from(skip).unwrap_or(BATCH))];
        while skip > 0 {
            let want = usize::try_from(skip)
                .unwrap_or(usize::MAX)
                .min(scratch.len());
            let n = self.read(&mut scratch[..want])?;
            if n == 0 {
                return Err(io::Error::other(
                    "the zstd frames read again ended early (the file changed?)",
                ));
            }
            skip -= n as u64;
        }
        Ok(())
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

impl LogSource for &mut Container {
    fn can_rewind(&self) -> bool {
        self.rewind.is_some()
    }

    fn rewind_to(&mut self, offset: u64) -> io::Result<()> {
        self.restart(offset)
    }

    fn mark(&mut self, offset: u64) {
        self.mark = Some(offset);
    }

    fn has_own_thread(&self) -> bool {
        true
    }
}

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

    /// A frame that decodes to more than HOLD is streamed in parts: the
    /// text and the frame count are those of a held read, and a torn one is
    /// a failure (its first parts were given), not a silent drop.
    #[test]
    fn a_frame_over_the_hold_streams_and_a_torn_one_fails() {
        let big = format!("{}\n", "y".repeat(5 * HOLD));
        let lines = vec!["{}\n".to_owned(), big.clone(), "{}\n".to_owned()];
        let (bytes, offsets) = container(&lines, 1);
        let mut c = Container::start(io::Cursor::new(bytes.clone())).unwrap();
        assert_eq!(read_all(&mut c), lines.concat().into_bytes());
        assert_eq!((c.end(), c.frame_count), (Some(&End::Clean), 3));
        assert_eq!(c.frame_of_line(2), Some(offsets[1]));
        assert_eq!(c.frame_of_line(3), Some(offsets[2]));

        let cut = usize::try_from(offsets[2]).unwrap() - 3;
        let mut c = Container::start(io::Cursor::new(bytes[..cut].to_vec())).unwrap();
        let text = read_all(&mut c);
        assert!(
            text.len() > HOLD && text.len() < 4 + big.len(),
            "{}",
            text.len()
        );
        match c.take_failure() {
            Some(Failure::TornStreamed { offset, bytes }) => {
                assert_eq!((offset, bytes), (offsets[1], cut as u64 - offsets[1]));
            }
            other => panic!("{other:?}"),
        }
    }

    /// A container read from a file rewinds to a marked line start, even
    /// one in a frame long gone by, by decoding again from that frame.
    #[test]
    fn a_file_container_rewinds_to_a_marked_line() {
        let lines: Vec<String> = (0..2000).map(|i| format!("{{\"n\":{i}}}\n")).collect();
        let (bytes, _) = container(&lines, 7);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.zst");
        std::fs::write(&path, &bytes).unwrap();
        let text = lines.concat().into_bytes();
        // The start of line 101 (1-based): inside a frame, not at its start.
        let at: usize = lines[..100].iter().map(String::len).sum();
        let file = File::open(&path).unwrap();
        let mut c = Container::start_file(file, bytes.len() as u64).unwrap();
        let mut src = &mut c;
        let mut head = vec![0u8; at];
        src.read_exact(&mut head).unwrap();
        src.mark(at as u64);
        let mut rest = Vec::new();
        src.read_to_end(&mut rest).unwrap();
        assert_eq!([head, rest].concat(), text);
        src.rewind_to(at as u64).unwrap();
        let mut again = Vec::new();
        src.read_to_end(&mut again).unwrap();
        assert_eq!(again, text[at..].to_vec());
        assert_eq!((c.end(), c.frame_count), (Some(&End::Clean), 286));
        assert_eq!(c.compressed_len(), bytes.len() as u64);
    }
}

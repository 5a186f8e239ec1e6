//! Decoding a container's frames on a thread of their own: one frame at a
//! time ([`Frames`]), batched ([`decode`]) and sent to the reading side
//! (`super::Container`), from a stream or by positioned reads of a file.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use zstd::stream::raw::{Decoder, InBuffer, Operation, OutBuffer};

use super::{BATCH, End, Failure, HOLD, IN_FLIGHT, INPUT, MAGIC, WINDOW_LIMIT};
use crate::log::read_some;

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
pub(super) struct Batch {
    pub(super) data: Vec<u8>,
    pub(super) frames: Vec<Listed>,
    /// Complete frames decoded before the end of this batch, counting from
    /// the container's first: frames that decoded to nothing (skippable or
    /// empty ones) are counted, never listed, so that millions of them cost
    /// no memory (issue 21).
    pub(super) done: u64,
}

/// A frame that begins in a batch.
#[derive(Debug, Clone, Copy)]
pub(super) struct Listed {
    /// Its compressed offset.
    pub(super) offset: u64,
    /// Where its bytes begin in the batch.
    pub(super) start: usize,
    /// Complete frames before it.
    pub(super) index: u64,
}

pub(super) enum Message {
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
    /// The offset of a frame being streamed, whose first parts were given.
    streaming: Option<u64>,
}

enum Next {
    /// The frame at `offset` is complete.
    Frame {
        offset: u64,
    },
    /// The frame at `offset` goes on: it is streamed.
    Part {
        offset: u64,
    },
    End(End),
}

impl<R: Read> Frames<R> {
    /// Decodes `src`, whose first byte is at compressed offset `start`.
    fn new(src: R, start: u64) -> io::Result<Self> {
        Ok(Frames {
            src,
            dctx: Decoder::new()?,
            input: vec![0; INPUT],
            pos: 0,
            len: 0,
            consumed: start,
            head: [0; 18],
            head_len: 0,
            streaming: None,
        })
    }

    /// Decodes the next whole frame onto the end of `out`, or the next part
    /// of at least `hold` bytes of it; on a torn frame `out` is left as it
    /// was (a torn streamed frame is a failure: its first parts were given).
    fn next(&mut self, out: &mut Vec<u8>, hold: usize) -> Result<Next, Failure> {
        let streamed = self.streaming;
        let offset = streamed.unwrap_or(self.consumed + self.pos as u64);
        let mark = out.len();
        let mut started = streamed.is_some();
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
                    if streamed.is_some() {
                        return Err(Failure::TornStreamed { offset, bytes });
                    }
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
                self.streaming = None;
                return Ok(Next::Frame { offset });
            }
            if out.len() - mark >= hold {
                self.streaming = Some(offset);
                return Ok(Next::Part { offset });
            }
        }
    }
}

/// The decoder thread's loop: whole frames (parts of a streamed one),
/// batched. `src` begins at compressed offset `start`, the frame there
/// being the container's `index`th.
fn decode<R: Read>(
    src: R,
    start: u64,
    index: u64,
    tx: &SyncSender<Message>,
    spare: &Receiver<Vec<u8>>,
) {
    let mut frames = match Frames::new(src, start) {
        Ok(f) => f,
        Err(e) => {
            let _ = tx.send(Message::Failed(Failure::Io(e)));
            return;
        }
    };
    let mut batch = Batch {
        data: Vec::with_capacity(BATCH + (BATCH >> 2)),
        frames: Vec::new(),
        done: index,
    };
    // Frames counted by the batches sent.
    let mut sent = index;
    loop {
        let start = batch.data.len();
        let begins = frames.streaming.is_none();
        // A frame's first part may be up to HOLD bytes; later ones a batch.
        let hold = if begins { HOLD } else { BATCH };
        let next = frames.next(&mut batch.data, hold);
        let done = match next {
            Ok(Next::Frame { offset } | Next::Part { offset }) => {
                let part = matches!(next, Ok(Next::Part { .. }));
                // A frame that decoded to nothing holds no line start:
                // nothing to trace back to it.
                if begins && batch.data.len() > start {
                    batch.frames.push(Listed {
                        offset,
                        start,
                        index: batch.done,
                    });
                }
                if !part {
                    batch.done += 1;
                }
                if !part && batch.data.len() < BATCH {
                    continue;
                }
                None
            }
            Ok(Next::End(end)) => Some(Message::End(end, frames.consumed)),
            Err(failure) => Some(Message::Failed(failure)),
        };
        if !batch.data.is_empty() || batch.done != sent {
            let mut data = spare.try_recv().unwrap_or_default();
            data.clear();
            let full = Batch {
                data: std::mem::replace(&mut batch.data, data),
                frames: std::mem::take(&mut batch.frames),
                done: batch.done,
            };
            if tx.send(Message::Batch(full)).is_err() {
                return;
            }
            sent = batch.done;
        }
        if let Some(last) = done {
            let _ = tx.send(last);
            return;
        }
    }
}

/// Positioned reads of a file from `pos` up to `end`: a restarted decoder
/// reads the file without moving anyone else's cursor.
#[derive(Debug)]
pub(super) struct Positioned {
    pub(super) file: Arc<File>,
    pub(super) pos: u64,
    pub(super) end: u64,
}

impl Read for Positioned {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let room = usize::try_from(self.end.saturating_sub(self.pos)).unwrap_or(usize::MAX);
        let n = buf.len().min(room);
        if n == 0 {
            return Ok(0);
        }
        let n = self.file.read_at(&mut buf[..n], self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

/// Starts a decoder thread on `src` (at compressed offset `start`, the
/// container's `index`th frame).
pub(super) fn spawn<R: Read + Send + 'static>(
    src: R,
    start: u64,
    index: u64,
) -> io::Result<(Receiver<Message>, SyncSender<Vec<u8>>)> {
    let (tx, rx) = sync_channel(IN_FLIGHT);
    let (spare, spare_rx) = sync_channel(IN_FLIGHT);
    std::thread::Builder::new()
        .name("zstd-decoder".into())
        .spawn(move || decode(src, start, index, &tx, &spare_rx))?;
    Ok((rx, spare))
}

//! Opening a session log (SPEC 5.1, issue 15). A log is plain JSON Lines,
//! one JSON array, or dsh's zstd container of JSON Lines; which one is
//! decided by its first bytes (the Zstandard magic `28 B5 2F FD`), never by
//! its name, for files and stdin alike.
//!
//! 1. Open the file (or stdin) and peek at its first four bytes.
//! 2. Choose the reader: the file itself (it can rewind for long lines), or
//!    the decoded text of the container ([`zstd::Container`]); the scanner
//!    counts and checks packed rows ([`packed`]) when asked.
//! 3. Let the line scanner of `crate::log` read it, then add what only the
//!    container knows: which frame an erroneous line came from, a torn final
//!    frame (a warning, or an error under `--strict`), a corrupt frame.

pub mod zstd;

pub use crate::log::packed;
pub use crate::log::storage::{Encoding, Storage};

use std::fs::File;
use std::io::{self, Read, Seek};
use std::path::Path;

use crate::log::{self, Log, LogError, LogSource, ReadOptions};
use zstd::{Container, End, Failure};

/// Reads the log at `path` (`-` is stdin) in whichever form it is stored.
///
/// # Errors
///
/// When the log cannot be read or is not a log: the error names the log
/// and, where it is about one, the line (and a container's frame).
pub fn read(path: &Path, opts: ReadOptions) -> Result<Log, LogError> {
    read_file(path, opts, &mut || {})
}

/// [`read`], with `between` run between the two passes of a regular file
/// (a seam for tests: a writer appending there is what a live log does).
fn read_file(path: &Path, opts: ReadOptions, between: &mut dyn FnMut()) -> Result<Log, LogError> {
    let name = path.display().to_string();
    let fail = |e: io::Error| LogError {
        message: format!("{name}: {e}"),
        line: None,
    };
    if name == "-" {
        return read_stream(io::stdin(), name, opts);
    }
    let meta = std::fs::metadata(path).map_err(fail)?;
    if meta.is_dir() {
        return Err(LogError {
            message: format!("{name}: is a directory, not a session log"),
            line: None,
        });
    }
    let mut file = File::open(path).map_err(fail)?;
    let head = Head::peek(&mut file).map_err(fail)?;
    if !file.can_rewind() {
        // A FIFO or a device: what was peeked is replayed.
        return if head.is_zstd() {
            let container = Container::start(head.then(file)).map_err(fail)?;
            read_container(container, &name, opts, Pass::Only)
        } else {
            scan(head.then(file), name, opts, Pass::Only)
        };
    }
    // A regular file with more workspace events than pass 1 holds is read
    // twice (issue 13): pass 2, from a fresh open (a container decoded
    // again), keeps the workspace events that stay visible. It reads the
    // bytes pass 1 read and no more (issue 21): a live session's log grows
    // while it is read, and what was appended after pass 1 is not part of
    // the log pass 1 saw.
    file.rewind().map_err(fail)?;
    let zstd = head.is_zstd();
    let mut log = if zstd {
        // Decoded with positioned reads, so that it can rewind.
        let container = Container::start_file(file, meta.len()).map_err(fail)?;
        read_container(container, &name, opts, Pass::Surface)
    } else {
        let mut counted = Counted::new(file);
        let log = scan(&mut counted, name.clone(), opts, Pass::Surface);
        log.map(|mut log| {
            log.storage.read_bytes = counted.end;
            log
        })
    }?;
    if !log.needs_second_pass {
        return Ok(log);
    }
    between();
    let len = log.storage.read_bytes;
    let file = File::open(path).map_err(fail)?;
    if zstd {
        let mut container = Container::start_file(file, len).map_err(fail)?;
        log::fold_visible(&mut container, &mut log, opts, opts.needs.kind)?;
    } else {
        let mut limited = Counted::new(file);
        limited.limit = len;
        log::fold_visible(&mut limited, &mut log, opts, opts.needs.kind)?;
    }
    if let Ok(now) = std::fs::metadata(path) {
        if now.len() > len {
            let grew = usize::try_from(now.len() - len).unwrap_or(usize::MAX);
            log.warnings.push(format!(
                "{name}: ignoring {} appended while it was read (the log is read as its first {len} bytes)",
                crate::text::plural(grew, "byte", "bytes")
            ));
        }
    }
    Ok(log)
}

/// A file read up to `limit` bytes, noting how far it was read (`end`).
#[derive(Debug)]
struct Counted {
    file: File,
    pos: u64,
    end: u64,
    limit: u64,
}

impl Counted {
    fn new(file: File) -> Self {
        Counted {
            file,
            pos: 0,
            end: 0,
            limit: u64::MAX,
        }
    }
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let room = usize::try_from(self.limit - self.pos).unwrap_or(usize::MAX);
        let n = buf.len().min(room);
        let n = self.file.read(&mut buf[..n])?;
        self.pos += n as u64;
        self.end = self.end.max(self.pos);
        Ok(n)
    }
}

impl LogSource for &mut Counted {
    fn can_rewind(&self) -> bool {
        true
    }

    fn rewind_to(&mut self, offset: u64) -> io::Result<()> {
        self.file.rewind_to(offset)?;
        self.pos = offset;
        Ok(())
    }
}

/// Which read of a log this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// The only one (a stream): every workspace event held until the end.
    Only,
    /// Pass 1 of one or two: workspace events held up to a bound, past it
    /// none (then `log::fold_visible` is pass 2).
    Surface,
}

/// Reads a log from a stream that cannot rewind (stdin, a pipe, a fuzzer's
/// bytes), in whichever form it is; `name` is what messages call it.
///
/// # Errors
///
/// When the log cannot be read or is not a log: the error names the log
/// and, where it is about one, the line (and a container's frame).
pub fn read_stream<R: Read + Send + 'static>(
    mut src: R,
    name: String,
    opts: ReadOptions,
) -> Result<Log, LogError> {
    let head = Head::peek(&mut src).map_err(|e| LogError {
        message: format!("{name}: {e}"),
        line: None,
    })?;
    if head.is_zstd() {
        let container = Container::start(head.then(src)).map_err(|e| LogError {
            message: format!("{name}: {e}"),
            line: None,
        })?;
        read_container(container, &name, opts, Pass::Only)
    } else {
        scan(head.then(src), name, opts, Pass::Only)
    }
}

/// Runs the line scanner over `src`; packed rows are read by the scanner
/// itself when they are counted or checked (`Needs::packed_rows`).
fn scan<R: LogSource>(
    src: R,
    name: String,
    opts: ReadOptions,
    pass: Pass,
) -> Result<Log, LogError> {
    let needs = log::Needs {
        packed_rows: opts.strict || opts.count_packed,
        ..opts.needs
    };
    read_pass(src, name, opts, needs, pass)
}

/// Reads `src` as `pass` reads it.
fn read_pass<R: LogSource>(
    src: R,
    name: String,
    opts: ReadOptions,
    needs: log::Needs,
    pass: Pass,
) -> Result<Log, LogError> {
    match pass {
        Pass::Only => log::read_from_with(src, name, opts, needs),
        Pass::Surface => log::read_surface_from(src, name, opts, needs),
    }
}

fn read_container(
    mut container: Container,
    name: &str,
    opts: ReadOptions,
    pass: Pass,
) -> Result<Log, LogError> {
    let result = scan(&mut container, name.to_owned(), opts, pass);
    let frame_of = |e: LogError, c: &Container| match e.line.and_then(|l| c.frame_of_line(l)) {
        Some(offset) => LogError {
            message: format!("{} (in the zstd frame at byte {offset})", e.message),
            line: e.line,
        },
        None => e,
    };
    // A torn streamed frame is the error, whatever its torn last line made
    // the scanner say; any other scanner error comes first.
    let torn_streamed = matches!(container.failure, Some(Failure::TornStreamed { .. }));
    let mut log = match result {
        Ok(log) => Some(log),
        Err(_) if torn_streamed => None,
        Err(e) => return Err(frame_of(e, &container)),
    };
    if let Some(failure) = container.take_failure() {
        let message = match failure {
            Failure::Corrupt { offset, why } => {
                format!("{name}: the zstd frame at byte {offset} is corrupt: {why}")
            }
            Failure::WindowTooLarge { offset, window } => format!(
                "{name}: the zstd frame at byte {offset} asks for a {} window, more than the {} limit",
                zstd::show_bytes(window),
                zstd::show_bytes(zstd::WINDOW_LIMIT)
            ),
            Failure::TornStreamed { offset, bytes } => format!(
                "{name}: the last zstd frame, at byte {offset}, is incomplete ({}; a writer stopped mid-frame?), and it decodes to more than {}, which are read as they decode: it cannot be dropped",
                crate::text::plural(
                    usize::try_from(bytes).unwrap_or(usize::MAX),
                    "byte",
                    "bytes"
                ),
                zstd::show_bytes(zstd::HOLD as u64)
            ),
            Failure::Io(e) => format!("{name}: {e}"),
        };
        return Err(LogError {
            message,
            line: None,
        });
    }
    let Some(mut log) = log.take() else {
        return Err(LogError {
            message: format!("{name}: the zstd decoder stopped"),
            line: None,
        });
    };
    if let Some(End::Torn { offset, bytes }) = container.end() {
        let bytes = usize::try_from(*bytes).unwrap_or(usize::MAX);
        let bytes = crate::text::plural(bytes, "byte", "bytes");
        if opts.strict {
            return Err(LogError {
                message: format!(
                    "{name}: the last zstd frame, at byte {offset}, is incomplete ({bytes}; a writer stopped mid-frame?)"
                ),
                line: None,
            });
        }
        log.warnings.push(format!(
            "{name}: ignoring the incomplete last zstd frame at byte {offset} ({bytes} dropped; a writer stopped mid-frame?)"
        ));
    }
    log.storage.encoding = Encoding::Zstd;
    log.storage.frames = container.frame_count;
    log.storage.read_bytes = container.compressed_len();
    Ok(log)
}

/// The first bytes of a stream, peeked to tell the forms apart.
#[derive(Debug)]
struct Head {
    bytes: [u8; 4],
    len: usize,
}

impl Head {
    fn peek<R: Read>(src: &mut R) -> io::Result<Self> {
        let mut head = Head {
            bytes: [0; 4],
            len: 0,
        };
        while head.len < 4 {
            match src.read(&mut head.bytes[head.len..]) {
                Ok(0) => break,
                Ok(n) => head.len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(head)
    }

    fn is_zstd(&self) -> bool {
        self.bytes[..self.len] == zstd::MAGIC
    }

    /// The stream again from its first byte.
    fn then<R: Read>(self, rest: R) -> Replayed<R> {
        Replayed {
            head: self,
            at: 0,
            rest,
        }
    }
}

/// Peeked bytes followed by the rest of their stream.
#[derive(Debug)]
struct Replayed<R> {
    head: Head,
    at: usize,
    rest: R,
}

impl<R: Read> Read for Replayed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at < self.head.len {
            let n = buf.len().min(self.head.len - self.at);
            buf[..n].copy_from_slice(&self.head.bytes[self.at..self.at + n]);
            self.at += n;
            return Ok(n);
        }
        self.rest.read(buf)
    }
}

impl<R: Read> LogSource for Replayed<R> {}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use std::io::Write;

    fn workspace_line(seq: u64) -> String {
        format!(
            r#"{{"type":"user/message","seq":{seq},"surfaceOp":"append","data":{{"source":{{"kind":"agent-instructions","changes":[{{"action":"set","scope":"s{seq}","path":"AGENTS.md","digest":"d"}}]}}}}}}"#
        ) + "\n"
    }

    fn frame(text: &str) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = ::zstd::stream::Encoder::new(&mut out, 1).unwrap();
        enc.include_checksum(true).unwrap();
        enc.write_all(text.as_bytes()).unwrap();
        enc.finish().unwrap();
        out
    }

    /// Issue 21, item 15: a log with more workspace events than pass 1
    /// holds, appended to between the passes (a live session), reads as the
    /// bytes pass 1 saw, with one warning; it failed "the log changed while
    /// it was read".
    #[test]
    fn a_log_appended_to_between_the_passes_reads_as_pass_one_saw_it() {
        let events = log::HELD_EVENTS as u64 + 1;
        let mut text = "{\"type\":\"session\",\"cwd\":\"/x\"}\n".to_owned();
        for seq in 0..events {
            text.push_str(&workspace_line(seq));
        }
        let more: String = (events..events + 3).map(workspace_line).collect();
        for zstd in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("s.jsonl");
            let (bytes, appended) = if zstd {
                (frame(&text), frame(&more))
            } else {
                (text.clone().into_bytes(), more.clone().into_bytes())
            };
            std::fs::write(&path, &bytes).unwrap();
            let opts = ReadOptions {
                strict: false,
                count_packed: false,
                needs: log::Needs::STATE,
            };
            let mut append = || {
                let mut f = File::options().append(true).open(&path).unwrap();
                f.write_all(&appended).unwrap();
            };
            let log = read_file(&path, opts, &mut append).unwrap();
            assert!(log.needs_second_pass);
            assert_eq!(log.workspace_events, events, "zstd {zstd}");
            assert_eq!(log.workspace.len() as u64, events, "zstd {zstd}");
            assert_eq!(
                log.warnings,
                vec![format!(
                    "{}: ignoring {} bytes appended while it was read (the log is read as its first {} bytes)",
                    path.display(),
                    appended.len(),
                    bytes.len()
                )],
                "zstd {zstd}"
            );
        }
    }
}

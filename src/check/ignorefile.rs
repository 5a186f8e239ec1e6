//! Reading one ignore file (`.gitignore`, `.agentctxignore`,
//! `.git/info/exclude`) as hostile input: a pull request controls them all.
//!
//! The file is opened like a candidate: `stat` first (a symlink is followed,
//! as git's own reading does), only a regular file is opened, non-blocking
//! (a path swapped for a FIFO cannot hang the walk), and the open file's own
//! `fstat` must say regular file too. At most [`MAX_BYTES`] are read and at
//! most [`MAX_PATTERNS`] patterns are kept; whatever is refused or dropped
//! is one warning naming the file. The lines are split as the `ignore`
//! crate's own reader splits them (`BufRead::lines`: `\n`, then one `\r`
//! before it; a leading BOM dropped; reading stops at the first line that is
//! not UTF-8), so a benign file gives the matcher it always gave.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use crate::discovery::os_error;

/// Bytes of one ignore file that are read (1 MiB: git's own largest
/// shipped ignore files are a few KiB; a longer one is cut at its last
/// whole line within the cap).
pub const MAX_BYTES: u64 = 1 << 20;

/// Patterns (non-blank, non-comment lines) kept per ignore file. Each one
/// is compiled into the matcher and tried against every walked directory.
pub const MAX_PATTERNS: usize = 10_000;

/// Bytes of patterns kept per ignore file. What the matcher costs grows
/// with its patterns' text (a `?` is a character class): 64 KiB of the
/// worst patterns builds in well under a second and 100 MB.
pub const MAX_PATTERN_BYTES: usize = 64 << 10;

/// Bytes of patterns kept in all the ignore files in force at once (the
/// directories open on the walk's path, and those above it): a deep chain
/// of hostile ignore files cannot add up.
pub const MAX_LIVE_PATTERN_BYTES: usize = 256 << 10;

/// An ignore file's matcher and what reading it had to say.
#[derive(Debug, Default)]
pub struct Loaded {
    /// `None` when nothing was read or no pattern survived.
    pub matcher: Option<Gitignore>,
    /// Bytes of the patterns kept.
    pub pattern_bytes: usize,
    /// One line each, naming the file by `shown` (raw: escape it to print).
    pub warnings: Vec<String>,
}

/// Why an ignore file was not read at all.
#[derive(Debug)]
enum Refused {
    /// Nothing there: no rules, no warning.
    Missing,
    NotRegular(&'static str),
    Unreadable(String),
}

/// Loads the ignore file at `path` whose patterns are relative to `dir`,
/// keeping at most `budget` bytes of patterns (and [`MAX_PATTERN_BYTES`]).
/// A missing file is no rules and no warning.
#[must_use]
pub fn load(dir: &Path, path: &Path, shown: &str, budget: usize) -> Loaded {
    match read(path) {
        Ok((bytes, cut)) => {
            let mut loaded = parse(dir, path, &bytes, shown, budget);
            if cut {
                loaded.warnings.insert(
                    0,
                    format!(
                        "ignore file {shown} is over {MAX_BYTES} bytes: the lines past its first {MAX_BYTES} bytes are dropped"
                    ),
                );
            }
            loaded
        }
        Err(Refused::Missing) => Loaded::default(),
        Err(Refused::NotRegular(kind)) => Loaded {
            matcher: None,
            pattern_bytes: 0,
            warnings: vec![format!(
                "ignore file {shown} is not a regular file (a {kind}): its rules are not read"
            )],
        },
        Err(Refused::Unreadable(error)) => Loaded {
            matcher: None,
            pattern_bytes: 0,
            warnings: vec![format!(
                "ignore file {shown} is unreadable ({error}): its rules are not read"
            )],
        },
    }
}

/// The file's first bytes (up to the cap, cut at the last whole line when
/// the file is longer) and whether it was cut.
fn read(path: &Path) -> Result<(Vec<u8>, bool), Refused> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            return Err(Refused::Missing);
        }
        Err(e) => return Err(Refused::Unreadable(os_error(&e))),
    };
    // A directory of that name is no ignore file, as for git: silent.
    if meta.is_dir() {
        return Err(Refused::Missing);
    }
    if !meta.is_file() {
        return Err(Refused::NotRegular(crate::discovery::kind_name(
            meta.file_type(),
        )));
    }
    let file: File = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| Refused::Unreadable(os_error(&e)))?;
    let meta = file
        .metadata()
        .map_err(|e| Refused::Unreadable(os_error(&e)))?;
    if !meta.is_file() {
        return Err(Refused::NotRegular(crate::discovery::kind_name(
            meta.file_type(),
        )));
    }
    let expected = meta.len().min(MAX_BYTES).saturating_add(1);
    let mut bytes = Vec::with_capacity(usize::try_from(expected).unwrap_or(0));
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Refused::Unreadable(os_error(&e)))?;
    if bytes.len() as u64 <= MAX_BYTES {
        return Ok((bytes, false));
    }
    // Keep whole lines only: a pattern cut in two would be another pattern.
    let end = bytes[..MAX_BYTES as usize]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    bytes.truncate(end);
    Ok((bytes, true))
}

/// The matcher of an ignore file's bytes (read from `path`, relative to
/// `dir`): its first patterns, at most [`MAX_PATTERNS`] of them and at most
/// `budget` (and [`MAX_PATTERN_BYTES`]) bytes of them. Any bytes are
/// accepted; a line that is not a valid pattern is lost alone, as in git.
#[must_use]
pub fn parse(dir: &Path, path: &Path, bytes: &[u8], shown: &str, budget: usize) -> Loaded {
    let budget = budget.min(MAX_PATTERN_BYTES);
    let mut builder = GitignoreBuilder::new(dir);
    let mut warnings = Vec::new();
    let mut patterns = 0usize;
    let mut pattern_bytes = 0usize;
    let mut dropped = 0usize;
    for (i, line) in lines(bytes).enumerate() {
        // `BufRead::lines` stops at the first line that is not UTF-8.
        let Ok(line) = std::str::from_utf8(line) else {
            break;
        };
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        if !is_pattern(line) {
            continue;
        }
        if dropped > 0 || patterns == MAX_PATTERNS || pattern_bytes + line.len() > budget {
            dropped += 1;
            continue;
        }
        patterns += 1;
        pattern_bytes += line.len();
        // A syntax error in one line loses that line only, as in git.
        let _ = builder.add_line(Some(path.to_path_buf()), line);
    }
    if dropped > 0 {
        warnings.push(format!(
            "ignore file {shown} has more patterns than check keeps ({patterns} patterns, {pattern_bytes} bytes of them; at most {MAX_PATTERNS} and {budget} bytes): the last {dropped} are dropped"
        ));
    }
    let matcher = match builder.build() {
        Ok(m) => Some(m).filter(|m| !m.is_empty()),
        Err(e) => {
            warnings.push(format!(
                "ignore file {shown} cannot be compiled ({}): its rules are not read",
                one_line(&e.to_string())
            ));
            None
        }
    };
    let pattern_bytes = if matcher.is_some() { pattern_bytes } else { 0 };
    Loaded {
        matcher,
        pattern_bytes,
        warnings,
    }
}

/// An error text on one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a line is a pattern the builder keeps (not blank, not a comment).
fn is_pattern(line: &str) -> bool {
    !(line.trim().is_empty() || line.starts_with('#'))
}

/// The lines `BufRead::lines` gives: split at `\n`, a `\r` before it
/// dropped, no empty last line.
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, next) = match rest.iter().position(|b| *b == b'\n') {
            Some(i) => {
                let line = &rest[..i];
                (line.strip_suffix(b"\r").unwrap_or(line), &rest[i + 1..])
            }
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;
    use pretty_assertions::assert_eq;

    fn split(bytes: &[u8]) -> Vec<&[u8]> {
        lines(bytes).collect()
    }

    /// The split is `BufRead::lines`'s, byte for byte.
    #[test]
    fn lines_split_as_bufread_lines() {
        use std::io::BufRead;
        for input in [
            &b""[..],
            b"a",
            b"a\n",
            b"a\r\n",
            b"a\r",
            b"\n\n",
            b"a\r\r\nb\n\rc",
            b"\r\n",
        ] {
            let expected: Vec<Vec<u8>> = input
                .lines()
                .map(|l| l.map(String::into_bytes).unwrap_or_default())
                .collect();
            let got: Vec<Vec<u8>> = split(input).into_iter().map(<[u8]>::to_vec).collect();
            assert_eq!(got, expected, "{input:?}");
        }
    }

    #[test]
    fn patterns_past_the_cap_are_dropped_with_a_warning() {
        let mut text = String::new();
        for i in 0..MAX_PATTERNS + 3 {
            let _ = write!(text, "d{i}\n# comment\n\n");
        }
        let dir = Path::new("/r");
        let loaded = parse(
            dir,
            &dir.join(".gitignore"),
            text.as_bytes(),
            ".gitignore",
            usize::MAX,
        );
        assert_eq!(
            loaded.warnings,
            vec![format!(
                "ignore file .gitignore has more patterns than check keeps (10000 patterns, 48890 bytes of them; at most 10000 and 65536 bytes): the last 3 are dropped"
            )]
        );
        let m = loaded.matcher.unwrap();
        assert!(m.matched("/r/d0", true).is_ignore());
        assert!(m.matched("/r/d9999", true).is_ignore());
        assert!(!m.matched("/r/d10000", true).is_ignore());
    }

    #[test]
    fn pattern_bytes_past_the_budget_are_dropped() {
        let dir = Path::new("/r");
        let loaded = parse(dir, &dir.join("x"), b"aaaa\nbbbb\ncc\n", "x", 9);
        assert_eq!(
            loaded.warnings,
            vec![
                "ignore file x has more patterns than check keeps (2 patterns, 8 bytes of them; at most 10000 and 9 bytes): the last 1 are dropped"
                    .to_owned()
            ]
        );
        assert_eq!(loaded.pattern_bytes, 8);
    }

    #[test]
    fn reading_stops_at_the_first_line_that_is_not_utf8() {
        let dir = Path::new("/r");
        let bytes = b"\xef\xbb\xbfa\nb\xff\nc\n";
        let loaded = parse(dir, &dir.join(".gitignore"), bytes, "x", usize::MAX);
        let m = loaded.matcher.unwrap();
        assert!(m.matched("/r/a", true).is_ignore());
        assert!(!m.matched("/r/b", true).is_ignore());
        assert!(!m.matched("/r/c", true).is_ignore());
        assert_eq!(loaded.warnings, Vec::<String>::new());
    }
}

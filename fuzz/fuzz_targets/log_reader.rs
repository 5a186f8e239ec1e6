//! Fuzzes the session log reader (SPEC 5.1) in its fast and strict modes.
//!
//! Run (never from tests or CI): `cargo fuzz run log_reader -s none -- -max_total_time=120`
//! from the crate root (`RUSTC_BOOTSTRAP=1` on a stable toolchain).
//!
//! Besides "never panics", it checks what SPEC requires of the two modes:
//! - the fast path only skips the parse of lines that cannot matter, so every
//!   input the fast path rejects, strict rejects too;
//! - when both accept, they see the same log (the lines strict parsed in
//!   addition cannot change any state);
//! - an error is one line of bounded length that names the log;
//! - a JSON.parse oracle (issue 13): a second, independent reading of each
//!   line with `serde_json::Value` (lone surrogates first rewritten to
//!   U+FFFD, as JavaScript reads them) and the rules of SPEC 5 as JavaScript
//!   applies them (last duplicate key wins, only objects are objects,
//!   numbers are doubles) gives the same surface and workspace events.
//! - both encodings (issue 15): the same text in dsh's zstd container (a
//!   frame for the first line, then frames of up to three lines, with
//!   checksums) reads as the plain text does, line errors naming a frame;
//!   the input itself read as a container (magic prepended) never panics;
//! - the packed-row tap (explain, --strict) only adds strict row errors.
#![no_main]

mod oracle;

use std::io::Cursor;

use agentctx::log::{Log, ReadOptions, read_from};
use agentctx::logfile::{self, zstd::MAGIC};
use libfuzzer_sys::fuzz_target;

const NAME: &str = "fuzz.jsonl";

fn read(data: &[u8], strict: bool) -> Result<Log, agentctx::log::LogError> {
    read_from(data, NAME.to_owned(), ReadOptions { strict, ..ReadOptions::ALL })
}

/// Everything a command uses from a log (not `parsed`, which counts the
/// work done, nor the warnings: strict may parse and reject a final line
/// without a newline that the fast path never looked at).
fn projection(log: &Log) -> String {
    format!(
        "{:?} {:?}",
        (
            &log.header_cwd,
            log.lines,
            log.records,
            &log.workspace,
            &log.surface,
            log.surfaced,
            &log.last_change_scope,
        ),
        (
            &log.ignored_kind,
            &log.latest_baseline_identity,
            log.invalid_changes,
            &log.system,
            &log.latest_snapshot,
            log.snapshots,
            log.visible_baseline,
        )
    )
}

/// `text` as dsh writes it: the first line alone, then batches of three.
fn container(text: &[u8]) -> Vec<u8> {
    let lines: Vec<&[u8]> = text.split_inclusive(|b| *b == b'\n').collect();
    let mut groups: Vec<Vec<u8>> = Vec::new();
    if let Some((first, rest)) = lines.split_first() {
        groups.push(first.to_vec());
        groups.extend(rest.chunks(3).map(|c| c.concat()));
    }
    let mut out = Vec::new();
    for group in groups {
        let mut enc = zstd::stream::Encoder::new(&mut out, 1).expect("encoder");
        enc.include_checksum(true).expect("checksum");
        std::io::Write::write_all(&mut enc, &group).expect("compress");
        enc.finish().expect("finish");
    }
    out
}

fn stream(
    bytes: Vec<u8>,
    strict: bool,
    count_packed: bool,
) -> Result<Log, agentctx::log::LogError> {
    let opts = ReadOptions {
        strict,
        count_packed,
        needs: agentctx::log::Needs::ALL,
    };
    logfile::read_stream(Cursor::new(bytes), NAME.to_owned(), opts)
}

fn check_error_shape(e: &agentctx::log::LogError) {
    let shown = agentctx::output::escape(&e.message);
    assert!(
        shown.starts_with(NAME),
        "error does not name the log: {shown}"
    );
    assert!(!shown.contains('\n'), "error spans lines: {shown}");
    assert!(shown.len() < 450, "error too long: {} bytes", shown.len());
}

/// The checks of issue 15: both encodings and the packed-row tap.
fn encodings(
    data: &[u8],
    fast: &Result<Log, agentctx::log::LogError>,
    strict: &Result<Log, agentctx::log::LogError>,
) {
    if !data.starts_with(&MAGIC) {
        let zstd = stream(container(data), false, false);
        match (fast, &zstd) {
            (Ok(p), Ok(z)) => assert_eq!(projection(p), projection(z)),
            (Err(p), Err(z)) => assert!(
                z.message.starts_with(&p.message),
                "{} vs {}",
                p.message,
                z.message
            ),
            (p, z) => panic!(
                "plain and zstd disagree: {:?} vs {:?}",
                p.as_ref().err(),
                z.as_ref().err()
            ),
        }
        let tapped = stream(data.to_vec(), true, true);
        match (strict, &tapped) {
            (Err(_), Ok(_)) => panic!("the tap accepts what strict rejects"),
            (Ok(s), Ok(t)) => assert_eq!(projection(s), projection(t)),
            (_, Err(e)) => check_error_shape(e),
        }
    }
    let mut raw = MAGIC.to_vec();
    raw.extend_from_slice(data);
    if let Err(e) = stream(raw, false, true) {
        check_error_shape(&e);
    }
}

fuzz_target!(|data: &[u8]| {
    let fast = read(data, false);
    let strict = read(data, true);
    for result in [&fast, &strict] {
        if let Err(e) = result {
            let shown = agentctx::output::escape(&e.message);
            assert!(
                shown.starts_with(NAME),
                "error does not name the log: {shown}"
            );
            assert!(!shown.contains('\n'), "error spans lines: {shown}");
            assert!(shown.len() < 400, "error too long: {} bytes", shown.len());
        }
        if let Ok(log) = result {
            // JSON Lines count every line; the array form counts none.
            assert!(log.lines == 0 || log.records <= log.lines);
            if let Some(i) = log.visible_baseline {
                assert!(log.workspace[i].visible && log.workspace[i].baseline);
            }
        }
    }
    match (&fast, &strict) {
        (Err(f), Ok(_)) => panic!("fast rejects what strict accepts: {}", f.message),
        (Ok(f), Ok(s)) => {
            assert_eq!(projection(f), projection(s));
            if let Some(want) = oracle::read(data) {
                assert_eq!(oracle::view(f), want, "the reader and JSON.parse disagree");
            }
        }
        _ => {}
    }
    encodings(data, &fast, &strict);
});

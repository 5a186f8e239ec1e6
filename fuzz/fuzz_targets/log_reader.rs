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
#![no_main]

mod oracle;

use agentctx::log::{Log, ReadOptions, read_from};
use libfuzzer_sys::fuzz_target;

const NAME: &str = "fuzz.jsonl";

fn read(data: &[u8], strict: bool) -> Result<Log, agentctx::log::LogError> {
    read_from(data, NAME.to_owned(), ReadOptions { strict })
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
            &log.last_kind,
            &log.latest_baseline_identity,
            log.invalid_changes,
            &log.system,
            &log.latest_snapshot,
            log.snapshots,
            log.visible_baseline,
        )
    )
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
});

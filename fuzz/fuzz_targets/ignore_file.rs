//! Fuzzes the ignore-file loader of `check` (issue 21): arbitrary bytes as
//! a `.gitignore` / `.agentctxignore` / `.git/info/exclude`.
//!
//! Run (never from tests or CI): `cargo fuzz run ignore_file -s none -- -max_total_time=120`
//! from the crate root (`RUSTC_BOOTSTRAP=1` on a stable toolchain).
//!
//! Besides "never panics", it checks that the caps hold whatever the bytes
//! (at most `MAX_PATTERN_BYTES` of patterns kept, within the budget given),
//! that every warning is one line naming the file, and that the matcher,
//! when there is one, answers for a few paths without panicking.
#![no_main]

use std::path::Path;

use agentctx::check::ignorefile::{MAX_PATTERN_BYTES, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks a budget, so the live cap is exercised too.
    let (budget, bytes) = match data.split_first() {
        Some((b, rest)) => (usize::from(*b) * 512, rest),
        None => (0, data),
    };
    let dir = Path::new("/r");
    let loaded = parse(dir, &dir.join(".gitignore"), bytes, "x/.gitignore", budget);
    assert!(loaded.pattern_bytes <= budget.min(MAX_PATTERN_BYTES));
    for w in &loaded.warnings {
        assert!(!w.contains('\n'), "{w:?}");
        assert!(w.starts_with("ignore file x/.gitignore "), "{w:?}");
    }
    if let Some(m) = &loaded.matcher {
        for path in ["/r/a", "/r/a/b", "/r/.git", "/r/node_modules/x"] {
            let _ = m.matched(path, true);
            let _ = m.matched_path_or_any_parents(path, false);
        }
    }
});

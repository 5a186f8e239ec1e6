//! The words of what a file (or directory) holds, or why it cannot be
//! read, and of dsh's own configuration.

use super::{Pair, imported, is_claude};
use crate::check::Finding;
use crate::check::budget;
use crate::discovery::Unreadable;
use crate::profile;

pub(super) fn not_utf8(file: &str, offset: u64, cut: bool) -> Pair {
    let why = Unreadable::InvalidUtf8 { offset, cut };
    (
        format!("{why}: dsh reads instruction files as strict UTF-8, so sessions never load it"),
        format!(
            "re-encode {file} as UTF-8: the first bad sequence is at byte {}",
            budget::thousands(offset)
        ),
    )
}

pub(super) fn binary(file: &str, offset: u64) -> Pair {
    let why = Unreadable::Binary { offset };
    (
        format!("{why}: dsh takes it for a binary file, so sessions never load it"),
        format!(
            "remove the NUL byte at byte {} of {file} (save it as UTF-8 text)",
            budget::thousands(offset)
        ),
    )
}

pub(super) fn empty(whitespace: bool) -> Pair {
    let message = if whitespace {
        "only whitespace: sessions get an empty section"
    } else {
        "empty file: sessions get an empty section"
    };
    (
        message.to_owned(),
        "add instructions to it, or delete it".to_owned(),
    )
}

pub(super) fn not_regular(f: &Finding, kind: &str) -> Pair {
    let skips = if f.harness == "dsh" {
        "sessions skip it".to_owned()
    } else {
        format!("{} skips it", f.harness)
    };
    (
        format!("not a regular file (a {kind}): {skips}"),
        format!(
            "rename or remove the {kind} {}, or make it a regular file with instructions",
            f.file
        ),
    )
}

/// `stat` or the read failed (dsh, a harness), or Claude Code skips a
/// file over its cap or cannot read it.
pub(super) fn unavailable(
    f: &Finding,
    error: &str,
    too_large: Option<u64>,
    by: Option<&str>,
) -> Pair {
    let file = &f.file;
    let readable = format!("make {file} readable (its permissions, or what it links to)");
    if f.harness == "dsh" {
        return (format!("unreadable ({error}): sessions skip it"), readable);
    }
    if !is_claude(f) {
        let hint = if error.starts_with("too large") {
            format!("cut {file} below the cap the error names, or split it")
        } else {
            readable
        };
        let message = format!("unreadable ({error}): {} sends nothing from it", f.harness);
        return (message, hint);
    }
    let max = profile::claude::MAX_BYTES;
    match too_large {
        Some(bytes) => (
            imported(
                format!("over {max} bytes ({bytes}); Claude Code skips it"),
                by,
            ),
            format!("cut {file} to {max} bytes or fewer, or split it"),
        ),
        None => ("cannot be read; contributes nothing".to_owned(), readable),
    }
}

pub(super) fn unreadable_dir(dir: &str, error: &str) -> Pair {
    (
        format!("unreadable directory ({error}): nothing below it is checked"),
        format!("make {dir} readable (its permissions), or skip it with --exclude {dir}"),
    )
}

pub(super) fn dsh_refused(line: Option<usize>, message: &str) -> Pair {
    (
        match line {
            Some(line) => format!("dsh would refuse to start (line {line}): {message}"),
            None => format!("dsh would refuse to start: {message}"),
        },
        "fix the layer at that line: dsh's message says what it expects (maxBytes is required whenever a patch sets config)".to_owned(),
    )
}

pub(super) fn dsh_not_mounted(line: Option<usize>, reason: &str, profile: &str) -> Pair {
    (
        format!(
            "{reason}{}: a dsh --profile {profile} session receives no agent instructions",
            line.map(|l| format!(" (line {l})")).unwrap_or_default()
        ),
        "remove the disabled: true at that line, or pick a preset that mounts the loader"
            .to_owned(),
    )
}

pub(super) fn drift(file: &str, winner: &str, name: &str) -> Pair {
    (
        format!("drift: differs from {winner}, which wins, so sessions never see this file"),
        format!("delete {file}, or make it a symlink to {winner} (or a pointer: @{name})"),
    )
}

pub(super) fn two_sources(file: &str, sibling: &str, overlap: usize, name: &str) -> Pair {
    (
        format!(
            "two sources of truth: differs from {sibling} and both load; {overlap} bytes of overlapping instructions"
        ),
        format!("merge {file} into {sibling} and make it a symlink to it (or a pointer: @{name})"),
    )
}

pub(super) fn reminder(line: usize) -> Pair {
    (
        format!(
            "literal </system-reminder> on line {line}: sessions see it escaped as <\\/system-reminder>"
        ),
        format!("remove or reword the </system-reminder> on line {line}"),
    )
}

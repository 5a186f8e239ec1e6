//! The words of symlinks: a link into a secret place (or a secret a
//! harness reads), out of the project, checked out as text, loading the
//! same file twice; and the warnings render and explain print of a link.

use super::{Pair, who};
use crate::check::{Finding, Reach};
use crate::discovery::Place;
use crate::profile::{HarnessReport, NoteKind, Profile, Via};

/// A secret a symlink reaches, or one a harness reads (as a file, an
/// import or an `instructions` glob).
pub(super) fn secret(
    f: &Finding,
    (target, resolved, place): (&str, &str, Place),
    reach: &Reach,
) -> Pair {
    let read = |path: &str, via: &Via| secret_words(f.harness, path, resolved, place, via);
    match reach {
        Reach::Link => (
            format!(
                "symlink to a secret: points to {}, so {} {SENDS}",
                secret_destination(target, resolved, place),
                who(f)
            ),
            "replace the symlink with a regular file that holds only instructions".to_owned(),
        ),
        Reach::File { path } => (
            read(path, &Via::File),
            "replace it with a regular file inside the project that holds only instructions"
                .to_owned(),
        ),
        Reach::Import { path, token } => (
            read(path, &Via::Import(token.clone())),
            format!("remove the import @{token}"),
        ),
        Reach::Glob { path } => (
            read(path, &Via::Glob),
            format!("remove the instructions entry {path}"),
        ),
    }
}

pub(super) fn leaves_tree(target: &str, root: &str) -> Pair {
    (
        format!(
            "symlink leaves the project: points to {target}, which resolves outside its project root ({root})"
        ),
        format!(
            "copy the instructions into the project, or point the link at a file inside its project root ({root}), so that every checkout gets the same text"
        ),
    )
}

pub(super) fn stub(f: &Finding, sibling: &str) -> Pair {
    (
        format!(
            "symlink checked out as text: the whole content is the name of its sibling {sibling}, so {} get the name instead of the instructions",
            who(f)
        ),
        format!(
            "check it out as a symlink (git config core.symlinks true, then check out again), or replace the text with {sibling}'s content"
        ),
    )
}

pub(super) fn loads_twice(f: &Finding, same_as: &str, bytes: usize) -> Pair {
    (
        format!(
            "loads twice: a symlink to {same_as}, which a session in {} also loads, so it gets the same {bytes} bytes twice",
            f.dir
        ),
        format!(
            "delete the symlink {} or stop loading {same_as} under its own name: one of them is enough",
            f.file
        ),
    )
}

/// What sessions do with a secret a link reaches.
const SENDS: &str = "send what it holds to the model";

/// Where a link into a secret place leads, after `points to`: the target,
/// and what it resolves to when that differs (a path under /proc names a
/// process: the link text says it), with the words of the place.
pub(super) fn secret_destination(target: &str, resolved: &str, place: Place) -> String {
    match place {
        Place::System => format!("{target}, in /proc, /sys or /dev"),
        Place::Home => format!(
            "{target}, which resolves to {resolved} in the home directory outside the project"
        ),
        _ if resolved == target => format!("{target}, {}", place.words()),
        _ => format!("{target}, which resolves to {resolved} {}", place.words()),
    }
}

/// The render and explain warning for a candidate symlinked into a secret
/// place: `AGENTS.md: symlink to T (R), in /proc, /sys or /dev: sessions
/// send what it holds to the model`.
#[must_use]
pub fn secret_link_warning(display: &str, target: &str, resolved: &str, place: Place) -> String {
    let system = place == Place::System;
    let shown = if system || resolved == target || resolved.is_empty() {
        target.to_owned()
    } else {
        format!("{target} ({resolved})")
    };
    format!(
        "{display}: symlink to {shown}, {}: sessions {SENDS}",
        place.words()
    )
}

/// The render and explain warning for a candidate that is a symlink to
/// nothing.
#[must_use]
pub fn dangling_link_warning(display: &str, target: &str) -> String {
    format!("{display}: dangling symlink to {target}, treated as absent")
}

pub(super) fn dangling(file: &str, target: &str) -> Pair {
    (
        format!(
            "dangling symlink: points to {target}, which does not exist, so sessions load nothing from it"
        ),
        format!("point the link at an existing file, or delete {file}"),
    )
}

/// The sentence for a secret the harness (`profile`, by name) reads,
/// without the path: the warning of render and explain after the path, and
/// check's finding (one wording for both).
fn secret_words(profile: &str, path: &str, real: &str, place: Place, via: &Via) -> String {
    let place_words = place.words();
    let at = if place == Place::System || real == path {
        place_words.to_owned()
    } else {
        format!("it resolves to {real} {place_words}")
    };
    match via {
        Via::File => format!("reads a secret: {at}, so {profile} sends what it holds to the model"),
        Via::Import(token) => format!(
            "import @{token} reads a secret: {at}, so {profile} sends what it holds to the model"
        ),
        Via::Glob => format!(
            "instructions entry {path}: a glob into a secret: {at}, so {profile} sends what it matches to the model"
        ),
    }
}

/// The sentence for a secret the harness reads: the warning of render and
/// explain (dsh's secret-link wording).
fn secret_message(profile: Profile, path: &str, real: &str, place: Place, via: &Via) -> String {
    let words = secret_words(profile.name(), path, real, place, via);
    match via {
        Via::Glob => words,
        _ => format!("{path}: {words}"),
    }
}

/// The warnings render and explain print for the secrets a report reads
/// (its [`NoteKind::Secret`] notes).
#[must_use]
pub fn secret_warnings(report: &HarnessReport) -> Vec<String> {
    report
        .notes
        .iter()
        .filter_map(|note| match &note.kind {
            NoteKind::Secret { real, place, via } => Some(secret_message(
                report.profile,
                &note.path,
                real,
                *place,
                via,
            )),
            _ => None,
        })
        .collect()
}

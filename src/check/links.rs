//! Where a symlinked candidate resolves, in words: the one owner of the
//! sentences about a link into a secret place, out of the project or to
//! nothing, both as check's findings (dsh and every profile) and as the
//! warnings render and explain print (`output` calls these). Check's
//! findings carry their message (the JSON contract), and the core may not
//! name `output`, so the sentences live here, beside the facts.

use super::Detail;
use super::file_rules::Found;
use crate::discovery::Place;

/// Where a symlinked candidate resolves, as the probe recorded it
/// ([`Symlink`](crate::discovery::Symlink)): a secret location is an
/// error when the candidate is `readable` (a regular file: where it is
/// read), outside the project root (`shown_root`) a warning; `who` reads
/// it (`sessions`, `codex`). The one wording for dsh and every profile.
#[must_use]
pub fn link_finding(
    link: &crate::discovery::Symlink,
    readable: bool,
    shown_root: Option<&str>,
    who: &str,
) -> Option<Found> {
    let target = link.target.clone();
    let resolved = link
        .resolved
        .as_deref()
        .map_or_else(String::new, |r| r.to_string_lossy().into_owned());
    let fix = "replace the symlink with a regular file that holds only instructions";
    match link.place {
        place if readable && place.is_secret() => {
            let message = format!(
                "symlink to a secret: points to {}, so {who} {SENDS}",
                secret_destination(&target, &resolved, place)
            );
            let detail = Detail::SecretSymlink {
                target,
                resolved,
                place: place.name(),
            };
            Some((detail, message, fix.to_owned()))
        }
        Place::GitDir | Place::Credentials if link.outside_root != Some(true) => None,
        Place::Outside
        | Place::System
        | Place::Home
        | Place::Secrets
        | Place::GitDir
        | Place::Credentials => {
            let shown_root = shown_root?.to_owned();
            let message = format!(
                "symlink leaves the project: points to {target}, which resolves outside its project root ({shown_root})"
            );
            let hint = format!(
                "copy the instructions into the project, or point the link at a file inside its project root ({shown_root}), so that every checkout gets the same text"
            );
            let detail = Detail::SymlinkLeavesTree {
                target,
                project_root: shown_root,
            };
            Some((detail, message, hint))
        }
        Place::Inside | Place::Unknown => None,
    }
}

/// What sessions do with a secret a link reaches.
const SENDS: &str = "send what it holds to the model";

/// Where a link into a secret place leads, after `points to`: the target,
/// and what it resolves to when that differs (a path under /proc names a
/// process: the link text says it), with the words of the place.
fn secret_destination(target: &str, resolved: &str, place: Place) -> String {
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

/// check's finding on a candidate that is a symlink to nothing (`file`,
/// as shown).
#[must_use]
pub fn dangling_finding(target: String, file: &str) -> Found {
    let message = format!(
        "dangling symlink: points to {target}, which does not exist, so sessions load nothing from it"
    );
    let hint = format!("point the link at an existing file, or delete {file}");
    (Detail::DanglingSymlink { target }, message, hint)
}

/// The render and explain warning for a candidate that is a symlink to
/// nothing.
#[must_use]
pub fn dangling_link_warning(display: &str, target: &str) -> String {
    format!("{display}: dangling symlink to {target}, treated as absent")
}

//! Where a symlinked candidate resolves, as check's findings (dsh and
//! every profile): a link into a secret place, out of the project or to
//! nothing. The facts only; `output::check::words` says them, and the
//! warnings render and explain print.

use super::Detail;
use super::finding::Reach;
use crate::discovery::Place;

/// Where a symlinked candidate resolves, as the probe recorded it
/// ([`Symlink`](crate::discovery::Symlink)): a secret location is an
/// error when the candidate is `readable` (a regular file: where it is
/// read), outside the project root (`shown_root`) a warning. The one rule
/// for dsh and every profile.
#[must_use]
pub fn link_finding(
    link: &crate::discovery::Symlink,
    readable: bool,
    shown_root: Option<&str>,
) -> Option<Detail> {
    let target = link.target.clone();
    let resolved = link
        .resolved
        .as_deref()
        .map_or_else(String::new, |r| r.to_string_lossy().into_owned());
    match link.place {
        place if readable && place.is_secret() => Some(Detail::SecretSymlink {
            target,
            resolved,
            place: place.name(),
            at: place,
            reach: Reach::Link,
        }),
        Place::GitDir | Place::Credentials if link.outside_root != Some(true) => None,
        Place::Outside
        | Place::System
        | Place::Home
        | Place::Secrets
        | Place::GitDir
        | Place::Credentials => Some(Detail::SymlinkLeavesTree {
            target,
            project_root: shown_root?.to_owned(),
        }),
        Place::Inside | Place::Unknown => None,
    }
}

/// check's finding on a candidate that is a symlink to nothing.
#[must_use]
pub fn dangling_finding(target: String) -> Detail {
    Detail::DanglingSymlink { target }
}

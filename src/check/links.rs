//! Where a symlinked candidate resolves, as findings: the one wording of
//! a link into a secret, out of the project or to nothing, for dsh and
//! every profile.

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
            // A path under /proc names a process: the link text says it.
            let message = match place {
                Place::System => format!(
                    "symlink to a secret: points to {target}, in /proc, /sys or /dev, so {who} send what it holds to the model"
                ),
                Place::Home => format!(
                    "symlink to a secret: points to {target}, which resolves to {resolved} in the home directory outside the project, so {who} send what it holds to the model"
                ),
                _ if resolved == target => format!(
                    "symlink to a secret: points to {target}, {}, so {who} send what it holds to the model",
                    place.words()
                ),
                _ => format!(
                    "symlink to a secret: points to {target}, which resolves to {resolved} {}, so {who} send what it holds to the model",
                    place.words()
                ),
            };
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

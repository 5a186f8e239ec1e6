//! The secrets a harness reads: noted on its report, worded for check,
//! render and explain.

use std::path::Path;

use crate::discovery::Place;
use crate::profile::{HarnessReport, Note, NoteKind, Profile, Via};

/// Notes every secret the report's harness reads ([`NoteKind::Secret`]):
/// each file it sends (a candidate, a global file, an `instructions`
/// entry, a `context.fileName`), judged by its real path, and each
/// `instructions` glob, judged by its own text. Gemini's imports are noted
/// as they are read. The one classifier is `discovery::secret_place`.
pub fn mark_secrets(report: &mut HarnessReport) {
    let mut found = Vec::new();
    for f in report.files.iter().filter(|f| f.included) {
        if let Some((real, place)) = crate::profile::secret_of(Path::new(&f.path)) {
            found.push(Note {
                path: f.path.clone(),
                kind: NoteKind::Secret {
                    real,
                    place,
                    via: Via::File,
                },
            });
        }
    }
    for note in &report.notes {
        if note.kind != NoteKind::Glob {
            continue;
        }
        if let Some(place) = crate::discovery::secret_place(Path::new(&note.path), None) {
            found.push(Note {
                path: note.path.clone(),
                kind: NoteKind::Secret {
                    real: note.path.clone(),
                    place,
                    via: Via::Glob,
                },
            });
        }
    }
    report.notes.extend(found);
}

/// The sentence for a secret the harness (`profile`, by name) reads,
/// without the path: the warning of render and explain after the path, and
/// check's finding (`output::check::words` calls it: one wording for both).
#[must_use]
pub fn secret_words(profile: &str, path: &str, real: &str, place: Place, via: &Via) -> String {
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

/// The warnings render and explain print for the secrets a report reads.
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

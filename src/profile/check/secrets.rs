//! The secrets a harness reads, noted on its report as facts
//! ([`NoteKind::Secret`]); `output::check::words` words them for check,
//! render and explain.

use std::path::Path;

use crate::profile::{HarnessReport, Note, NoteKind, Via};

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

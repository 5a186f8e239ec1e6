//! The settings and root search sections of the explain view.

use crate::explain::Explanation;
use crate::output::escape;
use crate::output::palette::Tone;
use crate::settings::Origin;

use super::{Writer, cell, list, quoted, width};

/// One row of the settings section: the name, origin, value and its tone,
/// and the entries the setting ignored.
type SettingRow<'a> = (&'static str, Origin, String, Tone, &'a [String]);

pub(super) fn settings(w: &mut Writer, r: &Explanation) {
    w.heading("Settings");
    let rows = setting_rows(r);
    let origin_width = rows
        .iter()
        .map(|(_, o, ..)| width(&o.to_string()))
        .max()
        .unwrap_or(0);
    let widths = [16, origin_width.max(7)];
    for (name, o, value, tone, ignored) in rows {
        w.row(
            2,
            &[
                cell(name, Tone::Plain),
                cell(o.to_string(), Tone::Dim),
                cell(value, tone),
            ],
            &widths,
        );
        if !ignored.is_empty() {
            let note = format!(
                "ignored {}: not a plain file name (empty, \".\", \"..\", or holding \"/\" or \"\\\")",
                quoted(ignored)
            );
            w.row(
                2,
                &[
                    cell("", Tone::Plain),
                    cell("", Tone::Plain),
                    cell(note, Tone::Warn),
                ],
                &widths,
            );
        }
    }
}

/// The settings' rows, in the order they are shown.
fn setting_rows(r: &Explanation) -> [SettingRow<'_>; 8] {
    let s = &r.settings;
    let p = s.precedence.value;
    let why = match s.precedence.origin {
        Origin::Default => format!("default: {}", p.generation()),
        Origin::Log => "inferred from the log's scope keys".to_owned(),
        Origin::Flag | Origin::Env | Origin::Config(_) => p.generation().to_owned(),
    };
    let no_entries: &[String] = &[];
    [
        (
            "cwd",
            s.cwd.origin.clone(),
            escape(&s.cwd.value).into_owned(),
            Tone::Name,
            no_entries,
        ),
        (
            "dsh home",
            s.dsh_home.origin.clone(),
            format!(
                "{}  (user-global file shown as {})",
                escape(&s.dsh_home.value),
                r.dsh_home.display
            ),
            Tone::Plain,
            no_entries,
        ),
        (
            "max bytes",
            s.max_bytes.origin.clone(),
            s.max_bytes.value.to_string(),
            Tone::Plain,
            no_entries,
        ),
        (
            "max source bytes",
            s.max_source_bytes.origin.clone(),
            s.max_source_bytes.value.to_string(),
            Tone::Plain,
            no_entries,
        ),
        (
            "candidates",
            s.candidates.origin.clone(),
            list(&s.candidates.value),
            Tone::Plain,
            &s.candidates.ignored,
        ),
        (
            "local candidates",
            s.local_candidates.origin.clone(),
            list(&s.local_candidates.value),
            Tone::Plain,
            &s.local_candidates.ignored,
        ),
        (
            "root markers",
            s.root_markers.origin.clone(),
            list(&s.root_markers.value),
            Tone::Plain,
            no_entries,
        ),
        (
            "precedence",
            s.precedence.origin.clone(),
            format!("{}  ({why})", p.as_str()),
            Tone::Plain,
            no_entries,
        ),
    ]
}

pub(super) fn root_search(w: &mut Writer, r: &Explanation) {
    let rs = &r.root_search;
    w.out.push('\n');
    w.heading_note(
        "Root search",
        &format!("(markers: {}; from the cwd upward)", list(&rs.markers)),
    );
    let widths = [12];
    let found = match &rs.marker {
        Some(m) => cell(
            format!(
                "({} {} found there)",
                escape(&m.name),
                if m.is_dir { "directory" } else { "file" }
            ),
            Tone::Good,
        ),
        None => cell("(no marker found: root = cwd)", Tone::Warn),
    };
    w.row(
        2,
        &[
            cell("project root", Tone::Plain),
            cell(escape(&rs.root), Tone::Name),
            found,
        ],
        &[12, width(&escape(&rs.root))],
    );
    for (i, dir) in rs.walked.iter().enumerate() {
        w.row(
            2,
            &[
                cell(if i == 0 { "walked" } else { "" }, Tone::Plain),
                cell(escape(dir), Tone::Plain),
            ],
            &widths,
        );
    }
}

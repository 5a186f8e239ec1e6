//! The `dsh configuration` section of `explain` (CONFIG 11.7): the profile
//! and preset with where each came from, every layer and its status, the
//! loaded row's keys with their origins, ignored keys, expressions, the
//! outcome, and where the settings came from.

use super::{Tone, Writer, cell, width};
use crate::dshconfig::report::ConfigReport;
use crate::output::escape;

pub(super) fn section(w: &mut Writer, r: &ConfigReport) {
    w.out.push('\n');
    w.heading("dsh configuration");
    let from = |what: &str| match what {
        "flag" => "--dsh-profile".to_owned(),
        "env" => "AGENTCTX_DSH_PROFILE".to_owned(),
        "log" => "the log".to_owned(),
        other => other.to_owned(),
    };
    let widths = [9];
    w.row(
        2,
        &[
            cell("profile", Tone::Plain),
            cell(escape(&r.profile), Tone::Plain),
            cell(format!("({})", from(&r.profile_from)), Tone::Dim),
        ],
        &widths,
    );
    if let (Some(preset), Some(preset_from)) = (&r.preset, &r.preset_from) {
        let preset_from = match preset_from.as_str() {
            "flag" => "--dsh-preset".to_owned(),
            other => escape(other).into_owned(),
        };
        w.row(
            2,
            &[
                cell("preset", Tone::Plain),
                cell(escape(preset), Tone::Plain),
                cell(format!("({preset_from})"), Tone::Dim),
            ],
            &widths,
        );
    }
    // Nothing of the user's: what dsh ships applies, said in one line.
    let shipped = r.outcome == "loaded"
        && r.warnings.is_empty()
        && r.layers
            .iter()
            .all(|l| matches!(l.status, "absent" | "built in"))
        && r.row.iter().all(|k| !k.origin.starts_with("config:"));
    w.row(
        2,
        &[
            cell("dsh home", Tone::Plain),
            cell(escape(&r.dsh_home), Tone::Name),
            cell(
                if shipped {
                    "(no layer there: what dsh ships applies)"
                } else {
                    ""
                },
                Tone::Dim,
            ),
        ],
        &widths,
    );
    if !shipped {
        layers(w, r);
    }
    outcome_rows(w, r, &widths);
}

fn layers(w: &mut Writer, r: &ConfigReport) {
    w.line(2, &[cell("layers", Tone::Plain)]);
    let layer_width = r.layers.iter().map(|l| width(&l.layer)).max().unwrap_or(0);
    let file_width = r
        .layers
        .iter()
        .map(|l| width(&escape(&l.file)))
        .max()
        .unwrap_or(0);
    for l in &r.layers {
        let tone = match l.status {
            "read" | "built in" => Tone::Good,
            "error" => Tone::Bad,
            "does not apply to web" => Tone::Warn,
            _ => Tone::Dim,
        };
        w.row(
            4,
            &[
                cell(escape(&l.layer), Tone::Plain),
                cell(escape(&l.file), Tone::Name),
                cell(l.status, tone),
            ],
            &[layer_width, file_width],
        );
    }
    if !r.row.is_empty() {
        w.line(2, &[cell("loader row", Tone::Plain)]);
        let key_width = r.row.iter().map(|k| k.key.len()).max().unwrap_or(0);
        let value_width = r.row.iter().map(|k| width(&value(k))).max().unwrap_or(0);
        for k in &r.row {
            let origin = match k.line {
                Some(line) => format!("{}:{line}", k.origin),
                None => k.origin.clone(),
            };
            w.row(
                4,
                &[
                    cell(k.key, Tone::Plain),
                    cell(value(k), Tone::Plain),
                    cell(escape(&origin).into_owned(), Tone::Dim),
                ],
                &[key_width, value_width],
            );
        }
    }
}

fn outcome_rows(w: &mut Writer, r: &ConfigReport, widths: &[usize]) {
    if !r.ignored_keys.is_empty() {
        let keys: Vec<String> = r
            .ignored_keys
            .iter()
            .map(|k| escape(k).into_owned())
            .collect();
        w.row(
            2,
            &[
                cell("ignored", Tone::Plain),
                cell(
                    format!("{} (dsh does not read them)", keys.join(", ")),
                    Tone::Warn,
                ),
            ],
            widths,
        );
    }
    let (tone, outcome) = outcome(r);
    w.row(
        2,
        &[cell("outcome", Tone::Plain), cell(outcome, tone)],
        widths,
    );
    if let Some(root) = &r.sessions_root {
        w.row(
            2,
            &[
                cell("sessions", Tone::Plain),
                cell(escape(root), Tone::Name),
                cell("(the session-persistence-jsonl row's root)", Tone::Dim),
            ],
            widths,
        );
    }
    let origin = match r.settings_from_origin {
        "flag" => "--settings-from",
        "log" => "--log names a file, which may come from another machine",
        _ => "default",
    };
    w.row(
        2,
        &[
            cell("settings", Tone::Plain),
            cell(format!("from {}", r.settings_from), Tone::Plain),
            cell(format!("({origin})"), Tone::Dim),
        ],
        widths,
    );
    if let Some(differs) = &r.differs_from_log {
        w.line(
            4,
            &[cell(
                format!(
                    "warning: dsh's current configuration differs ({}): a resume under it sends a replacement baseline; --settings-from config shows it",
                    escape(differs)
                ),
                Tone::Warn,
            )],
        );
    }
    for warning in &r.warnings {
        w.line(
            2,
            &[cell(format!("warning: {}", escape(warning)), Tone::Warn)],
        );
    }
}

/// What dsh does with its configuration, as a tone and a line.
fn outcome(r: &ConfigReport) -> (Tone, String) {
    match r.outcome {
        "loaded" => (Tone::Good, "loaded".to_owned()),
        other => {
            let at = match (&r.file, r.line) {
                (Some(file), Some(line)) => format!(" at {}:{line}", escape(file)),
                (Some(file), None) => format!(" at {}", escape(file)),
                _ => String::new(),
            };
            let message = r.message.as_deref().map(escape).unwrap_or_default();
            let tone = if other == "refused" {
                Tone::Bad
            } else {
                Tone::Warn
            };
            let what = if other == "refused" {
                "dsh would refuse to start"
            } else {
                "a session receives no agent instructions"
            };
            (tone, format!("{other}{at}: {message} ({what})"))
        }
    }
}

/// A key's value as shown: the value, or the expression that sets it.
fn value(k: &crate::dshconfig::report::KeyReport) -> String {
    match &k.expression {
        Some(e) => format!(
            "{} (set by !!js {}, not evaluated)",
            escape(&k.text),
            escape(e)
        ),
        None => escape(&k.text).into_owned(),
    }
}

//! What each session of a harness receives (`received`: JSON, `--summary`,
//! `--base`), and the one finding per file a budget cut.

use std::collections::HashMap;
use std::path::Path;

use super::show::Shower;
use super::{CutFacts, Harness, dir_of, group_index};
use crate::check::budget::{Excess, Lost, Radius};
use crate::check::{Detail, Finding, Received, ReceivedFile};
use crate::jsnum::MaxBytes;
use crate::profile::{HarnessReport, Status};
use crate::text::sha1_hex;

/// The text a harness sends for one session (its parts, each after its
/// kind), with `alias` applied, and its bytes.
pub(super) fn sent(report: &HarnessReport, alias: Option<&(String, String)>) -> (String, usize) {
    let mut text = String::new();
    let mut bytes = 0;
    for p in &report.parts {
        let part = match alias {
            Some((from, to)) => p.text.replace(from.as_str(), to),
            None => p.text.clone(),
        };
        bytes += part.len();
        text.push_str(&p.kind);
        text.push('\n');
        text.push_str(&part);
        text.push('\n');
    }
    (text, bytes)
}

/// What a session in `shown_dir` receives, in the terms every harness
/// shares.
pub(super) fn received_of(
    h: &dyn Harness,
    report: &HarnessReport,
    shower: &Shower,
    shown_dir: &str,
    budget: Option<u64>,
    digests: &mut HashMap<String, String>,
    alias: Option<&(String, String)>,
) -> Received {
    let (text, bytes) = sent(report, alias);
    let mut files = Vec::new();
    let mut omitted = Vec::new();
    let mut truncated = Vec::new();
    let mut cut = 0;
    for f in &report.files {
        let size = usize::try_from(f.bytes.unwrap_or(0)).unwrap_or(usize::MAX);
        match f.status {
            Status::OverBudget => {
                omitted.push(shower.show(&f.path));
                cut += size;
            }
            Status::Truncated => {
                truncated.push(shower.show(&f.path));
                cut += size.saturating_sub(usize::try_from(f.truncated.unwrap_or(0)).unwrap_or(0));
            }
            _ => {}
        }
        if !(f.included || f.status == Status::OverBudget) || f.status == Status::UrlNotFetched {
            continue;
        }
        let digest = digests
            .entry(f.path.clone())
            .or_insert_with(|| {
                crate::profile::read_file(Path::new(&f.path), None)
                    .map(|b| sha1_hex(&b))
                    .unwrap_or_default()
            })
            .clone();
        files.push(ReceivedFile {
            path: shower.show(&f.path),
            bytes: size,
            digest,
        });
    }
    let _ = h;
    #[allow(clippy::cast_precision_loss)]
    Received {
        dir: shown_dir.to_owned(),
        bytes,
        whole_bytes: bytes + cut,
        max_bytes: budget.map(|m| MaxBytes(m as f64)),
        files,
        omitted,
        truncated,
        text_digest: (!report.parts.is_empty()).then(|| sha1_hex(text.as_bytes())),
        also: false,
    }
}

/// One finding per file a budget cut, with the directories whose sessions
/// lost bytes of it (in walk order), keyed for ordering by its group.
pub(super) fn budget_findings(
    h: &dyn Harness,
    cuts: Vec<(String, CutFacts, Excess)>,
    groups: &[String],
) -> Vec<(usize, usize, Finding)> {
    let mut by_file: Vec<(Lost, Vec<String>, Vec<Excess>, u64)> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for (dir, facts, excess) in cuts {
        let i = *at.entry(facts.file.clone()).or_insert_with(|| {
            by_file.push((
                Lost {
                    file: facts.file.clone(),
                    dir: dir_of(&facts.file),
                    pos: 0,
                    bytes: facts.original,
                    count: 0,
                    truncated: 0,
                    kept_max: 0,
                    kept_min: usize::MAX,
                    worst: (0, 0),
                    first: Vec::new(),
                    spans: Vec::new(),
                },
                Vec::new(),
                Vec::new(),
                facts.max,
            ));
            by_file.len() - 1
        });
        let (lost, dirs, excesses, _) = &mut by_file[i];
        lost.count += 1;
        if facts.kept > 0 {
            lost.truncated += 1;
            lost.kept_max = lost.kept_max.max(facts.kept);
            lost.kept_min = lost.kept_min.min(facts.kept);
        }
        if excesses.is_empty() || excess.excess > lost.worst.0 {
            lost.worst = (excess.excess, dirs.len());
        }
        dirs.push(dir);
        excesses.push(excess);
    }
    let setting = h.budget_setting().unwrap_or("max-bytes");
    by_file
        .into_iter()
        .map(|(lost, dirs, excesses, max)| {
            let worst = excesses[lost.worst.1];
            let worst_dir = dirs[lost.worst.1].clone();
            let radius = Radius::from(dirs);
            #[allow(clippy::cast_precision_loss)]
            let detail = Detail::OverBudget {
                bytes: lost.bytes,
                kept_bytes: if lost.truncated > 0 { lost.kept_max } else { 0 },
                max_bytes: MaxBytes(max as f64),
                directories: radius,
                omitted_in: lost.count - lost.truncated,
                truncated_in: lost.truncated,
                worst: worst_dir,
                whole_bytes: worst.whole,
                excess: worst.excess,
                pushes_out: Vec::new(),
                grew_from: None,
                kept_min: lost.kept_min,
                setting,
                itself: None,
            };
            let group = group_index(groups, &lost.dir);
            (
                group,
                0,
                Finding::new(lost.dir, lost.file, detail).by(h.profile().name()),
            )
        })
        .collect()
}

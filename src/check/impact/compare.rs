//! Step 4 of `--base`: compare the two checks directory by directory, and
//! anchor a new over-budget finding on the file whose growth caused it.

use std::collections::{HashMap, HashSet};

use super::super::{Detail, Finding, Received, Report, Severity};
use super::{DirChange, Impact};

/// Compares the check of REV with the work tree's (one harness).
#[must_use]
pub fn compare(rev: &str, before: &Report, after: &Report) -> Impact {
    let dirs = |r: &Report| -> HashMap<String, Received> {
        r.received
            .iter()
            .map(|d| (d.dir.clone(), d.clone()))
            .collect()
    };
    let (old, new) = (dirs(before), dirs(after));
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    keys.sort();
    keys.dedup();
    let directories = keys
        .into_iter()
        .filter_map(|k| dir_change(k, old.get(k), new.get(k)))
        .collect();
    let key = |f: &Finding| (f.rule, f.file.clone());
    let had: HashSet<(&str, String)> = before.findings.iter().map(key).collect();
    let (old_findings, new_findings): (Vec<&Finding>, Vec<&Finding>) =
        after.findings.iter().partition(|f| had.contains(&key(f)));
    let pick = |list: &[&Finding], s: Severity| -> Vec<Finding> {
        list.iter()
            .filter(|f| f.severity == s)
            .map(|f| (*f).clone())
            .collect()
    };
    let count = |s: Severity| old_findings.iter().filter(|f| f.severity == s).count();
    Impact {
        base: rev.to_owned(),
        directories,
        new_errors: pick(&new_findings, Severity::Error),
        new_warnings: pick(&new_findings, Severity::Warning),
        preexisting_errors: count(Severity::Error),
        preexisting_warnings: count(Severity::Warning),
    }
}

/// Moves each new over-budget finding on a file the change left alone to
/// the file whose growth caused it (issue 26): when `after`'s sessions lose
/// bytes of an unchanged file that `before`'s kept whole, and a file they
/// load grew, the finding is on the file that grew most and names who
/// loses (`pushesOut`). Findings on files that grew themselves, or that
/// lost bytes at REV already, stay where they are.
pub fn reanchor(before: &Report, after: &mut Report) {
    let (old, new) = (files_at(before), files_at(after));
    let lost_before: HashSet<String> = before
        .findings
        .iter()
        .filter(|f| matches!(f.detail, Detail::OverBudget { .. }))
        .map(|f| f.file.clone())
        .collect();
    let received: HashMap<&str, &Received> =
        after.received.iter().map(|d| (d.dir.as_str(), d)).collect();
    let mut moved: Vec<(String, Finding)> = Vec::new();
    let mut keep = Vec::with_capacity(after.findings.len());
    for f in std::mem::take(&mut after.findings) {
        let cause = if lost_before.contains(&f.file) {
            None
        } else {
            grown_cause(&f, (&old, &new), &received)
        };
        match cause {
            Some((cause, was, now)) => moved.push((cause, with_cause(f, was, now))),
            None => keep.push(f),
        }
    }
    after.findings = merge_causes(moved, keep);
    after.errors = after
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    after.warnings = after.findings.len() - after.errors;
}

/// Each loaded file of a report's sessions, by directory and path: its
/// bytes and digest.
type FilesAt = HashMap<(String, String), (usize, String)>;

fn files_at(r: &Report) -> FilesAt {
    r.received
        .iter()
        .flat_map(|d| {
            d.files
                .iter()
                .map(move |f| ((d.dir.clone(), f.path.clone()), (f.bytes, f.digest.clone())))
        })
        .collect()
}

/// For an over-budget finding on a file unchanged in every session that
/// loses it, the file of those sessions that grew the most: its path, and
/// its bytes before and after.
fn grown_cause(
    f: &Finding,
    (old, new): (&FilesAt, &FilesAt),
    received: &HashMap<&str, &Received>,
) -> Option<(String, usize, usize)> {
    let Detail::OverBudget { directories, .. } = &f.detail else {
        return None;
    };
    let dirs = directories.names();
    let unchanged = dirs.iter().all(|d| {
        let k = (d.clone(), f.file.clone());
        old.get(&k).map(|o| &o.1) == new.get(&k).map(|n| &n.1) && old.contains_key(&k)
    });
    if !unchanged {
        return None;
    }
    let mut grown: Option<(usize, String, usize, usize)> = None;
    for d in &dirs {
        let Some(r) = received.get(d.as_str()) else {
            continue;
        };
        for file in &r.files {
            let was = old.get(&(d.clone(), file.path.clone())).map_or(0, |o| o.0);
            let growth = file.bytes.saturating_sub(was);
            if growth > 0 && grown.as_ref().is_none_or(|g| growth > g.0) {
                grown = Some((growth, file.path.clone(), was, file.bytes));
            }
        }
    }
    grown.map(|(_, cause, was, now)| (cause, was, now))
}

/// One finding per grown file, naming every file it pushed out, ahead of
/// the findings kept; a grown file that is cut itself gets one finding
/// that says both.
fn merge_causes(moved: Vec<(String, Finding)>, mut keep: Vec<Finding>) -> Vec<Finding> {
    let mut merged: Vec<Finding> = Vec::new();
    for (cause, f) in moved {
        if let Some(m) = merged.iter_mut().find(|m| m.file == cause) {
            merge_cause(m, &f);
        } else {
            let mut f = f;
            f.dir = match cause.rsplit_once('/') {
                Some((d, _)) if !d.is_empty() => d.to_owned(),
                _ => ".".to_owned(),
            };
            f.file = cause;
            merged.push(f);
        }
    }
    for m in &mut merged {
        if let Some(i) = keep
            .iter()
            .position(|k| k.file == m.file && matches!(k.detail, Detail::OverBudget { .. }))
        {
            let own = keep.remove(i);
            if let Detail::OverBudget { itself, .. } = &mut m.detail {
                *itself = Some(Box::new(own.detail));
            }
        }
    }
    merged.extend(keep);
    merged
}

/// The finding on `lost`, turned into one on the file that grew from
/// `was` to `now` bytes.
fn with_cause(mut f: Finding, was: usize, now: usize) -> Finding {
    if let Detail::OverBudget {
        pushes_out,
        grew_from,
        bytes,
        ..
    } = &mut f.detail
    {
        pushes_out.push(f.file.clone());
        *grew_from = Some(was);
        *bytes = now;
    }
    f
}

fn merge_cause(into: &mut Finding, f: &Finding) {
    if let (
        Detail::OverBudget { pushes_out, .. },
        Detail::OverBudget {
            pushes_out: more, ..
        },
    ) = (&mut into.detail, &f.detail)
    {
        for p in more {
            if !pushes_out.contains(p) {
                pushes_out.push(p.clone());
            }
        }
    }
}

/// The change of one directory, when its received text changes.
fn dir_change(dir: &str, old: Option<&Received>, new: Option<&Received>) -> Option<DirChange> {
    let digest = |d: Option<&Received>| d.and_then(|d| d.text_digest.clone());
    if digest(old) == digest(new) {
        return None;
    }
    let files = |d: Option<&Received>| -> HashMap<String, String> {
        d.map(|d| {
            d.files
                .iter()
                .map(|f| (f.path.clone(), f.digest.clone()))
                .collect()
        })
        .unwrap_or_default()
    };
    let (of, nf) = (files(old), files(new));
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let only = |a: &HashMap<String, String>, b: &HashMap<String, String>| {
        sorted(a.keys().filter(|k| !b.contains_key(*k)).cloned().collect())
    };
    let cut = |d: Option<&Received>| -> (HashSet<String>, HashSet<String>) {
        d.map(|d| {
            (
                d.omitted.iter().cloned().collect(),
                d.truncated.iter().cloned().collect(),
            )
        })
        .unwrap_or_default()
    };
    let ((oo, ot), (no, nt)) = (cut(old), cut(new));
    let fails =
        |d: Option<&Received>| d.is_some_and(|d| !(d.omitted.is_empty() && d.truncated.is_empty()));
    Some(DirChange {
        dir: dir.to_owned(),
        bytes_before: old.map(|d| d.bytes),
        bytes_after: new.map(|d| d.bytes),
        added: only(&nf, &of),
        removed: only(&of, &nf),
        changed: sorted(
            nf.iter()
                .filter(|(k, v)| of.get(*k).is_some_and(|o| o != *v))
                .map(|(k, _)| k.clone())
                .collect(),
        ),
        newly_omitted: sorted(no.difference(&oo).cloned().collect()),
        newly_truncated: sorted(nt.difference(&ot).cloned().collect()),
        newly_failing: fails(new) && !fails(old),
    })
}

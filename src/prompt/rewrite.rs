//! Prompt paragraphs and the head rewrite between two versions.

use super::values::find_values;
use super::{HeadRewrite, Paragraph, ValueChange};

/// Splits a prompt into paragraphs: maximal runs of lines (split at `\n`)
/// that are not blank (empty or whitespace only), as slices of the text.
#[must_use]
pub fn paragraphs(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    let mut end = 0;
    let mut pos = 0;
    for line in text.split('\n') {
        let (start, stop) = (pos, pos + line.len());
        pos = stop + 1;
        if line.trim().is_empty() {
            if let Some(s) = open.take() {
                out.push(&text[s..end]);
            }
        } else {
            open.get_or_insert(start);
            end = stop;
        }
    }
    if let Some(s) = open {
        out.push(&text[s..end]);
    }
    out
}

/// The paragraph-level difference of two versions: (removed, added), each
/// with 1-based indices in its own version, from a longest common
/// subsequence (a moved paragraph shows as removed and added).
pub(super) fn paragraph_diff(old: &[&str], new: &[&str]) -> (Vec<Paragraph>, Vec<Paragraph>) {
    const MAX_CELLS: usize = 1 << 22;
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let a = &old[prefix..old.len() - suffix];
    let b = &new[prefix..new.len() - suffix];
    let para = |offset: usize, text: &str| Paragraph {
        index: prefix + offset + 1,
        text: text.to_owned(),
    };
    let (mut removed, mut added) = (Vec::new(), Vec::new());
    if (a.len() + 1).saturating_mul(b.len() + 1) > MAX_CELLS {
        removed.extend(a.iter().enumerate().map(|(i, t)| para(i, t)));
        added.extend(b.iter().enumerate().map(|(j, t)| para(j, t)));
        return (removed, added);
    }
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let width = b.len() + 1;
    let mut lcs = vec![0u32; (a.len() + 1) * width];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i * width + j] = if a[i] == b[j] {
                lcs[(i + 1) * width + j + 1] + 1
            } else {
                lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if j == b.len()
            || (i < a.len() && lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])
        {
            removed.push(para(i, a[i]));
            i += 1;
        } else {
            added.push(para(j, b[j]));
            j += 1;
        }
    }
    (removed, added)
}

pub(super) fn rewrite(
    seq: Option<u64>,
    line: u64,
    version: u64,
    old: &[&str],
    new: &[&str],
) -> HeadRewrite {
    let (removed, added) = paragraph_diff(old, new);
    let masked = |ps: &[Paragraph]| {
        let mut m: Vec<(String, Vec<String>)> = ps
            .iter()
            .map(|p| {
                let found = find_values(&p.text);
                let mut text = String::with_capacity(p.text.len());
                let mut at = 0;
                for f in &found {
                    text.push_str(&p.text[at..f.start]);
                    text.push('\0');
                    at = f.end;
                }
                text.push_str(&p.text[at..]);
                let values = found.iter().map(|f| p.text[f.start..f.end].to_owned());
                (text, values.collect())
            })
            .collect();
        m.sort();
        m
    };
    let (old_m, new_m) = (masked(&removed), masked(&added));
    let only_process_values = !removed.is_empty()
        && old_m.len() == new_m.len()
        && old_m.iter().zip(&new_m).all(|(a, b)| a.0 == b.0);
    let mut value_changes: Vec<ValueChange> = Vec::new();
    if only_process_values {
        for ((_, from), (_, to)) in old_m.iter().zip(&new_m) {
            for (f, t) in from.iter().zip(to) {
                let change = ValueChange {
                    from: f.clone(),
                    to: t.clone(),
                };
                if f != t && !value_changes.contains(&change) {
                    value_changes.push(change);
                }
            }
        }
    }
    HeadRewrite {
        seq,
        line,
        version,
        previous: version.saturating_sub(1),
        removed,
        added,
        only_process_values,
        value_changes,
    }
}

//! `check --summary`: every directory that loads anything, with its share
//! of the byte budget, sorted fullest first.

use serde::Serialize;

use super::Received;
use crate::jsnum::MaxBytes;

/// One directory's use of the budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    /// The directory, relative to where check was started.
    pub dir: String,
    /// Bytes its whole baseline needs (what a session there gets when it fits).
    pub bytes: usize,
    /// The budget (`null`: the harness has none).
    pub max_bytes: Option<MaxBytes>,
    /// `bytes` as a percentage of max-bytes, to one decimal (`null`: no
    /// budget).
    pub percent: Option<f64>,
    /// The largest loaded file and its bytes.
    pub largest_file: String,
    pub largest_bytes: usize,
    /// Bytes left before the budget cuts (negative: over; `null`: no
    /// budget).
    pub headroom: Option<i64>,
}

/// The rows of every directory whose session loads a file, by share of
/// the budget (largest first; by bytes without one), then by directory.
#[must_use]
pub fn rows(dirs: &[Received]) -> Vec<Row> {
    let mut rows: Vec<Row> = dirs
        .iter()
        .filter(|d| !d.also)
        .filter_map(|d| {
            let largest = d
                .files
                .iter()
                .max_by(|x, y| x.bytes.cmp(&y.bytes).then(y.path.cmp(&x.path)))?;
            let need = d.whole_bytes.max(d.bytes);
            let (percent, headroom) = match d.max_bytes {
                // A directory only loads files when the budget is enabled.
                Some(max) => (Some(max.percent(need)?), Some(max.headroom(need)?)),
                None => (None, None),
            };
            Some(Row {
                dir: d.dir.clone(),
                bytes: need,
                max_bytes: d.max_bytes,
                percent,
                largest_file: largest.path.clone(),
                largest_bytes: largest.bytes,
                headroom,
            })
        })
        .collect();
    rows.sort_by(|a, b| {
        let share = |r: &Row| r.percent.unwrap_or(-1.0);
        let bytes = || match (a.percent, b.percent) {
            (None, None) => b.bytes.cmp(&a.bytes),
            _ => std::cmp::Ordering::Equal,
        };
        share(b)
            .total_cmp(&share(a))
            .then_with(bytes)
            .then_with(|| a.dir.cmp(&b.dir))
    });
    rows
}

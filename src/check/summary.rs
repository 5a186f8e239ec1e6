//! `check --summary`: every directory that loads anything, with its share
//! of the byte budget, sorted fullest first.

use serde::Serialize;

use super::DirBaseline;
use crate::jsnum::MaxBytes;

/// One directory's use of the budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    /// The directory, relative to where check was started.
    pub dir: String,
    /// Bytes its whole baseline needs (what a session there gets when it fits).
    pub bytes: usize,
    pub max_bytes: MaxBytes,
    /// `bytes` as a percentage of max-bytes, to one decimal.
    pub percent: f64,
    /// The largest loaded file (display path) and its bytes.
    pub largest_file: String,
    pub largest_bytes: usize,
    /// Bytes left before the budget cuts (negative: over).
    pub headroom: i64,
}

/// The rows of every directory whose baseline loads a file, by share of
/// the budget (largest first), then by directory.
#[must_use]
pub fn rows(dirs: &[DirBaseline]) -> Vec<Row> {
    let mut rows: Vec<Row> = dirs
        .iter()
        .filter_map(|d| {
            let b = &d.baseline;
            let largest = b
                .files
                .iter()
                .max_by(|x, y| x.bytes.cmp(&y.bytes).then(y.path.cmp(&x.path)))?;
            let need = d.whole_bytes.max(b.bytes);
            // A directory only loads files when the budget is enabled.
            let percent = b.max_bytes.percent(need)?;
            Some(Row {
                dir: d.dir.clone(),
                bytes: need,
                max_bytes: b.max_bytes,
                percent,
                largest_file: largest.path.clone(),
                largest_bytes: largest.bytes,
                headroom: b.max_bytes.headroom(need)?,
            })
        })
        .collect();
    rows.sort_by(|a, b| {
        b.percent
            .total_cmp(&a.percent)
            .then_with(|| a.dir.cmp(&b.dir))
    });
    rows
}

//! `check --summary`: every directory that loads anything, with its share
//! of the byte budget, sorted fullest first.

use serde::Serialize;

use super::DirBaseline;

/// One directory's use of the budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    /// The directory, relative to where check was started.
    pub dir: String,
    /// Bytes its whole baseline needs (what a session there gets when it fits).
    pub bytes: usize,
    pub max_bytes: i64,
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
            let max = b.max_bytes.max(1);
            let need = d.whole_bytes.max(b.bytes);
            let bytes = i64::try_from(need).unwrap_or(i64::MAX);
            // Byte counts are exact in an f64 below 2^53 (8 PiB), and the
            // share is rounded to one decimal.
            #[allow(clippy::cast_precision_loss)]
            let percent = (bytes as f64 * 1000.0 / max as f64).round() / 10.0;
            Some(Row {
                dir: d.dir.clone(),
                bytes: need,
                max_bytes: b.max_bytes,
                percent,
                largest_file: largest.path.clone(),
                largest_bytes: largest.bytes,
                headroom: b.max_bytes.saturating_sub(bytes),
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

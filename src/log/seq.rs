//! Seqs as JavaScript reads them (issue 21): a JSON number whose double is a
//! non-negative integer, kept as an order-preserving `u64` key, and that key
//! shown and serialized as the seq it stands for.

use crate::log::scan::number;

/// A seq as JavaScript compares it: a JSON number whose double is a
/// non-negative integer (`1.0`, `1e0` are 1; `-0` is 0; 2^53 + 1 is 2^53),
/// as an order-preserving key.
///
/// Below 2^63 the key is the seq itself. Every double from 2^63 on is an
/// integer, and they are fewer than the keys from 2^63 to 2^64 - 1 (2^52 a
/// binade, 961 binades up to `f64::MAX`), so there the key is 2^63 plus
/// the double's rank among them: its bits less those of 2^63 (the bits of
/// positive doubles ascend with their values). So seqs of 2^64 and beyond,
/// integers to JavaScript, are read (issue 21), order and equality hold as
/// JavaScript's, and only [`seq_value`] and [`seq_text`] need to know.
pub fn seq(raw: &[u8]) -> Option<u64> {
    // What dsh writes: up to 15 digits, no leading zero, below 2^53, so
    // the integer is its own double (no float parse).
    if (1..=15).contains(&raw.len())
        && raw.iter().all(u8::is_ascii_digit)
        && (raw[0] != b'0' || raw.len() == 1)
    {
        return Some(raw.iter().fold(0, |n, &d| n * 10 + u64::from(d - b'0')));
    }
    let d = number(raw)?;
    if d.fract() != 0.0 || d <= -1.0 || !d.is_finite() {
        return None;
    }
    if d < SEQ_RANKED {
        // A whole number in (-1, 2^63): exactly a u64 (`-0.0` is 0).
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        return Some(d as u64);
    }
    Some(SEQ_RANK_BASE + (d.to_bits() - SEQ_RANKED.to_bits()))
}

/// 2^63: seqs from here on are ranked, not stored as themselves.
const SEQ_RANKED: f64 = 9_223_372_036_854_775_808.0;
const SEQ_RANK_BASE: u64 = 1 << 63;

/// The double a seq key stands for.
#[must_use]
pub fn seq_value(key: u64) -> f64 {
    if key < SEQ_RANK_BASE {
        #[allow(clippy::cast_precision_loss)]
        return key as f64;
    }
    f64::from_bits(SEQ_RANKED.to_bits() + (key - SEQ_RANK_BASE))
}

/// A seq key as messages write it: the seq's exact integer digits (a seq
/// below 2^63 is its key).
#[must_use]
pub fn seq_text(key: u64) -> String {
    if key < SEQ_RANK_BASE {
        key.to_string()
    } else {
        format!("{:.0}", seq_value(key))
    }
}

/// Serializes a seq key as its seq: the integer below 2^64 (as before),
/// beyond that the double (JSON has no bound on a number, serde_json's
/// writer has).
///
/// # Errors
///
/// Whatever the serializer returns.
pub fn serialize_seq<S: serde::Serializer>(key: &u64, s: S) -> Result<S::Ok, S::Error> {
    let value = seq_value(*key);
    if *key < SEQ_RANK_BASE {
        s.serialize_u64(*key)
    } else if value < 18_446_744_073_709_551_616.0 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        s.serialize_u64(value as u64)
    } else {
        s.serialize_f64(value)
    }
}

/// [`serialize_seq`] for an optional seq.
///
/// # Errors
///
/// Whatever the serializer returns.
#[allow(clippy::ref_option, clippy::trivially_copy_pass_by_ref)]
pub fn serialize_opt_seq<S: serde::Serializer>(key: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
    match key {
        Some(k) => serialize_seq(k, s),
        None => s.serialize_none(),
    }
}

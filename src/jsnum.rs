//! Numbers as dsh's JavaScript sees them (SPEC 1, 2.5, 4.1): the
//! max-bytes value is an IEEE double, written in config as YAML writes a
//! number, and printed in the notice and the identity as JavaScript prints
//! it (`Number.prototype.toString`, `JSON.stringify`).

use std::fmt;

use serde::{Serialize, Serializer};

/// The max-bytes setting: any double. NaN, an infinity or a value `<= 0`
/// disables loading; otherwise a text fits when its byte count is at most
/// the value (so 400.7 admits 400 bytes).
///
/// Two values are equal when their bits are (so NaN equals NaN and the
/// type can sit in records that compare whole).
#[derive(Debug, Clone, Copy)]
pub struct MaxBytes(pub f64);

impl PartialEq for MaxBytes {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for MaxBytes {}

impl MaxBytes {
    /// The largest byte count that fits, or `None` when loading is disabled.
    #[must_use]
    pub fn limit(self) -> Option<usize> {
        // `as` saturates: a budget past usize::MAX admits everything.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        (self.0.is_finite() && self.0 > 0.0).then(|| self.0.floor() as usize)
    }

    /// Whether loading is enabled (a finite value above 0).
    #[must_use]
    pub fn is_enabled(self) -> bool {
        self.limit().is_some()
    }

    /// `used` bytes as a percentage of the budget, to one decimal, when
    /// loading is enabled.
    #[must_use]
    pub fn percent(self, used: usize) -> Option<f64> {
        // Byte counts are exact in an f64 below 2^53 (8 PiB).
        #[allow(clippy::cast_precision_loss)]
        self.limit()
            .map(|_| (used as f64 * 1000.0 / self.0).round() / 10.0)
    }

    /// Bytes left before the budget cuts (negative: over), when loading is
    /// enabled.
    #[must_use]
    pub fn headroom(self, used: usize) -> Option<i64> {
        let limit = i64::try_from(self.limit()?).unwrap_or(i64::MAX);
        Some(limit.saturating_sub(i64::try_from(used).unwrap_or(i64::MAX)))
    }
}

impl fmt::Display for MaxBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_string(self.0))
    }
}

/// As `JSON.stringify` writes it: the number, or `null` when not finite.
impl Serialize for MaxBytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw = if self.0.is_finite() {
            to_string(self.0)
        } else {
            "null".to_owned()
        };
        match serde_json::value::RawValue::from_string(raw) {
            Ok(raw) => raw.serialize(serializer),
            Err(e) => Err(serde::ser::Error::custom(e)),
        }
    }
}

/// `Number.prototype.toString()` (ECMAScript `Number::toString`, radix 10):
/// the shortest digits that read back as `x`, in plain notation for
/// exponents from -6 to 20 and in exponent notation (`1e+21`) beyond.
#[must_use]
pub fn to_string(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_owned();
    }
    if x == 0.0 {
        return "0".to_owned();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    if x < 0.0 {
        return format!("-{}", to_string(-x));
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `d.ddde±x`.
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    let n = exp.parse::<i64>().unwrap_or(0) + 1;
    let zeros = |count: i64| "0".repeat(usize::try_from(count).unwrap_or(0));
    if k <= n && n <= 21 {
        format!("{digits}{}", zeros(n - k))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(usize::try_from(n).unwrap_or(0));
        format!("{int}.{frac}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", zeros(-n))
    } else {
        let sign = if n - 1 < 0 { '-' } else { '+' };
        let e = (n - 1).abs();
        match digits.split_at(1) {
            (d, "") => format!("{d}e{sign}{e}"),
            (d, rest) => format!("{d}.{rest}e{sign}{e}"),
        }
    }
}

/// Parses a number as dsh's YAML config writes one (SPEC 1): an optional
/// sign, digits with an optional `.` fraction (or a fraction alone, `.5`),
/// an optional exponent; or `inf`/`nan` (YAML's `.inf`, `.nan`), optionally
/// signed, in any case. `None` for anything else.
#[must_use]
pub fn parse(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let word = body.strip_prefix('.').unwrap_or(body).to_ascii_lowercase();
    let value = match word.as_str() {
        "inf" => f64::INFINITY,
        "nan" => f64::NAN,
        _ if is_decimal(body) => body.parse::<f64>().ok()?,
        _ => return None,
    };
    Some(if negative { -value } else { value })
}

/// `(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?`, the unsigned body of a YAML 1.2
/// core-schema float or integer.
fn is_decimal(body: &str) -> bool {
    let b = body.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let int = digits(&mut i);
    let mut frac = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        frac = digits(&mut i);
    }
    if int == 0 && frac == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        let cases: [(f64, &str); 16] = [
            (65536.0, "65536"),
            (600.5, "600.5"),
            (1e5, "100000"),
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (1e20, "100000000000000000000"),
            (123_456_789_012_345_680_000.0, "123456789012345680000"),
            (0.5, "0.5"),
            (0.000_001, "0.000001"),
            (0.000_000_1, "1e-7"),
            (1.25e-7, "1.25e-7"),
            (-1.0, "-1"),
            (-0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (400.7, "400.7"),
        ];
        for (x, want) in cases {
            assert_eq!(to_string(x), want, "{x:?}");
        }
    }

    #[test]
    fn yaml_numbers_parse_and_anything_else_does_not() {
        let ok: [(&str, f64); 12] = [
            ("65536", 65536.0),
            ("600.5", 600.5),
            ("1e5", 1e5),
            ("1E+5", 1e5),
            (".5", 0.5),
            ("5.", 5.0),
            ("-1", -1.0),
            ("+7", 7.0),
            ("-1e5", -1e5),
            ("inf", f64::INFINITY),
            ("-.INF", f64::NEG_INFINITY),
            ("100000.0", 1e5),
        ];
        for (text, want) in ok {
            assert_eq!(parse(text), Some(want), "{text}");
        }
        assert!(parse("nan").is_some_and(f64::is_nan));
        assert!(parse(".NaN").is_some_and(f64::is_nan));
        for bad in [
            "", ".", "e5", "1e", "1e+", "0x10", "1_000", "12a", "--1", "infinity", " 1",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_limit_is_the_integer_part_and_non_positive_or_non_finite_disables() {
        assert_eq!(MaxBytes(400.7).limit(), Some(400));
        assert_eq!(MaxBytes(65536.0).limit(), Some(65536));
        assert_eq!(MaxBytes(0.0).limit(), None);
        assert_eq!(MaxBytes(-1.0).limit(), None);
        assert_eq!(MaxBytes(f64::NAN).limit(), None);
        assert_eq!(MaxBytes(f64::INFINITY).limit(), None);
        let json = serde_json::to_string(&[MaxBytes(1e5), MaxBytes(600.5), MaxBytes(f64::NAN)])
            .unwrap_or_default();
        assert_eq!(json, "[100000,600.5,null]");
    }
}

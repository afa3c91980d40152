//! Numbers for the machine: reading one number token, and exact comparison.

use std::cmp::Ordering;

use jitson_kernels::ErrorKind;
use jitson_kernels::float_parse::{FloatOverflow, parse_f64};
use jitson_kernels::int_parse::{parse_i64, parse_u64};
use jitson_kernels::number::scan_number;

use crate::ir::{BigInts, FailKind, Number};

/// 2^127 as an `f64`: beyond it an `f64` no longer fits `i128`.
const TWO_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;

/// Reads the number token at `pos` (its first byte is `-` or a digit): the value as
/// [`Number`] documents and the index past the token; or an error kind and offset.
pub(crate) fn read_number(
    input: &[u8],
    pos: usize,
    big: BigInts,
) -> Result<(Number, usize), (FailKind, usize)> {
    let token = scan_number(input, pos).map_err(|e| (FailKind::Syntax(e.kind), e.offset))?;
    if !token.is_integer {
        return read_float(input, token.start, token.end);
    }
    let integer = if token.negative {
        parse_i64(input, pos).map(|(v, end)| (Number::I64(v), end))
    } else {
        parse_u64(input, pos).map(|(v, end)| (Number::U64(v), end))
    };
    match integer {
        // `-0` is the float -0.0 for serde_json.
        Ok((Number::I64(0), end)) => Ok((Number::F64(-0.0), end)),
        Ok(ok) => Ok(ok),
        Err(e) if e.kind == ErrorKind::NumberOutOfRange && big == BigInts::Error => {
            Err((FailKind::NumberOutOfRange, token.end - 1))
        }
        Err(e) if e.kind == ErrorKind::NumberOutOfRange => {
            read_float(input, token.start, token.end)
        }
        Err(e) => Err((FailKind::Syntax(e.kind), e.offset)),
    }
}

/// Reads the number token `start..end` as the nearest `f64` (the correctly rounded float
/// kernel); a finite token beyond `f64` is `NumberOutOfRange` at its last byte.
fn read_float(
    input: &[u8],
    start: usize,
    end: usize,
) -> Result<(Number, usize), (FailKind, usize)> {
    match parse_f64(input, start, FloatOverflow::Error) {
        Ok((value, _)) => Ok((Number::F64(value), end)),
        Err(e) if e.kind == ErrorKind::NumberOutOfRange => {
            Err((FailKind::NumberOutOfRange, end - 1))
        }
        Err(e) => Err((FailKind::Syntax(e.kind), e.offset)),
    }
}

impl Number {
    /// Whether the number has no fractional part.
    pub fn is_integer(self) -> bool {
        match self {
            Number::F64(f) => f.is_finite() && f.fract() == 0.0,
            _ => true,
        }
    }

    /// Exact comparison of the two numbers' mathematical values (NaN compares equal to
    /// integers; no NaN ever comes from JSON).
    pub fn cmp_exact(self, other: Number) -> Ordering {
        match (self.as_i128(), other.as_i128()) {
            (Some(a), Some(b)) => a.cmp(&b),
            (Some(a), None) => cmp_int_float(a, other.as_f64()),
            (None, Some(b)) => cmp_int_float(b, self.as_f64()).reverse(),
            (None, None) => self.as_f64().total_cmp(&other.as_f64()),
        }
    }

    /// The value as `i128`, for the integer variants.
    fn as_i128(self) -> Option<i128> {
        match self {
            Number::I64(i) => Some(i.into()),
            Number::U64(u) => Some(u.into()),
            Number::F64(_) => None,
        }
    }

    /// The nearest `f64`.
    pub fn as_f64(self) -> f64 {
        match self {
            Number::I64(i) => i as f64,
            Number::U64(u) => u as f64,
            Number::F64(f) => f,
        }
    }
}

/// Exact comparison of an integer with a float (a NaN compares equal; JSON has none).
pub fn cmp_int_float(i: i128, f: f64) -> Ordering {
    if f.is_nan() {
        return Ordering::Equal;
    }
    if f >= TWO_127 {
        return Ordering::Less;
    }
    if f < -TWO_127 {
        return Ordering::Greater;
    }
    let floor = f.floor();
    match i.cmp(&(floor as i128)) {
        Ordering::Equal if f > floor => Ordering::Less,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<(Number, usize), (FailKind, usize)> {
        read_number(text.as_bytes(), 0, BigInts::F64)
    }

    #[test]
    fn reads_like_serde_json() {
        assert_eq!(read("12,"), Ok((Number::U64(12), 2)));
        assert_eq!(read("-12]"), Ok((Number::I64(-12), 3)));
        assert_eq!(read("-0"), Ok((Number::F64(-0.0), 2)));
        assert_eq!(read("1.5e1"), Ok((Number::F64(15.0), 5)));
        assert_eq!(
            read("18446744073709551616"),
            Ok((Number::F64(18446744073709551616.0), 20))
        );
        assert_eq!(read("1e400"), Err((FailKind::NumberOutOfRange, 4)));
        assert_eq!(
            read("01"),
            Err((FailKind::Syntax(ErrorKind::InvalidNumber), 1))
        );
        assert_eq!(
            read_number(b"18446744073709551616", 0, BigInts::Error),
            Err((FailKind::NumberOutOfRange, 19))
        );
    }

    #[test]
    fn exact_comparison() {
        let big = Number::I64(-9_007_199_254_740_993);
        assert_eq!(
            big.cmp_exact(Number::F64(-9_007_199_254_740_992.0)),
            Ordering::Less
        );
        assert_eq!(Number::U64(3).cmp_exact(Number::F64(3.5)), Ordering::Less);
        assert_eq!(Number::U64(3).cmp_exact(Number::F64(3.0)), Ordering::Equal);
        assert_eq!(
            Number::U64(u64::MAX).cmp_exact(Number::F64(18446744073709551616.0)),
            Ordering::Less
        );
        assert!(Number::F64(2.0).is_integer());
        assert!(!Number::F64(2.5).is_integer());
    }
}

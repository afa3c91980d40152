//! Numbers for the machine: reading one number token, checking the numbers of a skipped
//! value, and exact comparison.

use std::cmp::Ordering;

use jitson_kernels::float_parse::{FloatOverflow, parse_f64};
use jitson_kernels::number_bounds::F64Bounds;
use jitson_kernels::number_parse::{NumberValue, parse_number};
use jitson_kernels::string_scan::scan_string;

use crate::ir::{BigInt, BigInts, FailKind, Limit, NumCheck, NumRef, Number};

/// The largest magnitude up to which every integer is exactly an `f64`.
pub(crate) const EXACT_INT: u64 = 1 << 53;

/// 2^127 as an `f64`: beyond it an `f64` no longer fits `i128`.
const TWO_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;

/// The checks of `c` as [`F64Bounds`], for the bounds kernel and the native code's inline
/// compares: `None` when they are not only bounds exactly `f64`s (a `multipleOf` predicate, an
/// integer bound beyond 2^53 in magnitude). An absent bound is infinite.
pub(crate) fn f64_bounds(c: &NumCheck) -> Option<F64Bounds> {
    if c.multiple_of.is_some() {
        return None;
    }
    let (min, min_exclusive) = exact_bound(c.minimum, f64::NEG_INFINITY)?;
    let (max, max_exclusive) = exact_bound(c.maximum, f64::INFINITY)?;
    Some(F64Bounds {
        min,
        min_exclusive,
        max,
        max_exclusive,
        integer: c.integer,
    })
}

/// `limit` as an `f64` (exact, finite) and whether it is excluded; `(absent, false)` without a
/// limit, `None` for a limit that is not exactly an `f64`.
fn exact_bound(limit: Option<Limit>, absent: f64) -> Option<(f64, bool)> {
    let Some(limit) = limit else {
        return Some((absent, false));
    };
    let value = match limit.value {
        Number::F64(f) if f.is_finite() => f,
        Number::I64(i) if i.unsigned_abs() <= EXACT_INT => i as f64,
        Number::U64(u) if u <= EXACT_INT => u as f64,
        _ => return None,
    };
    Some((value, limit.exclusive))
}

/// Reads the number token at `pos` (its first byte is `-` or a digit): the value as
/// [`Number`] documents (an integer beyond 64 bits per `big`) and the index past the token;
/// or an error kind and offset. One pass over the token ([`parse_number`]) in the common case.
pub fn read_number(
    input: &[u8],
    pos: usize,
    big: BigInts,
) -> Result<(NumRef<'_>, usize), (FailKind, usize)> {
    let (value, end) =
        parse_number(input, pos).map_err(|e| (FailKind::Syntax(e.kind), e.offset))?;
    let number = match value {
        NumberValue::U64(u) => Number::U64(u),
        // `-0` is the float -0.0 for serde_json.
        NumberValue::I64(0) => Number::F64(-0.0),
        NumberValue::I64(i) => Number::I64(i),
        NumberValue::F64(f) if f.is_infinite() => {
            return Err((FailKind::NumberOutOfRange, end - 1));
        }
        NumberValue::F64(f) => Number::F64(f),
        NumberValue::BigInt => return read_big_int(input, pos, end, big),
    };
    Ok((NumRef::Number(number), end))
}

/// Checks the numbers of the value `input[start..end]`, which the skip kernel has checked as
/// JSON (it checks the number grammar only): a skipped number must fit as a read one must,
/// an `f64` (and 64 bits, with [`BigInts::Error`]). The error is [`read_number`]'s for the
/// first number that does not. Only values that can hold such a number (an exponent, or
/// 309 bytes or more; with `Error`, 20 bytes or more: the shortest integers beyond 64 bits)
/// are walked: strings by the scan kernel, numbers read.
pub fn check_skipped_numbers(
    input: &[u8],
    start: usize,
    end: usize,
    big: BigInts,
) -> Result<(), (FailKind, usize)> {
    let value = &input[start..end];
    if value.first() == Some(&b'"') {
        // A string holds no number.
        return Ok(());
    }
    let short = match big {
        BigInts::Error => 20,
        BigInts::F64 | BigInts::Raw => 309,
    };
    if value.len() < short && !value.iter().any(|&b| b | 0x20 == b'e') {
        return Ok(());
    }
    let mut i = start;
    while i < end {
        match input[i] {
            b'"' => {
                let scan =
                    scan_string(input, i + 1).map_err(|e| (FailKind::Syntax(e.kind), e.offset))?;
                i = scan.end + 1;
            }
            b'-' | b'0'..=b'9' => i = read_number(input, i, big)?.1,
            _ => i += 1,
        }
    }
    Ok(())
}

/// Reads the integer token `start..end`, beyond 64 bits, as `big` says.
#[cold]
fn read_big_int(
    input: &[u8],
    start: usize,
    end: usize,
    big: BigInts,
) -> Result<(NumRef<'_>, usize), (FailKind, usize)> {
    let out_of_range = (FailKind::NumberOutOfRange, end - 1);
    match big {
        // The token is valid, so the float kernel's only error is a value beyond `f64`.
        BigInts::F64 => match parse_f64(input, start, FloatOverflow::Error) {
            Ok((value, _)) => Ok((NumRef::Number(Number::F64(value)), end)),
            Err(_) => Err(out_of_range),
        },
        BigInts::Error => Err(out_of_range),
        BigInts::Raw if end - start > u32::MAX as usize => Err(out_of_range),
        BigInts::Raw => match std::str::from_utf8(&input[start..end]) {
            Ok(text) => Ok((NumRef::BigInt(BigInt(text)), end)),
            Err(_) => Err(out_of_range),
        },
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
            // `-0.0` equals `0.0` (JSON has no NaN).
            (None, None) => self
                .as_f64()
                .partial_cmp(&other.as_f64())
                .unwrap_or(Ordering::Equal),
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

impl<'a> BigInt<'a> {
    /// `text` as a big integer: an optional `-`, then digits without a leading zero, of a
    /// value beyond `u64` (positive) or `i64` (negative); `None` for anything else.
    pub fn new(text: &'a str) -> Option<BigInt<'a>> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let grammar = digits.bytes().all(|b| b.is_ascii_digit()) && !digits.starts_with('0');
        let fits = text.parse::<u64>().is_ok() || text.parse::<i64>().is_ok();
        (grammar && !digits.is_empty() && !fits).then_some(BigInt(text))
    }

    /// The text, as in the input.
    pub fn as_str(self) -> &'a str {
        self.0
    }

    /// Whether it is below zero.
    pub fn is_negative(self) -> bool {
        self.0.starts_with('-')
    }

    /// The digits of its absolute value (no sign, no leading zero).
    pub fn magnitude(self) -> &'a str {
        self.0.strip_prefix('-').unwrap_or(self.0)
    }

    /// The nearest `f64` (what `serde_json` reads from the same text); infinite beyond the
    /// range of `f64` (more than 309 digits).
    pub fn to_f64(self) -> f64 {
        parse_f64(self.0.as_bytes(), 0, FloatOverflow::Infinity).map_or(f64::NAN, |(f, _)| f)
    }

    /// Exact comparison with a number's mathematical value (a NaN compares equal; JSON has
    /// none): the digits are compared with the number's exact decimal expansion.
    pub fn cmp_exact(self, other: Number) -> Ordering {
        let (negative, digits, fraction) = match other {
            Number::U64(u) => (false, u.to_string(), false),
            Number::I64(i) => (i < 0, i.unsigned_abs().to_string(), false),
            Number::F64(f) if f.is_nan() => return Ordering::Equal,
            Number::F64(f) if f.is_infinite() => {
                return if f > 0.0 {
                    Ordering::Less
                } else {
                    Ordering::Greater
                };
            }
            Number::F64(f) => {
                let whole = f.abs().trunc();
                (f < 0.0, format!("{whole:.0}"), whole != f.abs())
            }
        };
        let zero = digits == "0" && !fraction;
        match (self.is_negative(), negative && !zero) {
            (false, true) => return Ordering::Greater,
            (true, false) => return Ordering::Less,
            _ => {}
        }
        let mine = self.magnitude();
        let magnitude = (mine.len(), mine)
            .cmp(&(digits.len(), digits.as_str()))
            .then(if fraction {
                Ordering::Less
            } else {
                Ordering::Equal
            });
        if self.is_negative() {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

impl NumRef<'_> {
    /// Whether the number has no fractional part (a big integer has none).
    pub fn is_integer(self) -> bool {
        match self {
            NumRef::Number(n) => n.is_integer(),
            NumRef::BigInt(_) => true,
        }
    }

    /// Exact comparison with a number's mathematical value.
    pub fn cmp_exact(self, other: Number) -> Ordering {
        match self {
            NumRef::Number(n) => n.cmp_exact(other),
            NumRef::BigInt(b) => b.cmp_exact(other),
        }
    }

    /// The nearest `f64`.
    pub fn as_f64(self) -> f64 {
        match self {
            NumRef::Number(n) => n.as_f64(),
            NumRef::BigInt(b) => b.to_f64(),
        }
    }
}

/// Exact comparison of an integer with a float (a NaN compares equal; JSON has none).
pub fn cmp_int_float(i: i128, f: f64) -> Ordering {
    // An integer of at most 53 bits is exactly an `f64`: the float comparison is exact (and
    // says nothing for NaN, which compares equal).
    if i.unsigned_abs() <= 1 << 53 {
        // Through `i64`: a direct `i128` to `f64` conversion is a slow library call.
        return (i as i64 as f64).partial_cmp(&f).unwrap_or(Ordering::Equal);
    }
    cmp_by_floor(i, f)
}

/// [`cmp_int_float`] for any integer, by the float's floor and integer comparison only.
fn cmp_by_floor(i: i128, f: f64) -> Ordering {
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
#[path = "../../kernels/tests/common/rng.rs"]
mod test_rng;

#[cfg(test)]
mod tests {
    use super::*;
    use jitson_kernels::ErrorKind;

    /// Every integer near each bound lies in [`F64Bounds::integers`] exactly when it passes the
    /// bounds by [`Number::cmp_exact`]: fractional, integral, exclusive, huge and absent
    /// bounds, integers up to `u64::MAX` and down to `i64::MIN`.
    #[test]
    fn bounds_integers_agree_with_exact_compares() {
        let limits = [
            f64::NEG_INFINITY,
            -1e300,
            -9_223_372_036_854_775_808.0,
            -9_007_199_254_740_993.0,
            -2.5,
            -1.0,
            -0.5,
            0.0,
            0.5,
            1.0,
            3.0,
            9_007_199_254_740_992.0,
            1e18,
            18_446_744_073_709_551_616.0,
            1e300,
            f64::INFINITY,
        ];
        let near = |f: f64| -> Vec<i128> {
            let at = (f.clamp(-1e30, 1e30)) as i128;
            (-3..=3).map(|d| at + d).collect()
        };
        let mut ints: Vec<i128> = vec![0, u64::MAX.into(), i64::MIN.into(), 1 << 64];
        for &limit in &limits {
            ints.extend(near(limit));
        }
        for &min in &limits {
            for &max in &limits {
                for (min_exclusive, max_exclusive) in
                    [(false, false), (true, false), (false, true), (true, true)]
                {
                    let check = F64Bounds {
                        min,
                        min_exclusive,
                        max,
                        max_exclusive,
                        integer: true,
                    };
                    let (lowest, highest) = check.integers();
                    for &i in &ints {
                        let Some(n) = u64::try_from(i)
                            .map(Number::U64)
                            .ok()
                            .or_else(|| i64::try_from(i).map(Number::I64).ok())
                        else {
                            continue;
                        };
                        let above = match n.cmp_exact(Number::F64(min)) {
                            Ordering::Greater => true,
                            Ordering::Equal => !min_exclusive,
                            Ordering::Less => false,
                        };
                        let below = match n.cmp_exact(Number::F64(max)) {
                            Ordering::Less => true,
                            Ordering::Equal => !max_exclusive,
                            Ordering::Greater => false,
                        };
                        assert_eq!(
                            (lowest..=highest).contains(&i),
                            above && below,
                            "{i} in {check:?}"
                        );
                    }
                }
            }
        }
    }

    /// Regression: two floats compared by `total_cmp`, which puts `-0.0` below `0.0`; the
    /// comparison is of mathematical values (native code compares them with `fcmp`).
    #[test]
    fn negative_zero_equals_zero() {
        let (neg, pos) = (Number::F64(-0.0), Number::F64(0.0));
        assert_eq!(neg.cmp_exact(pos), Ordering::Equal);
        assert_eq!(pos.cmp_exact(neg), Ordering::Equal);
        assert_eq!(Number::F64(-0.5).cmp_exact(pos), Ordering::Less);
        assert_eq!(Number::F64(1e-300).cmp_exact(neg), Ordering::Greater);
    }

    #[test]
    fn small_integers_compare_with_floats_exactly() {
        let two53 = 1i128 << 53;
        let ints = [0, 1, -1, 7, -180, 180, 1_000_000, two53 - 1, two53, -two53];
        let floats = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            6.999_999_999_999_999,
            7.0,
            7.000_000_000_000_001,
            -180.000_000_000_1,
            -180.0,
            179.999_999_9,
            9_007_199_254_740_992.0,
            9_007_199_254_740_991.5,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            1e300,
            -1e-300,
        ];
        for i in ints {
            for f in floats {
                for (i, f) in [(i, f), (-i, f), (i, -f)] {
                    assert_eq!(cmp_int_float(i, f), cmp_by_floor(i, f), "{i} {f}");
                }
            }
        }
    }

    fn read(text: &str) -> Result<(Number, usize), (FailKind, usize)> {
        match read_number(text.as_bytes(), 0, BigInts::F64)? {
            (NumRef::Number(n), end) => Ok((n, end)),
            (NumRef::BigInt(b), _) => panic!("a big integer with F64: {b:?}"),
        }
    }

    /// The two-step reading `read_number` did before the one-pass kernel: `scan_number`,
    /// then the integer parser of the sign's type or the float parser, then `big`'s policy.
    fn two_step_read(
        input: &[u8],
        pos: usize,
        big: BigInts,
    ) -> Result<(NumRef<'_>, usize), (FailKind, usize)> {
        use jitson_kernels::int_parse::{parse_i64, parse_u64};
        use jitson_kernels::number::scan_number;
        let syntax = |e: jitson_kernels::KernelError| (FailKind::Syntax(e.kind), e.offset);
        let token = scan_number(input, pos).map_err(syntax)?;
        let float = |input| match parse_f64(input, token.start, FloatOverflow::Error) {
            Ok((value, _)) => Ok((NumRef::Number(Number::F64(value)), token.end)),
            Err(e) if e.kind == ErrorKind::NumberOutOfRange => {
                Err((FailKind::NumberOutOfRange, token.end - 1))
            }
            Err(e) => Err(syntax(e)),
        };
        if !token.is_integer {
            return float(input);
        }
        let integer = if token.negative {
            parse_i64(input, pos).map(|(v, end)| (Number::I64(v), end))
        } else {
            parse_u64(input, pos).map(|(v, end)| (Number::U64(v), end))
        };
        let out_of_range = (FailKind::NumberOutOfRange, token.end - 1);
        match integer {
            Ok((Number::I64(0), end)) => Ok((NumRef::Number(Number::F64(-0.0)), end)),
            Ok((n, end)) => Ok((NumRef::Number(n), end)),
            Err(e) if e.kind != ErrorKind::NumberOutOfRange => Err(syntax(e)),
            Err(_) => match big {
                BigInts::F64 => float(input),
                BigInts::Error => Err(out_of_range),
                BigInts::Raw => {
                    let text = std::str::from_utf8(&input[token.start..token.end]).unwrap();
                    Ok((NumRef::BigInt(BigInt(text)), token.end))
                }
            },
        }
    }

    #[test]
    fn reads_as_the_two_step_reading_did() {
        let mut rng = test_rng::Rng::new(0x2ead);
        let rounds = if cfg!(miri) { 20 } else { 100_000 };
        let bounds = [
            "18446744073709551615",
            "9223372036854775808",
            "1e308",
            "1e-323",
        ];
        for _ in 0..rounds {
            // Random number bytes, sometimes after a bound's prefix (near the 64-bit and f64
            // limits); `{:?}` compares floats by sign too.
            let mut bound = match rng.below(3) {
                0 => String::new(),
                _ => rng.pick(&bounds).to_string(),
            };
            bound.truncate(rng.below(bound.len() + 1).max(bound.len() / 2));
            let sign = if rng.chance(50) { "-" } else { "" };
            let mut text = format!("{sign}{bound}");
            let len = rng.below(24);
            let tail = rng.bytes_from(b"0123456789012345678901234567890123456789-+.eE,", len);
            text += std::str::from_utf8(&tail).unwrap();
            for big in [BigInts::F64, BigInts::Error, BigInts::Raw] {
                let (got, want) = (
                    read_number(text.as_bytes(), 0, big),
                    two_step_read(text.as_bytes(), 0, big),
                );
                assert_eq!(format!("{got:?}"), format!("{want:?}"), "{text:?} {big:?}");
            }
        }
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
    fn raw_keeps_only_big_integers() {
        fn raw(text: &str) -> Result<(NumRef<'_>, usize), (FailKind, usize)> {
            read_number(text.as_bytes(), 0, BigInts::Raw)
        }
        let big = |text| Ok((NumRef::BigInt(BigInt(text)), text.len()));
        assert_eq!(raw("18446744073709551616"), big("18446744073709551616"));
        assert_eq!(raw("-9223372036854775809"), big("-9223372036854775809"));
        let huge = "1".repeat(400);
        assert_eq!(raw(&huge), big(&huge));
        assert_eq!(
            raw("18446744073709551615"),
            Ok((NumRef::Number(Number::U64(u64::MAX)), 20))
        );
        assert_eq!(
            raw("-9223372036854775808"),
            Ok((NumRef::Number(Number::I64(i64::MIN)), 20))
        );
        assert_eq!(raw("-0"), Ok((NumRef::Number(Number::F64(-0.0)), 2)));
        assert_eq!(
            raw("18446744073709551616.0"),
            Ok((NumRef::Number(Number::F64(18446744073709551616.0)), 22))
        );
        assert_eq!(
            raw("018446744073709551616"),
            Err((FailKind::Syntax(ErrorKind::InvalidNumber), 1))
        );
        assert_eq!(raw("1e400"), Err((FailKind::NumberOutOfRange, 4)));
    }

    #[test]
    // Safe code over std alone; std's exact formatting of `f64::MAX` (309 digits) and
    // parsing of 400 nines took most of a minute under Miri.
    #[cfg_attr(
        miri,
        ignore = "safe code only; std's exact float formatting is slow under Miri"
    )]
    fn big_integers_compare_exactly() {
        fn b(text: &str) -> BigInt<'_> {
            BigInt::new(text).expect("a big integer")
        }
        let (nines, minus_nines) = ("9".repeat(400), format!("-{}", "9".repeat(400)));
        let two64 = b("18446744073709551616");
        assert_eq!(two64.cmp_exact(Number::U64(u64::MAX)), Ordering::Greater);
        assert_eq!(
            two64.cmp_exact(Number::F64(18446744073709551616.0)),
            Ordering::Equal
        );
        assert_eq!(
            b("18446744073709551617").cmp_exact(Number::F64(18446744073709551616.0)),
            Ordering::Greater
        );
        assert_eq!(
            two64.cmp_exact(Number::F64(18446744073709551616.5f64.next_up())),
            Ordering::Less
        );
        assert_eq!(two64.cmp_exact(Number::F64(1.5)), Ordering::Greater);
        assert_eq!(two64.cmp_exact(Number::F64(-1e300)), Ordering::Greater);
        assert_eq!(two64.cmp_exact(Number::F64(-0.0)), Ordering::Greater);
        let low = b("-9223372036854775809");
        assert_eq!(low.cmp_exact(Number::I64(i64::MIN)), Ordering::Less);
        assert_eq!(low.cmp_exact(Number::U64(0)), Ordering::Less);
        assert_eq!(
            low.cmp_exact(Number::F64(-9223372036854775808.0)),
            Ordering::Less
        );
        assert_eq!(
            low.cmp_exact(Number::F64(-9223372036854777856.0)),
            Ordering::Greater
        );
        assert_eq!(
            b(&nines).cmp_exact(Number::F64(f64::MAX)),
            Ordering::Greater
        );
        assert_eq!(
            b(&minus_nines).cmp_exact(Number::F64(f64::MIN)),
            Ordering::Less
        );
        assert_eq!(two64.to_f64(), 18446744073709551616.0);
        assert_eq!(b(&nines).to_f64(), f64::INFINITY);
        assert_eq!(BigInt::new("18446744073709551615"), None);
        assert_eq!(BigInt::new("018446744073709551616"), None);
        assert_eq!(BigInt::new("-"), None);
        assert_eq!(BigInt::new("1.5"), None);
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

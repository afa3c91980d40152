//! Exact JSON numbers: canonical spelling, exact comparison, integer rounding, `multipleOf`.

use jitson_jit::ir::{BigInt, Number};
use jitson_kernels::float_format;
use jitson_kernels::float_parse::POW10_F64;
use std::cmp::Ordering;

/// An exact JSON number in canonical spelling.
///
/// Integers that fit `i64` are always `Int`, integers above `i64::MAX` that fit `u64` are
/// always `UInt`, and `Float` holds everything else (a fraction, or an integer beyond the
/// 64-bit ranges). So `1`, `1.0` and `1e0` are all `Int(1)`, and derived equality is JSON
/// number equality.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// An integer in the `i64` range.
    Int(i64),
    /// An integer above `i64::MAX` that fits `u64`.
    UInt(u64),
    /// Any other number.
    Float(f64),
}

/// 2^52 as an `f64`: adding it to a non-negative `f64` below it rounds to an integer.
const TWO_52: f64 = 4_503_599_627_370_496.0;
/// 2^63 as an `f64`.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;
/// 2^64 as an `f64`.
const TWO_64: f64 = 18_446_744_073_709_551_616.0;
impl Num {
    /// The canonical spelling of an `f64`.
    pub fn from_f64(f: f64) -> Num {
        if f.fract() == 0.0 && (-TWO_63..TWO_63).contains(&f) {
            Num::Int(f as i64)
        } else if f.fract() == 0.0 && (0.0..TWO_64).contains(&f) {
            Num::UInt(f as u64)
        } else {
            Num::Float(f)
        }
    }

    /// The same number in canonical spelling (a hand-built `Float(1.0)` becomes `Int(1)`).
    pub fn canonical(self) -> Num {
        match self {
            Num::Int(_) => self,
            Num::UInt(u) => Num::from(u),
            Num::Float(f) => Num::from_f64(f),
        }
    }

    /// The canonical spelling of a `serde_json` number.
    pub fn from_json(n: &serde_json::Number) -> Num {
        if let Some(i) = n.as_i64() {
            Num::Int(i)
        } else if let Some(u) = n.as_u64() {
            Num::UInt(u)
        } else {
            Num::from_f64(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// The number as a `serde_json` number (`None` for a non-finite float).
    pub fn to_json(self) -> Option<serde_json::Number> {
        match self {
            Num::Int(i) => Some(i.into()),
            Num::UInt(u) => Some(u.into()),
            Num::Float(f) => serde_json::Number::from_f64(f),
        }
    }

    /// Whether the number is finite (every number read from JSON is).
    pub fn is_finite(self) -> bool {
        match self {
            Num::Float(f) => f.is_finite(),
            _ => true,
        }
    }

    /// Whether the number has no fractional part (JSON Schema's `integer`); the
    /// interpreter's test ([`Number::is_integer`]).
    pub fn is_integer(self) -> bool {
        Number::from(self).is_integer()
    }

    /// Exact comparison of the two numbers' mathematical values: the interpreter's
    /// comparison ([`Number::cmp_exact`]), so the reference validator and the engine agree
    /// by construction.
    pub fn cmp_exact(self, other: Num) -> Ordering {
        Number::from(self).cmp_exact(Number::from(other))
    }

    /// The smallest integer JSON can spell (an `i64`, `u64` or integral `f64`) that is ≥ `self`.
    pub(crate) fn ceil_int(self) -> Num {
        match self {
            Num::Float(f) if f.fract() != 0.0 => Num::from_f64(f.ceil()),
            _ => self,
        }
    }

    /// The largest integer JSON can spell that is ≤ `self`.
    pub(crate) fn floor_int(self) -> Num {
        match self {
            Num::Float(f) if f.fract() != 0.0 => Num::from_f64(f.floor()),
            _ => self,
        }
    }

    /// The number as `mantissa × 10^exponent` with the sign dropped, digits exact.
    fn decimal(self) -> (u64, i32) {
        match self {
            Num::Int(i) => strip_zeros(i.unsigned_abs(), 0),
            Num::UInt(u) => strip_zeros(u, 0),
            Num::Float(f) if f.is_finite() => {
                // The shortest decimal that round-trips, as serde_json writes it (`123.45`,
                // `0.00003478953860461099`, `1e-7`, `1.5e+300`): at most 17 significant
                // digits, so the mantissa fits a `u64`. Read here, not by the kernels' fused
                // decimal reader: it refuses a fraction of 20 digits or more (10^20 is past
                // `u64`), as the leading zeros of the second example make.
                let mut text = [0u8; float_format::MAX_FLOAT_LEN];
                let len = float_format::format_f64(f.abs(), &mut text);
                let (mut mantissa, mut fraction_digits, mut exp) = (0u64, 0i32, 0i32);
                let mut in_fraction = false;
                let mut bytes = text[..len].iter();
                for &c in bytes.by_ref() {
                    match c {
                        b'0'..=b'9' => {
                            mantissa = mantissa * 10 + u64::from(c - b'0');
                            fraction_digits += i32::from(in_fraction);
                        }
                        b'.' => in_fraction = true,
                        _ => break,
                    }
                }
                // After `e`: an optional sign, then the exponent's digits.
                let rest = bytes.as_slice();
                let (negative, digits) = match rest.split_first() {
                    Some((b'-', digits)) => (true, digits),
                    Some((b'+', digits)) => (false, digits),
                    _ => (false, rest),
                };
                for &d in digits {
                    exp = exp * 10 + i32::from(d - b'0');
                }
                if negative {
                    exp = -exp;
                }
                strip_zeros(mantissa, exp - fraction_digits)
            }
            Num::Float(_) => (0, 0),
        }
    }
}

impl From<Num> for Number {
    /// The interpreter's spelling of the same number: non-negative integers as `U64`,
    /// negative ones as `I64`, the rest as `F64`.
    fn from(n: Num) -> Number {
        match n {
            Num::Int(i) if i < 0 => Number::I64(i),
            Num::Int(i) => Number::U64(i as u64),
            Num::UInt(u) => Number::U64(u),
            Num::Float(f) => Number::F64(f),
        }
    }
}

impl From<i64> for Num {
    fn from(i: i64) -> Num {
        Num::Int(i)
    }
}

impl From<i32> for Num {
    fn from(i: i32) -> Num {
        Num::Int(i.into())
    }
}

impl From<u32> for Num {
    fn from(u: u32) -> Num {
        Num::Int(u.into())
    }
}

impl From<u64> for Num {
    fn from(u: u64) -> Num {
        i64::try_from(u).map_or(Num::UInt(u), Num::Int)
    }
}

impl From<f64> for Num {
    fn from(f: f64) -> Num {
        Num::from_f64(f)
    }
}

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            Num::UInt(u) => write!(f, "{u}"),
            Num::Float(x) => write!(f, "{x}"),
        }
    }
}

/// Whether `x` is an integer multiple of `divisor`, decided exactly on the two numbers'
/// shortest round-trip decimal spellings (so `0.0075` is a multiple of `0.0001`, and a huge
/// `x` whose quotient overflows `f64` is decided by arithmetic, not by `inf`).
pub(crate) fn is_multiple_of(x: Num, divisor: Num) -> bool {
    Divisor::new(divisor).divides(x)
}

/// A `multipleOf` divisor, spelled once as its shortest round-trip decimal `b × 10^q`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Divisor {
    /// `b`, without trailing zeros.
    mantissa: u64,
    /// `q`.
    exp: i32,
}

impl Divisor {
    /// The divisor `divisor`.
    pub(crate) fn new(divisor: Num) -> Divisor {
        let (mantissa, exp) = divisor.decimal();
        Divisor { mantissa, exp }
    }

    /// Whether `x` is an integer multiple of this divisor ([`is_multiple_of`]).
    pub(crate) fn divides(&self, x: Num) -> bool {
        let decimal = match x {
            Num::Float(f) => self.short_decimal(f.abs()).unwrap_or_else(|| x.decimal()),
            _ => x.decimal(),
        };
        self.divides_decimal(decimal)
    }

    /// Whether `a × 10^p` is an integer multiple of this divisor.
    fn divides_decimal(&self, (a, p): (u64, i32)) -> bool {
        let (b, q) = (self.mantissa, self.exp);
        if a == 0 {
            return true;
        }
        if b == 0 {
            return false;
        }
        if p >= q {
            // b | a·10^(p−q): at once for a power of ten (`0.01`), in 64 bits when the
            // product fits.
            if b == 1 {
                return true;
            }
            let scaled = u32::try_from(p - q)
                .ok()
                .and_then(|e| 10u64.checked_pow(e))
                .and_then(|s| a.checked_mul(s));
            if let Some(scaled) = scaled {
                return scaled.is_multiple_of(b);
            }
            let b = u128::from(b);
            ((u128::from(a) % b) * pow10_mod(p - q, b)).is_multiple_of(b)
        } else {
            // b·10^(q−p) | a
            let scale = 10u128.checked_pow((q - p) as u32);
            match scale.and_then(|s| s.checked_mul(u128::from(b))) {
                Some(d) => u128::from(a).is_multiple_of(d),
                None => false,
            }
        }
    }

    /// The shortest round-trip decimal of `f` (finite, not negative) without formatting
    /// it, when it has at most the divisor's fraction digits `k` (at most 22; a multiple has
    /// no more) and at most 15 significant digits (prices under `0.01`): `m`, the
    /// nearest integer to `f × 10^k`, spells `f` when `m / 10^k` (both exact `f64`s, one
    /// correctly rounded division) gives `f` back, and then no other decimal of at most 15
    /// digits does (`DBL_DIG`), so none shorter. `None` sends the caller to the formatted
    /// spelling.
    fn short_decimal(&self, f: f64) -> Option<(u64, i32)> {
        let k = usize::try_from(-self.exp).unwrap_or(0);
        let scale = *POW10_F64.get(k)?;
        // Rounded to an integer by the addition (exact below 2^52; no libm call): any
        // nearby integer will do, as the division checks it.
        let m = (f * scale + TWO_52) - TWO_52;
        if m >= 1e15 || m / scale != f {
            return None;
        }
        Some(strip_zeros(m as u64, -(k as i32)))
    }
}

/// Whether the number `n` the engine read is an integer multiple of `divisor`, as the
/// reference validator decides it for the same number as JSON ([`is_multiple_of`] of its
/// canonical spelling); an infinite float (read with `FloatOverflow::Infinity`) is no JSON
/// number, so no multiple of anything.
pub(crate) fn number_is_multiple_of(n: Number, divisor: &Divisor) -> bool {
    let x = match n {
        Number::I64(i) => Num::Int(i),
        Number::U64(u) => Num::from(u),
        Number::F64(f) if f.is_finite() => Num::from_f64(f),
        Number::F64(_) => return false,
    };
    divisor.divides(x)
}

/// Whether the big integer `x` (read with
/// [`BigInts::Raw`](jitson_jit::ir::BigInts::Raw)) is an integer multiple of `divisor`,
/// decided exactly by long division over its digits, whatever the divisor: `divisor` is
/// taken as its shortest round-trip decimal spelling `b × 10^q` (as [`is_multiple_of`]
/// does), so `x` must end in `q` zeros with the rest divisible by `b` (`q ≥ 0`), or
/// `x × 10^-q` be divisible by `b` (`q < 0`). This is exact where the `f64` policy decides
/// on the nearest `f64` of `x`.
pub(crate) fn is_big_multiple_of(x: BigInt<'_>, divisor: &Divisor) -> bool {
    let (b, q) = (divisor.mantissa, divisor.exp);
    if b == 0 {
        return false;
    }
    let digits = x.magnitude().as_bytes();
    let b = u128::from(b);
    if q >= 0 {
        let q = q as usize;
        let Some(split) = digits.len().checked_sub(q) else {
            return false;
        };
        let (head, tail) = digits.split_at(split);
        tail.iter().all(|&d| d == b'0') && digits_mod(head, b) == 0
    } else {
        (digits_mod(digits, b) * pow10_mod(-q, b)).is_multiple_of(b)
    }
}

/// The decimal `digits` modulo `m` (0 < m < 2^64), by long division.
fn digits_mod(digits: &[u8], m: u128) -> u128 {
    digits
        .iter()
        .fold(0, |r, &d| (r * 10 + u128::from(d - b'0')) % m)
}

/// 10^e mod m, by square and multiply (m < 2^64, so products fit u128).
fn pow10_mod(mut e: i32, m: u128) -> u128 {
    let mut result = 1 % m;
    let mut base = 10 % m;
    while e > 0 {
        if e & 1 == 1 {
            result = result * base % m;
        }
        base = base * base % m;
        e >>= 1;
    }
    result
}

/// Moves trailing decimal zeros of the mantissa into the exponent.
fn strip_zeros(mut mantissa: u64, mut exp: i32) -> (u64, i32) {
    while mantissa != 0 && mantissa.is_multiple_of(10) {
        mantissa /= 10;
        exp += 1;
    }
    (mantissa, exp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_spelling() {
        assert_eq!(Num::from_f64(1.0), Num::Int(1));
        assert_eq!(Num::from_f64(-0.0), Num::Int(0));
        assert_eq!(Num::from_f64(TWO_63), Num::UInt(1 << 63));
        assert_eq!(Num::from_f64(TWO_64), Num::Float(TWO_64));
        assert_eq!(Num::from(u64::MAX), Num::UInt(u64::MAX));
        assert_eq!(Num::from(5u64), Num::Int(5));
    }

    #[test]
    fn exact_comparison() {
        let big = Num::Int(9_007_199_254_740_993); // 2^53 + 1: no f64 spells it
        assert_eq!(
            big.cmp_exact(Num::Float(9_007_199_254_740_992.5)),
            Ordering::Greater
        );
        assert_eq!(Num::Int(3).cmp_exact(Num::Float(3.5)), Ordering::Less);
        assert_eq!(Num::Int(-3).cmp_exact(Num::Float(-3.5)), Ordering::Greater);
        assert_eq!(
            Num::UInt(u64::MAX).cmp_exact(Num::Float(TWO_64)),
            Ordering::Less
        );
        assert_eq!(
            Num::Float(1e300).cmp_exact(Num::Int(i64::MAX)),
            Ordering::Greater
        );
    }

    #[test]
    fn integer_rounding() {
        assert_eq!(Num::Float(1.5).ceil_int(), Num::Int(2));
        assert_eq!(Num::Float(-1.5).floor_int(), Num::Int(-2));
        assert_eq!(Num::Float(1e300).ceil_int(), Num::Float(1e300));
    }

    /// A float's decimal as `{:e}` spells it (std's shortest round-trip digits).
    fn decimal_by_std(f: f64) -> (u64, i32) {
        let text = format!("{:e}", f.abs());
        let (digits, exp) = text.split_once('e').unwrap_or((&text, "0"));
        let exp: i32 = exp.parse().expect("exponent");
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let mantissa = format!("{int}{frac}").parse().expect("digits");
        strip_zeros(mantissa, exp - frac.len() as i32)
    }

    /// A xorshift64 stream from `seed` (not zero).
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    fn digit_count(mantissa: u64) -> u32 {
        mantissa.checked_ilog10().map_or(1, |l| l + 1)
    }

    #[test]
    fn float_decimals_are_shortest_round_trip_digits() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut floats: Vec<f64> = (0..300_000).map(|_| f64::from_bits(next())).collect();
        floats.extend((0..100_000).map(|i| i as f64 / 100.0 - 500.0));
        floats.extend((0..2_000).map(|i| 10f64.powi(i - 1_000)));
        let special = [
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            0.1,
            0.3,
            1e21,
            1e-7,
            123.45,
        ];
        floats.extend(special);
        for f in floats.into_iter().filter(|f| f.is_finite()) {
            // As many digits as std's, and back to `f`; where the exact value lies halfway
            // between two shortest spellings (1658206780088562.25) the two pick different
            // ones (zmij `…562.2`, as serde_json writes it; std `…562.3`).
            let (mantissa, exp) = Num::Float(f).decimal();
            let (std_mantissa, _) = decimal_by_std(f);
            assert_eq!(digit_count(mantissa), digit_count(std_mantissa), "{f:e}");
            let back: f64 = format!("{mantissa}e{exp}").parse().expect("a float");
            assert_eq!(back, f.abs(), "{f:e}");
        }
        assert_eq!(
            // Exactly 1658206780088562.25.
            Num::Float(1658206780088562.2).decimal(),
            (16582067800885622, -1)
        );
        assert_eq!(Num::Float(f64::INFINITY).decimal(), (0, 0));
    }

    #[test]
    fn short_decimals_are_the_formatted_spelling() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let divisors = [0.01, 0.5, 0.25, 0.001, 1e-15, 1e-16, 3.0, 1e20, 0.1];
        let mut short = 0;
        for divisor in divisors.map(|d| Divisor::new(Num::from_f64(d))) {
            for _ in 0..50_000 {
                let r = next();
                let f = match r % 4 {
                    0 => ((r >> 8) % 10_000_000) as f64 / 100.0,
                    1 => ((r >> 20) % 1_000_000_000_000) as f64 / 10f64.powi((r % 17) as i32),
                    2 => f64::from_bits(r >> 2),
                    _ => (r >> 40) as f64 * 0.001,
                };
                if !f.is_finite() {
                    continue;
                }
                let x = Num::from_f64(f);
                let spelled = divisor.divides_decimal(x.decimal());
                assert_eq!(divisor.divides(x), spelled, "{f:e} by {divisor:?}");
                if let Some(decimal) = divisor.short_decimal(f) {
                    assert_eq!(decimal, Num::Float(f).decimal(), "{f:e} by {divisor:?}");
                    short += 1;
                }
            }
        }
        // The inputs reach the short path often (cents under 0.01, integers under 3).
        assert!(short > 50_000, "{short}");
    }

    #[test]
    fn multiples() {
        assert!(is_multiple_of(Num::Float(0.0075), Num::Float(0.0001)));
        assert!(!is_multiple_of(Num::Float(0.00751), Num::Float(0.0001)));
        assert!(is_multiple_of(Num::Float(4.5), Num::Float(1.5)));
        assert!(!is_multiple_of(Num::Int(35), Num::Float(1.5)));
        assert!(!is_multiple_of(Num::Float(1e308), Num::Float(0.123456789)));
        assert!(is_multiple_of(Num::Int(12391239123), Num::Float(1e-8)));
        assert!(is_multiple_of(Num::Int(0), Num::Float(1.5)));
        assert!(is_multiple_of(Num::Int(i64::MIN), Num::Int(2)));
        assert!(!is_multiple_of(Num::Int(7), Num::Int(2)));
        assert!(is_multiple_of(Num::Float(1e300), Num::Int(1000)));
        assert!(!is_multiple_of(Num::Int(1), Num::Float(1e-30 * 3.0)));
    }

    fn big_multiple(x: BigInt<'_>, divisor: Num) -> bool {
        is_big_multiple_of(x, &Divisor::new(divisor))
    }

    #[test]
    fn big_multiples() {
        let big = |t| BigInt::new(t).expect("a big integer");
        let two64 = big("18446744073709551616");
        assert!(big_multiple(two64, Num::Int(2)));
        assert!(big_multiple(two64, Num::UInt(1 << 63)));
        // The divisor is its shortest decimal spelling, 18446744073709552000.
        assert!(!big_multiple(two64, Num::Float(18446744073709551616.0)));
        assert!(big_multiple(
            big("36893488147419104000"),
            Num::Float(18446744073709551616.0)
        ));
        assert!(!big_multiple(two64, Num::Int(3)));
        assert!(!big_multiple(two64, Num::Int(10)));
        assert!(big_multiple(two64, Num::Float(0.5)));
        assert!(big_multiple(two64, Num::Float(0.25)));
        // 2^64 = 3 × 6148914691236517205 + 1.
        assert!(!big_multiple(two64, Num::Float(0.3)));
        assert!(big_multiple(big("18446744073709551618"), Num::Float(0.3)));
        assert!(big_multiple(big("-18446744073709551615"), Num::Int(5)));
        let zeros = format!("7{}", "0".repeat(99));
        assert!(big_multiple(big(&zeros), Num::Float(1e99)));
        assert!(big_multiple(big(&zeros), Num::Int(7)));
        assert!(!big_multiple(big(&zeros), Num::Float(1e100)));
        assert!(!big_multiple(big(&zeros), Num::Float(1e300)));
        assert!(!big_multiple(big(&zeros), Num::Int(0)));
    }
}

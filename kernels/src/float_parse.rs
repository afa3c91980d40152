//! Correctly rounded float parsing: one JSON number token to the nearest `f64` (ties to even).
//!
//! Both twins run one fused pass over the token that checks the grammar and reads it as a
//! decimal `±w · 10^q` with an exact 64-bit `w`: the digit runs are converted in blocks (SWAR
//! words for the integer part in both twins, and for the fraction in the scalar twin; the AVX2
//! twin converts the fraction — 15 or more digits in typical data — in a 16-byte SSE register
//! with multiply-adds, shared with [`crate::int_parse`]). The AVX2 twin first tries the shape
//! real documents hold (`-?d{1,8}.d{1,16}`, at most 19 digits: canada.json's coordinates) from
//! one 32-byte register's digit mask, which places the dot and both ends at once, and gives
//! the same decimal. The decimal then becomes an `f64` by, in order:
//! 1. Clinger's fast path: `w <= 2^53` and `|q| <= 22` make `w` and `10^|q|` exact `f64`s, so
//!    one IEEE multiply or divide is correctly rounded;
//! 2. the Eisel-Lemire algorithm (`float_parse/lemire.rs`), which decides all but a
//!    vanishing fraction of the rest from a 128-bit truncated power of five;
//! 3. otherwise — digits beyond 64 bits of mantissa, a product too close to a halfway point, or
//!    a token the fused pass does not accept — the reference path: [`scan_number`] validates
//!    the token (and reports grammar errors), then `core`'s `str::parse::<f64>` (correctly
//!    rounded; it accepts a superset of JSON's grammar, so validating first makes it exact).
//!
//! The fast tiers give the same answer as `str::parse` by construction (both are correct
//! rounding), and the test suite compares them on millions of random tokens. Both twins share
//! every tier but the digit conversion, so they agree on every input.
//!
//! The fused pass is shared with [`crate::number_parse`], which reads any number token
//! (integers included) to its value in one pass.
//!
//! Underflow is not an error (`1e-400` is `0.0`, `-1e-400` is `-0.0`); a finite literal beyond
//! `f64::MAX` after rounding is [`ErrorKind::NumberOutOfRange`] at `pos`, or `±inf` with
//! [`FloatOverflow::Infinity`]. Exponent digits saturate at 10^17, which is exact for any
//! input shorter than 10^17 bytes.

mod lemire;

use crate::error::{ErrorKind, KernelError};
use crate::number::{NumberToken, digit_run_value, scan_number};

/// What a finite literal too large for f64 (`1e400`) becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FloatOverflow {
    /// An error ([`crate::ErrorKind::NumberOutOfRange`]).
    #[default]
    Error,
    /// Positive or negative infinity.
    Infinity,
}

/// Parses the JSON number at `pos` as the nearest f64; returns it and the index past the token.
#[inline]
pub fn parse_f64(
    buf: &[u8],
    pos: usize,
    overflow: FloatOverflow,
) -> Result<(f64, usize), KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::parse_f64(buf, pos, overflow) };
    }
    scalar::parse_f64(buf, pos, overflow)
}

/// A JSON number read by the fused pass: `±mantissa · 10^exponent`, and where it ends.
pub(crate) struct Decimal {
    /// True when the token starts with `-`.
    pub(crate) negative: bool,
    /// The token's digits (integer part, then fraction) as one exact integer.
    pub(crate) mantissa: u64,
    /// The power of ten the mantissa is scaled by.
    pub(crate) exponent: i64,
    /// True when the token has neither fraction nor exponent (the mantissa is its magnitude).
    pub(crate) integer: bool,
    /// Index one past the token's last byte.
    pub(crate) end: usize,
}

/// Largest exponent value kept exactly; bigger ones saturate (see the module notes).
const EXPONENT_LIMIT: i64 = 100_000_000_000_000_000;

/// The fused pass: reads the token at `pos` as a [`Decimal`]. The integer part (usually short)
/// is read with SWAR words; `fraction_run` gives the value and end of the fraction's digit run
/// (each twin brings its own). `None` for anything it does not take (including every grammar
/// error, and mantissas beyond 64 bits).
#[inline(always)]
pub(crate) fn read_decimal(
    buf: &[u8],
    pos: usize,
    fraction_run: impl Fn(&[u8], usize) -> Option<(u64, usize)>,
) -> Option<Decimal> {
    let negative = buf.get(pos) == Some(&b'-');
    let start = pos + negative as usize;
    let (mut mantissa, mut i) = digit_run_value(buf, start)?;
    let int_len = i - start;
    if int_len == 0 || (int_len > 1 && buf[start] == b'0') {
        return None;
    }
    let int_end = i;
    let mut exponent = 0i64;
    if buf.get(i) == Some(&b'.') {
        let (fraction, end) = fraction_run(buf, i + 1)?;
        let frac_len = end - (i + 1);
        if frac_len == 0 {
            return None;
        }
        mantissa = mantissa
            .checked_mul(*crate::number::POW10_U64.get(frac_len)?)?
            .checked_add(fraction)?;
        exponent = -(frac_len as i64);
        i = end;
    }
    if let Some(b'e' | b'E') = buf.get(i) {
        i += 1;
        let exp_negative = buf.get(i) == Some(&b'-');
        i += matches!(buf.get(i), Some(b'+' | b'-')) as usize;
        let digits_start = i;
        let mut value = 0i64;
        while let Some(&d) = buf.get(i).filter(|d| d.is_ascii_digit()) {
            value = (10 * value + i64::from(d - b'0')).min(EXPONENT_LIMIT);
            i += 1;
        }
        if i == digits_start {
            return None;
        }
        exponent = if exp_negative {
            exponent.saturating_sub(value)
        } else {
            exponent.saturating_add(value)
        };
    }
    Some(Decimal {
        negative,
        mantissa,
        exponent,
        integer: i == int_end,
        end: i,
    })
}

/// The powers of ten `10^0 ..= 10^22`, each exact as an `f64` (Clinger's fast path; any
/// caller dividing an integer below 2^53 by one gets a correctly rounded quotient).
pub const POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The correctly rounded `f64` of a decimal (infinite when too large), or `None` when the fast
/// methods cannot decide it.
#[inline(always)]
pub(crate) fn decimal_to_f64(d: &Decimal) -> Option<f64> {
    let magnitude = if d.mantissa <= 1 << 53 && (-22..=22).contains(&d.exponent) {
        // Clinger: both operands exact, so the one rounding is the correct one.
        let m = d.mantissa as f64;
        if d.exponent < 0 {
            m / POW10_F64[d.exponent.unsigned_abs() as usize]
        } else {
            m * POW10_F64[d.exponent as usize]
        }
    } else {
        f64::from_bits(lemire::compute_float(d.exponent, d.mantissa)?)
    };
    Some(if d.negative { -magnitude } else { magnitude })
}

/// Completes a parse from the fused pass's result, or takes the reference path.
#[inline(always)]
fn finish(
    buf: &[u8],
    pos: usize,
    overflow: FloatOverflow,
    decimal: Option<Decimal>,
) -> Result<(f64, usize), KernelError> {
    let (value, end) = match decimal.and_then(|d| Some((decimal_to_f64(&d)?, d.end))) {
        Some(done) => done,
        None => reference(buf, pos)?,
    };
    if value.is_infinite() && overflow == FloatOverflow::Error {
        return Err(KernelError::new(ErrorKind::NumberOutOfRange, pos));
    }
    Ok((value, end))
}

/// The reference path: [`scan_number`] for the grammar, then `str::parse::<f64>` on the
/// validated token.
#[cold]
#[inline(never)]
fn reference(buf: &[u8], pos: usize) -> Result<(f64, usize), KernelError> {
    let token = scan_number(buf, pos)?;
    Ok((token_f64(buf, &token), token.end))
}

/// The nearest `f64` of a token [`scan_number`] accepted (infinite beyond the range of
/// `f64`), by [`nearest`].
pub(crate) fn token_f64(buf: &[u8], token: &NumberToken) -> f64 {
    nearest(&buf[token.start..token.end]).expect("str::parse accepts every short form")
}

/// Significant digits [`short_form`] keeps: more than the 767 that can decide how a decimal
/// rounds to an `f64` (or `f32`), so a nonzero tail past them acts only as a sticky digit.
const KEPT_DIGITS: usize = 800;

/// Decimal exponents (of the leading significant digit) beyond which every value is infinite
/// or zero in `f64` and `f32` alike (`f64::MAX` < 10^309, half the least subnormal > 10^-325).
const EXPONENT_BOUND: i64 = 400;

/// Bytes of the longest short form: sign, kept digits, sticky digit, `e`, signed exponent.
const SHORT_FORM_MAX: usize = 1 + KEPT_DIGITS + 1 + 1 + 8;

/// The value of the JSON number `token` (a whole valid token: `-?int(.frac)?(e±exp)?`) rounded
/// to the nearest `F` (`f64`, `f32`), ties to even, infinite beyond `F`'s range; `None` if
/// `token` is not a valid number token.
///
/// `str::parse` alone is not enough: `core`'s reader stops accumulating exponent digits
/// past 65 536, so a token of a million digits whose exponent cancels them
/// (`1000…000e-1000000`, the value 1) read as infinity. The token is rewritten first into
/// a short text of the same value as far as rounding can tell (at most 801 significant
/// digits, the last a sticky `1` when more were cut; the exponent computed exactly), which
/// `str::parse` reads exactly.
pub fn nearest<F: std::str::FromStr>(token: &[u8]) -> Option<F> {
    let mut short = [0u8; SHORT_FORM_MAX];
    let len = short_form(token, &mut short)?;
    std::str::from_utf8(&short[..len]).ok()?.parse().ok()
}

/// Writes to `out` a decimal that rounds as `token` does to every binary float format up to
/// `f64`, with at most [`KEPT_DIGITS`] + 1 significant digits and an exponent within a few
/// thousand; its length, or `None` if `token` is not a valid number token.
///
/// The significant digits are the token's (integer and fraction parts, without leading and
/// trailing zeros) and the exponent is computed exactly (exponent digits saturate at
/// [`EXPONENT_LIMIT`], exact for any shorter input). Past [`EXPONENT_BOUND`] the value is
/// `1e999` or `0` (with the token's sign). More than [`KEPT_DIGITS`] digits keep the first
/// ones and a final `1`: a halfway point between two floats has at most 767 significant
/// digits, so none lies strictly between two decimals that share their first 800 digits and
/// both have a nonzero tail, and the two round alike.
fn short_form(token: &[u8], out: &mut [u8; SHORT_FORM_MAX]) -> Option<usize> {
    let (negative, body) = match token.split_first()? {
        (b'-', rest) => (true, rest),
        _ => (false, token),
    };
    let mantissa_len = (body.iter()).position(|&b| matches!(b, b'e' | b'E'));
    let (mantissa, exponent_part) = body.split_at(mantissa_len.unwrap_or(body.len()));
    let point = mantissa.iter().position(|&b| b == b'.');
    let int_len = point.unwrap_or(mantissa.len());
    let digits = || mantissa.iter().copied().filter(|&b| b != b'.');
    let valid_digits = |d: &[u8]| !d.is_empty() && d.iter().all(u8::is_ascii_digit);
    let fraction = point.map(|p| &mantissa[p + 1..]);
    let leading_zero = mantissa.first() == Some(&b'0') && int_len > 1;
    if !valid_digits(&mantissa[..int_len]) || leading_zero || !fraction.is_none_or(valid_digits) {
        return None;
    }
    let exponent = match exponent_part.split_first() {
        None => 0,
        Some((_, rest)) => {
            let (sign, exp_digits) = match rest.split_first()? {
                (b'-', d) => (-1, d),
                (b'+', d) => (1, d),
                _ => (1, rest),
            };
            if !valid_digits(exp_digits) {
                return None;
            }
            sign * (exp_digits.iter()).fold(0i64, |v, &d| {
                (10 * v + i64::from(d - b'0')).min(EXPONENT_LIMIT)
            })
        }
    };
    let mut text = ShortForm { out, len: 0 };
    if negative {
        text.push(b'-');
    }
    let Some(first) = digits().position(|d| d != b'0') else {
        text.push(b'0');
        return Some(text.len);
    };
    let total = int_len + fraction.map_or(0, <[u8]>::len);
    let trailing_zeros = digits()
        .rev()
        .position(|d| d != b'0')
        .expect("a digit is nonzero");
    let last = total - 1 - trailing_zeros;
    // The value is D × 10^(leading - (digits of D) + 1), D the significant digits:
    // `leading` is the decimal exponent of the first of them.
    let leading = (int_len as i64 - first as i64 - 1).saturating_add(exponent);
    if leading > EXPONENT_BOUND {
        b"1e999".iter().for_each(|&b| text.push(b));
        return Some(text.len);
    }
    if leading < -EXPONENT_BOUND {
        text.push(b'0');
        return Some(text.len);
    }
    let significant = last + 1 - first;
    let kept = significant.min(KEPT_DIGITS);
    digits().skip(first).take(kept).for_each(|d| text.push(d));
    let mut written = kept;
    if significant > KEPT_DIGITS {
        text.push(b'1');
        written += 1;
    }
    text.push(b'e');
    let unit = leading - (written as i64 - 1);
    if unit < 0 {
        text.push(b'-');
    }
    let magnitude = unit.unsigned_abs();
    let width = magnitude.checked_ilog10().unwrap_or(0) + 1;
    for place in (0..width).rev() {
        text.push(b'0' + (magnitude / 10u64.pow(place) % 10) as u8);
    }
    Some(text.len)
}

/// The text [`short_form`] writes, and how much of it is written.
struct ShortForm<'a> {
    out: &'a mut [u8; SHORT_FORM_MAX],
    len: usize,
}

impl ShortForm<'_> {
    /// Appends `b` (the caller stays within [`SHORT_FORM_MAX`]).
    fn push(&mut self, b: u8) {
        self.out[self.len] = b;
        self.len += 1;
    }
}

/// The portable twin: every digit run converted eight digits per SWAR word.
pub mod scalar {
    use super::{FloatOverflow, digit_run_value, finish, read_decimal};
    use crate::error::KernelError;

    /// See [`super::parse_f64`].
    pub fn parse_f64(
        buf: &[u8],
        pos: usize,
        overflow: FloatOverflow,
    ) -> Result<(f64, usize), KernelError> {
        let decimal = read_decimal(buf, pos, digit_run_value);
        finish(buf, pos, overflow, decimal)
    }
}

/// The AVX2 twin: the fraction converted sixteen digits per SSE register (when 16 bytes are in
/// bounds), with [`crate::int_parse`]'s conversion.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    use super::{Decimal, FloatOverflow, digit_run_value, finish, read_decimal};
    use crate::error::KernelError;
    use crate::int_parse::avx2::{digit_prefix_value, leading_digits_value};
    use crate::number::{POW10_U64, accumulate_digits};

    /// See [`super::parse_f64`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn parse_f64(
        buf: &[u8],
        pos: usize,
        overflow: FloatOverflow,
    ) -> Result<(f64, usize), KernelError> {
        let decimal = fused_decimal(buf, pos);
        finish(buf, pos, overflow, decimal)
    }

    /// The fused pass of this twin: [`windowed_decimal`] for the common shape, else
    /// [`read_decimal`] with the fraction converted sixteen digits per SSE register.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub(crate) fn fused_decimal(buf: &[u8], pos: usize) -> Option<Decimal> {
        windowed_decimal(buf, pos).or_else(|| read_decimal(buf, pos, |buf, i| fraction_run(buf, i)))
    }

    /// The token at `pos` when it is an integer of up to 16 digits or a decimal
    /// `-?(0|[1-9][0-9]{0,7})\.[0-9]{1,16}` of at most 19 digits, not followed by an
    /// exponent, and the 32 bytes from its first digit are in bounds: read from one AVX2
    /// register's digit mask (where the integer part, the dot and the fraction end) and one
    /// SSE conversion per digit run, with no bounds check or byte test per part. `None` for
    /// anything else, which [`read_decimal`] reads; on what it takes it gives exactly
    /// `read_decimal`'s answer (19 digits never overflow the mantissa).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn windowed_decimal(buf: &[u8], pos: usize) -> Option<Decimal> {
        let negative = buf.get(pos) == Some(&b'-');
        let start = pos + negative as usize;
        let window = buf.get(start..)?.first_chunk::<32>()?;
        // SAFETY: `window` is 32 readable bytes; `loadu` has no alignment requirement.
        let bytes = unsafe { _mm256_loadu_si256(window.as_ptr().cast()) };
        let digits = _mm256_sub_epi8(bytes, _mm256_set1_epi8(b'0' as i8));
        let is_digit = _mm256_cmpeq_epi8(_mm256_min_epu8(digits, _mm256_set1_epi8(9)), digits);
        let others = !(_mm256_movemask_epi8(is_digit) as u32);
        let int_len = others.trailing_zeros() as usize;
        // One to sixteen integer digits (so `int_len` indexes the window), no leading zero.
        if !(1..=16).contains(&int_len) || (int_len > 1 && window[0] == b'0') {
            return None;
        }
        // The digit offsets already computed: no second load or mask for either run.
        let whole = leading_digits_value(_mm256_castsi256_si128(digits), int_len);
        let (mantissa, exponent, end) = match window[int_len] {
            b'.' if int_len <= 8 => {
                let fraction_at = int_len + 1;
                // Zero when no byte after the dot is a non-digit: then 32 - fraction_at,
                // too long.
                let fraction_len = (others >> fraction_at).trailing_zeros() as usize;
                let end = fraction_at + fraction_len;
                if fraction_len == 0 || fraction_len > 16 || int_len + fraction_len > 19 {
                    return None;
                }
                // `fraction_at <= 9`, so sixteen bytes from it lie inside the window, and
                // so does the byte after the run (`end <= 25`).
                let fraction: &[u8; 16] = window[fraction_at..].first_chunk()?;
                // SAFETY: `fraction` is 16 readable bytes; `loadu` has no alignment
                // requirement.
                let fraction = unsafe { _mm_loadu_si128(fraction.as_ptr().cast()) };
                let fraction = _mm_sub_epi8(fraction, _mm_set1_epi8(b'0' as i8));
                let fraction = leading_digits_value(fraction, fraction_len);
                if window[end] | 0x20 == b'e' {
                    return None;
                }
                let mantissa = whole * POW10_U64[fraction_len] + fraction;
                (mantissa, -(fraction_len as i64), end)
            }
            b'.' | b'e' | b'E' => return None,
            _ => (whole, 0, int_len),
        };
        Some(Decimal {
            negative,
            mantissa,
            exponent,
            integer: exponent == 0,
            end: start + end,
        })
    }

    /// The value and end of the digit run at `i` (`None` beyond 64 bits).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub(crate) fn fraction_run(buf: &[u8], i: usize) -> Option<(u64, usize)> {
        let Some(block) = buf.get(i..).and_then(|rest| rest.first_chunk::<16>()) else {
            return digit_run_value(buf, i);
        };
        let (value, len) = digit_prefix_value(block);
        if len < 16 {
            return Some((value, i + len));
        }
        accumulate_digits(buf, i + 16, value)
    }
}

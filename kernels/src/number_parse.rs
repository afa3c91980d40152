//! One JSON number token to its value in one pass: an integer token as `u64` or `i64` (or
//! "beyond 64 bits"), any other token as the nearest `f64`, and the index past the token.
//!
//! The common case reads the token once: [`crate::float_parse`]'s fused pass checks the grammar
//! and reads sign, mantissa and exponent together, then an integer token's mantissa is its
//! magnitude and any other token goes through the float parser's fast tiers (Clinger,
//! Eisel-Lemire). Only what the fused pass does not take — a grammar error, a digit run beyond
//! 64 bits, a product Eisel-Lemire cannot decide — takes the cold reference path, which scans the
//! token with [`scan_number`] (its errors are this kernel's errors) and reads it exactly. Both
//! twins share every step but the float parser's fraction conversion, so they agree on every
//! input.
//!
//! The answers are exactly those of the two-step reading (`scan_number`, then
//! [`crate::int_parse`] for an integer token or [`crate::float_parse`] for any other).

use crate::error::KernelError;
use crate::float_parse::{Decimal, decimal_to_f64, read_decimal, token_f64};
use crate::number::{
    POW10_U64, digits_value, leading_digit_lanes, leading_digits_value, load_word, scan_number,
};

/// The value of one number token (see [`parse_number`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumberValue {
    /// An integer token without `-`, of at most `u64::MAX`.
    U64(u64),
    /// An integer token with `-`, of at least `i64::MIN` (`-0` is `I64(0)`).
    I64(i64),
    /// A token with a fraction or an exponent: the nearest `f64` (ties to even); infinite when
    /// beyond the range of `f64`, `±0.0` when below it.
    F64(f64),
    /// An integer token outside the range of its variant above (a `u64` without `-`, an `i64`
    /// with it); its text is the caller's to read.
    BigInt,
}

/// Reads the JSON number token at `pos`: its value and the index one past it. What follows
/// the token is not examined beyond deciding where it ends.
///
/// Errors: exactly [`scan_number`]'s (a grammar error at the offending byte, or
/// `UnexpectedEnd` at `buf.len()`); a value out of range is not an error here
/// ([`NumberValue::BigInt`], an infinite [`NumberValue::F64`]).
// Not inlined: inlined into a caller's loop it measured 25 % slower (kernel bench
// `float_parse/canada.json/parse_number`, 2.8 ms against 2.2 ms).
#[inline(never)]
pub fn parse_number(buf: &[u8], pos: usize) -> Result<(NumberValue, usize), KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::parse_number(buf, pos) };
    }
    scalar::parse_number(buf, pos)
}

/// [`parse_number`] for a token expected to be an integer (a schema's `integer`): the same
/// answers and errors, an integer of up to 15 digits read without the fused pass.
///
/// `parse_number` spends about three times the integer parser's time on integer tokens (its
/// frame serves the fraction too); answering short integers first takes about 22 % off
/// citm_catalog's integers but adds about 20 % to canada's floats (kernel bench `numbers`,
/// `int_parse/*/parse_{number,integer}`, `float_parse/canada.json/parse_{number,integer}`),
/// so only callers expecting integers take this entry.
#[inline(never)]
pub fn parse_integer(buf: &[u8], pos: usize) -> Result<(NumberValue, usize), KernelError> {
    match short_integer(buf, pos) {
        Some(done) => Ok(done),
        None => parse_number(buf, pos),
    }
}

/// The value and end of the integer token at `pos` when it is `-?(0|[1-9][0-9]{0,14})`,
/// followed by a byte that is none of digit, `.`, `e`, `E`, and read from whole words (8
/// bytes from the first digit on, 16 for more than 7 digits); `None` for anything else,
/// which the full reading takes.
#[inline(always)]
fn short_integer(buf: &[u8], pos: usize) -> Option<(NumberValue, usize)> {
    let negative = buf.get(pos) == Some(&b'-');
    let start = pos + negative as usize;
    let low = load_word(buf, start)?;
    let n = leading_digit_lanes(low);
    let (magnitude, len, next) = if n < 8 {
        (leading_digits_value(low, n), n, (low >> (8 * n)) as u8)
    } else {
        let high = load_word(buf, start + 8)?;
        let m = leading_digit_lanes(high);
        if m == 8 {
            return None;
        }
        let value = leading_digits_value(low, 8) * POW10_U64[m] + leading_digits_value(high, m);
        (value, 8 + m, (high >> (8 * m)) as u8)
    };
    // No digit, a leading zero, or a fraction or exponent next: the full reading.
    if len == 0 || (len > 1 && low as u8 == b'0') || matches!(next, b'.' | b'e' | b'E') {
        return None;
    }
    Some((integer_value(negative, magnitude), start + len))
}

/// The value of an integer token of sign `negative` and magnitude `magnitude`.
#[inline(always)]
fn integer_value(negative: bool, magnitude: u64) -> NumberValue {
    if !negative {
        NumberValue::U64(magnitude)
    } else if magnitude <= 1 << 63 {
        // 2^63 wraps to i64::MIN, which negates to itself: exactly the value wanted.
        NumberValue::I64((magnitude as i64).wrapping_neg())
    } else {
        NumberValue::BigInt
    }
}

/// Completes a reading from the fused pass's result, or takes the reference path.
#[inline(always)]
fn finish(
    buf: &[u8],
    pos: usize,
    decimal: Option<Decimal>,
) -> Result<(NumberValue, usize), KernelError> {
    if let Some(d) = decimal {
        if d.integer {
            return Ok((integer_value(d.negative, d.mantissa), d.end));
        }
        if let Some(value) = decimal_to_f64(&d) {
            return Ok((NumberValue::F64(value), d.end));
        }
    }
    reference(buf, pos)
}

/// The reference path: [`scan_number`] for the grammar, then an exact reading of the
/// validated token (checked digit arithmetic, or `str::parse::<f64>`).
#[cold]
#[inline(never)]
fn reference(buf: &[u8], pos: usize) -> Result<(NumberValue, usize), KernelError> {
    let token = scan_number(buf, pos)?;
    let value = if token.is_integer {
        digits_value(token.int_digits(buf))
            .map_or(NumberValue::BigInt, |m| integer_value(token.negative, m))
    } else {
        NumberValue::F64(token_f64(buf, &token))
    };
    Ok((value, token.end))
}

/// The portable twin: every digit run converted eight digits per SWAR word.
pub mod scalar {
    use super::{NumberValue, finish, read_decimal};
    use crate::error::KernelError;
    use crate::number::digit_run_value;

    /// See [`super::parse_number`].
    pub fn parse_number(buf: &[u8], pos: usize) -> Result<(NumberValue, usize), KernelError> {
        finish(buf, pos, read_decimal(buf, pos, digit_run_value))
    }
}

/// The AVX2 twin: [`crate::float_parse::avx2`]'s fused pass (a short decimal read from one
/// 32-byte window, a fraction converted sixteen digits per SSE register).
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::{NumberValue, finish, short_integer};
    use crate::error::KernelError;
    use crate::float_parse::avx2::fused_decimal;

    /// See [`super::parse_number`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn parse_number(
        buf: &[u8],
        pos: usize,
    ) -> Result<(NumberValue, usize), KernelError> {
        finish(buf, pos, fused_decimal(buf, pos))
    }

    /// See [`super::parse_integer`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn parse_integer(
        buf: &[u8],
        pos: usize,
    ) -> Result<(NumberValue, usize), KernelError> {
        match short_integer(buf, pos) {
            Some(done) => Ok(done),
            // SAFETY: this function's own contract.
            None => unsafe { parse_number(buf, pos) },
        }
    }
}

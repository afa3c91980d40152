//! Integer parsing: one JSON integer token to `i64` or `u64`, exact at every boundary.
//!
//! Both twins share one structure. A fused fast path reads the common shape — an optional
//! `-`, then a run of digits that fits in a `u64`, not followed by `.`, `e` or `E` — converting
//! digits in blocks: eight per step in SWAR (scalar twin), sixteen per step with SSSE3
//! multiply-adds (AVX2 twin, only when 16 bytes are in bounds). The fast paths never report an
//! error: anything else (grammar errors, fractions, exponents, values out of range) falls to one
//! shared slow path that validates the token with [`scan_number`] and decides the answer, so
//! the twins agree on every input by construction.
//!
//! Error precedence: a grammar error as [`scan_number`] reports it; then a token with a
//! fraction or exponent is [`ErrorKind::NotAnInteger`] at `pos`; then a value outside the
//! target type is [`ErrorKind::NumberOutOfRange`] at `pos`. `-0` is accepted as 0 by both
//! parsers (it is an integer of value zero).

use crate::error::{ErrorKind, KernelError};
use crate::number::scan_number;

/// Parses the JSON integer token at `pos` as an `i64`; returns the value and the index one past
/// the token. What follows the token is not examined beyond deciding where it ends.
#[inline]
pub fn parse_i64(buf: &[u8], pos: usize) -> Result<(i64, usize), KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::parse_i64(buf, pos) };
    }
    scalar::parse_i64(buf, pos)
}

/// Parses the JSON integer token at `pos` as a `u64`; returns the value and the index one past
/// the token. A negative token other than `-0` is [`ErrorKind::NumberOutOfRange`].
#[inline]
pub fn parse_u64(buf: &[u8], pos: usize) -> Result<(u64, usize), KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::parse_u64(buf, pos) };
    }
    scalar::parse_u64(buf, pos)
}

/// The `i64` of sign and magnitude, when it is in range (`-2^63..=2^63-1`).
#[inline(always)]
fn signed_value(negative: bool, magnitude: u64) -> Option<i64> {
    if negative {
        // 2^63 wraps to i64::MIN, which negates to itself: exactly the value wanted.
        (magnitude <= 1 << 63).then(|| (magnitude as i64).wrapping_neg())
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// The `u64` of sign and magnitude, when it is in range (only `-0` may be negative).
#[inline(always)]
fn unsigned_value(negative: bool, magnitude: u64) -> Option<u64> {
    (!negative || magnitude == 0).then_some(magnitude)
}

/// True when the digit run `start..end` is a whole JSON integer token: at least one digit, no
/// leading zero before another digit, and no fraction or exponent after it.
#[inline(always)]
fn is_whole_integer(buf: &[u8], start: usize, end: usize) -> bool {
    let len = end - start;
    len != 0
        && !(len > 1 && buf[start] == b'0')
        && !matches!(buf.get(end), Some(b'.' | b'e' | b'E'))
}

/// Completes an `i64` parse from a fast path's `(magnitude, end)`, or takes the slow path.
#[inline(always)]
fn finish_i64(
    buf: &[u8],
    pos: usize,
    negative: bool,
    fast: Option<(u64, usize)>,
) -> Result<(i64, usize), KernelError> {
    match fast.and_then(|(m, end)| Some((signed_value(negative, m)?, end))) {
        Some(done) => Ok(done),
        None => slow::parse(buf, pos, signed_value),
    }
}

/// Completes a `u64` parse from a fast path's `(magnitude, end)`, or takes the slow path.
#[inline(always)]
fn finish_u64(
    buf: &[u8],
    pos: usize,
    negative: bool,
    fast: Option<(u64, usize)>,
) -> Result<(u64, usize), KernelError> {
    match fast.and_then(|(m, end)| Some((unsigned_value(negative, m)?, end))) {
        Some(done) => Ok(done),
        None => slow::parse(buf, pos, unsigned_value),
    }
}

/// The reference path both twins fall back to: grammar, shape and range, in that order.
mod slow {
    use super::*;

    /// Parses the token at `pos` with `value_of(negative, magnitude)` deciding the range.
    #[cold]
    #[inline(never)]
    pub(super) fn parse<T>(
        buf: &[u8],
        pos: usize,
        value_of: fn(bool, u64) -> Option<T>,
    ) -> Result<(T, usize), KernelError> {
        let token = scan_number(buf, pos)?;
        if !token.is_integer {
            return Err(KernelError::new(ErrorKind::NotAnInteger, pos));
        }
        let out_of_range = KernelError::new(ErrorKind::NumberOutOfRange, pos);
        let magnitude = token
            .int_digits(buf)
            .iter()
            .try_fold(0u64, |acc, &d| {
                acc.checked_mul(10)?.checked_add(u64::from(d - b'0'))
            })
            .ok_or(out_of_range)?;
        let value = value_of(token.negative, magnitude).ok_or(out_of_range)?;
        Ok((value, token.end))
    }
}

/// The portable twin: eight digits per step in SWAR.
pub mod scalar {
    use crate::error::KernelError;
    use crate::number::accumulate_digits;

    /// See [`super::parse_i64`].
    pub fn parse_i64(buf: &[u8], pos: usize) -> Result<(i64, usize), KernelError> {
        let negative = buf.get(pos) == Some(&b'-');
        super::finish_i64(buf, pos, negative, magnitude(buf, pos + negative as usize))
    }

    /// See [`super::parse_u64`].
    pub fn parse_u64(buf: &[u8], pos: usize) -> Result<(u64, usize), KernelError> {
        let negative = buf.get(pos) == Some(&b'-');
        super::finish_u64(buf, pos, negative, magnitude(buf, pos + negative as usize))
    }

    /// The fast path: the value and end of the whole-integer digit run at `start`, or `None`
    /// when the token is anything else or does not fit in a `u64`.
    #[inline(always)]
    pub(crate) fn magnitude(buf: &[u8], start: usize) -> Option<(u64, usize)> {
        let (value, end) = accumulate_digits(buf, start, 0)?;
        super::is_whole_integer(buf, start, end).then_some((value, end))
    }
}

/// The AVX2 twin: sixteen digits per step with SSSE3 multiply-adds, when 16 bytes are in
/// bounds (otherwise the scalar fast path).
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    use crate::error::KernelError;
    use crate::number::accumulate_digits;

    /// See [`super::parse_i64`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn parse_i64(buf: &[u8], pos: usize) -> Result<(i64, usize), KernelError> {
        let negative = buf.get(pos) == Some(&b'-');
        super::finish_i64(buf, pos, negative, magnitude(buf, pos + negative as usize))
    }

    /// See [`super::parse_u64`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn parse_u64(buf: &[u8], pos: usize) -> Result<(u64, usize), KernelError> {
        let negative = buf.get(pos) == Some(&b'-');
        super::finish_u64(buf, pos, negative, magnitude(buf, pos + negative as usize))
    }

    /// The fast path (see [`super::scalar::magnitude`]), sixteen digits at a time.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn magnitude(buf: &[u8], start: usize) -> Option<(u64, usize)> {
        let Some(block) = buf.get(start..).and_then(|rest| rest.first_chunk::<16>()) else {
            return super::scalar::magnitude(buf, start);
        };
        let (value, len) = digit_prefix_value(block);
        let (value, end) = if len == 16 {
            accumulate_digits(buf, start + 16, value)?
        } else {
            (value, start + len)
        };
        super::is_whole_integer(buf, start, end).then_some((value, end))
    }

    /// Shuffle controls that right-align a digit prefix: the 16 bytes from index `n` move lane
    /// `j` to digit `j + n - 16`, and clear the lanes before it (index 0x80).
    static RIGHT_ALIGN: [u8; 32] = {
        let mut table = [0x80u8; 32];
        let mut k = 16;
        while k < 32 {
            table[k] = (k - 16) as u8;
            k += 1;
        }
        table
    };

    /// The value and the length of the run of ASCII digits at the start of `block` (0..=16
    /// digits; at most 16 digits, so the value is below 10^16).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub(crate) fn digit_prefix_value(block: &[u8; 16]) -> (u64, usize) {
        // SAFETY: `block` is 16 readable bytes; `loadu` has no alignment requirement.
        let bytes = unsafe { _mm_loadu_si128(block.as_ptr().cast()) };
        let digits = _mm_sub_epi8(bytes, _mm_set1_epi8(b'0' as i8));
        let is_digit = _mm_cmpeq_epi8(_mm_min_epu8(digits, _mm_set1_epi8(9)), digits);
        // Bit 16 of the complement is always set, so the count is at most 16.
        let len = (!(_mm_movemask_epi8(is_digit) as u32)).trailing_zeros() as usize;
        // SAFETY: `len <= 16`, so the 16 bytes from `len` lie inside the 32-byte table.
        let control = unsafe { _mm_loadu_si128(RIGHT_ALIGN.as_ptr().add(len).cast()) };
        let aligned = _mm_shuffle_epi8(digits, control);
        (sixteen_digits_value(aligned), len)
    }

    /// The value of sixteen digits, one per byte (0..=9), most significant in lane 0.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn sixteen_digits_value(digits: __m128i) -> u64 {
        // Pairs (10·a + b) in 16-bit lanes, then quads (100·ab + cd) in 32-bit lanes.
        let pairs = _mm_maddubs_epi16(digits, _mm_set1_epi16(0x010a));
        let quads = _mm_madd_epi16(pairs, _mm_set1_epi32(0x0001_0064));
        // Quads (at most 9999) repacked to 16 bits, then octs (10^4·q0 + q1) in 32 bits.
        let quads = _mm_packus_epi32(quads, quads);
        let octs = _mm_madd_epi16(quads, _mm_set1_epi32(0x0001_2710));
        let high = _mm_cvtsi128_si32(octs) as u32;
        let low = _mm_extract_epi32::<1>(octs) as u32;
        u64::from(high) * 100_000_000 + u64::from(low)
    }
}

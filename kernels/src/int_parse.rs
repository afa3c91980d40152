//! Integer parsing: one JSON integer token to `i64` or `u64`, exact at every boundary.
//!
//! Both twins share one structure, in three tiers:
//! - a short, inlined fast path for the common shape — an optional `-`, then a run of up to 19
//!   digits not followed by `.`, `e` or `E` — that reads the token in blocks: 8-byte words in
//!   SWAR (scalar twin), or one 16-byte SSE register converted with multiply-adds (AVX2 twin),
//!   when those bytes are in bounds;
//! - a longer path (not inlined, so the fast path needs few registers) for longer digit runs
//!   and tokens near the end of the input: word-at-a-time SWAR with exact overflow checks;
//! - a cold reference path that validates the token with [`scan_number`] and decides the error.
//!
//! Only the reference path reports errors; the faster tiers give up instead, so the twins agree
//! on every input by construction.
//!
//! Error precedence: a grammar error as [`scan_number`] reports it; then a token with a
//! fraction or exponent is [`ErrorKind::NotAnInteger`] at `pos`; then a value outside the
//! target type is [`ErrorKind::NumberOutOfRange`] at `pos`. `-0` is accepted as 0 by both
//! parsers (it is an integer of value zero).

use crate::error::{ErrorKind, KernelError};
use crate::number::{POW10_U64, leading_digit_lanes, leading_digits_value, load_word, scan_number};

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

/// True when a run of `len` digits starting with `first` and followed by `next` is a whole
/// JSON integer token: at least one digit, no leading zero before another digit, and no
/// fraction or exponent after it.
#[inline(always)]
fn is_whole_integer(first: u8, len: usize, next: Option<u8>) -> bool {
    len != 0 && !(len > 1 && first == b'0') && !matches!(next, Some(b'.' | b'e' | b'E'))
}

/// Appends the digit run at `i` to `value < 10^16` when the run has at most three digits and
/// ends the token (no fraction or exponent follows, 8 bytes are in bounds); returns the new
/// value and the run's length. The result is below 10^19: no overflow is possible.
#[inline(always)]
fn append_up_to_3_digits(buf: &[u8], i: usize, value: u64) -> Option<(u64, usize)> {
    let word = load_word(buf, i)?;
    let n = leading_digit_lanes(word);
    if n > 3 || matches!((word >> (8 * n)) as u8, b'.' | b'e' | b'E') {
        return None;
    }
    Some((value * POW10_U64[n] + leading_digits_value(word, n), n))
}

/// The tiers after the inlined fast paths, shared by both twins.
mod long {
    use super::*;
    use crate::number::{digit_run_value, digits_value};

    /// Parses an `i64` with word-at-a-time SWAR, or the reference path.
    #[inline(never)]
    pub(super) fn parse_i64(buf: &[u8], pos: usize) -> Result<(i64, usize), KernelError> {
        parse(buf, pos, signed_value)
    }

    /// Parses a `u64` with word-at-a-time SWAR, or the reference path.
    #[inline(never)]
    pub(super) fn parse_u64(buf: &[u8], pos: usize) -> Result<(u64, usize), KernelError> {
        parse(buf, pos, unsigned_value)
    }

    /// The SWAR path with `value_of(negative, magnitude)` deciding the range.
    #[inline(always)]
    fn parse<T>(
        buf: &[u8],
        pos: usize,
        value_of: fn(bool, u64) -> Option<T>,
    ) -> Result<(T, usize), KernelError> {
        let negative = buf.get(pos) == Some(&b'-');
        let start = pos + negative as usize;
        let fast = digit_run_value(buf, start).and_then(|(magnitude, end)| {
            let first = buf.get(start).copied().unwrap_or(0);
            let whole = is_whole_integer(first, end - start, buf.get(end).copied());
            Some((value_of(negative, magnitude).filter(|_| whole)?, end))
        });
        match fast {
            Some(done) => Ok(done),
            None => reference(buf, pos, value_of),
        }
    }

    /// The reference: grammar, shape and range, in that order.
    #[cold]
    #[inline(never)]
    fn reference<T>(
        buf: &[u8],
        pos: usize,
        value_of: fn(bool, u64) -> Option<T>,
    ) -> Result<(T, usize), KernelError> {
        let token = scan_number(buf, pos)?;
        if !token.is_integer {
            return Err(KernelError::new(ErrorKind::NotAnInteger, pos));
        }
        let out_of_range = KernelError::new(ErrorKind::NumberOutOfRange, pos);
        let magnitude = digits_value(token.int_digits(buf)).ok_or(out_of_range)?;
        let value = value_of(token.negative, magnitude).ok_or(out_of_range)?;
        Ok((value, token.end))
    }
}

/// The portable twin: up to fifteen digits as two SWAR words inline.
pub mod scalar {
    use super::{append_up_to_3_digits, is_whole_integer, long, signed_value, unsigned_value};
    use crate::error::KernelError;
    use crate::number::{
        POW10_U64, ZEROS, eight_digits_value, leading_digit_lanes, leading_digits_value, load_word,
    };

    /// See [`super::parse_i64`].
    pub fn parse_i64(buf: &[u8], pos: usize) -> Result<(i64, usize), KernelError> {
        let negative = buf.get(pos) == Some(&b'-');
        let fast = short_magnitude(buf, pos + negative as usize)
            .and_then(|(m, end)| Some((signed_value(negative, m)?, end)));
        match fast {
            Some(done) => Ok(done),
            None => long::parse_i64(buf, pos),
        }
    }

    /// See [`super::parse_u64`].
    pub fn parse_u64(buf: &[u8], pos: usize) -> Result<(u64, usize), KernelError> {
        let negative = buf.get(pos) == Some(&b'-');
        let fast = short_magnitude(buf, pos + negative as usize)
            .and_then(|(m, end)| Some((unsigned_value(negative, m)?, end)));
        match fast {
            Some(done) => Ok(done),
            None => long::parse_u64(buf, pos),
        }
    }

    /// The value and end of a whole-integer run of at most 15 digits at `start`, read as two
    /// 8-byte words (when 8, or 16 for runs of 8 or more, bytes are in bounds); `None` for
    /// anything else.
    #[inline(always)]
    fn short_magnitude(buf: &[u8], start: usize) -> Option<(u64, usize)> {
        let first = load_word(buf, start)?;
        let n = leading_digit_lanes(first);
        if n < 8 {
            let next = (first >> (8 * n)) as u8;
            if !is_whole_integer(first as u8, n, Some(next)) {
                return None;
            }
            return Some((leading_digits_value(first, n), start + n));
        }
        let second = load_word(buf, start + 8)?;
        let m = leading_digit_lanes(second);
        let high = eight_digits_value(first.wrapping_sub(ZEROS));
        let value = high * POW10_U64[m] + leading_digits_value(second, m);
        if m == 8 {
            // Sixteen digits and more: up to three more fit in a u64 without a check.
            let (value, len) = append_up_to_3_digits(buf, start + 16, value)?;
            return (first as u8 != b'0').then_some((value, start + 16 + len));
        }
        let next = (second >> (8 * m)) as u8;
        if !is_whole_integer(first as u8, 8 + m, Some(next)) {
            return None;
        }
        Some((value, start + 8 + m))
    }
}

/// The AVX2 twin: up to fifteen digits in one SSE register, converted with SSSE3
/// multiply-adds.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    use super::{is_whole_integer, long, signed_value, unsigned_value};
    use crate::error::KernelError;

    /// See [`super::parse_i64`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn parse_i64(buf: &[u8], pos: usize) -> Result<(i64, usize), KernelError> {
        let negative = buf.get(pos) == Some(&b'-');
        let fast = short_magnitude(buf, pos + negative as usize)
            .and_then(|(m, end)| Some((signed_value(negative, m)?, end)));
        match fast {
            Some(done) => Ok(done),
            None => long::parse_i64(buf, pos),
        }
    }

    /// See [`super::parse_u64`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn parse_u64(buf: &[u8], pos: usize) -> Result<(u64, usize), KernelError> {
        let negative = buf.get(pos) == Some(&b'-');
        let fast = short_magnitude(buf, pos + negative as usize)
            .and_then(|(m, end)| Some((unsigned_value(negative, m)?, end)));
        match fast {
            Some(done) => Ok(done),
            None => long::parse_u64(buf, pos),
        }
    }

    /// The value and end of a whole-integer run of at most 15 digits at `start`, read as one
    /// 16-byte block (when in bounds); `None` for anything else.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn short_magnitude(buf: &[u8], start: usize) -> Option<(u64, usize)> {
        let block = buf.get(start..)?.first_chunk::<16>()?;
        let (value, len) = digit_prefix_value(block);
        // Sixteen digits or more (no byte after them in the block) take the long path.
        let next = *block.get(len)?;
        if !is_whole_integer(block[0], len, Some(next)) {
            return None;
        }
        Some((value, start + len))
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
        (leading_digits_value(digits, len), len)
    }

    /// The value of the first `len` (0..=16) lanes of `digits`, each a digit 0..=9 (lanes
    /// from `len` on are ignored): the lanes right-aligned by a shuffle, then converted.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub(crate) fn leading_digits_value(digits: __m128i, len: usize) -> u64 {
        let len = len.min(16);
        // SAFETY: `len <= 16`, so the 16 bytes from `len` lie inside the 32-byte table.
        let control = unsafe { _mm_loadu_si128(RIGHT_ALIGN.as_ptr().add(len).cast()) };
        sixteen_digits_value(_mm_shuffle_epi8(digits, control))
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

//! Number grammar: finds the extent and shape of one JSON number token.
//!
//! `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` — a leading zero followed by a
//! digit is rejected here (as serde_json does), so callers report "invalid number" rather than
//! a confusing structural error. What follows the token is the caller's business.
//!
//! Also the SWAR digit helpers the number kernels share ([`crate::int_parse`],
//! [`crate::float_parse`]): a digit run is read eight bytes per little-endian word, its length
//! found from [`non_digit_lanes`], and eight digits converted with three multiplies.

use crate::error::{ErrorKind, KernelError};

/// The shape of one number token found by [`scan_number`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumberToken {
    /// Index of the token's first byte (the `-` or first digit).
    pub start: usize,
    /// Index one past the token's last byte.
    pub end: usize,
    /// True when the token starts with `-`.
    pub negative: bool,
    /// Index one past the integer part's last digit.
    pub int_end: usize,
    /// True when the token has neither fraction nor exponent.
    pub is_integer: bool,
}

impl NumberToken {
    /// The integer part's digits (without the sign).
    pub fn int_digits<'a>(&self, buf: &'a [u8]) -> &'a [u8] {
        &buf[self.start + self.negative as usize..self.int_end]
    }
}

/// Scans the number token starting at `pos` in `buf`.
///
/// Errors: [`ErrorKind::InvalidNumber`] at the offending byte (or [`ErrorKind::UnexpectedEnd`]
/// at `buf.len()` when the input stops inside the token).
pub fn scan_number(buf: &[u8], pos: usize) -> Result<NumberToken, KernelError> {
    let mut i = pos;
    let negative = buf.get(i) == Some(&b'-');
    i += negative as usize;
    match buf.get(i) {
        Some(b'0') => {
            i += 1;
            if buf.get(i).is_some_and(u8::is_ascii_digit) {
                return Err(KernelError::new(ErrorKind::InvalidNumber, i));
            }
        }
        Some(b'1'..=b'9') => i += digit_run(buf, i),
        _ => return Err(expected_digit(buf, i)),
    }
    let int_end = i;
    if buf.get(i) == Some(&b'.') {
        i += 1;
        let n = digit_run(buf, i);
        if n == 0 {
            return Err(expected_digit(buf, i));
        }
        i += n;
    }
    if matches!(buf.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(buf.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digit_run(buf, i);
        if n == 0 {
            return Err(expected_digit(buf, i));
        }
        i += n;
    }
    Ok(NumberToken {
        start: pos,
        end: i,
        negative,
        int_end,
        is_integer: i == int_end,
    })
}

fn expected_digit(buf: &[u8], i: usize) -> KernelError {
    if i >= buf.len() {
        KernelError::new(ErrorKind::UnexpectedEnd, buf.len())
    } else {
        KernelError::new(ErrorKind::InvalidNumber, i)
    }
}

/// Number of consecutive ASCII digits in `buf` starting at `i` (eight at a time where eight
/// bytes are available).
#[inline]
pub fn digit_run(buf: &[u8], i: usize) -> usize {
    let mut n = 0;
    while let Some(w) = load_word(buf, i + n) {
        let digits = leading_digit_lanes(w);
        n += digits;
        if digits < 8 {
            return n;
        }
    }
    while buf.get(i + n).is_some_and(u8::is_ascii_digit) {
        n += 1;
    }
    n
}

/// ASCII `'0'` in every byte lane of a word.
pub(crate) const ZEROS: u64 = 0x3030_3030_3030_3030;

/// `10^k` for `k` in `0..=19` (every power of ten a `u64` holds).
pub(crate) const POW10_U64: [u64; 20] = {
    let mut table = [1u64; 20];
    let mut k = 1;
    while k < 20 {
        table[k] = table[k - 1] * 10;
        k += 1;
    }
    table
};

/// The 8 bytes of `buf` starting at `i` as a little-endian word (the byte at `i` in the lowest
/// lane), or `None` when fewer than 8 bytes remain.
#[inline(always)]
pub(crate) fn load_word(buf: &[u8], i: usize) -> Option<u64> {
    let bytes = buf.get(i..)?.first_chunk::<8>()?;
    Some(u64::from_le_bytes(*bytes))
}

/// How many of the lowest byte lanes of `w` are ASCII digits before the first non-digit
/// (0..=8).
#[inline(always)]
pub(crate) fn leading_digit_lanes(w: u64) -> usize {
    // No non-digit lane: trailing_zeros is 64, and 64 / 8 = 8.
    (non_digit_lanes(w).trailing_zeros() / 8) as usize
}

/// Value of eight decimal digits held one per byte lane (each lane 0..=9), the most
/// significant digit in the lowest lane: the classic SWAR conversion in three multiplies.
#[inline(always)]
pub(crate) fn eight_digits_value(d: u64) -> u64 {
    // Even lanes become two-digit numbers 10·d[i] + d[i+1] (at most 99: no lane carries).
    let pairs = d.wrapping_mul(10).wrapping_add(d >> 8);
    // Pairs 0 and 2 (lanes 0 and 4), pairs 1 and 3 (lanes 2 and 6), each as two 32-bit
    // halves; one multiply per mask places p0·10^6 + p2·10^2 and p1·10^4 + p3 in the high
    // half. The low halves (at most 99·100) never carry into it.
    const PAIR_MASK: u64 = 0x0000_00ff_0000_00ff;
    let outer = (pairs & PAIR_MASK).wrapping_mul(100 + (1_000_000 << 32));
    let inner = ((pairs >> 16) & PAIR_MASK).wrapping_mul(1 + (10_000 << 32));
    outer.wrapping_add(inner) >> 32
}

/// Value of the first `n` (0..=8) ASCII digits of the word `w` (first digit in the lowest
/// lane); the lanes from `n` on are ignored.
#[inline(always)]
pub(crate) fn leading_digits_value(w: u64, n: usize) -> u64 {
    debug_assert!(n <= 8);
    // Lanes below `n` are digits (>= '0'), so the subtraction borrows only into lanes at or
    // above `n`, which the shift discards; the vacated low lanes read as leading zeros. A
    // shift by 64 (no digits) leaves nothing.
    let digits = w
        .wrapping_sub(ZEROS)
        .checked_shl(8 * (8 - n) as u32)
        .unwrap_or(0);
    eight_digits_value(digits)
}

/// The value of the digit run of `buf` starting at `i` and the index past it, or `None` when
/// the value does not fit in a `u64`. The first sixteen digits need no overflow check and no
/// loop: they are read as two words (when in bounds).
#[inline(always)]
pub(crate) fn digit_run_value(buf: &[u8], i: usize) -> Option<(u64, usize)> {
    let Some(first) = load_word(buf, i) else {
        return accumulate_digits(buf, i, 0);
    };
    let n = leading_digit_lanes(first);
    let value = leading_digits_value(first, n);
    if n < 8 {
        return Some((value, i + n));
    }
    let Some(second) = load_word(buf, i + 8) else {
        return accumulate_digits(buf, i + 8, value);
    };
    let n = leading_digit_lanes(second);
    // At most 16 digits: below 10^16, no overflow.
    let value = value * POW10_U64[n] + leading_digits_value(second, n);
    if n < 8 {
        return Some((value, i + 8 + n));
    }
    accumulate_digits(buf, i + 16, value)
}

/// Appends the digit run of `buf` starting at `i` to `value` (`value·10^len + run`), eight
/// digits per step where eight bytes are available. Returns the new value and the index past
/// the run, or `None` when the result does not fit in a `u64` (exact: checked arithmetic).
#[inline(always)]
pub(crate) fn accumulate_digits(buf: &[u8], mut i: usize, mut value: u64) -> Option<(u64, usize)> {
    while let Some(w) = load_word(buf, i) {
        let n = leading_digit_lanes(w);
        if n == 0 {
            return Some((value, i));
        }
        value = value
            .checked_mul(POW10_U64[n])?
            .checked_add(leading_digits_value(w, n))?;
        i += n;
        if n < 8 {
            return Some((value, i));
        }
    }
    while let Some(&b) = buf.get(i).filter(|b| b.is_ascii_digit()) {
        value = value.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
        i += 1;
    }
    Some((value, i))
}

/// The value of a run of ASCII digits, or `None` when it does not fit in a `u64` (exact:
/// checked arithmetic, one digit at a time; for the cold reference paths).
pub(crate) fn digits_value(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |acc, &d| {
        acc.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    })
}

/// High bit of each byte lane set where that byte of `w` is not an ASCII digit (exact per
/// lane: the additions never carry across lanes).
#[inline]
pub fn non_digit_lanes(w: u64) -> u64 {
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // A digit lane is 0x30..=0x39: high nibble 3, and adding 6 keeps the high nibble 3.
    // Per lane: (b & 0x7f) + 0x46 sets bit 7 iff (b & 0x7f) >= 0x3a; (b & 0x7f) + 0x50 sets
    // bit 7 iff (b & 0x7f) >= 0x30. Neither sum exceeds 0xff, so no carry crosses lanes.
    let low = w & !HIGHS;
    let ge_3a = low.wrapping_add(0x4646_4646_4646_4646) & HIGHS;
    let ge_30 = low.wrapping_add(0x5050_5050_5050_5050) & HIGHS;
    (w & HIGHS) | ge_3a | (!ge_30 & HIGHS)
}

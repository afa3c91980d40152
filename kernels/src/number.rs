//! Number grammar: finds the extent and shape of one JSON number token.
//!
//! `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` — a leading zero followed by a
//! digit is rejected here (as serde_json does), so callers report "invalid number" rather than
//! a confusing structural error. What follows the token is the caller's business.

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
    while let Some(word) = buf.get(i + n..i + n + 8) {
        let w = u64::from_le_bytes(word.try_into().expect("8-byte slice"));
        let non_digits = non_digit_lanes(w);
        if non_digits != 0 {
            return n + (non_digits.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    while buf.get(i + n).is_some_and(u8::is_ascii_digit) {
        n += 1;
    }
    n
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

//! Whether a number token's value lies within `f64` bounds, reading the value only when the
//! token's integer part does not decide it.
//!
//! Validating a bounded number needs its grammar and which side of each bound it falls on,
//! not its correctly rounded value: a token `-65.613616999999977` has the integer part 65,
//! so its nearest `f64` lies in `[-66, -65]` (rounding is monotonic, and integers below
//! 2^53 are exact), inside `[-180, 180]` whatever its fraction says. Tokens the integer part
//! does not decide (an exponent, an integer part of more than 15 digits, an interval that
//! straddles a bound) are read with [`parse_number`] and compared exactly.
//!
//! The answer is one-sided: `true` means the value (as `parse_number` reads it, `-0` being
//! `-0.0`) is certainly within the bounds; `false` means it is not, or that this kernel
//! does not decide (a big integer, an infinite value, a fraction or exponent under
//! [`F64Bounds::integer`]); the caller's exact reading decides those. An integer beyond 2^53
//! that fits 64 bits is compared exactly with the integers within the bounds
//! ([`F64Bounds::integers`]).
//! Grammar errors are exactly [`scan_number`](crate::number::scan_number)'s. Built from other kernels' dispatching
//! entry points: there is no separate scalar twin.

use crate::error::KernelError;
use crate::number::digit_run;
use crate::number_parse::{NumberValue, parse_number};

/// Integers up to this magnitude are exactly `f64`s.
const EXACT_INT: u64 = 1 << 53;

/// Integer parts of at most this many digits are below 2^53.
const EXACT_DIGITS: usize = 15;

/// Bounds on a number's value. Without a lower bound `min` is `-inf`, without an upper
/// bound `max` is `+inf`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct F64Bounds {
    /// The lowest value allowed.
    pub min: f64,
    /// Whether `min` itself is excluded.
    pub min_exclusive: bool,
    /// The highest value allowed.
    pub max: f64,
    /// Whether `max` itself is excluded.
    pub max_exclusive: bool,
    /// Whether only integer tokens (no fraction, no exponent) are decided.
    pub integer: bool,
}

impl F64Bounds {
    /// No bounds, any number.
    pub const ANY: F64Bounds = F64Bounds {
        min: f64::NEG_INFINITY,
        min_exclusive: false,
        max: f64::INFINITY,
        max_exclusive: false,
        integer: false,
    };

    /// The smallest and the largest integer within the bounds (saturated to `i128`; the
    /// first above the second when no integer is): an integer of any size is within the
    /// bounds exactly when it lies in this interval.
    pub fn integers(&self) -> (i128, i128) {
        // The integer `whole` next to a bound on its inner side, one step further in when
        // the bound excludes itself and is that integer (`as` from `f64` to `i128`
        // saturates; an infinite bound gives the extreme).
        let inner = |whole: f64, bound: f64, exclusive: bool, step: i128| {
            let at = whole as i128;
            match exclusive && whole == bound {
                true => at.saturating_add(step),
                false => at,
            }
        };
        (
            inner(self.min.ceil(), self.min, self.min_exclusive, 1),
            inner(self.max.floor(), self.max, self.max_exclusive, -1),
        )
    }

    /// Whether every value in `lo..=hi` meets both bounds.
    pub fn holds(&self, lo: f64, hi: f64) -> bool {
        let above = if self.min_exclusive {
            lo > self.min
        } else {
            lo >= self.min
        };
        let below = if self.max_exclusive {
            hi < self.max
        } else {
            hi <= self.max
        };
        above && below
    }
}

/// Whether the number token at `pos` is certainly within `bounds` (see the module docs),
/// and the index past it.
///
/// Errors: exactly [`scan_number`](crate::number::scan_number)'s.
pub fn number_within(
    buf: &[u8],
    pos: usize,
    bounds: &F64Bounds,
) -> Result<(bool, usize), KernelError> {
    if let Some(shape) = plain_shape(buf, pos) {
        let sign = if shape.negative { -1.0 } else { 1.0 };
        let whole = shape.whole as f64;
        if !shape.fraction {
            let v = sign * whole;
            return Ok((bounds.holds(v, v), shape.end));
        }
        if bounds.integer {
            return Ok((false, shape.end));
        }
        // A fraction: the value lies between the integer part and the next integer.
        let (lo, hi) = match shape.negative {
            false => (whole, whole + 1.0),
            true => (-(whole + 1.0), -whole),
        };
        if bounds.holds(lo, hi) {
            return Ok((true, shape.end));
        }
    }
    let (value, end) = parse_number(buf, pos)?;
    let v = match value {
        NumberValue::U64(u) if u <= EXACT_INT => u as f64,
        NumberValue::I64(i) if i.unsigned_abs() <= EXACT_INT => match i {
            0 => -0.0,
            i => i as f64,
        },
        // Not exactly an `f64`: compared as an integer (twitter's 18-digit ids).
        NumberValue::U64(u) => return Ok((integer_within(bounds, u.into()), end)),
        NumberValue::I64(i) => return Ok((integer_within(bounds, i.into()), end)),
        NumberValue::F64(f) if f.is_finite() && !bounds.integer => f,
        _ => return Ok((false, end)),
    };
    Ok((bounds.holds(v, v), end))
}

/// Whether the integer `i` is within `bounds`, exactly.
fn integer_within(bounds: &F64Bounds, i: i128) -> bool {
    let (lowest, highest) = bounds.integers();
    (lowest..=highest).contains(&i)
}

/// A well-formed token without exponent whose integer part has at most 15 digits.
struct PlainShape {
    negative: bool,
    /// The integer part's value.
    whole: u64,
    /// Whether a fraction follows the integer part.
    fraction: bool,
    /// The index past the token.
    end: usize,
}

/// The shape of the token at `pos` when it is `-?(0|[1-9][0-9]{0,14})(\.[0-9]+)?` and the
/// next byte (if any) is not a digit, `.`, `e` or `E`; `None` for anything else (which may
/// still be a token: the caller reads those exactly).
#[inline]
fn plain_shape(buf: &[u8], pos: usize) -> Option<PlainShape> {
    let negative = buf.get(pos) == Some(&b'-');
    let start = pos + negative as usize;
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if let Some(shape) = window_shape(buf, start, negative) {
        return shape;
    }
    let int_len = match *buf.get(start)? {
        b'0' => 1,
        b'1'..=b'9' => digit_run(buf, start),
        _ => return None,
    };
    if int_len > EXACT_DIGITS {
        return None;
    }
    let mut end = start + int_len;
    let fraction = buf.get(end) == Some(&b'.');
    if fraction {
        let n = digit_run(buf, end + 1);
        if n == 0 {
            return None;
        }
        end += 1 + n;
    }
    match buf.get(end) {
        Some(b'0'..=b'9' | b'.' | b'e' | b'E') => None,
        _ => Some(PlainShape {
            negative,
            whole: whole_value(&buf[start..start + int_len]),
            fraction,
            end,
        }),
    }
}

/// The value of at most 15 digits.
#[inline(always)]
fn whole_value(digits: &[u8]) -> u64 {
    digits
        .iter()
        .fold(0, |acc, &d| acc * 10 + u64::from(d - b'0'))
}

/// [`plain_shape`] for the token whose digits start at `start` from one 32-byte window (two
/// SSE2 loads, part of the x86-64 baseline: no dispatch): `None` when fewer than 32 bytes
/// are left (the caller reads the token in words), `Some(None)` when the window shows the
/// token is not plain or does not end within it.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[inline(always)]
fn window_shape(buf: &[u8], start: usize, negative: bool) -> Option<Option<PlainShape>> {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_set1_epi8,
    };
    const WINDOW: usize = 32;
    let chunk = buf.get(start..start + WINDOW)?;
    // SAFETY: SSE2 is part of the x86-64 baseline; the two unaligned loads read exactly the
    // 32 bytes of `chunk`.
    let (digits, dots) = unsafe {
        let masks = |at: usize| {
            let x = _mm_loadu_si128(chunk.as_ptr().add(at).cast());
            // Signed compares: bytes from 0x80 are negative, below `'0'`.
            let digit = _mm_and_si128(
                _mm_cmpgt_epi8(x, _mm_set1_epi8(b'0' as i8 - 1)),
                _mm_cmplt_epi8(x, _mm_set1_epi8(b'9' as i8 + 1)),
            );
            let dot = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'.' as i8));
            (
                u64::from(_mm_movemask_epi8(digit) as u16),
                u64::from(_mm_movemask_epi8(dot) as u16),
            )
        };
        let (lo, hi) = (masks(0), masks(16));
        (lo.0 | hi.0 << 16, lo.1 | hi.1 << 16)
    };
    // Bits past the window count as non-digits.
    let int_len = (!digits).trailing_zeros() as usize;
    let leading_zero = chunk[0] == b'0' && int_len > 1;
    if int_len == 0 || int_len > EXACT_DIGITS || leading_zero {
        return Some(None);
    }
    let fraction = dots >> int_len & 1 != 0;
    let mut len = int_len;
    if fraction {
        let n = (!digits >> (int_len + 1)).trailing_zeros() as usize;
        if n == 0 {
            return Some(None);
        }
        len += 1 + n;
    }
    if len >= WINDOW || matches!(chunk[len], b'.' | b'e' | b'E') {
        return Some(None);
    }
    Some(Some(PlainShape {
        negative,
        whole: whole_value(&chunk[..int_len]),
        fraction,
        end: start + len,
    }))
}

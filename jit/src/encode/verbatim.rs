//! Number tokens that are already written as [`num_ref`](super::num_ref) writes the value read
//! from them, so [`write_raw`](super::write_raw) copies them instead of formatting the value.
//!
//! - An integer token read as [`Number::U64`] or [`Number::I64`]: the integer kernels write
//!   its digits back (the grammar has no leading zeros; `-0` reads as the float `-0.0`).
//!   A big integer kept by [`BigInts::Raw`](crate::ir::BigInts) is written verbatim anyway.
//! - A fraction token `I.F` without exponent whose value's shortest round-trip form is its
//!   own text ([`is_shortest_fraction`]). The float formatter (`zmij`, serde_json's bytes)
//!   writes the shortest digits `S` of the value in fixed notation when the decimal exponent
//!   of the first significant digit lies in `-5..=15`: the integer part (`0` below one), a
//!   point, then the fraction digits without trailing zeros, or `0` for an integral value.
//!   A token with at most 15 significant digits whose value lies in that range is read as
//!   the double nearest to it, and its own digits are the shortest form of that double: two
//!   distinct decimals of at most 15 significant digits never round to the same double
//!   (`DBL_DIG` = 15, as `10^15 < 2^52`), and such a decimal is never the exact midpoint of
//!   two doubles in that range (a midpoint has at least 16 significant digits), so the
//!   shortest digits that read back as the double are the token's. The text is then the
//!   token's exactly when its fraction has no trailing zero, or is the single `0` of an
//!   integral value. Zero qualifies as `0.0` and `-0.0`.
//!
//! Everything else (exponents, more digits, trailing zeros) is formatted again. The rule is
//! checked against formatting on random tokens by the `write_raw` tests.

use crate::ir::{NumRef, Number};

/// Digits of an integer that fits both `i64` and `u64`.
const MAX_INT_DIGITS: usize = 18;

/// Significant digits a double keeps for every decimal (`DBL_DIG`).
const MAX_SIG_DIGITS: usize = 15;

/// Integer digits of a value below `10^16`, the formatter's last fixed-notation decade.
const MAX_FIXED_INT_DIGITS: usize = 16;

/// Leading zeros of the fraction of a value at or above `10^-5`, the formatter's first
/// fixed-notation decade (`0.00001`).
const MAX_FIXED_LEADING_ZEROS: usize = 4;

/// The index past the integer token at `start` (its first byte is `-` or a digit) when it
/// has at most 18 digits and is not `-0`: such a token reads as [`Number::U64`] or
/// [`Number::I64`], whose written form is the token. `None` for any other token (a
/// fraction, an exponent, a longer integer), which is read first.
#[inline]
pub(super) fn short_integer(raw: &[u8], start: usize) -> Option<usize> {
    let negative = raw.get(start) == Some(&b'-');
    let int_start = start + usize::from(negative);
    let rest = raw.get(int_start..)?;
    let len = rest.iter().take_while(|d| d.is_ascii_digit()).count();
    let end = int_start + len;
    let (&first, _) = rest.split_first()?;
    let plain = first != b'0' || len == 1 && !negative;
    let integer = !matches!(raw.get(end), Some(b'.' | b'e' | b'E'));
    (plain && integer && (1..=MAX_INT_DIGITS).contains(&len)).then_some(end)
}

/// Whether `token`, the text `n` was read from, is what [`num_ref`](super::num_ref) writes
/// for `n`.
#[inline]
pub(super) fn is_written_form(token: &[u8], n: NumRef<'_>) -> bool {
    match n {
        NumRef::Number(Number::U64(_) | Number::I64(_)) | NumRef::BigInt(_) => true,
        NumRef::Number(Number::F64(_)) => is_shortest_fraction(token),
    }
}

/// Whether the number token `token` (well-formed JSON) is a fraction without exponent that
/// is the shortest round-trip form of its value in the formatter's fixed notation (see the
/// module docs).
#[inline]
fn is_shortest_fraction(token: &[u8]) -> bool {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    let Some(dot) = digits.iter().position(|&b| b == b'.') else {
        return false;
    };
    let (int, frac) = (&digits[..dot], &digits[dot + 1..]);
    let (Some(&first), Some(&last)) = (int.first(), frac.last()) else {
        return false;
    };
    let fits = if first == b'0' {
        // `0.F`: the first significant digit is the first non-zero one of the fraction.
        match frac.iter().position(|&d| d != b'0') {
            None => frac.len() == 1,
            Some(zeros) => {
                zeros <= MAX_FIXED_LEADING_ZEROS
                    && frac.len() - zeros <= MAX_SIG_DIGITS
                    && last != b'0'
            }
        }
    } else if frac == b"0" {
        // An integral value `I.0`: the digits of `I` without its trailing zeros count.
        let sig = int.len() - int.iter().rev().take_while(|&&d| d == b'0').count();
        int.len() <= MAX_FIXED_INT_DIGITS && sig <= MAX_SIG_DIGITS
    } else {
        int.len() + frac.len() <= MAX_SIG_DIGITS && last != b'0'
    };
    // An exponent would follow the fraction's digits (and may itself end in a digit).
    fits && frac.iter().all(u8::is_ascii_digit)
}

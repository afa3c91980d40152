//! Integer formatting: `u64` / `i64` to decimal ASCII at the start of a 20-byte buffer.
//!
//! Values below 10^4 (the most common in JSON) take one branch-free path shared by both twins
//! and run before dispatch: two lookups in a two-digit table make a 4-byte word. Larger values
//! get their length from their bit length first (so the length never waits for the digits),
//! are cut into blocks by at most two divisions by a constant, and each block is converted in
//! a register: the scalar twin turns eight digits into one word in SWAR (base 10^4, then 10^2,
//! then 10, each step one multiply-shift for the quotient); the AVX2 twin converts sixteen
//! digits at once in an SSE register. Leading zeros are dropped by shifting the block (or
//! shuffling the register) by an amount known from the length, never by a loop, so every store
//! is a whole word. Bytes of `out` past the returned length may be overwritten with arbitrary
//! bytes.

/// Longest decimal form of a 64-bit integer, sign included (`u64::MAX` has 20 digits,
/// `i64::MIN` has a sign and 19).
pub const MAX_INT_LEN: usize = 20;

/// Writes `v` in decimal to the start of `out`; returns the length.
#[inline]
pub fn format_u64(v: u64, out: &mut [u8; MAX_INT_LEN]) -> usize {
    // Small values (the most common in JSON) are the same few instructions in both twins:
    // answer them without a call.
    if v < 10_000 {
        return scalar::write_below_e4(v as u32, out, 0);
    }
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::format_u64(v, out) };
    }
    scalar::format_u64(v, out)
}

/// Writes `v` in decimal (with a leading `-` when negative) to the start of `out`; returns the
/// length.
#[inline]
pub fn format_i64(v: i64, out: &mut [u8; MAX_INT_LEN]) -> usize {
    if (0..10_000).contains(&v) {
        return scalar::write_below_e4(v as u32, out, 0);
    }
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::format_i64(v, out) };
    }
    scalar::format_i64(v, out)
}

const E8: u64 = 100_000_000;
const E16: u64 = E8 * E8;

/// `"00" "01" … "99"`: the two ASCII digits of every value below 100.
static PAIRS: [u8; 200] = {
    let mut table = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        table[2 * i] = b'0' + (i / 10) as u8;
        table[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    table
};

/// Writes the sign of `v` (always a `-`, counted only when `v` is negative: one store, no
/// branch) and returns where the magnitude starts.
#[inline(always)]
fn write_sign(v: i64, out: &mut [u8; MAX_INT_LEN]) -> usize {
    out[0] = b'-';
    usize::from(v < 0)
}

/// The portable twin: a two-digit table for blocks of up to four digits, SWAR words for blocks
/// of eight.
pub mod scalar {
    use super::{E8, E16, MAX_INT_LEN, PAIRS};
    use crate::number::ZEROS;

    /// See [`super::format_u64`].
    pub fn format_u64(v: u64, out: &mut [u8; MAX_INT_LEN]) -> usize {
        write_u64(v, out, 0)
    }

    /// See [`super::format_i64`].
    pub fn format_i64(v: i64, out: &mut [u8; MAX_INT_LEN]) -> usize {
        let at = super::write_sign(v, out);
        write_u64(v.unsigned_abs(), out, at)
    }

    /// Writes `v` at `out[at..]` (`at` is 0, or 1 after a sign with `v <= 2^63`); returns the
    /// index past it.
    #[inline(always)]
    fn write_u64(v: u64, out: &mut [u8; MAX_INT_LEN], at: usize) -> usize {
        if v < 10_000 {
            return write_below_e4(v as u32, out, at);
        }
        let len = decimal_len(v);
        if v < E8 {
            write_below_e8(v, len, out, at);
        } else if v < E16 {
            write_below_e8(v / E8, len - 8, out, at);
            store8(ascii8(v % E8), out, at + len - 8);
        } else {
            let rest = v % E16;
            write_below_e8(v / E16, len - 16, out, at);
            store8(ascii8(rest / E8), out, at + len - 16);
            store8(ascii8(rest % E8), out, at + len - 8);
        }
        at + len
    }

    /// The number of decimal digits of `v` (1 for 0), from its bit length: no dependence on
    /// the digit conversion, so the length and every store address are known early.
    #[inline(always)]
    pub(crate) fn decimal_len(v: u64) -> usize {
        // `v | 1` changes nothing for v > 0 (no power of ten above 1 is odd) and counts 0 as
        // one digit.
        let v = v | 1;
        let bits = 64 - v.leading_zeros();
        // bits·1233 / 4096 is ⌊bits·log10(2)⌋, so the length is that or one more.
        let guess = ((bits * 1233) >> 12) as usize;
        guess + usize::from(v >= crate::number::POW10_U64[guess])
    }

    /// Writes `v < 10^4` at `out[at..]` without a branch (one 4-byte store); returns the index
    /// past it.
    #[inline(always)]
    pub(crate) fn write_below_e4(v: u32, out: &mut [u8; MAX_INT_LEN], at: usize) -> usize {
        let len = 1 + usize::from(v >= 10) + usize::from(v >= 100) + usize::from(v >= 1000);
        let ascii = ascii4(v) >> (8 * (4 - len));
        out[at..at + 4].copy_from_slice(&ascii.to_le_bytes());
        at + len
    }

    /// Writes the `len` digits of `v < 10^8` at `out[at..]` (one 4- or 8-byte store).
    #[inline(always)]
    pub(crate) fn write_below_e8(v: u64, len: usize, out: &mut [u8; MAX_INT_LEN], at: usize) {
        if v < 10_000 {
            let ascii = ascii4(v as u32) >> (8 * (4 - len));
            out[at..at + 4].copy_from_slice(&ascii.to_le_bytes());
        } else {
            store8(ascii8(v) >> (8 * (8 - len)), out, at);
        }
    }

    /// `(v / 100, v % 100)` for `v < 10^4`, with one multiply-shift.
    #[inline(always)]
    fn divmod100(v: u32) -> (u32, u32) {
        debug_assert!(v < 10_000);
        let high = (v * ((1 << 19) / 100 + 1)) >> 19;
        (high, v - 100 * high)
    }

    /// The two ASCII digits of `v < 100`, the first in the low byte.
    #[inline(always)]
    fn pair(v: u32) -> u32 {
        let i = 2 * v as usize;
        u32::from(u16::from_le_bytes([PAIRS[i], PAIRS[i + 1]]))
    }

    /// The four ASCII digits of `v < 10^4` (leading zeros included), the first in the low byte.
    #[inline(always)]
    fn ascii4(v: u32) -> u32 {
        let (high, low) = divmod100(v);
        pair(high) | pair(low) << 16
    }

    /// The eight ASCII digits of `v < 10^8` (leading zeros included), the first in the low byte.
    #[inline(always)]
    fn ascii8(v: u64) -> u64 {
        debug_assert!(v < E8);
        // SWAR: each step splits every lane into its quotient (kept in the low half of the
        // lane) and remainder (moved to the high half) by one divisor, using
        // `x + (2^w - d)·q == (x - d·q) + q·2^w` with the quotient `q` from a multiply-shift.
        // Base 10^4: lanes of 32 bits, `v / 10^4` exact for `v < 10^8` with (2^40 / 10^4 + 1).
        let q4 = (v * ((1 << 40) / 10_000 + 1)) >> 40;
        let quads = (v << 32).wrapping_sub(q4 * ((10_000 << 32) - 1));
        // Base 10^2 in both 32-bit lanes: quotient exact below 10^4 with (2^19 / 100 + 1); the
        // mask keeps each lane's 7 quotient bits.
        let q2 = (quads.wrapping_mul((1 << 19) / 100 + 1) >> 19) & 0x0000_007f_0000_007f;
        let pairs = (quads << 16).wrapping_sub(q2 * ((100 << 16) - 1));
        // Base 10 in all four 16-bit lanes: quotient exact below 100 with (2^10 / 10 + 1).
        let q1 = (pairs.wrapping_mul((1 << 10) / 10 + 1) >> 10) & 0x000f_000f_000f_000f;
        let digits = (pairs << 8).wrapping_sub(q1 * ((10 << 8) - 1));
        digits | ZEROS
    }

    /// Stores eight bytes at `out[at..at + 8]`, the low byte first.
    #[inline(always)]
    fn store8(word: u64, out: &mut [u8; MAX_INT_LEN], at: usize) {
        out[at..at + 8].copy_from_slice(&word.to_le_bytes());
    }
}

/// The AVX2 twin: sixteen digits at once in an SSE register for values of nine digits or more.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    use super::scalar::{decimal_len, write_below_e4, write_below_e8};
    use super::{E8, E16, MAX_INT_LEN, write_sign};

    /// See [`super::format_u64`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn format_u64(v: u64, out: &mut [u8; MAX_INT_LEN]) -> usize {
        write_u64(v, out, 0)
    }

    /// See [`super::format_i64`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn format_i64(v: i64, out: &mut [u8; MAX_INT_LEN]) -> usize {
        let at = write_sign(v, out);
        write_u64(v.unsigned_abs(), out, at)
    }

    /// See [`super::scalar::write_u64`].
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn write_u64(v: u64, out: &mut [u8; MAX_INT_LEN], at: usize) -> usize {
        if v < 10_000 {
            return write_below_e4(v as u32, out, at);
        }
        let len = decimal_len(v);
        if v < E16 {
            // Drop the 16 - len leading zeros (at most 11: v has at least five digits).
            let leading_zeros = 16 - len;
            // SAFETY: `leading_zeros <= 11`, so the 16 bytes read lie inside the 32-byte table.
            let control = unsafe { _mm_loadu_si128(SHIFT_DOWN.as_ptr().add(leading_zeros).cast()) };
            store16(_mm_shuffle_epi8(digit_bytes16(v), control), out, at);
        } else {
            write_below_e8(v / E16, len - 16, out, at);
            store16(digit_bytes16(v % E16), out, at + len - 16);
        }
        at + len
    }

    /// Shuffle controls that move lane `j + n` to lane `j` (from index `n`).
    static SHIFT_DOWN: [u8; 32] = {
        let mut table = [0u8; 32];
        let mut k = 0;
        while k < 32 {
            table[k] = (k & 15) as u8;
            k += 1;
        }
        table
    };

    /// Adds ASCII `'0'` to sixteen digit values and stores them at `out[at..at + 16]`.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn store16(digits: __m128i, out: &mut [u8; MAX_INT_LEN], at: usize) {
        let ascii = _mm_add_epi8(digits, _mm_set1_epi8(b'0' as i8));
        let dest: &mut [u8; 16] = (&mut out[at..at + 16]).try_into().expect("16 bytes");
        // SAFETY: `dest` is 16 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm_storeu_si128(dest.as_mut_ptr().cast(), ascii) };
    }

    /// The sixteen decimal digits of `v < 10^16` (with leading zeros), one value (0..=9) per
    /// byte, the most significant in lane 0.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn digit_bytes16(v: u64) -> __m128i {
        let (high, low) = (v / E8, v % E8);
        // Each 64-bit lane x < 10^8 becomes (x % 10^4) | (x / 10^4) << 32, with the quotient
        // from x·(2^40 / 10^4 + 1) >> 40: x + (2^32 - 10^4)·q.
        let halves = _mm_set_epi64x(low as i64, high as i64);
        let div = _mm_srli_epi64::<40>(_mm_mul_epu32(
            halves,
            _mm_set1_epi64x((1 << 40) / 10_000 + 1),
        ));
        let split = _mm_add_epi64(
            halves,
            _mm_mul_epu32(div, _mm_set1_epi64x((1 << 32) - 10_000)),
        );
        // Four-digit groups, most significant in 32-bit lane 0.
        let quads = _mm_shuffle_epi32::<0b10_11_00_01>(split);
        // Each 32-bit lane x < 10^4 becomes (x / 100) | (x % 100) << 16: the quotient from
        // the high half of x·(2^19 / 100 + 1), shifted right 3 more.
        let hundreds = _mm_srli_epi32::<3>(_mm_mulhi_epu16(quads, _mm_set1_epi32(5243)));
        let remainders = _mm_sub_epi16(quads, _mm_mullo_epi16(hundreds, _mm_set1_epi32(100)));
        let pairs = _mm_or_si128(hundreds, _mm_slli_epi32::<16>(remainders));
        // Each 16-bit lane y < 100 becomes (y / 10) | (y % 10) << 8, with y / 10 from the high
        // half of y·(2^16 / 10 + 1): (y << 8) - (10·2^8 - 1)·(y / 10).
        let tens = _mm_mulhi_epu16(pairs, _mm_set1_epi16(6554));
        _mm_sub_epi16(
            _mm_slli_epi16::<8>(pairs),
            _mm_mullo_epi16(tens, _mm_set1_epi16(10 * 256 - 1)),
        )
    }
}

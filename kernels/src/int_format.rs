//! Integer formatting: `u64` / `i64` to decimal ASCII at the start of a 20-byte buffer.
//!
//! Values below 100 come from a two-digit table. Larger values are cut into blocks of eight
//! digits (at most two divisions by a constant), and each block is converted in a register:
//! the scalar twin turns eight digits into one word in SWAR (base 10^4, then 10^2, then 10, each
//! step one multiply-shift for the quotient), the AVX2 twin converts sixteen digits at once in
//! an SSE register. Leading zeros are dropped by shifting the block, never by a loop, so every
//! store is a whole word. Bytes of `out` past the returned length may be overwritten with
//! arbitrary digits.

/// Longest decimal form of a 64-bit integer, sign included (`u64::MAX` has 20 digits,
/// `i64::MIN` has a sign and 19).
pub const MAX_INT_LEN: usize = 20;

/// Writes `v` in decimal to the start of `out`; returns the length.
#[inline]
pub fn format_u64(v: u64, out: &mut [u8; MAX_INT_LEN]) -> usize {
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

/// Writes `v < 100` at `out[at..]`; returns the index past it.
#[inline(always)]
fn write_below_100(v: u64, out: &mut [u8; MAX_INT_LEN], at: usize) -> usize {
    debug_assert!(v < 100);
    if v < 10 {
        out[at] = b'0' + v as u8;
        at + 1
    } else {
        let i = 2 * v as usize;
        out[at..at + 2].copy_from_slice(&PAIRS[i..i + 2]);
        at + 2
    }
}

/// Writes the sign of `v` (always a `-`, counted only when `v` is negative: one store, no
/// branch) and returns where the magnitude starts.
#[inline(always)]
fn write_sign(v: i64, out: &mut [u8; MAX_INT_LEN]) -> usize {
    out[0] = b'-';
    usize::from(v < 0)
}

/// The portable twin: eight digits per SWAR word.
pub mod scalar {
    use super::{E8, E16, MAX_INT_LEN, write_below_100, write_sign};

    /// See [`super::format_u64`].
    pub fn format_u64(v: u64, out: &mut [u8; MAX_INT_LEN]) -> usize {
        write_u64(v, out, 0)
    }

    /// See [`super::format_i64`].
    pub fn format_i64(v: i64, out: &mut [u8; MAX_INT_LEN]) -> usize {
        let at = write_sign(v, out);
        write_u64(v.unsigned_abs(), out, at)
    }

    /// Writes `v` at `out[at..]` (`at` is 0, or 1 after a sign with `v <= 2^63`); returns the
    /// index past it.
    #[inline(always)]
    pub(crate) fn write_u64(v: u64, out: &mut [u8; MAX_INT_LEN], at: usize) -> usize {
        if v < 100 {
            return write_below_100(v, out, at);
        }
        if v < E8 {
            return write_trimmed8(v, out, at);
        }
        if v < E16 {
            let end = write_trimmed8(v / E8, out, at);
            write8(v % E8, out, end);
            return end + 8;
        }
        // 17 to 20 digits: the top one to four, then two full blocks of eight.
        let rest = v % E16;
        let end = write_trimmed8(v / E16, out, at);
        write8(rest / E8, out, end);
        write8(rest % E8, out, end + 8);
        end + 16
    }

    /// The eight decimal digits of `v < 10^8` as one word of digit values (0..=9), the most
    /// significant in the lowest byte.
    #[inline(always)]
    pub(crate) fn digit_lanes8(v: u64) -> u64 {
        debug_assert!(v < super::E8);
        // Each step splits every lane into its quotient (kept in the low half of the lane)
        // and remainder (moved to the high half) by one divisor, using
        // `x + (2^w - d)·q == (x - d·q) + q·2^w` with the quotient `q` from a multiply-shift.
        // Base 10^4: lanes of 32 bits, `v / 10^4` exact for `v < 10^8` with (2^40 / 10^4 + 1).
        let q4 = (v * (((1u64 << 40) / 10_000) + 1)) >> 40;
        let quads = (v << 32).wrapping_sub(q4 * ((10_000 << 32) - 1));
        // Base 10^2 in both 32-bit lanes: quotient exact for lanes below 10^4 with (2^19 / 100
        // + 1); the mask keeps each lane's 7 quotient bits.
        let q2 = (quads.wrapping_mul((1 << 19) / 100 + 1) >> 19) & 0x0000_007f_0000_007f;
        let pairs = (quads << 16).wrapping_sub(q2 * ((100 << 16) - 1));
        // Base 10 in all four 16-bit lanes: quotient exact below 100 with (2^10 / 10 + 1).
        let q1 = (pairs.wrapping_mul((1 << 10) / 10 + 1) >> 10) & 0x000f_000f_000f_000f;
        (pairs << 8).wrapping_sub(q1 * ((10 << 8) - 1))
    }

    /// Writes the eight digits of `v < 10^8` (with leading zeros) at `out[at..at + 8]`.
    #[inline(always)]
    fn write8(v: u64, out: &mut [u8; MAX_INT_LEN], at: usize) {
        let ascii = digit_lanes8(v) | crate::number::ZEROS;
        out[at..at + 8].copy_from_slice(&ascii.to_le_bytes());
    }

    /// Writes the digits of `0 < v < 10^8` without leading zeros at `out[at..]` (one 8-byte
    /// store); returns the index past the last digit.
    #[inline(always)]
    pub(crate) fn write_trimmed8(v: u64, out: &mut [u8; MAX_INT_LEN], at: usize) -> usize {
        debug_assert!(v != 0);
        let lanes = digit_lanes8(v);
        // Leading zero digits are the zero low lanes; shift them out (the high lanes that
        // come in become '0' bytes past the end).
        let leading_zeros = lanes.trailing_zeros() / 8;
        let ascii = (lanes >> (8 * leading_zeros)) | crate::number::ZEROS;
        out[at..at + 8].copy_from_slice(&ascii.to_le_bytes());
        at + 8 - leading_zeros as usize
    }
}

/// The AVX2 twin: sixteen digits at once in an SSE register for values of nine digits or more.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    use super::scalar::write_trimmed8;
    use super::{E8, E16, MAX_INT_LEN, write_below_100, write_sign};

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
        if v < 100 {
            return write_below_100(v, out, at);
        }
        if v < E8 {
            return write_trimmed8(v, out, at);
        }
        if v < E16 {
            let digits = digit_bytes16(v);
            // At least nine digits: lanes 0..=7 hold every possible leading zero.
            let nonzero = !(_mm_movemask_epi8(_mm_cmpeq_epi8(digits, _mm_setzero_si128())) as u32);
            let leading_zeros = nonzero.trailing_zeros() as usize;
            // SAFETY: `leading_zeros <= 7`, so the 16 bytes read lie inside the 32-byte table.
            let control = unsafe { _mm_loadu_si128(SHIFT_DOWN.as_ptr().add(leading_zeros).cast()) };
            store16(_mm_shuffle_epi8(digits, control), out, at);
            return at + 16 - leading_zeros;
        }
        // 17 to 20 digits: the top one to four, then sixteen.
        let end = write_trimmed8(v / E16, out, at);
        store16(digit_bytes16(v % E16), out, end);
        end + 16
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
        let (high, low) = ((v / E8) as u32, (v % E8) as u32);
        // Four-digit groups, most significant in 32-bit lane 0.
        let quads = _mm_setr_epi32(
            (high / 10_000) as i32,
            (high % 10_000) as i32,
            (low / 10_000) as i32,
            (low % 10_000) as i32,
        );
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

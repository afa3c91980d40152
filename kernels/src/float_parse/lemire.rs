//! The Eisel-Lemire algorithm: the correctly rounded `f64` nearest to `w · 10^q` for a 64-bit
//! `w`, from one (rarely two) 64×128-bit products with a truncated power of five, or "cannot
//! decide" in the rare cases too close to a halfway point.
//!
//! This follows the published algorithm (Lemire, "Number Parsing at a Gigabyte per Second",
//! 2021, and Mushtak & Lemire, "Fast number parsing without fallback", 2023) as the Rust
//! standard library implements it in `core::num::dec2flt::lemire`, line for line. The table of
//! powers of five is computed here at compile time, with exact big-integer arithmetic, by the
//! same rule as the reference generator.

/// Smallest decimal exponent with a table entry (below it every `w · 10^q` rounds to zero).
const SMALLEST_POWER_OF_TEN: i64 = -342;
/// Largest decimal exponent with a table entry (above it every `w · 10^q` is infinite).
const LARGEST_POWER_OF_TEN: i64 = 308;
/// Explicit mantissa bits of an `f64`.
const SIG_BITS: i32 = 52;
/// The biased exponent of infinity.
const INFINITE_POWER: i32 = 0x7ff;
/// Exponent bias of the result (the binary exponent of 1.0 is `-MINIMUM_EXPONENT`).
const MINIMUM_EXPONENT: i32 = -1023;
/// Decimal exponents for which a product can be exactly halfway between two floats.
const ROUND_TO_EVEN_EXPONENTS: std::ops::RangeInclusive<i64> = -4..=23;
/// Bits of positive infinity.
pub(super) const INFINITY_BITS: u64 = (INFINITE_POWER as u64) << SIG_BITS;

/// The bits (sign clear) of the `f64` nearest to `w · 10^q`, ties to even, or `None` when the
/// truncated product cannot decide the rounding (the caller must use an exact method).
// Inlined into each twin's parser: as a call it cost parse_number about 9 % on canada's
// floats (kernel bench `float_parse/canada.json/parse_number`).
#[inline]
pub(super) fn compute_float(q: i64, mut w: u64) -> Option<u64> {
    if w == 0 || q < SMALLEST_POWER_OF_TEN {
        return Some(0);
    }
    if q > LARGEST_POWER_OF_TEN {
        return Some(INFINITY_BITS);
    }
    // Normalize the significand so its most significant bit is set.
    let lz = w.leading_zeros();
    w <<= lz;
    let (lo, hi) = compute_product_approx(q, w, SIG_BITS + 3);
    // The truncated product may be one unit short; that is only harmless where 5^q is exact
    // in 128 bits (q in -27..=55).
    if lo == u64::MAX && !(-27..=55).contains(&q) {
        return None;
    }
    let upper_bit = (hi >> 63) as i32;
    let mut mantissa = hi >> (upper_bit + 64 - SIG_BITS - 3);
    let mut power2 = power(q as i32) + upper_bit - lz as i32 - MINIMUM_EXPONENT;
    if power2 <= 0 {
        // Subnormal (or zero): shift into place, round half up on the bit below, then the
        // result may have carried into the smallest normal.
        if -power2 + 1 >= 64 {
            return Some(0);
        }
        mantissa >>= -power2 + 1;
        mantissa += mantissa & 1;
        mantissa >>= 1;
        power2 = (mantissa >= (1 << SIG_BITS)) as i32;
        return Some(mantissa | (power2 as u64) << SIG_BITS);
    }
    // Exactly halfway with an even result below: round down rather than up.
    if lo <= 1
        && ROUND_TO_EVEN_EXPONENTS.contains(&q)
        && mantissa & 0b11 == 0b01
        && (mantissa << (upper_bit + 64 - SIG_BITS - 3)) == hi
    {
        mantissa &= !1;
    }
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if mantissa >= (2 << SIG_BITS) {
        // Rounding carried out of the mantissa: 1.0 times the next power of two.
        mantissa = 1 << SIG_BITS;
        power2 += 1;
    }
    mantissa &= !(1 << SIG_BITS);
    if power2 >= INFINITE_POWER {
        return Some(INFINITY_BITS);
    }
    Some(mantissa | (power2 as u64) << SIG_BITS)
}

/// `⌊log2(10^q)⌋ + 63`, exact over the table's range.
#[inline]
fn power(q: i32) -> i32 {
    (q.wrapping_mul(152_170 + 65536) >> 16) + 63
}

/// The high 128 bits of `w · 5^q` (as `(low, high)` words), precise to `precision` bits of the
/// high word: a second product refines the low word only when the first leaves those bits all
/// ones.
#[inline]
fn compute_product_approx(q: i64, w: u64, precision: i32) -> (u64, u64) {
    let mask = u64::MAX >> precision;
    let (hi5, lo5) = POWERS_OF_FIVE[(q - SMALLEST_POWER_OF_TEN) as usize];
    let (mut first_lo, mut first_hi) = full_multiplication(w, hi5);
    if first_hi & mask == mask {
        let (_, second_hi) = full_multiplication(w, lo5);
        first_lo = first_lo.wrapping_add(second_hi);
        if second_hi > first_lo {
            first_hi += 1;
        }
    }
    (first_lo, first_hi)
}

/// The 128-bit product of two words, as `(low, high)`.
#[inline]
fn full_multiplication(a: u64, b: u64) -> (u64, u64) {
    let product = u128::from(a) * u128::from(b);
    (product as u64, (product >> 64) as u64)
}

/// Number of table entries: one per decimal exponent in `-342..=308`.
const TABLE_LEN: usize = (LARGEST_POWER_OF_TEN - SMALLEST_POWER_OF_TEN + 1) as usize;

/// `5^q` for `q` in `-342..=308` as 128-bit `(high, low)` words, normalized so bit 127 is set:
/// truncated for `q >= 0`; for `q < 0` the reciprocal rounded up, truncated to 128 bits.
pub(super) static POWERS_OF_FIVE: [(u64, u64); TABLE_LEN] = powers_of_five();

/// Limbs of the big integers below (little-endian `u64`s): enough for `5^342` (795 bits).
const POWER_LIMBS: usize = 13;
/// Limbs of `2^RECIPROCAL_BITS`, from which every reciprocal is divided down.
const RECIPROCAL_LIMBS: usize = 28;
/// `2^RECIPROCAL_BITS / 5^k` holds every reciprocal the table needs: the largest is
/// `2^(2·795 + 128) / 5^342`, and 1718 <= 1791.
const RECIPROCAL_BITS: usize = 64 * RECIPROCAL_LIMBS - 1;

/// Builds the table by the reference generator's rule (fast_float's `script/table_generation.py`):
/// for `q >= 0`, `5^q` shifted so its top bit is bit 127, low bits truncated; for `q = -k < 0`,
/// with `z` the bit length of `5^k`, `c = ⌊2^b / 5^k⌋ + 1` where `b = z + 127` (k <= 27, which
/// leaves `c` exactly 128 bits) or `b = 2z + 128` (then `c` truncated to its top 128 bits).
const fn powers_of_five() -> [(u64, u64); TABLE_LEN] {
    let mut table = [(0u64, 0u64); TABLE_LEN];
    let zero_index = (-SMALLEST_POWER_OF_TEN) as usize;
    let mut power = [0u64; POWER_LIMBS];
    power[0] = 1;
    let mut q = 0;
    while q <= LARGEST_POWER_OF_TEN as usize {
        table[zero_index + q] = top_128_bits(&power);
        mul_small(&mut power, 5);
        q += 1;
    }
    // reciprocal = ⌊2^RECIPROCAL_BITS / 5^k⌋, kept exact by dividing by 5 at each step
    // (⌊⌊x⌋ / 5⌋ = ⌊x / 5⌋); then ⌊2^b / 5^k⌋ = ⌊reciprocal / 2^(RECIPROCAL_BITS - b)⌋.
    let mut reciprocal = [0u64; RECIPROCAL_LIMBS];
    reciprocal[RECIPROCAL_LIMBS - 1] = 1 << 63;
    let mut power = [0u64; POWER_LIMBS];
    power[0] = 1;
    let mut k = 1;
    while k <= (-SMALLEST_POWER_OF_TEN) as usize {
        div_small(&mut reciprocal, 5);
        mul_small(&mut power, 5);
        let z = bit_length(&power);
        let b = if k <= 27 { z + 127 } else { 2 * z + 128 };
        let mut c = reciprocal;
        shift_right(&mut c, RECIPROCAL_BITS - b);
        add_one(&mut c);
        table[zero_index - k] = top_128_bits(&c);
        k += 1;
    }
    table
}

/// `x *= m` (the product must fit).
const fn mul_small<const N: usize>(x: &mut [u64; N], m: u64) {
    let mut carry = 0u128;
    let mut i = 0;
    while i < N {
        let t = x[i] as u128 * m as u128 + carry;
        x[i] = t as u64;
        carry = t >> 64;
        i += 1;
    }
    assert!(carry == 0, "big integer overflow");
}

/// `x = ⌊x / d⌋`.
const fn div_small<const N: usize>(x: &mut [u64; N], d: u64) {
    let mut remainder = 0u128;
    let mut i = N;
    while i > 0 {
        i -= 1;
        let t = (remainder << 64) | x[i] as u128;
        x[i] = (t / d as u128) as u64;
        remainder = t % d as u128;
    }
}

/// `x = ⌊x / 2^s⌋`.
const fn shift_right<const N: usize>(x: &mut [u64; N], s: usize) {
    let (words, bits) = (s / 64, s % 64);
    let mut i = 0;
    while i < N {
        let low = if i + words < N { x[i + words] } else { 0 };
        let high = if i + words + 1 < N {
            x[i + words + 1]
        } else {
            0
        };
        x[i] = if bits == 0 {
            low
        } else {
            (low >> bits) | (high << (64 - bits))
        };
        i += 1;
    }
}

/// `x += 1` (must not overflow).
const fn add_one<const N: usize>(x: &mut [u64; N]) {
    let mut i = 0;
    while i < N {
        let (sum, carry) = x[i].overflowing_add(1);
        x[i] = sum;
        if !carry {
            return;
        }
        i += 1;
    }
    panic!("big integer overflow");
}

/// Number of significant bits of `x` (0 for zero).
const fn bit_length<const N: usize>(x: &[u64; N]) -> usize {
    let mut i = N;
    while i > 0 {
        i -= 1;
        if x[i] != 0 {
            return 64 * i + 64 - x[i].leading_zeros() as usize;
        }
    }
    0
}

/// The top 128 bits of `x != 0` as `(high, low)`, left-justified (bit 127 set): shifted up
/// when `x` is shorter, truncated when longer.
const fn top_128_bits<const N: usize>(x: &[u64; N]) -> (u64, u64) {
    let length = bit_length(x);
    let mut top = *x;
    let value = if length > 128 {
        shift_right(&mut top, length - 128);
        (top[1] as u128) << 64 | top[0] as u128
    } else {
        ((x[1] as u128) << 64 | x[0] as u128) << (128 - length)
    };
    ((value >> 64) as u64, value as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries of the reference table (as fast_float's generator script computes them) at
    /// both ends, on both sides of the `k <= 27` rule, and around 10^0.
    #[test]
    fn table_matches_reference_entries() {
        let entry = |q: i64| POWERS_OF_FIVE[(q - SMALLEST_POWER_OF_TEN) as usize];
        assert_eq!(entry(-342), (0xeef453d6923bd65a, 0x113faa2906a13b3f));
        assert_eq!(entry(-28), (0xfd87b5f28300ca0d, 0x8bca9d6e188853fc));
        assert_eq!(entry(-27), (0x9e74d1b791e07e48, 0x775ea264cf55347e));
        assert_eq!(entry(-1), (0xcccccccccccccccc, 0xcccccccccccccccd));
        assert_eq!(entry(0), (0x8000000000000000, 0));
        assert_eq!(entry(1), (0xa000000000000000, 0));
        assert_eq!(entry(308), (0x8e679c2f5e44ff8f, 0x570f09eaa7ea7648));
    }
}

//! Clean blocks: the 64-byte blocks of well-formed JSON text that a compact rewrite (as
//! `serde_json` writes the value it parses) copies with only their whitespace dropped,
//! copied one after another until a block needs more.
//!
//! A walk starts at a token's start, outside every string. Each step classifies the block at
//! hand ([`byte_classes`](crate::byte_classes)) and takes a prefix of it: the whole block,
//! or the bytes up to the opening quote of a string the block leaves open, and up to the start
//! of a number token the block's end may cut, so that the next step starts at a token's start
//! again. The step drops the taken bytes' whitespace outside strings and appends the rest.
//! The walk stops, before the block, when fewer than [`BLOCK`] bytes are left, when the block
//! holds a backslash, when its taken part holds a number token that is not in its written
//! form (a fraction or an exponent, more than 18 digits, or `-0`), or when nothing can be
//! taken. The caller rewrites what follows token by token.
//!
//! Both twins make the same decisions from the same classes; only the classification, the
//! prefix XOR and the appending differ.

use crate::byte_classes::{BLOCK, ByteClasses};

/// Copies the clean blocks of `raw` from `start` (a token's start outside every string) to
/// `out`, without their whitespace outside strings (see the module docs). Returns how many
/// input bytes were consumed: 0 when the block at `start` is not clean.
#[inline]
pub fn copy_clean_blocks(raw: &[u8], start: usize, out: &mut Vec<u8>) -> usize {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::copy_clean_blocks(raw, start, out) };
    }
    scalar::copy_clean_blocks(raw, start, out)
}

/// What one step takes of a block with classes `c`, whose bytes inside strings (opening
/// quotes included, closing ones not) are `inside`: the number of bytes taken and the mask
/// of those to append, or `None` when the block is not clean.
#[inline(always)]
fn take_of(c: &ByteClasses, inside: u64) -> Option<(usize, u64)> {
    if c.backslash != 0 {
        return None;
    }
    let outside = !inside & !c.quote;
    let mut take = if inside >> (BLOCK - 1) != 0 {
        // A string opens at the block's last quote and does not close in it.
        (BLOCK - 1) - c.quote.leading_zeros() as usize
    } else {
        BLOCK
    };
    let numeric = outside & (c.digit | c.minus | c.fraction_or_exponent | c.small_e);
    if take > 0 && numeric >> (take - 1) & 1 != 0 {
        // A number token (or `true`'s `e`) ends the part taken: leave it to the next step.
        let others = !numeric & below(take);
        take = BLOCK - others.leading_zeros() as usize;
    }
    let taken = below(take);
    if take == 0 || needs_rewrite(c, taken & outside) {
        return None;
    }
    Some((take, taken & !(c.whitespace & outside)))
}

/// Whether a number token in the `region` bits of a block is not in its written form: it has
/// a fraction or an exponent (`e` right after a digit), more than 18 digits, or is `-0`.
#[inline(always)]
fn needs_rewrite(c: &ByteClasses, region: u64) -> bool {
    let exponent = c.small_e & c.digit << 1;
    let minus_zero = c.minus & c.zero >> 1;
    (c.fraction_or_exponent | exponent | minus_zero) & region != 0
        || has_19_digits(c.digit & region)
}

/// Whether `digits` has 19 set bits in a row. Most blocks have fewer than 19 in all.
#[inline(always)]
fn has_19_digits(digits: u64) -> bool {
    if digits.count_ones() < 19 {
        return false;
    }
    // Bit `k` of `at_least_n` is set when bits `k..k + n` are all set.
    let at_least_2 = digits & digits >> 1;
    let at_least_4 = at_least_2 & at_least_2 >> 2;
    let at_least_8 = at_least_4 & at_least_4 >> 4;
    let at_least_16 = at_least_8 & at_least_8 >> 8;
    at_least_16 & at_least_16 >> 3 != 0
}

/// The bits below bit `n` (all 64 for `n = 64`).
#[inline(always)]
fn below(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The portable twin: the scalar classification and appending, the prefix XOR by shifts.
pub mod scalar {
    use super::take_of;
    use crate::byte_classes::{BLOCK, scalar};

    /// See [`super::copy_clean_blocks`].
    pub fn copy_clean_blocks(raw: &[u8], start: usize, out: &mut Vec<u8>) -> usize {
        let mut i = start;
        while let Some(block) = raw.get(i..).and_then(|rest| rest.first_chunk::<BLOCK>()) {
            let c = scalar::classify(block);
            let Some((take, keep)) = take_of(&c, prefix_xor(c.quote)) else {
                break;
            };
            scalar::append_kept(block, keep, out);
            i += take;
        }
        i - start
    }

    /// Bit `k` set when an odd number of bits `0..=k` of `x` are.
    fn prefix_xor(mut x: u64) -> u64 {
        for shift in [1, 2, 4, 8, 16, 32] {
            x ^= x << shift;
        }
        x
    }
}

/// The AVX2 twin: the whole walk in one function with AVX2 enabled, so the classification
/// and the appending are inlined into it; the prefix XOR is a carry-less multiply.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::take_of;
    use crate::byte_classes::{BLOCK, avx2};
    use crate::string_mask::prefix_xor;

    /// See [`super::copy_clean_blocks`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn copy_clean_blocks(raw: &[u8], start: usize, out: &mut Vec<u8>) -> usize {
        let mut i = start;
        while let Some(block) = raw.get(i..).and_then(|rest| rest.first_chunk::<BLOCK>()) {
            // SAFETY: AVX2 is enabled here (this function's own precondition).
            let c = unsafe { avx2::classify(block) };
            let Some((take, keep)) = take_of(&c, prefix_xor(c.quote)) else {
                break;
            };
            // SAFETY: AVX2 is enabled here, all these two functions require; `window` and
            // `block` are whole chunks of `raw`, so neither reads outside it.
            unsafe {
                match raw[i..].first_chunk::<{ 2 * BLOCK }>() {
                    Some(window) => avx2::append_kept_ahead(window, keep, out),
                    None => avx2::append_kept(block, keep, out),
                }
            }
            i += take;
        }
        i - start
    }
}

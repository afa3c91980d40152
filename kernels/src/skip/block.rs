//! AVX2 pieces of the skips: the unchecked container walk, and two inline fast paths of the
//! validating skip (a short plain string, a short whitespace run) that answer the common
//! cases without a kernel call and never change a result.
//!
//! The container walk goes 64 bytes per step, simdjson style: per block,
//! [`StringTracker`] gives the masks of escaped bytes and of bytes inside strings; brackets
//! outside strings and not escaped are counted with `popcnt`, and only a block whose closing
//! brackets could bring the depth to 0 is walked bracket by bracket.

use std::arch::x86_64::*;

use crate::error::{ErrorKind, KernelError};
use crate::simd::{CHUNK, control_mask, eq_mask, load32, whitespace_mask};
use crate::string_mask::StringTracker;

/// Bytes per block.
const BLOCK: usize = 2 * CHUNK;

/// One 64-byte block of the input, bytes past the end of the slice reading as spaces.
struct Block {
    lo: __m256i,
    hi: __m256i,
}

impl Block {
    /// The block of `buf` starting at `i`.
    ///
    /// # Safety
    /// The CPU must support AVX2. `i <= buf.len()`.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    unsafe fn load(buf: &[u8], i: usize) -> Block {
        // Space is neither a quote, a backslash nor a bracket: padding changes no mask.
        // SAFETY: `i <= buf.len()` and AVX2 is enabled; `load32` reads only inside `buf`.
        let lo = unsafe { load32(buf, i, b' ') };
        let hi_start = (i + CHUNK).min(buf.len());
        // SAFETY: as above, `hi_start <= buf.len()`; when `i + 32` is past the end every
        // byte of the high half is padding, which `load32` gives for an empty rest.
        let hi = unsafe { load32(buf, hi_start, b' ') };
        Block { lo, hi }
    }

    /// Bit `k` set when byte `k` equals `b`.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn eq(&self, b: u8) -> u64 {
        let needle = _mm256_set1_epi8(b as i8);
        let lo = _mm256_movemask_epi8(_mm256_cmpeq_epi8(self.lo, needle)) as u32;
        let hi = _mm256_movemask_epi8(_mm256_cmpeq_epi8(self.hi, needle)) as u32;
        u64::from(lo) | (u64::from(hi) << 32)
    }

    /// Bit `k` set when byte `k` OR 0x20 equals `folded`: `[`/`{` for 0x7b, `]`/`}` for 0x7d
    /// (no other byte folds onto those two).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn eq_folded(&self, folded: u8) -> u64 {
        let case = _mm256_set1_epi8(0x20);
        let needle = _mm256_set1_epi8(folded as i8);
        let lo = _mm256_or_si256(self.lo, case);
        let hi = _mm256_or_si256(self.hi, case);
        let lo = _mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, needle)) as u32;
        let hi = _mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, needle)) as u32;
        u64::from(lo) | (u64::from(hi) << 32)
    }
}

/// The closing quote of the string body starting at `start` when it lies in the 32 bytes
/// from `start` and every byte before it is ASCII from 0x20 up, other than `\`.
///
/// # Safety
/// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
pub(super) unsafe fn plain_string_end(buf: &[u8], start: usize) -> Option<usize> {
    if start > buf.len() {
        return None;
    }
    // Padding 0xff is special but not a quote: a first special byte that is a quote lies
    // inside the slice.
    // SAFETY: AVX2 is enabled and `start <= buf.len()`.
    let v = unsafe { load32(buf, start, 0xff) };
    let quotes = eq_mask(v, b'"');
    let special = quotes | eq_mask(v, b'\\') | control_mask(v) | _mm256_movemask_epi8(v) as u32;
    let first = special & special.wrapping_neg();
    (quotes & first != 0).then(|| start + first.trailing_zeros() as usize)
}

/// The first non-whitespace index in the 32 bytes from `pos`, if there is one.
///
/// # Safety
/// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
pub(super) unsafe fn short_whitespace_end(buf: &[u8], pos: usize) -> Option<usize> {
    if buf.len().saturating_sub(pos) < CHUNK {
        return None;
    }
    // SAFETY: AVX2 is enabled and `pos + 32 <= buf.len()`.
    let v = unsafe { load32(buf, pos, b' ') };
    let other = !whitespace_mask(v);
    (other != 0).then(|| pos + other.trailing_zeros() as usize)
}

/// Rule 3 of the unchecked skip (see the parent module): the index just past the container
/// whose opening bracket is at `open`.
///
/// # Safety
/// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
pub(super) unsafe fn skip_container(buf: &[u8], open: usize) -> Result<usize, KernelError> {
    let mut strings = StringTracker::default();
    // Depth before the current block (the opening bracket is counted in the first block).
    let mut depth = 0u64;
    let mut i = open;
    while i < buf.len() {
        // SAFETY: AVX2 is enabled and `i < buf.len()`.
        let block = unsafe { Block::load(buf, i) };
        let (in_string, escaped) = strings.next(block.eq(b'"'), block.eq(b'\\'));
        let structural = !(in_string | escaped);
        let opens = block.eq_folded(b'{') & structural;
        let closes = block.eq_folded(b'}') & structural;
        let n_closes = u64::from(closes.count_ones());
        if n_closes >= depth
            && let Some(k) = closing_bracket(depth, opens, closes)
        {
            return Ok(i + k + 1);
        }
        depth = depth + u64::from(opens.count_ones()) - n_closes;
        i += BLOCK;
    }
    Err(KernelError::new(ErrorKind::UnexpectedEnd, buf.len()))
}

/// The position in the block of the closing bracket that brings `depth` (the depth before the
/// block) to 0, if any.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
fn closing_bracket(depth: u64, opens: u64, closes: u64) -> Option<usize> {
    let mut rest = closes;
    let mut closed = 0u64;
    while rest != 0 {
        let k = rest.trailing_zeros();
        closed += 1;
        let opened_before = u64::from((opens & ((1u64 << k) - 1)).count_ones());
        if depth + opened_before == closed {
            return Some(k as usize);
        }
        rest &= rest - 1;
    }
    None
}

//! Shared AVX2 building blocks: bounded 32-byte loads and byte-class masks.
//!
//! Every AVX2 kernel reads its input only through [`load32`], which never touches a byte
//! outside the slice (a full chunk is loaded in place, and a short tail is first copied into a
//! 32-byte stack block filled with a caller-chosen padding byte), or through [`load_full`] for
//! chunks it has checked are whole (kernels that hand their tail to the scalar twin).

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::*;

/// Width of one AVX2 chunk in bytes.
pub(crate) const CHUNK: usize = 32;

/// Loads the 32 bytes of `buf` starting at `i`; bytes past the end of `buf` read as `pad`.
///
/// # Safety
/// The CPU must support AVX2. `i <= buf.len()`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn load32(buf: &[u8], i: usize, pad: u8) -> __m256i {
    debug_assert!(i <= buf.len());
    if buf.len() - i >= CHUNK {
        // SAFETY: `i + 32 <= buf.len()`, so the 32 bytes read are inside `buf`; `loadu`
        // has no alignment requirement.
        unsafe { _mm256_loadu_si256(buf.as_ptr().add(i).cast()) }
    } else {
        let mut block = [pad; CHUNK];
        let rest = &buf[i..];
        block[..rest.len()].copy_from_slice(rest);
        // SAFETY: `block` is a local 32-byte array.
        unsafe { _mm256_loadu_si256(block.as_ptr().cast()) }
    }
}

/// Loads the 32 bytes of `buf` starting at `i`, which must all be inside `buf`.
///
/// # Safety
/// The CPU must support AVX2, and `i + 32 <= buf.len()`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn load_full(buf: &[u8], i: usize) -> __m256i {
    debug_assert!(i + CHUNK <= buf.len());
    // SAFETY: the caller guarantees the 32 bytes at `i` are inside `buf`; `loadu` has no
    // alignment requirement.
    unsafe { _mm256_loadu_si256(buf.as_ptr().add(i).cast()) }
}

/// Bit `k` set when byte `k` of `v` equals `b`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn eq_mask(v: __m256i, b: u8) -> u32 {
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b as i8))) as u32
}

/// Bit `k` set when byte `k` of `v` is below 0x20 (a JSON control byte).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn control_mask(v: __m256i) -> u32 {
    let limit = _mm256_set1_epi8(0x1f);
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, limit), limit)) as u32
}

/// Bit `k` set when byte `k` of `v` is a separator, `[`, `]`, `{`, `}`, `,` or `:`, or one of
/// the control bytes 0x0c and 0x1a, which this one-shuffle test cannot tell from `,` and `:`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn separator_mask(v: __m256i) -> u32 {
    // The low nibble selects the one separator that the byte OR 0x20 can equal: `:` (0xa),
    // `{` (0xb, also `[` | 0x20), `,` (0xc), `}` (0xd, also `]` | 0x20); the other entries
    // hold 0, which no byte OR 0x20 equals (pshufb gives 0 for bytes with the high bit set).
    let table = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3a, 0x7b, 0x2c, 0x7d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x3a, 0x7b, 0x2c, 0x7d, 0, 0,
    );
    let folded = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(table, v), folded)) as u32
}

/// Bit `k` set when byte `k` of `v` is JSON whitespace (space, tab, line feed, carriage return).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn whitespace_mask(v: __m256i) -> u32 {
    // One shuffle lookup: the low nibble selects a table entry that holds the only
    // whitespace byte with that low nibble; a byte is whitespace iff it equals its entry.
    // ' ' = 0x20 (nibble 0), '\t' = 0x09 (9), '\n' = 0x0a (a), '\r' = 0x0d (d). Entries for
    // other nibbles hold 0xff, which no byte with that nibble can equal after the shuffle
    // (pshufb yields 0 for bytes with the high bit set, and 0 != 0xff).
    let table = _mm256_setr_epi8(
        0x20, -1, -1, -1, -1, -1, -1, -1, -1, 0x09, 0x0a, -1, -1, 0x0d, -1, -1, 0x20, -1, -1, -1,
        -1, -1, -1, -1, -1, 0x09, 0x0a, -1, -1, 0x0d, -1, -1,
    );
    let expected = _mm256_shuffle_epi8(table, v);
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(expected, v)) as u32
}

//! Whitespace skipping: the index of the first non-whitespace byte at or after a position.
//!
//! JSON whitespace is space, tab, line feed and carriage return. Both twins return the same
//! index for every input; positions at or past the end are returned unchanged.

/// Whitespace bytes [`skip_whitespace`] looks at inline before it calls the kernel.
const SHORT_RUN: usize = 64;

/// Skips JSON whitespace in `buf` from `pos`; returns the first index `>= pos` whose byte is
/// not whitespace, or `buf.len()` when only whitespace remains (`pos` itself if `pos >=
/// buf.len()`).
#[inline]
pub fn skip_whitespace(buf: &[u8], pos: usize) -> usize {
    // Most values are preceded by no or one whitespace byte: answer those without a call.
    match buf.get(pos) {
        None => return pos,
        Some(&b) if !is_whitespace(b) => return pos,
        _ => {}
    }
    // Short runs (the space after a colon, a line break and its indentation) end within
    // a few inline steps, also without a call.
    if let Some(end) = short_run_end(buf, pos) {
        return end;
    }
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::skip_whitespace(buf, pos) };
    }
    scalar::skip_whitespace(buf, pos)
}

/// The index of the first non-whitespace byte when it comes within [`SHORT_RUN`] bytes of
/// `pos` and whole steps of input are left up to it; `None` otherwise (the caller goes on
/// from `pos`). 16 bytes a step with SSE2 (part of the x86-64 baseline: no dispatch), 8 in
/// SWAR words elsewhere and under Miri.
#[inline(always)]
fn short_run_end(buf: &[u8], pos: usize) -> Option<usize> {
    let mut i = pos;
    while i - pos < SHORT_RUN {
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        {
            use std::arch::x86_64::{
                _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
            };
            let chunk = buf.get(i..i + 16)?;
            // SAFETY: SSE2 is part of the x86-64 baseline; the unaligned load reads exactly
            // the 16 bytes of `chunk`.
            let mask = unsafe {
                let x = _mm_loadu_si128(chunk.as_ptr().cast());
                let eq = |b: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(b as i8));
                let ws = _mm_or_si128(
                    _mm_or_si128(eq(b' '), eq(b'\n')),
                    _mm_or_si128(eq(b'\r'), eq(b'\t')),
                );
                _mm_movemask_epi8(ws) as u32
            };
            if mask != 0xffff {
                return Some(i + (!mask).trailing_zeros() as usize);
            }
            i += 16;
        }
        #[cfg(not(all(target_arch = "x86_64", not(miri))))]
        {
            let word = buf.get(i..i + 8)?;
            let w = crate::swar::load(word.try_into().expect("an 8-byte slice"));
            let other = !crate::swar::whitespace_lanes(w) & 0x8080_8080_8080_8080;
            if other != 0 {
                return Some(i + crate::swar::first_lane(other));
            }
            i += 8;
        }
    }
    None
}

/// True for the four JSON whitespace bytes.
#[inline]
pub const fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// How many bytes of `text` are JSON whitespace (inside strings or not). Counted in a byte
/// per 255-byte piece, which the compiler turns into vector compares and byte adds (a
/// `usize` count ran at about a byte a cycle); one implementation serves both twins.
#[inline]
pub fn count_whitespace(text: &[u8]) -> usize {
    text.chunks(usize::from(u8::MAX))
        .map(|piece| {
            let count = (piece.iter()).fold(0u8, |n, &b| n + u8::from(is_whitespace(b)));
            usize::from(count)
        })
        .sum()
}

/// The portable twin.
pub mod scalar {
    use super::is_whitespace;

    /// See [`super::skip_whitespace`].
    pub fn skip_whitespace(buf: &[u8], pos: usize) -> usize {
        let mut i = pos;
        while i < buf.len() && is_whitespace(buf[i]) {
            i += 1;
        }
        i.max(pos)
    }
}

/// The AVX2 implementation: 32 bytes per step, classified with one shuffle.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use crate::simd::{CHUNK, load32, whitespace_mask};

    /// See [`super::skip_whitespace`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn skip_whitespace(buf: &[u8], pos: usize) -> usize {
        let mut i = pos;
        while i < buf.len() {
            // Padding 'x' is not whitespace, so a tail chunk stops at the end of input.
            // SAFETY: AVX2 is enabled on this function and `i < buf.len()`.
            let v = unsafe { load32(buf, i, b'x') };
            let other = !whitespace_mask(v);
            if other != 0 {
                return (i + other.trailing_zeros() as usize).min(buf.len());
            }
            i += CHUNK;
        }
        i.min(buf.len()).max(pos)
    }
}

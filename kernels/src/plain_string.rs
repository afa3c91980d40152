//! The end of a short string without escapes, found inline: most member keys and many
//! values are a few bytes of plain text, and answering them without a call to
//! [`crate::string_scan`] is what a copying writer needs.
//!
//! Well-formed text has no raw control byte in a string, so the first `"` or `\` after the
//! opening quote says everything: a quote ends a plain string, a backslash starts an escape.
//! One implementation serves every CPU (like the whitespace kernel's inline prelude): 16
//! bytes a step with SSE2, part of the x86-64 baseline, and 8-byte SWAR words elsewhere and
//! under Miri. It never reads past the slice: a step that does not fit gives up.

/// Bytes of string body looked at before giving up.
const WINDOW: usize = 64;

/// The index of the closing quote of the string whose body starts at `start` (just after
/// its opening quote), when it comes before any backslash and within a few whole steps of
/// input; `None` otherwise: a backslash first, a longer body, or the input's end within
/// the last step (the caller then scans the string with [`crate::string_scan`]).
#[inline(always)]
pub fn plain_string_end(buf: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    while i - start < WINDOW {
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
                let stops = _mm_or_si128(
                    _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8)),
                    _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8)),
                );
                _mm_movemask_epi8(stops) as u32
            };
            if mask != 0 {
                let at = i + mask.trailing_zeros() as usize;
                return (buf[at] == b'"').then_some(at);
            }
            i += 16;
        }
        #[cfg(not(all(target_arch = "x86_64", not(miri))))]
        {
            let word = buf.get(i..i + 8)?;
            let w = crate::swar::load(word.try_into().expect("an 8-byte slice"));
            let stops = crate::swar::eq_lanes(w, b'"') | crate::swar::eq_lanes(w, b'\\');
            if stops != 0 {
                let at = i + crate::swar::first_lane(stops);
                return (buf[at] == b'"').then_some(at);
            }
            i += 8;
        }
    }
    None
}

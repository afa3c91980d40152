//! Minify: JSON text with the whitespace between its tokens dropped and every token kept
//! byte for byte (numbers as written, strings with their escapes).
//!
//! A byte is dropped when it is whitespace (space, tab, line feed, carriage return) outside
//! every string. Whether a byte is inside a string follows the quotes that are not escaped,
//! and a byte is escaped when it follows an odd-length run of backslashes, wherever the run
//! is. For well-formed JSON that is exactly the whitespace between tokens. For any other text
//! the same rule still applies, so both twins give the same bytes on every input, and
//! neither reads past the text's end.
//!
//! [`minify_checked`] also tells whether the whitespace it dropped kept tokens apart: it did unless
//! some run of dropped bytes lay between two [scalar bytes](is_scalar), bytes that can belong to
//! one number or literal (`1 2` gives `12`, `tr ue` gives `true`). When the output is valid JSON
//! and the runs kept tokens apart, the text was valid JSON with the same value: the output's
//! strings are the text's (a dropped byte right after a backslash would leave that backslash
//! outside every string of the output, which valid JSON has none of, so each quote is escaped alike
//! in both), so every dropped run lay outside strings and between two tokens. The engine's
//! transcode of pretty-printed input validates the output instead of the text for it
//! ([`minify_checked`]).

use crate::whitespace::is_whitespace;

/// Appends `text` to `out` without the whitespace outside its strings (see the module docs).
#[inline]
pub fn minify(text: &[u8], out: &mut Vec<u8>) {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::minify(text, out) };
    }
    scalar::minify(text, out)
}

/// [`minify`], and whether the dropped whitespace kept tokens apart (no dropped run between
/// two [scalar bytes](is_scalar); see the module docs).
#[inline]
pub fn minify_checked(text: &[u8], out: &mut Vec<u8>) -> bool {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::minify_checked(text, out) };
    }
    scalar::minify_checked(text, out)
}

/// Whether `b` is a scalar byte, one that a number or literal token could hold: any byte but
/// whitespace, a quote and the separators `[ ] { } , :`. The form feed (0x0c) and 0x1a count
/// as separators too, as the AVX2 twin's one-shuffle test finds them; neither can stand
/// outside a string in JSON, so the check's conclusion does not depend on them.
#[inline(always)]
pub fn is_scalar(b: u8) -> bool {
    !(is_whitespace(b)
        || matches!(
            b,
            b'"' | b'[' | b']' | b'{' | b'}' | b',' | b':' | 0x0c | 0x1a
        ))
}

/// The portable twin: one byte at a time, each run of kept bytes copied in one piece.
pub mod scalar {
    use super::{is_scalar, is_whitespace};

    /// See [`super::minify`].
    pub fn minify(text: &[u8], out: &mut Vec<u8>) {
        minify_checked(text, out);
    }

    /// See [`super::minify_checked`].
    pub fn minify_checked(text: &[u8], out: &mut Vec<u8>) -> bool {
        out.reserve(text.len());
        let mut in_string = false;
        // Whether the byte at hand follows an odd-length run of backslashes.
        let mut escaped = false;
        // `text[run..i]` is kept and not yet copied.
        let mut run = 0;
        // Whether the last kept byte is a scalar byte, and whether bytes were dropped since.
        let (mut after_scalar, mut dropped) = (false, false);
        let mut apart = true;
        for (i, &b) in text.iter().enumerate() {
            let is_escaped = escaped;
            escaped = b == b'\\' && !is_escaped;
            if b == b'"' && !is_escaped {
                in_string = !in_string;
            } else if !in_string && is_whitespace(b) {
                out.extend_from_slice(&text[run..i]);
                run = i + 1;
                dropped = true;
                continue;
            }
            let scalar = is_scalar(b);
            apart &= !(dropped && after_scalar && scalar);
            (after_scalar, dropped) = (scalar, false);
        }
        out.extend_from_slice(&text[run..]);
        apart
    }
}

/// The AVX2 twin: 64 bytes per step, their string state from the masks of escaped bytes and
/// of unescaped quotes (simdjson's scheme, as the unchecked skip uses it), the kept bytes
/// written with [`byte_classes`](crate::byte_classes)' compaction straight after the bytes
/// kept so far (room for the whole output and one block more is reserved once). Blocks are
/// classified, and checked for dropped runs between scalar bytes (`Joins`), four at a
/// time before the four are compacted: one block at a time, the loop ran out of registers
/// and carried the check's state through the stack (minify 40 % slower than without the
/// check; in fours, 13 %).
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use crate::byte_classes::BLOCK;
    use crate::byte_classes::avx2::compress;
    use crate::simd::{CHUNK, eq_mask, load_full, separator_mask, whitespace_mask};
    use crate::string_mask::StringTracker;

    /// See [`super::minify`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn minify(text: &[u8], out: &mut Vec<u8>) {
        minify_blocks::<false>(text, out);
    }

    /// See [`super::minify_checked`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn minify_checked(text: &[u8], out: &mut Vec<u8>) -> bool {
        minify_blocks::<true>(text, out)
    }

    /// Minifies `text` into `out`; with `CHECK`, returns whether the dropped whitespace kept
    /// tokens apart (else true).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn minify_blocks<const CHECK: bool>(text: &[u8], out: &mut Vec<u8>) -> bool {
        // Each block writes `BLOCK` bytes from where the kept bytes end, which is at most
        // `text.len()` bytes past the vector's end.
        out.reserve(text.len() + BLOCK);
        let dst = out.spare_capacity_mut().as_mut_ptr().cast::<u8>();
        let mut strings = StringTracker::default();
        let mut joins = Joins::default();
        let mut written = 0;
        let mut blocks = text.chunks_exact(BLOCK);
        loop {
            // Up to `BATCH` whole blocks and the masks of their bytes to drop.
            let mut batch = [(&[0u8; BLOCK], 0u64); BATCH];
            let mut n = 0;
            while n < BATCH {
                let Some(block) = blocks.next() else { break };
                let block = block.first_chunk::<BLOCK>().expect("a whole block");
                let (dropped, scalar) = classes(&mut strings, block);
                if CHECK {
                    joins.next(dropped, scalar);
                }
                batch[n] = (block, dropped);
                n += 1;
            }
            for &(block, dropped) in &batch[..n] {
                // SAFETY: AVX2 is enabled here (this function's own precondition). At most the
                // bytes before this block were kept, so `written + BLOCK <= text.len() + BLOCK`
                // bytes from `dst` lie in the capacity reserved above.
                unsafe { written += compress(block, !dropped, dst.add(written)) };
            }
            if n < BATCH {
                break;
            }
        }
        // The last partial block, from a copy padded with spaces that are never kept.
        let rest = blocks.remainder();
        if !rest.is_empty() {
            let mut block = [b' '; BLOCK];
            block[..rest.len()].copy_from_slice(rest);
            let valid = u64::MAX >> (BLOCK - rest.len());
            // SAFETY: as for the whole blocks above.
            unsafe {
                let (dropped, scalar) = classes(&mut strings, &block);
                let (dropped, scalar) = (dropped & valid, scalar & valid);
                if CHECK {
                    joins.next(dropped, scalar);
                }
                written += compress(&block, !dropped & valid, dst.add(written));
            }
        }
        // SAFETY: the first `written` bytes of the spare capacity were written above: each
        // block's kept bytes land right after the previous block's, and a later store
        // starts at or after the end of every earlier block's kept bytes.
        unsafe { out.set_len(out.len() + written) };
        joins.found == 0
    }

    /// Blocks classified before any of them is compacted.
    const BATCH: usize = 4;

    /// The masks of the bytes of `block` to drop (whitespace outside strings) and of its
    /// [scalar bytes](super::is_scalar).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn classes(strings: &mut StringTracker, block: &[u8; BLOCK]) -> (u64, u64) {
        // SAFETY: AVX2 is enabled here and both halves lie inside the 64-byte block.
        let (low, high) = unsafe { (load_full(block, 0), load_full(block, CHUNK)) };
        let join = |low: u32, high: u32| u64::from(low) | u64::from(high) << 32;
        let quote = join(eq_mask(low, b'"'), eq_mask(high, b'"'));
        let backslash = join(eq_mask(low, b'\\'), eq_mask(high, b'\\'));
        let whitespace = join(whitespace_mask(low), whitespace_mask(high));
        let separator = join(separator_mask(low), separator_mask(high));
        let (in_string, _escaped) = strings.next(quote, backslash);
        (whitespace & !in_string, !(whitespace | quote | separator))
    }

    /// Finds runs of dropped bytes between two scalar bytes, block after block.
    #[derive(Default)]
    struct Joins {
        /// 1 when the previous block's last byte is a scalar byte.
        scalar_last: u64,
        /// 1 when a dropped run that follows a scalar byte reached the previous block's end.
        open_run: u64,
        /// Bits set where such a run ended at a scalar byte, over every block so far.
        found: u64,
    }

    impl Joins {
        /// Takes the next block's masks of dropped bytes and of scalar bytes (never dropped).
        #[inline(always)]
        fn next(&mut self, dropped: u64, scalar: u64) {
            // The first bytes of the runs that follow a scalar byte.
            let starts = dropped & (scalar << 1 | self.scalar_last);
            // Adding a run's first bit carries through the run to the byte after it, which
            // is then the only bit of its span set; a run open from the previous block gets
            // its carry at bit 0 (bit 0 itself when that run ended with the block).
            let (sum, first) = dropped.overflowing_add(starts);
            let (sum, second) = sum.overflowing_add(self.open_run);
            self.found |= sum & !dropped & scalar;
            self.open_run = u64::from(first | second);
            self.scalar_last = scalar >> 63;
        }
    }
}

//! Minify: JSON text with the whitespace between its tokens dropped and every token kept
//! byte for byte (numbers as written, strings with their escapes).
//!
//! A byte is dropped when it is whitespace (space, tab, line feed, carriage return) outside
//! every string. Whether a byte is inside a string follows the quotes that are not escaped,
//! and a byte is escaped when it follows an odd-length run of backslashes, wherever the run
//! is. For well-formed JSON that is exactly the whitespace between tokens. For any other text
//! the same rule still applies, so both twins give the same bytes on every input, and
//! neither reads past the text's end.

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

/// Whether `b` is JSON whitespace.
#[inline(always)]
fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The portable twin: one byte at a time, each run of kept bytes copied in one piece.
pub mod scalar {
    use super::is_whitespace;

    /// See [`super::minify`].
    pub fn minify(text: &[u8], out: &mut Vec<u8>) {
        out.reserve(text.len());
        let mut in_string = false;
        // Whether the byte at hand follows an odd-length run of backslashes.
        let mut escaped = false;
        // `text[run..i]` is kept and not yet copied.
        let mut run = 0;
        for (i, &b) in text.iter().enumerate() {
            let is_escaped = escaped;
            escaped = b == b'\\' && !is_escaped;
            if b == b'"' && !is_escaped {
                in_string = !in_string;
            } else if !in_string && is_whitespace(b) {
                out.extend_from_slice(&text[run..i]);
                run = i + 1;
            }
        }
        out.extend_from_slice(&text[run..]);
    }
}

/// The AVX2 twin: 64 bytes per step, their string state from the masks of escaped bytes and
/// of unescaped quotes (simdjson's scheme, as the unchecked skip uses it), the kept bytes
/// written with [`byte_classes`](crate::byte_classes)' compaction straight after the bytes
/// kept so far (room for the whole output and one block more is reserved once).
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use crate::byte_classes::BLOCK;
    use crate::byte_classes::avx2::compress;
    use crate::simd::{CHUNK, eq_mask, load_full, whitespace_mask};
    use crate::string_mask::StringTracker;

    /// See [`super::minify`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn minify(text: &[u8], out: &mut Vec<u8>) {
        // Each block writes `BLOCK` bytes from where the kept bytes end, which is at most
        // `text.len()` bytes past the vector's end.
        out.reserve(text.len() + BLOCK);
        let dst = out.spare_capacity_mut().as_mut_ptr().cast::<u8>();
        let mut strings = StringTracker::default();
        let mut written = 0;
        let mut blocks = text.chunks_exact(BLOCK);
        for block in &mut blocks {
            let block = block.first_chunk::<BLOCK>().expect("a whole block");
            // SAFETY: AVX2 is enabled here (this function's own precondition). At most the
            // bytes before this block were kept, so `written + BLOCK <= text.len() + BLOCK`
            // bytes from `dst` lie in the capacity reserved above.
            unsafe {
                let keep = kept(&mut strings, block);
                written += compress(block, keep, dst.add(written));
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
                let keep = kept(&mut strings, &block) & valid;
                written += compress(&block, keep, dst.add(written));
            }
        }
        // SAFETY: the first `written` bytes of the spare capacity were written above: each
        // block's kept bytes land right after the previous block's, and a later store
        // starts at or after the end of every earlier block's kept bytes.
        unsafe { out.set_len(out.len() + written) };
    }

    /// The mask of the bytes of `block` to keep: all but whitespace outside strings.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    fn kept(strings: &mut StringTracker, block: &[u8; BLOCK]) -> u64 {
        // SAFETY: AVX2 is enabled here and both halves lie inside the 64-byte block.
        let (low, high) = unsafe { (load_full(block, 0), load_full(block, CHUNK)) };
        let join = |low: u32, high: u32| u64::from(low) | u64::from(high) << 32;
        let quote = join(eq_mask(low, b'"'), eq_mask(high, b'"'));
        let backslash = join(eq_mask(low, b'\\'), eq_mask(high, b'\\'));
        let whitespace = join(whitespace_mask(low), whitespace_mask(high));
        let (in_string, _escaped) = strings.next(quote, backslash);
        !(whitespace & !in_string)
    }
}

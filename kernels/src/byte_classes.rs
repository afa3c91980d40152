//! 64 bytes of JSON text classified at once: one bit per byte for each class a copying
//! writer needs to know about (quotes, backslashes, whitespace, and the bytes of number
//! tokens), so it can copy whole blocks instead of walking them token by token; and the
//! bytes a mask keeps appended to an output.

/// Bytes per classified block.
pub const BLOCK: usize = 64;

/// The classes of the bytes of one block: bit `k` of each mask stands for byte `k`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByteClasses {
    /// `"`.
    pub quote: u64,
    /// `\`.
    pub backslash: u64,
    /// Space, tab, line feed, carriage return.
    pub whitespace: u64,
    /// `0` to `9`.
    pub digit: u64,
    /// `0`.
    pub zero: u64,
    /// `-`.
    pub minus: u64,
    /// `.`, `E`, `+`: bytes that only a fraction or an exponent puts in a number token.
    pub fraction_or_exponent: u64,
    /// `e`: an exponent after a digit or a fraction, else part of `true` or `false`.
    pub small_e: u64,
}

/// Classifies the bytes of `block`.
#[inline]
pub fn classify(block: &[u8; BLOCK]) -> ByteClasses {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::classify(block) };
    }
    scalar::classify(block)
}

/// Appends the bytes of `block` whose bit is set in `keep` to `out`, in order.
#[inline]
pub fn append_kept(block: &[u8; BLOCK], keep: u64, out: &mut Vec<u8>) {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::append_kept(block, keep, out) };
    }
    scalar::append_kept(block, keep, out)
}

/// [`append_kept`] of the block that starts `window`, for a block followed by at least
/// [`BLOCK`] more bytes of the same text: the window's second half is read, never kept. The
/// AVX2 twin then copies each run straight from the text, not from a padded copy of the
/// block that it would read back before the copy's stores retire (a store-forwarding stall).
#[inline]
pub fn append_kept_ahead(window: &[u8; 2 * BLOCK], keep: u64, out: &mut Vec<u8>) {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::append_kept_ahead(window, keep, out) };
    }
    scalar::append_kept_ahead(window, keep, out)
}

/// `keep` without its lowest run of set bits, and that run's start and end.
#[inline]
fn next_run(keep: u64) -> (u64, usize, usize) {
    // Adding the lowest set bit carries through the lowest run: the sum has the run's bits
    // and all below them clear, and the bit right above the run set (none when the run
    // ends at bit 63, where the carry leaves the word).
    let sum = keep.wrapping_add(keep & keep.wrapping_neg());
    let start = keep.trailing_zeros() as usize;
    let end = sum.trailing_zeros() as usize;
    (keep & sum, start, end)
}

/// The portable twin: one byte at a time.
pub mod scalar {
    use super::{BLOCK, ByteClasses, next_run};

    /// See [`super::classify`].
    pub fn classify(block: &[u8; BLOCK]) -> ByteClasses {
        let mut c = ByteClasses::default();
        for (k, &b) in block.iter().enumerate() {
            let bit = 1u64 << k;
            let set = |mask: &mut u64, on: bool| *mask |= if on { bit } else { 0 };
            set(&mut c.quote, b == b'"');
            set(&mut c.backslash, b == b'\\');
            set(&mut c.whitespace, matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
            set(&mut c.digit, b.is_ascii_digit());
            set(&mut c.zero, b == b'0');
            set(&mut c.minus, b == b'-');
            set(&mut c.fraction_or_exponent, matches!(b, b'.' | b'E' | b'+'));
            set(&mut c.small_e, b == b'e');
        }
        c
    }

    /// See [`super::append_kept`]: one slice copy per run of kept bytes.
    pub fn append_kept(block: &[u8; BLOCK], mut keep: u64, out: &mut Vec<u8>) {
        while keep != 0 {
            let (rest, start, end) = next_run(keep);
            out.extend_from_slice(&block[start..end]);
            keep = rest;
        }
    }

    /// See [`super::append_kept_ahead`]: [`append_kept`] of the window's first half.
    pub fn append_kept_ahead(window: &[u8; 2 * BLOCK], keep: u64, out: &mut Vec<u8>) {
        let (block, _) = window.split_first_chunk::<BLOCK>().expect("two blocks");
        append_kept(block, keep, out);
    }
}

/// The AVX2 twin: two 32-byte halves, one compare (or range check) per class.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    use super::{BLOCK, ByteClasses, next_run};
    use crate::simd::{CHUNK, eq_mask, load_full, whitespace_mask};

    /// See [`super::classify`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn classify(block: &[u8; BLOCK]) -> ByteClasses {
        // SAFETY: AVX2 is enabled here and both halves lie inside the 64-byte block.
        let (low, high) = unsafe { (load_full(block, 0), load_full(block, CHUNK)) };
        let join = |low: u32, high: u32| u64::from(low) | u64::from(high) << 32;
        let eq = |b: u8| join(eq_mask(low, b), eq_mask(high, b));
        ByteClasses {
            quote: eq(b'"'),
            backslash: eq(b'\\'),
            whitespace: join(whitespace_mask(low), whitespace_mask(high)),
            digit: join(digit_mask(low), digit_mask(high)),
            zero: eq(b'0'),
            minus: eq(b'-'),
            fraction_or_exponent: eq(b'.') | eq(b'E') | eq(b'+'),
            small_e: eq(b'e'),
        }
    }

    /// See [`super::append_kept`]: the runs are copied from a zero-padded copy of the block
    /// (`append_runs`).
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn append_kept(block: &[u8; BLOCK], keep: u64, out: &mut Vec<u8>) {
        let mut padded = [0u8; 2 * BLOCK];
        padded[..BLOCK].copy_from_slice(block);
        // SAFETY: AVX2 is enabled here (this function's own precondition).
        unsafe { append_runs(&padded, keep, out) }
    }

    /// See [`super::append_kept_ahead`]: the runs are copied from the window itself
    /// (`append_runs`).
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn append_kept_ahead(window: &[u8; 2 * BLOCK], keep: u64, out: &mut Vec<u8>) {
        // SAFETY: AVX2 is enabled here (this function's own precondition).
        unsafe { append_runs(window, keep, out) }
    }

    /// Appends the bytes of `src`'s first [`BLOCK`] whose bit is set in `keep`: each run of
    /// kept bytes is copied as 64 bytes (two 32-byte stores) from `src`, to where the bytes
    /// kept so far end; the next run's copy overwrites what the previous one wrote past its
    /// run. `src`'s second half is only read.
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    unsafe fn append_runs(src: &[u8; 2 * BLOCK], mut keep: u64, out: &mut Vec<u8>) {
        if keep == u64::MAX {
            out.extend_from_slice(&src[..BLOCK]);
            return;
        }
        out.reserve(2 * BLOCK);
        let spare = out.spare_capacity_mut();
        let mut written = 0;
        while keep != 0 {
            let (rest, start, end) = next_run(keep);
            // SAFETY: AVX2 is enabled here. `start < 64`, so the 64 bytes read from `src`
            // (128 bytes) are inside it. Before this run at most 63 bytes were kept (the run
            // holds at least one of the 64), so the 64 bytes written start at
            // `written <= 63` and end inside `spare`, which holds at least 128.
            unsafe {
                let from = src.as_ptr().add(start);
                let dst = spare.as_mut_ptr().add(written).cast::<u8>();
                let (low, high) = (
                    _mm256_loadu_si256(from.cast()),
                    _mm256_loadu_si256(from.add(CHUNK).cast()),
                );
                _mm256_storeu_si256(dst.cast(), low);
                _mm256_storeu_si256(dst.add(CHUNK).cast(), high);
            }
            written += end - start;
            keep = rest;
        }
        // SAFETY: the first `written` bytes of the spare capacity were written above: each
        // run's bytes land right after the previous run's, and a later store starts at or
        // after the end of every earlier run's bytes, so it never overwrites them.
        unsafe { out.set_len(out.len() + written) };
    }

    /// Writes the bytes of `block` whose bit is set in `keep` to `dst`, in order, and returns
    /// how many there are. Each group of 8 bytes has its kept bytes moved to its front by one
    /// byte shuffle (a table entry per 8-bit mask) and is stored whole where the groups before
    /// it end (a prefix sum of the groups' counts, so no store waits for the one before); a
    /// later group's store overwrites what an earlier one wrote past its kept bytes. No
    /// branch depends on `keep` but the one for a block kept whole. Up to [`BLOCK`] bytes at
    /// `dst` are written, past the kept ones too.
    ///
    /// The minify kernel writes with it: on pretty-printed text (four runs of kept bytes per
    /// block in twitter) it beats [`append_kept`]'s copy per run, whose loop exit is
    /// mispredicted; the copy per run stays faster for the clean-block walk's blocks.
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`], and `dst`
    /// must be valid for writes of [`BLOCK`] bytes.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn compress(block: &[u8; BLOCK], keep: u64, dst: *mut u8) -> usize {
        if keep == u64::MAX {
            // SAFETY: AVX2 is enabled here; the 64 bytes read are `block`, the 64 written
            // are the ones the caller made valid for writes.
            unsafe {
                let (low, high) = (load_full(block, 0), load_full(block, CHUNK));
                _mm256_storeu_si256(dst.cast(), low);
                _mm256_storeu_si256(dst.add(CHUNK).cast(), high);
            }
            return BLOCK;
        }
        const ONES: u64 = 0x0101_0101_0101_0101;
        // Byte `g` of `counts` is the number of kept bytes in group `g` (at most 8), so byte
        // `g` of `ends` is the number kept in groups `0..=g` (at most 64: no carry between
        // bytes).
        let pairs = keep - (keep >> 1 & 0x5555_5555_5555_5555);
        let nibbles = (pairs & 0x3333_3333_3333_3333) + (pairs >> 2 & 0x3333_3333_3333_3333);
        let counts = (nibbles + (nibbles >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        let ends = counts.wrapping_mul(ONES);
        let starts = ends << 8;
        let (keep_bytes, start_bytes) = (keep.to_le_bytes(), starts.to_le_bytes());
        for group in 0..BLOCK / 8 {
            let bits = keep_bytes[group];
            let start = usize::from(start_bytes[group]);
            // SAFETY: AVX2 is enabled here. The 8 bytes read lie inside `block`. At most
            // `8 * group` bytes are kept before this group, so the 8 bytes written end at or
            // before byte `BLOCK` of `dst`, which the caller made valid for writes.
            unsafe {
                let bytes = _mm_loadl_epi64(block.as_ptr().add(8 * group).cast());
                let order = _mm_cvtsi64_si128(COMPRESS[usize::from(bits)] as i64);
                _mm_storel_epi64(dst.add(start).cast(), _mm_shuffle_epi8(bytes, order));
            }
        }
        (ends >> 56) as usize
    }

    /// For each 8-bit mask, the byte shuffle that moves the bytes of a group of 8 whose bits
    /// are set to the group's front, in order: byte `k` of the entry is the index of the
    /// `k`-th kept byte, the rest are `0x80` (the shuffle writes a zero there).
    static COMPRESS: [u64; 256] = {
        let mut table = [0u64; 256];
        let mut mask = 0;
        while mask < 256 {
            let (mut entry, mut kept, mut byte) = (0u64, 0, 0);
            while byte < 8 {
                if mask & 1 << byte != 0 {
                    entry |= (byte as u64) << (8 * kept);
                    kept += 1;
                }
                byte += 1;
            }
            while kept < 8 {
                entry |= 0x80 << (8 * kept);
                kept += 1;
            }
            table[mask] = entry;
            mask += 1;
        }
        table
    };

    /// Bit `k` set when byte `k` of `v` is an ASCII digit.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn digit_mask(v: __m256i) -> u32 {
        // `v - '0'` is at most 9 (unsigned) exactly for the digits.
        let offset = _mm256_sub_epi8(v, _mm256_set1_epi8(b'0' as i8));
        let nine = _mm256_set1_epi8(9);
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(offset, nine), offset)) as u32
    }
}

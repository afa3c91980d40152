//! String scanning: from just after an opening quote to the closing quote.
//!
//! The scan finds the closing `"` (stepping over every backslash and the byte after it), says
//! whether any backslash occurred, and reports the first raw control byte (below 0x20), which
//! JSON forbids inside strings. It does not check escapes or UTF-8: [`crate::unescape`] and
//! [`crate::utf8`] do that for the body the scan delimits.

use crate::error::{ErrorKind, KernelError};

/// What [`scan_string`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StringScan {
    /// Index of the closing quote in the input.
    pub end: usize,
    /// True when the body contains at least one backslash.
    pub has_escapes: bool,
    /// Index of the first raw byte below 0x20 in the body, if any (the byte right after a
    /// backslash is not examined: it belongs to the escape).
    pub first_control: Option<usize>,
}

/// Scans a string body in `buf` that starts at `start` (the index after the opening quote).
///
/// Fails with [`ErrorKind::UnexpectedEnd`] at `buf.len()` when no closing quote follows.
#[inline]
pub fn scan_string(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::scan_string(buf, start) };
    }
    scalar::scan_string(buf, start)
}

fn unterminated(buf: &[u8]) -> KernelError {
    KernelError::new(ErrorKind::UnexpectedEnd, buf.len())
}

/// The portable twin: eight bytes per step with SWAR byte classification.
pub mod scalar {
    use super::{StringScan, unterminated};
    use crate::error::KernelError;

    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;

    /// High bit of each byte lane set where that byte of `w` is `"`, `\` or below 0x20
    /// (exact for every lane: no borrow crosses lanes in these forms).
    #[inline]
    fn special_lanes(w: u64) -> u64 {
        let eq = |b: u8| {
            let x = w ^ (ONES * b as u64);
            // High bit set iff the lane of x is zero, exactly: (x | 0x80) - 1 never borrows
            // across lanes, and ~x keeps lanes whose own high bit was clear.
            !((x & !HIGHS).wrapping_add(!HIGHS) | x) & HIGHS
        };
        // Lane below 0x20 iff its top three bits are clear.
        let below = {
            let top = w & (ONES * 0xe0);
            !((top & !HIGHS).wrapping_add(!HIGHS) | top) & HIGHS
        };
        eq(b'"') | eq(b'\\') | below
    }

    /// See [`super::scan_string`].
    pub fn scan_string(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
        let mut has_escapes = false;
        let mut first_control = None;
        let mut i = start;
        loop {
            // Jump over runs of ordinary bytes eight at a time.
            while let Some(word) = buf.get(i..i + 8) {
                let w = u64::from_le_bytes(word.try_into().expect("8-byte slice"));
                let lanes = special_lanes(w);
                if lanes != 0 {
                    i += (lanes.trailing_zeros() / 8) as usize;
                    break;
                }
                i += 8;
            }
            let Some(&b) = buf.get(i) else {
                return Err(unterminated(buf));
            };
            match b {
                b'"' => {
                    return Ok(StringScan {
                        end: i,
                        has_escapes,
                        first_control,
                    });
                }
                b'\\' => {
                    has_escapes = true;
                    i += 2;
                }
                0..=0x1f => {
                    first_control.get_or_insert(i);
                    i += 1;
                }
                _ => i += 1,
            }
        }
    }
}

/// The AVX2 implementation: 32 bytes per step, every special byte of a chunk handled from
/// one mask.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::{StringScan, unterminated};
    use crate::error::KernelError;
    use crate::simd::{CHUNK, control_mask, eq_mask, load32};

    /// See [`super::scan_string`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn scan_string(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
        let mut has_escapes = false;
        let mut first_control = None;
        let mut i = start;
        'chunks: while i < buf.len() {
            // A tail chunk is padded with '"': a quote found past the end means unterminated.
            // SAFETY: AVX2 is enabled on this function and `i < buf.len()`.
            let v = unsafe { load32(buf, i, b'"') };
            let mut bits = eq_mask(v, b'"') | eq_mask(v, b'\\') | control_mask(v);
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                let p = i + k;
                if p >= buf.len() {
                    break 'chunks;
                }
                match buf[p] {
                    b'"' => {
                        return Ok(StringScan {
                            end: p,
                            has_escapes,
                            first_control,
                        });
                    }
                    b'\\' => {
                        has_escapes = true;
                        if k + 1 >= CHUNK {
                            // The escaped byte opens the next chunk: resume after it.
                            i = p + 2;
                            continue 'chunks;
                        }
                        // The escaped byte is part of the escape, never significant.
                        bits &= !(1u32 << (k + 1));
                    }
                    _ => {
                        first_control.get_or_insert(p);
                    }
                }
                bits &= bits - 1;
            }
            i += CHUNK;
        }
        Err(unterminated(buf))
    }
}

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

#[inline]
fn unterminated(buf: &[u8]) -> KernelError {
    KernelError::new(ErrorKind::UnexpectedEnd, buf.len())
}

/// The portable twin: eight bytes per step with SWAR byte classification.
pub mod scalar {
    use super::{StringScan, unterminated};
    use crate::error::KernelError;
    use crate::swar;

    /// Lanes of `w` holding `"`, `\` or a byte below 0x20.
    #[inline]
    fn special_lanes(w: u64) -> u64 {
        swar::eq_lanes(w, b'"') | swar::eq_lanes(w, b'\\') | swar::control_lanes(w)
    }

    /// See [`super::scan_string`].
    pub fn scan_string(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
        scan_from(buf, start, false, None)
    }

    /// Continues a scan at `i` with what was found before it (the AVX2 twin hands its tail
    /// over here; `i` is never the byte right after a backslash).
    #[inline]
    pub(crate) fn scan_from(
        buf: &[u8],
        mut i: usize,
        mut has_escapes: bool,
        mut first_control: Option<usize>,
    ) -> Result<StringScan, KernelError> {
        loop {
            // Jump over runs of ordinary bytes eight at a time.
            while let Some(word) = buf.get(i..i + 8) {
                let lanes = special_lanes(swar::load(word.try_into().expect("8-byte slice")));
                if lanes != 0 {
                    i += swar::first_lane(lanes);
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

/// The AVX2 implementation: 64 bytes per step while the string runs clean, every special byte
/// of a chunk handled from one mask; the last partial chunk goes to the scalar twin.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    use super::StringScan;
    use crate::error::KernelError;
    use crate::simd::{CHUNK, control_mask, eq_mask, load_full};

    /// Bit `k` set when byte `k` of `v` is `"`, `\` or below 0x20.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn special_mask(v: __m256i) -> u32 {
        eq_mask(v, b'"') | eq_mask(v, b'\\') | control_mask(v)
    }

    /// See [`super::scan_string`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn scan_string(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
        let mut has_escapes = false;
        let mut first_control = None;
        let mut i = start;
        'chunks: while i + CHUNK <= buf.len() {
            // Clean runs: two chunks per step, tested together.
            while i + 2 * CHUNK <= buf.len() {
                // SAFETY: AVX2 is enabled here and both chunks end inside `buf`.
                let (a, b) = unsafe { (load_full(buf, i), load_full(buf, i + CHUNK)) };
                if special_mask(a) | special_mask(b) != 0 {
                    break;
                }
                i += 2 * CHUNK;
            }
            if i + CHUNK > buf.len() {
                break;
            }
            // SAFETY: AVX2 is enabled here and `i + 32 <= buf.len()`.
            let mut bits = special_mask(unsafe { load_full(buf, i) });
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                let p = i + k;
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
        super::scalar::scan_from(buf, i, has_escapes, first_control)
    }
}

//! String scanning: from just after an opening quote to the closing quote.
//!
//! The scan finds the closing `"` (stepping over every backslash and the byte after it), says
//! whether any backslash occurred and whether any byte at or above 0x80 did, and reports the
//! first raw control byte (below 0x20), which JSON forbids inside strings. It does not check
//! escapes: [`crate::unescape`] does that for the body the scan delimits. [`scan_checked`]
//! adds the control and UTF-8 checks every string body needs, in one pass for ASCII bodies
//! (UTF-8 is validated only when the scan saw a non-ASCII byte).

use crate::error::{ErrorKind, KernelError};
use crate::swar;

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
    /// True when some byte of the body (escaped or not) is at or above 0x80.
    pub has_non_ascii: bool,
}

/// The running state of a scan: what was found so far.
#[derive(Clone, Copy, Default)]
pub(crate) struct Found {
    has_escapes: bool,
    first_control: Option<usize>,
    has_non_ascii: bool,
}

impl Found {
    #[inline]
    fn at(self, end: usize) -> StringScan {
        StringScan {
            end,
            has_escapes: self.has_escapes,
            first_control: self.first_control,
            has_non_ascii: self.has_non_ascii,
        }
    }
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

/// [`scan_string`] plus the checks every string body needs: no raw control byte
/// ([`ErrorKind::ControlInString`] at the first one) and valid UTF-8 ([`ErrorKind::InvalidUtf8`]
/// at the absolute offset of the first invalid sequence), in that order. UTF-8 is validated
/// only when the body holds a non-ASCII byte. Escapes are not checked.
#[inline]
pub fn scan_checked(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::scan_checked(buf, start) };
    }
    scalar::scan_checked(buf, start)
}

/// Bodies up to this many bytes are looked at inline by [`scan_str`] (one SWAR word at a
/// time) before it calls the kernel: short keys and values end before a vector step would
/// pay off.
const SHORT_BODY: usize = 32;

/// [`scan_checked`] that also hands back the body (`start` up to the closing quote) as a
/// `&str`, for readers that keep strings: the checks make it UTF-8. Escapes are neither
/// checked nor replaced (the body holds them as written; see
/// [`crate::unescape::unescape_str`]). A body of at most 16 printable ASCII bytes is found
/// without calling the kernel.
#[inline]
pub fn scan_str(buf: &[u8], start: usize) -> Result<(&str, StringScan), KernelError> {
    let scan = match short_ascii_body(buf, start) {
        Some(end) => StringScan {
            end,
            has_escapes: false,
            first_control: None,
            has_non_ascii: false,
        },
        None => scan_checked(buf, start)?,
    };
    let body = &buf[start..scan.end];
    // SAFETY: `scan_checked` validated the UTF-8 of every body holding a byte at or above
    // 0x80 (an error otherwise); a body without one is ASCII, hence UTF-8.
    Ok((unsafe { std::str::from_utf8_unchecked(body) }, scan))
}

/// Whether `byte` stands for itself inside a JSON string: no quote, backslash or control
/// byte (where the scan stops), so text made only of such bytes, put between quotes, is a
/// string token whose value is that text.
#[inline]
pub fn stands_for_itself(byte: u8) -> bool {
    byte >= 0x20 && byte != b'"' && byte != b'\\'
}

/// The closing quote's index when the body from `start` ends within [`SHORT_BODY`] bytes
/// (and 8 bytes of input are left at each step), all of them ASCII, none a backslash or a
/// control byte.
#[inline(always)]
fn short_ascii_body(buf: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    while i - start < SHORT_BODY {
        let word = buf.get(i..i + 8)?;
        let w = swar::load(word.try_into().expect("an 8-byte slice"));
        let quote = swar::eq_lanes(w, b'"');
        let other = swar::eq_lanes(w, b'\\') | swar::control_lanes(w) | swar::non_ascii_lanes(w);
        if quote != 0 {
            // Only the lanes before the quote belong to the body.
            let before = (quote & quote.wrapping_neg()) - 1;
            return (other & before == 0).then(|| i + swar::first_lane(quote));
        }
        if other != 0 {
            return None;
        }
        i += 8;
    }
    None
}

/// The checks of [`scan_checked`] on a finished scan, `validate` being a UTF-8 twin.
#[inline(always)]
fn check_body(
    buf: &[u8],
    start: usize,
    scan: StringScan,
    validate: impl FnOnce(&[u8]) -> Result<(), KernelError>,
) -> Result<StringScan, KernelError> {
    if let Some(c) = scan.first_control {
        return Err(KernelError::new(ErrorKind::ControlInString, c));
    }
    if scan.has_non_ascii {
        validate(&buf[start..scan.end]).map_err(|e| KernelError::new(e.kind, start + e.offset))?;
    }
    Ok(scan)
}

#[inline]
fn unterminated(buf: &[u8]) -> KernelError {
    KernelError::new(ErrorKind::UnexpectedEnd, buf.len())
}

/// The portable twin: eight bytes per step with SWAR byte classification.
pub mod scalar {
    use super::{Found, StringScan, check_body, unterminated};
    use crate::error::KernelError;
    use crate::{swar, utf8};

    /// Lanes of `w` holding `"`, `\` or a byte below 0x20.
    #[inline]
    fn special_lanes(w: u64) -> u64 {
        swar::eq_lanes(w, b'"') | swar::eq_lanes(w, b'\\') | swar::control_lanes(w)
    }

    /// See [`super::scan_string`].
    pub fn scan_string(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
        scan_from(buf, start, Found::default())
    }

    /// See [`super::scan_checked`].
    pub fn scan_checked(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
        let scan = scan_string(buf, start)?;
        check_body(buf, start, scan, utf8::scalar::validate_utf8)
    }

    /// Continues a scan at `i` with what was found before it (the AVX2 twin hands its tail
    /// over here; `i` is never the byte right after a backslash).
    #[inline]
    pub(crate) fn scan_from(
        buf: &[u8],
        mut i: usize,
        mut found: Found,
    ) -> Result<StringScan, KernelError> {
        loop {
            // Jump over runs of ordinary bytes eight at a time.
            while let Some(word) = buf.get(i..i + 8) {
                let w = swar::load(word.try_into().expect("8-byte slice"));
                let lanes = special_lanes(w);
                if lanes != 0 {
                    // Only the lanes before the special byte are part of this run.
                    let before = (lanes & lanes.wrapping_neg()) - 1;
                    found.has_non_ascii |= swar::non_ascii_lanes(w) & before != 0;
                    i += swar::first_lane(lanes);
                    break;
                }
                found.has_non_ascii |= swar::non_ascii_lanes(w) != 0;
                i += 8;
            }
            let Some(&b) = buf.get(i) else {
                return Err(unterminated(buf));
            };
            match b {
                b'"' => return Ok(found.at(i)),
                b'\\' => {
                    found.has_escapes = true;
                    found.has_non_ascii |= buf.get(i + 1).is_some_and(|&e| e >= 0x80);
                    i += 2;
                }
                0..=0x1f => {
                    found.first_control.get_or_insert(i);
                    i += 1;
                }
                _ => {
                    found.has_non_ascii |= b >= 0x80;
                    i += 1;
                }
            }
        }
    }
}

/// The AVX2 implementation: one 32-byte chunk first (short strings end there), then 64
/// bytes per step while the string runs clean, every special byte of a chunk handled from
/// one mask; the last partial chunk goes to the scalar twin.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    use super::{Found, StringScan, check_body};
    use crate::error::KernelError;
    use crate::simd::{CHUNK, control_mask, eq_mask, load_full};
    use crate::utf8;

    /// Bit `k` set when byte `k` of `v` is `"`, `\` or below 0x20.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn special_mask(v: __m256i) -> u32 {
        eq_mask(v, b'"') | eq_mask(v, b'\\') | control_mask(v)
    }

    /// Bit `k` set when byte `k` of `v` is at or above 0x80.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn high_mask(v: __m256i) -> u32 {
        _mm256_movemask_epi8(v) as u32
    }

    /// See [`super::scan_string`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn scan_string(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
        let mut found = Found::default();
        let mut i = start;
        'chunks: while i + CHUNK <= buf.len() {
            // SAFETY: AVX2 is enabled here and `i + 32 <= buf.len()`.
            let v = unsafe { load_full(buf, i) };
            let (mut bits, high) = (special_mask(v), high_mask(v));
            if bits == 0 {
                found.has_non_ascii |= high != 0;
                i += CHUNK;
                // A clean run: two chunks per step, tested together.
                while i + 2 * CHUNK <= buf.len() {
                    // SAFETY: AVX2 is enabled here and both chunks end inside `buf`.
                    let (a, b) = unsafe { (load_full(buf, i), load_full(buf, i + CHUNK)) };
                    if special_mask(a) | special_mask(b) != 0 {
                        break;
                    }
                    found.has_non_ascii |= high_mask(_mm256_or_si256(a, b)) != 0;
                    i += 2 * CHUNK;
                }
                continue;
            }
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                let p = i + k;
                match buf[p] {
                    b'"' => {
                        found.has_non_ascii |= high & ((1u32 << k) - 1) != 0;
                        return Ok(found.at(p));
                    }
                    b'\\' => {
                        found.has_escapes = true;
                        if k + 1 >= CHUNK {
                            // The escaped byte opens the next chunk: resume after it.
                            found.has_non_ascii |=
                                high != 0 || buf.get(p + 1).is_some_and(|&e| e >= 0x80);
                            i = p + 2;
                            continue 'chunks;
                        }
                        // The escaped byte is part of the escape, never significant.
                        bits &= !(1u32 << (k + 1));
                    }
                    _ => {
                        found.first_control.get_or_insert(p);
                    }
                }
                bits &= bits - 1;
            }
            found.has_non_ascii |= high != 0;
            i += CHUNK;
        }
        super::scalar::scan_from(buf, i, found)
    }

    /// See [`super::scan_checked`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn scan_checked(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
        // SAFETY: the caller guarantees the features.
        let scan = unsafe { scan_string(buf, start) }?;
        check_body(buf, start, scan, |body| {
            // SAFETY: the caller guarantees the features.
            unsafe { utf8::avx2::validate_utf8(body) }
        })
    }
}

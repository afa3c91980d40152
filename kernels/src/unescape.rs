//! Unescaping JSON string bodies: every escape decoded, raw bytes copied unchanged.
//!
//! A *body* is the bytes between a string's quotes. The kernels decode the JSON escapes
//! `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` and `\uXXXX` (hex digits in either case), combine a
//! `\u` high surrogate followed by a `\u` low surrogate into one four-byte UTF-8 character,
//! and copy every other byte as it is: raw control bytes and UTF-8 validity are checked by
//! [`crate::string_scan`] and [`crate::utf8`], not here.
//!
//! Errors, all at the offset of the backslash that starts the offending escape:
//! - [`ErrorKind::InvalidEscape`]: a backslash followed by a byte that is not an escape, or
//!   by nothing (the body ends).
//! - [`ErrorKind::InvalidUnicodeEscape`]: `\u` not followed by four hex digits.
//! - [`ErrorKind::LoneSurrogate`] (with [`Surrogates::Strict`]): a high surrogate not followed
//!   by a `\u` low surrogate, or a low surrogate without a high one before it. With
//!   [`Surrogates::Lossy`] each such escape becomes U+FFFD and decoding goes on after it.
//!
//! The unescaped form is never longer than the body (the longest output per escape, four
//! bytes for a twelve-byte surrogate pair, is shorter than its input), so an output buffer of
//! `body.len()` bytes always suffices.

use crate::error::{ErrorKind, KernelError};
use crate::sink::{Sink, SliceSink, VecSink};
use crate::swar;

/// How `\u` escapes of lone surrogates are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Surrogates {
    /// A lone or malformed surrogate is an error ([`crate::ErrorKind::LoneSurrogate`]).
    #[default]
    Strict,
    /// A lone surrogate becomes U+FFFD.
    Lossy,
}

/// Appends the unescaped form of `body` (a string body without quotes) to `out`.
///
/// On error `out` is left as it was on entry.
#[inline]
pub fn unescape(body: &[u8], out: &mut Vec<u8>, surrogates: Surrogates) -> Result<(), KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::unescape(body, out, surrogates) };
    }
    scalar::unescape(body, out, surrogates)
}

/// [`unescape`] of a body that is UTF-8 (as [`crate::string_scan::scan_str`] hands it out),
/// appended to a `String`. On error `out` is left as it was on entry.
#[inline]
pub fn unescape_str(
    body: &str,
    out: &mut String,
    surrogates: Surrogates,
) -> Result<(), KernelError> {
    // SAFETY: `unescape` appends the body with each escape replaced by the UTF-8 of the
    // character it names (U+FFFD for a lone surrogate in the lossy mode), which is UTF-8
    // since the body is; on error it restores `out`'s length, so `out` stays UTF-8.
    unescape(body.as_bytes(), unsafe { out.as_mut_vec() }, surrogates)
}

/// Unescapes `body` into the start of `out` and returns the number of bytes written.
///
/// `out` must be at least `body.len()` long (the unescaped form is never longer); a shorter
/// buffer fails with [`ErrorKind::OutputTooSmall`] at offset 0 before anything is read. Bytes
/// of `out` past the returned count, and all of `out` after an error, are unspecified.
#[inline]
pub fn unescape_into(
    body: &[u8],
    out: &mut [u8],
    surrogates: Surrogates,
) -> Result<usize, KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::unescape_into(body, out, surrogates) };
    }
    scalar::unescape_into(body, out, surrogates)
}

/// Checks every escape of `body` as [`unescape`] would, without producing output.
#[inline]
pub fn validate_escapes(body: &[u8], surrogates: Surrogates) -> Result<(), KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::validate_escapes(body, surrogates) };
    }
    scalar::validate_escapes(body, surrogates)
}

/// Runs `decode` on a [`VecSink`] over `out` with room for `body_len` more bytes; restores
/// `out`'s length on error.
#[inline]
fn decode_to_vec(
    out: &mut Vec<u8>,
    body_len: usize,
    decode: impl FnOnce(&mut VecSink<'_>) -> Result<(), KernelError>,
) -> Result<(), KernelError> {
    let start = out.len();
    out.reserve(body_len);
    let result = decode(&mut VecSink(out));
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// Runs `decode` on a [`SliceSink`] over `out` after checking it can hold `body_len` bytes;
/// returns the number of bytes written.
#[inline]
fn decode_to_slice(
    out: &mut [u8],
    body_len: usize,
    decode: impl FnOnce(&mut SliceSink<'_>) -> Result<(), KernelError>,
) -> Result<usize, KernelError> {
    if out.len() < body_len {
        return Err(KernelError::new(ErrorKind::OutputTooSmall, 0));
    }
    let mut sink = SliceSink::new(out);
    decode(&mut sink)?;
    Ok(sink.len())
}

/// Hex digit values by byte; `INVALID_HEX` for bytes that are not hex digits.
const HEX_VALUES: [u8; 256] = {
    let mut table = [INVALID_HEX; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            d @ b'0'..=b'9' => d - b'0',
            d @ b'a'..=b'f' => d - b'a' + 10,
            d @ b'A'..=b'F' => d - b'A' + 10,
            _ => INVALID_HEX,
        };
        b += 1;
    }
    table
};

const INVALID_HEX: u8 = 0xff;

/// UTF-8 of U+FFFD, the replacement for a lone surrogate in lossy mode.
const REPLACEMENT: [u8; 3] = [0xef, 0xbf, 0xbd];

/// The code unit of the `\uXXXX` escape whose backslash is at `at`, or `None` when the four
/// bytes after `\u` are not all hex digits (or the body ends first). Assumes `body[at + 1]`
/// is `u`.
#[inline]
fn hex_unit(body: &[u8], at: usize) -> Option<u32> {
    let digits = body.get(at + 2..at + 6)?;
    digits.iter().try_fold(0u32, |acc, &d| {
        let v = HEX_VALUES[usize::from(d)];
        (v != INVALID_HEX).then_some(acc << 4 | u32::from(v))
    })
}

/// The low surrogate of a `\uXXXX` escape starting at `at`, if there is one.
#[inline]
fn low_surrogate_at(body: &[u8], at: usize) -> Option<u32> {
    if body.get(at..at + 2)? != b"\\u" {
        return None;
    }
    hex_unit(body, at).filter(|u| (0xdc00..=0xdfff).contains(u))
}

/// Appends the UTF-8 encoding of the scalar value `cp` (never a surrogate).
#[inline(always)] // hot in both twins' loops, where LLVM otherwise leaves a call
fn push_code_point(out: &mut impl Sink, cp: u32) {
    // Each `as u8` keeps exactly the bits the branch's masks select.
    if cp < 0x80 {
        out.push_decoded(&[cp as u8]);
    } else if cp < 0x800 {
        out.push_decoded(&[0xc0 | (cp >> 6) as u8, 0x80 | (cp & 0x3f) as u8]);
    } else if cp < 0x1_0000 {
        out.push_decoded(&[
            0xe0 | (cp >> 12) as u8,
            0x80 | ((cp >> 6) & 0x3f) as u8,
            0x80 | (cp & 0x3f) as u8,
        ]);
    } else {
        out.push_decoded(&[
            0xf0 | (cp >> 18) as u8,
            0x80 | ((cp >> 12) & 0x3f) as u8,
            0x80 | ((cp >> 6) & 0x3f) as u8,
            0x80 | (cp & 0x3f) as u8,
        ]);
    }
}

/// A lone surrogate escape at `at`: an error in strict mode, U+FFFD in lossy mode.
#[inline]
fn lone_surrogate(
    out: &mut impl Sink,
    at: usize,
    surrogates: Surrogates,
) -> Result<(), KernelError> {
    match surrogates {
        Surrogates::Strict => Err(KernelError::new(ErrorKind::LoneSurrogate, at)),
        Surrogates::Lossy => {
            out.push_decoded(&REPLACEMENT);
            Ok(())
        }
    }
}

/// Decodes the `\u` escape whose backslash is at `at` (a surrogate pair counts as one);
/// returns the index just past it.
#[inline(always)] // hot in both twins' loops, where LLVM otherwise leaves a call
fn decode_unicode(
    body: &[u8],
    at: usize,
    out: &mut impl Sink,
    surrogates: Surrogates,
) -> Result<usize, KernelError> {
    let unit =
        hex_unit(body, at).ok_or_else(|| KernelError::new(ErrorKind::InvalidUnicodeEscape, at))?;
    match unit {
        0xd800..=0xdbff => {
            if let Some(low) = low_surrogate_at(body, at + 6) {
                push_code_point(out, 0x1_0000 + ((unit - 0xd800) << 10) + (low - 0xdc00));
                return Ok(at + 12);
            }
            lone_surrogate(out, at, surrogates)?;
        }
        0xdc00..=0xdfff => lone_surrogate(out, at, surrogates)?,
        _ => push_code_point(out, unit),
    }
    Ok(at + 6)
}

/// Decodes the escape whose backslash is at `at`; returns the index just past it. Both
/// twins handle every escape here, one at a time.
#[inline(always)] // hot in both twins' loops, where LLVM otherwise leaves a call
fn decode_escape(
    body: &[u8],
    at: usize,
    out: &mut impl Sink,
    surrogates: Surrogates,
) -> Result<usize, KernelError> {
    debug_assert_eq!(body[at], b'\\');
    let decoded = match body.get(at + 1) {
        Some(b'"') => b'"',
        Some(b'\\') => b'\\',
        Some(b'/') => b'/',
        Some(b'b') => 0x08,
        Some(b'f') => 0x0c,
        Some(b'n') => b'\n',
        Some(b'r') => b'\r',
        Some(b't') => b'\t',
        Some(b'u') => return decode_unicode(body, at, out, surrogates),
        _ => return Err(KernelError::new(ErrorKind::InvalidEscape, at)),
    };
    out.push_decoded(&[decoded]);
    Ok(at + 2)
}

/// Index of the first backslash at or after `from`, if any, eight bytes at a time (SWAR).
#[inline]
fn next_backslash(body: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(word) = body.get(i..i + 8) {
        let lanes = swar::eq_lanes(swar::load(word.try_into().expect("8-byte slice")), b'\\');
        if lanes != 0 {
            return Some(i + swar::first_lane(lanes));
        }
        i += 8;
    }
    body[i..].iter().position(|&b| b == b'\\').map(|k| i + k)
}

/// Decodes `body` from `from` (not inside an escape) to its end: copies the runs between
/// escapes and decodes each escape. The scalar twin's whole loop, and the AVX2 twin's tail
/// (fewer than 32 bytes, where a padded vector load costs more than it saves).
#[inline]
fn decode_rest(
    body: &[u8],
    from: usize,
    out: &mut impl Sink,
    surrogates: Surrogates,
) -> Result<(), KernelError> {
    let mut i = from;
    while let Some(at) = next_backslash(body, i) {
        out.push(&body[i..at]);
        i = decode_escape(body, at, out, surrogates)?;
    }
    out.push(&body[i..]);
    Ok(())
}

/// The portable twin: finds backslashes eight bytes at a time (SWAR).
pub mod scalar {
    use super::{Surrogates, decode_rest, decode_to_slice, decode_to_vec};
    use crate::error::KernelError;
    use crate::sink::{Discard, Sink};

    /// Decodes the whole body.
    #[inline]
    pub(crate) fn decode(
        body: &[u8],
        out: &mut impl Sink,
        surrogates: Surrogates,
    ) -> Result<(), KernelError> {
        decode_rest(body, 0, out, surrogates)
    }

    /// See [`super::unescape`].
    pub fn unescape(
        body: &[u8],
        out: &mut Vec<u8>,
        surrogates: Surrogates,
    ) -> Result<(), KernelError> {
        decode_to_vec(out, body.len(), |sink| decode(body, sink, surrogates))
    }

    /// See [`super::unescape_into`].
    pub fn unescape_into(
        body: &[u8],
        out: &mut [u8],
        surrogates: Surrogates,
    ) -> Result<usize, KernelError> {
        decode_to_slice(out, body.len(), |sink| decode(body, sink, surrogates))
    }

    /// See [`super::validate_escapes`].
    pub fn validate_escapes(body: &[u8], surrogates: Surrogates) -> Result<(), KernelError> {
        decode(body, &mut Discard, surrogates)
    }
}

/// The AVX2 implementation: 32-byte chunks copied whole up to the next backslash, each escape
/// decoded by the shared scalar code.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::{Surrogates, decode_escape, decode_rest, decode_to_slice, decode_to_vec};
    use crate::error::KernelError;
    use crate::simd::{CHUNK, eq_mask, load32};
    use crate::sink::{Discard, Sink};

    /// Copies runs between escapes a chunk at a time and decodes each escape; the last
    /// partial chunk goes to the scalar loop.
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub(crate) unsafe fn decode(
        body: &[u8],
        out: &mut impl Sink,
        surrogates: Surrogates,
    ) -> Result<(), KernelError> {
        let mut i = 0;
        while let Some(chunk) = body.get(i..i + CHUNK) {
            let chunk: &[u8; CHUNK] = chunk.try_into().expect("32-byte slice");
            // SAFETY: AVX2 is enabled on this function and `i + 32 <= body.len()`.
            let backslashes = eq_mask(unsafe { load32(body, i, 0) }, b'\\');
            if backslashes == 0 {
                // The common case, kept apart so the next load does not wait for the mask.
                out.push_chunk(chunk, CHUNK);
                i += CHUNK;
                continue;
            }
            out.push_chunk(chunk, backslashes.trailing_zeros() as usize);
            i += backslashes.trailing_zeros() as usize;
            // Escapes often come in runs (`\u` text): decode them without reloading a chunk.
            loop {
                i = decode_escape(body, i, out, surrogates)?;
                if body.get(i) != Some(&b'\\') {
                    break;
                }
            }
        }
        decode_rest(body, i, out, surrogates)
    }

    /// See [`super::unescape`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn unescape(
        body: &[u8],
        out: &mut Vec<u8>,
        surrogates: Surrogates,
    ) -> Result<(), KernelError> {
        // SAFETY: this function requires the same features as `decode`.
        decode_to_vec(out, body.len(), |sink| unsafe {
            decode(body, sink, surrogates)
        })
    }

    /// See [`super::unescape_into`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn unescape_into(
        body: &[u8],
        out: &mut [u8],
        surrogates: Surrogates,
    ) -> Result<usize, KernelError> {
        // SAFETY: this function requires the same features as `decode`.
        decode_to_slice(out, body.len(), |sink| unsafe {
            decode(body, sink, surrogates)
        })
    }

    /// See [`super::validate_escapes`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn validate_escapes(body: &[u8], surrogates: Surrogates) -> Result<(), KernelError> {
        // SAFETY: this function requires the same features as `decode`.
        unsafe { decode(body, &mut Discard, surrogates) }
    }
}

//! Quoting and escaping strings for output.
//!
//! [`EscapeMode::Minimal`] writes exactly what `serde_json` writes: `\"`, `\\`, the short
//! escapes `\b` `\f` `\n` `\r` `\t`, every other byte below 0x20 as `\u00XX` (lowercase hex),
//! and everything else (`/`, 0x7F, all non-ASCII) unchanged. [`EscapeMode::Ascii`] also writes
//! every non-ASCII character as `\uXXXX` (a surrogate pair above U+FFFF);
//! [`EscapeMode::Html`] also writes `<`, `>`, `&`, U+2028 and U+2029 as `\uXXXX`, so the output
//! can sit inside an HTML `<script>` element or a JavaScript source. Hex digits are lowercase.
//!
//! Both twins find the next byte that may need escaping (per mode, by 8-byte SWAR words or
//! 32-byte AVX2 compares), copy the run before it as it is, and escape that byte (or the
//! character it starts) with the same shared code.

use crate::sink::{Sink, SliceSink, VecSink};
use crate::swar;

/// Which characters are escaped on output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EscapeMode {
    /// Only what JSON requires: `"`, `\` and control bytes (as serde_json writes them).
    #[default]
    Minimal,
    /// Minimal, plus every non-ASCII character as `\uXXXX` (surrogate pairs above U+FFFF).
    Ascii,
    /// Minimal, plus `<`, `>`, `&`, U+2028 and U+2029 as `\uXXXX`.
    Html,
}

/// Largest output `escape_str` can produce for an input of `len` bytes, quotes included.
///
/// (Six bytes per input byte is the worst case: a control byte becomes `\u00XX`.)
pub const fn max_escaped_len(len: usize) -> usize {
    len.saturating_mul(6).saturating_add(2)
}

/// Appends `s` to `out` as a quoted JSON string escaped per `mode`.
#[inline]
pub fn escape_str(s: &str, mode: EscapeMode, out: &mut Vec<u8>) {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::escape_str(s, mode, out) };
    }
    scalar::escape_str(s, mode, out)
}

/// Writes `s` quoted and escaped per `mode` into `out` (at least `max_escaped_len(s.len())`
/// long); returns bytes written.
///
/// Bytes of `out` past the returned count are unspecified.
///
/// # Panics
/// If `out` is shorter than [`max_escaped_len`]`(s.len())`, before writing anything.
#[inline]
pub fn escape_into(s: &str, mode: EscapeMode, out: &mut [u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::escape_into(s, mode, out) };
    }
    scalar::escape_into(s, mode, out)
}

/// Runs `escape` on a [`VecSink`] over `out`, reserving room for the common case of a string
/// that needs no escapes.
#[inline]
fn escape_to_vec(s: &str, out: &mut Vec<u8>, escape: impl FnOnce(&mut VecSink<'_>)) {
    out.reserve(s.len() + 2);
    escape(&mut VecSink(out));
}

/// Runs `escape` on a [`SliceSink`] over `out` after checking it can hold the worst case;
/// returns the number of bytes written.
#[inline]
fn escape_to_slice(s: &str, out: &mut [u8], escape: impl FnOnce(&mut SliceSink<'_>)) -> usize {
    assert!(
        out.len() >= max_escaped_len(s.len()),
        "escape_into: output buffer of {} bytes is shorter than max_escaped_len({}) = {}",
        out.len(),
        s.len(),
        max_escaped_len(s.len())
    );
    let mut sink = SliceSink::new(out);
    escape(&mut sink);
    sink.len()
}

/// Lowercase hex digits, as serde_json writes them.
const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Whether each byte may need escaping in a mode: the bytes both twins stop at. For non-ASCII
/// this flags lead and continuation bytes alike (Ascii) or the lead byte 0xE2 of U+2028 and
/// U+2029 (Html); [`escape_at`] decides what the flagged byte really needs.
const fn stop_table(mode: EscapeMode) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte < 0x20
            || byte == b'"'
            || byte == b'\\'
            || match mode {
                EscapeMode::Minimal => false,
                EscapeMode::Ascii => byte >= 0x80,
                EscapeMode::Html => matches!(byte, b'<' | b'>' | b'&' | 0xe2),
            };
        b += 1;
    }
    table
}

/// [`stop_table`] for each mode, indexed by [`mode_index`].
const STOP_TABLES: [[bool; 256]; 3] = [
    stop_table(EscapeMode::Minimal),
    stop_table(EscapeMode::Ascii),
    stop_table(EscapeMode::Html),
];

/// Index of `mode` in [`STOP_TABLES`].
#[inline]
const fn mode_index(mode: EscapeMode) -> usize {
    match mode {
        EscapeMode::Minimal => 0,
        EscapeMode::Ascii => 1,
        EscapeMode::Html => 2,
    }
}

/// Appends `\uXXXX` for the UTF-16 code unit `unit`.
#[inline]
fn push_unicode_escape(out: &mut impl Sink, unit: u32) {
    let hex = |shift: u32| HEX_DIGITS[((unit >> shift) & 0xf) as usize];
    out.push(&[b'\\', b'u', hex(12), hex(8), hex(4), hex(0)]);
}

/// Appends the escape for the character `c` as one or two `\uXXXX` (UTF-16) escapes.
#[inline]
fn push_char_escape(out: &mut impl Sink, c: char) {
    let mut units = [0u16; 2];
    for &unit in c.encode_utf16(&mut units).iter() {
        push_unicode_escape(out, u32::from(unit));
    }
}

/// Appends the escape of the ASCII byte `b`: `\"`, `\\`, a short escape (`\n`, ...), or
/// `\u00XX` (a control byte, or with [`EscapeMode::Html`] `<`, `>` or `&`).
#[inline]
pub(crate) fn escape_ascii(b: u8, out: &mut impl Sink) {
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0c => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => return push_unicode_escape(out, u32::from(b)),
    };
    out.push(&[b'\\', short]);
}

/// Escapes what starts at byte `i` of `s`, a byte flagged by [`stop_table`] for `mode`;
/// returns the index after the bytes consumed (the whole character for non-ASCII).
#[inline]
fn escape_at(s: &str, i: usize, mode: EscapeMode, out: &mut impl Sink) -> usize {
    let bytes = s.as_bytes();
    let b = bytes[i];
    if b < 0x80 {
        escape_ascii(b, out);
        return i + 1;
    }
    let c = s[i..]
        .chars()
        .next()
        .expect("a flagged non-ASCII byte starts a character");
    match (mode, c) {
        (EscapeMode::Ascii, _) | (EscapeMode::Html, '\u{2028}' | '\u{2029}') => {
            push_char_escape(out, c);
            i + c.len_utf8()
        }
        _ => {
            // An Html candidate lead byte 0xE2 of another character: the rest of the
            // character is never flagged, so copying just this byte is enough.
            out.push(&[b]);
            i + 1
        }
    }
}

/// Lanes of the word `w` flagged for `mode` (the bytes of [`stop_table`]), by SWAR.
#[inline]
fn stop_lanes(w: u64, mode: EscapeMode) -> u64 {
    let minimal = swar::eq_lanes(w, b'"') | swar::eq_lanes(w, b'\\') | swar::control_lanes(w);
    match mode {
        EscapeMode::Minimal => minimal,
        EscapeMode::Ascii => minimal | swar::non_ascii_lanes(w),
        EscapeMode::Html => {
            minimal
                | swar::eq_lanes(w, b'<')
                | swar::eq_lanes(w, b'>')
                | swar::eq_lanes(w, b'&')
                | swar::eq_lanes(w, 0xe2)
        }
    }
}

/// Index of the first byte at or after `from` flagged for `mode`, if any: eight bytes at a
/// time, then one table lookup per byte for the last few.
#[inline(always)] // one call site per twin; out of line it costs short strings ~10%
fn next_stop(bytes: &[u8], from: usize, mode: EscapeMode) -> Option<usize> {
    let mut i = from;
    while let Some(word) = bytes.get(i..i + 8) {
        let lanes = stop_lanes(swar::load(word.try_into().expect("8-byte slice")), mode);
        if lanes != 0 {
            return Some(i + swar::first_lane(lanes));
        }
        i += 8;
    }
    let stops = &STOP_TABLES[mode_index(mode)];
    bytes[i..]
        .iter()
        .position(|&b| stops[usize::from(b)])
        .map(|k| i + k)
}

/// Escapes `s` from byte `from` (a character boundary) to its end and appends the closing
/// quote: the scalar twin's whole loop, and the AVX2 twin's tail (fewer than 32 bytes, where
/// a padded vector load costs more than it saves).
#[inline(always)] // one call site per twin; out of line it costs short strings ~10%
fn escape_rest(s: &str, from: usize, mode: EscapeMode, out: &mut impl Sink) {
    let bytes = s.as_bytes();
    let mut i = from;
    while let Some(at) = next_stop(bytes, i, mode) {
        out.push(&bytes[i..at]);
        i = escape_at(s, at, mode, out);
    }
    out.push(&bytes[i..]);
    out.push(b"\"");
}

/// The portable twin: eight bytes classified per step (SWAR).
pub mod scalar {
    use super::{EscapeMode, escape_rest, escape_to_slice, escape_to_vec};
    use crate::sink::Sink;

    /// Quotes and escapes `s` into `out`.
    #[inline]
    fn escape(s: &str, mode: EscapeMode, out: &mut impl Sink) {
        out.push(b"\"");
        escape_rest(s, 0, mode, out);
    }

    /// See [`super::escape_str`].
    pub fn escape_str(s: &str, mode: EscapeMode, out: &mut Vec<u8>) {
        escape_to_vec(s, out, |sink| escape(s, mode, sink));
    }

    /// See [`super::escape_into`].
    pub fn escape_into(s: &str, mode: EscapeMode, out: &mut [u8]) -> usize {
        escape_to_slice(s, out, |sink| escape(s, mode, sink))
    }
}

/// The AVX2 implementation: 32 bytes classified per step, clean runs copied a chunk at a time,
/// the last partial chunk by the scalar loop.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    use super::{EscapeMode, escape_at, escape_rest, escape_to_slice, escape_to_vec};
    use crate::simd::{CHUNK, control_mask, eq_mask, load32};
    use crate::sink::Sink;

    /// Bit `k` set when byte `k` of `v` is flagged for `mode` (the same bytes as the scalar
    /// twin's stop table).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn stop_mask(v: __m256i, mode: EscapeMode) -> u32 {
        let minimal = eq_mask(v, b'"') | eq_mask(v, b'\\') | control_mask(v);
        match mode {
            EscapeMode::Minimal => minimal,
            EscapeMode::Ascii => minimal | _mm256_movemask_epi8(v) as u32,
            EscapeMode::Html => {
                minimal | eq_mask(v, b'<') | eq_mask(v, b'>') | eq_mask(v, b'&') | eq_mask(v, 0xe2)
            }
        }
    }

    /// Quotes and escapes `s` into `out`: whole chunks here, the last partial one by the
    /// scalar loop.
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    unsafe fn escape(s: &str, mode: EscapeMode, out: &mut impl Sink) {
        let bytes = s.as_bytes();
        out.push(b"\"");
        let mut i = 0;
        while let Some(chunk) = bytes.get(i..i + CHUNK) {
            let chunk: &[u8; CHUNK] = chunk.try_into().expect("32-byte slice");
            // SAFETY: AVX2 is enabled on this function and `i + 32 <= bytes.len()`.
            let stops = stop_mask(unsafe { load32(bytes, i, 0) }, mode);
            if stops == 0 {
                // The common case, kept apart so the next load does not wait for the mask.
                out.push_chunk(chunk, CHUNK);
                i += CHUNK;
                continue;
            }
            let run = stops.trailing_zeros() as usize;
            out.push_chunk(chunk, run);
            i = escape_at(s, i + run, mode, out);
        }
        escape_rest(s, i, mode, out);
    }

    /// See [`super::escape_str`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn escape_str(s: &str, mode: EscapeMode, out: &mut Vec<u8>) {
        // SAFETY: this function requires the same features as `escape`.
        escape_to_vec(s, out, |sink| unsafe { escape(s, mode, sink) });
    }

    /// See [`super::escape_into`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn escape_into(s: &str, mode: EscapeMode, out: &mut [u8]) -> usize {
        // SAFETY: this function requires the same features as `escape`.
        escape_to_slice(s, out, |sink| unsafe { escape(s, mode, sink) })
    }
}

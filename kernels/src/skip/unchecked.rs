//! The unchecked skip (rules 1–5 of the parent module), and the scalar twin of its container
//! walk.

use super::kernels::{Kernels, ws};
use crate::error::{ErrorKind, KernelError};
use crate::whitespace::is_whitespace;
use crate::{string_scan, swar};

/// Rules 1–5 of the unchecked skip, over the byte kernels `k`.
#[inline(always)]
pub(super) fn skip_value<K: Kernels>(k: K, buf: &[u8], pos: usize) -> Result<usize, KernelError> {
    let i = ws(k, buf, pos);
    match buf.get(i) {
        None => Err(KernelError::new(ErrorKind::ExpectedValue, buf.len())),
        Some(b'"') => Ok(k.scan_string(buf, i + 1)?.end + 1),
        Some(b'[' | b'{') => k.skip_container(buf, i),
        Some(b']' | b'}' | b',') => Err(KernelError::new(ErrorKind::ExpectedValue, i)),
        Some(_) => Ok(scalar_end(buf, i + 1)),
    }
}

/// Index of the first `,` `]` `}` or whitespace byte at or after `i`, or `buf.len()`.
#[inline]
fn scalar_end(buf: &[u8], i: usize) -> usize {
    let rest = buf.get(i..).unwrap_or_default();
    let len = rest
        .iter()
        .position(|&b| matches!(b, b',' | b']' | b'}') || is_whitespace(b))
        .unwrap_or(rest.len());
    i + len
}

/// Rule 3 of the unchecked skip: jumps between the bytes that matter eight at a time, and
/// over strings with the scalar string scan (whose rules are the same: a backslash makes the
/// next byte ordinary).
pub(super) fn skip_container(buf: &[u8], open: usize) -> Result<usize, KernelError> {
    let mut depth = 0usize;
    let mut i = open;
    loop {
        i = next_candidate(buf, i);
        let Some(&b) = buf.get(i) else {
            return Err(KernelError::new(ErrorKind::UnexpectedEnd, buf.len()));
        };
        match b {
            b'"' => i = string_scan::scalar::scan_string(buf, i + 1)?.end,
            b'\\' => i += 1,
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// The first index `>= i` that may hold `"`, `\`, or a bracket: the first such byte of the
/// first eight-byte word holding one (some other bytes, like `|`, may be reported too), or
/// the start of the last partial word.
#[inline]
fn next_candidate(buf: &[u8], mut i: usize) -> usize {
    // Minified JSON has a candidate every few bytes: look at four bytes before a word.
    for _ in 0..4 {
        match buf.get(i) {
            Some(b'"' | b'\\' | b'[' | b']' | b'{' | b'}') | None => return i,
            Some(_) => i += 1,
        }
    }
    while let Some(word) = buf.get(i..i + 8) {
        // OR 0x20 folds `[` onto `{`, `]` onto `}`, `\` onto `|`; `"` stays.
        let w = swar::load(word.try_into().expect("8-byte slice")) | 0x2020_2020_2020_2020;
        let lanes = swar::eq_lanes(w, b'{')
            | swar::eq_lanes(w, b'}')
            | swar::eq_lanes(w, b'|')
            | swar::eq_lanes(w, b'"');
        if lanes != 0 {
            return i + swar::first_lane(lanes);
        }
        i += 8;
    }
    i
}

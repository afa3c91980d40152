//! The unchecked skip (rules 1–5 of the parent module), and the scalar twin of its container
//! walk.

use super::kernels::{Kernels, ws};
use crate::error::{ErrorKind, KernelError};
use crate::string_scan;
use crate::whitespace::is_whitespace;

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

/// Rule 3 of the unchecked skip, byte by byte (strings jumped over by the scalar string
/// scan, whose rules are the same: a backslash makes the next byte ordinary).
pub(super) fn skip_container(buf: &[u8], open: usize) -> Result<usize, KernelError> {
    let mut depth = 0usize;
    let mut i = open;
    while let Some(&b) = buf.get(i) {
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
    Err(KernelError::new(ErrorKind::UnexpectedEnd, buf.len()))
}

//! Numbers appended to a growing output: each formatting kernel writes straight into bytes
//! at the end of the `Vec` (integers into bytes added and then cut to the length written,
//! floats into zmij's buffer placed in the spare capacity). No intermediate buffer: copying
//! a kernel's output out of one costs a variable-length copy (or a store-forwarding stall)
//! per number, as much as the formatting of a short number.

use crate::float_format::append_shortest;
use crate::int_format::{MAX_INT_LEN, format_i64, format_u64};

/// Runs `format` on `N` bytes added at the end of `out`, keeping the length it returns.
#[inline(always)]
fn append<const N: usize>(out: &mut Vec<u8>, format: impl FnOnce(&mut [u8; N]) -> usize) {
    let at = out.len();
    out.resize(at + N, 0);
    let buf: &mut [u8; N] = (&mut out[at..])
        .try_into()
        .expect("N bytes were just added");
    let len = format(buf);
    out.truncate(at + len);
}

/// Appends `v` in decimal ([`format_u64`]).
#[inline]
pub fn append_u64(v: u64, out: &mut Vec<u8>) {
    append::<MAX_INT_LEN>(out, |buf| format_u64(v, buf));
}

/// Appends `v` in decimal ([`format_i64`]).
#[inline]
pub fn append_i64(v: i64, out: &mut Vec<u8>) {
    append::<MAX_INT_LEN>(out, |buf| format_i64(v, buf));
}

/// Appends `v` as serde_json writes an `f64` (the text of
/// [`format_f64`](crate::float_format::format_f64); `null` when not finite).
#[inline]
pub fn append_f64(v: f64, out: &mut Vec<u8>) {
    append_shortest(v, v.is_finite(), out);
}

/// Appends `v` as serde_json writes an `f32` (the text of
/// [`format_f32`](crate::float_format::format_f32); `null` when not finite).
#[inline]
pub fn append_f32(v: f32, out: &mut Vec<u8>) {
    append_shortest(v, v.is_finite(), out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_after_existing_bytes_and_keeps_only_the_number() {
        let mut out = b"[".to_vec();
        append_u64(u64::MAX, &mut out);
        out.push(b',');
        append_i64(i64::MIN, &mut out);
        out.push(b',');
        append_f64(-0.1, &mut out);
        out.push(b',');
        append_f64(f64::NAN, &mut out);
        out.push(b',');
        append_f32(0.1, &mut out);
        assert_eq!(
            out,
            b"[18446744073709551615,-9223372036854775808,-0.1,null,0.1".to_vec()
        );
    }
}

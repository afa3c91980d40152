//! PLACEHOLDER (owned by the numbers helper): integer formatting.

/// Longest decimal form of a 64-bit integer, sign included.
pub const MAX_INT_LEN: usize = 20;

/// Writes `v` in decimal to the start of `out`; returns the length.
pub fn format_u64(v: u64, out: &mut [u8; MAX_INT_LEN]) -> usize {
    let _ = (v, out);
    unimplemented!()
}

/// Writes `v` in decimal to the start of `out`; returns the length.
pub fn format_i64(v: i64, out: &mut [u8; MAX_INT_LEN]) -> usize {
    let _ = (v, out);
    unimplemented!()
}

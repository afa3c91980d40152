//! PLACEHOLDER (owned by the numbers helper): shortest round-trip float formatting.

/// Longest output of [`format_f64`].
pub const MAX_FLOAT_LEN: usize = 24;

/// Writes the shortest round-trip form of `v` (as serde_json does; non-finite → `null`) to the
/// start of `out`; returns the length.
pub fn format_f64(v: f64, out: &mut [u8; MAX_FLOAT_LEN]) -> usize {
    let _ = (v, out);
    unimplemented!()
}

//! PLACEHOLDER (owned by the numbers helper): integer parsing.
use crate::error::KernelError;

/// Parses the JSON integer at `pos` as i64; returns the value and the index past the token.
pub fn parse_i64(buf: &[u8], pos: usize) -> Result<(i64, usize), KernelError> {
    let _ = (buf, pos);
    unimplemented!()
}

/// Parses the JSON integer at `pos` as u64; returns the value and the index past the token.
pub fn parse_u64(buf: &[u8], pos: usize) -> Result<(u64, usize), KernelError> {
    let _ = (buf, pos);
    unimplemented!()
}

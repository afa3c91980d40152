//! PLACEHOLDER (owned by the skip helper): skipping one JSON value.
use crate::error::KernelError;

/// Default nesting limit of the validating skip.
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// Skips leading whitespace and one complete JSON value from `pos`, validating it fully
/// (RFC 8259); returns the index just past the value.
pub fn skip_value(buf: &[u8], pos: usize, max_depth: usize) -> Result<usize, KernelError> {
    let _ = (buf, pos, max_depth);
    unimplemented!()
}

/// Skips leading whitespace and one value from `pos` on trusted input: balances brackets
/// outside strings only. Never reads out of bounds; truncated input is an error.
pub fn skip_value_unchecked(buf: &[u8], pos: usize) -> Result<usize, KernelError> {
    let _ = (buf, pos);
    unimplemented!()
}

/// Validates that `buf` is exactly one JSON text (value surrounded by optional whitespace).
pub fn validate_document(buf: &[u8], max_depth: usize) -> Result<(), KernelError> {
    let _ = (buf, max_depth);
    unimplemented!()
}

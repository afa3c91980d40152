//! PLACEHOLDER (owned by the strings helper): UTF-8 validation.
use crate::error::KernelError;

/// Checks that `bytes` are valid UTF-8; the error offset is the length of the valid prefix.
pub fn validate_utf8(bytes: &[u8]) -> Result<(), KernelError> {
    let _ = bytes;
    unimplemented!()
}

//! UTF-8 validation: checks that a byte slice is well-formed UTF-8.
//!
//! On failure the error offset is the length of the longest valid prefix (what
//! [`std::str::Utf8Error::valid_up_to`] reports), so both twins agree byte for byte. The AVX2
//! twin is `simdutf8`'s AVX2 implementation (its compat API, which reports that prefix) for
//! inputs of 64 bytes and more, and the `lookup` module's one- or two-block check below
//! that; the scalar twin is the standard library's validator behind an ASCII check.

use crate::error::{ErrorKind, KernelError};

#[cfg(target_arch = "x86_64")]
mod lookup;

/// Checks that `bytes` are valid UTF-8.
///
/// Fails with [`ErrorKind::InvalidUtf8`] whose offset is the length of the valid prefix.
#[inline]
pub fn validate_utf8(bytes: &[u8]) -> Result<(), KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::validate_utf8(bytes) };
    }
    scalar::validate_utf8(bytes)
}

/// The error for input whose first `valid_up_to` bytes are valid UTF-8 and the rest not.
fn invalid_after(valid_up_to: usize) -> KernelError {
    KernelError::new(ErrorKind::InvalidUtf8, valid_up_to)
}

/// The portable twin: an ASCII check, then the standard library's validator.
pub mod scalar {
    use super::invalid_after;
    use crate::error::KernelError;

    /// See [`super::validate_utf8`].
    pub fn validate_utf8(bytes: &[u8]) -> Result<(), KernelError> {
        // `is_ascii` stops at the first non-ASCII byte, so it costs little when it fails, and
        // on short ASCII inputs (most JSON strings) it is twice as fast as `from_utf8` alone.
        if bytes.is_ascii() {
            return Ok(());
        }
        std::str::from_utf8(bytes)
            .map(drop)
            .map_err(|e| invalid_after(e.valid_up_to()))
    }
}

/// The AVX2 implementation: `simdutf8`'s AVX2 validator, 64 bytes per step, and the lookup
/// check on one or two 32-byte blocks for shorter inputs.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::{invalid_after, lookup};
    use crate::error::KernelError;

    /// Inputs shorter than this take the lookup check. On short ASCII inputs simdutf8's
    /// setup for one 64-byte block (its tail copied to the stack) costs more than an ASCII
    /// check, and on short non-ASCII ones std decodes character by character; the lookup
    /// check beats both (kernel bench `validate_utf8/twitter_strings` and
    /// `validate_utf8/twitter_non_ascii_strings`).
    const SHORT: usize = 64;

    /// See [`super::validate_utf8`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn validate_utf8(bytes: &[u8]) -> Result<(), KernelError> {
        if bytes.len() < SHORT {
            // SAFETY: the caller guarantees AVX2.
            if unsafe { lookup::is_valid(bytes) } {
                return Ok(());
            }
            // Invalid input: the scalar twin finds the error's offset.
            return super::scalar::validate_utf8(bytes);
        }
        // SAFETY: the caller guarantees AVX2, the only feature simdutf8's AVX2 code needs; it
        // reads only inside `bytes` (its tail is copied into a stack block).
        unsafe { simdutf8::compat::imp::x86::avx2::validate_utf8(bytes) }
            .map_err(|e| invalid_after(e.valid_up_to()))
    }
}

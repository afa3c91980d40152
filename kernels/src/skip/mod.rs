//! Skipping one JSON value: a validating skip (a full RFC 8259 check of the value) and an
//! unchecked skip for trusted input (bracket balancing only).
//!
//! Both skips are iterative: nesting costs one bit (validating) or one counter step
//! (unchecked), never a stack frame, so no input can overflow the stack.
//!
//! # The validating skip ([`skip_value`], [`validate_document`])
//!
//! Skips leading whitespace, then exactly one value, and checks everything RFC 8259 requires:
//! the literals `true` `false` `null` exactly; numbers by [`crate::number::scan_number`];
//! strings closed, without raw control bytes, with valid escapes (strict surrogates, see
//! [`crate::unescape`]) and valid UTF-8; objects of `"key": value` members and arrays of values,
//! separated by single commas, without trailing commas. A number or literal must be followed by
//! a *delimiter*: the end of the input, whitespace, `,`, `]` or `}` (so `12ab` and `truex` are
//! errors, not a value followed by something else).
//!
//! Errors are a kind and the absolute offset in `buf` of the first byte found wrong:
//!
//! | kind | when | offset |
//! |---|---|---|
//! | [`ExpectedValue`](crate::ErrorKind::ExpectedValue) | a value position holds a byte that cannot start a value, or the input holds only whitespace from `pos` | that byte, or `buf.len()` |
//! | [`UnexpectedEnd`](crate::ErrorKind::UnexpectedEnd) | the input ends inside a value (open container, string, literal, number) | `buf.len()` |
//! | [`UnexpectedByte`](crate::ErrorKind::UnexpectedByte) | a literal is misspelled or runs on (`nul`+`x`, `truex`) | the first wrong byte |
//! | [`InvalidNumber`](crate::ErrorKind::InvalidNumber) | a number breaks the grammar or runs on (`01`, `1.`+`x`, `12ab`) | the first wrong byte |
//! | [`ExpectedKey`](crate::ErrorKind::ExpectedKey) | an object member does not start with a string (`{1:2}`, `{"a":1,}`) | that byte |
//! | [`ExpectedColon`](crate::ErrorKind::ExpectedColon) | a key is not followed by `:` | that byte |
//! | [`ExpectedCommaOrEnd`](crate::ErrorKind::ExpectedCommaOrEnd) | an element is not followed by `,` or the right closing bracket (`[1}`) | that byte |
//! | [`ControlInString`](crate::ErrorKind::ControlInString) | a raw byte below 0x20 in a string | that byte |
//! | [`InvalidEscape`](crate::ErrorKind::InvalidEscape), [`InvalidUnicodeEscape`](crate::ErrorKind::InvalidUnicodeEscape), [`LoneSurrogate`](crate::ErrorKind::LoneSurrogate) | a bad escape | its backslash |
//! | [`InvalidUtf8`](crate::ErrorKind::InvalidUtf8) | a string holds bytes that are not UTF-8 | the first bad byte |
//! | [`DepthLimitExceeded`](crate::ErrorKind::DepthLimitExceeded) | a container would nest deeper than `max_depth` | its opening bracket |
//! | [`TrailingCharacters`](crate::ErrorKind::TrailingCharacters) | [`validate_document`] only: non-whitespace after the value | the first such byte |
//!
//! Within one terminated string the error at the smallest offset wins (a control byte, a bad
//! escape or a bad UTF-8 byte). A string that never closes is
//! [`UnexpectedEnd`](crate::ErrorKind::UnexpectedEnd) at `buf.len()`, unless it holds a raw control
//! byte (typically the line feed that shows where the quote is missing): then it is
//! [`ControlInString`](crate::ErrorKind::ControlInString) at the first one. Escapes and UTF-8 of an
//! unterminated string are not judged, since the cut may fall inside one.
//!
//! The depth of a container is the number of containers enclosing it, itself included:
//! `max_depth = 0` accepts only scalars, `max_depth = 1` accepts `[1]` but not `[[1]]`.
//!
//! # The unchecked skip ([`skip_value_unchecked`])
//!
//! For input already known to be valid JSON. It never reads out of bounds and gives the same
//! answer as the validating skip on valid JSON; on any other input it follows these rules
//! exactly (both twins agree byte for byte):
//!
//! 1. Skip whitespace from `pos`; if nothing is left, [`ExpectedValue`](crate::ErrorKind::ExpectedValue)
//!    at `buf.len()`.
//! 2. At `"`: the value ends after the closing quote, found as in
//!    [`crate::string_scan::scan_string`] (a backslash makes the byte after it ordinary);
//!    none → [`UnexpectedEnd`](crate::ErrorKind::UnexpectedEnd) at `buf.len()`.
//! 3. At `[` or `{` (index `s`): walk the bytes from `s` with a depth counter, where a
//!    backslash anywhere (inside or outside strings) makes the next byte ordinary, an
//!    ordinary `"` toggles "inside a string", and outside strings an ordinary `[` or `{` adds
//!    one and an ordinary `]` or `}` subtracts one (the kinds of brackets are not matched).
//!    The value ends just after the bracket that brings the depth back to 0; if the input
//!    ends first, [`UnexpectedEnd`](crate::ErrorKind::UnexpectedEnd) at `buf.len()`.
//! 4. At `]`, `}` or `,`: [`ExpectedValue`](crate::ErrorKind::ExpectedValue) at that byte.
//! 5. Any other byte starts a scalar, which ends at the next `,`, `]`, `}`, whitespace byte, or
//!    the end of the input.
//!
//! # Twins
//!
//! [`scalar`] and [`avx2`] hold the two implementation families; the dispatching functions
//! pick one per process ([`crate::dispatch`]). The validating skip is one state machine over
//! the byte kernels (whitespace, string scan, escapes, UTF-8) of the chosen family; the
//! unchecked skip's AVX2 twin balances brackets 64 bytes at a time (quote, backslash-escape and
//! in-string masks, the last by carry-less multiplication), its scalar twin byte by byte.

use crate::error::KernelError;

#[cfg(target_arch = "x86_64")]
mod block;
mod kernels;
mod unchecked;
mod validate;

/// Default nesting limit of the validating skip.
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// Skips leading whitespace and one complete JSON value from `pos`, validating it fully
/// (RFC 8259); returns the index just past the value. See the module documentation for the
/// rules and error offsets.
#[inline]
pub fn skip_value(buf: &[u8], pos: usize, max_depth: usize) -> Result<usize, KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::skip_value(buf, pos, max_depth) };
    }
    scalar::skip_value(buf, pos, max_depth)
}

/// Skips leading whitespace and one value from `pos` on trusted input: balances brackets
/// outside strings only (see the module documentation for the exact rules). Never reads out
/// of bounds; truncated input is [`ErrorKind::UnexpectedEnd`](crate::ErrorKind::UnexpectedEnd).
#[inline]
pub fn skip_value_unchecked(buf: &[u8], pos: usize) -> Result<usize, KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::skip_value_unchecked(buf, pos) };
    }
    scalar::skip_value_unchecked(buf, pos)
}

/// Validates that `buf` is exactly one JSON text: optional whitespace, one value, optional
/// whitespace. Empty or whitespace-only input is
/// [`ExpectedValue`](crate::ErrorKind::ExpectedValue) at `buf.len()`; bytes after the value are
/// [`TrailingCharacters`](crate::ErrorKind::TrailingCharacters) at the first one.
#[inline]
pub fn validate_document(buf: &[u8], max_depth: usize) -> Result<(), KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::validate_document(buf, max_depth) };
    }
    scalar::validate_document(buf, max_depth)
}

/// The portable twins.
pub mod scalar {
    use super::kernels::Scalar;
    use super::{unchecked, validate};
    use crate::error::KernelError;

    /// See [`super::skip_value`].
    pub fn skip_value(buf: &[u8], pos: usize, max_depth: usize) -> Result<usize, KernelError> {
        validate::skip_value(Scalar, buf, pos, max_depth)
    }

    /// See [`super::skip_value_unchecked`].
    pub fn skip_value_unchecked(buf: &[u8], pos: usize) -> Result<usize, KernelError> {
        unchecked::skip_value(Scalar, buf, pos)
    }

    /// See [`super::validate_document`].
    pub fn validate_document(buf: &[u8], max_depth: usize) -> Result<(), KernelError> {
        validate::validate_document(Scalar, buf, max_depth)
    }
}

/// The AVX2 twins.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::kernels::Avx2;
    use super::{unchecked, validate};
    use crate::error::KernelError;

    /// See [`super::skip_value`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn skip_value(
        buf: &[u8],
        pos: usize,
        max_depth: usize,
    ) -> Result<usize, KernelError> {
        // SAFETY: the caller guarantees the CPU features `Avx2` stands for.
        let kernels = unsafe { Avx2::new() };
        validate::skip_value(kernels, buf, pos, max_depth)
    }

    /// See [`super::skip_value_unchecked`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn skip_value_unchecked(buf: &[u8], pos: usize) -> Result<usize, KernelError> {
        // SAFETY: the caller guarantees the CPU features `Avx2` stands for.
        let kernels = unsafe { Avx2::new() };
        unchecked::skip_value(kernels, buf, pos)
    }

    /// See [`super::validate_document`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn validate_document(buf: &[u8], max_depth: usize) -> Result<(), KernelError> {
        // SAFETY: the caller guarantees the CPU features `Avx2` stands for.
        let kernels = unsafe { Avx2::new() };
        validate::validate_document(kernels, buf, max_depth)
    }
}

//! The byte kernels the skips are built from, as one family: [`Scalar`] or [`Avx2`].
//!
//! The skip state machines are generic over [`Kernels`], so the scalar and AVX2 skips are the
//! same code calling different byte loops, and agree wherever those loops agree.

use crate::error::KernelError;
use crate::string_scan::{self, StringScan};
use crate::unescape::{self, Surrogates};
use crate::{utf8, whitespace};

/// One family of byte kernels.
pub(super) trait Kernels: Copy {
    /// [`whitespace::skip_whitespace`].
    fn skip_whitespace(self, buf: &[u8], pos: usize) -> usize;
    /// [`string_scan::scan_string`].
    fn scan_string(self, buf: &[u8], start: usize) -> Result<StringScan, KernelError>;
    /// [`utf8::validate_utf8`].
    fn validate_utf8(self, bytes: &[u8]) -> Result<(), KernelError>;
    /// [`unescape::validate_escapes`] with strict surrogates.
    fn validate_escapes(self, body: &[u8]) -> Result<(), KernelError>;
    /// The closing quote of the string body starting at `start` when the body is short and
    /// plain (ASCII from 0x20 up, without backslashes), which makes it valid; `None` says
    /// nothing about the body. A fast path only: it never changes a result.
    fn plain_string_end(self, buf: &[u8], start: usize) -> Option<usize>;
    /// Rule 3 of the unchecked skip (see the parent module): the index just past the
    /// container whose opening bracket is at `open`.
    fn skip_container(self, buf: &[u8], open: usize) -> Result<usize, KernelError>;
}

/// Skips whitespace at `i` with `k`, answering the common cases of none or one whitespace
/// byte without a kernel call.
#[inline(always)]
pub(super) fn ws<K: Kernels>(k: K, buf: &[u8], i: usize) -> usize {
    match buf.get(i) {
        Some(&b) if whitespace::is_whitespace(b) => match buf.get(i + 1) {
            Some(&c) if whitespace::is_whitespace(c) => k.skip_whitespace(buf, i + 2),
            _ => i + 1,
        },
        _ => i,
    }
}

/// The portable family.
#[derive(Clone, Copy)]
pub(super) struct Scalar;

impl Kernels for Scalar {
    #[inline]
    fn skip_whitespace(self, buf: &[u8], pos: usize) -> usize {
        whitespace::scalar::skip_whitespace(buf, pos)
    }

    #[inline]
    fn scan_string(self, buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
        string_scan::scalar::scan_string(buf, start)
    }

    #[inline]
    fn validate_utf8(self, bytes: &[u8]) -> Result<(), KernelError> {
        utf8::scalar::validate_utf8(bytes)
    }

    #[inline]
    fn validate_escapes(self, body: &[u8]) -> Result<(), KernelError> {
        unescape::scalar::validate_escapes(body, Surrogates::Strict)
    }

    #[inline]
    fn plain_string_end(self, _buf: &[u8], _start: usize) -> Option<usize> {
        // No fast path: the scalar string scan is already the cheapest answer.
        None
    }

    #[inline]
    fn skip_container(self, buf: &[u8], open: usize) -> Result<usize, KernelError> {
        super::unchecked::skip_container(buf, open)
    }
}

/// The AVX2 family. A value exists only where the CPU supports every feature in
/// [`crate::dispatch::AVX2_FEATURES`] (see [`Avx2::new`]).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Avx2 {
    _proof: (),
}

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The AVX2 family.
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[inline]
    pub(super) unsafe fn new() -> Avx2 {
        Avx2 { _proof: () }
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernels for Avx2 {
    #[inline(always)]
    fn skip_whitespace(self, buf: &[u8], pos: usize) -> usize {
        // SAFETY: an `Avx2` value proves the CPU features (see `Avx2::new`).
        if let Some(end) = unsafe { super::block::short_whitespace_end(buf, pos) } {
            return end;
        }
        // SAFETY: an `Avx2` value proves the CPU features (see `Avx2::new`).
        unsafe { whitespace::avx2::skip_whitespace(buf, pos) }
    }

    #[inline(always)]
    fn scan_string(self, buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
        // SAFETY: an `Avx2` value proves the CPU features (see `Avx2::new`).
        unsafe { string_scan::avx2::scan_string(buf, start) }
    }

    #[inline(always)]
    fn validate_utf8(self, bytes: &[u8]) -> Result<(), KernelError> {
        // SAFETY: an `Avx2` value proves the CPU features (see `Avx2::new`).
        unsafe { utf8::avx2::validate_utf8(bytes) }
    }

    #[inline(always)]
    fn validate_escapes(self, body: &[u8]) -> Result<(), KernelError> {
        // SAFETY: an `Avx2` value proves the CPU features (see `Avx2::new`).
        unsafe { unescape::avx2::validate_escapes(body, Surrogates::Strict) }
    }

    #[inline(always)]
    fn plain_string_end(self, buf: &[u8], start: usize) -> Option<usize> {
        // SAFETY: an `Avx2` value proves the CPU features (see `Avx2::new`).
        unsafe { super::block::plain_string_end(buf, start) }
    }

    #[inline(always)]
    fn skip_container(self, buf: &[u8], open: usize) -> Result<usize, KernelError> {
        // SAFETY: an `Avx2` value proves the CPU features (see `Avx2::new`).
        unsafe { super::block::skip_container(buf, open) }
    }
}

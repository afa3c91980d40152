//! The `extern "C"` entry points JIT code calls: integer and pointer arguments only, and at
//! most two integer results ([`FfiResult`], or [`NumberRead`] for the number readers;
//! returned in two registers on SystemV).
//!
//! Every entry point catches panics (a panic must never unwind into a JIT frame, which has no
//! unwind information) and reports one as [`STATUS_PANIC`]. Status `0` is success; any other
//! status is an [`ErrorKind`] code, with the error offset in `value` ([`NumberRead`] packs
//! the same status beside its error bit).
//!
//! # Safety contract shared by every entry point
//! Each `(ptr, len)` pair must describe memory valid for reads (or writes, for outputs) of
//! `len` bytes for the duration of the call, and input and output ranges must not overlap.
//! A zero `len` may come with any non-null, well-aligned pointer (for example dangling).

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::error::{ErrorKind, KernelError};
use crate::escape::{self, EscapeMode};
use crate::float_parse::{self, FloatOverflow};
use crate::number_bounds::{self, F64Bounds};
use crate::number_parse::{self, NumberValue};
use crate::unescape::{self, Surrogates};
use crate::{float_format, int_format, int_parse, skip, string_scan, utf8, whitespace};

/// Status of an entry point whose kernel panicked (a bug; never an input error).
pub const STATUS_PANIC: u64 = 0xff;

/// Two-register result of an entry point: `status` 0 and a result in `value`, or an
/// [`ErrorKind`] code and the error offset.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FfiResult {
    /// 0 on success, otherwise an [`ErrorKind`] code or [`STATUS_PANIC`].
    pub status: u64,
    /// The result on success; the error offset on failure.
    pub value: u64,
}

impl FfiResult {
    /// Success carrying `value`.
    pub fn ok(value: u64) -> FfiResult {
        FfiResult { status: 0, value }
    }

    /// Failure carrying the error's kind and offset.
    pub fn err(e: KernelError) -> FfiResult {
        FfiResult {
            status: u64::from(e.kind.code()),
            value: e.offset as u64,
        }
    }

    /// Back to a Rust result; a panic status becomes `None` in the error position.
    pub fn into_result(self) -> Result<u64, Option<KernelError>> {
        if self.status == 0 {
            return Ok(self.value);
        }
        Err(status_error(self.status, self.value))
    }
}

/// The error a non-zero status and its offset report; `None` for a panic (or an unknown code).
fn status_error(status: u64, offset: u64) -> Option<KernelError> {
    let kind = u32::try_from(status).ok().and_then(ErrorKind::from_code);
    kind.map(|k| KernelError::new(k, offset as usize))
}

/// Runs `f`, a panic caught as [`STATUS_PANIC`]. Always inlined: an entry point is then one
/// function with its kernel call known (two entries sharing a body made it an outlined call
/// through a function pointer, measured 15 % slower on canada's decode).
#[inline(always)]
fn guarded(f: impl FnOnce() -> Result<u64, KernelError>) -> FfiResult {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => FfiResult::ok(v),
        Ok(Err(e)) => FfiResult::err(e),
        Err(_) => FfiResult {
            status: STATUS_PANIC,
            value: 0,
        },
    }
}

/// # Safety
/// `ptr` is valid for reads of `len` bytes (see the module's contract).
unsafe fn input<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    // SAFETY: the caller guarantees `ptr..ptr+len` is readable; a zero length with a
    // well-aligned pointer is a valid empty slice.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// # Safety
/// `ptr` is valid for writes of `len` bytes (see the module's contract).
unsafe fn output<'a>(ptr: *mut u8, len: usize) -> &'a mut [u8] {
    // SAFETY: the caller guarantees `ptr..ptr+len` is writable and not aliased.
    unsafe { std::slice::from_raw_parts_mut(ptr, len) }
}

/// [`whitespace::skip_whitespace`]: `value` is the index of the first non-whitespace byte.
///
/// # Safety
/// See the module's contract.
pub unsafe extern "C" fn jitson_skip_whitespace(
    ptr: *const u8,
    len: usize,
    pos: usize,
) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { input(ptr, len) };
    guarded(|| Ok(whitespace::skip_whitespace(buf, pos) as u64))
}

/// [`string_scan::scan_string`]: `value` is the closing quote's index; `*flags_out` receives
/// bit 0 = has escapes, and bits 1.. = (first control byte index + 1), 0 when none.
///
/// # Safety
/// See the module's contract; `flags_out` is valid for one `u64` write.
pub unsafe extern "C" fn jitson_scan_string(
    ptr: *const u8,
    len: usize,
    start: usize,
    flags_out: *mut u64,
) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { input(ptr, len) };
    guarded(|| {
        let scan = string_scan::scan_string(buf, start)?;
        let control = scan.first_control.map_or(0, |c| c as u64 + 1);
        // SAFETY: the caller guarantees `flags_out` is writable.
        unsafe { flags_out.write(u64::from(scan.has_escapes) | (control << 1)) };
        Ok(scan.end as u64)
    })
}

/// [`string_scan::scan_checked`]: the scan plus the checks every string body needs, no raw
/// control byte ([`ErrorKind::ControlInString`] at it) and valid UTF-8
/// ([`ErrorKind::InvalidUtf8`] at the absolute offset). `value` is the closing quote's index; `*flags_out` bit 0 = has escapes
/// (the escapes themselves are checked by [`jitson_validate_escapes`]).
///
/// # Safety
/// See the module's contract; `flags_out` is valid for one `u64` write.
pub unsafe extern "C" fn jitson_scan_string_utf8(
    ptr: *const u8,
    len: usize,
    start: usize,
    flags_out: *mut u64,
) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { input(ptr, len) };
    guarded(|| {
        let scan = string_scan::scan_checked(buf, start)?;
        // SAFETY: the caller guarantees `flags_out` is writable.
        unsafe { flags_out.write(u64::from(scan.has_escapes)) };
        Ok(scan.end as u64)
    })
}

/// [`unescape::validate_escapes`] with strict surrogates on a string body: `value` is 0;
/// error offsets are relative to `ptr`.
///
/// # Safety
/// See the module's contract.
pub unsafe extern "C" fn jitson_validate_escapes(ptr: *const u8, len: usize) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let body = unsafe { input(ptr, len) };
    guarded(|| unescape::validate_escapes(body, Surrogates::Strict).map(|()| 0))
}

/// [`unescape::unescape_into`]: `value` is the number of bytes written to `out`. `lossy` != 0
/// selects [`Surrogates::Lossy`]. `out_len` must be at least `len`.
///
/// # Safety
/// See the module's contract.
pub unsafe extern "C" fn jitson_unescape(
    ptr: *const u8,
    len: usize,
    out: *mut u8,
    out_len: usize,
    lossy: u32,
) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let (body, out) = unsafe { (input(ptr, len), output(out, out_len)) };
    guarded(|| {
        if out.len() < body.len() {
            return Err(KernelError::new(ErrorKind::OutputTooSmall, 0));
        }
        let mode = if lossy != 0 {
            Surrogates::Lossy
        } else {
            Surrogates::Strict
        };
        Ok(unescape::unescape_into(body, out, mode)? as u64)
    })
}

/// [`escape::escape_into`]: `value` is the number of bytes written. `mode`: 0 minimal, 1 ASCII,
/// 2 HTML-safe. The input must be valid UTF-8 (it is checked; invalid input is an error), and
/// `out_len` at least [`escape::max_escaped_len`]`(len)`.
///
/// # Safety
/// See the module's contract.
pub unsafe extern "C" fn jitson_escape(
    ptr: *const u8,
    len: usize,
    out: *mut u8,
    out_len: usize,
    mode: u32,
) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let (bytes, out) = unsafe { (input(ptr, len), output(out, out_len)) };
    guarded(|| {
        let s = std::str::from_utf8(bytes)
            .map_err(|e| KernelError::new(ErrorKind::InvalidUtf8, e.valid_up_to()))?;
        if out.len() < escape::max_escaped_len(s.len()) {
            return Err(KernelError::new(ErrorKind::OutputTooSmall, 0));
        }
        let mode = match mode {
            0 => EscapeMode::Minimal,
            1 => EscapeMode::Ascii,
            _ => EscapeMode::Html,
        };
        Ok(escape::escape_into(s, mode, out) as u64)
    })
}

/// [`utf8::validate_utf8`]: `value` is 0 on success.
///
/// # Safety
/// See the module's contract.
pub unsafe extern "C" fn jitson_validate_utf8(ptr: *const u8, len: usize) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let bytes = unsafe { input(ptr, len) };
    guarded(|| utf8::validate_utf8(bytes).map(|()| 0))
}

/// [`skip::skip_value`]: `value` is the index just past the value.
///
/// # Safety
/// See the module's contract.
pub unsafe extern "C" fn jitson_skip_value(
    ptr: *const u8,
    len: usize,
    pos: usize,
    max_depth: usize,
) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { input(ptr, len) };
    guarded(|| Ok(skip::skip_value(buf, pos, max_depth)? as u64))
}

/// [`skip::skip_value_unchecked`]: `value` is the index just past the value.
///
/// # Safety
/// See the module's contract.
pub unsafe extern "C" fn jitson_skip_value_unchecked(
    ptr: *const u8,
    len: usize,
    pos: usize,
) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { input(ptr, len) };
    guarded(|| Ok(skip::skip_value_unchecked(buf, pos)? as u64))
}

/// [`int_parse::parse_i64`]: `value` is the i64 (as two's complement); `*end_out` the index
/// past the token.
///
/// # Safety
/// See the module's contract; `end_out` is valid for one `u64` write.
pub unsafe extern "C" fn jitson_parse_i64(
    ptr: *const u8,
    len: usize,
    pos: usize,
    end_out: *mut u64,
) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { input(ptr, len) };
    guarded(|| {
        let (v, end) = int_parse::parse_i64(buf, pos)?;
        // SAFETY: the caller guarantees `end_out` is writable.
        unsafe { end_out.write(end as u64) };
        Ok(v as u64)
    })
}

/// [`int_parse::parse_u64`]: `value` is the u64; `*end_out` the index past the token.
///
/// # Safety
/// See the module's contract; `end_out` is valid for one `u64` write.
pub unsafe extern "C" fn jitson_parse_u64(
    ptr: *const u8,
    len: usize,
    pos: usize,
    end_out: *mut u64,
) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { input(ptr, len) };
    guarded(|| {
        let (v, end) = int_parse::parse_u64(buf, pos)?;
        // SAFETY: the caller guarantees `end_out` is writable.
        unsafe { end_out.write(end as u64) };
        Ok(v)
    })
}

/// [`float_parse::parse_f64`]: `value` is the f64's bits; `*end_out` the index past the token.
/// `overflow_to_inf` != 0 selects [`FloatOverflow::Infinity`].
///
/// # Safety
/// See the module's contract; `end_out` is valid for one `u64` write.
pub unsafe extern "C" fn jitson_parse_f64(
    ptr: *const u8,
    len: usize,
    pos: usize,
    overflow_to_inf: u32,
    end_out: *mut u64,
) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { input(ptr, len) };
    guarded(|| {
        let overflow = if overflow_to_inf != 0 {
            FloatOverflow::Infinity
        } else {
            FloatOverflow::Error
        };
        let (v, end) = float_parse::parse_f64(buf, pos, overflow)?;
        // SAFETY: the caller guarantees `end_out` is writable.
        unsafe { end_out.write(end as u64) };
        Ok(v.to_bits())
    })
}

/// [`crate::number_parse::NumberValue`] variants as [`jitson_parse_number`] reports them.
pub mod number_kind {
    /// `U64`: `value` is the u64.
    pub const U64: u64 = 0;
    /// `I64`: `value` is the i64 (as two's complement).
    pub const I64: u64 = 1;
    /// `F64`: `value` is the f64's bits.
    pub const F64: u64 = 2;
    /// `BigInt`: `value` is 0.
    pub const BIG_INT: u64 = 3;
}

/// Two-register result of the number entry points ([`jitson_parse_number`]): the token's
/// kind, value and end with no output through memory (a result written through pointers
/// cost generated code a stack slot's stores and loads per number).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumberRead {
    /// On success the index past the token shifted left by [`NumberRead::KIND_BITS`], with
    /// the [`number_kind`] below (never negative as an `i64`: an index fits in 61 bits). On
    /// an error [`NumberRead::ERROR`] with the [`ErrorKind`] code (or [`STATUS_PANIC`]) in
    /// the low bits.
    pub end_kind: u64,
    /// On success the value as [`number_kind`] says; on an error the error's offset.
    pub value: u64,
}

impl NumberRead {
    /// Bits of [`NumberRead::end_kind`] holding the kind.
    pub const KIND_BITS: u32 = 2;
    /// The bit of [`NumberRead::end_kind`] set on an error (its sign bit as an `i64`).
    pub const ERROR: u64 = 1 << 63;

    /// The [`end_kind`](NumberRead::end_kind) field of a token of `kind` ending at `end`.
    fn pack(kind: u64, end: usize) -> u64 {
        (end as u64) << Self::KIND_BITS | kind
    }

    /// Back to a Rust result: `(kind, value, end)`, or the error as
    /// [`FfiResult::into_result`] gives it.
    pub fn into_result(self) -> Result<(u64, u64, usize), Option<KernelError>> {
        if self.end_kind & Self::ERROR == 0 {
            let kind = self.end_kind & ((1 << Self::KIND_BITS) - 1);
            return Ok((
                kind,
                self.value,
                (self.end_kind >> Self::KIND_BITS) as usize,
            ));
        }
        Err(status_error(self.end_kind & !Self::ERROR, self.value))
    }
}

/// [`number_parse::parse_number`], answered as [`NumberRead`].
///
/// # Safety
/// See the module's contract.
pub unsafe extern "C" fn jitson_parse_number(ptr: *const u8, len: usize, pos: usize) -> NumberRead {
    // SAFETY: forwarded caller contract.
    unsafe { number_read(number_parse::parse_number, ptr, len, pos) }
}

/// [`number_parse::parse_integer`] (a token expected to be an integer), as
/// [`jitson_parse_number`].
///
/// # Safety
/// As [`jitson_parse_number`].
pub unsafe extern "C" fn jitson_parse_integer(
    ptr: *const u8,
    len: usize,
    pos: usize,
) -> NumberRead {
    // SAFETY: forwarded caller contract.
    unsafe { number_read(number_parse::parse_integer, ptr, len, pos) }
}

/// Runs `read`, a reader of one number token (the kernels of [`number_parse`]), at `pos`
/// and answers as [`jitson_parse_number`] documents.
///
/// # Safety
/// As [`jitson_parse_number`].
#[inline(always)]
unsafe fn number_read(
    read: impl FnOnce(&[u8], usize) -> Result<(NumberValue, usize), KernelError>,
    ptr: *const u8,
    len: usize,
    pos: usize,
) -> NumberRead {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { input(ptr, len) };
    let mut value = 0;
    let tagged = guarded(|| {
        let (v, end) = read(buf, pos)?;
        let (kind, bits) = match v {
            NumberValue::U64(u) => (number_kind::U64, u),
            NumberValue::I64(i) => (number_kind::I64, i as u64),
            NumberValue::F64(f) => (number_kind::F64, f.to_bits()),
            NumberValue::BigInt => (number_kind::BIG_INT, 0),
        };
        value = bits;
        Ok(NumberRead::pack(kind, end))
    });
    match tagged.status {
        0 => NumberRead {
            end_kind: tagged.value,
            value,
        },
        status => NumberRead {
            end_kind: NumberRead::ERROR | status,
            value: tagged.value,
        },
    }
}

/// [`int_format::format_i64`]: writes to `out` (at least [`int_format::MAX_INT_LEN`] bytes);
/// `value` is the length.
///
/// # Safety
/// `out` is valid for writes of `MAX_INT_LEN` bytes.
pub unsafe extern "C" fn jitson_format_i64(v: i64, out: *mut u8) -> FfiResult {
    // SAFETY: the caller guarantees `MAX_INT_LEN` writable bytes at `out`; u8 has alignment 1.
    let out = unsafe { &mut *out.cast::<[u8; int_format::MAX_INT_LEN]>() };
    guarded(|| Ok(int_format::format_i64(v, out) as u64))
}

/// [`int_format::format_u64`]: writes to `out` (at least [`int_format::MAX_INT_LEN`] bytes);
/// `value` is the length.
///
/// # Safety
/// `out` is valid for writes of `MAX_INT_LEN` bytes.
pub unsafe extern "C" fn jitson_format_u64(v: u64, out: *mut u8) -> FfiResult {
    // SAFETY: the caller guarantees `MAX_INT_LEN` writable bytes at `out`; u8 has alignment 1.
    let out = unsafe { &mut *out.cast::<[u8; int_format::MAX_INT_LEN]>() };
    guarded(|| Ok(int_format::format_u64(v, out) as u64))
}

/// [`float_format::format_f64`] of the f64 with bits `bits`: writes to `out` (at least
/// [`float_format::MAX_FLOAT_LEN`] bytes); `value` is the length.
///
/// # Safety
/// `out` is valid for writes of `MAX_FLOAT_LEN` bytes.
pub unsafe extern "C" fn jitson_format_f64(bits: u64, out: *mut u8) -> FfiResult {
    // SAFETY: the caller guarantees `MAX_FLOAT_LEN` writable bytes at `out`; u8 has alignment 1.
    let out = unsafe { &mut *out.cast::<[u8; float_format::MAX_FLOAT_LEN]>() };
    guarded(|| Ok(float_format::format_f64(f64::from_bits(bits), out) as u64))
}

/// Flag bits of [`jitson_number_within`]'s `flags`.
pub mod bounds_flag {
    /// [`F64Bounds::integer`](crate::number_bounds::F64Bounds::integer).
    pub const INTEGER: u64 = 1;
    /// [`F64Bounds::min_exclusive`](crate::number_bounds::F64Bounds::min_exclusive).
    pub const MIN_EXCLUSIVE: u64 = 2;
    /// [`F64Bounds::max_exclusive`](crate::number_bounds::F64Bounds::max_exclusive).
    pub const MAX_EXCLUSIVE: u64 = 4;
}

/// [`number_bounds::number_within`] with the bounds `min` and `max` (as `f64` bits) and
/// [`bounds_flag`]s: `value` is the index past the token when it is certainly within them,
/// 0 when it is not or is undecided.
///
/// # Safety
/// See the module's contract.
pub unsafe extern "C" fn jitson_number_within(
    ptr: *const u8,
    len: usize,
    pos: usize,
    min: u64,
    max: u64,
    flags: u64,
) -> FfiResult {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { input(ptr, len) };
    guarded(|| {
        let bounds = F64Bounds {
            min: f64::from_bits(min),
            min_exclusive: flags & bounds_flag::MIN_EXCLUSIVE != 0,
            max: f64::from_bits(max),
            max_exclusive: flags & bounds_flag::MAX_EXCLUSIVE != 0,
            integer: flags & bounds_flag::INTEGER != 0,
        };
        let (within, end) = number_bounds::number_within(buf, pos, &bounds)?;
        Ok(if within { end as u64 } else { 0 })
    })
}

/// The entry points that call an AVX2 twin directly, for CPUs the AVX2 kernels run on (see
/// [`entry_point`]).
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::{NumberRead, number_read};
    use crate::number_parse;

    /// [`super::jitson_parse_number`] without the dispatch: one call from generated code
    /// into the AVX2 reader (the dispatching entry is three: the entry, the dispatch, the
    /// twin).
    ///
    /// # Safety
    /// As [`super::jitson_parse_number`]; the CPU must support every feature in
    /// [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe extern "C" fn jitson_parse_number_avx2(
        ptr: *const u8,
        len: usize,
        pos: usize,
    ) -> NumberRead {
        // SAFETY: forwarded caller contract (which includes the CPU features).
        unsafe {
            number_read(
                |buf, pos| number_parse::avx2::parse_number(buf, pos),
                ptr,
                len,
                pos,
            )
        }
    }

    /// [`super::jitson_parse_integer`] without the dispatch, as
    /// [`jitson_parse_number_avx2`].
    ///
    /// # Safety
    /// As [`jitson_parse_number_avx2`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe extern "C" fn jitson_parse_integer_avx2(
        ptr: *const u8,
        len: usize,
        pos: usize,
    ) -> NumberRead {
        // SAFETY: forwarded caller contract (which includes the CPU features).
        unsafe {
            number_read(
                |buf, pos| number_parse::avx2::parse_integer(buf, pos),
                ptr,
                len,
                pos,
            )
        }
    }

    /// The entries above by the name of the dispatching entry they stand in for.
    pub(super) const ENTRY_POINTS: &[(&str, *const u8)] = &[
        ("jitson_parse_number", jitson_parse_number_avx2 as *const u8),
        (
            "jitson_parse_integer",
            jitson_parse_integer_avx2 as *const u8,
        ),
    ];
}

/// The address generated code should call for entry point `name`: where the AVX2 kernels
/// run (see [`crate::dispatch::backend`]), an entry of [`avx2`] that calls the AVX2 twin
/// directly when there is one; else the dispatching entry of [`ENTRY_POINTS`]. `None` for
/// an unknown name.
pub fn entry_point(name: &str) -> Option<*const u8> {
    let find = |list: &[(&str, *const u8)]| list.iter().find(|(n, _)| *n == name).map(|e| e.1);
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2()
        && let Some(direct) = find(avx2::ENTRY_POINTS)
    {
        return Some(direct);
    }
    find(ENTRY_POINTS)
}

/// Every entry point by symbol name, for registering with a JIT module.
pub const ENTRY_POINTS: &[(&str, *const u8)] = &[
    (
        "jitson_skip_whitespace",
        jitson_skip_whitespace as *const u8,
    ),
    ("jitson_scan_string", jitson_scan_string as *const u8),
    (
        "jitson_scan_string_utf8",
        jitson_scan_string_utf8 as *const u8,
    ),
    (
        "jitson_validate_escapes",
        jitson_validate_escapes as *const u8,
    ),
    ("jitson_unescape", jitson_unescape as *const u8),
    ("jitson_escape", jitson_escape as *const u8),
    ("jitson_validate_utf8", jitson_validate_utf8 as *const u8),
    ("jitson_skip_value", jitson_skip_value as *const u8),
    (
        "jitson_skip_value_unchecked",
        jitson_skip_value_unchecked as *const u8,
    ),
    ("jitson_parse_i64", jitson_parse_i64 as *const u8),
    ("jitson_parse_u64", jitson_parse_u64 as *const u8),
    ("jitson_parse_f64", jitson_parse_f64 as *const u8),
    ("jitson_parse_number", jitson_parse_number as *const u8),
    ("jitson_parse_integer", jitson_parse_integer as *const u8),
    ("jitson_number_within", jitson_number_within as *const u8),
    ("jitson_format_i64", jitson_format_i64 as *const u8),
    ("jitson_format_u64", jitson_format_u64 as *const u8),
    ("jitson_format_f64", jitson_format_f64 as *const u8),
];

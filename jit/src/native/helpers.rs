//! The Rust helpers generated code calls: `extern "C"`, integer and pointer arguments,
//! a two-register [`FfiResult`] `(status, value)` with the statuses of [`super::fail`].
//! Each catches panics (the payload waits in the context; the run's Rust entry resumes it)
//! and records its error in the context before returning a non-zero status.

use std::panic::{AssertUnwindSafe, catch_unwind};

use jitson_kernels::ffi::FfiResult;
use jitson_kernels::unescape::{self, Surrogates};

use super::ctx::{Ctx, Seg, depth_room};
use super::decode as d;
use super::fail::{self, CLASS_PANIC};
use super::fast;
use super::remember;
use crate::interp::{kind_slot, run_discriminate, run_value_op, skip_checked};
use crate::ir::{ErrorKind, FailKind, Kinds, NumCheck, Op, PathSeg, Violation};
use jitson_kernels::number::scan_number;

/// The field value of a key no named field matches.
pub(crate) const NO_FIELD: u64 = u32::MAX as u64;

/// Runs `f` on the context, catching panics and recording errors.
pub(crate) fn guarded(
    ctx: *mut Ctx,
    f: impl FnOnce(&mut Ctx) -> Result<u64, (FailKind, usize)>,
) -> FfiResult {
    // SAFETY: generated code passes the context of the run it belongs to, which outlives
    // the call, and does not touch it while the helper runs.
    let ctx = unsafe { &mut *ctx };
    let (status, value) = match catch_unwind(AssertUnwindSafe(|| f(&mut *ctx))) {
        Ok(Ok(value)) => (fail::OK, value),
        Ok(Err((kind, offset))) => {
            let code = fail::encode(kind);
            ctx.err.class = code.class;
            ctx.err.a = code.a;
            ctx.err.b = code.b;
            ctx.err.offset = offset as u64;
            (fail::status(kind), offset as u64)
        }
        Err(payload) => {
            ctx.panic = Some(payload);
            ctx.err.class = CLASS_PANIC;
            (fail::FATAL, 0)
        }
    };
    FfiResult {
        status: status as u64,
        value,
    }
}

/// The error for a value of the wrong kind at `pos` (`kinds`: the [`Kinds`] bits
/// expected): `Type` when a value starts there, else `ExpectedValue`. Always an error: the
/// cold path of a container's opening bracket.
///
/// # Safety
/// `ctx` is the context of the running call.
pub(crate) unsafe extern "C" fn jitson_native_mismatch(
    ctx: *mut Ctx,
    pos: u64,
    kinds: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        // SAFETY: the context's borrows live for the whole run.
        let (_, input, _) = unsafe { ctx.parts() };
        let pos = pos as usize;
        let kind = match input.get(pos).copied().and_then(kind_slot) {
            Some(_) => FailKind::Violation(Violation::Type {
                expected: Kinds(kinds as u8),
            }),
            None => FailKind::Syntax(ErrorKind::ExpectedValue),
        };
        Err((kind, pos))
    })
}

/// Runs op `pc` of function `func` (a value op, or `Discriminate`) on the interpreter at
/// `pos`: `value` is the cursor after it (for `Discriminate`, the label index taken). The
/// interpreter's look-ahead and `SkipValue`'s skip run without a machine; a checked string
/// or an enumeration without escapes is passed or failed by a fast path first ([`fast`]).
///
/// # Safety
/// `ctx` is the context of the running call; `func` and `pc` name an op of its program.
pub(crate) unsafe extern "C" fn jitson_native_value_op(
    ctx: *mut Ctx,
    pos: u64,
    func: u64,
    pc: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        let pos = pos as usize;
        // SAFETY: the pointers come from borrows that live for the whole run.
        let (program, input, _) = unsafe { ctx.parts() };
        let op = &program.funcs[func as usize].ops[pc as usize];
        match op {
            Op::Discriminate { disc, targets, .. } => {
                let at = (pos, ctx.open_depth());
                // SAFETY: as above.
                let (_, _, scratch) = unsafe { ctx.parts() };
                let options = &ctx.options;
                let tag = run_discriminate(program, input, options, &mut scratch.interp, at, *disc);
                return Ok(tag.label_index(targets.len()) as u64);
            }
            Op::SkipValue => {
                if program.recall.any() {
                    // SAFETY: as above.
                    let (_, _, scratch) = unsafe { ctx.parts() };
                    if let Some(end) = scratch.verdicts.end_of(pos) {
                        return Ok(end as u64);
                    }
                }
                let left = ctx.options.max_depth.saturating_sub(ctx.open_depth()) as usize;
                return skip_checked(input, pos, left, ctx.options.big_ints).map(|end| end as u64);
            }
            _ => {}
        }
        match fast::string_op(program, op, input, pos) {
            Some(Ok((_, after))) => Ok(after as u64),
            Some(Err(v)) => Err((FailKind::Violation(v), pos)),
            None => on_interpreter(ctx, pos, func, pc),
        }
    })
}

/// Runs op `pc` of function `func` on the interpreter at `pos`.
fn on_interpreter(ctx: &mut Ctx, pos: usize, func: u64, pc: u64) -> Result<u64, (FailKind, usize)> {
    let at = (pos, ctx.open_depth());
    // SAFETY: the pointers come from borrows that live for the whole run.
    let (program, input, scratch) = unsafe { ctx.parts() };
    let site = (func as u32, pc as u32);
    run_value_op(program, input, &ctx.options, &mut scratch.interp, at, site).map(|v| v as u64)
}

/// `Op::Number` (op `pc` of function `func`) at `pos` (after whitespace): a number whose
/// check has no bounds and no predicate is only scanned when it cannot fail to read (an
/// integer of at most 18 bytes, or a fraction without exponent shorter than 309 bytes);
/// any other number that reads is read and checked directly ([`fast::checked_number`]), a
/// failed check reported as the interpreter reports it; the rest (a token that does not
/// read) runs on the interpreter as [`jitson_native_value_op`] does.
///
/// # Safety
/// `ctx` is the context of the running call; `func` and `pc` name a `Number` op.
pub(crate) unsafe extern "C" fn jitson_native_number(
    ctx: *mut Ctx,
    pos: u64,
    func: u64,
    pc: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        let pos = pos as usize;
        // SAFETY: the pointers come from borrows that live for the whole run.
        let (program, input, _) = unsafe { ctx.parts() };
        if let Op::Number(check) = &program.funcs[func as usize].ops[pc as usize] {
            let check = &program.num_checks[*check as usize];
            if let Some(end) = plain_number(check, input, pos)? {
                return Ok(end as u64);
            }
            if let Some(read) = fast::checked_number(check, input, pos, ctx.options.big_ints) {
                return read
                    .map(|(_, end)| end as u64)
                    .map_err(|v| (FailKind::Violation(v), pos));
            }
        }
        on_interpreter(ctx, pos, func, pc)
    })
}

/// The end of the number at `pos` when `check` has nothing to compare and the token can be
/// read without error (its syntax errors are the interpreter's); `None` when the full
/// reading is needed.
fn plain_number(
    check: &NumCheck,
    input: &[u8],
    pos: usize,
) -> Result<Option<usize>, (FailKind, usize)> {
    let plain = check.minimum.is_none() && check.maximum.is_none() && check.multiple_of.is_none();
    if !plain || !matches!(input.get(pos), Some(b'-' | b'0'..=b'9')) {
        return Ok(None);
    }
    let token = scan_number(input, pos).map_err(|e| (FailKind::Syntax(e.kind), e.offset))?;
    let text = &input[token.start..token.end];
    let safe = if token.is_integer {
        text.len() <= 18
    } else {
        !check.integer && text.len() < 309 && !text.iter().any(|&b| b | 0x20 == b'e')
    };
    Ok(safe.then_some(token.end))
}

/// Finds the key `body..end` (holding escapes when `escapes` != 0) in key table `table`,
/// trying field `hint` first: `value` is the field, or [`NO_FIELD`]. Errors are the
/// unescaping's.
///
/// # Safety
/// `ctx` is the context of the running call; `body..end` lies in its input; `table` names a
/// key table of its program.
pub(crate) unsafe extern "C" fn jitson_native_key_find(
    ctx: *mut Ctx,
    body: u64,
    end: u64,
    table: u64,
    hint: u64,
    escapes: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        let (body, end) = (body as usize, end as usize);
        // SAFETY: the pointers come from borrows that live for the whole run.
        let (program, input, scratch) = unsafe { ctx.parts() };
        let key = key_text(input, &mut scratch.text, body, end, escapes != 0)?;
        let found = program.key_tables[table as usize].find(key, hint as usize);
        Ok(found.map_or(NO_FIELD, u64::from))
    })
}

/// The text of key `body..end` of `input`: its bytes, or unescaped into `text` when it
/// holds `escapes`. Errors are the unescaping's.
fn key_text<'t>(
    input: &'t [u8],
    text: &'t mut Vec<u8>,
    body: usize,
    end: usize,
    escapes: bool,
) -> Result<&'t [u8], (FailKind, usize)> {
    let key = &input[body..end];
    if !escapes {
        return Ok(key);
    }
    text.clear();
    unescape::unescape(key, text, Surrogates::Strict)
        .map_err(|e| (FailKind::Syntax(e.kind), body + e.offset))?;
    Ok(text)
}

/// Whether the name in the path top, an unknown member's key, matches pattern `pattern`
/// of key table `table` (any of its patterns for `u64::MAX`): `value` 1 or 0 (0 when the
/// path top holds no key).
///
/// # Safety
/// `ctx` is the context of the running call, inside an object; `table` names a key table
/// of its program and `pattern` one of its patterns or `u64::MAX`.
pub(crate) unsafe extern "C" fn jitson_native_key_matches(
    ctx: *mut Ctx,
    table: u64,
    pattern: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        let Some(top) = ctx.depth.checked_sub(1) else {
            return Ok(0);
        };
        // SAFETY: `path[..depth]` holds the open containers' segments (see `Ctx`).
        let seg = unsafe { *ctx.path.add(top as usize) };
        let PathSeg::Key { start, end } = seg.to_path_seg() else {
            return Ok(0);
        };
        let mut memo = ctx.key_memo;
        // SAFETY: the pointers come from borrows that live for the whole run.
        let (program, input, scratch) = unsafe { ctx.parts() };
        let text = &mut scratch.text;
        let name = move || {
            let text = text;
            let escapes = input[start..end].contains(&b'\\');
            let key = key_text(input, text, start, end, escapes)?;
            // A key's text is UTF-8 (the scan checked it, unescaping keeps it).
            Ok(std::str::from_utf8(key).ok())
        };
        let keys = &program.key_tables[table as usize];
        let (table, pattern) = (table as u32, u32::try_from(pattern).ok());
        let matched = keys.key_matches_memo(&mut memo, table, start, pattern, name)?;
        ctx.key_memo = memo;
        Ok(u64::from(matched))
    })
}

/// Doubles the path stack (generated code calls it when `depth` reaches `depth_room` but
/// not `max_depth`).
///
/// # Safety
/// `ctx` is the context of the running call.
pub(crate) unsafe extern "C" fn jitson_native_path_grow(ctx: *mut Ctx) -> FfiResult {
    guarded(ctx, |ctx| {
        // SAFETY: the scratch pointer comes from a borrow that lives for the whole run.
        let path = unsafe { &mut (*ctx.scratch).path };
        let len = path.len().max(1) * 2;
        path.resize(len, Seg::default());
        ctx.path = path.as_mut_ptr();
        ctx.path_cap = len as u64;
        ctx.depth_room = depth_room(ctx.max_depth, ctx.path_cap);
        Ok(0)
    })
}

/// A helper: its symbol, address and number of (integer) parameters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Helper {
    pub name: &'static str,
    pub addr: *const u8,
    pub params: usize,
}

/// The helpers and the kernel entry points generated code calls, by [`Callee`] index.
pub(crate) fn callee(c: Callee) -> Helper {
    let (name, params, addr): (&str, usize, *const u8) = match c {
        Callee::ValueOp => (
            "jitson_native_value_op",
            4,
            jitson_native_value_op as *const u8,
        ),
        Callee::Number => ("jitson_native_number", 4, jitson_native_number as *const u8),
        Callee::KeyFind => (
            "jitson_native_key_find",
            6,
            jitson_native_key_find as *const u8,
        ),
        Callee::KeyMatches => (
            "jitson_native_key_matches",
            3,
            jitson_native_key_matches as *const u8,
        ),
        Callee::PathGrow => (
            "jitson_native_path_grow",
            1,
            jitson_native_path_grow as *const u8,
        ),
        Callee::Acquire => (
            "jitson_native_acquire",
            2,
            d::jitson_native_acquire as *const u8,
        ),
        Callee::Grow => ("jitson_native_grow", 4, d::jitson_native_grow as *const u8),
        Callee::CopyOut => (
            "jitson_native_copy_out",
            3,
            d::jitson_native_copy_out as *const u8,
        ),
        Callee::BoxOut => (
            "jitson_native_box_out",
            4,
            d::jitson_native_box_out as *const u8,
        ),
        Callee::Extra => (
            "jitson_native_extra",
            6,
            d::jitson_native_extra as *const u8,
        ),
        Callee::ExtrasOut => (
            "jitson_native_extras_out",
            4,
            d::jitson_native_extras_out as *const u8,
        ),
        Callee::Unescape => (
            "jitson_native_unescape",
            4,
            d::jitson_native_unescape as *const u8,
        ),
        Callee::DecodeOp => (
            "jitson_native_decode_op",
            5,
            d::jitson_native_decode_op as *const u8,
        ),
        Callee::DecodeNumber => (
            "jitson_native_decode_number",
            5,
            d::jitson_native_decode_number as *const u8,
        ),
        Callee::Zero => ("jitson_native_zero", 3, d::jitson_native_zero as *const u8),
        Callee::Mismatch => (
            "jitson_native_mismatch",
            3,
            jitson_native_mismatch as *const u8,
        ),
        Callee::Recall => (
            "jitson_native_recall",
            3,
            remember::jitson_native_recall as *const u8,
        ),
        Callee::Remember => (
            "jitson_native_remember",
            5,
            remember::jitson_native_remember as *const u8,
        ),
        Callee::ScanString => ("jitson_scan_string_utf8", 4, std::ptr::null()),
        Callee::ValidateEscapes => ("jitson_validate_escapes", 2, std::ptr::null()),
        Callee::ParseNumber => ("jitson_parse_number", 3, std::ptr::null()),
        Callee::ParseInteger => ("jitson_parse_integer", 3, std::ptr::null()),
        Callee::NumberWithin => ("jitson_number_within", 6, std::ptr::null()),
        Callee::SkipWhitespace => ("jitson_skip_whitespace", 3, std::ptr::null()),
    };
    let addr = if addr.is_null() {
        crate::symbols::kernel_symbol(name).expect("kernel entry point")
    } else {
        addr
    };
    Helper { name, addr, params }
}

/// Everything generated code may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Callee {
    /// [`jitson_native_value_op`].
    ValueOp,
    /// [`jitson_native_number`].
    Number,
    /// [`jitson_native_key_find`].
    KeyFind,
    /// [`jitson_native_key_matches`].
    KeyMatches,
    /// [`jitson_native_path_grow`].
    PathGrow,
    /// [`d::jitson_native_acquire`].
    Acquire,
    /// [`d::jitson_native_grow`].
    Grow,
    /// [`d::jitson_native_copy_out`].
    CopyOut,
    /// [`d::jitson_native_box_out`].
    BoxOut,
    /// [`d::jitson_native_extra`].
    Extra,
    /// [`d::jitson_native_extras_out`].
    ExtrasOut,
    /// [`d::jitson_native_unescape`].
    Unescape,
    /// [`d::jitson_native_decode_op`].
    DecodeOp,
    /// [`d::jitson_native_decode_number`].
    DecodeNumber,
    /// [`d::jitson_native_zero`].
    Zero,
    /// [`jitson_native_mismatch`].
    Mismatch,
    /// [`remember::jitson_native_recall`].
    Recall,
    /// [`remember::jitson_native_remember`].
    Remember,
    /// The string scan + UTF-8 kernel.
    ScanString,
    /// The escape validation kernel.
    ValidateEscapes,
    /// The number kernel.
    ParseNumber,
    /// The number kernel for tokens expected to be integers.
    ParseInteger,
    /// The number bounds kernel.
    NumberWithin,
    /// The whitespace kernel (cold paths only: hot ones skip whitespace inline).
    SkipWhitespace,
}

impl Callee {
    /// Every callee.
    pub const ALL: [Callee; 24] = [
        Callee::ValueOp,
        Callee::Number,
        Callee::KeyFind,
        Callee::KeyMatches,
        Callee::PathGrow,
        Callee::Acquire,
        Callee::Grow,
        Callee::CopyOut,
        Callee::BoxOut,
        Callee::Extra,
        Callee::ExtrasOut,
        Callee::Unescape,
        Callee::DecodeOp,
        Callee::DecodeNumber,
        Callee::Zero,
        Callee::Mismatch,
        Callee::Recall,
        Callee::Remember,
        Callee::ScanString,
        Callee::ValidateEscapes,
        Callee::ParseNumber,
        Callee::ParseInteger,
        Callee::NumberWithin,
        Callee::SkipWhitespace,
    ];
}

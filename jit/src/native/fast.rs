//! Fast paths of the value ops generated code leaves to helpers: checked strings, string
//! enumerations and numbers with checks, for values that read cleanly. A clean value either
//! passes or fails its check, the failure reported as the interpreter reports it (the
//! violation at the value's start); each returns `None` whenever anything is unusual
//! (escapes, a syntax error, another kind of value), and the helper then runs the op on
//! the interpreter, which finds the exact error, so the interpreter stays the one
//! definition of every error it reports. The checks themselves are the interpreter's
//! ([`number_violation`], [`text_violation`]), so failing a union branch or a condition
//! on a clean string costs no run of the interpreter.

use jitson_kernels::string_scan;

use crate::interp::{number_violation, text_violation};
use crate::ir::{BigInts, NumCheck, NumRef, Op, Program, StrCheck, StrEnum, Violation};
use crate::number::read_number;

/// A string value op's value that passed its fast path.
pub(crate) enum Passed {
    /// A checked string: its body `(start, end)` (end: the closing quote).
    Str(usize, usize),
    /// An enumeration's string: its index in the table.
    Enum(u32),
}

/// The fast path of op `op` (a checked `String` or a `StrEnum`; any other op has none) at
/// `pos`, for a string without escapes that scans clean: `Ok` with what passed and the
/// cursor after it, or the violation, which the interpreter reports at `pos`.
pub(crate) fn string_op(
    program: &Program,
    op: &Op,
    input: &[u8],
    pos: usize,
) -> Option<Result<(Passed, usize), Violation>> {
    match op {
        Op::String(check) => checked_string(&program.str_checks[*check as usize], input, pos)
            .map(|r| r.map(|(body, end)| (Passed::Str(body, end), end + 1))),
        Op::StrEnum(table) => enum_index(&program.str_enums[*table as usize], input, pos)
            .map(|r| r.map(|(index, after)| (Passed::Enum(index), after))),
        _ => None,
    }
}

/// The body `(start, end)` (end: the closing quote) of the string at `pos` when it has no
/// escapes and scans clean (no control byte, valid UTF-8).
fn plain_string(input: &[u8], pos: usize) -> Option<(usize, usize)> {
    if input.get(pos) != Some(&b'"') {
        return None;
    }
    let scan = string_scan::scan_checked(input, pos + 1).ok()?;
    (!scan.has_escapes).then_some((pos + 1, scan.end))
}

/// The body of the string at `pos` (see [`plain_string`]) if it passes `c`, else the
/// violation.
fn checked_string(
    c: &StrCheck,
    input: &[u8],
    pos: usize,
) -> Option<Result<(usize, usize), Violation>> {
    let (body, end) = plain_string(input, pos)?;
    // SAFETY: `scan_checked` validated the body as UTF-8 (it checks every body holding a
    // byte at or above 0x80; an all-ASCII body is UTF-8), so the unchecked view is sound
    // and the interpreter's second check (`from_utf8`) is not needed here.
    let text = unsafe { std::str::from_utf8_unchecked(&input[body..end]) };
    Some(text_violation(c, text).map_or(Ok((body, end)), Err))
}

/// The index in `table` of the string at `pos` (see [`plain_string`]) and the cursor after
/// it, or `Enum` when the string is none of the table's.
fn enum_index(
    table: &StrEnum,
    input: &[u8],
    pos: usize,
) -> Option<Result<(u32, usize), Violation>> {
    let (body, end) = plain_string(input, pos)?;
    Some(
        table
            .find(&input[body..end])
            .map(|index| (index, end + 1))
            .ok_or(Violation::Enum),
    )
}

/// The number whose token starts at `pos`, read under `big` and checked against `c` as the
/// interpreter reads and checks it there (no whitespace to skip first): `Ok` with the
/// number and the cursor after it, or the violation, which the interpreter reports at
/// `pos`; `None` when the token does not read (its error is the interpreter's to make).
pub(crate) fn checked_number<'a>(
    c: &NumCheck,
    input: &'a [u8],
    pos: usize,
    big: BigInts,
) -> Option<Result<(NumRef<'a>, usize), Violation>> {
    if !matches!(input.get(pos), Some(b'-' | b'0'..=b'9')) {
        return None;
    }
    let (n, end) = read_number(input, pos, big).ok()?;
    Some(number_violation(c, n).map_or(Ok((n, end)), Err))
}

//! The helpers of remembered runs (the IR's "Remembered runs"): a call of a remembered
//! function asks [`jitson_native_recall`] first and, when it ran the function, tells
//! [`jitson_native_remember`] how it ended. The verdicts live in the run's scratch.

use jitson_kernels::ffi::FfiResult;
use jitson_kernels::whitespace;

use super::ctx::Ctx;
use super::fail;
use super::helpers::guarded;
use crate::recall::Verdict;

/// [`jitson_native_recall`]'s status when no remembered run answers: run the function.
pub(crate) const UNKNOWN: i64 = 4;

/// What a remembered run of function `func` at `pos` says: status `OK` with the end
/// position it passed to, `VIOLATION` (at `pos`) when it failed and a `Try` is open,
/// otherwise [`UNKNOWN`].
///
/// # Safety
/// `ctx` is the context of the running call.
pub(crate) unsafe extern "C" fn jitson_native_recall(
    ctx: *mut Ctx,
    func: u64,
    pos: u64,
) -> FfiResult {
    // SAFETY: generated code passes the context of the run it belongs to, which outlives
    // the call; the scratch pointer comes from a borrow that lives for the whole run. A
    // lookup allocates nothing and cannot panic.
    let (ctx, verdicts) = unsafe { (&*ctx, &(*(*ctx).scratch).verdicts) };
    let (status, value) = match verdicts.get(func as u32, pos as usize) {
        Some(Verdict::Passed(end)) => (fail::OK, end as u64),
        Some(Verdict::Failed) if ctx.tries > 0 => (fail::VIOLATION, pos),
        _ => (UNKNOWN, pos),
    };
    FfiResult {
        status: status as u64,
        value,
    }
}

/// Function `func`, run at `pos`, returned `(status, end)`: a pass is remembered, and a
/// violation while a `Try` is open. Returns the same pair (or a caught panic's status).
///
/// # Safety
/// `ctx` is the context of the running call.
pub(crate) unsafe extern "C" fn jitson_native_remember(
    ctx: *mut Ctx,
    func: u64,
    pos: u64,
    status: u64,
    end: u64,
) -> FfiResult {
    let kept = guarded(ctx, |ctx| {
        // SAFETY: the context was made by `Ctx::new` for this run, whose borrows are live;
        // no other reference to the scratch is held while the helper runs.
        let (_, input, scratch) = unsafe { ctx.parts() };
        let verdicts = &mut scratch.verdicts;
        match status as i64 {
            fail::OK => {
                let value = whitespace::skip_whitespace(input, pos as usize);
                verdicts.passed(func as u32, pos as usize, value, end as usize);
            }
            fail::VIOLATION if ctx.tries > 0 => verdicts.failed(func as u32, pos as usize),
            _ => {}
        }
        Ok(end)
    });
    match kept.status as i64 {
        fail::OK => FfiResult { status, value: end },
        _ => kept,
    }
}

//! The Rust helpers of native decode: the buffer stack (arrays' items, objects' extra
//! members, boxed records, mirroring the interpreter's decoder), arena copies, and the value
//! ops decode does not lower, which run the interpreter's own code through a sink that
//! writes the slot ([`crate::interp::run_value_op_into`]): checked strings and
//! enumerations (their checks are the interpreter's predicates and tables), and numbers
//! (the number reader with its [`BigInts`](crate::ir::BigInts) policy stays in one place;
//! a plain number is read here directly, a checked one runs the interpreter's op).
//!
//! Buffers are addressed by index in `Scratch::bufs`: a buffer only grows while it is the
//! newest open one, so addresses into older buffers (the destinations of running frames)
//! stay valid. A buffer's `Vec` length is always at least what generated code has used.
//! The bytes generated code reserved are zero (acquiring and growing zero-fill them), so
//! reserving an array item inline needs no stores. Generated code reuses a buffer inline
//! when its view (`Scratch::views`, kept in step by the helpers here) is long enough,
//! zeroing what it reserves; past that, a buffer's old bytes are not zero, so growing
//! takes the length in use.

use std::alloc::Layout;

use jitson_kernels::ffi::FfiResult;
use jitson_kernels::unescape::{self, Surrogates};

use super::ctx::{BufView, Ctx, LAST_SLAB, Scratch};
use super::fast;
use super::helpers::guarded;
use crate::interp::{number_slot, run_value_op_into};
use crate::ir::{FailKind, Op};

/// A buffer index meaning "none acquired yet".
pub(crate) const NO_BUF: u64 = u64::MAX;

/// A buffer index meaning "the items are written in place in the arena slab": generated
/// code reserved them there (see `lower::decode`), no scratch buffer is open.
pub(crate) const SLAB_BUF: u64 = u64::MAX - 1;

/// The address stored with a length of 0 (any non-null pointer reads as an empty slice).
pub(crate) const EMPTY_ADDR: u64 = 1;

/// Writes `bytes` at `addr`.
///
/// # Safety
/// `addr` points at `bytes.len()` writable bytes that nothing borrows.
unsafe fn put(addr: u64, bytes: &[u8]) {
    // SAFETY: the caller's contract.
    unsafe {
        std::ptr::copy_nonoverlapping(
            bytes.as_ptr(),
            std::ptr::with_exposed_provenance_mut::<u8>(addr as usize),
            bytes.len(),
        );
    }
}

/// Writes the `(ptr, len)` pair of `text` at `addr`.
///
/// # Safety
/// As [`put`] for 16 bytes.
unsafe fn put_pair(addr: u64, text: &[u8]) {
    let mut pair = [0u8; 16];
    pair[..8].copy_from_slice(&text.as_ptr().expose_provenance().to_ne_bytes());
    pair[8..].copy_from_slice(&text.len().to_ne_bytes());
    // SAFETY: the caller's contract.
    unsafe { put(addr, &pair) };
}

/// The arena of a decode run.
fn arena<'a>(ctx: &Ctx) -> &'a bumpalo::Bump {
    // SAFETY: decode runs set `arena` to their arena, which outlives the run; only decode
    // functions (which only decode runs call) reach the helpers that read it.
    unsafe { &*ctx.arena }
}

/// The decode buffers.
fn bufs(ctx: &mut Ctx) -> &mut Vec<Vec<u8>> {
    // SAFETY: the scratch pointer comes from a borrow that lives for the whole run, and
    // no other reference to it is live while a helper runs.
    unsafe { &mut (*ctx.scratch).bufs }
}

/// The view generated code reads of `buf`.
fn view_of(buf: &mut Vec<u8>) -> BufView {
    BufView {
        addr: buf.as_mut_ptr().expose_provenance() as u64,
        len: buf.len() as u64,
    }
}

/// Makes the first `len` bytes of `buf` zero, growing it when it is shorter. A buffer never
/// shrinks, so its view stays long enough for the next array to reuse it inline.
fn zeroed_prefix(buf: &mut Vec<u8>, len: usize) {
    let kept = buf.len().min(len);
    buf[..kept].fill(0);
    if buf.len() < len {
        buf.resize(len, 0);
    }
}

/// Rebuilds every buffer's view before a decode run (the run's context points at them).
pub(crate) fn reset_views(scratch: &mut Scratch) {
    scratch.views.clear();
    scratch.views.extend(scratch.bufs.iter_mut().map(view_of));
}

/// Brings buffer `i`'s view, and the context's pointer to the views, up to date after a
/// helper changed the buffer (or opened a new one).
fn sync_view(ctx: &mut Ctx, i: usize) {
    // SAFETY: the scratch pointer comes from a borrow that lives for the whole run, and
    // no other reference to it is live while a helper runs.
    let scratch = unsafe { &mut *ctx.scratch };
    let views = &mut scratch.views;
    // Buffers opened past the views get empty views: generated code then calls a helper.
    views.resize(scratch.bufs.len(), BufView::default());
    views[i] = view_of(&mut scratch.bufs[i]);
    ctx.views = views.as_ptr();
    ctx.views_len = views.len() as u64;
}

/// Opens the next buffer (index `ctx.open`, created when the scratch has none there yet)
/// and returns its index; its contents are the caller's to set.
fn open_buffer(ctx: &mut Ctx) -> usize {
    let open = ctx.open as usize;
    let bufs = bufs(ctx);
    if bufs.len() <= open {
        bufs.resize_with(open + 1, Vec::new);
    }
    ctx.open += 1;
    open
}

/// Opens a buffer of `len` zero bytes: `value` is its address, `ctx.buf_len` its length;
/// its index is `ctx.open` before the call.
///
/// # Safety
/// `ctx` is the context of a running decode call.
pub(crate) unsafe extern "C" fn jitson_native_acquire(ctx: *mut Ctx, len: u64) -> FfiResult {
    guarded(ctx, |ctx| {
        let open = open_buffer(ctx);
        let buf = &mut bufs(ctx)[open];
        zeroed_prefix(buf, len as usize);
        let addr = buf.as_mut_ptr().expose_provenance() as u64;
        sync_view(ctx, open);
        ctx.buf_len = len;
        Ok(addr)
    })
}

/// Grows buffer `buf` (the newest open one, of which generated code reserved `used`
/// bytes) to at least `need` bytes, keeping the reserved bytes and zeroing the rest:
/// `value` is its (maybe moved) address, `ctx.buf_len` its new length.
///
/// # Safety
/// `ctx` is the context of a running decode call; no address into `buf` is held past it.
pub(crate) unsafe extern "C" fn jitson_native_grow(
    ctx: *mut Ctx,
    buf: u64,
    need: u64,
    used: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        let v = &mut bufs(ctx)[buf as usize];
        let used = used as usize;
        let len = (need as usize).max(used * 2).max(64);
        // Bytes past `used` may hold an earlier array's items (an inline reuse zeroes only
        // what it reserves).
        v.truncate(used);
        v.resize(len, 0);
        let addr = v.as_mut_ptr().expose_provenance() as u64;
        sync_view(ctx, buf as usize);
        ctx.buf_len = len as u64;
        Ok(addr)
    })
}

/// Copies the first `len` bytes of buffer `buf` to the arena and releases the buffer
/// (`ctx.open = buf`): `value` is the copy's address. The copy goes to the current slab
/// (`ctx.bump..ctx.bump_end`), or, when that has no room, to a new one taken from the arena
/// (`ctx.next_slab` bytes, doubling up to [`LAST_SLAB`], or `len` when longer). Generated
/// code copies short arrays into the slab itself and calls this for long ones and when the
/// slab is full.
///
/// # Safety
/// `ctx` is the context of a running decode call.
pub(crate) unsafe extern "C" fn jitson_native_copy_out(
    ctx: *mut Ctx,
    buf: u64,
    len: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        if ctx.bump_end - ctx.bump < len {
            let size = ctx.next_slab.max(len);
            ctx.next_slab = (ctx.next_slab * 2).min(LAST_SLAB);
            // Item sizes are multiples of 8 and read unaligned; 8 keeps slabs aligned.
            let layout = Layout::from_size_align(size as usize, 8).expect("a buffer's length");
            let slab = arena(ctx).alloc_layout(layout).as_ptr().expose_provenance() as u64;
            ctx.bump = slab;
            ctx.bump_end = slab + size;
        }
        let at = ctx.bump;
        let items = &bufs(ctx)[buf as usize][..len as usize];
        // SAFETY: `at..at + len` lies in a slab of the arena no copy has used yet, so it
        // is writable and does not overlap the scratch buffer `items`.
        unsafe {
            std::ptr::copy_nonoverlapping(
                items.as_ptr(),
                std::ptr::with_exposed_provenance_mut::<u8>(at as usize),
                items.len(),
            );
        }
        ctx.bump = at + len;
        ctx.open = buf;
        Ok(at)
    })
}

/// A boxed record is complete: copies its `size` bytes (the buffer at `open`) to the arena,
/// stores the copy's address at `slot` and releases the buffer (`ctx.open = open`).
///
/// # Safety
/// `ctx` is the context of a running decode call; `slot` points at 8 writable bytes.
pub(crate) unsafe extern "C" fn jitson_native_box_out(
    ctx: *mut Ctx,
    size: u64,
    slot: u64,
    open: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        let arena = arena(ctx);
        let copy = arena.alloc_slice_copy(&bufs(ctx)[open as usize][..size as usize]);
        let addr = copy.as_ptr().expose_provenance() as u64;
        // SAFETY: the caller's contract.
        unsafe { put(slot, &addr.to_ne_bytes()) };
        ctx.open = open;
        Ok(0)
    })
}

/// The extra-members state of an open object, in a stack slot of its function.
#[repr(C)]
struct Extras {
    /// The buffer, or [`NO_BUF`] before the first extra member.
    buf: u64,
    /// Entries written.
    count: u64,
}

/// Appends an extra member whose key is `body..end` (with escapes when `flags` != 0) to
/// the object whose [`Extras`] are at `state`: a zeroed entry of `entry` bytes with the
/// key's `(ptr, len)` at 0 (the input, or an arena copy of the unescaped text); `value` is
/// the entry's address.
///
/// # Safety
/// `ctx` is the context of a running decode call; `state` points at the object's
/// [`Extras`]; `body..end` is a scanned string body of the input.
pub(crate) unsafe extern "C" fn jitson_native_extra(
    ctx: *mut Ctx,
    state: u64,
    body: u64,
    end: u64,
    flags: u64,
    entry: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        // SAFETY: the caller's contract.
        let state =
            unsafe { &mut *std::ptr::with_exposed_provenance_mut::<Extras>(state as usize) };
        if state.buf == NO_BUF {
            state.buf = open_buffer(ctx) as u64;
        }
        // SAFETY: the pointers come from borrows that live for the whole run.
        let (_, input, scratch) = unsafe { ctx.parts() };
        let (body, end) = (body as usize, end as usize);
        let mut key = &input[body..end];
        if flags != 0 {
            let text = &mut scratch.text;
            text.clear();
            unescape::unescape(key, text, Surrogates::Strict)
                .map_err(|e| (FailKind::Syntax(e.kind), body + e.offset))?;
            key = arena(ctx).alloc_slice_copy(text);
        }
        let off = state.count as usize * entry as usize;
        let buf = &mut bufs(ctx)[state.buf as usize];
        let end = off + entry as usize;
        if buf.len() < end {
            buf.resize(end, 0);
        }
        buf[off..end].fill(0);
        let at = buf[off..].as_mut_ptr().expose_provenance() as u64;
        sync_view(ctx, state.buf as usize);
        state.count += 1;
        // SAFETY: `at` starts an entry of `entry >= 16` bytes in the buffer just resized.
        unsafe { put_pair(at, key) };
        Ok(at)
    })
}

/// Closes the extra members at `state` (at least one; generated code stores the empty
/// pair itself when there is none): their entries (of `entry` bytes) to the arena,
/// `(ptr, count)` at `pair`, the buffer released.
///
/// # Safety
/// `ctx` is the context of a running decode call; `state` points at the object's
/// [`Extras`], which hold a buffer; `pair` at 16 writable bytes.
pub(crate) unsafe extern "C" fn jitson_native_extras_out(
    ctx: *mut Ctx,
    state: u64,
    entry: u64,
    pair: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        // SAFETY: the caller's contract.
        let state = unsafe { &*std::ptr::with_exposed_provenance::<Extras>(state as usize) };
        let buf = state.buf;
        assert_ne!(buf, NO_BUF, "extras_out without extra members");
        let len = state.count as usize * entry as usize;
        let copy = arena(ctx).alloc_slice_copy(&bufs(ctx)[buf as usize][..len]);
        ctx.open = buf;
        let addr = copy.as_ptr().expose_provenance() as u64;
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&addr.to_ne_bytes());
        bytes[8..].copy_from_slice(&state.count.to_ne_bytes());
        // SAFETY: the caller's contract.
        unsafe { put(pair, &bytes) };
        Ok(0)
    })
}

/// Unescapes the string body `body..end` (scanned, with escapes) as the interpreter's
/// decoder does, into the arena; stores its `(ptr, len)` at `addr` unless 0.
///
/// # Safety
/// `ctx` is the context of a running decode call; `addr` is 0 or points at 16 writable
/// bytes.
pub(crate) unsafe extern "C" fn jitson_native_unescape(
    ctx: *mut Ctx,
    body: u64,
    end: u64,
    addr: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        // SAFETY: the pointers come from borrows that live for the whole run.
        let (_, input, scratch) = unsafe { ctx.parts() };
        let body = body as usize;
        let text = &mut scratch.text;
        text.clear();
        unescape::unescape(&input[body..end as usize], text, Surrogates::Strict)
            .map_err(|e| (FailKind::Syntax(e.kind), body + e.offset))?;
        if addr != 0 {
            let copy = arena(ctx).alloc_slice_copy(text);
            // SAFETY: the caller's contract.
            unsafe { put_pair(addr, copy) };
        }
        Ok(0)
    })
}

/// Runs value op `pc` of function `func` at `pos` on the interpreter as decode does,
/// writing its value at `addr` (0: nowhere): `value` is the cursor after it.
///
/// # Safety
/// `ctx` is the context of a running decode call; `func` and `pc` name a value op;
/// `addr` is 0 or points at a writable slot of the op's shape.
pub(crate) unsafe extern "C" fn jitson_native_decode_op(
    ctx: *mut Ctx,
    pos: u64,
    func: u64,
    pc: u64,
    addr: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        let p = pos as usize;
        // SAFETY: the pointers come from borrows that live for the whole run.
        let (program, input, _) = unsafe { ctx.parts() };
        let op = &program.funcs[func as usize].ops[pc as usize];
        let (passed, after) = match fast::string_op(program, op, input, p) {
            Some(Ok(passed)) => passed,
            Some(Err(v)) => return Err((FailKind::Violation(v), p)),
            None => return decode_on_interpreter(ctx, p, func, pc, addr),
        };
        if addr != 0 {
            match passed {
                // SAFETY: the caller's contract (a string slot is a pair).
                fast::Passed::Str(body, end) => unsafe { put_pair(addr, &input[body..end]) },
                // SAFETY: the caller's contract (an enumeration slot is a `u32`).
                fast::Passed::Enum(index) => unsafe { put(addr, &index.to_ne_bytes()) },
            }
        }
        Ok(after as u64)
    })
}

/// See [`jitson_native_decode_op`].
fn decode_on_interpreter(
    ctx: &mut Ctx,
    pos: usize,
    func: u64,
    pc: u64,
    addr: u64,
) -> Result<u64, (FailKind, usize)> {
    let at = (pos, ctx.open_depth());
    // SAFETY: the pointers come from borrows that live for the whole run.
    let (program, input, scratch) = unsafe { ctx.parts() };
    let site = (func as u32, pc as u32);
    let arena = arena(ctx);
    // SAFETY: `addr` is 0 or a writable slot of the op's shape (the caller's contract).
    unsafe {
        run_value_op_into(
            program,
            input,
            &ctx.options,
            &mut scratch.interp,
            at,
            site,
            addr as usize,
            arena,
        )
    }
    .map(|v| v as u64)
}

/// `Op::Number` (op `pc` of function `func`) at `pos` (after whitespace), its value
/// written at `addr` (0: nowhere): a number that reads is read and checked here with the
/// interpreter's reader and checks ([`fast::checked_number`]), a failed check reported as
/// the interpreter reports it; a token that does not read runs on the interpreter.
///
/// # Safety
/// As [`jitson_native_decode_op`], for a `Number` op.
pub(crate) unsafe extern "C" fn jitson_native_decode_number(
    ctx: *mut Ctx,
    pos: u64,
    func: u64,
    pc: u64,
    addr: u64,
) -> FfiResult {
    guarded(ctx, |ctx| {
        let p = pos as usize;
        // SAFETY: the pointers come from borrows that live for the whole run.
        let (program, input, _) = unsafe { ctx.parts() };
        if let Op::Number(check) = &program.funcs[func as usize].ops[pc as usize] {
            let c = &program.num_checks[*check as usize];
            match fast::checked_number(c, input, p, ctx.options.big_ints) {
                Some(Ok((n, end))) => {
                    if addr != 0 {
                        // SAFETY: the caller's contract (a number slot is 16 bytes).
                        unsafe { put(addr, &number_slot(n)) };
                    }
                    return Ok(end as u64);
                }
                Some(Err(v)) => return Err((FailKind::Violation(v), p)),
                None => {}
            }
        }
        decode_on_interpreter(ctx, p, func, pc, addr)
    })
}

/// Zeroes `len` bytes at `addr` (records too large to clear inline).
///
/// # Safety
/// `ctx` is the context of a running decode call; `addr` points at `len` writable bytes.
pub(crate) unsafe extern "C" fn jitson_native_zero(
    ctx: *mut Ctx,
    addr: u64,
    len: u64,
) -> FfiResult {
    guarded(ctx, |_| {
        // SAFETY: the caller's contract.
        unsafe {
            std::ptr::write_bytes(
                std::ptr::with_exposed_provenance_mut::<u8>(addr as usize),
                0,
                len as usize,
            );
        }
        Ok(0)
    })
}

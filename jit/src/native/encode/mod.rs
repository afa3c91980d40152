//! Native encode: a layout's shapes compiled to functions that write a decoded document's
//! compact JSON — exactly the bytes [`EncodePlan`](crate::encode::EncodePlan)'s walk writes,
//! without its per-value dispatch.
//!
//! - One function `fn(ctx, slot) -> status` per shape that is an object, a union, an array
//!   with a container among its items, boxed, or the root; leaf values (null, booleans,
//!   numbers, strings, raw JSON, string enumerations), arrays of leaves (a GeoJSON
//!   position) and aliases are written in place by their container's code.
//! - Constant bytes (brackets, keys with their quotes and colon, `null`, `true`, `false`)
//!   are stored inline as immediates. A key is inline only when every [`EscapeMode`] writes
//!   it the same way (nearly every key).
//! - A number is formatted straight into the output: a call into the integer kernels or the
//!   in-place float formatter ([`Writer`]), which writes at the output's end (where
//!   [`NUMBER_ROOM`] bytes are free) and returns the length.
//! - Capacity checks are shared: a check reserves some slack beyond what it was asked for,
//!   and the constant bytes and numbers that follow spend that budget without checking
//!   again (the lowering tracks it along every path; a call ends it). A member's check
//!   comes before its presence test, so members left out keep the budget.
//! - Any other key, and every value that needs a kernel with a growing output (strings, raw
//!   JSON, enumeration values, big integers' text), is a call into a [`Helper`], which
//!   appends through the output `Vec` itself. The escape mode is the run's, so one compiled
//!   tier serves every mode.
//! - Every element and member is written after a comma (merged into a constant key's
//!   bytes), and closing a container turns its first comma into the opening bracket (an
//!   empty one gets both brackets): no "first?" test.
//! - The output is mirrored in the context as `(buf, len, cap)`: generated code writes below
//!   `cap` and moves `len`; a helper first sets the `Vec`'s length to `len` (every byte
//!   below it was written), appends, then mirrors the `Vec` again.
//! - Nesting is bounded by the decoder's depth limit, and the native stack by a budget: a
//!   run that reaches it returns [`fail::BAIL`], and the plan's walk (which keeps its open
//!   containers on the heap) writes the document instead.
//!
//! Helpers catch panics; the payload waits in the context and the run's Rust entry resumes
//! it.

mod lower;

use std::any::Any;
use std::mem::offset_of;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Arc, Mutex};

use jitson_kernels::escape::{EscapeMode, escape_str};
use jitson_kernels::ffi::{FfiResult, jitson_format_i64, jitson_format_u64};
use jitson_kernels::float_format::{IN_PLACE_ROOM, MAX_FLOAT_LEN, write_f64_in_place};
use jitson_kernels::int_format::MAX_INT_LEN;

use super::code::{Owned, build_module, new_module, stack_limit};
use super::error::{CodeTier, CompileError};
use super::fail;
use super::machine::SizeBudget;
use crate::encode::{key_text, number_slot, write_raw};
use crate::ir::{BigInts, Program};
use crate::layout::{Layout, Shape, ShapeId};
use crate::view::{View, read_bytes, read_str};

/// The context of one native encode; generated code gets a pointer to it.
#[repr(C)]
pub(crate) struct EncCtx {
    /// The output's buffer, its length (every byte below written) and its capacity.
    pub buf: *mut u8,
    pub len: u64,
    pub cap: u64,
    /// The lowest stack address the run may reach.
    pub stack_limit: u64,
    pub out: *mut Vec<u8>,
    pub layout: *const Layout,
    pub mode: EscapeMode,
    pub big: BigInts,
    pub panic: Option<Box<dyn Any + Send>>,
}

/// Byte offsets of the [`EncCtx`] fields generated code touches.
pub(crate) mod off {
    use super::*;

    pub const BUF: i32 = offset_of!(EncCtx, buf) as i32;
    pub const LEN: i32 = offset_of!(EncCtx, len) as i32;
    pub const CAP: i32 = offset_of!(EncCtx, cap) as i32;
    pub const STACK_LIMIT: i32 = offset_of!(EncCtx, stack_limit) as i32;
}

/// An encode function: `(ctx, slot) -> status`.
type EncodeFn = unsafe extern "C" fn(*mut EncCtx, u64) -> u64;

/// The encode tier of one program: its module and the root shape's function.
pub(crate) struct EncodeCode {
    _module: Owned,
    entry: EncodeFn,
    /// The shape the entry writes (a document's root shape).
    root: ShapeId,
    layout: Arc<Layout>,
}

/// Compiles the encode functions of `program`'s layout (`None` without a layout) within
/// `size_limit` Cranelift IR instructions.
pub(crate) fn compile(
    program: &Program,
    size_limit: usize,
) -> Result<Option<EncodeCode>, CompileError> {
    let layout = &program.layout;
    if !layout.is_present() {
        return Ok(None);
    }
    let root = layout.funcs[program.entry as usize].shape;
    let helpers = Helper::ALL.iter().map(|h| (h.name(), h.addr()));
    let writers = Writer::ALL.iter().map(|w| (w.name(), w.addr()));
    let symbols: Vec<(String, usize)> = (helpers.chain(writers))
        .map(|(name, addr)| (name.to_owned(), addr))
        .collect();
    let budget = SizeBudget::new(CodeTier::Encode, size_limit);
    let (module, entry) = build_module(&symbols, |module| {
        lower::define(module, layout, root, budget)
    })?;
    let ptr = module.get_finalized_function(entry);
    // SAFETY: encode functions are defined with the signature `(i64, i64) -> i64`
    // (SystemV), `EncodeFn`'s ABI.
    let entry = unsafe { std::mem::transmute::<*const u8, EncodeFn>(ptr) };
    Ok(Some(EncodeCode {
        _module: Owned(Mutex::new(Some(module))),
        entry,
        root,
        layout: Arc::clone(layout),
    }))
}

/// The Cranelift IR of the encode functions of `program`'s layout, as text (empty without a
/// layout): what [`compile`] compiles.
pub(crate) fn clif(program: &Program) -> Result<String, CompileError> {
    let layout = &program.layout;
    if !layout.is_present() {
        return Ok(String::new());
    }
    let root = layout.funcs[program.entry as usize].shape;
    let mut module = new_module(&[])?;
    let unlimited = &mut SizeBudget::new(CodeTier::Encode, usize::MAX);
    let listing = lower::lower(&mut module, layout, root, unlimited).map(|funcs| {
        (funcs.iter())
            .map(|(s, _, func)| format!("; e{s}: encode of shape {s}\n{}\n", func.display()))
            .collect()
    });
    // SAFETY: nothing was defined, so no code exists that could run.
    unsafe { module.free_memory() };
    listing
}

impl EncodeCode {
    /// Appends the compact JSON of `root` to `out` in `mode` (`big`: the policy the
    /// document was read with), as the layout's plan would: true. False, with `out` as it
    /// was, when `root` is not a document root of this layout or the run reached its stack
    /// budget (the caller's plan writes it then).
    pub(crate) fn encode(
        &self,
        mode: EscapeMode,
        root: View<'_>,
        big: BigInts,
        out: &mut Vec<u8>,
    ) -> bool {
        if !std::ptr::eq(root.layout(), &*self.layout) || root.shape_id() != self.root {
            return false;
        }
        let start = out.len();
        let mut ctx = EncCtx {
            buf: out.as_mut_ptr(),
            len: start as u64,
            cap: out.capacity() as u64,
            stack_limit: stack_limit() as u64,
            out,
            layout: &*self.layout,
            mode,
            big,
            panic: None,
        };
        // SAFETY: the module lives as long as `self`; `root` is a slot of this layout's root
        // shape written by a decoder (the records it reaches follow the layout docs); the
        // context points at `out` and the layout for the whole call, and generated code
        // writes only below `cap` of the buffer it mirrors.
        let status = unsafe { (self.entry)(&mut ctx, root.slot() as u64) };
        // SAFETY: every byte below `ctx.len` was written (by generated code below the
        // mirrored capacity, or by a helper through the `Vec`).
        unsafe { out.set_len(ctx.len as usize) };
        match status as i64 {
            fail::OK => true,
            fail::BAIL => {
                out.truncate(start);
                false
            }
            _ => match ctx.panic.take() {
                Some(payload) => resume_unwind(payload),
                None => panic!("a number formatting kernel failed"),
            },
        }
    }
}

/// Everything encode functions call: `(ctx, a, b) -> status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Helper {
    /// [`jitson_encode_grow`].
    Grow,
    /// [`jitson_encode_number`].
    Number,
    /// [`jitson_encode_str`].
    Str,
    /// [`jitson_encode_raw`].
    Raw,
    /// [`jitson_encode_enum`].
    Enum,
    /// [`jitson_encode_extra_key`].
    ExtraKey,
    /// [`jitson_encode_field_key`].
    FieldKey,
}

impl Helper {
    /// Every helper.
    pub(crate) const ALL: [Helper; 7] = [
        Helper::Grow,
        Helper::Number,
        Helper::Str,
        Helper::Raw,
        Helper::Enum,
        Helper::ExtraKey,
        Helper::FieldKey,
    ];

    /// The symbol generated code imports it by.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Helper::Grow => "jitson_encode_grow",
            Helper::Number => "jitson_encode_number",
            Helper::Str => "jitson_encode_str",
            Helper::Raw => "jitson_encode_raw",
            Helper::Enum => "jitson_encode_enum",
            Helper::ExtraKey => "jitson_encode_extra_key",
            Helper::FieldKey => "jitson_encode_field_key",
        }
    }

    fn addr(self) -> usize {
        let f: unsafe extern "C" fn(*mut EncCtx, u64, u64) -> u64 = match self {
            Helper::Grow => jitson_encode_grow,
            Helper::Number => jitson_encode_number,
            Helper::Str => jitson_encode_str,
            Helper::Raw => jitson_encode_raw,
            Helper::Enum => jitson_encode_enum,
            Helper::ExtraKey => jitson_encode_extra_key,
            Helper::FieldKey => jitson_encode_field_key,
        };
        f as usize
    }
}

/// Bytes a number's [`Writer`] may write at the output's end (and, for the integer
/// writers, the whole words generated code zeroes first).
pub(crate) const NUMBER_ROOM: usize = {
    let words = MAX_INT_LEN.div_ceil(8) * 8;
    if IN_PLACE_ROOM > words {
        IN_PLACE_ROOM
    } else {
        words
    }
};

/// The most bytes a number's [`Writer`] appends (it may write [`NUMBER_ROOM`] as scratch).
pub(crate) const NUMBER_LEN: usize = if MAX_FLOAT_LEN > MAX_INT_LEN {
    MAX_FLOAT_LEN
} else {
    MAX_INT_LEN
};

/// The number formatters encode functions call: `(value, at) -> (status, length)`, writing
/// at `at`, where [`NUMBER_ROOM`] bytes are writable (for the integer kernels, which take
/// `&mut [u8; MAX_INT_LEN]`, the first `MAX_INT_LEN` of them zeroed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Writer {
    /// The kernels' `jitson_format_u64`.
    U64,
    /// The kernels' `jitson_format_i64`.
    I64,
    /// [`jitson_encode_f64`].
    F64,
}

impl Writer {
    /// Every writer.
    pub(crate) const ALL: [Writer; 3] = [Writer::U64, Writer::I64, Writer::F64];

    /// The symbol generated code imports it by.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Writer::U64 => "jitson_encode_u64",
            Writer::I64 => "jitson_encode_i64",
            Writer::F64 => "jitson_encode_f64",
        }
    }

    fn addr(self) -> usize {
        type Unsigned = unsafe extern "C" fn(u64, *mut u8) -> FfiResult;
        type Signed = unsafe extern "C" fn(i64, *mut u8) -> FfiResult;
        match self {
            Writer::U64 => jitson_format_u64 as Unsigned as usize,
            Writer::I64 => jitson_format_i64 as Signed as usize,
            Writer::F64 => jitson_encode_f64 as Unsigned as usize,
        }
    }
}

/// Writes the `f64` with bits `bits` at `at` as serde_json writes it (shortest round trip),
/// formatted in place: `(0, length)`, or a non-zero status after a panic.
///
/// # Safety
/// `at` is valid for writes of [`NUMBER_ROOM`] bytes.
unsafe extern "C" fn jitson_encode_f64(bits: u64, at: *mut u8) -> FfiResult {
    // SAFETY: per the caller, `NUMBER_ROOM >= IN_PLACE_ROOM` writable bytes at `at`, which
    // nothing else references during the call; `MaybeUninit<u8>` has alignment 1.
    let room = unsafe { &mut *at.cast::<[std::mem::MaybeUninit<u8>; IN_PLACE_ROOM]>() };
    match catch_unwind(AssertUnwindSafe(|| {
        write_f64_in_place(f64::from_bits(bits), room)
    })) {
        Ok(len) => FfiResult {
            status: 0,
            value: len as u64,
        },
        Err(_) => FfiResult {
            status: 1,
            value: 0,
        },
    }
}

/// What a helper reads of the run besides the output.
struct Run<'r> {
    layout: &'r Layout,
    mode: EscapeMode,
    big: BigInts,
}

/// Runs `f` on the output `Vec` (its length set to the mirrored one first, the mirror
/// updated after), catching panics: the status.
fn with_out(ctx: *mut EncCtx, f: impl FnOnce(&Run<'_>, &mut Vec<u8>)) -> u64 {
    // SAFETY: generated code passes the context of the run it belongs to, which outlives
    // the call and which it does not touch while the helper runs.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: the context's `out` and `layout` are the run's live borrows (of the caller's
    // output `Vec` and the code's layout), which nothing else uses while the helper runs.
    let (out, layout) = unsafe { (&mut *ctx.out, &*ctx.layout) };
    // SAFETY: every byte below the mirrored length was written, below the capacity.
    unsafe { out.set_len(ctx.len as usize) };
    let run = Run {
        layout,
        mode: ctx.mode,
        big: ctx.big,
    };
    let result = catch_unwind(AssertUnwindSafe(|| f(&run, &mut *out)));
    ctx.buf = out.as_mut_ptr();
    ctx.len = out.len() as u64;
    ctx.cap = out.capacity() as u64;
    match result {
        Ok(()) => fail::OK as u64,
        Err(payload) => {
            ctx.panic = Some(payload);
            fail::FATAL as u64
        }
    }
}

/// Makes room for `n` more bytes.
///
/// # Safety
/// `ctx` is the context of the running encode.
unsafe extern "C" fn jitson_encode_grow(ctx: *mut EncCtx, n: u64, _: u64) -> u64 {
    with_out(ctx, |_, out| out.reserve(n as usize))
}

/// Writes the number slot at `addr` (generated code calls it for a big integer's text; it
/// formats the other numbers itself, through a [`Writer`]).
///
/// # Safety
/// `ctx` is the context of the running encode; `addr` a number slot the decoder wrote.
unsafe extern "C" fn jitson_encode_number(ctx: *mut EncCtx, addr: u64, _: u64) -> u64 {
    // SAFETY: per the caller.
    with_out(ctx, |_, out| unsafe { number_slot(addr as usize, out) })
}

/// Writes the string slot at `addr`, quoted and escaped.
///
/// # Safety
/// `ctx` is the context of the running encode; `addr` a string slot the decoder wrote.
unsafe extern "C" fn jitson_encode_str(ctx: *mut EncCtx, addr: u64, _: u64) -> u64 {
    // SAFETY: per the caller.
    with_out(ctx, |run, out| {
        escape_str(unsafe { read_str(addr as usize) }, run.mode, out)
    })
}

/// Writes the raw-JSON slot at `addr`.
///
/// # Safety
/// `ctx` is the context of the running encode; `addr` a raw slot the decoder wrote.
unsafe extern "C" fn jitson_encode_raw(ctx: *mut EncCtx, addr: u64, _: u64) -> u64 {
    // SAFETY: per the caller.
    with_out(ctx, |run, out| {
        write_raw(unsafe { read_bytes(addr as usize) }, run.mode, run.big, out)
    })
}

/// Writes the string-enumeration slot at `addr`, of shape `shape`.
///
/// # Safety
/// `ctx` is the context of the running encode; `addr` a slot of `shape` the decoder wrote.
unsafe extern "C" fn jitson_encode_enum(ctx: *mut EncCtx, addr: u64, shape: u64) -> u64 {
    with_out(ctx, |run, out| {
        let Shape::StrEnum(values) = &run.layout.shape(shape as ShapeId).shape else {
            unreachable!("an enumeration's code names its shape");
        };
        // SAFETY: per the caller.
        let index: u32 = unsafe { crate::view::read(addr as usize) };
        write_enum(values, index, run.mode, out);
    })
}

/// Writes the key of the extras entry at `addr` and its colon.
///
/// # Safety
/// `ctx` is the context of the running encode; `addr` an extras entry the decoder wrote.
unsafe extern "C" fn jitson_encode_extra_key(ctx: *mut EncCtx, addr: u64, _: u64) -> u64 {
    // SAFETY: per the caller.
    with_out(ctx, |run, out| {
        key_text(unsafe { read_str(addr as usize) }, run.mode, out)
    })
}

/// Writes the name of field `field` of object shape `shape`, quoted and escaped, and its
/// colon (the keys whose bytes depend on the escape mode).
///
/// # Safety
/// `ctx` is the context of the running encode.
unsafe extern "C" fn jitson_encode_field_key(ctx: *mut EncCtx, shape: u64, field: u64) -> u64 {
    with_out(ctx, |run, out| {
        let Shape::Object { names, .. } = &run.layout.shape(shape as ShapeId).shape else {
            unreachable!("a field key's code names its object shape");
        };
        key_text(&names[field as usize], run.mode, out);
    })
}

/// Writes value `index` of a string enumeration's `values`, quoted and escaped per `mode`
/// (`""` for an index out of range, which no decoder writes).
fn write_enum(values: &[Box<str>], index: u32, mode: EscapeMode, out: &mut Vec<u8>) {
    match values.get(index as usize) {
        Some(v) => escape_str(v, mode, out),
        None => out.extend_from_slice(b"\"\""),
    }
}

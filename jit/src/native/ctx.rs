//! The run context generated code reads and writes: input, depth, the path stack and the
//! error record, the number of open decode buffers, at fixed offsets ([`off`]); plus what
//! the Rust helpers need (the program, the options, scratch buffers, the decode arena, a
//! caught panic).

use std::any::Any;
use std::mem::offset_of;

use bumpalo::Bump;

use crate::interp;
use crate::ir::{ExecOptions, KeyMemo, PathSeg, Program};
use crate::recall::Verdicts;

/// One path segment as generated code stores it: `b == 0` is `Index(a)`; `b == 1` is
/// `Field { table: a >> 32, field: a as u32 }`; `b >= 2` is `Key { start: a, end: b - 2 }`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Seg {
    pub a: u64,
    pub b: u64,
}

impl Seg {
    /// The segment as the interpreter reports it.
    pub fn to_path_seg(self) -> PathSeg {
        match self.b {
            0 => PathSeg::Index(self.a),
            1 => PathSeg::Field {
                table: (self.a >> 32) as u32,
                field: self.a as u32,
            },
            b => PathSeg::Key {
                start: self.a as usize,
                end: (b - 2) as usize,
            },
        }
    }
}

/// Where the first error of a run is recorded (see [`super::fail`] for the encoding).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ErrRecord {
    pub class: u64,
    pub a: u64,
    pub b: u64,
    pub offset: u64,
}

/// How deep generated code may open containers before its cold path runs: the depth
/// limit, or the path stack's capacity when that is smaller (then the stack grows).
pub(crate) fn depth_room(max_depth: u64, path_cap: u64) -> u64 {
    max_depth.min(path_cap)
}

/// The context of one native run; generated code gets a pointer to it.
///
/// Every open container has one path segment, so the path stack's length is `depth`:
/// `path[..depth]`. Opening a container checks `depth` against `depth_room`, the smaller
/// of `max_depth` and the stack's capacity, and only past it tells the two apart (the
/// limit's error, or a larger stack).
#[repr(C)]
pub(crate) struct Ctx {
    pub input: *const u8,
    pub len: u64,
    pub depth: u64,
    pub max_depth: u64,
    pub path: *mut Seg,
    pub path_cap: u64,
    pub depth_room: u64,
    pub dup_deny: u64,
    pub stack_limit: u64,
    pub err: ErrRecord,
    pub open: u64,
    /// `Try` calls running (counted only in programs that remember runs: a remembered
    /// failure answers a call only below one).
    pub tries: u64,
    pub buf_len: u64,
    pub views: *const BufView,
    pub views_len: u64,
    pub arena: *const Bump,
    /// The next free byte of the arena slab finished arrays are copied into inline (0
    /// before the first slab; see `decode::jitson_native_copy_out`).
    pub bump: u64,
    /// The end of that slab.
    pub bump_end: u64,
    /// The size of the next slab the copy helper takes from the arena.
    pub next_slab: u64,
    pub program: *const Program,
    pub options: ExecOptions,
    pub scratch: *mut Scratch,
    pub panic: Option<Box<dyn Any + Send>>,
    /// The patterns the last unknown key matched (`key-matches`).
    pub key_memo: KeyMemo,
}

/// Byte offsets of the [`Ctx`] fields generated code touches.
pub(crate) mod off {
    use super::*;

    pub const INPUT: i32 = offset_of!(Ctx, input) as i32;
    pub const LEN: i32 = offset_of!(Ctx, len) as i32;
    pub const DEPTH: i32 = offset_of!(Ctx, depth) as i32;
    pub const MAX_DEPTH: i32 = offset_of!(Ctx, max_depth) as i32;
    pub const PATH: i32 = offset_of!(Ctx, path) as i32;
    pub const DEPTH_ROOM: i32 = offset_of!(Ctx, depth_room) as i32;
    pub const DUP_DENY: i32 = offset_of!(Ctx, dup_deny) as i32;
    pub const STACK_LIMIT: i32 = offset_of!(Ctx, stack_limit) as i32;
    pub const ERR_CLASS: i32 = (offset_of!(Ctx, err) + offset_of!(ErrRecord, class)) as i32;
    pub const ERR_A: i32 = (offset_of!(Ctx, err) + offset_of!(ErrRecord, a)) as i32;
    pub const ERR_B: i32 = (offset_of!(Ctx, err) + offset_of!(ErrRecord, b)) as i32;
    pub const ERR_OFFSET: i32 = (offset_of!(Ctx, err) + offset_of!(ErrRecord, offset)) as i32;
    pub const OPEN: i32 = offset_of!(Ctx, open) as i32;
    pub const TRIES: i32 = offset_of!(Ctx, tries) as i32;
    pub const BUF_LEN: i32 = offset_of!(Ctx, buf_len) as i32;
    pub const BUMP: i32 = offset_of!(Ctx, bump) as i32;
    pub const BUMP_END: i32 = offset_of!(Ctx, bump_end) as i32;
    pub const VIEWS: i32 = offset_of!(Ctx, views) as i32;
    pub const VIEWS_LEN: i32 = offset_of!(Ctx, views_len) as i32;
    pub const KEY_MEMO_KEY: i32 = (offset_of!(Ctx, key_memo) + offset_of!(KeyMemo, key)) as i32;
    pub const KEY_MEMO_TABLE: i32 = (offset_of!(Ctx, key_memo) + offset_of!(KeyMemo, table)) as i32;
    pub const KEY_MEMO_MASK: i32 = (offset_of!(Ctx, key_memo) + offset_of!(KeyMemo, mask)) as i32;
    pub const VIEW_ADDR: i32 = offset_of!(BufView, addr) as i32;
    pub const VIEW_LEN: i32 = offset_of!(BufView, len) as i32;
}

/// A decode buffer as generated code sees it: the address and length of one of
/// `Scratch::bufs` (its `Vec` length; the helpers that change a buffer update its view).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct BufView {
    pub addr: u64,
    pub len: u64,
}

/// The first arena slab for finished arrays, in bytes; each next one is twice the last, up
/// to [`LAST_SLAB`], so a document's unused slab space stays about what its arrays already
/// hold, and the last slab's tail at most 16 KiB. (A slab is left when an array does not
/// fit its rest, so each tail left behind is shorter than that array.)
pub(crate) const FIRST_SLAB: u64 = 64;
/// The largest arena slab for finished arrays (a longer array gets a slab of its own size).
pub(crate) const LAST_SLAB: u64 = 16 * 1024;

/// Path stack entries allocated up front (deeper input grows it through a helper).
const INITIAL_PATH: usize = 32;

/// Reusable buffers of native runs; keep one per thread. It also holds the interpreter's
/// scratch, for the checks that run the interpreter's code and for runs that fall back to
/// it.
#[derive(Debug, Default)]
pub struct Scratch {
    /// The path stack (its length is the capacity generated code sees).
    pub(crate) path: Vec<Seg>,
    /// Unescaped text of the current key.
    pub(crate) text: Vec<u8>,
    /// Decode: the root slot, then one buffer per open array (items), object (extra
    /// members) and boxed record; `Ctx::open` of them are in use, the newest last.
    pub(crate) bufs: Vec<Vec<u8>>,
    /// A view of each of `bufs`, for generated code that reuses a buffer inline.
    pub(crate) views: Vec<BufView>,
    /// The interpreter's buffers.
    pub(crate) interp: interp::Scratch,
    /// The verdicts of remembered runs (the IR's "Remembered runs").
    pub(crate) verdicts: Verdicts,
}

impl Scratch {
    /// Empty buffers.
    pub fn new() -> Scratch {
        Scratch::default()
    }
}

impl Ctx {
    /// A context for one run over `input`; `stack_limit` is the lowest stack address
    /// generated code may reach.
    pub fn new(
        program: &Program,
        input: &[u8],
        options: &ExecOptions,
        scratch: &mut Scratch,
        stack_limit: usize,
    ) -> Ctx {
        if program.recall.any() {
            scratch.verdicts.clear();
        }
        if scratch.path.len() < INITIAL_PATH {
            scratch.path.resize(INITIAL_PATH, Seg::default());
        }
        Ctx {
            input: input.as_ptr(),
            len: input.len() as u64,
            depth: 0,
            max_depth: u64::from(options.max_depth),
            path: scratch.path.as_mut_ptr(),
            path_cap: scratch.path.len() as u64,
            depth_room: depth_room(u64::from(options.max_depth), scratch.path.len() as u64),
            dup_deny: u64::from(options.duplicate_keys == crate::ir::DuplicateKeys::Deny),
            stack_limit: stack_limit as u64,
            err: ErrRecord::default(),
            open: 0,
            tries: 0,
            buf_len: 0,
            views: scratch.views.as_ptr(),
            views_len: scratch.views.len() as u64,
            arena: std::ptr::null(),
            bump: 0,
            bump_end: 0,
            next_slab: FIRST_SLAB,
            program,
            options: *options,
            scratch,
            panic: None,
            key_memo: KeyMemo::default(),
        }
    }

    /// The containers open, as the interpreter counts them (saturated to `u32`).
    pub fn open_depth(&self) -> u32 {
        u32::try_from(self.depth).unwrap_or(u32::MAX)
    }

    /// The program, the input and the scratch, borrowed apart from the context.
    ///
    /// # Safety
    /// The context was made by [`Ctx::new`] and its borrows are still live (during the
    /// run); the caller holds no other reference to the scratch.
    pub unsafe fn parts<'a>(&self) -> (&'a Program, &'a [u8], &'a mut Scratch) {
        // SAFETY: the pointers come from `Ctx::new`'s borrows, which outlive the run; the
        // input pointer and length describe one live slice.
        unsafe {
            (
                &*self.program,
                std::slice::from_raw_parts(self.input, self.len as usize),
                &mut *self.scratch,
            )
        }
    }

    /// The path stack as the interpreter reports it.
    pub fn path(&self) -> Vec<PathSeg> {
        let len = self.depth.min(self.path_cap) as usize;
        // SAFETY: `path` points at `path_cap` initialized segments of the scratch's
        // vector, and `len <= path_cap`.
        let segs = unsafe { std::slice::from_raw_parts(self.path, len) };
        segs.iter().map(|s| s.to_path_seg()).collect()
    }
}

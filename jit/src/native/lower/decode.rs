//! The decode half of the lowering: what each op writes (see the IR's decode table), with
//! fixed-offset stores at the frame's *base* (a variable: the destination, an array item,
//! or an extra member's entry) plus the op's `dst` operand.
//!
//! - Scalars are stored inline: booleans, union tags (`Dispatch`, `Tag`), unescaped
//!   strings as `(ptr, len)` into the input, raw values (`SkipValue`, `RawCheck`) as their
//!   span. Escaped strings are unescaped into the arena by a helper.
//! - Numbers go through a helper (the interpreter's number reader and checks: one
//!   `BigInts` policy); checked strings and enumerations go through a helper too, whose
//!   fast path writes the clean strings that pass and reports those that fail (their
//!   checks are predicates and tables the interpreter owns) and runs the interpreter's op
//!   through a slot-writing sink for the rest.
//! - Arrays reserve items inline in a context-owned buffer (a helper only when it must
//!   grow) and copy them to the arena at `ArrEnd`; objects zero their record inline, copy
//!   the presence bitmap from the stack, and keep extra members in a buffer through
//!   helpers; boxed callees get a record buffer, copied to the arena when they return.
//!   `Try` restores the number of open buffers with the cursor, as the interpreter's
//!   unwind does.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I8, I32, I64};
use cranelift_codegen::ir::{
    Block, BlockArg, InstBuilder, MemFlagsData, StackSlot, StackSlotData, StackSlotKind, Value,
};
use cranelift_frontend::{FunctionBuilder, Variable};

use super::Lower;
use crate::ir::{NO_DST, Op, Program};
use crate::layout::{Shape, ShapeInfo};
use crate::native::ctx::{BufView, off};
use crate::native::decode::{EMPTY_ADDR, NO_BUF, SLAB_BUF};
use crate::native::helpers::Callee;

/// Records larger than this many words are zeroed by a helper.
const MAX_INLINE_ZERO_WORDS: u32 = 32;

/// Bytes an array's item buffer starts with (one item when items are larger): short
/// arrays then never call the grow helper. A multiple of 16: an array of items no larger
/// than this reuses its buffer inline, zeroing it with 16-byte stores.
const FIRST_ITEMS_BYTES: u32 = 128;

/// Flags for destination stores: inside a buffer the run owns, maybe unaligned.
fn dst_flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// The most bytes an array reserves in the arena slab at its first item (see
/// [`slab_reservation`]).
const SLAB_RESERVE_MAX: u32 = 128;

/// The bytes an array function reserves for its items in the arena slab at its first item,
/// when its `ArrEnd` bounds the count to `max` items of `stride` bytes: room for `max + 1`
/// items (the `ArrNext` after the last one reserves one more before the next item's op
/// fails), rounded up to 16 (zeroed with 16-byte stores), at most [`SLAB_RESERVE_MAX`].
/// The items are then written in place: no scratch buffer, no copy at `ArrEnd`, which
/// gives back what they did not use (canada's `[longitude, latitude]` pairs, bounded by
/// their tuple: 48 bytes reserved, 32 kept). `None` for unbounded arrays, whose lengths
/// vary (reserving 64 bytes for every array of short items measured 1.9 % more
/// instructions on citm_catalog's decode and 5 % on book's), and items of no bytes. An
/// array that outgrows its reservation anyway (a `maxItems` is checked only at `ArrEnd`)
/// goes on in a scratch buffer.
fn slab_reservation(ops: &[Op], stride: u32) -> Option<u32> {
    let max = ops.iter().find_map(|op| match op {
        Op::ArrEnd { max, .. } => *max,
        _ => None,
    })?;
    let bytes = max
        .checked_add(1)?
        .checked_mul(u64::from(stride))?
        .next_multiple_of(16);
    (stride > 0 && bytes <= u64::from(SLAB_RESERVE_MAX)).then_some(bytes as u32)
}

/// The longest array (in bytes) `ArrEnd` copies to the arena inline, eight bytes per
/// step; longer ones go through the copy helper's `memcpy` (canada's coordinate pairs are
/// 32 bytes; with no limit, citm_catalog's longer arrays cost its decode 2.8 % more
/// instructions).
const INLINE_COPY_MAX: i64 = 128;

/// The decode state of one function being lowered.
pub(super) struct State<'a> {
    /// The destination operand of each op.
    dsts: &'a [u32],
    /// The shape the function writes.
    shape: &'a ShapeInfo,
    /// The frame's destination (the function's third parameter).
    dst: Value,
    /// Where ops' destinations count from.
    base: Variable,
    /// The array's item buffer: index ([`NO_BUF`] before the first item, [`SLAB_BUF`] for
    /// items written in the arena slab), address, length.
    abuf: Variable,
    aptr: Variable,
    alen: Variable,
    /// The array's slab reservation ([`slab_reservation`]).
    slab_bytes: Option<u32>,
    /// The object's extra members (`native::decode::Extras`).
    extras: StackSlot,
}

impl<'a> State<'a> {
    /// The state of function `index` whose destination is `dst`.
    pub(super) fn new(
        b: &mut FunctionBuilder<'_>,
        program: &'a Program,
        index: usize,
        dst: Value,
    ) -> State<'a> {
        let layout = &program.layout.funcs[index];
        let [base, abuf, aptr, alen] = [(); 4].map(|_| b.declare_var(I64));
        b.def_var(base, dst);
        let none = b.ins().iconst(I64, NO_BUF as i64);
        b.def_var(abuf, none);
        let zero = b.ins().iconst(I64, 0);
        b.def_var(aptr, zero);
        b.def_var(alen, zero);
        let extras =
            b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 3));
        let shape = program.layout.shape(layout.shape);
        let slab_bytes = match shape.shape {
            Shape::Array { stride, .. } => slab_reservation(&program.funcs[index].ops, stride),
            _ => None,
        };
        State {
            dsts: &layout.dst,
            shape,
            dst,
            base,
            abuf,
            aptr,
            alen,
            slab_bytes,
            extras,
        }
    }
}

impl Lower<'_> {
    /// Op `pc`'s destination address (base + `dst`), or `None` when it writes nothing
    /// (validate, or a `NO_DST` operand).
    pub(super) fn dest(&mut self, pc: usize) -> Option<Value> {
        let d = self.d.as_ref()?;
        let off = d.dsts[pc];
        if off == NO_DST {
            return None;
        }
        let base = self.b.use_var(d.base);
        Some(self.b.ins().iadd_imm_s(base, i64::from(off)))
    }

    /// Whether this is a decode function.
    pub(super) fn decoding(&self) -> bool {
        self.d.is_some()
    }

    fn state(&self) -> &State<'_> {
        self.d.as_ref().expect("a decode function")
    }

    /// Stores `v` at `addr + offset`.
    pub(super) fn put(&mut self, v: Value, addr: Value, offset: i32) {
        self.b.ins().store(dst_flags(), v, addr, offset);
    }

    /// Stores the `u32` constant `v` at `addr`.
    pub(super) fn put_u32(&mut self, v: u32, addr: Value) {
        let c = self.b.ins().iconst(I32, i64::from(v));
        self.put(c, addr, 0);
    }

    /// Stores the boolean byte `v` at `addr`.
    pub(super) fn put_bool(&mut self, v: bool, addr: Value) {
        let c = self.b.ins().iconst(I8, i64::from(v));
        self.put(c, addr, 0);
    }

    /// Stores `(input + start, end - start)` at `addr`.
    pub(super) fn put_span(&mut self, start: Value, end: Value, addr: Value) {
        let input = self.input();
        let ptr = self.b.ins().iadd(input, start);
        let len = self.b.ins().isub(end, start);
        self.put(ptr, addr, 0);
        self.put(len, addr, 8);
    }

    /// Calls `helper(ctx, pos, func, pc, addr)` for op `pc` and takes its cursor.
    pub(super) fn op_helper_into(&mut self, helper: Callee, pc: usize, addr: Value) {
        let p = self.pos();
        let (f, pc) = (self.iconst(i64::from(self.index)), self.iconst(pc as i64));
        let ctx = self.ctx;
        let v = self.call_checked(helper, &[ctx, p, f, pc, addr]);
        self.set_pos(v);
    }

    /// A value op the interpreter runs: writing its slot when decode has a destination.
    pub(super) fn decode_value_op(&mut self, pc: usize) {
        match self.dest(pc) {
            Some(addr) => self.op_helper_into(Callee::DecodeOp, pc, addr),
            None => self.value_op(pc),
        }
    }

    /// `SkipValue` / `RawCheck`: the interpreter's skip, then the span stored (a skip that
    /// writes nothing has its own fast path).
    pub(super) fn raw_value_op(&mut self, pc: usize) {
        let Some(addr) = self.dest(pc) else {
            match self.func.ops[pc] {
                Op::SkipValue => self.skip_value(pc),
                _ => self.value_op(pc),
            }
            return;
        };
        self.ws_value();
        let start = self.pos();
        self.value_op(pc);
        let end = self.pos();
        self.put_span(start, end, addr);
    }

    /// `Tag`.
    pub(super) fn tag(&mut self, pc: usize, v: u32) {
        if let Some(addr) = self.dest(pc) {
            self.put_u32(v, addr);
        }
    }

    /// The string body `body..end` (scanned; escapes in `flags`): its `(ptr, len)` at
    /// `addr` (unescaped into the arena by a helper when it has escapes).
    pub(super) fn put_string(
        &mut self,
        body: Value,
        end: Value,
        flags: Value,
        addr: Option<Value>,
    ) {
        let [plain, escaped, done] = self.blocks();
        self.b.ins().brif(flags, escaped, &[], plain, &[]);
        self.b.switch_to_block(escaped);
        let zero = self.iconst(0);
        let target = addr.unwrap_or(zero);
        let ctx = self.ctx;
        self.call_checked(Callee::Unescape, &[ctx, body, end, target]);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(plain);
        if let Some(addr) = addr {
            self.put_span(body, end, addr);
        }
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }

    /// The array's item stride.
    fn stride(&self) -> u32 {
        match self.state().shape.shape {
            Shape::Array { stride, .. } => stride,
            _ => unreachable!("Program::verify: array ops in an array function"),
        }
    }

    /// `ArrBegin` after the empty check: room for item 0 (and more short items), the base
    /// at it. A bounded array reserves its items in the arena slab when the slab has room
    /// ([`slab_reservation`]); else short items reuse the item buffer inline when its view
    /// is long enough (zeroing [`FIRST_ITEMS_BYTES`]); otherwise the acquire helper opens it.
    pub(super) fn arr_first_item(&mut self) {
        let stride = self.stride();
        let open = self.load_ctx(off::OPEN);
        let size = stride.max(FIRST_ITEMS_BYTES);
        let [buffer, slow, join] = self.blocks();
        let buf = self.b.append_block_param(join, I64);
        let ptr = self.b.append_block_param(join, I64);
        let len = self.b.append_block_param(join, I64);
        if let Some(bytes) = self.state().slab_bytes {
            self.reserve_in_slab(bytes, buffer, join);
        } else {
            self.b.ins().jump(buffer, &[]);
        }
        self.b.switch_to_block(buffer);
        if size == FIRST_ITEMS_BYTES {
            self.reuse_inline(open, slow, join);
        } else {
            self.b.ins().jump(slow, &[]);
        }
        self.b.switch_to_block(slow);
        let ctx = self.ctx;
        let bytes = self.iconst(i64::from(size));
        let acquired = self.call_checked(Callee::Acquire, &[ctx, bytes]);
        let acquired_len = self.load_ctx(off::BUF_LEN);
        self.b
            .ins()
            .jump(join, &[open, acquired, acquired_len].map(BlockArg::Value));
        self.b.switch_to_block(join);
        let d = self.state();
        let (abuf, aptr, alen, base) = (d.abuf, d.aptr, d.alen, d.base);
        self.b.def_var(abuf, buf);
        self.b.def_var(aptr, ptr);
        self.b.def_var(alen, len);
        self.b.def_var(base, ptr);
    }

    /// `bytes` reserved at the arena slab's next free byte and zeroed, passed to `join` as
    /// `(SLAB_BUF, address, bytes)` when the slab has room; else on to `full`.
    fn reserve_in_slab(&mut self, bytes: u32, full: Block, join: Block) {
        let reserve = self.b.create_block();
        let start = self.load_ctx(off::BUMP);
        let end = self.load_ctx(off::BUMP_END);
        let next = self.b.ins().iadd_imm_s(start, i64::from(bytes));
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, next, end);
        self.b.ins().brif(fits, reserve, &[], full, &[]);
        self.b.switch_to_block(reserve);
        self.store_ctx(next, off::BUMP);
        self.zero_16s(start, bytes);
        let in_slab = self.iconst(SLAB_BUF as i64);
        let bytes = self.iconst(i64::from(bytes));
        self.b
            .ins()
            .jump(join, &[in_slab, start, bytes].map(BlockArg::Value));
    }

    /// Zeroes the `bytes` (a multiple of 16) at `addr` with 16-byte stores.
    fn zero_16s(&mut self, addr: Value, bytes: u32) {
        let zeros = self.splat(0);
        for at in (0..bytes).step_by(16) {
            self.put(zeros, addr, at as i32);
        }
    }

    /// Gives the `bytes` reserved in the slab at `reserved` back past their first `used`,
    /// when nothing was placed after them (an item's own arrays take the slab's bytes after
    /// the reservation, which then keeps its unused tail).
    fn release_slab_tail(&mut self, (reserved, bytes): (Value, u32), used: Value) {
        let bump = self.load_ctx(off::BUMP);
        let reserved_end = self.b.ins().iadd_imm_s(reserved, i64::from(bytes));
        let last = self.b.ins().icmp(IntCC::Equal, bump, reserved_end);
        let kept = self.b.ins().iadd(reserved, used);
        let bump = self.b.ins().select(last, kept, bump);
        self.store_ctx(bump, off::BUMP);
    }

    /// Buffer `open` reused inline when its view holds [`FIRST_ITEMS_BYTES`]: those bytes
    /// zeroed, the buffer opened, `(open, address, FIRST_ITEMS_BYTES)` passed to `join`;
    /// else on to `slow`.
    fn reuse_inline(&mut self, open: Value, slow: Block, join: Block) {
        let [check, reuse] = self.blocks();
        let count = self.load_ctx(off::VIEWS_LEN);
        let known = self.b.ins().icmp(IntCC::UnsignedLessThan, open, count);
        self.b.ins().brif(known, check, &[], slow, &[]);
        self.b.switch_to_block(check);
        let views = self.load_ctx(off::VIEWS);
        let at = self.b.ins().imul_imm_s(open, size_of::<BufView>() as i64);
        let view = self.b.ins().iadd(views, at);
        let len = self
            .b
            .ins()
            .load(I64, MemFlagsData::trusted(), view, off::VIEW_LEN);
        let bytes = i64::from(FIRST_ITEMS_BYTES);
        let room = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, len, bytes);
        self.b.ins().brif(room, reuse, &[], slow, &[]);
        self.b.switch_to_block(reuse);
        let addr = self
            .b
            .ins()
            .load(I64, MemFlagsData::trusted(), view, off::VIEW_ADDR);
        self.zero_16s(addr, FIRST_ITEMS_BYTES);
        let next = self.b.ins().iadd_imm_s(open, 1);
        self.store_ctx(next, off::OPEN);
        let reserved = self.iconst(bytes);
        self.b
            .ins()
            .jump(join, &[open, addr, reserved].map(BlockArg::Value));
    }

    /// `ArrNext` at `,`: reserves item `count` (its bytes are already zero), growing the
    /// buffer through a helper when it is full (items outgrowing their slab reservation
    /// move to a buffer first); the base at it.
    pub(super) fn arr_next_item(&mut self, count: Value) {
        let stride = i64::from(self.stride());
        let d = self.state();
        let (abuf, aptr, alen, base) = (d.abuf, d.aptr, d.alen, d.base);
        let at = self.b.ins().imul_imm_s(count, stride);
        let need = self.b.ins().iadd_imm_s(at, stride);
        let len = self.b.use_var(alen);
        let full = self.b.ins().icmp(IntCC::UnsignedGreaterThan, need, len);
        let [grow, ready] = self.blocks();
        self.b.ins().brif(full, grow, &[], ready, &[]);
        self.b.switch_to_block(grow);
        self.b.set_cold_block(grow);
        if let Some(bytes) = self.state().slab_bytes {
            self.leave_slab(bytes, need, ready);
        }
        let buf = self.b.use_var(abuf);
        let len = self.b.use_var(alen);
        let ctx = self.ctx;
        let ptr = self.call_checked(Callee::Grow, &[ctx, buf, need, len]);
        let len = self.load_ctx(off::BUF_LEN);
        self.b.def_var(aptr, ptr);
        self.b.def_var(alen, len);
        self.b.ins().jump(ready, &[]);
        self.b.switch_to_block(ready);
        let ptr = self.b.use_var(aptr);
        let item = self.b.ins().iadd(ptr, at);
        self.b.def_var(base, item);
    }

    /// Items outgrowing their slab reservation (on a cold path, before the grow helper):
    /// on into a newly acquired buffer of at least `need` bytes, the reservation given back
    /// where it can be, then to `ready`; items already in a buffer continue (to the grow
    /// helper). The items written so far are not copied: the reservation holds one item
    /// more than the array's bound ([`slab_reservation`]), so an array that outgrows it
    /// fails (at `ArrEnd`, or earlier), and its items are never read.
    fn leave_slab(&mut self, reserved_bytes: u32, need: Value, ready: Block) {
        let d = self.state();
        let (abuf, aptr, alen) = (d.abuf, d.aptr, d.alen);
        let buf = self.b.use_var(abuf);
        let in_slab = self.b.ins().icmp_imm_s(IntCC::Equal, buf, SLAB_BUF as i64);
        let [move_out, buffered] = self.blocks();
        self.b.ins().brif(in_slab, move_out, &[], buffered, &[]);
        self.b.switch_to_block(move_out);
        let open = self.load_ctx(off::OPEN);
        let ctx = self.ctx;
        let bytes = self.iconst(i64::from(2 * reserved_bytes));
        let bytes = self.b.ins().umax(bytes, need);
        let moved = self.call_checked(Callee::Acquire, &[ctx, bytes]);
        let reserved = self.b.use_var(aptr);
        let zero = self.iconst(0);
        self.release_slab_tail((reserved, reserved_bytes), zero);
        let len = self.load_ctx(off::BUF_LEN);
        self.b.def_var(abuf, open);
        self.b.def_var(aptr, moved);
        self.b.def_var(alen, len);
        self.b.ins().jump(ready, &[]);
        self.b.switch_to_block(buffered);
    }

    /// `ArrEnd`: the items to the arena, `(ptr, count)` at the destination, the base back
    /// at it. An array of up to [`INLINE_COPY_MAX`] bytes is copied to the current arena
    /// slab inline, eight bytes per step (item sizes are multiples of 8), and its buffer
    /// released; a longer one, or one the slab has no room for, goes through the copy
    /// helper (which copies with `memcpy` and takes a new slab when needed).
    pub(super) fn arr_finish(&mut self, count: Value) {
        let stride = i64::from(self.stride());
        let d = self.state();
        let (abuf, base, dst) = (d.abuf, d.base, d.dst);
        let buf = self.b.use_var(abuf);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, buf, NO_BUF as i64);
        let [items, copy, join] = self.blocks();
        let ptr = self.b.append_block_param(join, I64);
        let empty = self.iconst(EMPTY_ADDR as i64);
        self.b
            .ins()
            .brif(none, join, &[BlockArg::Value(empty)], items, &[]);
        self.b.switch_to_block(items);
        if let Some(bytes) = self.state().slab_bytes {
            // Items written in the slab stay there.
            let in_place = self.b.create_block();
            let in_slab = self.b.ins().icmp_imm_s(IntCC::Equal, buf, SLAB_BUF as i64);
            self.b.ins().brif(in_slab, in_place, &[], copy, &[]);
            self.b.switch_to_block(in_place);
            let reserved = self.b.use_var(self.state().aptr);
            let used = self.b.ins().imul_imm_s(count, stride);
            self.release_slab_tail((reserved, bytes), used);
            self.b.ins().jump(join, &[BlockArg::Value(reserved)]);
        } else {
            self.b.ins().jump(copy, &[]);
        }
        self.b.switch_to_block(copy);
        if stride == 0 {
            // Items of no bytes (`null`s): nothing to copy, any non-null address reads them.
            self.store_ctx(buf, off::OPEN);
            self.b.ins().jump(join, &[BlockArg::Value(empty)]);
        } else {
            self.copy_to_slab(buf, count, stride, join);
        }
        self.b.switch_to_block(join);
        self.put(ptr, dst, 0);
        self.put(count, dst, 8);
        self.b.def_var(base, dst);
    }

    /// The `count` items of `stride > 0` bytes in buffer `buf` copied to the arena (see
    /// [`Lower::arr_finish`]), the buffer released; jumps to `join(copy's address)`.
    fn copy_to_slab(&mut self, buf: Value, count: Value, stride: i64, join: Block) {
        let aptr = self.state().aptr;
        let [inline, step, slab_full] = self.blocks();
        let len = self.b.ins().imul_imm_s(count, stride);
        let start = self.load_ctx(off::BUMP);
        let end = self.load_ctx(off::BUMP_END);
        let next = self.b.ins().iadd(start, len);
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, next, end);
        let short = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedLessThanOrEqual, len, INLINE_COPY_MAX);
        let inline_copy = self.b.ins().band(fits, short);
        self.b.ins().brif(inline_copy, inline, &[], slab_full, &[]);

        // `len` is at least one item of at least 8 bytes, so the loop runs at least once.
        self.b.switch_to_block(inline);
        self.store_ctx(next, off::BUMP);
        self.store_ctx(buf, off::OPEN);
        let items = self.b.use_var(aptr);
        let zero = self.iconst(0);
        self.b.ins().jump(step, &[BlockArg::Value(zero)]);
        self.b.switch_to_block(step);
        let at = self.b.append_block_param(step, I64);
        let from = self.b.ins().iadd(items, at);
        let word = self.b.ins().load(I64, dst_flags(), from, 0);
        let to = self.b.ins().iadd(start, at);
        self.put(word, to, 0);
        let at = self.b.ins().iadd_imm_s(at, 8);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, at, len);
        self.b.ins().brif(
            more,
            step,
            &[BlockArg::Value(at)],
            join,
            &[BlockArg::Value(start)],
        );

        self.b.switch_to_block(slab_full);
        let ctx = self.ctx;
        let copied = self.call_checked(Callee::CopyOut, &[ctx, buf, len]);
        self.b.ins().jump(join, &[BlockArg::Value(copied)]);
    }

    /// The object's record size, extras offset and entry size.
    fn record(&self) -> (u32, u32, u32) {
        let info = self.state().shape;
        match info.shape {
            Shape::Object { extras, entry, .. } => (info.size, extras, entry),
            _ => unreachable!("Program::verify: object ops in an object function"),
        }
    }

    /// `ObjBegin`: the record zeroed, no extra members yet, the base at the record.
    pub(super) fn obj_start(&mut self) {
        let (size, _, _) = self.record();
        let d = self.state();
        let (dst, base, extras) = (d.dst, d.base, d.extras);
        let words = size / 8;
        if words <= MAX_INLINE_ZERO_WORDS {
            let zero = self.iconst(0);
            for w in 0..words {
                self.put(zero, dst, (w * 8) as i32);
            }
        } else {
            let (ctx, len) = (self.ctx, self.iconst(i64::from(size)));
            self.call_checked(Callee::Zero, &[ctx, dst, len]);
        }
        let none = self.iconst(NO_BUF as i64);
        let zero = self.iconst(0);
        self.b.ins().stack_store(I64, none, extras, 0);
        self.b.ins().stack_store(I64, zero, extras, 8);
        self.b.def_var(base, dst);
    }

    /// `Key` after the member's bookkeeping: a named field's base is the record; an
    /// unknown key appends an extra member (key `body..end`) and the base is its entry.
    pub(super) fn key_base(&mut self, field: Value, body: Value, end: Value, flags: Value) {
        let (_, _, entry) = self.record();
        let d = self.state();
        let (dst, base, extras) = (d.dst, d.base, d.extras);
        let unknown =
            self.b
                .ins()
                .icmp_imm_s(IntCC::Equal, field, crate::native::helpers::NO_FIELD as i64);
        let [extra, done] = self.blocks();
        let at = self.b.append_block_param(done, I64);
        self.b
            .ins()
            .brif(unknown, extra, &[], done, &[BlockArg::Value(dst)]);
        self.b.switch_to_block(extra);
        let state = self.b.ins().stack_addr(I64, extras, 0);
        let (ctx, entry) = (self.ctx, self.iconst(i64::from(entry)));
        let e = self.call_checked(Callee::Extra, &[ctx, state, body, end, flags, entry]);
        self.b.ins().jump(done, &[BlockArg::Value(e)]);
        self.b.switch_to_block(done);
        self.b.def_var(base, at);
    }

    /// [`Lower::key_base`] for a named field: the base stays the record.
    pub(super) fn key_base_named(&mut self) {
        let d = self.state();
        let (dst, base) = (d.dst, d.base);
        self.b.def_var(base, dst);
    }

    /// `ObjEnd` before its checks: the presence bitmap (`words` words) into the record,
    /// the extra members to the arena, the base back at the record.
    pub(super) fn obj_finish(&mut self, words: usize) {
        let (_, extras_at, entry) = self.record();
        let d = self.state();
        let (dst, base, extras) = (d.dst, d.base, d.extras);
        for w in 0..words {
            let bits = self.b.ins().stack_load(I64, I64, self.bits, (w * 8) as i32);
            self.put(bits, dst, (w * 8) as i32);
        }
        // No extra member (the common case): the empty pair, without a helper call.
        let buf = self.b.ins().stack_load(I64, I64, extras, 0);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, buf, NO_BUF as i64);
        let [empty, some, done] = self.blocks();
        self.b.ins().brif(none, empty, &[], some, &[]);
        self.b.switch_to_block(empty);
        let (addr, zero) = (self.iconst(EMPTY_ADDR as i64), self.iconst(0));
        let at = i32::try_from(extras_at).expect("records are smaller than 2 GiB");
        self.put(addr, dst, at);
        self.put(zero, dst, at + 8);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(some);
        let state = self.b.ins().stack_addr(I64, extras, 0);
        let pair = self.b.ins().iadd_imm_s(dst, i64::from(extras_at));
        let (ctx, entry) = (self.ctx, self.iconst(i64::from(entry)));
        self.call_checked(Callee::ExtrasOut, &[ctx, state, entry, pair]);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        self.b.def_var(base, dst);
    }
}

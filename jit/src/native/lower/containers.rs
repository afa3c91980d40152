//! Arrays and objects: opening (kind, depth), the path stack, separators, closing checks
//! (item counts, required fields).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{BlockArg, InstBuilder, Value};

use super::{First, Lower, trusted};
use crate::ir::{ErrorKind, FailKind, KeyTableId, Kinds, Label, Violation};
use crate::native::ctx::off;
use crate::native::fail::{self, CLASS_VIOLATION, TAG_REQUIRED};
use crate::native::helpers::{Callee, NO_FIELD};

impl Lower<'_> {
    /// Opens a container at the cursor (after whitespace): the bracket, the depth limit,
    /// a path entry `Index(0)` at `path[depth]`, `depth += 1`.
    fn open(&mut self, bracket: u8, kind: Kinds) {
        let [ok, bad] = self.blocks();
        self.ws_branch_byte(true, First::Whitespace, bracket, ok, bad);
        self.b.switch_to_block(bad);
        self.b.set_cold_block(bad);
        let p = self.pos();
        self.mismatch(p, kind);
        self.b.switch_to_block(ok);
        let p = self.pos();
        let depth = self.load_ctx(off::DEPTH);
        let room = self.load_ctx(off::DEPTH_ROOM);
        let out_of_room = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, depth, room);
        let [fine, limit_or_grow, grow, too_deep] = self.blocks();
        self.b
            .ins()
            .brif(out_of_room, limit_or_grow, &[], fine, &[]);
        self.b.switch_to_block(limit_or_grow);
        self.b.set_cold_block(limit_or_grow);
        let max = self.load_ctx(off::MAX_DEPTH);
        let deep = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, depth, max);
        self.b.ins().brif(deep, too_deep, &[], grow, &[]);
        self.b.switch_to_block(too_deep);
        self.b.set_cold_block(too_deep);
        self.fail_with(FailKind::DepthLimitExceeded, p);
        self.b.switch_to_block(grow);
        self.b.set_cold_block(grow);
        let ctx = self.ctx;
        self.call_checked(Callee::PathGrow, &[ctx]);
        self.b.ins().jump(fine, &[]);
        self.b.switch_to_block(fine);
        let depth = self.b.ins().iadd_imm_s(depth, 1);
        let zero = self.iconst(0);
        self.path_top(zero, Some(zero), depth);
        self.store_ctx(depth, off::DEPTH);
        let p = self.b.ins().iadd_imm_s(p, 1);
        self.set_pos(p);
    }

    /// The error for a value of the wrong kind at `p`: `Type` when a value starts there,
    /// else `ExpectedValue` (ends the block; the helper decides, off the hot path).
    fn mismatch(&mut self, p: Value, kind: Kinds) {
        let (ctx, kinds) = (self.ctx, self.iconst(i64::from(kind.0)));
        let (status, offset) = self.call(Callee::Mismatch, &[ctx, p, kinds]);
        let args = [BlockArg::Value(status), BlockArg::Value(offset)];
        self.b.ins().jump(self.exit, &args);
    }

    /// Overwrites the innermost open container's path segment with the words `(a, b)`;
    /// the first word only when `b` is `None` (an array's next index: its segment's second
    /// word stays the 0 its opening wrote).
    pub(super) fn path_set(&mut self, a: Value, b: Option<Value>) {
        let depth = self.load_ctx(off::DEPTH);
        self.path_top(a, b, depth);
    }

    /// Writes the segment words `(a, b)` at `path[depth - 1]` (`depth >= 1`: a container
    /// is open, and the stack has room for it), or the first word only when `b` is `None`.
    fn path_top(&mut self, a: Value, b: Option<Value>, depth: Value) {
        let ptr = self.load_ctx(off::PATH);
        let at = self.b.ins().imul_imm_s(depth, 16);
        let addr = self.b.ins().iadd(ptr, at);
        self.b.ins().store(trusted(), a, addr, -16);
        if let Some(b) = b {
            self.b.ins().store(trusted(), b, addr, -8);
        }
    }

    /// Closes a container: `depth -= 1` (which pops its path segment).
    fn close(&mut self) {
        let depth = self.load_ctx(off::DEPTH);
        let depth = self.b.ins().iadd_imm_s(depth, -1);
        self.store_ctx(depth, off::DEPTH);
    }

    /// After an element: `,` (consumed) runs `on_comma` then jumps to `next`; `close`
    /// (consumed) falls through; anything else is `ExpectedCommaOrEnd`.
    fn separator(&mut self, close: u8, next: Label, on_comma: impl FnOnce(&mut Self)) {
        let [comma, not_comma, closed, bad] = self.blocks();
        self.ws_branch_byte(false, First::Token, b',', comma, not_comma);
        self.b.switch_to_block(comma);
        let p = self.pos();
        let after = self.b.ins().iadd_imm_s(p, 1);
        self.set_pos(after);
        on_comma(self);
        let next = self.label(next);
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(not_comma);
        let p = self.pos();
        self.branch_byte(p, close, closed, bad);
        self.b.switch_to_block(bad);
        self.b.set_cold_block(bad);
        self.expected(ErrorKind::ExpectedCommaOrEnd, p);
        self.b.switch_to_block(closed);
        let after = self.b.ins().iadd_imm_s(p, 1);
        self.set_pos(after);
    }

    /// Skips whitespace; at `close` consumes it and jumps to `empty`.
    fn empty_check(&mut self, close: u8, empty: Label) {
        let [closed, go] = self.blocks();
        self.ws_branch_byte(false, First::Whitespace, close, closed, go);
        self.b.switch_to_block(closed);
        let p = self.pos();
        let after = self.b.ins().iadd_imm_s(p, 1);
        self.set_pos(after);
        let empty = self.label(empty);
        self.b.ins().jump(empty, &[]);
        self.b.switch_to_block(go);
    }

    /// `ArrBegin`.
    pub(super) fn arr_begin(&mut self, empty: Label) {
        self.open(b'[', Kinds::ARRAY);
        let zero = self.iconst(0);
        self.b.def_var(self.count, zero);
        self.empty_check(b']', empty);
        if self.decoding() {
            self.arr_first_item();
        }
    }

    /// `ArrNext`.
    pub(super) fn arr_next(&mut self, next: Label) {
        let count = self.b.use_var(self.count);
        let count = self.b.ins().iadd_imm_s(count, 1);
        self.b.def_var(self.count, count);
        self.separator(b']', next, |l| {
            l.path_set(count, None);
            if l.decoding() {
                l.arr_next_item(count);
            }
        });
    }

    /// `ArrEnd`.
    pub(super) fn arr_end(&mut self, min: u64, max: Option<u64>) {
        self.close();
        let count = self.b.use_var(self.count);
        if self.decoding() {
            self.arr_finish(count);
        }
        let p = self.pos();
        let at = self.b.ins().iadd_imm_s(p, -1);
        if min > 0 {
            let few = self
                .b
                .ins()
                .icmp_imm_s(IntCC::UnsignedLessThan, count, min as i64);
            self.fail_if(few, Violation::MinItems, at);
        }
        if let Some(max) = max {
            let many = self
                .b
                .ins()
                .icmp_imm_s(IntCC::UnsignedGreaterThan, count, max as i64);
            self.fail_if(many, Violation::MaxItems, at);
        }
    }

    /// Fails with `v` at `at` when `cond` holds.
    fn fail_if(&mut self, cond: Value, v: Violation, at: Value) {
        let [bad, ok] = self.blocks();
        self.b.ins().brif(cond, bad, &[], ok, &[]);
        self.b.switch_to_block(bad);
        self.b.set_cold_block(bad);
        self.fail_with(FailKind::Violation(v), at);
        self.b.switch_to_block(ok);
    }

    /// `ObjBegin`.
    pub(super) fn obj_begin(&mut self, empty: Label, table: KeyTableId) {
        self.open(b'{', Kinds::OBJECT);
        let words = self.program.key_tables[table as usize].len().div_ceil(64);
        let zero = self.iconst(0);
        for w in 0..words {
            self.b
                .ins()
                .stack_store(I64, zero, self.bits, (w * 8) as i32);
        }
        let none = self.iconst(NO_FIELD as i64);
        self.b.def_var(self.field, none);
        if self.decoding() {
            self.obj_start();
        }
        self.empty_check(b'}', empty);
    }

    /// `ObjNext`.
    pub(super) fn obj_next(&mut self, next: Label) {
        self.separator(b'}', next, |_| {});
    }

    /// `ObjEnd`: closes, then the first required field (table order) whose bit is clear is
    /// a `Required` violation.
    pub(super) fn obj_end(&mut self, table: KeyTableId) {
        self.close();
        let t = &self.program.key_tables[table as usize];
        if self.decoding() {
            self.obj_finish(t.len().div_ceil(64));
        }
        let p = self.pos();
        let at = self.b.ins().iadd_imm_s(p, -1);
        let masks: Vec<u64> = (0..t.len().div_ceil(64))
            .map(|w| {
                (0..64)
                    .filter(|&i| w * 64 + i < t.len() && t.is_required(w * 64 + i))
                    .fold(0u64, |m, i| m | (1 << i))
            })
            .collect();
        for (w, mask) in masks.into_iter().enumerate() {
            if mask == 0 {
                continue;
            }
            let bits = self.b.ins().stack_load(I64, I64, self.bits, (w * 8) as i32);
            let mask = self.iconst(mask as i64);
            let missing = self.b.ins().band_not(mask, bits);
            let [bad, ok] = self.blocks();
            self.b.ins().brif(missing, bad, &[], ok, &[]);
            self.b.switch_to_block(bad);
            self.b.set_cold_block(bad);
            let field = self.b.ins().ctz(missing);
            let payload = (u64::from(table) << 32) + (w as u64) * 64;
            let payload = self.b.ins().iadd_imm_s(field, payload as i64);
            let (st, class, tag) = (
                self.iconst(fail::VIOLATION),
                self.iconst(CLASS_VIOLATION as i64),
                self.iconst(TAG_REQUIRED as i64),
            );
            self.jump_fail([st, class, tag, payload, at]);
            self.b.switch_to_block(ok);
        }
    }
}

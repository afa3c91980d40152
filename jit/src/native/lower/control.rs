//! Control ops: `Dispatch` (a jump table on the first byte), `Discriminate` (a leading tag
//! inline, else the lookahead helper, then a jump table), `Call` and `Try` (a callee's
//! violation status restores the cursor, depth and path and branches: nothing unwinds
//! across frames; decode calls the callee's decode version with its destination, boxing
//! its record when its shape is boxed; a remembered callee's validate version is asked of
//! the run's verdicts first), `OneOfEnd` and `ContainsEnd`.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, FuncRef, InstBuilder, Value};

use super::Lower;
use super::values::{MAX_INLINE_ENUM, inline_text, quoted};
use crate::interp::kind_slot;
use crate::ir::{ErrorKind, FailKind, FuncId, Label, Reg, Violation};
use crate::native::ctx::off;
use crate::native::fail::{self, CLASS_VIOLATION, TAG_ONE_OF};
use crate::native::helpers::Callee;
use crate::native::remember;
use cranelift_module::Module;

/// A boxed callee's record: the slot that receives its address, the number of buffers
/// open before it, its size.
struct Boxed {
    slot: Value,
    open: Value,
    size: u32,
}

impl Lower<'_> {
    /// `Dispatch`: whitespace, then a jump table on the first byte (decode stores the
    /// kind slot on the way to its label).
    pub(super) fn dispatch(&mut self, pc: usize, targets: &[Label; 6]) -> bool {
        let dest = self.dest(pc);
        self.ws_value();
        let p = self.pos();
        let [peek, none] = self.blocks();
        let len = self.len();
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, p, len);
        self.b.ins().brif(more, peek, &[], none, &[]);
        self.b.switch_to_block(none);
        self.b.set_cold_block(none);
        self.fail_with(FailKind::Syntax(ErrorKind::ExpectedValue), p);
        self.b.switch_to_block(peek);
        let byte = self.byte_at(p);
        let labels: Vec<Block> = targets.iter().map(|&t| self.label(t)).collect();
        let slots: Vec<Block> = match dest {
            Some(_) => labels.iter().map(|_| self.b.create_block()).collect(),
            None => labels.clone(),
        };
        let table: Vec<Block> = (0..=255u8)
            .map(|b| kind_slot(b).map_or(none, |s| slots[s]))
            .collect();
        self.br_table(byte, &table, none);
        if let Some(addr) = dest {
            for (slot, (&store, &target)) in slots.iter().zip(&labels).enumerate() {
                self.b.switch_to_block(store);
                self.put_u32(slot as u32, addr);
                self.b.ins().jump(target, &[]);
            }
        }
        false
    }

    /// `Discriminate`: whitespace, then a tag that opens the object as it stands inline (see
    /// [`Lower::leading_tag`]); otherwise the interpreter's lookahead (helper), then a jump
    /// table.
    pub(super) fn discriminate(
        &mut self,
        pc: usize,
        disc: u32,
        targets: &[Label],
        [unmatched, absent, missing]: [Label; 3],
    ) -> bool {
        // Whitespace first, as the ops after it skip it anyway.
        self.ws_value();
        let helper = self.b.create_block();
        self.leading_tag(disc, targets, helper);
        self.b.switch_to_block(helper);
        let p = self.pos();
        let (f, at) = (self.iconst(i64::from(self.index)), self.iconst(pc as i64));
        let ctx = self.ctx;
        let i = self.call_checked(Callee::ValueOp, &[ctx, p, f, at]);
        let i = self.b.ins().ireduce(I32, i);
        let mut blocks: Vec<Block> = targets.iter().map(|&t| self.label(t)).collect();
        let absent = self.label(absent);
        blocks.push(self.label(unmatched));
        blocks.push(absent);
        blocks.push(self.label(missing));
        self.br_table(i, &blocks, absent);
        false
    }

    /// When the object at the cursor opens with the discriminating property and a tag, as
    /// they stand (`{"kind":"circle"` or `{"kind": "circle"`, no escapes), or without a
    /// property with a tag as its first member's name (`{"circle":`), jumps to that tag's
    /// label: the tag the interpreter's lookahead finds. Anything else jumps to `helper`,
    /// as does a property or a tag not compared inline or more than [`MAX_INLINE_ENUM`]
    /// tags. The cursor stays where it is.
    fn leading_tag(&mut self, disc: u32, targets: &[Label], helper: Block) {
        let d = &self.program.discriminators[disc as usize];
        let tags = d.tags.values();
        let property = d.property.as_deref();
        if tags.len() > MAX_INLINE_ENUM
            || !property.is_none_or(inline_text)
            || !tags.iter().all(|t| inline_text(t))
        {
            self.b.ins().jump(helper, &[]);
            return;
        }
        let labels: Vec<Block> = targets.iter().map(|&t| self.label(t)).collect();
        let p = self.pos();
        let Some(property) = property else {
            // Each name with the brace before it and the colon after it.
            let members = tags.iter().map(|t| [b"{", &quoted(t)[..], b":"].concat());
            self.tokens_in_place(p, members, &labels, helper);
            return;
        };
        let opening = [b"{\"", property.as_bytes(), b"\":"].concat();
        let [opened, value] = self.blocks();
        let at = self.bytes_in_place(p, &opening, opened, helper);
        self.b.switch_to_block(opened);
        let len = self.len();
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, at, len);
        self.b.ins().brif(more, value, &[], helper, &[]);
        self.b.switch_to_block(value);
        let byte = self.byte_at(at);
        let space = self.b.ins().icmp_imm_s(IntCC::Equal, byte, i64::from(b' '));
        let space = self.b.ins().uextend(I64, space);
        let tag = self.b.ins().iadd(at, space);
        self.tokens_in_place(tag, tags.iter().map(|t| quoted(t)), &labels, helper);
    }

    /// A reference to function `f`: its decode version or its validate version.
    fn func_ref(&mut self, f: FuncId, decode: bool) -> FuncRef {
        let (refs, id) = match decode {
            true => (
                &mut self.dfunc_refs,
                self.decls.dfuncs[f as usize].expect("decode runs this callee with a destination"),
            ),
            false => (&mut self.func_refs, self.decls.funcs[f as usize]),
        };
        match refs[f as usize] {
            Some(r) => r,
            None => {
                let r = self.module.declare_func_in_func(id, self.b.func);
                refs[f as usize] = Some(r);
                r
            }
        }
    }

    /// Calls function `f` for op `pc` at the cursor: `(status, pos)`, and for a boxed
    /// callee what [`Lower::box_out`] needs. With a destination (decode) the callee's
    /// decode version writes there, or, when its shape is boxed, into a fresh record
    /// buffer; without one, its validate version runs (it writes nothing).
    fn call_codec(&mut self, pc: usize, f: FuncId) -> (Value, Value, Option<Boxed>) {
        let Some(slot) = self.dest(pc) else {
            let (status, p) = self.validate_call(f);
            return (status, p, None);
        };
        let (ctx, p) = (self.ctx, self.pos());
        let layout = &self.program.layout;
        let info = layout.shape(layout.funcs[f as usize].shape);
        let (dst, boxed) = match info.boxed {
            true => {
                let size = info.size;
                let open = self.load_ctx(off::OPEN);
                let len = self.iconst(i64::from(size));
                let record = self.call_checked(Callee::Acquire, &[ctx, len]);
                (record, Some(Boxed { slot, open, size }))
            }
            false => (slot, None),
        };
        let r = self.func_ref(f, true);
        let call = self.b.ins().call(r, &[ctx, p, dst]);
        let res = self.b.inst_results(call);
        (res[0], res[1], boxed)
    }

    /// Calls function `f`'s validate version at the cursor (asking the run's verdicts first
    /// when it is remembered): `(status, pos)`.
    fn validate_call(&mut self, f: FuncId) -> (Value, Value) {
        let (ctx, p) = (self.ctx, self.pos());
        let r = self.func_ref(f, false);
        if self.program.recall.remembers(f) {
            return self.remembered_call(r, f, p);
        }
        let call = self.b.ins().call(r, &[ctx, p]);
        let res = self.b.inst_results(call);
        (res[0], res[1])
    }

    /// A call of remembered function `f` (its validate version `r`) at `p`: a remembered
    /// verdict answers it, else it runs and the helper remembers how it ended (the IR's
    /// "Remembered runs"). `(status, pos)`.
    fn remembered_call(&mut self, r: FuncRef, f: FuncId, p: Value) -> (Value, Value) {
        let (ctx, func) = (self.ctx, self.iconst(i64::from(f)));
        let (status, end) = self.call(Callee::Recall, &[ctx, func, p]);
        let [run, done] = self.blocks();
        let status_out = self.b.append_block_param(done, I64);
        let pos_out = self.b.append_block_param(done, I64);
        let unknown = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, status, remember::UNKNOWN);
        let known = [BlockArg::Value(status), BlockArg::Value(end)];
        self.b.ins().brif(unknown, run, &[], done, &known);
        self.b.switch_to_block(run);
        let call = self.b.ins().call(r, &[ctx, p]);
        let (ran, at) = (self.b.inst_results(call)[0], self.b.inst_results(call)[1]);
        let kept = self.call(Callee::Remember, &[ctx, func, p, ran, at]);
        let kept = [BlockArg::Value(kept.0), BlockArg::Value(kept.1)];
        self.b.ins().jump(done, &kept);
        self.b.switch_to_block(done);
        (status_out, pos_out)
    }

    /// After a boxed callee returned: its record to the arena, the pointer to its slot.
    fn box_out(&mut self, boxed: Option<Boxed>) {
        if let Some(Boxed { slot, open, size }) = boxed {
            let (ctx, size) = (self.ctx, self.iconst(i64::from(size)));
            self.call_checked(Callee::BoxOut, &[ctx, size, slot, open]);
        }
    }

    /// `Call`: any error status returns at once.
    pub(super) fn call_func(&mut self, pc: usize, f: FuncId) {
        let (status, p, boxed) = self.call_codec(pc, f);
        let cont = self.b.create_block();
        self.b.ins().brif(
            status,
            self.exit,
            &[BlockArg::Value(status), BlockArg::Value(p)],
            cont,
            &[],
        );
        self.b.switch_to_block(cont);
        self.set_pos(p);
        self.box_out(boxed);
    }

    /// `Try`: a violation restores the cursor and the depth (which is the path's length),
    /// in decode also the open buffers, and jumps to `on_fail`; other errors return. In a
    /// program that remembers runs, the open `Try`s are counted (a remembered failure
    /// answers a call only below one), and a decoding callee is tried first by its
    /// validate version, then decodes only when that passed: decode then runs one branch of
    /// each union, and its trials answer from the run's verdicts.
    pub(super) fn try_func(&mut self, pc: usize, f: FuncId, on_fail: Label) {
        let depth = self.load_ctx(off::DEPTH);
        let open = self.decoding().then(|| self.load_ctx(off::OPEN));
        let saved = self.pos();
        let remembers = self.program.recall.any();
        let tries = remembers.then(|| {
            let tries = self.load_ctx(off::TRIES);
            let inside = self.b.ins().iadd_imm_s(tries, 1);
            self.store_ctx(inside, off::TRIES);
            tries
        });
        let [ok, failed, caught] = self.blocks();
        let failed_status = self.b.append_block_param(failed, I64);
        let failed_pos = self.b.append_block_param(failed, I64);
        if remembers && self.dest(pc).is_some() {
            let (status, p) = self.validate_call(f);
            let passed = self.b.create_block();
            let args = [BlockArg::Value(status), BlockArg::Value(p)];
            self.b.ins().brif(status, failed, &args, passed, &[]);
            self.b.switch_to_block(passed);
        }
        let (status, end, boxed) = self.call_codec(pc, f);
        let args = [BlockArg::Value(status), BlockArg::Value(end)];
        self.b.ins().brif(status, failed, &args, ok, &[]);
        self.b.switch_to_block(failed);
        let (status, p) = (failed_status, failed_pos);
        if let Some(tries) = tries {
            self.store_ctx(tries, off::TRIES);
        }
        let violation = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, status, fail::VIOLATION);
        self.b.ins().brif(
            violation,
            caught,
            &[],
            self.exit,
            &[BlockArg::Value(status), BlockArg::Value(p)],
        );
        self.b.switch_to_block(caught);
        self.store_ctx(depth, off::DEPTH);
        if let Some(open) = open {
            self.store_ctx(open, off::OPEN);
        }
        self.set_pos(saved);
        let on_fail = self.label(on_fail);
        self.b.ins().jump(on_fail, &[]);
        self.b.switch_to_block(ok);
        if let Some(tries) = tries {
            self.store_ctx(tries, off::TRIES);
        }
        self.set_pos(end);
        self.box_out(boxed);
    }

    /// The first byte of the value whose start register `start` saved: whitespace skipped
    /// from there (whether the save came before the whitespace differs between backends).
    fn saved_value_start(&mut self, start: Reg) -> Value {
        let saved = self.b.use_var(self.regs[start as usize]);
        let (input, len) = (self.input(), self.len());
        self.call_kernel(Callee::SkipWhitespace, &[input, len, saved], None)
    }

    /// `ContainsEnd`: the count against its bounds; a violation at the array's first byte
    /// (whitespace after the saved start skipped, on the cold path only).
    pub(super) fn contains_end(&mut self, count: Reg, start: Reg, min: u64, max: Option<u64>) {
        let n = self.b.use_var(self.regs[count as usize]);
        let bounds = [
            (min > 0).then_some((IntCC::UnsignedLessThan, min, Violation::MinContains)),
            max.map(|max| (IntCC::UnsignedGreaterThan, max, Violation::MaxContains)),
        ];
        for (cc, limit, violation) in bounds.into_iter().flatten() {
            let out = self.b.ins().icmp_imm_s(cc, n, limit as i64);
            let [bad, ok] = self.blocks();
            self.b.ins().brif(out, bad, &[], ok, &[]);
            self.b.switch_to_block(bad);
            self.b.set_cold_block(bad);
            let at = self.saved_value_start(start);
            self.fail_with(FailKind::Violation(violation), at);
            self.b.switch_to_block(ok);
        }
    }

    /// `OneOfEnd`: one match moves the cursor to its end; otherwise `OneOf { matched }`
    /// at the value's first byte (whitespace skipped from the saved start, as the
    /// interpreter does: whether it was skipped before the save differs between them).
    pub(super) fn one_of_end(&mut self, count: Reg, start: Reg, end: Reg) {
        let n = self.b.use_var(self.regs[count as usize]);
        let one = self.b.ins().icmp_imm_s(IntCC::Equal, n, 1);
        let [ok, bad] = self.blocks();
        self.b.set_cold_block(bad);
        self.b.ins().brif(one, ok, &[], bad, &[]);
        self.b.switch_to_block(bad);
        let at = self.saved_value_start(start);
        let matched = self.b.ins().band_imm_s(n, i64::from(u32::MAX));
        let (st, class, tag) = (
            self.iconst(fail::VIOLATION),
            self.iconst(CLASS_VIOLATION as i64),
            self.iconst(TAG_ONE_OF as i64),
        );
        self.jump_fail([st, class, tag, matched, at]);
        self.b.switch_to_block(ok);
        let e = self.b.use_var(self.regs[end as usize]);
        self.set_pos(e);
    }
}

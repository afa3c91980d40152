//! Control ops: `Dispatch` (a jump table on the first byte), `Discriminate` (the lookahead
//! helper, then a jump table), `Call` and `Try` (a callee's violation status restores the
//! cursor, depth and path and branches: nothing unwinds across frames), and `OneOfEnd`.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};

use super::Lower;
use crate::interp::kind_slot;
use crate::ir::{ErrorKind, FailKind, FuncId, Label, Reg};
use crate::native::ctx::off;
use crate::native::fail::{self, CLASS_VIOLATION, TAG_ONE_OF};
use crate::native::helpers::Callee;
use cranelift_module::Module;

impl Lower<'_> {
    /// `Dispatch`: whitespace, then a jump table on the first byte.
    pub(super) fn dispatch(&mut self, targets: &[Label; 6]) -> bool {
        self.ws();
        let p = self.pos();
        let (peek, none) = (self.b.create_block(), self.b.create_block());
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, p, self.len);
        self.b.ins().brif(more, peek, &[], none, &[]);
        self.b.switch_to_block(none);
        self.b.set_cold_block(none);
        self.fail_with(FailKind::Syntax(ErrorKind::ExpectedValue), p);
        self.b.switch_to_block(peek);
        let byte = self.byte_at(p);
        let slots: Vec<Block> = targets.iter().map(|&t| self.label(t)).collect();
        let table: Vec<Block> = (0..=255u8)
            .map(|b| kind_slot(b).map_or(none, |s| slots[s]))
            .collect();
        self.br_table(byte, &table, none);
        false
    }

    /// `Discriminate`: the interpreter's lookahead (helper), then a jump table.
    pub(super) fn discriminate(
        &mut self,
        pc: usize,
        targets: &[Label],
        unmatched: Label,
        absent: Label,
    ) -> bool {
        let p = self.pos();
        let (f, at) = (self.iconst(i64::from(self.index)), self.iconst(pc as i64));
        let ctx = self.ctx;
        let i = self.call_checked(Callee::ValueOp, &[ctx, p, f, at]);
        let i = self.b.ins().ireduce(I32, i);
        let mut blocks: Vec<Block> = targets.iter().map(|&t| self.label(t)).collect();
        let absent = self.label(absent);
        blocks.push(self.label(unmatched));
        blocks.push(absent);
        self.br_table(i, &blocks, absent);
        false
    }

    /// Calls function `f` at the cursor: `(status, pos)`.
    fn call_codec(&mut self, f: FuncId) -> (Value, Value) {
        let r = match self.func_refs[f as usize] {
            Some(r) => r,
            None => {
                let id = self.decls.funcs[f as usize];
                let r = self.module.declare_func_in_func(id, self.b.func);
                self.func_refs[f as usize] = Some(r);
                r
            }
        };
        let (ctx, p) = (self.ctx, self.pos());
        let call = self.b.ins().call(r, &[ctx, p]);
        let res = self.b.inst_results(call);
        (res[0], res[1])
    }

    /// `Call`: any error status returns at once.
    pub(super) fn call_func(&mut self, f: FuncId) {
        let (status, p) = self.call_codec(f);
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
    }

    /// `Try`: a violation restores cursor, depth and path and jumps to `on_fail`; other
    /// errors return.
    pub(super) fn try_func(&mut self, f: FuncId, on_fail: Label) {
        let depth = self.load_ctx(off::DEPTH);
        let path = self.load_ctx(off::PATH_LEN);
        let saved = self.pos();
        let (status, p) = self.call_codec(f);
        let (ok, failed, caught) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(status, failed, &[], ok, &[]);
        self.b.switch_to_block(failed);
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
        self.store_ctx(path, off::PATH_LEN);
        self.set_pos(saved);
        let on_fail = self.label(on_fail);
        self.b.ins().jump(on_fail, &[]);
        self.b.switch_to_block(ok);
        self.set_pos(p);
    }

    /// `OneOfEnd`: one match moves the cursor to its end; otherwise `OneOf { matched }`
    /// at the value's start.
    pub(super) fn one_of_end(&mut self, count: Reg, start: Reg, end: Reg) {
        let n = self.b.use_var(self.regs[count as usize]);
        let one = self.b.ins().icmp_imm_s(IntCC::Equal, n, 1);
        let (ok, bad) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(one, ok, &[], bad, &[]);
        self.b.switch_to_block(bad);
        let at = self.b.use_var(self.regs[start as usize]);
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

//! `Number` ops, their checks run by kernels called from generated code: validate calls
//! the bounds kernel (`jitson_number_within`, which reads the value only when the token's
//! integer part does not decide), decode calls the number kernel (`jitson_parse_number`, or
//! `jitson_parse_integer` under an `integer` check), compares the value with the bounds
//! inline and stores it. Whatever they do not decide —
//! a kernel error, a failed check, a value not compared exactly (`-0` in decode, an integer
//! beyond 2^53 against a bound, an infinite float, a big integer, a fraction under an
//! integer check) — runs the number helper from the token's start, which reads and checks
//! it with the interpreter's code and makes the exact error. Checks with a `multipleOf`
//! predicate, or a bound that is not exactly an `f64`, always take the helper.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F64, I64};
use cranelift_codegen::ir::{
    Block, BlockArg, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Value,
};
use jitson_kernels::ffi::{bounds_flag, number_kind};
use jitson_kernels::number_bounds::F64Bounds;

use super::Lower;
use crate::ir::Op;
use crate::native::helpers::Callee;
use crate::number::{EXACT_INT, f64_bounds};

impl Lower<'_> {
    /// `Number`: whitespace inline, then the number kernel and the checks inline (decode
    /// stores the value), the helper for the rest (see the module docs).
    pub(super) fn number(&mut self, pc: usize) {
        let dest = self.dest(pc);
        self.ws_value();
        let Op::Number(check) = self.func.ops[pc] else {
            unreachable!("a Number op")
        };
        let Some(check) = f64_bounds(&self.program.num_checks[check as usize]) else {
            self.number_helper(pc, dest);
            return;
        };
        let p = self.pos();
        let [slow, cont] = [(); 2].map(|_| self.b.create_block());
        match dest {
            // Validate: the bounds kernel, which reads the value only when it must.
            None => {
                let end = self.number_within(p, &check, slow);
                self.set_pos(end);
            }
            Some(addr) => {
                let (kind, bits, end) = self.parse_number(p, check.integer, slow);
                self.number_checks(&check, (kind, bits), slow);
                // The slot: the tag byte (the kernel's kind: the layout's `NUM_*` tags)
                // and zeros in the first word, the value's bits in the second.
                self.put(kind, addr, 0);
                self.put(bits, addr, 8);
                self.set_pos(end);
            }
        }
        self.b.ins().jump(cont, &[]);

        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        self.set_pos(p);
        self.number_helper(pc, dest);
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// The number helper for op `pc` at the cursor (decode's writes the slot at `dest`).
    fn number_helper(&mut self, pc: usize, dest: Option<Value>) {
        match dest {
            Some(addr) => self.op_helper_into(Callee::DecodeNumber, pc, addr),
            None => self.op_helper(Callee::Number, pc),
        }
    }

    /// Calls the bounds kernel at `p` with `check`: the index past the token when it
    /// certainly passes; anything else (an error, a failure, undecided) jumps to `slow`.
    fn number_within(&mut self, p: Value, check: &F64Bounds, slow: Block) -> Value {
        let flags = [
            (check.integer, bounds_flag::INTEGER),
            (check.min_exclusive, bounds_flag::MIN_EXCLUSIVE),
            (check.max_exclusive, bounds_flag::MAX_EXCLUSIVE),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .fold(0, |acc, (_, bit)| acc | bit);
        let (input, len) = (self.input(), self.len());
        let min = self.iconst(check.min.to_bits() as i64);
        let max = self.iconst(check.max.to_bits() as i64);
        let flags = self.iconst(flags as i64);
        let (status, end) = self.call(Callee::NumberWithin, &[input, len, p, min, max, flags]);
        let [decided, within] = [(); 2].map(|_| self.b.create_block());
        self.b.ins().brif(status, slow, &[], decided, &[]);
        self.b.switch_to_block(decided);
        self.b.ins().brif(end, within, &[], slow, &[]);
        self.b.switch_to_block(within);
        end
    }

    /// Calls the number kernel at `p` (its integer-first entry when the check wants an
    /// `integer`): `(kind, bits, end)` (see `number_kind`); a kernel error jumps to `slow`.
    fn parse_number(&mut self, p: Value, integer: bool, slow: Block) -> (Value, Value, Value) {
        let slot = match self.number_out {
            Some(slot) => slot,
            None => {
                let slot = self.b.create_sized_stack_slot(StackSlotData::new(
                    StackSlotKind::ExplicitSlot,
                    16,
                    3,
                ));
                self.number_out = Some(slot);
                slot
            }
        };
        let kind_out = self.b.ins().stack_addr(I64, slot, 0);
        let end_out = self.b.ins().stack_addr(I64, slot, 8);
        let (input, len) = (self.input(), self.len());
        let callee = match integer {
            true => Callee::ParseInteger,
            false => Callee::ParseNumber,
        };
        let (status, bits) = self.call(callee, &[input, len, p, kind_out, end_out]);
        let read = self.b.create_block();
        self.b.ins().brif(status, slow, &[], read, &[]);
        self.b.switch_to_block(read);
        let kind = self.b.ins().stack_load(I64, I64, slot, 0);
        let end = self.b.ins().stack_load(I64, I64, slot, 8);
        (kind, bits, end)
    }

    /// Jumps to `slow` unless the number `(kind, bits)` passes `check` as the interpreter
    /// reads it; continues in a new block when it does. The value is stored as the kernel
    /// read it, so `-0` (the float -0.0 to the interpreter) takes the helper.
    fn number_checks(&mut self, check: &F64Bounds, (kind, bits): (Value, Value), slow: Block) {
        // Only finite bounds are compared (an absent bound is infinite).
        let bounded = check.min.is_finite() || check.max.is_finite();
        let [int, float, pass] = [(); 3].map(|_| self.b.create_block());
        // The value as an `f64`, for the bounds.
        let value = bounded.then(|| self.b.append_block_param(pass, F64));
        let is_float = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, kind, number_kind::F64 as i64);
        self.b.ins().brif(is_float, float, &[], int, &[]);

        // A fraction or an exponent: not an integer to the kernel (the helper decides
        // `1.0`); an infinite value is out of range.
        self.b.switch_to_block(float);
        if check.integer {
            self.b.ins().jump(slow, &[]);
        } else {
            let f = self.b.ins().bitcast(F64, MemFlagsData::new(), bits);
            let magnitude = self.b.ins().fabs(f);
            let inf = self.b.ins().f64const(f64::INFINITY);
            let finite = self.b.ins().fcmp(FloatCC::LessThan, magnitude, inf);
            let args: &[BlockArg] = if bounded { &[BlockArg::Value(f)] } else { &[] };
            self.b.ins().brif(finite, pass, args, slow, &[]);
        }

        // An integer token: `U64`, `I64` (0 only for `-0`), or a big integer.
        self.b.switch_to_block(int);
        let big = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, kind, number_kind::BIG_INT as i64);
        let is_i64 = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, kind, number_kind::I64 as i64);
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, bits, 0);
        let minus_zero = self.b.ins().band(is_i64, zero);
        let mut refuse = self.b.ins().bor(big, minus_zero);
        let args = if bounded {
            // Compared as an `f64`, which is exact up to 2^53 in magnitude.
            let too_big =
                self.b
                    .ins()
                    .icmp_imm_s(IntCC::UnsignedGreaterThan, bits, EXACT_INT as i64);
            let too_small =
                self.b
                    .ins()
                    .icmp_imm_s(IntCC::SignedLessThan, bits, -(EXACT_INT as i64));
            let inexact = self.b.ins().select(is_i64, too_small, too_big);
            refuse = self.b.ins().bor(refuse, inexact);
            vec![BlockArg::Value(self.b.ins().fcvt_from_sint(F64, bits))]
        } else {
            Vec::new()
        };
        self.b.ins().brif(refuse, slow, &[], pass, &args);

        self.b.switch_to_block(pass);
        let Some(value) = value else { return };
        for (bound, exclusive, is_min) in [
            (check.min, check.min_exclusive, true),
            (check.max, check.max_exclusive, false),
        ] {
            if !bound.is_finite() {
                continue;
            }
            let cc = match (is_min, exclusive) {
                (true, false) => FloatCC::GreaterThanOrEqual,
                (true, true) => FloatCC::GreaterThan,
                (false, false) => FloatCC::LessThanOrEqual,
                (false, true) => FloatCC::LessThan,
            };
            let limit = self.b.ins().f64const(bound);
            let ok = self.b.ins().fcmp(cc, value, limit);
            let next = self.b.create_block();
            self.b.ins().brif(ok, next, &[], slow, &[]);
            self.b.switch_to_block(next);
        }
    }
}

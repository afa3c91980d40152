//! Lowering of one [`Func`] to one Cranelift function
//! `fn(ctx, pos) -> (status, pos)` (SystemV, see [`super::fail`] for the statuses).
//!
//! Each op index that is a jump target starts a block; the cursor, the four registers, the
//! container count and the matched field are frontend variables; the presence bitmap is a
//! stack slot; the input's address and length are loaded from the context once per op, at
//! the top of the op's first block (live across the function they would crowd the cursor
//! out of the callee-saved registers). Whitespace is skipped inline (16-byte `i8x16`
//! windows, no call); where a token is expected after it (a comma, colon, bracket or
//! quote), the skip's load of the next byte tests the token too. Every other byte loop is
//! a call (short strings excepted, plain or checked by a shape of ASCII classes: one or
//! two inline `i8x16` windows): into a kernel entry point, or into [`super::helpers`] for
//! the checks that are not inlined (numbers, checked strings, enumerations, raw
//! predicates, skips, discriminators, and the exact error of a failed literal or string
//! fast path), which run the interpreter's own code (clean values take the helpers' fast
//! paths, which pass or fail them with the interpreter's checks). Errors jump to one block
//! per function that writes the context's error record and returns.

mod containers;
mod control;
mod decode;
mod flow;
mod keys;
mod number;
mod values;

use std::collections::HashMap;

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I8X16, I32, I64};
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, ConstantData, FuncRef, Function, InstBuilder, JumpTableData,
    MemFlagsData, Signature, StackSlot, StackSlotData, StackSlotKind, Value,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Linkage, Module, ModuleError};

use super::ctx::off;
use super::error::CompileError;
use super::fail::{self, CLASS_KERNEL, CLASS_SYNTAX};
use super::helpers::{Callee, NO_FIELD, callee};
use crate::ir::{ErrorKind, FailKind, Func, Label, NO_DST, Op, Program, REGS};

/// Which half of a program a module holds: the validate functions (compiled first, what
/// a codec needs at once), or the decode functions (compiled on demand, in their own
/// module, calling the validate half's functions by address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Half {
    Validate,
    Decode,
}

/// The module-level names of one half of a program: its functions and the callees.
pub(crate) struct Decls {
    /// One per [`Program::funcs`] entry: the validate functions (defined in the validate
    /// half, imports by address in the decode half).
    pub funcs: Vec<FuncId>,
    /// One per [`Program::funcs`] entry: the decode function, for those decode runs with
    /// a destination ([`decoded_funcs`]); all `None` in the validate half.
    pub dfuncs: Vec<Option<FuncId>>,
    callees: Vec<FuncId>,
}

/// The signature of generated functions: `(ctx, pos) -> (status, pos)` to validate,
/// `(ctx, pos, dst) -> (status, pos)` to decode.
fn codec_signature(module: &JITModule, decode: bool) -> Signature {
    let mut sig = module.make_signature();
    sig.params.extend([AbiParam::new(I64), AbiParam::new(I64)]);
    if decode {
        sig.params.push(AbiParam::new(I64));
    }
    sig.returns.extend([AbiParam::new(I64), AbiParam::new(I64)]);
    sig
}

/// Which functions decode runs with a destination: the entry, and every callee of a
/// `Call` or `Try` that has one (the others, the checks of `allOf` parts and `not`, run
/// their validate function: a frame without a destination writes nothing). None for a
/// program without a layout.
pub(crate) fn decoded_funcs(program: &Program) -> Vec<bool> {
    let mut seen = vec![false; program.funcs.len()];
    if !program.layout.is_present() {
        return seen;
    }
    let mut todo = vec![program.entry];
    seen[program.entry as usize] = true;
    while let Some(f) = todo.pop() {
        let dsts = &program.layout.funcs[f as usize].dst;
        for (op, &dst) in program.funcs[f as usize].ops.iter().zip(dsts) {
            if let Op::Call(g) | Op::Try { func: g, .. } = *op
                && dst != NO_DST
                && !seen[g as usize]
            {
                seen[g as usize] = true;
                todo.push(g);
            }
        }
    }
    seen
}

/// The name of validate function `i`: defined by the validate half, imported (by address)
/// by the decode half.
pub(crate) fn validate_name(i: usize) -> String {
    format!("f{i}")
}

/// Declares one half of the program: its functions (`Preemptible`: absolute calls, never
/// rel32), the validate functions the decode half calls (imports), and every callee.
pub(crate) fn declare(
    module: &mut JITModule,
    program: &Program,
    half: Half,
) -> Result<Decls, CompileError> {
    let sig = codec_signature(module, false);
    let linkage = match half {
        Half::Validate => Linkage::Preemptible,
        Half::Decode => Linkage::Import,
    };
    let funcs = (0..program.funcs.len())
        .map(|i| {
            module
                .declare_function(&validate_name(i), linkage, &sig)
                .map_err(declaration_error)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let dsig = codec_signature(module, true);
    let mut dfuncs = vec![None; program.funcs.len()];
    if half == Half::Decode {
        for (i, decoded) in decoded_funcs(program).into_iter().enumerate() {
            if decoded {
                let id = module
                    .declare_function(&format!("d{i}"), Linkage::Preemptible, &dsig)
                    .map_err(declaration_error)?;
                dfuncs[i] = Some(id);
            }
        }
    }
    let callees = Callee::ALL
        .iter()
        .map(|&c| {
            let h = callee(c);
            let mut sig = module.make_signature();
            sig.params.extend((0..h.params).map(|_| AbiParam::new(I64)));
            sig.returns.extend([AbiParam::new(I64), AbiParam::new(I64)]);
            module
                .declare_function(h.name, Linkage::Import, &sig)
                .map_err(declaration_error)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Decls {
        funcs,
        dfuncs,
        callees,
    })
}

/// The error for a failed declaration (a bug: names are unique).
fn declaration_error(e: ModuleError) -> CompileError {
    CompileError::Codegen {
        function: "(declarations)".into(),
        message: e.to_string(),
    }
}

/// Builds the Cranelift IR of function `index` into `func`: its decode version when
/// `decode`, else its validate version.
pub(crate) fn lower(
    module: &mut JITModule,
    decls: &Decls,
    program: &Program,
    (index, decode): (usize, bool),
    func: &mut Function,
    fbc: &mut FunctionBuilderContext,
) {
    func.signature = codec_signature(module, decode);
    let mut l = Lower::new(module, decls, program, (index, decode), func, fbc);
    l.body();
    l.b.seal_all_blocks();
    let config = l.module.target_config();
    l.b.finalize(config);
}

/// Which test [`Lower::ws_branch_byte`] makes first on the byte at the cursor.
#[derive(Clone, Copy)]
enum First {
    /// The byte expected: where it usually follows with no whitespace before it (`,`
    /// after a value, `:` after a key).
    Token,
    /// Whitespace: where a newline and indentation, or a space, usually come first in
    /// pretty-printed input.
    Whitespace,
}

/// The bytes one `i8x16` load reads: the window of the inline whitespace skip, the short
/// string scan and the digit run.
const WINDOW: u32 = 16;

/// A window of [`WINDOW`] input bytes, loaded by [`Lower::window`].
struct Window {
    /// The index past the window.
    next: Value,
    /// The input's length (loaded for the bounds check).
    len: Value,
    /// The address of the window's first byte.
    addr: Value,
    /// The bytes, as an `i8x16`.
    bytes: Value,
}

/// Trusted flags for the context and stack slots.
fn trusted() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// Flags for input loads: in bounds (checked before), maybe unaligned.
fn input_flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// The state of lowering one function.
struct Lower<'a> {
    b: FunctionBuilder<'a>,
    module: &'a mut JITModule,
    decls: &'a Decls,
    program: &'a Program,
    index: u32,
    func: &'a Func,
    ctx: Value,
    pos: Variable,
    regs: [Variable; REGS],
    count: Variable,
    field: Variable,
    bits: StackSlot,
    flags: StackSlot,
    labels: Vec<Option<Block>>,
    fail: Block,
    exit: Block,
    /// The shared cold error blocks made so far (built after the body).
    colds: Vec<(Cold, Block)>,
    callee_refs: Vec<Option<FuncRef>>,
    func_refs: Vec<Option<FuncRef>>,
    dfunc_refs: Vec<Option<FuncRef>>,
    /// Decode state (see [`decode`]); `None` when lowering validate.
    d: Option<decode::State<'a>>,
    /// Per op: whether the cursor arrives on a token ([`flow::on_token`]).
    on_token: Vec<bool>,
    /// Set at each op's start from `on_token`; the op's first whitespace skip (always its
    /// first cursor step) takes it and is left out when it was set.
    skipped: bool,
    /// The input's address and length for the op being lowered (see [`InputCache`]).
    io: InputCache,
    /// Per `Key` op followed by the field switch and field it compares inline: the block
    /// that takes the name as matched, `named(body)` (see [`keys`]).
    key_named: HashMap<(usize, u32), Block>,
    /// Per `Key` op asked about: which ops it dominates ([`flow::dominated_by`]).
    dominated_by_key: HashMap<usize, Vec<bool>>,
}

/// The input's address and length, loaded at most once per op: at the top of the block
/// the op starts in, which dominates every block the op makes, so each use in the op
/// shares one load. Ops are short, so the values do not stay live across the function
/// (where they would crowd the cursor out of the callee-saved registers).
#[derive(Default)]
struct InputCache {
    /// The block the current op starts in; `None` outside ops (the shared cold blocks
    /// built after the body load again at each use).
    start: Option<Block>,
    input: Option<Value>,
    len: Option<Value>,
}

impl<'a> Lower<'a> {
    fn new(
        module: &'a mut JITModule,
        decls: &'a Decls,
        program: &'a Program,
        (index, decode): (usize, bool),
        func: &'a mut Function,
        fbc: &'a mut FunctionBuilderContext,
    ) -> Lower<'a> {
        let f = &program.funcs[index];
        let mut b = FunctionBuilder::new(func, fbc);
        let words = bitmap_words(program, f).max(1);
        let bits = b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            (words * 8) as u32,
            3,
        ));
        let flags =
            b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
        let mut labels = vec![None; f.ops.len()];
        labels[0] = Some(b.create_block());
        for op in &f.ops {
            for l in op.labels() {
                if labels[l as usize].is_none() {
                    labels[l as usize] = Some(b.create_block());
                }
            }
        }
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let params = b.block_params(entry).to_vec();
        let (ctx, pos0) = (params[0], params[1]);
        let pos = b.declare_var(I64);
        let regs = std::array::from_fn(|_| b.declare_var(I64));
        let count = b.declare_var(I64);
        let field = b.declare_var(I64);
        let zero = b.ins().iconst(I64, 0);
        b.def_var(pos, pos0);
        for r in regs {
            b.def_var(r, zero);
        }
        b.def_var(count, zero);
        let none = b.ins().iconst(I64, NO_FIELD as i64);
        b.def_var(field, none);
        let fail = b.create_block();
        let exit = b.create_block();
        b.set_cold_block(fail);
        b.set_cold_block(exit);
        let d = decode.then(|| decode::State::new(&mut b, program, index, params[2]));
        let mut l = Lower {
            b,
            module,
            decls,
            program,
            index: index as u32,
            func: f,
            ctx,
            pos,
            regs,
            count,
            field,
            bits,
            flags,
            labels,
            fail,
            exit,
            colds: Vec::new(),
            callee_refs: vec![None; Callee::ALL.len()],
            func_refs: vec![None; program.funcs.len()],
            dfunc_refs: vec![None; program.funcs.len()],
            d,
            on_token: flow::on_token(f),
            skipped: false,
            io: InputCache::default(),
            key_named: HashMap::new(),
            dominated_by_key: HashMap::new(),
        };
        l.stack_check();
        l
    }

    /// Bails out (status [`fail::BAIL`]) when the stack is below the context's limit.
    fn stack_check(&mut self) {
        let sp = self.b.ins().get_stack_pointer(I64);
        let limit = self.load_ctx(off::STACK_LIMIT);
        let low = self.b.ins().icmp(IntCC::UnsignedLessThan, sp, limit);
        let bail = self.b.create_block();
        let go = self.label(0);
        self.b.set_cold_block(bail);
        self.b.ins().brif(low, bail, &[], go, &[]);
        self.b.switch_to_block(bail);
        let status = self.b.ins().iconst(I64, fail::BAIL);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().return_(&[status, zero]);
    }

    /// The whole body: every op, then the shared error and exit blocks.
    fn body(&mut self) {
        let mut open = false;
        for pc in 0..self.func.ops.len() {
            match self.labels[pc] {
                Some(block) => {
                    if open {
                        self.b.ins().jump(block, &[]);
                    }
                    self.b.switch_to_block(block);
                }
                None if !open => {
                    let dead = self.b.create_block();
                    self.b.switch_to_block(dead);
                }
                None => {}
            }
            self.skipped = self.on_token[pc];
            // The op's first block must be in the layout for a load to go at its top.
            self.b.ensure_inserted_block();
            self.io = InputCache {
                start: self.b.current_block(),
                ..InputCache::default()
            };
            open = self.op(pc);
        }
        self.io = InputCache::default();
        if open {
            // `Program::verify` guarantees a final jump or return; stay well-formed anyway.
            self.ret();
        }
        self.exit_block();
        self.fail_block();
        self.cold_blocks();
    }

    /// Lowers op `pc`; false when it ends the block (no fallthrough).
    fn op(&mut self, pc: usize) -> bool {
        let func = self.func;
        match &func.ops[pc] {
            Op::Null => self.literal(pc, b"null"),
            Op::Bool => self.boolean(pc),
            Op::String(check) => self.string(pc, *check),
            Op::Number(_) => self.number(pc),
            Op::StrEnum(id) => self.str_enum(pc, *id),
            Op::RawCheck { .. } | Op::SkipValue => self.raw_value_op(pc),
            Op::Fail(v) => self.fail_op(*v),
            // A union branch's tag: only decode writes it.
            Op::Tag(v) => self.tag(pc, *v),
            Op::Eof => self.eof(),
            Op::Dispatch(targets) => return self.dispatch(pc, targets),
            Op::Discriminate {
                disc,
                targets,
                unmatched,
                absent,
                missing,
            } => {
                let labels = [*unmatched, *absent, *missing];
                return self.discriminate(pc, *disc, targets, labels);
            }
            Op::Call(f) => self.call_func(pc, *f),
            Op::Try { func, on_fail } => self.try_func(pc, *func, *on_fail),
            Op::Jump(to) => {
                self.jump(pc, *to);
                return false;
            }
            Op::Return => {
                self.ret();
                return false;
            }
            Op::SavePos(r) => {
                let p = self.pos();
                self.b.def_var(self.regs[*r as usize], p);
            }
            Op::RestorePos(r) => {
                let v = self.b.use_var(self.regs[*r as usize]);
                self.b.def_var(self.pos, v);
            }
            Op::SetReg(r, v) => {
                let v = self.b.ins().iconst(I64, i64::from(*v));
                self.b.def_var(self.regs[*r as usize], v);
            }
            Op::IncReg(r) => {
                let var = self.regs[*r as usize];
                let v = self.b.use_var(var);
                let v = self.b.ins().iadd_imm_s(v, 1);
                self.b.def_var(var, v);
            }
            Op::OneOfEnd { count, start, end } => self.one_of_end(*count, *start, *end),
            Op::ContainsEnd {
                count,
                start,
                min,
                max,
            } => self.contains_end(*count, *start, *min, *max),
            Op::ArrBegin { empty } => self.arr_begin(*empty),
            Op::ArrNext { next } => self.arr_next(*next),
            Op::ArrEnd { min, max } => self.arr_end(*min, *max),
            Op::ObjBegin { empty, table } => self.obj_begin(*empty, *table),
            Op::Key(table) => self.key(pc, *table),
            Op::SwitchField(targets) => return self.switch(self.field, targets),
            Op::KeyMatches {
                table,
                pattern,
                miss,
            } => self.key_matches(*table, *pattern, *miss),
            Op::ObjNext { next } => self.obj_next(*next),
            Op::ObjEnd(table) => self.obj_end(*table),
        }
        true
    }

    fn label(&mut self, l: Label) -> Block {
        self.labels[l as usize].expect("every jump target has a block")
    }

    fn pos(&mut self) -> Value {
        self.b.use_var(self.pos)
    }

    fn set_pos(&mut self, v: Value) {
        self.b.def_var(self.pos, v);
    }

    fn iconst(&mut self, v: i64) -> Value {
        self.b.ins().iconst(I64, v)
    }

    /// The input's address, loaded from the context once per op ([`InputCache`]).
    fn input(&mut self) -> Value {
        self.op_word(off::INPUT, |io| &mut io.input)
    }

    /// The input's length, loaded from the context as [`Lower::input`].
    fn len(&mut self) -> Value {
        self.op_word(off::LEN, |io| &mut io.len)
    }

    /// The context word at `offset`, kept in `slot` of the [`InputCache`]: loaded at the
    /// top of the current op's first block on first use (outside ops, here at each use).
    fn op_word(&mut self, offset: i32, slot: fn(&mut InputCache) -> &mut Option<Value>) -> Value {
        if let Some(v) = *slot(&mut self.io) {
            return v;
        }
        let Some(block) = self.io.start else {
            return self.load_ctx(offset);
        };
        let ctx = self.ctx;
        let mut cursor = FuncCursor::new(self.b.func).at_first_insertion_point(block);
        let v = cursor.ins().load(I64, trusted(), ctx, offset);
        *slot(&mut self.io) = Some(v);
        v
    }

    fn load_ctx(&mut self, offset: i32) -> Value {
        self.b.ins().load(I64, trusted(), self.ctx, offset)
    }

    fn store_ctx(&mut self, v: Value, offset: i32) {
        self.b.ins().store(trusted(), v, self.ctx, offset);
    }

    /// The byte at `p` (the caller checked `p < len`), as `I32`.
    fn byte_at(&mut self, p: Value) -> Value {
        let input = self.input();
        let addr = self.b.ins().iadd(input, p);
        self.b.ins().uload8(I32, input_flags(), addr, 0)
    }

    /// Returns `(OK, pos)`.
    fn ret(&mut self) {
        let ok = self.iconst(fail::OK);
        let p = self.pos();
        self.b.ins().return_(&[ok, p]);
    }

    /// Calls a helper or kernel: `(status, value)`.
    fn call(&mut self, c: Callee, args: &[Value]) -> (Value, Value) {
        let i = Callee::ALL.iter().position(|&x| x == c).expect("a callee");
        let r = match self.callee_refs[i] {
            Some(r) => r,
            None => {
                let r = self
                    .module
                    .declare_func_in_func(self.decls.callees[i], self.b.func);
                self.callee_refs[i] = Some(r);
                r
            }
        };
        let call = self.b.ins().call(r, args);
        let res = self.b.inst_results(call);
        (res[0], res[1])
    }

    /// Calls a helper; on a non-zero status returns it (the helper recorded the error).
    /// Continues in a new block with the value.
    fn call_checked(&mut self, c: Callee, args: &[Value]) -> Value {
        let (status, value) = self.call(c, args);
        let cont = self.b.create_block();
        self.b.ins().brif(
            status,
            self.exit,
            &[BlockArg::Value(status), BlockArg::Value(value)],
            cont,
            &[],
        );
        self.b.switch_to_block(cont);
        value
    }

    /// Calls a kernel; a non-zero status is a kernel error at `value + base`.
    fn call_kernel(&mut self, c: Callee, args: &[Value], base: Option<Value>) -> Value {
        let (status, value) = self.call(c, args);
        let cont = self.b.create_block();
        let kernel = self.cold(Cold::Kernel);
        match base {
            None => {
                let args = [BlockArg::Value(status), BlockArg::Value(value)];
                self.b.ins().brif(status, kernel, &args, cont, &[]);
            }
            Some(base) => {
                let err = self.b.create_block();
                self.b.set_cold_block(err);
                self.b.ins().brif(status, err, &[], cont, &[]);
                self.b.switch_to_block(err);
                let offset = self.b.ins().iadd(value, base);
                let args = [BlockArg::Value(status), BlockArg::Value(offset)];
                self.b.ins().jump(kernel, &args);
            }
        }
        self.b.switch_to_block(cont);
        value
    }

    /// Runs op `pc` on the interpreter (helper) at the cursor and takes its cursor.
    fn value_op(&mut self, pc: usize) {
        self.op_helper(Callee::ValueOp, pc);
    }

    /// Calls `helper(ctx, pos, func, pc)` for op `pc` and takes its cursor.
    fn op_helper(&mut self, helper: Callee, pc: usize) {
        let p = self.pos();
        let (f, pc) = (self.iconst(i64::from(self.index)), self.iconst(pc as i64));
        let ctx = self.ctx;
        let v = self.call_checked(helper, &[ctx, p, f, pc]);
        self.set_pos(v);
    }

    fn jump_fail(&mut self, args: [Value; 5]) {
        let args = args.map(BlockArg::Value);
        self.b.ins().jump(self.fail, &args);
    }

    /// Fails with a constant kind at `offset` (ends the block).
    fn fail_with(&mut self, kind: FailKind, offset: Value) {
        let c = fail::encode(kind);
        let block = self.cold(Cold::Fail {
            status: fail::status(kind),
            class: c.class,
            a: c.a,
            b: c.b,
        });
        self.b.ins().jump(block, &[BlockArg::Value(offset)]);
    }

    /// The error for a missing expected byte at `p`: `kind` there, or `UnexpectedEnd` at
    /// the end of the input (ends the block).
    fn expected(&mut self, kind: ErrorKind, p: Value) {
        let block = self.cold(Cold::Expected(kind.code()));
        self.b.ins().jump(block, &[BlockArg::Value(p)]);
    }

    /// The function's shared block for `cold` (made on first use, built after the body).
    fn cold(&mut self, cold: Cold) -> Block {
        if let Some(&(_, block)) = self.colds.iter().find(|(c, _)| *c == cold) {
            return block;
        }
        let block = self.b.create_block();
        self.b.set_cold_block(block);
        let params = if cold == Cold::Kernel { 2 } else { 1 };
        for _ in 0..params {
            self.b.append_block_param(block, I64);
        }
        self.colds.push((cold, block));
        block
    }

    /// Builds the shared cold blocks: each records its error through the fail block.
    fn cold_blocks(&mut self) {
        for (cold, block) in std::mem::take(&mut self.colds) {
            self.b.switch_to_block(block);
            let params = self.b.block_params(block).to_vec();
            match cold {
                Cold::Fail {
                    status,
                    class,
                    a,
                    b,
                } => {
                    let st = self.iconst(status);
                    let class = self.iconst(class as i64);
                    let a = self.iconst(a as i64);
                    let b = self.iconst(b as i64);
                    self.jump_fail([st, class, a, b, params[0]]);
                }
                Cold::Expected(code) => {
                    let p = params[0];
                    let len = self.len();
                    let more = self.b.ins().icmp(IntCC::UnsignedLessThan, p, len);
                    let k = self.iconst(i64::from(code));
                    let end = self.iconst(i64::from(ErrorKind::UnexpectedEnd.code()));
                    let a = self.b.ins().select(more, k, end);
                    let offset = self.b.ins().select(more, p, len);
                    let st = self.iconst(fail::FATAL);
                    let class = self.iconst(CLASS_SYNTAX as i64);
                    let zero = self.iconst(0);
                    self.jump_fail([st, class, a, zero, offset]);
                }
                Cold::Kernel => {
                    let (st, class, zero) = (
                        self.iconst(fail::FATAL),
                        self.iconst(CLASS_KERNEL as i64),
                        self.iconst(0),
                    );
                    self.jump_fail([st, class, params[0], zero, params[1]]);
                }
            }
        }
    }

    /// Skips whitespace at the cursor: nothing when the cursor is on a byte above space
    /// (or at the end), else the inline run skip. Between tokens, where a run of whitespace
    /// is usually a newline and indentation.
    fn ws(&mut self) {
        self.skip_ws(false);
    }

    /// [`Lower::ws`] before a value, where a single space (after a colon) is common: one
    /// space before a non-space byte is skipped inline too.
    fn ws_value(&mut self) {
        self.skip_ws(true);
    }

    fn skip_ws(&mut self, single_space: bool) {
        if std::mem::take(&mut self.skipped) {
            return;
        }
        let p = self.pos();
        let [done, spaces] = self.blocks();
        let byte = self.byte_or(p, done);
        self.branch_if_ws(byte, spaces, done);
        self.b.switch_to_block(spaces);
        self.whitespace_at(p, byte, single_space, done, done);
        self.b.switch_to_block(done);
    }

    /// [`Lower::skip_ws`] (as [`Lower::ws_value`] when `single_space`), then
    /// [`Lower::branch_byte`] on `byte` at the cursor, with one bounds check and one load
    /// of the byte when no whitespace comes first (the skip's own, tested against `byte`
    /// too; `first` says which test comes first), and after a skip the load of the byte
    /// it stopped at with no bounds check (a skip that reaches the input's end goes to
    /// `no`). `yes` and `no` start with the cursor on the byte tested (`no` also at the
    /// input's end).
    fn ws_branch_byte(
        &mut self,
        single_space: bool,
        first: First,
        byte: u8,
        yes: Block,
        no: Block,
    ) {
        let p = self.pos();
        if std::mem::take(&mut self.skipped) {
            self.branch_byte(p, byte, yes, no);
            return;
        }
        let [other, spaces, inside] = self.blocks();
        let v = self.byte_or(p, no);
        match first {
            First::Token => {
                self.branch_if_byte(v, byte, yes, other);
                self.b.switch_to_block(other);
                self.branch_if_ws(v, spaces, no);
            }
            First::Whitespace => {
                self.branch_if_ws(v, spaces, other);
                self.b.switch_to_block(other);
                self.branch_if_byte(v, byte, yes, no);
            }
        }
        self.b.switch_to_block(spaces);
        self.whitespace_at(p, v, single_space, inside, no);
        self.b.switch_to_block(inside);
        let q = self.pos();
        let w = self.byte_at(q);
        self.branch_if_byte(w, byte, yes, no);
    }

    /// With `byte` (at `p`, in the input) at or below space: skips the whitespace there
    /// (the single space inline when `single_space`, else or then the run skip) and jumps,
    /// with the cursor after it, to `inside` when a byte of the input follows, else (at
    /// the input's end) to `end`.
    fn whitespace_at(
        &mut self,
        p: Value,
        byte: Value,
        single_space: bool,
        inside: Block,
        end: Block,
    ) {
        let run = self.b.create_block();
        match single_space {
            true => self.one_space(p, byte, inside, run),
            false => {
                self.b.ins().jump(run, &[]);
            }
        }
        self.b.switch_to_block(run);
        self.skip_ws_run(p, inside, end);
    }

    /// Skips the whitespace run at `p` (a byte at or below space), with no call: 16-byte
    /// `i8x16` windows while a whole window lies in the input, then (in the input's last
    /// 15 bytes) one byte at a time. Jumps to `inside` when it stops at a byte of the
    /// input (one not whitespace), to `end` when the run reaches the input's end.
    fn skip_ws_run(&mut self, p: Value, inside: Block, end: Block) {
        let [window, found, tail, byte] = self.blocks();
        let q = self.b.append_block_param(window, I64);
        self.b.ins().jump(window, &[BlockArg::Value(p)]);

        self.b.switch_to_block(window);
        let Window {
            next, len, bytes, ..
        } = self.window(q, tail, &[BlockArg::Value(q)]);
        let ws = self.whitespace_lanes(bytes);
        let ws = self.b.ins().vhigh_bits(I64, ws);
        let other = self.b.ins().bxor_imm_u(ws, (1 << WINDOW) - 1);
        self.b
            .ins()
            .brif(other, found, &[], window, &[BlockArg::Value(next)]);

        self.b.switch_to_block(found);
        let k = self.b.ins().ctz(other);
        let stop = self.b.ins().iadd(q, k);
        self.set_pos(stop);
        self.b.ins().jump(inside, &[]);

        // `window` dominates the tail, so its length load serves the byte loop too.
        let t = self.b.append_block_param(tail, I64);
        self.b.switch_to_block(tail);
        self.set_pos(t);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, t, len);
        self.b.ins().brif(more, byte, &[], end, &[]);

        self.b.switch_to_block(byte);
        let c = self.byte_at(t);
        let c = self.b.ins().uextend(I64, c);
        // Bit `c` of this word is set for the four whitespace bytes (all below 64).
        let spaces = self.iconst((1 << b' ') | (1 << b'\t') | (1 << b'\n') | (1 << b'\r'));
        let low = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedLessThanOrEqual, c, 32);
        let bit = self.b.ins().ushr(spaces, c);
        let bit = self.b.ins().band_imm_s(bit, 1);
        let is_ws = self.b.ins().icmp_imm_s(IntCC::NotEqual, bit, 0);
        let is_ws = self.b.ins().band(low, is_ws);
        let after = self.b.ins().iadd_imm_s(t, 1);
        self.b
            .ins()
            .brif(is_ws, tail, &[BlockArg::Value(after)], inside, &[]);
    }

    /// The [`WINDOW`] input bytes at `p`, continuing in a new block when they lie in the
    /// input; jumps to `short(short_args)` when they do not.
    fn window(&mut self, p: Value, short: Block, short_args: &[BlockArg]) -> Window {
        let next = self.b.ins().iadd_imm_s(p, WINDOW as i64);
        let len = self.len();
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, next, len);
        let read = self.b.create_block();
        self.b.ins().brif(fits, read, &[], short, short_args);
        self.b.switch_to_block(read);
        let input = self.input();
        let addr = self.b.ins().iadd(input, p);
        let bytes = self.b.ins().load(I8X16, input_flags(), addr, 0);
        Window {
            next,
            len,
            addr,
            bytes,
        }
    }

    /// The lanes of `v` (an `i8x16`) that are JSON whitespace, as an all-ones / all-zeros
    /// mask: a lane is whitespace when the table entry its low nibble picks is the lane
    /// itself. The table holds space, tab, newline and carriage return at their low
    /// nibbles and zero elsewhere (a zero lane picks the space at nibble 0, so it never
    /// matches). One shuffle and one compare instead of four compares.
    fn whitespace_lanes(&mut self, v: Value) -> Value {
        let mut table = [0u8; 16];
        for byte in [b' ', b'\t', b'\n', b'\r'] {
            table[usize::from(byte & 0x0f)] = byte;
        }
        let table = self.vector(table);
        let low = self.splat(0x0f);
        let nibbles = self.b.ins().band(v, low);
        let picked = self.lookup(table, nibbles);
        self.b.ins().icmp(IntCC::Equal, picked, v)
    }

    /// Lane `k` of the result is lane `indices[k]` of `table` (an `i8x16`) for an index at
    /// most 15, and zero for an index with its top bit set (both instructions agree there):
    /// `pshufb` alone on x86-64 (the host, where the ISA check requires SSSE3), where
    /// `swizzle`, which must give zero for indices above 15, first adds a saturating bias to
    /// them (one more instruction and a constant load).
    fn lookup(&mut self, table: Value, indices: Value) -> Value {
        if cfg!(target_arch = "x86_64") {
            self.b.ins().x86_pshufb(table, indices)
        } else {
            self.b.ins().swizzle(table, indices)
        }
    }

    /// `N` new blocks, created in order.
    fn blocks<const N: usize>(&mut self) -> [Block; N] {
        std::array::from_fn(|_| self.b.create_block())
    }

    /// `byte` in every lane of an `i8x16`.
    fn splat(&mut self, byte: u8) -> Value {
        self.vector([byte; 16])
    }

    /// The `i8x16` constant `lanes`: a constant-pool load (one instruction where a splat
    /// of a register takes three, and nothing held in a register across calls).
    fn vector(&mut self, lanes: [u8; 16]) -> Value {
        let constant = (self.b.func.dfg.constants).insert(ConstantData::from(&lanes[..]));
        self.b.ins().vconst(I8X16, constant)
    }

    /// The lanes of `v` (an `i8x16`) equal to `byte`, as an all-ones / all-zeros mask.
    fn lanes_equal(&mut self, v: Value, byte: u8) -> Value {
        let s = self.splat(byte);
        self.b.ins().icmp(IntCC::Equal, v, s)
    }

    /// Branches on whether the byte at `p` is `byte` (false at the end of the input).
    fn branch_byte(&mut self, p: Value, byte: u8, yes: Block, no: Block) {
        let v = self.byte_or(p, no);
        self.branch_if_byte(v, byte, yes, no);
    }

    /// The byte at `p` (as [`Lower::byte_at`]), continuing in a new block when `p` is in
    /// the input; jumps to `end` when it is not.
    fn byte_or(&mut self, p: Value, end: Block) -> Value {
        let check = self.b.create_block();
        let len = self.len();
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, p, len);
        self.b.ins().brif(more, check, &[], end, &[]);
        self.b.switch_to_block(check);
        self.byte_at(p)
    }

    /// Branches on whether `v` (a byte, as loaded by [`Lower::byte_at`]) is `byte`.
    fn branch_if_byte(&mut self, v: Value, byte: u8, yes: Block, no: Block) {
        let is = self.b.ins().icmp_imm_s(IntCC::Equal, v, i64::from(byte));
        self.b.ins().brif(is, yes, &[], no, &[]);
    }

    /// Branches on whether `v` (a byte) is at or below space: whitespace, or a control
    /// byte, which the run skip stops at.
    fn branch_if_ws(&mut self, v: Value, ws: Block, other: Block) {
        let low = (self.b.ins()).icmp_imm_s(IntCC::UnsignedLessThanOrEqual, v, 32);
        self.b.ins().brif(low, ws, &[], other, &[]);
    }

    /// Jumps to `token` with the cursor on the token at `p`, or after one space before it
    /// (the usual `": "`); anything else (more whitespace, the input's end) jumps to
    /// `other` with the cursor at `p`. The cursor is at `p` on entry.
    fn branch_on_token(&mut self, p: Value, token: Block, other: Block) {
        let spaced = self.b.create_block();
        let v = self.byte_or(p, other);
        self.branch_if_ws(v, spaced, token);
        self.b.switch_to_block(spaced);
        self.one_space(p, v, token, other);
    }

    /// With `byte` (at `p`, in the input) not above space: when it is one space before a
    /// byte above space, moves the cursor past the space and jumps to `token`; else jumps to
    /// `other` (the cursor unchanged).
    fn one_space(&mut self, p: Value, byte: Value, token: Block, other: Block) {
        let [second, past] = self.blocks();
        let len = self.len();
        let is_space = self.b.ins().icmp_imm_s(IntCC::Equal, byte, 32);
        let next = self.b.ins().iadd_imm_s(p, 1);
        let room = self.b.ins().icmp(IntCC::UnsignedLessThan, next, len);
        let single = self.b.ins().band(is_space, room);
        self.b.ins().brif(single, second, &[], other, &[]);
        self.b.switch_to_block(second);
        let after = self.byte_at(next);
        self.branch_if_ws(after, other, past);
        self.b.switch_to_block(past);
        self.set_pos(next);
        self.b.ins().jump(token, &[]);
    }

    /// A `br_table` on `index` (`I64`, clamped to the last target).
    fn switch(&mut self, var: Variable, targets: &[Label]) -> bool {
        let v = self.b.use_var(var);
        let last = self.iconst(targets.len() as i64 - 1);
        let i = self.b.ins().umin(v, last);
        let i = self.b.ins().ireduce(I32, i);
        let blocks: Vec<Block> = targets.iter().map(|&t| self.label(t)).collect();
        self.br_table(i, &blocks, blocks[blocks.len() - 1]);
        false
    }

    /// `br_table` over `blocks` (no arguments) with a default.
    fn br_table(&mut self, index: Value, blocks: &[Block], default: Block) {
        let dfg = &mut self.b.func.dfg;
        let table: Vec<_> = blocks.iter().map(|&b| dfg.block_call(b, &[])).collect();
        let def = dfg.block_call(default, &[]);
        let jt = self.b.create_jump_table(JumpTableData::new(def, &table));
        self.b.ins().br_table(index, jt);
    }

    /// `exit(status, value)`: returns them (a callee's or helper's error, recorded).
    fn exit_block(&mut self) {
        let (status, value) = (
            self.b.append_block_param(self.exit, I64),
            self.b.append_block_param(self.exit, I64),
        );
        self.b.switch_to_block(self.exit);
        self.b.ins().return_(&[status, value]);
    }

    /// `fail(status, class, a, b, offset)`: records the error and returns the status.
    fn fail_block(&mut self) {
        let params: Vec<Value> = (0..5)
            .map(|_| self.b.append_block_param(self.fail, I64))
            .collect();
        self.b.switch_to_block(self.fail);
        let [status, class, a, b, offset] = [params[0], params[1], params[2], params[3], params[4]];
        self.store_ctx(class, off::ERR_CLASS);
        self.store_ctx(a, off::ERR_A);
        self.store_ctx(b, off::ERR_B);
        self.store_ctx(offset, off::ERR_OFFSET);
        self.b.ins().return_(&[status, offset]);
    }

    /// The flags word the string scan kernel wrote.
    fn scan_flags(&mut self) -> Value {
        self.b.ins().stack_load(I64, I64, self.flags, 0)
    }

    fn flags_addr(&mut self) -> Value {
        self.b.ins().stack_addr(I64, self.flags, 0)
    }
}

/// A shared cold block of a function: one per distinct error, jumped to from every site
/// that raises it (the error paths cost one jump per site instead of their constants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cold {
    /// `(offset)`: a constant error.
    Fail {
        status: i64,
        class: u64,
        a: u64,
        b: u64,
    },
    /// `(p)`: the syntax error of this code at `p`, or `UnexpectedEnd` at the end.
    Expected(u32),
    /// `(status, offset)`: a kernel's error.
    Kernel,
}

/// The presence bitmap words function `f` needs: the most of any table it names.
fn bitmap_words(program: &Program, f: &Func) -> usize {
    f.ops
        .iter()
        .filter_map(|op| match op {
            Op::ObjBegin { table, .. } | Op::Key(table) | Op::ObjEnd(table) => {
                Some(program.key_tables[*table as usize].len().div_ceil(64))
            }
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

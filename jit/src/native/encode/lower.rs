//! Lowering of a layout's shapes to encode functions `fn(ctx, slot) -> status` (see the
//! [parent module](super) for what they write and how).

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I8, I16, I32, I64};
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, FuncRef, Function, InstBuilder, MemFlagsData, Signature, Value,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Linkage, Module, ModuleError};
use jitson_kernels::escape::{EscapeMode, escape_str};
use jitson_kernels::int_format::MAX_INT_LEN;

use super::{Helper, NUMBER_LEN, NUMBER_ROOM, Writer, off};
use crate::layout::{Layout, NUM_F64, NUM_I64, NUM_RAW, Shape, ShapeId};
use crate::native::error::CompileError;
use crate::native::fail;
use crate::native::machine::{self, SizeBudget};

/// Declares, lowers (within `budget`) and defines the encode function of every shape
/// reached from `root` that needs one; the id of `root`'s.
pub(super) fn define(
    module: &mut JITModule,
    layout: &Layout,
    root: ShapeId,
    mut budget: SizeBudget,
) -> Result<FuncId, CompileError> {
    let lowered = lower(module, layout, root, &mut budget)?;
    let jobs: Vec<(ShapeId, FuncId)> = lowered.iter().map(|(s, id, _)| (*s, *id)).collect();
    let funcs: Vec<(FuncId, Function)> = lowered.into_iter().map(|(_, id, f)| (id, f)).collect();
    let threads = machine::threads_for(&funcs);
    let compiled = machine::compile_all(module.isa(), funcs, threads);
    for (&(s, id), code) in jobs.iter().zip(compiled) {
        let code = code.map_err(|e| error(s, ModuleError::Compilation(e)))?;
        module
            .define_function_bytes(id, code.align, &code.bytes, &code.relocs)
            .map_err(|e| error(s, e))?;
    }
    Ok(jobs[0].1)
}

/// Declares the encode function of every shape reached from `root` that needs one, and the
/// callees, in `module`, and lowers each, charging `budget`: `(shape, id, IR)`, `root`'s
/// first.
pub(super) fn lower(
    module: &mut JITModule,
    layout: &Layout,
    root: ShapeId,
    budget: &mut SizeBudget,
) -> Result<Vec<(ShapeId, FuncId, Function)>, CompileError> {
    let shapes = functions(layout, root);
    let sig = signature(module, 2);
    let mut ids = HashMap::new();
    for &s in &shapes {
        let id = module
            .declare_function(&format!("e{s}"), Linkage::Preemptible, &sig)
            .map_err(|e| error(s, e))?;
        ids.insert(s, id);
    }
    let hsig = signature(module, 3);
    let helpers = (Helper::ALL.iter())
        .map(|h| {
            (module.declare_function(h.name(), Linkage::Import, &hsig)).map_err(|e| error(root, e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut wsig = module.make_signature();
    wsig.params.extend([AbiParam::new(I64), AbiParam::new(I64)]);
    wsig.returns
        .extend([AbiParam::new(I64), AbiParam::new(I64)]);
    let writers = (Writer::ALL.iter())
        .map(|w| {
            (module.declare_function(w.name(), Linkage::Import, &wsig)).map_err(|e| error(root, e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let callees = Callees {
        funcs: &ids,
        helpers: &helpers,
        writers: &writers,
    };
    let mut fbc = FunctionBuilderContext::new();
    (shapes.iter())
        .map(|&s| {
            let mut func = Function::new();
            func.signature = sig.clone();
            Emit::function(module, layout, &callees, s, &mut func, &mut fbc);
            budget.charge(&func)?;
            Ok((s, ids[&s], func))
        })
        .collect()
}

/// `(i64 × params) -> i64`.
fn signature(module: &JITModule, params: usize) -> Signature {
    let mut sig = module.make_signature();
    sig.params.extend((0..params).map(|_| AbiParam::new(I64)));
    sig.returns.push(AbiParam::new(I64));
    sig
}

/// The error for shape `s`'s function.
fn error(s: ShapeId, e: ModuleError) -> CompileError {
    CompileError::Codegen {
        function: format!("encode of shape {s}"),
        message: e.to_string(),
    }
}

/// Whether a slot of shape `s` is written by a call (objects, unions, arrays of containers
/// and boxed shapes) rather than in place. An array whose items are all leaves (a GeoJSON
/// position, a list of tags) is written in place: it cannot recurse, and a call would cost
/// more than writing its items (canada's `[x, y]` pairs).
fn called(layout: &Layout, s: ShapeId) -> bool {
    let info = layout.shape(s);
    info.boxed
        || match &info.shape {
            Shape::Array { prefix, items, .. } => {
                !(prefix.iter().chain([items])).all(|&t| leaf(layout, t))
            }
            Shape::Object { .. } | Shape::Union(_) => true,
            Shape::Alias(inner) => called(layout, *inner),
            _ => false,
        }
}

/// The room the first write of a value of shape `s` asks for, which a check before it can
/// cover: a constant's or a number's; 0 for values whose first write is a call's, a helper's
/// or a container's comma.
fn first_room(layout: &Layout, s: ShapeId) -> i64 {
    let info = layout.shape(s);
    if info.boxed {
        return 0;
    }
    match &info.shape {
        Shape::Null | Shape::Never => b"null".len() as i64,
        Shape::Bool => b"false".len() as i64,
        Shape::Number => NUMBER_ROOM as i64,
        Shape::Alias(inner) => first_room(layout, *inner),
        _ => 0,
    }
}

/// Whether shape `s` is a leaf: a scalar (or an alias of one) written in place, never a
/// container.
fn leaf(layout: &Layout, s: ShapeId) -> bool {
    let info = layout.shape(s);
    !info.boxed
        && match &info.shape {
            Shape::Array { .. } | Shape::Object { .. } | Shape::Union(_) => false,
            Shape::Alias(inner) => leaf(layout, *inner),
            _ => true,
        }
}

/// The shapes that get a function, `root` first: the root, and every shape a written
/// value's code calls.
fn functions(layout: &Layout, root: ShapeId) -> Vec<ShapeId> {
    let mut seen = vec![false; layout.shapes.len()];
    let mut order = vec![root];
    seen[root as usize] = true;
    let mut i = 0;
    while let Some(&s) = order.get(i) {
        i += 1;
        for next in reached(layout, s, true) {
            if !seen[next as usize] {
                seen[next as usize] = true;
                order.push(next);
            }
        }
    }
    order
}

/// The shapes `s`'s function calls (`top`: the function's own shape, written in place
/// even when it would be called).
fn reached(layout: &Layout, s: ShapeId, top: bool) -> Vec<ShapeId> {
    if !top && called(layout, s) {
        return vec![s];
    }
    match &layout.shape(s).shape {
        Shape::Alias(inner) => reached(layout, *inner, false),
        Shape::Array { prefix, items, .. } => (prefix.iter().chain([items]))
            .flat_map(|&t| reached(layout, t, false))
            .collect(),
        Shape::Object { fields, extra, .. } => (fields.iter().map(|&(t, _)| t).chain([*extra]))
            .flat_map(|t| reached(layout, t, false))
            .collect(),
        Shape::Union(branches) => (branches.iter())
            .flat_map(|&(t, _)| reached(layout, t, false))
            .collect(),
        _ => Vec::new(),
    }
}

/// Flags of the layout's records and the output buffer: valid, aligned or not.
fn flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// The bytes every escape mode writes for `name` as a key: `"name":`, or `None` when the
/// modes differ.
fn plain_key(name: &str) -> Option<Vec<u8>> {
    let mut key = Vec::new();
    escape_str(name, EscapeMode::Minimal, &mut key);
    for mode in [EscapeMode::Ascii, EscapeMode::Html] {
        let mut other = Vec::new();
        escape_str(name, mode, &mut other);
        if other != key {
            return None;
        }
    }
    key.push(b':');
    Some(key)
}

/// What encode functions call: each other (by shape), the helpers and the number writers
/// (in [`Helper::ALL`] and [`Writer::ALL`] order).
struct Callees<'a> {
    funcs: &'a HashMap<ShapeId, FuncId>,
    helpers: &'a [FuncId],
    writers: &'a [FuncId],
}

/// The builder of one encode function.
struct Emit<'a> {
    b: FunctionBuilder<'a>,
    module: &'a mut JITModule,
    layout: &'a Layout,
    callees: &'a Callees<'a>,
    refs: HashMap<FuncId, FuncRef>,
    ctx: Value,
    /// `exit(status)`: returns a non-zero status.
    exit: Block,
    /// What is known of the output where code is being emitted.
    out: Out,
}

/// What is known of the output (the context's `buf`, `len`, `cap`) at a point of an encode
/// function.
#[derive(Clone, Copy, Default)]
struct Out {
    /// Bytes known to be free past the output's end: on every path here, `cap - len >=
    /// budget`. A capacity check reserves [`SLACK`] bytes beyond what it was asked for, and
    /// the writes that follow spend that budget instead of each checking again; a call
    /// (which may write anything) ends it, a merge keeps the least of its paths'.
    budget: i64,
    /// The output's length, when a value here holds it (the context's copy is always
    /// current too): straight-line writes chain their lengths in registers instead of
    /// reloading the length each stored a moment before.
    len: Option<Value>,
    /// The buffer's address, when a value here holds it (no call since it was loaded).
    buf: Option<Value>,
}

impl Out {
    /// Nothing known but `budget` (where paths merge).
    fn merged(budget: i64) -> Self {
        Out {
            budget,
            ..Out::default()
        }
    }
}

/// What a capacity check reserves beyond the bytes asked for, for the constant bytes and
/// numbers that follow it (a GeoJSON `[x, y]` pair after its comma, a few short members).
const SLACK: i64 = 64;

/// The most bytes closing a container writes (`[]` for an empty one).
const CLOSE_ROOM: i64 = 2;

impl<'a> Emit<'a> {
    /// Lowers the function of shape `s` into `func`.
    fn function(
        module: &'a mut JITModule,
        layout: &'a Layout,
        callees: &'a Callees<'a>,
        s: ShapeId,
        func: &'a mut Function,
        fbc: &'a mut FunctionBuilderContext,
    ) {
        let mut b = FunctionBuilder::new(func, fbc);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let (ctx, slot) = (b.block_params(entry)[0], b.block_params(entry)[1]);
        let exit = b.create_block();
        b.append_block_param(exit, I64);
        b.set_cold_block(exit);
        let mut e = Emit {
            b,
            module,
            layout,
            callees,
            refs: HashMap::new(),
            ctx,
            exit,
            out: Out::default(),
        };
        e.stack_check();
        let info = layout.shape(s);
        let addr = if info.boxed {
            e.b.ins().load(I64, flags(), slot, 0)
        } else {
            slot
        };
        e.record(s, addr);
        let ok = e.b.ins().iconst(I64, fail::OK);
        e.b.ins().return_(&[ok]);
        e.b.switch_to_block(exit);
        let status = e.b.block_params(exit)[0];
        e.b.ins().return_(&[status]);
        e.b.seal_all_blocks();
        let config = e.module.target_config();
        e.b.finalize(config);
    }

    /// Returns [`fail::BAIL`] when the stack is below the context's limit.
    fn stack_check(&mut self) {
        let sp = self.b.ins().get_stack_pointer(I64);
        let limit = self.b.ins().load(I64, flags(), self.ctx, off::STACK_LIMIT);
        let low = self.b.ins().icmp(IntCC::UnsignedLessThan, sp, limit);
        let bail = self.b.ins().iconst(I64, fail::BAIL);
        self.continue_unless(low, bail);
    }

    /// Jumps to the exit with `status` when `cond` is non-zero; continues in a new block.
    fn continue_unless(&mut self, cond: Value, status: Value) {
        let go = self.b.create_block();
        let exit = self.exit;
        self.b
            .ins()
            .brif(cond, exit, &[BlockArg::Value(status)], go, &[]);
        self.b.switch_to_block(go);
    }

    /// Continues in `block`, where paths merge, with `budget` (the least every path into it
    /// has left).
    fn enter(&mut self, block: Block, budget: i64) {
        self.b.switch_to_block(block);
        self.out = Out::merged(budget);
    }

    /// Continues in `block`, whose only predecessor is the point where `at` was known.
    fn resume(&mut self, block: Block, at: Out) {
        self.b.switch_to_block(block);
        self.out = at;
    }

    /// Calls `id` with `args`: its results.
    fn call_raw(&mut self, id: FuncId, args: &[Value]) -> Vec<Value> {
        let r = match self.refs.get(&id) {
            Some(&r) => r,
            None => {
                let r = self.module.declare_func_in_func(id, self.b.func);
                self.refs.insert(id, r);
                r
            }
        };
        let call = self.b.ins().call(r, args);
        self.b.inst_results(call).to_vec()
    }

    /// Calls `id` with `args`; a non-zero status leaves the function with it. The callee
    /// may have written anything: no budget is left.
    fn call(&mut self, id: FuncId, args: &[Value]) {
        let status = self.call_raw(id, args)[0];
        self.out = Out::default();
        self.continue_unless(status, status);
    }

    /// Calls helper `h` with `(ctx, a, b)`.
    fn helper(&mut self, h: Helper, a: Value, b: i64) {
        let i = Helper::ALL.iter().position(|&x| x == h).expect("a helper");
        let b = self.b.ins().iconst(I64, b);
        let ctx = self.ctx;
        self.call(self.callees.helpers[i], &[ctx, a, b]);
    }

    /// Writes the value of shape `s` in the slot at `slot`: in place, or by a call.
    fn value(&mut self, s: ShapeId, slot: Value) {
        if called(self.layout, s) {
            let ctx = self.ctx;
            self.call(self.callees.funcs[&s], &[ctx, slot]);
        } else {
            self.record(s, slot);
        }
    }

    /// Writes the record of shape `s` at `addr` (the slot itself unless boxed).
    fn record(&mut self, s: ShapeId, addr: Value) {
        let layout = self.layout;
        match &layout.shape(s).shape {
            Shape::Null | Shape::Never => self.bytes(b"null"),
            Shape::Bool => {
                let v = self.b.ins().uload8(I32, flags(), addr, 0);
                let (yes, no, done) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.b.ins().brif(v, yes, &[], no, &[]);
                let at = self.out;
                self.resume(yes, at);
                self.bytes(b"true");
                self.b.ins().jump(done, &[]);
                let after_yes = self.out.budget;
                self.resume(no, at);
                self.bytes(b"false");
                self.b.ins().jump(done, &[]);
                let after = self.out.budget.min(after_yes);
                self.enter(done, after);
            }
            Shape::Number => self.number(addr),
            Shape::Str => self.helper(Helper::Str, addr, 0),
            Shape::Raw => self.helper(Helper::Raw, addr, 0),
            Shape::StrEnum(_) => self.helper(Helper::Enum, addr, i64::from(s)),
            Shape::Alias(inner) => self.value(*inner, addr),
            Shape::Array {
                prefix,
                items,
                stride,
            } => self.array(addr, prefix, *items, i64::from(*stride)),
            Shape::Object {
                names,
                fields,
                extras,
                extra,
                entry,
            } => {
                let start = self.out_len();
                let mut word = None;
                for (i, (name, &(t, off))) in names.iter().zip(fields).enumerate() {
                    self.field(s, addr, &mut word, (i, name), (t, off));
                }
                let ptr = self.b.ins().load(I64, flags(), addr, *extras as i32);
                let len = self.b.ins().load(I64, flags(), addr, *extras as i32 + 8);
                self.each(ptr, len, (0, i64::from(*entry)), 0, |e, at| {
                    e.bytes(b",");
                    e.helper(Helper::ExtraKey, at, 0);
                    let value = e.b.ins().iadd_imm_s(at, i64::from(crate::layout::PAIR));
                    e.value(*extra, value);
                });
                self.close(start, *b"{}");
            }
            Shape::Union(branches) => {
                let tag = self.b.ins().uload32(flags(), addr, 0);
                let done = self.b.create_block();
                let at = self.out;
                let mut after = i64::MAX;
                for (k, &(t, off)) in branches.iter().enumerate() {
                    let this = self.b.ins().icmp_imm_s(IntCC::Equal, tag, k as i64);
                    let (yes, no) = (self.b.create_block(), self.b.create_block());
                    self.b.ins().brif(this, yes, &[], no, &[]);
                    self.resume(yes, at);
                    let payload = self.b.ins().iadd_imm_s(addr, i64::from(off));
                    self.value(t, payload);
                    self.b.ins().jump(done, &[]);
                    after = after.min(self.out.budget);
                    self.resume(no, at);
                }
                self.bytes(b"null");
                self.b.ins().jump(done, &[]);
                let after = after.min(self.out.budget);
                self.enter(done, after);
            }
        }
    }

    /// Writes named field `i` of the object of shape `s` at `addr` when its presence bit
    /// is set: a comma and its key (one constant), its value. `word` caches the bitmap word
    /// last loaded.
    fn field(
        &mut self,
        s: ShapeId,
        addr: Value,
        word: &mut Option<(usize, Value)>,
        (i, name): (usize, &str),
        (t, off): (ShapeId, u32),
    ) {
        let w = match *word {
            Some((n, w)) if n == i / 64 => w,
            _ => {
                let w = self.b.ins().load(I64, flags(), addr, (8 * (i / 64)) as i32);
                *word = Some((i / 64, w));
                w
            }
        };
        let key = plain_key(name).map(|key| [b",".as_slice(), &key].concat());
        // The check for the member's first bytes comes before the presence test, so that
        // a member left out keeps the budget for the next one.
        let first = match &key {
            Some(key) => key.len() as i64 + first_room(self.layout, t),
            None => 1,
        };
        self.reserve(first);
        let bit = self.b.ins().band_imm_s(w, 1i64 << (i % 64));
        let (present, next) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(bit, present, &[], next, &[]);
        let at = self.out;
        self.resume(present, at);
        match key {
            Some(key) => self.bytes(&key),
            None => {
                self.bytes(b",");
                let shape = self.b.ins().iconst(I64, i64::from(s));
                self.helper(Helper::FieldKey, shape, i as i64);
            }
        }
        let value = self.b.ins().iadd_imm_s(addr, i64::from(off));
        self.value(t, value);
        self.b.ins().jump(next, &[]);
        let after = self.out.budget.min(at.budget);
        self.enter(next, after);
    }

    /// Writes the array at `addr`: its prefix items, then the rest, each after a comma, in
    /// brackets.
    fn array(&mut self, addr: Value, prefix: &[ShapeId], items: ShapeId, stride: i64) {
        let ptr = self.b.ins().load(I64, flags(), addr, 0);
        let len = self.b.ins().load(I64, flags(), addr, 8);
        let start = self.out_len();
        let close = self.b.create_block();
        // The least budget of the paths into `close`.
        let mut closing = i64::MAX;
        for (k, &t) in prefix.iter().enumerate() {
            let more = self
                .b
                .ins()
                .icmp_imm_s(IntCC::UnsignedGreaterThan, len, k as i64);
            let go = self.b.create_block();
            self.b.ins().brif(more, go, &[], close, &[]);
            closing = closing.min(self.out.budget);
            let at = self.out;
            self.resume(go, at);
            let item = self.b.ins().iadd_imm_s(ptr, k as i64 * stride);
            self.bytes(b",");
            self.value(t, item);
        }
        // Items whose first write checks for room leave the loop with room for the brackets
        // (the check's slack), so the loop keeps that much and the close needs no check.
        let keep = if first_room(self.layout, items) >= CLOSE_ROOM {
            CLOSE_ROOM
        } else {
            0
        };
        self.each(ptr, len, (prefix.len() as i64, stride), keep, |e, item| {
            e.bytes(b",");
            e.value(items, item);
        });
        self.b.ins().jump(close, &[]);
        let closing = closing.min(self.out.budget);
        self.enter(close, closing);
        self.close(start, *b"[]");
    }

    /// For `i` from `first` while below `len`: `body` on the entry at `ptr + i * size`. The
    /// loop keeps a budget of `keep` bytes: checked before it and after each body (no check
    /// where the budget there already covers it).
    fn each(
        &mut self,
        ptr: Value,
        len: Value,
        (first, size): (i64, i64),
        keep: i64,
        body: impl FnOnce(&mut Self, Value),
    ) {
        let (head, step, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.append_block_param(head, I64);
        self.reserve(keep);
        let first = self.b.ins().iconst(I64, first);
        self.b.ins().jump(head, &[BlockArg::Value(first)]);
        self.enter(head, keep);
        let i = self.b.block_params(head)[0];
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, i, len);
        self.b.ins().brif(more, step, &[], done, &[]);
        self.enter(step, keep);
        let offset = self.b.ins().imul_imm_s(i, size);
        let at = self.b.ins().iadd(ptr, offset);
        body(self, at);
        self.reserve(keep);
        let next = self.b.ins().iadd_imm_s(i, 1);
        self.b.ins().jump(head, &[BlockArg::Value(next)]);
        self.enter(done, keep);
    }

    /// The output's length now (where a container's first element starts).
    fn out_len(&mut self) -> Value {
        let (b, ctx) = (&mut self.b, self.ctx);
        *(self.out.len).get_or_insert_with(|| b.ins().load(I64, flags(), ctx, off::LEN))
    }

    /// The output buffer's address.
    fn out_buf(&mut self) -> Value {
        let (b, ctx) = (&mut self.b, self.ctx);
        *(self.out.buf).get_or_insert_with(|| b.ins().load(I64, flags(), ctx, off::BUF))
    }

    /// Moves the output's length to `len`.
    fn set_out_len(&mut self, len: Value) {
        self.b.ins().store(flags(), len, self.ctx, off::LEN);
        self.out.len = Some(len);
    }

    /// Closes a container whose elements, each after a comma, were written from `start`:
    /// the first comma becomes the opening bracket and the closing one follows; an empty
    /// container is both brackets.
    fn close(&mut self, start: Value, [open, close]: [u8; 2]) {
        let len = self.out_len();
        let empty = self.b.ins().icmp(IntCC::Equal, len, start);
        let (both, first, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(empty, both, &[], first, &[]);
        let before = self.out;
        self.resume(both, before);
        self.bytes(&[open, close]);
        self.b.ins().jump(done, &[]);
        let after_both = self.out.budget;
        self.resume(first, before);
        let buf = self.out_buf();
        let at = self.b.ins().iadd(buf, start);
        let byte = self.b.ins().iconst(I8, i64::from(open));
        self.b.ins().store(flags(), byte, at, 0);
        self.bytes(&[close]);
        self.b.ins().jump(done, &[]);
        let after = self.out.budget.min(after_both);
        self.enter(done, after);
    }

    /// Writes the number slot at `addr`: a big integer's text through its helper; any
    /// other number formatted at the output's end by its [`Writer`].
    fn number(&mut self, addr: Value) {
        let tag = self.b.ins().uload8(I32, flags(), addr, 0);
        let big = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, tag, i64::from(NUM_RAW));
        let (text, format, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        // Both paths hand `done` the output's length and buffer.
        self.b.append_block_param(done, I64);
        self.b.append_block_param(done, I64);
        self.b.set_cold_block(text);
        self.b.ins().brif(big, text, &[], format, &[]);
        let before = self.out;
        self.resume(format, before);
        let (len, at) = self.room(NUMBER_ROOM as i64);
        let bits = self.b.ins().load(I64, flags(), addr, 8);
        let written = self.b.create_block();
        self.b.append_block_param(written, I64);
        let float = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, tag, i64::from(NUM_F64));
        let signed = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, tag, i64::from(NUM_I64));
        let (f, int, i, u) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(float, f, &[], int, &[]);
        self.b.switch_to_block(int);
        self.b.ins().brif(signed, i, &[], u, &[]);
        for (block, writer) in [(f, Writer::F64), (i, Writer::I64), (u, Writer::U64)] {
            self.b.switch_to_block(block);
            if writer != Writer::F64 {
                // The integer kernels take an initialized `[u8; MAX_INT_LEN]`: zero it (the
                // float writer takes uninitialized room).
                let zero = self.b.ins().iconst(I64, 0);
                for k in 0..MAX_INT_LEN.div_ceil(8) {
                    self.b.ins().store(flags(), zero, at, 8 * k as i32);
                }
            }
            let w = Writer::ALL
                .iter()
                .position(|&x| x == writer)
                .expect("a writer");
            let res = self.call_raw(self.callees.writers[w], &[bits, at]);
            let fatal = self.b.ins().iconst(I64, fail::FATAL);
            self.continue_unless(res[0], fatal);
            self.b.ins().jump(written, &[BlockArg::Value(res[1])]);
        }
        // `written` follows the writers' blocks, all dominated by the room made above.
        self.b.switch_to_block(written);
        let n = self.b.block_params(written)[0];
        let end = self.b.ins().iadd(len, n);
        self.set_out_len(end);
        self.jump_with_out(done);
        let after = self.out.budget - NUMBER_LEN as i64;
        // The text of any length: the budget the formatted path leaves is checked again.
        self.resume(text, before);
        self.helper(Helper::Number, addr, 0);
        self.reserve(after);
        self.jump_with_out(done);
        self.enter(done, after);
        let params = self.b.block_params(done);
        (self.out.len, self.out.buf) = (Some(params[0]), Some(params[1]));
    }

    /// Jumps to `block` with the output's length and buffer as its arguments.
    fn jump_with_out(&mut self, block: Block) {
        let (len, buf) = (self.out_len(), self.out_buf());
        self.b
            .ins()
            .jump(block, &[BlockArg::Value(len), BlockArg::Value(buf)]);
    }

    /// Makes room for `n` bytes at the output's end ([`Emit::reserve`]): the output's length
    /// and the address of its end. The caller spends what it writes.
    fn room(&mut self, n: i64) -> (Value, Value) {
        self.reserve(n);
        let len = self.out_len();
        let buf = self.out_buf();
        let at = self.b.ins().iadd(buf, len);
        (len, at)
    }

    /// Makes the budget at least `n` bytes: nothing within the budget; otherwise a capacity
    /// check for `n` + [`SLACK`] bytes (a helper grows the buffer when it fails), which
    /// becomes the budget.
    fn reserve(&mut self, n: i64) {
        if self.out.budget < n {
            let len = self.out_len();
            let want = n + SLACK;
            let cap = self.b.ins().load(I64, flags(), self.ctx, off::CAP);
            let end = self.b.ins().iadd_imm_s(len, want);
            let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, cap);
            let (grow, write) = (self.b.create_block(), self.b.create_block());
            self.b.set_cold_block(grow);
            self.b.ins().brif(fits, write, &[], grow, &[]);
            self.b.switch_to_block(grow);
            let need = self.b.ins().iconst(I64, want);
            self.helper(Helper::Grow, need, 0);
            self.b.ins().jump(write, &[]);
            // The helper kept the length (and may have moved the buffer).
            self.enter(write, want);
            self.out.len = Some(len);
        }
    }

    /// Appends `data`: room for it, the bytes stored as immediates, the length moved.
    fn bytes(&mut self, data: &[u8]) {
        let (len, at) = self.room(data.len() as i64);
        let end = self.b.ins().iadd_imm_s(len, data.len() as i64);
        let mut done = 0;
        for (size, ty) in [(8, I64), (4, I32), (2, I16), (1, I8)] {
            while data.len() - done >= size {
                let mut word = [0u8; 8];
                word[..size].copy_from_slice(&data[done..done + size]);
                let v = self.b.ins().iconst(ty, i64::from_le_bytes(word));
                self.b.ins().store(flags(), v, at, done as i32);
                done += size;
            }
        }
        self.set_out_len(end);
        self.out.budget -= data.len() as i64;
    }
}

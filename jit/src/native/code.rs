//! [`NativeCode`]: the compiled form of one program, in two tiers. The validate functions
//! are compiled by [`compile`]; the decode functions are compiled separately, on the first
//! native decode or when [`NativeCode::compile_decode`] is called (an engine's background
//! worker does), and until then nothing of them is built. Each tier is its own
//! `JITModule` (finalized once, freed on drop with `free_memory`); the decode module calls
//! the validate module's functions by address, and both die with the [`NativeCode`]. The
//! entry points are reachable only through it.

use std::panic::resume_unwind;
use std::sync::{Arc, Mutex, OnceLock};

use cranelift_codegen::CodegenError;
use cranelift_codegen::ir::Function;
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Module, ModuleError, default_libcall_names};
use jitson_kernels::ffi::FfiResult;

use super::ctx::{Ctx, Scratch};
use super::decode;
use super::encode::{self, EncodeCode};
use super::error::{CodeTier, CompileError};
use super::fail;
use super::helpers::{Callee, callee};
use super::isa::isa;
use super::lower::{self, Half};
use super::machine::{self, SizeBudget};
use crate::encode::EncodePlan;
use crate::interp::{self, Decoded};
use crate::ir::{BigInts, ExecOptions, Failure, Program};
use crate::view::View;

/// The stack generated code may use below the run's entry; past it the run bails out to
/// the interpreter (deep input with a large `max_depth` can never overflow the stack).
const STACK_BUDGET: usize = 256 * 1024;

/// The entry point: `(ctx, pos) -> (status, pos)`.
type EntryFn = unsafe extern "C" fn(*mut Ctx, u64) -> FfiResult;

/// The decode entry point: `(ctx, pos, dst) -> (status, pos)`.
type DecodeFn = unsafe extern "C" fn(*mut Ctx, u64, u64) -> FfiResult;

/// Native code for one [`Program`]: validates and decodes exactly as [`interp::validate`]
/// and [`interp::decode`] do, errors included.
pub struct NativeCode {
    /// The validate tier.
    _module: Owned,
    entry: EntryFn,
    /// The address of every validate function (what the decode tier imports).
    addrs: Vec<usize>,
    /// The decode tier once built: `None` for a program without a layout.
    decode: OnceLock<Result<Option<DecodeCode>, CompileError>>,
    /// The encode tier once built: `None` for a program without a layout.
    encode: OnceLock<Result<Option<EncodeCode>, CompileError>>,
    program: Program,
    functions: usize,
    /// The most Cranelift IR instructions each tier may have.
    size_limit: usize,
}

/// The decode tier: its module and entry point.
struct DecodeCode {
    _module: Owned,
    entry: DecodeFn,
}

/// A finalized module, freed when dropped.
pub(crate) struct Owned(pub(crate) Mutex<Option<JITModule>>);

impl Drop for Owned {
    fn drop(&mut self) {
        let slot = self.0.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(module) = slot.take() {
            // SAFETY: `&mut self` proves no run is inside the code: its owner (a
            // `NativeCode`, through which alone its entry points are reachable) is being
            // dropped. A decode tier dies with the validate tier it calls into.
            unsafe { module.free_memory() };
        }
    }
}

impl std::fmt::Debug for NativeCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeCode")
            .field("functions", &self.functions)
            .finish_non_exhaustive()
    }
}

/// A fresh module on the shared ISA that knows every callee's address and `symbols`.
pub(crate) fn new_module(symbols: &[(String, usize)]) -> Result<JITModule, CompileError> {
    let mut builder = JITBuilder::with_isa(isa()?, default_libcall_names());
    for c in Callee::ALL {
        let h = callee(c);
        builder.symbol(h.name, h.addr);
    }
    for (name, addr) in symbols {
        builder.symbol(name, std::ptr::with_exposed_provenance::<u8>(*addr));
    }
    Ok(JITModule::new(builder))
}

/// The error for function `index` failing to compile.
fn function_error(program: &Program, index: usize, e: ModuleError) -> CompileError {
    let function = format!("f{index} ({})", program.funcs[index].name);
    match e {
        ModuleError::Compilation(CodegenError::Verifier(errors)) => CompileError::Verifier {
            function,
            message: errors.to_string(),
        },
        e => CompileError::Codegen {
            function,
            message: e.to_string(),
        },
    }
}

/// Every function of one half to define: `(index, decode, id)`.
fn jobs(decls: &lower::Decls, half: Half) -> Vec<(usize, bool, FuncId)> {
    match half {
        Half::Validate => (decls.funcs.iter().enumerate())
            .map(|(i, &id)| (i, false, id))
            .collect(),
        Half::Decode => (decls.dfuncs.iter().enumerate())
            .filter_map(|(i, id)| id.map(|id| (i, true, id)))
            .collect(),
    }
}

/// Declares, lowers and defines every function of one half of `program` in `module`:
/// the IR of every function first (charged to `budget`), then their machine code on
/// several threads ([`machine`]).
fn define_all(
    module: &mut JITModule,
    program: &Program,
    half: Half,
    mut budget: SizeBudget,
) -> Result<lower::Decls, CompileError> {
    let decls = lower::declare(module, program, half)?;
    let mut fbc = FunctionBuilderContext::new();
    let jobs = jobs(&decls, half);
    let funcs = (jobs.iter())
        .map(|&(i, decode, id)| {
            let mut func = Function::new();
            lower::lower(module, &decls, program, (i, decode), &mut func, &mut fbc);
            budget.charge(&func)?;
            Ok((id, func))
        })
        .collect::<Result<Vec<(FuncId, Function)>, CompileError>>()?;
    let threads = machine::threads_for(&funcs);
    let compiled = machine::compile_all(module.isa(), funcs, threads);
    for (&(i, _, id), code) in jobs.iter().zip(compiled) {
        let code = code.map_err(|e| function_error(program, i, ModuleError::Compilation(e)))?;
        module
            .define_function_bytes(id, code.align, &code.bytes, &code.relocs)
            .map_err(|e| function_error(program, i, e))?;
    }
    Ok(decls)
}

/// Builds one half of `program` in a fresh module knowing `symbols`, finalized, within
/// `budget`.
fn build(
    program: &Program,
    half: Half,
    symbols: &[(String, usize)],
    budget: SizeBudget,
) -> Result<(JITModule, lower::Decls), CompileError> {
    build_module(symbols, |module| define_all(module, program, half, budget))
}

/// A fresh module knowing `symbols`, its functions defined by `define`, finalized; `define`'s
/// result beside it. On an error nothing of the module survives.
pub(crate) fn build_module<T>(
    symbols: &[(String, usize)],
    define: impl FnOnce(&mut JITModule) -> Result<T, CompileError>,
) -> Result<(JITModule, T), CompileError> {
    let mut module = new_module(symbols)?;
    let defined = match define(&mut module) {
        Ok(defined) => defined,
        Err(e) => {
            // SAFETY: no code of this module was finalized, so none can run.
            unsafe { module.free_memory() };
            return Err(e);
        }
    };
    if let Err(e) = module.finalize_definitions() {
        // SAFETY: finalization failed: no pointer into the module was handed out.
        unsafe { module.free_memory() };
        return Err(CompileError::ExecutableMemory(e.to_string()));
    }
    Ok((module, defined))
}

/// The default size limit of [`compile`]: the most Cranelift IR instructions one tier's
/// functions may lower to. The corpus schemas' largest tier is twitter's decode tier, about
/// 37 000. A tier at the limit took 0.4 s and 44 MB to compile in 370 functions, 2.2 s and
/// 210 MB in one (a 4 250-member object), on the 2-core test machine.
pub const DEFAULT_SIZE_LIMIT: usize = 250_000;

/// Compiles the validate tier of `program` to native code (one module, finalized once)
/// within [`DEFAULT_SIZE_LIMIT`]; the decode tier is compiled later
/// ([`NativeCode::compile_decode`]).
pub fn compile(program: &Program) -> Result<NativeCode, CompileError> {
    compile_within(program, DEFAULT_SIZE_LIMIT)
}

/// [`compile`] with a size limit of `size_limit` Cranelift IR instructions per tier (the
/// decode and encode tiers, compiled later, keep it): a tier whose functions lower to more
/// is not compiled ([`CompileError::TooLarge`]).
pub fn compile_within(program: &Program, size_limit: usize) -> Result<NativeCode, CompileError> {
    program.verify().map_err(CompileError::InvalidProgram)?;
    let budget = SizeBudget::new(CodeTier::Validate, size_limit);
    let (module, decls) = build(program, Half::Validate, &[], budget)?;
    let addrs: Vec<usize> = (decls.funcs.iter())
        .map(|&id| module.get_finalized_function(id).expose_provenance())
        .collect();
    let ptr = module.get_finalized_function(decls.funcs[program.entry as usize]);
    // SAFETY: the entry was defined with the codec signature `(i64, i64) -> (i64, i64)`
    // (SystemV), which is `EntryFn`'s ABI (two integer returns in RAX:RDX = `FfiResult`).
    let entry = unsafe { std::mem::transmute::<*const u8, EntryFn>(ptr) };
    Ok(NativeCode {
        _module: Owned(Mutex::new(Some(module))),
        entry,
        addrs,
        decode: OnceLock::new(),
        encode: OnceLock::new(),
        program: program.clone(),
        functions: decls.funcs.len(),
        size_limit,
    })
}

/// The Cranelift IR of every function of `program`, as text (what `compile`,
/// [`NativeCode::compile_decode`] and [`NativeCode::compile_encode`] would compile, before
/// optimization).
pub fn clif(program: &Program) -> Result<String, CompileError> {
    program.verify().map_err(CompileError::InvalidProgram)?;
    let mut out = String::new();
    for half in [Half::Validate, Half::Decode] {
        let mut module = new_module(&[])?;
        let listing = lower::declare(&mut module, program, half).map(|decls| {
            let mut ctx = module.make_context();
            let mut fbc = FunctionBuilderContext::new();
            for (i, decode, _) in jobs(&decls, half) {
                lower::lower(
                    &mut module,
                    &decls,
                    program,
                    (i, decode),
                    &mut ctx.func,
                    &mut fbc,
                );
                let (prefix, name) = (if decode { 'd' } else { 'f' }, &program.funcs[i].name);
                out.push_str(&format!("; {prefix}{i}: {name}\n{}\n", ctx.func.display()));
                module.clear_context(&mut ctx);
            }
        });
        // SAFETY: nothing was defined, so no code exists that could run.
        unsafe { module.free_memory() };
        listing?;
    }
    out.push_str(&encode::clif(program)?);
    Ok(out)
}

impl NativeCode {
    /// Checks `input`: `Ok`, or the first error, exactly as [`interp::validate`].
    ///
    /// A predicate that panics panics here too (the panic is carried across the native
    /// frames as a status and resumed).
    pub fn validate(
        &self,
        input: &[u8],
        options: &ExecOptions,
        scratch: &mut Scratch,
    ) -> Result<(), Failure> {
        let mut ctx = Ctx::new(&self.program, input, options, scratch, stack_limit());
        // SAFETY: the module is alive as long as `self`; the context is valid for the whole
        // call and points at live borrows of the program, input and scratch.
        let result = unsafe { (self.entry)(&mut ctx, 0) };
        match result.status as i64 {
            fail::OK => Ok(()),
            fail::BAIL => interp::validate(&self.program, input, options, &mut scratch.interp),
            _ => Err(self.failure(&mut ctx)),
        }
    }

    /// Compiles the decode tier now unless it is built (callers racing here wait for the
    /// one compiling); `Err` when it could not be made, and decode then runs on the
    /// interpreter.
    pub fn compile_decode(&self) -> Result<(), CompileError> {
        self.decode_tier().map(|_| ()).map_err(Clone::clone)
    }

    /// The decode tier's state: `None` until it is built (by [`NativeCode::compile_decode`]
    /// or the first [`NativeCode::decode`]), then whether it could be made.
    pub fn decode_status(&self) -> Option<Result<(), &CompileError>> {
        (self.decode.get()).map(|tier| tier.as_ref().map(|_| ()))
    }

    /// The decode tier, built on first use.
    fn decode_tier(&self) -> Result<&Option<DecodeCode>, &CompileError> {
        self.decode.get_or_init(|| self.build_decode()).as_ref()
    }

    /// Compiles the decode functions in their own module, importing the validate
    /// functions they call by address.
    fn build_decode(&self) -> Result<Option<DecodeCode>, CompileError> {
        let program = &self.program;
        if !program.layout.is_present() {
            return Ok(None);
        }
        let symbols: Vec<(String, usize)> = (self.addrs.iter().enumerate())
            .map(|(i, &addr)| (lower::validate_name(i), addr))
            .collect();
        let budget = SizeBudget::new(CodeTier::Decode, self.size_limit);
        let (module, decls) = build(program, Half::Decode, &symbols, budget)?;
        let id = decls.dfuncs[program.entry as usize].expect("decode runs the entry");
        let ptr = module.get_finalized_function(id);
        // SAFETY: decode functions were defined with the signature
        // `(i64, i64, i64) -> (i64, i64)` (SystemV), `DecodeFn`'s ABI.
        let entry = unsafe { std::mem::transmute::<*const u8, DecodeFn>(ptr) };
        Ok(Some(DecodeCode {
            _module: Owned(Mutex::new(Some(module))),
            entry,
        }))
    }

    /// Decodes `input` into records in a fresh arena: the document, or the first error,
    /// exactly as [`interp::decode`] (the same records, the same errors). The first call
    /// compiles the decode tier unless [`NativeCode::compile_decode`] did; when it could
    /// not be made, the interpreter decodes.
    ///
    /// # Panics
    ///
    /// If the program has no layout (as [`interp::decode`]); a predicate's panic is
    /// resumed here.
    pub fn decode<'a>(
        &self,
        input: &'a [u8],
        options: &ExecOptions,
        scratch: &mut Scratch,
    ) -> Result<Decoded<'a>, Failure> {
        let entry = match self.decode_tier() {
            Ok(Some(code)) => code.entry,
            Ok(None) => panic!("decode needs a program with a layout"),
            Err(_) => return interp::decode(&self.program, input, options, &mut scratch.interp),
        };
        let layout = &self.program.layout;
        let arena = scratch.interp.decode.arena();
        let shape = layout.funcs[self.program.entry as usize].shape;
        let info = layout.shape(shape);
        let size = info.slot_size() as usize;
        if scratch.bufs.is_empty() {
            scratch.bufs.push(Vec::new());
        }
        let root = &mut scratch.bufs[0];
        root.clear();
        // The record size too: an entry function that opens a boxed object zeroes its
        // whole record at the destination (resolver programs wrap the root in a call).
        root.resize(size.max(info.size as usize), 0);
        let dst = root.as_mut_ptr().expose_provenance() as u64;
        decode::reset_views(scratch);
        let mut ctx = Ctx::new(&self.program, input, options, scratch, stack_limit());
        ctx.arena = &arena;
        ctx.open = 1;
        // SAFETY: as in `validate`; `dst` addresses the root buffer (room for the entry's
        // slot and record), which only the run writes: buffer 0 is never acquired again.
        let result = unsafe { entry(&mut ctx, 0, dst) };
        match result.status as i64 {
            fail::OK => {}
            fail::BAIL => {
                return interp::decode(&self.program, input, options, &mut scratch.interp);
            }
            _ => return Err(self.failure(&mut ctx)),
        }
        let root = arena.alloc_slice_copy(&scratch.bufs[0][..size]);
        let root = root.as_ptr().expose_provenance();
        scratch.interp.decode.note_arena(&arena);
        // SAFETY: the generated code wrote the root slot and every record under it in the
        // layout format, as the interpreter's decoder does: records in `arena`, strings in
        // the arena or the input.
        Ok(unsafe {
            Decoded::from_parts(
                arena,
                root,
                shape,
                Arc::clone(layout),
                options.big_ints,
                input,
            )
        })
    }

    /// Compiles the encode tier now unless it is built (callers racing here wait for the
    /// one compiling); `Err` when it could not be made, and encode then walks its plan.
    pub fn compile_encode(&self) -> Result<(), CompileError> {
        self.encode_tier().map(|_| ()).map_err(Clone::clone)
    }

    /// The encode tier's state: `None` until it is built (by [`NativeCode::compile_encode`]
    /// or the first [`NativeCode::encode`]), then whether it could be made.
    pub fn encode_status(&self) -> Option<Result<(), &CompileError>> {
        (self.encode.get()).map(|tier| tier.as_ref().map(|_| ()))
    }

    /// The encode tier, built on first use.
    fn encode_tier(&self) -> Result<&Option<EncodeCode>, &CompileError> {
        self.encode
            .get_or_init(|| encode::compile(&self.program, self.size_limit))
            .as_ref()
    }

    /// Appends the compact JSON of the decoded value `root` to `out`: exactly the bytes
    /// `plan` writes (its escape mode; `big` is the policy the document was read with),
    /// written by the encode tier's functions; true when they wrote it. The first call
    /// compiles the encode tier unless [`NativeCode::compile_encode`] did. `plan` writes the
    /// value (false) when the tier could not be made, when `root` is not a document root of
    /// this program's layout, or when a deep document reaches the native stack budget.
    pub fn encode(
        &self,
        plan: &EncodePlan,
        root: View<'_>,
        big: BigInts,
        out: &mut Vec<u8>,
    ) -> bool {
        let native = match self.encode_tier() {
            Ok(Some(code)) => code.encode(plan.mode(), root, big, out),
            Ok(None) | Err(_) => false,
        };
        if !native {
            plan.encode(root, big, out);
        }
        native
    }

    /// The failure a run that returned an error status recorded (a helper's caught panic
    /// is resumed).
    fn failure(&self, ctx: &mut Ctx) -> Failure {
        if let Some(payload) = ctx.panic.take() {
            resume_unwind(payload);
        }
        let e = ctx.err;
        let kind = fail::decode(e.class, e.a, e.b)
            .unwrap_or_else(|| panic!("native code failed without a kind ({e:?})"));
        Failure {
            kind,
            offset: e.offset as usize,
            path: ctx.path(),
        }
    }

    /// The program this code was compiled from.
    pub fn program(&self) -> &Program {
        &self.program
    }
}

/// The lowest stack address a run started from the caller's frame may reach: the caller's
/// frame (this function is inlined into it) less [`STACK_BUDGET`].
#[inline(always)]
pub(crate) fn stack_limit() -> usize {
    let marker = 0u8;
    let here = std::hint::black_box(&marker) as *const u8 as usize;
    here.saturating_sub(STACK_BUDGET)
}

//! [`NativeCode`]: the compiled form of one program. It owns its `JITModule` (one per
//! program, finalized once, freed in `Drop` with `free_memory`); the entry point is
//! reachable only through it.

use std::panic::resume_unwind;
use std::sync::Mutex;

use cranelift_codegen::CodegenError;
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Module, ModuleError, default_libcall_names};
use jitson_kernels::ffi::FfiResult;

use super::ctx::{Ctx, Scratch};
use super::error::CompileError;
use super::fail;
use super::helpers::{Callee, callee};
use super::isa::isa;
use super::lower;
use crate::interp;
use crate::ir::{ExecOptions, Failure, Program};

/// The stack generated code may use below the run's entry; past it the run bails out to
/// the interpreter (deep input with a large `max_depth` can never overflow the stack).
const STACK_BUDGET: usize = 256 * 1024;

/// The entry point: `(ctx, pos) -> (status, pos)`.
type EntryFn = unsafe extern "C" fn(*mut Ctx, u64) -> FfiResult;

/// Native code for one [`Program`]: validates exactly as [`interp::validate`] does, errors
/// included.
pub struct NativeCode {
    /// The module holding the code; `None` only while dropping.
    module: Mutex<Option<JITModule>>,
    entry: EntryFn,
    program: Program,
    functions: usize,
}

impl std::fmt::Debug for NativeCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeCode")
            .field("functions", &self.functions)
            .finish_non_exhaustive()
    }
}

/// A fresh module on the shared ISA that knows every callee's address.
fn new_module() -> Result<JITModule, CompileError> {
    let mut builder = JITBuilder::with_isa(isa()?, default_libcall_names());
    for c in Callee::ALL {
        let h = callee(c);
        builder.symbol(h.name, h.addr);
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

/// Declares, lowers and defines every function of `program` in `module`.
fn define_all(
    module: &mut JITModule,
    program: &Program,
) -> Result<Vec<cranelift_module::FuncId>, CompileError> {
    let decls = lower::declare(module, program)?;
    let mut ctx = module.make_context();
    let mut fbc = FunctionBuilderContext::new();
    for i in 0..program.funcs.len() {
        lower::lower(module, &decls, program, i, &mut ctx.func, &mut fbc);
        module
            .define_function(decls.funcs[i], &mut ctx)
            .map_err(|e| function_error(program, i, e))?;
        module.clear_context(&mut ctx);
    }
    Ok(decls.funcs)
}

/// Compiles `program` to native code (one module, finalized once).
pub fn compile(program: &Program) -> Result<NativeCode, CompileError> {
    program.verify().map_err(CompileError::InvalidProgram)?;
    let mut module = new_module()?;
    let funcs = match define_all(&mut module, program) {
        Ok(funcs) => funcs,
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
    let ptr = module.get_finalized_function(funcs[program.entry as usize]);
    // SAFETY: the entry was defined with the codec signature `(i64, i64) -> (i64, i64)`
    // (SystemV), which is `EntryFn`'s ABI (two integer returns in RAX:RDX = `FfiResult`).
    let entry = unsafe { std::mem::transmute::<*const u8, EntryFn>(ptr) };
    Ok(NativeCode {
        module: Mutex::new(Some(module)),
        entry,
        program: program.clone(),
        functions: funcs.len(),
    })
}

/// The Cranelift IR of every function of `program`, as text (what `compile` would
/// compile, before optimization).
pub fn clif(program: &Program) -> Result<String, CompileError> {
    program.verify().map_err(CompileError::InvalidProgram)?;
    let mut module = new_module()?;
    let listing = lower::declare(&mut module, program).map(|decls| {
        let mut ctx = module.make_context();
        let mut fbc = FunctionBuilderContext::new();
        let mut out = String::new();
        for (i, f) in program.funcs.iter().enumerate() {
            lower::lower(&mut module, &decls, program, i, &mut ctx.func, &mut fbc);
            out.push_str(&format!("; f{i}: {}\n{}\n", f.name, ctx.func.display()));
            module.clear_context(&mut ctx);
        }
        out
    });
    // SAFETY: nothing was defined, so no code exists that could run.
    unsafe { module.free_memory() };
    listing
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
        let marker = 0u8;
        let here = std::hint::black_box(&marker) as *const u8 as usize;
        let mut ctx = Ctx::new(
            &self.program,
            input,
            options,
            scratch,
            here.saturating_sub(STACK_BUDGET),
        );
        // SAFETY: the module is alive as long as `self`; the context is valid for the whole
        // call and points at live borrows of the program, input and scratch.
        let result = unsafe { (self.entry)(&mut ctx, 0) };
        let failure = match result.status as i64 {
            fail::OK => return Ok(()),
            fail::BAIL => None,
            _ => {
                if let Some(payload) = ctx.panic.take() {
                    resume_unwind(payload);
                }
                let e = ctx.err;
                let kind = fail::decode(e.class, e.a, e.b)
                    .unwrap_or_else(|| panic!("native code failed without a kind ({e:?})"));
                Some(Failure {
                    kind,
                    offset: e.offset as usize,
                    path: ctx.path(),
                })
            }
        };
        match failure {
            Some(f) => Err(f),
            None => interp::validate(&self.program, input, options, &mut scratch.interp),
        }
    }

    /// The program this code was compiled from.
    pub fn program(&self) -> &Program {
        &self.program
    }
}

impl Drop for NativeCode {
    fn drop(&mut self) {
        let slot = self.module.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(module) = slot.take() {
            // SAFETY: `&mut self` proves no run is inside the code, and the entry pointer
            // dies with `self`.
            unsafe { module.free_memory() };
        }
    }
}

//! Machine code for a module's lowered functions, several compiled at once: a module's IR
//! is built first (on the caller's thread: building needs the module), then Cranelift
//! compiles the functions on up to [`MAX_THREADS`] threads (the caller's among them, the
//! largest functions first), and the caller defines the results in the module in order.
//! Cranelift's part (register allocation, instruction selection, emission) is over four
//! fifths of a compile and each function's is independent, so a program of several
//! functions compiles in a fraction of the time. While the IR is built each function is
//! charged to the tier's [`SizeBudget`], which stops a tier too large to compile.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::Function;
use cranelift_codegen::isa::TargetIsa;
use cranelift_codegen::{CodegenError, Context};
use cranelift_module::{FuncId, ModuleReloc};

use super::error::{CodeTier, CompileError};

/// The most threads one compile uses (the caller's included): a compile runs beside the
/// work it serves (an engine's background worker, a service's start-up), so it takes a
/// few cores, not all of them.
pub(crate) const MAX_THREADS: usize = 4;

/// One function's machine code, ready for `Module::define_function_bytes`.
pub(crate) struct MachineCode {
    /// The code's required alignment.
    pub align: u64,
    pub bytes: Vec<u8>,
    pub relocs: Vec<ModuleReloc>,
}

/// The Cranelift IR instructions one tier may still lower: each function is charged as it is
/// lowered, before any is compiled, so a tier over the limit costs no more than lowering
/// the limit's worth (lowering is under a tenth of a compile) and holds no more IR.
pub(crate) struct SizeBudget {
    tier: CodeTier,
    limit: usize,
    used: usize,
}

impl SizeBudget {
    /// `limit` instructions for `tier`.
    pub(crate) fn new(tier: CodeTier, limit: usize) -> SizeBudget {
        SizeBudget {
            tier,
            limit,
            used: 0,
        }
    }

    /// Charges `func`'s instructions; [`CompileError::TooLarge`] once the tier's pass the
    /// limit.
    pub(crate) fn charge(&mut self, func: &Function) -> Result<(), CompileError> {
        self.used = self.used.saturating_add(func.dfg.num_insts());
        if self.used > self.limit {
            return Err(CompileError::TooLarge {
                tier: self.tier,
                limit: self.limit,
            });
        }
        Ok(())
    }
}

/// Below this many CLIF instructions in all, one thread compiles everything: starting and
/// joining a thread took 130–210 µs on the 2-vCPU test machine, what compiling about a
/// hundred instructions takes (~1.8 µs each), so a smaller split gains nothing.
const MIN_PARALLEL_INSTS: usize = 256;

/// How many threads compile `funcs`: one per function up to the machine's parallelism
/// and [`MAX_THREADS`], one for a small program.
pub(crate) fn threads_for(funcs: &[(FuncId, Function)]) -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    let insts: usize = funcs.iter().map(|(_, f)| f.dfg.num_insts()).sum();
    if insts < MIN_PARALLEL_INSTS {
        return 1;
    }
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    cores.min(MAX_THREADS).min(funcs.len()).max(1)
}

/// Compiles every `(id, function)` on `threads` threads; the results are in `funcs`'
/// order, each the machine code or the function's error.
pub(crate) fn compile_all(
    isa: &dyn TargetIsa,
    funcs: Vec<(FuncId, Function)>,
    threads: usize,
) -> Vec<Result<MachineCode, CodegenError>> {
    // Largest first, so that no thread starts a big function last.
    let mut order: Vec<usize> = (0..funcs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(funcs[i].1.dfg.num_insts()));
    let jobs: Vec<Mutex<Option<(FuncId, Function)>>> =
        funcs.into_iter().map(|f| Mutex::new(Some(f))).collect();
    let results: Vec<Mutex<Option<Result<MachineCode, CodegenError>>>> =
        jobs.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let work = || {
        let mut ctx = Context::new();
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            let (id, func) = take(&jobs[i]).expect("each job is taken once");
            ctx.clear();
            ctx.func = func;
            let result = compile_one(isa, &mut ctx, id);
            *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        }
    };
    if threads <= 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 1..threads {
                // A thread that cannot be made (a process at its limit) leaves its share
                // to the others: the caller's thread alone finishes every job.
                if std::thread::Builder::new()
                    .name("jitson-compile".into())
                    .spawn_scoped(s, work)
                    .is_err()
                {
                    break;
                }
            }
            work();
        });
    }
    results
        .into_iter()
        .map(|r| take(&r).expect("every job ran"))
        .collect()
}

/// Takes the value out of `slot` (a poisoned lock still holds it: the panic is
/// re-raised by the scope).
fn take<T>(slot: &Mutex<Option<T>>) -> Option<T> {
    slot.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// Compiles `ctx.func` (function `id`) to machine code.
fn compile_one(
    isa: &dyn TargetIsa,
    ctx: &mut Context,
    id: FuncId,
) -> Result<MachineCode, CodegenError> {
    ctx.compile(isa, &mut ControlPlane::default())
        .map_err(|e| e.inner)?;
    let code = ctx.compiled_code().expect("compiled just now");
    let align = u64::from(code.buffer.alignment);
    let bytes = code.code_buffer().to_vec();
    let relocs = (code.buffer.relocs().iter())
        .map(|r| ModuleReloc::from_mach_reloc(r, &ctx.func, id))
        .collect();
    Ok(MachineCode {
        align,
        bytes,
        relocs,
    })
}

#[cfg(test)]
mod tests {
    use cranelift_codegen::ir::types::I64;
    use cranelift_codegen::ir::{AbiParam, InstBuilder, Signature, UserFuncName};
    use cranelift_codegen::isa::CallConv;
    use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

    use super::*;
    use crate::native::isa::isa;

    /// `fn(x) -> x · c₁ · c₂ · … · cₙ` (`cₖ = k · 0x10001`): a function whose size grows
    /// with `n` and whose code differs for every `n`.
    fn sum_function(isa: &dyn TargetIsa, n: i64) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(I64));
        sig.returns.push(AbiParam::new(I64));
        let mut func = Function::with_name_signature(UserFuncName::default(), sig);
        let mut fbc = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut func, &mut fbc);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let mut v = b.block_params(entry)[0];
        for k in 1..=n {
            let c = b.ins().iconst(I64, k * 0x1_0001);
            v = b.ins().imul(v, c);
        }
        b.ins().return_(&[v]);
        b.seal_all_blocks();
        b.finalize(isa.frontend_config());
        func
    }

    /// Functions of different sizes, in an order that is not largest first.
    fn jobs(isa: &dyn TargetIsa) -> Vec<(FuncId, Function)> {
        [3, 40, 1, 25, 7, 60, 2]
            .into_iter()
            .enumerate()
            .map(|(i, n)| (FuncId::from_u32(i as u32), sum_function(isa, n)))
            .collect()
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "Cranelift compiles slowly under Miri; machine.rs has no unsafe"
    )]
    fn results_follow_the_input_order_on_any_number_of_threads() {
        let isa = isa().expect("host ISA");
        // Each function compiled alone: its code, whatever the order of work.
        let alone: Vec<Vec<u8>> = (jobs(&*isa).into_iter())
            .map(|job| {
                let mut r = compile_all(&*isa, vec![job], 1);
                r.pop().expect("one result").expect("compiles").bytes
            })
            .collect();
        // Every function's code differs (its constants do), so a result in the wrong
        // place shows.
        for (i, a) in alone.iter().enumerate() {
            assert!(
                alone[..i].iter().all(|b| b != a),
                "function {i} is not unique"
            );
        }
        for threads in [1, 2, 3, MAX_THREADS] {
            let many: Vec<Vec<u8>> = compile_all(&*isa, jobs(&*isa), threads)
                .into_iter()
                .map(|r| r.expect("compiles").bytes)
                .collect();
            assert_eq!(many, alone, "{threads} threads");
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "needs the host ISA, which Miri's CPU (no SSSE3) cannot have; machine.rs has no unsafe"
    )]
    fn threads_stay_within_the_functions_and_the_cap() {
        let isa = isa().expect("host ISA");
        assert_eq!(threads_for(&[]), 1);
        let big = |n: usize| -> Vec<(FuncId, Function)> {
            (0..n)
                .map(|i| (FuncId::from_u32(i as u32), sum_function(&*isa, 200)))
                .collect()
        };
        assert_eq!(threads_for(&big(1)), 1);
        assert!(threads_for(&big(2)) <= 2);
        assert!(threads_for(&big(10)) <= MAX_THREADS);
        // A small program stays on one thread however many functions it has.
        assert_eq!(threads_for(&jobs(&*isa)[..3]), 1);
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "needs the host ISA, which Miri's CPU (no SSSE3) cannot have; machine.rs has no unsafe"
    )]
    fn a_budget_takes_functions_up_to_its_limit_exactly() {
        let isa = isa().expect("host ISA");
        // `sum_function(n)` is 2n + 1 instructions: n constants, n products, a return.
        let (ten, five, one) = (
            sum_function(&*isa, 10),
            sum_function(&*isa, 5),
            sum_function(&*isa, 0),
        );
        assert_eq!(ten.dfg.num_insts(), 21);
        let mut budget = SizeBudget::new(CodeTier::Decode, 32);
        assert_eq!(budget.charge(&ten), Ok(()));
        assert_eq!(budget.charge(&five), Ok(()), "32 of 32");
        let over = CompileError::TooLarge {
            tier: CodeTier::Decode,
            limit: 32,
        };
        assert_eq!(budget.charge(&one), Err(over.clone()));
        assert_eq!(
            over.to_string(),
            "the decode code is over the native size limit of 32 Cranelift instructions"
        );
        let mut none = SizeBudget::new(CodeTier::Encode, 0);
        assert!(none.charge(&one).is_err(), "a limit of 0 takes nothing");
    }
}

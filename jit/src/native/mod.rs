//! The Cranelift backend: native code for a [`Program`](crate::ir::Program)'s validate
//! operation, identical to the interpreter in every result and error (kind, offset, path).
//!
//! - [`compile`] lowers each [`Func`](crate::ir::Func) to one Cranelift function
//!   `fn(ctx, pos) -> (status, pos)` in one `JITModule` per program ([`NativeCode`] owns it
//!   and frees it on drop); [`clif`] prints the IR.
//! - Byte loops run in the kernels' `extern "C"` entry points; the checks not inlined run
//!   the interpreter's own code through `extern "C"` helpers that catch panics.
//! - A `Try` is a call whose violation status makes the caller restore cursor, depth and
//!   path and branch: nothing unwinds across native frames. Depth lives in the context;
//!   native stack use is bounded too (past a budget the run is redone on the interpreter).
//! - Collect-all mode ([`crate::interp::validate_all`]) stays interpreter-only.

mod code;
mod ctx;
mod decode;
mod error;
mod fail;
mod helpers;
mod isa;
mod lower;

pub use code::{NativeCode, clif, compile};
pub use ctx::Scratch;
pub use error::CompileError;

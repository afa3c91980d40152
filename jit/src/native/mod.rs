//! The Cranelift backend: native code for a [`Program`](crate::ir::Program)'s validate and
//! decode operations, identical to the interpreter in every result and error (kind,
//! offset, path) and, for decode, in the records written; and native code that encodes
//! what decode wrote, byte for byte as the [encode plan](crate::encode::EncodePlan) does.
//!
//! - [`compile`] lowers each [`Func`](crate::ir::Func) to a Cranelift function
//!   `fn(ctx, pos) -> (status, pos)` that validates and, for the functions decode runs with
//!   a destination, one `fn(ctx, pos, dst) -> (status, pos)` that decodes into `dst`. The
//!   validate functions are one `JITModule`, compiled by [`compile`]; the decode functions
//!   another, compiled on demand ([`NativeCode::compile_decode`] or the first decode);
//!   [`NativeCode`] owns every tier's module and frees them on drop. A module's functions are lowered on
//!   the caller's thread and compiled to machine code on several (`machine.rs`). [`clif`]
//!   prints the IR. See `lower/decode.rs` for what decode lowers and what it leaves to
//!   the interpreter's code (checked strings, enumerations, the number reader).
//! - The encode tier (`encode/`, [`NativeCode::compile_encode`] or the first encode) writes
//!   decoded documents: one function per container shape of the layout, the plan's exact
//!   bytes, keys and brackets stored inline, numbers and strings through helpers.
//! - Byte loops run in the kernels' `extern "C"` entry points; the checks not inlined run
//!   the interpreter's own code through `extern "C"` helpers that catch panics.
//! - A `Try` is a call whose violation status makes the caller restore cursor, depth and
//!   path and branch: nothing unwinds across native frames. Depth lives in the context;
//!   native stack use is bounded too (past a budget the run is redone on the interpreter).
//! - Collect-all mode ([`crate::interp::validate_all`]) stays interpreter-only.

mod code;
mod ctx;
mod decode;
mod encode;
mod error;
mod fail;
mod fast;
mod helpers;
mod isa;
mod lower;
mod machine;
mod remember;

pub use code::{DEFAULT_SIZE_LIMIT, NativeCode, clif, compile, compile_within};
pub use ctx::Scratch;
pub use error::{CodeTier, CompileError};

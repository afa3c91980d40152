//! jitson's execution layer: the opcode IR ([`ir`], where every op is documented), the
//! decoded memory format ([`layout`]) and its safe read-only views ([`view`]), the portable
//! interpreter ([`interp`]: validate, decode, transcode), the Cranelift backend ([`native`]:
//! validate, decode; the default `native` feature), the encoder over the layout
//! ([`encode`]) and the link table between generated code and the byte kernels
//! ([`symbols`]). It knows JSON, not any schema language: producers (the facade's
//! resolver) lower schemas to [`ir::Program`]s.

// Without the backend, the interpreter's entry points for single ops that native code calls
// back into are unused; the default build (CI's clippy) still reports dead code.
#![cfg_attr(not(feature = "native"), allow(dead_code, unused_imports))]

pub mod encode;
pub mod interp;
pub mod ir;
pub mod layout;
#[cfg(feature = "native")]
pub mod native;
mod number;
pub mod symbols;
pub mod view;

pub use interp::{Decoded, Scratch, decode, validate, validate_all};
pub use ir::{ExecOptions, FailKind, Failure, Program};
pub use number::{cmp_int_float, read_number};

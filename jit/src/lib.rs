//! jitson's execution layer: the opcode IR ([`ir`], where every op is documented), the
//! portable interpreter ([`interp`]), the Cranelift backend ([`native`]) and the link table between generated code and the byte
//! kernels ([`symbols`]). It knows JSON, not any schema language: producers (the facade's
//! resolver) lower schemas to [`ir::Program`]s.

pub mod interp;
pub mod ir;
pub mod native;
mod number;
pub mod symbols;

pub use interp::{Scratch, validate, validate_all};
pub use ir::{ExecOptions, FailKind, Failure, Program};
pub use number::cmp_int_float;

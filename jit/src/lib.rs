//! jitson's execution layer: the opcode IR ([`ir`], where every op is documented), the
//! decoded memory format ([`layout`]) and its safe read-only views ([`view`]), the portable
//! interpreter ([`interp`]: validate, decode, transcode), the plan of which functions' runs
//! validation remembers ([`recall`]), the Cranelift backend (the
//! `native` module, present with the default `native` feature: validate, decode), the
//! encoder over the layout ([`encode`]) and the link table between generated code and the
//! byte kernels ([`symbols`]). It knows JSON, not any schema language: producers (the
//! facade's resolver) lower schemas to [`ir::Program`]s.

pub mod encode;
pub mod interp;
pub mod ir;
pub mod layout;
#[cfg(feature = "native")]
pub mod native;
mod number;
pub mod recall;
pub mod symbols;
pub mod view;

pub use interp::{Decoded, Scratch, decode, validate, validate_all};
pub use ir::{ExecOptions, FailKind, Failure, Program};
pub use number::{check_skipped_numbers, cmp_int_float, read_number};

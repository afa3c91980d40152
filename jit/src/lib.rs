//! jitson's execution layer: the opcode IR, the interpreter and the Cranelift backend.
//!
//! Today it holds the link table between generated code and the byte kernels; the opcode set,
//! the interpreter and the Cranelift lowering build on it.

pub mod symbols;

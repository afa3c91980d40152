//! The fuzz targets' bodies: one plain function per target, called by the libFuzzer binaries
//! (`fuzz/fuzz_targets/*.rs`, nightly) and by the stable smoke run (`tests/fuzz/smoke.rs`,
//! which includes this module by path), so both check exactly the same oracles.
//!
//! Each body takes arbitrary bytes and panics, with the input in the message, when an oracle
//! disagrees; anything else (a rejected input, a schema that fails to load) is a normal
//! return. Inputs are never trusted: a body must itself be safe on any bytes.

pub mod kernels;
mod oracle;
pub mod parse;
pub mod roundtrip;
pub mod schema_decode;
pub mod schema_gen;
pub mod schema_validate;
pub mod typed;
pub mod yaml;

/// A target's body: checks one input, panicking on a disagreement.
pub type Body = fn(&[u8]);

/// The targets by name, for drivers that run every body (the smoke test, reproducers).
pub const TARGETS: &[(&str, Body)] = &[
    ("kernels", kernels::run),
    ("parse", parse::run),
    ("roundtrip", roundtrip::run),
    ("schema_validate", schema_validate::run),
    ("schema_decode", schema_decode::run),
    ("schema_gen", schema_gen::run),
    ("typed", typed::run),
    ("yaml", yaml::run),
];

//! Rust types through `#[derive(jitson::Schema)]`, in one test binary (the corpus types and
//! their derived code compile and link once): `derive_schema` checks the derived schemas
//! against serde, `decode` and `one_pass` typed decode, `encode` typed encode, `alias`
//! `#[serde(alias)]` end to end, `parity` field types and attributes against serde_json.

#[path = "../engine_support/mod.rs"]
mod engine_support;
#[path = "../../kernels/tests/common/rng.rs"]
mod rng;
#[path = "../typed_support/mod.rs"]
mod typed_support;

mod alias;
mod decode;
mod derive_schema;
mod encode;
mod one_pass;
mod parity;

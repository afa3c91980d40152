//! Rust types for the corpus documents, deriving `Serialize`, `Deserialize` and
//! `jitson::Schema` together: the derive tests check their schemas, and typed decode /
//! encode tests and benches reuse them.

#![allow(dead_code)]

pub mod as_text;
pub mod book;
pub mod canada;
pub mod citm;
pub mod counted;
pub mod engines;
pub mod twitter;

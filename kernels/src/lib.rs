//! jitson's byte kernels: every byte loop of the engine, each as an AVX2 implementation with a
//! scalar twin that gives identical results.
//!
//! Each kernel module exposes a dispatching function (the one callers use), a `scalar` module
//! and, on x86-64, an `avx2` module whose functions require the features in
//! [`dispatch::AVX2_FEATURES`]. The choice is made once per process at run time
//! ([`dispatch::backend`]), never by compile-time `target-cpu`. Every kernel also has an
//! `extern "C"` entry point with integer and pointer arguments only, for JIT code; they are
//! listed in [`ffi::ENTRY_POINTS`].
//!
//! No kernel reads a byte outside the slice it is given: AVX2 tails are copied into padded
//! stack blocks or finished by the scalar twin, and the test suite places inputs against a guard page to prove it.

pub mod append;
pub mod byte_classes;
pub mod clean_blocks;
pub mod dispatch;
pub mod error;
pub mod escape;
pub mod ffi;
pub mod float_format;
pub mod float_parse;
#[cfg(unix)]
pub mod guard;
pub mod int_format;
pub mod int_parse;
pub mod minify;
pub mod number;
pub mod number_bounds;
pub mod number_parse;
pub mod plain_string;
pub mod reescape;
#[cfg(target_arch = "x86_64")]
mod simd;
mod sink;
pub mod skip;
#[cfg(target_arch = "x86_64")]
mod string_mask;
pub mod string_scan;
mod swar;
pub mod unescape;
pub mod utf8;
pub mod whitespace;

pub use dispatch::{Backend, avx2_supported, backend};
pub use error::{ErrorKind, KernelError};

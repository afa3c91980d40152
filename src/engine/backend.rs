//! Which code runs a codec's `validate`, `decode` and `encode`: the portable interpreter
//! (for encode, the layout's plan walk), or native code that Cranelift compiles from the
//! same program (transcode and collect-all validation check valid inputs on native code, and
//! run invalid ones on the interpreter, as well as transcodes whose unknown members to drop
//! are below an `anyOf` / `oneOf` without a discriminator's tag and those that meet a
//! denied member).
//! A lone codec compiles when made; an
//! [`Engine`](super::Engine)'s codecs get their code in the background ([`super::Tiering`]).

use std::fmt;
use std::sync::Arc;

use jitson_jit::ir::Program;
use jitson_jit::native::{self, CompileError};

use super::Options;
use super::tier::Tier;

/// The backend a [`Codec`](super::Codec) is asked to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The portable interpreter: no compile cost (the default for a lone codec).
    #[default]
    Interpreter,
    /// Native code: validate's compiled when the codec is made, decode's on its first
    /// decode, encode's on its first encode; when it cannot be made (no executable memory,
    /// unsupported CPU, a tier over
    /// [`Options::native_size_limit`](super::Options::native_size_limit)) the codec runs on
    /// the interpreter and [`Codec::backend`](super::Codec::backend) says why.
    Native,
}

/// What a codec's `validate` and `decode` run on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BackendStatus {
    /// The interpreter, as asked.
    Interpreter,
    /// The interpreter, until native code is made: the codec waits for its uses to reach
    /// [`Tiering::LazyAfter`](super::Tiering::LazyAfter), or for its turn on the engine's
    /// compile worker.
    Pending,
    /// The interpreter, while the engine's compile worker makes native code.
    Compiling,
    /// Native code. Its decode and encode tiers are built for a codec that uses them: a
    /// lone codec builds each on its first use; an engine's codec has its compile worker
    /// build each from its first use (or [`Codec::prepare_decode`](super::Codec::prepare_decode)
    /// / [`Codec::prepare_encode`](super::Codec::prepare_encode)) on, and says
    /// `DecodePending` / `EncodePending` meanwhile.
    Native,
    /// Native code validates; decode runs on the interpreter while the engine's compile
    /// worker makes native decode code (asked for by a decode or `prepare_decode`).
    DecodePending,
    /// Native code validates (and decodes, if that tier was asked for); encode walks the
    /// layout's plan while the engine's compile worker makes native encode code (asked for
    /// by an encode or `prepare_encode`).
    EncodePending,
    /// Native code validates; decode runs on the interpreter, because its native code could
    /// not be made.
    DecodeFallback(CompileError),
    /// Native code validates (and decodes); encode walks the layout's plan, because its
    /// native code could not be made.
    EncodeFallback(CompileError),
    /// The interpreter, because native code was asked for but could not be made.
    Fallback(CompileError),
    /// The interpreter, because the engine that was to compile the codec shut down (was
    /// dropped, or could not start a compile thread) first.
    Cancelled,
}

impl fmt::Display for BackendStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendStatus::Interpreter => f.write_str("interpreter"),
            BackendStatus::Pending => f.write_str("interpreter (native code pending)"),
            BackendStatus::Compiling => f.write_str("interpreter (native code compiling)"),
            BackendStatus::Native => f.write_str("native"),
            BackendStatus::DecodePending => {
                f.write_str("native validate, interpreter decode (native decode pending)")
            }
            BackendStatus::EncodePending => {
                f.write_str("native, plan encode (native encode pending)")
            }
            BackendStatus::DecodeFallback(e) => write!(
                f,
                "native validate, interpreter decode (native decode unavailable: {e})"
            ),
            BackendStatus::EncodeFallback(e) => {
                write!(f, "native, plan encode (native encode unavailable: {e})")
            }
            BackendStatus::Fallback(e) => write!(f, "interpreter (native code unavailable: {e})"),
            BackendStatus::Cancelled => f.write_str("interpreter (native compilation cancelled)"),
        }
    }
}

/// The settled tier of a lone codec: native code for `program` (compiled now) when
/// `options` ask for it.
pub(crate) fn prepare(program: &Program, options: &Options) -> Tier {
    match options.backend {
        Backend::Interpreter => Tier::settled(None, BackendStatus::Interpreter),
        Backend::Native => match native::compile_within(program, options.native_size_limit) {
            Ok(code) => Tier::settled(Some(Arc::new(code)), BackendStatus::Native),
            Err(e) => Tier::settled(None, BackendStatus::Fallback(e)),
        },
    }
}

//! Which code runs a codec's `validate`, `decode` and `encode`: the portable interpreter
//! (for encode, the layout's plan walk), or native code that Cranelift compiles from the
//! same program (transcode's rewrite and collect-all validation run on the interpreter). A lone codec compiles when made; an
//! [`Engine`](super::Engine)'s codecs get their code in the background ([`super::Tiering`]).

use std::fmt;
use std::sync::Arc;

use jitson_jit::ir::Program;
use jitson_jit::native::{self, CompileError};

use super::tier::Tier;

/// The backend a [`Codec`](super::Codec) is asked to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The portable interpreter: no compile cost (the default for a lone codec).
    #[default]
    Interpreter,
    /// Native code: validate's compiled when the codec is made, decode's on its first
    /// decode; when it cannot be made (no executable memory, unsupported CPU) the codec runs on the interpreter and
    /// [`Codec::backend`](super::Codec::backend) says why.
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
    /// Native code (a lone codec builds its decode tier on its first decode, its encode
    /// tier on its first encode).
    Native,
    /// Native code validates; decode runs on the interpreter (and encode walks the layout's
    /// plan) while the engine's compile worker makes their native code (the second job).
    DecodePending,
    /// Native code validates and decodes; encode walks the layout's plan while the engine's
    /// compile worker finishes its native code (the second job's last part).
    EncodePending,
    /// Native code validates; decode runs on the interpreter, because its native code could
    /// not be made.
    DecodeFallback(CompileError),
    /// Native code validates and decodes; encode walks the layout's plan, because its native
    /// code could not be made.
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
                f.write_str("native validate and decode, plan encode (native encode pending)")
            }
            BackendStatus::DecodeFallback(e) => write!(
                f,
                "native validate, interpreter decode (native decode unavailable: {e})"
            ),
            BackendStatus::EncodeFallback(e) => write!(
                f,
                "native validate and decode, plan encode (native encode unavailable: {e})"
            ),
            BackendStatus::Fallback(e) => write!(f, "interpreter (native code unavailable: {e})"),
            BackendStatus::Cancelled => f.write_str("interpreter (native compilation cancelled)"),
        }
    }
}

/// The settled tier of a lone codec: native code for `program` (compiled now) when
/// `backend` asks for it.
pub(crate) fn prepare(program: &Program, backend: Backend) -> Tier {
    match backend {
        Backend::Interpreter => Tier::settled(None, BackendStatus::Interpreter),
        Backend::Native => match native::compile(program) {
            Ok(code) => Tier::settled(Some(Arc::new(code)), BackendStatus::Native),
            Err(e) => Tier::settled(None, BackendStatus::Fallback(e)),
        },
    }
}

//! Which code runs a codec's `validate` and `decode`: the portable interpreter, or native
//! code that Cranelift compiles from the same program (encode, transcode and collect-all
//! validation run on the interpreter for now).

use std::fmt;
use std::sync::Arc;

use jitson_jit::ir::Program;
use jitson_jit::native::{self, CompileError, NativeCode};

/// The backend a [`Codec`](super::Codec) is asked to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The portable interpreter: no compile cost (the default for a lone codec).
    #[default]
    Interpreter,
    /// Native code, compiled when the codec is made; when it cannot be made (no executable
    /// memory, unsupported CPU) the codec runs on the interpreter and
    /// [`Codec::backend`](super::Codec::backend) says why.
    Native,
}

/// What a codec's `validate` and `decode` run on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BackendStatus {
    /// The interpreter, as asked.
    Interpreter,
    /// Native code.
    Native,
    /// The interpreter, because native code was asked for but could not be made.
    Fallback(CompileError),
}

impl fmt::Display for BackendStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendStatus::Interpreter => f.write_str("interpreter"),
            BackendStatus::Native => f.write_str("native"),
            BackendStatus::Fallback(e) => write!(f, "interpreter (native code unavailable: {e})"),
        }
    }
}

/// Native code for `program` when `backend` asks for it, and the resulting status.
pub(crate) fn prepare(
    program: &Program,
    backend: Backend,
) -> (Option<Arc<NativeCode>>, BackendStatus) {
    match backend {
        Backend::Interpreter => (None, BackendStatus::Interpreter),
        Backend::Native => match native::compile(program) {
            Ok(code) => (Some(Arc::new(code)), BackendStatus::Native),
            Err(e) => (None, BackendStatus::Fallback(e)),
        },
    }
}

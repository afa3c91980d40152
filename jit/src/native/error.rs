//! Why a program could not be compiled to native code.

use std::fmt;

/// A native compilation failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    /// The host CPU or its features are not supported by Cranelift.
    UnsupportedCpu(String),
    /// The code generator's settings were refused (a bug).
    Settings(String),
    /// The program breaks the IR's invariants ([`crate::ir::Program::verify`]).
    InvalidProgram(String),
    /// Cranelift's verifier rejected the IR of a function (a lowering bug).
    Verifier {
        /// The function's name in the program.
        function: String,
        /// The verifier's report.
        message: String,
    },
    /// Code generation failed for a function.
    Codegen {
        /// The function's name in the program.
        function: String,
        /// What failed.
        message: String,
    },
    /// Executable memory could not be obtained or protected (`mmap`/`mprotect` refused, as
    /// under SELinux `execmem` denial).
    ExecutableMemory(String),
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::UnsupportedCpu(m) => write!(f, "unsupported CPU for native code: {m}"),
            CompileError::Settings(m) => write!(f, "code generator settings refused: {m}"),
            CompileError::InvalidProgram(m) => write!(f, "invalid program: {m}"),
            CompileError::Verifier { function, message } => {
                write!(
                    f,
                    "Cranelift verifier rejected function {function}: {message}"
                )
            }
            CompileError::Codegen { function, message } => {
                write!(
                    f,
                    "code generation failed for function {function}: {message}"
                )
            }
            CompileError::ExecutableMemory(m) => write!(f, "no executable memory: {m}"),
        }
    }
}

impl std::error::Error for CompileError {}

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
    /// One tier's functions lower to more Cranelift IR instructions than the size limit
    /// allows ([`compile_within`](super::compile_within)): compiling them would cost time and
    /// memory out of proportion (about 2–9 µs and 180–850 bytes per instruction), so that
    /// tier stays on the interpreter.
    TooLarge {
        /// The tier that was being compiled.
        tier: CodeTier,
        /// The limit, in Cranelift IR instructions, that its functions passed.
        limit: usize,
    },
}

/// One of a program's native tiers, each its own module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeTier {
    /// The validate functions, compiled first.
    Validate,
    /// The decode functions, compiled on the first decode.
    Decode,
    /// The encode functions, compiled on the first encode.
    Encode,
}

impl fmt::Display for CodeTier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CodeTier::Validate => "validate",
            CodeTier::Decode => "decode",
            CodeTier::Encode => "encode",
        })
    }
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
            CompileError::TooLarge { tier, limit } => write!(
                f,
                "the {tier} code is over the native size limit of {limit} Cranelift instructions"
            ),
        }
    }
}

impl std::error::Error for CompileError {}

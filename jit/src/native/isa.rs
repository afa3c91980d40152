//! The one target ISA every native module shares: the host's (`cranelift_native`),
//! `opt_level=speed`, frame pointers kept, the verifier on in debug builds and tests.

use std::sync::OnceLock;

use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};

use super::error::CompileError;

/// The shared ISA, built on first use.
pub(crate) fn isa() -> Result<OwnedTargetIsa, CompileError> {
    static ISA: OnceLock<Result<OwnedTargetIsa, CompileError>> = OnceLock::new();
    ISA.get_or_init(build).clone()
}

fn build() -> Result<OwnedTargetIsa, CompileError> {
    let mut flags = settings::builder();
    let verifier = if cfg!(debug_assertions) {
        "true"
    } else {
        "false"
    };
    for (name, value) in [
        ("opt_level", "speed"),
        ("enable_verifier", verifier),
        ("preserve_frame_pointers", "true"),
        ("use_colocated_libcalls", "false"),
        ("is_pic", "false"),
    ] {
        flags
            .set(name, value)
            .map_err(|e| CompileError::Settings(format!("{name}={value}: {e}")))?;
    }
    let builder =
        cranelift_native::builder().map_err(|e| CompileError::UnsupportedCpu(e.to_string()))?;
    builder
        .finish(settings::Flags::new(flags))
        .map_err(|e| CompileError::UnsupportedCpu(e.to_string()))
}

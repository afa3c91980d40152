//! The target ISA native modules share: the host's (`cranelift_native`), frame pointers
//! kept, the verifier on in debug builds and tests, `opt_level=none` for both tiers. The
//! validate tier, which a codec waits for, compiles about a quarter faster than at
//! `opt_level=speed` with the same validate speed; decode, since it loads the input from
//! the context and its vector constants from the pool, is as fast or faster at `none` (the
//! egraph's hoisting kept constants live across helper calls, spilled) and compiles 15–25 %
//! faster. On x86-64 native code needs SSSE3 (a CPU without it gets
//! [`CompileError::UnsupportedCpu`], and the engine its interpreter).

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
        ("opt_level", "none"),
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
    let isa = builder
        .finish(settings::Flags::new(flags))
        .map_err(|e| CompileError::UnsupportedCpu(e.to_string()))?;
    // The whitespace window is a byte shuffle (`swizzle`), which x86-64 (the host, here)
    // lowers to SSSE3's `pshufb`; without it Cranelift would call a libcall that no module
    // provides.
    if cfg!(target_arch = "x86_64") && !isa.has_x86_pshufb_lowering() {
        return Err(CompileError::UnsupportedCpu(
            "x86-64 without SSSE3 (native code shuffles bytes with pshufb)".into(),
        ));
    }
    Ok(isa)
}

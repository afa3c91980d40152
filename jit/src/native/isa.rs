//! The target ISAs native modules share: the host's (`cranelift_native`), frame pointers
//! kept, the verifier on in debug builds and tests. The validate tier, which a codec waits
//! for, is compiled at `opt_level=none` (about a quarter less compile time, the same
//! validate speed within the noise of the measurements); the decode tier, compiled in the
//! background, at `opt_level=speed` (decode was measurably slower without it). On x86-64
//! native code needs SSSE3 (a CPU without it gets [`CompileError::UnsupportedCpu`], and
//! the engine its interpreter).

use std::sync::OnceLock;

use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};

use super::error::CompileError;
use super::lower::Half;

/// The shared ISA for compiling `half`, built on first use.
pub(crate) fn isa(half: Half) -> Result<OwnedTargetIsa, CompileError> {
    type Slot = OnceLock<Result<OwnedTargetIsa, CompileError>>;
    static VALIDATE: Slot = OnceLock::new();
    static DECODE: Slot = OnceLock::new();
    match half {
        Half::Validate => VALIDATE.get_or_init(|| build("none")),
        Half::Decode => DECODE.get_or_init(|| build("speed")),
    }
    .clone()
}

fn build(opt_level: &str) -> Result<OwnedTargetIsa, CompileError> {
    let mut flags = settings::builder();
    let verifier = if cfg!(debug_assertions) {
        "true"
    } else {
        "false"
    };
    for (name, value) in [
        ("opt_level", opt_level),
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

//! Run-time CPU feature detection: picks the AVX2 kernels or their scalar twins once per
//! process.
//!
//! The AVX2 kernels are compiled with `#[target_feature]` and are only ever called after
//! [`avx2_supported`] said yes, so a binary built on one machine runs correctly on any x86-64
//! (and on other architectures, where only the scalar twins exist). Setting the environment
//! variable `JITSON_KERNELS=scalar` before the first kernel call forces the scalar twins; the
//! test suite uses it to run every higher layer on both families.

use std::sync::atomic::{AtomicU8, Ordering};

/// Which implementation family the dispatching kernel functions use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Portable scalar (and SWAR) code: runs everywhere, and under Miri.
    Scalar,
    /// AVX2 code; chosen only when every feature in [`AVX2_FEATURES`] is present.
    Avx2,
}

/// The CPU features every AVX2 kernel may use; all must be present for [`Backend::Avx2`].
pub const AVX2_FEATURES: &str = "avx2,bmi1,bmi2,popcnt,pclmulqdq";

const UNKNOWN: u8 = 0;
const SCALAR: u8 = 1;
const AVX2: u8 = 2;

static SELECTED: AtomicU8 = AtomicU8::new(UNKNOWN);

/// True when this CPU has every feature the AVX2 kernels use ([`AVX2_FEATURES`]).
pub fn avx2_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("pclmulqdq")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The backend the dispatching kernel functions use in this process.
///
/// Decided on first use: AVX2 when [`avx2_supported`] and `JITSON_KERNELS` is not `scalar`.
#[inline]
pub fn backend() -> Backend {
    match SELECTED.load(Ordering::Relaxed) {
        SCALAR => Backend::Scalar,
        AVX2 => Backend::Avx2,
        _ => select(),
    }
}

#[cold]
fn select() -> Backend {
    let forced_scalar = std::env::var_os("JITSON_KERNELS").is_some_and(|v| v == "scalar");
    let chosen = if !forced_scalar && avx2_supported() {
        Backend::Avx2
    } else {
        Backend::Scalar
    };
    let code = match chosen {
        Backend::Scalar => SCALAR,
        Backend::Avx2 => AVX2,
    };
    SELECTED.store(code, Ordering::Relaxed);
    chosen
}

/// True when the dispatching functions should call the AVX2 kernels.
#[inline]
pub(crate) fn use_avx2() -> bool {
    backend() == Backend::Avx2
}

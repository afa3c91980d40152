//! The fuzz targets' bodies on the stable toolchain, in one test binary (the bodies and the
//! library compile and link once): `smoke` runs every body over the seeds and deterministic
//! mutations, `regressions` holds one test per fuzz finding.

// The bodies the libFuzzer binaries run (fuzz/src/bodies): the very same functions.
#[path = "../../fuzz/src/bodies/mod.rs"]
mod bodies;
// The workspace's one deterministic test generator, so every run sees the same inputs.
#[path = "../../kernels/tests/common/rng.rs"]
mod rng;

mod regressions;
mod smoke;

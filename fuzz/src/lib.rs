//! jitson's fuzz targets: the bodies ([`bodies`]) that the libFuzzer binaries in
//! `fuzz_targets/` run, shared with the stable smoke run in `tests/fuzz/smoke.rs`.

pub mod bodies;

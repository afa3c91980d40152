//! libFuzzer target `kernels`: runs [`jitson_fuzz::bodies::kernels::run`] on each input.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jitson_fuzz::bodies::kernels::run(data));

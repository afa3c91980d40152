//! libFuzzer target `typed`: runs [`jitson_fuzz::bodies::typed::run`] on each input.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jitson_fuzz::bodies::typed::run(data));

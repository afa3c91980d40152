//! libFuzzer target `parse`: runs [`jitson_fuzz::bodies::parse::run`] on each input.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jitson_fuzz::bodies::parse::run(data));

//! libFuzzer target `roundtrip`: runs [`jitson_fuzz::bodies::roundtrip::run`] on each input.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jitson_fuzz::bodies::roundtrip::run(data));

//! libFuzzer target `yaml`: runs [`jitson_fuzz::bodies::yaml::run`] on each input.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jitson_fuzz::bodies::yaml::run(data));

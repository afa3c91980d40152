//! libFuzzer target `schema_gen`: runs [`jitson_fuzz::bodies::schema_gen::run`] on each input.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jitson_fuzz::bodies::schema_gen::run(data));

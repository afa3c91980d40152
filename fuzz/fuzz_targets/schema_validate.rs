//! libFuzzer target `schema_validate`: runs [`jitson_fuzz::bodies::schema_validate::run`] on each input.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jitson_fuzz::bodies::schema_validate::run(data));

//! libFuzzer target `schema_decode`: runs [`jitson_fuzz::bodies::schema_decode::run`] on each input.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jitson_fuzz::bodies::schema_decode::run(data));

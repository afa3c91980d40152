//! Typed (Rust struct) codecs on the corpus, against their peers on the same value in the same
//! run. `DOC/typed_encode`: jitson's derived `JsonEncode` beside `serde_json::to_vec`,
//! `sonic_rs::to_vec` and `simd_json::to_vec` of the struct serde_json decoded from the
//! document (every writer into a fresh `Vec`, as `to_vec` does). MB/s of serde_json's output.
//!
//! One function per operation (`typed_encode`), each running one group per document.
//!
//! `cargo bench --bench typed -- --warm-up-time 1 --measurement-time 3`

#[path = "../tests/typed_support/mod.rs"]
mod typed_support;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jitson::typed::JsonEncode;
use serde::Serialize;
use serde::de::DeserializeOwned;
use typed_support::{book::Book, canada::Canada, citm::CitmCatalog, twitter::Twitter};

fn testdata(path: &str) -> Vec<u8> {
    let full = format!("{}/testdata/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The document `doc` decoded by serde_json into `T`.
fn decoded<T: DeserializeOwned>(doc: &str) -> T {
    let bytes = testdata(&format!("bench/{doc}.json"));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{doc}: {e}"))
}

/// jitson's encode into a fresh vector, as `to_vec` makes one.
fn jitson_to_vec<T: JsonEncode>(value: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    value.encode_json(&mut out);
    out
}

fn typed_encode(c: &mut Criterion) {
    encode_group(c, "twitter", &decoded::<Twitter>("twitter"));
    encode_group(c, "citm_catalog", &decoded::<CitmCatalog>("citm_catalog"));
    encode_group(c, "canada", &decoded::<Canada>("canada"));
    encode_group(c, "book", &decoded::<Book>("book"));
}

fn encode_group<T: Serialize + JsonEncode>(c: &mut Criterion, doc: &str, value: &T) {
    let want = serde_json::to_vec(value).expect("serde_json writes the value");
    assert!(jitson_to_vec(value) == want, "{doc}: jitson's bytes differ");
    let mut group = c.benchmark_group(format!("{doc}/typed_encode"));
    group.throughput(Throughput::Bytes(want.len() as u64));
    group.bench_function("jitson", |b| b.iter(|| jitson_to_vec(black_box(value))));
    group.bench_function("serde_json", |b| {
        b.iter(|| serde_json::to_vec(black_box(value)).expect("encodes"))
    });
    group.bench_function("sonic_rs", |b| {
        b.iter(|| sonic_rs::to_vec(black_box(value)).expect("encodes"))
    });
    group.bench_function("simd_json", |b| {
        b.iter(|| simd_json::to_vec(black_box(value)).expect("encodes"))
    });
    group.finish();
}

criterion_group!(benches, typed_encode);
criterion_main!(benches);

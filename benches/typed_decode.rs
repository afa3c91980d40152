//! Typed decode into the corpus structs (tests/typed_support), against its peers in the same
//! run: jitson's `Engine::decode` on native code and on the interpreter, beside
//! `serde_json::from_slice`, `sonic_rs::from_slice` and `simd_json::serde::from_slice` (the
//! latter on a fresh mutable copy of the input, copied outside the timing) into the same
//! types. Groups `DOC/typed_decode`, MB/s of the input document; and `typed_register`, the
//! time a fresh engine takes to register a type (its native code compiled).
//!
//! `cargo bench --bench typed_decode -- --warm-up-time 1 --measurement-time 3`

#[path = "../tests/typed_support/mod.rs"]
mod typed_support;

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use serde::de::DeserializeOwned;

use jitson::engine::{BackendStatus, Engine, EngineOptions, Tiering};
use jitson::typed::JsonType;
use typed_support::{book::Book, twitter::Twitter};

fn testdata(name: &str) -> Vec<u8> {
    let full = format!("{}/testdata/bench/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// A two-field message: the fixed cost of one typed decode.
#[derive(Debug, PartialEq, serde::Deserialize, jitson::Schema)]
struct Point {
    x: i32,
    y: i32,
}

/// The `DOC/typed_decode` group of one corpus document and its type.
fn typed_decode<T>(c: &mut Criterion, doc: &str)
where
    T: JsonType + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    typed_decode_bytes::<T>(c, doc, testdata(doc));
}

/// The `NAME/typed_decode` group of one input and its type.
fn typed_decode_bytes<T>(c: &mut Criterion, doc: &str, bytes: Vec<u8>)
where
    T: JsonType + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let native = Engine::new();
    assert_eq!(native.register::<T>().backend(), &BackendStatus::Native);
    let interp = Engine::with_options(EngineOptions::new().tiering(Tiering::InterpreterOnly));
    interp.register::<T>();
    let expected: T = serde_json::from_slice(&bytes).expect("serde_json decodes the document");
    assert_eq!(
        native.decode::<T>(&bytes).expect("jitson decodes"),
        expected
    );

    let mut group = c.benchmark_group(format!("{doc}/typed_decode"));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("jitson_native", |b| {
        b.iter(|| native.decode::<T>(black_box(&bytes)).is_ok())
    });
    group.bench_function("jitson_interp", |b| {
        b.iter(|| interp.decode::<T>(black_box(&bytes)).is_ok())
    });
    group.bench_function("serde_json", |b| {
        b.iter(|| serde_json::from_slice::<T>(black_box(&bytes)).is_ok())
    });
    group.bench_function("sonic_rs", |b| {
        b.iter(|| sonic_rs::from_slice::<T>(black_box(&bytes)).is_ok())
    });
    group.bench_function("simd_json", |b| {
        b.iter_batched_ref(
            || bytes.clone(),
            |copy| simd_json::serde::from_slice::<T>(copy).is_ok(),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// `typed_register`: a fresh engine registering the type, native code included (what a
/// service pays per type at start-up).
fn typed_register(c: &mut Criterion) {
    let mut group = c.benchmark_group("typed_register");
    group.sample_size(10);
    group.bench_function("book", |b| {
        b.iter(|| Engine::new().register::<Book>().backend() == &BackendStatus::Native)
    });
    group.bench_function("twitter", |b| {
        b.iter(|| Engine::new().register::<Twitter>().backend() == &BackendStatus::Native)
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    typed_decode::<Twitter>(c, "twitter");
    typed_decode::<Book>(c, "book");
    typed_decode_bytes::<Point>(c, "point", br#"{"x": 1, "y": -2}"#.to_vec());
    typed_register(c);
}

criterion_group!(typed, benches);
criterion_main!(typed);

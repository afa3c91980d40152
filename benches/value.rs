//! The schema-less path: parse a document to a value tree, and write a value tree back to
//! compact JSON. jitson's arena `Value` against `serde_json::Value`, `sonic_rs::Value` and
//! simd-json's borrowed value, on the same documents in the same run.
//!
//! Throughput is the size of the *input document* per second in both groups (the written
//! output is smaller for pretty-printed inputs), so rows compare directly.
//!
//! - jitson parses into an arena that is reset between iterations (how a service reuses
//!   one), so freeing the tree costs nothing; the other trees are dropped each iteration.
//! - simd-json parses in place: each iteration gets a fresh copy of the input, made outside
//!   the timing.
//!
//! ```sh
//! cargo bench --bench value -- --warm-up-time 1 --measurement-time 3
//! ```

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use jitson::value::{self, Bump, WriteOptions};
use simd_json::prelude::Writable;

const DOCUMENTS: [&str; 5] = [
    "twitter",
    "citm_catalog",
    "canada",
    "twitterescaped",
    "book",
];

fn document(name: &str) -> Vec<u8> {
    let path = format!("{}/testdata/bench/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn parse(c: &mut Criterion) {
    for name in DOCUMENTS {
        let input = document(name);
        let mut group = c.benchmark_group(format!("value_parse/{name}"));
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.bench_function("jitson", |b| {
            let mut arena = Bump::new();
            b.iter(|| {
                arena.reset();
                let v = value::parse(black_box(&input), &arena).expect("valid");
                black_box(v);
            })
        });
        group.bench_function("serde_json", |b| {
            b.iter(|| {
                let v: serde_json::Value =
                    serde_json::from_slice(black_box(&input)).expect("valid");
                black_box(v)
            })
        });
        group.bench_function("sonic_rs", |b| {
            b.iter(|| {
                let v: sonic_rs::Value = sonic_rs::from_slice(black_box(&input)).expect("valid");
                black_box(v)
            })
        });
        group.bench_function("simd_json", |b| {
            b.iter_batched_ref(
                || input.clone(),
                |copy| {
                    let v = simd_json::to_borrowed_value(copy).expect("valid");
                    black_box(&v);
                },
                BatchSize::LargeInput,
            )
        });
        group.finish();
    }
}

fn serialize(c: &mut Criterion) {
    for name in DOCUMENTS {
        let input = document(name);
        let mut group = c.benchmark_group(format!("value_serialize/{name}"));
        group.throughput(Throughput::Bytes(input.len() as u64));
        let mut out = Vec::with_capacity(input.len());

        let arena = Bump::new();
        let ours = value::parse(&input, &arena).expect("valid");
        group.bench_function("jitson", |b| {
            b.iter(|| {
                out.clear();
                black_box(&ours).write(&mut out, &WriteOptions::new());
                black_box(out.len())
            })
        });

        let serde: serde_json::Value = serde_json::from_slice(&input).expect("valid");
        group.bench_function("serde_json", |b| {
            b.iter(|| {
                out.clear();
                serde_json::to_writer(&mut out, black_box(&serde)).expect("write");
                black_box(out.len())
            })
        });

        let sonic: sonic_rs::Value = sonic_rs::from_slice(&input).expect("valid");
        group.bench_function("sonic_rs", |b| {
            b.iter(|| {
                out.clear();
                sonic_rs::to_writer(&mut out, black_box(&sonic)).expect("write");
                black_box(out.len())
            })
        });

        let mut copy = input.clone();
        let simd = simd_json::to_borrowed_value(&mut copy).expect("valid");
        group.bench_function("simd_json", |b| {
            b.iter(|| {
                out.clear();
                black_box(&simd).write(&mut out).expect("write");
                black_box(out.len())
            })
        });
        group.finish();
    }
}

criterion_group!(benches, parse, serialize);
criterion_main!(benches);

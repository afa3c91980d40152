//! Value skipping throughput (MB/s) on the corpus documents: the validating skip
//! (`validate_document`) and the unchecked skip, AVX2 and scalar twins, against serde_json's
//! validating skip (`IgnoredAny`), its raw-value capture (`&RawValue`), and `simdutf8` over the
//! same bytes as a speed reference.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use jitson_kernels::skip::{self, DEFAULT_MAX_DEPTH};

const DOCS: [(&str, &[u8]); 4] = [
    (
        "twitter",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/bench/twitter.json"
        )),
    ),
    (
        "citm_catalog",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/bench/citm_catalog.json"
        )),
    ),
    (
        "canada",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/bench/canada.json"
        )),
    ),
    (
        "twitterescaped",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/bench/twitterescaped.json"
        )),
    ),
];

fn skip_benches(c: &mut Criterion) {
    let avx2 = jitson_kernels::avx2_supported();
    for (name, doc) in DOCS {
        // Every contender must succeed on the document, or the numbers mean nothing.
        assert_eq!(skip::validate_document(doc, DEFAULT_MAX_DEPTH), Ok(()));
        assert_eq!(
            skip::skip_value_unchecked(doc, 0),
            skip::skip_value(doc, 0, DEFAULT_MAX_DEPTH)
        );
        assert!(serde_json::from_slice::<serde::de::IgnoredAny>(doc).is_ok());
        let mut g = c.benchmark_group(format!("skip/{name}"));
        g.throughput(Throughput::Bytes(doc.len() as u64));
        let id = |f: &str| BenchmarkId::new(f, doc.len());
        if avx2 {
            g.bench_function(id("validate_avx2"), |b| {
                // SAFETY: AVX2 support was checked.
                b.iter(|| unsafe {
                    skip::avx2::validate_document(black_box(doc), DEFAULT_MAX_DEPTH)
                })
            });
        }
        g.bench_function(id("validate_scalar"), |b| {
            b.iter(|| skip::scalar::validate_document(black_box(doc), DEFAULT_MAX_DEPTH))
        });
        if avx2 {
            g.bench_function(id("unchecked_avx2"), |b| {
                // SAFETY: AVX2 support was checked.
                b.iter(|| unsafe { skip::avx2::skip_value_unchecked(black_box(doc), 0) })
            });
        }
        g.bench_function(id("unchecked_scalar"), |b| {
            b.iter(|| skip::scalar::skip_value_unchecked(black_box(doc), 0))
        });
        g.bench_function(id("serde_json_ignored_any"), |b| {
            b.iter(|| serde_json::from_slice::<serde::de::IgnoredAny>(black_box(doc)).is_ok())
        });
        g.bench_function(id("serde_json_raw_value"), |b| {
            b.iter(|| {
                serde_json::from_slice::<&serde_json::value::RawValue>(black_box(doc)).is_ok()
            })
        });
        g.bench_function(id("simdutf8"), |b| {
            b.iter(|| simdutf8::basic::from_utf8(black_box(doc)).is_ok())
        });
        g.finish();
    }
}

criterion_group!(benches, skip_benches);
criterion_main!(benches);

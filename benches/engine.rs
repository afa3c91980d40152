//! The engine on the corpus, against its peers in the same run: jitson's interpreter and
//! native (Cranelift) `validate` beside `serde_json` `Value` parsing, `serde_json` parsing + `jsonschema`
//! validation, and `sonic-rs` `Value` parsing. MB/s.
//!
//! `cargo bench --bench engine -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jitson::jit::ir::ExecOptions;
use jitson::jit::native;
use jitson::{Cache, Codec, Schema};

const CORPUS: [(&str, &str); 4] = [
    ("twitter", "twitter"),
    ("citm_catalog", "citm_catalog"),
    ("canada", "canada"),
    ("book", "book"),
];

fn testdata(path: &str) -> Vec<u8> {
    let full = format!("{}/testdata/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn engine(c: &mut Criterion) {
    for (doc, schema_name) in CORPUS {
        let bytes = testdata(&format!("bench/{doc}.json"));
        let schema_text = testdata(&format!("schemas/{schema_name}.schema.json"));
        let schema = Schema::from_json_slice(&schema_text).expect("corpus schema");
        let codec = Codec::new(&schema);
        let mut cache = Cache::new();
        assert!(codec.validate_with(&mut cache, &bytes).is_ok(), "{doc}");
        let code = native::compile(codec.program()).expect("native code");
        let mut scratch = native::Scratch::new();
        let exec = ExecOptions::default();
        assert_eq!(code.validate(&bytes, &exec, &mut scratch), Ok(()), "{doc}");
        let schema_value: serde_json::Value = serde_json::from_slice(&schema_text).expect("JSON");
        let reference = jsonschema::validator_for(&schema_value).expect("jsonschema compiles");
        let parsed: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        assert!(reference.is_valid(&parsed), "{doc} under jsonschema");

        let mut group = c.benchmark_group(doc);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("jitson_interp_validate", |b| {
            b.iter(|| codec.validate_with(&mut cache, black_box(&bytes)).is_ok())
        });
        group.bench_function("jitson_native_validate", |b| {
            b.iter(|| {
                code.validate(black_box(&bytes), &exec, &mut scratch)
                    .is_ok()
            })
        });
        group.bench_function("serde_json_value", |b| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(&bytes)).is_ok())
        });
        group.bench_function("serde_json_value+jsonschema", |b| {
            b.iter(|| {
                let v: serde_json::Value = serde_json::from_slice(black_box(&bytes)).expect("JSON");
                reference.is_valid(&v)
            })
        });
        group.bench_function("sonic_rs_value", |b| {
            b.iter(|| sonic_rs::from_slice::<sonic_rs::Value>(black_box(&bytes)).is_ok())
        });
        group.finish();
    }
}

/// Native compile time of the corpus schemas' programs (goal: twitter < 10 ms, book < 1 ms).
fn compile(c: &mut Criterion) {
    let mut group = c.benchmark_group("native_compile");
    for (_, schema_name) in CORPUS {
        let text = testdata(&format!("schemas/{schema_name}.schema.json"));
        let codec = Codec::new(&Schema::from_json_slice(&text).expect("corpus schema"));
        group.bench_function(schema_name, |b| {
            b.iter(|| native::compile(black_box(codec.program())).is_ok())
        });
    }
    group.finish();
}

criterion_group!(benches, engine, compile);
criterion_main!(benches);

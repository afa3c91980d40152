//! Typed (Rust struct) codecs on the corpus, against their peers on the same value in the same
//! run.
//!
//! - `DOC/typed_decode`: jitson's `Engine::decode` in one pass (the derived `JsonDecode`, the
//!   default), and in two passes on native code and on the interpreter, beside
//!   `serde_json::from_slice`, `sonic_rs::from_slice` and `simd_json::serde::from_slice` (the
//!   latter on a fresh mutable copy of the input, copied outside the timing) into the same
//!   types; MB/s of the input. `point/typed_decode` is a two-field message: the fixed
//!   cost of one decode; `untagged/typed_decode` a generated array of records whose id and
//!   value are untagged enums (numbers, strings, `null`, booleans, arrays);
//!   `flattened/typed_decode` one of records with a flattened struct and a flattened map;
//!   `tag_last/typed_decode` one of internally tagged records whose tag member comes last.
//! - `DOC/typed_encode`: jitson's derived `JsonEncode` beside `serde_json::to_vec`,
//!   `sonic_rs::to_vec` and `simd_json::to_vec` of the struct serde_json decoded from the
//!   document (every writer into a fresh `Vec`, as `to_vec` does); MB/s of serde_json's output.
//! - `typed_register`: a fresh engine registering a type (what a service pays per type at
//!   start-up): `one_pass`, the schema and the codec (the default engine compiles the
//!   codec's native code in the background); `native_code`, with two-pass decode, which
//!   waits for the native code too.
//!
//! One function per operation, each running one group per document.
//!
//! `cargo bench --bench typed -- --warm-up-time 1 --measurement-time 3`

#[path = "../tests/typed_support/mod.rs"]
mod typed_support;

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use jitson::engine::{BackendStatus, Engine, EngineOptions, Tiering, TypedDecode};
use jitson::jit::ir::ExecOptions;
use jitson::typed::{JsonDecode, JsonEncode, JsonType, decode};
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

/// A two-field message: the fixed cost of one typed decode.
#[derive(Debug, PartialEq, serde::Deserialize, jitson::Schema)]
struct Point {
    x: i32,
    y: i32,
}

/// A record id: a number or a name.
#[derive(Debug, PartialEq, serde::Deserialize, jitson::Schema)]
#[serde(untagged)]
enum SampleId {
    Number(u64),
    Name(String),
}

/// A measured value, told apart by its JSON kind (and integers from floats).
#[derive(Debug, PartialEq, serde::Deserialize, jitson::Schema)]
#[serde(untagged)]
enum Reading {
    Missing,
    Flag(bool),
    Count(i64),
    Level(f64),
    Note(String),
    Series(Vec<f64>),
}

/// One record of the untagged document.
#[derive(Debug, PartialEq, serde::Deserialize, jitson::Schema)]
struct Sample {
    id: SampleId,
    value: Reading,
}

/// 4 000 [`Sample`]s, every variant of both enums in turn.
fn untagged_document() -> Vec<u8> {
    let samples: Vec<String> = (0..4000i64)
        .map(|i| {
            let id = if i % 3 == 0 {
                format!("\"sensor-{i}\"")
            } else {
                (i * 7919).to_string()
            };
            let value = match i % 6 {
                0 => "null".to_owned(),
                1 => (i % 4 == 1).to_string(),
                2 => (i * 37 - 50_000).to_string(),
                3 => format!("{}", i as f64 * 0.37 - 11.5),
                4 => format!("\"reading {i} ok\""),
                _ => format!("[{}, -1.25, {i}]", i as f64 * 0.5),
            };
            format!("{{\"id\": {id}, \"value\": {value}}}")
        })
        .collect();
    format!("[{}]", samples.join(",\n")).into_bytes()
}

/// Who made a record: flattened into [`Record`].
#[derive(Debug, PartialEq, serde::Deserialize, jitson::Schema)]
struct Audit {
    created: u64,
    author: String,
    #[serde(default)]
    tags: Vec<String>,
}

/// One record of the flattened document: its own id, the audit members, and the rest.
#[derive(Debug, PartialEq, serde::Deserialize, jitson::Schema)]
struct Record {
    id: u64,
    #[serde(flatten)]
    audit: Audit,
    #[serde(flatten)]
    measures: BTreeMap<String, f64>,
}

/// 4 000 [`Record`]s with two to four measures each.
fn flattened_document() -> Vec<u8> {
    let records: Vec<String> = (0..4000u64)
        .map(|i| {
            let measures: Vec<String> = (0..2 + i % 3)
                .map(|m| format!("\"m{m}\": {}", (i * 31 + m) as f64 * 0.125))
                .collect();
            format!(
                "{{\"id\": {i}, \"created\": {}, \"author\": \"user{}\", \"tags\": [\"t{}\"], {}}}",
                1_700_000_000 + i * 60,
                i % 17,
                i % 5,
                measures.join(", ")
            )
        })
        .collect();
    format!("[{}]", records.join(",\n")).into_bytes()
}

/// A drawing's element: internally tagged, with struct and newtype variants.
#[derive(Debug, PartialEq, serde::Deserialize, jitson::Schema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Element {
    Circle { x: f64, y: f64, r: f64 },
    Rect { x: f64, y: f64, w: f64, h: f64 },
    Label(Caption),
}

/// The payload of [`Element::Label`].
#[derive(Debug, PartialEq, serde::Deserialize, jitson::Schema)]
struct Caption {
    text: String,
    size: u32,
}

/// 4 000 [`Element`]s, each object's `type` member last (as an object built member by
/// member, the kind set at the end, is written).
fn tag_last_document() -> Vec<u8> {
    let elements: Vec<String> = (0..4000u32)
        .map(|i| {
            let (x, y) = (f64::from(i) * 0.5, f64::from(i % 97) * 1.25);
            match i % 3 {
                0 => format!(
                    r#"{{"x": {x}, "y": {y}, "r": {}, "type": "circle"}}"#,
                    i % 11
                ),
                1 => format!(
                    r#"{{"x": {x}, "y": {y}, "w": {}, "h": 2.5, "type": "rect"}}"#,
                    i % 13
                ),
                _ => format!(
                    r#"{{"text": "label {i}", "size": {}, "type": "label"}}"#,
                    8 + i % 5
                ),
            }
        })
        .collect();
    format!("[{}]", elements.join(",\n")).into_bytes()
}

fn typed_decode(c: &mut Criterion) {
    let doc = |name: &str| testdata(&format!("bench/{name}.json"));
    decode_group::<Twitter>(c, "twitter", doc("twitter"));
    decode_group::<CitmCatalog>(c, "citm_catalog", doc("citm_catalog"));
    decode_group::<Canada>(c, "canada", doc("canada"));
    decode_group::<Book>(c, "book", doc("book"));
    decode_group::<Point>(c, "point", br#"{"x": 1, "y": -2}"#.to_vec());
    decode_group::<Vec<Sample>>(c, "untagged", untagged_document());
    decode_group::<Vec<Record>>(c, "flattened", flattened_document());
    decode_group::<Vec<Element>>(c, "tag_last", tag_last_document());
}

fn decode_group<T>(c: &mut Criterion, doc: &str, bytes: Vec<u8>)
where
    T: JsonType + DeserializeOwned + for<'a> JsonDecode<'a> + PartialEq + std::fmt::Debug,
{
    let two_pass = |tiering| {
        Engine::with_options(
            EngineOptions::new()
                .tiering(tiering)
                .typed_decode(TypedDecode::TwoPass),
        )
    };
    let one_pass = Engine::new();
    one_pass
        .register::<T>()
        .wait_native(std::time::Duration::from_secs(60));
    let native = two_pass(Tiering::Eager);
    assert_eq!(native.register::<T>().backend(), &BackendStatus::Native);
    let interp = two_pass(Tiering::InterpreterOnly);
    interp.register::<T>();
    let expected: T = serde_json::from_slice(&bytes).expect("serde_json decodes the document");
    assert_eq!(
        native.decode::<T>(&bytes).expect("jitson decodes"),
        expected
    );
    // The one-pass reader takes the document itself (no fallback is timed).
    assert_eq!(
        decode::read::<T>(&bytes, &ExecOptions::default()).expect("the one-pass reader takes it"),
        expected
    );

    let mut group = c.benchmark_group(format!("{doc}/typed_decode"));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("jitson_one_pass", |b| {
        b.iter(|| one_pass.decode::<T>(black_box(&bytes)).is_ok())
    });
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

fn typed_register(c: &mut Criterion) {
    let mut group = c.benchmark_group("typed_register");
    group.sample_size(10);
    // What `register` costs the caller with the one-pass reader: the schema and the codec
    // (its native code compiles in the background; an interpreter-only engine leaves that
    // out, so that no compile thread runs beside the timing).
    let codec_only =
        || Engine::with_options(EngineOptions::new().tiering(Tiering::InterpreterOnly));
    // With two passes, `register` also waits for the native code.
    let native = || Engine::with_options(EngineOptions::new().typed_decode(TypedDecode::TwoPass));
    group.bench_function("book/one_pass", |b| {
        b.iter(|| codec_only().register::<Book>().backend() == &BackendStatus::Interpreter)
    });
    group.bench_function("book/native_code", |b| {
        b.iter(|| native().register::<Book>().backend() == &BackendStatus::Native)
    });
    group.bench_function("twitter/one_pass", |b| {
        b.iter(|| codec_only().register::<Twitter>().backend() == &BackendStatus::Interpreter)
    });
    group.bench_function("twitter/native_code", |b| {
        b.iter(|| native().register::<Twitter>().backend() == &BackendStatus::Native)
    });
    group.finish();
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

criterion_group!(benches, typed_decode, typed_encode, typed_register);
criterion_main!(benches);

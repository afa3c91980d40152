//! The engine on the corpus, against its peers in the same run: jitson's interpreter and
//! native (Cranelift) `validate` (native also under the schema read from a `serde_json::Value`,
//! its fields in name order) beside `serde_json` `Value` parsing, `serde_json` parsing +
//! `jsonschema` validation, and `sonic-rs` `Value` parsing; interpreter and native `decode`,
//! `encode` (the plan's walk, and native code), interpreter and native `transcode`, tokens
//! rewritten and verbatim (groups `DOC/decode`, `DOC/encode`, `DOC/transcode`) beside the
//! same peers' parse, serialize, and parse (+ `jsonschema` validation) + serialize; transcode
//! with picks and a redaction (and with unknown members dropped too) beside serde_json +
//! `jsonschema` doing the same projection
//! (`DOC/project`); native validate and decode of minified copies of twitter and
//! citm_catalog beside the peers' parse of the same copies (`DOC_minified`); native
//! compile time (`native_compile`: the validate tier, `SCHEMA+decode` with the decode tier,
//! `SCHEMA+decode+encode` every tier); the `Engine` (`engine_cache`: a cache hit by key and
//! by schema, and the tier check on the hot path — a codec's `validate` against its bare native code, a
//! tiered codec against a plain one, on native code and, still pending, on the
//! interpreter); internally tagged events under a discriminated `anyOf` with and without a
//! default branch (`tagged_union`), and externally tagged ones (`tagged_union_external`);
//! value checks beyond the corpus: a 40-value enumeration (`large_enum`), `multipleOf`
//! (`multiple_of`), `if`/`then`/`else` (`conditional`), `uniqueItems` (`unique_items`),
//! `contains` (`contains`), member counts and `dependentRequired` (`member_rules`),
//! `patternProperties` (`pattern_properties`), `unevaluatedProperties` (`unevaluated`), and
//! beside a `oneOf` (`unevaluated_one_of`). MB/s of the input document. A directory source of
//! 200 twitter-sized schema files scanned after one file changed, and with nothing changed
//! (`schema_reload`). A large container read as JSON and as YAML (`container_read`).
//!
//! `cargo bench --bench engine -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{
    BatchSize, BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main,
};
use std::sync::Arc;
use std::time::Duration;

use jitson::engine::{
    Backend, BackendStatus, Engine, EngineOptions, Options, Tiering, Tokens, TranscodeOptions,
    Unknown,
};
use jitson::jit::ir::ExecOptions;
use jitson::jit::native::{self, NativeCode};
use jitson::registry::Registry;
use jitson::registry::watch::DirectorySource;
use jitson::schema::Loader;
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
        // The same schema read from a `serde_json::Value`, whose objects sort their members:
        // its fields come in name order, not in the document's.
        let sorted = Schema::from_value(&schema_value).expect("corpus schema");
        let sorted_code = native::compile(Codec::new(&sorted).program()).expect("native code");
        assert_eq!(
            sorted_code.validate(&bytes, &exec, &mut scratch),
            Ok(()),
            "{doc}"
        );

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
        group.bench_function("jitson_native_validate_fields_in_name_order", |b| {
            b.iter(|| {
                sorted_code
                    .validate(black_box(&bytes), &exec, &mut scratch)
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
        let native_codec = Codec::with_options(&schema, Options::new().backend(Backend::Native));
        codec_groups(c, doc, &bytes, [&codec, &native_codec], &code, &reference);
        project_group(c, doc, &bytes, [&codec, &native_codec], &reference);
        if matches!(doc, "twitter" | "citm_catalog") {
            minified_group(c, doc, &bytes, &native_codec, &code);
        }
    }
}

/// Native validate and decode of a minified copy of a pretty-printed document (twitter:
/// 27 % whitespace, citm_catalog: 71 %) beside the peers' parse of the same copy (group
/// `DOC_minified`): how the speed ratios look on what services usually send. The copy is
/// jitson's verbatim transcode of the document, so members keep their order and tokens
/// their text (serde_json's `Value` would sort the keys).
fn minified_group(c: &mut Criterion, doc: &str, bytes: &[u8], codec: &Codec, code: &NativeCode) {
    let mut minified = Vec::with_capacity(bytes.len());
    let verbatim = TranscodeOptions::new().tokens(Tokens::Verbatim);
    (codec.transcode_with(&mut Cache::new(), bytes, &verbatim, &mut minified)).expect("valid");
    assert!(!minified.contains(&b'\n'), "{doc}: minified");
    let (exec, mut scratch) = (ExecOptions::default(), native::Scratch::new());
    assert_eq!(
        code.validate(&minified, &exec, &mut scratch),
        Ok(()),
        "{doc}"
    );
    let mut group = c.benchmark_group(format!("{doc}_minified"));
    group.throughput(Throughput::Bytes(minified.len() as u64));
    group.bench_function("jitson_native_validate", |b| {
        b.iter(|| {
            code.validate(black_box(&minified), &exec, &mut scratch)
                .is_ok()
        })
    });
    group.bench_function("jitson_native_decode", |b| {
        b.iter(|| {
            code.decode(black_box(&minified), &exec, &mut scratch)
                .is_ok()
        })
    });
    peer_parses(&mut group, &minified);
    group.finish();
}

/// The peers' parse of `bytes` into their `Value`s (serde_json, sonic-rs), in `group`.
fn peer_parses(group: &mut BenchmarkGroup<'_, WallTime>, bytes: &[u8]) {
    group.bench_function("serde_json_value", |b| {
        b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(bytes)).is_ok())
    });
    group.bench_function("sonic_rs_value", |b| {
        b.iter(|| sonic_rs::from_slice::<sonic_rs::Value>(black_box(bytes)).is_ok())
    });
}

/// Pick and redaction pointers per corpus document: a proxy's projection of a body.
fn projection(doc: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match doc {
        "twitter" => (
            &[
                "/statuses/0/user/screen_name",
                "/statuses/1/text",
                "/search_metadata",
            ],
            &["/search_metadata/count"],
        ),
        "citm_catalog" => (&["/events", "/areaNames"], &["/areaNames/205705993"]),
        "canada" => (&["/features/0/properties", "/type"], &["/type"]),
        _ => (&["/authors/1", "/title"], &["/authors/1/age"]),
    }
}

/// serde_json's projection of `value` (the same values as jitson's picks and redactions):
/// the values `redacts` reach replaced by `null`, then the values `picks` reach, with their
/// ancestors holding only what leads to them.
fn serde_project(
    mut value: serde_json::Value,
    picks: &[&str],
    redacts: &[&str],
) -> serde_json::Value {
    fn prune(value: &serde_json::Value, paths: &[Vec<&str>], depth: usize) -> serde_json::Value {
        use serde_json::Value;
        if paths.iter().any(|p| p.len() == depth) {
            return value.clone();
        }
        let on = |key: &str| -> Vec<Vec<&str>> {
            (paths.iter())
                .filter(|p| p[depth] == key)
                .cloned()
                .collect()
        };
        match value {
            Value::Object(members) => Value::Object(
                (members.iter())
                    .filter_map(|(k, v)| {
                        let next = on(k);
                        (!next.is_empty()).then(|| (k.clone(), prune(v, &next, depth + 1)))
                    })
                    .collect(),
            ),
            Value::Array(items) => Value::Array(
                (items.iter().enumerate())
                    .filter_map(|(i, v)| {
                        let next = on(&i.to_string());
                        (!next.is_empty()).then(|| prune(v, &next, depth + 1))
                    })
                    .collect(),
            ),
            scalar => scalar.clone(),
        }
    }
    let paths: Vec<Vec<&str>> = picks
        .iter()
        .map(|p| p.split('/').skip(1).collect())
        .collect();
    for r in redacts {
        if let Some(v) = value.pointer_mut(r) {
            *v = serde_json::Value::Null;
        }
    }
    prune(&value, &paths, 0)
}

/// Transcode with picks and a redaction (a proxy's projection), interpreter and native, and
/// the same with unknown members dropped, beside serde_json parse + `jsonschema` validation
/// + the same projection + `to_vec`.
fn project_group(
    c: &mut Criterion,
    doc: &str,
    bytes: &[u8],
    [codec, native_codec]: [&Codec; 2],
    reference: &jsonschema::Validator,
) {
    let (picks, redacts) = projection(doc);
    let mut options = TranscodeOptions::new();
    for p in picks {
        options = options.pick(p).expect("pointer");
    }
    for r in redacts {
        options = options.redact(r).expect("pointer");
    }
    let (mut cache, mut out) = (Cache::new(), Vec::with_capacity(bytes.len()));
    // The same work: jitson's output is the peer's projection.
    native_codec
        .transcode_with(&mut cache, bytes, &options, &mut out)
        .expect("valid");
    let parsed: serde_json::Value = serde_json::from_slice(bytes).expect("JSON");
    let ours: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
    assert_eq!(ours, serde_project(parsed, picks, redacts), "{doc}");
    let mut group = c.benchmark_group(format!("{doc}/project"));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    // Unknown members dropped too: the corpus documents have none, so the output is the
    // same; native code walks the written values with the schema's guide, as each object
    // may hold one.
    let dropping = options.clone().unknown(Unknown::Drop);
    let mut dropped = Vec::new();
    (native_codec.transcode_with(&mut cache, bytes, &dropping, &mut dropped)).expect("valid");
    assert_eq!(dropped, out, "{doc}: nothing to drop");
    for (rows, options) in [("picked", &options), ("picked_dropping", &dropping)] {
        for (backend, codec) in [("interp", codec), ("native", native_codec)] {
            group.bench_function(format!("jitson_{backend}_transcode_{rows}"), |b| {
                b.iter(|| {
                    out.clear();
                    codec.transcode_with(&mut cache, black_box(bytes), options, &mut out)
                })
            });
        }
    }
    group.bench_function("serde_json_value+jsonschema_projected", |b| {
        b.iter(|| {
            let v: serde_json::Value = serde_json::from_slice(black_box(bytes)).expect("JSON");
            assert!(reference.is_valid(&v));
            serde_json::to_vec(&serde_project(v, picks, redacts)).map(|v| v.len())
        })
    });
    group.finish();
}

/// Decode, encode and transcode beside the peers' parse, serialize, parse + serialize;
/// `codecs` are the interpreter codec and the native one.
fn codec_groups(
    c: &mut Criterion,
    doc: &str,
    bytes: &[u8],
    [codec, native_codec]: [&Codec; 2],
    code: &NativeCode,
    reference: &jsonschema::Validator,
) {
    let mut cache = Cache::new();
    let size = Throughput::Bytes(bytes.len() as u64);
    let mut group = c.benchmark_group(format!("{doc}/decode"));
    group.throughput(size.clone());
    group.bench_function("jitson_interp_decode", |b| {
        b.iter(|| codec.decode_with(&mut cache, black_box(bytes)).is_ok())
    });
    let (exec, mut scratch) = (ExecOptions::default(), native::Scratch::new());
    assert!(code.decode(bytes, &exec, &mut scratch).is_ok(), "{doc}");
    group.bench_function("jitson_native_decode", |b| {
        b.iter(|| code.decode(black_box(bytes), &exec, &mut scratch).is_ok())
    });
    peer_parses(&mut group, bytes);
    group.finish();

    let document = codec.decode(bytes).expect("decodes");
    let native_document = native_codec.decode(bytes).expect("decodes");
    let serde_value: serde_json::Value = serde_json::from_slice(bytes).expect("JSON");
    let sonic_value: sonic_rs::Value = sonic_rs::from_slice(bytes).expect("JSON");
    let mut out = Vec::with_capacity(bytes.len());
    let mut group = c.benchmark_group(format!("{doc}/encode"));
    group.throughput(size.clone());
    group.bench_function("jitson_plan_encode", |b| {
        b.iter(|| {
            out.clear();
            codec.encode(black_box(&document), &mut out);
        })
    });
    group.bench_function("jitson_native_encode", |b| {
        b.iter(|| {
            out.clear();
            native_codec.encode(black_box(&native_document), &mut out);
        })
    });
    group.bench_function("serde_json_value_to_vec", |b| {
        b.iter(|| serde_json::to_vec(black_box(&serde_value)).map(|v| v.len()))
    });
    group.bench_function("sonic_rs_value_to_vec", |b| {
        b.iter(|| sonic_rs::to_vec(black_box(&sonic_value)).map(|v| v.len()))
    });
    group.finish();

    let options = TranscodeOptions::new();
    let mut group = c.benchmark_group(format!("{doc}/transcode"));
    group.throughput(size);
    group.bench_function("jitson_interp_transcode", |b| {
        b.iter(|| {
            out.clear();
            codec.transcode_with(&mut cache, black_box(bytes), &options, &mut out)
        })
    });
    group.bench_function("jitson_native_transcode", |b| {
        b.iter(|| {
            out.clear();
            native_codec.transcode_with(&mut cache, black_box(bytes), &options, &mut out)
        })
    });
    let verbatim = TranscodeOptions::new().tokens(Tokens::Verbatim);
    group.bench_function("jitson_interp_transcode_verbatim", |b| {
        b.iter(|| {
            out.clear();
            codec.transcode_with(&mut cache, black_box(bytes), &verbatim, &mut out)
        })
    });
    group.bench_function("jitson_native_transcode_verbatim", |b| {
        b.iter(|| {
            out.clear();
            native_codec.transcode_with(&mut cache, black_box(bytes), &verbatim, &mut out)
        })
    });
    group.bench_function("serde_json_value_round_trip", |b| {
        b.iter(|| {
            let v: serde_json::Value = serde_json::from_slice(black_box(bytes)).expect("JSON");
            serde_json::to_vec(&v).map(|v| v.len())
        })
    });
    group.bench_function("serde_json_value+jsonschema_round_trip", |b| {
        b.iter(|| {
            let v: serde_json::Value = serde_json::from_slice(black_box(bytes)).expect("JSON");
            assert!(reference.is_valid(&v));
            serde_json::to_vec(&v).map(|v| v.len())
        })
    });
    group.bench_function("sonic_rs_value_round_trip", |b| {
        b.iter(|| {
            let v: sonic_rs::Value = sonic_rs::from_slice(black_box(bytes)).expect("JSON");
            sonic_rs::to_vec(&v).map(|v| v.len())
        })
    });
    group.finish();
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
        // Both tiers: validate, then decode (what a codec that decodes compiles in all).
        group.bench_function(format!("{schema_name}+decode"), |b| {
            b.iter(|| {
                let code = native::compile(black_box(codec.program())).expect("native code");
                code.compile_decode().is_ok()
            })
        });
        // Every tier: validate, decode and encode (what an engine's worker compiles).
        group.bench_function(format!("{schema_name}+decode+encode"), |b| {
            b.iter(|| {
                let code = native::compile(black_box(codec.program())).expect("native code");
                code.compile_decode().is_ok() && code.compile_encode().is_ok()
            })
        });
    }
    group.finish();
}

/// The engine's cache and the cost of its tier check, on the book document (small, so the
/// fixed cost of a call shows).
fn engine_cache(c: &mut Criterion) {
    let bytes = testdata("bench/book.json");
    let schema = Schema::from_json_slice(&testdata("schemas/book.schema.json")).expect("schema");
    let engine = Engine::new();
    let tiered = engine.compile(&schema);
    assert_eq!(
        tiered.wait_native(Duration::from_secs(60)),
        &BackendStatus::Native
    );
    let key = engine.key(&schema);
    let plain = Codec::with_options(&schema, Options::new().backend(Backend::Native));
    let code = native::compile(plain.program()).expect("native code");
    let interp = Codec::new(&schema);
    let cold = Engine::with_options(EngineOptions::new().tiering(Tiering::LazyAfter(u32::MAX)));
    let pending = cold.compile(&schema);
    assert_eq!(pending.backend(), &BackendStatus::Pending);

    let mut group = c.benchmark_group("engine_cache");
    group.bench_function("get_hit", |b| {
        b.iter(|| engine.get(black_box(&key)).is_some())
    });
    group.bench_function("compile_hit", |b| {
        b.iter(|| engine.compile(black_box(&schema)).program().funcs.len())
    });
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    let exec = ExecOptions::default();
    let mut scratch = native::Scratch::new();
    group.bench_function("native_code_validate", |b| {
        b.iter(|| {
            code.validate(black_box(&bytes), &exec, &mut scratch)
                .is_ok()
        })
    });
    let mut cache = Cache::new();
    for (name, codec) in [
        ("plain_native_validate", &plain),
        ("engine_native_validate", &*tiered),
        ("plain_interp_validate", &interp),
        ("engine_pending_validate", &*pending),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| codec.validate_with(&mut cache, black_box(&bytes)).is_ok())
        });
    }
    group.finish();
}

/// The event kinds of [`tagged_union`]'s documents: a tag, the members that follow it, and
/// their schemas.
const EVENTS: [(&str, &str, &str); 8] = [
    (
        "click",
        r#""x": 1, "y": 2"#,
        r#"{"x": {"type": "integer"}, "y": {"type": "integer"}}"#,
    ),
    (
        "key",
        r#""code": 65"#,
        r#"{"code": {"type": "integer", "minimum": 0}}"#,
    ),
    ("scroll", r#""dy": 1.5"#, r#"{"dy": {"type": "number"}}"#),
    ("focus", r#""on": true"#, r#"{"on": {"type": "boolean"}}"#),
    (
        "resize",
        r#""w": 640, "h": 480"#,
        r#"{"w": {"type": "integer"}, "h": {"type": "integer"}}"#,
    ),
    (
        "load",
        r#""url": "https://x.invalid/a""#,
        r#"{"url": {"type": "string"}}"#,
    ),
    (
        "error",
        r#""message": "boom""#,
        r#"{"message": {"type": "string"}}"#,
    ),
    ("idle", "", "{}"),
];

/// An array of internally tagged events (`{"kind": "click", ...}`, eight kinds), validated
/// and decoded natively under a schema whose `anyOf` branches each hold one tag (`closed`)
/// and under the same schema with a default branch for any other tag (`open`: serde's
/// `#[serde(other)]`), beside the peers' parse (group `tagged_union`); and the same events
/// externally tagged (`{"click": {...}}`, serde's default representation: each branch an
/// object of one member; group `tagged_union_external`). A discriminator selects the
/// branch by the tag in each.
fn tagged_union(c: &mut Criterion) {
    let members =
        |members: &str| -> serde_json::Value { serde_json::from_str(members).expect("JSON") };
    let branch = |tag: serde_json::Value, members_schema: &str| {
        let mut properties = members(members_schema);
        properties["kind"] = tag;
        serde_json::json!({"type": "object", "properties": properties, "required": ["kind"]})
    };
    let names: Vec<&str> = EVENTS.iter().map(|(name, ..)| *name).collect();
    let closed: Vec<serde_json::Value> = EVENTS
        .iter()
        .map(|(name, _, schema)| branch(serde_json::json!({"const": name}), schema))
        .collect();
    let mut open = closed.clone();
    let other = serde_json::json!({"type": "string", "not": {"enum": names}});
    open.push(branch(other, "{}"));
    let external: Vec<serde_json::Value> = EVENTS
        .iter()
        .map(|(name, _, schema)| {
            let data = serde_json::json!({"type": "object", "properties": members(schema)});
            serde_json::json!({"type": "object", "properties": {*name: data},
                "required": [name], "additionalProperties": false})
        })
        .collect();
    let items = |item: fn(&str, &str) -> String| -> Vec<u8> {
        let items: Vec<String> = (0..4000)
            .map(|i| {
                let (name, members, _) = EVENTS[i % EVENTS.len()];
                item(name, members)
            })
            .collect();
        format!("[{}]", items.join(", ")).into_bytes()
    };
    let internal = items(|name, members| {
        let sep = if members.is_empty() { "" } else { ", " };
        format!(r#"{{"kind": "{name}"{sep}{members}}}"#)
    });
    union_group(
        c,
        "tagged_union",
        &internal,
        [("closed", closed), ("open", open)],
    );
    let externally = items(|name, members| format!(r#"{{"{name}": {{{members}}}}}"#));
    union_group(
        c,
        "tagged_union_external",
        &externally,
        [("external", external)],
    );
}

/// Group `name`: native validate and decode of `bytes` under an array of each schema's
/// `anyOf` of `branches`, beside the peers' parse.
fn union_group<const N: usize>(
    c: &mut Criterion,
    name: &str,
    bytes: &[u8],
    schemas: [(&str, Vec<serde_json::Value>); N],
) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    for (name, branches) in schemas {
        let schema_value = serde_json::json!({"type": "array", "items": {"anyOf": branches}});
        let schema = Schema::from_value(&schema_value).expect("schema");
        let codec = Codec::new(&schema);
        assert!(
            codec.program().to_string().contains("discriminate"),
            "{name}"
        );
        let code = native::compile(codec.program()).expect("native code");
        let (exec, mut scratch) = (ExecOptions::default(), native::Scratch::new());
        assert_eq!(code.validate(bytes, &exec, &mut scratch), Ok(()), "{name}");
        group.bench_function(format!("jitson_native_validate_{name}"), |b| {
            b.iter(|| code.validate(black_box(bytes), &exec, &mut scratch).is_ok())
        });
        group.bench_function(format!("jitson_native_decode_{name}"), |b| {
            b.iter(|| code.decode(black_box(bytes), &exec, &mut scratch).is_ok())
        });
    }
    peer_parses(&mut group, bytes);
    group.finish();
}

/// ISO 4217 codes: a string enumeration too large to compare in place.
const CURRENCIES: [&str; 40] = [
    "USD", "EUR", "JPY", "GBP", "CNY", "AUD", "CAD", "CHF", "HKD", "SGD", "SEK", "KRW", "NOK",
    "NZD", "INR", "MXN", "TWD", "ZAR", "BRL", "DKK", "PLN", "THB", "ILS", "IDR", "CZK", "AED",
    "TRY", "HUF", "CLP", "SAR", "PHP", "MYR", "COP", "RUB", "RON", "PEN", "BHD", "BGN", "ARS",
    "ISK",
];

/// Value checks a proxy meets beyond the corpus, each beside the peers in the same run:
/// a currency from a 40-value enumeration (group `large_enum`), an amount under
/// `multipleOf: 0.01` (group `multiple_of`), `if`/`then`/`else` (`conditional`), five
/// tags under `uniqueItems` (`unique_items`), six scores under `contains` (`contains`), a
/// map under member counts and an object under `dependentRequired` (`member_rules`),
/// extension members under `patternProperties` (`pattern_properties`), an object composed
/// by `allOf` and closed by `unevaluatedProperties` (`unevaluated`), a `oneOf` of two shapes
/// closed by `unevaluatedProperties` (`unevaluated_one_of`); 4 000 records each.
fn value_checks(c: &mut Criterion) {
    let records = |record: &dyn Fn(usize) -> String| -> Vec<u8> {
        let items: Vec<String> = (0..4000).map(record).collect();
        format!("[{}]", items.join(", ")).into_bytes()
    };
    let currencies = records(&|i| {
        let currency = CURRENCIES[i * 7 % CURRENCIES.len()];
        format!(r#"{{"currency": "{currency}", "id": {i}}}"#)
    });
    let item = serde_json::json!({"type": "object", "properties": {
        "currency": {"enum": &CURRENCIES[..]}, "id": {"type": "integer"}}});
    checked_group(c, "large_enum", &currencies, item);
    let amounts = records(&|i| format!(r#"{{"amount": {}.{:02}, "id": {i}}}"#, i % 5000, i % 100));
    let item = serde_json::json!({"type": "object", "properties": {
        "amount": {"type": "number", "multipleOf": 0.01}, "id": {"type": "integer"}}});
    checked_group(c, "multiple_of", &amounts, item);
    let payments = records(&|i| match i % 2 {
        0 => format!(r#"{{"method": "card", "card": "4111-{i:04}", "id": {i}}}"#),
        _ => format!(r#"{{"method": "transfer", "iban": "DE{i:020}", "id": {i}}}"#),
    });
    let item = serde_json::json!({"type": "object",
        "properties": {"method": {"enum": ["card", "transfer"]}, "id": {"type": "integer"}},
        "if": {"properties": {"method": {"const": "card"}}},
        "then": {"required": ["card"], "properties": {"card": {"type": "string"}}},
        "else": {"required": ["iban"], "properties": {"iban": {"type": "string"}}}});
    checked_group(c, "conditional", &payments, item);
    let tagged = records(&|i| {
        let tags: Vec<String> = (0..5)
            .map(|t| format!(r#""tag{}""#, (i + t * 7) % 40))
            .collect();
        format!(r#"{{"tags": [{}], "id": {i}}}"#, tags.join(", "))
    });
    let item = serde_json::json!({"type": "object", "properties": {
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
        "id": {"type": "integer"}}});
    checked_group(c, "unique_items", &tagged, item);
    let scored = records(&|i| {
        let scores: Vec<String> = (0..5)
            .map(|s| ((i * 7 + s * 13) % 100).to_string())
            .collect();
        format!(r#"{{"scores": [{}, 95], "id": {i}}}"#, scores.join(", "))
    });
    let item = serde_json::json!({"type": "object", "properties": {
        "scores": {"type": "array", "items": {"type": "integer"},
            "contains": {"type": "integer", "minimum": 90}},
        "id": {"type": "integer"}}});
    checked_group(c, "contains", &scored, item);
    let labelled = records(&|i| {
        let labels: Vec<String> = (0..1 + i % 4)
            .map(|l| format!(r#""k{l}": "v{i}""#))
            .collect();
        let card = match i % 3 {
            0 => format!(r#", "card": "4111-{i:04}", "billing": "street {i}""#),
            _ => String::new(),
        };
        format!(
            r#"{{"labels": {{{}}}, "id": {i}{card}}}"#,
            labels.join(", ")
        )
    });
    let item = serde_json::json!({"type": "object",
        "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"},
            "minProperties": 1, "maxProperties": 8}, "id": {"type": "integer"},
            "card": {"type": "string"}, "billing": {"type": "string"}},
        "dependentRequired": {"card": ["billing"]}});
    checked_group(c, "member_rules", &labelled, item);
    let extended = records(&|i| {
        let extension = match i % 2 {
            0 => format!(r#", "x-trace": "t{i}", "x-rate": {}"#, i % 100),
            _ => String::new(),
        };
        format!(
            r#"{{"id": {i}, "name": "n{i}"{extension}, "s{}": {i}}}"#,
            i % 7
        )
    });
    let item = serde_json::json!({"type": "object",
        "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
        "patternProperties": {"^x-": {"type": ["string", "integer"]},
            "^s[0-9]$": {"type": "integer", "minimum": 0}},
        "additionalProperties": false});
    checked_group(c, "pattern_properties", &extended, item);
    let composed = records(&|i| {
        format!(
            r#"{{"id": {i}, "name": "n{i}", "tags": ["t{}", "u"], "active": true}}"#,
            i % 9
        )
    });
    let item = serde_json::json!({
        "allOf": [{"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}],
        "properties": {"tags": {"type": "array", "items": {"type": "string"}}},
        "unevaluatedProperties": {"type": "boolean"}});
    checked_group(c, "unevaluated", &composed, item);
    let animals = records(&|i| match i % 2 {
        0 => format!(r#"{{"id": {i}, "kind": "cat", "lives": {}}}"#, i % 9),
        _ => format!(
            r#"{{"id": {i}, "kind": "dog", "breed": "b{}", "good": true}}"#,
            i % 5
        ),
    });
    let item = serde_json::json!({
        "$defs": {
            "cat": {"properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}}, "required": ["kind"]},
            "dog": {"properties": {"kind": {"const": "dog"}, "breed": {"type": "string"},
                "good": {"type": "boolean"}}, "required": ["kind"]}
        },
        "properties": {"id": {"type": "integer"}},
        "oneOf": [{"$ref": "#/items/$defs/cat"}, {"$ref": "#/items/$defs/dog"}],
        "unevaluatedProperties": false});
    checked_group(c, "unevaluated_one_of", &animals, item);
}

/// Group `name`: jitson's validate of `bytes` under an array of `item`, on native code and
/// on the interpreter, beside serde_json + `jsonschema` and the peers' parse.
fn checked_group(c: &mut Criterion, name: &str, bytes: &[u8], item: serde_json::Value) {
    let schema_value = serde_json::json!({"type": "array", "items": item});
    let schema = Schema::from_value(&schema_value).expect("schema");
    let codec = Codec::new(&schema);
    let mut cache = Cache::new();
    let code = native::compile(codec.program()).expect("native code");
    let (exec, mut scratch) = (ExecOptions::default(), native::Scratch::new());
    assert_eq!(code.validate(bytes, &exec, &mut scratch), Ok(()), "{name}");
    let reference = jsonschema::validator_for(&schema_value).expect("jsonschema compiles");
    let parsed: serde_json::Value = serde_json::from_slice(bytes).expect("JSON");
    assert!(reference.is_valid(&parsed), "{name} under jsonschema");
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("jitson_native_validate", |b| {
        b.iter(|| code.validate(black_box(bytes), &exec, &mut scratch).is_ok())
    });
    group.bench_function("jitson_interp_validate", |b| {
        b.iter(|| codec.validate_with(&mut cache, black_box(bytes)).is_ok())
    });
    group.bench_function("serde_json_value+jsonschema", |b| {
        b.iter(|| {
            let v: serde_json::Value = serde_json::from_slice(black_box(bytes)).expect("JSON");
            reference.is_valid(&v)
        })
    });
    peer_parses(&mut group, bytes);
    group.finish();
}

/// A directory of 200 schema files (the twitter schema, each with its own `$comment`) and a
/// source that has published them: the cost of a rescan after one file changed, and of one
/// that finds nothing changed.
fn schema_reload(c: &mut Criterion) {
    const FILES: usize = 200;
    let dir = std::env::temp_dir().join(format!("jitson-bench-reload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("bench directory");
    let twitter = String::from_utf8(testdata("schemas/twitter.schema.json")).expect("UTF-8");
    let variant = |tag: &str| twitter.replacen('{', &format!("{{\"$comment\": \"{tag}\","), 1);
    for i in 0..FILES {
        std::fs::write(
            dir.join(format!("s{i}.schema.json")),
            variant(&i.to_string()),
        )
        .expect("schema file");
    }
    let registry = Arc::new(Registry::new());
    let mut source = DirectorySource::new(registry, &dir);
    assert_eq!(source.scan().len(), FILES);

    let mut group = c.benchmark_group("schema_reload");
    let mut round = 0u64;
    group.bench_function("one_of_200_changed", |b| {
        b.iter_batched(
            || {
                round += 1;
                std::fs::write(
                    dir.join("s7.schema.json"),
                    variant(&format!("round {round}")),
                )
                .expect("schema file");
            },
            |()| assert_eq!(source.scan().len(), 1),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("none_of_200_changed", |b| {
        b.iter(|| source.scan().is_empty())
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A large document given to a loader as a container, as JSON and as YAML (JSON text is
/// YAML): what reading an OpenAPI document in YAML costs beside JSON. MB/s of the text.
fn container_read(c: &mut Criterion) {
    let text = testdata("bench/citm_catalog.json");
    let mut group = c.benchmark_group("container_read");
    group.throughput(Throughput::Bytes(text.len() as u64));
    let uri = "https://example.com/citm.json";
    group.bench_function("citm_catalog_json", |b| {
        b.iter(|| {
            Loader::new()
                .container_json(uri, black_box(&text))
                .map(drop)
        })
    });
    group.bench_function("citm_catalog_yaml", |b| {
        b.iter(|| {
            Loader::new()
                .container_yaml(uri, black_box(&text))
                .map(drop)
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    engine,
    compile,
    engine_cache,
    tagged_union,
    value_checks,
    schema_reload,
    container_read
);
criterion_main!(benches);

//! The codec's backend choice: `Backend::Native` runs validate, collect-all validate and
//! decode on Cranelift code and gives exactly the interpreter's answers, errors included;
//! the default is the interpreter; a tier over the native size limit stays on it.

#[path = "../jit/tests/native_support/mod.rs"]
#[allow(dead_code)] // only the mutation generator is used here
mod native_support;

use std::time::Duration;

use jitson::engine::{
    Backend, BackendStatus, CodeTier, CompileError, DEFAULT_NATIVE_SIZE_LIMIT, Engine,
    EngineOptions, Options,
};
use jitson::{Cache, Codec, Schema};
use native_support::mutations;

const SCHEMA: &str = r##"{
    "type": "object",
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}},
        "kind": {"enum": ["a", "b"]},
        "child": {"$ref": "#"}
    },
    "required": ["id"]
}"##;

#[test]
fn default_is_the_interpreter_and_native_reports_itself() {
    let schema = Schema::from_json_str(SCHEMA).unwrap();
    assert_eq!(Codec::new(&schema).backend(), &BackendStatus::Interpreter);
    let native = Codec::with_options(&schema, Options::new().backend(Backend::Native));
    assert_eq!(native.backend(), &BackendStatus::Native);
    assert_eq!(native.backend().to_string(), "native");
}

#[test]
fn native_and_interpreter_codecs_give_identical_results() {
    let schema = Schema::from_json_str(SCHEMA).unwrap();
    let interp = Codec::new(&schema);
    let native = Codec::with_options(&schema, Options::new().backend(Backend::Native));
    let (mut a, mut b) = (Cache::new(), Cache::new());
    let inputs = [
        r#"{"id": 1}"#,
        r#"{"id": 0}"#,
        r#"{"id": 2, "tags": ["abc", "abcd"]}"#,
        r#"{"id": 2, "kind": "c"}"#,
        r#"{"id": 2, "child": {"id": 3, "child": {"tags": []}}}"#,
        r#"{"id": 2,"#,
        r#"{"id": 2} x"#,
        "",
        "[1, 2]",
        r#"{"id": 2, "child": {"id": "x"}}"#,
        r#"{"id": 0, "tags": ["abcd", 1], "kind": "c", "child": {}}"#,
    ];
    for input in inputs {
        let expected = interp.validate_with(&mut a, input.as_bytes());
        let got = native.validate_with(&mut b, input.as_bytes());
        assert_eq!(got, expected, "{input}");
        assert_eq!(
            native.validate_all_with(&mut b, input.as_bytes(), 10),
            interp.validate_all_with(&mut a, input.as_bytes(), 10),
            "{input}"
        );
        let decoded = |codec: &Codec, cache: &mut Cache| {
            codec.decode_with(cache, input.as_bytes()).map(|doc| {
                let mut out = Vec::new();
                codec.encode(&doc, &mut out);
                (doc.to_serde_json(), out)
            })
        };
        assert_eq!(
            decoded(&native, &mut b),
            decoded(&interp, &mut a),
            "{input}"
        );
    }
    let deep = format!(
        "{}{}",
        r#"{"id": 1, "child": "#.repeat(200),
        "}".repeat(200)
    );
    assert_eq!(
        native.validate(deep.as_bytes()),
        interp.validate(deep.as_bytes())
    );
    assert!(native.validate(deep.as_bytes()).is_err(), "depth limit");
    assert_eq!(
        native.decode(deep.as_bytes()).map(|d| d.to_serde_json()),
        interp.decode(deep.as_bytes()).map(|d| d.to_serde_json())
    );
}

/// Collect-all validation on native code (which checks valid inputs alone and hands invalid
/// ones to the interpreter) lists exactly the interpreter's errors, on the corpus documents
/// and seeded mutations of them.
#[test]
fn collect_all_errors_are_identical_on_corpus_mutations() {
    for name in ["book", "twitter"] {
        let dir = env!("CARGO_MANIFEST_DIR");
        let schema = std::fs::read(format!("{dir}/testdata/schemas/{name}.schema.json")).unwrap();
        let schema = Schema::from_json_slice(&schema).unwrap();
        let doc = std::fs::read(format!("{dir}/testdata/bench/{name}.json")).unwrap();
        let interp = Codec::new(&schema);
        let native = Codec::with_options(&schema, Options::new().backend(Backend::Native));
        let (mut a, mut b) = (Cache::new(), Cache::new());
        let count = if name == "book" { 600 } else { 60 };
        let mut invalid = 0;
        for input in std::iter::once(doc.clone()).chain(mutations(&doc, count, 0x616c_6c21)) {
            let expected = interp.validate_all_with(&mut a, &input, 20);
            invalid += usize::from(!expected.is_empty());
            assert_eq!(
                native.validate_all_with(&mut b, &input, 20),
                expected,
                "{name}: {:?}",
                String::from_utf8_lossy(&input)
            );
        }
        assert!(invalid > count / 4, "{name}: {invalid} invalid of {count}");
    }
}

/// A `oneOf` that matches more than one branch (or none) fails at the value's first byte on
/// both backends, whatever whitespace comes before it. Native code skips whitespace before
/// it saves the value's start, the interpreter after: the error took the saved start, so
/// the two reported different offsets (found by `schema_gen` once it ran native code).
#[test]
fn one_of_errors_point_at_the_value_after_whitespace() {
    let schema = Schema::from_json_str(
        r#"{"properties": {"x": {"oneOf": [
            {"type": "object", "properties": {"k": {"type": "string"}}},
            {"type": "object", "required": ["k"]},
            {"type": "integer"}]}}}"#,
    )
    .unwrap();
    let interp = Codec::new(&schema);
    let native = Codec::with_options(&schema, Options::new().backend(Backend::Native));
    for (input, matched, line, column) in [
        (r#"{"x":{"k":"ab"}}"#, 2, 1, 6),
        ("{\"x\":  \n\t {\"k\": \"ab\"}}", 2, 2, 3),
        (r#"{"x" :   "s"}"#, 0, 1, 10),
    ] {
        for codec in [&interp, &native] {
            let e = codec.validate(input.as_bytes()).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "value matches {matched} branches of oneOf, not exactly one at line {line} \
                     column {column}, path $.x, keyword oneOf"
                ),
                "{input:?} on {:?}",
                codec.backend()
            );
        }
    }
}

/// The book schema and document of the corpus.
fn book() -> (Schema, Vec<u8>) {
    let dir = env!("CARGO_MANIFEST_DIR");
    let schema = std::fs::read(format!("{dir}/testdata/schemas/book.schema.json")).unwrap();
    let doc = std::fs::read(format!("{dir}/testdata/bench/book.json")).unwrap();
    (Schema::from_json_slice(&schema).unwrap(), doc)
}

/// The least limit in `1..=high` for which `fits` holds, `fits` being monotonic.
fn least_fitting(high: usize, fits: impl Fn(usize) -> bool) -> usize {
    assert!(fits(high), "{high} fits");
    let (mut low, mut high) = (0, high);
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if fits(middle) {
            high = middle;
        } else {
            low = middle;
        }
    }
    high
}

/// A native codec of `schema` under a size limit of `limit` instructions.
fn limited(schema: &Schema, limit: usize) -> Codec {
    let options = Options::new().backend(Backend::Native);
    Codec::with_options(schema, options.native_size_limit(limit))
}

/// The least size limit under which `schema`'s codec is native once `prepare` asked for its
/// later tiers (nothing, decode, encode): that tier's size when it is the largest asked for.
fn least_native_limit(schema: &Schema, prepare: fn(&Codec)) -> usize {
    least_fitting(DEFAULT_NATIVE_SIZE_LIMIT, |limit| {
        let codec = limited(schema, limit);
        prepare(&codec);
        codec.backend() == &BackendStatus::Native
    })
}

/// A tier whose functions lower to more Cranelift instructions than the codec's
/// `native_size_limit` is not compiled: the codec says so and that tier runs on the
/// interpreter, with the interpreter's answers. The limit is exact: a tier of `n`
/// instructions compiles under a limit of `n`, not under `n - 1`.
#[test]
fn a_tier_over_the_native_size_limit_runs_on_the_interpreter() {
    let (schema, doc) = book();
    let codec = |limit: usize| limited(&schema, limit);
    let interp = Codec::new(&schema);
    let mut bad = doc.clone();
    let at = bad
        .windows(4)
        .position(|w| w == b"true")
        .expect("a boolean");
    bad[at..at + 4].copy_from_slice(b"1234");
    let answers = |codec: &Codec| {
        let decoded = codec.decode(&doc).map(|d| {
            let mut out = Vec::new();
            codec.encode(&d, &mut out);
            (d.to_serde_json(), out)
        });
        (
            codec.validate(&doc),
            codec.validate(&bad),
            decoded,
            codec.decode(&bad).err(),
        )
    };
    let expected = answers(&interp);

    let validate = least_native_limit(&schema, |_| {});
    let under = codec(validate - 1);
    let too_large = |tier, limit| CompileError::TooLarge { tier, limit };
    assert_eq!(
        under.backend(),
        &BackendStatus::Fallback(too_large(CodeTier::Validate, validate - 1))
    );
    assert_eq!(
        under.backend().to_string(),
        format!(
            "interpreter (native code unavailable: the validate code is over the native size \
             limit of {} Cranelift instructions)",
            validate - 1
        )
    );
    assert_eq!(answers(&under), expected);

    // Book's decode tier is larger than its validate tier (more per function).
    let decode = least_native_limit(&schema, Codec::prepare_decode);
    assert!(decode > validate, "decode {decode}, validate {validate}");
    let partly = codec(decode - 1);
    assert_eq!(answers(&partly), expected);
    assert_eq!(
        partly.backend(),
        &BackendStatus::DecodeFallback(too_large(CodeTier::Decode, decode - 1))
    );
    let whole = codec(decode);
    assert_eq!(answers(&whole), expected);
    assert_eq!(whole.backend(), &BackendStatus::Native);
}

/// A wide object's encode tier is larger than its validate tier (each member's key and
/// number are written inline): over the limit, encode walks the layout's plan, with the same
/// bytes.
#[test]
fn an_encode_tier_over_the_native_size_limit_walks_the_plan() {
    let members = (0..200).map(|i| format!(r#""p{i}": {{"type": "integer"}}"#));
    let schema = format!(
        r#"{{"type": "object", "properties": {{{}}}}}"#,
        members.collect::<Vec<_>>().join(", ")
    );
    let schema = Schema::from_json_str(&schema).unwrap();
    let doc = format!(
        "{{{}}}",
        (0..200)
            .map(|i| format!(r#""p{i}": {i}"#))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let codec = |limit: usize| limited(&schema, limit);
    let encoded = |codec: &Codec| {
        let mut out = Vec::new();
        codec.encode(&codec.decode(doc.as_bytes()).unwrap(), &mut out);
        out
    };
    let expected = encoded(&Codec::new(&schema));
    let validate = least_native_limit(&schema, |_| {});
    let encode = least_native_limit(&schema, Codec::prepare_encode);
    assert!(encode > validate, "encode {encode}, validate {validate}");
    let partly = codec(encode - 1);
    partly.prepare_encode();
    let too_large = CompileError::TooLarge {
        tier: CodeTier::Encode,
        limit: encode - 1,
    };
    // Said before a decode, whose tier is larger still, is made.
    assert_eq!(partly.backend(), &BackendStatus::EncodeFallback(too_large));
    assert_eq!(encoded(&partly), expected);
    assert_eq!(encoded(&codec(encode)), expected);
}

/// An engine's codec over the limit settles on the interpreter, counted as a fallback.
#[test]
fn an_engine_counts_a_codec_over_the_size_limit_as_a_fallback() {
    let (schema, doc) = book();
    let options = Options::new().native_size_limit(100);
    let engine = Engine::with_options(EngineOptions::new().codec(options));
    let codec = engine.compile(&schema);
    let status = BackendStatus::Fallback(CompileError::TooLarge {
        tier: CodeTier::Validate,
        limit: 100,
    });
    assert_eq!(codec.wait_native(Duration::from_secs(60)), &status);
    assert!(codec.validate(&doc).is_ok());
    assert_eq!(engine.stats().fallbacks, 1);
    assert_eq!(engine.stats().native, 0);
}

//! The codec's backend choice: `Backend::Native` runs validate, collect-all validate and
//! decode on Cranelift code and gives exactly the interpreter's answers, errors included;
//! the default is the interpreter.

#[path = "../jit/tests/native_support/mod.rs"]
#[allow(dead_code)] // only the mutation generator is used here
mod native_support;

use jitson::engine::{Backend, BackendStatus, Options};
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

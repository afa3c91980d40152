//! The codec's backend choice: `Backend::Native` runs validate and decode on Cranelift
//! code and gives exactly the interpreter's answers, errors included; the default is the
//! interpreter.

use jitson::engine::{Backend, BackendStatus, Options};
use jitson::{Cache, Codec, Schema};

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
    ];
    for input in inputs {
        let expected = interp.validate_with(&mut a, input.as_bytes());
        let got = native.validate_with(&mut b, input.as_bytes());
        assert_eq!(got, expected, "{input}");
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

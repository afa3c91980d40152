//! `Loader::annotation_keyword`: keywords the engine does not implement, taken as annotations
//! when named (whole names, `x-*` prefixes, `*`), refused otherwise; known keywords keep
//! their meaning; what sits inside an annotation is no schema; the interpreter and native
//! code agree; a schema's key ignores them. The suite's optional files run with `*` in
//! `schema_suite.rs`.

use jitson::engine::{Backend, Options};
use jitson::schema::{Loader, TypeKey};
use jitson::{Codec, Schema};
use serde_json::json;

/// An OpenAPI 3.1 component schema: a discriminated union with examples and extensions.
const PET: &str = r##"{
    "type": "object",
    "required": ["kind"],
    "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/$defs/cat"}},
    "oneOf": [{"$ref": "#/$defs/cat"}, {"$ref": "#/$defs/dog"}],
    "example": {"kind": "cat", "lives": 9},
    "externalDocs": {"url": "https://example.com/pets"},
    "xml": {"name": "pet"},
    "x-owner": "pets",
    "$defs": {
        "cat": {"properties": {"kind": {"const": "cat"}, "lives": {"maximum": 9}},
                "x-internal": true},
        "dog": {"properties": {"kind": {"const": "dog"}}}
    }
}"##;

/// A loader taking OpenAPI's keywords as annotations.
fn openapi() -> Loader {
    let mut loader = Loader::new();
    for keyword in ["discriminator", "example", "externalDocs", "xml", "x-*"] {
        loader.annotation_keyword(keyword);
    }
    loader
}

#[test]
fn unknown_keywords_are_refused_unless_named() {
    let refused = Loader::new().load_json(PET.as_bytes()).unwrap_err();
    assert_eq!(
        refused.to_string(),
        r#"unsupported keyword "discriminator" at /discriminator"#
    );
    let mut partial = Loader::new();
    partial
        .annotation_keyword("discriminator")
        .annotation_keyword("example");
    let refused = partial.load_json(PET.as_bytes()).unwrap_err();
    assert_eq!(
        refused.to_string(),
        r#"unsupported keyword "externalDocs" at /externalDocs"#
    );
    // A prefix takes what it begins, not a keyword that only contains it.
    let mut prefixed = Loader::new();
    prefixed.annotation_keyword("x-*");
    let refused = prefixed.load_json(br#"{"ax-1": 1}"#).unwrap_err();
    assert_eq!(
        refused.to_string(),
        r#"unsupported keyword "ax-1" at /ax-1"#
    );
    assert!(
        prefixed
            .load_json(br#"{"x-": 1, "x-a": {"b": []}}"#)
            .is_ok()
    );
    // `*` takes every keyword.
    let mut every = Loader::new();
    every.annotation_keyword("*");
    assert!(every.load_json(PET.as_bytes()).is_ok());
}

#[test]
fn named_annotations_check_nothing_on_either_backend() {
    let schema = openapi().load_json(PET.as_bytes()).expect("schema");
    let native = Codec::with_options(&schema, Options::new().backend(Backend::Native));
    for codec in [Codec::new(&schema), native] {
        assert!(codec.validate(br#"{"kind": "cat", "lives": 9}"#).is_ok());
        assert!(codec.validate(br#"{"kind": "dog", "lives": 99}"#).is_ok());
        let e = codec
            .validate(br#"{"kind": "cat", "lives": 10}"#)
            .unwrap_err();
        // `kind` is the union's discriminator (its branches' object kinds name it), so the
        // branch the tag selects reports its own error.
        assert_eq!(
            e.to_string(),
            "number above the maximum at line 1 column 26, path $.lives, keyword maximum"
        );
        assert!(codec.validate(br#"{"kind": "bird"}"#).is_err());
    }
}

#[test]
fn known_keywords_keep_their_meaning() {
    let mut loader = Loader::new();
    loader.annotation_keyword("*").annotation_keyword("maximum");
    let schema = loader.load_json(br#"{"maximum": 3}"#).expect("schema");
    assert!(schema.validate_value(&json!(4)).is_err());
    let e = loader.load_json(br#"{"maximum": "3"}"#).unwrap_err();
    assert_eq!(e.to_string(), r#""maximum" must be a number at /maximum"#);
}

#[test]
fn an_annotation_holds_no_schema() {
    let mut loader = Loader::new();
    loader.annotation_keyword("x-*");
    // An `$id` inside names nothing, and a `$ref` cannot point into it.
    let by_id = br#"{"x-defs": {"a": {"$id": "https://example.com/a", "type": "integer"}},
                     "$ref": "https://example.com/a"}"#;
    assert_eq!(
        loader.load_json(by_id).unwrap_err().to_string(),
        r#"unresolved reference "https://example.com/a" at /$ref"#
    );
    let by_pointer = br##"{"x-defs": {"a": {"type": "integer"}}, "$ref": "#/x-defs/a"}"##;
    assert_eq!(
        loader.load_json(by_pointer).unwrap_err().to_string(),
        r##"unresolved reference "#/x-defs/a" at /$ref"##
    );
}

#[test]
fn a_schemas_key_ignores_its_annotations() {
    let plain = Schema::from_json_str(r#"{"type": "integer", "maximum": 3}"#).unwrap();
    let mut loader = Loader::new();
    loader.annotation_keyword("x-*");
    let annotated = loader
        .load_json(br#"{"type": "integer", "x-unit": "kg", "maximum": 3}"#)
        .unwrap();
    assert_eq!(annotated, plain);
    assert_eq!(TypeKey::of(&annotated, 0), TypeKey::of(&plain, 0));
}

//! `jitson::Error`: one exact-message test per error kind, for the value parser and the schema
//! codec alike (serde_json's style: each bug found gets its own regression test here).

use jitson::engine::{BigInts, DuplicateKeys, Options};
use jitson::value::{self, Bump, ParseOptions};
use jitson::{Codec, Error, ErrorKind, Keyword, Schema, SyntaxKind};

/// The codec's error for `input` under `schema` (which must reject it).
fn codec_err(schema: &str, options: Options, input: &str) -> Error {
    let schema = Schema::from_json_str(schema).expect("schema");
    Codec::with_options(&schema, options)
        .validate(input.as_bytes())
        .expect_err("input must be rejected")
}

/// The codec's schema failure: its `Display`, and its keyword's pointer.
fn violation(schema: &str, input: &str) -> (String, Option<Keyword>, String) {
    let e = codec_err(schema, Options::new(), input);
    let pointer = e.schema_pointer().expect("schema failures have a pointer");
    (e.to_string(), e.keyword(), pointer.to_owned())
}

/// serde_json's `Display` for the same input.
fn serde_message(input: &str) -> String {
    serde_json::from_str::<serde_json::Value>(input)
        .expect_err("serde_json rejects it too")
        .to_string()
}

#[test]
fn type_mismatch_names_expected_and_found() {
    let schema = r#"{"type": "object", "properties": {"id": {"type": "integer"}}}"#;
    assert_eq!(
        violation(schema, r#"{"id": "7"}"#),
        (
            "expected integer, found string at line 1 column 8, path $.id, keyword type".into(),
            Some(Keyword::Type),
            "/properties/id/type".into()
        )
    );
    let e = codec_err(schema, Options::new(), r#"{"id": "7"}"#);
    assert_eq!(e.kind(), ErrorKind::Schema(Keyword::Type));
    assert_eq!((e.offset(), e.line(), e.column()), (7, 1, 8));
    assert_eq!(e.message(), "expected integer, found string");
    assert!(e.is_schema() && !e.is_eof());
}

#[test]
fn nullable_type_mismatch_names_both_kinds() {
    let schema = r#"{"items": {"type": ["string", "null"]}}"#;
    assert_eq!(
        violation(schema, "[null, 1]"),
        (
            "expected null or string, found number at line 1 column 8, path $[1], keyword type"
                .into(),
            Some(Keyword::Type),
            "/items/type".into()
        )
    );
}

#[test]
fn bounds_tell_inclusive_from_exclusive() {
    let schema =
        r#"{"properties": {"a": {"type": "number", "minimum": 1}, "b": {"exclusiveMaximum": 5}}}"#;
    assert_eq!(
        violation(schema, r#"{"a": 0.5}"#),
        (
            "number below the minimum at line 1 column 7, path $.a, keyword minimum".into(),
            Some(Keyword::Minimum),
            "/properties/a/minimum".into()
        )
    );
    assert_eq!(
        violation(schema, r#"{"b": 5}"#),
        (
            "number not below the exclusive maximum at line 1 column 7, path $.b, keyword exclusiveMaximum".into(),
            Some(Keyword::ExclusiveMaximum),
            "/properties/b/exclusiveMaximum".into()
        )
    );
}

#[test]
fn the_remaining_bounds() {
    let schema = r#"{"prefixItems": [
        {"exclusiveMinimum": 0}, {"maximum": 9}, {"maxLength": 1}, {"minItems": 1}
    ]}"#;
    let cases = [
        (
            "[0]",
            "number not above the exclusive minimum at line 1 column 2, path $[0], keyword exclusiveMinimum",
            Keyword::ExclusiveMinimum,
            "/prefixItems/0/exclusiveMinimum",
        ),
        (
            "[1, 10]",
            "number above the maximum at line 1 column 5, path $[1], keyword maximum",
            Keyword::Maximum,
            "/prefixItems/1/maximum",
        ),
        (
            r#"[1, 2, "ab"]"#,
            "string longer than maxLength at line 1 column 8, path $[2], keyword maxLength",
            Keyword::MaxLength,
            "/prefixItems/2/maxLength",
        ),
        (
            r#"[1, 2, "a", []]"#,
            "array has fewer items than minItems at line 1 column 14, path $[3], keyword minItems",
            Keyword::MinItems,
            "/prefixItems/3/minItems",
        ),
    ];
    for (input, display, keyword, pointer) in cases {
        assert_eq!(
            violation(schema, input),
            (display.into(), Some(keyword), pointer.into()),
            "{input}"
        );
    }
}

#[test]
fn string_keywords() {
    let schema =
        r#"{"prefixItems": [{"minLength": 2}, {"pattern": "^a"}], "items": {"multipleOf": 3}}"#;
    assert_eq!(
        violation(schema, r#"["x"]"#),
        (
            "string shorter than minLength at line 1 column 2, path $[0], keyword minLength".into(),
            Some(Keyword::MinLength),
            "/prefixItems/0/minLength".into()
        )
    );
    assert_eq!(
        violation(schema, r#"["xy", "b"]"#),
        (
            "string does not match the pattern at line 1 column 8, path $[1], keyword pattern"
                .into(),
            Some(Keyword::Pattern),
            "/prefixItems/1/pattern".into()
        )
    );
    assert_eq!(
        violation(schema, r#"["xy", "a", 4]"#),
        (
            "number is not a multiple of multipleOf at line 1 column 13, path $[2], keyword multipleOf".into(),
            Some(Keyword::MultipleOf),
            "/items/multipleOf".into()
        )
    );
}

#[test]
fn object_and_array_keywords_point_at_the_closing_bracket() {
    let schema = r#"{"type": "object", "properties": {"c": {"type": "array", "maxItems": 1}}, "required": ["c"], "additionalProperties": false}"#;
    assert_eq!(
        violation(schema, "{\n}"),
        (
            "missing required field \"c\" at line 2 column 1, path $, keyword required".into(),
            Some(Keyword::Required),
            "/required".into()
        )
    );
    assert_eq!(
        violation(schema, r#"{"c": [1, 2]}"#),
        (
            "array has more items than maxItems at line 1 column 12, path $.c, keyword maxItems"
                .into(),
            Some(Keyword::MaxItems),
            "/properties/c/maxItems".into()
        )
    );
    assert_eq!(
        violation(schema, r#"{"c": [], "x y": 1}"#),
        (
            "unknown field at line 1 column 18, path $[\"x y\"], keyword additionalProperties"
                .into(),
            Some(Keyword::AdditionalProperties),
            "/additionalProperties".into()
        )
    );
}

#[test]
fn combinators_and_constants() {
    let cases = [
        (
            r#"{"enum": [1, "a"]}"#,
            "2",
            "value is not one of the allowed values at line 1 column 1, path $, keyword enum",
            Keyword::Enum,
            "/enum",
        ),
        (
            r#"{"anyOf": [{"type": "string"}, {"minimum": 3}]}"#,
            "2",
            "value matches no branch of anyOf at line 1 column 1, path $, keyword anyOf",
            Keyword::AnyOf,
            "/anyOf",
        ),
        (
            r#"{"oneOf": [{"type": "integer"}, {"minimum": 1}]}"#,
            "2",
            "value matches 2 branches of oneOf, not exactly one at line 1 column 1, path $, keyword oneOf",
            Keyword::OneOf,
            "/oneOf",
        ),
        (
            r#"{"not": {"type": "integer"}}"#,
            "2",
            "value matches the schema of not at line 1 column 1, path $, keyword not",
            Keyword::Not,
            "/not",
        ),
        (
            r#"{"properties": {"a": false}}"#,
            r#"{"a": 2}"#,
            "no value is allowed here at line 1 column 7, path $.a, keyword false",
            Keyword::False,
            "/properties/a",
        ),
    ];
    for (schema, input, display, keyword, pointer) in cases {
        assert_eq!(
            violation(schema, input),
            (display.into(), Some(keyword), pointer.into()),
            "{schema}"
        );
    }
}

#[test]
fn references_and_all_of_add_no_token() {
    let schema = r##"{"$defs": {"id": {"type": "integer", "minimum": 0}},
        "properties": {"ids": {"items": {"$ref": "#/$defs/id"}}},
        "allOf": [{"properties": {"n": {"maxLength": 1}}}]}"##;
    assert_eq!(
        violation(schema, r#"{"ids": [1, -1]}"#).2,
        "/properties/ids/items/minimum"
    );
    assert_eq!(
        violation(schema, r#"{"n": "ab"}"#).2,
        "/properties/n/maxLength"
    );
}

/// Regression (found from a fuzz `parse` report, 2026-12-07): the outcome of an `if` that
/// the error names was chosen on the document as serde_json reads it. With its `raw_value`
/// feature (which jitson enables) serde_json refuses an object whose first key is
/// `$serde_json::private::RawValue`, so the first outcome was named. Without its
/// `float_roundtrip` feature it reads `1.000000000000000085` as `1.0000000000000002`, not
/// `1.0`; this test build has that feature (through `jsonschema`), so the second case guards
/// builds that do not.
#[test]
fn the_outcome_named_is_the_one_the_engine_took() {
    let schema = r#"{"if": {"properties": {"x": {"maximum": 1}}},
        "then": {"properties": {"a": {"minimum": 5}}},
        "else": {"properties": {"a": {"minimum": 10}}}}"#;
    let cases = [
        (
            r#"{"x": 1.000000000000000085, "a": 3}"#,
            "/then/properties/a/minimum",
        ),
        (
            r#"{"x": 1.0000000000000003, "a": 3}"#,
            "/else/properties/a/minimum",
        ),
        (
            r#"{"$serde_json::private::RawValue": 1, "x": 2, "a": 7}"#,
            "/else/properties/a/minimum",
        ),
    ];
    for (input, pointer) in cases {
        let (message, keyword, at) = violation(schema, input);
        assert!(message.starts_with("number below the minimum"), "{message}");
        assert_eq!(
            (keyword, at.as_str()),
            (Some(Keyword::Minimum), pointer),
            "{input}"
        );
    }
}

#[test]
fn syntax_errors_read_like_serde_json() {
    let schema =
        r#"{"type": "object", "properties": {"a": {"type": "array"}, "s": {"type": "string"}}}"#;
    for (input, kind, path) in [
        (r#"{"s": "x"#, SyntaxKind::EofWhileParsingString, "$.s"),
        (r#"{"a": [1, 2"#, SyntaxKind::EofWhileParsingArray, "$.a"),
        (
            r#"{"a": [1 2]}"#,
            SyntaxKind::ExpectedArrayCommaOrEnd,
            "$.a",
        ),
        // Regression: the interpreter's path held a placeholder index for the member whose
        // key was being read (`$[0]`).
        (r#"{"a" 1}"#, SyntaxKind::ExpectedColon, "$.a"),
        (r#"{"s": "\q"}"#, SyntaxKind::InvalidEscape, "$.s"),
        (r#"{"a": [tru]}"#, SyntaxKind::InvalidLiteral, "$.a[0]"),
        (r#"{"s": ""} x"#, SyntaxKind::TrailingCharacters, "$"),
    ] {
        let e = codec_err(schema, Options::new(), input);
        assert_eq!(e.kind(), ErrorKind::Syntax(kind), "{input}");
        assert_eq!(e.path().to_string(), path, "{input}");
        let serde = serde_message(input);
        assert_eq!(
            e.to_string(),
            format!("{serde}, path {path}"),
            "{input}: jitson and serde_json disagree"
        );
        assert_eq!((e.keyword(), e.schema_pointer()), (None, None));
    }
}

#[test]
fn depth_limit() {
    // The codec skips an unconstrained value without tracking its path; the message is the
    // value parser's, with the full path.
    let e = codec_err("{}", Options::new().max_depth(2), "[[[1]]]");
    assert_eq!(e.kind(), ErrorKind::DepthLimitExceeded);
    assert_eq!(
        e.to_string(),
        "recursion limit exceeded at line 1 column 3, path $[0][0]"
    );
    let arena = Bump::new();
    let parsed = value::parse_with(b"[[[1]]]", &arena, &ParseOptions::new().max_depth(2));
    assert_eq!(parsed.unwrap_err().to_string(), e.to_string());
}

#[test]
fn number_out_of_range() {
    let e = codec_err(r#"{"type": "number"}"#, Options::new(), "1e400");
    assert_eq!(e.kind(), ErrorKind::NumberOutOfRange);
    assert_eq!(
        e.to_string(),
        "number out of range at line 1 column 5, path $"
    );
    assert_eq!(e.to_string(), format!("{}, path $", serde_message("1e400")));
    let options = Options::new().big_ints(BigInts::Error);
    let big = codec_err(
        r#"{"items": {"type": "integer"}}"#,
        options,
        "[18446744073709551616]",
    );
    assert_eq!(
        big.to_string(),
        "number out of range at line 1 column 21, path $[0]"
    );
}

#[test]
fn duplicate_key() {
    let options = Options::new().duplicate_keys(DuplicateKeys::Deny);
    let e = codec_err(
        r#"{"properties": {"a": {}}}"#,
        options,
        r#"{"a": 1, "a": 2}"#,
    );
    assert_eq!(e.kind(), ErrorKind::DuplicateKey);
    assert_eq!(e.to_string(), "duplicate key at line 1 column 10, path $.a");
}

#[test]
fn error_kind_display() {
    assert_eq!(ErrorKind::DuplicateKey.to_string(), "duplicate key");
    assert_eq!(
        ErrorKind::Schema(Keyword::ExclusiveMinimum).to_string(),
        "schema violation (keyword exclusiveMinimum)"
    );
    assert_eq!(
        ErrorKind::Syntax(SyntaxKind::TrailingComma).to_string(),
        "trailing comma"
    );
}

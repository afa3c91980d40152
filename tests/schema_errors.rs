//! Every load error: exact messages (kind + JSON Pointer), from JSON Schema text and from the
//! builder.

use jitson::Schema;
use jitson::schema::builder::{integer, number, object, reference, string};
use jitson::schema::{SchemaBuilder, SchemaErrorKind};

/// The load error of `text`, displayed.
fn error(text: &str) -> String {
    match Schema::from_json_str(text) {
        Ok(schema) => panic!("{text} loaded: {schema:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn malformed_json() {
    assert_eq!(
        error("{"),
        "invalid JSON: EOF while parsing an object at line 1 column 1"
    );
    assert_eq!(
        error(r#"{"a": 1} x"#),
        "invalid JSON: trailing characters at line 1 column 10"
    );
}

#[test]
fn duplicate_keys() {
    assert_eq!(
        error(r#"{"properties": {"a": {}, "a": {}}}"#),
        r#"duplicate key "a" at /properties"#
    );
    assert_eq!(
        error(r#"{"const": {"x": 1, "x": 2}}"#),
        r#"duplicate key "x" at /const"#
    );
}

#[test]
fn unsupported_keywords_anywhere() {
    assert_eq!(
        error(r#"{"properties": {"a": {"$recursiveAnchor": true}}}"#),
        r#"unsupported keyword "$recursiveAnchor" at /properties/a/$recursiveAnchor"#
    );
    assert_eq!(
        error(r#"{"foo": 1}"#),
        r#"unsupported keyword "foo" at /foo"#
    );
    // Unreferenced definitions are checked too.
    assert_eq!(
        error(r#"{"$defs": {"x": {"$recursiveRef": "x"}}}"#),
        r#"unsupported keyword "$recursiveRef" at /$defs/x/$recursiveRef"#
    );
    assert_eq!(
        error(r##"{"items": {"anyOf": [{"$recursiveRef": "#"}]}}"##),
        r#"unsupported keyword "$recursiveRef" at /items/anyOf/0/$recursiveRef"#
    );
    assert_eq!(
        error(r#"{"a~b/c": 1}"#),
        r#"unsupported keyword "a~b/c" at /a~0b~1c"#
    );
    // `unevaluatedProperties` whose evaluated members would take more than 16 cases of
    // `anyOf` / `oneOf` branches, `if` outcomes and `dependentSchemas` members.
    let branch =
        "unsupported \"unevaluatedProperties\": the members it takes would depend on this branch";
    // 2^5 cases, more than a plan takes.
    let schema = r#"{"allOf": [
        {"oneOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]},
        {"oneOf": [{"properties": {"c": {}}}, {"properties": {"d": {}}}]},
        {"oneOf": [{"properties": {"e": {}}}, {"properties": {"f": {}}}]},
        {"oneOf": [{"properties": {"g": {}}}, {"properties": {"h": {}}}]},
        {"dependentSchemas": {"i": {"properties": {"j": {}}}}}
    ], "unevaluatedProperties": false}"#;
    assert_eq!(error(schema), format!("{branch} at /allOf/0/oneOf/0"));
    // Branches that evaluate only what the schema's other keywords do, and branches whose
    // outcome decides what is evaluated, their own branches too, are fine (`then` / `else`
    // without `if` apply nowhere).
    for schema in [
        r#"{"anyOf": [{"properties": {"a": {}}}], "unevaluatedProperties": false}"#,
        r#"{"properties": {"a": {}}, "anyOf": [{"properties": {"a": {}}}, {"required": ["b"]}], "unevaluatedProperties": false}"#,
        r#"{"additionalProperties": {}, "oneOf": [{"properties": {"a": {}}}], "unevaluatedProperties": false}"#,
        r#"{"properties": {"b": {}}, "dependentSchemas": {"a": {"properties": {"b": {"type": "string"}}, "required": ["b"]}}, "unevaluatedProperties": false}"#,
        r#"{"if": {"properties": {"a": {}}}, "unevaluatedProperties": false}"#,
        r#"{"allOf": [{"oneOf": [true, {"patternProperties": {"^b": {}}}]}], "unevaluatedProperties": {}}"#,
        r#"{"properties": {"a": {}}, "then": {"additionalProperties": false}, "unevaluatedProperties": false}"#,
        r#"{"dependentSchemas": {"a": {"properties": {"b": {}}}}, "unevaluatedProperties": false}"#,
        r#"{"oneOf": [{"anyOf": [{"properties": {"b": {}}}]}], "unevaluatedProperties": false}"#,
        r#"{"if": {"oneOf": [{"properties": {"b": {}}}]}, "then": {}, "unevaluatedProperties": false}"#,
    ] {
        assert!(Schema::from_json_str(schema).is_ok(), "{schema}");
    }
    // The same for `unevaluatedItems` (a branch that reaches itself in place goes too deep);
    // `contains` evaluates the items matching it.
    let branch = "unsupported \"unevaluatedItems\": the items it takes would depend on this branch";
    // A branch that applies itself in place, through its definition.
    let schema = r##"{"$defs": {"a": {"oneOf": [{"$ref": "#/$defs/a"}, {"prefixItems": [{}]}]}},
        "$ref": "#/$defs/a", "unevaluatedItems": false}"##;
    assert_eq!(error(schema), format!("{branch} at /$defs/a/oneOf/0"));
    for schema in [
        r#"{"prefixItems": [{}, {}], "anyOf": [{"prefixItems": [{"type": "string"}]}, {"minItems": 1}], "unevaluatedItems": false}"#,
        r#"{"items": {}, "contains": {}, "oneOf": [{"prefixItems": [{}]}], "unevaluatedItems": false}"#,
        r#"{"allOf": [{"items": false}], "anyOf": [{"contains": {}}], "unevaluatedItems": false}"#,
        r#"{"prefixItems": [{}], "else": {"prefixItems": [{}, {}]}, "unevaluatedItems": false}"#,
        r#"{"oneOf": [{"items": true}], "unevaluatedItems": {}}"#,
        r#"{"anyOf": [{"prefixItems": [{}]}], "unevaluatedItems": false}"#,
        r#"{"allOf": [{"contains": {"type": "string"}}], "unevaluatedItems": false}"#,
        r#"{"anyOf": [{"contains": {}}], "contains": {"type": "null"}, "unevaluatedItems": false}"#,
        r#"{"oneOf": [{"contains": {}}, {"items": true}], "unevaluatedItems": false}"#,
        r#"{"oneOf": [{"anyOf": [{"prefixItems": [{}]}]}], "unevaluatedItems": false}"#,
        r#"{"if": {"dependentSchemas": {"a": {"contains": {}}}}, "unevaluatedItems": false}"#,
    ] {
        assert!(Schema::from_json_str(schema).is_ok(), "{schema}");
    }
    // Keywords inside `const` / `enum` values are data, not keywords.
    assert!(Schema::from_json_str(r#"{"const": {"unevaluatedItems": 1}}"#).is_ok());
}

#[test]
fn dialects() {
    assert_eq!(
        error(r#"{"$schema": "http://json-schema.org/draft-07/schema#"}"#),
        r#"unknown dialect "http://json-schema.org/draft-07/schema#" (no meta-schema has that URI; jitson reads draft 2020-12 and the dialects built on it) at /$schema"#
    );
    for ok in [
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2020-12/schema#",
    ] {
        assert!(Schema::from_json_str(&format!(r#"{{"$schema": "{ok}"}}"#)).is_ok());
    }
}

#[test]
fn not_a_schema() {
    assert_eq!(
        error("5"),
        "expected a schema (an object or a boolean) at the schema root"
    );
    assert_eq!(
        error(r#"{"items": 5}"#),
        "expected a schema (an object or a boolean) at /items"
    );
    assert_eq!(
        error(r#"{"properties": {"a": null}}"#),
        "expected a schema (an object or a boolean) at /properties/a"
    );
}

#[test]
fn invalid_keyword_values() {
    for (text, message) in [
        (
            r#"{"minLength": -1}"#,
            r#""minLength" must be a non-negative integer at /minLength"#,
        ),
        (
            r#"{"maxItems": 1.5}"#,
            r#""maxItems" must be a non-negative integer at /maxItems"#,
        ),
        (
            r#"{"minItems": "1"}"#,
            r#""minItems" must be a non-negative integer at /minItems"#,
        ),
        (
            r#"{"multipleOf": 0}"#,
            r#""multipleOf" must be a number greater than 0 at /multipleOf"#,
        ),
        (
            r#"{"multipleOf": -2}"#,
            r#""multipleOf" must be a number greater than 0 at /multipleOf"#,
        ),
        (
            r#"{"minimum": "5"}"#,
            r#""minimum" must be a number at /minimum"#,
        ),
        (
            r#"{"exclusiveMaximum": true}"#,
            r#""exclusiveMaximum" must be a number at /exclusiveMaximum"#,
        ),
        (
            r#"{"required": ["a", "a"]}"#,
            r#""required" must be an array of unique strings at /required"#,
        ),
        (
            r#"{"required": "a"}"#,
            r#""required" must be an array of unique strings at /required"#,
        ),
        (
            r#"{"uniqueItems": 1}"#,
            r#""uniqueItems" must be a boolean at /uniqueItems"#,
        ),
        (
            r#"{"contains": {}, "minContains": "1"}"#,
            r#""minContains" must be a non-negative integer at /minContains"#,
        ),
        (
            r#"{"contains": 1}"#,
            "expected a schema (an object or a boolean) at /contains",
        ),
        (
            r#"{"minProperties": -1}"#,
            r#""minProperties" must be a non-negative integer at /minProperties"#,
        ),
        (
            r#"{"maxProperties": 0.5}"#,
            r#""maxProperties" must be a non-negative integer at /maxProperties"#,
        ),
        (
            r#"{"dependentRequired": {"a": ["b", "b"]}}"#,
            r#""dependentRequired" must be an array of unique strings at /dependentRequired/a"#,
        ),
        (
            r#"{"dependentRequired": {"a~b": "c"}}"#,
            r#""dependentRequired" must be an array of unique strings at /dependentRequired/a~0b"#,
        ),
        (
            r#"{"dependentRequired": ["a"]}"#,
            r#""dependentRequired" must be an object of arrays of unique strings at /dependentRequired"#,
        ),
        (r#"{"enum": 1}"#, r#""enum" must be an array at /enum"#),
        (
            r#"{"propertyNames": 1}"#,
            "expected a schema (an object or a boolean) at /propertyNames",
        ),
        (
            r#"{"patternProperties": {"^a": 1}}"#,
            "expected a schema (an object or a boolean) at /patternProperties/^a",
        ),
        (
            r#"{"patternProperties": ["^a"]}"#,
            r#""patternProperties" must be an object of schemas at /patternProperties"#,
        ),
        (
            r#"{"dependentSchemas": {"a": 1}}"#,
            "expected a schema (an object or a boolean) at /dependentSchemas/a",
        ),
        (
            r#"{"dependentSchemas": ["a"]}"#,
            r#""dependentSchemas" must be an object of schemas at /dependentSchemas"#,
        ),
        (
            r#"{"type": ["string", "string"]}"#,
            r#""type" must be a type name or an array of unique type names at /type"#,
        ),
        (
            r#"{"type": 1}"#,
            r#""type" must be a type name or an array of unique type names at /type"#,
        ),
        (
            r#"{"allOf": []}"#,
            r#""allOf" must be a non-empty array of schemas at /allOf"#,
        ),
        (
            r#"{"prefixItems": {}}"#,
            r#""prefixItems" must be a non-empty array of schemas at /prefixItems"#,
        ),
        (
            r#"{"properties": []}"#,
            r#""properties" must be an object of schemas at /properties"#,
        ),
        (
            r#"{"$id": "http://x.com/a#frag"}"#,
            r#""$id" must be a URI without a fragment at /$id"#,
        ),
        (
            r#"{"$anchor": "1x"}"#,
            r#""$anchor" must be a plain-name fragment at /$anchor"#,
        ),
        (r#"{"title": 5}"#, r#""title" must be a string at /title"#),
        (
            r#"{"deprecated": "yes"}"#,
            r#""deprecated" must be a boolean at /deprecated"#,
        ),
        (
            r#"{"examples": {}}"#,
            r#""examples" must be an array at /examples"#,
        ),
        (
            r#"{"$ref": 5}"#,
            r#""$ref" must be a URI reference at /$ref"#,
        ),
        (
            r#"{"pattern": 5}"#,
            r#""pattern" must be a string at /pattern"#,
        ),
        (
            r#"{"$schema": 5}"#,
            r#""$schema" must be a string at /$schema"#,
        ),
    ] {
        assert_eq!(error(text), message, "{text}");
    }
}

#[test]
fn unknown_type() {
    assert_eq!(
        error(r#"{"type": "int"}"#),
        r#"unknown type "int" at /type"#
    );
    assert_eq!(
        error(r#"{"type": ["null", "float"]}"#),
        r#"unknown type "float" at /type"#
    );
}

#[test]
fn invalid_pattern() {
    let e = Schema::from_json_str(r#"{"properties": {"a": {"pattern": "(a"}}}"#).unwrap_err();
    assert!(matches!(e.kind(), SchemaErrorKind::InvalidPattern { pattern, .. } if pattern == "(a"));
    assert_eq!(e.pointer(), "/properties/a/pattern");
    assert!(
        e.to_string().starts_with(r#"invalid pattern "(a": "#),
        "{e}"
    );
    // Look-around is not supported by the `regex` crate: rejected, not misread.
    let e = Schema::from_json_str(r#"{"pattern": "a(?!b)"}"#).unwrap_err();
    assert!(matches!(e.kind(), SchemaErrorKind::InvalidPattern { .. }));
    // Regression (the format suite's `regex`): `regex` read `\a` as a bell, `\z` as the end;
    // ECMA-262 (flag `u`) has neither escape.
    for (pattern, letter) in [
        (r"^\\a", 'a'),
        (r"x\\z", 'z'),
        (r"[\\e]", 'e'),
        (r"\\c1", 'c'),
    ] {
        let text = format!(r#"{{"pattern": "{pattern}"}}"#);
        let e = Schema::from_json_str(&text).unwrap_err();
        let source = pattern.replace(r"\\", r"\");
        assert_eq!(
            e.to_string(),
            format!(
                r#"invalid pattern {source:?}: \{letter} is not an ECMA-262 escape at /pattern"#
            )
        );
    }
    // A `patternProperties` name is a pattern, pointed at by its member.
    let e = Schema::from_json_str(r#"{"patternProperties": {"a/(": {}}}"#).unwrap_err();
    assert!(
        matches!(e.kind(), SchemaErrorKind::InvalidPattern { pattern, .. } if pattern == "a/(")
    );
    assert_eq!(e.pointer(), "/patternProperties/a~1(");
    // Also when an `unevaluatedProperties` elsewhere takes the pattern in first.
    let schema = r##"{"$ref": "#/$defs/p", "unevaluatedProperties": false,
        "$defs": {"p": {"patternProperties": {"(": {}}}}}"##;
    let e = Schema::from_json_str(schema).unwrap_err();
    assert!(matches!(e.kind(), SchemaErrorKind::InvalidPattern { .. }));
    assert_eq!(e.pointer(), "/$defs/p/patternProperties/(");
}

#[test]
fn duplicate_identifiers() {
    assert_eq!(
        error(r#"{"$defs": {"a": {"$id": "x.json"}, "b": {"$id": "x.json"}}}"#),
        r#""x.json" is defined twice at /$defs/b/$id"#
    );
    assert_eq!(
        error(r#"{"$defs": {"a": {"$anchor": "n"}, "b": {"$anchor": "n"}}}"#),
        r##""#n" is defined twice at /$defs/b/$anchor"##
    );
}

#[test]
fn unresolved_references() {
    for (text, message) in [
        (
            r##"{"$ref": "#/$defs/missing"}"##,
            r##"unresolved reference "#/$defs/missing" at /$ref"##,
        ),
        (
            r#"{"items": {"$ref": "https://example.com/remote.json"}}"#,
            r#"unresolved reference "https://example.com/remote.json" at /items/$ref"#,
        ),
        (
            r##"{"properties": {"a": {}}, "items": {"$ref": "#/properties"}}"##,
            r##"unresolved reference "#/properties" at /items/$ref"##,
        ),
        (
            r##"{"$ref": "#/a~2"}"##,
            r##"unresolved reference "#/a~2" at /$ref"##,
        ),
        (
            r##"{"$ref": "#nowhere"}"##,
            r##"unresolved reference "#nowhere" at /$ref"##,
        ),
        (
            r#"{"$ref": "other.json"}"#,
            r#"unresolved reference "other.json" at /$ref"#,
        ),
    ] {
        assert_eq!(error(text), message, "{text}");
    }
}

#[test]
fn references_that_never_reach_a_value() {
    assert_eq!(
        error(r##"{"$ref": "#"}"##),
        "references loop without ever reaching a value at the schema root"
    );
    assert_eq!(
        error(r##"{"anyOf": [{"type": "string"}, {"$ref": "#"}]}"##),
        "references loop without ever reaching a value at the schema root"
    );
    assert_eq!(
        error(r##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"not": {"$ref": "#/$defs/a"}}}}"##),
        "references loop without ever reaching a value at /$defs/a"
    );
    // Recursion through an array item or an object member is fine.
    assert!(
        Schema::from_json_str(r##"{"anyOf": [{"type": "null"}, {"items": {"$ref": "#"}}]}"##)
            .is_ok()
    );
}

#[test]
fn builder_errors() {
    let e = Schema::build(object().field("a", reference("nope"))).unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"unresolved reference "nope" at /properties/a/$ref"#
    );

    let e = SchemaBuilder::new()
        .define("a", integer())
        .define("a", string())
        .build(reference("a"))
        .unwrap_err();
    assert_eq!(e.to_string(), r#""a" is defined twice at /$defs/a"#);

    let e = Schema::build(object().field("a", integer()).optional("a", string())).unwrap_err();
    assert_eq!(e.to_string(), r#"duplicate key "a" at /properties"#);

    let e = Schema::build(number().minimum(f64::NAN)).unwrap_err();
    assert_eq!(
        e.to_string(),
        r#""minimum" must be a finite number at /minimum"#
    );

    let e = Schema::build(object().field("n", integer().multiple_of(0))).unwrap_err();
    assert_eq!(
        e.to_string(),
        r#""multipleOf" must be a number greater than 0 at /properties/n/multipleOf"#
    );

    let e = SchemaBuilder::new()
        .define("a", reference("a"))
        .build(reference("a"))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "references loop without ever reaching a value at /$defs/a"
    );

    let e = string().pattern("[").unwrap_err();
    assert!(matches!(e.kind(), SchemaErrorKind::InvalidPattern { .. }));

    let e = Schema::build(object().pattern_property("(", integer())).unwrap_err();
    assert!(matches!(e.kind(), SchemaErrorKind::InvalidPattern { .. }));
    assert_eq!(e.pointer(), "/patternProperties/(");
    let e = Schema::build(
        object()
            .pattern_property("^a", integer())
            .pattern_property("^a", string()),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), r#"duplicate key "^a" at /patternProperties"#);
    let e = Schema::build(
        object()
            .field("id", integer())
            .alias("id", "x-id")
            .pattern_property("^x-", string()),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "\"patternProperties\" must be patterns that match all of a field's names and aliases \
         or none at /patternProperties/^x-"
    );
}

//! `schema_validate`: arbitrary bytes against a fixed set of schemas — the testdata schemas
//! (twitter, citm_catalog, canada, book), the built-in draft 2020-12 meta-schema, and small
//! ones with unions, references, recursion, bounds, enums and patterns. For each, the engine ([`Codec::validate`]) must agree with the
//! reference validator ([`Schema::validate_value`]); see [`engine_agrees`] for the exact rules.

use std::cell::RefCell;
use std::sync::OnceLock;

use jitson::engine::{Cache, Options};
use jitson::value::{self, Bump};
use jitson::{Codec, Position, Schema};

use super::oracle::{SERDE_DEPTH, guarded, has_duplicate_keys, serde_like, serde_verdict, show};

/// The schemas, by name.
const SCHEMAS: &[(&str, &str)] = &[
    (
        "twitter",
        include_str!("../../../testdata/schemas/twitter.schema.json"),
    ),
    (
        "citm_catalog",
        include_str!("../../../testdata/schemas/citm_catalog.schema.json"),
    ),
    (
        "canada",
        include_str!("../../../testdata/schemas/canada.schema.json"),
    ),
    (
        "book",
        include_str!("../../../testdata/schemas/book.schema.json"),
    ),
    ("any", "{}"),
    (
        "meta_schema",
        r#"{"$ref": "https://json-schema.org/draft/2020-12/schema"}"#,
    ),
    (
        "every_kind",
        r##"{"anyOf": [{"type": "null"}, {"type": "boolean"}, {"type": "number"}, {"type": "string"},
            {"type": "array", "items": {"$ref": "#"}}, {"type": "object", "additionalProperties": {"$ref": "#"}}]}"##,
    ),
    (
        "union",
        r#"{"type": "array", "items": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 100},
            {"type": "string", "maxLength": 3}, {"type": "null"}, {"type": "array", "maxItems": 1}]}}"#,
    ),
    (
        "tagged",
        r#"{"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number", "minimum": 0}}, "required": ["kind", "r"]},
            {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "integer"}}, "required": ["kind", "side"], "additionalProperties": false},
            {"type": "object", "properties": {"kind": {"enum": ["dot", "point"]}}, "required": ["kind"]}
        ]}"#,
    ),
    (
        "tree",
        r##"{"$ref": "#/$defs/node", "$defs": {"node": {"type": "object",
            "properties": {"value": {"type": "number"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 4}},
            "required": ["value"], "additionalProperties": false}}}"##,
    ),
    (
        "bounds",
        r#"{"type": "object", "properties": {
            "i": {"type": "integer", "minimum": -5, "exclusiveMaximum": 9007199254740993},
            "u": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615},
            "n": {"type": "integer", "maximum": -9223372036854775808},
            "f": {"type": "number", "exclusiveMinimum": -1.5, "maximum": 1e300, "multipleOf": 0.5},
            "t": {"type": "number", "multipleOf": 0.1},
            "m": {"type": "integer", "multipleOf": 3},
            "s": {"type": "string", "minLength": 1, "maxLength": 4},
            "a": {"type": "array", "minItems": 1, "maxItems": 3, "prefixItems": [{"type": "boolean"}], "items": {"type": "integer"}}
        }}"#,
    ),
    (
        "enums",
        r#"{"type": "array", "items": {"anyOf": [
            {"enum": ["a", "é", 1, 1.5, null, true, [1, "x"], {"k": 0}]},
            {"const": {"x": []}}
        ]}}"#,
    ),
    (
        "patterns",
        r#"{"type": "object", "properties": {"id": {"type": "string", "pattern": "^(é|x)+$"}},
            "additionalProperties": {"type": "string", "pattern": "^[a-z]+\\d?$"}}"#,
    ),
    (
        "pattern_members",
        r#"{"type": "object", "properties": {"id": {"type": "integer"}},
            "patternProperties": {"^i": {"minimum": 0}, "é|\\d": {"type": ["array", "null"]},
                "^o": {"type": "object", "patternProperties": {"": {"type": "string"}}}},
            "additionalProperties": false}"#,
    ),
    (
        "unevaluated",
        r##"{"$defs": {"b": {"properties": {"b": {"type": "integer"}}}},
            "$ref": "#/$defs/b", "properties": {"a": {}},
            "allOf": [{"patternProperties": {"^x": {"type": "string"}}}],
            "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
            "unevaluatedProperties": {"type": "boolean"}}"##,
    ),
    (
        "unevaluated_items",
        r##"{"$defs": {"p": {"prefixItems": [{"type": "integer"}, {"type": "string"}]}},
            "type": "array", "$ref": "#/$defs/p",
            "allOf": [{"prefixItems": [{}, {}, {"type": "array", "prefixItems": [{}],
                "unevaluatedItems": false}]}],
            "anyOf": [{"maxItems": 4}, {"prefixItems": [{"minimum": 0}]}],
            "unevaluatedItems": {"type": ["boolean", "null"]}}"##,
    ),
    (
        "dependent",
        r#"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {}},
            "dependentSchemas": {"a": {"required": ["b"], "properties": {"b": {"maxLength": 2}}},
                "c": {"properties": {"a": {"minimum": 3}}}, "é": false},
            "unevaluatedProperties": {"type": ["string", "null"]}}"#,
    ),
    (
        "logic",
        r#"{"type": ["object", "null"], "required": ["n"], "properties": {
            "n": {"type": ["integer", "null"]},
            "x": {"not": {"type": "string"}},
            "y": {"allOf": [{"type": "number"}, {"minimum": 0}]},
            "z": {"if": {"type": "string"}, "then": {"minLength": 2}, "else": {"type": "integer"}}
        }}"#,
    ),
    (
        "whole",
        r#"{"type": "array", "uniqueItems": true, "items": {
            "type": "object",
            "properties": {"t": {"type": "array", "uniqueItems": true}, "c": {}, "b": {},
                "k": {"contains": {"type": "string"}, "minContains": 1, "maxContains": 2}},
            "additionalProperties": {"type": "array", "items": {"type": "number"}, "uniqueItems": true},
            "minProperties": 1, "maxProperties": 3,
            "dependentRequired": {"c": ["b"]}
        }}"#,
    ),
];

/// The loaded schemas and their interpreter codecs (loaded once per process).
pub(crate) fn loaded_schemas() -> &'static [(&'static str, Schema, Codec)] {
    static LOADED: OnceLock<Vec<(&'static str, Schema, Codec)>> = OnceLock::new();
    LOADED.get_or_init(|| {
        SCHEMAS
            .iter()
            .map(|&(name, text)| {
                let schema = Schema::from_json_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
                let codec = serde_like_codec(&schema);
                (name, schema, codec)
            })
            .collect()
    })
}

/// A codec whose nesting limit is serde_json's.
pub(crate) fn serde_like_codec(schema: &Schema) -> Codec {
    Codec::with_options(schema, Options::new().max_depth(SERDE_DEPTH as u32))
}

/// The body of the `schema_validate` target.
pub fn run(data: &[u8]) {
    for (name, schema, codec) in loaded_schemas() {
        if let Err(e) = engine_agrees(schema, codec, data) {
            panic!("schema {name}, input {}: {e}", show(data));
        }
    }
}

thread_local! {
    /// One cache reused across every run, to catch state leaking from one run to the next.
    static CACHE: RefCell<Cache> = RefCell::new(Cache::new());
}

/// Checks the engine on one input against the reference validator:
///
/// - the verdict is "serde_json parses it and `validate_value` accepts the value" (the value
///   as jitson's parser reads it, so floats are correctly rounded as the engine reads them;
///   the `parse` target checks that this is serde_json's value). Documented difference: with
///   a repeated key the engine checks every occurrence where serde_json keeps the last, so
///   it may reject, with a schema error, a text whose last occurrences are valid;
/// - on JSON input, every engine error is a schema error;
/// - on input that is not JSON, a schema error may only come before serde_json's syntax
///   error (the engine validates in one pass, so it can stop at a bad value first);
/// - a reused [`Cache`] gives the same answer as a fresh one, and so does the input placed
///   against a guard page (no read past its end);
/// - `validate_all` is empty exactly when `validate` accepts, and starts with its error.
pub(crate) fn engine_agrees(schema: &Schema, codec: &Codec, data: &[u8]) -> Result<(), String> {
    let got = codec.validate(data);
    let cached = CACHE.with(|cache| codec.validate_with(&mut cache.borrow_mut(), data));
    if cached != got {
        return Err(format!("reused cache gives {cached:?}, fresh {got:?}"));
    }
    let placed = guarded(data, |placed, _| codec.validate(placed));
    if placed != got {
        return Err(format!("at a guard page {placed:?}, on the heap {got:?}"));
    }
    let all = codec.validate_all(data, 8);
    if all.first() != got.as_ref().err() {
        return Err(format!("validate gives {got:?}, validate_all {all:?}"));
    }
    let Some(verdict) = serde_verdict(data) else {
        return Ok(());
    };
    let expected = match verdict {
        Ok(theirs) => {
            let arena = Bump::new();
            let checked = match value::parse_with(data, &arena, &serde_like()) {
                Ok(ours) => ours.to_serde(),
                Err(_) => theirs,
            };
            schema.validate_value(&checked).map_err(|e| e.to_string())
        }
        Err(syntax) => {
            let Err(e) = &got else {
                return Err(format!("accepted, but serde_json says {syntax}"));
            };
            let theirs = Position {
                line: syntax.line(),
                column: syntax.column(),
            };
            if e.is_schema() && e.position() > theirs {
                return Err(format!("schema error {e} after serde_json's {syntax}"));
            }
            return Ok(());
        }
    };
    match (&got, &expected) {
        (Err(e), _) if !e.is_schema() => Err(format!("serde_json accepts, engine says {e}")),
        (Ok(()), Ok(())) | (Err(_), Err(_)) => Ok(()),
        (Err(e), Ok(())) if e.is_schema() && has_duplicate_keys(data) => Ok(()),
        _ => Err(format!("engine {got:?}, reference {expected:?}")),
    }
}

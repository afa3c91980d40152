//! Shared by the engine tests: the corpus documents with their schemas, and the
//! JSON-Schema-Test-Suite listing.

#![allow(dead_code)]

use jitson::Schema;
use serde_json::Value;
use std::path::Path;
use suite_support::Group;

/// The bytes of a file under testdata/.
pub fn testdata(path: &str) -> Vec<u8> {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(path);
    std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The schema testdata/schemas/NAME.schema.json.
pub fn corpus_schema(name: &str) -> Schema {
    Schema::from_json_slice(&testdata(&format!("schemas/{name}.schema.json")))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Items of a union with a discriminator whose second branch is its default (any string
/// tag the others do not name: `#[serde(other)]`'s shape); its tags select the first and
/// third branches (`box` as the third's alias).
pub const DEFAULT_BRANCH_SCHEMA: &str = r#"{"type": "array", "items": {"anyOf": [
    {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
     "required": ["kind", "r"]},
    {"type": "object", "properties": {
        "kind": {"type": "string", "not": {"enum": ["circle", "square", "box"]}},
        "note": {"type": "string"},
        "style": {"type": "object", "properties": {"color": {"type": "string"}}}},
     "required": ["kind"]},
    {"type": "object", "properties": {"kind": {"enum": ["square", "box"]}, "side": {"type": "number"}},
     "required": ["kind", "side"]}
]}}"#;

/// Items for [`DEFAULT_BRANCH_SCHEMA`] down every path of its discriminator: each tag and
/// the alias, other strings (escaped too), a tag that is no string, no tag, and failures
/// inside each branch.
pub const DEFAULT_BRANCH_ITEMS: [&str; 14] = [
    r#"{"kind": "circle", "r": 1}"#,
    r#"{"r": 1, "kind": "\u0063ircle"}"#,
    r#"{"kind": "box", "side": 2}"#,
    r#"{"kind": "square", "side": 2, "note": 1}"#,
    r#"{"kind": "zzz"}"#,
    r#"{"note": "n", "kind": "z\u0041", "style": {"color": "red", "w": 1}, "x": [1]}"#,
    r#"{"kind": ""}"#,
    r#"{"kind": "zzz", "note": 1}"#,
    r#"{"kind": "circle"}"#,
    r#"{"kind": "square", "r": 1}"#,
    r#"{"kind": 5}"#,
    r#"{"kind": null, "note": "n"}"#,
    r#"{"note": "n"}"#,
    r#"{"kind": "zzz", "kind": "circle", "r": 1}"#,
];

/// Items of serde's externally tagged enum: unit variants as strings, each other branch an
/// object of one required member, named for its variant, denying others
/// (`{"circle": {"r": 1}}`), so the first member's name selects the branch
/// (`discriminate by-name`).
pub const BY_NAME_SCHEMA: &str = r#"{"type": "array", "items": {"anyOf": [
    {"enum": ["unit", "nothing"]},
    {"type": "object", "properties": {"circle": {"type": "object",
        "properties": {"r": {"type": "number"}}, "required": ["r"]}},
     "required": ["circle"], "additionalProperties": false},
    {"type": "object", "properties": {"sq": {"type": "integer", "minimum": 0}},
     "required": ["sq"], "additionalProperties": false},
    {"type": "object", "properties": {"é": {"type": "array", "items": {"type": "string"}}},
     "required": ["é"], "additionalProperties": false}
]}}"#;

/// Items for [`BY_NAME_SCHEMA`]: each name (compact, spaced, escaped), a unit variant (the
/// first seven are valid), then failures: a
/// branch's own error, a second member, an unknown or empty name, an empty object, another
/// kind.
pub const BY_NAME_ITEMS: [&str; 17] = [
    r#"{"circle": {"r": 1}}"#,
    r#"{"sq":2}"#,
    r#"{ "é" : ["a", "b"] }"#,
    "{\n  \"sq\": 3\n}",
    r#"{"\u0063ircle": {"r": 0.5}}"#,
    r#"{"circle": {"r": 1}, "circle": {"r": 2}}"#,
    r#""unit""#,
    r#"{"circle": {"r": "x"}}"#,
    r#"{"sq": -1}"#,
    r#"{"sq": 1, "r": 1}"#,
    r#"{"circle": {"r": 1}, "sq": 2}"#,
    r#"{"zz": 1}"#,
    r#"{"": 1}"#,
    "{}",
    r#"{"sq" 1}"#,
    "[]",
    r#""sq""#,
];

/// `if` / `then` / `else` as proxies write them: an object's `then` and `else` picked by a
/// property's value, an `else` that is itself a conditional, and members whose own
/// conditionals have only `then` or only `else` (a value decoded as a two-branch union).
pub const CONDITIONAL_SCHEMA: &str = r#"{"type": "array", "items": {
    "type": "object",
    "properties": {
        "method": {"enum": ["card", "transfer", "cash"]},
        "id": {"type": "integer"},
        "amount": {"if": {"type": "integer"}, "then": {"minimum": 0}, "else": {"type": "string"}},
        "note": {"if": {"type": "string"}, "then": {"maxLength": 5}},
        "code": {"if": {"type": "string"}, "else": {"type": "integer"}}
    },
    "if": {"properties": {"method": {"const": "card"}}, "required": ["method"]},
    "then": {"required": ["card"], "properties": {"card": {"pattern": "^[0-9]{4}-[0-9]{4}$"}}},
    "else": {
        "if": {"properties": {"method": {"const": "transfer"}}},
        "then": {"required": ["iban"], "properties": {"iban": {"type": "string", "minLength": 15}}},
        "else": {"properties": {"card": false, "iban": false}}
    }
}}"#;

/// Items for [`CONDITIONAL_SCHEMA`]: the first 9 valid, then each outcome's failures, each
/// with the schema pointer of its keyword.
pub const CONDITIONAL_ITEMS: [(&str, &str); 21] = [
    (r#"{"method": "card", "card": "4111-0001", "id": 1}"#, ""),
    (
        r#"{"method": "transfer", "iban": "DE0000000000000001", "id": 2}"#,
        "",
    ),
    (r#"{"method": "cash", "id": 3}"#, ""),
    (r#"{"method": "c\u0061rd", "card": "4111-0002"}"#, ""),
    (r#"{"id": 4, "iban": "DE0000000000000004"}"#, ""),
    (
        r#"{"method": "cash", "amount": 0, "note": "hi", "code": "x"}"#,
        "",
    ),
    (
        r#"{"method": "cash", "amount": "5", "note": 123456, "code": 7}"#,
        "",
    ),
    (
        r#"{"method": "transfer", "iban": "DE0000000000000008", "card": 8}"#,
        "",
    ),
    (
        r#"{"method": "card", "card": "4111-0009", "iban": false}"#,
        "",
    ),
    (r#"{"method": "card", "id": 10}"#, "/items/then/required"),
    (
        r#"{"method": "card", "card": "41110011"}"#,
        "/items/then/properties/card/pattern",
    ),
    (
        r#"{"method": "transfer", "id": 12}"#,
        "/items/else/then/required",
    ),
    (
        r#"{"method": "transfer", "iban": "DE13"}"#,
        "/items/else/then/properties/iban/minLength",
    ),
    (
        r#"{"method": "cash", "card": "4111-0014"}"#,
        "/items/else/else/properties/card",
    ),
    (r#"{"id": 15}"#, "/items/else/then/required"),
    (
        r#"{"method": "cash", "amount": -16}"#,
        "/items/properties/amount/then/minimum",
    ),
    (
        r#"{"method": "cash", "amount": 17.5}"#,
        "/items/properties/amount/else/type",
    ),
    (
        r#"{"method": "cash", "note": "eighteen"}"#,
        "/items/properties/note/then/maxLength",
    ),
    (
        r#"{"method": "cash", "code": true}"#,
        "/items/properties/code/else/type",
    ),
    (
        r#"{"method": "wire", "id": 20}"#,
        "/items/properties/method/enum",
    ),
    (r#""twenty-one""#, "/items/type"),
];

/// Rules on arrays and objects as a whole: `uniqueItems` over strings and over values of
/// every kind, `contains` alone and with `minContains` / `maxContains`, a map with
/// `minProperties` / `maxProperties` and `propertyNames`, `dependentRequired`, and a count
/// over an object's named and unknown members together.
pub const WHOLE_VALUE_SCHEMA: &str = r#"{"type": "array", "items": {
    "type": "object",
    "properties": {
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
        "matrix": {"type": "array", "uniqueItems": true},
        "scores": {"type": "array", "contains": {"type": "integer", "minimum": 90}},
        "flags": {"type": "array", "contains": {"const": true}, "minContains": 2, "maxContains": 3},
        "labels": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "minProperties": 1,
            "maxProperties": 3,
            "propertyNames": {"pattern": "^[a-z]+$", "maxLength": 3}
        },
        "card": {"type": "string"},
        "billing": {"type": "string"}
    },
    "dependentRequired": {"card": ["billing"], "billing": []},
    "maxProperties": 5
}}"#;

/// Items for [`WHOLE_VALUE_SCHEMA`]: the first 9 valid, then failures, each with the schema
/// pointer of its keyword.
pub const WHOLE_VALUE_ITEMS: [(&str, &str); 26] = [
    (
        r#"{"tags": ["a", "b"], "labels": {"x": "1"}, "scores": [1, 95.0]}"#,
        "",
    ),
    (
        r#"{"matrix": [1, "1", [1], {"a": 1}, true, null, 1.5, 0.1, 2]}"#,
        "",
    ),
    (
        r#"{"card": "4111", "billing": "addr", "flags": [true, 1, true]}"#,
        "",
    ),
    (
        r#"{"labels": {"a": "1", "b": "2", "c": "3"}, "flags": [true, true, true, false]}"#,
        "",
    ),
    (r#"{"matrix": [[1, 2], [2, 1], [1, [2]]], "tags": []}"#, ""),
    (r#"{"matrix": [{"a": 1}, {"a": 1, "b": 2}, {"b": 1}]}"#, ""),
    (r#"{"billing": "only"}"#, ""),
    // A repeated key is one member (its last value), as serde_json reads it.
    (
        r#"{"labels": {"a": "1", "a": "2", "b": "3", "c": "4"}}"#,
        "",
    ),
    (r#"{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}"#, ""),
    (
        r#"{"tags": ["a", "b", "a"]}"#,
        "/items/properties/tags/uniqueItems",
    ),
    (
        r#"{"matrix": [1, 1.0]}"#,
        "/items/properties/matrix/uniqueItems",
    ),
    (
        r#"{"matrix": [{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}]}"#,
        "/items/properties/matrix/uniqueItems",
    ),
    (
        r#"{"matrix": ["\u0061", "a"]}"#,
        "/items/properties/matrix/uniqueItems",
    ),
    (
        r#"{"labels": {}}"#,
        "/items/properties/labels/minProperties",
    ),
    (
        r#"{"labels": {"a": "1", "b": "2", "c": "3", "d": "4"}}"#,
        "/items/properties/labels/maxProperties",
    ),
    (r#"{"card": "4111"}"#, "/items/dependentRequired/card"),
    (
        r#"{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6}"#,
        "/items/maxProperties",
    ),
    (
        r#"{"tags": ["a", 1, "a"]}"#,
        "/items/properties/tags/items/type",
    ),
    (
        r#"{"labels": {"a": 1}}"#,
        "/items/properties/labels/additionalProperties/type",
    ),
    (
        r#"{"labels": {"a": "1", "B": "2"}}"#,
        "/items/properties/labels/propertyNames/pattern",
    ),
    (
        r#"{"labels": {"abcd": "1"}}"#,
        "/items/properties/labels/propertyNames/maxLength",
    ),
    (
        r#"{"labels": {"\u0041": "1"}}"#,
        "/items/properties/labels/propertyNames/pattern",
    ),
    (
        r#"{"scores": [1, 89]}"#,
        "/items/properties/scores/contains",
    ),
    (r#"{"scores": []}"#, "/items/properties/scores/contains"),
    (
        r#"{"flags": [true, false]}"#,
        "/items/properties/flags/minContains",
    ),
    (
        r#"{"flags": [true, true, true, true]}"#,
        "/items/properties/flags/maxContains",
    ),
];

/// `patternProperties`: patterns over named fields (`x-rate` must match its own schema and
/// both patterns its name matches), over a name that is only `required` (its type is the
/// pattern's, not `additionalProperties`'), beside `additionalProperties: false`, beside an
/// `additionalProperties` schema, in an object that allows other members, and a non-ASCII
/// pattern.
pub const PATTERN_SCHEMA: &str = r#"{"type": "array", "items": {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "x-rate": {"type": "integer"},
        "meta": {
            "type": "object",
            "required": ["x-id"],
            "patternProperties": {
                "^x-": {"type": "integer"},
                "^[0-9]+$": {"type": "object", "properties": {"v": {"type": "integer"}}, "required": ["v"]}
            },
            "additionalProperties": {"type": "string"}
        },
        "open": {"type": "object", "patternProperties": {"^n": {"type": "null"}}}
    },
    "patternProperties": {
        "^x-": {"type": "integer", "minimum": 0},
        "rate$": {"type": "number", "maximum": 100},
        "^s_": {"type": "string", "maxLength": 4},
        "é": {"type": "boolean"}
    },
    "additionalProperties": false
}}"#;

/// Items for [`PATTERN_SCHEMA`]: the first 8 valid, then failures, each with the schema
/// pointer of its keyword.
pub const PATTERN_ITEMS: [(&str, &str); 22] = [
    (r#"{"id": 1, "x-rate": 5}"#, ""),
    (r#"{"x-a": 0, "s_k": "ab", "é": true, "café": false}"#, ""),
    (
        r#"{"meta": {"x-id": 3, "12": {"v": 1}, "other": "s", "x-y": 4}}"#,
        "",
    ),
    (
        r#"{"open": {"nx": null, "zzz": [1, {"a": 2}], "n": null}}"#,
        "",
    ),
    (r#"{"x-a": 1, "s_": "abcd"}"#, ""),
    (r#"{"meta": {"x-id": 1}, "rate": 99.5, "x-rate": 100}"#, ""),
    (r#"{}"#, ""),
    (r#"{"x-": 7, "x-a": 1, "x-a": 2}"#, ""),
    (
        r#"{"x-rate": 101}"#,
        "/items/patternProperties/rate$/maximum",
    ),
    (r#"{"x-rate": -1}"#, "/items/patternProperties/^x-/minimum"),
    (r#"{"x-rate": 1.5}"#, "/items/properties/x-rate/type"),
    (r#"{"x-b": "s"}"#, "/items/patternProperties/^x-/type"),
    (
        r#"{"s_k": "abcde"}"#,
        "/items/patternProperties/^s_/maxLength",
    ),
    (r#"{"zz": 1}"#, "/items/additionalProperties"),
    (r#"{"é": 1}"#, "/items/patternProperties/é/type"),
    (
        r#"{"meta": {"x-id": "1"}}"#,
        "/items/properties/meta/patternProperties/^x-/type",
    ),
    (r#"{"meta": {}}"#, "/items/properties/meta/required"),
    (
        r#"{"meta": {"x-id": 1, "12": {}}}"#,
        "/items/properties/meta/patternProperties/^[0-9]+$/required",
    ),
    (
        r#"{"meta": {"x-id": 1, "k": 1}}"#,
        "/items/properties/meta/additionalProperties/type",
    ),
    (
        r#"{"open": {"n": 0}}"#,
        "/items/properties/open/patternProperties/^n/type",
    ),
    (r#"{"x-a": -1}"#, "/items/patternProperties/^x-/minimum"),
    (r#"{"rate": "high"}"#, "/items/patternProperties/rate$/type"),
];

/// `unevaluatedProperties`: members evaluated by `properties` beside it, by a `$ref`
/// target's and an `allOf` part's `properties` and `patternProperties`, not by `oneOf`
/// branches that only require; a referenced schema closed by `unevaluatedProperties:
/// false`; one whose `additionalProperties` evaluates every member.
pub const UNEVALUATED_SCHEMA: &str = r##"{"type": "array",
    "$defs": {
        "base": {"properties": {"name": {"type": "string"}}},
        "closed": {"properties": {"id": {"type": "integer"}}, "unevaluatedProperties": false},
        "open": {"additionalProperties": true, "unevaluatedProperties": false}
    },
    "items": {
        "$ref": "#/$defs/base",
        "properties": {
            "kind": {"enum": ["a", "b"]},
            "meta": {"$ref": "#/$defs/closed"},
            "any": {"$ref": "#/$defs/open"}
        },
        "allOf": [{"properties": {"size": {"type": "integer"}}, "patternProperties": {"^x-": {"type": "string"}}}],
        "oneOf": [{"required": ["size"]}, {"required": ["name"]}],
        "unevaluatedProperties": {"type": "boolean"}
    }
}"##;

/// Items for [`UNEVALUATED_SCHEMA`]: the first 5 valid, then failures, each with the
/// schema pointer of its keyword.
pub const UNEVALUATED_ITEMS: [(&str, &str); 11] = [
    (r#"{"size": 1, "kind": "a"}"#, ""),
    (r#"{"name": "n", "flag": true}"#, ""),
    (r#"{"size": 2, "x-a": "s", "meta": {"id": 1}}"#, ""),
    (r#"{"name": "n", "any": {"z": [1]}}"#, ""),
    (
        r#"{"size": 1, "flag": false, "other": true, "\u0078-b": "t"}"#,
        "",
    ),
    (
        r#"{"size": 1, "flag": 1}"#,
        "/items/unevaluatedProperties/type",
    ),
    (
        r#"{"size": 1, "meta": {"id": 1, "extra": 2}}"#,
        "/items/properties/meta/unevaluatedProperties",
    ),
    (r#"{"size": "1"}"#, "/items/properties/size/type"),
    (
        r#"{"size": 1, "x-b": 2}"#,
        "/items/patternProperties/^x-/type",
    ),
    (r#"{"name": 1}"#, "/items/properties/name/type"),
    (r#"{"flag": true}"#, "/items/oneOf"),
];

/// `unevaluatedProperties` beside branches that decide what is evaluated: a `oneOf` of two
/// referenced shapes, `if` / `then`, and a `dependentSchemas` member (eight cases).
pub const UNEVALUATED_BRANCH_SCHEMA: &str = r##"{"type": "array",
    "$defs": {
        "base": {"properties": {"id": {"type": "integer"}}, "required": ["id"]},
        "cat": {"properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}}, "required": ["kind"]},
        "dog": {"properties": {"kind": {"const": "dog"}, "breed": {"type": "string"}}, "required": ["kind"]}
    },
    "items": {
        "$ref": "#/$defs/base",
        "oneOf": [{"$ref": "#/$defs/cat"}, {"$ref": "#/$defs/dog"}],
        "if": {"properties": {"kind": {"const": "dog"}}, "required": ["kind"]},
        "then": {"properties": {"good": {"type": "boolean"}}},
        "dependentSchemas": {"owner": {"properties": {"owner": {"type": "string"}, "since": {"type": "integer"}}}},
        "unevaluatedProperties": false
    }
}"##;

/// Items for [`UNEVALUATED_BRANCH_SCHEMA`]: the first 5 valid, then failures, each with the
/// schema pointer of its keyword.
pub const UNEVALUATED_BRANCH_ITEMS: [(&str, &str); 12] = [
    (r#"{"id": 1, "kind": "cat", "lives": 9}"#, ""),
    (
        r#"{"id": 2, "kind": "dog", "breed": "lab", "good": true}"#,
        "",
    ),
    (
        r#"{"id": 3, "kind": "cat", "owner": "ann", "since": 2020}"#,
        "",
    ),
    (r#"{"id": 4, "kind": "dog"}"#, ""),
    (
        r#"{"\u006bind": "dog", "owner": "bob", "id": 5, "good": false}"#,
        "",
    ),
    (
        r#"{"id": 1, "kind": "cat", "breed": "x"}"#,
        "/items/unevaluatedProperties",
    ),
    (
        r#"{"id": 1, "kind": "cat", "good": true}"#,
        "/items/unevaluatedProperties",
    ),
    (
        r#"{"id": 1, "kind": "dog", "since": 1}"#,
        "/items/unevaluatedProperties",
    ),
    (r#"{"id": 1, "kind": "bird"}"#, "/items/oneOf"),
    (r#"{"id": "1", "kind": "cat"}"#, "/items/properties/id/type"),
    (
        r#"{"id": 1, "kind": "dog", "good": 1}"#,
        "/items/then/properties/good/type",
    ),
    (
        r#"{"id": 1, "kind": "cat", "owner": 1}"#,
        "/items/dependentSchemas/owner/properties/owner/type",
    ),
];

/// `unevaluatedItems` after a prefix from `$ref` and `allOf` parts, items a `contains`
/// matches, an `anyOf` whose second branch evaluates a longer prefix when it matches (two
/// cases), and a closed tuple of its own.
pub const UNEVALUATED_ITEMS_SCHEMA: &str = r##"{"type": "array",
    "$defs": {
        "point": {"prefixItems": [{"type": "number"}, {"type": "number"}]},
        "pair": {"prefixItems": [{"type": "string"}, {}], "unevaluatedItems": false}
    },
    "items": {
        "$ref": "#/$defs/point",
        "allOf": [{
            "prefixItems": [true, true, {"type": ["string", "array"], "items": {"$ref": "#/$defs/pair"}}],
            "contains": {"type": "null"}, "minContains": 0
        }],
        "anyOf": [{"maxItems": 5}, {"prefixItems": [{"minimum": 100}, true, true, {"type": "string"}]}],
        "unevaluatedItems": {"type": "boolean"}
    }
}"##;

/// Items for [`UNEVALUATED_ITEMS_SCHEMA`]: the first 9 valid, then failures, each with the
/// schema pointer of its keyword.
pub const UNEVALUATED_ITEMS_ITEMS: [(&str, &str); 17] = [
    ("[1, 2]", ""),
    (r#"[1, 2, "label"]"#, ""),
    (r#"[1, 2.5, "label", true, false]"#, ""),
    ("[]", ""),
    (r#"{"a": [1, "x"]}"#, ""),
    (r#"[100, 2, [["a", 1], ["b", {}]], "t", true, false]"#, ""),
    ("[1]", ""),
    (r#"[100, 2, "s", "t"]"#, ""),
    (r#"[1, 2, "s", null, true]"#, ""),
    (r#"[100, 2, "s", 4]"#, "/items/unevaluatedItems/type"),
    (r#"[1, 2, "s", null, "n"]"#, "/items/unevaluatedItems/type"),
    (r#"[1, 2, "l", 3]"#, "/items/unevaluatedItems/type"),
    (r#"[1, "x"]"#, "/items/prefixItems/1/type"),
    ("[1, 2, 3]", "/items/prefixItems/2/type"),
    (r#"[1, 2, "s", "t"]"#, "/items/unevaluatedItems/type"),
    (r#"[1, 2, "s", true, true, true]"#, "/items/anyOf"),
    (
        r#"[1, 2, [["a", 1, 2]]]"#,
        "/items/prefixItems/2/items/unevaluatedItems",
    ),
];

/// `dependentSchemas` beside `properties` and `unevaluatedProperties`: a schema that
/// requires another member, one that bounds another member, and `false`.
pub const DEPENDENT_SCHEMA: &str = r#"{"type": "array", "items": {
    "properties": {
        "name": {"type": "string"},
        "card": {"type": "string"},
        "billing": {"type": "string"},
        "price": {"type": "number"},
        "discount": {"type": "number"}
    },
    "dependentSchemas": {
        "card": {"required": ["billing"]},
        "discount": {"required": ["price"], "properties": {"price": {"minimum": 10}}},
        "gift": false
    },
    "unevaluatedProperties": false
}}"#;

/// Items for [`DEPENDENT_SCHEMA`]: the first 6 valid, then failures, each with the schema
/// pointer of its keyword.
pub const DEPENDENT_ITEMS: [(&str, &str); 12] = [
    (r#"{"name": "a"}"#, ""),
    (r#"{"card": "4111", "billing": "x"}"#, ""),
    (r#"{"discount": 5, "price": 20}"#, ""),
    (r#"{"billing": "x", "price": 1}"#, ""),
    (r#""card""#, ""),
    (
        r#"{"\u0063ard": "1", "billing": "x", "discount": 1, "price": 10}"#,
        "",
    ),
    (
        r#"{"card": "4111"}"#,
        "/items/dependentSchemas/card/required",
    ),
    (
        r#"{"discount": 5, "price": 3}"#,
        "/items/dependentSchemas/discount/properties/price/minimum",
    ),
    (
        r#"{"discount": 5}"#,
        "/items/dependentSchemas/discount/required",
    ),
    (r#"{"gift": 1}"#, "/items/dependentSchemas/gift"),
    (
        r#"{"price": "x", "card": "1"}"#,
        "/items/properties/price/type",
    ),
    (r#"{"other": 1}"#, "/items/unevaluatedProperties"),
];

/// A string enumeration too large to compare in place (native code looks it up through
/// the enumeration's hash switch): values sharing a length and their first 8 bytes, short
/// ones, the empty string, non-ASCII text.
pub const LARGE_ENUM_SCHEMA: &str = r#"{"type": "array", "items": {"enum": [
    "customer.created", "customer.updated", "customer.deleted", "customer.merged",
    "invoice.paid", "invoice.voided", "invoice.created", "invoice.finalized",
    "charge.refunded", "charge.captured", "charge.failed", "charge.pending",
    "aaaaaaaa1", "aaaaaaaa2", "aaaaaaaa10", "", "a", "ab", "abc", "abcd", "abcde",
    "abcdefg", "abcdefgh", "abcdefghi", "x", "y", "z", "crème", "日本", "US", "FR", "DE",
    "GB", "IT", "ES", "NL", "BE", "CH", "AT", "PL"
]}}"#;

/// Items for [`LARGE_ENUM_SCHEMA`]: the first 12 valid (an escape spelling a value among
/// them), then near misses and other kinds.
pub const LARGE_ENUM_ITEMS: [&str; 22] = [
    r#""customer.created""#,
    r#""customer.merged""#,
    r#""aaaaaaaa10""#,
    r#""aaaaaaaa2""#,
    r#""""#,
    r#""abcdefgh""#,
    r#""crème""#,
    r#""日本""#,
    r#""PL""#,
    r#""\u0061b""#,
    r#""z""#,
    r#""abcd""#,
    r#""customer.create""#,
    r#""customer.createdX""#,
    r#""aaaaaaaa3""#,
    r#""aaaaaaaa""#,
    r#""Customer.created""#,
    r#""abcdef""#,
    r#""creme""#,
    r#""pl""#,
    "5",
    "null",
];

/// Numbers under `multipleOf` divisors of every spelling: a power of ten (cents), a
/// fraction, a divisor below the short path's 15 digits, an integer, one above 2^64.
pub const MULTIPLE_OF_SCHEMA: &str = r#"{"type": "array", "prefixItems": [
    {"type": "array", "items": {"type": "number", "multipleOf": 0.01}},
    {"type": "array", "items": {"type": "number", "multipleOf": 0.25}},
    {"type": "array", "items": {"type": "number", "multipleOf": 1e-16}},
    {"type": "array", "items": {"type": "number", "multipleOf": 3}},
    {"type": "array", "items": {"type": "number", "multipleOf": 1e20}}
]}"#;

/// Numbers for every divisor of [`MULTIPLE_OF_SCHEMA`]: short decimals, long ones, the
/// halfway case whose two shortest spellings differ (`1658206780088562.25`), integers
/// beyond 2^53 and 2^64, exponents, zeros.
pub const MULTIPLE_OF_NUMBERS: [&str; 24] = [
    "12.34",
    "12.345",
    "0.1",
    "0.3",
    "0.75",
    "1e-2",
    "1.10",
    "-0.01",
    "-0.0",
    "0",
    "3",
    "300000000000000000000",
    "1e20",
    "1e21",
    "1658206780088562.25",
    "123456789012345.67",
    "1234567890123456.7",
    "9007199254740993",
    "18446744073709551617",
    "1e308",
    "5e-324",
    "1.000000000000000000001",
    "0.30000000000000004",
    "1e-16",
];

/// Every number of [`MULTIPLE_OF_NUMBERS`] under every divisor of [`MULTIPLE_OF_SCHEMA`]:
/// `((divisor index, number), document)`, the number alone in its divisor's array.
pub fn multiple_of_documents() -> Vec<((usize, &'static str), String)> {
    let mut documents = Vec::new();
    for divisor in 0..5 {
        for number in MULTIPLE_OF_NUMBERS {
            let mut arrays = ["[]"; 5].map(String::from);
            arrays[divisor] = format!("[{number}]");
            documents.push(((divisor, number), format!("[{}]", arrays.join(", "))));
        }
    }
    documents
}

/// The corpus documents and the schema each is checked against.
pub const CORPUS: [(&str, &str); 5] = [
    ("twitter", "twitter"),
    ("twitterescaped", "twitter"),
    ("citm_catalog", "citm_catalog"),
    ("canada", "canada"),
    ("book", "book"),
];

#[path = "../suite_support/mod.rs"]
pub mod suite_support;

/// One test of the JSON-Schema-Test-Suite (draft 2020-12).
pub struct SuiteTest {
    /// `file / group / test` descriptions.
    pub name: String,
    /// The group's schema.
    pub schema: Value,
    /// The instance.
    pub data: Value,
    /// Whether the instance is valid.
    pub valid: bool,
}

/// Every test of every group of the suite, flattened, in file order.
pub fn suite_tests() -> Vec<SuiteTest> {
    suite_support::groups()
        .into_iter()
        .flat_map(|group| {
            let Group {
                file,
                description,
                schema,
                tests,
            } = group;
            tests.into_iter().map(move |test| SuiteTest {
                name: format!("{file} / {description} / {}", test.description),
                schema: schema.clone(),
                data: test.data,
                valid: test.valid,
            })
        })
        .collect()
}

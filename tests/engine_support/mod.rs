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

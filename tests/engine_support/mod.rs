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

//! Shared by the engine tests: the corpus documents with their schemas, and the
//! JSON-Schema-Test-Suite listing.

#![allow(dead_code)]

use jitson::Schema;
use serde_json::Value;
use std::path::Path;

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

/// Every test of every file of the suite, in file order.
pub fn suite_tests() -> Vec<SuiteTest> {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/json-schema-test-suite/draft2020-12");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("suite directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("suite file");
        let groups: Vec<Value> = serde_json::from_str(&text).expect("suite JSON");
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        for group in &groups {
            for test in group["tests"].as_array().expect("tests") {
                out.push(SuiteTest {
                    name: format!(
                        "{file} / {} / {}",
                        group["description"], test["description"]
                    ),
                    schema: group["schema"].clone(),
                    data: test["data"].clone(),
                    valid: test["valid"].as_bool().expect("valid"),
                });
            }
        }
    }
    out
}

//! JSON-Schema-Test-Suite, draft 2020-12 (`testdata/json-schema-test-suite/draft2020-12`).
//!
//! Every group either loads and `validate_value` agrees with every test's `valid` verdict, or
//! is rejected at load time; the rejected groups must be exactly `REJECTED`, with these exact
//! errors — so a regression that starts rejecting a group, or silently accepts a keyword the
//! engine does not implement, fails here.

use jitson::Schema;
use serde_json::Value;
use std::path::Path;

/// (file, group description, load error).
const REJECTED: &[(&str, &str, &str)] = &[
    (
        "additionalProperties.json",
        "additionalProperties being false does not allow other properties",
        r#"unsupported keyword "patternProperties" at /patternProperties"#,
    ),
    (
        "additionalProperties.json",
        "non-ASCII pattern with additionalProperties",
        r#"unsupported keyword "patternProperties" at /patternProperties"#,
    ),
    (
        "additionalProperties.json",
        "additionalProperties with propertyNames",
        r#"unsupported keyword "propertyNames" at /propertyNames"#,
    ),
    (
        "additionalProperties.json",
        "dependentSchemas with additionalProperties",
        r#"unsupported keyword "dependentSchemas" at /dependentSchemas"#,
    ),
    (
        "properties.json",
        "properties, patternProperties, additionalProperties interaction",
        r#"unsupported keyword "patternProperties" at /patternProperties"#,
    ),
    (
        "ref.json",
        "remote ref, containing refs itself",
        r#"unresolved reference "https://json-schema.org/draft/2020-12/schema" at /$ref"#,
    ),
    (
        "ref.json",
        "ref creates new scope when adjacent to keywords",
        r#"unsupported keyword "unevaluatedProperties" at /$defs/A/unevaluatedProperties"#,
    ),
];

#[test]
fn draft2020_12() {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/json-schema-test-suite/draft2020-12");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("suite directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 22, "suite files");

    let mut rejected = Vec::new();
    let mut failures = Vec::new();
    let mut passed = 0;
    for path in &files {
        let file = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("file name")
            .to_owned();
        let text = std::fs::read_to_string(path).expect("suite file");
        let groups: Vec<Value> = serde_json::from_str(&text).expect("suite JSON");
        for group in &groups {
            let description = group["description"]
                .as_str()
                .expect("description")
                .to_owned();
            let schema = match Schema::from_value(&group["schema"]) {
                Ok(schema) => schema,
                Err(e) => {
                    rejected.push((file.clone(), description, e.to_string()));
                    continue;
                }
            };
            for test in group["tests"].as_array().expect("tests") {
                let expected = test["valid"].as_bool().expect("valid");
                let result = schema.validate_value(&test["data"]);
                if result.is_ok() == expected {
                    passed += 1;
                } else {
                    failures.push(format!(
                        "{file} / {description} / {}: expected valid={expected}, got {result:?}",
                        test["description"]
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let expected: Vec<(String, String, String)> = REJECTED
        .iter()
        .map(|(f, g, e)| (f.to_string(), g.to_string(), e.to_string()))
        .collect();
    assert_eq!(rejected, expected, "rejected groups");
    // 499 tests in 157 groups; the rejected groups hold 24 of them.
    assert_eq!(passed, 475, "tests run");
}

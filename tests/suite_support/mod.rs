//! The JSON-Schema-Test-Suite, draft 2020-12 (`testdata/json-schema-test-suite/draft2020-12`),
//! as the tests read it: every group of every keyword file, in file-name order.

use std::path::Path;

use serde_json::Value;

/// One group: a schema and the documents it is tested on.
pub struct Group {
    /// The keyword file it comes from (`ref.json`).
    pub file: String,
    /// The group's description.
    pub description: String,
    /// The schema.
    pub schema: Value,
    /// The tests.
    pub tests: Vec<Case>,
}

/// One test of a group.
pub struct Case {
    /// The test's description.
    pub description: String,
    /// The document.
    pub data: Value,
    /// Whether the schema accepts it.
    pub valid: bool,
}

/// Every group of the suite, files in name order.
pub fn groups() -> Vec<Group> {
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
        let file = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("file name")
            .to_owned();
        let text = std::fs::read_to_string(path).expect("suite file");
        let groups: Vec<Value> = serde_json::from_str(&text).expect("suite JSON");
        for mut group in groups {
            let tests = group["tests"]
                .as_array_mut()
                .expect("tests")
                .iter_mut()
                .map(|test| Case {
                    description: test["description"]
                        .as_str()
                        .expect("description")
                        .to_owned(),
                    data: test["data"].take(),
                    valid: test["valid"].as_bool().expect("valid"),
                })
                .collect();
            out.push(Group {
                file: file.clone(),
                description: group["description"]
                    .as_str()
                    .expect("description")
                    .to_owned(),
                schema: group["schema"].take(),
                tests,
            });
        }
    }
    out
}

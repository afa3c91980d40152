//! The JSON-Schema-Test-Suite, draft 2020-12 (`testdata/json-schema-test-suite/draft2020-12`),
//! as the tests read it: every group of every keyword file, in file-name order, and the
//! suite's remote documents (`remotes/`) for the `$ref`s that name them.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use jitson::schema::Loader;
use serde_json::Value;

/// The suite's directory.
fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/json-schema-test-suite")
}

/// A loader that knows every document of the suite's `remotes/`, each under the URI the
/// suite serves it at (`http://localhost:1234/` and its path).
pub fn loader() -> Loader {
    fn add(loader: &mut Loader, dir: &Path, prefix: &str) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("remotes directory")
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().and_then(|n| n.to_str()).expect("name");
            if path.is_dir() {
                add(loader, &path, &format!("{prefix}{name}/"));
            } else {
                let text = std::fs::read(&path).expect("remote document");
                loader
                    .document_json(&format!("{prefix}{name}"), &text)
                    .expect("remote document loads");
            }
        }
    }
    let mut loader = Loader::new();
    add(
        &mut loader,
        &suite_dir().join("remotes"),
        "http://localhost:1234/",
    );
    loader
}

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
    groups_in("draft2020-12")
}

/// Every group of the optional files (`draft2020-12/optional`, not its `format/`).
pub fn optional_groups() -> Vec<Group> {
    groups_in("draft2020-12/optional")
}

/// Every group of the format files (`draft2020-12/optional/format`), which expect `format`
/// asserted.
pub fn format_groups() -> Vec<Group> {
    groups_in("draft2020-12/optional/format")
}

/// Every group of every file of `dir` (under the suite's directory), files in name order.
fn groups_in(dir: &str) -> Vec<Group> {
    let dir = suite_dir().join(dir);
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

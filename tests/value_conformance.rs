//! JSONTestSuite: every `y_` accepted with serde_json's value, every `n_` rejected under every
//! option, and every `i_` (and `test_transform/` input) handled exactly as docs/conformance.md
//! records it.

mod value_support;

use jitson::kernels::skip::validate_document;
use jitson::value::{self, BigNumbers, Bump, DuplicateKeys, ParseOptions};
use value_support::{compare, read};

const SUITE: &str = "testdata/jsontestsuite";

/// The files of `dir` (under the repository root) whose names start with `prefix`.
fn files(dir: &str, prefix: &str) -> Vec<(String, Vec<u8>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .expect("suite directory")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.starts_with(prefix) && name.ends_with(".json"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let bytes = read(&format!("{dir}/{name}"));
            (name, bytes)
        })
        .collect()
}

/// The most permissive options.
fn permissive() -> ParseOptions {
    ParseOptions::new().lossy(true).big_numbers(BigNumbers::Raw)
}

#[test]
fn y_files_are_accepted_with_serde_json_values() {
    let accepted = files(SUITE, "y_");
    assert_eq!(accepted.len(), 70);
    for (name, doc) in accepted {
        let arena = Bump::new();
        let ours = value::parse(&doc, &arena).unwrap_or_else(|e| panic!("{name}: {e}"));
        let theirs: serde_json::Value = serde_json::from_slice(&doc).expect(&name);
        compare(&ours.to_serde(), &theirs).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(validate_document(&doc, 128).is_ok(), "{name}");
    }
}

#[test]
fn n_files_are_rejected_under_every_option() {
    let rejected = files(SUITE, "n_");
    assert_eq!(rejected.len(), 144);
    let options = [
        ParseOptions::new(),
        permissive(),
        permissive().duplicate_keys(DuplicateKeys::Deny),
        permissive().max_depth(1_000_000),
    ];
    for (name, doc) in rejected {
        for option in &options {
            let arena = Bump::new();
            if let Ok(v) = value::parse_with(&doc, &arena, option) {
                panic!("{name} accepted as {v} with {option:?}");
            }
        }
        assert!(validate_document(&doc, 1_000_000).is_err(), "{name}");
    }
}

/// The cells of the table rows of docs/conformance.md about one file whose name starts with
/// `prefix`.
fn documented_rows(prefix: &str) -> Vec<Vec<String>> {
    let doc = String::from_utf8(read("docs/conformance.md")).expect("UTF-8");
    doc.lines()
        .filter(|line| line.starts_with(&format!("| `{prefix}")))
        .map(|line| {
            line.trim_start_matches("| ")
                .trim_end_matches(" |")
                .split(" | ")
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter(|cells| quoted(&cells[0]).ends_with(".json"))
        .collect()
}

/// The text between the first two backticks of `cell`.
fn quoted(cell: &str) -> &str {
    cell.split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no quoted text in {cell:?}"))
}

/// Checks that parsing `doc` with `options` gives what `cell` says: `accept `OUT``, `reject:
/// MESSAGE`, or (for transformations) just `` `OUT` ``.
fn check_cell(name: &str, doc: &[u8], options: &ParseOptions, cell: &str) {
    let arena = Bump::new();
    let result = value::parse_with(doc, &arena, options);
    match cell.strip_prefix("reject: ") {
        Some(message) => match result {
            Err(e) => assert_eq!(e.message(), message, "{name} with {options:?}"),
            Ok(v) => panic!("{name}: accepted as {v} with {options:?}, documented {cell:?}"),
        },
        None => match result {
            Ok(v) => assert_eq!(v.to_string(), quoted(cell), "{name} with {options:?}"),
            Err(e) => panic!("{name}: {e} with {options:?}, documented {cell:?}"),
        },
    }
}

/// `accept` / `reject` cells against a verdict.
fn check_verdict(name: &str, column: &str, accepted: bool, cell: &str) {
    let documented = cell.split_whitespace().next() == Some("accept");
    assert_eq!(
        accepted, documented,
        "{name}: {column} column says {cell:?}"
    );
}

#[test]
fn i_files_behave_as_documented() {
    let suite = files(SUITE, "i_");
    let rows = documented_rows("i_");
    let documented: Vec<&str> = rows.iter().map(|row| quoted(&row[0])).collect();
    let names: Vec<&str> = suite.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        documented, names,
        "docs/conformance.md must list every i_ file, in order"
    );
    for ((name, doc), row) in suite.iter().zip(&rows) {
        check_cell(name, doc, &ParseOptions::new(), &row[2]);
        check_cell(name, doc, &permissive(), &row[3]);
        check_verdict(name, "check", validate_document(doc, 128).is_ok(), &row[4]);
        let serde_ok = serde_json::from_slice::<serde_json::Value>(doc).is_ok();
        check_verdict(name, "serde_json", serde_ok, &row[5]);
    }
}

#[test]
fn transformations_are_as_documented() {
    let dir = format!("{SUITE}/test_transform");
    let inputs = files(&dir, "");
    let rows = documented_rows("");
    let rows: Vec<_> = rows
        .into_iter()
        .filter(|row| inputs.iter().any(|(name, _)| quoted(&row[0]) == name))
        .collect();
    assert_eq!(
        rows.len(),
        inputs.len(),
        "docs/conformance.md must list every transform file"
    );
    for ((name, doc), row) in inputs.iter().zip(&rows) {
        assert_eq!(quoted(&row[0]), name, "rows in file order");
        check_cell(name, doc, &ParseOptions::new(), &row[2]);
        check_cell(name, doc, &permissive(), &row[3]);
        match serde_json::from_slice::<serde_json::Value>(doc) {
            Ok(v) => assert_eq!(v.to_string(), quoted(&row[4]), "{name}: serde_json"),
            Err(_) => assert_eq!(row[4], "reject", "{name}: serde_json"),
        }
    }
}

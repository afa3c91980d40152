//! JSON-Schema-Test-Suite, draft 2020-12 (`testdata/json-schema-test-suite/draft2020-12`).
//!
//! Every group either loads and `validate_value` agrees with every test's `valid` verdict, or
//! is rejected at load time; the rejected groups must be exactly `REJECTED`, with these exact
//! errors — so a regression that starts rejecting a group, or silently accepts a keyword the
//! engine does not implement, fails here.

mod suite_support;

use jitson::Schema;

/// (file, group description, load error).
const REJECTED: &[(&str, &str, &str)] = &[(
    "ref.json",
    "remote ref, containing refs itself",
    r#"unresolved reference "https://json-schema.org/draft/2020-12/schema" at /$ref"#,
)];

#[test]
fn draft2020_12() {
    let groups = suite_support::groups();
    let mut files: Vec<&str> = groups.iter().map(|g| g.file.as_str()).collect();
    files.dedup();
    assert_eq!(files.len(), 22, "suite files");

    let mut rejected = Vec::new();
    let mut failures = Vec::new();
    let mut passed = 0;
    for group in &groups {
        let (file, description) = (&group.file, &group.description);
        let schema = match Schema::from_value(&group.schema) {
            Ok(schema) => schema,
            Err(e) => {
                rejected.push((file.clone(), description.clone(), e.to_string()));
                continue;
            }
        };
        for test in &group.tests {
            let result = schema.validate_value(&test.data);
            if result.is_ok() == test.valid {
                passed += 1;
            } else {
                failures.push(format!(
                    "{file} / {description} / {}: expected valid={}, got {result:?}",
                    test.description, test.valid
                ));
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
    // 499 tests in 157 groups; the rejected group holds 2 of them.
    assert_eq!(passed, 497, "tests run");
}

//! JSON-Schema-Test-Suite, draft 2020-12 (`testdata/json-schema-test-suite/draft2020-12`).
//!
//! Every group either loads (with the suite's remote documents, `remotes/`) and
//! `validate_value` agrees with every test's `valid` verdict, or is rejected at load time; the rejected groups must be exactly `REJECTED`, with these exact
//! errors — so a regression that starts rejecting a group, or silently accepts a keyword the
//! engine does not implement, fails here.

mod suite_support;

/// (file, group description, load error).
const REJECTED: &[(&str, &str, &str)] = &[
    (
        "defs.json",
        "validate definition against metaschema",
        r#"unresolved reference "https://json-schema.org/draft/2020-12/schema" at /$ref"#,
    ),
    (
        "ref.json",
        "remote ref, containing refs itself",
        r#"unresolved reference "https://json-schema.org/draft/2020-12/schema" at /$ref"#,
    ),
    (
        "unevaluatedItems.json",
        "unevaluatedItems with $dynamicRef",
        r#"unsupported "unevaluatedItems": the items it takes would depend on this branch at /$defs/baseSchema/$dynamicRef"#,
    ),
    (
        "unevaluatedProperties.json",
        "unevaluatedProperties with $dynamicRef",
        r#"unsupported "unevaluatedProperties": the members it takes would depend on this branch at /$defs/baseSchema/$dynamicRef"#,
    ),
    (
        "vocabulary.json",
        "schema that uses custom metaschema with with no validation vocabulary",
        r#"unsupported dialect "http://localhost:1234/draft2020-12/metaschema-no-validation.json" (only draft 2020-12 is supported) at /$schema"#,
    ),
    (
        "vocabulary.json",
        "ignore unrecognized optional vocabulary",
        r#"unsupported dialect "http://localhost:1234/draft2020-12/metaschema-optional-vocabulary.json" (only draft 2020-12 is supported) at /$schema"#,
    ),
];

#[test]
fn draft2020_12() {
    let loader = suite_support::loader();
    let groups = suite_support::groups();
    let mut files: Vec<&str> = groups.iter().map(|g| g.file.as_str()).collect();
    files.dedup();
    assert_eq!(files.len(), 46, "suite files");

    let mut rejected = Vec::new();
    let mut failures = Vec::new();
    let mut passed = 0;
    for group in &groups {
        let (file, description) = (&group.file, &group.description);
        let schema = match suite_support::load(&loader, group) {
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
    // 1257 tests in 368 groups; the rejected groups hold 13 of them.
    assert_eq!(passed, 1244, "tests run");
}

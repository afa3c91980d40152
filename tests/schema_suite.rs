//! JSON-Schema-Test-Suite, draft 2020-12 (`testdata/json-schema-test-suite/draft2020-12`).
//!
//! Every group either loads (with the suite's remote documents, `remotes/`) and
//! `validate_value` agrees with every test's `valid` verdict, or is rejected at load time;
//! the rejected groups must be exactly `REJECTED` (`OPTIONAL_REJECTED` for the optional
//! files), with these exact errors — so a regression that starts rejecting a group, or
//! silently accepts a keyword the engine does not implement, fails here.

mod suite_support;

use jitson::Codec;
use jitson::engine::{Backend, Options};
use jitson::schema::Loader;

/// (file, group description, load error).
const REJECTED: &[(&str, &str, &str)] = &[
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
];

/// The format files' groups refused at load time, with formats asserted: the formats built
/// on IDNA2008, which the engine does not implement.
const FORMAT_REJECTED: &[(&str, &str, &str)] = &[
    (
        "idn-email.json",
        "validation of an internationalized e-mail addresses",
        r#"format "idn-email" cannot be asserted (IDNA2008 is not implemented) at /format"#,
    ),
    (
        "idn-hostname.json",
        "validation of internationalized host names",
        r#"format "idn-hostname" cannot be asserted (IDNA2008 is not implemented) at /format"#,
    ),
    (
        "idn-hostname.json",
        "validation of separators in internationalized host names",
        r#"format "idn-hostname" cannot be asserted (IDNA2008 is not implemented) at /format"#,
    ),
];

/// The optional files' groups refused at load time (file, group description, load error):
/// a draft 2019-09 document, keywords the engine does not know (it never ignores one), and a
/// `$ref` into `examples`.
const OPTIONAL_REJECTED: &[(&str, &str, &str)] = &[
    (
        "cross-draft.json",
        "refs to historic drafts are processed as historic drafts",
        r#"unresolved reference "http://localhost:1234/draft2019-09/ignore-prefixItems.json" at /$ref"#,
    ),
    (
        "refOfUnknownKeyword.json",
        "reference of a root arbitrary keyword ",
        r#"unsupported keyword "unknown-keyword" at /unknown-keyword"#,
    ),
    (
        "refOfUnknownKeyword.json",
        "reference of an arbitrary keyword of a sub-schema",
        r#"unsupported keyword "unknown-keyword" at /properties/foo/unknown-keyword"#,
    ),
    (
        "refOfUnknownKeyword.json",
        "reference internals of known non-applicator",
        r##"unresolved reference "#/examples/0" at /$ref"##,
    ),
    (
        "unknownKeyword.json",
        "$id inside an unknown keyword is not a real identifier",
        r#"unsupported keyword "array_of_schemas" at /$defs/id_in_unknown0/not/array_of_schemas"#,
    ),
];

/// Runs `groups`: each loads and gets every verdict from the reference validator (and,
/// with `codecs`, from the interpreter and native code), or is refused with the error
/// `expected` lists for it. Returns how many tests ran.
fn run(groups: &[suite_support::Group], expected: &[(&str, &str, &str)], codecs: bool) -> usize {
    run_with(suite_support::loader(), groups, expected, codecs)
}

/// [`run`] with `loader`.
fn run_with(
    loader: Loader,
    groups: &[suite_support::Group],
    expected: &[(&str, &str, &str)],
    codecs: bool,
) -> usize {
    let mut rejected = Vec::new();
    let mut failures = Vec::new();
    let mut passed = 0;
    for group in groups {
        let (file, description) = (&group.file, &group.description);
        let schema = match loader.load_value(&group.schema) {
            Ok(schema) => schema,
            Err(e) => {
                rejected.push((file.clone(), description.clone(), e.to_string()));
                continue;
            }
        };
        let backends = codecs.then(|| {
            let native = Options::new().backend(Backend::Native);
            (Codec::new(&schema), Codec::with_options(&schema, native))
        });
        for test in &group.tests {
            let result = schema.validate_value(&test.data);
            let mut verdicts = vec![("reference", result.is_ok())];
            if let Some((interp, native)) = &backends {
                let bytes = serde_json::to_vec(&test.data).expect("data");
                verdicts.push(("interpreter", interp.validate(&bytes).is_ok()));
                verdicts.push(("native", native.validate(&bytes).is_ok()));
            }
            if verdicts.iter().all(|&(_, ok)| ok == test.valid) {
                passed += 1;
            } else {
                failures.push(format!(
                    "{file} / {description} / {}: expected valid={}, got {verdicts:?} {result:?}",
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
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(f, g, e)| (f.to_string(), g.to_string(), e.to_string()))
        .collect();
    assert_eq!(rejected, expected, "rejected groups");
    passed
}

/// The files of `groups`, in order, without repeats.
fn files(groups: &[suite_support::Group]) -> Vec<&str> {
    let mut files: Vec<&str> = groups.iter().map(|g| g.file.as_str()).collect();
    files.dedup();
    files
}

#[test]
fn draft2020_12() {
    let groups = suite_support::groups();
    assert_eq!(files(&groups).len(), 46, "suite files");
    // 1257 tests in 368 groups; the rejected groups hold 4 of them.
    assert_eq!(run(&groups, REJECTED, false), 1253, "tests run");
}

#[test]
fn draft2020_12_optional() {
    let groups = suite_support::optional_groups();
    assert_eq!(files(&groups).len(), 13, "optional files");
    // 158 tests in 48 groups; the rejected groups hold 10 of them.
    assert_eq!(run(&groups, OPTIONAL_REJECTED, true), 148, "tests run");
}

/// The optional files' groups refused at load time when every unknown keyword is taken as an
/// annotation (`Loader::annotation_keyword("*")`): what is inside an annotation is no schema,
/// so a `$ref` into one does not resolve; the other groups of `OPTIONAL_REJECTED` refused
/// for an unknown keyword now run.
const OPTIONAL_REJECTED_WITH_ANNOTATIONS: &[(&str, &str, &str)] = &[
    OPTIONAL_REJECTED[0],
    (
        "refOfUnknownKeyword.json",
        "reference of a root arbitrary keyword ",
        r##"unresolved reference "#/unknown-keyword" at /properties/bar/$ref"##,
    ),
    (
        "refOfUnknownKeyword.json",
        "reference of an arbitrary keyword of a sub-schema",
        r##"unresolved reference "#/properties/foo/unknown-keyword" at /properties/bar/$ref"##,
    ),
    OPTIONAL_REJECTED[3],
];

#[test]
fn draft2020_12_optional_unknown_keywords_as_annotations() {
    let groups = suite_support::optional_groups();
    let mut loader = suite_support::loader();
    loader.annotation_keyword("*");
    // The group with an `$id` inside an unknown keyword (3 tests) runs too.
    assert_eq!(
        run_with(loader, &groups, OPTIONAL_REJECTED_WITH_ANNOTATIONS, true),
        151,
        "tests run"
    );
}

#[test]
fn draft2020_12_formats_asserted() {
    let groups = suite_support::format_groups();
    assert_eq!(files(&groups).len(), 21, "format files");
    let mut loader = suite_support::loader();
    loader.assert_formats(true);
    // 491 tests in 22 groups; the rejected groups hold 75 of them.
    assert_eq!(
        run_with(loader, &groups, FORMAT_REJECTED, true),
        416,
        "tests run"
    );
}

#[test]
fn draft2020_12_formats_as_annotations() {
    // Without the assertion every string passes whatever its format.
    let groups = suite_support::format_groups();
    let loader = suite_support::loader();
    for group in &groups {
        let schema = loader.load_value(&group.schema).expect("loads");
        for test in &group.tests {
            assert!(
                schema.validate_value(&test.data).is_ok(),
                "{}",
                test.description
            );
        }
    }
}

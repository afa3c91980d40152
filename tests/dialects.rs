//! Dialects: `$schema` naming a meta-schema whose `$vocabulary` says which vocabularies its
//! schemas use (a keyword of a draft vocabulary left out is an annotation; format assertion
//! makes `format` an assertion; an unknown required vocabulary is refused), OpenAPI 3.1's
//! dialect, and `Loader::default_dialect`; every verdict on the reference validator, the
//! interpreter and native code. The suite's vocabulary groups run in `schema_suite.rs`.

mod verdict_support;

use jitson::Schema;
use jitson::schema::{DRAFT_2020_12, Loader, OPENAPI_3_1, TypeKey};
use serde_json::{Value, json};
use verdict_support::verdicts;

const CORE: &str = "https://json-schema.org/draft/2020-12/vocab/core";
const APPLICATOR: &str = "https://json-schema.org/draft/2020-12/vocab/applicator";
const VALIDATION: &str = "https://json-schema.org/draft/2020-12/vocab/validation";
const FORMAT_ASSERTION: &str = "https://json-schema.org/draft/2020-12/vocab/format-assertion";

/// A meta-schema declaring `vocabularies` (URI, required).
fn meta_schema(vocabularies: &[(&str, bool)]) -> Value {
    let declared: serde_json::Map<String, Value> = (vocabularies.iter())
        .map(|&(uri, required)| (uri.to_owned(), required.into()))
        .collect();
    json!({"$schema": DRAFT_2020_12, "$vocabulary": declared})
}

/// A loader with the meta-schema `https://example.com/meta/NAME` for each of `dialects`.
fn loader(dialects: &[(&str, &[(&str, bool)])]) -> Loader {
    let mut loader = Loader::new();
    for (name, vocabularies) in dialects {
        let uri = format!("https://example.com/meta/{name}");
        loader
            .document_value(&uri, &meta_schema(vocabularies))
            .unwrap();
    }
    loader
}

#[test]
fn keywords_of_vocabularies_a_dialect_leaves_out_are_annotations() {
    let loader = loader(&[("no-validation", &[(CORE, true), (APPLICATOR, true)])]);
    let schema = loader
        .load_value(&json!({
            "$schema": "https://example.com/meta/no-validation",
            "type": "object",
            "properties": {"n": {"minimum": 10, "type": "integer"}, "gone": false},
            "required": ["n"]
        }))
        .unwrap();
    let values = [
        json!({"n": 1}),
        json!({}),
        json!("text"),
        json!({"gone": 0}),
    ];
    assert_eq!(verdicts(&schema, &values), [true, true, true, false]);
    // The key is that of the schema without them.
    let bare = Schema::from_value(&json!({"properties": {"n": {}, "gone": false}})).unwrap();
    assert_eq!(TypeKey::of(&schema, 0), TypeKey::of(&bare, 0));
}

#[test]
fn without_the_applicator_vocabulary_subschemas_are_no_schemas() {
    let loader = loader(&[("validation-only", &[(CORE, true), (VALIDATION, true)])]);
    let schema = loader
        .load_value(&json!({
            "$schema": "https://example.com/meta/validation-only",
            "type": "object",
            "properties": {"n": {"type": "string"}},
            "allOf": [false]
        }))
        .unwrap();
    assert_eq!(
        verdicts(&schema, &[json!({"n": 1}), json!(1)]),
        [true, false]
    );
    // What an unused keyword holds is not indexed: no `$id` in it names anything.
    let unresolved = loader
        .load_value(&json!({
            "$schema": "https://example.com/meta/validation-only",
            "properties": {"n": {"$id": "https://example.com/n", "type": "string"}},
            "$defs": {"n": {"$ref": "https://example.com/n"}}
        }))
        .unwrap_err();
    assert_eq!(
        unresolved.to_string(),
        r#"unresolved reference "https://example.com/n" at /$defs/n/$ref"#
    );
}

#[test]
fn unknown_vocabularies_are_refused_when_required_and_ignored_when_optional() {
    let custom = "https://example.com/vocab/custom";
    let loader = loader(&[
        (
            "optional",
            &[(CORE, true), (VALIDATION, true), (custom, false)],
        ),
        (
            "required",
            &[(CORE, true), (VALIDATION, true), (custom, true)],
        ),
    ]);
    let optional = loader
        .load_value(&json!({"$schema": "https://example.com/meta/optional", "type": "number"}))
        .unwrap();
    assert_eq!(verdicts(&optional, &[json!(1), json!("1")]), [true, false]);
    let refused = loader
        .load_value(&json!({"$schema": "https://example.com/meta/required", "type": "number"}))
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        r#"dialect "https://example.com/meta/required" requires vocabulary "https://example.com/vocab/custom", which jitson does not implement at /$schema"#
    );
    // Keywords of the draft stay known: an unknown keyword is refused in any dialect.
    let unknown = loader
        .load_value(&json!({"$schema": "https://example.com/meta/optional", "custom": 1}))
        .unwrap_err();
    assert_eq!(
        unknown.to_string(),
        r#"unsupported keyword "custom" at /custom"#
    );
}

#[test]
fn the_format_assertion_vocabulary_asserts_formats() {
    let loader = loader(&[
        (
            "formats",
            &[(CORE, true), (VALIDATION, true), (FORMAT_ASSERTION, false)],
        ),
        ("annotations", &[(CORE, true), (VALIDATION, true)]),
    ]);
    let schema = |dialect: &str, format: &str| {
        let uri = format!("https://example.com/meta/{dialect}");
        loader.load_value(&json!({"$schema": uri, "type": "string", "format": format}))
    };
    let values = [json!("127.0.0.1"), json!("not an address")];
    let asserted = schema("formats", "ipv4").unwrap();
    assert_eq!(verdicts(&asserted, &values), [true, false]);
    // Without either format vocabulary, `format` is an annotation.
    let annotated = schema("annotations", "ipv4").unwrap();
    assert_eq!(verdicts(&annotated, &values), [true, true]);
    // Unknown names stay annotations; formats the engine cannot check are refused.
    let unknown = schema("formats", "int32").unwrap();
    assert_eq!(verdicts(&unknown, &values), [true, true]);
    assert_eq!(
        schema("formats", "idn-hostname").unwrap_err().to_string(),
        r#"format "idn-hostname" cannot be asserted (IDNA2008 is not implemented) at /format"#
    );
    // As with `Loader::assert_formats`, only the format of strings the schema allows is
    // asserted (the `schema_gen` fuzz target found this one refused).
    let mut integers = json!({"type": "integer", "format": "idn-hostname"});
    assert!(
        Loader::new()
            .assert_formats(true)
            .load_value(&integers)
            .is_ok()
    );
    integers["$schema"] = "https://example.com/meta/formats".into();
    let schema = loader.load_value(&integers).unwrap();
    assert_eq!(verdicts(&schema, &[json!(1), json!("a")]), [true, false]);
}

#[test]
fn an_embedded_resource_may_name_another_dialect() {
    let loader = loader(&[("no-validation", &[(CORE, true), (APPLICATOR, true)])]);
    let schema = loader
        .load_value(&json!({
            "properties": {
                "loose": {
                    "$id": "https://example.com/loose",
                    "$schema": "https://example.com/meta/no-validation",
                    "properties": {"inner": {"maximum": 1}},
                    "maximum": 1
                },
                "strict": {"maximum": 1}
            }
        }))
        .unwrap();
    let values = [
        json!({"loose": 5}),
        json!({"loose": {"inner": 5}}),
        json!({"strict": 5}),
    ];
    assert_eq!(verdicts(&schema, &values), [true, true, false]);
}

#[test]
fn openapi_3_1_takes_its_vocabularys_keywords() {
    let pet = json!({
        "$schema": OPENAPI_3_1,
        "type": "object",
        "required": ["kind"],
        "discriminator": {"propertyName": "kind"},
        "externalDocs": {"url": "https://example.com/pets"},
        "xml": {"name": "pet"},
        "properties": {"kind": {"type": "string", "example": "cat"}}
    });
    let schema = Schema::from_value(&pet).unwrap();
    let values = [json!({"kind": "cat"}), json!({"kind": 1}), json!({})];
    assert_eq!(verdicts(&schema, &values), [true, false, false]);
    let mut wrong = pet.clone();
    wrong["discriminator"] = json!("kind");
    assert_eq!(
        Schema::from_value(&wrong).unwrap_err().to_string(),
        r#""discriminator" must be an object at /discriminator"#
    );
    // In draft 2020-12 they are unknown keywords. `x-` extensions are OpenAPI's too (its
    // vocabulary's meta-schema allows `^x-` members), and draft 2020-12 does not know them.
    let mut draft = pet.clone();
    draft["$schema"] = DRAFT_2020_12.into();
    assert_eq!(
        Schema::from_value(&draft).unwrap_err().to_string(),
        r#"unsupported keyword "discriminator" at /discriminator"#
    );
    let mut extended = pet;
    extended["x-owner"] = json!({"$ref": "#/nowhere"});
    let schema = Schema::from_value(&extended).unwrap();
    assert_eq!(verdicts(&schema, &values), [true, false, false]);
    let draft = json!({"$schema": DRAFT_2020_12, "x-owner": "pets"});
    assert_eq!(
        Schema::from_value(&draft).unwrap_err().to_string(),
        r#"unsupported keyword "x-owner" at /x-owner"#
    );
}

#[test]
fn a_default_dialect_reads_every_document_that_names_none() {
    let mut loader = Loader::new();
    loader.default_dialect(OPENAPI_3_1);
    loader
        .document_value(
            "https://example.com/pet.json",
            &json!({"type": "object", "example": {}, "properties": {"kind": {"type": "string"}}}),
        )
        .unwrap();
    let schema = loader
        .load_value(&json!({"$ref": "pet.json", "$id": "https://example.com/root", "xml": {}}))
        .unwrap();
    assert_eq!(
        verdicts(&schema, &[json!({"kind": "cat"}), json!({"kind": 1})]),
        [true, false]
    );
    // A document's own `$schema` wins.
    let draft = json!({"$schema": DRAFT_2020_12, "example": 1});
    assert_eq!(
        loader.load_value(&draft).unwrap_err().to_string(),
        r#"unsupported keyword "example" at /example"#
    );
    // Without the setting, a referenced document is read in draft 2020-12, whatever the
    // dialect of the schema that names it.
    let mut plain = Loader::new();
    plain
        .document_value("https://example.com/pet.json", &json!({"example": {}}))
        .unwrap();
    let refused = plain
        .load_value(&json!({"$schema": OPENAPI_3_1, "$ref": "https://example.com/pet.json"}))
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        r#"unsupported keyword "example" at https://example.com/pet.json#/example"#
    );
    // A default the loader cannot find fails every load, at the root.
    let mut unknown = Loader::new();
    unknown.default_dialect("https://example.com/meta/missing");
    assert_eq!(
        unknown.load_json(b"{}").unwrap_err().to_string(),
        r#"unknown dialect "https://example.com/meta/missing" (no meta-schema has that URI; jitson reads draft 2020-12 and the dialects built on it) at the schema root"#
    );
}

#[test]
fn meta_schemas_that_are_not_dialects_are_refused() {
    let mut loader = Loader::new();
    loader
        .document_value(
            "https://example.com/meta/bad",
            &json!({"$vocabulary": [CORE]}),
        )
        .unwrap();
    let refused = loader
        .load_value(&json!({"$schema": "https://example.com/meta/bad"}))
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        r#""$vocabulary" must be an object of booleans at /$schema"#
    );
    let fragment = Schema::from_value(&json!({"$schema": format!("{DRAFT_2020_12}#/$defs")}));
    assert_eq!(
        fragment.unwrap_err().to_string(),
        r#"unknown dialect "https://json-schema.org/draft/2020-12/schema#/$defs" (no meta-schema has that URI; jitson reads draft 2020-12 and the dialects built on it) at /$schema"#
    );
    // The built-in meta-schemas are dialects too: a vocabulary's meta-schema declares none,
    // so its schemas use draft 2020-12's vocabularies.
    let vocabulary = "https://json-schema.org/draft/2020-12/meta/validation";
    let schema = Schema::from_value(&json!({"$schema": vocabulary, "minimum": 2})).unwrap();
    assert_eq!(verdicts(&schema, &[json!(1), json!(3)]), [false, true]);
}

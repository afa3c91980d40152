//! The built-in draft 2020-12 meta-schema (`DRAFT_2020_12`): every schema document of the
//! JSON-Schema-Test-Suite (keyword, optional and format files) and of `testdata/schemas/`,
//! and thousands of mutations of them, checked against it on the reference validator, the
//! interpreter and native code. The three must agree with each other and with the
//! `jsonschema` crate's own copy of the meta-schema; exact errors for a few documents.

mod suite_support;

use jitson::engine::{Backend, BackendStatus, Options};
use jitson::schema::{DRAFT_2020_12, Loader};
use jitson::{Codec, Keyword, Schema};
use serde_json::{Value, json};

/// A schema that is the meta-schema, by reference.
fn meta_ref() -> Value {
    json!({ "$ref": DRAFT_2020_12 })
}

/// The meta-schema loaded by a loader that was given no document, with formats asserted
/// or not, and its interpreter and native codecs.
struct Meta {
    schema: Schema,
    interp: Codec,
    native: Codec,
}

impl Meta {
    fn new(assert_formats: bool) -> Meta {
        let schema = Loader::new()
            .assert_formats(assert_formats)
            .load_value(&meta_ref())
            .expect("the built-in meta-schema loads");
        let native = Codec::with_options(&schema, Options::new().backend(Backend::Native));
        assert!(
            matches!(native.backend(), BackendStatus::Native),
            "{:?}",
            native.backend()
        );
        Meta {
            interp: Codec::new(&schema),
            native,
            schema,
        }
    }

    /// The verdict on `doc`, which every backend must give (with the same error).
    fn verdict(&self, doc: &Value) -> bool {
        let bytes = serde_json::to_vec(doc).expect("document");
        let reference = self.schema.validate_value(doc);
        let interp = self.interp.validate(&bytes);
        let native = self.native.validate(&bytes);
        assert_eq!(interp, native, "interpreter and native code on {doc}");
        assert_eq!(
            reference.is_ok(),
            interp.is_ok(),
            "reference {reference:?} and codecs {interp:?} on {doc}"
        );
        interp.is_ok()
    }
}

/// Every schema document the tests have: the suite's groups and the corpus schemas.
fn documents() -> Vec<Value> {
    let mut docs: Vec<Value> = [
        suite_support::groups(),
        suite_support::optional_groups(),
        suite_support::format_groups(),
    ]
    .into_iter()
    .flatten()
    .map(|group| group.schema)
    .collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/schemas");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("schemas directory")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read(&file).expect("schema file");
        docs.push(serde_json::from_slice(&text).expect("schema JSON"));
    }
    docs
}

#[test]
fn every_test_schema_is_a_valid_schema() {
    let meta = Meta::new(false);
    let asserted = Meta::new(true);
    let docs = documents();
    assert!(docs.len() > 400, "{} documents", docs.len());
    // The `jsonschema` crate's own copy of the meta-schema, formats as annotations.
    let reference = jsonschema::draft202012::new(&meta_ref()).expect("crate meta-schema");
    for doc in &docs {
        assert!(meta.verdict(doc), "{doc}");
        assert!(asserted.verdict(doc), "formats asserted: {doc}");
        assert!(reference.is_valid(doc), "the crate: {doc}");
    }
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Values a mutation puts somewhere in a schema document: wrong types, negative and
/// fractional counts, bad types, anchors, `$id`s and vocabularies, nested schemas.
fn replacements() -> Vec<Value> {
    vec![
        json!(-1),
        json!(1.5),
        json!(2.0),
        json!(0),
        json!("x"),
        json!(true),
        json!(null),
        json!([]),
        json!(["a", "a"]),
        json!([1]),
        json!({}),
        json!({"type": "foo"}),
        json!({"type": ["string", "string"]}),
        json!({"minLength": -1}),
        json!({"$anchor": "1a"}),
        json!({"$id": "http://e.com/#frag"}),
        json!({"$vocabulary": {"http://e.com/v": 1}}),
        json!({"required": ["a", "a"]}),
        json!({"$defs": {"a": {"maxItems": "1"}}}),
        json!({"dependencies": {"a": 3}}),
        json!({"definitions": {"a": {"enum": 1}}}),
        json!({"prefixItems": []}),
        json!({"type": ["string", "null"]}),
        json!({"minimum": -2.5}),
        json!({"$anchor": "a.b-c"}),
        json!({"$ref": "#/$defs/x"}),
        json!({"unknownKeyword": [1, {}]}),
        json!({"required": ["a", "b"]}),
    ]
}

/// `doc` with the value at one randomly chosen node (or a new member of an object) replaced.
fn mutate(doc: &Value, rng: &mut Rng, with: &[Value]) -> Value {
    let mut doc = doc.clone();
    mutate_at(&mut doc, rng, with);
    doc
}

/// Replaces `at` or a node below it, or adds a keyword to an object on the way.
fn mutate_at(at: &mut Value, rng: &mut Rng, with: &[Value]) {
    const KEYWORDS: [&str; 8] = [
        "type",
        "minimum",
        "items",
        "required",
        "properties",
        "$ref",
        "enum",
        "pattern",
    ];
    let descend = rng.below(3) != 0;
    match at {
        Value::Object(members) if descend && !members.is_empty() => {
            let i = rng.below(members.len());
            return mutate_at(members.values_mut().nth(i).expect("member"), rng, with);
        }
        Value::Array(items) if descend && !items.is_empty() => {
            let i = rng.below(items.len());
            return mutate_at(&mut items[i], rng, with);
        }
        Value::Object(members) if rng.below(2) == 0 => {
            let keyword = KEYWORDS[rng.below(KEYWORDS.len())];
            members.insert(keyword.to_owned(), with[rng.below(with.len())].clone());
            return;
        }
        _ => {}
    }
    *at = with[rng.below(with.len())].clone();
}

#[test]
fn mutated_schemas_get_the_crates_verdict_on_every_backend() {
    let meta = Meta::new(false);
    let reference = jsonschema::draft202012::new(&meta_ref()).expect("crate meta-schema");
    let with = replacements();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut valid, mut invalid) = (0, 0);
    for doc in documents() {
        for _ in 0..16 {
            let mutant = mutate(&doc, &mut rng, &with);
            let ours = meta.verdict(&mutant);
            assert_eq!(
                ours,
                reference.is_valid(&mutant),
                "the crate disagrees on {mutant}"
            );
            if ours { valid += 1 } else { invalid += 1 }
        }
    }
    // Both verdicts are common, so neither side can pass by saying one thing.
    assert!(
        valid > 800 && invalid > 1500,
        "{valid} valid, {invalid} invalid"
    );
}

#[test]
fn exact_errors() {
    let meta = Meta::new(false);
    for codec in [&meta.interp, &meta.native] {
        let e = codec
            .validate(br#"{"properties": {"a": {"minLength": -1}}}"#)
            .expect_err("a negative length");
        assert_eq!(
            e.to_string(),
            "number below the minimum at line 1 column 36, path $.properties.a.minLength, \
             keyword minimum"
        );
        assert_eq!(e.keyword(), Some(Keyword::Minimum));
        let e = codec
            .validate(br#"{"$defs": {"a": {"type": "text"}}}"#)
            .expect_err("no such type");
        assert_eq!(
            e.to_string(),
            "value is not one of the allowed values at line 1 column 26, \
             path $[\"$defs\"].a.type, keyword enum"
        );
        let e = codec
            .validate(br#"{"$id": "http://example.com/a#b"}"#)
            .expect_err("an $id with a fragment");
        assert_eq!(
            e.to_string(),
            "string does not match the pattern at line 1 column 9, path $[\"$id\"], \
             keyword pattern"
        );
        assert_eq!(e.schema_pointer(), Some("/properties/$id/pattern"));
    }
}

#[test]
fn formats_asserted_check_patterns_and_references() {
    let annotations = Meta::new(false);
    let asserted = Meta::new(true);
    for doc in [
        json!({"pattern": "a("}),
        json!({"patternProperties": {"[": {}}}),
        json!({"$ref": "http://exa mple.com/"}),
        json!({"$schema": "not a uri"}),
    ] {
        assert!(annotations.verdict(&doc), "{doc}");
        assert!(!asserted.verdict(&doc), "{doc}");
    }
}

#[test]
fn a_loaders_own_document_comes_before_the_built_in_one() {
    let mut loader = Loader::new();
    loader
        .document_json(DRAFT_2020_12, br#"{"type": "integer"}"#)
        .expect("document");
    let schema = loader.load_value(&meta_ref()).expect("schema");
    assert!(schema.validate_value(&json!(3)).is_ok());
    assert!(schema.validate_value(&json!({})).is_err());
    let built_in = Loader::new().load_value(&meta_ref()).expect("schema");
    assert!(built_in.validate_value(&json!({})).is_ok());
    assert!(built_in.validate_value(&json!(3)).is_err());
}

#[test]
fn a_vocabulary_declaration_loads_and_asserts_nothing() {
    let schema = Schema::from_json_str(
        r#"{"$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true},
            "type": "integer"}"#,
    )
    .expect("schema");
    assert!(schema.validate_value(&json!(1)).is_ok());
    let e = Schema::from_json_str(r#"{"$vocabulary": {"https://example.com/v": 1}}"#)
        .expect_err("not a boolean");
    assert_eq!(
        e.to_string(),
        "\"$vocabulary\" must be an object of booleans at /$vocabulary"
    );
}

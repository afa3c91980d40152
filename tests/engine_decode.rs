//! Decode into documents: corpus documents against their schemas, the JSON-Schema-Test-Suite
//! and JSONTestSuite, random mutations; accessors, pointers and precompiled paths. Every
//! document is compared with `serde_json`'s parse.

mod engine_support;
#[path = "value_support/mod.rs"]
mod value_support;

use engine_support::{
    CORPUS, DEPENDENT_ITEMS, DEPENDENT_SCHEMA, PATTERN_ITEMS, PATTERN_SCHEMA,
    UNEVALUATED_BRANCH_ITEMS, UNEVALUATED_BRANCH_SCHEMA, UNEVALUATED_ITEMS,
    UNEVALUATED_ITEMS_ITEMS, UNEVALUATED_ITEMS_SCHEMA, UNEVALUATED_SCHEMA, WHOLE_VALUE_ITEMS,
    WHOLE_VALUE_SCHEMA, corpus_schema, suite_support, suite_tests, testdata,
};
use jitson::engine::{Backend, BackendStatus, Options};
use jitson::{Codec, Schema};
use serde_json::Value;
use value_support::{Rng, compare, mutate};

/// Decodes `bytes` and checks the outcome against validate and the value against serde_json.
fn agree(codec: &Codec, bytes: &[u8]) -> Result<(), String> {
    let decoded = codec.decode(bytes);
    let validated = codec.validate(bytes);
    match (&decoded, &validated) {
        (Ok(doc), Ok(())) => {
            let theirs: Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
            compare(&doc.to_serde_json(), &theirs).map(|_| ())
        }
        (Err(d), Err(v)) if d == v => Ok(()),
        _ => Err(format!(
            "decode {:?} vs validate {validated:?} for {}",
            decoded.as_ref().map(|_| ()),
            String::from_utf8_lossy(bytes)
        )),
    }
}

#[test]
fn corpus_documents_decode_to_serde_json_values() {
    for (doc, schema) in CORPUS {
        let codec = Codec::new(&corpus_schema(schema));
        let bytes = testdata(&format!("bench/{doc}.json"));
        let ours = codec
            .decode(&bytes)
            .unwrap_or_else(|e| panic!("{doc}: {e}"));
        let theirs: Value = serde_json::from_slice(&bytes).unwrap();
        compare(&ours.to_serde_json(), &theirs).unwrap_or_else(|e| panic!("{doc}: {e}"));
    }
}

#[test]
fn corpus_mutations_decode_exactly_when_they_validate() {
    let mut rng = Rng::new(0xdec0de);
    let rounds = if cfg!(miri) { 2 } else { 40 };
    for (doc, schema) in CORPUS {
        let codec = Codec::new(&corpus_schema(schema));
        let bytes = testdata(&format!("bench/{doc}.json"));
        let small = &bytes[..bytes.len().min(1 << 20)];
        for _ in 0..rounds {
            let mutated = mutate(&mut rng, small);
            agree(&codec, &mutated).unwrap_or_else(|e| panic!("{doc}: {e}"));
        }
    }
}

#[test]
fn json_schema_test_suite_decodes_exactly_when_valid() {
    let mut failures = Vec::new();
    let loader = suite_support::loader();
    let mut run = 0;
    for test in suite_tests() {
        let Ok(schema) = loader.load_value(&test.schema) else {
            continue;
        };
        let codec = Codec::new(&schema);
        for bytes in [
            serde_json::to_vec(&test.data).unwrap(),
            serde_json::to_vec_pretty(&test.data).unwrap(),
        ] {
            run += 1;
            if codec.decode(&bytes).is_ok() != test.valid {
                failures.push(format!("{}: expected valid={}", test.name, test.valid));
            }
            if let Err(e) = agree(&codec, &bytes) {
                failures.push(format!("{}: {e}", test.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(run, 2506, "suite tests run (compact and pretty)");
}

/// JSONTestSuite through `{}`: every `y_` text decodes, every `n_` one is refused, and
/// every text gets `serde_json`'s verdict and value.
#[test]
fn json_test_suite_through_any() {
    let codec = Codec::new(&Schema::from_json_str("{}").unwrap());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/jsontestsuite");
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("suite directory") {
        let path = entry.expect("entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".json") {
            continue;
        }
        let bytes = std::fs::read(&path).expect("suite file");
        let got = codec.decode(&bytes);
        let wrong = match &name[..2] {
            "y_" => got.is_err(),
            "n_" => got.is_ok(),
            _ => false,
        };
        if wrong {
            failures.push(format!("{name}: {:?}", got.err()));
        }
        if let Err(e) = agree(&codec, &bytes) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const SHOP: &str = r##"{"type": "object", "properties": {
    "id": {"type": "integer"}, "name": {"type": "string"}, "price": {"type": "number"},
    "open": {"type": "boolean"}, "note": {"type": ["string", "null"]},
    "kind": {"enum": ["shop", "stall"]}, "extra": {},
    "items": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}},
    "tags": {"type": "object", "additionalProperties": {"type": "string"}},
    "alt": {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "string"}}]}},
  "required": ["id"]}"##;

const SHOP_DOC: &str = r#"{"id": -3, "name": "caf\u00e9", "price": 2.5, "open": true, "note": null,
    "kind": "stall", "extra": {"a" : [1, 2]}, "items": ["first", 2, 3], "tags": {"x": "1", "y": "2"},
    "alt": ["p", "q"], "unknown": {"u": 1}, "name": "last"}"#;

#[test]
fn accessors_read_typed_values() {
    let codec = Codec::new(&Schema::from_json_str(SHOP).unwrap());
    let doc = codec.decode(SHOP_DOC.as_bytes()).unwrap();
    let root = doc.root();
    assert_eq!(root.get("id").and_then(|v| v.as_i64()), Some(-3));
    assert_eq!(root.get("id").and_then(|v| v.as_u64()), None);
    assert_eq!(root.get("name").and_then(|v| v.as_str()), Some("last"));
    assert_eq!(root.get("price").and_then(|v| v.as_f64()), Some(2.5));
    assert_eq!(root.get("open").and_then(|v| v.as_bool()), Some(true));
    assert!(root.get("note").is_some_and(|v| v.is_null()));
    assert_eq!(root.get("kind").and_then(|v| v.as_str()), Some("stall"));
    assert_eq!(
        root.get("extra").and_then(|v| v.raw()),
        Some(&br#"{"a" : [1, 2]}"#[..])
    );
    assert_eq!(root.get("items").and_then(|v| v.len()), Some(3));
    assert_eq!(
        doc.pointer("/items/0").and_then(|v| v.as_str()),
        Some("first")
    );
    assert_eq!(doc.pointer("/items/2").and_then(|v| v.as_u64()), Some(3));
    assert!(doc.pointer("/items/3").is_none());
    assert!(doc.pointer("/items/01").is_none());
    assert_eq!(doc.pointer("/tags/y").and_then(|v| v.as_str()), Some("2"));
    assert_eq!(doc.pointer("/alt/1").and_then(|v| v.as_str()), Some("q"));
    assert_eq!(
        doc.pointer("/unknown").and_then(|v| v.raw()),
        Some(&br#"{"u": 1}"#[..])
    );
    assert!(
        doc.pointer("/unknown/u").is_none(),
        "raw values have no members"
    );
    assert!(doc.pointer("x").is_none());
    let keys: Vec<&str> = match root.node() {
        jitson::document::Node::Object(m) => m.iter().map(|(k, _)| k).collect(),
        _ => panic!("an object"),
    };
    assert_eq!(
        keys,
        [
            "id", "name", "price", "open", "note", "kind", "extra", "items", "tags", "alt",
            "unknown"
        ]
    );
    let items: Vec<String> = match root.get("items").unwrap().node() {
        jitson::document::Node::Array(items) => {
            items.iter().map(|v| format!("{:?}", v.node())).collect()
        }
        _ => panic!("an array"),
    };
    assert_eq!(
        items,
        [r#"Str("first")"#, "Number(U64(2))", "Number(U64(3))"]
    );
    let theirs: Value = serde_json::from_str(SHOP_DOC).unwrap();
    assert_eq!(doc.to_serde_json(), theirs);
}

#[test]
fn precompiled_paths_resolve_fields_once() {
    let codec = Codec::new(&Schema::from_json_str(SHOP).unwrap());
    let doc = codec.decode(SHOP_DOC.as_bytes()).unwrap();
    for (pointer, expected) in [
        ("/name", Some("\"last\"")),
        ("/items/0", Some("\"first\"")),
        ("/tags/x", Some("\"1\"")),
        ("/alt/0", Some("\"p\"")),
        ("/missing", None),
        ("", None),
    ] {
        let path = codec.compile_path(pointer).unwrap();
        let got = doc
            .at(&path)
            .and_then(|v| v.as_str())
            .map(|s| format!("{s:?}"));
        assert_eq!(got.as_deref(), expected, "{pointer}");
    }
    assert_eq!(
        doc.at(&codec.compile_path("/id").unwrap())
            .and_then(|v| v.as_i64()),
        Some(-3)
    );
    let err = codec.compile_path("/a~2").unwrap_err();
    assert_eq!(err.to_string(), r#"invalid JSON Pointer "/a~2""#);
}

#[test]
fn decode_errors_match_validate() {
    let codec = Codec::new(&Schema::from_json_str(SHOP).unwrap());
    for (input, message) in [
        (
            r#"{"id": "x"}"#,
            "expected integer, found string at line 1 column 8, path $.id, keyword type",
        ),
        (
            r#"{"id": 1, "items": ["a", "b"]}"#,
            "expected integer, found string at line 1 column 26, path $.items[1], keyword type",
        ),
        (
            r#"{"name": "n"}"#,
            "missing required field \"id\" at line 1 column 13, path $, keyword required",
        ),
        (
            r#"{"id": 1,"#,
            "EOF while parsing a value at line 1 column 9, path $",
        ),
    ] {
        let e = codec.decode(input.as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), message, "{input}");
        assert_eq!(codec.validate(input.as_bytes()).unwrap_err(), e);
    }
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    let any = Codec::new(
        &Schema::from_json_str(r##"{"type": "array", "items": {"$ref": "#"}}"##).unwrap(),
    );
    let e = any.decode(deep.as_bytes()).unwrap_err();
    assert_eq!(e.kind(), jitson::ErrorKind::DepthLimitExceeded);
}

#[test]
fn duplicate_keys_last_wins_or_deny() {
    use jitson::engine::{DuplicateKeys, Options};
    let schema = Schema::from_json_str(SHOP).unwrap();
    let doc = br#"{"id": 1, "id": 2}"#;
    let last = Codec::new(&schema);
    let decoded = last.decode(doc).unwrap();
    assert_eq!(decoded.root().get("id").and_then(|v| v.as_u64()), Some(2));
    let deny = Codec::with_options(&schema, Options::new().duplicate_keys(DuplicateKeys::Deny));
    assert_eq!(
        deny.decode(doc).unwrap_err().kind(),
        jitson::ErrorKind::DuplicateKey
    );
}

#[test]
fn recursive_and_union_schemas_decode() {
    let schema = Schema::from_json_str(
        r##"{"$defs": {"node": {"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
             "next": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/node"}]}}, "required": ["v"]}},
           "allOf": [{"$ref": "#/$defs/node"}, {"not": {"required": ["bad"]}}]}"##,
    )
    .unwrap();
    let codec = Codec::new(&schema);
    let text = r#"{"v": "a", "next": {"v": 1, "next": {"v": "c", "next": null}}}"#;
    let doc = codec.decode(text.as_bytes()).unwrap();
    assert_eq!(
        doc.pointer("/next/next/v").and_then(|v| v.as_str()),
        Some("c")
    );
    assert_eq!(doc.pointer("/next/v").and_then(|v| v.as_u64()), Some(1));
    assert_eq!(
        doc.to_serde_json(),
        serde_json::from_str::<Value>(text).unwrap()
    );
    assert!(codec.decode(br#"{"v": "a", "bad": 1}"#).is_err());
}

/// Regression: records were inline however large, so a schema whose objects hold two
/// fields of the next level's object type had records of 2^depth slots: forty levels made
/// native code refuse the layout ("bad shape": sizes past `u32`) and the interpreter panic
/// on its record buffer after zeroing gigabytes for `{}`. Records above 2 KiB are now boxed:
/// both backends decode, in a few hundred bytes of arena.
#[test]
fn doubling_records_are_boxed_not_inline() {
    let depth = 40;
    let defs: Vec<String> = (0..depth)
        .map(|i| {
            let next = format!(r##"{{"$ref": "#/$defs/d{}"}}"##, i + 1);
            format!(r#""d{i}": {{"type": "object", "properties": {{"a": {next}, "b": {next}}}}}"#)
        })
        .chain([format!(r#""d{depth}": {{"type": "integer"}}"#)])
        .collect();
    let text = format!(
        r##"{{"$ref": "#/$defs/d0", "$defs": {{{}}}}}"##,
        defs.join(", ")
    );
    let schema = Schema::from_json_str(&text).expect("schema loads");
    for backend in [Backend::Interpreter, Backend::Native] {
        let codec = Codec::with_options(&schema, Options::new().backend(backend));
        for doc in [&b"{}"[..], br#"{"a": {"b": {"a": {}}}, "b": {}}"#] {
            agree(&codec, doc).unwrap_or_else(|e| panic!("{backend:?}: {e}"));
            let decoded = codec.decode(doc).expect("decodes");
            assert!(
                decoded.arena_bytes() < 64 << 10,
                "{}",
                decoded.arena_bytes()
            );
        }
        assert!(codec.decode(br#"{"a": {"b": "x"}}"#).is_err());
        if backend == Backend::Native {
            assert_eq!(codec.backend(), &BackendStatus::Native);
        }
    }
}

/// Documents under `patternProperties` decode to serde_json's values on both backends (a
/// member a pattern matches, and then every other member, as raw JSON) and fail where
/// validate fails; collected errors are the same on both.
#[test]
fn pattern_properties_decode_on_both_backends() {
    let errors = items_decode_on_both_backends(PATTERN_SCHEMA, &PATTERN_ITEMS, 8);
    // One per failing item, and two for `{"x-rate": 1.5}`: the field's `type` and the
    // pattern `^x-`'s, each checked.
    assert_eq!(errors, PATTERN_ITEMS.len() - 8 + 1);
}

/// Documents under `unevaluatedProperties` decode to serde_json's values on both backends
/// and fail where validate fails; collected errors are the same on both.
#[test]
fn unevaluated_properties_decode_on_both_backends() {
    let errors = items_decode_on_both_backends(UNEVALUATED_SCHEMA, &UNEVALUATED_ITEMS, 5);
    assert_eq!(errors, UNEVALUATED_ITEMS.len() - 5);
}

/// Documents under `dependentSchemas` decode to serde_json's values on both backends and
/// fail where validate fails; collected errors are the same on both.
#[test]
fn dependent_schemas_decode_on_both_backends() {
    let errors = items_decode_on_both_backends(DEPENDENT_SCHEMA, &DEPENDENT_ITEMS, 6);
    // One per failing item, and two each for `{"gift": 1}` (`false`, then not evaluated)
    // and `{"price": "x", "card": "1"}` (the type, then `billing` required).
    assert_eq!(errors, DEPENDENT_ITEMS.len() - 6 + 2);
}

/// Documents under `unevaluatedProperties` beside branches decode to serde_json's values on
/// both backends and fail where validate fails; collected errors are the same on both.
#[test]
fn unevaluated_beside_branches_decode_on_both_backends() {
    let errors =
        items_decode_on_both_backends(UNEVALUATED_BRANCH_SCHEMA, &UNEVALUATED_BRANCH_ITEMS, 5);
    // One per failing item, and two for the bird: no `oneOf` branch matches, so none
    // evaluates `kind`, which `unevaluatedProperties` then refuses too (as the `jsonschema`
    // crate's `iter_errors` reports it).
    assert_eq!(errors, UNEVALUATED_BRANCH_ITEMS.len() - 5 + 1);
}

/// Documents under `unevaluatedItems` decode to serde_json's values on both backends and
/// fail where validate fails; collected errors are the same on both.
#[test]
fn unevaluated_items_decode_on_both_backends() {
    let errors =
        items_decode_on_both_backends(UNEVALUATED_ITEMS_SCHEMA, &UNEVALUATED_ITEMS_ITEMS, 9);
    // One per failing item, and two for the pair with a third item: `false` at the item,
    // then the item count (a closed tuple's canonical `maxItems`), as for `items: false`.
    assert_eq!(errors, UNEVALUATED_ITEMS_ITEMS.len() - 9 + 1);
}

/// Documents under rules on whole arrays and objects (`uniqueItems`, member counts,
/// `dependentRequired`: checks that write nothing) decode to serde_json's values on both
/// backends and fail where validate fails; collected errors are the same on both.
#[test]
fn whole_value_rules_decode_on_both_backends() {
    let errors = items_decode_on_both_backends(WHOLE_VALUE_SCHEMA, &WHOLE_VALUE_ITEMS, 9);
    // One per failing item, and the repeated "a" after the wrong-kind item of
    // `{"tags": ["a", 1, "a"]}`: the whole-array check still runs after the item's error.
    assert_eq!(errors, WHOLE_VALUE_ITEMS.len() - 9 + 1);
}

/// Each of `items` (the first `valid` valid) alone in an array under `schema`, and the
/// valid ones together, decode on both backends as [`agree`] says; the failing ones
/// together give the same collected errors on both: how many.
fn items_decode_on_both_backends(schema: &str, items: &[(&str, &str)], valid: usize) -> usize {
    let schema = Schema::from_json_str(schema).unwrap();
    let interp = Codec::new(&schema);
    let native = Codec::with_options(&schema, Options::new().backend(Backend::Native));
    let items: Vec<&str> = items.iter().map(|(item, _)| *item).collect();
    let failing = format!("[{}]", items[valid..].join(", "));
    let valid = format!("[{}]", items[..valid].join(", "));
    for codec in [&interp, &native] {
        for item in &items {
            agree(codec, format!("[{item}]").as_bytes()).unwrap();
        }
        agree(codec, valid.as_bytes()).unwrap();
        assert!(codec.decode(valid.as_bytes()).is_ok());
    }
    let errors = interp.validate_all(failing.as_bytes(), 100);
    assert_eq!(native.validate_all(failing.as_bytes(), 100), errors);
    errors.len()
}

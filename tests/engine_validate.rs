//! The interpreter's `validate` against the reference validator: the JSON-Schema-Test-Suite,
//! the corpus documents, and random mutations of (shrunk) corpus documents. The verdict must
//! always be `serde_json parses it && Schema::validate_value accepts it`.

mod engine_support;
#[path = "../kernels/tests/common/rng.rs"]
mod rng;

use engine_support::{
    BY_NAME_ITEMS, BY_NAME_SCHEMA, CONDITIONAL_ITEMS, CONDITIONAL_SCHEMA, CORPUS,
    DEFAULT_BRANCH_ITEMS, DEFAULT_BRANCH_SCHEMA, DEPENDENT_ITEMS, DEPENDENT_SCHEMA,
    LARGE_ENUM_ITEMS, LARGE_ENUM_SCHEMA, MULTIPLE_OF_SCHEMA, PATTERN_ITEMS, PATTERN_SCHEMA,
    UNEVALUATED_BRANCH_ITEMS, UNEVALUATED_BRANCH_SCHEMA, UNEVALUATED_ITEMS,
    UNEVALUATED_ITEMS_ITEMS, UNEVALUATED_ITEMS_SCHEMA, UNEVALUATED_SCHEMA, WHOLE_VALUE_ITEMS,
    WHOLE_VALUE_SCHEMA, corpus_schema, multiple_of_documents, suite_support, testdata,
};

use rng::Rng;

use jitson::engine::{Backend, DuplicateKeys, Options};
use jitson::schema::Loader;
use jitson::{Codec, ErrorKind, Keyword, Schema, SyntaxKind};
use serde_json::{Value, json};
use std::path::Path;

/// What the engine must answer for `bytes`.
fn oracle(schema: &Schema, bytes: &[u8]) -> bool {
    serde_json::from_slice::<Value>(bytes).is_ok_and(|v| schema.validate_value(&v).is_ok())
}

/// True when some object of the (well-formed) text repeats a key.
fn has_duplicate_keys(bytes: &[u8]) -> bool {
    serde_json::from_slice::<NoDuplicates>(bytes).is_err()
}

/// A JSON value that fails to deserialize when an object repeats a key.
struct NoDuplicates;

impl<'de> serde::Deserialize<'de> for NoDuplicates {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<NoDuplicates, D::Error> {
        d.deserialize_any(NoDuplicatesVisitor)
    }
}

struct NoDuplicatesVisitor;

impl<'de> serde::de::Visitor<'de> for NoDuplicatesVisitor {
    type Value = NoDuplicates;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON without duplicate keys")
    }

    fn visit_bool<E>(self, _: bool) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_i64<E>(self, _: i64) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_u64<E>(self, _: u64) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_f64<E>(self, _: f64) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_str<E>(self, _: &str) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_unit<E>(self) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<NoDuplicates, A::Error> {
        while a.next_element::<NoDuplicates>()?.is_some() {}
        Ok(NoDuplicates)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<NoDuplicates, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = a.next_key::<String>()? {
            if !seen.insert(key) {
                return Err(serde::de::Error::custom("duplicate key"));
            }
            a.next_value::<NoDuplicates>()?;
        }
        Ok(NoDuplicates)
    }
}

/// Checks one input: first-error mode and collect-all mode agree with the oracle.
///
/// One documented difference: with duplicate keys (last wins), the engine checks every
/// occurrence where `serde_json` keeps only the last, so the engine may reject a text whose
/// last occurrences are valid.
fn agree(schema: &Schema, codec: &Codec, bytes: &[u8]) -> Result<(), String> {
    let expected = oracle(schema, bytes);
    let got = codec.validate(bytes);
    if expected && got.is_err() && has_duplicate_keys(bytes) {
        return Ok(());
    }
    if got.is_ok() != expected {
        return Err(format!(
            "expected valid={expected}, got {got:?} for {}",
            String::from_utf8_lossy(bytes)
        ));
    }
    if let Err(e) = &got {
        same_schema_pointer(schema, bytes, e)?;
        same_syntax_message(bytes, e)?;
    }
    let all = codec.validate_all(bytes, 8);
    if all.is_empty() != expected {
        return Err(format!(
            "collect-all: expected valid={expected}, got {all:?} for {}",
            String::from_utf8_lossy(bytes)
        ));
    }
    Ok(())
}

/// A schema failure names its keyword's pointer, and when the reference validator reports
/// the same keyword at the same instance path, the same pointer.
fn same_schema_pointer(schema: &Schema, bytes: &[u8], e: &jitson::Error) -> Result<(), String> {
    let Some(keyword) = e.keyword() else {
        return Ok(());
    };
    let pointer = e
        .schema_pointer()
        .ok_or_else(|| format!("{e}: no schema pointer"))?;
    let Ok(value) = serde_json::from_slice::<Value>(bytes) else {
        return Ok(());
    };
    match schema.validate_value(&value) {
        Err(r)
            if r.instance_path() == e.path().to_string()
                && r.kind().keyword() == keyword.as_str()
                && r.schema_pointer() != pointer =>
        {
            Err(format!(
                "{e}: pointer {pointer}, the reference says {} ({r})",
                r.schema_pointer()
            ))
        }
        _ => Ok(()),
    }
}

/// A syntax error reads exactly like serde_json's for the same input (then the path), but
/// for bad UTF-8, where serde_json's column is approximate (`SyntaxKind::InvalidUtf8`).
fn same_syntax_message(bytes: &[u8], e: &jitson::Error) -> Result<(), String> {
    match e.kind() {
        ErrorKind::Syntax(SyntaxKind::InvalidUtf8) => return Ok(()),
        ErrorKind::Syntax(_) => {}
        _ => return Ok(()),
    }
    let serde = serde_json::from_slice::<Value>(bytes)
        .err()
        .ok_or_else(|| format!("{e}, but serde_json accepts the input"))?
        .to_string();
    match e.to_string().starts_with(&format!("{serde}, path ")) {
        true => Ok(()),
        false => Err(format!(
            "{e}: serde_json says {serde} for {}",
            String::from_utf8_lossy(bytes)
        )),
    }
}

#[test]
fn json_schema_test_suite() {
    let run = suite_cases(&suite_support::loader(), suite_support::groups());
    assert_eq!(run, 2506, "suite tests run (compact and pretty)");
}

#[test]
fn json_schema_test_suite_formats_asserted() {
    let mut loader = suite_support::loader();
    loader.assert_formats(true);
    let run = suite_cases(&loader, suite_support::format_groups());
    assert_eq!(run, 832, "format tests run (compact and pretty)");
}

/// Runs every test of the `groups` that `loader` loads, compact and pretty, on the
/// interpreter: its verdict is the suite's, and its error agrees with the reference
/// validator's and serde_json's. Returns how many ran.
fn suite_cases(loader: &Loader, groups: Vec<suite_support::Group>) -> usize {
    let mut failures = Vec::new();
    let mut run = 0;
    for group in groups {
        let Ok(schema) = loader.load_value(&group.schema) else {
            continue;
        };
        let codec = Codec::new(&schema);
        for test in &group.tests {
            let compact = serde_json::to_vec(&test.data).expect("data");
            let pretty = serde_json::to_vec_pretty(&test.data).expect("data");
            for bytes in [compact, pretty] {
                run += 1;
                let got = codec.validate(&bytes);
                if got.is_ok() != test.valid {
                    failures.push(format!(
                        "{} / {} / {}: expected valid={}, got {got:?}\n{}",
                        group.file,
                        group.description,
                        test.description,
                        test.valid,
                        codec.program()
                    ));
                }
                if let Err(e) = agree(&schema, &codec, &bytes) {
                    failures.push(e);
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
    run
}

#[test]
fn corpus_documents_validate() {
    for (doc, schema) in CORPUS {
        let codec = Codec::new(&corpus_schema(schema));
        let bytes = testdata(&format!("bench/{doc}.json"));
        assert_eq!(codec.validate(&bytes), Ok(()), "{doc}");
        assert_eq!(codec.validate_all(&bytes, 10), vec![], "{doc}");
    }
}

/// The document with every array cut to its first four items (keeps mutation runs fast).
fn shrink(v: &mut Value) {
    match v {
        Value::Array(items) => {
            items.truncate(4);
            items.iter_mut().for_each(shrink);
        }
        Value::Object(members) => members.values_mut().for_each(shrink),
        _ => {}
    }
}

/// Every JSON Pointer of `v`'s descendants (and the root, `""`).
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{i}"), out);
            }
        }
        Value::Object(members) => {
            for (k, member) in members {
                let k = k.replace('~', "~0").replace('/', "~1");
                pointers(member, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// A value-level mutation: replace a node, drop an object member, or add one.
fn mutate_value(doc: &Value, rng: &mut Rng) -> Value {
    let replacements = [
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(1e300),
        json!(18446744073709551615u64),
        json!(""),
        json!("x"),
        json!("é\u{1F600}\"\\"),
        json!([]),
        json!({}),
        json!([1, "a"]),
        json!({"a": 1}),
    ];
    let mut doc = doc.clone();
    let mut all = Vec::new();
    pointers(&doc, String::new(), &mut all);
    let at = &all[rng.below(all.len())];
    let target = doc.pointer_mut(at).expect("pointer of the document");
    match (rng.below(4), target) {
        (0, Value::Object(members)) if !members.is_empty() => {
            let key = members.keys().nth(rng.below(members.len())).cloned();
            members.remove(&key.expect("a key"));
        }
        (1, Value::Object(members)) => {
            members.insert("zz_unknown".into(), replacements[rng.below(14)].clone());
        }
        (_, target) => *target = replacements[rng.below(replacements.len())].clone(),
    }
    doc
}

/// A byte-level mutation of the text: replace, insert or delete bytes, or duplicate a run.
fn mutate_bytes(text: &[u8], rng: &mut Rng) -> Vec<u8> {
    const BYTES: &[u8] = b" \t\n{}[]\":,0123456789-+.eEtrufalsn\\xu\x00\x1f\xff\xc3";
    let mut out = text.to_vec();
    let at = rng.below(out.len());
    match rng.below(4) {
        0 => out[at] = BYTES[rng.below(BYTES.len())],
        1 => out.insert(at, BYTES[rng.below(BYTES.len())]),
        2 => {
            let end = (at + 1 + rng.below(8)).min(out.len());
            out.drain(at..end);
        }
        _ => {
            let end = (at + 1 + rng.below(16)).min(out.len());
            let run: Vec<u8> = out[at..end].to_vec();
            out.splice(at..at, run);
        }
    }
    out
}

#[test]
fn mutated_corpus_documents_agree_with_the_oracle() {
    let rounds = if cfg!(miri) { 2 } else { 400 };
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut failures = Vec::new();
    for (doc, schema_name) in CORPUS {
        let schema = corpus_schema(schema_name);
        let codec = Codec::new(&schema);
        let mut value: Value =
            serde_json::from_slice(&testdata(&format!("bench/{doc}.json"))).expect("corpus");
        shrink(&mut value);
        assert_eq!(schema.validate_value(&value), Ok(()), "shrunk {doc}");
        let text = serde_json::to_vec_pretty(&value).expect("text");
        for round in 0..rounds {
            let bytes = match round % 2 {
                0 => serde_json::to_vec(&mutate_value(&value, &mut rng)).expect("text"),
                _ => mutate_bytes(&text, &mut rng),
            };
            if let Err(e) = agree(&schema, &codec, &bytes) {
                failures.push(format!("{doc} round {round}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn errors_are_readable() {
    let schema = Schema::from_json_str(
        r#"{"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "object", "properties": {"b": {"type": "integer", "minimum": 0}}}},
            "c": {"type": "string"}
        }, "required": ["c"]}"#,
    )
    .unwrap();
    let codec = Codec::new(&schema);
    let e = codec
        .validate(br#"{"c": "", "a": [{}, {}, {}, {"b": -4}]}"#)
        .unwrap_err();
    assert_eq!(e.path().to_string(), "$.a[3].b");
    assert_eq!(e.keyword(), Some(Keyword::Minimum));
    assert_eq!(
        e.schema_pointer(),
        Some("/properties/a/items/properties/b/minimum")
    );
    assert_eq!(e.offset(), 34);
    assert_eq!(
        e.to_string(),
        "number below the minimum at line 1 column 35, path $.a[3].b, keyword minimum"
    );
    let e = codec.validate(br#"{"a": []}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "missing required field \"c\" at line 1 column 9, path $, keyword required"
    );
    let e = codec.validate(br#"{"c": "x", "a": [{},]}"#).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Syntax(_)), "{e}");
    let all = codec.validate_all(br#"{"a": [{"b": -1}, 2, {"b": 1.5}]}"#, 10);
    let paths: Vec<String> = all.iter().map(|e| e.path().to_string()).collect();
    assert_eq!(paths, ["$.a[0].b", "$.a[1]", "$.a[2].b", "$"]);
}

#[test]
fn deep_input_is_an_error_not_a_crash() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    for schema in [
        r##"{}"##,
        r##"{"type": "array", "items": {"$ref": "#"}}"##,
        r##"{"anyOf": [{"type": "array", "items": {"$ref": "#"}}, {"type": "string"}]}"##,
        r##"{"not": {"type": "array", "items": {"$ref": "#"}, "maxItems": 0}}"##,
    ] {
        let codec = Codec::new(&Schema::from_json_str(schema).unwrap());
        let e = codec.validate(deep.as_bytes()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DepthLimitExceeded, "{schema}");
        let ok = "[".repeat(100) + &"]".repeat(100);
        assert_eq!(
            codec.validate(ok.as_bytes()).is_ok(),
            oracle(&Schema::from_json_str(schema).unwrap(), ok.as_bytes()),
            "{schema}"
        );
    }
    let codec = Codec::with_options(
        &Schema::from_json_str("{}").unwrap(),
        Options::new().max_depth(3),
    );
    assert!(codec.validate(b"[[[1]]]").is_ok());
    assert!(codec.validate(b"[[[[1]]]]").is_err());
}

#[test]
fn duplicate_keys_policy() {
    let schema = Schema::from_json_str(r#"{"properties": {"a": {"type": "integer"}}}"#).unwrap();
    let lenient = Codec::new(&schema);
    assert!(lenient.validate(br#"{"a": 1, "a": 2}"#).is_ok());
    let strict = Codec::with_options(&schema, Options::new().duplicate_keys(DuplicateKeys::Deny));
    let e = strict.validate(br#"{"a": 1, "a": 2}"#).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DuplicateKey);
    assert_eq!(e.offset(), 9);
}

#[test]
fn discriminated_unions_take_the_fast_path_and_agree() {
    let schema = Schema::from_json_str(
        r#"{"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
            {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
        ]}"#,
    )
    .unwrap();
    let codec = Codec::new(&schema);
    assert!(
        codec.program().to_string().contains("discriminate"),
        "{}",
        codec.program()
    );
    for doc in [
        r#"{"kind": "circle", "r": 1}"#,
        r#"{"r": 1, "kind": "circle"}"#,
        r#"{"kind": "square", "side": 2}"#,
        r#"{"kind": "square", "r": 2}"#,
        r#"{"kind": "triangle"}"#,
        r#"{"kind": 3}"#,
        r#"{"r": 1}"#,
        r#"{"kind": "circle", "r": 1"#,
        r#"[]"#,
    ] {
        agree(&schema, &codec, doc.as_bytes()).unwrap();
    }
}

/// Each of `items` alone in an array, then the valid ones together, agree with the
/// reference under `schema` (an array of a union); returns the valid ones.
fn items_agree<'i>(schema: &Schema, codec: &Codec, items: &[&'i str]) -> Vec<&'i str> {
    let valid: Vec<&str> = (items.iter().copied())
        .filter(|item| oracle(schema, format!("[{item}]").as_bytes()))
        .collect();
    for item in items {
        agree(schema, codec, format!("[{item}]").as_bytes()).unwrap();
    }
    agree(schema, codec, format!("[{}]", valid.join(",")).as_bytes()).unwrap();
    valid
}

/// Regression: the reference validator compared every pair of items for `uniqueItems`, and
/// the engine asks it where an error lies, so an array of 20 000 distinct items and one
/// repeat took 2 s to fail on either backend (100 000: about a minute). It now finds the
/// same pair through a hash: the first item equal to an earlier one, and that one.
#[test]
fn a_failing_unique_array_is_located_in_linear_time() {
    let schema = Schema::from_json_str(r#"{"uniqueItems": true}"#).unwrap();
    let items: Vec<String> = (0..50_000).map(|i| format!(r#"{{"n": {i}}}"#)).collect();
    let doc = format!("[{}, {{\"n\": 7.0}}, 3]", items.join(","));
    let value: Value = serde_json::from_str(&doc).unwrap();
    let e = schema.validate_value(&value).unwrap_err();
    assert_eq!(
        e.to_string(),
        "$: items 7 and 50000 are equal (schema #/uniqueItems)"
    );
    for backend in [Backend::Interpreter, Backend::Native] {
        let codec = Codec::with_options(&schema, Options::new().backend(backend));
        agree(&schema, &codec, doc.as_bytes()).unwrap();
        let e = codec.validate(doc.as_bytes()).unwrap_err();
        assert_eq!(
            e.kind(),
            ErrorKind::Schema(Keyword::UniqueItems),
            "{backend:?}"
        );
    }
    let pairs = [
        ("[1, 2, 1.0, 2]", (0, 2)),
        ("[[1], {}, [1.0], {}]", (0, 2)),
        (r#"["a", "b", "b", "a"]"#, (1, 2)),
    ];
    for (doc, (first, second)) in pairs {
        let e = schema
            .validate_value(&serde_json::from_str(doc).unwrap())
            .unwrap_err();
        let want = format!("$: items {first} and {second} are equal (schema #/uniqueItems)");
        assert_eq!(e.to_string(), want, "{doc}");
    }
}

/// Enumerations of numbers, objects and arrays, and `propertyNames` enumerations, looked
/// up in a set of their values (they were compared with each value in turn: 20 000 numbers
/// against 10 000 values took 0.9 s, now 6 ms): every spelling of an equal value is in,
/// near misses are out, on the interpreter and on native code as in the reference.
#[test]
fn value_enumerations_match_the_reference() {
    let values: Vec<String> = (0..500)
        .map(|i| format!("{}", i * 3))
        .chain(
            [
                "-0.0",
                "2.5",
                "1e300",
                "18446744073709551615",
                "-9223372036854775808",
            ]
            .map(Into::into),
        )
        .chain(
            [
                r#"{"a": 1, "b": [1, {"c": null}]}"#,
                "[1, 2.0]",
                "null",
                "true",
                r#""s""#,
            ]
            .map(Into::into),
        )
        .collect();
    let schema_text = format!(
        r#"{{"type": "array", "items": {{"anyOf": [{{"enum": [{}]}}, {{"type": "object", "propertyNames": {{"enum": ["k1", "ké", "x"]}}}}]}}}}"#,
        values.join(", ")
    );
    let schema = Schema::from_json_str(&schema_text).unwrap();
    let items = [
        "0",
        "3",
        "3.0",
        "30e-1",
        "1497",
        "1497.0",
        "-0",
        "0.0",
        "2.5",
        "25e-1",
        "1e300",
        "18446744073709551615",
        "-9223372036854775808",
        r#"{"b": [1.0, {"c": null}], "a": 1.0}"#,
        "[1.0, 2]",
        "null",
        "true",
        r#""s""#,
        r#"{"k1": 1}"#,
        r#"{"ké": 1, "x": 2}"#,
        "{}",
        // Near misses.
        "1",
        "1498",
        "2.5000001",
        "1e299",
        "18446744073709551614",
        r#"{"a": 1, "b": [1]}"#,
        "[2, 1]",
        "false",
        r#""t""#,
        r#"{"k2": 1}"#,
        r#"{"k1": 1, "y": 2}"#,
        "[1, 2.0, 3]",
    ];
    for backend in [Backend::Interpreter, Backend::Native] {
        let codec = Codec::with_options(&schema, Options::new().backend(backend));
        let valid = items_agree(&schema, &codec, &items);
        assert_eq!(valid, items[..21], "{backend:?}");
    }
}

/// A string enumeration too large to compare in place, and numbers under `multipleOf`
/// divisors of every spelling, against the reference validator.
#[test]
fn large_enumerations_and_multiples_match_the_reference() {
    let schema = Schema::from_json_str(LARGE_ENUM_SCHEMA).unwrap();
    let codec = Codec::new(&schema);
    let valid = items_agree(&schema, &codec, &LARGE_ENUM_ITEMS);
    assert_eq!(valid, LARGE_ENUM_ITEMS[..12]);
    let e = codec.validate(br#"["customer.create"]"#).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema(Keyword::Enum));

    let schema = Schema::from_json_str(MULTIPLE_OF_SCHEMA).unwrap();
    let codec = Codec::new(&schema);
    let mut refused_cents = Vec::new();
    for ((divisor, number), document) in multiple_of_documents() {
        agree(&schema, &codec, document.as_bytes()).unwrap();
        if divisor == 0 && codec.validate(document.as_bytes()).is_err() {
            refused_cents.push(number);
        }
    }
    // Every number with at most two decimals in its shortest spelling is a multiple of
    // 0.01 (`1e20`, `1e308` and the integers too); these are not.
    assert_eq!(
        refused_cents,
        ["12.345", "5e-324", "0.30000000000000004", "1e-16"]
    );
    let e = codec.validate(b"[[12.345]]").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema(Keyword::MultipleOf));
}

/// Items (item, schema pointer of its failure) in an array under `schema` against the
/// reference validator: the first `valid` pass on both, each other fails on both with its
/// keyword at its pointer. Returns the codec.
fn pointed_items_agree(schema: &str, items: &[(&str, &str)], valid: usize) -> Codec {
    let schema = Schema::from_json_str(schema).unwrap();
    let codec = Codec::new(&schema);
    let texts: Vec<&str> = items.iter().map(|(item, _)| *item).collect();
    assert_eq!(items_agree(&schema, &codec, &texts), texts[..valid]);
    for (item, pointer) in &items[valid..] {
        let document = format!("[{item}]");
        let e = codec.validate(document.as_bytes()).unwrap_err();
        assert_eq!(e.schema_pointer(), Some(*pointer), "{item}: {e}");
        let value: Value = serde_json::from_str(&document).unwrap();
        let reference = schema.validate_value(&value).unwrap_err();
        assert_eq!(reference.schema_pointer(), *pointer, "{item}: {reference}");
    }
    codec
}

/// `patternProperties` against the reference validator, with each failure's keyword
/// pointer and an exact message.
#[test]
fn pattern_properties_agree_with_the_reference() {
    let codec = pointed_items_agree(PATTERN_SCHEMA, &PATTERN_ITEMS, 8);
    assert_eq!(
        message(&codec, br#"[{"x-b": -2}]"#),
        "number below the minimum at line 1 column 10, path $[0][\"x-b\"], keyword minimum"
    );
}

/// `unevaluatedProperties` against the reference validator, with each failure's keyword
/// pointer and an exact message.
#[test]
fn unevaluated_properties_agree_with_the_reference() {
    let codec = pointed_items_agree(UNEVALUATED_SCHEMA, &UNEVALUATED_ITEMS, 5);
    assert_eq!(
        message(&codec, br#"[{"size": 1, "meta": {"extra": 2}}]"#),
        "unknown field at line 1 column 32, path $[0].meta.extra, keyword unevaluatedProperties"
    );
    let schema = Schema::from_json_str(UNEVALUATED_SCHEMA).unwrap();
    let value = serde_json::json!([{"size": 1, "meta": {"extra": 2}}]);
    let reference = schema.validate_value(&value).unwrap_err();
    assert_eq!(
        reference.to_string(),
        "$[0].meta: unevaluated member \"extra\" (schema #/items/properties/meta/unevaluatedProperties)"
    );
}

/// `dependentSchemas` against the reference validator, with each failure's keyword pointer
/// (below `/dependentSchemas/<name>`, never `/then`) and an exact message.
#[test]
fn dependent_schemas_agree_with_the_reference() {
    let codec = pointed_items_agree(DEPENDENT_SCHEMA, &DEPENDENT_ITEMS, 6);
    assert_eq!(
        message(&codec, br#"[{"card": "4111"}]"#),
        "missing required field \"billing\" at line 1 column 17, path $[0], keyword required"
    );
    let schema = Schema::from_json_str(DEPENDENT_SCHEMA).unwrap();
    let value = serde_json::json!([{"discount": 5, "price": 3}]);
    let reference = schema.validate_value(&value).unwrap_err();
    assert_eq!(
        reference.to_string(),
        "$[0].price: must be >= 10 (schema #/items/dependentSchemas/discount/properties/price/minimum)"
    );
}

/// `unevaluatedProperties` beside `oneOf`, `if` and `dependentSchemas` (a chain of cases)
/// against the reference validator, with each failure's keyword pointer and an exact
/// message.
#[test]
fn unevaluated_beside_branches_agree_with_the_reference() {
    let codec = pointed_items_agree(UNEVALUATED_BRANCH_SCHEMA, &UNEVALUATED_BRANCH_ITEMS, 5);
    assert_eq!(
        message(&codec, br#"[{"id": 1, "kind": "cat", "good": true}]"#),
        "unknown field at line 1 column 35, path $[0].good, keyword unevaluatedProperties"
    );
}

/// `unevaluatedItems` against the reference validator, with each failure's keyword pointer
/// and an exact message.
#[test]
fn unevaluated_items_agree_with_the_reference() {
    let codec = pointed_items_agree(UNEVALUATED_ITEMS_SCHEMA, &UNEVALUATED_ITEMS_ITEMS, 9);
    assert_eq!(
        message(&codec, br#"[[1, 2, "s", 4]]"#),
        "expected boolean, found number at line 1 column 14, path $[0][3], keyword type"
    );
}

/// `if` / `then` / `else` against the reference validator: a failure is the failure of the
/// outcome the condition picks, with that outcome's keyword and pointer, never `anyOf`.
#[test]
fn conditionals_report_the_outcome_the_condition_picks() {
    let codec = pointed_items_agree(CONDITIONAL_SCHEMA, &CONDITIONAL_ITEMS, 9);
    assert_eq!(
        message(&codec, br#"[{"method": "transfer", "id": 12}]"#),
        "missing required field \"iban\" at line 1 column 33, path $[0], keyword required"
    );
}

/// The message of `codec`'s error on `document`, which must fail.
fn message(codec: &Codec, document: &[u8]) -> String {
    codec.validate(document).unwrap_err().to_string()
}

/// `uniqueItems`, `minProperties` / `maxProperties` and `dependentRequired` against the
/// reference validator, with each failure's keyword pointer and an exact message.
#[test]
fn whole_value_rules_agree_with_the_reference() {
    let codec = pointed_items_agree(WHOLE_VALUE_SCHEMA, &WHOLE_VALUE_ITEMS, 9);
    let schema = Schema::from_json_str(WHOLE_VALUE_SCHEMA).unwrap();
    let e = codec.validate(br#"[{"card": "4111"}]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "object lacks a member that dependentRequired asks for at line 1 column 2, path $[0], \
         keyword dependentRequired"
    );
    let e = codec
        .validate(br#"[{"tags": ["x", "y", "x"]}]"#)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "array has equal items, which uniqueItems forbids at line 1 column 11, path $[0].tags, \
         keyword uniqueItems"
    );
    let e = codec
        .validate(br#"[{"labels": {"ok": "1", "NO": "2"}}]"#)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "object has a member name that propertyNames rejects at line 1 column 13, path \
         $[0].labels, keyword propertyNames"
    );
    assert_eq!(
        e.schema_pointer(),
        Some("/items/properties/labels/propertyNames/pattern")
    );
    let e = codec.validate(br#"[{"scores": [7]}]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "array has no item that matches contains at line 1 column 13, path $[0].scores, \
         keyword contains"
    );
    let e = codec.validate(br#"[{"flags": [true]}]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "array has fewer items matching contains than minContains at line 1 column 12, path \
         $[0].flags, keyword minContains"
    );
    let value: Value = serde_json::from_str(r#"[{"flags": [true, true, true, true]}]"#).unwrap();
    assert_eq!(
        schema.validate_value(&value).unwrap_err().to_string(),
        "$[0].flags: 4 items match contains, at most 3 may (schema \
         #/items/properties/flags/maxContains)"
    );
    let value: Value = serde_json::from_str(r#"[{"tags": ["x", "y", "x"]}]"#).unwrap();
    assert_eq!(
        schema.validate_value(&value).unwrap_err().to_string(),
        "$[0].tags: items 0 and 2 are equal (schema #/items/properties/tags/uniqueItems)"
    );
}

/// A discriminator with a default branch: a tag no other branch names goes straight to it
/// (the program's `unmatched` label), every item alone and all of them together.
#[test]
fn discriminators_with_a_default_branch_agree() {
    let schema = Schema::from_json_str(DEFAULT_BRANCH_SCHEMA).unwrap();
    let codec = Codec::new(&schema);
    let listing = codec.program().to_string();
    assert!(
        listing.contains(
            r#"discriminate "kind" ["circle", "square", "box"] -> @1 @7 @7 unmatched:@4"#
        ),
        "{listing}"
    );
    let valid = items_agree(&schema, &codec, &DEFAULT_BRANCH_ITEMS);
    assert_eq!(valid.len(), 8, "{valid:?}");
    // A tag that is no string is the default branch's error.
    let e = codec.validate(br#"[{"kind": 5}]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "expected string, found number at line 1 column 11, path $[0].kind, keyword type"
    );
}

/// Externally tagged variants: the first member's name selects the branch; any other
/// name tries the branches, as without the prelude.
#[test]
fn first_member_names_select_externally_tagged_branches() {
    let schema = Schema::from_json_str(BY_NAME_SCHEMA).unwrap();
    let codec = Codec::new(&schema);
    let listing = codec.program().to_string();
    assert!(
        listing.contains(
            r#"discriminate by-name ["circle", "sq", "é"] -> @4 @7 @10 unmatched:@13 absent:@13"#
        ),
        "{listing}"
    );
    let valid = items_agree(&schema, &codec, &BY_NAME_ITEMS);
    assert_eq!(valid, BY_NAME_ITEMS[..7]);
    // A named branch reports its own error; another name, the union's.
    let e = codec.validate(br#"[{"sq": -1}]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "number below the minimum at line 1 column 9, path $[0].sq, keyword minimum"
    );
    let e = codec.validate(br#"[{"zz": 1}]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "value matches no branch of anyOf at line 1 column 2, path $[0], keyword anyOf"
    );
}

/// JSONTestSuite through a schema that accepts every JSON value but reaches every value op
/// (a per-kind union, recursive arrays and maps), and through `{}` (the skip kernel): every
/// `y_` text is accepted, every `n_` text rejected, and every text gets `serde_json`'s
/// verdict (the `i_` ones included: no crash, and the same answer).
#[test]
fn json_test_suite() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/jsontestsuite");
    let every_kind = Schema::from_json_str(
        r##"{"anyOf": [{"type": "null"}, {"type": "boolean"}, {"type": "number"}, {"type": "string"},
            {"type": "array", "items": {"$ref": "#"}}, {"type": "object", "additionalProperties": {"$ref": "#"}}]}"##,
    )
    .unwrap();
    let codecs = [
        Codec::new(&every_kind),
        Codec::new(&Schema::from_json_str("{}").unwrap()),
    ];
    let mut failures = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("suite directory") {
        let path = entry.expect("entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".json") {
            continue;
        }
        files += 1;
        let bytes = std::fs::read(&path).expect("suite file");
        let serde = serde_json::from_slice::<Value>(&bytes).is_ok();
        for (i, codec) in codecs.iter().enumerate() {
            let got = codec.validate(&bytes);
            let wrong = match &name[..2] {
                "y_" => got.is_err(),
                "n_" => got.is_ok(),
                _ => false,
            } || got.is_ok() != serde;
            if wrong {
                failures.push(format!(
                    "{name} (codec {i}): serde_json ok={serde}, got {got:?}"
                ));
            }
        }
    }
    assert!(files > 200, "{files} suite files");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn program_listing_explains_the_lowering() {
    let schema = Schema::from_json_str(
        r#"{"type": "object", "properties": {"id": {"type": "integer", "minimum": 1}, "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}}}, "required": ["id"], "additionalProperties": false}"#,
    )
    .unwrap();
    let listing = Codec::new(&schema).program().to_string();
    for expected in [
        "entry f",
        "obj-begin t0",
        r#"key t0 ["id", "tags"]"#,
        "integer >=1",
        "string len 0..=3",
        "fail UnknownField",
        r#"obj-end t0 required ["id"]"#,
        "arr-next @",
        "eof",
    ] {
        assert!(listing.contains(expected), "{expected:?} in\n{listing}");
    }
}

#[test]
fn codecs_are_shareable_between_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Codec>();
    send_sync::<jitson::Error>();
}

//! Schemas over several documents ([`Loader`]) and `$dynamicRef` resolved by dynamic scope:
//! what loads, what each document's references name, exact load errors, and the verdicts
//! of the reference validator, the interpreter and native code.

use jitson::engine::{Backend, BackendStatus, Options};
use jitson::schema::{Loader, SchemaErrorKind};
use jitson::{Codec, Schema};
use serde_json::{Value, json};

/// The error message of each backend's validate (`None`: valid); the two must agree, and
/// agree with the reference validator's verdict.
fn verdict(schema: &Schema, value: &Value) -> Option<String> {
    let bytes = serde_json::to_vec(value).unwrap();
    let interp = Codec::new(schema);
    let native = Codec::with_options(schema, Options::new().backend(Backend::Native));
    assert_eq!(native.backend(), &BackendStatus::Native);
    let (a, b) = (interp.validate(&bytes), native.validate(&bytes));
    assert_eq!(a, b, "interpreter and native code on {value}");
    assert_eq!(a.is_ok(), schema.validate_value(value).is_ok(), "{value}");
    a.err().map(|e| e.to_string())
}

/// The verdicts (valid or not) of `values` under `schema`.
fn valid(schema: &Schema, values: &[Value]) -> Vec<bool> {
    values
        .iter()
        .map(|v| verdict(schema, v).is_none())
        .collect()
}

/// A loader with `documents` (URI, text).
fn loader(documents: &[(&str, &str)]) -> Loader {
    let mut loader = Loader::new();
    for (uri, text) in documents {
        loader
            .document_json(uri, text.as_bytes())
            .expect("document");
    }
    loader
}

#[test]
fn references_between_documents() {
    // A root without `$id` names documents by relative URIs; documents name each other
    // relative to their own URIs (`types/id.json` → `types/common.json`).
    let loader = loader(&[
        (
            "types/id.json",
            r#"{"$ref": "common.json#/$defs/positive"}"#,
        ),
        (
            "types/common.json",
            r#"{"$defs": {"positive": {"type": "integer", "minimum": 1}}}"#,
        ),
    ]);
    let schema = loader
        .load_json(br#"{"properties": {"id": {"$ref": "types/id.json"}}}"#)
        .unwrap();
    assert_eq!(
        valid(&schema, &[json!({"id": 3}), json!({"id": 0}), json!({})]),
        [true, false, true]
    );
    assert_eq!(
        verdict(&schema, &json!({"id": "x"})).unwrap(),
        "expected integer, found string at line 1 column 7, path $.id, keyword type"
    );
}

#[test]
fn a_document_whose_id_differs_from_its_uri() {
    // Its references resolve against its `$id`; other documents may name it either way.
    let loader = loader(&[(
        "https://example.com/given.json",
        r##"{"$id": "https://example.com/real/id.json",
            "$defs": {"name": {"type": "string", "maxLength": 3}},
            "$ref": "#/$defs/name"}"##,
    )]);
    for reference in [
        "https://example.com/given.json",
        "https://example.com/real/id.json",
        "https://example.com/real/id.json#/$defs/name",
    ] {
        let schema = loader
            .load_value(&json!({"items": {"$ref": reference}}))
            .unwrap();
        assert_eq!(
            valid(&schema, &[json!(["ab"]), json!(["abcd"]), json!([1])]),
            [true, false, false],
            "{reference}"
        );
    }
}

#[test]
fn only_named_documents_are_read() {
    // An unused document may hold what the engine does not implement; a used one may not,
    // and its errors are placed at its URI.
    let mut loader = loader(&[
        ("unused.json", r##"{"$recursiveRef": "#"}"##),
        (
            "used.json",
            r##"{"properties": {"a": {"$recursiveRef": "#"}}}"##,
        ),
    ]);
    assert!(loader.load_json(br#"{"type": "object"}"#).is_ok());
    let err = loader.load_json(br#"{"$ref": "used.json"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r##"unsupported keyword "$recursiveRef" at used.json#/properties/a/$recursiveRef"##
    );
    assert_eq!(err.pointer(), "used.json#/properties/a/$recursiveRef");
    // Without the document, or after it is replaced, the reference does not resolve.
    let err = Schema::from_json_str(r#"{"$ref": "used.json"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"unresolved reference "used.json" at /$ref"#
    );
    loader.document_json("used.json", b"{}").unwrap();
    let err = loader
        .load_json(br##"{"$ref": "used.json#/properties/a"}"##)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r##"unresolved reference "used.json#/properties/a" at /$ref"##
    );
}

#[test]
fn document_errors() {
    let mut loader = Loader::new();
    let message = |r: Result<&mut Loader, jitson::SchemaError>| r.unwrap_err().to_string();
    assert_eq!(
        message(loader.document_json("", b"{}")),
        r#"a document's URI must be non-empty and without a fragment, not """#
    );
    assert_eq!(
        message(loader.document_json("a.json#/x", b"{}")),
        r##"a document's URI must be non-empty and without a fragment, not "a.json#/x""##
    );
    assert_eq!(
        message(loader.document_value("a.json#b", &json!({}))),
        r##"a document's URI must be non-empty and without a fragment, not "a.json#b""##
    );
    assert_eq!(
        message(loader.document_json("a.json", b"{\"type\": ")),
        "invalid JSON: EOF while parsing a value at line 1 column 9 in a.json#"
    );
    assert_eq!(
        message(loader.document_json("a.json", br#"{"$defs": {"x": {}, "x": {}}}"#)),
        r#"duplicate key "x" at a.json#/$defs"#
    );
    // An empty fragment is no fragment; dot segments are removed.
    loader
        .document_json("dir/../b.json#", br#"{"type": "null"}"#)
        .unwrap();
    let schema = loader.load_json(br#"{"$ref": "b.json"}"#).unwrap();
    assert_eq!(valid(&schema, &[json!(null), json!(1)]), [true, false]);
}

#[test]
fn content_schema_is_an_annotation() {
    let schema = Schema::from_value(&json!({
        "contentMediaType": "application/json",
        "contentSchema": {"type": "object", "required": ["a"]},
        "type": "string"
    }))
    .unwrap();
    assert_eq!(
        valid(&schema, &[json!("{}"), json!("x"), json!(1)]),
        [true, true, false]
    );
    // It is a schema: it must be one, and `$ref`s may name it.
    let err = Schema::from_value(&json!({"contentSchema": 1})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected a schema (an object or a boolean) at /contentSchema"
    );
    let schema = Schema::from_value(&json!({
        "contentSchema": {"type": "integer"},
        "items": {"$ref": "#/contentSchema"}
    }))
    .unwrap();
    assert_eq!(valid(&schema, &[json!([1]), json!(["1"])]), [true, false]);
}

/// The strict tree of the specification's example: a generic tree whose nodes a
/// `$dynamicRef` names, extended by a root that declares the same anchor.
const TREE: &str = r##"{
    "$id": "https://example.com/tree",
    "$dynamicAnchor": "node",
    "type": "object",
    "properties": {
        "data": true,
        "children": {"type": "array", "items": {"$dynamicRef": "#node"}}
    }
}"##;

#[test]
fn an_extended_recursive_schema() {
    let loader = loader(&[("https://example.com/tree", TREE)]);
    let strict = loader
        .load_value(&json!({
            "$id": "https://example.com/strict-tree",
            "$dynamicAnchor": "node",
            "$ref": "tree",
            "unevaluatedProperties": false
        }))
        .unwrap();
    let loose = loader
        .load_value(&json!({"$ref": "https://example.com/tree"}))
        .unwrap();
    let misspelled = json!({"children": [{"daat": 1}]});
    let good = json!({"children": [{"data": 1, "children": [{"data": [2]}]}]});
    assert_eq!(
        valid(&strict, &[good.clone(), misspelled.clone()]),
        [true, false]
    );
    assert_eq!(valid(&loose, &[good, misspelled.clone()]), [true, true]);
    assert_eq!(
        verdict(&strict, &misspelled).unwrap(),
        "unknown field at line 1 column 22, path $.children[0].daat, keyword unevaluatedProperties"
    );
}

#[test]
fn a_root_without_id_overrides_a_template() {
    // python-jsonschema issue #1497: a root without `$id` declares the anchor a template's
    // `$dynamicRef` names; the root is the outermost resource, so its declaration wins.
    let loader = loader(&[(
        "https://example.com/PaginatedTemplate",
        r##"{
            "$id": "https://example.com/PaginatedTemplate",
            "$defs": {"itemType": {"$dynamicAnchor": "itemType", "not": {}}},
            "type": "object",
            "required": ["items"],
            "properties": {"items": {"type": "array", "items": {"$dynamicRef": "#itemType"}}}
        }"##,
    )]);
    let schema = loader
        .load_value(&json!({
            "$defs": {"itemType": {"$dynamicAnchor": "itemType", "type": "string"}},
            "$ref": "https://example.com/PaginatedTemplate"
        }))
        .unwrap();
    assert_eq!(
        valid(
            &schema,
            &[json!({"items": ["hello"]}), json!({"items": [1]})]
        ),
        [true, false]
    );
    // The template alone: every item fails its `not: {}`.
    let alone = loader
        .load_value(&json!({"$ref": "https://example.com/PaginatedTemplate"}))
        .unwrap();
    assert_eq!(
        valid(&alone, &[json!({"items": []}), json!({"items": ["hello"]})]),
        [true, false]
    );
}

#[test]
fn static_ref_to_a_dynamic_anchor() {
    // `$ref` names a schema statically, whatever anchor declares it: `#b` in r0 is r0's
    // `b`, an empty schema, though r1 (outermost in scope) declares a dynamic `b` too.
    // python-jsonschema 4.26 and the `jsonschema` crate 0.61 resolve such a `$ref`
    // dynamically (to r1's `b`, integers only) and reject `{"c": "x"}`.
    let schema = Schema::from_value(&json!({
        "$id": "https://example.com/root",
        "$ref": "r1",
        "$defs": {
            "r1": {"$id": "r1", "$ref": "r0", "$defs": {"b": {"$dynamicAnchor": "b", "type": "integer"}}},
            "r0": {"$id": "r0", "properties": {"c": {"$ref": "#b"}}, "$defs": {"b": {"$dynamicAnchor": "b"}}}
        }
    }))
    .unwrap();
    assert_eq!(
        valid(&schema, &[json!({"c": "x"}), json!({"c": 1})]),
        [true, true]
    );
}

#[test]
fn the_scope_goes_on_after_a_dynamic_jump() {
    // root → r1 (declares `a`: objects; and `b`) → r1's `$dynamicRef: "#b"`, whose
    // outermost declaration is the root's `b` → `$ref: r2` → r2's `$dynamicRef: "#a"`.
    // On the way: root, r1, root, r2; the outermost declaration of `a` is r1's, so only
    // objects pass. The `jsonschema` crate 0.61 resolves `#a` to r2's own (anything).
    let schema = Schema::from_value(&json!({
        "$id": "https://example.com/root",
        "$ref": "r1",
        "$defs": {
            "def_b": {"$dynamicAnchor": "b", "$ref": "r2"},
            "r1": {"$id": "r1", "$dynamicRef": "#b", "$defs": {
                "def_a": {"$dynamicAnchor": "a", "type": "object"},
                "def_b": {"$dynamicAnchor": "b"}
            }},
            "r2": {"$id": "r2", "$dynamicRef": "#a", "$defs": {"def_a": {"$dynamicAnchor": "a"}}}
        }
    }))
    .unwrap();
    assert_eq!(valid(&schema, &[json!({}), json!(2.5)]), [true, false]);
}

#[test]
fn a_dynamic_target_resolves_against_its_own_resource() {
    // r0's `$dynamicRef: "#a"` lands on the root's `a`, whose `$dynamicRef: "#b"` resolves
    // against the root: the root's plain `b` (objects), not r0's (integers).
    // python-jsonschema 4.26 resolves it against r0, the resource it jumped from.
    let schema = Schema::from_value(&json!({
        "$id": "https://example.com/root",
        "$ref": "r0",
        "$defs": {
            "def_a": {"$dynamicAnchor": "a", "$dynamicRef": "#b"},
            "def_b": {"$anchor": "b", "type": "object"},
            "r0": {"$id": "r0", "$dynamicRef": "#a", "$defs": {
                "def_a": {"$dynamicAnchor": "a"},
                "def_b": {"$anchor": "b", "type": "integer"}
            }}
        }
    }))
    .unwrap();
    assert_eq!(valid(&schema, &[json!({}), json!(1)]), [true, false]);
}

#[test]
fn dynamic_reference_errors() {
    let error = |schema: Value| Schema::from_value(&schema).unwrap_err().to_string();
    assert_eq!(
        error(json!({"$dynamicRef": 1})),
        r#""$dynamicRef" must be a URI reference at /$dynamicRef"#
    );
    assert_eq!(
        error(json!({"items": {"$dynamicRef": "#nowhere"}})),
        r##"unresolved reference "#nowhere" at /items/$dynamicRef"##
    );
    assert_eq!(
        error(json!({"$dynamicAnchor": "1a"})),
        r#""$dynamicAnchor" must be a plain-name fragment at /$dynamicAnchor"#
    );
    assert_eq!(
        error(json!({"$anchor": "a", "$dynamicAnchor": "a"})),
        r##""#a" is defined twice at /$dynamicAnchor"##
    );
}

#[test]
fn scopes_beyond_the_limit_are_refused() {
    // Ten levels, each entering one of two resources that declare the level's anchor, which
    // a `$dynamicRef` of the level resolves: 2^10 scopes reach the last level, far beyond
    // 16 copies of the schema.
    let mut defs = serde_json::Map::new();
    for level in 0..10 {
        for side in ["x", "y"] {
            let mut branches = vec![json!({"$dynamicRef": format!("x{level}#n{level}")})];
            if level < 9 {
                branches.push(json!({"$ref": format!("x{}", level + 1)}));
                branches.push(json!({"$ref": format!("y{}", level + 1)}));
            }
            let mut resource = json!({
                "$id": format!("{side}{level}"),
                "$dynamicAnchor": format!("n{level}"),
                "items": {"anyOf": branches}
            });
            if side == "y" {
                resource["type"] = json!("array");
            }
            defs.insert(format!("{side}{level}"), resource);
        }
    }
    let root = json!({
        "$id": "https://example.com/root",
        "anyOf": [{"$ref": "x0"}, {"$ref": "y0"}],
        "$defs": defs
    });
    let err = Schema::from_value(&root).unwrap_err();
    assert!(
        matches!(err.kind(), SchemaErrorKind::DynamicScopes),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "resolving $dynamicRef by dynamic scope would copy the schema more than 16 times at /$defs/x0/items/anyOf/0/$dynamicRef"
    );
    // Five levels load: 2^5 scopes at most, each level's copies merged where they agree.
    for level in 5..10 {
        for side in ["x", "y"] {
            defs.remove(&format!("{side}{level}"));
        }
    }
    let x4 = defs.get_mut("x4").unwrap();
    x4["items"] = json!({"$dynamicRef": "x4#n4"});
    defs.get_mut("y4").unwrap()["items"] = json!({"$dynamicRef": "x4#n4"});
    let five = json!({
        "$id": "https://example.com/root",
        "anyOf": [{"$ref": "x0"}, {"$ref": "y0"}],
        "$defs": defs
    });
    let schema = Schema::from_value(&five).unwrap();
    assert_eq!(
        valid(&schema, &[json!([]), json!([[[[[[]]]]]])]),
        [true, true]
    );
}

#[test]
fn a_uri_given_wins_over_an_id() {
    // a.json says it is b.json; b.json is given too: `b.json` names b.json, whichever came
    // first, and a.json is still named by its own URI.
    let a = ("a.json", r#"{"$id": "b.json", "type": "string"}"#);
    let b = ("b.json", r#"{"type": "integer"}"#);
    for documents in [[a, b], [b, a]] {
        let loader = loader(&documents);
        let by_b = loader.load_json(br#"{"$ref": "b.json"}"#).unwrap();
        assert_eq!(valid(&by_b, &[json!(1), json!("x")]), [true, false]);
        // a.json read under its URI declares the resource b.json again.
        let err = loader
            .load_json(br#"{"anyOf": [{"$ref": "b.json"}, {"$ref": "a.json"}]}"#)
            .unwrap_err();
        assert!(
            matches!(err.kind(), SchemaErrorKind::DuplicateId(_)),
            "{err}"
        );
    }
}

#[test]
fn draft7_dependencies() {
    // Array members are `dependentRequired`, schema members `dependentSchemas`, beside both
    // of those keywords; `unevaluatedProperties` sees what the schema members evaluate.
    let schema = Schema::from_value(&json!({
        "dependencies": {"a": ["b"], "c": {"properties": {"d": {"type": "integer"}}}},
        "dependentRequired": {"e": ["f"]},
        "unevaluatedProperties": false,
        "properties": {"a": true, "b": true, "c": true, "e": true, "f": true}
    }))
    .unwrap();
    let cases = [
        json!({}),
        json!({"a": 1, "b": 2}),
        json!({"a": 1}),
        json!({"c": 1, "d": 2}),
        json!({"c": 1, "d": "x"}),
        json!({"d": 2}),
        json!({"e": 1}),
        json!({"e": 1, "f": 1}),
        json!(["a"]),
    ];
    assert_eq!(
        valid(&schema, &cases),
        [true, true, false, true, false, false, false, true, true]
    );
    let error = |schema: Value| Schema::from_value(&schema).unwrap_err().to_string();
    assert_eq!(
        error(json!({"dependencies": []})),
        r#""dependencies" must be an object of schemas and arrays of unique strings at /dependencies"#
    );
    assert_eq!(
        error(json!({"dependencies": {"a": ["b", "b"]}})),
        r#""dependencies" must be an array of unique strings at /dependencies/a"#
    );
    assert_eq!(
        error(json!({"dependencies": {"a": 1}})),
        "expected a schema (an object or a boolean) at /dependencies/a"
    );
}

/// Regression: the loader compared each enumeration value, object key, `required` name and
/// property with every one before it, so wide schemas loaded in quadratic time (in release
/// builds: 10 240 enumeration strings 1.4 s, 10 240 properties 0.96 s, a `$defs` of 10 240
/// 0.29 s; four times wider, sixteen times longer). Sets make each a hash look-up; these
/// schemas, 20 000 wide, load in milliseconds, with the duplicates still found.
#[test]
fn wide_schemas_load_in_linear_time() {
    let n = 20_000;
    let list = |f: &dyn Fn(usize) -> String| (0..n).map(f).collect::<Vec<_>>().join(", ");
    let enumeration = format!(
        r#"{{"enum": [{}, 1.0, "s7", 1]}}"#,
        list(&|i| format!(r#""s{i}""#))
    );
    let schema = Schema::from_json_str(&enumeration).expect("loads");
    assert_eq!(verdict(&schema, &json!("s19999")), None);
    assert_eq!(verdict(&schema, &json!(1)), None);
    assert!(verdict(&schema, &json!("s20000")).is_some());

    let object = format!(
        r#"{{"properties": {{{}}}, "required": [{}]}}"#,
        list(&|i| format!(r#""p{i}": {{"type": "integer"}}"#)),
        list(&|i| format!(r#""p{}""#, n - 1 - i)),
    );
    let schema = Schema::from_json_str(&object).expect("loads");
    // The interpreter and the reference validator (native code for 20 000 members takes
    // seconds to compile).
    let codec = Codec::new(&schema);
    let mut value = serde_json::Map::new();
    (0..n).for_each(|i| drop(value.insert(format!("p{i}"), json!(i))));
    let bytes = serde_json::to_vec(&value).unwrap();
    assert_eq!(codec.validate(&bytes), Ok(()));
    value.remove("p0");
    assert!(
        schema
            .validate_value(&Value::Object(value.clone()))
            .is_err()
    );
    let bytes = serde_json::to_vec(&value).unwrap();
    assert_eq!(
        codec.validate(&bytes).map_err(|e| e.to_string()),
        Err(format!(
            r#"missing required field "p0" at line 1 column {}, path $, keyword required"#,
            bytes.len()
        ))
    );

    let chain = format!(
        r##"{{"$ref": "#/$defs/d0", "$defs": {{{}, "d{n}": {{"type": "integer"}}}}}}"##,
        list(&|i| format!(r##""d{i}": {{"$ref": "#/$defs/d{}"}}"##, i + 1)),
    );
    let schema = Schema::from_json_str(&chain).expect("loads");
    assert!(verdict(&schema, &json!("x")).is_some());

    let repeated = format!(
        r#"{{"$defs": {{{}, "d7": {{}}}}}}"#,
        list(&|i| format!(r#""d{i}": {{}}"#))
    );
    let e = Schema::from_json_str(&repeated).expect_err("a key twice");
    assert_eq!(e.kind(), &SchemaErrorKind::DuplicateKey("d7".into()));
    let required = format!(
        r#"{{"required": [{}, "r7"]}}"#,
        list(&|i| format!(r#""r{i}""#))
    );
    assert!(
        Schema::from_json_str(&required).is_err(),
        "a required name twice"
    );
}

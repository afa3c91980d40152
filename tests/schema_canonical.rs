//! The canonical form and `TypeKey`: equivalent spellings are one schema with one key, distinct
//! schemas have distinct keys, and keys are stable across runs and platforms.

use jitson::schema::{
    Bound, IntegerDesc, Kind, KindSet, Num, NumberDesc, TypeDesc, UnknownFields,
    ValidationErrorKind,
};
use jitson::{Schema, TypeKey};
use serde_json::json;

fn load(text: &str) -> Schema {
    Schema::from_json_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn key(text: &str) -> TypeKey {
    TypeKey::of(&load(text), 0)
}

/// Asserts that all spellings load to one schema with one key.
fn same(spellings: &[&str]) {
    let first = load(spellings[0]);
    for other in &spellings[1..] {
        assert_eq!(load(other), first, "{other} vs {}", spellings[0]);
        assert_eq!(
            key(other),
            TypeKey::of(&first, 0),
            "{other} vs {}",
            spellings[0]
        );
    }
}

/// Asserts that the two schemas differ, and so do their keys.
fn different(a: &str, b: &str) {
    assert_ne!(load(a), load(b), "{a} vs {b}");
    assert_ne!(key(a), key(b), "{a} vs {b}");
}

#[test]
fn equivalent_spellings_are_one_schema() {
    same(&[
        r#"{"type": ["string", "null"]}"#,
        r#"{"type": ["null", "string"]}"#,
    ]);
    same(&[
        r#"{"type": "integer", "minimum": 6}"#,
        r#"{"type": "integer", "minimum": 5.5}"#,
        r#"{"type": "integer", "minimum": 6.0, "exclusiveMinimum": 3}"#,
    ]);
    // Exclusive integer bounds stay exclusive (they report their own keyword), integral.
    same(&[
        r#"{"type": "integer", "exclusiveMinimum": 5}"#,
        r#"{"type": "integer", "exclusiveMinimum": 5.5}"#,
        r#"{"type": "integer", "exclusiveMinimum": 5.0, "minimum": 2}"#,
    ]);
    same(&[
        r#"{"type": "integer", "multipleOf": 1}"#,
        r#"{"type": "integer"}"#,
    ]);
    same(&[
        r#"{"type": ["integer", "number"]}"#,
        r#"{"type": "number"}"#,
    ]);
    same(&[
        r#"{"const": 1}"#,
        r#"{"enum": [1.0]}"#,
        r#"{"enum": [1, 1.0]}"#,
    ]);
    same(&[
        r#"{"type": "integer", "enum": [1, 2.5, "a"]}"#,
        r#"{"enum": [1]}"#,
    ]);
    same(&[
        r#"{"enum": ["a", "bb"], "minLength": 2}"#,
        r#"{"const": "bb"}"#,
    ]);
    same(&[
        r#"{"enum": []}"#,
        "false",
        r#"{"not": {}}"#,
        r#"{"type": []}"#,
    ]);
    same(&[
        "true",
        "{}",
        r#"{"not": false}"#,
        r#"{"title": "anything", "$comment": "x"}"#,
    ]);
    same(&[
        r#"{"type": ["null", "boolean", "number", "string", "array", "object"]}"#,
        "{}",
    ]);
    same(&[
        r#"{"type": "object"}"#,
        r#"{"type": "object", "additionalProperties": true}"#,
        r#"{"type": "object", "additionalProperties": {}}"#,
    ]);
    // A union of branches with disjoint kinds is a per-kind union.
    same(&[
        r#"{"type": ["string", "integer"]}"#,
        r#"{"anyOf": [{"type": "string"}, {"type": "integer"}]}"#,
        r#"{"oneOf": [{"type": "integer"}, {"type": "string"}]}"#,
    ]);
    same(&[
        r#"{"type": ["null", "string"], "maxLength": 3}"#,
        r#"{"oneOf": [{"type": "null"}, {"type": "string", "maxLength": 3}]}"#,
    ]);
    different(
        r#"{"oneOf": [{"type": "integer"}, {"type": "number"}]}"#,
        r#"{"anyOf": [{"type": "integer"}, {"type": "number"}]}"#,
    );
    // `$ref`s are resolved away; unused definitions are dropped.
    same(&[
        r#"{"properties": {"a": {"type": "string"}}}"#,
        r##"{"$defs": {"s": {"type": "string"}, "unused": {"type": "null"}},
             "properties": {"a": {"$ref": "#/$defs/s"}}}"##,
        r##"{"$ref": "#/$defs/root", "$defs": {"root": {"properties": {"a": {"type": "string"}}}}}"##,
    ]);
    // Nodes equal in structure are shared, however the document spells them.
    same(&[
        r#"{"prefixItems": [{"type": "string"}, {"type": "string"}]}"#,
        r##"{"prefixItems": [{"$ref": "#/$defs/s"}, {"type": "string"}], "$defs": {"s": {"type": "string"}}}"##,
    ]);
    // A `$ref` with siblings narrows the per-kind union to the referenced kind.
    same(&[
        r##"{"$ref": "#/$defs/a", "$defs": {"a": {"type": "array"}}, "maxItems": 2}"##,
        r#"{"allOf": [{"type": "array", "maxItems": 2}, {"type": "array"}]}"#,
    ]);
}

#[test]
fn distinct_schemas_have_distinct_keys() {
    different(
        r#"{"type": "number", "exclusiveMinimum": 5}"#,
        r#"{"type": "number", "minimum": 5}"#,
    );
    different(
        r#"{"type": "integer", "exclusiveMinimum": 5}"#,
        r#"{"type": "integer", "minimum": 6}"#,
    );
    // Enum order and field order are part of the schema: encode writes them in this order.
    different(r#"{"enum": ["a", "b"]}"#, r#"{"enum": ["b", "a"]}"#);
    different(
        r#"{"properties": {"a": {"type": "string"}, "b": {"type": "string"}}}"#,
        r#"{"properties": {"b": {"type": "string"}, "a": {"type": "string"}}}"#,
    );
    different(r#"{"type": "integer"}"#, r#"{"type": "number"}"#);
    different(
        r#"{"type": "string"}"#,
        r#"{"type": "string", "format": "date"}"#,
    );
    different(
        r#"{"properties": {"a": {"default": 1}}}"#,
        r#"{"properties": {"a": {"default": 2}}}"#,
    );
    different(r#"{"required": ["a"]}"#, r#"{"properties": {"a": {}}}"#);
    different("true", "false");
    // The whole-value rules: their own node tags, so plain arrays and objects keep theirs.
    different(
        r#"{"type": "array", "uniqueItems": true}"#,
        r#"{"type": "array"}"#,
    );
    different(
        r#"{"type": "object", "minProperties": 1}"#,
        r#"{"type": "object", "maxProperties": 1}"#,
    );
    different(
        r#"{"type": "object", "dependentRequired": {"a": ["b"]}}"#,
        r#"{"type": "object", "dependentRequired": {"b": ["a"]}}"#,
    );
    different(
        r#"{"type": "array", "contains": {"type": "string"}}"#,
        r#"{"type": "array", "contains": {"type": "string"}, "minContains": 2}"#,
    );
    different(
        r#"{"type": "object", "propertyNames": {"maxLength": 2}}"#,
        r#"{"type": "object", "propertyNames": {"maxLength": 3}}"#,
    );
    different(
        r#"{"type": "object", "additionalProperties": {"type": "string"}, "minProperties": 1}"#,
        r#"{"type": "object", "additionalProperties": {"type": "string"}}"#,
    );
    // `unevaluatedProperties` names its keyword in errors: not `additionalProperties`.
    different(
        r#"{"type": "object", "unevaluatedProperties": false}"#,
        r#"{"type": "object", "additionalProperties": false}"#,
    );
    // Patterns: their own tag; a pattern of any value still describes the members it
    // matches (transcode keeps them), so it stays.
    different(
        r#"{"type": "object", "patternProperties": {"^a": true}}"#,
        r#"{"type": "object"}"#,
    );
    different(
        r#"{"type": "object", "patternProperties": {"^a": {"type": "string"}}}"#,
        r#"{"type": "object", "patternProperties": {"^b": {"type": "string"}}}"#,
    );
    different(
        r#"{"type": "object", "additionalProperties": {"type": "string"}, "patternProperties": {"^a": true}}"#,
        r#"{"type": "object", "additionalProperties": {"type": "string"}}"#,
    );
    let s = load(r#"{"type": "integer"}"#);
    assert_ne!(
        TypeKey::of(&s, 0),
        TypeKey::of(&s, 1),
        "options are part of the key"
    );
}

#[test]
fn keys_are_stable() {
    // Pinned values: a change here changes every cached codec's key — bump the encoding
    // version on purpose, never by accident.
    let s = load(r#"{"type": "integer"}"#);
    assert_eq!(
        TypeKey::of(&s, 0).to_string(),
        "8200e9d9bb64d77b619c9af2a3547086"
    );
    assert_eq!(
        TypeKey::of(&load("true"), 0).as_u128(),
        0x7c05182b52d53d8133ec8a0291175ad2
    );
    let twitter = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/schemas/twitter.schema.json"
    ))
    .expect("twitter schema");
    let twitter = Schema::from_json_slice(&twitter).expect("twitter schema loads");
    assert_eq!(TypeKey::of(&twitter, 0), TypeKey::of(&twitter.clone(), 0));
    assert_eq!(
        TypeKey::of(&twitter, 0).to_string(),
        "2e6b0a9fe8ad15e90364efeb189fea66"
    );
}

#[test]
fn recursive_schemas_are_cycles() {
    let tree = r##"{"type": "object",
                   "properties": {"value": {"type": "integer"},
                                  "children": {"type": "array", "items": {"$ref": "#"}}},
                   "required": ["value"]}"##;
    same(&[
        tree,
        r##"{"$ref": "#/$defs/node",
             "$defs": {"node": {"type": "object",
                                "properties": {"value": {"type": "integer"},
                                               "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                                "required": ["value"]}}}"##,
    ]);
    let schema = load(tree);
    assert_eq!(schema.node_count(), 3);
    let TypeDesc::Object(root) = schema.node(schema.root()) else {
        panic!("root is an object: {schema:?}");
    };
    let TypeDesc::Array(children) = schema.node(root.fields[1].ty) else {
        panic!("children is an array: {schema:?}");
    };
    assert_eq!(
        children.items,
        schema.root(),
        "the cycle closes on the root"
    );
    let deep = json!({"value": 1, "children": [{"value": 2, "children": [{"value": "x"}]}]});
    let e = schema.validate_value(&deep).unwrap_err();
    assert_eq!(e.instance_path(), "$.children[0].children[0].value");
    assert_eq!(
        e.schema_pointer(),
        "/properties/children/items/properties/children/items/properties/value/type"
    );

    // Mutual recursion that unrolls to the same structure is the same schema.
    same(&[
        r##"{"type": "array", "items": {"$ref": "#"}}"##,
        r##"{"$ref": "#/$defs/a",
             "$defs": {"a": {"type": "array", "items": {"$ref": "#/$defs/b"}},
                       "b": {"type": "array", "items": {"$ref": "#/$defs/a"}}}}"##,
    ]);
}

#[test]
fn model_shapes() {
    // One `type`: a plain typed node.
    let s = load(r#"{"type": "integer", "exclusiveMaximum": 10, "minimum": -3.5}"#);
    assert_eq!(
        s.node(s.root()),
        &TypeDesc::Integer(IntegerDesc {
            minimum: Some(Bound {
                value: Num::Int(-3),
                exclusive: false,
            }),
            maximum: Some(Bound {
                value: Num::Int(10),
                exclusive: true,
            }),
            multiple_of: None,
            format: None,
        })
    );
    let s = load(r#"{"type": "number", "exclusiveMinimum": 0, "maximum": 1}"#);
    assert_eq!(
        s.node(s.root()),
        &TypeDesc::Number(NumberDesc {
            minimum: Some(Bound {
                value: Num::Int(0),
                exclusive: true
            }),
            maximum: Some(Bound {
                value: Num::Int(1),
                exclusive: false
            }),
            multiple_of: None,
            format: None,
        })
    );
    // No `type`: a per-kind union, and keywords only constrain their own kind.
    let s = load(r#"{"minimum": 5}"#);
    let TypeDesc::Kinds(k) = s.node(s.root()) else {
        panic!("a per-kind union: {s:?}");
    };
    assert!(k.slots().iter().all(Option::is_some));
    assert_eq!(s.validate_value(&json!("foo")), Ok(()));
    assert_eq!(s.validate_value(&json!(7)), Ok(()));
    assert_eq!(
        s.validate_value(&json!(4.5)).unwrap_err().kind(),
        &ValidationErrorKind::Minimum {
            limit: Num::Int(5),
            exclusive: false
        }
    );
    // Several types: a per-kind union of just those kinds.
    let s = load(r#"{"type": ["string", "integer"], "minLength": 2}"#);
    let e = s.validate_value(&json!(true)).unwrap_err();
    assert_eq!(
        e.kind(),
        &ValidationErrorKind::Type {
            expected: KindSet::only(Kind::Integer).with(Kind::String),
            found: Kind::Boolean
        }
    );
    assert_eq!(
        e.to_string(),
        "$: expected integer or string, found boolean (schema #/type)"
    );
    // Nullable, map, object policies.
    let s = load(r#"{"type": ["object", "null"], "additionalProperties": {"type": "integer"}}"#);
    let TypeDesc::Nullable(inner) = s.node(s.root()) else {
        panic!("nullable: {s:?}");
    };
    assert!(matches!(s.node(*inner), TypeDesc::Map(_)));
    let s = load(r#"{"type": "object", "properties": {"a": {}}, "additionalProperties": false}"#);
    let TypeDesc::Object(o) = s.node(s.root()) else {
        panic!("object: {s:?}");
    };
    assert_eq!(o.unknown, UnknownFields::Deny);
    // Defaults are kept on fields, canonical, and never checked.
    let s = load(
        r#"{"properties": {"n": {"type": "integer", "default": 2.0}, "s": {"type": "string", "default": 5}}}"#,
    );
    let TypeDesc::Kinds(k) = s.node(s.root()) else {
        panic!("a per-kind union: {s:?}");
    };
    let TypeDesc::Object(o) = s.node(k.object.expect("object branch")) else {
        panic!("object branch: {s:?}");
    };
    assert_eq!(o.fields[0].default, Some(json!(2)));
    assert_eq!(o.fields[1].default, Some(json!(5)));
}

#[test]
fn discriminators() {
    let s = load(
        r#"{"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
            {"type": "object", "properties": {"kind": {"enum": ["square"]}, "side": {"type": "number"}}, "required": ["kind", "side"]}
        ]}"#,
    );
    let TypeDesc::OneOf(u) = s.node(s.root()) else {
        panic!("oneOf: {s:?}");
    };
    let d = u.discriminator.as_ref().expect("a discriminator");
    assert_eq!(d.property, "kind");
    assert_eq!(d.tags, vec![json!("circle"), json!("square")]);
    assert_eq!(
        s.validate_value(&json!({"kind": "square", "side": 2})),
        Ok(())
    );
    assert!(
        s.validate_value(&json!({"kind": "square", "r": 2}))
            .is_err()
    );

    // Branches of distinct kinds need no discriminator: they are a per-kind union.
    let s = load(
        r#"{"anyOf": [{"type": "object", "properties": {"k": {"const": 1}}}, {"type": "string"}]}"#,
    );
    assert!(matches!(s.node(s.root()), TypeDesc::Kinds(_)), "{s:?}");
    // Not every branch an object, or tags not distinct: no fast path.
    for text in [
        r#"{"anyOf": [{"type": "object", "properties": {"k": {"const": 1}}}, {"enum": [1, "x"]}]}"#,
        r#"{"anyOf": [{"type": "object", "properties": {"k": {"const": 1}}},
                      {"type": "object", "properties": {"k": {"const": 1.0}}, "required": ["x"]}]}"#,
    ] {
        let s = load(text);
        let TypeDesc::AnyOf(u) = s.node(s.root()) else {
            panic!("anyOf: {s:?}");
        };
        assert_eq!(u.discriminator, None, "{text}");
    }
    // A tag field with a few values (a variant's name and aliases): the first is the
    // branch's tag, the others select it too.
    let s = load(
        r#"{"anyOf": [{"type": "object", "properties": {"k": {"enum": [1, 2]}}},
                      {"type": "object", "properties": {"k": {"const": 3}}}]}"#,
    );
    let TypeDesc::AnyOf(u) = s.node(s.root()) else {
        panic!("anyOf: {s:?}");
    };
    let d = u.discriminator.as_ref().expect("a discriminator");
    assert_eq!(
        (&d.tags[..], &d.aliases[..]),
        (&[json!(1), json!(3)][..], &[(json!(2), 0)][..])
    );
    assert_eq!(d.default, None);

    // One branch may take every value the others do not name (`not: {enum}` naming all
    // their values, alone or beside other keywords): the default, which has no tag.
    let with_default = |default: &str| {
        format!(
            r#"{{"anyOf": [{{"type": "object", "properties": {{"k": {{"enum": ["a", "b"]}}}}}},
                           {{"type": "object", "properties": {{"k": {default}}}}},
                           {{"type": "object", "properties": {{"k": {{"const": "c"}}}}}}]}}"#
        )
    };
    for default in [
        r#"{"type": "string", "not": {"enum": ["a", "b", "c"]}}"#,
        r#"{"not": {"enum": ["c", "x", "b", "a"]}}"#,
        r#"{"allOf": [{"minLength": 1}, {"not": {"enum": ["a", "b", "c"]}}]}"#,
    ] {
        let s = load(&with_default(default));
        let TypeDesc::AnyOf(u) = s.node(s.root()) else {
            panic!("anyOf: {s:?}");
        };
        let d = u.discriminator.as_ref().expect("a discriminator");
        assert_eq!(d.default, Some(1), "{default}");
        assert_eq!(d.tags, [json!("a"), json!("c")], "{default}");
        let selectors: Vec<(&serde_json::Value, usize)> = d.selectors().collect();
        let (a, b, c) = (json!("a"), json!("b"), json!("c"));
        assert_eq!(selectors, [(&a, 0), (&c, 2), (&b, 0)], "{default}");
    }
    // A default must refuse every other branch's value, and there is one at most.
    for default in [
        r#"{"type": "string", "not": {"enum": ["a", "c"]}}"#,
        r#"{"type": "string", "not": {"const": "a"}}"#,
        r#"{"type": "string"}"#,
        r#"{"not": {"type": "integer"}}"#,
    ] {
        let s = load(&with_default(default));
        let TypeDesc::AnyOf(u) = s.node(s.root()) else {
            panic!("anyOf: {s:?}");
        };
        assert_eq!(u.discriminator, None, "{default}");
    }
    let s = load(
        r#"{"anyOf": [{"type": "object", "properties": {"k": {"const": "a"}}},
                      {"type": "object", "properties": {"k": {"not": {"enum": ["a"]}}}},
                      {"type": "object", "properties": {"k": {"not": {"enum": ["a", 1]}}}}]}"#,
    );
    let TypeDesc::AnyOf(u) = s.node(s.root()) else {
        panic!("anyOf: {s:?}");
    };
    assert_eq!(u.discriminator, None);
}

#[test]
fn long_reference_chains_load() {
    // 3000 definitions, each an array of the next: node merging must not be quadratic here.
    let n = 3000;
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        defs.insert(
            format!("d{i}"),
            json!({"type": "array", "items": {"$ref": format!("#/$defs/d{}", i + 1)}}),
        );
    }
    defs.insert(format!("d{n}"), json!({"type": "string"}));
    let schema = Schema::from_value(&json!({"$defs": defs, "$ref": "#/$defs/d0"})).unwrap();
    assert_eq!(schema.node_count(), n + 1);
    assert_eq!(schema.validate_value(&json!([[[]]])), Ok(()));
    assert_eq!(
        schema
            .validate_value(&json!([[["x"]]]))
            .unwrap_err()
            .instance_path(),
        "$[0][0][0]"
    );
}

#[test]
fn schemas_cross_threads() {
    fn shareable<T: Send + Sync + 'static>() {}
    shareable::<Schema>();
    shareable::<TypeKey>();
    shareable::<jitson::SchemaError>();
    shareable::<jitson::ValidationError>();
}

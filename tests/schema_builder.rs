//! The builder API: expressions give the same canonical schemas as equivalent JSON Schema
//! documents, recursion goes through named definitions, and errors point into the layout the
//! expression corresponds to.

use jitson::schema::builder::{
    all_of, any, any_of, array, boolean, constant, dependent_schema, enumeration, if_then_else,
    integer, map, never, not, null, nullable, number, object, one_of, reference, string, tuple,
};
use jitson::schema::{Num, SchemaBuilder, TypeDesc};
use jitson::{Schema, TypeKey};
use serde_json::json;

fn load(text: &str) -> Schema {
    Schema::from_json_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn builder_equals_loaded() {
    let built = Schema::build(
        object()
            .field("id", integer().minimum(0).format("int64"))
            .field("name", string().min_length(1).max_length(64))
            .optional("email", nullable(string().format("email")))
            .optional("tags", array(string()).max_items(10))
            .optional_or(
                "score",
                number().exclusive_minimum(0).maximum(1),
                json!(0.5),
            )
            .deny_unknown(),
    )
    .unwrap();
    let loaded = load(
        r#"{
            "type": "object",
            "properties": {
                "id": {"type": "integer", "minimum": 0, "format": "int64"},
                "name": {"type": "string", "minLength": 1, "maxLength": 64},
                "email": {"type": ["string", "null"], "format": "email"},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
                "score": {"type": "number", "exclusiveMinimum": 0, "maximum": 1, "default": 0.5}
            },
            "required": ["id", "name"],
            "additionalProperties": false
        }"#,
    );
    assert_eq!(built, loaded);
    assert_eq!(TypeKey::of(&built, 7), TypeKey::of(&loaded, 7));
}

#[test]
fn every_constructor_matches_its_keyword() {
    for (built, text) in [
        (Schema::build(any()), "true"),
        (Schema::build(never()), "false"),
        (Schema::build(null()), r#"{"type": "null"}"#),
        (Schema::build(boolean()), r#"{"type": "boolean"}"#),
        (
            Schema::build(integer().maximum(1.5)),
            r#"{"type": "integer", "maximum": 1}"#,
        ),
        (
            Schema::build(integer().exclusive_maximum(10).exclusive_minimum(0.5)),
            r#"{"type": "integer", "exclusiveMaximum": 10, "exclusiveMinimum": 0}"#,
        ),
        (
            Schema::build(integer().multiple_of(1)),
            r#"{"type": "integer"}"#,
        ),
        (
            Schema::build(number().minimum(Num::Float(1.0)).multiple_of(Num::UInt(4))),
            r#"{"type": "number", "minimum": 1, "multipleOf": 4}"#,
        ),
        (
            Schema::build(string().pattern("^a+$").unwrap()),
            r#"{"type": "string", "pattern": "^a+$"}"#,
        ),
        (
            Schema::build(map(integer())),
            r#"{"type": "object", "additionalProperties": {"type": "integer"}}"#,
        ),
        (Schema::build(map(any())), r#"{"type": "object"}"#),
        (
            Schema::build(object().field("a", any()).extras(boolean())),
            r#"{"type": "object", "properties": {"a": true}, "required": ["a"],
                "additionalProperties": {"type": "boolean"}}"#,
        ),
        (
            Schema::build(tuple([string(), string()]).min_items(1)),
            r#"{"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}],
                "items": false, "minItems": 1}"#,
        ),
        (
            Schema::build(array(integer()).prefix([string()])),
            r#"{"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"#,
        ),
        (
            Schema::build(any_of([integer().into(), null()])),
            r#"{"anyOf": [{"type": "integer"}, {"type": "null"}]}"#,
        ),
        (
            Schema::build(one_of([string(), string().min_length(3)])),
            r#"{"oneOf": [{"type": "string"}, {"type": "string", "minLength": 3}]}"#,
        ),
        (
            Schema::build(all_of([integer().minimum(0), integer().maximum(9)])),
            r#"{"allOf": [{"type": "integer", "minimum": 0}, {"type": "integer", "maximum": 9}]}"#,
        ),
        (Schema::build(not(null())), r#"{"not": {"type": "null"}}"#),
        (
            Schema::build(array(string()).unique_items()),
            r#"{"type": "array", "items": {"type": "string"}, "uniqueItems": true}"#,
        ),
        (
            Schema::build(array(string())),
            r#"{"type": "array", "items": {"type": "string"}, "uniqueItems": false}"#,
        ),
        (
            Schema::build(array(any()).contains(string()).max_contains(2)),
            r#"{"type": "array", "contains": {"type": "string"}, "maxContains": 2}"#,
        ),
        (
            Schema::build(array(any())),
            r#"{"type": "array", "contains": {"type": "string"}, "minContains": 0}"#,
        ),
        (
            Schema::build(array(any())),
            r#"{"type": "array", "minContains": 2, "maxContains": 3}"#,
        ),
        (
            Schema::build(
                object()
                    .extras(integer())
                    .min_properties(1)
                    .max_properties(4),
            ),
            r#"{"type": "object", "additionalProperties": {"type": "integer"},
                "minProperties": 1, "maxProperties": 4}"#,
        ),
        (
            Schema::build(map(integer())),
            r#"{"type": "object", "additionalProperties": {"type": "integer"},
                "minProperties": 0, "dependentRequired": {"a": []}}"#,
        ),
        (
            Schema::build(
                object()
                    .optional("a", string())
                    .dependent_required("a", ["b", "c"])
                    .dependent_required("a", ["c", "d"])
                    .dependent_required("x", Vec::<String>::new()),
            ),
            r#"{"type": "object", "properties": {"a": {"type": "string"}},
                "dependentRequired": {"a": ["b", "c", "d"], "x": []}}"#,
        ),
        (
            Schema::build(object().property_names(string().max_length(3))),
            r#"{"type": "object", "propertyNames": {"type": "string", "maxLength": 3}}"#,
        ),
        (
            Schema::build(object()),
            r#"{"type": "object", "propertyNames": {"type": "string"}}"#,
        ),
        (
            Schema::build(object()),
            r#"{"type": "object", "propertyNames": true}"#,
        ),
        (
            Schema::build(
                object()
                    .optional("x-a", integer())
                    .pattern_property("^x-", integer().minimum(0))
                    .pattern_property("é", any())
                    .deny_unknown(),
            ),
            r#"{"type": "object", "properties": {"x-a": {"type": "integer"}},
                "patternProperties": {"^x-": {"type": "integer", "minimum": 0}, "é": true},
                "additionalProperties": false}"#,
        ),
        (
            Schema::build(if_then_else(string(), string().min_length(2), integer())),
            r#"{"if": {"type": "string"}, "then": {"type": "string", "minLength": 2},
                "else": {"type": "integer"}}"#,
        ),
        (
            Schema::build(if_then_else(integer(), any(), string())),
            r#"{"if": {"type": "integer"}, "else": {"type": "string"}}"#,
        ),
        (
            Schema::build(all_of::<jitson::schema::TypeExpr>([
                object().optional("a", integer()).into(),
                dependent_schema("a", object().field("b", string())),
                dependent_schema("c/d", never()),
            ])),
            r#"{"type": "object", "properties": {"a": {"type": "integer"}},
                "dependentSchemas": {"a": {"type": "object", "required": ["b"],
                    "properties": {"b": {"type": "string"}}}, "c/d": false}}"#,
        ),
        (
            // "Any type, but if a number then at least 5."
            Schema::build(any_of([
                null(),
                boolean(),
                number().minimum(5).into(),
                string().into(),
                array(any()).into(),
                object().into(),
            ])),
            r#"{"minimum": 5}"#,
        ),
        (
            Schema::build(constant(json!({"a": [1.0]}))),
            r#"{"const": {"a": [1]}}"#,
        ),
        (
            Schema::build(enumeration([json!("x"), json!(null), json!("x")])),
            r#"{"enum": ["x", null]}"#,
        ),
    ] {
        assert_eq!(built.unwrap(), load(text), "{text}");
    }
}

#[test]
fn recursive_definitions() {
    let built = SchemaBuilder::new()
        .define(
            "node",
            object()
                .field("value", number())
                .optional("children", array(reference("node"))),
        )
        .define("unused", string())
        .build(reference("node"))
        .unwrap();
    let loaded = load(
        r##"{
            "type": "object",
            "properties": {
                "value": {"type": "number"},
                "children": {"type": "array", "items": {"$ref": "#"}}
            },
            "required": ["value"]
        }"##,
    );
    assert_eq!(built, loaded);
    assert_eq!(built.node_count(), 3);

    // Mutual recursion through a oneOf with a discriminator.
    let expr = SchemaBuilder::new()
        .define(
            "expr",
            one_of([
                object()
                    .field("op", constant(json!("num")))
                    .field("value", number()),
                object().field("op", constant(json!("add"))).field(
                    "args",
                    tuple([reference("expr"), reference("expr")]).min_items(2),
                ),
            ]),
        )
        .build(reference("expr"))
        .unwrap();
    let TypeDesc::OneOf(u) = expr.node(expr.root()) else {
        panic!("oneOf: {expr:?}");
    };
    assert_eq!(
        u.discriminator.as_ref().map(|d| d.property.as_str()),
        Some("op")
    );
    let ok = json!({"op": "add", "args": [{"op": "num", "value": 1}, {"op": "num", "value": 2}]});
    assert_eq!(expr.validate_value(&ok), Ok(()));
    let bad =
        json!({"op": "add", "args": [{"op": "num", "value": 1}, {"op": "num", "value": "2"}]});
    let e = expr.validate_value(&bad).unwrap_err();
    assert_eq!(e.instance_path(), "$");
    assert_eq!(e.schema_pointer(), "/oneOf");
}

#[test]
fn builder_errors_point_into_the_equivalent_layout() {
    let schema =
        Schema::build(object().field("items", array(object().field("qty", integer().minimum(1)))))
            .unwrap();
    let e = schema
        .validate_value(&json!({"items": [{"qty": 1}, {"qty": 0}]}))
        .unwrap_err();
    assert_eq!(e.instance_path(), "$.items[1].qty");
    assert_eq!(
        e.schema_pointer(),
        "/properties/items/items/properties/qty/minimum"
    );
    assert_eq!(
        e.to_string(),
        "$.items[1].qty: must be >= 1 (schema #/properties/items/items/properties/qty/minimum)"
    );
    // Unknown members are allowed unless denied.
    assert_eq!(
        schema.validate_value(&json!({"items": [{"qty": 1, "note": 2}], "x": null})),
        Ok(())
    );
    let strict = Schema::build(object().field("a b", integer()).deny_unknown()).unwrap();
    let e = strict.validate_value(&json!({"a b": "1"})).unwrap_err();
    assert_eq!(e.instance_path(), r#"$["a b"]"#);
    assert_eq!(e.schema_pointer(), "/properties/a b/type");
}

/// `SchemaBuilder::json_schema_string` writes a document that loads back to the built schema.
fn assert_written_loads_back(builder: SchemaBuilder, root: jitson::schema::TypeExpr) {
    let text = builder.json_schema_string(&root);
    let value = builder.json_schema_value(&root);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&text).unwrap(),
        value
    );
    let built = builder.build(root).unwrap();
    assert_eq!(load(&text), built, "{text}");
}

#[test]
fn written_documents_load_back() {
    let exprs = [
        any(),
        never(),
        null(),
        boolean(),
        integer()
            .minimum(-3)
            .maximum(9)
            .multiple_of(3)
            .format("int32")
            .into(),
        number().exclusive_minimum(0).exclusive_maximum(1.5).into(),
        number().minimum(-1).maximum(1).multiple_of(0.25).into(),
        string()
            .min_length(1)
            .max_length(3)
            .pattern("^a")
            .unwrap()
            .format("x")
            .into(),
        constant(json!({"a": [1, 2.5]})),
        enumeration([json!("a"), json!(1), json!(null)]),
        nullable(integer().minimum(0)),
        nullable(enumeration([json!("x"), json!("y")])),
        nullable(any_of::<jitson::schema::TypeExpr>([
            string().into(),
            integer().into(),
        ])),
        nullable(any()),
        nullable(never()),
        tuple([boolean(), null()]).min_items(2).into(),
        array(integer()).min_items(1).max_items(4).into(),
        array(any()).unique_items().into(),
        array(integer())
            .contains(integer().minimum(5))
            .min_contains(2)
            .max_contains(4)
            .into(),
        object()
            .extras(string())
            .min_properties(2)
            .max_properties(3)
            .dependent_required("a", ["b"])
            .property_names(string().pattern("^[a-z]").unwrap())
            .pattern_property("^[0-9]+$", nullable(integer()))
            .pattern_property("a~/", object().field("v", integer()))
            .into(),
        map(nullable(boolean())),
        object()
            .field("a", any())
            .optional_or("b", never(), json!(1))
            .optional_or("c", any(), json!([1]))
            .optional_or("d", integer(), json!(2))
            .extras(string())
            .into(),
        all_of::<jitson::schema::TypeExpr>([integer().into(), not(constant(json!(3)))]),
        one_of::<jitson::schema::TypeExpr>([integer().into(), number().maximum(2).into()]),
        if_then_else(
            object().field("kind", constant(json!("a"))),
            object().field("a", integer()),
            any(),
        ),
        all_of::<jitson::schema::TypeExpr>([
            object().optional("a", integer()).into(),
            dependent_schema("a", object().field("b", string())),
            dependent_schema("c~/", never()),
        ]),
    ];
    for expr in exprs {
        assert_written_loads_back(SchemaBuilder::new(), expr);
    }
    // Definition names are escaped as pointer tokens and percent-encoded in `$ref`s.
    let builder = SchemaBuilder::new()
        .define("a/b~c d%", object().optional("next", reference("a/b~c d%")))
        .define("plain", array(reference("a/b~c d%")));
    let text = builder.json_schema_string(&reference("plain"));
    assert!(
        text.contains(r##""$ref":"#/$defs/a~1b~0c%20d%25""##),
        "{text}"
    );
    assert_written_loads_back(builder, reference("plain"));
}

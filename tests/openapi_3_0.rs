//! OpenAPI 3.0's schema objects (`jitson::schema::OPENAPI_3_0`): `nullable`, boolean
//! `exclusiveMinimum` / `exclusiveMaximum`, `$ref` beside other members, the keywords 3.0 has
//! and lacks, `x-` extensions; and an OpenAPI 3.0 document's schemas read in that dialect.
//! Every verdict on the reference validator, the interpreter and native code.

mod verdict_support;

use jitson::Schema;
use jitson::schema::{Loader, OPENAPI_3_0, OPENAPI_3_1};
use serde_json::{Value, json};
use verdict_support::verdicts;

/// `schema` loaded in OpenAPI 3.0's dialect.
fn load(schema: &Value) -> Result<Schema, jitson::SchemaError> {
    Loader::new()
        .default_dialect(OPENAPI_3_0)
        .load_value(schema)
}

/// The message of the error loading `schema` in OpenAPI 3.0's dialect.
fn refusal(schema: &Value) -> String {
    load(schema).unwrap_err().to_string()
}

#[test]
fn nullable_adds_null_to_the_type_beside_it() {
    let values = [json!(null), json!("ab"), json!("a"), json!(1)];
    let nullable = json!({"type": "string", "nullable": true, "minLength": 2});
    assert_eq!(
        verdicts(&load(&nullable).unwrap(), &values),
        [true, true, false, false]
    );
    let not_nullable = json!({"type": "string", "nullable": false, "minLength": 2});
    assert_eq!(
        verdicts(&load(&not_nullable).unwrap(), &values),
        [false, true, false, false]
    );
    let plain = json!({"type": "string", "minLength": 2});
    assert_eq!(
        verdicts(&load(&plain).unwrap(), &values),
        [false, true, false, false]
    );
    // Without `type` it changes nothing: every value of another type passes anyway.
    let untyped = json!({"nullable": true, "minLength": 2});
    assert_eq!(
        verdicts(&load(&untyped).unwrap(), &values),
        [true, true, false, true]
    );
    // Other keywords keep their meaning (OpenAPI 3.0.3): an `enum` without null refuses it.
    let values = [json!(null), json!("a"), json!("b")];
    let enumerated = json!({"type": "string", "nullable": true, "enum": ["a"]});
    assert_eq!(
        verdicts(&load(&enumerated).unwrap(), &values),
        [false, true, false]
    );
    let with_null = json!({"type": "string", "nullable": true, "enum": ["a", null]});
    assert_eq!(
        verdicts(&load(&with_null).unwrap(), &values),
        [true, true, false]
    );
}

#[test]
fn a_boolean_exclusive_bound_makes_the_bound_beside_it_exclusive() {
    let values = [json!(0), json!(0.5), json!(1), json!(9.5), json!(10)];
    let exclusive = json!({"type": "number", "minimum": 0, "exclusiveMinimum": true,
                           "maximum": 10, "exclusiveMaximum": true});
    assert_eq!(
        verdicts(&load(&exclusive).unwrap(), &values),
        [false, true, true, true, false]
    );
    let inclusive = json!({"type": "number", "minimum": 0, "exclusiveMinimum": false,
                           "maximum": 10, "exclusiveMaximum": false});
    assert_eq!(
        verdicts(&load(&inclusive).unwrap(), &values),
        [true, true, true, true, true]
    );
    // Integers round the exclusive bound as draft 2020-12's number would.
    let integer = json!({"type": "integer", "minimum": 0, "exclusiveMinimum": true,
                         "maximum": 10});
    assert_eq!(
        verdicts(&load(&integer).unwrap(), &values),
        [false, false, true, false, true]
    );
    assert_eq!(
        refusal(&json!({"exclusiveMinimum": true})),
        r#""exclusiveMinimum" must be a boolean, true only beside its bound at /exclusiveMinimum"#
    );
    assert_eq!(
        refusal(&json!({"maximum": 3, "exclusiveMaximum": 3})),
        r#""exclusiveMaximum" must be a boolean at /exclusiveMaximum"#
    );
    assert_eq!(
        refusal(&json!({"minimum": "3", "exclusiveMinimum": true})),
        r#""minimum" must be a number at /minimum"#
    );
}

#[test]
fn a_reference_object_ignores_its_other_members() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {
            "$ref": "#/properties/b",
            "maxLength": 1,
            "description": "the other members are ignored, even those 3.0 has not",
            "const": "x",
            "$id": 3
        }, "b": {"type": "string"}}
    });
    let values = [json!({"a": "long"}), json!({"a": 1}), json!({"b": "c"})];
    assert_eq!(
        verdicts(&load(&schema).unwrap(), &values),
        [true, false, true]
    );
}

#[test]
fn keywords_openapi_3_0_lacks_are_refused_or_ignored_as_annotations() {
    for keyword in [
        "const",
        "$defs",
        "$id",
        "$schema",
        "if",
        "prefixItems",
        "examples",
    ] {
        let schema = json!({"type": "string", keyword: "x"});
        assert_eq!(
            refusal(&schema),
            format!("unsupported keyword {keyword:?} at /{keyword}")
        );
    }
    // Named as annotations, they mean nothing: 3.0's `const` is no keyword.
    let mut loader = Loader::new();
    loader
        .default_dialect(OPENAPI_3_0)
        .annotation_keyword("const");
    let schema = loader
        .load_value(&json!({"type": "string", "const": "x"}))
        .unwrap();
    assert_eq!(verdicts(&schema, &[json!("y"), json!(1)]), [true, false]);
    // `type` names one of six types.
    for type_ in [json!(["string", "null"]), json!("null"), json!(1)] {
        assert_eq!(
            refusal(&json!({ "type": type_ })),
            r#""type" must be one of OpenAPI 3.0's six type names at /type"#
        );
    }
    assert_eq!(
        refusal(&json!({"type": "string", "nullable": "yes"})),
        r#""nullable" must be a boolean at /nullable"#
    );
}

#[test]
fn openapi_annotations_and_extensions_are_taken() {
    let schema = json!({
        "type": "object",
        "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/components/x"}},
        "xml": {"name": "pet"},
        "externalDocs": {"url": "https://example.com"},
        "example": {"kind": "cat"},
        "readOnly": false,
        "writeOnly": false,
        "deprecated": true,
        "x-go-type": "Pet",
        "x-tags": [1, 2],
        "properties": {"kind": {"type": "string", "x-order": 1}}
    });
    let values = [json!({"kind": "cat"}), json!({"kind": 1})];
    assert_eq!(verdicts(&load(&schema).unwrap(), &values), [true, false]);
    // OpenAPI 3.1's dialect takes `x-` extensions too (its vocabulary's meta-schema allows
    // `^x-` members); draft 2020-12 does not.
    let mut loader = Loader::new();
    loader.default_dialect(OPENAPI_3_1);
    let in_3_1 = json!({"type": "string", "x-go-type": "Name", "nullable": true});
    assert_eq!(
        loader.load_value(&in_3_1).unwrap_err().to_string(),
        r#"unsupported keyword "nullable" at /nullable"#
    );
    let in_3_1 = json!({"type": "string", "x-go-type": "Name"});
    let schema = loader.load_value(&in_3_1).unwrap();
    assert_eq!(verdicts(&schema, &[json!("a"), json!(null)]), [true, false]);
    assert_eq!(
        Loader::new().load_value(&in_3_1).unwrap_err().to_string(),
        r#"unsupported keyword "x-go-type" at /x-go-type"#
    );
}

#[test]
fn openapis_own_formats_stay_annotations_when_formats_are_asserted() {
    let mut loader = Loader::new();
    loader.default_dialect(OPENAPI_3_0).assert_formats(true);
    for format in [
        "int32", "int64", "float", "double", "byte", "binary", "password",
    ] {
        let schema = json!({"type": "string", "format": format});
        let schema = loader.load_value(&schema).unwrap();
        assert_eq!(verdicts(&schema, &[json!("%%"), json!(1)]), [true, false]);
    }
    let date = loader
        .load_value(&json!({"type": "string", "format": "date"}))
        .unwrap();
    let values = [json!("2024-02-29"), json!("2023-02-29")];
    assert_eq!(verdicts(&date, &values), [true, false]);
}

#[test]
fn schema_names_the_dialect_of_a_schema_and_what_it_holds() {
    let schema = json!({
        "$schema": OPENAPI_3_0,
        "type": "object",
        "properties": {"n": {"type": "integer", "nullable": true}}
    });
    let schema = Loader::new().load_value(&schema).unwrap();
    let values = [json!({"n": null}), json!({"n": 1}), json!({"n": "1"})];
    assert_eq!(verdicts(&schema, &values), [true, true, false]);
}

const API: &str = "https://example.com/api.json";

/// An OpenAPI 3.0 document whose components use 3.0's keywords.
fn openapi_3_0() -> Value {
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Pets", "version": "1"},
        "paths": {},
        "components": {"schemas": {
            "Pet": {
                "type": "object",
                "required": ["name", "age"],
                "x-table": "pets",
                "properties": {
                    "name": {"type": "string", "nullable": true},
                    "age": {"type": "integer", "minimum": 0, "exclusiveMinimum": true},
                    "owner": {"$ref": "#/components/schemas/Owner", "description": "ignored"}
                }
            },
            "Owner": {"type": "object", "required": ["id"], "nullable": true}
        }}
    })
}

#[test]
fn an_openapi_3_0_documents_schemas_are_read_in_its_dialect() {
    let mut loader = Loader::new();
    loader.container_value(API, &openapi_3_0()).unwrap();
    let pet = json!({ "$ref": format!("{API}#/components/schemas/Pet") });
    let pet = loader.load_value(&pet).unwrap();
    let values = [
        json!({"name": null, "age": 1}),
        json!({"name": "Rex", "age": 1, "owner": null}),
        json!({"name": "Rex", "age": 1, "owner": {"id": 7}}),
        json!({"name": "Rex", "age": 0}),
        json!({"name": "Rex", "age": 1, "owner": {}}),
        json!({"name": 1, "age": 1}),
    ];
    assert_eq!(
        verdicts(&pet, &values),
        [true, true, true, false, false, false]
    );
    // In an OpenAPI 3.1 document the same schemas are 3.1's: `nullable` is no keyword there.
    let mut in_3_1 = openapi_3_0();
    in_3_1["openapi"] = json!("3.1.0");
    let mut loader = Loader::new();
    loader.container_value(API, &in_3_1).unwrap();
    let pet = json!({ "$ref": format!("{API}#/components/schemas/Pet") });
    assert_eq!(
        loader.load_value(&pet).unwrap_err().to_string(),
        format!(
            r#"unsupported keyword "nullable" at {API}#/components/schemas/Pet/properties/name/nullable"#
        )
    );
}

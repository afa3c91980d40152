//! `Loader::container_json`: documents that are not schemas but hold some (an OpenAPI
//! document), whose schemas `$ref`s name by JSON Pointer; only what references name is read.
//! Every verdict on the reference validator, the interpreter and native code.

mod verdict_support;

use jitson::Schema;
use jitson::schema::{DRAFT_2020_12, Loader, OPENAPI_3_1};
use serde_json::{Value, json};
use verdict_support::verdicts;

const OPENAPI: &str = "https://example.com/openapi.json";

/// An OpenAPI 3.1 document: two component schemas that refer to each other, an operation
/// with an inline body schema, and fields that are no schema.
fn openapi() -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Pets", "version": "1.0.0"},
        "paths": {
            "/pets": {"post": {"requestBody": {"content": {"application/json": {"schema": {
                "type": "array",
                "items": {"$ref": "#/components/schemas/Pet"},
                "maxItems": 2
            }}}}}}
        },
        "components": {"schemas": {
            "Pet": {
                "type": "object",
                "required": ["name"],
                "discriminator": {"propertyName": "name"},
                "properties": {
                    "name": {"type": "string", "example": "Rex"},
                    "owner": {"$ref": "#/components/schemas/Owner"}
                }
            },
            "Owner": {
                "$id": "https://example.com/owner",
                "type": "object",
                "properties": {"id": {"type": "integer", "minimum": 1}},
                "required": ["id"]
            }
        }}
    })
}

/// A loader holding [`openapi`] as a container (its schemas in OpenAPI's dialect, as an
/// OpenAPI 3.1 document's are).
fn loader() -> Loader {
    let mut loader = Loader::new();
    loader.container_value(OPENAPI, &openapi()).unwrap();
    loader
}

/// The schema `{"$ref": reference}` loaded by `loader`.
fn referring(loader: &Loader, reference: &str) -> Result<Schema, jitson::SchemaError> {
    loader.load_value(&json!({ "$ref": reference }))
}

#[test]
fn references_name_a_containers_schemas_by_pointer() {
    let loader = loader();
    let pet = referring(&loader, &format!("{OPENAPI}#/components/schemas/Pet")).unwrap();
    let pets = [
        json!({"name": "Rex"}),
        json!({"name": "Rex", "owner": {"id": 1}}),
        json!({"name": "Rex", "owner": {"id": 0}}),
        json!({"owner": {"id": 1}}),
    ];
    assert_eq!(verdicts(&pet, &pets), [true, true, false, false]);
    // An operation's body schema, its path escaped as JSON Pointer and URI fragment have it.
    let body = format!("{OPENAPI}#/paths/~1pets/post/requestBody/content/application~1json/schema");
    let body = referring(&loader, &body).unwrap();
    let bodies = [
        json!([{"name": "a"}, {"name": "b"}]),
        json!([{"name": "a"}, {}]),
        json!([{"name": "a"}, {"name": "b"}, {"name": "c"}]),
    ];
    assert_eq!(verdicts(&body, &bodies), [true, false, false]);
    // An `$id` inside a schema read names it; one not read names nothing.
    let both = loader
        .load_value(&json!({"properties": {
            "pet": {"$ref": format!("{OPENAPI}#/components/schemas/Pet")},
            "owner": {"$ref": "https://example.com/owner"}
        }}))
        .unwrap();
    let values = [json!({"owner": {"id": 2}}), json!({"owner": {}})];
    assert_eq!(verdicts(&both, &values), [true, false]);
    assert_eq!(
        referring(&loader, "https://example.com/owner")
            .unwrap_err()
            .to_string(),
        r#"unresolved reference "https://example.com/owner" at /$ref"#
    );
}

#[test]
fn a_containers_root_and_its_other_values_are_no_schemas() {
    let loader = loader();
    let whole = referring(&loader, OPENAPI).unwrap_err();
    assert_eq!(
        whole.to_string(),
        r#"unresolved reference "https://example.com/openapi.json" at /$ref"#
    );
    let info = referring(&loader, &format!("{OPENAPI}#/info")).unwrap_err();
    assert_eq!(
        info.to_string(),
        r#"unsupported keyword "version" at https://example.com/openapi.json#/info/version"#
    );
    let missing = referring(&loader, &format!("{OPENAPI}#/components/schemas/Cat")).unwrap_err();
    assert_eq!(
        missing.to_string(),
        r#"unresolved reference "https://example.com/openapi.json#/components/schemas/Cat" at /$ref"#
    );
    // Its root's `$id` names nothing.
    let mut named = openapi();
    named["$id"] = "https://example.com/named".into();
    let mut loader = Loader::new();
    loader.container_value(OPENAPI, &named).unwrap();
    let by_id = referring(&loader, "https://example.com/named#/components/schemas/Pet");
    assert_eq!(
        by_id.unwrap_err().to_string(),
        r#"unresolved reference "https://example.com/named#/components/schemas/Pet" at /$ref"#
    );
}

#[test]
fn a_schema_and_one_inside_it_may_both_be_named() {
    let loader = loader();
    let schema = loader
        .load_value(&json!({
            "properties": {
                "name": {"$ref": format!("{OPENAPI}#/components/schemas/Pet/properties/name")},
                "pet": {"$ref": format!("{OPENAPI}#/components/schemas/Pet")}
            }
        }))
        .unwrap();
    let values = [
        json!({"name": "a", "pet": {"name": "b"}}),
        json!({"name": 1}),
        json!({"pet": {"name": 1}}),
    ];
    assert_eq!(verdicts(&schema, &values), [true, false, false]);
    // Each is read once: the inner one, with its `$id`, is not defined twice.
    let mut loader = Loader::new();
    let wrapper = json!({"wrapper": {"properties": {
        "inner": {"$id": "https://example.com/inner", "type": "string"}
    }}});
    loader.container_value(OPENAPI, &wrapper).unwrap();
    let schema = loader
        .load_value(&json!({"prefixItems": [
            {"$ref": format!("{OPENAPI}#/wrapper/properties/inner")},
            {"$ref": format!("{OPENAPI}#/wrapper")}
        ]}))
        .unwrap();
    let values = [
        json!(["a", {"inner": "b"}]),
        json!([1]),
        json!(["a", {"inner": 1}]),
    ];
    assert_eq!(verdicts(&schema, &values), [true, false, false]);
}

#[test]
fn an_openapi_documents_schemas_are_read_in_its_dialect() {
    let pet = format!("{OPENAPI}#/components/schemas/Pet");
    // OpenAPI 3.1's by default, whatever the loader's default.
    let mut loader = Loader::new();
    loader.default_dialect(DRAFT_2020_12);
    loader.container_value(OPENAPI, &openapi()).unwrap();
    let schema = referring(&loader, &pet).unwrap();
    assert_eq!(
        verdicts(&schema, &[json!({"name": "a"}), json!({})]),
        [true, false]
    );
    // The one its `jsonSchemaDialect` names.
    let mut draft = openapi();
    draft["jsonSchemaDialect"] = DRAFT_2020_12.into();
    loader.container_value(OPENAPI, &draft).unwrap();
    let discriminator = r#"unsupported keyword "discriminator" at https://example.com/openapi.json#/components/schemas/Pet/discriminator"#;
    assert_eq!(
        referring(&loader, &pet).unwrap_err().to_string(),
        discriminator
    );
    draft["jsonSchemaDialect"] = "https://example.com/meta/missing".into();
    loader.container_value(OPENAPI, &draft).unwrap();
    assert_eq!(
        referring(&loader, &pet).unwrap_err().to_string(),
        r#"unknown dialect "https://example.com/meta/missing" (no meta-schema has that URI; jitson reads draft 2020-12 and the dialects built on it) at https://example.com/openapi.json#/jsonSchemaDialect"#
    );
    // Another container's schemas are read in the loader's default dialect (an OpenAPI 3.0
    // document's in OpenAPI 3.0's: tests/openapi_3_0.rs).
    let mut other = openapi();
    other.as_object_mut().unwrap().remove("openapi");
    loader.container_value(OPENAPI, &other).unwrap();
    assert_eq!(
        referring(&loader, &pet).unwrap_err().to_string(),
        discriminator
    );
    loader.default_dialect(OPENAPI_3_1);
    assert!(referring(&loader, &pet).is_ok());
}

#[test]
fn a_schema_document_under_a_containers_uri_takes_its_place() {
    let mut loader = Loader::new();
    loader.container_value(OPENAPI, &openapi()).unwrap();
    loader
        .document_value(
            OPENAPI,
            &json!({"type": "array", "$defs": {"n": {"type": "integer"}}}),
        )
        .unwrap();
    let n = referring(&loader, &format!("{OPENAPI}#/$defs/n")).unwrap();
    assert_eq!(verdicts(&n, &[json!(1), json!("1")]), [true, false]);
    // Its root is a schema now, as a container's is not.
    let root = referring(&loader, OPENAPI).unwrap();
    assert_eq!(verdicts(&root, &[json!([]), json!({})]), [true, false]);
}

#[test]
fn a_yaml_container_reads_as_the_json_it_means() {
    let yaml = br##"
openapi: 3.1.0
info: {title: Pets, version: "1.0.0"}
paths:
  /pets:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: array
              items: {$ref: "#/components/schemas/Pet"}
              maxItems: 2
components:
  schemas:
    Pet: &pet
      type: object
      required: [name]
      discriminator: {propertyName: name}
      properties:
        name: {type: string, example: Rex}
        owner: {$ref: "#/components/schemas/Owner"}
    Owner:
      $id: https://example.com/owner
      type: object
      properties: {id: {type: integer, minimum: 1}}
      required: [id]
    Copy: *pet
"##;
    let mut loader = Loader::new();
    loader.container_yaml(OPENAPI, yaml).unwrap();
    let mut copied = openapi();
    copied["components"]["schemas"]["Copy"] = copied["components"]["schemas"]["Pet"].clone();
    let json = loader_of(&copied);
    for name in ["Pet", "Owner", "Copy"] {
        let reference = format!("{OPENAPI}#/components/schemas/{name}");
        let (from_yaml, from_json) = (referring(&loader, &reference), referring(&json, &reference));
        assert_eq!(from_yaml.unwrap(), from_json.unwrap(), "{name}");
    }
    let body = format!("{OPENAPI}#/paths/~1pets/post/requestBody/content/application~1json/schema");
    let body = referring(&loader, &body).unwrap();
    let bodies = [json!([{"name": "a"}]), json!([{"name": "a"}, {}])];
    assert_eq!(verdicts(&body, &bodies), [true, false]);
    // Not YAML, or YAML that JSON cannot say: placed at the document.
    let refused = Loader::new()
        .container_yaml(OPENAPI, b"a: [1\n")
        .unwrap_err();
    assert!(
        refused
            .to_string()
            .starts_with("invalid YAML: while parsing a flow sequence"),
        "{refused}"
    );
    assert_eq!(refused.pointer(), format!("{OPENAPI}#"));
    assert_eq!(
        Loader::new()
            .container_yaml(OPENAPI, b"a: 1\na: 2\n")
            .unwrap_err()
            .to_string(),
        format!("duplicate key \"a\" at {OPENAPI}#")
    );
    assert_eq!(
        Loader::new()
            .document_yaml(OPENAPI, b"\xff")
            .unwrap_err()
            .to_string(),
        format!(
            "invalid YAML: not UTF-8: invalid utf-8 sequence of 1 bytes from index 0 in {OPENAPI}#"
        )
    );
}

/// A loader holding `doc` as the container [`OPENAPI`].
fn loader_of(doc: &Value) -> Loader {
    let mut loader = Loader::new();
    loader.container_value(OPENAPI, doc).unwrap();
    loader
}

//! The generated schema said in OpenAPI 3.0, where OpenAPI 3.0 can say it: an OpenAPI 3.0
//! document whose components are the schema (`root`) and its definitions, with
//! `[kind, "null"]` types as `nullable`, numeric exclusive bounds as boolean ones beside
//! their bound, and a `$ref` beside other keywords as an `allOf` (a Reference Object's other
//! members are ignored). Read by the loader in that document's dialect, it must give the
//! draft schema's verdict on every document.
//!
//! The translation here works on JSON, apart from the loader's own reading of OpenAPI 3.0
//! (`jitson`'s `src/schema/load/openapi_3_0.rs`), so the two check each other.

use jitson::Codec;
use jitson::schema::Loader;
use serde_json::{Map, Value as Json, json};

use super::super::schema_validate::serde_like_codec;

/// The URI the OpenAPI document is given under.
const API: &str = "https://example.com/api.json";

/// The schema `json` read from an OpenAPI 3.0 document by `loader` (with its settings),
/// compiled for the interpreter; `None` when the schema uses what OpenAPI 3.0 lacks.
///
/// # Panics
///
/// When the document does not load: the draft schema loaded, so its translation must.
pub fn codec(loader: &Loader, json: &Json) -> Option<Codec> {
    let document = document(json)?;
    let mut loader = loader.clone();
    (loader.container_value(API, &document)).expect("an OpenAPI document is a container");
    let root = json!({ "$ref": format!("{API}#/components/schemas/root") });
    let schema = (loader.load_value(&root))
        .unwrap_or_else(|e| panic!("schema {json} as OpenAPI 3.0's {document}: {e}"));
    Some(serde_like_codec(&schema))
}

/// An OpenAPI 3.0 document whose component `root` is `json` and whose other components are
/// its definitions.
fn document(json: &Json) -> Option<Json> {
    let mut root = json.clone();
    let mut schemas = Map::new();
    if let Json::Object(members) = &mut root
        && let Some(defs) = members.remove("$defs")
    {
        for (name, def) in defs.as_object()? {
            schemas.insert(name.clone(), schema(def)?);
        }
    }
    schemas.insert("root".to_owned(), schema(&root)?);
    Some(json!({
        "openapi": "3.0.3",
        "info": {"title": "generated", "version": "1"},
        "paths": {},
        "components": {"schemas": schemas}
    }))
}

/// The schema `s` in OpenAPI 3.0's words; `None` when it has none for a keyword.
fn schema(s: &Json) -> Option<Json> {
    let Json::Object(members) = s else {
        return Some(s.clone());
    };
    let mut out = Map::new();
    let mut reference = None;
    for (keyword, value) in members {
        let keyword = keyword.as_str();
        match keyword {
            "$ref" => reference = Some(component(value.as_str()?)?),
            "type" => {
                let (kind, nullable) = match value {
                    Json::String(kind) => (kind.as_str(), false),
                    Json::Array(kinds) => match &kinds[..] {
                        [kind] => (kind.as_str()?, false),
                        [kind, null] if null == "null" => (kind.as_str()?, true),
                        _ => return None,
                    },
                    _ => return None,
                };
                if kind == "null" {
                    return None;
                }
                out.insert("type".to_owned(), json!(kind));
                if nullable {
                    out.insert("nullable".to_owned(), json!(true));
                }
            }
            "exclusiveMinimum" | "exclusiveMaximum" => {
                let bound = match keyword {
                    "exclusiveMinimum" => "minimum",
                    _ => "maximum",
                };
                if members.contains_key(bound) {
                    return None;
                }
                out.insert(bound.to_owned(), value.clone());
                out.insert(keyword.to_owned(), json!(true));
            }
            "items" | "not" | "additionalProperties" => {
                out.insert(keyword.to_owned(), schema(value)?);
            }
            "properties" => {
                let properties = (value.as_object()?.iter())
                    .map(|(name, sub)| Some((name.clone(), schema(sub)?)))
                    .collect::<Option<Map<_, _>>>()?;
                out.insert(keyword.to_owned(), Json::Object(properties));
            }
            "allOf" | "anyOf" | "oneOf" => {
                let subs = (value.as_array()?.iter())
                    .map(schema)
                    .collect::<Option<_>>()?;
                out.insert(keyword.to_owned(), Json::Array(subs));
            }
            "title" | "description" | "default" | "format" | "enum" | "multipleOf" | "minimum"
            | "maximum" | "minLength" | "maxLength" | "pattern" | "minItems" | "maxItems"
            | "uniqueItems" | "required" | "minProperties" | "maxProperties" | "deprecated"
            | "readOnly" | "writeOnly" => {
                out.insert(keyword.to_owned(), value.clone());
            }
            // Annotations OpenAPI 3.0 does not have.
            "$comment" | "examples" => {}
            _ => return None,
        }
    }
    Some(match reference {
        None => Json::Object(out),
        Some(reference) if out.is_empty() => reference,
        Some(reference) => json!({"allOf": [reference, out]}),
    })
}

/// The component a `$ref` of the generated schema names (`#` is the root, `#/$defs/NAME` a
/// definition), as a reference; `None` for another (a resource's URI).
fn component(reference: &str) -> Option<Json> {
    let name = match reference {
        "#" => "root",
        _ => reference.strip_prefix("#/$defs/")?,
    };
    Some(json!({ "$ref": format!("#/components/schemas/{name}") }))
}

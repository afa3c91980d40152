//! `schema_gen`: structure-aware fuzzing of the schema pipeline. The input drives
//! [`arbitrary::Unstructured`] to generate a random JSON Schema ([`schema`]: nested objects,
//! arrays, `prefixItems`, `anyOf` / `oneOf` with and without a discriminating property,
//! `$ref` / `$defs` with recursion, bounds, `multipleOf`, enums, `const`, patterns, nullable
//! types, `additionalProperties`, `allOf` / `not` / `if`) and documents that fit it and that
//! nearly fit it ([`instance`]: one value changed).
//!
//! Half the schemas are loaded with `format` asserted ([`Loader::assert_formats`]). Each is
//! also loaded with `x-` annotations added to its schema objects (values that look like
//! schemas, `$id`s and `$ref`s among them) by a loader that takes `x-*`
//! ([`Loader::annotation_keyword`]): it must load to the same schema, or fail the same way;
//! so must it in OpenAPI 3.1's dialect, and in a meta-schema's that lists draft 2020-12's
//! vocabularies (and format assertion, where formats are asserted). Where OpenAPI 3.0 can
//! say the schema, it is also read from an OpenAPI 3.0 document ([`openapi_3_0`]), which
//! must give the same verdicts. Its JSON text, read as YAML, must load as it does as JSON.
//! Loading must succeed or fail with a [`jitson::SchemaError`], never panic, and give the same
//! schema from text as from a value; compiling must not panic (to the interpreter and to
//! native code, every tier); then every check in [`DOCUMENT_CHECKS`] runs on every document,
//! compact and pretty, and on the input's leftover bytes as a raw document.

mod instance;
mod openapi_3_0;
mod schema;

use arbitrary::Unstructured;
use jitson::schema::{Loader, OPENAPI_3_1};
use jitson::{Codec, Schema, SchemaError, TypeKey};
use serde_json::Value as Json;

use super::oracle::show;
use super::schema_decode::{native_codec, operations_agree};
use super::schema_validate::{engine_agrees, serde_like_codec};

/// One generated schema, loaded and compiled.
pub struct Case {
    /// The schema as generated (JSON Schema 2020-12).
    pub json: Json,
    /// The loaded schema.
    pub schema: Schema,
    /// Its codec, with serde_json's nesting limit.
    pub codec: Codec,
    /// The same on native code.
    pub native: Codec,
    /// The schema read from an OpenAPI 3.0 document, where OpenAPI 3.0 can say it (see
    /// [`openapi_3_0`]), on the interpreter.
    pub openapi_3_0: Option<Codec>,
}

/// A check of one document against a case: `Err` describes a disagreement.
pub type DocumentCheck = fn(&Case, &[u8]) -> Result<(), String>;

/// Every check run on every document, by name.
pub const DOCUMENT_CHECKS: &[(&str, DocumentCheck)] = &[
    ("validate", check_validate),
    (
        "decode, encode and transcode, native and interpreted",
        check_operations,
    ),
    ("OpenAPI 3.0's reading", check_openapi_3_0),
];

/// Native validate, decode, encode and transcode give the interpreter's results; on the
/// interpreter, decode and transcode agree with validate, and decode → encode → decode and
/// transcode are fixed points (see [`operations_agree`]).
fn check_operations(case: &Case, doc: &[u8]) -> Result<(), String> {
    operations_agree(&case.codec, &case.native, doc)
}

/// The schema read from an OpenAPI 3.0 document gives the draft schema's verdict.
fn check_openapi_3_0(case: &Case, doc: &[u8]) -> Result<(), String> {
    let Some(openapi) = &case.openapi_3_0 else {
        return Ok(());
    };
    let (draft, openapi) = (case.codec.validate(doc), openapi.validate(doc));
    match draft.is_ok() == openapi.is_ok() {
        true => Ok(()),
        false => Err(format!(
            "draft 2020-12: {draft:?}, OpenAPI 3.0: {openapi:?}"
        )),
    }
}

/// The engine's `validate` against the reference validator (see [`engine_agrees`]).
fn check_validate(case: &Case, doc: &[u8]) -> Result<(), String> {
    engine_agrees(&case.schema, &case.codec, doc)
}

/// How many fitting documents each case gets (each also mutated twice).
const FITTING_DOCUMENTS: usize = 3;

/// The body of the `schema_gen` target.
pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(json) = schema::generate(&mut u) else {
        return;
    };
    let mut loader = Loader::new();
    let asserts_formats = u.ratio(1, 2).unwrap_or(false);
    loader.assert_formats(asserts_formats);
    annotations_change_nothing(&mut loader, &json);
    dialects_change_nothing(&loader, &json, asserts_formats);
    yaml_changes_nothing(&loader, &json);
    let Some(case) = load(&loader, json) else {
        return;
    };
    let mut documents = Vec::new();
    for _ in 0..FITTING_DOCUMENTS {
        let Ok(fit) = instance::fitting(&mut u, &case.json) else {
            break;
        };
        for doc in [
            instance::nearly(&mut u, &fit),
            instance::nearly(&mut u, &fit),
        ] {
            documents.extend(doc.ok());
        }
        documents.push(fit);
    }
    let mut texts: Vec<Vec<u8>> = documents
        .iter()
        .flat_map(|doc| {
            [serde_json::to_vec(doc), serde_json::to_vec_pretty(doc)]
                .map(|text| text.expect("a Value always serializes"))
        })
        .collect();
    texts.push(u.take_rest().to_vec());
    for text in &texts {
        for (name, check) in DOCUMENT_CHECKS {
            if let Err(e) = check(&case, text) {
                panic!(
                    "{name} disagrees on {}\nschema {}\n{e}",
                    show(text),
                    case.json
                );
            }
        }
    }
}

/// `json` with `x-` annotations in its schema objects loads, with a loader that takes them
/// (`loader`, told so here), as `json` loads without them: the same schema and key, or a
/// load error of the same kind.
fn annotations_change_nothing(loader: &mut Loader, json: &Json) {
    loader.annotation_keyword("x-*");
    let mut annotated = json.clone();
    annotate(&mut annotated, &mut 0);
    loads_agree(
        &loader.load_value(json),
        &loader.load_value(&annotated),
        || format!("schema {json}, and annotated: {annotated}"),
    );
}

/// The URI of the meta-schema [`dialects_change_nothing`] gives its loader.
const LISTED: &str = "https://example.com/meta/listed";

/// `json` loads (by `loader`, which asserts formats or not as `asserts_formats` says) as it
/// does in OpenAPI 3.1's dialect, and as it does in the dialect of a meta-schema that lists
/// draft 2020-12's vocabularies, with format assertion in place of the loader's setting.
fn dialects_change_nothing(loader: &Loader, json: &Json, asserts_formats: bool) {
    let plain = loader.load_value(json);
    let mut openapi = loader.clone();
    openapi.default_dialect(OPENAPI_3_1);
    loads_agree(&plain, &openapi.load_value(json), || {
        format!("schema {json} in OpenAPI 3.1's dialect")
    });
    let vocabularies = [
        "core",
        "applicator",
        "unevaluated",
        "validation",
        "meta-data",
        "format-annotation",
        "content",
    ];
    let mut listed: serde_json::Map<String, Json> = (vocabularies.iter())
        .map(|v| {
            (
                format!("https://json-schema.org/draft/2020-12/vocab/{v}"),
                true.into(),
            )
        })
        .collect();
    if asserts_formats {
        let assertion = "https://json-schema.org/draft/2020-12/vocab/format-assertion";
        listed.insert(assertion.to_owned(), false.into());
    }
    let meta = serde_json::json!({ "$vocabulary": listed });
    let mut dialect = loader.clone();
    (dialect.assert_formats(false).default_dialect(LISTED))
        .document_value(LISTED, &meta)
        .expect("a meta-schema");
    loads_agree(&plain, &dialect.load_value(json), || {
        format!("schema {json} in the dialect {meta}")
    });
}

/// `json`'s text, which is YAML too, loads from a document given as YAML as it does from one
/// given as JSON: the same schema and key, or errors of one kind.
fn yaml_changes_nothing(loader: &Loader, json: &Json) {
    const URI: &str = "https://example.com/generated";
    let text = json.to_string();
    let (mut as_json, mut as_yaml) = (loader.clone(), loader.clone());
    (as_json.document_json(URI, text.as_bytes())).expect("serde_json writes JSON");
    if let Err(e) = as_yaml.document_yaml(URI, text.as_bytes()) {
        panic!("schema {text} is not read as YAML: {e}");
    }
    let root = serde_json::json!({ "$ref": URI });
    loads_agree(
        &as_json.load_value(&root),
        &as_yaml.load_value(&root),
        || format!("schema {text} read as YAML"),
    );
}

/// Two loads of one schema agree: the same schema and key, or errors of one kind. `what`
/// names the two in the message.
fn loads_agree(
    a: &Result<Schema, SchemaError>,
    b: &Result<Schema, SchemaError>,
    what: impl Fn() -> String,
) {
    match (a, b) {
        (Ok(x), Ok(y)) => {
            assert!(x == y, "{}: the schemas differ", what());
            assert_eq!(
                TypeKey::of(x, 0),
                TypeKey::of(y, 0),
                "{}: keys differ",
                what()
            );
        }
        (Err(x), Err(y)) => assert_eq!(x.kind(), y.kind(), "{}: load errors differ", what()),
        (x, y) => panic!("{}: {x:?} against {y:?}", what()),
    }
}

/// Adds an `x-` member to `schema` and every schema object under it (found through the
/// keywords that hold subschemas); `n` numbers them. The values imitate what an annotation
/// must not be read as: a schema, an `$id`, a `$ref`.
fn annotate(schema: &mut Json, n: &mut usize) {
    let Json::Object(members) = schema else {
        return;
    };
    for (keyword, value) in members.iter_mut() {
        match (keyword.as_str(), value) {
            (
                "items"
                | "contains"
                | "additionalProperties"
                | "propertyNames"
                | "not"
                | "if"
                | "then"
                | "else"
                | "unevaluatedItems"
                | "unevaluatedProperties",
                sub,
            ) => annotate(sub, n),
            (
                "properties" | "patternProperties" | "$defs" | "dependentSchemas",
                Json::Object(subs),
            ) => subs.values_mut().for_each(|sub| annotate(sub, n)),
            ("prefixItems" | "allOf" | "anyOf" | "oneOf", Json::Array(subs)) => {
                subs.iter_mut().for_each(|sub| annotate(sub, n))
            }
            _ => {}
        }
    }
    *n += 1;
    let value = match *n % 3 {
        0 => serde_json::json!({"type": "string", "maxLength": 0}),
        1 => serde_json::json!({"$id": format!("https://example.com/x{n}"), "$anchor": "a"}),
        _ => serde_json::json!([{"$ref": "#"}, false, null, 1.5]),
    };
    members.insert(format!("x-{n}"), value);
}

/// Loads (with `loader`: formats asserted or not) and compiles a generated schema; `None`
/// when it is rejected (a load error is a normal outcome: unguarded reference cycles, bad
/// patterns, unsatisfiable combinations, a format that cannot be asserted).
fn load(loader: &Loader, json: Json) -> Option<Case> {
    let from_value = loader.load_value(&json);
    let text = json.to_string();
    let from_text = loader.load_json(text.as_bytes());
    loads_agree(&from_value, &from_text, || {
        format!("schema {text}, from a value and from text")
    });
    let schema = from_value.ok()?;
    let codec = serde_like_codec(&schema);
    // The listing must render for every program (it is what `jitson explain` prints).
    let _listing = codec.program().to_string();
    let native = native_codec("generated", &schema);
    let openapi_3_0 = openapi_3_0::codec(loader, &json);
    Some(Case {
        json,
        schema,
        codec,
        native,
        openapi_3_0,
    })
}

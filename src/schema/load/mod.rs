//! The JSON Schema loader: draft 2020-12 text → [`Schema`].
//!
//! Pass 1 ([`index`]) finds every subschema and every name a `$ref` can use, and rejects any
//! keyword the engine does not implement; pass 2 ([`build`]) turns each subschema into a node;
//! then the graph is put in canonical form. Supported: `type`, `enum`, `const`, numeric bounds
//! and `multipleOf`, string lengths and `pattern`, `items`, `prefixItems`, item counts,
//! `uniqueItems`, `contains` (with `minContains`, `maxContains`), `properties`, `required`,
//! `patternProperties`, `additionalProperties`, `unevaluatedProperties` and
//! `unevaluatedItems` (beside branches: checked per case of `anyOf` / `oneOf` branches, `if`
//! outcomes and `dependentSchemas` members, at most 16 cases; see [`unevaluated`]), member
//! counts (`minProperties`, `maxProperties`),
//! `dependentRequired`, `dependentSchemas` (and draft 7's `dependencies`, read as those two),
//! `propertyNames`, `anyOf`, `oneOf`, `allOf`, `not`,
//! `if`/`then`/`else`, `$ref` (JSON Pointers, `$id` resources, `$anchor`s within the
//! document and within the documents a [`Loader`] was given), `$dynamicRef` and
//! `$dynamicAnchor` (resolved by dynamic scope at load time; see [`dynamic`]), `$defs` /
//! `definitions`;
//! annotations `$schema`, `$id`, `$anchor`, `$comment`, `title`, `description`, `examples`,
//! `default`, `deprecated`, `readOnly`, `writeOnly`, `format` (asserted when the [`Loader`]
//! is told to: [`Loader::assert_formats`]), `contentMediaType`, `contentEncoding`,
//! `contentSchema` (a schema, indexed for `$ref`s, never applied), `$vocabulary` (what a
//! meta-schema's schemas may use; nothing about its own instances), and the keywords a
//! [`Loader`] was told to take as annotations ([`Loader::annotation_keyword`]). The draft
//! 2020-12 meta-schemas are built in ([`meta`]). `$schema` names the dialect ([`dialect`]):
//! draft 2020-12, OpenAPI 3.1's, OpenAPI 3.0's (read as the draft 2020-12 schemas its schema
//! objects mean: [`openapi_3_0`]), or a meta-schema's `$vocabulary`.

mod build;
mod dialect;
mod dynamic;
mod index;
mod loader;
mod meta;
mod openapi_3_0;
mod unevaluated;

pub use dialect::{OPENAPI_3_0, OPENAPI_3_1};
pub(crate) use dynamic::MAX_COPIES;
pub use loader::Loader;
use loader::{Documents, Settings};
pub use meta::DRAFT_2020_12;

use crate::schema::doc::Doc;
use crate::schema::format::{Format, Known};
use crate::schema::model::Graph;
use crate::schema::{Schema, SchemaError, SchemaErrorKind, TypeId, canon};
use serde_json::Value;

impl Schema {
    /// Loads a JSON Schema (draft 2020-12) from JSON text.
    pub fn from_json_str(text: &str) -> Result<Schema, SchemaError> {
        Schema::from_json_slice(text.as_bytes())
    }

    /// Loads a JSON Schema (draft 2020-12) from JSON bytes.
    pub fn from_json_slice(bytes: &[u8]) -> Result<Schema, SchemaError> {
        load(&Doc::parse(bytes)?)
    }

    /// Loads a JSON Schema from a parsed value. Field order is the value's member order
    /// (sorted by name unless serde_json's `preserve_order` feature is on). Native code
    /// expects members in field order first, so documents whose members come in another
    /// order validate and decode somewhat slower than under the same schema loaded from its
    /// text ([`Schema::from_json_slice`] keeps the text's order).
    pub fn from_value(value: &Value) -> Result<Schema, SchemaError> {
        load(&Doc::from_value(value))
    }
}

impl std::str::FromStr for Schema {
    type Err = SchemaError;

    fn from_str(text: &str) -> Result<Schema, SchemaError> {
        Schema::from_json_str(text)
    }
}

fn load(doc: &Doc) -> Result<Schema, SchemaError> {
    load_with(
        doc,
        &Documents::default(),
        &Settings::default(),
        &mut Vec::new(),
    )
}

/// Loads the schema `doc`, whose `$ref`s may also name the `documents` (by URI), as the
/// loader's `settings` say. Appends to `read` the URIs of the `documents` the references
/// read, once the references are resolved (so also when a later step fails).
fn load_with(
    doc: &Doc,
    documents: &Documents,
    settings: &Settings,
    read: &mut Vec<String>,
) -> Result<Schema, SchemaError> {
    let graph = raw_graph(doc, documents, settings, read)?;
    canon::finish(graph, TypeId(0))
}

/// The [`Format`] a string's `format: name` (written at `at`) asserts where formats are
/// assertions; a format the draft defines that the engine cannot check is
/// [`SchemaErrorKind::UnsupportedFormat`]. Other names stay annotations (`None`).
fn asserted_format(name: &str, at: String) -> Result<Option<Format>, SchemaError> {
    match Format::known(name) {
        Known::Checked(f) => Ok(Some(f)),
        Known::Unchecked => {
            let kind = SchemaErrorKind::UnsupportedFormat(name.to_owned());
            Err(SchemaError::new(kind, at))
        }
        Known::Unknown => Ok(None),
    }
}

/// The document's raw graph, before canonicalization (the root is node 0), with the
/// `documents` its `$ref`s may name, read as `settings` say; appends to `read` the URIs of
/// the documents it read.
pub(crate) fn raw_graph(
    doc: &Doc,
    documents: &Documents,
    settings: &Settings,
    read: &mut Vec<String>,
) -> Result<Graph, SchemaError> {
    doc.check_unique_keys("")?;
    let index = index::Index::build(doc, documents, settings)?;
    read.extend_from_slice(&index.documents_read);
    dynamic::resolve(&index, build::build(&index)?)
}

//! [`Loader`]: a JSON Schema loader that knows more documents than the schema's own, for the
//! `$ref`s that name them (a schema split over several files, shared definitions).

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::load_with;
use crate::schema::doc::Doc;
use crate::schema::{Schema, SchemaError, SchemaErrorKind, uri};

/// Loads JSON Schemas (draft 2020-12) whose `$ref`s may name other documents, given to it by
/// URI beforehand. jitson fetches nothing: a `$ref` to a document it was not given is
/// [`SchemaErrorKind::UnresolvedRef`], as without a loader, unless it is one of the draft
/// 2020-12 meta-schemas, which every loader knows (see
/// [`DRAFT_2020_12`](crate::schema::DRAFT_2020_12)); a document given under the same URI
/// takes the built-in one's place.
///
/// A document is read only when a `$ref` of the schema, or of a document already read,
/// names it (by its URI or its root's `$id`, with or without a fragment), so unused
/// documents may hold keywords the engine does not implement. A document's `$ref`s resolve
/// against its root's `$id` when it has one, else against its URI. Load errors inside a
/// document are placed at the document's URI, `#`, and the JSON Pointer within it.
///
/// Documents come as JSON ([`Loader::document_json`]) or, with the `yaml` feature (a default
/// one), as YAML (`Loader::document_yaml`), and so do containers of schemas that are no schema
/// themselves, as OpenAPI documents are ([`Loader::container_json`],
/// `Loader::container_yaml`).
///
/// ```
/// use jitson::schema::Loader;
///
/// let mut loader = Loader::new();
/// loader.document_json("https://example.com/common.json", br#"{
///     "$defs": {"id": {"type": "integer", "minimum": 1}}
/// }"#)?;
/// let schema = loader.load_json(br#"{
///     "$id": "https://example.com/user.json",
///     "properties": {"id": {"$ref": "common.json#/$defs/id"}}
/// }"#)?;
/// assert!(schema.validate_value(&serde_json::json!({"id": 7})).is_ok());
/// assert!(schema.validate_value(&serde_json::json!({"id": 0})).is_err());
/// # Ok::<(), jitson::SchemaError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Loader {
    documents: Documents,
    settings: Settings,
}

/// How a [`Loader`] reads schemas, beside its documents.
#[derive(Clone, Debug, Default)]
pub(crate) struct Settings {
    /// `format` asserted ([`Loader::assert_formats`]).
    pub(crate) assert_formats: bool,
    /// Keywords taken as annotations beyond the draft's ([`Loader::annotation_keyword`]).
    pub(crate) annotations: AnnotationKeywords,
    /// The dialect of a document that names none ([`Loader::default_dialect`]).
    pub(crate) dialect: Option<String>,
}

/// Keywords the engine does not implement that a [`Loader`] was told to take as annotations:
/// whole names, and prefixes (from names ending in `*`).
#[derive(Clone, Debug, Default)]
pub(crate) struct AnnotationKeywords {
    names: Vec<String>,
    prefixes: Vec<String>,
}

impl AnnotationKeywords {
    /// Whether `keyword` is one of them.
    pub(crate) fn take(&self, keyword: &str) -> bool {
        self.names.iter().any(|n| n == keyword)
            || self
                .prefixes
                .iter()
                .any(|p| keyword.starts_with(p.as_str()))
    }
}

/// The documents a [`Loader`] was given, and the names `$ref`s may use for them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Documents {
    /// Each document with the URI it was given under.
    pub(crate) list: Vec<(String, Doc)>,
    /// Each document's URI and its root's `$id` (resolved, without fragment) → its index; a
    /// container's URI only.
    pub(crate) names: HashMap<String, usize>,
    /// The URIs of the documents given as containers of schemas
    /// ([`Loader::container_json`]).
    containers: HashSet<String>,
}

impl Documents {
    /// The index of the document named `uri`.
    pub(crate) fn named(&self, uri: &str) -> Option<usize> {
        self.names.get(uri).copied()
    }

    /// The container (given under `uri`, a URI without fragment), if `uri` names one.
    pub(crate) fn container(&self, uri: &str) -> Option<&(String, Doc)> {
        (self.containers.contains(uri)).then(|| &self.list[self.names[uri]])
    }

    /// Removes the document given under `uri`, if any. The names it held go: its URI, and
    /// its `$id` to the first remaining document (in the order given) that declares it and
    /// is not named otherwise.
    fn remove(&mut self, uri: &str) {
        let Some(at) = self.list.iter().position(|(given, _)| given == uri) else {
            return;
        };
        self.list.remove(at);
        self.containers.remove(uri);
        self.names.retain(|_, i| *i != at);
        for i in self.names.values_mut() {
            if *i > at {
                *i -= 1;
            }
        }
        for (k, (given, doc)) in self.list.iter().enumerate() {
            if self.containers.contains(given) {
                continue;
            }
            if let Some(id) = document_id(given, doc) {
                self.names.entry(id).or_insert(k);
            }
        }
    }

    /// Adds `doc` under `uri` (a schema, or a container of schemas when `container`), in
    /// place of the document given under `uri` before (whose `$id` then names nothing). A
    /// URI a document was given under names that document, whatever another's `$id`; of two
    /// documents with one `$id`, the first keeps it. A container's `$id` names nothing.
    pub(crate) fn add(&mut self, uri: String, doc: Doc, container: bool) {
        let id = document_id(&uri, &doc).filter(|_| !container);
        match container {
            true => self.containers.insert(uri.clone()),
            false => self.containers.remove(&uri),
        };
        let at = match self.list.iter().position(|(given, _)| *given == uri) {
            Some(at) => {
                self.names.retain(|_, &mut i| i != at);
                self.list[at].1 = doc;
                at
            }
            None => {
                self.list.push((uri.clone(), doc));
                self.list.len() - 1
            }
        };
        self.names.insert(uri, at);
        if let Some(id) = id.filter(|id| !self.list.iter().any(|(given, _)| given == id)) {
            self.names.entry(id).or_insert(at);
        }
    }
}

impl Loader {
    /// A loader that knows no document beside the schema's own.
    pub fn new() -> Loader {
        Loader::default()
    }

    /// Makes `format` an assertion (when `yes`) in the schemas this loader loads: a string
    /// must then have the format its schema names, if the engine knows the name (see
    /// [`Format`](crate::schema::Format)); `int32` and other names the draft does not
    /// define stay annotations. `idn-email` and `idn-hostname`, which the engine cannot
    /// check, are then [`SchemaErrorKind::UnsupportedFormat`]. By default `format` is an
    /// annotation, as draft 2020-12 has it.
    ///
    /// ```
    /// use jitson::schema::Loader;
    ///
    /// let schema = Loader::new()
    ///     .assert_formats(true)
    ///     .load_json(br#"{"type": "string", "format": "date"}"#)?;
    /// assert!(schema.validate_value(&serde_json::json!("2024-02-29")).is_ok());
    /// assert!(schema.validate_value(&serde_json::json!("2023-02-29")).is_err());
    /// # Ok::<(), jitson::SchemaError>(())
    /// ```
    pub fn assert_formats(&mut self, yes: bool) -> &mut Loader {
        self.settings.assert_formats = yes;
        self
    }

    /// Takes `keyword` as an annotation in the schemas this loader loads: any value, checked
    /// by nothing, its contents no schema (a `$ref` cannot point into it, an `$id` in it
    /// names nothing). A name ending in `*` takes every keyword it begins (`x-*`); `*` alone
    /// takes every keyword, as validators that ignore unknown keywords do. Keywords the
    /// engine implements keep their meaning.
    ///
    /// Without it a keyword the engine does not implement is
    /// [`SchemaErrorKind::UnsupportedKeyword`], so that a misspelt `"minimun": 1` is an error
    /// rather than a rule silently dropped. OpenAPI 3.1 schemas need `discriminator`,
    /// `example`, `xml`, `externalDocs` and `x-` extensions, which OpenAPI's dialect takes
    /// (see [`OPENAPI_3_1`](crate::schema::OPENAPI_3_1)).
    ///
    /// ```
    /// use jitson::schema::{Loader, SchemaErrorKind};
    ///
    /// let text = br#"{"type": "object", "discriminator": {"propertyName": "kind"},
    ///                 "example": {"kind": "cat"}, "x-owner": "pets"}"#;
    /// let refused = Loader::new().load_json(text).unwrap_err();
    /// assert_eq!(refused.to_string(), r#"unsupported keyword "discriminator" at /discriminator"#);
    /// let schema = Loader::new()
    ///     .annotation_keyword("discriminator")
    ///     .annotation_keyword("example")
    ///     .annotation_keyword("x-*")
    ///     .load_json(text)?;
    /// assert!(schema.validate_value(&serde_json::json!({"kind": 1})).is_ok());
    /// # Ok::<(), jitson::SchemaError>(())
    /// ```
    pub fn annotation_keyword(&mut self, keyword: &str) -> &mut Loader {
        let annotations = &mut self.settings.annotations;
        match keyword.strip_suffix('*') {
            Some(prefix) => annotations.prefixes.push(prefix.to_owned()),
            None => annotations.names.push(keyword.to_owned()),
        }
        self
    }

    /// Makes the dialect `uri` names the dialect of every document this loader reads (the
    /// schema's own and those its references name) whose root has no `$schema`, as an
    /// OpenAPI 3.1 document's `jsonSchemaDialect` does for its schemas. `$schema` and this
    /// setting name the same dialects: draft 2020-12's
    /// ([`DRAFT_2020_12`](crate::schema::DRAFT_2020_12), the default), OpenAPI 3.1's
    /// ([`OPENAPI_3_1`](crate::schema::OPENAPI_3_1)), and that of any meta-schema among the
    /// loader's documents, whose `$vocabulary` says which vocabularies its schemas use: a
    /// keyword of a draft vocabulary it leaves out is an annotation, the format-assertion
    /// vocabulary makes `format` an assertion, and a required vocabulary the engine does not
    /// implement is [`SchemaErrorKind::UnsupportedVocabulary`]. A loader that cannot find the
    /// dialect fails every load with [`SchemaErrorKind::UnsupportedDialect`].
    ///
    /// ```
    /// use jitson::schema::Loader;
    ///
    /// let mut loader = Loader::new();
    /// loader.document_json("https://example.com/no-validation", br#"{
    ///     "$schema": "https://json-schema.org/draft/2020-12/schema",
    ///     "$vocabulary": {
    ///         "https://json-schema.org/draft/2020-12/vocab/core": true,
    ///         "https://json-schema.org/draft/2020-12/vocab/applicator": true
    ///     }
    /// }"#)?;
    /// loader.default_dialect("https://example.com/no-validation");
    /// let schema = loader.load_json(br#"{"properties": {"a": {"minimum": 10}, "b": false}}"#)?;
    /// assert!(schema.validate_value(&serde_json::json!({"a": 1})).is_ok());
    /// assert!(schema.validate_value(&serde_json::json!({"b": 1})).is_err());
    /// # Ok::<(), jitson::SchemaError>(())
    /// ```
    pub fn default_dialect(&mut self, uri: &str) -> &mut Loader {
        self.settings.dialect = Some(uri.to_owned());
        self
    }

    /// Adds the document in `text` under `uri` (absolute, or relative as a schema without
    /// `$id` writes its `$ref`s; no fragment but an empty one). A document added again under
    /// the same URI replaces the first.
    ///
    /// Errors: [`SchemaErrorKind::DocumentUri`] for an empty URI or one with a fragment;
    /// [`SchemaErrorKind::Json`] and [`SchemaErrorKind::DuplicateKey`] for the text.
    pub fn document_json(&mut self, uri: &str, text: &[u8]) -> Result<&mut Loader, SchemaError> {
        let uri = document_uri(uri)?;
        let doc = json_doc(&uri, text)?;
        self.add(uri, doc, false)
    }

    /// [`Loader::document_json`] for a parsed document (its members in the value's order).
    pub fn document_value(&mut self, uri: &str, value: &Value) -> Result<&mut Loader, SchemaError> {
        let uri = document_uri(uri)?;
        self.add(uri, Doc::from_value(value), false)
    }

    /// Loads the schema in `text`, as [`Schema::from_json_slice`] does, with this loader's
    /// documents.
    pub fn load_json(&self, text: &[u8]) -> Result<Schema, SchemaError> {
        self.load_json_reading(text, &mut Vec::new())
    }

    /// [`Loader::load_json`], appending to `read` the URIs (as given) of this loader's
    /// documents that the schema's references read, directly or through another document.
    pub(crate) fn load_json_reading(
        &self,
        text: &[u8],
        read: &mut Vec<String>,
    ) -> Result<Schema, SchemaError> {
        let doc = Doc::parse(text)?;
        load_with(&doc, &self.documents, &self.settings, read)
    }

    /// Forgets the document given under `uri` (as [`Loader::document_json`] takes it); an
    /// `$id` it held goes to the first remaining document that declares it.
    pub(crate) fn remove_document(&mut self, uri: &str) {
        if let Ok(uri) = document_uri(uri) {
            self.documents.remove(&uri);
        }
    }

    /// Loads the schema `value`, as [`Schema::from_value`] does, with this loader's
    /// documents.
    pub fn load_value(&self, value: &Value) -> Result<Schema, SchemaError> {
        load_with(
            &Doc::from_value(value),
            &self.documents,
            &self.settings,
            &mut Vec::new(),
        )
    }

    /// Adds the JSON document in `text` under `uri`, as [`Loader::document_json`] does, as a
    /// container of schemas: a document that is not a schema itself but holds some, as an
    /// OpenAPI document holds its components' schemas and its operations' body schemas. A
    /// `$ref` names a schema in it by JSON Pointer (`openapi.json#/components/schemas/Pet`),
    /// and only the values references name are read, each as a schema, with the container's
    /// URI as base URI. Unless it names its own, a schema's dialect is, in an OpenAPI 3.1
    /// document (`"openapi": "3.1.…"`), the one its `jsonSchemaDialect` names or else
    /// OpenAPI's ([`OPENAPI_3_1`](crate::schema::OPENAPI_3_1)), as OpenAPI has it; in an
    /// OpenAPI 3.0 document, OpenAPI 3.0's ([`OPENAPI_3_0`](crate::schema::OPENAPI_3_0)); in
    /// another container, the loader's default ([`Loader::default_dialect`]). The container's
    /// root is no schema (a `$ref` to it, or to an anchor not inside a schema read, does not
    /// resolve), and its root's `$id` names nothing.
    ///
    /// ```
    /// use jitson::schema::Loader;
    ///
    /// let mut loader = Loader::new();
    /// loader.container_json("https://example.com/openapi.json", br##"{
    ///     "openapi": "3.1.0",
    ///     "info": {"title": "Pets", "version": "1"},
    ///     "components": {"schemas": {
    ///         "Pet": {"type": "object", "required": ["name"],
    ///                 "properties": {"name": {"type": "string"}, "owner": {"$ref": "#/components/schemas/Owner"}}},
    ///         "Owner": {"type": "object", "required": ["id"], "example": {"id": 1}}
    ///     }}
    /// }"##)?;
    /// let pet = loader.load_json(br#"{"$ref": "https://example.com/openapi.json#/components/schemas/Pet"}"#)?;
    /// assert!(pet.validate_value(&serde_json::json!({"name": "Rex", "owner": {"id": 1}})).is_ok());
    /// assert!(pet.validate_value(&serde_json::json!({"name": "Rex", "owner": {}})).is_err());
    /// # Ok::<(), jitson::SchemaError>(())
    /// ```
    pub fn container_json(&mut self, uri: &str, text: &[u8]) -> Result<&mut Loader, SchemaError> {
        let uri = document_uri(uri)?;
        let doc = json_doc(&uri, text)?;
        self.add(uri, doc, true)
    }

    /// [`Loader::container_json`] for a parsed document (its members in the value's order).
    pub fn container_value(
        &mut self,
        uri: &str,
        value: &Value,
    ) -> Result<&mut Loader, SchemaError> {
        let uri = document_uri(uri)?;
        self.add(uri, Doc::from_value(value), true)
    }

    /// [`Loader::container_json`] for a document written in YAML, as OpenAPI documents often
    /// are. YAML reads as the JSON its core schema means: plain `null`, booleans and numbers
    /// as such, every other scalar a string (`yes` and `1.2.3` too), mapping keys as strings
    /// (`200:` is `"200"`), aliases as copies of what their anchors name (bounded: the copies
    /// may make the document at most 16 times its YAML text, and at least 1 MiB).
    ///
    /// Errors: [`SchemaErrorKind::Yaml`] for a text that is not one YAML document, or says what
    /// JSON cannot (`.inf`, a mapping as a key, merge keys, tags beyond the core schema's);
    /// then as [`Loader::container_json`]'s.
    ///
    /// ```
    /// use jitson::schema::Loader;
    ///
    /// let mut loader = Loader::new();
    /// loader.container_yaml("https://example.com/openapi.yaml", b"
    /// openapi: 3.0.3
    /// info: {title: Pets, version: '1'}
    /// paths: {}
    /// components:
    ///   schemas:
    ///     Pet:
    ///       type: object
    ///       required: [name]
    ///       properties:
    ///         name: {type: string, nullable: true}
    /// ")?;
    /// let pet = loader.load_json(br#"{"$ref": "https://example.com/openapi.yaml#/components/schemas/Pet"}"#)?;
    /// assert!(pet.validate_value(&serde_json::json!({"name": null})).is_ok());
    /// assert!(pet.validate_value(&serde_json::json!({})).is_err());
    /// # Ok::<(), jitson::SchemaError>(())
    /// ```
    #[cfg(feature = "yaml")]
    pub fn container_yaml(&mut self, uri: &str, text: &[u8]) -> Result<&mut Loader, SchemaError> {
        let uri = document_uri(uri)?;
        let doc = yaml_doc(&uri, text)?;
        self.add(uri, doc, true)
    }

    /// [`Loader::document_json`] for a document written in YAML, read as
    /// [`Loader::container_yaml`] reads one.
    #[cfg(feature = "yaml")]
    pub fn document_yaml(&mut self, uri: &str, text: &[u8]) -> Result<&mut Loader, SchemaError> {
        let uri = document_uri(uri)?;
        let doc = yaml_doc(&uri, text)?;
        self.add(uri, doc, false)
    }

    fn add(&mut self, uri: String, doc: Doc, container: bool) -> Result<&mut Loader, SchemaError> {
        doc.check_unique_keys(&format!("{uri}#"))?;
        self.documents.add(uri, doc, container);
        Ok(self)
    }
}

/// The JSON document `text` given under `uri` as a document.
fn json_doc(uri: &str, text: &[u8]) -> Result<Doc, SchemaError> {
    Doc::parse(text).map_err(|e| e.at(format!("{uri}#")))
}

/// The YAML document `text` given under `uri` as a document.
#[cfg(feature = "yaml")]
fn yaml_doc(uri: &str, text: &[u8]) -> Result<Doc, SchemaError> {
    let at = || format!("{uri}#");
    let text = std::str::from_utf8(text)
        .map_err(|e| SchemaError::new(SchemaErrorKind::Yaml(format!("not UTF-8: {e}")), at()))?;
    let json = super::super::yaml::to_json(text).map_err(|kind| SchemaError::new(kind, at()))?;
    Doc::parse(json.as_bytes()).map_err(|e| {
        // Nested too deeply for serde_json, say: its position is in the JSON text.
        let kind = match e.kind() {
            SchemaErrorKind::Json(message) => SchemaErrorKind::Yaml(format!("as JSON, {message}")),
            kind => kind.clone(),
        };
        SchemaError::new(kind, at())
    })
}

/// The resolved `$id` of the root of `doc`, given under `uri`, when it names a whole
/// document.
fn document_id(uri: &str, doc: &Doc) -> Option<String> {
    match doc.get("$id") {
        Some(Doc::String(id)) => whole_document(&uri::resolve(uri, id)),
        _ => None,
    }
}

/// `uri` as the loader keys it (dot segments removed), or the error for a URI no `$ref` can
/// name as a whole document.
fn document_uri(uri: &str) -> Result<String, SchemaError> {
    whole_document(&uri::resolve("", uri)).ok_or_else(|| {
        SchemaError::new(SchemaErrorKind::DocumentUri(uri.to_owned()), String::new())
    })
}

/// `uri` without its fragment, when the fragment is empty or absent and the rest is not
/// empty: a URI that names a whole document.
fn whole_document(uri: &str) -> Option<String> {
    match uri::split_fragment(uri) {
        (resource, None | Some("")) if !resource.is_empty() => Some(resource.to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `value` is valid against `{"$ref": reference}` loaded by `loader`.
    fn valid(loader: &Loader, reference: &str, value: serde_json::Value) -> bool {
        let schema = loader.load_value(&serde_json::json!({ "$ref": reference }));
        schema.expect("schema").validate_value(&value).is_ok()
    }

    #[test]
    fn removing_a_document_keeps_the_others_names() {
        let mut loader = Loader::new();
        let doc = |kind: &str| format!(r#"{{"$id": "https://e.com/{kind}", "type": "{kind}"}}"#);
        for (uri, text) in [
            ("a.json", doc("integer")),
            ("b.json", doc("string")),
            ("c.json", doc("boolean")),
        ] {
            loader.document_json(uri, text.as_bytes()).unwrap();
        }
        loader.remove_document("a.json");
        let mut read = Vec::new();
        assert!(
            loader
                .load_json_reading(br#"{"$ref": "a.json"}"#, &mut read)
                .is_err()
        );
        assert!(valid(&loader, "b.json", "x".into()));
        assert!(valid(&loader, "https://e.com/string", "x".into()));
        assert!(valid(&loader, "c.json", true.into()));
        assert!(valid(&loader, "https://e.com/boolean", true.into()));
        let mut read = Vec::new();
        loader
            .load_json_reading(br#"{"$ref": "https://e.com/boolean"}"#, &mut read)
            .unwrap();
        assert_eq!(read, ["c.json"]);
    }

    #[test]
    fn a_removed_documents_id_goes_to_the_next_that_declares_it() {
        let mut loader = Loader::new();
        let doc = |kind: &str| format!(r#"{{"$id": "https://e.com/id", "type": "{kind}"}}"#);
        loader
            .document_json("a.json", doc("integer").as_bytes())
            .unwrap();
        loader
            .document_json("b.json", doc("string").as_bytes())
            .unwrap();
        assert!(valid(&loader, "https://e.com/id", 1.into()));
        loader.remove_document("a.json");
        assert!(valid(&loader, "https://e.com/id", "x".into()));
        loader.remove_document("b.json");
        let unresolved = loader.load_json(br#"{"$ref": "https://e.com/id"}"#);
        assert!(unresolved.is_err());
    }
}

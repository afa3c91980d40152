//! Dialects: which vocabularies a schema uses, as the meta-schema its `$schema` names declares
//! them in `$vocabulary`. A keyword of a vocabulary the dialect does not use is an annotation;
//! the format-assertion vocabulary makes `format` an assertion.

use super::index::invalid;
use super::loader::Documents;
use super::meta::{self, DRAFT_2020_12};
use crate::schema::doc::Doc;
use crate::schema::{SchemaError, SchemaErrorKind, uri};

/// The OpenAPI 3.1 schema dialect (`jsonSchemaDialect`'s default in an OpenAPI 3.1
/// document): draft 2020-12 with OpenAPI's vocabulary, whose keywords `discriminator`,
/// `xml`, `externalDocs` and `example`, and whose `x-` extensions, are annotations.
/// `$schema` may name it, and
/// [`Loader::default_dialect`](crate::schema::Loader::default_dialect) make it the dialect of
/// every schema that names none:
///
/// ```
/// use jitson::schema::{Loader, OPENAPI_3_1};
///
/// let mut loader = Loader::new();
/// loader.default_dialect(OPENAPI_3_1);
/// let schema = loader.load_json(br#"{
///     "type": "object",
///     "discriminator": {"propertyName": "kind"},
///     "properties": {"kind": {"type": "string", "example": "cat"}}
/// }"#)?;
/// assert!(schema.validate_value(&serde_json::json!({"kind": 1})).is_err());
/// # Ok::<(), jitson::SchemaError>(())
/// ```
pub const OPENAPI_3_1: &str = "https://spec.openapis.org/oas/3.1/dialect/base";

/// OpenAPI 3.0's schema objects (the dialect of the schemas in an OpenAPI 3.0 document; the
/// URI of the Schema Object's definition in OpenAPI 3.0's own schema). They are read as the
/// draft 2020-12 schemas they mean:
/// - `nullable: true` adds `"null"` to the `type` beside it (with no `type` it changes
///   nothing, and an `enum` without `null` still refuses `null`, as OpenAPI 3.0.3 has it);
/// - `exclusiveMinimum: true` makes the `minimum` beside it exclusive (`exclusiveMaximum`
///   likewise); either without its bound is an error;
/// - an object with `$ref` is the schema the reference names: the other members are
///   ignored, as a Reference Object's are;
/// - `type` names one type; `$id`, `$defs`, `const`, `if` and the other keywords OpenAPI 3.0
///   does not have are [`SchemaErrorKind::UnsupportedKeyword`] (unless
///   [`Loader::annotation_keyword`](crate::schema::Loader::annotation_keyword) names them:
///   they are then ignored); `discriminator`, `xml`, `externalDocs`, `example` and `x-`
///   extensions are annotations.
///
/// A container whose `openapi` is `3.0.…` has its schemas read in it, and
/// [`Loader::default_dialect`](crate::schema::Loader::default_dialect) makes it the dialect of
/// every document:
///
/// ```
/// use jitson::schema::{Loader, OPENAPI_3_0};
///
/// let mut loader = Loader::new();
/// loader.default_dialect(OPENAPI_3_0);
/// let schema = loader.load_json(br#"{
///     "type": "integer", "nullable": true,
///     "minimum": 0, "exclusiveMinimum": true, "x-unit": "seconds"
/// }"#)?;
/// assert!(schema.validate_value(&serde_json::json!(null)).is_ok());
/// assert!(schema.validate_value(&serde_json::json!(0)).is_err());
/// # Ok::<(), jitson::SchemaError>(())
/// ```
pub const OPENAPI_3_0: &str =
    "https://spec.openapis.org/oas/3.0/schema/2021-09-28#/definitions/Schema";

/// A vocabulary the engine implements: a set of keywords that a dialect uses or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Vocabulary {
    /// `$id`, `$ref`, `$defs`…: always used.
    Core,
    /// Subschema keywords: `properties`, `items`, `allOf`, `if`…
    Applicator,
    /// `unevaluatedProperties`, `unevaluatedItems`.
    Unevaluated,
    /// Assertions on values: `type`, `minimum`, `required`…
    Validation,
    /// `title`, `description`, `default`…
    MetaData,
    /// `format` as an annotation.
    FormatAnnotation,
    /// `format` as an assertion.
    FormatAssertion,
    /// `contentMediaType`, `contentEncoding`, `contentSchema`.
    Content,
    /// OpenAPI 3.1's `discriminator`, `xml`, `externalDocs`, `example`, and `x-` extensions.
    OpenApi,
    /// OpenAPI 3.0's schema object rules (see [`OPENAPI_3_0`]); no `$vocabulary` names it.
    OpenApi30,
}

/// Each vocabulary's URI, as `$vocabulary` names it.
const URIS: &[(&str, Vocabulary)] = &[
    (
        "https://json-schema.org/draft/2020-12/vocab/core",
        Vocabulary::Core,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/applicator",
        Vocabulary::Applicator,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/unevaluated",
        Vocabulary::Unevaluated,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/validation",
        Vocabulary::Validation,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/meta-data",
        Vocabulary::MetaData,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/format-annotation",
        Vocabulary::FormatAnnotation,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/format-assertion",
        Vocabulary::FormatAssertion,
    ),
    (
        "https://json-schema.org/draft/2020-12/vocab/content",
        Vocabulary::Content,
    ),
    (
        "https://spec.openapis.org/oas/3.1/vocab/base",
        Vocabulary::OpenApi,
    ),
];

/// The vocabularies a schema uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dialect(u16);

impl Dialect {
    /// Draft 2020-12's own: every vocabulary of the draft but format assertion.
    pub(crate) const DRAFT_2020_12: Dialect = Dialect::of(&[
        Vocabulary::Core,
        Vocabulary::Applicator,
        Vocabulary::Unevaluated,
        Vocabulary::Validation,
        Vocabulary::MetaData,
        Vocabulary::FormatAnnotation,
        Vocabulary::Content,
    ]);

    const OPENAPI_3_1: Dialect =
        Dialect(Dialect::DRAFT_2020_12.0 | 1 << Vocabulary::OpenApi as u16);

    /// The keywords OpenAPI 3.0 shares with draft 2020-12, and OpenAPI's annotations, mean
    /// what they mean there; [`Vocabulary::OpenApi30`] adds 3.0's own rules.
    const OPENAPI_3_0: Dialect =
        Dialect(Dialect::OPENAPI_3_1.0 | 1 << Vocabulary::OpenApi30 as u16);

    const fn of(vocabularies: &[Vocabulary]) -> Dialect {
        let mut bits = 0;
        let mut i = 0;
        while i < vocabularies.len() {
            bits |= 1 << vocabularies[i] as u16;
            i += 1;
        }
        Dialect(bits)
    }

    /// Whether the dialect uses `vocabulary`.
    pub(crate) fn uses(self, vocabulary: Vocabulary) -> bool {
        self.0 & 1 << vocabulary as u16 != 0
    }

    /// Whether `format` is an assertion in this dialect.
    pub(crate) fn asserts_formats(self) -> bool {
        self.uses(Vocabulary::FormatAssertion)
    }

    /// Whether a keyword of `vocabulary` has its meaning here: its vocabulary is used, or it
    /// is `format` and either format vocabulary is.
    pub(crate) fn means(self, vocabulary: Vocabulary) -> bool {
        self.uses(vocabulary)
            || vocabulary == Vocabulary::FormatAnnotation && self.uses(Vocabulary::FormatAssertion)
    }

    /// The dialect whose meta-schema is the document `meta` (`$schema` named it `uri`): the
    /// vocabularies its `$vocabulary` lists, or draft 2020-12's when it has none. The core
    /// vocabulary is used whatever it says; a vocabulary the engine does not implement is
    /// ignored when optional (`false`) and refused when required.
    fn declared(uri: &str, meta: &Doc) -> Result<Dialect, SchemaErrorKind> {
        let Some(declared) = meta.get("$vocabulary") else {
            return Ok(Dialect::DRAFT_2020_12);
        };
        let Doc::Object(members) = declared else {
            return Err(SchemaErrorKind::InvalidValue {
                keyword: "$vocabulary".to_owned(),
                expected: "an object of booleans",
            });
        };
        let mut dialect = Dialect::of(&[Vocabulary::Core]);
        for (name, required) in members {
            match URIS.iter().find(|(u, _)| u == name) {
                Some(&(_, vocabulary)) => dialect.0 |= 1 << vocabulary as u16,
                None if matches!(required, Doc::Bool(false)) => {}
                None => {
                    return Err(SchemaErrorKind::UnsupportedVocabulary {
                        dialect: uri.into(),
                        vocabulary: name.clone(),
                    });
                }
            }
        }
        Ok(dialect)
    }
}

/// Finds the dialect a `$schema` (or [`Loader::default_dialect`]) names.
///
/// [`Loader::default_dialect`]: crate::schema::Loader::default_dialect
pub(crate) struct Dialects<'d> {
    documents: &'d Documents,
    /// The dialects found so far, by URI.
    found: Vec<(String, Dialect)>,
}

impl<'d> Dialects<'d> {
    /// Finds dialects among `documents`, the built-in meta-schemas, and [`OPENAPI_3_1`].
    pub(crate) fn new(documents: &'d Documents) -> Dialects<'d> {
        Dialects {
            documents,
            found: Vec::new(),
        }
    }

    /// The dialect `$schema` names as `named` (an empty fragment allowed): draft 2020-12's
    /// for its URI; OpenAPI 3.0's for [`OPENAPI_3_0`]; else that of the meta-schema the
    /// loader's documents or the built-in ones have under that name; else OpenAPI 3.1's for
    /// its URI. Appends to `read` the URI of a loader's document read as the meta-schema.
    /// The error is placed by the caller.
    pub(crate) fn named(
        &mut self,
        named: &str,
        read: &mut Vec<String>,
    ) -> Result<Dialect, SchemaErrorKind> {
        let unknown = || SchemaErrorKind::UnsupportedDialect(named.to_owned());
        if named == OPENAPI_3_0 {
            return Ok(Dialect::OPENAPI_3_0);
        }
        let uri = match uri::split_fragment(named) {
            (uri, None | Some("")) => uri,
            _ => return Err(unknown()),
        };
        if uri == DRAFT_2020_12 {
            return Ok(Dialect::DRAFT_2020_12);
        }
        if let Some(&(_, dialect)) = self.found.iter().find(|(u, _)| u == uri) {
            return Ok(dialect);
        }
        let given = self.documents.named(uri).map(|k| &self.documents.list[k]);
        let dialect = match given.or_else(|| meta::named(uri)) {
            Some((_, meta)) => Dialect::declared(uri, meta)?,
            None if uri == OPENAPI_3_1 => Dialect::OPENAPI_3_1,
            None => return Err(unknown()),
        };
        if let Some((given, _)) = given {
            read.push(given.clone());
        }
        self.found.push((uri.to_owned(), dialect));
        Ok(dialect)
    }

    /// The dialect of the schemas in the container `doc` given under `uri` (see
    /// [`Loader::container_json`](crate::schema::Loader::container_json)): for an OpenAPI 3.1
    /// document (`"openapi": "3.1.…"`), the one its `jsonSchemaDialect` names, OpenAPI's when
    /// it names none, as OpenAPI has it; for an OpenAPI 3.0 document, OpenAPI 3.0's; for
    /// another, `default`. Appends to `read` as [`Dialects::named`] does.
    pub(crate) fn of_container(
        &mut self,
        uri: &str,
        doc: &Doc,
        default: Dialect,
        read: &mut Vec<String>,
    ) -> Result<Dialect, SchemaError> {
        match doc.get("openapi") {
            Some(Doc::String(v)) if v.starts_with("3.1.") => {}
            Some(Doc::String(v)) if v.starts_with("3.0.") => return Ok(Dialect::OPENAPI_3_0),
            _ => return Ok(default),
        }
        let at = format!("{uri}#/jsonSchemaDialect");
        let named = match doc.get("jsonSchemaDialect") {
            None => OPENAPI_3_1,
            Some(Doc::String(named)) => named,
            Some(_) => return Err(invalid("jsonSchemaDialect", "a string", at)),
        };
        (self.named(named, read)).map_err(|kind| SchemaError::new(kind, at))
    }
}

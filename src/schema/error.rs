//! Load errors: why a schema was rejected, and where in the schema document.

use std::fmt;

use super::load::MAX_COPIES;

/// A schema that could not be loaded or built: what is wrong ([`SchemaErrorKind`]) and the
/// JSON Pointer of the offending place in the schema document (`""` is the root).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    kind: SchemaErrorKind,
    pointer: String,
}

/// What is wrong with a schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaErrorKind {
    /// The schema text is not one well-formed JSON text (serde_json's message).
    Json(String),
    /// A document given in YAML is not one well-formed YAML document, or says what JSON
    /// cannot (see `Loader::container_yaml`, with the `yaml` feature).
    Yaml(String),
    /// An object in the schema document has this key twice.
    DuplicateKey(String),
    /// A keyword the engine does not implement. The engine never ignores a keyword.
    UnsupportedKeyword(String),
    /// `$schema` (or [`Loader::default_dialect`](crate::schema::Loader::default_dialect))
    /// names a dialect the engine does not know: neither draft 2020-12, nor OpenAPI 3.1, nor
    /// a meta-schema among the loader's documents.
    UnsupportedDialect(String),
    /// A dialect's meta-schema requires (`$vocabulary`) a vocabulary the engine does not
    /// implement.
    UnsupportedVocabulary {
        /// The dialect: its meta-schema's URI (boxed, to keep errors small).
        dialect: Box<str>,
        /// The vocabulary's URI.
        vocabulary: String,
    },
    /// A schema position holds something other than an object or a boolean.
    NotASchema,
    /// A keyword's value has the wrong shape; `expected` says what it must be.
    InvalidValue {
        /// The keyword.
        keyword: String,
        /// What the value must be, e.g. "a non-negative integer".
        expected: &'static str,
    },
    /// `type` names something that is not a JSON Schema type.
    UnknownType(String),
    /// A `format` that draft 2020-12 defines and the engine cannot check (`idn-email`,
    /// `idn-hostname`), where formats are asserted.
    UnsupportedFormat(String),
    /// `pattern` is not a regular expression the engine accepts.
    InvalidPattern {
        /// The pattern as written.
        pattern: String,
        /// The regex compiler's explanation.
        message: String,
    },
    /// An `$id`, `$anchor` or builder definition name is defined twice.
    DuplicateId(String),
    /// A `$ref` (or builder reference) whose target is not a schema in this document or in
    /// a document the [`Loader`](crate::schema::Loader) was given.
    UnresolvedRef(String),
    /// Resolving the `$dynamicRef`s by dynamic scope would copy the schema more than 16
    /// times (once per combination of resources that declare its anchors on the way).
    DynamicScopes,
    /// A URI a [`Loader`](crate::schema::Loader) was asked to name a document by, which is
    /// empty or has a fragment.
    DocumentUri(String),
    /// A cycle of references and combinators that never reaches a value, e.g. `{"$ref": "#"}`.
    InfiniteRecursion,
    /// What an `unevaluatedProperties` / `unevaluatedItems` takes depends on more outcomes
    /// of `anyOf` / `oneOf` branches, `if` and `dependentSchemas` members than a plan of 16
    /// cases holds, or on branches nested more than 8 deep (a branch that applies itself in
    /// place).
    UnevaluatedByBranch {
        /// `unevaluatedProperties` or `unevaluatedItems`.
        keyword: String,
    },
}

impl SchemaError {
    /// An error of `kind` at `pointer`.
    pub(crate) fn new(kind: SchemaErrorKind, pointer: String) -> SchemaError {
        SchemaError { kind, pointer }
    }

    /// The same error placed at `pointer`.
    pub(crate) fn at(self, pointer: String) -> SchemaError {
        SchemaError { pointer, ..self }
    }

    /// What is wrong.
    pub fn kind(&self) -> &SchemaErrorKind {
        &self.kind
    }

    /// The JSON Pointer of the offending place in the schema document (`""` is the root);
    /// in a document a [`Loader`](crate::schema::Loader) was given, that document's URI, `#`,
    /// and the pointer within it.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }
}

impl fmt::Display for SchemaErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaErrorKind::Json(message) => write!(f, "invalid JSON: {message}"),
            SchemaErrorKind::Yaml(message) => write!(f, "invalid YAML: {message}"),
            SchemaErrorKind::DuplicateKey(key) => write!(f, "duplicate key {key:?}"),
            SchemaErrorKind::UnsupportedKeyword(k) => write!(f, "unsupported keyword {k:?}"),
            SchemaErrorKind::UnevaluatedByBranch { keyword } => {
                let what = match keyword.as_str() {
                    "unevaluatedItems" => "items",
                    _ => "members",
                };
                write!(
                    f,
                    "unsupported {keyword:?}: the {what} it takes would depend on this branch"
                )
            }
            SchemaErrorKind::UnsupportedDialect(uri) => {
                write!(
                    f,
                    "unknown dialect {uri:?} (no meta-schema has that URI; jitson reads draft \
                     2020-12 and the dialects built on it)"
                )
            }
            SchemaErrorKind::UnsupportedVocabulary {
                dialect,
                vocabulary,
            } => write!(
                f,
                "dialect {dialect:?} requires vocabulary {vocabulary:?}, which jitson does not \
                 implement"
            ),
            SchemaErrorKind::NotASchema => {
                f.write_str("expected a schema (an object or a boolean)")
            }
            SchemaErrorKind::InvalidValue { keyword, expected } => {
                write!(f, "{keyword:?} must be {expected}")
            }
            SchemaErrorKind::UnknownType(name) => write!(f, "unknown type {name:?}"),
            SchemaErrorKind::UnsupportedFormat(name) => {
                write!(
                    f,
                    "format {name:?} cannot be asserted (IDNA2008 is not implemented)"
                )
            }
            SchemaErrorKind::InvalidPattern { pattern, message } => {
                write!(f, "invalid pattern {pattern:?}: {message}")
            }
            SchemaErrorKind::DuplicateId(id) => write!(f, "{id:?} is defined twice"),
            SchemaErrorKind::UnresolvedRef(r) => write!(f, "unresolved reference {r:?}"),
            SchemaErrorKind::DynamicScopes => write!(
                f,
                "resolving $dynamicRef by dynamic scope would copy the schema more than \
                 {MAX_COPIES} times"
            ),
            SchemaErrorKind::DocumentUri(uri) => write!(
                f,
                "a document's URI must be non-empty and without a fragment, not {uri:?}"
            ),
            SchemaErrorKind::InfiniteRecursion => {
                f.write_str("references loop without ever reaching a value")
            }
        }
    }
}

impl fmt::Display for SchemaError {
    /// `unsupported keyword "$recursiveRef" at /properties/a/$recursiveRef`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.kind, self.pointer.as_str()) {
            (
                SchemaErrorKind::Json(_)
                | SchemaErrorKind::Yaml(_)
                | SchemaErrorKind::DocumentUri(_),
                "",
            ) => write!(f, "{}", self.kind),
            (SchemaErrorKind::Json(_) | SchemaErrorKind::Yaml(_), document) => {
                write!(f, "{} in {document}", self.kind)
            }
            (kind, "") => write!(f, "{kind} at the schema root"),
            (kind, pointer) => write!(f, "{kind} at {pointer}"),
        }
    }
}

impl std::error::Error for SchemaError {}

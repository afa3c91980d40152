//! The draft 2020-12 meta-schema and its vocabularies' meta-schemas, built into every
//! loader: a `$ref` to `https://json-schema.org/draft/2020-12/schema` (or to one of its
//! `meta/…` documents) resolves without a fetch. The files and their origin are in
//! `draft2020-12/` (see its `README.md`).

use std::sync::OnceLock;

use super::loader::Documents;
use crate::schema::doc::Doc;

/// The URI of the draft 2020-12 meta-schema: the dialect jitson implements, which `$schema`
/// may name (with or without an empty fragment). A `$ref` to it checks schema documents:
///
/// ```
/// use jitson::schema::DRAFT_2020_12;
/// use jitson::{Codec, Schema};
///
/// let meta = Codec::new(&Schema::from_value(&serde_json::json!({"$ref": DRAFT_2020_12}))?);
/// assert!(meta.validate(br#"{"type": "array", "items": {"type": "integer"}}"#).is_ok());
/// let e = meta.validate(br#"{"type": "array", "minItems": "2"}"#).unwrap_err();
/// assert_eq!(e.to_string(), "expected integer, found string at line 1 column 31, path $.minItems, keyword type");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Each built-in document with the URI it is known by (its `$id`).
const FILES: &[(&str, &str)] = &[
    (DRAFT_2020_12, include_str!("draft2020-12/schema.json")),
    (
        "https://json-schema.org/draft/2020-12/meta/core",
        include_str!("draft2020-12/meta/core.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/applicator",
        include_str!("draft2020-12/meta/applicator.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/unevaluated",
        include_str!("draft2020-12/meta/unevaluated.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/validation",
        include_str!("draft2020-12/meta/validation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/meta-data",
        include_str!("draft2020-12/meta/meta-data.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-annotation",
        include_str!("draft2020-12/meta/format-annotation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-assertion",
        include_str!("draft2020-12/meta/format-assertion.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/content",
        include_str!("draft2020-12/meta/content.json"),
    ),
];

/// The built-in documents, parsed on first use. A loader's own documents come first: one
/// given under the same URI (or `$id`) replaces the built-in one for that loader.
pub(crate) fn documents() -> &'static Documents {
    static DOCUMENTS: OnceLock<Documents> = OnceLock::new();
    DOCUMENTS.get_or_init(|| {
        let mut documents = Documents::default();
        for &(uri, text) in FILES {
            // The files are constants of this crate; `every_file_parses` below proves it.
            let doc = Doc::parse(text.as_bytes()).expect("a built-in meta-schema is JSON");
            documents.add(uri.to_owned(), doc);
        }
        documents
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_parses_under_its_id() {
        for &(uri, text) in FILES {
            let doc = Doc::parse(text.as_bytes()).unwrap();
            assert!(
                matches!(doc.get("$id"), Some(Doc::String(id)) if id == uri),
                "{uri}"
            );
        }
        assert_eq!(documents().list.len(), FILES.len());
    }
}

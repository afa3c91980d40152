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

/// The built-in documents; each is known by its root's `$id`.
const FILES: &[&str] = &[
    include_str!("draft2020-12/schema.json"),
    include_str!("draft2020-12/meta/core.json"),
    include_str!("draft2020-12/meta/applicator.json"),
    include_str!("draft2020-12/meta/unevaluated.json"),
    include_str!("draft2020-12/meta/validation.json"),
    include_str!("draft2020-12/meta/meta-data.json"),
    include_str!("draft2020-12/meta/format-annotation.json"),
    include_str!("draft2020-12/meta/format-assertion.json"),
    include_str!("draft2020-12/meta/content.json"),
];

/// The built-in document named `uri` (by its `$id`), with that URI. The documents are
/// parsed on the first call, which comes only for a reference that none of a loader's own
/// documents answers: those come first.
pub(crate) fn named(uri: &str) -> Option<&'static (String, Doc)> {
    let documents = documents();
    Some(&documents.list[documents.named(uri)?])
}

/// The built-in documents, parsed on first use.
fn documents() -> &'static Documents {
    static DOCUMENTS: OnceLock<Documents> = OnceLock::new();
    DOCUMENTS.get_or_init(|| {
        let mut documents = Documents::default();
        for text in FILES {
            // The files are constants of this crate; the test below proves both.
            let doc = Doc::parse(text.as_bytes()).expect("a built-in meta-schema is JSON");
            let Some(Doc::String(id)) = doc.get("$id") else {
                panic!("a built-in meta-schema has an `$id`");
            };
            documents.add(id.clone(), doc, false);
        }
        documents
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_known_by_its_id() {
        for text in FILES {
            let doc = Doc::parse(text.as_bytes()).unwrap();
            let Some(Doc::String(id)) = doc.get("$id") else {
                panic!("no $id in {text}");
            };
            assert_eq!(named(id).map(|(uri, _)| uri), Some(id));
        }
        assert_eq!(documents().list.len(), FILES.len());
        assert!(named(DRAFT_2020_12).is_some());
    }
}

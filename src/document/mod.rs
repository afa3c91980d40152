//! Decoded documents: the records a [`Codec`](crate::Codec) decodes a JSON text into, and
//! typed read-only views of them.
//!
//! ```
//! use jitson::{Codec, Schema};
//!
//! let schema = Schema::from_json_str(
//!     r#"{"type": "object", "properties": {"id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}}"#,
//! ).unwrap();
//! let codec = Codec::new(&schema);
//! let doc = codec.decode(br#"{"id": 7, "tags": ["a", "b\n"], "extra": [1, 2]}"#).unwrap();
//! assert_eq!(doc.root().get("id").and_then(|v| v.as_u64()), Some(7));
//! assert_eq!(doc.pointer("/tags/1").and_then(|v| v.as_str()), Some("b\n"));
//! assert_eq!(doc.pointer("/extra").and_then(|v| v.raw()), Some(&b"[1, 2]"[..]));
//! let path = codec.compile_path("/tags/0").unwrap();
//! assert_eq!(doc.at(&path).and_then(|v| v.as_str()), Some("a"));
//! ```
//!
//! A [`Document`] owns the arena of its records, borrows the input (strings without escapes
//! point into it) and shares its codec's layout. Views ([`View`]) are `Copy` handles that can
//! only be reached from a document's root, so they always read memory with its own layout.

mod json;
mod path;

pub use jitson_jit::ir::{BigInt, Number};
pub use jitson_jit::view::{Items, Members, Node, View};
pub use path::{DocPath, PathError};

use jitson_jit::interp::Decoded;

/// A decoded JSON document (see the [module documentation](self)).
#[derive(Debug)]
pub struct Document<'a> {
    decoded: Decoded<'a>,
}

impl<'a> From<Decoded<'a>> for Document<'a> {
    /// The document of records a backend decoded (`jitson::jit::interp::decode` or
    /// `jitson::jit::native::NativeCode::decode`).
    fn from(decoded: Decoded<'a>) -> Document<'a> {
        Document::new(decoded)
    }
}

impl<'a> Document<'a> {
    pub(crate) fn new(decoded: Decoded<'a>) -> Document<'a> {
        Document { decoded }
    }

    /// The root value.
    pub fn root(&self) -> View<'_> {
        self.decoded.root()
    }

    /// The value at a JSON Pointer (RFC 6901; `""` is the root), if there is one.
    pub fn pointer(&self, pointer: &str) -> Option<View<'_>> {
        DocPath::parse(pointer).ok()?.find(self.root())
    }

    /// The value at a precompiled path (see [`Codec::compile_path`](crate::Codec::compile_path)).
    pub fn at(&self, path: &DocPath) -> Option<View<'_>> {
        path.find(self.root())
    }

    /// The document as a `serde_json` value (equal to what `serde_json` parses from the
    /// input: numbers keep their representation, unknown members are kept). A big integer
    /// kept by [`BigInts::Raw`](crate::engine::BigInts::Raw) ([`Node::BigInt`]) becomes what
    /// `serde_json` without `arbitrary_precision` reads from its text: the nearest `f64`
    /// (or, beyond the range of `f64`, where `serde_json` fails, a string of its digits).
    pub fn to_serde_json(&self) -> serde_json::Value {
        json::to_json(self.root())
    }

    /// The big-integer policy the document was read with.
    pub fn big_ints(&self) -> crate::engine::BigInts {
        self.decoded.big_ints()
    }

    /// Bytes the document's arena holds.
    pub fn arena_bytes(&self) -> usize {
        self.decoded.arena_bytes()
    }
}

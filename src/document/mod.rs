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

mod de;
mod json;
mod path;

pub use de::DeError;
pub(crate) use de::RAW_VALUE_TOKEN;
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

    /// The document read into `T` through `T`'s serde `Deserialize` (what
    /// [`Engine::decode`](crate::Engine::decode) does after decoding). Strings without
    /// escapes are lent from the input, so `T` may borrow them (`&'a str`, `Cow<'a, str>`).
    ///
    /// The schema has already been checked; `T` can still refuse a value the schema allows
    /// (a serde_json integer type given `1.0`, a borrowed `&str` holding an escape): that is
    /// an [`ErrorKind::Deserialize`](crate::ErrorKind::Deserialize) error at the value's
    /// offset and path, with `T`'s message.
    ///
    /// ```
    /// use jitson::{Codec, Schema};
    ///
    /// #[derive(serde::Deserialize, PartialEq, Debug)]
    /// struct Point<'a> { x: i32, label: &'a str }
    ///
    /// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {"x": {"type": "integer"}}}"#).unwrap();
    /// let input = br#"{"x": 1.0, "label": "a"}"#;
    /// let doc = Codec::new(&schema).decode(input).unwrap();
    /// let e = doc.deserialize::<Point>().unwrap_err();
    /// assert_eq!(e.to_string(), "invalid type: floating point `1.0`, expected i32 at line 1 column 7, path $.x");
    /// let doc = Codec::new(&schema).decode(br#"{"x": 1, "label": "a"}"#).unwrap();
    /// assert_eq!(doc.deserialize::<Point>().unwrap(), Point { x: 1, label: "a" });
    /// ```
    pub fn deserialize<T: serde::Deserialize<'a>>(&self) -> Result<T, crate::Error> {
        let input = self.decoded.input();
        T::deserialize(de::ValueDeserializer::new(self.root(), input))
            .map_err(|e| de::into_error(e, input))
    }

    /// [`Document::deserialize`] into an existing value, reusing what it holds where `T`'s
    /// `Deserialize::deserialize_in_place` does. On error `target` holds a valid value, which
    /// may be partly updated.
    pub fn deserialize_in_place<T: serde::Deserialize<'a>>(
        &self,
        target: &mut T,
    ) -> Result<(), crate::Error> {
        let input = self.decoded.input();
        T::deserialize_in_place(de::ValueDeserializer::new(self.root(), input), target)
            .map_err(|e| de::into_error(e, input))
    }

    /// The input the document was decoded from.
    pub fn input(&self) -> &'a [u8] {
        self.decoded.input()
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

//! Documents as serde deserializers: a decoded [`Document`](super::Document) read into a Rust
//! type through the type's own `serde::Deserialize`, the second half of typed decode.
//!
//! The codec has already checked the input against the type's schema, so this pass only
//! moves values: numbers are handed over as the decoder stored them (as serde_json would),
//! strings without escapes are lent from the input (`&'a str` and `Cow<'a, str>` fields
//! borrow them), and raw JSON kept by `any` slots (`serde_json::Value`, unknown members a
//! flattened map takes) is read by serde_json itself, so those values are exactly what
//! `serde_json::from_slice` makes. A refusal from the type (a serde_json integer type given
//! `1.0`, a borrowed string that holds an escape) is a [`DeError`] with the path of the
//! value it concerns.

use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

use super::{Items, Members, Node, Number, View};
use crate::error::{Error, ErrorKind};
use crate::lazy::{self, Pointer};
use crate::path::{Path, Segment};
use crate::typed::decode::numeric_key;
use jitson_jit::ir::NumRef;
use jitson_jit::view::{lend, lend_str};

/// The newtype-struct name [`RawValue`](crate::typed::RawValue) deserializes through: this
/// deserializer answers it with the value's raw JSON text.
pub(crate) const RAW_VALUE_TOKEN: &str = "$jitson::private::RawValue";

/// Why a decoded value did not become the Rust type: the type's (serde's) message and the
/// path of the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeError {
    message: String,
    /// The path from the root, innermost segment first (segments are added while the error
    /// unwinds out of containers).
    reversed: Vec<Segment>,
}

impl DeError {
    /// The type's message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where the value sits in the document.
    pub fn path(&self) -> Path {
        self.reversed.iter().rev().cloned().collect()
    }

    /// The error, one container further out.
    fn within(mut self, segment: Segment) -> DeError {
        self.reversed.push(segment);
        self
    }

    /// The error of serde_json reading a raw value.
    fn json(e: serde_json::Error) -> DeError {
        let mut message = e.to_string();
        // serde_json's position is within the raw value, not the document: drop it.
        if let Some(at) = message.rfind(" at line ") {
            message.truncate(at);
        }
        DeError {
            message,
            reversed: Vec::new(),
        }
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, path {}", self.message, self.path())
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> DeError {
        DeError {
            message: msg.to_string(),
            reversed: Vec::new(),
        }
    }
}

/// The [`Error`] of `e` for a document decoded from `input`: at the offset of the value
/// its path names (the first occurrence of a repeated key).
pub(crate) fn into_error(e: DeError, input: &[u8]) -> Error {
    let path = e.path();
    let offset = lazy::get(input, &Pointer::from(&path))
        .ok()
        .flatten()
        .map_or(0, |value| value.offset());
    Error::with_message(
        ErrorKind::Deserialize,
        input,
        offset,
        path,
        e.message.into(),
    )
}

/// A value of a document, as a serde [`Deserializer`] whose borrowed data lives as long as
/// `input` (the text the document was decoded from).
#[derive(Clone, Copy)]
pub(crate) struct ValueDeserializer<'de, 'd> {
    view: View<'d>,
    input: &'de [u8],
}

impl<'de, 'd> ValueDeserializer<'de, 'd> {
    /// The deserializer of `view`, a value of a document decoded from `input`.
    pub(crate) fn new(view: View<'d>, input: &'de [u8]) -> ValueDeserializer<'de, 'd> {
        ValueDeserializer { view, input }
    }

    fn at(&self, view: View<'d>) -> ValueDeserializer<'de, 'd> {
        ValueDeserializer::new(view, self.input)
    }

    /// Hands a string to `visitor`: borrowed from the input when it lies there.
    fn visit_text<V: Visitor<'de>>(&self, text: &str, visitor: V) -> Result<V::Value, DeError> {
        match lend_str(self.input, text) {
            Some(lent) => visitor.visit_borrowed_str(lent),
            None => visitor.visit_str(text),
        }
    }

    /// The big integer here ([`Node::BigInt`], kept by [`BigInts::Raw`]) as a `T`, when it
    /// is one and `T` holds it.
    ///
    /// [`BigInts::Raw`]: crate::engine::BigInts::Raw
    fn big_int<T: std::str::FromStr>(&self) -> Option<T> {
        match self.view.node() {
            Node::BigInt(b) => b.as_str().parse().ok(),
            _ => None,
        }
    }

    /// A raw JSON value (always a slice of the input) as serde_json's deserializer.
    fn raw(&self, raw: &[u8]) -> serde_json::Deserializer<serde_json::de::SliceRead<'de>> {
        serde_json::Deserializer::from_slice(lend(self.input, raw).unwrap_or_default())
    }
}

impl<'de> Deserializer<'de> for ValueDeserializer<'de, '_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.view.node() {
            Node::Null => visitor.visit_unit(),
            Node::Bool(b) => visitor.visit_bool(b),
            Node::Number(Number::U64(u)) => visitor.visit_u64(u),
            Node::Number(Number::I64(i)) => visitor.visit_i64(i),
            Node::Number(Number::F64(f)) => visitor.visit_f64(f),
            // What serde_json reads from a big integer's text without `arbitrary_precision`.
            Node::BigInt(b) => visitor.visit_f64(b.to_f64()),
            Node::Str(s) | Node::Enum { text: s, .. } => self.visit_text(s, visitor),
            Node::Raw(raw) => self
                .raw(raw)
                .deserialize_any(visitor)
                .map_err(DeError::json),
            Node::Array(items) => visit_array(self, items, visitor),
            Node::Object(members) => visit_object(self, members, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.view.node() {
            Node::Null => visitor.visit_none(),
            Node::Raw(raw) => self
                .raw(raw)
                .deserialize_option(visitor)
                .map_err(DeError::json),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.view.node() {
            // Raw values are whole JSON values of the (UTF-8 checked) input.
            Node::Raw(raw) if name == RAW_VALUE_TOKEN => {
                match lend(self.input, raw).map(std::str::from_utf8) {
                    Some(Ok(s)) => visitor.visit_borrowed_str(s),
                    Some(Err(e)) => Err(de::Error::custom(e)),
                    None => Err(de::Error::custom("raw value outside the input")),
                }
            }
            Node::Raw(raw) => self
                .raw(raw)
                .deserialize_newtype_struct(name, visitor)
                .map_err(DeError::json),
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.view.node() {
            Node::Str(s) | Node::Enum { text: s, .. } => {
                visitor.visit_enum(de::value::StrDeserializer::<DeError>::new(s))
            }
            Node::Object(members) => {
                let mut iter = members.iter();
                match (iter.next(), iter.next()) {
                    (Some((variant, value)), None) => visitor
                        .visit_enum(Variant {
                            variant,
                            value: self.at(value),
                        })
                        .map_err(|e| e.within(Segment::Key(variant.into()))),
                    _ => Err(de::Error::invalid_value(
                        de::Unexpected::Map,
                        &"map with a single key",
                    )),
                }
            }
            Node::Raw(raw) => self
                .raw(raw)
                .deserialize_enum(name, variants, visitor)
                .map_err(DeError::json),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    /// A big integer ([`Node::BigInt`]) read exactly when it fits, as serde_json reads a
    /// 128-bit integer; anything else as `deserialize_any` gives it.
    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.big_int() {
            Some(v) => visitor.visit_u128(v),
            None => self.deserialize_any(visitor),
        }
    }

    /// As `deserialize_u128`, for `i128`.
    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.big_int() {
            Some(v) => visitor.visit_i128(v),
            None => self.deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

fn visit_array<'de, V: Visitor<'de>>(
    de: ValueDeserializer<'de, '_>,
    items: Items<'_>,
    visitor: V,
) -> Result<V::Value, DeError> {
    let mut seq = Seq { de, items, next: 0 };
    let value = visitor.visit_seq(&mut seq)?;
    match seq.next == items.len() {
        true => Ok(value),
        false => Err(de::Error::invalid_length(
            items.len(),
            &"fewer elements in array",
        )),
    }
}

fn visit_object<'de, V: Visitor<'de>>(
    de: ValueDeserializer<'de, '_>,
    members: Members<'_>,
    visitor: V,
) -> Result<V::Value, DeError> {
    let mut map = Map {
        de,
        members,
        cursor: 0,
        value: None,
    };
    visitor.visit_map(&mut map)
}

/// The items of an array, one by one.
struct Seq<'de, 'd> {
    de: ValueDeserializer<'de, 'd>,
    items: Items<'d>,
    next: usize,
}

impl<'de> SeqAccess<'de> for Seq<'de, '_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        let Some(item) = self.items.get(self.next) else {
            return Ok(None);
        };
        let index = self.next;
        self.next += 1;
        seed.deserialize(self.de.at(item))
            .map(Some)
            .map_err(|e| e.within(Segment::Index(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len() - self.next)
    }
}

/// The members of an object, one by one: named fields present (schema order), then extra
/// members (input order).
struct Map<'de, 'd> {
    de: ValueDeserializer<'de, 'd>,
    members: Members<'d>,
    /// Where the next member is looked for ([`Members::next_member`]).
    cursor: usize,
    value: Option<(&'d str, View<'d>)>,
}

impl<'de> MapAccess<'de> for Map<'de, '_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some((key, value)) = self.members.next_member(&mut self.cursor) else {
            return Ok(None);
        };
        self.value = Some((key, value));
        seed.deserialize(Key { key, de: self.de })
            .map(Some)
            .map_err(|e| e.within(Segment::Key(key.into())))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let (key, value) = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("value asked before its key"))?;
        seed.deserialize(self.de.at(value))
            .map_err(|e| e.within(Segment::Key(key.into())))
    }
}

/// An object key: a string, lent from the input when it lies there.
struct Key<'de, 'd> {
    key: &'d str,
    de: ValueDeserializer<'de, 'd>,
}

impl<'de> Key<'de, '_> {
    /// Whether the name is in the input as it is (it held no escape): serde_json reads
    /// numeric and boolean keys from such names only.
    fn as_written(&self) -> bool {
        lend_str(self.de.input, self.key).is_some()
    }

    /// The key read as serde_json reads a numeric key (an integer map key): the name, as
    /// the input holds it (a name holding an escape is refused), one JSON number filling it.
    fn numeric<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let number = match numeric_key(self.key) {
            Some(n) if self.as_written() => n,
            _ => {
                return Err(de::Error::invalid_type(
                    de::Unexpected::Str(self.key),
                    &visitor,
                ));
            }
        };
        match number {
            NumRef::Number(Number::U64(v)) => visitor.visit_u64(v),
            NumRef::Number(Number::I64(v)) => visitor.visit_i64(v),
            NumRef::Number(Number::F64(v)) => visitor.visit_f64(v),
            NumRef::BigInt(b) => match (b.as_str().parse::<u128>(), b.as_str().parse::<i128>()) {
                (Ok(v), _) => visitor.visit_u128(v),
                (_, Ok(v)) => visitor.visit_i128(v),
                _ => visitor.visit_f64(b.to_f64()),
            },
        }
    }
}

/// Integer key methods of [`Key`]: [`Key::numeric`].
macro_rules! numeric_keys {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            self.numeric(visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for Key<'de, '_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.de.visit_text(self.key, visitor)
    }

    numeric_keys! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
    }

    /// A boolean key as serde_json reads one: the name `true` or `false` as the input
    /// holds it (one holding an escape is refused).
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.key {
            "true" | "false" if self.as_written() => visitor.visit_bool(self.key == "true"),
            _ => Err(de::Error::invalid_type(
                de::Unexpected::Str(self.key),
                &visitor,
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// The one member of an externally tagged enum's object: the variant's name and data.
struct Variant<'de, 'd> {
    variant: &'d str,
    value: ValueDeserializer<'de, 'd>,
}

impl<'de, 'd> EnumAccess<'de> for Variant<'de, 'd> {
    type Error = DeError;
    type Variant = ValueDeserializer<'de, 'd>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), DeError> {
        let name = seed.deserialize(Key {
            key: self.variant,
            de: self.value,
        })?;
        Ok((name, self.value))
    }
}

impl<'de> VariantAccess<'de> for ValueDeserializer<'de, '_> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DeError> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_map(visitor)
    }
}

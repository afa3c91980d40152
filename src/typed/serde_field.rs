//! Fields read and written by their serde impls: `#[jitson(serde)]`, and the fields serde
//! reads and writes with functions of the user's (`#[serde(with = "module")]`,
//! `serialize_with`, `deserialize_with`). The derive calls these for such fields, whose
//! types need no [`JsonType`](super::JsonType): a type from another crate (a date, a UUID,
//! a decimal) or a custom form works as serde_json makes it.
//!
//! The field's schema is any JSON value (the codec checks that it is well-formed JSON;
//! serde decides the rest); the one-pass reader hands the value's text to a serde_json
//! deserializer, and the writer writes through a serde_json serializer, so both give
//! serde_json's answer and bytes. Where serde reads the field from its buffered copy of a
//! value (an untagged or internally tagged enum), the reader bails and the two-pass decode
//! runs the field's `Deserialize` on the document.

use super::decode::{Bail, Reader};
use serde::de::{self, Deserializer, Visitor};
pub use serde::{Deserialize, Serialize};
use serde_json::de::StrRead;

/// serde_json's deserializer of one value's text.
pub type TextDeserializer<'de> = serde_json::Deserializer<StrRead<'de>>;

/// serde_json's compact serializer into a byte vector.
pub type VecSerializer<'a> = serde_json::Serializer<&'a mut Vec<u8>>;

/// Reads the value at the reader with `deserialize` (the field's `Deserialize`, or its
/// `deserialize_with` function) run on a serde_json deserializer of the value's text;
/// bails where serde_json refuses it, and inside a value serde buffers.
pub fn read<'de, T>(
    r: &mut Reader<'de>,
    deserialize: impl FnOnce(&mut TextDeserializer<'de>) -> Result<T, serde_json::Error>,
) -> Result<T, Bail> {
    if r.in_buffered() {
        return Err(Bail);
    }
    let mut text = serde_json::Deserializer::from_str(r.raw_value()?);
    let value = deserialize(&mut text).map_err(|_| Bail)?;
    text.end().map_err(|_| Bail)?;
    Ok(value)
}

/// The value serde gives a field of type `T` that the input leaves out: `None` for an
/// `Option` (what serde's derive makes of a missing field), a bail for the rest.
pub fn missing<'de, T: Deserialize<'de>>() -> Result<T, Bail> {
    T::deserialize(Missing).map_err(|_| Bail)
}

/// Whether serde gives a field of type `T` a value when the input leaves it out (an
/// `Option`): such a field is not required.
pub fn optional<T: Deserialize<'static>>() -> bool {
    missing::<T>().is_ok()
}

/// Appends `value`'s JSON as `serialize` (the field's `Serialize`, or its `serialize_with`
/// function) writes it with serde_json's compact serializer.
///
/// # Panics
///
/// Where `serialize` fails (serde_json's `to_vec` would return the error), with its message.
pub fn write(
    out: &mut Vec<u8>,
    serialize: impl FnOnce(&mut VecSerializer<'_>) -> Result<(), serde_json::Error>,
) {
    if let Err(e) = serialize(&mut serde_json::Serializer::new(out)) {
        panic!("{e}");
    }
}

/// What serde's derive deserializes a missing field from: `None` to an `Option`, an error
/// to everything else.
struct Missing;

impl<'de> Deserializer<'de> for Missing {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("missing field"))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

//! The schema document as parsed: a JSON tree that keeps object members in written order
//! (field order is part of a schema) and keeps duplicate keys so they can be reported.

use crate::json_pointer;
use crate::schema::pointer;
use crate::schema::{SchemaError, SchemaErrorKind};
use crate::value::{self, DuplicateKeys, ParseOptions};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;
use std::collections::HashSet;
use std::fmt;

/// A JSON value with object members in document order.
#[derive(Clone, Debug)]
pub(crate) enum Doc {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Doc>),
    Object(Vec<(String, Doc)>),
}

impl Doc {
    /// Parses JSON text (serde_json's nesting limit applies).
    ///
    /// serde_json finds the structure (its messages are the errors) and keeps repeated keys
    /// for [`Doc::check_unique_keys`]; a text without them is then read again by jitson's
    /// own parser, whose numbers are correctly rounded like every number the engine reads,
    /// whatever features serde_json is built with (without `float_roundtrip` it reads
    /// `1.000000000000000085` as `1.0000000000000002`, and a schema's `enum: [1]` or
    /// `minimum` would compare against another value than the documents' own).
    pub(crate) fn parse(text: &[u8]) -> Result<Doc, SchemaError> {
        let doc: Doc = serde_json::from_slice(text)
            .map_err(|e| SchemaError::new(SchemaErrorKind::Json(e.to_string()), String::new()))?;
        let arena = value::Bump::new();
        let options = ParseOptions::new()
            .max_depth(usize::MAX)
            .duplicate_keys(DuplicateKeys::Deny);
        Ok(match value::parse_with(text, &arena, &options) {
            Ok(parsed) => Doc::from_parsed(&parsed),
            Err(_) => doc,
        })
    }

    /// A value read by jitson's parser as a document, members in their order.
    fn from_parsed(parsed: &value::Value<'_>) -> Doc {
        match parsed {
            value::Value::Array(items) => Doc::Array(items.iter().map(Doc::from_parsed).collect()),
            value::Value::Object(members) => Doc::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.as_str().to_owned(), Doc::from_parsed(v)))
                    .collect(),
            ),
            scalar => Doc::from_value(&scalar.to_serde()),
        }
    }

    /// A `serde_json::Value` as a document, members in the value's order.
    pub(crate) fn from_value(value: &Value) -> Doc {
        match value {
            Value::Null => Doc::Null,
            Value::Bool(b) => Doc::Bool(*b),
            Value::Number(n) => Doc::Number(n.clone()),
            Value::String(s) => Doc::String(s.clone()),
            Value::Array(items) => Doc::Array(items.iter().map(Doc::from_value).collect()),
            Value::Object(members) => Doc::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), Doc::from_value(v)))
                    .collect(),
            ),
        }
    }

    /// The first member named `key`, if this is an object.
    pub(crate) fn get(&self, key: &str) -> Option<&Doc> {
        match self {
            Doc::Object(members) => member(members, key),
            _ => None,
        }
    }

    /// The value the JSON Pointer `pointer` names in this document; `None` when it names
    /// none (or is not a pointer).
    pub(crate) fn at_pointer(&self, pointer: &str) -> Option<&Doc> {
        let mut at = self;
        for token in json_pointer::raw_tokens(pointer)? {
            let token = json_pointer::unescape(token)?;
            at = match at {
                Doc::Object(members) => member(members, &token)?,
                Doc::Array(items) => items.get(json_pointer::index(&token)?)?,
                _ => return None,
            };
        }
        Some(at)
    }

    /// The document as a `serde_json::Value`.
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Doc::Null => Value::Null,
            Doc::Bool(b) => Value::Bool(*b),
            Doc::Number(n) => Value::Number(n.clone()),
            Doc::String(s) => Value::String(s.clone()),
            Doc::Array(items) => Value::Array(items.iter().map(Doc::to_value).collect()),
            Doc::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_value()))
                    .collect(),
            ),
        }
    }

    /// Rejects the first object, depth first, that has a key twice.
    pub(crate) fn check_unique_keys(&self, at: &str) -> Result<(), SchemaError> {
        match self {
            Doc::Array(items) => items.iter().enumerate().try_for_each(|(i, item)| {
                item.check_unique_keys(&pointer::push(at, &i.to_string()))
            }),
            Doc::Object(members) => {
                // A set, not a scan of the members before each: a schema's `$defs` or
                // `properties` may hold thousands.
                let mut seen = HashSet::with_capacity(members.len());
                for (key, value) in members {
                    if !seen.insert(key.as_str()) {
                        let kind = SchemaErrorKind::DuplicateKey(key.clone());
                        return Err(SchemaError::new(kind, at.to_owned()));
                    }
                    value.check_unique_keys(&pointer::push(at, key))?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

impl Serialize for Doc {
    /// Writes the document with object members in their order (the schema writer's output).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Doc::Null => serializer.serialize_unit(),
            Doc::Bool(b) => serializer.serialize_bool(*b),
            Doc::Number(n) => n.serialize(serializer),
            Doc::String(s) => serializer.serialize_str(s),
            Doc::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                items
                    .iter()
                    .try_for_each(|item| seq.serialize_element(item))?;
                seq.end()
            }
            Doc::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                members
                    .iter()
                    .try_for_each(|(k, v)| map.serialize_entry(k, v))?;
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Doc {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Doc, D::Error> {
        deserializer.deserialize_any(DocVisitor)
    }
}

/// Builds a [`Doc`] from any JSON token stream.
struct DocVisitor;

impl<'de> Visitor<'de> for DocVisitor {
    type Value = Doc;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Doc, E> {
        Ok(Doc::Null)
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Doc, E> {
        Ok(Doc::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Doc, E> {
        Ok(Doc::Number(i.into()))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Doc, E> {
        Ok(Doc::Number(u.into()))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Doc, E> {
        serde_json::Number::from_f64(f)
            .map(Doc::Number)
            .ok_or_else(|| E::custom("number out of range"))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Doc, E> {
        Ok(Doc::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Doc, E> {
        Ok(Doc::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Doc, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Doc::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Doc, A::Error> {
        let mut members = Vec::new();
        while let Some(member) = map.next_entry::<String, Doc>()? {
            members.push(member);
        }
        Ok(Doc::Object(members))
    }
}

/// The first of an object's `members` named `key`.
pub(crate) fn member<'d>(members: &'d [(String, Doc)], key: &str) -> Option<&'d Doc> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

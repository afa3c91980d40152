//! [`RawValue`]: one JSON value kept as its text.

use crate::document::RAW_VALUE_TOKEN;
use crate::schema::builder::{TypeExpr, any};
use crate::typed::{Definitions, JsonType};
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::{Serialize, Serializer};
use std::fmt;

/// One JSON value kept as its raw text: a field of this type accepts any JSON (its schema is
/// `true`), and typed decode keeps the input's text of the value (without the whitespace
/// around it).
///
/// It is serde_json's `RawValue` inside, so serde_json reads and writes it the same way:
/// `serde_json::from_slice` keeps the text, `serde_json::to_vec` writes it verbatim.
#[derive(Clone, Debug)]
pub struct RawValue(Box<serde_json::value::RawValue>);

/// Why a text is not one JSON value.
#[derive(Debug)]
pub struct RawValueError(serde_json::Error);

impl RawValue {
    /// The value whose JSON text is `json`, kept exactly but for whitespace around it
    /// (dropped, as serde_json does). Errors when `json` is not exactly one JSON value.
    pub fn from_json(json: impl Into<String>) -> Result<RawValue, RawValueError> {
        serde_json::value::RawValue::from_string(json.into())
            .map(RawValue)
            .map_err(RawValueError)
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }
}

impl PartialEq for RawValue {
    /// Equal texts (not equal JSON values: `1.0` and `1` differ).
    fn eq(&self, other: &RawValue) -> bool {
        self.get() == other.get()
    }
}

impl Eq for RawValue {}

impl std::hash::Hash for RawValue {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.get().hash(state);
    }
}

impl Serialize for RawValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RawValue {
    /// Through the newtype name jitson's document deserializer answers with the raw text;
    /// any other deserializer (serde_json's) reads a serde_json `RawValue`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawValue, D::Error> {
        deserializer.deserialize_newtype_struct(RAW_VALUE_TOKEN, RawVisitor)
    }
}

/// Reads a [`RawValue`] from either protocol (see its `Deserialize`).
struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = RawValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<RawValue, D::Error> {
        Box::<serde_json::value::RawValue>::deserialize(d).map(RawValue)
    }

    fn visit_str<E: de::Error>(self, json: &str) -> Result<RawValue, E> {
        RawValue::from_json(json).map_err(E::custom)
    }
}

impl fmt::Display for RawValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not one JSON value: {}", self.0)
    }
}

impl std::error::Error for RawValueError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

impl JsonType for RawValue {
    type Key = RawValue;

    fn type_expr(_: &mut Definitions) -> TypeExpr {
        any()
    }
}

//! [`RawValue`]: one JSON value kept as its text.

use crate::schema::builder::{TypeExpr, any};
use crate::typed::{Definitions, JsonType};
use std::fmt;

/// One JSON value kept as its raw text: a field of this type accepts any JSON (its schema is
/// `true`).
///
/// What works now: the schema side (`#[derive(jitson::Schema)]` fields of this type), and
/// building one from text ([`RawValue::from_json`], which checks the text is one JSON value)
/// and reading the text back ([`RawValue::get`]). Typed decode into it (the input slice kept
/// as is) and serde `Serialize` / `Deserialize` come with the typed codec.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawValue(Box<str>);

/// Why a text is not one JSON value.
#[derive(Debug)]
pub struct RawValueError(serde_json::Error);

impl RawValue {
    /// The value whose JSON text is `json`, kept exactly (whitespace included). Errors when
    /// `json` is not exactly one JSON value.
    pub fn from_json(json: impl Into<Box<str>>) -> Result<RawValue, RawValueError> {
        let json = json.into();
        serde_json::from_str::<serde::de::IgnoredAny>(&json).map_err(RawValueError)?;
        Ok(RawValue(json))
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        &self.0
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
    fn type_expr(_: &mut Definitions) -> TypeExpr {
        any()
    }
}

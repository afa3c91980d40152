//! JSON value kinds as JSON Schema's `type` keyword names them, and sets of them.

use serde_json::Value;
use std::fmt;

/// A JSON Schema type name: the six JSON kinds, plus `integer` for numbers without a fraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` / `false`.
    Boolean,
    /// A number with no fractional part.
    Integer,
    /// Any number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl Kind {
    /// Every kind, in the order `KindSet` lists them.
    pub const ALL: [Kind; 7] = [
        Kind::Null,
        Kind::Boolean,
        Kind::Integer,
        Kind::Number,
        Kind::String,
        Kind::Array,
        Kind::Object,
    ];

    /// The six kinds a JSON value's first byte tells apart (`Integer` is a `Number`), in
    /// [`crate::schema::KindBranches::slots`] order.
    pub const SLOTS: [Kind; 6] = [
        Kind::Null,
        Kind::Boolean,
        Kind::Number,
        Kind::String,
        Kind::Array,
        Kind::Object,
    ];

    /// The kind of a JSON value; a number with no fractional part is an `Integer`.
    pub fn of(value: &Value) -> Kind {
        match value {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Boolean,
            Value::Number(n) if crate::schema::Num::from_json(n).is_integer() => Kind::Integer,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }

    /// The kind named by a `type` keyword entry.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The name JSON Schema uses for the kind.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Boolean => "boolean",
            Kind::Integer => "integer",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Array => "array",
            Kind::Object => "object",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of kinds, as a `type` keyword lists them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KindSet(u8);

impl KindSet {
    /// The empty set.
    pub const EMPTY: KindSet = KindSet(0);

    /// The set holding one kind.
    pub fn only(kind: Kind) -> KindSet {
        KindSet(kind.bit())
    }

    /// The set with `kind` added.
    pub fn with(self, kind: Kind) -> KindSet {
        KindSet(self.0 | kind.bit())
    }

    /// The kinds in both sets.
    pub fn intersection(self, other: KindSet) -> KindSet {
        KindSet(self.0 & other.0)
    }

    /// Whether `kind` is in the set.
    pub fn contains(self, kind: Kind) -> bool {
        self.0 & kind.bit() != 0
    }

    /// Whether a value of kind `kind` is allowed: `Integer` values are also `Number`s.
    pub fn admits(self, kind: Kind) -> bool {
        self.contains(kind) || (kind == Kind::Integer && self.contains(Kind::Number))
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds in the set, in `Kind::ALL` order.
    pub fn iter(self) -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(move |k| self.contains(*k))
    }
}

impl fmt::Display for KindSet {
    /// `integer`, `string or null`, `null, string or array`; `nothing` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Kind::name).collect();
        match names.split_last() {
            None => f.write_str("nothing"),
            Some((last, [])) => f.write_str(last),
            Some((last, rest)) => write!(f, "{} or {last}", rest.join(", ")),
        }
    }
}

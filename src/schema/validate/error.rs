//! Validation errors: which value failed, which keyword rejected it, and why.

use crate::schema::{Format, Kind, KindSet, Num};
use std::fmt;

/// One step of an instance path: an object member or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSegment {
    /// An object member, by name.
    Key(String),
    /// An array item, by index.
    Index(usize),
}

/// Why a value does not match its schema.
#[derive(Clone, Debug, PartialEq)]
pub enum ValidationErrorKind {
    /// The value's kind is not allowed here.
    Type {
        /// The kinds allowed.
        expected: KindSet,
        /// The value's kind.
        found: Kind,
    },
    /// The number is below the lower bound.
    Minimum {
        /// The bound.
        limit: Num,
        /// Whether the bound itself is excluded.
        exclusive: bool,
    },
    /// The number is above the upper bound.
    Maximum {
        /// The bound.
        limit: Num,
        /// Whether the bound itself is excluded.
        exclusive: bool,
    },
    /// The number is not a multiple of the divisor.
    MultipleOf {
        /// The divisor.
        divisor: Num,
    },
    /// The string has fewer code points than allowed.
    MinLength {
        /// The limit.
        limit: u64,
    },
    /// The string has more code points than allowed.
    MaxLength {
        /// The limit.
        limit: u64,
    },
    /// The string does not match the pattern.
    Pattern {
        /// The pattern as written.
        pattern: String,
    },
    /// The string does not have the asserted format.
    Format {
        /// The format.
        format: Format,
    },
    /// The array has fewer items than allowed.
    MinItems {
        /// The limit.
        limit: u64,
    },
    /// The array has more items than allowed.
    MaxItems {
        /// The limit.
        limit: u64,
    },
    /// Two items are equal (`uniqueItems`).
    UniqueItems {
        /// The index of the first of them.
        first: usize,
        /// The index of the second.
        second: usize,
    },
    /// Fewer items match the `contains` type than allowed (`contains` when `minContains`
    /// is not written, so one was needed, else `minContains`).
    Contains {
        /// How many items match.
        matched: usize,
        /// The `minContains` written, if any.
        limit: Option<u64>,
    },
    /// More items match the `contains` type than `maxContains` allows.
    MaxContains {
        /// How many items match.
        matched: usize,
        /// The limit.
        limit: u64,
    },
    /// The object has fewer members than allowed (`minProperties`).
    MinProperties {
        /// The limit.
        limit: u64,
    },
    /// The object has more members than allowed (`maxProperties`).
    MaxProperties {
        /// The limit.
        limit: u64,
    },
    /// A member is present without one it requires (`dependentRequired`).
    DependentRequired {
        /// The present member.
        name: String,
        /// The missing member it requires.
        missing: String,
    },
    /// A required member is missing.
    Required {
        /// The member name.
        name: String,
    },
    /// A member the schema does not allow (`additionalProperties: false`).
    UnknownField {
        /// The member name.
        name: String,
    },
    /// A member no other keyword evaluated, which the schema does not allow
    /// (`unevaluatedProperties: false`).
    Unevaluated {
        /// The member name.
        name: String,
    },
    /// The value is not one of the allowed values (`const` / `enum`).
    Enum,
    /// No value is allowed here (the `false` schema).
    False,
    /// No `anyOf` branch matches.
    AnyOf,
    /// Not exactly one `oneOf` branch matches.
    OneOf {
        /// How many branches match.
        matched: usize,
    },
    /// The value matches a `not` schema.
    Not,
}

impl ValidationErrorKind {
    /// The JSON Schema keyword that reports this failure (`""` for the `false` schema).
    pub fn keyword(&self) -> &'static str {
        match self {
            ValidationErrorKind::Type { .. } => "type",
            ValidationErrorKind::Minimum {
                exclusive: false, ..
            } => "minimum",
            ValidationErrorKind::Minimum {
                exclusive: true, ..
            } => "exclusiveMinimum",
            ValidationErrorKind::Maximum {
                exclusive: false, ..
            } => "maximum",
            ValidationErrorKind::Maximum {
                exclusive: true, ..
            } => "exclusiveMaximum",
            ValidationErrorKind::MultipleOf { .. } => "multipleOf",
            ValidationErrorKind::MinLength { .. } => "minLength",
            ValidationErrorKind::MaxLength { .. } => "maxLength",
            ValidationErrorKind::Pattern { .. } => "pattern",
            ValidationErrorKind::Format { .. } => "format",
            ValidationErrorKind::MinItems { .. } => "minItems",
            ValidationErrorKind::MaxItems { .. } => "maxItems",
            ValidationErrorKind::UniqueItems { .. } => "uniqueItems",
            ValidationErrorKind::Contains { limit: None, .. } => "contains",
            ValidationErrorKind::Contains { limit: Some(_), .. } => "minContains",
            ValidationErrorKind::MaxContains { .. } => "maxContains",
            ValidationErrorKind::MinProperties { .. } => "minProperties",
            ValidationErrorKind::MaxProperties { .. } => "maxProperties",
            ValidationErrorKind::DependentRequired { .. } => "dependentRequired",
            ValidationErrorKind::Required { .. } => "required",
            ValidationErrorKind::UnknownField { .. } => "additionalProperties",
            ValidationErrorKind::Unevaluated { .. } => "unevaluatedProperties",
            ValidationErrorKind::Enum => "enum",
            ValidationErrorKind::False => "",
            ValidationErrorKind::AnyOf => "anyOf",
            ValidationErrorKind::OneOf { .. } => "oneOf",
            ValidationErrorKind::Not => "not",
        }
    }
}

impl fmt::Display for ValidationErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValidationErrorKind::Type { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ValidationErrorKind::Minimum { limit, exclusive } => {
                let op = if *exclusive { ">" } else { ">=" };
                write!(f, "must be {op} {limit}")
            }
            ValidationErrorKind::Maximum { limit, exclusive } => {
                let op = if *exclusive { "<" } else { "<=" };
                write!(f, "must be {op} {limit}")
            }
            ValidationErrorKind::MultipleOf { divisor } => {
                write!(f, "must be a multiple of {divisor}")
            }
            ValidationErrorKind::MinLength { limit } => {
                write!(f, "must be at least {limit} characters long")
            }
            ValidationErrorKind::MaxLength { limit } => {
                write!(f, "must be at most {limit} characters long")
            }
            ValidationErrorKind::Pattern { pattern } => write!(f, "must match {pattern:?}"),
            ValidationErrorKind::Format { format } => write!(f, "must be a valid {format}"),
            ValidationErrorKind::MinItems { limit } => {
                write!(f, "must have at least {limit} items")
            }
            ValidationErrorKind::MaxItems { limit } => write!(f, "must have at most {limit} items"),
            ValidationErrorKind::UniqueItems { first, second } => {
                write!(f, "items {first} and {second} are equal")
            }
            ValidationErrorKind::Contains { limit: None, .. } => {
                f.write_str("must contain an item that matches contains")
            }
            ValidationErrorKind::Contains {
                matched,
                limit: Some(limit),
            } => write!(f, "{matched} items match contains, at least {limit} must"),
            ValidationErrorKind::MaxContains { matched, limit } => {
                write!(f, "{matched} items match contains, at most {limit} may")
            }
            ValidationErrorKind::MinProperties { limit } => {
                write!(f, "must have at least {limit} members")
            }
            ValidationErrorKind::MaxProperties { limit } => {
                write!(f, "must have at most {limit} members")
            }
            ValidationErrorKind::DependentRequired { name, missing } => {
                write!(f, "missing field {missing:?}, which {name:?} requires")
            }
            ValidationErrorKind::Required { name } => write!(f, "missing required field {name:?}"),
            ValidationErrorKind::UnknownField { name } => write!(f, "unknown field {name:?}"),
            ValidationErrorKind::Unevaluated { name } => write!(f, "unevaluated member {name:?}"),
            ValidationErrorKind::Enum => f.write_str("not one of the allowed values"),
            ValidationErrorKind::False => f.write_str("no value is allowed here"),
            ValidationErrorKind::AnyOf => f.write_str("matches none of the anyOf branches"),
            ValidationErrorKind::OneOf { matched } => {
                write!(f, "matches {matched} oneOf branches, expected exactly one")
            }
            ValidationErrorKind::Not => f.write_str("matches a schema it must not match"),
        }
    }
}

/// A value that does not match its schema: the failing value's path in the instance, the
/// JSON Pointer of the keyword that rejected it, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationError {
    pub(crate) path: Vec<PathSegment>,
    pub(crate) schema_pointer: String,
    pub(crate) kind: ValidationErrorKind,
}

impl ValidationError {
    /// The path from the document root to the failing value.
    pub fn path(&self) -> &[PathSegment] {
        &self.path
    }

    /// The path in the engine's notation: `$`, `$.statuses[3].user.name`, `$["a b"]`.
    pub fn instance_path(&self) -> String {
        let mut out = String::from("$");
        for segment in &self.path {
            match segment {
                PathSegment::Index(i) => out.push_str(&format!("[{i}]")),
                PathSegment::Key(k) if is_identifier(k) => {
                    out.push('.');
                    out.push_str(k);
                }
                PathSegment::Key(k) => {
                    let quoted = serde_json::Value::String(k.clone()).to_string();
                    out.push_str(&format!("[{quoted}]"));
                }
            }
        }
        out
    }

    /// Where the rejecting keyword sits along the evaluation path, as a JSON Pointer into the
    /// schema, e.g. `/properties/id/minimum`. For a schema without `$ref` or `allOf` this is
    /// the keyword's pointer in the document; `$ref` targets and `allOf` parts add no token
    /// (the path reads as if they were inlined). It is computed from the canonical form, so
    /// equal schemas report equal pointers: `const` as `enum`, an `anyOf` / `oneOf` whose branches have
    /// disjoint kinds as `type`, and a member named only in `required` as
    /// `/properties/<name>`.
    pub fn schema_pointer(&self) -> &str {
        &self.schema_pointer
    }

    /// Why the value was rejected.
    pub fn kind(&self) -> &ValidationErrorKind {
        &self.kind
    }
}

/// Whether a member name can follow a `.` in an instance path.
fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

impl fmt::Display for ValidationError {
    /// `$.a[3].b: must be <= 5 (schema #/properties/a/items/properties/b/maximum)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} (schema #{})",
            self.instance_path(),
            self.kind,
            self.schema_pointer
        )
    }
}

impl std::error::Error for ValidationError {}

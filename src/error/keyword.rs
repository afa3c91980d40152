//! The JSON Schema keyword behind a schema violation.

use std::fmt;

use jitson_jit::ir::Violation;

/// A JSON Schema keyword that rejected a value ([`crate::ErrorKind::Schema`]).
///
/// Keywords are named as in the schema's canonical form (see
/// [`crate::ValidationError::schema_pointer`]): `const` is reported as `enum`, and integer
/// bounds as `minimum` / `maximum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Keyword {
    /// `type`: the value is not of an allowed kind.
    Type,
    /// `minimum`: the number is below the bound.
    Minimum,
    /// `exclusiveMinimum`: the number is at or below the bound.
    ExclusiveMinimum,
    /// `maximum`: the number is above the bound.
    Maximum,
    /// `exclusiveMaximum`: the number is at or above the bound.
    ExclusiveMaximum,
    /// `multipleOf`.
    MultipleOf,
    /// `minLength` (code points).
    MinLength,
    /// `maxLength` (code points).
    MaxLength,
    /// `pattern`.
    Pattern,
    /// `format`, asserted.
    Format,
    /// `minItems`.
    MinItems,
    /// `maxItems`.
    MaxItems,
    /// `uniqueItems`: two items are equal.
    UniqueItems,
    /// `contains`: no item matches (`minContains` not written).
    Contains,
    /// `minContains`: fewer items match `contains` than this.
    MinContains,
    /// `maxContains`: more items match `contains` than this.
    MaxContains,
    /// `minProperties`.
    MinProperties,
    /// `maxProperties`.
    MaxProperties,
    /// `dependentRequired`: a member is present without one it requires.
    DependentRequired,
    /// `propertyNames`: a member's name does not match (the error's schema pointer goes on
    /// to the name schema's keyword).
    PropertyNames,
    /// `required`: a required member is missing.
    Required,
    /// `additionalProperties`: a member the schema does not allow.
    AdditionalProperties,
    /// `unevaluatedProperties`: a member no other keyword of the schema evaluated, and
    /// that the schema does not allow.
    UnevaluatedProperties,
    /// `enum` (or `const`): not one of the allowed values.
    Enum,
    /// `anyOf`: no branch matches.
    AnyOf,
    /// `oneOf`: not exactly one branch matches.
    OneOf,
    /// `not`: the value matches the negated schema.
    Not,
    /// The `false` schema: no value is allowed.
    False,
}

impl Keyword {
    /// The keyword as written in a schema (`"false"` for the `false` schema).
    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::Type => "type",
            Keyword::Minimum => "minimum",
            Keyword::ExclusiveMinimum => "exclusiveMinimum",
            Keyword::Maximum => "maximum",
            Keyword::ExclusiveMaximum => "exclusiveMaximum",
            Keyword::MultipleOf => "multipleOf",
            Keyword::MinLength => "minLength",
            Keyword::MaxLength => "maxLength",
            Keyword::Pattern => "pattern",
            Keyword::Format => "format",
            Keyword::MinItems => "minItems",
            Keyword::MaxItems => "maxItems",
            Keyword::UniqueItems => "uniqueItems",
            Keyword::Contains => "contains",
            Keyword::MinContains => "minContains",
            Keyword::MaxContains => "maxContains",
            Keyword::MinProperties => "minProperties",
            Keyword::MaxProperties => "maxProperties",
            Keyword::DependentRequired => "dependentRequired",
            Keyword::PropertyNames => "propertyNames",
            Keyword::Required => "required",
            Keyword::AdditionalProperties => "additionalProperties",
            Keyword::UnevaluatedProperties => "unevaluatedProperties",
            Keyword::Enum => "enum",
            Keyword::AnyOf => "anyOf",
            Keyword::OneOf => "oneOf",
            Keyword::Not => "not",
            Keyword::False => "false",
        }
    }

    /// The keyword of an interpreter violation, bounds taken as inclusive (the schema tells
    /// whether they are exclusive).
    pub(crate) fn of(violation: Violation) -> Keyword {
        match violation {
            Violation::Type { .. } => Keyword::Type,
            Violation::Minimum => Keyword::Minimum,
            Violation::Maximum => Keyword::Maximum,
            Violation::MultipleOf => Keyword::MultipleOf,
            Violation::MinLength => Keyword::MinLength,
            Violation::MaxLength => Keyword::MaxLength,
            Violation::Pattern => Keyword::Pattern,
            Violation::Format => Keyword::Format,
            Violation::MinItems => Keyword::MinItems,
            Violation::MaxItems => Keyword::MaxItems,
            Violation::UniqueItems => Keyword::UniqueItems,
            Violation::MinContains => Keyword::MinContains,
            Violation::MaxContains => Keyword::MaxContains,
            Violation::MinProperties => Keyword::MinProperties,
            Violation::MaxProperties => Keyword::MaxProperties,
            Violation::DependentRequired => Keyword::DependentRequired,
            Violation::PropertyNames => Keyword::PropertyNames,
            Violation::Required { .. } => Keyword::Required,
            Violation::UnknownField => Keyword::AdditionalProperties,
            Violation::Enum => Keyword::Enum,
            Violation::AnyOf => Keyword::AnyOf,
            Violation::OneOf { .. } => Keyword::OneOf,
            Violation::Not => Keyword::Not,
            Violation::Never => Keyword::False,
        }
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

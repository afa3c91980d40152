//! OpenAPI 3.0's schema objects read as the draft 2020-12 schemas they mean (see
//! [`OPENAPI_3_0`](super::OPENAPI_3_0)): which keywords they have, and the members pass 2
//! reads in their place.

use super::index::invalid;
use crate::schema::doc::{Doc, member};
use crate::schema::{SchemaError, pointer};

/// Whether `name` is a keyword of OpenAPI 3.0's schema objects (`$ref` aside).
pub(super) fn is_keyword(name: &str) -> bool {
    matches!(
        name,
        "title"
            | "description"
            | "default"
            | "format"
            | "type"
            | "nullable"
            | "enum"
            | "multipleOf"
            | "minimum"
            | "maximum"
            | "exclusiveMinimum"
            | "exclusiveMaximum"
            | "minLength"
            | "maxLength"
            | "pattern"
            | "items"
            | "minItems"
            | "maxItems"
            | "uniqueItems"
            | "properties"
            | "additionalProperties"
            | "required"
            | "minProperties"
            | "maxProperties"
            | "allOf"
            | "anyOf"
            | "oneOf"
            | "not"
            | "discriminator"
            | "readOnly"
            | "writeOnly"
            | "deprecated"
            | "xml"
            | "externalDocs"
            | "example"
    )
}

/// The types OpenAPI 3.0's `type` names (it has no `"null"`: `nullable` says that).
const TYPES: [&str; 6] = ["boolean", "object", "array", "number", "string", "integer"];

/// The members of the schema object `members` at `at`, as pass 2 reads them: its `$ref`
/// alone when it has one (a Reference Object's other members are ignored); else its
/// keywords, with `nullable` folded into `type` and a boolean `exclusiveMinimum` /
/// `exclusiveMaximum` replaced by the bound beside it when `true`. Other members
/// (annotations, extensions) are left out, so that a keyword of draft 2020-12's that
/// OpenAPI 3.0 lacks means nothing.
pub(super) fn members(
    members: &[(String, Doc)],
    at: &str,
) -> Result<Vec<(String, Doc)>, SchemaError> {
    if let Some(reference) = member(members, "$ref") {
        return Ok(vec![("$ref".to_owned(), reference.clone())]);
    }
    let nullable = match member(members, "nullable") {
        None | Some(Doc::Bool(false)) => false,
        Some(Doc::Bool(true)) => true,
        Some(_) => {
            return Err(invalid(
                "nullable",
                "a boolean",
                pointer::push(at, "nullable"),
            ));
        }
    };
    let mut read = Vec::with_capacity(members.len());
    for (keyword, value) in members.iter().filter(|(k, _)| is_keyword(k)) {
        let value = match keyword.as_str() {
            "nullable" => continue,
            "type" => {
                if !matches!(value, Doc::String(name) if TYPES.contains(&name.as_str())) {
                    let expected = "one of OpenAPI 3.0's six type names";
                    return Err(invalid("type", expected, pointer::push(at, "type")));
                }
                match nullable {
                    true => Doc::Array(vec![value.clone(), Doc::String("null".to_owned())]),
                    false => value.clone(),
                }
            }
            // The inclusive bound stays: the exclusive one, the stricter, decides.
            "exclusiveMinimum" | "exclusiveMaximum" => match exclusive(members, at, keyword)? {
                Some(bound) => bound.clone(),
                None => continue,
            },
            _ => value.clone(),
        };
        read.push((keyword.clone(), value));
    }
    Ok(read)
}

/// The bound that `keyword` (`exclusiveMinimum` or `exclusiveMaximum`, a boolean) makes
/// exclusive in the schema object `members` at `at`: the `minimum` / `maximum` beside it when
/// `true` (which must be a number), `None` when `false`.
fn exclusive<'m>(
    members: &'m [(String, Doc)],
    at: &str,
    keyword: &str,
) -> Result<Option<&'m Doc>, SchemaError> {
    let bound = match keyword {
        "exclusiveMinimum" => "minimum",
        _ => "maximum",
    };
    match (member(members, keyword), member(members, bound)) {
        (None | Some(Doc::Bool(false)), _) => Ok(None),
        (Some(Doc::Bool(true)), Some(number @ Doc::Number(_))) => Ok(Some(number)),
        (Some(Doc::Bool(true)), Some(_)) => {
            Err(invalid(bound, "a number", pointer::push(at, bound)))
        }
        (Some(Doc::Bool(true)), None) => {
            let expected = "a boolean, true only beside its bound";
            Err(invalid(keyword, expected, pointer::push(at, keyword)))
        }
        (Some(_), _) => Err(invalid(keyword, "a boolean", pointer::push(at, keyword))),
    }
}

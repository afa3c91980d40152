//! Discriminators of `anyOf` / `oneOf`: one property whose allowed values (one, or a few:
//! a variant's name and aliases) differ in every branch tells which branch a value can
//! match; one branch may take every value the others do not name.

use super::objects_of;
use crate::schema::model::{Field, ObjectDesc};
use crate::schema::value::json_eq;
use crate::schema::{Discriminator, TypeDesc, TypeId};

/// Sets the discriminator of every `anyOf` / `oneOf` node that has one.
pub(super) fn annotate(nodes: &mut [TypeDesc]) {
    for i in 0..nodes.len() {
        let found = match &nodes[i] {
            TypeDesc::AnyOf(u) | TypeDesc::OneOf(u) => find(nodes, &u.branches),
            _ => continue,
        };
        if let TypeDesc::AnyOf(u) | TypeDesc::OneOf(u) = &mut nodes[i] {
            u.discriminator = found;
        }
    }
}

/// The first field of the first branch that discriminates all the branches: a field
/// without aliases in every branch, whose `enum` values (a few, distinct across branches)
/// name the branch; the first value of each is its tag, the others its aliases. One
/// branch's field may instead exclude every other branch's values (`not: {enum: […]}`,
/// alone or in an `allOf`): that branch is the default. A branch's fields are those of the
/// objects every object it takes must match ([`objects_of`]): an object node, or the
/// object parts of an `allOf` (`allOf: [{"$ref": "#/$defs/Base"}, {"properties": {"kind":
/// {"const": "cat"}}}]`); the first of its fields so named with an `enum` gives its tags.
fn find(nodes: &[TypeDesc], branches: &[TypeId]) -> Option<Discriminator> {
    if branches.len() < 2 {
        return None;
    }
    let objects: Vec<Vec<&ObjectDesc>> = branches
        .iter()
        .map(|&b| {
            let mut found = Vec::new();
            objects_of(nodes, b, 0, &mut found);
            (!found.is_empty()).then_some(found)
        })
        .collect::<Option<_>>()?;
    let candidates = objects[0].iter().flat_map(|o| &o.fields);
    candidates.into_iter().find_map(|candidate| {
        let mut tags: Vec<serde_json::Value> = Vec::with_capacity(objects.len());
        let mut aliases = Vec::new();
        let mut default = None;
        let mut required = true;
        for (branch, parts) in objects.iter().enumerate() {
            let fields: Vec<&Field> = (parts.iter())
                .filter_map(|o| o.fields.iter().find(|f| f.name == candidate.name))
                .collect();
            if fields.is_empty() || fields.iter().any(|f| !f.aliases.is_empty()) {
                return None;
            }
            required &= fields.iter().any(|f| f.required);
            let enumerated = fields.iter().find_map(|f| match &nodes[f.ty.index()] {
                TypeDesc::Enum(values) => Some(values),
                _ => None,
            });
            let Some(values) = enumerated else {
                if default.is_some() {
                    return None;
                }
                default = Some((branch, fields));
                continue;
            };
            let [tag, more @ ..] = &values[..] else {
                return None;
            };
            if more.len() >= MAX_TAGS_PER_BRANCH {
                return None;
            }
            let seen = |v: &serde_json::Value| {
                tags.iter()
                    .chain(aliases.iter().map(|(a, _)| a))
                    .any(|t| json_eq(t, v))
            };
            if values.iter().any(seen) {
                return None;
            }
            tags.push(tag.clone());
            aliases.extend(more.iter().map(|v| (v.clone(), branch)));
        }
        if let Some((_, fields)) = &default {
            let mut selectors = tags.iter().chain(aliases.iter().map(|(v, _)| v));
            let excluded = |v| fields.iter().any(|f| excludes(nodes, f.ty, v, 0));
            if !selectors.all(excluded) {
                return None;
            }
        }
        Some(Discriminator {
            property: candidate.name.clone(),
            tags,
            aliases,
            default: default.map(|(branch, _)| branch),
            required,
        })
    })
}

/// Whether node `ty` refuses `value` by a `not: {enum: […]}` naming it (alone or as one
/// part of an `allOf`, looked for [`MAX_ALL_OF_DEPTH`] levels down).
fn excludes(nodes: &[TypeDesc], ty: TypeId, value: &serde_json::Value, depth: u32) -> bool {
    match &nodes[ty.index()] {
        TypeDesc::Not(inner) => match &nodes[inner.index()] {
            TypeDesc::Enum(values) => values.iter().any(|v| json_eq(v, value)),
            _ => false,
        },
        TypeDesc::AllOf(parts) if depth < MAX_ALL_OF_DEPTH => {
            parts.iter().any(|&p| excludes(nodes, p, value, depth + 1))
        }
        _ => false,
    }
}

/// How deep [`excludes`] looks into nested `allOf`s (which may form a cycle).
const MAX_ALL_OF_DEPTH: u32 = 4;

/// A tag field with more values (an `enum` of many) is a check, not a variant's name.
const MAX_TAGS_PER_BRANCH: usize = 8;

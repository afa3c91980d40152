//! Discriminators of `anyOf` / `oneOf`: one property whose allowed values (one, or a few:
//! a variant's name and aliases) differ in every branch tells which branch a value can
//! match; one branch may take every value the others do not name.

use crate::schema::model::ObjectDesc;
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
/// alone or in an `allOf`): that branch is the default.
fn find(nodes: &[TypeDesc], branches: &[TypeId]) -> Option<Discriminator> {
    if branches.len() < 2 {
        return None;
    }
    let objects: Vec<&ObjectDesc> = branches
        .iter()
        .map(|&b| match &nodes[b.index()] {
            TypeDesc::Object(o) => Some(o),
            _ => None,
        })
        .collect::<Option<_>>()?;
    objects[0].fields.iter().find_map(|candidate| {
        let mut tags: Vec<serde_json::Value> = Vec::with_capacity(objects.len());
        let mut aliases = Vec::new();
        let mut default = None;
        for (branch, object) in objects.iter().enumerate() {
            let field = object.fields.iter().find(|f| f.name == candidate.name)?;
            if !field.aliases.is_empty() {
                return None;
            }
            let TypeDesc::Enum(values) = &nodes[field.ty.index()] else {
                if default.is_some() {
                    return None;
                }
                default = Some((branch, field.ty));
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
        if let Some((_, ty)) = default {
            let selectors = tags.iter().chain(aliases.iter().map(|(v, _)| v));
            if !selectors.into_iter().all(|v| excludes(nodes, ty, v, 0)) {
                return None;
            }
        }
        Some(Discriminator {
            property: candidate.name.clone(),
            tags,
            aliases,
            default: default.map(|(branch, _)| branch),
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

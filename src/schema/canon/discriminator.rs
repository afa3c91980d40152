//! Discriminators of `anyOf` / `oneOf`: one property whose allowed values (one, or a few:
//! a variant's name and aliases) differ in every branch tells which branch a value can
//! match.

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
/// name the branch; the first value of each is its tag, the others its aliases.
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
        for (branch, object) in objects.iter().enumerate() {
            let field = object.fields.iter().find(|f| f.name == candidate.name)?;
            let TypeDesc::Enum(values) = &nodes[field.ty.index()] else {
                return None;
            };
            let ([tag, more @ ..], true) = (&values[..], field.aliases.is_empty()) else {
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
        Some(Discriminator {
            property: candidate.name.clone(),
            tags,
            aliases,
        })
    })
}

/// A tag field with more values (an `enum` of many) is a check, not a variant's name.
const MAX_TAGS_PER_BRANCH: usize = 8;

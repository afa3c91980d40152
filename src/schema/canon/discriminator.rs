//! Discriminators of `anyOf` / `oneOf`: one property whose single allowed value differs in
//! every branch tells which branch a value can match.

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

/// The first field of the first branch that discriminates all the branches.
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
        for object in &objects {
            let field = object.fields.iter().find(|f| f.name == candidate.name)?;
            let TypeDesc::Enum(values) = &nodes[field.ty.index()] else {
                return None;
            };
            let [tag] = &values[..] else {
                return None;
            };
            if tags.iter().any(|t| json_eq(t, tag)) {
                return None;
            }
            tags.push(tag.clone());
        }
        Some(Discriminator {
            property: candidate.name.clone(),
            tags,
        })
    })
}

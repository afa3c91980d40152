//! Discriminators of `anyOf` / `oneOf`: one property whose single allowed value differs in
//! every branch tells which branch a value can match.

use crate::schema::model::{Graph, ObjectDesc};
use crate::schema::value::json_eq;
use crate::schema::{Discriminator, TypeDesc, TypeId};

/// Sets the discriminator of every `anyOf` / `oneOf` node that has one.
pub(super) fn annotate(graph: &mut Graph) {
    for i in 0..graph.nodes.len() {
        let found = match &graph.nodes[i] {
            TypeDesc::AnyOf(u) | TypeDesc::OneOf(u) => find(graph, &u.branches),
            _ => continue,
        };
        if let TypeDesc::AnyOf(u) | TypeDesc::OneOf(u) = &mut graph.nodes[i] {
            u.discriminator = found;
        }
    }
}

/// The first field of the first branch that discriminates all the branches.
fn find(graph: &Graph, branches: &[TypeId]) -> Option<Discriminator> {
    if branches.len() < 2 {
        return None;
    }
    let objects: Vec<&ObjectDesc> = branches
        .iter()
        .map(|&b| match graph.node(b) {
            TypeDesc::Object(o) => Some(o),
            _ => None,
        })
        .collect::<Option<_>>()?;
    objects[0].fields.iter().find_map(|candidate| {
        let mut tags: Vec<serde_json::Value> = Vec::with_capacity(objects.len());
        for object in &objects {
            let field = object.fields.iter().find(|f| f.name == candidate.name)?;
            let TypeDesc::Enum(values) = graph.node(field.ty) else {
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

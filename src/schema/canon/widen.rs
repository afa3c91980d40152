//! The first part of an `allOf` names every member its other parts name.
//!
//! An `allOf`'s first part writes (decode's shape, the members transcode keeps); the others
//! only check. So a member that only a later part names, `extra` in OpenAPI's inheritance
//! (`allOf: [{"$ref": "#/$defs/base"}, {"properties": {"extra": …}}]`), was an unknown member
//! of the part that writes: transcode dropped it, or denied it, though the schema names it.
//! Here a first part that is an object allowing any other member becomes a copy that also
//! names each member the other parts' objects name (fields and patterns), of the type all
//! the parts give it together (an `allOf` of theirs, itself widened in turn). This changes
//! no verdict: the copy takes the same values as the first part, as each added member may
//! hold any value there, and the other parts check what they always did.

use std::collections::{HashMap, HashSet};

use super::objects_of;
use crate::schema::model::{Field, Graph, ObjectDesc, UnknownFields};
use crate::schema::{TypeDesc, TypeId};

/// Most nodes the widening adds to a graph (beyond which the first parts stay as they are:
/// every verdict holds, and transcode keeps the members their objects know).
const MAX_ADDED: usize = 20_000;

/// Widens the first part of every `allOf` of `graph` (those it adds included).
pub(super) fn widen(graph: &mut Graph) {
    let mut joined: HashMap<Vec<TypeId>, TypeId> = HashMap::new();
    for (i, node) in graph.nodes.iter().enumerate() {
        if let TypeDesc::AllOf(parts) = node {
            joined.entry(parts.clone()).or_insert(TypeId(i as u32));
        }
    }
    let limit = graph.nodes.len() + MAX_ADDED;
    let mut i = 0;
    while i < graph.nodes.len() && graph.nodes.len() < limit {
        if let TypeDesc::AllOf(parts) = &graph.nodes[i]
            && let Some(first) = widened(graph, &parts.clone(), &mut joined)
            && let TypeDesc::AllOf(parts) = &mut graph.nodes[i]
        {
            parts[0] = first;
        }
        i += 1;
    }
}

/// The widened copy of `parts[0]`, when it is an object that allows other members and the
/// other parts name members it does not, or give a member it names a type of their own.
fn widened(
    graph: &mut Graph,
    parts: &[TypeId],
    joined: &mut HashMap<Vec<TypeId>, TypeId>,
) -> Option<TypeId> {
    let (first, rest) = parts.split_first()?;
    let TypeDesc::Object(o) = graph.node(*first) else {
        return None;
    };
    if o.unknown != UnknownFields::Allow || o.unevaluated {
        return None;
    }
    // Aliases are the builder's: a name added beside them could take an alias's place.
    if o.fields.iter().any(|f| !f.aliases.is_empty()) {
        return None;
    }
    let mut others = Vec::new();
    rest.iter()
        .for_each(|&p| objects_of(&graph.nodes, p, 0, &mut others));
    // Each member name with the types the parts give it, in order of first mention (and
    // where each name is, so that wide parts cost linear time).
    let mut named: Vec<(String, Vec<TypeId>)> = (o.fields.iter())
        .map(|f| (f.name.clone(), vec![f.ty]))
        .collect();
    let mut at: HashMap<String, usize> = (named.iter().enumerate())
        .map(|(k, (name, _))| (name.clone(), k))
        .collect();
    let mut patterns = o.patterns.clone();
    let mut seen: HashSet<(String, TypeId)> = (patterns.iter())
        .map(|p| (p.pattern.source().to_owned(), p.ty))
        .collect();
    for other in others {
        for field in &other.fields {
            if !field.aliases.is_empty() {
                return None;
            }
            match at.get(&field.name) {
                Some(&k) if named[k].1.contains(&field.ty) => {}
                Some(&k) => named[k].1.push(field.ty),
                None => {
                    at.insert(field.name.clone(), named.len());
                    named.push((field.name.clone(), vec![field.ty]));
                }
            }
        }
        for p in &other.patterns {
            if seen.insert((p.pattern.source().to_owned(), p.ty)) {
                patterns.push(p.clone());
            }
        }
    }
    let o = o.clone();
    let origin = graph.origins[first.index()].clone();
    let fields = (named.into_iter().enumerate())
        .map(|(k, (name, types))| {
            let ty = match types[..] {
                [one] => one,
                _ => *joined
                    .entry(types.clone())
                    .or_insert_with(|| graph.add(TypeDesc::AllOf(types), &origin)),
            };
            match o.fields.get(k) {
                Some(field) => Field {
                    ty,
                    ..field.clone()
                },
                None => Field {
                    name,
                    aliases: Vec::new(),
                    ty,
                    required: false,
                    default: None,
                },
            }
        })
        .collect();
    let copy = ObjectDesc {
        fields,
        patterns,
        ..o.clone()
    };
    (copy != o).then(|| graph.add(TypeDesc::Object(copy), &origin))
}

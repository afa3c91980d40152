//! The schema's nodes as the walk after native validate reads them ([`WalkGuide`]): what
//! transcode needs to drop or deny unknown members without running the program again.

use jitson_jit::interp::{GuideNode, OPEN, Other, Tags, WalkGuide};
use jitson_jit::ir::KeyTable;
use jitson_jit::layout::{Layout, Shape};

use super::key_table;
use super::selection::{Selection, Unmatched, select};
use crate::schema::{ObjectDesc, Schema, TypeDesc, TypeId, UnknownFields};

/// The walk guide of `schema`, whose program has `layout` (node `i` is guide node `i`).
pub fn walk_guide(schema: &Schema, layout: &Layout) -> WalkGuide {
    let node = |t: TypeId| t.0;
    // An extra value the machine's transcode treats as an unknown member: one whose
    // shape is raw JSON (as its sink decides it).
    let other = |t: TypeId| match layout.shape(t.0).shape {
        Shape::Raw => Other::Unknown,
        _ => Other::Extra(t.0),
    };
    let nodes = (0..schema.node_count())
        .map(|i| match schema.node(TypeId(i as u32)) {
            TypeDesc::Object(o) => object(o, other, |t| layout.shape(t.0).shape == Shape::Raw),
            TypeDesc::Map(t) => GuideNode::Object {
                table: KeyTable::new([]),
                fields: Box::new([]),
                other: other(*t),
            },
            TypeDesc::Array(a) => GuideNode::Array {
                prefix: a.prefix_items.iter().map(|&t| node(t)).collect(),
                items: node(a.items),
            },
            TypeDesc::Nullable(inner) => {
                let mut slots = [node(*inner); 6];
                slots[0] = OPEN;
                GuideNode::ByKind(slots)
            }
            TypeDesc::Kinds(k) => GuideNode::ByKind(k.slots().map(|s| s.map_or(OPEN, node))),
            TypeDesc::AnyOf(u) | TypeDesc::OneOf(u) => GuideNode::Trial {
                branches: u.branches.iter().map(|&t| node(t)).collect(),
                tags: select(schema, u).map(|s| tags(s, &u.branches)),
            },
            TypeDesc::Conditional(c) => GuideNode::Trial {
                branches: c.outcomes().into_iter().map(node).collect(),
                tags: None,
            },
            TypeDesc::AllOf(parts) => GuideNode::Same(node(parts[0])),
            TypeDesc::Any
            | TypeDesc::Never
            | TypeDesc::Null
            | TypeDesc::Bool
            | TypeDesc::Integer(_)
            | TypeDesc::Number(_)
            | TypeDesc::String(_)
            | TypeDesc::Enum(_)
            | TypeDesc::Not(_) => GuideNode::Open,
        })
        .collect();
    WalkGuide::new(nodes, node(schema.root()))
}

/// An object's guide node: its fields' names and aliases as the program looks them up.
fn object(
    o: &ObjectDesc,
    other: impl Fn(TypeId) -> Other,
    raw: impl Fn(TypeId) -> bool,
) -> GuideNode {
    GuideNode::Object {
        table: key_table(o, raw),
        fields: o.fields.iter().map(|f| f.ty.0).collect(),
        other: match o.unknown {
            UnknownFields::Allow => Other::Unknown,
            // Never met in an accepted document.
            UnknownFields::Deny => Other::Extra(OPEN),
            UnknownFields::Extra(t) => other(t),
        },
    }
}

/// What selects a union's branch as the walk reads it: each tag with its branch's node (the
/// program's discriminator selects the branch the same way; see the resolver).
fn tags(selection: Selection, branches: &[TypeId]) -> Tags {
    let node = |b: usize| branches[b].0;
    Tags {
        property: selection.property,
        tags: (selection.tags.into_iter())
            .map(|(tag, b)| (tag, node(b)))
            .collect(),
        default: match selection.unmatched {
            Unmatched::Branch(b) => Some(node(b)),
            Unmatched::Fail | Unmatched::Trial => None,
        },
    }
}

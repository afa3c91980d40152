//! What selects a union's branch before any branch is tried: a discriminator's tag, or the
//! name of an object's first member (serde's externally tagged enums). The program's
//! `Discriminate` prelude and the transcode walk's guide both follow it.

use serde_json::Value;

use crate::schema::{Schema, TypeDesc, UnionDesc, UnknownFields};

/// What selects a union's branch (see [`select`]).
pub(super) struct Selection {
    /// The property holding the tag; `None`: the first member's name.
    pub property: Option<Box<str>>,
    /// Each tag with the branch it selects.
    pub tags: Vec<(Box<str>, usize)>,
    /// Where a value that is no tag goes.
    pub unmatched: Unmatched,
    /// Whether every branch requires the property (no branch takes an object without it).
    pub required: bool,
}

/// Where a union's discriminator sends a value that is no tag.
pub(super) enum Unmatched {
    /// The default branch.
    Branch(usize),
    /// A failure: no branch can match it.
    Fail,
    /// The branches, tried in turn.
    Trial,
}

/// What selects a union's branch, if anything does: its discriminator when every tag
/// is a string; or, when at least two branches are objects of one required member,
/// named differently in each, that deny other members, and the others take no object
/// (serde's externally tagged enums: `{"Variant": data}`, unit variants as strings),
/// the first member's name: no other branch can match an object whose first member
/// names a branch. A name that is no tag, or a value that is no object, leaves the
/// union to its branches (whose errors it then reports, as without the prelude).
pub(super) fn select(schema: &Schema, u: &UnionDesc) -> Option<Selection> {
    if let Some(d) = &u.discriminator {
        let tags = d
            .selectors()
            .map(|(t, b)| Some((Box::from(t.as_str()?), b)));
        return Some(Selection {
            property: Some(d.property.as_str().into()),
            tags: tags.collect::<Option<_>>()?,
            unmatched: d.default.map_or(Unmatched::Fail, Unmatched::Branch),
            required: d.required,
        });
    }
    let mut tags: Vec<(Box<str>, usize)> = Vec::with_capacity(u.branches.len());
    for (i, &branch) in u.branches.iter().enumerate() {
        let o = match schema.node(branch) {
            TypeDesc::Object(o) => o,
            other if takes_no_object(other) => continue,
            _ => return None,
        };
        let ([field], UnknownFields::Deny) = (&o.fields[..], o.unknown) else {
            return None;
        };
        let distinct = tags.iter().all(|(t, _)| **t != *field.name);
        if !field.required || !field.aliases.is_empty() || !distinct {
            return None;
        }
        tags.push((field.name.as_str().into(), i));
    }
    (tags.len() >= 2).then_some(Selection {
        property: None,
        tags,
        unmatched: Unmatched::Trial,
        required: false,
    })
}

/// Whether no value of node `node` is an object (looked at without following references).
fn takes_no_object(node: &TypeDesc) -> bool {
    match node {
        TypeDesc::Never
        | TypeDesc::Null
        | TypeDesc::Bool
        | TypeDesc::Integer(_)
        | TypeDesc::Number(_)
        | TypeDesc::String(_)
        | TypeDesc::Array(_) => true,
        TypeDesc::Enum(values) => !values.iter().any(Value::is_object),
        _ => false,
    }
}

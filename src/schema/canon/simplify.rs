//! Node simplification rules, applied in post-order until nothing changes. Every rule keeps
//! the node's meaning; together they make equivalent spellings one.
//!
//! - `allOf`: nested `allOf` flattened (up to [`MAX_FLATTENED`] parts), `true` parts dropped, a `false` part makes `false`,
//!   one part is that part, `enum` parts absorb the rest (the values the other parts reject
//!   are removed), and when the parts' kinds leave one JSON kind, per-kind unions and
//!   `Nullable`s among them narrow to that kind's branch;
//! - `anyOf`: nested `anyOf` flattened (up to [`MAX_FLATTENED`] branches), `false` branches dropped, a `true` branch makes
//!   `true`, one branch is that branch; `oneOf`: `false` branches dropped, one is that one;
//!   either, when its branches accept pairwise disjoint JSON kinds, is a per-kind union;
//! - `not`: of `true` is `false`, of `false` is `true`, of `not` is the inner node;
//! - `if`: a `true` condition is `then`, a `false` one `else`; equal outcomes are that
//!   outcome (so both `true` is `true`);
//! - per-kind unions: `false` branches dropped, one branch is that branch, `null` plus one is
//!   `Nullable`, all six kinds unconstrained is `Any`;
//! - objects: extras of type `true` are `Allow`, of type `false` are `Deny`, no named fields
//!   with typed extras is a `Map`; a `Map` of `true` / `false` is the object form;
//! - numbers: canonical spellings; integers: bounds rounded inward to integers, `multipleOf: 1`
//!   dropped;
//! - enums: canonical values, JSON duplicates dropped, empty is `false`.

use crate::schema::model::{ArrayDesc, Graph, MemberRules, ObjectDesc, UnionDesc, UnknownFields};
use crate::schema::validate::check;
use crate::schema::value::{JsonSet, canonical_set};
use crate::schema::{
    Bound, IntegerDesc, Kind, KindBranches, KindSet, Num, NumberDesc, StringDesc, TypeDesc, TypeId,
};
use std::collections::HashSet;

/// Simplifies every node of `graph` to a fixpoint; `order` is the post-order over unguarded
/// edges (children first), which every rule keeps valid.
pub(super) fn simplify(graph: &mut Graph, order: &[TypeId]) {
    loop {
        let mut changed = false;
        for &id in order {
            match step(graph, id) {
                Step::Keep => continue,
                Step::Replace(desc) => graph.nodes[id.index()] = desc,
                Step::Copy(from) => graph.nodes[id.index()] = graph.node(from).clone(),
            }
            changed = true;
        }
        if !changed {
            return;
        }
    }
}

/// What one rule does to a node.
enum Step {
    /// Nothing applies.
    Keep,
    /// The node becomes this.
    Replace(TypeDesc),
    /// The node becomes a copy of this (unguarded descendant) node.
    Copy(TypeId),
}

/// The bound with its value in canonical spelling.
fn canonical(b: Bound) -> Bound {
    Bound {
        value: b.value.canonical(),
        ..b
    }
}

fn step(graph: &Graph, id: TypeId) -> Step {
    let replace_if = |changed: bool, desc: TypeDesc| match changed {
        true => Step::Replace(desc),
        false => Step::Keep,
    };
    match graph.node(id) {
        TypeDesc::Integer(d) => {
            let normal = IntegerDesc {
                minimum: d.minimum.map(|b| canonical(b).integral_lower()),
                maximum: d.maximum.map(|b| canonical(b).integral_upper()),
                multiple_of: d
                    .multiple_of
                    .map(Num::canonical)
                    .filter(|&m| m != Num::Int(1)),
                format: d.format.clone(),
            };
            replace_if(normal != *d, TypeDesc::Integer(normal))
        }
        TypeDesc::Number(d) => {
            let normal = NumberDesc {
                minimum: d.minimum.map(canonical),
                maximum: d.maximum.map(canonical),
                multiple_of: d.multiple_of.map(Num::canonical),
                format: d.format.clone(),
            };
            replace_if(normal != *d, TypeDesc::Number(normal))
        }
        TypeDesc::Enum(values) => {
            let set = canonical_set(values);
            match set.is_empty() {
                true => Step::Replace(TypeDesc::Never),
                false => replace_if(set != *values, TypeDesc::Enum(set)),
            }
        }
        TypeDesc::Map(values) => match graph.node(*values) {
            TypeDesc::Any => Step::Replace(open_object(UnknownFields::Allow)),
            TypeDesc::Never => Step::Replace(open_object(UnknownFields::Deny)),
            _ => Step::Keep,
        },
        TypeDesc::Object(o) => object(graph, o),
        TypeDesc::Nullable(inner) => match graph.node(*inner) {
            TypeDesc::Null | TypeDesc::Never => Step::Replace(TypeDesc::Null),
            TypeDesc::Any => Step::Replace(TypeDesc::Any),
            TypeDesc::Nullable(_) => Step::Copy(*inner),
            _ => Step::Keep,
        },
        TypeDesc::Kinds(k) => kinds(graph, k),
        TypeDesc::AnyOf(u) => any_of(graph, u),
        TypeDesc::OneOf(u) => {
            let branches: Vec<TypeId> = u
                .branches
                .iter()
                .copied()
                .filter(|&b| !is_never(graph, b))
                .collect();
            match branches[..] {
                [] => Step::Replace(TypeDesc::Never),
                [one] => Step::Copy(one),
                _ => match by_kind(graph, &branches) {
                    Some(k) => Step::Replace(TypeDesc::Kinds(k)),
                    None => replace_if(branches != u.branches, TypeDesc::OneOf(union(branches))),
                },
            }
        }
        TypeDesc::AllOf(parts) => all_of(graph, parts),
        TypeDesc::Not(inner) => match graph.node(*inner) {
            TypeDesc::Any => Step::Replace(TypeDesc::Never),
            TypeDesc::Never => Step::Replace(TypeDesc::Any),
            TypeDesc::Not(twice) => Step::Copy(*twice),
            _ => Step::Keep,
        },
        TypeDesc::Conditional(c) => match graph.node(c.condition) {
            TypeDesc::Any => Step::Copy(c.then),
            TypeDesc::Never => Step::Copy(c.otherwise),
            _ if c.then == c.otherwise || is_any(graph, c.then) && is_any(graph, c.otherwise) => {
                Step::Copy(c.then)
            }
            _ => Step::Keep,
        },
        TypeDesc::Any | TypeDesc::Never | TypeDesc::Null | TypeDesc::Bool | TypeDesc::String(_) => {
            Step::Keep
        }
        // `minContains: 0` without a maximum counts for nothing.
        TypeDesc::Array(a) => match a.contains {
            Some(c) if c.min == Some(0) && c.max.is_none() => {
                Step::Replace(TypeDesc::Array(ArrayDesc {
                    contains: None,
                    ..a.clone()
                }))
            }
            _ => Step::Keep,
        },
    }
}

fn is_never(graph: &Graph, id: TypeId) -> bool {
    matches!(graph.node(id), TypeDesc::Never)
}

fn is_any(graph: &Graph, id: TypeId) -> bool {
    matches!(graph.node(id), TypeDesc::Any)
}

/// Whether node `id` accepts every string.
fn accepts_any_string(graph: &Graph, id: TypeId) -> bool {
    match graph.node(id) {
        TypeDesc::Any => true,
        TypeDesc::String(d) => *d == StringDesc::default(),
        TypeDesc::Kinds(k) => k.string.is_some_and(|s| accepts_any_string(graph, s)),
        _ => false,
    }
}

fn union(branches: Vec<TypeId>) -> UnionDesc {
    UnionDesc {
        branches,
        discriminator: None,
    }
}

/// An object with no named fields.
fn open_object(unknown: UnknownFields) -> TypeDesc {
    TypeDesc::Object(ObjectDesc::open(unknown))
}

/// `ids` without repeats, first occurrence kept (a set: flattened unions of unions can hold
/// thousands of branches).
fn dedup(ids: Vec<TypeId>) -> Vec<TypeId> {
    let mut seen = HashSet::with_capacity(ids.len());
    ids.into_iter().filter(|&id| seen.insert(id)).collect()
}

fn object(graph: &Graph, o: &ObjectDesc) -> Step {
    let unknown = match o.unknown {
        UnknownFields::Extra(t) if is_any(graph, t) => UnknownFields::Allow,
        UnknownFields::Extra(t) if is_never(graph, t) => UnknownFields::Deny,
        other => other,
    };
    // Every name is a string, so names of any string (`true`) say nothing.
    let names = o.members.names.filter(|&t| !accepts_any_string(graph, t));
    // Patterns stay, even of any value: the members they match are described (transcode
    // keeps them where it drops other members).
    match unknown {
        UnknownFields::Extra(t)
            if o.fields.is_empty()
                && o.members.is_empty()
                && o.patterns.is_empty()
                && !o.unevaluated =>
        {
            Step::Replace(TypeDesc::Map(t))
        }
        _ if unknown != o.unknown || names != o.members.names => {
            Step::Replace(TypeDesc::Object(ObjectDesc {
                fields: o.fields.clone(),
                unknown,
                members: MemberRules {
                    names,
                    ..o.members.clone()
                },
                patterns: o.patterns.clone(),
                unevaluated: o.unevaluated,
            }))
        }
        _ => Step::Keep,
    }
}

fn kinds(graph: &Graph, k: &KindBranches) -> Step {
    let mut live = k.clone();
    for slot in live.slots_mut() {
        if slot.is_some_and(|s| is_never(graph, s)) {
            *slot = None;
        }
    }
    let present: Vec<TypeId> = live.slots().into_iter().flatten().collect();
    match present[..] {
        [] => Step::Replace(TypeDesc::Never),
        [one] => Step::Copy(one),
        [_, other] if live.null.is_some() => Step::Replace(TypeDesc::Nullable(other)),
        _ if present.len() == 6 && present.iter().all(|&s| unconstrained(graph, s)) => {
            Step::Replace(TypeDesc::Any)
        }
        _ if live != *k => Step::Replace(TypeDesc::Kinds(live)),
        _ => Step::Keep,
    }
}

/// Whether a per-kind branch accepts every value of its kind.
fn unconstrained(graph: &Graph, id: TypeId) -> bool {
    match graph.node(id) {
        TypeDesc::Null | TypeDesc::Bool => true,
        TypeDesc::Number(d) => *d == NumberDesc::default(),
        TypeDesc::String(d) => *d == StringDesc::default(),
        TypeDesc::Array(a) => {
            a.prefix_items.is_empty()
                && is_any(graph, a.items)
                && a.min_items == 0
                && a.max_items.is_none()
                && !a.unique_items
                && a.contains.is_none()
        }
        TypeDesc::Object(o) => {
            o.fields.is_empty()
                && o.unknown == UnknownFields::Allow
                && o.members.is_empty()
                && o.patterns.is_empty()
        }
        _ => false,
    }
}

/// The most branches (parts) a nested `anyOf` (`allOf`) may have and still be flattened into
/// the `anyOf` (`allOf`) that holds it; a larger one stays a branch (part). Without a bound a
/// chain of `anyOf`s, each holding one value and the next (a `$defs` chain), gives every
/// link a copy of all the branches after it: 8 000 links took 6.5 s and 400 MB to load, and
/// 20 000 links of `allOf` 30 s. With it, every node holds at most this many branches per
/// branch of its own, and equivalent spellings of unions this large may get different keys
/// (never different answers).
const MAX_FLATTENED: usize = 64;

fn any_of(graph: &Graph, u: &UnionDesc) -> Step {
    let mut branches = Vec::new();
    for &b in &u.branches {
        match graph.node(b) {
            TypeDesc::AnyOf(inner) if inner.branches.len() <= MAX_FLATTENED => {
                branches.extend(&inner.branches)
            }
            TypeDesc::Never => {}
            _ => branches.push(b),
        }
    }
    let branches = dedup(branches);
    if branches.iter().any(|&b| is_any(graph, b)) {
        return Step::Replace(TypeDesc::Any);
    }
    match branches[..] {
        [] => Step::Replace(TypeDesc::Never),
        [one] => Step::Copy(one),
        _ => match by_kind(graph, &branches) {
            Some(k) => Step::Replace(TypeDesc::Kinds(k)),
            None if branches != u.branches => Step::Replace(TypeDesc::AnyOf(union(branches))),
            None => Step::Keep,
        },
    }
}

/// The per-kind union equivalent to a union whose branches accept pairwise disjoint kinds
/// (each branch a single-kind node or a per-kind union); `None` when kinds overlap or a
/// branch's kinds take more than a glance to know. With disjoint kinds at most one branch can
/// match, so this serves `anyOf` and `oneOf` alike.
fn by_kind(graph: &Graph, branches: &[TypeId]) -> Option<KindBranches> {
    let mut out = KindBranches::default();
    for &b in branches {
        let pieces: Vec<(Kind, TypeId)> = match graph.node(b) {
            TypeDesc::Kinds(k) => k.branches().collect(),
            _ => {
                let kinds = admitted(graph, b)?;
                let mut kinds = kinds.iter();
                match (kinds.next(), kinds.next()) {
                    (Some(kind), None) => vec![(kind, b)],
                    _ => return None,
                }
            }
        };
        for (kind, id) in pieces {
            let slot = out.slot_mut(kind);
            if slot.is_some() {
                return None;
            }
            *slot = Some(id);
        }
    }
    Some(out)
}

/// The JSON kinds a node accepts (numbers as `Number`); `None` when it takes more than a
/// glance to know.
fn admitted(graph: &Graph, id: TypeId) -> Option<KindSet> {
    let one = |kind| Some(KindSet::only(kind));
    match graph.node(id) {
        TypeDesc::Never => Some(KindSet::EMPTY),
        TypeDesc::Null => one(Kind::Null),
        TypeDesc::Bool => one(Kind::Boolean),
        TypeDesc::Integer(_) | TypeDesc::Number(_) => one(Kind::Number),
        TypeDesc::String(_) => one(Kind::String),
        TypeDesc::Array(_) => one(Kind::Array),
        TypeDesc::Object(_) | TypeDesc::Map(_) => one(Kind::Object),
        // The kinds of its values, so `anyOf: [enum of strings, null]` is the `Nullable` the
        // builder's `nullable(enumeration(...))` makes.
        TypeDesc::Enum(values) => Some(values.iter().fold(
            KindSet::EMPTY,
            |set, v| match Kind::of(v) {
                Kind::Integer => set.with(Kind::Number),
                kind => set.with(kind),
            },
        )),
        TypeDesc::Nullable(inner) => admitted(graph, *inner).map(|k| k.with(Kind::Null)),
        TypeDesc::Kinds(k) => Some(
            Kind::SLOTS
                .into_iter()
                .filter(|&kind| k.get(kind).is_some())
                .fold(KindSet::EMPTY, KindSet::with),
        ),
        _ => None,
    }
}

fn all_of(graph: &Graph, original: &[TypeId]) -> Step {
    let mut parts = Vec::new();
    for &p in original {
        match graph.node(p) {
            TypeDesc::AllOf(inner) if inner.len() <= MAX_FLATTENED => parts.extend(inner),
            TypeDesc::Any => {}
            _ => parts.push(p),
        }
    }
    let mut parts = dedup(parts);
    let common = parts
        .iter()
        .filter_map(|&p| admitted(graph, p))
        .reduce(KindSet::intersection);
    if common.is_some_and(KindSet::is_empty) {
        return Step::Replace(TypeDesc::Never);
    }
    if let Some([kind]) = common.map(|c| c.iter().collect::<Vec<_>>()).as_deref() {
        for part in &mut parts {
            match graph.node(*part) {
                TypeDesc::Kinds(k) => *part = k.get(*kind).unwrap_or(*part),
                TypeDesc::Nullable(inner) if *kind != Kind::Null => *part = *inner,
                _ => {}
            }
        }
    }
    let (enums, others): (Vec<TypeId>, Vec<TypeId>) = parts
        .iter()
        .partition(|&&p| matches!(graph.node(p), TypeDesc::Enum(_)));
    let sets: Vec<&Vec<serde_json::Value>> = enums
        .iter()
        .filter_map(|&e| match graph.node(e) {
            TypeDesc::Enum(values) => Some(values),
            _ => None,
        })
        .collect();
    if let Some((first, rest)) = sets.split_first() {
        let rest: Vec<JsonSet> = rest.iter().map(|values| JsonSet::of(values)).collect();
        let kept: Vec<serde_json::Value> = first
            .iter()
            .filter(|v| rest.iter().all(|set| set.contains(v)))
            .filter(|v| others.iter().all(|&p| check(&graph.nodes, p, v).is_ok()))
            .cloned()
            .collect();
        return Step::Replace(match kept.is_empty() {
            true => TypeDesc::Never,
            false => TypeDesc::Enum(kept),
        });
    }
    match parts[..] {
        [] => Step::Replace(TypeDesc::Any),
        [one] => Step::Copy(one),
        _ if parts != original => Step::Replace(TypeDesc::AllOf(parts)),
        _ => Step::Keep,
    }
}

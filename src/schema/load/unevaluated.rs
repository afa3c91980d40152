//! `unevaluatedProperties`: the members a schema's other keywords evaluate, found from the
//! schema document alone.
//!
//! A member is evaluated when `properties` names it, a `patternProperties` pattern matches
//! it, or `additionalProperties` / a nested `unevaluatedProperties` takes it, in the schema
//! object itself or in a subschema that applies in place wherever it does (`allOf` parts,
//! `$ref` targets, recursively). Those sets are static; `unevaluatedProperties` then checks
//! the other members, as an object node beside the schema's other parts whose fields and
//! patterns (of any value) are the evaluated members. Subschemas that apply only sometimes
//! (`anyOf` / `oneOf` branches, `if` / `then` / `else`) would make the set depend on the
//! instance: one that evaluates a member the static set does not is a load error, never a
//! silently different answer.

use super::index::{Index, LocationSchema};
use crate::schema::doc::Doc;
use crate::schema::{SchemaError, SchemaErrorKind, TypeId, pointer};

/// The members some keywords evaluate.
#[derive(Debug, Default)]
pub(super) struct Evaluated {
    /// Names from `properties`, without repeats.
    pub(super) names: Vec<String>,
    /// Patterns from `patternProperties`, without repeats, each with its pointer (where an
    /// invalid one is reported).
    pub(super) patterns: Vec<(String, String)>,
    /// Every member (`additionalProperties` or `unevaluatedProperties` seen).
    pub(super) all: bool,
}

impl Evaluated {
    fn join(&mut self, other: Evaluated) {
        self.all |= other.all;
        for name in other.names {
            if !self.names.contains(&name) {
                self.names.push(name);
            }
        }
        for (pattern, at) in other.patterns {
            if !self.patterns.iter().any(|(p, _)| *p == pattern) {
                self.patterns.push((pattern, at));
            }
        }
    }

    /// Whether every member `other` evaluates, this does.
    fn covers(&self, other: &Evaluated) -> bool {
        self.all
            || (!other.all
                && other.names.iter().all(|n| self.names.contains(n))
                && (other.patterns.iter()).all(|(p, _)| self.patterns.iter().any(|(q, _)| q == p)))
    }
}

/// The members evaluated beside the `unevaluatedProperties` of the schema object at `at`;
/// an error when a subschema applied only sometimes evaluates others.
pub(super) fn evaluated(index: &Index<'_>, at: TypeId) -> Result<Evaluated, SchemaError> {
    let mut always = Evaluated::default();
    let mut sometimes = Vec::new();
    let mut seen = vec![false; index.locations.len()];
    seen[at.index()] = true;
    let mut next = in_place(index, at, &mut always, &mut sometimes, false);
    while let Some(id) = next.pop() {
        if !std::mem::replace(&mut seen[id.index()], true) {
            next.extend(in_place(index, id, &mut always, &mut sometimes, true));
        }
    }
    for branch in sometimes {
        if !always.covers(&everything_below(index, branch)) {
            let at = index.locations[branch.index()].pointer.clone();
            return Err(SchemaError::new(SchemaErrorKind::UnevaluatedByBranch, at));
        }
    }
    Ok(always)
}

/// Everything the subschema at `id` may evaluate, whichever of its branches apply.
fn everything_below(index: &Index<'_>, id: TypeId) -> Evaluated {
    let mut all = Evaluated::default();
    let mut branches = Vec::new();
    let (mut seen, mut next) = (vec![false; index.locations.len()], vec![id]);
    while let Some(id) = next.pop() {
        if !std::mem::replace(&mut seen[id.index()], true) {
            next.extend(in_place(index, id, &mut all, &mut branches, true));
            next.append(&mut branches);
        }
    }
    all
}

/// The members the schema object at `id` evaluates by its own keywords, joined into
/// `evaluated` (its `unevaluatedProperties` counting when `own_unevaluated`); its subschemas
/// applied sometimes pushed on `sometimes`; returns those applied always.
fn in_place(
    index: &Index<'_>,
    id: TypeId,
    evaluated: &mut Evaluated,
    sometimes: &mut Vec<TypeId>,
    own_unevaluated: bool,
) -> Vec<TypeId> {
    let location = &index.locations[id.index()];
    let LocationSchema::Object(members) = location.schema else {
        return Vec::new();
    };
    let get = |k: &str| members.iter().find(|(m, _)| m == k).map(|(_, v)| v);
    let keys = |k: &str| match get(k) {
        Some(Doc::Object(members)) => members.iter().map(|(name, _)| name.clone()).collect(),
        _ => Vec::new(),
    };
    let within = pointer::push(&location.pointer, "patternProperties");
    let patterns = (keys("patternProperties").into_iter())
        .map(|p| {
            let at = pointer::push(&within, &p);
            (p, at)
        })
        .collect();
    evaluated.join(Evaluated {
        names: keys("properties"),
        patterns,
        all: get("additionalProperties").is_some()
            || (own_unevaluated && get("unevaluatedProperties").is_some()),
    });
    let child = |k: &str| index.id(&pointer::push(&location.pointer, k));
    let list = |k: &str| match get(k) {
        Some(Doc::Array(items)) => (0..items.len())
            .map(|i| {
                index.id(&pointer::push(
                    &pointer::push(&location.pointer, k),
                    &i.to_string(),
                ))
            })
            .collect(),
        _ => Vec::new(),
    };
    for keyword in ["anyOf", "oneOf"] {
        sometimes.extend(list(keyword));
    }
    for keyword in ["if", "then", "else"] {
        if get(keyword).is_some() {
            sometimes.push(child(keyword));
        }
    }
    let mut always = list("allOf");
    if let Some(Doc::String(reference)) = get("$ref") {
        always.extend(index.resolve_ref(&location.base, reference));
    }
    always
}

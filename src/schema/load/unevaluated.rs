//! `unevaluatedProperties` and `unevaluatedItems`: what a schema's other keywords evaluate,
//! found from the schema document alone.
//!
//! A member is evaluated when `properties` names it, a `patternProperties` pattern matches
//! it, or `additionalProperties` / a nested `unevaluatedProperties` takes it; an item when
//! `prefixItems` reaches its index, or `items` / a nested `unevaluatedItems` takes it. That
//! holds in the schema object itself and in every subschema that applies in place wherever
//! it does (`allOf` parts, `$ref` targets, recursively). Those sets are static; the keyword
//! then checks the rest, as one more node beside the schema's other parts (see the loader's
//! `unevaluated_part`). Subschemas that apply only sometimes (`anyOf` / `oneOf` branches,
//! `if` / `then` / `else`, `dependentSchemas` members), and `contains` (which evaluates the
//! items that match it), would make the set depend on the instance: one that evaluates
//! something the static set does not is a load error, never a silently different answer.

use super::index::{Index, LocationSchema};
use crate::schema::doc::Doc;
use crate::schema::{SchemaError, SchemaErrorKind, TypeId, pointer};

/// What one `unevaluated*` keyword needs to know of the keywords beside it.
pub(super) trait Evaluation: Default {
    /// The keyword this evaluation is for.
    const KEYWORD: &'static str;
    /// What the schema object at `location` (of `members`) evaluates by its own keywords,
    /// its own `unevaluated*` keyword counting when `own_unevaluated`.
    fn own(location: &str, members: &[(String, Doc)], own_unevaluated: bool) -> Self;
    /// Adds what `other` evaluates.
    fn join(&mut self, other: Self);
    /// Whether everything `other` evaluates, this does.
    fn covers(&self, other: &Self) -> bool;
    /// Where this set would depend on the instance by itself (`contains`), if anywhere.
    fn undecided(&self) -> Option<&str>;
}

/// The members some keywords evaluate.
#[derive(Debug, Default)]
pub(super) struct Members {
    /// Names from `properties`, without repeats.
    pub(super) names: Vec<String>,
    /// Patterns from `patternProperties`, without repeats, each with its pointer (where an
    /// invalid one is reported).
    pub(super) patterns: Vec<(String, String)>,
    /// Every member (`additionalProperties` or `unevaluatedProperties` seen).
    pub(super) all: bool,
}

impl Evaluation for Members {
    const KEYWORD: &'static str = "unevaluatedProperties";

    fn own(location: &str, members: &[(String, Doc)], own_unevaluated: bool) -> Self {
        let get = |k: &str| get(members, k);
        let keys = |k: &str| match get(k) {
            Some(Doc::Object(members)) => members.iter().map(|(name, _)| name.clone()).collect(),
            _ => Vec::new(),
        };
        let within = pointer::push(location, "patternProperties");
        let patterns = (keys("patternProperties").into_iter())
            .map(|p| {
                let at = pointer::push(&within, &p);
                (p, at)
            })
            .collect();
        Members {
            names: keys("properties"),
            patterns,
            all: get("additionalProperties").is_some()
                || (own_unevaluated && get(Self::KEYWORD).is_some()),
        }
    }

    fn join(&mut self, other: Members) {
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

    fn covers(&self, other: &Members) -> bool {
        self.all
            || (!other.all
                && other.names.iter().all(|n| self.names.contains(n))
                && (other.patterns.iter()).all(|(p, _)| self.patterns.iter().any(|(q, _)| q == p)))
    }

    fn undecided(&self) -> Option<&str> {
        None
    }
}

/// The items some keywords evaluate.
#[derive(Debug, Default)]
pub(super) struct Items {
    /// How many leading items `prefixItems` evaluates (the longest one seen).
    pub(super) prefix: usize,
    /// Every item (`items` or `unevaluatedItems` seen).
    pub(super) all: bool,
    /// The pointer of a `contains` seen first, which evaluates the items matching it.
    contains: Option<String>,
}

impl Evaluation for Items {
    const KEYWORD: &'static str = "unevaluatedItems";

    fn own(location: &str, members: &[(String, Doc)], own_unevaluated: bool) -> Self {
        let get = |k: &str| get(members, k);
        Items {
            prefix: match get("prefixItems") {
                Some(Doc::Array(items)) => items.len(),
                _ => 0,
            },
            all: get("items").is_some() || (own_unevaluated && get(Self::KEYWORD).is_some()),
            contains: get("contains").map(|_| pointer::push(location, "contains")),
        }
    }

    fn join(&mut self, other: Items) {
        self.prefix = self.prefix.max(other.prefix);
        self.all |= other.all;
        self.contains = self.contains.take().or(other.contains);
    }

    fn covers(&self, other: &Items) -> bool {
        self.all || (!other.all && other.contains.is_none() && other.prefix <= self.prefix)
    }

    fn undecided(&self) -> Option<&str> {
        self.contains.as_deref().filter(|_| !self.all)
    }
}

/// What is evaluated beside the `unevaluated*` keyword of the schema object at `at`; an
/// error when a subschema applied only sometimes, or `contains`, evaluates more.
pub(super) fn evaluated<E: Evaluation>(index: &Index<'_>, at: TypeId) -> Result<E, SchemaError> {
    let mut always = E::default();
    let mut sometimes = Vec::new();
    let mut seen = vec![false; index.locations.len()];
    seen[at.index()] = true;
    let mut next = in_place(index, at, &mut always, &mut sometimes, false);
    while let Some(id) = next.pop() {
        if !std::mem::replace(&mut seen[id.index()], true) {
            next.extend(in_place(index, id, &mut always, &mut sometimes, true));
        }
    }
    let by_branch = |at: String| {
        let keyword = E::KEYWORD.to_owned();
        SchemaError::new(SchemaErrorKind::UnevaluatedByBranch { keyword }, at)
    };
    if let Some(contains) = always.undecided() {
        return Err(by_branch(contains.to_owned()));
    }
    for branch in sometimes {
        if !always.covers(&everything_below::<E>(index, branch)) {
            return Err(by_branch(index.locations[branch.index()].pointer.clone()));
        }
    }
    Ok(always)
}

/// Everything the subschema at `id` may evaluate, whichever of its branches apply.
fn everything_below<E: Evaluation>(index: &Index<'_>, id: TypeId) -> E {
    let mut all = E::default();
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

/// What the schema object at `id` evaluates by its own keywords, joined into `evaluated`
/// (its `unevaluated*` keyword counting when `own_unevaluated`); its subschemas applied
/// sometimes pushed on `sometimes`; returns those applied always.
fn in_place<E: Evaluation>(
    index: &Index<'_>,
    id: TypeId,
    evaluated: &mut E,
    sometimes: &mut Vec<TypeId>,
    own_unevaluated: bool,
) -> Vec<TypeId> {
    let location = &index.locations[id.index()];
    let LocationSchema::Object(members) = location.schema else {
        return Vec::new();
    };
    let get = |k: &str| get(members, k);
    evaluated.join(E::own(&location.pointer, members, own_unevaluated));
    let within = |k: &str| pointer::push(&location.pointer, k);
    let tokens = |k: &str| -> Vec<String> {
        match get(k) {
            Some(Doc::Array(items)) => (0..items.len()).map(|i| i.to_string()).collect(),
            Some(Doc::Object(members)) => members.iter().map(|(name, _)| name.clone()).collect(),
            _ => Vec::new(),
        }
    };
    let children = |k: &str| -> Vec<TypeId> {
        let at = within(k);
        (tokens(k).iter())
            .map(|t| index.id(&pointer::push(&at, t)))
            .collect()
    };
    for keyword in ["anyOf", "oneOf", "dependentSchemas"] {
        sometimes.extend(children(keyword));
    }
    for keyword in ["if", "then", "else"] {
        if get(keyword).is_some() {
            sometimes.push(index.id(&within(keyword)));
        }
    }
    let mut always = children("allOf");
    if let Some(Doc::String(reference)) = get("$ref") {
        always.extend(index.resolve_ref(&location.base, reference));
    }
    always
}

/// The value of `keyword` among a schema object's `members`.
fn get<'d>(members: &'d [(String, Doc)], keyword: &str) -> Option<&'d Doc> {
    members.iter().find(|(m, _)| m == keyword).map(|(_, v)| v)
}

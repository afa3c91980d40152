//! `unevaluatedProperties` and `unevaluatedItems`: what a schema's other keywords evaluate,
//! found from the schema document alone.
//!
//! A member is evaluated when `properties` names it, a `patternProperties` pattern matches
//! it, or `additionalProperties` / a nested `unevaluatedProperties` takes it; an item when
//! `prefixItems` reaches its index, `contains` matches it, or `items` / a nested
//! `unevaluatedItems` takes it. That holds in the schema object itself and in every
//! subschema that applies in place wherever it does (`allOf` parts, `$ref` targets,
//! recursively): what is always evaluated.
//!
//! Subschemas that apply only sometimes evaluate more only in some instances. For a `oneOf`
//! branch (exactly one matches a valid instance), an `anyOf` branch (each matches or not),
//! `if` with `then` when it matches and `else` when it does not, and a `dependentSchemas`
//! member when its member is present, what each outcome evaluates is static too: the
//! [`Plan`] lists every combination of outcomes as a [`Case`], with its [`Selector`]s and
//! what is evaluated then, and the loader checks the keyword per case (a conditional
//! chain; `contains` is checked item by item within a case). A branch's own branches add
//! their outcomes to the branch's (up to [`MAX_NESTING`] deep). More than [`MAX_CASES`]
//! cases would make the plan too long: a load error at the branch that passes the limit,
//! never a silently different answer.

use super::build::dependent_schema_members;
use super::index::{Index, LocationSchema};
use crate::schema::doc::{Doc, member};
use crate::schema::{SchemaError, SchemaErrorKind, TypeId, pointer};

/// What one `unevaluated*` keyword needs to know of the keywords beside it.
pub(super) trait Evaluation: Clone + Default {
    /// The keyword this evaluation is for.
    const KEYWORD: &'static str;
    /// What the schema object at `location` (of `members`) evaluates by its own keywords,
    /// its own `unevaluated*` keyword counting when `own_unevaluated`.
    fn own(
        index: &Index<'_>,
        location: &str,
        members: &[(String, Doc)],
        own_unevaluated: bool,
    ) -> Self;
    /// Adds what `other` evaluates.
    fn join(&mut self, other: Self);
    /// Whether everything `other` evaluates, this does.
    fn covers(&self, other: &Self) -> bool;
}

/// The members some keywords evaluate.
#[derive(Clone, Debug, Default)]
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

    fn own(
        _: &Index<'_>,
        location: &str,
        members: &[(String, Doc)],
        own_unevaluated: bool,
    ) -> Self {
        let get = |k: &str| member(members, k);
        let within = pointer::push(location, "patternProperties");
        let patterns = (tokens(members, "patternProperties").into_iter())
            .map(|p| {
                let at = pointer::push(&within, &p);
                (p, at)
            })
            .collect();
        Members {
            names: tokens(members, "properties"),
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
}

/// The items some keywords evaluate.
#[derive(Clone, Debug, Default)]
pub(super) struct Items {
    /// How many leading items `prefixItems` evaluates (the longest one seen).
    pub(super) prefix: usize,
    /// Every item (`items` or `unevaluatedItems` seen).
    pub(super) all: bool,
    /// The `contains` subschemas, without repeats: each evaluates the items matching it.
    pub(super) contains: Vec<TypeId>,
}

impl Evaluation for Items {
    const KEYWORD: &'static str = "unevaluatedItems";

    fn own(
        index: &Index<'_>,
        location: &str,
        members: &[(String, Doc)],
        own_unevaluated: bool,
    ) -> Self {
        let get = |k: &str| member(members, k);
        Items {
            prefix: match get("prefixItems") {
                Some(Doc::Array(items)) => items.len(),
                _ => 0,
            },
            all: get("items").is_some() || (own_unevaluated && get(Self::KEYWORD).is_some()),
            contains: (get("contains").into_iter())
                .map(|_| index.id(&pointer::push(location, "contains")))
                .collect(),
        }
    }

    fn join(&mut self, other: Items) {
        self.prefix = self.prefix.max(other.prefix);
        self.all |= other.all;
        for id in other.contains {
            if !self.contains.contains(&id) {
                self.contains.push(id);
            }
        }
    }

    fn covers(&self, other: &Items) -> bool {
        self.all
            || (!other.all
                && other.prefix <= self.prefix
                && other.contains.iter().all(|c| self.contains.contains(c)))
    }
}

/// Most cases one `unevaluated*` keyword is checked in (each a conditional of the chain).
pub(super) const MAX_CASES: usize = 16;

/// What decides one `unevaluated*` keyword.
pub(super) struct Plan<E> {
    /// What the schema's other keywords evaluate in every instance.
    pub(super) always: E,
    /// Every combination of branch outcomes that evaluates more, each with all it
    /// evaluates; empty when no branch evaluates more than `always`.
    pub(super) cases: Vec<Case<E>>,
}

/// One combination of branch outcomes (exactly one holds of a valid instance).
pub(super) struct Case<E> {
    /// What holds of the instance in this case: all of these.
    pub(super) when: Vec<Selector>,
    /// What is evaluated then (`always` included).
    pub(super) evaluated: E,
}

/// One branch outcome, as a test of the instance.
#[derive(Clone, Debug)]
pub(super) enum Selector {
    /// The subschema matches.
    Matches(TypeId),
    /// The subschema does not match.
    Fails(TypeId),
    /// The instance is an object with a member of this name.
    Has(String),
    /// The instance is not an object with a member of this name.
    Lacks(String),
}

/// Subschemas applied only sometimes, as one keyword groups them.
enum Source {
    /// `anyOf`: each branch matches or not.
    AnyOf(Vec<TypeId>),
    /// `oneOf`: exactly one branch matches a valid instance.
    OneOf(Vec<TypeId>),
    /// `if` and what applies when it matches (`then`) and when not (`else`).
    If {
        condition: TypeId,
        then: Option<TypeId>,
        otherwise: Option<TypeId>,
    },
    /// A `dependentSchemas` member: its name and schema.
    Dependent(String, TypeId),
}

/// How deep branches inside branches may go before a plan gives up (a branch that reaches
/// itself in place through `$ref` would go on for ever).
const MAX_NESTING: usize = 8;

/// The plan of the `unevaluated*` keyword of the schema object at `at`; an error when what
/// is evaluated would depend on the instance beyond what a plan can say.
pub(super) fn plan<E: Evaluation>(index: &Index<'_>, at: TypeId) -> Result<Plan<E>, SchemaError> {
    let (always, sources) = closure::<E>(index, at, false)?;
    let cases = cases(index, always.clone(), sources, &E::default(), 0)?;
    Ok(match cases[..] {
        [ref only] if only.when.is_empty() => Plan {
            always,
            cases: Vec::new(),
        },
        _ => Plan { always, cases },
    })
}

/// The cases of subschemas that always evaluate `evaluated` and apply `sources` sometimes,
/// beside others that evaluate `beside` (outcomes that add nothing to both are not told
/// apart): every combination of the sources' outcomes, each with what it evaluates
/// (`evaluated` included, `beside` not). One case without selectors when no source adds.
fn cases<E: Evaluation>(
    index: &Index<'_>,
    evaluated: E,
    sources: Vec<Source>,
    beside: &E,
    nesting: usize,
) -> Result<Vec<Case<E>>, SchemaError> {
    let mut base = beside.clone();
    base.join(evaluated.clone());
    let mut choices = Vec::new();
    for source in sources {
        // Each group: outcomes of which exactly one holds, each a conjunction of selectors
        // (a branch's own cases inside it), with the group's first subschema.
        let mut groups = Vec::new();
        match source {
            // Each branch matches or not, whatever the others do.
            Source::AnyOf(branches) => {
                for b in branches {
                    let mut outcomes = within(index, &[b], &base, Selector::Matches(b), nesting)?;
                    outcomes.push((vec![Selector::Fails(b)], E::default()));
                    groups.push((b, outcomes));
                }
            }
            Source::OneOf(branches) => {
                let mut outcomes = Vec::new();
                for &b in &branches {
                    outcomes.extend(within(index, &[b], &base, Selector::Matches(b), nesting)?);
                }
                groups.push((branches[0], outcomes));
            }
            Source::If {
                condition,
                then,
                otherwise,
            } => {
                let matched: Vec<TypeId> = [Some(condition), then].into_iter().flatten().collect();
                let other: Vec<TypeId> = otherwise.into_iter().collect();
                let yes = Selector::Matches(condition);
                let mut outcomes = within(index, &matched, &base, yes, nesting)?;
                let no = Selector::Fails(condition);
                outcomes.extend(within(index, &other, &base, no, nesting)?);
                groups.push((condition, outcomes));
            }
            Source::Dependent(name, id) => {
                let has = Selector::Has(name.clone());
                let mut outcomes = within(index, &[id], &base, has, nesting)?;
                outcomes.push((vec![Selector::Lacks(name)], E::default()));
                groups.push((id, outcomes));
            }
        }
        for (first, outcomes) in groups {
            if outcomes.iter().any(|(_, e)| !base.covers(e)) {
                choices.push((pointer_of(index, first), outcomes));
            }
        }
    }
    let mut cases = vec![Case {
        when: Vec::new(),
        evaluated,
    }];
    for (at, outcomes) in choices {
        if cases.len() * outcomes.len() > MAX_CASES {
            return Err(by_branch::<E>(at));
        }
        cases = (cases.iter())
            .flat_map(|case| {
                outcomes.iter().map(move |(selectors, evaluated)| {
                    let mut both = case.evaluated.clone();
                    both.join(evaluated.clone());
                    let mut when = case.when.clone();
                    when.extend(selectors.iter().cloned());
                    Case {
                        when,
                        evaluated: both,
                    }
                })
            })
            .collect();
    }
    Ok(cases)
}

/// The outcomes of one branch outcome, the subschemas `ids` applying when `selector` holds:
/// one per case of their own branches, each `selector` and that case's selectors, with
/// what it evaluates.
fn within<E: Evaluation>(
    index: &Index<'_>,
    ids: &[TypeId],
    beside: &E,
    selector: Selector,
    nesting: usize,
) -> Result<Vec<(Vec<Selector>, E)>, SchemaError> {
    if nesting == MAX_NESTING {
        let at = ids
            .first()
            .map_or_else(String::new, |&id| pointer_of(index, id));
        return Err(by_branch::<E>(at));
    }
    let mut evaluated = E::default();
    let mut sources = Vec::new();
    for &id in ids {
        let (own, more) = closure::<E>(index, id, true)?;
        evaluated.join(own);
        sources.extend(more);
    }
    let cases = cases(index, evaluated, sources, beside, nesting + 1)?;
    Ok(cases
        .into_iter()
        .map(|case| {
            let mut when = vec![selector.clone()];
            when.extend(case.when);
            (when, case.evaluated)
        })
        .collect())
}

/// What the schema object at `root` and everything applied in place with it evaluate, and
/// the sources of what applies only sometimes. The `unevaluated*` keyword of `root` counts
/// when `own_unevaluated` (a branch's, not the schema's own).
fn closure<E: Evaluation>(
    index: &Index<'_>,
    root: TypeId,
    own_unevaluated: bool,
) -> Result<(E, Vec<Source>), SchemaError> {
    let mut evaluated = E::default();
    let mut sources = Vec::new();
    let mut seen = vec![false; index.locations.len()];
    seen[root.index()] = true;
    let mut next = in_place(index, root, &mut evaluated, &mut sources, own_unevaluated)?;
    while let Some(id) = next.pop() {
        if !std::mem::replace(&mut seen[id.index()], true) {
            next.extend(in_place(index, id, &mut evaluated, &mut sources, true)?);
        }
    }
    Ok((evaluated, sources))
}

/// The load error of a keyword whose evaluated set would depend on the subschema at `at`.
fn by_branch<E: Evaluation>(at: String) -> SchemaError {
    let keyword = E::KEYWORD.to_owned();
    SchemaError::new(SchemaErrorKind::UnevaluatedByBranch { keyword }, at)
}

/// The pointer of the subschema `id`.
fn pointer_of(index: &Index<'_>, id: TypeId) -> String {
    index.locations[id.index()].pointer.clone()
}

/// What the schema object at `id` evaluates by its own keywords, joined into `evaluated`
/// (its `unevaluated*` keyword counting when `own_unevaluated`); its subschemas applied
/// sometimes pushed on `sources`; returns those applied always. An error when one applied
/// always is a `$dynamicRef` that the dynamic scope resolves.
fn in_place<E: Evaluation>(
    index: &Index<'_>,
    id: TypeId,
    evaluated: &mut E,
    sources: &mut Vec<Source>,
    own_unevaluated: bool,
) -> Result<Vec<TypeId>, SchemaError> {
    let location = &index.locations[id.index()];
    let LocationSchema::Object(members) = &location.schema else {
        return Ok(Vec::new());
    };
    let get = |k: &str| member(members, k);
    evaluated.join(E::own(index, &location.pointer, members, own_unevaluated));
    let within = |k: &str| pointer::push(&location.pointer, k);
    let children = |k: &str| -> Vec<TypeId> {
        let at = within(k);
        (tokens(members, k).iter())
            .map(|t| index.id(&pointer::push(&at, t)))
            .collect()
    };
    if get("anyOf").is_some() {
        sources.push(Source::AnyOf(children("anyOf")));
    }
    if get("oneOf").is_some() {
        sources.push(Source::OneOf(children("oneOf")));
    }
    // `then` and `else` without `if` apply nowhere.
    if get("if").is_some() {
        let child = |k: &str| get(k).map(|_| index.id(&within(k)));
        sources.push(Source::If {
            condition: index.id(&within("if")),
            then: child("then"),
            otherwise: child("else"),
        });
    }
    for (keyword, name) in dependent_schema_members(members) {
        let id = index.id(&pointer::push(&within(keyword), name));
        sources.push(Source::Dependent(name.to_owned(), id));
    }
    let mut always = children("allOf");
    if let Some(Doc::String(reference)) = get("$ref") {
        always.extend(index.resolve_ref(&location.base, reference));
    }
    if let Some(Doc::String(reference)) = get("$dynamicRef") {
        match index.resolve_dynamic_ref(&location.base, reference) {
            // What the target evaluates would depend on the scope the value is reached in.
            Some(target) if target.anchor.is_some() => {
                return Err(by_branch::<E>(within("$dynamicRef")));
            }
            target => always.extend(target.map(|t| t.initial)),
        }
    }
    Ok(always)
}

/// The pointer tokens of the subschemas under `keyword` of a schema object's `members`:
/// indices of an array, names of an object.
fn tokens(members: &[(String, Doc)], keyword: &str) -> Vec<String> {
    match member(members, keyword) {
        Some(Doc::Array(items)) => (0..items.len()).map(|i| i.to_string()).collect(),
        Some(Doc::Object(members)) => members.iter().map(|(name, _)| name.clone()).collect(),
        _ => Vec::new(),
    }
}

//! The reference validator: does a `serde_json::Value` match a schema?
//!
//! This is the semantic oracle the interpreter and the JIT must agree with, so it is written
//! to be obviously correct, not fast: one function per node kind, straight from the model's
//! definitions. Errors carry the instance path and the keyword's location along the
//! evaluation path (see [`ValidationError::schema_pointer`]).

mod error;

pub use error::{PathSegment, ValidationError, ValidationErrorKind};

use crate::schema::model::{ArrayDesc, ContainsDesc, MemberRules, ObjectDesc, UnknownFields};
use crate::schema::num::is_multiple_of;
use crate::schema::pointer;
use crate::schema::value::{JsonSet, json_eq};
use crate::schema::{
    Bound, IntegerDesc, Kind, KindBranches, KindSet, Num, NumberDesc, Schema, StringDesc, TypeDesc,
    TypeId, UnionDesc,
};
use serde_json::Value;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::ops::Range;

impl Schema {
    /// Checks `value` against the schema: `Ok`, or the first failure found (depth first, in
    /// schema order).
    pub fn validate_value(&self, value: &Value) -> Result<(), ValidationError> {
        check(&self.nodes, self.root, value)
    }

    /// Whether `value` matches node `id` (the reference validator's answer).
    pub(crate) fn node_accepts(&self, id: TypeId, value: &Value) -> bool {
        self.check_node(id, value).is_ok()
    }

    /// The reference validator's answer for `value` against node `id`.
    pub(crate) fn check_node(&self, id: TypeId, value: &Value) -> Result<(), ValidationError> {
        check(&self.nodes, id, value)
    }
}

/// The result of checking one node.
type Check = Result<(), ValidationError>;

/// Checks `value` against node `id` of `nodes`, which must have no unguarded cycle.
pub(crate) fn check(nodes: &[TypeDesc], id: TypeId, value: &Value) -> Check {
    Checker::new(nodes).check(id, value)
}

/// The reference validator over one value: the nodes, and the verdict of each node at each
/// part of the value already checked against it.
///
/// A union's branches (an `allOf`'s parts, a `not` and its siblings) that reach one
/// subschema check a value with it more than once, and when it reaches such a union again
/// below, the checks multiply per level (2^depth for an untagged `oneOf` of `allOf`s sharing
/// a recursive base). Each node is checked against each part of the value once; a repeated
/// check answers from its verdict. A failure's error is not kept (its path would be copied
/// at every level): inside a trial (a union's branch, `not`, an `if`, a `contains` item),
/// where the error is dropped, a failure answers as a placeholder; elsewhere the check is
/// redone for its error, its own parts answering from their verdicts.
struct Checker<'n, 'v> {
    nodes: &'n [TypeDesc],
    /// Pass or fail, by node and the address of the part of the value (borrowed for `'v`,
    /// so no address is reused while the checker lives).
    verdicts: HashMap<(TypeId, *const Value), bool, foldhash::fast::RandomState>,
    /// The trials open: their errors are dropped.
    trials: u32,
    _value: PhantomData<&'v Value>,
}

impl<'n, 'v> Checker<'n, 'v> {
    fn new(nodes: &'n [TypeDesc]) -> Checker<'n, 'v> {
        Checker {
            nodes,
            verdicts: HashMap::default(),
            trials: 0,
            _value: PhantomData,
        }
    }

    /// Checks `value` against node `id`.
    fn check(&mut self, id: TypeId, value: &'v Value) -> Check {
        let key = (id, value as *const Value);
        match self.verdicts.get(&key) {
            Some(true) => return Ok(()),
            Some(false) if self.trials > 0 => return fail(ValidationErrorKind::False),
            _ => {}
        }
        let checked = crate::deep::grow(|| self.check_one(id, value));
        self.verdicts.insert(key, checked.is_ok());
        checked
    }

    /// Whether `value` matches node `id`, inside a trial (its error is dropped).
    fn accepts(&mut self, id: TypeId, value: &'v Value) -> bool {
        self.trials += 1;
        let accepted = self.check(id, value).is_ok();
        self.trials -= 1;
        accepted
    }

    /// [`Checker::check`]'s step: one node, its children through [`Checker::check`].
    fn check_one(&mut self, id: TypeId, value: &'v Value) -> Check {
        let nodes = self.nodes;
        match &nodes[id.index()] {
            TypeDesc::Any => Ok(()),
            TypeDesc::Never => fail(ValidationErrorKind::False),
            TypeDesc::Null => expect_kind(value, KindSet::only(Kind::Null)),
            TypeDesc::Bool => expect_kind(value, KindSet::only(Kind::Boolean)),
            TypeDesc::Integer(d) => check_integer(d, value),
            TypeDesc::Number(d) => check_number(d, value),
            TypeDesc::String(d) => check_string(d, value),
            TypeDesc::Array(d) => self.check_array(d, value),
            TypeDesc::Object(d) => self.check_object(d, value),
            TypeDesc::Map(values) => {
                let Value::Object(members) = value else {
                    return expect_kind(value, KindSet::only(Kind::Object));
                };
                for (name, member) in members {
                    self.check(*values, member).map_err(|e| {
                        e.under(PathSegment::Key(name.clone()), "/additionalProperties")
                    })?;
                }
                Ok(())
            }
            TypeDesc::Nullable(inner) => match value {
                Value::Null => Ok(()),
                _ => self.check(*inner, value).map_err(|mut e| {
                    if let ValidationErrorKind::Type { expected, .. } = &mut e.kind
                        && e.path.is_empty()
                    {
                        *expected = expected.with(Kind::Null);
                    }
                    e
                }),
            },
            TypeDesc::Kinds(branches) => match branch_for(branches, value) {
                Some(branch) => self.check(branch, value),
                None => fail(ValidationErrorKind::Type {
                    expected: branch_kinds(nodes, branches),
                    found: Kind::of(value),
                }),
            },
            TypeDesc::Enum(values) => match values.iter().any(|v| json_eq(v, value)) {
                true => Ok(()),
                false => fail(ValidationErrorKind::Enum),
            },
            TypeDesc::AnyOf(u) => {
                let mut branches = candidates(u, value).iter();
                match branches.any(|&b| self.accepts(b, value)) {
                    true => Ok(()),
                    false => fail(ValidationErrorKind::AnyOf),
                }
            }
            TypeDesc::OneOf(u) => {
                let matched = candidates(u, value)
                    .iter()
                    .filter(|&&b| self.accepts(b, value))
                    .count();
                match matched {
                    1 => Ok(()),
                    _ => fail(ValidationErrorKind::OneOf { matched }),
                }
            }
            TypeDesc::AllOf(parts) => parts.iter().try_for_each(|&p| self.check(p, value)),
            TypeDesc::Not(inner) => match self.accepts(*inner, value) {
                true => fail(ValidationErrorKind::Not),
                false => Ok(()),
            },
            TypeDesc::Conditional(c) => {
                let [then, otherwise] = c.outcome_pointers("");
                let (outcome, location) = match self.accepts(c.condition, value) {
                    true => (c.then, then),
                    false => (c.otherwise, otherwise),
                };
                self.check(outcome, value).map_err(|e| e.within(&location))
            }
        }
    }
}

/// The branches of union `u` that can match `value`: all of them, but for an object its
/// discriminator's choice (see [`Discriminator`](crate::schema::Discriminator)): the
/// branch its tag selects, or none (a value no branch takes, a required property missing).
/// Branches it leaves out could not match, so counts and verdicts are as with all of them,
/// and a recursive union of tagged objects is checked in time linear in the value, not
/// exponential in its depth.
fn candidates<'u>(u: &'u UnionDesc, value: &Value) -> &'u [TypeId] {
    &u.branches[u.candidate_range(value)]
}

impl UnionDesc {
    /// The indices among the branches of the [`candidates`] for `value`.
    pub(crate) fn candidate_range(&self, value: &Value) -> Range<usize> {
        let all = 0..self.branches.len();
        let (Some(d), Value::Object(members)) = (&self.discriminator, value) else {
            return all;
        };
        let selected = match members.get(&d.property) {
            Some(tag) => (d.selectors().find(|&(t, _)| json_eq(t, tag)))
                .map(|(_, branch)| branch)
                .or(d.default),
            None if d.required => None,
            None => return all,
        };
        selected.map_or(0..0, |branch| branch..branch + 1)
    }
}

/// An error of `kind` at this value and this schema location.
fn fail(kind: ValidationErrorKind) -> Check {
    let schema_pointer = match kind.keyword() {
        "" => String::new(),
        keyword => pointer::push("", keyword),
    };
    Err(ValidationError {
        path: Vec::new(),
        schema_pointer,
        kind,
    })
}

/// `Ok` when the value's kind is in `expected`, else a type error.
fn expect_kind(value: &Value, expected: KindSet) -> Check {
    let found = Kind::of(value);
    match expected.admits(found) {
        true => Ok(()),
        false => fail(ValidationErrorKind::Type { expected, found }),
    }
}

/// The branch of a `Kinds` node that handles the value's kind.
fn branch_for(branches: &KindBranches, value: &Value) -> Option<TypeId> {
    match value {
        Value::Null => branches.null,
        Value::Bool(_) => branches.boolean,
        Value::Number(_) => branches.number,
        Value::String(_) => branches.string,
        Value::Array(_) => branches.array,
        Value::Object(_) => branches.object,
    }
}

/// The kinds a `Kinds` node accepts, for its type errors.
fn branch_kinds(nodes: &[TypeDesc], branches: &KindBranches) -> KindSet {
    let number = match branches.number.map(|n| &nodes[n.index()]) {
        Some(TypeDesc::Integer(_)) => Some(Kind::Integer),
        Some(_) => Some(Kind::Number),
        None => None,
    };
    [
        branches.null.map(|_| Kind::Null),
        branches.boolean.map(|_| Kind::Boolean),
        number,
        branches.string.map(|_| Kind::String),
        branches.array.map(|_| Kind::Array),
        branches.object.map(|_| Kind::Object),
    ]
    .into_iter()
    .flatten()
    .fold(KindSet::EMPTY, KindSet::with)
}

fn check_integer(d: &IntegerDesc, value: &Value) -> Check {
    check_numeric(Kind::Integer, value, (d.minimum, d.maximum), d.multiple_of)
}

fn check_number(d: &NumberDesc, value: &Value) -> Check {
    check_numeric(Kind::Number, value, (d.minimum, d.maximum), d.multiple_of)
}

/// Type, bounds and `multipleOf` of a number.
fn check_numeric(
    kind: Kind,
    value: &Value,
    (minimum, maximum): (Option<Bound>, Option<Bound>),
    multiple_of: Option<Num>,
) -> Check {
    let n = match value {
        Value::Number(n) if KindSet::only(kind).admits(Kind::of(value)) => Num::from_json(n),
        _ => return expect_kind(value, KindSet::only(kind)),
    };
    if let Some(b) = minimum {
        let order = n.cmp_exact(b.value);
        if order.is_lt() || (b.exclusive && order.is_eq()) {
            return fail(ValidationErrorKind::Minimum {
                limit: b.value,
                exclusive: b.exclusive,
            });
        }
    }
    if let Some(b) = maximum {
        let order = n.cmp_exact(b.value);
        if order.is_gt() || (b.exclusive && order.is_eq()) {
            return fail(ValidationErrorKind::Maximum {
                limit: b.value,
                exclusive: b.exclusive,
            });
        }
    }
    match multiple_of {
        Some(divisor) if !is_multiple_of(n, divisor) => {
            fail(ValidationErrorKind::MultipleOf { divisor })
        }
        _ => Ok(()),
    }
}

fn check_string(d: &StringDesc, value: &Value) -> Check {
    let Value::String(s) = value else {
        return expect_kind(value, KindSet::only(Kind::String));
    };
    let length = s.chars().count() as u64;
    if length < d.min_length {
        return fail(ValidationErrorKind::MinLength {
            limit: d.min_length,
        });
    }
    if let Some(limit) = d.max_length.filter(|&limit| length > limit) {
        return fail(ValidationErrorKind::MaxLength { limit });
    }
    if let Some(p) = d.pattern.as_ref().filter(|p| !p.is_match(s)) {
        return fail(ValidationErrorKind::Pattern {
            pattern: p.source().to_owned(),
        });
    }
    match d.asserted_format {
        Some(format) if !format.is_valid(s) => fail(ValidationErrorKind::Format { format }),
        _ => Ok(()),
    }
}

impl<'v> Checker<'_, 'v> {
    fn check_array(&mut self, d: &ArrayDesc, value: &'v Value) -> Check {
        let Value::Array(items) = value else {
            return expect_kind(value, KindSet::only(Kind::Array));
        };
        let length = items.len() as u64;
        if length < d.min_items {
            return fail(ValidationErrorKind::MinItems { limit: d.min_items });
        }
        if let Some(limit) = d.max_items.filter(|&limit| length > limit) {
            return fail(ValidationErrorKind::MaxItems { limit });
        }
        for (i, item) in items.iter().enumerate() {
            let (ty, location) = match d.prefix_items.get(i) {
                Some(&ty) => (ty, format!("/prefixItems/{i}")),
                None => (d.items, pointer::push("", d.items_keyword())),
            };
            self.check(ty, item)
                .map_err(|e| e.under(PathSegment::Index(i), &location))?;
        }
        if d.unique_items {
            // The first item equal to an earlier one, and that one (the only one: the items
            // before it are distinct), found through a set that compares each item only with
            // the earlier ones of its hash bucket: the engine asks this validator where an
            // error lies, so a failing array of 100 000 items must not cost 5·10⁹ comparisons.
            // (The engine's own check hashes canonical bytes.)
            let mut seen: JsonSet<&Value> = JsonSet::default();
            for (second, item) in items.iter().enumerate() {
                if let Some(first) = seen.position(item) {
                    return fail(ValidationErrorKind::UniqueItems { first, second });
                }
                seen.insert(item);
            }
        }
        match d.contains {
            Some(c) => self.check_contains(c, items),
            None => Ok(()),
        }
    }

    /// `contains`: the number of items matching its type against `minContains` (1 unless
    /// written) and `maxContains`.
    fn check_contains(&mut self, c: ContainsDesc, items: &'v [Value]) -> Check {
        let matched = items.iter().filter(|item| self.accepts(c.ty, item)).count();
        if (matched as u64) < c.min_count() {
            return fail(ValidationErrorKind::Contains {
                matched,
                limit: c.min,
            });
        }
        match c.max.filter(|&limit| matched as u64 > limit) {
            Some(limit) => fail(ValidationErrorKind::MaxContains { matched, limit }),
            None => Ok(()),
        }
    }

    /// An object: each field's member, under its name or an alias, checked against its type
    /// (a value holding several names of one field is an input with a repeated key: each is
    /// checked, and the codec's duplicate-key policy decides the rest) and the patterns that
    /// match the name; required fields present under one of their names; other members
    /// against the patterns that match their names, or when none does by the unknown-member
    /// policy.
    fn check_object(&mut self, d: &ObjectDesc, value: &'v Value) -> Check {
        let Value::Object(members) = value else {
            return expect_kind(value, KindSet::only(Kind::Object));
        };
        for field in &d.fields {
            let mut present = false;
            for name in field.names() {
                let Some(member) = members.get(name) else {
                    continue;
                };
                present = true;
                self.check(field.ty, member).map_err(|e| {
                    let location = pointer::push("/properties", &field.name);
                    e.under(PathSegment::Key(name.to_owned()), &location)
                })?;
                self.check_patterns(d, name, member)?;
            }
            if !present && field.required {
                return fail(ValidationErrorKind::Required {
                    name: field.name.clone(),
                });
            }
        }
        for (name, member) in members {
            if d.field_index(name).is_some() || self.check_patterns(d, name, member)? {
                continue;
            }
            let name = name.clone();
            match (d.unknown, d.unevaluated) {
                (UnknownFields::Allow, _) => {}
                (UnknownFields::Deny, false) => {
                    return fail(ValidationErrorKind::UnknownField { name });
                }
                (UnknownFields::Deny, true) => {
                    return fail(ValidationErrorKind::Unevaluated { name });
                }
                (UnknownFields::Extra(ty), _) => {
                    let location = pointer::push("", d.others_keyword());
                    self.check(ty, member)
                        .map_err(|e| e.under(PathSegment::Key(name), &location))?;
                }
            }
        }
        self.check_members(&d.members, members)
    }

    /// Member `name`'s value against every pattern that matches the name, in schema order;
    /// whether one did.
    fn check_patterns(
        &mut self,
        d: &ObjectDesc,
        name: &str,
        member: &'v Value,
    ) -> Result<bool, ValidationError> {
        let mut matched = false;
        for p in d.matching_patterns(name) {
            matched = true;
            self.check(p.ty, member).map_err(|e| {
                let location = pointer::push("/patternProperties", p.pattern.source());
                e.under(PathSegment::Key(name.to_owned()), &location)
            })?;
        }
        Ok(matched)
    }

    /// An object's member rules: its count of members, `dependentRequired` in schema order,
    /// then each name against `propertyNames` (reported at the object, the keyword's pointer
    /// going on into the name schema).
    fn check_members(
        &self,
        rules: &MemberRules,
        members: &serde_json::Map<String, Value>,
    ) -> Check {
        let count = members.len() as u64;
        if count < rules.min {
            return fail(ValidationErrorKind::MinProperties { limit: rules.min });
        }
        if let Some(limit) = rules.max.filter(|&limit| count > limit) {
            return fail(ValidationErrorKind::MaxProperties { limit });
        }
        for (name, required) in &rules.dependent_required {
            if !members.contains_key(name) {
                continue;
            }
            if let Some(missing) = required.iter().find(|r| !members.contains_key(*r)) {
                let kind = ValidationErrorKind::DependentRequired {
                    name: name.clone(),
                    missing: missing.clone(),
                };
                return fail(kind).map_err(|e| e.within_keyword(name));
            }
        }
        if let Some(names) = rules.names {
            for name in members.keys() {
                // A checker of its own: the name is a value of its own, not a part of this one.
                check(self.nodes, names, &Value::String(name.clone()))
                    .map_err(|e| e.within("/propertyNames"))?;
            }
        }
        Ok(())
    }
}

impl ValidationError {
    /// The same error seen from the parent value: under instance `segment`, reached through
    /// the schema location `location` (a pointer fragment such as `/items`).
    fn under(mut self, segment: PathSegment, location: &str) -> ValidationError {
        self.path.insert(0, segment);
        self.within(location)
    }

    /// The same error with the keyword's pointer one token deeper (`/dependentRequired/a`).
    fn within_keyword(mut self, token: &str) -> ValidationError {
        self.schema_pointer = pointer::push(&self.schema_pointer, token);
        self
    }

    /// The same error reached through the schema location `location` at the same value.
    fn within(mut self, location: &str) -> ValidationError {
        self.schema_pointer.insert_str(0, location);
        self
    }
}

//! Where a violated keyword sits in the schema, found on failure.
//!
//! The interpreter reports a violation with the instance path only; this walks the schema's
//! canonical nodes along that path (members by name, items by index) to the node whose
//! keyword failed, and returns the keyword with its JSON Pointer in the conventions of the
//! reference validator ([`crate::ValidationError::schema_pointer`]): `$ref` targets,
//! `allOf` parts, nullable and per-kind wrappers add no token. Where several nodes could hold
//! the path (`allOf` parts, union branches reached through a discriminator), the first one
//! that has the failing keyword and rejects the value there wins (the first that has the
//! keyword when the document cannot be read). An `if` / `then` / `else` reports the outcome
//! the condition picks for the value at that place. Both questions go to the reference
//! validator, on the document as the engine reads it (parsed on first need by
//! [`crate::value`], whose numbers are correctly rounded as the engine's are, into a
//! `serde_json` value; `serde_json`'s own parser would round some numbers otherwise, and
//! with its `raw_value` feature it refuses an object whose first key is
//! `$serde_json::private::RawValue`).

use jitson_jit::ir::Violation;

use std::cell::OnceCell;

use serde_json::Value;

use crate::error::Keyword;
use crate::path::Segment;
use crate::schema::pointer::push;
use crate::schema::{
    ConditionalDesc, Format, IntegerDesc, KindBranches, MemberRules, NumberDesc, Schema, TypeDesc,
    TypeId, UnionDesc, UnknownFields,
};

/// Most schema nodes one walk visits: bounds the recursion (and its stack) for any path.
const FUEL: u32 = 1024;

/// Where a violation's keyword sits.
pub(crate) struct Located {
    /// The keyword (bounds refined to `exclusiveMinimum` / `exclusiveMaximum`).
    pub keyword: Keyword,
    /// Its JSON Pointer in the schema.
    pub pointer: String,
    /// What the walk noted of the node that holds the keyword.
    pub noted: Noted,
}

/// What the error's message needs to know of the node that holds the keyword, beyond the
/// violation.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Noted {
    /// A `type` failure of a nullable node: `null` was allowed too (the interpreter names
    /// only the inner kinds).
    pub nullable: bool,
    /// The format a `format` failure's node asserts.
    pub format: Option<Format>,
}

/// The document that failed: its bytes, and the `serde_json` value read from them when a
/// walk first needs it (shared by the errors of one run; `None` inside: it did not parse).
#[derive(Clone, Copy)]
pub(crate) struct Failed<'a> {
    /// The input.
    pub bytes: &'a [u8],
    /// Its value as a `serde_json` value, once read.
    pub parsed: &'a OnceCell<Option<Value>>,
}

impl<'a> Failed<'a> {
    /// The document as the engine reads it; `None` when it is no JSON text.
    fn value(self) -> Option<&'a Value> {
        let bytes = self.bytes;
        let read = || {
            let arena = crate::value::Bump::new();
            Some(crate::value::parse(bytes, &arena).ok()?.to_serde())
        };
        self.parsed.get_or_init(read).as_ref()
    }
}

/// The keyword behind violation `v` at instance path `path` of the `failed` document, and
/// its JSON Pointer in `schema`; `None` when no node along the path holds it. `missing`
/// names the field of a `required` violation: only an object requiring it holds that.
pub(crate) fn locate(
    schema: &Schema,
    failed: Failed<'_>,
    path: &[Segment],
    v: Violation,
    missing: Option<&str>,
) -> Option<Located> {
    let mut walk = Walk {
        schema,
        violation: v,
        missing,
        fuel: FUEL,
        noted: Noted::default(),
        path,
        failed,
    };
    let (keyword, pointer) = walk.node(schema.root(), path, String::new())?;
    Some(Located {
        keyword,
        pointer,
        noted: walk.noted,
    })
}

/// One search: the schema, the violation, the steps left, and what it found on the way.
struct Walk<'a> {
    schema: &'a Schema,
    violation: Violation,
    /// The field a `required` violation misses.
    missing: Option<&'a str>,
    fuel: u32,
    /// What the node that holds the keyword tells the message.
    noted: Noted,
    /// The failing value's whole instance path.
    path: &'a [Segment],
    /// The document that failed.
    failed: Failed<'a>,
}

impl<'a> Walk<'a> {
    /// The keyword and its pointer, searching from node `id` (at pointer `at`) for the value
    /// at `path` below it.
    fn node(&mut self, id: TypeId, path: &[Segment], at: String) -> Option<(Keyword, String)> {
        self.fuel = self.fuel.checked_sub(1)?;
        let is_type = matches!(self.violation, Violation::Type { .. });
        match (self.schema.node(id), path.split_first()) {
            (TypeDesc::Nullable(_), None) if is_type => {
                self.noted.nullable = true;
                Some((Keyword::Type, push(&at, "type")))
            }
            (TypeDesc::Kinds(_), None) if is_type => Some((Keyword::Type, push(&at, "type"))),
            (TypeDesc::Nullable(inner), _) => self.node(*inner, path, at),
            (TypeDesc::Kinds(branches), Some((segment, _))) => {
                let branch = match segment {
                    Segment::Key(_) => branches.object,
                    Segment::Index(_) => branches.array,
                };
                self.node(branch?, path, at)
            }
            (TypeDesc::Kinds(branches), None) => self.first(&slots(branches), path, &at, None),
            (TypeDesc::AllOf(parts), _) => self.first(parts, path, &at, None),
            (TypeDesc::AnyOf(_), None) if self.violation == Violation::AnyOf => {
                Some((Keyword::AnyOf, push(&at, "anyOf")))
            }
            (TypeDesc::OneOf(_), None) if matches!(self.violation, Violation::OneOf { .. }) => {
                Some((Keyword::OneOf, push(&at, "oneOf")))
            }
            (TypeDesc::AnyOf(u), _) => self.union(u, path, &at, "anyOf"),
            (TypeDesc::Conditional(c), _) => self.outcome(c, path, &at),
            (TypeDesc::OneOf(u), _) => self.union(u, path, &at, "oneOf"),
            (TypeDesc::Object(d), Some((Segment::Key(key), rest))) => {
                let field = d.fields.iter().find(|f| *f.name == **key);
                if let Some(found) = field.and_then(|f| {
                    let at = push(&push(&at, "properties"), &f.name);
                    self.node(f.ty, rest, at)
                }) {
                    return Some(found);
                }
                let mut matched = false;
                for p in d.matching_patterns(key) {
                    matched = true;
                    let at = push(&push(&at, "patternProperties"), p.pattern.source());
                    if let Some(found) = self.node(p.ty, rest, at) {
                        return Some(found);
                    }
                }
                if field.is_some() || matched {
                    return None;
                }
                let keyword = match d.unevaluated {
                    true => Keyword::UnevaluatedProperties,
                    false => Keyword::AdditionalProperties,
                };
                let at = push(&at, d.others_keyword());
                match d.unknown {
                    UnknownFields::Extra(ty) => self.node(ty, rest, at),
                    UnknownFields::Deny if self.violation == Violation::UnknownField => {
                        Some((keyword, at))
                    }
                    _ => None,
                }
            }
            (TypeDesc::Map(values), Some((Segment::Key(_), rest))) => {
                self.node(*values, rest, push(&at, "additionalProperties"))
            }
            (TypeDesc::Array(d), Some((Segment::Index(i), rest))) => match d.prefix_items.get(*i) {
                Some(&ty) => self.node(ty, rest, push(&push(&at, "prefixItems"), &i.to_string())),
                None => self.node(d.items, rest, push(&at, d.items_keyword())),
            },
            (TypeDesc::Object(d), None) if self.violation == Violation::DependentRequired => {
                let name = self.dependent_trigger(&d.members)?;
                let at = push(&push(&at, "dependentRequired"), name);
                Some((Keyword::DependentRequired, at))
            }
            (TypeDesc::Object(d), None) if self.violation == Violation::PropertyNames => {
                let inner = self.rejected_name(d.members.names?);
                let at = push(&at, "propertyNames") + &inner;
                Some((Keyword::PropertyNames, at))
            }
            (node, None) => {
                let keyword = self.leaf(node)?;
                if let (Keyword::Format, TypeDesc::String(d)) = (keyword, node) {
                    self.noted.format = d.asserted_format;
                }
                let at = match keyword {
                    Keyword::False => at,
                    keyword => push(&at, keyword.as_str()),
                };
                Some((keyword, at))
            }
            _ => None,
        }
    }

    /// [`Walk::first`] among the branches of union `u` (`token`: `anyOf`, `oneOf`) that
    /// can match the value with `path` below it: the one its tag selects when the union has
    /// a discriminator (the branch the engine ran), else all.
    fn union(
        &mut self,
        u: &UnionDesc,
        path: &[Segment],
        at: &str,
        token: &str,
    ) -> Option<(Keyword, String)> {
        let range = match self.value_above(path) {
            Some(value) => u.candidate_range(value),
            None => 0..u.branches.len(),
        };
        let first = range.start;
        self.first(&u.branches[range], path, at, Some((token, first)))
    }

    /// The first of `ids` that holds the keyword and rejects the value with `path` below it
    /// (the one that failed is among them); the first that holds the keyword when none
    /// rejects it or the value cannot be read. `token` (`anyOf` or `oneOf`, and the index
    /// of the first of `ids` among its branches) adds the branch's index to the pointer.
    fn first(
        &mut self,
        ids: &[TypeId],
        path: &[Segment],
        at: &str,
        token: Option<(&str, usize)>,
    ) -> Option<(Keyword, String)> {
        let value = self.value_above(path).filter(|_| ids.len() > 1);
        let (noted, mut fallback) = (self.noted, None);
        for (i, &id) in ids.iter().enumerate() {
            let at = match token {
                Some((token, first)) => push(&push(at, token), &(first + i).to_string()),
                None => at.to_owned(),
            };
            let Some(found) = self.node(id, path, at) else {
                continue;
            };
            // Only a part that holds the keyword is checked against the value (a walk of it).
            match value {
                Some(value) if self.schema.node_accepts(id, value) => {
                    // Passed over: what its walk noted goes with it.
                    let passed_over = std::mem::replace(&mut self.noted, noted);
                    fallback.get_or_insert((found, passed_over));
                }
                _ => return Some(found),
            }
        }
        let (found, passed_over) = fallback?;
        self.noted = passed_over;
        Some(found)
    }

    /// The keyword in the outcome of conditional `c` that the condition picks for the value
    /// with `path` below it; both outcomes, `then` first, when the value cannot be read.
    fn outcome(
        &mut self,
        c: &ConditionalDesc,
        path: &[Segment],
        at: &str,
    ) -> Option<(Keyword, String)> {
        let [then_at, otherwise_at] = c.outcome_pointers(at);
        let (then, otherwise) = ((c.then, then_at), (c.otherwise, otherwise_at));
        let outcomes = match self
            .value_above(path)
            .map(|v| self.schema.node_accepts(c.condition, v))
        {
            Some(true) => vec![then],
            Some(false) => vec![otherwise],
            None => vec![then, otherwise],
        };
        outcomes
            .into_iter()
            .find_map(|(id, at)| self.node(id, path, at))
    }

    /// The value of the document with `rest` below it: at the failing value's path less
    /// its last `rest.len()` segments (`&[]`: the failing value).
    fn value_above(&self, rest: &[Segment]) -> Option<&'a Value> {
        let document = self.failed.value()?;
        let path = &self.path[..self.path.len() - rest.len()];
        path.iter().try_fold(document, |v, segment| match segment {
            Segment::Key(k) => v.get(&**k),
            Segment::Index(i) => v.get(*i),
        })
    }

    /// The keyword of the violation when `node` (a leaf of the walk) can report it.
    fn leaf(&self, node: &TypeDesc) -> Option<Keyword> {
        let keyword = match (self.violation, node) {
            // Any value passes (a field that is only `required`, under patterns).
            (_, TypeDesc::Any) => return None,
            (Violation::Type { .. }, _) => Keyword::Type,
            (Violation::Minimum, TypeDesc::Integer(IntegerDesc { minimum, .. }))
            | (Violation::Minimum, TypeDesc::Number(NumberDesc { minimum, .. })) => {
                match (*minimum)? {
                    b if b.exclusive => Keyword::ExclusiveMinimum,
                    _ => Keyword::Minimum,
                }
            }
            (Violation::Maximum, TypeDesc::Integer(IntegerDesc { maximum, .. }))
            | (Violation::Maximum, TypeDesc::Number(NumberDesc { maximum, .. })) => {
                match (*maximum)? {
                    b if b.exclusive => Keyword::ExclusiveMaximum,
                    _ => Keyword::Maximum,
                }
            }
            (Violation::Required { .. }, TypeDesc::Object(o))
                if self
                    .missing
                    .is_none_or(|name| o.fields.iter().any(|f| f.required && f.name == name)) =>
            {
                Keyword::Required
            }
            (Violation::MultipleOf, TypeDesc::Integer(d)) if d.multiple_of.is_some() => {
                Keyword::MultipleOf
            }
            (Violation::MultipleOf, TypeDesc::Number(d)) if d.multiple_of.is_some() => {
                Keyword::MultipleOf
            }
            (Violation::MinLength, TypeDesc::String(d)) if d.min_length > 0 => Keyword::MinLength,
            (Violation::MaxLength, TypeDesc::String(d)) if d.max_length.is_some() => {
                Keyword::MaxLength
            }
            (Violation::Pattern, TypeDesc::String(d)) if d.pattern.is_some() => Keyword::Pattern,
            (Violation::Format, TypeDesc::String(d)) if d.asserted_format.is_some() => {
                Keyword::Format
            }
            (Violation::MinItems, TypeDesc::Array(a)) if a.min_items > 0 => Keyword::MinItems,
            (Violation::MaxItems, TypeDesc::Array(a)) if a.max_items.is_some() => Keyword::MaxItems,
            (Violation::UnknownField, TypeDesc::Object(o)) if o.unevaluated => {
                Keyword::UnevaluatedProperties
            }
            (Violation::UnknownField, TypeDesc::Object(_))
            | (Violation::Enum, TypeDesc::Enum(_))
            | (Violation::Not, TypeDesc::Not(_))
            | (Violation::Never, TypeDesc::Never) => Keyword::of(self.violation),
            (Violation::UniqueItems, TypeDesc::Array(a)) if a.unique_items => Keyword::UniqueItems,
            (Violation::MinContains, TypeDesc::Array(a)) => match a.contains?.min {
                Some(_) => Keyword::MinContains,
                None => Keyword::Contains,
            },
            (Violation::MaxContains, TypeDesc::Array(a)) if a.contains?.max.is_some() => {
                Keyword::MaxContains
            }
            (Violation::MinProperties, TypeDesc::Object(o)) if o.members.min > 0 => {
                Keyword::MinProperties
            }
            (Violation::MaxProperties, TypeDesc::Object(o)) if o.members.max.is_some() => {
                Keyword::MaxProperties
            }
            _ => return None,
        };
        Some(keyword)
    }

    /// The pointer, below `propertyNames`, of the keyword that rejects the failing object's
    /// first name (in the reference validator's order) that type `names` does not accept;
    /// empty when the document cannot be read.
    fn rejected_name(&self, names: TypeId) -> String {
        let Some(Value::Object(members)) = self.value_above(&[]) else {
            return String::new();
        };
        members
            .keys()
            .find_map(|name| {
                let name = Value::String(name.clone());
                self.schema.check_node(names, &name).err()
            })
            .map(|e| e.schema_pointer().to_owned())
            .unwrap_or_default()
    }

    /// The member whose `dependentRequired` rule (of `rules`) the failing object breaks,
    /// the first in schema order; the first rule's when the document cannot be read.
    fn dependent_trigger<'r>(&self, rules: &'r MemberRules) -> Option<&'r str> {
        let mut rules = rules.dependent_required.iter();
        let broken = match self.value_above(&[]) {
            Some(Value::Object(members)) => rules.find(|(name, required)| {
                members.contains_key(name) && required.iter().any(|r| !members.contains_key(r))
            }),
            _ => rules.next(),
        };
        broken.map(|(name, _)| name.as_str())
    }
}

/// The branches of a per-kind node.
fn slots(branches: &KindBranches) -> Vec<TypeId> {
    branches.slots().into_iter().flatten().collect()
}

//! The schema model: [`TypeDesc`] nodes in a [`Schema`] arena, linked by [`TypeId`].
//!
//! A JSON Schema keyword constrains only values of its own kind (`{"minimum": 5}` accepts
//! `"foo"`), so a schema without `type` is a union over the JSON kinds with per-kind
//! constraints: [`TypeDesc::Kinds`]. A schema that names one `type` is a plain typed node
//! (`Integer`, `Object`, …), which the engine decodes without dispatch.

use crate::schema::{Format, Kind, Num, Pattern, pointer};
use serde_json::Value;

/// The index of a node in a [`Schema`]'s arena. Recursive schemas are cycles of indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub(crate) u32);

impl TypeId {
    /// The node's position in the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One node of a schema: what a value at this place must be.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeDesc {
    /// Any JSON value (`{}` / `true`); decoded as the raw JSON slice.
    Any,
    /// No value at all (`false`).
    Never,
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number with no fractional part (`1.0` counts), within bounds.
    Integer(IntegerDesc),
    /// Any number, within bounds.
    Number(NumberDesc),
    /// A string.
    String(StringDesc),
    /// An array: a tuple prefix, then items of one type.
    Array(ArrayDesc),
    /// An object with named fields.
    Object(ObjectDesc),
    /// An object whose members all have one type (no named fields).
    Map(TypeId),
    /// `null` or the inner type (`"type": ["string", "null"]`).
    Nullable(TypeId),
    /// A value dispatched on its JSON kind: each kind present has its own node, the others are
    /// rejected. This is what a schema without `type`, or with several, becomes.
    Kinds(KindBranches),
    /// One of a finite list of JSON values (`const`, `enum`), canonical and JSON-distinct,
    /// in schema order; of any kinds.
    Enum(Vec<Value>),
    /// At least one branch matches (`anyOf`).
    AnyOf(UnionDesc),
    /// Exactly one branch matches (`oneOf`).
    OneOf(UnionDesc),
    /// Every part matches (`allOf`, and sibling keywords next to `$ref` or a combinator). The
    /// first part gives the decoded shape; the others only check.
    AllOf(Vec<TypeId>),
    /// The inner type does not match (`not`).
    Not(TypeId),
    /// `if` / `then` / `else`: the value matches `then` when it matches the condition, else
    /// `otherwise`. Decoded as a two-branch union: tag 0 `then`, tag 1 `otherwise`.
    Conditional(ConditionalDesc),
}

/// Bounds of an integer node. Bound values are integral and keep their exclusivity (so a
/// violation names the keyword the schema wrote): `minimum: 5.5` loads as `minimum: 6`,
/// `exclusiveMinimum: 5.5` as `exclusiveMinimum: 5`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntegerDesc {
    /// Lower bound (the stricter of `minimum` and `exclusiveMinimum`).
    pub minimum: Option<Bound>,
    /// Upper bound (the stricter of `maximum` and `exclusiveMaximum`).
    pub maximum: Option<Bound>,
    /// The value must be a multiple of this (> 0; never 1, which says nothing for integers).
    pub multiple_of: Option<Num>,
    /// The `format` annotation (not checked).
    pub format: Option<String>,
}

/// Bounds of a number node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NumberDesc {
    /// Lower bound (the stricter of `minimum` and `exclusiveMinimum`).
    pub minimum: Option<Bound>,
    /// Upper bound (the stricter of `maximum` and `exclusiveMaximum`).
    pub maximum: Option<Bound>,
    /// The value must be a multiple of this (> 0).
    pub multiple_of: Option<Num>,
    /// The `format` annotation (not checked).
    pub format: Option<String>,
}

/// A number bound, inclusive or exclusive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// The limit.
    pub value: Num,
    /// Whether the limit itself is excluded.
    pub exclusive: bool,
}

impl Bound {
    /// The integral lower bound admitting the same integers: an inclusive bound rounds up, an
    /// exclusive one down (`> 5.5` is `> 5`).
    pub(crate) fn integral_lower(self) -> Bound {
        let value = match self.exclusive {
            false => self.value.ceil_int(),
            true => self.value.floor_int(),
        };
        Bound { value, ..self }
    }

    /// The integral upper bound admitting the same integers (see [`Bound::integral_lower`]).
    pub(crate) fn integral_upper(self) -> Bound {
        let value = match self.exclusive {
            false => self.value.floor_int(),
            true => self.value.ceil_int(),
        };
        Bound { value, ..self }
    }

    /// The stricter of an inclusive bound and an exclusive one, either absent (`lower`: of
    /// lower bounds); the exclusive bound wins ties.
    pub(crate) fn stricter(
        inclusive: Option<Bound>,
        exclusive: Option<Bound>,
        lower: bool,
    ) -> Option<Bound> {
        match (inclusive, exclusive) {
            (Some(i), Some(e)) => {
                let order = e.value.cmp_exact(i.value);
                let exclusive_stricter = if lower { order.is_ge() } else { order.is_le() };
                Some(if exclusive_stricter { e } else { i })
            }
            (i, e) => i.or(e),
        }
    }
}

/// Constraints of a string node. Lengths count Unicode code points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StringDesc {
    /// Fewest code points.
    pub min_length: u64,
    /// Most code points.
    pub max_length: Option<u64>,
    /// A regular expression that must match somewhere in the string.
    pub pattern: Option<Pattern>,
    /// The `format` annotation.
    pub format: Option<String>,
    /// The format the string must have: `format`'s, when it is asserted (see
    /// [`Loader::assert_formats`](crate::schema::Loader::assert_formats)).
    pub asserted_format: Option<Format>,
}

/// Constraints of an array node.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayDesc {
    /// Types of the first items, position by position (`prefixItems`).
    pub prefix_items: Vec<TypeId>,
    /// Type of every item after the prefix (`items`; `Never` forbids more items).
    pub items: TypeId,
    /// Fewest items.
    pub min_items: u64,
    /// Most items.
    pub max_items: Option<u64>,
    /// Whether no two items may be equal (`uniqueItems`; JSON equality: `1` equals `1.0`,
    /// objects are unordered).
    pub unique_items: bool,
    /// How many items must match a type (`contains`, `minContains`, `maxContains`).
    pub contains: Option<ContainsDesc>,
    /// Whether the items after the prefix are `unevaluatedItems`' rather than `items`' (the
    /// node a schema's `unevaluatedItems` adds: its errors point below `/unevaluatedItems`).
    pub unevaluated: bool,
}

impl ArrayDesc {
    /// The keyword of the items after the prefix: `items`, or `unevaluatedItems`.
    pub fn items_keyword(&self) -> &'static str {
        match self.unevaluated {
            true => "unevaluatedItems",
            false => "items",
        }
    }
}

/// `contains`: how many items of an array must match `ty`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContainsDesc {
    /// The type the counted items match.
    pub ty: TypeId,
    /// Fewest matching items (`minContains`; `None`: not written, 1).
    pub min: Option<u64>,
    /// Most matching items (`maxContains`).
    pub max: Option<u64>,
}

impl ContainsDesc {
    /// Fewest matching items (1 unless `minContains` says otherwise).
    pub fn min_count(&self) -> u64 {
        self.min.unwrap_or(1)
    }
}

/// An object node: named fields in schema order (the order encode writes them), and what to
/// do with other members.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectDesc {
    /// The named fields: `properties` in schema order, then names that are only `required`,
    /// sorted.
    pub fields: Vec<Field>,
    /// Members not named by `fields`.
    pub unknown: UnknownFields,
    /// Counts of members and members that require others (`minProperties`,
    /// `maxProperties`, `dependentRequired`).
    pub members: MemberRules,
    /// `patternProperties`, in schema order: every member whose name a pattern matches
    /// (a field's too) must match that pattern's type, and a member that is not a field and
    /// that some pattern matches is not one of the other members `unknown` is about. A
    /// pattern matches all of a field's names (its name and aliases) or none.
    pub patterns: Vec<PatternProperty>,
    /// Whether the other members are `unevaluatedProperties`' rather than
    /// `additionalProperties`': the node the loader adds beside a schema's other keywords,
    /// whose fields and patterns (each of any value) are the members those keywords evaluate.
    /// It decides how errors name the keyword.
    pub unevaluated: bool,
}

/// One member of `patternProperties`: the members whose names it matches, and their type.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternProperty {
    /// The pattern (a search anywhere in the name, as `pattern`).
    pub pattern: Pattern,
    /// The type of every member whose name matches.
    pub ty: TypeId,
}

/// The rules on an object's members as a whole, checked after its members are: how many
/// there are (distinct keys: a repeated key counts once), which require which, and what
/// their names must be.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemberRules {
    /// Fewest members (`minProperties`).
    pub min: u64,
    /// Most members (`maxProperties`).
    pub max: Option<u64>,
    /// `dependentRequired`, in schema order: when the first name is present, every name of
    /// the second must be.
    pub dependent_required: Vec<(String, Vec<String>)>,
    /// `propertyNames`: the type every member name (a string) must match.
    pub names: Option<TypeId>,
}

impl MemberRules {
    /// Whether the rules allow every object (the default).
    pub fn is_empty(&self) -> bool {
        *self == MemberRules::default()
    }
}

/// A named object field.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The member name: the one encode writes and a decoded document holds the field under.
    pub name: String,
    /// Other member names decode reads the field under (serde's `alias`), in order: the same
    /// field (one slot, one presence bit), so at most one of its names may appear. Distinct
    /// from every name and alias of the object's fields. Only builders and the derive make
    /// them (JSON Schema has no such keyword).
    pub aliases: Vec<String>,
    /// The member's type.
    pub ty: TypeId,
    /// Whether the member must be present.
    pub required: bool,
    /// The `default` annotation of the member's schema, for decode defaults (never checked).
    pub default: Option<Value>,
}

impl Field {
    /// Every name the field is read under: its name, then its aliases.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.name.as_str()).chain(self.aliases.iter().map(String::as_str))
    }
}

impl ObjectDesc {
    /// An object node with no fields, no member rules and no patterns, whose other members
    /// are `unknown`.
    pub fn open(unknown: UnknownFields) -> ObjectDesc {
        ObjectDesc {
            fields: Vec::new(),
            unknown,
            members: MemberRules::default(),
            patterns: Vec::new(),
            unevaluated: false,
        }
    }

    /// The keyword of the other members: `additionalProperties`, or
    /// `unevaluatedProperties`.
    pub fn others_keyword(&self) -> &'static str {
        match self.unevaluated {
            true => "unevaluatedProperties",
            false => "additionalProperties",
        }
    }

    /// The index of the field read under `key` (its name or one of its aliases).
    pub fn field_index(&self, key: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.names().any(|n| n == key))
    }

    /// The patterns that match member name `key`, in schema order.
    pub fn matching_patterns<'s>(
        &'s self,
        key: &'s str,
    ) -> impl Iterator<Item = &'s PatternProperty> + 's {
        (self.patterns.iter()).filter(move |p| p.pattern.is_match(key))
    }
}

/// What an object does with members its fields do not name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnknownFields {
    /// Allowed, whatever they hold (`additionalProperties` absent or `true`).
    Allow,
    /// Rejected (`additionalProperties: false`).
    Deny,
    /// Allowed when they match this type; decoded as a map of extras.
    Extra(TypeId),
}

/// Per-kind branches of a [`TypeDesc::Kinds`] node. The `number` branch is an `Integer` or a
/// `Number` node; each other branch is a node of its slot's kind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KindBranches {
    /// The node for `null`.
    pub null: Option<TypeId>,
    /// The node for booleans.
    pub boolean: Option<TypeId>,
    /// The node for numbers.
    pub number: Option<TypeId>,
    /// The node for strings.
    pub string: Option<TypeId>,
    /// The node for arrays.
    pub array: Option<TypeId>,
    /// The node for objects.
    pub object: Option<TypeId>,
}

impl KindBranches {
    /// The branches in slot order.
    pub fn slots(&self) -> [Option<TypeId>; 6] {
        [
            self.null,
            self.boolean,
            self.number,
            self.string,
            self.array,
            self.object,
        ]
    }

    /// The branch for values of `kind` (`Integer` and `Number` share the number branch).
    pub fn get(&self, kind: Kind) -> Option<TypeId> {
        match kind {
            Kind::Null => self.null,
            Kind::Boolean => self.boolean,
            Kind::Integer | Kind::Number => self.number,
            Kind::String => self.string,
            Kind::Array => self.array,
            Kind::Object => self.object,
        }
    }

    /// The branches with their kinds (`Number` for the number branch), in slot order.
    pub fn branches(&self) -> impl Iterator<Item = (Kind, TypeId)> {
        Kind::SLOTS
            .into_iter()
            .zip(self.slots())
            .filter_map(|(kind, slot)| Some((kind, slot?)))
    }

    /// The slot for values of `kind`, mutably.
    pub(crate) fn slot_mut(&mut self, kind: Kind) -> &mut Option<TypeId> {
        match kind {
            Kind::Null => &mut self.null,
            Kind::Boolean => &mut self.boolean,
            Kind::Integer | Kind::Number => &mut self.number,
            Kind::String => &mut self.string,
            Kind::Array => &mut self.array,
            Kind::Object => &mut self.object,
        }
    }

    /// The slots, mutably, in slot order.
    pub(crate) fn slots_mut(&mut self) -> [&mut Option<TypeId>; 6] {
        [
            &mut self.null,
            &mut self.boolean,
            &mut self.number,
            &mut self.string,
            &mut self.array,
            &mut self.object,
        ]
    }
}

/// The parts of an `if` / `then` / `else` node; an absent `then` or `else` is an `Any` node.
/// A `dependentSchemas` member, and a case of an `unevaluated*` keyword beside branches, are
/// conditionals too (see [`ConditionalForm`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ConditionalDesc {
    /// The condition (`if`): only whether it matches counts, never its errors.
    pub condition: TypeId,
    /// What a value that matches the condition must match (`then`).
    pub then: TypeId,
    /// What any other value must match (`else`).
    pub otherwise: TypeId,
    /// Which keyword the node stands for: where its outcomes' errors point.
    pub form: ConditionalForm,
}

/// The keyword a [`ConditionalDesc`] stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum ConditionalForm {
    /// `if` / `then` / `else`: outcomes at `/then` and `/else`.
    IfThenElse,
    /// The member of `dependentSchemas` of this name: the condition takes the objects that
    /// have a member of the name, `then` is the member's schema (at
    /// `/dependentSchemas/<name>`), `otherwise` takes any value.
    Dependent(String),
    /// A case of `unevaluatedProperties` / `unevaluatedItems` beside branches: the condition
    /// selects the branches that matched, `then` is the keyword's check of what those leave
    /// unevaluated (its errors point at the keyword itself: no token for either outcome),
    /// `otherwise` the next case.
    Unevaluated,
}

impl ConditionalDesc {
    /// The schema locations of `then` and `otherwise` below the node's location `at`.
    pub fn outcome_pointers(&self, at: &str) -> [String; 2] {
        match &self.form {
            ConditionalForm::IfThenElse => [pointer::push(at, "then"), pointer::push(at, "else")],
            ConditionalForm::Dependent(name) => [
                pointer::push(&pointer::push(at, "dependentSchemas"), name),
                pointer::push(at, "else"),
            ],
            ConditionalForm::Unevaluated => [at.to_owned(), at.to_owned()],
        }
    }

    /// The condition and the two outcomes, in schema order.
    pub fn parts(&self) -> [TypeId; 3] {
        [self.condition, self.then, self.otherwise]
    }

    /// The two outcomes, `then` and `otherwise`, in the order of their union tags.
    pub fn outcomes(&self) -> [TypeId; 2] {
        [self.then, self.otherwise]
    }
}

/// Branches of an `anyOf` / `oneOf` node.
#[derive(Clone, Debug, PartialEq)]
pub struct UnionDesc {
    /// The branches, in schema order.
    pub branches: Vec<TypeId>,
    /// A fast path, when one property's value tells the branch.
    pub discriminator: Option<Discriminator>,
}

/// A property whose value picks the branch: every branch is an object (or an `allOf` with
/// object parts) whose field `property` (a field without aliases) admits only a few
/// values, its tag and aliases, all distinct across branches; but one branch, the
/// `default`, may instead admit only values that are no branch's tag or alias (serde's
/// `#[serde(other)]` variant: any other string). When the property is present, the branch
/// its value selects (the default's for a value no tag names) is the only one that can
/// match; when it is absent, no branch can match if every branch requires it
/// ([`Discriminator::required`]), and otherwise every branch must be tried.
#[derive(Clone, Debug, PartialEq)]
pub struct Discriminator {
    /// The property name.
    pub property: String,
    /// The value that selects each branch but the default, in branch order (see
    /// [`Discriminator::selectors`]).
    pub tags: Vec<Value>,
    /// More values that select a branch (`(value, branch index)`, by branch then in the
    /// field's `enum` order): the other values of a tag field that admits several (a
    /// variant's aliases). Distinct from each other and from `tags`.
    pub aliases: Vec<(Value, usize)>,
    /// The branch a value that is no tag or alias selects, if one admits only such values.
    pub default: Option<usize>,
    /// Whether every branch requires the property: an object without it matches none.
    pub required: bool,
}

impl Discriminator {
    /// Every value that selects a branch, with the branch's index: the tags in branch
    /// order (the default branch has none), then the aliases.
    pub fn selectors(&self) -> impl Iterator<Item = (&Value, usize)> {
        let tagged = (0..).filter(move |&b| Some(b) != self.default);
        let tags = self.tags.iter().zip(tagged);
        tags.chain(self.aliases.iter().map(|(v, b)| (v, *b)))
    }
}

/// How a node refers to a child: `Guarded` children sit inside a container value (array
/// items, object members), `Unguarded` ones describe the same value as their parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Edge {
    Guarded,
    Unguarded,
}

impl TypeDesc {
    /// Calls `f` on every child, in canonical order.
    pub(crate) fn for_each_child(&self, mut f: impl FnMut(TypeId, Edge)) {
        match self {
            TypeDesc::Any
            | TypeDesc::Never
            | TypeDesc::Null
            | TypeDesc::Bool
            | TypeDesc::Integer(_)
            | TypeDesc::Number(_)
            | TypeDesc::String(_)
            | TypeDesc::Enum(_) => {}
            TypeDesc::Array(a) => {
                a.prefix_items.iter().for_each(|&c| f(c, Edge::Guarded));
                f(a.items, Edge::Guarded);
                if let Some(c) = a.contains {
                    f(c.ty, Edge::Guarded);
                }
            }
            TypeDesc::Object(o) => {
                o.fields.iter().for_each(|field| f(field.ty, Edge::Guarded));
                if let UnknownFields::Extra(c) = o.unknown {
                    f(c, Edge::Guarded);
                }
                if let Some(c) = o.members.names {
                    f(c, Edge::Guarded);
                }
                o.patterns.iter().for_each(|p| f(p.ty, Edge::Guarded));
            }
            TypeDesc::Map(c) => f(*c, Edge::Guarded),
            TypeDesc::Nullable(c) | TypeDesc::Not(c) => f(*c, Edge::Unguarded),
            TypeDesc::Kinds(k) => k
                .slots()
                .into_iter()
                .flatten()
                .for_each(|c| f(c, Edge::Unguarded)),
            TypeDesc::AnyOf(u) | TypeDesc::OneOf(u) => {
                u.branches.iter().for_each(|&c| f(c, Edge::Unguarded));
            }
            TypeDesc::AllOf(parts) => parts.iter().for_each(|&c| f(c, Edge::Unguarded)),
            TypeDesc::Conditional(c) => c.parts().into_iter().for_each(|c| f(c, Edge::Unguarded)),
        }
    }

    /// Calls `f` on every child reference, mutably, in canonical order.
    pub(crate) fn for_each_child_mut(&mut self, mut f: impl FnMut(&mut TypeId)) {
        match self {
            TypeDesc::Any
            | TypeDesc::Never
            | TypeDesc::Null
            | TypeDesc::Bool
            | TypeDesc::Integer(_)
            | TypeDesc::Number(_)
            | TypeDesc::String(_)
            | TypeDesc::Enum(_) => {}
            TypeDesc::Array(a) => {
                a.prefix_items.iter_mut().for_each(&mut f);
                f(&mut a.items);
                if let Some(c) = &mut a.contains {
                    f(&mut c.ty);
                }
            }
            TypeDesc::Object(o) => {
                o.fields.iter_mut().for_each(|field| f(&mut field.ty));
                if let UnknownFields::Extra(c) = &mut o.unknown {
                    f(c);
                }
                if let Some(c) = &mut o.members.names {
                    f(c);
                }
                o.patterns.iter_mut().for_each(|p| f(&mut p.ty));
            }
            TypeDesc::Map(c) | TypeDesc::Nullable(c) | TypeDesc::Not(c) => f(c),
            TypeDesc::Kinds(k) => k.slots_mut().into_iter().flatten().for_each(f),
            TypeDesc::AnyOf(u) | TypeDesc::OneOf(u) => u.branches.iter_mut().for_each(f),
            TypeDesc::AllOf(parts) => parts.iter_mut().for_each(f),
            TypeDesc::Conditional(c) => [&mut c.condition, &mut c.then, &mut c.otherwise]
                .into_iter()
                .for_each(f),
        }
    }
}

/// A raw graph under construction: nodes, and for each the schema-document pointer it comes
/// from (for load errors). Shared by the loaders and the canonicalizer.
#[derive(Clone, Debug, Default)]
pub(crate) struct Graph {
    pub(crate) nodes: Vec<TypeDesc>,
    pub(crate) origins: Vec<String>,
}

impl Graph {
    /// Appends a node and returns its id.
    pub(crate) fn add(&mut self, desc: TypeDesc, origin: &str) -> TypeId {
        self.nodes.push(desc);
        self.origins.push(origin.to_owned());
        TypeId((self.nodes.len() - 1) as u32)
    }

    /// The node `id`.
    pub(crate) fn node(&self, id: TypeId) -> &TypeDesc {
        &self.nodes[id.index()]
    }

    /// The conditional of one `dependentSchemas` member at `origin`: objects with a member
    /// `name` must match `schema`; any other value passes.
    pub(crate) fn dependent_schema(&mut self, name: &str, schema: TypeId, origin: &str) -> TypeId {
        let condition = self.has_member(name, origin);
        let desc = ConditionalDesc {
            condition,
            then: schema,
            otherwise: self.add(TypeDesc::Any, origin),
            form: ConditionalForm::Dependent(name.to_owned()),
        };
        self.add(TypeDesc::Conditional(desc), origin)
    }

    /// A node at `origin` matching the objects with a member `name` (of any value).
    pub(crate) fn has_member(&mut self, name: &str, origin: &str) -> TypeId {
        let any = self.add(TypeDesc::Any, origin);
        let present = ObjectDesc {
            fields: vec![Field {
                name: name.to_owned(),
                aliases: Vec::new(),
                ty: any,
                required: true,
                default: None,
            }],
            ..ObjectDesc::open(UnknownFields::Allow)
        };
        // An object node: other values do not match it.
        self.add(TypeDesc::Object(present), origin)
    }
}

/// A loaded schema in canonical form: an arena of [`TypeDesc`] nodes and the root.
///
/// Nodes are numbered in depth-first order from the root, unreachable definitions dropped, and
/// structurally identical nodes merged, so equal schemas have equal arenas (and equal
/// [`TypeKey`](crate::schema::TypeKey)s) however they were spelled or built.
#[derive(Clone, Debug, PartialEq)]
pub struct Schema {
    pub(crate) nodes: Vec<TypeDesc>,
    pub(crate) root: TypeId,
}

impl Schema {
    /// The root node's id.
    pub fn root(&self) -> TypeId {
        self.root
    }

    /// The node `id`. Panics if `id` is not from this schema.
    pub fn node(&self, id: TypeId) -> &TypeDesc {
        &self.nodes[id.index()]
    }

    /// How many nodes the arena holds.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Every node with its id, in arena order (the root first).
    pub fn nodes(&self) -> impl Iterator<Item = (TypeId, &TypeDesc)> {
        (0..).map(TypeId).zip(&self.nodes)
    }
}

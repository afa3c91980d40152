//! The Rust builder API: schemas written as expressions.
//!
//! ```
//! use jitson::schema::builder::{array, integer, object, reference, string};
//! use jitson::schema::{Schema, SchemaBuilder};
//!
//! let user = Schema::build(
//!     object()
//!         .field("id", integer().minimum(0))
//!         .field("name", string().max_length(64))
//!         .optional("tags", array(string()))
//!         .deny_unknown(),
//! )
//! .unwrap();
//!
//! // Recursion goes through named definitions.
//! let tree = SchemaBuilder::new()
//!     .define("node", object().field("value", integer()).optional("children", array(reference("node"))))
//!     .build(reference("node"))
//!     .unwrap();
//! # let _ = (user, tree);
//! ```
//!
//! A built schema is canonicalized exactly like a loaded one, so a builder expression and an
//! equivalent JSON Schema document give equal [`Schema`]s. Origins (the pointers errors
//! report) follow the JSON Schema layout the expression corresponds to: `/properties/id`,
//! `/items`, `/$defs/node`, ….

mod json;

use crate::schema::model::{
    ArrayDesc, ConditionalDesc, ConditionalForm, ContainsDesc, Field, Graph, MemberRules,
    ObjectDesc, PatternProperty, UnionDesc, UnknownFields,
};
use crate::schema::{
    Bound, Format, IntegerDesc, Num, NumberDesc, Pattern, Schema, SchemaError, SchemaErrorKind,
    StringDesc, TypeDesc, TypeId, canon, pointer,
};
use serde_json::Value;
use std::collections::HashMap;

/// A schema under construction: a tree of types whose leaves may name definitions.
#[derive(Clone, Debug)]
pub struct TypeExpr(Expr);

#[derive(Clone, Debug)]
enum Expr {
    /// A node without children (`Any`, `Never`, scalars, `Enum`).
    Leaf(TypeDesc),
    Array(ArrayExpr),
    Object(ObjectExpr),
    Map(Box<TypeExpr>),
    Nullable(Box<TypeExpr>),
    AnyOf(Vec<TypeExpr>),
    OneOf(Vec<TypeExpr>),
    AllOf(Vec<TypeExpr>),
    Not(Box<TypeExpr>),
    /// `if`, `then`, `else`.
    Conditional(Box<[TypeExpr; 3]>),
    /// One member of `dependentSchemas`: its name and schema.
    Dependent(String, Box<TypeExpr>),
    Ref(String),
}

/// An array type under construction.
#[derive(Clone, Debug)]
pub struct ArrayExpr {
    prefix: Vec<TypeExpr>,
    items: Box<TypeExpr>,
    min_items: u64,
    max_items: Option<u64>,
    unique_items: bool,
    /// `contains`, and `minContains` / `maxContains` (which say nothing without it).
    contains: Option<Box<TypeExpr>>,
    min_contains: Option<u64>,
    max_contains: Option<u64>,
}

/// An object type under construction.
#[derive(Clone, Debug)]
pub struct ObjectExpr {
    fields: Vec<FieldExpr>,
    unknown: UnknownExpr,
    /// Member rules; their `names` is unset here (the names' type is `names`).
    members: MemberRules,
    names: Option<Box<TypeExpr>>,
    /// `patternProperties`: `(pattern, type)` in the order given.
    patterns: Vec<(String, TypeExpr)>,
    /// Aliases given for a field the object does not have, `(field, alias)`: an error at
    /// build.
    dangling: Vec<(String, String)>,
}

#[derive(Clone, Debug)]
struct FieldExpr {
    name: String,
    aliases: Vec<String>,
    ty: TypeExpr,
    required: bool,
    default: Option<Value>,
}

#[derive(Clone, Debug)]
enum UnknownExpr {
    Allow,
    Deny,
    Extra(Box<TypeExpr>),
}

/// Any JSON value (`true`).
pub fn any() -> TypeExpr {
    TypeExpr(Expr::Leaf(TypeDesc::Any))
}

/// No value (`false`).
pub fn never() -> TypeExpr {
    TypeExpr(Expr::Leaf(TypeDesc::Never))
}

/// `null`.
pub fn null() -> TypeExpr {
    TypeExpr(Expr::Leaf(TypeDesc::Null))
}

/// A boolean.
pub fn boolean() -> TypeExpr {
    TypeExpr(Expr::Leaf(TypeDesc::Bool))
}

/// An integer; add bounds with [`IntegerDesc`]'s setters.
pub fn integer() -> IntegerDesc {
    IntegerDesc::default()
}

/// A number; add bounds with [`NumberDesc`]'s setters.
pub fn number() -> NumberDesc {
    NumberDesc::default()
}

/// A string; add constraints with [`StringDesc`]'s setters.
pub fn string() -> StringDesc {
    StringDesc::default()
}

/// An array of `items`.
pub fn array(items: impl Into<TypeExpr>) -> ArrayExpr {
    ArrayExpr {
        prefix: Vec::new(),
        items: Box::new(items.into()),
        min_items: 0,
        max_items: None,
        unique_items: false,
        contains: None,
        min_contains: None,
        max_contains: None,
    }
}

/// A fixed-length tuple: exactly these positions, no more items (fewer are allowed unless
/// [`ArrayExpr::min_items`] says otherwise, as in JSON Schema).
pub fn tuple<T: Into<TypeExpr>>(items: impl IntoIterator<Item = T>) -> ArrayExpr {
    array(never()).prefix(items)
}

/// An object with no fields yet; unknown members allowed.
pub fn object() -> ObjectExpr {
    ObjectExpr {
        fields: Vec::new(),
        unknown: UnknownExpr::Allow,
        members: MemberRules::default(),
        names: None,
        patterns: Vec::new(),
        dangling: Vec::new(),
    }
}

/// An object whose members all have type `values`.
pub fn map(values: impl Into<TypeExpr>) -> TypeExpr {
    TypeExpr(Expr::Map(Box::new(values.into())))
}

/// `null` or `inner`.
pub fn nullable(inner: impl Into<TypeExpr>) -> TypeExpr {
    TypeExpr(Expr::Nullable(Box::new(inner.into())))
}

/// At least one branch matches.
pub fn any_of<T: Into<TypeExpr>>(branches: impl IntoIterator<Item = T>) -> TypeExpr {
    TypeExpr(Expr::AnyOf(branches.into_iter().map(Into::into).collect()))
}

/// Exactly one branch matches.
pub fn one_of<T: Into<TypeExpr>>(branches: impl IntoIterator<Item = T>) -> TypeExpr {
    TypeExpr(Expr::OneOf(branches.into_iter().map(Into::into).collect()))
}

/// Every part matches; the first gives the decoded shape.
pub fn all_of<T: Into<TypeExpr>>(parts: impl IntoIterator<Item = T>) -> TypeExpr {
    TypeExpr(Expr::AllOf(parts.into_iter().map(Into::into).collect()))
}

/// `inner` does not match.
pub fn not(inner: impl Into<TypeExpr>) -> TypeExpr {
    TypeExpr(Expr::Not(Box::new(inner.into())))
}

/// `then` for the values that match `condition`, `otherwise` for the others (`if` /
/// `then` / `else`; [`any`] for an outcome that takes every value).
pub fn if_then_else(
    condition: impl Into<TypeExpr>,
    then: impl Into<TypeExpr>,
    otherwise: impl Into<TypeExpr>,
) -> TypeExpr {
    let parts = [condition.into(), then.into(), otherwise.into()];
    TypeExpr(Expr::Conditional(Box::new(parts)))
}

/// Objects with a member `name` must match `schema`; any other value passes (one member of
/// `dependentSchemas`; [`all_of`] joins several, and joins them to the object's type).
pub fn dependent_schema(name: impl Into<String>, schema: impl Into<TypeExpr>) -> TypeExpr {
    TypeExpr(Expr::Dependent(name.into(), Box::new(schema.into())))
}

/// Exactly this value (`const`).
pub fn constant(value: Value) -> TypeExpr {
    TypeExpr(Expr::Leaf(TypeDesc::Enum(vec![value])))
}

/// One of these values (`enum`), in this order.
pub fn enumeration(values: impl IntoIterator<Item = Value>) -> TypeExpr {
    TypeExpr(Expr::Leaf(TypeDesc::Enum(values.into_iter().collect())))
}

/// The definition named `name` (see [`SchemaBuilder::define`]); the way to build recursion.
pub fn reference(name: impl Into<String>) -> TypeExpr {
    TypeExpr(Expr::Ref(name.into()))
}

impl IntegerDesc {
    /// Smallest allowed value (rounded up to an integer).
    pub fn minimum(mut self, n: impl Into<Num>) -> IntegerDesc {
        self.minimum = Some(Bound {
            value: n.into(),
            exclusive: false,
        });
        self
    }

    /// The value must be greater than `n` (rounded down to an integer).
    pub fn exclusive_minimum(mut self, n: impl Into<Num>) -> IntegerDesc {
        self.minimum = Some(Bound {
            value: n.into(),
            exclusive: true,
        });
        self
    }

    /// Largest allowed value (rounded down to an integer).
    pub fn maximum(mut self, n: impl Into<Num>) -> IntegerDesc {
        self.maximum = Some(Bound {
            value: n.into(),
            exclusive: false,
        });
        self
    }

    /// The value must be less than `n` (rounded up to an integer).
    pub fn exclusive_maximum(mut self, n: impl Into<Num>) -> IntegerDesc {
        self.maximum = Some(Bound {
            value: n.into(),
            exclusive: true,
        });
        self
    }

    /// The value must be a multiple of `n` (> 0).
    pub fn multiple_of(mut self, n: impl Into<Num>) -> IntegerDesc {
        self.multiple_of = Some(n.into());
        self
    }

    /// The `format` annotation.
    pub fn format(mut self, format: impl Into<String>) -> IntegerDesc {
        self.format = Some(format.into());
        self
    }
}

impl NumberDesc {
    /// Smallest allowed value.
    pub fn minimum(mut self, n: impl Into<Num>) -> NumberDesc {
        self.minimum = Some(Bound {
            value: n.into(),
            exclusive: false,
        });
        self
    }

    /// The value must be greater than `n`.
    pub fn exclusive_minimum(mut self, n: impl Into<Num>) -> NumberDesc {
        self.minimum = Some(Bound {
            value: n.into(),
            exclusive: true,
        });
        self
    }

    /// Largest allowed value.
    pub fn maximum(mut self, n: impl Into<Num>) -> NumberDesc {
        self.maximum = Some(Bound {
            value: n.into(),
            exclusive: false,
        });
        self
    }

    /// The value must be less than `n`.
    pub fn exclusive_maximum(mut self, n: impl Into<Num>) -> NumberDesc {
        self.maximum = Some(Bound {
            value: n.into(),
            exclusive: true,
        });
        self
    }

    /// The value must be a multiple of `n` (> 0).
    pub fn multiple_of(mut self, n: impl Into<Num>) -> NumberDesc {
        self.multiple_of = Some(n.into());
        self
    }

    /// The `format` annotation.
    pub fn format(mut self, format: impl Into<String>) -> NumberDesc {
        self.format = Some(format.into());
        self
    }
}

impl StringDesc {
    /// Fewest code points.
    pub fn min_length(mut self, n: u64) -> StringDesc {
        self.min_length = n;
        self
    }

    /// Most code points.
    pub fn max_length(mut self, n: u64) -> StringDesc {
        self.max_length = Some(n);
        self
    }

    /// An ECMA-262 pattern that must match somewhere in the string.
    pub fn pattern(mut self, pattern: &str) -> Result<StringDesc, SchemaError> {
        self.pattern = Some(Pattern::new(pattern)?);
        Ok(self)
    }

    /// The `format` annotation.
    pub fn format(mut self, format: impl Into<String>) -> StringDesc {
        self.format = Some(format.into());
        self
    }

    /// `format` as an assertion: the string must have `format` (see
    /// [`Loader::assert_formats`](crate::schema::Loader::assert_formats)).
    pub fn assert_format(mut self, format: Format) -> StringDesc {
        self.format = Some(format.name().to_owned());
        self.asserted_format = Some(format);
        self
    }
}

impl ArrayExpr {
    /// Types of the first items, position by position (`prefixItems`).
    pub fn prefix<T: Into<TypeExpr>>(mut self, items: impl IntoIterator<Item = T>) -> ArrayExpr {
        self.prefix = items.into_iter().map(Into::into).collect();
        self
    }

    /// Fewest items.
    pub fn min_items(mut self, n: u64) -> ArrayExpr {
        self.min_items = n;
        self
    }

    /// Most items.
    pub fn max_items(mut self, n: u64) -> ArrayExpr {
        self.max_items = Some(n);
        self
    }

    /// No two items equal (`uniqueItems: true`).
    pub fn unique_items(mut self) -> ArrayExpr {
        self.unique_items = true;
        self
    }

    /// At least one item (or [`ArrayExpr::min_contains`] items) of type `ty` (`contains`).
    pub fn contains(mut self, ty: impl Into<TypeExpr>) -> ArrayExpr {
        self.contains = Some(Box::new(ty.into()));
        self
    }

    /// Fewest items of the [`ArrayExpr::contains`] type (`minContains`; 0 allows none).
    pub fn min_contains(mut self, n: u64) -> ArrayExpr {
        self.min_contains = Some(n);
        self
    }

    /// Most items of the [`ArrayExpr::contains`] type (`maxContains`).
    pub fn max_contains(mut self, n: u64) -> ArrayExpr {
        self.max_contains = Some(n);
        self
    }
}

impl ObjectExpr {
    /// A required field.
    pub fn field(self, name: impl Into<String>, ty: impl Into<TypeExpr>) -> ObjectExpr {
        self.push(name.into(), ty.into(), true, None)
    }

    /// An optional field.
    pub fn optional(self, name: impl Into<String>, ty: impl Into<TypeExpr>) -> ObjectExpr {
        self.push(name.into(), ty.into(), false, None)
    }

    /// An optional field with a `default` annotation for decoding.
    pub fn optional_or(
        self,
        name: impl Into<String>,
        ty: impl Into<TypeExpr>,
        default: Value,
    ) -> ObjectExpr {
        self.push(name.into(), ty.into(), false, Some(default))
    }

    /// A field, required or not.
    pub fn member(
        self,
        name: impl Into<String>,
        ty: impl Into<TypeExpr>,
        required: bool,
    ) -> ObjectExpr {
        self.push(name.into(), ty.into(), required, None)
    }

    /// Another name field `field` is read under (serde's `#[serde(alias)]`): the same
    /// field, so an object holding two of its names repeats a key, and encode and decoded
    /// documents use `field`. A `field` the object does not have (yet), or an alias equal to
    /// another name of the object, is an error at build.
    pub fn alias(mut self, field: &str, alias: impl Into<String>) -> ObjectExpr {
        match self.fields.iter_mut().find(|f| f.name == field) {
            Some(f) => f.aliases.push(alias.into()),
            None => self.dangling.push((field.to_owned(), alias.into())),
        }
        self
    }

    /// Merges `inner`'s fields into this object, as serde's `#[serde(flatten)]` does: its
    /// fields are appended, without the names this object already reads (a field whose
    /// name it reads is dropped, an alias it reads is dropped from the field), and when
    /// `inner` takes extra members of a type (a flattened map), so does this object (both
    /// types when both do). `inner`'s `Deny` and member rules are not carried over: a
    /// flattened struct only sees its own fields.
    pub fn flatten(mut self, inner: ObjectExpr) -> ObjectExpr {
        for mut field in inner.fields {
            let taken = |name: &str, fields: &[FieldExpr]| {
                fields
                    .iter()
                    .any(|f| f.name == name || f.aliases.iter().any(|a| a == name))
            };
            if !taken(&field.name, &self.fields) {
                field.aliases.retain(|a| !taken(a, &self.fields));
                self.fields.push(field);
            }
        }
        self.dangling.extend(inner.dangling);
        self.unknown = match (self.unknown, inner.unknown) {
            (UnknownExpr::Deny, _) => UnknownExpr::Deny,
            (outer, UnknownExpr::Allow | UnknownExpr::Deny) => outer,
            (UnknownExpr::Allow, UnknownExpr::Extra(ty)) => UnknownExpr::Extra(ty),
            (UnknownExpr::Extra(outer), UnknownExpr::Extra(ty)) => {
                UnknownExpr::Extra(Box::new(all_of([*outer, *ty])))
            }
        };
        self
    }

    /// A required field placed first, replacing a field of the same name: the tag of an
    /// internally tagged enum's variant (serde removes the tag before the variant's own
    /// fields see the object).
    pub fn tagged(mut self, name: impl Into<String>, ty: impl Into<TypeExpr>) -> ObjectExpr {
        let name = name.into();
        self.fields.retain(|f| f.name != name);
        for f in &mut self.fields {
            f.aliases.retain(|a| *a != name);
        }
        self.fields.insert(
            0,
            FieldExpr {
                name,
                aliases: Vec::new(),
                ty: ty.into(),
                required: true,
                default: None,
            },
        );
        self
    }

    /// Reject members that no field names (`additionalProperties: false`).
    pub fn deny_unknown(mut self) -> ObjectExpr {
        self.unknown = UnknownExpr::Deny;
        self
    }

    /// Members whose names `pattern` (an ECMA-262 regular expression, searched anywhere in
    /// the name) matches must have type `ty`, fields included (`patternProperties`); a
    /// member that no field names and a pattern matches is not one of the other members
    /// [`ObjectExpr::deny_unknown`] and [`ObjectExpr::extras`] are about. An invalid pattern,
    /// one given twice, or one that matches some of a field's names and aliases but not all
    /// is an error at build.
    pub fn pattern_property(
        mut self,
        pattern: impl Into<String>,
        ty: impl Into<TypeExpr>,
    ) -> ObjectExpr {
        self.patterns.push((pattern.into(), ty.into()));
        self
    }

    /// Members that no field names must have type `ty` (`additionalProperties: {…}`).
    pub fn extras(mut self, ty: impl Into<TypeExpr>) -> ObjectExpr {
        self.unknown = UnknownExpr::Extra(Box::new(ty.into()));
        self
    }

    /// Fewest members, named or not (`minProperties`).
    pub fn min_properties(mut self, n: u64) -> ObjectExpr {
        self.members.min = n;
        self
    }

    /// Most members, named or not (`maxProperties`).
    pub fn max_properties(mut self, n: u64) -> ObjectExpr {
        self.members.max = Some(n);
        self
    }

    /// Every member name, as a string, must have type `ty` (`propertyNames`).
    pub fn property_names(mut self, ty: impl Into<TypeExpr>) -> ObjectExpr {
        self.names = Some(Box::new(ty.into()));
        self
    }

    /// When member `name` is present, every one of `required` must be
    /// (`dependentRequired`); given again for the same `name`, the lists join.
    pub fn dependent_required<S: Into<String>>(
        mut self,
        name: impl Into<String>,
        required: impl IntoIterator<Item = S>,
    ) -> ObjectExpr {
        let name = name.into();
        let rules = &mut self.members.dependent_required;
        let at = match rules.iter().position(|(n, _)| *n == name) {
            Some(at) => at,
            None => {
                rules.push((name, Vec::new()));
                rules.len() - 1
            }
        };
        for r in required.into_iter().map(Into::into) {
            if !rules[at].1.contains(&r) {
                rules[at].1.push(r);
            }
        }
        if rules[at].1.is_empty() {
            rules.remove(at);
        }
        self
    }

    fn push(
        mut self,
        name: String,
        ty: TypeExpr,
        required: bool,
        default: Option<Value>,
    ) -> ObjectExpr {
        self.fields.push(FieldExpr {
            name,
            aliases: Vec::new(),
            ty,
            required,
            default,
        });
        self
    }
}

impl From<IntegerDesc> for TypeExpr {
    fn from(d: IntegerDesc) -> TypeExpr {
        TypeExpr(Expr::Leaf(TypeDesc::Integer(d)))
    }
}

impl From<NumberDesc> for TypeExpr {
    fn from(d: NumberDesc) -> TypeExpr {
        TypeExpr(Expr::Leaf(TypeDesc::Number(d)))
    }
}

impl From<StringDesc> for TypeExpr {
    fn from(d: StringDesc) -> TypeExpr {
        TypeExpr(Expr::Leaf(TypeDesc::String(d)))
    }
}

impl From<ArrayExpr> for TypeExpr {
    fn from(a: ArrayExpr) -> TypeExpr {
        TypeExpr(Expr::Array(a))
    }
}

impl From<ObjectExpr> for TypeExpr {
    fn from(o: ObjectExpr) -> TypeExpr {
        TypeExpr(Expr::Object(o))
    }
}

/// Builds a [`Schema`] from a root expression and named definitions (for recursion and
/// sharing).
#[derive(Clone, Debug, Default)]
pub struct SchemaBuilder {
    definitions: Vec<(String, TypeExpr)>,
}

impl SchemaBuilder {
    /// A builder with no definitions.
    pub fn new() -> SchemaBuilder {
        SchemaBuilder::default()
    }

    /// Defines `name`, which [`reference()`] can name anywhere, this definition included.
    pub fn define(mut self, name: impl Into<String>, ty: impl Into<TypeExpr>) -> SchemaBuilder {
        self.definitions.push((name.into(), ty.into()));
        self
    }

    /// The canonical schema of `root`. Errors: an unknown or duplicate definition name, a
    /// non-finite bound, a `multipleOf` not above 0, a name two fields (or a field and an
    /// alias) share, an alias of a field the object does not have, a reference loop that
    /// never reaches a value.
    pub fn build(self, root: impl Into<TypeExpr>) -> Result<Schema, SchemaError> {
        let mut compiler = Compiler {
            graph: Graph::default(),
            names: HashMap::new(),
        };
        let mut slots = Vec::new();
        for (name, _) in &self.definitions {
            let at = pointer::push("/$defs", name);
            let id = compiler.graph.add(TypeDesc::Any, &at);
            if compiler.names.insert(name.clone(), id).is_some() {
                return Err(SchemaError::new(
                    SchemaErrorKind::DuplicateId(name.clone()),
                    at,
                ));
            }
            slots.push((id, at));
        }
        for ((_, expr), (id, at)) in self.definitions.iter().zip(slots) {
            let body = compiler.compile(expr, &at)?;
            compiler.graph.nodes[id.index()] = TypeDesc::AllOf(vec![body]);
        }
        let root = compiler.compile(&root.into(), "")?;
        canon::finish(compiler.graph, root)
    }
}

impl Schema {
    /// The canonical schema of a builder expression with no definitions.
    pub fn build(root: impl Into<TypeExpr>) -> Result<Schema, SchemaError> {
        SchemaBuilder::new().build(root)
    }
}

/// Turns expressions into a raw graph.
struct Compiler {
    graph: Graph,
    names: HashMap<String, TypeId>,
}

impl Compiler {
    fn compile(&mut self, expr: &TypeExpr, at: &str) -> Result<TypeId, SchemaError> {
        let desc = match &expr.0 {
            Expr::Leaf(desc) => {
                check_leaf(desc, at)?;
                desc.clone()
            }
            Expr::Ref(name) => {
                return self.names.get(name).copied().ok_or_else(|| {
                    SchemaError::new(
                        SchemaErrorKind::UnresolvedRef(name.clone()),
                        pointer::push(at, "$ref"),
                    )
                });
            }
            Expr::Array(a) => {
                let here = pointer::push(at, "prefixItems");
                let prefix_items = a
                    .prefix
                    .iter()
                    .enumerate()
                    .map(|(i, item)| self.compile(item, &pointer::push(&here, &i.to_string())))
                    .collect::<Result<_, _>>()?;
                TypeDesc::Array(ArrayDesc {
                    prefix_items,
                    items: self.compile(&a.items, &pointer::push(at, "items"))?,
                    min_items: a.min_items,
                    max_items: a.max_items,
                    unique_items: a.unique_items,
                    contains: match &a.contains {
                        Some(ty) => Some(ContainsDesc {
                            ty: self.compile(ty, &pointer::push(at, "contains"))?,
                            min: a.min_contains,
                            max: a.max_contains,
                        }),
                        None => None,
                    },
                    unevaluated: false,
                })
            }
            Expr::Object(o) => self.object(o, at)?,
            Expr::Map(values) => {
                TypeDesc::Map(self.compile(values, &pointer::push(at, "additionalProperties"))?)
            }
            // `anyOf: [inner, null]`, which canonicalization turns into the `Nullable` or
            // per-kind union a JSON Schema spelling of the same type loads as.
            Expr::Nullable(inner) => {
                let inner = self.compile(inner, at)?;
                let null = self.graph.add(TypeDesc::Null, at);
                TypeDesc::AnyOf(UnionDesc {
                    branches: vec![inner, null],
                    discriminator: None,
                })
            }
            Expr::AnyOf(branches) => {
                TypeDesc::AnyOf(self.union(branches, &pointer::push(at, "anyOf"))?)
            }
            Expr::OneOf(branches) => {
                TypeDesc::OneOf(self.union(branches, &pointer::push(at, "oneOf"))?)
            }
            Expr::AllOf(parts) => TypeDesc::AllOf(self.list(parts, &pointer::push(at, "allOf"))?),
            Expr::Not(inner) => TypeDesc::Not(self.compile(inner, &pointer::push(at, "not"))?),
            Expr::Conditional(parts) => {
                let [condition, then, otherwise] = &**parts;
                TypeDesc::Conditional(ConditionalDesc {
                    condition: self.compile(condition, &pointer::push(at, "if"))?,
                    then: self.compile(then, &pointer::push(at, "then"))?,
                    otherwise: self.compile(otherwise, &pointer::push(at, "else"))?,
                    form: ConditionalForm::IfThenElse,
                })
            }
            Expr::Dependent(name, schema) => {
                let within = pointer::push(&pointer::push(at, "dependentSchemas"), name);
                let schema = self.compile(schema, &within)?;
                return Ok(self.graph.dependent_schema(name, schema, at));
            }
        };
        Ok(self.graph.add(desc, at))
    }

    fn list(&mut self, exprs: &[TypeExpr], at: &str) -> Result<Vec<TypeId>, SchemaError> {
        exprs
            .iter()
            .enumerate()
            .map(|(i, e)| self.compile(e, &pointer::push(at, &i.to_string())))
            .collect()
    }

    fn union(&mut self, exprs: &[TypeExpr], at: &str) -> Result<UnionDesc, SchemaError> {
        Ok(UnionDesc {
            branches: self.list(exprs, at)?,
            discriminator: None,
        })
    }

    fn object(&mut self, o: &ObjectExpr, at: &str) -> Result<TypeDesc, SchemaError> {
        let properties = pointer::push(at, "properties");
        if let Some((field, _)) = o.dangling.first() {
            return Err(SchemaError::new(
                SchemaErrorKind::InvalidValue {
                    keyword: "alias".to_owned(),
                    expected: "an alias of a field the object has",
                },
                pointer::push(&properties, field),
            ));
        }
        let mut seen: Vec<&str> = Vec::new();
        let mut fields: Vec<Field> = Vec::with_capacity(o.fields.len());
        for f in &o.fields {
            for name in std::iter::once(&f.name).chain(&f.aliases) {
                if seen.contains(&name.as_str()) {
                    return Err(SchemaError::new(
                        SchemaErrorKind::DuplicateKey(name.clone()),
                        properties,
                    ));
                }
                seen.push(name);
            }
            fields.push(Field {
                name: f.name.clone(),
                aliases: f.aliases.clone(),
                ty: self.compile(&f.ty, &pointer::push(&properties, &f.name))?,
                required: f.required,
                default: f.default.as_ref().map(crate::schema::value::canonical),
            });
        }
        let unknown = match &o.unknown {
            UnknownExpr::Allow => UnknownFields::Allow,
            UnknownExpr::Deny => UnknownFields::Deny,
            UnknownExpr::Extra(ty) => {
                UnknownFields::Extra(self.compile(ty, &pointer::push(at, "additionalProperties"))?)
            }
        };
        let names = match &o.names {
            Some(ty) => Some(self.compile(ty, &pointer::push(at, "propertyNames"))?),
            None => None,
        };
        let within = pointer::push(at, "patternProperties");
        let mut patterns: Vec<PatternProperty> = Vec::with_capacity(o.patterns.len());
        for (source, ty) in &o.patterns {
            let at = pointer::push(&within, source);
            if patterns.iter().any(|p| p.pattern.source() == source) {
                let kind = SchemaErrorKind::DuplicateKey(source.clone());
                return Err(SchemaError::new(kind, within));
            }
            let pattern = Pattern::new(source).map_err(|e| e.at(at.clone()))?;
            // A field is one slot whichever name it comes under: a pattern must take all
            // of its names or none (the model's rule).
            let splits = |f: &Field| {
                f.names()
                    .any(|n| pattern.is_match(n) != pattern.is_match(&f.name))
            };
            if fields.iter().any(splits) {
                let kind = SchemaErrorKind::InvalidValue {
                    keyword: "patternProperties".to_owned(),
                    expected: "patterns that match all of a field's names and aliases or none",
                };
                return Err(SchemaError::new(kind, at));
            }
            patterns.push(PatternProperty {
                pattern,
                ty: self.compile(ty, &at)?,
            });
        }
        Ok(TypeDesc::Object(ObjectDesc {
            fields,
            unknown,
            members: MemberRules {
                names,
                ..o.members.clone()
            },
            patterns,
            unevaluated: false,
        }))
    }
}

/// Rejects numbers a JSON Schema could not have written: non-finite bounds, `multipleOf` ≤ 0.
fn check_leaf(desc: &TypeDesc, at: &str) -> Result<(), SchemaError> {
    let finite = |keyword: &str, n: Option<Num>| match n {
        Some(n) if !n.is_finite() => Err(SchemaError::new(
            SchemaErrorKind::InvalidValue {
                keyword: keyword.to_owned(),
                expected: "a finite number",
            },
            pointer::push(at, keyword),
        )),
        _ => Ok(()),
    };
    let positive = |n: Option<Num>| match n {
        Some(n) if !n.is_finite() || n.cmp_exact(Num::Int(0)).is_le() => Err(SchemaError::new(
            SchemaErrorKind::InvalidValue {
                keyword: "multipleOf".to_owned(),
                expected: "a number greater than 0",
            },
            pointer::push(at, "multipleOf"),
        )),
        _ => Ok(()),
    };
    match desc {
        TypeDesc::Integer(IntegerDesc {
            minimum,
            maximum,
            multiple_of,
            ..
        })
        | TypeDesc::Number(NumberDesc {
            minimum,
            maximum,
            multiple_of,
            ..
        }) => {
            finite("minimum", minimum.map(|b| b.value))?;
            finite("maximum", maximum.map(|b| b.value))?;
            positive(*multiple_of)
        }
        _ => Ok(()),
    }
}

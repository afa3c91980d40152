//! Loader pass 2: one node per subschema (node `i` is location `i`), each the conjunction of
//! its keywords: the typed part, `const` / `enum`, `$ref`, and the combinators.

use super::asserted_format;
use super::index::{Index, LocationSchema, invalid};
use super::unevaluated::{self, Selector};
use crate::schema::doc::{Doc, member};
use crate::schema::model::{
    ArrayDesc, ConditionalDesc, ConditionalForm, ContainsDesc, Field, Graph, MemberRules,
    ObjectDesc, PatternProperty, UnionDesc, UnknownFields,
};
use crate::schema::value::{canonical, canonical_set};
use crate::schema::{
    Bound, IntegerDesc, Kind, KindBranches, KindSet, Num, NumberDesc, Pattern, SchemaError,
    SchemaErrorKind, StringDesc, TypeDesc, TypeId, pointer,
};
use std::collections::HashSet;

/// Keywords that constrain numbers.
const NUMBER_KEYWORDS: [&str; 5] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];
/// Keywords that constrain strings.
const STRING_KEYWORDS: [&str; 3] = ["minLength", "maxLength", "pattern"];
/// Keywords that constrain arrays.
const ARRAY_KEYWORDS: [&str; 8] = [
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
];
/// Keywords that constrain objects.
const OBJECT_KEYWORDS: [&str; 9] = [
    "properties",
    "patternProperties",
    "required",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "propertyNames",
    "dependencies",
];

/// The raw graph of an indexed document, and what resolving its `$dynamicRef`s by dynamic
/// scope needs.
pub(crate) struct Built {
    /// The graph: node `i` is location `i`; the nodes after them are parts of locations.
    pub(crate) graph: Graph,
    /// For each node, the location it was built for.
    pub(crate) owners: Vec<usize>,
    /// The `$dynamicRef`s that the dynamic scope resolves: each a node `AllOf([initial])`
    /// and the anchor name (see [`DynamicTarget`](super::index::DynamicTarget)).
    pub(crate) dynamic_refs: Vec<(TypeId, String)>,
}

/// Builds the raw graph of an indexed document.
pub(crate) fn build(index: &Index<'_>) -> Result<Built, SchemaError> {
    let mut graph = Graph::default();
    let mut dynamic_refs = Vec::new();
    for location in &index.locations {
        graph.add(TypeDesc::Any, &location.pointer);
    }
    let mut owners: Vec<usize> = (0..index.locations.len()).collect();
    for (i, location) in index.locations.iter().enumerate() {
        graph.nodes[i] = match &location.schema {
            LocationSchema::Bool(true) => TypeDesc::Any,
            LocationSchema::Bool(false) => TypeDesc::Never,
            LocationSchema::Object(members) => {
                let object = SchemaObject {
                    members,
                    at: &location.pointer,
                    base: &location.base,
                    asserts_formats: index.asserts_formats(location),
                };
                object.build(index, &mut graph, &mut dynamic_refs)?
            }
        };
        owners.resize(graph.nodes.len(), i);
    }
    Ok(Built {
        graph,
        owners,
        dynamic_refs,
    })
}

/// One schema object being built.
struct SchemaObject<'a> {
    members: &'a [(String, Doc)],
    at: &'a str,
    base: &'a str,
    /// Whether its `format` is an assertion.
    asserts_formats: bool,
}

impl SchemaObject<'_> {
    fn get(&self, keyword: &str) -> Option<&Doc> {
        member(self.members, keyword)
    }

    fn has(&self, keyword: &str) -> bool {
        self.get(keyword).is_some()
    }

    /// The URI reference under `keyword` (`$ref`, `$dynamicRef`), if there is one.
    fn reference(&self, keyword: &str) -> Result<Option<&str>, SchemaError> {
        match self.get(keyword) {
            None => Ok(None),
            Some(Doc::String(reference)) => Ok(Some(reference)),
            Some(_) => Err(invalid(keyword, "a URI reference", self.ptr(keyword))),
        }
    }

    /// The error of the reference under `keyword` whose target is no subschema.
    fn unresolved(&self, keyword: &str, reference: &str) -> SchemaError {
        let kind = SchemaErrorKind::UnresolvedRef(reference.to_owned());
        SchemaError::new(kind, self.ptr(keyword))
    }

    /// The pointer of `keyword` in this object.
    fn ptr(&self, keyword: &str) -> String {
        pointer::push(self.at, keyword)
    }

    /// The node of the subschema at `keyword` (+ `/token`).
    fn child(&self, index: &Index<'_>, keyword: &str, token: Option<&str>) -> TypeId {
        let at = self.ptr(keyword);
        match token {
            Some(t) => index.id(&pointer::push(&at, t)),
            None => index.id(&at),
        }
    }

    /// The nodes of a list of subschemas (`allOf`, `prefixItems`, …); empty when absent.
    fn children(&self, index: &Index<'_>, keyword: &str) -> Vec<TypeId> {
        match self.get(keyword) {
            Some(Doc::Array(items)) => (0..items.len())
                .map(|i| self.child(index, keyword, Some(&i.to_string())))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The whole node: every part must hold.
    fn build(
        &self,
        index: &Index<'_>,
        graph: &mut Graph,
        dynamic_refs: &mut Vec<(TypeId, String)>,
    ) -> Result<TypeDesc, SchemaError> {
        let mut parts = Vec::new();
        if let Some(local) = self.typed_part(index, graph)? {
            parts.push(local);
        }
        if let Some(value) = self.get("const") {
            parts.push(graph.add(TypeDesc::Enum(vec![canonical(&value.to_value())]), self.at));
        }
        if let Some(values) = self.get("enum") {
            let Doc::Array(values) = values else {
                return Err(invalid("enum", "an array", self.ptr("enum")));
            };
            let values: Vec<_> = values.iter().map(Doc::to_value).collect();
            parts.push(graph.add(TypeDesc::Enum(canonical_set(&values)), self.at));
        }
        if let Some(reference) = self.reference("$ref")? {
            let target = index.resolve_ref(self.base, reference);
            parts.push(target.ok_or_else(|| self.unresolved("$ref", reference))?);
        }
        if let Some(reference) = self.reference("$dynamicRef")? {
            let target = index.resolve_dynamic_ref(self.base, reference);
            let target = target.ok_or_else(|| self.unresolved("$dynamicRef", reference))?;
            parts.push(match target.anchor {
                None => target.initial,
                Some(name) => {
                    let node = TypeDesc::AllOf(vec![target.initial]);
                    let id = graph.add(node, &self.ptr("$dynamicRef"));
                    dynamic_refs.push((id, name));
                    id
                }
            });
        }
        parts.extend(self.children(index, "allOf"));
        for (keyword, one) in [("anyOf", false), ("oneOf", true)] {
            if self.has(keyword) {
                let union = UnionDesc {
                    branches: self.children(index, keyword),
                    discriminator: None,
                };
                let desc = if one {
                    TypeDesc::OneOf(union)
                } else {
                    TypeDesc::AnyOf(union)
                };
                parts.push(graph.add(desc, self.at));
            }
        }
        if self.has("not") {
            parts.push(graph.add(TypeDesc::Not(self.child(index, "not", None)), self.at));
        }
        if let Some(conditional) = self.conditional(index, graph) {
            parts.push(conditional);
        }
        parts.extend(self.dependent_schemas(index, graph));
        if self.has("unevaluatedProperties") {
            parts.extend(self.unevaluated_properties(index, graph)?);
        }
        if self.has("unevaluatedItems") {
            parts.extend(self.unevaluated_items(index, graph)?);
        }
        Ok(match parts.is_empty() {
            true => TypeDesc::Any,
            false => TypeDesc::AllOf(parts),
        })
    }

    /// `if` / `then` / `else` as a [`TypeDesc::Conditional`] (an absent outcome takes any
    /// value); `None` without `if`, or with neither `then` nor `else`.
    fn conditional(&self, index: &Index<'_>, graph: &mut Graph) -> Option<TypeId> {
        let condition = self.get("if").map(|_| self.child(index, "if", None))?;
        let outcome = |keyword| self.get(keyword).map(|_| self.child(index, keyword, None));
        let (then, otherwise) = (outcome("then"), outcome("else"));
        if then.is_none() && otherwise.is_none() {
            return None;
        }
        let mut any = || graph.add(TypeDesc::Any, self.at);
        let desc = ConditionalDesc {
            condition,
            then: then.unwrap_or_else(&mut any),
            otherwise: otherwise.unwrap_or_else(&mut any),
            form: ConditionalForm::IfThenElse,
        };
        Some(graph.add(TypeDesc::Conditional(desc), self.at))
    }

    /// `dependentSchemas`, and the schema members of `dependencies`: one conditional per
    /// member, in schema order (see [`Graph::dependent_schema`]).
    fn dependent_schemas(&self, index: &Index<'_>, graph: &mut Graph) -> Vec<TypeId> {
        (dependent_schema_members(self.members).into_iter())
            .map(|(keyword, name)| {
                let schema = self.child(index, keyword, Some(name));
                graph.dependent_schema(name, schema, self.at)
            })
            .collect()
    }

    /// `unevaluatedProperties`: objects' members that the other keywords do not evaluate
    /// must match it (any other value passes); `None` when they evaluate every member.
    fn unevaluated_properties(
        &self,
        index: &Index<'_>,
        graph: &mut Graph,
    ) -> Result<Option<TypeId>, SchemaError> {
        let plan = unevaluated::plan(index, index.id(self.at))?;
        self.unevaluated_cases(graph, plan, |graph, evaluated| {
            self.unevaluated_members(index, graph, evaluated)
        })
    }

    /// `unevaluatedItems`: arrays' items after those the other keywords evaluate (a prefix)
    /// must match it (any other value passes); `None` when they evaluate every item.
    fn unevaluated_items(
        &self,
        index: &Index<'_>,
        graph: &mut Graph,
    ) -> Result<Option<TypeId>, SchemaError> {
        let plan = unevaluated::plan(index, index.id(self.at))?;
        self.unevaluated_cases(graph, plan, |graph, evaluated: unevaluated::Items| {
            if evaluated.all {
                return Ok(None);
            }
            // An item that a `contains` matches is evaluated; the others must match.
            let unevaluated = self.child(index, "unevaluatedItems", None);
            let contained = match evaluated.contains[..] {
                [] => None,
                [one] => Some(one),
                _ => {
                    let union = UnionDesc {
                        branches: evaluated.contains,
                        discriminator: None,
                    };
                    Some(graph.add(TypeDesc::AnyOf(union), self.at))
                }
            };
            let items = match contained {
                None => unevaluated,
                Some(contained) => {
                    let any = graph.add(TypeDesc::Any, self.at);
                    self.case(graph, contained, any, unevaluated)
                }
            };
            let mut descs = self.open_descs(graph);
            descs.array = ArrayDesc {
                prefix_items: (0..evaluated.prefix)
                    .map(|_| graph.add(TypeDesc::Any, self.at))
                    .collect(),
                items,
                unevaluated: true,
                ..descs.array
            };
            Ok(Some(self.kinds(graph, every_kind(), descs)))
        })
    }

    /// The node that checks an `unevaluated*` keyword by its plan: `check` of what is
    /// always evaluated, or a chain of conditionals, one per case, each checking what its
    /// case evaluates. A value no case selects (no `oneOf` branch matched: invalid anyway)
    /// gets the check of what is always evaluated, as the branches' annotations are dropped.
    fn unevaluated_cases<E: Clone>(
        &self,
        graph: &mut Graph,
        plan: unevaluated::Plan<E>,
        check: impl Fn(&mut Graph, E) -> Result<Option<TypeId>, SchemaError>,
    ) -> Result<Option<TypeId>, SchemaError> {
        let always = check(graph, plan.always.clone())?;
        if plan.cases.is_empty() {
            return Ok(always);
        }
        let mut next = match always {
            Some(always) => always,
            None => graph.add(TypeDesc::Any, self.at),
        };
        for case in plan.cases.into_iter().rev() {
            let then = match check(graph, case.evaluated)? {
                Some(then) => then,
                None => graph.add(TypeDesc::Any, self.at),
            };
            let condition = self.selection(graph, &case.when);
            next = self.case(graph, condition, then, next);
        }
        Ok(Some(next))
    }

    /// A conditional of an `unevaluated*` keyword (a case of its chain, or an item that
    /// `contains` may have evaluated): its errors point at the keyword, no outcome token.
    fn case(
        &self,
        graph: &mut Graph,
        condition: TypeId,
        then: TypeId,
        otherwise: TypeId,
    ) -> TypeId {
        let desc = ConditionalDesc {
            condition,
            then,
            otherwise,
            form: ConditionalForm::Unevaluated,
        };
        graph.add(TypeDesc::Conditional(desc), self.at)
    }

    /// The node matching the values of which every selector holds.
    fn selection(&self, graph: &mut Graph, when: &[Selector]) -> TypeId {
        let mut parts = Vec::new();
        for selector in when {
            parts.push(match selector {
                Selector::Matches(id) => *id,
                Selector::Fails(id) => graph.add(TypeDesc::Not(*id), self.at),
                Selector::Has(name) => graph.has_member(name, self.at),
                Selector::Lacks(name) => {
                    let has = graph.has_member(name, self.at);
                    graph.add(TypeDesc::Not(has), self.at)
                }
            });
        }
        match parts[..] {
            [one] => one,
            _ => graph.add(TypeDesc::AllOf(parts), self.at),
        }
    }

    /// The check of `unevaluatedProperties` when `evaluated` is what the other keywords
    /// evaluate: an object node whose fields and patterns, of any value, are those members,
    /// and whose other members must match the keyword; `None` when they evaluate every
    /// member.
    fn unevaluated_members(
        &self,
        index: &Index<'_>,
        graph: &mut Graph,
        evaluated: unevaluated::Members,
    ) -> Result<Option<TypeId>, SchemaError> {
        if evaluated.all {
            return Ok(None);
        }
        let mut any = || graph.add(TypeDesc::Any, self.at);
        let fields = (evaluated.names.into_iter())
            .map(|name| Field {
                name,
                aliases: Vec::new(),
                ty: any(),
                required: false,
                default: None,
            })
            .collect();
        let mut patterns = Vec::new();
        for (source, at) in evaluated.patterns {
            let pattern = Pattern::new(&source).map_err(|e| e.at(at))?;
            patterns.push(PatternProperty { pattern, ty: any() });
        }
        let mut descs = self.open_descs(graph);
        descs.object = ObjectDesc {
            fields,
            patterns,
            unevaluated: true,
            ..ObjectDesc::open(UnknownFields::Extra(self.child(
                index,
                "unevaluatedProperties",
                None,
            )))
        };
        Ok(Some(self.kinds(graph, every_kind(), descs)))
    }

    /// Per-kind parts that take every value of their kind.
    fn open_descs(&self, graph: &mut Graph) -> KindDescs {
        KindDescs {
            integer: IntegerDesc::default(),
            number: NumberDesc::default(),
            string: StringDesc::default(),
            array: ArrayDesc {
                prefix_items: Vec::new(),
                items: graph.add(TypeDesc::Any, self.at),
                min_items: 0,
                max_items: None,
                unique_items: false,
                contains: None,
                unevaluated: false,
            },
            object: ObjectDesc::open(UnknownFields::Allow),
        }
    }

    /// `type` and the per-kind keywords, as a `Kinds` node; `None` when none is present.
    fn typed_part(
        &self,
        index: &Index<'_>,
        graph: &mut Graph,
    ) -> Result<Option<TypeId>, SchemaError> {
        let types = self.types()?;
        let mut descs = KindDescs {
            integer: self.integer_desc()?,
            number: self.number_desc()?,
            string: self.string_desc()?,
            array: self.array_desc(index, graph)?,
            object: self.object_desc(index, graph)?,
        };
        let constrained = [
            &NUMBER_KEYWORDS[..],
            &STRING_KEYWORDS,
            &ARRAY_KEYWORDS,
            &OBJECT_KEYWORDS,
        ]
        .concat()
        .into_iter()
        .chain(["format"])
        .any(|k| self.has(k));
        if types.is_none() && !constrained {
            return Ok(None);
        }
        let allowed = types.unwrap_or_else(every_kind);
        // Where formats are assertions, the format of the strings it allows is asserted.
        if let (true, true, Some(name)) = (
            allowed.contains(Kind::String),
            self.asserts_formats,
            &descs.string.format,
        ) {
            descs.string.asserted_format = asserted_format(name, self.ptr("format"))?;
        }
        Ok(Some(self.kinds(graph, allowed, descs)))
    }

    /// A `Kinds` node of the `allowed` kinds, each with its part of `descs` (numbers are
    /// `integer`'s when only integers are allowed).
    fn kinds(&self, graph: &mut Graph, allowed: KindSet, descs: KindDescs) -> TypeId {
        let mut slot =
            |kind: Kind, desc: TypeDesc| allowed.contains(kind).then(|| graph.add(desc, self.at));
        let mut branches = KindBranches {
            null: slot(Kind::Null, TypeDesc::Null),
            boolean: slot(Kind::Boolean, TypeDesc::Bool),
            number: slot(Kind::Number, TypeDesc::Number(descs.number)),
            string: slot(Kind::String, TypeDesc::String(descs.string)),
            array: slot(Kind::Array, TypeDesc::Array(descs.array)),
            object: slot(Kind::Object, TypeDesc::Object(descs.object)),
        };
        if branches.number.is_none() {
            branches.number = slot(Kind::Integer, TypeDesc::Integer(descs.integer));
        }
        graph.add(TypeDesc::Kinds(branches), self.at)
    }

    /// The `type` keyword as a set; `None` when absent.
    fn types(&self) -> Result<Option<KindSet>, SchemaError> {
        let named = |name: &str| {
            Kind::from_name(name).ok_or_else(|| {
                SchemaError::new(
                    SchemaErrorKind::UnknownType(name.to_owned()),
                    self.ptr("type"),
                )
            })
        };
        let expected = "a type name or an array of unique type names";
        match self.get("type") {
            None => Ok(None),
            Some(Doc::String(name)) => Ok(Some(KindSet::only(named(name)?))),
            Some(Doc::Array(names)) => {
                let mut set = KindSet::EMPTY;
                for name in names {
                    let Doc::String(name) = name else {
                        return Err(invalid("type", expected, self.ptr("type")));
                    };
                    let kind = named(name)?;
                    if set.contains(kind) {
                        return Err(invalid("type", expected, self.ptr("type")));
                    }
                    set = set.with(kind);
                }
                Ok(Some(set))
            }
            Some(_) => Err(invalid("type", expected, self.ptr("type"))),
        }
    }

    /// A number keyword's value.
    fn number(&self, keyword: &str) -> Result<Option<Num>, SchemaError> {
        match self.get(keyword) {
            None => Ok(None),
            Some(Doc::Number(n)) => Ok(Some(Num::from_json(n))),
            Some(_) => Err(invalid(keyword, "a number", self.ptr(keyword))),
        }
    }

    /// `multipleOf`: a number greater than 0.
    fn multiple_of(&self) -> Result<Option<Num>, SchemaError> {
        match self.number("multipleOf")? {
            Some(m) if m.cmp_exact(Num::Int(0)).is_le() => Err(invalid(
                "multipleOf",
                "a number greater than 0",
                self.ptr("multipleOf"),
            )),
            m => Ok(m),
        }
    }

    /// A count keyword's value: a non-negative integer (`2.0` counts; beyond `u64` saturates).
    fn count(&self, keyword: &str) -> Result<Option<u64>, SchemaError> {
        let n = match self.get(keyword) {
            None => return Ok(None),
            Some(Doc::Number(n)) => Num::from_json(n),
            Some(_) => Num::Float(f64::NAN),
        };
        match n {
            Num::Int(i) if i >= 0 => Ok(Some(i as u64)),
            Num::UInt(u) => Ok(Some(u)),
            Num::Float(f) if f.is_finite() && f > 0.0 && f.fract() == 0.0 => Ok(Some(u64::MAX)),
            _ => Err(invalid(
                keyword,
                "a non-negative integer",
                self.ptr(keyword),
            )),
        }
    }

    fn format(&self) -> Option<String> {
        match self.get("format") {
            Some(Doc::String(f)) => Some(f.clone()),
            _ => None,
        }
    }

    fn integer_desc(&self) -> Result<IntegerDesc, SchemaError> {
        let (minimum, maximum) = self.bounds()?;
        Ok(IntegerDesc {
            minimum: minimum.map(Bound::integral_lower),
            maximum: maximum.map(Bound::integral_upper),
            multiple_of: self.multiple_of()?.filter(|&m| m != Num::Int(1)),
            format: self.format(),
        })
    }

    /// The lower and upper bounds: each the stricter of the inclusive and exclusive keyword.
    fn bounds(&self) -> Result<(Option<Bound>, Option<Bound>), SchemaError> {
        let bound = |keyword: &str, exclusive: bool| {
            Ok::<_, SchemaError>(
                self.number(keyword)?
                    .map(|value| Bound { value, exclusive }),
            )
        };
        // Integral rounding first, so that the comparison sees what integers admit.
        Ok((
            Bound::stricter(
                bound("minimum", false)?,
                bound("exclusiveMinimum", true)?,
                true,
            ),
            Bound::stricter(
                bound("maximum", false)?,
                bound("exclusiveMaximum", true)?,
                false,
            ),
        ))
    }

    fn number_desc(&self) -> Result<NumberDesc, SchemaError> {
        let (minimum, maximum) = self.bounds()?;
        Ok(NumberDesc {
            minimum,
            maximum,
            multiple_of: self.multiple_of()?,
            format: self.format(),
        })
    }

    fn string_desc(&self) -> Result<StringDesc, SchemaError> {
        let pattern = match self.get("pattern") {
            None => None,
            Some(Doc::String(p)) => Some(Pattern::new(p).map_err(|e| e.at(self.ptr("pattern")))?),
            Some(_) => return Err(invalid("pattern", "a string", self.ptr("pattern"))),
        };
        Ok(StringDesc {
            min_length: self.count("minLength")?.unwrap_or(0),
            max_length: self.count("maxLength")?,
            pattern,
            format: self.format(),
            asserted_format: None,
        })
    }

    fn array_desc(&self, index: &Index<'_>, graph: &mut Graph) -> Result<ArrayDesc, SchemaError> {
        let items = match self.has("items") {
            true => self.child(index, "items", None),
            false => graph.add(TypeDesc::Any, self.at),
        };
        Ok(ArrayDesc {
            prefix_items: self.children(index, "prefixItems"),
            items,
            min_items: self.count("minItems")?.unwrap_or(0),
            max_items: self.count("maxItems")?,
            unique_items: match self.get("uniqueItems") {
                None => false,
                Some(Doc::Bool(b)) => *b,
                Some(_) => {
                    return Err(invalid("uniqueItems", "a boolean", self.ptr("uniqueItems")));
                }
            },
            // `minContains` and `maxContains` without `contains` say nothing.
            contains: match self.has("contains") {
                true => Some(ContainsDesc {
                    ty: self.child(index, "contains", None),
                    min: self.count("minContains")?,
                    max: self.count("maxContains")?,
                }),
                false => None,
            },
            unevaluated: false,
        })
    }

    fn object_desc(&self, index: &Index<'_>, graph: &mut Graph) -> Result<ObjectDesc, SchemaError> {
        let required = self.required()?;
        let extra = self
            .get("additionalProperties")
            .map(|_| self.child(index, "additionalProperties", None));
        let mut fields = Vec::new();
        // Sets, not scans of the lists: an object schema may name thousands of members.
        let required_names: HashSet<&str> = required.iter().map(String::as_str).collect();
        if let Some(Doc::Object(properties)) = self.get("properties") {
            for (name, schema) in properties {
                fields.push(Field {
                    name: name.clone(),
                    aliases: Vec::new(),
                    ty: self.child(index, "properties", Some(name)),
                    required: required_names.contains(name.as_str()),
                    default: schema.get("default").map(|d| canonical(&d.to_value())),
                });
            }
        }
        let field_names: HashSet<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        let mut only_required: Vec<&String> = required
            .iter()
            .filter(|r| !field_names.contains(r.as_str()))
            .collect();
        only_required.sort();
        let patterns = self.pattern_properties(index)?;
        for name in only_required {
            // `additionalProperties` is about names neither `properties` nor a pattern
            // match; the patterns apply to every field by the model's rule.
            let other = extra.filter(|_| !patterns.iter().any(|p| p.pattern.is_match(name)));
            fields.push(Field {
                name: name.clone(),
                aliases: Vec::new(),
                ty: other.unwrap_or_else(|| graph.add(TypeDesc::Any, self.at)),
                required: true,
                default: None,
            });
        }
        Ok(ObjectDesc {
            fields,
            unknown: extra.map_or(UnknownFields::Allow, UnknownFields::Extra),
            members: MemberRules {
                min: self.count("minProperties")?.unwrap_or(0),
                max: self.count("maxProperties")?,
                dependent_required: self.dependent_required()?,
                names: self
                    .has("propertyNames")
                    .then(|| self.child(index, "propertyNames", None)),
            },
            patterns,
            unevaluated: false,
        })
    }

    /// `patternProperties`: each member's pattern compiled (an invalid one is an error at
    /// its member) with its schema's node.
    fn pattern_properties(&self, index: &Index<'_>) -> Result<Vec<PatternProperty>, SchemaError> {
        let Some(Doc::Object(members)) = self.get("patternProperties") else {
            return Ok(Vec::new());
        };
        let at = self.ptr("patternProperties");
        (members.iter())
            .map(|(source, _)| {
                Ok(PatternProperty {
                    pattern: Pattern::new(source).map_err(|e| e.at(pointer::push(&at, source)))?,
                    ty: self.child(index, "patternProperties", Some(source)),
                })
            })
            .collect()
    }

    /// `required`: an array of unique strings; empty when absent.
    fn required(&self) -> Result<Vec<String>, SchemaError> {
        match self.get("required") {
            None => Ok(Vec::new()),
            Some(names) => unique_strings(names).ok_or_else(|| {
                invalid(
                    "required",
                    "an array of unique strings",
                    self.ptr("required"),
                )
            }),
        }
    }

    /// `dependentRequired`: an object whose members are arrays of unique strings, and the
    /// array members of `dependencies`; a member with an empty array requires nothing and
    /// is dropped.
    fn dependent_required(&self) -> Result<Vec<(String, Vec<String>)>, SchemaError> {
        let mut members = match self.get("dependentRequired") {
            None => Vec::new(),
            Some(Doc::Object(members)) => {
                let keyword = "dependentRequired";
                members.iter().map(|(n, v)| (keyword, n, v)).collect()
            }
            Some(_) => {
                let expected = "an object of arrays of unique strings";
                return Err(invalid(
                    "dependentRequired",
                    expected,
                    self.ptr("dependentRequired"),
                ));
            }
        };
        if let Some(Doc::Object(more)) = self.get("dependencies") {
            let arrays = more.iter().filter(|(_, v)| matches!(v, Doc::Array(_)));
            members.extend(arrays.map(|(n, v)| ("dependencies", n, v)));
        }
        let mut out = Vec::new();
        for (keyword, name, names) in members {
            let names = unique_strings(names).ok_or_else(|| {
                let at = pointer::push(&self.ptr(keyword), name);
                invalid(keyword, "an array of unique strings", at)
            })?;
            if !names.is_empty() {
                out.push((name.clone(), names));
            }
        }
        Ok(out)
    }
}

/// The per-kind parts of a schema object's typed node.
struct KindDescs {
    integer: IntegerDesc,
    number: NumberDesc,
    string: StringDesc,
    array: ArrayDesc,
    object: ObjectDesc,
}

/// Every JSON kind (no `type` keyword).
fn every_kind() -> KindSet {
    Kind::SLOTS.into_iter().fold(KindSet::EMPTY, KindSet::with)
}

/// The members of a schema object's `dependentSchemas` and the schema members of its
/// `dependencies`, each with the keyword it is under, in schema order.
pub(super) fn dependent_schema_members(members: &[(String, Doc)]) -> Vec<(&'static str, &str)> {
    let mut out = Vec::new();
    for keyword in ["dependentSchemas", "dependencies"] {
        if let Some(Doc::Object(subs)) = member(members, keyword) {
            let schemas = subs.iter().filter(|(_, s)| !matches!(s, Doc::Array(_)));
            out.extend(schemas.map(|(name, _)| (keyword, name.as_str())));
        }
    }
    out
}

/// The strings of `doc` when it is an array of unique strings.
fn unique_strings(doc: &Doc) -> Option<Vec<String>> {
    let Doc::Array(items) = doc else {
        return None;
    };
    let mut seen = HashSet::with_capacity(items.len());
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Doc::String(s) if seen.insert(s.as_str()) => out.push(s.clone()),
            _ => return None,
        }
    }
    Some(out)
}

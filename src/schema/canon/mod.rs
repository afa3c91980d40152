//! The canonical form: a raw graph from a loader or the builder becomes a [`Schema`].
//!
//! Steps: reject cycles that never reach a value ([`recursion`]); simplify every node to a
//! fixpoint ([`simplify`]): `$ref`-only and single-part nodes collapse, equivalent spellings
//! become one, `enum` absorbs the constraints beside it; give an `allOf`'s first part the
//! members its other parts name ([`widen`]); merge structurally identical nodes and number
//! them depth first from the root ([`minimize`]); find `anyOf` / `oneOf` discriminators
//! ([`discriminator`]).

mod discriminator;
mod minimize;
mod recursion;
mod simplify;
mod widen;

use crate::schema::model::{Graph, ObjectDesc};
use crate::schema::{Schema, SchemaError, TypeDesc, TypeId};

/// Puts a raw graph rooted at `root` in canonical form.
pub(crate) fn finish(mut graph: Graph, root: TypeId) -> Result<Schema, SchemaError> {
    let order = recursion::check(&graph)?;
    simplify::simplify(&mut graph, &order);
    widen::widen(&mut graph);
    let (mut nodes, root) = minimize::minimize(&graph.nodes, root);
    discriminator::annotate(&mut nodes);
    Ok(Schema { nodes, root })
}

/// Appends to `out` the objects every object value of node `id` must match: the node
/// itself, or what every object of its `allOf` parts, of its object kind (a node of
/// several kinds) or of its non-null kind must match, looked for [`MAX_OBJECTS_DEPTH`]
/// levels down.
pub(super) fn objects_of<'n>(
    nodes: &'n [TypeDesc],
    id: TypeId,
    depth: u32,
    out: &mut Vec<&'n ObjectDesc>,
) {
    let inner = |out: &mut Vec<&'n ObjectDesc>, id| {
        if depth < MAX_OBJECTS_DEPTH {
            objects_of(nodes, id, depth + 1, out);
        }
    };
    match &nodes[id.index()] {
        TypeDesc::Object(o) => out.push(o),
        TypeDesc::AllOf(parts) => parts.iter().for_each(|&p| inner(out, p)),
        TypeDesc::Kinds(k) => k.object.into_iter().for_each(|o| inner(out, o)),
        TypeDesc::Nullable(n) => inner(out, *n),
        _ => {}
    }
}

/// How deep [`objects_of`] looks into nested `allOf`s (which may form a cycle).
const MAX_OBJECTS_DEPTH: u32 = 4;

/// The workspace's one test PRNG, shared with the integration tests.
#[cfg(test)]
#[path = "../../../kernels/tests/common/rng.rs"]
mod test_rng;

#[cfg(test)]
mod tests {
    //! Canonicalization must not change meaning: random schemas and random values, checked
    //! against the raw graph (each keyword taken literally) and against the canonical schema.

    use super::{finish, recursion};
    use crate::schema::TypeId;
    use crate::schema::doc::Doc;
    use crate::schema::load::raw_graph;
    use crate::schema::validate::check;
    use serde_json::{Value, json};

    use super::test_rng::Rng;

    const KEYS: [&str; 4] = ["a", "b", "c", "d"];

    fn number(rng: &mut Rng) -> Value {
        rng.pick(&[
            json!(0),
            json!(1),
            json!(-1),
            json!(1.5),
            json!(2),
            json!(2.0),
            json!(3),
            json!(10),
            json!(0.5),
            json!(1e20),
            json!(-2.5),
        ])
    }

    fn value(rng: &mut Rng, depth: usize) -> Value {
        match rng.below(if depth == 0 { 4 } else { 6 }) {
            0 => Value::Null,
            1 => Value::Bool(rng.chance(50)),
            2 => number(rng),
            3 => rng.pick(&[
                json!(""),
                json!("a"),
                json!("ab"),
                json!("b1"),
                json!("aaa"),
            ]),
            4 => Value::Array((0..rng.below(4)).map(|_| value(rng, depth - 1)).collect()),
            _ => Value::Object(
                (0..rng.below(4))
                    .map(|_| (rng.pick(&KEYS).to_owned(), value(rng, depth - 1)))
                    .collect(),
            ),
        }
    }

    fn schemas(rng: &mut Rng, depth: usize, count: usize) -> Value {
        Value::Array((0..count).map(|_| schema(rng, depth)).collect())
    }

    fn schema(rng: &mut Rng, depth: usize) -> Value {
        if rng.chance(10) {
            return Value::Bool(rng.chance(70));
        }
        let kinds = [
            "null", "boolean", "integer", "number", "string", "array", "object",
        ];
        let mut s = serde_json::Map::new();
        let put = |s: &mut serde_json::Map<String, Value>, k: &str, v: Value| {
            s.insert(k.to_owned(), v);
        };
        if rng.chance(50) {
            let t = match rng.chance(50) {
                true => json!(rng.pick(&kinds)),
                false => {
                    let mut names: Vec<&str> =
                        kinds.iter().copied().filter(|_| rng.chance(35)).collect();
                    names.dedup();
                    json!(names)
                }
            };
            put(&mut s, "type", t);
        }
        for k in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
            if rng.chance(10) {
                put(&mut s, k, number(rng));
            }
        }
        if rng.chance(8) {
            put(
                &mut s,
                "multipleOf",
                rng.pick(&[json!(2), json!(0.5), json!(1), json!(1.5)]),
            );
        }
        for k in [
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
            "minContains",
            "maxContains",
        ] {
            if rng.chance(8) {
                put(&mut s, k, json!(rng.below(4)));
            }
        }
        if rng.chance(8) {
            put(
                &mut s,
                "pattern",
                json!(rng.pick(&["^a", "b$", "[0-9]", "^$"])),
            );
        }
        if rng.chance(10) {
            put(
                &mut s,
                "enum",
                Value::Array((0..rng.below(4)).map(|_| value(rng, 1)).collect()),
            );
        }
        if rng.chance(6) {
            put(&mut s, "const", value(rng, 1));
        }
        if rng.chance(6) {
            put(&mut s, "uniqueItems", json!(rng.chance(70)));
        }
        if rng.chance(6) {
            let names: Vec<&str> = KEYS.iter().copied().filter(|_| rng.chance(40)).collect();
            put(
                &mut s,
                "dependentRequired",
                json!({*rng.pick(&KEYS): names}),
            );
        }
        if depth > 0 {
            if rng.chance(20) {
                put(&mut s, "items", schema(rng, depth - 1));
            }
            if rng.chance(10) {
                let n = 1 + rng.below(2);
                put(&mut s, "prefixItems", schemas(rng, depth - 1, n));
            }
            if rng.chance(25) {
                let mut props = serde_json::Map::new();
                for k in KEYS {
                    if rng.chance(50) {
                        props.insert(k.to_owned(), schema(rng, depth - 1));
                    }
                }
                put(&mut s, "properties", Value::Object(props));
            }
            if rng.chance(15) {
                let required: Vec<&str> = KEYS.iter().copied().filter(|_| rng.chance(40)).collect();
                put(&mut s, "required", json!(required));
            }
            if rng.chance(15) {
                put(&mut s, "additionalProperties", schema(rng, depth - 1));
            }
            if rng.chance(6) {
                put(&mut s, "propertyNames", schema(rng, depth - 1));
            }
            if rng.chance(8) {
                let pattern = rng.pick(&["^a", "[bc]", "^(a|d)$"]);
                put(
                    &mut s,
                    "patternProperties",
                    json!({pattern: schema(rng, depth - 1)}),
                );
            }
            if rng.chance(8) {
                put(&mut s, "contains", schema(rng, depth - 1));
            }
            if rng.chance(6) {
                put(&mut s, "unevaluatedItems", schema(rng, depth - 1));
            }
            if rng.chance(6) {
                put(
                    &mut s,
                    "dependentSchemas",
                    json!({*rng.pick(&KEYS): schema(rng, depth - 1)}),
                );
            }
            for k in ["anyOf", "oneOf", "allOf"] {
                if rng.chance(8) {
                    let n = 1 + rng.below(3);
                    put(&mut s, k, schemas(rng, depth - 1, n));
                }
            }
            for k in ["not", "if", "then", "else"] {
                if rng.chance(5) {
                    put(&mut s, k, schema(rng, depth - 1));
                }
            }
        }
        if rng.chance(8) {
            put(
                &mut s,
                "$ref",
                json!(rng.pick(&["#", "#/$defs/d0", "#/$defs/d1"])),
            );
        }
        Value::Object(s)
    }

    #[test]
    fn loading_never_panics() {
        let keywords = [
            "type",
            "enum",
            "const",
            "minimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "pattern",
            "items",
            "prefixItems",
            "maxItems",
            "properties",
            "required",
            "additionalProperties",
            "anyOf",
            "oneOf",
            "allOf",
            "not",
            "if",
            "dependentSchemas",
            "unevaluatedItems",
            "unevaluatedProperties",
            "$ref",
            "$id",
            "$anchor",
            "$defs",
            "$schema",
            "title",
            "default",
            "examples",
            "deprecated",
        ];
        let mut rng = Rng::new(0xD1B5_4A32_D192_ED03);
        for _ in 0..3000 {
            let mut root = schema(&mut rng, 3);
            if let Value::Object(members) = &mut root {
                for _ in 0..1 + rng.below(3) {
                    let junk = match rng.chance(50) {
                        true => value(&mut rng, 2),
                        false => schema(&mut rng, 1),
                    };
                    members.insert(rng.pick(&keywords).to_owned(), junk);
                }
            }
            if let Ok(schema) = crate::schema::Schema::from_value(&root) {
                for _ in 0..5 {
                    let _ = schema.validate_value(&value(&mut rng, 3));
                }
            }
        }
    }

    /// The raw graph of schema `root`, when it loads and has no cycle that never reaches a
    /// value.
    fn raw_of(root: &Value) -> Option<crate::schema::model::Graph> {
        let raw = raw_graph(
            &Doc::from_value(root),
            &Default::default(),
            &Default::default(),
            &mut Vec::new(),
        )
        .ok()?;
        recursion::check(&raw).is_ok().then_some(raw)
    }

    /// A union of `count` tagged branches: objects or `allOf`s with a tag part, tags of
    /// one or two values, the tag required or not, maybe a default branch.
    fn tagged_union(rng: &mut Rng, count: usize) -> Value {
        let mut named = Vec::new();
        let mut branches: Vec<Value> = (0..count)
            .map(|b| {
                let tags: Vec<Value> = match rng.chance(25) {
                    true => vec![json!(format!("t{b}")), json!(format!("u{b}"))],
                    false => vec![json!(format!("t{b}"))],
                };
                named.extend(tags.iter().cloned());
                let mut tag = json!({"properties": {"kind": {"enum": tags}}});
                if rng.chance(80) {
                    tag["required"] = json!(["kind"]);
                }
                let x = json!({"properties": {"x": schema(rng, 1)}});
                match rng.chance(50) {
                    true => json!({"allOf": [x, tag]}),
                    false => {
                        tag["type"] = json!("object");
                        tag["properties"]["x"] = x["properties"]["x"].clone();
                        tag
                    }
                }
            })
            .collect();
        if rng.chance(30) {
            let other =
                json!({"properties": {"kind": {"not": {"enum": named}}}, "required": ["kind"]});
            branches.push(json!({"allOf": [{"type": "object"}, other]}));
        }
        let keyword = rng.pick(&["anyOf", "oneOf"]);
        json!({ keyword: branches })
    }

    /// A value for [`tagged_union`]s: mostly objects, their `kind` a tag, another value or
    /// absent.
    fn tagged_value(rng: &mut Rng) -> Value {
        if rng.chance(10) {
            return value(rng, 1);
        }
        let mut members = serde_json::Map::new();
        if rng.chance(80) {
            let kind = rng.pick(&[
                json!("t0"),
                json!("t1"),
                json!("u1"),
                json!("t2"),
                json!("zz"),
                json!(0),
            ]);
            members.insert("kind".into(), kind);
        }
        if rng.chance(70) {
            members.insert("x".into(), value(rng, 1));
        }
        Value::Object(members)
    }

    /// Discriminated unions keep their meaning: the reference validator tries only the
    /// branch a tag selects (none for a tag no branch takes, or a required tag missing);
    /// the literal check of the raw graph tries every branch.
    #[test]
    fn discriminators_keep_meaning() {
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        let mut discriminated = 0;
        for _ in 0..2000 {
            let count = 2 + rng.below(2);
            let mut root = tagged_union(&mut rng, count);
            root["$defs"] = json!({"d0": schema(&mut rng, 1), "d1": schema(&mut rng, 1)});
            let Some(raw) = raw_of(&root) else {
                continue;
            };
            let canonical = finish(raw.clone(), TypeId(0)).expect("canonical form");
            if let crate::schema::TypeDesc::AnyOf(u) | crate::schema::TypeDesc::OneOf(u) =
                canonical.node(canonical.root())
                && u.discriminator.is_some()
            {
                discriminated += 1;
            }
            for _ in 0..30 {
                let v = tagged_value(&mut rng);
                let literal = check(&raw.nodes, TypeId(0), &v).is_ok();
                let canon = canonical.validate_value(&v).is_ok();
                assert_eq!(
                    literal, canon,
                    "schema {root}\nvalue {v}\ncanonical {canonical:?}"
                );
            }
        }
        assert!(discriminated > 1000, "{discriminated} discriminated unions");
    }

    #[test]
    fn canonical_form_keeps_meaning() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut compared = 0;
        for _ in 0..3000 {
            let mut root = schema(&mut rng, 3);
            if let Value::Object(members) = &mut root {
                members.insert(
                    "$defs".into(),
                    json!({"d0": schema(&mut rng, 2), "d1": schema(&mut rng, 2)}),
                );
            }
            let Some(raw) = raw_of(&root) else {
                continue;
            };
            let canonical = finish(raw.clone(), TypeId(0)).expect("canonical form");
            for _ in 0..40 {
                let v = value(&mut rng, 3);
                let literal = check(&raw.nodes, TypeId(0), &v).is_ok();
                let canon = canonical.validate_value(&v).is_ok();
                assert_eq!(
                    literal, canon,
                    "schema {root}\nvalue {v}\ncanonical {canonical:?}"
                );
                compared += 1;
            }
        }
        assert!(compared > 50_000, "{compared} comparisons");
    }
}

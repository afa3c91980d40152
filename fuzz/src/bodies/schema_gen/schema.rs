//! Random JSON Schemas (draft 2020-12) from an [`Unstructured`] byte stream.
//!
//! Every keyword the loader supports appears, with values picked from small tables of
//! interesting ones (bounds at the 64-bit edges and at 2^53, fractional `multipleOf`, names
//! with escapes and non-ASCII) so the fuzzer meets the boundaries quickly. Nesting is
//! bounded; `$ref` may point at any definition or at the root, so recursion (guarded or not)
//! is common. In a quarter of the schemas with definitions, each definition is a resource of
//! its own (`$id`) that may declare a `$dynamicAnchor` (as may the root), and references are
//! `$ref`s to resources or `$dynamicRef`s to the anchor of the resource they are in, which
//! the loader resolves by dynamic scope.

use arbitrary::{Result, Unstructured};
use serde_json::{Map, Value as Json, json};

/// Nesting depth of the root schema (definitions get one less).
const ROOT_DEPTH: usize = 4;

/// Most `$defs` entries.
const MAX_DEFS: usize = 3;

/// Integers used for bounds and values.
pub const INTEGERS: &[i128] = &[
    0,
    1,
    -1,
    2,
    3,
    5,
    10,
    100,
    -100,
    255,
    9_007_199_254_740_992,
    9_007_199_254_740_993,
    i64::MAX as i128,
    i64::MIN as i128,
    u64::MAX as i128,
];

/// Floats used for bounds and values.
pub const FLOATS: &[f64] = &[
    0.0, -0.0, 0.5, 1.5, -2.5, 0.1, 0.3, 1e-7, 3.25, 1e300, -1e300, 1e16, 2.0,
];

/// `multipleOf` divisors.
const DIVISORS: &[f64] = &[1.0, 2.0, 3.0, 7.0, 0.5, 0.1, 0.25, 2.5, 0.01, 1e-8, 1e300];

/// Property names (also used in documents).
pub const NAMES: &[&str] = &["a", "b", "id", "kind", "é", "x y", "", "\"q\"", "\\", "n0"];

/// `patternProperties` patterns: each matches some of [`NAMES`] (several match `id`).
const NAME_PATTERNS: &[&str] = &["^a", "d$", "^[a-z]+$", "é", "\\d", "^$", "i", "^x "];

/// Discriminator tags.
const TAGS: &[&str] = &["circle", "square", "dot", "é", ""];

/// Regular expressions for `pattern`.
const PATTERNS: &[&str] = &[
    "^a",
    "b$",
    "^[a-z]*$",
    "\\d",
    "^.{2,4}$",
    "é",
    "^(ab)+$",
    "[^x]",
    "^$",
    "\\p{L}",
    "(",
    "^\\d+$",
    "^[0-9a-f]{2,6}$",
    "^[ -~]{0,3}$",
    "^\\d{2}-[a-f]$",
    "^.$",
    "\\s",
    "[\\b]",
    "^\\cJ",
    "[^]",
    "\\bé",
];

/// Annotations the loader accepts and ignores (or keeps, for `format`).
const FORMATS: &[&str] = &[
    "int32",
    "int64",
    "double",
    "uint8",
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "uuid",
    "json-pointer",
    "relative-json-pointer",
    "regex",
    "idn-hostname",
];

/// The JSON kinds, by their `type` names.
const KINDS: &[&str] = &[
    "null", "boolean", "integer", "number", "string", "array", "object",
];

/// The `$dynamicAnchor` names of schemas whose definitions are resources.
const ANCHORS: &[&str] = &["n0", "n1"];

/// A random schema with up to [`MAX_DEFS`] definitions under `$defs`.
pub fn generate(u: &mut Unstructured<'_>) -> Result<Json> {
    let defs = u.int_in_range(0..=MAX_DEFS)?;
    let resources = defs > 0 && u.ratio(1, 4)?;
    let mut g = Gen {
        u,
        defs,
        resources,
        anchor: None,
    };
    g.anchor = g.pick_anchor()?;
    let root_anchor = g.anchor;
    let mut root = g.node(ROOT_DEPTH)?;
    if defs == 0 {
        return Ok(root);
    }
    let mut table = Map::new();
    for i in 0..defs {
        g.anchor = g.pick_anchor()?;
        let mut def = g.node(ROOT_DEPTH - 1)?;
        if resources {
            def = g.resource(def, &format!("d{i}"));
        }
        table.insert(format!("d{i}"), def);
    }
    if resources {
        g.anchor = root_anchor;
        root = g.resource(root, "https://example.com/root");
    }
    match &mut root {
        Json::Object(members) => {
            members.insert("$defs".into(), Json::Object(table));
        }
        _ => root = json!({"allOf": [root], "$defs": table}),
    }
    Ok(root)
}

/// An integer of [`INTEGERS`] as JSON (exact, even beyond `i64`).
pub fn integer_json(n: i128) -> Json {
    u64::try_from(n).map_or_else(|_| json!(n as i64), |n| json!(n))
}

/// A float as JSON (finite by construction of the tables).
pub fn float_json(f: f64) -> Json {
    serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number)
}

/// The generator state: the byte stream, how many definitions `$ref` may name, whether they
/// are resources, and the `$dynamicAnchor` of the resource being generated.
struct Gen<'u, 'd> {
    u: &'u mut Unstructured<'d>,
    defs: usize,
    resources: bool,
    anchor: Option<&'static str>,
}

impl Gen<'_, '_> {
    /// The `$dynamicAnchor` of the next resource (none when definitions are not resources).
    fn pick_anchor(&mut self) -> Result<Option<&'static str>> {
        if !self.resources || self.u.ratio(1, 4)? {
            return Ok(None);
        }
        Ok(Some(*self.u.choose(ANCHORS)?))
    }

    /// `schema` as the resource `id`, declaring the current anchor.
    fn resource(&self, schema: Json, id: &str) -> Json {
        let mut members = match schema {
            Json::Object(members) if !members.contains_key("$id") => members,
            other => Map::from_iter([("allOf".to_owned(), json!([other]))]),
        };
        members.insert("$id".into(), json!(id));
        if let Some(anchor) = self.anchor {
            members.insert("$dynamicAnchor".into(), json!(anchor));
        }
        Json::Object(members)
    }

    /// One schema of at most `depth` levels.
    fn node(&mut self, depth: usize) -> Result<Json> {
        let leaves = 7;
        let choice = self
            .u
            .choose_index(if depth == 0 { leaves } else { leaves + 7 })?;
        Ok(match choice {
            0 => json!({"type": *self.u.choose(&["null", "boolean"])?}),
            1 => self.integer()?,
            2 => self.number()?,
            3 => self.string()?,
            4 => self.enumeration()?,
            5 => Json::Bool(self.u.ratio(3, 4)?),
            6 => self.reference()?,
            7 => self.array(depth - 1)?,
            8 | 9 => self.object(depth - 1)?,
            10 => self.union(depth - 1)?,
            11 => self.tagged(depth - 1)?,
            12 => self.nullable(depth - 1)?,
            13 => self.logic(depth - 1)?,
            _ => self.multi_kind(depth - 1)?,
        })
    }

    fn maybe(&mut self) -> Result<bool> {
        self.u.ratio(1, 3)
    }

    fn pick_integer(&mut self) -> Result<Json> {
        Ok(integer_json(*self.u.choose(INTEGERS)?))
    }

    fn pick_number(&mut self) -> Result<Json> {
        if self.u.arbitrary()? {
            self.pick_integer()
        } else {
            Ok(float_json(*self.u.choose(FLOATS)?))
        }
    }

    /// `{"type": "integer"}` with optional bounds, `multipleOf` and `format`.
    fn integer(&mut self) -> Result<Json> {
        let mut s = json!({"type": "integer"});
        self.number_keywords(&mut s)?;
        Ok(s)
    }

    /// `{"type": "number"}` with optional bounds, `multipleOf` and `format`.
    fn number(&mut self) -> Result<Json> {
        let mut s = json!({"type": "number"});
        self.number_keywords(&mut s)?;
        Ok(s)
    }

    fn number_keywords(&mut self, s: &mut Json) -> Result<()> {
        for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
            if self.maybe()? {
                s[key] = self.pick_number()?;
            }
        }
        if self.maybe()? {
            s["multipleOf"] = float_json(*self.u.choose(DIVISORS)?);
        }
        if self.u.ratio(1, 8)? {
            s["format"] = json!(*self.u.choose(FORMATS)?);
        }
        Ok(())
    }

    /// `{"type": "string"}` with optional lengths, `pattern` and `format`.
    fn string(&mut self) -> Result<Json> {
        let mut s = json!({"type": "string"});
        self.string_keywords(&mut s)?;
        Ok(s)
    }

    fn string_keywords(&mut self, s: &mut Json) -> Result<()> {
        if self.maybe()? {
            s["minLength"] = json!(self.u.int_in_range(0..=4)?);
        }
        if self.maybe()? {
            s["maxLength"] = json!(self.u.int_in_range(0..=6)?);
        }
        if self.maybe()? {
            s["pattern"] = json!(*self.u.choose(PATTERNS)?);
        }
        if self.u.ratio(1, 8)? {
            s["format"] = json!(*self.u.choose(FORMATS)?);
        }
        Ok(())
    }

    /// `enum` of one to four small values, or `const`.
    fn enumeration(&mut self) -> Result<Json> {
        if self.u.arbitrary()? {
            return Ok(json!({"const": self.small_value(2)?}));
        }
        let n = self.u.int_in_range(1..=4)?;
        let values = (0..n)
            .map(|_| self.small_value(2))
            .collect::<Result<Vec<_>>>()?;
        Ok(json!({"enum": values}))
    }

    /// A small JSON value for `enum` and `const`.
    fn small_value(&mut self, depth: usize) -> Result<Json> {
        let choice = self.u.choose_index(if depth == 0 { 5 } else { 7 })?;
        Ok(match choice {
            0 => Json::Null,
            1 => Json::Bool(self.u.arbitrary()?),
            2 => self.pick_number()?,
            3 | 4 => json!(*self.u.choose(NAMES)?),
            5 => Json::Array(vec![
                self.small_value(depth - 1)?;
                self.u.int_in_range(0..=2)?
            ]),
            _ => json!({*self.u.choose(NAMES)?: self.small_value(depth - 1)?}),
        })
    }

    /// `$ref` to a definition, or to the root; where definitions are resources, a `$ref` to
    /// one of them or to the root, or a `$dynamicRef` to this resource's anchor.
    fn reference(&mut self) -> Result<Json> {
        let target = self.u.int_in_range(0..=self.defs)?;
        if self.resources {
            if let Some(anchor) = self.anchor.filter(|_| target % 2 == 0) {
                return Ok(json!({"$dynamicRef": format!("#{anchor}")}));
            }
            return Ok(match target {
                0 => json!({"$ref": "https://example.com/root"}),
                k => json!({"$ref": format!("https://example.com/d{}", k - 1)}),
            });
        }
        Ok(match target {
            0 => json!({"$ref": "#"}),
            k => json!({"$ref": format!("#/$defs/d{}", k - 1)}),
        })
    }

    /// An array schema: `items` (a schema or `false`), `prefixItems`, item counts,
    /// `uniqueItems`, `contains` with its counts, `unevaluatedItems` (a load error when
    /// `contains` or a branch would decide it).
    fn array(&mut self, depth: usize) -> Result<Json> {
        let mut s = json!({"type": "array"});
        self.array_keywords(&mut s, depth)?;
        Ok(s)
    }

    fn array_keywords(&mut self, s: &mut Json, depth: usize) -> Result<()> {
        if self.u.ratio(1, 2)? {
            let n = self.u.int_in_range(1..=3)?;
            s["prefixItems"] =
                Json::Array((0..n).map(|_| self.node(depth)).collect::<Result<_>>()?);
        }
        if self.u.ratio(2, 3)? {
            s["items"] = if self.u.ratio(1, 5)? {
                json!(false)
            } else {
                self.node(depth)?
            };
        }
        if self.maybe()? {
            s["minItems"] = json!(self.u.int_in_range(0..=3)?);
        }
        if self.maybe()? {
            s["maxItems"] = json!(self.u.int_in_range(0..=4)?);
        }
        if self.maybe()? {
            s["uniqueItems"] = json!(self.u.ratio(3, 4)?);
        }
        if self.u.ratio(1, 5)? {
            s["contains"] = self.node(depth)?;
            if self.maybe()? {
                s["minContains"] = json!(self.u.int_in_range(0..=2)?);
            }
            if self.maybe()? {
                s["maxContains"] = json!(self.u.int_in_range(0..=3)?);
            }
        }
        if self.u.ratio(1, 6)? {
            s["unevaluatedItems"] = match self.maybe()? {
                true => json!(false),
                false => self.node(depth)?,
            };
        }
        Ok(())
    }

    /// An object schema: properties, `required` (possibly naming absent properties),
    /// `patternProperties`, `unevaluatedProperties` (a load error when a branch would decide
    /// it), `additionalProperties` (absent, a boolean or a schema), member
    /// counts, `dependentRequired` (naming any names), `dependentSchemas` (the two now and
    /// then as draft 7's `dependencies`) and `propertyNames`.
    fn object(&mut self, depth: usize) -> Result<Json> {
        let mut s = json!({"type": "object"});
        self.object_keywords(&mut s, depth)?;
        Ok(s)
    }

    fn object_keywords(&mut self, s: &mut Json, depth: usize) -> Result<()> {
        let mut properties = Map::new();
        for _ in 0..self.u.int_in_range(0..=4)? {
            properties.insert((*self.u.choose(NAMES)?).into(), self.node(depth)?);
        }
        let mut required = Vec::new();
        for _ in 0..self.u.int_in_range(0..=2)? {
            let name = *self.u.choose(NAMES)?;
            if !required.contains(&name) {
                required.push(name);
            }
        }
        if !properties.is_empty() {
            s["properties"] = Json::Object(properties);
        }
        if !required.is_empty() {
            s["required"] = json!(required);
        }
        if self.u.ratio(1, 4)? {
            let mut patterns = Map::new();
            for _ in 0..self.u.int_in_range(1..=2)? {
                patterns.insert((*self.u.choose(NAME_PATTERNS)?).into(), self.node(depth)?);
            }
            s["patternProperties"] = Json::Object(patterns);
        }
        if self.u.ratio(1, 6)? {
            s["unevaluatedProperties"] = match self.maybe()? {
                true => json!(false),
                false => self.node(depth)?,
            };
        }
        match self.u.choose_index(4)? {
            0 => s["additionalProperties"] = json!(false),
            1 => s["additionalProperties"] = self.node(depth)?,
            _ => {}
        }
        if self.maybe()? {
            s["minProperties"] = json!(self.u.int_in_range(0..=3)?);
        }
        if self.maybe()? {
            s["maxProperties"] = json!(self.u.int_in_range(0..=4)?);
        }
        if self.maybe()? {
            let mut rules = Map::new();
            for _ in 0..self.u.int_in_range(1..=2)? {
                let mut names = Vec::new();
                for _ in 0..self.u.int_in_range(0..=2)? {
                    let name = *self.u.choose(NAMES)?;
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                rules.insert((*self.u.choose(NAMES)?).into(), json!(names));
            }
            s["dependentRequired"] = Json::Object(rules);
        }
        if self.u.ratio(1, 6)? {
            let mut schemas = Map::new();
            for _ in 0..self.u.int_in_range(1..=2)? {
                schemas.insert((*self.u.choose(NAMES)?).into(), self.node(depth)?);
            }
            s["dependentSchemas"] = Json::Object(schemas);
        }
        // Now and then, both as draft 7's `dependencies` (arrays and schemas in one object).
        if self.u.ratio(1, 8)? {
            let mut dependencies = Map::new();
            for keyword in ["dependentRequired", "dependentSchemas"] {
                if let Some(Json::Object(members)) =
                    s.as_object_mut().and_then(|o| o.remove(keyword))
                {
                    dependencies.extend(members);
                }
            }
            if !dependencies.is_empty() {
                s["dependencies"] = Json::Object(dependencies);
            }
        }
        if self.u.ratio(1, 5)? {
            s["propertyNames"] = self.node(depth)?;
        }
        Ok(())
    }

    /// `anyOf` or `oneOf` of one to three branches.
    fn union(&mut self, depth: usize) -> Result<Json> {
        let keyword = *self.u.choose(&["anyOf", "oneOf"])?;
        let n = self.u.int_in_range(1..=3)?;
        let branches = (0..n)
            .map(|_| self.node(depth))
            .collect::<Result<Vec<_>>>()?;
        Ok(json!({keyword: branches}))
    }

    /// A `oneOf` (or `anyOf`) of objects told apart by a `kind` property's constant, the
    /// shape the engine compiles to a discriminator; tags may repeat or be missing, and a
    /// branch may take every string but some tags (a default branch when it names all). A
    /// third of them are externally tagged instead.
    fn tagged(&mut self, depth: usize) -> Result<Json> {
        let keyword = if self.u.ratio(3, 4)? {
            "oneOf"
        } else {
            "anyOf"
        };
        let n = self.u.int_in_range(2..=3)?;
        let mut branches = Vec::new();
        if self.u.ratio(1, 3)? {
            return self.externally_tagged(keyword, n, depth);
        }
        for _ in 0..n {
            let mut branch = self.object(depth)?;
            let tag = match self.u.choose_index(6)? {
                0 => json!({"enum": [*self.u.choose(TAGS)?, *self.u.choose(TAGS)?]}),
                1 => json!({"type": "string"}),
                2 if self.u.ratio(2, 3)? => json!({"type": "string", "not": {"enum": TAGS}}),
                2 => json!({"not": {"enum": [*self.u.choose(TAGS)?, *self.u.choose(TAGS)?]}}),
                _ => json!({"const": *self.u.choose(TAGS)?}),
            };
            branch["properties"]["kind"] = tag;
            if self.u.ratio(4, 5)? {
                branch["required"] = json!(["kind"]);
            }
            branches.push(branch);
        }
        Ok(json!({keyword: branches}))
    }

    /// serde's externally tagged enum: `n` objects of one required member, each named for
    /// its variant (names may repeat), mostly denying other members (the shape the engine
    /// selects by the first member's name), and maybe unit variants as a string `enum`.
    fn externally_tagged(&mut self, keyword: &str, n: usize, depth: usize) -> Result<Json> {
        let mut branches = Vec::new();
        for _ in 0..n {
            let name = *self.u.choose(NAMES)?;
            let data = self.node(depth)?;
            branches.push(json!({"type": "object", "properties": {name: data},
                "required": [name], "additionalProperties": !self.u.ratio(4, 5)?}));
        }
        if self.u.arbitrary()? {
            let at = self.u.choose_index(branches.len() + 1)?;
            branches.insert(
                at,
                json!({"enum": [*self.u.choose(TAGS)?, *self.u.choose(NAMES)?]}),
            );
        }
        Ok(json!({keyword: branches}))
    }

    /// A kind or `null`: `"type": [kind, "null"]` with that kind's keywords, or an `anyOf`
    /// with a null branch.
    fn nullable(&mut self, depth: usize) -> Result<Json> {
        if self.u.arbitrary()? {
            return Ok(json!({"anyOf": [self.node(depth)?, {"type": "null"}]}));
        }
        let kind = *self
            .u
            .choose(&["integer", "number", "string", "array", "object", "boolean"])?;
        let mut s = json!({"type": [kind, "null"]});
        self.keywords_of(kind, &mut s, depth)?;
        Ok(s)
    }

    /// `allOf`, `not` or `if` / `then` / `else`.
    fn logic(&mut self, depth: usize) -> Result<Json> {
        Ok(match self.u.choose_index(3)? {
            0 => json!({"allOf": [self.node(depth)?, self.node(depth)?]}),
            1 => json!({"not": self.node(depth)?}),
            _ => {
                let mut s = json!({"if": self.node(depth)?});
                if self.u.ratio(3, 4)? {
                    s["then"] = self.node(depth)?;
                }
                if self.u.ratio(3, 4)? {
                    s["else"] = self.node(depth)?;
                }
                s
            }
        })
    }

    /// Several kinds at once (or none: keywords without `type`), each with its keywords.
    fn multi_kind(&mut self, depth: usize) -> Result<Json> {
        let mut s = json!({});
        let mut kinds = Vec::new();
        for _ in 0..self.u.int_in_range(0..=3)? {
            let kind = *self.u.choose(KINDS)?;
            if !kinds.contains(&kind) {
                kinds.push(kind);
                self.keywords_of(kind, &mut s, depth)?;
            }
        }
        if !kinds.is_empty() && self.u.ratio(3, 4)? {
            s["type"] = json!(kinds);
        }
        Ok(s)
    }

    fn keywords_of(&mut self, kind: &str, s: &mut Json, depth: usize) -> Result<()> {
        match kind {
            "integer" | "number" => self.number_keywords(s),
            "string" => self.string_keywords(s),
            "array" => self.array_keywords(s, depth),
            "object" => self.object_keywords(s, depth),
            _ => Ok(()),
        }
    }
}

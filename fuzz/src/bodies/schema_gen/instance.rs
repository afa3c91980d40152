//! Documents for a generated schema: ones built to fit it ([`fitting`]) and ones that nearly
//! fit ([`nearly`]: one value replaced, one member dropped or added, one number or string
//! nudged).
//!
//! Fitting is best effort: a branch of `anyOf` / `oneOf` is picked at random, `allOf`
//! follows its first part, an untyped `if` its `then` or its `else` (picked at random; the
//! condition itself for an absent one), and a pattern is not solved — the oracles decide validity, the
//! generator only makes valid documents common.

use arbitrary::{Result, Unstructured};
use serde_json::{Map, Value as Json, json};

use super::schema::{FLOATS, INTEGERS, NAMES, float_json, integer_json};

/// Nesting budget of a fitting document (references count one level each).
const DOC_DEPTH: usize = 6;

/// Strings tried for string schemas (lengths 0 to 6, escapes, non-ASCII, pattern-shaped,
/// format-shaped).
const STRINGS: &[&str] = &[
    "",
    "a",
    "ab",
    "abab",
    "b",
    "x",
    "é",
    "éé",
    "1",
    "a1",
    "zz",
    "abcdef",
    "\"",
    "\\",
    "\n",
    "😀",
    "\u{2028}",
    "circle",
    "square",
    "dot",
    "<&>",
    "ab9",
    "123",
    "c0ffee",
    "12-c",
    "2024-02-29",
    "2023-02-29",
    "1998-12-31T23:59:60Z",
    "23:59:60+01:00",
    "P1DT2H",
    "a@b.example",
    "::1",
    "10.0.0.1",
    "http://[::1]:80/a?b#c",
    "/a~1b",
    "0#",
    "{+x}",
    "x.y-z",
    "(a",
    "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
];

/// A document built to fit `schema` (a generated schema, the root for `$ref`s).
pub fn fitting(u: &mut Unstructured<'_>, schema: &Json) -> Result<Json> {
    Fit { u, root: schema }.fit(schema, DOC_DEPTH)
}

/// `doc` with one change that often breaks a constraint.
pub fn nearly(u: &mut Unstructured<'_>, doc: &Json) -> Result<Json> {
    let mut doc = doc.clone();
    let mut pointers = Vec::new();
    collect_pointers(&doc, String::new(), &mut pointers);
    let at = u.choose(&pointers)?.clone();
    let Some(target) = doc.pointer_mut(&at) else {
        return Ok(doc);
    };
    match (u.choose_index(5)?, target) {
        (0, Json::Object(members)) if !members.is_empty() => {
            let key = members.keys().nth(u.choose_index(members.len())?).cloned();
            key.map(|k| members.remove(&k));
        }
        (1, Json::Object(members)) => {
            members.insert((*u.choose(NAMES)?).into(), any_value(u, 1)?);
        }
        (1, Json::Array(items)) => items.push(any_value(u, 1)?),
        (2, Json::Number(n)) => nudge(n, u)?,
        (3, Json::String(s)) => s.push_str(u.choose(STRINGS)?),
        (_, target) => *target = any_value(u, 1)?,
    }
    Ok(doc)
}

/// A number near `n`: one more or less, doubled, negated, half more, or a table value.
fn nudge(n: &mut serde_json::Number, u: &mut Unstructured<'_>) -> Result<()> {
    let f = n.as_f64().unwrap_or(0.0);
    let nudged = match u.choose_index(5)? {
        0 => f + 1.0,
        1 => f - 1.0,
        2 => f * 2.0,
        3 => -f,
        _ => f + 0.5,
    };
    if let Some(new) = serde_json::Number::from_f64(nudged) {
        *n = if nudged.fract() == 0.0 && nudged.abs() < 9e15 {
            serde_json::Number::from(nudged as i64)
        } else {
            new
        };
    }
    Ok(())
}

/// The JSON Pointer of every value in `v` (the root is `""`).
fn collect_pointers(v: &Json, at: String, out: &mut Vec<String>) {
    match v {
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                collect_pointers(item, format!("{at}/{i}"), out);
            }
        }
        Json::Object(members) => {
            for (k, member) in members {
                let k = k.replace('~', "~0").replace('/', "~1");
                collect_pointers(member, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Any JSON value of at most `depth` levels.
pub fn any_value(u: &mut Unstructured<'_>, depth: usize) -> Result<Json> {
    let choice = u.choose_index(if depth == 0 { 6 } else { 8 })?;
    Ok(match choice {
        0 => Json::Null,
        1 => Json::Bool(u.arbitrary()?),
        2 => integer_json(*u.choose(INTEGERS)?),
        3 => float_json(*u.choose(FLOATS)?),
        4 | 5 => json!(*u.choose(STRINGS)?),
        6 => Json::Array(
            (0..u.int_in_range(0..=3)?)
                .map(|_| any_value(u, depth - 1))
                .collect::<Result<_>>()?,
        ),
        _ => {
            let mut members = Map::new();
            for _ in 0..u.int_in_range(0..=3)? {
                members.insert((*u.choose(NAMES)?).into(), any_value(u, depth - 1)?);
            }
            Json::Object(members)
        }
    })
}

/// The schema a `$ref` of the generator names (`#` or `#/$defs/dN`).
fn resolve<'s>(root: &'s Json, reference: &str) -> Option<&'s Json> {
    root.pointer(reference.strip_prefix('#')?)
}

/// The fitting-document generator: the byte stream and the root schema.
struct Fit<'u, 'd, 's> {
    u: &'u mut Unstructured<'d>,
    root: &'s Json,
}

impl Fit<'_, '_, '_> {
    /// A value meant to fit `schema`, within `depth` levels (past that, `null`).
    fn fit(&mut self, schema: &Json, depth: usize) -> Result<Json> {
        let Json::Object(s) = schema else {
            return any_value(self.u, 1);
        };
        if depth == 0 {
            return Ok(Json::Null);
        }
        let root = self.root;
        if let Some(target) = s
            .get("$ref")
            .and_then(Json::as_str)
            .and_then(|r| resolve(root, r))
        {
            return self.fit(target, depth - 1);
        }
        if let Some(value) = s.get("const") {
            return Ok(value.clone());
        }
        if let Some(Json::Array(values)) = s.get("enum") {
            return Ok(self.u.choose(values)?.clone());
        }
        for keyword in ["anyOf", "oneOf", "allOf"] {
            if let Some(Json::Array(branches)) = s.get(keyword) {
                let branch = if keyword == "allOf" {
                    &branches[0]
                } else {
                    self.u.choose(branches)?
                };
                return self.fit(branch, depth - 1);
            }
        }
        let kind = match s.get("type") {
            Some(Json::String(kind)) => kind.as_str(),
            Some(Json::Array(kinds)) => self.u.choose(kinds)?.as_str().unwrap_or("null"),
            _ if s.contains_key("properties") || s.contains_key("required") => "object",
            _ if s.contains_key("items") || s.contains_key("prefixItems") => "array",
            _ => match s.get("if") {
                Some(condition) => {
                    let outcome = match self.u.arbitrary()? {
                        true => s.get("then"),
                        false => s.get("else"),
                    };
                    return self.fit(outcome.unwrap_or(condition), depth - 1);
                }
                None => return any_value(self.u, 2),
            },
        };
        match kind {
            "null" => Ok(Json::Null),
            "boolean" => Ok(Json::Bool(self.u.arbitrary()?)),
            "integer" | "number" => self.number(s, kind == "integer"),
            "string" => self.string(s),
            "array" => self.array(s, depth),
            _ => self.object(s, depth),
        }
    }

    /// A number from the schema's own bounds (and one off them), a multiple of its
    /// `multipleOf`, or a table value.
    fn number(&mut self, s: &Map<String, Json>, integer: bool) -> Result<Json> {
        let mut candidates: Vec<Json> = Vec::new();
        for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
            if let Some(bound) = s.get(key).and_then(Json::as_f64) {
                candidates.push(s[key].clone());
                candidates.push(float_json(bound + 1.0));
                candidates.push(float_json(bound - 1.0));
            }
        }
        if let Some(step) = s.get("multipleOf").and_then(Json::as_f64) {
            let k = f64::from(self.u.int_in_range(-3i8..=5)?);
            candidates.push(float_json(step * k));
        }
        candidates.push(integer_json(*self.u.choose(INTEGERS)?));
        if !integer {
            candidates.push(float_json(*self.u.choose(FLOATS)?));
        }
        Ok(self.u.choose(&candidates)?.clone())
    }

    /// A string of a length within the schema's bounds where the table has one.
    fn string(&mut self, s: &Map<String, Json>) -> Result<Json> {
        let min = s.get("minLength").and_then(Json::as_u64).unwrap_or(0) as usize;
        let max = s
            .get("maxLength")
            .and_then(Json::as_u64)
            .map_or(usize::MAX, |m| m as usize);
        let fits: Vec<&str> = STRINGS
            .iter()
            .copied()
            .filter(|t| (min..=max).contains(&t.chars().count()))
            .collect();
        let table = if fits.is_empty() { STRINGS } else { &fits };
        Ok(json!(*self.u.choose(table)?))
    }

    /// The `prefixItems` fitted, then items of `items` up to a count within the bounds.
    fn array(&mut self, s: &Map<String, Json>, depth: usize) -> Result<Json> {
        let mut items = Vec::new();
        if let Some(Json::Array(prefix)) = s.get("prefixItems") {
            for p in prefix {
                items.push(self.fit(p, depth - 1)?);
            }
        }
        let min = s.get("minItems").and_then(Json::as_u64).unwrap_or(0) as usize;
        let max = s.get("maxItems").and_then(Json::as_u64).unwrap_or(4).min(4) as usize;
        let want = self.u.int_in_range(min.min(max)..=max)?;
        let rest = s.get("items").cloned().unwrap_or(json!({}));
        while items.len() < want {
            items.push(self.fit(&rest, depth - 1)?);
        }
        Ok(Json::Array(items))
    }

    /// The required members and some of the others, each fitted to its property schema (or
    /// `additionalProperties`).
    fn object(&mut self, s: &Map<String, Json>, depth: usize) -> Result<Json> {
        let empty = Map::new();
        let properties = s
            .get("properties")
            .and_then(Json::as_object)
            .unwrap_or(&empty);
        let extra = s.get("additionalProperties").cloned().unwrap_or(json!({}));
        let mut names: Vec<&str> = s
            .get("required")
            .and_then(Json::as_array)
            .map(|r| r.iter().filter_map(Json::as_str).collect())
            .unwrap_or_default();
        for name in properties.keys() {
            if self.u.arbitrary()? {
                names.push(name);
            }
        }
        let mut members = Map::new();
        for name in names {
            let schema = properties.get(name).unwrap_or(&extra).clone();
            members.insert(name.into(), self.fit(&schema, depth - 1)?);
        }
        Ok(Json::Object(members))
    }
}

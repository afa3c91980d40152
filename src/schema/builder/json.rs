//! Builder expressions written out as JSON Schema 2020-12 documents.
//!
//! The writer is the loader's inverse for everything a builder can say but aliases: the
//! document it writes loads back ([`Schema::from_json_str`](crate::schema::Schema::from_json_str))
//! to the schema [`SchemaBuilder::build`] gives, with fields in the same order. Definitions
//! go under `$defs` by name and references are `{"$ref": "#/$defs/NAME"}`.
//!
//! JSON Schema has no aliases: a field with aliases is written as a property per name and
//! `allOf` conditions (at most one name; one at least when required), a schema that accepts
//! and rejects the same values as the built one when duplicate keys are denied (as typed
//! decode does), and loads back to a different but equivalent schema.

use super::{ArrayExpr, Expr, ObjectExpr, SchemaBuilder, TypeExpr, UnknownExpr};
use crate::schema::doc::Doc;
use crate::schema::{
    Bound, DRAFT_2020_12, IntegerDesc, Num, NumberDesc, StringDesc, TypeDesc, pointer,
};
use serde_json::Value;

/// Keywords that make a subschema more than one typed node: `Nullable` cannot fold `null`
/// into its `type` when one of them is present.
const NOT_PLAIN: [&str; 7] = ["enum", "const", "$ref", "anyOf", "oneOf", "allOf", "not"];

impl SchemaBuilder {
    /// The JSON Schema 2020-12 document of `root` with this builder's definitions under
    /// `$defs`, as JSON text whose object members keep field order, so it loads back with
    /// [`Schema::from_json_str`](crate::schema::Schema::from_json_str) to the schema
    /// [`SchemaBuilder::build`] gives (to an equivalent one with aliases: see the module
    /// docs).
    pub fn json_schema_string(&self, root: &TypeExpr) -> String {
        serde_json::to_string(&self.document(root)).unwrap_or_default()
    }

    /// The same document as a `serde_json::Value` (whose objects sort their members, so
    /// field order is lost: load [`SchemaBuilder::json_schema_string`] to keep it).
    pub fn json_schema_value(&self, root: &TypeExpr) -> Value {
        self.document(root).to_value()
    }

    fn document(&self, root: &TypeExpr) -> Doc {
        let mut members = vec![("$schema".to_owned(), Doc::String(DRAFT_2020_12.to_owned()))];
        match expr(root) {
            Doc::Object(root) => members.extend(root),
            Doc::Bool(false) => members.push(("not".to_owned(), Doc::Object(Vec::new()))),
            _ => {}
        }
        if !self.definitions.is_empty() {
            let defs = self
                .definitions
                .iter()
                .map(|(name, ty)| (name.clone(), expr(ty)))
                .collect();
            members.push(("$defs".to_owned(), Doc::Object(defs)));
        }
        Doc::Object(members)
    }
}

fn typed(name: &str) -> Vec<(String, Doc)> {
    vec![("type".to_owned(), Doc::String(name.to_owned()))]
}

fn key(members: &mut Vec<(String, Doc)>, keyword: &str, value: Doc) {
    members.push((keyword.to_owned(), value));
}

fn num(n: Num) -> Doc {
    n.to_json().map_or(Doc::Null, Doc::Number)
}

fn count(n: u64) -> Doc {
    Doc::Number(n.into())
}

fn list(exprs: &[TypeExpr]) -> Doc {
    Doc::Array(exprs.iter().map(expr).collect())
}

/// The subschema of one expression.
fn expr(e: &TypeExpr) -> Doc {
    match &e.0 {
        Expr::Leaf(desc) => leaf(desc),
        Expr::Array(a) => array(a),
        Expr::Object(o) => object(o),
        Expr::Map(values) => {
            let mut m = typed("object");
            key(&mut m, "additionalProperties", expr(values));
            Doc::Object(m)
        }
        Expr::Nullable(inner) => nullable(expr(inner)),
        Expr::AnyOf(branches) => Doc::Object(vec![("anyOf".to_owned(), list(branches))]),
        Expr::OneOf(branches) => Doc::Object(vec![("oneOf".to_owned(), list(branches))]),
        Expr::AllOf(parts) => Doc::Object(vec![("allOf".to_owned(), list(parts))]),
        Expr::Not(inner) => Doc::Object(vec![("not".to_owned(), expr(inner))]),
        Expr::Conditional(parts) => {
            let [condition, then, otherwise] = &**parts;
            Doc::Object(vec![
                ("if".to_owned(), expr(condition)),
                ("then".to_owned(), expr(then)),
                ("else".to_owned(), expr(otherwise)),
            ])
        }
        Expr::Dependent(name, schema) => {
            let member = Doc::Object(vec![(name.clone(), expr(schema))]);
            Doc::Object(vec![("dependentSchemas".to_owned(), member)])
        }
        Expr::Ref(name) => Doc::Object(vec![("$ref".to_owned(), Doc::String(reference(name)))]),
    }
}

/// `#/$defs/NAME` as a URI fragment: the pointer token escaped, then percent-encoded.
fn reference(name: &str) -> String {
    let pointer = pointer::push("/$defs", name);
    let mut out = String::from("#");
    for b in pointer.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'~' | b'_' | b'-' | b'.' | b'$' => {
                out.push(char::from(b))
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn leaf(desc: &TypeDesc) -> Doc {
    match desc {
        TypeDesc::Any => Doc::Bool(true),
        TypeDesc::Never => Doc::Bool(false),
        TypeDesc::Null => Doc::Object(typed("null")),
        TypeDesc::Bool => Doc::Object(typed("boolean")),
        TypeDesc::Integer(d) => integer(d),
        TypeDesc::Number(d) => number(d),
        TypeDesc::String(d) => string(d),
        TypeDesc::Enum(values) => match &values[..] {
            [one] => Doc::Object(vec![("const".to_owned(), Doc::from_value(one))]),
            _ => Doc::Object(vec![(
                "enum".to_owned(),
                Doc::Array(values.iter().map(Doc::from_value).collect()),
            )]),
        },
        // Builders make no other leaves (composite nodes are expressions of their own).
        _ => Doc::Bool(true),
    }
}

fn format(m: &mut Vec<(String, Doc)>, format: &Option<String>) {
    if let Some(f) = format {
        key(m, "format", Doc::String(f.clone()));
    }
}

fn integer(d: &IntegerDesc) -> Doc {
    numeric("integer", d.minimum, d.maximum, d.multiple_of, &d.format)
}

fn number(d: &NumberDesc) -> Doc {
    numeric("number", d.minimum, d.maximum, d.multiple_of, &d.format)
}

/// An `integer` or `number` schema: bounds (inclusive or exclusive), `multipleOf`, `format`.
fn numeric(
    kind: &str,
    minimum: Option<Bound>,
    maximum: Option<Bound>,
    multiple_of: Option<Num>,
    format_name: &Option<String>,
) -> Doc {
    let mut m = typed(kind);
    let mut bound = |b: Option<Bound>, inclusive: &str, exclusive: &str| {
        if let Some(b) = b {
            key(
                &mut m,
                if b.exclusive { exclusive } else { inclusive },
                num(b.value),
            );
        }
    };
    bound(minimum, "minimum", "exclusiveMinimum");
    bound(maximum, "maximum", "exclusiveMaximum");
    multiple_of
        .into_iter()
        .for_each(|n| key(&mut m, "multipleOf", num(n)));
    format(&mut m, format_name);
    Doc::Object(m)
}

fn string(d: &StringDesc) -> Doc {
    let mut m = typed("string");
    if d.min_length > 0 {
        key(&mut m, "minLength", count(d.min_length));
    }
    d.max_length
        .into_iter()
        .for_each(|n| key(&mut m, "maxLength", count(n)));
    if let Some(p) = &d.pattern {
        key(&mut m, "pattern", Doc::String(p.source().to_owned()));
    }
    format(&mut m, &d.format);
    Doc::Object(m)
}

fn array(a: &ArrayExpr) -> Doc {
    let mut m = typed("array");
    if !a.prefix.is_empty() {
        key(&mut m, "prefixItems", list(&a.prefix));
    }
    match expr(&a.items) {
        Doc::Bool(true) => {}
        items => key(&mut m, "items", items),
    }
    if a.min_items > 0 {
        key(&mut m, "minItems", count(a.min_items));
    }
    a.max_items
        .into_iter()
        .for_each(|n| key(&mut m, "maxItems", count(n)));
    if a.unique_items {
        key(&mut m, "uniqueItems", Doc::Bool(true));
    }
    if let Some(ty) = &a.contains {
        key(&mut m, "contains", expr(ty));
        a.min_contains
            .into_iter()
            .for_each(|n| key(&mut m, "minContains", count(n)));
        a.max_contains
            .into_iter()
            .for_each(|n| key(&mut m, "maxContains", count(n)));
    }
    Doc::Object(m)
}

/// An object schema. A field with aliases is a property per name (the same schema), and
/// `allOf` entries saying what the one field means: at most one of its names, and when it
/// is required at least one (`not` / `anyOf` of `required`).
fn object(o: &ObjectExpr) -> Doc {
    let mut m = typed("object");
    if !o.fields.is_empty() {
        let properties = o
            .fields
            .iter()
            .flat_map(|f| {
                let mut schema = expr(&f.ty);
                if let Some(default) = &f.default {
                    schema = with_default(schema, default);
                }
                let names = std::iter::once(&f.name).chain(&f.aliases);
                names.map(move |name| (name.clone(), schema.clone()))
            })
            .collect();
        key(&mut m, "properties", Doc::Object(properties));
    }
    if !o.patterns.is_empty() {
        let patterns = o.patterns.iter().map(|(p, ty)| (p.clone(), expr(ty)));
        key(&mut m, "patternProperties", Doc::Object(patterns.collect()));
    }
    let required: Vec<Doc> = o
        .fields
        .iter()
        .filter(|f| f.required && f.aliases.is_empty())
        .map(|f| Doc::String(f.name.clone()))
        .collect();
    if !required.is_empty() {
        key(&mut m, "required", Doc::Array(required));
    }
    match &o.unknown {
        UnknownExpr::Allow => {}
        UnknownExpr::Deny => key(&mut m, "additionalProperties", Doc::Bool(false)),
        UnknownExpr::Extra(ty) => key(&mut m, "additionalProperties", expr(ty)),
    }
    if o.members.min > 0 {
        key(&mut m, "minProperties", count(o.members.min));
    }
    o.members
        .max
        .into_iter()
        .for_each(|n| key(&mut m, "maxProperties", count(n)));
    if !o.members.dependent_required.is_empty() {
        let rules = o.members.dependent_required.iter().map(|(name, required)| {
            let required = required.iter().map(|r| Doc::String(r.clone())).collect();
            (name.clone(), Doc::Array(required))
        });
        key(&mut m, "dependentRequired", Doc::Object(rules.collect()));
    }
    if let Some(names) = &o.names {
        key(&mut m, "propertyNames", expr(names));
    }
    let names: Vec<Doc> = o
        .fields
        .iter()
        .filter(|f| !f.aliases.is_empty())
        .flat_map(|f| one_name(f.required, std::iter::once(&f.name).chain(&f.aliases)))
        .collect();
    if !names.is_empty() {
        key(&mut m, "allOf", Doc::Array(names));
    }
    Doc::Object(m)
}

/// The conditions on an object that holds a field under one of `names`: not two of them
/// (`not` of the pairs' `required`), and when `required`, one of them (`anyOf` of each's
/// `required`).
fn one_name<'a>(required: bool, names: impl Iterator<Item = &'a String>) -> Vec<Doc> {
    let names: Vec<&String> = names.collect();
    let present = |group: &[&String]| {
        let group = group.iter().map(|n| Doc::String((*n).clone())).collect();
        Doc::Object(vec![("required".to_owned(), Doc::Array(group))])
    };
    let pairs: Vec<Doc> = (0..names.len())
        .flat_map(|i| (i + 1..names.len()).map(move |j| (i, j)))
        .map(|(i, j)| present(&[names[i], names[j]]))
        .collect();
    let two = match <[Doc; 1]>::try_from(pairs) {
        Ok([pair]) => pair,
        Err(pairs) => Doc::Object(vec![("anyOf".to_owned(), Doc::Array(pairs))]),
    };
    let mut out = vec![Doc::Object(vec![("not".to_owned(), two)])];
    if required {
        let one = names.iter().map(|n| present(&[n])).collect();
        out.push(Doc::Object(vec![("anyOf".to_owned(), Doc::Array(one))]));
    }
    out
}

/// A property schema with a `default` annotation (boolean schemas take the object form).
fn with_default(schema: Doc, default: &Value) -> Doc {
    let mut members = match schema {
        Doc::Object(members) => members,
        Doc::Bool(true) => Vec::new(),
        _ => vec![("not".to_owned(), Doc::Object(Vec::new()))],
    };
    members.push(("default".to_owned(), Doc::from_value(default)));
    Doc::Object(members)
}

/// `null` or `inner`: `null` joins the `type` of a plain typed subschema, else an `anyOf`.
fn nullable(inner: Doc) -> Doc {
    let null = || Doc::Object(typed("null"));
    match inner {
        Doc::Bool(true) => Doc::Bool(true),
        Doc::Bool(false) => null(),
        Doc::Object(mut members)
            if !members.iter().any(|(k, _)| NOT_PLAIN.contains(&k.as_str())) =>
        {
            let kind = members
                .iter()
                .position(|(k, v)| k == "type" && matches!(v, Doc::String(_)));
            match kind {
                Some(i) => {
                    let kind = std::mem::replace(&mut members[i].1, Doc::Null);
                    members[i].1 = Doc::Array(vec![kind, Doc::String("null".to_owned())]);
                    Doc::Object(members)
                }
                None => Doc::Object(vec![(
                    "anyOf".to_owned(),
                    Doc::Array(vec![Doc::Object(members), null()]),
                )]),
            }
        }
        other => Doc::Object(vec![("anyOf".to_owned(), Doc::Array(vec![other, null()]))]),
    }
}

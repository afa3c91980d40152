//! The canonical byte encoding of schema nodes: what [`TypeKey`](crate::schema::TypeKey)s hash
//! and what node merging compares. Every field of a node is written, tagged and
//! length-prefixed, little-endian; object members of JSON values in sorted key order.

use crate::schema::model::{ArrayDesc, ConditionalForm, ObjectDesc, UnionDesc, UnknownFields};
use crate::schema::{Bound, Num, Schema, TypeDesc, TypeId};
use serde_json::Value;

/// Version of the encoding, part of every key: bump it when the encoding changes.
const VERSION: &[u8] = b"jitson.schema.v4";

/// The canonical bytes of a whole schema (version, root, nodes in arena order).
pub(crate) fn encode_schema(schema: &Schema) -> Vec<u8> {
    let mut out = VERSION.to_vec();
    put_u32(&mut out, schema.root().0);
    put_u64(&mut out, schema.node_count() as u64);
    for (_, node) in schema.nodes() {
        encode_node(node, &|c| c.0, &mut out);
    }
    out
}

/// Appends the encoding of `desc` to `out`, writing each child as `child(id)`.
pub(crate) fn encode_node(desc: &TypeDesc, child: &dyn Fn(TypeId) -> u32, out: &mut Vec<u8>) {
    let id = |out: &mut Vec<u8>, c: TypeId| put_u32(out, child(c));
    match desc {
        TypeDesc::Any => out.push(0),
        TypeDesc::Never => out.push(1),
        TypeDesc::Null => out.push(2),
        TypeDesc::Bool => out.push(3),
        TypeDesc::Integer(d) => {
            out.push(4);
            put_opt(out, d.minimum.as_ref(), put_bound);
            put_opt(out, d.maximum.as_ref(), put_bound);
            put_opt(out, d.multiple_of.as_ref(), |o, n| put_num(o, *n));
            put_opt(out, d.format.as_deref(), put_str);
        }
        TypeDesc::Number(d) => {
            out.push(5);
            put_opt(out, d.minimum.as_ref(), put_bound);
            put_opt(out, d.maximum.as_ref(), put_bound);
            put_opt(out, d.multiple_of.as_ref(), |o, n| put_num(o, *n));
            put_opt(out, d.format.as_deref(), put_str);
        }
        TypeDesc::String(d) => {
            out.push(6);
            put_u64(out, d.min_length);
            put_opt(out, d.max_length.as_ref(), |o, n| put_u64(o, *n));
            put_opt(out, d.pattern.as_ref().map(|p| p.source()), put_str);
            put_opt(out, d.format.as_deref(), put_str);
            out.push(u8::from(d.asserted_format.is_some()));
        }
        TypeDesc::Array(ArrayDesc {
            prefix_items,
            items,
            min_items,
            max_items,
            unique_items,
            contains,
            unevaluated,
        }) => {
            // Whole-array rules have their own tag, so arrays without them keep their bytes;
            // tag 22 is tag 18 for `unevaluatedItems`' node.
            let whole = *unique_items || contains.is_some() || *unevaluated;
            out.push(match (whole, *unevaluated) {
                (_, true) => 22,
                (true, false) => 18,
                (false, false) => 7,
            });
            put_u64(out, prefix_items.len() as u64);
            prefix_items.iter().for_each(|&c| id(out, c));
            id(out, *items);
            put_u64(out, *min_items);
            put_opt(out, max_items.as_ref(), |o, n| put_u64(o, *n));
            if whole {
                out.push(u8::from(*unique_items));
                put_opt(out, contains.as_ref(), |o, c| {
                    id(o, c.ty);
                    put_opt(o, c.min.as_ref(), |o, n| put_u64(o, *n));
                    put_opt(o, c.max.as_ref(), |o, n| put_u64(o, *n));
                });
            }
        }
        TypeDesc::Object(ObjectDesc {
            fields,
            unknown,
            members,
            patterns,
            unevaluated,
        }) => {
            // Member rules, patterns and `unevaluatedProperties` have their own tags, so
            // objects without them keep their bytes; tag 20 is tag 19 with the patterns and
            // the flag after it.
            let tag20 = !patterns.is_empty() || *unevaluated;
            out.push(match (members.is_empty(), tag20) {
                (true, false) => 8,
                (false, false) => 19,
                (_, true) => 20,
            });
            put_u64(out, fields.len() as u64);
            for field in fields {
                put_str(out, &field.name);
                put_u64(out, field.aliases.len() as u64);
                field.aliases.iter().for_each(|a| put_str(out, a));
                id(out, field.ty);
                out.push(u8::from(field.required));
                put_opt(out, field.default.as_ref(), put_value);
            }
            match unknown {
                UnknownFields::Allow => out.push(0),
                UnknownFields::Deny => out.push(1),
                UnknownFields::Extra(c) => {
                    out.push(2);
                    id(out, *c);
                }
            }
            if !members.is_empty() || tag20 {
                put_u64(out, members.min);
                put_opt(out, members.max.as_ref(), |o, n| put_u64(o, *n));
                put_u64(out, members.dependent_required.len() as u64);
                for (name, required) in &members.dependent_required {
                    put_str(out, name);
                    put_u64(out, required.len() as u64);
                    required.iter().for_each(|r| put_str(out, r));
                }
                put_opt(out, members.names.as_ref(), |o, c| id(o, *c));
            }
            if tag20 {
                put_u64(out, patterns.len() as u64);
                for p in patterns {
                    put_str(out, p.pattern.source());
                    id(out, p.ty);
                }
                out.push(u8::from(*unevaluated));
            }
        }
        TypeDesc::Map(c) => {
            out.push(9);
            id(out, *c);
        }
        TypeDesc::Nullable(c) => {
            out.push(10);
            id(out, *c);
        }
        TypeDesc::Kinds(k) => {
            out.push(11);
            for slot in k.slots() {
                put_opt(out, slot.as_ref(), |o, c| id(o, *c));
            }
        }
        TypeDesc::Enum(values) => {
            out.push(12);
            put_u64(out, values.len() as u64);
            values.iter().for_each(|v| put_value(out, v));
        }
        TypeDesc::AnyOf(u) => {
            out.push(13);
            put_union(out, u, &id);
        }
        TypeDesc::OneOf(u) => {
            out.push(14);
            put_union(out, u, &id);
        }
        TypeDesc::AllOf(parts) => {
            out.push(15);
            put_u64(out, parts.len() as u64);
            parts.iter().for_each(|&c| id(out, c));
        }
        TypeDesc::Not(c) => {
            out.push(16);
            id(out, *c);
        }
        TypeDesc::Conditional(c) => {
            // The other forms have their own tags, so `if` nodes keep their bytes.
            out.push(match c.form {
                ConditionalForm::IfThenElse => 17,
                ConditionalForm::Dependent(_) => 21,
                ConditionalForm::Unevaluated => 23,
            });
            c.parts().into_iter().for_each(|c| id(out, c));
            if let ConditionalForm::Dependent(name) = &c.form {
                put_str(out, name);
            }
        }
    }
}

fn put_union(out: &mut Vec<u8>, u: &UnionDesc, id: &dyn Fn(&mut Vec<u8>, TypeId)) {
    put_u64(out, u.branches.len() as u64);
    u.branches.iter().for_each(|&c| id(out, c));
    put_opt(out, u.discriminator.as_ref(), |o, d| {
        put_str(o, &d.property);
        put_u64(o, d.tags.len() as u64);
        d.tags.iter().for_each(|t| put_value(o, t));
        put_u64(o, d.aliases.len() as u64);
        for (value, branch) in &d.aliases {
            put_value(o, value);
            put_u64(o, *branch as u64);
        }
        put_opt(o, d.default.as_ref(), |o, b| put_u64(o, *b as u64));
        put_u64(o, u64::from(d.required));
    });
}

fn put_u32(out: &mut Vec<u8>, n: u32) {
    out.extend_from_slice(&n.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(&n.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u64(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn put_opt<T: ?Sized>(out: &mut Vec<u8>, value: Option<&T>, put: impl Fn(&mut Vec<u8>, &T)) {
    match value {
        None => out.push(0),
        Some(v) => {
            out.push(1);
            put(out, v);
        }
    }
}

fn put_num(out: &mut Vec<u8>, n: Num) {
    match n {
        Num::Int(i) => {
            out.push(0);
            out.extend_from_slice(&i.to_le_bytes());
        }
        Num::UInt(u) => {
            out.push(1);
            out.extend_from_slice(&u.to_le_bytes());
        }
        Num::Float(f) => {
            out.push(2);
            out.extend_from_slice(&f.to_bits().to_le_bytes());
        }
    }
}

fn put_bound(out: &mut Vec<u8>, b: &Bound) {
    put_num(out, b.value);
    out.push(u8::from(b.exclusive));
}

/// A JSON value: numbers canonical, object members sorted by key.
fn put_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Null => out.push(0),
        Value::Bool(false) => out.push(1),
        Value::Bool(true) => out.push(2),
        Value::Number(n) => {
            out.push(3);
            put_num(out, Num::from_json(n));
        }
        Value::String(s) => {
            out.push(4);
            put_str(out, s);
        }
        Value::Array(items) => {
            out.push(5);
            put_u64(out, items.len() as u64);
            items.iter().for_each(|item| put_value(out, item));
        }
        Value::Object(members) => {
            out.push(6);
            let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(b.0));
            put_u64(out, sorted.len() as u64);
            for (k, v) in sorted {
                put_str(out, k);
                put_value(out, v);
            }
        }
    }
}

//! Conversion of a decoded value to `serde_json::Value`.

use jitson_jit::ir::{BigInt, Number};
use jitson_jit::view::{Node, View};
use serde_json::{Map, Value};

use crate::value;

/// The `serde_json` value of a view. Recursion is bounded by the decoded depth (at most the
/// codec's `max_depth`).
pub(super) fn to_json(view: View<'_>) -> Value {
    match view.node() {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(b),
        Node::Number(n) => number(n),
        Node::BigInt(b) => big_int(b),
        Node::Str(s) | Node::Enum { text: s, .. } => Value::String(s.to_owned()),
        Node::Raw(raw) => raw_json(raw),
        Node::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        Node::Object(members) => {
            let mut map = Map::new();
            for (key, value) in members.iter() {
                map.insert(key.to_owned(), to_json(value));
            }
            Value::Object(map)
        }
    }
}

/// A raw value's text (a `{}` / `true` value, kept as it came) read by jitson's own parser,
/// so its floats are correctly rounded like every other decoded number, whatever features
/// `serde_json` is built with (its default float parsing is not always correctly rounded).
/// The codec validated the text, so the parse succeeds; its depth is what the codec allowed.
fn raw_json(raw: &[u8]) -> Value {
    value::serde_of_text(raw).unwrap_or(Value::Null)
}

fn number(n: Number) -> Value {
    match n {
        Number::U64(u) => Value::from(u),
        Number::I64(i) => Value::from(i),
        Number::F64(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
    }
}

/// What `serde_json` (without `arbitrary_precision`) reads from a big integer's text: the
/// nearest `f64`; beyond the range of `f64`, where `serde_json` has no value, a string of
/// the digits (as [`crate::value::Value::to_serde`] does for its big numbers).
fn big_int(b: BigInt<'_>) -> Value {
    serde_json::Number::from_f64(b.to_f64())
        .map_or_else(|| Value::String(b.as_str().to_owned()), Value::Number)
}

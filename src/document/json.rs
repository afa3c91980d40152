//! Conversion of a decoded value to `serde_json::Value`.

use jitson_jit::ir::Number;
use jitson_jit::view::{Node, View};
use serde_json::{Map, Value};

/// The `serde_json` value of a view. Recursion is bounded by the decoded depth (at most the
/// codec's `max_depth`).
pub(super) fn to_json(view: View<'_>) -> Value {
    match view.node() {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(b),
        Node::Number(n) => number(n),
        Node::Str(s) | Node::Enum { text: s, .. } => Value::String(s.to_owned()),
        Node::Raw(raw) => serde_json::from_slice(raw).unwrap_or(Value::Null),
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

fn number(n: Number) -> Value {
    match n {
        Number::U64(u) => Value::from(u),
        Number::I64(i) => Value::from(i),
        Number::F64(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
    }
}

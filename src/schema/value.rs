//! JSON values as JSON Schema compares them: canonical spelling and JSON equality.

use crate::schema::Num;
use serde_json::Value;

/// The canonical spelling of a value: every number in [`Num`]'s canonical form (so `1.0`
/// becomes `1`); strings, arrays and object members are kept as they are.
pub(crate) fn canonical(value: &Value) -> Value {
    match value {
        Value::Number(n) => Num::from_json(n)
            .to_json()
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), canonical(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// JSON equality: numbers by mathematical value (`1 == 1.0`), arrays in order, objects as
/// unordered maps; no cross-kind equality (`false != 0`).
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => {
            Num::from_json(x).cmp_exact(Num::from_json(y)).is_eq()
        }
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => false,
    }
}

/// The canonical spellings of `values` with JSON-equal duplicates dropped (first one kept).
pub(crate) fn canonical_set(values: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(values.len());
    for value in values {
        if !out.iter().any(|seen| json_eq(seen, value)) {
            out.push(canonical(value));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equality() {
        assert!(json_eq(&json!(1), &json!(1.0)));
        assert!(json_eq(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert!(!json_eq(&json!(false), &json!(0)));
        assert!(!json_eq(&json!([1, 2]), &json!([2, 1])));
        assert!(!json_eq(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
    }

    #[test]
    fn canonical_numbers_and_sets() {
        assert_eq!(canonical(&json!([1.0, -0.0, 2.5])), json!([1, 0, 2.5]));
        assert_eq!(
            canonical_set(&[json!(1), json!(1.0), json!("a")]),
            vec![json!(1), json!("a")]
        );
    }
}

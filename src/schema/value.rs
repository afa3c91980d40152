//! JSON values as JSON Schema compares them: canonical spelling and JSON equality.

use crate::schema::Num;
use serde_json::Value;
use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

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
    let mut set = JsonSet::default();
    for value in values {
        if !set.contains(value) {
            set.insert(canonical(value));
        }
    }
    set.values
}

/// Values looked up by JSON equality ([`json_eq`]): bucketed by [`json_hash`], so a value
/// is compared only with the few of its bucket, not with every value (an `enum` may hold
/// thousands). Owned values, or borrowed ones (`uniqueItems` over an array's items).
#[derive(Debug)]
pub(crate) struct JsonSet<V = Value> {
    values: Vec<V>,
    buckets: HashMap<u64, Vec<usize>>,
}

impl<V> Default for JsonSet<V> {
    fn default() -> JsonSet<V> {
        JsonSet {
            values: Vec::new(),
            buckets: HashMap::new(),
        }
    }
}

impl JsonSet {
    /// The set of `values`.
    pub(crate) fn of(values: &[Value]) -> JsonSet {
        let mut set = JsonSet::default();
        values.iter().for_each(|v| set.insert(v.clone()));
        set
    }
}

impl<V: Borrow<Value>> JsonSet<V> {
    /// Whether a value JSON-equal to `value` is in the set.
    pub(crate) fn contains(&self, value: &Value) -> bool {
        self.position(value).is_some()
    }

    /// The index (in insertion order) of the first value JSON-equal to `value`.
    pub(crate) fn position(&self, value: &Value) -> Option<usize> {
        let bucket = self.buckets.get(&json_hash(value))?;
        (bucket.iter().copied()).find(|&i| json_eq(self.values[i].borrow(), value))
    }

    /// Adds `value` (after any equal one already there).
    pub(crate) fn insert(&mut self, value: V) {
        let bucket = self.buckets.entry(json_hash(value.borrow())).or_default();
        bucket.push(self.values.len());
        self.values.push(value);
    }
}

/// A hash that JSON-equal values share ([`json_eq`]): numbers hash their canonical [`Num`]
/// (the one spelling of each value), arrays their items in order, objects their members in
/// any order (a sum of the members' hashes: serde_json's maps keep insertion order when
/// its `preserve_order` feature is on).
fn json_hash(value: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    match value {
        Value::Null => 0u8.hash(&mut h),
        Value::Bool(b) => (1u8, b).hash(&mut h),
        Value::Number(n) => match Num::from_json(n) {
            Num::Int(i) => (2u8, i).hash(&mut h),
            Num::UInt(u) => (3u8, u).hash(&mut h),
            Num::Float(f) => (4u8, f.to_bits()).hash(&mut h),
        },
        Value::String(s) => (5u8, s).hash(&mut h),
        Value::Array(items) => {
            6u8.hash(&mut h);
            items.iter().for_each(|item| json_hash(item).hash(&mut h));
        }
        Value::Object(members) => {
            let members_hash = (members.iter()).fold(0u64, |sum, (k, v)| {
                let mut member = DefaultHasher::new();
                (k, json_hash(v)).hash(&mut member);
                sum.wrapping_add(member.finish())
            });
            (7u8, members.len(), members_hash).hash(&mut h);
        }
    }
    h.finish()
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

    /// JSON-equal values hash alike, whatever their spelling or member order; the set
    /// drops them however far apart they stand.
    #[test]
    fn equal_values_hash_alike() {
        let pairs = [
            (json!(1), json!(1.0)),
            (json!(-0.0), json!(0)),
            (json!(1e2), json!(100)),
            (
                json!(18446744073709551615u64),
                json!(18446744073709551615u64),
            ),
            (
                json!({"a": 1, "b": [2.0, {"c": null}]}),
                json!({"b": [2, {"c": null}], "a": 1.0}),
            ),
        ];
        for (a, b) in &pairs {
            assert!(json_eq(a, b), "{a} {b}");
            assert_eq!(json_hash(a), json_hash(b), "{a} {b}");
        }
        assert_ne!(json_hash(&json!([1, 2])), json_hash(&json!([2, 1])));
        let mut values: Vec<serde_json::Value> =
            (0..5_000).map(|i| json!(format!("s{i}"))).collect();
        values.push(json!({"x": 1.0}));
        values.extend((0..5_000).map(|i| json!(format!("s{i}"))));
        values.push(json!({"x": 1}));
        let set = canonical_set(&values);
        assert_eq!(set.len(), 5_001);
        assert_eq!(set[5_000], json!({"x": 1}));
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

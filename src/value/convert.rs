//! Conversions between [`Value`] and `serde_json::Value`, both iterative.
//!
//! To serde_json: objects become `serde_json::Map`s (which sort keys unless serde_json's
//! `preserve_order` feature is on); a repeated key keeps its last value; a non-finite
//! [`Value::F64`] becomes `null` (as `serde_json::Value::from(f64::NAN)` does); a
//! [`Value::BigNumber`] becomes the nearest `f64` (what serde_json parses it to), or a string
//! of the raw token when it is beyond the range of `f64`.
//!
//! From serde_json: strings are borrowed from the serde_json value (no copy); members come
//! in the map's iteration order; numbers become `U64`, `I64` or `F64` as serde_json holds
//! them.

use bumpalo::Bump;
use jitson_kernels::float_parse;
use serde_json::{Map, Number};

use super::{Member, ParseOptions, Str, Value, parse_with};

/// The `serde_json::Value` of the JSON `text` as jitson's own parser reads it (at any
/// depth): its floats correctly rounded like every number the engine reads, whatever
/// features `serde_json` is built with (its default float parsing is not always correctly
/// rounded: `1.000000000000000085` becomes `1.0000000000000002`). `None` when jitson does
/// not read the text as JSON.
pub(crate) fn serde_of_text(text: &[u8]) -> Option<serde_json::Value> {
    let arena = Bump::new();
    let options = ParseOptions::new().max_depth(usize::MAX);
    parse_with(text, &arena, &options)
        .ok()
        .map(|v| v.to_serde())
}

impl Value<'_> {
    /// This value as a `serde_json::Value`. Objects become `serde_json::Map`s (which sort
    /// keys unless serde_json's `preserve_order` feature is on); a repeated key keeps its
    /// last value; a non-finite [`Value::F64`] becomes `null`; a [`Value::BigNumber`] becomes
    /// the nearest `f64`, or a string of its raw token when beyond the range of `f64`.
    pub fn to_serde(&self) -> serde_json::Value {
        to_serde(self)
    }
}

impl From<&Value<'_>> for serde_json::Value {
    fn from(value: &Value<'_>) -> serde_json::Value {
        to_serde(value)
    }
}

impl From<Value<'_>> for serde_json::Value {
    fn from(value: Value<'_>) -> serde_json::Value {
        to_serde(&value)
    }
}

/// A serde_json container being built: the converted elements so far and the source.
enum ToSerde<'v, 'a> {
    Array(Vec<serde_json::Value>, &'v [Value<'a>]),
    Object(Map<String, serde_json::Value>, &'v [Member<'a>], usize),
}

fn to_serde(root: &Value<'_>) -> serde_json::Value {
    let mut stack: Vec<ToSerde<'_, '_>> = Vec::new();
    let mut next = root;
    loop {
        let mut done = match *next {
            Value::Array(items @ [first, ..]) => {
                stack.push(ToSerde::Array(Vec::with_capacity(items.len()), items));
                next = first;
                continue;
            }
            Value::Object(members @ [(_, first), ..]) => {
                stack.push(ToSerde::Object(Map::new(), members, 0));
                next = first;
                continue;
            }
            scalar => scalar_to_serde(scalar),
        };
        // Hand `done` to its container; close the containers it completes.
        loop {
            match stack.last_mut() {
                None => return done,
                Some(ToSerde::Array(out, items)) => {
                    out.push(done);
                    if let Some(item) = items.get(out.len()) {
                        next = item;
                        break;
                    }
                    done = serde_json::Value::Array(std::mem::take(out));
                }
                Some(ToSerde::Object(out, members, converted)) => {
                    if let Some((key, _)) = members.get(*converted) {
                        out.insert(key.to_string(), done);
                    }
                    *converted += 1;
                    if let Some((_, value)) = members.get(*converted) {
                        next = value;
                        break;
                    }
                    done = serde_json::Value::Object(std::mem::take(out));
                }
            }
            stack.pop();
        }
    }
}

/// A scalar, or an empty container, as a serde_json value.
fn scalar_to_serde(value: Value<'_>) -> serde_json::Value {
    match value {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => serde_json::Value::Bool(b),
        Value::U64(n) => serde_json::Value::Number(n.into()),
        Value::I64(n) => serde_json::Value::Number(n.into()),
        Value::F64(x) => {
            Number::from_f64(x).map_or(serde_json::Value::Null, serde_json::Value::Number)
        }
        Value::BigNumber(raw) => (float_parse::nearest(raw.as_bytes()))
            .and_then(Number::from_f64)
            .map_or_else(
                || serde_json::Value::String(raw.to_owned()),
                serde_json::Value::Number,
            ),
        Value::String(s) => serde_json::Value::String(s.to_string()),
        Value::Array(_) => serde_json::Value::Array(Vec::new()),
        Value::Object(_) => serde_json::Value::Object(Map::new()),
    }
}

/// A [`Value`] container being built from serde_json: its elements so far and the source.
enum FromSerde<'a> {
    Array(Vec<Value<'a>>, &'a [serde_json::Value]),
    Object(Vec<Member<'a>>, serde_json::map::Iter<'a>, &'a str),
}

impl<'a> Value<'a> {
    /// The [`Value`] of a `serde_json::Value`, with containers in `arena` and strings
    /// borrowed from `value` (no copy). Members come in the map's iteration order; numbers
    /// become `U64`, `I64` or `F64` as serde_json holds them.
    pub fn from_serde(value: &'a serde_json::Value, arena: &'a Bump) -> Value<'a> {
        let mut stack: Vec<FromSerde<'a>> = Vec::new();
        let mut next = value;
        loop {
            let mut done = match next {
                serde_json::Value::Array(items) if !items.is_empty() => {
                    stack.push(FromSerde::Array(Vec::with_capacity(items.len()), items));
                    next = &items[0];
                    continue;
                }
                serde_json::Value::Object(map) => {
                    let mut members = map.iter();
                    match members.next() {
                        Some((key, first)) => {
                            stack.push(FromSerde::Object(
                                Vec::with_capacity(map.len()),
                                members,
                                key,
                            ));
                            next = first;
                            continue;
                        }
                        None => Value::Object(&[]),
                    }
                }
                scalar => scalar_from_serde(scalar),
            };
            loop {
                match stack.last_mut() {
                    None => return done,
                    Some(FromSerde::Array(out, items)) => {
                        out.push(done);
                        if let Some(item) = items.get(out.len()) {
                            next = item;
                            break;
                        }
                        done = Value::Array(arena.alloc_slice_copy(out));
                    }
                    Some(FromSerde::Object(out, members, key)) => {
                        out.push((Str(key), done));
                        if let Some((k, value)) = members.next() {
                            *key = k;
                            next = value;
                            break;
                        }
                        done = Value::Object(arena.alloc_slice_copy(out));
                    }
                }
                stack.pop();
            }
        }
    }
}

/// A serde_json scalar (or empty array) as a [`Value`].
fn scalar_from_serde(value: &serde_json::Value) -> Value<'_> {
    match value {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Value::U64(u),
            (None, Some(i)) => Value::I64(i),
            _ => Value::F64(n.as_f64().unwrap_or(f64::NAN)),
        },
        serde_json::Value::String(s) => Value::String(Str(s)),
        serde_json::Value::Array(_) => Value::Array(&[]),
        serde_json::Value::Object(_) => Value::Object(&[]),
    }
}

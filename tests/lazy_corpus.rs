//! `jitson::lazy` against serde_json on every corpus document (and on a copy of each whose
//! keys are written with `\u` escapes): get, get_many, set, insert and remove at seeded
//! random paths that are present, absent, out of range, or strict-index edge cases, in both
//! modes. Every edited document is re-parsed by serde_json and compared with the same edit
//! done on serde_json's value.

#[path = "value_support/mod.rs"]
mod support;

use jitson::lazy::{self, Mode, Options, Pointer};
use serde_json::Value;
use support::Rng;

/// Random paths into `doc`: a random walk from the root (present), then variants of it:
/// a missing key, an index at or past the end, a non-index token, a step into a scalar.
fn paths(doc: &Value, rng: &mut Rng, count: usize) -> Vec<String> {
    let mut out = Vec::new();
    while out.len() < count {
        let mut pointer = String::new();
        let mut here = doc;
        loop {
            let stop = rng.one_in(6);
            let next = match here {
                Value::Object(map) if !map.is_empty() && !stop => {
                    let (key, value) = map.iter().nth(rng.below(map.len())).unwrap();
                    pointer.push('/');
                    pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    Some(value)
                }
                Value::Array(items) if !items.is_empty() && !stop => {
                    let index = rng.below(items.len());
                    pointer.push_str(&format!("/{index}"));
                    Some(&items[index])
                }
                _ => None,
            };
            match next {
                Some(value) => here = value,
                None => break,
            }
        }
        out.push(pointer.clone());
        let variant = match here {
            Value::Array(items) => match rng.below(4) {
                0 => format!("{pointer}/{}", items.len()),
                1 => format!("{pointer}/{}", items.len() + 1 + rng.below(5)),
                2 => format!("{pointer}/-"),
                _ => format!("{pointer}/0{}", rng.below(3)),
            },
            Value::Object(_) => format!("{pointer}/no such key"),
            _ => format!("{pointer}/0"),
        };
        out.push(variant);
    }
    out
}

/// `value` written as JSON with every key character escaped as `\uXXXX`.
fn escape_keys(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            out.push('{');
            for (i, (key, value)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('"');
                for unit in key.encode_utf16() {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
                out.push_str("\":");
                escape_keys(value, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                escape_keys(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// The documents: the corpus, and the corpus with escaped keys.
fn documents() -> Vec<(String, Vec<u8>, Value)> {
    let mut docs = Vec::new();
    for (name, bytes) in support::corpus() {
        let value: Value = serde_json::from_slice(&bytes).unwrap();
        let mut escaped = String::new();
        escape_keys(&value, &mut escaped);
        // serde_json reads back its own float output within an ulp or two, so the expected
        // value of the escaped copy is serde_json's reading of it.
        let reread = serde_json::from_str(&escaped).unwrap();
        docs.push((
            format!("{name} (escaped keys)"),
            escaped.into_bytes(),
            reread,
        ));
        docs.push((name.to_owned(), bytes, value));
    }
    docs
}

const MODES: [Mode; 2] = [Mode::Checked, Mode::Unchecked];

/// The value at `doc[start..end]` read by serde_json.
fn parsed(raw: &[u8]) -> Value {
    serde_json::from_slice(raw).expect("a found value is valid JSON")
}

#[test]
fn get_and_get_many_agree_with_serde_json() {
    let mut rng = Rng::new(8);
    for (name, bytes, value) in documents() {
        let texts = paths(&value, &mut rng, 40);
        let pointers: Vec<Pointer<'_>> = texts.iter().map(|t| Pointer::parse(t).unwrap()).collect();
        for mode in MODES {
            let options = Options::new().mode(mode);
            for (text, pointer) in texts.iter().zip(&pointers) {
                let got = options.get(&bytes, pointer).unwrap();
                let expected = value.pointer(text);
                assert_eq!(
                    got.map(|v| parsed(v.raw())).as_ref(),
                    expected,
                    "{name} {mode:?} {text}"
                );
                if let Some(found) = got {
                    assert_eq!(
                        found.to_serde_json().unwrap(),
                        *expected.unwrap(),
                        "{name} {text}"
                    );
                }
            }
            // The node cache answers the same, whatever was asked before.
            let mut cached = lazy::Document::with_options(&bytes, options);
            for pointer in pointers.iter().chain(pointers.iter().rev()) {
                let got = cached.get(pointer).unwrap();
                let one = options.get(&bytes, pointer).unwrap();
                assert_eq!(
                    got.map(|v| v.raw()),
                    one.map(|v| v.raw()),
                    "{name} {pointer}"
                );
            }
            // Shared prefixes, repeats, and the caller's order.
            for chunk in pointers.chunks(13) {
                let many = options.get_many(&bytes, chunk).unwrap();
                for (pointer, found) in chunk.iter().zip(many) {
                    let one = options.get(&bytes, pointer).unwrap();
                    assert_eq!(
                        found.map(|v| v.raw()),
                        one.map(|v| v.raw()),
                        "{name} {pointer}"
                    );
                }
            }
        }
    }
}

/// serde_json's `add` at `pointer` (RFC 6902); false when the parent is absent.
fn serde_insert(doc: &mut Value, pointer: &str, new: Value) -> bool {
    let (parent, last) = pointer.rsplit_once('/').unwrap();
    let key = last.replace("~1", "/").replace("~0", "~");
    match doc.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.insert(key, new);
            true
        }
        Some(Value::Array(items)) if key == "-" => {
            items.push(new);
            true
        }
        Some(Value::Array(items)) => match key.parse::<usize>() {
            Ok(i) if i <= items.len() && (key == "0" || !key.starts_with('0')) => {
                items.insert(i, new);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// serde_json's `remove` at `pointer`; false when it is absent.
fn serde_remove(doc: &mut Value, pointer: &str) -> bool {
    let (parent, last) = pointer.rsplit_once('/').unwrap();
    let key = last.replace("~1", "/").replace("~0", "~");
    match doc.pointer_mut(parent) {
        Some(Value::Object(map)) => map.remove(&key).is_some(),
        Some(Value::Array(items)) => match key.parse::<usize>() {
            Ok(i) if i < items.len() && (key == "0" || !key.starts_with('0')) => {
                items.remove(i);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

#[test]
fn edits_agree_with_serde_json() {
    let mut rng = Rng::new(88);
    let news: [&[u8]; 4] = [b"42", br#" {"k": [1, "\u00e9", null]} "#, br#""s""#, b"[]"];
    for (name, bytes, value) in documents() {
        let texts = paths(&value, &mut rng, 6);
        for (i, text) in texts.iter().enumerate() {
            let pointer = Pointer::parse(text).unwrap();
            let new = news[i % news.len()];
            let new_value: Value = serde_json::from_slice(new).unwrap();
            let mode = MODES[i % 2];
            let options = Options::new().mode(mode);
            let context = format!("{name} {mode:?} {text}");

            let mut expected = value.clone();
            let present = match expected.pointer_mut(text) {
                Some(slot) => {
                    *slot = new_value.clone();
                    true
                }
                None => false,
            };
            let got = options.set(&bytes, &pointer, new).unwrap();
            assert_eq!(got.is_some(), present, "set {context}");
            if let Some(edited) = got {
                assert_eq!(parsed(&edited), expected, "set {context}");
            }

            if text.is_empty() {
                continue;
            }
            let mut expected = value.clone();
            let added = serde_insert(&mut expected, text, new_value);
            let got = options.insert(&bytes, &pointer, new).unwrap();
            assert_eq!(got.is_some(), added, "insert {context}");
            if let Some(edited) = got {
                assert_eq!(parsed(&edited), expected, "insert {context}");
            }

            let mut expected = value.clone();
            let removed = serde_remove(&mut expected, text);
            let got = options.remove(&bytes, &pointer).unwrap();
            assert_eq!(got.is_some(), removed, "remove {context}");
            if let Some(edited) = got {
                assert_eq!(parsed(&edited), expected, "remove {context}");
            }
        }
    }
}

#[test]
fn iteration_agrees_with_serde_json() {
    for (name, bytes, value) in documents() {
        let root = lazy::get(&bytes, &Pointer::root()).unwrap().unwrap();
        // Walk the whole document through the iterators, breadth first.
        let mut pending = vec![(root, &value)];
        let mut seen = 0;
        while let Some((lazy_value, expected)) = pending.pop() {
            seen += 1;
            match expected {
                Value::Array(items) => {
                    let got: Vec<_> = lazy_value
                        .array_iter()
                        .unwrap()
                        .map(Result::unwrap)
                        .collect();
                    assert_eq!(got.len(), items.len(), "{name}");
                    pending.extend(got.into_iter().zip(items));
                }
                Value::Object(map) => {
                    let got: Vec<_> = lazy_value
                        .object_iter()
                        .unwrap()
                        .map(Result::unwrap)
                        .collect();
                    assert_eq!(got.len(), map.len(), "{name}");
                    for (key, child) in got {
                        pending.push((child, &map[key.as_ref()]));
                    }
                }
                scalar => assert_eq!(parsed(lazy_value.raw()), *scalar, "{name}"),
            }
        }
        assert!(seen > 1, "{name}");
    }
}

//! Predicates on an array or an object as a whole, run by a `raw-check` after the value's
//! own walk: `uniqueItems`, `minProperties` / `maxProperties` and `dependentRequired`.
//!
//! Each reads the value's bytes (well-formed: the walk before it checked them). The common
//! shapes are compared by their bytes without building anything: items that are strings
//! without escapes, integers of at most 18 digits or literals (equal exactly when their
//! tokens are), and objects whose keys have no escapes. Anything else is read with the
//! crate's value parser, which keeps one member per key (the last), as the engine's data
//! model does, so a repeated key counts once. Under [`BigInts::Raw`] big integers are read
//! as their digits and compared exactly; under the other policies as their nearest `f64`,
//! as the walk reads them.

use std::collections::HashSet;
use std::sync::Arc;

use bumpalo::Bump;
use jitson_jit::ir::{BigInts, RawPred, Violation};

use crate::schema::{MemberRules, Schema};
use crate::value::{BigNumbers, ParseOptions, Value, parse_with};
use jitson_kernels::skip::skip_value_unchecked;
use jitson_kernels::string_scan::scan_string;
use jitson_kernels::whitespace::skip_whitespace;

/// `uniqueItems`: no two items of the array are JSON-equal.
pub(super) fn unique_items() -> RawPred {
    Arc::new(|raw: &[u8], big_ints: BigInts| {
        if let Some(tokens) = plain_items(raw) {
            let count = tokens.len();
            return distinct_count(tokens) == count;
        }
        read(raw, big_ints, |value| match value {
            Value::Array(items) => {
                let mut seen = HashSet::with_capacity(items.len());
                let mut key = Vec::new();
                items.iter().all(|item| {
                    key.clear();
                    canonical_key(item, &mut key);
                    seen.insert(key.clone())
                })
            }
            _ => true,
        })
    })
}

/// The checks of an object's member rules, in the reference validator's order, each with
/// its violation: `minProperties`, `maxProperties`, `dependentRequired`, `propertyNames`
/// (asking the reference validator about each name: `schema` holds the names' node).
pub(super) fn member_checks(
    rules: &MemberRules,
    schema: Option<Arc<Schema>>,
) -> Vec<(RawPred, Violation)> {
    let mut checks = Vec::new();
    if rules.min > 0 {
        let min = rules.min;
        checks.push((
            members(move |keys| keys.len() as u64 >= min),
            Violation::MinProperties,
        ));
    }
    if let Some(max) = rules.max {
        checks.push((
            members(move |keys| keys.len() as u64 <= max),
            Violation::MaxProperties,
        ));
    }
    if !rules.dependent_required.is_empty() {
        let rules = rules.dependent_required.clone();
        let check = members(move |keys| {
            let has = |name: &str| keys.contains(&name.as_bytes());
            rules
                .iter()
                .all(|(name, required)| !has(name) || required.iter().all(|r| has(r)))
        });
        checks.push((check, Violation::DependentRequired));
    }
    if let (Some(names), Some(schema)) = (rules.names, schema) {
        let check = members(move |keys| {
            keys.iter().all(|key| {
                let name = String::from_utf8_lossy(key).into_owned();
                schema.node_accepts(names, &serde_json::Value::String(name))
            })
        });
        checks.push((check, Violation::PropertyNames));
    }
    checks
}

/// A predicate on an object's keys (each once, unescaped).
fn members(check: impl Fn(&[&[u8]]) -> bool + Send + Sync + 'static) -> RawPred {
    Arc::new(move |raw: &[u8], big_ints: BigInts| {
        if let Some(mut keys) = plain_keys(raw) {
            if distinct_count(keys.clone()) != keys.len() {
                keys.sort_unstable();
                keys.dedup();
            }
            return check(&keys);
        }
        read(raw, big_ints, |value| match value {
            Value::Object(members) => {
                let keys: Vec<&[u8]> = members.iter().map(|(k, _)| k.as_bytes()).collect();
                check(&keys)
            }
            _ => true,
        })
    })
}

/// The number of distinct byte strings in `tokens`: pairwise for a few, else sorted.
fn distinct_count(mut tokens: Vec<&[u8]>) -> usize {
    if tokens.len() <= 16 {
        return (0..tokens.len())
            .filter(|&i| !tokens[..i].contains(&tokens[i]))
            .count();
    }
    tokens.sort_unstable();
    tokens.dedup();
    tokens.len()
}

/// The items of the array text `raw` as their tokens, when every item is a string without
/// escapes (with its quotes), an integer of at most 18 digits other than `-0`, or a
/// literal: tokens that are equal exactly when the values are. `None` for anything else.
fn plain_items(raw: &[u8]) -> Option<Vec<&[u8]>> {
    let mut tokens = Vec::new();
    entries(raw, b'[', |at| {
        let end = match raw.get(at)? {
            b'"' => {
                let scan = scan_string(raw, at + 1).ok()?;
                (!scan.has_escapes).then_some(scan.end + 1)?
            }
            b'-' | b'0'..=b'9' => {
                let end = at
                    + raw[at..]
                        .iter()
                        .take_while(|b| is_integer_byte(**b))
                        .count();
                let token = &raw[at..end];
                let digits = token.len() - usize::from(token[0] == b'-');
                let fraction = matches!(raw.get(end), Some(b'.' | b'e' | b'E'));
                (!fraction && digits <= 18 && token != b"-0").then_some(end)?
            }
            b't' | b'f' | b'n' => {
                at + raw[at..]
                    .iter()
                    .take_while(|b| b.is_ascii_lowercase())
                    .count()
            }
            _ => return None,
        };
        tokens.push(&raw[at..end]);
        Some(end)
    })?;
    Some(tokens)
}

/// The keys of the object text `raw` (their bodies), when no key has an escape.
fn plain_keys(raw: &[u8]) -> Option<Vec<&[u8]>> {
    let mut keys = Vec::new();
    entries(raw, b'{', |at| {
        if raw.get(at) != Some(&b'"') {
            return None;
        }
        let scan = scan_string(raw, at + 1).ok()?;
        if scan.has_escapes {
            return None;
        }
        keys.push(&raw[at + 1..scan.end]);
        let colon = skip_whitespace(raw, scan.end + 1);
        if raw.get(colon) != Some(&b':') {
            return None;
        }
        skip_value_unchecked(raw, colon + 1).ok()
    })?;
    Some(keys)
}

/// Walks the entries of the container text `raw` opened by `open`: `entry` reads the one
/// starting at an index (after whitespace) and returns the index after it; `None` when
/// `entry` refuses one or the text is not such a container.
fn entries(raw: &[u8], open: u8, mut entry: impl FnMut(usize) -> Option<usize>) -> Option<()> {
    if raw.first() != Some(&open) {
        return None;
    }
    let mut at = skip_whitespace(raw, 1);
    if matches!(raw.get(at), Some(b']' | b'}')) {
        return Some(());
    }
    loop {
        at = skip_whitespace(raw, entry(skip_whitespace(raw, at))?);
        match raw.get(at)? {
            b',' => at += 1,
            b']' | b'}' => return Some(()),
            _ => return None,
        }
    }
}

/// A byte of an integer token.
fn is_integer_byte(b: u8) -> bool {
    b.is_ascii_digit() || b == b'-'
}

/// `check` of the value `raw` holds, read under the run's big-integer policy; `false` when
/// it does not parse (the walk before the check would have failed first).
fn read(raw: &[u8], big_ints: BigInts, check: impl FnOnce(Value<'_>) -> bool) -> bool {
    let big_numbers = match big_ints {
        BigInts::Raw => BigNumbers::Raw,
        BigInts::F64 | BigInts::Error => BigNumbers::Float,
    };
    let options = ParseOptions::new()
        .max_depth(usize::MAX)
        .big_numbers(big_numbers);
    let arena = Bump::new();
    parse_with(raw, &arena, &options).is_ok_and(check)
}

/// Appends bytes that are equal for two values exactly when the values are JSON-equal:
/// numbers by mathematical value (`1`, `1.0` and `1e0` alike), strings by their text,
/// arrays in order, objects by their members sorted by key. Each part is tagged and
/// length-prefixed, so no two different values write the same bytes.
fn canonical_key(value: &Value<'_>, out: &mut Vec<u8>) {
    match value {
        Value::Null => out.push(b'n'),
        Value::Bool(b) => out.push(if *b { b't' } else { b'f' }),
        Value::U64(n) => number_key(&n.to_string(), out),
        Value::I64(n) => number_key(&n.to_string(), out),
        Value::F64(f) => number_key(&float_text(*f), out),
        Value::BigNumber(digits) => number_key(digits, out),
        Value::String(s) => text_key(b's', s, out),
        Value::Array(items) => {
            out.push(b'[');
            out.extend_from_slice(&(items.len() as u64).to_le_bytes());
            items.iter().for_each(|item| canonical_key(item, out));
        }
        Value::Object(members) => {
            let mut sorted: Vec<_> = members.iter().collect();
            sorted.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push(b'{');
            out.extend_from_slice(&(sorted.len() as u64).to_le_bytes());
            for (key, member) in sorted {
                text_key(b'k', key, out);
                canonical_key(member, out);
            }
        }
    }
}

/// A number's canonical decimal text, tagged and length-prefixed.
fn number_key(text: &str, out: &mut Vec<u8>) {
    text_key(b'#', text, out);
}

/// `text` after `tag` and its length.
fn text_key(tag: u8, text: &str, out: &mut Vec<u8>) {
    out.push(tag);
    out.extend_from_slice(&(text.len() as u64).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
}

/// The decimal text of a finite `f64` in the form the integers' keys use when it is
/// integral (every digit, no exponent: `1e20` as `100000000000000000000`, `-0.0` as `0`),
/// else its shortest round-trip text (a fraction never equals an integer).
fn float_text(f: f64) -> String {
    if f.fract() == 0.0 {
        // Rust prints an `f64` with precision 0 exactly (all its integer digits).
        match format!("{f:.0}") {
            zero if zero == "-0" => "0".to_owned(),
            digits => digits,
        }
    } else {
        format!("{f:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unique(text: &str, big_ints: BigInts) -> bool {
        unique_items()(text.as_bytes(), big_ints)
    }

    #[test]
    fn numbers_equal_by_value() {
        for same in [
            "[1, 1.0]",
            "[1, 1e0]",
            "[0, -0]",
            "[0, -0.0]",
            "[100000000000000000000, 1e20]",
            "[-5, -5.0]",
            "[0.5, 5e-1]",
        ] {
            assert!(!unique(same, BigInts::F64), "{same}");
        }
        // `18446744073709551615.0` is the `f64` 2^64, one above `u64::MAX`.
        for distinct in [
            "[1, 2]",
            "[0.1, 0.2]",
            "[1, \"1\"]",
            "[true, 1]",
            "[null, false]",
            "[18446744073709551615, 18446744073709551615.0]",
        ] {
            assert!(unique(distinct, BigInts::F64), "{distinct}");
        }
    }

    #[test]
    fn big_integers_by_policy() {
        let text = "[100000000000000000001, 100000000000000000000]";
        // The nearest `f64` of both is 1e20; their digits differ.
        assert!(!unique(text, BigInts::F64));
        assert!(unique(text, BigInts::Raw));
        assert!(!unique("[100000000000000000000, 1e20]", BigInts::Raw));
    }

    #[test]
    fn containers_strings_and_repeated_keys() {
        assert!(!unique(
            r#"[{"a":1,"b":[2]}, {"b":[2.0],"a":1}]"#,
            BigInts::F64
        ));
        assert!(unique(r#"[{"a":1}, {"a":1,"b":2}]"#, BigInts::F64));
        assert!(unique("[[1,2], [2,1]]", BigInts::F64));
        assert!(!unique(r#"["\u00e9", "é"]"#, BigInts::F64));
        assert!(unique(r#"["ab", "a"]"#, BigInts::F64));
        // A repeated key keeps its last value.
        assert!(!unique(r#"[{"a":1,"a":2}, {"a":2}]"#, BigInts::F64));
        assert!(unique("[]", BigInts::F64));
    }

    #[test]
    fn plain_tokens_compare_by_bytes() {
        assert_eq!(
            plain_items(br#"[ "a" , 1,-2, true,null ,false, "1"]"#),
            Some(vec![
                &b"\"a\""[..],
                b"1",
                b"-2",
                b"true",
                b"null",
                b"false",
                b"\"1\""
            ])
        );
        for other in [
            r#"["\n"]"#,
            "[1.0]",
            "[1e2]",
            "[-0]",
            "[[1]]",
            "[{}]",
            "[1234567890123456789]",
        ] {
            assert_eq!(plain_items(other.as_bytes()), None, "{other}");
        }
        assert_eq!(plain_items(b"[ ]"), Some(vec![]));
        assert!(!unique(r#"["a", "b", "a"]"#, BigInts::F64));
        assert!(!unique("[1, 2, 1]", BigInts::F64));
        assert!(!unique("[true, null, true]", BigInts::F64));
        assert!(unique(r#"[1, "1", -1, true, "true"]"#, BigInts::F64));
        // Past 16 items the tokens are sorted.
        let many: Vec<String> = (0..40).map(|i| format!(r#""s{i}""#)).collect();
        assert!(unique(&format!("[{}]", many.join(",")), BigInts::F64));
        assert!(!unique(
            &format!("[{}, \"s7\"]", many.join(",")),
            BigInts::F64
        ));
        assert_eq!(
            plain_keys(br#"{"a": {"b": [1, "}"]}, "c" : 2}"#),
            Some(vec![&b"a"[..], b"c"])
        );
        assert_eq!(plain_keys(br#"{"a\u0062": 1}"#), None);
    }

    /// Random arrays over a pool of spellings (equal values spelled differently among
    /// them) against pairwise JSON equality of their serde_json values.
    #[test]
    fn agrees_with_pairwise_equality() {
        const POOL: [&str; 18] = [
            r#""a""#,
            r#""\u0061""#,
            r#""b""#,
            "1",
            "1.0",
            "1e0",
            "-1",
            "0",
            "-0",
            "0.5",
            "true",
            "null",
            "[1]",
            "[1.0]",
            r#"{"a":1,"b":2}"#,
            r#"{"b":2,"a":1.0}"#,
            r#"{"a":1}"#,
            "12345678901234567890",
        ];
        let mut state = 0x9e37_79b9_u64;
        for _ in 0..2000 {
            let mut items = Vec::new();
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            for _ in 0..(state >> 60) {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                items.push(POOL[(state >> 33) as usize % POOL.len()]);
            }
            let text = format!("[{}]", items.join(","));
            let values: Vec<serde_json::Value> =
                serde_json::from_str(&text).expect("pool items are JSON");
            let pairwise = (0..values.len())
                .all(|j| (0..j).all(|i| !crate::schema::value::json_eq(&values[i], &values[j])));
            assert_eq!(unique(&text, BigInts::F64), pairwise, "{text}");
        }
    }

    #[test]
    fn member_rules_count_distinct_keys() {
        let rules = MemberRules {
            min: 2,
            max: Some(2),
            dependent_required: vec![("a".into(), vec!["b".into()])],
            names: None,
        };
        let checks = member_checks(&rules, None);
        let broken = |text: &str| -> Vec<Violation> {
            let raw = text.as_bytes();
            checks
                .iter()
                .filter(|(check, _)| !check(raw, BigInts::F64))
                .map(|&(_, v)| v)
                .collect()
        };
        assert_eq!(broken(r#"{"a":1,"b":2}"#), []);
        assert_eq!(
            broken(r#"{"a":1,"a":2}"#),
            [Violation::MinProperties, Violation::DependentRequired]
        );
        assert_eq!(broken(r#"{"a":1,"c":2}"#), [Violation::DependentRequired]);
        assert_eq!(broken(r#"{"c":1,"d":2}"#), []);
        assert_eq!(broken(r#"{"c":1,"d":2,"e":3}"#), [Violation::MaxProperties]);
        // Escaped keys take the parser: `\u0061` is `a`.
        assert_eq!(
            broken(r#"{"\u0061":1,"a":2}"#),
            [Violation::MinProperties, Violation::DependentRequired]
        );
        assert_eq!(broken(r#"{"\u0061":1,"b":2}"#), []);
        let keys: Vec<String> = (0..20).map(|i| format!(r#""k{i}": {i}"#)).collect();
        let wide = format!("{{{}, \"k3\": 0}}", keys.join(", "));
        assert_eq!(broken(&wide), [Violation::MaxProperties]);
    }
}

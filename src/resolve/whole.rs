//! Predicates on an array or an object as a whole, run by a `raw-check` after the value's
//! own walk: `uniqueItems`, `minProperties` / `maxProperties` and `dependentRequired`.
//!
//! Each reads the value's bytes (well-formed: the walk before it checked them) with the
//! crate's value parser, which keeps one member per key (the last), as the engine's data
//! model does, so a repeated key counts once. Under [`BigInts::Raw`] big integers are read
//! as their digits and compared exactly; under the other policies as their nearest `f64`,
//! as the walk reads them.

use std::collections::HashSet;
use std::sync::Arc;

use bumpalo::Bump;
use jitson_jit::ir::{BigInts, RawPred, Violation};

use crate::schema::MemberRules;
use crate::value::{BigNumbers, Member, ParseOptions, Value, parse_with};

/// `uniqueItems`: no two items of the array are JSON-equal.
pub(super) fn unique_items() -> RawPred {
    Arc::new(|raw: &[u8], big_ints: BigInts| {
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
/// its violation: `minProperties`, `maxProperties`, `dependentRequired`.
pub(super) fn member_checks(rules: &MemberRules) -> Vec<(RawPred, Violation)> {
    let mut checks = Vec::new();
    if rules.min > 0 {
        let min = rules.min;
        checks.push((
            members(move |m| m.len() as u64 >= min),
            Violation::MinProperties,
        ));
    }
    if let Some(max) = rules.max {
        checks.push((
            members(move |m| m.len() as u64 <= max),
            Violation::MaxProperties,
        ));
    }
    if !rules.dependent_required.is_empty() {
        let rules = rules.dependent_required.clone();
        let check = members(move |m| {
            let has = |name: &str| m.iter().any(|(k, _)| **k == *name);
            rules
                .iter()
                .all(|(name, required)| !has(name) || required.iter().all(|r| has(r)))
        });
        checks.push((check, Violation::DependentRequired));
    }
    checks
}

/// A predicate on an object's members (one per key).
fn members(check: impl Fn(&[Member<'_>]) -> bool + Send + Sync + 'static) -> RawPred {
    Arc::new(move |raw: &[u8], big_ints: BigInts| {
        read(raw, big_ints, |value| match value {
            Value::Object(members) => check(members),
            _ => true,
        })
    })
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
    fn member_rules_count_distinct_keys() {
        let rules = MemberRules {
            min: 2,
            max: Some(2),
            dependent_required: vec![("a".into(), vec!["b".into()])],
        };
        let checks = member_checks(&rules);
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
    }
}

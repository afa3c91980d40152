//! Predicates on an array or an object as a whole, run by a `raw-check` after the value's
//! own walk: `uniqueItems`, `minProperties` / `maxProperties`, `dependentRequired` and
//! `propertyNames` (`contains` is counted by ops: see the resolver).
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

use crate::schema::value::JsonSet;
use crate::schema::{MemberRules, Schema, TypeDesc, TypeId};
use crate::value::{BigNumbers, ParseOptions, Value, parse_with};
use jitson_kernels::minify::is_scalar;
use jitson_kernels::skip::skip_value_unchecked;
use jitson_kernels::whitespace::{is_whitespace, skip_whitespace};
use memchr::memchr2;

/// `uniqueItems`: no two items of the array are JSON-equal.
pub(super) fn unique_items() -> RawPred {
    Arc::new(|raw: &[u8], big_ints: BigInts| {
        let mut tokens = Distinct::new();
        let unique = match plain_items(raw, &mut tokens) {
            Some(()) => tokens.pushed == tokens.finish().len(),
            // A walked value always parses.
            None => read(raw, big_ints, |value| match value {
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
            .unwrap_or(false),
        };
        unique.then_some(()).ok_or(Violation::UniqueItems)
    })
}

/// One check of an object's member rules, `None` when it has none: the first broken rule
/// in the reference validator's order (`minProperties`, `maxProperties`,
/// `dependentRequired`, `propertyNames`) is the violation. `propertyNames` asks the
/// reference validator about each name (`schema` holds the names' node), or, when the
/// names' node is an `enum`, looks each name up in the set of its values.
pub(super) fn member_rules(rules: &MemberRules, schema: Option<Arc<Schema>>) -> Option<RawPred> {
    if rules.is_empty() {
        return None;
    }
    let rules = rules.clone();
    let names = rules
        .names
        .zip(schema)
        .map(|(id, schema)| match schema.node(id) {
            TypeDesc::Enum(values) => Names::Among(JsonSet::of(values)),
            _ => Names::Accepted(id, schema),
        });
    Some(members(move |keys| {
        let count = keys.len() as u64;
        if count < rules.min {
            return Err(Violation::MinProperties);
        }
        if rules.max.is_some_and(|max| count > max) {
            return Err(Violation::MaxProperties);
        }
        let has = |name: &str| keys.iter().any(|&(_, k)| k == name.as_bytes());
        let dependent = |(name, required): &(String, Vec<String>)| {
            !has(name) || required.iter().all(|r| has(r))
        };
        if !rules.dependent_required.iter().all(dependent) {
            return Err(Violation::DependentRequired);
        }
        let named = |&(_, key): &(u64, &[u8])| {
            let name = || serde_json::Value::String(String::from_utf8_lossy(key).into_owned());
            match &names {
                Some(Names::Among(set)) => set.contains(&name()),
                Some(Names::Accepted(id, schema)) => schema.node_accepts(*id, &name()),
                None => true,
            }
        };
        match keys.iter().all(named) {
            true => Ok(()),
            false => Err(Violation::PropertyNames),
        }
    }))
}

/// What `propertyNames` asks of each name.
enum Names {
    /// To be one of an `enum`'s values.
    Among(JsonSet),
    /// To be accepted by the schema's node.
    Accepted(TypeId, Arc<Schema>),
}

/// A predicate on an object's keys (each once, unescaped, with their fingerprints).
fn members(
    check: impl Fn(&[(u64, &[u8])]) -> Result<(), Violation> + Send + Sync + 'static,
) -> RawPred {
    Arc::new(move |raw: &[u8], big_ints: BigInts| {
        let mut keys = Distinct::new();
        if plain_keys(raw, &mut keys).is_some() {
            return check(keys.finish());
        }
        // A walked value always parses.
        read(raw, big_ints, |value| match value {
            Value::Object(members) => {
                let mut keys = Distinct::new();
                members.iter().for_each(|(k, _)| keys.push(k.as_bytes()));
                check(keys.finish())
            }
            _ => Ok(()),
        })
        .unwrap_or(Ok(()))
    })
}

/// How many byte strings [`Distinct`] compares pairwise before it sorts instead.
const FEW: usize = 16;

/// A set of byte strings (each with its [`fingerprint`], compared before the bytes): the
/// first [`FEW`] distinct ones in an array on the stack, compared pairwise as they come;
/// past that, every one in a vector sorted once by [`Distinct::finish`].
struct Distinct<'a> {
    few: [(u64, &'a [u8]); FEW],
    len: usize,
    many: Vec<(u64, &'a [u8])>,
    /// How many strings were pushed, repeats included.
    pushed: usize,
}

impl<'a> Distinct<'a> {
    fn new() -> Distinct<'a> {
        Distinct {
            few: [(0, &[]); FEW],
            len: 0,
            many: Vec::new(),
            pushed: 0,
        }
    }

    fn push(&mut self, token: &'a [u8]) {
        self.pushed += 1;
        let entry = (fingerprint(token), token);
        if self.many.is_empty() {
            if self.few[..self.len].contains(&entry) {
                return;
            }
            if self.len < FEW {
                self.few[self.len] = entry;
                self.len += 1;
                return;
            }
            self.many.extend_from_slice(&self.few);
        }
        self.many.push(entry);
    }

    /// The distinct strings.
    fn finish(&mut self) -> &[(u64, &'a [u8])] {
        if self.many.is_empty() {
            return &self.few[..self.len];
        }
        self.many.sort_unstable();
        self.many.dedup();
        &self.many
    }
}

/// Equal for equal byte strings: the length and the first and last 8 bytes (4 of a
/// shorter string, every byte of one shorter than 4), so most different strings differ
/// here.
fn fingerprint(token: &[u8]) -> u64 {
    let n = token.len();
    let (head, tail) = match (token.first_chunk::<8>(), token.last_chunk::<8>()) {
        (Some(head), Some(tail)) => (u64::from_le_bytes(*head), u64::from_le_bytes(*tail)),
        _ => match (token.first_chunk::<4>(), token.last_chunk::<4>()) {
            (Some(head), Some(tail)) => (
                u64::from(u32::from_le_bytes(*head)),
                u64::from(u32::from_le_bytes(*tail)),
            ),
            _ => (token.iter().fold(0, |w, &b| w << 8 | u64::from(b)), 0),
        },
    };
    head ^ tail.rotate_left(29) ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Pushes the items of the array text `raw` as their tokens into `tokens`, when every item
/// is a string without escapes (with its quotes), an integer of at most 18 digits other
/// than `-0`, or a literal: tokens that are equal exactly when the values are. `None` for
/// anything else.
fn plain_items<'a>(raw: &'a [u8], tokens: &mut Distinct<'a>) -> Option<()> {
    entries(raw, b'[', |at| {
        let end = match raw.get(at)? {
            b'"' => plain_string_end(raw, at)?,
            b'-' | b'0'..=b'9' => {
                let end = scalar_end(raw, at);
                let token = &raw[at..end];
                let digits = token.len() - usize::from(token[0] == b'-');
                let integer = token.iter().all(|&b| is_integer_byte(b));
                (integer && digits <= 18 && token != b"-0").then_some(end)?
            }
            b't' | b'f' | b'n' => scalar_end(raw, at),
            _ => return None,
        };
        tokens.push(&raw[at..end]);
        Some(end)
    })
}

/// Pushes the keys of the object text `raw` (their bodies) into `keys`, when no key has
/// an escape; `None` else.
fn plain_keys<'a>(raw: &'a [u8], keys: &mut Distinct<'a>) -> Option<()> {
    entries(raw, b'{', |at| {
        if raw.get(at) != Some(&b'"') {
            return None;
        }
        let end = plain_string_end(raw, at)?;
        keys.push(&raw[at + 1..end - 1]);
        let colon = ws(raw, end);
        if raw.get(colon) != Some(&b':') {
            return None;
        }
        let value = ws(raw, colon + 1);
        match raw.get(value)? {
            b'"' => plain_string_end(raw, value).or_else(|| skip_value_unchecked(raw, value).ok()),
            b'[' | b'{' => skip_value_unchecked(raw, value).ok(),
            _ => Some(scalar_end(raw, value)),
        }
    })
}

/// The index after the string token starting at `at` (its opening quote) when its body has
/// no escape; `None` when it has one.
fn plain_string_end(raw: &[u8], at: usize) -> Option<usize> {
    let body = at + 1;
    let stop = body + memchr2(b'"', b'\\', raw.get(body..)?)?;
    (raw[stop] == b'"').then_some(stop + 1)
}

/// The index after the number or literal token starting at `at`.
fn scalar_end(raw: &[u8], at: usize) -> usize {
    let token = raw[at..].iter().take_while(|&&b| is_scalar(b));
    at + token.count()
}

/// The index after the whitespace at `at`: byte by byte for a short run (a space after a
/// comma), the kernel past 8 bytes (indentation).
fn ws(raw: &[u8], at: usize) -> usize {
    let mut i = at;
    while raw.get(i).is_some_and(|&b| is_whitespace(b)) {
        i += 1;
        if i - at == 8 {
            return skip_whitespace(raw, i);
        }
    }
    i
}

/// Walks the entries of the container text `raw` opened by `open`: `entry` reads the one
/// starting at an index (after whitespace) and returns the index after it; `None` when
/// `entry` refuses one or the text is not such a container.
fn entries(raw: &[u8], open: u8, mut entry: impl FnMut(usize) -> Option<usize>) -> Option<()> {
    if raw.first() != Some(&open) {
        return None;
    }
    let mut at = ws(raw, 1);
    if matches!(raw.get(at), Some(b']' | b'}')) {
        return Some(());
    }
    loop {
        at = ws(raw, entry(ws(raw, at))?);
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

/// `check` of the value `raw` holds, read under the run's big-integer policy; `None` when
/// it does not parse (the walk before the check would have failed first).
fn read<R>(raw: &[u8], big_ints: BigInts, check: impl FnOnce(Value<'_>) -> R) -> Option<R> {
    let big_numbers = match big_ints {
        BigInts::Raw => BigNumbers::Raw,
        BigInts::F64 | BigInts::Error => BigNumbers::Float,
    };
    let options = ParseOptions::new()
        .max_depth(usize::MAX)
        .big_numbers(big_numbers);
    let arena = Bump::new();
    parse_with(raw, &arena, &options).ok().map(check)
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

    /// The distinct plain tokens of an array text, in order.
    fn items_of(raw: &[u8]) -> Option<Vec<&[u8]>> {
        let mut tokens = Distinct::new();
        plain_items(raw, &mut tokens)?;
        Some(tokens.finish().iter().map(|&(_, t)| t).collect())
    }

    /// The distinct plain keys of an object text, in order.
    fn keys_of(raw: &[u8]) -> Option<Vec<&[u8]>> {
        let mut keys = Distinct::new();
        plain_keys(raw, &mut keys)?;
        Some(keys.finish().iter().map(|&(_, k)| k).collect())
    }

    fn unique(text: &str, big_ints: BigInts) -> bool {
        unique_items()(text.as_bytes(), big_ints).is_ok()
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
            items_of(br#"[ "a" , 1,-2, true,null ,false, "1"]"#),
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
            assert_eq!(items_of(other.as_bytes()), None, "{other}");
        }
        assert_eq!(items_of(b"[ ]"), Some(vec![]));
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
            keys_of(br#"{"a": {"b": [1, "}"]}, "c" : 2}"#),
            Some(vec![&b"a"[..], b"c"])
        );
        assert_eq!(keys_of(br#"{"a\u0062": 1}"#), None);
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
            for _ in 0..(state >> 58) {
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
        let check = member_rules(&rules, None).expect("rules");
        let broken = |text: &str| check(text.as_bytes(), BigInts::F64).err();
        assert_eq!(broken(r#"{"a":1,"b":2}"#), None);
        // The first broken rule, in the reference validator's order.
        assert_eq!(broken(r#"{"a":1,"a":2}"#), Some(Violation::MinProperties));
        assert_eq!(
            broken(r#"{"a":1,"c":2}"#),
            Some(Violation::DependentRequired)
        );
        assert_eq!(broken(r#"{"c":1,"d":2}"#), None);
        assert_eq!(
            broken(r#"{"c":1,"d":2,"e":3}"#),
            Some(Violation::MaxProperties)
        );
        // Escaped keys take the parser: `\u0061` is `a`.
        assert_eq!(
            broken(r#"{"\u0061":1,"a":2}"#),
            Some(Violation::MinProperties)
        );
        assert_eq!(
            broken(r#"{"\u0061":1,"c":2}"#),
            Some(Violation::DependentRequired)
        );
        assert_eq!(broken(r#"{"\u0061":1,"b":2}"#), None);
        let keys: Vec<String> = (0..20).map(|i| format!(r#""k{i}": {i}"#)).collect();
        let wide = format!("{{{}, \"k3\": 0}}", keys.join(", "));
        assert_eq!(broken(&wide), Some(Violation::MaxProperties));
        assert!(member_rules(&MemberRules::default(), None).is_none());
    }
}

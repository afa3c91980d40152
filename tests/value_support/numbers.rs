//! Number tokens of a JSON text and the numbers of a parsed value, and the check that each
//! number is what `str::parse` makes of its token: shared by the value tests and the fuzz
//! oracle (which includes this file by path).

use jitson::value::Value;

/// The number tokens of a well-formed JSON text, in document order (strings skipped).
pub fn number_tokens(doc: &[u8]) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(&b) = doc.get(i) {
        match b {
            b'"' => {
                i += 1;
                while let Some(&c) = doc.get(i) {
                    i += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while doc
                    .get(i)
                    .is_some_and(|c| matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                {
                    i += 1;
                }
                // Number tokens are ASCII, so this never fails on well-formed text.
                tokens.extend(std::str::from_utf8(&doc[start..i]).ok());
            }
            _ => i += 1,
        }
    }
    tokens
}

/// The numbers of a value in document order (iteratively).
pub fn numbers<'v, 'a>(root: &'v Value<'a>) -> Vec<&'v Value<'a>> {
    let mut found = Vec::new();
    let mut pending = vec![root];
    while let Some(v) = pending.pop() {
        match v {
            Value::Array(items) => pending.extend(items.iter().rev()),
            Value::Object(members) => pending.extend(members.iter().rev().map(|(_, v)| v)),
            v if v.is_number() => found.push(v),
            _ => {}
        }
    }
    found
}

/// Checks that `number` is what `str::parse` makes of `token`: an integer that fits 64 bits
/// as that integer (`U64` when non-negative, else `I64`), anything else as the correctly rounded `f64` (`-0` is `-0.0`).
pub fn number_matches_token(number: &Value<'_>, token: &str) -> Result<(), String> {
    let integer = !token.contains(['.', 'e', 'E']);
    let ok = match (integer, token.parse::<u64>(), token.parse::<i64>()) {
        (true, Ok(n), _) => matches!(number, Value::U64(m) if *m == n),
        (true, _, Ok(n)) if n != 0 => matches!(number, Value::I64(m) if *m == n),
        _ => matches!(
            (number, token.parse::<f64>()),
            (Value::F64(x), Ok(y)) if x.to_bits() == y.to_bits()
        ),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("token {token} read as {number:?}"))
    }
}

//! Comparison with serde_json — values up to its float rounding, and error messages — the
//! one definition shared by the value and engine tests and the fuzz oracle (which includes
//! this file by path).

use serde_json::Value as Json;

/// Compares `ours` with serde_json's `theirs`: equal, except that floats may be up to
/// `max_ulps` apart (serde_json's default float parsing is not always correctly rounded).
/// Returns how many floats differ within that tolerance, or where the values differ.
pub fn compare_within(ours: &Json, theirs: &Json, max_ulps: u64) -> Result<usize, String> {
    let mut rounding_differences = 0;
    let mut pending = vec![(ours, theirs, String::from("$"))];
    while let Some((a, b, at)) = pending.pop() {
        match (a, b) {
            (Json::Array(x), Json::Array(y)) if x.len() == y.len() => {
                for (i, (x, y)) in x.iter().zip(y).enumerate() {
                    pending.push((x, y, format!("{at}[{i}]")));
                }
            }
            (Json::Object(x), Json::Object(y)) if x.len() == y.len() => {
                for ((kx, x), (ky, y)) in x.iter().zip(y) {
                    if kx != ky {
                        return Err(format!("{at}: key {kx:?} vs {ky:?}"));
                    }
                    pending.push((x, y, format!("{at}.{kx}")));
                }
            }
            (Json::Number(x), Json::Number(y)) if x.is_f64() && y.is_f64() && x != y => {
                let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
                if (x.to_bits() as i64).abs_diff(y.to_bits() as i64) > max_ulps {
                    return Err(format!("{at}: {x:e} vs {y:e}"));
                }
                rounding_differences += 1;
            }
            (x, y) if x == y => {}
            (x, y) => return Err(format!("{at}: {x} vs {y}")),
        }
    }
    Ok(rounding_differences)
}

/// True when jitson's error says what serde_json's does: its `Display` starts with
/// serde_json's message and position, except for the documented differences: numbers out
/// of range (jitson reports the token's last byte), lone trailing surrogates (serde_json
/// calls them "leading") and invalid UTF-8 (serde_json's column after escapes is
/// approximate).
pub fn same_error_message(ours: &jitson::Error, theirs: &serde_json::Error) -> bool {
    use jitson::{ErrorKind, SyntaxKind};
    let documented_difference = matches!(
        ours.kind(),
        ErrorKind::NumberOutOfRange
            | ErrorKind::Syntax(SyntaxKind::LoneTrailingSurrogate | SyntaxKind::InvalidUtf8)
    );
    documented_difference || ours.to_string().starts_with(&format!("{theirs}, path "))
}

//! Shared oracle helpers: serde_json's verdict, value comparison that tolerates serde_json's
//! float rounding, correctly rounded numbers per token, and readable inputs in messages.

use std::cell::RefCell;

// The comparison and the number checks the stable value and engine tests use too.
#[path = "../../../tests/value_support/json_compare.rs"]
mod json_compare;
#[path = "../../../tests/value_support/numbers.rs"]
mod numbers;

pub use json_compare::same_error_message;
pub use numbers::{number_matches_token, number_tokens, numbers};

use jitson::kernels::escape::max_escaped_len;
use jitson::kernels::guard::GuardedRegion;
use jitson::value::{self, Bump, DuplicateKeys, ParseOptions};
use serde_json::Value as Json;

/// serde_json's fixed nesting limit accepts 127 levels; jitson's parsers and codecs take the
/// limit as "levels accepted", so 127 gives the same verdicts.
pub const SERDE_DEPTH: usize = 127;

/// jitson's parse options that match serde_json's defaults.
pub fn serde_like() -> ParseOptions {
    ParseOptions::new().max_depth(SERDE_DEPTH)
}

thread_local! {
    /// Guarded memory for inputs and output buffers: (capacity, input, output), grown on
    /// demand and reused.
    static REGIONS: RefCell<Option<(usize, GuardedRegion, GuardedRegion)>> = const { RefCell::new(None) };
}

/// Runs `f` on a copy of `data` that ends exactly at an inaccessible guard page (any read
/// past the end faults), with a second guarded region for output buffers of up to
/// `max_escaped_len(data.len())` bytes.
pub fn guarded<R>(data: &[u8], f: impl FnOnce(&[u8], &mut GuardedRegion) -> R) -> R {
    REGIONS.with(|cell| {
        let mut slot = cell.borrow_mut();
        let needed = max_escaped_len(data.len()).max(1 << 16);
        if slot.as_ref().is_none_or(|(cap, _, _)| *cap < needed) {
            *slot = Some((
                needed,
                GuardedRegion::new(needed),
                GuardedRegion::new(needed),
            ));
        }
        let (_, input, output) = slot.as_mut().expect("just filled");
        f(input.place(data), output)
    })
}

/// The input for a panic message: escaped, and cut after 400 bytes.
pub fn show(bytes: &[u8]) -> String {
    const MAX: usize = 400;
    let cut = &bytes[..bytes.len().min(MAX)];
    let more = if bytes.len() > MAX { "…" } else { "" };
    format!(
        "{:?}{more} ({} bytes)",
        String::from_utf8_lossy(cut),
        bytes.len()
    )
}

/// serde_json's parse of `bytes`.
pub fn serde_parse(bytes: &[u8]) -> Result<Json, serde_json::Error> {
    serde_json::from_slice(bytes)
}

/// serde_json's parse of `bytes`, or `None` when its answer is no oracle: serde_json's
/// default float parser rounds some literals just below the `f64` limit up to infinity and
/// reports "number out of range" for them (`1.7976931348623158e308` is `f64::MAX` when
/// correctly rounded), so it rejects texts that are valid JSON; and its `Value` reads an
/// object whose key is one of its private tokens as no object (see
/// [`names_serde_private_token`]).
pub fn serde_verdict(bytes: &[u8]) -> Option<Result<Json, serde_json::Error>> {
    if names_serde_private_token(bytes) {
        return None;
    }
    let result = serde_parse(bytes);
    match &result {
        Err(e) if e.to_string().starts_with("number out of range") && finite_at(bytes, e) => None,
        _ => Some(result),
    }
}

/// True when a string literal of `bytes` reads (escapes decoded) as one of serde_json's
/// private tokens, such as `$serde_json::private::RawValue`: as an object's first key, its
/// `Value` takes the object for a raw value (the `raw_value` feature, which jitson enables)
/// or an arbitrary-precision number, and fails or reads the member's string as JSON text.
fn names_serde_private_token(bytes: &[u8]) -> bool {
    const PREFIX: &str = "$serde_json::private::";
    let mut at = 0;
    while let Some(start) = bytes[at..].iter().position(|&b| b == b'"').map(|p| at + p) {
        let mut end = start + 1;
        while end < bytes.len() && bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        let Some(literal) = bytes.get(start..=end) else {
            return false;
        };
        if literal.len() > PREFIX.len()
            && serde_json::from_slice::<String>(literal).is_ok_and(|s| s.starts_with(PREFIX))
        {
            return true;
        }
        at = end + 1;
    }
    false
}

/// True when the number token ending at serde_json's error position (serde_json reports
/// the token's last byte) reads, correctly rounded, as a finite `f64`.
fn finite_at(bytes: &[u8], e: &serde_json::Error) -> bool {
    let line_start = bytes
        .split_inclusive(|&b| b == b'\n')
        .take(e.line().saturating_sub(1))
        .map(<[u8]>::len)
        .sum::<usize>();
    let at = (line_start + e.column().saturating_sub(1)).min(bytes.len().saturating_sub(1));
    let in_number = |b: &u8| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E');
    let start = bytes[..at]
        .iter()
        .rposition(|b| !in_number(b))
        .map_or(0, |i| i + 1);
    std::str::from_utf8(bytes.get(start..=at).unwrap_or_default())
        .ok()
        .and_then(|token| token.parse::<f64>().ok())
        .is_some_and(f64::is_finite)
}

/// How far apart two floats may be when one side comes from serde_json's default float
/// parser (not always correctly rounded: off by up to two units in the last place).
const SERDE_ULPS: u64 = 2;

/// Compares two JSON values structurally (iteratively), exactly except that floats may
/// differ by [`SERDE_ULPS`]; returns where they differ.
pub fn same_json(ours: &Json, theirs: &Json) -> Result<(), String> {
    json_compare::compare_within(ours, theirs, SERDE_ULPS).map(drop)
}

/// True when some object of the text repeats a key (only meaningful for well-formed text).
pub fn has_duplicate_keys(bytes: &[u8]) -> bool {
    let arena = Bump::new();
    let deny = serde_like().duplicate_keys(DuplicateKeys::Deny);
    matches!(
        value::parse_with(bytes, &arena, &deny),
        Err(e) if e.kind() == jitson::ErrorKind::DuplicateKey
    )
}

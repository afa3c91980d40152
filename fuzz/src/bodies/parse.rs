//! `parse`: the schema-less parser ([`jitson::value`]) against serde_json.
//!
//! - Same verdict as `serde_json::from_slice::<serde_json::Value>` on every input.
//! - When both accept: equal values (serde_json's floats may be off by two ulps), and every
//!   number exactly what `str::parse` makes of its token (correct rounding, checked
//!   positionally when the text repeats no key).
//! - When both reject: the same message and position as serde_json for the kinds where
//!   jitson promises that (see `jitson::error`).
//! - Parse → write → parse is a fixed point, in compact, pretty and every escape mode.

use jitson::value::{self, Bump, EscapeMode, WriteOptions};

use super::oracle::{
    guarded, has_duplicate_keys, number_matches_token, number_tokens, numbers, same_error_message,
    same_json, serde_like, serde_verdict, show,
};

/// The body of the `parse` target.
pub fn run(data: &[u8]) {
    let arena = Bump::new();
    let ours = value::parse_with(data, &arena, &serde_like());
    guarded(data, |placed, _| {
        let again = value::parse_with(placed, &arena, &serde_like());
        let same = match (&ours, &again) {
            (Ok(a), Ok(b)) => a == b,
            (Err(a), Err(b)) => a == b,
            _ => false,
        };
        assert!(
            same,
            "{}: {ours:?}, but at a guard page {again:?}",
            show(data)
        );
    });
    let Some(theirs) = serde_verdict(data) else {
        // serde_json is no oracle for this text; jitson must still be consistent.
        if let Ok(ours) = ours {
            fixed_point(data, &ours);
        }
        return;
    };
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => {
            if let Err(e) = same_json(&ours.to_serde(), &theirs) {
                panic!("{}: value differs from serde_json: {e}", show(data));
            }
            if !has_duplicate_keys(data) {
                correctly_rounded(data, &ours);
            }
            fixed_point(data, &ours);
        }
        (Err(ours), Err(theirs)) => same_message(data, &ours, &theirs),
        (ours, theirs) => panic!(
            "{}: jitson {:?}, serde_json {:?}",
            show(data),
            ours.map(|v| v.to_string()),
            theirs
        ),
    }
}

/// Every number of `parsed` (document order) is its token read by `str::parse`.
fn correctly_rounded(data: &[u8], parsed: &value::Value<'_>) {
    let found = numbers(parsed);
    let tokens = number_tokens(data);
    assert_eq!(found.len(), tokens.len(), "{}: number count", show(data));
    for (number, token) in found.into_iter().zip(tokens) {
        if let Err(e) = number_matches_token(number, token) {
            panic!("{}: {e}", show(data));
        }
    }
}

/// Writing `parsed` and parsing the output gives the same value, and writing that again
/// gives the same bytes.
fn fixed_point(data: &[u8], parsed: &value::Value<'_>) {
    let modes = [EscapeMode::Minimal, EscapeMode::Ascii, EscapeMode::Html];
    for options in modes.into_iter().flat_map(|mode| {
        [false, true].map(|pretty| WriteOptions::new().escape(mode).pretty(pretty))
    }) {
        let mut written = Vec::new();
        parsed.write(&mut written, &options);
        let arena = Bump::new();
        let again = value::parse_with(&written, &arena, &serde_like())
            .unwrap_or_else(|e| panic!("{}: output {} rejected: {e}", show(data), show(&written)));
        assert!(
            again == *parsed,
            "{}: {options:?} output {} reads back differently",
            show(data),
            show(&written)
        );
        let mut rewritten = Vec::new();
        again.write(&mut rewritten, &options);
        assert!(
            rewritten == written,
            "{}: {options:?} not a fixed point: {} then {}",
            show(data),
            show(&written),
            show(&rewritten)
        );
    }
}

/// Where jitson promises serde_json's message and position, its `Display` starts with
/// serde_json's (see [`same_error_message`] for the documented differences).
fn same_message(data: &[u8], ours: &jitson::Error, theirs: &serde_json::Error) {
    assert!(
        same_error_message(ours, theirs),
        "{}: jitson says {ours}, serde_json {theirs}",
        show(data)
    );
}

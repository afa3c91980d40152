//! `roundtrip`: what jitson writes, serde_json reads back as the input's value.
//!
//! For every input serde_json accepts:
//! - jitson's parse, written compact, pretty, ASCII-escaped and HTML-safe, re-parses with
//!   serde_json to the value jitson read (floats within serde_json's rounding error; that
//!   jitson's value is serde_json's is the `parse` target's check);
//! - the same value brought over from serde_json ([`Value::from_serde`]) writes exactly the
//!   bytes of `serde_json::to_vec` and `serde_json::to_vec_pretty`;
//! - the input rewritten without a parse ([`write_raw`], native transcode's writer) is
//!   exactly jitson's parse written compact, in every escape mode, when no object repeats
//!   a key (the parse keeps one member per key, `write_raw` every member).

use jitson::jit::encode::write_raw;
use jitson::jit::ir::BigInts;
use jitson::value::{self, Bump, DuplicateKeys, EscapeMode, Value, WriteOptions};

use super::oracle::{same_json, serde_like, serde_parse, serde_verdict, show};

/// The body of the `roundtrip` target.
pub fn run(data: &[u8]) {
    let Ok(theirs) = serde_parse(data) else {
        return;
    };
    let arena = Bump::new();
    let ours = value::parse_with(data, &arena, &serde_like())
        .unwrap_or_else(|e| panic!("{}: serde_json accepts, jitson says {e}", show(data)));
    let expected = ours.to_serde();
    for options in [
        WriteOptions::new(),
        WriteOptions::new().pretty(true),
        WriteOptions::new().escape(EscapeMode::Ascii),
        WriteOptions::new().escape(EscapeMode::Html).pretty(true),
    ] {
        let mut written = Vec::new();
        ours.write(&mut written, &options);
        let Some(back) = serde_verdict(&written) else {
            continue;
        };
        let back = back.unwrap_or_else(|e| {
            panic!(
                "{}: serde_json rejects jitson's {options:?} output {}: {e}",
                show(data),
                show(&written)
            )
        });
        if let Err(e) = same_json(&back, &expected) {
            panic!(
                "{}: {options:?} output {} differs: {e}",
                show(data),
                show(&written)
            );
        }
    }
    let unique_keys = serde_like().duplicate_keys(DuplicateKeys::Deny);
    if value::parse_with(data, &arena, &unique_keys).is_ok() {
        rewritten_as_parsed(data, &ours);
    }
    let from_serde = Value::from_serde(&theirs, &arena);
    let expected = serde_json::to_vec(&theirs).expect("a Value always serializes");
    assert!(
        from_serde.to_vec() == expected,
        "{}: compact bytes {} vs serde_json {}",
        show(data),
        show(&from_serde.to_vec()),
        show(&expected)
    );
    let expected = serde_json::to_vec_pretty(&theirs).expect("a Value always serializes");
    assert!(
        from_serde.to_vec_pretty() == expected,
        "{}: pretty bytes {} vs serde_json {}",
        show(data),
        show(&from_serde.to_vec_pretty()),
        show(&expected)
    );
}

/// [`write_raw`] of `data` is `ours` (its parse) written compact, in every escape mode.
fn rewritten_as_parsed(data: &[u8], ours: &Value<'_>) {
    for mode in [EscapeMode::Minimal, EscapeMode::Ascii, EscapeMode::Html] {
        let mut written = Vec::new();
        ours.write(&mut written, &WriteOptions::new().escape(mode));
        let mut rewritten = Vec::new();
        write_raw(data, mode, BigInts::F64, &mut rewritten);
        assert!(
            rewritten == written,
            "{}: write_raw {mode:?} {} vs the parse written {}",
            show(data),
            show(&rewritten),
            show(&written)
        );
    }
}

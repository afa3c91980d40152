//! Dropping an `Engine` frees its codecs and their native code: engines made and dropped
//! with 2 000 varied schemas (each compiled natively in the background and run once) leave
//! resident memory flat.

// Native code cannot run under Miri.
#![cfg(not(miri))]

use std::time::Duration;

use jitson::engine::{BackendStatus, Engine};

mod memory_support;
use memory_support::rss;

/// Schema number `i`: an object with `1 + i % 4` properties of varied types and bounds
/// named after `i`, the first required.
fn schema(i: usize) -> String {
    let props: Vec<String> = (0..1 + i % 4)
        .map(|j| {
            let ty = match (i + j) % 4 {
                0 => format!(r#"{{"type": "integer", "maximum": {i}}}"#),
                1 => format!(r#"{{"type": "string", "maxLength": {}}}"#, 1 + i % 50),
                2 => r#"{"type": "array", "items": {"type": "number"}}"#.to_string(),
                _ => format!(r#"{{"enum": ["a{i}", "b{j}"]}}"#),
            };
            format!(r#""p{i}_{j}": {ty}"#)
        })
        .collect();
    format!(
        r#"{{"type": "object", "properties": {{{}}}, "required": ["p{i}_0"]}}"#,
        props.join(", ")
    )
}

/// Makes `rounds` engines of `per_round` schemas each (numbered from `first`), waits for
/// their native code (every tier), validates with every codec, and drops the engine.
fn engines(first: usize, rounds: usize, per_round: usize) {
    for round in 0..rounds {
        let engine = Engine::new();
        let base = first + round * per_round;
        let codecs: Vec<_> = (base..base + per_round)
            .map(|i| engine.compile_json(&schema(i)).expect("schema loads"))
            .collect();
        // Every tier, so that all of their code memory is reclaimed too.
        for codec in &codecs {
            codec.prepare_decode();
            codec.prepare_encode();
        }
        assert!(engine.wait_idle(Duration::from_secs(60)));
        for codec in &codecs {
            assert_eq!(codec.backend(), &BackendStatus::Native);
            assert!(
                codec.validate(b"{}").is_err(),
                "the first property is required"
            );
        }
        assert_eq!(engine.stats().native, per_round as u64);
    }
}

#[test]
fn dropping_engines_frees_their_codes_memory() {
    // Warm up allocator pools, the compile thread's stack and the ISA.
    engines(0, 2, 100);
    let before = rss();
    engines(1_000, 20, 100);
    let grown = rss().saturating_sub(before);
    println!("RSS grew by {grown} bytes over 2 000 schemas in 20 engines");
    assert!(grown < 5 << 20, "RSS grew by {grown} bytes");
}

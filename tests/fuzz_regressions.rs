//! Fuzz findings, one test per finding, named for what broke, with the (minimized) input
//! embedded. Each runs every target body on the input (fuzz/src/bodies, included by path),
//! plus a direct assertion of the fixed behaviour where there is one.

#[path = "../fuzz/src/bodies/mod.rs"]
mod bodies;

use jitson::value::{self, Bump, Value};

/// Runs every fuzz body on `input`.
fn every_body(input: &[u8]) {
    for (_, body) in bodies::TARGETS {
        body(input);
    }
}

/// `parse` (harness): serde_json reports "number out of range" for
/// `1.7976931348623158e308`, which correctly rounded is `f64::MAX`; jitson accepts it. The
/// oracle now treats serde_json's answer on such texts as no answer.
#[test]
fn serde_json_false_out_of_range_near_f64_max() {
    let input = br#"[1.7976931348623158e308], [1], -1, 101, "abcd",1E-5, 1e2]"#;
    every_body(input);
    every_body(&input[..24]);
    let arena = Bump::new();
    let parsed = value::parse(b"[1.7976931348623158e308]", &arena).expect("valid JSON");
    assert!(matches!(parsed[0], Value::F64(f) if f == f64::MAX));
}

/// `parse` (harness): the same serde_json error on a number followed by more
/// exponent-looking bytes; the oracle read the whole run `…e308e3` as the token. serde_json
/// reports the token's last byte, so the token now ends there.
#[test]
fn serde_json_false_out_of_range_followed_by_exponent_bytes() {
    every_body(b"1.7976931348623158e308e3}");
}

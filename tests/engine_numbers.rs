//! Number checks on both backends: native code reads numbers with the number kernel and
//! compares bounds inline, handing what it cannot decide to the interpreter's reader. On
//! tokens at, around and far from every kind of bound (integer and float bounds, exclusive
//! ones, bounds beyond 2^53, `-0`, big integers under each policy, out-of-range floats,
//! broken tokens), validate, collect-all validate, decode and encode give identical results
//! and errors on the interpreter and on native code, and valid documents decode to
//! serde_json's values.

// Native code does not run under Miri.
#![cfg(not(miri))]

use jitson::engine::{Backend, BigInts, Cache, Options};
use jitson::{Codec, Schema};

/// Number schemas with every shape of check the inline code meets or leaves to the helper.
const CHECKS: &[&str] = &[
    r#"{"type": "number"}"#,
    r#"{"type": "integer"}"#,
    r#"{"type": "number", "minimum": -90, "maximum": 90}"#,
    r#"{"type": "number", "minimum": -180.5, "maximum": 180.25}"#,
    r#"{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}"#,
    r#"{"type": "number", "exclusiveMinimum": -0.5, "maximum": 1e300}"#,
    r#"{"type": "integer", "minimum": 0}"#,
    r#"{"type": "integer", "minimum": -3, "exclusiveMaximum": 9007199254740992}"#,
    r#"{"type": "integer", "maximum": 9007199254740993}"#,
    r#"{"type": "number", "minimum": 0.0}"#,
    r#"{"type": "number", "maximum": -0.0}"#,
    r#"{"type": "number", "exclusiveMinimum": 0.0}"#,
    r#"{"type": "number", "minimum": 1, "multipleOf": 0.5}"#,
    r#"{"type": "number", "maximum": 1.7976931348623157e308}"#,
];

/// Tokens around the bounds above (and broken ones).
const TOKENS: &[&str] = &[
    "0",
    "-0",
    "0.0",
    "-0.0",
    "0e0",
    "-0e-5",
    "1",
    "-1",
    "1.0",
    "0.5",
    "-0.5",
    "-0.50000000000000001",
    "0.99999999999999999",
    "1.00000000000000001",
    "90",
    "90.0",
    "90.00000000000001",
    "89.99999999999999",
    "-90",
    "-90.000000000000001",
    "-90.00000000000002",
    "180.25",
    "180.2500000000001",
    "-180.5",
    "-180.50000000000003",
    "-65.613616999999977",
    "43.420273000000009",
    "9007199254740991",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740992",
    "-9007199254740993",
    "9007199254740992.0",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "1e300",
    "1.0000000000000001e300",
    "1e308",
    "1.7976931348623157e308",
    "1.7976931348623159e308",
    "1e400",
    "-1e400",
    "4.9e-324",
    "1e-400",
    "2.5",
    "3",
    "-",
    "1.",
    "1e",
    "01",
    "-x",
    "1.5e+",
    "\"1\"",
    "true",
    "null",
];

fn codec(schema: &Schema, big_ints: BigInts, backend: Backend) -> Codec {
    Codec::with_options(schema, Options::new().big_ints(big_ints).backend(backend))
}

/// Decode then encode: the value as serde_json sees it and the bytes written again.
fn decoded(
    codec: &Codec,
    cache: &mut Cache,
    input: &[u8],
) -> Result<(serde_json::Value, Vec<u8>), String> {
    codec
        .decode_with(cache, input)
        .map(|doc| {
            let mut out = Vec::new();
            codec.encode(&doc, &mut out);
            (doc.to_serde_json(), out)
        })
        .map_err(|e| e.to_string())
}

/// Every check on every token, alone and inside an array and an object, under every
/// policy: the two backends agree exactly, and validate accepts what decode accepts.
#[test]
fn inline_number_checks_match_the_interpreter() {
    let mut accepted = 0;
    for check in CHECKS {
        let doc = format!(
            r#"{{"type": "object", "properties": {{"n": {check}, "list": {{"type": "array", "items": {check}}}}}}}"#
        );
        let schema = Schema::from_json_str(&doc).expect("schema loads");
        let item = Schema::from_json_str(check).expect("schema loads");
        for big_ints in [BigInts::F64, BigInts::Error, BigInts::Raw] {
            for schema in [&schema, &item] {
                let interp = codec(schema, big_ints, Backend::Interpreter);
                let native = codec(schema, big_ints, Backend::Native);
                let (mut a, mut b) = (Cache::new(), Cache::new());
                for token in TOKENS {
                    let inputs = [
                        token.to_string(),
                        format!(r#"{{"n": {token}, "list": [1, {token}, {token} ]}}"#),
                        format!(r#"{{"list": [{token}]}}"#),
                        format!(" {token}"),
                        // Sixteen bytes after the token: the kernels' word-at-a-time reads.
                        format!(r#"{{"n": {token}               }}"#),
                    ];
                    for input in &inputs {
                        let bytes = input.as_bytes();
                        let expected = interp.validate_with(&mut a, bytes);
                        let context = format!("{check} {big_ints:?} on {input}");
                        assert_eq!(native.validate_with(&mut b, bytes), expected, "{context}");
                        assert_eq!(
                            native.validate_all_with(&mut b, bytes, 10),
                            interp.validate_all_with(&mut a, bytes, 10),
                            "{context}"
                        );
                        let value = decoded(&interp, &mut a, bytes);
                        assert_eq!(decoded(&native, &mut b, bytes), value, "{context}");
                        // Validate steps over numbers that certainly pass with the bounds
                        // kernel on both backends; decode reads every value exactly.
                        assert_eq!(
                            expected.is_ok(),
                            value.is_ok(),
                            "{context}: validate and decode disagree"
                        );
                        if let Ok((value, _)) = value {
                            accepted += 1;
                            if big_ints == BigInts::F64 {
                                let reference: serde_json::Value =
                                    serde_json::from_slice(bytes).expect("serde_json reads it");
                                assert_eq!(value, reference, "{context}");
                            }
                        }
                    }
                }
            }
        }
    }
    // The tokens exercise both outcomes.
    assert!(accepted > 1_000, "{accepted}");
}

/// Regression: a token whose exponent cancels a million digits (`1000…000e-1000000`, the
/// value 1) was out of range, and `0.000…001e1000001` was 0: the float kernel's reference
/// path read long tokens with `core`'s reader, which stops accumulating exponent digits past
/// 65 536. Both backends now read them as serde_json does.
#[test]
fn an_exponent_that_cancels_a_million_digits() {
    let zeros = "0".repeat(1_000_000);
    let tokens = [
        format!("1{zeros}e-1000000"),
        format!("0.{zeros}1e1000001"),
        format!("-1{zeros}E-1000000"),
    ];
    let schema = Schema::from_json_str(r#"{"type": "array", "items": {"maximum": 2}}"#)
        .expect("schema loads");
    for token in &tokens {
        let input = format!("[{token}]");
        let reference: serde_json::Value =
            serde_json::from_str(&input).expect("serde_json reads it");
        assert_eq!(reference[0].as_f64().map(f64::abs), Some(1.0));
        for backend in [Backend::Interpreter, Backend::Native] {
            let codec = codec(&schema, BigInts::F64, backend);
            let mut cache = Cache::new();
            assert_eq!(codec.validate_with(&mut cache, input.as_bytes()), Ok(()));
            let (value, _) = decoded(&codec, &mut cache, input.as_bytes()).expect("decodes");
            assert_eq!(value, reference, "{backend:?}");
        }
        let arena = jitson::value::Bump::new();
        let value = jitson::value::parse(input.as_bytes(), &arena).expect("parses");
        assert_eq!(value[0].as_f64(), reference[0].as_f64());
    }
}

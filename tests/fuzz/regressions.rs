//! Fuzz findings, one test per finding, named for what broke, with the (minimized) input
//! embedded. Each runs every target body on the input, plus a direct assertion of the fixed
//! behaviour where there is one.

use jitson::value::{self, Bump, Value};

use crate::bodies;

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

/// `parse` (harness): with its `raw_value` feature (on: jitson enables it) serde_json's
/// `Value` takes an object whose first key is `$serde_json::private::RawValue` for a raw
/// value: it fails on any other member value ("expected raw value") and reads a string
/// member as JSON text. jitson reads a member. The oracle now gives no answer on texts with
/// such a key, however escaped. Found on a 316-byte text whose control character jitson
/// reported where serde_json stopped at the key's array; the error location of a schema
/// failure had the same root cause (`tests/errors.rs`,
/// `the_outcome_named_is_the_one_the_engine_took`).
#[test]
fn serde_json_private_raw_value_key() {
    let control = b"[{\"$serde_json::private::RawValue\": [{\"a\": \"\x01\"}]}]";
    let string = br#"{"$serde_json::private::RawValue": "[1, 2]"}"#;
    let escaped = br#"{"\u0024serde_json::private::RawValue": "[1]"}"#;
    for input in [&control[..], string, escaped] {
        every_body(input);
    }
    let arena = Bump::new();
    let parsed = value::parse(string, &arena).expect("valid JSON");
    let member = parsed.get("$serde_json::private::RawValue");
    assert!(matches!(member, Some(Value::String(s)) if s.as_str() == "[1, 2]"));
}

/// `schema_decode`: a `{}` value's `to_serde_json` read the raw text with
/// `serde_json::from_slice`, whose default float parsing is not correctly rounded
/// (`2.2250738585072011e-308`, `1.000…0000000000011102230246251565404236316680908203125`),
/// while encode writes jitson's correctly rounded floats: decode → encode → decode changed the
/// value. Raw values are now read by jitson's own parser. (In this workspace serde_json is
/// built with `float_roundtrip` through a dev-dependency, so only the fuzz build, which is
/// not, showed it; the direct assertion holds in both.)
#[test]
fn raw_value_floats_converted_by_serde_json_rounding() {
    let input = br#"[2.2250738585072011e-308, 1.00000000000000011102230246251565404236316680908203125, 123456789012345678901234567890]"#;
    every_body(input);
    let schema = jitson::Schema::from_json_str("{}").expect("schema");
    let doc = jitson::Codec::new(&schema).decode(input).expect("valid");
    let correctly_rounded: Vec<f64> = [
        "2.2250738585072011e-308",
        "1.00000000000000011102230246251565404236316680908203125",
        "123456789012345678901234567890",
    ]
    .iter()
    .map(|t| t.parse().expect("float"))
    .collect();
    assert_eq!(doc.to_serde_json(), serde_json::json!(correctly_rounded));
}

/// `schema_validate`: a non-string `enum` read the value's text with
/// `serde_json::from_slice`, which without `float_roundtrip` reads `1.000000000000000085` as
/// `1.0000000000000002`, so `[1.000000000000000085]` failed `enum: [1, 1.5]` while the
/// engine reads that token as `1.0` everywhere else (decode, bounds). Schema documents were
/// read the same way, so an `enum` or bound written with such a number compared against
/// another value than the documents' own. Both now read numbers with jitson's parser. (As
/// above, this workspace builds serde_json with `float_roundtrip`; the fuzz build, which does
/// not, showed it, and fails without the fix.)
#[test]
fn enum_values_read_by_serde_json_rounding() {
    let input = b"[1.000000000000000085]\n";
    every_body(input);
    let schema = |text: &str| jitson::Schema::from_json_str(text).expect("schema");
    let enums = jitson::Codec::new(&schema(r#"{"type": "array", "items": {"enum": [1, 1.5]}}"#));
    assert_eq!(enums.validate(input), Ok(()));
    let written = jitson::Codec::new(&schema(r#"{"enum": [1.000000000000000085]}"#));
    assert_eq!(written.validate(b"1"), Ok(()));
}

//! Integers beyond the 64-bit ranges under each [`BigInts`] policy, through the codec:
//! decode (values, accessors, `serde_json` conversion), encode, transcode, validate (bounds,
//! exclusive ones, `multipleOf`, `type: integer`, `enum` / `const`) with exact results and
//! messages, in objects, arrays, maps
//! and `{}` values, on the interpreter and on native code alike.

use jitson::engine::{Backend, BigInts, Options, TranscodeOptions};
use jitson::{Codec, Schema};
use serde_json::Value;

/// Named integer fields, an integer map, an integer array and an any-JSON value.
const SHAPES: &str = r#"{"type": "object", "properties": {
    "n": {"type": "integer"},
    "m": {"type": "object", "additionalProperties": {"type": "integer"}},
    "list": {"type": "array", "items": {"type": "integer"}},
    "any": {}}}"#;

fn codec(schema: &str, big_ints: BigInts) -> Codec {
    let schema = Schema::from_json_str(schema).expect("schema loads");
    Codec::with_options(&schema, Options::new().big_ints(big_ints))
}

/// The codec on both backends: validate must agree exactly; returns the interpreter's.
fn validate(schema: &str, big_ints: BigInts, input: &str) -> Outcome {
    let interp = codec(schema, big_ints);
    let schema = Schema::from_json_str(schema).expect("schema loads");
    let native = Codec::with_options(
        &schema,
        Options::new().big_ints(big_ints).backend(Backend::Native),
    );
    let ours = interp.validate(input.as_bytes()).map_err(|e| e.to_string());
    let theirs = native.validate(input.as_bytes()).map_err(|e| e.to_string());
    assert_eq!(
        ours, theirs,
        "interpreter vs native on {input} ({big_ints:?})"
    );
    ours
}

/// A validation's result, the error as its message.
type Outcome = Result<(), String>;

fn hundred_digits() -> String {
    format!("1{}", "0".repeat(99))
}

fn big_document() -> String {
    let h = hundred_digits();
    format!(
        r#"{{"n": 18446744073709551616, "m": {{"k": -9223372036854775809, "j": -0}}, "list": [1, 18446744073709551616, {h}], "any": {{"x": [18446744073709551617, -{h}, -0, 1.0]}}, "extra": 18446744073709551617}}"#
    )
}

#[test]
fn raw_decodes_exact_digits() {
    let codec = codec(SHAPES, BigInts::Raw);
    let input = big_document();
    let doc = codec.decode(input.as_bytes()).expect("decodes");
    assert_eq!(doc.big_ints(), BigInts::Raw);
    let text = |p: &str| {
        doc.pointer(p)
            .and_then(|v| v.as_big_int())
            .map(|b| b.as_str())
    };
    assert_eq!(text("/n"), Some("18446744073709551616"));
    assert_eq!(text("/m/k"), Some("-9223372036854775809"));
    assert_eq!(text("/list/1"), Some("18446744073709551616"));
    assert_eq!(text("/list/2"), Some(hundred_digits().as_str()));
    assert_eq!(text("/list/0"), None);
    assert_eq!(doc.pointer("/list/0").and_then(|v| v.as_u64()), Some(1));
    assert_eq!(
        doc.pointer("/m/j")
            .and_then(|v| v.as_f64())
            .map(f64::to_bits),
        Some((-0.0f64).to_bits())
    );
    assert_eq!(doc.pointer("/n").and_then(|v| v.as_u64()), None);
    assert_eq!(
        doc.pointer("/n").and_then(|v| v.as_f64()),
        Some(18446744073709551616.0)
    );
    assert_eq!(doc.pointer("/list/2").and_then(|v| v.as_f64()), Some(1e99));
    // `{}` values keep their raw text; unknown members are raw too.
    let any = doc.pointer("/any").and_then(|v| v.raw()).expect("raw");
    assert!(any.starts_with(br#"{"x": [18446744073709551617, -1000"#));
    assert_eq!(
        doc.pointer("/extra").and_then(|v| v.raw()),
        Some(&b"18446744073709551617"[..])
    );
    // To serde_json: what serde_json (no arbitrary_precision) reads from the same text.
    let theirs: Value = serde_json::from_str(&input).expect("serde_json parses");
    assert_eq!(doc.to_serde_json(), theirs);
    assert_eq!(
        doc.to_serde_json()["n"],
        Value::from(18446744073709551616.0)
    );
}

#[test]
fn raw_encodes_and_transcodes_verbatim() {
    let codec = codec(SHAPES, BigInts::Raw);
    let input = big_document();
    let h = hundred_digits();
    let doc = codec.decode(input.as_bytes()).expect("decodes");
    let mut out = Vec::new();
    codec.encode(&doc, &mut out);
    let expected = format!(
        r#"{{"n":18446744073709551616,"m":{{"k":-9223372036854775809,"j":-0.0}},"list":[1,18446744073709551616,{h}],"any":{{"x":[18446744073709551617,-{h},-0.0,1.0]}},"extra":18446744073709551617}}"#
    );
    assert_eq!(String::from_utf8(out).unwrap(), expected);
    let mut out = Vec::new();
    codec
        .transcode(input.as_bytes(), &TranscodeOptions::default(), &mut out)
        .expect("transcodes");
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

#[test]
fn f64_reads_the_nearest_float() {
    let codec = codec(SHAPES, BigInts::F64);
    let input = big_document();
    let doc = codec.decode(input.as_bytes()).expect("decodes");
    assert_eq!(doc.pointer("/n").and_then(|v| v.as_big_int()), None);
    assert_eq!(
        doc.pointer("/n").and_then(|v| v.as_f64()),
        Some(18446744073709551616.0)
    );
    let theirs: Value = serde_json::from_str(&input).expect("serde_json parses");
    assert_eq!(doc.to_serde_json(), theirs);
    let mut out = Vec::new();
    codec.encode(&doc, &mut out);
    let reparsed: Value = serde_json::from_slice(&out).expect("encode writes JSON");
    assert_eq!(reparsed, theirs);
    assert!(
        String::from_utf8(out)
            .unwrap()
            .starts_with(r#"{"n":1.8446744073709552e+19,"#)
    );
    let mut out = Vec::new();
    codec
        .transcode(
            b"[18446744073709551616]",
            &TranscodeOptions::default(),
            &mut out,
        )
        .unwrap_err();
    codec
        .transcode(
            br#"{"any": [18446744073709551616]}"#,
            &TranscodeOptions::default(),
            &mut out,
        )
        .expect("transcodes");
    assert_eq!(out, br#"{"any":[1.8446744073709552e+19]}"#);
}

#[test]
fn error_rejects_big_integers_everywhere() {
    let cases = [
        (
            r#"{"n": 18446744073709551616}"#,
            "line 1 column 26, path $.n",
        ),
        (
            r#"{"m": {"k": -9223372036854775809}}"#,
            "line 1 column 32, path $.m.k",
        ),
        (
            r#"{"list": [0, 18446744073709551616]}"#,
            "line 1 column 33, path $.list[1]",
        ),
        (
            r#"{"any": {"x": [18446744073709551616]}}"#,
            "line 1 column 35, path $.any.x[0]",
        ),
        (
            r#"{"extra": -9223372036854775809}"#,
            "line 1 column 30, path $.extra",
        ),
    ];
    let codec = codec(SHAPES, BigInts::Error);
    for (input, at) in cases {
        let expected = format!("number out of range at {at}");
        assert_eq!(
            validate(SHAPES, BigInts::Error, input),
            Err(expected.clone()),
            "{input}"
        );
        let e = codec.decode(input.as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), expected, "{input}");
        let e = codec
            .transcode(
                input.as_bytes(),
                &TranscodeOptions::default(),
                &mut Vec::new(),
            )
            .unwrap_err();
        assert_eq!(e.to_string(), expected, "{input}");
        for ok in [BigInts::F64, BigInts::Raw] {
            assert_eq!(validate(SHAPES, ok, input), Ok(()), "{input} {ok:?}");
        }
    }
    // The 64-bit extremes are not big.
    let edges = r#"{"n": 18446744073709551615, "list": [-9223372036854775808], "any": [18446744073709551615, -9223372036854775808, -0]}"#;
    assert_eq!(validate(SHAPES, BigInts::Error, edges), Ok(()));
}

#[test]
fn leading_zeros_stay_errors() {
    for big_ints in [BigInts::F64, BigInts::Error, BigInts::Raw] {
        for (input, at) in [
            (r#"{"n": 018446744073709551616}"#, "column 8"),
            (r#"{"any": [-018446744073709551616]}"#, "column 12"),
        ] {
            let e = validate(SHAPES, big_ints, input).unwrap_err();
            assert!(e.starts_with("invalid number at line 1 "), "{e}");
            assert!(e.contains(at), "{e} {at}");
        }
    }
}

/// `(schema, input, F64 result, Raw result)`: bounds and `multipleOf` are exact under Raw,
/// decided on the nearest `f64` under F64.
#[test]
fn bounds_and_multiples_at_and_around_two_to_the_64() {
    let max = r#"{"type": "integer", "maximum": 18446744073709551616}"#;
    let xmax = r#"{"type": "number", "exclusiveMaximum": 18446744073709551616}"#;
    let min = r#"{"type": "integer", "minimum": -9223372036854775808}"#;
    let xmin = r#"{"type": "number", "exclusiveMinimum": 18446744073709551615}"#;
    let three = r#"{"type": "integer", "multipleOf": 3}"#;
    let ixmax = r#"{"type": "integer", "exclusiveMaximum": 18446744073709551616}"#;
    let ixmin = r#"{"type": "integer", "exclusiveMinimum": 18446744073709551616}"#;
    let ixmax_low = r#"{"type": "integer", "exclusiveMaximum": -9223372036854775808}"#;
    let ixmax_u64 = r#"{"type": "integer", "exclusiveMaximum": 18446744073709551615}"#;
    let ixmin_frac = r#"{"type": "integer", "exclusiveMinimum": 5.5, "minimum": 2}"#;
    let half = r#"{"type": "integer", "multipleOf": 0.5}"#;
    let above = "number above the maximum at line 1 column 1, path $, keyword maximum";
    let not_below = "number not below the exclusive maximum at line 1 column 1, path $, keyword exclusiveMaximum";
    let below = "number below the minimum at line 1 column 1, path $, keyword minimum";
    let not_above = "number not above the exclusive minimum at line 1 column 1, path $, keyword exclusiveMinimum";
    let multiple =
        "number is not a multiple of multipleOf at line 1 column 1, path $, keyword multipleOf";
    let ok = Ok(());
    let err = |m: &str| Err(m.to_owned());
    let h = hundred_digits();
    let cases: Vec<(&str, String, Outcome, Outcome)> = vec![
        (max, "18446744073709551615".into(), ok.clone(), ok.clone()),
        (max, "18446744073709551616".into(), ok.clone(), ok.clone()),
        (max, "18446744073709551617".into(), ok.clone(), err(above)),
        (max, h.clone(), err(above), err(above)),
        (xmax, "18446744073709551615".into(), ok.clone(), ok.clone()),
        (
            xmax,
            "18446744073709551616".into(),
            err(not_below),
            err(not_below),
        ),
        (
            xmax,
            "18446744073709551617".into(),
            err(not_below),
            err(not_below),
        ),
        (min, "-9223372036854775808".into(), ok.clone(), ok.clone()),
        (min, "-9223372036854775809".into(), ok.clone(), err(below)),
        (min, format!("-{h}"), err(below), err(below)),
        (
            xmin,
            "18446744073709551615".into(),
            err(not_above),
            err(not_above),
        ),
        (xmin, "18446744073709551616".into(), ok.clone(), ok.clone()),
        (
            three,
            "18446744073709551617".into(),
            err(multiple),
            err(multiple),
        ),
        (
            three,
            "18446744073709551618".into(),
            err(multiple),
            ok.clone(),
        ),
        (
            three,
            "-9223372036854775809".into(),
            err(multiple),
            ok.clone(),
        ),
        (
            three,
            "-9223372036854775810".into(),
            err(multiple),
            err(multiple),
        ),
        (three, format!("{h}2"), err(multiple), ok.clone()),
        (half, "18446744073709551617".into(), ok.clone(), ok.clone()),
        // Exclusive bounds of an `integer` schema stay exclusive, exact beyond 64 bits.
        (ixmax, "18446744073709551615".into(), ok.clone(), ok.clone()),
        (
            ixmax,
            "18446744073709551616".into(),
            err(not_below),
            err(not_below),
        ),
        (
            ixmax,
            "18446744073709551617".into(),
            err(not_below),
            err(not_below),
        ),
        (
            ixmin,
            "18446744073709551615".into(),
            err(not_above),
            err(not_above),
        ),
        (
            ixmin,
            "18446744073709551616".into(),
            err(not_above),
            err(not_above),
        ),
        (
            ixmin,
            "18446744073709551617".into(),
            err(not_above),
            ok.clone(),
        ),
        (ixmin, "18446744073709555712".into(), ok.clone(), ok.clone()),
        (ixmin, h.clone(), ok.clone(), ok.clone()),
        (
            ixmax_low,
            "-9223372036854775807".into(),
            err(not_below),
            err(not_below),
        ),
        (
            ixmax_low,
            "-9223372036854775808".into(),
            err(not_below),
            err(not_below),
        ),
        (
            ixmax_low,
            "-9223372036854775809".into(),
            err(not_below),
            ok.clone(),
        ),
        (ixmax_low, format!("-{h}"), ok.clone(), ok.clone()),
        (
            ixmax_u64,
            "18446744073709551614".into(),
            ok.clone(),
            ok.clone(),
        ),
        (
            ixmax_u64,
            "18446744073709551615".into(),
            err(not_below),
            err(not_below),
        ),
        (ixmin_frac, "5".into(), err(not_above), err(not_above)),
        (ixmin_frac, "6".into(), ok.clone(), ok.clone()),
    ];
    for (schema, input, f64s, raw) in cases {
        assert_eq!(
            validate(schema, BigInts::F64, &input),
            f64s,
            "{schema} {input} F64"
        );
        assert_eq!(
            validate(schema, BigInts::Raw, &input),
            raw,
            "{schema} {input} Raw"
        );
    }
}

#[test]
fn type_integer_accepts_big_integers() {
    let h = hundred_digits();
    for big_ints in [BigInts::F64, BigInts::Raw] {
        for input in ["18446744073709551616", "-9223372036854775809", &h] {
            assert_eq!(validate(r#"{"type": "integer"}"#, big_ints, input), Ok(()));
            let text = format!("[{input}, 1.5]");
            assert_eq!(
                validate(r#"{"items": {"type": "integer"}}"#, big_ints, &text),
                Err(
                    "expected integer, found number at line 1 column 3, path $[1], keyword type"
                        .replace("column 3", &format!("column {}", input.len() + 4))
                ),
            );
        }
    }
    // Beyond `f64`, only Raw reads an integer.
    let huge = "9".repeat(400);
    assert_eq!(
        validate(r#"{"type": "integer"}"#, BigInts::F64, &huge),
        Err("number out of range at line 1 column 400, path $".to_owned())
    );
    assert_eq!(
        validate(r#"{"type": "integer"}"#, BigInts::Raw, &huge),
        Ok(())
    );
    let doc = codec(r#"{"type": "integer"}"#, BigInts::Raw)
        .decode(huge.as_bytes())
        .expect("decodes");
    assert_eq!(doc.root().as_f64(), Some(f64::INFINITY));
    assert_eq!(doc.to_serde_json(), Value::String(huge.clone()));
}

/// An `integer` schema's exclusive bounds are reported as such, with their schema pointer,
/// under every policy and on both backends; `minimum` next to a weaker exclusive bound wins.
#[test]
fn exclusive_integer_bounds_name_their_keyword() {
    let schema = r#"{"type": "object", "properties": {
        "lo": {"type": "integer", "exclusiveMinimum": -1},
        "hi": {"type": "integer", "exclusiveMaximum": 10, "maximum": 12},
        "both": {"type": "integer", "minimum": 3, "exclusiveMinimum": 1}}}"#;
    let cases = [
        (
            r#"{"lo": -1}"#,
            "lo",
            "exclusiveMinimum",
            "not above the exclusive minimum",
            8,
        ),
        (
            r#"{"hi": 10}"#,
            "hi",
            "exclusiveMaximum",
            "not below the exclusive maximum",
            8,
        ),
        (r#"{"both": 2}"#, "both", "minimum", "below the minimum", 10),
    ];
    for big_ints in [BigInts::F64, BigInts::Error, BigInts::Raw] {
        for (input, field, keyword, what, column) in cases {
            let message = format!(
                "number {what} at line 1 column {column}, path $.{field}, keyword {keyword}"
            );
            assert_eq!(validate(schema, big_ints, input), Err(message));
            let e = codec(schema, big_ints)
                .validate(input.as_bytes())
                .unwrap_err();
            let pointer = format!("/properties/{field}/{keyword}");
            assert_eq!(e.schema_pointer(), Some(pointer.as_str()));
        }
        assert_eq!(
            validate(schema, big_ints, r#"{"lo": 0, "hi": 9, "both": 3}"#),
            Ok(())
        );
    }
}

/// `enum` / `const` numbers: a big integer kept raw compares by its digits; under F64 it
/// is its nearest `f64`, as `serde_json` reads it.
#[test]
fn enum_and_const_with_big_integers() {
    let two_64 = r#"{"const": 18446744073709551616}"#;
    let list = r#"{"enum": ["a", 1, 18446744073709551616, -9223372036854775808]}"#;
    let not_one = "value is not one of the allowed values at line 1 column 1, path $, keyword enum";
    let ok = Ok(());
    let err = Err(not_one.to_owned());
    let cases: Vec<(&str, &str, Outcome, Outcome)> = vec![
        (two_64, "18446744073709551616", ok.clone(), ok.clone()),
        (two_64, "18446744073709551617", ok.clone(), err.clone()),
        (two_64, "18446744073709551615", err.clone(), err.clone()),
        (two_64, "1.8446744073709552e19", ok.clone(), ok.clone()),
        (list, "18446744073709551616", ok.clone(), ok.clone()),
        (list, "18446744073709551617", ok.clone(), err.clone()),
        (list, "-9223372036854775808", ok.clone(), ok.clone()),
        (list, "-9223372036854775809", ok.clone(), err.clone()),
        (list, "1", ok.clone(), ok.clone()),
        (list, "1.0", ok.clone(), ok.clone()),
        (list, "\"a\"", ok.clone(), ok.clone()),
        (list, "2", err.clone(), err.clone()),
    ];
    for (schema, input, f64s, raw) in cases {
        assert_eq!(
            validate(schema, BigInts::F64, input),
            f64s,
            "{schema} {input} F64"
        );
        assert_eq!(
            validate(schema, BigInts::Raw, input),
            raw,
            "{schema} {input} Raw"
        );
    }
}

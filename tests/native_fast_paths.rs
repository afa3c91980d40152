//! The native backend's fast paths against the interpreter, at their edges: short strings
//! scanned inline (every special byte at every position of bodies around the 16-byte
//! window, bodies ending at the end of the input), whitespace runs skipped inline, and the
//! helpers' fast paths for checked strings (lengths counted in code points, patterns),
//! string enumerations (near misses) and bounded numbers (bounds at ±1, exclusive bounds,
//! `multipleOf`). Validate and decode must give exactly the interpreter's results.

#![cfg(not(miri))]

#[path = "../jit/tests/native_support/mod.rs"]
mod native_support;

use jitson::Schema;
use jitson::jit::ir::{ExecOptions, Program};
use jitson::jit::native::{self, NativeCode};
use jitson::resolve::resolve;
use native_support::{assert_same, assert_same_decode, mutations};

fn compiled(schema: &str) -> (Program, NativeCode) {
    let schema = Schema::from_json_slice(schema.as_bytes()).expect("schema loads");
    let program = resolve(&schema);
    let code = native::compile(&program).unwrap_or_else(|e| panic!("{e}\n{program}"));
    (program, code)
}

fn agree(program: &Program, code: &NativeCode, input: &[u8]) {
    let options = ExecOptions::default();
    assert_same(program, code, input, &options);
    assert_same_decode(program, code, input, &options);
}

/// `input`, every prefix of it, and a few seeded mutations.
fn agree_around(program: &Program, code: &NativeCode, input: &[u8], mutants: usize) {
    for end in 0..=input.len() {
        agree(program, code, &input[..end]);
    }
    for m in mutations(input, mutants, input.len() as u64) {
        agree(program, code, &m);
    }
}

/// Bytes placed at every position of plain string bodies: the scan's stops (quote,
/// backslash escapes, control bytes), non-ASCII (valid, truncated, invalid) and ordinary
/// punctuation.
const SPECIALS: &[&[u8]] = &[
    b"\"",
    b"\\n",
    b"\\\"",
    b"\\u00e9",
    b"\\",
    b"\x01",
    b"\x1f",
    b"\xc3\xa9",
    b"\xe2\x82\xac",
    b"\xc3",
    b"\xff",
    b"\x7f",
    b" ",
];

#[test]
fn short_strings_at_every_position_and_length() {
    let (array, array_code) = compiled(r#"{"type": "array", "items": {"type": "string"}}"#);
    let (root, root_code) = compiled(r#"{"type": "string"}"#);
    for len in 0..=40 {
        for pos in 0..=len {
            for special in SPECIALS {
                let mut body = vec![b'a'; len];
                body.splice(pos..pos, special.iter().copied());
                let mut doc = b"[\"".to_vec();
                doc.extend_from_slice(&body);
                doc.extend_from_slice(b"\", \"x\"]");
                agree(&array, &array_code, &doc);
                // The string as the whole input: its closing quote is the input's last
                // byte, or missing.
                let mut lone = b"\"".to_vec();
                lone.extend_from_slice(&body);
                agree(&root, &root_code, &lone);
                lone.push(b'"');
                agree(&root, &root_code, &lone);
            }
        }
    }
}

#[test]
fn whitespace_runs_of_every_length() {
    let (program, code) = compiled(
        r#"{"type": "object", "properties": {"a": {"type": "array", "items": {"type": "integer"}}}}"#,
    );
    for len in 0..=40 {
        for filler in [&b" "[..], b"\n", b"\t", b"\r\n  ", b"  \x0b"] {
            let ws: Vec<u8> = filler.iter().copied().cycle().take(len).collect();
            let ws = String::from_utf8(ws).expect("ASCII");
            let doc = format!("{ws}{{{ws}\"a\"{ws}:{ws}[{ws}1{ws},{ws}2{ws}]{ws}}}{ws}");
            agree(&program, &code, doc.as_bytes());
            // The document ends inside the whitespace run.
            agree(&program, &code, format!("{{\"a\": [1,{ws}").as_bytes());
        }
    }
}

const CHECKED: &str = r#"{
    "type": "object",
    "properties": {
        "s": {"type": "string", "minLength": 2, "maxLength": 4},
        "p": {"type": "string", "pattern": "^[0-9]+$"},
        "q": {"type": "string", "pattern": "^[A-Z][a-z]{2} [0-9]{2}$", "maxLength": 6},
        "e": {"type": "string", "enum": ["red", "gr\u00e9en", "", "reds"]},
        "i": {"type": "integer", "minimum": -3, "maximum": 7},
        "x": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10},
        "f": {"type": "number", "minimum": 1.5, "multipleOf": 0.5},
        "u": {"type": "integer", "minimum": 18446744073709551610}
    }
}"#;

#[test]
fn checked_strings_enums_and_bounded_numbers() {
    let (program, code) = compiled(CHECKED);
    let values: &[(&str, &[&str])] = &[
        (
            "s",
            &[
                r#""""#,
                r#""a""#,
                r#""ab""#,
                r#""abcd""#,
                r#""abcde""#,
                r#""\u00e9\u00e9""#,
                "\"\u{e9}\u{e9}\u{e9}\u{e9}\"",
                "\"\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\"",
                "\"\u{1f600}\u{1f600}\"",
                r#""a\nb""#,
                r#""a\""#,
                "\"a\x01b\"",
                "\"a\u{7f}b\"",
                "7",
                "null",
            ],
        ),
        (
            "p",
            &[
                r#""0""#,
                r#""""#,
                r#""123456789012345678901234567890""#,
                r#""12a""#,
                r#""\u0031""#,
                r#""1 ""#,
                "\"\u{661}\"",
                "12",
            ],
        ),
        (
            "q",
            &[
                r#""Mon 01""#,
                r#""mon 01""#,
                r#""Mon 1""#,
                r#""Mon 012""#,
                r#""Mon\u002001""#,
            ],
        ),
        (
            "e",
            &[
                r#""red""#,
                r#""re""#,
                r#""redd""#,
                r#""reds""#,
                r#""Red""#,
                r#""""#,
                "\"gr\u{e9}en\"",
                r#""gr\u00e9en""#,
                r#""gre\u0301en""#,
                r#""r\u0065d""#,
                "1",
                "[\"red\"]",
            ],
        ),
        (
            "i",
            &[
                "-4",
                "-3",
                "-2",
                "0",
                "6",
                "7",
                "8",
                "7.0",
                "7.5",
                "-3e0",
                "1e1",
                "-0",
                "99999999999999999999",
            ],
        ),
        ("x", &["-1", "0", "1", "9", "10", "11", "0.5", "9.0", "1e0"]),
        (
            "f",
            &[
                "1",
                "1.5",
                "2",
                "1.75",
                "2.5e0",
                "15e-1",
                "1.4999999",
                "1e308",
                "-2",
            ],
        ),
        (
            "u",
            &[
                "18446744073709551609",
                "18446744073709551610",
                "18446744073709551615",
                "18446744073709551616",
                "1",
            ],
        ),
    ];
    for (field, cases) in values {
        for value in *cases {
            for doc in [
                format!("{{\"{field}\": {value}}}"),
                format!("{{\"{field}\":{value} ,\"s\": \"abc\"}}"),
            ] {
                agree_around(&program, &code, doc.as_bytes(), 20);
            }
        }
    }
}

#[test]
fn checked_values_at_the_end_of_the_input() {
    for schema in [
        r#"{"type": "string", "minLength": 1, "maxLength": 3}"#,
        r#"{"type": "string", "enum": ["a", "ab"]}"#,
        r#"{"type": "integer", "exclusiveMaximum": 100}"#,
    ] {
        let (program, code) = compiled(schema);
        for input in [
            r#""""#,
            r#""a""#,
            r#""ab""#,
            r#""abcd""#,
            r#""a"#,
            "99",
            "100",
            "99 ",
            " 100",
        ] {
            agree_around(&program, &code, input.as_bytes(), 30);
        }
    }
}

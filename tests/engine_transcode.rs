//! Transcode: validated compact JSON in one pass, with unknown members kept / dropped /
//! denied, picks and redactions, tokens rewritten or verbatim; nothing written on error.

mod engine_support;
#[path = "value_support/mod.rs"]
mod value_support;

use engine_support::{
    BY_NAME_ITEMS, BY_NAME_SCHEMA, CORPUS, DEFAULT_BRANCH_ITEMS, DEFAULT_BRANCH_SCHEMA,
    PATTERN_ITEMS, PATTERN_SCHEMA, corpus_schema, suite_support, testdata,
};
use jitson::engine::{Backend, BigInts, EscapeMode, Options, Tokens, TranscodeOptions, Unknown};
use jitson::{Cache, Codec, Schema};
use jitson_kernels::minify::minify;
use serde_json::Value;

fn codec(schema: &str) -> Codec {
    Codec::new(&Schema::from_json_str(schema).unwrap())
}

fn run(codec: &Codec, input: &str, options: &TranscodeOptions) -> Result<String, String> {
    let mut out = b"prefix:".to_vec();
    match codec.transcode(input.as_bytes(), options, &mut out) {
        Ok(()) => Ok(String::from_utf8(out[7..].to_vec()).unwrap()),
        Err(e) => {
            assert_eq!(out, b"prefix:", "nothing written on error");
            Err(e.to_string())
        }
    }
}

const USER: &str = r#"{"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
    "tags": {"type": "array", "items": {"type": "string"}}, "meta": {"type": "object", "additionalProperties": {"type": "integer"}}},
    "required": ["id"]}"#;
const INPUT: &str = r#" { "x": {"deep": [1, 2.50]}, "id": 7, "name": "a\u0041", "tags": ["t1", "t2"], "meta": {"k": 1}, "y": null } "#;

#[test]
fn unknown_members_keep_drop_deny() {
    let c = codec(USER);
    let keep = run(&c, INPUT, &TranscodeOptions::new()).unwrap();
    assert_eq!(
        keep,
        r#"{"x":{"deep":[1,2.5]},"id":7,"name":"aA","tags":["t1","t2"],"meta":{"k":1},"y":null}"#
    );
    let drop = run(&c, INPUT, &TranscodeOptions::new().unknown(Unknown::Drop)).unwrap();
    assert_eq!(
        drop,
        r#"{"id":7,"name":"aA","tags":["t1","t2"],"meta":{"k":1}}"#
    );
    let deny = run(&c, INPUT, &TranscodeOptions::new().unknown(Unknown::Deny)).unwrap_err();
    assert_eq!(
        deny,
        "unknown field at line 1 column 4, path $.x, keyword additionalProperties"
    );
}

#[test]
fn pick_keeps_pointers_and_ancestors() {
    let c = codec(USER);
    let options = TranscodeOptions::new()
        .pick("/tags/1")
        .unwrap()
        .pick("/x")
        .unwrap();
    assert_eq!(
        run(&c, INPUT, &options).unwrap(),
        r#"{"x":{"deep":[1,2.5]},"tags":["t2"]}"#
    );
    let root = TranscodeOptions::new().pick("").unwrap();
    assert_eq!(run(&c, r#"{"id": 1}"#, &root).unwrap(), r#"{"id":1}"#);
    let none = TranscodeOptions::new().pick("/nothing").unwrap();
    assert_eq!(run(&c, r#"{"id": 1}"#, &none).unwrap(), r#"{}"#);
}

#[test]
fn redact_replaces_validated_values() {
    let c = codec(USER);
    let options = TranscodeOptions::new()
        .redact("/name")
        .unwrap()
        .redact("/tags/0")
        .unwrap()
        .replacement(&serde_json::json!("***"));
    assert_eq!(
        run(&c, INPUT, &options).unwrap(),
        r#"{"x":{"deep":[1,2.5]},"id":7,"name":"***","tags":["***","t2"],"meta":{"k":1},"y":null}"#
    );
    // A redacted value is still checked.
    let bad = r#"{"id": 1, "name": 5}"#;
    assert_eq!(
        run(&c, bad, &options).unwrap_err(),
        "expected string, found number at line 1 column 19, path $.name, keyword type"
    );
}

/// Regression: a pick or redaction pointing inside a value the schema leaves open (an
/// unknown member, `{}`) was ignored, so a redacted password inside one was written out.
#[test]
fn pointers_reach_into_values_the_schema_leaves_open() {
    let input = r#" {"user": {"name": "a", "password": "s3cret"}, "list": [ {"k": 1.50}, 2, {"k": "x"} ], "n\u0061me": 1} "#;
    let redact = |options: TranscodeOptions| {
        options
            .redact("/user/password")
            .unwrap()
            .redact("/list/0/k")
            .unwrap()
            .redact("/name")
            .unwrap()
    };
    let pick =
        |options: TranscodeOptions| options.pick("/user/name").unwrap().pick("/list/2").unwrap();
    let cases = [
        (
            redact(TranscodeOptions::new()),
            r#"{"user":{"name":"a","password":null},"list":[{"k":null},2,{"k":"x"}],"name":null}"#,
        ),
        (
            redact(TranscodeOptions::new().tokens(Tokens::Verbatim)),
            r#"{"user":{"name":"a","password":null},"list":[{"k":null},2,{"k":"x"}],"n\u0061me":null}"#,
        ),
        (
            pick(TranscodeOptions::new()),
            r#"{"user":{"name":"a"},"list":[{"k":"x"}]}"#,
        ),
        (
            pick(TranscodeOptions::new().tokens(Tokens::Verbatim))
                .redact("/list/2/k")
                .unwrap(),
            r#"{"user":{"name":"a"},"list":[{"k":null}]}"#,
        ),
    ];
    let named = r#"{"properties": {"user": {"type": "object"}, "list": {"type": "array"}}}"#;
    for schema in ["{}", r#"{"type": "object"}"#, named] {
        let schema = Schema::from_json_str(schema).unwrap();
        let (interp, native) = backends(&schema, Options::new());
        for c in [&interp, &native] {
            for (options, expected) in &cases {
                assert_eq!(run(c, input, options).unwrap(), *expected, "{options:?}");
            }
        }
    }
    // A redaction that matches nothing walks every open value token by token and writes
    // what writing them whole writes, in both token modes, on the corpus documents.
    let any = Schema::from_json_str("{}").unwrap();
    let (interp, _) = backends(&any, Options::new().escape(EscapeMode::Ascii));
    for (doc, _) in CORPUS {
        let bytes = testdata(&format!("bench/{doc}.json"));
        for tokens in [Tokens::Rewritten, Tokens::Verbatim] {
            let whole = TranscodeOptions::new().tokens(tokens);
            let walked = whole.clone().redact("/no/such/value").unwrap();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            interp.transcode(&bytes, &whole, &mut a).unwrap();
            interp.transcode(&bytes, &walked, &mut b).unwrap();
            assert!(a == b, "{doc} {tokens:?}");
        }
    }
    // Empty containers, nesting, and pointers that reach nothing.
    let any = codec("{}");
    let options = TranscodeOptions::new()
        .redact("/a/0/b/1")
        .unwrap()
        .redact("/z/y")
        .unwrap();
    assert_eq!(
        run(
            &any,
            r#"{"a": [ {"b": [[], {}, "q"]}, [] ], "z": 5}"#,
            &options
        )
        .unwrap(),
        r#"{"a":[{"b":[[],null,"q"]},[]],"z":5}"#
    );
}

/// An `if`'s outcome writes the value: dropping unknown members keeps the members the
/// picked outcome names (the condition writes nothing), on both backends.
#[test]
fn conditionals_drop_what_the_picked_outcome_does_not_name() {
    let schema = Schema::from_json_str(
        r#"{"if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
            "then": {"type": "object", "properties": {"kind": {}, "a": {"type": "integer"}}},
            "else": {"type": "object", "properties": {"kind": {}, "b": {"type": "string"}}}}"#,
    )
    .unwrap();
    let (interp, native) = backends(&schema, Options::new());
    let drop = TranscodeOptions::new().unknown(Unknown::Drop);
    for (input, expected) in [
        (
            r#"{"kind": "a", "a": 1, "b": "x", "z": 0}"#,
            r#"{"kind":"a","a":1}"#,
        ),
        (
            r#"{"kind": "b", "a": 1, "b": "x", "z": 0}"#,
            r#"{"kind":"b","b":"x"}"#,
        ),
        (r#"{"a": 1, "b": "x"}"#, r#"{"b":"x"}"#),
    ] {
        assert_eq!(run(&interp, input, &drop).unwrap(), expected, "{input}");
        assert!(same_transcode_with(
            &interp,
            &native,
            input.as_bytes(),
            &drop,
            input
        ));
    }
    let e = run(&interp, r#"{"kind": "a", "a": "1"}"#, &drop).unwrap_err();
    assert_eq!(
        e,
        "expected integer, found string at line 1 column 20, path $.a, keyword type"
    );
}

/// Regression: an `allOf`'s first part writes, and a member only a later part names (the
/// subtype's own properties in OpenAPI's inheritance) was unknown to it: dropped, or denied
/// in a valid document. Members no part names still go, at every level, on both backends.
#[test]
fn all_of_parts_name_members_for_the_first() {
    let schema = Schema::from_json_str(
        r##"{"$defs": {"base": {"type": "object", "properties": {"id": {"type": "integer"},
                "tag": {"type": "object", "properties": {"a": {}}}}}},
            "allOf": [{"$ref": "#/$defs/base"},
                      {"properties": {"extra": {"type": "object", "properties": {"b": {}}},
                                      "tag": {"properties": {"c": {}}}},
                       "patternProperties": {"^x-": {}},
                       "required": ["extra"]}]}"##,
    )
    .unwrap();
    let (interp, native) = backends(&schema, Options::new());
    let input = r#"{"id": 1, "extra": {"b": 2, "q": 3}, "tag": {"a": 1, "c": 2, "d": 3}, "x-y": {"z": 1}, "zz": 4}"#;
    let drop = TranscodeOptions::new().unknown(Unknown::Drop);
    assert_eq!(
        run(&interp, input, &drop).unwrap(),
        r#"{"id":1,"extra":{"b":2},"tag":{"a":1,"c":2},"x-y":{"z":1}}"#
    );
    let deny = TranscodeOptions::new().unknown(Unknown::Deny);
    assert_eq!(
        run(&interp, input, &deny).unwrap_err(),
        "unknown field at line 1 column 29, path $.extra.q, keyword additionalProperties"
    );
    let named = r#"{"id": 1, "extra": {"b": 2}, "tag": {"a": 1, "c": 2}, "x-y": {"z": 1}}"#;
    assert_eq!(
        run(&interp, named, &deny).unwrap(),
        r#"{"id":1,"extra":{"b":2},"tag":{"a":1,"c":2},"x-y":{"z":1}}"#
    );
    for options in [TranscodeOptions::new(), drop, deny] {
        for input in [input, named, r#"{"id": 1}"#, r#"{"extra": 1}"#] {
            same_transcode_with(&interp, &native, input.as_bytes(), &options, input);
        }
    }
}

#[test]
fn unions_roll_back_failed_branches() {
    let c = codec(
        r#"{"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "array", "items": {"type": "string"}}],
            "allOf": [{"type": "array"}]}"#,
    );
    assert_eq!(
        run(&c, r#"[ "a", "b" ]"#, &TranscodeOptions::new()).unwrap(),
        r#"["a","b"]"#
    );
    let one = codec(
        r#"{"oneOf": [{"type": "integer"}, {"type": "string"}, {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}]}"#,
    );
    assert_eq!(
        run(&one, r#"{"a": 1, "b": "x"}"#, &TranscodeOptions::new()).unwrap(),
        r#"{"a":1,"b":"x"}"#
    );
    assert_eq!(
        run(&one, r#""s""#, &TranscodeOptions::new()).unwrap(),
        r#""s""#
    );
}

#[test]
fn verbatim_tokens_keep_the_inputs_text() {
    let c = codec(USER);
    let verbatim = || TranscodeOptions::new().tokens(Tokens::Verbatim);
    assert_eq!(
        run(&c, INPUT, &verbatim()).unwrap(),
        r#"{"x":{"deep":[1,2.50]},"id":7,"name":"a\u0041","tags":["t1","t2"],"meta":{"k":1},"y":null}"#
    );
    assert_eq!(
        run(&c, INPUT, &verbatim().unknown(Unknown::Drop)).unwrap(),
        r#"{"id":7,"name":"a\u0041","tags":["t1","t2"],"meta":{"k":1}}"#
    );
    let shaped = verbatim()
        .pick("/x")
        .unwrap()
        .pick("/tags")
        .unwrap()
        .redact("/tags/0")
        .unwrap();
    assert_eq!(
        run(&c, INPUT, &shaped).unwrap(),
        r#"{"x":{"deep":[1,2.50]},"tags":[null,"t2"]}"#
    );
    // A key with escapes still names its field, and is written as it came; so is a number
    // beyond an `f64`'s digits, and one beyond 64 bits (read as an `f64` to be checked).
    let input = r#"{ "n\u0061me" : "\/", "id" : 1.0000000000000000000001e30, "meta": {"\"": 123456789012345678901234567890 } }"#;
    assert_eq!(
        run(&c, input, &verbatim()).unwrap(),
        r#"{"n\u0061me":"\/","id":1.0000000000000000000001e30,"meta":{"\"":123456789012345678901234567890}}"#
    );
    assert_eq!(
        run(&c, input, &TranscodeOptions::new()).unwrap(),
        r#"{"name":"/","id":1e+30,"meta":{"\"":1.2345678901234568e+29}}"#
    );
    // The escape mode does not apply to verbatim tokens.
    let ascii = Codec::with_options(
        &Schema::from_json_str(r#"{"type": "string"}"#).unwrap(),
        Options::new().escape(EscapeMode::Ascii),
    );
    assert_eq!(
        run(&ascii, r#" "é\u00e9" "#, &verbatim()).unwrap(),
        r#""é\u00e9""#
    );
    assert_eq!(
        run(&ascii, r#" "é\u00e9" "#, &TranscodeOptions::new()).unwrap(),
        r#""\u00e9\u00e9""#
    );
    // Errors are the same, and write nothing.
    assert_eq!(
        run(&c, r#"{"id": 1.5}"#, &verbatim()).unwrap_err(),
        run(&c, r#"{"id": 1.5}"#, &TranscodeOptions::new()).unwrap_err()
    );
}

/// Verbatim transcode of a valid document is the minified document, on both backends, with
/// the corpus schemas and with `{}` (every value raw).
#[test]
fn corpus_verbatim_transcode_is_the_minified_input() {
    let verbatim = TranscodeOptions::new().tokens(Tokens::Verbatim);
    let any = Schema::from_json_str("{}").unwrap();
    for (doc, schema) in CORPUS {
        let bytes = testdata(&format!("bench/{doc}.json"));
        let mut minified = Vec::new();
        minify(&bytes, &mut minified);
        for schema in [corpus_schema(schema), any.clone()] {
            let (interp, native) = backends(&schema, Options::new());
            for c in [interp, native] {
                let mut out = Vec::new();
                c.transcode(&bytes, &verbatim, &mut out)
                    .unwrap_or_else(|e| panic!("{doc}: {e}"));
                assert!(out == minified, "{doc}");
            }
        }
    }
}

#[test]
fn corpus_transcodes_to_serde_json_values() {
    for (doc, schema) in CORPUS {
        let c = Codec::new(&corpus_schema(schema));
        let bytes = testdata(&format!("bench/{doc}.json"));
        let mut out = Vec::new();
        c.transcode(&bytes, &TranscodeOptions::new(), &mut out)
            .unwrap_or_else(|e| panic!("{doc}: {e}"));
        let theirs: Value = serde_json::from_slice(&bytes).unwrap();
        let ours: Value = serde_json::from_slice(&out).unwrap();
        assert!(ours == theirs, "{doc}");
        let any = Codec::new(&Schema::from_json_str("{}").unwrap());
        let mut raw = Vec::new();
        any.transcode(&bytes, &TranscodeOptions::new(), &mut raw)
            .unwrap();
        let raw: Value = serde_json::from_slice(&raw).unwrap();
        assert!(raw == theirs, "{doc} through {{}}");
    }
}

#[test]
fn errors_leave_no_output() {
    let c = codec(USER);
    for bad in [
        r#"{"id": 1, "tags": ["a", 2]}"#,
        r#"{"id": 1"#,
        r#"{"tags": []}"#,
    ] {
        assert!(run(&c, bad, &TranscodeOptions::new()).is_err(), "{bad}");
    }
    let err = TranscodeOptions::new().pick("x").unwrap_err();
    assert_eq!(err.to_string(), r#"invalid JSON Pointer "x""#);
}

/// Random mutations of corpus documents: transcode succeeds exactly when validate does
/// (with the same error), and writes the value `serde_json` parses.
#[test]
fn corpus_mutations_transcode_exactly_when_they_validate() {
    let mut rng = value_support::Rng::new(0x7c0de);
    for (doc, schema) in CORPUS {
        let c = Codec::new(&corpus_schema(schema));
        let bytes = testdata(&format!("bench/{doc}.json"));
        let small = &bytes[..bytes.len().min(1 << 20)];
        for _ in 0..30 {
            let mutated = value_support::mutate(&mut rng, small);
            let mut out = Vec::new();
            let got = c.transcode(&mutated, &TranscodeOptions::new(), &mut out);
            assert_eq!(got, c.validate(&mutated), "{doc}");
            if got.is_ok() {
                let ours: Value = serde_json::from_slice(&out).unwrap();
                let theirs: Value = serde_json::from_slice(&mutated).unwrap();
                value_support::compare(&ours, &theirs).unwrap_or_else(|e| panic!("{doc}: {e}"));
            } else {
                assert!(out.is_empty(), "{doc}: nothing written on error");
            }
        }
    }
}

/// Transcodes `input` with the interpreter codec and the native one, with tokens rewritten and
/// verbatim: the same bytes, or the same error with nothing written.
fn same_transcode(interp: &Codec, native: &Codec, input: &[u8], what: &str) -> bool {
    let verbatim = TranscodeOptions::new().tokens(Tokens::Verbatim);
    let valid = same_transcode_with(interp, native, input, &verbatim, what);
    assert_eq!(
        same_transcode_with(interp, native, input, &TranscodeOptions::new(), what),
        valid
    );
    valid
}

/// [`same_transcode`] with these options.
fn same_transcode_with(
    interp: &Codec,
    native: &Codec,
    input: &[u8],
    options: &TranscodeOptions,
    what: &str,
) -> bool {
    let (mut a, mut b) = (b"prefix".to_vec(), b"prefix".to_vec());
    let expected = interp.transcode(input, options, &mut a);
    let got = native.transcode_with(&mut Cache::new(), input, options, &mut b);
    assert_eq!(
        got,
        expected,
        "{what}: {:?}",
        String::from_utf8_lossy(input)
    );
    assert_eq!(
        String::from_utf8_lossy(&b),
        String::from_utf8_lossy(&a),
        "{what}: {:?}",
        String::from_utf8_lossy(input)
    );
    expected.is_ok()
}

/// A native transcode that keeps everything minifies pretty-printed input first and validates
/// (and, with tokens rewritten, rewrites) the minified text; whitespace inside a token would
/// join it (`[1 2]` to `[12]`, `tr ue` to `true`) into text that validates, so such inputs must
/// still fail with the interpreter's error. Whitespace at every position of an indented,
/// pretty-printed book.json (between tokens: valid; in a string: valid, kept; in a number or
/// literal: an error), with tokens verbatim and rewritten, and hand-made cases where the joined
/// text passes the schema.
#[test]
fn native_transcode_rejects_whitespace_inside_tokens() {
    let verbatim = TranscodeOptions::new().tokens(Tokens::Verbatim);
    let rewritten = TranscodeOptions::new();
    let items = r#"{"type": "array", "items": {"type": "integer"}, "maxItems": 1}"#;
    let cases: &[(&str, &str)] = &[
        ("{}", "[1 2]"),
        ("{}", "[tr ue]"),
        ("{}", r#"{"a": nu ll}"#),
        ("{}", "[1 .5, - 2, 1e 3, fal\n\tse]"),
        ("{}", "1 2"),
        ("{}", r#"["a" "b"]"#),
        ("{}", "[\"a\" \\ \"b\"]"),
        (items, "[1 2]"),
        (items, " [ 12 ] "),
        (items, "[1\r\n2]"),
    ];
    // Indentation as long as the length threshold makes each input look pretty-printed (and
    // long enough) to the native transcode.
    let indent = " ".repeat(jitson::engine::SPACING_MIN);
    for &(schema, input) in cases {
        let (interp, native) = backends(&Schema::from_json_str(schema).unwrap(), Options::new());
        let spaced = format!("{indent}{input}");
        for options in [&verbatim, &rewritten] {
            let valid = same_transcode_with(&interp, &native, spaced.as_bytes(), options, input);
            assert_eq!(valid, input.trim() == "[ 12 ]", "{input:?}");
        }
    }
    let schema = corpus_schema("book");
    let (interp, native) = backends(&schema, Options::new());
    let book: Value = serde_json::from_slice(&testdata("bench/book.json")).unwrap();
    let book = [
        indent.as_bytes(),
        &serde_json::to_vec_pretty(&book).unwrap(),
    ]
    .concat();
    let (mut valid, mut invalid) = (0, 0);
    for at in 0..=book.len() {
        for space in [b" ".as_slice(), b"\n\t"] {
            let input = [&book[..at], space, &book[at..]].concat();
            let what = format!("pretty book.json with {space:?} at {at}");
            let ok = same_transcode_with(&interp, &native, &input, &verbatim, &what);
            assert_eq!(
                same_transcode_with(&interp, &native, &input, &rewritten, &what),
                ok
            );
            match ok {
                true => valid += 1,
                false => invalid += 1,
            }
        }
    }
    // Spaces in strings and between tokens keep book.json valid; tabs in strings and any
    // whitespace inside a number or literal do not.
    assert!(
        valid > 2600 && invalid > 200,
        "{valid} valid, {invalid} invalid"
    );
}

/// Pick and redaction sets for a corpus document: picks alone, redactions alone, and both
/// (redactions inside picks, pointers to members that are not there, a whole item).
fn pointer_sets(doc: &str) -> Vec<(Vec<&'static str>, Vec<&'static str>)> {
    let (picks, redacts): (Vec<&str>, Vec<&str>) = match doc {
        "twitter" => (
            vec![
                "/statuses/0/user/screen_name",
                "/statuses/1/text",
                "/search_metadata",
                "/nope",
            ],
            vec![
                "/statuses/0/user/id",
                "/statuses/3",
                "/search_metadata/count",
            ],
        ),
        "citm_catalog" => (
            vec!["/events/138586341", "/performances/0", "/areaNames"],
            vec!["/performances/0/prices", "/areaNames/205705993"],
        ),
        "canada" => (
            vec!["/features/0/geometry/coordinates/0/5", "/type"],
            vec![
                "/features/0/geometry/coordinates/0/5/1",
                "/features/0/properties",
            ],
        ),
        _ => (
            vec!["/authors/1", "/title", "/ids/1", "/weights/0"],
            vec!["/authors/1/age", "/ids/0", "/price"],
        ),
    };
    vec![
        (picks.clone(), vec![]),
        (vec![], redacts.clone()),
        (picks, redacts),
    ]
}

/// Options picking `picks` and redacting `redacts`, with `tokens`.
fn pointed(picks: &[&str], redacts: &[&str], tokens: Tokens) -> TranscodeOptions {
    let mut options = TranscodeOptions::new().tokens(tokens);
    for p in picks {
        options = options.pick(p).unwrap();
    }
    for r in redacts {
        options = options.redact(r).unwrap();
    }
    options.replacement(&serde_json::json!({"redacted": true}))
}

/// A native codec writes picks and redactions of a valid input by a walk after native
/// validate (no second validation): exactly the interpreter's bytes on the corpus in every
/// escape mode, both token modes, and on mutations; invalid inputs give its error.
#[test]
fn native_picks_and_redactions_write_the_interpreters_bytes() {
    let modes = [EscapeMode::Minimal, EscapeMode::Ascii, EscapeMode::Html];
    let mut rng = value_support::Rng::new(0x91c4);
    for (doc, schema) in CORPUS {
        let schema = corpus_schema(schema);
        let bytes = testdata(&format!("bench/{doc}.json"));
        for (picks, redacts) in pointer_sets(doc) {
            for tokens in [Tokens::Rewritten, Tokens::Verbatim] {
                let options = pointed(&picks, &redacts, tokens);
                for mode in modes {
                    let (interp, native) = backends(&schema, Options::new().escape(mode));
                    assert!(same_transcode_with(&interp, &native, &bytes, &options, doc));
                }
                let (interp, native) = backends(&schema, Options::new());
                let count = if doc == "book" { 100 } else { 10 };
                for _ in 0..count {
                    let input = value_support::mutate(&mut rng, &bytes);
                    same_transcode_with(&interp, &native, &input, &options, doc);
                }
            }
        }
    }
}

/// A native codec drops or denies unknown members of a valid input by a walk after native
/// validate guided by the schema: exactly the interpreter's bytes, or its error, on the
/// corpus (with picks and redactions too), in both token modes, and on mutations.
#[test]
fn native_dropped_and_denied_members_match_the_interpreter() {
    let mut rng = value_support::Rng::new(0x5d0c);
    for (doc, schema) in CORPUS {
        let schema = corpus_schema(schema);
        let bytes = testdata(&format!("bench/{doc}.json"));
        let (interp, native) = backends(&schema, Options::new());
        let (picks, redacts) = pointer_sets(doc).swap_remove(2);
        for unknown in [Unknown::Drop, Unknown::Deny] {
            for tokens in [Tokens::Rewritten, Tokens::Verbatim] {
                let plain = TranscodeOptions::new().tokens(tokens).unknown(unknown);
                let pointed = pointed(&picks, &redacts, tokens).unknown(unknown);
                for options in [plain, pointed] {
                    assert!(same_transcode_with(&interp, &native, &bytes, &options, doc));
                    let count = if doc == "book" { 100 } else { 10 };
                    for _ in 0..count {
                        let input = value_support::mutate(&mut rng, &bytes);
                        same_transcode_with(&interp, &native, &input, &options, doc);
                    }
                }
            }
        }
    }
}

/// The walk reads a discriminated union by the branch its tag selects (the tag member
/// anywhere in the object, its key or value escaped, or absent, which leaves the union to
/// the interpreter): both backends drop, keep and deny the same members.
#[test]
fn discriminated_unions_drop_the_interpreters_members() {
    let schema = Schema::from_value(&serde_json::json!({
        "type": "array",
        "items": {"oneOf": [
            {"type": "object", "properties": {
                "kind": {"const": "circle"}, "r": {"type": "number"},
                "style": {"type": "object", "properties": {"color": {"type": "string"}}}}},
            {"type": "object", "properties": {
                "kind": {"enum": ["square", "box"]}, "side": {"type": "number"},
                "corners": {"type": "array", "items": {"type": "object",
                    "properties": {"x": {"type": "integer"}}}}},
             "required": ["kind"]}
        ]}
    }))
    .unwrap();
    let (interp, native) = backends(&schema, Options::new());
    let input = br#"[
        {"kind": "circle", "r": 1.5, "extra": [1, {"a": 2}], "style": {"color": "red", "w": 3}},
        {"r": 2, "kind": "circle", "style": {"w": 1}, "more": null},
        {"side": 2, "other": {"kind": "circle"}, "kind": "square",
         "corners": [{"x": 1, "y": 2}, {"x": 3}]},
        {"kind": "box", "corners": [], "z": true},
        {"r": 3, "style": {"color": "blue", "w": 2}, "extra": 1}
    ]"#;
    for unknown in [Unknown::Keep, Unknown::Drop, Unknown::Deny] {
        for tokens in [Tokens::Rewritten, Tokens::Verbatim] {
            let options = TranscodeOptions::new().unknown(unknown).tokens(tokens);
            let valid = same_transcode_with(&interp, &native, input, &options, "shapes");
            assert_eq!(valid, unknown != Unknown::Deny, "{unknown:?}");
            // Without the last item (no tag: the interpreter's) and with only known members.
            let tagged = br#"[{"kind": "box", "side": 1, "corners": [{"x": 2}]},
                {"style": {"color": "c"}, "kind": "circle"}]"#;
            assert!(same_transcode_with(
                &interp, &native, tagged, &options, "tagged"
            ));
        }
    }
    let mut out = Vec::new();
    let options = TranscodeOptions::new().unknown(Unknown::Drop);
    native.transcode(input, &options, &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        r#"[{"kind":"circle","r":1.5,"style":{"color":"red"}},{"r":2,"kind":"circle","style":{}},{"side":2,"kind":"square","corners":[{"x":1},{"x":3}]},{"kind":"box","corners":[]},{"r":3,"style":{"color":"blue"}}]"#
    );
}

/// The walk reads a tag no other branch names by the discriminator's default branch: both
/// backends drop, keep and deny the same members of every item.
#[test]
fn discriminator_default_branches_drop_the_interpreters_members() {
    let extra = &DEFAULT_BRANCH_ITEMS[..7].join(",\n");
    let native = union_items_agree(DEFAULT_BRANCH_SCHEMA, &DEFAULT_BRANCH_ITEMS, extra);
    assert_eq!(
        dropped(&native, &format!("[{}]", DEFAULT_BRANCH_ITEMS[5])),
        r#"[{"note":"n","kind":"zA","style":{"color":"red"}}]"#
    );
}

/// The walk reads an externally tagged variant by its first member's name: both backends
/// drop, keep and deny the same members inside every item.
#[test]
fn first_member_names_drop_the_interpreters_members() {
    let extra = r#"{"circle": {"r": 1, "w": 2}}, {"sq": 1}, {"circle": {"x": [1], "r": 2}}"#;
    let native = union_items_agree(BY_NAME_SCHEMA, &BY_NAME_ITEMS, extra);
    assert_eq!(
        dropped(&native, &format!("[{extra}]")),
        r#"[{"circle":{"r":1}},{"sq":1},{"circle":{"r":2}}]"#
    );
}

/// Members a pattern matches are described: kept whole (their own unknown members too,
/// as decode keeps them: raw JSON) where transcode drops or denies unknown members; other
/// members are unknown, unless `additionalProperties` gives them a schema. Both backends
/// alike.
#[test]
fn pattern_members_are_kept_whole() {
    let items: Vec<&str> = PATTERN_ITEMS.iter().map(|(item, _)| *item).collect();
    let extra = r#"{"open": {"zzz": 1, "n": null}}, {"open": {"\u006e": null, "z": {}}}"#;
    let native = union_items_agree(PATTERN_SCHEMA, &items, extra);
    assert_eq!(
        dropped(&native, &format!("[{extra}]")),
        r#"[{"open":{"n":null}},{"open":{"n":null}}]"#
    );
    let schema = Schema::from_value(&serde_json::json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "meta": {
                    "type": "object",
                    "patternProperties": {"^x": {"type": "integer"}},
                    "additionalProperties": {"type": "object", "properties": {"a": {"type": "integer"}}}
                }
            },
            "patternProperties": {"^x-": {"type": "object", "properties": {"k": {"type": "integer"}}}}
        }
    }))
    .unwrap();
    let (interp, native) = backends(&schema, Options::new());
    let input = br#"[{"id": 1, "x-a": {"k": 1, "extra": [2]}, "other": 3,
        "meta": {"x1": 1, "y": {"a": 1, "b": 2}}}, {"x-b": {}, "meta": {}}]"#;
    for unknown in [Unknown::Keep, Unknown::Drop, Unknown::Deny] {
        for tokens in [Tokens::Rewritten, Tokens::Verbatim] {
            let options = TranscodeOptions::new().unknown(unknown).tokens(tokens);
            let valid = same_transcode_with(&interp, &native, input, &options, "patterns");
            assert_eq!(valid, unknown != Unknown::Deny, "{unknown:?}");
        }
    }
    assert_eq!(
        dropped(&native, std::str::from_utf8(input).unwrap()),
        r#"[{"id":1,"x-a":{"k":1,"extra":[2]},"meta":{"x1":1,"y":{"a":1,"b":2}}},{"x-b":{},"meta":{}}]"#
    );
}

/// Under `schema` (an array of a union), both backends transcode each of `items` alone,
/// keeping, dropping and denying unknown members, tokens rewritten and verbatim, alike;
/// and `extra`'s items, valid with unknown members, fail only when denied. Returns the
/// native codec.
fn union_items_agree(schema: &str, items: &[&str], extra: &str) -> Codec {
    let schema = Schema::from_json_str(schema).unwrap();
    let (interp, native) = backends(&schema, Options::new());
    let extra = format!("[{extra}]");
    for unknown in [Unknown::Keep, Unknown::Drop, Unknown::Deny] {
        for tokens in [Tokens::Rewritten, Tokens::Verbatim] {
            let options = TranscodeOptions::new().unknown(unknown).tokens(tokens);
            let ok = same_transcode_with(&interp, &native, extra.as_bytes(), &options, "extra");
            assert_eq!(ok, unknown != Unknown::Deny, "{unknown:?}");
            for item in items {
                let item = format!("[{item}]");
                same_transcode_with(&interp, &native, item.as_bytes(), &options, "item");
            }
        }
    }
    native
}

/// `input` transcoded by `codec` with unknown members dropped.
fn dropped(codec: &Codec, input: &str) -> String {
    let mut out = Vec::new();
    let options = TranscodeOptions::new().unknown(Unknown::Drop);
    codec
        .transcode(input.as_bytes(), &options, &mut out)
        .unwrap();
    String::from_utf8(out).unwrap()
}

fn backends(schema: &Schema, options: Options) -> (Codec, Codec) {
    let interp = Codec::with_options(schema, options.backend(Backend::Interpreter));
    let native = Codec::with_options(schema, options.backend(Backend::Native));
    (interp, native)
}

/// A native codec transcodes a valid input by native validate and a plain rewrite (or the
/// minify kernel) when the options keep everything: exactly the interpreter's bytes, with
/// tokens rewritten and verbatim, in every escape mode and
/// big-integer policy, on the corpus, its mutations, JSONTestSuite and the
/// JSON-Schema-Test-Suite (compact and pretty); invalid inputs give the interpreter's error.
#[test]
fn native_transcode_writes_the_interpreters_bytes() {
    let modes = [EscapeMode::Minimal, EscapeMode::Ascii, EscapeMode::Html];
    for (doc, schema) in CORPUS {
        let schema = corpus_schema(schema);
        let bytes = testdata(&format!("bench/{doc}.json"));
        for (mode, big) in modes
            .into_iter()
            .zip([BigInts::F64, BigInts::Raw, BigInts::F64])
        {
            let (interp, native) = backends(&schema, Options::new().escape(mode).big_ints(big));
            assert!(same_transcode(&interp, &native, &bytes, doc));
        }
        if doc == "book" || doc == "twitter" {
            let (interp, native) = backends(&schema, Options::new());
            let count = if doc == "book" { 300 } else { 40 };
            let mut rng = value_support::Rng::new(0x7c0d);
            let mut valid = 0;
            for _ in 0..count {
                let input = value_support::mutate(&mut rng, &bytes);
                valid += usize::from(same_transcode(&interp, &native, &input, doc));
            }
            // Both outcomes occur (twitter's mutations are nearly all invalid).
            assert!(valid < count, "{doc}: {valid} of {count} valid");
            assert!(doc != "book" || valid > 0, "{doc}: no valid mutation");
        }
    }
    let any = Schema::from_json_str("{}").unwrap();
    let dir = format!("{}/testdata/jsontestsuite", env!("CARGO_MANIFEST_DIR"));
    for mode in modes {
        for big in [BigInts::F64, BigInts::Raw, BigInts::Error] {
            let (interp, native) = backends(&any, Options::new().escape(mode).big_ints(big));
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "json") {
                    let input = std::fs::read(&path).unwrap();
                    same_transcode(&interp, &native, &input, &path.display().to_string());
                }
            }
        }
    }
    let mut run = 0;
    let loader = suite_support::loader();
    for group in suite_support::groups() {
        let Ok(schema) = loader.load_value(&group.schema) else {
            continue;
        };
        let (interp, native) = backends(&schema, Options::new());
        for test in &group.tests {
            let compact = serde_json::to_vec(&test.data).unwrap();
            let pretty = serde_json::to_vec_pretty(&test.data).unwrap();
            for bytes in [compact, pretty] {
                run += 1;
                same_transcode(&interp, &native, &bytes, &group.description);
            }
        }
    }
    assert_eq!(run, 2506, "suite tests run (compact and pretty)");
}

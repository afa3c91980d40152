//! Exact errors of the value parser: kind, offset, line, column and path on hand-written bad
//! inputs, and the same `Display` as serde_json wherever serde_json has the same error.

use jitson::value::{self, BigNumbers, Bump, DuplicateKeys, ParseOptions};
use jitson::{Error, ErrorKind, SyntaxKind};

fn parse_err(input: &[u8]) -> Error {
    parse_err_with(input, &ParseOptions::new())
}

fn parse_err_with(input: &[u8], options: &ParseOptions) -> Error {
    let arena = Bump::new();
    match value::parse_with(input, &arena, options) {
        Ok(v) => panic!("{:?} parsed as {v}", String::from_utf8_lossy(input)),
        Err(e) => e,
    }
}

fn serde_message(input: &[u8]) -> String {
    serde_json::from_slice::<serde_json::Value>(input)
        .expect_err("serde_json accepted")
        .to_string()
}

/// Inputs from serde_json's own error tests (tests/test.rs) that apply to `Value`, and more
/// of the same kind: jitson's message must start with serde_json's whole message.
const SAME_AS_SERDE_JSON: &[&[u8]] = &[
    b"",
    b" ",
    b"n",
    b"nul",
    b"nulla",
    b"t",
    b"truz",
    b"f",
    b"faz",
    b"truea",
    b"falsea",
    b"+",
    b".",
    b"-",
    b"00",
    b"0x80",
    b"\\0",
    b".0",
    b"0.",
    b"1.",
    b"1.a",
    b"1.e1",
    b"1e",
    b"1e+",
    b"1a",
    b"-01",
    b"[-]",
    b"[1.]",
    b"1e400",
    b"-1e400",
    b"1.5e999",
    b"[1e5x]",
    b"\"",
    b"\"lol",
    b"\"lol\"a",
    b"\"\\uD83C\\uFFFF\"",
    b"\"\n\"",
    b"\"\x1F\"",
    b"\"\t\n\r\"",
    b"\"\x9f\x92\x96\"",
    b"\"\\n\x9f\x92\x96\"",
    b"\"\\u003",
    b"\"\\u\xfa030\"",
    b"\"\\u0\xfa30\"",
    b"\"\\u00\xfa0\"",
    b"\"\\u003\xfa\"",
    b"\"\\x\"",
    b"\"\\u12G4\"",
    b"\"\\u12",
    b"\"\\uD800\"",
    b"\"\\uD800\\n\"",
    b"\"\\uD800\\u0041\"",
    b"\"\\uD800\\",
    b"\"\\",
    b"\"\\u\"",
    b"\"\xce\xf8\"",
    b"[",
    b"[ ",
    b"[1",
    b"[1,",
    b"[1,]",
    b"[1 2]",
    b"[]a",
    b"[1}",
    b"[]]",
    b"{",
    b"{ ",
    b"{1",
    b"{ \"a\"",
    b"{\"a\"",
    b"{\"a\" ",
    b"{\"a\" 1",
    b"{\"a\":",
    b"{\"a\":1",
    b"{\"a\":1 1",
    b"{\"a\":1,",
    b"{\"a\":1,}",
    b"{\"a\":1]",
    b"{\"a\":1,2}",
    b"{}a",
    b"{\n  \"foo\":\n \"bar\"",
    b"\n\n  [1,\n  2,,]",
    b"{\"a\":[1,{\"b\":x}]}",
    b"\xef\xbb\xbf{}",
    b"x",
    b"1 2",
    b"truefalse",
    b"[nul]",
    b"{\"a\":1 \"b\":2}",
];

#[test]
fn display_starts_with_serde_json_message() {
    for input in SAME_AS_SERDE_JSON {
        let ours = parse_err(input).to_string();
        let theirs = serde_message(input);
        assert!(
            ours.starts_with(&format!("{theirs}, path ")),
            "{:?}: jitson says {ours:?}, serde_json {theirs:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn control_byte_positions_match_serde_json_around_any_spacing() {
    for n in 0..16 {
        for m in 0..16 {
            let input = format!("\"{}\n{}\"", " ".repeat(n), " ".repeat(m));
            let ours = parse_err(input.as_bytes());
            assert_eq!((ours.line(), ours.column()), (2, 0), "{input:?}");
            assert!(
                ours.to_string()
                    .starts_with(&serde_message(input.as_bytes()))
            );
        }
    }
}

/// (input, kind, offset, line, column, path)
type Case = (&'static [u8], ErrorKind, usize, usize, usize, &'static str);

fn syntax(kind: SyntaxKind) -> ErrorKind {
    ErrorKind::Syntax(kind)
}

#[test]
fn kinds_offsets_positions_and_paths() {
    use SyntaxKind::*;
    let cases: &[Case] = &[
        (b"", syntax(EofWhileParsingValue), 0, 1, 0, "$"),
        (b"[1,", syntax(EofWhileParsingValue), 3, 1, 3, "$[1]"),
        (b"[1 2]", syntax(ExpectedArrayCommaOrEnd), 3, 1, 4, "$"),
        (b"[[1],[2,x]]", syntax(ExpectedValue), 8, 1, 9, "$[1][1]"),
        (
            b"{\"a\":{\"b c\":[true,fals]}}",
            syntax(InvalidLiteral),
            22,
            1,
            23,
            "$.a[\"b c\"][1]",
        ),
        (b"{\"a\" 1}", syntax(ExpectedColon), 5, 1, 6, "$.a"),
        (b"{\"a\":1,}", syntax(TrailingComma), 7, 1, 8, "$"),
        (b"{\"a\":1,2}", syntax(ExpectedKey), 7, 1, 8, "$"),
        (
            b"{\"a\":{\"\":[0,1,{\"x\":\"\\q\"}]}}",
            syntax(InvalidEscape),
            21,
            1,
            22,
            "$.a[\"\"][2].x",
        ),
        (
            b"{\"a\\u0062\":[1,2,3,]}",
            syntax(TrailingComma),
            18,
            1,
            19,
            "$.ab",
        ),
        (b"[1]\n\n  x", syntax(TrailingCharacters), 7, 3, 3, "$"),
        (b"[\"a\n\"]", syntax(ControlInString), 3, 2, 0, "$[0]"),
        (
            b"[\"\\uDC00\"]",
            syntax(LoneTrailingSurrogate),
            7,
            1,
            8,
            "$[0]",
        ),
        (b"[\"\xff\"]", syntax(InvalidUtf8), 2, 1, 3, "$[0]"),
        (b"{\"\xff\":1}", syntax(InvalidUtf8), 2, 1, 3, "$"),
        (b"[01]", syntax(InvalidNumber), 2, 1, 3, "$[0]"),
        (b"[1e400]", ErrorKind::NumberOutOfRange, 5, 1, 6, "$[0]"),
        (
            b"{\"x.y\":[",
            syntax(EofWhileParsingArray),
            8,
            1,
            8,
            "$[\"x.y\"]",
        ),
        (b"{\"x\":{", syntax(EofWhileParsingObject), 6, 1, 6, "$.x"),
    ];
    for &(input, kind, offset, line, column, path) in cases {
        let e = parse_err(input);
        let shown = String::from_utf8_lossy(input);
        assert_eq!(e.kind(), kind, "{shown:?}: {e}");
        assert_eq!(e.offset(), offset, "{shown:?}: {e}");
        assert_eq!((e.line(), e.column()), (line, column), "{shown:?}: {e}");
        assert_eq!(e.path().to_string(), path, "{shown:?}: {e}");
    }
}

#[test]
fn multi_line_deep_path() {
    let input = b"{\n  \"statuses\": [\n    {},\n    {\"user\": {\"id\": -}}\n  ]\n}";
    let e = parse_err(input);
    assert_eq!(e.kind(), ErrorKind::Syntax(SyntaxKind::InvalidNumber));
    assert_eq!((e.line(), e.column()), (4, 22));
    assert_eq!(e.offset(), 47);
    assert_eq!(e.path().to_string(), "$.statuses[1].user.id");
    assert_eq!(e.path().to_json_pointer(), "/statuses/1/user/id");
    assert_eq!(
        e.to_string(),
        "invalid number at line 4 column 22, path $.statuses[1].user.id"
    );
    assert!(e.to_string().starts_with(&serde_message(input)));
}

#[test]
fn deep_nesting_is_a_clean_error() {
    let input = vec![b'['; 100_000];
    let e = parse_err(&input);
    assert_eq!(e.kind(), ErrorKind::DepthLimitExceeded);
    assert_eq!(e.offset(), 128);
    assert_eq!(e.path().segments().len(), 128);
    assert!(
        e.to_string()
            .starts_with("recursion limit exceeded at line 1 column 129, path $[0][0]")
    );

    // The limit is configurable, and counts containers as the validating skip kernel does.
    let e = parse_err_with(b"[[[1]]]", &ParseOptions::new().max_depth(2));
    assert_eq!(
        (e.kind(), e.offset(), e.path().to_string()),
        (ErrorKind::DepthLimitExceeded, 2, "$[0][0]".into())
    );
    let arena = Bump::new();
    assert!(value::parse_with(b"[[1]]", &arena, &ParseOptions::new().max_depth(2)).is_ok());
    assert!(value::parse_with(b"1", &arena, &ParseOptions::new().max_depth(0)).is_ok());
    let deep = format!("{}{}", "[".repeat(128), "]".repeat(128));
    assert!(value::parse(deep.as_bytes(), &arena).is_ok());
    // serde_json's limit allows one level less: 128 nested arrays are an error there.
    assert!(serde_json::from_str::<serde_json::Value>(&deep).is_err());
}

#[test]
fn duplicate_keys_denied_at_the_repeated_key() {
    let deny = ParseOptions::new().duplicate_keys(DuplicateKeys::Deny);
    let e = parse_err_with(b"{\"a\":1,\"b\":{\"c\":1,\"c\":[x]}}", &deny);
    assert_eq!(e.kind(), ErrorKind::DuplicateKey);
    assert_eq!(e.offset(), 18);
    assert_eq!(e.path().to_string(), "$.b.c");
    assert_eq!(
        e.to_string(),
        "duplicate key at line 1 column 19, path $.b.c"
    );
    // Past the hash-table threshold too.
    let mut big = String::from("{");
    for i in 0..100 {
        big.push_str(&format!("\"k{i}\":{i},"));
    }
    big.push_str("\"k57\":0}");
    let e = parse_err_with(big.as_bytes(), &deny);
    assert_eq!(e.kind(), ErrorKind::DuplicateKey);
    assert_eq!(e.path().to_string(), "$.k57");
}

#[test]
fn big_numbers_as_errors() {
    let strict = ParseOptions::new().big_numbers(BigNumbers::Error);
    let e = parse_err_with(b"[18446744073709551616]", &strict);
    assert_eq!(
        (e.kind(), e.offset(), e.column()),
        (ErrorKind::NumberOutOfRange, 20, 21)
    );
    let e = parse_err_with(b"{\"n\":-9223372036854775809}", &strict);
    assert_eq!(
        (e.kind(), e.path().to_string()),
        (ErrorKind::NumberOutOfRange, "$.n".into())
    );
}

#[test]
fn known_differences_from_serde_json() {
    // serde_json calls a lone trailing surrogate "leading"; jitson names it for what it is.
    let e = parse_err(b"\"\\uDC00\"");
    assert_eq!(
        serde_message(b"\"\\uDC00\""),
        "lone leading surrogate in hex escape at line 1 column 7"
    );
    assert!(
        e.to_string()
            .starts_with("lone trailing surrogate in hex escape at line 1 column 7")
    );
    // serde_json finds an exponent overflow while reading its digits; jitson reports the
    // number's last byte.
    let e = parse_err(b"100e777777777777777777777777777");
    assert_eq!((e.kind(), e.column()), (ErrorKind::NumberOutOfRange, 31));
    // serde_json's column for bad UTF-8 after escapes is approximate; jitson's is exact.
    let e = parse_err(b"\"\xff\\u00e9\"");
    assert_eq!(e.column(), 2);
    assert!(serde_message(b"\"\xff\\u00e9\"").ends_with("column 6"));
}

#[test]
fn error_accessors() {
    let e = parse_err(b"[tru]");
    assert_eq!(e.message(), "expected ident");
    assert_eq!((e.keyword(), e.schema_pointer()), (None, None));
    assert!(!e.is_eof() && !e.is_schema());
    assert!(parse_err(b"[tru").is_eof());
    assert_eq!(
        e.to_string(),
        "expected ident at line 1 column 5, path $[0]"
    );
    let debug = format!("{e:?}");
    assert!(
        debug.contains("InvalidLiteral") && debug.contains("path: $[0]"),
        "{debug}"
    );
}

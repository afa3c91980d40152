//! The native backend's fast paths against the interpreter, at their edges: short strings
//! scanned inline (every special byte at every position of bodies around the 16-byte
//! window, bodies ending at the end of the input), whitespace runs skipped inline, expected
//! keys compared before any scan, scanned keys looked up inline by their length, numbers
//! and strings checked by a shape of ASCII classes (one class run, or classes with fixed
//! counts) read inline, string enumerations and a union's leading tag (a property's value
//! or the first member's name) compared in place, and the helpers' fast paths for checked
//! strings (lengths counted in code points, patterns), string enumerations (near misses)
//! and bounded numbers (bounds at ±1, exclusive bounds, `multipleOf`).
//! Validate and decode must give exactly the interpreter's results. Native code reads each
//! input from an allocation of its own size (see `native_support`), so CI's valgrind run
//! sees any read past the input's end.

#![cfg(not(miri))]

mod engine_support;
#[path = "../jit/tests/native_support/mod.rs"]
mod native_support;

use std::sync::OnceLock;

use engine_support::{BY_NAME_ITEMS, BY_NAME_SCHEMA, DEFAULT_BRANCH_ITEMS, DEFAULT_BRANCH_SCHEMA};
use jitson::Schema;
use jitson::jit::ir::{BigInts, DuplicateKeys, ExecOptions, Program};
use jitson::jit::native::{self, NativeCode};
use jitson::resolve::resolve;
use native_support::{Rng, assert_same, assert_same_decode, mutations};

fn compiled(schema: &str) -> (Program, NativeCode) {
    let schema = Schema::from_json_slice(schema.as_bytes()).expect("schema loads");
    let program = resolve(&schema);
    let code = native::compile(&program).unwrap_or_else(|e| panic!("{e}\n{program}"));
    (program, code)
}

/// Native validate and decode give the interpreter's results on `input`, if `input` is in
/// the sample this run checks (see [`in_sample`]).
fn agree(program: &Program, code: &NativeCode, input: &[u8]) {
    if !in_sample(input) {
        return;
    }
    let options = ExecOptions::default();
    assert_same(program, code, input, &options);
    assert_same_decode(program, code, input, &options);
}

/// Whether a run checks `input`: every input, unless the environment sets
/// `JITSON_NATIVE_SAMPLE=N`; then one input in N, picked by a hash of its bytes. CI's
/// valgrind step sets it: there one case costs some fifty times its native time, and a
/// sample still spreads over every edge position of every shape. Natively (`cargo test`)
/// every input is checked.
fn in_sample(input: &[u8]) -> bool {
    static ONE_IN: OnceLock<usize> = OnceLock::new();
    let one_in =
        *ONE_IN.get_or_init(|| match std::env::var("JITSON_NATIVE_SAMPLE") {
            Ok(n) => n.parse().ok().filter(|&n| n > 0).unwrap_or_else(|| {
                panic!("JITSON_NATIVE_SAMPLE={n:?}: expected a positive integer")
            }),
            Err(_) => 1,
        });
    Rng::for_bytes(input).one_in(one_in)
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

/// Every prefix of each of `docs` gives the interpreter's validate and decode results, with
/// repeated keys kept (the last one) and denied.
fn agree_on_prefixes_keeping_or_denying_duplicates(
    program: &Program,
    code: &NativeCode,
    docs: &[&str],
) {
    for duplicate_keys in [DuplicateKeys::LastWins, DuplicateKeys::Deny] {
        let options = ExecOptions {
            duplicate_keys,
            ..ExecOptions::default()
        };
        for doc in docs {
            for end in 0..=doc.len() {
                let input = &doc.as_bytes()[..end];
                assert_same(program, code, input, &options);
                assert_same_decode(program, code, input, &options);
            }
        }
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

/// String bodies of up to `max_len` `a`s with each of [`SPECIALS`] at every position.
fn special_bodies(max_len: usize) -> impl Iterator<Item = Vec<u8>> {
    (0..=max_len).flat_map(|len| {
        (0..=len).flat_map(move |pos| {
            SPECIALS.iter().map(move |special| {
                let mut body = vec![b'a'; len];
                body.splice(pos..pos, special.iter().copied());
                body
            })
        })
    })
}

#[test]
fn short_strings_at_every_position_and_length() {
    let (array, array_code) = compiled(r#"{"type": "array", "items": {"type": "string"}}"#);
    let (root, root_code) = compiled(r#"{"type": "string"}"#);
    for body in special_bodies(40) {
        agree(
            &array,
            &array_code,
            &[b"[\"", &body[..], b"\", \"x\"]"].concat(),
        );
        // The string as the whole input: its closing quote is the input's last byte, or
        // missing.
        let mut lone = [b"\"", &body[..]].concat();
        agree(&root, &root_code, &lone);
        lone.push(b'"');
        agree(&root, &root_code, &lone);
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

/// Whitespace, and bytes at or below space that are not whitespace, in each gap between
/// tokens (one gap at a time, then every gap), and every prefix of those documents. The
/// native code tests the byte at a gap for whitespace and for the token it expects there
/// (`,`, `:`, a bracket, a quote) with one load, in either order, and reads the byte again
/// only after a skip.
#[test]
fn whitespace_and_control_bytes_before_every_token() {
    let (program, code) = compiled(
        r#"{"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "integer"}},
            "s": {"type": "string"},
            "t": {"type": "string", "pattern": "^[a-z]+$"},
            "o": {"type": "object", "properties": {"k": {"type": "boolean"}}},
            "e": {"type": "array"}
        }}"#,
    );
    let tokens = [
        "{", "\"a\"", ":", "[", "1", ",", "2", "]", ",", "\"s\"", ":", "\"x\"", ",", "\"t\"", ":",
        "\"ab\"", ",", "\"o\"", ":", "{", "\"k\"", ":", "true", "}", ",", "\"e\"", ":", "[", "]",
        ",", "\"z\"", ":", "{", "}", "}",
    ];
    let fillers = [
        " ", "  ", "\n    ", "\t", "\r\n", " \x01", "\x01", "\x0b", " \x0b ",
    ];
    let spaced = |gap: Option<usize>, filler: &str| -> String {
        let mut doc = String::new();
        for (i, token) in tokens.iter().enumerate() {
            if gap.is_none_or(|g| g == i) {
                doc.push_str(filler);
            }
            doc.push_str(token);
        }
        if gap.is_none_or(|g| g == tokens.len()) {
            doc.push_str(filler);
        }
        doc
    };
    for filler in fillers {
        for gap in (0..=tokens.len()).map(Some).chain([None]) {
            let doc = spaced(gap, filler);
            for end in 0..=doc.len() {
                agree(&program, &code, &doc.as_bytes()[..end]);
            }
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

/// String enumerations, compared in place when they are few and short: each value, near
/// misses (a prefix, a longer string, an escape, another kind), enumerations too large or
/// too long to compare inline; every prefix and some mutations of each item and of the
/// valid items together.
#[test]
fn string_enumerations_compared_in_place() {
    let many: Vec<String> = (0..20).map(|i| format!("\"v{i}\"")).collect();
    let long = format!("\"{}\"", "l".repeat(40));
    let schemas = [
        r#"{"enum": ["click", "", "clickx", "é", "click"]}"#.to_string(),
        format!(r#"{{"enum": [{}]}}"#, many.join(", ")),
        format!(r#"{{"enum": [{long}, "a\"b", "x"]}}"#),
    ];
    let values = [
        r#""click""#,
        r#""""#,
        r#""clickx""#,
        r#""é""#,
        r#""clic""#,
        r#""clickxy""#,
        r#""\u0063lick""#,
        r#""v3""#,
        r#""v19""#,
        r#""x""#,
        r#""a\"b""#,
        "1",
        "null",
        &long,
        r#""é"#,
    ];
    for schema in schemas {
        let (program, code) = compiled(&format!(r#"{{"type": "array", "items": {schema}}}"#));
        let mut valid = Vec::new();
        for value in values {
            agree_around(&program, &code, format!("[{value}]").as_bytes(), 10);
            agree(&program, &code, format!("[ {value} ]").as_bytes());
            let item = format!("[{value}]");
            if code
                .validate(
                    item.as_bytes(),
                    &ExecOptions::default(),
                    &mut native::Scratch::new(),
                )
                .is_ok()
            {
                valid.push(value);
            }
        }
        assert!(valid.len() >= 2, "{schema}: {valid:?}");
        agree_around(
            &program,
            &code,
            format!("[{}]", valid.join(",")).as_bytes(),
            30,
        );
    }
}

/// A union's leading tag compared in place: a property's value (`{"kind": "circle"`,
/// compact and spaced, with a default branch for other tags) and an externally tagged
/// variant's name (`{"circle":`); each item, the valid ones together compact and spaced,
/// every prefix and some mutations.
#[test]
fn leading_tags_compared_in_place() {
    for (schema, items) in [
        (DEFAULT_BRANCH_SCHEMA, &DEFAULT_BRANCH_ITEMS[..]),
        (BY_NAME_SCHEMA, &BY_NAME_ITEMS[..]),
    ] {
        let (program, code) = compiled(schema);
        for item in items {
            agree_around(&program, &code, format!("[{item}]").as_bytes(), 10);
        }
        // The first seven of each are valid.
        let spaced = format!("[{}]", items[..7].join(", "));
        let value: serde_json::Value = serde_json::from_str(&spaced).expect("valid JSON");
        let compact = serde_json::to_string(&value).expect("JSON");
        for text in [spaced, compact] {
            agree_around(&program, &code, text.as_bytes(), 30);
        }
    }
}

/// Property names a key op compares inline before any scan (`"name":` as bytes), and the
/// names it must not: a quote, a backslash or a control byte in the name (the input can
/// only spell those escaped), a name longer than the inline limit (32 bytes).
const KEYED: &str = r#"{
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "na\"me": {"type": "boolean"},
        "tab\tkey": {"type": "null"},
        "back\\slash": {"type": "integer"},
        "\u00e9t\u00e9": {"type": "string"},
        "a_name_of_exactly_sixty_four_bytes_xxxxxxxxxxxxxxxxxxxxxxxxxxxxx": {"type": "integer"},
        "a_name_of_exactly_sixty_five_bytes_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy": {"type": "integer"}
    },
    "required": ["id", "name"]
}"#;

/// `schema` (an object with `required`) compiled with unknown members allowed, then denied.
fn open_and_closed(schema: &str) -> [(Program, NativeCode); 2] {
    let closed = schema.replacen(
        r#""required""#,
        r#""additionalProperties": false, "required""#,
        1,
    );
    [compiled(schema), compiled(&closed)]
}

/// Keys in and out of the schema's order, spelled with escapes, with whitespace before the
/// colon, one byte short or long of a name, cut at every byte: validate and decode are the
/// interpreter's, with and without unknown members allowed.
#[test]
fn expected_keys_compared_before_the_scan() {
    for (program, code) in open_and_closed(KEYED) {
        let in_order = concat!(
            r#"{"id":1,"name":"n","na\"me":true,"tab\tkey":null,"back\\slash":2,"#,
            r#""été":"e","a_name_of_exactly_sixty_four_bytes_xxxxxxxxxxxxxxxxxxxxxxxxxxxxx":3,"#,
            r#""a_name_of_exactly_sixty_five_bytes_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy":4}"#
        );
        let mut docs: Vec<Vec<u8>> = [
            in_order,
            r#"{"name":"n","id":1}"#,
            r#"{"id" :1,"name"
:"n"}"#,
            r#"{"i\u0064":1,"n\u0061me":"n","\u00e9t\u00e9":"x"}"#,
            r#"{"id":1,"names":"n","nam":"n"}"#,
            r#"{"id":1,"nam":"n"}"#,
            r#"{"id":1,"name":"a","name":"b"}"#,
            r#"{"id":1,"name":1}"#,
            // The names' special bytes unescaped, each where its name is the one expected.
            r#"{"id":1,"name":"n","na"me":true}"#,
            "{\"id\":1,\"name\":\"n\",\"na\\\"me\":true,\"tab\tkey\":null}",
            r#"{"id":1,"name":"n","na\"me":true,"tab\tkey":null,"back\slash":2}"#,
            r#"{"id":1,"name":"n","a_name_of_exactly_sixty_four_bytes_xxxxxxxxxxxxxxxxxxxxxxxxxxxxz":3}"#,
            r#"{"id":1,"name":"n","a_name_of_exactly_sixty_four_bytes_xxxxxxxxxxxxxxxxxxxxxxxxxxxxx_":3}"#,
            r#"{"id":1,"name":"n","a_name_of_exactly_sixty_five_bytes_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy":4,"x":0}"#,
            r#"{"id":1,"name":"n""#,
            // Members left out: the next name is tried once before the scan.
            r#"{"id":1,"na\"me":true,"back\\slash":2}"#,
            r#"{"name":"n","tab\tkey":null}"#,
        ]
        .iter()
        .map(|doc| doc.as_bytes().to_vec())
        .collect();
        // The non-ASCII name with its last character cut to an invalid byte.
        docs.push(b"{\"id\":1,\"name\":\"n\",\"\xc3\xa9t\xc3\":\"x\"}".to_vec());
        for doc in &docs {
            agree_around(&program, &code, doc, 40);
        }
    }
}

/// Unknown keys of every length from 0 to 70 bytes (past the 64 the length mask covers),
/// among [`KEYED`]'s names of lengths 2 to 65: a key whose length no name has is unknown
/// without the helper, any other goes to it; spelled plainly, with an escape, with a
/// non-ASCII character, and as a name cut or grown by one byte. Unknown members allowed
/// and denied.
#[test]
fn unknown_keys_of_every_length() {
    for (program, code) in open_and_closed(KEYED) {
        let mut keys: Vec<String> = Vec::new();
        for len in 0..=70 {
            keys.push("q".repeat(len));
            if len >= 6 {
                keys.push(format!("{}\\u0071", "q".repeat(len - 6)));
                keys.push(format!("\\u00e9{}", "q".repeat(len - 6)));
            }
            if len >= 2 {
                keys.push(format!("é{}", "q".repeat(len - 2)));
            }
        }
        keys.extend(["nam", "names", "i", "idd", r"name", r"id"].map(String::from));
        for key in &keys {
            let docs = [
                format!(r#"{{"id":1,"{key}":"v","name":"n"}}"#),
                format!(r#"{{"{key}": 12, "id": 1, "name": "n"}}"#),
            ];
            for doc in &docs {
                agree(&program, &code, doc.as_bytes());
            }
        }
    }
}

/// An object whose names can all be compared inline, several of one length (and one of
/// none): a scanned key is looked up by its length, then among the names of that length.
const SAME_LENGTHS: &str = r#"{
    "type": "object",
    "properties": {
        "ab": {"type": "integer"},
        "cd": {"type": "string"},
        "ef": {"type": "boolean"},
        "": {"type": "null"},
        "\u00e9t\u00e9": {"type": "string"},
        "abcdefgh": {"type": "integer"},
        "abcdefgi": {"type": "integer"},
        "a_name_of_exactly_sixty_four_bytes_xxxxxxxxxxxxxxxxxxxxxxxxxxxxx": {"type": "integer"}
    },
    "required": ["ab"]
}"#;

/// Members in another order than the table's (the order a schema read from a
/// `serde_json::Value` has), so the names compared before the scan miss and the scanned
/// key is looked up inline: names sharing a length, the empty name, a non-ASCII name,
/// unknown keys one byte off a name or longer than every name, names spelled with an
/// escape (the helper's), cut at every byte; unknown members allowed and denied.
#[test]
fn keys_in_another_order_looked_up_by_length() {
    for (program, code) in open_and_closed(SAME_LENGTHS) {
        let docs = [
            r#"{"a_name_of_exactly_sixty_four_bytes_xxxxxxxxxxxxxxxxxxxxxxxxxxxxx":1,"abcdefgi":2,"abcdefgh":3,"été":"e","":null,"ef":true,"cd":"c","ab":1}"#,
            r#"{"ef":false,"cd":"c","ab":1}"#,
            r#"{"cd":"c","ab":1,"ac":2}"#,
            r#"{"ef":true,"ab":"wrong kind"}"#,
            r#"{"abcdefgi":2,"abcdefgj":3,"ab":1}"#,
            r#"{"é":1,"ab":1,"ét":2,"été":3}"#,
            r#"{"cd":"c","a_name_of_exactly_sixty_four_bytes_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx":1,"ab":1}"#,
            r#"{"cd":"c","a_name_of_exactly_sixty_four_bytes_xxxxxxxxxxxxxxxxxxxxxxxxxxxxy":1,"ab":1}"#,
            r#"{"e\u0066":true,"\u0061b":1,"\u00e9t\u00e9":"e"}"#,
            r#"{"ef":true,"":1,"ab":1}"#,
            r#"{"cd" :"c","ab" : 1}"#,
            r#"{"ef":true,"cd":"c"}"#,
            r#"{"ef":true,"ef":false,"ab":1,"ab":2}"#,
        ];
        for doc in docs {
            agree_around(&program, &code, doc.as_bytes(), 40);
        }
    }
}

/// Values skipped where nothing is written (an unknown member's value, an item of `{}`):
/// short plain strings with every special byte at every position, and numbers followed by
/// every kind of byte (a delimiter, a letter, more number), inline or through the helper;
/// numbers under each policy for integers beyond 64 bits.
#[test]
fn skipped_values() {
    let (object, object_code) =
        compiled(r#"{"type": "object", "properties": {"id": {"type": "integer"}}}"#);
    let (array, array_code) = compiled(r#"{"type": "array", "items": {}}"#);
    for body in special_bodies(20) {
        let string = [b"\"", &body[..], b"\""].concat();
        let member = [b"{\"x\": ", &string[..], b", \"id\": 1}"].concat();
        agree(&object, &object_code, &member);
        agree(&array, &array_code, &[b"[", &string[..], b",1]"].concat());
    }
    let numbers = [
        "0",
        "7",
        "00",
        "01",
        "-0",
        "-1",
        "10",
        "1.5",
        "1e5",
        "1E400",
        "0.",
        "1.",
        ".5",
        "-",
        "1e",
        "123456789012345",
        "1234567890123456",
        "18446744073709551616",
        "99999999999999999999999",
    ];
    let tails = [
        ",", "]", "}", " ", "\t", "\n", "\r", "x", "e", ".", "-", ":", "\"", "",
    ];
    let policies = [BigInts::F64, BigInts::Error, BigInts::Raw].map(|big_ints| ExecOptions {
        big_ints,
        ..ExecOptions::default()
    });
    for number in numbers {
        for tail in tails {
            let docs = [
                format!(r#"{{"x": {number}{tail}, "id": 1}}"#),
                format!(r#"{{"x": {number}{tail}"#),
                format!("[{number}{tail}]"),
                format!("[{number}{tail}"),
            ];
            for (i, doc) in docs
                .iter()
                .enumerate()
                .filter(|(_, d)| in_sample(d.as_bytes()))
            {
                let (program, code) = match i < 2 {
                    true => (&object, &object_code),
                    false => (&array, &array_code),
                };
                for options in &policies {
                    assert_same(program, code, doc.as_bytes(), options);
                    assert_same_decode(program, code, doc.as_bytes(), options);
                }
            }
        }
    }
}

/// A key compared inline goes straight to its field's value, with the field recorded from
/// constants: repeated there (the last one kept, and denied at the repeated key's quote), its value
/// right after the colon, after whitespace, at the input's end, or of the wrong type
/// (the path names the field); validate and decode are the interpreter's.
#[test]
fn expected_keys_go_straight_to_their_value() {
    let (program, code) = compiled(KEYED);
    let docs = [
        r#"{"id":1,"name":"n","id":2,"name":"m"}"#,
        r#"{"id":1,"name":"n","na\"me":true,"id":2}"#,
        r#"{"id": 1,"name":  "n","na\"me":\ttrue}"#,
        "{\"id\":\n1,\"name\":\r\n\"n\"}",
        r#"{"id":"1","name":"n"}"#,
        r#"{"id":1,"name":2}"#,
        r#"{"id":1,"name":"#,
        r#"{"id":1,"name": "#,
        r#"{"id":1,"name":}"#,
    ];
    agree_on_prefixes_keeping_or_denying_duplicates(&program, &code, &docs);
    // The repeated field is found at its second spelling's quote when denied.
    let options = ExecOptions {
        duplicate_keys: DuplicateKeys::Deny,
        ..ExecOptions::default()
    };
    let doc = br#"{"id":1,"name":"n","id":2}"#;
    let err = code
        .validate(doc, &options, &mut native::Scratch::new())
        .expect_err("a repeated key is denied");
    assert_eq!(err.offset, 19, "{err:?}");
}

/// Members in schema order, written compactly: after each member's value, native code
/// compares `,"next":` (the field after it in the schema) in place and goes straight to
/// that field's value. Every way that guess can be wrong or cut short: another key, the
/// same field again (kept, or denied at its quote), a name one byte short or long, a space
/// or newline after the comma or before the colon, a value of the wrong type after the
/// guessed key (the path names the field), the object's end, a nested object of the same
/// shape (its own guess inside the outer member's), and every prefix. Validate and decode
/// are the interpreter's, with duplicates kept and denied.
#[test]
fn compact_members_in_schema_order() {
    const ORDERED: &str = r##"{
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "ab": {"type": "string"},
            "abc": {"type": "boolean"},
            "nested": {"$ref": "#"},
            "list": {"type": "array", "items": {"type": "integer"}},
            "last": {"type": "null"}
        },
        "required": ["a"]
    }"##;
    let closed = ORDERED.replacen(
        r#""required""#,
        r#""additionalProperties": false, "required""#,
        1,
    );
    let docs = [
        r#"{"a":1,"ab":"x","abc":true,"nested":{"a":2,"ab":"y"},"list":[1,2],"last":null}"#,
        r#"{"a":1,"ab":"x","abc":true,"nested":{"a":2,"ab":"y","abc":false},"last":null}"#,
        r#"{"a":1,"abc":true,"ab":"x"}"#,
        r#"{"a":1,"a":2,"ab":"x"}"#,
        r#"{"a":1,"ab":"x","ab":"y","abc":true}"#,
        r#"{"a":1,"abx":"x"}"#,
        r#"{"a":1,"a":"x"}"#,
        r#"{"a":1,"abcd":true}"#,
        r#"{"a":1, "ab":"x","abc" :true}"#,
        "{\"a\":1,\n\"ab\":\"x\",\"abc\":\ttrue}",
        r#"{"a":1,"ab":2}"#,
        r#"{"a":1,"ab":"x","abc":"no"}"#,
        r#"{"a":1,"ab":"x","abc":true,"nested":{"a":"2"}}"#,
        r#"{"a":1,"ab":"x","abc":true,"nested":{"a":2,"ab":"y"},"list":[1,"2"]}"#,
        r#"{"a":1,"ab":"x","abc":true,"nested":{},"list":[],"last":null,"extra":0}"#,
        r#"{"a":1,"ab":"x",}"#,
        r#"{"a":1,"ab":"x"]"#,
        r#"{"a":1,"\u0061b":"x","abc":true}"#,
        r#"{"ab":"x","abc":true}"#,
        // One member left out (the next name tried at the key), two (the scan), spaced so
        // that the key op, not the compact guess, reads them.
        r#"{"a":1,"abc":true,"list":[1],"last":null}"#,
        r#"{"a":1, "abc":true, "list":[1], "last":null}"#,
        r#"{"a":1, "nested":{"ab":"y", "nested":{}}, "last":null}"#,
        r#"{"a":1, "abc":true, "abc":false, "list":[], "ab":"x"}"#,
    ];
    for schema in [ORDERED, closed.as_str()] {
        let (program, code) = compiled(schema);
        agree_on_prefixes_keeping_or_denying_duplicates(&program, &code, &docs);
        for doc in docs {
            agree_around(&program, &code, doc.as_bytes(), 40);
        }
    }
    // The guessed field repeated is denied at its second quote.
    let (_, code) = compiled(ORDERED);
    let options = ExecOptions {
        duplicate_keys: DuplicateKeys::Deny,
        ..ExecOptions::default()
    };
    let doc = br#"{"a":1,"ab":"x","ab":"y"}"#;
    let err = code
        .validate(doc, &options, &mut native::Scratch::new())
        .expect_err("a repeated key is denied");
    assert_eq!(err.offset, 16, "{err:?}");
}

/// Runs of 1 to 17 digits (the inline reader takes up to 15, and up to 3 before a
/// fraction) with and without a sign and a leading zero, followed by every kind of byte that
/// ends or continues a number (fractions of every length among them), inside an array and
/// alone (where the 16-byte window passes the input's end), under bounds that every run
/// passes (read without the value), bounds a run can fail (15 nines against a maximum one
/// below; integer parts at and around ±90 and ±180, inclusive and exclusive; a minimum above
/// zero; one finite bound and two, against exponents beyond `f64`), and plain and non-integer
/// number types.
#[test]
fn numbers_read_inline() {
    for schema in [
        r#"{"type": "integer", "minimum": 0}"#,
        r#"{"type": "number", "minimum": -1}"#,
        r#"{"type": "integer", "exclusiveMinimum": -1, "maximum": 999999999999999}"#,
        r#"{"type": "integer", "maximum": 999999999999998}"#,
        r#"{"type": "integer", "exclusiveMinimum": 0}"#,
        r#"{"type": "integer"}"#,
        r#"{"type": "number"}"#,
        r#"{"type": "number", "minimum": -180, "maximum": 180}"#,
        r#"{"type": "number", "exclusiveMinimum": -90, "exclusiveMaximum": 90}"#,
        r#"{"type": "number", "minimum": 0.5, "maximum": 99.5}"#,
        r#"{"type": "integer", "minimum": -2147483648, "maximum": 2147483647}"#,
        r#"{"type": "integer", "minimum": 1}"#,
        r#"{"type": "integer", "exclusiveMinimum": -100, "exclusiveMaximum": 100}"#,
        r#"{"type": "number", "exclusiveMaximum": 123456789012}"#,
        r#"{"type": "number", "minimum": -123456789012.5, "maximum": 5e14}"#,
        r#"{"type": "number", "minimum": 1e300}"#,
    ] {
        let (item, item_code) = compiled(schema);
        let (array, array_code) = compiled(&format!(r#"{{"type": "array", "items": {schema}}}"#));
        let mut runs: Vec<String> = (1..=17)
            .flat_map(|len| {
                [
                    "9".repeat(len),
                    format!("1{}", "0".repeat(len - 1)),
                    format!("0{}", "7".repeat(len - 1)),
                    // Every digit in every place: the inline reading converts whole words.
                    "1234567890".chars().cycle().take(len).collect(),
                    "9876543210"
                        .chars()
                        .cycle()
                        .skip(len % 10)
                        .take(len)
                        .collect(),
                ]
            })
            .collect();
        runs.extend(
            [
                "89",
                "90",
                "91",
                "99",
                "100",
                "101",
                "179",
                "180",
                "181",
                "2147483647",
                "2147483648",
                "2147483649",
                "123456789011",
                "123456789012",
                "123456789013",
                "499999999999999",
                "500000000000000",
                "500000000000001",
            ]
            .map(String::from),
        );
        for run in &runs {
            for sign in ["", "-"] {
                for suffix in [
                    "",
                    ",1",
                    ".5",
                    ".",
                    ".5e1",
                    ".5.",
                    ".0000000000001",
                    ".00000000000001",
                    ".1234567890123456789012345678901",
                    ".12345678901234567890123456789012",
                    "e1",
                    "E1",
                    // Infinite (beyond `f64`) and zero after rounding.
                    "e400",
                    "E-400",
                    "x",
                    " ",
                    "]",
                    "-",
                    "\u{e9}",
                ] {
                    let token = format!("{sign}{run}{suffix}");
                    agree(&item, &item_code, token.as_bytes());
                    let doc = format!("[{token}, {token}]");
                    agree(&array, &array_code, doc.as_bytes());
                    let padded = format!("[{token}{}]", " ".repeat(16));
                    agree(&array, &array_code, padded.as_bytes());
                }
            }
        }
    }
}

/// Integer tokens beyond 2^53 against bounds (compared as integers, exactly): around 2^53,
/// 2^63, 2^64 and `i64::MIN`, and 18-digit ids, under integral, fractional, exclusive,
/// huge and one-sided bounds, on both kinds of token (`U64`, negative `I64`) and past them
/// (big integers, which the helper reads).
#[test]
fn large_integers_compared_with_bounds_exactly() {
    let two_53 = 1u64 << 53;
    let mut tokens: Vec<String> = Vec::new();
    for base in [
        two_53,
        1 << 63,
        u64::MAX,
        505_874_924_095_815_700,
        1_000_000_000_000_000_000,
    ] {
        for delta in 0..=2u64 {
            tokens.push(base.saturating_sub(delta).to_string());
            tokens.push(base.saturating_add(delta).to_string());
            tokens.push(format!("-{}", base.saturating_sub(delta)));
        }
    }
    tokens.extend(
        [
            "18446744073709551616",
            "-9223372036854775809",
            "0",
            "-0",
            "-1",
        ]
        .map(String::from),
    );
    for schema in [
        r#"{"type": "integer", "minimum": 0}"#,
        r#"{"type": "integer", "exclusiveMinimum": 0}"#,
        r#"{"type": "integer", "maximum": 1e18}"#,
        r#"{"type": "integer", "exclusiveMaximum": 1e18}"#,
        r#"{"type": "integer", "minimum": 9007199254740992, "maximum": 9.3e18}"#,
        r#"{"type": "integer", "minimum": -9223372036854775808}"#,
        r#"{"type": "integer", "exclusiveMinimum": -9.223372036854775808e18, "maximum": -0.5}"#,
        r#"{"type": "integer", "minimum": 2.5, "exclusiveMaximum": 18446744073709551616}"#,
        r#"{"type": "number", "minimum": -1e300, "maximum": 1e19}"#,
        r#"{"type": "number", "exclusiveMaximum": -9007199254740993}"#,
    ] {
        let (item, item_code) = compiled(schema);
        let (array, array_code) = compiled(&format!(r#"{{"type": "array", "items": {schema}}}"#));
        for token in &tokens {
            agree(&item, &item_code, token.as_bytes());
            agree(
                &array,
                &array_code,
                format!("[{token}, {token}]").as_bytes(),
            );
        }
    }
}

/// Strings under patterns of one ASCII class run (with length bounds).
#[test]
fn ascii_shapes_single_class_runs() {
    check_ascii_shapes(&[
        (r#""pattern": "^[0-9]+$""#, &[]),
        (r#""pattern": "^[0-9A-Fa-f]{6}$""#, &["c0FFee"]),
        (r#""pattern": "^[a-z]{2,4}$", "minLength": 3"#, &[]),
        (r#""pattern": "^[ -~]*$", "maxLength": 14"#, &[]),
        (r#""pattern": "^[0-9]{0,20}$""#, &[]),
    ]);
}

/// One class run without an upper bound, optional, or holding a backslash or a control byte.
#[test]
fn ascii_shapes_single_class_open_optional_escaped() {
    check_ascii_shapes(&[
        (r#""pattern": "^\\d{15,}$""#, &[]),
        (r#""pattern": "^x?$""#, &[]),
        (r#""pattern": "^[ax\\\\]+$""#, &[]),
        (r#""pattern": "^[\\u0001-~]*$""#, &[]),
    ]);
}

/// Classes with fixed counts in sequence.
#[test]
fn ascii_shapes_fixed_counts() {
    check_ascii_shapes(&[
        (r#""pattern": "^\\d{4}-\\d{2}-\\d{2}$""#, &["2024-01-31"]),
        (r#""pattern": "^[0-9]{15}-$""#, &["123456789012345-"]),
        (
            r#""pattern": "^[A-Z][a-z]{2} [A-Z][a-z]{2} [0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} [+-][0-9]{4} [0-9]{4}$""#,
            &["Sun Aug 31 00:29:15 +0000 2014"],
        ),
        (r#""pattern": "^\\d{2}-[a-z]$", "minLength": 5"#, &["12-x"]),
    ]);
}

/// Shapes longer than one 16-byte window.
#[test]
fn ascii_shapes_longer_than_a_window() {
    check_ascii_shapes(&[
        (
            r#""pattern": "^[a-f]{15}\\d{16}$""#,
            &["abcdefabcdefabc0123456789012345"],
        ),
        (
            r#""pattern": "^[a-f]{16}\\d{16}$""#,
            &["abcdefabcdefabcd0123456789012345"],
        ),
        // Windows read at the wrong place would accept a shorter body, closed early.
        (
            r#""pattern": "^x\\d{30}$""#,
            &["x012345678901234567890123456789"],
        ),
    ]);
}

/// Class runs that end in a second window (twitter's 18-digit `id_str`s): every length
/// through both windows and past them (each sample's prefixes), bounds inside the second
/// window and a `minLength` that only a two-window run meets.
#[test]
fn ascii_shapes_runs_across_two_windows() {
    const DIGITS: &str = "01234567890123456789012345678901234";
    check_ascii_shapes(&[
        (r#""pattern": "^[0-9]+$""#, &[DIGITS]),
        (r#""pattern": "^[0-9]{17,20}$""#, &[DIGITS]),
        (r#""pattern": "^[0-9]{0,31}$""#, &[DIGITS]),
        (r#""pattern": "^[0-9]+$", "minLength": 31"#, &[DIGITS]),
        (
            r#""pattern": "^[ -~]*$", "maxLength": 24"#,
            &["http://t.co/abcdefgh?q=1&x=yz-0123"],
        ),
    ]);
}

/// For each `(pattern keywords, samples)`: string bodies of every fill (digits, letters,
/// spaces) up to 18 bytes and every prefix of each sample, each with every special byte at
/// every position, checked alone (closed and unclosed) and as array items (closed by `]`
/// right after and after 16 spaces) against the interpreter.
fn check_ascii_shapes(cases: &[(&str, &[&str])]) {
    for &(pattern, samples) in cases {
        let schema = format!(r#"{{"type": "string", {pattern}}}"#);
        let (item, item_code) = compiled(&schema);
        let (array, array_code) = compiled(&format!(r#"{{"type": "array", "items": {schema}}}"#));
        let mut seeds: Vec<Vec<u8>> = (0..=18)
            .flat_map(|len| [b'7', b'a', b'F', b'x', b' '].map(|fill| vec![fill; len]))
            .collect();
        for sample in samples {
            let sample = sample.as_bytes();
            seeds.extend((0..sample.len()).map(|end| sample[..end].to_vec()));
            seeds.push([sample, b"0"].concat());
            seeds.push(sample.to_vec());
        }
        let mut bodies = Vec::new();
        for seed in &seeds {
            for at in 0..seed.len() {
                for special in SPECIALS {
                    bodies.push([&seed[..at], special, &seed[at + 1..]].concat());
                }
            }
            bodies.push(seed.clone());
        }
        for body in &bodies {
            let string = [&b"\""[..], body, b"\""].concat();
            agree(&item, &item_code, &string);
            agree(&item, &item_code, &string[..string.len() - 1]);
            let doc = [&b"["[..], &string, b", ", &string, b"]"].concat();
            agree(&array, &array_code, &doc);
            let padded = [&b"["[..], &string, &[b' '; 16], b"]"].concat();
            agree(&array, &array_code, &padded);
        }
    }
}

/// Finished arrays reach the arena whole: every length from empty to past the inline copy's
/// limit and the first slabs' sizes, side by side, nested, in records, and enough of them to
/// fill many slabs (copied inline or by the helper, into the current slab or a new one).
#[test]
fn arrays_of_every_length_reach_the_arena() {
    let rows: Vec<String> = (0..=40)
        .map(|n| {
            let items: Vec<String> = (0..n).map(|i| (i * 7 + n).to_string()).collect();
            format!("[{}]", items.join(","))
        })
        .collect();
    let many: Vec<&str> = rows
        .iter()
        .rev()
        .cycle()
        .take(400)
        .map(String::as_str)
        .collect();
    let (program, code) =
        compiled(r#"{"type": "array", "items": {"type": "array", "items": {"type": "number"}}}"#);
    agree(&program, &code, format!("[{}]", rows.join(",")).as_bytes());
    agree(&program, &code, format!("[{}]", many.join(",")).as_bytes());
    let (program, code) = compiled(
        r#"{"type": "array", "items": {"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "number"}}, "b": {"type": "integer"}}}}"#,
    );
    let records: Vec<String> = many
        .iter()
        .enumerate()
        .map(|(i, row)| format!(r#"{{"a": {row}, "b": {i}}}"#))
        .collect();
    agree(
        &program,
        &code,
        format!("[{}]", records.join(",")).as_bytes(),
    );
    // Items of no bytes: nothing copied (a regression: the copy loop wrote to address 0).
    let (program, code) = compiled(r#"{"type": "array", "items": {"type": "null"}}"#);
    agree(&program, &code, b"[null, null, null]");
}

/// Arrays whose count is bounded (a tuple with no items past its prefix, a `maxItems`) write
/// their items in place in the arena slab: every length up to the bound and past it (the
/// item past a tuple fails at its own op; past a `maxItems`, the items outgrow the
/// reservation and move to a scratch buffer before `arr-end` fails), side by side across
/// many slabs, tuples of tuples (the inner ones placed after the outer reservation), tuples
/// in records, and a bounded branch of an `anyOf` that outgrows its reservation and fails
/// before the unbounded branch decodes.
#[test]
fn bounded_arrays_are_written_in_the_slab() {
    let pair = r#"{"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
        "items": false}"#;
    let tuples: Vec<String> = (0..400)
        .map(|i| match i % 3 {
            0 => "[]".to_string(),
            1 => format!("[{i}.5]"),
            _ => format!("[-{i}.25, {i}]"),
        })
        .collect();
    let (program, code) = compiled(&format!(r#"{{"type": "array", "items": {pair}}}"#));
    agree(
        &program,
        &code,
        format!("[{}]", tuples.join(",")).as_bytes(),
    );
    for at in [0, 1, 199, 399] {
        let mut long = tuples.clone();
        long[at] = "[1, 2, 3]".to_string();
        agree(&program, &code, format!("[{}]", long.join(",")).as_bytes());
    }
    agree_around(&program, &code, b"[[1.5, -2], [], [3], [4, 5]]", 20);

    let (program, code) = compiled(&format!(
        r#"{{"type": "array", "items": {{"type": "array", "prefixItems": [{pair}, {pair}],
            "items": false}}}}"#
    ));
    let nested: Vec<String> = (0..300)
        .map(|i| match i % 4 {
            0 => "[]".to_string(),
            1 => format!("[[{i}, 1]]"),
            2 => format!("[[{i}], [2, {i}]]"),
            _ => format!("[[], [{i}, 3.5]]"),
        })
        .collect();
    agree(
        &program,
        &code,
        format!("[{}]", nested.join(",")).as_bytes(),
    );
    agree_around(&program, &code, b"[[[1, 2], [3, 4]], [[5]]]", 20);

    let (program, code) = compiled(&format!(
        r#"{{"type": "array", "items": {{"type": "object", "properties": {{"p": {pair},
            "q": {{"type": "string"}}}}}}}}"#
    ));
    let records: Vec<String> = tuples
        .iter()
        .enumerate()
        .map(|(i, t)| format!(r#"{{"q": "r{i}", "p": {t}}}"#))
        .collect();
    agree(
        &program,
        &code,
        format!("[{}]", records.join(",")).as_bytes(),
    );

    let capped = r#"{"type": "array", "items": {"type": "integer"}, "maxItems": 3}"#;
    let (program, code) = compiled(&format!(r#"{{"type": "array", "items": {capped}}}"#));
    let (branches, branches_code) = compiled(&format!(
        r#"{{"type": "array", "items": {{"anyOf": [{capped},
            {{"type": "array", "items": {{"type": "number"}}}}]}}}}"#
    ));
    for n in 0..=12 {
        let row: Vec<String> = (0..n).map(|i| (i * 3 + n).to_string()).collect();
        let row = format!("[{}]", row.join(","));
        // Short arrays first: the arena's first slabs are too small to reserve in.
        let doc = format!("[{}{row}, [1, 2], {row}, []]", "[1, 2], [3], ".repeat(20));
        agree(&program, &code, doc.as_bytes());
        agree(&branches, &branches_code, doc.as_bytes());
    }
}

/// Arrays of leaves (a GeoJSON position, a tuple with a tail, lists of strings and flags) are
/// written in place by their container's encode code, and constant bytes and numbers spend
/// the room one capacity check reserved: native encode writes what the plan's walk writes
/// into outputs of every spare capacity, each an allocation of its own exact size (CI's
/// valgrind run sees any write past it), also where a big integer's text (a helper's output
/// of any length) comes between numbers, and after tuples whose items leave every budget
/// from 0 up for the closing bracket.
#[test]
fn leaf_arrays_encode_in_place_at_every_capacity() {
    let pair = r#"{"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}]"#;
    let (_, code) = compiled(&format!(
        r#"{{"type": "object", "properties": {{
            "pos": {pair}, "items": false}},
            "ring": {{"type": "array", "items": {pair}}}}},
            "mixed": {{"type": "array", "prefixItems": [{{"type": "boolean"}}, {{"type": "null"}},
                {{"type": "integer"}}], "items": {{"type": "number"}}}},
            "tags": {{"type": "array", "items": {{"type": "string"}}}},
            "flags": {{"type": "array", "items": {{"type": "boolean"}}}},
            "six": {{"type": "array", "prefixItems": [{six}]}},
            "twelve": {{"type": "array", "prefixItems": [{twelve}], "items": false}},
            "record": {{"type": "object", "properties": {{{members}}}}}}}}}"#,
        six = ["{\"type\": \"number\"}"; 6].join(", "),
        twelve = ["{\"type\": \"boolean\"}"; 12].join(", "),
        members = (0..12)
            .map(|i| {
                let kind = ["boolean", "number"][i % 2];
                format!(r#""a_rather_long_member_name_{i:02}": {{"type": "{kind}"}}"#)
            })
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let docs = [
        r#"{"pos": [1.5, -2], "ring": [[1, 2], [3.25, 4, 5], [], [6]], "mixed": [true, null, 7,
            1e300, -0.0], "tags": ["a", "b\n"], "flags": [true, false, true]}"#,
        r#"{"pos": [123456789012345678901234567890, 2], "ring": [[-98765432109876543210987654321,
            1.5, 340282366920938463463374607431768211456]], "mixed": [false, null,
            18446744073709551616, 1, -2, 3e-300]}"#,
        r#"{"pos": [1234567890123456789012345678901234567890123456789012345, -0.1234567890123456],
            "ring": [[-12345678901234567890123456789012345678901234567890, -1.7976931348623157e308]]}"#,
        r#"{"pos": [], "ring": [], "mixed": [], "tags": [], "flags": []}"#,
        r#"{"ring": [[0.1, 0.2], [0.30000000000000004, -1.7976931348623157e308]],
            "flags": [false], "pos": [-9223372036854775808]}"#,
        r#"{"six": [-1.2345678901234567e-300, -2.2250738585072014e-308, 4.125,
            -1.7976931348623157e308, -9.8765432109876543e-123, -5e-5], "ring": [[1, 2]],
            "twelve": [false, false, true, false, false, false, false, false, false, false,
            false, false]}"#,
    ];
    // Members written one after another with no call between them (keys, `false`, numbers).
    let record = |number: &str| {
        let members: Vec<String> = (0..12)
            .map(|i| {
                let value = if i % 2 == 0 { "false" } else { number };
                format!(r#""a_rather_long_member_name_{i:02}": {value}"#)
            })
            .collect();
        format!(r#"{{"record": {{{}}}, "tags": ["z"]}}"#, members.join(", "))
    };
    let records = [
        "1",
        "-1.2345678901234567e-300",
        "123456789012345678901234567890",
    ]
    .map(record);
    let docs = docs
        .iter()
        .copied()
        .chain(records.iter().map(String::as_str));
    encodes_at_every_capacity(&code, docs);
    // Tuples of booleans, nulls and a number, each item as long as it can be (`false`, a
    // 24-byte number): the budget their items leave for the close takes every value from 0
    // up, and is exactly the room left.
    let mut members = Vec::new();
    let mut docs = Vec::new();
    for bools in 0..6 {
        for nulls in 0..6 {
            // `bools` booleans, `nulls` nulls, a number: as schemas or as values.
            let tuple = |boolean: &str, null: &str, number: &str| {
                let mut parts = vec![boolean; bools];
                parts.extend(vec![null; nulls]);
                parts.push(number);
                parts.join(", ")
            };
            let items = tuple(
                r#"{"type": "boolean"}"#,
                r#"{"type": "null"}"#,
                r#"{"type": "number"}"#,
            );
            members.push(format!(
                r#""t{bools}{nulls}": {{"type": "array", "prefixItems": [{items}], "items": false}}"#
            ));
            let values = tuple("false", "null", "-1.2345678901234567e-300");
            docs.push(format!(r#"{{"t{bools}{nulls}": [{values}]}}"#));
        }
    }
    let (_, code) = compiled(&format!(
        r#"{{"type": "object", "properties": {{{}}}}}"#,
        members.join(", ")
    ));
    encodes_at_every_capacity(&code, docs.iter().map(String::as_str));
}

/// Native encode of each of `docs` (decoded with `code`, big integers kept) writes what the
/// plan's walk writes, into outputs of every spare capacity after 0 or 5 bytes, each its own
/// allocation of that exact size.
fn encodes_at_every_capacity<'d>(code: &NativeCode, docs: impl Iterator<Item = &'d str>) {
    use jitson::jit::encode::EncodePlan;
    use jitson::jit::ir::BigInts;
    use jitson_kernels::escape::EscapeMode;
    let options = ExecOptions {
        big_ints: BigInts::Raw,
        ..ExecOptions::default()
    };
    let mut scratch = native::Scratch::new();
    for doc in docs {
        let decoded = (code.decode(doc.as_bytes(), &options, &mut scratch))
            .unwrap_or_else(|f| panic!("{doc}: {f:?}"));
        let plan = EncodePlan::new(decoded.layout().clone(), EscapeMode::Minimal);
        let mut expected = Vec::new();
        plan.encode(decoded.root(), decoded.big_ints(), &mut expected);
        for held in [0, 5] {
            for spare in 0..=expected.len() + 8 {
                let mut out = Vec::with_capacity(held + spare);
                out.resize(held, b'x');
                let native = code.encode(&plan, decoded.root(), decoded.big_ints(), &mut out);
                assert!(native, "native code wrote {doc}");
                assert_eq!(
                    String::from_utf8_lossy(&out[held..]),
                    String::from_utf8_lossy(&expected),
                    "{held} bytes held, {spare} spare"
                );
            }
        }
    }
}

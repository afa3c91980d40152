//! Encode documents back to JSON: corpus round trips (the same value as `serde_json`'s parse,
//! and `serde_json`'s exact bytes where the schema's field order is the input's), escape
//! modes, numbers and raw values. Every case runs on an interpreter codec (the plan's walk)
//! and a native one (decode and encode compiled), which must write the same bytes.

mod engine_support;
#[path = "value_support/mod.rs"]
mod value_support;

use engine_support::{CORPUS, corpus_schema, testdata};
use jitson::engine::{Backend, BackendStatus, EscapeMode, Options};
use jitson::{Codec, Schema};
use serde_json::Value;
use value_support::compare;

/// Codecs of `schema` with `options` on each backend: the interpreter, then native code.
fn both(schema: &Schema, options: Options) -> [Codec; 2] {
    let native = Codec::with_options(schema, options.backend(Backend::Native));
    assert_eq!(native.backend(), &BackendStatus::Native);
    [
        Codec::with_options(schema, options.backend(Backend::Interpreter)),
        native,
    ]
}

/// What each codec writes for its decode of `input`: the same bytes (after a prefix the
/// output already held).
fn encode(codecs: &[Codec; 2], input: &[u8]) -> Vec<u8> {
    let [interp, native] = codecs.each_ref().map(|codec| {
        let doc = codec.decode(input).unwrap_or_else(|e| panic!("{e}"));
        let mut out = b"prefix".to_vec();
        codec.encode(&doc, &mut out);
        out.split_off(6)
    });
    assert_eq!(
        String::from_utf8_lossy(&native),
        String::from_utf8_lossy(&interp),
        "native encode against the plan's walk"
    );
    native
}

#[test]
fn corpus_round_trips_give_serde_json_values() {
    for (doc, schema) in CORPUS {
        let codec = both(&corpus_schema(schema), Options::new());
        let bytes = testdata(&format!("bench/{doc}.json"));
        let out = encode(&codec, &bytes);
        let theirs: Value = serde_json::from_slice(&bytes).unwrap();
        let back: Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{doc}: {e}"));
        compare(&back, &theirs).unwrap_or_else(|e| panic!("{doc}: {e}"));
    }
}

/// With `{}` (and schemas whose fields follow the input's order) the output is exactly
/// `serde_json::to_vec` of the parsed value (serde_json sorts keys: sorted inputs only).
#[test]
fn encode_writes_serde_json_bytes() {
    let any = both(&Schema::from_json_str("{}").unwrap(), Options::new());
    let typed = both(
        &Schema::from_json_str(
            r#"{"type": "object", "properties": {"a": {"type": "array", "items": {"type": "number"}},
                "b": {"type": "string"}, "c": {"type": ["integer", "null"]}}}"#,
        )
        .unwrap(),
        Options::new(),
    );
    for text in [
        r#"{"a": [1, -2, 3.5, 1e300, -0, 1.0E2, 18446744073709551615, 18446744073709551616], "b": "x\u0041\n\u00e9\ud83d\ude00", "c": null, "d": {"z": [true, false, null]}}"#,
        r#"{"a": [], "b": "", "c": -9223372036854775808}"#,
        r#"  { "d" : [ { } , [ ] , "\/" ] }  "#,
    ] {
        let theirs = serde_json::to_vec(&serde_json::from_str::<Value>(text).unwrap()).unwrap();
        for codec in [&any, &typed] {
            let ours = encode(codec, text.as_bytes());
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs)
            );
        }
    }
}

#[test]
fn named_fields_come_in_schema_order_then_unknown_members() {
    let codec = both(
        &Schema::from_json_str(
            r#"{"type": "object", "properties": {"b": {"type": "integer"}, "a": {"type": "boolean"}}}"#,
        )
        .unwrap(),
        Options::new(),
    );
    let out = encode(
        &codec,
        br#"{"z": 1, "a": true, "y": [ 2 ], "b": 3, "b": 4}"#,
    );
    assert_eq!(out, br#"{"b":4,"a":true,"z":1,"y":[2]}"#);
}

#[test]
fn escape_modes() {
    let schema =
        Schema::from_json_str(r#"{"type": "array", "items": {"type": "string"}}"#).unwrap();
    let input = r#"["<a href=\"x\">&amp;</a>", "caf\u00e9 \ud83d\ude00", "\u2028\u0001"]"#;
    let cases = [
        (
            EscapeMode::Minimal,
            "[\"<a href=\\\"x\\\">&amp;</a>\",\"café 😀\",\"\u{2028}\\u0001\"]",
        ),
        (
            EscapeMode::Ascii,
            r#"["<a href=\"x\">&amp;</a>","caf\u00e9 \ud83d\ude00","\u2028\u0001"]"#,
        ),
        (
            EscapeMode::Html,
            "[\"\\u003ca href=\\\"x\\\"\\u003e\\u0026amp;\\u003c/a\\u003e\",\"café 😀\",\"\\u2028\\u0001\"]",
        ),
    ];
    for (mode, expected) in cases {
        let codec = both(&schema, Options::new().escape(mode));
        let out = encode(&codec, input.as_bytes());
        assert_eq!(String::from_utf8(out).unwrap(), expected, "{mode:?}");
    }
    // Raw (`any`) values are rewritten with the same mode.
    let any = both(
        &Schema::from_json_str("{}").unwrap(),
        Options::new().escape(EscapeMode::Ascii),
    );
    assert_eq!(
        encode(&any, br#"{"k\u00e9": ["\u00e9"]}"#),
        br#"{"k\u00e9":["\u00e9"]}"#
    );
    // Keys follow the mode too, named fields and unknown members alike (plain keys take a
    // fast path that must not differ).
    let keyed =
        Schema::from_json_str(r#"{"properties": {"plain": {}, "caf\u00e9": {}, "<q\"\n>": {}}}"#)
            .unwrap();
    let input = br#"{"plain": 1, "caf\u00e9": 2, "<q\"\n>": 3, "x\u2028": 4, "\u007f": 5}"#;
    let cases = [
        (
            EscapeMode::Minimal,
            "{\"plain\":1,\"café\":2,\"<q\\\"\\n>\":3,\"x\u{2028}\":4,\"\u{7f}\":5}",
        ),
        (
            EscapeMode::Ascii,
            "{\"plain\":1,\"caf\\u00e9\":2,\"<q\\\"\\n>\":3,\"x\\u2028\":4,\"\u{7f}\":5}",
        ),
        (
            EscapeMode::Html,
            "{\"plain\":1,\"café\":2,\"\\u003cq\\\"\\n\\u003e\":3,\"x\\u2028\":4,\"\u{7f}\":5}",
        ),
    ];
    for (mode, expected) in cases {
        let codec = both(&keyed, Options::new().escape(mode));
        let out = String::from_utf8(encode(&codec, input)).unwrap();
        assert_eq!(out, expected, "{mode:?}");
    }
    let minimal = both(&keyed, Options::new());
    let value: serde_json::Value = serde_json::from_slice(input).unwrap();
    let mut sorted: Vec<_> = serde_json::to_string(&value).unwrap().into_bytes();
    let mut ours = encode(&minimal, input);
    sorted.sort_unstable();
    ours.sort_unstable();
    assert_eq!(
        ours, sorted,
        "the same bytes as serde_json, in another member order"
    );
}

#[test]
fn unions_and_recursive_schemas_round_trip() {
    let schema = Schema::from_json_str(
        r##"{"$defs": {"node": {"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "array", "items": {"$ref": "#/$defs/node"}}]},
             "next": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/node"}]}}, "required": ["v"]}},
           "$ref": "#/$defs/node"}"##,
    )
    .unwrap();
    let codec = both(&schema, Options::new());
    for text in [
        r#"{"v":"a","next":{"v":1,"next":{"v":[{"v":"x"},{"v":[],"next":null}]}}}"#,
        r#"{"v":2}"#,
    ] {
        assert_eq!(
            String::from_utf8(encode(&codec, text.as_bytes())).unwrap(),
            text
        );
    }
}

/// A codec keeps its layout's encode plan (and native encode code) after the first
/// `encode`; a document of another codec (another layout) is written with a plan made for
/// it, never with the wrong one.
#[test]
fn documents_of_another_codec_encode_as_their_own_codec_writes_them() {
    for backend in [Backend::Interpreter, Backend::Native] {
        let named = Codec::with_options(
            &Schema::from_json_str(
                r#"{"type": "object", "properties": {"k": {"enum": ["x", "y"]},
                    "n": {"type": "integer"}, "s": {"type": "string"}}}"#,
            )
            .unwrap(),
            Options::new().backend(backend),
        );
        let ascii = Codec::with_options(
            &Schema::from_json_str(r#"{"type": "array", "items": {"type": "string"}}"#).unwrap(),
            Options::new().escape(EscapeMode::Ascii).backend(backend),
        );
        let object = br#"{"s": "\u00e9", "k": "y", "extra": [1], "n": 7}"#;
        let array = br#"["\u00e9", "a"]"#;
        let object_doc = named.decode(object).unwrap();
        let array_doc = ascii.decode(array).unwrap();
        for _ in 0..2 {
            let (mut own, mut other) = (Vec::new(), Vec::new());
            named.encode(&object_doc, &mut own);
            ascii.encode(&object_doc, &mut other);
            assert_eq!(own, r#"{"k":"y","n":7,"s":"é","extra":[1]}"#.as_bytes());
            // The other codec's escape mode, the document's own layout.
            assert_eq!(other, br#"{"k":"y","n":7,"s":"\u00e9","extra":[1]}"#);
            let (mut own, mut other) = (Vec::new(), Vec::new());
            ascii.encode(&array_doc, &mut own);
            named.encode(&array_doc, &mut other);
            assert_eq!(own, br#"["\u00e9","a"]"#);
            assert_eq!(other, r#"["é","a"]"#.as_bytes());
        }
    }
}

/// Containers nested past the encoder's inline frames (eight) and back: every depth from 1 to
/// 40, arrays and objects alternating, with leaf items and members before and after each
/// nested container, on a recursive schema and on `{}`.
#[test]
fn deep_nesting_writes_serde_json_bytes() {
    let recursive = both(
        &Schema::from_json_str(
            r##"{"$defs": {"node": {"type": "object", "properties": {
                    "a": {"type": "integer"},
                    "kids": {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "number"}]}},
                    "z": {"type": "string"}}}},
                "$ref": "#/$defs/node"}"##,
        )
        .unwrap(),
        Options::new(),
    );
    let any = both(&Schema::from_json_str("{}").unwrap(), Options::new());
    for depth in 1..=40 {
        let mut text = String::new();
        for level in 0..depth {
            text.push_str(&format!(r#"{{"a":{level},"kids":[1.5,"#));
        }
        text.push_str(r#"{"a":-1}"#);
        for level in (0..depth).rev() {
            text.push_str(&format!(r#",{level}],"z":"end{level}"}}"#));
        }
        let theirs = serde_json::to_vec(&serde_json::from_str::<Value>(&text).unwrap()).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&encode(&recursive, text.as_bytes())),
            text,
            "recursive schema, depth {depth}"
        );
        assert_eq!(
            String::from_utf8_lossy(&encode(&any, text.as_bytes())),
            String::from_utf8_lossy(&theirs),
            "{{}}, depth {depth}"
        );
    }
}

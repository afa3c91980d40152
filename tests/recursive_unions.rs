//! Recursive unions of tagged objects (an expression tree, OpenAPI's polymorphic types):
//! every branch reaches the union again one member down, so trying every branch at every
//! level costs branches^depth. A discriminator, found through `allOf` parts too, sends a
//! tagged object to its one branch, and an object without a tag every branch requires to
//! none, on every backend and in the reference validator (which the engine asks where an
//! error lies). Documents a hundred levels deep: the test would not end otherwise.

use std::time::Duration;

use jitson::engine::{Backend, Engine, EngineOptions, Options, Tiering, TranscodeOptions, Unknown};
use jitson::schema::TypeDesc;
use jitson::{Codec, Schema};

/// Levels of the deep documents (the default nesting limit is 128).
const DEPTH: usize = 100;

/// Pets whose owner is a pet: each branch an `allOf` of the base and its tag.
const PETS: &str = r##"{
    "$ref": "#/$defs/pet",
    "$defs": {
        "base": {"type": "object", "properties": {"owner": {"$ref": "#/$defs/pet"}, "name": {"type": "string"}}},
        "pet": {"oneOf": [{"$ref": "#/$defs/cat"}, {"$ref": "#/$defs/dog"}, {"$ref": "#/$defs/bird"}]},
        "cat": {"allOf": [{"$ref": "#/$defs/base"}, {"properties": {"kind": {"const": "cat"}}, "required": ["kind"]}]},
        "dog": {"allOf": [{"$ref": "#/$defs/base"}, {"properties": {"kind": {"const": "dog"}}, "required": ["kind"]}]},
        "bird": {"allOf": [{"$ref": "#/$defs/base"}, {"properties": {"kind": {"const": "bird"}}, "required": ["kind"]}]}
    }
}"##;

/// An expression tree: numbers, sums and products of expressions.
const EXPRESSIONS: &str = r##"{
    "$ref": "#/$defs/expr",
    "$defs": {
        "expr": {"anyOf": [{"$ref": "#/$defs/num"}, {"$ref": "#/$defs/add"}, {"$ref": "#/$defs/mul"}]},
        "num": {"type": "object", "properties": {"op": {"const": "num"}, "v": {"type": "number"}}, "required": ["op", "v"]},
        "add": {"type": "object", "properties": {"op": {"const": "add"}, "l": {"$ref": "#/$defs/expr"}, "r": {"$ref": "#/$defs/expr"}}, "required": ["op", "l"]},
        "mul": {"type": "object", "properties": {"op": {"const": "mul"}, "l": {"$ref": "#/$defs/expr"}, "r": {"$ref": "#/$defs/expr"}}, "required": ["op", "l"]}
    }
}"##;

/// Every operation of a codec on `input`: validate, collect-all validate, decode then
/// encode, transcode (unknown members dropped, which walks the schema).
fn answers(codec: &Codec, input: &[u8]) -> impl PartialEq + std::fmt::Debug {
    let encoded = codec.decode(input).map(|doc| {
        let mut out = Vec::new();
        codec.encode(&doc, &mut out);
        out
    });
    let mut transcoded = Vec::new();
    let options = TranscodeOptions::new().unknown(Unknown::Drop);
    let transcode = codec.transcode(input, &options, &mut transcoded);
    let all = codec.validate_all(input, 10);
    (codec.validate(input), all, encoded, transcode, transcoded)
}

/// Checks each document with every operation on the interpreter, on native code (a lone
/// codec and an engine's) and on the reference validator: the same answers. Returns the
/// interpreter's validate result of each.
fn agree(schema: &Schema, documents: &[String]) -> Vec<Result<(), String>> {
    let interp = Codec::new(schema);
    let native = Codec::with_options(schema, Options::new().backend(Backend::Native));
    let engine = Engine::with_options(EngineOptions::new().tiering(Tiering::Eager));
    let tiered = engine.compile(schema);
    tiered.wait_native(Duration::from_secs(120));
    let mut verdicts = Vec::new();
    for document in documents {
        let value: serde_json::Value = serde_json::from_str(document).unwrap();
        let reference = schema.validate_value(&value).map_err(|e| e.to_string());
        let got = interp.validate(document.as_bytes());
        assert_eq!(got.is_ok(), reference.is_ok(), "{document}: {got:?}");
        let expected = answers(&interp, document.as_bytes());
        let bytes = document.as_bytes();
        assert_eq!(answers(&native, bytes), expected, "{document}");
        assert_eq!(answers(&tiered, bytes), expected, "{document}");
        verdicts.push(got.map_err(|e| e.to_string()));
    }
    verdicts
}

/// A chain of `DEPTH` objects, each `level(i, inner)` around the next; `bottom` innermost.
fn nest(bottom: &str, level: impl Fn(usize, &str) -> String) -> String {
    (0..DEPTH)
        .rev()
        .fold(bottom.to_owned(), |inner, i| level(i, &inner))
}

/// The union at the root of `schema` (through its `$ref`), which must have a discriminator.
fn discriminated(schema: &Schema) -> bool {
    match schema.node(schema.root()) {
        TypeDesc::OneOf(u) | TypeDesc::AnyOf(u) => {
            u.discriminator.as_ref().is_some_and(|d| d.required)
        }
        _ => false,
    }
}

#[test]
fn pets_owned_by_pets() {
    let schema = Schema::from_json_str(PETS).unwrap();
    assert!(discriminated(&schema), "{schema:?}");
    const KINDS: [&str; 3] = ["cat", "dog", "bird"];
    let tagged = |bottom: &str| {
        nest(bottom, |i, inner| match i % 2 {
            0 => format!(r#"{{"kind": "{}", "owner": {inner}}}"#, KINDS[i % 3]),
            _ => format!(
                r#"{{"owner": {inner}, "name": "p{i}", "kind": "{}"}}"#,
                KINDS[i % 3]
            ),
        })
    };
    let untagged = |bottom: &str| nest(bottom, |_, inner| format!(r#"{{"owner": {inner}}}"#));
    let documents = [
        tagged(r#"{"kind": "cat"}"#),
        tagged(r#"{"kind": "bird", "name": 5}"#),
        tagged(r#"{"kind": "cow"}"#),
        tagged(r#"{"name": "no kind"}"#),
        tagged(r#"{"kind": "dog", "kind": "dog"}"#),
        untagged(r#"{"kind": "cat"}"#),
        untagged("{}"),
        untagged("[]"),
    ];
    let verdicts = agree(&schema, &documents);
    let valid: Vec<bool> = verdicts.iter().map(Result::is_ok).collect();
    assert_eq!(
        valid,
        [true, false, false, false, true, false, false, false]
    );
    // The bottom error, located through the branch each level's tag selects.
    let e = Codec::new(&schema)
        .validate(documents[1].as_bytes())
        .unwrap_err();
    let path = format!("$.{}.name", vec!["owner"; DEPTH].join("."));
    assert_eq!(e.path().to_string(), path);
    let levels: String = (0..DEPTH)
        .map(|i| format!("/oneOf/{}/properties/owner", i % 3))
        .collect();
    let pointer = format!("{levels}/oneOf/2/properties/name/type");
    assert_eq!(e.schema_pointer(), Some(pointer.as_str()));
}

#[test]
fn expression_trees() {
    let schema = Schema::from_json_str(EXPRESSIONS).unwrap();
    assert!(discriminated(&schema), "{schema:?}");
    let ops = ["add", "mul"];
    let tree = |bottom: &str| {
        nest(bottom, |i, inner| {
            format!(
                r#"{{"op": "{}", "l": {inner}, "r": {{"op": "num", "v": {i}}}}}"#,
                ops[i % 2]
            )
        })
    };
    let documents = [
        tree(r#"{"op": "num", "v": 1}"#),
        tree(r#"{"op": "num", "v": "one"}"#),
        tree(r#"{"op": "sub", "l": {"op": "num", "v": 1}}"#),
        tree(r#"{"v": 1}"#),
        nest(r#"{"op": "num", "v": 1}"#, |_, inner| {
            format!(r#"{{"l": {inner}}}"#)
        }),
        nest(r#"{"op": "num", "v": 1}"#, |_, inner| {
            format!(r#"{{"l": {inner}, "op": "add"}}"#)
        }),
    ];
    let verdicts = agree(&schema, &documents);
    let valid: Vec<bool> = verdicts.iter().map(Result::is_ok).collect();
    assert_eq!(valid, [true, false, false, false, false, true]);
}

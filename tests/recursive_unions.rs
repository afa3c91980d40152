//! Recursive unions of tagged objects (an expression tree, OpenAPI's polymorphic types):
//! every branch reaches the union again one member down, so trying every branch at every
//! level costs branches^depth. A discriminator, found through `allOf` parts too, sends a
//! tagged object to its one branch, and an object without a tag every branch requires to
//! none, on every backend and in the reference validator (which the engine asks where an
//! error lies). Untagged unions whose branches reach the same subschema, and links that
//! check one value with the next link twice, are linear because every backend remembers
//! those checks per position; the same programs without their plan answer every operation
//! alike. Documents a hundred levels deep: the test would not end otherwise.

mod operations_support;

use jitson::Schema;
use jitson::schema::TypeDesc;
use jitson_jit::interp::{self, TranscodeSpec, Unknown};
use jitson_jit::ir::{ExecOptions, Program};
use jitson_jit::recall::Recall;
use jitson_kernels::escape::EscapeMode;
use operations_support::agree;

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

/// A chain of `DEPTH` objects, each `level(i, inner)` around the next; `bottom` innermost.
fn nest(bottom: &str, level: impl Fn(usize, &str) -> String) -> String {
    (0..DEPTH)
        .rev()
        .fold(bottom.to_owned(), |inner, i| level(i, &inner))
}

/// Whether the union at the root of `schema` has a discriminator whose tag every branch
/// requires.
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
    let e = verdicts[1].as_ref().unwrap_err();
    let path = format!("$.{}.name", vec!["owner"; DEPTH].join("."));
    assert_eq!(e.path().to_string(), path);
    let levels: String = (0..DEPTH)
        .map(|i| format!("/oneOf/{}/properties/owner", i % 3))
        .collect();
    let pointer = format!("{levels}/oneOf/2/properties/name/type");
    assert_eq!(e.schema_pointer(), Some(pointer.as_str()));
}

/// [`EXPRESSIONS`] with a default branch: any other `op` (serde's `#[serde(other)]`).
fn with_a_default_branch() -> String {
    let other = r#"{"type": "object", "properties": {"op": {"type": "string",
        "not": {"enum": ["num", "add", "mul"]}}}, "required": ["op"]}"#;
    EXPRESSIONS.replace(
        r##"{"$ref": "#/$defs/mul"}]"##,
        &format!(r##"{{"$ref": "#/$defs/mul"}}, {other}]"##),
    )
}

#[test]
fn expression_trees() {
    expressions(EXPRESSIONS, [true, false, false, false, false, true]);
    // A tag no branch names goes to the default, but a missing one still fails at once.
    let schema = with_a_default_branch();
    let listing = jitson::Codec::new(&Schema::from_json_str(&schema).unwrap())
        .program()
        .to_string();
    assert!(listing.contains("missing:@"), "{listing}");
    expressions(&schema, [true, false, true, false, false, true]);
}

/// Expression trees `DEPTH` levels deep under `schema` have the `valid` verdicts.
fn expressions(schema: &str, valid: [bool; 6]) {
    let schema = Schema::from_json_str(schema).unwrap();
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
    let verdicts: Vec<bool> = (agree(&schema, &documents).iter())
        .map(Result::is_ok)
        .collect();
    assert_eq!(verdicts, valid);
}

/// Pets whose owner is a pet, without tags: each branch an `allOf` of the base and the member
/// it requires, so both branches check the owner with the whole union again. Every backend
/// remembers the union's verdict at each position.
const UNTAGGED_PETS: &str = r##"{
    "$ref": "#/$defs/pet",
    "$defs": {
        "base": {"type": "object", "properties": {"owner": {"$ref": "#/$defs/pet"}, "name": {"type": "string"}}, "required": ["name"]},
        "pet": {"oneOf": [{"$ref": "#/$defs/cat"}, {"$ref": "#/$defs/dog"}]},
        "cat": {"allOf": [{"$ref": "#/$defs/base"}, {"required": ["claws"]}]},
        "dog": {"allOf": [{"$ref": "#/$defs/base"}, {"required": ["bark"]}]}
    }
}"##;

/// The functions a schema's program remembers, by name.
fn remembered(schema: &Schema) -> Vec<String> {
    let listing = jitson::Codec::new(schema).program().to_string();
    (listing.lines())
        .filter_map(|l| l.strip_suffix(" (remembered)"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn untagged_pets_owned_by_pets() {
    let schema = Schema::from_json_str(UNTAGGED_PETS).unwrap();
    assert!(!discriminated(&schema), "{schema:?}");
    assert_eq!(remembered(&schema).len(), 1, "{schema:?}");
    let pets = |bottom: &str| {
        nest(bottom, |i, inner| match i % 3 {
            0 => format!(r#"{{"name": "c{i}", "claws": 5, "owner": {inner}}}"#),
            1 => format!(r#"{{"owner": {inner}, "name": "d{i}", "bark": "woof"}}"#),
            _ => format!(r#"{{"name": "x{i}", "owner": {inner}, "bark": 1, "extra": [1, 2]}}"#),
        })
    };
    let documents = [
        pets(r#"{"name": "last", "claws": 1}"#),
        pets(r#"{"name": "both", "claws": 1, "bark": 1}"#),
        pets(r#"{"name": "neither"}"#),
        pets(r#"{"claws": 1}"#),
        pets(r#"{"name": 5, "bark": 1}"#),
        pets("[]"),
    ];
    let valid: Vec<bool> = (agree(&schema, &documents).iter())
        .map(Result::is_ok)
        .collect();
    assert_eq!(valid, [true, false, false, false, false, false]);
}

/// A chain of `links` schemas at one value, each `link(next)` of the next one, ending in
/// `integer`.
fn chain(links: usize, link: impl Fn(usize) -> String) -> String {
    let defs: Vec<String> = (0..links)
        .map(|i| format!(r#""l{i}": {}"#, link(i + 1)))
        .chain([format!(r#""l{links}": {{"type": "integer"}}"#)])
        .collect();
    format!(
        r##"{{"$ref": "#/$defs/l0", "$defs": {{{}}}}}"##,
        defs.join(", ")
    )
}

/// Each link checks the one value with the next link twice or more: a `oneOf` of the next
/// and `not` the next (any value matches one), an `anyOf` of the next below zero and the
/// next, an `if` of the next with the next or `not` the next (any value matches).
#[test]
fn links_that_check_one_value_twice() {
    const LINKS: usize = 60;
    let next = |n: usize| format!(r##"{{"$ref": "#/$defs/l{n}"}}"##);
    let one_of = chain(LINKS, |n| {
        format!(r#"{{"oneOf": [{}, {{"not": {}}}]}}"#, next(n), next(n))
    });
    let any_of = chain(LINKS, |n| {
        let below = format!(r#"{{"allOf": [{}], "maximum": -1}}"#, next(n));
        format!(r#"{{"anyOf": [{below}, {}]}}"#, next(n))
    });
    let conditional = chain(LINKS, |n| {
        let (a, b, c) = (next(n), next(n), next(n));
        format!(r#"{{"if": {a}, "then": {b}, "else": {{"not": {c}}}}}"#)
    });
    let documents = ["100", "-7", "\"text\"", "[1]", "{\"a\": 1}"];
    for (schema, valid) in [
        (one_of, [true; 5]),
        (any_of, [true, true, false, false, false]),
        (conditional, [true; 5]),
    ] {
        let schema = Schema::from_json_str(&schema).unwrap();
        assert!(!remembered(&schema).is_empty(), "{schema:?}");
        let verdicts: Vec<bool> = (agree(&schema, &documents).iter())
            .map(Result::is_ok)
            .collect();
        assert_eq!(verdicts, valid, "{schema:?}");
    }
}

/// Every interpreter operation on `program`: validate, collect-all validate, decode then
/// encode, transcode with unknown members kept, dropped and denied.
fn interpreter_answers(program: &Program, input: &[u8]) -> impl PartialEq + std::fmt::Debug {
    let (options, mut scratch) = (ExecOptions::default(), interp::Scratch::new());
    let validated = interp::validate(program, input, &options, &mut scratch);
    let all = interp::validate_all(program, input, &options, &mut scratch, 10);
    let decoded = interp::decode(program, input, &options, &mut scratch).map(|doc| {
        let mut out = Vec::new();
        let (mode, big) = (EscapeMode::default(), doc.big_ints());
        jitson_jit::encode::encode(doc.root(), mode, big, &mut out);
        out
    });
    let transcoded = [Unknown::Keep, Unknown::Drop, Unknown::Deny].map(|unknown| {
        let spec = TranscodeSpec {
            unknown,
            ..TranscodeSpec::default()
        };
        let mut out = Vec::new();
        let result = interp::transcode(program, input, &options, &spec, &mut scratch, &mut out);
        (result, out)
    });
    (validated, all, decoded, transcoded)
}

/// Remembering changes no answer: each schema's program with its plan and without one
/// (every function run every time) answers every operation alike, errors and collect-all
/// lists included, on documents small enough to check the slow way.
#[test]
fn remembering_changes_no_answer() {
    let pets = |levels: usize, bottom: &str| {
        (0..levels).fold(bottom.to_owned(), |inner, i| match i % 2 {
            0 => format!(r#"{{"name": "c{i}", "claws": 1, "owner": {inner}, "x": 1}}"#),
            _ => format!(r#"{{"name": {i}, "bark": 1, "owner": {inner}}}"#),
        })
    };
    let next = |n: usize| format!(r##"{{"$ref": "#/$defs/l{n}"}}"##);
    let one_of = chain(8, |n| {
        format!(r#"{{"oneOf": [{}, {{"not": {}}}]}}"#, next(n), next(n))
    });
    // Both parts of each `allOf` check the next link: its errors are recorded in collect-all
    // mode inside remembered runs, once per part.
    let all_of = chain(6, |n| {
        format!(
            r#"{{"type": "array", "items": {{"allOf": [{}, {{"anyOf": [{}, {{"type": "string"}}]}}]}}}}"#,
            next(n),
            next(n)
        )
    });
    // One object checked three times at one value by an `allOf` (collect-all records its
    // errors each time), and by an `if` and then its `else` (a failure remembered in the
    // trial answers no call outside one: the `else` reports the error).
    let object = r#"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}, "required": ["c"]}"#;
    let g = r##"{"$ref": "#/$defs/g"}"##;
    let thrice = format!(r#"{{"allOf": [{g}, {g}, {g}], "$defs": {{"g": {object}}}}}"#);
    let otherwise = format!(
        r#"{{"if": {g}, "then": {{"type": "object"}}, "else": {g}, "$defs": {{"g": {object}}}}}"#
    );
    let objects = || {
        [
            r#"{"a": "x", "b": 1}"#,
            r#"{"c": 1}"#,
            r#"{"a": 1, "c": 2, "b": [], "d": 3}"#,
            "7",
        ]
        .map(str::to_owned)
        .to_vec()
    };
    let cases = [
        (thrice, objects()),
        (otherwise, objects()),
        (
            UNTAGGED_PETS.to_owned(),
            vec![
                pets(6, r#"{"name": "last", "claws": 1}"#),
                pets(6, r#"{"name": "both", "claws": 1, "bark": 1}"#),
                pets(5, r#"{"name": 5}"#),
                pets(6, "[]"),
            ],
        ),
        (one_of, vec!["5".to_owned(), "[[1], {}]".to_owned()]),
        (
            all_of,
            vec![
                "[[[[[[[1]]]]]]]".to_owned(),
                r#"[[[[[["a", 1, true]]]]], [[[[["b"], "x", null]]]]]"#.to_owned(),
                "[1, [2, [3, [4]]]]".to_owned(),
            ],
        ),
    ];
    for (schema, documents) in cases {
        let schema = Schema::from_json_str(&schema).unwrap();
        let planned = jitson::Codec::new(&schema).program().clone();
        assert!(planned.recall.any(), "{planned}");
        let unplanned = Program {
            recall: Recall::default(),
            ..planned.clone()
        };
        for document in &documents {
            let bytes = document.as_bytes();
            let answers = interpreter_answers(&planned, bytes);
            assert_eq!(
                answers,
                interpreter_answers(&unplanned, bytes),
                "{document}"
            );
        }
    }
}

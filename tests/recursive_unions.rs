//! Recursive unions of tagged objects (an expression tree, OpenAPI's polymorphic types):
//! every branch reaches the union again one member down, so trying every branch at every
//! level costs branches^depth. A discriminator, found through `allOf` parts too, sends a
//! tagged object to its one branch, and an object without a tag every branch requires to
//! none, on every backend and in the reference validator (which the engine asks where an
//! error lies). Documents a hundred levels deep: the test would not end otherwise.

mod operations_support;

use jitson::Schema;
use jitson::schema::TypeDesc;
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

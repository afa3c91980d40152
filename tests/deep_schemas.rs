//! Schemas deep through `$ref`s rather than through nesting (JSON's nesting limit does not
//! bound them): chains of tens of thousands of links load, compile on both backends and
//! answer as the reference validator does, on the test harness's 2 MiB thread stack, with no
//! stack overflow.

mod operations_support;

use jitson::Schema;
use jitson::schema::TypeDesc;
use operations_support::agree;

/// Links in each chain: deep enough to overflow a 2 MiB stack at a few hundred bytes a frame.
const LINKS: usize = 20_000;

/// One link of a chain: its schema, from its index and the reference to the next link.
type Link = fn(usize, &str) -> String;

/// A chain `d0 → d1 → … → dN`: link `i` is `link(i, next)` with `next` the reference to
/// the next link; the last is `{"type": "null"}`.
fn chain(link: impl Fn(usize, &str) -> String) -> Schema {
    let defs: Vec<String> = (0..LINKS)
        .map(|i| {
            format!(
                r#""d{i}": {}"#,
                link(i, &format!(r##"{{"$ref": "#/$defs/d{}"}}"##, i + 1))
            )
        })
        .collect();
    let text = format!(
        r##"{{"$ref": "#/$defs/d0", "$defs": {{{}, "d{LINKS}": {{"type": "null"}}}}}}"##,
        defs.join(", ")
    );
    Schema::from_json_str(&text).expect("the chain loads")
}

/// Documents for a chain of unions of `{"const": i}` and the next link: the first link's
/// value, one further on, the last link's `null`, a value of no link, the deepest value,
/// and one past it.
fn union_documents() -> Vec<String> {
    let values = ["0", "7", "null", "true"].map(String::from);
    values
        .into_iter()
        .chain([(LINKS - 1).to_string(), LINKS.to_string()])
        .collect()
}

#[test]
fn a_chain_of_one_of() {
    let schema = chain(|i, next| format!(r#"{{"oneOf": [{{"const": {i}}}, {next}]}}"#));
    agree(&schema, &union_documents());
}

/// The most branches (or parts) any node of `schema` has.
fn widest(schema: &Schema) -> usize {
    (schema.nodes())
        .map(|(_, node)| match node {
            TypeDesc::AnyOf(u) | TypeDesc::OneOf(u) => u.branches.len(),
            TypeDesc::AllOf(parts) => parts.len(),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn a_chain_of_any_of() {
    let schema = chain(|i, next| format!(r#"{{"anyOf": [{{"const": {i}}}, {next}]}}"#));
    // Nested unions are flattened up to a bound: each link does not copy all that follow.
    assert!(widest(&schema) <= 130, "{}", widest(&schema));
    agree(&schema, &union_documents());
}

#[test]
fn a_chain_of_all_of() {
    let schema = chain(|i, next| format!(r#"{{"allOf": [{{"not": {{"const": {i}}}}}, {next}]}}"#));
    assert!(widest(&schema) <= 130, "{}", widest(&schema));
    agree(&schema, &["null", "0", "true"]);
}

#[test]
fn a_chain_of_not() {
    let schema = chain(|_, next| format!(r#"{{"not": {{"not": {next}}}}}"#));
    agree(&schema, &["null", "0"]);
}

#[test]
fn a_chain_of_conditionals() {
    let schema =
        chain(|i, next| format!(r#"{{"if": {{"const": {i}}}, "then": true, "else": {next}}}"#));
    agree(&schema, &["null", "0", "5", "true"]);
}

#[test]
fn a_chain_of_objects() {
    let schema = chain(|_, next| {
        format!(r#"{{"type": ["object", "null"], "properties": {{"a": {next}}}}}"#)
    });
    agree(
        &schema,
        &["null", r#"{"a": {"a": null}}"#, r#"{"a": {"a": 1}}"#, "1"],
    );
}

#[test]
fn a_chain_of_arrays() {
    let schema = chain(|_, next| format!(r#"{{"type": ["array", "null"], "items": {next}}}"#));
    agree(&schema, &["null", "[[null]]", "[[1]]", "1"]);
}

#[test]
fn a_ring_of_objects() {
    // The last link refers back to the first: one recursive cycle of LINKS objects.
    let defs: Vec<String> = (0..LINKS)
        .map(|i| {
            format!(
                r##""d{i}": {{"type": "object", "properties": {{"a{i}": {{"$ref": "#/$defs/d{}"}}}}}}"##,
                (i + 1) % LINKS
            )
        })
        .collect();
    let text = format!(
        r##"{{"$ref": "#/$defs/d0", "$defs": {{{}}}}}"##,
        defs.join(", ")
    );
    let schema = Schema::from_json_str(&text).expect("the ring loads");
    agree(
        &schema,
        &["{}", r#"{"a0": {"a1": {}}}"#, r#"{"a0": {"a1": 1}}"#, "1"],
    );
}

#[test]
fn chains_through_other_keywords() {
    let links: [(&str, Link, &[&str]); 8] = [
        (
            "additionalProperties",
            |_, next| format!(r#"{{"type": ["object", "null"], "additionalProperties": {next}}}"#),
            &["null", r#"{"x": {"y": null}}"#, r#"{"x": 1}"#],
        ),
        (
            "prefixItems",
            |_, next| format!(r#"{{"type": ["array", "null"], "prefixItems": [{next}]}}"#),
            &["null", "[[null]]", "[[1]]"],
        ),
        (
            "contains",
            |_, next| format!(r#"{{"type": ["array", "null"], "contains": {next}}}"#),
            &["null", "[1, [null]]", "[[1]]"],
        ),
        (
            "propertyNames",
            |i, next| format!(r#"{{"anyOf": [{{"const": {i}}}, {{"propertyNames": {next}}}]}}"#),
            &["0", "{}", r#"{"a": 1}"#],
        ),
        // Each link under its own member's name: `{"a0": 1}` passes d1, which no member
        // triggers (a document that triggers every link fails at the chain's end, and
        // locating that error checks the rest of the chain at each of the walk's 1 024 steps:
        // about 10 s here).
        (
            "dependentSchemas",
            |i, next| {
                format!(r#"{{"type": ["object", "null"], "dependentSchemas": {{"a{i}": {next}}}}}"#)
            },
            &[
                "null",
                r#"{"b": 1}"#,
                r#"{"a0": 1}"#,
                r#"{"a0": 1, "a1": []}"#,
            ],
        ),
        (
            "patternProperties",
            |_, next| {
                format!(r#"{{"type": ["object", "null"], "patternProperties": {{"^a": {next}}}}}"#)
            },
            &["null", r#"{"ab": {"a": null}}"#, r#"{"a": 1}"#],
        ),
        (
            "unevaluatedProperties",
            |i, next| {
                format!(
                    r#"{{"type": ["object", "null"], "allOf": [{{"properties": {{"p{i}": true}}}}], "unevaluatedProperties": {next}}}"#
                )
            },
            &["null", r#"{"p0": 1, "q": null}"#, r#"{"q": 1}"#],
        ),
        (
            "items and not",
            |_, next| {
                format!(r#"{{"type": ["array", "null"], "items": {{"not": {{"not": {next}}}}}}}"#)
            },
            &["null", "[[null]]", "[[1]]"],
        ),
    ];
    for (name, link, documents) in links {
        let schema = chain(link);
        agree(&schema, documents);
        eprintln!("{name}: agreed");
    }
}

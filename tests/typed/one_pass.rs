//! The one-pass typed reader (`jitson::typed::decode`): it takes the corpus documents itself
//! (no fallback), every value it builds is the one the two-pass decode builds (on thousands
//! of mutations of the corpus), and the inputs it leaves to the codec decode exactly as the
//! two-pass decode decodes them, errors included.

use std::collections::BTreeMap;
use std::fmt::Debug;

use crate::rng::Rng;
use crate::typed_support::{book::Book, canada::Canada, citm::CitmCatalog, twitter::Twitter};
use jitson::engine::{EngineOptions, Options, Tiering, TypedDecode};
use jitson::jit::ir::ExecOptions;
use jitson::typed::decode::{self, Bail};
use jitson::typed::{JsonDecode, JsonType};
use jitson::{Engine, Error};
use serde::Deserialize;

fn testdata(name: &str) -> Vec<u8> {
    let path = format!("{}/testdata/bench/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The two-pass decode on the interpreter (the reference).
fn two_pass() -> Engine {
    Engine::with_options(
        EngineOptions::new()
            .tiering(Tiering::InterpreterOnly)
            .typed_decode(TypedDecode::TwoPass),
    )
}

/// The one-pass engine, falling back to the interpreter.
fn one_pass() -> Engine {
    Engine::with_options(EngineOptions::new().tiering(Tiering::InterpreterOnly))
}

/// The reader on `input` with the engines' default options.
fn read<'a, T: JsonDecode<'a>>(input: &'a [u8]) -> Result<T, Bail> {
    decode::read(input, &ExecOptions::default())
}

#[test]
#[cfg_attr(miri, ignore = "large documents")]
fn the_reader_takes_the_corpus_documents() {
    fn check<T>(name: &str)
    where
        T: for<'a> JsonDecode<'a> + for<'a> Deserialize<'a> + PartialEq + Debug,
    {
        let input = testdata(name);
        let want: T = serde_json::from_slice(&input).unwrap();
        assert_eq!(read::<T>(&input).expect(name), want, "{name}");
    }
    check::<Twitter>("twitter.json");
    check::<Twitter>("twitterescaped.json");
    check::<CitmCatalog>("citm_catalog.json");
    check::<Canada>("canada.json");
    check::<Book>("book.json");
}

/// Bytes that change what a JSON text means.
const SPECIAL: &[u8] = b"\"\\{}[],:0-1.e+ntf \n\x00\x1f\x7f\xc3\xa9\xff";

/// `input` with one random edit: a byte replaced, removed or inserted, or a span repeated.
fn mutate(input: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    let at = rng.below(out.len());
    match rng.below(4) {
        0 => out[at] = SPECIAL[rng.below(SPECIAL.len())],
        1 => {
            out.remove(at);
        }
        2 => out.insert(at, SPECIAL[rng.below(SPECIAL.len())]),
        _ => {
            let end = (at + 1 + rng.below(24)).min(out.len());
            let span = out[at..end].to_vec();
            out.splice(end..end, span);
        }
    }
    out
}

/// For `count` mutations of `input`: every value the reader builds is the two-pass
/// decode's, and the one-pass engine answers as the two-pass one (values and errors).
/// Returns how many mutations the reader took itself.
fn mutations_agree<T>(input: &[u8], count: usize, seed: u64) -> usize
where
    T: JsonType + for<'a> JsonDecode<'a> + for<'a> Deserialize<'a> + PartialEq + Debug,
{
    let (reference, engine) = (two_pass(), one_pass());
    let mut rng = Rng::new(seed);
    let mut taken = 0;
    for _ in 0..count {
        let input = mutate(input, &mut rng);
        let want: Result<T, Error> = reference.decode(&input);
        if let Ok(got) = read::<T>(&input) {
            taken += 1;
            match &want {
                Ok(want) => assert_eq!(&got, want, "{}", String::from_utf8_lossy(&input)),
                Err(e) => panic!(
                    "the reader took what the codec refuses ({e}): {}",
                    String::from_utf8_lossy(&input)
                ),
            }
        }
        let got: Result<T, Error> = engine.decode(&input);
        match (&got, &want) {
            (Ok(got), Ok(want)) => assert_eq!(got, want),
            (Err(got), Err(want)) => assert_eq!(got, want),
            _ => panic!("one pass {got:?}, two passes {want:?}"),
        }
    }
    taken
}

#[test]
fn mutations_of_book_agree_with_the_two_pass_decode() {
    let count = if cfg!(miri) { 20 } else { 4000 };
    // Embedded, so that Miri (no file system) runs it too.
    let input = include_bytes!("../../testdata/bench/book.json");
    let taken = mutations_agree::<Book>(input, count, 0x9e37_79b9);
    // Whitespace and digit edits keep many inputs valid: the reader must have built values.
    assert!(taken * 10 > count, "the reader took {taken} of {count}");
}

#[test]
#[cfg_attr(miri, ignore = "large documents")]
fn mutations_of_twitter_agree_with_the_two_pass_decode() {
    let input = testdata("twitter.json");
    let taken = mutations_agree::<Twitter>(&input, 150, 0x51ed_270b);
    assert!(taken > 15, "the reader took {taken} of 150");
}

/// A small type with a map, an optional recursive child and defaults.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
struct Node {
    id: u32,
    #[serde(default, alias = "labels")]
    tags: BTreeMap<String, i8>,
    child: Option<Box<Node>>,
}

/// An open struct: unknown members are skipped.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Open {
    n: f32,
    c: char,
}

/// Inputs the reader leaves to the codec (it bails), and what the engines answer for them:
/// the one-pass engine gives the two-pass decode's value or error.
#[test]
fn inputs_the_reader_leaves_to_the_codec() {
    fn check<T>(input: &str)
    where
        T: JsonType + for<'a> JsonDecode<'a> + for<'a> Deserialize<'a> + PartialEq + Debug,
    {
        assert_eq!(read::<T>(input.as_bytes()), Err(Bail), "{input}");
        let want: Result<T, Error> = two_pass().decode(input.as_bytes());
        let got: Result<T, Error> = one_pass().decode(input.as_bytes());
        match (&got, &want) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{input}"),
            (Err(got), Err(want)) => assert_eq!(got.to_string(), want.to_string(), "{input}"),
            _ => panic!("{input}: one pass {got:?}, two passes {want:?}"),
        }
    }
    // Accepted by the two-pass decode.
    check::<Node>(r#"{"\u0069d": 1, "child": null}"#);
    check::<Open>(r#"{"n": 1, "c": "x", "z\"": 1}"#);
    // Refused.
    for bad in [
        r#"{"id": 1, "id": 2, "child": null}"#,
        r#"{"id": 1, "tags": {}, "labels": {}, "child": null}"#,
        r#"{"id": 1.0, "child": null}"#,
        r#"{"id": -0, "child": null}"#,
        r#"{"id": 4294967296, "child": null}"#,
        r#"{"id": 1, "tags": {"a": 128}, "child": null}"#,
        r#"{"id": 1, "tags": {"a": 1, "a": 2}, "child": null}"#,
        r#"{"child": null}"#,
        r#"{"id": 1, "child": null, "other": 0}"#,
        r#"{"id": 1, "child": null} x"#,
        r#"{"id": 1, "child": null,}"#,
        r#"{"id": 1 "child": null}"#,
        r#"{"id": 01, "child": null}"#,
        "",
        "null",
    ] {
        check::<Node>(bad);
    }
    for bad in [
        r#"{"n": 3.5e38, "c": "x"}"#,
        r#"{"n": 1, "c": "xy"}"#,
        r#"{"n": 1, "c": ""}"#,
        r#"{"n": 1, "c": "\ud800"}"#,
        "{\"n\": 1, \"c\": \"\x01\"}",
        r#"{"n": 1, "c": "x", "skip": [1, 2,]}"#,
        r#"{"n": 1, "c": "x", "skip": {"a" 1}}"#,
    ] {
        check::<Open>(bad);
    }
}

/// Nesting around the codec's limit: the reader stops a level short of it, and every
/// engine answers the same on each side of it.
#[test]
fn nesting_at_the_limit_decodes_as_the_two_pass_decode() {
    let depth = 12;
    let options = EngineOptions::new().codec(Options::new().max_depth(depth));
    let engines = [
        Engine::with_options(
            options
                .tiering(Tiering::InterpreterOnly)
                .typed_decode(TypedDecode::TwoPass),
        ),
        Engine::with_options(options.tiering(Tiering::InterpreterOnly)),
    ];
    let nested = |levels: u32| {
        let mut text = String::from("null");
        for id in 0..levels {
            text = format!(r#"{{"id": {id}, "child": {text}}}"#);
        }
        text
    };
    for levels in depth - 3..=depth + 1 {
        let input = nested(levels);
        let [want, got] = engines.each_ref().map(|e| {
            e.decode::<Node>(input.as_bytes())
                .map_err(|e| e.to_string())
        });
        assert_eq!(got, want, "{levels} levels");
        let exec = ExecOptions {
            max_depth: depth,
            ..ExecOptions::default()
        };
        let taken = decode::read::<Node>(input.as_bytes(), &exec).is_ok();
        assert_eq!(taken, levels < depth, "{levels} levels");
    }
}

/// Internally tagged.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Shape {
    Empty,
    Point { x: f64, y: f64 },
    Named(Label),
}

/// The payload of a newtype variant.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Label {
    name: String,
}

/// Adjacently tagged, other members allowed (serde skips them).
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "kind", content = "data")]
enum Note {
    Empty,
    Text(String),
    Pair { a: u8, b: u8 },
    Maybe(Option<u8>),
    Many(Vec<u8>),
}

/// Adjacently tagged.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
enum Event {
    Nothing,
    Number(i64),
    Moved { to: (u8, u8) },
}

/// Tagged enums are read in one pass whatever member comes first: internally tagged ones
/// wherever their tag comes (a unit variant's other members skipped, as serde ignores
/// them), adjacently tagged ones with the tag or the content first (other members skipped
/// unless denied, a unit variant's content `null` or absent). A repeated tag or
/// field, a missing tag and malformed members are left to the codec, which answers as the
/// two-pass decode does.
#[test]
fn tagged_enums_are_read_in_one_pass() {
    let check = check_one_pass::<Shape>;
    check(r#"{"type": "empty"}"#, true);
    check(r#"{"type": "point", "x": 1, "y": 2.5}"#, true);
    check(r#"{"type": "point", "y": 2.5, "x": 1}"#, true);
    check(r#"{"x": 1, "type": "point", "y": 2.5}"#, true);
    check(r#"{"x": 1, "y": 2.5, "type": "point"}"#, true);
    check(r#"{ "y" : 2.5 , "x" : 1 , "type" : "point" }"#, true);
    check(
        r#"{"x": 1, "y": 2.5, "type": "point", "type": "point"}"#,
        false,
    );
    check(r#"{"x": 1, "type": "point", "x": 2, "y": 1}"#, false);
    check(r#"{"x": 1, "y": 2}"#, false);
    check(r#"{"x": 1-2, "type": "point", "y": 2}"#, false);
    check(r#"{"x": 1, "q": tru, "type": "point", "y": 2}"#, false);
    check(r#"{"x": 1, "q": "a\"b", "type": "point", "y": 2}"#, true);
    check(r#"{"x": 1, "q": "a\u0000", "type": "point", "y": 2}"#, true);
    check(
        "{\"x\": 1, \"q\": \"a\u{1}\", \"type\": \"point\", \"y\": 2}",
        false,
    );
    check(
        r#"{"x": 1, "q": [1, {"type": "empty"}], "type": "point", "y": 2}"#,
        true,
    );
    check(r#"{"x": 1, "q": [1e999], "type": "point", "y": 2}"#, false);
    check(r#"{"x": 1, "q\"": 0, "type": "point", "y": 2}"#, false);
    check(r#"{"x": 1, "type": "empty"}"#, true);
    check(r#"{"x": 1, "type": 0, "y": 2}"#, false);
    check(r#"{"x": 1, "ty\u0070e": "point", "y": 2}"#, false);
    check(
        r#"{"x": {"type": "empty"}, "type": "point", "y": 2}"#,
        false,
    );
    check(
        r#"{"x": 1, "y": [2, {"type": "empty"}], "type": "point"}"#,
        false,
    );
    check(r#"{"type": "named", "name": "n"}"#, true);
    check(r#"{"name": "n", "type": "named"}"#, true);
    check(r#"{"name": "n", "type": "named", "type": "named"}"#, false);
    check(
        r#"{"type": "point", "x": 1, "type": "point", "y": 2}"#,
        false,
    );
    check(r#"{"type": "empty", "x": 1}"#, true);
    check(
        r#"{"x": [1, {}], "type": "empty", "y": null, "x": 2}"#,
        true,
    );
    check(r#"{"type": "empty", "type": "empty"}"#, false);
    check(r#"{"x": 1, "type": "empty", "type": "empty"}"#, false);
    check(r#"{"type": "empty", "x": 1e999}"#, false);
    check(r#"{"type": "empty", "x": tru}"#, false);
    check(r#"{"type": "other"}"#, false);
    check_one_pass::<Event>(r#"{"t": "Nothing"}"#, true);
    check_one_pass::<Event>(r#"{"t": "Number", "c": -5}"#, true);
    check_one_pass::<Event>(r#"{"t": "Moved", "c": {"to": [1, 2]}}"#, true);
    check_one_pass::<Event>(r#"{"c": -5, "t": "Number"}"#, true);
    check_one_pass::<Event>(r#"{ "c" : {"to": [1, 2]} , "t" : "Moved" }"#, true);
    check_one_pass::<Event>(r#"{"c": {"to": [1, 2]}, "t": "Number"}"#, false);
    check_one_pass::<Event>(r#"{"c": -5, "t": "Number", "t": "Number"}"#, false);
    check_one_pass::<Event>(r#"{"c": -5, "t": "Number", "c": -5}"#, false);
    check_one_pass::<Event>(r#"{"c": -5, "x": 0, "t": "Number"}"#, false);
    check_one_pass::<Event>(r#"{"c": -5}"#, false);
    check_one_pass::<Event>(r#"{"c": null, "t": "Nothing"}"#, true);
    check_one_pass::<Event>(r#"{"c": 5, "t": "Nothing"}"#, false);
    check_one_pass::<Event>(r#"{"t": "Nothing", "c": 5}"#, false);
    check_one_pass::<Event>(r#"{"t": "Nothing", "c": null, "c": null}"#, false);
    check_one_pass::<Event>(r#"{"c": [-5], "t": "Number"}"#, false);
    check_one_pass::<Event>(r#"{"c": 300, "t": "Moved"}"#, false);
    check_one_pass::<Event>(r#"{"c": 1-2, "t": "Number"}"#, false);
    check_one_pass::<Event>(r#"{"c": 12, "t": "Number"}  "#, true);
    check_one_pass::<Event>(r#"{"c": "\"", "t": "Number"}"#, false);
    check_one_pass::<Event>(r#"{"t": "Number"}"#, false);
    check_one_pass::<Event>(r#"{"t": "Number", "c": -5, "x": 0}"#, false);
    check_one_pass::<Event>(r#"{"t": "Nothing", "c": null}"#, true);
    let notes = [
        (r#"{"id": 1, "kind": "Text", "data": "x", "at": [1]}"#, true),
        (
            r#"{"data": {"a": 1, "b": 2}, "v": null, "kind": "Pair"}"#,
            true,
        ),
        (r#"{"kind": "Empty", "x": 1}"#, true),
        (r#"{"kind": "Empty", "data": null, "x": {}}"#, true),
        (r#"{"kind": "Text"}"#, false),
        (r#"{"kind": "Text", "data": "x", "x": 1e999}"#, false),
        (r#"{"kind": "Text", "data": "x", "kind": "Text"}"#, false),
        (r#"{"x": tru, "kind": "Empty"}"#, false),
        (
            r#"{"x": 1, "data": "x", "data": "y", "kind": "Text"}"#,
            false,
        ),
        (r#"{"kind": "Maybe"}"#, true),
        (r#"{"x": 1, "kind": "Maybe"}"#, true),
        (r#"{"kind": "Maybe", "data": null}"#, true),
        (r#"{"data": 7, "kind": "Maybe"}"#, true),
        (r#"{"kind": "Many"}"#, false),
        (r#"{"kind": "Many", "data": [1]}"#, true),
    ];
    for (input, taken) in notes {
        check_one_pass::<Note>(input, taken);
    }
}

/// Adjacently tagged, a variant holding raw JSON: serde reads the content as it comes when
/// the tag comes first, from its buffered copy (where a raw value cannot be read) when the
/// content does.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t", content = "c")]
enum AdjacentRaw {
    R(jitson::RawValue),
    N(u8),
}

/// The content member first: its value is read as serde reads it, buffered. (serde_json
/// refuses `{"c": [1], "t": "R"}`; the two-pass decode, which the reader leaves it to,
/// takes it: its document keeps declared members in the schema's order, tag first.)
#[test]
fn adjacent_content_first_is_read_as_buffered() {
    check_one_pass::<AdjacentRaw>(r#"{"t": "R", "c": [1]}"#, true);
    check_one_pass::<AdjacentRaw>(r#"{"c": [1], "t": "R"}"#, false);
    check_one_pass::<AdjacentRaw>(r#"{"c": 7, "t": "N"}"#, true);
}

/// Either order of an adjacently tagged enum's members spends the same nesting budget, and
/// gives it back at the object's end.
#[test]
fn adjacent_content_first_keeps_the_nesting_budget() {
    for max_depth in 2..=6 {
        let exec = ExecOptions {
            max_depth,
            ..ExecOptions::default()
        };
        let taken = |input: &str| decode::read::<Vec<Event>>(input.as_bytes(), &exec).is_ok();
        let tag_first = taken(r#"[{"t": "Number", "c": 1}, {"t": "Moved", "c": {"to": [1, 2]}}]"#);
        assert_eq!(tag_first, max_depth > 4, "max_depth {max_depth}");
        for input in [
            r#"[{"c": 1, "t": "Number"}, {"t": "Moved", "c": {"to": [1, 2]}}]"#,
            r#"[{"t": "Number", "c": 1}, {"c": {"to": [1, 2]}, "t": "Moved"}]"#,
        ] {
            assert_eq!(taken(input), tag_first, "max_depth {max_depth}: {input}");
        }
    }
}

/// Mutations of adjacently tagged values, the tag first and the content first, other
/// members denied and allowed: every value the reader builds is the two-pass decode's, and
/// the engines agree.
#[test]
fn mutations_of_adjacently_tagged_values_agree_with_the_two_pass_decode() {
    let count = if cfg!(miri) { 20 } else { 3000 };
    let input = br#"[
        {"t": "Number", "c": -5000},
        {"c": {"to": [100, 200]}, "t": "Moved"},
        {"c": 123456, "t": "Number"},
        {"t": "Nothing"}
    ]"#;
    assert!(read::<Vec<Event>>(input).is_ok());
    let taken = mutations_agree::<Vec<Event>>(input, count, 0xa54f_f53a);
    assert!(taken * 10 > count, "the reader took {taken} of {count}");
    let input = br#"[
        {"kind": "Text", "data": "a note", "id": 17},
        {"at": [1, 2], "data": {"a": 10, "b": 200}, "kind": "Pair"},
        {"kind": "Empty", "seen": true}
    ]"#;
    assert!(read::<Vec<Note>>(input).is_ok());
    let taken = mutations_agree::<Vec<Note>>(input, count, 0x510e_527f);
    assert!(taken * 10 > count, "the reader took {taken} of {count}");
}

/// A user id: a newtype, read as its number.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct UserId(u64);

/// Untagged, with variants of every kind: some kinds taken by one variant only, numbers and
/// arrays and objects by several. A number refused by `Small` goes on to `User`, then
/// `Single` (serde's integers refuse what the reader refuses); one refused by `Single`
/// (beyond `f32`, which serde makes infinite) is left to the codec.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(untagged)]
enum Loose {
    Nothing,
    Flag(bool),
    Small(u8),
    User(UserId),
    Single(f32),
    Real(f64),
    Text(String),
    Pair(u8, String),
    Point { x: f64, y: f64 },
    Labelled { x: f64, label: Box<str> },
    List(Vec<Loose>),
    Map(BTreeMap<String, Loose>),
}

/// Untagged enums nested in each other and in a struct.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(untagged)]
enum Key {
    Id(UserId),
    Name(Box<str>),
    Both { id: u32, name: String },
}

/// A document of untagged values.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Bag {
    key: Key,
    values: Vec<Loose>,
    maybe: Option<Key>,
}

/// Untagged variants holding any JSON: serde reads a `serde_json::Value` from its buffered
/// value as from the text, but not a raw value, so the two-pass decode refuses `Raw`.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(untagged)]
enum Opaque {
    Json { v: serde_json::Value },
    Raw(jitson::RawValue),
}

/// Untagged, a struct variant before a sequence: serde reads an untagged struct variant
/// from an object only, so `[1]` is `L([1])`.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(untagged)]
enum StructFirst {
    S { a: u8 },
    L(Vec<u8>),
}

/// A struct type.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct A {
    a: u8,
}

/// Untagged, a struct type's newtype variant before a sequence: serde reads a struct from
/// an array too, so `[1]` is `V(A { a: 1 })`.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(untagged)]
enum NewtypeFirst {
    V(A),
    L(Vec<u8>),
}

/// The one-pass engine and the reader answer `input` as the two-pass decode; the reader
/// takes it exactly when `taken`.
fn check_one_pass<T>(input: &str, taken: bool)
where
    T: JsonType + for<'a> JsonDecode<'a> + for<'a> Deserialize<'a> + PartialEq + Debug,
{
    let two: Result<T, Error> = two_pass().decode(input.as_bytes());
    let read = read::<T>(input.as_bytes());
    assert_eq!(
        read.is_ok(),
        taken,
        "{input}: reader {read:?}, two passes {two:?}"
    );
    if let Ok(value) = &read {
        assert_eq!(Some(value), two.as_ref().ok(), "{input}");
        assert_eq!(
            Some(value),
            serde_json::from_str::<T>(input).ok().as_ref(),
            "{input}"
        );
    }
    let one: Result<T, Error> = one_pass().decode(input.as_bytes());
    match (&one, &two) {
        (Ok(one), Ok(two)) => assert_eq!(one, two, "{input}"),
        (Err(one), Err(two)) => assert_eq!(one.to_string(), two.to_string(), "{input}"),
        _ => panic!("{input}: one pass {one:?}, two passes {two:?}"),
    }
}

/// Untagged enums are read in one pass when the value's kind picks the variant serde
/// would, and left to the codec when the variant picked refuses the value (serde would try
/// the next).
#[test]
fn untagged_enums_are_read_in_one_pass_by_the_values_kind() {
    for (input, taken) in [
        ("null", true),
        ("true", true),
        ("7", true),
        ("256", true),
        ("-1", true),
        ("2.5", true),
        ("18446744073709551616", true),
        ("1e39", false),
        ("-1e39", false),
        ("01", false),
        (r#""s""#, true),
        (r#""\u00e9""#, true),
        (r#"[1, "a"]"#, true),
        (r#"[1, 2]"#, false),
        (r#"[]"#, false),
        (r#"{"x": 1, "y": 2}"#, true),
        (r#"{"y": 2, "x": 1, "z": null}"#, true),
        (r#"{"x": 1, "label": "l"}"#, false),
        (r#"{"a": 1}"#, false),
        ("{}", false),
        ("[1, 2,]", false),
        ("nul", false),
        ("", false),
    ] {
        check_one_pass::<Loose>(input, taken);
    }
    for (input, taken) in [
        (
            r#"{"key": 5, "values": [null, 1, "t", [2, "u"]], "maybe": null}"#,
            true,
        ),
        (
            r#"{"key": "n", "values": [{"x": 0.5, "y": -1}], "maybe": 9}"#,
            true,
        ),
        (
            r#"{"key": {"id": 1, "name": "n"}, "values": [], "maybe": "m"}"#,
            true,
        ),
        (
            r#"{"key": {"id": -1, "name": "n"}, "values": [], "maybe": null}"#,
            false,
        ),
        (
            r#"{"key": 5, "values": [300, -2, 1e-2], "maybe": null}"#,
            true,
        ),
        (r#"{"key": -5, "values": [], "maybe": null}"#, false),
        (r#"{"key": true, "values": [], "maybe": null}"#, false),
    ] {
        check_one_pass::<Bag>(input, taken);
    }
    check_one_pass::<StructFirst>(r#"{"a": 1}"#, true);
    check_one_pass::<StructFirst>("[1]", true);
    check_one_pass::<NewtypeFirst>(r#"{"a": 1}"#, true);
    check_one_pass::<NewtypeFirst>("[1]", false);
    assert_eq!(
        one_pass().decode::<NewtypeFirst>(b"[1]").unwrap(),
        NewtypeFirst::V(A { a: 1 })
    );
    for input in [
        r#"{"v": -0}"#,
        r#"{"v": [1.0, 1E2, 0.1, 1e-400]}"#,
        r#"{"v": 18446744073709551616}"#,
        r#"{"v": {"\u00e9": 1, "a": 2, "a": 3}}"#,
    ] {
        check_one_pass::<Opaque>(input, true);
    }
    for input in [r#"{"v": 1e400}"#, r#"{"w": 1}"#, r#"[1, {"a": 2}]"#, "3"] {
        check_one_pass::<Opaque>(input, false);
    }
}

/// Mutations of a document of untagged values: every value the reader builds is the
/// two-pass decode's, and the engines agree.
#[test]
fn mutations_of_untagged_values_agree_with_the_two_pass_decode() {
    let count = if cfg!(miri) { 20 } else { 3000 };
    // Taken as it stands; its edits reach the other variants (`12` → `-12`, `1200`, `1.2`).
    let input = br#"{"key": {"id": 7, "name": "seven"}, "values": [null, false, 12, 4000,
        -3, 0.25, "x", [3, "y"], {"x": 1, "y": 2}], "maybe": 17}"#;
    assert!(read::<Bag>(input).is_ok());
    let taken = mutations_agree::<Bag>(input, count, 0x2545_f491);
    assert!(taken * 10 > count, "the reader took {taken} of {count}");
}

/// A struct variant with a flattened field.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
enum WithFlat {
    V {
        a: u8,
        #[serde(flatten)]
        meta: Meta,
    },
}

/// Flattened into [`WithFlat::V`].
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Meta {
    kind: String,
}

/// A struct variant's flattened field takes its fields' members, not a member named after
/// it: the reader read `{"V": {"a": 1, "meta": {…}}}` (the field's own name) as the
/// variant, which serde and the codec refuse.
#[test]
fn a_variants_flattened_field_is_read_from_its_members() {
    check_one_pass::<WithFlat>(r#"{"V": {"a": 1, "meta": {"kind": "k"}}}"#, false);
    let err = one_pass()
        .decode::<WithFlat>(br#"{"V": {"a": 1, "meta": {"kind": "k"}}}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "missing required field \"kind\" at line 1 column 37, path $.V, keyword required"
    );
    check_one_pass::<WithFlat>(r#"{"V": {"a": 1, "kind": "k"}}"#, true);
    check_one_pass::<WithFlat>(r#"{"V": {"kind": "k", "z": [], "a": 1}}"#, true);
}

/// Flattened into [`Flat`] first.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct First {
    x: u8,
    #[serde(alias = "ex")]
    e: Option<String>,
}

/// Flattened into [`Flat`] second: `x` is [`First`]'s, so it never reaches this one.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Second {
    #[serde(default)]
    x: u8,
    y: Option<i16>,
}

/// Own fields, two flattened structs, then a flattened map for what is left.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Flat {
    id: u32,
    #[serde(flatten)]
    first: First,
    #[serde(flatten)]
    second: Box<Second>,
    #[serde(flatten)]
    rest: BTreeMap<String, serde_json::Value>,
}

/// A map flattened before a struct: serde hands the map every member, the struct's too.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct MapFirst {
    #[serde(flatten)]
    rest: BTreeMap<String, i16>,
    #[serde(flatten)]
    second: Second,
}

/// Flattens [`Flat`], which flattens too: serde hands it every member.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Nested {
    n: bool,
    #[serde(flatten)]
    flat: Flat,
}

/// `deny_unknown_fields` with a flattened struct: a member nothing takes is an error.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
struct Strict {
    id: u8,
    #[serde(flatten)]
    second: Second,
}

/// A generic flattened field.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Wrapper<T: jitson::typed::JsonObject> {
    id: u8,
    #[serde(flatten)]
    inner: T,
}

/// Raw values in a flattened map: serde cannot read them from its buffered members.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct RawRest {
    id: u8,
    #[serde(flatten)]
    rest: BTreeMap<String, jitson::RawValue>,
}

/// Flattened fields are read in one pass: members go to the struct's own fields, then to
/// the flattened ones in order, then to a trailing map; the shapes serde reads otherwise
/// (a map before a struct, a flattened struct that flattens, raw values) are left to the
/// codec.
#[test]
fn flattened_fields_are_read_in_one_pass() {
    for (input, taken) in [
        (r#"{"id": 1, "x": 2}"#, true),
        (
            r#"{"x": 2, "y": -3, "id": 1, "z": [null], "ex": "e"}"#,
            true,
        ),
        (
            r#"{"id": 1, "x": 2, "e": null, "y": null, "w": {"a": 1.5}}"#,
            true,
        ),
        (r#"{"id": 1, "x": 2, "x": 3}"#, false),
        (r#"{"id": 1, "x": 2, "e": "a", "ex": "b"}"#, false),
        (r#"{"id": 1, "x": 2, "z": 1, "z": 2}"#, false),
        (r#"{"id": 1, "x": 2, "id": 3}"#, false),
        (r#"{"id": 1}"#, false),
        (r#"{"id": 1, "x": 256}"#, false),
        (r#"{"id": 1, "x": 2, "y": 1e2}"#, false),
        (r#"{"id": 1, "x": 2, "\u0079": 5}"#, false),
        (r#"[1, 2]"#, false),
    ] {
        check_one_pass::<Flat>(input, taken);
    }
    check_one_pass::<MapFirst>(r#"{"y": 1, "a": 2}"#, false);
    assert_eq!(
        one_pass()
            .decode::<MapFirst>(br#"{"y": 1}"#)
            .unwrap()
            .second
            .y,
        Some(1)
    );
    check_one_pass::<Nested>(r#"{"n": true, "id": 1, "x": 2}"#, false);
    check_one_pass::<Strict>(r#"{"id": 1, "y": 2}"#, true);
    check_one_pass::<Strict>(r#"{"id": 1, "y": 2, "q": 3}"#, false);
    check_one_pass::<Wrapper<First>>(r#"{"id": 1, "x": 2, "q": 3}"#, true);
    check_one_pass::<Wrapper<BTreeMap<String, bool>>>(r#"{"id": 1, "q": true}"#, true);
    check_one_pass::<RawRest>(r#"{"id": 1}"#, true);
    check_one_pass::<RawRest>(r#"{"id": 1, "q": [1]}"#, false);
}

/// Mutations of a document with flattened fields: every value the reader builds is the
/// two-pass decode's, and the engines agree.
#[test]
fn mutations_of_flattened_fields_agree_with_the_two_pass_decode() {
    let count = if cfg!(miri) { 20 } else { 3000 };
    let input = br#"{"id": 7, "x": 2, "ex": "e", "y": -30, "z": [1, {"q": null}], "w": "v"}"#;
    assert!(read::<Flat>(input).is_ok());
    let taken = mutations_agree::<Flat>(input, count, 0x6a09_e667);
    assert!(taken * 10 > count, "the reader took {taken} of {count}");
}

/// Internally tagged, newtype variants of every type serde takes there.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "kind")]
enum Message {
    Open(Label),
    Closed(Box<Sealed>),
    Counts(BTreeMap<String, u8>),
    Raw(RawHolder),
    Flat(Flat),
}

/// Refuses members it has no field for.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
struct Sealed {
    n: u8,
    #[serde(default)]
    m: Option<bool>,
}

/// Holds raw JSON, which serde cannot read from its buffered members.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct RawHolder {
    v: jitson::RawValue,
}

/// An internally tagged newtype variant reads the members after the tag as its type's
/// (unknown ones skipped unless the type denies them); a flattening type, raw values and
/// a second tag are left to the codec.
#[test]
fn internally_tagged_newtype_variants_are_read_in_one_pass() {
    for (input, taken) in [
        (r#"{"kind": "Open", "name": "n"}"#, true),
        (r#"{"kind": "Open", "x": [1], "name": "n"}"#, true),
        (r#"{"kind": "Open"}"#, false),
        (r#"{"kind": "Open", "name": "n", "kind": "Open"}"#, false),
        (r#"{"kind": "Open", "name": "n", "name": "m"}"#, false),
        (r#"{"name": "n", "kind": "Open"}"#, true),
        (
            r#"{"x": {"kind": "Closed"}, "name": "n", "kind": "Open", "y": 1}"#,
            true,
        ),
        (r#"{"name": "n", "kind": "Open", "kind": "Open"}"#, false),
        (r#"{"n": 1, "kind": "Closed"}"#, true),
        (r#"{"n": 1, "kind": "Closed", "z": 0}"#, false),
        (r#"{"name": "n"}"#, false),
        (r#"{"kind": "Closed", "n": 1}"#, true),
        (r#"{"kind": "Closed", "m": true, "n": 1}"#, true),
        (r#"{"kind": "Closed", "n": 1, "z": 0}"#, false),
        (r#"{"kind": "Counts", "a": 1, "b": 2}"#, true),
        (r#"{"kind": "Counts"}"#, true),
        (r#"{"kind": "Counts", "a": 300}"#, false),
        (r#"{"kind": "Raw", "v": [1]}"#, false),
        (r#"{"kind": "Flat", "id": 1, "x": 2}"#, false),
        (r#"{"kind": "Other"}"#, false),
    ] {
        check_one_pass::<Message>(input, taken);
    }
}

/// Mutations of internally tagged newtype variants: every value the reader builds is the
/// two-pass decode's, and the engines agree.
#[test]
fn mutations_of_tagged_newtype_variants_agree_with_the_two_pass_decode() {
    let count = if cfg!(miri) { 20 } else { 3000 };
    let input = br#"[{"kind": "Open", "name": "n", "q": 1}, {"kind": "Closed", "n": 3},
        {"kind": "Counts", "a": 1, "b": 20}, {"q": [2], "name": "m", "kind": "Open"},
        {"n": 4, "kind": "Closed"}]"#;
    assert!(read::<Vec<Message>>(input).is_ok());
    let taken = mutations_agree::<Vec<Message>>(input, count, 0xbb67_ae85);
    assert!(taken * 10 > count, "the reader took {taken} of {count}");
}

/// Mutations of internally tagged struct variants, the tag first, in the middle and last
/// (and a unit variant with other members): every value the reader builds is the two-pass
/// decode's, and the engines agree.
#[test]
fn mutations_of_tagged_struct_variants_agree_with_the_two_pass_decode() {
    let count = if cfg!(miri) { 20 } else { 3000 };
    let input = br#"[
        {"type": "point", "x": 1250.5, "y": 2},
        {"x": 3.125, "type": "point", "y": 40000},
        {"y": 5, "x": 6e3, "type": "point"},
        {"name": "n", "type": "named"},
        {"note": [1, "a"], "type": "empty", "seen": true}
    ]"#;
    assert!(read::<Vec<Shape>>(input).is_ok());
    let taken = mutations_agree::<Vec<Shape>>(input, count, 0x3c6e_f372);
    assert!(taken * 10 > count, "the reader took {taken} of {count}");
}

/// Internally tagged, a struct variant holding raw JSON: serde reads the variant from its
/// buffered copy of the object, where a raw value cannot be read.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t")]
enum TaggedRaw {
    V { r: jitson::RawValue },
    W { n: u8 },
}

/// A struct with a `tag`, holding raw JSON.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t")]
struct TaggedStructRaw {
    r: jitson::RawValue,
}

/// An internally tagged struct variant's members are read as serde reads them, from its
/// buffered object: the reader took `{"t": "V", "r": [1]}` (a raw value) where serde and
/// the two-pass decode refuse it.
#[test]
fn an_internally_tagged_variant_is_read_as_a_buffered_object() {
    check_one_pass::<TaggedRaw>(r#"{"t": "V", "r": [1]}"#, false);
    let err = one_pass()
        .decode::<TaggedRaw>(br#"{"t": "V", "r": [1]}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: newtype struct, expected any valid JSON value at line 1 column 1, path $"
    );
    check_one_pass::<TaggedRaw>(r#"{"t": "W", "n": 1}"#, true);
    check_one_pass::<TaggedStructRaw>(r#"{"t": "TaggedStructRaw", "r": [1]}"#, true);
}

/// Internally tagged and generic: a newtype variant's payload and a struct variant's
/// flattened field are type parameters (the derive bounds them by the member traits).
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "kind")]
enum Envelope<T, U> {
    Body(T),
    Both {
        id: u8,
        #[serde(flatten)]
        rest: U,
    },
    Empty,
}

/// A generic internally tagged enum reads its payloads member by member, whatever type
/// they are given.
#[test]
fn generic_tagged_payloads_are_read_member_by_member() {
    type Labelled = Envelope<Label, BTreeMap<String, u8>>;
    type Sealing = Envelope<Box<Sealed>, Label>;
    for (input, taken) in [
        (r#"{"kind": "Body", "name": "n"}"#, true),
        (r#"{"name": "n", "x": [1], "kind": "Body"}"#, true),
        (r#"{"kind": "Body"}"#, false),
        (r#"{"kind": "Both", "id": 1, "a": 2, "b": 3}"#, true),
        (r#"{"a": 2, "kind": "Both", "id": 1}"#, true),
        (r#"{"kind": "Both", "id": 1, "a": 300}"#, false),
        (r#"{"kind": "Empty", "id": 1}"#, true),
    ] {
        check_one_pass::<Labelled>(input, taken);
    }
    for (input, taken) in [
        (r#"{"kind": "Body", "n": 1}"#, true),
        (r#"{"kind": "Body", "n": 1, "z": 0}"#, false),
        (r#"{"kind": "Both", "id": 1, "name": "n"}"#, true),
    ] {
        check_one_pass::<Sealing>(input, taken);
    }
}

/// Standard values serde reads as small structs, and `bool` / `char` map keys.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct StdShapes {
    timeout: std::time::Duration,
    at: std::time::SystemTime,
    span: std::ops::Range<u8>,
    path: std::path::PathBuf,
    flags: BTreeMap<bool, u8>,
    letters: BTreeMap<char, u8>,
}

/// The reader takes durations, times and ranges from their object (members in any order)
/// or their array, and `bool` / `char` keys as serde_json reads them; it bails on the rest,
/// which the two-pass decode refuses.
#[test]
fn std_shapes_and_keys_are_read_in_one_pass() {
    let base = r#"{"timeout": {"secs": 1, "nanos": 2}, "at": [3, 4], "span": {"end": 6, "start": 5},
        "path": "/p", "flags": {"true": 1}, "letters": {"x": 1}}"#;
    let cases = [
        ("", "", true),
        (r#"{"secs": 1, "nanos": 2}"#, "[1, 2000000000]", true),
        (r#"{"end": 6, "start": 5}"#, "[5, 6]", true),
        (r#""/p""#, r#""\u002fp""#, true),
        (r#"{"x": 1}"#, r#"{"x": 1, "y": 2}"#, true),
        (r#"{"true": 1}"#, r#"{"false": 1, "true": 2}"#, true),
        (r#"{"secs": 1, "nanos": 2}"#, r#"{"secs": 1}"#, false),
        (
            r#"{"secs": 1, "nanos": 2}"#,
            r#"{"secs": 1, "nanos": 2, "secs": 1}"#,
            false,
        ),
        (
            r#"{"secs": 1, "nanos": 2}"#,
            r#"{"secs": 1, "nanos": 2, "x": 0}"#,
            false,
        ),
        (r#"{"secs": 1, "nanos": 2}"#, "[1]", false),
        (r#"{"secs": 1, "nanos": 2}"#, "[1, 2, 3]", false),
        (r#"{"secs": 1, "nanos": 2}"#, "{}", false),
        (
            r#"{"secs": 1, "nanos": 2}"#,
            r#"{"secs": 1, "nanos": -2}"#,
            false,
        ),
        (
            r#"{"secs": 1, "nanos": 2}"#,
            r#"{"secs": 18446744073709551615, "nanos": 1000000000}"#,
            false,
        ),
        ("[3, 4]", "[18446744073709551615, 0]", false),
        (r#"{"true": 1}"#, r#"{"True": 1}"#, false),
        (r#"{"true": 1}"#, r#"{"\u0074rue": 1}"#, false),
        (r#"{"true": 1}"#, r#"{"true": 1, "true": 1}"#, false),
        (r#"{"x": 1}"#, r#"{"xy": 1}"#, false),
        (r#"{"x": 1}"#, r#"{"": 1}"#, false),
    ];
    for (from, to, taken) in cases {
        let input = base.replacen(from, to, 1);
        check_one_pass::<StdShapes>(&input, taken);
    }
}

/// A tag no variant names reads as the `#[serde(other)]` variant in one pass; a data
/// variant's name as a string, or content given to the catch-all, bails.
#[test]
fn other_variants_are_read_in_one_pass() {
    use crate::parity::{AdjacentOther, ExternalOther, InternalOther};
    for (input, taken) in [
        (r#""zzz""#, true),
        (r#""known""#, true),
        (r#""also""#, true),
        (r#""skipped""#, true),
        (r#""data""#, false),
        (r#""z\u0041""#, false),
        (r#"{"zzz": 1}"#, false),
    ] {
        check_one_pass::<ExternalOther>(input, taken);
    }
    for (input, taken) in [
        (r#"{"kind": "zzz"}"#, true),
        (r#"{"x": [1, {"y": 2}], "kind": "zzz", "z": null}"#, true),
        (r#"{"kind": "Point", "x": 1}"#, true),
        (r#"{"kind": "Point"}"#, false),
        (r#"{"kind": 1}"#, false),
        (r#"{"kind": "zzz", "kind": "zzz"}"#, false),
    ] {
        check_one_pass::<InternalOther>(input, taken);
    }
    for (input, taken) in [
        (r#"{"t": "zzz"}"#, true),
        (r#"{"c": null, "t": "zzz"}"#, true),
        (r#"{"t": "zzz", "c": 1}"#, false),
        (r#"{"t": "zzz", "x": 1}"#, false),
        (r#"{"t": "Maybe"}"#, true),
    ] {
        check_one_pass::<AdjacentOther>(input, taken);
    }
}

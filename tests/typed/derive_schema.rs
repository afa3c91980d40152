//! `#[derive(jitson::Schema)]`: for every supported shape and attribute, the derived schema
//! accepts exactly the documents serde_json's derived `Deserialize` of the same type accepts
//! (the reference validator and both engine backends), and its JSON Schema document loads
//! back to the same schema. Where the two knowingly differ, a test pins the difference.

#![cfg(not(miri))]

use jitson::engine::{Backend, BigInts, Options};
use jitson::typed::JsonType;
use jitson::{Codec, RawValue, Schema, TypeKey};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// Checks `T`'s schema against serde_json on `docs` (each with whether serde_json reads it),
/// and that `T::json_schema_string()` loads back to the same schema.
fn check<T: DeserializeOwned + JsonType>(docs: &[(&str, bool)]) {
    let schema = T::schema();
    assert_round_trip::<T>(&schema);
    let codecs = [Backend::Interpreter, Backend::Native]
        .map(|b| Codec::with_options(&schema, Options::new().backend(b)));
    for &(doc, ok) in docs {
        let serde = serde_json::from_str::<T>(doc).err();
        assert_eq!(serde.is_none(), ok, "serde_json on {doc}: {serde:?}");
        agree(&schema, &codecs, doc, ok);
    }
}

/// The reference validator and both backends answer `ok` for `doc`.
fn agree(schema: &Schema, codecs: &[Codec], doc: &str, ok: bool) {
    let value: Value = serde_json::from_str(doc).unwrap();
    let verdict = schema.validate_value(&value);
    assert_eq!(
        verdict.is_ok(),
        ok,
        "reference validator on {doc}: {verdict:?}"
    );
    for codec in codecs {
        let verdict = codec.validate(doc.as_bytes());
        assert_eq!(
            verdict.is_ok(),
            ok,
            "{:?} on {doc}: {verdict:?}",
            codec.backend()
        );
    }
    // The dynamic decode of an accepted document holds the same value.
    if ok {
        let decoded = codecs[0].decode(doc.as_bytes()).unwrap();
        assert!(json_eq(&decoded.to_serde_json(), &value), "decode of {doc}");
    }
}

/// JSON equality, numbers by value (a decoded `1.0` may come back as `1`).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Both backends' codecs of `schema`.
fn codecs(schema: &Schema) -> [Codec; 2] {
    [Backend::Interpreter, Backend::Native]
        .map(|b| Codec::with_options(schema, Options::new().backend(b)))
}

/// The JSON Schema text of `T` loads back to `schema` (equal keys, equal arenas).
fn assert_round_trip<T: JsonType>(schema: &Schema) {
    let text = T::json_schema_string();
    let loaded = Schema::from_json_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(TypeKey::of(&loaded, 0), TypeKey::of(schema, 0), "{text}");
    assert_eq!(&loaded, schema, "{text}");
}

const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Ints {
    a: u8,
    b: u16,
    c: u32,
    d: u64,
    e: i8,
    f: i16,
    g: i32,
    h: i64,
    i: usize,
    j: isize,
}

#[test]
fn integers_are_range_checked_per_width() {
    let zero = [("a", 0i128); 10].map(|(_, n)| n);
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    // Documents are text: a `Value` would round 64-bit edges through f64.
    let doc = |at: usize, text: &str| {
        let members: Vec<String> = names
            .iter()
            .zip(zero)
            .enumerate()
            .map(|(i, (name, z))| match i == at {
                true => format!("\"{name}\": {text}"),
                false => format!("\"{name}\": {z}"),
            })
            .collect();
        format!("{{{}}}", members.join(", "))
    };
    let mut docs = vec![(doc(usize::MAX, ""), true)];
    let widths: [(i128, i128); 10] = [
        (0, u8::MAX.into()),
        (0, u16::MAX.into()),
        (0, u32::MAX.into()),
        (0, u64::MAX.into()),
        (i8::MIN.into(), i8::MAX.into()),
        (i16::MIN.into(), i16::MAX.into()),
        (i32::MIN.into(), i32::MAX.into()),
        (i64::MIN.into(), i64::MAX.into()),
        (0, u64::MAX.into()),
        (i64::MIN.into(), i64::MAX.into()),
    ];
    for (at, (min, max)) in widths.into_iter().enumerate() {
        // Below i64::MIN, integers are read as the nearest f64 (2048 apart there): step
        // past the rounding (the rounding itself is pinned in documented_differences).
        let below = if min == i128::from(i64::MIN) {
            min - 4096
        } else {
            min - 1
        };
        for (n, ok) in [(min, true), (max, true), (below, false), (max + 1, false)] {
            docs.push((doc(at, &n.to_string()), ok));
        }
        for bad in ["\"1\"", "1.5", "null", "[]"] {
            docs.push((doc(at, bad), false));
        }
    }
    docs.push((r#"{"a": 0}"#.to_owned(), false));
    let docs: Vec<(&str, bool)> = docs.iter().map(|(d, ok)| (d.as_str(), *ok)).collect();
    check::<Ints>(&docs);
}

/// `u128` / `i128` take their whole range: exact bounds (powers of two, exact as `f64`s)
/// that codecs reading big integers as their digits ([`BigInts::Raw`], as typed decode
/// does) check exactly.
#[test]
fn wide_integers_take_their_whole_range() {
    let raw = |schema: &Schema| {
        [Backend::Interpreter, Backend::Native]
            .map(|b| Codec::with_options(schema, Options::new().backend(b).big_ints(BigInts::Raw)))
    };
    let cases: [(Schema, [(String, bool); 4]); 2] = [
        (
            u128::schema(),
            [
                (u128::MAX.to_string(), true),
                ("340282366920938463463374607431768211456".to_owned(), false),
                ("0".to_owned(), true),
                ("-1".to_owned(), false),
            ],
        ),
        (
            i128::schema(),
            [
                (i128::MAX.to_string(), true),
                ("170141183460469231731687303715884105728".to_owned(), false),
                (i128::MIN.to_string(), true),
                ("-170141183460469231731687303715884105729".to_owned(), false),
            ],
        ),
    ];
    for (schema, docs) in cases {
        for codec in raw(&schema) {
            for (doc, ok) in &docs {
                let verdict = codec.validate(doc.as_bytes());
                assert_eq!(verdict.is_ok(), *ok, "{doc}: {verdict:?}");
            }
        }
    }
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Scalars {
    f: f32,
    d: f64,
    b: bool,
    c: char,
    s: String,
    bs: Box<str>,
    cow: Cow<'static, str>,
    unit: (),
}

#[test]
fn scalars() {
    let ok =
        r#"{"f": 1.5, "d": -2, "b": true, "c": "é", "s": "x", "bs": "", "cow": "z", "unit": null}"#;
    check::<Scalars>(&[
        (ok, true),
        (
            r#"{"f": 3e38, "d": 0, "b": false, "c": "a", "s": "", "bs": "", "cow": "", "unit": null}"#,
            true,
        ),
        (&ok.replace("\"é\"", "\"ab\""), false),
        (&ok.replace("\"é\"", "\"\""), false),
        (&ok.replace("true", "1"), false),
        (&ok.replace("1.5", "\"1.5\""), false),
        (&ok.replace("\"x\"", "3"), false),
        (&ok.replace("null", "0"), false),
        (r#"{"f": 1.5}"#, false),
    ]);
    // f32 takes the numbers whose nearest f32 is finite, `f32::MAX` as written among them
    // (serde_json's answer beyond them depends on its `float_roundtrip` feature: an error,
    // or infinity).
    let f32_schema = f32::schema();
    assert!(f32_schema.validate_value(&json!(f32::MAX)).is_ok());
    assert!(f32_schema.validate_value(&json!(-f32::MAX)).is_ok());
    assert!(f32_schema.validate_value(&json!(3.4028235e38)).is_ok());
    assert!(f32_schema.validate_value(&json!(-3.4028235e38)).is_ok());
    // 2^128 - 2^103, where numbers start to round to infinity.
    assert!(
        f32_schema
            .validate_value(&json!(3.4028235677973366e38))
            .is_err()
    );
    assert!(f32_schema.validate_value(&json!(1e300)).is_err());
    assert!(f64::schema().validate_value(&json!(1e300)).is_ok());
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Borrowed<'a> {
    s: &'a str,
    c: Cow<'a, str>,
}

#[test]
fn borrowed_strings() {
    let schema = Borrowed::schema();
    assert_round_trip::<Borrowed<'_>>(&schema);
    let codecs = codecs(&schema);
    for (doc, ok) in [
        (r#"{"s": "a", "c": "b"}"#, true),
        (r#"{"s": 1, "c": "b"}"#, false),
        (r#"{"s": "a"}"#, false),
    ] {
        assert_eq!(
            serde_json::from_str::<Borrowed<'_>>(doc).is_ok(),
            ok,
            "{doc}"
        );
        agree(&schema, &codecs, doc, ok);
    }
    // serde_json cannot borrow an escaped string; the schema takes every string.
    let escaped = r#"{"s": "a\nb", "c": "b"}"#;
    assert!(serde_json::from_str::<Borrowed<'_>>(escaped).is_err());
    agree(&schema, &codecs, escaped, true);
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Inner {
    n: u8,
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Containers {
    v: Vec<u8>,
    a: [i8; 3],
    o: Option<u16>,
    b: Box<Inner>,
    m: HashMap<String, u8>,
    bm: BTreeMap<Box<str>, Vec<bool>>,
    t: (u8, String),
    nested: Vec<Option<Inner>>,
}

#[test]
fn containers() {
    let ok = r#"{"v": [1, 2], "a": [1, 2, 3], "o": 7, "b": {"n": 1}, "m": {"x": 1},
                 "bm": {"k": [true]}, "t": [1, "s"], "nested": [null, {"n": 2}]}"#;
    check::<Containers>(&[
        (ok, true),
        (&ok.replace(r#""o": 7"#, r#""o": null"#), true),
        (&ok.replace(r#""o": 7,"#, ""), true),
        (&ok.replace("[1, 2, 3]", "[1, 2]"), false),
        (&ok.replace("[1, 2, 3]", "[1, 2, 3, 4]"), false),
        (&ok.replace("[1, 2, 3]", "[1, 2, 128]"), false),
        (&ok.replace(r#""o": 7"#, r#""o": 65536"#), false),
        (&ok.replace(r#"{"n": 1}"#, r#"{"n": 256}"#), false),
        (&ok.replace(r#"{"n": 2}"#, r#"{"n": "2"}"#), false),
        (&ok.replace(r#"{"x": 1}"#, r#"{"x": -1}"#), false),
        (&ok.replace("[true]", "[1]"), false),
        (&ok.replace(r#"[1, "s"]"#, r#"[1]"#), false),
        (&ok.replace(r#"[1, "s"]"#, r#"[1, "s", 2]"#), false),
        (&ok.replace(r#"[1, "s"]"#, r#"["s", 1]"#), false),
        (&ok.replace(r#""v": [1, 2],"#, ""), false),
        (&ok.replace("[1, 2],", "[1, 300],"), false),
    ]);
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Pair(u8, String);

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Meters(f64);

#[derive(Deserialize, jitson::Schema)]
struct Nothing;

#[test]
fn tuple_newtype_and_unit_structs() {
    check::<Pair>(&[
        (r#"[1, "a"]"#, true),
        (r#"[1]"#, false),
        (r#"[1, "a", 2]"#, false),
        (r#"{"0": 1, "1": "a"}"#, false),
    ]);
    check::<Meters>(&[("1.5", true), ("[1.5]", false), ("\"1\"", false)]);
    check::<Nothing>(&[
        ("null", true),
        ("0", false),
        ("{\"a\": 1}", false),
        ("[0]", false),
    ]);
}

#[derive(Deserialize, jitson::Schema)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE", deny_unknown_fields)]
#[allow(dead_code)]
struct Renamed {
    first_name: String,
    #[serde(rename = "years")]
    age: u8,
    #[jitson(rename = "r#type")]
    #[serde(rename = "ignored_by_jitson")]
    r#type: Option<u8>,
}

#[test]
fn rename_rename_all_and_jitson_overrides() {
    let schema = Renamed::schema();
    let text = Renamed::json_schema_string();
    assert!(
        text.contains(r#""FIRST-NAME""#) && text.contains(r#""years""#),
        "{text}"
    );
    assert!(text.contains(r#""r#type""#), "{text}");
    // serde reads its own rename; the jitson override changes only the schema.
    let codecs = codecs(&schema);
    agree(
        &schema,
        &codecs,
        r#"{"FIRST-NAME": "a", "years": 3, "r#type": 1}"#,
        true,
    );
    agree(
        &schema,
        &codecs,
        r#"{"FIRST-NAME": "a", "years": 3, "ignored_by_jitson": 1}"#,
        false,
    );
    agree(
        &schema,
        &codecs,
        r#"{"first_name": "a", "years": 3}"#,
        false,
    );
}

#[derive(Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Policies {
    #[serde(default)]
    d: u8,
    #[serde(default = "seven")]
    dp: u8,
    #[serde(skip)]
    skipped: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    maybe: Option<u8>,
    required: bool,
    // serde still requires it on input: no `default`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tags: Vec<u8>,
}

fn seven() -> u8 {
    7
}

#[test]
fn default_skip_and_deny_unknown_fields() {
    check::<Policies>(&[
        (r#"{"required": true, "tags": []}"#, true),
        (
            r#"{"required": true, "d": 1, "dp": 2, "maybe": null, "tags": [1]}"#,
            true,
        ),
        (r#"{"required": true}"#, false),
        (r#"{"d": 1, "tags": []}"#, false),
        (r#"{"required": true, "tags": [], "skipped": 1}"#, false),
        (r#"{"required": true, "tags": [], "other": 1}"#, false),
        (r#"{"required": true, "tags": [], "d": 256}"#, false),
    ]);
}

#[derive(Deserialize, jitson::Schema)]
#[serde(default)]
#[allow(dead_code)]
#[derive(Default)]
struct AllDefault {
    a: u8,
    b: String,
}

#[test]
fn container_default_and_open_objects() {
    check::<AllDefault>(&[
        ("{}", true),
        (r#"{"a": 1, "extra": [1]}"#, true),
        (r#"{"b": 1}"#, false),
        ("\"s\"", false),
    ]);
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Flat {
    id: u32,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    extra: HashMap<String, u8>,
}

#[derive(Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct FlatDeny {
    id: u32,
    #[serde(flatten)]
    inner: Box<Inner>,
}

#[test]
fn flatten_structs_and_maps() {
    check::<Flat>(&[
        (r#"{"id": 1, "n": 2}"#, true),
        (r#"{"id": 1, "n": 2, "x": 255}"#, true),
        (r#"{"id": 1, "n": 2, "x": 256}"#, false),
        (r#"{"id": 1, "n": 2, "x": "s"}"#, false),
        (r#"{"id": 1}"#, false),
        (r#"{"id": 1, "n": 256}"#, false),
    ]);
    check::<FlatDeny>(&[
        (r#"{"id": 1, "n": 2}"#, true),
        (r#"{"n": 2, "id": 1}"#, true),
        (r#"{"id": 1, "n": 2, "x": 1}"#, false),
        (r#"{"id": 1}"#, false),
    ]);
}

#[derive(Deserialize, jitson::Schema)]
#[serde(transparent)]
#[allow(dead_code)]
struct Wrapper {
    inner: Option<u8>,
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct HoldsWrapper {
    w: Wrapper,
}

#[test]
fn transparent_is_the_inner_type() {
    check::<Wrapper>(&[("1", true), ("null", true), (r#"{"inner": 1}"#, false)]);
    // A transparent Option may be missing, as serde fills it with None.
    check::<HoldsWrapper>(&[
        ("{}", true),
        (r#"{"w": 2}"#, true),
        (r#"{"w": "2"}"#, false),
    ]);
}

#[derive(Deserialize, jitson::Schema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum Color {
    DarkRed,
    Green,
    #[serde(rename = "BLUE")]
    Blue,
    #[serde(skip)]
    Hidden,
}

#[test]
fn unit_variant_enums_are_strings() {
    check::<Color>(&[
        (r#""dark_red""#, true),
        (r#""green""#, true),
        (r#""BLUE""#, true),
        (r#""blue""#, false),
        (r#""hidden""#, false),
        (r#""Hidden""#, false),
        ("0", false),
    ]);
    assert_eq!(
        Color::json_schema(),
        json!({"$schema": DIALECT, "enum": ["dark_red", "green", "BLUE"]})
    );
}

#[derive(Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
enum External {
    Unit,
    Other,
    Newtype(u8),
    Tuple(u8, bool),
    Struct { x: i8 },
}

#[test]
fn externally_tagged_enums() {
    check::<External>(&[
        (r#""Unit""#, true),
        (r#""Other""#, true),
        (r#"{"Newtype": 1}"#, true),
        (r#"{"Tuple": [1, true]}"#, true),
        (r#"{"Struct": {"x": -1}}"#, true),
        (r#""Newtype""#, false),
        (r#"{"Newtype": 256}"#, false),
        (r#"{"Newtype": 1, "Unit": null}"#, false),
        (r#"{"Tuple": [1]}"#, false),
        (r#"{"Struct": {"x": 1, "y": 1}}"#, false),
        (r#"{"Struct": {"x": 128}}"#, false),
        (r#"{"Missing": 1}"#, false),
        ("{}", false),
    ]);
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Circle {
    r: f64,
}

#[derive(Deserialize, jitson::Schema)]
#[serde(
    tag = "kind",
    rename_all = "lowercase",
    rename_all_fields = "camelCase"
)]
#[allow(dead_code)]
enum Internal {
    Circle(Circle),
    Square { side_len: u32 },
    Empty,
}

#[test]
fn internally_tagged_enums_use_the_discriminator() {
    check::<Internal>(&[
        (r#"{"kind": "circle", "r": 1.5}"#, true),
        (r#"{"r": 1.5, "kind": "circle"}"#, true),
        (r#"{"kind": "square", "sideLen": 2}"#, true),
        (r#"{"kind": "square", "sideLen": 2, "extra": 1}"#, true),
        (r#"{"kind": "empty"}"#, true),
        (r#"{"kind": "empty", "extra": true}"#, true),
        (r#"{"kind": "square", "sideLen": -2}"#, false),
        (r#"{"kind": "square", "side_len": 2}"#, false),
        (r#"{"kind": "circle"}"#, false),
        (r#"{"kind": "triangle"}"#, false),
        (r#"{"r": 1.5}"#, false),
        (r#""circle""#, false),
    ]);
    let schema = Internal::schema();
    let union = schema.node(schema.root());
    let jitson::TypeDesc::AnyOf(u) = union else {
        panic!("{union:?}");
    };
    let d = u.discriminator.as_ref().expect("a discriminator");
    assert_eq!(d.property, "kind");
    assert_eq!(d.tags, [json!("circle"), json!("square"), json!("empty")]);
    assert_eq!(
        Internal::json_schema(),
        json!({"$schema": DIALECT, "anyOf": [
            {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
             "required": ["kind", "r"]},
            {"type": "object", "properties": {"kind": {"const": "square"},
             "sideLen": {"type": "integer", "minimum": 0, "maximum": 4294967295u32}},
             "required": ["kind", "sideLen"]},
            {"type": "object", "properties": {"kind": {"const": "empty"}}, "required": ["kind"]}
        ]})
    );
}

#[derive(Deserialize, jitson::Schema)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
#[allow(dead_code)]
enum Adjacent {
    Unit,
    Newtype(u8),
    Maybe(Option<u8>),
    Tuple(u8, u8),
    Struct { a: bool },
}

#[test]
fn adjacently_tagged_enums() {
    check::<Adjacent>(&[
        (r#"{"t": "Unit"}"#, true),
        (r#"{"t": "Unit", "c": null}"#, true),
        (r#"{"t": "Newtype", "c": 1}"#, true),
        (r#"{"c": 1, "t": "Newtype"}"#, true),
        (r#"{"t": "Maybe"}"#, true),
        (r#"{"t": "Tuple", "c": [1, 2]}"#, true),
        (r#"{"t": "Struct", "c": {"a": true}}"#, true),
        (r#"{"t": "Unit", "c": 1}"#, false),
        (r#"{"t": "Newtype"}"#, false),
        (r#"{"t": "Newtype", "c": 1, "x": 1}"#, false),
        (r#"{"t": "Tuple", "c": [1]}"#, false),
        (r#"{"t": "Struct", "c": {"a": 1}}"#, false),
        (r#"{"t": "Nope", "c": 1}"#, false),
    ]);
}

#[derive(Deserialize, jitson::Schema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Untagged {
    Nothing,
    Number(u8),
    Pair(String, String),
    Named { name: String },
}

#[test]
fn untagged_enums() {
    check::<Untagged>(&[
        ("null", true),
        ("7", true),
        (r#"["a", "b"]"#, true),
        (r#"{"name": "x"}"#, true),
        (r#"{"name": "x", "more": 1}"#, true),
        ("256", false),
        (r#"["a"]"#, false),
        (r#"{"name": 1}"#, false),
        ("true", false),
    ]);
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Node {
    value: u8,
    children: Vec<Node>,
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Ping {
    pong: Option<Box<Pong>>,
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Pong {
    pings: Vec<Ping>,
    n: i8,
}

#[test]
fn recursive_types_use_defs() {
    check::<Node>(&[
        (r#"{"value": 1, "children": []}"#, true),
        (
            r#"{"value": 1, "children": [{"value": 2, "children": [{"value": 3, "children": []}]}]}"#,
            true,
        ),
        (
            r#"{"value": 1, "children": [{"value": 2, "children": [{"value": 300, "children": []}]}]}"#,
            false,
        ),
        (r#"{"value": 1, "children": [{"value": 2}]}"#, false),
    ]);
    assert_eq!(
        Node::json_schema(),
        json!({"$schema": DIALECT, "$ref": "#/$defs/Node", "$defs": {"Node": {
            "type": "object",
            "properties": {
                "value": {"type": "integer", "minimum": 0, "maximum": 255},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
            },
            "required": ["value", "children"]
        }}})
    );
    check::<Ping>(&[
        ("{}", true),
        (
            r#"{"pong": {"pings": [{"pong": null}, {"pong": {"pings": [], "n": -1}}], "n": 1}}"#,
            true,
        ),
        (
            r#"{"pong": {"pings": [{"pong": {"pings": [], "n": 128}}], "n": 1}}"#,
            false,
        ),
        (
            r#"{"pong": {"pings": [{"pong": {"pings": {}, "n": 1}}], "n": 1}}"#,
            false,
        ),
    ]);
    let defs = Ping::json_schema()["$defs"].clone();
    assert!(defs.get("Ping").is_some(), "{defs}");
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Page<T> {
    items: Vec<T>,
    next: Option<u32>,
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Pages {
    numbers: Page<u8>,
    words: Page<String>,
}

/// Generic and internally tagged: the newtype variant's object is a type parameter's.
#[derive(Deserialize, jitson::Schema)]
#[serde(tag = "t")]
#[allow(dead_code)]
enum TaggedPage<T> {
    Page(T),
    Nothing,
}

#[test]
fn generic_types() {
    check::<Pages>(&[
        (
            r#"{"numbers": {"items": [1]}, "words": {"items": ["a"], "next": 2}}"#,
            true,
        ),
        (
            r#"{"numbers": {"items": ["a"]}, "words": {"items": ["a"]}}"#,
            false,
        ),
        (
            r#"{"numbers": {"items": [1]}, "words": {"items": [1]}}"#,
            false,
        ),
    ]);
    check::<TaggedPage<Page<u8>>>(&[
        (r#"{"t": "Page", "items": [1]}"#, true),
        (r#"{"items": [1], "next": 2, "t": "Page"}"#, true),
        (r#"{"t": "Page", "items": ["a"]}"#, false),
        (r#"{"t": "Page"}"#, false),
        (r#"{"t": "Nothing", "items": 0}"#, true),
    ]);
}

#[derive(jitson::Schema)]
#[allow(dead_code)]
struct WithRaw {
    id: u8,
    raw: RawValue,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct WithValue {
    id: u8,
    raw: Value,
}

#[test]
fn raw_values_take_any_json() {
    let schema = WithRaw::schema();
    assert_round_trip::<WithRaw>(&schema);
    let codecs = codecs(&schema);
    for (doc, ok) in [
        (r#"{"id": 1, "raw": {"a": [1, null]}}"#, true),
        (r#"{"id": 1, "raw": null}"#, true),
        (r#"{"id": 1, "raw": "s"}"#, true),
        (r#"{"id": 1}"#, false),
        (r#"{"id": 256, "raw": 1}"#, false),
    ] {
        assert_eq!(serde_json::from_str::<WithValue>(doc).is_ok(), ok, "{doc}");
        agree(&schema, &codecs, doc, ok);
    }
    let raw = RawValue::from_json(" [1, 2] ").unwrap();
    assert_eq!(raw.get(), "[1, 2]");
    assert!(RawValue::from_json("[1,").is_err());
    assert!(RawValue::from_json("1 2").is_err());
}

#[derive(Deserialize, jitson::Schema)]
#[serde(tag = "type", rename = "point")]
#[allow(dead_code)]
struct Tagged {
    x: i32,
}

#[test]
fn struct_tags_are_optional_constants() {
    let schema = Tagged::schema();
    let codecs = codecs(&schema);
    for (doc, ok) in [
        (r#"{"type": "point", "x": 1}"#, true),
        (r#"{"x": 1}"#, true),
        (r#"{"type": "point"}"#, false),
    ] {
        assert_eq!(serde_json::from_str::<Tagged>(doc).is_ok(), ok, "{doc}");
        agree(&schema, &codecs, doc, ok);
    }
    // serde ignores the tag's value on input; the schema holds it to the struct's name.
    assert!(serde_json::from_str::<Tagged>(r#"{"type": "other", "x": 1}"#).is_ok());
    agree(&schema, &codecs, r#"{"type": "other", "x": 1}"#, false);
}

#[test]
fn documented_differences_from_serde_json() {
    // Integer schemas take `1.0`; serde_json's integers do not.
    assert!(serde_json::from_str::<Inner>(r#"{"n": 1.0}"#).is_err());
    agree(
        &Inner::schema(),
        &codecs(&Inner::schema()),
        r#"{"n": 1.0}"#,
        true,
    );
    // A codec's default `BigInts::F64` (and serde_json's `Value`) reads integers beyond 64
    // bits as the nearest f64, so one just below i64::MIN rounds onto it (typed decode reads
    // them exactly: see the typed decode tests).
    let just_below = "-9223372036854775809";
    assert!(serde_json::from_str::<i64>(just_below).is_err());
    agree(&i64::schema(), &codecs(&i64::schema()), just_below, true);
    // serde_json reads a struct from an array of its fields; the schema takes objects.
    assert!(serde_json::from_str::<Inner>("[1]").is_ok());
    agree(&Inner::schema(), &codecs(&Inner::schema()), "[1]", false);
    // A unit struct's schema takes `{}` and `[]`, which serde reads only from a value it
    // buffered (typed decode refuses them elsewhere, as serde does).
    for empty in ["{}", "[]"] {
        assert!(serde_json::from_str::<Nothing>(empty).is_err());
        agree(&Nothing::schema(), &codecs(&Nothing::schema()), empty, true);
    }
    // serde_json reads a unit variant from `{"Variant": null}`; the schema takes the string.
    assert!(serde_json::from_str::<External>(r#"{"Unit": null}"#).is_ok());
    agree(
        &External::schema(),
        &codecs(&External::schema()),
        r#"{"Unit": null}"#,
        false,
    );
}

#[test]
fn json_schema_documents() {
    #[derive(jitson::Schema)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Point {
        x: i32,
        y: Option<String>,
        tags: [char; 2],
    }
    assert_eq!(
        Point::json_schema(),
        json!({
            "$schema": DIALECT,
            "type": "object",
            "properties": {
                "x": {"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX},
                "y": {"type": ["string", "null"]},
                "tags": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 1},
                         "minItems": 2, "maxItems": 2}
            },
            "required": ["x", "tags"],
            "additionalProperties": false
        })
    );
    // Field order survives the text form (a `Value` sorts members).
    let text = Point::json_schema_string();
    assert!(
        text.find("\"x\"").unwrap() < text.find("\"tags\"").unwrap(),
        "{text}"
    );
    assert_round_trip::<Point>(&Point::schema());
}

#[test]
fn corpus_types_validate_the_corpus() {
    use crate::typed_support::{book::Book, canada::Canada, citm::CitmCatalog, twitter::Twitter};
    for (name, schema) in [
        ("book", Book::schema()),
        ("twitter", Twitter::schema()),
        ("twitterescaped", Twitter::schema()),
        ("citm_catalog", CitmCatalog::schema()),
        ("canada", Canada::schema()),
    ] {
        let bytes = crate::engine_support::testdata(&format!("bench/{name}.json"));
        let serde_ok = match name {
            "book" => serde_json::from_slice::<Book>(&bytes).map(drop),
            "citm_catalog" => serde_json::from_slice::<CitmCatalog>(&bytes).map(drop),
            "canada" => serde_json::from_slice::<Canada>(&bytes).map(drop),
            _ => serde_json::from_slice::<Twitter>(&bytes).map(drop),
        };
        serde_ok.unwrap_or_else(|e| panic!("{name}: {e}"));
        let value: Value = serde_json::from_slice(&bytes).unwrap();
        schema
            .validate_value(&value)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for codec in codecs(&schema) {
            codec
                .validate(&bytes)
                .unwrap_or_else(|e| panic!("{name} on {:?}: {e}", codec.backend()));
        }
    }
    assert_round_trip::<Book>(&Book::schema());
    assert_round_trip::<Twitter>(&Twitter::schema());
    assert_round_trip::<CitmCatalog>(&CitmCatalog::schema());
    assert_round_trip::<Canada>(&Canada::schema());
    // A retweet holds a status: the recursive type is a definition.
    assert!(Twitter::json_schema()["$defs"].get("Status").is_some());
}

#[derive(Deserialize, jitson::Schema)]
#[allow(dead_code)]
struct Optionals {
    color: Option<Color>,
    untagged: Option<Untagged>,
    external: Option<External>,
    nested: Option<Option<u8>>,
}

#[test]
fn options_of_enums() {
    check::<Optionals>(&[
        ("{}", true),
        (
            r#"{"color": null, "untagged": null, "external": null, "nested": null}"#,
            true,
        ),
        (
            r#"{"color": "green", "untagged": [" ", ""], "external": {"Newtype": 3}, "nested": 1}"#,
            true,
        ),
        (r#"{"color": "Green"}"#, false),
        (r#"{"untagged": true}"#, false),
        (r#"{"external": "Newtype"}"#, false),
        (r#"{"nested": 256}"#, false),
    ]);
}

/// `#[serde(other)]`: a branch for every string tag no variant names (and, adjacently
/// tagged, no content or `null`); a known tag keeps its variant's shape.
#[test]
fn other_variants_take_the_tags_no_variant_names() {
    use crate::parity::{AdjacentOther, ExternalOther, InternalOther};
    check::<ExternalOther>(&[
        (r#""known""#, true),
        (r#""zzz""#, true),
        (r#""skipped""#, true),
        (r#""data""#, false),
        (r#"{"data": 1}"#, true),
        (r#"{"zzz": 1}"#, false),
        ("1", false),
    ]);
    check::<InternalOther>(&[
        (r#"{"kind": "zzz", "x": 1}"#, true),
        (r#"{"kind": "unknown"}"#, true),
        (r#"{"kind": "Point", "x": 1}"#, true),
        (r#"{"kind": "Point"}"#, false),
        (r#"{"kind": 1}"#, false),
        (r#"{"x": 1}"#, false),
    ]);
    check::<AdjacentOther>(&[
        (r#"{"t": "zzz"}"#, true),
        (r#"{"t": "zzz", "c": null}"#, true),
        (r#"{"t": "zzz", "c": 1}"#, false),
        (r#"{"t": "zzz", "x": 1}"#, false),
        (r#"{"t": "Number", "c": 300}"#, false),
    ]);
    // The internally and adjacently tagged ones keep the discriminator fast path: the
    // `other` branch (the last) is its default.
    for schema in [InternalOther::schema(), AdjacentOther::schema()] {
        let jitson::TypeDesc::AnyOf(u) = schema.node(schema.root()) else {
            panic!("{schema:?}");
        };
        let d = u.discriminator.as_ref().expect("a discriminator");
        assert_eq!(d.default, Some(u.branches.len() - 1), "{schema:?}");
    }
}

/// `untagged` variants of a tagged enum: more `anyOf` branches, each the variant's data.
#[test]
fn untagged_variants_are_branches_of_their_data() {
    use crate::parity::{AdjacentLoose, ExternalLoose, InternalLoose};
    check::<ExternalLoose>(&[
        (r#""A""#, true),
        (r#"{"B": 1}"#, true),
        ("5", true),
        (r#""zz""#, true),
        (r#"{"C": 1}"#, false),
        ("-1", false),
    ]);
    check::<InternalLoose>(&[(r#"{"t": "A", "x": 1}"#, true), ("[]", true)]);
    check::<AdjacentLoose>(&[
        (r#"{"t": "A", "c": 1}"#, true),
        ("[1, 2]", true),
        ("[1]", false),
    ]);
}

/// An externally tagged enum's data variants (`{"Variant": data}`): the first member's name
/// selects the branch.
#[test]
fn externally_tagged_variants_are_selected_by_their_names() {
    #[derive(Debug, Deserialize, jitson::Schema)]
    #[allow(dead_code)]
    enum Shape {
        Circle { r: f64 },
        Square(u32),
        Pair(u8, u8),
        Unit,
    }
    let listing = Codec::new(&Shape::schema()).program().to_string();
    assert!(
        listing.contains(r#"discriminate by-name ["Circle", "Square", "Pair"]"#),
        "{listing}"
    );
    check::<Shape>(&[
        (r#"{"Circle": {"r": 1}}"#, true),
        (r#"{"Square": 2}"#, true),
        (r#"{"Pair": [1, 2]}"#, true),
        (r#""Unit""#, true),
        (r#"{"Square": -2}"#, false),
        (r#"{"Square": 2, "Pair": [1, 2]}"#, false),
        (r#"{"Round": 1}"#, false),
        (r#"{"Unit": 1}"#, false),
        ("{}", false),
    ]);
}

//! serde parity: field types and attribute combinations decoded on every engine (the
//! two-pass decode on the interpreter and native code, the one-pass reader), each input's
//! answer serde_json's — its value, or an error on every engine alike. Values serde reads
//! from its buffered copy (an internally tagged variant's members, an untagged enum's value)
//! are here too, where serde's answers differ from a direct read. The differences
//! `jitson::typed` documents (a struct read from an array, a unit variant from
//! `{"Variant": null}`) are left out.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Debug;

use crate::typed_support::engines::{refused, same};
use jitson::typed::{JsonDecode, JsonType};
use serde::Deserialize;
use serde::de::DeserializeOwned;

/// `input` decodes as serde_json decodes it, on every engine: the same value, or an error.
fn agrees<'a, T>(input: &'a str)
where
    T: JsonType + JsonDecode<'a> + Deserialize<'a> + PartialEq + Debug,
{
    match serde_json::from_str::<T>(input) {
        Ok(_) => same::<T>(input.as_bytes()),
        Err(_) => refused::<T>(input.as_bytes()),
    }
}

/// [`agrees`] on `input` alone, and as the first item of an array that goes on with `rest`
/// (more items, or nothing): the enum's reader inside a sequence too.
fn agrees_alone_and_in_array<T>(input: &str, rest: &str)
where
    T: JsonType + for<'b> JsonDecode<'b> + DeserializeOwned + PartialEq + Debug,
{
    agrees::<T>(input);
    agrees::<Vec<T>>(&format!("[{input}{rest}]"));
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Inner {
    a: u8,
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
enum External {
    A,
    B(u8),
    C { x: u8 },
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Unitish;

/// Internally tagged: every field below is read by serde from its buffered copy.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t")]
enum Buffered<'a> {
    V {
        c: char,
        #[serde(borrow)]
        s: Cow<'a, str>,
        o: Option<u8>,
        u: (),
        e: External,
        m: BTreeMap<String, Inner>,
        n: Option<Option<u8>>,
        b: Box<str>,
        arr: [u8; 2],
        tup: (u8, bool),
        f: f64,
        single: f32,
        any: serde_json::Value,
        units: Vec<Unitish>,
    },
    W {
        #[serde(default)]
        d: Vec<u8>,
        #[serde(skip)]
        skipped: u8,
        x: Option<Inner>,
    },
}

/// Untagged: serde tries the variants on its buffered copy of the value.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(untagged)]
enum Untagged<'a> {
    S {
        #[serde(borrow)]
        s: Cow<'a, str>,
        c: char,
        e: External,
    },
    N(u8),
}

#[test]
fn buffered_values_read_as_serde_reads_them() {
    let base = r#"{"t": "V", "c": "x", "s": "str", "o": 1, "u": null, "e": "A",
        "m": {"k": {"a": 1}}, "n": null, "b": "b", "arr": [1, 2], "tup": [1, true], "f": 1.5,
        "single": 0.1, "any": {"z": [1e300]}, "units": [null]}"#;
    let edits = [
        ("", ""),
        (r#""s": "str""#, r#""s": "s\ntr""#),
        (r#""e": "A""#, r#""e": {"B": 1}"#),
        (r#""e": "A""#, r#""e": {"C": {"x": 1}}"#),
        (r#""c": "x""#, r#""c": "\u00e9""#),
        (r#""c": "x""#, r#""c": "xy""#),
        (r#""n": null"#, r#""n": 5"#),
        (r#""o": 1, "#, ""),
        (r#""u": null"#, r#""u": []"#),
        (r#""any": {"z": [1e300]}"#, r#""any": 18446744073709551616"#),
        (r#""units": [null]"#, r#""units": [{}, [], null]"#),
        (r#""units": [null]"#, r#""units": [{"a": 1}]"#),
        (r#""units": [null]"#, r#""units": [[0]]"#),
        (r#""f": 1.5"#, r#""f": 18446744073709551617"#),
        (
            r#""single": 0.1"#,
            r#""single": 1.00000005960464477539062500000001"#,
        ),
        (r#""single": 0.1"#, r#""single": 3.4028235e38"#),
        (r#""arr": [1, 2]"#, r#""arr": [1, 2, 3]"#),
        (r#""tup": [1, true]"#, r#""tup": {"0": 1, "1": true}"#),
    ];
    for (from, to) in edits {
        agrees::<Buffered>(&base.replace(from, to));
    }
    for input in [
        r#"{"t": "W", "x": null}"#,
        r#"{"t": "W", "x": {"a": 1}, "skipped": 5}"#,
        r#"{"t": "W"}"#,
        r#"{"x": {"a": 2}, "d": [1], "t": "W"}"#,
    ] {
        agrees::<Buffered>(input);
    }
    for input in ["null", "{}", "[]", "[[]]"] {
        agrees::<Unitish>(input);
        agrees::<Vec<Unitish>>(input);
    }
    for input in [
        r#"{"s": "a", "c": "c", "e": "A"}"#,
        r#"{"s": "a\n", "c": "c", "e": {"B": 2}}"#,
        "7",
        "300",
        r#"{"s": "a", "c": "cc", "e": "A"}"#,
    ] {
        agrees::<Untagged>(input);
    }
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema, Default)]
struct Part {
    a: u8,
    #[serde(default)]
    b: Option<String>,
}

/// A container default with a flattened struct.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(default)]
struct DefaultFlat {
    x: u8,
    #[serde(flatten)]
    inner: Part,
}

impl Default for DefaultFlat {
    fn default() -> Self {
        DefaultFlat {
            x: 9,
            inner: Part { a: 3, b: None },
        }
    }
}

/// Adjacently tagged, renamed variants and variant fields.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(
    tag = "kind",
    content = "data",
    rename_all = "kebab-case",
    rename_all_fields = "UPPERCASE"
)]
enum Renamed {
    FirstV {
        some_x: u8,
    },
    SecondV(String),
    #[serde(rename = "z")]
    Third,
}

/// Untagged, a field alias.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(untagged)]
enum Aliased {
    A {
        #[serde(alias = "aa")]
        a: u8,
    },
    B {
        b: u8,
    },
}

/// Two flattened fields: a struct, then a map of the rest.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct TwoFlat {
    id: u8,
    #[serde(flatten)]
    part: Part,
    #[serde(flatten)]
    rest: BTreeMap<String, serde_json::Value>,
}

/// Internally tagged, a struct variant with a flattened map and a newtype variant.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t")]
enum TaggedFlat {
    V {
        id: u8,
        #[serde(flatten)]
        rest: BTreeMap<String, u8>,
    },
    W(Part),
}

/// Unit variants renamed, one with an alias.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(rename_all = "UPPERCASE")]
enum Units {
    Aa,
    #[serde(alias = "b1")]
    Bb,
}

#[test]
fn attribute_combinations_read_as_serde_reads_them() {
    for input in [
        "{}",
        r#"{"a": 1}"#,
        r#"{"x": 1, "a": 2, "b": "s"}"#,
        r#"{"x": 1}"#,
        r#"{"b": null}"#,
    ] {
        agrees::<DefaultFlat>(input);
    }
    for input in [
        r#"{"kind": "first-v", "data": {"SOME_X": 1}}"#,
        r#"{"kind": "first-v", "data": {"some_x": 1}}"#,
        r#"{"kind": "second-v", "data": "s"}"#,
        r#"{"kind": "z"}"#,
        r#"{"kind": "third"}"#,
        r#"{"data": null, "kind": "z"}"#,
    ] {
        agrees::<Renamed>(input);
    }
    for input in [
        r#"{"aa": 1}"#,
        r#"{"a": 1}"#,
        r#"{"b": 1}"#,
        r#"{"aa": 1, "a": 2}"#,
        r#"{"c": 1}"#,
    ] {
        agrees::<Aliased>(input);
    }
    for input in [
        r#"{"id": 1, "a": 2, "z": [1], "b": "x"}"#,
        r#"{"a": 2, "id": 1}"#,
        r#"{"id": 1, "a": 300}"#,
    ] {
        agrees::<TwoFlat>(input);
    }
    for input in [
        r#"{"t": "V", "id": 1, "x": 2}"#,
        r#"{"x": 2, "id": 1, "t": "V"}"#,
        r#"{"t": "W", "a": 1}"#,
        r#"{"t": "V", "id": 1, "x": "s"}"#,
    ] {
        agrees::<TaggedFlat>(input);
    }
    for input in [r#""AA""#, r#""b1""#, r#""BB""#, r#""Aa""#] {
        agrees::<Units>(input);
    }
}

/// Standard values serde reads as small structs, and `bool` / `char` keys, where serde
/// reads them from its buffered copy (an internally tagged variant's members).
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t")]
enum BufferedStd {
    V {
        d: std::time::Duration,
        r: std::ops::RangeInclusive<u8>,
        p: std::path::PathBuf,
        #[serde(default)]
        flags: BTreeMap<bool, u8>,
        #[serde(default)]
        letters: BTreeMap<char, u8>,
    },
}

/// Untagged: a duration, or any other value.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(untagged)]
enum MaybeDuration {
    D(std::time::Duration),
    Flags(BTreeMap<bool, u8>),
    Other(serde_json::Value),
}

#[test]
fn std_shapes_and_keys_read_as_serde_reads_them_buffered() {
    for input in [
        r#"{"t": "V", "d": {"secs": 1, "nanos": 2}, "r": [1, 2], "p": "/x"}"#,
        r#"{"d": [1, 2], "t": "V", "r": {"end": 1, "start": 2}, "p": "x\n"}"#,
        r#"{"t": "V", "d": [1, 2], "r": [1, 2], "p": "", "letters": {"a": 1, "\u00e9": 2}}"#,
        r#"{"t": "V", "d": [1, 2], "r": [1, 2], "p": "", "letters": {"ab": 1}}"#,
        r#"{"t": "V", "d": [1, 2], "r": [1, 2], "p": "", "flags": {"true": 1}}"#,
        r#"{"t": "V", "d": [1, 2], "r": [1, 2], "p": "", "flags": {}}"#,
        r#"{"t": "V", "d": [1], "r": [1, 2], "p": ""}"#,
        r#"{"t": "V", "d": {"secs": 18446744073709551615, "nanos": 1000000000}, "r": [1, 2], "p": ""}"#,
    ] {
        agrees::<BufferedStd>(input);
    }
    for input in [
        r#"{"secs": 1, "nanos": 2}"#,
        "[1, 2]",
        "[1, 2, 3]",
        r#"{"secs": 1}"#,
        r#"{"secs": 18446744073709551615, "nanos": 1000000000}"#,
        r#"{"true": 1}"#,
        "{}",
        "7",
    ] {
        agrees::<MaybeDuration>(input);
    }
}

/// `#[serde(other)]` in each tagged representation: a tag no variant names reads as it.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ExternalOther {
    Known,
    Data(u8),
    #[serde(skip)]
    #[allow(dead_code)]
    Skipped,
    #[serde(other, alias = "also")]
    Unknown,
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "kind")]
pub(crate) enum InternalOther {
    Point {
        x: i32,
    },
    Empty,
    #[serde(other, rename = "unknown")]
    Unknown,
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
pub(crate) enum AdjacentOther {
    Number(u8),
    Maybe(Option<u8>),
    #[serde(other)]
    Other,
}

#[test]
fn other_variants_read_as_serde_reads_them() {
    for input in [
        r#""known""#,
        r#""zzz""#,
        r#""""#,
        r#""also""#,
        r#""unknown""#,
        r#""Known""#,
        r#""skipped""#,
        r#""data""#,
        r#""z\u0041""#,
        r#"{"data": 1}"#,
        // (`{"zzz": null}`, a unit variant's object form, is a documented difference.)
        r#"{"zzz": 1}"#,
        "1",
        "null",
    ] {
        agrees_alone_and_in_array::<ExternalOther>(input, r#", "known""#);
    }
    for input in [
        r#"{"kind": "Point", "x": 1}"#,
        r#"{"kind": "Point"}"#,
        r#"{"kind": "Empty", "x": 1}"#,
        r#"{"kind": "zzz"}"#,
        r#"{"x": [1, {"y": 2}], "kind": "zzz", "z": null}"#,
        r#"{"kind": "unknown"}"#,
        r#"{"kind": "Unknown"}"#,
        r#"{"kind": "z\"z"}"#,
        r#"{"kind": 1}"#,
        r#"{"kind": null}"#,
        r#"{"x": 1}"#,
        r#"{"kind": "zzz", "kind": "zzz"}"#,
    ] {
        agrees::<InternalOther>(input);
    }
    for input in [
        r#"{"t": "Number", "c": 1}"#,
        r#"{"t": "zzz"}"#,
        r#"{"t": "zzz", "c": null}"#,
        r#"{"c": null, "t": "zzz"}"#,
        r#"{"t": "zzz", "c": 1}"#,
        r#"{"c": 1, "t": "zzz"}"#,
        r#"{"t": "zzz", "x": 1}"#,
        r#"{"t": "Other"}"#,
        r#"{"t": "Maybe"}"#,
        r#"{"t": "Number"}"#,
        r#"{"t": 5}"#,
    ] {
        agrees::<AdjacentOther>(input);
    }
}

/// A field serde reads (`#[jitson(serde)]`, `deserialize_with`) where serde reads it from
/// its buffered copy: the reader leaves it to the two-pass decode.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t")]
enum TaggedViaSerde {
    V {
        #[jitson(serde)]
        any: serde_json::Value,
        #[serde(deserialize_with = "wide")]
        n: u128,
    },
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(untagged)]
enum UntaggedViaSerde {
    Wide {
        #[serde(deserialize_with = "wide")]
        n: u128,
    },
    Other(serde_json::Value),
}

fn wide<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
    u128::deserialize(d)
}

#[test]
fn fields_via_serde_read_as_serde_reads_them_buffered() {
    for input in [
        r#"{"t": "V", "any": [1, {"a": null}], "n": 5}"#,
        r#"{"n": 5, "any": 1.5, "t": "V"}"#,
        r#"{"t": "V", "any": 1, "n": 18446744073709551616}"#,
        r#"{"t": "V", "any": 1, "n": "5"}"#,
        r#"{"t": "V", "n": 5}"#,
    ] {
        agrees::<TaggedViaSerde>(input);
    }
    for input in [
        r#"{"n": 5}"#,
        r#"{"n": 18446744073709551616}"#,
        r#"{"n": "x"}"#,
    ] {
        agrees::<UntaggedViaSerde>(input);
    }
}

/// `untagged` variants of tagged enums: tried, in order, on the value alone after the
/// tagged form.
#[derive(Debug, PartialEq, Deserialize, serde::Serialize, jitson::Schema)]
pub(crate) enum ExternalLoose {
    A,
    B(u8),
    #[serde(untagged)]
    Num(u32),
    #[serde(untagged)]
    Text(String),
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, jitson::Schema)]
#[serde(tag = "t")]
pub(crate) enum InternalLoose {
    A {
        x: u8,
    },
    #[serde(untagged)]
    Raw(serde_json::Value),
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, jitson::Schema)]
#[serde(tag = "t", content = "c")]
pub(crate) enum AdjacentLoose {
    A(u8),
    #[serde(untagged)]
    Pair(u8, u8),
}

#[test]
fn untagged_variants_read_as_serde_reads_them() {
    for input in [
        r#""A""#,
        r#"{"B": 1}"#,
        "5",
        r#""zz""#,
        r#"{"C": 1}"#,
        "null",
        "-1",
        r#"{"B": 300}"#,
    ] {
        agrees_alone_and_in_array::<ExternalLoose>(input, "");
    }
    for input in [
        r#"{"t": "A", "x": 1}"#,
        r#"{"t": "Z"}"#,
        r#"{"t": "A", "x": 300}"#,
        "5",
        "[]",
    ] {
        agrees::<InternalLoose>(input);
    }
    for input in [
        r#"{"t": "A", "c": 1}"#,
        "[1, 2]",
        r#"{"t": "B", "c": 1}"#,
        "[1]",
    ] {
        agrees::<AdjacentLoose>(input);
    }
    for value in [
        ExternalLoose::A,
        ExternalLoose::B(1),
        ExternalLoose::Num(7),
        ExternalLoose::Text("t".into()),
    ] {
        assert_eq!(jitson::to_vec(&value), serde_json::to_vec(&value).unwrap());
    }
    let raw = InternalLoose::Raw(serde_json::json!({"q": [1]}));
    assert_eq!(jitson::to_vec(&raw), serde_json::to_vec(&raw).unwrap());
    let pair = AdjacentLoose::Pair(1, 2);
    assert_eq!(jitson::to_vec(&pair), serde_json::to_vec(&pair).unwrap());
}

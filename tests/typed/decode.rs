//! Typed decode (`Engine::decode`, `decode_into`, `jitson::from_slice`): on the interpreter
//! and on native code, the result equals serde_json's decode into the same types, field for
//! field, and encodes (`Engine::encode`, `jitson::to_vec`) to serde_json's bytes; errors
//! carry the exact message, position and path; a failed decode at any position leaks and
//! double-drops nothing.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet};
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::rc::Rc;
use std::sync::Arc;

use crate::typed_support::as_text;
use crate::typed_support::counted::{Counted, live};
use crate::typed_support::engines::{engines, error, refused, same};
use crate::typed_support::{book::Book, canada::Canada, citm::CitmCatalog, twitter::Twitter};
use jitson::typed::JsonType;
use jitson::{ErrorKind, RawValue};
use serde::Deserialize;

fn testdata(name: &str) -> Vec<u8> {
    let path = format!("{}/testdata/bench/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
#[cfg_attr(miri, ignore = "large documents")]
fn corpus_documents_equal_serde_json() {
    same::<Twitter>(&testdata("twitter.json"));
    same::<Twitter>(&testdata("twitterescaped.json"));
    same::<Book>(&testdata("book.json"));
    same::<CitmCatalog>(&testdata("citm_catalog.json"));
    same::<Canada>(&testdata("canada.json"));
}

/// Decode then encode: the bytes serde_json writes for the value it decodes.
#[test]
#[cfg_attr(miri, ignore = "large documents")]
fn corpus_documents_encode_to_serde_json_bytes() {
    fn check<T>(name: &str)
    where
        T: JsonType
            + jitson::JsonEncode
            + serde::Serialize
            + for<'a> Deserialize<'a>
            + for<'a> jitson::typed::JsonDecode<'a>,
    {
        let input = testdata(name);
        let want = serde_json::to_vec(&serde_json::from_slice::<T>(&input).unwrap()).unwrap();
        for (engine_name, engine) in engines() {
            let value: T = engine.decode(&input).expect(engine_name);
            let mut out = Vec::new();
            engine.encode(&value, &mut out);
            assert!(out == want, "{engine_name}: {name}");
            assert!(jitson::to_vec(&value) == want, "{name}");
        }
    }
    check::<Twitter>("twitter.json");
    check::<CitmCatalog>("citm_catalog.json");
    check::<Canada>("canada.json");
    check::<Book>("book.json");
}

#[test]
fn from_slice_and_decode_into() {
    let input = testdata("book.json");
    let expected: Book = serde_json::from_slice(&input).unwrap();
    assert_eq!(jitson::from_slice::<Book>(&input).unwrap(), expected);
    for (name, engine) in engines() {
        let mut book = expected.clone();
        book.titles.push("stale".into());
        engine.decode_into(&mut book, &input).expect(name);
        assert_eq!(book, expected, "{name}");
    }
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Shapes<'a> {
    small: u8,
    signed: i16,
    big: u64,
    ratio: f32,
    flag: bool,
    letter: char,
    owned: String,
    borrowed: &'a str,
    #[serde(borrow)]
    cow: Cow<'a, str>,
    boxed: Box<str>,
    maybe: Option<i32>,
    list: Vec<u32>,
    fixed: [u8; 3],
    pair: (String, bool),
    by_name: BTreeMap<String, i64>,
    hashed: HashMap<String, Vec<bool>>,
    any: serde_json::Value,
    raw: RawValue,
    #[serde(default)]
    defaulted: Vec<String>,
    #[serde(skip)]
    skipped: u32,
    #[serde(rename = "renamed!")]
    renamed: (),
    nested: Option<Box<Shapes<'a>>>,
}

#[test]
fn every_field_type_equals_serde_json() {
    let doc = br#"{
        "small": 255, "signed": -32768, "big": 18446744073709551615, "ratio": 0.5,
        "flag": true, "letter": "\u00e9", "owned": "a\nb", "borrowed": "plain", "cow": "x\ty",
        "boxed": "b", "maybe": null, "list": [1, 2, 3], "fixed": [1, 2, 3], "pair": ["p", false],
        "byName": {"a": -1, "b": 2}, "hashed": {"k": [true]},
        "any": {"deep": [1.5, "s", null, {"x": 18446744073709551616}]},
        "raw": [1, {"kept": "as is"} ], "renamed!": null,
        "nested": {
            "small": 0, "signed": 1, "big": 0, "ratio": -1e10, "flag": false, "letter": "z",
            "owned": "", "borrowed": "", "cow": "", "boxed": "", "maybe": 7, "list": [],
            "fixed": [0, 0, 0], "pair": ["", true], "byName": {}, "hashed": {}, "any": 1,
            "raw": "s", "defaulted": ["d"], "renamed!": null, "nested": null
        }
    }"#;
    same::<Shapes>(doc);
    for (name, engine) in engines() {
        let shapes: Shapes = engine.decode(doc).expect(name);
        // Unescaped strings are lent from the input, escaped ones are copies.
        assert!(matches!(shapes.cow, Cow::Owned(_)), "{name}");
        let nested = shapes.nested.expect("nested");
        assert!(matches!(nested.cow, Cow::Borrowed("")), "{name}");
        assert_eq!(shapes.raw.get(), r#"[1, {"kept": "as is"} ]"#, "{name}");
        let at = shapes.borrowed.as_ptr() as usize - doc.as_ptr() as usize;
        assert_eq!(&doc[at..at + 5], b"plain", "{name}");
    }
}

/// Sets and shared pointers, as serde reads them (`Rc` / `Arc` with serde's `rc` feature).
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Shared {
    tags: HashSet<String>,
    sorted: BTreeSet<i32>,
    name: Arc<str>,
    local: Rc<str>,
    inner: Arc<Inner>,
    items: Rc<[u8]>,
    boxed: Box<[bool]>,
    maybe: Option<Arc<Vec<u8>>>,
    #[serde(flatten)]
    rest: Rc<BTreeMap<String, u8>>,
}

/// Sets keep a repeated item once (serde does not refuse it); shared pointers read their
/// target; a flattened `Rc` map takes the other members.
#[test]
fn sets_and_shared_pointers_equal_serde_json() {
    let doc = br#"{"tags": ["b", "a", "b"], "sorted": [3, -1, 3, 2], "name": "n\u00e9",
        "local": "l", "inner": {"name": "i"}, "items": [1, 2], "boxed": [true],
        "maybe": [7], "x": 1, "y": 2}"#;
    same::<Shared>(doc);
    // The one-pass reader takes it itself.
    let options = jitson::jit::ir::ExecOptions::default();
    assert!(jitson::typed::decode::read::<Shared>(doc, &options).is_ok());
    same::<Shared>(
        br#"{"tags": [], "sorted": [], "name": "", "local": "", "inner": {"name": ""},
        "items": [], "boxed": [], "maybe": null}"#,
    );
    let (kind, message) = error::<Shared>(
        br#"{"tags": [1], "sorted": [], "name": "", "local": "", "inner": {"name": ""},
        "items": [], "boxed": [], "maybe": null}"#,
    );
    assert_eq!(kind, ErrorKind::Schema(jitson::Keyword::Type), "{message}");
    assert!(
        message.ends_with("path $.tags[0], keyword type"),
        "{message}"
    );
    refused::<Shared>(br#"{"tags": []}"#);
}

/// Integer-keyed maps.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Numbered {
    by_id: HashMap<u32, String>,
    signed: BTreeMap<i64, u8>,
    wide: BTreeMap<u128, bool>,
}

/// Flattened, an integer-keyed map: serde reads its keys from its buffered copy, where it
/// reads no integer.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct FlatNumbered {
    id: u8,
    #[serde(flatten)]
    rest: BTreeMap<u8, u8>,
}

/// Integer map keys are read as serde_json reads them: the key's text one JSON integer in
/// the type's range, nothing around it, no escape; anything else is serde's error at the
/// key.
#[test]
fn integer_keys_equal_serde_json() {
    let doc = br#"{"by_id": {"1": "a", "4294967295": "b", "0": ""}, "signed": {"-5": 1, "0": 2},
        "wide": {"340282366920938463463374607431768211455": true}}"#;
    same::<Numbered>(doc);
    let options = jitson::jit::ir::ExecOptions::default();
    assert!(jitson::typed::decode::read::<Numbered>(doc, &options).is_ok());
    for key in [
        "01",
        "1.0",
        "1e2",
        "a",
        " 1",
        "1 ",
        "",
        "-1",
        "-0",
        "4294967296",
        "\\u0031",
        "+1",
        "0x1",
    ] {
        let input = format!(r#"{{"by_id": {{"{key}": "x"}}, "signed": {{}}, "wide": {{}}}}"#);
        refused::<Numbered>(input.as_bytes());
        let (kind, message) = error::<Numbered>(input.as_bytes());
        assert_eq!(kind, ErrorKind::Deserialize, "{key}: {message}");
        assert!(message.contains("path $.by_id"), "{key}: {message}");
    }
    same::<FlatNumbered>(br#"{"id": 1}"#);
    refused::<FlatNumbered>(br#"{"id": 1, "2": 3}"#);
}

/// `bool`- and `char`-keyed maps.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct OtherKeys {
    flags: BTreeMap<bool, u8>,
    letters: HashMap<char, u8>,
}

/// A `bool` key is the name `true` or `false` exactly, as serde_json reads one; a `char`
/// key any one-character name, escaped or not; anything else is serde's error at the key.
#[test]
fn bool_and_char_keys_equal_serde_json() {
    let doc =
        r#"{"flags": {"true": 1, "false": 2}, "letters": {"a": 1, "\u00e9": 2, "\"": 3, "😀": 4}}"#;
    same::<OtherKeys>(doc.as_bytes());
    let plain = r#"{"flags": {"false": 0}, "letters": {"é": 2}}"#.as_bytes();
    same::<OtherKeys>(plain);
    let options = jitson::jit::ir::ExecOptions::default();
    assert!(jitson::typed::decode::read::<OtherKeys>(plain, &options).is_ok());
    for (flag, letter) in [
        ("True", "a"),
        ("\\u0074rue", "a"),
        ("true ", "a"),
        ("1", "a"),
        ("", "a"),
        ("true", "ab"),
        ("true", ""),
    ] {
        let input = format!(r#"{{"flags": {{"{flag}": 1}}, "letters": {{"{letter}": 1}}}}"#);
        refused::<OtherKeys>(input.as_bytes());
        let (kind, message) = error::<OtherKeys>(input.as_bytes());
        assert_eq!(kind, ErrorKind::Deserialize, "{flag} {letter}: {message}");
    }
    let (_, message) = error::<OtherKeys>(br#"{"flags": {"yes": 1}, "letters": {}}"#);
    assert_eq!(
        message,
        r#"invalid type: string "yes", expected a boolean at line 1 column 19, path $.flags.yes"#
    );
}

/// Paths, durations, times and ranges: what serde writes for them and reads back.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct StdValues<'a> {
    path: std::path::PathBuf,
    #[serde(borrow)]
    borrowed: &'a std::path::Path,
    boxed: Box<std::path::Path>,
    timeout: std::time::Duration,
    at: std::time::SystemTime,
    span: std::ops::Range<u32>,
    closed: std::ops::RangeInclusive<i8>,
    queue: std::collections::LinkedList<u8>,
}

/// serde reads a `Duration` (and a `SystemTime`, a range) from its object, members in any
/// order, or from an array of the two values; whole seconds in `nanos` are carried, a sum
/// beyond `u64` is serde's error.
#[test]
fn paths_durations_times_and_ranges_equal_serde_json() {
    let doc = r#"{"path": "/tmp/a\nb", "borrowed": "rel/é", "boxed": "x",
        "timeout": {"secs": 5, "nanos": 7}, "at": {"secs_since_epoch": 1700000000, "nanos_since_epoch": 1},
        "span": {"start": 1, "end": 4294967295}, "closed": {"start": -128, "end": 127},
        "queue": [1, 2]}"#;
    same::<StdValues>(doc.as_bytes());
    let options = jitson::jit::ir::ExecOptions::default();
    let plain = doc.replace("\\n", "/");
    assert!(jitson::typed::decode::read::<StdValues>(plain.as_bytes(), &options).is_ok());
    let edits = [
        (r#"{"secs": 5, "nanos": 7}"#, r#"{"nanos": 7, "secs": 5}"#),
        (r#"{"secs": 5, "nanos": 7}"#, "[5, 7]"),
        (
            r#"{"secs": 5, "nanos": 7}"#,
            r#"{"secs": 5, "nanos": 4294967295}"#,
        ),
        (
            r#"{"secs": 5, "nanos": 7}"#,
            r#"{"secs": 18446744073709551614, "nanos": 999999999}"#,
        ),
        (r#"{"start": 1, "end": 4294967295}"#, "[7, 2]"),
        (
            r#"{"secs_since_epoch": 1700000000, "nanos_since_epoch": 1}"#,
            "[0, 0]",
        ),
    ];
    for (from, to) in edits {
        let input = doc.replace(from, to);
        assert_ne!(input, doc, "{to}");
        same::<StdValues>(input.as_bytes());
    }
    let refusals = [
        r#"{"secs": 5}"#,
        r#"{"secs": 5, "nanos": 7, "x": 1}"#,
        r#"{"secs": 5, "nanos": 7, "secs": 5}"#,
        "[5]",
        "[5, 7, 9]",
        r#"{"secs": 5.0, "nanos": 7}"#,
        r#"{"secs": 5, "nanos": 4294967296}"#,
        r#"{"secs": 18446744073709551615, "nanos": 1000000000}"#,
        "5",
    ];
    for to in refusals {
        refused::<StdValues>(doc.replace(r#"{"secs": 5, "nanos": 7}"#, to).as_bytes());
    }
    let overflows = [
        (
            r#"{"secs": 5, "nanos": 7}"#,
            r#"{"secs": 18446744073709551615, "nanos": 1000000000}"#,
            "overflow deserializing Duration at line 2 column 20, path $.timeout",
        ),
        (
            r#"{"secs_since_epoch": 1700000000, "nanos_since_epoch": 1}"#,
            r#"{"secs_since_epoch": 18446744073709551615, "nanos_since_epoch": 0}"#,
            "overflow deserializing SystemTime at line 2 column 51, path $.at",
        ),
    ];
    for (from, to, want) in overflows {
        let (kind, message) = error::<StdValues>(doc.replace(from, to).as_bytes());
        assert_eq!((kind, message.as_str()), (ErrorKind::Deserialize, want));
    }
    // A borrowed path cannot hold an unescaped copy.
    refused::<StdValues>(doc.replace("rel/é", "rel\\u00e9").as_bytes());
}

/// serde builds a `BinaryHeap` from its array (which has no `PartialEq`: compared sorted).
#[test]
fn binary_heaps_equal_serde_json() {
    let input = b"[3, 1, 4, 1, 5]";
    let want = serde_json::from_slice::<BinaryHeap<u8>>(input).unwrap();
    for (name, engine) in engines() {
        let got: BinaryHeap<u8> = engine.decode(input).expect(name);
        assert_eq!(
            got.into_sorted_vec(),
            want.clone().into_sorted_vec(),
            "{name}"
        );
        assert!(engine.decode::<BinaryHeap<u8>>(b"[256]").is_err(), "{name}");
    }
}

/// Non-zero integers.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct NonZeros {
    small: std::num::NonZeroU8,
    signed: std::num::NonZeroI64,
    wide: Option<std::num::NonZeroU128>,
}

/// A non-zero integer takes its integer's range but `0`, which is a `not` error (serde's
/// refusal too).
#[test]
fn non_zero_integers_refuse_zero() {
    same::<NonZeros>(
        br#"{"small": 255, "signed": -1, "wide": 340282366920938463463374607431768211455}"#,
    );
    same::<NonZeros>(br#"{"small": 1, "signed": 9223372036854775807, "wide": null}"#);
    for (bad, keyword) in [
        (
            r#"{"small": 0, "signed": 1, "wide": null}"#,
            jitson::Keyword::Not,
        ),
        (
            r#"{"small": 1, "signed": -0, "wide": null}"#,
            jitson::Keyword::Not,
        ),
        // Under `Option`, neither `null` nor the non-zero branch takes it.
        (
            r#"{"small": 1, "signed": 1, "wide": 0}"#,
            jitson::Keyword::AnyOf,
        ),
    ] {
        refused::<NonZeros>(bad.as_bytes());
        let (kind, message) = error::<NonZeros>(bad.as_bytes());
        assert_eq!(kind, ErrorKind::Schema(keyword), "{message}");
    }
    let (kind, _) = error::<NonZeros>(br#"{"small": 256, "signed": 1, "wide": null}"#);
    assert_eq!(kind, ErrorKind::Schema(jitson::Keyword::Maximum));
}

/// Network addresses: strings serde parses.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Addresses {
    ip: IpAddr,
    v4: Ipv4Addr,
    v6: Ipv6Addr,
    socket: SocketAddr,
    socket_v4: SocketAddrV4,
    socket_v6: SocketAddrV6,
    peers: Vec<IpAddr>,
}

/// Addresses read as serde parses their text (an escaped one too); text that does not
/// parse is serde's error, at the string.
#[test]
fn addresses_equal_serde_json() {
    let doc = br#"{"ip": "::1", "v4": "10.0.0.1", "v6": "fe80::1:2", "socket": "[::1]:80",
        "socket_v4": "127.0.0.1:8080", "socket_v6": "[2001:db8::1]:443",
        "peers": ["1.2.3.4", "\u0031.1.1.1", "2001:db8::"]}"#;
    same::<Addresses>(doc);
    let options = jitson::jit::ir::ExecOptions::default();
    assert!(jitson::typed::decode::read::<Addresses>(doc, &options).is_ok());
    let bad = br#"{"ip": "::1", "v4": "10.0.0.256", "v6": "::", "socket": "1.1.1.1:1",
        "socket_v4": "1.1.1.1:1", "socket_v6": "[::]:1", "peers": []}"#;
    let (kind, message) = error::<Addresses>(bad);
    assert_eq!(kind, ErrorKind::Deserialize, "{message}");
    assert_eq!(
        message,
        "invalid IPv4 address syntax at line 1 column 21, path $.v4",
    );
    refused::<Addresses>(
        &String::from_utf8_lossy(bad)
            .replace("10.0.0.256", "::1")
            .into_bytes(),
    );
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
enum External {
    Unit,
    Other,
    Newtype(u8),
    Tuple(i32, String),
    Struct { a: Vec<u8>, b: Option<bool> },
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Internal {
    Empty,
    Point { x: f64, y: f64 },
    Named(Inner),
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Inner {
    name: String,
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Nothing,
    Number(i64),
    Words(Vec<String>),
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(untagged)]
enum Untagged {
    Strict(Strict),
    Loose { x: u32 },
    Text(String),
    Pair(u8, u8),
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
struct Strict {
    x: u32,
    y: u32,
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Enums {
    external: Vec<External>,
    internal: Vec<Internal>,
    adjacent: Vec<Adjacent>,
    untagged: Vec<Untagged>,
}

#[test]
fn enums_in_every_representation_equal_serde_json() {
    let doc = br#"{
        "external": ["Unit", "Other", {"Newtype": 7}, {"Tuple": [-1, "t"]},
                     {"Struct": {"a": [1], "b": null}}, {"Struct": {"a": []}}],
        "internal": [{"type": "empty"}, {"x": 1, "type": "point", "y": 2.5},
                     {"type": "named", "name": "n"}],
        "adjacent": [{"t": "Nothing"}, {"t": "Number", "c": -5}, {"c": ["a"], "t": "Words"}],
        "untagged": [{"x": 1, "y": 2}, {"x": 1, "y": 2, "z": 3}, {"x": 4}, "s", [1, 2]]
    }"#;
    same::<Enums>(doc);
    let enums: Enums = jitson::from_slice(doc).unwrap();
    assert_eq!(
        enums.untagged,
        [
            Untagged::Strict(Strict { x: 1, y: 2 }),
            Untagged::Loose { x: 1 },
            Untagged::Loose { x: 4 },
            Untagged::Text("s".into()),
            // serde reads a struct from an array of its fields too (the schema's branch is
            // `Pair`, but the type decides, as in serde_json).
            Untagged::Strict(Strict { x: 1, y: 2 }),
        ]
    );
    for bad in [
        &br#"{"external": ["Nope"], "internal": [], "adjacent": [], "untagged": []}"#[..],
        br#"{"external": [{"Newtype": 256}], "internal": [], "adjacent": [], "untagged": []}"#,
        br#"{"external": [], "internal": [{"type": "other"}], "adjacent": [], "untagged": []}"#,
        br#"{"external": [], "internal": [], "adjacent": [{"t": "Number"}], "untagged": []}"#,
        br#"{"external": [], "internal": [], "adjacent": [], "untagged": [[1, 2, 3]]}"#,
        br#"{"external": [], "internal": [], "adjacent": [], "untagged": [true]}"#,
    ] {
        refused::<Enums>(bad);
    }
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Flattened {
    id: u32,
    #[serde(flatten)]
    meta: Meta,
    #[serde(flatten)]
    rest: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Meta {
    kind: String,
    #[serde(default)]
    level: u8,
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Tuple(u8, String, Option<u8>);

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(transparent)]
struct Transparent {
    inner: Vec<Tuple>,
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Tree {
    value: i32,
    children: Vec<Tree>,
}

#[test]
fn flatten_tuples_transparent_and_recursion_equal_serde_json() {
    same::<Flattened>(br#"{"id": 1, "kind": "k", "extra": [1, 2.5], "level": 3, "x": null}"#);
    same::<Flattened>(br#"{"kind": "k", "id": 1}"#);
    refused::<Flattened>(br#"{"id": 1}"#);
    same::<Transparent>(br#"[[1, "a", null], [2, "b", 3]]"#);
    refused::<Transparent>(br#"[[1, "a"]]"#);
    same::<Tree>(br#"{"value": 1, "children": [{"value": 2, "children": []}, {"value": 3, "children": [{"value": 4, "children": []}]}]}"#);
}

#[derive(Debug, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Order<'a> {
    id: u32,
    #[serde(borrow)]
    lines: Vec<Line<'a>>,
}

#[derive(Debug, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Line<'a> {
    sku: String,
    qty: u16,
    note: Option<&'a str>,
}

#[test]
fn errors_name_the_value_its_position_and_path() {
    let cases: [(&[u8], ErrorKind, &str); 7] = [
        (
            br#"{"id": 1, "lines": [{"sku": "a", "qty": 1}, {"sku": 2, "qty": 1}]}"#,
            ErrorKind::Schema(jitson::Keyword::Type),
            "expected string, found number at line 1 column 53, path $.lines[1].sku, keyword type",
        ),
        (
            br#"{"id": 1, "lines": [{"sku": "a"}]}"#,
            ErrorKind::Schema(jitson::Keyword::Required),
            r#"missing required field "qty" at line 1 column 32, path $.lines[0], keyword required"#,
        ),
        (
            br#"{"id": 1, "lines": [], "total": 3}"#,
            ErrorKind::Schema(jitson::Keyword::AdditionalProperties),
            "unknown field at line 1 column 33, path $.total, keyword additionalProperties",
        ),
        (
            br#"{"id": 1, "lines": [{"sku": "a", "qty": 65536}]}"#,
            ErrorKind::Schema(jitson::Keyword::Maximum),
            "number above the maximum at line 1 column 41, path $.lines[0].qty, keyword maximum",
        ),
        (
            br#"{"id": 1, "lines": [{"sku": "a", "qty": 2.0}]}"#,
            ErrorKind::Deserialize,
            "invalid type: floating point `2.0`, expected u16 at line 1 column 41, path $.lines[0].qty",
        ),
        (
            br#"{"id": 1, "lines": [{"sku": "a", "qty": 1, "note": "a\"b"}]}"#,
            ErrorKind::Deserialize,
            r#"invalid type: string "a\"b", expected a borrowed string at line 1 column 52, path $.lines[0].note"#,
        ),
        (
            br#"{"id": 1, "id": 2, "lines": []}"#,
            ErrorKind::DuplicateKey,
            "duplicate key at line 1 column 11, path $.id",
        ),
    ];
    for (input, kind, message) in cases {
        assert_eq!(error::<Order>(input), (kind, message.to_owned()));
        assert!(serde_json::from_slice::<Order>(input).is_err());
    }
}

/// Takes unknown members, and any value in `raw`.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Open {
    id: u32,
    #[serde(default)]
    raw: Option<RawValue>,
}

/// Regression (typed fuzz target): a number beyond `f64` in a value the codec skips (an
/// unknown member) or keeps raw is an error, as it is for a number the codec reads. The
/// one-pass reader skipped such values checking the grammar only, so it took inputs every
/// two-pass engine refuses. (serde_json's own decode ignores unknown members unread.)
#[test]
fn numbers_out_of_range_in_skipped_and_raw_values_are_errors() {
    let cases: [(&[u8], &str); 4] = [
        (
            br#"{"id": 1, "other": 1e400}"#,
            "number out of range at line 1 column 24, path $.other",
        ),
        (
            br#"{"other": {"a": [true, "1e400", -1e999]}, "id": 1}"#,
            "number out of range at line 1 column 38, path $.other.a[2]",
        ),
        (
            br#"{"id": 1, "raw": [1, 2e308]}"#,
            "number out of range at line 1 column 26, path $.raw[1]",
        ),
        (
            br#"{"id": 1, "raw": {"k": 1e400}}"#,
            "number out of range at line 1 column 28, path $.raw.k",
        ),
    ];
    for (input, message) in cases {
        let shown = String::from_utf8_lossy(input);
        assert_eq!(
            jitson::typed::decode::read::<Open>(input, &Default::default()),
            Err(jitson::typed::decode::Bail),
            "{shown}"
        );
        assert_eq!(
            error::<Open>(input),
            (ErrorKind::NumberOutOfRange, message.to_owned()),
            "{shown}"
        );
    }
    // In range, the same shapes decode.
    same::<Open>(br#"{"other": {"a": [true, "1e400", -1e300]}, "id": 1, "raw": [1, 2e307]}"#);
}

/// Internally tagged: serde reads the variant's members from its buffered copy.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t")]
enum TaggedWide {
    V { x: u128 },
}

/// Untagged: a 128-bit integer, then a float.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(untagged)]
enum Wide {
    Int(u128),
    Float(f64),
}

/// Every integer width: its bounds decode, one past them is a `minimum` / `maximum` error.
#[test]
fn integer_widths_are_range_checked() {
    fn check<T>(min: i128, max: i128)
    where
        T: JsonType
            + for<'a> Deserialize<'a>
            + for<'a> jitson::typed::JsonDecode<'a>
            + PartialEq
            + Debug,
    {
        for ok in [min, max] {
            same::<T>(ok.to_string().as_bytes());
        }
        let (kind, message) = error::<T>((max + 1).to_string().as_bytes());
        assert_eq!(
            kind,
            ErrorKind::Schema(jitson::Keyword::Maximum),
            "{message}"
        );
        let (kind, message) = error::<T>((min - 1).to_string().as_bytes());
        assert_eq!(
            kind,
            ErrorKind::Schema(jitson::Keyword::Minimum),
            "{message}"
        );
    }
    check::<u8>(0, u8::MAX.into());
    check::<u16>(0, u16::MAX.into());
    check::<u32>(0, u32::MAX.into());
    check::<i8>(i8::MIN.into(), i8::MAX.into());
    check::<i16>(i16::MIN.into(), i16::MAX.into());
    check::<i32>(i32::MIN.into(), i32::MAX.into());
    // 64- and 128-bit bounds: typed decode reads integers beyond 64 bits as their digits,
    // so one just past a bound is refused exactly (a codec's default `BigInts::F64` would
    // round -9223372036854775809 onto i64::MIN), and u128 / i128 take their whole range,
    // as serde_json reads them.
    same::<u64>(b"18446744073709551615");
    same::<i64>(b"-9223372036854775808");
    for (input, keyword) in [
        (&b"18446744073709551616"[..], jitson::Keyword::Maximum),
        (b"-1", jitson::Keyword::Minimum),
    ] {
        assert_eq!(error::<u64>(input).0, ErrorKind::Schema(keyword));
    }
    for (input, keyword) in [
        (&b"9223372036854775808"[..], jitson::Keyword::Maximum),
        (b"-9223372036854775809", jitson::Keyword::Minimum),
    ] {
        assert_eq!(error::<i64>(input).0, ErrorKind::Schema(keyword));
    }
    for input in [
        u128::MAX.to_string(),
        u64::MAX.to_string(),
        (u128::from(u64::MAX) + 1).to_string(),
        "0".into(),
    ] {
        same::<u128>(input.as_bytes());
        same::<Vec<u128>>(format!("[{input}, 1]").as_bytes());
    }
    for input in [
        i128::MIN.to_string(),
        i128::MAX.to_string(),
        (i128::from(i64::MIN) - 1).to_string(),
        "-1".into(),
    ] {
        same::<i128>(input.as_bytes());
    }
    let (kind, message) = error::<u128>(b"340282366920938463463374607431768211456");
    assert_eq!(
        kind,
        ErrorKind::Schema(jitson::Keyword::ExclusiveMaximum),
        "{message}"
    );
    assert_eq!(
        error::<u128>(b"-1").0,
        ErrorKind::Schema(jitson::Keyword::Minimum)
    );
    let (kind, message) = error::<i128>(b"170141183460469231731687303715884105728");
    assert_eq!(
        kind,
        ErrorKind::Schema(jitson::Keyword::ExclusiveMaximum),
        "{message}"
    );
    let (kind, message) = error::<i128>(b"-170141183460469231731687303715884105729");
    assert_eq!(
        kind,
        ErrorKind::Schema(jitson::Keyword::Minimum),
        "{message}"
    );
    // serde keeps a big integer it buffers (an untagged enum's value) as an f64, which a
    // 128-bit integer refuses: the next variant takes it.
    same::<Wide>(b"18446744073709551616");
    // Regression: the one-pass reader took `7` as `Int(7)`; serde reads no 128-bit integer
    // from a value it buffered, so `Float(7.0)`.
    same::<Wide>(b"7");
    refused::<TaggedWide>(br#"{"t": "V", "x": 7}"#);
    refused::<TaggedWide>(br#"{"x": 18446744073709551616, "t": "V"}"#);
}

/// Internally tagged: serde reads the variant's members from its buffered copy, where an
/// `f32` is the `f64` read converted with `as`.
#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
#[serde(tag = "t")]
enum TaggedSingle {
    V { x: f32 },
}

/// `f32` reads as serde_json reads it (its `float_roundtrip` feature is on here, as it is
/// for the codec's `f64`s): `f32::MAX` as written (`3.4028235e38`, above `f32::MAX`) and
/// every number below the overflow bound `2^128 - 2^103` decode, those at or above it are
/// `exclusiveMaximum` errors; an integer token converts with `as`, a decimal rounds to
/// `f32` once, also when its nearest `f64` lies halfway between two `f32`s (the one-pass
/// reader; regression: it rounded to `f64` first, then to `f32`, so
/// `1.00000005960464477539062500000001` read as `1.0`, where serde_json reads
/// `1.0000001`).
#[test]
fn f32_reads_as_serde_json_reads_it() {
    let max = f32::MAX.to_string();
    assert_eq!(
        jitson::to_vec(&f32::MAX),
        serde_json::to_vec(&f32::MAX).unwrap()
    );
    for input in [
        &*serde_json::to_string(&f32::MAX).unwrap(),
        &*serde_json::to_string(&-f32::MAX).unwrap(),
        &max,
        "-3.40282356e38",
        "1.401298464324817e-45",
        "7e-46",
        "1e-50",
        "1152921573326323713",
        "0.1",
    ] {
        same::<f32>(input.as_bytes());
    }
    let bound = "340282356779733661637539395458142568448";
    for input in [bound, "-3.4028236e38", "1e39"] {
        refused::<f32>(input.as_bytes());
    }
    let (kind, _) = error::<f32>(bound.as_bytes());
    assert_eq!(kind, ErrorKind::Schema(jitson::Keyword::ExclusiveMaximum));
    let (kind, _) = error::<f32>(format!("-{bound}").as_bytes());
    assert_eq!(kind, ErrorKind::Schema(jitson::Keyword::ExclusiveMinimum));
    // A decimal just past an `f32` midpoint (or just below the overflow bound) whose nearest
    // `f64` is the midpoint (the bound): serde_json rounds the decimal to `f32` itself. The
    // two-pass decode sees the `f64` only (a documented limit), so this checks the one-pass
    // reader.
    let read = |input: &str| {
        let options = jitson::jit::ir::ExecOptions::default();
        jitson::typed::decode::read::<f32>(input.as_bytes(), &options).expect(input)
    };
    for input in [
        "1.00000005960464477539062500000001",
        "1.000000059604644775390625",
        "-1.00000005960464477539062500000001",
        "1.0000001788139343261718749999999",
        "340282356779733661637539395458142568447.9",
        "3.4028235677973366e38",
    ] {
        assert_eq!(
            read(input),
            serde_json::from_str::<f32>(input).unwrap(),
            "{input}"
        );
    }
    assert_eq!(read("1.00000005960464477539062500000001"), 1.0000001);
    // Buffered, serde rounds twice: so do the reader and the two-pass decode.
    same::<TaggedSingle>(br#"{"t": "V", "x": 1.00000005960464477539062500000001}"#);
    same::<TaggedSingle>(br#"{"x": 3.40282356e38, "t": "V"}"#);
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Holder {
    first: Counted,
    items: Vec<Counted>,
    by_key: BTreeMap<String, Counted>,
    count: i8,
    child: Option<Box<Holder>>,
}

/// Decode errors at every position (truncations, and bytes replaced by ones that break the
/// syntax, the schema or only the Rust type) leave no `Counted` alive, and successes hold
/// exactly what they own.
#[test]
fn failed_decodes_leak_and_double_drop_nothing() {
    let doc: &[u8] = br#"{"first": "a", "items": ["b", "c"], "by_key": {"k": "d"}, "count": 1,
        "child": {"first": "e", "items": ["f"], "by_key": {}, "count": -1, "child": null}}"#;
    let step = if cfg!(miri) { 23 } else { 1 };
    for (name, engine) in engines() {
        let mut inputs: Vec<Vec<u8>> = (0..doc.len())
            .step_by(step)
            .map(|n| doc[..n].to_vec())
            .collect();
        for at in (0..doc.len()).step_by(step) {
            for byte in [b'x', b'"', b'1', b'.', b'}'] {
                let mut input = doc.to_vec();
                input[at] = byte;
                inputs.push(input);
            }
        }
        // Fits the schema, refused by the Rust type after `Counted`s were made.
        let refused = String::from_utf8_lossy(doc).replace(r#""count": -1"#, r#""count": -1.0"#);
        let e = engine.decode::<Holder>(refused.as_bytes()).expect_err(name);
        assert_eq!(e.kind(), ErrorKind::Deserialize, "{name}: {e}");
        assert_eq!(live(), 0, "{name}");
        let mut failures = 0;
        for input in &inputs {
            match engine.decode::<Holder>(input) {
                Ok(holder) => {
                    assert!(live() >= 1, "{name}");
                    drop(holder);
                }
                Err(_) => failures += 1,
            }
            assert_eq!(live(), 0, "{name}: {}", String::from_utf8_lossy(input));
        }
        assert!(
            failures > inputs.len() / 2,
            "{name}: {failures} of {}",
            inputs.len()
        );
        let holder: Holder = engine.decode(doc).expect(name);
        assert_eq!(live(), 6, "{name}");
        drop(holder);
        assert_eq!(live(), 0, "{name}");
    }
}

/// One-way skips: the schema (decode's contract) has what serde reads, encode writes what
/// serde writes.
#[derive(Debug, PartialEq, Deserialize, serde::Serialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
struct OneWay {
    id: u8,
    #[serde(skip_serializing)]
    secret: String,
    #[serde(skip_deserializing)]
    computed: u32,
    #[serde(skip_deserializing, default = "seven")]
    seeded: u8,
    pair: Pair,
    events: Vec<Event>,
}

fn seven() -> u8 {
    7
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, jitson::Schema)]
struct Pair(
    u8,
    #[serde(skip_serializing)] u8,
    #[serde(skip_deserializing)] u8,
);

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, jitson::Schema)]
#[serde(tag = "t")]
enum Event {
    Open {
        at: u8,
    },
    #[serde(skip_deserializing)]
    Written,
    #[serde(skip_serializing)]
    Read,
}

#[test]
fn one_way_skips_equal_serde_json() {
    let doc = br#"{"id": 1, "secret": "s", "pair": [1, 2], "events": [{"t": "Open", "at": 3}, {"t": "Read"}]}"#;
    same::<OneWay>(doc);
    let options = jitson::jit::ir::ExecOptions::default();
    assert!(jitson::typed::decode::read::<OneWay>(doc, &options).is_ok());
    for bad in [
        // Never read, so unknown here.
        r#"{"id": 1, "secret": "s", "pair": [1, 2], "events": [], "computed": 5}"#,
        r#"{"id": 1, "secret": "s", "pair": [1, 2, 3], "events": []}"#,
        r#"{"id": 1, "secret": "s", "pair": [1, 2], "events": [{"t": "Written"}]}"#,
        r#"{"id": 1, "pair": [1, 2], "events": []}"#,
    ] {
        refused::<OneWay>(bad.as_bytes());
    }
    let value = OneWay {
        id: 1,
        secret: "hidden".into(),
        computed: 9,
        seeded: 2,
        pair: Pair(1, 2, 3),
        events: vec![Event::Open { at: 4 }, Event::Written],
    };
    let want = serde_json::to_vec(&value).unwrap();
    assert_eq!(jitson::to_vec(&value), want);
    assert_eq!(
        String::from_utf8(want).unwrap(),
        r#"{"id":1,"computed":9,"seeded":2,"pair":[1,3],"events":[{"t":"Open","at":4},{"t":"Written"}]}"#
    );
}

/// A variant skipped when written has no JSON form: serde_json errors, jitson panics.
#[test]
#[should_panic(expected = "the enum variant Event::Read cannot be serialized")]
fn variants_skipped_when_written_panic_where_serde_json_errors() {
    assert!(serde_json::to_vec(&Event::Read).is_err());
    jitson::to_vec(&Event::Read);
}

/// A type from elsewhere: serde impls, no `JsonType` (a date, a UUID would be so).
#[derive(Debug, PartialEq, Clone)]
struct Celsius(i16);

impl serde::Serialize for Celsius {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{}C", self.0))
    }
}

impl<'de> Deserialize<'de> for Celsius {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Celsius, D::Error> {
        let text = <Cow<'de, str>>::deserialize(d)?;
        text.strip_suffix('C')
            .and_then(|n| n.parse().ok())
            .map(Celsius)
            .ok_or_else(|| serde::de::Error::custom(format!("not a temperature: {text:?}")))
    }
}

fn doubled<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    u8::deserialize(d).map(|v| v.wrapping_mul(2))
}

fn negated<S: serde::Serializer>(v: &i32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_i32(-v)
}

/// Fields serde reads and writes: through their own impls (`#[jitson(serde)]`), or the
/// user's functions.
#[derive(Debug, PartialEq, Deserialize, serde::Serialize, jitson::Schema)]
struct ViaSerde<'a> {
    #[jitson(serde)]
    outside: Celsius,
    #[jitson(serde)]
    maybe: Option<Celsius>,
    #[jitson(serde)]
    #[serde(borrow)]
    name: &'a str,
    #[serde(with = "as_text")]
    big: u64,
    #[serde(deserialize_with = "doubled", default)]
    twice: u8,
    #[serde(serialize_with = "negated")]
    flipped: i32,
    #[jitson(serde)]
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    readings: Vec<Celsius>,
}

#[test]
fn fields_via_serde_equal_serde_json() {
    let doc = br#"{"outside": "21C", "maybe": null, "name": "n", "big": "18446744073709551615",
        "twice": 4, "flipped": 3, "readings": ["-5C", "0C"]}"#;
    same::<ViaSerde>(doc);
    let options = jitson::jit::ir::ExecOptions::default();
    assert!(jitson::typed::decode::read::<ViaSerde>(doc, &options).is_ok());
    // Left out: `None` for the `Option`, the defaults; `big` has a function, so is required.
    same::<ViaSerde>(br#"{"outside": "1C", "name": "", "big": "0", "flipped": 0}"#);
    for bad in [
        r#"{"outside": "1C", "name": "", "flipped": 0}"#,
        r#"{"outside": "1F", "name": "", "big": "0", "flipped": 0}"#,
        r#"{"outside": "1C", "name": "", "big": 0, "flipped": 0}"#,
        r#"{"outside": "1C", "name": "\n", "big": "0", "flipped": 0}"#,
        r#"{"outside": "1C", "name": "", "big": "0", "flipped": 0, "twice": 256}"#,
        r#"{"outside": "1C", "name": "", "big": "0", "flipped": 0, "readings": ["1C", 1]}"#,
        r#"{"name": "", "big": "0", "flipped": 0}"#,
    ] {
        refused::<ViaSerde>(bad.as_bytes());
    }
    let (kind, message) =
        error::<ViaSerde>(br#"{"outside": "1F", "name": "", "big": "0", "flipped": 0}"#);
    assert_eq!(kind, ErrorKind::Deserialize);
    assert_eq!(
        message,
        r#"not a temperature: "1F" at line 1 column 13, path $.outside"#
    );
    // Written by serde_json: the same bytes as its `to_vec`.
    let value: ViaSerde = serde_json::from_slice(doc).unwrap();
    assert_eq!(jitson::to_vec(&value), serde_json::to_vec(&value).unwrap());
    let empty = ViaSerde {
        readings: Vec::new(),
        maybe: Some(Celsius(-40)),
        ..value
    };
    assert_eq!(jitson::to_vec(&empty), serde_json::to_vec(&empty).unwrap());
    // The schema takes any JSON there; `big`, read by a function, is required.
    let schema = ViaSerde::json_schema();
    assert_eq!(schema["properties"]["outside"], serde_json::json!(true));
    assert_eq!(
        schema["required"],
        serde_json::json!(["outside", "name", "big", "flipped"])
    );
}

/// A validated newtype: read as a string, then checked (`try_from`); written as its string.
#[derive(Debug, PartialEq, Clone, Deserialize, serde::Serialize, jitson::Schema)]
#[serde(try_from = "String", into = "String")]
struct Email(String);

impl TryFrom<String> for Email {
    type Error = String;

    fn try_from(text: String) -> Result<Email, String> {
        match text.contains('@') {
            true => Ok(Email(text)),
            false => Err(format!("not an email: {text:?}")),
        }
    }
}

impl From<Email> for String {
    fn from(email: Email) -> String {
        email.0
    }
}

/// A struct read from and written as a pair (`from`, `into`).
#[derive(Debug, PartialEq, Clone, Deserialize, serde::Serialize, jitson::Schema)]
#[serde(from = "(u8, u8)", into = "(u8, u8)")]
struct Version {
    major: u8,
    minor: u8,
}

impl From<(u8, u8)> for Version {
    fn from((major, minor): (u8, u8)) -> Version {
        Version { major, minor }
    }
}

impl From<Version> for (u8, u8) {
    fn from(v: Version) -> (u8, u8) {
        (v.major, v.minor)
    }
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, jitson::Schema)]
struct Contact {
    email: Email,
    backup: Option<Email>,
    version: Version,
    all: Vec<Email>,
}

#[test]
fn conversions_equal_serde_json() {
    let doc = br#"{"email": "a@b", "backup": null, "version": [1, 2], "all": ["c@d", "\u0065@f"]}"#;
    same::<Contact>(doc);
    let plain = br#"{"email": "a@b", "version": [1, 2], "all": []}"#;
    same::<Contact>(plain);
    let options = jitson::jit::ir::ExecOptions::default();
    assert!(jitson::typed::decode::read::<Contact>(plain, &options).is_ok());
    for bad in [
        r#"{"email": "ab", "version": [1, 2], "all": []}"#,
        r#"{"email": "a@b", "version": {"major": 1, "minor": 2}, "all": []}"#,
        r#"{"email": "a@b", "version": [1, 256], "all": []}"#,
        r#"{"email": "a@b", "version": [1, 2], "all": ["x"]}"#,
        r#"{"email": 5, "version": [1, 2], "all": []}"#,
    ] {
        refused::<Contact>(bad.as_bytes());
    }
    let (kind, message) = error::<Contact>(br#"{"email": "a@b", "version": [1, 2], "all": ["x"]}"#);
    assert_eq!(kind, ErrorKind::Deserialize);
    assert_eq!(
        message,
        r#"not an email: "x" at line 1 column 45, path $.all[0]"#
    );
    let value: Contact = serde_json::from_slice(doc).unwrap();
    assert_eq!(jitson::to_vec(&value), serde_json::to_vec(&value).unwrap());
    // The schema is the source type's.
    let schema = Contact::json_schema();
    assert_eq!(schema["properties"]["email"]["type"], "string");
    assert_eq!(schema["properties"]["version"]["type"], "array");
}

/// Different names each way: `rename(serialize = …, deserialize = …)`, and `rename_all`
/// likewise; decode reads the deserialize names, encode writes the serialize ones.
#[derive(Debug, PartialEq, Deserialize, serde::Serialize, jitson::Schema)]
#[serde(rename_all(serialize = "camelCase", deserialize = "snake_case"))]
struct TwoWays {
    user_id: u8,
    #[serde(rename(serialize = "out", deserialize = "in"))]
    both: u8,
    #[serde(rename(deserialize = "read_only_name"))]
    one_way: u8,
    kind: Kinded,
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, jitson::Schema)]
#[serde(tag = "t", rename_all(serialize = "UPPERCASE"))]
enum Kinded {
    #[serde(rename(deserialize = "first"))]
    First {
        #[serde(rename(serialize = "V"))]
        value: u8,
    },
    Second,
}

#[test]
fn names_differing_each_way_equal_serde_json() {
    let doc =
        br#"{"user_id": 1, "in": 2, "read_only_name": 3, "kind": {"t": "first", "value": 4}}"#;
    same::<TwoWays>(doc);
    same::<TwoWays>(br#"{"user_id": 1, "in": 2, "read_only_name": 3, "kind": {"t": "Second"}}"#);
    let options = jitson::jit::ir::ExecOptions::default();
    assert!(jitson::typed::decode::read::<TwoWays>(doc, &options).is_ok());
    for bad in [
        r#"{"userId": 1, "in": 2, "read_only_name": 3, "kind": {"t": "Second"}}"#,
        r#"{"user_id": 1, "out": 2, "read_only_name": 3, "kind": {"t": "Second"}}"#,
        r#"{"user_id": 1, "in": 2, "oneWay": 3, "kind": {"t": "Second"}}"#,
        r#"{"user_id": 1, "in": 2, "read_only_name": 3, "kind": {"t": "FIRST", "value": 4}}"#,
    ] {
        refused::<TwoWays>(bad.as_bytes());
    }
    let value: TwoWays = serde_json::from_slice(doc).unwrap();
    let want = serde_json::to_vec(&value).unwrap();
    assert_eq!(
        String::from_utf8(jitson::to_vec(&value)).unwrap(),
        String::from_utf8(want).unwrap()
    );
    assert_eq!(
        jitson::to_vec(&value),
        br#"{"userId":1,"out":2,"oneWay":3,"kind":{"t":"FIRST","V":4}}"#
    );
}

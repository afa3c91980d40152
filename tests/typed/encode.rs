//! Typed encode (`jitson::typed::JsonEncode`, derived by `#[derive(jitson::Schema)]`): for
//! every supported shape and attribute, the bytes equal `serde_json::to_vec` of the same value
//! (types deriving serde's `Serialize` beside the schema), and the corpus documents decoded
//! by serde_json into their structs encode to serde_json's bytes.

#![cfg(not(miri))]

use jitson::RawValue;
use jitson::typed::{JsonEncode, JsonMembers};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::Arc;

/// `value.encode_json` equals `serde_json::to_vec(value)`, also when appended after other
/// bytes (a container's closing looks at the last byte written).
#[track_caller]
fn same<T: Serialize + JsonEncode + ?Sized>(value: &T) {
    let want = serde_json::to_vec(value).expect("serde_json writes the value");
    let mut out = Vec::new();
    value.encode_json(&mut out);
    assert_eq!(
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&want),
        "jitson (left) vs serde_json (right)"
    );
    let mut appended = b"[0,".to_vec();
    value.encode_json(&mut appended);
    assert_eq!(&appended[3..], &want[..], "appended after `[0,`");
}

#[test]
fn integers_at_their_extremes_per_width() {
    macro_rules! extremes {
        ($($t:ty),*) => {$(
            for v in [<$t>::MIN, <$t>::MIN / 3, 0 as $t, 1 as $t, 9 as $t, 10 as $t, <$t>::MAX / 7, <$t>::MAX - 1, <$t>::MAX] {
                same(&v);
            }
        )*};
    }
    extremes!(
        u8, u16, u32, u64, usize, u128, i8, i16, i32, i64, isize, i128
    );
    for v in [u64::MAX as u128 + 1, u128::MAX / 3] {
        same(&v);
    }
    for v in [i64::MIN as i128 - 1, i64::MAX as i128 + 1] {
        same(&v);
    }
    // Every length of decimal number.
    let mut v = 1u64;
    while let Some(next) = v.checked_mul(10) {
        for x in [v - 1, v, v + 1] {
            same(&x);
            same(&-(x as i64));
        }
        v = next;
    }
}

#[test]
fn floats_write_serde_jsons_shortest_digits() {
    for v in [
        0.0,
        -0.0,
        0.1,
        0.1 + 0.2,
        1.0,
        -1.5,
        1e300,
        -1e-300,
        5e-324,
        f64::MAX,
        f64::MIN_POSITIVE,
        1e21,
        1e-7,
        123456789.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        same(&v);
    }
    for v in [
        0.1f32,
        -0.0,
        1.0 / 3.0,
        f32::MAX,
        f32::MIN_POSITIVE,
        1e-45,
        16777217.0,
        f32::NAN,
        f32::NEG_INFINITY,
    ] {
        same(&v);
    }
}

#[test]
fn strings_are_escaped_as_serde_json_escapes_them() {
    let texts = [
        "",
        "plain",
        "quote \" and backslash \\ and slash /",
        "\u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1f}\u{7f}",
        "unicode: é ü 漢字 \u{2028}\u{2029} 😀 <script>&amp;</script>",
        "a long run without escapes that crosses the 32-byte chunks of the AVX2 twin: \"x\"\n",
    ];
    for text in texts {
        same(text);
        same(&text.to_owned());
        same(&Box::<str>::from(text));
        same(&Cow::Borrowed(text));
        same(&text.to_owned().into_boxed_str());
    }
    for c in ['a', '"', '\\', '\n', '\u{0}', 'é', '😀', '\u{2028}'] {
        same(&c);
    }
    same(&true);
    same(&false);
    same(&());
    same(&PhantomData::<u8>);
}

#[test]
fn containers() {
    same(&vec![1u8, 2, 3]);
    same(&Vec::<u8>::new());
    same(&[1.5f64, -0.0][..]);
    same(&[[1u16; 3]; 2]);
    same(&[0u8; 0]);
    same(&VecDeque::from(vec!["a", "b"]));
    same(&(1u8,));
    same(&(1u8, "two", 3.0f64, Some(4i8), None::<u8>, [5u8]));
    same(&(
        1u8, 2u8, 3u8, 4u8, 5u8, 6u8, 7u8, 8u8, 9u8, 10u8, 11u8, 12u8,
    ));
    same(&Some(Box::new(7u32)));
    same(&None::<String>);
    same(&&&"nested references");
    let btree: BTreeMap<String, Vec<u8>> = [("b", vec![1]), ("a", vec![]), ("\"q\"", vec![2, 3])]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    same(&btree);
    same(&BTreeMap::<String, u8>::new());
    let hash: HashMap<&str, Option<bool>> =
        [("x", Some(true)), ("y", None), ("z\n", Some(false))].into();
    same(&hash);
    let boxed: HashMap<Box<str>, u8> = [("k".into(), 1)].into();
    same(&boxed);
    let cow: BTreeMap<Cow<'_, str>, u8> = [(Cow::Borrowed("k"), 1)].into();
    same(&cow);
    // Sets in their iteration order, shared pointers as their target.
    same(&BTreeSet::from([3, -1, 2]));
    same(&HashSet::from([
        "x".to_owned(),
        "y\n".to_owned(),
        "z".to_owned(),
    ]));
    same(&Arc::<str>::from("arc\t"));
    same(&Rc::new(Inner { x: 1, y: None }));
    same(&Arc::<[u8]>::from(vec![1, 2]));
    same(&Some(Rc::new(vec![Arc::new(1.5f64)])));
}

#[test]
fn integer_keys_as_their_digits() {
    same(&BTreeMap::from([(-1i64, "a"), (7, "b")]));
    same(&HashMap::from([(u128::MAX, 1u8)]));
    same(&BTreeMap::from([(0u8, BTreeMap::from([(i128::MIN, ())]))]));
}

#[test]
fn non_zero_integers_as_their_value() {
    same(&std::num::NonZeroU8::MAX);
    same(&std::num::NonZeroI32::MIN);
    same(&std::num::NonZeroU128::MAX);
    same(&std::num::NonZeroIsize::new(-1));
}

#[test]
fn addresses_as_their_text() {
    let v4 = std::net::Ipv4Addr::new(10, 0, 0, 1);
    let v6: std::net::Ipv6Addr = "2001:db8::1".parse().unwrap();
    same(&v4);
    same(&v6);
    same(&std::net::IpAddr::V6(v6));
    same(&std::net::SocketAddr::new(v4.into(), 8080));
    same(&std::net::SocketAddrV6::new(v6, 443, 0, 0));
    same(&std::net::SocketAddrV4::new(v4, 1));
}

#[test]
fn bool_and_char_keys() {
    same(&BTreeMap::from([(true, 1u8), (false, 2)]));
    same(&HashMap::from([('a', "x")]));
    same(&BTreeMap::from([
        ('"', 1u8),
        ('\n', 2),
        ('é', 3),
        ('😀', 4),
    ]));
}

#[test]
fn paths_durations_times_and_ranges() {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};
    same(&std::path::PathBuf::from("/tmp/a \"b\"\n"));
    same(std::path::Path::new("relative/é"));
    same(&std::path::Path::new("x").to_path_buf().into_boxed_path());
    same(&Duration::new(5, 7));
    same(&Duration::MAX);
    same(&Duration::ZERO);
    same(&UNIX_EPOCH);
    same(&(UNIX_EPOCH + Duration::new(1_700_000_000, 999_999_999)));
    same(&SystemTime::now());
    same(&(1u8..5));
    same(&(-1.5f64..=2.5));
    same(&(String::from("a")..String::from("b\t")));
    same(&std::collections::LinkedList::from([1u8, 2, 3]));
    same(&std::collections::BinaryHeap::from([3u8, 1, 4, 1, 5]));
}

/// A path that is not UTF-8 (Unix: any bytes but `/` and NUL may name a file).
#[cfg(unix)]
#[test]
#[should_panic(expected = "path contains invalid UTF-8 characters")]
fn non_utf8_paths_panic_where_serde_json_errors() {
    use std::os::unix::ffi::OsStrExt;
    let path = std::path::Path::new(std::ffi::OsStr::from_bytes(b"a\xffb"));
    let err = serde_json::to_vec(path).unwrap_err();
    assert!(err.to_string().contains("invalid UTF-8"), "{err}");
    path.encode_json(&mut Vec::new());
}

#[test]
#[should_panic(expected = "SystemTime must be later than UNIX_EPOCH")]
fn times_before_the_epoch_panic_where_serde_json_errors() {
    let before = std::time::UNIX_EPOCH - std::time::Duration::from_secs(1);
    let err = serde_json::to_vec(&before).unwrap_err();
    assert!(err.to_string().contains("later than UNIX_EPOCH"), "{err}");
    before.encode_json(&mut Vec::new());
}

#[test]
fn serde_json_values_and_raw_values() {
    let value = json!({
        "null": null, "bools": [true, false], "u": 18446744073709551615u64, "i": -9223372036854775808i64,
        "f": 0.1, "e": 1e300, "s": "esc\"aped\n", "nested": {"a": [], "b": {}, "c": [{"d": [1, [2]]}]},
    });
    same(&value);
    same(&json!([]));
    same(&json!("top"));
    for text in [
        "[1, 2]",
        "{\"a\":1}",
        "null",
        "\"s\"",
        "{ \"spaced\" : [ 1.50 ] }",
    ] {
        let raw = RawValue::from_json(text).unwrap();
        let mut out = Vec::new();
        raw.encode_json(&mut out);
        assert_eq!(out, text.as_bytes(), "RawValue is written verbatim");
        same(&raw);
    }
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

#[derive(Serialize, jitson::Schema)]
#[serde(rename_all = "camelCase")]
struct Fields {
    first_name: String,
    #[serde(rename = "AGE")]
    age: u8,
    #[serde(skip)]
    #[allow(dead_code)]
    secret: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nick_name: Option<String>,
    #[serde(skip_serializing_if = "is_zero")]
    score: u32,
    r#type: char,
    #[serde(default)]
    tags: Vec<String>,
}

#[derive(Serialize, jitson::Schema)]
struct Leading {
    #[serde(skip_serializing_if = "Option::is_none")]
    a: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<u8>,
    c: u8,
}

#[derive(Serialize, jitson::Schema)]
struct AllOptional {
    #[serde(skip_serializing_if = "Option::is_none")]
    a: Option<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    b: Vec<u8>,
}

#[derive(Serialize, jitson::Schema)]
struct Empty {}

#[test]
fn named_fields_rename_skip_and_skip_serializing_if() {
    for (nick_name, score) in [(None, 0), (Some("Al\"".to_owned()), 3)] {
        same(&Fields {
            first_name: "Alan".into(),
            age: 41,
            secret: 7,
            nick_name,
            score,
            r#type: 'x',
            tags: vec!["a".into()],
        });
    }
    for (a, b) in [
        (None, None),
        (Some(1), None),
        (None, Some(2)),
        (Some(1), Some(2)),
    ] {
        same(&Leading { a, b, c: 3 });
    }
    for (a, b) in [
        (None, vec![]),
        (Some(1), vec![]),
        (None, vec![2]),
        (Some(1), vec![2]),
    ] {
        same(&AllOptional { a, b });
    }
    same(&Empty {});
}

#[derive(Serialize, jitson::Schema)]
struct Inner {
    x: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    y: Option<u8>,
}

#[derive(Serialize, jitson::Schema)]
#[serde(tag = "kind")]
struct TaggedInner {
    z: bool,
}

#[derive(Serialize, jitson::Schema)]
struct Flat {
    #[serde(skip_serializing_if = "Option::is_none")]
    before: Option<u8>,
    #[serde(flatten)]
    inner: Inner,
    middle: u8,
    #[serde(flatten)]
    extra: BTreeMap<String, u8>,
    #[serde(flatten)]
    tagged: Box<TaggedInner>,
}

#[derive(Serialize, jitson::Schema)]
struct OnlyFlat {
    #[serde(flatten)]
    extra: HashMap<String, String>,
}

#[derive(Serialize, jitson::Schema)]
struct MaybeFlat {
    a: u8,
    #[serde(flatten, skip_serializing_if = "BTreeMap::is_empty")]
    extra: BTreeMap<String, u8>,
}

#[derive(Serialize, jitson::Schema)]
struct NestedFlat {
    #[serde(flatten)]
    flat: OnlyFlat,
    last: u8,
}

#[test]
fn flatten_in_declaration_order() {
    for (before, y, extra) in [
        (None, None, vec![]),
        (Some(1), Some(2), vec![("e", 5), ("f", 6)]),
    ] {
        same(&Flat {
            before,
            inner: Inner { x: 3, y },
            middle: 4,
            extra: extra.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
            tagged: Box::new(TaggedInner { z: true }),
        });
    }
    same(&OnlyFlat {
        extra: HashMap::new(),
    });
    same(&OnlyFlat {
        extra: [("a".to_owned(), "b".to_owned())].into(),
    });
    same(&NestedFlat {
        flat: OnlyFlat {
            extra: HashMap::new(),
        },
        last: 1,
    });
    same(&MaybeFlat {
        a: 1,
        extra: BTreeMap::new(),
    });
    same(&MaybeFlat {
        a: 1,
        extra: [("k".to_owned(), 2)].into(),
    });
    // The members helper on its own: every member followed by a comma.
    let mut out = Vec::new();
    Inner { x: 1, y: None }.encode_members(&mut out);
    assert_eq!(out, b"\"x\":1,");
}

#[derive(Serialize, jitson::Schema)]
#[serde(tag = "type", rename = "Point2")]
struct TaggedStruct {
    x: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    y: Option<i32>,
}

#[derive(Serialize, jitson::Schema)]
struct Tuple(
    u8,
    #[serde(skip)]
    #[allow(dead_code)]
    u8,
    String,
);

#[derive(Serialize, jitson::Schema)]
struct Newtype(Vec<u8>);

#[derive(Serialize, jitson::Schema)]
struct Unit;

#[derive(Serialize, jitson::Schema)]
#[serde(transparent)]
struct Transparent {
    #[serde(skip)]
    _ignored: u8,
    inner: Inner,
}

#[test]
fn tagged_tuple_newtype_unit_and_transparent_structs() {
    same(&TaggedStruct { x: -1, y: None });
    same(&TaggedStruct { x: -1, y: Some(2) });
    same(&Tuple(1, 2, "three".into()));
    same(&Newtype(vec![1, 2]));
    same(&Unit);
    same(&Transparent {
        _ignored: 0,
        inner: Inner { x: 1, y: Some(2) },
    });
}

#[derive(Serialize, jitson::Schema)]
#[serde(rename_all = "snake_case", rename_all_fields = "camelCase")]
enum External {
    UnitOne,
    #[serde(rename = "two")]
    UnitTwo,
    Newtype(Inner),
    Tuple(u8, #[serde(skip)] u8, String),
    Empty(),
    Struct {
        field_name: u8,
        #[serde(skip_serializing_if = "Option::is_none")]
        maybe: Option<u8>,
    },
    #[serde(rename_all = "UPPERCASE")]
    Shouting {
        loud: bool,
    },
    Flattening {
        #[serde(flatten)]
        inner: Inner,
    },
}

#[test]
fn externally_tagged_enums() {
    for v in [
        External::UnitOne,
        External::UnitTwo,
        External::Newtype(Inner { x: 1, y: None }),
        External::Tuple(1, 2, "x".into()),
        External::Empty(),
        External::Struct {
            field_name: 1,
            maybe: None,
        },
        External::Struct {
            field_name: 1,
            maybe: Some(2),
        },
        External::Shouting { loud: true },
        External::Flattening {
            inner: Inner { x: 1, y: Some(2) },
        },
    ] {
        same(&v);
    }
}

#[derive(Serialize, jitson::Schema)]
#[serde(tag = "t")]
enum Internal {
    Unit,
    Newtype(Inner),
    Map(BTreeMap<String, u8>),
    Struct {
        #[serde(skip_serializing_if = "Option::is_none")]
        a: Option<u8>,
        b: String,
    },
    Tagged(TaggedInner),
}

/// A `#[serde(other)]` variant is written as the unit variant it is.
#[derive(Serialize, jitson::Schema)]
#[serde(tag = "t", content = "c")]
enum WithOther {
    Data(u8),
    #[serde(other, rename = "unknown")]
    Unknown,
}

#[test]
fn other_variants_as_unit_variants() {
    same(&WithOther::Data(1));
    same(&WithOther::Unknown);
}

#[test]
fn internally_tagged_enums() {
    for v in [
        Internal::Unit,
        Internal::Newtype(Inner { x: 1, y: Some(2) }),
        Internal::Map(BTreeMap::new()),
        Internal::Map([("k".to_owned(), 1)].into()),
        Internal::Struct {
            a: None,
            b: "b".into(),
        },
        Internal::Struct {
            a: Some(1),
            b: "b".into(),
        },
        Internal::Tagged(TaggedInner { z: false }),
    ] {
        same(&v);
    }
}

#[derive(Serialize, jitson::Schema)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Unit,
    Newtype(Option<u8>),
    Tuple(u8, String),
    Struct { a: u8 },
}

#[derive(Serialize, jitson::Schema)]
#[serde(untagged)]
enum Untagged {
    Unit,
    Newtype(u8),
    Tuple(u8, String),
    Struct { a: u8 },
}

#[test]
fn adjacently_tagged_and_untagged_enums() {
    for v in [
        Adjacent::Unit,
        Adjacent::Newtype(None),
        Adjacent::Newtype(Some(1)),
        Adjacent::Tuple(1, "x".into()),
        Adjacent::Struct { a: 1 },
    ] {
        same(&v);
    }
    for v in [
        Untagged::Unit,
        Untagged::Newtype(1),
        Untagged::Tuple(1, "x".into()),
        Untagged::Struct { a: 1 },
    ] {
        same(&v);
    }
}

#[derive(Serialize, jitson::Schema)]
enum WithSkipped {
    Kept,
    #[serde(skip)]
    #[allow(dead_code)]
    Skipped(u8),
}

#[test]
#[should_panic(expected = "the enum variant WithSkipped::Skipped cannot be serialized")]
fn skipped_variants_panic_where_serde_json_errors() {
    same(&WithSkipped::Kept);
    let err = serde_json::to_vec(&WithSkipped::Skipped(1)).unwrap_err();
    assert!(err.to_string().contains("cannot be serialized"), "{err}");
    WithSkipped::Skipped(1).encode_json(&mut Vec::new());
}

#[derive(Serialize, jitson::Schema)]
struct Generic<T, U: Clone>
where
    T: Copy,
{
    a: T,
    b: Vec<U>,
    c: Option<Box<Generic<T, U>>>,
}

#[derive(Serialize, jitson::Schema)]
struct FlattenGeneric<T> {
    id: u8,
    #[serde(flatten)]
    inner: T,
}

/// Generic and internally tagged: the newtype variant's payload is a type parameter.
#[derive(Serialize, jitson::Schema)]
#[serde(tag = "t")]
enum TaggedGeneric<T> {
    Payload(T),
    Unit,
}

#[derive(Serialize, jitson::Schema)]
struct Borrowed<'a, 'b: 'a> {
    s: &'a str,
    c: Cow<'b, str>,
    all: &'a [&'b str],
}

#[derive(Serialize, jitson::Schema)]
struct Tree {
    value: i64,
    children: Vec<Tree>,
    next: Option<Box<Tree>>,
}

#[test]
fn generics_lifetimes_and_recursion() {
    same(&Generic {
        a: 1u8,
        b: vec!["x".to_owned()],
        c: Some(Box::new(Generic {
            a: 2,
            b: vec![],
            c: None,
        })),
    });
    same(&FlattenGeneric {
        id: 1,
        inner: Inner { x: 2, y: None },
    });
    same(&FlattenGeneric {
        id: 1,
        inner: BTreeMap::from([("k".to_owned(), 1u8)]),
    });
    same(&TaggedGeneric::Payload(Inner { x: 3, y: None }));
    same(&TaggedGeneric::Payload(BTreeMap::from([(
        "k".to_owned(),
        1u8,
    )])));
    same(&TaggedGeneric::<Inner>::Unit);
    let owned = "owned\t".to_owned();
    same(&Borrowed {
        s: "borrowed",
        c: Cow::Owned(owned),
        all: &["a", "b"],
    });
    same(&Tree {
        value: -1,
        children: vec![Tree {
            value: 2,
            children: vec![],
            next: None,
        }],
        next: Some(Box::new(Tree {
            value: 3,
            children: vec![],
            next: None,
        })),
    });
}

/// serde_json decodes the document into `T`; jitson's encode of that value is serde_json's.
fn corpus<T: DeserializeOwned + Serialize + JsonEncode>(name: &str) {
    let bytes = crate::engine_support::testdata(&format!("bench/{name}.json"));
    let value: T = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let want = serde_json::to_vec(&value).unwrap();
    let mut out = Vec::new();
    value.encode_json(&mut out);
    assert!(out == want, "{name}: encode differs from serde_json");
}

#[test]
fn corpus_documents_encode_as_serde_json() {
    use crate::typed_support::{book::Book, canada::Canada, citm::CitmCatalog, twitter::Twitter};
    corpus::<Book>("book");
    corpus::<Twitter>("twitter");
    corpus::<Twitter>("twitterescaped");
    corpus::<CitmCatalog>("citm_catalog");
    corpus::<Canada>("canada");
}

//! `#[serde(alias)]` through the derive, end to end: on the interpreter and on native code a
//! type with aliases decodes as serde_json decodes it (every name, every alias, with
//! `rename_all`, `deny_unknown_fields`, `default` / `Option` fields, `flatten`, and variant
//! aliases in the four enum representations); a name and an alias of one field together are
//! serde's duplicate field, with jitson's exact error; encode writes the main name; the
//! emitted JSON Schema accepts and rejects what the codec does (jitson's loader and the
//! `jsonschema` crate); two types differing by an alias have different keys.

use std::collections::BTreeMap;
use std::fmt::Debug;

use crate::typed_support::engines::{engines, error, refused, same};
use jitson::ErrorKind;
use jitson::schema::builder::{integer, object, string};
use jitson::schema::{Schema, SchemaErrorKind, TypeDesc, TypeKey};
use jitson::typed::JsonType;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Account {
    /// Read as `accountId`, `id` or `account_id` (aliases are not renamed).
    #[serde(alias = "id", alias = "account_id")]
    account_id: u32,
    #[serde(alias = "nick")]
    display_name: Option<String>,
    #[serde(default, alias = "lvl")]
    level: u8,
    plain: bool,
}

/// Every accepted spelling, and the inputs serde rejects, decode as serde_json decodes them.
#[test]
fn field_aliases_equal_serde_json() {
    for ok in [
        &br#"{"accountId": 1, "plain": true}"#[..],
        br#"{"id": 2, "plain": false, "nick": "n"}"#,
        br#"{"account_id": 3, "displayName": null, "plain": true, "lvl": 4}"#,
        br#"{"plain": true, "level": 5, "id": 6, "displayName": "d"}"#,
        br#"{"nick": null, "plain": true, "accountId": 7}"#,
    ] {
        assert!(serde_json::from_slice::<Account>(ok).is_ok());
        same::<Account>(ok);
    }
    for bad in [
        &br#"{"accountId": 1, "id": 2, "plain": true}"#[..],
        br#"{"id": 1, "account_id": 2, "plain": true}"#,
        br#"{"id": 1, "plain": true, "nick": "a", "displayName": "b"}"#,
        br#"{"id": 1, "plain": true, "lvl": 1, "level": 2}"#,
        br#"{"id": 1, "plain": true, "account": 2}"#,
        br#"{"display_name": "x", "id": 1, "plain": true}"#,
        br#"{"plain": true}"#,
        br#"{"id": "1", "plain": true}"#,
    ] {
        refused::<Account>(bad);
    }
}

/// A repeated field under two of its names is `DuplicateKey` at the second key, its path
/// naming the field; required, unknown and type errors name the field as well.
#[test]
fn alias_errors_name_the_field_its_position_and_path() {
    let cases: [(&[u8], ErrorKind, &str); 5] = [
        (
            br#"{"accountId": 1, "id": 2, "plain": true}"#,
            ErrorKind::DuplicateKey,
            "duplicate key at line 1 column 18, path $.accountId",
        ),
        (
            br#"{"plain": true, "account_id": 1, "nick": "a", "displayName": "b"}"#,
            ErrorKind::DuplicateKey,
            "duplicate key at line 1 column 47, path $.displayName",
        ),
        (
            br#"{"plain": true, "nick": "a"}"#,
            ErrorKind::Schema(jitson::Keyword::Required),
            r#"missing required field "accountId" at line 1 column 28, path $, keyword required"#,
        ),
        (
            br#"{"id": 1, "plain": true, "Id": 2}"#,
            ErrorKind::Schema(jitson::Keyword::AdditionalProperties),
            "unknown field at line 1 column 32, path $.Id, keyword additionalProperties",
        ),
        (
            br#"{"plain": true, "lvl": 256, "id": 1}"#,
            ErrorKind::Schema(jitson::Keyword::Maximum),
            "number above the maximum at line 1 column 24, path $.level, keyword maximum",
        ),
    ];
    for (input, kind, message) in cases {
        assert_eq!(error::<Account>(input), (kind, message.to_owned()));
        assert!(serde_json::from_slice::<Account>(input).is_err());
    }
    let serde = serde_json::from_slice::<Account>(br#"{"accountId": 1, "id": 2, "plain": true}"#);
    assert!(
        serde
            .unwrap_err()
            .to_string()
            .starts_with("duplicate field `accountId`")
    );
}

/// Encode writes the main name, whichever name the value was read under.
#[test]
fn encode_writes_the_main_name() {
    let input = br#"{"account_id": 3, "nick": "n", "plain": true, "lvl": 4}"#;
    for (name, engine) in engines() {
        let value: Account = engine.decode(input).expect(name);
        let mut out = Vec::new();
        engine.encode(&value, &mut out);
        assert_eq!(out, serde_json::to_vec(&value).unwrap(), "{name}");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"accountId":3,"displayName":"n","level":4,"plain":true}"#
        );
    }
}

#[derive(Debug, PartialEq, Deserialize, jitson::Schema)]
struct Outer {
    #[serde(alias = "ident")]
    id: u32,
    #[serde(flatten)]
    inner: Flat,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
struct Flat {
    #[serde(alias = "k")]
    kind: String,
    #[serde(default, alias = "lvl")]
    level: u8,
}

/// Aliases of flattened fields are that field's, not extra members for a flattened map.
#[test]
fn flattened_aliases_equal_serde_json() {
    for input in [
        &br#"{"ident": 1, "k": "x"}"#[..],
        br#"{"id": 1, "kind": "x", "lvl": 2, "other": [3]}"#,
        br#"{"k": "x", "level": 2, "ident": 1, "z": null}"#,
    ] {
        same::<Outer>(input);
    }
    refused::<Outer>(br#"{"ident": 1}"#);
    refused::<Outer>(br#"{"ident": 1, "k": 2}"#);
    assert!(serde_json::from_slice::<Outer>(br#"{"ident": 1, "k": "x"}"#).is_ok());
    let outer: Outer = jitson::from_slice(br#"{"ident": 1, "k": "x", "lvl": 2, "o": 3}"#).unwrap();
    assert_eq!(outer.rest.keys().collect::<Vec<_>>(), ["o"]);
}

#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "lowercase")]
enum Color {
    #[serde(alias = "Red", alias = "RED")]
    Red,
    Green,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
enum External {
    #[serde(alias = "n")]
    Num(u8),
    #[serde(alias = "s", alias = "st")]
    S { a: u8 },
    #[serde(alias = "u")]
    Unit,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(tag = "type")]
enum Internal {
    #[serde(alias = "circle")]
    Circle {
        r: f64,
    },
    #[serde(alias = "sq", alias = "square")]
    Square {
        side: f64,
    },
    Empty,
    #[serde(alias = "wrapped")]
    Wrapped(Flat),
}

#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    #[serde(alias = "num")]
    Num(i64),
    #[serde(alias = "none")]
    Nothing,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
struct Variants {
    colors: Vec<Color>,
    external: Vec<External>,
    internal: Vec<Internal>,
    adjacent: Vec<Adjacent>,
}

/// Variant aliases are more accepted tags in every representation; encode writes the name.
#[test]
fn variant_aliases_equal_serde_json() {
    let doc = br#"{
        "colors": ["red", "Red", "RED", "green"],
        "external": [{"Num": 1}, {"n": 2}, {"S": {"a": 3}}, {"s": {"a": 4}}, {"st": {"a": 5}},
                     "Unit", "u"],
        "internal": [{"type": "Circle", "r": 1}, {"r": 2, "type": "circle"},
                     {"type": "sq", "side": 3}, {"type": "square", "side": 4}, {"type": "Empty"},
                     {"type": "wrapped", "k": "x"}, {"kind": "y", "type": "Wrapped", "lvl": 1}],
        "adjacent": [{"t": "Num", "c": 1}, {"c": 2, "t": "num"}, {"t": "none"}, {"t": "Nothing"}]
    }"#;
    same::<Variants>(doc);
    let value: Variants = jitson::from_slice(doc).unwrap();
    assert_eq!(jitson::to_vec(&value), serde_json::to_vec(&value).unwrap());
    for bad in [
        &br#"{"colors": ["GREEN"], "external": [], "internal": [], "adjacent": []}"#[..],
        br#"{"colors": [], "external": [{"N": 1}], "internal": [], "adjacent": []}"#,
        br#"{"colors": [], "external": [{"n": 1, "Num": 1}], "internal": [], "adjacent": []}"#,
        br#"{"colors": [], "external": [], "internal": [{"type": "empty"}], "adjacent": []}"#,
        br#"{"colors": [], "external": [], "internal": [{"type": "sq", "r": 1}], "adjacent": []}"#,
        br#"{"colors": [], "external": [], "internal": [], "adjacent": [{"t": "NUM", "c": 1}]}"#,
    ] {
        refused::<Variants>(bad);
    }
}

/// An internally tagged enum with variant aliases keeps the discriminator fast path: the
/// aliases select their variant's branch.
#[test]
fn variant_aliases_keep_the_discriminator() {
    let schema = Internal::schema();
    let TypeDesc::AnyOf(union) = schema.node(schema.root()) else {
        panic!("{schema:?}");
    };
    let d = union.discriminator.as_ref().expect("a discriminator");
    assert_eq!(d.property, "type");
    assert_eq!(d.tags, ["Circle", "Square", "Empty", "Wrapped"]);
    let aliases: Vec<(&str, usize)> = d
        .aliases
        .iter()
        .map(|(v, b)| (v.as_str().unwrap(), *b))
        .collect();
    assert_eq!(
        aliases,
        [("circle", 0), ("sq", 1), ("square", 1), ("wrapped", 3)]
    );
}

#[derive(jitson::Schema)]
#[allow(dead_code)]
struct Plain {
    a: u8,
}

#[derive(jitson::Schema)]
#[allow(dead_code)]
struct Aliased {
    #[serde(alias = "b")]
    a: u8,
}

#[derive(jitson::Schema)]
#[allow(dead_code)]
struct OtherAlias {
    #[serde(alias = "c")]
    a: u8,
}

/// Aliases are part of the canonical form: no two of these share a codec.
#[test]
fn aliases_change_the_type_key() {
    let keys = [
        TypeKey::of(&Plain::schema(), 0),
        TypeKey::of(&Aliased::schema(), 0),
        TypeKey::of(&OtherAlias::schema(), 0),
    ];
    assert_ne!(keys[0], keys[1]);
    assert_ne!(keys[1], keys[2]);
    assert_ne!(keys[0], keys[2]);
    let built = Schema::build(object().field("a", integer()).alias("a", "b")).unwrap();
    let plain = Schema::build(object().field("a", integer())).unwrap();
    for (name, engine) in engines() {
        assert!(
            engine.compile(&built).validate(br#"{"b": 1}"#).is_ok(),
            "{name}"
        );
        assert!(
            engine.compile(&plain).validate(br#"{"b": 1}"#).is_err(),
            "{name}"
        );
    }
}

/// The builder: an alias finds the field (the reference validator and both engines agree),
/// and clashes or an alias of a missing field are build errors.
#[test]
fn builder_aliases() {
    let expr = object()
        .field("name", string())
        .alias("name", "title")
        .optional("n", integer())
        .deny_unknown();
    let schema = Schema::build(expr.clone()).unwrap();
    for (input, ok) in [
        (&br#"{"title": "x"}"#[..], true),
        (br#"{"name": "x", "n": 1}"#, true),
        (br#"{"title": 1}"#, false),
        (br#"{"n": 1}"#, false),
        (br#"{"name": "x", "titles": "y"}"#, false),
    ] {
        let value: Value = serde_json::from_slice(input).unwrap();
        assert_eq!(schema.validate_value(&value).is_ok(), ok, "{value}");
        for (name, engine) in engines() {
            let codec = engine.compile(&schema);
            assert_eq!(codec.validate(input).is_ok(), ok, "{name}: {value}");
        }
    }
    let clash = Schema::build(expr.clone().alias("n", "title")).unwrap_err();
    assert_eq!(clash.kind(), &SchemaErrorKind::DuplicateKey("title".into()));
    let clash = Schema::build(expr.clone().alias("n", "name")).unwrap_err();
    assert_eq!(clash.kind(), &SchemaErrorKind::DuplicateKey("name".into()));
    let dangling = Schema::build(expr.alias("missing", "m")).unwrap_err();
    assert_eq!(dangling.pointer(), "/properties/missing");
}

/// The accept / reject answers for `input` of typed decode, of jitson's loader on the
/// emitted JSON Schema (both engines), and of the `jsonschema` crate on it: all equal.
fn schema_agrees<T>(input: &[u8])
where
    T: JsonType + for<'a> Deserialize<'a> + for<'a> jitson::typed::JsonDecode<'a> + Debug,
{
    let text = T::json_schema_string();
    let loaded = Schema::from_json_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let document: Value = serde_json::from_str(&text).unwrap();
    let reference = jsonschema::validator_for(&document).expect("jsonschema compiles");
    let value: Value = serde_json::from_slice(input).unwrap();
    let shown = String::from_utf8_lossy(input);
    let want = jitson::from_slice::<T>(input).is_ok();
    assert_eq!(
        reference.is_valid(&value),
        want,
        "jsonschema: {shown} {text}"
    );
    assert_eq!(
        loaded.validate_value(&value).is_ok(),
        want,
        "oracle: {shown}"
    );
    for (name, engine) in engines() {
        let codec = engine.compile(&loaded);
        assert_eq!(codec.validate(input).is_ok(), want, "{name}: {shown}");
        assert_eq!(engine.decode::<T>(input).is_ok(), want, "{name}: {shown}");
    }
}

/// The emitted JSON Schema says what aliases mean: every name is a property with the
/// field's schema, at most one of them may appear, one must when the field is required.
#[test]
#[cfg_attr(miri, ignore = "the jsonschema crate is slow under Miri")]
fn emitted_json_schema_is_equivalent() {
    for input in [
        &br#"{"accountId": 1, "plain": true}"#[..],
        br#"{"id": 1, "plain": true, "nick": null}"#,
        br#"{"account_id": 1, "plain": true, "lvl": 9}"#,
        br#"{"accountId": 1, "id": 1, "plain": true}"#,
        br#"{"id": 1, "account_id": 2, "plain": true}"#,
        br#"{"accountId": 1, "id": 1, "account_id": 1, "plain": true}"#,
        br#"{"id": 1, "plain": true, "lvl": 1, "level": 1}"#,
        br#"{"plain": true}"#,
        br#"{"plain": true, "nick": "x"}"#,
        br#"{"id": -1, "plain": true}"#,
        br#"{"id": 1, "plain": true, "x": 1}"#,
    ] {
        schema_agrees::<Account>(input);
    }
    for input in [
        &br#"{"ident": 1, "k": "x"}"#[..],
        br#"{"id": 1, "kind": "x", "z": 1}"#,
        br#"{"id": 1, "ident": 1, "kind": "x"}"#,
        br#"{"id": 1, "k": "x", "kind": "x"}"#,
        br#"{"id": 1}"#,
    ] {
        schema_agrees::<Outer>(input);
    }
    let doc = |colors: &str, external: &str, internal: &str, adjacent: &str| {
        format!(
            r#"{{"colors": [{colors}], "external": [{external}], "internal": [{internal}], "adjacent": [{adjacent}]}}"#
        )
    };
    for input in [
        doc(r#""Red", "RED", "green""#, "", "", ""),
        doc(r#""GREEN""#, "", "", ""),
        doc("", r#"{"n": 1}, {"st": {"a": 1}}, "u""#, "", ""),
        doc("", r#"{"n": 1, "Num": 1}"#, "", ""),
        doc("", r#"{"S": {"a": 1}, "s": {"a": 1}}"#, "", ""),
        doc(
            "",
            "",
            r#"{"type": "sq", "side": 1}, {"type": "circle", "r": 1}"#,
            "",
        ),
        doc("", "", r#"{"type": "Sq", "side": 1}"#, ""),
        doc("", "", r#"{"type": "wrapped", "k": "x"}"#, ""),
        doc("", "", r#"{"type": "wrapped", "k": "x", "kind": "y"}"#, ""),
        doc("", "", "", r#"{"t": "num", "c": 1}, {"t": "none"}"#),
        doc("", "", "", r#"{"t": "Num"}"#),
    ] {
        schema_agrees::<Variants>(input.as_bytes());
    }
}

//! Rust types with a JSON shape: the [`JsonType`] trait that `#[derive(jitson::Schema)]`
//! implements, its implementations for the standard types, and [`RawValue`]; and their JSON
//! writer [`JsonEncode`] (the bytes `serde_json::to_vec` writes), derived alongside.
//!
//! A `JsonType` knows the schema of the JSON that serde_json reads into it and writes from
//! it, as the same [`TypeDesc`](crate::TypeDesc) model the JSON Schema loader produces:
//!
//! ```
//! use jitson::typed::JsonType;
//!
//! #[derive(jitson::Schema)]
//! #[serde(rename_all = "camelCase", deny_unknown_fields)]
//! struct User {
//!     user_id: u32,
//!     display_name: String,
//!     #[serde(default)]
//!     tags: Vec<String>,
//!     manager: Option<Box<User>>,
//! }
//!
//! let schema = User::schema();
//! assert!(schema.validate_value(&serde_json::json!({
//!     "userId": 7, "displayName": "Ada", "manager": {"userId": 1, "displayName": "Bob"}
//! })).is_ok());
//! assert!(schema.validate_value(&serde_json::json!({"userId": 256.5, "displayName": "x"})).is_err());
//! // `User` is recursive, so the document defines it under `$defs`.
//! assert_eq!(User::json_schema()["$ref"], "#/$defs/User");
//! ```
//!
//! Typed decode reads the type straight from the input with its derived [`JsonDecode`]
//! (see [`decode`]); what that reader does not take runs on this schema:
//! [`Engine::register`](crate::Engine::register) builds the type's codec,
//! [`Engine::decode`](crate::Engine::decode) (or [`crate::from_slice`]) decodes and checks
//! the input with it, then reads the result into the type through its serde `Deserialize`,
//! which gives the errors. Each type's codec is cached by the `TypeId` of its
//! [`JsonType::Key`].
//!
//! Floats are read correctly rounded on both paths, so a typed decode equals
//! `serde_json::from_slice` into the same type when serde_json is built with its
//! `float_roundtrip` feature. Without it, serde_json's faster reading can be one unit in the
//! last place off on long mantissas (`1.000000000000000085` becomes `1.0000000000000002`,
//! where jitson reads `1.0`).
//!
//! `jitson::Schema` names both the schema struct and this derive: a derive macro lives in
//! the macro namespace, so `#[derive(jitson::Schema)]` and `jitson::Schema::from_json_str`
//! never clash. The derive reads the `#[serde(...)]` attributes users already write (and
//! `#[jitson(...)]` ones, which win); its crate documentation lists what is supported and
//! what is a compile error.
//!
//! Shapes the schema model cannot say are compile errors at the offending item, never a
//! run-time surprise: attributes in the derive (see `jitson_derive`), and through the trait
//! bounds the derive puts on field types. A flattened enum:
//!
//! ```compile_fail,E0277
//! #[derive(jitson::Schema)]
//! enum Kind { A, B }
//!
//! #[derive(jitson::Schema)]
//! struct S {
//!     #[serde(flatten)]
//!     kind: Kind, // error: `Kind` cannot be flattened into an object
//! }
//! ```
//!
//! A field type without a schema, and a map whose keys are neither strings nor integers:
//!
//! ```compile_fail,E0277
//! #[derive(jitson::Schema)]
//! struct S {
//!     at: std::time::Instant, // error: `Instant` has no JSON schema
//! }
//! ```
//!
//! ```compile_fail,E0277
//! #[derive(jitson::Schema)]
//! struct S {
//!     pairs: std::collections::HashMap<(u8, u8), u8>, // error: `(u8, u8)` is not a map key type
//! }
//! ```
//!
//! An attribute jitson does not model:
//!
//! ```compile_fail
//! #[derive(jitson::Schema)]
//! struct S {
//!     #[serde(with = "my_module")] // error: `serde(with)` is not supported yet
//!     id: u32,
//! }
//! ```
//!
//! Where the schema and serde_json differ (documented, tested):
//! - integer schemas accept `1.0` and `1e2` (JSON Schema's `integer`); serde_json's integer
//!   types reject them;
//! - typed decode keeps integers beyond 64 bits exactly, so every width's bounds are exact
//!   and `u128` / `i128` take their whole range; a codec built from `T::schema()` with the
//!   default [`BigInts::F64`](crate::engine::BigInts) rounds them to the nearest `f64`
//!   first, so one just below `i64::MIN` rounds onto the bound and passes there, and
//!   `u128::MAX` rounds onto its exclusive bound `2^128` and fails;
//! - serde reads no `u128` / `i128` from a value it buffers (an untagged or internally
//!   tagged enum's): typed decode refuses them there too, whatever the schema says;
//! - `f32` takes the numbers whose nearest `f32` is finite, those below `2^128 - 2^103` in
//!   magnitude (`f32::MAX` written as `3.4028235e38` among them); serde_json with its
//!   `float_roundtrip` feature refuses the others too, but reads them as infinity without
//!   it and inside a value it buffers (an untagged or internally tagged enum's);
//! - the two-pass decode (the inputs the one-pass reader leaves to the codec) sees a number
//!   as its nearest `f64`, which an `f32` field rounds again: a decimal of 17 or more
//!   significant digits whose nearest `f64` lies exactly halfway between two `f32`s (or on
//!   the bound above) can read as the other one (or be refused), where serde_json and the
//!   one-pass reader round the decimal to `f32` once;
//! - serde_json also reads a struct from an array of its fields (`[1, 2]` for
//!   `Point { x, y }`) and a unit variant from `{"Variant": null}`; the schema takes the
//!   form serde_json writes (an object, a string);
//! - a unit struct's schema takes `null`, `{}` and `[]`: serde reads it from the last two
//!   only inside a value it buffers (an untagged or internally tagged enum's), and typed
//!   decode refuses them elsewhere, as serde does;
//! - a `&str` field is borrowed from the input, so serde_json rejects one that holds an
//!   escape; the schema accepts every string;
//! - `#[serde(tag = "...")]` on a struct: the tag member is optional and must hold the
//!   struct's name (serde_json ignores its value on input).

/// Calls the macro `$m` with every tuple arity the typed traits cover, 1 to 12: one
/// `(A, B, …);` per arity.
macro_rules! for_each_tuple {
    ($m:ident) => {
        $m! {
            (A);
            (A, B);
            (A, B, C);
            (A, B, C, D);
            (A, B, C, D, E);
            (A, B, C, D, E, F);
            (A, B, C, D, E, F, G);
            (A, B, C, D, E, F, G, H);
            (A, B, C, D, E, F, G, H, I);
            (A, B, C, D, E, F, G, H, I, J);
            (A, B, C, D, E, F, G, H, I, J, K);
            (A, B, C, D, E, F, G, H, I, J, K, L);
        }
    };
}
pub(crate) use for_each_tuple;

/// Calls the macro `$m` with every primitive integer type (serde_json's integer map keys).
macro_rules! for_each_integer {
    ($m:ident) => {
        $m!(
            u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
        );
    };
}
pub(crate) use for_each_integer;

/// Calls the macro `$m` with the `std::net` address types, which serde writes as their text.
macro_rules! for_each_address {
    ($m:ident) => {
        $m!(
            std::net::IpAddr,
            std::net::Ipv4Addr,
            std::net::Ipv6Addr,
            std::net::SocketAddr,
            std::net::SocketAddrV4,
            std::net::SocketAddrV6
        );
    };
}
pub(crate) use for_each_address;

/// Calls the macro `$m` with the `std::num` non-zero integer types, each with its integer.
macro_rules! for_each_non_zero {
    ($m:ident) => {
        $m!(
            std::num::NonZeroU8 => u8,
            std::num::NonZeroU16 => u16,
            std::num::NonZeroU32 => u32,
            std::num::NonZeroU64 => u64,
            std::num::NonZeroU128 => u128,
            std::num::NonZeroUsize => usize,
            std::num::NonZeroI8 => i8,
            std::num::NonZeroI16 => i16,
            std::num::NonZeroI32 => i32,
            std::num::NonZeroI64 => i64,
            std::num::NonZeroI128 => i128,
            std::num::NonZeroIsize => isize
        );
    };
}
pub(crate) use for_each_non_zero;

/// The fields serde writes a `Duration` as (and reads it from, or from `[secs, nanos]`).
pub(crate) const DURATION_FIELDS: [&str; 2] = ["secs", "nanos"];
/// The fields serde writes a `SystemTime` as: its `Duration` since the Unix epoch.
pub(crate) const SYSTEM_TIME_FIELDS: [&str; 2] = ["secs_since_epoch", "nanos_since_epoch"];
/// The fields serde writes `Range` and `RangeInclusive` as.
pub(crate) const RANGE_FIELDS: [&str; 2] = ["start", "end"];

pub mod decode;
mod defs;
mod encode;
mod impls;
mod raw;
pub mod serde_field;

pub use decode::JsonDecode;
pub use defs::Definitions;
pub use encode::{JsonEncode, JsonMembers, close_members};
pub use raw::{RawValue, RawValueError};

use crate::schema::builder::{ObjectExpr, TypeExpr, constant, enumeration};
use crate::schema::{Schema, SchemaBuilder};
use serde_json::Value;
use std::borrow::Cow;

/// A Rust type whose JSON form has a schema: what `#[derive(jitson::Schema)]` implements.
///
/// Implemented for integers of every width (bounded to the type's range), `f32` (bounded to
/// its finite range) / `f64`, `bool`, `char` (a one-character string), `String`, `str`,
/// `Box<str>`, `Cow<str>`, `&T`, `Box<T>`, `Rc<T>`, `Arc<T>`, `Option<T>` (nullable, and a
/// field that may be missing), `Vec<T>`, `[T]`, `[T; N]`, `VecDeque<T>`, `LinkedList<T>`,
/// `BinaryHeap<T>`, `HashSet<T>` / `BTreeSet<T>` (arrays; serde keeps a repeated item
/// once), tuples up to 12, `()`, `HashMap` / `BTreeMap` with string, integer, `bool` or
/// `char` keys (see [`JsonKey`]), the `std::num` non-zero integers (their integer's range but
/// `0`), the `std::net` addresses (strings, parsed as serde parses them), `PathBuf` / `Path`
/// (strings), `Duration` (`{"secs": …, "nanos": …}`, or `[secs, nanos]` as serde reads it
/// too), `SystemTime` (its duration since the Unix epoch, `{"secs_since_epoch": …,
/// "nanos_since_epoch": …}`), `Range<T>` / `RangeInclusive<T>` (`{"start": …, "end": …}`),
/// [`RawValue`] and `serde_json::Value` (any JSON). A derived type's field of any other type
/// with serde's traits is read and written by serde under `#[jitson(serde)]` (see
/// [`serde_field`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON schema",
    label = "`{Self}` does not implement `jitson::typed::JsonType`",
    note = "derive it with `#[derive(jitson::Schema)]`, or use a type jitson knows (see `jitson::typed::JsonType`)"
)]
pub trait JsonType {
    /// A `'static` type standing for this one in an [`Engine`](crate::Engine)'s cache of
    /// typed codecs (by its `TypeId`, which types that borrow, like `Foo<'a>`, do not have):
    /// two types with the same `Key` must have the same schema. The derive gives each
    /// derived type a private type of its own (with its type parameters' keys); `&T` and
    /// `Box<T>` are `T::Key`, `str` and `Cow<str>` are `String`.
    type Key: 'static;

    /// Whether a struct field of this type may be missing: serde fills a missing field with
    /// `None` when the type reads an `Option` (`Option<T>`, `Box<Option<T>>`), so such a
    /// field is not required.
    const OPTIONAL: bool = false;

    /// The name of the type's `$defs` entry when it is recursive: the Rust name for derived
    /// types (the last path segment of the type's name otherwise).
    fn def_name() -> Cow<'static, str> {
        let full = std::any::type_name::<Self>();
        let base = full.split('<').next().unwrap_or(full);
        Cow::Borrowed(base.rsplit("::").next().unwrap_or(base))
    }

    /// The builder expression of the type's JSON form, registering named types in `defs`.
    fn type_expr(defs: &mut Definitions) -> TypeExpr;

    /// The canonical schema of the type.
    ///
    /// # Panics
    ///
    /// When the type has no finite JSON form: a newtype that holds only itself
    /// (`struct A(Box<A>)`), or a `#[serde(flatten)]` cycle. serde_json overflows its stack
    /// on every input for such types.
    fn schema() -> Schema {
        let (builder, root) = parts::<Self>();
        builder.build(root).unwrap_or_else(|e| {
            panic!(
                "`{}` has no JSON schema: {e}",
                std::any::type_name::<Self>()
            )
        })
    }

    /// The equivalent JSON Schema 2020-12 document (recursive types under `$defs`). Object
    /// members are sorted, as `serde_json::Value` keeps them; [`JsonType::json_schema_string`]
    /// keeps field order.
    fn json_schema() -> Value {
        let (builder, root) = parts::<Self>();
        builder.json_schema_value(&root)
    }

    /// The JSON Schema document as text, fields in declaration order: it loads back with
    /// [`Schema::from_json_str`] to a schema equal to [`JsonType::schema`] (an equivalent
    /// one when the type has `alias`es, which JSON Schema spells as a property per name and
    /// conditions that at most one, or when required exactly one, is present).
    fn json_schema_string() -> String {
        let (builder, root) = parts::<Self>();
        builder.json_schema_string(&root)
    }
}

/// A type whose JSON form is an object with named fields: what `#[serde(flatten)]` (and a
/// newtype variant of an internally tagged enum) can take. Derived for structs with named
/// fields; implemented for string-keyed maps (their entries become the extra members) and
/// `Box<T>`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened into an object",
    label = "not a struct with named fields or a string-keyed map",
    note = "#[serde(flatten)] and internally tagged newtype variants need a struct with named fields or a map with string keys"
)]
pub trait JsonObject: JsonType {
    /// The object's fields and unknown-member policy.
    fn object_expr(defs: &mut Definitions) -> ObjectExpr;
}

/// A map key type: serde_json writes it as a JSON object key and reads it back. Strings
/// are the key itself; integers their decimal digits (`{"12": …}`), which serde_json reads
/// as a JSON number filling the whole key; `bool` the name `true` or `false` (exactly,
/// without escapes); `char` a one-character name.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a supported map key",
    note = "jitson maps take string keys (String, Box<str>, Cow<str>, &str), integer, bool and char keys"
)]
pub trait JsonKey {
    /// Appends the key as a JSON string (quoted, escaped).
    fn encode_key(&self, out: &mut Vec<u8>);
}

/// The schema of a tag value: exactly the string `value` (`{"const": value}`).
pub fn tag(value: &str) -> TypeExpr {
    constant(Value::String(value.to_owned()))
}

/// The schema of unit variants written as strings: one of `values` (`{"enum": [...]}`).
pub fn names(values: &[&str]) -> TypeExpr {
    enumeration(values.iter().map(|v| Value::String((*v).to_owned())))
}

/// The definitions and root expression of `T`.
fn parts<T: JsonType + ?Sized>() -> (SchemaBuilder, TypeExpr) {
    let mut defs = Definitions::new();
    let root = T::type_expr(&mut defs);
    (defs.into_builder(), root)
}

//! jitson: a runtime JIT JSON codec engine.
//!
//! A program hands jitson a schema while it runs; jitson lowers it to an opcode program,
//! compiles that to native decode / encode / validate code, and runs the byte-level work in
//! AVX2 kernels with scalar twins. This facade is the only crate users name; today it exposes
//! the schema model ([`schema`]), the schema-less value tree ([`value`]), the error type
//! ([`Error`]), the byte kernels ([`kernels`]) and the kernel entry-point table the JIT links
//! against ([`jit`]), and the schema engine: [`Codec`] ([`engine`]) over the resolver
//! ([`resolve`]), the opcode interpreter and the Cranelift backend, and [`Engine`], the codec
//! cache with tiering; lazy access to raw JSON by path ([`lazy`]); and Rust types with a
//! JSON shape, `#[derive(jitson::Schema)]` ([`typed`]).

pub use jitson_jit as jit;
pub use jitson_kernels as kernels;

mod deep;
pub mod document;
pub mod engine;
pub mod error;
mod json_pointer;
pub mod lazy;
pub mod path;
pub mod position;
pub mod registry;
pub mod resolve;
pub mod schema;
pub mod typed;
pub mod value;

pub use document::{DocPath, Document};
pub use engine::{Cache, Codec, Engine, Options};
pub use error::{Error, ErrorKind, Keyword, SyntaxKind};
/// `#[derive(jitson::Schema)]`: implements [`typed::JsonType`] (a derive macro lives in the
/// macro namespace, so it shares the name of the [`Schema`](struct@Schema) struct without a clash).
pub use jitson_derive::Schema;
pub use path::{Path, Segment};
pub use position::Position;
pub use schema::{Schema, SchemaError, TypeDesc, TypeKey, ValidationError};
pub use typed::{JsonEncode, JsonType, RawValue};
pub use value::{ParseOptions, Value};

/// Decodes `input` into a `T` with the process-wide [`Engine`] ([`engine::global`]), which
/// compiles `T`'s codec on first use (see [`Engine::decode`]).
///
/// ```
/// #[derive(serde::Deserialize, jitson::Schema, Debug)]
/// struct Point { x: i32, y: i32 }
///
/// let p: Point = jitson::from_slice(br#"{"x": 1, "y": -2}"#).unwrap();
/// assert_eq!((p.x, p.y), (1, -2));
/// let e = jitson::from_slice::<Point>(br#"{"x": 1}"#).unwrap_err();
/// assert_eq!(e.to_string(), r#"missing required field "y" at line 1 column 8, path $, keyword required"#);
/// ```
pub fn from_slice<'a, T>(input: &'a [u8]) -> Result<T, Error>
where
    T: JsonType + typed::JsonDecode<'a> + serde::Deserialize<'a>,
{
    engine::global().decode(input)
}

/// The JSON of `value`: the bytes `serde_json::to_vec` writes for it, by its derived
/// [`JsonEncode`].
///
/// ```
/// #[derive(serde::Serialize, jitson::Schema)]
/// #[serde(rename_all = "camelCase")]
/// struct Point { x_pos: i32, label: Option<String> }
///
/// let p = Point { x_pos: -2, label: Some("a\"b".into()) };
/// assert_eq!(jitson::to_vec(&p), serde_json::to_vec(&p).unwrap());
/// assert_eq!(jitson::to_vec(&p), br#"{"xPos":-2,"label":"a\"b"}"#);
/// ```
pub fn to_vec<T: typed::JsonEncode + ?Sized>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.encode_json(&mut out);
    out
}

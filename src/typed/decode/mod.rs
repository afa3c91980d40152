//! Typed decode in one pass: [`JsonDecode`], which `#[derive(jitson::Schema)]` implements,
//! reads a Rust value straight from the input with a [`Reader`], and [`read`] runs it over a
//! whole input.
//!
//! A reader only *accepts*: it builds the value when the input is one it can take, and
//! answers [`Bail`] otherwise. It takes every well-formed input the type's schema accepts in
//! the forms serde_json writes (members in any order, any whitespace, unknown members where
//! the type allows them); it bails on anything else — malformed JSON, a schema failure, a
//! member name or string key holding an escape, a repeated member or map key, an integer
//! field given `1.0`, a `&str` field given an escape, nesting at the codec's limit — and
//! on the shapes it leaves to the codec (untagged enums, `flatten`, internally tagged
//! newtype variants, and tagged enums whose tag member does not come first). [`Engine::decode`](crate::Engine::decode)
//! then runs the two-pass decode (the codec's, then serde's over the document), which gives
//! the value or the error with its position and path. So a bail costs time, never an
//! answer: the reader and the two-pass decode agree on every input they both answer, which
//! the typed tests check on every document and mutation.

mod impls;
mod reader;

pub use impls::{JsonDecodeKey, borrowed_cow};
pub use reader::{RawStr, Reader};

use jitson_jit::ir::ExecOptions;

/// The input is not one the typed reader takes (see the [module documentation](self)):
/// decode falls back to the codec, which gives the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bail;

/// A Rust type read straight from JSON text: the one-pass half of typed decode. Derived by
/// `#[derive(jitson::Schema)]` (following the same serde attributes as the schema), and
/// implemented for the standard types [`JsonType`](super::JsonType) covers.
pub trait JsonDecode<'de>: Sized {
    /// Reads one value at the reader's position.
    fn decode_json(reader: &mut Reader<'de>) -> Result<Self, Bail>;

    /// The value of a struct field of this type that the input leaves out, when serde
    /// gives it one without `#[serde(default)]` (`None` for an `Option`).
    #[inline]
    fn missing() -> Result<Self, Bail> {
        Err(Bail)
    }
}

/// Reads all of `input` as a `T` under the codec's `options`: the value, or [`Bail`] when
/// the two-pass decode must answer.
pub fn read<'de, T: JsonDecode<'de>>(input: &'de [u8], options: &ExecOptions) -> Result<T, Bail> {
    let mut reader = Reader::new(input, options);
    let value = T::decode_json(&mut reader)?;
    reader.finish()?;
    Ok(value)
}

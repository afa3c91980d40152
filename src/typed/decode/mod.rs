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
//! on the shapes it leaves to the codec (the untagged enums, flattened fields and tagged
//! variants described below). [`Engine::decode`](crate::Engine::decode)
//! then runs the two-pass decode (the codec's, then serde's over the document), which gives
//! the value or the error with its position and path. So a bail costs time, never an
//! answer: the reader and the two-pass decode agree on every input they both answer, which
//! the typed tests check on every document and mutation.
//!
//! An untagged enum is read in one pass when the kind of the value (its first byte: object,
//! array, string, number, `true`/`false`, `null`) tells which variant serde would take. serde
//! buffers the value and tries the variants in order, keeping the first that accepts it; the
//! reader tries only the first variant whose type may accept a value of that kind
//! ([`JsonDecode::kinds`], an over-approximation, so every earlier variant surely refuses
//! it). When that variant refuses the value, the reader goes back to the value's start and
//! tries the next candidate if the refusal is serde's too ([`JsonDecode::exact_bail`]: a
//! `u8` refusing `300` or `2.5`), and bails otherwise. So `enum Id { Number(u64),
//! Name(String) }` and `enum N { Int(i64), Float(f64) }` are read in one pass, and of two
//! struct variants the first is, when it takes the value.
//!
//! A struct's flattened fields are read member by member ([`JsonDecodeMembers`]) from the
//! members its own fields do not name, in serde's order; the shapes serde reads otherwise
//! (a map before another flattened field, a flattened struct that flattens or is tagged)
//! bail. An internally tagged newtype variant reads its object's other members the same
//! way, as its type's members.
//!
//! A tagged enum's tag member may come anywhere, as serde reads it. When a tagged enum's
//! object starts with another member, [`Reader::open_tagged`] reads the tag's value ahead
//! (passing over the members before it), and the object's members are then read from the
//! first, the tag passed over. serde reads an internally tagged variant from its buffered
//! copy of the members either way, and an adjacently tagged enum's content from its
//! buffered copy when the content comes before the tag: so does the reader.

mod impls;
mod reader;

pub(crate) use impls::numeric_key;
pub use impls::{JsonDecodeKey, borrowed_cow};
pub use reader::{RawStr, Reader};

use jitson_jit::ir::ExecOptions;

/// A set of JSON value kinds: what [`JsonDecode::kinds`] answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonKinds(u8);

impl JsonKinds {
    /// No kind.
    pub const NONE: JsonKinds = JsonKinds(0);
    /// `null`.
    pub const NULL: JsonKinds = JsonKinds(1);
    /// `true` and `false`.
    pub const BOOL: JsonKinds = JsonKinds(1 << 1);
    /// Numbers.
    pub const NUMBER: JsonKinds = JsonKinds(1 << 2);
    /// Strings.
    pub const STRING: JsonKinds = JsonKinds(1 << 3);
    /// Arrays.
    pub const ARRAY: JsonKinds = JsonKinds(1 << 4);
    /// Objects.
    pub const OBJECT: JsonKinds = JsonKinds(1 << 5);
    /// Every kind.
    pub const ANY: JsonKinds = JsonKinds(0x3f);
    /// How deep [`JsonDecode::kinds`] follows newtypes before answering [`JsonKinds::ANY`].
    pub const DEPTH: u32 = 8;

    /// The kind of the value a token starting with `byte` begins ([`JsonKinds::NONE`] for a
    /// byte no value starts with, or the end of the input).
    #[inline]
    pub fn of_first_byte(byte: Option<u8>) -> JsonKinds {
        match byte {
            Some(b'n') => JsonKinds::NULL,
            Some(b't' | b'f') => JsonKinds::BOOL,
            Some(b'-' | b'0'..=b'9') => JsonKinds::NUMBER,
            Some(b'"') => JsonKinds::STRING,
            Some(b'[') => JsonKinds::ARRAY,
            Some(b'{') => JsonKinds::OBJECT,
            _ => JsonKinds::NONE,
        }
    }

    /// The kinds in either set.
    #[inline]
    pub const fn or(self, other: JsonKinds) -> JsonKinds {
        JsonKinds(self.0 | other.0)
    }

    /// Whether every kind of `other` is in `self` (and `other` is not empty).
    #[inline]
    pub const fn contains(self, other: JsonKinds) -> bool {
        other.0 != 0 && self.0 & other.0 == other.0
    }
}

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

    /// The kinds of JSON value serde's `Deserialize` for this type may accept from a
    /// buffered value (an untagged enum's variant): a superset, [`JsonKinds::ANY`] when
    /// unsure. An untagged enum skips a variant whose kinds leave out the value's, so a
    /// kind missing here would make it pick a later variant than serde. `depth` bounds the
    /// recursion through newtypes; at 0 the answer is `ANY`.
    #[inline]
    fn kinds(depth: u32) -> JsonKinds {
        let _ = depth;
        JsonKinds::ANY
    }

    /// Whether this type's reader bails only where serde's `Deserialize` refuses the value
    /// too, from a buffered value as from the text (or where the codec refuses the input):
    /// true for most scalars, whose readers bail on nothing else. An untagged enum whose
    /// variant of this type bails then tries its next variant, as serde does, instead of
    /// leaving the value to the codec. `depth` bounds the recursion through newtypes; at 0
    /// the answer is `false`.
    #[inline]
    fn exact_bail(depth: u32) -> bool {
        let _ = depth;
        false
    }
}

/// A type a struct flattens (`#[serde(flatten)]`), read member by member as the flattening
/// struct meets its members: the one-pass half of `flatten`, and of internally tagged
/// newtype variants (the object's members besides the tag). Derived for structs with
/// named fields, implemented for maps.
///
/// serde reads a flattening struct as a map, buffers the members none of its own fields
/// name, then hands them to its flattened fields in declaration order: a struct takes the
/// members its fields name (aliases included), a map every member still there. The reader
/// offers each such member to the flattened fields in that order, so the first that takes
/// it is serde's. A flattened map followed by another flattened field, or a type that
/// cannot be read so ([`JsonDecodeMembers::MEMBERWISE`]), makes the flattening struct bail.
pub trait JsonDecodeMembers<'de>: Sized {
    /// The members read so far.
    type Partial;
    /// Whether the type is read member by member (a struct that flattens or is tagged
    /// itself is not: serde hands it the members differently).
    const MEMBERWISE: bool;
    /// Whether the type takes every member it is offered (a map).
    const TAKES_ALL: bool;
    /// Whether a member the type does not take is an error when serde reads the type from
    /// a whole object (`deny_unknown_fields`), as an internally tagged newtype variant's.
    const DENY_UNKNOWN: bool;

    /// No member read yet.
    fn start() -> Self::Partial;

    /// Reads the member named `key`, whose value is next at the reader, into `partial` when
    /// the type takes it (`true`); reads nothing when it does not (`false`). A second
    /// member for one field bails, as serde refuses it.
    fn decode_member(
        partial: &mut Self::Partial,
        key: &'de str,
        reader: &mut Reader<'de>,
    ) -> Result<bool, Bail>;

    /// The value of the members read (the defaults of the fields no member named).
    fn finish(partial: Self::Partial) -> Result<Self, Bail>;
}

/// Reads all of `input` as a `T` under the codec's `options`: the value, or [`Bail`] when
/// the two-pass decode must answer.
pub fn read<'de, T: JsonDecode<'de>>(input: &'de [u8], options: &ExecOptions) -> Result<T, Bail> {
    let mut reader = Reader::new(input, options);
    let value = T::decode_json(&mut reader)?;
    reader.finish()?;
    Ok(value)
}

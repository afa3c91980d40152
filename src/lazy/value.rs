//! [`LazyValue`]: one value of a document as its raw slice, with accessors that parse only
//! that slice.

use std::borrow::Cow;

use jitson_kernels::float_parse::{FloatOverflow, parse_f64};
use jitson_kernels::int_parse::{parse_i64, parse_u64};
use jitson_kernels::unescape::{Surrogates, unescape};

use super::Options;
use super::iter::{ArrayIter, ObjectIter};
use crate::document::Document;
use crate::engine::Codec;
use crate::error::Error;
use crate::value::{self, BigNumbers, Bump, ParseOptions, Value};

/// What kind of value a [`LazyValue`] holds, from its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// One value of a document: its raw bytes (no surrounding whitespace) and where they sit.
///
/// In [`super::Mode::Checked`] the value was validated when it was found, so its accessors
/// only fail for what the target type cannot hold. In [`super::Mode::Unchecked`] only its
/// brackets were balanced: accessors parse the slice and answer `None` (or an error) when it
/// is not what it looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LazyValue<'a> {
    doc: &'a [u8],
    start: usize,
    end: usize,
    options: Options,
}

impl<'a> LazyValue<'a> {
    /// The value at `doc[start..end]`, found with `options`.
    pub(super) fn new(doc: &'a [u8], start: usize, end: usize, options: Options) -> Self {
        LazyValue {
            doc,
            start,
            end,
            options,
        }
    }

    /// The document this value belongs to.
    pub(super) fn doc(&self) -> &'a [u8] {
        self.doc
    }

    /// The options the value was found with.
    pub(super) fn options(&self) -> Options {
        self.options
    }

    /// The value's bytes, exactly as in the document.
    pub fn raw(&self) -> &'a [u8] {
        &self.doc[self.start..self.end]
    }

    /// Where the value starts in the document (byte offset).
    pub fn offset(&self) -> usize {
        self.start
    }

    /// The value's kind, from its first byte (a malformed value of an unchecked walk is
    /// reported by the kind its first byte announces; numbers are everything else).
    pub fn kind(&self) -> Kind {
        match self.raw().first() {
            Some(b'n') => Kind::Null,
            Some(b't' | b'f') => Kind::Bool,
            Some(b'"') => Kind::String,
            Some(b'[') => Kind::Array,
            Some(b'{') => Kind::Object,
            _ => Kind::Number,
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        self.raw() == b"null"
    }

    /// The boolean, for `true` and `false`.
    pub fn as_bool(&self) -> Option<bool> {
        match self.raw() {
            b"true" => Some(true),
            b"false" => Some(false),
            _ => None,
        }
    }

    /// The integer, when the value is an integer that fits `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        whole(self.raw(), parse_u64)
    }

    /// The integer, when the value is an integer that fits `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        whole(self.raw(), parse_i64)
    }

    /// Any number as the nearest `f64` (`None` beyond the range of `f64`).
    pub fn as_f64(&self) -> Option<f64> {
        whole(self.raw(), |raw, pos| {
            parse_f64(raw, pos, FloatOverflow::Error)
        })
    }

    /// The text of a string: borrowed from the document when it has no escapes, unescaped
    /// into a new `String` otherwise. `None` for other kinds (and malformed strings).
    pub fn as_str(&self) -> Option<Cow<'a, str>> {
        let body = self.raw().strip_prefix(b"\"")?.strip_suffix(b"\"")?;
        decode_str(body)
    }

    /// The elements of an array, lazily; `None` for other kinds.
    pub fn array_iter(&self) -> Option<ArrayIter<'a>> {
        (self.kind() == Kind::Array).then(|| ArrayIter::new(*self))
    }

    /// The members of an object, lazily; `None` for other kinds.
    pub fn object_iter(&self) -> Option<ObjectIter<'a>> {
        (self.kind() == Kind::Object).then(|| ObjectIter::new(*self))
    }

    /// The value parsed into `arena` as a generic [`Value`] (big numbers as serde_json
    /// reads them: the nearest `f64`, an error beyond its range). An error's offset is in
    /// the document; its path is relative to this value.
    pub fn to_value<'b>(&self, arena: &'b Bump) -> Result<Value<'b>, Error>
    where
        'a: 'b,
    {
        self.parse(arena, BigNumbers::Float)
    }

    /// The value as a `serde_json::Value`: parsed by [`Self::to_value`] with big numbers kept
    /// raw, then converted ([`Value::to_serde`]), so it never fails where serde_json's own
    /// parser would succeed.
    pub fn to_serde_json(&self) -> Result<serde_json::Value, Error> {
        let arena = Bump::new();
        Ok(self.parse(&arena, BigNumbers::Raw)?.to_serde())
    }

    /// Checks the value against a compiled schema (error positions are in the value's own
    /// text, [`LazyValue::raw`]).
    pub fn validate(&self, codec: &Codec) -> Result<(), Error> {
        codec.validate(self.raw())
    }

    /// Decodes the value through a compiled schema into a typed [`Document`] that borrows
    /// the input (error positions are in the value's own text, [`LazyValue::raw`]).
    pub fn decode(&self, codec: &Codec) -> Result<Document<'a>, Error> {
        codec.decode(self.raw())
    }

    /// The slice parsed into `arena` with `big_numbers`; errors moved to document offsets.
    fn parse<'b>(&self, arena: &'b Bump, big_numbers: BigNumbers) -> Result<Value<'b>, Error>
    where
        'a: 'b,
    {
        let options = ParseOptions::new()
            .max_depth(self.options.get_max_depth())
            .big_numbers(big_numbers);
        value::parse_with(self.raw(), arena, &options).map_err(|e| {
            Error::new(
                e.kind(),
                self.doc,
                self.start + e.offset(),
                e.path().clone(),
            )
        })
    }
}

/// `parse(raw, 0)`'s value when it reads all of `raw`.
fn whole<T, E>(raw: &[u8], parse: impl Fn(&[u8], usize) -> Result<(T, usize), E>) -> Option<T> {
    match parse(raw, 0) {
        Ok((value, end)) if end == raw.len() => Some(value),
        _ => None,
    }
}

/// A string body as text: borrowed when it has no escapes, else unescaped; `None` when it
/// is not valid (bad escapes or UTF-8, which only an unchecked walk lets through).
pub(super) fn decode_str(body: &[u8]) -> Option<Cow<'_, str>> {
    if !body.contains(&b'\\') {
        return simdutf8::basic::from_utf8(body).ok().map(Cow::Borrowed);
    }
    let mut out = Vec::with_capacity(body.len());
    unescape(body, &mut out, Surrogates::Strict).ok()?;
    String::from_utf8(out).ok().map(Cow::Owned)
}

//! The schema-less path: any JSON document parsed into an arena-allocated [`Value`] tree.
//!
//! ```
//! use jitson::value::{self, Bump, Value};
//!
//! let input = br#"{"statuses": [{"id": 7, "text": "caf\u00e9"}], "ok": true}"#;
//! let arena = Bump::new();
//! let doc = value::parse(input, &arena)?;
//! assert_eq!(doc["statuses"][0]["id"].as_u64(), Some(7));
//! assert_eq!(doc.pointer("/statuses/0/text").and_then(Value::as_str), Some("café"));
//! assert_eq!(doc.to_string(), r#"{"statuses":[{"id":7,"text":"café"}],"ok":true}"#);
//! # Ok::<(), jitson::Error>(())
//! ```
//!
//! # Data model
//!
//! - Everything lives in a [`bumpalo::Bump`] arena the caller owns, or in the input: a
//!   string without escapes is a slice of the input (zero copy), a string with escapes is
//!   unescaped into the arena ([`Str`]). Arrays are arena slices of values; objects are
//!   arena slices of `(key, value)` [`Member`]s **in document order**.
//! - Numbers: a non-negative integer that fits `u64` is [`Value::U64`]; a negative one that
//!   fits `i64` is [`Value::I64`]; anything with a fraction or exponent is [`Value::F64`]
//!   (correctly rounded). `-0` is the float `-0.0` (an integer cannot keep its sign), as in
//!   serde_json. Numbers beyond 64 bits follow [`BigNumbers`].
//! - Repeated keys follow [`DuplicateKeys`] (by default the last value wins, at the first
//!   key's position).
//!
//! The parser is iterative (an explicit stack: no input can overflow the native stack) and
//! runs on the byte kernels of `jitson-kernels`; the writer ([`WriteOptions`]) and the
//! conversions to and from `serde_json::Value` are iterative too. `Value`'s derived `Debug`
//! recurses once per nesting level (bounded by [`ParseOptions::max_depth`] for parsed
//! values).

mod convert;
mod keys;
mod options;
mod parse;
mod strings;
mod write;

use std::fmt;
use std::ops::{Deref, Index};

use crate::json_pointer;
use jitson_kernels::float_parse;

pub use bumpalo::Bump;
pub(crate) use convert::serde_of_text;
pub use jitson_kernels::escape::EscapeMode;
pub use options::{BigNumbers, DEFAULT_MAX_DEPTH, DuplicateKeys, ParseOptions};
pub use parse::{parse, parse_with};
pub use write::WriteOptions;

/// A JSON value whose strings, arrays and objects live in an arena or in the input, for the
/// lifetime `'a` of both.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A non-negative integer up to `u64::MAX`.
    U64(u64),
    /// A negative integer down to `i64::MIN`.
    I64(i64),
    /// A number with a fraction or exponent, `-0`, or (by default) an integer beyond 64 bits.
    F64(f64),
    /// The raw token of a number no 64-bit type holds, kept with [`BigNumbers::Raw`].
    BigNumber(&'a str),
    /// A string.
    String(Str<'a>),
    /// An array.
    Array(&'a [Value<'a>]),
    /// An object: its members in document order, one per key.
    Object(&'a [Member<'a>]),
}

/// One member of an object: its key and its value.
pub type Member<'a> = (Str<'a>, Value<'a>);

/// A decoded string: a slice of the input when the JSON string had no escapes (zero copy),
/// or the unescaped text copied into the arena. It dereferences to `str`;
/// [`Str::offset_in`] tells which of the two it is.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Str<'a>(&'a str);

impl<'a> Str<'a> {
    /// A `Str` over `text`.
    pub const fn new(text: &'a str) -> Str<'a> {
        Str(text)
    }

    /// The text, for the whole lifetime `'a`.
    pub const fn as_str(&self) -> &'a str {
        self.0
    }

    /// Where the text starts in `input` when it is a slice of it (the string was copied
    /// from the input without change); `None` when it lives elsewhere (in the arena).
    pub fn offset_in(&self, input: &[u8]) -> Option<usize> {
        let range = input.as_ptr_range();
        let start = self.0.as_ptr();
        let inside = range.start <= start && start.wrapping_add(self.0.len()) <= range.end;
        inside.then(|| start as usize - range.start as usize)
    }
}

impl Deref for Str<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        self.0
    }
}

impl AsRef<str> for Str<'_> {
    fn as_ref(&self) -> &str {
        self.0
    }
}

impl<'a> From<&'a str> for Str<'a> {
    fn from(text: &'a str) -> Str<'a> {
        Str(text)
    }
}

impl PartialEq<str> for Str<'_> {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Str<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl fmt::Debug for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Display for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// What indexing returns for a missing key or index.
static NULL: Value<'static> = Value::Null;

impl<'a> Value<'a> {
    /// True for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// True for every kind of number.
    pub fn is_number(&self) -> bool {
        matches!(
            self,
            Value::U64(_) | Value::I64(_) | Value::F64(_) | Value::BigNumber(_)
        )
    }

    /// The boolean, for `true` and `false`.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The integer, when it is one that fits `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::U64(n) => Some(n),
            Value::I64(n) => u64::try_from(n).ok(),
            _ => None,
        }
    }

    /// The integer, when it is one that fits `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::I64(n) => Some(n),
            Value::U64(n) => i64::try_from(n).ok(),
            _ => None,
        }
    }

    /// Any number as the nearest `f64` (a [`Value::BigNumber`] beyond the range of `f64`
    /// becomes an infinity).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::U64(n) => Some(n as f64),
            Value::I64(n) => Some(n as f64),
            Value::F64(n) => Some(n),
            Value::BigNumber(raw) => float_parse::nearest(raw.as_bytes()),
            _ => None,
        }
    }

    /// The text of a string.
    pub fn as_str(&self) -> Option<&'a str> {
        match *self {
            Value::String(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// The elements of an array.
    pub fn as_array(&self) -> Option<&'a [Value<'a>]> {
        match *self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members of an object, in document order.
    pub fn as_object(&self) -> Option<&'a [Member<'a>]> {
        match *self {
            Value::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The value of the member `key`, when this is an object that has one.
    pub fn get(&self, key: &str) -> Option<&'a Value<'a>> {
        self.as_object()?
            .iter()
            .find(|(k, _)| k.as_str() == key)
            .map(|(_, v)| v)
    }

    /// The element at `index`, when this is an array that long.
    pub fn get_index(&self, index: usize) -> Option<&'a Value<'a>> {
        self.as_array()?.get(index)
    }

    /// The value an RFC 6901 JSON Pointer names: `""` is this value, `"/a/0"` the first
    /// element of member `a`; `~1` stands for `/` and `~0` for `~` in reference tokens.
    /// `None` when nothing is there, or the pointer is malformed (no leading `/`, a `~` not
    /// followed by `0` or `1`, an array index with a leading zero or `-`).
    pub fn pointer(&self, pointer: &str) -> Option<&Value<'a>> {
        if pointer.is_empty() {
            return Some(self);
        }
        let mut current = self;
        for token in json_pointer::raw_tokens(pointer)? {
            current = match current {
                Value::Object(_) => current.get(&json_pointer::unescape(token)?)?,
                Value::Array(_) => current.get_index(json_pointer::index(token)?)?,
                _ => return None,
            };
        }
        Some(current)
    }
}

impl<'a> Index<&str> for Value<'a> {
    type Output = Value<'a>;

    /// The member `key`, or `null` when there is none (as serde_json's `Value` does).
    fn index(&self, key: &str) -> &Value<'a> {
        self.get(key).unwrap_or(&NULL)
    }
}

impl<'a> Index<usize> for Value<'a> {
    type Output = Value<'a>;

    /// The element at `index`, or `null` when there is none (as serde_json's `Value` does).
    fn index(&self, index: usize) -> &Value<'a> {
        self.get_index(index).unwrap_or(&NULL)
    }
}

/// Structural equality, iterative (no recursion): objects compare member by member in
/// order; `U64` and `I64` holding the same integer are equal; floats compare as `f64`
/// (`-0.0 == 0.0`) and never equal an integer, as in serde_json.
impl PartialEq for Value<'_> {
    fn eq(&self, other: &Value<'_>) -> bool {
        let mut pending = vec![(self, other)];
        while let Some((a, b)) = pending.pop() {
            let same = match (*a, *b) {
                (Value::Array(x), Value::Array(y)) => {
                    x.len() == y.len() && {
                        pending.extend(x.iter().zip(y));
                        true
                    }
                }
                (Value::Object(x), Value::Object(y)) => {
                    x.len() == y.len()
                        && x.iter().zip(y).all(|((kx, vx), (ky, vy))| {
                            pending.push((vx, vy));
                            kx == ky
                        })
                }
                (x, y) => scalars_equal(x, y),
            };
            if !same {
                return false;
            }
        }
        true
    }
}

/// Equality of two values that are not both arrays or both objects.
fn scalars_equal(a: Value<'_>, b: Value<'_>) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::U64(_) | Value::I64(_), Value::U64(_) | Value::I64(_)) => {
            a.as_i64() == b.as_i64() && a.as_u64() == b.as_u64()
        }
        (Value::F64(x), Value::F64(y)) => x == y,
        (Value::BigNumber(x), Value::BigNumber(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        _ => false,
    }
}

/// Compact JSON, as [`WriteOptions::new`] writes it (serde_json's `Value` prints the same
/// way).
impl fmt::Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.to_vec();
        f.write_str(&String::from_utf8_lossy(&bytes))
    }
}

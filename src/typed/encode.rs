//! [`JsonEncode`]: a Rust value's JSON writer, the bytes `serde_json::to_vec` writes for it,
//! and its implementations for the standard types `JsonType` covers.
//!
//! Numbers and strings go through the kernels serde_json's output is checked against:
//! `int_format` (integers), `float_format` (shortest round trip; `f32` with its own digits;
//! NaN and infinities as `null`) and `escape` in [`EscapeMode::Minimal`], the mode that writes
//! serde_json's escapes. Containers are written with a trailing comma after every element,
//! which [`close_members`] turns into the closing bracket, so no element needs a "first?"
//! test.

use crate::typed::{DURATION_FIELDS, JsonKey, RANGE_FIELDS, RawValue, SYSTEM_TIME_FIELDS};
use jitson_kernels::append::{append_f32, append_f64, append_i64, append_u64};
use jitson_kernels::escape::{EscapeMode, escape_str};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::BuildHasher;
use std::marker::PhantomData;
use std::ops::{Range, RangeInclusive};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A Rust value's JSON writer: the bytes serde_json::to_vec writes for it (compact).
///
/// Implemented for every type [`JsonType`](crate::typed::JsonType) covers, and derived by
/// `#[derive(jitson::Schema)]` (honouring the same `#[serde(...)]` attributes serde's
/// `Serialize` does).
///
/// ```
/// use jitson::typed::JsonEncode;
///
/// #[derive(jitson::Schema)]
/// #[serde(rename_all = "camelCase")]
/// struct Point {
///     x_pos: f32,
///     #[serde(skip_serializing_if = "Option::is_none")]
///     label: Option<String>,
/// }
///
/// let mut out = Vec::new();
/// Point { x_pos: 0.1, label: None }.encode_json(&mut out);
/// assert_eq!(out, br#"{"xPos":0.1}"#);
/// ```
///
/// # Panics
///
/// Where serde_json returns an error, `encode_json` panics with the same message: a derived
/// enum's variant skipped when written (it has no JSON form), a `Path` that is not UTF-8, a
/// `SystemTime` before the Unix epoch, a field written through serde
/// ([`serde_field`](super::serde_field)) whose `Serialize` fails.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON encoder",
    label = "`{Self}` does not implement `jitson::typed::JsonEncode`",
    note = "derive it with `#[derive(jitson::Schema)]`, or use a type jitson knows (see `jitson::typed::JsonType`)"
)]
pub trait JsonEncode {
    /// Appends the value's JSON to `out`.
    fn encode_json(&self, out: &mut Vec<u8>);
}

/// The members of a JSON object without its braces: what `#[serde(flatten)]` and an
/// internally tagged newtype variant write of the inner value. Derived for structs with named
/// fields (like [`JsonObject`](crate::typed::JsonObject)); implemented for string-keyed maps
/// and `Box<T>`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened into an object",
    label = "not a struct with named fields or a string-keyed map"
)]
pub trait JsonMembers {
    /// Appends the members as `"name":value,`, every member followed by a comma (the
    /// enclosing object's writer closes with [`close_members`]).
    fn encode_members(&self, out: &mut Vec<u8>);
}

/// Ends a container whose elements were each written with a trailing comma: the last comma
/// becomes `close` (`}` or `]`), or `close` follows the opening bracket of an empty one.
#[inline]
pub fn close_members(out: &mut Vec<u8>, close: u8) {
    match out.last_mut() {
        Some(last @ b',') => *last = close,
        _ => out.push(close),
    }
}

/// Appends `s` as a JSON string, escaped as serde_json escapes it.
#[inline]
fn encode_str(s: &str, out: &mut Vec<u8>) {
    escape_str(s, EscapeMode::Minimal, out);
}

/// Integers of at most 64 bits, through the kernel of their signedness.
macro_rules! integers {
    ($($t:ty => $write:ident as $wide:ty;)*) => {$(
        impl JsonEncode for $t {
            #[inline]
            fn encode_json(&self, out: &mut Vec<u8>) {
                $write(*self as $wide, out);
            }
        }
    )*};
}

integers! {
    u8 => append_u64 as u64;
    u16 => append_u64 as u64;
    u32 => append_u64 as u64;
    u64 => append_u64 as u64;
    usize => append_u64 as u64;
    i8 => append_i64 as i64;
    i16 => append_i64 as i64;
    i32 => append_i64 as i64;
    i64 => append_i64 as i64;
    isize => append_i64 as i64;
}

/// 128-bit integers: the 64-bit kernel when the value fits, else the standard library's
/// decimal form.
macro_rules! wide_integers {
    ($($t:ty => $write:ident as $narrow:ty;)*) => {$(
        impl JsonEncode for $t {
            #[inline]
            fn encode_json(&self, out: &mut Vec<u8>) {
                match <$narrow>::try_from(*self) {
                    Ok(v) => $write(v, out),
                    Err(_) => out.extend_from_slice(self.to_string().as_bytes()),
                }
            }
        }
    )*};
}

wide_integers! {
    u128 => append_u64 as u64;
    i128 => append_i64 as i64;
}

impl JsonEncode for f64 {
    #[inline]
    fn encode_json(&self, out: &mut Vec<u8>) {
        append_f64(*self, out);
    }
}

impl JsonEncode for f32 {
    #[inline]
    fn encode_json(&self, out: &mut Vec<u8>) {
        append_f32(*self, out);
    }
}

impl JsonEncode for bool {
    #[inline]
    fn encode_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
    }
}

/// A one-character string.
impl JsonEncode for char {
    #[inline]
    fn encode_json(&self, out: &mut Vec<u8>) {
        encode_str(self.encode_utf8(&mut [0; 4]), out);
    }
}

impl JsonEncode for str {
    #[inline]
    fn encode_json(&self, out: &mut Vec<u8>) {
        encode_str(self, out);
    }
}

/// Owned and borrowed strings: the text they hold.
macro_rules! strings {
    ($($t:ty),*) => {$(
        impl JsonEncode for $t {
            #[inline]
            fn encode_json(&self, out: &mut Vec<u8>) {
                encode_str(self, out);
            }
        }
    )*};
}

strings!(String, Cow<'_, str>);

/// Paths: their text, as serde writes them.
///
/// # Panics
///
/// When the path is not UTF-8, which serde refuses to write.
impl JsonEncode for Path {
    #[inline]
    fn encode_json(&self, out: &mut Vec<u8>) {
        let text = self
            .to_str()
            .expect("path contains invalid UTF-8 characters");
        encode_str(text, out);
    }
}

impl JsonEncode for PathBuf {
    #[inline]
    fn encode_json(&self, out: &mut Vec<u8>) {
        self.as_path().encode_json(out);
    }
}

/// Appends the object serde writes for a struct of two fields.
fn encode_field_pair(
    [first, second]: [&str; 2],
    a: &(impl JsonEncode + ?Sized),
    b: &(impl JsonEncode + ?Sized),
    out: &mut Vec<u8>,
) {
    out.push(b'{');
    encode_str(first, out);
    out.push(b':');
    a.encode_json(out);
    out.push(b',');
    encode_str(second, out);
    out.push(b':');
    b.encode_json(out);
    out.push(b'}');
}

impl JsonEncode for Duration {
    fn encode_json(&self, out: &mut Vec<u8>) {
        encode_field_pair(DURATION_FIELDS, &self.as_secs(), &self.subsec_nanos(), out);
    }
}

/// The time since the Unix epoch.
///
/// # Panics
///
/// When the time is before the epoch, which serde refuses to write.
impl JsonEncode for SystemTime {
    fn encode_json(&self, out: &mut Vec<u8>) {
        let since = self
            .duration_since(UNIX_EPOCH)
            .expect("SystemTime must be later than UNIX_EPOCH");
        encode_field_pair(
            SYSTEM_TIME_FIELDS,
            &since.as_secs(),
            &since.subsec_nanos(),
            out,
        );
    }
}

impl<T: JsonEncode> JsonEncode for Range<T> {
    fn encode_json(&self, out: &mut Vec<u8>) {
        encode_field_pair(RANGE_FIELDS, &self.start, &self.end, out);
    }
}

impl<T: JsonEncode> JsonEncode for RangeInclusive<T> {
    fn encode_json(&self, out: &mut Vec<u8>) {
        encode_field_pair(RANGE_FIELDS, self.start(), self.end(), out);
    }
}

/// serde writes `()` and `PhantomData` as `null`.
macro_rules! nulls {
    ($($t:ty $(: $p:ident)?),*) => {$(
        impl$(<$p: ?Sized>)? JsonEncode for $t {
            #[inline]
            fn encode_json(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(b"null");
            }
        }
    )*};
}

nulls!((), PhantomData<T>: T);

impl<T: JsonEncode + ?Sized> JsonEncode for &T {
    #[inline]
    fn encode_json(&self, out: &mut Vec<u8>) {
        T::encode_json(self, out);
    }
}

/// Non-zero integers: their value.
macro_rules! non_zero {
    ($($t:ty => $int:ty),*) => {$(
        impl JsonEncode for $t {
            #[inline]
            fn encode_json(&self, out: &mut Vec<u8>) {
                self.get().encode_json(out);
            }
        }
    )*};
}

crate::typed::for_each_non_zero!(non_zero);

/// Network addresses: their text as a string, as serde writes them (the text never needs an
/// escape).
macro_rules! addresses {
    ($($t:ty),*) => {$(
        impl JsonEncode for $t {
            #[inline]
            fn encode_json(&self, out: &mut Vec<u8>) {
                use std::io::Write;
                out.push(b'"');
                write!(out, "{self}").expect("writing to a Vec cannot fail");
                out.push(b'"');
            }
        }
    )*};
}

crate::typed::for_each_address!(addresses);

/// Owning pointers: their target's JSON (`Box<str>`, `Arc<str>` go through here too).
macro_rules! pointers {
    ($($p:ident),*) => {$(
        impl<T: JsonEncode + ?Sized> JsonEncode for $p<T> {
            #[inline]
            fn encode_json(&self, out: &mut Vec<u8>) {
                T::encode_json(self, out);
            }
        }

        impl<T: JsonMembers + ?Sized> JsonMembers for $p<T> {
            #[inline]
            fn encode_members(&self, out: &mut Vec<u8>) {
                T::encode_members(self, out);
            }
        }
    )*};
}

pointers!(Box, Rc, Arc);

impl<T: JsonEncode> JsonEncode for Option<T> {
    #[inline]
    fn encode_json(&self, out: &mut Vec<u8>) {
        match self {
            Some(v) => v.encode_json(out),
            None => out.extend_from_slice(b"null"),
        }
    }
}

/// Appends `items` as a JSON array.
#[inline]
fn encode_items<'a, T: JsonEncode + 'a>(items: impl IntoIterator<Item = &'a T>, out: &mut Vec<u8>) {
    out.push(b'[');
    for item in items {
        item.encode_json(out);
        out.push(b',');
    }
    close_members(out, b']');
}

/// Sequences: arrays in their own order.
macro_rules! sequences {
    ($($t:ty $(, const $n:ident)?;)*) => {$(
        impl<T: JsonEncode $(, const $n: usize)?> JsonEncode for $t {
            #[inline]
            fn encode_json(&self, out: &mut Vec<u8>) {
                encode_items(self, out);
            }
        }
    )*};
}

sequences! {
    [T];
    Vec<T>;
    VecDeque<T>;
    LinkedList<T>;
    BTreeSet<T>;
    // In the heap's own iteration order (not sorted), as serde writes it.
    BinaryHeap<T>;
    [T; N], const N;
}

/// In the set's own iteration order, as serde writes it.
impl<T: JsonEncode, S> JsonEncode for HashSet<T, S> {
    #[inline]
    fn encode_json(&self, out: &mut Vec<u8>) {
        encode_items(self, out);
    }
}

/// Tuples: arrays with one element per position.
macro_rules! tuples {
    ($(($first:ident $(, $rest:ident)*);)*) => {$(
        impl<$first: JsonEncode $(, $rest: JsonEncode)*> JsonEncode for ($first, $($rest,)*) {
            #[inline]
            #[allow(non_snake_case)]
            fn encode_json(&self, out: &mut Vec<u8>) {
                let ($first, $($rest,)*) = self;
                out.push(b'[');
                $first.encode_json(out);
                $(
                    out.push(b',');
                    $rest.encode_json(out);
                )*
                out.push(b']');
            }
        }
    )*};
}

crate::typed::for_each_tuple!(tuples);

/// String keys: the string.
macro_rules! string_keys {
    ($($t:ty),*) => {$(
        impl JsonKey for $t {
            #[inline]
            fn encode_key(&self, out: &mut Vec<u8>) {
                encode_str(self, out);
            }
        }
    )*};
}

string_keys!(String, Box<str>, Cow<'_, str>, &str);

/// Integer and `bool` keys: their JSON text, quoted, as serde_json writes them.
macro_rules! quoted_keys {
    ($($t:ty),*) => {$(
        impl JsonKey for $t {
            #[inline]
            fn encode_key(&self, out: &mut Vec<u8>) {
                out.push(b'"');
                self.encode_json(out);
                out.push(b'"');
            }
        }
    )*};
}

crate::typed::for_each_integer!(quoted_keys);
quoted_keys!(bool);

/// `char` keys: the one-character string.
impl JsonKey for char {
    #[inline]
    fn encode_key(&self, out: &mut Vec<u8>) {
        self.encode_json(out);
    }
}

/// Appends `entries` as `"key":value,` each.
#[inline]
fn encode_entries<'a, K, V>(entries: impl IntoIterator<Item = (&'a K, &'a V)>, out: &mut Vec<u8>)
where
    K: JsonKey + 'a,
    V: JsonEncode + 'a,
{
    for (key, value) in entries {
        key.encode_key(out);
        out.push(b':');
        value.encode_json(out);
        out.push(b',');
    }
}

/// Maps: objects in the map's own iteration order (serde's).
macro_rules! maps {
    ($($t:ident<K, V $(, $s:ident)?> $(where $bound:path)?;)*) => {$(
        impl<K: JsonKey, V: JsonEncode $(, $s: $bound)?> JsonEncode
            for $t<K, V $(, $s)?>
        {
            #[inline]
            fn encode_json(&self, out: &mut Vec<u8>) {
                out.push(b'{');
                encode_entries(self, out);
                close_members(out, b'}');
            }
        }

        impl<K: JsonKey, V: JsonEncode $(, $s: $bound)?> JsonMembers
            for $t<K, V $(, $s)?>
        {
            #[inline]
            fn encode_members(&self, out: &mut Vec<u8>) {
                encode_entries(self, out);
            }
        }
    )*};
}

maps! {
    HashMap<K, V, S> where BuildHasher;
    BTreeMap<K, V>;
}

/// The text, verbatim.
impl JsonEncode for RawValue {
    #[inline]
    fn encode_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.get().as_bytes());
    }
}

/// Compact, members in the map's order, as serde_json writes a `Value`.
impl JsonEncode for serde_json::Value {
    fn encode_json(&self, out: &mut Vec<u8>) {
        use serde_json::Value;
        match self {
            Value::Null => out.extend_from_slice(b"null"),
            Value::Bool(b) => b.encode_json(out),
            Value::Number(n) => encode_number(n, out),
            Value::String(s) => encode_str(s, out),
            Value::Array(items) => encode_items(items, out),
            Value::Object(members) => {
                out.push(b'{');
                encode_entries(members, out);
                close_members(out, b'}');
            }
        }
    }
}

/// A `serde_json::Number` as serde_json writes it: its integer, else its float (else, with
/// serde_json's `arbitrary_precision`, its text).
fn encode_number(n: &serde_json::Number, out: &mut Vec<u8>) {
    if let Some(u) = n.as_u64() {
        append_u64(u, out);
    } else if let Some(i) = n.as_i64() {
        append_i64(i, out);
    } else if let Some(f) = n.as_f64() {
        append_f64(f, out);
    } else {
        out.extend_from_slice(n.to_string().as_bytes());
    }
}

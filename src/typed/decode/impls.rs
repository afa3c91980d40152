//! [`JsonDecode`] for the standard types: each reads what its serde `Deserialize` reads from
//! the document the codec makes, and bails where that would be an error (or where the
//! codec must look first).

use super::{Bail, JsonDecode, JsonDecodeMembers, JsonKinds, Reader};
use crate::typed::{DURATION_FIELDS, RANGE_FIELDS, RawValue, SYSTEM_TIME_FIELDS};
use jitson_jit::ir::{BigInts, NumRef, Number};
use jitson_jit::read_number;
use jitson_kernels::float_parse;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::{BuildHasher, Hash};
use std::marker::PhantomData;
use std::ops::{Range, RangeInclusive};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The `kinds` of a type serde reads from values of the JSON kinds `$kind`.
macro_rules! kinds {
    ($($kind:ident)|+) => {
        #[inline]
        fn kinds(_: u32) -> JsonKinds {
            JsonKinds::NONE$(.or(JsonKinds::$kind))+
        }
    };
}

/// The `kinds` and `exact_bail` of a scalar type of JSON kind `$kind` whose reader bails
/// only where serde refuses the value.
macro_rules! scalar {
    ($kind:ident) => {
        kinds!($kind);

        #[inline]
        fn exact_bail(_: u32) -> bool {
            true
        }
    };
}

/// Integers: an integer token within the type's range (its schema's bounds); a float token
/// (`1.0`), which serde's integer types refuse, bails. `u128` / `i128` read big integers
/// (kept by the typed codecs' `BigInts::Raw`) from their digits, as serde_json does, and
/// bail inside a value serde buffers, which serde cannot read them from ("u128 is not
/// supported": an untagged enum goes on to its next variant).
macro_rules! integers {
    ($($t:ty),*; wide: $($w:ty),*) => {
        $(
            impl JsonDecode<'_> for $t {
                #[inline]
                fn decode_json(r: &mut Reader<'_>) -> Result<$t, Bail> {
                    integer(r.number()?)
                }

                // serde's integer visitors refuse a float and a value out of range too.
                scalar!(NUMBER);
            }
        )*
        $(
            impl JsonDecode<'_> for $w {
                #[inline]
                fn decode_json(r: &mut Reader<'_>) -> Result<$w, Bail> {
                    if r.in_buffered() {
                        return Err(Bail);
                    }
                    integer(r.number()?)
                }

                scalar!(NUMBER);
            }
        )*
    };
}

integers!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize; wide: u128, i128);

/// Non-zero integers: their integer, `0` bailing as serde refuses it.
macro_rules! non_zero {
    ($($t:ty => $int:ty),*) => {$(
        impl JsonDecode<'_> for $t {
            #[inline]
            fn decode_json(r: &mut Reader<'_>) -> Result<$t, Bail> {
                <$t>::new(<$int>::decode_json(r)?).ok_or(Bail)
            }

            scalar!(NUMBER);
        }
    )*};
}

crate::typed::for_each_non_zero!(non_zero);

/// An integer token as a `T`: bails on a float token and on an integer outside `T`.
#[inline]
fn integer<T: TryFrom<u64> + TryFrom<i64> + std::str::FromStr>(n: NumRef<'_>) -> Result<T, Bail> {
    match n {
        NumRef::Number(Number::U64(v)) => T::try_from(v).map_err(|_| Bail),
        NumRef::Number(Number::I64(v)) => T::try_from(v).map_err(|_| Bail),
        NumRef::BigInt(b) => b.as_str().parse().map_err(|_| Bail),
        NumRef::Number(Number::F64(_)) => Err(Bail),
    }
}

/// The `f64` serde's float visitors see for `n` (integers converted with `as`).
#[inline]
fn float(n: NumRef<'_>) -> f64 {
    match n {
        NumRef::Number(Number::U64(v)) => v as f64,
        NumRef::Number(Number::I64(v)) => v as f64,
        NumRef::Number(Number::F64(v)) => v,
        NumRef::BigInt(b) => b.to_f64(),
    }
}

impl JsonDecode<'_> for f64 {
    #[inline]
    fn decode_json(r: &mut Reader<'_>) -> Result<f64, Bail> {
        r.number().map(float)
    }

    scalar!(NUMBER);
}

impl JsonDecode<'_> for f32 {
    /// The number as serde_json reads an `f32` (with `float_roundtrip`, as the codec reads
    /// `f64`s): an integer token converted with `as`; a decimal rounded to `f32` directly,
    /// refused when that is infinite. Inside a value serde buffers (an internally tagged
    /// variant, an adjacently tagged content before its tag) serde reads the `f64` and
    /// converts it with `as`, rounding twice: so does the reader there. An infinity bails
    /// (the schema bounds `f32` to its finite range).
    /// Not an [`exact_bail`](JsonDecode::exact_bail): serde reads an untagged enum's
    /// buffered value, where it takes an infinity.
    #[inline]
    fn decode_json(r: &mut Reader<'_>) -> Result<f32, Bail> {
        let buffered = r.in_buffered();
        let (n, text) = r.number_and_text()?;
        let v = match n {
            NumRef::Number(Number::U64(v)) => v as f32,
            NumRef::Number(Number::I64(v)) => v as f32,
            NumRef::Number(Number::F64(v)) if buffered => v as f32,
            NumRef::Number(Number::F64(v)) => nearest_f32(v, text),
            NumRef::BigInt(b) if buffered => b.to_f64() as f32,
            NumRef::BigInt(_) => parse_f32(text),
        };
        if v.is_finite() { Ok(v) } else { Err(Bail) }
    }

    kinds!(NUMBER);
}

/// The `f32` nearest the decimal `text`, given `v`, the `f64` nearest it. `v as f32` is that
/// `f32` unless `v` lies exactly halfway between two `f32`s (the overflow bound included),
/// where the decimal may lie on either side of `v`: then `text` is rounded itself.
#[inline]
fn nearest_f32(v: f64, text: &[u8]) -> f32 {
    let near = v as f32;
    let exact = f64::from(near);
    if exact == v {
        return near;
    }
    let other = if exact < v {
        near.next_up()
    } else {
        near.next_down()
    };
    // Two neighbouring `f32`s and their mean are exact in `f64`.
    if (exact + f64::from(other)) / 2.0 == v || v.abs() == crate::typed::impls::F32_OVERFLOW {
        parse_f32(text)
    } else {
        near
    }
}

/// The `f32` nearest the JSON number `text` (infinite beyond `f32`'s range).
#[cold]
fn parse_f32(text: &[u8]) -> f32 {
    float_parse::nearest(text).unwrap_or(f32::NAN)
}

impl JsonDecode<'_> for bool {
    #[inline]
    fn decode_json(r: &mut Reader<'_>) -> Result<bool, Bail> {
        r.boolean()
    }

    scalar!(BOOL);
}

impl JsonDecode<'_> for char {
    /// A string of exactly one character.
    fn decode_json(r: &mut Reader<'_>) -> Result<char, Bail> {
        one_char(&r.raw_str()?.into_text()?)
    }

    scalar!(STRING);
}

/// The character of a one-character text.
fn one_char(text: &str) -> Result<char, Bail> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(Bail),
    }
}

impl JsonDecode<'_> for String {
    #[inline]
    fn decode_json(r: &mut Reader<'_>) -> Result<String, Bail> {
        r.string()
    }

    scalar!(STRING);
}

/// Network addresses: a string parsed as serde parses it (`FromStr`); text that does not
/// parse bails, as serde refuses it.
macro_rules! addresses {
    ($($t:ty),*) => {$(
        impl JsonDecode<'_> for $t {
            fn decode_json(r: &mut Reader<'_>) -> Result<$t, Bail> {
                r.raw_str()?.into_text()?.parse().map_err(|_| Bail)
            }

            scalar!(STRING);
        }
    )*};
}

crate::typed::for_each_address!(addresses);

impl JsonDecode<'_> for PathBuf {
    #[inline]
    fn decode_json(r: &mut Reader<'_>) -> Result<PathBuf, Bail> {
        r.string().map(PathBuf::from)
    }

    scalar!(STRING);
}

impl JsonDecode<'_> for Box<Path> {
    fn decode_json(r: &mut Reader<'_>) -> Result<Box<Path>, Bail> {
        PathBuf::decode_json(r).map(PathBuf::into_boxed_path)
    }

    scalar!(STRING);
}

impl<'de: 'a, 'a> JsonDecode<'de> for &'a Path {
    /// Borrowed from the input, as `&str` is.
    fn decode_json(r: &mut Reader<'de>) -> Result<&'a Path, Bail> {
        r.plain_str().map(Path::new)
    }

    kinds!(STRING);
}

/// Reads a struct serde reads from `{"<first>": A, "<second>": B}` (both members, in
/// either order, no other, neither repeated) or from `[A, B]`.
fn field_pair<'de, A: JsonDecode<'de>, B: JsonDecode<'de>>(
    r: &mut Reader<'de>,
    [first, second]: [&str; 2],
) -> Result<(A, B), Bail> {
    if r.peek() == Some(b'[') {
        return <(A, B)>::decode_json(r);
    }
    let (mut a, mut b) = (None, None);
    let mut more = r.begin_object()?;
    while more {
        let key = r.key()?;
        if key == first && a.is_none() {
            a = Some(A::decode_json(r)?);
        } else if key == second && b.is_none() {
            b = Some(B::decode_json(r)?);
        } else {
            return Err(Bail);
        }
        more = r.next_member()?;
    }
    Ok((a.ok_or(Bail)?, b.ok_or(Bail)?))
}

/// serde's `Duration` from whole seconds and nanoseconds: the whole seconds among the
/// nanoseconds carried, a sum beyond `u64` refused.
fn duration(r: &mut Reader<'_>, names: [&str; 2]) -> Result<Duration, Bail> {
    let (secs, nanos): (u64, u32) = field_pair(r, names)?;
    secs.checked_add(u64::from(nanos / 1_000_000_000))
        .map(|_| Duration::new(secs, nanos))
        .ok_or(Bail)
}

impl JsonDecode<'_> for Duration {
    fn decode_json(r: &mut Reader<'_>) -> Result<Duration, Bail> {
        duration(r, DURATION_FIELDS)
    }

    kinds!(OBJECT | ARRAY);
}

impl JsonDecode<'_> for SystemTime {
    /// The epoch plus the duration read: a time the platform cannot hold bails.
    fn decode_json(r: &mut Reader<'_>) -> Result<SystemTime, Bail> {
        UNIX_EPOCH
            .checked_add(duration(r, SYSTEM_TIME_FIELDS)?)
            .ok_or(Bail)
    }

    kinds!(OBJECT | ARRAY);
}

impl<'de, T: JsonDecode<'de>> JsonDecode<'de> for Range<T> {
    fn decode_json(r: &mut Reader<'de>) -> Result<Range<T>, Bail> {
        field_pair(r, RANGE_FIELDS).map(|(start, end)| start..end)
    }

    kinds!(OBJECT | ARRAY);
}

impl<'de, T: JsonDecode<'de>> JsonDecode<'de> for RangeInclusive<T> {
    fn decode_json(r: &mut Reader<'de>) -> Result<RangeInclusive<T>, Bail> {
        field_pair(r, RANGE_FIELDS).map(|(start, end)| start..=end)
    }

    kinds!(OBJECT | ARRAY);
}

impl<'de: 'a, 'a> JsonDecode<'de> for &'a str {
    /// Borrowed from the input: a string holding an escape bails (serde refuses it).
    #[inline]
    fn decode_json(r: &mut Reader<'de>) -> Result<&'a str, Bail> {
        r.plain_str()
    }

    kinds!(STRING);
}

impl JsonDecode<'_> for Cow<'_, str> {
    /// Owned, as serde reads a `Cow` (without `#[serde(borrow)]`), so any lifetime works,
    /// `Cow<'static, str>` included.
    #[inline]
    fn decode_json(r: &mut Reader<'_>) -> Result<Self, Bail> {
        r.string().map(Cow::Owned)
    }

    scalar!(STRING);
}

/// A `#[serde(borrow)]` `Cow<str>` field: borrowed from the input unless it holds an
/// escape (what serde's derive reads for it).
pub fn borrowed_cow<'de: 'a, 'a>(r: &mut Reader<'de>) -> Result<Cow<'a, str>, Bail> {
    r.raw_str()?.into_text()
}

/// `null`.
fn null(r: &mut Reader<'_>) -> Result<(), Bail> {
    if r.null() { Ok(()) } else { Err(Bail) }
}

impl JsonDecode<'_> for () {
    fn decode_json(r: &mut Reader<'_>) -> Result<(), Bail> {
        null(r)
    }

    kinds!(NULL);
}

impl<T: ?Sized> JsonDecode<'_> for PhantomData<T> {
    fn decode_json(r: &mut Reader<'_>) -> Result<PhantomData<T>, Bail> {
        null(r).map(|()| PhantomData)
    }
}

impl<'de, T: JsonDecode<'de>> JsonDecode<'de> for Option<T> {
    #[inline]
    fn decode_json(r: &mut Reader<'de>) -> Result<Option<T>, Bail> {
        if r.null() {
            Ok(None)
        } else {
            T::decode_json(r).map(Some)
        }
    }

    #[inline]
    fn missing() -> Result<Option<T>, Bail> {
        Ok(None)
    }

    #[inline]
    fn kinds(depth: u32) -> JsonKinds {
        JsonKinds::NULL.or(T::kinds(depth))
    }

    #[inline]
    fn exact_bail(depth: u32) -> bool {
        T::exact_bail(depth)
    }
}

/// Owning pointers: their target read, then moved in (`Box<str>` / `Rc<[T]>` from the
/// `String` / `Vec` read). serde reads `Rc` and `Arc` with its `rc` feature.
macro_rules! pointers {
    ($($p:ident),*) => {$(
        impl<'de, T: JsonDecode<'de>> JsonDecode<'de> for $p<T> {
            #[inline]
            fn decode_json(r: &mut Reader<'de>) -> Result<$p<T>, Bail> {
                T::decode_json(r).map($p::new)
            }

            #[inline]
            fn missing() -> Result<$p<T>, Bail> {
                T::missing().map($p::new)
            }

            #[inline]
            fn kinds(depth: u32) -> JsonKinds {
                T::kinds(depth)
            }

            #[inline]
            fn exact_bail(depth: u32) -> bool {
                T::exact_bail(depth)
            }
        }

        impl JsonDecode<'_> for $p<str> {
            #[inline]
            fn decode_json(r: &mut Reader<'_>) -> Result<$p<str>, Bail> {
                r.string().map($p::from)
            }

            scalar!(STRING);
        }

        impl<'de, T: JsonDecode<'de>> JsonDecode<'de> for $p<[T]> {
            fn decode_json(r: &mut Reader<'de>) -> Result<$p<[T]>, Bail> {
                Vec::decode_json(r).map($p::from)
            }

            kinds!(ARRAY);
        }

        impl<'de, T: JsonDecodeMembers<'de>> JsonDecodeMembers<'de> for $p<T> {
            type Partial = T::Partial;
            const MEMBERWISE: bool = T::MEMBERWISE;
            const TAKES_ALL: bool = T::TAKES_ALL;
            const DENY_UNKNOWN: bool = T::DENY_UNKNOWN;

            fn start() -> T::Partial {
                T::start()
            }

            fn decode_member(
                partial: &mut T::Partial,
                key: &'de str,
                r: &mut Reader<'de>,
            ) -> Result<bool, Bail> {
                T::decode_member(partial, key, r)
            }

            fn finish(partial: T::Partial) -> Result<$p<T>, Bail> {
                T::finish(partial).map($p::new)
            }
        }
    )*};
}

pointers!(Box, Rc, Arc);

/// Reads the items of an array, handing each to `push`.
#[inline]
fn items<'de, T: JsonDecode<'de>>(
    r: &mut Reader<'de>,
    mut push: impl FnMut(T),
) -> Result<(), Bail> {
    if r.begin_array()? {
        loop {
            push(T::decode_json(r)?);
            if !r.next_item()? {
                break;
            }
        }
    }
    Ok(())
}

impl<'de, T: JsonDecode<'de>> JsonDecode<'de> for Vec<T> {
    #[inline]
    fn decode_json(r: &mut Reader<'de>) -> Result<Vec<T>, Bail> {
        let mut out = Vec::new();
        items(r, |item| out.push(item))?;
        Ok(out)
    }

    kinds!(ARRAY);
}

/// An array's items gathered into a collection, in order (a set keeps a repeated item
/// once, as serde does: it does not refuse it).
fn collected<'de, T: JsonDecode<'de>, C: Default + Extend<T>>(
    r: &mut Reader<'de>,
) -> Result<C, Bail> {
    let mut out = C::default();
    items(r, |item| out.extend([item]))?;
    Ok(out)
}

/// Collections serde reads from an array by inserting the items in order (`$bound` on the
/// item type).
macro_rules! collections {
    ($($t:ident $(: $bound:path)?),*) => {$(
        impl<'de, T: JsonDecode<'de> $(+ $bound)?> JsonDecode<'de> for $t<T> {
            fn decode_json(r: &mut Reader<'de>) -> Result<$t<T>, Bail> {
                collected(r)
            }

            kinds!(ARRAY);
        }
    )*};
}

collections!(VecDeque, LinkedList, BinaryHeap: Ord, BTreeSet: Ord);

/// A set with its hasher, collected as the collections above.
impl<'de, T, S> JsonDecode<'de> for HashSet<T, S>
where
    T: JsonDecode<'de> + Eq + Hash,
    S: BuildHasher + Default,
{
    fn decode_json(r: &mut Reader<'de>) -> Result<HashSet<T, S>, Bail> {
        collected(r)
    }

    kinds!(ARRAY);
}

impl<'de, T: JsonDecode<'de>, const N: usize> JsonDecode<'de> for [T; N] {
    /// Exactly `N` items.
    fn decode_json(r: &mut Reader<'de>) -> Result<[T; N], Bail> {
        let mut out = Vec::with_capacity(N);
        items(r, |item| out.push(item))?;
        <[T; N]>::try_from(out).map_err(|_| Bail)
    }

    kinds!(ARRAY);
}

/// Tuples: arrays of exactly their arity, one type per position.
macro_rules! tuples {
    ($(($($t:ident),+);)*) => {$(
        impl<'de, $($t: JsonDecode<'de>),+> JsonDecode<'de> for ($($t,)+) {
            #[allow(non_snake_case)]
            fn decode_json(r: &mut Reader<'de>) -> Result<($($t,)+), Bail> {
                let mut more = r.begin_array()?;
                $(
                    if !more {
                        return Err(Bail);
                    }
                    let $t = $t::decode_json(r)?;
                    more = r.next_item()?;
                )+
                if more { Err(Bail) } else { Ok(($($t,)+)) }
            }

            kinds!(ARRAY);
        }
    )*};
}

crate::typed::for_each_tuple!(tuples);

/// A map key read from a member name (one without escapes: a name holding one bails).
pub trait JsonDecodeKey<'de>: Sized {
    /// The key of member name `name`, read by `r` (which tells whether serde reads the
    /// name from its buffered copy); bails where serde refuses the name.
    fn from_key(name: &'de str, r: &Reader<'de>) -> Result<Self, Bail>;
}

impl<'de> JsonDecodeKey<'de> for String {
    fn from_key(name: &'de str, _: &Reader<'de>) -> Result<String, Bail> {
        Ok(name.to_owned())
    }
}

impl<'de> JsonDecodeKey<'de> for Box<str> {
    fn from_key(name: &'de str, _: &Reader<'de>) -> Result<Box<str>, Bail> {
        Ok(name.into())
    }
}

impl<'de: 'a, 'a> JsonDecodeKey<'de> for Cow<'a, str> {
    fn from_key(name: &'de str, _: &Reader<'de>) -> Result<Cow<'a, str>, Bail> {
        Ok(Cow::Borrowed(name))
    }
}

impl<'de: 'a, 'a> JsonDecodeKey<'de> for &'a str {
    fn from_key(name: &'de str, _: &Reader<'de>) -> Result<&'a str, Bail> {
        Ok(name)
    }
}

/// Integer keys: the name read as serde_json reads a numeric key, a JSON number filling
/// the whole name, then as an integer of the type. serde reads none from a name it
/// buffered (a flattened map's, an internally tagged variant's): there they bail.
macro_rules! integer_keys {
    ($($t:ty),*) => {$(
        impl<'de> JsonDecodeKey<'de> for $t {
            fn from_key(name: &'de str, r: &Reader<'de>) -> Result<$t, Bail> {
                if r.in_buffered() {
                    return Err(Bail);
                }
                numeric_key(name).map_or(Err(Bail), integer)
            }
        }
    )*};
}

crate::typed::for_each_integer!(integer_keys);

/// `bool` keys: the name `true` or `false` exactly, as serde_json reads a boolean key;
/// serde reads none from a name it buffered.
impl<'de> JsonDecodeKey<'de> for bool {
    fn from_key(name: &'de str, r: &Reader<'de>) -> Result<bool, Bail> {
        match name {
            _ if r.in_buffered() => Err(Bail),
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(Bail),
        }
    }
}

/// `char` keys: a name of one character (serde reads them from a buffered name too).
impl<'de> JsonDecodeKey<'de> for char {
    fn from_key(name: &'de str, _: &Reader<'de>) -> Result<char, Bail> {
        one_char(name)
    }
}

/// The number a member name holds as serde_json reads a numeric map key: one JSON number
/// filling the whole name (integers beyond 64 bits as their digits); `None` otherwise.
pub(crate) fn numeric_key(name: &str) -> Option<NumRef<'_>> {
    match read_number(name.as_bytes(), 0, BigInts::Raw) {
        Ok((n, end)) if end == name.len() => Some(n),
        _ => None,
    }
}

/// Reads an object's members into `insert`, which answers whether the key is new (a
/// repeated key bails).
#[inline]
fn entries<'de, K: JsonDecodeKey<'de>, V: JsonDecode<'de>>(
    r: &mut Reader<'de>,
    mut insert: impl FnMut(K, V) -> bool,
) -> Result<(), Bail> {
    if r.begin_object()? {
        loop {
            let key = K::from_key(r.key()?, r)?;
            if !insert(key, V::decode_json(r)?) {
                return Err(Bail);
            }
            if !r.next_member()? {
                break;
            }
        }
    }
    Ok(())
}

/// A flattened map: it takes every member offered, each key once.
macro_rules! flattened_maps {
    ($($map:ident<$($param:ident),*> { $($bounds:tt)* };)*) => {$(
        impl<'de, $($param),*> JsonDecodeMembers<'de> for $map<$($param),*>
        where
            $($bounds)*
        {
            type Partial = Self;
            const MEMBERWISE: bool = true;
            const TAKES_ALL: bool = true;
            const DENY_UNKNOWN: bool = false;

            fn start() -> Self {
                Self::default()
            }

            fn decode_member(
                map: &mut Self,
                key: &'de str,
                r: &mut Reader<'de>,
            ) -> Result<bool, Bail> {
                let value = V::decode_json(r)?;
                if map.insert(K::from_key(key, r)?, value).is_some() {
                    return Err(Bail);
                }
                Ok(true)
            }

            fn finish(map: Self) -> Result<Self, Bail> {
                Ok(map)
            }
        }
    )*};
}

flattened_maps! {
    HashMap<K, V, S> {
        K: JsonDecodeKey<'de> + Eq + Hash,
        V: JsonDecode<'de>,
        S: BuildHasher + Default,
    };
    BTreeMap<K, V> { K: JsonDecodeKey<'de> + Ord, V: JsonDecode<'de> };
}

impl<'de, K, V, S> JsonDecode<'de> for HashMap<K, V, S>
where
    K: JsonDecodeKey<'de> + Eq + Hash,
    V: JsonDecode<'de>,
    S: BuildHasher + Default,
{
    fn decode_json(r: &mut Reader<'de>) -> Result<HashMap<K, V, S>, Bail> {
        let mut out = HashMap::default();
        entries(r, |k, v| out.insert(k, v).is_none())?;
        Ok(out)
    }

    kinds!(OBJECT);
}

impl<'de, K, V> JsonDecode<'de> for BTreeMap<K, V>
where
    K: JsonDecodeKey<'de> + Ord,
    V: JsonDecode<'de>,
{
    fn decode_json(r: &mut Reader<'de>) -> Result<BTreeMap<K, V>, Bail> {
        let mut out = BTreeMap::new();
        entries(r, |k, v| out.insert(k, v).is_none())?;
        Ok(out)
    }

    kinds!(OBJECT);
}

impl JsonDecode<'_> for serde_json::Value {
    /// The value's text read by serde_json, as the document path reads `any` values (and
    /// serde, where it buffers, from its copy of the document's value).
    fn decode_json(r: &mut Reader<'_>) -> Result<serde_json::Value, Bail> {
        serde_json::from_str(r.raw_value()?).map_err(|_| Bail)
    }
}

impl JsonDecode<'_> for RawValue {
    /// The value's text, kept. Where serde reads from its buffered copy of the value (see
    /// [`Reader::buffered`]) it bails: serde cannot read a raw value there, so the two-pass
    /// decode refuses it.
    fn decode_json(r: &mut Reader<'_>) -> Result<RawValue, Bail> {
        if r.in_buffered() {
            return Err(Bail);
        }
        RawValue::from_json(r.raw_value()?).map_err(|_| Bail)
    }
}

//! [`JsonType`] for the standard types: the schema of the JSON serde_json reads into each.

use crate::schema::Num;
use crate::schema::builder::{
    ObjectExpr, TypeExpr, all_of, any, any_of, array, boolean, constant, integer, map, not, null,
    nullable, number, object, string, tuple,
};
use crate::typed::{
    DURATION_FIELDS, Definitions, JsonKey, JsonObject, JsonType, RANGE_FIELDS, SYSTEM_TIME_FIELDS,
};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::BuildHasher;
use std::marker::PhantomData;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::ops::{Range, RangeInclusive};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// Integers bounded to their type's range (`usize` / `isize` to 64 bits). The bounds of
/// `u128` / `i128` are powers of two, exact as `f64`s: `0 <= n < 2^128` and
/// `-2^127 <= n < 2^127`. Typed codecs read integers beyond 64 bits as their digits
/// (`BigInts::Raw`), which the bounds check exactly; under `BigInts::F64` (another codec of
/// the same schema) the digits are first rounded to an `f64`.
macro_rules! integers {
    ($($t:ty => $min:expr, $max:ident($bound:expr);)*) => {$(
        impl JsonType for $t {
            type Key = $t;

            fn type_expr(_: &mut Definitions) -> TypeExpr {
                integer().minimum($min).$max($bound).into()
            }
        }
    )*};
}

/// 2^127 as an `f64` (exact).
const TWO_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;

integers! {
    u8 => Num::Int(0), maximum(Num::Int(u8::MAX.into()));
    u16 => Num::Int(0), maximum(Num::Int(u16::MAX.into()));
    u32 => Num::Int(0), maximum(Num::Int(u32::MAX.into()));
    u64 => Num::Int(0), maximum(Num::from(u64::MAX));
    u128 => Num::Int(0), exclusive_maximum(Num::Float(2.0 * TWO_127));
    usize => Num::Int(0), maximum(Num::from(u64::try_from(usize::MAX).unwrap_or(u64::MAX)));
    i8 => Num::Int(i8::MIN.into()), maximum(Num::Int(i8::MAX.into()));
    i16 => Num::Int(i16::MIN.into()), maximum(Num::Int(i16::MAX.into()));
    i32 => Num::Int(i32::MIN.into()), maximum(Num::Int(i32::MAX.into()));
    i64 => Num::Int(i64::MIN), maximum(Num::Int(i64::MAX));
    i128 => Num::Float(-TWO_127), exclusive_maximum(Num::Float(TWO_127));
    isize => Num::Int(i64::try_from(isize::MIN).unwrap_or(i64::MIN)),
        maximum(Num::Int(i64::try_from(isize::MAX).unwrap_or(i64::MAX)));
}

/// Non-zero integers: their integer's schema, `0` excluded.
macro_rules! non_zero {
    ($($t:ty => $int:ty),*) => {$(
        impl JsonType for $t {
            type Key = $t;

            fn type_expr(defs: &mut Definitions) -> TypeExpr {
                all_of([<$int>::type_expr(defs), not(constant(serde_json::json!(0)))])
            }
        }
    )*};
}

crate::typed::for_each_non_zero!(non_zero);

/// Types with one fixed schema (`$k`: the cache key type, see [`JsonType::Key`]).
macro_rules! leaves {
    ($($t:ty [$k:ty] => $e:expr;)*) => {$(
        impl JsonType for $t {
            type Key = $k;

            fn type_expr(_: &mut Definitions) -> TypeExpr {
                $e.into()
            }
        }
    )*};
}

/// `f32`: numbers whose nearest `f32` is finite, those below `2^128 - 2^103` in magnitude
/// (at it and beyond, a value rounds to infinity).
impl JsonType for f32 {
    type Key = f32;

    fn type_expr(_: &mut Definitions) -> TypeExpr {
        number()
            .exclusive_minimum(Num::Float(-F32_OVERFLOW))
            .exclusive_maximum(Num::Float(F32_OVERFLOW))
            .into()
    }
}

/// The magnitude from which numbers round to an infinite `f32`: `2^128 - 2^103`, halfway
/// between `f32::MAX` and `2^128` (a tie rounds to the even neighbour, the infinity).
/// `f32::MAX` written as its shortest digits, `3.4028235e38`, lies just above `f32::MAX`
/// and below this bound.
pub(crate) const F32_OVERFLOW: f64 = 340_282_356_779_733_661_637_539_395_458_142_568_448.0;

leaves! {
    f64 [f64] => number();
    bool [bool] => boolean();
    char [char] => string().min_length(1).max_length(1);
    String [String] => string();
    str [String] => string();
    // serde writes addresses as their text (human-readable formats) and parses them back;
    // `format` is an annotation, so the schema takes any string and the parse decides.
    IpAddr [IpAddr] => string();
    Ipv4Addr [Ipv4Addr] => string().format("ipv4");
    Ipv6Addr [Ipv6Addr] => string().format("ipv6");
    SocketAddr [SocketAddr] => string();
    SocketAddrV4 [SocketAddrV4] => string();
    SocketAddrV6 [SocketAddrV6] => string();
    // serde reads a path from any string (and writes one that is UTF-8).
    PathBuf [PathBuf] => string();
    Path [PathBuf] => string();
}

/// A struct serde writes as an object of two fields (`names`) and reads from that object
/// (both members, no other) or from an array of the two values.
fn field_pair(names: [&str; 2], first: TypeExpr, second: TypeExpr) -> TypeExpr {
    let [a, b] = names;
    any_of([
        TypeExpr::from(
            object()
                .field(a, first.clone())
                .field(b, second.clone())
                .deny_unknown(),
        ),
        tuple([first, second]).min_items(2).into(),
    ])
}

/// `{"secs": u64, "nanos": u32}`: serde carries whole seconds of `nanos` into `secs` and
/// refuses a sum beyond `u64`, which the schema does not say (the value's reading does).
impl JsonType for Duration {
    type Key = Duration;

    fn type_expr(defs: &mut Definitions) -> TypeExpr {
        field_pair(DURATION_FIELDS, u64::type_expr(defs), u32::type_expr(defs))
    }
}

/// `{"secs_since_epoch": u64, "nanos_since_epoch": u32}`, read as a `Duration` after the
/// Unix epoch (a time the platform cannot hold is serde's refusal).
impl JsonType for SystemTime {
    type Key = SystemTime;

    fn type_expr(defs: &mut Definitions) -> TypeExpr {
        field_pair(
            SYSTEM_TIME_FIELDS,
            u64::type_expr(defs),
            u32::type_expr(defs),
        )
    }
}

/// Ranges: `{"start": T, "end": T}` (serde checks no order between the bounds).
macro_rules! ranges {
    ($($range:ident),*) => {$(
        impl<T: JsonType> JsonType for $range<T> {
            type Key = $range<T::Key>;

            fn type_expr(defs: &mut Definitions) -> TypeExpr {
                field_pair(RANGE_FIELDS, T::type_expr(defs), T::type_expr(defs))
            }
        }
    )*};
}

ranges!(Range, RangeInclusive);

/// Any JSON value.
impl JsonType for serde_json::Value {
    type Key = serde_json::Value;

    fn type_expr(_: &mut Definitions) -> TypeExpr {
        any()
    }
}

impl JsonType for Cow<'_, str> {
    type Key = String;

    fn type_expr(_: &mut Definitions) -> TypeExpr {
        string().into()
    }
}

/// serde reads `PhantomData` from `null`.
impl<T: ?Sized> JsonType for PhantomData<T> {
    type Key = ();

    fn type_expr(_: &mut Definitions) -> TypeExpr {
        null()
    }
}

/// serde reads `()` from `null`.
impl JsonType for () {
    type Key = ();

    fn type_expr(_: &mut Definitions) -> TypeExpr {
        null()
    }
}

impl<T: JsonType + ?Sized> JsonType for &T {
    type Key = T::Key;
    const OPTIONAL: bool = T::OPTIONAL;

    fn type_expr(defs: &mut Definitions) -> TypeExpr {
        T::type_expr(defs)
    }
}

/// Owning pointers: their target's schema (serde reads `Rc` / `Arc` with its `rc` feature).
macro_rules! pointers {
    ($($p:ident),*) => {$(
        impl<T: JsonType + ?Sized> JsonType for $p<T> {
            type Key = T::Key;
            const OPTIONAL: bool = T::OPTIONAL;

            fn type_expr(defs: &mut Definitions) -> TypeExpr {
                T::type_expr(defs)
            }
        }

        impl<T: JsonObject + ?Sized> JsonObject for $p<T> {
            fn object_expr(defs: &mut Definitions) -> ObjectExpr {
                T::object_expr(defs)
            }
        }
    )*};
}

pointers!(Box, Rc, Arc);

impl<T: JsonType> JsonType for Option<T> {
    type Key = Option<T::Key>;
    const OPTIONAL: bool = true;

    fn type_expr(defs: &mut Definitions) -> TypeExpr {
        nullable(T::type_expr(defs))
    }
}

/// Sequences: arrays of one item type.
macro_rules! sequences {
    ($($t:ty),*) => {$(
        impl<T: JsonType> JsonType for $t {
            type Key = Vec<T::Key>;

            fn type_expr(defs: &mut Definitions) -> TypeExpr {
                array(T::type_expr(defs)).into()
            }
        }
    )*};
}

sequences!(
    Vec<T>,
    [T],
    VecDeque<T>,
    LinkedList<T>,
    BinaryHeap<T>,
    BTreeSet<T>
);

/// serde reads a set from an array (a repeated item is kept once).
impl<T: JsonType, S> JsonType for HashSet<T, S> {
    type Key = Vec<T::Key>;

    fn type_expr(defs: &mut Definitions) -> TypeExpr {
        array(T::type_expr(defs)).into()
    }
}

impl<T: JsonType, const N: usize> JsonType for [T; N] {
    type Key = [T::Key; N];

    fn type_expr(defs: &mut Definitions) -> TypeExpr {
        array(T::type_expr(defs))
            .min_items(N as u64)
            .max_items(N as u64)
            .into()
    }
}

/// Tuples: fixed-length arrays, one type per position.
macro_rules! tuples {
    ($(($($t:ident),+);)*) => {$(
        impl<$($t: JsonType),+> JsonType for ($($t,)+) {
            type Key = ($($t::Key,)+);

            fn type_expr(defs: &mut Definitions) -> TypeExpr {
                tuple([$($t::type_expr(defs)),+])
                    .min_items([$(stringify!($t)),+].len() as u64)
                    .into()
            }
        }
    )*};
}

crate::typed::for_each_tuple!(tuples);

/// Maps: objects whose members all have the value type (the keys' text is the key type's
/// to check: an integer key's digits are read when the value is).
macro_rules! maps {
    ($($t:ident<K, V $(, $s:ident)?> $(where $bound:path)?;)*) => {$(
        impl<K: JsonKey, V: JsonType $(, $s: $bound)?> JsonType for $t<K, V $(, $s)?> {
            type Key = BTreeMap<String, V::Key>;

            fn type_expr(defs: &mut Definitions) -> TypeExpr {
                map(V::type_expr(defs))
            }
        }

        impl<K: JsonKey, V: JsonType $(, $s: $bound)?> JsonObject for $t<K, V $(, $s)?> {
            fn object_expr(defs: &mut Definitions) -> ObjectExpr {
                object().extras(V::type_expr(defs))
            }
        }
    )*};
}

maps! {
    HashMap<K, V, S> where BuildHasher;
    BTreeMap<K, V>;
}

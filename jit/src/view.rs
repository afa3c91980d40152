//! Read-only views of decoded records: the safe way to read the [layout](crate::layout)
//! format.
//!
//! A [`View`] is a slot address with its shape; it can only be obtained from a
//! [`Decoded`](crate::interp::Decoded) document's root and by navigating from there, so the
//! bytes at its address always follow its shape. [`View::node`] resolves boxes, aliases and
//! union tags to the value's concrete [`Node`].

use crate::ir::{BigInt, Number};
use crate::layout::{Layout, NUM_I64, NUM_RAW, NUM_U64, PAIR, Shape, ShapeId, ShapeInfo};

/// A decoded value: a slot and its shape, borrowed from a document for `'d`.
#[derive(Clone, Copy)]
pub struct View<'d> {
    layout: &'d Layout,
    shape: ShapeId,
    slot: usize,
}

impl std::fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("View").field("shape", &self.shape).finish()
    }
}

/// What a value is, with its contents.
#[derive(Clone, Copy, Debug)]
pub enum Node<'d> {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number, as `serde_json` holds it.
    Number(Number),
    /// An integer beyond the 64-bit ranges, kept as its text with
    /// [`BigInts::Raw`](crate::ir::BigInts::Raw).
    BigInt(BigInt<'d>),
    /// A string.
    Str(&'d str),
    /// A string of a string enumeration: its index and text.
    Enum {
        /// Index in the schema's list.
        index: u32,
        /// The string.
        text: &'d str,
    },
    /// Raw JSON text (`any`, `not`, non-string `enum`).
    Raw(&'d [u8]),
    /// An array.
    Array(Items<'d>),
    /// An object (or map).
    Object(Members<'d>),
}

/// Reads a `T` at an address of a decoded record.
///
/// # Safety
///
/// `addr` must be an exposed address of `size_of::<T>()` readable bytes holding a valid
/// `T`, alive for the caller's use.
pub(crate) unsafe fn read<T: Copy>(addr: usize) -> T {
    // SAFETY: the caller guarantees the address is readable for a `T`; unaligned reads
    // because records only align to 8 and `T` is at most 8 bytes here anyway.
    unsafe { std::ptr::with_exposed_provenance::<T>(addr).read_unaligned() }
}

/// Reads the `(ptr, len)` pair at `addr` as a byte slice.
///
/// # Safety
///
/// `addr` must hold a pair the decoder wrote: an exposed address of `len` bytes in the input
/// or the arena, both alive for `'d`.
pub(crate) unsafe fn read_bytes<'d>(addr: usize) -> &'d [u8] {
    // SAFETY: per the caller, a pair written by the decoder.
    let (ptr, len) = unsafe { (read::<usize>(addr), read::<usize>(addr + 8)) };
    if len == 0 {
        return &[];
    }
    // SAFETY: `ptr` is the exposed address of `len` initialized bytes (input or arena),
    // never mutated while the document lives.
    unsafe { std::slice::from_raw_parts(std::ptr::with_exposed_provenance::<u8>(ptr), len) }
}

impl<'d> View<'d> {
    /// A view of the slot at `slot` of shape `shape`.
    ///
    /// # Safety
    ///
    /// `slot` must be the exposed address of a slot of `shape` written by the decoder after
    /// `layout`, in memory alive and unchanged for `'d`.
    pub(crate) unsafe fn new(layout: &'d Layout, shape: ShapeId, slot: usize) -> View<'d> {
        View {
            layout,
            shape,
            slot,
        }
    }

    /// A view of a slot inside this one's records.
    fn child(&self, shape: ShapeId, slot: usize) -> View<'d> {
        View {
            layout: self.layout,
            shape,
            slot,
        }
    }

    /// The layout the view's records follow.
    pub(crate) fn layout(&self) -> &'d Layout {
        self.layout
    }

    /// The slot's shape, before boxes, aliases and union tags are resolved.
    pub(crate) fn shape_id(&self) -> ShapeId {
        self.shape
    }

    /// The slot's address.
    pub(crate) fn slot(&self) -> usize {
        self.slot
    }

    /// The concrete shape (its id and info) and record address, through boxes, aliases and
    /// union tags.
    #[inline]
    fn resolve(&self) -> (ShapeId, &'d ShapeInfo, usize) {
        let layout: &'d Layout = self.layout;
        let (mut shape, mut slot) = (self.shape, self.slot);
        loop {
            let info = layout.shape(shape);
            // SAFETY: a boxed slot holds the address of its record (layout docs).
            let addr = if info.boxed {
                unsafe { read(slot) }
            } else {
                slot
            };
            match &info.shape {
                Shape::Alias(inner) => (shape, slot) = (*inner, addr),
                Shape::Union(branches) => {
                    // SAFETY: a union record starts with its `u32` tag.
                    let tag: u32 = unsafe { read(addr) };
                    match branches.get(tag as usize) {
                        Some(&(b, off)) => (shape, slot) = (b, addr + off as usize),
                        None => return (shape, info, addr),
                    }
                }
                _ => return (shape, info, addr),
            }
        }
    }

    /// The shape of the value (after boxes, aliases and union tags), for precompiled paths.
    pub fn shape(&self) -> ShapeId {
        self.resolve().0
    }

    /// What the value is.
    pub fn node(&self) -> Node<'d> {
        let (shape, info, addr) = self.resolve();
        // SAFETY (every read below): `addr` is a record of `shape`, whose bytes the layout
        // documents.
        match &info.shape {
            Shape::Null | Shape::Never | Shape::Alias(_) | Shape::Union(_) => Node::Null,
            Shape::Bool => Node::Bool(unsafe { read::<u8>(addr) } != 0),
            Shape::Number => {
                let (tag, bits) = unsafe { (read::<u8>(addr), read::<u64>(addr + 8)) };
                if tag == NUM_RAW {
                    return Node::BigInt(BigInt(unsafe { read_big_int(addr) }));
                }
                Node::Number(match tag {
                    NUM_U64 => Number::U64(bits),
                    NUM_I64 => Number::I64(bits as i64),
                    _ => Number::F64(f64::from_bits(bits)),
                })
            }
            Shape::Str => Node::Str(unsafe { read_str(addr) }),
            Shape::Raw => Node::Raw(unsafe { read_bytes(addr) }),
            Shape::StrEnum(strings) => {
                let index: u32 = unsafe { read(addr) };
                let text = strings.get(index as usize).map_or("", |s| &**s);
                Node::Enum { index, text }
            }
            Shape::Array {
                prefix,
                items,
                stride,
            } => Node::Array(Items {
                view: self.child(*items, 0),
                prefix,
                stride: *stride as usize,
                ptr: unsafe { read(addr) },
                len: unsafe { read(addr + 8) },
            }),
            Shape::Object {
                names,
                fields,
                extras,
                extra,
                entry,
            } => Node::Object(Members {
                view: self.child(shape, addr),
                names,
                fields,
                extra: *extra,
                entry: *entry as usize,
                ptr: unsafe { read(addr + *extras as usize) },
                len: unsafe { read(addr + *extras as usize + 8) },
            }),
        }
    }

    /// The array item or object member (by index among present members), if any.
    pub fn at(&self, index: usize) -> Option<View<'d>> {
        match self.node() {
            Node::Array(items) => items.get(index),
            Node::Object(members) => members.iter().nth(index).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The object member named `name` (the last one, for repeated extra members).
    pub fn get(&self, name: &str) -> Option<View<'d>> {
        match self.node() {
            Node::Object(members) => members.get(name),
            _ => None,
        }
    }

    /// The string (or enumerated string).
    pub fn as_str(&self) -> Option<&'d str> {
        match self.node() {
            Node::Str(s) | Node::Enum { text: s, .. } => Some(s),
            _ => None,
        }
    }

    /// The number, when it is a non-negative integer (as `serde_json::Value::as_u64`).
    pub fn as_u64(&self) -> Option<u64> {
        match self.node() {
            Node::Number(Number::U64(u)) => Some(u),
            _ => None,
        }
    }

    /// The number, when it is an integer in `i64` (as `serde_json::Value::as_i64`).
    pub fn as_i64(&self) -> Option<i64> {
        match self.node() {
            Node::Number(Number::I64(i)) => Some(i),
            Node::Number(Number::U64(u)) => i64::try_from(u).ok(),
            _ => None,
        }
    }

    /// The number as an `f64` (as `serde_json::Value::as_f64`; a big integer as the
    /// nearest `f64`, infinite beyond the range of `f64`).
    pub fn as_f64(&self) -> Option<f64> {
        match self.node() {
            Node::Number(Number::I64(i)) => Some(i as f64),
            Node::Number(Number::U64(u)) => Some(u as f64),
            Node::Number(Number::F64(f)) => Some(f),
            Node::BigInt(b) => Some(b.to_f64()),
            _ => None,
        }
    }

    /// The big integer kept as its text ([`BigInts::Raw`](crate::ir::BigInts::Raw)).
    pub fn as_big_int(&self) -> Option<BigInt<'d>> {
        match self.node() {
            Node::BigInt(b) => Some(b),
            _ => None,
        }
    }

    /// The boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self.node() {
            Node::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self.node(), Node::Null)
    }

    /// The raw JSON text of an `any` value.
    pub fn raw(&self) -> Option<&'d [u8]> {
        match self.node() {
            Node::Raw(r) => Some(r),
            _ => None,
        }
    }

    /// Items of an array, members of an object.
    pub fn len(&self) -> Option<usize> {
        match self.node() {
            Node::Array(items) => Some(items.len()),
            Node::Object(members) => Some(members.len()),
            _ => None,
        }
    }

    /// Whether an array or object has no items / members.
    pub fn is_empty(&self) -> Option<bool> {
        self.len().map(|n| n == 0)
    }
}

/// Reads the `(ptr, len)` pair at `addr` as text.
///
/// # Safety
///
/// As [`read_bytes`], and the bytes are valid UTF-8 (the decoder checked them).
pub(crate) unsafe fn read_str<'d>(addr: usize) -> &'d str {
    // SAFETY: per the caller.
    unsafe { std::str::from_utf8_unchecked(read_bytes(addr)) }
}

/// Reads the text of a big-integer number slot at `addr` (`u32` length at 4, pointer at 8).
///
/// # Safety
///
/// `addr` must be a number slot with the [`NUM_RAW`] tag written by the decoder: the pointer
/// is the exposed address of that many ASCII bytes of the input, alive for `'d`.
pub(crate) unsafe fn read_big_int<'d>(addr: usize) -> &'d str {
    // SAFETY: per the caller.
    let (len, ptr) = unsafe { (read::<u32>(addr + 4), read::<usize>(addr + 8)) };
    // SAFETY: `ptr` is the exposed address of `len` bytes of the input (a number token:
    // ASCII), never mutated while the document lives; the decoder never writes an empty one.
    unsafe {
        let bytes =
            std::slice::from_raw_parts(std::ptr::with_exposed_provenance::<u8>(ptr), len as usize);
        std::str::from_utf8_unchecked(bytes)
    }
}

/// The items of an array.
#[derive(Clone, Copy, Debug)]
pub struct Items<'d> {
    view: View<'d>,
    prefix: &'d [ShapeId],
    stride: usize,
    ptr: usize,
    len: usize,
}

impl<'d> Items<'d> {
    /// Number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Item `i`.
    pub fn get(&self, i: usize) -> Option<View<'d>> {
        if i >= self.len {
            return None;
        }
        let shape = self.prefix.get(i).copied().unwrap_or(self.view.shape);
        Some(self.view.child(shape, self.ptr + i * self.stride))
    }

    /// Every item, in order.
    pub fn iter(&self) -> impl Iterator<Item = View<'d>> + use<'d> {
        let items = *self;
        (0..items.len).filter_map(move |i| items.get(i))
    }
}

/// The members of an object: the named fields present (schema order), then the others
/// (input order).
#[derive(Clone, Copy, Debug)]
pub struct Members<'d> {
    /// The record (its `shape` is the object's, `slot` its address).
    view: View<'d>,
    names: &'d [Box<str>],
    fields: &'d [(ShapeId, u32)],
    extra: ShapeId,
    entry: usize,
    ptr: usize,
    len: usize,
}

impl<'d> Members<'d> {
    /// Whether named field `i` is present.
    fn has(&self, i: usize) -> bool {
        // SAFETY: the record starts with the presence bitmap, one bit per field.
        let word: u64 = unsafe { read(self.view.slot + 8 * (i / 64)) };
        word & (1 << (i % 64)) != 0
    }

    /// Named field `i` (schema order), when present.
    pub fn field(&self, i: usize) -> Option<View<'d>> {
        let &(shape, off) = self.fields.get(i)?;
        self.has(i)
            .then(|| self.view.child(shape, self.view.slot + off as usize))
    }

    /// The index of the named field `name`.
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| &**n == name)
    }

    /// The field names of the object's shape, in schema order.
    pub fn names(&self) -> &'d [Box<str>] {
        self.names
    }

    /// Extra member `i`: its key and value.
    pub fn extra(&self, i: usize) -> Option<(&'d str, View<'d>)> {
        if i >= self.len {
            return None;
        }
        let at = self.ptr + i * self.entry;
        // SAFETY: an extras entry starts with its key's `(ptr, len)`.
        let key = unsafe { read_str(at) };
        Some((key, self.view.child(self.extra, at + PAIR as usize)))
    }

    /// Number of extra members.
    pub fn extras_len(&self) -> usize {
        self.len
    }

    /// The member named `name` (the last one, for repeated extra members).
    pub fn get(&self, name: &str) -> Option<View<'d>> {
        if let Some(i) = self.field_index(name) {
            return self.field(i);
        }
        (0..self.len)
            .rev()
            .filter_map(|i| self.extra(i))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
    }

    /// Number of members present.
    pub fn len(&self) -> usize {
        (0..self.fields.len()).filter(|&i| self.has(i)).count() + self.len
    }

    /// True when no member is present.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every member present: named fields in schema order, then extras in input order.
    pub fn iter(&self) -> impl Iterator<Item = (&'d str, View<'d>)> + use<'d> {
        let m = *self;
        let mut cursor = 0;
        std::iter::from_fn(move || m.next_member(&mut cursor))
    }

    /// The member present at `cursor` or after it, in [`Members::iter`]'s order, and the
    /// cursor moved past it (a walk that cannot hold the iterator, such as an explicit
    /// stack, keeps the cursor instead; start at 0).
    pub fn next_member(&self, cursor: &mut usize) -> Option<(&'d str, View<'d>)> {
        let named = self.fields.len();
        while *cursor < named {
            *cursor += 1;
            if let Some(v) = self.field(*cursor - 1) {
                return Some((&self.names[*cursor - 1], v));
            }
        }
        *cursor += 1;
        self.extra(*cursor - named - 1)
    }
}

/// `bytes` as the slice of `input` they occupy, with `input`'s lifetime, when they lie inside
/// it (a decoded string without escapes, a raw value); an empty slice always does. This is
/// how typed decode lends decoded text to types that borrow from the input.
pub fn lend<'a>(input: &'a [u8], bytes: &[u8]) -> Option<&'a [u8]> {
    if bytes.is_empty() {
        return Some(&[]);
    }
    let start = (bytes.as_ptr() as usize).checked_sub(input.as_ptr() as usize)?;
    input.get(start..start.checked_add(bytes.len())?)
}

/// [`lend`] for text.
pub fn lend_str<'a>(input: &'a [u8], text: &str) -> Option<&'a str> {
    let bytes = lend(input, text.as_bytes())?;
    // SAFETY: `bytes` starts at the address of `text` and has its length, so it is the very
    // memory `text` occupies: valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

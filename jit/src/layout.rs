//! The decoded memory format: the one place it is defined.
//!
//! A decoded document is a tree of fixed-layout records in an arena (`bumpalo::Bump`). Every
//! value sits in a *slot* whose size its [`Shape`] gives ([`ShapeInfo::slot_size`]); a
//! container's slot points to its contents elsewhere in the arena. All sizes and offsets are
//! multiples of 8; multi-byte values are native-endian and read unaligned. Pointers are
//! stored as exposed addresses (`usize`).
//!
//! | shape | slot |
//! |---|---|
//! | [`Null`](Shape::Null), [`Never`](Shape::Never) | nothing (size 0) |
//! | [`Bool`](Shape::Bool) | `u8` 0 / 1 at 0 (size 8) |
//! | [`Number`](Shape::Number) | `u8` tag at 0 (0 `u64`, 1 `i64`, 2 `f64`), the 8 bytes at 8 (size 16): what `serde_json` would hold; or tag 3 ([`NUM_RAW`], only with [`BigInts::Raw`](crate::ir::BigInts::Raw)): an integer beyond 64 bits as its text, the `u32` byte length at 4 and the pointer at 8 (the input's token: `-`? and digits, ASCII) |
//! | [`Str`](Shape::Str) | `(ptr, len)` of the unescaped UTF-8 text: the input itself when the string has no escapes, else a copy in the arena |
//! | [`Raw`](Shape::Raw) | `(ptr, len)` of the value's raw JSON text in the input (`{}` / `true`, `not`, non-string `enum`) |
//! | [`StrEnum`](Shape::StrEnum) | `u32` index into the shape's strings (size 8) |
//! | [`Array`](Shape::Array) | `(ptr, len)`: `len` items of `stride` bytes each, contiguous in the arena; item `i` has shape `prefix[i]`, or `items` past the prefix |
//! | [`Object`](Shape::Object) | inline record: the presence bitmap (`u64` words, bit `i` = field `i` present) at 0, field `i` at `fields[i].1`, then `(ptr, len)` of the *extras* at `extras`: entries of `entry` bytes, the key's `(ptr, len)` (as for `Str`) at 0 and the value at 16 (shape `extra`: [`Raw`](Shape::Raw) when any value is allowed). A map is an object with no fields |
//! | [`Union`](Shape::Union) | `u32` tag at 0 (the branch / kind slot), branch `i` of shape `branches[i].0` at offset `branches[i].1` |
//! | [`Alias`](Shape::Alias) | the aliased shape's slot at 0 (`allOf` decodes as its first part) |
//!
//! A shape marked [`ShapeInfo::boxed`] (a node on a cycle of inline slots, in recursive
//! schemas, or one whose record is larger than 2 KiB) has an 8-byte slot holding the
//! pointer to its record of [`ShapeInfo::size`] bytes in the arena.
//!
//! [`Layout`] also holds the decode operands of a [`Program`](crate::ir::Program): the shape
//! of each function and the destination offset of each op (see the IR's op table).

/// An index into [`Layout::shapes`].
pub type ShapeId = u32;

/// The destination operand meaning "write nothing" (the checks of `allOf` parts after the
/// first, the inner value of `not`).
pub const NO_DST: u32 = u32::MAX;

/// Size of a `(ptr, len)` pair.
pub const PAIR: u32 = 16;

/// Offset of a union's payloads when they share one place (any-of, per-kind unions).
pub const UNION_PAYLOAD: u32 = 8;

/// Tag of a [`Shape::Number`] slot holding a `u64`.
pub const NUM_U64: u8 = 0;
/// Tag of a [`Shape::Number`] slot holding an `i64`.
pub const NUM_I64: u8 = 1;
/// Tag of a [`Shape::Number`] slot holding an `f64`.
pub const NUM_F64: u8 = 2;
/// Tag of a [`Shape::Number`] slot holding a big integer's text (length at 4, pointer at 8).
pub const NUM_RAW: u8 = 3;

/// What a slot holds; see the [module documentation](self) for the bytes.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// `null`.
    Null,
    /// No value can be decoded here.
    Never,
    /// `true` / `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    Str,
    /// Raw JSON text.
    Raw,
    /// One of these strings, by index.
    StrEnum(Vec<Box<str>>),
    /// An array.
    Array {
        /// Shapes of the first items.
        prefix: Vec<ShapeId>,
        /// Shape of the items past the prefix.
        items: ShapeId,
        /// Bytes per item.
        stride: u32,
    },
    /// An object (or a map, with no fields).
    Object {
        /// Field names, in schema order.
        names: Vec<Box<str>>,
        /// Each field's shape and offset.
        fields: Vec<(ShapeId, u32)>,
        /// Offset of the extras' `(ptr, len)`.
        extras: u32,
        /// Shape of extra members' values ([`Shape::Raw`] when any value is allowed).
        extra: ShapeId,
        /// Bytes per extra entry.
        entry: u32,
    },
    /// A tagged union: each branch's shape and payload offset.
    Union(Vec<(ShapeId, u32)>),
    /// Another shape's slot.
    Alias(ShapeId),
}

/// A shape with its sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeInfo {
    /// The shape.
    pub shape: Shape,
    /// Bytes of the record (the slot, unless boxed).
    pub size: u32,
    /// Whether slots hold a pointer to the record.
    pub boxed: bool,
}

impl ShapeInfo {
    /// Bytes a slot of this shape takes in its parent.
    pub fn slot_size(&self) -> u32 {
        if self.boxed { 8 } else { self.size }
    }
}

/// Decode operands of one function.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FuncLayout {
    /// The shape of the slot the function writes (for containers: their own shape).
    pub shape: ShapeId,
    /// Destination offset of each op, relative to the frame's current base (see the IR).
    pub dst: Vec<u32>,
}

/// The memory format of a program's decoded values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    /// Every shape.
    pub shapes: Vec<ShapeInfo>,
    /// Per function, parallel to [`Program::funcs`](crate::ir::Program::funcs).
    pub funcs: Vec<FuncLayout>,
}

impl Layout {
    /// The shape `id`.
    pub fn shape(&self, id: ShapeId) -> &ShapeInfo {
        &self.shapes[id as usize]
    }

    /// True when the layout carries decode operands (a validate-only program has none).
    pub fn is_present(&self) -> bool {
        !self.funcs.is_empty()
    }

    /// Checks the invariants decode relies on, against a program's function op counts.
    pub fn verify(&self, op_counts: impl ExactSizeIterator<Item = usize>) -> Result<(), String> {
        if self.funcs.len() != op_counts.len() {
            return Err("layout: one entry per function expected".into());
        }
        let n = self.shapes.len() as u32;
        for (f, (fl, ops)) in self.funcs.iter().zip(op_counts).enumerate() {
            if fl.dst.len() != ops {
                return Err(format!("layout f{f}: one destination per op expected"));
            }
            if fl.shape >= n {
                return Err(format!("layout f{f}: shape out of range"));
            }
        }
        for (i, s) in self.shapes.iter().enumerate() {
            if !self.shape_ok(s) {
                return Err(format!("layout shape {i}: bad shape"));
            }
        }
        Ok(())
    }

    fn shape_ok(&self, s: &ShapeInfo) -> bool {
        let n = self.shapes.len() as u32;
        let fits = |id: ShapeId, off: u32, size: u32| {
            id < n
                && off
                    .checked_add(self.shape(id).slot_size())
                    .is_some_and(|e| e <= size)
        };
        match &s.shape {
            Shape::Array {
                prefix,
                items,
                stride,
            } => prefix.iter().chain([items]).all(|&i| fits(i, 0, *stride)),
            Shape::Object {
                names,
                fields,
                extras,
                extra,
                entry,
            } => {
                names.len() == fields.len()
                    && fields.iter().all(|&(i, off)| fits(i, off, s.size))
                    && extras + PAIR <= s.size
                    && names.len().div_ceil(64) as u32 * 8
                        <= fields.first().map_or(*extras, |f| f.1)
                    && fits(*extra, PAIR, *entry)
            }
            Shape::Union(branches) => {
                4 <= s.size
                    && branches
                        .iter()
                        .all(|&(i, off)| off >= 8 && fits(i, off, s.size))
            }
            Shape::Alias(i) => fits(*i, 0, s.size),
            _ => true,
        }
    }
}

/// Rounds `n` up to a multiple of 8.
pub const fn round8(n: u32) -> u32 {
    n.div_ceil(8) * 8
}

//! The decoded memory format of a schema: one [`ShapeInfo`] per node (shape id = node
//! index), plus three shared shapes (raw JSON for unknown members, `never`, `null`). See
//! [`jitson_jit::layout`] for the bytes.
//!
//! Sizes follow inline slots only (object fields, union branches, the first `allOf` part);
//! a node met again while its own size is being computed is on a cycle of inline slots and
//! becomes *boxed* (its slot holds a pointer). So does a node whose record is larger than
//! [`MAX_INLINE_RECORD`]: without that, a schema whose objects hold two fields of the
//! same object type, thirty levels deep, has records of 2^30 slots (gigabytes zeroed to
//! decode `{}`, and sizes past `u32`). Array items, map values and extra members live out
//! of line, so their strides are computed after every size is known.

use jitson_jit::layout::{PAIR, Shape, ShapeId, ShapeInfo, UNION_PAYLOAD, round8};

use crate::schema::{Schema, TypeDesc, TypeId, UnknownFields};

/// The largest record kept inline in its parent's: a larger one is boxed (its slot is a
/// pointer, the record allocated only when the value is decoded). A record then holds at
/// most this many bytes per slot, so record sizes grow with the schema's text, not
/// exponentially with its depth. Larger than the corpus schemas' inline records (twitter's
/// user, 672 bytes; its status record, 1 232, is boxed as recursive).
const MAX_INLINE_RECORD: u32 = 2048;

/// The shapes of a schema's nodes.
pub(crate) struct Shapes {
    pub(crate) shapes: Vec<ShapeInfo>,
}

/// Size computation state of a node.
#[derive(Clone, Copy, PartialEq)]
enum State {
    New,
    Busy,
    Done(u32),
}

impl Shapes {
    /// Offset of field `i` of object node `id`.
    pub(crate) fn field_offset(&self, id: TypeId, i: usize) -> u32 {
        match &self.shapes[id.index()].shape {
            Shape::Object { fields, .. } => fields[i].1,
            _ => unreachable!("field of a non-object node"),
        }
    }

    /// Offset of branch `i`'s payload in union node `id`.
    pub(crate) fn branch_offset(&self, id: TypeId, i: usize) -> u32 {
        match &self.shapes[id.index()].shape {
            Shape::Union(branches) => branches[i].1,
            _ => unreachable!("branch of a non-union node"),
        }
    }
}

/// Computes every node's shape.
pub(crate) fn shapes(schema: &Schema) -> Shapes {
    let n = schema.node_count();
    let mut sizer = Sizer {
        schema,
        state: vec![State::New; n],
        boxed: vec![false; n],
    };
    for i in 0..n {
        let size = sizer.size(TypeId(i as u32));
        // As `slot` decides for inline slots; nodes only met out of line (array items,
        // map values) are decided here, before any shape is built.
        if round8(size) > MAX_INLINE_RECORD {
            sizer.boxed[i] = true;
        }
    }
    let (raw, never, null) = (n as ShapeId, n as ShapeId + 1, n as ShapeId + 2);
    let mut shapes: Vec<ShapeInfo> = (0..n)
        .map(|i| sizer.shape(TypeId(i as u32), raw, never, null))
        .collect();
    for (shape, size) in [(Shape::Raw, PAIR), (Shape::Never, 0), (Shape::Null, 0)] {
        shapes.push(ShapeInfo {
            shape,
            size,
            boxed: false,
        });
    }
    Shapes { shapes }
}

struct Sizer<'s> {
    schema: &'s Schema,
    state: Vec<State>,
    boxed: Vec<bool>,
}

impl Sizer<'_> {
    /// The record size of `id` (computing it, and boxing cycles, on first use).
    fn size(&mut self, id: TypeId) -> u32 {
        if let State::Done(size) = self.state[id.index()] {
            return size;
        }
        crate::deep::grow(|| self.compute_size(id))
    }

    /// [`Sizer::size`] of a node not sized yet.
    fn compute_size(&mut self, id: TypeId) -> u32 {
        self.state[id.index()] = State::Busy;
        let node = self.schema.node(id);
        let size = match node {
            TypeDesc::Null | TypeDesc::Never => 0,
            TypeDesc::Bool => 8,
            TypeDesc::Enum(values) if values.iter().all(|v| v.is_string()) => 8,
            TypeDesc::Any
            | TypeDesc::Integer(_)
            | TypeDesc::Number(_)
            | TypeDesc::String(_)
            | TypeDesc::Enum(_)
            | TypeDesc::Array(_)
            | TypeDesc::Map(_)
            | TypeDesc::Not(_) => PAIR,
            TypeDesc::Object(o) => {
                let fields: Vec<TypeId> = o.fields.iter().map(|f| f.ty).collect();
                let bits = round8(o.fields.len().div_ceil(64) as u32 * 8);
                let slots = (fields.iter()).fold(0u32, |sum, &f| sum.saturating_add(self.slot(f)));
                bits.saturating_add(slots).saturating_add(PAIR)
            }
            TypeDesc::Nullable(inner) => UNION_PAYLOAD + self.slot(*inner),
            TypeDesc::Kinds(k) => UNION_PAYLOAD + self.max_slot(k.slots().into_iter().flatten()),
            TypeDesc::AnyOf(u) => UNION_PAYLOAD + self.max_slot(u.branches.iter().copied()),
            TypeDesc::Conditional(c) => UNION_PAYLOAD + self.max_slot(c.outcomes().into_iter()),
            TypeDesc::OneOf(u) => {
                let branches = u.branches.clone();
                let slots =
                    (branches.iter()).fold(0u32, |sum, &b| sum.saturating_add(self.slot(b)));
                UNION_PAYLOAD.saturating_add(slots)
            }
            TypeDesc::AllOf(parts) => self.slot(parts[0]),
        };
        self.state[id.index()] = State::Done(size);
        size
    }

    fn max_slot(&mut self, ids: impl Iterator<Item = TypeId>) -> u32 {
        let ids: Vec<TypeId> = ids.collect();
        ids.into_iter().map(|b| self.slot(b)).max().unwrap_or(0)
    }

    /// The size of `id`'s slot in a parent record (8 when boxed: on a cycle of inline slots,
    /// or larger than [`MAX_INLINE_RECORD`]).
    fn slot(&mut self, id: TypeId) -> u32 {
        if self.state[id.index()] == State::Busy {
            self.boxed[id.index()] = true;
            return 8;
        }
        let size = round8(self.size(id));
        if size > MAX_INLINE_RECORD {
            self.boxed[id.index()] = true;
        }
        if self.boxed[id.index()] { 8 } else { size }
    }

    /// The shape of `id` (every size known).
    fn shape(&mut self, id: TypeId, raw: ShapeId, never: ShapeId, null: ShapeId) -> ShapeInfo {
        let sid = |t: TypeId| t.0 as ShapeId;
        let shape = match self.schema.node(id) {
            TypeDesc::Null => Shape::Null,
            TypeDesc::Never => Shape::Never,
            TypeDesc::Bool => Shape::Bool,
            TypeDesc::Integer(_) | TypeDesc::Number(_) => Shape::Number,
            TypeDesc::String(_) => Shape::Str,
            TypeDesc::Enum(values) => match values
                .iter()
                .map(|v| v.as_str())
                .collect::<Option<Vec<_>>>()
            {
                Some(strings) => Shape::StrEnum(strings.into_iter().map(Box::from).collect()),
                None => Shape::Raw,
            },
            TypeDesc::Any | TypeDesc::Not(_) => Shape::Raw,
            TypeDesc::Array(a) => {
                let all: Vec<TypeId> = a.prefix_items.iter().copied().chain([a.items]).collect();
                Shape::Array {
                    prefix: a.prefix_items.iter().map(|&t| sid(t)).collect(),
                    items: sid(a.items),
                    stride: all.into_iter().map(|t| self.slot(t)).max().unwrap_or(0),
                }
            }
            TypeDesc::Object(o) => {
                let mut off = round8(o.fields.len().div_ceil(64) as u32 * 8);
                let mut fields = Vec::new();
                for f in &o.fields {
                    fields.push((sid(f.ty), off));
                    off += self.slot(f.ty);
                }
                // Members a pattern matches are kept as raw JSON, and then so are all
                // other members (one entry shape per object).
                let (extra, entry) = match o.unknown {
                    UnknownFields::Allow => (raw, 2 * PAIR),
                    _ if !o.patterns.is_empty() => (raw, 2 * PAIR),
                    UnknownFields::Deny => (never, PAIR),
                    UnknownFields::Extra(t) => (sid(t), PAIR + self.slot(t)),
                };
                Shape::Object {
                    names: o.fields.iter().map(|f| f.name.as_str().into()).collect(),
                    fields,
                    extras: off,
                    extra,
                    entry,
                }
            }
            TypeDesc::Map(t) => Shape::Object {
                names: Vec::new(),
                fields: Vec::new(),
                extras: 0,
                extra: sid(*t),
                entry: PAIR + self.slot(*t),
            },
            TypeDesc::Nullable(inner) => {
                let mut slots = vec![(sid(*inner), UNION_PAYLOAD); 6];
                slots[0] = (null, UNION_PAYLOAD);
                Shape::Union(slots)
            }
            TypeDesc::Kinds(k) => Shape::Union(
                k.slots()
                    .into_iter()
                    .map(|s| (s.map_or(never, sid), UNION_PAYLOAD))
                    .collect(),
            ),
            TypeDesc::AnyOf(u) => Shape::Union(
                u.branches
                    .iter()
                    .map(|&b| (sid(b), UNION_PAYLOAD))
                    .collect(),
            ),
            TypeDesc::Conditional(c) => Shape::Union(
                c.outcomes()
                    .into_iter()
                    .map(|b| (sid(b), UNION_PAYLOAD))
                    .collect(),
            ),
            TypeDesc::OneOf(u) => {
                let mut off = UNION_PAYLOAD;
                let mut branches = Vec::new();
                for &b in &u.branches {
                    branches.push((sid(b), off));
                    off += self.slot(b);
                }
                Shape::Union(branches)
            }
            TypeDesc::AllOf(parts) => Shape::Alias(sid(parts[0])),
        };
        ShapeInfo {
            shape,
            size: round8(self.size(id)),
            boxed: self.boxed[id.index()],
        }
    }
}

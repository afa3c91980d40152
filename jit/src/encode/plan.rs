//! The encode plan: a [layout](crate::layout)'s shapes flattened once for writing, and the
//! walk that writes a decoded document with it.
//!
//! What the plan settles ahead of the walk: each named field's key, quoted and escaped per
//! the mode with its separator (`,"name":`); each string enumeration's values, quoted and
//! escaped; sizes and offsets as `usize`. The walk then reads a record's bytes directly (the
//! [view](crate::view) rules, without building a [`Node`](crate::view::Node) per value) and
//! keeps open containers on an explicit stack, so depth never reaches the Rust stack.

use std::sync::Arc;

use jitson_kernels::escape::{EscapeMode, escape_str};

use super::{key_text, number_slot, write_raw};
use crate::ir::BigInts;
use crate::layout::{Layout, PAIR, Shape, ShapeId};
use crate::view::{View, read, read_bytes, read_str};

/// A layout's shapes prepared for encoding with one escape mode; see the
/// [module documentation](self).
#[derive(Debug)]
pub struct EncodePlan {
    /// The layout the steps were made from (kept alive: its address identifies it).
    layout: Arc<Layout>,
    steps: Steps,
}

impl EncodePlan {
    /// The plan of `layout`'s shapes for strings escaped per `mode`.
    pub fn new(layout: Arc<Layout>, mode: EscapeMode) -> EncodePlan {
        let steps = Steps::new(&layout, mode);
        EncodePlan { layout, steps }
    }

    /// The escape mode the plan writes strings in.
    pub fn mode(&self) -> EscapeMode {
        self.steps.mode
    }

    /// Appends the compact JSON of `root` to `out` as [`encode`](super::encode) does; `big`
    /// is the policy the document was read with. A view of another layout than the plan's
    /// is written with a plan made for it on the spot.
    pub fn encode(&self, root: View<'_>, big: BigInts, out: &mut Vec<u8>) {
        if std::ptr::eq(root.layout(), &*self.layout) {
            self.steps.walk(root, big, out);
        } else {
            encode_once(root, self.steps.mode, big, out);
        }
    }
}

/// Appends the compact JSON of `root` to `out` with a plan made for its layout on the spot
/// (see [`super::encode`]).
pub(super) fn encode_once(root: View<'_>, mode: EscapeMode, big: BigInts, out: &mut Vec<u8>) {
    Steps::new(root.layout(), mode).walk(root, big, out);
}

/// One step per shape of a layout, parallel to [`Layout::shapes`].
#[derive(Debug)]
struct Steps {
    mode: EscapeMode,
    shapes: Vec<ShapeStep>,
}

/// How to reach and write a value of one shape.
#[derive(Debug)]
struct ShapeStep {
    /// The slot holds the address of the record.
    boxed: bool,
    step: Step,
}

/// What a record of one shape holds, and what to write for it.
#[derive(Debug)]
enum Step {
    /// A value written in one go: containers write unboxed leaf items and members in place,
    /// without a trip through the walk's frame loop.
    Leaf(Leaf),
    Array {
        prefix: Box<[ShapeId]>,
        items: ShapeId,
        stride: usize,
    },
    Object(Box<ObjectStep>),
    /// Branch shapes and payload offsets, by tag.
    Union(Box<[(ShapeId, usize)]>),
    Alias(ShapeId),
}

/// A value with no container to open and no other shape to follow.
#[derive(Debug)]
enum Leaf {
    /// `null` (also [`Shape::Never`]).
    Null,
    Bool,
    Number,
    Str,
    Raw,
    /// A string enumeration: each value quoted and escaped.
    Enum(Box<[Box<[u8]>]>),
}

/// An object's record.
#[derive(Debug)]
struct ObjectStep {
    fields: Box<[FieldStep]>,
    /// Offset of the extras' `(ptr, len)`.
    extras: usize,
    /// Shape of extra members' values.
    extra: ShapeId,
    /// Bytes per extras entry.
    entry: usize,
}

/// A named field of an object.
#[derive(Debug)]
struct FieldStep {
    /// `,"name":`, the name escaped per the mode; written from byte 1 for the first member.
    key: Box<[u8]>,
    shape: ShapeId,
    off: usize,
}

/// An open container: the next item / member to write.
#[derive(Clone, Copy)]
enum Frame<'s> {
    Array {
        prefix: &'s [ShapeId],
        items: ShapeId,
        stride: usize,
        ptr: usize,
        len: usize,
        next: usize,
    },
    Object {
        step: &'s ObjectStep,
        rec: usize,
        /// Named fields first, then extras (`next - fields.len()`).
        next: usize,
        first: bool,
        extras_ptr: usize,
        extras_len: usize,
    },
}

/// The open containers of a walk: the first [`Frames::INLINE`] on the Rust stack (a small
/// document's walk allocates nothing), deeper ones in a `Vec`.
struct Frames<'s> {
    inline: [Frame<'s>; Frames::INLINE],
    len: usize,
    deeper: Vec<Frame<'s>>,
}

impl<'s> Frames<'s> {
    /// Frames held without allocating.
    const INLINE: usize = 8;

    fn new() -> Frames<'s> {
        let unused = Frame::Array {
            prefix: &[],
            items: 0,
            stride: 0,
            ptr: 0,
            len: 0,
            next: 0,
        };
        Frames {
            inline: [unused; Frames::INLINE],
            len: 0,
            deeper: Vec::new(),
        }
    }

    fn push(&mut self, frame: Frame<'s>) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = frame,
            None => self.deeper.push(frame),
        }
        self.len += 1;
    }

    fn last_mut(&mut self) -> Option<&mut Frame<'s>> {
        let top = self.len.checked_sub(1)?;
        match self.inline.get_mut(top) {
            Some(frame) => Some(frame),
            None => self.deeper.last_mut(),
        }
    }

    fn pop(&mut self) -> Option<Frame<'s>> {
        let top = self.len.checked_sub(1)?;
        self.len = top;
        match self.inline.get(top) {
            Some(frame) => Some(*frame),
            None => self.deeper.pop(),
        }
    }
}

/// The escaped, quoted form of `s`.
fn quoted(s: &str, mode: EscapeMode) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len() + 2);
    escape_str(s, mode, &mut out);
    out
}

impl Steps {
    fn new(layout: &Layout, mode: EscapeMode) -> Steps {
        let shapes = layout
            .shapes
            .iter()
            .map(|info| ShapeStep {
                boxed: info.boxed,
                step: Step::new(&info.shape, mode),
            })
            .collect();
        Steps { mode, shapes }
    }

    /// Writes `root`, whose layout these steps were made from.
    fn walk(&self, root: View<'_>, big: BigInts, out: &mut Vec<u8>) {
        let mut stack = Frames::new();
        let mut next = Some((root.shape_id(), root.slot()));
        loop {
            if let Some((shape, slot)) = next.take()
                && let Some(frame) = self.value(shape, slot, big, out)
            {
                stack.push(frame);
            }
            let Some(top) = stack.last_mut() else {
                return;
            };
            next = match top {
                Frame::Array {
                    prefix,
                    items,
                    stride,
                    ptr,
                    len,
                    next,
                } => {
                    let mut found = None;
                    while *next < *len {
                        let i = *next;
                        if i > 0 {
                            out.push(b',');
                        }
                        *next += 1;
                        let shape = prefix.get(i).copied().unwrap_or(*items);
                        let slot = *ptr + i * *stride;
                        if !self.leaf_in_place(shape, slot, big, out) {
                            found = Some((shape, slot));
                            break;
                        }
                    }
                    found
                }
                Frame::Object {
                    step,
                    rec,
                    next,
                    first,
                    extras_ptr,
                    extras_len,
                } => self.member(
                    step,
                    *rec,
                    next,
                    first,
                    (*extras_ptr, *extras_len),
                    big,
                    out,
                ),
            };
            if next.is_none() {
                let close = match stack.pop() {
                    Some(Frame::Array { .. }) => b']',
                    _ => b'}',
                };
                out.push(close);
            }
        }
    }

    /// Writes the members of an object record at `rec` from the next one on: leaf values in
    /// place, up to the first member whose value is not a leaf, whose key it writes and
    /// whose value's shape and slot it returns; `None` when no member is left.
    #[allow(clippy::too_many_arguments)] // the frame's fields, borrowed apart
    fn member(
        &self,
        step: &ObjectStep,
        rec: usize,
        next: &mut usize,
        first: &mut bool,
        (extras_ptr, extras_len): (usize, usize),
        big: BigInts,
        out: &mut Vec<u8>,
    ) -> Option<(ShapeId, usize)> {
        let named = step.fields.len();
        while *next < named {
            let i = *next;
            *next += 1;
            // SAFETY: an object record starts with its presence bitmap, one bit per named
            // field (layout docs).
            let word: u64 = unsafe { read(rec + 8 * (i / 64)) };
            if word & (1 << (i % 64)) != 0 {
                let field = &step.fields[i];
                let from = usize::from(std::mem::take(first));
                out.extend_from_slice(&field.key[from..]);
                if !self.leaf_in_place(field.shape, rec + field.off, big, out) {
                    return Some((field.shape, rec + field.off));
                }
            }
        }
        let j = *next - named;
        if j >= extras_len {
            return None;
        }
        *next += 1;
        if !std::mem::take(first) {
            out.push(b',');
        }
        let at = extras_ptr + j * step.entry;
        // SAFETY: an extras entry starts with its key's `(ptr, len)` (layout docs).
        key_text(unsafe { read_str(at) }, self.mode, out);
        Some((step.extra, at + PAIR as usize))
    }

    /// Writes the value of shape `shape` in the slot at `slot` when it is not a container;
    /// opens a container (its bracket written) and returns its frame.
    fn value(
        &self,
        mut shape: ShapeId,
        mut slot: usize,
        big: BigInts,
        out: &mut Vec<u8>,
    ) -> Option<Frame<'_>> {
        // SAFETY (every read below): `slot` holds a value of `shape`, written by the decoder
        // after the layout these steps were made from, so the bytes follow the layout docs.
        loop {
            let s = &self.shapes[shape as usize];
            let addr = if s.boxed {
                unsafe { read::<usize>(slot) }
            } else {
                slot
            };
            match &s.step {
                Step::Alias(inner) => (shape, slot) = (*inner, addr),
                Step::Union(branches) => {
                    let tag: u32 = unsafe { read(addr) };
                    match branches.get(tag as usize) {
                        Some(&(b, off)) => (shape, slot) = (b, addr + off),
                        None => {
                            out.extend_from_slice(b"null");
                            return None;
                        }
                    }
                }
                Step::Leaf(leaf) => {
                    self.leaf(leaf, addr, big, out);
                    return None;
                }
                Step::Array {
                    prefix,
                    items,
                    stride,
                } => {
                    out.push(b'[');
                    return Some(Frame::Array {
                        prefix,
                        items: *items,
                        stride: *stride,
                        ptr: unsafe { read(addr) },
                        len: unsafe { read(addr + 8) },
                        next: 0,
                    });
                }
                Step::Object(step) => {
                    out.push(b'{');
                    return Some(Frame::Object {
                        step,
                        rec: addr,
                        next: 0,
                        first: true,
                        extras_ptr: unsafe { read(addr + step.extras) },
                        extras_len: unsafe { read(addr + step.extras + 8) },
                    });
                }
            }
        }
    }

    /// Writes the value of shape `shape` in the slot at `slot` when it is a leaf held in the
    /// slot itself (not boxed); false, writing nothing, for anything else.
    #[inline(always)]
    fn leaf_in_place(&self, shape: ShapeId, slot: usize, big: BigInts, out: &mut Vec<u8>) -> bool {
        let s = &self.shapes[shape as usize];
        match &s.step {
            Step::Leaf(leaf) if !s.boxed => {
                self.leaf(leaf, slot, big, out);
                true
            }
            _ => false,
        }
    }

    /// Writes the leaf value whose record is at `addr`.
    #[inline(always)]
    fn leaf(&self, leaf: &Leaf, addr: usize, big: BigInts, out: &mut Vec<u8>) {
        // SAFETY (every read below): `addr` holds a record of the leaf's shape, written by
        // the decoder after the layout these steps were made from (layout docs).
        match leaf {
            Leaf::Null => out.extend_from_slice(b"null"),
            Leaf::Bool => {
                let b: u8 = unsafe { read(addr) };
                out.extend_from_slice(if b != 0 { b"true" } else { b"false" });
            }
            Leaf::Number => unsafe { number_slot(addr, out) },
            Leaf::Str => {
                escape_str(unsafe { read_str(addr) }, self.mode, out);
            }
            Leaf::Raw => {
                write_raw(unsafe { read_bytes(addr) }, self.mode, big, out);
            }
            Leaf::Enum(values) => {
                let index: u32 = unsafe { read(addr) };
                let text = values.get(index as usize).map_or(&b"\"\""[..], |v| v);
                out.extend_from_slice(text);
            }
        }
    }
}

impl Step {
    fn new(shape: &Shape, mode: EscapeMode) -> Step {
        match shape {
            Shape::Null | Shape::Never => Step::Leaf(Leaf::Null),
            Shape::Bool => Step::Leaf(Leaf::Bool),
            Shape::Number => Step::Leaf(Leaf::Number),
            Shape::Str => Step::Leaf(Leaf::Str),
            Shape::Raw => Step::Leaf(Leaf::Raw),
            Shape::StrEnum(values) => Step::Leaf(Leaf::Enum(
                values
                    .iter()
                    .map(|v| quoted(v, mode).into_boxed_slice())
                    .collect(),
            )),
            Shape::Array {
                prefix,
                items,
                stride,
            } => Step::Array {
                prefix: prefix.as_slice().into(),
                items: *items,
                stride: *stride as usize,
            },
            Shape::Object {
                names,
                fields,
                extras,
                extra,
                entry,
            } => Step::Object(Box::new(ObjectStep {
                fields: names
                    .iter()
                    .zip(fields)
                    .map(|(name, &(shape, off))| {
                        let mut key = vec![b','];
                        key.extend_from_slice(&quoted(name, mode));
                        key.push(b':');
                        FieldStep {
                            key: key.into_boxed_slice(),
                            shape,
                            off: off as usize,
                        }
                    })
                    .collect(),
                extras: *extras as usize,
                extra: *extra,
                entry: *entry as usize,
            })),
            Shape::Union(branches) => {
                Step::Union(branches.iter().map(|&(b, off)| (b, off as usize)).collect())
            }
            Shape::Alias(inner) => Step::Alias(*inner),
        }
    }
}

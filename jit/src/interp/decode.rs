//! Decode: the machine's sink that writes records in the [layout](crate::layout) format.
//!
//! Values are written into reusable scratch buffers — one for the document's root slot, one
//! per open array (its items), object (its extra members) and boxed record — addressed by
//! `(buffer, offset)` so that growing a buffer moves nothing that is still referred to. A
//! buffer is copied to the arena when its container closes, and the arena address stored in
//! the parent's slot. All writes here are safe, bounds-checked slice writes; pointers are
//! stored as exposed addresses.

use std::marker::PhantomData;
use std::sync::Arc;

use bumpalo::Bump;

use crate::ir::{BigInts, ExecOptions, Failure, FuncId, NumRef, Number, Program};
use crate::layout::{Layout, NO_DST, NUM_F64, NUM_I64, NUM_RAW, NUM_U64, PAIR, Shape, ShapeId};
use crate::view::View;

use super::Scratch;
use super::machine::Machine;
use super::sink::{At, Sink, Text};

/// The decoder's reusable buffers.
#[derive(Debug, Default)]
pub(crate) struct DecodeScratch {
    bufs: Vec<Vec<u8>>,
    frames: Vec<DFrame>,
    /// The arena bytes the last decode with this scratch used.
    arena_hint: usize,
}

impl DecodeScratch {
    /// A fresh arena with room for what the last decode with this scratch used: one
    /// allocation instead of a chain of doubling chunks when documents look alike.
    pub(crate) fn arena(&self) -> Bump {
        Bump::with_capacity(self.arena_hint)
    }

    /// Remembers how much of `arena` a finished decode used (its chunks less the room
    /// left in the newest), for the next [`DecodeScratch::arena`].
    pub(crate) fn note_arena(&mut self, arena: &Bump) {
        self.arena_hint = arena.allocated_bytes() - arena.chunk_capacity();
    }
}

/// A place to write: a buffer and an offset in it; `buf == NONE` writes nothing.
#[derive(Clone, Copy, Debug)]
struct Loc {
    buf: u32,
    off: usize,
}

const NONE: u32 = u32::MAX;

impl Loc {
    const NOWHERE: Loc = Loc { buf: NONE, off: 0 };

    fn is_none(self) -> bool {
        self.buf == NONE
    }

    /// `self + dst`, or nowhere.
    fn plus(self, dst: u32) -> Loc {
        match self.is_none() || dst == NO_DST {
            true => Loc::NOWHERE,
            false => Loc {
                buf: self.buf,
                off: self.off + dst as usize,
            },
        }
    }
}

/// The decode state of one machine frame (see the IR's decode table).
#[derive(Clone, Copy, Debug)]
struct DFrame {
    /// The shape the function writes.
    shape: ShapeId,
    /// Where the function's value goes (its record when boxed).
    dst: Loc,
    /// Where its ops' destinations count from.
    base: Loc,
    /// The container's buffer (items or extras).
    buf: u32,
    /// Extras written so far (objects).
    extras: usize,
    /// Boxed frames: the slot that receives the record's address.
    slot: Loc,
    /// Buffers open when the frame was entered.
    open: usize,
}

/// A decoded document: the arena holding its records and the root's address. It borrows
/// the input (strings without escapes point into it) and shares the program's layout.
pub struct Decoded<'a> {
    arena: Bump,
    root: usize,
    shape: ShapeId,
    layout: Arc<Layout>,
    big_ints: BigInts,
    input: &'a [u8],
}

impl std::fmt::Debug for Decoded<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoded")
            .field("arena_bytes", &self.arena.allocated_bytes())
            .finish_non_exhaustive()
    }
}

impl<'a> Decoded<'a> {
    /// A view of the root value.
    pub fn root(&self) -> View<'_> {
        // SAFETY: `root` is the address of the root slot the decoder wrote in `self.arena`
        // with shape `self.shape` of `self.layout`; the view borrows `self`, which owns the
        // arena and borrows the input for `'a`.
        unsafe { View::new(&self.layout, self.shape, self.root) }
    }

    /// The layout the records follow.
    pub fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }

    /// A document another backend built from `input`, under the big-integer policy
    /// `big_ints`.
    ///
    /// # Safety
    /// `root` is the address of the root slot (of shape `shape` in `layout`) in `arena`,
    /// and every record reachable from it follows the layout format, lies in `arena` or
    /// borrows `input`.
    #[cfg(feature = "native")]
    pub(crate) unsafe fn from_parts(
        arena: Bump,
        root: usize,
        shape: ShapeId,
        layout: Arc<Layout>,
        big_ints: BigInts,
        input: &'a [u8],
    ) -> Decoded<'a> {
        Decoded {
            arena,
            root,
            shape,
            layout,
            big_ints,
            input,
        }
    }

    /// The input the document was decoded from (strings without escapes and raw values
    /// point into it).
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// Bytes the arena holds.
    pub fn arena_bytes(&self) -> usize {
        self.arena.allocated_bytes()
    }

    /// The big-integer policy the input was read with (encode writes raw values by it).
    pub fn big_ints(&self) -> BigInts {
        self.big_ints
    }
}

/// Decodes `input` with `program` (which must carry a [`Layout`]; see
/// [`Program::layout`]): the records, or the first error.
///
/// # Panics
///
/// If the program has no layout (a producer bug).
pub fn decode<'a>(
    program: &Program,
    input: &'a [u8],
    options: &ExecOptions,
    scratch: &mut Scratch,
) -> Result<Decoded<'a>, Failure> {
    let layout = &program.layout;
    assert!(layout.is_present(), "decode needs a program with a layout");
    let arena = scratch.decode.arena();
    let shape = layout.funcs[program.entry as usize].shape;
    let d = &mut scratch.decode;
    d.frames.clear();
    let mut sink = Decoder {
        layout,
        arena: &arena,
        bufs: &mut d.bufs,
        open: 0,
        frames: &mut d.frames,
        _input: PhantomData,
    };
    let root = sink.acquire(layout.shape(shape).slot_size() as usize);
    let at = Loc { buf: root, off: 0 };
    sink.push(shape, at, Loc::NOWHERE, 1);
    let mut machine = Machine::new(program, input, options, &mut scratch.core, 0, sink);
    machine.run()?;
    let root = machine.sink.bufs[root as usize].as_slice();
    let root = arena.alloc_slice_copy(root).as_ptr().expose_provenance();
    scratch.decode.note_arena(&arena);
    Ok(Decoded {
        arena,
        root,
        shape,
        layout: Arc::clone(layout),
        big_ints: options.big_ints,
        input,
    })
}

/// The decoding sink.
struct Decoder<'a, 'b> {
    layout: &'b Layout,
    arena: &'b Bump,
    bufs: &'b mut Vec<Vec<u8>>,
    open: usize,
    frames: &'b mut Vec<DFrame>,
    _input: PhantomData<&'a [u8]>,
}

impl Decoder<'_, '_> {
    /// A cleared buffer of `len` zero bytes; buffers are released in LIFO order.
    fn acquire(&mut self, len: usize) -> u32 {
        if self.bufs.len() == self.open {
            self.bufs.push(Vec::new());
        }
        let buf = &mut self.bufs[self.open];
        buf.clear();
        buf.resize(len, 0);
        self.open += 1;
        (self.open - 1) as u32
    }

    /// Pushes a frame; `open` is the number of buffers open before it.
    fn push(&mut self, shape: ShapeId, dst: Loc, slot: Loc, open: usize) {
        self.frames.push(DFrame {
            shape,
            dst,
            base: dst,
            buf: NONE,
            extras: 0,
            slot,
            open,
        });
    }

    fn top(&mut self) -> &mut DFrame {
        self.frames
            .last_mut()
            .expect("a decode frame while running")
    }

    /// The destination of the op at `at`.
    fn loc(&mut self, at: At) -> Loc {
        let dst = self.layout.funcs[at.0 as usize].dst[at.1 as usize];
        self.top().base.plus(dst)
    }

    fn put(&mut self, at: Loc, bytes: &[u8]) {
        if !at.is_none() {
            self.bufs[at.buf as usize][at.off..at.off + bytes.len()].copy_from_slice(bytes);
        }
    }

    fn put_pair(&mut self, at: Loc, addr: usize, len: usize) {
        let mut pair = [0u8; PAIR as usize];
        pair[..8].copy_from_slice(&addr.to_ne_bytes());
        pair[8..].copy_from_slice(&len.to_ne_bytes());
        self.put(at, &pair);
    }

    /// Stores a string's `(ptr, len)`: the input itself, or a copy in the arena.
    fn put_text(&mut self, at: Loc, text: Text<'_, '_>) {
        if at.is_none() {
            return;
        }
        let addr = match text {
            Text::Input(t) => (t.as_ptr().expose_provenance(), t.len()),
            Text::Scratch(t) => {
                let copy = self.arena.alloc_slice_copy(t);
                (copy.as_ptr().expose_provenance(), t.len())
            }
        };
        self.put_pair(at, addr.0, addr.1);
    }

    /// Copies `len` bytes of buffer `buf` to the arena; returns the copy's address.
    fn copy_out(&mut self, buf: u32, len: usize) -> usize {
        let copy = self.arena.alloc_slice_copy(&self.bufs[buf as usize][..len]);
        copy.as_ptr().expose_provenance()
    }

    /// Releases the newest buffer, which must be `buf`.
    fn release(&mut self, buf: u32) {
        debug_assert_eq!(buf as usize + 1, self.open);
        self.open = buf as usize;
    }
}

impl<'a> Sink<'a> for Decoder<'a, '_> {
    const TEXT: bool = true;

    fn builds(&mut self, at: At) -> bool {
        !self.loc(at).is_none()
    }

    fn enter(&mut self, at: At, callee: FuncId) {
        let slot = self.loc(at);
        let shape = self.layout.funcs[callee as usize].shape;
        let info = self.layout.shape(shape);
        let open = self.open;
        if !slot.is_none() && info.boxed {
            let record = self.acquire(info.size as usize);
            self.push(
                shape,
                Loc {
                    buf: record,
                    off: 0,
                },
                slot,
                open,
            );
        } else {
            self.push(shape, slot, Loc::NOWHERE, open);
        }
    }

    fn leave(&mut self) {
        let f = self.frames.pop().expect("a decode frame while running");
        if !f.slot.is_none() {
            let size = self.layout.shape(f.shape).size as usize;
            let addr = self.copy_out(f.dst.buf, size);
            self.put(f.slot, &addr.to_ne_bytes());
        }
        self.open = f.open;
    }

    fn unwind(&mut self, frames: usize) {
        if let Some(f) = self.frames.get(frames) {
            self.open = f.open;
        }
        self.frames.truncate(frames);
    }

    fn boolean(&mut self, at: At, value: bool) {
        let at = self.loc(at);
        self.put(at, &[value as u8]);
    }

    fn number(&mut self, at: At, value: NumRef<'a>, _token: &'a [u8]) {
        let at = self.loc(at);
        self.put(at, &number_slot(value));
    }

    fn string(&mut self, at: At, text: Text<'a, '_>, _token: &'a [u8]) {
        let at = self.loc(at);
        self.put_text(at, text);
    }

    fn str_enum(&mut self, at: At, index: u32, _text: Text<'a, '_>, _token: &'a [u8]) {
        self.index(at, index);
    }

    fn index(&mut self, at: At, value: u32) {
        let at = self.loc(at);
        self.put(at, &value.to_ne_bytes());
    }

    fn raw(&mut self, at: At, raw: &'a [u8]) {
        let at = self.loc(at);
        self.put_text(at, Text::Input(raw));
    }

    fn arr_begin(&mut self, empty: bool) {
        let f = *self.top();
        if f.dst.is_none() {
            return;
        }
        let Shape::Array { stride, .. } = self.layout.shape(f.shape).shape else {
            unreachable!("arr-begin in a function whose shape is not an array")
        };
        let buf = self.acquire(if empty { 0 } else { stride as usize });
        let top = self.top();
        top.buf = buf;
        top.base = Loc { buf, off: 0 };
    }

    fn arr_item(&mut self, index: u64) {
        let f = *self.top();
        if f.dst.is_none() {
            return;
        }
        let Shape::Array { stride, .. } = self.layout.shape(f.shape).shape else {
            unreachable!("arr-next in a function whose shape is not an array")
        };
        let off = index as usize * stride as usize;
        self.bufs[f.buf as usize].resize(off + stride as usize, 0);
        self.top().base = Loc { buf: f.buf, off };
    }

    fn arr_end(&mut self, count: u64) {
        let f = *self.top();
        if f.dst.is_none() {
            return;
        }
        let Shape::Array { stride, .. } = self.layout.shape(f.shape).shape else {
            unreachable!("arr-end in a function whose shape is not an array")
        };
        let addr = self.copy_out(f.buf, count as usize * stride as usize);
        self.release(f.buf);
        self.put_pair(f.dst, addr, count as usize);
        self.top().base = f.dst;
    }

    fn obj_begin(&mut self) {
        let f = *self.top();
        if f.dst.is_none() {
            return;
        }
        let size = self.layout.shape(f.shape).size as usize;
        self.bufs[f.dst.buf as usize][f.dst.off..f.dst.off + size].fill(0);
        let buf = self.acquire(0);
        let top = self.top();
        top.buf = buf;
        top.extras = 0;
        top.base = f.dst;
    }

    fn key(
        &mut self,
        field: Option<u32>,
        _described: bool,
        text: Text<'a, '_>,
        _token: &'a [u8],
    ) -> bool {
        let f = *self.top();
        if f.dst.is_none() {
            return true;
        }
        if field.is_some() {
            self.top().base = f.dst;
            return true;
        }
        let Shape::Object { entry, .. } = self.layout.shape(f.shape).shape else {
            unreachable!("key in a function whose shape is not an object")
        };
        let off = f.extras * entry as usize;
        self.bufs[f.buf as usize].resize(off + entry as usize, 0);
        let at = Loc { buf: f.buf, off };
        self.put_text(at, text);
        let top = self.top();
        top.base = at;
        top.extras += 1;
        true
    }

    fn obj_end(&mut self, bits: &[u64]) {
        let f = *self.top();
        if f.dst.is_none() {
            return;
        }
        let Shape::Object { entry, extras, .. } = self.layout.shape(f.shape).shape else {
            unreachable!("obj-end in a function whose shape is not an object")
        };
        for (i, word) in bits.iter().enumerate() {
            self.put(f.dst.plus(8 * i as u32), &word.to_ne_bytes());
        }
        let addr = self.copy_out(f.buf, f.extras * entry as usize);
        self.release(f.buf);
        self.put_pair(f.dst.plus(extras), addr, f.extras);
        self.top().base = f.dst;
    }
}

/// The 16 bytes of a number slot (the interpreter's decoder and native decode write them).
pub(crate) fn number_slot(value: NumRef<'_>) -> [u8; 16] {
    let mut slot = [0u8; 16];
    let (tag, bits) = match value {
        NumRef::Number(Number::U64(u)) => (NUM_U64, u),
        NumRef::Number(Number::I64(i)) => (NUM_I64, i as u64),
        NumRef::Number(Number::F64(f)) => (NUM_F64, f.to_bits()),
        NumRef::BigInt(b) => {
            // The reader checked that the length fits a `u32`.
            let text = b.as_str();
            slot[4..8].copy_from_slice(&(text.len() as u32).to_ne_bytes());
            (NUM_RAW, text.as_ptr().expose_provenance() as u64)
        }
    };
    slot[0] = tag;
    slot[8..].copy_from_slice(&bits.to_ne_bytes());
    slot
}

#[cfg(test)]
mod tests {
    use super::DecodeScratch;

    #[test]
    fn the_arena_hint_follows_the_last_decode() {
        let mut scratch = DecodeScratch::default();
        let first = scratch.arena();
        // Uninitialized blocks: filling 100 000 bytes one by one took half a minute of Miri.
        let block = std::alloc::Layout::from_size_align(100, 1).expect("a layout");
        for _ in 0..1000 {
            first.alloc_layout(block);
        }
        scratch.note_arena(&first);
        assert!(
            (100_000..200_000).contains(&scratch.arena_hint),
            "{}",
            scratch.arena_hint
        );
        let second = scratch.arena();
        assert!(second.chunk_capacity() >= 100_000, "one chunk holds it all");
        second.alloc_layout(std::alloc::Layout::from_size_align(10, 1).expect("a layout"));
        scratch.note_arena(&second);
        assert!(scratch.arena_hint < 1000, "{}", scratch.arena_hint);
    }
}

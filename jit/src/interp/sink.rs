//! What the machine reports while it runs: the hooks decode (and later transcode) build on.
//! Validation uses [`Check`], whose hooks do nothing and compile away.

use crate::ir::{FuncId, Label, NumRef};

/// The op being executed: its function and index (decode looks up its destination operand).
pub(crate) type At = (FuncId, Label);

/// A string's unescaped text: the input itself when it has no escapes, else a scratch copy.
#[derive(Clone, Copy)]
pub(crate) enum Text<'a, 't> {
    /// Borrowed from the input.
    Input(&'a [u8]),
    /// Unescaped into scratch (valid until the next string).
    Scratch(&'t [u8]),
}

impl<'a: 't, 't> Text<'a, 't> {
    /// The text's bytes, wherever they are.
    pub(crate) fn bytes(self) -> &'t [u8] {
        match self {
            Text::Input(t) | Text::Scratch(t) => t,
        }
    }
}

/// Hooks called by the machine after each successful step (see the IR's decode table).
pub(crate) trait Sink<'a> {
    /// Whether string ops must produce the unescaped text even without checks needing it.
    const TEXT: bool;
    /// Whether number ops must produce the value: without, a number that certainly passes its
    /// checks is stepped over by the bounds kernel, its value not always read.
    const NUMBERS: bool = true;
    /// Whether [`Sink::key`] needs its `described` answer; without, it gets `false` and no
    /// pattern is asked.
    const DESCRIBED: bool = false;
    /// Whether the machine may remember runs of the program's remembered functions (see the
    /// IR's "Remembered runs"): the sink builds nothing, so a run's verdict is all it does.
    const REMEMBERS: bool = false;
    /// Whether the call at `at` builds anything (a frame without destination only checks).
    fn builds(&mut self, _at: At) -> bool {
        true
    }
    /// A frame was pushed by `Call` / `Try` at `at`.
    fn enter(&mut self, _at: At, _callee: FuncId) {}
    /// The current frame returns.
    fn leave(&mut self) {}
    /// A violation unwound to a catching frame: `frames` frames remain.
    fn unwind(&mut self, _frames: usize) {}
    /// `null` was read.
    fn null(&mut self, _at: At) {}
    /// A boolean was read.
    fn boolean(&mut self, _at: At, _value: bool) {}
    /// A number was read (a big integer's text is the input's); `token` is its text.
    fn number(&mut self, _at: At, _value: NumRef<'a>, _token: &'a [u8]) {}
    /// A string was read; `token` is the input's, quotes and escapes included.
    fn string(&mut self, _at: At, _text: Text<'a, '_>, _token: &'a [u8]) {}
    /// A string of a string enumeration was read: its index, text and token.
    fn str_enum(&mut self, _at: At, _index: u32, _text: Text<'a, '_>, _token: &'a [u8]) {}
    /// A union tag (kind slot or branch index) is known.
    fn index(&mut self, _at: At, _value: u32) {}
    /// A value was skipped: its raw text.
    fn raw(&mut self, _at: At, _raw: &'a [u8]) {}
    /// An array opened (`empty`: `]` followed).
    fn arr_begin(&mut self, _empty: bool) {}
    /// Item `index` (> 0) starts.
    fn arr_item(&mut self, _index: u64) {}
    /// The array closed after `count` items.
    fn arr_end(&mut self, _count: u64) {}
    /// An object opened.
    fn obj_begin(&mut self) {}
    /// A key was read: the named field it matched, or its text; with
    /// [`Sink::DESCRIBED`], `described` when no field names it and
    /// [`KeyTable::describes_other`](crate::ir::KeyTable::describes_other) says yes; `token` is the input's, quotes and escapes included. `false` refuses the
    /// member (an `UnknownField` violation).
    fn key(
        &mut self,
        _field: Option<u32>,
        _described: bool,
        _text: Text<'a, '_>,
        _token: &'a [u8],
    ) -> bool {
        true
    }
    /// The object closed with these presence bits.
    fn obj_end(&mut self, _bits: &[u64]) {}
}

/// The sink of validation: nothing is built.
pub(crate) struct Check;

impl Sink<'_> for Check {
    const TEXT: bool = false;
    const NUMBERS: bool = false;
    const REMEMBERS: bool = true;
}

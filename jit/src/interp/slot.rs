//! A sink that writes the one value a lone value op reads straight into a slot at a raw
//! address, in the [layout](crate::layout) format: how native decode runs the value ops it
//! does not lower (checked strings, enumerations, the cold number paths) on the
//! interpreter's own code, so both backends write the same bytes.

use std::marker::PhantomData;

use bumpalo::Bump;

use crate::ir::{ExecOptions, FailKind, NumRef, Program};

use super::Scratch;
use super::decode::number_slot;
use super::machine::run_value_op_with;
use super::sink::{At, Sink, Text};

/// Writes the value of one op at `addr` (0: write nothing); unescaped text is copied to
/// `arena`.
struct Slot<'a, 'b> {
    addr: usize,
    arena: &'b Bump,
    _input: PhantomData<&'a [u8]>,
}

impl Slot<'_, '_> {
    fn put(&self, bytes: &[u8]) {
        if self.addr == 0 {
            return;
        }
        // SAFETY: the native code that passed `addr` guarantees it points at a writable
        // slot of the op's shape (at least `bytes.len()` bytes) in a live decode buffer
        // that nothing else borrows during the call.
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                std::ptr::with_exposed_provenance_mut::<u8>(self.addr),
                bytes.len(),
            );
        }
    }

    fn put_pair(&self, bytes: &[u8]) {
        let mut pair = [0u8; 16];
        pair[..8].copy_from_slice(&bytes.as_ptr().expose_provenance().to_ne_bytes());
        pair[8..].copy_from_slice(&bytes.len().to_ne_bytes());
        self.put(&pair);
    }

    fn put_text(&self, text: Text<'_, '_>) {
        if self.addr == 0 {
            return;
        }
        match text {
            Text::Input(t) => self.put_pair(t),
            Text::Scratch(t) => self.put_pair(self.arena.alloc_slice_copy(t)),
        }
    }
}

impl<'a> Sink<'a> for Slot<'a, '_> {
    const TEXT: bool = true;

    fn boolean(&mut self, _at: At, value: bool) {
        self.put(&[value as u8]);
    }

    fn number(&mut self, _at: At, value: NumRef<'a>, _token: &'a [u8]) {
        self.put(&number_slot(value));
    }

    fn string(&mut self, _at: At, text: Text<'a, '_>, _token: &'a [u8]) {
        self.put_text(text);
    }

    fn str_enum(&mut self, _at: At, index: u32, _text: Text<'a, '_>, _token: &'a [u8]) {
        self.put(&index.to_ne_bytes());
    }

    fn raw(&mut self, _at: At, raw: &'a [u8]) {
        self.put_text(Text::Input(raw));
    }
}

/// Runs the value op at `site` alone at `at` (cursor, depth) as decode does, writing its
/// value at `addr` (0: nowhere): the cursor after it, or the error's kind and offset. A
/// value read before a failed check is written too, as the interpreter's decoder does.
///
/// # Safety
/// `addr` is 0 or points at a writable slot of the op's shape that nothing else borrows
/// during the call.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn run_value_op_into(
    program: &Program,
    input: &[u8],
    options: &ExecOptions,
    scratch: &mut Scratch,
    at: (usize, u32),
    site: At,
    addr: usize,
    arena: &Bump,
) -> Result<usize, (FailKind, usize)> {
    let sink = Slot {
        addr,
        arena,
        _input: PhantomData,
    };
    run_value_op_with(program, input, options, &mut scratch.core, at, site, sink)
}

//! Stack room for the schema passes that recurse along the schema's graph (the layout
//! sizer, the reference validator). A schema is deep through `$ref` chains, which
//! JSON's nesting limit does not bound: a chain of 20 000 `oneOf`s overflowed the test
//! harness's 2 MiB thread stack. Each recursive step runs under [`grow`], which moves to a
//! fresh heap-allocated stack segment when the current one runs low.

/// Stack left below which [`grow`] switches to a new segment: more than one recursive
/// step of any pass uses.
const RED_ZONE: usize = 128 * 1024;

/// The size of each new segment.
const SEGMENT: usize = 2 * 1024 * 1024;

/// Runs `step` with at least [`RED_ZONE`] bytes of stack.
#[inline]
pub(crate) fn grow<R>(step: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, step)
}

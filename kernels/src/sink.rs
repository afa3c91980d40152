//! Output sinks shared by the string kernels ([`crate::unescape`], [`crate::escape`],
//! [`crate::reescape`]): the
//! same decoding or encoding loop writes into a growing `Vec`, a fixed slice, or nowhere.

/// Where a string kernel's output bytes go.
pub(crate) trait Sink {
    /// Appends `bytes`.
    fn push(&mut self, bytes: &[u8]);

    /// Appends the first `keep` bytes of `chunk`. A sink may write all 32 bytes when it has
    /// room (one wide store instead of a variable-length copy) and count only `keep`.
    #[inline]
    fn push_chunk(&mut self, chunk: &[u8; 32], keep: usize) {
        self.push(&chunk[..keep]);
    }

    /// Appends the UTF-8 of one character an escape decoded to. Unescaping sinks append it as
    /// it is; a sink that escapes again ([`crate::reescape`]) writes its escape when it needs one.
    #[inline]
    fn push_decoded(&mut self, bytes: &[u8]) {
        self.push(bytes);
    }
}

/// Appends to a `Vec`.
pub(crate) struct VecSink<'a>(pub(crate) &'a mut Vec<u8>);

impl Sink for VecSink<'_> {
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    #[inline]
    fn push_chunk(&mut self, chunk: &[u8; 32], keep: usize) {
        // A whole chunk is a fixed-size copy; only a chunk cut short by an escape needs a
        // variable-length one.
        if keep == chunk.len() {
            self.0.extend_from_slice(chunk);
        } else {
            self.0.extend_from_slice(&chunk[..keep]);
        }
    }
}

/// Writes into a slice from its start, counting the bytes written. The kernels check the
/// slice is long enough for their worst case before writing, so `push` never runs out of
/// room (if it did, that bug would panic on the bounds check, never write out of bounds).
pub(crate) struct SliceSink<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceSink<'a> {
    /// An empty sink writing into `buf`.
    #[inline]
    pub(crate) fn new(buf: &'a mut [u8]) -> SliceSink<'a> {
        SliceSink { buf, len: 0 }
    }

    /// Bytes written so far.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl Sink for SliceSink<'_> {
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    #[inline]
    fn push_chunk(&mut self, chunk: &[u8; 32], keep: usize) {
        match self.buf.get_mut(self.len..self.len + chunk.len()) {
            Some(dst) => {
                dst.copy_from_slice(chunk);
                self.len += keep;
            }
            None => self.push(&chunk[..keep]),
        }
    }
}

/// Drops everything: for kernels that only validate.
pub(crate) struct Discard;

impl Sink for Discard {
    #[inline]
    fn push(&mut self, _bytes: &[u8]) {}
}

//! Re-escaping a JSON string body in one pass: what [`crate::unescape`] followed by
//! [`crate::escape`] with [`EscapeMode::Minimal`](crate::escape::EscapeMode) writes, without
//! the unescaped text in between.
//!
//! The runs between escapes are copied as they are: a well-formed body holds no raw `"` and
//! no raw control byte, the only bytes the minimal mode escapes. Each escape is decoded by
//! the unescape kernel's shared code and the character it names is written escaped again
//! when the minimal mode escapes it (`"`, `\`, a control character: `\n` stays `\n`,
//! `\u001F` becomes `\u001f`, `\u0041` becomes `A`, `\/` becomes `/`), else as its UTF-8.
//! Errors are the unescape kernel's, at the same offsets. On a body with a raw `"` or
//! control byte (not well-formed) the output is the body's bytes as they are, still without
//! reading out of bounds.

use crate::error::KernelError;
use crate::escape::escape_ascii;
use crate::sink::{Sink, VecSink};
use crate::unescape::Surrogates;

/// Appends `body` (a string body without quotes) quoted, its escapes decoded and escaped
/// again as `serde_json` writes the string (see the module docs).
///
/// The output is never longer than `body.len() + 2` (no escape grows). On error `out` is
/// left as it was on entry.
#[inline]
pub fn reescape_minimal(
    body: &[u8],
    out: &mut Vec<u8>,
    surrogates: Surrogates,
) -> Result<(), KernelError> {
    #[cfg(target_arch = "x86_64")]
    if crate::dispatch::use_avx2() {
        // SAFETY: `use_avx2` is true only after every feature in `AVX2_FEATURES` was detected.
        return unsafe { avx2::reescape_minimal(body, out, surrogates) };
    }
    scalar::reescape_minimal(body, out, surrogates)
}

/// A sink over a `Vec` that escapes each decoded character the minimal mode escapes.
struct MinimalEscapes<'a>(VecSink<'a>);

impl Sink for MinimalEscapes<'_> {
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        self.0.push(bytes);
    }

    #[inline]
    fn push_chunk(&mut self, chunk: &[u8; 32], keep: usize) {
        self.0.push_chunk(chunk, keep);
    }

    #[inline]
    fn push_decoded(&mut self, bytes: &[u8]) {
        match *bytes {
            [b] if b < 0x20 || b == b'"' || b == b'\\' => escape_ascii(b, &mut self.0),
            _ => self.0.push(bytes),
        }
    }
}

/// Writes the quotes around what `decode` writes into a [`MinimalEscapes`] sink over `out`;
/// restores `out`'s length on error.
#[inline]
fn quoted(
    out: &mut Vec<u8>,
    body_len: usize,
    decode: impl FnOnce(&mut MinimalEscapes<'_>) -> Result<(), KernelError>,
) -> Result<(), KernelError> {
    let start = out.len();
    out.reserve(body_len.saturating_add(2));
    out.push(b'"');
    let result = decode(&mut MinimalEscapes(VecSink(out)));
    match result {
        Ok(()) => out.push(b'"'),
        Err(_) => out.truncate(start),
    }
    result
}

/// The portable twin: the unescape kernel's scalar loop.
pub mod scalar {
    use super::quoted;
    use crate::error::KernelError;
    use crate::unescape::{Surrogates, scalar::decode};

    /// See [`super::reescape_minimal`].
    pub fn reescape_minimal(
        body: &[u8],
        out: &mut Vec<u8>,
        surrogates: Surrogates,
    ) -> Result<(), KernelError> {
        quoted(out, body.len(), |sink| decode(body, sink, surrogates))
    }
}

/// The AVX2 implementation: the unescape kernel's AVX2 loop.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::quoted;
    use crate::error::KernelError;
    use crate::unescape::{Surrogates, avx2::decode};

    /// See [`super::reescape_minimal`].
    ///
    /// # Safety
    /// The CPU must support every feature in [`crate::dispatch::AVX2_FEATURES`].
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub unsafe fn reescape_minimal(
        body: &[u8],
        out: &mut Vec<u8>,
        surrogates: Surrogates,
    ) -> Result<(), KernelError> {
        // SAFETY: this function requires the same features as `decode`.
        quoted(out, body.len(), |sink| unsafe {
            decode(body, sink, surrogates)
        })
    }
}

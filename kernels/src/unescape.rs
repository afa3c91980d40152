//! PLACEHOLDER (owned by the strings helper): unescaping string bodies.
use crate::error::KernelError;

/// How `\u` escapes of lone surrogates are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Surrogates {
    /// A lone or malformed surrogate is an error ([`crate::ErrorKind::LoneSurrogate`]).
    #[default]
    Strict,
    /// A lone surrogate becomes U+FFFD.
    Lossy,
}

/// Appends the unescaped form of `body` (a string body without quotes) to `out`.
pub fn unescape(body: &[u8], out: &mut Vec<u8>, surrogates: Surrogates) -> Result<(), KernelError> {
    let _ = (body, out, surrogates);
    unimplemented!()
}

/// Unescapes `body` into `out` (which must be at least `body.len()` long); returns bytes written.
pub fn unescape_into(
    body: &[u8],
    out: &mut [u8],
    surrogates: Surrogates,
) -> Result<usize, KernelError> {
    let _ = (body, out, surrogates);
    unimplemented!()
}

/// Checks every escape of `body` without producing output.
pub fn validate_escapes(body: &[u8], surrogates: Surrogates) -> Result<(), KernelError> {
    let _ = (body, surrogates);
    unimplemented!()
}

//! PLACEHOLDER (owned by the numbers helper): correctly rounded float parsing.
use crate::error::KernelError;

/// What a finite literal too large for f64 (`1e400`) becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FloatOverflow {
    /// An error ([`crate::ErrorKind::NumberOutOfRange`]).
    #[default]
    Error,
    /// Positive or negative infinity.
    Infinity,
}

/// Parses the JSON number at `pos` as the nearest f64; returns it and the index past the token.
pub fn parse_f64(
    buf: &[u8],
    pos: usize,
    overflow: FloatOverflow,
) -> Result<(f64, usize), KernelError> {
    let _ = (buf, pos, overflow);
    unimplemented!()
}

//! Turning a walk's [`KernelError`] into a [`crate::Error`], on the cold path.
//!
//! A walk knows the kind and offset of what it found wrong but not the JSON path inside the
//! values it skipped. Since every byte before a checked walk's failure was valid, the value
//! parser ([`crate::value`]) run over the document stops at the same first error and names it
//! the way every other part of jitson does (serde_json's wording, line, column, path). It is
//! configured to accept what a walk accepts (big numbers kept raw, repeated keys, the same
//! depth limit). Only if it accepts the document (a disagreement, which the tests look for)
//! is the kernel's own kind reported, at the root.

use jitson_kernels::KernelError;

use crate::error::{Error, ErrorKind};
use crate::path::Path;
use crate::value::{self, BigNumbers, Bump, ParseOptions};

/// The error for a walk of `buf` that failed with `error`, nesting limited to `max_depth`.
#[cold]
#[inline(never)]
pub(super) fn document_error(buf: &[u8], error: KernelError, max_depth: usize) -> Error {
    let arena = Bump::new();
    let options = ParseOptions::new()
        .max_depth(max_depth)
        .big_numbers(BigNumbers::Raw);
    match value::parse_with(buf, &arena, &options) {
        Err(parsed) => parsed,
        Ok(_) => Error::new(
            ErrorKind::from_kernel(error.kind, true),
            buf,
            error.offset,
            Path::root(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::SyntaxKind;
    use jitson_kernels::ErrorKind as KernelKind;

    #[test]
    fn the_parser_names_the_error_with_its_path() {
        let doc = br#"{"a": [1, tru]}"#;
        let e = document_error(doc, KernelError::new(KernelKind::UnexpectedByte, 13), 128);
        assert_eq!(e.kind(), ErrorKind::Syntax(SyntaxKind::InvalidLiteral));
        assert_eq!(e.offset(), 13);
        assert_eq!(e.path().to_string(), "$.a[1]");
    }

    #[test]
    fn a_disagreement_reports_the_kernel_kind_at_the_root() {
        let e = document_error(b"[1]", KernelError::new(KernelKind::ExpectedColon, 1), 128);
        assert_eq!(e.kind(), ErrorKind::Syntax(SyntaxKind::ExpectedColon));
        assert!(e.path().is_root());
    }
}

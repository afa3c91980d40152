//! jitson's one error type: what went wrong, where (byte offset, line, column, JSON path),
//! and for schema failures which keyword, and where that keyword sits in the schema.
//!
//! Every operation on input returns this [`Error`]: the schema-less value parser
//! ([`crate::value`]) and the schema codecs ([`crate::Codec`]) alike. (Loading a schema fails
//! with a [`crate::SchemaError`] instead: that is a fault in the schema, not in the input.)
//!
//! The hot paths record only an offset and a compact path (field indices, key spans,
//! indices); an [`Error`] is built once, on failure, and computes the line, the column and the
//! message then (see [`crate::position`] for the convention, which is serde_json's).
//!
//! # Messages
//!
//! Where serde_json has the same error, the message is serde_json's wording, and
//! [`Error`]'s `Display` starts exactly like serde_json's (`"{message} at line {line} column
//! {column}"`) before adding the path, and for schema failures the keyword:
//!
//! ```text
//! expected value at line 1 column 14, path $.a[1].b
//! expected integer, found string at line 1 column 8, path $.id, keyword type
//! ```
//!
//! Logs, tests and users who know serde_json's messages keep recognising them. The
//! exceptions are documented on the kinds ([`SyntaxKind::LoneTrailingSurrogate`] and the
//! kinds serde_json does not have).

mod keyword;
mod syntax;

pub use keyword::Keyword;
pub use syntax::SyntaxKind;

use std::borrow::Cow;
use std::fmt;

use crate::path::Path;
use crate::position::Position;

/// What went wrong. New kinds may be added: match with a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not well-formed JSON (RFC 8259).
    Syntax(SyntaxKind),
    /// Containers nested deeper than the configured limit (serde_json: "recursion limit
    /// exceeded"). The offset is the opening bracket that would exceed it.
    DepthLimitExceeded,
    /// A well-formed number that the target cannot hold: a float beyond the range of `f64`
    /// (`1e400`), or an integer beyond 64 bits when big numbers are configured as errors.
    /// The offset is the number's last byte (where serde_json reports it for the common
    /// cases).
    NumberOutOfRange,
    /// An object repeats a key while duplicate keys are denied. The offset is the repeated
    /// key's opening quote and the path ends with that key.
    DuplicateKey,
    /// Well-formed JSON that the schema rejects: the keyword that said no
    /// ([`Error::schema_pointer`] says where it sits in the schema). The offset is the
    /// failing value's first byte, or for `required`, `minItems` and `maxItems` its closing
    /// bracket.
    Schema(Keyword),
    /// Typed decode: the value fits the schema, but the Rust type's serde `Deserialize`
    /// refused it (a serde_json integer type given `1.0`, a borrowed `&str` holding an
    /// escape); the message is the type's. The offset is the value's first byte.
    Deserialize,
}

impl ErrorKind {
    /// The nearest kind for a kernel error kind; a missing `,` is an array's when
    /// `in_array`, else an object's. Used when the value parser does not name the error
    /// itself (it always should).
    pub(crate) fn from_kernel(kind: jitson_kernels::ErrorKind, in_array: bool) -> ErrorKind {
        use jitson_kernels::ErrorKind as K;
        ErrorKind::Syntax(match kind {
            K::DepthLimitExceeded => return ErrorKind::DepthLimitExceeded,
            K::NumberOutOfRange => return ErrorKind::NumberOutOfRange,
            K::UnexpectedEnd => SyntaxKind::EofWhileParsingValue,
            K::UnexpectedByte => SyntaxKind::InvalidLiteral,
            K::ControlInString => SyntaxKind::ControlInString,
            K::InvalidEscape => SyntaxKind::InvalidEscape,
            K::InvalidUnicodeEscape => SyntaxKind::InvalidUnicodeEscape,
            K::LoneSurrogate => SyntaxKind::LoneLeadingSurrogate,
            K::InvalidUtf8 => SyntaxKind::InvalidUtf8,
            K::InvalidNumber | K::NotAnInteger => SyntaxKind::InvalidNumber,
            K::ExpectedKey => SyntaxKind::ExpectedKey,
            K::ExpectedColon => SyntaxKind::ExpectedColon,
            K::ExpectedCommaOrEnd if in_array => SyntaxKind::ExpectedArrayCommaOrEnd,
            K::ExpectedCommaOrEnd => SyntaxKind::ExpectedObjectCommaOrEnd,
            K::TrailingCharacters => SyntaxKind::TrailingCharacters,
            K::ExpectedValue | K::OutputTooSmall => SyntaxKind::ExpectedValue,
        })
    }

    /// A short description: the message for every kind but [`ErrorKind::Schema`], whose
    /// messages depend on the value and the schema ([`Error::message`] has them).
    pub fn message(self) -> &'static str {
        match self {
            ErrorKind::Syntax(kind) => kind.message(),
            ErrorKind::DepthLimitExceeded => "recursion limit exceeded",
            ErrorKind::NumberOutOfRange => "number out of range",
            ErrorKind::DuplicateKey => "duplicate key",
            ErrorKind::Schema(_) => "schema violation",
            ErrorKind::Deserialize => "the type refused the value",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Schema(keyword) => write!(f, "schema violation (keyword {keyword})"),
            kind => f.write_str(kind.message()),
        }
    }
}

/// A failure with its kind, where it happened and (for schema failures) which keyword.
///
/// `Display` prints `"{message} at line {line} column {column}, path {path}"`, then
/// `", keyword {keyword}"` for schema failures. The first part is exactly serde_json's
/// `Display` for the errors both have (see the [module documentation](self)).
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    // Boxed so that `Result<T, Error>` stays one pointer wider than `T`.
    inner: Box<Inner>,
}

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    offset: usize,
    position: Position,
    path: Path,
    message: Cow<'static, str>,
    schema_pointer: Option<String>,
}

impl Error {
    /// An error of `kind` at byte `offset` of `input`, at `path`, with the kind's message;
    /// computes the line and column from `input` ([`Position::of`]).
    pub fn new(kind: ErrorKind, input: &[u8], offset: usize, path: Path) -> Error {
        Error::with_message(kind, input, offset, path, Cow::Borrowed(kind.message()))
    }

    /// [`Error::new`] with a message built for this failure.
    pub(crate) fn with_message(
        kind: ErrorKind,
        input: &[u8],
        offset: usize,
        path: Path,
        message: Cow<'static, str>,
    ) -> Error {
        Error {
            inner: Box::new(Inner {
                kind,
                offset,
                position: Position::of(input, offset),
                path,
                message,
                schema_pointer: None,
            }),
        }
    }

    /// Attaches the JSON Pointer of the schema keyword that failed (for example
    /// `/properties/id/minimum`).
    pub(crate) fn with_schema_pointer(mut self, pointer: String) -> Error {
        self.inner.schema_pointer = Some(pointer);
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The message, without position or path: `expected value`, `expected integer, found
    /// string`, `missing required field "id"`.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// Byte offset of the offending byte in the input (the input's length when it ended too
    /// early).
    pub fn offset(&self) -> usize {
        self.inner.offset
    }

    /// Line and column of the offset ([`crate::position`] has the convention).
    pub fn position(&self) -> Position {
        self.inner.position
    }

    /// The 1-based line.
    pub fn line(&self) -> usize {
        self.inner.position.line
    }

    /// The column in bytes ([`crate::position`] has the convention).
    pub fn column(&self) -> usize {
        self.inner.position.column
    }

    /// Where in the document the failing value sits ([`crate::path`] has the format).
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// The keyword that rejected the value, for schema failures.
    pub fn keyword(&self) -> Option<Keyword> {
        match self.inner.kind {
            ErrorKind::Schema(keyword) => Some(keyword),
            _ => None,
        }
    }

    /// The JSON Pointer of the failing keyword in the schema's canonical form
    /// (`/properties/id/type`; conventions at [`crate::ValidationError::schema_pointer`]),
    /// for schema failures. `None` for other errors, and in the rare case the keyword could
    /// not be placed (a path deeper than a thousand levels).
    pub fn schema_pointer(&self) -> Option<&str> {
        self.inner.schema_pointer.as_deref()
    }

    /// True when the input stopped too early (more input could make it valid).
    pub fn is_eof(&self) -> bool {
        matches!(self.inner.kind, ErrorKind::Syntax(kind) if kind.is_eof())
    }

    /// True for schema failures (the input is well-formed JSON as far as it was read).
    pub fn is_schema(&self) -> bool {
        matches!(self.inner.kind, ErrorKind::Schema(_))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &*self.inner;
        write!(
            f,
            "{} at {}, path {}",
            inner.message, inner.position, inner.path
        )?;
        if let Some(keyword) = self.keyword() {
            write!(f, ", keyword {keyword}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &*self.inner;
        let mut s = f.debug_struct("Error");
        s.field("kind", &inner.kind)
            .field("message", &inner.message)
            .field("offset", &inner.offset)
            .field("line", &inner.position.line)
            .field("column", &inner.position.column)
            .field("path", &format_args!("{}", inner.path));
        if let Some(pointer) = &inner.schema_pointer {
            s.field("schema_pointer", pointer);
        }
        s.finish()
    }
}

impl std::error::Error for Error {}

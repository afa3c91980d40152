//! jitson's error type: what went wrong, where (byte offset, line, column, JSON path), and
//! for schema failures which schema keyword.
//!
//! The hot paths record only an offset and a compact path (borrowed keys and indices); an
//! [`Error`] is built once, on failure, and computes the line and column from the input then
//! (see [`crate::position`] for the convention, which is serde_json's).
//!
//! # Messages
//!
//! Where serde_json has the same error, the message is serde_json's wording, and
//! [`Error`]'s `Display` starts exactly like serde_json's (`"{message} at line {line} column
//! {column}"`) before adding the path: `expected value at line 1 column 14, path
//! $.a[1].b`. Logs, tests and users who know serde_json's messages keep recognising them.
//! The exceptions are documented on the kinds ([`SyntaxKind::LoneTrailingSurrogate`] and
//! the kinds serde_json does not have).

use std::fmt;

use crate::path::Path;
use crate::position::Position;

/// What went wrong. New kinds (schema failures) will be added: match with a wildcard arm.
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
}

/// The ways a text can fail to be JSON. Each refines one of
/// [`jitson_kernels::ErrorKind`]'s kinds with the context serde_json reports (the kernel
/// kind is named on each variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SyntaxKind {
    /// The input ended where a value was expected (kernel `UnexpectedEnd` / `ExpectedValue`
    /// at the end), including inside a literal or a number.
    EofWhileParsingValue,
    /// The input ended inside a string (kernel `UnexpectedEnd`).
    EofWhileParsingString,
    /// The input ended inside an array (kernel `UnexpectedEnd`).
    EofWhileParsingArray,
    /// The input ended inside an object (kernel `UnexpectedEnd`).
    EofWhileParsingObject,
    /// A byte that cannot start a value where one is expected (kernel `ExpectedValue`).
    ExpectedValue,
    /// A misspelled `true`, `false` or `null` (kernel `UnexpectedByte`); the offset is the
    /// first wrong byte.
    InvalidLiteral,
    /// An object member does not start with a string (kernel `ExpectedKey`).
    ExpectedKey,
    /// A key is not followed by `:` (kernel `ExpectedColon`).
    ExpectedColon,
    /// An array element is not followed by `,` or `]` (kernel `ExpectedCommaOrEnd`).
    ExpectedArrayCommaOrEnd,
    /// An object member is not followed by `,` or `}` (kernel `ExpectedCommaOrEnd`).
    ExpectedObjectCommaOrEnd,
    /// A `,` directly before `]` or `}` (kernel `ExpectedValue` / `ExpectedKey`); the offset
    /// is the closing bracket.
    TrailingComma,
    /// Bytes other than whitespace after the document's value (kernel
    /// `TrailingCharacters`).
    TrailingCharacters,
    /// A raw byte below 0x20 inside a string (kernel `ControlInString`).
    ControlInString,
    /// A backslash followed by a byte that is not an escape (kernel `InvalidEscape`); the
    /// offset is that byte.
    InvalidEscape,
    /// `\u` not followed by four hex digits (kernel `InvalidUnicodeEscape`); the offset is
    /// the fourth byte after `\u`. serde_json's message for this is "invalid escape", and so
    /// is ours.
    InvalidUnicodeEscape,
    /// A `\u` high surrogate not followed by `\u` (kernel `LoneSurrogate`); the offset is the
    /// first byte after the high surrogate's escape that is not `\` or `u`.
    UnexpectedEndOfHexEscape,
    /// A `\u` high surrogate followed by a `\u` escape that is not a low surrogate (kernel
    /// `LoneSurrogate`); the offset is the second escape's last hex digit.
    LoneLeadingSurrogate,
    /// A `\u` low surrogate without a high surrogate before it (kernel `LoneSurrogate`); the
    /// offset is its last hex digit. serde_json calls this a "lone leading surrogate" too;
    /// jitson names it for what it is.
    LoneTrailingSurrogate,
    /// A string holds bytes that are not UTF-8 (kernel `InvalidUtf8`); the offset is the
    /// first byte of the first invalid sequence (serde_json's column is approximate when the
    /// string has escapes before it; ours is exact).
    InvalidUtf8,
    /// A number that breaks the JSON grammar (kernel `InvalidNumber`); the offset is the
    /// first wrong byte.
    InvalidNumber,
}

impl SyntaxKind {
    /// The message, in serde_json's words where serde_json has the same error.
    pub fn message(self) -> &'static str {
        match self {
            SyntaxKind::EofWhileParsingValue => "EOF while parsing a value",
            SyntaxKind::EofWhileParsingString => "EOF while parsing a string",
            SyntaxKind::EofWhileParsingArray => "EOF while parsing a list",
            SyntaxKind::EofWhileParsingObject => "EOF while parsing an object",
            SyntaxKind::ExpectedValue => "expected value",
            SyntaxKind::InvalidLiteral => "expected ident",
            SyntaxKind::ExpectedKey => "key must be a string",
            SyntaxKind::ExpectedColon => "expected `:`",
            SyntaxKind::ExpectedArrayCommaOrEnd => "expected `,` or `]`",
            SyntaxKind::ExpectedObjectCommaOrEnd => "expected `,` or `}`",
            SyntaxKind::TrailingComma => "trailing comma",
            SyntaxKind::TrailingCharacters => "trailing characters",
            SyntaxKind::ControlInString => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            SyntaxKind::InvalidEscape | SyntaxKind::InvalidUnicodeEscape => "invalid escape",
            SyntaxKind::UnexpectedEndOfHexEscape => "unexpected end of hex escape",
            SyntaxKind::LoneLeadingSurrogate => "lone leading surrogate in hex escape",
            SyntaxKind::LoneTrailingSurrogate => "lone trailing surrogate in hex escape",
            SyntaxKind::InvalidUtf8 => "invalid unicode code point",
            SyntaxKind::InvalidNumber => "invalid number",
        }
    }

    /// True for the kinds that mean the input stopped too early (more input could fix it).
    pub fn is_eof(self) -> bool {
        matches!(
            self,
            SyntaxKind::EofWhileParsingValue
                | SyntaxKind::EofWhileParsingString
                | SyntaxKind::EofWhileParsingArray
                | SyntaxKind::EofWhileParsingObject
        )
    }
}

impl ErrorKind {
    /// The message, in serde_json's words where serde_json has the same error.
    pub fn message(self) -> &'static str {
        match self {
            ErrorKind::Syntax(kind) => kind.message(),
            ErrorKind::DepthLimitExceeded => "recursion limit exceeded",
            ErrorKind::NumberOutOfRange => "number out of range",
            ErrorKind::DuplicateKey => "duplicate key",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// A failure with its kind, where it happened and (for schema failures) which keyword.
///
/// `Display` prints `"{message} at line {line} column {column}, path {path}"`, then
/// `", schema {pointer}"` when a schema keyword is attached. The first part is exactly
/// serde_json's `Display` for the errors both have (see the [module documentation](self)).
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
    schema_keyword: Option<String>,
}

impl Error {
    /// An error of `kind` at byte `offset` of `input`, at `path`; computes the line and
    /// column from `input` ([`Position::of`]).
    pub fn new(kind: ErrorKind, input: &[u8], offset: usize, path: Path) -> Error {
        Error {
            inner: Box::new(Inner {
                kind,
                offset,
                position: Position::of(input, offset),
                path,
                schema_keyword: None,
            }),
        }
    }

    /// Attaches the JSON Pointer of the schema keyword that failed (for example
    /// `/properties/id/minimum`).
    pub fn with_schema_keyword(mut self, pointer: impl Into<String>) -> Error {
        self.inner.schema_keyword = Some(pointer.into());
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The message of the kind (without position or path).
    pub fn message(&self) -> &'static str {
        self.inner.kind.message()
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

    /// The JSON Pointer of the failing schema keyword, for schema failures.
    pub fn schema_keyword(&self) -> Option<&str> {
        self.inner.schema_keyword.as_deref()
    }

    /// True when the input stopped too early (more input could make it valid).
    pub fn is_eof(&self) -> bool {
        matches!(self.inner.kind, ErrorKind::Syntax(kind) if kind.is_eof())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at {}, path {}",
            self.message(),
            self.inner.position,
            self.inner.path
        )?;
        if let Some(pointer) = &self.inner.schema_keyword {
            write!(f, ", schema {pointer}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &*self.inner;
        let mut s = f.debug_struct("Error");
        s.field("kind", &inner.kind)
            .field("offset", &inner.offset)
            .field("line", &inner.position.line)
            .field("column", &inner.position.column)
            .field("path", &format_args!("{}", inner.path));
        if let Some(pointer) = &inner.schema_keyword {
            s.field("schema_keyword", pointer);
        }
        s.finish()
    }
}

impl std::error::Error for Error {}

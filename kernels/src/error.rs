//! Typed kernel errors: what went wrong and the byte offset where it was detected.

use std::fmt;

/// What a kernel rejected. The discriminants are the status codes of the `extern "C"` entry
/// points ([`crate::ffi`]); `0` there means success.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum ErrorKind {
    /// The input ended inside a value.
    UnexpectedEnd = 1,
    /// A byte that cannot start or continue a JSON value at this point.
    UnexpectedByte = 2,
    /// A raw control byte (below 0x20) inside a string.
    ControlInString = 3,
    /// A backslash followed by a byte that is not a JSON escape.
    InvalidEscape = 4,
    /// `\u` not followed by four hex digits.
    InvalidUnicodeEscape = 5,
    /// A `\u` surrogate escape without its partner (strict mode).
    LoneSurrogate = 6,
    /// Bytes that are not valid UTF-8.
    InvalidUtf8 = 7,
    /// A number that does not follow the JSON grammar.
    InvalidNumber = 8,
    /// An integer outside the target type's range, or a float beyond `f64` (strict mode).
    NumberOutOfRange = 9,
    /// A valid JSON number with a fraction or exponent where an integer was required.
    NotAnInteger = 10,
    /// Containers nested deeper than the caller's limit.
    DepthLimitExceeded = 11,
    /// An object key position holds something other than a string.
    ExpectedKey = 12,
    /// An object key is not followed by `:`.
    ExpectedColon = 13,
    /// A container element is not followed by `,` or the closing bracket.
    ExpectedCommaOrEnd = 14,
    /// A value position holds no value (for example `[1,]` or an empty input).
    ExpectedValue = 15,
    /// An output buffer handed to an `extern "C"` entry point is too small.
    OutputTooSmall = 16,
    /// Non-whitespace bytes after a complete JSON text.
    TrailingCharacters = 17,
}

impl ErrorKind {
    /// Every kind, in discriminant order.
    pub const ALL: [ErrorKind; 17] = [
        ErrorKind::UnexpectedEnd,
        ErrorKind::UnexpectedByte,
        ErrorKind::ControlInString,
        ErrorKind::InvalidEscape,
        ErrorKind::InvalidUnicodeEscape,
        ErrorKind::LoneSurrogate,
        ErrorKind::InvalidUtf8,
        ErrorKind::InvalidNumber,
        ErrorKind::NumberOutOfRange,
        ErrorKind::NotAnInteger,
        ErrorKind::DepthLimitExceeded,
        ErrorKind::ExpectedKey,
        ErrorKind::ExpectedColon,
        ErrorKind::ExpectedCommaOrEnd,
        ErrorKind::ExpectedValue,
        ErrorKind::OutputTooSmall,
        ErrorKind::TrailingCharacters,
    ];

    /// The `extern "C"` status code of this kind (never 0).
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The kind for an `extern "C"` status code, `None` for 0 or an unknown code.
    pub fn from_code(code: u32) -> Option<ErrorKind> {
        ErrorKind::ALL.iter().copied().find(|k| k.code() == code)
    }

    /// A short human-readable description.
    pub fn message(self) -> &'static str {
        match self {
            ErrorKind::UnexpectedEnd => "unexpected end of input",
            ErrorKind::UnexpectedByte => "unexpected character",
            ErrorKind::ControlInString => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            ErrorKind::InvalidEscape => "invalid escape",
            ErrorKind::InvalidUnicodeEscape => "invalid unicode escape",
            ErrorKind::LoneSurrogate => "lone leading or trailing surrogate in \\u escape",
            ErrorKind::InvalidUtf8 => "invalid UTF-8",
            ErrorKind::InvalidNumber => "invalid number",
            ErrorKind::NumberOutOfRange => "number out of range",
            ErrorKind::NotAnInteger => "expected an integer",
            ErrorKind::DepthLimitExceeded => "nesting depth limit exceeded",
            ErrorKind::ExpectedKey => "key must be a string",
            ErrorKind::ExpectedColon => "expected `:`",
            ErrorKind::ExpectedCommaOrEnd => "expected `,` or the end of the container",
            ErrorKind::ExpectedValue => "expected value",
            ErrorKind::OutputTooSmall => "output buffer too small",
            ErrorKind::TrailingCharacters => "trailing characters",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// A kernel failure: its kind and the byte offset in the kernel's input where it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Byte offset into the input slice the kernel was given.
    pub offset: usize,
}

impl KernelError {
    /// An error of `kind` at `offset`.
    #[inline]
    pub fn new(kind: ErrorKind, offset: usize) -> KernelError {
        KernelError { kind, offset }
    }
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.offset)
    }
}

impl std::error::Error for KernelError {}

//! The ways a text can fail to be JSON, with serde_json's messages.

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

//! Strings: decoding a JSON string on the byte kernels, and locating the first error of a
//! bad one the way serde_json reports it.
//!
//! The hot path scans with [`scan_string`], unescapes with [`unescape_into`] and validates
//! UTF-8 once. Only when that fails does [`locate_error`] walk the string byte by byte in
//! serde_json's order (escapes and control bytes as they come, UTF-8 at the closing quote),
//! so the kind and offset of a failure match serde_json's.

use bumpalo::Bump;
use jitson_kernels::string_scan::scan_string;
use jitson_kernels::unescape::{Surrogates, unescape_into};

use crate::error::SyntaxKind;

/// A string failure: its kind and the offset of the offending byte in the input.
pub(super) type StringError = (SyntaxKind, usize);

/// A document being parsed: its bytes, the same bytes as text when they are all UTF-8
/// (checked once, so that strings without escapes are slices of it with no further check),
/// the arena for unescaped strings, and whether bad UTF-8 and lone surrogates are forgiven.
#[derive(Clone, Copy)]
pub(super) struct Source<'a> {
    pub(super) input: &'a [u8],
    text: Option<&'a str>,
    pub(super) arena: &'a Bump,
    lossy: bool,
}

impl<'a> Source<'a> {
    /// `input` read with `arena` for unescaped strings.
    pub(super) fn new(input: &'a [u8], arena: &'a Bump, lossy: bool) -> Source<'a> {
        Source {
            input,
            // simdutf8 is the validator the UTF-8 kernel's AVX2 twin wraps; its
            // `&str`-returning API keeps this crate free of `unsafe`.
            text: simdutf8::basic::from_utf8(input).ok(),
            arena,
            lossy,
        }
    }

    /// Decodes the string whose opening quote is at `quote`; returns the text (a slice of
    /// the input when it has no escapes, else an arena copy) and the index past the closing
    /// quote.
    #[inline]
    pub(super) fn string(&self, quote: usize) -> Result<(&'a str, usize), StringError> {
        let (input, arena, lossy) = (self.input, self.arena, self.lossy);
        let start = quote + 1;
        let scan = scan_string(input, start).map_err(|_| locate_error(input, start, lossy))?;
        if scan.first_control.is_some() {
            return Err(locate_error(input, start, lossy));
        }
        let body = &input[start..scan.end];
        let text = if scan.has_escapes {
            unescape(body, arena, lossy)
        } else {
            // Both ends are next to an ASCII quote, so on character boundaries when the
            // document is UTF-8.
            match self.text.and_then(|text| text.get(start..scan.end)) {
                Some(text) => Some(text),
                None => utf8(body, arena, lossy),
            }
        };
        match text {
            Some(text) => Ok((text, scan.end + 1)),
            None => Err(locate_error(input, start, lossy)),
        }
    }
}

/// `bytes` as text: itself when valid UTF-8, a lossy arena copy when `lossy`, else `None`.
#[inline]
fn utf8<'a>(bytes: &'a [u8], arena: &'a Bump, lossy: bool) -> Option<&'a str> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(_) if lossy => Some(arena.alloc_str(&String::from_utf8_lossy(bytes))),
        Err(_) => None,
    }
}

/// The unescaped text of `body`, in the arena; `None` on a bad escape or bad UTF-8.
#[inline]
fn unescape<'a>(body: &[u8], arena: &'a Bump, lossy: bool) -> Option<&'a str> {
    let surrogates = if lossy {
        Surrogates::Lossy
    } else {
        Surrogates::Strict
    };
    // The unescaped form is never longer than the body.
    // (Filled with a copy of the body: one `memcpy`, cheaper than zeroing byte by byte.)
    let out: &'a mut [u8] = arena.alloc_slice_copy(body);
    let len = unescape_into(body, out, surrogates).ok()?;
    let out: &'a [u8] = out;
    // Escapes decode to whole UTF-8 sequences, so the output is valid exactly when every
    // raw byte run of the body is.
    utf8(&out[..len], arena, lossy)
}

/// The first error, in serde_json's order, of the string body starting at `start` (just
/// after the opening quote): a control byte, a bad escape or the end of input as the walk
/// meets them, else (at the closing quote) the first byte that is not UTF-8. `lossy`
/// forgives bad UTF-8 and lone surrogates. Falls back to "invalid escape" at `start` if the
/// walk finds nothing, which happens only if the kernels and this walk disagree.
#[cold]
#[inline(never)]
pub(super) fn locate_error(input: &[u8], start: usize, lossy: bool) -> StringError {
    let mut i = start;
    loop {
        let Some(&b) = input.get(i) else {
            return (SyntaxKind::EofWhileParsingString, input.len());
        };
        match b {
            b'"' => {
                let body = &input[start..i];
                return match std::str::from_utf8(body) {
                    Err(e) if !lossy => (SyntaxKind::InvalidUtf8, start + e.valid_up_to()),
                    _ => (SyntaxKind::InvalidEscape, start),
                };
            }
            b'\\' => match escape_end(input, i, lossy) {
                Ok(next) => i = next,
                Err(error) => return error,
            },
            0..=0x1f => return (SyntaxKind::ControlInString, i),
            _ => i += 1,
        }
    }
}

/// Checks the escape whose backslash is at `backslash` as serde_json does; returns the index
/// past it (past both escapes of a surrogate pair).
fn escape_end(input: &[u8], backslash: usize, lossy: bool) -> Result<usize, StringError> {
    match byte_or_eof(input, backslash + 1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Ok(backslash + 2),
        b'u' => unicode_escape_end(input, backslash, lossy),
        _ => Err((SyntaxKind::InvalidEscape, backslash + 1)),
    }
}

/// See [`escape_end`], for a `\u` escape.
fn unicode_escape_end(input: &[u8], backslash: usize, lossy: bool) -> Result<usize, StringError> {
    let unit = hex4(input, backslash + 2)?;
    let next = backslash + 6;
    if lossy {
        return Ok(next);
    }
    if (0xDC00..=0xDFFF).contains(&unit) {
        return Err((SyntaxKind::LoneTrailingSurrogate, next - 1));
    }
    if !(0xD800..=0xDBFF).contains(&unit) {
        return Ok(next);
    }
    for (at, expected) in [(next, b'\\'), (next + 1, b'u')] {
        if byte_or_eof(input, at)? != expected {
            return Err((SyntaxKind::UnexpectedEndOfHexEscape, at));
        }
    }
    let low = hex4(input, next + 2)?;
    if !(0xDC00..=0xDFFF).contains(&low) {
        return Err((SyntaxKind::LoneLeadingSurrogate, next + 5));
    }
    Ok(next + 6)
}

/// The byte at `i`, or the end-of-string error.
fn byte_or_eof(input: &[u8], i: usize) -> Result<u8, StringError> {
    input
        .get(i)
        .copied()
        .ok_or((SyntaxKind::EofWhileParsingString, input.len()))
}

/// The code unit of the four hex digits at `at`: the end-of-string error when fewer than
/// four bytes remain, "invalid escape" at the fourth byte when one is not a hex digit.
fn hex4(input: &[u8], at: usize) -> Result<u16, StringError> {
    let digits = input
        .get(at..at + 4)
        .ok_or((SyntaxKind::EofWhileParsingString, input.len()))?;
    digits
        .iter()
        .try_fold(0u16, |acc, &d| {
            char::from(d).to_digit(16).map(|v| acc << 4 | v as u16)
        })
        .ok_or((SyntaxKind::InvalidUnicodeEscape, at + 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode<'a>(
        input: &'a [u8],
        quote: usize,
        arena: &'a Bump,
        lossy: bool,
    ) -> Result<(&'a str, usize), StringError> {
        Source::new(input, arena, lossy).string(quote)
    }

    fn error_of(input: &[u8]) -> StringError {
        let arena = Bump::new();
        decode(input, 0, &arena, false).expect_err("bad string accepted")
    }

    #[test]
    fn decodes_borrowed_and_unescaped_strings() {
        let arena = Bump::new();
        let input = br#""plain" "caf\u00e9\n""#;
        let (text, end) = decode(input, 0, &arena, false).unwrap();
        assert_eq!((text, end), ("plain", 7));
        let (text, end) = decode(input, 8, &arena, false).unwrap();
        assert_eq!((text, end), ("café\n", input.len()));
    }

    #[test]
    fn errors_come_in_serde_json_order() {
        use SyntaxKind::*;
        assert_eq!(error_of(b"\"abc"), (EofWhileParsingString, 4));
        assert_eq!(error_of(b"\"\\x\""), (InvalidEscape, 2));
        assert_eq!(error_of(b"\"\\u12G4\""), (InvalidUnicodeEscape, 6));
        assert_eq!(error_of(b"\"\\u12"), (EofWhileParsingString, 5));
        assert_eq!(error_of(b"\"\\uD800\""), (UnexpectedEndOfHexEscape, 7));
        assert_eq!(error_of(b"\"\\uDC00\""), (LoneTrailingSurrogate, 6));
        assert_eq!(error_of(b"\"\\uD800\\u0041\""), (LoneLeadingSurrogate, 12));
        // An escape error wins over bad UTF-8 earlier in the string; a control byte too.
        assert_eq!(error_of(b"\"\xff\\x\""), (InvalidEscape, 3));
        assert_eq!(error_of(b"\"\xff\x01\""), (ControlInString, 2));
        assert_eq!(error_of(b"\"a\\n\xc3\""), (InvalidUtf8, 4));
    }

    #[test]
    fn lossy_replaces_bad_utf8_and_lone_surrogates() {
        let arena = Bump::new();
        let (text, _) = decode(b"\"a\xffb\"", 0, &arena, true).unwrap();
        assert_eq!(text, "a\u{fffd}b");
        let (text, _) = decode(b"\"\\uD800x\"", 0, &arena, true).unwrap();
        assert_eq!(text, "\u{fffd}x");
    }
}

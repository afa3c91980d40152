//! The validating skip: an iterative state machine over the byte kernels, with the kinds of
//! the open containers kept in a bit stack.

use super::kernels::{Kernels, ws};
use crate::error::{ErrorKind, KernelError};
use crate::number::scan_number;
use crate::whitespace::is_whitespace;

/// Containers up to this depth keep their kinds inline; deeper ones spill to the heap.
const INLINE_WORDS: usize = 4;

/// The kinds of the open containers, one bit each (1 = object, 0 = array), innermost last.
struct KindStack {
    inline: [u64; INLINE_WORDS],
    spilled: Vec<u64>,
    depth: usize,
}

/// Kind of an open container.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Array,
    Object,
}

impl KindStack {
    fn new() -> KindStack {
        KindStack {
            inline: [0; INLINE_WORDS],
            spilled: Vec::new(),
            depth: 0,
        }
    }

    /// The word holding the bit of the container at depth index `d`, growing the spill.
    #[inline]
    fn word_mut(&mut self, d: usize) -> &mut u64 {
        let w = d / 64;
        if w < INLINE_WORDS {
            &mut self.inline[w]
        } else {
            let s = w - INLINE_WORDS;
            if s >= self.spilled.len() {
                self.spilled.resize(s + 1, 0);
            }
            &mut self.spilled[s]
        }
    }

    #[inline]
    fn push(&mut self, kind: Kind) {
        let bit = 1u64 << (self.depth % 64);
        let word = self.word_mut(self.depth);
        match kind {
            Kind::Object => *word |= bit,
            Kind::Array => *word &= !bit,
        }
        self.depth += 1;
    }

    /// Closes the innermost container.
    #[inline]
    fn pop(&mut self) {
        self.depth -= 1;
    }

    /// The kind of the innermost open container, `None` at the top level.
    #[inline]
    fn top(&mut self) -> Option<Kind> {
        let d = self.depth.checked_sub(1)?;
        let word = *self.word_mut(d);
        Some(if word >> (d % 64) & 1 == 1 {
            Kind::Object
        } else {
            Kind::Array
        })
    }
}

#[inline]
fn error(kind: ErrorKind, offset: usize) -> KernelError {
    KernelError::new(kind, offset)
}

#[inline]
fn unexpected_end(buf: &[u8]) -> KernelError {
    error(ErrorKind::UnexpectedEnd, buf.len())
}

/// True for the bytes that may follow a number or literal (the end of input also may).
#[inline]
fn is_delimiter(b: u8) -> bool {
    matches!(b, b',' | b']' | b'}') || is_whitespace(b)
}

/// See [`super::skip_value`].
#[inline(always)]
pub(super) fn skip_value<K: Kernels>(
    k: K,
    buf: &[u8],
    pos: usize,
    max_depth: usize,
) -> Result<usize, KernelError> {
    let mut i = ws(k, buf, pos);
    if i >= buf.len() {
        return Err(error(ErrorKind::ExpectedValue, buf.len()));
    }
    let mut stack = KindStack::new();
    'value: loop {
        // `i` is where a value must start.
        i = match buf.get(i) {
            Some(b'"') => string_end(k, buf, i)?,
            Some(b'{') => {
                if stack.depth >= max_depth {
                    return Err(error(ErrorKind::DepthLimitExceeded, i));
                }
                i = ws(k, buf, i + 1);
                match buf.get(i) {
                    Some(b'}') => i + 1,
                    Some(b'"') => {
                        stack.push(Kind::Object);
                        i = member_value(k, buf, i)?;
                        continue 'value;
                    }
                    Some(_) => return Err(error(ErrorKind::ExpectedKey, i)),
                    None => return Err(unexpected_end(buf)),
                }
            }
            Some(b'[') => {
                if stack.depth >= max_depth {
                    return Err(error(ErrorKind::DepthLimitExceeded, i));
                }
                i = ws(k, buf, i + 1);
                if buf.get(i) == Some(&b']') {
                    i + 1
                } else {
                    stack.push(Kind::Array);
                    continue 'value;
                }
            }
            Some(b't') => literal_end(buf, i, b"true")?,
            Some(b'f') => literal_end(buf, i, b"false")?,
            Some(b'n') => literal_end(buf, i, b"null")?,
            Some(b'-' | b'0'..=b'9') => number_end(buf, i)?,
            Some(_) => return Err(error(ErrorKind::ExpectedValue, i)),
            None => return Err(unexpected_end(buf)),
        };
        // A value ended at `i`: close containers until one continues.
        loop {
            let Some(kind) = stack.top() else {
                return Ok(i);
            };
            i = ws(k, buf, i);
            match (buf.get(i), kind) {
                (Some(b','), Kind::Array) => {
                    i = ws(k, buf, i + 1);
                    continue 'value;
                }
                (Some(b','), Kind::Object) => {
                    i = ws(k, buf, i + 1);
                    match buf.get(i) {
                        Some(b'"') => {
                            i = member_value(k, buf, i)?;
                            continue 'value;
                        }
                        Some(_) => return Err(error(ErrorKind::ExpectedKey, i)),
                        None => return Err(unexpected_end(buf)),
                    }
                }
                (Some(b']'), Kind::Array) | (Some(b'}'), Kind::Object) => {
                    stack.pop();
                    i += 1;
                }
                (Some(_), _) => return Err(error(ErrorKind::ExpectedCommaOrEnd, i)),
                (None, _) => return Err(unexpected_end(buf)),
            }
        }
    }
}

/// See [`super::validate_document`].
#[inline(always)]
pub(super) fn validate_document<K: Kernels>(
    k: K,
    buf: &[u8],
    max_depth: usize,
) -> Result<(), KernelError> {
    let end = skip_value(k, buf, 0, max_depth)?;
    let rest = ws(k, buf, end);
    if rest < buf.len() {
        return Err(error(ErrorKind::TrailingCharacters, rest));
    }
    Ok(())
}

/// Checks the key starting with the quote at `i`, its `:`, and the whitespace after it;
/// returns where the member's value must start.
#[inline(always)]
fn member_value<K: Kernels>(k: K, buf: &[u8], i: usize) -> Result<usize, KernelError> {
    let i = ws(k, buf, string_end(k, buf, i)?);
    match buf.get(i) {
        Some(b':') => Ok(ws(k, buf, i + 1)),
        Some(_) => Err(error(ErrorKind::ExpectedColon, i)),
        None => Err(unexpected_end(buf)),
    }
}

/// Validates the string whose opening quote is at `quote`; returns the index past its
/// closing quote.
#[inline(always)]
fn string_end<K: Kernels>(k: K, buf: &[u8], quote: usize) -> Result<usize, KernelError> {
    let start = quote + 1;
    if let Some(end) = k.plain_string_end(buf, start) {
        return Ok(end + 1);
    }
    let Ok(scan) = k.scan_string(buf, start) else {
        return Err(unterminated_string(buf, start));
    };
    let body = &buf[start..scan.end];
    if scan.first_control.is_some() || scan.has_escapes || !body.is_ascii() {
        check_body(k, body, start, scan.first_control, scan.has_escapes)?;
    }
    Ok(scan.end + 1)
}

/// The first error of a terminated string body starting at `start`, if any: the one at the
/// smallest offset among its first control byte, its first bad escape and its first bad
/// UTF-8 byte (a control byte wins a tie).
#[cold]
#[inline(never)]
fn check_body<K: Kernels>(
    k: K,
    body: &[u8],
    start: usize,
    first_control: Option<usize>,
    has_escapes: bool,
) -> Result<(), KernelError> {
    let control = first_control.map(|c| error(ErrorKind::ControlInString, c));
    let escape = if has_escapes {
        k.validate_escapes(body).err()
    } else {
        None
    };
    let utf8 = k.validate_utf8(body).err();
    let relative = [escape, utf8]
        .into_iter()
        .flatten()
        .map(|e| error(e.kind, start + e.offset));
    match control.into_iter().chain(relative).min_by_key(|e| e.offset) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The error for a string body from `start` that never closes: the first raw control byte
/// outside escapes, else the end of input.
#[cold]
#[inline(never)]
fn unterminated_string(buf: &[u8], start: usize) -> KernelError {
    let mut i = start;
    while let Some(&b) = buf.get(i) {
        match b {
            b'\\' => i += 1,
            0..=0x1f => return error(ErrorKind::ControlInString, i),
            _ => {}
        }
        i += 1;
    }
    unexpected_end(buf)
}

/// Checks the literal `word` at `i` and the delimiter after it; returns the index past it.
#[inline(always)]
fn literal_end(buf: &[u8], i: usize, word: &[u8]) -> Result<usize, KernelError> {
    let end = i + word.len();
    if buf.get(i..end) != Some(word) {
        return Err(literal_mismatch(buf, i, word));
    }
    delimited(buf, end, ErrorKind::UnexpectedByte)
}

/// The error for a literal at `i` that does not match `word`: the first differing byte, or
/// the end of input when the input stops inside a matching prefix.
#[cold]
#[inline(never)]
fn literal_mismatch(buf: &[u8], i: usize, word: &[u8]) -> KernelError {
    let rest = &buf[i..];
    match rest.iter().zip(word).position(|(a, b)| a != b) {
        Some(n) => error(ErrorKind::UnexpectedByte, i + n),
        None => unexpected_end(buf),
    }
}

/// Checks the number at `i` and the delimiter after it; returns the index past it.
#[inline(always)]
fn number_end(buf: &[u8], i: usize) -> Result<usize, KernelError> {
    let token = scan_number(buf, i)?;
    delimited(buf, token.end, ErrorKind::InvalidNumber)
}

/// `Ok(end)` when a delimiter (or the end of input) is at `end`, else `kind` at `end`.
#[inline(always)]
fn delimited(buf: &[u8], end: usize, kind: ErrorKind) -> Result<usize, KernelError> {
    match buf.get(end) {
        Some(&b) if !is_delimiter(b) => Err(error(kind, end)),
        _ => Ok(end),
    }
}

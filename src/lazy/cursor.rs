//! The walking primitives every lazy operation shares: skip one value, step through an
//! object's members or an array's elements, and compare a raw key with a wanted one.
//!
//! Positions are byte indices into the document. Failures are [`KernelError`]s (a kind and an
//! offset); [`super::error`] turns them into a [`crate::Error`] once, on the cold path.

use jitson_kernels::skip::{skip_value, skip_value_unchecked};
use jitson_kernels::string_scan::scan_string;
use jitson_kernels::unescape::{Surrogates, unescape, validate_escapes};
use jitson_kernels::utf8::validate_utf8;
use jitson_kernels::whitespace::skip_whitespace;
use jitson_kernels::{ErrorKind, KernelError};

use super::Mode;
use std::borrow::Cow;

/// A document being walked, and how much of it is checked.
#[derive(Clone, Copy)]
pub(super) struct Walker<'a> {
    pub(super) buf: &'a [u8],
    pub(super) mode: Mode,
    pub(super) max_depth: usize,
}

/// An object member whose key was read: where its key and value start.
#[derive(Clone, Copy)]
pub(super) struct Member {
    /// The key's opening quote.
    pub(super) key: usize,
    /// Just past the key's closing quote.
    pub(super) key_end: usize,
    /// True when the key has a backslash.
    pub(super) escaped: bool,
    /// The value's first byte.
    pub(super) value: usize,
    /// The comma before this member (none for the first).
    pub(super) comma: Option<usize>,
}

/// An array element: where its value starts, and the comma before it.
#[derive(Clone, Copy)]
pub(super) struct Element {
    /// The value's first byte.
    pub(super) value: usize,
    /// The comma before this element (none for the first).
    pub(super) comma: Option<usize>,
}

/// A container being stepped through: where to look for the next separator, and how many
/// elements were read. After the last one, `pos` is just past the closing bracket.
#[derive(Clone, Copy)]
pub(super) struct Cursor {
    /// Where the next `,` or closing bracket is looked for.
    pub(super) pos: usize,
    /// Members or elements read so far.
    pub(super) count: usize,
    /// Once closed: just past the last element (or the opening bracket of an empty one).
    pub(super) last: usize,
}

impl Cursor {
    /// A cursor into the container whose opening bracket is at `open`.
    pub(super) fn new(open: usize) -> Cursor {
        Cursor {
            pos: open + 1,
            count: 0,
            last: open + 1,
        }
    }
}

/// What follows an element of a container.
enum Next {
    /// Another element starts at the index; the comma before it.
    Element(usize, Option<usize>),
    /// The container closed.
    Closed,
}

#[inline]
fn fail<T>(kind: ErrorKind, offset: usize) -> Result<T, KernelError> {
    Err(KernelError::new(kind, offset))
}

impl<'a> Walker<'a> {
    /// True in [`Mode::Checked`].
    #[inline]
    pub(super) fn checked(&self) -> bool {
        self.mode == Mode::Checked
    }

    /// The first non-whitespace index at or after `pos`.
    #[inline]
    pub(super) fn ws(&self, pos: usize) -> usize {
        skip_whitespace(self.buf, pos)
    }

    /// Skips one value starting at `pos` (no whitespace before it) inside `depth`
    /// containers; returns the index past it. Checked mode validates it fully.
    #[inline]
    pub(super) fn skip(&self, pos: usize, depth: usize) -> Result<usize, KernelError> {
        match self.mode {
            Mode::Checked => skip_value(self.buf, pos, self.max_depth.saturating_sub(depth)),
            Mode::Unchecked => skip_value_unchecked(self.buf, pos),
        }
    }

    /// Fails when a container at `pos` inside `depth` containers would exceed the limit.
    #[inline]
    pub(super) fn enter(&self, pos: usize, depth: usize) -> Result<Cursor, KernelError> {
        if depth >= self.max_depth {
            return fail(ErrorKind::DepthLimitExceeded, pos);
        }
        Ok(Cursor::new(pos))
    }

    /// After an element that ended at `cur.pos`: the next element's start, or the close.
    #[inline]
    fn next(&self, cur: &mut Cursor, close: u8) -> Result<Next, KernelError> {
        let i = self.ws(cur.pos);
        let byte = self.buf.get(i).copied();
        if byte == Some(close) {
            cur.last = cur.pos;
            cur.pos = i + 1;
            return Ok(Next::Closed);
        }
        if cur.count == 0 {
            cur.count = 1;
            return Ok(Next::Element(i, None));
        }
        match byte {
            Some(b',') => {
                cur.count += 1;
                Ok(Next::Element(self.ws(i + 1), Some(i)))
            }
            Some(_) => fail(ErrorKind::ExpectedCommaOrEnd, i),
            None => fail(ErrorKind::UnexpectedEnd, self.buf.len()),
        }
    }

    /// The next element of the array `cur` walks (the previous one ended at `cur.pos`), or
    /// `None` after the closing bracket.
    #[inline]
    pub(super) fn next_element(&self, cur: &mut Cursor) -> Result<Option<Element>, KernelError> {
        match self.next(cur, b']')? {
            Next::Closed => Ok(None),
            Next::Element(value, comma) => Ok(Some(Element { value, comma })),
        }
    }

    /// The next member of the object `cur` walks (the previous value ended at `cur.pos`),
    /// or `None` after the closing brace. Checked mode rejects raw control bytes in the key;
    /// [`Walker::key_matches`] checks the rest of it.
    #[inline]
    pub(super) fn next_member(&self, cur: &mut Cursor) -> Result<Option<Member>, KernelError> {
        let (key, comma) = match self.next(cur, b'}')? {
            Next::Closed => return Ok(None),
            Next::Element(key, comma) => (key, comma),
        };
        match self.buf.get(key) {
            Some(b'"') => {}
            Some(_) => return fail(ErrorKind::ExpectedKey, key),
            None => return fail(ErrorKind::UnexpectedEnd, self.buf.len()),
        }
        let scan = scan_string(self.buf, key + 1)?;
        if let (Some(control), true) = (scan.first_control, self.checked()) {
            return fail(ErrorKind::ControlInString, control);
        }
        let key_end = scan.end + 1;
        let colon = self.ws(key_end);
        match self.buf.get(colon) {
            Some(b':') => {}
            Some(_) => return fail(ErrorKind::ExpectedColon, colon),
            None => return fail(ErrorKind::UnexpectedEnd, self.buf.len()),
        }
        Ok(Some(Member {
            key,
            key_end,
            escaped: scan.has_escapes,
            value: self.ws(colon + 1),
            comma,
        }))
    }

    /// The raw body of `member`'s key (between the quotes).
    #[inline]
    pub(super) fn key_body(&self, member: &Member) -> &'a [u8] {
        &self.buf[member.key + 1..member.key_end - 1]
    }

    /// True when `member`'s key, unescaped, is `wanted`. Allocates only for a key with
    /// escapes. Checked mode validates the key's escapes and UTF-8 whatever the answer.
    #[inline]
    pub(super) fn key_matches(&self, member: &Member, wanted: &str) -> Result<bool, KernelError> {
        let body = self.key_body(member);
        if !member.escaped && body == wanted.as_bytes() {
            return Ok(true);
        }
        self.check_key(member)?;
        if !member.escaped {
            return Ok(false);
        }
        escaped_key_is(body, wanted).map_err(|e| at(e, member.key + 1))
    }

    /// `member`'s key unescaped (borrowed from the input when it has no escape), or the
    /// error of its bad escape.
    pub(super) fn unescaped_key(&self, member: &Member) -> Result<Cow<'a, [u8]>, KernelError> {
        let body = self.key_body(member);
        if !member.escaped {
            return Ok(Cow::Borrowed(body));
        }
        let mut out = Vec::with_capacity(body.len());
        unescape(body, &mut out, Surrogates::Strict).map_err(|e| at(e, member.key + 1))?;
        Ok(Cow::Owned(out))
    }

    /// In checked mode, fails when `member`'s key has a bad escape or is not UTF-8 (its raw
    /// control bytes were checked when it was read).
    #[inline]
    pub(super) fn check_key(&self, member: &Member) -> Result<(), KernelError> {
        let body = self.key_body(member);
        if !self.checked() || (!member.escaped && body.is_ascii()) {
            return Ok(());
        }
        let start = member.key + 1;
        if member.escaped {
            validate_escapes(body, Surrogates::Strict).map_err(|e| at(e, start))?;
        }
        validate_utf8(body).map_err(|e| at(e, start))
    }
}

/// `error` (at an offset into a key body) moved to the document's offsets.
fn at(error: KernelError, body_start: usize) -> KernelError {
    KernelError::new(error.kind, body_start + error.offset)
}

/// True when the escaped key `body` unescapes to `wanted`.
fn escaped_key_is(body: &[u8], wanted: &str) -> Result<bool, KernelError> {
    // An escape is at least two bytes for one, so the unescaped key is shorter than the
    // body, and never shorter than a sixth of it.
    if wanted.len() > body.len() || wanted.len().saturating_mul(6) < body.len() {
        return Ok(false);
    }
    let mut out = Vec::with_capacity(body.len());
    unescape(body, &mut out, Surrogates::Strict)?;
    Ok(out == wanted.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walker(buf: &[u8]) -> Walker<'_> {
        Walker {
            buf,
            mode: Mode::Checked,
            max_depth: 128,
        }
    }

    #[test]
    fn members_and_elements_in_order() {
        let doc = br#"{ "a" : [1, 2] , "b\u0063":3 }"#;
        let w = walker(doc);
        let mut cur = w.enter(0, 0).unwrap();
        let a = w.next_member(&mut cur).unwrap().unwrap();
        assert!(w.key_matches(&a, "a").unwrap());
        let mut items = w.enter(a.value, 1).unwrap();
        let first = w.next_element(&mut items).unwrap().unwrap();
        items.pos = w.skip(first.value, 2).unwrap();
        let second = w.next_element(&mut items).unwrap().unwrap();
        assert_eq!(second.comma, Some(first.value + 1));
        items.pos = w.skip(second.value, 2).unwrap();
        assert!(w.next_element(&mut items).unwrap().is_none());
        cur.pos = items.pos;
        let bc = w.next_member(&mut cur).unwrap().unwrap();
        assert!(bc.escaped && w.key_matches(&bc, "bc").unwrap());
        assert!(!w.key_matches(&bc, "b").unwrap());
        cur.pos = w.skip(bc.value, 1).unwrap();
        assert!(w.next_member(&mut cur).unwrap().is_none());
        assert_eq!(cur.pos, doc.len());
    }

    #[test]
    fn bad_separators_are_errors() {
        for (doc, kind) in [
            (&b"[1 2]"[..], ErrorKind::ExpectedCommaOrEnd),
            (b"{\"a\" 1}", ErrorKind::ExpectedColon),
            (b"{1:2}", ErrorKind::ExpectedKey),
            (b"[1,", ErrorKind::ExpectedValue),
            (b"[1", ErrorKind::UnexpectedEnd),
        ] {
            let w = walker(doc);
            let mut cur = w.enter(0, 0).unwrap();
            let err = loop {
                let step = if doc[0] == b'[' {
                    w.next_element(&mut cur).map(|e| e.map(|e| e.value))
                } else {
                    w.next_member(&mut cur).map(|m| m.map(|m| m.value))
                };
                match step.and_then(|value| w.skip(value.expect("not closed"), 1)) {
                    Ok(end) => cur.pos = end,
                    Err(e) => break e,
                }
            };
            assert_eq!(err.kind, kind, "{}", String::from_utf8_lossy(doc));
        }
    }
}

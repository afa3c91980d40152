//! [`Reader`]: the cursor typed readers move over the input, one JSON token at a time, with
//! the kernels doing the byte work.
//!
//! Every method first skips whitespace, then reads one token or answers [`Bail`] when the
//! input is not what the reader can take (bad JSON, a token of another kind, anything the
//! reader leaves to the codec: see [`crate::typed::read`]). Strings are checked as the
//! codec checks them: no raw control byte, UTF-8, strict escapes (a lone surrogate bails).

use jitson_jit::ir::{BigInts, ExecOptions, NumRef};
use jitson_jit::{check_skipped_numbers, read_number};
use jitson_kernels::skip::skip_value;
use jitson_kernels::string_scan::scan_str;
use jitson_kernels::unescape::{Surrogates, unescape_str};
use jitson_kernels::whitespace::skip_whitespace;

use super::Bail;
use std::borrow::Cow;

/// A string as the input holds it: its body, and whether escapes are still in it.
#[derive(Clone, Copy, Debug)]
pub struct RawStr<'de> {
    /// The text between the quotes, escapes as written.
    pub body: &'de str,
    /// Whether `body` holds a backslash.
    pub escaped: bool,
}

impl<'de> RawStr<'de> {
    /// The string's text: the body itself when it holds no escape, else a new `String`.
    pub fn into_text(self) -> Result<Cow<'de, str>, Bail> {
        if self.escaped {
            self.into_string().map(Cow::Owned)
        } else {
            Ok(Cow::Borrowed(self.body))
        }
    }

    /// Appends the string's text to `out`.
    pub fn unescape_into(self, out: &mut String) -> Result<(), Bail> {
        if self.escaped {
            unescape_str(self.body, out, Surrogates::Strict).map_err(|_| Bail)
        } else {
            out.push_str(self.body);
            Ok(())
        }
    }

    /// The string's text as a new `String`.
    pub fn into_string(self) -> Result<String, Bail> {
        let mut out = String::with_capacity(self.body.len());
        self.unescape_into(&mut out)?;
        Ok(out)
    }
}

/// The cursor of one typed read: the input, the position, and the nesting budget left.
#[derive(Debug)]
pub struct Reader<'de> {
    input: &'de [u8],
    pos: usize,
    /// Containers that may still open (the codec's `max_depth` minus those open now).
    depth: u32,
    big_ints: BigInts,
    /// Buffered values being read now, one inside another (see [`Reader::buffered`]).
    buffered: u32,
}

impl<'de> Reader<'de> {
    /// A reader at the start of `input`, under the codec's options (its nesting limit and
    /// big-integer policy).
    pub fn new(input: &'de [u8], options: &ExecOptions) -> Reader<'de> {
        Reader {
            input,
            pos: 0,
            // One level short of the codec's limit, so that nothing at its edge is taken.
            depth: options.max_depth.saturating_sub(1),
            big_ints: options.big_ints,
            buffered: 0,
        }
    }

    /// Runs `read` as serde's reading of a value it buffered first (an untagged enum's
    /// variant, a flattened field's member, an internally tagged variant's members, an
    /// adjacently tagged enum's content before its tag): [`Reader::in_buffered`] answers
    /// true while it runs. When `read` bails, the reader is back where it was, so that
    /// another variant can read the same value.
    #[inline]
    pub fn buffered<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, Bail>,
    ) -> Result<T, Bail> {
        let (pos, depth) = (self.pos, self.depth);
        self.buffered += 1;
        let value = read(self);
        self.buffered -= 1;
        if value.is_err() {
            (self.pos, self.depth) = (pos, depth);
        }
        value
    }

    /// Whether a value serde reads from its buffered copy is being read (see
    /// [`Reader::buffered`]): types serde reads differently from its copy ask it (a raw
    /// value, which serde cannot read there, bails; an `f32` is rounded twice there).
    #[inline]
    pub fn in_buffered(&self) -> bool {
        self.buffered > 0
    }

    /// Skips whitespace and returns the next byte, if any.
    #[inline(always)]
    pub fn peek(&mut self) -> Option<u8> {
        let b = *self.input.get(self.pos)?;
        if b > b' ' {
            return Some(b);
        }
        // One space, then a token: the space after a colon in pretty-printed input.
        if b == b' '
            && let Some(&next) = self.input.get(self.pos + 1)
            && next > b' '
        {
            self.pos += 1;
            return Some(next);
        }
        self.skip_whitespace()
    }

    /// [`Reader::peek`] at a byte that may be whitespace: out of line, so that the callers'
    /// hot paths (compact input) stay small.
    #[inline(never)]
    fn skip_whitespace(&mut self) -> Option<u8> {
        self.pos = skip_whitespace(self.input, self.pos);
        self.input.get(self.pos).copied()
    }

    /// Consumes `byte` when it comes next (after whitespace).
    #[inline(always)]
    fn eat(&mut self, byte: u8) -> bool {
        let hit = self.peek() == Some(byte);
        self.pos += usize::from(hit);
        hit
    }

    /// Consumes `word` (a literal's bytes) when it comes next.
    #[inline(always)]
    fn literal(&mut self, word: &[u8]) -> bool {
        self.peek();
        let hit = self.input[self.pos..].starts_with(word);
        if hit {
            self.pos += word.len();
        }
        hit
    }

    /// Checks that only whitespace is left.
    pub fn finish(&mut self) -> Result<(), Bail> {
        if self.peek().is_none() {
            Ok(())
        } else {
            Err(Bail)
        }
    }

    /// Reads `null` when it comes next (`true`); `false`, reading nothing, otherwise.
    #[inline]
    pub fn null(&mut self) -> bool {
        self.literal(b"null")
    }

    /// Reads a unit struct as serde reads one: `null`, or inside a value serde buffered
    /// (see [`Reader::in_buffered`]) also `{}` or `[]`, which its buffered copy takes.
    #[inline]
    pub fn unit_struct(&mut self) -> Result<(), Bail> {
        let empty = self.in_buffered()
            && match self.peek() {
                Some(b'{') => !self.begin_object()?,
                Some(b'[') => !self.begin_array()?,
                _ => false,
            };
        if empty || self.null() {
            Ok(())
        } else {
            Err(Bail)
        }
    }

    /// Reads `true` or `false`.
    #[inline]
    pub fn boolean(&mut self) -> Result<bool, Bail> {
        if self.literal(b"true") {
            Ok(true)
        } else if self.literal(b"false") {
            Ok(false)
        } else {
            Err(Bail)
        }
    }

    /// Reads a number as the codec reads it (its big-integer policy included).
    #[inline]
    pub fn number(&mut self) -> Result<NumRef<'de>, Bail> {
        match self.peek() {
            Some(b'-' | b'0'..=b'9') => {}
            _ => return Err(Bail),
        }
        let (value, end) = read_number(self.input, self.pos, self.big_ints).map_err(|_| Bail)?;
        self.pos = end;
        Ok(value)
    }

    /// Reads a number as [`Reader::number`] does, with its text (for a reader that must
    /// round the decimal itself, as `f32`'s does).
    #[inline]
    pub fn number_and_text(&mut self) -> Result<(NumRef<'de>, &'de [u8]), Bail> {
        // Past the whitespace, the number starts where the reader is.
        self.peek();
        let start = self.pos;
        let value = self.number()?;
        Ok((value, &self.input[start..self.pos]))
    }

    /// Reads a string, leaving its escapes in place.
    #[inline]
    pub fn raw_str(&mut self) -> Result<RawStr<'de>, Bail> {
        if !self.eat(b'"') {
            return Err(Bail);
        }
        let (body, scan) = scan_str(self.input, self.pos).map_err(|_| Bail)?;
        self.pos = scan.end + 1;
        Ok(RawStr {
            body,
            escaped: scan.has_escapes,
        })
    }

    /// Reads a string into a new `String`.
    #[inline]
    pub fn string(&mut self) -> Result<String, Bail> {
        self.raw_str()?.into_string()
    }

    /// Reads a string that holds no escape (one that does bails): its text, borrowed from
    /// the input. Names (members, variants, tags) are read so: typed readers match them as
    /// written.
    #[inline]
    pub fn plain_str(&mut self) -> Result<&'de str, Bail> {
        let s = self.raw_str()?;
        if s.escaped { Err(Bail) } else { Ok(s.body) }
    }

    /// Reads a member's name (see [`Reader::plain_str`]) and the colon after it.
    #[inline]
    pub fn key(&mut self) -> Result<&'de str, Bail> {
        let key = self.plain_str()?;
        if self.eat(b':') { Ok(key) } else { Err(Bail) }
    }

    /// Reads the member name `name` and the colon after it when that name comes next
    /// (`true`); reads nothing when another name does (`false`). `name` is the text of a
    /// JSON string as written: no quote, backslash or control byte in it. A member name
    /// must come next (bails otherwise), as after `{` or a comma.
    #[inline(always)]
    pub fn eat_key(&mut self, name: &[u8]) -> Result<bool, Bail> {
        if self.peek() != Some(b'"') {
            return Err(Bail);
        }
        let start = self.pos + 1;
        let end = start + name.len();
        match self.input.get(start..=end) {
            Some(text) if text[name.len()] == b'"' && &text[..name.len()] == name => {
                self.pos = end + 1;
                if self.eat(b':') { Ok(true) } else { Err(Bail) }
            }
            _ => Ok(false),
        }
    }

    /// Opens a tagged enum's object and reads its tag member's value (a string without
    /// escapes): as it comes when the tag is the first member (`true`; the reader is then
    /// past it), else found ahead, the members before it passed over unchecked (`false`;
    /// the reader is back before the first member, and the caller must read every member:
    /// see [`Reader::tag_member`]). Bails on anything but an object holding a member named
    /// `tag`.
    #[inline]
    pub fn open_tagged(&mut self, tag: &[u8]) -> Result<(&'de str, bool), Bail> {
        if !self.begin_object()? {
            return Err(Bail);
        }
        if self.eat_key(tag)? {
            Ok((self.plain_str()?, true))
        } else {
            Ok((self.find_tag(tag)?, false))
        }
    }

    /// In an open object, before its first member's name: finds the first member named
    /// `tag` and reads its value, a string without escapes (see [`Reader::plain_str`]), then
    /// moves back before the first member; bails when no member is named `tag`. Tagged
    /// enums whose tag member is not first read their variant's name so: serde looks for
    /// the tag among all the members.
    ///
    /// The members before the tag are passed over unchecked (their ends found from their
    /// first bytes, containers and strings with escapes by the skip kernel): the caller
    /// reads every member of the object afterwards, so whatever is wrong in them bails then;
    /// in a well-formed object, the member found is the first named `tag` (and
    /// [`Reader::tag_member`] checks that the caller meets the same value).
    #[inline]
    fn find_tag(&mut self, tag: &[u8]) -> Result<&'de str, Bail> {
        let start = self.pos;
        while !self.eat_key(tag)? {
            self.pass_over_name()?;
            if !self.eat(b':') {
                return Err(Bail);
            }
            self.pass_over()?;
            if !self.eat(b',') {
                return Err(Bail);
            }
        }
        let name = self.plain_str()?;
        self.pos = start;
        Ok(name)
    }

    /// At the value of a tagged enum's tag member, met while the object's members are read:
    /// the first time (`*read` false, the tag member having come after another), reads the
    /// value, which must be `name`, the one [`Reader::open_tagged`] found, and sets `*read`;
    /// bails on a second tag member, as serde refuses it.
    #[inline]
    pub fn tag_member(&mut self, read: &mut bool, name: &str) -> Result<(), Bail> {
        if *read || self.plain_str()? != name {
            return Err(Bail);
        }
        *read = true;
        Ok(())
    }

    /// Reads the rest of an internally tagged unit variant's object, whose members besides
    /// the tag serde ignores: each is skipped (checked as [`Reader::skip`] checks it), the
    /// tag member read as [`Reader::tag_member`] does (`tag_first`: it came first, and
    /// was read; `name`, its value). Starts where [`Reader::open_tagged`] left the reader.
    pub fn ignore_members(&mut self, tag: &[u8], name: &str, tag_first: bool) -> Result<(), Bail> {
        let mut tag_read = tag_first;
        let mut more = !tag_first || self.next_member()?;
        while more {
            if self.eat_key(tag)? {
                self.tag_member(&mut tag_read, name)?;
            } else {
                self.key()?;
                self.skip()?;
            }
            more = self.next_member()?;
        }
        Ok(())
    }

    /// Moves past a member name (after whitespace) without checking its text; bails on a
    /// name holding an escape (which no typed reader takes). For text read again.
    fn pass_over_name(&mut self) -> Result<(), Bail> {
        if !self.eat(b'"') {
            return Err(Bail);
        }
        let rest = &self.input[self.pos..];
        match rest.iter().position(|&b| b == b'"' || b == b'\\') {
            Some(len) if rest[len] == b'"' => {
                self.pos += len + 1;
                Ok(())
            }
            _ => Err(Bail),
        }
    }

    /// Moves past the value at the cursor (after whitespace), finding its end only:
    /// numbers, literals and strings without escapes by their bytes, anything else with
    /// the skip kernel (numbers in it unchecked). A well-formed value ends where
    /// [`Reader::skip`] ends it; a malformed one may end anywhere (never past the input), so
    /// only text that is read again afterwards may be passed over.
    fn pass_over(&mut self) -> Result<(), Bail> {
        self.peek();
        let rest = &self.input[self.pos..];
        let len = match rest.first() {
            Some(b'-' | b'0'..=b'9') => rest
                .iter()
                .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                .unwrap_or(rest.len()),
            Some(b't' | b'f' | b'n') => rest
                .iter()
                .position(|b| !b.is_ascii_lowercase())
                .unwrap_or(rest.len()),
            Some(b'"') => match memchr::memchr2(b'"', b'\\', &rest[1..]) {
                Some(len) if rest[1 + len] == b'"' => len + 2,
                _ => self.skip_kernel_len()?,
            },
            _ => self.skip_kernel_len()?,
        };
        self.pos += len;
        Ok(())
    }

    /// Opens a container with `open`, spending one level of the nesting budget: `true`
    /// when an element follows, `false` when `close` came right after (the container is
    /// then read whole and the budget is back).
    #[inline]
    fn open(&mut self, open: u8, close: u8) -> Result<bool, Bail> {
        if self.depth == 0 || !self.eat(open) {
            return Err(Bail);
        }
        if self.eat(close) {
            return Ok(false);
        }
        self.depth -= 1;
        Ok(true)
    }

    /// After an element: `true` past a comma (another element follows), `false` past
    /// `close` (the container ends and its nesting level is given back).
    #[inline]
    fn next(&mut self, close: u8) -> Result<bool, Bail> {
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(b) if b == close => {
                self.pos += 1;
                self.depth += 1;
                Ok(false)
            }
            _ => Err(Bail),
        }
    }

    /// Reads `{`: `true` when a member follows, `false` for `{}`.
    #[inline]
    pub fn begin_object(&mut self) -> Result<bool, Bail> {
        self.open(b'{', b'}')
    }

    /// After a member: `true` when another follows, `false` at the closing `}`.
    #[inline]
    pub fn next_member(&mut self) -> Result<bool, Bail> {
        self.next(b'}')
    }

    /// Reads `[`: `true` when an item follows, `false` for `[]`.
    #[inline]
    pub fn begin_array(&mut self) -> Result<bool, Bail> {
        self.open(b'[', b']')
    }

    /// After an item: `true` when another follows, `false` at the closing `]`.
    #[inline]
    pub fn next_item(&mut self) -> Result<bool, Bail> {
        self.next(b']')
    }

    /// Reads one whole value of any kind (see [`Reader::skip`]) and returns its text.
    pub fn raw_value(&mut self) -> Result<&'de str, Bail> {
        let (start, end) = self.value_span()?;
        std::str::from_utf8(&self.input[start..end]).map_err(|_| Bail)
    }

    /// Skips one whole value of any kind, checked as the codec checks a value it skips: as
    /// JSON, within the nesting budget, and each number within range (an `f64`, and 64
    /// bits under [`BigInts::Error`](jitson_jit::ir::BigInts::Error)).
    #[inline]
    pub fn skip(&mut self) -> Result<(), Bail> {
        self.value_span().map(drop)
    }

    /// The length of the value at the cursor (after whitespace) as the skip kernel finds it
    /// (see [`Reader::pass_over`]).
    fn skip_kernel_len(&self) -> Result<usize, Bail> {
        let end = skip_value(self.input, self.pos, self.depth as usize).map_err(|_| Bail)?;
        Ok(end - self.pos)
    }

    /// Moves past the value at the cursor, checked as [`Reader::skip`] says; returns where
    /// its text starts (after whitespace) and ends.
    #[inline]
    fn value_span(&mut self) -> Result<(usize, usize), Bail> {
        self.peek();
        let start = self.pos;
        let end = skip_value(self.input, start, self.depth as usize).map_err(|_| Bail)?;
        check_skipped_numbers(self.input, start, end, self.big_ints).map_err(|_| Bail)?;
        self.pos = end;
        Ok((start, end))
    }
}

//! The iterative parser: one loop over an explicit stack of open containers.
//!
//! Elements of the open containers collect in two scratch vectors (values of arrays,
//! members of objects); when a container closes, its elements are copied into the arena as
//! one slice and the scratch shrinks back. The grammar, the error kinds and their offsets
//! follow serde_json's deserializer for `serde_json::Value` (see [`crate::error`]).
//!
//! Errors are first recorded as a small [`Fail`] (kind, offset, whether the innermost
//! container's current slot is part of the path) and turned into an [`Error`] once, with the
//! path read from the stack that is still in place.

use bumpalo::Bump;
use jitson_kernels::float_parse::{FloatOverflow, parse_f64};
use jitson_kernels::int_parse::{parse_i64, parse_u64};
use jitson_kernels::number::{digit_run, scan_number};
use jitson_kernels::whitespace::skip_whitespace;
use jitson_kernels::{ErrorKind as KernelKind, KernelError};

use super::keys::{KeySet, KeyTables};
use super::options::{BigNumbers, DuplicateKeys, ParseOptions};
use super::strings::Source;
use super::{Member, Str, Value};
use crate::error::{Error, ErrorKind, SyntaxKind};
use crate::path::{Path, Segment};

/// Parses `input` as one JSON text into a [`Value`] in `arena`, with the default
/// [`ParseOptions`].
pub fn parse<'a>(input: &'a [u8], arena: &'a Bump) -> Result<Value<'a>, Error> {
    parse_with(input, arena, &ParseOptions::new())
}

/// Parses `input` as one JSON text (a value with optional whitespace around it) into a
/// [`Value`] in `arena`.
pub fn parse_with<'a>(
    input: &'a [u8],
    arena: &'a Bump,
    options: &ParseOptions,
) -> Result<Value<'a>, Error> {
    let mut parser = Parser {
        src: Source::new(input, arena, options.get_lossy()),
        options: *options,
        frames: Vec::with_capacity(16),
        values: Vec::with_capacity(64),
        members: Vec::with_capacity(64),
        tables: KeyTables::default(),
    };
    match parser.run() {
        Ok(value) => Ok(value),
        Err(fail) => Err(parser.error(fail)),
    }
}

/// A failure before it becomes an [`Error`].
struct Fail {
    kind: ErrorKind,
    offset: usize,
    at: At,
}

/// Whether an error's path ends at the innermost open container or at its current slot.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    /// The container itself (errors between elements: commas, brackets, keys).
    Container,
    /// The element being parsed (the next index of an array, the member whose key was read).
    Slot,
}

fn fail(kind: SyntaxKind, offset: usize, at: At) -> Fail {
    Fail {
        kind: ErrorKind::Syntax(kind),
        offset,
        at,
    }
}

/// An open container.
enum Frame<'a> {
    /// An array whose elements so far are `values[start..]`.
    Array { start: usize },
    /// An object.
    Object(ObjectFrame<'a>),
}

/// An open object: its members so far are `members[start..]`.
struct ObjectFrame<'a> {
    start: usize,
    /// The key of the member being parsed.
    key: Str<'a>,
    /// The index in `members` of an earlier member with the same key, whose value the
    /// current member replaces.
    replaces: Option<usize>,
    /// Which keys the object has so far.
    keys: KeySet,
}

struct Parser<'a> {
    src: Source<'a>,
    options: ParseOptions,
    frames: Vec<Frame<'a>>,
    values: Vec<Value<'a>>,
    members: Vec<Member<'a>>,
    tables: KeyTables<'a>,
}

impl<'a> Parser<'a> {
    fn run(&mut self) -> Result<Value<'a>, Fail> {
        let input = self.src.input;
        let mut pos = skip_whitespace(input, 0);
        'value: loop {
            // `pos` is where a value must start (whitespace already skipped).
            let mut value = match input.get(pos) {
                Some(b'"') => {
                    let (text, end) = self.string(pos, At::Slot)?;
                    pos = end;
                    Value::String(Str(text))
                }
                Some(b'[') => {
                    self.check_depth(pos)?;
                    let first = skip_whitespace(input, pos + 1);
                    match input.get(first) {
                        Some(b']') => {
                            pos = first + 1;
                            Value::Array(&[])
                        }
                        Some(_) => {
                            self.frames.push(Frame::Array {
                                start: self.values.len(),
                            });
                            pos = first;
                            continue 'value;
                        }
                        None => {
                            return Err(fail(
                                SyntaxKind::EofWhileParsingArray,
                                input.len(),
                                At::Slot,
                            ));
                        }
                    }
                }
                Some(b'{') => {
                    self.check_depth(pos)?;
                    let first = skip_whitespace(input, pos + 1);
                    match input.get(first) {
                        Some(b'}') => {
                            pos = first + 1;
                            Value::Object(&[])
                        }
                        Some(b'"') => {
                            let mut object = ObjectFrame {
                                start: self.members.len(),
                                key: Str(""),
                                replaces: None,
                                keys: KeySet::default(),
                            };
                            let key = self.member_key(&mut object, first);
                            // Pushed before `?` so that an error's path names this object.
                            self.frames.push(Frame::Object(object));
                            pos = key?;
                            continue 'value;
                        }
                        Some(_) => {
                            return Err(fail(SyntaxKind::ExpectedKey, first, At::Slot));
                        }
                        None => {
                            return Err(fail(
                                SyntaxKind::EofWhileParsingObject,
                                input.len(),
                                At::Slot,
                            ));
                        }
                    }
                }
                Some(b't') => {
                    pos = literal(input, pos, b"true")?;
                    Value::Bool(true)
                }
                Some(b'f') => {
                    pos = literal(input, pos, b"false")?;
                    Value::Bool(false)
                }
                Some(b'n') => {
                    pos = literal(input, pos, b"null")?;
                    Value::Null
                }
                Some(b'-' | b'0'..=b'9') => {
                    let (number, end) = self.number(pos)?;
                    pos = end;
                    number
                }
                Some(_) => return Err(fail(SyntaxKind::ExpectedValue, pos, At::Slot)),
                None => {
                    return Err(fail(
                        SyntaxKind::EofWhileParsingValue,
                        input.len(),
                        At::Slot,
                    ));
                }
            };
            // A value ended at `pos`: hand it to its container, closing containers until
            // one continues with another element.
            loop {
                match self.frames.last_mut() {
                    None => return self.finish(value, pos),
                    Some(Frame::Array { start }) => {
                        let start = *start;
                        self.values.push(value);
                        pos = skip_whitespace(input, pos);
                        match input.get(pos) {
                            Some(b',') => {
                                pos = skip_whitespace(input, pos + 1);
                                if input.get(pos) == Some(&b']') {
                                    return Err(fail(
                                        SyntaxKind::TrailingComma,
                                        pos,
                                        At::Container,
                                    ));
                                }
                                continue 'value;
                            }
                            Some(b']') => {
                                pos += 1;
                                value = Value::Array(copy_to_arena(
                                    self.src.arena,
                                    &self.values[start..],
                                ));
                                self.values.truncate(start);
                                self.frames.pop();
                            }
                            Some(_) => {
                                return Err(fail(
                                    SyntaxKind::ExpectedArrayCommaOrEnd,
                                    pos,
                                    At::Container,
                                ));
                            }
                            None => {
                                return Err(fail(
                                    SyntaxKind::EofWhileParsingArray,
                                    input.len(),
                                    At::Container,
                                ));
                            }
                        }
                    }
                    Some(Frame::Object(object)) => {
                        insert(object, &mut self.members, &mut self.tables, value);
                        pos = skip_whitespace(input, pos);
                        match input.get(pos) {
                            Some(b',') => {
                                pos = skip_whitespace(input, pos + 1);
                                match input.get(pos) {
                                    Some(b'"') => {
                                        pos = member_key(
                                            self.src,
                                            &self.options,
                                            object,
                                            &self.members,
                                            &mut self.tables,
                                            pos,
                                        )?;
                                        continue 'value;
                                    }
                                    Some(b'}') => {
                                        return Err(fail(
                                            SyntaxKind::TrailingComma,
                                            pos,
                                            At::Container,
                                        ));
                                    }
                                    Some(_) => {
                                        return Err(fail(
                                            SyntaxKind::ExpectedKey,
                                            pos,
                                            At::Container,
                                        ));
                                    }
                                    None => {
                                        return Err(fail(
                                            SyntaxKind::EofWhileParsingValue,
                                            input.len(),
                                            At::Container,
                                        ));
                                    }
                                }
                            }
                            Some(b'}') => {
                                pos += 1;
                                let start = object.start;
                                object.keys.close(&mut self.tables);
                                value = Value::Object(copy_to_arena(
                                    self.src.arena,
                                    &self.members[start..],
                                ));
                                self.members.truncate(start);
                                self.frames.pop();
                            }
                            Some(_) => {
                                return Err(fail(
                                    SyntaxKind::ExpectedObjectCommaOrEnd,
                                    pos,
                                    At::Container,
                                ));
                            }
                            None => {
                                return Err(fail(
                                    SyntaxKind::EofWhileParsingObject,
                                    input.len(),
                                    At::Container,
                                ));
                            }
                        }
                    }
                }
            }
        }
    }

    /// Checks that nothing but whitespace follows the document's value.
    fn finish(&self, value: Value<'a>, pos: usize) -> Result<Value<'a>, Fail> {
        let rest = skip_whitespace(self.src.input, pos);
        if rest < self.src.input.len() {
            return Err(fail(SyntaxKind::TrailingCharacters, rest, At::Container));
        }
        Ok(value)
    }

    /// Fails when a container opening at `pos` would nest deeper than the limit.
    #[inline]
    fn check_depth(&self, pos: usize) -> Result<(), Fail> {
        if self.frames.len() >= self.options.get_max_depth() {
            return Err(Fail {
                kind: ErrorKind::DepthLimitExceeded,
                offset: pos,
                at: At::Slot,
            });
        }
        Ok(())
    }

    /// The string whose opening quote is at `quote`, and the index past it.
    #[inline]
    fn string(&self, quote: usize, at: At) -> Result<(&'a str, usize), Fail> {
        self.src
            .string(quote)
            .map_err(|(kind, offset)| fail(kind, offset, at))
    }

    /// See [`member_key`], for a new object not yet on the stack.
    fn member_key(&mut self, object: &mut ObjectFrame<'a>, quote: usize) -> Result<usize, Fail> {
        member_key(
            self.src,
            &self.options,
            object,
            &self.members,
            &mut self.tables,
            quote,
        )
    }

    /// The number starting at `pos` and the index past it. A look past the integer digits
    /// sends the token to the integer kernels (their fused fast path) or the float kernel.
    #[inline]
    fn number(&self, pos: usize) -> Result<(Value<'a>, usize), Fail> {
        let input = self.src.input;
        let negative = input.get(pos) == Some(&b'-');
        let digits_end =
            pos + usize::from(negative) + digit_run(input, pos + usize::from(negative));
        let parsed = match input.get(digits_end) {
            Some(b'.' | b'e' | b'E') => {
                parse_f64(input, pos, FloatOverflow::Error).map(|(x, end)| (Value::F64(x), end))
            }
            // `-0` keeps its sign only as a float (serde_json does the same).
            _ if negative => parse_i64(input, pos).map(|(n, end)| match n {
                0 => (Value::F64(-0.0), end),
                n => (Value::I64(n), end),
            }),
            _ => parse_u64(input, pos).map(|(n, end)| (Value::U64(n), end)),
        };
        match parsed {
            Ok(done) => Ok(done),
            Err(e) if e.kind == KernelKind::NumberOutOfRange => self.big_number(pos),
            Err(e) => Err(number_syntax(e)),
        }
    }

    /// A well-formed number at `pos` that no 64-bit type holds, per [`BigNumbers`].
    #[cold]
    fn big_number(&self, pos: usize) -> Result<(Value<'a>, usize), Fail> {
        let token = scan_number(self.src.input, pos).map_err(number_syntax)?;
        let out_of_range = Fail {
            kind: ErrorKind::NumberOutOfRange,
            offset: token.end - 1,
            at: At::Slot,
        };
        let raw = &self.src.input[token.start..token.end];
        match self.options.get_big_numbers() {
            BigNumbers::Raw => match std::str::from_utf8(raw) {
                Ok(raw) => Ok((Value::BigNumber(raw), token.end)),
                Err(_) => Err(fail(SyntaxKind::InvalidNumber, token.start, At::Slot)),
            },
            BigNumbers::Float if token.is_integer => {
                match parse_f64(self.src.input, token.start, FloatOverflow::Error) {
                    Ok((x, _)) => Ok((Value::F64(x), token.end)),
                    Err(_) => Err(out_of_range),
                }
            }
            BigNumbers::Float | BigNumbers::Error => Err(out_of_range),
        }
    }

    /// The [`Error`] for `fail`, with the path read from the open containers.
    #[cold]
    #[inline(never)]
    fn error(&self, fail: Fail) -> Error {
        Error::new(fail.kind, self.src.input, fail.offset, self.path(fail.at))
    }

    /// The path of the innermost open container, or of its current slot.
    fn path(&self, at: At) -> Path {
        let mut segments = Vec::with_capacity(self.frames.len());
        // An array's element count is where the next deeper array's elements start.
        let mut next_array_start = self.values.len();
        for (depth, frame) in self.frames.iter().enumerate().rev() {
            let slot = at == At::Slot || depth + 1 < self.frames.len();
            match frame {
                Frame::Array { start } => {
                    if slot {
                        segments.push(Segment::Index(next_array_start - start));
                    }
                    next_array_start = *start;
                }
                Frame::Object(object) if slot => segments.push(Segment::Key(object.key.0.into())),
                Frame::Object(_) => {}
            }
        }
        segments.reverse();
        segments.into_iter().collect()
    }
}

/// Reads the key whose opening quote is at `quote` into `object`, checks it against the
/// object's earlier keys, and reads the `:` after it; returns where the value starts.
fn member_key<'a>(
    src: Source<'a>,
    options: &ParseOptions,
    object: &mut ObjectFrame<'a>,
    members: &[Member<'a>],
    tables: &mut KeyTables<'a>,
    quote: usize,
) -> Result<usize, Fail> {
    let input = src.input;
    let (text, end) = src
        .string(quote)
        .map_err(|(kind, offset)| fail(kind, offset, At::Container))?;
    object.key = Str(text);
    object.replaces = object.keys.find(text, object.start, members, tables);
    if object.replaces.is_some() && options.get_duplicate_keys() == DuplicateKeys::Deny {
        return Err(Fail {
            kind: ErrorKind::DuplicateKey,
            offset: quote,
            at: At::Slot,
        });
    }
    let colon = skip_whitespace(input, end);
    match input.get(colon) {
        Some(b':') => Ok(skip_whitespace(input, colon + 1)),
        Some(_) => Err(fail(SyntaxKind::ExpectedColon, colon, At::Slot)),
        None => Err(fail(
            SyntaxKind::EofWhileParsingObject,
            input.len(),
            At::Slot,
        )),
    }
}

/// Adds the member being parsed (its key is in `object`) with `value`, or replaces the
/// value of the earlier member with the same key.
#[inline]
fn insert<'a>(
    object: &mut ObjectFrame<'a>,
    members: &mut Vec<Member<'a>>,
    tables: &mut KeyTables<'a>,
    value: Value<'a>,
) {
    if let Some(earlier) = object.replaces.and_then(|i| members.get_mut(i)) {
        earlier.1 = value;
        return;
    }
    members.push((object.key, value));
    object.keys.insert(object.start, members, tables);
}

/// `items` copied into `arena`. Short slices (most arrays and many objects) are copied
/// element by element, which is cheaper than a call to `memcpy` for a few elements.
#[inline]
fn copy_to_arena<'a, T: Copy>(arena: &'a Bump, items: &[T]) -> &'a [T] {
    if items.len() <= 4 {
        arena.alloc_slice_fill_iter(items.iter().copied())
    } else {
        arena.alloc_slice_copy(items)
    }
}

/// Checks the literal `word` at `pos`; returns the index past it.
#[inline]
fn literal(input: &[u8], pos: usize, word: &[u8]) -> Result<usize, Fail> {
    let end = pos + word.len();
    if input.get(pos..end) == Some(word) {
        return Ok(end);
    }
    Err(literal_mismatch(input, pos, word))
}

/// The error for a literal at `pos` that is not `word`: the first wrong byte, or the end of
/// input inside a matching prefix.
#[cold]
fn literal_mismatch(input: &[u8], pos: usize, word: &[u8]) -> Fail {
    let rest = input.get(pos..).unwrap_or_default();
    match rest.iter().zip(word).position(|(a, b)| a != b) {
        Some(i) => fail(SyntaxKind::InvalidLiteral, pos + i, At::Slot),
        None => fail(SyntaxKind::EofWhileParsingValue, input.len(), At::Slot),
    }
}

/// The error for a number the kernels reject: the end of input inside it, or a wrong byte.
#[cold]
fn number_syntax(e: KernelError) -> Fail {
    let kind = match e.kind {
        KernelKind::UnexpectedEnd => SyntaxKind::EofWhileParsingValue,
        _ => SyntaxKind::InvalidNumber,
    };
    fail(kind, e.offset, At::Slot)
}

//! Transcode: the machine's sink that writes the validated input as compact JSON in the same
//! pass, with unknown members kept / dropped / denied, a pick list and a redaction list.
//!
//! Values are written as [encode](crate::encode) writes them (strings escaped per the mode,
//! numbers formatted as `serde_json` does, big integers read with
//! [`BigInts::Raw`] copied verbatim, raw values rewritten), or with [`Tokens::Verbatim`] as
//! the input writes them (raw values [minified](jitson_kernels::minify)). What a value looks like is
//! decided when it starts: a member's key (or an item's index) is matched against the pick
//! and redact pointers, one token per container level, as bit sets of the pointers still
//! matching. Ops with no decode destination (`allOf` parts after the first, `not`'s inner
//! check) write nothing. A violation caught by a `Try` truncates the output to what it was
//! when the caught frame was entered.

use jitson_kernels::escape::{EscapeMode, escape_str};
use jitson_kernels::minify::minify;

use crate::encode::{num_ref, write_raw};
use crate::ir::{BigInts, ExecOptions, Failure, FuncId, NumRef, Program};
use crate::layout::{Layout, NO_DST, Shape, ShapeId};

use super::Scratch;
use super::machine::Machine;
use super::sink::{At, Sink, Text};

mod walk;
pub use walk::{GuideNode, OPEN, Other, Tags, Unwalkable, WalkGuide};

/// Most pointers in each of the pick and redact lists.
pub const MAX_POINTERS: usize = 64;

/// What transcode does with object members the schema does not name, where it allows any
/// value (`additionalProperties` absent or `true`); maps and typed extras are always kept,
/// and so are members a `patternProperties` pattern matches (whole, as raw JSON: members
/// inside them are not dropped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unknown {
    /// Written out.
    #[default]
    Keep,
    /// Validated, not written.
    Drop,
    /// An `UnknownField` violation.
    Deny,
}

/// How transcode writes the scalars, keys and raw values it keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tokens {
    /// As `serde_json` writes the value it reads from them: strings and keys escaped per
    /// [`TranscodeSpec::escape`], numbers in the formatter's shortest form, raw values
    /// rewritten likewise ([`write_raw`]).
    #[default]
    Rewritten,
    /// Byte for byte as the input writes them: only the whitespace between tokens is
    /// dropped. Numbers keep their exact text (no digit lost to an `f64`), strings and keys
    /// their escapes; [`TranscodeSpec::escape`] does not apply.
    Verbatim,
}

/// What to write: the options of one transcode.
#[derive(Clone, Debug, Default)]
pub struct TranscodeSpec {
    /// Unknown members.
    pub unknown: Unknown,
    /// Keep only these values (and their ancestors), as unescaped pointer tokens; empty: all.
    pub pick: Vec<Vec<Box<str>>>,
    /// Write `replacement` instead of these values (after validating them).
    pub redact: Vec<Vec<Box<str>>>,
    /// Raw JSON written for redacted values.
    pub replacement: Vec<u8>,
    /// String escaping (with [`Tokens::Rewritten`]).
    pub escape: EscapeMode,
    /// How kept tokens are written.
    pub tokens: Tokens,
}

impl TranscodeSpec {
    /// True when the spec writes every value as it is (unknown members kept, no pick, no
    /// redaction): the output is then the input written compactly in its own order,
    /// [`write_raw`]'s output ([`minify`]'s with [`Tokens::Verbatim`]), once the input is
    /// known to be valid.
    pub fn keeps_everything(&self) -> bool {
        self.unknown == Unknown::Keep && self.pick.is_empty() && self.redact.is_empty()
    }
}

/// Validates `input` with `program` and appends it as compact JSON to `out`, shaped by
/// `spec`. On error `out` is left as it was. The program must carry a layout; at most
/// [`MAX_POINTERS`] pick and redact pointers each (more are ignored).
pub fn transcode(
    program: &Program,
    input: &[u8],
    options: &ExecOptions,
    spec: &TranscodeSpec,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> Result<(), Failure> {
    let layout = &program.layout;
    assert!(
        layout.is_present(),
        "transcode needs a program with a layout"
    );
    let start = out.len();
    let mut sink = Transcoder::new(layout, spec, options, out);
    sink.frames.push(Mark {
        shape: layout.funcs[program.entry as usize].shape,
        muted: false,
        out: start,
        conts: 0,
        next: sink.next,
    });
    let result = Machine::new(program, input, options, &mut scratch.core, 0, sink).run();
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// [`transcode`] of an input already known to be one JSON document that `program`
/// accepts (native code validated it): the same bytes, written without validating again,
/// or [`Unwalkable`] when only the interpreter can tell them (`out` is then as it was).
///
/// With unknown members kept, what a transcode writes does not depend on the schema:
/// picks and redactions are paths in the document, and every kept token is written as
/// [`write_raw`] (or, verbatim, the input) writes it. So the document is walked as a value
/// the schema leaves open is (the same member, item and value steps), with the skip kernel
/// over what no pointer reaches into (then any `guide` gives the same bytes; the cheapest
/// is [`WalkGuide::open`]). Dropping or denying unknown members takes the schema's `guide`,
/// its nodes as the walk reads them ([`WalkGuide`]): [`Unwalkable`] on a denied
/// member (the error is the interpreter's to report) and where members to drop are below an
/// `anyOf` / `oneOf` whose branch no discriminator's tag names. The differential and model tests hold it to [`transcode`]'s bytes.
///
/// # Panics
///
/// When `input` is not one well-formed JSON document.
pub fn transcode_accepted(
    program: &Program,
    guide: &WalkGuide,
    input: &[u8],
    options: &ExecOptions,
    spec: &TranscodeSpec,
    out: &mut Vec<u8>,
) -> Result<(), Unwalkable> {
    let start = out.len();
    let mut sink = Transcoder::new(&program.layout, spec, options, out);
    // The walk skips the whitespace around the value itself.
    let walked = sink.walk(guide, input);
    if walked.is_err() {
        out.truncate(start);
    }
    walked
}

/// The selection at the root: every pick and redaction pointer still matching (every
/// value kept when nothing is picked).
fn root_selection(spec: &TranscodeSpec) -> Sel {
    let all = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    Sel {
        pick: if spec.pick.is_empty() {
            ALL
        } else {
            all(spec.pick.len())
        },
        redact: all(spec.redact.len()),
    }
}

/// Pointers still matching, as bit sets; `pick == ALL` inside a picked value.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Sel {
    pick: u64,
    redact: u64,
}

/// `pick` of a value kept whole.
const ALL: u64 = u64::MAX;

/// How the next value starting is written.
#[derive(Clone, Copy, Debug)]
struct Next {
    /// Not written (dropped, picked out, redacted).
    quiet: bool,
    /// The replacement is written instead.
    redacted: bool,
    /// Selection for its members / items.
    sel: Sel,
}

impl Default for Next {
    fn default() -> Next {
        Next {
            quiet: false,
            redacted: false,
            sel: Sel {
                pick: ALL,
                redact: 0,
            },
        }
    }
}

/// An open container.
#[derive(Clone, Copy, Debug)]
struct Cont {
    quiet: bool,
    first: bool,
    sel: Sel,
}

/// Per machine frame: its shape, whether it writes, and what a caught violation restores.
#[derive(Clone, Copy, Debug)]
struct Mark {
    shape: ShapeId,
    muted: bool,
    out: usize,
    conts: usize,
    next: Next,
}

struct Transcoder<'s, 'o> {
    layout: &'s Layout,
    spec: &'s TranscodeSpec,
    big_ints: BigInts,
    out: &'o mut Vec<u8>,
    conts: Vec<Cont>,
    frames: Vec<Mark>,
    next: Next,
}

impl<'s, 'o> Transcoder<'s, 'o> {
    /// A transcoder writing to `out`, the root value's selection decided.
    fn new(
        layout: &'s Layout,
        spec: &'s TranscodeSpec,
        options: &ExecOptions,
        out: &'o mut Vec<u8>,
    ) -> Self {
        let mut sink = Transcoder {
            layout,
            spec,
            big_ints: options.big_ints,
            out,
            conts: Vec::new(),
            frames: Vec::new(),
            next: Next::default(),
        };
        sink.next = sink.select(root_selection(spec), None);
        sink
    }

    fn top(&self) -> &Mark {
        self.frames.last().expect("a frame while running")
    }

    /// Whether the op at `at` writes (its frame is not muted and it has a destination).
    fn writes(&self, at: At) -> bool {
        !self.top().muted && self.layout.funcs[at.0 as usize].dst[at.1 as usize] != NO_DST
    }

    /// Whether container events of the current frame write.
    fn live(&self) -> bool {
        !self.top().muted
    }

    /// The selection of a child reached by `token` (none: the root itself) from `parent`.
    fn select(&self, parent: Sel, token: Option<&[u8]>) -> Next {
        let depth = self.conts.len();
        let step = |lists: &[Vec<Box<str>>], bits: u64| -> (u64, bool) {
            let mut kept = 0;
            let mut whole = false;
            // Only the pointers still matching (a bit per list, the first 64 lists).
            let mut rest = bits;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let Some(p) = lists.get(i) else { break };
                let (matched, len) = match token {
                    None => (true, 0),
                    Some(t) => (p.get(depth - 1).is_some_and(|k| k.as_bytes() == t), depth),
                };
                if matched {
                    kept |= 1 << i;
                    whole |= p.len() == len;
                }
            }
            (kept, whole)
        };
        let (redact, redacted) = step(&self.spec.redact, parent.redact);
        let (pick, picked) = match parent.pick {
            ALL => (ALL, true),
            bits => step(&self.spec.pick, bits),
        };
        Next {
            quiet: pick == 0,
            redacted,
            sel: Sel {
                pick: if picked { ALL } else { pick },
                redact,
            },
        }
    }

    /// A value starts: whether to write it (the replacement is written for redacted ones).
    fn start(&mut self) -> bool {
        let next = std::mem::take(&mut self.next);
        if next.redacted && !next.quiet {
            self.out.extend_from_slice(&self.spec.replacement);
        }
        !(next.quiet || next.redacted)
    }

    fn open(&mut self, bracket: u8) {
        let sel = self.next.sel;
        let write = self.start();
        if write {
            self.out.push(bracket);
        }
        self.conts.push(Cont {
            quiet: !write,
            first: true,
            sel,
        });
    }

    fn close(&mut self, bracket: u8) {
        let c = self.conts.pop().expect("an open container");
        if !c.quiet {
            self.out.push(bracket);
        }
    }

    /// A member or item starts: decide it, write the separator (and the key, given as its
    /// text and its token).
    fn member(&mut self, token: &[u8], key: Option<(&[u8], &[u8])>, dropped: bool) {
        let c = *self.conts.last().expect("an open container");
        self.next = self.select(c.sel, Some(token));
        self.next.quiet |= c.quiet || dropped;
        if self.next.quiet {
            return;
        }
        if !c.first {
            self.out.push(b',');
        }
        self.conts.last_mut().expect("an open container").first = false;
        if let Some((text, token)) = key {
            match self.spec.tokens {
                Tokens::Rewritten => escape_str(
                    std::str::from_utf8(text).unwrap_or(""),
                    self.spec.escape,
                    self.out,
                ),
                Tokens::Verbatim => self.out.extend_from_slice(token),
            }
            self.out.push(b':');
        }
    }

    fn item(&mut self, index: u64) {
        let text = IndexText::new(index);
        self.member(text.as_bytes(), None, false);
    }

    fn scalar(&mut self, at: At, write: impl FnOnce(&mut Vec<u8>, EscapeMode)) {
        if self.writes(at) && self.start() {
            write(self.out, self.spec.escape);
        }
    }

    /// A scalar whose `token` the input holds: written as it is with [`Tokens::Verbatim`],
    /// else by `rewrite`.
    fn token(&mut self, at: At, token: &[u8], rewrite: impl FnOnce(&mut Vec<u8>, EscapeMode)) {
        match self.spec.tokens {
            Tokens::Rewritten => self.scalar(at, rewrite),
            Tokens::Verbatim => self.scalar(at, |out, _| out.extend_from_slice(token)),
        }
    }
}

/// Raw values (those the schema leaves open, and whole documents native code accepted):
/// walked where pick or redact pointers reach into them, so that the pointers apply inside
/// them as they do in values the schema describes, and written whole elsewhere.
impl Transcoder<'_, '_> {
    /// Whether the value starting next is written and some pointer goes on below it (a
    /// pick that has not yet kept a whole value, or a redaction).
    fn points_inside(&self) -> bool {
        let next = &self.next;
        !next.quiet && !next.redacted && (next.sel.pick != ALL || next.sel.redact != 0)
    }

    /// Writes the raw value `raw` (one well-formed value: the machine's validating skip, or
    /// native validate, read it): the walk of [`WalkGuide::open`], which meets no unknown
    /// member. A value no pointer reaches into is skipped, replaced or written whole
    /// ([`Self::raw_whole`]); only containers some pointer goes on below are walked.
    fn raw_value(&mut self, raw: &[u8]) {
        let walked = self.walk(&WalkGuide::open(), raw);
        debug_assert!(walked.is_ok(), "an open value has no unknown member");
    }

    /// Writes `value` of a raw value (no pointer goes on below it) as its pick and redact
    /// decision says: left out, the replacement, or the whole value as [`write_raw`] writes
    /// it (minified, with [`Tokens::Verbatim`]).
    fn raw_whole(&mut self, value: &[u8]) {
        if self.start() {
            self.write_tokens(value, matches!(value[0], b'{' | b'['));
        }
    }

    /// Writes well-formed JSON tokens (a value, or a run of an object's members) as
    /// [`write_raw`] writes them, or with [`Tokens::Verbatim`] as they are, minified when
    /// `spaced` (whitespace may be between them; a scalar token has none).
    fn write_tokens(&mut self, tokens: &[u8], spaced: bool) {
        match self.spec.tokens {
            Tokens::Rewritten => write_raw(tokens, self.spec.escape, self.big_ints, self.out),
            Tokens::Verbatim if spaced => minify(tokens, self.out),
            Tokens::Verbatim => self.out.extend_from_slice(tokens),
        }
    }
}

/// The decimal text of an array index (for matching pointer tokens).
struct IndexText {
    buf: [u8; 20],
    start: usize,
}

impl IndexText {
    fn new(mut n: u64) -> IndexText {
        let mut buf = [0u8; 20];
        let mut start = buf.len();
        loop {
            start -= 1;
            buf[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                return IndexText { buf, start };
            }
        }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }
}

impl<'a> Sink<'a> for Transcoder<'_, '_> {
    const TEXT: bool = true;
    const DESCRIBED: bool = true;

    fn builds(&mut self, at: At) -> bool {
        self.writes(at)
    }

    fn enter(&mut self, at: At, callee: FuncId) {
        let muted = !self.writes(at);
        self.frames.push(Mark {
            shape: self.layout.funcs[callee as usize].shape,
            muted,
            out: self.out.len(),
            conts: self.conts.len(),
            next: self.next,
        });
    }

    fn leave(&mut self) {
        self.frames.pop();
    }

    fn unwind(&mut self, frames: usize) {
        if let Some(m) = self.frames.get(frames).copied() {
            self.out.truncate(m.out);
            self.conts.truncate(m.conts);
            self.next = m.next;
        }
        self.frames.truncate(frames);
    }

    fn null(&mut self, at: At) {
        self.scalar(at, |out, _| out.extend_from_slice(b"null"));
    }

    fn boolean(&mut self, at: At, value: bool) {
        let word: &[u8] = if value { b"true" } else { b"false" };
        self.scalar(at, |out, _| out.extend_from_slice(word));
    }

    fn number(&mut self, at: At, value: NumRef<'a>, token: &'a [u8]) {
        self.token(at, token, |out, _| num_ref(value, out));
    }

    fn string(&mut self, at: At, text: Text<'a, '_>, token: &'a [u8]) {
        let text = std::str::from_utf8(text.bytes()).unwrap_or("");
        self.token(at, token, |out, mode| escape_str(text, mode, out));
    }

    fn str_enum(&mut self, at: At, _index: u32, text: Text<'a, '_>, token: &'a [u8]) {
        self.string(at, text, token);
    }

    fn raw(&mut self, at: At, raw: &'a [u8]) {
        if self.writes(at) {
            self.raw_value(raw);
        }
    }

    fn arr_begin(&mut self, empty: bool) {
        if !self.live() {
            return;
        }
        self.open(b'[');
        if !empty {
            self.item(0);
        }
    }

    fn arr_item(&mut self, index: u64) {
        if self.live() {
            self.item(index);
        }
    }

    fn arr_end(&mut self, _count: u64) {
        if self.live() {
            self.close(b']');
        }
    }

    fn obj_begin(&mut self) {
        if self.live() {
            self.open(b'{');
        }
    }

    fn key(
        &mut self,
        field: Option<u32>,
        described: bool,
        text: Text<'a, '_>,
        token: &'a [u8],
    ) -> bool {
        if !self.live() {
            return true;
        }
        let unknown = field.is_none()
            && !described
            && match &self.layout.shape(self.top().shape).shape {
                Shape::Object { extra, .. } => {
                    matches!(self.layout.shape(*extra).shape, Shape::Raw)
                }
                _ => false,
            };
        if unknown && self.spec.unknown == Unknown::Deny {
            return false;
        }
        let key = text.bytes();
        self.member(
            key,
            Some((key, token)),
            unknown && self.spec.unknown == Unknown::Drop,
        );
        true
    }

    fn obj_end(&mut self, _bits: &[u64]) {
        if self.live() {
            self.close(b'}');
        }
    }
}

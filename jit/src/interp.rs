//! The portable interpreter: runs a [`Program`] over input bytes, exactly as the
//! [IR documentation](crate::ir) specifies.
//!
//! It is iterative: calls push frames on a heap vector, never Rust stack frames, and
//! containers past [`ExecOptions::max_depth`] are an error, so no input can overflow the
//! stack. The byte work (whitespace, strings, escapes, UTF-8, numbers, skipping) is done by
//! the kernels, as generated code will do it.

use jitson_kernels::{ErrorKind, skip, string_scan, unescape, utf8, whitespace};

use crate::ir::{
    ExecOptions, FailKind, Failure, FuncId, KeyTableId, Kinds, Label, Op, PathSeg, Program, REGS,
    StrCheck, Violation,
};
use crate::number::read_number;

/// The field register's value when the last key matched no named field.
const NO_FIELD: u32 = u32::MAX;

/// Reusable buffers of the interpreter. Keep one per thread and pass it to every run to
/// avoid allocating per document.
#[derive(Debug, Default)]
pub struct Scratch {
    frames: Vec<Frame>,
    path: Vec<PathSeg>,
    bits: Vec<u64>,
    text: Vec<u8>,
    errors: Vec<Failure>,
}

impl Scratch {
    /// Empty buffers.
    pub fn new() -> Scratch {
        Scratch::default()
    }
}

/// Checks `input` against `program`: `Ok`, or the first error.
pub fn validate(
    program: &Program,
    input: &[u8],
    options: &ExecOptions,
    scratch: &mut Scratch,
) -> Result<(), Failure> {
    Machine::new(program, input, options, scratch, 0).run()
}

/// Checks `input` against `program`, collecting violations: up to `cap` failures (at least
/// one), in input order; empty when the input is valid. After a violation outside any
/// [`Op::Try`], the failed value is skipped and checking goes on; a fatal error (syntax,
/// depth, number range, duplicate key) ends the list.
pub fn validate_all(
    program: &Program,
    input: &[u8],
    options: &ExecOptions,
    scratch: &mut Scratch,
    cap: usize,
) -> Vec<Failure> {
    let cap = cap.max(1);
    let mut machine = Machine::new(program, input, options, scratch, cap);
    let last = machine.run().err();
    let mut errors = std::mem::take(&mut machine.s.errors);
    errors.extend(last);
    errors
}

/// A call frame (see the IR docs: registers, container state, catch record).
#[derive(Clone, Copy, Debug)]
struct Frame {
    func: FuncId,
    pc: Label,
    regs: [usize; REGS],
    count: u64,
    field: u32,
    bits: u32,
    catch: Option<Catch>,
}

/// What a [`Op::Try`] frame restores when a violation unwinds to it.
#[derive(Clone, Copy, Debug)]
struct Catch {
    on_fail: Label,
    pos: usize,
    depth: u32,
    path: u32,
    bits: u32,
}

/// How execution resumes after a violation recorded in collect-all mode.
#[derive(Clone, Copy, Debug)]
enum Resume {
    /// The value is consumed: go on with the next op.
    Continue,
    /// Skip the value starting at this offset, then go on with the next op.
    SkipFrom(usize),
    /// Skip the value starting at this offset, then return from the function.
    SkipAndReturn(usize),
}

/// A failed op: the error, and how collect-all mode resumes.
#[derive(Debug)]
struct Stop {
    kind: FailKind,
    offset: usize,
    resume: Resume,
}

impl Stop {
    fn syntax(kind: ErrorKind, offset: usize) -> Stop {
        let kind = match kind {
            ErrorKind::DepthLimitExceeded => FailKind::DepthLimitExceeded,
            ErrorKind::NumberOutOfRange => FailKind::NumberOutOfRange,
            kind => FailKind::Syntax(kind),
        };
        Stop {
            kind,
            offset,
            resume: Resume::Continue,
        }
    }

    fn violation(v: Violation, offset: usize, resume: Resume) -> Stop {
        Stop {
            kind: FailKind::Violation(v),
            offset,
            resume,
        }
    }

    fn fatal(kind: FailKind, offset: usize) -> Stop {
        Stop {
            kind,
            offset,
            resume: Resume::Continue,
        }
    }
}

/// What the main loop does after an op.
enum Flow {
    Next,
    Done,
}

/// Where a string's body lies and what it holds.
#[derive(Clone, Copy)]
struct StrSpan {
    body: usize,
    end: usize,
    escapes: bool,
}

/// The first byte of a value of each kind, by [`Op::Dispatch`] slot.
pub(crate) fn kind_slot(byte: u8) -> Option<usize> {
    match byte {
        b'n' => Some(0),
        b't' | b'f' => Some(1),
        b'-' | b'0'..=b'9' => Some(2),
        b'"' => Some(3),
        b'[' => Some(4),
        b'{' => Some(5),
        _ => None,
    }
}

struct Machine<'a> {
    prog: &'a Program,
    input: &'a [u8],
    opts: ExecOptions,
    pos: usize,
    depth: u32,
    tries: u32,
    cap: usize,
    s: &'a mut Scratch,
}

impl<'a> Machine<'a> {
    fn new(
        prog: &'a Program,
        input: &'a [u8],
        opts: &ExecOptions,
        s: &'a mut Scratch,
        cap: usize,
    ) -> Machine<'a> {
        s.frames.clear();
        s.path.clear();
        s.bits.clear();
        s.errors.clear();
        Machine {
            prog,
            input,
            opts: *opts,
            pos: 0,
            depth: 0,
            tries: 0,
            cap,
            s,
        }
    }

    fn run(&mut self) -> Result<(), Failure> {
        self.push_frame(self.prog.entry, None);
        loop {
            let prog = self.prog;
            let frame = self.s.frames.last_mut().expect("a frame while running");
            let op = &prog.funcs[frame.func as usize].ops[frame.pc as usize];
            frame.pc += 1;
            match self.step(op) {
                Ok(Flow::Next) => {}
                Ok(Flow::Done) => return Ok(()),
                Err(stop) => {
                    if let Flow::Done = self.recover(stop)? {
                        return Ok(());
                    }
                }
            }
        }
    }

    fn push_frame(&mut self, func: FuncId, catch: Option<Catch>) {
        self.s.frames.push(Frame {
            func,
            pc: 0,
            regs: [0; REGS],
            count: 0,
            field: NO_FIELD,
            bits: self.s.bits.len() as u32,
            catch,
        });
    }

    fn frame(&mut self) -> &mut Frame {
        self.s.frames.last_mut().expect("a frame while running")
    }

    fn jump(&mut self, to: Label) {
        self.frame().pc = to;
    }

    /// Pops the current frame; `Done` when it was the last.
    fn ret(&mut self) -> Flow {
        let frame = self.s.frames.pop().expect("a frame while running");
        if frame.catch.is_some() {
            self.tries -= 1;
        }
        match self.s.frames.is_empty() {
            true => Flow::Done,
            false => Flow::Next,
        }
    }

    fn failure(&self, kind: FailKind, offset: usize) -> Failure {
        Failure {
            kind,
            offset,
            path: self.s.path.clone(),
        }
    }

    /// Handles a failed op: unwind to a `Try`, record and resume (collect-all), or end.
    fn recover(&mut self, stop: Stop) -> Result<Flow, Failure> {
        if stop.kind.is_fatal() {
            return Err(self.failure(stop.kind, stop.offset));
        }
        if self.tries > 0 {
            self.unwind();
            return Ok(Flow::Next);
        }
        let failure = self.failure(stop.kind, stop.offset);
        if self.s.errors.len() + 1 >= self.cap {
            return Err(failure);
        }
        self.s.errors.push(failure);
        match stop.resume {
            Resume::Continue => Ok(Flow::Next),
            Resume::SkipFrom(start) => {
                self.pos = start;
                self.skip().map_err(|s| self.failure(s.kind, s.offset))?;
                Ok(Flow::Next)
            }
            Resume::SkipAndReturn(start) => {
                self.pos = start;
                self.skip().map_err(|s| self.failure(s.kind, s.offset))?;
                Ok(self.ret())
            }
        }
    }

    /// Pops frames up to and including the innermost catching one and restores its state.
    fn unwind(&mut self) {
        loop {
            let frame = self.s.frames.pop().expect("a catching frame");
            if let Some(c) = frame.catch {
                self.tries -= 1;
                self.pos = c.pos;
                self.depth = c.depth;
                self.s.path.truncate(c.path as usize);
                self.s.bits.truncate(c.bits as usize);
                self.jump(c.on_fail);
                return;
            }
        }
    }

    /// Skips whitespace; the kernel is called only when the cursor is on some.
    #[inline]
    fn ws(&mut self) {
        if self.peek().is_some_and(|b| b <= b' ') {
            self.pos = whitespace::skip_whitespace(self.input, self.pos);
        }
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    /// The error for a value of the wrong kind at the cursor (after whitespace).
    fn mismatch(&self, expected: Kinds, resume_at_start: fn(usize) -> Resume) -> Stop {
        match self.peek() {
            Some(b) if kind_slot(b).is_some() => Stop::violation(
                Violation::Type { expected },
                self.pos,
                resume_at_start(self.pos),
            ),
            _ => Stop::syntax(ErrorKind::ExpectedValue, self.pos),
        }
    }

    /// The error for a missing expected byte at the cursor.
    fn expected(&self, kind: ErrorKind) -> Stop {
        match self.peek() {
            Some(_) => Stop::syntax(kind, self.pos),
            None => Stop::syntax(ErrorKind::UnexpectedEnd, self.input.len()),
        }
    }

    /// Skips one value with the validating kernel (whitespace first).
    fn skip(&mut self) -> Result<(), Stop> {
        let remaining = self.opts.max_depth.saturating_sub(self.depth) as usize;
        let start = self.pos;
        let end = skip::skip_value(self.input, start, remaining)
            .map_err(|e| Stop::syntax(e.kind, e.offset))?;
        self.check_number_ranges(start, end)?;
        self.pos = end;
        Ok(())
    }

    /// The skip kernel checks the number grammar only; a skipped number must also fit an
    /// `f64` (and 64 bits, with [`BigInts::Error`](crate::ir::BigInts::Error)), as a read
    /// one must. Only values that can hold such a number (an exponent, or 309 bytes or
    /// more) are walked: strings by the scan kernel, numbers read.
    fn check_number_ranges(&self, start: usize, end: usize) -> Result<(), Stop> {
        let value = &self.input[start..end];
        if value.len() < 309 && !value.iter().any(|&b| b | 0x20 == b'e') {
            return Ok(());
        }
        let mut i = start;
        while i < end {
            match self.input[i] {
                b'"' => {
                    let scan = string_scan::scan_string(self.input, i + 1)
                        .map_err(|e| Stop::syntax(e.kind, e.offset))?;
                    i = scan.end + 1;
                }
                b'-' | b'0'..=b'9' => {
                    let (_, token_end) = read_number(self.input, i, self.opts.big_ints)
                        .map_err(|(kind, offset)| Stop::fatal(kind, offset))?;
                    i = token_end;
                }
                _ => i += 1,
            }
        }
        Ok(())
    }

    fn step(&mut self, op: &Op) -> Result<Flow, Stop> {
        let prog = self.prog;
        match op {
            Op::Null => self.literal(b"null", Kinds::NULL)?,
            Op::Bool => match self.peek_after_ws() {
                Some(b'f') => self.literal(b"false", Kinds::BOOLEAN)?,
                _ => self.literal(b"true", Kinds::BOOLEAN)?,
            },
            Op::Number(check) => self.number(*check)?,
            Op::String(check) => self.string(&prog.str_checks[*check as usize])?,
            Op::StrEnum(table) => self.str_enum(*table)?,
            Op::RawCheck(pred, violation) => {
                self.ws();
                let start = self.pos;
                self.skip()?;
                if !(prog.raw_preds[*pred as usize])(&self.input[start..self.pos]) {
                    return Err(Stop::violation(*violation, start, Resume::Continue));
                }
            }
            Op::SkipValue => self.skip()?,
            Op::Fail(violation) => {
                self.ws();
                return Err(Stop::violation(
                    *violation,
                    self.pos,
                    Resume::SkipFrom(self.pos),
                ));
            }
            Op::Dispatch(targets) => {
                self.ws();
                match self.peek().and_then(kind_slot) {
                    Some(slot) => self.jump(targets[slot]),
                    None => return Err(Stop::syntax(ErrorKind::ExpectedValue, self.pos)),
                }
            }
            Op::Discriminate {
                disc,
                targets,
                unmatched,
                absent,
            } => {
                let to = match self.find_tag(*disc) {
                    Tag::Branch(i) => targets[i],
                    Tag::Unmatched => *unmatched,
                    Tag::Absent => *absent,
                };
                self.jump(to);
            }
            Op::Call(func) => self.push_frame(*func, None),
            Op::Try { func, on_fail } => {
                let catch = Catch {
                    on_fail: *on_fail,
                    pos: self.pos,
                    depth: self.depth,
                    path: self.s.path.len() as u32,
                    bits: self.s.bits.len() as u32,
                };
                self.tries += 1;
                self.push_frame(*func, Some(catch));
            }
            Op::Jump(to) => self.jump(*to),
            Op::Return => return Ok(self.ret()),
            Op::SavePos(r) => {
                let pos = self.pos;
                self.frame().regs[*r as usize] = pos;
            }
            Op::RestorePos(r) => self.pos = self.frame().regs[*r as usize],
            Op::SetReg(r, v) => self.frame().regs[*r as usize] = *v as usize,
            Op::IncReg(r) => self.frame().regs[*r as usize] += 1,
            Op::OneOfEnd { count, start, end } => {
                let regs = self.frame().regs;
                match regs[*count as usize] {
                    1 => self.pos = regs[*end as usize],
                    matched => {
                        let start = regs[*start as usize];
                        let v = Violation::OneOf {
                            matched: matched as u32,
                        };
                        return Err(Stop::violation(v, start, Resume::SkipFrom(start)));
                    }
                }
            }
            Op::ArrBegin { empty } => {
                self.open(b'[', Kinds::ARRAY)?;
                self.s.path.push(PathSeg::Index(0));
                self.frame().count = 0;
                self.ws();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    self.jump(*empty);
                }
            }
            Op::SwitchIndex(targets) => {
                let count = self.frame().count;
                let i = (count as usize).min(targets.len() - 1);
                self.jump(targets[i]);
            }
            Op::ArrNext { next } => {
                self.frame().count += 1;
                if self.separator(b']', ErrorKind::ExpectedCommaOrEnd)? {
                    let count = self.frame().count;
                    *self.s.path.last_mut().expect("an open array") = PathSeg::Index(count);
                    self.jump(*next);
                }
            }
            Op::ArrEnd { min, max } => {
                self.close();
                let count = self.frame().count;
                let at = self.pos - 1;
                if count < *min {
                    return Err(Stop::violation(Violation::MinItems, at, Resume::Continue));
                }
                if max.is_some_and(|max| count > max) {
                    return Err(Stop::violation(Violation::MaxItems, at, Resume::Continue));
                }
            }
            Op::ObjBegin { empty, table } => {
                self.open(b'{', Kinds::OBJECT)?;
                self.s.path.push(PathSeg::Index(0));
                let words = prog.key_tables[*table as usize].len().div_ceil(64);
                let base = self.s.bits.len() as u32;
                self.s.bits.resize(base as usize + words, 0);
                let frame = self.frame();
                frame.bits = base;
                frame.field = NO_FIELD;
                self.ws();
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                    self.jump(*empty);
                }
            }
            Op::Key(table) => self.key(*table)?,
            Op::SwitchField(targets) => {
                let field = self.frame().field;
                let i = (field as usize).min(targets.len() - 1);
                self.jump(targets[i]);
            }
            Op::ObjNext { next } => {
                if self.separator(b'}', ErrorKind::ExpectedCommaOrEnd)? {
                    self.jump(*next);
                }
            }
            Op::ObjEnd(table) => {
                self.close();
                let base = self.frame().bits as usize;
                let missing = self.first_missing(*table, base);
                self.s.bits.truncate(base);
                if let Some(field) = missing {
                    let v = Violation::Required {
                        table: *table,
                        field,
                    };
                    return Err(Stop::violation(v, self.pos - 1, Resume::Continue));
                }
            }
            Op::Eof => {
                self.ws();
                if self.pos != self.input.len() {
                    return Err(Stop::syntax(ErrorKind::TrailingCharacters, self.pos));
                }
            }
        }
        Ok(Flow::Next)
    }

    fn peek_after_ws(&mut self) -> Option<u8> {
        self.ws();
        self.peek()
    }

    /// `null`, `true` or `false` at the cursor.
    fn literal(&mut self, word: &[u8], kind: Kinds) -> Result<(), Stop> {
        self.ws();
        let rest = &self.input[self.pos..];
        if rest.starts_with(word) {
            self.pos += word.len();
            return Ok(());
        }
        if rest.first() != word.first() {
            return Err(self.mismatch(kind, Resume::SkipFrom));
        }
        let same = rest.iter().zip(word).take_while(|(a, b)| a == b).count();
        match rest.len() > same {
            true => Err(Stop::syntax(ErrorKind::UnexpectedByte, self.pos + same)),
            false => Err(Stop::syntax(ErrorKind::UnexpectedEnd, self.input.len())),
        }
    }

    fn number(&mut self, check: u32) -> Result<(), Stop> {
        let c = &self.prog.num_checks[check as usize];
        let kind = if c.integer {
            Kinds::INTEGER
        } else {
            Kinds::NUMBER
        };
        self.ws();
        let start = self.pos;
        if !matches!(self.peek(), Some(b'-' | b'0'..=b'9')) {
            return Err(self.mismatch(kind, Resume::SkipFrom));
        }
        let (n, end) = read_number(self.input, start, self.opts.big_ints)
            .map_err(|(kind, offset)| Stop::fatal(kind, offset))?;
        self.pos = end;
        let fail = |v| Err(Stop::violation(v, start, Resume::Continue));
        if c.integer && !n.is_integer() {
            return fail(Violation::Type { expected: kind });
        }
        if let Some(l) = c.minimum {
            let order = n.cmp_exact(l.value);
            if order.is_lt() || (l.exclusive && order.is_eq()) {
                return fail(Violation::Minimum);
            }
        }
        if let Some(l) = c.maximum {
            let order = n.cmp_exact(l.value);
            if order.is_gt() || (l.exclusive && order.is_eq()) {
                return fail(Violation::Maximum);
            }
        }
        match &c.multiple_of {
            Some(pred) if !pred(n) => fail(Violation::MultipleOf),
            _ => Ok(()),
        }
    }

    /// Scans the string whose opening quote is at the cursor, checking control bytes and
    /// UTF-8 (escapes are checked by [`Machine::text`] or [`Machine::check_escapes`]).
    fn scan_str(&mut self) -> Result<StrSpan, Stop> {
        let body = self.pos + 1;
        let scan = string_scan::scan_string(self.input, body)
            .map_err(|e| Stop::syntax(e.kind, e.offset))?;
        if let Some(c) = scan.first_control {
            return Err(Stop::syntax(ErrorKind::ControlInString, c));
        }
        utf8::validate_utf8(&self.input[body..scan.end])
            .map_err(|e| Stop::syntax(e.kind, body + e.offset))?;
        self.pos = scan.end + 1;
        Ok(StrSpan {
            body,
            end: scan.end,
            escapes: scan.has_escapes,
        })
    }

    fn check_escapes(&self, span: StrSpan) -> Result<(), Stop> {
        if span.escapes {
            let body = &self.input[span.body..span.end];
            unescape::validate_escapes(body, unescape::Surrogates::Strict)
                .map_err(|e| Stop::syntax(e.kind, span.body + e.offset))?;
        }
        Ok(())
    }

    /// The unescaped bytes of a scanned string: the input itself without escapes, else
    /// the scratch text buffer.
    fn text(&mut self, span: StrSpan) -> Result<&[u8], Stop> {
        let body = &self.input[span.body..span.end];
        if !span.escapes {
            return Ok(body);
        }
        self.s.text.clear();
        unescape::unescape(body, &mut self.s.text, unescape::Surrogates::Strict)
            .map_err(|e| Stop::syntax(e.kind, span.body + e.offset))?;
        Ok(&self.s.text)
    }

    fn string(&mut self, c: &StrCheck) -> Result<(), Stop> {
        self.ws();
        let start = self.pos;
        if self.peek() != Some(b'"') {
            return Err(self.mismatch(Kinds::STRING, Resume::SkipFrom));
        }
        let span = self.scan_str()?;
        if !c.needs_text() {
            return self.check_escapes(span);
        }
        let text = self.text(span)?;
        let length = text.iter().filter(|&&b| (b as i8) >= -0x40).count() as u64;
        let fail = |v| Err(Stop::violation(v, start, Resume::Continue));
        if length < c.min_length {
            return fail(Violation::MinLength);
        }
        if c.max_length.is_some_and(|max| length > max) {
            return fail(Violation::MaxLength);
        }
        if let Some(pred) = &c.pattern {
            // The kernels checked the body's UTF-8 and unescaping keeps it valid.
            let text = std::str::from_utf8(text).unwrap_or("");
            if !pred(text) {
                return fail(Violation::Pattern);
            }
        }
        Ok(())
    }

    fn str_enum(&mut self, table: u32) -> Result<(), Stop> {
        self.ws();
        let start = self.pos;
        if self.peek() != Some(b'"') {
            return Err(match self.mismatch(Kinds::STRING, Resume::SkipFrom) {
                Stop {
                    kind: FailKind::Violation(_),
                    ..
                } => Stop::violation(Violation::Enum, start, Resume::SkipFrom(start)),
                syntax => syntax,
            });
        }
        let span = self.scan_str()?;
        let prog = self.prog;
        let text = self.text(span)?;
        match prog.str_enums[table as usize]
            .iter()
            .any(|s| s.as_bytes() == text)
        {
            true => Ok(()),
            false => Err(Stop::violation(Violation::Enum, start, Resume::Continue)),
        }
    }

    /// Opens a container at the cursor (after whitespace).
    fn open(&mut self, bracket: u8, kind: Kinds) -> Result<(), Stop> {
        self.ws();
        if self.peek() != Some(bracket) {
            return Err(self.mismatch(kind, Resume::SkipAndReturn));
        }
        if self.depth >= self.opts.max_depth {
            return Err(Stop::fatal(FailKind::DepthLimitExceeded, self.pos));
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
    }

    fn close(&mut self) {
        self.depth -= 1;
        self.s.path.pop();
    }

    /// After an element: `true` at `,` (consumed), `false` at the closing bracket
    /// (consumed), else an error.
    fn separator(&mut self, close: u8, kind: ErrorKind) -> Result<bool, Stop> {
        self.ws();
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(b) if b == close => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(self.expected(kind)),
        }
    }

    fn key(&mut self, table_id: KeyTableId) -> Result<(), Stop> {
        self.ws();
        if self.peek() != Some(b'"') {
            return Err(self.expected(ErrorKind::ExpectedKey));
        }
        let span = self.scan_str()?;
        let prog = self.prog;
        let table = &prog.key_tables[table_id as usize];
        let hint = self.frame().field.wrapping_add(1) as usize;
        let found = table.find(self.text(span)?, hint);
        let key_at = span.body - 1;
        self.ws();
        if self.peek() != Some(b':') {
            return Err(self.expected(ErrorKind::ExpectedColon));
        }
        self.pos += 1;
        let seg = match found {
            Some(field) => PathSeg::Field {
                table: table_id,
                field,
            },
            None => PathSeg::Key {
                start: span.body,
                end: span.end,
            },
        };
        *self.s.path.last_mut().expect("an open object") = seg;
        let base = self.frame().bits as usize;
        self.frame().field = found.unwrap_or(NO_FIELD);
        if let Some(field) = found {
            let (word, bit) = (base + field as usize / 64, 1u64 << (field % 64));
            if self.s.bits[word] & bit != 0
                && self.opts.duplicate_keys == crate::ir::DuplicateKeys::Deny
            {
                return Err(Stop::fatal(FailKind::DuplicateKey, key_at));
            }
            self.s.bits[word] |= bit;
        }
        Ok(())
    }

    fn first_missing(&self, table: KeyTableId, base: usize) -> Option<u32> {
        let table = &self.prog.key_tables[table as usize];
        (0..table.len())
            .filter(|&i| table.is_required(i))
            .find(|&i| self.s.bits[base + i / 64] & (1 << (i % 64)) == 0)
            .map(|i| i as u32)
    }

    /// Looks ahead in the object at the cursor for the discriminating property.
    fn find_tag(&mut self, disc: u32) -> Tag {
        let saved = self.pos;
        let tag = self.look_for_tag(disc).unwrap_or(Tag::Absent);
        self.pos = saved;
        tag
    }

    fn look_for_tag(&mut self, disc: u32) -> Option<Tag> {
        let prog = self.prog;
        let d = &prog.discriminators[disc as usize];
        if self.peek_after_ws()? != b'{' {
            return None;
        }
        self.pos += 1;
        loop {
            if self.peek_after_ws()? != b'"' {
                return None;
            }
            let span = self.scan_str().ok()?;
            let is_property = self.text(span).ok()? == d.property.as_bytes();
            if self.peek_after_ws()? != b':' {
                return None;
            }
            self.pos += 1;
            if is_property {
                if self.peek_after_ws()? != b'"' {
                    return Some(Tag::Unmatched);
                }
                let span = self.scan_str().ok()?;
                let text = self.text(span).ok()?;
                let branch = d.tags.iter().position(|t| t.as_bytes() == text);
                return Some(branch.map_or(Tag::Unmatched, Tag::Branch));
            }
            self.skip().ok()?;
            if self.peek_after_ws()? != b',' {
                return None;
            }
            self.pos += 1;
        }
    }
}

/// What [`Op::Discriminate`] found.
enum Tag {
    Branch(usize),
    Unmatched,
    Absent,
}

/// The native backend's way into the interpreter: runs one value op (`Null` … `SkipValue`,
/// `Fail`) alone at `pos` with `depth` containers open, and returns the cursor after it or
/// the error's kind and offset; for [`Op::Discriminate`] it returns the index of the label
/// taken (`targets.len()` for `unmatched`, one more for `absent`). Generated code calls it
/// for the checks it does not inline, so both backends share one implementation.
pub(crate) fn run_value_op(
    program: &Program,
    input: &[u8],
    options: &ExecOptions,
    scratch: &mut Scratch,
    (pos, depth): (usize, u32),
    op: &Op,
) -> Result<usize, (FailKind, usize)> {
    let mut m = Machine::new(program, input, options, scratch, 0);
    m.pos = pos;
    m.depth = depth;
    if let Op::Discriminate { disc, targets, .. } = op {
        return Ok(match m.find_tag(*disc) {
            Tag::Branch(i) => i,
            Tag::Unmatched => targets.len(),
            Tag::Absent => targets.len() + 1,
        });
    }
    m.step(op).map(|_| m.pos).map_err(|s| (s.kind, s.offset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Func, KeyTable, NumCheck, Number};

    fn func(name: &str, ops: Vec<Op>) -> Func {
        Func {
            name: name.into(),
            ops,
        }
    }

    /// `{"a": integer >= 0 (required), "b": [string...]}` as hand-written IR.
    fn object_program() -> Program {
        let mut p = Program {
            num_checks: vec![NumCheck {
                integer: true,
                minimum: Some(crate::ir::Limit {
                    value: Number::U64(0),
                    exclusive: false,
                }),
                ..NumCheck::default()
            }],
            str_checks: vec![StrCheck::default()],
            key_tables: vec![KeyTable::new([("a".into(), true), ("b".into(), false)])],
            ..Program::default()
        };
        p.funcs
            .push(func("doc", vec![Op::Call(1), Op::Eof, Op::Return]));
        p.funcs.push(func(
            "object",
            vec![
                Op::ObjBegin { empty: 9, table: 0 },
                Op::Key(0),
                Op::SwitchField(vec![3, 5, 7].into()),
                Op::Number(0),
                Op::Jump(8),
                Op::Call(2),
                Op::Jump(8),
                Op::SkipValue,
                Op::ObjNext { next: 1 },
                Op::ObjEnd(0),
                Op::Return,
            ],
        ));
        p.funcs.push(func(
            "array",
            vec![
                Op::ArrBegin { empty: 3 },
                Op::String(0),
                Op::ArrNext { next: 1 },
                Op::ArrEnd { min: 0, max: None },
                Op::Return,
            ],
        ));
        p.verify().expect("valid program");
        p
    }

    fn check(p: &Program, input: &str) -> Result<(), Failure> {
        validate(
            p,
            input.as_bytes(),
            &ExecOptions::default(),
            &mut Scratch::new(),
        )
    }

    #[test]
    fn hand_written_object() {
        let p = object_program();
        assert_eq!(
            check(&p, r#" {"a": 1, "b": ["x", "y"], "c": [1]} "#),
            Ok(())
        );
        assert_eq!(check(&p, r#"{"b": [], "a": 0}"#), Ok(()));
        let e = check(&p, r#"{"a": -1}"#).unwrap_err();
        assert_eq!(e.kind, FailKind::Violation(Violation::Minimum));
        assert_eq!(e.offset, 6);
        assert_eq!(e.path, [PathSeg::Field { table: 0, field: 0 }]);
        let e = check(&p, r#"{"b": ["x", 2]}"#).unwrap_err();
        assert_eq!(
            e.path,
            [PathSeg::Field { table: 0, field: 1 }, PathSeg::Index(1)]
        );
        let e = check(&p, r#"{"b": []}"#).unwrap_err();
        assert!(matches!(
            e.kind,
            FailKind::Violation(Violation::Required { field: 0, .. })
        ));
        let e = check(&p, r#"{"a": 1,}"#).unwrap_err();
        assert_eq!(e.kind, FailKind::Syntax(ErrorKind::ExpectedKey));
        let e = check(&p, r#"{"a": 1} x"#).unwrap_err();
        assert_eq!(e.kind, FailKind::Syntax(ErrorKind::TrailingCharacters));
    }

    #[test]
    fn collect_all_resumes_after_violations() {
        let p = object_program();
        let errors = validate_all(
            &p,
            br#"{"a": -1, "b": [1, "x", true], "c": 0}"#,
            &ExecOptions::default(),
            &mut Scratch::new(),
            10,
        );
        let kinds: Vec<_> = errors.iter().map(|e| e.kind).collect();
        let ty = FailKind::Violation(Violation::Type {
            expected: Kinds::STRING,
        });
        assert_eq!(kinds, [FailKind::Violation(Violation::Minimum), ty, ty]);
        let capped = validate_all(
            &p,
            br#"{"a": -1, "b": [1, "x", true]}"#,
            &ExecOptions::default(),
            &mut Scratch::new(),
            2,
        );
        assert_eq!(capped.len(), 2);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        // A recursive array of itself: f1 = [f1...].
        let mut p = Program::default();
        p.funcs
            .push(func("doc", vec![Op::Call(1), Op::Eof, Op::Return]));
        p.funcs.push(func(
            "tree",
            vec![
                Op::ArrBegin { empty: 3 },
                Op::Call(1),
                Op::ArrNext { next: 1 },
                Op::ArrEnd { min: 0, max: None },
                Op::Return,
            ],
        ));
        p.verify().expect("valid program");
        let n = if cfg!(miri) { 200 } else { 100_000 };
        let deep = "[".repeat(n) + &"]".repeat(n);
        let e = check(&p, &deep).unwrap_err();
        assert_eq!(e.kind, FailKind::DepthLimitExceeded);
        assert_eq!(e.offset, 128);
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert_eq!(check(&p, &ok), Ok(()));
    }
}

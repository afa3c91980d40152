//! The machine: one loop over a program's ops, reporting what it reads to a [`Sink`].

use jitson_kernels::{ErrorKind, number_bounds, skip, string_scan, unescape, whitespace};

use crate::ir::{
    BigInts, ExecOptions, FailKind, Failure, FuncId, KeyMemo, KeyTableId, Kinds, Label, Op,
    PathSeg, Program, REGS, StrCheck, Violation,
};
use crate::number::{check_skipped_numbers, f64_bounds, read_number};
use crate::recall::{Verdict, Verdicts};

use super::checks::{number_violation, text_violation};
use super::lookahead::{Limits, Tag, find_tag};
use super::sink::{At, Check, Sink, Text};

/// A kernel error's kind as a run's failure (the depth limit and a number out of range are
/// their own kinds).
fn fail_kind(kind: ErrorKind) -> FailKind {
    match kind {
        ErrorKind::DepthLimitExceeded => FailKind::DepthLimitExceeded,
        ErrorKind::NumberOutOfRange => FailKind::NumberOutOfRange,
        kind => FailKind::Syntax(kind),
    }
}

/// Skips the value at `pos` (whitespace first) as `SkipValue` does: validated, opening at
/// most `depth_left` containers, its numbers checked by the `big_ints` policy. The index
/// past it, or the error's kind and offset.
pub(crate) fn skip_checked(
    input: &[u8],
    pos: usize,
    depth_left: usize,
    big_ints: BigInts,
) -> Result<usize, (FailKind, usize)> {
    let end =
        skip::skip_value(input, pos, depth_left).map_err(|e| (fail_kind(e.kind), e.offset))?;
    check_skipped_numbers(input, pos, end, big_ints)?;
    Ok(end)
}

/// The field register's value when the last key matched no named field.
const NO_FIELD: u32 = u32::MAX;

/// The machine's reusable buffers.
#[derive(Debug, Default)]
pub(crate) struct Core {
    frames: Vec<Frame>,
    path: Vec<PathSeg>,
    bits: Vec<u64>,
    text: Vec<u8>,
    errors: Vec<Failure>,
    verdicts: Verdicts,
    /// The core of the trial machine a building run of a program that remembers runs
    /// branches on first (see [`Machine::trial`]); its verdicts last the whole run.
    trial: Option<Box<Core>>,
}

impl Core {
    /// Empties the buffers of one run (the verdicts are the caller's to clear: a trial
    /// machine keeps them over its building run).
    fn reset(&mut self) {
        self.frames.clear();
        self.path.clear();
        self.bits.clear();
        self.errors.clear();
    }
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
    /// For a remembered function's frame, where it started; else [`UNREMEMBERED`] (also
    /// once a collect-all error was recorded in it: it does not pass).
    started: usize,
}

/// [`Frame::started`] of a frame whose run is not remembered.
const UNREMEMBERED: usize = usize::MAX;

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
        Stop::fatal(fail_kind(kind), offset)
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
    /// The last frame returned.
    Done,
    /// A violation unwound the last frame (a trial's, which catches).
    Unwound,
}

/// Where a string's body lies and what it holds.
#[derive(Clone, Copy)]
struct StrSpan {
    body: usize,
    end: usize,
    escapes: bool,
}

/// The text [`Machine::text`] produced for `span`: the input, or the scratch `unescaped`.
fn text_of<'a, 't>(input: &'a [u8], unescaped: &'t [u8], span: StrSpan) -> Text<'a, 't> {
    match span.escapes {
        false => Text::Input(&input[span.body..span.end]),
        true => Text::Scratch(unescaped),
    }
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

/// The interpreter's state over one input, reporting to the sink `S`.
pub(crate) struct Machine<'a, 'c, S> {
    prog: &'a Program,
    input: &'a [u8],
    opts: ExecOptions,
    pos: usize,
    depth: u32,
    tries: u32,
    cap: usize,
    /// Whether runs of remembered functions are remembered (the sink builds nothing).
    recall: bool,
    /// Whether union branches and checks that build nothing are tried first on a trial
    /// machine (the sink builds, and the program remembers runs; see [`Machine::trial`]).
    trials: bool,
    s: &'c mut Core,
    /// The patterns the last unknown key matched.
    memo: KeyMemo,
    pub(crate) sink: S,
}

impl<'a, 'c, S: Sink<'a>> Machine<'a, 'c, S> {
    /// A machine at the start of `input`; `cap` is the collect-all limit (0: stop at the
    /// first error).
    pub(crate) fn new(
        prog: &'a Program,
        input: &'a [u8],
        opts: &ExecOptions,
        s: &'c mut Core,
        cap: usize,
        sink: S,
    ) -> Machine<'a, 'c, S> {
        s.reset();
        let recall = S::REMEMBERS && prog.recall.any();
        let trials = !S::REMEMBERS && prog.recall.any();
        if recall {
            s.verdicts.clear();
        }
        if trials {
            s.trial.get_or_insert_default().verdicts.clear();
        }
        Machine {
            prog,
            input,
            opts: *opts,
            pos: 0,
            depth: 0,
            tries: 0,
            cap,
            recall,
            trials,
            s,
            memo: KeyMemo::default(),
            sink,
        }
    }

    /// The violations recorded in collect-all mode.
    pub(crate) fn take_errors(&mut self) -> Vec<Failure> {
        std::mem::take(&mut self.s.errors)
    }

    /// Runs the program to its end: `Ok`, or the error that stopped it.
    pub(crate) fn run(&mut self) -> Result<(), Failure> {
        self.push_frame(self.prog.entry, None);
        self.run_frames().map(|_| ())
    }

    /// Steps until no frame is left: how the last one ended (returned, or a trial's
    /// unwound), or the error that stopped the run.
    fn run_frames(&mut self) -> Result<Flow, Failure> {
        loop {
            let prog = self.prog;
            let frame = self.s.frames.last_mut().expect("a frame while running");
            let op = &prog.funcs[frame.func as usize].ops[frame.pc as usize];
            let at = (frame.func, frame.pc);
            frame.pc += 1;
            let flow = match self.step(op, at) {
                Ok(flow) => flow,
                Err(stop) => self.recover(stop)?,
            };
            if let Flow::Done | Flow::Unwound = flow {
                return Ok(flow);
            }
        }
    }

    /// What `func` does at the cursor, run on a machine that builds nothing (the trial
    /// machine: its own core, whose verdicts of remembered functions last this whole run):
    /// a building run of a program that remembers runs tries a union's branch (and a check
    /// that builds nothing) there first, and runs it for real only when it passed, so every
    /// function it runs for real passes and the real run is one walk of the input.
    /// `None` when a fatal error ended the trial (the real run reports it, with its path).
    fn trial(&mut self, func: FuncId) -> Option<Verdict> {
        let core = self.s.trial.get_or_insert_default();
        core.reset();
        let mut trial = Machine {
            prog: self.prog,
            input: self.input,
            opts: self.opts,
            pos: self.pos,
            depth: self.depth,
            tries: 1,
            cap: 0,
            recall: true,
            trials: false,
            s: core,
            memo: KeyMemo::default(),
            sink: Check,
        };
        if let Some(verdict) = trial.s.verdicts.get(func, trial.pos) {
            return Some(verdict);
        }
        let catch = Catch {
            on_fail: 0,
            pos: trial.pos,
            depth: trial.depth,
            path: 0,
            bits: 0,
        };
        trial.push_frame(func, Some(catch));
        match trial.run_frames() {
            Ok(Flow::Unwound) => Some(Verdict::Failed),
            Ok(_) => Some(Verdict::Passed(trial.pos)),
            Err(_) => None,
        }
    }

    fn push_frame(&mut self, func: FuncId, catch: Option<Catch>) {
        let started = match self.recall && self.prog.recall.remembers(func) {
            true => self.pos,
            false => UNREMEMBERED,
        };
        self.s.frames.push(Frame {
            func,
            pc: 0,
            regs: [0; REGS],
            count: 0,
            field: NO_FIELD,
            bits: self.s.bits.len() as u32,
            catch,
            started,
        });
    }

    /// What a remembered run of `func` at the cursor says, when it answers the call at
    /// `at`: a pass, or a failure while a catching frame is open (`trying`: this call's
    /// own). In a building run, a trial answers a `try` (a pass then runs it for real) and
    /// a call of a remembered function that builds nothing.
    fn recalled(&mut self, func: FuncId, at: At, trying: bool) -> Option<Verdict> {
        let verdict = match () {
            _ if self.recall && self.prog.recall.remembers(func) => {
                self.s.verdicts.get(func, self.pos)?
            }
            _ if self.trials
                && (trying || (self.prog.recall.remembers(func) && !self.sink.builds(at))) =>
            {
                self.trial(func)?
            }
            _ => return None,
        };
        match verdict {
            Verdict::Failed if !trying && self.tries == 0 => None,
            verdict => Some(verdict),
        }
    }

    /// Where the value starting at `value` ends, when a remembered run (this run's, or in a
    /// building run its trials') passed over it.
    fn known_end(&self, value: usize) -> Option<usize> {
        match () {
            _ if self.recall => self.s.verdicts.end_of(value),
            _ if self.trials => self.s.trial.as_ref()?.verdicts.end_of(value),
            _ => None,
        }
    }

    fn frame(&mut self) -> &mut Frame {
        self.s.frames.last_mut().expect("a frame while running")
    }

    fn jump(&mut self, to: Label) {
        self.frame().pc = to;
    }

    /// Pops the current frame; `Done` when it was the last.
    fn ret(&mut self) -> Flow {
        self.sink.leave();
        let frame = self.s.frames.pop().expect("a frame while running");
        if frame.catch.is_some() {
            self.tries -= 1;
        }
        if frame.started != UNREMEMBERED {
            let value = whitespace::skip_whitespace(self.input, frame.started);
            (self.s.verdicts).passed(frame.func, frame.started, value, self.pos);
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
            return Ok(self.unwind());
        }
        let failure = self.failure(stop.kind, stop.offset);
        if self.s.errors.len() + 1 >= self.cap {
            return Err(failure);
        }
        self.s.errors.push(failure);
        if self.recall {
            // The open runs recorded an error: none of them passes.
            self.s
                .frames
                .iter_mut()
                .for_each(|f| f.started = UNREMEMBERED);
        }
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

    /// Pops frames up to and including the innermost catching one, restores its state and
    /// goes on at its handler; `Unwound` when that was the last frame (a trial's).
    fn unwind(&mut self) -> Flow {
        loop {
            let frame = self.s.frames.pop().expect("a catching frame");
            if frame.started != UNREMEMBERED {
                self.s.verdicts.failed(frame.func, frame.started);
            }
            if let Some(c) = frame.catch {
                self.tries -= 1;
                self.pos = c.pos;
                self.depth = c.depth;
                self.s.path.truncate(c.path as usize);
                self.s.bits.truncate(c.bits as usize);
                self.sink.unwind(self.s.frames.len());
                let Some(frame) = self.s.frames.last_mut() else {
                    return Flow::Unwound;
                };
                frame.pc = c.on_fail;
                return Flow::Next;
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
        self.pos = skip_checked(self.input, self.pos, remaining, self.opts.big_ints)
            .map_err(|(kind, offset)| Stop::fatal(kind, offset))?;
        Ok(())
    }

    fn step(&mut self, op: &Op, at: At) -> Result<Flow, Stop> {
        let prog = self.prog;
        match op {
            Op::Null => {
                self.literal(b"null", Kinds::NULL)?;
                self.sink.null(at);
            }
            Op::Bool => match self.peek_after_ws() {
                Some(b'f') => {
                    self.literal(b"false", Kinds::BOOLEAN)?;
                    self.sink.boolean(at, false);
                }
                _ => {
                    self.literal(b"true", Kinds::BOOLEAN)?;
                    self.sink.boolean(at, true);
                }
            },
            Op::Number(check) => self.number(*check, at)?,
            Op::String(check) => self.string(&prog.str_checks[*check as usize], at)?,
            Op::StrEnum(table) => self.str_enum(*table, at)?,
            Op::RawCheck { pred, walked } => {
                self.ws();
                let start = self.pos;
                match walked {
                    true => {
                        self.pos = skip::skip_value_unchecked(self.input, start)
                            .map_err(|e| Stop::fatal(FailKind::Syntax(e.kind), e.offset))?;
                    }
                    false => self.skip()?,
                }
                let raw = &self.input[start..self.pos];
                if let Err(v) = (prog.raw_preds[*pred as usize])(raw, self.opts.big_ints) {
                    return Err(Stop::violation(v, start, Resume::Continue));
                }
                self.sink.raw(at, raw);
            }
            Op::SkipValue => {
                self.ws();
                let start = self.pos;
                match self.known_end(start) {
                    Some(end) => self.pos = end,
                    None => self.skip()?,
                }
                self.sink.raw(at, &self.input[start..self.pos]);
            }
            Op::Tag(value) => self.sink.index(at, *value),
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
                    Some(slot) => {
                        self.sink.index(at, slot as u32);
                        self.jump(targets[slot]);
                    }
                    None => return Err(Stop::syntax(ErrorKind::ExpectedValue, self.pos)),
                }
            }
            Op::Discriminate {
                disc,
                targets,
                unmatched,
                absent,
                missing,
            } => {
                let to = match self.find_tag(*disc) {
                    Tag::Branch(i) => targets[i],
                    Tag::Unmatched => *unmatched,
                    Tag::Absent => *absent,
                    Tag::Missing => *missing,
                };
                self.jump(to);
            }
            Op::Call(func) => {
                // Asked only in programs that remember runs (the check is per call).
                if self.recall || self.trials {
                    match self.recalled(*func, at, false) {
                        Some(Verdict::Passed(end)) => {
                            self.pos = end;
                            return Ok(Flow::Next);
                        }
                        Some(Verdict::Failed) => return Ok(self.unwind()),
                        None => {}
                    }
                }
                self.push_frame(*func, None);
                self.sink.enter(at, *func);
            }
            Op::Try { func, on_fail } => match self.recalled(*func, at, true) {
                Some(Verdict::Passed(end)) if !self.trials => self.pos = end,
                Some(Verdict::Failed) => self.jump(*on_fail),
                _ => {
                    let catch = Catch {
                        on_fail: *on_fail,
                        pos: self.pos,
                        depth: self.depth,
                        path: self.s.path.len() as u32,
                        bits: self.s.bits.len() as u32,
                    };
                    self.tries += 1;
                    self.push_frame(*func, Some(catch));
                    self.sink.enter(at, *func);
                }
            },
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
                        // At the value's first byte: where the start was saved, whitespace
                        // may or may not have been skipped yet (native code skips it sooner).
                        let start = whitespace::skip_whitespace(self.input, regs[*start as usize]);
                        let v = Violation::OneOf {
                            matched: matched as u32,
                        };
                        return Err(Stop::violation(v, start, Resume::SkipFrom(start)));
                    }
                }
            }
            Op::ContainsEnd {
                count,
                start,
                min,
                max,
            } => {
                let regs = self.frame().regs;
                let matched = regs[*count as usize] as u64;
                let v = match () {
                    _ if matched < *min => Violation::MinContains,
                    _ if max.is_some_and(|max| matched > max) => Violation::MaxContains,
                    _ => return Ok(Flow::Next),
                };
                // At the array's first byte (its start was saved before whitespace).
                let start = whitespace::skip_whitespace(self.input, regs[*start as usize]);
                return Err(Stop::violation(v, start, Resume::Continue));
            }
            Op::ArrBegin { empty } => {
                self.open(b'[', Kinds::ARRAY)?;
                self.s.path.push(PathSeg::Index(0));
                self.frame().count = 0;
                self.ws();
                let is_empty = self.peek() == Some(b']');
                self.sink.arr_begin(is_empty);
                if is_empty {
                    self.pos += 1;
                    self.jump(*empty);
                }
            }
            Op::ArrNext { next } => {
                self.frame().count += 1;
                if self.separator(b']', ErrorKind::ExpectedCommaOrEnd)? {
                    let count = self.frame().count;
                    *self.s.path.last_mut().expect("an open array") = PathSeg::Index(count);
                    self.sink.arr_item(count);
                    self.jump(*next);
                }
            }
            Op::ArrEnd { min, max } => {
                self.close();
                let count = self.frame().count;
                self.sink.arr_end(count);
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
                self.sink.obj_begin();
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
            Op::KeyMatches {
                table,
                pattern,
                miss,
            } => {
                if !self.key_matches(*table, *pattern)? {
                    self.jump(*miss);
                }
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
                self.sink.obj_end(&self.s.bits[base..]);
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

    fn number(&mut self, check: u32, at: At) -> Result<(), Stop> {
        let c = &self.prog.num_checks[check as usize];
        let kind = if c.integer {
            Kinds::INTEGER
        } else {
            Kinds::NUMBER
        };
        self.ws();
        let start = self.pos;
        if !S::NUMBERS
            && let Some(bounds) = f64_bounds(c)
            && let Ok((true, end)) = number_bounds::number_within(self.input, start, &bounds)
        {
            // Certainly a number that passes (the kernel's answer is one-sided); anything
            // else, errors included, is read and checked below.
            self.pos = end;
            return Ok(());
        }
        if !matches!(self.peek(), Some(b'-' | b'0'..=b'9')) {
            return Err(self.mismatch(kind, Resume::SkipFrom));
        }
        let (n, end) = read_number(self.input, start, self.opts.big_ints)
            .map_err(|(kind, offset)| Stop::fatal(kind, offset))?;
        self.pos = end;
        self.sink.number(at, n, &self.input[start..end]);
        match number_violation(c, n) {
            Some(v) => Err(Stop::violation(v, start, Resume::Continue)),
            None => Ok(()),
        }
    }

    /// Scans the string whose opening quote is at the cursor, checking control bytes and
    /// UTF-8 (escapes are checked by [`Machine::text`] or [`Machine::check_escapes`]).
    fn scan_str(&mut self) -> Result<StrSpan, Stop> {
        let body = self.pos + 1;
        let scan = string_scan::scan_checked(self.input, body)
            .map_err(|e| Stop::syntax(e.kind, e.offset))?;
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

    fn string(&mut self, c: &StrCheck, at: At) -> Result<(), Stop> {
        self.ws();
        let start = self.pos;
        if self.peek() != Some(b'"') {
            return Err(self.mismatch(Kinds::STRING, Resume::SkipFrom));
        }
        let span = self.scan_str()?;
        if !c.needs_text() && !S::TEXT {
            return self.check_escapes(span);
        }
        self.text(span)?;
        let text = text_of(self.input, &self.s.text, span);
        self.sink.string(at, text, &self.input[start..self.pos]);
        let text = match text {
            Text::Input(t) | Text::Scratch(t) => t,
        };
        // The kernels checked the body's UTF-8 and unescaping keeps it valid.
        let text = std::str::from_utf8(text).unwrap_or("");
        match text_violation(c, text) {
            Some(v) => Err(Stop::violation(v, start, Resume::Continue)),
            None => Ok(()),
        }
    }

    fn str_enum(&mut self, table: u32, at: At) -> Result<(), Stop> {
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
        match prog.str_enums[table as usize].find(text) {
            Some(index) => {
                let text = text_of(self.input, &self.s.text, span);
                self.sink
                    .str_enum(at, index, text, &self.input[start..self.pos]);
                Ok(())
            }
            None => Err(Stop::violation(Violation::Enum, start, Resume::Continue)),
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
        // Before the text is taken: a pattern's test reads the key (the path top) again.
        let described = S::DESCRIBED
            && found.is_none()
            && table.describes_other(|| self.key_matches(table_id, None))?;
        let text = text_of(self.input, &self.s.text, span);
        match (self.sink).key(found, described, text, &self.input[key_at..=span.end]) {
            true => Ok(()),
            false => Err(Stop::violation(
                Violation::UnknownField,
                key_at,
                Resume::Continue,
            )),
        }
    }

    /// Whether the name in the path top matches pattern `pattern` of `table` (any of its
    /// patterns when `None`); `false` when the path top names a field (producers put the
    /// op where it holds an unknown key).
    #[inline(never)]
    fn key_matches(&mut self, table: KeyTableId, pattern: Option<u32>) -> Result<bool, Stop> {
        let Some(&PathSeg::Key { start, end }) = self.s.path.last() else {
            return Ok(false);
        };
        let span = StrSpan {
            body: start,
            end,
            escapes: self.input[start..end].contains(&b'\\'),
        };
        let prog = self.prog;
        let keys = &prog.key_tables[table as usize];
        let mut memo = self.memo;
        let this = &mut *self;
        // A key's text is UTF-8 (the scan checked it, unescaping keeps it).
        let name = move || {
            let this = this;
            Ok(std::str::from_utf8(this.text(span)?).ok())
        };
        let matched = keys.key_matches_memo(&mut memo, table, start, pattern, name);
        self.memo = memo;
        matched
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
        let d = &self.prog.discriminators[disc as usize];
        let limits = Limits {
            depth_left: self.opts.max_depth.saturating_sub(self.depth) as usize,
            big_ints: self.opts.big_ints,
            text: &mut self.s.text,
        };
        find_tag(d, self.input, self.pos, limits)
    }
}

#[cfg(feature = "native")]
impl<'a, 'c, S: Sink<'a>> Machine<'a, 'c, S> {
    /// Runs the value op at `site` alone at `pos` with `depth` containers open (see
    /// [`run_value_op`]), reporting what it reads to the sink.
    fn value_op_alone(
        &mut self,
        (pos, depth): (usize, u32),
        site: At,
    ) -> Result<usize, (FailKind, usize)> {
        self.pos = pos;
        self.depth = depth;
        let prog = self.prog;
        let op = &prog.funcs[site.0 as usize].ops[site.1 as usize];
        self.step(op, site)
            .map(|_| self.pos)
            .map_err(|s| (s.kind, s.offset))
    }
}

/// The native backend's way into the interpreter: runs the value op at `site` (function,
/// op index: `Null` … `SkipValue`, `Fail`) alone at `pos` with `depth` containers open, and
/// returns the cursor after it or the error's kind and offset. Generated code calls it for
/// the checks it does not inline, so both backends share one implementation.
#[cfg(feature = "native")]
pub(crate) fn run_value_op(
    program: &Program,
    input: &[u8],
    options: &ExecOptions,
    scratch: &mut Core,
    at: (usize, u32),
    site: At,
) -> Result<usize, (FailKind, usize)> {
    Machine::new(program, input, options, scratch, 0, Check).value_op_alone(at, site)
}

/// The native backend's [`Op::Discriminate`] (discriminator `disc`) at `pos` with `depth`
/// containers open: the interpreter's look-ahead, without a machine.
#[cfg(feature = "native")]
pub(crate) fn run_discriminate(
    program: &Program,
    input: &[u8],
    options: &ExecOptions,
    scratch: &mut Core,
    (pos, depth): (usize, u32),
    disc: u32,
) -> Tag {
    let limits = Limits {
        depth_left: options.max_depth.saturating_sub(depth) as usize,
        big_ints: options.big_ints,
        text: &mut scratch.text,
    };
    find_tag(&program.discriminators[disc as usize], input, pos, limits)
}

/// [`run_value_op`] in decode mode (strings are unescaped as decode does), reporting the
/// value it reads to `sink`.
#[cfg(feature = "native")]
pub(crate) fn run_value_op_with<'a, S: Sink<'a>>(
    program: &'a Program,
    input: &'a [u8],
    options: &ExecOptions,
    scratch: &mut Core,
    at: (usize, u32),
    site: At,
    sink: S,
) -> Result<usize, (FailKind, usize)> {
    Machine::new(program, input, options, scratch, 0, sink).value_op_alone(at, site)
}

//! Scalar value ops: literals, plain strings, short strings checked by a shape of ASCII
//! classes and small enumerations inline (their errors, and every other scalar check,
//! through the interpreter helper), `Fail` and `Eof`; decode's stores for them (see
//! [`super::decode`]).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};

use jitson_kernels::string_scan::stands_for_itself;

use super::{First, Lower, input_flags};
use crate::ir::{AsciiShape, ErrorKind, FailKind, StrCheckId, StrEnumId, Violation};
use crate::native::helpers::Callee;

/// The bytes of an inline window, as a count of string bytes.
const WINDOW_BYTES: u64 = super::WINDOW as u64;

/// The longest [`AsciiShape::Fixed`] body checked inline: two windows hold it and the
/// closing quote.
const MAX_FIXED: usize = 2 * super::WINDOW as usize - 1;

/// The longest [`AsciiShape::Run`] body checked inline: two windows hold it and the closing
/// quote.
const MAX_RUN: u64 = 2 * WINDOW_BYTES - 1;

/// Whether a body of `shape` can pass from the windows [`Lower::ascii_string`] reads: a run
/// that may end inside two windows, or at most [`MAX_FIXED`] fixed bytes.
fn fits_windows(shape: &AsciiShape) -> bool {
    match shape {
        AsciiShape::Run { min, max, .. } => min <= max && *min <= MAX_RUN,
        AsciiShape::Fixed(sets) => (1..=MAX_FIXED).contains(&sets.len()),
    }
}

/// The most values of a `StrEnum` (tags of a `Discriminate`) compared inline.
pub(super) const MAX_INLINE_ENUM: usize = 16;

/// The longest value of a `StrEnum` (tag or property of a `Discriminate`) compared inline.
const MAX_INLINE_VALUE: usize = 32;

/// `text` as a string token: between quotes (an [`inline_text`] needs no escape).
pub(super) fn quoted(text: &str) -> Vec<u8> {
    [b"\"", text.as_bytes(), b"\""].concat()
}

/// Whether `text` is compared inline as a string's value: short, and standing for itself
/// in a JSON string (so a token with its bytes between quotes is that string).
pub(super) fn inline_text(text: &str) -> bool {
    text.len() <= MAX_INLINE_VALUE && text.bytes().all(stands_for_itself)
}

/// `word`'s first four bytes as a little-endian integer.
fn word4(word: &[u8]) -> i64 {
    i64::from(u32::from_le_bytes(
        word[..4].try_into().expect("four bytes"),
    ))
}

impl Lower<'_> {
    /// Jumps to `ok` when `word` (4 or 5 bytes) is at `p`, else to `no`; `ok` gets the
    /// cursor past it.
    fn match_word(&mut self, p: Value, word: &[u8], ok: Block, no: Block) {
        let n = word.len() as i64;
        let end = self.b.ins().iadd_imm_s(p, n);
        let len = self.len();
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
        let cmp = self.b.create_block();
        self.b.ins().brif(fits, cmp, &[], no, &[]);
        self.b.switch_to_block(cmp);
        let input = self.input();
        let addr = self.b.ins().iadd(input, p);
        let w = self.b.ins().uload32(input_flags(), addr, 0);
        let mut same = self.b.ins().icmp_imm_s(IntCC::Equal, w, word4(word));
        if let Some(&last) = word.get(4) {
            let b = self.b.ins().uload8(I64, input_flags(), addr, 4);
            let is = self.b.ins().icmp_imm_s(IntCC::Equal, b, i64::from(last));
            same = self.b.ins().band(same, is);
        }
        let done = self.b.create_block();
        self.b.ins().brif(same, done, &[], no, &[]);
        self.b.switch_to_block(done);
        self.set_pos(end);
        self.b.ins().jump(ok, &[]);
    }

    /// The slow path of an inlined value op: the interpreter helper runs it (and finds the
    /// exact error), then control joins `cont`.
    fn slow_path(&mut self, slow: Block, pc: usize, cont: Block) {
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        self.value_op(pc);
        self.b.ins().jump(cont, &[]);
    }

    /// `Null`: `null` inline.
    pub(super) fn literal(&mut self, pc: usize, word: &[u8]) {
        self.ws_value();
        let p = self.pos();
        let [cont, slow] = self.blocks();
        self.match_word(p, word, cont, slow);
        self.slow_path(slow, pc, cont);
        self.b.switch_to_block(cont);
    }

    /// `Bool`: `true` or `false` inline (decode stores the byte).
    pub(super) fn boolean(&mut self, pc: usize) {
        let dest = self.dest(pc);
        self.ws_value();
        let p = self.pos();
        let [cont, slow, other] = self.blocks();
        let [yes, no] = match dest {
            Some(_) => [(); 2].map(|_| self.b.create_block()),
            None => [cont; 2],
        };
        self.match_word(p, b"true", yes, other);
        self.b.switch_to_block(other);
        self.match_word(p, b"false", no, slow);
        if let Some(addr) = dest {
            for (block, value) in [(yes, true), (no, false)] {
                self.b.switch_to_block(block);
                self.put_bool(value, addr);
                self.b.ins().jump(cont, &[]);
            }
        }
        self.slow_path(slow, pc, cont);
        self.b.switch_to_block(cont);
    }

    /// `StrEnum` of at most [`MAX_INLINE_ENUM`] values, each at most [`MAX_INLINE_VALUE`]
    /// bytes needing no escape: each value with its quotes compared in place, in table
    /// order (the interpreter's first equal value; decode stores its index); another string
    /// whose plain body closes inside one window fails with `Enum` inline (a union branch or
    /// a condition that tests a tag fails so on every other value); any other token (an
    /// escaped or longer string, another kind: the errors) through the helper. A larger
    /// enumeration goes to the helper at once.
    pub(super) fn str_enum(&mut self, pc: usize, id: StrEnumId) {
        let values = self.program.str_enums[id as usize].values();
        let inline = values.len() <= MAX_INLINE_ENUM && values.iter().all(|v| inline_text(v));
        if !inline || values.is_empty() {
            self.checked_value_op(pc);
            return;
        }
        let dest = self.dest(pc);
        self.ws_value();
        let p = self.pos();
        let [cont, slow] = self.blocks();
        let hits: Vec<Block> = values.iter().map(|_| self.b.create_block()).collect();
        let pasts = self.tokens_in_place(p, values.iter().map(|v| quoted(v)), &hits, slow);
        for (i, (hit, past)) in hits.into_iter().zip(pasts).enumerate() {
            self.b.switch_to_block(hit);
            self.set_pos(past);
            if let Some(addr) = dest {
                self.put_u32(i as u32, addr);
            }
            self.b.ins().jump(cont, &[]);
        }
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let helper = self.b.create_block();
        self.plain_string_fails(p, Violation::Enum, helper);
        self.decode_slow_path(helper, pc, cont);
    }

    /// Fails with `violation` at `p` when a string whose plain body closes inside one window
    /// ([`Lower::plain_body`]) starts there, as the helper's fast path reports a clean string
    /// that fails its check; anything else jumps to `other`. Ends the block.
    fn plain_string_fails(&mut self, p: Value, violation: Violation, other: Block) {
        let [quoted, fails] = self.blocks();
        let body = self.b.ins().iadd_imm_s(p, 1);
        let (plain, _) = self.plain_body(body, other);
        // In bounds: the window from `body` lies in the input.
        let first = self.byte_at(p);
        let quote = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, first, i64::from(b'"'));
        self.b.ins().brif(quote, quoted, &[], other, &[]);
        self.b.set_cold_block(quoted);
        self.b.set_cold_block(fails);
        self.b.switch_to_block(quoted);
        self.b.ins().brif(plain, fails, &[], other, &[]);
        self.b.switch_to_block(fails);
        self.fail_with(FailKind::Violation(violation), p);
    }

    /// Compares the input at `p` with each of `tokens` in turn: a match of token `i` jumps
    /// to `hits[i]`, none to `miss`. Returns the index past each token.
    pub(super) fn tokens_in_place(
        &mut self,
        p: Value,
        tokens: impl Iterator<Item = Vec<u8>>,
        hits: &[Block],
        miss: Block,
    ) -> Vec<Value> {
        let mut pasts = Vec::with_capacity(hits.len());
        for (token, &hit) in tokens.zip(hits) {
            let next = self.b.create_block();
            pasts.push(self.bytes_in_place(p, &token, hit, next));
            self.b.switch_to_block(next);
        }
        self.b.ins().jump(miss, &[]);
        pasts
    }

    /// Jumps to `hit` when the input holds `bytes` at `p`, else to `miss`; returns the index
    /// past them.
    pub(super) fn bytes_in_place(
        &mut self,
        p: Value,
        bytes: &[u8],
        hit: Block,
        miss: Block,
    ) -> Value {
        let past = self.b.ins().iadd_imm_s(p, bytes.len() as i64);
        let len = self.len();
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, past, len);
        let cmp = self.b.create_block();
        self.b.ins().brif(fits, cmp, &[], miss, &[]);
        self.b.switch_to_block(cmp);
        let same = self.same_bytes(p, bytes);
        self.b.ins().brif(same, hit, &[], miss, &[]);
        past
    }

    /// The slow path of a value op inlined for the values that pass: in `slow` (cold), the
    /// helper runs it as decode does (storing the value) or as validate does, then control
    /// joins `cont`, which becomes the current block.
    fn decode_slow_path(&mut self, slow: Block, pc: usize, cont: Block) {
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        self.decode_value_op(pc);
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// A checked string or an enumeration: whitespace inline, then the helper (whose fast
    /// path decides clean strings; the interpreter finds the other errors).
    pub(super) fn checked_value_op(&mut self, pc: usize) {
        self.ws_value();
        self.decode_value_op(pc);
    }

    /// `String`: a plain string by the scan and escape kernels; checked strings (length,
    /// pattern) through the helper, a shape of ASCII classes inline when it is short.
    pub(super) fn string(&mut self, pc: usize, check: StrCheckId) {
        let check = &self.program.str_checks[check as usize];
        if check.needs_text() {
            match &check.ascii {
                Some(shape) if fits_windows(shape) => self.ascii_string(pc, shape),
                _ => self.checked_value_op(pc),
            }
            return;
        }
        let dest = self.dest(pc);
        let [scan, slow, cont] = self.blocks();
        self.ws_branch_byte(true, First::Whitespace, b'"', scan, slow);
        self.b.switch_to_block(scan);
        let p = self.pos();
        let body = self.b.ins().iadd_imm_s(p, 1);
        let end = if self.decoding() {
            // Decode unescapes (the interpreter's decoder reads the text), so escapes are
            // checked by unescaping.
            let end = self.scan_body(body);
            let flags = self.scan_flags();
            self.put_string(body, end, flags, dest);
            end
        } else {
            self.scan_string(body)
        };
        let after = self.b.ins().iadd_imm_s(end, 1);
        self.set_pos(after);
        self.b.ins().jump(cont, &[]);
        self.slow_path(slow, pc, cont);
        self.b.switch_to_block(cont);
    }

    /// A string checked by a shape of ASCII bytes ([`AsciiShape`]): inline when its body
    /// has the shape within the windows over it (a run ending inside two windows; fixed
    /// counts within two) and the closing quote follows, so it is plain ASCII with nothing to
    /// unescape. Anything else (a longer body, an escape, a byte outside its class, a count
    /// outside the bounds, a window past the input's end) takes the helper, which makes the
    /// errors.
    fn ascii_string(&mut self, pc: usize, shape: &AsciiShape) {
        let dest = self.dest(pc);
        let [open, done, slow, cont] = self.blocks();
        self.ws_branch_byte(true, First::Whitespace, b'"', open, slow);
        self.b.switch_to_block(open);
        let p = self.pos();
        let body = self.b.ins().iadd_imm_s(p, 1);
        let (passes, len) = match shape {
            &AsciiShape::Run { set, min, max } => self.ascii_run(body, set, min, max, slow),
            AsciiShape::Fixed(sets) => self.ascii_fixed(body, sets, slow),
        };
        self.b.ins().brif(passes, done, &[], slow, &[]);

        self.b.switch_to_block(done);
        let end = self.b.ins().iadd(body, len);
        if let Some(addr) = dest {
            self.put_span(body, end, addr);
        }
        let after = self.b.ins().iadd_imm_s(end, 1);
        self.set_pos(after);
        self.b.ins().jump(cont, &[]);
        self.decode_slow_path(slow, pc, cont);
    }

    /// Whether the body at `body` is `min..=max` bytes of `set` closed by a quote inside
    /// one window, or inside the next one when the first is all of `set` and `max` allows
    /// more (twitter's 18-digit `id_str`s); a window past the input's end jumps to `slow`.
    /// Also the body's length.
    fn ascii_run(
        &mut self,
        body: Value,
        set: u128,
        min: u64,
        max: u64,
        slow: Block,
    ) -> (Value, Value) {
        let (n, closes) = self.run_in_window(body, set, slow);
        let (n, closes) = if max < WINDOW_BYTES {
            (n, closes)
        } else {
            let [second, join] = self.blocks();
            let n_out = self.b.append_block_param(join, I64);
            let closes_out = self.b.append_block_param(join, I32);
            let full = self
                .b
                .ins()
                .icmp_imm_s(IntCC::Equal, n, WINDOW_BYTES as i64);
            let args = [BlockArg::Value(n), BlockArg::Value(closes)];
            self.b.ins().brif(full, second, &[], join, &args);

            self.b.switch_to_block(second);
            let next = self.b.ins().iadd_imm_s(body, WINDOW_BYTES as i64);
            let (rest, closes) = self.run_in_window(next, set, slow);
            let n = self.b.ins().iadd_imm_s(rest, WINDOW_BYTES as i64);
            self.b
                .ins()
                .jump(join, &[BlockArg::Value(n), BlockArg::Value(closes)]);
            self.b.switch_to_block(join);
            (n_out, closes_out)
        };
        // `min <= n <= max` as one unsigned compare (`n` is at most two windows).
        let over = self.b.ins().iadd_imm_s(n, -(min as i64));
        let span = (max - min).min(2 * WINDOW_BYTES) as i64;
        let counted = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedLessThanOrEqual, over, span);
        let counted = self.b.ins().uextend(I32, counted);
        (self.b.ins().band(closes, counted), n)
    }

    /// In the window at `at` (one past the input's end jumps to `slow`): the count `n` (an
    /// `i64`) of its leading lanes in `set`, 16 when all are, and whether lane `n` is a
    /// quote (an `i32`, 1 or 0; 0 when `n` is 16).
    fn run_in_window(&mut self, at: Value, set: u128, slow: Block) -> (Value, Value) {
        let v = self.window(at, slow, &[]).bytes;
        let others = self.lanes_outside(v, set);
        let others = self.b.ins().vhigh_bits(I32, others);
        // Lane 16 counts as outside: a run of the whole window ends there.
        let others = self.b.ins().bor_imm_u(others, 1 << WINDOW_BYTES);
        let n = self.b.ins().ctz(others);
        let quotes = self.lanes_equal(v, b'"');
        let quotes = self.b.ins().vhigh_bits(I32, quotes);
        let closes = self.b.ins().ushr(quotes, n);
        let closes = self.b.ins().band_imm_u(closes, 1);
        (self.b.ins().uextend(I64, n), closes)
    }

    /// Whether the body at `body` is one byte of each of `sets` (at most [`MAX_FIXED`])
    /// closed by a quote, from one window or two (one past the input's end jumps to
    /// `slow`), and its length. Each distinct set is looked up once per window, against the
    /// mask of the lanes that need it.
    fn ascii_fixed(&mut self, body: Value, sets: &[u128], slow: Block) -> (Value, Value) {
        let len = sets.len();
        let width = super::WINDOW as usize;
        let mut missed = None;
        let mut closes = None;
        for base in (0..=len).step_by(width) {
            let at = self.b.ins().iadd_imm_s(body, base as i64);
            let v = self.window(at, slow, &[]).bytes;
            let lanes = &sets[base..len.min(base + width)];
            let mut distinct: Vec<u128> = Vec::new();
            for &set in lanes {
                if !distinct.contains(&set) {
                    distinct.push(set);
                }
            }
            for set in distinct {
                let required = (lanes.iter().enumerate())
                    .filter(|&(_, &s)| s == set)
                    .fold(0i64, |mask, (lane, _)| mask | 1 << lane);
                let others = self.lanes_outside(v, set);
                let others = self.b.ins().vhigh_bits(I32, others);
                let miss = self.b.ins().band_imm_s(others, required);
                missed = Some(match missed {
                    Some(before) => self.b.ins().bor(before, miss),
                    None => miss,
                });
            }
            if len < base + width {
                let quotes = self.lanes_equal(v, b'"');
                let quotes = self.b.ins().vhigh_bits(I32, quotes);
                closes = Some(self.b.ins().band_imm_s(quotes, 1 << (len - base)));
            }
        }
        let missed = missed.expect("at least one byte");
        let closes = closes.expect("the last window holds the quote's lane");
        let clean = self.b.ins().icmp_imm_s(IntCC::Equal, missed, 0);
        let closed = self.b.ins().icmp_imm_s(IntCC::NotEqual, closes, 0);
        let passes = self.b.ins().band(clean, closed);
        (passes, self.iconst(len as i64))
    }

    /// The lanes of `v` (an `i8x16`) that are not in the ASCII `set` or are a quote, a
    /// backslash or a control byte (which end or escape a body), as an all-ones mask: each
    /// lane's low nibble picks a row of the class's bitmap (a bit per high nibble), its high
    /// nibble the bit (none for non-ASCII bytes).
    fn lanes_outside(&mut self, v: Value, set: u128) -> Value {
        let stops = (1u128 << b'"') | (1 << b'\\') | ((1 << 0x20) - 1);
        let set = set & !stops;
        let mut rows = [0u8; 16];
        for (low, row) in rows.iter_mut().enumerate() {
            for high in 0..8 {
                if set >> (high << 4 | low) & 1 == 1 {
                    *row |= 1 << high;
                }
            }
        }
        let bits = std::array::from_fn(|high| if high < 8 { 1 << high } else { 0 });
        let (rows, bits) = (self.vector(rows), self.vector(bits));
        let low = self.splat(0x0f);
        let low = self.b.ins().band(v, low);
        let high = self.b.ins().ushr_imm_u(v, 4);
        let row = self.lookup(rows, low);
        let bit = self.lookup(bits, high);
        let member = self.b.ins().band(row, bit);
        let zero = self.splat(0);
        self.b.ins().icmp(IntCC::Equal, member, zero)
    }

    /// Scans the string body at `body`: checks control bytes, UTF-8 and escapes; returns
    /// the closing quote's index.
    pub(super) fn scan_string(&mut self, body: Value) -> Value {
        let end = self.scan_body(body);
        let flags = self.scan_flags();
        let [check, done] = self.blocks();
        self.b.ins().brif(flags, check, &[], done, &[]);
        self.b.switch_to_block(check);
        self.b.set_cold_block(check);
        let input = self.input();
        let ptr = self.b.ins().iadd(input, body);
        let n = self.b.ins().isub(end, body);
        self.call_kernel(Callee::ValidateEscapes, &[ptr, n], Some(body));
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        end
    }

    /// Scans the string body at `body` (control bytes and UTF-8 checked, escapes not);
    /// returns the closing quote's index, the flags in the flags slot.
    ///
    /// Short strings are scanned inline: when 16 bytes from `body` lie in the input and a
    /// quote comes before any backslash, control byte or non-ASCII byte among them, that
    /// quote ends a plain ASCII body (nothing to check); anything else calls the kernel.
    pub(super) fn scan_body(&mut self, body: Value) -> Value {
        let [call, done] = self.blocks();
        let end = self.b.append_block_param(done, I64);
        let (plain, quote_at) = self.plain_body(body, call);
        let none = self.iconst(0);
        self.b.ins().stack_store(I64, none, self.flags, 0);
        self.b
            .ins()
            .brif(plain, done, &[BlockArg::Value(quote_at)], call, &[]);

        self.b.switch_to_block(call);
        let (input, len, flags) = (self.input(), self.len(), self.flags_addr());
        let v = self.call_kernel(Callee::ScanString, &[input, len, body, flags], None);
        self.b.ins().jump(done, &[BlockArg::Value(v)]);
        self.b.switch_to_block(done);
        end
    }

    /// Whether the body at `body` is plain, and where its closing quote is if so: when the
    /// 16 bytes from `body` lie in the input (else jumps to `other`), a quote comes before
    /// any backslash, control byte or non-ASCII byte among them: a plain ASCII body,
    /// nothing to check.
    fn plain_body(&mut self, body: Value, other: Block) -> (Value, Value) {
        let v = self.window(body, other, &[]).bytes;
        let quote = self.lanes_equal(v, b'"');
        let backslash = self.lanes_equal(v, b'\\');
        let top = self.splat(0xe0);
        let top = self.b.ins().band(v, top);
        let control = self.lanes_equal(top, 0);
        let quotes = self.b.ins().vhigh_bits(I32, quote);
        let stops = self.b.ins().bor(backslash, control);
        let stops = self.b.ins().vhigh_bits(I32, stops);
        // `vhigh_bits` of the bytes themselves: the non-ASCII ones.
        let high = self.b.ins().vhigh_bits(I32, v);
        let stops = self.b.ins().bor(stops, high);
        // The first lane that is a quote or a stop must be a quote.
        let any = self.b.ins().bor(quotes, stops);
        let zero = self.b.ins().iconst(I32, 0);
        let neg = self.b.ins().isub(zero, any);
        let first = self.b.ins().band(any, neg);
        let hit = self.b.ins().band(first, quotes);
        let k = self.b.ins().ctz(quotes);
        let k = self.b.ins().uextend(I64, k);
        let quote_at = self.b.ins().iadd(body, k);
        (hit, quote_at)
    }

    /// `SkipValue` where it writes nothing: a string with a plain body closing inside one
    /// window ([`Lower::plain_body`]) or a short run of digits ([`Lower::digit_run`]) that
    /// a delimiter follows (the skip kernel's rule for numbers) is skipped inline (neither
    /// can hold a number beyond `f64`); anything else, and so every error, takes the
    /// helper: the interpreter's skip.
    pub(super) fn skip_value(&mut self, pc: usize) {
        let [string, other, slow, cont] = self.blocks();
        self.ws_branch_byte(true, First::Whitespace, b'"', string, other);
        self.b.switch_to_block(string);
        let p = self.pos();
        let body = self.b.ins().iadd_imm_s(p, 1);
        let (plain, quote) = self.plain_body(body, slow);
        let skipped = self.b.create_block();
        self.b.ins().brif(plain, skipped, &[], slow, &[]);
        self.b.switch_to_block(skipped);
        let after = self.b.ins().iadd_imm_s(quote, 1);
        self.set_pos(after);
        self.b.ins().jump(cont, &[]);

        self.b.switch_to_block(other);
        let p = self.pos();
        let (_, n) = self.digit_run(p, slow);
        let end = self.b.ins().iadd(p, n);
        // Inside the run's window, so in the input.
        let next = self.byte_at(end);
        let delimited = self.is_delimiter(next);
        let skipped = self.b.create_block();
        self.b.ins().brif(delimited, skipped, &[], slow, &[]);
        self.b.switch_to_block(skipped);
        self.set_pos(end);
        self.b.ins().jump(cont, &[]);
        self.slow_path(slow, pc, cont);
        self.b.switch_to_block(cont);
    }

    /// Whether `byte` (a loaded byte) may end a number for the skip kernel: whitespace,
    /// `,`, `]`, `}`.
    fn is_delimiter(&mut self, byte: Value) -> Value {
        let low: u64 = [b' ', b'\t', b'\n', b'\r', b',']
            .iter()
            .fold(0, |m, &b| m | 1 << b);
        let small = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, byte, 64);
        let low = self.iconst(low as i64);
        // Shift amounts are taken modulo 64: `small` excludes the other bytes.
        let bit = self.b.ins().ushr(low, byte);
        let bit = self.b.ins().band_imm_s(bit, 1);
        let bit = self.b.ins().icmp_imm_s(IntCC::NotEqual, bit, 0);
        let low = self.b.ins().band(small, bit);
        // `]` and `}` differ in bit 5 only.
        let folded = self.b.ins().bor_imm_s(byte, 0x20);
        let close = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, folded, i64::from(b'}'));
        self.b.ins().bor(low, close)
    }

    /// `Fail`: the violation at the next value.
    pub(super) fn fail_op(&mut self, v: Violation) {
        self.ws();
        let p = self.pos();
        self.fail_with(FailKind::Violation(v), p);
        let dead = self.b.create_block();
        self.b.switch_to_block(dead);
    }

    /// `Eof`: only whitespace may follow.
    pub(super) fn eof(&mut self) {
        self.ws();
        let p = self.pos();
        let [ok, trailing] = self.blocks();
        let len = self.len();
        let end = self.b.ins().icmp(IntCC::Equal, p, len);
        self.b.ins().brif(end, ok, &[], trailing, &[]);
        self.b.switch_to_block(trailing);
        self.fail_with(FailKind::Syntax(ErrorKind::TrailingCharacters), p);
        self.b.switch_to_block(ok);
    }
}

//! `Number` ops. A short run of digits (a non-negative integer of up to 15 digits) is read
//! inline: validate takes it without reading its value under an `integer` check every such
//! integer passes (a `minimum` of 0, no `maximum`); decode computes its value under an
//! `integer` check. Validate under other checks reads a short decimal inline (a sign, an
//! integer part of up to 15 digits, a fraction within two windows) and decides it from its
//! integer part, as the bounds kernel would: by its digit count when every integer part of
//! that many digits passes (any count without bounds), else by its value. Other tokens go
//! to kernels called from generated code: validate calls
//! the bounds kernel (`jitson_number_within`, which reads the value only when the token's
//! integer part does not decide), decode calls the number kernel (`jitson_parse_number`,
//! or `jitson_parse_integer` under an `integer` check). Decode compares the value with the
//! bounds inline (a float as an `f64`, a 64-bit integer as an integer, exactly) and stores
//! it. Whatever they do not decide — a kernel error, a failed check, a value not compared
//! exactly (`-0` in decode, an infinite float, a big integer, a fraction under an integer
//! check) — runs the
//! number helper from the token's start, which reads and checks it with the interpreter's
//! code and makes the exact error. Checks with a `multipleOf` predicate, or a bound that is
//! not exactly an `f64`, always take the helper.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F64, I8, I8X16, I16X8, I64};
use cranelift_codegen::ir::{Block, BlockArg, Endianness, InstBuilder, MemFlagsData, Value};
use jitson_kernels::ffi::{NumberRead, bounds_flag, number_kind};
use jitson_kernels::number_bounds::F64Bounds;

use super::{Lower, Window, input_flags};
use crate::ir::Op;
use crate::native::helpers::Callee;
use crate::number::f64_bounds;

/// The most digits [`Lower::digit_run`] reads, and the most bytes of a sign and an integer
/// part [`Lower::short_decimal`] reads: they and the byte after them fit in one window.
const DIGIT_RUN: usize = super::WINDOW as usize - 1;

/// Whether every integer a digit run can spell (`0..10^DIGIT_RUN`) passes `check`'s bounds
/// (an `integer` check too: a digit run is one).
fn digit_runs_pass(check: &F64Bounds) -> bool {
    check.holds(0.0, WHOLE_MAX as f64)
}

/// Flags for a `bitcast` between vector types: lanes in little-endian order, as x86-64
/// and aarch64 hold them.
fn lane_order() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

/// The last index of a window.
const WINDOW_LAST: i64 = super::WINDOW as i64 - 1;

/// The largest integer part [`Lower::short_decimal`] reads ([`DIGIT_RUN`] digits): below
/// 2^53, so exact as an `f64`, and so is the next integer.
const WHOLE_MAX: i64 = 10i64.pow(DIGIT_RUN as u32) - 1;

/// Which integers of one kind (`U64` or `I64` tokens) pass a check's bounds.
#[derive(Clone, Copy)]
enum KindPasses {
    /// None of them.
    None,
    /// All of them.
    All,
    /// Those from the first (as `u64` bits) and up to the second more.
    Span(i64, i64),
}

/// Which [`Lower::short_decimal`] tokens pass the bounds, as the bounds kernel decides a
/// token from its integer part `w` (a fraction lies strictly between `w` and the next
/// integer). Shapes are indexed `2 × negative + fraction`.
struct Passing {
    /// Per shape, the integer parts that pass: `(first, last)`, empty when `first > last`.
    /// Each bound alone is monotonic in `w`, so together they pass an interval.
    wholes: [(i64, i64); 4],
    /// Bit `16 × shape + n` is set when every integer part of `n` digits passes.
    digit_counts: u64,
}

impl Passing {
    fn new(check: &F64Bounds) -> Passing {
        // The values a token of each shape may have, from its integer part.
        let shapes: [fn(f64) -> (f64, f64); 4] = [
            |w| (w, w),
            |w| (w, w + 1.0),
            |w| (-w, -w),
            |w| (-(w + 1.0), -w),
        ];
        let min_side = F64Bounds {
            max: f64::INFINITY,
            max_exclusive: false,
            ..*check
        };
        let max_side = F64Bounds {
            min: f64::NEG_INFINITY,
            min_exclusive: false,
            ..*check
        };
        let mut digit_counts = 0;
        let wholes = std::array::from_fn(|shape| {
            // The kernel leaves a fraction under an `integer` check undecided.
            if check.integer && shape % 2 == 1 {
                return (1, 0);
            }
            let range = shapes[shape];
            let side = |bounds: F64Bounds| {
                monotone_range(move |w| {
                    let (lo, hi) = range(w as f64);
                    bounds.holds(lo, hi)
                })
            };
            let (first, last) = side(min_side);
            let (from, to) = side(max_side);
            let (first, last) = (first.max(from), last.min(to));
            for n in 1..=DIGIT_RUN {
                let (low, high) = digit_count_range(n);
                if first <= low && high <= last {
                    digit_counts |= 1 << (16 * shape + n);
                }
            }
            (first, last)
        });
        Passing {
            wholes,
            digit_counts,
        }
    }

    /// Whether no token of these shapes passes (the kernel decides all).
    fn none(&self) -> bool {
        self.wholes.iter().all(|(first, last)| first > last)
    }

    /// Whether some integer part passes while others of its digit count do not: then the
    /// integer part's value decides, else its digit count.
    fn needs_value(&self) -> bool {
        self.wholes
            .iter()
            .enumerate()
            .any(|(shape, &(first, last))| {
                (1..=DIGIT_RUN).any(|n| {
                    let (low, high) = digit_count_range(n);
                    let all = self.digit_counts >> (16 * shape + n) & 1 == 1;
                    !all && low <= last && first <= high
                })
            })
    }
}

/// The integer parts of `n` digits: `(0, 9)`, `(10, 99)`, …
fn digit_count_range(n: usize) -> (i64, i64) {
    let high = 10i64.pow(n as u32) - 1;
    let low = match n {
        1 => 0,
        _ => (high + 1) / 10,
    };
    (low, high)
}

/// The `w` in `0..=WHOLE_MAX` where the monotonic `pred` holds, `(first, last)`: a prefix
/// or a suffix of the range, empty when `first > last`.
fn monotone_range(pred: impl Fn(i64) -> bool) -> (i64, i64) {
    let at_start = pred(0);
    if at_start == pred(WHOLE_MAX) {
        return match at_start {
            true => (0, WHOLE_MAX),
            false => (1, 0),
        };
    }
    // `pred(lo) == at_start`, `pred(hi) != at_start`.
    let (mut lo, mut hi) = (0, WHOLE_MAX);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match pred(mid) == at_start {
            true => lo = mid,
            false => hi = mid,
        }
    }
    match at_start {
        true => (0, lo),
        false => (hi, WHOLE_MAX),
    }
}

impl Lower<'_> {
    /// `Number`: whitespace inline, then the number kernel and the checks inline (decode
    /// stores the value), the helper for the rest (see the module docs).
    pub(super) fn number(&mut self, pc: usize) {
        let dest = self.dest(pc);
        self.ws_value();
        let Op::Number(check) = self.func.ops[pc] else {
            unreachable!("a Number op")
        };
        let Some(check) = f64_bounds(&self.program.num_checks[check as usize]) else {
            self.number_helper(pc, dest);
            return;
        };
        let p = self.pos();
        let [slow, cont] = [(); 2].map(|_| self.b.create_block());
        match dest {
            // Validate: a short run of digits inline under an `integer` check every such
            // integer passes, else a short decimal, else the bounds kernel, which reads
            // the value only when it must.
            None => {
                let [kernel, done] = self.blocks();
                let end = self.b.append_block_param(done, I64);
                if check.integer && digit_runs_pass(&check) {
                    let (_, n) = self.digit_run(p, kernel);
                    let end = self.b.ins().iadd(p, n);
                    self.b.ins().jump(done, &[BlockArg::Value(end)]);
                } else {
                    self.short_decimal(p, &check, done, kernel);
                }
                self.b.switch_to_block(kernel);
                let within = self.number_within(p, &check, slow);
                self.b.ins().jump(done, &[BlockArg::Value(within)]);
                self.b.switch_to_block(done);
                self.set_pos(end);
            }
            Some(addr) => {
                let [kernel, checked] = self.blocks();
                let [kind, bits, end] = [(); 3].map(|_| self.b.append_block_param(checked, I64));
                // Under an `integer` check only: elsewhere fractions are common, and each
                // would pay for the window before the kernel.
                match check.integer {
                    true => {
                        let (bytes, n) = self.digit_run(p, kernel);
                        let value = self.digit_run_value(bytes, n);
                        // A non-negative integer below 2^53: only the bounds are left to
                        // check, exactly in `f64`, and none when every run passes.
                        if !digit_runs_pass(&check) {
                            let exact = self.b.ins().fcvt_from_uint(F64, value);
                            self.bound_checks(&check, exact, slow);
                        }
                        let u64_kind = self.iconst(number_kind::U64 as i64);
                        let end_of_run = self.b.ins().iadd(p, n);
                        let args = [u64_kind, value, end_of_run].map(BlockArg::Value);
                        self.b.ins().jump(checked, &args);
                    }
                    false => {
                        self.b.ins().jump(kernel, &[]);
                    }
                }
                self.b.switch_to_block(kernel);
                let read = self.parse_number(p, check.integer, slow);
                let [kind_read, bits_read, end_read] = <[Value; 3]>::from(read);
                self.number_checks(&check, (kind_read, bits_read), slow);
                let args = [kind_read, bits_read, end_read].map(BlockArg::Value);
                self.b.ins().jump(checked, &args);
                self.b.switch_to_block(checked);
                // The slot: the tag byte (the kernel's kind: the layout's `NUM_*` tags)
                // and zeros in the first word, the value's bits in the second.
                self.put(kind, addr, 0);
                self.put(bits, addr, 8);
                self.set_pos(end);
            }
        }
        self.b.ins().jump(cont, &[]);

        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        self.set_pos(p);
        self.number_helper(pc, dest);
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// The number helper for op `pc` at the cursor (decode's writes the slot at `dest`).
    fn number_helper(&mut self, pc: usize, dest: Option<Value>) {
        match dest {
            Some(addr) => self.op_helper_into(Callee::DecodeNumber, pc, addr),
            None => self.op_helper(Callee::Number, pc),
        }
    }

    /// Continues when the token at `p` is a run of 1 to [`DIGIT_RUN`] digits without a
    /// leading zero, ending before a byte that is not a digit, `.`, `e` or `E` (a
    /// non-negative integer below 10^15, read from one 16-byte window): `(the window's
    /// bytes, number of digits)`. Anything else, and a window past the input's end,
    /// jumps to `other`.
    pub(super) fn digit_run(&mut self, p: Value, other: Block) -> (Value, Value) {
        let [check, run] = self.blocks();
        let Window { addr, bytes, .. } = self.window(p, other, &[]);
        let digits = self.digit_lanes(bytes);
        let n = self.digits_from(digits, None);
        let less = self.b.ins().iadd_imm_s(n, -1);
        let short = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedLessThan, less, DIGIT_RUN as i64);
        self.b.ins().brif(short, check, &[], other, &[]);

        self.b.switch_to_block(check);
        let leading_zero = self.leading_zero(addr, n);
        let after = self.b.ins().iadd(addr, n);
        let more_token = self.continues_number(after);
        let refuse = self.b.ins().bor(leading_zero, more_token);
        self.b.ins().brif(refuse, other, &[], run, &[]);
        self.b.switch_to_block(run);
        (bytes, n)
    }

    /// Jumps to `done(end)` when the token at `p` is `-?(0|[1-9][0-9]*)(\.[0-9]+)?` with an
    /// integer part that ends inside one window (at most [`DIGIT_RUN`] bytes with the
    /// sign), a fraction that ends inside the next one, before a byte that is not a digit,
    /// `.`, `e` or `E`, and its integer part decides `check` as the bounds kernel decides it
    /// ([`Passing`]: by its digit count when that decides every token, else by its value);
    /// anything else jumps to `other` (the kernel).
    fn short_decimal(&mut self, p: Value, check: &F64Bounds, done: Block, other: Block) {
        let passing = Passing::new(check);
        if passing.none() {
            self.b.ins().jump(other, &[]);
            return;
        }
        let Window { addr, bytes, .. } = self.window(p, other, &[]);
        let digits = self.digit_lanes(bytes);
        let first = self.b.ins().uload8(I64, input_flags(), addr, 0);
        let minus = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, first, i64::from(b'-'));
        let sign = self.b.ins().uextend(I64, minus);
        // The integer part: at least one digit after the sign, no leading zero, and the
        // byte after it inside the window.
        let n = self.digits_from(digits, Some(sign));
        let mut refuse = self.b.ins().icmp_imm_s(IntCC::Equal, n, 0);
        let dot_at = self.b.ins().iadd(sign, n);
        let long = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThan, dot_at, DIGIT_RUN as i64);
        refuse = self.b.ins().bor(refuse, long);
        let whole_at = self.b.ins().iadd(addr, sign);
        let leading_zero = self.leading_zero(whole_at, n);
        refuse = self.b.ins().bor(refuse, leading_zero);
        // A fraction: a dot, then at least one digit.
        let last = self.iconst(WINDOW_LAST);
        let dot_at = self.b.ins().umin(dot_at, last);
        let dot_addr = self.b.ins().iadd(addr, dot_at);
        let dot = self.b.ins().uload8(I64, input_flags(), dot_addr, 0);
        let is_dot = self.b.ins().icmp_imm_s(IntCC::Equal, dot, i64::from(b'.'));
        let fraction_at = self.b.ins().iadd_imm_s(dot_at, 1);
        let k = self.digits_from(digits, Some(fraction_at));
        let no_digit = self.b.ins().icmp_imm_s(IntCC::Equal, k, 0);
        let bare_dot = self.b.ins().band(is_dot, no_digit);
        refuse = self.b.ins().bor(refuse, bare_dot);
        let fraction_end = self.b.ins().iadd(fraction_at, k);
        let end = self.b.ins().select(is_dot, fraction_end, dot_at);
        let [shaped, inside, spills, run_on] = self.blocks();
        let token_end = self.b.append_block_param(shaped, I64);
        self.b.ins().brif(refuse, other, &[], inside, &[]);

        // The fraction's digits may run on into the next window (canada's 15-digit ones).
        self.b.switch_to_block(inside);
        let past = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThan, end, WINDOW_LAST);
        self.b.ins().brif(past, spills, &[], run_on, &[]);
        self.b.switch_to_block(run_on);
        let next_addr = self.b.ins().iadd(addr, end);
        self.token_ends(next_addr, end, shaped, other);

        self.b.switch_to_block(spills);
        let second = self.b.ins().iadd_imm_s(p, i64::from(super::WINDOW));
        let Window { addr, bytes, .. } = self.window(second, other, &[]);
        let more_digits = self.digit_lanes(bytes);
        let k = self.digits_from(more_digits, None);
        let tail = self.b.create_block();
        let full = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThan, k, WINDOW_LAST);
        self.b.ins().brif(full, other, &[], tail, &[]);
        self.b.switch_to_block(tail);
        let next_addr = self.b.ins().iadd(addr, k);
        let end = self.b.ins().iadd_imm_s(k, i64::from(super::WINDOW));
        self.token_ends(next_addr, end, shaped, other);

        // Decided by the integer part's digit count when that decides every token (no
        // bounds: any count), else by its value.
        self.b.switch_to_block(shaped);
        if !passing.needs_value() {
            let end = self.b.ins().iadd(p, token_end);
            let fraction = self.b.ins().uextend(I64, is_dot);
            let shape = self.b.ins().ishl_imm_s(sign, 1);
            let shape = self.b.ins().iadd(shape, fraction);
            let bit = self.b.ins().ishl_imm_s(shape, 4);
            let bit = self.b.ins().iadd(bit, n);
            let counts = self.iconst(passing.digit_counts as i64);
            let counts = self.b.ins().ushr(counts, bit);
            let count_passes = self.b.ins().band_imm_s(counts, 1);
            self.b
                .ins()
                .brif(count_passes, done, &[BlockArg::Value(end)], other, &[]);
            return;
        }
        let whole = self.digits_value(whole_at, n);
        // A side no shape limits (0 below, `WHOLE_MAX` above: bounds around 0) is not
        // compared.
        let mut within = None;
        for (side, unlimited, cc) in [
            (0, 0, IntCC::SignedGreaterThanOrEqual),
            (1, WHOLE_MAX, IntCC::SignedLessThanOrEqual),
        ] {
            let limits = passing.wholes.map(|w| [w.0, w.1][side]);
            if limits.iter().all(|&w| w == unlimited) {
                continue;
            }
            // Selected at run time only between limits that differ (bounds symmetric
            // around 0, canada's ±90 and ±180, limit both signs alike).
            let [pi, pf, ni, nf] = limits;
            let positive = self.by_fraction(is_dot, pi, pf);
            let limit = match (ni, nf) == (pi, pf) {
                true => positive,
                false => {
                    let negative = self.by_fraction(is_dot, ni, nf);
                    self.b.ins().select(minus, negative, positive)
                }
            };
            let holds = self.b.ins().icmp(cc, whole, limit);
            within = Some(match within {
                Some(other_side) => self.b.ins().band(other_side, holds),
                None => holds,
            });
        }
        // `needs_value` holds, so some shape limits a side.
        let within = within.expect("a limited side");
        let end = self.b.ins().iadd(p, token_end);
        self.b
            .ins()
            .brif(within, done, &[BlockArg::Value(end)], other, &[]);
    }

    /// The constant `fraction` when `is_dot` holds, else `whole` (one constant when they
    /// are equal).
    fn by_fraction(&mut self, is_dot: Value, whole: i64, fraction: i64) -> Value {
        if whole == fraction {
            return self.iconst(whole);
        }
        let (whole, fraction) = (self.iconst(whole), self.iconst(fraction));
        self.b.ins().select(is_dot, fraction, whole)
    }

    /// The lanes of `bytes` that are ASCII digits, as a 16-bit mask in an `I64`.
    ///
    /// `offset <= 9` rather than `offset < 10`: x86-64 lowers an unsigned `<=` of bytes to
    /// a minimum and a compare, and `<` to those and a negation (two instructions more).
    fn digit_lanes(&mut self, bytes: Value) -> Value {
        let zero = self.splat(b'0');
        let offsets = self.b.ins().isub(bytes, zero);
        let nine = self.splat(9);
        let digits = (self.b.ins()).icmp(IntCC::UnsignedLessThanOrEqual, offsets, nine);
        self.b.ins().vhigh_bits(I64, digits)
    }

    /// How many lanes of the digit mask `digits` are digits in a row from lane `at` (from
    /// lane 0 when `None`); at most the window's width, as the mask is zero above it.
    fn digits_from(&mut self, digits: Value, at: Option<Value>) -> Value {
        let digits = match at {
            Some(at) => self.b.ins().ushr(digits, at),
            None => digits,
        };
        let others = self.b.ins().bnot(digits);
        self.b.ins().ctz(others)
    }

    /// Whether the `n` digits at `digits` have a leading zero (`0` and more digits).
    fn leading_zero(&mut self, digits: Value, n: Value) -> Value {
        let first = self.b.ins().uload8(I64, input_flags(), digits, 0);
        let zero = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, first, i64::from(b'0'));
        let more = self.b.ins().icmp_imm_s(IntCC::UnsignedGreaterThan, n, 1);
        self.b.ins().band(zero, more)
    }

    /// Whether the byte at `next_addr` (in bounds), after a digit, continues a number token
    /// past what the inline readers take: `.`, `e` or `E`.
    fn continues_number(&mut self, next_addr: Value) -> Value {
        let next = self.b.ins().uload8(I64, input_flags(), next_addr, 0);
        let dot = self.b.ins().icmp_imm_s(IntCC::Equal, next, i64::from(b'.'));
        let lower = self.b.ins().bor_imm_s(next, 0x20);
        let exponent = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, lower, i64::from(b'e'));
        self.b.ins().bor(dot, exponent)
    }

    /// Jumps to `shaped(end)` when the byte at `next_addr` (in bounds: it follows a digit
    /// inside a window) ends a number token here, to `other` when it is `.`, `e` or `E`.
    fn token_ends(&mut self, next_addr: Value, end: Value, shaped: Block, other: Block) {
        let more_token = self.continues_number(next_addr);
        self.b
            .ins()
            .brif(more_token, other, &[], shaped, &[BlockArg::Value(end)]);
    }

    /// The value of the `n` (at least one) digits at address `digits`, one digit per step:
    /// the cheaper reading for the short integer parts of bounded decimals (canada's two or
    /// three digits), where a word-by-word conversion (session 32) measured 5 % more
    /// instructions per canada validate and was no faster.
    fn digits_value(&mut self, digits: Value, n: Value) -> Value {
        let [step, out] = self.blocks();
        let i = self.b.append_block_param(step, I64);
        let acc = self.b.append_block_param(step, I64);
        let value = self.b.append_block_param(out, I64);
        let zero = self.iconst(0);
        self.b.ins().jump(step, &[zero, zero].map(BlockArg::Value));
        self.b.switch_to_block(step);
        let at = self.b.ins().iadd(digits, i);
        let byte = self.b.ins().uload8(I64, input_flags(), at, 0);
        let digit = self.b.ins().iadd_imm_s(byte, -i64::from(b'0'));
        let tens = self.b.ins().imul_imm_s(acc, 10);
        let acc = self.b.ins().iadd(tens, digit);
        let i = self.b.ins().iadd_imm_s(i, 1);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, i, n);
        self.b.ins().brif(
            more,
            step,
            &[i, acc].map(BlockArg::Value),
            out,
            &[BlockArg::Value(acc)],
        );
        self.b.switch_to_block(out);
        value
    }

    /// The value of the `n` digits (`1..WINDOW`) in the first lanes of the window `bytes`,
    /// without a loop or a branch, in vector registers as the kernels' `int_parse` AVX2
    /// twin converts: the digits right-aligned in sixteen lanes by one shuffle (the lanes
    /// before them zero, as leading zeros), then multiply-adds joining neighbours into
    /// two-, four- and eight-digit groups, and the two eight-digit groups joined in a
    /// register. For decode's integer runs (citm_catalog's nine-digit ids), where
    /// [`Lower::digits_value`]'s loop spent one multiply-add and a branch per digit and a
    /// word-by-word version about 40 instructions per run.
    fn digit_run_value(&mut self, bytes: Value, n: Value) -> Value {
        let zero = self.splat(b'0');
        let digits = self.b.ins().isub(bytes, zero);
        // Lane `i` takes lane `i + n - 16`: a negative index (its top bit set) gives zero.
        let n = self.b.ins().ireduce(I8, n);
        let n = self.b.ins().splat(I8X16, n);
        let from_end = self.vector(std::array::from_fn(|i| (i as u8).wrapping_sub(16)));
        let indices = self.b.ins().iadd(n, from_end);
        let aligned = self.lookup(digits, indices);
        // Pairs `10·d[2j] + d[2j+1]` as 16-bit lanes.
        let tens = self.vector(std::array::from_fn(|i| [10, 1][i % 2]));
        let pairs = if cfg!(target_arch = "x86_64") {
            self.b.ins().x86_pmaddubsw(tens, aligned)
        } else {
            let [low, high] = [
                self.b.ins().uwiden_low(aligned),
                self.b.ins().uwiden_high(aligned),
            ];
            let tens = self.b.ins().uwiden_low(tens);
            let [low, high] = [low, high].map(|half| self.b.ins().imul(half, tens));
            self.b.ins().iadd_pairwise(low, high)
        };
        let quads = self.pairwise_dot(pairs, 100);
        let quads = self.b.ins().snarrow(quads, quads);
        let octets = self.pairwise_dot(quads, 10_000);
        let [leading, trailing] = [0, 1].map(|lane| {
            let group = self.b.ins().extractlane(octets, lane);
            self.b.ins().uextend(I64, group)
        });
        let leading = self.b.ins().imul_imm_s(leading, 100_000_000);
        self.b.ins().iadd(leading, trailing)
    }

    /// `scale · v[2k] + v[2k+1]` for each pair of the 16-bit lanes of `v` (each product and
    /// sum below 2^31), as 32-bit lanes: the shape x86-64 lowers to one `pmaddwd`.
    fn pairwise_dot(&mut self, v: Value, scale: u16) -> Value {
        let lanes: [u8; 16] = std::array::from_fn(|i| {
            let weight = [scale, 1][(i / 2) % 2];
            weight.to_le_bytes()[i % 2]
        });
        let weights = self.vector(lanes);
        let weights = self.b.ins().bitcast(I16X8, lane_order(), weights);
        let [low, high] = [
            (self.b.ins().swiden_low(v), self.b.ins().swiden_low(weights)),
            (
                self.b.ins().swiden_high(v),
                self.b.ins().swiden_high(weights),
            ),
        ]
        .map(|(x, w)| self.b.ins().imul(x, w));
        self.b.ins().iadd_pairwise(low, high)
    }

    /// Calls the bounds kernel at `p` with `check`: the index past the token when it
    /// certainly passes; anything else (an error, a failure, undecided) jumps to `slow`.
    fn number_within(&mut self, p: Value, check: &F64Bounds, slow: Block) -> Value {
        let flags = [
            (check.integer, bounds_flag::INTEGER),
            (check.min_exclusive, bounds_flag::MIN_EXCLUSIVE),
            (check.max_exclusive, bounds_flag::MAX_EXCLUSIVE),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .fold(0, |acc, (_, bit)| acc | bit);
        let (input, len) = (self.input(), self.len());
        let min = self.iconst(check.min.to_bits() as i64);
        let max = self.iconst(check.max.to_bits() as i64);
        let flags = self.iconst(flags as i64);
        let (status, end) = self.call(Callee::NumberWithin, &[input, len, p, min, max, flags]);
        let [decided, within] = [(); 2].map(|_| self.b.create_block());
        self.b.ins().brif(status, slow, &[], decided, &[]);
        self.b.switch_to_block(decided);
        self.b.ins().brif(end, within, &[], slow, &[]);
        self.b.switch_to_block(within);
        end
    }

    /// Calls the number kernel at `p` (its integer-first entry when the check wants an
    /// `integer`): `(kind, bits, end)` (see `number_kind`), unpacked from the entry's two
    /// registers ([`NumberRead`]); a kernel error jumps to `slow`.
    fn parse_number(&mut self, p: Value, integer: bool, slow: Block) -> (Value, Value, Value) {
        let (input, len) = (self.input(), self.len());
        let callee = match integer {
            true => Callee::ParseInteger,
            false => Callee::ParseNumber,
        };
        let (end_kind, bits) = self.call(callee, &[input, len, p]);
        let read = self.b.create_block();
        // The error bit is the sign bit.
        let error = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, end_kind, 0);
        self.b.ins().brif(error, slow, &[], read, &[]);
        self.b.switch_to_block(read);
        let kind_mask = (1 << NumberRead::KIND_BITS) - 1;
        let kind = self.b.ins().band_imm_s(end_kind, kind_mask);
        let end = self
            .b
            .ins()
            .ushr_imm_s(end_kind, i64::from(NumberRead::KIND_BITS));
        (kind, bits, end)
    }

    /// Jumps to `slow` unless the number `(kind, bits)` passes `check` as the interpreter
    /// reads it; continues in a new block when it does. The value is stored as the kernel
    /// read it, so `-0` (the float -0.0 to the interpreter) takes the helper. A float is
    /// compared with the bounds as an `f64`; an integer token as an integer with the
    /// integers that pass ([`F64Bounds::integers`]), exactly at any size (twitter's 18-digit
    /// ids, beyond 2^53, took the helper when they were compared as `f64`s).
    fn number_checks(&mut self, check: &F64Bounds, (kind, bits): (Value, Value), slow: Block) {
        // Only finite bounds are compared (an absent bound is infinite).
        let bounded = check.min.is_finite() || check.max.is_finite();
        let [int, float, pass, done] = self.blocks();
        // The value as an `f64`, for the bounds.
        let value = bounded.then(|| self.b.append_block_param(pass, F64));
        let is_float = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, kind, number_kind::F64 as i64);
        self.b.ins().brif(is_float, float, &[], int, &[]);

        // A fraction or an exponent: not an integer to the kernel (the helper decides
        // `1.0`); an infinite value is out of range.
        self.b.switch_to_block(float);
        if check.integer {
            self.b.ins().jump(slow, &[]);
        } else if check.min.is_finite() && check.max.is_finite() {
            // An infinite value fails one of the two finite bounds compared below (the
            // reader never gives a NaN), so it takes `slow` there.
            let f = self.b.ins().bitcast(F64, MemFlagsData::new(), bits);
            self.b.ins().jump(pass, &[BlockArg::Value(f)]);
        } else {
            let f = self.b.ins().bitcast(F64, MemFlagsData::new(), bits);
            let magnitude = self.b.ins().fabs(f);
            let inf = self.b.ins().f64const(f64::INFINITY);
            let finite = self.b.ins().fcmp(FloatCC::LessThan, magnitude, inf);
            let args: &[BlockArg] = if bounded { &[BlockArg::Value(f)] } else { &[] };
            self.b.ins().brif(finite, pass, args, slow, &[]);
        }
        self.b.switch_to_block(pass);
        if let Some(value) = value {
            self.bound_checks(check, value, slow);
        }
        self.b.ins().jump(done, &[]);

        // An integer token: `U64`, `I64` (0 only for `-0`), or a big integer.
        self.b.switch_to_block(int);
        let big = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, kind, number_kind::BIG_INT as i64);
        let is_i64 = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, kind, number_kind::I64 as i64);
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, bits, 0);
        let minus_zero = self.b.ins().band(is_i64, zero);
        let mut refuse = self.b.ins().bor(big, minus_zero);
        if bounded {
            refuse = self.integer_bounds(check, (is_i64, bits), refuse);
        }
        self.b.ins().brif(refuse, slow, &[], done, &[]);
        self.b.switch_to_block(done);
    }

    /// `refuse`, or'ed with whether the integer `bits` (an `I64` token when `is_i64`, a
    /// negative one; else `U64`) lies outside the integers that pass `check`. Per kind, an
    /// unsigned compare of its offset from the kind's lowest passing value with the span of
    /// its passing values; nothing for a kind whose every value passes, a constant refusal
    /// for a kind of which none does.
    fn integer_bounds(
        &mut self,
        check: &F64Bounds,
        (is_i64, bits): (Value, Value),
        refuse: Value,
    ) -> Value {
        let (lowest, highest) = check.integers();
        // Per kind (`U64`, then `I64`): its values, and those of them that pass.
        let domains: [(i128, i128); 2] = [(0, u64::MAX.into()), (i64::MIN.into(), -1)];
        let [unsigned, signed] = domains.map(|(first, last)| {
            let (from, to) = (lowest.max(first), highest.min(last));
            match (from > to, (from, to) == (first, last)) {
                (true, _) => KindPasses::None,
                (false, true) => KindPasses::All,
                // Two's complement: the offset and span as `u64` bits.
                (false, false) => KindPasses::Span(from as i64, (to - from) as u64 as i64),
            }
        });
        let mut refuse = refuse;
        if let KindPasses::None = unsigned {
            let is_u64 = self.b.ins().bxor_imm_u(is_i64, 1);
            refuse = self.b.ins().bor(refuse, is_u64);
        }
        if let KindPasses::None = signed {
            refuse = self.b.ins().bor(refuse, is_i64);
        }
        // The span test, with the other kind's (or an always-true one) selected away.
        let span_of = |passing: &KindPasses| match *passing {
            KindPasses::Span(from, span) => Some((from, span)),
            _ => None,
        };
        let (u, i) = (span_of(&unsigned), span_of(&signed));
        if u.is_none() && i.is_none() {
            return refuse;
        }
        // A kind without a span test gets one every value passes.
        let [(u_from, u_span), (i_from, i_span)] = [u, i].map(|s| s.unwrap_or((0, -1)));
        let mut per_kind = |signed: i64, unsigned: i64| match signed == unsigned {
            true => self.iconst(unsigned),
            false => {
                let (signed, unsigned) = (self.iconst(signed), self.iconst(unsigned));
                self.b.ins().select(is_i64, signed, unsigned)
            }
        };
        let from = per_kind(i_from, u_from);
        let span = per_kind(i_span, u_span);
        let offset = self.b.ins().isub(bits, from);
        let outside = self.b.ins().icmp(IntCC::UnsignedGreaterThan, offset, span);
        self.b.ins().bor(refuse, outside)
    }

    /// Jumps to `slow` unless the `f64` `value` lies within `check`'s finite bounds;
    /// continues in a new block when it does.
    fn bound_checks(&mut self, check: &F64Bounds, value: Value, slow: Block) {
        for (bound, exclusive, is_min) in [
            (check.min, check.min_exclusive, true),
            (check.max, check.max_exclusive, false),
        ] {
            if !bound.is_finite() {
                continue;
            }
            let cc = match (is_min, exclusive) {
                (true, false) => FloatCC::GreaterThanOrEqual,
                (true, true) => FloatCC::GreaterThan,
                (false, false) => FloatCC::LessThanOrEqual,
                (false, true) => FloatCC::LessThan,
            };
            let limit = self.b.ins().f64const(bound);
            let ok = self.b.ins().fcmp(cc, value, limit);
            let next = self.b.create_block();
            self.b.ins().brif(ok, next, &[], slow, &[]);
            self.b.switch_to_block(next);
        }
    }
}

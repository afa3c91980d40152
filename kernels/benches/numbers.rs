//! Number kernels against the usual alternatives, on the same inputs in the same run:
//! integer parse (vs `str::parse`), integer format (vs `itoa`), float parse (vs `str::parse`),
//! float format (vs `zmij` and `ryu`). Each group has the AVX2 twin (when the CPU has it), the
//! scalar twin and the alternatives.
//!
//! `str::parse` is handed the exact token slice (its end already known), which a parser has to
//! find; the float group also shows `scan_number` + `str::parse`, the honest equivalent, and the
//! engine's one-pass `parse_number` against the `scan_number` + `parse_f64` it replaced. `itoa`,
//! `zmij` and `ryu` format into their own buffer; the `+copy` variants also move the text into
//! a caller's buffer, as a serializer must (our kernels write to the caller's buffer directly).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jitson_kernels::KernelError;
use jitson_kernels::float_parse::FloatOverflow;
use jitson_kernels::number::scan_number;
use jitson_kernels::number_bounds::{F64Bounds, number_within};
use jitson_kernels::number_parse::{self, NumberValue};
use jitson_kernels::{avx2_supported, float_format, float_parse, int_format, int_parse};

/// The number tokens of a JSON document, each followed by `,`, and where each starts and ends.
struct Tokens {
    buf: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

impl Tokens {
    fn new() -> Tokens {
        Tokens {
            buf: Vec::new(),
            spans: Vec::new(),
        }
    }

    /// Collects the number tokens of `json` (outside strings) that `keep(text, is_integer)`
    /// accepts.
    fn from_json(json: &[u8], keep: impl Fn(&[u8], bool) -> bool) -> Tokens {
        let mut tokens = Tokens::new();
        let (mut i, mut in_string) = (0, false);
        while i < json.len() {
            let b = json[i];
            if in_string {
                match b {
                    b'\\' => i += 1,
                    b'"' => in_string = false,
                    _ => {}
                }
                i += 1;
            } else if b == b'"' {
                in_string = true;
                i += 1;
            } else if b == b'-' || b.is_ascii_digit() {
                let token = scan_number(json, i).expect("valid JSON number");
                let text = &json[i..token.end];
                if keep(text, token.is_integer) {
                    tokens.push(text);
                }
                i = token.end;
            } else {
                i += 1;
            }
        }
        tokens
    }

    fn push(&mut self, text: &[u8]) {
        let start = self.buf.len();
        self.buf.extend_from_slice(text);
        self.spans.push((start, self.buf.len()));
        self.buf.push(b',');
    }

    /// Total bytes of the tokens themselves (separators excluded).
    fn token_bytes(&self) -> u64 {
        self.spans.iter().map(|&(s, e)| (e - s) as u64).sum()
    }

    /// Every token as a `&str` (checked once, here, not in the measured loops).
    fn texts(&self) -> Vec<&str> {
        let text = |&(start, end): &(usize, usize)| {
            std::str::from_utf8(&self.buf[start..end]).expect("ASCII token")
        };
        self.spans.iter().map(text).collect()
    }
}

fn corpus(name: &str) -> Vec<u8> {
    let path = format!("{}/../testdata/bench/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A small deterministic PRNG (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A random u64 of `1..=20` decimal digits, each length equally likely.
    fn u64_of_random_length(&mut self) -> u64 {
        let digits = 1 + (self.next_u64() % 20) as u32;
        let low = if digits == 1 {
            0
        } else {
            10u64.pow(digits - 1)
        };
        let span = if digits == 20 {
            u64::MAX - low
        } else {
            10u64.pow(digits) - low
        };
        low + self.next_u64() % span
    }

    /// A random u64 of `1..=64` significant bits, each bit length equally likely.
    fn u64_of_random_bits(&mut self) -> u64 {
        let bits = 1 + (self.next_u64() % 64) as u32;
        self.next_u64() >> (64 - bits)
    }
}

/// The signature of the number entry points of `jitson_kernels::ffi`.
type NumberEntry = unsafe extern "C" fn(*const u8, usize, usize) -> jitson_kernels::ffi::NumberRead;

/// Runs `parse` on every token start of `tokens`, summing the values' bits.
fn parse_all(tokens: &Tokens, parse: impl Fn(&[u8], usize) -> u128) -> u128 {
    let buf = tokens.buf.as_slice();
    let mut sum = 0u128;
    for &(start, _) in &tokens.spans {
        sum = sum.wrapping_add(parse(black_box(buf), start));
    }
    sum
}

/// Runs `parse` on every token text, summing the values' bits.
fn parse_all_texts(texts: &[&str], parse: impl Fn(&str) -> u128) -> u128 {
    let mut sum = 0u128;
    for &text in texts {
        sum = sum.wrapping_add(parse(black_box(text)));
    }
    sum
}

/// An integer type the kernels parse.
trait ParseInt: std::str::FromStr<Err: std::fmt::Debug> + Into<i128> {
    fn parse_scalar(buf: &[u8], pos: usize) -> Self;
    #[cfg(target_arch = "x86_64")]
    /// # Safety
    /// AVX2 must be supported.
    unsafe fn parse_avx2(buf: &[u8], pos: usize) -> Self;
}

impl ParseInt for i64 {
    fn parse_scalar(buf: &[u8], pos: usize) -> i64 {
        int_parse::scalar::parse_i64(buf, pos).expect("i64").0
    }
    #[cfg(target_arch = "x86_64")]
    unsafe fn parse_avx2(buf: &[u8], pos: usize) -> i64 {
        // SAFETY: forwarded caller contract.
        unsafe { int_parse::avx2::parse_i64(buf, pos) }
            .expect("i64")
            .0
    }
}

impl ParseInt for u64 {
    fn parse_scalar(buf: &[u8], pos: usize) -> u64 {
        int_parse::scalar::parse_u64(buf, pos).expect("u64").0
    }
    #[cfg(target_arch = "x86_64")]
    unsafe fn parse_avx2(buf: &[u8], pos: usize) -> u64 {
        // SAFETY: forwarded caller contract.
        unsafe { int_parse::avx2::parse_u64(buf, pos) }
            .expect("u64")
            .0
    }
}

/// A number reading's value, as bits.
fn number_bits(reading: Result<(NumberValue, usize), KernelError>) -> u128 {
    match reading.expect("number").0 {
        NumberValue::F64(f) => u128::from(f.to_bits()),
        NumberValue::U64(u) => u128::from(u),
        NumberValue::I64(i) => i as u128,
        NumberValue::BigInt => u128::MAX,
    }
}

fn int_parse_group<T: ParseInt>(c: &mut Criterion, name: &str, tokens: &Tokens) {
    let mut group = c.benchmark_group(format!("int_parse/{name}"));
    group.throughput(Throughput::Bytes(tokens.token_bytes()));
    let wide = |v: T| v.into() as u128;
    #[cfg(target_arch = "x86_64")]
    if avx2_supported() {
        // SAFETY: AVX2 support was checked.
        let avx2 = |buf: &[u8], pos| wide(unsafe { T::parse_avx2(buf, pos) });
        group.bench_function("avx2", |b| b.iter(|| parse_all(tokens, avx2)));
    }
    let scalar = |buf: &[u8], pos| wide(T::parse_scalar(buf, pos));
    group.bench_function("scalar", |b| b.iter(|| parse_all(tokens, scalar)));
    // The engine's reading of any number token, and of one expected to be an integer, on
    // integer tokens.
    group.bench_function("parse_number", |b| {
        b.iter(|| {
            parse_all(tokens, |buf, pos| {
                number_bits(number_parse::parse_number(buf, pos))
            })
        })
    });
    group.bench_function("parse_integer", |b| {
        b.iter(|| {
            parse_all(tokens, |buf, pos| {
                number_bits(number_parse::parse_integer(buf, pos))
            })
        })
    });
    let std = |text: &str| wide(text.parse::<T>().expect("integer"));
    let texts = tokens.texts();
    group.bench_function("str_parse_end_known", |b| {
        b.iter(|| parse_all_texts(&texts, std))
    });
    group.finish();
}

fn bench_int_parse(c: &mut Criterion) {
    for name in ["citm_catalog.json", "twitter.json"] {
        let tokens = Tokens::from_json(&corpus(name), |_, is_integer| is_integer);
        int_parse_group::<i64>(c, name, &tokens);
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut random = Tokens::new();
    for _ in 0..10_000 {
        random.push(rng.u64_of_random_length().to_string().as_bytes());
    }
    int_parse_group::<u64>(c, "random_u64_1_to_20_digits", &random);
}

/// A formatter of `T` into a 20-byte buffer.
trait FormatInt: Copy + itoa::Integer {
    fn format(self, out: &mut [u8; int_format::MAX_INT_LEN]) -> usize;
    fn format_scalar(self, out: &mut [u8; int_format::MAX_INT_LEN]) -> usize;
    #[cfg(target_arch = "x86_64")]
    /// # Safety
    /// AVX2 must be supported.
    unsafe fn format_avx2(self, out: &mut [u8; int_format::MAX_INT_LEN]) -> usize;
}

impl FormatInt for u64 {
    fn format(self, out: &mut [u8; int_format::MAX_INT_LEN]) -> usize {
        int_format::format_u64(self, out)
    }
    fn format_scalar(self, out: &mut [u8; int_format::MAX_INT_LEN]) -> usize {
        int_format::scalar::format_u64(self, out)
    }
    #[cfg(target_arch = "x86_64")]
    unsafe fn format_avx2(self, out: &mut [u8; int_format::MAX_INT_LEN]) -> usize {
        // SAFETY: forwarded caller contract.
        unsafe { int_format::avx2::format_u64(self, out) }
    }
}

impl FormatInt for i64 {
    fn format(self, out: &mut [u8; int_format::MAX_INT_LEN]) -> usize {
        int_format::format_i64(self, out)
    }
    fn format_scalar(self, out: &mut [u8; int_format::MAX_INT_LEN]) -> usize {
        int_format::scalar::format_i64(self, out)
    }
    #[cfg(target_arch = "x86_64")]
    unsafe fn format_avx2(self, out: &mut [u8; int_format::MAX_INT_LEN]) -> usize {
        // SAFETY: forwarded caller contract.
        unsafe { int_format::avx2::format_i64(self, out) }
    }
}

/// Formats every value with `format`, keeping each output alive.
fn format_all<T: Copy>(values: &[T], mut format: impl FnMut(T, &mut [u8; 20]) -> usize) -> usize {
    let mut out = [0u8; int_format::MAX_INT_LEN];
    let mut total = 0;
    for &v in values {
        total += format(black_box(v), &mut out);
        black_box(&out);
    }
    total
}

fn int_format_group<T: FormatInt>(c: &mut Criterion, name: &str, values: &[T]) {
    let mut group = c.benchmark_group(format!("int_format/{name}"));
    group.throughput(Throughput::Elements(values.len() as u64));
    group.bench_function("dispatch", |b| b.iter(|| format_all(values, T::format)));
    #[cfg(target_arch = "x86_64")]
    if avx2_supported() {
        // SAFETY: AVX2 support was checked.
        let avx2 = |v: T, out: &mut [u8; 20]| unsafe { v.format_avx2(out) };
        group.bench_function("avx2", |b| b.iter(|| format_all(values, avx2)));
    }
    group.bench_function("scalar", |b| {
        b.iter(|| format_all(values, T::format_scalar))
    });
    group.bench_function("itoa", |b| {
        b.iter(|| {
            let mut buffer = itoa::Buffer::new();
            let mut total = 0;
            for &v in values {
                total += black_box(buffer.format(black_box(v))).len();
            }
            total
        })
    });
    group.bench_function("itoa+copy", |b| {
        b.iter(|| {
            let mut buffer = itoa::Buffer::new();
            format_all(values, |v, out| {
                let text = buffer.format(v).as_bytes();
                out[..text.len()].copy_from_slice(text);
                text.len()
            })
        })
    });
    group.finish();
}

fn bench_int_format(c: &mut Criterion) {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let random_bits: Vec<u64> = (0..10_000).map(|_| rng.u64_of_random_bits()).collect();
    let random_signed: Vec<i64> = random_bits
        .iter()
        .map(|&v| (v as i64).wrapping_mul(if v & 1 == 0 { 1 } else { -1 }))
        .collect();
    let random_length: Vec<u64> = (0..10_000).map(|_| rng.u64_of_random_length()).collect();
    let small: Vec<u64> = (0..10_000).map(|_| rng.next_u64() % 1000).collect();
    int_format_group(c, "u64_random_bit_length", &random_bits);
    int_format_group(c, "i64_random_bit_length", &random_signed);
    int_format_group(c, "u64_random_digit_count", &random_length);
    int_format_group(c, "u64_below_1000", &small);
}

fn bench_float_parse(c: &mut Criterion) {
    let tokens = Tokens::from_json(&corpus("canada.json"), |_, _| true);
    let mut group = c.benchmark_group("float_parse/canada.json");
    group.throughput(Throughput::Bytes(tokens.token_bytes()));
    let bits = |parsed: Result<(f64, usize), _>| u128::from(parsed.expect("number").0.to_bits());
    #[cfg(target_arch = "x86_64")]
    if avx2_supported() {
        group.bench_function("avx2", |b| {
            b.iter(|| {
                parse_all(&tokens, |buf, pos| {
                    // SAFETY: AVX2 support was checked.
                    bits(unsafe { float_parse::avx2::parse_f64(buf, pos, FloatOverflow::Error) })
                })
            })
        });
    }
    group.bench_function("scalar", |b| {
        b.iter(|| {
            parse_all(&tokens, |buf, pos| {
                bits(float_parse::scalar::parse_f64(
                    buf,
                    pos,
                    FloatOverflow::Error,
                ))
            })
        })
    });
    let texts = tokens.texts();
    group.bench_function("str_parse_end_known", |b| {
        b.iter(|| {
            parse_all_texts(&texts, |text| {
                u128::from(text.parse::<f64>().expect("f64").to_bits())
            })
        })
    });
    // sonic-rs's own number reader (the one its `Value` parse inlines), on the same tokens.
    group.bench_function("sonic_number", |b| {
        b.iter(|| {
            parse_all(&tokens, |buf, pos| {
                let negative = buf[pos] == b'-';
                let mut index = pos + usize::from(negative);
                match sonic_number::parse_number(buf, &mut index, negative).expect("number") {
                    sonic_number::ParserNumber::Float(f) => u128::from(f.to_bits()),
                    sonic_number::ParserNumber::Unsigned(u) => u128::from(u),
                    sonic_number::ParserNumber::Signed(i) => i as u128,
                }
            })
        })
    });
    group.bench_function("scan_number+str_parse", |b| {
        b.iter(|| {
            parse_all(&tokens, |buf, pos| {
                let token = scan_number(buf, pos).expect("number");
                // SAFETY: `scan_number` accepted these bytes, and a number token is ASCII.
                let text = unsafe { std::str::from_utf8_unchecked(&buf[pos..token.end]) };
                u128::from(text.parse::<f64>().expect("f64").to_bits())
            })
        })
    });
    // The engine's reading of a number token: one pass, against the two passes it replaced.
    group.bench_function("parse_number", |b| {
        b.iter(|| {
            parse_all(&tokens, |buf, pos| {
                number_bits(number_parse::parse_number(buf, pos))
            })
        })
    });
    // The entry generated code calls (through a function pointer, as it does): the
    // dispatching one (entry, dispatch, twin) against the one calling the AVX2 twin directly.
    let entries: [(&str, *const u8); 2] = [
        (
            "ffi_dispatching",
            jitson_kernels::ffi::jitson_parse_number as *const u8,
        ),
        #[cfg(target_arch = "x86_64")]
        (
            "ffi_direct_avx2",
            jitson_kernels::ffi::entry_point("jitson_parse_number").expect("listed"),
        ),
    ];
    for (name, entry) in entries {
        // SAFETY: both addresses are of entry points with this signature; `entry_point` gives
        // the direct AVX2 entry only where the AVX2 kernels run.
        let entry: NumberEntry = unsafe { std::mem::transmute(entry) };
        group.bench_function(name, |b| {
            b.iter(|| {
                parse_all(&tokens, |buf, pos| {
                    // SAFETY: `buf` is readable for its length.
                    let r = unsafe { entry(buf.as_ptr(), buf.len(), pos) };
                    u128::from(r.value ^ r.end_kind)
                })
            })
        });
    }
    // The integer-first reading on float tokens: what it costs where integers were wrong.
    group.bench_function("parse_integer", |b| {
        b.iter(|| {
            parse_all(&tokens, |buf, pos| {
                number_bits(number_parse::parse_integer(buf, pos))
            })
        })
    });
    // Validation of a bounded number (canada's longitudes): the bounds kernel, which reads
    // the value only when the integer part does not decide, against reading it.
    let longitude = F64Bounds {
        min: -180.0,
        max: 180.0,
        ..F64Bounds::ANY
    };
    group.bench_function("number_within", |b| {
        b.iter(|| {
            parse_all(&tokens, |buf, pos| {
                u128::from(number_within(buf, pos, &longitude).expect("number").0)
            })
        })
    });
    group.bench_function("scan_number+parse_f64", |b| {
        b.iter(|| {
            parse_all(&tokens, |buf, pos| {
                let token = scan_number(buf, pos).expect("number");
                black_box(token.is_integer);
                bits(float_parse::parse_f64(buf, pos, FloatOverflow::Error))
            })
        })
    });
    group.finish();
}

fn bench_float_format(c: &mut Criterion) {
    let tokens = Tokens::from_json(&corpus("canada.json"), |_, _| true);
    let values: Vec<f64> = tokens
        .texts()
        .iter()
        .map(|text| text.parse().expect("f64"))
        .collect();
    let values = values.as_slice();
    let mut group = c.benchmark_group("float_format/canada.json");
    group.throughput(Throughput::Elements(values.len() as u64));
    group.bench_function("format_f64", |b| {
        b.iter(|| {
            let mut out = [0u8; float_format::MAX_FLOAT_LEN];
            let mut total = 0;
            for &v in values {
                total += float_format::format_f64(black_box(v), &mut out);
                black_box(&out);
            }
            total
        })
    });
    group.bench_function("zmij", |b| {
        b.iter(|| {
            let mut buffer = zmij::Buffer::new();
            let mut total = 0;
            for &v in values {
                total += black_box(buffer.format_finite(black_box(v))).len();
            }
            total
        })
    });
    group.bench_function("zmij+copy", |b| {
        b.iter(|| {
            let mut buffer = zmij::Buffer::new();
            let mut out = [0u8; float_format::MAX_FLOAT_LEN];
            let mut total = 0;
            for &v in values {
                let text = buffer.format_finite(black_box(v)).as_bytes();
                out[..text.len()].copy_from_slice(text);
                black_box(&out);
                total += text.len();
            }
            total
        })
    });
    group.bench_function("ryu", |b| {
        b.iter(|| {
            let mut buffer = ryu::Buffer::new();
            let mut total = 0;
            for &v in values {
                total += black_box(buffer.format_finite(black_box(v))).len();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_int_parse,
    bench_int_format,
    bench_float_parse,
    bench_float_format
);
criterion_main!(benches);

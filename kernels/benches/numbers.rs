//! Number kernels against the usual alternatives, on the same inputs in the same run:
//! integer parse (vs `str::parse`), integer format (vs `itoa`), float parse (vs `str::parse`),
//! float format (vs `ryu` and `zmij`). Each group has the AVX2 twin (when the CPU has it), the
//! scalar twin and the alternative.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jitson_kernels::number::scan_number;
use jitson_kernels::{avx2_supported, int_format, int_parse};

/// The number tokens of a JSON document, concatenated with `,` after each, and where each
/// starts and ends.
struct Tokens {
    buf: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

impl Tokens {
    /// Collects the number tokens of `json` (outside strings) that `keep` accepts.
    fn from_json(json: &[u8], keep: impl Fn(&[u8], bool) -> bool) -> Tokens {
        let mut tokens = Tokens {
            buf: Vec::new(),
            spans: Vec::new(),
        };
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

    /// Tokens from strings.
    fn from_texts(texts: impl IntoIterator<Item = String>) -> Tokens {
        let mut tokens = Tokens {
            buf: Vec::new(),
            spans: Vec::new(),
        };
        for text in texts {
            tokens.push(text.as_bytes());
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

    fn text(&self, (start, end): (usize, usize)) -> &str {
        std::str::from_utf8(&self.buf[start..end]).expect("ASCII token")
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

fn int_parse_group(c: &mut Criterion, name: &str, tokens: &Tokens) {
    let mut group = c.benchmark_group(format!("int_parse/{name}"));
    group.throughput(Throughput::Bytes(tokens.token_bytes()));
    let buf = tokens.buf.as_slice();
    if avx2_supported() {
        group.bench_function("avx2", |b| {
            b.iter(|| {
                let mut sum = 0i64;
                for &(start, _) in &tokens.spans {
                    // SAFETY: AVX2 support was checked.
                    let (v, _) = unsafe { int_parse::avx2::parse_i64(black_box(buf), start) }
                        .expect("integer");
                    sum = sum.wrapping_add(v);
                }
                sum
            })
        });
    }
    group.bench_function("scalar", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for &(start, _) in &tokens.spans {
                let (v, _) = int_parse::scalar::parse_i64(black_box(buf), start).expect("integer");
                sum = sum.wrapping_add(v);
            }
            sum
        })
    });
    group.bench_function("std_parse", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for &span in &tokens.spans {
                let v: i64 = black_box(tokens.text(span)).parse().expect("integer");
                sum = sum.wrapping_add(v);
            }
            sum
        })
    });
    group.finish();
}

fn int_parse_u64_group(c: &mut Criterion, name: &str, tokens: &Tokens) {
    let mut group = c.benchmark_group(format!("int_parse/{name}"));
    group.throughput(Throughput::Bytes(tokens.token_bytes()));
    let buf = tokens.buf.as_slice();
    if avx2_supported() {
        group.bench_function("avx2", |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for &(start, _) in &tokens.spans {
                    // SAFETY: AVX2 support was checked.
                    let (v, _) = unsafe { int_parse::avx2::parse_u64(black_box(buf), start) }
                        .expect("integer");
                    sum = sum.wrapping_add(v);
                }
                sum
            })
        });
    }
    group.bench_function("scalar", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &(start, _) in &tokens.spans {
                let (v, _) = int_parse::scalar::parse_u64(black_box(buf), start).expect("integer");
                sum = sum.wrapping_add(v);
            }
            sum
        })
    });
    group.bench_function("std_parse", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &span in &tokens.spans {
                let v: u64 = black_box(tokens.text(span)).parse().expect("integer");
                sum = sum.wrapping_add(v);
            }
            sum
        })
    });
    group.finish();
}

fn bench_int_parse(c: &mut Criterion) {
    for name in ["citm_catalog.json", "twitter.json"] {
        let tokens = Tokens::from_json(&corpus(name), |_, is_integer| is_integer);
        int_parse_group(c, name, &tokens);
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let random = Tokens::from_texts((0..10_000).map(|_| rng.u64_of_random_length().to_string()));
    int_parse_u64_group(c, "random_u64_1_to_20_digits", &random);
}

fn int_format_group<T: Copy + itoa::Integer>(
    c: &mut Criterion,
    name: &str,
    values: &[T],
    avx2: impl Fn(T, &mut [u8; int_format::MAX_INT_LEN]) -> usize,
    scalar: impl Fn(T, &mut [u8; int_format::MAX_INT_LEN]) -> usize,
) {
    let mut group = c.benchmark_group(format!("int_format/{name}"));
    group.throughput(Throughput::Elements(values.len() as u64));
    let mut out = [0u8; int_format::MAX_INT_LEN];
    if avx2_supported() {
        group.bench_function("avx2", |b| {
            b.iter(|| {
                let mut total = 0;
                for &v in values {
                    total += avx2(black_box(v), &mut out);
                    black_box(&out);
                }
                total
            })
        });
    }
    group.bench_function("scalar", |b| {
        b.iter(|| {
            let mut total = 0;
            for &v in values {
                total += scalar(black_box(v), &mut out);
                black_box(&out);
            }
            total
        })
    });
    group.bench_function("itoa", |b| {
        b.iter(|| {
            let mut total = 0;
            let mut buffer = itoa::Buffer::new();
            for &v in values {
                total += black_box(buffer.format(black_box(v))).len();
            }
            total
        })
    });
    group.finish();
}

fn bench_int_format(c: &mut Criterion) {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mixed: Vec<u64> = (0..10_000).map(|_| rng.u64_of_random_bits()).collect();
    let mixed_signed: Vec<i64> = mixed
        .iter()
        .map(|&v| {
            if v & 1 == 0 {
                v as i64
            } else {
                (v as i64).wrapping_neg()
            }
        })
        .collect();
    let digits: Vec<u64> = (0..10_000).map(|_| rng.u64_of_random_length()).collect();
    let small: Vec<u64> = (0..10_000).map(|_| rng.next_u64() % 1000).collect();
    // SAFETY (both): only called when `avx2_supported()` said yes.
    let format_u64_avx2 = |v, out: &mut _| unsafe { int_format::avx2::format_u64(v, out) };
    let format_i64_avx2 = |v, out: &mut _| unsafe { int_format::avx2::format_i64(v, out) };
    int_format_group(
        c,
        "u64_random_bits",
        &mixed,
        format_u64_avx2,
        int_format::scalar::format_u64,
    );
    int_format_group(
        c,
        "i64_random_bits",
        &mixed_signed,
        format_i64_avx2,
        int_format::scalar::format_i64,
    );
    int_format_group(
        c,
        "u64_random_digit_count",
        &digits,
        format_u64_avx2,
        int_format::scalar::format_u64,
    );
    int_format_group(
        c,
        "u64_below_1000",
        &small,
        format_u64_avx2,
        int_format::scalar::format_u64,
    );
}

criterion_group!(benches, bench_int_parse, bench_int_format);
criterion_main!(benches);

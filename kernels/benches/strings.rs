//! String kernels against their scalar twins and the usual alternative crates, in MB/s:
//! whitespace skipping, string scanning, unescaping, re-escaping, escaping, UTF-8
//! validation and minifying, on long synthetic runs and on the real corpus (twitter.json,
//! twitterescaped.json, citm_catalog.json, canada.json).

use std::hint::black_box;

use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};
use jitson_kernels::escape::{self, EscapeMode};
use jitson_kernels::unescape::{self, Surrogates};
use jitson_kernels::{avx2_supported, minify, reescape, string_scan, utf8, whitespace};

/// Length of the long synthetic inputs.
const LONG: usize = 64 * 1024;

fn corpus(name: &str) -> Vec<u8> {
    let path = format!("{}/../testdata/bench/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"))
}

/// `(start, end)` of every string body in a valid JSON document: `start` just after the
/// opening quote, `end` at the closing one.
fn string_bodies(doc: &[u8]) -> Vec<(usize, usize)> {
    let mut bodies = Vec::new();
    let mut i = 0;
    while i < doc.len() {
        if doc[i] == b'"' {
            let start = i + 1;
            let mut j = start;
            while doc[j] != b'"' {
                j += if doc[j] == b'\\' { 2 } else { 1 };
            }
            bodies.push((start, j));
            i = j;
        }
        i += 1;
    }
    bodies
}

/// Start of every whitespace run in `doc`.
fn whitespace_runs(doc: &[u8]) -> Vec<usize> {
    (0..doc.len())
        .filter(|&i| {
            whitespace::is_whitespace(doc[i]) && (i == 0 || !whitespace::is_whitespace(doc[i - 1]))
        })
        .collect()
}

/// 64 KiB of escape-free printable ASCII.
fn long_ascii() -> Vec<u8> {
    (0..LONG).map(|i| b'a' + (i % 26) as u8).collect()
}

/// Registers `f` as the AVX2 variant when this machine has it.
fn bench_avx2(group: &mut BenchmarkGroup<'_, WallTime>, f: impl FnMut()) {
    if avx2_supported() {
        let mut f = f;
        group.bench_function("avx2", |b| b.iter(&mut f));
    }
}

fn skip_whitespace(c: &mut Criterion) {
    let position = |buf: &[u8], pos: usize| {
        buf[pos..]
            .iter()
            .position(|&b| !whitespace::is_whitespace(b))
            .map_or(buf.len(), |k| pos + k)
    };
    let mut long: Vec<u8> = (0..LONG)
        .map(|i| if i % 61 == 60 { b'\n' } else { b' ' })
        .collect();
    long.push(b'x');
    let citm = corpus("citm_catalog.json");
    let runs = whitespace_runs(&citm);
    for (name, doc, starts) in [
        ("long_run_64k", &long, vec![0]),
        ("citm_catalog", &citm, runs),
    ] {
        let mut group = c.benchmark_group(format!("skip_whitespace/{name}"));
        group.throughput(Throughput::Bytes(doc.len() as u64));
        let each = |skip: &dyn Fn(&[u8], usize) -> usize| {
            starts.iter().map(|&p| skip(doc, p)).sum::<usize>()
        };
        bench_avx2(&mut group, || {
            black_box(each(&|buf, pos| {
                // SAFETY: registered only when AVX2 is supported.
                unsafe { whitespace::avx2::skip_whitespace(black_box(buf), pos) }
            }));
        });
        group.bench_function("scalar", |b| {
            b.iter(|| each(&|buf, pos| whitespace::scalar::skip_whitespace(black_box(buf), pos)))
        });
        group.bench_function("iter_position", |b| {
            b.iter(|| each(&|buf, pos| position(black_box(buf), pos)))
        });
        group.finish();
    }
}

fn scan_string(c: &mut Criterion) {
    /// The alternative: memchr2 to the next quote or backslash, stepping over escapes.
    fn memchr_scan(buf: &[u8], start: usize) -> usize {
        let mut i = start;
        while let Some(k) = memchr::memchr2(b'"', b'\\', &buf[i..]) {
            if buf[i + k] == b'"' {
                return i + k;
            }
            i += k + 2;
        }
        buf.len()
    }
    let mut long = long_ascii();
    long.push(b'"');
    let twitter = corpus("twitter.json");
    let bodies = string_bodies(&twitter);
    let body_bytes: usize = bodies.iter().map(|(s, e)| e - s).sum();
    let twitter_starts: Vec<usize> = bodies.iter().map(|&(s, _)| s).collect();
    for (name, doc, starts, bytes) in [
        ("long_ascii_64k", &long, vec![0], LONG),
        ("twitter_strings", &twitter, twitter_starts, body_bytes),
    ] {
        let mut group = c.benchmark_group(format!("scan_string/{name}"));
        group.throughput(Throughput::Bytes(bytes as u64));
        let each = |scan: &dyn Fn(&[u8], usize) -> usize| {
            starts.iter().map(|&p| scan(doc, p)).sum::<usize>()
        };
        bench_avx2(&mut group, || {
            black_box(each(&|buf, p| {
                // SAFETY: registered only when AVX2 is supported.
                unsafe { string_scan::avx2::scan_string(black_box(buf), p) }
                    .unwrap()
                    .end
            }));
        });
        group.bench_function("scalar", |b| {
            b.iter(|| {
                each(&|buf, p| {
                    string_scan::scalar::scan_string(black_box(buf), p)
                        .unwrap()
                        .end
                })
            })
        });
        group.bench_function("memchr2", |b| {
            b.iter(|| each(&|buf, p| memchr_scan(black_box(buf), p)))
        });
        group.finish();
    }
}

fn unescape(c: &mut Criterion) {
    let escaped = corpus("twitterescaped.json");
    let twitter_bodies: Vec<&[u8]> = string_bodies(&escaped)
        .into_iter()
        .map(|(s, e)| &escaped[s..e])
        .collect();
    let mut sparse = Vec::new();
    while sparse.len() < LONG {
        sparse.extend_from_slice(&long_ascii()[..400]);
        sparse.extend_from_slice(br#"\n\"\u00e9\t"#);
    }
    for (name, bodies) in [
        ("twitterescaped_strings", twitter_bodies),
        ("long_sparse_escapes", vec![&sparse[..]]),
    ] {
        let quoted: Vec<Vec<u8>> = bodies.iter().map(|b| [b"\"", *b, b"\""].concat()).collect();
        let mut group = c.benchmark_group(format!("unescape/{name}"));
        group.throughput(Throughput::Bytes(
            bodies.iter().map(|b| b.len() as u64).sum(),
        ));
        let mut out = vec![0u8; bodies.iter().map(|b| b.len()).max().unwrap_or(0)];
        bench_avx2(&mut group, || {
            for body in &bodies {
                // SAFETY: registered only when AVX2 is supported.
                let n = unsafe {
                    unescape::avx2::unescape_into(black_box(body), &mut out, Surrogates::Strict)
                };
                black_box(n.unwrap());
            }
        });
        group.bench_function("scalar", |b| {
            b.iter(|| {
                for body in &bodies {
                    let n = unescape::scalar::unescape_into(
                        black_box(body),
                        &mut out,
                        Surrogates::Strict,
                    );
                    black_box(n.unwrap());
                }
            })
        });
        group.bench_function("serde_json_string", |b| {
            b.iter(|| {
                for q in &quoted {
                    black_box(serde_json::from_slice::<String>(black_box(q)).unwrap());
                }
            })
        });
        group.finish();
    }
}

/// Re-escaping string bodies in one pass against unescaping then escaping (the two steps it
/// replaces in `write_raw`), on twitterescaped.json's bodies.
fn reescape(c: &mut Criterion) {
    let escaped = corpus("twitterescaped.json");
    let bodies: Vec<&[u8]> = string_bodies(&escaped)
        .into_iter()
        .map(|(s, e)| &escaped[s..e])
        .collect();
    let mut group = c.benchmark_group("reescape_minimal/twitterescaped_strings");
    group.throughput(Throughput::Bytes(
        bodies.iter().map(|b| b.len() as u64).sum(),
    ));
    let mut out = Vec::new();
    bench_avx2(&mut group, || {
        out.clear();
        for body in &bodies {
            // SAFETY: registered only when AVX2 is supported.
            let r = unsafe {
                reescape::avx2::reescape_minimal(black_box(body), &mut out, Surrogates::Strict)
            };
            r.unwrap();
        }
        black_box(&out);
    });
    group.bench_function("scalar", |b| {
        b.iter(|| {
            out.clear();
            for body in &bodies {
                let r = reescape::scalar::reescape_minimal(
                    black_box(body),
                    &mut out,
                    Surrogates::Strict,
                );
                r.unwrap();
            }
            black_box(&out);
        })
    });
    let mut text = Vec::new();
    group.bench_function("unescape_then_escape", |b| {
        b.iter(|| {
            out.clear();
            for body in &bodies {
                text.clear();
                unescape::unescape(black_box(body), &mut text, Surrogates::Strict).unwrap();
                let text = std::str::from_utf8(&text).unwrap();
                escape::escape_str(text, EscapeMode::Minimal, &mut out);
            }
            black_box(&out);
        })
    });
    group.finish();
}

fn escape(c: &mut Criterion) {
    let long = String::from_utf8(long_ascii()).unwrap();
    let twitter = corpus("twitter.json");
    let mut strings = Vec::new();
    collect_strings(&serde_json::from_slice(&twitter).unwrap(), &mut strings);
    for (name, strings) in [("long_ascii_64k", vec![long]), ("twitter_strings", strings)] {
        let mut group = c.benchmark_group(format!("escape_minimal/{name}"));
        group.throughput(Throughput::Bytes(
            strings.iter().map(|s| s.len() as u64).sum(),
        ));
        let mut out = Vec::with_capacity(
            strings
                .iter()
                .map(|s| escape::max_escaped_len(s.len()))
                .sum(),
        );
        bench_avx2(&mut group, || {
            out.clear();
            for s in &strings {
                // SAFETY: registered only when AVX2 is supported.
                unsafe { escape::avx2::escape_str(black_box(s), EscapeMode::Minimal, &mut out) };
            }
            black_box(&out);
        });
        group.bench_function("scalar", |b| {
            b.iter(|| {
                out.clear();
                for s in &strings {
                    escape::scalar::escape_str(black_box(s), EscapeMode::Minimal, &mut out);
                }
                black_box(&out);
            })
        });
        group.bench_function("serde_json_to_writer", |b| {
            b.iter(|| {
                out.clear();
                for s in &strings {
                    serde_json::to_writer(&mut out, black_box(s.as_str())).unwrap();
                }
                black_box(&out);
            })
        });
        group.finish();
    }
}

/// Every string (keys included) of a JSON value.
fn collect_strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|i| collect_strings(i, out)),
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                collect_strings(v, out);
            }
        }
        _ => {}
    }
}

/// A UTF-8 validator under test: true when the input is valid.
type Validator = dyn Fn(&[u8]) -> bool;

fn validate_utf8(c: &mut Criterion) {
    let twitter = corpus("twitter.json");
    let twitter_bodies: Vec<&[u8]> = string_bodies(&twitter)
        .into_iter()
        .map(|(s, e)| &twitter[s..e])
        .collect();
    // What the string scan hands to the validator: bodies holding a non-ASCII byte.
    let twitter_non_ascii: Vec<&[u8]> = twitter_bodies
        .iter()
        .copied()
        .filter(|b| !b.is_ascii())
        .collect();
    let long = long_ascii();
    for (name, inputs) in [
        ("twitter_whole", vec![&twitter[..]]),
        ("long_ascii_64k", vec![&long[..]]),
        ("twitter_strings", twitter_bodies),
        ("twitter_non_ascii_strings", twitter_non_ascii),
    ] {
        let mut group = c.benchmark_group(format!("validate_utf8/{name}"));
        group.throughput(Throughput::Bytes(
            inputs.iter().map(|b| b.len() as u64).sum(),
        ));
        let valid =
            |check: &dyn Fn(&[u8]) -> bool| inputs.iter().filter(|i| check(black_box(i))).count();
        bench_avx2(&mut group, || {
            // SAFETY: registered only when AVX2 is supported.
            black_box(valid(&|i| unsafe { utf8::avx2::validate_utf8(i) }.is_ok()));
        });
        let variants: [(&str, &Validator); 5] = [
            ("scalar", &|i| utf8::scalar::validate_utf8(i).is_ok()),
            ("dispatch", &|i| utf8::validate_utf8(i).is_ok()),
            ("std_from_utf8", &|i| std::str::from_utf8(i).is_ok()),
            ("simdutf8_compat", &|i| {
                simdutf8::compat::from_utf8(i).is_ok()
            }),
            ("simdutf8_basic", &|i| simdutf8::basic::from_utf8(i).is_ok()),
        ];
        for (variant, check) in variants {
            group.bench_function(variant, |b| b.iter(|| valid(check)));
        }
        group.finish();
    }
}

/// Whole documents minified (whitespace outside strings dropped), into a reused buffer.
fn minify_documents(c: &mut Criterion) {
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let doc = corpus(name);
        let mut group = c.benchmark_group(format!("minify/{name}"));
        group.throughput(Throughput::Bytes(doc.len() as u64));
        let mut out = Vec::with_capacity(doc.len());
        bench_avx2(&mut group, || {
            out.clear();
            // SAFETY: registered only when AVX2 is supported.
            unsafe { minify::avx2::minify(black_box(&doc), &mut out) };
            black_box(&out);
        });
        let mut out = Vec::with_capacity(doc.len());
        group.bench_function("scalar", |b| {
            b.iter(|| {
                out.clear();
                minify::scalar::minify(black_box(&doc), &mut out);
                black_box(&out);
            })
        });
        group.finish();
    }
}

criterion_group!(
    benches,
    skip_whitespace,
    scan_string,
    unescape,
    reescape,
    escape,
    validate_utf8,
    minify_documents
);
criterion_main!(benches);

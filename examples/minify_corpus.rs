//! Minifies the benchmark corpus with jitson's byte kernels and checks the result.
//!
//! For every document in `testdata/bench/` (or the files named on the command line) this
//! validates the document, then rewrites it as compact JSON with every string unescaped and
//! re-escaped and every number parsed and re-formatted (shortest round-trip floats), and
//! minifies it with the `minify` kernel (whitespace dropped, every token kept as written);
//! checks that serde_json reads the same value from the input and from both outputs, and
//! reports both throughputs in MB/s on the kernel backend this CPU selected.
//!
//! Run: `cargo run --release --example minify_corpus` (set `JITSON_KERNELS=scalar` to force
//! the scalar twins and compare).

use std::error::Error;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use jitson::kernels::append::{append_f64, append_i64, append_u64};
use jitson::kernels::escape::{EscapeMode, escape_str};
use jitson::kernels::float_parse::{FloatOverflow, parse_f64};
use jitson::kernels::int_parse::{parse_i64, parse_u64};
use jitson::kernels::minify::minify as minify_verbatim;
use jitson::kernels::number::scan_number;
use jitson::kernels::skip::{DEFAULT_MAX_DEPTH, validate_document};
use jitson::kernels::string_scan::scan_string;
use jitson::kernels::unescape::{Surrogates, unescape};
use jitson::kernels::whitespace::skip_whitespace;
use jitson::kernels::{ErrorKind, KernelError, backend};

/// What one minification pass saw.
#[derive(Default, Debug, Clone, Copy, PartialEq)]
struct Counts {
    strings: usize,
    escaped_strings: usize,
    integers: usize,
    floats: usize,
}

/// Rewrites the (already validated) JSON text `input` compactly into `out`.
fn minify(input: &[u8], out: &mut Vec<u8>, scratch: &mut Vec<u8>) -> Result<Counts, KernelError> {
    let mut counts = Counts::default();
    let mut i = 0;
    loop {
        i = skip_whitespace(input, i);
        let Some(&b) = input.get(i) else {
            return Ok(counts);
        };
        match b {
            b'"' => {
                let scan = scan_string(input, i + 1)?;
                let body = &input[i + 1..scan.end];
                let text = if scan.has_escapes {
                    scratch.clear();
                    unescape(body, scratch, Surrogates::Strict)?;
                    counts.escaped_strings += 1;
                    scratch.as_slice()
                } else {
                    body
                };
                let text = std::str::from_utf8(text).map_err(|e| {
                    KernelError::new(ErrorKind::InvalidUtf8, i + 1 + e.valid_up_to())
                })?;
                escape_str(text, EscapeMode::Minimal, out);
                counts.strings += 1;
                i = scan.end + 1;
            }
            b'-' | b'0'..=b'9' => {
                let token = scan_number(input, i)?;
                if token.is_integer {
                    write_integer(input, i, out)?;
                    counts.integers += 1;
                } else {
                    let (v, _) = parse_f64(input, i, FloatOverflow::Error)?;
                    append_f64(v, out);
                    counts.floats += 1;
                }
                i = token.end;
            }
            b't' | b'n' => {
                out.extend_from_slice(&input[i..i + 4]);
                i += 4;
            }
            b'f' => {
                out.extend_from_slice(b"false");
                i += 5;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
}

/// Re-formats the integer at `pos`: as i64 when it fits, else as u64.
fn write_integer(input: &[u8], pos: usize, out: &mut Vec<u8>) -> Result<(), KernelError> {
    match parse_i64(input, pos) {
        Ok((v, _)) => append_i64(v, out),
        Err(e) if e.kind == ErrorKind::NumberOutOfRange => {
            append_u64(parse_u64(input, pos)?.0, out)
        }
        Err(e) => return Err(e),
    }
    Ok(())
}

/// How far apart serde_json's reading of a float and the correctly rounded one may be.
const MAX_ULPS_APART: u64 = 4;

/// JSON equality, with floats allowed to differ in the last bits: serde_json's default float
/// parser is not correctly rounded (its `float_roundtrip` feature is), and reads some of
/// canada.json's 17-digit decimals two ulps away from the correctly rounded value jitson
/// wrote back (checked exactly against `str::parse` in the kernel tests).
fn same_value(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::{Array, Number, Object};
    match (a, b) {
        (Number(x), Number(y)) if x.is_f64() || y.is_f64() => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => {
                x.to_bits().abs_diff(y.to_bits()) <= MAX_ULPS_APART && x.signum() == y.signum()
            }
            _ => false,
        },
        (Array(x), Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y))
        }
        (Object(x), Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
        }
        _ => a == b,
    }
}

/// Median time of `runs` calls of `pass` on `input`, each into an emptied output.
fn median_time(
    input: &[u8],
    runs: usize,
    mut pass: impl FnMut(&[u8], &mut Vec<u8>) -> Result<(), KernelError>,
) -> Result<Duration, KernelError> {
    let mut out = Vec::with_capacity(input.len());
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        out.clear();
        let start = Instant::now();
        pass(input, &mut out)?;
        times.push(start.elapsed());
    }
    times.sort_unstable();
    Ok(times[runs / 2])
}

fn corpus_files() -> Result<Vec<PathBuf>, Box<dyn Error>> {
    let named: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if !named.is_empty() {
        return Ok(named);
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/bench");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

fn main() -> Result<(), Box<dyn Error>> {
    println!("kernel backend: {:?}", backend());
    println!(
        "{:<22} {:>10} {:>10} {:>8} {:>8} {:>8} {:>8} {:>10} {:>10} {:>10}  same value",
        "document",
        "bytes",
        "rewritten",
        "strings",
        "escaped",
        "ints",
        "floats",
        "MB/s",
        "verbatim",
        "MB/s"
    );
    let mut all_same = true;
    for path in corpus_files()? {
        let input = std::fs::read(&path)?;
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if let Err(e) = validate_document(&input, DEFAULT_MAX_DEPTH) {
            println!("{name:<22} {:>10} invalid JSON: {e}", input.len());
            all_same = false;
            continue;
        }
        let (mut out, mut scratch) = (Vec::new(), Vec::new());
        let counts = minify(&input, &mut out, &mut scratch)?;
        let mut verbatim = Vec::new();
        minify_verbatim(&input, &mut verbatim);
        let value = serde_json::from_slice(&input)?;
        let same = same_value(&value, &serde_json::from_slice(&out)?)
            && same_value(&value, &serde_json::from_slice(&verbatim)?);
        all_same &= same;
        let runs = (50_000_000 / input.len().max(1)).clamp(5, 2001);
        let mbps = |time: Duration| input.len() as f64 / time.as_secs_f64() / 1e6;
        let rewrite = median_time(&input, runs, |input, out| {
            minify(input, out, &mut scratch).map(|_| ())
        })?;
        let kernel = median_time(&input, runs, |input, out| {
            minify_verbatim(input, out);
            Ok(())
        })?;
        println!(
            "{name:<22} {:>10} {:>10} {:>8} {:>8} {:>8} {:>8} {:>10.0} {:>10} {:>10.0}  {}",
            input.len(),
            out.len(),
            counts.strings,
            counts.escaped_strings,
            counts.integers,
            counts.floats,
            mbps(rewrite),
            verbatim.len(),
            mbps(kernel),
            if same { "yes" } else { "NO" }
        );
    }
    if !all_same {
        return Err("a minified document differs from its input".into());
    }
    Ok(())
}

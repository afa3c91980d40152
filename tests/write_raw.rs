//! `write_raw` (the rewriting behind native transcode) against a reference that reads every
//! token and writes it again, the way `write_raw` worked before it copied what needs no
//! change: the corpus documents, every JSONTestSuite `y_` case, random documents, and random
//! number tokens (the copied ones must be exactly what reading and formatting writes), under
//! every escape mode and every big-integer policy.

#[path = "value_support/mod.rs"]
mod value_support;

use jitson_jit::encode::{num_ref, write_raw};
use jitson_jit::ir::BigInts;
use jitson_jit::read_number;
use jitson_kernels::escape::{EscapeMode, escape_str};
use jitson_kernels::string_scan::scan_string;
use jitson_kernels::unescape::{Surrogates, unescape};
use jitson_kernels::whitespace::skip_whitespace;
use value_support::{JsonGen, Rng};

const MODES: [EscapeMode; 3] = [EscapeMode::Minimal, EscapeMode::Ascii, EscapeMode::Html];
const POLICIES: [BigInts; 3] = [BigInts::F64, BigInts::Error, BigInts::Raw];

/// Token by token: whitespace dropped, each string unescaped and escaped again, each number
/// read and formatted again, every other byte copied; stops where a token does not read.
fn reference(raw: &[u8], mode: EscapeMode, big: BigInts, out: &mut Vec<u8>) {
    let big = if big == BigInts::Raw {
        big
    } else {
        BigInts::F64
    };
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b' ' | b'\t' | b'\n' | b'\r' => i = skip_whitespace(raw, i),
            b'"' => {
                let Ok(scan) = scan_string(raw, i + 1) else {
                    return;
                };
                let mut text = Vec::new();
                if unescape(&raw[i + 1..scan.end], &mut text, Surrogates::Strict).is_err() {
                    return;
                }
                escape_str(std::str::from_utf8(&text).unwrap_or(""), mode, out);
                i = scan.end + 1;
            }
            b'-' | b'0'..=b'9' => match read_number(raw, i, big) {
                Ok((n, end)) => {
                    num_ref(n, out);
                    i = end;
                }
                Err(_) => return,
            },
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
}

/// `write_raw` and the reference agree on `raw` in every mode and policy, appending after
/// existing output.
fn check(name: &str, raw: &[u8]) {
    for mode in MODES {
        for big in POLICIES {
            let mut want = b"[".to_vec();
            reference(raw, mode, big, &mut want);
            let mut got = b"[".to_vec();
            write_raw(raw, mode, big, &mut got);
            if got != want {
                panic!(
                    "{name} {mode:?} {big:?}: {:?}\nwant {:?}\n got {:?}",
                    String::from_utf8_lossy(&raw[..raw.len().min(300)]),
                    String::from_utf8_lossy(&want[..want.len().min(300)]),
                    String::from_utf8_lossy(&got[..got.len().min(300)]),
                );
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "megabytes of input: too slow under Miri")]
fn corpus_documents() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/bench");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("testdata/bench") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            check(
                &path.display().to_string(),
                &std::fs::read(&path).expect("read"),
            );
            seen += 1;
        }
    }
    assert!(seen >= 5, "the corpus documents are there");
}

#[test]
#[cfg_attr(miri, ignore = "file system access is isolated under Miri")]
fn json_test_suite_accepted_cases() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/jsontestsuite");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("testdata/jsontestsuite") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("y_") && name.ends_with(".json") {
            check(name, &std::fs::read(&path).expect("read"));
            seen += 1;
        }
    }
    assert!(seen >= 70, "the y_ cases are there ({seen})");
}

#[test]
fn random_documents() {
    let mut generator = JsonGen::new(0x5772_17e5);
    for k in 0..if cfg!(miri) { 5 } else { 3000 } {
        check(&format!("document {k}"), generator.document().as_bytes());
    }
}

#[test]
fn strings_that_stop_the_rewrite() {
    // A lone surrogate does not decode: the rewrite stops before the string, as it always did.
    for raw in [
        r#"[1, "a\ud800b", 2]"#,
        r#"{"k": "\udc00"}"#,
        r#"["\ud83d\ude00", "\ud83d"]"#,
        r#"["x\/y\n\u001F\u0022\\"]"#,
    ] {
        check(raw, raw.as_bytes());
    }
}

/// Decimal exponents around the formatter's switches between fixed and exponent notation,
/// and around the ends of the `f64` range.
const EXPONENTS: &[i32] = &[
    -330, -325, -324, -323, -310, -308, -307, -300, -20, -8, -7, -6, -5, -4, -1, 0, 1, 14, 15, 16,
    17, 20, 21, 22, 300, 307, 308, 309,
];

/// One random well-formed number token: 1 to 25 digits with a random point, fractions with
/// and without trailing zeros, values below one, exponents (often near the boundaries), signs.
fn number_token(rng: &mut Rng) -> String {
    let mut token = String::new();
    if rng.one_in(2) {
        token.push('-');
    }
    let digits: String = (0..1 + rng.below(25))
        .map(|_| char::from(b'0' + rng.below(10) as u8))
        .collect();
    let digits = if rng.one_in(4) {
        // Few significant digits, then zeros: integral values and round fractions.
        let keep = 1 + rng.below(digits.len());
        format!("{}{}", &digits[..keep], "0".repeat(digits.len() - keep))
    } else {
        digits
    };
    match rng.below(3) {
        // An integer part, then maybe a fraction.
        0 | 1 => {
            let int_len = 1 + rng.below(digits.len());
            let int = digits[..int_len].trim_start_matches('0');
            token.push_str(if int.is_empty() { "0" } else { int });
            let frac = &digits[int_len..];
            if !frac.is_empty() || rng.one_in(3) {
                token.push('.');
                token.push_str(if frac.is_empty() { "0" } else { frac });
            }
        }
        // Below one: `0.`, some leading zeros, the digits.
        _ => {
            token.push_str("0.");
            token.push_str(&"0".repeat(rng.below(8)));
            token.push_str(&digits);
        }
    }
    if rng.one_in(4) {
        token.push_str(&"0".repeat(1 + rng.below(3)));
        if !token.contains('.') {
            token.push_str(".0");
        }
    }
    if rng.one_in(4) {
        token.push(rng.pick(&['e', 'E']));
        let exponent = if rng.one_in(2) {
            rng.pick(EXPONENTS)
        } else {
            rng.below(41) as i32 - 20
        };
        let sign = if exponent < 0 {
            "-"
        } else {
            rng.pick(&["", "+"])
        };
        token.push_str(&format!("{sign}{}", exponent.abs()));
    }
    token
}

/// Tokens at the edges of the copying rule: zeros, the fixed-notation range's ends, 15 and 16
/// significant digits, the 64-bit integer bounds, subnormals, the ends of the `f64` range.
const EDGE_TOKENS: &[&str] = &[
    "0",
    "-0",
    "0.0",
    "-0.0",
    "0.00",
    "-0.00",
    "1",
    "-1",
    "1.0",
    "1.00",
    "10.0",
    "100.0",
    "0.1",
    "0.10",
    "-0.1",
    "0.00001",
    "0.000012345678901",
    "0.000001",
    "0.0000099999",
    "1e-7",
    "1e-5",
    "1e-6",
    "1e15",
    "1e16",
    "1e21",
    "1E+2",
    "123456789012345.0",
    "1234567890123456.0",
    "1000000000000000.0",
    "9999999999999998.0",
    "10000000000000000.0",
    "999999999999999.9",
    "99999999999999.99",
    "0.123456789012345",
    "0.1234567890123456",
    "123456789.123456",
    "12345678.1234567",
    "9007199254740993",
    "9007199254740993.0",
    "999999999999999999",
    "1000000000000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "4.9e-324",
    "5e-324",
    "2.2250738585072014e-308",
    "2.2250738585072011e-308",
    "1.7976931348623157e308",
    "1.7976931348623159e308",
    "1e400",
    "-65.613616999999977",
    "43.420273000000009",
    "-65.625",
    "0.30000000000000004",
    "0.3",
    "345.67",
];

/// The written form of the single token `token`: `write_raw`'s against reading it and
/// formatting the value (nothing from either when it does not read). `write_raw` reads big
/// integers as floats under `BigInts::Error` too.
fn check_token(token: &str) {
    for big in POLICIES {
        let read_as = if big == BigInts::Raw {
            big
        } else {
            BigInts::F64
        };
        let mut want = Vec::new();
        if let Ok((n, end)) = read_number(token.as_bytes(), 0, read_as) {
            assert_eq!(end, token.len(), "{token}: the whole token reads");
            num_ref(n, &mut want);
        }
        let mut got = Vec::new();
        write_raw(token.as_bytes(), EscapeMode::Minimal, big, &mut got);
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want),
            "{token} {big:?}"
        );
    }
}

#[test]
fn edge_number_tokens() {
    for token in EDGE_TOKENS {
        check_token(token);
    }
}

#[test]
fn random_number_tokens() {
    let mut rng = Rng::new(0x0ddd_1617);
    let mut copied = 0;
    let rounds = if cfg!(miri) { 200 } else { 300_000 };
    for _ in 0..rounds {
        let token = number_token(&mut rng);
        check_token(&token);
        let mut out = Vec::new();
        if let Ok((n, _)) = read_number(token.as_bytes(), 0, BigInts::F64) {
            num_ref(n, &mut out);
        }
        copied += usize::from(out == token.as_bytes());
    }
    // The rule must be exercised: many tokens are their own written form.
    assert!(
        copied > rounds / 6,
        "{copied} tokens are their own written form"
    );
}

/// Tokens, strings and whitespace at every offset around the first 64-byte block's end:
/// where `write_raw` switches between copying whole blocks and walking tokens, and where a
/// block's end cuts a number, a literal or a string (or a run of backslashes, escaped quotes
/// and escapes serde_json writes alike or otherwise).
#[test]
fn tokens_across_block_boundaries() {
    let mut rng = Rng::new(0xb10c_c0de);
    let mut tokens: Vec<String> = EDGE_TOKENS.iter().map(|t| t.to_string()).collect();
    tokens.extend((0..if cfg!(miri) { 2 } else { 100 }).map(|_| number_token(&mut rng)));
    tokens.extend(
        [
            r#""a b""#,
            "\"\u{e9}  x\"",
            r#""x\"y z""#,
            r#""\u00e9 \/""#,
            r#""a\\" "#,
            r#""\\\" x\\\\""#,
            r#""\n\t\b\f\r \" \\ ""#,
            r#""q\\\\\\\\\"\\\" ]""#,
            r#""x\ny\u0041 z""#,
            r#""\\/ \\u0041""#,
            "true",
            "false",
            "null",
            "[ ]",
            r#"{ "k" : 1 , "e": true }"#,
        ]
        .map(String::from),
    );
    tokens.push(format!("\"{}\"", "w ".repeat(40)));
    tokens.push("1234567890123456789".into());
    tokens.push("-123456789012345678".into());
    for token in &tokens {
        for pad in 0..if cfg!(miri) { 3 } else { 70 } {
            for sep in [" ", "\n  ", ""] {
                let raw = format!("[{}{token},{sep}{token}{sep}]", " ".repeat(pad));
                check(token, raw.as_bytes());
            }
        }
    }
}

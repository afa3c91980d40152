//! Minify: exact outputs, the twins against a byte-by-byte reference on every special byte at
//! every position and on random text of quotes, backslashes and whitespace (any text, not
//! only JSON), inputs against a guard page, and the benchmark documents, whose minified text
//! must parse to the same value with no whitespace left outside strings.

mod common;

use std::path::PathBuf;

use common::{MiriSample, Rng, avx2, check_dispatch, for_each_guarded_suffix, special_byte_inputs};
use jitson_kernels::minify;

/// The module's rule, one byte at a time, written apart from the scalar twin: a byte is
/// dropped when it is whitespace and the unescaped quotes before it are even in number.
fn reference(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut quotes = 0usize;
    let mut backslashes = 0usize;
    for &b in text {
        let escaped = !backslashes.is_multiple_of(2);
        if b == b'"' && !escaped {
            quotes += 1;
        }
        let whitespace = b" \t\n\r".contains(&b);
        if !(whitespace && quotes.is_multiple_of(2)) {
            out.push(b);
        }
        backslashes = if b == b'\\' { backslashes + 1 } else { 0 };
    }
    out
}

/// Checks every twin on `text`, after a prefix already in the output (kept as it is).
fn check(text: &[u8]) {
    let want = reference(text);
    let run = |f: &dyn Fn(&[u8], &mut Vec<u8>)| {
        let mut out = b"prefix".to_vec();
        f(text, &mut out);
        assert_eq!(&out[..6], b"prefix", "{text:?}");
        out.split_off(6)
    };
    assert_eq!(run(&minify::scalar::minify), want, "scalar {text:?}");
    if check_dispatch() {
        assert_eq!(run(&minify::minify), want, "dispatch {text:?}");
    }
    if avx2() {
        // SAFETY: AVX2 support was checked.
        let got = run(&|t, out| unsafe { minify::avx2::minify(t, out) });
        assert_eq!(got, want, "avx2 {text:?}");
    }
}

#[test]
fn exact_outputs() {
    let cases: &[(&str, &str)] = &[
        ("", ""),
        (" \t\r\n", ""),
        ("{ \"a\" : [ 1 , 2.50 ] }\n", r#"{"a":[1,2.50]}"#),
        (r#"[ "a b" , "\" c " ]"#, r#"["a b","\" c "]"#),
        (r#"[ "\\" , " \\\" " ]"#, r#"["\\"," \\\" "]"#),
        (r#"{"k\u0020" :	"\u00e9 \/"}"#, r#"{"k\u0020":"\u00e9 \/"}"#),
        (
            "[1E400, -0.0 ,1.000000000000000000001]",
            "[1E400,-0.0,1.000000000000000000001]",
        ),
    ];
    for (text, want) in cases {
        check(text.as_bytes());
        let mut out = Vec::new();
        minify::minify(text.as_bytes(), &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), *want, "{text:?}");
    }
}

/// Under Miri a [`MiriSample`] of the inputs (the scalar twin has no blocks whose edges
/// every position would probe; this was the slowest Miri test at about 40 s).
#[test]
fn every_special_byte_at_every_position() {
    let mut sample = MiriSample::default();
    for filler in [b'a', b' ', b'"', b'\\'] {
        for text in special_byte_inputs(filler, b" \t\n\r\"\\x").filter(|_| sample.next_runs()) {
            check(&text);
        }
    }
}

#[test]
fn random_text_of_quotes_backslashes_and_whitespace() {
    let mut rng = Rng::new(0x6d69_6e69);
    let rounds = if cfg!(miri) { 20 } else { 20_000 };
    for _ in 0..rounds {
        let alphabet: &[u8] = rng.pick(&[
            &b"\"\\ \n\tab"[..],
            &b"\"\\\\\\  a"[..],
            &b"\"  aaaaaaa{}[],:"[..],
            &b"a a\"\\\r\n\xc3\xa9"[..],
        ]);
        let len = rng.below(if cfg!(miri) { 80 } else { 400 });
        check(&rng.bytes_from(alphabet, len));
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn reads_nothing_past_the_end() {
    let text = br#" { "a b" : [ 1 , "\" x" , true ] ,"c\\": null }  "#.repeat(4);
    for_each_guarded_suffix(&text, check);
}

fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/bench")
        .join(name)
}

#[test]
#[cfg_attr(
    miri,
    ignore = "megabytes of text: the byte tests above cover the scalar twin"
)]
fn benchmark_documents_keep_their_values() {
    for name in [
        "twitter.json",
        "twitterescaped.json",
        "citm_catalog.json",
        "canada.json",
        "book.json",
    ] {
        let text = std::fs::read(testdata(name)).unwrap();
        check(&text);
        let mut out = Vec::new();
        minify::minify(&text, &mut out);
        let value: serde_json::Value = serde_json::from_slice(&text).unwrap();
        let minified: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(minified, value, "{name}");
        // No whitespace is left outside strings, so minifying again changes nothing.
        let mut again = Vec::new();
        minify::minify(&out, &mut again);
        assert_eq!(again, out, "{name}: minify is idempotent");
        assert!(out.len() <= text.len(), "{name}");
    }
}

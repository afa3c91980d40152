//! Minify: exact outputs, the twins against a byte-by-byte reference on every special byte at
//! every position and on random text of quotes, backslashes and whitespace (any text, not
//! only JSON), inputs against a guard page, and the benchmark documents, whose minified text
//! must parse to the same value with no whitespace left outside strings.

mod common;

use std::path::PathBuf;

use common::{MiriSample, Rng, avx2, check_dispatch, for_each_guarded_suffix, special_byte_inputs};
use jitson_kernels::minify;

/// The module's rule, one byte at a time, written apart from the scalar twin: a byte is
/// dropped when it is whitespace and the unescaped quotes before it are even in number. And
/// whether the dropped bytes kept tokens apart: no dropped run has a kept byte on each side
/// that is neither whitespace, a quote nor a separator (0x0c and 0x1a count as separators).
fn reference(text: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::new();
    let mut quotes = 0usize;
    let mut backslashes = 0usize;
    let mut kept: Vec<(usize, u8)> = Vec::new();
    for (i, &b) in text.iter().enumerate() {
        let escaped = !backslashes.is_multiple_of(2);
        if b == b'"' && !escaped {
            quotes += 1;
        }
        let whitespace = b" \t\n\r".contains(&b);
        if !(whitespace && quotes.is_multiple_of(2)) {
            out.push(b);
            kept.push((i, b));
        }
        backslashes = if b == b'\\' { backslashes + 1 } else { 0 };
    }
    let scalar = |b: u8| !b" \t\n\r\"[]{},:\x0c\x1a".contains(&b);
    let apart = kept
        .windows(2)
        .all(|w| w[1].0 == w[0].0 + 1 || !(scalar(w[0].1) && scalar(w[1].1)));
    (out, apart)
}

/// Checks every twin on `text`, after a prefix already in the output (kept as it is): the
/// bytes of `minify`, and the bytes and the flag of `minify_checked`.
fn check(text: &[u8]) {
    let want = reference(text);
    type Minify<'a> = &'a dyn Fn(&[u8], &mut Vec<u8>);
    type Checked<'a> = &'a dyn Fn(&[u8], &mut Vec<u8>) -> bool;
    let run = |what: &str, plain: Minify<'_>, checked: Checked<'_>| {
        let mut out = b"prefix".to_vec();
        plain(text, &mut out);
        assert_eq!(out[6..], want.0, "{what} {text:?}");
        let mut out = b"prefix".to_vec();
        let apart = checked(text, &mut out);
        assert_eq!(&out[..6], b"prefix", "{what} {text:?}");
        assert_eq!((out.split_off(6), apart), want, "{what} checked {text:?}");
    };
    run(
        "scalar",
        &minify::scalar::minify,
        &minify::scalar::minify_checked,
    );
    if check_dispatch() {
        run("dispatch", &minify::minify, &minify::minify_checked);
    }
    if avx2() {
        run(
            "avx2",
            // SAFETY (both): AVX2 support was checked.
            &|t, out| unsafe { minify::avx2::minify(t, out) },
            &|t, out| unsafe { minify::avx2::minify_checked(t, out) },
        );
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

/// Whether the dropped whitespace kept tokens apart: a dropped run between two bytes that a
/// number or literal could hold joins them; one beside a quote, a separator or the text's
/// end does not. Each case also runs with the run moved across a block's edge.
#[test]
fn dropped_runs_between_scalar_bytes() {
    let cases: &[(&str, bool)] = &[
        ("[1, 2]", true),
        ("[1 ,2]", true),
        (" 12 ", true),
        ("1 2", false),
        ("[1\n\t 2]", false),
        ("tr ue", false),
        ("[true false]", false),
        ("1 -2", false),
        (r#""a" "b""#, true),
        (r#"["a b" , 1]"#, true),
        (r#"[1 "a"]"#, true),
        ("{\"a\":1} {\"b\":2}", true),
        ("x \u{c}", true),
        ("\\ \\", false),
        ("\u{e9} 1", false),
    ];
    for &(text, apart) in cases {
        for pad in [0, 1, 60, 61, 62, 63, 64, 127] {
            let padded = format!("{}{text}", " ".repeat(pad));
            check(padded.as_bytes());
            let mut out = Vec::new();
            assert_eq!(
                minify::minify_checked(padded.as_bytes(), &mut out),
                apart,
                "{padded:?}"
            );
        }
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
            &b"1 2\n,[:\x0c\x1a\"\\"[..],
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
        assert!(
            minify::minify_checked(&text, &mut out),
            "{name}: tokens kept apart"
        );
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

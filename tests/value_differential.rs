//! The value parser and writer against serde_json (and `str::parse` for numbers) on the
//! corpus, on random documents and on random mutations of documents.

mod value_support;

use jitson::kernels::skip::validate_document;
use jitson::value::{self, BigNumbers, Bump, EscapeMode, ParseOptions, Value, WriteOptions};
use value_support::json_compare::same_error_message;
use value_support::numbers::{number_matches_token, number_tokens, numbers};
use value_support::{JsonGen, Rng, compare, corpus, mutate, read};

/// serde_json's verdict and value.
fn serde_parse(input: &[u8]) -> Result<serde_json::Value, serde_json::Error> {
    serde_json::from_slice(input)
}

#[test]
fn corpus_parses_to_serde_json_values() {
    for (name, doc) in corpus() {
        let arena = Bump::new();
        let ours = value::parse(&doc, &arena).unwrap_or_else(|e| panic!("{name}: {e}"));
        let theirs = serde_parse(&doc).expect("serde_json rejects the corpus");
        let ulps = compare(&ours.to_serde(), &theirs).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Recorded in docs/conformance.md: serde_json's default float parsing is off by one
        // ulp on a few canada.json numbers; jitson matches `str::parse` on all of them.
        eprintln!("{name}: {ulps} floats differ from serde_json in the last place");
    }
}

#[test]
fn corpus_numbers_are_correctly_rounded() {
    for (name, doc) in corpus() {
        let arena = Bump::new();
        let parsed = value::parse(&doc, &arena).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = numbers(&parsed);
        let tokens = number_tokens(&doc);
        assert_eq!(ours.len(), tokens.len(), "{name}");
        for (value, token) in ours.into_iter().zip(tokens) {
            number_matches_token(value, token).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}

#[test]
fn corpus_writes_the_bytes_serde_json_writes() {
    for (name, doc) in corpus() {
        let theirs = serde_parse(&doc).expect("serde_json rejects the corpus");
        let arena = Bump::new();
        // Same members in the same (sorted) order: byte-identical output.
        let sorted = Value::from_serde(&theirs, &arena);
        assert!(
            sorted.to_vec() == serde_json::to_vec(&theirs).unwrap(),
            "{name}: compact"
        );
        assert!(
            sorted.to_vec_pretty() == serde_json::to_vec_pretty(&theirs).unwrap(),
            "{name}: pretty"
        );
        // In document order: serde_json and jitson read our output back to the same value
        // (up to serde_json's last-ulp float errors).
        let ours = value::parse(&doc, &arena).unwrap_or_else(|e| panic!("{name}: {e}"));
        for written in [ours.to_vec(), ours.to_vec_pretty()] {
            let back = serde_parse(&written).unwrap_or_else(|e| panic!("{name}: {e}"));
            compare(&back, &ours.to_serde()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let again = value::parse(&written, &arena).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(again == ours, "{name}: round trip");
        }
    }
}

#[test]
fn escaped_and_unescaped_twitter_are_the_same_value() {
    let arena = Bump::new();
    let plain = read("testdata/bench/twitter.json");
    let escaped = read("testdata/bench/twitterescaped.json");
    let plain = value::parse(&plain, &arena).unwrap();
    let escaped = value::parse(&escaped, &arena).unwrap();
    assert!(plain == escaped);
}

#[test]
fn escape_modes() {
    let arena = Bump::new();
    let doc = read("testdata/bench/twitter.json");
    let parsed = value::parse(&doc, &arena).unwrap();
    for mode in [EscapeMode::Minimal, EscapeMode::Ascii, EscapeMode::Html] {
        for pretty in [false, true] {
            let mut out = Vec::new();
            parsed.write(&mut out, &WriteOptions::new().escape(mode).pretty(pretty));
            assert!(
                value::parse(&out, &arena).unwrap() == parsed,
                "{mode:?} {pretty}"
            );
            match mode {
                EscapeMode::Minimal => {}
                EscapeMode::Ascii => assert!(out.is_ascii()),
                EscapeMode::Html => {
                    let text = String::from_utf8(out).unwrap();
                    assert!(!text.contains(['<', '>', '&', '\u{2028}', '\u{2029}']));
                }
            }
        }
    }
}

/// Parses `doc` with jitson and serde_json and checks they agree: the same verdict, equal
/// values (up to serde_json's last-ulp float errors), and jitson's output read back equal.
fn agree(doc: &[u8]) {
    let shown = String::from_utf8_lossy(doc);
    let arena = Bump::new();
    match (value::parse(doc, &arena), serde_parse(doc)) {
        (Ok(ours), Ok(theirs)) => {
            compare(&ours.to_serde(), &theirs).unwrap_or_else(|e| panic!("{shown:?}: {e}"));
            let written = ours.to_vec();
            let back = value::parse(&written, &arena).unwrap_or_else(|e| panic!("{shown:?}: {e}"));
            assert!(
                back == ours,
                "{shown:?}: round trip through {:?}",
                String::from_utf8_lossy(&written)
            );
            // The same members in the same order: serde_json's exact bytes.
            let sorted = Value::from_serde(&theirs, &arena);
            let compact = serde_json::to_vec(&theirs).unwrap();
            assert!(sorted.to_vec() == compact, "{shown:?}: compact");
            let pretty = serde_json::to_vec_pretty(&theirs).unwrap();
            assert!(sorted.to_vec_pretty() == pretty, "{shown:?}: pretty");
        }
        (Err(ours), Err(theirs)) => same_message(doc, &ours, &theirs),
        (ours, theirs) => panic!("{shown:?}: jitson {ours:?}, serde_json {theirs:?}"),
    }
}

/// For kinds where jitson reports as serde_json does, the messages must be the same.
fn same_message(doc: &[u8], ours: &jitson::Error, theirs: &serde_json::Error) {
    assert!(
        same_error_message(ours, theirs),
        "{:?}: jitson {ours}, serde_json {theirs}",
        String::from_utf8_lossy(doc)
    );
}

/// The validating skip kernel and the parser (keeping big numbers raw) give one verdict.
fn kernel_agrees(doc: &[u8]) {
    let arena = Bump::new();
    let raw = ParseOptions::new().big_numbers(BigNumbers::Raw);
    let parsed = value::parse_with(doc, &arena, &raw);
    let validated = validate_document(doc, raw.get_max_depth());
    assert_eq!(
        parsed.is_ok(),
        validated.is_ok(),
        "{:?}: parser {parsed:?}, kernel {validated:?}",
        String::from_utf8_lossy(doc)
    );
}

#[test]
fn random_documents_agree_with_serde_json() {
    let mut generator = JsonGen::new(0x5eed);
    for _ in 0..4000 {
        let doc = generator.document();
        agree(doc.as_bytes());
        kernel_agrees(doc.as_bytes());
    }
}

#[test]
fn mutated_documents_agree_with_serde_json() {
    let mut rng = Rng::new(0xbad);
    let mut generator = JsonGen::new(0x90);
    let book = read("testdata/bench/book.json");
    let mut sources = vec![book];
    sources.extend((0..200).map(|_| generator.document().into_bytes()));
    for round in 0..20_000 {
        let doc = mutate(&mut rng, &sources[round % sources.len()]);
        agree(&doc);
        kernel_agrees(&doc);
    }
}

#[test]
fn mutated_corpus_documents_agree_with_serde_json() {
    let mut rng = Rng::new(0xc0de);
    for (name, doc) in corpus() {
        let rounds = if doc.len() > 1000 { 40 } else { 2000 };
        for _ in 0..rounds {
            let damaged = mutate(&mut rng, &doc);
            agree(&damaged);
            kernel_agrees(&damaged);
        }
        eprintln!("{name}: {rounds} mutations agree");
    }
}

#[test]
fn large_nested_objects_with_repeated_keys() {
    // Past the key filter's limit at two levels at once, so hash tables nest.
    let mut rng = Rng::new(7);
    let mut doc = String::from("{");
    let mut first_seen = Vec::new();
    for i in 0..150 {
        let outer = format!("o{}", rng.below(100));
        if !first_seen.contains(&outer) {
            first_seen.push(outer.clone());
        }
        doc.push_str(&format!("{:?}:{{", outer));
        for j in 0..150 {
            doc.push_str(&format!("\"i{}\":{},", rng.below(200), i * 1000 + j));
        }
        doc.push_str("\"end\":true},");
    }
    doc.push_str("\"last\":null}");
    let arena = Bump::new();
    let ours = value::parse(doc.as_bytes(), &arena).unwrap();
    let theirs = serde_parse(doc.as_bytes()).unwrap();
    compare(&ours.to_serde(), &theirs).unwrap();
    let keys: Vec<&str> = ours
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(
        keys[..keys.len() - 1],
        first_seen.iter().map(String::as_str).collect::<Vec<_>>()
    );
}

#[test]
fn big_numbers_follow_the_policy() {
    let arena = Bump::new();
    let doc = b"[18446744073709551616,-9223372036854775809,1e400,-1.5e999,12]";
    let raw = value::parse_with(
        doc,
        &arena,
        &ParseOptions::new().big_numbers(BigNumbers::Raw),
    )
    .unwrap();
    assert_eq!(raw.to_vec(), doc.to_vec());
    assert_eq!(raw[0], Value::BigNumber("18446744073709551616"));
    assert_eq!(raw[4], Value::U64(12));
    let big = b"[18446744073709551616,-9223372036854775809]";
    let float = value::parse(big, &arena).unwrap();
    assert_eq!(float.to_string(), serde_parse(big).unwrap().to_string());
    assert!(matches!(float[0], Value::F64(x) if x == 18446744073709551616.0));
}

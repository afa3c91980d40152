//! Value skipping: the validating skip against JSONTestSuite, serde_json and hand-written
//! error offsets; the unchecked skip against a byte-by-byte reference model of its rules,
//! AVX2 against scalar everywhere, and both against guard pages.

mod common;

use std::path::{Path, PathBuf};

use common::{MiriSample, Rng, avx2, check_dispatch, for_each_guarded_suffix, special_byte_inputs};
use jitson_kernels::skip::{self, DEFAULT_MAX_DEPTH};
use jitson_kernels::{ErrorKind, KernelError};

// ---------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------

fn testdata(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(dir)
}

/// Every JSONTestSuite parsing file as `(name, bytes)`, sorted by name.
fn suite_files() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(testdata("jsontestsuite"))
        .expect("testdata/jsontestsuite")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("read test file"))
        })
        .collect();
    files.sort();
    assert!(files.len() >= 239, "JSONTestSuite files missing");
    files
}

/// Every benchmark corpus document as `(name, bytes)`; under Miri (no file access) only the
/// small `book.json`, built in.
fn corpus_docs() -> Vec<(String, Vec<u8>)> {
    if cfg!(miri) {
        let book = include_bytes!("../../testdata/bench/book.json");
        return vec![("book.json".to_string(), book.to_vec())];
    }
    let mut docs: Vec<(String, Vec<u8>)> = std::fs::read_dir(testdata("bench"))
        .expect("testdata/bench")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("read corpus doc"))
        })
        .collect();
    docs.sort();
    assert_eq!(docs.len(), 5, "corpus documents missing");
    docs
}

/// Up to `count` complete values (objects or arrays of at most `max_len` bytes) cut out of
/// the corpus documents at random container starts.
fn corpus_snippets(rng: &mut Rng, count: usize, max_len: usize) -> Vec<Vec<u8>> {
    let docs = corpus_docs();
    let mut out = Vec::new();
    let mut attempts = 0;
    while out.len() < count && attempts < count * 200 {
        attempts += 1;
        let (_, doc) = &docs[rng.below(docs.len())];
        let start = rng.below(doc.len());
        if !matches!(doc[start], b'[' | b'{') {
            continue;
        }
        match skip::skip_value_unchecked(doc, start) {
            Ok(end) if end - start <= max_len => out.push(doc[start..end].to_vec()),
            _ => {}
        }
    }
    out
}

/// A random mutation of `doc`: a byte flip, a structural byte put in or over, a deletion or a
/// truncation.
fn mutate(rng: &mut Rng, doc: &[u8]) -> Vec<u8> {
    const STRUCTURAL: &[u8] = b"[]{}\",:\\ 0-.eEtfn\x01\xff\xc3";
    let mut v = doc.to_vec();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        if v.is_empty() {
            break;
        }
        let at = rng.below(v.len());
        match rng.below(6) {
            0 => v[at] ^= 1 << rng.below(8),
            1 => v[at] = STRUCTURAL[rng.below(STRUCTURAL.len())],
            2 => v.insert(at, STRUCTURAL[rng.below(STRUCTURAL.len())]),
            3 => {
                v.remove(at);
            }
            4 => v.truncate(at),
            _ => v[at] = rng.next_u64() as u8,
        }
    }
    v
}

// ---------------------------------------------------------------------------------------
// Checkers: every twin gives the same answer
// ---------------------------------------------------------------------------------------

/// The validating skip from `pos` through the dispatcher, the scalar twin and (when
/// supported) the AVX2 twin; asserts they agree and returns the answer.
fn skip_checked(buf: &[u8], pos: usize, max_depth: usize) -> Result<usize, KernelError> {
    let want = skip::scalar::skip_value(buf, pos, max_depth);
    if check_dispatch() {
        assert_eq!(
            skip::skip_value(buf, pos, max_depth),
            want,
            "dispatch {buf:?} @{pos}"
        );
    }
    if avx2() {
        // SAFETY: AVX2 support was checked.
        let got = unsafe { skip::avx2::skip_value(buf, pos, max_depth) };
        assert_eq!(got, want, "avx2 {buf:?} @{pos}");
    }
    want
}

/// [`skip::validate_document`] through every twin; asserts they agree and that the verdict
/// matches the skip followed by a whitespace check.
fn validate_checked(buf: &[u8], max_depth: usize) -> Result<(), KernelError> {
    let want = skip::scalar::validate_document(buf, max_depth);
    if check_dispatch() {
        assert_eq!(
            skip::validate_document(buf, max_depth),
            want,
            "dispatch {buf:?}"
        );
    }
    if avx2() {
        // SAFETY: AVX2 support was checked.
        let got = unsafe { skip::avx2::validate_document(buf, max_depth) };
        assert_eq!(got, want, "avx2 {buf:?}");
    }
    let composed = skip_checked(buf, 0, max_depth).and_then(|end| {
        let rest = end + buf[end..].iter().take_while(|b| is_ws(**b)).count();
        match rest < buf.len() {
            true => Err(KernelError::new(ErrorKind::TrailingCharacters, rest)),
            false => Ok(()),
        }
    });
    assert_eq!(composed, want, "validate_document vs skip_value {buf:?}");
    want
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The unchecked skip's rules (module documentation of `skip`), byte by byte.
fn reference_unchecked(buf: &[u8], pos: usize) -> Result<usize, KernelError> {
    let end = || KernelError::new(ErrorKind::UnexpectedEnd, buf.len());
    let mut i = pos;
    while i < buf.len() && is_ws(buf[i]) {
        i += 1;
    }
    if i >= buf.len() {
        return Err(KernelError::new(ErrorKind::ExpectedValue, buf.len()));
    }
    match buf[i] {
        b'"' => {
            let mut j = i + 1;
            while j < buf.len() {
                match buf[j] {
                    b'\\' => j += 2,
                    b'"' => return Ok(j + 1),
                    _ => j += 1,
                }
            }
            Err(end())
        }
        b'[' | b'{' => {
            let (mut depth, mut in_string, mut j) = (0usize, false, i);
            while j < buf.len() {
                match buf[j] {
                    b'\\' => j += 1,
                    b'"' => in_string = !in_string,
                    b'[' | b'{' if !in_string => depth += 1,
                    b']' | b'}' if !in_string => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            Err(end())
        }
        b']' | b'}' | b',' => Err(KernelError::new(ErrorKind::ExpectedValue, i)),
        _ => {
            let mut j = i + 1;
            while j < buf.len() && !matches!(buf[j], b',' | b']' | b'}') && !is_ws(buf[j]) {
                j += 1;
            }
            Ok(j)
        }
    }
}

/// The unchecked skip from `pos` through every twin, each compared with the reference model.
fn unchecked_checked(buf: &[u8], pos: usize) -> Result<usize, KernelError> {
    let want = reference_unchecked(buf, pos);
    assert_eq!(
        skip::scalar::skip_value_unchecked(buf, pos),
        want,
        "scalar {buf:?} @{pos}"
    );
    if check_dispatch() {
        assert_eq!(
            skip::skip_value_unchecked(buf, pos),
            want,
            "dispatch {buf:?} @{pos}"
        );
    }
    if avx2() {
        // SAFETY: AVX2 support was checked.
        let got = unsafe { skip::avx2::skip_value_unchecked(buf, pos) };
        assert_eq!(got, want, "avx2 {buf:?} @{pos}");
    }
    want
}

/// The unchecked skip at the start of `buf` and at a few inner positions.
fn unchecked_at_some_positions(buf: &[u8]) {
    for pos in [0, 1, 2, buf.len() / 2, buf.len(), buf.len() + 1] {
        let _ = unchecked_checked(buf, pos);
    }
}

// ---------------------------------------------------------------------------------------
// The validating skip
// ---------------------------------------------------------------------------------------

#[test]
#[cfg_attr(miri, ignore = "reads the JSONTestSuite files")]
fn jsontestsuite_verdicts() {
    let mut implementation_defined = Vec::new();
    for (name, bytes) in suite_files() {
        let verdict = validate_checked(&bytes, DEFAULT_MAX_DEPTH);
        match name.as_bytes()[0] {
            b'y' => assert_eq!(verdict, Ok(()), "{name} must be accepted"),
            b'n' => assert!(verdict.is_err(), "{name} must be rejected"),
            _ => implementation_defined.push(format!("{name}: {verdict:?}")),
        }
    }
    // Recorded behaviour of the implementation-defined files (shown with --nocapture).
    println!("{}", implementation_defined.join("\n"));
    assert_eq!(implementation_defined.len(), 25);
}

/// serde_json's verdict on `bytes` as a `Value`, `None` when serde_json rejects for a reason
/// outside JSON's grammar (a number beyond `f64`) on which the two may disagree by design.
fn serde_verdict(bytes: &[u8]) -> Option<bool> {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(_) => Some(true),
        Err(e) if e.to_string().contains("number out of range") => None,
        Err(_) => Some(false),
    }
}

fn assert_serde_agrees(bytes: &[u8], context: &str) {
    // serde_json stops at 128 levels; our limit is set beyond every input here.
    let ours = validate_checked(bytes, 1000);
    if let Some(theirs) = serde_verdict(bytes) {
        assert_eq!(
            ours.is_ok(),
            theirs,
            "{context}: ours {ours:?}, serde_json {:?}, input {:?}",
            serde_json::from_slice::<serde_json::Value>(bytes).err(),
            String::from_utf8_lossy(bytes)
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "reads the JSONTestSuite files")]
fn serde_json_agrees_on_suite_and_corpus() {
    for (name, bytes) in suite_files() {
        if name.contains("500_nested") || name.contains("100000_opening") {
            continue; // serde_json's fixed recursion limit decides those
        }
        assert_serde_agrees(&bytes, &name);
    }
    for (name, bytes) in corpus_docs() {
        assert_eq!(
            validate_checked(&bytes, DEFAULT_MAX_DEPTH),
            Ok(()),
            "{name}"
        );
        assert_serde_agrees(&bytes, &name);
    }
}

#[test]
fn serde_json_agrees_on_mutations() {
    let mut rng = Rng::new(0xdead_beef);
    let (snippets, per) = if cfg!(miri) { (2, 5) } else { (300, 40) };
    let mut sources = corpus_snippets(&mut rng, snippets, 1500);
    if !cfg!(miri) {
        sources.extend(
            suite_files()
                .into_iter()
                .filter(|(n, b)| n.starts_with('y') && b.len() < 2000)
                .map(|(_, b)| b),
        );
    }
    let (mut accepted, mut rejected) = (0, 0);
    for src in &sources {
        for _ in 0..per {
            let m = mutate(&mut rng, src);
            assert_serde_agrees(&m, "mutation");
            let _ = unchecked_checked(&m, 0);
            match skip::validate_document(&m, 1000) {
                Ok(()) => accepted += 1,
                Err(_) => rejected += 1,
            }
        }
    }
    // Both verdicts must be well represented for the comparison to mean anything.
    let total = accepted + rejected;
    assert!(
        accepted * 20 > total && rejected * 2 > total,
        "{accepted} / {rejected}"
    );
}

#[test]
fn corpus_documents_validate_and_skip_from_every_value() {
    for (name, doc) in corpus_docs() {
        assert_eq!(validate_checked(&doc, DEFAULT_MAX_DEPTH), Ok(()), "{name}");
        let step = if cfg!(miri) { doc.len() / 20 + 1 } else { 1 };
        for pos in (0..doc.len()).step_by(step) {
            // Wherever the validating skip accepts a value, the unchecked skip ends there too.
            if let Ok(end) = skip_checked(&doc, pos, DEFAULT_MAX_DEPTH) {
                assert_eq!(unchecked_checked(&doc, pos), Ok(end), "{name} @{pos}");
            }
        }
    }
}

#[test]
fn deep_nesting_is_a_clean_error() {
    let n = if cfg!(miri) { 700 } else { 100_000 };
    let opens = vec![b'['; n];
    let err = |kind, offset| Err(KernelError::new(kind, offset));
    assert_eq!(
        skip_checked(&opens, 0, DEFAULT_MAX_DEPTH),
        err(ErrorKind::DepthLimitExceeded, DEFAULT_MAX_DEPTH)
    );
    // An unlimited depth walks all of it iteratively and runs out of input.
    assert_eq!(
        skip_checked(&opens, 0, usize::MAX),
        err(ErrorKind::UnexpectedEnd, n)
    );
    assert_eq!(
        unchecked_checked(&opens, 0),
        err(ErrorKind::UnexpectedEnd, n)
    );
    // Balanced deep nesting of both kinds is accepted when the limit allows it.
    let mut deep = Vec::new();
    let mut innermost = 0;
    for d in 0..n {
        innermost = deep.len();
        deep.extend_from_slice(if d % 3 == 0 { b"{\"k\":" } else { b"[" });
    }
    deep.push(b'1');
    for d in (0..n).rev() {
        deep.push(if d % 3 == 0 { b'}' } else { b']' });
    }
    assert_eq!(skip_checked(&deep, 0, n), Ok(deep.len()));
    assert_eq!(
        skip_checked(&deep, 0, n - 1),
        err(ErrorKind::DepthLimitExceeded, innermost)
    );
    assert_eq!(unchecked_checked(&deep, 0), Ok(deep.len()));
}

#[test]
fn depth_limit_counts_containers() {
    let err = |offset| Err(KernelError::new(ErrorKind::DepthLimitExceeded, offset));
    assert_eq!(skip_checked(b"1", 0, 0), Ok(1));
    assert_eq!(skip_checked(b"[]", 0, 0), err(0));
    assert_eq!(skip_checked(b"[1]", 0, 1), Ok(3));
    assert_eq!(skip_checked(b"[[1]]", 0, 1), err(1));
    assert_eq!(skip_checked(b"{\"a\":{}}", 0, 1), err(5));
    assert_eq!(skip_checked(b"[[],[[]]]", 0, 2), err(5));
    assert_eq!(skip_checked(b"[[],[[]]]", 0, 3), Ok(9));
}

#[test]
fn exact_error_offsets() {
    use ErrorKind::*;
    type Expected = Result<(), (ErrorKind, usize)>;
    let cases: &[(&[u8], Expected)] = &[
        (b"", Err((ExpectedValue, 0))),
        (b"  \n", Err((ExpectedValue, 3))),
        (b"[", Err((UnexpectedEnd, 1))),
        (b"[1,", Err((UnexpectedEnd, 3))),
        (b"[1,]", Err((ExpectedValue, 3))),
        (b"[,1]", Err((ExpectedValue, 1))),
        (b"[1 2]", Err((ExpectedCommaOrEnd, 3))),
        (b"[1}", Err((ExpectedCommaOrEnd, 2))),
        (b"{\"a\":1]", Err((ExpectedCommaOrEnd, 6))),
        (b"{\"a\" 1}", Err((ExpectedColon, 5))),
        (b"{\"a\"", Err((UnexpectedEnd, 4))),
        (b"{1:2}", Err((ExpectedKey, 1))),
        (b"{\"a\":1,}", Err((ExpectedKey, 7))),
        (b"{\"a\":1 , x}", Err((ExpectedKey, 9))),
        (b"{\"a\":}", Err((ExpectedValue, 5))),
        (b"[tru]", Err((UnexpectedByte, 4))),
        (b"[nul", Err((UnexpectedEnd, 4))),
        (b"[truex]", Err((UnexpectedByte, 5))),
        (b"fals", Err((UnexpectedEnd, 4))),
        (b"nULL", Err((UnexpectedByte, 1))),
        (b"[01]", Err((InvalidNumber, 2))),
        (b"[-]", Err((InvalidNumber, 2))),
        (b"-", Err((UnexpectedEnd, 1))),
        (b"[1.]", Err((InvalidNumber, 3))),
        (b"[1e+]", Err((InvalidNumber, 4))),
        (b"[12ab]", Err((InvalidNumber, 3))),
        (b"[1.5.2]", Err((InvalidNumber, 4))),
        (b"1x", Err((InvalidNumber, 1))),
        (b"[+1]", Err((ExpectedValue, 1))),
        (b"[.5]", Err((ExpectedValue, 1))),
        (b"\"abc", Err((UnexpectedEnd, 4))),
        (b"\"ab\nc", Err((ControlInString, 3))),
        (b"[\"a\x01b\"]", Err((ControlInString, 3))),
        (b"[\"ab\\q\"]", Err((InvalidEscape, 4))),
        (b"[\"ab\\u12x4\"]", Err((InvalidUnicodeEscape, 4))),
        (b"[\"ab\\uD800\"]", Err((LoneSurrogate, 4))),
        (b"[\"ab\\uDC00\"]", Err((LoneSurrogate, 4))),
        (b"[\"a\xffb\"]", Err((InvalidUtf8, 3))),
        (b"[\"\xc3\xa9\xc3\"]", Err((InvalidUtf8, 4))),
        (b"{\"k\xe9y\":1}", Err((InvalidUtf8, 3))),
        // The earliest problem of a string wins.
        (b"[\"\xff\x01\"]", Err((InvalidUtf8, 2))),
        (b"[\"\x01\xff\"]", Err((ControlInString, 2))),
        (b"[\"\\x\xff\"]", Err((InvalidEscape, 2))),
        (b"[\"\xff\\x\"]", Err((InvalidUtf8, 2))),
        (b"[1] x", Err((TrailingCharacters, 4))),
        (b"{}}", Err((TrailingCharacters, 2))),
        (b"\"a\"\"b\"", Err((TrailingCharacters, 3))),
        (b"\xef\xbb\xbf{}", Err((ExpectedValue, 0))),
        (b"[1,\x0c2]", Err((ExpectedValue, 3))),
        (b" [ 1 , { \"a\" : [ ] } ] ", Ok(())),
        (b"\"\\ud83d\\ude00\\\"\"", Ok(())),
    ];
    for (input, want) in cases {
        let want = want.map_err(|(kind, offset)| KernelError::new(kind, offset));
        assert_eq!(
            validate_checked(input, DEFAULT_MAX_DEPTH),
            want,
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn validate_every_length_and_position() {
    // Strings and whitespace runs of every length with each special byte at each position:
    // string ends, escapes, control and non-ASCII bytes across every chunk boundary and at
    // the end of the input, where the AVX2 fast paths hand over to the kernels.
    let max_len = if cfg!(miri) { 6 } else { usize::MAX };
    let mut sample = MiriSample::default();
    let strings = special_byte_inputs(b'a', b"\"\\\x01\xff\xc3\x7f");
    for body in strings
        .take_while(|v| v.len() <= max_len)
        .filter(|_| sample.next_runs())
    {
        for (prefix, suffix) in [("\"", ""), ("\"", "\""), ("[\"", "\"]"), ("{\"", "\":0}")] {
            let mut v = prefix.as_bytes().to_vec();
            v.extend_from_slice(&body);
            v.extend_from_slice(suffix.as_bytes());
            let _ = validate_checked(&v, DEFAULT_MAX_DEPTH);
        }
    }
    let spaces = special_byte_inputs(b' ', b"\n\t1[]\"x");
    for run in spaces
        .take_while(|v| v.len() <= max_len)
        .filter(|_| sample.next_runs())
    {
        for (prefix, suffix) in [("", ""), ("[", "]"), ("[1,", "2]"), ("{\"a\":", "}")] {
            let mut v = prefix.as_bytes().to_vec();
            v.extend_from_slice(&run);
            v.extend_from_slice(suffix.as_bytes());
            let _ = validate_checked(&v, DEFAULT_MAX_DEPTH);
        }
    }
}

#[test]
fn skip_value_stops_after_one_value() {
    let buf = b"  [1, {\"a\": [true]}] , \"next\"\t null,-0.5e3]";
    assert_eq!(skip_checked(buf, 0, DEFAULT_MAX_DEPTH), Ok(20));
    assert_eq!(skip_checked(buf, 22, DEFAULT_MAX_DEPTH), Ok(29));
    assert_eq!(skip_checked(buf, 29, DEFAULT_MAX_DEPTH), Ok(35));
    assert_eq!(skip_checked(buf, 36, DEFAULT_MAX_DEPTH), Ok(42));
    assert_eq!(
        skip_checked(buf, 42, DEFAULT_MAX_DEPTH),
        Err(KernelError::new(ErrorKind::ExpectedValue, 42))
    );
    assert_eq!(
        skip_checked(buf, 99, DEFAULT_MAX_DEPTH),
        Err(KernelError::new(ErrorKind::ExpectedValue, buf.len()))
    );
    for pos in [0, 22, 29, 36, 42] {
        assert_eq!(
            unchecked_checked(buf, pos),
            skip_checked(buf, pos, DEFAULT_MAX_DEPTH)
        );
    }
}

// ---------------------------------------------------------------------------------------
// The unchecked skip
// ---------------------------------------------------------------------------------------

#[test]
fn unchecked_every_length_and_position() {
    let max_len = if cfg!(miri) { 6 } else { usize::MAX };
    let mut sample = MiriSample::default();
    for input in special_byte_inputs(b'a', b"\"\\[]{},|\x02")
        .take_while(|v| v.len() <= max_len)
        .filter(|_| sample.next_runs())
    {
        unchecked_at_some_positions(&input);
        for (prefix, suffix) in [
            ("[", ""),
            ("[", "]"),
            ("{\"", "\"}"),
            ("\"", ""),
            ("[\"", ""),
        ] {
            let mut v = prefix.as_bytes().to_vec();
            v.extend_from_slice(&input);
            v.extend_from_slice(suffix.as_bytes());
            let _ = unchecked_checked(&v, 0);
        }
    }
}

#[test]
fn unchecked_backslash_runs_across_blocks() {
    // Runs of 1..=5 backslashes ending at every position, then a quote or a bracket: the
    // escape carry between 64-byte blocks.
    let max_len = if cfg!(miri) { 8 } else { 140 };
    for len in 1..=max_len {
        for run in 1..=5usize {
            for end in run..len {
                for after in [b'"', b']', b'['] {
                    let mut v = vec![b'a'; len];
                    v[0] = b'[';
                    v[1] = b'"';
                    v[end - run..end].fill(b'\\');
                    v[end] = after;
                    v.extend_from_slice(b"\"]");
                    let _ = unchecked_checked(&v, 0);
                    v[1] = b' ';
                    let _ = unchecked_checked(&v, 0);
                }
            }
        }
    }
}

#[test]
fn unchecked_random_soups() {
    let mut rng = Rng::new(0x50_0b);
    let n = if cfg!(miri) { 60 } else { 30_000 };
    for _ in 0..n {
        let len = rng.below(if cfg!(miri) { 100 } else { 400 });
        let alphabet: &[u8] = match rng.below(3) {
            0 => b"[]{}\"\\ a,|\x02",
            1 => b"[[[]]]{}\"\"\\\\\\aaaaaaaa   ,:",
            _ => b"[]\"aaaaaaaaaaaaaaaaaaaaaaaa\\",
        };
        let mut v = rng.bytes_from(alphabet, len);
        if let Some(first) = v.first_mut() {
            *first = b"[{\"a"[rng.below(4)];
        }
        unchecked_at_some_positions(&v);
    }
}

#[test]
fn unchecked_matches_validating_on_valid_json() {
    let mut rng = Rng::new(7);
    let count = if cfg!(miri) { 3 } else { 400 };
    for snippet in corpus_snippets(&mut rng, count, 4000) {
        let end = skip_checked(&snippet, 0, DEFAULT_MAX_DEPTH);
        assert_eq!(end, Ok(snippet.len()));
        assert_eq!(unchecked_checked(&snippet, 0), end);
    }
    let suite = if cfg!(miri) {
        Vec::new()
    } else {
        suite_files()
    };
    for (name, bytes) in suite {
        if let Ok(end) = skip_checked(&bytes, 0, DEFAULT_MAX_DEPTH) {
            assert_eq!(unchecked_checked(&bytes, 0), Ok(end), "{name}");
        } else {
            let _ = unchecked_checked(&bytes, 0);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Guard pages
// ---------------------------------------------------------------------------------------

/// Runs both skips through every twin on `bytes` placed against a guard page, on every suffix
/// (all of them for short inputs; for long ones the first 64 and the last 2048).
fn guarded_both_skips(bytes: &[u8]) {
    let check = |buf: &[u8]| {
        let _ = validate_checked(buf, DEFAULT_MAX_DEPTH);
        let _ = unchecked_checked(buf, 0);
    };
    if bytes.len() <= 4096 {
        for_each_guarded_suffix(bytes, check);
    } else {
        let head = &bytes[..64];
        for start in 0..head.len() {
            let mut region = common::GuardedRegion::new(bytes.len());
            check(region.place(&bytes[start..]));
        }
        for_each_guarded_suffix(&bytes[bytes.len() - 2048..], check);
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn guard_page_suite_files() {
    for (_, bytes) in suite_files() {
        guarded_both_skips(&bytes);
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn guard_page_corpus_snippets() {
    let mut rng = Rng::new(99);
    for snippet in corpus_snippets(&mut rng, 60, 1200) {
        guarded_both_skips(&snippet);
    }
    // Unterminated tails of every length: strings, escapes and open containers.
    for len in 0..=140 {
        for tail in [
            &b"\"ab"[..],
            b"[\"a\\",
            b"{\"a\":[1,",
            b"[1.5e",
            b"[tru",
            b"[\"\xc3",
        ] {
            let mut v = tail.to_vec();
            v.resize(tail.len() + len, b' ');
            v.truncate(tail.len() + len);
            guarded_both_skips(&v);
            let mut w = vec![b' '; len];
            w.extend_from_slice(tail);
            guarded_both_skips(&w);
        }
    }
}

// ---------------------------------------------------------------------------------------
// The `extern "C"` entry points
// ---------------------------------------------------------------------------------------

#[test]
fn ffi_entry_points_carry_ends_and_errors() {
    use jitson_kernels::ffi::{self, FfiResult};
    let call = |buf: &[u8], pos: usize| {
        // SAFETY: `buf` is a live slice: its pointer is valid for `buf.len()` reads.
        let checked = unsafe { ffi::jitson_skip_value(buf.as_ptr(), buf.len(), pos, 2) };
        // SAFETY: as above.
        let unchecked = unsafe { ffi::jitson_skip_value_unchecked(buf.as_ptr(), buf.len(), pos) };
        (checked, unchecked)
    };
    let ok = |v: u64| FfiResult {
        status: 0,
        value: v,
    };
    let err = |kind: ErrorKind, offset: u64| FfiResult {
        status: u64::from(kind.code()),
        value: offset,
    };
    assert_eq!(call(b" [1, {\"a\": 2}], 3", 0), (ok(14), ok(14)));
    assert_eq!(call(b" [1, {\"a\": 2}], 3", 15), (ok(17), ok(17)));
    assert_eq!(
        call(b"[[[1]]]", 0),
        (err(ErrorKind::DepthLimitExceeded, 2), ok(7))
    );
    assert_eq!(
        call(b"[1, 2", 0),
        (
            err(ErrorKind::UnexpectedEnd, 5),
            err(ErrorKind::UnexpectedEnd, 5)
        )
    );
    assert_eq!(
        call(b"", 0),
        (
            err(ErrorKind::ExpectedValue, 0),
            err(ErrorKind::ExpectedValue, 0)
        )
    );
}

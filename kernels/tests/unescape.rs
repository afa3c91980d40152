//! Unescaping: a plain reference model against the scalar, dispatch and AVX2 twins for every
//! escape at every position, all 65536 `\u` escapes, surrogate pairs and lone halves, random
//! bodies, serde_json's verdicts, and guard-page placement of input and output.

mod common;

use common::{GuardedRegion, MiriSample, Rng, avx2, check_dispatch, for_each_guarded_suffix};
use jitson_kernels::unescape::{self, Surrogates};
use jitson_kernels::{ErrorKind, KernelError};

/// Parses exactly four hex digits.
fn hex4(digits: Option<&[u8]>) -> Option<u32> {
    let digits = digits?;
    if digits.len() != 4 || !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
}

/// The reference model, written for clarity: one escape at a time, `char` does the encoding.
fn reference(body: &[u8], surrogates: Surrogates) -> Result<Vec<u8>, KernelError> {
    let err = |kind, at| Err(KernelError::new(kind, at));
    let mut out = Vec::new();
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'\\' {
            out.push(body[i]);
            i += 1;
            continue;
        }
        let at = i;
        let simple = match body.get(i + 1) {
            Some(b'u') => None,
            Some(&c) => match [b'"', b'\\', b'/', b'b', b'f', b'n', b'r', b't']
                .iter()
                .position(|&e| e == c)
            {
                Some(k) => Some(b"\"\\/\x08\x0c\n\r\t"[k]),
                None => return err(ErrorKind::InvalidEscape, at),
            },
            None => return err(ErrorKind::InvalidEscape, at),
        };
        if let Some(b) = simple {
            out.push(b);
            i += 2;
            continue;
        }
        let Some(unit) = hex4(body.get(i + 2..i + 6)) else {
            return err(ErrorKind::InvalidUnicodeEscape, at);
        };
        i += 6;
        let mut ch = char::from_u32(unit);
        let low = hex4(body.get(i + 2..i + 6)).filter(|l| (0xdc00..0xe000).contains(l));
        if let (true, Some(b"\\u"), Some(low)) =
            ((0xd800..0xdc00).contains(&unit), body.get(i..i + 2), low)
        {
            ch = char::from_u32(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00));
            i += 6;
        }
        let ch = match (ch, surrogates) {
            (Some(c), _) => c,
            (None, Surrogates::Lossy) => char::REPLACEMENT_CHARACTER,
            (None, Surrogates::Strict) => return err(ErrorKind::LoneSurrogate, at),
        };
        out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
    }
    Ok(out)
}

type UnescapeFn = fn(&[u8], &mut Vec<u8>, Surrogates) -> Result<(), KernelError>;
type UnescapeIntoFn = fn(&[u8], &mut [u8], Surrogates) -> Result<usize, KernelError>;
type ValidateFn = fn(&[u8], Surrogates) -> Result<(), KernelError>;

/// Every entry point of one twin family.
struct Twin {
    name: &'static str,
    unescape: UnescapeFn,
    unescape_into: UnescapeIntoFn,
    validate: ValidateFn,
}

fn avx2_unescape(body: &[u8], out: &mut Vec<u8>, s: Surrogates) -> Result<(), KernelError> {
    assert!(avx2());
    // SAFETY: AVX2 support was asserted.
    unsafe { unescape::avx2::unescape(body, out, s) }
}

fn avx2_unescape_into(body: &[u8], out: &mut [u8], s: Surrogates) -> Result<usize, KernelError> {
    assert!(avx2());
    // SAFETY: AVX2 support was asserted.
    unsafe { unescape::avx2::unescape_into(body, out, s) }
}

fn avx2_validate(body: &[u8], s: Surrogates) -> Result<(), KernelError> {
    assert!(avx2());
    // SAFETY: AVX2 support was asserted.
    unsafe { unescape::avx2::validate_escapes(body, s) }
}

/// The twins available on this machine.
fn twins() -> Vec<Twin> {
    let mut twins = vec![Twin {
        name: "scalar",
        unescape: unescape::scalar::unescape,
        unescape_into: unescape::scalar::unescape_into,
        validate: unescape::scalar::validate_escapes,
    }];
    if check_dispatch() {
        twins.push(Twin {
            name: "dispatch",
            unescape: unescape::unescape,
            unescape_into: unescape::unescape_into,
            validate: unescape::validate_escapes,
        });
    }
    if avx2() {
        twins.push(Twin {
            name: "avx2",
            unescape: avx2_unescape,
            unescape_into: avx2_unescape_into,
            validate: avx2_validate,
        });
    }
    twins
}

/// Checks every twin against the reference in both surrogate modes; returns the strict
/// reference result.
fn check(body: &[u8]) -> Result<Vec<u8>, KernelError> {
    for twin in twins() {
        check_twin(&twin, body);
    }
    reference(body, Surrogates::Strict)
}

fn check_twin(twin: &Twin, body: &[u8]) {
    let name = twin.name;
    for mode in [Surrogates::Strict, Surrogates::Lossy] {
        let want = reference(body, mode);
        // Appending keeps what was there, and an error leaves it untouched.
        let mut vec = b"prefix".to_vec();
        let got = (twin.unescape)(body, &mut vec, mode).map(|()| vec[6..].to_vec());
        assert_eq!(got, want, "{name} unescape {mode:?} {:?}", show(body));
        if want.is_err() {
            assert_eq!(vec, b"prefix", "{name} unescape left output on error");
        }
        let mut buf = vec![0xaa; body.len()];
        let got = (twin.unescape_into)(body, &mut buf, mode).map(|n| buf[..n].to_vec());
        assert_eq!(got, want, "{name} unescape_into {mode:?} {:?}", show(body));
        let got = (twin.validate)(body, mode);
        assert_eq!(
            got,
            want.as_ref().map(drop).map_err(|e| *e),
            "{name} validate {mode:?} {:?}",
            show(body)
        );
    }
}

fn show(body: &[u8]) -> String {
    String::from_utf8_lossy(body).into_owned()
}

/// serde_json's verdict on `"` + body + `"`, where the body is something serde_json reads as
/// one string body (no raw quote ends it early, no raw control byte, valid UTF-8).
fn serde_verdict(body: &[u8]) -> Option<Result<Vec<u8>, ()>> {
    let raw_quote = {
        let mut i = 0;
        let mut found = false;
        while i < body.len() {
            match body[i] {
                b'\\' => i += 1,
                b'"' => found = true,
                _ => {}
            }
            i += 1;
        }
        found
    };
    if raw_quote || body.iter().any(|&b| b < 0x20) || std::str::from_utf8(body).is_err() {
        return None;
    }
    let quoted = [b"\"", body, b"\""].concat();
    Some(
        serde_json::from_slice::<String>(&quoted)
            .map(String::into_bytes)
            .map_err(drop),
    )
}

/// Checks the twins and, where serde_json has an answer, that its verdict and string agree
/// with strict mode.
fn check_with_serde(body: &[u8]) {
    let ours = check(body);
    if let Some(theirs) = serde_verdict(body) {
        assert_eq!(
            ours.map_err(drop),
            theirs,
            "serde_json disagrees on {:?}",
            show(body)
        );
    }
}

/// Escapes and escape-like fragments: valid ones, surrogate edge cases, and broken ones.
const ESCAPES: &[&str] = &[
    r#"\""#,
    r"\\",
    r"\/",
    r"\b",
    r"\f",
    r"\n",
    r"\r",
    r"\t",
    r"\u0000",
    r"\u0041",
    r"\u00e9",
    r"\u00E9",
    r"\u07ff",
    r"\u0800",
    r"\u20ac",
    r"\uFFFF",
    r"\uD83D\uDE00",
    r"\ud83d\ude00",
    r"\uDBFF\uDFFF",
    r"\uD800\uDC00",
    r"\uD800",
    r"\uDBFF",
    r"\uDC00",
    r"\uDFFF",
    r"\uD800\u0041",
    r"\uD800\uD800\uDC00",
    r"\uD800\n",
    r"\uD800\",
    r"\uD800\u",
    r"\uD800\uDC0",
    r"\uD800\uDCxx",
    r"\uDC00\uD800",
    r"\uD800x\uDC00",
    r"\u",
    r"\u1",
    r"\u12",
    r"\u123",
    r"\u12G4",
    r"\u+123",
    r"\u-123",
    r"\U0041",
    r"\x",
    r"\'",
    r"\ ",
    r"\",
    "\\\u{e9}",
    "\\\0",
];

#[test]
fn every_escape_at_every_position() {
    let max_len = if cfg!(miri) { 2 } else { 100 };
    let mut sample = MiriSample::default();
    for esc in ESCAPES {
        for len in 0..=max_len {
            for pos in (0..=len).filter(|_| sample.next_runs()) {
                let mut body = vec![b'a'; len];
                body.splice(pos..pos, esc.bytes());
                check_with_serde(&body);
            }
        }
    }
}

#[test]
fn two_escapes_across_chunk_boundaries() {
    let (positions, gap) = if cfg!(miri) {
        (0..2, 0..2)
    } else {
        (0..70, 0..40)
    };
    let pairs = [r"\n", r"\uD83D\uDE00", r"\uD800", r"\u12"];
    for first in pairs {
        for second in pairs {
            for pos in positions.clone() {
                for gap in gap.clone() {
                    let mut body = vec![b'b'; pos];
                    body.extend_from_slice(first.as_bytes());
                    body.extend(std::iter::repeat_n(b'c', gap));
                    body.extend_from_slice(second.as_bytes());
                    body.extend_from_slice(b"tail");
                    let _ = check(&body);
                }
            }
        }
    }
}

/// `\uXXXX` for `unit`, in lower or upper case hex.
fn u_escape(unit: u32, upper: bool) -> String {
    if upper {
        format!("\\u{unit:04X}")
    } else {
        format!("\\u{unit:04x}")
    }
}

#[test]
fn every_unicode_escape() {
    let step = if cfg!(miri) { 4099 } else { 1 };
    for unit in (0..=0xffff_u32).step_by(step) {
        let want = char::from_u32(unit).map(|c| c.to_string().into_bytes());
        for upper in [false, true] {
            let esc = u_escape(unit, upper);
            let strict = unescape::unescape_into(esc.as_bytes(), &mut [0; 6], Surrogates::Strict);
            match &want {
                Some(bytes) => assert_eq!(strict, Ok(bytes.len()), "{esc}"),
                None => assert_eq!(
                    strict,
                    Err(KernelError::new(ErrorKind::LoneSurrogate, 0)),
                    "{esc}"
                ),
            }
            // After a prefix that puts the escape across the first chunk boundary.
            let body = format!("{}{esc}z", "p".repeat(29));
            assert_eq!(
                check(body.as_bytes())
                    .ok()
                    .map(|v| v[29..v.len() - 1].to_vec()),
                want,
                "{esc}"
            );
        }
    }
}

#[test]
fn surrogate_pairs() {
    let mut rng = Rng::new(0x5a1);
    let (highs, lows_per_high) = if cfg!(miri) { (8, 2) } else { (1024, 24) };
    for h in 0..highs {
        let high = 0xd800 + (h * 1024 / highs) as u32;
        for k in 0..lows_per_high {
            let low = match k {
                0 => 0xdc00,
                1 => 0xdfff,
                2 => 0xdbff, // a second high surrogate
                3 => 0xe000, // just past the low range
                _ => rng.below(0x10000) as u32,
            };
            let body = format!(
                "{}{}",
                u_escape(high, k % 2 == 0),
                u_escape(low, k % 3 == 0)
            );
            let got = check_serde_string(&body);
            if (0xdc00..0xe000).contains(&low) {
                let c = char::from_u32(0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)).unwrap();
                assert_eq!(got, Ok(c.to_string().into_bytes()), "{body}");
            } else {
                assert_eq!(
                    got,
                    Err(KernelError::new(ErrorKind::LoneSurrogate, 0)),
                    "{body}"
                );
            }
        }
    }
}

/// `check_with_serde` on a `str` body, returning the strict result.
fn check_serde_string(body: &str) -> Result<Vec<u8>, KernelError> {
    check_with_serde(body.as_bytes());
    reference(body.as_bytes(), Surrogates::Strict)
}

/// Pieces random bodies are made of.
const PIECES: &[&str] = &[
    "a",
    "bc",
    "é",
    "中",
    "😀",
    " ",
    "/",
    "\"",
    "\\",
    "u",
    "D800",
    "0041",
    r"\n",
    r#"\""#,
    r"\\",
    r"\/",
    r"\t",
    r"\u00e9",
    r"\u4E2D",
    r"\uD83D\uDE00",
    r"\uD800",
    r"\uDC00",
    r"\u12",
    r"\x",
    "\u{1}",
];

#[test]
fn random_bodies() {
    let mut rng = Rng::new(0xe5c);
    let rounds = if cfg!(miri) { 20 } else { 20_000 };
    for _ in 0..rounds {
        let pieces = rng.below(60);
        let body: String = (0..pieces)
            .map(|_| PIECES[rng.below(PIECES.len())])
            .collect();
        check_with_serde(body.as_bytes());
    }
}

#[test]
fn documented_examples() {
    let ok = |body: &[u8], mode| {
        let mut out = Vec::new();
        unescape::unescape(body, &mut out, mode).map(|()| out)
    };
    fn err<T>(kind: ErrorKind, at: usize) -> Result<T, KernelError> {
        Err(KernelError::new(kind, at))
    }
    assert_eq!(
        ok(br#"a\"b\\c\/d\b\f\n\r\t"#, Surrogates::Strict),
        Ok(b"a\"b\\c/d\x08\x0c\n\r\t".to_vec())
    );
    assert_eq!(
        ok(br"\u00e9\u20AC\uD83D\uDE00", Surrogates::Strict),
        Ok("é€😀".as_bytes().to_vec())
    );
    assert_eq!(ok(br"\u0000", Surrogates::Strict), Ok(vec![0]));
    assert_eq!(
        ok(br"xy\uD800\u0041", Surrogates::Strict),
        err(ErrorKind::LoneSurrogate, 2)
    );
    assert_eq!(
        ok(br"xy\uD800\u0041", Surrogates::Lossy),
        Ok("xy\u{fffd}A".as_bytes().to_vec())
    );
    assert_eq!(
        ok(br"\uDC00\uD800", Surrogates::Lossy),
        Ok("\u{fffd}\u{fffd}".as_bytes().to_vec())
    );
    assert_eq!(
        ok(br"ab\q", Surrogates::Strict),
        err(ErrorKind::InvalidEscape, 2)
    );
    assert_eq!(
        ok(br"ab\", Surrogates::Strict),
        err(ErrorKind::InvalidEscape, 2)
    );
    assert_eq!(
        ok(br"a\u12", Surrogates::Strict),
        err(ErrorKind::InvalidUnicodeEscape, 1)
    );
    assert_eq!(
        ok(br"a\u12g4", Surrogates::Lossy),
        err(ErrorKind::InvalidUnicodeEscape, 1)
    );
    assert_eq!(
        ok(br"\uD800\u12", Surrogates::Lossy),
        err(ErrorKind::InvalidUnicodeEscape, 6)
    );
    assert_eq!(
        unescape::unescape_into(b"abc", &mut [0; 2], Surrogates::Strict),
        err(ErrorKind::OutputTooSmall, 0)
    );
    assert_eq!(
        unescape::validate_escapes(br"ok\n\uD83D\uDE00", Surrogates::Strict),
        Ok(())
    );
    assert_eq!(
        unescape::validate_escapes(br"\uDE00", Surrogates::Strict),
        err(ErrorKind::LoneSurrogate, 0)
    );
}

#[test]
fn short_output_buffer_is_an_error_for_every_twin() {
    for twin in twins() {
        for len in 1..40 {
            let body = vec![b'q'; len];
            let got = (twin.unescape_into)(&body, &mut vec![0; len - 1], Surrogates::Strict);
            assert_eq!(
                got,
                Err(KernelError::new(ErrorKind::OutputTooSmall, 0)),
                "{}",
                twin.name
            );
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn guard_page_input_and_output() {
    let twins = twins();
    let mut out_region = GuardedRegion::new(512);
    for len in 0..=100 {
        for esc in [r"\n", r"\u00e9", r"\uD83D\uDE00", r"\uD800", r"\u12", r"\"] {
            let mut body = vec![b'a'; len];
            body.extend_from_slice(esc.as_bytes());
            for_each_guarded_suffix(&body, |placed| {
                for twin in &twins {
                    check_twin(twin, placed);
                    for mode in [Surrogates::Strict, Surrogates::Lossy] {
                        let out = out_region.tail_mut(placed.len());
                        let got =
                            (twin.unescape_into)(placed, out, mode).map(|n| out[..n].to_vec());
                        assert_eq!(got, reference(placed, mode), "{} guarded output", twin.name);
                    }
                }
            });
        }
    }
}

/// `unescape_str` is `unescape` on a `String`: the same text for every escape and mode, and
/// on error the output as it was.
#[test]
fn unescape_str_matches_unescape() {
    for escape in ESCAPES {
        for body in [
            escape.to_string(),
            format!("é{escape}x"),
            format!("{escape}{escape}"),
        ] {
            for mode in [Surrogates::Strict, Surrogates::Lossy] {
                let mut bytes = b"kept".to_vec();
                let want = unescape::unescape(body.as_bytes(), &mut bytes, mode);
                let mut text = String::from("kept");
                let got = unescape::unescape_str(&body, &mut text, mode);
                assert_eq!(got, want, "{body:?} {mode:?}");
                assert_eq!(text.as_bytes(), bytes, "{body:?} {mode:?}");
            }
        }
    }
}

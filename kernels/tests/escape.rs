//! Escaping for output: scalar, dispatch and AVX2 against a reference model and serde_json in
//! every mode, for every special character at every position, random strings, and guard-page
//! placement of input and output.

mod common;

use common::{GuardedRegion, MiriSample, Rng, avx2, check_dispatch};
use jitson_kernels::escape::{self, EscapeMode, max_escaped_len};

const MODES: [EscapeMode; 3] = [EscapeMode::Minimal, EscapeMode::Ascii, EscapeMode::Html];

/// The reference model, one `char` at a time.
fn reference(s: &str, mode: EscapeMode) -> Vec<u8> {
    let mut out = String::from("\"");
    for c in s.chars() {
        let u_escape = |out: &mut String| {
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        };
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0'..='\u{1f}' => u_escape(&mut out),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' if mode == EscapeMode::Html => {
                u_escape(&mut out)
            }
            _ if mode == EscapeMode::Ascii && !c.is_ascii() => u_escape(&mut out),
            _ => out.push(c),
        }
    }
    out.push('"');
    out.into_bytes()
}

type EscapeStrFn = fn(&str, EscapeMode, &mut Vec<u8>);
type EscapeIntoFn = fn(&str, EscapeMode, &mut [u8]) -> usize;

/// Both entry points of one twin family.
struct Twin {
    name: &'static str,
    escape_str: EscapeStrFn,
    escape_into: EscapeIntoFn,
}

fn avx2_escape_str(s: &str, mode: EscapeMode, out: &mut Vec<u8>) {
    assert!(avx2());
    // SAFETY: AVX2 support was asserted.
    unsafe { escape::avx2::escape_str(s, mode, out) }
}

fn avx2_escape_into(s: &str, mode: EscapeMode, out: &mut [u8]) -> usize {
    assert!(avx2());
    // SAFETY: AVX2 support was asserted.
    unsafe { escape::avx2::escape_into(s, mode, out) }
}

/// The twins available on this machine.
fn twins() -> Vec<Twin> {
    let mut twins = vec![Twin {
        name: "scalar",
        escape_str: escape::scalar::escape_str,
        escape_into: escape::scalar::escape_into,
    }];
    if check_dispatch() {
        twins.push(Twin {
            name: "dispatch",
            escape_str: escape::escape_str,
            escape_into: escape::escape_into,
        });
    }
    if avx2() {
        twins.push(Twin {
            name: "avx2",
            escape_str: avx2_escape_str,
            escape_into: avx2_escape_into,
        });
    }
    twins
}

fn check_twin(twin: &Twin, s: &str, mode: EscapeMode, want: &[u8]) {
    let name = twin.name;
    let mut vec = b"prefix".to_vec();
    (twin.escape_str)(s, mode, &mut vec);
    assert_eq!(&vec[6..], want, "{name} escape_str {mode:?} {s:?}");
    assert_eq!(
        &vec[..6],
        b"prefix",
        "{name} escape_str kept what was there"
    );
    let mut buf = vec![0xaa; max_escaped_len(s.len())];
    let n = (twin.escape_into)(s, mode, &mut buf);
    assert_eq!(&buf[..n], want, "{name} escape_into {mode:?} {s:?}");
}

/// Checks every twin in every mode against the reference, the reference against serde_json,
/// and that no byte the mode forbids is left. Miri leaves out the last two: they check the
/// reference model, not the kernels, and the native run checks them on the same inputs.
fn check(s: &str) {
    let twins = twins();
    for mode in MODES {
        let want = reference(s, mode);
        for twin in &twins {
            check_twin(twin, s, mode, &want);
        }
        if !cfg!(miri) {
            check_against_serde(s, mode, &want);
        }
    }
}

fn check_against_serde(s: &str, mode: EscapeMode, escaped: &[u8]) {
    if mode == EscapeMode::Minimal {
        assert_eq!(
            escaped,
            serde_json::to_vec(s).unwrap(),
            "serde_json bytes for {s:?}"
        );
    }
    let back: String = serde_json::from_slice(escaped).expect("output is a JSON string");
    assert_eq!(back, s, "{mode:?} round trip");
    assert!(
        escaped.iter().all(|&b| b >= 0x20),
        "{mode:?} left a control byte"
    );
    match mode {
        EscapeMode::Minimal => {}
        EscapeMode::Ascii => assert!(escaped.is_ascii(), "Ascii left non-ASCII in {s:?}"),
        EscapeMode::Html => {
            let text = std::str::from_utf8(escaped).unwrap();
            assert!(
                !text.contains(['<', '>', '&', '\u{2028}', '\u{2029}']),
                "Html left an unsafe character in {s:?}"
            );
        }
    }
}

/// Characters each mode treats specially, their neighbours, and characters of every UTF-8
/// length.
const SPECIALS: &[char] = &[
    '"',
    '\\',
    '/',
    '\0',
    '\u{8}',
    '\t',
    '\n',
    '\u{b}',
    '\u{c}',
    '\r',
    '\u{1b}',
    '\u{1f}',
    ' ',
    '\u{7f}',
    '<',
    '>',
    '&',
    '\'',
    'é',
    '\u{7ff}',
    '€',
    '\u{2027}',
    '\u{2028}',
    '\u{2029}',
    '\u{202a}',
    '\u{e280}',
    '\u{ffff}',
    '😀',
    '\u{10000}',
    '\u{10ffff}',
];

#[test]
fn every_special_character_at_every_position() {
    let max_len = if cfg!(miri) { 2 } else { 100 };
    let mut sample = MiriSample::default();
    for &c in SPECIALS {
        for len in 0..=max_len {
            for pos in (0..=len).filter(|_| sample.next_runs()) {
                let mut s = "a".repeat(len);
                s.insert(pos, c);
                check(&s);
            }
        }
    }
}

#[test]
fn special_runs_across_chunk_boundaries() {
    let max_len = if cfg!(miri) { 1 } else { 70 };
    // Under Miri every third special: each one is checked at every position of short
    // strings by `every_special_character_at_every_position`.
    for &c in SPECIALS.iter().step_by(if cfg!(miri) { 3 } else { 1 }) {
        for prefix in 0..=max_len {
            for run in 1..=3 {
                let s = format!("{}{}tail", "x".repeat(prefix), c.to_string().repeat(run));
                check(&s);
            }
        }
    }
}

#[test]
fn random_strings() {
    let mut rng = Rng::new(0xe5ca7e);
    let rounds = if cfg!(miri) { 8 } else { 10_000 };
    for _ in 0..rounds {
        let len = rng.below(120);
        let mostly_plain: String = (0..len)
            .map(|_| match rng.below(8) {
                0 => SPECIALS[rng.below(SPECIALS.len())],
                _ => char::from(b'a' + rng.below(26) as u8),
            })
            .collect();
        check(&mostly_plain);
        let unicode: String = (0..len / 4)
            .filter_map(|_| char::from_u32(rng.below(0x11_0000) as u32))
            .collect();
        check(&unicode);
    }
}

#[test]
fn documented_examples() {
    let esc = |s: &str, mode| {
        let mut out = Vec::new();
        escape::escape_str(s, mode, &mut out);
        String::from_utf8(out).unwrap()
    };
    assert_eq!(
        esc("a\"b\\c/\u{1}\u{7f}é", EscapeMode::Minimal),
        "\"a\\\"b\\\\c/\\u0001\u{7f}é\""
    );
    assert_eq!(
        esc("\u{8}\u{c}\n\r\t", EscapeMode::Minimal),
        r#""\b\f\n\r\t""#
    );
    assert_eq!(
        esc("é€😀", EscapeMode::Ascii),
        r#""\u00e9\u20ac\ud83d\ude00""#
    );
    assert_eq!(
        esc("<a&b>\u{2028}\u{2029}é", EscapeMode::Html),
        "\"\\u003ca\\u0026b\\u003e\\u2028\\u2029é\""
    );
    assert_eq!(esc("", EscapeMode::Html), "\"\"");
    assert_eq!(max_escaped_len(0), 2);
    assert_eq!(max_escaped_len(10), 62);
    let worst = "\u{1}".repeat(10);
    assert_eq!(
        esc(&worst, EscapeMode::Minimal).len(),
        max_escaped_len(worst.len())
    );
}

#[test]
#[should_panic(expected = "shorter than max_escaped_len")]
fn escape_into_rejects_a_short_buffer() {
    escape::escape_into("abc", EscapeMode::Minimal, &mut [0; 19]);
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn guard_page_input_and_output() {
    let twins = twins();
    let mut input_region = GuardedRegion::new(1024);
    let mut output_region = GuardedRegion::new(max_escaped_len(1024));
    for len in 0..=80 {
        for &c in &['a', '"', '\u{1}', 'é', '\u{2028}', '😀'] {
            let mut s = "q".repeat(len);
            s.push(c);
            for start in s.char_indices().map(|(i, _)| i) {
                let suffix = &s[start..];
                let placed = std::str::from_utf8(input_region.place(suffix.as_bytes())).unwrap();
                for mode in MODES {
                    let want = reference(placed, mode);
                    for twin in &twins {
                        check_twin(twin, placed, mode, &want);
                        let out = output_region.tail_mut(max_escaped_len(placed.len()));
                        let n = (twin.escape_into)(placed, mode, out);
                        assert_eq!(&out[..n], want, "{} guarded output", twin.name);
                    }
                }
            }
        }
    }
}

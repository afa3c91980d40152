//! Re-escaping: the scalar, dispatch and AVX2 twins of `reescape_minimal` against unescape
//! followed by minimal escaping, on every escape at every position, every `\u` escape,
//! surrogate pairs and lone halves, random bodies, and guard-page placement of the input.

mod common;

use common::{MiriSample, Rng, avx2, check_dispatch, for_each_guarded_suffix, special_byte_inputs};
use jitson_kernels::KernelError;
use jitson_kernels::escape::{EscapeMode, escape_str};
use jitson_kernels::reescape;
use jitson_kernels::unescape::{Surrogates, unescape};

type ReescapeFn = fn(&[u8], &mut Vec<u8>, Surrogates) -> Result<(), KernelError>;

fn avx2_reescape(body: &[u8], out: &mut Vec<u8>, s: Surrogates) -> Result<(), KernelError> {
    assert!(avx2());
    // SAFETY: AVX2 support was asserted.
    unsafe { reescape::avx2::reescape_minimal(body, out, s) }
}

/// The twins available on this machine, by name.
fn twins() -> Vec<(&'static str, ReescapeFn)> {
    let mut twins: Vec<(&'static str, ReescapeFn)> =
        vec![("scalar", reescape::scalar::reescape_minimal)];
    if check_dispatch() {
        twins.push(("dispatch", reescape::reescape_minimal));
    }
    if avx2() && !cfg!(miri) {
        twins.push(("avx2", avx2_reescape));
    }
    twins
}

/// The two-step answer: unescape, then escape the text with the minimal mode.
fn reference(body: &[u8], surrogates: Surrogates) -> Result<Vec<u8>, KernelError> {
    let mut text = Vec::new();
    unescape(body, &mut text, surrogates)?;
    let mut out = Vec::new();
    escape_str(
        std::str::from_utf8(&text).expect("UTF-8 body"),
        EscapeMode::Minimal,
        &mut out,
    );
    Ok(out)
}

/// Every twin agrees with the reference on `body` in both surrogate modes, appending after
/// existing output and leaving it untouched on error.
fn check(body: &[u8]) {
    for surrogates in [Surrogates::Strict, Surrogates::Lossy] {
        let want = reference(body, surrogates);
        for (name, twin) in twins() {
            let mut out = b"prefix".to_vec();
            let got = twin(body, &mut out, surrogates).map(|()| out[6..].to_vec());
            assert_eq!(
                got,
                want,
                "{name} {surrogates:?} on {:?}",
                String::from_utf8_lossy(body)
            );
            if want.is_err() {
                assert_eq!(out, b"prefix", "{name}: output restored on error");
            }
            let len = got.map_or(0, |g| g.len());
            assert!(
                len <= body.len() + 2,
                "{name}: output never longer than body + quotes"
            );
        }
    }
}

/// Escapes (and malformed ones), each decoding to something the minimal mode treats
/// differently.
const ESCAPES: &[&str] = &[
    "\\\"",
    "\\\\",
    "\\/",
    "\\b",
    "\\f",
    "\\n",
    "\\r",
    "\\t",
    "\\u0000",
    "\\u001F",
    "\\u001f",
    "\\u0008",
    "\\u000a",
    "\\u0022",
    "\\u005C",
    "\\u002f",
    "\\u0041",
    "\\u007f",
    "\\u00e9",
    "\\u2028",
    "\\u4E2D",
    "\\uFFFF",
    "\\uD83D\\uDE00",
    "\\uDBFF\\uDFFF",
    "\\uD800",
    "\\uDC00",
    "\\uD800\\u0041",
    "\\u12",
    "\\x",
    "\\",
];

#[test]
fn every_escape_at_every_position() {
    let max_len = if cfg!(miri) { 3 } else { 70 };
    let mut sample = MiriSample::default();
    for escape in ESCAPES {
        for len in 0..=max_len {
            for pos in (0..=len).filter(|_| sample.next_runs()) {
                let mut body = vec![b'a'; len];
                body.splice(pos..pos, escape.bytes());
                check(&body);
            }
        }
    }
}

#[test]
fn every_unicode_escape() {
    let step = if cfg!(miri) { 4099 } else { 1 };
    for unit in (0..=0xffffu32).step_by(step) {
        check(format!("x\\u{unit:04x}y").as_bytes());
        check(format!("\\u{unit:04X}").as_bytes());
    }
}

#[test]
fn plain_bodies_are_copied() {
    let mut sample = MiriSample::default();
    for body in special_byte_inputs(b'a', b"/\x7f<>&'").filter(|_| sample.next_runs()) {
        check(&body);
    }
    check("é中文😀\u{2028}".as_bytes());
}

#[test]
fn random_bodies() {
    let pieces: &[&str] = &[
        "a",
        "long run of plain text ",
        "é",
        "中",
        "😀",
        "<",
        "\u{2028}",
    ];
    // A lone backslash before the next piece's `\"` would leave a raw quote: not a body.
    let escapes: Vec<&str> = ESCAPES.iter().copied().filter(|&e| e != "\\").collect();
    let mut rng = Rng::new(0x7ee5_ca9e);
    let rounds = if cfg!(miri) { 10 } else { 20_000 };
    for _ in 0..rounds {
        let mut body = String::new();
        for _ in 0..rng.below(12) {
            body.push_str(if rng.one_in(2) {
                rng.pick(&escapes)
            } else {
                rng.pick(pieces)
            });
        }
        check(body.as_bytes());
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn guarded_inputs() {
    let body = "plain text before \\n\\u4e2d\\uD83D\\uDE00 and after, long enough for a chunk \\\"";
    for_each_guarded_suffix(body.as_bytes(), |placed| {
        for surrogates in [Surrogates::Strict, Surrogates::Lossy] {
            for (_, twin) in twins() {
                let mut out = Vec::new();
                let _ = twin(placed, &mut out, surrogates);
            }
        }
    });
}

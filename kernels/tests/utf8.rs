//! UTF-8 validation: scalar, dispatch and AVX2 against `std::str::from_utf8` on every length
//! and position of special bytes and sequences, random bytes, corrupted valid text, and
//! guard-page placement.

mod common;

use common::{MiriSample, Rng, avx2, check_dispatch, for_each_guarded_suffix, special_byte_inputs};
use jitson_kernels::utf8;
use jitson_kernels::{ErrorKind, KernelError};

/// The reference verdict: std's validator, as a kernel result.
fn reference(bytes: &[u8]) -> Result<(), KernelError> {
    std::str::from_utf8(bytes)
        .map(drop)
        .map_err(|e| KernelError::new(ErrorKind::InvalidUtf8, e.valid_up_to()))
}

fn check(bytes: &[u8]) {
    let want = reference(bytes);
    assert_eq!(
        utf8::scalar::validate_utf8(bytes),
        want,
        "scalar {bytes:x?}"
    );
    if check_dispatch() {
        assert_eq!(utf8::validate_utf8(bytes), want, "dispatch {bytes:x?}");
    }
    if avx2() {
        // SAFETY: AVX2 support was checked.
        let got = unsafe { utf8::avx2::validate_utf8(bytes) };
        assert_eq!(got, want, "avx2 {bytes:x?}");
    }
}

/// Lead bytes, continuations and bytes that never occur in UTF-8.
const SPECIAL_BYTES: &[u8] = &[
    0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff,
];

/// Whole, truncated, overlong, surrogate and out-of-range sequences.
const SEQUENCES: &[&[u8]] = &[
    b"\xc3\xa9",
    b"\xe2\x82\xac",
    b"\xf0\x9f\x98\x80",
    b"\xf4\x8f\xbf\xbf",
    b"\xef\xbf\xbf",
    b"\xed\x9f\xbf",
    b"\xee\x80\x80",
    b"\xc3",
    b"\xe2\x82",
    b"\xf0\x9f\x98",
    b"\xc0\x80",
    b"\xc1\xbf",
    b"\xe0\x80\x80",
    b"\xe0\x9f\xbf",
    b"\xf0\x8f\xbf\xbf",
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xf4\x90\x80\x80",
    b"\xf5\x80\x80\x80",
    b"\xe2\x82\xac\x80",
];

#[test]
fn every_special_byte_at_every_position() {
    let max_len = if cfg!(miri) { 8 } else { usize::MAX };
    for input in special_byte_inputs(b'a', SPECIAL_BYTES).take_while(|v| v.len() <= max_len) {
        check(&input);
    }
}

/// Every byte where some UTF-8 class begins or ends, and one byte inside each class.
const CLASS_EDGES: &[u8] = &[
    0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xcf, 0xd0, 0xdf, 0xe0,
    0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf7, 0xf8, 0xfe, 0xff,
];

/// Where a short input's sequences are placed: at the start, across the boundary of the two
/// 32-byte blocks the AVX2 path checks below 64 bytes, and at the end.
fn short_placements(seq: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
    [seq.len(), 31, 32, 33, 63]
        .into_iter()
        .flat_map(move |len| {
            let ends = [0, 29, 30, 31, 32, len - seq.len()];
            ends.into_iter()
                .filter(move |&at| at + seq.len() <= len)
                .map(move |at| {
                    let mut v = vec![b'a'; len];
                    v[at..at + seq.len()].copy_from_slice(seq);
                    v
                })
        })
}

#[test]
#[cfg_attr(
    miri,
    ignore = "aimed at the AVX2 short-input check, which Miri does not run; too slow there"
)]
fn every_byte_pair_and_class_triple_in_short_inputs() {
    let pairs = (0..=255u8).flat_map(|a| (0..=255u8).map(move |b| vec![a, b]));
    let edges = || CLASS_EDGES.iter().copied();
    let triples =
        edges().flat_map(|a| edges().flat_map(move |b| edges().map(move |c| vec![a, b, c])));
    for seq in pairs.chain(triples) {
        for input in short_placements(&seq) {
            check(&input);
        }
    }
    // Four-byte sequences (the only ones with a third continuation) from the class edges
    // past `0xe0`, across the block boundary.
    for lead in edges().filter(|&b| b >= 0xe0) {
        let tails =
            edges().flat_map(|b| edges().flat_map(move |c| edges().map(move |d| [b, c, d])));
        for [b, c, d] in tails {
            for input in short_placements(&[lead, b, c, d]) {
                check(&input);
            }
        }
    }
}

#[test]
fn every_sequence_at_every_position() {
    let max_len = if cfg!(miri) { 8 } else { 130 };
    let mut sample = MiriSample::default();
    for seq in SEQUENCES {
        for len in seq.len()..=max_len {
            for pos in (0..=len - seq.len()).filter(|_| sample.next_runs()) {
                let mut v = vec![b'a'; len];
                v[pos..pos + seq.len()].copy_from_slice(seq);
                check(&v);
                // The same sequence in non-ASCII surroundings (the AVX2 path's other mode).
                let mut accented: Vec<u8> = "é".repeat(len / 2 + 1).into_bytes();
                let at = pos.min(accented.len() / 2) & !1;
                accented.splice(at..at, seq.iter().copied());
                check(&accented);
            }
        }
    }
}

/// Random valid UTF-8 of about `len` bytes drawn from characters of every encoded length.
fn random_text(rng: &mut Rng, len: usize) -> String {
    const CHARS: &[char] = &[
        'a',
        'Z',
        '~',
        '\u{7f}',
        'é',
        'ß',
        '\u{7ff}',
        '€',
        '中',
        '\u{fffd}',
        '\u{ffff}',
        '😀',
        '\u{10ffff}',
    ];
    let mut s = String::new();
    while s.len() < len {
        s.push(CHARS[rng.below(CHARS.len())]);
    }
    s
}

#[test]
fn random_text_with_one_corrupted_byte() {
    let mut rng = Rng::new(0x0f8);
    let rounds = if cfg!(miri) { 20 } else { 20_000 };
    for _ in 0..rounds {
        let len = rng.below(300);
        let mut bytes = random_text(&mut rng, len).into_bytes();
        check(&bytes);
        if !bytes.is_empty() {
            let at = rng.below(bytes.len());
            bytes[at] = SPECIAL_BYTES[rng.below(SPECIAL_BYTES.len())];
            check(&bytes);
        }
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng::new(0xb17e5);
    let rounds = if cfg!(miri) { 20 } else { 20_000 };
    let alphabet: Vec<u8> = (0..=255).collect();
    for _ in 0..rounds {
        let len = rng.below(200);
        check(&rng.bytes_from(&alphabet, len));
        check(&rng.bytes_from(b"aaaaaaa\x80\xbf\xc3\xe2\xf0\x9f", len));
    }
}

#[test]
fn long_inputs_error_late() {
    let len = if cfg!(miri) { 300 } else { 5000 };
    let mut bytes = random_text(&mut Rng::new(9), len).into_bytes();
    check(&bytes);
    for back in 1..=4 {
        let mut corrupt = bytes.clone();
        let at = corrupt.len() - back;
        corrupt[at] = 0xff;
        check(&corrupt);
    }
    bytes.push(0xe2);
    check(&bytes);
}

#[test]
fn reports_valid_prefix_length() {
    assert_eq!(utf8::validate_utf8(b""), Ok(()));
    assert_eq!(utf8::validate_utf8("aé€😀".as_bytes()), Ok(()));
    assert_eq!(
        utf8::validate_utf8(b"ab\xc3\xa9\xff"),
        Err(KernelError::new(ErrorKind::InvalidUtf8, 4))
    );
    assert_eq!(
        utf8::validate_utf8(b"ab\xe2\x82"),
        Err(KernelError::new(ErrorKind::InvalidUtf8, 2))
    );
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn guard_page_placement() {
    for len in 0..=150 {
        let text = random_text(&mut Rng::new(len as u64 + 1), len).into_bytes();
        for_each_guarded_suffix(&text, check);
        let mut truncated = vec![b'a'; len];
        truncated.extend_from_slice(b"\xf0\x9f\x98");
        for_each_guarded_suffix(&truncated, check);
    }
}

//! Whitespace skipping and string scanning: AVX2 against scalar on every length and position,
//! random inputs, and guard-page placement.

mod common;

use common::{MiriSample, Rng, avx2, check_dispatch, for_each_guarded_suffix, special_byte_inputs};
use jitson_kernels::string_scan::{self, StringScan};
use jitson_kernels::whitespace;
use jitson_kernels::{ErrorKind, KernelError};

/// A plain reference for string scanning, byte by byte.
fn reference_scan(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
    let (mut i, mut has_escapes, mut first_control) = (start, false, None);
    while i < buf.len() {
        match buf[i] {
            b'"' => {
                return Ok(StringScan {
                    end: i,
                    has_escapes,
                    first_control,
                    has_non_ascii: buf[start..i].iter().any(|&b| b >= 0x80),
                });
            }
            b'\\' => {
                has_escapes = true;
                i += 1;
            }
            b if b < 0x20 && first_control.is_none() => first_control = Some(i),
            _ => {}
        }
        i += 1;
    }
    Err(KernelError::new(ErrorKind::UnexpectedEnd, buf.len()))
}

/// A plain reference for the checked scan: the scan, then the first control byte, then std's
/// UTF-8 verdict on the whole body.
fn reference_checked(buf: &[u8], start: usize) -> Result<StringScan, KernelError> {
    let scan = reference_scan(buf, start)?;
    if let Some(c) = scan.first_control {
        return Err(KernelError::new(ErrorKind::ControlInString, c));
    }
    std::str::from_utf8(&buf[start..scan.end])
        .map_err(|e| KernelError::new(ErrorKind::InvalidUtf8, start + e.valid_up_to()))?;
    Ok(scan)
}

fn reference_skip(buf: &[u8], pos: usize) -> usize {
    let mut i = pos;
    while i < buf.len() && matches!(buf[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

fn check_whitespace(buf: &[u8]) {
    for pos in [0, 1, buf.len() / 2, buf.len(), buf.len() + 3] {
        let want = reference_skip(buf, pos);
        assert_eq!(
            whitespace::scalar::skip_whitespace(buf, pos),
            want,
            "scalar {buf:?} @{pos}"
        );
        if check_dispatch() {
            assert_eq!(
                whitespace::skip_whitespace(buf, pos),
                want,
                "dispatch {buf:?} @{pos}"
            );
        }
        if avx2() {
            // SAFETY: AVX2 support was checked.
            let got = unsafe { whitespace::avx2::skip_whitespace(buf, pos) };
            assert_eq!(got, want, "avx2 {buf:?} @{pos}");
        }
    }
}

fn check_scan(buf: &[u8]) {
    for start in [0, 1, buf.len()] {
        if start > buf.len() {
            continue;
        }
        let want = reference_scan(buf, start);
        assert_eq!(
            string_scan::scalar::scan_string(buf, start),
            want,
            "scalar {buf:?} @{start}"
        );
        if check_dispatch() {
            assert_eq!(
                string_scan::scan_string(buf, start),
                want,
                "dispatch {buf:?} @{start}"
            );
        }
        if avx2() {
            // SAFETY: AVX2 support was checked.
            let got = unsafe { string_scan::avx2::scan_string(buf, start) };
            assert_eq!(got, want, "avx2 {buf:?} @{start}");
        }
        let want = reference_checked(buf, start);
        assert_eq!(
            string_scan::scalar::scan_checked(buf, start),
            want,
            "scalar checked {buf:?} @{start}"
        );
        if check_dispatch() {
            assert_eq!(
                string_scan::scan_checked(buf, start),
                want,
                "dispatch checked {buf:?} @{start}"
            );
        }
        if avx2() {
            // SAFETY: AVX2 support was checked.
            let got = unsafe { string_scan::avx2::scan_checked(buf, start) };
            assert_eq!(got, want, "avx2 checked {buf:?} @{start}");
        }
        let got = string_scan::scan_str(buf, start).map(|(body, scan)| {
            assert_eq!(
                body.as_bytes(),
                &buf[start..scan.end],
                "scan_str body {buf:?}"
            );
            scan
        });
        assert_eq!(got, want, "scan_str {buf:?} @{start}");
    }
}

#[test]
fn whitespace_every_length_and_position() {
    let mut sample = MiriSample::default();
    for filler in [b' ', b'\n'] {
        let inputs = special_byte_inputs(filler, b"x\t\r\x0b\x0c\x00\xff{");
        for input in inputs.filter(|_| sample.next_runs()) {
            check_whitespace(&input);
        }
    }
}

#[test]
fn scan_every_length_and_position() {
    let mut sample = MiriSample::default();
    let inputs = special_byte_inputs(b'a', b"\"\\\x00\x1f\x20\x7f\xff");
    for input in inputs.filter(|_| sample.next_runs()) {
        check_scan(&input);
    }
}

#[test]
fn scan_utf8_sequences_at_every_position() {
    // Whole, truncated and invalid UTF-8 (and a non-ASCII byte after a backslash) at every
    // position of bodies with and without a closing quote, so the ASCII fast path and the
    // validation of the body meet every chunk boundary and the end of the buffer.
    let sequences: [&[u8]; 7] = [
        b"\xc3\xa9",
        b"\xe2\x82\xac",
        b"\xf0\x9f\x98\x80",
        b"\xc3",
        b"\xff",
        b"\xed\xa0\x80",
        b"\\\xc3",
    ];
    let mut sample = MiriSample::default();
    for len in 0..=common::MAX_EXHAUSTIVE_LEN {
        for pos in 0..=len {
            for seq in sequences.into_iter().filter(|_| sample.next_runs()) {
                let mut v = vec![b'a'; len];
                v.splice(pos..pos, seq.iter().copied());
                check_scan(&v);
                v.push(b'"');
                check_scan(&v);
            }
        }
    }
}

#[test]
fn scan_escape_pairs_at_every_position() {
    // Two special bytes together: backslash-quote, backslash-backslash and friends across
    // every chunk boundary, including a backslash as the last byte of a chunk.
    let mut sample = MiriSample::default();
    for len in 2..=common::MAX_EXHAUSTIVE_LEN {
        for pos in 0..len - 1 {
            let pairs = [*b"\\\"", *b"\\\\", *b"\\\x01", *b"\x01\"", *b"\\n"];
            for pair in pairs.into_iter().filter(|_| sample.next_runs()) {
                let mut v = vec![b'a'; len];
                v[pos..pos + 2].copy_from_slice(&pair);
                check_scan(&v);
                v.push(b'"');
                check_scan(&v);
            }
        }
    }
}

#[test]
fn random_inputs_agree() {
    let mut rng = Rng::new(0x5eed);
    let (rounds, max_len) = if cfg!(miri) { (20, 80) } else { (20_000, 300) };
    for _ in 0..rounds {
        let len = rng.below(max_len);
        let ws = rng.bytes_from(b"    \t\n\r", len);
        check_whitespace(&ws);
        let mixed = rng.bytes_from(b"aaaaaaaaaaaa\\\"\x01 \t\n\xc3\xa9", len);
        check_whitespace(&mixed);
        check_scan(&mixed);
        // Mostly clean bodies with rare specials and UTF-8 pieces, so quotes fall late.
        let body = rng.bytes_from(
            b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"\\\x01\xc3\xa9\xe2\x82\xac\xff",
            len,
        );
        check_scan(&body);
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn guard_page_whitespace_and_scan() {
    for len in 0..=200 {
        for_each_guarded_suffix(&vec![b' '; len], check_whitespace);
        for_each_guarded_suffix(&vec![b'a'; len], check_scan);
        let mut trailing_backslash = vec![b'a'; len];
        trailing_backslash.push(b'\\');
        for_each_guarded_suffix(&trailing_backslash, check_scan);
        let mut utf8_tail = vec![b'a'; len];
        utf8_tail.extend_from_slice(b"\xe2\x82\xac\"");
        for_each_guarded_suffix(&utf8_tail, check_scan);
        utf8_tail.truncate(len + 2);
        for_each_guarded_suffix(&utf8_tail, check_scan);
    }
}

#[test]
fn scan_reports_documented_fields() {
    let buf = b"\"ab\\\"c\x01d\"";
    let scan = string_scan::scan_string(buf, 1).unwrap();
    assert_eq!(
        scan,
        StringScan {
            end: 8,
            has_escapes: true,
            first_control: Some(6),
            has_non_ascii: false,
        }
    );
    assert_eq!(
        string_scan::scan_string(b"\"abc\\", 1),
        Err(KernelError::new(ErrorKind::UnexpectedEnd, 5))
    );
}

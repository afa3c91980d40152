//! Integer parsing: scalar, dispatch and AVX2 twins against a reference built on
//! `scan_number` and `str::parse`, at the range boundaries, at every position and suffix, on
//! random tokens, and against guard pages.

mod common;

use common::{MiriSample, Rng, avx2, check_dispatch, for_each_guarded_suffix, token_in_contexts};
use jitson_kernels::int_parse;
use jitson_kernels::number::scan_number;
use jitson_kernels::{ErrorKind, KernelError};

/// The specified answer for `i64`: the grammar error, else NotAnInteger, else the value or
/// NumberOutOfRange, with `str::parse` deciding the range.
fn reference_i64(buf: &[u8], pos: usize) -> Result<(i64, usize), KernelError> {
    let token = scan_number(buf, pos)?;
    if !token.is_integer {
        return Err(KernelError::new(ErrorKind::NotAnInteger, pos));
    }
    let text = std::str::from_utf8(&buf[token.start..token.end]).unwrap();
    text.parse::<i64>()
        .map(|v| (v, token.end))
        .map_err(|_| KernelError::new(ErrorKind::NumberOutOfRange, pos))
}

/// The specified answer for `u64` (`-0` is 0, any other negative value is out of range).
fn reference_u64(buf: &[u8], pos: usize) -> Result<(u64, usize), KernelError> {
    let token = scan_number(buf, pos)?;
    if !token.is_integer {
        return Err(KernelError::new(ErrorKind::NotAnInteger, pos));
    }
    let text = std::str::from_utf8(&buf[token.start..token.end]).unwrap();
    let parsed = match text.strip_prefix('-') {
        Some("0") => Ok(0),
        Some(_) => Err(()),
        None => text.parse::<u64>().map_err(|_| ()),
    };
    parsed
        .map(|v| (v, token.end))
        .map_err(|()| KernelError::new(ErrorKind::NumberOutOfRange, pos))
}

/// Every twin agrees with the reference on `buf` at `pos`.
fn check_at(buf: &[u8], pos: usize) {
    let (want_i, want_u) = (reference_i64(buf, pos), reference_u64(buf, pos));
    let show = String::from_utf8_lossy(buf);
    assert_eq!(
        int_parse::scalar::parse_i64(buf, pos),
        want_i,
        "scalar i64 {show:?} @{pos}"
    );
    assert_eq!(
        int_parse::scalar::parse_u64(buf, pos),
        want_u,
        "scalar u64 {show:?} @{pos}"
    );
    if check_dispatch() {
        assert_eq!(
            int_parse::parse_i64(buf, pos),
            want_i,
            "dispatch i64 {show:?} @{pos}"
        );
        assert_eq!(
            int_parse::parse_u64(buf, pos),
            want_u,
            "dispatch u64 {show:?} @{pos}"
        );
    }
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: AVX2 support was checked.
        let (got_i, got_u) = unsafe {
            (
                int_parse::avx2::parse_i64(buf, pos),
                int_parse::avx2::parse_u64(buf, pos),
            )
        };
        assert_eq!(got_i, want_i, "avx2 i64 {show:?} @{pos}");
        assert_eq!(got_u, want_u, "avx2 u64 {show:?} @{pos}");
    }
}

/// Checks `token` at position 0 and after a prefix, followed by each terminator (fewer under
/// Miri).
fn check_token(token: &str) {
    let suffixes: &[&str] = if cfg!(miri) {
        &["", ",", ".5"]
    } else {
        &[
            "",
            ",",
            "]",
            "}",
            " ",
            "\n",
            "x",
            ".5",
            "e3",
            "E",
            "0",
            "-",
            ".",
            ",1234567890123456",
        ]
    };
    for (buf, pos) in token_in_contexts(token, &["", "[", "  :"], suffixes) {
        check_at(&buf, pos);
    }
}

fn ok_i64(text: &str) -> Result<(i64, usize), KernelError> {
    int_parse::parse_i64(text.as_bytes(), 0)
}

fn ok_u64(text: &str) -> Result<(u64, usize), KernelError> {
    int_parse::parse_u64(text.as_bytes(), 0)
}

fn err(kind: ErrorKind, offset: usize) -> KernelError {
    KernelError::new(kind, offset)
}

#[test]
fn documented_answers() {
    use ErrorKind::*;
    assert_eq!(ok_i64("0"), Ok((0, 1)));
    assert_eq!(ok_i64("-0"), Ok((0, 2)));
    assert_eq!(ok_u64("-0"), Ok((0, 2)));
    assert_eq!(ok_i64("-9223372036854775808,"), Ok((i64::MIN, 20)));
    assert_eq!(ok_i64("9223372036854775807]"), Ok((i64::MAX, 19)));
    assert_eq!(
        ok_i64("-9223372036854775809"),
        Err(err(NumberOutOfRange, 0))
    );
    assert_eq!(ok_i64("9223372036854775808"), Err(err(NumberOutOfRange, 0)));
    assert_eq!(ok_u64("18446744073709551615"), Ok((u64::MAX, 20)));
    assert_eq!(
        ok_u64("18446744073709551616"),
        Err(err(NumberOutOfRange, 0))
    );
    assert_eq!(ok_u64("-1"), Err(err(NumberOutOfRange, 0)));
    assert_eq!(ok_u64("1.5"), Err(err(NotAnInteger, 0)));
    assert_eq!(ok_i64("1e5"), Err(err(NotAnInteger, 0)));
    assert_eq!(ok_i64("-0.0"), Err(err(NotAnInteger, 0)));
    assert_eq!(
        ok_i64("123456789012345678901234567890.5"),
        Err(err(NotAnInteger, 0))
    );
    assert_eq!(ok_i64("1.x"), Err(err(InvalidNumber, 2)));
    assert_eq!(ok_i64("1e"), Err(err(UnexpectedEnd, 2)));
    assert_eq!(ok_i64("01"), Err(err(InvalidNumber, 1)));
    assert_eq!(ok_i64("-01"), Err(err(InvalidNumber, 2)));
    assert_eq!(ok_i64("-"), Err(err(UnexpectedEnd, 1)));
    assert_eq!(ok_i64(""), Err(err(UnexpectedEnd, 0)));
    assert_eq!(ok_i64("+1"), Err(err(InvalidNumber, 0)));
    assert_eq!(ok_i64("x"), Err(err(InvalidNumber, 0)));
    assert_eq!(int_parse::parse_i64(b"[12, 3]", 1), Ok((12, 3)));
    assert_eq!(int_parse::parse_i64(b"12", 7), Err(err(UnexpectedEnd, 2)));
}

#[test]
fn boundaries_and_digit_counts() {
    let mut tokens: Vec<String> = vec![
        "0", "-0", "1", "-1", "9", "10", "-10", "00", "-00", "01", "0.", "-", "", "1e", "1e+2",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    for base in [i64::MIN as i128, i64::MAX as i128, u64::MAX as i128, 0] {
        for delta in -3..=3 {
            let v = base + delta;
            tokens.push(v.to_string());
            tokens.push(format!("-{}", v.unsigned_abs()));
        }
    }
    // Every power of ten and its neighbours, to 25 digits, with both signs.
    let mut p = 1u128;
    for _ in 0..25 {
        for v in [p - 1, p, p + 1] {
            tokens.push(v.to_string());
            tokens.push(format!("-{v}"));
            tokens.push(format!("{v}.0"));
        }
        p *= 10;
    }
    // Long runs: 15 to 40 nines and zeros.
    for len in 15..=40 {
        tokens.push("9".repeat(len));
        tokens.push(format!("1{}", "0".repeat(len - 1)));
        tokens.push(format!("-{}", "9".repeat(len)));
    }
    // Under Miri, a sample of them.
    for token in tokens.iter().step_by(if cfg!(miri) { 21 } else { 1 }) {
        check_token(token);
    }
}

#[test]
fn every_position_in_a_long_buffer() {
    // Tokens at every offset of a buffer, so that every 8- and 16-byte window alignment and
    // every distance to the end is met.
    let body = b"[0,-1,12,-123,1234,98765,-123456,1234567,12345678,-123456789,1234567890123456,\
                 12345678901234567,-9223372036854775808,18446744073709551615,1.5,2e3,-0,01]";
    let mut sample = MiriSample::default();
    for pos in (0..=body.len()).filter(|_| sample.next_runs()) {
        check_at(body, pos);
        check_at(&body[..pos], pos.saturating_sub(3));
    }
}

#[test]
fn random_values_and_tokens() {
    let mut rng = Rng::new(0x1e7);
    let rounds = if cfg!(miri) { 100 } else { 300_000 };
    for _ in 0..rounds {
        let bits = rng.below(65) as u32;
        let v = if bits == 0 {
            0
        } else {
            rng.next_u64() >> (64 - bits)
        };
        let text = match rng.below(3) {
            0 => v.to_string(),
            1 => (v as i64).to_string(),
            _ => format!("-{v}"),
        };
        let suffix_len = rng.below(3);
        let suffix = rng.bytes_from(b",]} \nx.e0-", suffix_len);
        let mut buf = text.into_bytes();
        buf.extend_from_slice(&suffix);
        check_at(&buf, 0);
    }
    for _ in 0..rounds {
        let len = rng.below(28);
        let buf = rng.bytes_from(b"0123456789012345678901234567890123456789-.eE+, ", len);
        check_at(&buf, 0);
        check_at(&buf, rng.below(len + 1));
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn guard_page_every_suffix() {
    let inputs = [
        "-9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "123456789012345678901234567890",
        "12345678901234567",
        "1234567890123456",
        "-123456789012345.5",
        "1234567e12",
        "-0",
        "7",
    ];
    for input in inputs {
        for_each_guarded_suffix(input.as_bytes(), |buf| {
            check_at(buf, 0);
            check_at(buf, 1);
        });
    }
}

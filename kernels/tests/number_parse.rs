//! The one-pass number reader: scalar, dispatch and AVX2 twins against the two-step reading it
//! replaces (`scan_number`, then `int_parse` for an integer token or `float_parse` for any
//! other), on boundary tokens, many random tokens (signs, fractions, exponents, integers near
//! the 64-bit bounds, long mantissas, subnormals, overflow, truncations, junk after the token,
//! tokens at the very end of the input), random bytes, every position, and guard pages.

mod common;

use common::{
    GuardedRegion, MiriSample, Rng, avx2, check_dispatch, for_each_guarded_suffix,
    token_in_contexts,
};
use jitson_kernels::float_parse::{self, FloatOverflow};
use jitson_kernels::int_parse;
use jitson_kernels::number::scan_number;
use jitson_kernels::number_parse::{self, NumberValue};
use jitson_kernels::{ErrorKind, KernelError};

/// A reading made comparable: floats by their bits, so `-0.0` differs from `0.0`.
#[derive(Debug, PartialEq, Eq)]
enum Read {
    U64(u64),
    I64(i64),
    F64Bits(u64),
    BigInt,
}

type Outcome = Result<(Read, usize), KernelError>;

fn comparable(r: Result<(NumberValue, usize), KernelError>) -> Outcome {
    r.map(|(v, end)| {
        let read = match v {
            NumberValue::U64(u) => Read::U64(u),
            NumberValue::I64(i) => Read::I64(i),
            NumberValue::F64(f) => Read::F64Bits(f.to_bits()),
            NumberValue::BigInt => Read::BigInt,
        };
        (read, end)
    })
}

/// The two-step reading: the grammar by `scan_number`, then the integer parser of the sign's
/// type (out of range: a big integer) or the float parser (beyond `f64`: infinite).
fn two_step(buf: &[u8], pos: usize) -> Outcome {
    let token = scan_number(buf, pos)?;
    if !token.is_integer {
        let (value, end) = float_parse::parse_f64(buf, pos, FloatOverflow::Infinity)?;
        assert_eq!(end, token.end, "parse_f64's end at {pos}");
        return Ok((Read::F64Bits(value.to_bits()), end));
    }
    let integer = if token.negative {
        int_parse::parse_i64(buf, pos).map(|(v, end)| (Read::I64(v), end))
    } else {
        int_parse::parse_u64(buf, pos).map(|(v, end)| (Read::U64(v), end))
    };
    match integer {
        Err(e) if e.kind == ErrorKind::NumberOutOfRange => Ok((Read::BigInt, token.end)),
        other => other,
    }
}

/// Every twin agrees with the two-step reading on `buf` at `pos`.
fn check_at(buf: &[u8], pos: usize) {
    let want = two_step(buf, pos);
    let show = String::from_utf8_lossy(buf);
    let got = comparable(number_parse::scalar::parse_number(buf, pos));
    assert_eq!(got, want, "scalar {show:?} @{pos}");
    if check_dispatch() {
        let got = comparable(number_parse::parse_number(buf, pos));
        assert_eq!(got, want, "dispatch {show:?} @{pos}");
    }
    let got = comparable(number_parse::parse_integer(buf, pos));
    assert_eq!(got, want, "integer first {show:?} @{pos}");
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: AVX2 support was checked.
        let got = comparable(unsafe { number_parse::avx2::parse_number(buf, pos) });
        assert_eq!(got, want, "avx2 {show:?} @{pos}");
        // SAFETY: AVX2 support was checked.
        let got = comparable(unsafe { number_parse::avx2::parse_integer(buf, pos) });
        assert_eq!(got, want, "avx2 integer first {show:?} @{pos}");
    }
}

/// Checks `token` at the end of the input, after a prefix, and before assorted bytes.
fn check_token(token: &str) {
    let suffixes: &[&str] = if cfg!(miri) {
        &["", ","]
    } else {
        &[
            "",
            ",",
            "]",
            " ",
            "x",
            ".",
            "e",
            "E",
            "-",
            "0",
            ".5",
            ",12345678901234567",
        ]
    };
    for (buf, pos) in token_in_contexts(token, &["", "[", "  :"], suffixes) {
        check_at(&buf, pos);
    }
}

fn read(text: &str) -> Result<(NumberValue, usize), KernelError> {
    number_parse::parse_number(text.as_bytes(), 0)
}

#[test]
fn documented_answers() {
    use NumberValue::{BigInt, F64, I64, U64};
    let err = |kind, offset| Err(KernelError::new(kind, offset));
    assert_eq!(read("12,"), Ok((U64(12), 2)));
    assert_eq!(read("-12]"), Ok((I64(-12), 3)));
    assert_eq!(read("-0"), Ok((I64(0), 2)));
    assert_eq!(read("18446744073709551615"), Ok((U64(u64::MAX), 20)));
    assert_eq!(read("18446744073709551616"), Ok((BigInt, 20)));
    assert_eq!(read("-9223372036854775808"), Ok((I64(i64::MIN), 20)));
    assert_eq!(read("-9223372036854775809"), Ok((BigInt, 20)));
    assert_eq!(read("1.5e1"), Ok((F64(15.0), 5)));
    assert_eq!(read("1e400"), Ok((F64(f64::INFINITY), 5)));
    assert_eq!(read("-1e400"), Ok((F64(f64::NEG_INFINITY), 6)));
    let (tiny, _) = read("-1e-400").unwrap();
    assert!(matches!(tiny, F64(f) if f.to_bits() == (-0.0f64).to_bits()));
    assert_eq!(read("01"), err(ErrorKind::InvalidNumber, 1));
    assert_eq!(read("1.x"), err(ErrorKind::InvalidNumber, 2));
    assert_eq!(read("1e"), err(ErrorKind::UnexpectedEnd, 2));
    assert_eq!(read("-"), err(ErrorKind::UnexpectedEnd, 1));
    assert_eq!(read("x"), err(ErrorKind::InvalidNumber, 0));
}

#[test]
fn boundary_tokens() {
    let tokens = [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "-0e5",
        "9",
        "1234567",
        "12345678",
        "-12345678",
        "123456789",
        "123456789012345",
        "-123456789012345",
        "0123",
        "-0123",
        "99999999",
        "999999999999999",
        "9999999999999999",
        "99999999999999999",
        "999999999999999999",
        "9999999999999999999",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775807",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "-18446744073709551615",
        "-18446744073709551616",
        "99999999999999999999",
        "100000000000000000000",
        "184467440737095516150",
        "1844674407370955161.5",
        "18446744073709551615.0",
        "18446744073709551616e0",
        "9007199254740993",
        "9007199254740993.0",
        "-65.613616999999977",
        "43.420273000000009",
        "0.1234567890123456789",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "2.2250738585072011e-308",
        "4.9e-324",
        "2.4e-324",
        "2.5e-324",
        "1e-400",
        "1e400",
        "123456789012345678901234567890e-10",
        "0.000000000000000000000000000000000000001",
        "1E+2",
        "1e-2",
        "00",
        "-00",
        "01.5",
        "1.",
        "1.e5",
        ".5",
        "-",
        "-x",
        "1e",
        "1e+",
        "1E-x",
        "+1",
    ];
    for token in tokens {
        check_token(token);
    }
}

/// A random number token, aimed at the shapes where the readings could differ.
fn random_token(rng: &mut Rng) -> String {
    let sign = if rng.chance(50) { "-" } else { "" };
    match rng.below(8) {
        // An integer of 1–22 digits.
        0 => {
            let len = 1 + rng.below(22);
            let lead = char::from(b'1' + rng.below(9) as u8);
            format!("{sign}{lead}{}", rng.digits(len - 1))
        }
        // An integer near a 64-bit bound: the bound plus or minus a little, or one digit
        // more or less.
        1 => {
            let bound: u128 = rng.pick(&[1 << 63, u64::MAX as u128, 10u128.pow(19)]);
            let delta = rng.below(2000) as u128;
            let value = if rng.chance(50) {
                bound + delta
            } else {
                bound - delta
            };
            let scaled = match rng.below(4) {
                0 => value * 10 + rng.below(10) as u128,
                1 => value / 10,
                _ => value,
            };
            format!("{sign}{scaled}")
        }
        // A decimal like canada.json's: a short integer and up to 20 fraction digits.
        2 => {
            let int = rng.below(1000);
            let frac_len = 1 + rng.below(20);
            format!("{sign}{int}.{}", rng.digits(frac_len))
        }
        // A random f64 printed both ways (shortest round trip and scientific).
        3 => {
            let v = f64::from_bits(rng.next_u64());
            match (v.is_finite(), rng.chance(50)) {
                (false, _) => format!("{sign}1e309"),
                (true, true) => format!("{v:?}"),
                (true, false) => format!("{v:e}"),
            }
        }
        // Many significant digits (beyond 64 bits of mantissa), any exponent.
        4 => {
            let int_len = 1 + rng.below(30);
            let frac_len = rng.below(30);
            let lead = char::from(b'1' + rng.below(9) as u8);
            let mut t = format!("{sign}{lead}{}", rng.digits(int_len - 1));
            if frac_len > 0 {
                t += &format!(".{}", rng.digits(frac_len));
            }
            if rng.chance(50) {
                t += &format!("e{}", rng.below(700) as i64 - 350);
            }
            t
        }
        // Subnormals, the underflow edge and overflow.
        5 => {
            let exp = rng.pick(&[
                -330i64, -324, -323, -320, -310, -308, -307, 306, 308, 309, 400,
            ]);
            let frac_len = rng.below(18);
            let mantissa = format!("{}.{}", 1 + rng.below(9), rng.digits(frac_len));
            format!("{sign}{mantissa}e{exp}")
        }
        // Zeros: leading zeros (bad), zero fractions, zero exponents.
        6 => {
            let zeros = "0".repeat(1 + rng.below(3));
            let tail = rng.pick(&["", ".0", ".000", "e0", "E+00", "1", ".5e-3"]);
            format!("{sign}{zeros}{tail}")
        }
        // A valid token cut short or broken by junk at a random byte.
        _ => {
            let mut t = format!(
                "{sign}{}.{}e-{}",
                1 + rng.below(9),
                rng.digits(5),
                rng.below(30)
            )
            .into_bytes();
            let at = rng.below(t.len() + 1);
            t.truncate(at);
            if rng.chance(50) {
                t.push(rng.pick(b".eE+-x 0"));
            }
            String::from_utf8(t).expect("ASCII")
        }
    }
}

#[test]
fn random_tokens_agree_with_the_two_step_reading() {
    let mut rng = Rng::new(0x0e_9a55);
    let rounds = if cfg!(miri) { 80 } else { 1_000_000 };
    let junk: [&[u8]; 8] = [b"", b",", b"]", b"}", b" ", b"x", b".", b"e"];
    for _ in 0..rounds {
        let token = random_token(&mut rng);
        // At the very end of the input, then before junk.
        check_at(token.as_bytes(), 0);
        let mut buf = token.into_bytes();
        buf.extend_from_slice(rng.pick(&junk));
        check_at(&buf, 0);
        // With room after it: the AVX2 twin reads short decimals from one 32-byte window.
        buf.extend_from_slice(&[b' '; 32]);
        check_at(&buf, 0);
    }
}

#[test]
fn random_bytes_agree() {
    let mut rng = Rng::new(0x0b_17e5);
    let rounds = if cfg!(miri) { 100 } else { 200_000 };
    for _ in 0..rounds {
        // Up to twice the AVX2 twin's 32-byte window.
        let len = rng.below(64);
        let buf = rng.bytes_from(b"0123456789012345678901234567890123456789-+.eE, x", len);
        check_at(&buf, 0);
        check_at(&buf, rng.below(len + 1));
    }
}

#[test]
fn every_position_in_a_long_buffer() {
    let body = b"[0,-0,-0.0,12,-12,1.5,-12.25e3,0.000123,1e-5,123456789012345678,\
                 18446744073709551615,18446744073709551616,-9223372036854775809,\
                 1.7976931348623157e308,-65.613616999999977,1E400,01,1.,-]";
    let mut sample = MiriSample::default();
    for pos in (0..=body.len()).filter(|_| sample.next_runs()) {
        check_at(body, pos);
        check_at(&body[..pos], pos.saturating_sub(5));
    }
}

fn check_token_bytes(buf: &[u8]) {
    check_at(buf, 0);
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn guard_page_every_suffix() {
    let inputs = [
        "-65.613616999999977",
        "1234567890123456.78901234567890",
        "0.00000000000000000000000000000123",
        "18446744073709551615",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "1.7976931348623159e308",
        "-2.2250738585072011e-308",
        "12345678901234567e+12",
        "9.e5",
        "-0",
    ];
    for input in inputs {
        for_each_guarded_suffix(input.as_bytes(), check_token_bytes);
    }
    let mut rng = Rng::new(0x9_0a2d);
    for _ in 0..2_000 {
        for_each_guarded_suffix(random_token(&mut rng).as_bytes(), check_token_bytes);
    }
    // Every tail length of each part of the token (integer digits, fraction digits, exponent
    // digits) ending exactly at the guard.
    let mut region = GuardedRegion::new(128);
    for len in 0..=40 {
        let run = "7".repeat(len);
        for text in [
            format!("1{run}"),
            format!("-1{run}"),
            format!("3.{run}"),
            format!("-3.1{run}"),
            format!("2e{run}"),
            format!("1{run}.5e-{run}"),
        ] {
            check_at(region.place(text.as_bytes()), 0);
        }
    }
}

#[test]
fn ffi_entry_points_report_kind_value_and_end() {
    use jitson_kernels::ffi::{jitson_parse_integer, jitson_parse_number};
    for entry in [jitson_parse_number, jitson_parse_integer] {
        check_number_entry(entry);
    }
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        use jitson_kernels::ffi::avx2::{jitson_parse_integer_avx2, jitson_parse_number_avx2};
        for entry in [jitson_parse_number_avx2, jitson_parse_integer_avx2] {
            check_number_entry(entry);
        }
    }
}

/// Generated code calls the direct AVX2 entries exactly where the dispatching functions
/// run the AVX2 twins, and the dispatching entries everywhere else.
#[test]
fn entry_point_picks_the_direct_avx2_entries_only_with_the_avx2_kernels() {
    use jitson_kernels::dispatch::{Backend, backend};
    use jitson_kernels::ffi::{ENTRY_POINTS, entry_point};
    for &(name, dispatching) in ENTRY_POINTS {
        let chosen = entry_point(name).expect("a listed entry point");
        let direct = matches!(name, "jitson_parse_number" | "jitson_parse_integer")
            && backend() == Backend::Avx2;
        assert_eq!(chosen != dispatching, direct, "{name}");
    }
    assert_eq!(entry_point("jitson_no_such_entry"), None);
}

/// The signature of the number entry points.
type NumberEntry = unsafe extern "C" fn(*const u8, usize, usize) -> jitson_kernels::ffi::NumberRead;

/// `entry` reports kind, value and end, packed as generated code unpacks them, and errors
/// with their kind and offset.
fn check_number_entry(entry: NumberEntry) {
    use jitson_kernels::ffi::{NumberRead, number_kind};
    // SAFETY: `text` is readable for its length.
    let raw = |text: &str| unsafe { entry(text.as_ptr(), text.len(), 0) };
    let call = |text: &str| raw(text).into_result();
    assert_eq!(call("12,"), Ok((number_kind::U64, 12, 2)));
    assert_eq!(
        call("123456789012345,      "),
        Ok((number_kind::U64, 123456789012345, 15))
    );
    assert_eq!(call("-12"), Ok((number_kind::I64, -12i64 as u64, 3)));
    assert_eq!(call("1.5]"), Ok((number_kind::F64, 1.5f64.to_bits(), 3)));
    assert_eq!(
        call("18446744073709551616"),
        Ok((number_kind::BIG_INT, 0, 20))
    );
    // The packing generated code reads: the end above two kind bits, the sign bit clear.
    assert_eq!(
        raw("1.5]"),
        NumberRead {
            end_kind: 3 << 2 | number_kind::F64,
            value: 1.5f64.to_bits()
        }
    );
    let error = raw("01");
    assert_eq!(error.end_kind & NumberRead::ERROR, NumberRead::ERROR);
    assert_eq!(
        error.into_result(),
        Err(Some(KernelError::new(ErrorKind::InvalidNumber, 1)))
    );
}

//! Float parsing: scalar, dispatch and AVX2 twins against `scan_number` + `str::parse::<f64>`
//! on classic hard cases, exact halfway points, millions of random JSON number tokens, the
//! JSONTestSuite number files, every position, and guard pages. Also checks the number grammar
//! itself against an independent state machine.

mod common;

use common::{
    GuardedRegion, MiriSample, Rng, avx2, check_dispatch, for_each_guarded_suffix,
    token_in_contexts,
};
use jitson_kernels::float_parse::{self, FloatOverflow};
use jitson_kernels::number::scan_number;
use jitson_kernels::{ErrorKind, KernelError};

type Parsed = Result<(f64, usize), KernelError>;

/// The specified answer under [`FloatOverflow::Infinity`]: the grammar error, else the
/// correctly rounded value from `str::parse`.
fn reference(buf: &[u8], pos: usize) -> Parsed {
    let token = scan_number(buf, pos)?;
    let text = std::str::from_utf8(&buf[token.start..token.end]).unwrap();
    let value: f64 = text.parse().unwrap();
    Ok((value, token.end))
}

/// The answer under `overflow`, from the one under [`FloatOverflow::Infinity`]: an infinite
/// value is an error under [`FloatOverflow::Error`]. (Parsed once for both policies: under
/// Miri, `str::parse` of a long decimal costs seconds.)
fn under_policy(infinity: &Parsed, pos: usize, overflow: FloatOverflow) -> Parsed {
    match infinity {
        Ok((value, _)) if value.is_infinite() && overflow == FloatOverflow::Error => {
            Err(KernelError::new(ErrorKind::NumberOutOfRange, pos))
        }
        other => *other,
    }
}

/// Results compare by bits, so `-0.0` differs from `0.0`.
fn bits(r: Parsed) -> Result<(u64, usize), KernelError> {
    r.map(|(v, end)| (v.to_bits(), end))
}

/// Every twin agrees with the reference on `buf` at `pos`, under both overflow policies.
fn check_at(buf: &[u8], pos: usize) {
    let infinity = reference(buf, pos);
    let show = String::from_utf8_lossy(buf);
    for overflow in [FloatOverflow::Error, FloatOverflow::Infinity] {
        let want = bits(under_policy(&infinity, pos, overflow));
        let got = bits(float_parse::scalar::parse_f64(buf, pos, overflow));
        assert_eq!(got, want, "scalar {show:?} @{pos} {overflow:?}");
        if check_dispatch() {
            let got = bits(float_parse::parse_f64(buf, pos, overflow));
            assert_eq!(got, want, "dispatch {show:?} @{pos} {overflow:?}");
        }
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: AVX2 support was checked.
            let got = bits(unsafe { float_parse::avx2::parse_f64(buf, pos, overflow) });
            assert_eq!(got, want, "avx2 {show:?} @{pos} {overflow:?}");
        }
    }
}

/// Checks `token` alone, after a prefix, and before assorted terminators (fewer under Miri).
fn check_token(token: &str) {
    let suffixes: &[&str] = if cfg!(miri) {
        &["", ","]
    } else {
        &["", ",", "]", " ", "x", "0", ".", "e", ",123456789012345678"]
    };
    for (buf, pos) in token_in_contexts(token, &["", "["], suffixes) {
        check_at(&buf, pos);
    }
}

/// Checks `token` at the end of the input and before a comma.
fn check_ended(token: &str) {
    check_at(token.as_bytes(), 0);
    check_at(format!("{token},").as_bytes(), 0);
}

fn parse(text: &str, overflow: FloatOverflow) -> Parsed {
    float_parse::parse_f64(text.as_bytes(), 0, overflow)
}

#[test]
fn documented_answers() {
    use FloatOverflow::{Error, Infinity};
    let value = |text: &str| parse(text, Error).unwrap().0;
    assert_eq!(value("-0").to_bits(), (-0.0f64).to_bits());
    assert_eq!(value("-0.0e-5").to_bits(), (-0.0f64).to_bits());
    assert_eq!(value("0").to_bits(), 0);
    assert_eq!(value("1e-400").to_bits(), 0);
    assert_eq!(value("-1e-400").to_bits(), (-0.0f64).to_bits());
    assert_eq!(value("1.7976931348623157e308"), f64::MAX);
    assert_eq!(value("1.7976931348623158e308"), f64::MAX);
    assert_eq!(value("-1.7976931348623158e308"), f64::MIN);
    assert_eq!(value("4.9406564584124654e-324"), 5e-324);
    assert_eq!(value("2.4703282292062328e-324"), 5e-324);
    assert_eq!(value("2.4703282292062327e-324"), 0.0);
    assert_eq!(value("9007199254740993"), 9007199254740992.0);
    assert_eq!(value("0.1"), 0.1);
    assert_eq!(value("1e23"), 1e23);
    let out_of_range = |offset| Err(KernelError::new(ErrorKind::NumberOutOfRange, offset));
    assert_eq!(parse("1e400", Error), out_of_range(0));
    assert_eq!(parse("1.7976931348623159e308", Error), out_of_range(0));
    assert_eq!(
        float_parse::parse_f64(b"[-1e400]", 1, Error),
        out_of_range(1)
    );
    assert_eq!(parse("1e400", Infinity), Ok((f64::INFINITY, 5)));
    assert_eq!(parse("-1e400", Infinity), Ok((f64::NEG_INFINITY, 6)));
    let invalid = |offset| Err(KernelError::new(ErrorKind::InvalidNumber, offset));
    assert_eq!(parse("01", Error), invalid(1));
    assert_eq!(parse("1.e5", Error), invalid(2));
    assert_eq!(parse(".5", Error), invalid(0));
    assert_eq!(parse("+1", Error), invalid(0));
    assert_eq!(
        parse("1e+", Error),
        Err(KernelError::new(ErrorKind::UnexpectedEnd, 3))
    );
    assert_eq!(parse("1.5e3,", Error), Ok((1500.0, 5)));
}

#[test]
fn classic_hard_cases() {
    let cases = [
        "2.2250738585072011e-308",
        "2.2250738585072012e-308",
        "2.2250738585072014e-308",
        "2.225073858507201136057409796709131975934819546351645648e-308",
        "4.9406564584124654e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "-1.7976931348623159e308",
        "9007199254740993",
        "9007199254740992.5",
        "9007199254740993.0000000000000000001",
        "18446744073709551615",
        "18446744073709551616",
        "0.1",
        "0.3",
        "1e23",
        "8.98846567431158e307",
        "-0",
        "-0.0",
        "-0.0e-5",
        "0e0",
        "0e+99999999999999999999999",
        "0.0000000000000000000000000000000000000000000000000000001e400",
        "123456789012345678901234567890e-10",
        "1e-400",
        "-1e-400",
        "1e400",
        "1e-324",
        "1e-323",
        "3e-324",
        "7.2057594037927933e16",
        "1448997445238699",
        "4503599627370496.5",
        "4503599627370497.5",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "7.0e-10",
        "1.2345678901234567e22",
        "1.2345678901234567e-22",
        "100000000000000000000000",
        "0.000000000000000000000000000000000000001",
        "1e0000000000000000000000000000000000000000000001",
        "-1e-00000000000000000000000000000000000000000000000001",
        "1e99999999999999999999",
        "1e-99999999999999999999",
    ];
    for token in cases {
        check_token(token);
    }
    if cfg!(miri) {
        return;
    }
    let long = format!("0.{}1", "0".repeat(5000));
    check_token(&long);
    let long = format!("1{}", "0".repeat(400));
    check_token(&long);
    let long = format!("{}e-500", "9".repeat(500));
    check_token(&long);
}

/// The exact decimal digits of `odd · 5^k`, computed in base-10^9 limbs.
fn times_power_of_five(odd: u64, k: usize) -> String {
    const BASE: u64 = 1_000_000_000;
    let mut limbs = vec![odd % BASE, odd / BASE % BASE, odd / BASE / BASE];
    let mut remaining = k;
    while remaining > 0 {
        // 5^13 < 2^31, so limb · 5^13 + carry stays far below 2^64.
        let step = remaining.min(13);
        let factor = 5u64.pow(step as u32);
        let mut carry = 0;
        for limb in limbs.iter_mut() {
            let t = *limb * factor + carry;
            *limb = t % BASE;
            carry = t / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
        remaining -= step;
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut text = limbs.last().unwrap().to_string();
    for limb in limbs.iter().rev().skip(1) {
        text += &format!("{limb:09}");
    }
    text
}

#[test]
fn exact_halfway_points_and_neighbours() {
    let mut rng = Rng::new(0x4a1f);
    let rounds = if cfg!(miri) { 2 } else { 3_000 };
    for _ in 0..rounds {
        // Halfway between two adjacent floats: (2M + 1) · 2^e, with M a 53-bit mantissa (or
        // smaller, for subnormals at e = -1075).
        let e = -1075 + rng.below(1075 + 64) as i64;
        let m = if e == -1075 {
            rng.next_u64() >> 12
        } else {
            (rng.next_u64() >> 11) | 1 << 52
        };
        let odd = 2 * m + 1;
        let digits = if e >= 0 {
            (u128::from(odd) << e.min(60)).to_string()
        } else {
            times_power_of_five(odd, e.unsigned_abs() as usize)
        };
        let scale = if e >= 0 { 0 } else { e };
        let exact = format!("{digits}e{scale}");
        check_ended(&exact);
        // Just above and just below, at full length and cut to 17 and 19 digits.
        check_ended(&format!("{digits}1e{scale}"));
        for keep in [17, 19] {
            if digits.len() > keep {
                let cut = &digits[..keep];
                let shift = scale + (digits.len() - keep) as i64;
                check_ended(&format!("{cut}e{shift}"));
                let up = cut.parse::<u64>().unwrap() + 1;
                check_ended(&format!("{up}e{shift}"));
            }
        }
    }
}

/// `nearest` for `f64` and `f32` against `str::parse` (exact on tokens of fewer than 65 536
/// digits): random tokens, and halfway points with and without a nonzero tail past the 800
/// significant digits `nearest` keeps.
#[test]
fn nearest_agrees_with_str_parse() {
    fn agree(token: &str) {
        let f64_want = token.parse::<f64>().unwrap().to_bits();
        let f32_want = token.parse::<f32>().unwrap().to_bits();
        let got = float_parse::nearest::<f64>(token.as_bytes()).map(f64::to_bits);
        assert_eq!(got, Some(f64_want), "f64 {token}");
        let got = float_parse::nearest::<f32>(token.as_bytes()).map(f32::to_bits);
        assert_eq!(got, Some(f32_want), "f32 {token}");
    }
    let mut rng = Rng::new(0x5e0f);
    let rounds = if cfg!(miri) { 20 } else { 200_000 };
    for _ in 0..rounds {
        agree(&random_token(&mut rng));
    }
    let halfway = if cfg!(miri) { 1 } else { 300 };
    let zeros = "0".repeat(900);
    for _ in 0..halfway {
        let e = -1075 + rng.below(1075) as i64;
        let odd = 2 * ((rng.next_u64() >> 11) | 1 << 52) + 1;
        let digits = times_power_of_five(odd, e.unsigned_abs() as usize);
        agree(&format!("{digits}{zeros}e{}", e - 900));
        agree(&format!("{digits}{zeros}1e{}", e - 901));
        agree(&format!(
            "0.{zeros}{digits}{zeros}1e{}",
            e + 900 + digits.len() as i64 - 901
        ));
    }
    for bad in [
        "", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1x", "--1", "0x1",
    ] {
        assert_eq!(float_parse::nearest::<f64>(bad.as_bytes()), None, "{bad:?}");
    }
}

/// Regression: a token whose exponent cancels a million digits read as infinity or zero,
/// since `core`'s reader (the reference path) stops accumulating exponent digits past
/// 65 536. Each twin now gives the value.
#[test]
fn an_exponent_that_cancels_a_million_digits() {
    let k = if cfg!(miri) { 1_000 } else { 1_000_000 };
    let zeros = "0".repeat(k);
    for (token, want) in [
        (format!("1{zeros}e-{k}"), 1.0),
        (format!("0.{zeros}1e{}", k + 1), 1.0),
        (
            format!("-9007199254740993{zeros}e-{k}"),
            -9007199254740992.0,
        ),
        (format!("1{zeros}e-{}", k + 308), 1e-308),
        (format!("1{zeros}e-{}", k + 400), 0.0),
        (format!("17976931348623157{zeros}e-{}", k - 292), f64::MAX),
    ] {
        let show = &token[..24];
        for overflow in [FloatOverflow::Error, FloatOverflow::Infinity] {
            let want = Ok((want.to_bits(), token.len()));
            let got = bits(float_parse::scalar::parse_f64(
                token.as_bytes(),
                0,
                overflow,
            ));
            assert_eq!(got, want, "scalar {show}");
            let got = bits(float_parse::parse_f64(token.as_bytes(), 0, overflow));
            assert_eq!(got, want, "dispatch {show}");
        }
    }
    let token = format!("16777217{zeros}e-{k}");
    assert_eq!(
        float_parse::nearest::<f32>(token.as_bytes()),
        Some(16777216.0)
    );
    let token = format!("1{zeros}e-{}", k - 309);
    assert_eq!(
        parse(&token, FloatOverflow::Error),
        Err(KernelError::new(ErrorKind::NumberOutOfRange, 0))
    );
}

/// A random JSON number token: 1–40 integer digits (or `0`), optional 1–40 fraction digits,
/// optional exponent aimed at ordinary, huge, tiny and subnormal magnitudes.
fn random_token(rng: &mut Rng) -> String {
    let mut t = String::new();
    if rng.below(2) == 0 {
        t.push('-');
    }
    let random_digits = |rng: &mut Rng, n: usize| -> String {
        (0..n)
            .map(|_| char::from(b'0' + rng.below(10) as u8))
            .collect()
    };
    let int_len = 1 + rng.below(40);
    if rng.below(4) == 0 {
        t.push('0');
    } else {
        t.push(char::from(b'1' + rng.below(9) as u8));
        t += &random_digits(rng, int_len - 1);
    }
    let mut frac_len = 0;
    if rng.below(2) == 0 {
        frac_len = 1 + rng.below(40);
        t.push('.');
        if rng.below(3) == 0 {
            t += &"0".repeat(rng.below(30));
        }
        t += &random_digits(rng, frac_len);
    }
    if rng.below(3) != 0 {
        t.push(if rng.below(2) == 0 { 'e' } else { 'E' });
        let magnitude = match rng.below(4) {
            0 => rng.below(30) as i64,
            1 => 280 + rng.below(140) as i64,
            // Aim the value at 1e-300..1e-330 (subnormals and the underflow edge).
            2 => 300 + rng.below(30) as i64 + int_len as i64,
            _ => rng.below(400) as i64,
        };
        let negative = rng.below(2) == 0 || frac_len > 0 && rng.below(2) == 0;
        t.push_str(match (negative, rng.below(2)) {
            (true, _) => "-",
            (false, 0) => "+",
            _ => "",
        });
        t += &magnitude.to_string();
    }
    t
}

#[test]
fn random_tokens_agree_with_str_parse() {
    let mut rng = Rng::new(0xf10a7);
    let rounds = if cfg!(miri) { 60 } else { 1_000_000 };
    for _ in 0..rounds {
        let mut buf = random_token(&mut rng).into_bytes();
        buf.push(b',');
        check_at(&buf, 0);
    }
}

#[test]
fn random_short_decimals_agree_with_str_parse() {
    // The shapes real documents hold (canada.json: 17 significant digits), where the fast
    // paths decide everything.
    let mut rng = Rng::new(0xca7ada);
    let rounds = if cfg!(miri) { 60 } else { 1_000_000 };
    for _ in 0..rounds {
        let int = rng.below(1000) as i64 - 500;
        let frac_len = 1 + rng.below(19);
        let frac = rng.next_u64() % 10u64.pow(frac_len as u32);
        let text = format!("{int}.{frac:0frac_len$},");
        check_at(text.as_bytes(), 0);
        // With room after it: the AVX2 twin reads such tokens from one 32-byte window.
        let roomy = format!("{text}{}", "0".repeat(rng.below(40)));
        check_at(roomy.as_bytes(), 0);
        let v = f64::from_bits(rng.next_u64());
        if v.is_finite() {
            check_at(format!("{v:?},").as_bytes(), 0);
            check_at(format!("{v:e}]").as_bytes(), 0);
        }
    }
}

#[test]
fn random_bytes_agree() {
    let mut rng = Rng::new(0xb17e5);
    let rounds = if cfg!(miri) { 100 } else { 300_000 };
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
    let body = b"[0,-0.0,1.5,-12.25e3,0.000123,1e-5,123456789012345678,1.7976931348623157e308,\
                 -65.613616999999977,43.420273000000009,1E400,2.2250738585072011e-308,01,1.,-]";
    let mut sample = MiriSample::default();
    for pos in (0..=body.len()).filter(|_| sample.next_runs()) {
        check_at(body, pos);
        check_at(&body[..pos], pos.saturating_sub(5));
    }
}

/// Whether a number kernel accepts the whole of `text` as one number.
fn accepts_whole(text: &[u8]) -> bool {
    matches!(
        float_parse::parse_f64(text, 0, FloatOverflow::Infinity),
        Ok((_, end)) if end == text.len()
    )
}

#[test]
#[cfg_attr(miri, ignore = "reads the test corpus from disk")]
fn jsontestsuite_number_files() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/jsontestsuite");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let verdict = ["y_number", "n_number", "i_number"]
            .iter()
            .find(|prefix| name.starts_with(*prefix));
        let Some(verdict) = verdict else { continue };
        let bytes = std::fs::read(&path).unwrap();
        // Every one of these files is a one-element array: the number is between the brackets.
        let inner = bytes
            .trim_ascii()
            .strip_prefix(b"[")
            .and_then(|b| b.strip_suffix(b"]"))
            .unwrap_or_else(|| panic!("{name} is not a one-element array"))
            .trim_ascii();
        let accepted = accepts_whole(inner);
        match *verdict {
            "y_number" => assert!(accepted, "{name} rejected"),
            "n_number" => assert!(!accepted, "{name} accepted"),
            _ => {}
        }
        for_each_guarded_suffix(inner, check_token_bytes);
        seen += 1;
    }
    assert!(seen >= 60, "only {seen} number files found");
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
        "1.7976931348623159e308",
        "-2.2250738585072011e-308",
        "123456789012345678901234567890e-10",
        "12345678901234567e+12",
        "9.e5",
        "-0",
    ];
    for input in inputs {
        for_each_guarded_suffix(input.as_bytes(), check_token_bytes);
    }
    // A long digit run whose every tail length ends at the guard.
    let mut region = GuardedRegion::new(64);
    for len in 0..=40 {
        let digits = "7".repeat(len) + ".5";
        check_at(region.place(digits.as_bytes()), 0);
    }
}

/// The number grammar as an explicit state machine, written independently of `scan_number`:
/// the token's end, or the error `scan_number` documents.
fn grammar_reference(buf: &[u8], pos: usize) -> Result<usize, KernelError> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Start,
        Minus,
        Zero,
        Int,
        Dot,
        Frac,
        E,
        ESign,
        Exp,
    }
    use State::*;
    let mut state = Start;
    let mut i = pos;
    loop {
        let b = buf.get(i).copied();
        let next = match (state, b) {
            (Start, Some(b'-')) => Minus,
            (Start | Minus, Some(b'0')) => Zero,
            (Start | Minus, Some(b'1'..=b'9')) => Int,
            (Int, Some(b'0'..=b'9')) => Int,
            (Zero, Some(b'0'..=b'9')) => {
                return Err(KernelError::new(ErrorKind::InvalidNumber, i));
            }
            (Zero | Int, Some(b'.')) => Dot,
            (Dot | Frac, Some(b'0'..=b'9')) => Frac,
            (Zero | Int | Frac, Some(b'e' | b'E')) => E,
            (E, Some(b'+' | b'-')) => ESign,
            (E | ESign | Exp, Some(b'0'..=b'9')) => Exp,
            (Zero | Int | Frac | Exp, _) => return Ok(i),
            (_, None) => return Err(KernelError::new(ErrorKind::UnexpectedEnd, buf.len())),
            (_, Some(_)) => return Err(KernelError::new(ErrorKind::InvalidNumber, i)),
        };
        state = next;
        i += 1;
    }
}

#[test]
fn grammar_matches_an_independent_state_machine() {
    let mut rng = Rng::new(0x6a11);
    let rounds = if cfg!(miri) { 150 } else { 500_000 };
    for _ in 0..rounds {
        let len = rng.below(24);
        let buf = rng.bytes_from(b"0123456789-+.eE x0-1.e", len);
        let pos = rng.below(len + 1);
        let got = scan_number(&buf, pos).map(|t| t.end);
        assert_eq!(
            got,
            grammar_reference(&buf, pos),
            "{:?} @{pos}",
            String::from_utf8_lossy(&buf)
        );
    }
}

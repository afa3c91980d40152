//! The bounds kernel against the exact reading: on every token where it decides (a value
//! exactly an `f64`, no fraction under an integer check) its answer is the comparison of
//! `parse_number`'s value with the bounds, it never says "within" for any other token, and
//! its errors and ends are `scan_number`'s — on boundary cases, many random tokens against
//! bounds placed at, around and far from their values, random bytes, and guard pages.

mod common;

use common::{Rng, for_each_guarded_suffix};
use jitson_kernels::number::scan_number;
use jitson_kernels::number_bounds::{F64Bounds, number_within};
use jitson_kernels::number_parse::{NumberValue, parse_number};

/// The kernel's answer where it decides: the value compared with the bounds, exactly (an
/// integer beyond 2^53 that fits 64 bits as an integer, not through an `f64`); `None` for
/// a token it leaves undecided (a big integer, an infinite value, a fraction or exponent
/// under an integer check).
fn reference(buf: &[u8], pos: usize, bounds: &F64Bounds) -> Option<bool> {
    let (value, _) = parse_number(buf, pos).ok()?;
    match value {
        NumberValue::U64(u) if u <= 1 << 53 => Some(within(bounds, u as f64)),
        NumberValue::I64(0) => Some(within(bounds, -0.0)),
        NumberValue::I64(i) if i.unsigned_abs() <= 1 << 53 => Some(within(bounds, i as f64)),
        NumberValue::U64(u) => Some(integer_within(bounds, u.into())),
        NumberValue::I64(i) => Some(integer_within(bounds, i.into())),
        NumberValue::F64(f) if f.is_finite() && !bounds.integer => Some(within(bounds, f)),
        _ => None,
    }
}

/// `i` against the float `f`, exactly: the reference's own compare (the interpreter's,
/// `jitson_jit::number::cmp_int_float`, lives in a crate above this one), independent of
/// the [`F64Bounds::integers`] it checks.
fn cmp_int_float(i: i128, f: f64) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    const TWO_127: f64 = 1.7014118346046923e38;
    if f >= TWO_127 {
        return Ordering::Less;
    }
    if f < -TWO_127 {
        return Ordering::Greater;
    }
    let floor = f.floor();
    match i.cmp(&(floor as i128)) {
        Ordering::Equal if f > floor => Ordering::Less,
        other => other,
    }
}

/// Whether the integer `i` is within `bounds`, compared exactly with each bound.
fn integer_within(bounds: &F64Bounds, i: i128) -> bool {
    use std::cmp::Ordering;
    let above = match cmp_int_float(i, bounds.min) {
        Ordering::Greater => true,
        Ordering::Equal => !bounds.min_exclusive,
        Ordering::Less => false,
    };
    let below = match cmp_int_float(i, bounds.max) {
        Ordering::Less => true,
        Ordering::Equal => !bounds.max_exclusive,
        Ordering::Greater => false,
    };
    above && below
}

fn within(bounds: &F64Bounds, v: f64) -> bool {
    let above = match bounds.min_exclusive {
        true => v > bounds.min,
        false => v >= bounds.min,
    };
    let below = match bounds.max_exclusive {
        true => v < bounds.max,
        false => v <= bounds.max,
    };
    above && below
}

/// The kernel on `buf` at `pos` against the reference; true when it said "within".
fn check_at(buf: &[u8], pos: usize, bounds: &F64Bounds) -> bool {
    let got = number_within(buf, pos, bounds);
    let context = || format!("{:?} at {pos} {bounds:?}", String::from_utf8_lossy(buf));
    match scan_number(buf, pos) {
        Err(e) => {
            assert_eq!(got, Err(e), "{}", context());
            false
        }
        Ok(token) => {
            let (is_within, end) = got.unwrap_or_else(|e| panic!("{e:?} on {}", context()));
            assert_eq!(end, token.end, "{}", context());
            let expected = reference(buf, pos, bounds).unwrap_or(false);
            assert_eq!(is_within, expected, "{}", context());
            is_within
        }
    }
}

fn bounds(min: f64, max: f64, flags: u8) -> F64Bounds {
    F64Bounds {
        min,
        min_exclusive: flags & 1 != 0,
        max,
        max_exclusive: flags & 2 != 0,
        integer: flags & 4 != 0,
    }
}

#[test]
fn boundary_tokens() {
    let cases: &[(&str, f64, f64)] = &[
        ("-65.613616999999977", -180.0, 180.0),
        ("43.420273000000009", -90.0, 90.0),
        ("90", -90.0, 90.0),
        ("90.0", -90.0, 90.0),
        ("90.000000000000001", -90.0, 90.0),
        ("90.00000000000002", -90.0, 90.0),
        ("-90.5", -90.5, 90.0),
        ("-90.50000000000001", -90.5, 90.0),
        ("-0", 0.0, 0.0),
        ("-0.0", 0.0, 1.0),
        ("0.5", 0.0, 1.0),
        ("1e2", 0.0, 100.0),
        ("1E-2", 0.0, 0.01),
        ("9007199254740992", 0.0, f64::INFINITY),
        ("9007199254740993", 0.0, f64::INFINITY),
        ("999999999999999.5", 0.0, 1e15),
        ("1e400", f64::NEG_INFINITY, f64::INFINITY),
        ("18446744073709551616", f64::NEG_INFINITY, f64::INFINITY),
        ("18446744073709551615", 0.0, 18446744073709551616.0),
        ("18446744073709551615", 1e19, 18446744073709549568.0),
        ("505874924095815700", 0.0, f64::INFINITY),
        ("505874924095815700", 505874924095815700.0, 5.1e17),
        ("-9223372036854775808", -9223372036854775808.0, 0.0),
        (
            "-9223372036854775807",
            f64::NEG_INFINITY,
            -9223372036854775808.0,
        ),
        ("9007199254740993", 9007199254740992.0, 9007199254740994.0),
        ("0.1", 0.1, 0.1),
    ];
    for &(token, min, max) in cases {
        for flags in 0..8 {
            check_at(token.as_bytes(), 0, &bounds(min, max, flags));
        }
    }
    // Decided without a read: within, and not.
    let lat = bounds(-90.0, 90.0, 0);
    assert_eq!(
        number_within(b"-65.61361699999997", 0, &lat),
        Ok((true, 18))
    );
    assert_eq!(number_within(b"[91.5]", 1, &lat), Ok((false, 5)));
    assert_eq!(number_within(b"1.5", 0, &F64Bounds::ANY), Ok((true, 3)));
    assert_eq!(number_within(b"1e400", 0, &F64Bounds::ANY), Ok((false, 5)));
}

fn random_token(rng: &mut Rng) -> String {
    let sign = if rng.chance(40) { "-" } else { "" };
    let int = match rng.below(4) {
        0 => "0".to_owned(),
        1 => format!("{}", 1 + rng.below(200)),
        _ => {
            let len = 1 + rng.below(20);
            format!("{}{}", 1 + rng.below(9), rng.digits(len - 1))
        }
    };
    let fraction = match rng.below(3) {
        0 => String::new(),
        _ => {
            let len = 1 + rng.below(20);
            format!(".{}", rng.digits(len))
        }
    };
    let exponent = match rng.below(5) {
        0 => format!("e{}{}", rng.pick(&["", "+", "-"]), rng.below(30)),
        _ => String::new(),
    };
    format!("{sign}{int}{fraction}{exponent}")
}

/// A bound near `v`: the value itself, its integer neighbours, the next floats, or far away.
fn random_bound(rng: &mut Rng, v: f64) -> f64 {
    let v = if v.is_finite() { v } else { 1e300 };
    match rng.below(7) {
        0 => v,
        1 => v.floor(),
        2 => v.ceil(),
        3 => f64::from_bits(v.to_bits().wrapping_add(1)),
        4 => f64::from_bits(v.to_bits().wrapping_sub(1)),
        5 => rng.pick(&[f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 180.0, -90.0]),
        _ => v + (rng.below(2_001) as f64 - 1_000.0) / 7.0,
    }
}

#[test]
fn random_tokens_and_bounds_agree_with_the_exact_reading() {
    let mut rng = Rng::new(0xb0_0d5);
    let rounds = if cfg!(miri) { 60 } else { 300_000 };
    let mut decided = 0;
    for _ in 0..rounds {
        let token = random_token(&mut rng);
        let v = parse_number(token.as_bytes(), 0)
            .map(|(v, _)| match v {
                NumberValue::U64(u) => u as f64,
                NumberValue::I64(i) => i as f64,
                NumberValue::F64(f) => f,
                NumberValue::BigInt => 1e20,
            })
            .unwrap_or(0.0);
        let (a, b) = (random_bound(&mut rng, v), random_bound(&mut rng, v));
        let bounds = bounds(a.min(b), a.max(b), rng.below(8) as u8);
        let mut buf = token.into_bytes();
        decided += check_at(&buf, 0, &bounds) as usize;
        buf.push(rng.pick(b",] x"));
        check_at(&buf, 0, &bounds);
        // With room after it: the 32-byte window path (the ones above end within it).
        buf.extend_from_slice(&[b' '; 40]);
        check_at(&buf, 0, &bounds);
    }
    // Both answers occur often.
    assert!(
        decided > rounds / 10 && decided < rounds * 9 / 10,
        "{decided}"
    );
}

#[test]
fn random_bytes_agree() {
    let mut rng = Rng::new(0x0b_0b17);
    let rounds = if cfg!(miri) { 60 } else { 100_000 };
    for _ in 0..rounds {
        let len = rng.below(24);
        let mut buf = rng.bytes_from(b"0123456789-+.eE, x", len);
        let pos = rng.below(len + 1);
        let b = bounds(-5.0, 1e10, rng.below(8) as u8);
        check_at(&buf, pos, &b);
        buf.extend_from_slice(&[b'7'; 40][..rng.below(40)]);
        buf.extend_from_slice(&[b','; 40]);
        check_at(&buf, pos, &b);
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn guard_page_every_suffix() {
    let inputs = [
        "-65.613616999999977",
        "1234567890123456.78901234567890",
        "123456789012345678901234567890",
        "1.7976931348623159e308",
        "9.e5",
        "-0",
        "42",
    ];
    let any = F64Bounds::ANY;
    for input in inputs {
        for_each_guarded_suffix(input.as_bytes(), |buf| {
            check_at(buf, 0, &any);
        });
    }
    let mut rng = Rng::new(0x9_0b0d);
    for _ in 0..1_000 {
        for_each_guarded_suffix(random_token(&mut rng).as_bytes(), |buf| {
            check_at(buf, 0, &bounds(-180.0, 180.0, 0));
        });
    }
}

#[test]
fn ffi_entry_point_reports_the_end_or_zero() {
    use jitson_kernels::ErrorKind;
    use jitson_kernels::ffi::{FfiResult, bounds_flag, jitson_number_within};
    let call = |text: &str, min: f64, max: f64, flags: u64| {
        // SAFETY: `text` is readable for its length.
        unsafe {
            jitson_number_within(
                text.as_ptr(),
                text.len(),
                0,
                min.to_bits(),
                max.to_bits(),
                flags,
            )
        }
    };
    let ok = FfiResult::ok;
    assert_eq!(call("-65.6,", -180.0, 180.0, 0), ok(5));
    assert_eq!(call("180", -180.0, 180.0, 0), ok(3));
    assert_eq!(
        call("180", -180.0, 180.0, bounds_flag::MAX_EXCLUSIVE),
        ok(0)
    );
    assert_eq!(
        call("-180", -180.0, 180.0, bounds_flag::MIN_EXCLUSIVE),
        ok(0)
    );
    assert_eq!(call("1.5", 0.0, 2.0, bounds_flag::INTEGER), ok(0));
    assert_eq!(call("7", 0.0, 9.0, bounds_flag::INTEGER), ok(1));
    let r = call("01", 0.0, 9.0, 0);
    assert_eq!(
        (r.status, r.value),
        (ErrorKind::InvalidNumber.code() as u64, 1)
    );
}

//! Float formatting: byte-identical to `serde_json::to_string`, shortest round trip on millions
//! of random bit patterns, and the classic hard cases.

mod common;

use common::Rng;
use jitson_kernels::append::{append_f32, append_f64};
use jitson_kernels::float_format::{
    IN_PLACE_ROOM, MAX_FLOAT_LEN, format_f32, format_f64, write_f64_in_place,
};
use std::mem::MaybeUninit;

fn format(v: f64) -> String {
    let mut out = [b'#'; MAX_FLOAT_LEN];
    let len = format_f64(v, &mut out);
    String::from_utf8(out[..len].to_vec()).unwrap()
}

/// A finite f64 from random bits (non-finite patterns are redrawn).
fn random_finite(rng: &mut Rng) -> f64 {
    loop {
        let v = f64::from_bits(rng.next_u64());
        if v.is_finite() {
            return v;
        }
    }
}

/// Formats `v` and parses the text back; the bits must be identical.
fn check_round_trip(v: f64) {
    let text = format(v);
    let back: f64 = text
        .parse()
        .unwrap_or_else(|e| panic!("{v:?} -> {text:?}: {e}"));
    assert_eq!(back.to_bits(), v.to_bits(), "{v:?} -> {text:?} -> {back:?}");
}

#[test]
fn classic_cases() {
    let cases: &[(f64, &str)] = &[
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (1.0, "1.0"),
        (-1.5, "-1.5"),
        (0.1, "0.1"),
        (0.1 + 0.2, "0.30000000000000004"),
        (5e-324, "5e-324"),
        (-5e-324, "-5e-324"),
        (f64::MAX, "1.7976931348623157e+308"),
        (f64::MIN, "-1.7976931348623157e+308"),
        (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
        (-2.2250738585072014e-308, "-2.2250738585072014e-308"),
        (1e21, "1e+21"),
        (1e22, "1e+22"),
        (1e-7, "1e-7"),
        (123456789.0, "123456789.0"),
        (9007199254740993.0, "9007199254740992.0"),
        (1e23, "1e+23"),
        (f64::NAN, "null"),
        (-f64::NAN, "null"),
        (f64::INFINITY, "null"),
        (f64::NEG_INFINITY, "null"),
    ];
    for &(v, want) in cases {
        assert_eq!(format(v), want, "{v:?}");
        assert_eq!(
            format(v),
            serde_json::to_string(&v).unwrap(),
            "{v:?} vs serde_json"
        );
    }
}

#[test]
fn identical_to_serde_json() {
    let mut rng = Rng::new(0xf10a7);
    let rounds = if cfg!(miri) { 200 } else { 300_000 };
    for i in 0..rounds {
        let v = match i % 3 {
            // Any bit pattern, NaN and infinities included.
            0 => f64::from_bits(rng.next_u64()),
            // Short decimals at every scale (many trailing zeros in the shortest form).
            1 => (rng.below(1_000_000) as f64) * 10f64.powi(rng.below(60) as i32 - 30),
            // Integers of every size.
            _ => (rng.next_u64() >> rng.below(64)) as f64,
        };
        assert_eq!(format(v), serde_json::to_string(&v).unwrap(), "{v:?}");
    }
}

/// `append_f64` and `append_f32` (which format in the vector's spare capacity) write
/// serde_json's text after what the vector holds, whatever its length and spare capacity
/// (none, a few bytes, plenty), and leave the bytes before it alone; `write_f64_in_place`
/// (what native encode calls) writes the same text.
#[test]
fn appended_text_is_serde_jsons_after_any_prefix() {
    let mut rng = Rng::new(0xa99e);
    let rounds = if cfg!(miri) { 100 } else { 100_000 };
    for i in 0..rounds {
        let prefix: Vec<u8> = (0..rng.below(40)).map(|k| b'a' + (k % 26) as u8).collect();
        let mut out = Vec::with_capacity(prefix.len() + rng.below(3) * rng.below(30));
        out.extend_from_slice(&prefix);
        let bits = rng.next_u64();
        let v = match i % 4 {
            // Any bit pattern, NaN and infinities included.
            0 => f64::from_bits(bits),
            // Short decimals at every scale (a point inside, before or after the digits).
            1 => (rng.below(1_000_000) as f64) * 10f64.powi(rng.below(50) as i32 - 25),
            // Coordinates with 17 significant digits, as in canada.json.
            2 => (rng.below(360) as f64 - 180.0) + (bits >> 12) as f64 / (1u64 << 52) as f64,
            _ => {
                let v = f32::from_bits(bits as u32);
                append_f32(v, &mut out);
                check_appended(&out, &prefix, &serde_json::to_string(&v).unwrap(), bits);
                continue;
            }
        };
        append_f64(v, &mut out);
        let want = serde_json::to_string(&v).unwrap();
        check_appended(&out, &prefix, &want, bits);
        let mut room = [MaybeUninit::new(b'#'); IN_PLACE_ROOM];
        let len = write_f64_in_place(v, &mut room);
        // SAFETY: every byte of `room` was initialized (to `#`) before the call.
        let text: Vec<u8> = room[..len]
            .iter()
            .map(|b| unsafe { b.assume_init() })
            .collect();
        assert_eq!(text, want.as_bytes(), "in place, {bits:#x}");
    }
}

/// `out` holds `prefix`, then `want`.
fn check_appended(out: &[u8], prefix: &[u8], want: &str, bits: u64) {
    assert_eq!(&out[..prefix.len()], prefix, "prefix of {bits:#x}");
    assert_eq!(&out[prefix.len()..], want.as_bytes(), "{bits:#x}");
}

fn format32(v: f32) -> String {
    let mut out = [b'#'; MAX_FLOAT_LEN];
    let len = format_f32(v, &mut out);
    String::from_utf8(out[..len].to_vec()).unwrap()
}

/// `f32` is written with its own shortest digits (as serde_json writes it), not the `f64`'s.
#[test]
fn f32_identical_to_serde_json() {
    let cases: &[(f32, &str)] = &[
        (0.1, "0.1"),
        (-0.0, "-0.0"),
        (16777217.0, "16777216.0"),
        (f32::MAX, "3.4028235e+38"),
        (f32::MIN_POSITIVE, "1.1754944e-38"),
        (-1e-45, "-1e-45"),
        (f32::NAN, "null"),
        (f32::NEG_INFINITY, "null"),
    ];
    for &(v, want) in cases {
        assert_eq!(format32(v), want, "{v:?}");
        assert_eq!(format32(v), serde_json::to_string(&v).unwrap(), "{v:?}");
    }
    let mut rng = Rng::new(0xf32);
    let rounds = if cfg!(miri) { 200 } else { 300_000 };
    for _ in 0..rounds {
        let v = f32::from_bits(rng.next_u64() as u32);
        let text = format32(v);
        assert_eq!(text, serde_json::to_string(&v).unwrap(), "{v:?}");
        if v.is_finite() {
            assert_eq!(text.parse::<f32>().unwrap().to_bits(), v.to_bits(), "{v:?}");
        }
    }
}

#[test]
fn shortest_round_trip_of_10_million_bit_patterns() {
    let mut rng = Rng::new(0x5eed_f00d);
    let rounds = if cfg!(miri) { 500 } else { 10_000_000 };
    for _ in 0..rounds {
        check_round_trip(random_finite(&mut rng));
    }
}

#[test]
fn boundaries_round_trip() {
    for bits in [
        0,
        1,
        2,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
    ] {
        for sign in [0, 1 << 63] {
            check_round_trip(f64::from_bits(bits | sign));
        }
    }
    // Every power of two and of ten (every 16th under Miri), and their neighbours.
    let step = if cfg!(miri) { 16 } else { 1 };
    for e in (-1074i64..=1023).step_by(step) {
        let bits = if e >= -1022 {
            ((e + 1023) as u64) << 52
        } else {
            1 << (e + 1074)
        };
        for v in [bits, bits + 1, bits - 1].map(f64::from_bits) {
            check_round_trip(v);
        }
    }
    for e in (-323..=308).step_by(step) {
        let p: f64 = format!("1e{e}").parse().unwrap();
        check_round_trip(p);
        check_round_trip(f64::from_bits(p.to_bits() + 1));
    }
}

#[test]
#[ignore = "100 million random round trips: about a minute"]
fn shortest_round_trip_of_100_million_bit_patterns() {
    let mut rng = Rng::new(0xbadc_0ffe);
    for _ in 0..100_000_000 {
        check_round_trip(random_finite(&mut rng));
    }
}

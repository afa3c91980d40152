//! Integer formatting: scalar, dispatch and AVX2 twins against `to_string()` around every
//! power of ten, at the extremes, and on millions of random values of random bit lengths.

mod common;

use common::{MiriSample, Rng, avx2, check_dispatch};
use jitson_kernels::int_format::{self, MAX_INT_LEN};

/// Formats with `f` into a buffer pre-filled with junk; returns the written prefix.
fn run<T>(f: impl Fn(T, &mut [u8; MAX_INT_LEN]) -> usize, v: T) -> String {
    let mut out = [b'#'; MAX_INT_LEN];
    let len = f(v, &mut out);
    String::from_utf8(out[..len].to_vec()).unwrap()
}

fn check_u64(v: u64) {
    let want = v.to_string();
    assert_eq!(run(int_format::scalar::format_u64, v), want, "scalar");
    if check_dispatch() {
        assert_eq!(run(int_format::format_u64, v), want, "dispatch");
    }
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: AVX2 support was checked.
        let got = run(|v, out| unsafe { int_format::avx2::format_u64(v, out) }, v);
        assert_eq!(got, want, "avx2");
    }
}

fn check_i64(v: i64) {
    let want = v.to_string();
    assert_eq!(run(int_format::scalar::format_i64, v), want, "scalar");
    if check_dispatch() {
        assert_eq!(run(int_format::format_i64, v), want, "dispatch");
    }
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: AVX2 support was checked.
        let got = run(|v, out| unsafe { int_format::avx2::format_i64(v, out) }, v);
        assert_eq!(got, want, "avx2");
    }
}

/// Checks `v` as u64, and its bit pattern and its negation as i64.
fn check_bits(v: u64) {
    check_u64(v);
    check_i64(v as i64);
    check_i64((v as i64).wrapping_neg());
}

#[test]
fn extremes() {
    for v in [
        0,
        1,
        9,
        10,
        99,
        100,
        u64::MAX,
        u64::MAX - 1,
        1 << 63,
        (1 << 63) - 1,
    ] {
        check_bits(v);
    }
    for v in [i64::MIN, i64::MIN + 1, i64::MAX, -1, 0, 1] {
        check_i64(v);
    }
    assert_eq!(
        run(int_format::format_i64, i64::MIN),
        "-9223372036854775808"
    );
    assert_eq!(
        run(int_format::format_u64, u64::MAX),
        "18446744073709551615"
    );
}

#[test]
fn around_every_power_of_ten() {
    let mut p = 1u64;
    loop {
        for v in [p - 1, p, p + 1, p.wrapping_mul(2) - 1, p / 2 * 3] {
            check_bits(v);
        }
        match p.checked_mul(10) {
            Some(next) => p = next,
            None => break,
        }
    }
}

#[test]
fn every_value_below_100_000() {
    let end = if cfg!(miri) { 500 } else { 100_000 };
    let mut sample = MiriSample::default();
    for v in (0..end).filter(|_| sample.next_runs()) {
        check_bits(v);
    }
}

#[test]
fn random_values_of_random_bit_lengths() {
    let mut rng = Rng::new(0xf0f0);
    let rounds = if cfg!(miri) { 300 } else { 2_000_000 };
    for _ in 0..rounds {
        let bits = 1 + rng.below(64) as u32;
        check_bits(rng.next_u64() >> (64 - bits));
    }
}

#[test]
#[ignore = "exhaustive over every 8-digit block: about a minute"]
fn every_eight_digit_block() {
    for v in 0..100_000_000u64 {
        check_u64(v);
        check_u64(v + 100_000_000 * 12_345_678);
    }
}

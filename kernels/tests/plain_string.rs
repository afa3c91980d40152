//! The inline end of a plain string against the string scan: every special byte at every
//! position, random bodies, and guard-page placement (the inline steps never read past the
//! slice).

mod common;

use common::{Rng, for_each_guarded_suffix, special_byte_inputs};
use jitson_kernels::plain_string::plain_string_end;
use jitson_kernels::string_scan::scan_string;

/// Bytes of one inline step: SSE2 on x86-64, SWAR words elsewhere and under Miri.
const STEP: usize = if cfg!(all(target_arch = "x86_64", not(miri))) {
    16
} else {
    8
};

/// `plain_string_end` on the body at `buf[1..]` either gives up or finds the closing quote
/// the scan finds, with no backslash before it; it does not give up on a plain body whose
/// quote is within the first step of input.
fn check(buf: &[u8]) {
    let Some(got) = plain_string_end(buf, 1) else {
        let first_stop = buf.iter().skip(1).position(|&b| b == b'"' || b == b'\\');
        if let Some(k) = first_stop {
            let plain = buf[1 + k] == b'"';
            assert!(
                !(plain && k < STEP && buf.len() > STEP),
                "gave up on a plain body with its quote in the first step: {buf:?}"
            );
        }
        return;
    };
    let scan = scan_string(buf, 1).expect("a closing quote");
    assert_eq!(got, scan.end, "{buf:?}");
    assert!(!buf[1..got].contains(&b'\\'), "{buf:?}");
}

#[test]
fn every_stop_at_every_position() {
    for body in special_byte_inputs(b'a', b"\"\\") {
        let mut buf = vec![b'"'];
        buf.extend_from_slice(&body);
        check(&buf);
        buf.extend_from_slice(b"\"tail");
        check(&buf);
    }
}

#[test]
fn random_bodies() {
    let mut rng = Rng::new(0x91a1_5e4d);
    let rounds = if cfg!(miri) { 50 } else { 50_000 };
    for _ in 0..rounds {
        let len = rng.below(100);
        let mut buf = vec![b'"'];
        buf.extend(rng.bytes_from(b"ab \"\\\xc3\xa9", len));
        check(&buf);
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn guarded_inputs() {
    let text = b"\"a short key\": \"and a value that runs on for a while\\n with an escape\"";
    for_each_guarded_suffix(text, |placed| {
        for start in 0..=placed.len() {
            let _ = plain_string_end(placed, start);
        }
    });
}

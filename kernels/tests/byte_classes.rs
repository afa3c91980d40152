//! Block classification and kept-byte appending: the scalar twin against the classes'
//! definitions, and the AVX2 twin against the scalar one, on every byte value at every
//! position, random blocks, and kept masks of every shape.

mod common;

use common::{Rng, avx2, check_dispatch};
use jitson_kernels::byte_classes::{self, BLOCK, ByteClasses};

/// The classes of `block` from their definitions, one byte at a time.
fn reference(block: &[u8; BLOCK]) -> ByteClasses {
    let bits =
        |f: &dyn Fn(u8) -> bool| (0..BLOCK).fold(0u64, |m, k| m | u64::from(f(block[k])) << k);
    ByteClasses {
        quote: bits(&|b| b == b'"'),
        backslash: bits(&|b| b == b'\\'),
        whitespace: bits(&|b| b" \t\n\r".contains(&b)),
        digit: bits(&|b| b.is_ascii_digit()),
        zero: bits(&|b| b == b'0'),
        minus: bits(&|b| b == b'-'),
        fraction_or_exponent: bits(&|b| b".E+".contains(&b)),
        small_e: bits(&|b| b == b'e'),
    }
}

fn check_classes(block: &[u8; BLOCK]) {
    let want = reference(block);
    assert_eq!(
        byte_classes::scalar::classify(block),
        want,
        "scalar {block:x?}"
    );
    if check_dispatch() {
        assert_eq!(byte_classes::classify(block), want, "dispatch {block:x?}");
    }
    if avx2() {
        // SAFETY: AVX2 support was checked.
        let got = unsafe { byte_classes::avx2::classify(block) };
        assert_eq!(got, want, "avx2 {block:x?}");
    }
}

#[test]
fn every_byte_at_every_position() {
    // Under Miri, one byte of each class and its neighbours, at both halves' edges.
    let (fillers, bytes): (&[u8], Vec<u8>) = if cfg!(miri) {
        (b"a", b" \t\n\r\"\\/09:-,+.eEfx\x80".to_vec())
    } else {
        (b"a \"0", (0..=255).collect())
    };
    for &filler in fillers {
        for &b in &bytes {
            for k in (0..BLOCK).step_by(if cfg!(miri) { 31 } else { 1 }) {
                let mut block = [filler; BLOCK];
                block[k] = b;
                check_classes(&block);
            }
        }
    }
}

#[test]
fn random_blocks() {
    let mut rng = Rng::new(0xc1a5);
    let alphabet = b" \t\n\r\"\\0123456789-+.eEtrufalsn,:[]{}x\x80\xff";
    for _ in 0..if cfg!(miri) { 20 } else { 20_000 } {
        let block: [u8; BLOCK] = std::array::from_fn(|_| alphabet[rng.below(alphabet.len())]);
        check_classes(&block);
    }
}

fn check_kept(block: &[u8; BLOCK], keep: u64) {
    let mut want = b"prefix".to_vec();
    want.extend((0..BLOCK).filter(|&k| keep >> k & 1 != 0).map(|k| block[k]));
    // The same block followed by another, whose bytes must never be kept.
    let mut window = [b'#'; 2 * BLOCK];
    window[..BLOCK].copy_from_slice(block);
    let window = &window;
    type Append<'a> = Box<dyn Fn(&mut Vec<u8>) + 'a>;
    let mut twins: Vec<(&str, Append<'_>)> = vec![
        (
            "scalar",
            Box::new(|out| byte_classes::scalar::append_kept(block, keep, out)),
        ),
        (
            "scalar ahead",
            Box::new(|out| byte_classes::scalar::append_kept_ahead(window, keep, out)),
        ),
    ];
    if check_dispatch() {
        twins.push((
            "dispatch",
            Box::new(|out| byte_classes::append_kept(block, keep, out)),
        ));
        twins.push((
            "dispatch ahead",
            Box::new(|out| byte_classes::append_kept_ahead(window, keep, out)),
        ));
    }
    if avx2() {
        twins.push((
            "avx2",
            // SAFETY: AVX2 support was checked.
            Box::new(|out| unsafe { byte_classes::avx2::append_kept(block, keep, out) }),
        ));
        twins.push((
            "avx2 ahead",
            // SAFETY: AVX2 support was checked.
            Box::new(|out| unsafe { byte_classes::avx2::append_kept_ahead(window, keep, out) }),
        ));
        twins.push((
            "avx2 compress",
            Box::new(|out| {
                out.reserve(BLOCK);
                // SAFETY: AVX2 support was checked; the spare capacity holds `BLOCK` bytes,
                // and `compress` wrote the bytes it counts after the vector's end.
                unsafe {
                    let spare = out.spare_capacity_mut().as_mut_ptr().cast();
                    let kept = byte_classes::avx2::compress(block, keep, spare);
                    out.set_len(out.len() + kept);
                }
            }),
        ));
    }
    for (name, append) in twins {
        let mut out = b"prefix".to_vec();
        append(&mut out);
        assert_eq!(out, want, "{name} {keep:#x}");
    }
}

#[test]
fn kept_bytes_of_every_mask_shape() {
    let block: [u8; BLOCK] = std::array::from_fn(|k| b'!' + k as u8);
    let mut masks = vec![0, u64::MAX, u64::MAX - 1, u64::MAX >> 1, 1, 1 << 63];
    masks.extend([
        0x5555_5555_5555_5555,
        0xaaaa_aaaa_aaaa_aaaa,
        0x00ff_00ff_00ff_00ff,
    ]);
    // Every 8-bit pattern in every 8-byte group at once; under Miri every 17th (all 256 took
    // the test to 33 s there, these 16 to under 5 s).
    let patterns = (0..=u8::MAX).step_by(if cfg!(miri) { 17 } else { 1 });
    masks.extend(patterns.map(|m| u64::from(m) * 0x0101_0101_0101_0101));
    let step = if cfg!(miri) { 9 } else { 1 };
    masks.extend((0..BLOCK).step_by(step).map(|k| 1u64 << k));
    masks.extend((0..BLOCK).step_by(step).map(|k| !(1u64 << k)));
    masks.extend((1..BLOCK).step_by(step).map(|k| u64::MAX >> k));
    masks.extend((1..BLOCK).step_by(step).map(|k| u64::MAX << k));
    let mut rng = Rng::new(0x6e97);
    masks
        .extend((0..if cfg!(miri) { 20 } else { 20_000 }).map(|_| rng.next_u64() & rng.next_u64()));
    for keep in masks {
        check_kept(&block, keep);
    }
}

//! Shortest round-trip float formatting (`f64` and `f32`), byte-identical to serde_json.
//!
//! serde_json 1.x (1.0.154 in `Cargo.lock`) writes a finite `f64` (or `f32`) with `zmij::Buffer::
//! format_finite` and a non-finite one as `null`; this kernel does exactly that, so the output
//! is serde_json's by construction (the tests compare the two on random values). `zmij` is also
//! faster than `ryu` (see the `numbers` bench), and `ryu` differs in format (`1e300` where
//! serde_json writes `1e+300`), so it is not an option.
//!
//! There is no separate AVX2 twin: `zmij` chooses its SIMD code when it is compiled (SSE2 on
//! every x86-64, SSE4.1 only with a matching `target-cpu`), not at run time, so an AVX2-labelled
//! copy would run the very same code. One implementation serves both backends.

use std::mem::MaybeUninit;

/// Longest output of [`format_f64`] (for example `-2.2250738585072014e-308` is 24 bytes).
pub const MAX_FLOAT_LEN: usize = 24;

/// Writes the shortest round-trip form of `v` (as serde_json does; non-finite → `null`) to the
/// start of `out`; returns the length.
#[inline]
pub fn format_f64(v: f64, out: &mut [u8; MAX_FLOAT_LEN]) -> usize {
    format(v, v.is_finite(), out)
}

/// Writes the shortest form of `v` that reads back as the same `f32` (as serde_json writes an
/// `f32`: `0.1f32` is `0.1`, not the `f64` digits `0.10000000149011612`; non-finite → `null`)
/// to the start of `out`; returns the length.
#[inline]
pub fn format_f32(v: f32, out: &mut [u8; MAX_FLOAT_LEN]) -> usize {
    format(v, v.is_finite(), out)
}

/// `null` when not `finite`, else zmij's shortest form of `v`.
#[inline(always)]
fn format<F: zmij::Float>(v: F, finite: bool, out: &mut [u8; MAX_FLOAT_LEN]) -> usize {
    if !finite {
        out[..4].copy_from_slice(b"null");
        return 4;
    }
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(v).as_bytes();
    copy_short(text, out);
    text.len()
}

/// Bytes [`write_f64_in_place`] needs at its destination: zmij's buffer, which it formats
/// where it lies.
pub const IN_PLACE_ROOM: usize = size_of::<zmij::Buffer>();

/// Writes the shortest round-trip form of `v` (as [`format_f64`]; non-finite → `null`) to the
/// start of `dst`, formatting in place: no copy, so no store-forwarding stall (see
/// [`crate::append`]); returns the length.
#[inline]
pub fn write_f64_in_place(v: f64, dst: &mut [MaybeUninit<u8>; IN_PLACE_ROOM]) -> usize {
    shortest_in_place(v, v.is_finite(), dst)
}

/// Appends `null` when not `finite`, else zmij's shortest form of `v`, to `out`, formatted in
/// its spare capacity ([`shortest_in_place`]).
#[inline(always)]
pub(crate) fn append_shortest<F: zmij::Float>(v: F, finite: bool, out: &mut Vec<u8>) {
    out.reserve(IN_PLACE_ROOM);
    let at = out.len();
    let room: &mut [MaybeUninit<u8>; IN_PLACE_ROOM] = (&mut out.spare_capacity_mut()
        [..IN_PLACE_ROOM])
        .try_into()
        .expect("room was reserved");
    let len = shortest_in_place(v, finite, room);
    // SAFETY: the `len` bytes after the old end were just written, within the capacity.
    unsafe { out.set_len(at + len) };
}

/// Writes `null` when not `finite`, else zmij's shortest form of `v`, to the start of `dst`;
/// the length. zmij formats into a [`zmij::Buffer`] placed at `dst`, so the text is written
/// where it stays. Formatting into a buffer on the stack and copying the text out costs a
/// store-forwarding stall per number: the copy's wide loads span zmij's narrower stores
/// (the sign byte, the digit block, the moved integer part), which must retire first.
#[inline(always)]
fn shortest_in_place<F: zmij::Float>(
    v: F,
    finite: bool,
    dst: &mut [MaybeUninit<u8>; IN_PLACE_ROOM],
) -> usize {
    const {
        assert!(align_of::<zmij::Buffer>() == 1 && !std::mem::needs_drop::<zmij::Buffer>());
        assert!(IN_PLACE_ROOM >= MAX_FLOAT_LEN);
    }
    if !finite {
        dst[..4].copy_from_slice(&b"null".map(MaybeUninit::new));
        return 4;
    }
    let start = dst.as_mut_ptr().cast::<u8>();
    // SAFETY: `dst` is `size_of::<Buffer>()` bytes, exclusively borrowed for this call, and
    // `Buffer` needs no alignment (checked above). The buffer is a value made by
    // `Buffer::new` and written there, so the reference is to a valid `Buffer`; it needs no
    // drop, so leaving it in `dst` leaks nothing.
    let buffer = unsafe {
        let place = start.cast::<zmij::Buffer>();
        place.write(zmij::Buffer::new());
        &mut *place
    };
    let text = buffer.format_finite(v).as_bytes();
    let len = text.len();
    if !std::ptr::eq(text.as_ptr(), start) {
        // The text does not start at the buffer's first byte. The buffer's layout is
        // zmij's own; with zmij 1.0 the text starts there and this branch is never taken.
        // Move it to the start through a copy.
        let mut moved = [0u8; MAX_FLOAT_LEN];
        moved[..len].copy_from_slice(text);
        for (d, &b) in dst.iter_mut().zip(&moved[..len]) {
            *d = MaybeUninit::new(b);
        }
    }
    len
}

/// Copies `src` (at most [`MAX_FLOAT_LEN`] bytes) to the start of `out` with two overlapping
/// fixed-size moves, instead of a variable-length `memcpy` call that would cost as much as the
/// formatting.
#[inline(always)]
fn copy_short(src: &[u8], out: &mut [u8; MAX_FLOAT_LEN]) {
    let n = src.len();
    if n >= 16 {
        out[..16].copy_from_slice(&src[..16]);
        out[n - 16..n].copy_from_slice(&src[n - 16..]);
    } else if n >= 8 {
        out[..8].copy_from_slice(&src[..8]);
        out[n - 8..n].copy_from_slice(&src[n - 8..]);
    } else if n >= 4 {
        out[..4].copy_from_slice(&src[..4]);
        out[n - 4..n].copy_from_slice(&src[n - 4..]);
    } else {
        out[..n].copy_from_slice(src);
    }
}

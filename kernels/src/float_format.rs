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

/// Appends `null` when not `finite`, else zmij's shortest form of `v`, to `out`: zmij
/// formats into a [`zmij::Buffer`] placed in `out`'s spare capacity, so the text is written
/// where it stays. Formatting into a buffer on the stack and copying the text out costs a
/// store-forwarding stall per number: the copy's wide loads span zmij's narrower stores
/// (the sign byte, the digit block, the moved integer part), which must retire first.
#[inline(always)]
pub(crate) fn append_shortest<F: zmij::Float>(v: F, finite: bool, out: &mut Vec<u8>) {
    const {
        assert!(align_of::<zmij::Buffer>() == 1 && !std::mem::needs_drop::<zmij::Buffer>());
    }
    if !finite {
        out.extend_from_slice(b"null");
        return;
    }
    out.reserve(size_of::<zmij::Buffer>());
    let at = out.len();
    let spare = out.spare_capacity_mut().as_mut_ptr().cast::<u8>();
    // SAFETY: `spare` points to at least `size_of::<Buffer>()` bytes of `out`'s spare
    // capacity (reserved above), which nothing else references while `buffer` lives, and
    // `Buffer` needs no alignment (checked above). The buffer is a value made by
    // `Buffer::new` and written there, so the reference is to a valid `Buffer`; it needs
    // no drop, so leaving it in the spare capacity leaks nothing.
    let buffer = unsafe {
        let place = spare.cast::<zmij::Buffer>();
        place.write(zmij::Buffer::new());
        &mut *place
    };
    let text = buffer.format_finite(v).as_bytes();
    let len = text.len();
    if !std::ptr::eq(text.as_ptr(), spare) {
        // The text does not start at the buffer's first byte. The buffer's layout is
        // zmij's own; with zmij 1.0 the text starts there and this branch is never taken.
        // Append a copy instead.
        let text = text.to_vec();
        out.extend_from_slice(&text);
        return;
    }
    // SAFETY: the `len` bytes after the old end are zmij's text: initialized (a `&str`), and
    // within `out`'s capacity, since a reference that starts at `spare` lies in the
    // allocation `spare` points into.
    unsafe { out.set_len(at + len) };
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

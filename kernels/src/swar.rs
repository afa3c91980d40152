//! SWAR ("SIMD within a register") byte classification on 8-byte words, for the scalar twins.
//!
//! Each function returns a word whose lane `k` has its high bit (0x80) set exactly when byte
//! `k` of the input word is in the class, and every other bit clear. The forms used never let
//! a borrow or carry cross lanes, so every lane is exact (no false positives after a match).

/// 0x01 in every byte lane.
const ONES: u64 = 0x0101_0101_0101_0101;
/// 0x80 in every byte lane.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Reads the 8 bytes of `word` as a little-endian word (lane `k` = byte `k`).
#[inline]
pub(crate) fn load(word: &[u8; 8]) -> u64 {
    u64::from_le_bytes(*word)
}

/// Lanes of `x` that are zero. `(x & 0x7f) + 0x7f` sets a lane's high bit iff its low seven
/// bits are not all zero, and never carries out of the lane; or-ing `x` adds lanes whose own
/// high bit is set.
#[inline]
fn zero_lanes(x: u64) -> u64 {
    !((x & !HIGHS).wrapping_add(!HIGHS) | x) & HIGHS
}

/// Lanes of `w` equal to `b`.
#[inline]
pub(crate) fn eq_lanes(w: u64, b: u8) -> u64 {
    zero_lanes(w ^ (ONES * u64::from(b)))
}

/// Lanes of `w` below 0x20 (JSON control bytes): those whose top three bits are clear.
#[inline]
pub(crate) fn control_lanes(w: u64) -> u64 {
    zero_lanes(w & (ONES * 0xe0))
}

/// Lanes of `w` holding JSON whitespace (space, tab, line feed, carriage return); the
/// whitespace prelude steps with SSE2 on x86-64 (outside Miri).
#[cfg(not(all(target_arch = "x86_64", not(miri))))]
#[inline]
pub(crate) fn whitespace_lanes(w: u64) -> u64 {
    eq_lanes(w, b' ') | eq_lanes(w, b'\n') | eq_lanes(w, b'\r') | eq_lanes(w, b'\t')
}

/// Lanes of `w` at or above 0x80 (non-ASCII).
#[inline]
pub(crate) fn non_ascii_lanes(w: u64) -> u64 {
    w & HIGHS
}

/// Index of the first set lane of a non-zero lane word.
#[inline]
pub(crate) fn first_lane(lanes: u64) -> usize {
    (lanes.trailing_zeros() / 8) as usize
}

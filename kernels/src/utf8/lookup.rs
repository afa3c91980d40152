//! The lookup-table UTF-8 check of Keiser and Lemire ("Validating UTF-8 In Less Than One
//! Instruction Per Byte", 2021; simdjson's and simdutf8's algorithm) on one or two 32-byte
//! AVX2 blocks, for inputs shorter than 64 bytes.
//!
//! Three 16-entry table lookups classify each byte together with the byte before it; the
//! classes that are errors for every pair survive the `and` of the three lookups. A second
//! and third continuation byte is legal only two or three bytes after a 3- or 4-byte lead:
//! that is the one class (`TWO_CONTS`) the check flips by position. It answers only "valid or
//! not": the caller asks the scalar twin for an invalid input's error offset.

use std::arch::x86_64::*;

use crate::simd::{CHUNK, load32};

// The classes of a byte pair (the byte before, then the byte), one bit each.
/// A lead byte followed by ASCII or another lead byte.
const TOO_SHORT: u8 = 1 << 0;
/// ASCII followed by a continuation byte.
const TOO_LONG: u8 = 1 << 1;
/// `E0` followed by `80..=9F` (a 3-byte form of a 2-byte character).
const OVERLONG_3: u8 = 1 << 2;
/// `F4` followed by `90..=BF`, or `F5..=FF` followed by `90..=BF`: above U+10FFFF.
const TOO_LARGE: u8 = 1 << 3;
/// `ED` followed by `A0..=BF`: a UTF-16 surrogate.
const SURROGATE: u8 = 1 << 4;
/// `C0` or `C1` followed by a continuation byte (a 2-byte form of ASCII).
const OVERLONG_2: u8 = 1 << 5;
/// `F5..=FF` followed by `80..=8F`: above U+10FFFF.
const TOO_LARGE_1000: u8 = 1 << 6;
/// `F0` followed by `80..=8F` (a 4-byte form of a 3-byte character); shares its bit with
/// [`TOO_LARGE_1000`], since the lead's low nibble tells them apart.
const OVERLONG_4: u8 = 1 << 6;
/// A continuation byte followed by another: an error unless a 3- or 4-byte lead opened it.
const TWO_CONTS: u8 = 1 << 7;
/// The classes decided by the first byte's high nibble alone.
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// Classes by the first byte's high nibble.
const FIRST_HIGH: [u8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

/// Classes by the first byte's low nibble.
const FIRST_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

/// Classes by the second byte's high nibble.
const SECOND_HIGH: [u8; 16] = [
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

/// True when `bytes` (shorter than 64 bytes) are valid UTF-8.
///
/// # Safety
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn is_valid(bytes: &[u8]) -> bool {
    debug_assert!(bytes.len() < 2 * CHUNK);
    // Bytes past the end read as 0 (ASCII), and at least one such byte is checked: a
    // sequence the end cuts short meets ASCII, which is an error like any other.
    // SAFETY: AVX2 is enabled here and `0 <= bytes.len()`.
    let first = unsafe { load32(bytes, 0, 0) };
    let high_bit = _mm256_set1_epi8(0x80u8 as i8);
    let errors = if bytes.len() < CHUNK {
        if _mm256_testz_si256(first, high_bit) == 1 {
            return true; // ASCII
        }
        block_errors(first, _mm256_setzero_si256())
    } else {
        // SAFETY: AVX2 is enabled here and `32 <= bytes.len()`.
        let second = unsafe { load32(bytes, CHUNK, 0) };
        if _mm256_testz_si256(_mm256_or_si256(first, second), high_bit) == 1 {
            return true; // ASCII
        }
        _mm256_or_si256(
            block_errors(first, _mm256_setzero_si256()),
            block_errors(second, first),
        )
    };
    _mm256_testz_si256(errors, errors) == 1
}

/// The error bits of the 32 bytes `input`, which follow the 32 bytes `before`.
#[inline]
#[target_feature(enable = "avx2")]
fn block_errors(input: __m256i, before: __m256i) -> __m256i {
    // `joined` holds `before`'s upper half, then `input`'s lower half: per 128-bit lane,
    // `alignr` with it shifts the byte(s) before each lane in.
    let joined = _mm256_permute2x128_si256::<0x21>(before, input);
    let prev1 = _mm256_alignr_epi8::<15>(input, joined);
    let prev2 = _mm256_alignr_epi8::<14>(input, joined);
    let prev3 = _mm256_alignr_epi8::<13>(input, joined);
    let low_nibbles = _mm256_set1_epi8(0x0f);
    let high = |v: __m256i| _mm256_and_si256(_mm256_srli_epi16::<4>(v), low_nibbles);
    let pairs = _mm256_and_si256(
        _mm256_and_si256(
            lookup(FIRST_HIGH, high(prev1)),
            lookup(FIRST_LOW, _mm256_and_si256(prev1, low_nibbles)),
        ),
        lookup(SECOND_HIGH, high(input)),
    );
    // Bit 7 set where the byte is the third of a 3- or 4-byte sequence (two after a lead
    // `E0..`) or the fourth (three after `F0..`): there two continuations in a row are
    // required, and `TWO_CONTS` is set exactly when they are present.
    let third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((0xe0u8 - 0x80) as i8));
    let fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((0xf0u8 - 0x80) as i8));
    let required = _mm256_and_si256(
        _mm256_or_si256(third, fourth),
        _mm256_set1_epi8(TWO_CONTS as i8),
    );
    _mm256_xor_si256(required, pairs)
}

/// Each byte of `nibbles` (all below 16) replaced by its entry in `table`.
#[inline]
#[target_feature(enable = "avx2")]
fn lookup(table: [u8; 16], nibbles: __m256i) -> __m256i {
    // SAFETY: reads the 16 bytes of the local array `table`.
    let table = unsafe { _mm_loadu_si128(table.as_ptr().cast()) };
    _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(table), nibbles)
}

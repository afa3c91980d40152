//! Which bytes of a 64-byte block are escaped and which lie inside strings, carried from
//! block to block (simdjson's scheme): the AVX2 block walks (the unchecked skip, minify)
//! share it, and the clean-block walk its prefix XOR.
//!
//! A mask of backslashes gives the mask of *escaped* bytes (those after an odd-length
//! backslash run, which may begin in an earlier block); the quotes that are not escaped
//! give, by a prefix XOR (a carry-less multiply by all ones), the mask of bytes inside
//! strings. An opening quote counts as inside its string, a closing one as outside.

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::*;

/// The odd bit positions of a 64-bit mask.
const ODD_BITS: u64 = 0xaaaa_aaaa_aaaa_aaaa;

/// Tracks backslash runs across blocks and turns a backslash mask into an escaped-byte mask.
#[derive(Default)]
struct EscapeScanner {
    /// 1 when the first byte of the next block is escaped by a run ending this block.
    next_is_escaped: u64,
}

impl EscapeScanner {
    /// Bit `k` set when byte `k` of the block follows an odd-length run of backslashes (the
    /// run may begin in an earlier block). `backslash` has bit `k` set for each `\`.
    #[inline(always)]
    fn escaped(&mut self, backslash: u64) -> u64 {
        if backslash == 0 {
            return std::mem::take(&mut self.next_is_escaped);
        }
        // A backslash that is itself escaped cannot start an escape.
        let potential = backslash & !self.next_is_escaped;
        // Subtraction marks even-aligned runs, XOR with the odd bits fixes odd-aligned ones:
        // the result has the escaping backslashes and the escaped bytes set (simdjson's
        // `next_escape_and_terminal_code`).
        let codes = (((potential << 1) | ODD_BITS).wrapping_sub(potential)) ^ ODD_BITS;
        let escaped = codes ^ (backslash | self.next_is_escaped);
        let escaping = codes & backslash;
        self.next_is_escaped = escaping >> 63;
        escaped
    }
}

/// Bit `k` set when an odd number of bits of `quotes` are set at positions `0..=k`.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
pub(crate) fn prefix_xor(quotes: u64) -> u64 {
    let product = _mm_clmulepi64_si128(_mm_set_epi64x(0, quotes as i64), _mm_set1_epi8(-1), 0x00);
    _mm_cvtsi128_si64(product) as u64
}

/// The string state of a walk over consecutive 64-byte blocks of one text, from its start.
#[derive(Default)]
pub(crate) struct StringTracker {
    escapes: EscapeScanner,
    /// All ones when the previous block ended inside a string.
    in_string_carry: u64,
}

impl StringTracker {
    /// The next block's `(inside strings, escaped)` masks, from its masks of quotes and of
    /// backslashes (bit `k` for byte `k`).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    pub(crate) fn next(&mut self, quote: u64, backslash: u64) -> (u64, u64) {
        let escaped = self.escapes.escaped(backslash);
        let in_string = prefix_xor(quote & !escaped) ^ self.in_string_carry;
        self.in_string_carry = ((in_string as i64) >> 63) as u64;
        (in_string, escaped)
    }
}

#[cfg(test)]
mod tests {
    use super::EscapeScanner;

    /// Escaped-byte masks of consecutive 64-bit backslash masks, byte by byte.
    fn reference(blocks: &[u64]) -> Vec<u64> {
        let mut escape_next = false;
        blocks
            .iter()
            .map(|&bs| {
                let mut escaped = 0u64;
                for k in 0..64 {
                    if escape_next {
                        escaped |= 1 << k;
                        escape_next = false;
                    } else if bs >> k & 1 == 1 {
                        escape_next = true;
                    }
                }
                escaped
            })
            .collect()
    }

    #[test]
    fn escaped_mask_matches_byte_walk() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let n = if cfg!(miri) { 50 } else { 20_000 };
        for _ in 0..n {
            // Dense backslash masks: AND of few random words keeps runs long.
            let blocks: Vec<u64> = (0..4)
                .map(|_| match next() % 4 {
                    0 => next() | next(),
                    1 => next(),
                    2 => !0 << (next() % 64),
                    _ => next() & next(),
                })
                .collect();
            let mut scanner = EscapeScanner::default();
            let got: Vec<u64> = blocks.iter().map(|&b| scanner.escaped(b)).collect();
            assert_eq!(got, reference(&blocks), "{blocks:x?}");
        }
    }
}

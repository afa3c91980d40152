//! Raw JSON rewritten compactly, as `serde_json` writes the value it parses from it (see the
//! [module docs](super)).
//!
//! Most of a well-formed document is already in that form: structural bytes, literals,
//! strings without escapes (when the mode escapes nothing they can hold) and most numbers
//! (see [`super::verbatim`]). The writer keeps a pending run of such bytes and copies it in
//! one piece when something must change: whitespace (dropped), a string with escapes
//! (decoded and escaped again in one pass with [`EscapeMode::Minimal`]), a number whose
//! text is not the one written for its value (read and formatted again). With
//! [`EscapeMode::Minimal`], 64-byte blocks that need nothing but their whitespace dropped
//! are found from their byte classes ([`jitson_kernels::byte_classes`]) and copied whole.

use jitson_kernels::byte_classes::{BLOCK, ByteClasses, append_kept, append_kept_ahead, classify};
use jitson_kernels::escape::{EscapeMode, escape_str};
use jitson_kernels::plain_string::plain_string_end;
use jitson_kernels::reescape::reescape_minimal;
use jitson_kernels::string_scan::scan_string;
use jitson_kernels::unescape::{Surrogates, unescape};
use jitson_kernels::whitespace::skip_whitespace;

use super::num_ref;
use super::verbatim::{is_written_form, short_integer};
use crate::ir::BigInts;
use crate::number::read_number;

/// Rewrites well-formed JSON text `raw` compactly, as `serde_json` writes the value it
/// parses from it (see the module docs); integers beyond 64 bits verbatim when `big` is
/// [`BigInts::Raw`], else as the nearest `f64`. `raw` must be well-formed (decode checked it).
///
/// Members stay in their order, repeated keys included. A string without escapes is copied
/// as it is when the mode escapes nothing it can hold (with [`EscapeMode::Minimal`] only
/// escapes and control bytes need escaping, and well-formed text has no raw control bytes).
pub fn write_raw(raw: &[u8], mode: EscapeMode, big: BigInts, out: &mut Vec<u8>) {
    let big = match big {
        BigInts::Raw => BigInts::Raw,
        BigInts::F64 | BigInts::Error => BigInts::F64,
    };
    out.reserve(raw.len());
    // Unescaped text of a string, for the modes that escape more than `Minimal`.
    let mut text = Vec::new();
    // `raw[run..i]` is written as it is, when the next byte that changes comes (or at the end).
    let mut run = 0;
    let mut i = 0;
    // With `Minimal` escapes, whole blocks that need no change but dropped whitespace are
    // copied at once ([`copy_block`]). After a block that does need one, the text is walked
    // token by token for one block, then for twice as many after each further miss in a
    // row (up to `MAX_MISS_SHIFT` doublings): text where most blocks need a change (every
    // block of canada.json holds a fraction) then costs few classifications.
    const MAX_MISS_SHIFT: u32 = 4;
    let mut tokens_until = if mode == EscapeMode::Minimal {
        0
    } else {
        usize::MAX
    };
    let mut misses = 0;
    'text: while i < raw.len() {
        if i >= tokens_until {
            out.extend_from_slice(&raw[run..i]);
            let taken = copy_block(raw, i, out);
            i += taken;
            run = i;
            if taken == 0 {
                tokens_until = i + (BLOCK << misses);
                misses = (misses + 1).min(MAX_MISS_SHIFT);
            } else {
                misses = 0;
            }
            continue;
        }
        // Token by token up to where the next block is tried: one bound per step.
        let stop = tokens_until.min(raw.len());
        while i < stop {
            let b = raw[i];
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => {
                    out.extend_from_slice(&raw[run..i]);
                    i = skip_whitespace(raw, i);
                    run = i;
                }
                b'"' => {
                    if mode == EscapeMode::Minimal
                        && let Some(end) = plain_string_end(raw, i + 1)
                    {
                        i = end + 1;
                        continue;
                    }
                    let Ok(scan) = scan_string(raw, i + 1) else {
                        break 'text;
                    };
                    if !scan.has_escapes && mode == EscapeMode::Minimal {
                        i = scan.end + 1;
                        continue;
                    }
                    out.extend_from_slice(&raw[run..i]);
                    if !string(
                        &raw[i + 1..scan.end],
                        scan.has_escapes,
                        mode,
                        &mut text,
                        out,
                    ) {
                        return;
                    }
                    i = scan.end + 1;
                    run = i;
                }
                b'-' | b'0'..=b'9' => {
                    if let Some(end) = short_integer(raw, i) {
                        i = end;
                        continue;
                    }
                    let Ok((n, end)) = read_number(raw, i, big) else {
                        break 'text;
                    };
                    if !is_written_form(&raw[i..end], n) {
                        out.extend_from_slice(&raw[run..i]);
                        num_ref(n, out);
                        run = end;
                    }
                    i = end;
                }
                _ => i += 1,
            }
        }
    }
    out.extend_from_slice(&raw[run..i]);
}

/// Copies what can be copied of the block of [`BLOCK`] bytes at `i` (outside any string, at
/// a token's start), dropping whitespace outside strings: the bytes up to the opening quote
/// of a string the block leaves open, and up to the start of a number token the block's end
/// may cut. Returns how many input bytes that took: 0 when fewer than `BLOCK` bytes are
/// left, or when something in the block must be rewritten (a backslash, a number token with
/// a fraction or an exponent, an integer of more than 18 digits, `-0`).
#[inline]
fn copy_block(raw: &[u8], i: usize, out: &mut Vec<u8>) -> usize {
    let Some(block) = raw.get(i..).and_then(|rest| rest.first_chunk::<BLOCK>()) else {
        return 0;
    };
    let c = classify(block);
    if c.backslash != 0 {
        return 0;
    }
    let inside = prefix_xor(c.quote);
    let outside = !inside & !c.quote;
    let mut take = if inside >> (BLOCK - 1) != 0 {
        // A string opens at the block's last quote and does not close in it.
        (BLOCK - 1) - c.quote.leading_zeros() as usize
    } else {
        BLOCK
    };
    let numeric = outside & (c.digit | c.minus | c.fraction_or_exponent | c.small_e);
    if take > 0 && numeric >> (take - 1) & 1 != 0 {
        // A number token (or `true`'s `e`) ends the part taken: leave it to the next step.
        let others = !numeric & below(take);
        take = BLOCK - others.leading_zeros() as usize;
    }
    let taken = below(take);
    if take == 0 || needs_rewrite(&c, taken & outside) {
        return 0;
    }
    let keep = taken & !(c.whitespace & outside);
    match raw[i..].first_chunk::<{ 2 * BLOCK }>() {
        Some(window) => append_kept_ahead(window, keep, out),
        None => append_kept(block, keep, out),
    }
    take
}

/// Whether a number token in the `region` bits of a block is not in its written form: it has
/// a fraction or an exponent (`e` right after a digit), more than 18 digits, or is `-0` (see
/// [`super::verbatim`]).
#[inline]
fn needs_rewrite(c: &ByteClasses, region: u64) -> bool {
    let exponent = c.small_e & c.digit << 1;
    let minus_zero = c.minus & c.zero >> 1;
    // Bit `k` of `at_least_n` is set when bytes `k..k + n` of the region are all digits.
    let d = c.digit & region;
    let at_least_2 = d & d >> 1;
    let at_least_4 = at_least_2 & at_least_2 >> 2;
    let at_least_8 = at_least_4 & at_least_4 >> 4;
    let at_least_16 = at_least_8 & at_least_8 >> 8;
    let at_least_19 = at_least_16 & at_least_16 >> 3;
    (c.fraction_or_exponent | exponent | minus_zero) & region != 0 || at_least_19 != 0
}

/// The bits below bit `n` (all 64 for `n = 64`).
#[inline]
fn below(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// Bit `k` set when an odd number of bits `0..=k` of `x` are: with quote bits, the bytes
/// from an opening quote up to (not including) its closing quote.
#[inline]
fn prefix_xor(mut x: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16, 32] {
        x ^= x << shift;
    }
    x
}

/// Writes the string of `body` (the bytes between its quotes) quoted and escaped per `mode`
/// (`text` is scratch space); false, with nothing written, when an escape does not decode.
#[inline]
fn string(
    body: &[u8],
    has_escapes: bool,
    mode: EscapeMode,
    text: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> bool {
    if mode == EscapeMode::Minimal {
        // `has_escapes` is true here: a string without one stays in the run.
        return reescape_minimal(body, out, Surrogates::Strict).is_ok();
    }
    let body = if has_escapes {
        text.clear();
        if unescape(body, text, Surrogates::Strict).is_err() {
            return false;
        }
        &text[..]
    } else {
        body
    };
    escape_str(std::str::from_utf8(body).unwrap_or(""), mode, out);
    true
}

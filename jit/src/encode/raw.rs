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
//! are copied whole ([`jitson_kernels::clean_blocks`]).

use jitson_kernels::byte_classes::BLOCK;
use jitson_kernels::clean_blocks::copy_clean_blocks;
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
    // copied at once ([`copy_clean_blocks`]). After a block that does need one, the text is
    // walked token by token for one block, then for twice as many after each further miss
    // in a row (up to `MAX_MISS_SHIFT` doublings): text where most blocks need a change
    // (every block of canada.json holds a fraction) then costs few classifications. The
    // kernel's clean number tokens (integers of at most 18 digits, not `-0`) are a subset of
    // those [`short_integer`] copies.
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
            let taken = copy_clean_blocks(raw, i, out);
            i += taken;
            run = i;
            if taken > 0 {
                misses = 0;
            }
            // The walk stopped before a block that is not clean (or the text's end).
            tokens_until = i + (BLOCK << misses);
            misses = (misses + 1).min(MAX_MISS_SHIFT);
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

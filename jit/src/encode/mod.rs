//! Encode: decoded records back to compact JSON, a walk over the [layout](crate::layout).
//!
//! - objects: the named fields present, in schema order, then the extra members in input
//!   order (keys written as decoded);
//! - arrays: items in order;
//! - strings (and string-enum values): quoted and escaped per [`EscapeMode`];
//! - numbers: `u64` / `i64` with the integer kernels, `f64` with the shortest round-trip
//!   kernel — `serde_json`'s bytes for the same value; a big integer kept by
//!   [`BigInts::Raw`] verbatim;
//! - raw JSON (`any`, `not`, non-string `enum`): rewritten token by token as `serde_json`
//!   writes the value it parses: whitespace dropped, strings unescaped and escaped again per
//!   the mode, numbers read and formatted again — except that with [`BigInts::Raw`] (the
//!   policy the document was read with) integers beyond 64 bits are copied verbatim.
//!
//! The walk follows an [`EncodePlan`] (the [`plan`] module): keys and enumeration values
//! escaped once per layout, records read without a [`Node`](crate::view::Node) per value,
//! open containers on an explicit stack, so depth never reaches the Rust stack.

use jitson_kernels::append::{append_f64, append_i64, append_u64};
use jitson_kernels::escape::{EscapeMode, escape_str};
use jitson_kernels::string_scan::stands_for_itself;

use crate::ir::{BigInts, NumRef, Number};
use crate::layout::{NUM_I64, NUM_RAW, NUM_U64};
use crate::view::{View, read, read_big_int};

pub mod plan;
mod raw;
mod verbatim;

pub use plan::EncodePlan;
pub use raw::write_raw;

/// Appends the compact JSON of `root` to `out`; `big` is the policy the document was read
/// with ([`Decoded::big_ints`](crate::interp::Decoded::big_ints)), for its raw values. It
/// prepares an [`EncodePlan`]'s steps for `root`'s layout on each call: a caller that
/// encodes many documents of one layout keeps an [`EncodePlan`] instead.
pub fn encode(root: View<'_>, mode: EscapeMode, big: BigInts, out: &mut Vec<u8>) {
    plan::encode_once(root, mode, big, out);
}

/// Writes an object key and its colon. Keys are short and rarely need escaping: those that
/// need none in `mode` are copied without a kernel call.
pub(crate) fn key_text(key: &str, mode: EscapeMode, out: &mut Vec<u8>) {
    let plain = |b: u8| stands_for_itself(b) && (b < 0x80 || mode != EscapeMode::Ascii);
    if mode != EscapeMode::Html && key.bytes().all(plain) {
        out.reserve(key.len() + 3);
        out.push(b'"');
        out.extend_from_slice(key.as_bytes());
        out.extend_from_slice(b"\":");
    } else {
        escape_str(key, mode, out);
        out.push(b':');
    }
}

/// Writes a number as `serde_json` does.
#[inline]
pub fn number(n: Number, out: &mut Vec<u8>) {
    match n {
        Number::U64(u) => append_u64(u, out),
        Number::I64(i) => append_i64(i, out),
        Number::F64(f) => append_f64(f, out),
    }
}

/// Writes the number slot at `addr` (layout docs): as [`number`] does, a big integer's
/// text verbatim.
///
/// # Safety
///
/// `addr` is a number slot the decoder wrote, its big integer's text (if any) alive.
pub(crate) unsafe fn number_slot(addr: usize, out: &mut Vec<u8>) {
    // SAFETY: per the caller, a number slot: a tag byte at 0, eight bytes at 8.
    let (tag, bits) = unsafe { (read::<u8>(addr), read::<u64>(addr + 8)) };
    let n = match tag {
        // SAFETY: per the caller, the tag says the slot holds a big integer's text.
        NUM_RAW => return out.extend_from_slice(unsafe { read_big_int(addr) }.as_bytes()),
        NUM_U64 => Number::U64(bits),
        NUM_I64 => Number::I64(bits as i64),
        _ => Number::F64(f64::from_bits(bits)),
    };
    number(n, out);
}

/// Writes a number as [`number`] does, a big integer verbatim.
pub fn num_ref(n: NumRef<'_>, out: &mut Vec<u8>) {
    match n {
        NumRef::Number(n) => number(n, out),
        NumRef::BigInt(b) => out.extend_from_slice(b.as_str().as_bytes()),
    }
}

//! `kernels`: every byte kernel, the dispatched family (AVX2 where the CPU has it) against the
//! scalar twin, on the input placed so that it ends exactly at an inaccessible guard page
//! (any read past the end faults) and on an ordinary heap copy (where AddressSanitizer sees
//! an over-read), at many start offsets; plus each kernel against an independent oracle
//! (`str::parse`, `std::str::from_utf8`, serde_json); and the block kernels of transcode's copy
//! on every 64-byte block.
//!
//! Start offsets: every one for short inputs, otherwise the first sixteen, the end, and the
//! places a kernel is naturally called at (after a quote, at a sign or digit).

use jitson::kernels::byte_classes::{self, BLOCK};
use jitson::kernels::clean_blocks;
use jitson::kernels::escape::{self, EscapeMode, max_escaped_len};
use jitson::kernels::float_format::{MAX_FLOAT_LEN, format_f64};
use jitson::kernels::float_parse::{self, FloatOverflow};
use jitson::kernels::guard::GuardedRegion;
use jitson::kernels::int_format::{self, MAX_INT_LEN};
use jitson::kernels::int_parse;
use jitson::kernels::minify;
use jitson::kernels::number::scan_number;
use jitson::kernels::number_parse::{self, NumberValue};
use jitson::kernels::skip::{self, DEFAULT_MAX_DEPTH};
use jitson::kernels::unescape::{self, Surrogates};
use jitson::kernels::{ErrorKind, KernelError, string_scan, utf8, whitespace};

use super::oracle::{SERDE_DEPTH, guarded, show};

/// Inputs up to this length are checked at every start offset.
const ALL_OFFSETS_UP_TO: usize = 48;

/// At most this many start offsets per input beyond the first sixteen.
const MAX_EXTRA_OFFSETS: usize = 64;

/// The body of the `kernels` target.
pub fn run(data: &[u8]) {
    guarded(data, |placed, output| {
        check_all(placed, output);
        // libFuzzer (and the smoke run) hand over an exactly sized heap buffer.
        check_all(data, output);
    });
    formatting(data);
    blocks(data);
}

/// Every kernel on `buf` (placed at a guard page, or on the heap); output buffers are
/// placed against `output`'s guard page.
fn check_all(buf: &[u8], output: &mut GuardedRegion) {
    for pos in offsets(buf) {
        at_offset(buf, pos, output);
    }
    whole_input(buf, output);
}

/// The start offsets to try on `buf` (each at most `buf.len()`).
fn offsets(buf: &[u8]) -> Vec<usize> {
    if buf.len() <= ALL_OFFSETS_UP_TO {
        return (0..=buf.len()).collect();
    }
    let natural = buf.iter().enumerate().filter_map(|(i, &b)| match b {
        b'"' => Some(i + 1),
        b'-' | b'0'..=b'9' | b'[' | b'{' | b' ' => Some(i),
        _ => None,
    });
    (0..16)
        .chain(natural.take(MAX_EXTRA_OFFSETS))
        .chain([buf.len() - 1, buf.len()])
        .collect()
}

/// Asserts that the dispatched kernel and the scalar twin gave the same answer.
fn twins<T: PartialEq + std::fmt::Debug>(what: &str, buf: &[u8], pos: usize, fast: T, scalar: T) {
    assert!(
        fast == scalar,
        "{what} at {pos} of {}: dispatched {fast:?}, scalar {scalar:?}",
        show(buf)
    );
}

/// The kernels that start at an offset: whitespace, strings, numbers, value skipping.
fn at_offset(buf: &[u8], pos: usize, output: &mut GuardedRegion) {
    twins(
        "skip_whitespace",
        buf,
        pos,
        whitespace::skip_whitespace(buf, pos),
        whitespace::scalar::skip_whitespace(buf, pos),
    );
    let scan = string_scan::scan_string(buf, pos);
    twins(
        "scan_string",
        buf,
        pos,
        scan,
        string_scan::scalar::scan_string(buf, pos),
    );
    if let Ok(found) = scan {
        string_body(
            buf,
            pos,
            &buf[pos..found.end],
            found.first_control.is_none(),
            output,
        );
    }
    numbers_at(buf, pos);
    number_parse_at(buf, pos);
    for depth in [2, DEFAULT_MAX_DEPTH] {
        let checked = skip::skip_value(buf, pos, depth);
        twins(
            "skip_value",
            buf,
            pos,
            checked,
            skip::scalar::skip_value(buf, pos, depth),
        );
        if let Ok(end) = checked {
            assert_eq!(
                skip::skip_value_unchecked(buf, pos),
                Ok(end),
                "unchecked skip of a valid value at {pos} of {}",
                show(buf)
            );
        }
    }
    twins(
        "skip_value_unchecked",
        buf,
        pos,
        skip::skip_value_unchecked(buf, pos),
        skip::scalar::skip_value_unchecked(buf, pos),
    );
}

/// The number kernels at `pos`, against each other and `str::parse`.
fn numbers_at(buf: &[u8], pos: usize) {
    let token = scan_number(buf, pos);
    let text = |end: usize| std::str::from_utf8(&buf[pos..end]).expect("number tokens are ASCII");
    let i64s = int_parse::parse_i64(buf, pos);
    twins(
        "parse_i64",
        buf,
        pos,
        i64s,
        int_parse::scalar::parse_i64(buf, pos),
    );
    if let Ok((v, end)) = i64s {
        assert_eq!(
            text(end).parse::<i64>(),
            Ok(v),
            "parse_i64 at {pos} of {}",
            show(buf)
        );
        assert_eq!(
            token.map(|t| t.end),
            Ok(end),
            "parse_i64 vs scan_number at {pos}"
        );
    }
    if let Err(e) = token {
        assert_eq!(
            i64s,
            Err(e),
            "parse_i64 vs scan_number error at {pos} of {}",
            show(buf)
        );
    }
    let u64s = int_parse::parse_u64(buf, pos);
    twins(
        "parse_u64",
        buf,
        pos,
        u64s,
        int_parse::scalar::parse_u64(buf, pos),
    );
    if let Ok((v, end)) = u64s {
        // `-0` is documented as 0; `str::parse::<u64>` rejects any sign.
        let expected = match text(end) {
            "-0" => Ok(0),
            t => t.parse::<u64>(),
        };
        assert_eq!(expected, Ok(v), "parse_u64 at {pos} of {}", show(buf));
        assert_eq!(
            token.map(|t| t.end),
            Ok(end),
            "parse_u64 vs scan_number at {pos}"
        );
    }
    if let Err(e) = token {
        assert_eq!(
            u64s,
            Err(e),
            "parse_u64 vs scan_number error at {pos} of {}",
            show(buf)
        );
    }
    for overflow in [FloatOverflow::Error, FloatOverflow::Infinity] {
        let fast = float_parse::parse_f64(buf, pos, overflow);
        let scalar = float_parse::scalar::parse_f64(buf, pos, overflow);
        let bits = |r: Result<(f64, usize), _>| r.map(|(v, end)| (v.to_bits(), end));
        twins("parse_f64", buf, pos, bits(fast), bits(scalar));
        if let Ok((v, end)) = fast {
            let expected = text(end).parse::<f64>().expect("a JSON number parses");
            assert_eq!(
                v.to_bits(),
                expected.to_bits(),
                "parse_f64 at {pos} of {}: {v:e} vs str::parse {expected:e}",
                show(buf)
            );
            assert_eq!(
                token.map(|t| t.end),
                Ok(end),
                "parse_f64 vs scan_number at {pos}"
            );
        } else if let Ok(t) = token {
            // Only an out-of-range literal may fail after a valid token.
            assert!(
                overflow == FloatOverflow::Error
                    && text(t.end).parse::<f64>().is_ok_and(f64::is_infinite),
                "parse_f64 rejects the valid token at {pos} of {}: {fast:?}",
                show(buf)
            );
        }
    }
}

/// A one-pass number reading as (variant, value bits, end): floats by their bits, so `-0.0`
/// differs from `0.0`.
type NumberBits = Result<(u8, u64, usize), KernelError>;

/// `r` as [`NumberBits`].
fn number_bits(r: Result<(NumberValue, usize), KernelError>) -> NumberBits {
    r.map(|(v, end)| match v {
        NumberValue::U64(u) => (0, u, end),
        NumberValue::I64(i) => (1, i as u64, end),
        NumberValue::F64(f) => (2, f.to_bits(), end),
        NumberValue::BigInt => (3, 0, end),
    })
}

/// The one-pass number reader at `pos`: its twins agree, and it reads what the two-step
/// reading does (`scan_number`, then the integer parser of the sign's type, a big integer
/// when out of range, or the float parser with infinite overflow).
fn number_parse_at(buf: &[u8], pos: usize) {
    let one_pass = number_bits(number_parse::parse_number(buf, pos));
    let scalar = number_bits(number_parse::scalar::parse_number(buf, pos));
    twins("parse_number", buf, pos, one_pass, scalar);
    let two_step = scan_number(buf, pos).and_then(|token| {
        let integer = match (token.is_integer, token.negative) {
            (false, _) => {
                let (v, end) = float_parse::parse_f64(buf, pos, FloatOverflow::Infinity)?;
                return Ok((NumberValue::F64(v), end));
            }
            (true, true) => int_parse::parse_i64(buf, pos).map(|(v, e)| (NumberValue::I64(v), e)),
            (true, false) => int_parse::parse_u64(buf, pos).map(|(v, e)| (NumberValue::U64(v), e)),
        };
        match integer {
            Err(e) if e.kind == ErrorKind::NumberOutOfRange => Ok((NumberValue::BigInt, token.end)),
            other => other,
        }
    });
    assert_eq!(
        one_pass,
        number_bits(two_step),
        "parse_number vs the two-step reading at {pos} of {}",
        show(buf)
    );
}

/// The unescape kernels on one string body; `clean` when the scan found no raw control
/// byte, in which case a valid body must read as serde_json reads the quoted string.
fn string_body(buf: &[u8], pos: usize, body: &[u8], clean: bool, output: &mut GuardedRegion) {
    let strict = unescape_twins(buf, pos, body, output);
    if !clean || std::str::from_utf8(body).is_err() {
        return;
    }
    let quoted = [b"\"", body, b"\""].concat();
    let theirs = serde_json::from_slice::<String>(&quoted);
    match (strict, theirs) {
        (Ok(ours), Ok(theirs)) => assert!(
            ours == theirs.as_bytes(),
            "unescape of {}: {} vs serde_json {theirs:?}",
            show(body),
            show(&ours)
        ),
        (Err(_), Err(_)) => {}
        (ours, theirs) => panic!(
            "unescape of {}: {ours:?} vs serde_json {theirs:?}",
            show(body)
        ),
    }
}

/// `unescape`, `unescape_into` (into a guarded buffer of exactly `body.len()` bytes) and
/// `validate_escapes` in both surrogate modes, dispatched against scalar; returns the strict
/// result.
fn unescape_twins(
    buf: &[u8],
    pos: usize,
    body: &[u8],
    output: &mut GuardedRegion,
) -> Result<Vec<u8>, jitson::kernels::KernelError> {
    let mut strict = None;
    for mode in [Surrogates::Strict, Surrogates::Lossy] {
        let (mut fast, mut slow) = (b"prefix".to_vec(), b"prefix".to_vec());
        let result = unescape::unescape(body, &mut fast, mode);
        twins(
            "unescape",
            buf,
            pos,
            result,
            unescape::scalar::unescape(body, &mut slow, mode),
        );
        twins("unescape output", buf, pos, &fast, &slow);
        let out = output.tail_mut(body.len());
        let into = unescape::unescape_into(body, out, mode).map(|n| out[..n].to_vec());
        let out = output.tail_mut(body.len());
        let scalar_into =
            unescape::scalar::unescape_into(body, out, mode).map(|n| out[..n].to_vec());
        twins("unescape_into", buf, pos, &into, &scalar_into);
        assert_eq!(
            into.as_deref().map_err(|e| *e),
            result.map(|()| &fast[6..]),
            "unescape_into vs unescape at {pos} of {}",
            show(buf)
        );
        let validated = unescape::validate_escapes(body, mode);
        twins(
            "validate_escapes",
            buf,
            pos,
            validated,
            unescape::scalar::validate_escapes(body, mode),
        );
        assert_eq!(validated, result, "validate_escapes vs unescape at {pos}");
        if mode == Surrogates::Strict {
            strict = Some(into);
        }
    }
    strict.expect("the strict mode ran")
}

/// The kernels that take a whole input: UTF-8, document validation, escaping.
fn whole_input(buf: &[u8], output: &mut GuardedRegion) {
    let utf8 = utf8::validate_utf8(buf);
    twins(
        "validate_utf8",
        buf,
        0,
        utf8,
        utf8::scalar::validate_utf8(buf),
    );
    let std = std::str::from_utf8(buf).map_err(|e| e.valid_up_to());
    assert_eq!(
        utf8.map_err(|e| e.offset),
        std.map(|_| ()),
        "validate_utf8 vs std on {}",
        show(buf)
    );
    for depth in [2, SERDE_DEPTH] {
        let doc = skip::validate_document(buf, depth);
        twins(
            "validate_document",
            buf,
            0,
            doc,
            skip::scalar::validate_document(buf, depth),
        );
        if depth == SERDE_DEPTH {
            let Some(serde) = super::oracle::serde_verdict(buf) else {
                continue;
            };
            let serde = serde.map_err(|e| e.to_string());
            let out_of_range = serde
                .as_ref()
                .is_err_and(|e| e.starts_with("number out of range"));
            assert!(
                doc.is_ok() == serde.is_ok() || (out_of_range && doc.is_ok()),
                "validate_document {doc:?} vs serde_json {serde:?} on {}",
                show(buf)
            );
        }
    }
    // Minify takes any bytes; on a well-formed document its output is one too, with tokens
    // kept apart; and an output that is well-formed with tokens kept apart comes only from
    // a well-formed document (what the engine's verbatim transcode relies on).
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    minify::minify(buf, &mut fast);
    minify::scalar::minify(buf, &mut slow);
    twins("minify", buf, 0, &fast, &slow);
    let (mut checked, mut slow) = (Vec::new(), Vec::new());
    let apart = minify::minify_checked(buf, &mut checked);
    let slow_apart = minify::scalar::minify_checked(buf, &mut slow);
    twins(
        "minify_checked",
        buf,
        0,
        &(&checked, apart),
        &(&slow, slow_apart),
    );
    twins("minify_checked's bytes", buf, 0, &checked, &fast);
    let well_formed = skip::validate_document(buf, SERDE_DEPTH).is_ok();
    let output_well_formed = skip::validate_document(&fast, SERDE_DEPTH).is_ok();
    assert!(
        !well_formed || (output_well_formed && apart),
        "minify of {} gave {} (tokens apart: {apart})",
        show(buf),
        show(&fast)
    );
    assert!(
        well_formed || !(output_well_formed && apart),
        "minify of ill-formed {} gave the well-formed {} with tokens apart",
        show(buf),
        show(&fast)
    );
    // Any bytes are a body: only the twins (and the guard page) have a say here.
    let _strict = unescape_twins(buf, 0, buf, output);
    let text = String::from_utf8_lossy(buf);
    for mode in [EscapeMode::Minimal, EscapeMode::Ascii, EscapeMode::Html] {
        let (mut fast, mut slow) = (b"[".to_vec(), b"[".to_vec());
        escape::escape_str(&text, mode, &mut fast);
        escape::scalar::escape_str(&text, mode, &mut slow);
        twins("escape_str", buf, 0, &fast, &slow);
        let out = output.tail_mut(max_escaped_len(text.len()));
        let n = escape::escape_into(&text, mode, out);
        assert!(
            out[..n] == fast[1..],
            "escape_into vs escape_str ({mode:?}) on {}",
            show(buf)
        );
        let out = output.tail_mut(max_escaped_len(text.len()));
        let n = escape::scalar::escape_into(&text, mode, out);
        assert!(
            out[..n] == fast[1..],
            "scalar escape_into ({mode:?}) on {}",
            show(buf)
        );
        let back = serde_json::from_slice::<String>(&fast[1..]);
        assert!(
            back.as_deref().ok() == Some(&*text),
            "escape_str ({mode:?}) of {} reads back as {back:?}",
            show(buf)
        );
        if mode == EscapeMode::Minimal {
            let theirs = serde_json::to_vec(&*text).expect("a string serializes");
            assert!(
                fast[1..] == theirs,
                "escape_str of {} vs serde_json {}",
                show(buf),
                show(&theirs)
            );
        }
    }
}

/// The formatting kernels on numbers made of the input's first eight bytes.
fn formatting(data: &[u8]) {
    let mut word = [0u8; 8];
    let n = data.len().min(8);
    word[..n].copy_from_slice(&data[..n]);
    let bits = u64::from_le_bytes(word);
    let (mut fast, mut slow) = ([0u8; MAX_INT_LEN], [0u8; MAX_INT_LEN]);
    let len = int_format::format_u64(bits, &mut fast);
    assert_eq!(
        len,
        int_format::scalar::format_u64(bits, &mut slow),
        "format_u64 {bits}"
    );
    assert_eq!(
        &fast[..len],
        bits.to_string().as_bytes(),
        "format_u64 {bits}"
    );
    let signed = bits as i64;
    let len = int_format::format_i64(signed, &mut fast);
    assert_eq!(
        len,
        int_format::scalar::format_i64(signed, &mut slow),
        "format_i64 {signed}"
    );
    assert_eq!(
        &fast[..len],
        signed.to_string().as_bytes(),
        "format_i64 {signed}"
    );
    let float = f64::from_bits(bits);
    let mut out = [0u8; MAX_FLOAT_LEN];
    let len = format_f64(float, &mut out);
    let theirs = serde_json::to_string(&float).expect("an f64 serializes");
    assert_eq!(
        &out[..len],
        theirs.as_bytes(),
        "format_f64 {float:e} vs serde_json"
    );
    if float.is_finite() {
        let text = std::str::from_utf8(&out[..len]).expect("ASCII");
        assert_eq!(
            text.parse::<f64>().map(f64::to_bits),
            Ok(bits),
            "format_f64 {float:e} round trip"
        );
    }
}

/// The block kernels of transcode's copy on every 64-byte block of the input: the classes,
/// and the bytes a mask keeps (the block's non-whitespace bytes, and a mask made of its first
/// eight bytes), dispatched against scalar; the window entry point, where 128 bytes
/// remain, against the block one; and the clean-block walk from there (at most eight blocks).
fn blocks(data: &[u8]) {
    for at in 0..data.len().saturating_sub(BLOCK - 1) {
        let walked = &data[..data.len().min(at + 8 * BLOCK)];
        let (mut fast, mut scalar) = (Vec::new(), Vec::new());
        let taken = clean_blocks::copy_clean_blocks(walked, at, &mut fast);
        let scalar_taken = clean_blocks::scalar::copy_clean_blocks(walked, at, &mut scalar);
        twins(
            "copy_clean_blocks",
            data,
            at,
            (taken, fast),
            (scalar_taken, scalar),
        );
        let block = data[at..]
            .first_chunk::<BLOCK>()
            .expect("a block from `at`");
        let classes = byte_classes::classify(block);
        twins(
            "classify",
            data,
            at,
            classes,
            byte_classes::scalar::classify(block),
        );
        let first_bytes = u64::from_le_bytes(*block.first_chunk::<8>().expect("eight bytes"));
        for keep in [!classes.whitespace, first_bytes] {
            let (mut fast, mut scalar) = (b"[".to_vec(), b"[".to_vec());
            byte_classes::append_kept(block, keep, &mut fast);
            byte_classes::scalar::append_kept(block, keep, &mut scalar);
            twins("append_kept", data, at, &fast, &scalar);
            if let Some(window) = data[at..].first_chunk::<{ 2 * BLOCK }>() {
                let mut ahead = b"[".to_vec();
                byte_classes::append_kept_ahead(window, keep, &mut ahead);
                twins("append_kept_ahead", data, at, &ahead, &scalar);
            }
        }
    }
}

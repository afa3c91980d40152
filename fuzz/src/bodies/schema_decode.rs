//! `schema_decode`: arbitrary bytes against the fixed schemas of [`super::schema_validate`],
//! through every operation and both backends. The interpreter's `validate` is the reference:
//!
//! - native `validate` (Cranelift) gives exactly its result, error included (kind, offset,
//!   path, message); native `decode` gives exactly the interpreter's decode (the same
//!   `serde_json::Value` and encoding, or the same error);
//! - `decode` succeeds exactly when it does, with the same error otherwise; a decoded
//!   document encodes to JSON that validates and decodes to the same value (a fixed point);
//! - native `transcode` (native validate, then the raw rewrite, the minify kernel, or the
//!   walks that write picks, redactions and unknown members) writes exactly the
//!   interpreter's bytes, or gives its error, with tokens rewritten and verbatim, keeping
//!   everything, with picks and a redaction chosen among the input's own paths (unknown
//!   members kept or dropped), or denying unknown members; and again, keeping everything,
//!   behind `SPACING_MIN` spaces (the minify-first order taken for pretty-printed input);
//! - `transcode` succeeds exactly when it does, with the same error otherwise, leaves the
//!   output buffer untouched on error, and transcoding its output gives the same bytes;
//!   with verbatim tokens it writes the minified input; and a redaction that matches
//!   nothing (which walks every value the schema leaves open, token by token) changes no
//!   byte in either token mode.

use std::sync::OnceLock;

use jitson::engine::{
    Backend, BackendStatus, Cache, Options, SPACING_MIN, Tokens, TranscodeOptions, Unknown,
};
use jitson::kernels::minify::minify;
use jitson::{Codec, Error, Schema};

use super::oracle::{SERDE_DEPTH, show};
use super::schema_validate::loaded_schemas;

/// Native codecs of the same schemas (compiled once per process).
fn native_codecs() -> &'static [Codec] {
    static NATIVE: OnceLock<Vec<Codec>> = OnceLock::new();
    NATIVE.get_or_init(|| {
        (loaded_schemas().iter())
            .map(|(name, schema, _)| native_codec(name, schema))
            .collect()
    })
}

/// The native codec of `schema` (named `name`), with serde_json's nesting limit.
pub(crate) fn native_codec(name: &str, schema: &Schema) -> Codec {
    let options = Options::new()
        .max_depth(SERDE_DEPTH as u32)
        .backend(Backend::Native);
    let codec = Codec::with_options(schema, options);
    // Comparing the interpreter with itself would prove nothing.
    let status = codec.backend();
    assert_eq!(status, &BackendStatus::Native, "{name}: {status}");
    codec
}

/// The body of the `schema_decode` target.
pub fn run(data: &[u8]) {
    for ((name, _, interp), native) in loaded_schemas().iter().zip(native_codecs()) {
        if let Err(e) = operations_agree(interp, native, data) {
            panic!("schema {name}, input {}: {e}", show(data));
        }
    }
}

/// The checks of the module documentation for one codec pair and one input (also run by
/// [`super::schema_gen`] on generated schemas).
pub(crate) fn operations_agree(interp: &Codec, native: &Codec, data: &[u8]) -> Result<(), String> {
    let reference = interp.validate(data);
    let got = native.validate(data);
    if got != reference {
        return Err(format!(
            "native validate {got:?}, interpreter {reference:?}"
        ));
    }
    let (got, expected) = (decoded(native, data), decoded(interp, data));
    if got != expected {
        return Err(format!("native decode {got:?}, interpreter {expected:?}"));
    }
    let pointed = pointed_options(data);
    for tokens in [Tokens::Rewritten, Tokens::Verbatim] {
        let everything = TranscodeOptions::new();
        let dropping = pointed.clone().unknown(Unknown::Drop);
        let denying = TranscodeOptions::new().unknown(Unknown::Deny);
        let all = [&everything, &pointed, &dropping, &denying];
        for options in all.map(|o| o.clone().tokens(tokens)) {
            transcodes_agree(interp, native, data, &options)?;
        }
    }
    // Native transcode minifies pretty-printed input before validating it; leading spaces
    // as long as its length threshold send every input down that path, its own whitespace
    // included.
    let spaced = [&[b' '; SPACING_MIN][..], data].concat();
    for tokens in [Tokens::Rewritten, Tokens::Verbatim] {
        let options = TranscodeOptions::new().tokens(tokens);
        transcodes_agree(interp, native, &spaced, &options)?;
    }
    interpreter_operations_agree(interp, data)
}

/// Native transcode of `data` with `options` writes the interpreter's bytes or gives its
/// error.
fn transcodes_agree(
    interp: &Codec,
    native: &Codec,
    data: &[u8],
    options: &TranscodeOptions,
) -> Result<(), String> {
    let (got, expected) = (
        transcoded(native, data, options),
        transcoded(interp, data, options),
    );
    if got != expected {
        return Err(format!(
            "native transcode ({options:?}) {:?}, interpreter {:?}",
            got.map(|out| show(&out)),
            expected.map(|out| show(&out))
        ));
    }
    Ok(())
}

/// Picks and redactions for `data`: paths of its values (when serde_json reads it), chosen
/// by a hash of the bytes, and a pointer that matches nothing. Native code writes these (and
/// drops or denies unknown members) by its walks after native validate; the interpreter by
/// its own transcode.
fn pointed_options(data: &[u8]) -> TranscodeOptions {
    let mut paths = Vec::new();
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
        collect_paths(&value, &mut String::new(), &mut paths);
    }
    let hash = data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    let mut options = TranscodeOptions::new()
        .pick("/no such member")
        .expect("pointer");
    if !paths.is_empty() {
        let at = |k: u64| {
            paths[(hash.rotate_left(k as u32 * 16) % paths.len() as u64) as usize].as_str()
        };
        options = (options.pick(at(0)).and_then(|o| o.pick(at(1))))
            .and_then(|o| o.redact(at(2)))
            .expect("pointers of the value");
    }
    options
}

/// The JSON Pointers of `value` and of every value inside it (at most 256).
fn collect_paths(value: &serde_json::Value, at: &mut String, paths: &mut Vec<String>) {
    if paths.len() >= 256 {
        return;
    }
    paths.push(at.clone());
    let len = at.len();
    let mut child = |token: &str, value: &serde_json::Value, at: &mut String| {
        at.push('/');
        at.push_str(&token.replace('~', "~0").replace('/', "~1"));
        collect_paths(value, at, paths);
        at.truncate(len);
    };
    match value {
        serde_json::Value::Object(members) => {
            for (k, v) in members {
                child(k, v, at);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                child(&i.to_string(), v, at);
            }
        }
        _ => {}
    }
}

/// A codec's decode of `data`: the document as a `serde_json::Value` and as its encoding,
/// or the error.
fn decoded(codec: &Codec, data: &[u8]) -> Result<(serde_json::Value, Vec<u8>), Error> {
    codec.decode(data).map(|doc| {
        let mut out = Vec::new();
        codec.encode(&doc, &mut out);
        (doc.to_serde_json(), out)
    })
}

/// A codec's transcode of `data` with `options`: the bytes written, or the error.
fn transcoded(codec: &Codec, data: &[u8], options: &TranscodeOptions) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    codec.transcode(data, options, &mut out).map(|()| out)
}

/// `decode` and `transcode` against `validate` on the interpreter (also run by
/// `schema_gen` on its random schemas).
pub(crate) fn interpreter_operations_agree(codec: &Codec, data: &[u8]) -> Result<(), String> {
    let mut cache = Cache::new();
    let reference = codec.validate_with(&mut cache, data);
    decode_agrees(codec, &mut cache, data, &reference)?;
    transcode_agrees(codec, &mut cache, data, &reference)
}

fn decode_agrees(
    codec: &Codec,
    cache: &mut Cache,
    data: &[u8],
    reference: &Result<(), Error>,
) -> Result<(), String> {
    let value = match (codec.decode_with(cache, data), reference) {
        (Ok(doc), Ok(())) => doc.to_serde_json(),
        (Err(e), Err(r)) if e == *r => return Ok(()),
        (got, _) => {
            let got = got.map(|d| d.to_serde_json());
            return Err(format!("decode {got:?}, validate {reference:?}"));
        }
    };
    let doc = codec.decode_with(cache, data).map_err(|e| e.to_string())?;
    let mut encoded = Vec::new();
    codec.encode(&doc, &mut encoded);
    let again = codec
        .decode_with(cache, &encoded)
        .map_err(|e| format!("encoded {} does not decode: {e}", show(&encoded)))?;
    if again.to_serde_json() != value {
        return Err(format!(
            "decode → encode → decode changed the value: {}",
            show(&encoded)
        ));
    }
    Ok(())
}

fn transcode_agrees(
    codec: &Codec,
    cache: &mut Cache,
    data: &[u8],
    reference: &Result<(), Error>,
) -> Result<(), String> {
    let options = TranscodeOptions::new();
    let mut out = b"prefix".to_vec();
    let result = codec.transcode_with(cache, data, &options, &mut out);
    match (&result, reference) {
        (Ok(()), Ok(())) => {}
        (Err(e), Err(r)) if e == r => {
            return match out == b"prefix" {
                true => Ok(()),
                false => Err(format!("transcode wrote on error: {}", show(&out))),
            };
        }
        _ => return Err(format!("transcode {result:?}, validate {reference:?}")),
    }
    let first = out[b"prefix".len()..].to_vec();
    let mut second = Vec::new();
    codec
        .transcode_with(cache, &first, &options, &mut second)
        .map_err(|e| format!("transcoded {} does not transcode: {e}", show(&first)))?;
    if second != first {
        return Err(format!(
            "transcode is not idempotent: {} then {}",
            show(&first),
            show(&second)
        ));
    }
    let verbatim = TranscodeOptions::new().tokens(Tokens::Verbatim);
    let mut minified = Vec::new();
    minify(data, &mut minified);
    for (options, expected) in [(&options, &first), (&verbatim, &minified)] {
        writes_exactly(codec, cache, data, options, expected)?;
        // A pointer that matches nothing walks the open values and writes the same bytes.
        let walked = options.clone().redact("/\u{1}/\u{2}").expect("a pointer");
        writes_exactly(codec, cache, data, &walked, expected)?;
    }
    Ok(())
}

/// Transcodes the valid `data` with `options`, expecting exactly `expected`.
fn writes_exactly(
    codec: &Codec,
    cache: &mut Cache,
    data: &[u8],
    options: &TranscodeOptions,
    expected: &[u8],
) -> Result<(), String> {
    let mut out = Vec::new();
    codec
        .transcode_with(cache, data, options, &mut out)
        .map_err(|e| format!("{options:?}: {e}"))?;
    match out == expected {
        true => Ok(()),
        false => Err(format!(
            "{options:?} wrote {}, not {}",
            show(&out),
            show(expected)
        )),
    }
}

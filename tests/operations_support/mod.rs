//! Shared by the tests that run hostile schemas through every operation: what a codec
//! answers, and a check that the interpreter, native code (a lone codec and an engine's
//! tiered one) and the reference validator agree.

#![allow(dead_code)]

use std::time::Duration;

use jitson::engine::{Backend, Engine, EngineOptions, Options, Tiering, TranscodeOptions, Unknown};
use jitson::{Codec, Schema};

/// Every operation of a codec on `input`: validate, collect-all validate, decode then
/// encode, transcode (unknown members dropped, which walks the schema).
pub fn answers(codec: &Codec, input: &[u8]) -> impl PartialEq + std::fmt::Debug {
    let encoded = codec.decode(input).map(|doc| {
        let mut out = Vec::new();
        codec.encode(&doc, &mut out);
        out
    });
    let mut transcoded = Vec::new();
    let options = TranscodeOptions::new().unknown(Unknown::Drop);
    let transcode = codec.transcode(input, &options, &mut transcoded);
    let all = codec.validate_all(input, 10);
    (codec.validate(input), all, encoded, transcode, transcoded)
}

/// Checks `documents` with every operation on the interpreter, on native code (a lone codec
/// and an engine's) and on the reference validator: the same answers. Returns the
/// interpreter's validate result of each.
pub fn agree(schema: &Schema, documents: &[impl AsRef<str>]) -> Vec<Result<(), jitson::Error>> {
    let interp = Codec::new(schema);
    let native = Codec::with_options(schema, Options::new().backend(Backend::Native));
    let engine = Engine::with_options(EngineOptions::new().tiering(Tiering::Eager));
    let tiered = engine.compile(schema);
    tiered.wait_native(Duration::from_secs(120));
    // Writing the program walks every function: it must not overflow on deep schemas.
    assert!(!interp.program().to_string().is_empty());
    let mut verdicts = Vec::new();
    for document in documents.iter().map(AsRef::as_ref) {
        let value: serde_json::Value = serde_json::from_str(document).unwrap();
        let reference = schema.validate_value(&value).is_ok();
        let expected = answers(&interp, document.as_bytes());
        let got = interp.validate(document.as_bytes());
        assert_eq!(got.is_ok(), reference, "{document}: {got:?}");
        let bytes = document.as_bytes();
        assert_eq!(answers(&native, bytes), expected, "{document}");
        assert_eq!(answers(&tiered, bytes), expected, "{document}");
        verdicts.push(got);
    }
    verdicts
}

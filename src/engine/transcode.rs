//! Options of [`Codec::transcode`](super::Codec::transcode): unknown members, pick and
//! redaction lists, and how tokens are written.

use jitson_jit::interp::{MAX_POINTERS, TranscodeSpec};

pub use jitson_jit::interp::{Tokens, Unknown};

use crate::document::PathError;
use crate::json_pointer::tokens;

/// What a transcode writes (see [`Codec::transcode`](super::Codec::transcode)).
///
/// ```
/// use jitson::{Codec, Schema};
/// use jitson::engine::{TranscodeOptions, Unknown};
///
/// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {"id": {"type": "integer"}, "pw": {"type": "string"}}}"#).unwrap();
/// let options = TranscodeOptions::new().unknown(Unknown::Drop).redact("/pw").unwrap();
/// let mut out = Vec::new();
/// Codec::new(&schema).transcode(br#"{"id": 1, "pw": "secret", "x": [1]}"#, &options, &mut out).unwrap();
/// assert_eq!(out, br#"{"id":1,"pw":null}"#);
/// ```
#[derive(Clone, Debug, Default)]
pub struct TranscodeOptions {
    pub(super) spec: TranscodeSpec,
}

impl TranscodeOptions {
    /// Everything kept, redactions written as `null`.
    pub fn new() -> TranscodeOptions {
        TranscodeOptions {
            spec: TranscodeSpec {
                replacement: b"null".to_vec(),
                ..TranscodeSpec::default()
            },
        }
    }

    /// What happens to members the schema does not name where it allows any value (default
    /// [`Unknown::Keep`]).
    pub fn unknown(mut self, policy: Unknown) -> TranscodeOptions {
        self.spec.unknown = policy;
        self
    }

    /// How kept strings, numbers and keys are written (default [`Tokens::Rewritten`]: as
    /// `serde_json` writes the value). [`Tokens::Verbatim`] makes transcode a validating
    /// minifier: every token as the input has it, only whitespace between tokens dropped, so
    /// numbers keep every digit and strings their escapes.
    ///
    /// ```
    /// use jitson::{Codec, Schema};
    /// use jitson::engine::{Tokens, TranscodeOptions};
    ///
    /// let schema = Schema::from_json_str(r#"{"type": "array", "items": {"type": "number"}}"#).unwrap();
    /// let input = b"[ 1.50, 0.30000000000000000001, 1E2 ]";
    /// let codec = Codec::new(&schema);
    /// let mut out = Vec::new();
    /// codec.transcode(input, &TranscodeOptions::new(), &mut out).unwrap();
    /// assert_eq!(out, b"[1.5,0.3,100.0]");
    /// out.clear();
    /// codec.transcode(input, &TranscodeOptions::new().tokens(Tokens::Verbatim), &mut out).unwrap();
    /// assert_eq!(out, b"[1.50,0.30000000000000000001,1E2]");
    /// ```
    pub fn tokens(mut self, tokens: Tokens) -> TranscodeOptions {
        self.spec.tokens = tokens;
        self
    }

    /// Keeps the value at this JSON Pointer (and its ancestors); once any pick is given,
    /// values no pick reaches are left out. At most 64 picks.
    pub fn pick(mut self, pointer: &str) -> Result<TranscodeOptions, PathError> {
        let list = parse(pointer, self.spec.pick.len())?;
        self.spec.pick.push(list);
        Ok(self)
    }

    /// Writes the replacement instead of the value at this JSON Pointer (the value is still
    /// validated). At most 64 redactions.
    pub fn redact(mut self, pointer: &str) -> Result<TranscodeOptions, PathError> {
        let list = parse(pointer, self.spec.redact.len())?;
        self.spec.redact.push(list);
        Ok(self)
    }

    /// The value written for redacted values (default `null`).
    pub fn replacement(mut self, value: &serde_json::Value) -> TranscodeOptions {
        self.spec.replacement = value.to_string().into_bytes();
        self
    }
}

/// A pointer's tokens, if it is one and the list has room.
fn parse(pointer: &str, listed: usize) -> Result<Vec<Box<str>>, PathError> {
    if listed >= MAX_POINTERS {
        return Err(PathError::TooMany { max: MAX_POINTERS });
    }
    let tokens = tokens(pointer).ok_or_else(|| PathError::Syntax {
        pointer: pointer.to_owned(),
    })?;
    Ok(tokens.into_iter().map(String::into_boxed_str).collect())
}

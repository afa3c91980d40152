//! Codec errors: the interpreter's compact [`Failure`] made readable (line, column, `$.a[3].b`
//! path, schema keyword).

use std::fmt;

use jitson_jit::ir::{FailKind, Failure, Kinds, PathSeg, Program, Violation};
use jitson_kernels::unescape::{Surrogates, unescape};

use crate::path::Path;
use crate::position::Position;

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CodecErrorKind {
    /// The input is not well-formed JSON; the kernel's kind.
    Syntax(jitson_kernels::ErrorKind),
    /// Containers nested deeper than the configured limit.
    DepthLimitExceeded,
    /// A number beyond `f64`, or an integer beyond 64 bits when those are errors.
    NumberOutOfRange,
    /// A named field repeated while duplicates are denied.
    DuplicateKey,
    /// Well-formed JSON that the schema rejects.
    Schema(Violation),
}

/// A failure with its kind, where it happened, and (for schema failures) the keyword.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodecError {
    kind: CodecErrorKind,
    offset: usize,
    position: Position,
    path: Path,
    message: String,
}

impl CodecError {
    pub(crate) fn from_failure(program: &Program, input: &[u8], f: Failure) -> CodecError {
        let kind = match f.kind {
            FailKind::Syntax(k) => CodecErrorKind::Syntax(k),
            FailKind::DepthLimitExceeded => CodecErrorKind::DepthLimitExceeded,
            FailKind::NumberOutOfRange => CodecErrorKind::NumberOutOfRange,
            FailKind::DuplicateKey => CodecErrorKind::DuplicateKey,
            FailKind::Violation(v) => CodecErrorKind::Schema(v),
        };
        CodecError {
            kind,
            offset: f.offset,
            position: Position::of(input, f.offset),
            path: readable_path(program, input, &f.path),
            message: message(program, input, f.kind, f.offset),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> CodecErrorKind {
        self.kind
    }

    /// Byte offset of the offending value or byte (the input's length when it ended early).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Line and column of the offset.
    pub fn position(&self) -> Position {
        self.position
    }

    /// Where the failing value sits.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The message (without position or path).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The JSON Schema keyword that failed, for schema failures.
    pub fn keyword(&self) -> Option<&'static str> {
        match self.kind {
            CodecErrorKind::Schema(v) => Some(keyword(v)),
            _ => None,
        }
    }

    /// True for schema failures (the input is well-formed JSON as far as it was read).
    pub fn is_schema(&self) -> bool {
        matches!(self.kind, CodecErrorKind::Schema(_))
    }
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at {}, path {}",
            self.message, self.position, self.path
        )?;
        if let Some(keyword) = self.keyword() {
            write!(f, ", keyword {keyword}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CodecError {}

/// The JSON Schema keyword behind a violation.
fn keyword(v: Violation) -> &'static str {
    match v {
        Violation::Type { .. } => "type",
        Violation::Minimum => "minimum",
        Violation::Maximum => "maximum",
        Violation::MultipleOf => "multipleOf",
        Violation::MinLength => "minLength",
        Violation::MaxLength => "maxLength",
        Violation::Pattern => "pattern",
        Violation::MinItems => "minItems",
        Violation::MaxItems => "maxItems",
        Violation::Required { .. } => "required",
        Violation::UnknownField => "additionalProperties",
        Violation::Enum => "enum",
        Violation::AnyOf => "anyOf",
        Violation::OneOf { .. } => "oneOf",
        Violation::Not => "not",
        Violation::Never => "false",
    }
}

/// The kind of the value starting at `offset`, for type errors.
fn found_kind(input: &[u8], offset: usize) -> &'static str {
    match input.get(offset) {
        Some(b'n') => "null",
        Some(b't' | b'f') => "boolean",
        Some(b'"') => "string",
        Some(b'[') => "array",
        Some(b'{') => "object",
        _ => "number",
    }
}

fn message(program: &Program, input: &[u8], kind: FailKind, offset: usize) -> String {
    let v = match kind {
        FailKind::Syntax(k) => return k.message().to_owned(),
        FailKind::DepthLimitExceeded => return "recursion limit exceeded".to_owned(),
        FailKind::NumberOutOfRange => return "number out of range".to_owned(),
        FailKind::DuplicateKey => return "duplicate key".to_owned(),
        FailKind::Violation(v) => v,
    };
    match v {
        Violation::Type { expected } if expected == Kinds::INTEGER => {
            format!("expected integer, found {}", found_kind(input, offset))
        }
        Violation::Type { expected } => {
            format!("expected {expected}, found {}", found_kind(input, offset))
        }
        Violation::Minimum => "number below the minimum".to_owned(),
        Violation::Maximum => "number above the maximum".to_owned(),
        Violation::MultipleOf => "number is not a multiple of multipleOf".to_owned(),
        Violation::MinLength => "string shorter than minLength".to_owned(),
        Violation::MaxLength => "string longer than maxLength".to_owned(),
        Violation::Pattern => "string does not match the pattern".to_owned(),
        Violation::MinItems => "array has fewer items than minItems".to_owned(),
        Violation::MaxItems => "array has more items than maxItems".to_owned(),
        Violation::Required { table, field } => {
            let name = &program.key_tables[table as usize].names()[field as usize];
            format!("missing required field {name:?}")
        }
        Violation::UnknownField => "unknown field".to_owned(),
        Violation::Enum => "value is not one of the allowed values".to_owned(),
        Violation::AnyOf => "value matches no branch of anyOf".to_owned(),
        Violation::OneOf { matched } => {
            format!("value matches {matched} branches of oneOf, not exactly one")
        }
        Violation::Not => "value matches the schema of not".to_owned(),
        Violation::Never => "no value is allowed here".to_owned(),
    }
}

/// The interpreter's path (field indices, key spans, indices) as a [`Path`].
fn readable_path(program: &Program, input: &[u8], segs: &[PathSeg]) -> Path {
    let mut path = Path::root();
    for seg in segs {
        match *seg {
            PathSeg::Index(i) => path.push_index(i as usize),
            PathSeg::Field { table, field } => {
                path.push_key(&program.key_tables[table as usize].names()[field as usize]);
            }
            PathSeg::Key { start, end } => {
                let mut key = Vec::new();
                let body = &input[start..end];
                if unescape(body, &mut key, Surrogates::Lossy).is_err() {
                    key = body.to_vec();
                }
                path.push_key(&String::from_utf8_lossy(&key));
            }
        }
    }
    path
}

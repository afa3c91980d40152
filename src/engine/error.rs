//! Codec failures made readable: the interpreter's compact [`Failure`] (kind, offset, path of
//! field indices and key spans) becomes a [`crate::Error`] with line, column, `$.a[3].b`
//! path, message, and for schema failures the keyword and its pointer in the schema. All of
//! this runs only on failure.

use std::borrow::Cow;
use std::cell::OnceCell;

use jitson_jit::ir::{BigInts, ExecOptions, FailKind, Failure, Kinds, PathSeg, Program, Violation};
use jitson_kernels::unescape::{Surrogates, unescape};

use super::pointer::{Failed, Noted, locate};
use crate::error::{Error, ErrorKind, Keyword};
use crate::path::Path;
use crate::schema::Schema;
use crate::value::{self, BigNumbers, Bump, ParseOptions};

/// What a codec run needs to explain its failures.
pub(crate) struct Context<'a> {
    /// The schema the program was compiled from (for keyword pointers).
    pub schema: &'a Schema,
    /// The program (for field names).
    pub program: &'a Program,
    /// The options the run had (the value parser reads input again with the same ones).
    pub exec: ExecOptions,
    /// The input as a `serde_json` value (`None` inside: it did not parse), read when a
    /// violation's keyword lies below an `if`: once for all the errors of a run.
    pub document: OnceCell<Option<serde_json::Value>>,
}

impl Context<'_> {
    /// The error `failure` describes in `input`.
    pub(crate) fn error(&self, input: &[u8], failure: Failure) -> Error {
        let path = readable_path(self.program, input, &failure.path);
        let offset = failure.offset;
        let kind = match failure.kind {
            FailKind::Violation(v) => return self.violation(input, v, offset, path),
            FailKind::Syntax(k) => {
                let in_array = matches!(failure.path.last(), Some(PathSeg::Index(_)));
                ErrorKind::from_kernel(k, in_array)
            }
            FailKind::DepthLimitExceeded => ErrorKind::DepthLimitExceeded,
            FailKind::NumberOutOfRange => ErrorKind::NumberOutOfRange,
            FailKind::DuplicateKey => ErrorKind::DuplicateKey,
        };
        match self.reread(input, kind, offset) {
            Some(e) => e,
            None => Error::new(kind, input, offset, path),
        }
    }

    /// A fatal error as the value parser names it. The parser knows the context the
    /// interpreter does not keep (inside a string, an array or an object: `"EOF while parsing
    /// a list"`, the member a key error belongs to) and names the byte serde_json names (the
    /// interpreter may name a neighbour: the backslash of a bad escape, where serde_json
    /// names the byte after it). Both read the document in order and validate all they read,
    /// so they stop at the same first syntax error; a depth or number error must be at the
    /// same offset. Reading again costs one parse, and happens only on failure.
    fn reread(&self, input: &[u8], kind: ErrorKind, offset: usize) -> Option<Error> {
        if kind == ErrorKind::DuplicateKey {
            // The interpreter denies repeats of named fields only: not the parser's rule.
            return None;
        }
        let big_numbers = match self.exec.big_ints {
            // The parser's `Raw` also keeps floats beyond `f64`; the codec's does not.
            BigInts::F64 | BigInts::Raw => BigNumbers::Float,
            BigInts::Error => BigNumbers::Error,
        };
        let options = ParseOptions::new()
            .max_depth(self.exec.max_depth as usize)
            .big_numbers(big_numbers);
        let e = value::parse_with(input, &Bump::new(), &options).err()?;
        let same = match (e.kind(), kind) {
            (ErrorKind::Syntax(_), ErrorKind::Syntax(_)) => true,
            (theirs, ours) => theirs == ours && e.offset() == offset,
        };
        same.then_some(e)
    }

    /// The name of field `field` of key table `table`.
    fn field_name(&self, table: u32, field: u32) -> &str {
        &self.program.key_tables[table as usize].names()[field as usize]
    }

    /// A schema violation: its keyword located in the schema, and its message.
    fn violation(&self, input: &[u8], v: Violation, offset: usize, path: Path) -> Error {
        let missing = match v {
            Violation::Required { table, field } => Some(self.field_name(table, field)),
            _ => None,
        };
        let failed = Failed {
            bytes: input,
            parsed: &self.document,
        };
        let located = locate(self.schema, failed, path.segments(), v, missing);
        let keyword = located.as_ref().map_or(Keyword::of(v), |l| l.keyword);
        let noted = located.as_ref().map(|l| l.noted).unwrap_or_default();
        let message = Cow::Owned(self.message(input, v, keyword, noted, offset));
        let error = Error::with_message(ErrorKind::Schema(keyword), input, offset, path, message);
        match located {
            Some(l) => error.with_schema_pointer(l.pointer),
            None => error,
        }
    }

    /// The message of violation `v` of `keyword` by the value at `offset` (`noted`: what the
    /// walk learned of the node that holds the keyword).
    fn message(
        &self,
        input: &[u8],
        v: Violation,
        keyword: Keyword,
        noted: Noted,
        offset: usize,
    ) -> String {
        match v {
            Violation::Type { expected } => {
                let expected = match noted.nullable {
                    true => expected.or(Kinds::NULL),
                    false => expected,
                };
                format!("expected {expected}, found {}", found_kind(input, offset))
            }
            Violation::Minimum if keyword == Keyword::ExclusiveMinimum => {
                "number not above the exclusive minimum".to_owned()
            }
            Violation::Maximum if keyword == Keyword::ExclusiveMaximum => {
                "number not below the exclusive maximum".to_owned()
            }
            Violation::Minimum => "number below the minimum".to_owned(),
            Violation::Maximum => "number above the maximum".to_owned(),
            Violation::MultipleOf => "number is not a multiple of multipleOf".to_owned(),
            Violation::MinLength => "string shorter than minLength".to_owned(),
            Violation::MaxLength => "string longer than maxLength".to_owned(),
            Violation::Pattern => "string does not match the pattern".to_owned(),
            Violation::Format => match noted.format {
                Some(format) => format!("string is not a valid {format}"),
                None => "string does not have the format the schema asserts".to_owned(),
            },
            Violation::MinItems => "array has fewer items than minItems".to_owned(),
            Violation::MaxItems => "array has more items than maxItems".to_owned(),
            Violation::UniqueItems => "array has equal items, which uniqueItems forbids".to_owned(),
            Violation::MinProperties => "object has fewer members than minProperties".to_owned(),
            Violation::MaxProperties => "object has more members than maxProperties".to_owned(),
            Violation::DependentRequired => {
                "object lacks a member that dependentRequired asks for".to_owned()
            }
            Violation::MinContains if keyword == Keyword::Contains => {
                "array has no item that matches contains".to_owned()
            }
            Violation::MinContains => {
                "array has fewer items matching contains than minContains".to_owned()
            }
            Violation::MaxContains => {
                "array has more items matching contains than maxContains".to_owned()
            }
            Violation::PropertyNames => {
                "object has a member name that propertyNames rejects".to_owned()
            }
            Violation::Required { table, field } => {
                format!("missing required field {:?}", self.field_name(table, field))
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

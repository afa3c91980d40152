//! JSON paths: where in a document a value sits, for error messages.
//!
//! A [`Path`] is a list of [`Segment`]s from the root. Its text form is JSONPath's
//! normalized notation, shortened where it stays unambiguous:
//!
//! - `$` is the root value;
//! - `.name` is the member `name` of an object, when `name` is an identifier: an ASCII
//!   letter or `_` followed by ASCII letters, digits or `_` (`$.statuses`);
//! - `["…"]` is any other member, the key written as a JSON string (`$["a b"]`,
//!   `$["x.y"]`, `$[""]`, `$["caf\u00e9"]` is written `$["café"]`: only what JSON requires is
//!   escaped);
//! - `[n]` is the element at index `n` (from 0) of an array (`$.statuses[3].user.id`).
//!
//! [`Path::to_json_pointer`] gives the same location as an RFC 6901 JSON Pointer.

use std::fmt;

use jitson_kernels::escape::{EscapeMode, escape_str};

use crate::json_pointer;

/// One step of a [`Path`]: an object member or an array element.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// The member of an object with this key.
    Key(Box<str>),
    /// The element of an array at this index (from 0).
    Index(usize),
}

/// A location in a JSON document, from the root (see the [module documentation](self)).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Path {
    segments: Vec<Segment>,
}

impl Path {
    /// The root value, `$`.
    pub fn root() -> Path {
        Path::default()
    }

    /// The steps from the root, outermost first.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// True for the root path `$`.
    pub fn is_root(&self) -> bool {
        self.segments.is_empty()
    }

    /// Appends the member `key`.
    pub fn push_key(&mut self, key: &str) {
        self.segments.push(Segment::Key(key.into()));
    }

    /// Appends the element at `index`.
    pub fn push_index(&mut self, index: usize) {
        self.segments.push(Segment::Index(index));
    }

    /// The same location as an RFC 6901 JSON Pointer (`""` for the root, `/statuses/3`).
    pub fn to_json_pointer(&self) -> String {
        let mut out = String::new();
        for segment in &self.segments {
            out.push('/');
            match segment {
                Segment::Key(key) => out.push_str(&json_pointer::escape(key)),
                Segment::Index(index) => out.push_str(&index.to_string()),
            }
        }
        out
    }
}

impl FromIterator<Segment> for Path {
    fn from_iter<I: IntoIterator<Item = Segment>>(iter: I) -> Path {
        Path {
            segments: iter.into_iter().collect(),
        }
    }
}

/// True when `key` can be written after a dot: an ASCII identifier.
fn is_identifier(key: &str) -> bool {
    let mut bytes = key.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for segment in &self.segments {
            match segment {
                Segment::Key(key) if is_identifier(key) => write!(f, ".{key}")?,
                Segment::Key(key) => {
                    let mut quoted = Vec::with_capacity(key.len() + 2);
                    escape_str(key, EscapeMode::Minimal, &mut quoted);
                    write!(f, "[{}]", String::from_utf8_lossy(&quoted))?;
                }
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

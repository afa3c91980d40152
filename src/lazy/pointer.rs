//! Paths into a raw document: RFC 6901 JSON Pointers, or lists of keys and indices.
//!
//! A [`Pointer`] is a list of [`Step`]s from the root. Parsed from JSON Pointer text, each
//! reference token is a [`Step::Token`]: it names the member with that key in an object, and
//! in an array the element at that index when the token is one (`0`, or digits without a
//! leading zero: `01`, `-` and `+1` are never indices). Built by hand, a step can be a key
//! only ([`Step::Key`]) or an index only ([`Step::Index`]), like the segments of a
//! [`crate::Path`].

use std::borrow::Cow;
use std::fmt;

use crate::json_pointer;
use crate::path::{Path, Segment};

/// One step of a [`Pointer`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step<'p> {
    /// The member of an object with this key (never an array element).
    Key(Cow<'p, str>),
    /// The element of an array at this index (never an object member).
    Index(usize),
    /// A JSON Pointer reference token: the member with this key in an object, and in an
    /// array the element at `index` when the token is an array index.
    Token {
        /// The unescaped token (`~1` read as `/`, `~0` as `~`).
        key: Cow<'p, str>,
        /// The token as an array index, when it is one.
        index: Option<usize>,
    },
}

impl Step<'_> {
    /// The key this step names in an object, if it can name one.
    pub fn key(&self) -> Option<&str> {
        match self {
            Step::Key(key) | Step::Token { key, .. } => Some(key),
            Step::Index(_) => None,
        }
    }

    /// The index this step names in an array, if it can name one.
    pub fn index(&self) -> Option<usize> {
        match *self {
            Step::Index(index) => Some(index),
            Step::Token { index, .. } => index,
            Step::Key(_) => None,
        }
    }

    /// True for the JSON Pointer token `-`, which names the position after an array's last
    /// element (where [`super::insert`] appends).
    pub fn is_end_of_array(&self) -> bool {
        matches!(self, Step::Token { key, .. } if key == "-")
    }
}

/// A path into a document: the steps from the root. Parsed from RFC 6901 text each token
/// is a [`Step::Token`] (a key in objects, an index in arrays when it is one); built with
/// [`Pointer::key`] and [`Pointer::index`] each step is one or the other.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pointer<'p> {
    steps: Vec<Step<'p>>,
}

/// Why a text is not a JSON Pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointerError {
    /// A non-empty pointer must start with `/`.
    MissingLeadingSlash,
    /// A `~` not followed by `0` or `1`; the byte offset of the `~` in the text.
    InvalidEscape(usize),
}

impl fmt::Display for PointerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointerError::MissingLeadingSlash => {
                f.write_str("a JSON Pointer must be empty or start with `/`")
            }
            PointerError::InvalidEscape(at) => {
                write!(f, "`~` not followed by `0` or `1` at byte {at}")
            }
        }
    }
}

impl std::error::Error for PointerError {}

impl<'p> Pointer<'p> {
    /// The root: the whole document.
    pub fn root() -> Pointer<'static> {
        Pointer { steps: Vec::new() }
    }

    /// Parses RFC 6901 text: `""` is the root, `"/a/0"` the member `a`, then its member or
    /// element `0`.
    pub fn parse(text: &'p str) -> Result<Pointer<'p>, PointerError> {
        let tokens = json_pointer::raw_tokens(text).ok_or(PointerError::MissingLeadingSlash)?;
        let mut steps = Vec::new();
        let mut at = 1;
        for token in tokens {
            let key = json_pointer::unescape(token).ok_or_else(|| {
                let tilde = token.find('~').unwrap_or(0);
                PointerError::InvalidEscape(at + tilde)
            })?;
            steps.push(Step::Token {
                index: json_pointer::index(token),
                key,
            });
            at += token.len() + 1;
        }
        Ok(Pointer { steps })
    }

    /// A pointer of the given steps.
    pub fn from_steps(steps: Vec<Step<'p>>) -> Pointer<'p> {
        Pointer { steps }
    }

    /// This pointer extended by the member `key` (objects only).
    pub fn key(mut self, key: impl Into<Cow<'p, str>>) -> Pointer<'p> {
        self.steps.push(Step::Key(key.into()));
        self
    }

    /// This pointer extended by the element `index` (arrays only).
    pub fn index(mut self, index: usize) -> Pointer<'p> {
        self.steps.push(Step::Index(index));
        self
    }

    /// The steps from the root.
    pub fn steps(&self) -> &[Step<'p>] {
        &self.steps
    }

    /// True for the root pointer.
    pub fn is_root(&self) -> bool {
        self.steps.is_empty()
    }
}

impl<'p> From<&'p Path> for Pointer<'p> {
    /// The steps of `path`: its keys as [`Step::Key`], its indices as [`Step::Index`].
    fn from(path: &'p Path) -> Pointer<'p> {
        let steps = path
            .segments()
            .iter()
            .map(|segment| match segment {
                Segment::Key(key) => Step::Key(Cow::Borrowed(&**key)),
                Segment::Index(index) => Step::Index(*index),
            })
            .collect();
        Pointer { steps }
    }
}

/// RFC 6901 text (a [`Step::Index`] is written as its digits).
impl fmt::Display for Pointer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.steps {
            f.write_str("/")?;
            match step {
                Step::Key(key) | Step::Token { key, .. } => {
                    f.write_str(&json_pointer::escape(key))?;
                }
                Step::Index(index) => write!(f, "{index}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_unescape_and_indices_are_strict() {
        let p = Pointer::parse("/a~1b/~0/0/01/-/").unwrap();
        let keys: Vec<_> = p.steps().iter().map(|s| s.key().unwrap()).collect();
        assert_eq!(keys, ["a/b", "~", "0", "01", "-", ""]);
        let indices: Vec<_> = p.steps().iter().map(Step::index).collect();
        assert_eq!(indices, [None, None, Some(0), None, None, None]);
        assert!(p.steps()[4].is_end_of_array());
        assert_eq!(p.to_string(), "/a~1b/~0/0/01/-/");
    }

    #[test]
    fn malformed_pointers_are_typed_errors() {
        assert!(Pointer::parse("").unwrap().is_root());
        assert_eq!(Pointer::parse("a"), Err(PointerError::MissingLeadingSlash));
        assert_eq!(
            Pointer::parse("/ab/c~2"),
            Err(PointerError::InvalidEscape(5))
        );
    }

    #[test]
    fn built_steps_are_key_or_index_only() {
        let p = Pointer::root().key("0").index(3);
        assert_eq!(p.steps()[0].index(), None);
        assert_eq!(p.steps()[1].key(), None);
        let mut path = Path::root();
        path.push_key("a");
        path.push_index(2);
        assert_eq!(Pointer::from(&path), Pointer::root().key("a").index(2));
    }
}

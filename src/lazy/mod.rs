//! Lazy access to raw JSON without a schema: get, get many, set, insert, remove and iterate
//! by path, parsing only what the path goes through.
//!
//! ```
//! use jitson::lazy::{self, Pointer};
//!
//! let body = br#"{"tenant": "acme", "user": {"id": 7, "name": "Ada"}, "items": [1, 2, 3]}"#;
//! let name = lazy::get(body, &Pointer::parse("/user/name").unwrap())?.unwrap();
//! assert_eq!(name.raw(), br#""Ada""#);
//! assert_eq!(name.as_str().as_deref(), Some("Ada"));
//!
//! let paths = [Pointer::parse("/tenant").unwrap(), Pointer::parse("/items/9").unwrap()];
//! let found = lazy::get_many(body, &paths)?;
//! assert_eq!(found[0].map(|v| v.raw()), Some(&br#""acme""#[..]));
//! assert!(found[1].is_none());
//!
//! let edited = lazy::set(body, &Pointer::parse("/user/id").unwrap(), b"8")?.unwrap();
//! assert_eq!(edited, br#"{"tenant": "acme", "user": {"id": 8, "name": "Ada"}, "items": [1, 2, 3]}"#);
//! # Ok::<(), jitson::Error>(())
//! ```
//!
//! # What is read
//!
//! A path is a [`Pointer`]: RFC 6901 text, or steps built from keys and indices. Values
//! before the target are skipped with the skip kernels; nothing after the target is looked
//! at. An object member is found by its first occurrence (serde_json keeps the last one of a
//! repeated key); keys compare without allocating unless they hold escapes (`"a\u0062"` is
//! the key `ab`).
//!
//! - [`Mode::Checked`] (the default) validates everything it skips, the structure it walks
//!   through, and the target value, as RFC 8259 requires (UTF-8 and escapes included), with
//!   the nesting limit of [`Options::max_depth`]. What lies after the target is not read, so
//!   a document damaged only there still answers. An absent path is answered only after the
//!   container it was looked for in (or the value it stopped at) was validated.
//! - [`Mode::Unchecked`] only balances brackets (and reads the keys along the path), for
//!   trusted input. It never panics or reads out of bounds; on malformed input it may answer
//!   something, or fail.
//!
//! Errors are [`crate::Error`]s with the offset, line, column and JSON path of the first
//! problem in the document.
//!
//! # Edits
//!
//! [`set`], [`insert`] and [`remove`] return a new document built by splicing raw slices
//! around the target: untouched parts are copied, not parsed or re-encoded. They follow
//! JSON Patch (RFC 6902): `set` replaces an existing value (`replace`), `insert` adds a
//! member (replacing an existing one) or inserts an array element at an index up to the
//! length, `-` appending (`add`), `remove` deletes a member or element. They answer `None`
//! when the path names nothing to change. The result is valid JSON whenever the input was;
//! in checked mode the new value is validated first (its errors carry offsets into it).
//!
//! # Many paths
//!
//! [`get_many`] reads paths known together in one traversal. [`Document`] keeps a node cache
//! (after sonic-ast's) for gets that come one at a time: each reuses the skips of the ones
//! before it.

mod cursor;
mod document;
mod edit;
mod error;
mod get;
mod iter;
mod many;
mod pointer;
mod value;

pub use document::Document;
pub use iter::{ArrayIter, ObjectIter};
pub use pointer::{Pointer, PointerError, Step};
pub use value::{Kind, LazyValue};

use cursor::Walker;
use error::document_error;

use crate::error::Error;

/// How much of the input a lazy operation checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Validate everything skipped, the path's structure and the target.
    #[default]
    Checked,
    /// Balance brackets only (trusted input); never unsafe, but malformed input may answer.
    Unchecked,
}

/// How lazy operations read a document: the [`Mode`] and the nesting limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    mode: Mode,
    max_depth: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options::new()
    }
}

impl Options {
    /// Checked mode, nesting limit [`crate::value::DEFAULT_MAX_DEPTH`].
    pub const fn new() -> Options {
        Options {
            mode: Mode::Checked,
            max_depth: crate::value::DEFAULT_MAX_DEPTH,
        }
    }

    /// The mode.
    pub const fn mode(mut self, mode: Mode) -> Options {
        self.mode = mode;
        self
    }

    /// The most containers a value may be nested in, itself included (as
    /// [`crate::value::ParseOptions::max_depth`]). Unchecked mode applies it to the
    /// containers along the path only.
    pub const fn max_depth(mut self, limit: usize) -> Options {
        self.max_depth = limit;
        self
    }

    /// See [`Options::mode`].
    pub const fn get_mode(&self) -> Mode {
        self.mode
    }

    /// See [`Options::max_depth`].
    pub const fn get_max_depth(&self) -> usize {
        self.max_depth
    }

    /// The walker over `json` with these options.
    fn walker<'a>(&self, json: &'a [u8]) -> Walker<'a> {
        Walker {
            buf: json,
            mode: self.mode,
            max_depth: self.max_depth,
        }
    }

    /// The value `path` names in `json`, or `None` when it is absent.
    pub fn get<'a>(
        &self,
        json: &'a [u8],
        path: &Pointer<'_>,
    ) -> Result<Option<LazyValue<'a>>, Error> {
        let walker = self.walker(json);
        let found = walker.locate(path.steps()).and_then(|start| match start {
            Some(start) => Ok(Some((start, walker.skip(start, path.steps().len())?))),
            None => Ok(None),
        });
        match found {
            Ok(found) => Ok(found.map(|(start, end)| LazyValue::new(json, start, end, *self))),
            Err(e) => Err(document_error(json, e, self.max_depth)),
        }
    }

    /// The values `paths` name in `json`, in the order of `paths`, read in one traversal
    /// that shares common prefixes.
    pub fn get_many<'a>(
        &self,
        json: &'a [u8],
        paths: &[Pointer<'_>],
    ) -> Result<Vec<Option<LazyValue<'a>>>, Error> {
        many::get_many(self.walker(json), paths)
            .map(|found| {
                let wrap = |(start, end)| LazyValue::new(json, start, end, *self);
                found.into_iter().map(|f| f.map(wrap)).collect()
            })
            .map_err(|e| document_error(json, e, self.max_depth))
    }

    /// `json` with the existing value at `path` replaced by `new` (one JSON value, which
    /// may have whitespace around it); `None` when `path` is absent.
    pub fn set(
        &self,
        json: &[u8],
        path: &Pointer<'_>,
        new: &[u8],
    ) -> Result<Option<Vec<u8>>, Error> {
        edit::edit(self.walker(json), path, edit::Op::Set(new))
    }

    /// `json` with `new` added at `path`: a new member (or the existing one replaced), or an
    /// array element inserted at an index up to the length (`-` appends). `None` when the
    /// parent is absent or the index is past the end.
    pub fn insert(
        &self,
        json: &[u8],
        path: &Pointer<'_>,
        new: &[u8],
    ) -> Result<Option<Vec<u8>>, Error> {
        edit::edit(self.walker(json), path, edit::Op::Insert(new))
    }

    /// `json` without the member or element at `path`; `None` when it is absent or `path`
    /// is the root.
    pub fn remove(&self, json: &[u8], path: &Pointer<'_>) -> Result<Option<Vec<u8>>, Error> {
        edit::edit(self.walker(json), path, edit::Op::Remove)
    }
}

/// [`Options::get`] in checked mode.
pub fn get<'a>(json: &'a [u8], path: &Pointer<'_>) -> Result<Option<LazyValue<'a>>, Error> {
    Options::new().get(json, path)
}

/// [`Options::get_many`] in checked mode.
pub fn get_many<'a>(
    json: &'a [u8],
    paths: &[Pointer<'_>],
) -> Result<Vec<Option<LazyValue<'a>>>, Error> {
    Options::new().get_many(json, paths)
}

/// [`Options::set`] in checked mode.
pub fn set(json: &[u8], path: &Pointer<'_>, new: &[u8]) -> Result<Option<Vec<u8>>, Error> {
    Options::new().set(json, path, new)
}

/// [`Options::insert`] in checked mode.
pub fn insert(json: &[u8], path: &Pointer<'_>, new: &[u8]) -> Result<Option<Vec<u8>>, Error> {
    Options::new().insert(json, path, new)
}

/// [`Options::remove`] in checked mode.
pub fn remove(json: &[u8], path: &Pointer<'_>) -> Result<Option<Vec<u8>>, Error> {
    Options::new().remove(json, path)
}

//! Lazy iteration over an array's elements and an object's members, yielding
//! [`LazyValue`]s: each step skips one value and parses nothing.
//!
//! The container was found by a get, so in checked mode it was validated whole already; the
//! iterators therefore only balance brackets. After an error (possible only for a value of an
//! unchecked walk) they yield nothing more.

use std::borrow::Cow;

use jitson_kernels::{ErrorKind, KernelError};

use super::cursor::{Cursor, Walker};
use super::error::document_error;
use super::value::{LazyValue, decode_str};
use super::{Mode, Options};
use crate::error::Error;

/// The walking state both iterators share.
struct Walk<'a> {
    parent: LazyValue<'a>,
    walker: Walker<'a>,
    cursor: Cursor,
    done: bool,
}

impl<'a> Walk<'a> {
    fn new(parent: LazyValue<'a>) -> Walk<'a> {
        let options = parent.options();
        Walk {
            parent,
            walker: Walker {
                buf: parent.doc(),
                mode: Mode::Unchecked,
                max_depth: options.get_max_depth(),
            },
            cursor: Cursor::new(parent.offset()),
            done: false,
        }
    }

    /// The value starting at `start`, skipped; the cursor moves past it.
    fn value(&mut self, start: usize) -> Result<LazyValue<'a>, KernelError> {
        let end = self.walker.skip(start, 0)?;
        self.cursor.pos = end;
        Ok(LazyValue::new(
            self.parent.doc(),
            start,
            end,
            self.parent.options(),
        ))
    }

    /// `step`'s item, or its error as an [`Error`]; ends the walk on `None` or an error.
    fn finish<T>(&mut self, step: Result<Option<T>, KernelError>) -> Option<Result<T, Error>> {
        match step {
            Ok(Some(item)) => Some(Ok(item)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                let options: Options = self.parent.options();
                Some(Err(document_error(
                    self.parent.doc(),
                    e,
                    options.get_max_depth(),
                )))
            }
        }
    }
}

/// The elements of an array ([`LazyValue::array_iter`]).
pub struct ArrayIter<'a> {
    walk: Walk<'a>,
}

impl<'a> ArrayIter<'a> {
    pub(super) fn new(array: LazyValue<'a>) -> ArrayIter<'a> {
        ArrayIter {
            walk: Walk::new(array),
        }
    }
}

impl<'a> Iterator for ArrayIter<'a> {
    type Item = Result<LazyValue<'a>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.walk.done {
            return None;
        }
        let step = match self.walk.walker.next_element(&mut self.walk.cursor) {
            Ok(Some(element)) => self.walk.value(element.value).map(Some),
            Ok(None) => Ok(None),
            Err(e) => Err(e),
        };
        self.walk.finish(step)
    }
}

/// The members of an object, in document order ([`LazyValue::object_iter`]): each key
/// (borrowed when it has no escapes) and its value.
pub struct ObjectIter<'a> {
    walk: Walk<'a>,
}

impl<'a> ObjectIter<'a> {
    pub(super) fn new(object: LazyValue<'a>) -> ObjectIter<'a> {
        ObjectIter {
            walk: Walk::new(object),
        }
    }
}

impl<'a> Iterator for ObjectIter<'a> {
    type Item = Result<(Cow<'a, str>, LazyValue<'a>), Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.walk.done {
            return None;
        }
        let walker = self.walk.walker;
        let step = match walker.next_member(&mut self.walk.cursor) {
            Ok(Some(member)) => match decode_str(walker.key_body(&member)) {
                Some(key) => self.walk.value(member.value).map(|v| Some((key, v))),
                None => Err(KernelError::new(ErrorKind::InvalidEscape, member.key)),
            },
            Ok(None) => Ok(None),
            Err(e) => Err(e),
        };
        self.walk.finish(step)
    }
}

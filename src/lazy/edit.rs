//! Edits by splicing: the target located like a get, the new document built from the raw
//! slices around it.

use jitson_kernels::escape::{EscapeMode, escape_str};
use jitson_kernels::{ErrorKind, KernelError};

use super::cursor::{Cursor, Walker};
use super::error::document_error;
use super::get::Lookup;
use super::pointer::{Pointer, Step};
use crate::error::Error;

/// An edit.
#[derive(Clone, Copy)]
pub(super) enum Op<'n> {
    /// Replace an existing value (JSON Patch `replace`).
    Set(&'n [u8]),
    /// Add a member or insert an element (JSON Patch `add`).
    Insert(&'n [u8]),
    /// Remove a member or element.
    Remove,
}

/// `op` applied at `path` of the walker's document.
pub(super) fn edit(
    w: Walker<'_>,
    path: &Pointer<'_>,
    op: Op<'_>,
) -> Result<Option<Vec<u8>>, Error> {
    let depth = path.steps().len();
    let new = match op {
        Op::Set(new) | Op::Insert(new) => Some(new_value(w, new, depth)?),
        Op::Remove => None,
    };
    apply(w, path.steps(), op, new.unwrap_or_default())
        .map_err(|e| document_error(w.buf, e, w.max_depth))
}

/// The value of `new` without the whitespace around it; checked mode validates it (nested
/// in `depth` containers).
fn new_value<'n>(w: Walker<'_>, new: &'n [u8], depth: usize) -> Result<&'n [u8], Error> {
    let max_depth = w.max_depth.saturating_sub(depth);
    let reader = Walker {
        buf: new,
        mode: w.mode,
        max_depth,
    };
    let start = reader.ws(0);
    let value = reader.skip(start, 0).and_then(|end| match reader.ws(end) {
        rest if rest < new.len() => Err(KernelError::new(ErrorKind::TrailingCharacters, rest)),
        _ => Ok(end),
    });
    match value {
        Ok(end) => Ok(&new[start..end]),
        Err(e) => Err(document_error(new, e, max_depth)),
    }
}

/// The edited document, or `None` when there is nothing to edit.
fn apply(
    w: Walker<'_>,
    steps: &[Step<'_>],
    op: Op<'_>,
    new: &[u8],
) -> Result<Option<Vec<u8>>, KernelError> {
    let buf = w.buf;
    let Some((last, parent_steps)) = steps.split_last() else {
        if let Op::Remove = op {
            return Ok(None);
        }
        let start = w.ws(0);
        let end = w.skip(start, 0)?;
        return Ok(Some(splice(buf, start, end, &[new])));
    };
    let Some(parent) = w.locate(parent_steps)? else {
        return Ok(None);
    };
    let depth = parent_steps.len();
    match (buf.get(parent), last.key(), last.index()) {
        (Some(b'{'), Some(key), _) => match w.find_member(parent, key, depth)? {
            Lookup::Found(member) => {
                let end = w.skip(member.value, depth + 1)?;
                match op {
                    Op::Set(_) | Op::Insert(_) => Ok(Some(splice(buf, member.value, end, &[new]))),
                    Op::Remove => {
                        let (start, end) = removal(w, member.key, member.comma, end, b'}')?;
                        Ok(Some(splice(buf, start, end, &[])))
                    }
                }
            }
            Lookup::Absent(cur) => match op {
                Op::Insert(_) => {
                    let mut member = Vec::with_capacity(key.len() + 3);
                    escape_str(key, EscapeMode::Minimal, &mut member);
                    member.push(b':');
                    Ok(Some(append(buf, &cur, &member, new)))
                }
                Op::Set(_) | Op::Remove => Ok(None),
            },
        },
        (Some(b'['), _, _) if matches!(op, Op::Insert(_)) && last.is_end_of_array() => {
            match w.find_element(parent, usize::MAX, depth)? {
                Lookup::Absent(cur) => Ok(Some(append(buf, &cur, &[], new))),
                Lookup::Found(_) => Ok(None),
            }
        }
        (Some(b'['), _, Some(index)) => match w.find_element(parent, index, depth)? {
            Lookup::Found(element) => match op {
                Op::Set(_) => {
                    let end = w.skip(element.value, depth + 1)?;
                    Ok(Some(splice(buf, element.value, end, &[new])))
                }
                Op::Insert(_) => Ok(Some(splice(
                    buf,
                    element.value,
                    element.value,
                    &[new, b","],
                ))),
                Op::Remove => {
                    let end = w.skip(element.value, depth + 1)?;
                    let (start, end) = removal(w, element.value, element.comma, end, b']')?;
                    Ok(Some(splice(buf, start, end, &[])))
                }
            },
            Lookup::Absent(cur) if matches!(op, Op::Insert(_)) && cur.count == index => {
                Ok(Some(append(buf, &cur, &[], new)))
            }
            Lookup::Absent(_) => Ok(None),
        },
        _ => {
            if w.checked() {
                w.skip(parent, depth)?;
            }
            Ok(None)
        }
    }
}

/// The bytes to cut to remove the element that starts at `start` and ends at `end` (its
/// comma before it, if any, at `comma`) from a container closed by `close`: the element and
/// the comma after it, or, for the last element, the comma before it.
fn removal(
    w: Walker<'_>,
    start: usize,
    comma: Option<usize>,
    end: usize,
    close: u8,
) -> Result<(usize, usize), KernelError> {
    let after = w.ws(end);
    match w.buf.get(after) {
        Some(b',') => Ok((start, w.ws(after + 1))),
        Some(&b) if b == close => Ok((comma.unwrap_or(start), end)),
        Some(_) => Err(KernelError::new(ErrorKind::ExpectedCommaOrEnd, after)),
        None => Err(KernelError::new(ErrorKind::UnexpectedEnd, w.buf.len())),
    }
}

/// `buf` with `prefix` and `new` added after the last element of the closed container
/// `cur` walked (with a comma when it has elements).
fn append(buf: &[u8], cur: &Cursor, prefix: &[u8], new: &[u8]) -> Vec<u8> {
    let comma: &[u8] = if cur.count > 0 { b"," } else { b"" };
    splice(buf, cur.last, cur.last, &[comma, prefix, new])
}

/// `buf` with `buf[start..end]` replaced by the concatenation of `pieces`.
fn splice(buf: &[u8], start: usize, end: usize, pieces: &[&[u8]]) -> Vec<u8> {
    let added: usize = pieces.iter().map(|p| p.len()).sum();
    let mut out = Vec::with_capacity(buf.len() - (end - start) + added);
    out.extend_from_slice(&buf[..start]);
    for piece in pieces {
        out.extend_from_slice(piece);
    }
    out.extend_from_slice(&buf[end..]);
    out
}

//! [`Document`]: repeated gets in one document with a node cache (after sonic-ast's), so
//! that a later get reuses the skips of earlier ones.
//!
//! For every container a get walked into, the cache keeps the members or elements seen so
//! far (where each key and value starts) and where the walk stopped. A later get through the
//! same container finds an element seen before without skipping anything, and otherwise
//! resumes the walk where the last one stopped. What was validated once (checked mode) is
//! not validated again.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use jitson_kernels::KernelError;

use super::cursor::{Cursor, Member, Walker};
use super::error::document_error;
use super::pointer::{Pointer, Step};
use super::{LazyValue, Options};
use crate::error::Error;

/// What the cache knows about one container.
struct Seen<'a> {
    /// The members (objects) or elements (arrays, with `key: None`) read so far.
    children: Vec<Child>,
    /// An object's members by key, once it has more than [`FEW_MEMBERS`] ([`Seen::index`]).
    keys: KeyIndex<'a>,
    /// Where the walk of the container stopped.
    cursor: Cursor,
    /// The value of the last child read, not yet passed (the next read passes it, through
    /// the cache when a get walked into it).
    unskipped: Option<usize>,
    /// True once the closing bracket was read.
    closed: bool,
}

/// Members an object's gets compare with the key one by one; past them, the members seen
/// are found by key in a map, so thousands of gets of distinct members in one object do not
/// each compare every member before theirs.
const FEW_MEMBERS: usize = 8;

/// The first member of each (unescaped) key among an object's first `indexed` members, and
/// the first of them whose key [`Walker::key_matches`] could fail on (a bad escape, or in
/// checked mode any invalid key): a member found after it is looked for by comparing keys
/// in order, which gives that error as a fresh walk would.
#[derive(Default)]
struct KeyIndex<'a> {
    first: HashMap<Cow<'a, [u8]>, usize>,
    indexed: usize,
    bad: Option<usize>,
}

/// One member or element seen.
#[derive(Clone, Copy)]
struct Child {
    key: Option<Member>,
    value: usize,
}

/// A document read by repeated gets that share their skips: every container a get walked
/// into remembers where its members or elements start and where the walk stopped, so a later
/// get finds them without skipping again, or resumes there.
pub struct Document<'a> {
    json: &'a [u8],
    options: Options,
    seen: HashMap<usize, Seen<'a>>,
}

impl<'a> Document<'a> {
    /// `json`, read in checked mode.
    pub fn new(json: &'a [u8]) -> Document<'a> {
        Document::with_options(json, Options::new())
    }

    /// `json`, read with `options`.
    pub fn with_options(json: &'a [u8], options: Options) -> Document<'a> {
        Document {
            json,
            options,
            seen: HashMap::new(),
        }
    }

    /// The value `path` names, or `None` when it is absent: the same answer as
    /// [`Options::get`], reusing what earlier gets skipped.
    pub fn get(&mut self, path: &Pointer<'_>) -> Result<Option<LazyValue<'a>>, Error> {
        let walker = self.options.walker(self.json);
        let found = self
            .locate(walker, path.steps())
            .and_then(|start| match start {
                Some(start) => Ok(Some((start, walker.skip(start, path.steps().len())?))),
                None => Ok(None),
            });
        let options = self.options;
        match found {
            Ok(found) => Ok(found.map(|(s, e)| LazyValue::new(self.json, s, e, options))),
            Err(e) => Err(document_error(self.json, e, options.get_max_depth())),
        }
    }

    /// [`Walker::locate`] through the cache.
    fn locate(&mut self, w: Walker<'a>, steps: &[Step<'_>]) -> Result<Option<usize>, KernelError> {
        let mut pos = w.ws(0);
        for (depth, step) in steps.iter().enumerate() {
            let next = match (w.buf.get(pos), step.key(), step.index()) {
                (Some(b'{'), Some(key), _) => {
                    self.child(w, pos, depth, Some(key), |w, child| {
                        child
                            .key
                            .map_or(Ok(false), |member| w.key_matches(&member, key))
                    })?
                }
                (Some(b'['), _, Some(index)) => {
                    let seen = self.seen(w, pos, depth)?;
                    match seen.children.get(index) {
                        Some(child) => Some(child.value),
                        None => {
                            let mut count = seen.children.len();
                            self.child(w, pos, depth, None, |_, _| {
                                count += 1;
                                Ok(count - 1 == index)
                            })?
                        }
                    }
                }
                _ => {
                    if w.checked() {
                        w.skip(pos, depth)?;
                    }
                    None
                }
            };
            match next {
                Some(value) => pos = value,
                None => return Ok(None),
            }
        }
        Ok(Some(pos))
    }

    /// The value of the first child of the container at `open` (inside `depth` containers)
    /// for which `wanted` holds: among the children seen before (objects only, by `key`
    /// through the index when there are many; arrays find those by index), then by
    /// resuming the walk.
    fn child(
        &mut self,
        w: Walker<'a>,
        open: usize,
        depth: usize,
        key: Option<&str>,
        mut wanted: impl FnMut(&Walker<'_>, &Child) -> Result<bool, KernelError>,
    ) -> Result<Option<usize>, KernelError> {
        if w.buf[open] == b'{' {
            let seen = self.seen(w, open, depth)?;
            let scan = match key {
                Some(key) if seen.children.len() > FEW_MEMBERS => {
                    seen.index(&w);
                    let hit = seen.keys.first.get(key.as_bytes()).copied();
                    let clean = |limit| seen.keys.bad.is_none_or(|bad| bad >= limit);
                    match hit {
                        Some(i) if clean(i) => return Ok(Some(seen.children[i].value)),
                        None if clean(seen.children.len()) => &[][..],
                        _ => &seen.children[..],
                    }
                }
                _ => &seen.children[..],
            };
            for child in scan {
                if wanted(&w, child)? {
                    return Ok(Some(child.value));
                }
            }
        }
        while let Some(child) = self.advance(w, open, depth)? {
            if wanted(&w, &child)? {
                return Ok(Some(child.value));
            }
        }
        Ok(None)
    }

    /// The cache entry of the container at `open` (inside `depth` containers), made empty
    /// the first time.
    fn seen(
        &mut self,
        w: Walker<'_>,
        open: usize,
        depth: usize,
    ) -> Result<&mut Seen<'a>, KernelError> {
        Ok(match self.seen.entry(open) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => entry.insert(Seen {
                children: Vec::new(),
                keys: KeyIndex::default(),
                cursor: w.enter(open, depth)?,
                unskipped: None,
                closed: false,
            }),
        })
    }

    /// Reads the next child of the container at `open` into the cache, after finishing the
    /// one before it; `None` once the container is closed. The child's value is left for
    /// the next call (or a walk into it) to pass.
    fn advance(
        &mut self,
        w: Walker<'_>,
        open: usize,
        depth: usize,
    ) -> Result<Option<Child>, KernelError> {
        let seen = self.seen(w, open, depth)?;
        if seen.closed {
            return Ok(None);
        }
        if let Some(value) = seen.unskipped {
            let end = self.end_of(w, value, depth + 1)?;
            let seen = self.seen(w, open, depth)?;
            seen.cursor.pos = end;
            seen.unskipped = None;
        }
        let seen = self.seen(w, open, depth)?;
        let child = if w.buf[open] == b'{' {
            w.next_member(&mut seen.cursor)?.map(|member| Child {
                key: Some(member),
                value: member.value,
            })
        } else {
            let element = w.next_element(&mut seen.cursor)?;
            element.map(|element| Child {
                key: None,
                value: element.value,
            })
        };
        match child {
            Some(child) => {
                seen.children.push(child);
                seen.unskipped = Some(child.value);
            }
            None => seen.closed = true,
        }
        Ok(child)
    }

    /// The end of the value at `value` (inside `depth` containers): skipped, or, for a
    /// container in the cache, its walk finished (recursion follows the cached containers,
    /// which the nesting limit bounds).
    fn end_of(&mut self, w: Walker<'_>, value: usize, depth: usize) -> Result<usize, KernelError> {
        if !self.seen.contains_key(&value) {
            return w.skip(value, depth);
        }
        while self.advance(w, value, depth)?.is_some() {}
        Ok(self.seen(w, value, depth)?.cursor.pos)
    }
}

impl<'a> Seen<'a> {
    /// Brings the key index up to the members seen.
    fn index(&mut self, w: &Walker<'a>) {
        for (i, child) in self.children.iter().enumerate().skip(self.keys.indexed) {
            let Some(member) = &child.key else { continue };
            match w.check_key(member).and_then(|()| w.unescaped_key(member)) {
                Ok(key) => drop(self.keys.first.entry(key).or_insert(i)),
                Err(_) => drop(self.keys.bad.get_or_insert(i)),
            }
        }
        self.keys.indexed = self.children.len();
    }
}

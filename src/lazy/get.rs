//! Following one path: the member or element each step names, skipping everything before
//! it and touching nothing after it.

use jitson_kernels::KernelError;

use super::cursor::{Cursor, Element, Member, Walker};
use super::pointer::Step;

/// The answer of a lookup in one container.
pub(super) enum Lookup<T> {
    /// The member or element, its key (if any) already read.
    Found(T),
    /// Not there: the cursor is past the closing bracket, its count the container's length.
    Absent(Cursor),
}

impl Walker<'_> {
    /// The start of the value `steps` names, or `None` when it is absent (a key no object
    /// has, an index past an array's end, a step into a scalar or into the wrong kind of
    /// container). Checked mode validates every value skipped and, for an absent answer,
    /// the value where the path stopped.
    pub(super) fn locate(&self, steps: &[Step<'_>]) -> Result<Option<usize>, KernelError> {
        let mut pos = self.ws(0);
        for (depth, step) in steps.iter().enumerate() {
            let next = match (self.buf.get(pos), step.key(), step.index()) {
                (Some(b'{'), Some(key), _) => match self.find_member(pos, key, depth)? {
                    Lookup::Found(member) => Some(member.value),
                    Lookup::Absent(_) => None,
                },
                (Some(b'['), _, Some(index)) => match self.find_element(pos, index, depth)? {
                    Lookup::Found(element) => Some(element.value),
                    Lookup::Absent(_) => None,
                },
                _ => {
                    if self.checked() {
                        self.skip(pos, depth)?;
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

    /// The first member with key `key` of the object at `open`, which sits inside `depth`
    /// containers.
    pub(super) fn find_member(
        &self,
        open: usize,
        key: &str,
        depth: usize,
    ) -> Result<Lookup<Member>, KernelError> {
        let mut cur = self.enter(open, depth)?;
        while let Some(member) = self.next_member(&mut cur)? {
            if self.key_matches(&member, key)? {
                return Ok(Lookup::Found(member));
            }
            cur.pos = self.skip(member.value, depth + 1)?;
        }
        Ok(Lookup::Absent(cur))
    }

    /// The element at `index` of the array at `open`, which sits inside `depth` containers.
    pub(super) fn find_element(
        &self,
        open: usize,
        index: usize,
        depth: usize,
    ) -> Result<Lookup<Element>, KernelError> {
        let mut cur = self.enter(open, depth)?;
        while let Some(element) = self.next_element(&mut cur)? {
            if cur.count - 1 == index {
                return Ok(Lookup::Found(element));
            }
            cur.pos = self.skip(element.value, depth + 1)?;
        }
        Ok(Lookup::Absent(cur))
    }
}

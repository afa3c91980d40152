//! Many paths in one traversal: the paths merged into a trie, each container on the way
//! walked once for all the paths through it, and left as soon as none of them needs more.

use std::collections::HashMap;

use jitson_kernels::KernelError;

use super::cursor::{Member, Walker};
use super::pointer::{Pointer, Step};

/// Where a found value sits: its start and end in the document.
type Span = (usize, usize);

/// A trie node: the paths that end here, and the steps to the nodes below.
#[derive(Default)]
struct Node<'s, 'p> {
    /// Indices (in the caller's order) of the paths that end at this node.
    ends: Vec<usize>,
    /// The steps below, each to its node; array steps sorted by index.
    children: Vec<(&'s Step<'p>, usize)>,
}

/// The paths merged by common prefix.
struct Trie<'s, 'p> {
    nodes: Vec<Node<'s, 'p>>,
}

impl<'s, 'p> Trie<'s, 'p> {
    fn new(paths: &'s [Pointer<'p>]) -> Trie<'s, 'p> {
        let mut trie = Trie {
            nodes: vec![Node::default()],
        };
        // Each node's child by step, so that thousands of sibling paths are merged in
        // linear time.
        let mut child_of: HashMap<(usize, &'s Step<'p>), usize> = HashMap::new();
        for (slot, path) in paths.iter().enumerate() {
            let mut node = 0;
            for step in path.steps() {
                node = *child_of.entry((node, step)).or_insert_with(|| {
                    trie.nodes.push(Node::default());
                    let child = trie.nodes.len() - 1;
                    trie.nodes[node].children.push((step, child));
                    child
                });
            }
            trie.nodes[node].ends.push(slot);
        }
        for node in &mut trie.nodes {
            node.children.sort_by_key(|(step, _)| step.index());
        }
        trie
    }
}

/// The values `paths` name, in their order.
pub(super) fn get_many(
    w: Walker<'_>,
    paths: &[Pointer<'_>],
) -> Result<Vec<Option<Span>>, KernelError> {
    let trie = Trie::new(paths);
    let mut found = vec![None; paths.len()];
    let mut visit = Visit {
        w,
        trie: &trie,
        found: &mut found,
    };
    visit.node(0, w.ws(0), 0, false)?;
    Ok(found)
}

/// One traversal's state.
struct Visit<'v, 'a, 's, 'p> {
    w: Walker<'a>,
    trie: &'v Trie<'s, 'p>,
    found: &'v mut [Option<Span>],
}

impl Visit<'_, '_, '_, '_> {
    /// Visits trie node `node` at the value starting at `pos` inside `depth` containers.
    /// Returns the value's end, or `None` when `need_end` is false and the walk stopped
    /// before it. Recursion follows the trie, one level per container entered, so the
    /// nesting limit bounds it.
    fn node(
        &mut self,
        node: usize,
        pos: usize,
        depth: usize,
        need_end: bool,
    ) -> Result<Option<usize>, KernelError> {
        let trie = self.trie;
        let here = &trie.nodes[node];
        let mut end = None;
        if !here.ends.is_empty() {
            let value_end = self.w.skip(pos, depth)?;
            for &slot in &here.ends {
                self.found[slot] = Some((pos, value_end));
            }
            end = Some(value_end);
        }
        let need_end = need_end && end.is_none();
        let children = &here.children;
        let walked = match self.w.buf.get(pos) {
            _ if children.is_empty() => return Ok(end),
            Some(b'{') if children.iter().any(|(s, _)| s.key().is_some()) => {
                self.object(children, pos, depth, need_end)?
            }
            Some(b'[') if children.iter().any(|(s, _)| s.index().is_some()) => {
                self.array(children, pos, depth, need_end)?
            }
            _ if end.is_none() && (need_end || self.w.checked()) => Some(self.w.skip(pos, depth)?),
            _ => None,
        };
        Ok(end.or(walked))
    }

    /// Walks the object at `open` for the `children` steps that are keys.
    fn object(
        &mut self,
        children: &[(&Step<'_>, usize)],
        open: usize,
        depth: usize,
        need_end: bool,
    ) -> Result<Option<usize>, KernelError> {
        let mut pending = PendingKeys::new(children);
        let mut taken = Vec::new();
        let mut cur = self.w.enter(open, depth)?;
        while let Some(member) = self.w.next_member(&mut cur)? {
            let mut value_end = None;
            pending.take(&self.w, &member, &mut taken)?;
            for (k, &child) in taken.iter().enumerate() {
                // The member's end is needed while anything is left: another path through
                // this member, or a pending key after it.
                let needs_end = need_end || !pending.is_empty() || k + 1 < taken.len();
                if !self.member(child, member.value, depth, needs_end, &mut value_end)? {
                    return Ok(None);
                }
            }
            if pending.is_empty() && !need_end {
                return Ok(None);
            }
            cur.pos = self.after(member.value, value_end, depth)?;
        }
        Ok(Some(cur.pos))
    }

    /// Walks the array at `open` for the `children` steps that are indices (sorted).
    fn array(
        &mut self,
        children: &[(&Step<'_>, usize)],
        open: usize,
        depth: usize,
        need_end: bool,
    ) -> Result<Option<usize>, KernelError> {
        let mut pending: &[(usize, usize)] = &children
            .iter()
            .filter_map(|(step, child)| Some((step.index()?, *child)))
            .collect::<Vec<_>>();
        let mut cur = self.w.enter(open, depth)?;
        while let Some(element) = self.w.next_element(&mut cur)? {
            let index = cur.count - 1;
            let mut value_end = None;
            while let Some((&(wanted, child), rest)) = pending.split_first() {
                if wanted != index {
                    break;
                }
                pending = rest;
                let needs_end = need_end || !pending.is_empty();
                if !self.member(child, element.value, depth, needs_end, &mut value_end)? {
                    return Ok(None);
                }
            }
            if pending.is_empty() && !need_end {
                return Ok(None);
            }
            cur.pos = self.after(element.value, value_end, depth)?;
        }
        Ok(Some(cur.pos))
    }

    /// Visits trie node `child` at a member's (or element's) `value` inside the container
    /// at `depth`. False when the walk stopped before the value's end (nothing more is
    /// needed); else the end is kept in `value_end` (the first visit's, when several paths
    /// share the member).
    fn member(
        &mut self,
        child: usize,
        value: usize,
        depth: usize,
        needs_end: bool,
        value_end: &mut Option<usize>,
    ) -> Result<bool, KernelError> {
        let Some(end) = self.node(child, value, depth + 1, needs_end)? else {
            return Ok(false);
        };
        value_end.get_or_insert(end);
        Ok(true)
    }

    /// Where the walk resumes after the member whose value starts at `value`: its end when
    /// a visit found it, else skipped to.
    fn after(
        &mut self,
        value: usize,
        value_end: Option<usize>,
        depth: usize,
    ) -> Result<usize, KernelError> {
        match value_end {
            Some(end) => Ok(end),
            None => self.w.skip(value, depth + 1),
        }
    }
}

/// The key steps an object walk still looks for, each with its trie node. A few are
/// compared with each member's key in turn; past [`FEW_KEYS`] they are found by the key's
/// unescaped bytes in a map, so thousands of paths into one object cost one look-up per
/// member rather than a comparison with every path.
enum PendingKeys<'k> {
    Few(Vec<(&'k str, usize)>),
    Many {
        by_key: HashMap<&'k [u8], Vec<usize>>,
        left: usize,
    },
}

/// The most pending keys compared one by one.
const FEW_KEYS: usize = 8;

impl<'k> PendingKeys<'k> {
    fn new(children: &[(&'k Step<'_>, usize)]) -> PendingKeys<'k> {
        let keys: Vec<(&str, usize)> = children
            .iter()
            .filter_map(|(step, child)| Some((step.key()?, *child)))
            .collect();
        if keys.len() <= FEW_KEYS {
            return PendingKeys::Few(keys);
        }
        let left = keys.len();
        let mut by_key: HashMap<&[u8], Vec<usize>> = HashMap::new();
        for (key, child) in keys {
            by_key.entry(key.as_bytes()).or_default().push(child);
        }
        PendingKeys::Many { by_key, left }
    }

    fn is_empty(&self) -> bool {
        match self {
            PendingKeys::Few(keys) => keys.is_empty(),
            PendingKeys::Many { left, .. } => *left == 0,
        }
    }

    /// Puts in `taken` the trie nodes of the pending keys `member`'s key is, no longer
    /// pending (a later member with the same key is not visited). Checked mode validates every key, as
    /// [`Walker::key_matches`] does whatever the answer; a bad escape is an error in both
    /// modes (one by one, unchecked mode unescapes only a key whose length could match).
    fn take(
        &mut self,
        w: &Walker<'_>,
        member: &Member,
        taken: &mut Vec<usize>,
    ) -> Result<(), KernelError> {
        taken.clear();
        match self {
            PendingKeys::Few(keys) => {
                if keys.is_empty() {
                    w.check_key(member)?;
                }
                let mut i = 0;
                while i < keys.len() {
                    if w.key_matches(member, keys[i].0)? {
                        taken.push(keys.swap_remove(i).1);
                    } else {
                        i += 1;
                    }
                }
            }
            PendingKeys::Many { by_key, left } => {
                w.check_key(member)?;
                if let Some(children) = by_key.remove(w.unescaped_key(member)?.as_ref()) {
                    *left -= children.len();
                    taken.extend(children);
                }
            }
        }
        Ok(())
    }
}

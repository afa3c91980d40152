//! Many paths in one traversal: the paths merged into a trie, each container on the way
//! walked once for all the paths through it, and left as soon as none of them needs more.

use jitson_kernels::KernelError;

use super::cursor::Walker;
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
        for (slot, path) in paths.iter().enumerate() {
            let mut node = 0;
            for step in path.steps() {
                let known = trie.nodes[node].children.iter().find(|(s, _)| *s == step);
                node = match known {
                    Some(&(_, child)) => child,
                    None => {
                        trie.nodes.push(Node::default());
                        let child = trie.nodes.len() - 1;
                        trie.nodes[node].children.push((step, child));
                        child
                    }
                };
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
        let mut pending: Vec<(&str, usize)> = children
            .iter()
            .filter_map(|(step, child)| Some((step.key()?, *child)))
            .collect();
        let mut cur = self.w.enter(open, depth)?;
        while let Some(member) = self.w.next_member(&mut cur)? {
            if pending.is_empty() {
                self.w.check_key(&member)?;
            }
            let mut value_end = None;
            let mut i = 0;
            while i < pending.len() {
                if !self.w.key_matches(&member, pending[i].0)? {
                    i += 1;
                    continue;
                }
                let child = pending.swap_remove(i).1;
                let needs_end = need_end || !pending.is_empty();
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

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
                let child_needs_end = need_end || !pending.is_empty();
                let end = self.node(child, member.value, depth + 1, child_needs_end)?;
                if end.is_none() {
                    return Ok(None);
                }
                value_end = value_end.or(end);
            }
            if pending.is_empty() && !need_end {
                return Ok(None);
            }
            cur.pos = match value_end {
                Some(end) => end,
                None => self.w.skip(member.value, depth + 1)?,
            };
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
                let child_needs_end = need_end || !pending.is_empty();
                let end = self.node(child, element.value, depth + 1, child_needs_end)?;
                if end.is_none() {
                    return Ok(None);
                }
                value_end = value_end.or(end);
            }
            if pending.is_empty() && !need_end {
                return Ok(None);
            }
            cur.pos = match value_end {
                Some(end) => end,
                None => self.w.skip(element.value, depth + 1)?,
            };
        }
        Ok(Some(cur.pos))
    }
}

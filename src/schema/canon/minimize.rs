//! Merging structurally identical nodes and numbering the rest canonically.
//!
//! Two nodes are identical when their contents are equal and their children are identical,
//! recursively (bisimilar): found by interning for nodes that reach no cycle, and by partition
//! refinement (as in DFA minimization) for the others. The merged
//! nodes are then numbered in depth-first pre-order from the root, children in canonical
//! order, so the arena depends only on the schema's structure.

use crate::schema::encode::encode_node;
use crate::schema::{TypeDesc, TypeId};
use std::collections::HashMap;

/// The canonical arena of the part of `nodes` reachable from `root`, and its root.
pub(super) fn minimize(nodes: &[TypeDesc], root: TypeId) -> (Vec<TypeDesc>, TypeId) {
    let reachable = preorder(root, |id| children(&nodes[id.index()]));
    let class = partition(nodes, root, &reachable);
    // The first node of each class in pre-order represents it.
    let mut representative: HashMap<u32, TypeId> = HashMap::new();
    for &id in &reachable {
        representative.entry(class[id.index()]).or_insert(id);
    }
    let class_of = |id: TypeId| TypeId(class[id.index()]);
    let order = preorder(class_of(root), |c| {
        children(&nodes[representative[&c.0].index()])
            .into_iter()
            .map(class_of)
            .collect()
    });
    let mut number: HashMap<u32, u32> = HashMap::new();
    for (n, c) in order.iter().enumerate() {
        number.insert(c.0, n as u32);
    }
    let mut out = Vec::with_capacity(order.len());
    for c in &order {
        let mut desc = nodes[representative[&c.0].index()].clone();
        desc.for_each_child_mut(|child| *child = TypeId(number[&class[child.index()]]));
        out.push(desc);
    }
    (out, TypeId(number[&class[root.index()]]))
}

/// A node's children in canonical order.
fn children(desc: &TypeDesc) -> Vec<TypeId> {
    let mut out = Vec::new();
    desc.for_each_child(|c, _| out.push(c));
    out
}

/// The nodes reachable from `start`, in depth-first pre-order.
fn preorder(start: TypeId, children: impl Fn(TypeId) -> Vec<TypeId>) -> Vec<TypeId> {
    let mut seen = std::collections::HashSet::new();
    let mut order = Vec::new();
    let mut stack = vec![start];
    while let Some(id) = stack.pop() {
        if seen.insert(id) {
            order.push(id);
            stack.extend(children(id).into_iter().rev());
        }
    }
    order
}

/// The coarsest partition of `members` (every node reachable from `root`, in pre-order) into
/// classes of identical nodes: class ids by node index.
///
/// Nodes that reach no cycle are interned bottom-up in one pass (their children's classes are
/// final by then); only nodes that reach a cycle need rounds of refinement, so a long chain of
/// `$ref`s costs linear time.
fn partition(nodes: &[TypeDesc], root: TypeId, members: &[TypeId]) -> Vec<u32> {
    let (postorder, acyclic) = postorder(nodes, root);
    let mut class = vec![0u32; nodes.len()];
    let mut table: HashMap<Vec<u8>, u32> = HashMap::new();
    for &id in postorder.iter().filter(|id| acyclic[id.index()]) {
        let mut signature = Vec::new();
        encode_node(&nodes[id.index()], &|c| class[c.index()], &mut signature);
        let fresh = table.len() as u32;
        class[id.index()] = *table.entry(signature).or_insert(fresh);
    }
    let settled = table.len() as u32;
    let cyclic: Vec<TypeId> = members
        .iter()
        .copied()
        .filter(|id| !acyclic[id.index()])
        .collect();
    for &id in &cyclic {
        class[id.index()] = settled;
    }
    let mut count = 0;
    loop {
        let mut table: HashMap<Vec<u8>, u32> = HashMap::new();
        let mut next = class.clone();
        for &id in &cyclic {
            let mut signature = class[id.index()].to_le_bytes().to_vec();
            encode_node(&nodes[id.index()], &|c| class[c.index()], &mut signature);
            let fresh = settled + table.len() as u32;
            next[id.index()] = *table.entry(signature).or_insert(fresh);
        }
        class = next;
        if table.len() == count {
            return class;
        }
        count = table.len();
    }
}

/// The nodes reachable from `root` in depth-first post-order, and for each node whether it
/// reaches no cycle.
fn postorder(nodes: &[TypeDesc], root: TypeId) -> (Vec<TypeId>, Vec<bool>) {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    let mut state = vec![State::New; nodes.len()];
    let mut acyclic = vec![true; nodes.len()];
    let mut order = Vec::new();
    let mut stack = vec![(root, children(&nodes[root.index()]), 0)];
    state[root.index()] = State::Open;
    while let Some((id, kids, next)) = stack.last_mut() {
        let id = *id;
        match kids.get(*next).copied() {
            Some(child) => {
                *next += 1;
                match state[child.index()] {
                    State::New => {
                        state[child.index()] = State::Open;
                        stack.push((child, children(&nodes[child.index()]), 0));
                    }
                    State::Open => acyclic[id.index()] = false,
                    State::Done => acyclic[id.index()] &= acyclic[child.index()],
                }
            }
            None => {
                state[id.index()] = State::Done;
                order.push(id);
                stack.pop();
                if let Some((parent, _, _)) = stack.last() {
                    acyclic[parent.index()] &= acyclic[id.index()];
                }
            }
        }
    }
    (order, acyclic)
}

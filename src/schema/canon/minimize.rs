//! Merging structurally identical nodes and numbering the rest canonically.
//!
//! Two nodes are identical when their contents are equal and their children are identical,
//! recursively (bisimilar): found by partition refinement, as in DFA minimization. The merged
//! nodes are then numbered in depth-first pre-order from the root, children in canonical
//! order, so the arena depends only on the schema's structure.

use crate::schema::encode::encode_node;
use crate::schema::{TypeDesc, TypeId};
use std::collections::HashMap;

/// The canonical arena of the part of `nodes` reachable from `root`, and its root.
pub(super) fn minimize(nodes: &[TypeDesc], root: TypeId) -> (Vec<TypeDesc>, TypeId) {
    let reachable = preorder(root, |id| children(&nodes[id.index()]));
    let class = partition(nodes, &reachable);
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

/// The coarsest partition of `members` into classes of identical nodes: class ids by node
/// index.
fn partition(nodes: &[TypeDesc], members: &[TypeId]) -> Vec<u32> {
    let mut class = vec![0u32; nodes.len()];
    let mut count = 0;
    loop {
        let mut table: HashMap<Vec<u8>, u32> = HashMap::new();
        let mut next = class.clone();
        for &id in members {
            let mut signature = class[id.index()].to_le_bytes().to_vec();
            encode_node(&nodes[id.index()], &|c| class[c.index()], &mut signature);
            let fresh = table.len() as u32;
            next[id.index()] = *table.entry(signature).or_insert(fresh);
        }
        class = next;
        if table.len() == count {
            return class;
        }
        count = table.len();
    }
}

//! Cycles that never reach a value: `{"$ref": "#"}`, or `anyOf` through `$ref` back to itself
//! without passing through an array item or object member. Such a schema has no meaning (a
//! validator would loop), so it is a load error.

use crate::schema::model::{Edge, Graph};
use crate::schema::{SchemaError, SchemaErrorKind, TypeId};

/// Rejects any cycle of unguarded edges; returns every node in post-order over those edges
/// (each node after all its unguarded descendants).
pub(super) fn check(graph: &Graph) -> Result<Vec<TypeId>, SchemaError> {
    let kids: Vec<Vec<TypeId>> = graph
        .nodes
        .iter()
        .map(|node| {
            let mut kids = Vec::new();
            node.for_each_child(|c, edge| {
                if edge == Edge::Unguarded {
                    kids.push(c);
                }
            });
            kids
        })
        .collect();
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    let mut state = vec![State::New; kids.len()];
    let mut order = Vec::with_capacity(kids.len());
    for start in 0..kids.len() {
        if state[start] != State::New {
            continue;
        }
        state[start] = State::Open;
        let mut stack = vec![(start, 0)];
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            match kids[node].get(*next) {
                Some(child) => {
                    *next += 1;
                    let child = child.index();
                    match state[child] {
                        State::New => {
                            state[child] = State::Open;
                            stack.push((child, 0));
                        }
                        State::Open => {
                            let at = graph.origins[child].clone();
                            return Err(SchemaError::new(SchemaErrorKind::InfiniteRecursion, at));
                        }
                        State::Done => {}
                    }
                }
                None => {
                    state[node] = State::Done;
                    order.push(TypeId(node as u32));
                    stack.pop();
                }
            }
        }
    }
    Ok(order)
}

//! A function body under construction: its ops and, in parallel, each op's decode
//! destination (see [`jitson_jit::ir`]'s decode table).

use std::ops::{Index, IndexMut};

use jitson_jit::ir::Op;

/// Ops with their destinations; every op pushed takes the current [`Emit::at`].
#[derive(Default)]
pub(super) struct Emit {
    pub(super) ops: Vec<Op>,
    pub(super) dst: Vec<u32>,
    /// The destination given to the ops pushed next.
    pub(super) at: u32,
}

impl Emit {
    pub(super) fn push(&mut self, op: Op) {
        self.ops.push(op);
        self.dst.push(self.at);
    }

    pub(super) fn extend(&mut self, ops: impl IntoIterator<Item = Op>) {
        ops.into_iter().for_each(|op| self.push(op));
    }

    pub(super) fn len(&self) -> usize {
        self.ops.len()
    }
}

/// Patching an op keeps its destination.
impl Index<usize> for Emit {
    type Output = Op;

    fn index(&self, i: usize) -> &Op {
        &self.ops[i]
    }
}

impl IndexMut<usize> for Emit {
    fn index_mut(&mut self, i: usize) -> &mut Op {
        &mut self.ops[i]
    }
}

//! The canonical form: a raw graph from a loader or the builder becomes a [`Schema`].
//!
//! Steps: reject cycles that never reach a value ([`recursion`]); simplify every node to a
//! fixpoint ([`simplify`]): `$ref`-only and single-part nodes collapse, equivalent spellings
//! become one, `enum` absorbs the constraints beside it; merge structurally identical nodes
//! and number them depth first from the root ([`minimize`]); find `anyOf` / `oneOf`
//! discriminators ([`discriminator`]).

mod discriminator;
mod minimize;
mod recursion;
mod simplify;

use crate::schema::model::Graph;
use crate::schema::{Schema, SchemaError, TypeId};

/// Puts a raw graph rooted at `root` in canonical form.
pub(crate) fn finish(mut graph: Graph, root: TypeId) -> Result<Schema, SchemaError> {
    let order = recursion::check(&graph)?;
    simplify::simplify(&mut graph, &order);
    let (mut nodes, root) = minimize::minimize(&graph.nodes, root);
    discriminator::annotate(&mut nodes);
    Ok(Schema { nodes, root })
}

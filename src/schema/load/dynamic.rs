//! `$dynamicRef`s resolved by dynamic scope, at load time.
//!
//! A `$dynamicRef` to anchor `N` whose initial target declares `$dynamicAnchor: N` resolves,
//! while a value is evaluated, to the `$dynamicAnchor: N` of the outermost schema resource
//! on the way from the root to the reference (the resources entered, by `$ref` or by
//! descending into a subschema with its own `$id`), or to its initial target when no
//! resource on the way declares `N`. What is on the way is a property of the path through
//! the schema, not of the value, so the loader copies each node once per *scope* it is
//! reached in (for each anchor name declared so far, the outermost declaration) and points
//! each copy of the reference at its scope's target. Copies that turn out equal are merged
//! with the rest by canonicalization. Schemas without such a reference are not copied.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

use super::build::Built;
use super::index::Index;
use crate::schema::model::Graph;
use crate::schema::{SchemaError, SchemaErrorKind, TypeDesc, TypeId};

/// For each `$dynamicAnchor` name declared on the way, the outermost declaration's node.
type Scope = BTreeMap<String, TypeId>;

/// How many copies of the raw graph the scopes may make before the load fails (a hostile
/// schema could otherwise ask for one copy per combination of resources).
const MAX_COPIES: usize = 16;

/// The raw graph with every `$dynamicRef` of `built` pointed at its target in each scope.
pub(super) fn resolve(index: &Index<'_>, built: Built) -> Result<Graph, SchemaError> {
    if built.dynamic_refs.is_empty() {
        return Ok(built.graph);
    }
    let Built {
        graph,
        owners,
        dynamic_refs,
    } = built;
    let by_anchor: HashMap<TypeId, &str> = (dynamic_refs.iter())
        .map(|(id, name)| (*id, name.as_str()))
        .collect();
    // `scope` after entering the resource of node `id`: its anchors not declared yet.
    let enter = |scope: &Scope, id: TypeId| -> Scope {
        let resource = &index.locations[owners[id.index()]].base;
        let mut inner = scope.clone();
        for (name, anchor) in index.dynamic_anchors(resource) {
            inner.entry(name.to_owned()).or_insert(anchor);
        }
        inner
    };
    let limit = MAX_COPIES * graph.nodes.len();
    let mut copies = Copies::default();
    let root = TypeId(0);
    copies.of(root, enter(&Scope::new(), root), &graph);
    while let Some((old, scope, new)) = copies.pending.pop() {
        let mut desc = graph.node(old).clone();
        if let Some(&target) = by_anchor.get(&old).and_then(|name| scope.get(*name)) {
            desc = TypeDesc::AllOf(vec![target]);
        }
        desc.for_each_child_mut(|child| {
            let inner = enter(&scope, *child);
            *child = copies.of(*child, inner, &graph);
        });
        copies.graph.nodes[new.index()] = desc;
        if copies.graph.nodes.len() > limit {
            // Placed at the first reference the scopes resolve.
            let at = graph.origins[dynamic_refs[0].0.index()].clone();
            return Err(SchemaError::new(SchemaErrorKind::DynamicScopes, at));
        }
    }
    Ok(copies.graph)
}

/// The copied graph under construction.
#[derive(Default)]
struct Copies {
    graph: Graph,
    /// (original node, scope) → its copy.
    made: HashMap<(TypeId, Scope), TypeId>,
    /// Copies whose children are not pointed at copies yet.
    pending: Vec<(TypeId, Scope, TypeId)>,
}

impl Copies {
    /// The copy of node `id` in `scope`, made (and its children left pending) on first use.
    fn of(&mut self, id: TypeId, scope: Scope, graph: &Graph) -> TypeId {
        match self.made.entry((id, scope)) {
            Entry::Occupied(made) => *made.get(),
            Entry::Vacant(new) => {
                let copy = self.graph.add(TypeDesc::Any, &graph.origins[id.index()]);
                self.pending.push((id, new.key().1.clone(), copy));
                *new.insert(copy)
            }
        }
    }
}

//! `$dynamicRef`s resolved by dynamic scope, at load time.
//!
//! A `$dynamicRef` to anchor `N` whose initial target declares `$dynamicAnchor: N` resolves,
//! while a value is evaluated, to the `$dynamicAnchor: N` of the outermost schema resource
//! on the way from the root to the reference (the resources entered, by `$ref` or by
//! descending into a subschema with its own `$id`), or to its initial target when no
//! resource on the way declares `N`. What is on the way is a property of the path through
//! the schema, not of the value, so the loader copies each node once per *scope* it is
//! reached in (for each anchor name that such a reference resolves, the outermost
//! declaration so far) and points each copy of the reference at its scope's target. Copies
//! that turn out equal are merged with the rest by canonicalization. Schemas without such a
//! reference are not copied.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::build::Built;
use super::index::Index;
use crate::schema::model::Graph;
use crate::schema::{SchemaError, SchemaErrorKind, TypeDesc, TypeId};

/// How many copies of the raw graph the scopes may make before the load fails (a hostile
/// schema could otherwise ask for one copy per combination of resources).
pub(crate) const MAX_COPIES: usize = 16;

/// How many entries all the distinct scopes may hold together before the load fails (each
/// has one per anchor name that a reference resolves by scope).
const MAX_SCOPE_ENTRIES: usize = 1 << 20;

/// The raw graph with every `$dynamicRef` of `built` pointed at its target in each scope.
pub(super) fn resolve(index: &Index<'_>, built: Built) -> Result<Graph, SchemaError> {
    let Some((first, _)) = built.dynamic_refs.first() else {
        return Ok(built.graph);
    };
    // Placed at the first reference the scopes resolve.
    let too_many = || {
        let at = built.graph.origins[first.index()].clone();
        SchemaError::new(SchemaErrorKind::DynamicScopes, at)
    };
    let mut scopes = Scopes::new(&built);
    let limit = MAX_COPIES * built.graph.nodes.len();
    let mut copies = Copies::default();
    let root = TypeId(0);
    let scope = scopes
        .enter(index, &built, Scopes::EMPTY, root)
        .ok_or_else(too_many)?;
    copies.of(root, scope, &built.graph);
    while let Some((old, scope, new)) = copies.pending.pop() {
        let mut desc = built.graph.node(old).clone();
        if let Some(target) = scopes.target(scope, old) {
            desc = TypeDesc::AllOf(vec![target]);
        }
        let mut overflow = false;
        desc.for_each_child_mut(|child| match scopes.enter(index, &built, scope, *child) {
            Some(inner) => *child = copies.of(*child, inner, &built.graph),
            None => overflow = true,
        });
        copies.graph.nodes[new.index()] = desc;
        if overflow || copies.graph.nodes.len() > limit {
            return Err(too_many());
        }
    }
    Ok(copies.graph)
}

/// The scopes met so far, each kept once: for each anchor name that a reference resolves by
/// scope, the outermost declaration on the way (`None` before any). Only those names count,
/// so scopes that differ in other anchors are one.
struct Scopes<'b> {
    /// The names the dynamic references resolve.
    names: Vec<&'b str>,
    /// Each dynamic reference's node and the index of its name.
    references: HashMap<TypeId, usize>,
    /// The scopes by id.
    list: Vec<Vec<Option<TypeId>>>,
    ids: HashMap<Vec<Option<TypeId>>, usize>,
    /// (scope, location whose resource is entered) → the scope inside.
    entered: HashMap<(usize, usize), usize>,
}

impl<'b> Scopes<'b> {
    /// The id of the scope before the root.
    const EMPTY: usize = 0;

    fn new(built: &'b Built) -> Scopes<'b> {
        let mut names: Vec<&str> = built.dynamic_refs.iter().map(|(_, n)| n.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        let references = (built.dynamic_refs.iter())
            .map(|(id, name)| (*id, names.binary_search(&name.as_str()).unwrap_or(0)))
            .collect();
        let empty = vec![None; names.len()];
        Scopes {
            names,
            references,
            list: vec![empty.clone()],
            ids: HashMap::from([(empty, Scopes::EMPTY)]),
            entered: HashMap::new(),
        }
    }

    /// The target of node `id` in `scope` when it is a dynamic reference whose name some
    /// resource on the way declares.
    fn target(&self, scope: usize, id: TypeId) -> Option<TypeId> {
        self.list[scope][*self.references.get(&id)?]
    }

    /// `scope` after entering the resource of node `id` (its declarations of names not
    /// declared yet); `None` when the distinct scopes would hold more than
    /// [`MAX_SCOPE_ENTRIES`] entries.
    fn enter(
        &mut self,
        index: &Index<'_>,
        built: &Built,
        scope: usize,
        id: TypeId,
    ) -> Option<usize> {
        let owner = built.owners[id.index()];
        if let Some(&inner) = self.entered.get(&(scope, owner)) {
            return Some(inner);
        }
        let mut inner = self.list[scope].clone();
        for (name, anchor) in index.dynamic_anchors(&index.locations[owner].base) {
            if let Ok(k) = self.names.binary_search(&name) {
                inner[k].get_or_insert(anchor);
            }
        }
        let next = self.list.len();
        let inner = match self.ids.entry(inner) {
            Entry::Occupied(known) => *known.get(),
            Entry::Vacant(new) => {
                if (next + 1) * self.names.len() > MAX_SCOPE_ENTRIES {
                    return None;
                }
                self.list.push(new.key().clone());
                *new.insert(next)
            }
        };
        self.entered.insert((scope, owner), inner);
        Some(inner)
    }
}

/// The copied graph under construction.
#[derive(Default)]
struct Copies {
    graph: Graph,
    /// (original node, scope) → its copy.
    made: HashMap<(TypeId, usize), TypeId>,
    /// Copies whose children are not pointed at copies yet.
    pending: Vec<(TypeId, usize, TypeId)>,
}

impl Copies {
    /// The copy of node `id` in `scope`, made (and its children left pending) on first use.
    fn of(&mut self, id: TypeId, scope: usize, graph: &Graph) -> TypeId {
        match self.made.entry((id, scope)) {
            Entry::Occupied(made) => *made.get(),
            Entry::Vacant(new) => {
                let copy = self.graph.add(TypeDesc::Any, &graph.origins[id.index()]);
                self.pending.push((id, scope, copy));
                *new.insert(copy)
            }
        }
    }
}

//! [`Definitions`]: the named types met while building one type's schema, so recursive and
//! mutually recursive types become `$defs` entries referenced by name, and building stops.

use crate::schema::SchemaBuilder;
use crate::schema::builder::{TypeExpr, reference};
use crate::typed::JsonType;
use std::collections::HashMap;

/// The definitions set of one schema under construction.
///
/// A named type (one that derives [`Schema`](derive@crate::Schema)) goes through
/// [`Definitions::named`]: its body is built inline where it is used, unless the type turns
/// out to contain itself (directly or through other types), in which case the body becomes a
/// definition under the type's [`JsonType::def_name`] and every use is a reference to it. A
/// second type with a name already taken gets `NAME_2`, `NAME_3`, … in the order met.
#[derive(Debug, Default)]
pub struct Definitions {
    /// Bodies of the recursive types, in the order they were finished.
    bodies: Vec<(String, TypeExpr)>,
    /// Named types being built or defined, by `std::any::type_name`.
    types: HashMap<&'static str, Slot>,
    /// Types whose fields are being flattened (a flatten cycle has no schema).
    flattening: Vec<&'static str>,
}

/// The state of one named type.
#[derive(Debug)]
enum Slot {
    /// Its body is being built; `recursive` once the body used the type itself.
    Open { name: String, recursive: bool },
    /// A definition: every use is a reference.
    Defined(String),
}

impl Definitions {
    /// An empty set.
    pub fn new() -> Definitions {
        Definitions::default()
    }

    /// The expression of the named type `T` whose body `body` builds: the body itself, or a
    /// reference when `T` is recursive (see the type's docs).
    pub fn named<T: JsonType + ?Sized>(
        &mut self,
        body: impl FnOnce(&mut Definitions) -> TypeExpr,
    ) -> TypeExpr {
        let key = std::any::type_name::<T>();
        match self.types.get_mut(key) {
            Some(Slot::Defined(name)) => return reference(name.as_str()),
            Some(Slot::Open { name, recursive }) => {
                *recursive = true;
                return reference(name.as_str());
            }
            None => {}
        }
        let name = self.fresh_name(&T::def_name());
        let open = Slot::Open {
            name,
            recursive: false,
        };
        self.types.insert(key, open);
        let expr = body(self);
        match self.types.remove(key) {
            Some(Slot::Open {
                name,
                recursive: true,
            }) => {
                self.bodies.push((name.clone(), expr));
                self.types.insert(key, Slot::Defined(name.clone()));
                reference(name)
            }
            _ => expr,
        }
    }

    /// Runs `fields` (the flattened fields of `T`), panicking on a flatten cycle (a type that
    /// flattens itself, directly or not, has no finite set of fields; serde would overflow
    /// its stack on every input).
    pub fn flattening<T: ?Sized, R>(&mut self, fields: impl FnOnce(&mut Definitions) -> R) -> R {
        let key = std::any::type_name::<T>();
        assert!(
            !self.flattening.contains(&key),
            "#[serde(flatten)] cycle through `{key}`: a type cannot flatten itself"
        );
        self.flattening.push(key);
        let out = fields(self);
        self.flattening.pop();
        out
    }

    /// A builder holding the finished definitions.
    pub fn into_builder(self) -> SchemaBuilder {
        self.bodies
            .into_iter()
            .fold(SchemaBuilder::new(), |b, (name, body)| b.define(name, body))
    }

    /// `base`, or `base_N` for the first N ≥ 2 no other named type uses.
    fn fresh_name(&self, base: &str) -> String {
        let taken = |name: &str| {
            self.types.values().any(|slot| match slot {
                Slot::Open { name: n, .. } | Slot::Defined(n) => n == name,
            })
        };
        if !taken(base) {
            return base.to_owned();
        }
        (2..)
            .map(|n| format!("{base}_{n}"))
            .find(|name| !taken(name))
            .unwrap_or_default()
    }
}

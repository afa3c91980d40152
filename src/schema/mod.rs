//! Schemas: the model, its loaders, its canonical form and key, and the reference validator.
//!
//! - [`Schema`] is an arena of [`TypeDesc`] nodes linked by [`TypeId`]; recursive schemas are
//!   cycles of ids. It is always in canonical form, so equal schemas are `==`.
//! - Loaders: [`Schema::from_json_str`] (JSON Schema draft 2020-12; any keyword the engine does
//!   not implement is a [`SchemaError`] naming it and its JSON Pointer) and the [`builder`].
//! - [`TypeKey::of`] hashes a schema and codegen options to a stable 128-bit key.
//! - [`Schema::validate_value`] checks a `serde_json::Value`: the semantic oracle every backend
//!   must agree with.
//!
//! # The model
//!
//! A JSON Schema keyword only constrains values of its own kind: `{"minimum": 5}` accepts
//! `"foo"`. So a schema object is loaded as the conjunction of its parts:
//!
//! - the *typed part*, from `type` and the per-kind keywords: a [`TypeDesc::Kinds`] node with
//!   one branch per allowed JSON kind (a `Number` or `Integer` node for numbers, a `String`
//!   node for strings, …), which canonicalization collapses to the single typed node when only
//!   one kind is allowed (`{"type": "integer"}` is just `Integer`), to `Nullable` for a kind
//!   plus `null`, and to `Any` when nothing is constrained;
//! - `const` / `enum` ([`TypeDesc::Enum`]), `$ref` (the target node itself), `allOf` parts,
//!   an `anyOf` / `oneOf` node, a `not` node, and `if`/`then`/`else` as a
//!   [`TypeDesc::Conditional`] (the condition tried once, then the outcome it picks; an
//!   absent `then` or `else` is `Any`);
//!
//! and the node is [`TypeDesc::AllOf`] of those parts, simplified (see `canon`): one part is
//! that part, an `enum` absorbs the other parts (values they reject are removed), and parts
//! that agree on one JSON kind narrow their per-kind unions to it. The first part of an `AllOf`
//! gives the decoded shape; the others only check.
//!
//! Object fields may have aliases (serde's `alias`: more names decode reads the field under;
//! only the builder and the derive make them): one field, one slot, one presence bit.
//!
//! A backend therefore sees typed nodes for typed schemas (the fast path) and dispatches on
//! the first byte of the value for `Kinds` and `Nullable`; only `AnyOf` / `OneOf` (with a
//! [`Discriminator`] fast path when one property's value picks the branch), `AllOf`, `Not`
//! and `Conditional` need general machinery.
//!
//! # Canonical form
//!
//! Every schema, loaded or built, goes through the same pipeline: reject reference cycles that
//! never reach a value (`{"$ref": "#"}`); simplify nodes to a fixpoint; merge structurally
//! identical nodes (bisimilar, so recursion unrolled differently is still one schema); number
//! the nodes depth first from the root, dropping unreachable definitions; find discriminators.
//! Field order and `enum` order are part of the form (encode writes them in that order);
//! `type` order, number spelling (`1.0` is `1`), fractional integer bounds (`minimum: 5.5`
//! is `minimum: 6`; exclusive bounds stay exclusive) and annotations other than `format` and
//! field `default`s are not.

pub mod builder;
mod canon;
mod doc;
mod encode;
mod error;
mod format;
mod key;
mod kind;
mod load;
mod model;
pub(crate) mod num;
mod pattern;
pub(crate) mod pointer;
pub(crate) mod uri;
mod validate;
pub(crate) mod value;
#[cfg(feature = "yaml")]
mod yaml;

pub use builder::{ArrayExpr, ObjectExpr, SchemaBuilder, TypeExpr};
pub use error::{SchemaError, SchemaErrorKind};
pub use format::Format;
pub use key::TypeKey;
pub use kind::{Kind, KindSet};
pub use load::{DRAFT_2020_12, Loader, OPENAPI_3_0, OPENAPI_3_1};
pub use model::{
    ArrayDesc, Bound, ConditionalDesc, ConditionalForm, ContainsDesc, Discriminator, Field,
    IntegerDesc, KindBranches, MemberRules, NumberDesc, ObjectDesc, PatternProperty, Schema,
    StringDesc, TypeDesc, TypeId, UnionDesc, UnknownFields,
};
pub use num::Num;
pub use pattern::Pattern;
pub use validate::{PathSegment, ValidationError, ValidationErrorKind};

//! Schemas: the model, its loaders, its canonical form and key, and the reference validator.
//!
//! - [`Schema`] is an arena of [`TypeDesc`] nodes linked by [`TypeId`]; recursive schemas are
//!   cycles of ids. It is always in canonical form, so equal schemas are `==`.
//! - Loaders: [`Schema::from_json_str`] (JSON Schema draft 2020-12; any keyword the engine does
//!   not implement is a [`SchemaError`] naming it and its JSON Pointer) and the [`builder`].
//! - [`TypeKey::of`] hashes a schema and codegen options to a stable 128-bit key.
//! - [`Schema::validate_value`] checks a `serde_json::Value`: the semantic oracle every backend
//!   must agree with.

pub mod builder;
mod canon;
mod doc;
mod encode;
mod error;
mod key;
mod kind;
mod load;
mod model;
mod num;
mod pattern;
mod pointer;
mod uri;
mod validate;
mod value;

pub use builder::{ArrayExpr, ObjectExpr, SchemaBuilder, TypeExpr};
pub use error::{SchemaError, SchemaErrorKind};
pub use key::TypeKey;
pub use kind::{Kind, KindSet};
pub use model::{
    ArrayDesc, Bound, Discriminator, Field, IntegerDesc, KindBranches, NumberDesc, ObjectDesc,
    Schema, StringDesc, TypeDesc, TypeId, UnionDesc, UnknownFields,
};
pub use num::Num;
pub use pattern::Pattern;
pub use validate::{PathSegment, ValidationError, ValidationErrorKind};

//! Paths into decoded documents: JSON Pointers parsed once, with named fields resolved to
//! their index in the schema's layout when the schema says which object they are in.

use std::fmt;

use jitson_jit::layout::{Layout, Shape, ShapeId};
use jitson_jit::view::{Node, View};

use crate::json_pointer::{self, tokens};

/// A JSON Pointer compiled against a codec's layout (see
/// [`Codec::compile_path`](crate::Codec::compile_path)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocPath {
    steps: Vec<Step>,
}

/// One reference token.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Step {
    /// The token (a member name or an index).
    token: String,
    /// The token as an array index.
    index: Option<usize>,
    /// The object shape the schema puts here and the token's field in it.
    field: Option<(ShapeId, usize)>,
}

/// Why a JSON Pointer was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathError {
    /// Not a JSON Pointer: it does not start with `/`, or has a `~` other than `~0` / `~1`.
    Syntax {
        /// The pointer.
        pointer: String,
    },
    /// More pointers than a list holds.
    TooMany {
        /// The limit.
        max: usize,
    },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::Syntax { pointer } => write!(f, "invalid JSON Pointer {pointer:?}"),
            PathError::TooMany { max } => write!(f, "more than {max} pointers"),
        }
    }
}

impl std::error::Error for PathError {}

impl DocPath {
    /// A path with no schema knowledge: every member is looked up by name.
    pub(crate) fn parse(pointer: &str) -> Result<DocPath, PathError> {
        let tokens = tokens(pointer).ok_or_else(|| PathError::Syntax {
            pointer: pointer.to_owned(),
        })?;
        let steps = tokens
            .into_iter()
            .map(|token| Step {
                index: json_pointer::index(&token),
                token,
                field: None,
            })
            .collect();
        Ok(DocPath { steps })
    }

    /// A path whose named fields are resolved against `layout`, starting at shape `root`.
    pub(crate) fn compile(
        pointer: &str,
        layout: &Layout,
        root: ShapeId,
    ) -> Result<DocPath, PathError> {
        let mut path = DocPath::parse(pointer)?;
        let mut shape = Some(root);
        for step in &mut path.steps {
            let Some(here) = shape.map(|s| concrete(layout, s)) else {
                break;
            };
            shape = match &layout.shape(here).shape {
                Shape::Object {
                    names,
                    fields,
                    extra,
                    ..
                } => match names.iter().position(|n| **n == *step.token) {
                    Some(i) => {
                        step.field = Some((here, i));
                        Some(fields[i].0)
                    }
                    None => Some(*extra),
                },
                Shape::Array { prefix, items, .. } => {
                    step.index.map(|i| prefix.get(i).copied().unwrap_or(*items))
                }
                _ => None,
            };
        }
        Ok(DocPath { steps: path.steps })
    }

    /// The value the path leads to from `view`.
    pub(crate) fn find<'d>(&self, mut view: View<'d>) -> Option<View<'d>> {
        for step in &self.steps {
            view = match view.node() {
                Node::Object(members) => match step.field {
                    Some((shape, i)) if view.shape() == shape => members.field(i)?,
                    _ => members.get(&step.token)?,
                },
                Node::Array(items) => items.get(step.index?)?,
                _ => return None,
            };
        }
        Some(view)
    }
}

/// The shape behind aliases, when it is not a union (whose branch only the data tells).
fn concrete(layout: &Layout, mut shape: ShapeId) -> ShapeId {
    while let Shape::Alias(inner) = layout.shape(shape).shape {
        shape = inner;
    }
    shape
}

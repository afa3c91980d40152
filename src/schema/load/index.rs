//! Loader pass 1: find every subschema of the document, its base URI, and the targets `$ref`
//! can name (`$id` resources, `$anchor`s); reject every keyword the engine does not implement.

use crate::schema::doc::Doc;
use crate::schema::{SchemaError, SchemaErrorKind, TypeId, pointer, uri};
use std::collections::HashMap;

/// The JSON Schema dialect this loader implements (`$schema`, with or without the empty
/// fragment).
const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// What a keyword's value is, for pass 1.
#[derive(Clone, Copy)]
enum Role {
    /// An annotation whose value must have this JSON shape; otherwise ignored.
    Annotation(Shape),
    /// An assertion or `$ref`, read by pass 2.
    Assertion,
    /// A single subschema.
    Subschema,
    /// An object whose member values are subschemas.
    SubschemaMap,
    /// A non-empty array of subschemas.
    SubschemaList,
    /// `$schema`, `$id`, `$anchor`: read here.
    Identity,
}

/// The JSON shape an annotation's value must have.
#[derive(Clone, Copy)]
enum Shape {
    Any,
    String,
    Boolean,
    Array,
}

/// The role of every keyword the engine implements; `None` for the rest.
fn role(keyword: &str) -> Option<Role> {
    Some(match keyword {
        "$schema" | "$id" | "$anchor" => Role::Identity,
        "$comment" | "title" | "description" | "format" | "contentMediaType"
        | "contentEncoding" => Role::Annotation(Shape::String),
        "deprecated" | "readOnly" | "writeOnly" => Role::Annotation(Shape::Boolean),
        "examples" => Role::Annotation(Shape::Array),
        "default" => Role::Annotation(Shape::Any),
        "$ref" | "type" | "enum" | "const" | "minimum" | "maximum" | "exclusiveMinimum"
        | "exclusiveMaximum" | "multipleOf" | "minLength" | "maxLength" | "pattern"
        | "minItems" | "maxItems" | "uniqueItems" | "minContains" | "maxContains" | "required"
        | "minProperties" | "maxProperties" | "dependentRequired" => Role::Assertion,
        "items"
        | "contains"
        | "additionalProperties"
        | "propertyNames"
        | "unevaluatedProperties"
        | "unevaluatedItems"
        | "not"
        | "if"
        | "then"
        | "else" => Role::Subschema,
        "properties" | "patternProperties" | "dependentSchemas" | "$defs" | "definitions" => {
            Role::SubschemaMap
        }
        "prefixItems" | "allOf" | "anyOf" | "oneOf" => Role::SubschemaList,
        _ => return None,
    })
}

/// A subschema: where it is, what it is, and the base URI its references resolve against.
pub(crate) struct Location<'d> {
    /// JSON Pointer from the document root.
    pub(crate) pointer: String,
    /// The subschema itself.
    pub(crate) schema: LocationSchema<'d>,
    /// Base URI for `$ref` (after this subschema's own `$id`).
    pub(crate) base: String,
}

/// A subschema's two possible forms.
pub(crate) enum LocationSchema<'d> {
    /// `true` / `false`.
    Bool(bool),
    /// A schema object's members.
    Object(&'d [(String, Doc)]),
}

/// Every subschema of a document, with the names `$ref` can use for them.
pub(crate) struct Index<'d> {
    /// Subschemas in document order; a location's position is its node's `TypeId`.
    pub(crate) locations: Vec<Location<'d>>,
    by_pointer: HashMap<String, usize>,
    /// Absolute URI (no fragment) of each resource → its root's pointer.
    resources: HashMap<String, String>,
    /// `URI#anchor` → pointer.
    anchors: HashMap<String, String>,
}

impl<'d> Index<'d> {
    /// Indexes the document rooted at `root`.
    pub(crate) fn build(root: &'d Doc) -> Result<Index<'d>, SchemaError> {
        let mut index = Index {
            locations: Vec::new(),
            by_pointer: HashMap::new(),
            resources: HashMap::new(),
            anchors: HashMap::new(),
        };
        index.walk(root, String::new(), "")?;
        Ok(index)
    }

    /// The node of the subschema at `pointer`, which pass 1 found.
    pub(crate) fn id(&self, pointer: &str) -> TypeId {
        // Pass 2 only asks for pointers of subschemas it reads from keywords pass 1 walked.
        TypeId(self.by_pointer[pointer] as u32)
    }

    /// The node a `$ref` names, resolved against `base`; `None` when it is not a subschema of
    /// this document.
    pub(crate) fn resolve_ref(&self, base: &str, reference: &str) -> Option<TypeId> {
        let target = uri::resolve(base, reference);
        let (resource, fragment) = uri::split_fragment(&target);
        let root = self.resources.get(resource)?;
        let at = match fragment {
            None | Some("") => root.clone(),
            Some(f) if f.starts_with('/') => format!("{root}{}", pointer::from_fragment(f)?),
            Some(_) => self.anchors.get(&target)?.clone(),
        };
        self.by_pointer.get(&at).map(|&i| TypeId(i as u32))
    }

    fn walk(&mut self, doc: &'d Doc, at: String, parent_base: &str) -> Result<(), SchemaError> {
        let members = match doc {
            Doc::Bool(b) => {
                self.add(at, LocationSchema::Bool(*b), parent_base.to_owned());
                return Ok(());
            }
            Doc::Object(members) => members,
            _ => return Err(SchemaError::new(SchemaErrorKind::NotASchema, at)),
        };
        let base = self.identify(doc, &at, parent_base)?;
        self.add(at.clone(), LocationSchema::Object(members), base.clone());
        for (keyword, value) in members {
            let here = pointer::push(&at, keyword);
            let Some(role) = role(keyword) else {
                let kind = SchemaErrorKind::UnsupportedKeyword(keyword.clone());
                return Err(SchemaError::new(kind, here));
            };
            match (role, value) {
                (Role::Identity | Role::Assertion, _) => {}
                (Role::Annotation(shape), _) => check_shape(keyword, value, shape, here)?,
                (Role::Subschema, _) => self.walk(value, here, &base)?,
                (Role::SubschemaMap, Doc::Object(subs)) => {
                    for (name, sub) in subs {
                        self.walk(sub, pointer::push(&here, name), &base)?;
                    }
                }
                (Role::SubschemaList, Doc::Array(subs)) if !subs.is_empty() => {
                    for (i, sub) in subs.iter().enumerate() {
                        self.walk(sub, pointer::push(&here, &i.to_string()), &base)?;
                    }
                }
                (Role::SubschemaMap, _) => {
                    return Err(invalid(keyword, "an object of schemas", here));
                }
                (Role::SubschemaList, _) => {
                    return Err(invalid(keyword, "a non-empty array of schemas", here));
                }
            }
        }
        Ok(())
    }

    fn add(&mut self, at: String, schema: LocationSchema<'d>, base: String) {
        self.by_pointer.insert(at.clone(), self.locations.len());
        self.locations.push(Location {
            pointer: at,
            schema,
            base,
        });
    }

    /// Reads `$schema`, `$id` and `$anchor` of the schema object at `at`; returns its base URI.
    fn identify(&mut self, doc: &Doc, at: &str, parent_base: &str) -> Result<String, SchemaError> {
        if let Some(dialect) = doc.get("$schema") {
            let here = pointer::push(at, "$schema");
            let Doc::String(uri) = dialect else {
                return Err(invalid("$schema", "a string", here));
            };
            if uri.strip_suffix('#').unwrap_or(uri) != DIALECT {
                return Err(SchemaError::new(
                    SchemaErrorKind::UnsupportedDialect(uri.clone()),
                    here,
                ));
            }
        }
        let mut base = parent_base.to_owned();
        if let Some(id) = doc.get("$id") {
            let here = pointer::push(at, "$id");
            let Doc::String(id) = id else {
                return Err(invalid("$id", "a URI without a fragment", here));
            };
            let resolved = uri::resolve(parent_base, id);
            let (resource, fragment) = uri::split_fragment(&resolved);
            if fragment.is_some_and(|f| !f.is_empty()) {
                return Err(invalid("$id", "a URI without a fragment", here));
            }
            base = resource.to_owned();
            self.define(Name::Resource, base.clone(), at, here)?;
        } else if at.is_empty() {
            self.define(Name::Resource, base.clone(), at, String::new())?;
        }
        if let Some(anchor) = doc.get("$anchor") {
            let here = pointer::push(at, "$anchor");
            match anchor {
                Doc::String(name) if is_anchor(name) => {
                    self.define(Name::Anchor, format!("{base}#{name}"), at, here)?;
                }
                _ => return Err(invalid("$anchor", "a plain-name fragment", here)),
            }
        }
        Ok(base)
    }

    /// Records that `name` designates the schema at `at`; `here` is where the name is written.
    fn define(
        &mut self,
        table: Name,
        name: String,
        at: &str,
        here: String,
    ) -> Result<(), SchemaError> {
        let map = match table {
            Name::Resource => &mut self.resources,
            Name::Anchor => &mut self.anchors,
        };
        if map.contains_key(&name) {
            return Err(SchemaError::new(SchemaErrorKind::DuplicateId(name), here));
        }
        map.insert(name, at.to_owned());
        Ok(())
    }
}

/// Which name table a definition goes to.
#[derive(Clone, Copy)]
enum Name {
    Resource,
    Anchor,
}

/// An `InvalidValue` error.
pub(crate) fn invalid(keyword: &str, expected: &'static str, at: String) -> SchemaError {
    let kind = SchemaErrorKind::InvalidValue {
        keyword: keyword.to_owned(),
        expected,
    };
    SchemaError::new(kind, at)
}

/// Checks an annotation's value shape.
fn check_shape(keyword: &str, value: &Doc, shape: Shape, at: String) -> Result<(), SchemaError> {
    match (shape, value) {
        (Shape::Any, _) | (Shape::String, Doc::String(_)) | (Shape::Boolean, Doc::Bool(_)) => {
            Ok(())
        }
        (Shape::Array, Doc::Array(_)) => Ok(()),
        (Shape::String, _) => Err(invalid(keyword, "a string", at)),
        (Shape::Boolean, _) => Err(invalid(keyword, "a boolean", at)),
        (Shape::Array, _) => Err(invalid(keyword, "an array", at)),
    }
}

/// `$anchor` syntax: a letter or `_`, then letters, digits, `-`, `_`, `.`.
fn is_anchor(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

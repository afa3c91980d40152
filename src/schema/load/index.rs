//! Loader pass 1: find every subschema of the document and of the documents its references
//! name (a [`Loader`](super::Loader)'s), its base URI, and the targets `$ref` and
//! `$dynamicRef` can name (`$id` resources, `$anchor`s, `$dynamicAnchor`s); reject every
//! keyword the engine does not implement.

use super::loader::{AnnotationKeywords, Documents};
use super::meta::{self, DRAFT_2020_12};
use crate::schema::doc::{Doc, member};
use crate::schema::{SchemaError, SchemaErrorKind, TypeId, pointer, uri};
use std::collections::HashMap;

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
    /// `dependencies` (draft 7, kept for compatibility): an object whose members are
    /// subschemas (as `dependentSchemas`) or arrays of names (as `dependentRequired`).
    Dependencies,
    /// `$schema`, `$id`, `$anchor`, `$dynamicAnchor`: read here.
    Identity,
}

/// The JSON shape an annotation's value must have.
#[derive(Clone, Copy)]
enum Shape {
    Any,
    String,
    Boolean,
    Array,
    /// `$vocabulary`: an object of booleans. It declares what the schemas a meta-schema
    /// describes may use, and asserts nothing about the instances the meta-schema itself
    /// validates; a dialect other than draft 2020-12 is refused at `$schema`.
    Vocabularies,
}

/// The role of every keyword the engine implements; `None` for the rest.
fn role(keyword: &str) -> Option<Role> {
    Some(match keyword {
        "$schema" | "$id" | "$anchor" | "$dynamicAnchor" => Role::Identity,
        "$comment" | "title" | "description" | "format" | "contentMediaType"
        | "contentEncoding" => Role::Annotation(Shape::String),
        "deprecated" | "readOnly" | "writeOnly" => Role::Annotation(Shape::Boolean),
        "$vocabulary" => Role::Annotation(Shape::Vocabularies),
        "examples" => Role::Annotation(Shape::Array),
        "default" => Role::Annotation(Shape::Any),
        "$ref" | "$dynamicRef" | "type" | "enum" | "const" | "minimum" | "maximum"
        | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" | "minLength" | "maxLength"
        | "pattern" | "minItems" | "maxItems" | "uniqueItems" | "minContains" | "maxContains"
        | "required" | "minProperties" | "maxProperties" | "dependentRequired" => Role::Assertion,
        "items"
        | "contains"
        | "additionalProperties"
        | "propertyNames"
        | "unevaluatedProperties"
        | "unevaluatedItems"
        | "not"
        | "contentSchema"
        | "if"
        | "then"
        | "else" => Role::Subschema,
        "properties" | "patternProperties" | "dependentSchemas" | "$defs" | "definitions" => {
            Role::SubschemaMap
        }
        "prefixItems" | "allOf" | "anyOf" | "oneOf" => Role::SubschemaList,
        "dependencies" => Role::Dependencies,
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
    /// `URI#anchor` → pointer (`$anchor`s and `$dynamicAnchor`s).
    anchors: HashMap<String, String>,
    /// Absolute URI (no fragment) of each resource that has `$dynamicAnchor`s → their names
    /// and pointers, in document order.
    dynamic_anchors: HashMap<String, Vec<(String, String)>>,
    /// The URIs of the loader's documents indexed (not the built-in ones), in the order read.
    pub(crate) documents_read: Vec<String>,
    /// Keywords the loader takes as annotations beyond the draft's.
    annotations: &'d AnnotationKeywords,
}

/// What a `$dynamicRef` names: the subschema it resolves to as a `$ref` would, and the
/// anchor name that the dynamic scope resolves instead when it can change the answer.
pub(crate) struct DynamicTarget {
    /// The subschema the reference names on its own.
    pub(crate) initial: TypeId,
    /// The `$dynamicAnchor` name the dynamic scope resolves: `Some` when the fragment is a
    /// plain name, the initial target declares it as its `$dynamicAnchor` (the "bookend"),
    /// and another resource declares it too (so the outermost such resource in scope may be
    /// another target). `None`: the initial target is the target.
    pub(crate) anchor: Option<String>,
}

impl<'d> Index<'d> {
    /// Indexes the document rooted at `root`, then each of the `documents` (or of the
    /// built-in meta-schemas, when `documents` has none by that name) that a `$ref` of a
    /// document indexed names, until none is new.
    pub(crate) fn build(
        root: &'d Doc,
        documents: &'d Documents,
        annotations: &'d AnnotationKeywords,
    ) -> Result<Index<'d>, SchemaError> {
        let mut index = Index {
            locations: Vec::new(),
            by_pointer: HashMap::new(),
            resources: HashMap::new(),
            anchors: HashMap::new(),
            dynamic_anchors: HashMap::new(),
            documents_read: Vec::new(),
            annotations,
        };
        index.walk(root, String::new(), "")?;
        let mut next = 0;
        while let Some(location) = index.locations.get(next) {
            next += 1;
            let LocationSchema::Object(members) = location.schema else {
                continue;
            };
            let base = location.base.clone();
            for keyword in ["$ref", "$dynamicRef"] {
                let Some(Doc::String(reference)) = member(members, keyword) else {
                    continue;
                };
                let target = uri::resolve(&base, reference);
                let (resource, _) = uri::split_fragment(&target);
                // A document read is a resource under every name it is known by, so it is
                // read once.
                if index.resources.contains_key(resource) {
                    continue;
                }
                let given = documents.named(resource).map(|k| &documents.list[k]);
                let Some((uri, doc)) = given.or_else(|| meta::named(resource)) else {
                    continue;
                };
                index.add_document(uri, doc)?;
                if given.is_some() {
                    index.documents_read.push(uri.clone());
                }
            }
        }
        Ok(index)
    }

    /// Indexes the document `doc` given under `uri`: its pointers start with `uri#`, its
    /// base URI is `uri` (or its `$id`), and `$ref`s may name it by `uri`.
    fn add_document(&mut self, uri: &str, doc: &'d Doc) -> Result<(), SchemaError> {
        let at = format!("{uri}#");
        self.walk(doc, at.clone(), uri)?;
        // A document whose `$id` is the URI it was given under is already named by it.
        self.resources.entry(uri.to_owned()).or_insert(at);
        Ok(())
    }

    /// The node of the subschema at `pointer`, which pass 1 found.
    pub(crate) fn id(&self, pointer: &str) -> TypeId {
        // Pass 2 only asks for pointers of subschemas it reads from keywords pass 1 walked.
        TypeId(self.by_pointer[pointer] as u32)
    }

    /// The node a `$ref` names, resolved against `base`; `None` when it is not a subschema of
    /// this document.
    pub(crate) fn resolve_ref(&self, base: &str, reference: &str) -> Option<TypeId> {
        self.target(&uri::resolve(base, reference))
    }

    /// The node the resolved URI `target` names; `None` when it is not a subschema of this
    /// document.
    fn target(&self, target: &str) -> Option<TypeId> {
        let (resource, fragment) = uri::split_fragment(target);
        let root = self.resources.get(resource)?;
        let at = match fragment {
            None | Some("") => root.clone(),
            Some(f) if f.starts_with('/') => format!("{root}{}", pointer::from_fragment(f)?),
            Some(_) => self.anchors.get(target)?.clone(),
        };
        self.by_pointer.get(&at).map(|&i| TypeId(i as u32))
    }

    /// What a `$dynamicRef` resolved against `base` names; `None` when its initial target
    /// is not a subschema of this document.
    pub(crate) fn resolve_dynamic_ref(&self, base: &str, reference: &str) -> Option<DynamicTarget> {
        let target = uri::resolve(base, reference);
        let initial = self.target(&target)?;
        let (resource, fragment) = uri::split_fragment(&target);
        let initial_pointer = &self.locations[initial.index()].pointer;
        let declares = |resource: &str, name: &str| {
            (self.dynamic_anchors.get(resource))
                .is_some_and(|list| list.iter().any(|(n, p)| n == name && p == initial_pointer))
        };
        let anchor = fragment
            .filter(|name| is_anchor(name) && declares(resource, name))
            .filter(|name| {
                let declared = |list: &Vec<(String, String)>| list.iter().any(|(n, _)| n == name);
                self.dynamic_anchors
                    .values()
                    .filter(|l| declared(l))
                    .count()
                    > 1
            })
            .map(str::to_owned);
        Some(DynamicTarget { initial, anchor })
    }

    /// The `$dynamicAnchor`s of the resource whose base URI is `resource`: their names and
    /// nodes, in document order.
    pub(crate) fn dynamic_anchors(&self, resource: &str) -> impl Iterator<Item = (&str, TypeId)> {
        let list = self
            .dynamic_anchors
            .get(resource)
            .map_or(&[][..], Vec::as_slice);
        list.iter().map(|(name, at)| (name.as_str(), self.id(at)))
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
            let role = match role(keyword) {
                Some(role) => role,
                None if self.annotations.take(keyword) => Role::Annotation(Shape::Any),
                None => {
                    let kind = SchemaErrorKind::UnsupportedKeyword(keyword.clone());
                    return Err(SchemaError::new(kind, here));
                }
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
                (Role::Dependencies, Doc::Object(subs)) => {
                    for (name, sub) in subs.iter().filter(|(_, s)| !matches!(s, Doc::Array(_))) {
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
                (Role::Dependencies, _) => {
                    let expected = "an object of schemas and arrays of unique strings";
                    return Err(invalid(keyword, expected, here));
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

    /// Reads `$schema`, `$id`, `$anchor` and `$dynamicAnchor` of the schema object at `at`;
    /// returns its base URI.
    fn identify(&mut self, doc: &Doc, at: &str, parent_base: &str) -> Result<String, SchemaError> {
        if let Some(dialect) = doc.get("$schema") {
            let here = pointer::push(at, "$schema");
            let Doc::String(uri) = dialect else {
                return Err(invalid("$schema", "a string", here));
            };
            if uri.strip_suffix('#').unwrap_or(uri) != DRAFT_2020_12 {
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
        for keyword in ["$anchor", "$dynamicAnchor"] {
            let Some(anchor) = doc.get(keyword) else {
                continue;
            };
            let here = pointer::push(at, keyword);
            let Doc::String(name) = anchor else {
                return Err(invalid(keyword, "a plain-name fragment", here));
            };
            if !is_anchor(name) {
                return Err(invalid(keyword, "a plain-name fragment", here));
            }
            self.define(Name::Anchor, format!("{base}#{name}"), at, here)?;
            if keyword == "$dynamicAnchor" {
                let list = self.dynamic_anchors.entry(base.clone()).or_default();
                list.push((name.clone(), at.to_owned()));
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
        (Shape::Vocabularies, Doc::Object(members))
            if members.iter().all(|(_, v)| matches!(v, Doc::Bool(_))) =>
        {
            Ok(())
        }
        (Shape::String, _) => Err(invalid(keyword, "a string", at)),
        (Shape::Boolean, _) => Err(invalid(keyword, "a boolean", at)),
        (Shape::Array, _) => Err(invalid(keyword, "an array", at)),
        (Shape::Vocabularies, _) => Err(invalid(keyword, "an object of booleans", at)),
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

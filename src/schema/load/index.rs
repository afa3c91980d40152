//! Loader pass 1: find every subschema of the document and of the documents its references
//! name (a [`Loader`](super::Loader)'s), its base URI, and the targets `$ref` and
//! `$dynamicRef` can name (`$id` resources, `$anchor`s, `$dynamicAnchor`s); reject every
//! keyword the engine does not implement.

use super::dialect::{Dialect, Dialects, Vocabulary};
use super::loader::{Documents, Settings};
use super::meta;
use super::openapi_3_0;
use crate::schema::doc::{Doc, member};
use crate::schema::{SchemaError, SchemaErrorKind, TypeId, pointer, uri};
use std::borrow::Cow;
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
    Object,
    /// `$vocabulary`: an object of booleans. It declares what the schemas a meta-schema
    /// describes may use, and asserts nothing about the instances the meta-schema itself
    /// validates.
    Vocabularies,
}

/// The vocabulary and role of every keyword the engine implements; `None` for the rest.
fn keyword(name: &str) -> Option<(Vocabulary, Role)> {
    use Vocabulary::{
        Applicator, Content, Core, FormatAnnotation, MetaData, OpenApi, Unevaluated, Validation,
    };
    Some(match name {
        "$schema" | "$id" | "$anchor" | "$dynamicAnchor" => (Core, Role::Identity),
        "$comment" => (Core, Role::Annotation(Shape::String)),
        "$vocabulary" => (Core, Role::Annotation(Shape::Vocabularies)),
        "$ref" | "$dynamicRef" => (Core, Role::Assertion),
        "$defs" | "definitions" => (Core, Role::SubschemaMap),
        "title" | "description" => (MetaData, Role::Annotation(Shape::String)),
        "deprecated" | "readOnly" | "writeOnly" => (MetaData, Role::Annotation(Shape::Boolean)),
        "examples" => (MetaData, Role::Annotation(Shape::Array)),
        "default" => (MetaData, Role::Annotation(Shape::Any)),
        "format" => (FormatAnnotation, Role::Annotation(Shape::String)),
        "contentMediaType" | "contentEncoding" => (Content, Role::Annotation(Shape::String)),
        "contentSchema" => (Content, Role::Subschema),
        "type" | "enum" | "const" | "minimum" | "maximum" | "exclusiveMinimum"
        | "exclusiveMaximum" | "multipleOf" | "minLength" | "maxLength" | "pattern"
        | "minItems" | "maxItems" | "uniqueItems" | "minContains" | "maxContains" | "required"
        | "minProperties" | "maxProperties" | "dependentRequired" => (Validation, Role::Assertion),
        "items"
        | "contains"
        | "additionalProperties"
        | "propertyNames"
        | "not"
        | "if"
        | "then"
        | "else" => (Applicator, Role::Subschema),
        "properties" | "patternProperties" | "dependentSchemas" => (Applicator, Role::SubschemaMap),
        "prefixItems" | "allOf" | "anyOf" | "oneOf" => (Applicator, Role::SubschemaList),
        "dependencies" => (Applicator, Role::Dependencies),
        "unevaluatedProperties" | "unevaluatedItems" => (Unevaluated, Role::Subschema),
        "discriminator" | "xml" | "externalDocs" => (OpenApi, Role::Annotation(Shape::Object)),
        "example" => (OpenApi, Role::Annotation(Shape::Any)),
        _ => return None,
    })
}

/// Whether `name` is a keyword of a draft vocabulary that `dialect` does not use: an
/// annotation there, left out of the members pass 2 reads. (A keyword of OpenAPI's
/// vocabulary outside its dialect is as unknown as any other.)
fn unused(dialect: Dialect, name: &str) -> bool {
    keyword(name).is_some_and(|(v, _)| !dialect.means(v) && v != Vocabulary::OpenApi)
}

/// A subschema: where it is, what it is, and the base URI its references resolve against.
pub(crate) struct Location<'d> {
    /// JSON Pointer from the document root.
    pub(crate) pointer: String,
    /// The subschema itself.
    pub(crate) schema: LocationSchema<'d>,
    /// Base URI for `$ref` (after this subschema's own `$id`).
    pub(crate) base: String,
    /// The vocabularies it uses (after this subschema's own `$schema`).
    pub(crate) dialect: Dialect,
}

/// A subschema's two possible forms.
pub(crate) enum LocationSchema<'d> {
    /// `true` / `false`.
    Bool(bool),
    /// A schema object's members, but those of vocabularies its dialect does not use.
    Object(Cow<'d, [(String, Doc)]>),
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
    /// How the loader reads schemas.
    settings: &'d Settings,
    /// The dialects `$schema`s named.
    dialects: Dialects<'d>,
    /// The dialect of a document that names none.
    default_dialect: Dialect,
    /// The URIs of the containers of schemas a reference read from, with their schemas'
    /// dialect.
    containers_read: Vec<(String, Dialect)>,
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
    /// document indexed names, until none is new; reads them as `settings` say.
    pub(crate) fn build(
        root: &'d Doc,
        documents: &'d Documents,
        settings: &'d Settings,
    ) -> Result<Index<'d>, SchemaError> {
        let mut dialects = Dialects::new(documents);
        let mut documents_read = Vec::new();
        let default_dialect = match &settings.dialect {
            None => Dialect::DRAFT_2020_12,
            Some(uri) => (dialects.named(uri, &mut documents_read))
                .map_err(|kind| SchemaError::new(kind, String::new()))?,
        };
        let mut index = Index {
            locations: Vec::new(),
            by_pointer: HashMap::new(),
            resources: HashMap::new(),
            anchors: HashMap::new(),
            dynamic_anchors: HashMap::new(),
            documents_read,
            settings,
            dialects,
            default_dialect,
            containers_read: Vec::new(),
        };
        index.walk(root, String::new(), "", default_dialect)?;
        let mut next = 0;
        while let Some(location) = index.locations.get(next) {
            next += 1;
            let LocationSchema::Object(members) = &location.schema else {
                continue;
            };
            let targets: Vec<String> = (["$ref", "$dynamicRef"].into_iter())
                .filter_map(|keyword| match member(members, keyword) {
                    Some(Doc::String(reference)) => Some(uri::resolve(&location.base, reference)),
                    _ => None,
                })
                .collect();
            for target in targets {
                let (resource, fragment) = uri::split_fragment(&target);
                if let Some((uri, doc)) = (documents.container(resource)).filter(|_| {
                    index.read_container(resource) || !index.resources.contains_key(resource)
                }) {
                    index.add_contained(uri, doc, fragment)?;
                    continue;
                }
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
        self.walk(doc, at.clone(), uri, self.default_dialect)?;
        // A document whose `$id` is the URI it was given under is already named by it.
        self.resources.entry(uri.to_owned()).or_insert(at);
        Ok(())
    }

    /// Indexes the schema that the URI fragment `fragment` names in the container `doc`
    /// given under `uri` (see [`Loader::container_json`](super::Loader::container_json)),
    /// unless it is indexed already; a fragment that names no value, or that is no JSON
    /// Pointer, is left for pass 2 to find unresolved.
    fn add_contained(
        &mut self,
        uri: &str,
        doc: &'d Doc,
        fragment: Option<&str>,
    ) -> Result<(), SchemaError> {
        let dialect = match self.containers_read.iter().find(|(read, _)| read == uri) {
            Some(&(_, dialect)) => dialect,
            None => {
                let read = &mut self.documents_read;
                let dialect = (self.dialects).of_container(uri, doc, self.default_dialect, read)?;
                self.containers_read.push((uri.to_owned(), dialect));
                self.documents_read.push(uri.to_owned());
                // Pointers into it resolve against its root, which is no schema itself.
                self.resources.insert(uri.to_owned(), format!("{uri}#"));
                dialect
            }
        };
        let Some(pointer) = fragment
            .filter(|f| f.starts_with('/'))
            .and_then(pointer::from_fragment)
        else {
            return Ok(());
        };
        let (at, Some(schema)) = (format!("{uri}#{pointer}"), doc.at_pointer(&pointer)) else {
            return Ok(());
        };
        self.walk(schema, at, uri, dialect)
    }

    /// Whether `format` is an assertion in the subschema at `location`: its dialect makes it
    /// one, or the loader's setting ([`Loader::assert_formats`](super::Loader::assert_formats))
    /// does, in every dialect.
    pub(crate) fn asserts_formats(&self, location: &Location<'_>) -> bool {
        location.dialect.asserts_formats() || self.settings.assert_formats
    }

    /// Whether a reference read from the container given under `uri`.
    fn read_container(&self, uri: &str) -> bool {
        self.containers_read.iter().any(|(read, _)| read == uri)
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

    /// Indexes the subschema `doc` at `at`, whose parent's base URI is `parent_base` and
    /// whose parent's dialect is `parent_dialect`.
    fn walk(
        &mut self,
        doc: &'d Doc,
        at: String,
        parent_base: &str,
        parent_dialect: Dialect,
    ) -> Result<(), SchemaError> {
        // Only a container's schemas are reached twice: one a reference named, then one
        // around it that another named. What is indexed stays as it was first read.
        if self.by_pointer.contains_key(&at) {
            return Ok(());
        }
        let members = match doc {
            Doc::Bool(b) => {
                let schema = LocationSchema::Bool(*b);
                self.add(at, schema, parent_base.to_owned(), parent_dialect);
                return Ok(());
            }
            Doc::Object(members) => members,
            _ => return Err(SchemaError::new(SchemaErrorKind::NotASchema, at)),
        };
        let in_openapi_3_0 = parent_dialect.uses(Vocabulary::OpenApi30);
        let (base, dialect) = self.identify(doc, &at, parent_base, parent_dialect)?;
        let openapi_3_0 = dialect.uses(Vocabulary::OpenApi30);
        let used = if openapi_3_0 {
            Cow::Owned(openapi_3_0::members(members, &at)?)
        } else if members.iter().any(|(k, _)| unused(dialect, k)) {
            (members.iter())
                .filter(|(k, _)| !unused(dialect, k))
                .cloned()
                .collect()
        } else {
            Cow::Borrowed(&members[..])
        };
        self.add(
            at.clone(),
            LocationSchema::Object(used),
            base.clone(),
            dialect,
        );
        // A Reference Object's other members are ignored, so they are not walked either.
        if openapi_3_0 && member(members, "$ref").is_some() {
            return Ok(());
        }
        for (keyword, value) in members {
            let here = pointer::push(&at, keyword);
            let role = match keyword.as_str() {
                // The `$schema` that names OpenAPI 3.0's dialect for this object.
                "$schema" if !in_openapi_3_0 => Some(Role::Identity),
                _ => self.role(dialect, keyword),
            };
            let Some(role) = role else {
                let kind = SchemaErrorKind::UnsupportedKeyword(keyword.clone());
                return Err(SchemaError::new(kind, here));
            };
            match (role, value) {
                (Role::Identity | Role::Assertion, _) => {}
                (Role::Annotation(shape), _) => check_shape(keyword, value, shape, here)?,
                (Role::Subschema, _) => self.walk(value, here, &base, dialect)?,
                (Role::SubschemaMap, Doc::Object(subs)) => {
                    for (name, sub) in subs {
                        self.walk(sub, pointer::push(&here, name), &base, dialect)?;
                    }
                }
                (Role::Dependencies, Doc::Object(subs)) => {
                    for (name, sub) in subs.iter().filter(|(_, s)| !matches!(s, Doc::Array(_))) {
                        self.walk(sub, pointer::push(&here, name), &base, dialect)?;
                    }
                }
                (Role::SubschemaList, Doc::Array(subs)) if !subs.is_empty() => {
                    for (i, sub) in subs.iter().enumerate() {
                        let at = pointer::push(&here, &i.to_string());
                        self.walk(sub, at, &base, dialect)?;
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

    /// What `keyword` is in a schema object of `dialect`; `None` when it is no keyword there
    /// and no annotation the settings name.
    fn role(&self, dialect: Dialect, keyword: &str) -> Option<Role> {
        let annotation = Some(Role::Annotation(Shape::Any));
        let named = || self.settings.annotations.take(keyword);
        if dialect.uses(Vocabulary::OpenApi) && keyword.starts_with("x-") {
            return annotation;
        }
        if dialect.uses(Vocabulary::OpenApi30) {
            return match keyword {
                // Folded into `type` by `openapi_3_0::members`.
                "nullable" => Some(Role::Annotation(Shape::Boolean)),
                _ if openapi_3_0::is_keyword(keyword) => self::keyword(keyword).map(|(_, r)| r),
                _ => annotation.filter(|_| named()),
            };
        }
        match self::keyword(keyword) {
            Some((vocabulary, role)) if dialect.means(vocabulary) => Some(role),
            _ if unused(dialect, keyword) || named() => annotation,
            _ => None,
        }
    }

    fn add(&mut self, at: String, schema: LocationSchema<'d>, base: String, dialect: Dialect) {
        self.by_pointer.insert(at.clone(), self.locations.len());
        self.locations.push(Location {
            pointer: at,
            schema,
            base,
            dialect,
        });
    }

    /// Reads `$schema`, `$id`, `$anchor` and `$dynamicAnchor` of the schema object at `at`
    /// (none in OpenAPI 3.0's dialect, which has no such keyword); returns its base URI and
    /// its dialect.
    fn identify(
        &mut self,
        doc: &Doc,
        at: &str,
        parent_base: &str,
        parent_dialect: Dialect,
    ) -> Result<(String, Dialect), SchemaError> {
        let in_openapi_3_0 = parent_dialect.uses(Vocabulary::OpenApi30);
        let identity = |keyword| doc.get(keyword).filter(|_| !in_openapi_3_0);
        let mut dialect = parent_dialect;
        if let Some(named) = identity("$schema") {
            let here = pointer::push(at, "$schema");
            let Doc::String(uri) = named else {
                return Err(invalid("$schema", "a string", here));
            };
            dialect = (self.dialects.named(uri, &mut self.documents_read))
                .map_err(|kind| SchemaError::new(kind, here))?;
        }
        let mut base = parent_base.to_owned();
        if let Some(id) = identity("$id") {
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
            let Some(anchor) = identity(keyword) else {
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
        Ok((base, dialect))
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
        (Shape::Array, Doc::Array(_)) | (Shape::Object, Doc::Object(_)) => Ok(()),
        (Shape::Vocabularies, Doc::Object(members))
            if members.iter().all(|(_, v)| matches!(v, Doc::Bool(_))) =>
        {
            Ok(())
        }
        (Shape::String, _) => Err(invalid(keyword, "a string", at)),
        (Shape::Boolean, _) => Err(invalid(keyword, "a boolean", at)),
        (Shape::Array, _) => Err(invalid(keyword, "an array", at)),
        (Shape::Object, _) => Err(invalid(keyword, "an object", at)),
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

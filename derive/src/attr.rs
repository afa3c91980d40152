//! The `#[serde(...)]` and `#[jitson(...)]` attributes of a container, a variant and a field,
//! read as serde reads them. `#[jitson(...)]` takes the same names and wins over `#[serde]`.
//!
//! Every attribute is either understood, known to leave the JSON shape alone (`bound`,
//! `crate`, `expecting`, `borrow`), or a compile error at its span: one that changes the JSON
//! shape in a way jitson does not model yet must not be silently ignored.

use crate::case::{RULES, RenameRule};
use syn::ext::IdentExt;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr, Token};

/// Attributes of the struct or enum.
#[derive(Debug, Default)]
pub(crate) struct Container {
    /// `rename`: the name a struct's `tag` member holds, as read (serde's `deserialize`
    /// value of the attribute; each `*_written` field is its `serialize` value).
    pub(crate) rename: Option<String>,
    /// `rename` as written.
    pub(crate) rename_written: Option<String>,
    /// `rename_all`: the convention for fields (structs) or variants (enums), as read.
    pub(crate) rename_all: Option<RenameRule>,
    /// `rename_all` as written.
    pub(crate) rename_all_written: Option<RenameRule>,
    /// `rename_all_fields`: the convention for the fields of every struct variant, as read.
    pub(crate) rename_all_fields: Option<RenameRule>,
    /// `rename_all_fields` as written.
    pub(crate) rename_all_fields_written: Option<RenameRule>,
    /// `deny_unknown_fields`.
    pub(crate) deny_unknown_fields: bool,
    /// `tag`: the internal (or, with `content`, adjacent) tag member.
    pub(crate) tag: Option<String>,
    /// `content`: the adjacent content member.
    pub(crate) content: Option<String>,
    /// `untagged`.
    pub(crate) untagged: bool,
    /// `default`: every field may be missing.
    pub(crate) default: bool,
    /// The function of `default = "path"` (else `Default::default`) giving the value
    /// missing fields are taken from.
    pub(crate) default_path: Option<String>,
    /// `transparent`: the JSON form of the one field.
    pub(crate) transparent: bool,
    /// `from = "F"` / `try_from = "F"`: read as an `F`, then converted (`true`: fallibly).
    pub(crate) from: Option<(String, bool)>,
    /// `into = "I"`: written as the `I` a clone converts into.
    pub(crate) into: Option<String>,
}

/// Attributes of an enum variant.
#[derive(Debug, Default)]
pub(crate) struct Variant {
    /// `rename`, as read.
    pub(crate) rename: Option<String>,
    /// `rename` as written.
    pub(crate) rename_written: Option<String>,
    /// `rename_all`: the convention for this struct variant's fields, as read.
    pub(crate) rename_all: Option<RenameRule>,
    /// `rename_all` as written.
    pub(crate) rename_all_written: Option<RenameRule>,
    /// `alias` (repeatable): other tag values decode reads the variant under, as written
    /// (no `rename_all`).
    pub(crate) aliases: Vec<String>,
    /// `skip` or `skip_deserializing`: never read (a tag naming it is unknown).
    pub(crate) skip_read: bool,
    /// `skip` or `skip_serializing`: never written (encoding it panics, where serde_json
    /// returns an error).
    pub(crate) skip_write: bool,
    /// `other`: the unit variant a tag no other variant names reads as.
    pub(crate) other: bool,
    /// `untagged`: in a tagged enum, a variant tried on the value's data alone after the
    /// tagged ones (serde's order: untagged variants come last).
    pub(crate) untagged: bool,
}

/// Attributes of a field.
#[derive(Debug, Default)]
pub(crate) struct Field {
    /// `rename`, as read.
    pub(crate) rename: Option<String>,
    /// `rename` as written.
    pub(crate) rename_written: Option<String>,
    /// `alias` (repeatable): other member names decode reads the field under, as written
    /// (no `rename_all`).
    pub(crate) aliases: Vec<String>,
    /// `default` / `default = "path"`: may be missing.
    pub(crate) default: bool,
    /// The function of `default = "path"` (else `Default::default`) giving a missing
    /// field's value.
    pub(crate) default_path: Option<String>,
    /// `skip` or `skip_deserializing`: never read (its default fills it; a member of its
    /// name is unknown).
    pub(crate) skip_read: bool,
    /// `skip` or `skip_serializing`: never written.
    pub(crate) skip_write: bool,
    /// `skip_serializing_if = "path"`: may be left out.
    pub(crate) skip_serializing_if: bool,
    /// The predicate of `skip_serializing_if`, called on the field on encode.
    pub(crate) skip_if: Option<String>,
    /// `flatten`: the fields of the inner object are this object's.
    pub(crate) flatten: bool,
    /// `borrow`: a `Cow<str>` field borrows unescaped strings from the input.
    pub(crate) borrow: bool,
    /// `#[jitson(serde)]`: read and written by the type's serde impls (any JSON in the
    /// schema).
    pub(crate) serde: bool,
    /// `with = "module"`: read by `module::deserialize`, written by `module::serialize`.
    pub(crate) with: Option<String>,
    /// `serialize_with = "path"`: written by `path(&value, serializer)`.
    pub(crate) serialize_with: Option<String>,
    /// `deserialize_with = "path"`: read by `path(deserializer)`.
    pub(crate) deserialize_with: Option<String>,
}

impl Field {
    /// Whether the field goes through serde (its own impls or the user's functions), not
    /// through jitson's traits.
    pub(crate) fn via_serde(&self) -> bool {
        self.serde
            || self.with.is_some()
            || self.serialize_with.is_some()
            || self.deserialize_with.is_some()
    }

    /// The user's function that reads (`read`) or writes the field: the `with` module's
    /// `deserialize` / `serialize`, else `deserialize_with` / `serialize_with`.
    pub(crate) fn serde_function(&self, read: bool) -> syn::Result<Option<syn::ExprPath>> {
        let (own, verb) = match read {
            true => (&self.deserialize_with, "deserialize"),
            false => (&self.serialize_with, "serialize"),
        };
        match (&self.with, own) {
            (Some(module), _) => syn::parse_str(&format!("{module}::{verb}")).map(Some),
            (None, Some(path)) => syn::parse_str(path).map(Some),
            (None, None) => Ok(None),
        }
    }
}

/// `rename` when given, else the Rust name of `ident` under `rule` (applied by `apply`).
fn renamed(
    rename: &Option<String>,
    ident: &syn::Ident,
    rule: Option<RenameRule>,
    apply: fn(RenameRule, &str) -> String,
) -> String {
    let rust = ident.unraw().to_string();
    rename
        .clone()
        .unwrap_or_else(|| rule.map_or_else(|| rust.clone(), |r| apply(r, &rust)))
}

impl Variant {
    /// The variant's JSON name (its tag value) as read: `rename`, else the Rust name under
    /// the enum's `rename_all`.
    pub(crate) fn json_name(&self, ident: &syn::Ident, rule: Option<RenameRule>) -> String {
        renamed(&self.rename, ident, rule, RenameRule::apply_to_variant)
    }

    /// The variant's JSON name as written (`rule`: the enum's written `rename_all`).
    pub(crate) fn written_name(&self, ident: &syn::Ident, rule: Option<RenameRule>) -> String {
        renamed(
            &self.rename_written,
            ident,
            rule,
            RenameRule::apply_to_variant,
        )
    }
}

impl Field {
    /// The field's JSON member name as read: `rename`, else the Rust name under `rule`.
    pub(crate) fn json_name(&self, ident: &syn::Ident, rule: Option<RenameRule>) -> String {
        renamed(&self.rename, ident, rule, RenameRule::apply_to_field)
    }

    /// The field's JSON member name as written (`rule`: the written convention).
    pub(crate) fn written_name(&self, ident: &syn::Ident, rule: Option<RenameRule>) -> String {
        renamed(
            &self.rename_written,
            ident,
            rule,
            RenameRule::apply_to_field,
        )
    }
}

/// Sets `read` and `written` to the values of a `serialize` / `deserialize` pair given
/// (a `name = "value"` attribute gives both), leaving a value not given as it was.
fn set_pair<T>(read: &mut Option<T>, written: &mut Option<T>, (ser, de): Pair<T>) {
    if let Some(de) = de {
        *read = Some(de);
    }
    if let Some(ser) = ser {
        *written = Some(ser);
    }
}

/// An attribute's `serialize` and `deserialize` values, each when given.
type Pair<T> = (Option<T>, Option<T>);

/// Which item an attribute sits on (what the error messages call it).
#[derive(Clone, Copy)]
enum Place {
    Container,
    Variant,
    Field,
}

/// Attributes that leave the JSON shape alone.
const NEUTRAL: [&str; 4] = ["bound", "crate", "expecting", "borrow"];

/// Attributes jitson does not model, with why.
const UNSUPPORTED: [(&str, &str); 4] = [
    ("remote", "remote derives are not supported"),
    ("getter", "remote derives are not supported"),
    ("variant_identifier", "identifier enums are not supported"),
    ("field_identifier", "identifier enums are not supported"),
];

/// Reads the container's attributes.
pub(crate) fn container(attrs: &[Attribute]) -> syn::Result<Container> {
    let mut out = Container::default();
    each(attrs, Place::Container, |name, meta| {
        match name {
            "rename" => set_pair(&mut out.rename, &mut out.rename_written, names(meta)?),
            "rename_all" => set_pair(
                &mut out.rename_all,
                &mut out.rename_all_written,
                rule(meta)?,
            ),
            "rename_all_fields" => set_pair(
                &mut out.rename_all_fields,
                &mut out.rename_all_fields_written,
                rule(meta)?,
            ),
            "deny_unknown_fields" => out.deny_unknown_fields = true,
            "tag" => out.tag = Some(string(meta)?),
            "content" => out.content = Some(string(meta)?),
            "untagged" => out.untagged = true,
            "default" => {
                out.default_path = default_path(meta)?;
                out.default = true;
            }
            "transparent" => out.transparent = true,
            "from" | "try_from" => {
                if out.from.is_some() {
                    return Err(meta.error("`from` and `try_from` exclude each other"));
                }
                out.from = Some((string(meta)?, name == "try_from"));
            }
            "into" => out.into = Some(string(meta)?),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(out)
}

/// Reads a variant's attributes.
pub(crate) fn variant(attrs: &[Attribute]) -> syn::Result<Variant> {
    let mut out = Variant::default();
    each(attrs, Place::Variant, |name, meta| {
        match name {
            "rename" => set_pair(&mut out.rename, &mut out.rename_written, names(meta)?),
            "rename_all" => set_pair(
                &mut out.rename_all,
                &mut out.rename_all_written,
                rule(meta)?,
            ),
            "alias" => out.aliases.push(string(meta)?),
            "skip" => (out.skip_read, out.skip_write) = (true, true),
            "skip_deserializing" => out.skip_read = true,
            "skip_serializing" => out.skip_write = true,
            "other" => out.other = true,
            "untagged" => out.untagged = true,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(out)
}

/// Reads a field's attributes.
pub(crate) fn field(attrs: &[Attribute]) -> syn::Result<Field> {
    let mut out = Field::default();
    each(attrs, Place::Field, |name, meta| {
        match name {
            "rename" => set_pair(&mut out.rename, &mut out.rename_written, names(meta)?),
            "alias" => out.aliases.push(string(meta)?),
            "default" => {
                out.default_path = default_path(meta)?;
                out.default = true;
            }
            "skip" => (out.skip_read, out.skip_write) = (true, true),
            "skip_deserializing" => out.skip_read = true,
            "skip_serializing" => out.skip_write = true,
            "skip_serializing_if" => {
                out.skip_if = Some(string(meta)?);
                out.skip_serializing_if = true;
            }
            "flatten" => out.flatten = true,
            "serde" => out.serde = true,
            "with" => out.with = Some(string(meta)?),
            "serialize_with" => out.serialize_with = Some(string(meta)?),
            "deserialize_with" => out.deserialize_with = Some(string(meta)?),
            "borrow" => {
                skip_value(meta)?;
                out.borrow = true;
            }
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(out)
}

/// Calls `known(name, meta)` on every item of every `#[serde(...)]`, then every
/// `#[jitson(...)]` attribute (so jitson's win); `known` returns `false` for a name it does
/// not take, which is then neutral, unsupported or unknown.
fn each(
    attrs: &[Attribute],
    place: Place,
    mut known: impl FnMut(&str, &ParseNestedMeta<'_>) -> syn::Result<bool>,
) -> syn::Result<()> {
    for family in ["serde", "jitson"] {
        for attr in attrs.iter().filter(|a| a.path().is_ident(family)) {
            attr.parse_nested_meta(|meta| {
                let name = meta
                    .path
                    .get_ident()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                if known(&name, &meta)? {
                    return Ok(());
                }
                if NEUTRAL.contains(&name.as_str()) {
                    return skip_value(&meta);
                }
                if let Some((_, why)) = UNSUPPORTED.iter().find(|(n, _)| *n == name) {
                    return Err(meta.error(format!(
                        "#[derive(jitson::Schema)]: `{family}({name})` is not supported yet: {why}"
                    )));
                }
                let place = match place {
                    Place::Container => "a struct or enum",
                    Place::Variant => "a variant",
                    Place::Field => "a field",
                };
                Err(meta.error(format!(
                    "#[derive(jitson::Schema)]: unknown or misplaced attribute `{family}({name})` on {place}"
                )))
            })?;
        }
    }
    Ok(())
}

/// `= "text"`.
fn string(meta: &ParseNestedMeta<'_>) -> syn::Result<String> {
    Ok(meta.value()?.parse::<LitStr>()?.value())
}

/// `= "name"` (both ways), or `(serialize = "a", deserialize = "b")`, either one alone.
fn names(meta: &ParseNestedMeta<'_>) -> syn::Result<Pair<String>> {
    if meta.input.peek(Token![=]) {
        let name = string(meta)?;
        return Ok((Some(name.clone()), Some(name)));
    }
    let (mut ser, mut de) = (None, None);
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("serialize") {
            ser = Some(string(&inner)?);
        } else if inner.path.is_ident("deserialize") {
            de = Some(string(&inner)?);
        } else {
            return Err(inner.error("expected `serialize` or `deserialize`"));
        }
        Ok(())
    })?;
    Ok((ser, de))
}

/// A `rename_all` value: the rule of each way given.
fn rule(meta: &ParseNestedMeta<'_>) -> syn::Result<Pair<RenameRule>> {
    let parse = |name: Option<String>| {
        name.map(|name| {
            RenameRule::from_name(&name).ok_or_else(|| {
                let names: Vec<String> = RULES.iter().map(|(n, _)| format!("{n:?}")).collect();
                meta.error(format!(
                    "unknown rename rule `rename_all = {name:?}`, expected one of {}",
                    names.join(", ")
                ))
            })
        })
        .transpose()
    };
    let (ser, de) = names(meta)?;
    Ok((parse(ser)?, parse(de)?))
}

/// The path of `default = "path"`; `None` for a bare `default`.
fn default_path(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<String>> {
    if meta.input.peek(Token![=]) {
        string(meta).map(Some)
    } else {
        Ok(None)
    }
}

/// Consumes an optional `= value` or `(...)` after a neutral or flag attribute.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    fn attrs(item: syn::DeriveInput) -> Vec<Attribute> {
        item.attrs
    }

    #[test]
    fn container_attributes() {
        let c = container(&attrs(parse_quote! {
            #[serde(rename_all = "camelCase", deny_unknown_fields, tag = "t", content = "c")]
            #[serde(bound = "T: Clone", crate = "serde", expecting = "x", default)]
            #[serde(rename(serialize = "N", deserialize = "N"))]
            struct S;
        }))
        .unwrap();
        assert_eq!(c.rename_all, Some(RenameRule::Camel));
        assert!(c.deny_unknown_fields && c.default);
        assert_eq!(c.tag.as_deref(), Some("t"));
        assert_eq!(c.content.as_deref(), Some("c"));
        assert_eq!(c.rename.as_deref(), Some("N"));
    }

    #[test]
    fn jitson_overrides_serde() {
        let field: syn::Field = parse_quote! {
            #[jitson(rename = "b")]
            #[serde(rename = "a", default = "path::to", skip_serializing_if = "Option::is_none")]
            x: u8
        };
        let f = super::field(&field.attrs).unwrap();
        assert_eq!(f.rename.as_deref(), Some("b"));
        assert!(f.default && f.skip_serializing_if && !f.skip_read && !f.skip_write && !f.flatten);
        assert_eq!(f.default_path.as_deref(), Some("path::to"));
    }

    #[test]
    fn aliases_repeat_and_both_families_add() {
        let field: syn::Field = parse_quote! {
            #[serde(alias = "b", alias = "c")]
            #[jitson(alias = "d")]
            x: u8
        };
        assert_eq!(super::field(&field.attrs).unwrap().aliases, ["b", "c", "d"]);
        let v: syn::Variant = parse_quote! { #[serde(alias = "a", rename = "x")] A };
        assert_eq!(variant(&v.attrs).unwrap().aliases, ["a"]);
        let field: syn::Field = parse_quote! { #[serde(alias)] x: u8 };
        assert!(super::field(&field.attrs).is_err());
    }

    fn field_error(field: syn::Field) -> String {
        super::field(&field.attrs).unwrap_err().to_string()
    }

    #[test]
    fn unsupported_attributes_are_errors() {
        let msg = field_error(parse_quote! { #[jitson(getter = "m")] x: u8 });
        assert!(
            msg.contains("`jitson(getter)` is not supported yet"),
            "{msg}"
        );
        let field: syn::Field = parse_quote! { #[jitson(serde)] #[serde(with = "m")] x: u8 };
        let a = super::field(&field.attrs).unwrap();
        assert!(a.serde && a.with.as_deref() == Some("m") && a.via_serde());
        let field: syn::Field =
            parse_quote! { #[serde(rename(serialize = "a", deserialize = "b"))] x: u8 };
        let a = super::field(&field.attrs).unwrap();
        assert_eq!(
            (a.rename.as_deref(), a.rename_written.as_deref()),
            (Some("b"), Some("a"))
        );
        // One way given: the other keeps what it had (here, from `serde(rename)`).
        let field: syn::Field = parse_quote! {
            #[serde(rename = "c")]
            #[jitson(rename(serialize = "a"))]
            x: u8
        };
        let a = super::field(&field.attrs).unwrap();
        assert_eq!(
            (a.rename.as_deref(), a.rename_written.as_deref()),
            (Some("c"), Some("a"))
        );
        let msg = field_error(parse_quote! { #[serde(rename(other = "a"))] x: u8 });
        assert!(
            msg.contains("expected `serialize` or `deserialize`"),
            "{msg}"
        );
        let msg = field_error(parse_quote! { #[serde(tag = "t")] x: u8 });
        assert!(
            msg.contains("unknown or misplaced attribute `serde(tag)` on a field"),
            "{msg}"
        );
        let msg = container(&attrs(
            parse_quote! { #[serde(rename_all = "Title")] struct S; },
        ))
        .unwrap_err()
        .to_string();
        assert!(msg.contains("unknown rename rule"), "{msg}");
    }

    #[test]
    fn variant_attributes() {
        let v: syn::Variant =
            parse_quote! { #[serde(rename = "x", rename_all = "kebab-case", skip)] A };
        let v = variant(&v.attrs).unwrap();
        assert_eq!(v.rename.as_deref(), Some("x"));
        assert_eq!(v.rename_all, Some(RenameRule::Kebab));
        assert!(v.skip_read && v.skip_write && !v.other);
        let v: syn::Variant = parse_quote! { #[serde(other)] A };
        assert!(variant(&v.attrs).unwrap().other);
        let v: syn::Variant = parse_quote! { #[serde(with = "m")] A };
        assert!(
            variant(&v.attrs)
                .unwrap_err()
                .to_string()
                .contains("`serde(with)`")
        );
    }
}

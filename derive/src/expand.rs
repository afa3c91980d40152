//! The expansion of `#[derive(jitson::Schema)]`: a `JsonType` impl (and a `JsonObject` impl
//! for structs with named fields) whose `type_expr` makes the builder calls for the type's
//! JSON form, as serde_json reads and writes it.

use crate::attr;
use crate::case::RenameRule;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Data, DataEnum, DataStruct, DeriveInput, Fields, Type, parse_quote};

/// The facade's `typed` module, as generated code names it.
fn typed() -> TokenStream {
    quote!(::jitson::typed)
}

/// The facade's builder module, as generated code names it.
fn builder() -> TokenStream {
    quote!(::jitson::schema::builder)
}

/// The generated items, or the first error (its span on the offending item).
pub(crate) fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let cattrs = attr::container(&input.attrs)?;
    let parts = match &input.data {
        Data::Union(u) => {
            return Err(syn::Error::new(
                u.union_token.span,
                "#[derive(jitson::Schema)] does not support unions: a union has no JSON shape",
            ));
        }
        Data::Struct(s) => structure(input, &cattrs, s)?,
        Data::Enum(e) => enumeration(input, &cattrs, e)?,
    };
    // `from` / `try_from`: the JSON is the source type's (decode's contract).
    let parts = match converted_from(input, &cattrs)? {
        Some((from, _)) => {
            let t = typed();
            Parts {
                type_expr: type_of(&from),
                object_expr: None,
                optional: Some(quote_spanned!(from.span()=> <#from as #t::JsonType>::OPTIONAL)),
            }
        }
        None => parts,
    };
    let encode = crate::encode::expand(input, &cattrs)?;
    let decode = crate::decode::expand(input, &cattrs)?;
    let (t, b) = (typed(), builder());
    let generics = crate::bounds::generics(
        input,
        &cattrs,
        parse_quote!(#t::JsonType),
        |ty| parse_quote!(#ty: #t::JsonObject),
    )?;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let ident = &input.ident;
    let def_name = ident.unraw().to_string();
    let Parts {
        type_expr,
        object_expr,
        optional,
    } = parts;
    let optional = optional.map(|o| quote!(const OPTIONAL: bool = #o;));
    let object_impl = object_expr.map(|object| {
        quote! {
            #[automatically_derived]
            impl #impl_generics #t::JsonObject for #ident #ty_generics #where_clause {
                #[allow(unused_variables)]
                fn object_expr(__defs: &mut #t::Definitions) -> #b::ObjectExpr {
                    #object
                }
            }
        }
    });
    let key = cache_key(&input.generics);
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics #t::JsonType for #ident #ty_generics #where_clause {
            type Key = #key;
            #optional

            fn def_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#def_name)
            }

            #[allow(unused_variables)]
            fn type_expr(__defs: &mut #t::Definitions) -> #b::TypeExpr {
                #type_expr
            }
        }
        #object_impl
        #encode
        #decode
    })
    .map(|items| {
        let marker = key_marker(&input.generics);
        // The marker type is unnameable outside the block: one of its own per derive.
        quote!(const _: () = { #marker #items };)
    })
}

/// The source type of `from` / `try_from` (and whether the conversion may fail), parsed;
/// `None` without them. `transparent` beside a conversion is an error, as in serde.
pub(crate) fn converted_from(
    input: &DeriveInput,
    cattrs: &attr::Container,
) -> syn::Result<Option<(Type, bool)>> {
    if cattrs.transparent && (cattrs.from.is_some() || cattrs.into.is_some()) {
        return Err(syn::Error::new(
            input.ident.span(),
            "#[derive(jitson::Schema)]: `transparent` excludes `from`, `try_from` and `into`",
        ));
    }
    cattrs
        .from
        .as_ref()
        .map(|(ty, fallible)| Ok((syn::parse_str(ty)?, *fallible)))
        .transpose()
}

/// The private marker type of `JsonType::Key` (generic over the type's const parameters).
fn key_marker(generics: &syn::Generics) -> TokenStream {
    let consts = generics.const_params().map(|c| {
        let (ident, ty) = (&c.ident, &c.ty);
        quote!(const #ident: #ty)
    });
    quote! {
        #[doc(hidden)]
        pub struct __JitsonKey<#(#consts),*>;
    }
}

/// `JsonType::Key`: the marker, with the const parameters and the type parameters' keys
/// (lifetimes dropped, so borrowing types have one too).
fn cache_key(generics: &syn::Generics) -> TokenStream {
    let t = typed();
    let consts = generics.const_params().map(|c| &c.ident);
    let types = generics
        .type_params()
        .map(|p| {
            let ident = &p.ident;
            quote!(<#ident as #t::JsonType>::Key)
        })
        .collect::<Vec<_>>();
    quote!((__JitsonKey<#(#consts),*>, #(#types,)*))
}

/// What the impls are made of.
struct Parts {
    /// The body of `JsonType::type_expr`.
    type_expr: TokenStream,
    /// The body of `JsonObject::object_expr`, for structs with named fields.
    object_expr: Option<TokenStream>,
    /// `JsonType::OPTIONAL`, when not the default.
    optional: Option<TokenStream>,
}

/// `body` as the named type `Self` (a definition when recursive).
fn named(body: TokenStream) -> TokenStream {
    quote!(__defs.named::<Self>(|__defs| #body))
}

/// `<ty as JsonType>::type_expr(__defs)`, spanned on the type so a missing impl points there.
fn type_of(ty: &Type) -> TokenStream {
    let t = typed();
    quote_spanned!(ty.span()=> <#ty as #t::JsonType>::type_expr(__defs))
}

fn structure(input: &DeriveInput, cattrs: &attr::Container, s: &DataStruct) -> syn::Result<Parts> {
    let b = builder();
    let t = typed();
    let not_here = |what: &str, why: &str| {
        Err(syn::Error::new(
            input.ident.span(),
            format!("#[derive(jitson::Schema)]: `{what}` {why}"),
        ))
    };
    if cattrs.untagged || cattrs.content.is_some() || cattrs.rename_all_fields.is_some() {
        return not_here(
            "untagged` / `content` / `rename_all_fields",
            "applies to enums only",
        );
    }
    if cattrs.transparent {
        let fields = s
            .fields
            .iter()
            .map(|f| Ok((f, attr::field(&f.attrs)?)))
            .collect::<syn::Result<Vec<_>>>()?;
        if let Some((f, _)) = fields.iter().find(|(_, a)| a.skip_read != a.skip_write) {
            return Err(syn::Error::new(
                f.span(),
                "#[derive(jitson::Schema)]: a `transparent` struct's fields are skipped both ways or not at all",
            ));
        }
        let live: Vec<&syn::Field> = fields
            .into_iter()
            .filter(|(_, a)| !a.skip_read)
            .map(|(f, _)| f)
            .collect();
        let [one] = live[..] else {
            return not_here("transparent", "needs exactly one field that is not skipped");
        };
        let ty = &one.ty;
        return Ok(Parts {
            type_expr: type_of(ty),
            object_expr: None,
            optional: Some(quote_spanned!(ty.span()=> <#ty as #t::JsonType>::OPTIONAL)),
        });
    }
    match &s.fields {
        Fields::Named(named_fields) => {
            let head = match &cattrs.tag {
                Some(tag) => {
                    let name = cattrs
                        .rename
                        .clone()
                        .unwrap_or_else(|| input.ident.unraw().to_string());
                    quote!(#b::object().optional(#tag, #t::tag(#name)))
                }
                None => quote!(#b::object()),
            };
            let reserved: Vec<String> = cattrs.tag.iter().cloned().collect();
            let object = object_body(
                named_fields.named.iter(),
                cattrs.rename_all,
                cattrs,
                head,
                &reserved,
            )?;
            Ok(Parts {
                type_expr: named(quote!(#b::TypeExpr::from(
                    <Self as #t::JsonObject>::object_expr(__defs)
                ))),
                object_expr: Some(object),
                optional: None,
            })
        }
        _ if cattrs.tag.is_some() => not_here("tag", "needs a struct with named fields"),
        Fields::Unnamed(fields) => Ok(Parts {
            type_expr: named(unnamed(fields)?),
            object_expr: None,
            optional: None,
        }),
        // serde reads a unit struct from `null`, and from `{}` or `[]` inside a value it
        // buffered (its readers refuse those where it reads them directly).
        Fields::Unit => Ok(Parts {
            type_expr: quote!(#b::any_of([
                #b::null(),
                #b::TypeExpr::from(#b::object().deny_unknown()),
                #b::TypeExpr::from(#b::tuple(::std::iter::empty::<#b::TypeExpr>()).max_items(0)),
            ])),
            object_expr: None,
            optional: None,
        }),
    }
}

/// The JSON form of unnamed fields: the one type of a newtype, else a fixed-length array.
/// Only `skip` applies to such fields.
fn unnamed(fields: &syn::FieldsUnnamed) -> syn::Result<TokenStream> {
    let b = builder();
    let mut types = Vec::new();
    for f in &fields.unnamed {
        let a = attr::field(&f.attrs)?;
        if a.rename.is_some()
            || a.rename_written.is_some()
            || a.default
            || a.flatten
            || a.skip_serializing_if
            || a.via_serde()
            || !a.aliases.is_empty()
        {
            return Err(syn::Error::new(
                f.span(),
                "#[derive(jitson::Schema)]: only `skip`, `skip_serializing` and `skip_deserializing` apply to a tuple field",
            ));
        }
        if !a.skip_read {
            types.push(&f.ty);
        }
    }
    if let ([ty], 1) = (&types[..], fields.unnamed.len()) {
        return Ok(type_of(ty));
    }
    let n = types.len() as u64;
    let items = types.iter().map(|ty| type_of(ty));
    Ok(quote!(#b::TypeExpr::from(
        #b::tuple::<#b::TypeExpr>([#(#items),*]).min_items(#n)
    )))
}

/// An object expression: `head`, then the named fields in order, then the flattened ones
/// (whose names the direct fields shadow, as in serde), then the unknown-member policy.
/// `reserved` names (a tag) may not be used by a field.
fn object_body<'a>(
    fields: impl Iterator<Item = &'a syn::Field>,
    rule: Option<RenameRule>,
    cattrs: &attr::Container,
    head: TokenStream,
    reserved: &[String],
) -> syn::Result<TokenStream> {
    let t = typed();
    let mut names: Vec<String> = reserved.to_vec();
    let mut members = Vec::new();
    let mut flattened = Vec::new();
    for f in fields {
        let a = attr::field(&f.attrs)?;
        if a.skip_read {
            continue;
        }
        let ty = &f.ty;
        if a.flatten && a.via_serde() {
            return Err(syn::Error::new(
                ty.span(),
                "#[derive(jitson::Schema)]: a flattened field's members are read by jitson, not through serde",
            ));
        }
        if a.flatten {
            flattened.push(quote_spanned!(ty.span()=>
                let __o = __o.flatten(__defs.flattening::<#ty, _>(|__defs| {
                    <#ty as #t::JsonObject>::object_expr(__defs)
                }));
            ));
            continue;
        }
        let Some(ident) = &f.ident else {
            return Err(syn::Error::new(f.span(), "expected a named field"));
        };
        let rust = ident.unraw().to_string();
        let name = a
            .rename
            .clone()
            .unwrap_or_else(|| rule.map_or(rust.clone(), |r| r.apply_to_field(&rust)));
        for key in std::iter::once(&name).chain(&a.aliases) {
            if names.contains(key) {
                return Err(syn::Error::new(
                    ident.span(),
                    format!("#[derive(jitson::Schema)]: two members are named {key:?} in JSON"),
                ));
            }
            names.push(key.clone());
        }
        // A field read by serde: any JSON, required unless serde fills it when missing (an
        // `Option`; never with a `deserialize_with` function, which serde calls on a value).
        let required = if a.default || cattrs.default {
            quote!(false)
        } else if a.with.is_some() || a.deserialize_with.is_some() {
            quote!(true)
        } else if a.via_serde() {
            quote_spanned!(ty.span()=> !#t::serde_field::optional::<#ty>())
        } else {
            quote_spanned!(ty.span()=> !<#ty as #t::JsonType>::OPTIONAL)
        };
        let value = if a.via_serde() {
            let b = builder();
            quote!(#b::any())
        } else {
            type_of(ty)
        };
        let aliases = &a.aliases;
        members.push(
            quote!(let __o = __o.member(#name, #value, #required)#(.alias(#name, #aliases))*;),
        );
    }
    let deny = cattrs
        .deny_unknown_fields
        .then(|| quote!(let __o = __o.deny_unknown();));
    Ok(quote!({
        let __o = #head;
        #(#members)*
        #(#flattened)*
        #deny
        __o
    }))
}

/// A variant's data.
enum Shape<'a> {
    Unit,
    Newtype(&'a Type),
    Tuple(&'a syn::FieldsUnnamed),
    Struct(&'a syn::FieldsNamed),
}

/// One variant as the representations see it.
struct Variant<'a> {
    /// The JSON name (the tag value).
    name: String,
    /// Other tag values decode reads it under.
    aliases: Vec<String>,
    shape: Shape<'a>,
    /// The rename rule of a struct variant's fields.
    rule: Option<RenameRule>,
    span: proc_macro2::Span,
    /// An `untagged` variant of a tagged enum.
    untagged: bool,
}

fn enumeration(input: &DeriveInput, cattrs: &attr::Container, e: &DataEnum) -> syn::Result<Parts> {
    let misplaced = |what: &str| {
        Err(syn::Error::new(
            input.ident.span(),
            format!("#[derive(jitson::Schema)]: `{what}` applies to structs only"),
        ))
    };
    if cattrs.default {
        return misplaced("default");
    }
    if cattrs.transparent {
        return misplaced("transparent");
    }
    let mut variants = Vec::new();
    let mut other = false;
    for v in &e.variants {
        let a = attr::variant(&v.attrs)?;
        if a.other {
            let why = if a.skip_read || !matches!(v.fields, Fields::Unit) {
                Some("`other` applies to a unit variant that is not skipped")
            } else if cattrs.untagged {
                Some("`other` has no tag to catch in an untagged enum")
            } else if other {
                Some("only one variant can be `other`")
            } else {
                None
            };
            if let Some(why) = why {
                return Err(syn::Error::new(
                    v.ident.span(),
                    format!("#[derive(jitson::Schema)]: {why}"),
                ));
            }
            other = true;
        }
        if a.skip_read {
            continue;
        }
        let rust = v.ident.unraw().to_string();
        let name = a.rename.unwrap_or_else(|| {
            cattrs
                .rename_all
                .map_or(rust.clone(), |r| r.apply_to_variant(&rust))
        });
        let shape = match &v.fields {
            Fields::Unit => Shape::Unit,
            Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                let only = &f.unnamed[0];
                let fa = attr::field(&only.attrs)?;
                if fa.skip_read
                    || fa.skip_write
                    || fa.rename.is_some()
                    || fa.rename_written.is_some()
                    || fa.default
                    || fa.flatten
                    || fa.skip_serializing_if
                    || fa.via_serde()
                    || !fa.aliases.is_empty()
                {
                    return Err(syn::Error::new(
                        only.span(),
                        "#[derive(jitson::Schema)]: no attribute applies to a newtype variant's field",
                    ));
                }
                Shape::Newtype(&only.ty)
            }
            Fields::Unnamed(f) => Shape::Tuple(f),
            Fields::Named(f) => Shape::Struct(f),
        };
        let taken = |key: &String| {
            variants
                .iter()
                .any(|w: &Variant<'_>| w.name == *key || w.aliases.contains(key))
        };
        // An untagged variant of a tagged enum: its name is never read or written.
        let untagged = a.untagged && !cattrs.untagged;
        let after_untagged = variants.last().is_some_and(|w: &Variant<'_>| w.untagged);
        if (after_untagged && !untagged) || (untagged && a.other) {
            return Err(syn::Error::new(
                v.ident.span(),
                "#[derive(jitson::Schema)]: `untagged` variants come after every tagged one, and are not `other`",
            ));
        }
        let keys: Vec<&String> = std::iter::once(&name).chain(&a.aliases).collect();
        if let Some(key) = keys
            .iter()
            .enumerate()
            .filter(|_| !untagged)
            .find(|&(i, k)| taken(k) || keys[..i].contains(k))
            .map(|(_, k)| k)
        {
            return Err(syn::Error::new(
                v.ident.span(),
                format!("#[derive(jitson::Schema)]: two variants are named {key:?} in JSON"),
            ));
        }
        variants.push(Variant {
            name,
            aliases: a.aliases,
            shape,
            rule: a.rename_all.or(cattrs.rename_all_fields),
            span: v.ident.span(),
            untagged,
        });
    }
    // Untagged variants (last) are tried on the value alone after the tagged ones.
    let tagged_count = variants.iter().take_while(|v| !v.untagged).count();
    let (variants, untagged_variants) = variants.split_at(tagged_count);
    let union = match (&cattrs.tag, &cattrs.content, cattrs.untagged) {
        (Some(_), _, true) => {
            return Err(syn::Error::new(
                input.ident.span(),
                "#[derive(jitson::Schema)]: an enum cannot be both `tag`ged and `untagged`",
            ));
        }
        (None, Some(_), _) => {
            return Err(syn::Error::new(
                input.ident.span(),
                "#[derive(jitson::Schema)]: `content` needs `tag`",
            ));
        }
        (None, None, false) => external(variants, cattrs)?,
        (Some(tag), None, false) => internal(variants, cattrs, tag)?,
        (Some(tag), Some(content), false) => adjacent(variants, cattrs, tag, content)?,
        (None, None, true) => untagged(variants, cattrs)?,
    };
    // `other`: a branch for the tags no variant names, read as that unit variant.
    let union = match other.then(|| other_tag(variants)) {
        None => union,
        Some(catch) => {
            let b = builder();
            let branch = match (&cattrs.tag, &cattrs.content) {
                (None, _) => catch,
                (Some(tag), None) => quote!(#b::TypeExpr::from(#b::object().field(#tag, #catch))),
                (Some(tag), Some(content)) => {
                    let deny = cattrs.deny_unknown_fields.then(|| quote!(.deny_unknown()));
                    quote!(#b::TypeExpr::from(
                        #b::object().field(#tag, #catch).optional(#content, #b::null()) #deny
                    ))
                }
            };
            quote!(#b::any_of::<#b::TypeExpr>([#union, #branch]))
        }
    };
    let union = if untagged_variants.is_empty() {
        union
    } else {
        let b = builder();
        let data = untagged_variants
            .iter()
            .map(|v| data(v, cattrs))
            .collect::<syn::Result<Vec<_>>>()?;
        quote!(#b::any_of::<#b::TypeExpr>([#union, #(#data),*]))
    };
    Ok(Parts {
        type_expr: named(union),
        object_expr: None,
        optional: None,
    })
}

/// The JSON form of a variant's data on its own: its type, an array, or an object.
fn data(v: &Variant<'_>, cattrs: &attr::Container) -> syn::Result<TokenStream> {
    let b = builder();
    Ok(match v.shape {
        Shape::Unit => quote!(#b::null()),
        Shape::Newtype(ty) => type_of(ty),
        Shape::Tuple(f) => unnamed(f)?,
        Shape::Struct(f) => {
            let object = object_body(f.named.iter(), v.rule, cattrs, quote!(#b::object()), &[])?;
            quote!(#b::TypeExpr::from(#object))
        }
    })
}

/// `anyOf` of the branches (one branch is itself; none is `false`).
fn any_of(branches: Vec<TokenStream>) -> TokenStream {
    let b = builder();
    match &branches[..] {
        [] => quote!(#b::never()),
        [one] => one.clone(),
        _ => quote!(#b::any_of::<#b::TypeExpr>([#(#branches),*])),
    }
}

/// serde's default: unit variants as strings, others as `{"Variant": data}`.
fn external(variants: &[Variant<'_>], cattrs: &attr::Container) -> syn::Result<TokenStream> {
    let (t, b) = (typed(), builder());
    let units: Vec<&str> = variants
        .iter()
        .filter(|v| matches!(v.shape, Shape::Unit))
        .flat_map(|v| std::iter::once(&v.name).chain(&v.aliases))
        .map(String::as_str)
        .collect();
    let mut branches = Vec::new();
    let mut units_placed = false;
    for v in variants {
        if let Shape::Unit = v.shape {
            if !units_placed {
                branches.push(quote!(#t::names(&[#(#units),*])));
                units_placed = true;
            }
            continue;
        }
        let (name, aliases) = (&v.name, &v.aliases);
        let data = data(v, cattrs)?;
        branches.push(quote!(#b::TypeExpr::from(
            #b::object().field(#name, #data)#(.alias(#name, #aliases))*.deny_unknown()
        )));
    }
    Ok(any_of(branches))
}

/// The schema of the tag values an `other` variant reads: any string no variant names
/// (skipped variants name none: serde reads their names as `other` too).
fn other_tag(variants: &[Variant<'_>]) -> TokenStream {
    let (t, b) = (typed(), builder());
    let keys = variants
        .iter()
        .flat_map(|v| std::iter::once(&v.name).chain(&v.aliases));
    quote!(#b::all_of::<#b::TypeExpr>([
        #b::TypeExpr::from(#b::string()),
        #b::not(#t::names(&[#(#keys),*])),
    ]))
}

/// The schema of a variant's tag value: its name, or one of its name and aliases.
fn tag_value(v: &Variant<'_>) -> TokenStream {
    let (t, name, aliases) = (typed(), &v.name, &v.aliases);
    match aliases.is_empty() {
        true => quote!(#t::tag(#name)),
        false => quote!(#t::names(&[#name, #(#aliases),*])),
    }
}

/// `#[serde(tag = "t")]`: `{"t": "Variant", ...fields}`.
fn internal(
    variants: &[Variant<'_>],
    cattrs: &attr::Container,
    tag: &str,
) -> syn::Result<TokenStream> {
    let (t, b) = (typed(), builder());
    let mut branches = Vec::new();
    for v in variants {
        let value = tag_value(v);
        let head = quote!(#b::object().field(#tag, #value));
        let object = match v.shape {
            Shape::Unit => head,
            Shape::Newtype(ty) => quote_spanned!(ty.span()=>
                <#ty as #t::JsonObject>::object_expr(__defs).tagged(#tag, #value)
            ),
            Shape::Tuple(_) => {
                return Err(syn::Error::new(
                    v.span,
                    "#[derive(jitson::Schema)]: an internally tagged enum cannot hold tuple variants (serde rejects them too)",
                ));
            }
            Shape::Struct(f) => {
                object_body(f.named.iter(), v.rule, cattrs, head, &[tag.to_owned()])?
            }
        };
        branches.push(quote!(#b::TypeExpr::from(#object)));
    }
    Ok(any_of(branches))
}

/// `#[serde(tag = "t", content = "c")]`: `{"t": "Variant", "c": data}`.
fn adjacent(
    variants: &[Variant<'_>],
    cattrs: &attr::Container,
    tag: &str,
    content: &str,
) -> syn::Result<TokenStream> {
    let (t, b) = (typed(), builder());
    let mut branches = Vec::new();
    for v in variants {
        let value = tag_value(v);
        let head = quote!(#b::object().field(#tag, #value));
        let object = match v.shape {
            Shape::Unit => quote!(#head.optional(#content, #b::null())),
            Shape::Newtype(ty) => {
                let value = type_of(ty);
                quote_spanned!(ty.span()=>
                    #head.member(#content, #value, !<#ty as #t::JsonType>::OPTIONAL)
                )
            }
            _ => {
                let data = data(v, cattrs)?;
                quote!(#head.field(#content, #data))
            }
        };
        let deny = cattrs.deny_unknown_fields.then(|| quote!(.deny_unknown()));
        branches.push(quote!(#b::TypeExpr::from(#object #deny)));
    }
    Ok(any_of(branches))
}

/// `#[serde(untagged)]`: the first variant whose data matches.
fn untagged(variants: &[Variant<'_>], cattrs: &attr::Container) -> syn::Result<TokenStream> {
    let branches = variants
        .iter()
        .map(|v| data(v, cattrs))
        .collect::<syn::Result<Vec<_>>>()?;
    Ok(any_of(branches))
}

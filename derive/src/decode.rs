//! The one-pass decode half of `#[derive(jitson::Schema)]`: a `JsonDecode` impl reading the
//! value straight from the input with `jitson::typed::decode::Reader`, as serde's derived
//! `Deserialize` reads it for the same attributes; it bails (and the two-pass decode
//! answers) wherever serde would fail, and on the shapes it leaves to the codec.
//!
//! Structs with named fields read their members in any order (each name compared in place
//! with the next field's first, else matched against every name and alias); a repeated
//! member, an unknown one under `deny_unknown_fields`, and a missing one without a default
//! bail. Tuple structs read an array of their live fields, newtypes their field, unit
//! structs `null`. Externally tagged enums read a unit variant's string or
//! `{"Variant": data}`; internally and adjacently tagged ones read inputs whose tag member
//! comes first. Untagged enums, internally tagged newtype variants and structs with a
//! `flatten` field always bail: serde reads them from a buffered copy of the value, which
//! a reader that stops at the first surprise cannot mirror.

use crate::attr;
use crate::case::RenameRule;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Data, DataEnum, DeriveInput, Fields, Type, parse_quote};

/// The facade's typed decode module, as generated code names it.
fn de() -> TokenStream {
    quote!(::jitson::typed::decode)
}

/// The `JsonDecode` impl of `input`; the schema side has checked the attributes.
pub(crate) fn expand(input: &DeriveInput, cattrs: &attr::Container) -> syn::Result<TokenStream> {
    let d = de();
    let (body, missing) = match &input.data {
        Data::Struct(s) => structure(input, cattrs, &s.fields)?,
        Data::Enum(e) => (enumeration(cattrs, e)?, None),
        Data::Union(_) => return Ok(TokenStream::new()),
    };
    let mut generics = input.generics.clone();
    let mut lifetime: syn::LifetimeParam = parse_quote!('__de);
    lifetime
        .bounds
        .extend(input.generics.lifetimes().map(|l| l.lifetime.clone()));
    generics
        .params
        .insert(0, syn::GenericParam::Lifetime(lifetime));
    for param in generics.type_params_mut() {
        param.bounds.push(parse_quote!(#d::JsonDecode<'__de>));
    }
    // A field borrowing something other than `str` (`&'a [T]`, in a type only ever
    // encoded) has no reader: the impl then holds for no lifetime instead of failing to
    // compile.
    let fields: Vec<&syn::Field> = match &input.data {
        Data::Struct(s) => s.fields.iter().collect(),
        Data::Enum(e) => e.variants.iter().flat_map(|v| v.fields.iter()).collect(),
        Data::Union(_) => Vec::new(),
    };
    for f in fields {
        let ty = &f.ty;
        if borrows_non_str(&quote!(#ty).into_iter().collect::<Vec<_>>()) {
            generics
                .make_where_clause()
                .predicates
                .push(parse_quote!(#ty: #d::JsonDecode<'__de>));
        }
    }
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = input.generics.split_for_impl();
    let ident = &input.ident;
    let missing = missing.map(|m| {
        quote! {
            #[inline]
            fn missing() -> ::std::result::Result<Self, #d::Bail> {
                #m
            }
        }
    });
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics #d::JsonDecode<'__de> for #ident #ty_generics #where_clause {
            #[allow(unused_variables, unreachable_code)]
            fn decode_json(
                __r: &mut #d::Reader<'__de>,
            ) -> ::std::result::Result<Self, #d::Bail> {
                #body
            }
            #missing
        }
    })
}

/// Whether the type's tokens hold a reference to something other than `str` (`&'a [u8]`,
/// `&'a Other`), looking inside groups (`Vec<&'a T>` is tokens, `(&'a T, u8)` a group).
fn borrows_non_str(tokens: &[proc_macro2::TokenTree]) -> bool {
    use proc_macro2::TokenTree;
    tokens.iter().enumerate().any(|(i, tt)| match tt {
        TokenTree::Group(g) => borrows_non_str(&g.stream().into_iter().collect::<Vec<_>>()),
        TokenTree::Punct(p) if p.as_char() == '&' => {
            let mut rest = tokens[i + 1..].iter();
            let mut next = rest.next();
            // Step over a lifetime (`'a`: a quote punct, then an ident).
            if matches!(next, Some(TokenTree::Punct(q)) if q.as_char() == '\'') {
                rest.next();
                next = rest.next();
            }
            !matches!(next, Some(TokenTree::Ident(id)) if id == "str")
        }
        _ => false,
    })
}

/// `<ty as JsonDecode>::decode_json(__r)?`, spanned on the type so a missing impl points
/// there.
fn read(ty: &Type) -> TokenStream {
    let d = de();
    quote_spanned!(ty.span()=> <#ty as #d::JsonDecode<'__de>>::decode_json(__r)?)
}

/// How a field of `ty` is read: a `#[serde(borrow)]` `Cow` borrows from the input (serde's
/// reading of it), everything else through its `JsonDecode`.
fn read_field(ty: &Type, a: &attr::Field) -> TokenStream {
    let d = de();
    let cow =
        matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Cow"));
    if a.borrow && cow {
        quote_spanned!(ty.span()=> #d::borrowed_cow(__r)?)
    } else {
        read(ty)
    }
}

/// `return Err(Bail)`.
fn bail() -> TokenStream {
    let d = de();
    quote!(return ::std::result::Result::Err(#d::Bail))
}

/// Byte-string patterns of `names`, joined by `|`.
fn patterns(names: &[String]) -> TokenStream {
    let lits = names.iter().map(|n| Literal::byte_string(n.as_bytes()));
    quote!(#(#lits)|*)
}

/// The value of a field the input leaves out, or of a skipped field (`skipped`): its own
/// `default`, else the container's (`container_default`, structs only), else — when
/// skipped — `Default::default()`, and when missing the type's [`missing`] value.
fn absent(
    a: &attr::Field,
    ident: Option<&syn::Ident>,
    ty: &Type,
    container_default: Option<&TokenStream>,
    skipped: bool,
) -> syn::Result<TokenStream> {
    let d = de();
    if a.default || (skipped && container_default.is_none()) {
        return Ok(match &a.default_path {
            Some(path) => {
                let path: syn::ExprPath = syn::parse_str(path)?;
                quote_spanned!(ty.span()=> #path())
            }
            None => quote_spanned!(ty.span()=> ::std::default::Default::default()),
        });
    }
    if let (Some(default), Some(ident)) = (container_default, ident) {
        return Ok(quote!({ let __d: Self = #default; __d.#ident }));
    }
    Ok(quote_spanned!(ty.span()=> <#ty as #d::JsonDecode<'__de>>::missing()?))
}

/// The container's `default` value expression, when it has one.
fn container_default(cattrs: &attr::Container) -> syn::Result<Option<TokenStream>> {
    if !cattrs.default {
        return Ok(None);
    }
    Ok(Some(match &cattrs.default_path {
        Some(path) => {
            let path: syn::ExprPath = syn::parse_str(path)?;
            quote!(#path())
        }
        None => quote!(<Self as ::std::default::Default>::default()),
    }))
}

/// What an object being read holds besides its fields.
struct ObjectRules<'a> {
    /// Field name convention.
    rule: Option<RenameRule>,
    /// `deny_unknown_fields`.
    deny: bool,
    /// A `#[serde(tag)]` struct's tag member and the name it must hold.
    tag: Option<(&'a str, String)>,
    /// The container's default value (structs with `#[serde(default)]`).
    default: Option<TokenStream>,
    /// A member name that bails (an internally tagged enum's tag, read already).
    reserved: Option<&'a str>,
}

/// Whether `name` is written in JSON exactly as it is (no quote, backslash or control
/// character), so that the reader can compare the input with it directly.
fn plain(name: &str) -> bool {
    !name.chars().any(|c| c == '"' || c == '\\' || c < ' ')
}

/// A block reading an object of `fields` and evaluating to `ctor { … }`.
///
/// Each member name is first compared with the name of the field after the one read last
/// (inputs usually list members in declaration order), without scanning it; any other name
/// is scanned and matched against every name. Either way it becomes the field's index,
/// which picks the field's read.
///
/// `open` starts the members: `__r.begin_object()?` for a whole object, or
/// `__r.next_member()?` when the object is open and a member was read (a tag).
fn named(
    fields: &syn::FieldsNamed,
    ctor: &TokenStream,
    rules: &ObjectRules<'_>,
    open: &TokenStream,
) -> syn::Result<TokenStream> {
    let bail = bail();
    let (mut decls, mut expected, mut names, mut reads, mut inits) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for f in &fields.named {
        let a = attr::field(&f.attrs)?;
        let ident = f.ident.as_ref().expect("named fields have names");
        let ty = &f.ty;
        if a.skip {
            let value = absent(&a, Some(ident), ty, rules.default.as_ref(), true)?;
            inits.push(quote!(#ident: #value));
            continue;
        }
        let index = reads.len();
        let var = format_ident!("__f{}", index);
        let main = a.json_name(ident, rules.rule);
        if plain(&main) {
            let lit = Literal::byte_string(main.as_bytes());
            expected.push(quote!(#index if __r.eat_key(#lit)? => #index,));
        }
        let mut all = vec![main];
        all.extend(a.aliases.iter().cloned());
        let pats = patterns(&all);
        names.push(quote!(#pats => #index,));
        let value = read_field(ty, &a);
        decls.push(quote!(let mut #var: ::std::option::Option<#ty> = ::std::option::Option::None;));
        reads.push(quote! {
            #index => {
                if #var.is_some() {
                    #bail;
                }
                #var = ::std::option::Option::Some(#value);
            }
        });
        let missing = absent(&a, Some(ident), ty, rules.default.as_ref(), false)?;
        inits.push(quote! {
            #ident: match #var {
                ::std::option::Option::Some(__v) => __v,
                ::std::option::Option::None => #missing,
            }
        });
    }
    let tag_index = reads.len();
    if let Some((tag, name)) = &rules.tag {
        let pat = Literal::byte_string(tag.as_bytes());
        decls.push(quote!(let mut __tag = false;));
        names.push(quote!(#pat => #tag_index,));
        reads.push(quote! {
            #tag_index => {
                if __tag || __r.plain_str()? != #name {
                    #bail;
                }
                __tag = true;
            }
        });
    }
    if let Some(reserved) = rules.reserved {
        let pat = Literal::byte_string(reserved.as_bytes());
        names.push(quote!(#pat => #tag_index,));
        reads.push(quote!(#tag_index => #bail,));
    }
    let unknown_index = tag_index + 1;
    let unknown = if rules.deny {
        bail.clone()
    } else {
        quote!(__r.skip()?)
    };
    Ok(quote! {{
        #(#decls)*
        let mut __more = #open;
        let mut __expect: usize = 0;
        while __more {
            let __i: usize = match __expect {
                #(#expected)*
                _ => match __r.key()?.as_bytes() {
                    #(#names)*
                    _ => #unknown_index,
                },
            };
            match __i {
                #(#reads)*
                _ => #unknown,
            }
            __expect = __i + 1;
            __more = __r.next_member()?;
        }
        #ctor { #(#inits,)* }
    }})
}

/// A block reading the live fields of `fields` (an array of them, or the one value of a
/// newtype) and evaluating to `ctor(…)`.
fn unnamed(fields: &syn::FieldsUnnamed, ctor: &TokenStream) -> syn::Result<TokenStream> {
    let bail = bail();
    let attrs = fields
        .unnamed
        .iter()
        .map(|f| attr::field(&f.attrs))
        .collect::<syn::Result<Vec<_>>>()?;
    let live = attrs.iter().filter(|a| !a.skip).count();
    if live == 1 && fields.unnamed.len() == 1 {
        let value = read(&fields.unnamed[0].ty);
        return Ok(quote!(#ctor(#value)));
    }
    let (mut reads, mut values) = (Vec::new(), Vec::new());
    for (i, (f, a)) in fields.unnamed.iter().zip(&attrs).enumerate() {
        if a.skip {
            values.push(absent(a, None, &f.ty, None, true)?);
            continue;
        }
        let var = format_ident!("__f{}", i);
        let value = read(&f.ty);
        reads.push(quote! {
            if !__more {
                #bail;
            }
            let #var = #value;
            __more = __r.next_item()?;
        });
        values.push(quote!(#var));
    }
    Ok(quote! {{
        let mut __more = __r.begin_array()?;
        #(#reads)*
        if __more {
            #bail;
        }
        #ctor(#(#values),*)
    }})
}

/// A struct's `decode_json` body, and its `missing` body when it has one (`transparent`).
fn structure(
    input: &DeriveInput,
    cattrs: &attr::Container,
    fields: &Fields,
) -> syn::Result<(TokenStream, Option<TokenStream>)> {
    let d = de();
    let bail = bail();
    let all = fields
        .iter()
        .map(|f| Ok((f, attr::field(&f.attrs)?)))
        .collect::<syn::Result<Vec<_>>>()?;
    if all.iter().any(|(_, a)| a.flatten) {
        return Ok((bail, None));
    }
    if cattrs.transparent {
        let build = |value: TokenStream| -> syn::Result<TokenStream> {
            let mut parts = Vec::new();
            for (i, (f, a)) in all.iter().enumerate() {
                let v = if a.skip {
                    absent(a, f.ident.as_ref(), &f.ty, None, true)?
                } else {
                    value.clone()
                };
                parts.push(match &f.ident {
                    Some(ident) => quote!(#ident: #v),
                    None => {
                        let index = syn::Index::from(i);
                        quote!(#index: #v)
                    }
                });
            }
            Ok(quote!(Self { #(#parts,)* }))
        };
        let (f, _) = all
            .iter()
            .find(|(_, a)| !a.skip)
            .expect("the schema side checked one live field");
        let ty = &f.ty;
        let read = build(read(ty))?;
        let missing = build(quote!(__v))?;
        return Ok((
            quote!(::std::result::Result::Ok(#read)),
            Some(quote_spanned!(ty.span()=>
                <#ty as #d::JsonDecode<'__de>>::missing().map(|__v| #missing)
            )),
        ));
    }
    let body = match fields {
        Fields::Named(named_fields) => {
            let tag = cattrs.tag.as_deref().map(|tag| {
                (
                    tag,
                    cattrs
                        .rename
                        .clone()
                        .unwrap_or_else(|| input.ident.unraw().to_string()),
                )
            });
            let rules = ObjectRules {
                rule: cattrs.rename_all,
                deny: cattrs.deny_unknown_fields,
                tag,
                default: container_default(cattrs)?,
                reserved: None,
            };
            named(named_fields, &quote!(Self), &rules, &begin_object())?
        }
        Fields::Unnamed(unnamed_fields) => unnamed(unnamed_fields, &quote!(Self))?,
        Fields::Unit => quote!({
            if !__r.null() {
                #bail;
            }
            Self
        }),
    };
    Ok((quote!(::std::result::Result::Ok(#body)), None))
}

/// `__r.begin_object()?`: members of a whole object.
fn begin_object() -> TokenStream {
    quote!(__r.begin_object()?)
}

/// An enum's `decode_json` body. External tagging: a unit variant's string, or
/// `{"Variant": data}`. Internal and adjacent tagging when the tag member comes first
/// (`{"t": "V", …fields}`, `{"t": "V", "c": data}`; anything else bails, as do
/// internally tagged newtype variants). Untagged enums always bail: serde tries the
/// variants in turn on the buffered value, which a reader that bails cannot mirror.
fn enumeration(cattrs: &attr::Container, e: &DataEnum) -> syn::Result<TokenStream> {
    let bail = bail();
    if cattrs.untagged {
        return Ok(bail);
    }
    let repr = match (cattrs.tag.as_deref(), cattrs.content.as_deref()) {
        (Some(tag), Some(content)) => Repr::Adjacent(tag, content),
        (Some(tag), None) => Repr::Internal(tag),
        (None, _) => Repr::External,
    };
    if let Repr::Internal(tag) | Repr::Adjacent(tag, _) = repr
        && !plain(tag)
    {
        return Ok(bail);
    }
    let (mut units, mut data, mut tagged) = (Vec::new(), Vec::new(), Vec::new());
    for v in &e.variants {
        let vattrs = attr::variant(&v.attrs)?;
        if vattrs.skip {
            continue;
        }
        let ident = &v.ident;
        let mut names = vec![vattrs.json_name(ident, cattrs.rename_all)];
        names.extend(vattrs.aliases.iter().cloned());
        let pats = patterns(&names);
        let ctor = quote!(Self::#ident);
        let rules = ObjectRules {
            rule: vattrs.rename_all.or(cattrs.rename_all_fields),
            deny: cattrs.deny_unknown_fields,
            tag: None,
            default: None,
            reserved: None,
        };
        // The variant's data as its own JSON value (external, adjacent content).
        let value = match &v.fields {
            Fields::Unit => None,
            Fields::Unnamed(fields) => Some(unnamed(fields, &ctor)?),
            Fields::Named(fields) => Some(named(fields, &ctor, &rules, &begin_object())?),
        };
        match (repr, value) {
            (Repr::External, None) => units.push(quote!(#pats => #ctor,)),
            (Repr::External, Some(value)) => data.push(quote!(#pats => #value,)),
            // Only the tag: the object must end after it.
            (Repr::Internal(_) | Repr::Adjacent(..), None) => tagged.push(quote! {
                #pats => {
                    if __r.next_member()? {
                        #bail;
                    }
                    #ctor
                }
            }),
            (Repr::Internal(tag), Some(_)) => {
                let Fields::Named(fields) = &v.fields else {
                    // A newtype variant's members are its inner type's.
                    tagged.push(quote!(#pats => #bail,));
                    continue;
                };
                let rules = ObjectRules {
                    reserved: Some(tag),
                    ..rules
                };
                let value = named(fields, &ctor, &rules, &quote!(__r.next_member()?))?;
                tagged.push(quote!(#pats => #value,));
            }
            (Repr::Adjacent(_, content), Some(value)) => {
                if !plain(content) {
                    tagged.push(quote!(#pats => #bail,));
                    continue;
                }
                let content = Literal::byte_string(content.as_bytes());
                tagged.push(quote! {
                    #pats => {
                        if !__r.next_member()? || !__r.eat_key(#content)? {
                            #bail;
                        }
                        let __v = #value;
                        if __r.next_member()? {
                            #bail;
                        }
                        __v
                    }
                });
            }
        }
    }
    if let Repr::Internal(tag) | Repr::Adjacent(tag, _) = repr {
        let tag = Literal::byte_string(tag.as_bytes());
        return Ok(quote! {
            if !__r.begin_object()? || !__r.eat_key(#tag)? {
                #bail;
            }
            ::std::result::Result::Ok(match __r.plain_str()?.as_bytes() {
                #(#tagged)*
                _ => #bail,
            })
        });
    }
    let string = quote! {
        ::std::option::Option::Some(b'"') => {
            ::std::result::Result::Ok(match __r.plain_str()?.as_bytes() {
                #(#units)*
                _ => #bail,
            })
        }
    };
    let object = (!data.is_empty()).then(|| {
        quote! {
            ::std::option::Option::Some(b'{') => {
                if !__r.begin_object()? {
                    #bail;
                }
                let __v = match __r.key()?.as_bytes() {
                    #(#data)*
                    _ => #bail,
                };
                if __r.next_member()? {
                    #bail;
                }
                ::std::result::Result::Ok(__v)
            }
        }
    });
    Ok(quote! {
        match __r.peek() {
            #string
            #object
            _ => #bail,
        }
    })
}

/// Where an enum writes the variant's name.
#[derive(Clone, Copy)]
enum Repr<'a> {
    External,
    Internal(&'a str),
    Adjacent(&'a str, &'a str),
}

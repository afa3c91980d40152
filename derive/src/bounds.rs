//! The bounds of the derived impls of a generic type: one trait on every type parameter,
//! and a member trait on each field type read and written member by member that names one.

use crate::attr;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Data, DeriveInput, Fields, Generics, Type, TypeParamBound, WherePredicate};

/// `input`'s generics, every type parameter bound by `param`, and `members(ty)` added for
/// every type of [`member_types`].
pub(crate) fn generics(
    input: &DeriveInput,
    cattrs: &attr::Container,
    param: TypeParamBound,
    members: impl Fn(&Type) -> WherePredicate,
) -> syn::Result<Generics> {
    let mut generics = input.generics.clone();
    for p in generics.type_params_mut() {
        p.bounds.push(param.clone());
    }
    let predicates: Vec<WherePredicate> = member_types(input, cattrs)?
        .into_iter()
        .map(members)
        .collect();
    if !predicates.is_empty() {
        generics.make_where_clause().predicates.extend(predicates);
    }
    Ok(generics)
}

/// The field types of `input` read and written member by member that name a type parameter
/// (a concrete type's member impl is checked where it is used): flattened fields, and the
/// payloads of an internally tagged enum's newtype variants.
fn member_types<'a>(
    input: &'a DeriveInput,
    cattrs: &attr::Container,
) -> syn::Result<Vec<&'a Type>> {
    let params: Vec<&syn::Ident> = input.generics.type_params().map(|p| &p.ident).collect();
    let mut types = Vec::new();
    if params.is_empty() {
        return Ok(types);
    }
    let mut fields: Vec<&syn::Field> = Vec::new();
    match &input.data {
        Data::Struct(s) => fields.extend(&s.fields),
        Data::Enum(e) => {
            let internal = cattrs.tag.is_some() && cattrs.content.is_none() && !cattrs.untagged;
            for v in &e.variants {
                let a = attr::variant(&v.attrs)?;
                if a.skip_read && a.skip_write {
                    continue;
                }
                match &v.fields {
                    Fields::Unnamed(f) if internal && f.unnamed.len() == 1 => {
                        types.push(&f.unnamed[0].ty);
                    }
                    fields_of_variant => fields.extend(fields_of_variant),
                }
            }
        }
        Data::Union(_) => {}
    }
    for f in fields {
        let a = attr::field(&f.attrs)?;
        if a.flatten && !(a.skip_read && a.skip_write) {
            types.push(&f.ty);
        }
    }
    types.retain(|ty| mentions(ty.to_token_stream(), &params));
    Ok(types)
}

/// Whether `tokens` name one of `idents`.
fn mentions(tokens: TokenStream, idents: &[&syn::Ident]) -> bool {
    tokens.into_iter().any(|tt| match tt {
        proc_macro2::TokenTree::Ident(i) => idents.contains(&&i),
        proc_macro2::TokenTree::Group(g) => mentions(g.stream(), idents),
        _ => false,
    })
}

//! The JSON kinds a derived type is read from (`JsonDecode::kinds`) and whether its reader
//! bails only where serde refuses (`JsonDecode::exact_bail`): what an untagged enum's
//! one-pass reader uses to pick the variant serde picks.

use crate::attr;
use crate::decode::de;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Type};

/// The impl's `exact_bail`, for a newtype struct or a `transparent` one (its field's, one
/// newtype deeper); `None` for other types, which keep the default (`false`).
pub(crate) fn exact_bail(
    input: &DeriveInput,
    cattrs: &attr::Container,
) -> syn::Result<Option<TokenStream>> {
    let d = de();
    Ok(newtype_field(input, cattrs)?.map(|ty| {
        quote! {
            #[inline]
            fn exact_bail(__depth: u32) -> bool {
                __depth > 0 && <#ty as #d::JsonDecode<'__de>>::exact_bail(__depth - 1)
            }
        }
    }))
}

/// Whether an untagged enum's variant of `fields` refuses only what serde refuses (with
/// `__depth` in scope): a unit variant does, a newtype variant when its type does, any
/// other variant is not known to.
pub(crate) fn variant_exact_bail(fields: &Fields) -> syn::Result<TokenStream> {
    let d = de();
    Ok(match fields {
        Fields::Unit => quote!(true),
        Fields::Unnamed(unnamed)
            if unnamed.unnamed.len() == 1 && !attr::field(&unnamed.unnamed[0].attrs)?.skip_read =>
        {
            let ty = &unnamed.unnamed[0].ty;
            quote_spanned!(ty.span()=> <#ty as #d::JsonDecode<'__de>>::exact_bail(__depth))
        }
        _ => quote!(false),
    })
}

/// The field type of a newtype struct (one field, not skipped) or of a `transparent` one
/// (its live field): the type whose reading is the struct's.
fn newtype_field<'a>(
    input: &'a DeriveInput,
    cattrs: &attr::Container,
) -> syn::Result<Option<&'a Type>> {
    let Data::Struct(s) = &input.data else {
        return Ok(None);
    };
    let mut live = Vec::new();
    for f in &s.fields {
        let a = attr::field(&f.attrs)?;
        if a.flatten {
            return Ok(None);
        }
        if !a.skip_read {
            live.push(&f.ty);
        }
    }
    let newtype = matches!(&s.fields, Fields::Unnamed(u) if u.unnamed.len() == 1);
    Ok(match live[..] {
        [ty] if newtype || cattrs.transparent => Some(ty),
        _ => None,
    })
}

/// The body of the impl's `kinds` (with `__depth` already lowered by one): the kinds of
/// JSON value serde's derived `Deserialize` reads the type from, over-approximated. A
/// struct with named fields takes an object or an array (serde's struct visitor reads
/// both), a tuple struct an array, a newtype (or `transparent` struct) what its field
/// takes; an externally tagged enum a string or an object, an untagged one what any of
/// its variants takes. Anything else (unit structs, `flatten`, `tag`) answers every kind.
pub(crate) fn kinds(input: &DeriveInput, cattrs: &attr::Container) -> syn::Result<TokenStream> {
    let d = de();
    let any = quote!(#d::JsonKinds::ANY);
    Ok(match &input.data {
        Data::Struct(s) => {
            let attrs = s
                .fields
                .iter()
                .map(|f| attr::field(&f.attrs))
                .collect::<syn::Result<Vec<_>>>()?;
            if attrs.iter().any(|a| a.flatten) || cattrs.tag.is_some() {
                any
            } else if cattrs.transparent {
                let (f, _) = s
                    .fields
                    .iter()
                    .zip(&attrs)
                    .find(|(_, a)| !a.skip_read)
                    .expect("the schema side checked one live field");
                field_kinds(&f.ty)
            } else {
                fields_kinds(&s.fields, &attrs).unwrap_or(any)
            }
        }
        Data::Enum(e) if cattrs.untagged => {
            let mut variants = Vec::new();
            for v in &e.variants {
                if !attr::variant(&v.attrs)?.skip_read {
                    variants.push(variant_kinds(&v.fields)?);
                }
            }
            quote!(#d::JsonKinds::NONE #(.or(#variants))*)
        }
        Data::Enum(e) if cattrs.tag.is_none() && !has_untagged_variant(e)? => {
            quote!(#d::JsonKinds::STRING.or(#d::JsonKinds::OBJECT))
        }
        Data::Enum(_) | Data::Union(_) => any,
    })
}

/// Whether a tagged enum has `untagged` variants (read, so not skipped when read): serde
/// reads such an enum from its buffered copy, and its variants take other kinds.
pub(crate) fn has_untagged_variant(e: &syn::DataEnum) -> syn::Result<bool> {
    for v in &e.variants {
        let a = attr::variant(&v.attrs)?;
        if a.untagged && !a.skip_read {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `<ty as JsonDecode>::kinds(__depth)`.
fn field_kinds(ty: &Type) -> TokenStream {
    let d = de();
    quote_spanned!(ty.span()=> <#ty as #d::JsonDecode<'__de>>::kinds(__depth))
}

/// The kinds serde reads `fields` (with attributes `attrs`) from, as a struct's or a
/// variant's data; `None` when unsure: no fields (serde reads a unit struct from other
/// kinds than `null` too), or a tuple with a skipped field.
fn fields_kinds(fields: &Fields, attrs: &[attr::Field]) -> Option<TokenStream> {
    let d = de();
    match fields {
        Fields::Named(_) => Some(quote!(#d::JsonKinds::OBJECT.or(#d::JsonKinds::ARRAY))),
        Fields::Unnamed(_) if attrs.iter().any(|a| a.skip_read) => None,
        Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
            Some(field_kinds(&unnamed.unnamed[0].ty))
        }
        Fields::Unnamed(_) => Some(quote!(#d::JsonKinds::ARRAY)),
        Fields::Unit => None,
    }
}

/// The kinds serde's untagged enum reads a variant of `fields` from: a unit variant's
/// `null`, a struct variant's object (serde gives untagged struct variants no sequence
/// form, unlike structs), else its data's (every kind when unsure).
pub(crate) fn variant_kinds(fields: &Fields) -> syn::Result<TokenStream> {
    let d = de();
    let attrs = fields
        .iter()
        .map(|f| attr::field(&f.attrs))
        .collect::<syn::Result<Vec<_>>>()?;
    Ok(match fields {
        Fields::Unit => quote!(#d::JsonKinds::NULL),
        Fields::Named(_) => quote!(#d::JsonKinds::OBJECT),
        _ => fields_kinds(fields, &attrs).unwrap_or_else(|| quote!(#d::JsonKinds::ANY)),
    })
}

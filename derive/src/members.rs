//! Member-by-member reading: the `JsonDecodeMembers` impl of a struct with named fields
//! (what lets another struct flatten it, or an internally tagged enum hold it in a newtype
//! variant, in one pass), the code with which a struct being read hands its flattened
//! fields the members it does not name itself, and the reading of an internally tagged
//! newtype variant's members.

use crate::attr;
use crate::decode::{FieldReads, ObjectRules, Slots, bail, de, field_reads};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Type};

/// For an object with `flattened` fields (types, in declaration order): the code before
/// its members — a check that bails unless each is read member by member and only the last
/// takes every member it is offered (serde hands a map's members to later fields too), then
/// each one's partial, `__flJ` — and the handling of a member no field of the object names
/// (the key `__k`, its value next): offered to each flattened field in turn (serde's order),
/// `skip` when none takes it.
pub(crate) fn flattened(flattened: &[&Type], skip: &TokenStream) -> (TokenStream, TokenStream) {
    let Some((_, before_last)) = flattened.split_last() else {
        return (TokenStream::new(), skip.clone());
    };
    let d = de();
    let bail = bail();
    let members = |ty: &&Type| quote_spanned!(ty.span()=> <#ty as #d::JsonDecodeMembers<'__de>>);
    let all: Vec<TokenStream> = flattened.iter().map(members).collect();
    let before_last: Vec<TokenStream> = before_last.iter().map(members).collect();
    let partials: Vec<_> = (0..all.len()).map(|j| format_ident!("__fl{}", j)).collect();
    let start = quote! {
        if !(true #(&& #all::MEMBERWISE)*) || (false #(|| #before_last::TAKES_ALL)*) {
            #bail;
        }
        #(let mut #partials = #all::start();)*
    };
    let unknown = quote! {
        if !(false #(|| __r.buffered(|__r| #all::decode_member(&mut #partials, __k, __r))?)*) {
            #skip
        }
    };
    (start, unknown)
}

/// The body of the `JsonDecodeMembers` impl of `input` (a struct with named fields;
/// nothing for other types): its fields' slots as the `Partial` tuple, each member read
/// into its field's slot. A struct that flattens, is tagged or is `transparent` is not
/// read member by member (serde hands it the members differently): its impl says so and
/// bails.
pub(crate) fn impl_items(
    input: &DeriveInput,
    cattrs: &attr::Container,
) -> syn::Result<Option<TokenStream>> {
    let d = de();
    let bail = bail();
    let Data::Struct(s) = &input.data else {
        return Ok(None);
    };
    let Fields::Named(fields) = &s.fields else {
        return Ok(None);
    };
    let rules = ObjectRules::of_struct(cattrs)?;
    let FieldReads {
        types,
        names,
        reads,
        inits,
        flattened,
        ..
    } = field_reads(fields, &rules, Slots::Partial)?;
    if cattrs.transparent || cattrs.tag.is_some() || !flattened.is_empty() {
        return Ok(Some(quote! {
            type Partial = ();
            const MEMBERWISE: bool = false;
            const TAKES_ALL: bool = false;
            const DENY_UNKNOWN: bool = false;

            fn start() {}

            fn decode_member(
                _: &mut (),
                _: &'__de str,
                _: &mut #d::Reader<'__de>,
            ) -> ::std::result::Result<bool, #d::Bail> {
                #bail
            }

            fn finish(_: ()) -> ::std::result::Result<Self, #d::Bail> {
                #bail
            }
        }));
    }
    let nones = types.iter().map(|_| quote!(::std::option::Option::None));
    let deny = cattrs.deny_unknown_fields;
    Ok(Some(quote! {
        type Partial = (#(::std::option::Option<#types>,)*);
        const MEMBERWISE: bool = true;
        const TAKES_ALL: bool = false;
        const DENY_UNKNOWN: bool = #deny;

        #[inline]
        #[allow(clippy::unused_unit)]
        fn start() -> Self::Partial {
            (#(#nones,)*)
        }

        #[allow(unused_variables, unreachable_code)]
        fn decode_member(
            __p: &mut Self::Partial,
            __k: &'__de str,
            __r: &mut #d::Reader<'__de>,
        ) -> ::std::result::Result<bool, #d::Bail> {
            let __i: usize = match __k.as_bytes() {
                #(#names)*
                _ => return ::std::result::Result::Ok(false),
            };
            match __i {
                #(#reads)*
                _ => {}
            }
            ::std::result::Result::Ok(true)
        }

        #[allow(unused_variables)]
        fn finish(__p: Self::Partial) -> ::std::result::Result<Self, #d::Bail> {
            ::std::result::Result::Ok(Self { #(#inits,)* })
        }
    }))
}

/// The reading of an internally tagged newtype variant of `ty` (the object open; its tag
/// member read when `__tag_first` holds, else found ahead and skipped where it comes),
/// evaluating to `ctor(value)`: serde reads `ty` from the object's other members, so each
/// goes to `ty`'s `decode_member`; a member it does not take is skipped (bails when `ty`
/// denies unknown fields), a second `tag` bails.
pub(crate) fn tagged_newtype(ty: &Type, ctor: &TokenStream, tag: &str) -> TokenStream {
    let d = de();
    let bail = bail();
    let members = quote_spanned!(ty.span()=> <#ty as #d::JsonDecodeMembers<'__de>>);
    let tag = proc_macro2::Literal::byte_string(tag.as_bytes());
    quote! {{
        if !#members::MEMBERWISE {
            #bail;
        }
        let mut __p = #members::start();
        let mut __more = !__tag_first || __r.next_member()?;
        let mut __tag_read = __tag_first;
        while __more {
            let __k = __r.key()?;
            if __k.as_bytes() == #tag {
                __r.tag_member(&mut __tag_read, __name)?;
            } else if !__r.buffered(|__r| #members::decode_member(&mut __p, __k, __r))? {
                if #members::DENY_UNKNOWN {
                    #bail;
                }
                __r.skip()?;
            }
            __more = __r.next_member()?;
        }
        #ctor(#members::finish(__p)?)
    }}
}

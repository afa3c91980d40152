//! The one-pass decode half of `#[derive(jitson::Schema)]`: a `JsonDecode` impl reading the
//! value straight from the input with `jitson::typed::decode::Reader`, as serde's derived
//! `Deserialize` reads it for the same attributes; it bails (and the two-pass decode
//! answers) wherever serde would fail, and on the shapes it leaves to the codec.
//!
//! Structs with named fields read their members in any order (each name compared in place
//! with the next field's first, else matched against every name and alias); a repeated
//! member, an unknown one under `deny_unknown_fields`, and a missing one without a default
//! bail. Tuple structs read an array of their live fields, newtypes their field, unit
//! structs `null` (also `{}` / `[]` where serde buffers: `Reader::unit_struct`).
//! Externally tagged enums read a unit variant's string or `{"Variant": data}`;
//! internally tagged ones find their tag member wherever it comes,
//! adjacently tagged ones too, with their content before or after it. Untagged enums try the
//! variants whose type may take a value of the input's kind (`JsonDecode::kinds`, which the
//! impl also answers for its own type), passing over a variant's refusal only where it is
//! surely serde's (`JsonDecode::exact_bail`). A member no field names goes to the flattened
//! fields, in order (`members.rs`); an internally tagged newtype variant reads its object's
//! other members as its type's members.

use crate::attr;
use crate::case::RenameRule;
use crate::kinds;
use crate::members;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Data, DataEnum, DeriveInput, Fields, Type, parse_quote};

/// The facade's typed decode module, as generated code names it.
pub(crate) fn de() -> TokenStream {
    quote!(::jitson::typed::decode)
}

/// The `JsonDecode` impl of `input`; the schema side has checked the attributes.
pub(crate) fn expand(input: &DeriveInput, cattrs: &attr::Container) -> syn::Result<TokenStream> {
    let d = de();
    let converted = crate::expand::converted_from(input, cattrs)?;
    let (body, missing, kinds, exact_bail) = match &converted {
        Some((from, fallible)) => conversion(from, *fallible),
        None => {
            let (body, missing) = match &input.data {
                Data::Struct(s) => structure(input, cattrs, &s.fields)?,
                Data::Enum(e) => (enumeration(cattrs, e)?, None),
                Data::Union(_) => return Ok(TokenStream::new()),
            };
            let kinds = kinds::kinds(input, cattrs)?;
            (body, missing, kinds, kinds::exact_bail(input, cattrs)?)
        }
    };
    let mut generics = crate::bounds::generics(
        input,
        cattrs,
        parse_quote!(#d::JsonDecode<'__de>),
        |ty| parse_quote!(#ty: #d::JsonDecodeMembers<'__de>),
    )?;
    let mut lifetime: syn::LifetimeParam = parse_quote!('__de);
    lifetime
        .bounds
        .extend(input.generics.lifetimes().map(|l| l.lifetime.clone()));
    generics
        .params
        .insert(0, syn::GenericParam::Lifetime(lifetime));
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
        let tokens: Vec<_> = quote!(#ty).into_iter().collect();
        if borrows_non_str(&tokens) {
            generics
                .make_where_clause()
                .predicates
                .push(parse_quote!(#ty: #d::JsonDecode<'__de>));
        }
    }
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = input.generics.split_for_impl();
    let ident = &input.ident;
    let members = members::impl_items(input, cattrs)?
        .filter(|_| converted.is_none())
        .map(|items| {
        quote! {
            #[automatically_derived]
            impl #impl_generics #d::JsonDecodeMembers<'__de> for #ident #ty_generics #where_clause {
                #items
            }
        }
    });
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
            #[inline]
            #[allow(unused_variables)]
            fn kinds(__depth: u32) -> #d::JsonKinds {
                if __depth == 0 {
                    return #d::JsonKinds::ANY;
                }
                let __depth = __depth - 1;
                #kinds
            }
            #exact_bail
        }
        #members
    })
}

/// `from` / `try_from`: `decode_json`'s and `missing`'s bodies (the source type read, then
/// converted; a refused conversion bails, and the two-pass decode gives serde's error), the
/// `kinds` body and the `exact_bail` method (the source type's; none for a fallible
/// conversion, which may refuse what serde takes elsewhere).
fn conversion(
    from: &Type,
    fallible: bool,
) -> (
    TokenStream,
    Option<TokenStream>,
    TokenStream,
    Option<TokenStream>,
) {
    let d = de();
    let source = quote_spanned!(from.span()=> <#from as #d::JsonDecode<'__de>>);
    let convert = if fallible {
        quote!(.and_then(|__v| {
            <Self as ::std::convert::TryFrom<#from>>::try_from(__v).map_err(|_| #d::Bail)
        }))
    } else {
        quote!(.map(<Self as ::std::convert::From<#from>>::from))
    };
    let exact_bail = (!fallible).then(|| {
        quote! {
            #[inline]
            fn exact_bail(__depth: u32) -> bool {
                __depth > 0 && #source::exact_bail(__depth - 1)
            }
        }
    });
    (
        quote!(#source::decode_json(__r) #convert),
        Some(quote!(#source::missing() #convert)),
        quote!(#source::kinds(__depth)),
        exact_bail,
    )
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
/// reading of it), a field read by serde through its `Deserialize` (or the user's
/// function) on serde_json, everything else through its `JsonDecode`.
fn read_field(ty: &Type, a: &attr::Field) -> syn::Result<TokenStream> {
    let d = de();
    let cow =
        matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Cow"));
    if a.via_serde() {
        let t = quote!(::jitson::typed::serde_field);
        let deserialize = match a.serde_function(true)? {
            Some(function) => quote!(#function(__d)),
            None => quote!(<#ty as #t::Deserialize<'__de>>::deserialize(__d)),
        };
        Ok(quote_spanned!(ty.span()=> #t::read(__r, |__d| #deserialize)?))
    } else if a.borrow && cow {
        Ok(quote_spanned!(ty.span()=> #d::borrowed_cow(__r)?))
    } else {
        Ok(read(ty))
    }
}

/// `return Err(Bail)`.
pub(crate) fn bail() -> TokenStream {
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
/// skipped — `Default::default()`, and when missing the type's [`missing`] value (a field
/// read by serde: what serde makes of it, none when a function of the user's reads it).
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
    Ok(
        match (
            a.via_serde(),
            a.with.is_some() || a.deserialize_with.is_some(),
        ) {
            (false, _) => quote_spanned!(ty.span()=> <#ty as #d::JsonDecode<'__de>>::missing()?),
            // serde calls a `deserialize_with` function on values only: missing is an error.
            (true, true) => bail(),
            (true, false) => {
                quote_spanned!(ty.span()=> ::jitson::typed::serde_field::missing::<#ty>()?)
            }
        },
    )
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
pub(crate) struct ObjectRules<'a> {
    /// Field name convention.
    rule: Option<RenameRule>,
    /// `deny_unknown_fields`.
    deny: bool,
    /// A `#[serde(tag)]` struct's tag member and the name it must hold.
    tag: Option<(&'a str, String)>,
    /// The container's default value (structs with `#[serde(default)]`).
    default: Option<TokenStream>,
    /// An internally tagged enum's tag member: read already when `__tag_first` holds, else
    /// passed over where it comes (`Reader::tag_member`); a second bails.
    reserved: Option<&'a str>,
}

impl ObjectRules<'_> {
    /// The rules of a struct's own object (no tag).
    pub(crate) fn of_struct(cattrs: &attr::Container) -> syn::Result<ObjectRules<'static>> {
        Ok(ObjectRules {
            rule: cattrs.rename_all,
            deny: cattrs.deny_unknown_fields,
            tag: None,
            default: container_default(cattrs)?,
            reserved: None,
        })
    }
}

/// Whether `name` is written in JSON exactly as it is (no quote, backslash or control
/// character), so that the reader can compare the input with it directly.
fn plain(name: &str) -> bool {
    !name.chars().any(|c| c == '"' || c == '\\' || c < ' ')
}

/// Where the fields of an object being read keep their values until it ends: locals of
/// the reading block (`__f0`, …), or the fields of a member-by-member read's `Partial`
/// tuple (`__p.0`, …).
#[derive(Clone, Copy)]
pub(crate) enum Slots {
    /// `__f0`, … : locals of the block reading a whole object.
    Locals,
    /// `__p.0`, … : the `JsonDecodeMembers::Partial` tuple `__p`.
    Partial,
}

impl Slots {
    /// The place holding the value of live field `index`: an `Option` of its type.
    fn slot(self, index: usize) -> TokenStream {
        match self {
            Slots::Locals => {
                let var = format_ident!("__f{}", index);
                quote!(#var)
            }
            Slots::Partial => {
                let index = syn::Index::from(index);
                quote!(__p.#index)
            }
        }
    }
}

/// The reading of an object's fields, wherever its members come from.
pub(crate) struct FieldReads<'f> {
    /// The live (neither skipped nor flattened) fields' types, by index.
    pub(crate) types: Vec<&'f Type>,
    /// `I if __r.eat_key(b"name")? => I,` for each live field with a plain name.
    pub(crate) expected: Vec<TokenStream>,
    /// `b"name" | b"alias" => I,` per live field.
    pub(crate) names: Vec<TokenStream>,
    /// `I => { … }` per live field: reads the value into its slot (a second one bails).
    pub(crate) reads: Vec<TokenStream>,
    /// `ident: value` per field in declaration order: a live field's slot (or its value
    /// when missing), a skipped one's default, a flattened one's `finish` of `__flJ`.
    pub(crate) inits: Vec<TokenStream>,
    /// The flattened fields' types, in declaration order.
    pub(crate) flattened: Vec<&'f Type>,
}

/// The [`FieldReads`] of `fields` under `rules`, the values kept in `slots`.
pub(crate) fn field_reads<'f>(
    fields: &'f syn::FieldsNamed,
    rules: &ObjectRules<'_>,
    slots: Slots,
) -> syn::Result<FieldReads<'f>> {
    let d = de();
    let bail = bail();
    let mut out = FieldReads {
        types: Vec::new(),
        expected: Vec::new(),
        names: Vec::new(),
        reads: Vec::new(),
        inits: Vec::new(),
        flattened: Vec::new(),
    };
    for f in &fields.named {
        let a = attr::field(&f.attrs)?;
        let ident = f.ident.as_ref().expect("named fields have names");
        let ty = &f.ty;
        if a.skip_read {
            let value = absent(&a, Some(ident), ty, rules.default.as_ref(), true)?;
            out.inits.push(quote!(#ident: #value));
            continue;
        }
        if a.flatten {
            let partial = format_ident!("__fl{}", out.flattened.len());
            out.inits.push(quote_spanned!(ty.span()=>
                #ident: <#ty as #d::JsonDecodeMembers<'__de>>::finish(#partial)?
            ));
            out.flattened.push(ty);
            continue;
        }
        let index = out.types.len();
        out.types.push(ty);
        let slot = slots.slot(index);
        let main = a.json_name(ident, rules.rule);
        if plain(&main) {
            let lit = Literal::byte_string(main.as_bytes());
            out.expected
                .push(quote!(#index if __r.eat_key(#lit)? => #index,));
        }
        let mut all = vec![main];
        all.extend(a.aliases.iter().cloned());
        let pats = patterns(&all);
        out.names.push(quote!(#pats => #index,));
        let value = read_field(ty, &a)?;
        out.reads.push(quote! {
            #index => {
                if #slot.is_some() {
                    #bail;
                }
                #slot = ::std::option::Option::Some(#value);
            }
        });
        let missing = absent(&a, Some(ident), ty, rules.default.as_ref(), false)?;
        out.inits.push(quote! {
            #ident: match #slot {
                ::std::option::Option::Some(__v) => __v,
                ::std::option::Option::None => #missing,
            }
        });
    }
    Ok(out)
}

/// A block reading an object of `fields` and evaluating to `ctor { … }`.
///
/// Each member name is first compared with the name of the field after the one read last
/// (inputs usually list members in declaration order), without scanning it; any other name
/// is scanned and matched against every name. Either way it becomes the field's index,
/// which picks the field's read. A member no field names is offered to the flattened
/// fields in declaration order (see `JsonDecodeMembers`), else skipped (or, under
/// `deny_unknown_fields`, bails).
///
/// `open` starts the members: `__r.begin_object()?` for a whole object, or, in an
/// internally tagged variant, `!__tag_first || __r.next_member()?` (the object is open,
/// and the tag member was read when it came first).
fn named(
    fields: &syn::FieldsNamed,
    ctor: &TokenStream,
    rules: &ObjectRules<'_>,
    open: &TokenStream,
) -> syn::Result<TokenStream> {
    let bail = bail();
    let FieldReads {
        types,
        expected,
        mut names,
        mut reads,
        inits,
        flattened,
    } = field_reads(fields, rules, Slots::Locals)?;
    let mut decls: Vec<TokenStream> = types
        .iter()
        .enumerate()
        .map(|(i, ty)| {
            let var = format_ident!("__f{}", i);
            quote!(let mut #var: ::std::option::Option<#ty> = ::std::option::Option::None;)
        })
        .collect();
    let tag_index = types.len();
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
        decls.push(quote!(let mut __tag_read = __tag_first;));
        names.push(quote!(#pat => #tag_index,));
        reads.push(quote!(#tag_index => __r.tag_member(&mut __tag_read, __name)?,));
    }
    let unknown_index = tag_index + 1;
    let skip = if rules.deny {
        quote!(#bail;)
    } else {
        quote!(__r.skip()?;)
    };
    let (flat_start, unknown) = members::flattened(&flattened, &skip);
    Ok(quote! {{
        #flat_start
        #(#decls)*
        let mut __more = #open;
        let mut __expect: usize = 0;
        while __more {
            let __i: usize = match __expect {
                #(#expected)*
                _ => {
                    let __k = __r.key()?;
                    match __k.as_bytes() {
                        #(#names)*
                        _ => {
                            #unknown
                            #unknown_index
                        }
                    }
                }
            };
            match __i {
                #(#reads)*
                _ => {}
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
    let live = attrs.iter().filter(|a| !a.skip_read).count();
    if live == 1 && fields.unnamed.len() == 1 {
        let value = read(&fields.unnamed[0].ty);
        return Ok(quote!(#ctor(#value)));
    }
    let (mut reads, mut values) = (Vec::new(), Vec::new());
    for (i, (f, a)) in fields.unnamed.iter().zip(&attrs).enumerate() {
        if a.skip_read {
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
    let all = fields
        .iter()
        .map(|f| Ok((f, attr::field(&f.attrs)?)))
        .collect::<syn::Result<Vec<_>>>()?;
    if cattrs.transparent {
        let build = |value: TokenStream| -> syn::Result<TokenStream> {
            let mut parts = Vec::new();
            for (i, (f, a)) in all.iter().enumerate() {
                let v = if a.skip_read {
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
            .find(|(_, a)| !a.skip_read)
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
                tag,
                ..ObjectRules::of_struct(cattrs)?
            };
            named(named_fields, &quote!(Self), &rules, &begin_object())?
        }
        Fields::Unnamed(unnamed_fields) => unnamed(unnamed_fields, &quote!(Self))?,
        Fields::Unit => quote!({
            __r.unit_struct()?;
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
/// `{"Variant": data}`. Internal tagging: the tag member anywhere (`{"t": "V", …fields}`
/// is read as it comes; when another member comes first, `Reader::open_tagged` reads the
/// tag's value ahead and the members are then read from the first, the tag skipped).
/// Adjacent tagging: the tag member anywhere (found ahead by `Reader::open_tagged` when
/// another member comes first), then the members in order: the content read as serde reads
/// it (as it comes after the tag, buffered before it), a unit variant's content `null` or
/// absent (a newtype variant's absent when serde makes its payload from nothing, as an
/// `Option`'s `None`), other members skipped (bail under `deny_unknown_fields`).
/// Untagged: see [`untagged`].
fn enumeration(cattrs: &attr::Container, e: &DataEnum) -> syn::Result<TokenStream> {
    let bail = bail();
    if cattrs.untagged {
        return untagged(cattrs, e);
    }
    let repr = match (cattrs.tag.as_deref(), cattrs.content.as_deref()) {
        (Some(tag), Some(content)) => Repr::Adjacent(tag, content),
        (Some(tag), None) => Repr::Internal(tag),
        (None, _) => Repr::External,
    };
    // The reader compares the tag and content names with the input as written.
    let names_plain = match repr {
        Repr::External => true,
        Repr::Internal(tag) => plain(tag),
        Repr::Adjacent(tag, content) => plain(tag) && plain(content),
    };
    // serde reads an enum with `untagged` variants from its buffered copy of the value,
    // trying the tagged form first: the two-pass decode does.
    if !names_plain || kinds::has_untagged_variant(e)? {
        return Ok(bail);
    }
    // External: unit variants' and data variants' arms. Internal: each variant's arm after
    // its tag. Adjacent: the arms of variants without content (`units`), each variant's
    // content arm (`tagged`).
    // `other`: the unit variant a tag no variant names reads as; with it, the names of
    // data variants given as a string (external) bail, as serde refuses them.
    let (mut units, mut data, mut tagged) = (Vec::new(), Vec::new(), Vec::new());
    let (mut other, mut data_names) = (None, Vec::new());
    for v in &e.variants {
        let vattrs = attr::variant(&v.attrs)?;
        if vattrs.skip_read {
            continue;
        }
        let ident = &v.ident;
        let mut names = vec![vattrs.json_name(ident, cattrs.rename_all)];
        names.extend(vattrs.aliases.iter().cloned());
        let pats = patterns(&names);
        let ctor = quote!(Self::#ident);
        if vattrs.other {
            other = Some(ctor.clone());
        }
        if !matches!(v.fields, Fields::Unit) {
            data_names.push(pats.clone());
        }
        let rules = variant_rules(&vattrs, cattrs);
        match (repr, &v.fields) {
            (Repr::External, Fields::Unit) => units.push(quote!(#pats => #ctor,)),
            (Repr::External, fields) => {
                let Some(value) = variant_data(fields, &ctor, &rules)? else {
                    unreachable!("unit variants are matched above");
                };
                data.push(quote!(#pats => #value,));
            }
            (Repr::Internal(tag), Fields::Unit) => tagged.push(unit_tagged(tag, pats, &ctor)),
            // A newtype variant's members are its inner type's (tuple variants are refused
            // by the schema side).
            (Repr::Internal(tag), Fields::Unnamed(fields)) => {
                let read = members::tagged_newtype(&fields.unnamed[0].ty, &ctor, tag);
                tagged.push(quote!(#pats => #read,));
            }
            (Repr::Internal(tag), Fields::Named(fields)) => {
                let rules = ObjectRules {
                    reserved: Some(tag),
                    ..rules
                };
                let open = quote!(!__tag_first || __r.next_member()?);
                let value = named(fields, &ctor, &rules, &open)?;
                // serde reads an internally tagged variant from its buffered copy of the
                // object (a raw value there is an error), tag first or not.
                tagged.push(quote! {
                    #pats => __r.buffered(|__r| ::std::result::Result::Ok(#value))?,
                });
            }
            // serde takes a unit variant's content when it is `null`, or absent.
            (Repr::Adjacent(..), Fields::Unit) => {
                units.push(quote!(#pats => #ctor,));
                tagged.push(null_content(pats, &ctor));
            }
            // serde reads the content as it comes after the tag, from its buffered copy
            // before it.
            (Repr::Adjacent(..), fields) => {
                let d = de();
                // Without content, a newtype variant's payload is what serde makes of a
                // missing field (an `Option`'s `None`), else the read bails.
                if let Fields::Unnamed(fields) = fields
                    && fields.unnamed.len() == 1
                    && !attr::field(&fields.unnamed[0].attrs)?.skip_read
                {
                    let ty = &fields.unnamed[0].ty;
                    units.push(quote! {
                        #pats => #ctor(<#ty as #d::JsonDecode<'__de>>::missing()?),
                    });
                }
                let Some(value) = variant_data(fields, &ctor, &rules)? else {
                    unreachable!("unit variants are matched above");
                };
                tagged.push(quote! {
                    #pats => {
                        let __read = |__r: &mut #d::Reader<'__de>| {
                            ::std::result::Result::<Self, #d::Bail>::Ok(#value)
                        };
                        if __tag_read {
                            __read(__r)?
                        } else {
                            __r.buffered(__read)?
                        }
                    }
                });
            }
        }
    }
    // Each list of arms ends with its catch-all arm: bail, or `other`'s.
    let unknown = quote!(_ => #bail,);
    if !data.is_empty() {
        data.push(unknown.clone());
    }
    match (repr, other) {
        (_, None) => {
            units.push(unknown.clone());
            tagged.push(unknown);
        }
        (Repr::Internal(tag), Some(ctor)) => tagged.push(unit_tagged(tag, quote!(_), &ctor)),
        (Repr::Adjacent(..), Some(ctor)) => {
            units.push(quote!(_ => #ctor,));
            tagged.push(null_content(quote!(_), &ctor));
        }
        (Repr::External, Some(ctor)) => {
            units.extend(data_names.iter().map(|pats| quote!(#pats => #bail,)));
            units.push(quote!(_ => #ctor,));
        }
    }
    Ok(match repr {
        Repr::Internal(tag) => internal_body(tag, &tagged),
        Repr::Adjacent(tag, content) => {
            adjacent_body(tag, content, cattrs.deny_unknown_fields, &tagged, &units)
        }
        Repr::External => external_body(&units, &data),
    })
}

/// The arm of an internally tagged unit variant: only the tag, the object's other members
/// passed over (serde ignores them).
fn unit_tagged(tag: &str, pats: TokenStream, ctor: &TokenStream) -> TokenStream {
    let tag = Literal::byte_string(tag.as_bytes());
    quote! {
        #pats => {
            __r.ignore_members(#tag, __name, __tag_first)?;
            #ctor
        }
    }
}

/// The content arm of an adjacently tagged unit variant: serde takes `null`.
fn null_content(pats: TokenStream, ctor: &TokenStream) -> TokenStream {
    let bail = bail();
    quote! {
        #pats => {
            if !__r.null() {
                #bail;
            }
            #ctor
        }
    }
}

/// An internally tagged enum's `decode_json` body: the tag's value picks the arm of
/// `tagged` (each reads the rest of the object; the last catches every other tag).
fn internal_body(tag: &str, tagged: &[TokenStream]) -> TokenStream {
    let tag = Literal::byte_string(tag.as_bytes());
    quote! {
        let (__name, __tag_first) = __r.open_tagged(#tag)?;
        ::std::result::Result::Ok(match __name.as_bytes() {
            #(#tagged)*
        })
    }
}

/// An adjacently tagged enum's `decode_json` body: the tag's value picks the arm of
/// `tagged` that reads the content where it comes, else (no content) the arm of `units`
/// (each list's last arm catches every other tag); other members are skipped, or bail when
/// `deny` (`deny_unknown_fields`).
fn adjacent_body(
    tag: &str,
    content: &str,
    deny: bool,
    tagged: &[TokenStream],
    units: &[TokenStream],
) -> TokenStream {
    let bail = bail();
    let tag = Literal::byte_string(tag.as_bytes());
    let content = Literal::byte_string(content.as_bytes());
    let unknown = if deny {
        quote!(#bail;)
    } else {
        quote! {
            __r.key()?;
            __r.skip()?;
        }
    };
    quote! {
        let (__name, __tag_first) = __r.open_tagged(#tag)?;
        let mut __tag_read = __tag_first;
        let mut __value = ::std::option::Option::None;
        let mut __more = !__tag_first || __r.next_member()?;
        while __more {
            if __r.eat_key(#tag)? {
                __r.tag_member(&mut __tag_read, __name)?;
            } else if __r.eat_key(#content)? {
                if __value.is_some() {
                    #bail;
                }
                __value = ::std::option::Option::Some(match __name.as_bytes() {
                    #(#tagged)*
                });
            } else {
                #unknown
            }
            __more = __r.next_member()?;
        }
        ::std::result::Result::Ok(match __value {
            ::std::option::Option::Some(__v) => __v,
            ::std::option::Option::None => match __name.as_bytes() {
                #(#units)*
            },
        })
    }
}

/// An externally tagged enum's `decode_json` body: a unit variant's name as a string (the
/// arms of `units`), or an object of one member named after a data variant (`data`); each
/// list's last arm catches every other name.
fn external_body(units: &[TokenStream], data: &[TokenStream]) -> TokenStream {
    let bail = bail();
    let string = quote! {
        ::std::option::Option::Some(b'"') => {
            ::std::result::Result::Ok(match __r.plain_str()?.as_bytes() {
                #(#units)*
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
                };
                if __r.next_member()? {
                    #bail;
                }
                ::std::result::Result::Ok(__v)
            }
        }
    });
    quote! {
        match __r.peek() {
            #string
            #object
            _ => #bail,
        }
    }
}

/// The rules of a struct variant's object: its own field naming, else the enum's
/// `rename_all_fields`; the enum's `deny_unknown_fields`.
fn variant_rules<'a>(vattrs: &attr::Variant, cattrs: &attr::Container) -> ObjectRules<'a> {
    ObjectRules {
        rule: vattrs.rename_all.or(cattrs.rename_all_fields),
        deny: cattrs.deny_unknown_fields,
        tag: None,
        default: None,
        reserved: None,
    }
}

/// A block reading a variant's data as its own JSON value and evaluating to `ctor…`;
/// `None` for a unit variant, which has none.
fn variant_data(
    fields: &Fields,
    ctor: &TokenStream,
    rules: &ObjectRules<'_>,
) -> syn::Result<Option<TokenStream>> {
    Ok(match fields {
        Fields::Unit => None,
        Fields::Unnamed(fields) => Some(unnamed(fields, ctor)?),
        Fields::Named(fields) => Some(named(fields, ctor, rules, &begin_object())?),
    })
}

/// Where an enum writes the variant's name.
#[derive(Clone, Copy)]
enum Repr<'a> {
    External,
    Internal(&'a str),
    Adjacent(&'a str, &'a str),
}

/// An untagged enum's `decode_json` body. serde tries the variants in order on a buffered
/// copy of the value and keeps the first that takes it; this tries, in order, the variants
/// whose kinds hold the value's (every other one surely refuses it). A variant that refuses
/// the value as serde would (a unit variant, or a newtype of an `exact_bail` type) passes
/// to the next; any other refusal bails, since serde might take the value there.
fn untagged(cattrs: &attr::Container, e: &DataEnum) -> syn::Result<TokenStream> {
    let d = de();
    let bail = bail();
    let mut tries = Vec::new();
    for v in &e.variants {
        let vattrs = attr::variant(&v.attrs)?;
        if vattrs.skip_read {
            continue;
        }
        let ident = &v.ident;
        let ctor = quote!(Self::#ident);
        let value = variant_data(&v.fields, &ctor, &variant_rules(&vattrs, cattrs))?
            .unwrap_or_else(|| {
                quote!({
                    if !__r.null() {
                        #bail;
                    }
                    #ctor
                })
            });
        let kinds = kinds::variant_kinds(&v.fields)?;
        let exact = kinds::variant_exact_bail(&v.fields)?;
        tries.push(quote! {
            if (#kinds).contains(__kind) {
                match __r.buffered(|__r| ::std::result::Result::Ok(#value)) {
                    ::std::result::Result::Ok(__v) => return ::std::result::Result::Ok(__v),
                    ::std::result::Result::Err(_) if #exact => {}
                    ::std::result::Result::Err(__e) => return ::std::result::Result::Err(__e),
                }
            }
        });
    }
    Ok(quote! {
        let __depth: u32 = #d::JsonKinds::DEPTH;
        let __kind = #d::JsonKinds::of_first_byte(__r.peek());
        #(#tries)*
        #bail
    })
}

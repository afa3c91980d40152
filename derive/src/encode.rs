//! The encode half of `#[derive(jitson::Schema)]`: a `JsonEncode` impl writing the bytes
//! serde's derived `Serialize` makes serde_json write (and a `JsonMembers` impl for structs
//! with named fields, for `flatten`).
//!
//! Everything known at macro time is one byte literal: keys with their quotes, colon and the
//! comma before them (`b",\"name\":"`), tag members, brackets, unit variants. Values go
//! through `JsonEncode`; `skip_serializing_if` calls the user's predicate; flattened fields
//! (in declaration order, as serde writes them) through `JsonMembers`.

use crate::attr;
use crate::case::RenameRule;
use jitson_kernels::escape::{EscapeMode, escape_str};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DataEnum, DeriveInput, Fields, Type, parse_quote};

/// The facade's `typed` module, as generated code names it.
fn typed() -> TokenStream {
    quote!(::jitson::typed)
}

/// The `JsonEncode` (and `JsonMembers`) impls of `input`; the schema side has checked the
/// attributes (a shape it rejects is never reached here).
pub(crate) fn expand(input: &DeriveInput, cattrs: &attr::Container) -> syn::Result<TokenStream> {
    let t = typed();
    let (body, members) = match &input.data {
        Data::Struct(s) => structure(input, cattrs, &s.fields)?,
        Data::Enum(e) => (enumeration(input, cattrs, e)?, None),
        Data::Union(_) => return Ok(TokenStream::new()),
    };
    // `into`: a clone converted, then written (serde's `into` needs `Clone` too).
    let (body, members) = match &cattrs.into {
        None => (body, members),
        Some(into) => {
            let into: Type = syn::parse_str(into)?;
            let body = quote_spanned! {into.span()=>
                let __v: #into = ::std::convert::Into::into(::std::clone::Clone::clone(self));
                <#into as #t::JsonEncode>::encode_json(&__v, __out);
            };
            (body, None)
        }
    };
    let generics = crate::bounds::generics(
        input,
        cattrs,
        parse_quote!(#t::JsonEncode),
        |ty| parse_quote!(#ty: #t::JsonMembers),
    )?;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let ident = &input.ident;
    let members = members.map(|members| {
        quote! {
            #[automatically_derived]
            impl #impl_generics #t::JsonMembers for #ident #ty_generics #where_clause {
                #[inline]
                fn encode_members(&self, __out: &mut ::std::vec::Vec<u8>) {
                    #members
                }
            }
        }
    });
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics #t::JsonEncode for #ident #ty_generics #where_clause {
            #[inline]
            fn encode_json(&self, __out: &mut ::std::vec::Vec<u8>) {
                #body
            }
        }
        #members
    })
}

/// `s` as serde_json writes a string: quoted and escaped.
fn json_string(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    escape_str(s, EscapeMode::Minimal, &mut out);
    out
}

/// Generated statements: byte literals gathered until code must run, then one
/// `extend_from_slice` (or `push`) for all of them.
#[derive(Default)]
struct Emit {
    code: Vec<TokenStream>,
    pending: Vec<u8>,
}

impl Emit {
    /// Bytes to write.
    fn bytes(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
    }

    /// Code to run after the bytes so far.
    fn code(&mut self, code: TokenStream) {
        self.flush();
        self.code.push(code);
    }

    fn flush(&mut self) {
        match self.pending[..] {
            [] => {}
            [b] => {
                let b = Literal::u8_suffixed(b);
                self.code.push(quote!(__out.push(#b);));
            }
            _ => {
                let lit = Literal::byte_string(&self.pending);
                self.code.push(quote!(__out.extend_from_slice(#lit);));
            }
        }
        self.pending.clear();
    }

    fn finish(mut self) -> TokenStream {
        self.flush();
        let code = self.code;
        quote!(#(#code)*)
    }
}

/// `value.encode_json(__out)`, spanned on the type so a missing impl points there.
fn encode(ty: &Type, value: &TokenStream) -> TokenStream {
    let t = typed();
    quote_spanned!(ty.span()=> <#ty as #t::JsonEncode>::encode_json(#value, __out);)
}

/// How a member's value is written: through its `JsonEncode`, or for a field written by
/// serde, its `Serialize` (or the user's function) on serde_json.
fn encode_member(m: &Member<'_>) -> syn::Result<TokenStream> {
    let (ty, value, a) = (m.ty, &m.value, &m.attrs);
    if !a.via_serde() {
        return Ok(encode(ty, value));
    }
    let t = quote!(::jitson::typed::serde_field);
    let serialize = match a.serde_function(false)? {
        Some(function) => quote!(#function(#value, __s)),
        None => quote!(<#ty as #t::Serialize>::serialize(#value, __s)),
    };
    Ok(quote_spanned!(ty.span()=> #t::write(__out, |__s| #serialize);))
}

/// What the output ends with inside an object or array being written.
#[derive(Clone, Copy, PartialEq)]
enum State {
    /// The opening bracket or a comma: the next element goes right here.
    Open,
    /// An element: the next one needs a comma first.
    Element,
}

/// One member of an object being written.
struct Member<'a> {
    /// `"name":`.
    key: Vec<u8>,
    ty: &'a Type,
    /// A `&T` expression of the value.
    value: TokenStream,
    attrs: attr::Field,
}

/// The live (not skipped) named fields, as members whose values `access` gives.
fn members<'a>(
    fields: &'a syn::FieldsNamed,
    rule: Option<RenameRule>,
    access: impl Fn(usize, &syn::Ident) -> TokenStream,
) -> syn::Result<Vec<Member<'a>>> {
    let mut out = Vec::new();
    for (i, f) in fields.named.iter().enumerate() {
        let attrs = attr::field(&f.attrs)?;
        let Some(ident) = &f.ident else {
            return Err(syn::Error::new(f.span(), "expected a named field"));
        };
        if attrs.skip_write {
            continue;
        }
        let mut key = json_string(&attrs.written_name(ident, rule));
        key.push(b':');
        out.push(Member {
            key,
            ty: &f.ty,
            value: access(i, ident),
            attrs,
        });
    }
    Ok(out)
}

/// Writes `members` from `state`, in declaration order (flattened ones in place, as serde);
/// returns the state after them.
fn write_members(emit: &mut Emit, mut state: State, members: &[Member<'_>]) -> syn::Result<State> {
    let t = typed();
    for m in members {
        let (ty, value) = (m.ty, &m.value);
        let skip = match &m.attrs.skip_if {
            Some(path) => Some(
                syn::parse_str::<syn::ExprPath>(path)
                    .map_err(|e| syn::Error::new(ty.span(), format!("skip_serializing_if: {e}")))?,
            ),
            None => None,
        };
        if m.attrs.flatten {
            if state == State::Element {
                emit.bytes(b",");
            }
            let write = quote_spanned!(ty.span()=>
                <#ty as #t::JsonMembers>::encode_members(#value, __out);
            );
            // Written or not, the output ends with `{` or a comma after it.
            emit.code(match skip {
                Some(skip) => quote!(if !#skip(#value) { #write }),
                None => write,
            });
            state = State::Open;
            continue;
        }
        let mut key = Vec::new();
        if state == State::Element {
            key.push(b',');
        }
        key.extend_from_slice(&m.key);
        let write = encode_member(m)?;
        match skip {
            None => {
                emit.bytes(&key);
                emit.code(write);
                state = State::Element;
            }
            Some(skip) => {
                let key = Literal::byte_string(&key);
                // From `Open` the member brings its own comma, so the state stays `Open`
                // whether it is written or not; from `Element` it stays `Element`.
                let comma = (state == State::Open).then(|| quote!(__out.push(b',');));
                emit.code(quote_spanned! {ty.span()=>
                    if !#skip(#value) {
                        __out.extend_from_slice(#key);
                        #write
                        #comma
                    }
                });
            }
        }
    }
    Ok(state)
}

/// An object's `{`, optional head member (a tag, already `"t":"V"`), members and `}`.
fn write_object(emit: &mut Emit, head: Option<&[u8]>, members: &[Member<'_>]) -> syn::Result<()> {
    emit.bytes(b"{");
    let mut state = State::Open;
    if let Some(head) = head {
        emit.bytes(head);
        state = State::Element;
    }
    match write_members(emit, state, members)? {
        State::Element => emit.bytes(b"}"),
        State::Open if members.is_empty() => emit.bytes(b"}"),
        State::Open => emit.code(quote!(::jitson::typed::close_members(__out, b'}');)),
    }
    Ok(())
}

/// `"tag":"name"`.
fn tag_member(tag: &str, name: &str) -> Vec<u8> {
    let mut out = json_string(tag);
    out.push(b':');
    out.extend_from_slice(&json_string(name));
    out
}

/// The live unnamed fields: their types and values (`access(i)`), and whether the fields are
/// a newtype (one field, not skipped: its value alone, no array).
fn unnamed(
    fields: &syn::FieldsUnnamed,
    access: impl Fn(usize) -> TokenStream,
) -> syn::Result<(Vec<(&Type, TokenStream)>, bool)> {
    let mut live = Vec::new();
    for (i, f) in fields.unnamed.iter().enumerate() {
        if !attr::field(&f.attrs)?.skip_write {
            live.push((&f.ty, access(i)));
        }
    }
    let newtype = live.len() == 1 && fields.unnamed.len() == 1;
    Ok((live, newtype))
}

/// The value alone (newtype), else `[a,b,…]`.
fn write_unnamed(emit: &mut Emit, live: &[(&Type, TokenStream)], newtype: bool) {
    if let ([(ty, value)], true) = (live, newtype) {
        emit.code(encode(ty, value));
        return;
    }
    emit.bytes(b"[");
    for (i, (ty, value)) in live.iter().enumerate() {
        if i > 0 {
            emit.bytes(b",");
        }
        emit.code(encode(ty, value));
    }
    emit.bytes(b"]");
}

/// A struct's `encode_json` body, and its `encode_members` body when it has named fields.
fn structure(
    input: &DeriveInput,
    cattrs: &attr::Container,
    fields: &Fields,
) -> syn::Result<(TokenStream, Option<TokenStream>)> {
    let field_access = |ident: &syn::Ident| quote!(&self.#ident);
    let index_access = |i: usize| {
        let i = syn::Index::from(i);
        quote!(&self.#i)
    };
    let mut emit = Emit::default();
    if cattrs.transparent {
        for (i, f) in fields.iter().enumerate() {
            if !attr::field(&f.attrs)?.skip_write {
                let value = f
                    .ident
                    .as_ref()
                    .map_or_else(|| index_access(i), field_access);
                emit.code(encode(&f.ty, &value));
            }
        }
        return Ok((emit.finish(), None));
    }
    match fields {
        Fields::Named(named) => {
            let members = members(named, cattrs.rename_all_written, |_, ident| {
                field_access(ident)
            })?;
            let head = cattrs.tag.as_ref().map(|tag| {
                let name = cattrs
                    .rename_written
                    .clone()
                    .unwrap_or_else(|| syn::ext::IdentExt::unraw(&input.ident).to_string());
                tag_member(tag, &name)
            });
            write_object(&mut emit, head.as_deref(), &members)?;
            let mut inner = Emit::default();
            let mut state = State::Open;
            if let Some(head) = &head {
                inner.bytes(head);
                state = State::Element;
            }
            if write_members(&mut inner, state, &members)? == State::Element {
                inner.bytes(b",");
            }
            Ok((emit.finish(), Some(inner.finish())))
        }
        Fields::Unnamed(unnamed_fields) => {
            let (live, newtype) = unnamed(unnamed_fields, index_access)?;
            write_unnamed(&mut emit, &live, newtype);
            Ok((emit.finish(), None))
        }
        Fields::Unit => {
            emit.bytes(b"null");
            Ok((emit.finish(), None))
        }
    }
}

/// How an enum writes the variant name around the data.
#[derive(Clone, Copy)]
enum Repr<'a> {
    External,
    Internal(&'a str),
    Adjacent(&'a str, &'a str),
    Untagged,
}

/// An enum's `encode_json` body: one match arm per variant.
fn enumeration(
    input: &DeriveInput,
    cattrs: &attr::Container,
    e: &DataEnum,
) -> syn::Result<TokenStream> {
    let enum_repr = match (&cattrs.tag, &cattrs.content, cattrs.untagged) {
        (_, _, true) => Repr::Untagged,
        (Some(tag), Some(content), _) => Repr::Adjacent(tag, content),
        (Some(tag), None, _) => Repr::Internal(tag),
        (None, ..) => Repr::External,
    };
    let mut arms = Vec::new();
    for v in &e.variants {
        let vattrs = attr::variant(&v.attrs)?;
        let ident = &v.ident;
        if vattrs.skip_write {
            let message = format!(
                "the enum variant {}::{} cannot be serialized",
                input.ident, ident
            );
            arms.push(quote!(Self::#ident { .. } => ::std::panic!(#message),));
            continue;
        }
        // An `untagged` variant of a tagged enum is written as its data alone.
        let repr = if vattrs.untagged {
            Repr::Untagged
        } else {
            enum_repr
        };
        let name = vattrs.written_name(ident, cattrs.rename_all_written);
        let rule = vattrs
            .rename_all_written
            .or(cattrs.rename_all_fields_written);
        let binding = |i: usize| {
            let b = format_ident!("__f{}", i);
            quote!(#b)
        };
        let mut emit = Emit::default();
        let pattern = match &v.fields {
            Fields::Unit => {
                match repr {
                    Repr::External => emit.bytes(&json_string(&name)),
                    Repr::Internal(tag) | Repr::Adjacent(tag, _) => {
                        emit.bytes(b"{");
                        emit.bytes(&tag_member(tag, &name));
                        emit.bytes(b"}");
                    }
                    Repr::Untagged => emit.bytes(b"null"),
                }
                quote!(Self::#ident)
            }
            Fields::Unnamed(fields) => {
                let (live, newtype) = unnamed(fields, binding)?;
                match (&repr, &live[..], newtype) {
                    (Repr::Internal(tag), [(ty, value)], true) => {
                        emit.bytes(b"{");
                        emit.bytes(&tag_member(tag, &name));
                        emit.bytes(b",");
                        emit.code(quote_spanned!(ty.span()=>
                            <#ty as ::jitson::typed::JsonMembers>::encode_members(#value, __out);
                        ));
                        emit.code(quote!(::jitson::typed::close_members(__out, b'}');));
                    }
                    _ => wrap(&mut emit, &repr, &name, |emit| {
                        write_unnamed(emit, &live, newtype)
                    }),
                }
                let fields = fields.unnamed.iter().enumerate().map(|(i, f)| {
                    match attr::field(&f.attrs).map(|a| a.skip_write) {
                        Ok(false) => binding(i),
                        _ => quote!(_),
                    }
                });
                quote!(Self::#ident(#(#fields),*))
            }
            Fields::Named(fields) => {
                let members = members(fields, rule, |i, _| binding(i))?;
                match repr {
                    Repr::Internal(tag) => {
                        write_object(&mut emit, Some(&tag_member(tag, &name)), &members)?
                    }
                    _ => {
                        let mut result = Ok(());
                        wrap(&mut emit, &repr, &name, |emit| {
                            result = write_object(emit, None, &members)
                        });
                        result?
                    }
                }
                let fields = fields.named.iter().enumerate().filter_map(|(i, f)| {
                    let skip = attr::field(&f.attrs).map_or(true, |a| a.skip_write);
                    let ident = f.ident.as_ref()?;
                    let b = binding(i);
                    (!skip).then(|| quote!(#ident: #b))
                });
                quote!(Self::#ident { #(#fields,)* .. })
            }
        };
        let body = emit.finish();
        arms.push(quote!(#pattern => { #body }));
    }
    if arms.is_empty() {
        return Ok(quote!(match *self {}));
    }
    Ok(quote!(match self { #(#arms)* }))
}

/// Writes a variant's data (`data`) wrapped as `repr` says, for the representations that
/// keep the data whole: `{"V":data}`, `{"t":"V","c":data}`, or the data alone.
fn wrap(emit: &mut Emit, repr: &Repr<'_>, name: &str, data: impl FnOnce(&mut Emit)) {
    match repr {
        Repr::External => {
            emit.bytes(b"{");
            emit.bytes(&json_string(name));
            emit.bytes(b":");
            data(emit);
            emit.bytes(b"}");
        }
        Repr::Adjacent(tag, content) => {
            emit.bytes(b"{");
            emit.bytes(&tag_member(tag, name));
            emit.bytes(b",");
            emit.bytes(&json_string(content));
            emit.bytes(b":");
            data(emit);
            emit.bytes(b"}");
        }
        Repr::Internal(_) | Repr::Untagged => data(emit),
    }
}

//! `#[derive(jitson::Schema)]`: the JSON schema of a Rust struct or enum, read from the same
//! `#[serde(...)]` attributes serde uses, so the derive beside `Serialize` / `Deserialize`
//! describes the JSON serde_json reads and writes. Use it through the facade
//! (`#[derive(jitson::Schema)]`); it implements `jitson::typed::JsonType` (and
//! `jitson::typed::JsonObject` for structs with named fields), and the writer
//! `jitson::typed::JsonEncode` (and `JsonMembers` for structs with named fields), whose bytes
//! are serde_json's for the same attributes: fields in declaration order (flattened ones in
//! place), `skip_serializing_if` calling the predicate, keys as precomputed byte literals;
//! and the one-pass reader `jitson::typed::JsonDecode`, which reads what serde's derived
//! `Deserialize` reads (member names compared in place, in declaration order first) and
//! bails to the codec on anything else (see `jitson::typed::decode`).
//!
//! Shapes:
//! - struct with named fields → object (fields in declaration order; `Option` fields and
//!   fields with `default` not required; `skip_serializing_if` alone leaves a field required,
//!   as serde's `Deserialize` does: the schema is the decode contract); a `#[serde(tag = "t")]`
//!   struct adds an optional member `t` holding the struct's (renamed) name;
//! - tuple struct → fixed-length array (`prefixItems`); newtype struct → the inner type;
//!   unit struct → `null`, `{}` or `[]` (serde reads the last two from a value it buffers);
//! - enum, serde's four representations: external (unit variants as one string `enum`,
//!   others `{"Variant": data}`), internal `tag` (objects with a `const` tag member), adjacent
//!   `tag` + `content`, `untagged` (`anyOf` of the variants' data); tagged enums get the
//!   engine's discriminator fast path (externally tagged ones by the member's name);
//! - generics: every type parameter gets a `JsonType` bound (and `JsonEncode`,
//!   `JsonDecode` on the other impls); a flattened field's type or an internally tagged
//!   newtype variant's payload that names one gets the member traits (`JsonObject`,
//!   `JsonMembers`, `JsonDecodeMembers`); lifetimes and const parameters are kept
//!   (borrowed `&'a str` / `Cow<'a, str>` fields work);
//! - recursive types (through `Box`, `Vec`, `Option`, maps) become `$defs` entries.
//!
//! Attributes (`#[serde(...)]`, or `#[jitson(...)]` with the same names, which wins):
//! `rename` (one name, or `serialize` / `deserialize` names, each alone too: the schema and
//! decode read the deserialize name, encode writes the serialize one), `rename_all` (all
//! eight serde conventions, likewise each way), `rename_all_fields`, `alias` (fields and variants, repeatable, taken
//! as written: more names decode reads, encode writes the main one), `default`, `skip`,
//! `with`, `serialize_with`, `deserialize_with` and `#[jitson(serde)]` (named fields: the
//! field is read and written by serde, its type needing serde's traits only — a date, a
//! UUID — see `jitson::typed::serde_field`; its schema takes any JSON, required unless
//! serde fills it when missing), `skip_serializing` and `skip_deserializing` (fields and
//! variants: the schema, decode's
//! contract, has what is read, encode writes what is not skipped when written, and a
//! variant skipped when written panics there as serde_json errors),
//! `skip_serializing_if`, `deny_unknown_fields`, `tag`, `content`, `untagged`, `flatten`
//! (structs with named fields and string-keyed maps), `transparent`, `other` (one unit
//! variant of a tagged enum, which every string tag no variant names reads as: one more
//! `anyOf` branch whose tag is `{"allOf": [{"type": "string"}, {"not": {"enum": [every
//! variant's names]}}]}`, with no content or a `null` one when adjacently tagged; the
//! discriminator fast path takes that branch for any tag no variant names);
//! `untagged` on the last variants of a tagged enum (more `anyOf` branches, each the
//! variant's data; serde reads such an enum from its buffered copy, so the one-pass reader
//! leaves it to the two-pass decode), `from` / `try_from` (the source type's schema and
//! reader, then the conversion: a refused `try_from` is serde's error, its message the
//! conversion error's) and `into` (a
//! clone converted, then written; such types are not flattened); `bound`, `crate`,
//! `expecting` and `borrow` leave the JSON shape alone and are accepted.
//!
//! `flatten` notes: the flattened fields follow the struct's own fields in the schema (and a
//! name the struct has shadows the inner one, as in serde); a flattened map takes the
//! members no field names (with `deny_unknown_fields`, none). serde also hands a map
//! flattened *before* a struct the struct's members; the schema does not model that order.
//!
//! `alias` notes: a field's aliases are the same field (an input holding two of its names
//! is serde's duplicate field, a `DuplicateKey` error whose path names the field), and not
//! unknown members under `deny_unknown_fields`; a variant's aliases are more accepted tag
//! values (unit-variant strings, external-tag keys, internal and adjacent `tag` values).
//! A flattened struct's field loses an alias (or the field its name) the outer struct
//! reads, as serde gives that key to the outer struct.
//!
//! Compile errors, at the offending item's span: unions; `alias` on a tuple field or a
//! newtype variant's field; a field of a `transparent` struct skipped one way only;
//! `with`, `serialize_with`, `deserialize_with` and `#[jitson(serde)]` on a tuple,
//! newtype-variant or flattened field; `transparent` beside `from`, `try_from` or `into`;
//! `remote`, `getter`, identifier enums; an `untagged` variant before a tagged one; `other` on a data or skipped
//! variant, on two variants, or in an untagged enum; tuple variants in an
//! internally tagged enum; two members or variants with one JSON name (names and aliases
//! together); `flatten` of a type
//! that is not a struct with named fields or a map (an enum, an `Option`: the
//! `JsonObject` bound fails on the field's type); a field type without a schema (the
//! `JsonType` bound fails on the field's type).

mod attr;
mod bounds;
mod case;
mod decode;
mod encode;
mod expand;
mod kinds;
mod members;
#[cfg(test)]
mod tests;

/// Derives `jitson::typed::JsonType`, `jitson::typed::JsonEncode` and
/// `jitson::typed::JsonDecode` (see the crate documentation).
#[proc_macro_derive(Schema, attributes(serde, jitson))]
pub fn derive_schema(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

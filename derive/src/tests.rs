//! The derive's error paths, run on token streams (no compile of user code needed): each
//! unsupported shape or attribute is an error naming it, at the offending item.

use crate::expand::expand;
use syn::parse_quote;

/// The error `expand` gives for `input`, with the source text its span starts at.
fn error(input: syn::DeriveInput) -> String {
    match expand(&input) {
        Ok(tokens) => panic!("expected an error, got {tokens}"),
        Err(e) => e.to_string(),
    }
}

fn expands(input: syn::DeriveInput) -> String {
    expand(&input).unwrap_or_else(|e| panic!("{e}")).to_string()
}

#[test]
fn unions_are_errors() {
    let msg = error(parse_quote! { union U { a: u8, b: u16 } });
    assert!(msg.contains("does not support unions"), "{msg}");
}

/// Field aliases are builder `alias` calls under the field's name (not renamed); variant
/// aliases are more tag values; a clash with another name, and an alias where it means
/// nothing, are errors.
#[test]
fn aliases_expand_and_clashes_are_errors() {
    let out = expands(parse_quote! {
        #[serde(rename_all = "camelCase")]
        struct S { #[serde(alias = "old_name", alias = "x")] new_name: u8 }
    });
    let compact: String = out.split_whitespace().collect();
    assert!(
        compact.contains(r#".alias("newName","old_name").alias("newName","x");"#),
        "{out}"
    );
    let out = expands(parse_quote! { #[serde(tag = "t")] enum E { #[serde(alias = "a")] A } });
    let compact: String = out.split_whitespace().collect();
    assert!(compact.contains(r#"names(&["A","a"])"#), "{out}");
    let msg = error(parse_quote! { struct S { a: u8, #[serde(alias = "a")] b: u8 } });
    assert!(msg.contains(r#"two members are named "a""#), "{msg}");
    let msg = error(parse_quote! { struct S { #[serde(alias = "b")] a: u8, b: u8 } });
    assert!(msg.contains(r#"two members are named "b""#), "{msg}");
    let msg = error(parse_quote! { #[serde(tag = "t")] struct S { #[serde(alias = "t")] a: u8 } });
    assert!(msg.contains(r#"two members are named "t""#), "{msg}");
    let msg = error(parse_quote! { enum E { A, #[jitson(alias = "A")] B } });
    assert!(msg.contains(r#"two variants are named "A""#), "{msg}");
    let msg = error(parse_quote! { enum E { #[serde(alias = "x", alias = "x")] A } });
    assert!(msg.contains(r#"two variants are named "x""#), "{msg}");
    let msg = error(parse_quote! { struct S(#[serde(alias = "x")] u8, u8); });
    assert!(msg.contains("apply to a tuple field"), "{msg}");
    let msg = error(parse_quote! { enum E { A(#[serde(alias = "x")] u8) } });
    assert!(msg.contains("no attribute applies"), "{msg}");
}

#[test]
fn shape_changing_attributes_are_errors() {
    for (input, name) in [
        (
            parse_quote! { #[serde(remote = "Other")] struct S(u8); },
            "remote",
        ),
        (
            parse_quote! { struct S { #[serde(getter = "f")] a: u8 } },
            "getter",
        ),
    ] {
        let msg = error(input);
        assert!(
            msg.contains(&format!("`serde({name})` is not supported yet")),
            "{msg}"
        );
    }
}

#[test]
fn fields_via_serde_only_where_named() {
    let msg = error(parse_quote! { struct S(#[serde(with = "m")] u8, u8); });
    assert!(msg.contains("apply to a tuple field"), "{msg}");
    let msg = error(parse_quote! { enum E { A(#[jitson(serde)] u8) } });
    assert!(
        msg.contains("no attribute applies to a newtype variant's field"),
        "{msg}"
    );
    let msg = error(parse_quote! { struct S { #[serde(flatten)] #[jitson(serde)] a: M } });
    assert!(msg.contains("not through serde"), "{msg}");
    let out = expands(parse_quote! {
        struct S { #[serde(with = "m")] a: u8, #[jitson(serde)] b: X }
    });
    assert!(
        out.contains("m :: deserialize (__d)") && out.contains("m :: serialize"),
        "{out}"
    );
}

#[test]
fn transparent_fields_skipped_one_way_are_errors() {
    let msg = error(parse_quote! {
        #[serde(transparent)]
        struct S { a: u8, #[serde(skip_serializing)] b: u8 }
    });
    assert!(msg.contains("skipped both ways or not at all"), "{msg}");
    expands(parse_quote! {
        #[serde(transparent)]
        struct S { a: u8, #[serde(skip)] b: u8 }
    });
}

#[test]
fn misplaced_other_variants_are_errors() {
    for (input, why) in [
        (
            parse_quote! { #[serde(tag = "t")] enum E { A, #[serde(other)] B(u8) } },
            "applies to a unit variant",
        ),
        (
            parse_quote! { enum E { A, #[serde(other, skip)] B } },
            "applies to a unit variant that is not skipped",
        ),
        (
            parse_quote! { #[serde(untagged)] enum E { A(u8), #[serde(other)] B } },
            "no tag to catch in an untagged enum",
        ),
        (
            parse_quote! { enum E { #[serde(other)] A, #[serde(other)] B } },
            "only one variant can be `other`",
        ),
    ] {
        let msg = error(input);
        assert!(msg.contains(why), "{msg}");
    }
    expands(
        parse_quote! { #[serde(tag = "t", content = "c")] enum E { A(u8), #[serde(other)] B } },
    );
}

#[test]
fn misplaced_representations_are_errors() {
    let msg = error(parse_quote! { #[serde(tag = "t")] enum E { A(u8, u8) } });
    assert!(msg.contains("cannot hold tuple variants"), "{msg}");
    let msg = error(parse_quote! { #[serde(tag = "t", untagged)] enum E { A } });
    assert!(msg.contains("both `tag`ged and `untagged`"), "{msg}");
    let msg = error(parse_quote! { #[serde(content = "c")] enum E { A } });
    assert!(msg.contains("`content` needs `tag`"), "{msg}");
    let msg = error(parse_quote! { #[serde(tag = "t")] struct S(u8); });
    assert!(
        msg.contains("`tag` needs a struct with named fields"),
        "{msg}"
    );
    let msg = error(parse_quote! { #[serde(untagged)] struct S { a: u8 } });
    assert!(msg.contains("applies to enums only"), "{msg}");
    let msg = error(parse_quote! { #[serde(default)] enum E { A } });
    assert!(msg.contains("`default` applies to structs only"), "{msg}");
    let msg = error(parse_quote! { #[serde(transparent)] struct S { a: u8, b: u8 } });
    assert!(msg.contains("exactly one field"), "{msg}");
    let msg = error(parse_quote! { struct S(#[serde(rename = "x")] u8, u8); });
    assert!(msg.contains("apply to a tuple field"), "{msg}");
}

#[test]
fn name_clashes_are_errors() {
    let msg = error(parse_quote! { struct S { a: u8, #[serde(rename = "a")] b: u8 } });
    assert!(msg.contains(r#"two members are named "a""#), "{msg}");
    let msg = error(
        parse_quote! { #[serde(rename_all = "lowercase")] enum E { A, #[serde(rename = "a")] B } },
    );
    assert!(msg.contains(r#"two variants are named "a""#), "{msg}");
    let msg = error(parse_quote! { #[serde(tag = "t")] enum E { A { t: u8 } } });
    assert!(msg.contains(r#"two members are named "t""#), "{msg}");
}

#[test]
fn generics_get_bounds_and_lifetimes_stay() {
    let out = expands(parse_quote! { struct S<'a, T, const N: usize> { a: &'a str, t: [T; N] } });
    assert!(out.contains(":: jitson :: typed :: JsonType"), "{out}");
    assert!(
        out.contains("impl < 'a , T : :: jitson :: typed :: JsonType , const N : usize >"),
        "{out}"
    );
}

#[test]
fn member_read_type_parameters_get_member_bounds() {
    let out = expands(parse_quote! { #[serde(tag = "t")] enum E<T, U> { A(T), B { u: U }, C } });
    let compact: String = out.split_whitespace().collect();
    for bound in [
        "T:::jitson::typed::JsonObject",
        "T:::jitson::typed::JsonMembers",
    ] {
        assert!(compact.contains(&format!("where{bound}")), "{bound}: {out}");
    }
    assert!(
        compact.contains("T:::jitson::typed::decode::JsonDecodeMembers<'__de>"),
        "{out}"
    );
    assert!(!compact.contains("U:::jitson::typed::JsonObject"), "{out}");
    let out = expands(parse_quote! { struct S<T> { #[serde(flatten)] t: T, u: Vec<T> } });
    let compact: String = out.split_whitespace().collect();
    assert!(
        compact.contains("whereT:::jitson::typed::JsonObject"),
        "{out}"
    );
    assert!(!compact.contains("Vec<T>:::jitson"), "{out}");
}

#[test]
fn named_structs_also_implement_json_object() {
    let out = expands(parse_quote! { struct S { a: u8 } });
    assert!(out.contains("JsonObject for S"), "{out}");
    let out = expands(parse_quote! { enum E { A } });
    assert!(!out.contains("JsonObject for"), "{out}");
}

/// The encode impl writes known bytes as merged literals: the brace, keys with their quotes,
/// colon and the comma before them, tag members.
#[test]
fn encode_keys_are_precomputed_literals() {
    let out = expands(parse_quote! {
        #[serde(tag = "t", rename_all = "camelCase")]
        struct S { first_field: u8, #[serde(rename = "q\"")] b: u8 }
    });
    let compact: String = out.split_whitespace().collect();
    assert!(
        compact.contains(r#"extend_from_slice(b"{\"t\":\"S\",\"firstField\":")"#),
        "{out}"
    );
    assert!(
        compact.contains(r#"extend_from_slice(b",\"q\\\"\":")"#),
        "{out}"
    );
}

#[test]
fn untagged_variants_before_tagged_ones_are_errors() {
    let msg = error(parse_quote! { enum E { #[serde(untagged)] A(u8), B } });
    assert!(msg.contains("come after every tagged one"), "{msg}");
    let msg = error(parse_quote! { #[serde(tag = "t")] enum E { A, #[serde(untagged, other)] B } });
    assert!(msg.contains("are not `other`"), "{msg}");
    expands(parse_quote! { enum E { A, #[serde(untagged)] B(u8), #[serde(untagged)] C(String) } });
}

#[test]
fn conversions_beside_transparent_are_errors() {
    let msg = error(parse_quote! { #[serde(transparent, from = "u8")] struct S(u8); });
    assert!(msg.contains("`transparent` excludes"), "{msg}");
    let msg = error(parse_quote! { #[serde(from = "u8", try_from = "u8")] struct S(u8); });
    assert!(msg.contains("exclude each other"), "{msg}");
    let out =
        expands(parse_quote! { #[serde(try_from = "String", into = "String")] struct S(String); });
    assert!(
        out.contains("TryFrom < String >") && out.contains("Into :: into"),
        "{out}"
    );
}

//! `format` asserted (`Loader::assert_formats`): exact errors on both backends, in validate,
//! decode and transcode; which names are checked, refused or left as annotations; schema
//! keys; the builder. The suite's format files run in `schema_suite.rs`,
//! `engine_validate.rs` and `engine_native.rs`; each format's grammar has unit tests in
//! `src/schema/format/`.

use jitson::engine::{Backend, Options, TranscodeOptions};
use jitson::schema::{Format, Loader, SchemaErrorKind, TypeKey, builder};
use jitson::{Codec, Keyword, Schema};

/// `text` loaded with formats asserted.
fn asserted(text: &str) -> Schema {
    Loader::new()
        .assert_formats(true)
        .load_json(text.as_bytes())
        .expect("schema")
}

/// The interpreter's codec and native code's, for `schema`.
fn codecs(schema: &Schema) -> [Codec; 2] {
    let native = Options::new().backend(Backend::Native);
    [Codec::new(schema), Codec::with_options(schema, native)]
}

#[test]
fn a_string_without_its_format_fails_where_it_starts() {
    let schema = asserted(
        r#"{"properties": {"events": {"items": {"properties": {"at": {"format": "date-time"}}}}}}"#,
    );
    let input = br#"{"events": [{"at": "2024-01-31T10:00:00Z"}, {"at": "2024-02-30T10:00:00Z"}]}"#;
    for codec in codecs(&schema) {
        let e = codec.validate(input).expect_err("February has no 30th");
        assert_eq!(
            e.to_string(),
            "string is not a valid date-time at line 1 column 52, path $.events[1].at, \
             keyword format"
        );
        assert_eq!(e.offset(), 51);
        assert_eq!(e.keyword(), Some(Keyword::Format));
        assert_eq!(
            e.schema_pointer(),
            Some("/properties/events/items/properties/at/format")
        );
        let decoded = codec.decode(input).expect_err("decode checks it too");
        assert_eq!(decoded.to_string(), e.to_string());
        let transcoded = codec
            .transcode(input, &TranscodeOptions::new(), &mut Vec::new())
            .expect_err("transcode checks it too");
        assert_eq!(transcoded.to_string(), e.to_string());
        assert!(
            codec
                .validate(br#"{"events": [{"at": "2024-02-29T23:59:60Z"}]}"#)
                .is_ok()
        );
    }
    let reference = schema
        .validate_value(&serde_json::from_slice(input).expect("JSON"))
        .expect_err("the reference validator agrees");
    assert_eq!(
        reference.to_string(),
        "$.events[1].at: must be a valid date-time \
         (schema #/properties/events/items/properties/at/format)"
    );
}

#[test]
fn escaped_strings_are_checked_unescaped() {
    let schema = asserted(r#"{"format": "ipv4"}"#);
    for codec in codecs(&schema) {
        assert!(codec.validate(br#""10.0.0.\u0031""#).is_ok());
        assert!(
            codec
                .validate(br#""10.0.0.\u0031\u0030\u0030\u0030""#)
                .is_err()
        );
    }
}

#[test]
fn the_pattern_is_checked_before_the_format() {
    let schema = asserted(r#"{"pattern": "^a", "format": "email"}"#);
    for codec in codecs(&schema) {
        let e = codec.validate(br#""b""#).expect_err("neither");
        assert_eq!(e.keyword(), Some(Keyword::Pattern));
        let e = codec.validate(br#""a""#).expect_err("no e-mail address");
        assert_eq!(e.keyword(), Some(Keyword::Format));
        assert!(codec.validate(br#""a@example.com""#).is_ok());
    }
}

#[test]
fn other_kinds_and_unknown_names_pass() {
    let schema =
        asserted(r#"{"prefixItems": [{"format": "uuid"}, {"type": "string", "format": "int32"}]}"#);
    for codec in codecs(&schema) {
        assert!(codec.validate(br#"[1, "not a number"]"#).is_ok());
        assert!(
            codec
                .validate(br#"["2eb8aa08-aa98-11ea-b4aa-73b441d16380", "x"]"#)
                .is_ok()
        );
        assert!(codec.validate(br#"["2eb8aa08", "x"]"#).is_err());
    }
}

#[test]
fn formats_built_on_idna_are_refused() {
    let e = Loader::new()
        .assert_formats(true)
        .load_json(br#"{"properties": {"host": {"format": "idn-hostname"}}}"#)
        .expect_err("cannot be checked");
    assert_eq!(
        e.kind(),
        &SchemaErrorKind::UnsupportedFormat("idn-hostname".into())
    );
    assert_eq!(
        e.to_string(),
        r#"format "idn-hostname" cannot be asserted (IDNA2008 is not implemented) at /properties/host/format"#
    );
    // As an annotation it loads.
    assert!(Schema::from_json_str(r#"{"format": "idn-hostname"}"#).is_ok());
}

#[test]
fn an_asserted_format_is_part_of_the_key() {
    let text = r#"{"type": "string", "format": "email"}"#;
    let annotated = Schema::from_json_str(text).expect("schema");
    let checked = asserted(text);
    assert_ne!(annotated, checked);
    assert_ne!(TypeKey::of(&annotated, 0), TypeKey::of(&checked, 0));
    assert!(Codec::new(&annotated).validate(br#""x""#).is_ok());
    assert!(Codec::new(&checked).validate(br#""x""#).is_err());
}

#[test]
fn the_builder_asserts_a_format() {
    let schema = Schema::build(builder::string().assert_format(Format::Uri)).expect("builds");
    assert_eq!(schema, asserted(r#"{"type": "string", "format": "uri"}"#));
    assert!(
        Codec::new(&schema)
            .validate(br#""https://example.com/""#)
            .is_ok()
    );
    assert!(Codec::new(&schema).validate(br#""not a uri""#).is_err());
}

#[test]
fn every_format_has_its_name() {
    for &format in Format::ALL {
        assert_eq!(Format::from_name(format.name()), Some(format));
        assert_eq!(format.to_string(), format.name());
    }
    assert_eq!(Format::from_name("idn-email"), None);
}

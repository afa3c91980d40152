//! The schema registry: publish, refuse, roll back, remove, count.

use std::sync::Arc;

use jitson::registry::{PublishError, Registry, RegistryError, RegistryOptions};

const ID_SCHEMA: &str =
    r#"{"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}"#;
const NAME_SCHEMA: &str =
    r#"{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}"#;

#[test]
fn publish_then_get_serves_the_new_version() {
    let registry = Registry::new();
    assert!(registry.get("user").is_none());
    let v1 = registry.publish_json("user", ID_SCHEMA).unwrap();
    assert_eq!(v1.name(), "user");
    assert!(
        registry
            .get("user")
            .unwrap()
            .validate(br#"{"id": 1}"#)
            .is_ok()
    );
    let v2 = registry.publish_json("user", NAME_SCHEMA).unwrap();
    assert!(v2.number() > v1.number());
    let served = registry.version("user").unwrap();
    assert_eq!(served.number(), v2.number());
    assert!(served.validate(br#"{"name": "x"}"#).is_ok());
    assert!(served.validate(br#"{"id": 1}"#).is_err());
    // The holder of version 1 still has it.
    assert!(v1.validate(br#"{"id": 1}"#).is_ok());
    assert_eq!(registry.names(), vec!["user".to_string()]);
}

#[test]
fn a_schema_that_does_not_load_is_refused_and_the_old_one_keeps_serving() {
    let registry = Registry::new();
    let v1 = registry.publish_json("user", ID_SCHEMA).unwrap();
    let err = registry
        .publish_json("user", r#"{"type": "object", "$recursiveRef": "x"}"#)
        .unwrap_err();
    assert!(matches!(err, PublishError::Schema(_)), "{err}");
    assert_eq!(
        err.to_string(),
        "schema rejected: unsupported keyword \"$recursiveRef\" at /$recursiveRef"
    );
    assert!(registry.publish_json("user", "{not json").is_err());
    assert_eq!(registry.version("user").unwrap().number(), v1.number());
    let stats = registry.stats("user").unwrap();
    assert_eq!((stats.compiles, stats.rejected), (1, 2));
}

#[test]
fn publish_checked_refuses_a_schema_its_samples_break() {
    let registry = Registry::new();
    let v1 = registry.publish_json("user", ID_SCHEMA).unwrap();
    let samples: [&[u8]; 2] = [br#"{"id": 1, "name": "a"}"#, br#"{"id": 2}"#];
    let err = registry
        .publish_json_checked("user", NAME_SCHEMA, &samples)
        .unwrap_err();
    match &err {
        PublishError::SampleRejected { index, error } => {
            assert_eq!(*index, 1);
            assert_eq!(error.path().to_string(), "$");
        }
        other => panic!("wrong error {other}"),
    }
    assert_eq!(registry.version("user").unwrap().number(), v1.number());
    let both =
        r#"{"type": "object", "required": ["id"], "properties": {"name": {"type": "string"}}}"#;
    assert!(
        registry
            .publish_json_checked("user", both, &samples)
            .is_ok()
    );
}

#[test]
fn rollback_recompiles_a_kept_version_and_history_is_bounded() {
    let registry = Registry::with_options(RegistryOptions::new().history(2));
    let v1 = registry.publish_json("s", ID_SCHEMA).unwrap();
    let v2 = registry.publish_json("s", NAME_SCHEMA).unwrap();
    let back = registry.rollback("s", v1.number()).unwrap();
    assert_eq!(back.number(), v1.number());
    assert_eq!(back.key(), v1.key());
    assert!(registry.get("s").unwrap().validate(br#"{"id": 3}"#).is_ok());
    let listed: Vec<(u64, bool)> = registry
        .versions("s")
        .unwrap()
        .iter()
        .map(|v| (v.number, v.current))
        .collect();
    assert_eq!(listed, vec![(v2.number(), false), (v1.number(), true)]);
    let v3 = registry.publish_json("s", r#"{"type": "array"}"#).unwrap();
    let listed: Vec<u64> = registry
        .versions("s")
        .unwrap()
        .iter()
        .map(|v| v.number)
        .collect();
    assert_eq!(listed, vec![v1.number(), v3.number()]);
    assert_eq!(
        registry.rollback("s", v2.number()).unwrap_err(),
        RegistryError::UnknownVersion {
            name: "s".into(),
            version: v2.number()
        }
    );
    assert_eq!(
        registry.rollback("t", 1).unwrap_err().to_string(),
        "no schema named \"t\""
    );
}

#[test]
fn remove_stops_serving_but_keeps_history() {
    let registry = Registry::new();
    let v1 = registry.publish_json("s", ID_SCHEMA).unwrap();
    let removed = registry.remove("s").unwrap();
    assert_eq!(removed.number(), v1.number());
    assert!(registry.get("s").is_none());
    assert!(registry.names().is_empty());
    assert!(registry.remove("s").is_err());
    registry.rollback("s", v1.number()).unwrap();
    assert!(registry.get("s").is_some());
}

#[test]
fn counters_count_compiles_documents_and_failures() {
    let registry = Arc::new(Registry::new());
    let version = registry.publish_json("s", ID_SCHEMA).unwrap();
    for doc in [
        &br#"{"id": 1}"#[..],
        br#"{"id": "x"}"#,
        b"[",
        br#"{"id": 2}"#,
    ] {
        let _ = version.validate(doc);
    }
    version.record(false);
    let stats = registry.stats("s").unwrap();
    assert_eq!(stats.compiles, 1);
    assert_eq!(stats.documents, 5);
    assert_eq!(stats.failures, 3);
    assert!(stats.compile_time > std::time::Duration::ZERO);
    assert!(registry.stats("nobody").is_none());
}

#[test]
fn publish_json_with_a_loader_names_other_documents() {
    let registry = Registry::new();
    let mut loader = jitson::schema::Loader::new();
    loader
        .document_json("ids.json", br#"{"$defs": {"id": {"type": "integer"}}}"#)
        .unwrap();
    let schema = r#"{"properties": {"id": {"$ref": "ids.json#/$defs/id"}}}"#;
    let v1 = registry.publish_json_with("user", schema, &loader).unwrap();
    assert!(v1.validate(br#"{"id": 1}"#).is_ok());
    assert!(v1.validate(br#"{"id": "1"}"#).is_err());
    // Without the document: refused, counted, and the first version serves on.
    let err = registry
        .publish_json_with("user", schema, &jitson::schema::Loader::new())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "schema rejected: unresolved reference \"ids.json#/$defs/id\" at /properties/id/$ref"
    );
    assert_eq!(registry.version("user").unwrap().number(), v1.number());
    let stats = registry.stats("user").unwrap();
    assert_eq!((stats.compiles, stats.rejected), (1, 1));
}

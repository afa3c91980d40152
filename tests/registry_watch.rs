//! The directory source: files published on create and change, refused when broken,
//! removed on delete, debounced while being written.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use jitson::registry::watch::{DirectorySource, WatchEvent, schema_name};
use jitson::registry::{PublishError, Registry};
use jitson::schema::Loader;

const ID_SCHEMA: &str = r#"{"type": "object", "required": ["id"]}"#;
const NAME_SCHEMA: &str = r#"{"type": "object", "required": ["name"]}"#;

/// A fresh empty directory under the system temp dir.
fn temp_dir(tag: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("jitson-watch-{}-{tag}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn kinds(events: &[WatchEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            WatchEvent::Published { name, .. } => format!("published {name}"),
            WatchEvent::Rejected { name, .. } => format!("rejected {name}"),
            WatchEvent::Removed { name, .. } => format!("removed {name}"),
            WatchEvent::Unreadable { .. } => "unreadable".to_string(),
        })
        .collect()
}

#[test]
fn schema_names_come_from_the_file_name() {
    assert_eq!(schema_name("a/user.schema.json".as_ref()), Some("user"));
    assert_eq!(schema_name(".schema.json".as_ref()), None);
    assert_eq!(schema_name("user.json".as_ref()), None);
}

#[test]
fn scan_publishes_changes_refuses_broken_files_and_removes_deleted_ones() {
    let dir = temp_dir("scan");
    let registry = Arc::new(Registry::new());
    let mut source = DirectorySource::new(registry.clone(), &dir);
    std::fs::write(dir.join("user.schema.json"), ID_SCHEMA).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a schema").unwrap();
    assert_eq!(kinds(&source.scan()), ["published user"]);
    assert!(
        source.scan().is_empty(),
        "unchanged files are not republished"
    );
    let v1 = registry.version("user").unwrap().number();

    std::fs::write(dir.join("user.schema.json"), r#"{"type": "objekt"}"#).unwrap();
    let events = source.scan();
    assert_eq!(kinds(&events), ["rejected user"]);
    assert!(
        events[0].to_string().contains("not published"),
        "{}",
        events[0]
    );
    assert_eq!(registry.version("user").unwrap().number(), v1);

    std::fs::write(dir.join("user.schema.json"), NAME_SCHEMA).unwrap();
    assert_eq!(kinds(&source.scan()), ["published user"]);
    assert!(
        registry
            .get("user")
            .unwrap()
            .validate(br#"{"name": 1}"#)
            .is_ok()
    );

    std::fs::remove_file(dir.join("user.schema.json")).unwrap();
    assert_eq!(kinds(&source.scan()), ["removed user"]);
    assert!(registry.get("user").is_none());
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(kinds(&source.scan()), ["unreadable"]);
}

#[test]
fn poll_waits_for_a_file_to_settle() {
    let dir = temp_dir("poll");
    let registry = Arc::new(Registry::new());
    let mut source = DirectorySource::new(registry.clone(), &dir);
    std::fs::write(dir.join("a.schema.json"), "{\"type\": \"obj").unwrap();
    assert!(source.poll(Duration::from_secs(3600)).is_empty());
    assert!(registry.get("a").is_none());
    std::fs::write(dir.join("a.schema.json"), ID_SCHEMA).unwrap();
    assert_eq!(kinds(&source.poll(Duration::ZERO)), ["published a"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Waits (bounded) until `check` holds.
fn eventually(what: &str, check: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_watch_thread_publishes_changes_and_reload_scans_now() {
    let dir = temp_dir("thread");
    let registry = Arc::new(Registry::new());
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    let watch = DirectorySource::new(registry.clone(), &dir)
        .watch(
            Duration::from_millis(20),
            Duration::from_millis(40),
            move |_| {
                counter.fetch_add(1, Ordering::Relaxed);
            },
        )
        .unwrap();
    std::fs::write(dir.join("w.schema.json"), ID_SCHEMA).unwrap();
    eventually("the first version", || registry.get("w").is_some());
    let v1 = registry.version("w").unwrap().number();
    std::fs::write(dir.join("w.schema.json"), NAME_SCHEMA).unwrap();
    eventually("the second version", || {
        registry.version("w").is_some_and(|v| v.number() != v1)
    });
    assert!(seen.load(Ordering::Relaxed) >= 2);
    // A reload right after a change acts without waiting for the debounce.
    std::fs::write(dir.join("x.schema.json"), ID_SCHEMA).unwrap();
    watch.reload();
    assert!(registry.get("x").is_some(), "served right after the reload");
    drop(watch);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn schemas_follow_the_files_they_refer_to() {
    let dir = temp_dir("refs");
    let registry = Arc::new(Registry::new());
    let mut source = DirectorySource::new(registry.clone(), &dir);
    // Writes `file` and scans: what the scan did.
    let mut change = |file: &str, text: &str| {
        std::fs::write(dir.join(file), text).unwrap();
        source.scan()
    };
    let valid =
        |name: &str, doc: &str| registry.get(name).unwrap().validate(doc.as_bytes()).is_ok();
    let user = r##"{"properties": {"zip": {"$ref": "address.schema.json#/$defs/zip"}}}"##;
    let zip =
        |max: u32| format!(r#"{{"$defs": {{"zip": {{"type": "string", "maxLength": {max}}}}}}}"#);
    // The referring file first: it waits for its document.
    assert_eq!(kinds(&change("user.schema.json", user)), ["rejected user"]);
    let both = ["published address", "published user"];
    assert_eq!(kinds(&change("address.schema.json", &zip(5))), both);
    assert!(valid("user", r#"{"zip": "12345"}"#));
    assert!(!valid("user", r#"{"zip": "123456"}"#));
    let v1 = registry.version("user").unwrap().number();

    // A change of the document publishes the schema again; one that does not change what
    // the schema means does not.
    assert_eq!(kinds(&change("address.schema.json", &zip(6))), both);
    assert!(valid("user", r#"{"zip": "123456"}"#));
    let same = r#"{"title": "addresses", "$defs": {"zip": {"maxLength": 6, "type": "string"}}}"#;
    assert_eq!(
        kinds(&change("address.schema.json", same)),
        ["published address"]
    );
    assert!(registry.version("user").unwrap().number() > v1);

    // A document that breaks the schema: reported once, the previous version serves on.
    let events = change("address.schema.json", r#"{"$defs": {}}"#);
    assert_eq!(kinds(&events), ["published address", "rejected user"]);
    assert_eq!(
        events[1].to_string(),
        format!(
            "{}: user not published: schema rejected: unresolved reference \"address.schema.json#/$defs/zip\" at /properties/zip/$ref",
            dir.join("user.schema.json").display()
        )
    );
    assert_eq!(
        kinds(&change("other.schema.json", "{}")),
        ["published other"]
    );
    assert!(!valid("user", r#"{"zip": "1234567"}"#));

    // Its document gone: the same.
    let any_zip = r#"{"$defs": {"zip": {"type": "string"}}}"#;
    assert_eq!(kinds(&change("address.schema.json", any_zip)), both);
    std::fs::remove_file(dir.join("address.schema.json")).unwrap();
    assert_eq!(kinds(&source.scan()), ["removed address", "rejected user"]);
    assert!(valid("user", r#"{"zip": "1234567"}"#));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fresh directory with a source that publishes it into a fresh registry; removed on drop.
struct Watched {
    dir: PathBuf,
    registry: Arc<Registry>,
    source: DirectorySource,
}

impl Watched {
    fn new(tag: &str) -> Watched {
        let dir = temp_dir(tag);
        let registry = Arc::new(Registry::new());
        let source = DirectorySource::new(registry.clone(), &dir);
        Watched {
            dir,
            registry,
            source,
        }
    }

    fn write(&self, file: &str, text: &str) {
        std::fs::write(self.dir.join(file), text).unwrap();
    }

    /// What a scan did.
    fn scan(&mut self) -> Vec<String> {
        kinds(&self.source.scan())
    }

    /// Whether the schema serving `name` takes `doc`.
    fn valid(&self, name: &str, doc: &str) -> bool {
        let schema = self.registry.get(name).unwrap();
        schema.validate(doc.as_bytes()).is_ok()
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn only_the_schemas_that_read_a_changed_file_are_loaded_again() {
    let mut w = Watched::new("reads");
    // `a` reads `b`, which reads `c`; `d` reads nothing.
    w.write("a.schema.json", r#"{"items": {"$ref": "b.schema.json"}}"#);
    w.write("b.schema.json", r##"{"$ref": "c.schema.json#/$defs/n"}"##);
    w.write("c.schema.json", r#"{"$defs": {"n": {"type": "integer"}}}"#);
    w.write("d.schema.json", "{}");
    let all = ["published a", "published b", "published c", "published d"];
    assert_eq!(w.scan(), all);
    assert_eq!(w.source.loads(), 4);
    assert!(w.valid("a", "[5]"));

    let max = r#"{"$defs": {"n": {"type": "integer", "maximum": 3}}}"#;
    w.write("c.schema.json", max);
    assert_eq!(w.scan(), ["published c", "published a", "published b"]);
    assert_eq!(w.source.loads(), 7, "c, then a and b, which read it; not d");
    assert!(!w.valid("a", "[5]"));
    w.write("d.schema.json", r#"{"type": "object"}"#);
    assert_eq!(w.scan(), ["published d"]);
    assert_eq!(w.source.loads(), 8);
}

#[test]
fn schemas_follow_the_meta_schema_they_name() {
    let mut w = Watched::new("dialect");
    let meta = |vocabularies: &str| {
        format!(r#"{{"$id": "https://example.com/meta", "$vocabulary": {{{vocabularies}}}}}"#)
    };
    let core = r#""https://json-schema.org/draft/2020-12/vocab/core": true"#;
    let validation = r#""https://json-schema.org/draft/2020-12/vocab/validation": true"#;
    w.write("meta.schema.json", &meta(&format!("{core}, {validation}")));
    let count = r#"{"$schema": "https://example.com/meta", "maximum": 3}"#;
    w.write("count.schema.json", count);
    assert_eq!(w.scan(), ["published count", "published meta"]);
    assert!(!w.valid("count", "5"));
    // Without the validation vocabulary, `maximum` is an annotation.
    w.write("meta.schema.json", &meta(core));
    assert_eq!(w.scan(), ["published meta", "published count"]);
    assert!(w.valid("count", "5"));
}

#[test]
fn containers_beside_the_schemas_are_read_where_referenced() {
    let mut w = Watched::new("containers");
    let openapi = |max: u32| {
        format!(
            r#"{{"openapi": "3.1.0", "components": {{"schemas": {{"Pet":
                {{"properties": {{"name": {{"maxLength": {max}}}}}}}}}}}}}"#
        )
    };
    w.write("openapi.json", &openapi(3));
    w.write(
        "pet.schema.json",
        r##"{"$ref": "openapi.json#/components/schemas/Pet"}"##,
    );
    w.write("other.schema.json", "{}");
    assert_eq!(w.scan(), ["published other", "published pet"]);
    assert!(w.valid("pet", r#"{"name": "Rex"}"#) && !w.valid("pet", r#"{"name": "Rexy"}"#));
    let loads = w.source.loads();
    w.write("openapi.json", &openapi(4));
    assert_eq!(w.scan(), ["published pet"]);
    assert_eq!(w.source.loads(), loads + 1, "pet only");
    assert!(w.valid("pet", r#"{"name": "Rexy"}"#));
    // A container that is not JSON is reported; what read it no longer loads, and its
    // previous version keeps serving.
    w.write("openapi.json", "{");
    let events = w.source.scan();
    assert_eq!(kinds(&events), ["unreadable", "rejected pet"]);
    assert!(events[0].to_string().ends_with("openapi.json: unreadable: invalid JSON: EOF while parsing an object at line 1 column 1 in openapi.json#"), "{}", events[0]);
    assert!(w.valid("pet", r#"{"name": "Rexy"}"#));
    w.write("openapi.json", &openapi(2));
    assert_eq!(w.scan(), ["published pet"]);
    assert!(!w.valid("pet", r#"{"name": "Rex"}"#));
    // Gone, it publishes nothing and removes nothing.
    std::fs::remove_file(w.dir.join("openapi.json")).unwrap();
    assert_eq!(w.scan(), ["rejected pet"]);
    assert!(w.registry.get("pet").is_some());
}

#[test]
fn references_publish_a_containers_schemas_under_names_of_their_own() {
    let dir = temp_dir("references");
    let registry = Arc::new(Registry::new());
    let pet = "openapi.json#/components/schemas/Pet";
    let mut source = DirectorySource::new(Arc::clone(&registry), &dir)
        .reference(pet, pet)
        .reference("nope", "openapi.json#/components/schemas/Nope");
    // Loaded at the first scan, files or not.
    assert_eq!(
        kinds(&source.scan()),
        [format!("rejected {pet}"), "rejected nope".into()]
    );
    assert_eq!(source.loads(), 2);
    assert_eq!(kinds(&source.scan()), Vec::<String>::new());
    let openapi = |name: &str| {
        format!(
            r#"{{"openapi": "3.0.3", "components": {{"schemas": {{"Pet":
                {{"type": "object", "required": ["{name}"],
                  "properties": {{"{name}": {{"type": "string", "nullable": true}}}}}}}}}}}}"#
        )
    };
    std::fs::write(dir.join("openapi.json"), openapi("name")).unwrap();
    let events = source.scan();
    assert_eq!(kinds(&events), [format!("published {pet}")]);
    assert_eq!(
        events[0].to_string(),
        format!(
            "{}: published {pet} version 1",
            dir.join("openapi.json").display()
        )
    );
    assert_eq!(source.loads(), 4, "both, which could not load before");
    let valid = |doc: &str| registry.get(pet).unwrap().validate(doc.as_bytes()).is_ok();
    assert!(valid(r#"{"name": null}"#) && !valid(r#"{"id": 1}"#));
    // It follows the container; an unchanged schema is not published again.
    std::fs::write(dir.join("openapi.json"), openapi("id")).unwrap();
    assert_eq!(kinds(&source.scan()), [format!("published {pet}")]);
    assert!(valid(r#"{"id": "1"}"#) && !valid(r#"{"name": null}"#));
    let other = r#"{"openapi": "3.0.3", "components": {"schemas": {"Pet": {}}}, "info": {}}"#;
    std::fs::write(dir.join("other.json"), other).unwrap();
    assert_eq!(kinds(&source.scan()), Vec::<String>::new());
    assert_eq!(registry.version(pet).unwrap().number(), 2);
    // A broken container: rejected, the previous version keeps serving.
    std::fs::write(dir.join("openapi.json"), "[").unwrap();
    assert_eq!(
        kinds(&source.scan()),
        ["unreadable".into(), format!("rejected {pet}")]
    );
    assert!(valid(r#"{"id": "1"}"#));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A schema file named as a reference is: the reference keeps the name, the file is
/// rejected (once per text) and its removal leaves the reference serving. Before, both
/// published the name in turn, the last loaded winning.
#[test]
fn a_reference_keeps_its_name_from_a_schema_file() {
    let dir = temp_dir("reference-name");
    let registry = Arc::new(Registry::new());
    let container =
        r#"{"components": {"schemas": {"Pet": {"type": "object", "required": ["name"]}}}}"#;
    std::fs::write(dir.join("openapi.json"), container).unwrap();
    std::fs::write(dir.join("pet.schema.json"), r#"{"type": "integer"}"#).unwrap();
    let mut source = DirectorySource::new(Arc::clone(&registry), &dir)
        .reference("pet", "openapi.json#/components/schemas/Pet");
    let events = source.scan();
    assert_eq!(kinds(&events), ["rejected pet", "published pet"]);
    assert_eq!(
        events[0].to_string(),
        format!(
            r#"{}: pet not published: the name "pet" is published by a reference of the directory"#,
            dir.join("pet.schema.json").display()
        )
    );
    assert!(matches!(
        &events[0],
        WatchEvent::Rejected { error: PublishError::NameTaken { name }, .. } if name == "pet"
    ));
    let valid = |doc: &str| {
        registry
            .get("pet")
            .unwrap()
            .validate(doc.as_bytes())
            .is_ok()
    };
    assert!(valid(r#"{"name": 1}"#) && !valid("7"));
    // A change to the container loads the reference and the file again: the file's
    // rejection is not reported twice.
    std::fs::write(dir.join("openapi.json"), container.replace("name", "id")).unwrap();
    assert_eq!(kinds(&source.scan()), ["published pet"]);
    std::fs::write(dir.join("pet.schema.json"), r#"{"type": "string"}"#).unwrap();
    assert_eq!(kinds(&source.scan()), ["rejected pet"]);
    std::fs::remove_file(dir.join("pet.schema.json")).unwrap();
    assert_eq!(kinds(&source.scan()), Vec::<String>::new());
    assert!(valid(r#"{"id": 1}"#));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn yaml_containers_are_read_as_yaml() {
    let mut w = Watched::new("yaml");
    let openapi = |max: u32| {
        format!(
            "openapi: 3.0.3\ncomponents:\n  schemas:\n    Pet:\n      type: object\n      \
             properties: {{name: {{type: string, maxLength: {max}}}}}\n"
        )
    };
    w.write("openapi.yaml", &openapi(3));
    w.write(
        "pet.schema.json",
        r##"{"$ref": "openapi.yaml#/components/schemas/Pet"}"##,
    );
    w.write("notes.txt", "not read");
    assert_eq!(w.scan(), ["published pet"]);
    assert!(w.valid("pet", r#"{"name": "Rex"}"#) && !w.valid("pet", r#"{"name": "Rexy"}"#));
    w.write("openapi.yaml", &openapi(4));
    assert_eq!(w.scan(), ["published pet"]);
    assert!(w.valid("pet", r#"{"name": "Rexy"}"#));
    w.write("openapi.yaml", "a: .inf\n");
    let events = w.source.scan();
    assert_eq!(kinds(&events), ["unreadable", "rejected pet"]);
    assert!(
        events[0].to_string().ends_with(
            "openapi.yaml: unreadable: invalid YAML: .inf has no JSON form at line 1 column 4 \
             in openapi.yaml#"
        ),
        "{}",
        events[0]
    );
    assert!(w.valid("pet", r#"{"name": "Rexy"}"#));
}

#[test]
fn names_resolved_through_an_id_follow_the_document_that_holds_it() {
    let mut w = Watched::new("ids");
    let zip = |max: u32| format!(r#"{{"$id": "https://example.com/zip", "maxLength": {max}}}"#);
    w.write("first.schema.json", &zip(3));
    w.write("user.schema.json", r#"{"$ref": "https://example.com/zip"}"#);
    w.scan();
    assert!(w.valid("user", r#""123""#) && !w.valid("user", r#""1234""#));

    // A second document with the same `$id`: the first keeps it.
    w.write("second.schema.json", &zip(5));
    assert_eq!(w.scan(), ["published second"]);
    assert!(!w.valid("user", r#""1234""#));
    // The first gone, the `$id` is the second's, and the schema follows.
    std::fs::remove_file(w.dir.join("first.schema.json")).unwrap();
    assert_eq!(w.scan(), ["removed first", "published user"]);
    assert!(w.valid("user", r#""1234""#));

    // A file named as a `$id` reads: the file's name wins over the `$id`, so a schema that
    // resolved the name through the `$id` is loaded again when the file arrives.
    w.write(
        "alias.schema.json",
        r#"{"$id": "code.schema.json", "maxLength": 2}"#,
    );
    w.write("order.schema.json", r#"{"$ref": "code.schema.json"}"#);
    w.scan();
    assert!(w.valid("order", r#""12""#) && !w.valid("order", r#""123""#));
    w.write("code.schema.json", r#"{"maxLength": 4}"#);
    assert_eq!(w.scan(), ["published code", "published order"]);
    assert!(w.valid("order", r#""1234""#));
}

#[test]
fn a_source_loads_with_a_given_loader() {
    let mut w = Watched::new("loader");
    let mut loader = Loader::new();
    loader.annotation_keyword("x-*");
    loader
        .document_json(
            "https://example.com/ids",
            br#"{"$defs": {"id": {"minimum": 1}}}"#,
        )
        .unwrap();
    w.source = DirectorySource::new(w.registry.clone(), &w.dir).loader(loader);
    w.write(
        "user.schema.json",
        r#"{"x-team": "ids", "properties": {"id": {"$ref": "https://example.com/ids#/$defs/id"}}}"#,
    );
    w.write("typo.schema.json", r#"{"minimun": 1}"#);
    assert_eq!(w.scan(), ["rejected typo", "published user"]);
    assert!(w.valid("user", r#"{"id": 1}"#) && !w.valid("user", r#"{"id": 0}"#));
}

#[test]
fn a_source_may_assert_formats() {
    let dir = temp_dir("formats");
    let schema = r#"{"properties": {"at": {"type": "string", "format": "date"}}}"#;
    std::fs::write(dir.join("event.schema.json"), schema).unwrap();
    let body = br#"{"at": "2023-02-29"}"#;
    let annotating = Arc::new(Registry::new());
    let mut source = DirectorySource::new(annotating.clone(), &dir);
    assert_eq!(kinds(&source.scan()), ["published event"]);
    assert!(annotating.get("event").unwrap().validate(body).is_ok());
    let asserting = Arc::new(Registry::new());
    let mut source = DirectorySource::new(asserting.clone(), &dir).assert_formats(true);
    assert_eq!(kinds(&source.scan()), ["published event"]);
    let e = asserting.get("event").unwrap().validate(body).unwrap_err();
    assert_eq!(
        e.to_string(),
        "string is not a valid date at line 1 column 8, path $.at, keyword format"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

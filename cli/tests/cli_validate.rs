//! `jitson validate` and `jitson explain`, run as a process: exact reports and exit statuses,
//! NDJSON line numbers, error caps, schema load errors, the backend flag, and hostile inputs
//! (it must never panic).

mod common;

use common::{Rng, at_root, jitson, scratch, status, stderr, stdout, write};

/// A schema with an integer `id` (required), a string `name` and nothing else.
const USER: &str = r#"{"type": "object",
  "properties": {"id": {"type": "integer", "minimum": 1}, "name": {"type": "string"}},
  "required": ["id"], "additionalProperties": false}"#;

#[test]
fn valid_and_invalid_documents_on_standard_input() {
    let dir = scratch("stdin");
    let schema = write(&dir, "user.json", USER.as_bytes());
    let out = jitson(
        &["validate", "--schema", &schema],
        br#"{"id": 7, "name": "x"}"#,
    );
    assert_eq!(
        (status(&out), stdout(&out), stderr(&out)),
        (0, "".into(), "".into())
    );
    let out = jitson(&["validate", "--schema", &schema, "-"], b"{\"id\": \"7\"}");
    assert_eq!(status(&out), 1);
    assert_eq!(
        stdout(&out),
        "-:1:8: $.id: expected integer, found string (keyword type at /properties/id/type)\n"
    );
    let out = jitson(
        &["validate", "--schema", &schema],
        b"{\n  \"name\": \"x\"\n}",
    );
    assert_eq!(
        stdout(&out),
        "-:3:1: $: missing required field \"id\" (keyword required at /required)\n"
    );
    let out = jitson(
        &["validate", "--schema", &schema],
        b"{\"id\": 1,\n \"id\" 2}",
    );
    assert_eq!(stdout(&out), "-:2:7: $.id: expected `:`\n");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn max_errors_caps_each_document() {
    let dir = scratch("max");
    let schema = write(&dir, "user.json", USER.as_bytes());
    let doc = br#"{"id": 0, "name": 5, "extra": true}"#;
    let out = jitson(&["validate", "--schema", &schema, "--max-errors", "9"], doc);
    assert_eq!(status(&out), 1);
    assert_eq!(
        stdout(&out),
        "-:1:8: $.id: number below the minimum (keyword minimum at /properties/id/minimum)\n\
         -:1:19: $.name: expected string, found number (keyword type at /properties/name/type)\n\
         -:1:31: $.extra: unknown field (keyword additionalProperties at /additionalProperties)\n"
    );
    let out = jitson(&["validate", "--schema", &schema, "--max-errors", "2"], doc);
    assert_eq!(stdout(&out).lines().count(), 2);
    let out = jitson(&["validate", "--schema", &schema], doc);
    assert_eq!(stdout(&out).lines().count(), 1);
    let out = jitson(&["validate", "--schema", &schema, "--max-errors", "0"], doc);
    assert_eq!(status(&out), 2);
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn ndjson_reports_file_lines_and_skips_blank_ones() {
    let dir = scratch("ndjson");
    let schema = write(&dir, "user.json", USER.as_bytes());
    let lines = b"{\"id\": 1}\n\n  \r\n{\"id\": -1}\n{\"id\": 2}\r\n{\"id\": 3\n{\"id\": 3}";
    let data = write(&dir, "users.ndjson", lines);
    let out = jitson(&["validate", "--schema", &schema, "--ndjson", &data], b"");
    assert_eq!(status(&out), 1);
    assert_eq!(
        stdout(&out),
        format!(
            "{data}:4:8: $.id: number below the minimum (keyword minimum at /properties/id/minimum)\n\
             {data}:6:8: $: EOF while parsing an object\n"
        )
    );
    let out = jitson(
        &["validate", "--schema", &schema, "--ndjson"],
        b"\n\n{\"id\": 1}\n",
    );
    assert_eq!((status(&out), stdout(&out)), (0, String::new()));
    // Without --ndjson the same file is one (invalid) document.
    let out = jitson(&["validate", "--schema", &schema, &data], b"");
    assert_eq!(
        stdout(&out),
        format!("{data}:4:1: $: trailing characters\n")
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn corpus_documents_pass_their_schemas() {
    for name in ["twitter", "citm_catalog", "canada", "book"] {
        let schema = at_root(&format!("testdata/schemas/{name}.schema.json"));
        let doc = at_root(&format!("testdata/bench/{name}.json"));
        let out = jitson(&["validate", "--schema", &schema, &doc, &doc], b"");
        assert_eq!((status(&out), stdout(&out)), (0, String::new()), "{name}");
    }
}

#[test]
fn schema_and_input_trouble_exit_2() {
    let dir = scratch("trouble");
    let schema = write(&dir, "user.json", USER.as_bytes());
    let not_json = write(&dir, "not-json.json", b"{\"type\": ");
    let unsupported = write(
        &dir,
        "unsupported.json",
        br#"{"properties": {"a": {"$recursiveRef": "x"}}}"#,
    );
    let out = jitson(&["validate", "--schema", &unsupported], b"{}");
    assert_eq!(status(&out), 2);
    assert_eq!(
        stderr(&out),
        format!(
            "jitson: {unsupported}: schema error: unsupported keyword \"$recursiveRef\" at /properties/a/$recursiveRef\n"
        )
    );
    let out = jitson(&["explain", "--schema", &not_json], b"");
    assert_eq!(status(&out), 2);
    assert!(
        stderr(&out).starts_with(&format!("jitson: {not_json}: schema error: invalid JSON: ")),
        "{}",
        stderr(&out)
    );
    let missing = "/nonexistent/schema.json";
    let out = jitson(&["validate", "--schema", missing], b"{}");
    assert_eq!(status(&out), 2);
    assert!(stderr(&out).starts_with("jitson: /nonexistent/schema.json: "));
    // An unreadable input among good and bad ones: every report, and status 2.
    let out = jitson(
        &[
            "validate",
            "--schema",
            &schema,
            "-",
            "/nonexistent/data.json",
        ],
        b"{}",
    );
    assert_eq!(status(&out), 2);
    assert_eq!(stdout(&out).lines().count(), 1);
    // Usage errors.
    assert_eq!(status(&jitson(&["validate"], b"{}")), 2);
    assert_eq!(status(&jitson(&["explain"], b"")), 2);
    assert_eq!(status(&jitson(&["validate", "--schema"], b"")), 2);
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn backends_give_identical_reports() {
    let schema = at_root("testdata/schemas/book.schema.json");
    let book = std::fs::read(at_root("testdata/bench/book.json")).expect("book.json");
    let broken = String::from_utf8_lossy(&book).replacen(": ", ": [", 1);
    for input in [&book[..], b"{}", b"[1, 2", broken.as_bytes()] {
        let reports: Vec<_> = ["auto", "interp", "jit"]
            .iter()
            .map(|backend| {
                let out = jitson(
                    &["--backend", backend, "validate", "--schema", &schema],
                    input,
                );
                (status(&out), stdout(&out))
            })
            .collect();
        assert_eq!(reports[0], reports[1]);
        assert_eq!(reports[1], reports[2]);
    }
    let out = jitson(
        &["--backend", "jit", "validate", "--schema", &schema],
        b"{}",
    );
    assert_eq!(status(&out), 1);
    for backend in ["auto", "interp", "jit"] {
        let out = jitson(&["explain", "--schema", &schema, "--backend", backend], b"");
        assert_eq!(status(&out), 0, "{backend}");
        assert!(stdout(&out).starts_with("entry f"), "{backend}");
    }
    let out = jitson(&["explain", "--clif", "--schema", &schema], b"");
    assert_eq!(status(&out), 0);
    let clif = stdout(&out);
    assert!(clif.starts_with("; f0: "), "{clif}");
    assert!(clif.contains("function "), "{clif}");
}

/// A schema over `--native-size-limit` runs on the interpreter under `auto`; `jit` refuses
/// it (exit status 2) and says why.
#[test]
fn a_schema_over_the_native_size_limit_is_refused_by_the_jit_backend() {
    let schema = at_root("testdata/schemas/book.schema.json");
    let book = std::fs::read(at_root("testdata/bench/book.json")).expect("book.json");
    let limited = |backend| {
        let args = ["--native-size-limit", "50", "--backend", backend];
        jitson(
            &[&args[..], &["validate", "--schema", &schema]].concat(),
            &book,
        )
    };
    let out = limited("jit");
    assert_eq!(status(&out), 2);
    assert_eq!(
        stderr(&out),
        "jitson: the jit backend is not available here: the validate code is over the native \
         size limit of 50 Cranelift instructions\n"
    );
    for backend in ["auto", "interp"] {
        assert_eq!(status(&limited(backend)), 0, "{backend}");
    }
}

#[test]
fn explain_prints_the_program_listing() {
    let dir = scratch("explain");
    let schema = write(
        &dir,
        "s.json",
        br#"{"type": "array", "items": {"type": "integer"}}"#,
    );
    let out = jitson(&["explain", "--schema", &schema], b"");
    assert_eq!(status(&out), 0);
    let expected = jitson::Codec::new(
        &jitson::Schema::from_json_str(r#"{"type": "array", "items": {"type": "integer"}}"#)
            .expect("schema"),
    )
    .program()
    .to_string();
    assert_eq!(stdout(&out), expected);
    assert_eq!(stdout(&out), EXPLAIN_INTEGER_ARRAY);
    std::fs::remove_dir_all(&dir).expect("clean up");
}

/// The listing of `{"type": "array", "items": {"type": "integer"}}`.
const EXPLAIN_INTEGER_ARRAY: &str = "\
entry f1
f0: #0 array
     0  arr-begin empty:@3
     1  integer
     2  arr-next @1
     3  arr-end items 0..=
     4  return
f1: document
     0  call f0
     1  eof
     2  return
";

#[test]
fn hostile_inputs_never_crash() {
    let dir = scratch("hostile");
    let schema = write(&dir, "user.json", USER.as_bytes());
    let deep = "[".repeat(100_000);
    let deep_object = "{\"a\":".repeat(50_000);
    let mut rng = Rng::new(0xbad);
    let garbage: Vec<u8> = (0..4096).map(|_| rng.next_u64() as u8).collect();
    let cases: [(&str, &[u8]); 7] = [
        ("empty", b""),
        ("blank", b" \n\t "),
        ("garbage", &garbage),
        ("deep array", deep.as_bytes()),
        ("deep object", deep_object.as_bytes()),
        ("bad UTF-8 key", b"{\"\xff\xfe\": 1}"),
        ("bad UTF-8 string", b"{\"id\": 1, \"name\": \"\xc3\x28\"}"),
    ];
    for (what, input) in cases {
        for ndjson in [false, true] {
            let mut args = vec!["validate", "--schema", &schema, "--max-errors", "5"];
            if ndjson {
                args.push("--ndjson");
            }
            let out = jitson(&args, input);
            let blank = input.iter().all(|b| b" \n\t".contains(b));
            let expected = if ndjson && blank { 0 } else { 1 };
            assert_eq!(status(&out), expected, "{what}, ndjson {ndjson}");
            for line in stdout(&out).lines() {
                assert!(line.starts_with("-:"), "{what}: {line}");
            }
        }
    }
    // Hostile schemas: binary, deep, not an object.
    for (what, text) in [
        ("binary schema", garbage.clone()),
        ("deep schema", "{\"items\":".repeat(10_000).into_bytes()),
        ("number schema", b"5".to_vec()),
        ("empty schema", Vec::new()),
    ] {
        let bad = write(&dir, "bad.json", &text);
        for command in ["validate", "explain"] {
            let out = jitson(&[command, "--schema", &bad], b"{}");
            assert_eq!(status(&out), 2, "{what}");
            assert!(
                stderr(&out).contains("schema error"),
                "{what}: {}",
                stderr(&out)
            );
        }
    }
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn documents_the_schema_refers_to() {
    let dir = scratch("documents");
    let defs = write(
        &dir,
        "defs.json",
        br#"{"$id": "https://example.com/defs", "$defs": {"id": {"type": "integer", "minimum": 1}}}"#,
    );
    let schema = write(
        &dir,
        "user.json",
        br#"{"properties": {"id": {"$ref": "common.json#/$defs/id"}}}"#,
    );
    // Under the URI the schema names it by.
    let by_uri = format!("common.json={defs}");
    let out = jitson(
        &["validate", "--schema", &schema, "--document", &by_uri],
        br#"{"id": 0}"#,
    );
    assert_eq!(status(&out), 1);
    assert_eq!(
        stdout(&out),
        "-:1:8: $.id: number below the minimum (keyword minimum at /properties/id/minimum)\n"
    );
    // Under its path, and so under its `$id` too.
    let by_id = write(
        &dir,
        "by-id.json",
        br#"{"properties": {"id": {"$ref": "https://example.com/defs#/$defs/id"}}}"#,
    );
    let out = jitson(
        &["validate", "--schema", &by_id, "--document", &defs],
        br#"{"id": 3}"#,
    );
    assert_eq!((status(&out), stderr(&out)), (0, String::new()));
    // Without it, or with a document that does not read, the command refuses.
    let out = jitson(&["validate", "--schema", &schema], b"{}");
    assert_eq!(status(&out), 2);
    assert_eq!(
        stderr(&out),
        format!(
            "jitson: {schema}: schema error: unresolved reference \"common.json#/$defs/id\" at /properties/id/$ref\n"
        )
    );
    let missing = format!("{}/missing.json", dir.display());
    let out = jitson(
        &["validate", "--schema", &schema, "--document", &missing],
        b"{}",
    );
    assert_eq!(status(&out), 2);
    assert!(
        stderr(&out).starts_with(&format!("jitson: {missing}: ")),
        "{}",
        stderr(&out)
    );
    let fragment = format!("common.json#x={defs}");
    let out = jitson(
        &["validate", "--schema", &schema, "--document", &fragment],
        b"{}",
    );
    assert_eq!(status(&out), 2);
    assert_eq!(
        stderr(&out),
        format!(
            "jitson: {defs}: schema error: a document's URI must be non-empty and without a fragment, not \"common.json#x\"\n"
        )
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn annotation_keywords_are_taken_when_named() {
    let dir = scratch("annotations");
    let schema = write(
        &dir,
        "pet.json",
        br#"{"type": "object", "required": ["kind"], "discriminator": {"propertyName": "kind"},
            "x-owner": "pets"}"#,
    );
    let out = jitson(&["validate", "--schema", &schema], b"{}");
    assert_eq!(status(&out), 2);
    assert_eq!(
        stderr(&out),
        format!(
            "jitson: {schema}: schema error: unsupported keyword \"discriminator\" at /discriminator\n"
        )
    );
    let args = [
        "validate",
        "--schema",
        &schema,
        "--annotation-keyword",
        "discriminator",
        "--annotation-keyword",
        "x-*",
    ];
    let out = jitson(&args, br#"{"kind": "cat"}"#);
    assert_eq!((status(&out), stderr(&out)), (0, String::new()));
    let out = jitson(&args, b"{}");
    assert_eq!(status(&out), 1);
    assert_eq!(
        stdout(&out),
        "-:1:2: $: missing required field \"kind\" (keyword required at /required)\n"
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_dialect_names_the_vocabularies_schemas_use() {
    let dir = scratch("dialect");
    let schema = write(
        &dir,
        "pet.json",
        br#"{"type": "object", "required": ["kind"], "discriminator": {"propertyName": "kind"}}"#,
    );
    let openapi = "https://spec.openapis.org/oas/3.1/dialect/base";
    let args = ["validate", "--schema", &schema, "--dialect", openapi];
    let out = jitson(&args, br#"{"kind": "cat"}"#);
    assert_eq!((status(&out), stderr(&out)), (0, String::new()));
    let out = jitson(&args, b"{}");
    assert_eq!(status(&out), 1);
    // A meta-schema given as a document: without the validation vocabulary, `required` is
    // an annotation.
    let meta = write(
        &dir,
        "meta.json",
        br#"{"$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true}}"#,
    );
    let document = format!("https://example.com/meta={meta}");
    let args = [
        "validate",
        "--schema",
        &schema,
        "--document",
        &document,
        "--dialect",
        "https://example.com/meta",
        "--annotation-keyword",
        "discriminator",
    ];
    let out = jitson(&args, b"{}");
    assert_eq!((status(&out), stderr(&out)), (0, String::new()));
    let out = jitson(
        &["validate", "--schema", &schema, "--dialect", "x:y"],
        b"{}",
    );
    assert_eq!(status(&out), 2);
    assert_eq!(
        stderr(&out),
        format!(
            "jitson: {schema}: schema error: unknown dialect \"x:y\" (no meta-schema has that \
             URI; jitson reads draft 2020-12 and the dialects built on it) at the schema root\n"
        )
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn yaml_containers_and_documents_are_read_by_their_extension() {
    let dir = scratch("yaml");
    let openapi = write(
        &dir,
        "openapi.yaml",
        b"openapi: 3.0.3\ninfo: {title: Pets, version: '1'}\npaths: {}\ncomponents:\n  \
          schemas:\n    Pet:\n      type: object\n      required: [name]\n      \
          properties:\n        name: {type: string, nullable: true}\n        \
          tag: {$ref: 'tag.yml#/$defs/tag'}\n",
    );
    let tag = write(&dir, "tag.yml", b"$defs:\n  tag: {enum: [a, b]}\n");
    let schema = write(
        &dir,
        "pet.json",
        br#"{"$ref": "https://example.com/openapi.yaml#/components/schemas/Pet"}"#,
    );
    let container = format!("https://example.com/openapi.yaml={openapi}");
    let document = format!("https://example.com/tag.yml={tag}");
    let args = [
        "validate",
        "--schema",
        &schema,
        "--container",
        &container,
        "--document",
        &document,
    ];
    let out = jitson(&args, br#"{"name": null, "tag": "a"}"#);
    assert_eq!((status(&out), stderr(&out)), (0, String::new()));
    let out = jitson(&args, br#"{"name": "Rex", "tag": "c"}"#);
    assert_eq!(status(&out), 1);
    let broken = write(&dir, "broken.yaml", b"a: [1\n");
    let container = format!("https://example.com/openapi.yaml={broken}");
    let out = jitson(
        &["validate", "--schema", &schema, "--container", &container],
        b"{}",
    );
    assert_eq!(status(&out), 2);
    assert!(
        stderr(&out).starts_with(&format!("jitson: {broken}: schema error: invalid YAML: ")),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn containers_hold_schemas_that_references_name_by_pointer() {
    let dir = scratch("container");
    let openapi = write(
        &dir,
        "openapi.json",
        br#"{"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"},
            "components": {"schemas": {"Pet": {"type": "object", "required": ["name"]}}}}"#,
    );
    let schema = write(
        &dir,
        "pet.json",
        br#"{"$ref": "https://example.com/openapi.json#/components/schemas/Pet"}"#,
    );
    let container = format!("https://example.com/openapi.json={openapi}");
    let args = ["validate", "--schema", &schema, "--container", &container];
    let out = jitson(&args, br#"{"name": "Rex"}"#);
    assert_eq!((status(&out), stderr(&out)), (0, String::new()));
    let out = jitson(&args, b"{}");
    assert_eq!(status(&out), 1);
    // As a schema document, its root would be read as a schema.
    let document = ["validate", "--schema", &schema, "--document", &container];
    let out = jitson(&document, b"{}");
    assert_eq!(status(&out), 2);
    assert_eq!(
        stderr(&out),
        format!(
            "jitson: {schema}: schema error: unsupported keyword \"openapi\" at \
             https://example.com/openapi.json#/openapi\n"
        )
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

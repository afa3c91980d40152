//! `jitson transcode`, run as a process: exact outputs for each option, NDJSON, reports on
//! standard error for failing documents, exit statuses.

mod common;

use common::{at_root, jitson, scratch, status, stderr, stdout, write};

const SCHEMA: &str = r#"{"type": "object",
  "properties": {"id": {"type": "integer"}, "pw": {"type": "string"},
                 "tags": {"type": "array", "items": {"type": "string"}}},
  "required": ["id"]}"#;

const DOC: &[u8] = b"{ \"id\": 7, \"pw\": \"s3cret\", \"tags\": [\"a\", \"b\"],\n  \"extra\": {\"x\": [1, 2.50]} }";

fn transcode(schema: &str, args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut all = vec!["transcode", "--schema", schema];
    all.extend(args);
    let out = jitson(&all, stdin);
    (status(&out), stdout(&out), stderr(&out))
}

#[test]
fn options_shape_the_output() {
    let dir = scratch("transcode-options");
    let schema = write(&dir, "s.json", SCHEMA.as_bytes());
    let cases: [(&[&str], &str); 8] = [
        (
            &[],
            "{\"id\":7,\"pw\":\"s3cret\",\"tags\":[\"a\",\"b\"],\"extra\":{\"x\":[1,2.5]}}\n",
        ),
        (
            &["--unknown", "drop"],
            "{\"id\":7,\"pw\":\"s3cret\",\"tags\":[\"a\",\"b\"]}\n",
        ),
        (
            &["--redact", "/pw"],
            "{\"id\":7,\"pw\":null,\"tags\":[\"a\",\"b\"],\"extra\":{\"x\":[1,2.5]}}\n",
        ),
        (
            &[
                "--redact",
                "/pw",
                "--replacement",
                "\"***\"",
                "--unknown",
                "drop",
            ],
            "{\"id\":7,\"pw\":\"***\",\"tags\":[\"a\",\"b\"]}\n",
        ),
        (
            &["--pick", "/id", "--pick", "/tags/1"],
            "{\"id\":7,\"tags\":[\"b\"]}\n",
        ),
        (
            &["--backend", "jit"],
            "{\"id\":7,\"pw\":\"s3cret\",\"tags\":[\"a\",\"b\"],\"extra\":{\"x\":[1,2.5]}}\n",
        ),
        (
            &["--tokens", "verbatim"],
            "{\"id\":7,\"pw\":\"s3cret\",\"tags\":[\"a\",\"b\"],\"extra\":{\"x\":[1,2.50]}}\n",
        ),
        (
            &[
                "--tokens",
                "verbatim",
                "--backend",
                "jit",
                "--redact",
                "/pw",
            ],
            "{\"id\":7,\"pw\":null,\"tags\":[\"a\",\"b\"],\"extra\":{\"x\":[1,2.50]}}\n",
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(
            transcode(&schema, args, DOC),
            (0, expected.to_string(), String::new()),
            "{args:?}"
        );
    }
    let (code, out, err) = transcode(&schema, &["--unknown", "deny"], DOC);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.starts_with("-:2:3: $.extra: "), "{err}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn ndjson_transcodes_each_line_and_reports_failures_by_file_line() {
    let dir = scratch("transcode-ndjson");
    let schema = write(&dir, "s.json", SCHEMA.as_bytes());
    let input = write(
        &dir,
        "in.ndjson",
        b"{\"id\": 1}\n\n{\"id\": \"x\"}\n {\"id\": 3, \"tags\": []}\n",
    );
    let (code, out, err) = transcode(&schema, &["--ndjson", &input], b"");
    assert_eq!(code, 1);
    assert_eq!(out, "{\"id\":1}\n{\"id\":3,\"tags\":[]}\n");
    assert_eq!(
        err,
        format!(
            "{input}:3:8: $.id: expected integer, found string (keyword type at /properties/id/type)\n"
        )
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn corpus_documents_round_trip_and_bad_arguments_exit_2() {
    let schema = at_root("testdata/schemas/twitter.schema.json");
    let twitter = std::fs::read(at_root("testdata/bench/twitter.json")).expect("twitter.json");
    let (code, out, _) = transcode(&schema, &[], &twitter);
    assert_eq!(code, 0);
    let got: serde_json::Value = serde_json::from_str(&out).expect("JSON output");
    let expected: serde_json::Value = serde_json::from_slice(&twitter).expect("JSON input");
    assert_eq!(got, expected);
    for args in [
        &["--pick", "no-slash"][..],
        &["--replacement", "{"],
        &["--unknown", "maybe"],
    ] {
        assert_eq!(transcode(&schema, args, b"{}").0, 2, "{args:?}");
    }
    assert_eq!(transcode("/nonexistent.json", &[], b"{}").0, 2);
}

#[test]
fn big_ints_choose_what_integers_beyond_64_bits_become() {
    let dir = scratch("transcode-big-ints");
    let schema = write(
        &dir,
        "s.json",
        br#"{"properties": {"n": {"type": "integer", "maximum": 18446744073709551616}}}"#,
    );
    let doc: &[u8] = br#"{"n": 18446744073709551616, "x": [-9223372036854775809, -0]}"#;
    let f64s = "{\"n\":1.8446744073709552e+19,\"x\":[-9.223372036854776e+18,-0.0]}\n";
    let raw = "{\"n\":18446744073709551616,\"x\":[-9223372036854775809,-0.0]}\n";
    for backend in ["interp", "jit"] {
        let with = |args: &[&str], doc: &[u8]| {
            let mut all = vec!["--backend", backend];
            all.extend(args);
            transcode(&schema, &all, doc)
        };
        assert_eq!(with(&[], doc), (0, f64s.into(), String::new()));
        assert_eq!(
            with(&["--big-ints", "f64"], doc),
            (0, f64s.into(), String::new())
        );
        assert_eq!(
            with(&["--big-ints", "raw"], doc),
            (0, raw.into(), String::new())
        );
        assert_eq!(
            with(&["--big-ints", "error"], doc),
            (
                1,
                String::new(),
                "-:1:26: $.n: number out of range\n".into()
            )
        );
        // Raw compares exactly: 2^64 + 1 is above a maximum of 2^64, its f64 is not.
        let over: &[u8] = br#"{"n": 18446744073709551617}"#;
        assert_eq!(
            with(&[], over),
            (0, "{\"n\":1.8446744073709552e+19}\n".into(), String::new())
        );
        assert_eq!(
            with(&["--big-ints", "raw"], over),
            (
                1,
                String::new(),
                "-:1:7: $.n: number above the maximum (keyword maximum at /properties/n/maximum)\n"
                    .into()
            )
        );
        assert_eq!(with(&["--big-ints", "exact"], doc).0, 2);
    }
    let out = jitson(
        &["validate", "--big-ints", "raw", "--schema", &schema],
        br#"{"n": 18446744073709551617}"#,
    );
    assert_eq!(
        (status(&out), stdout(&out)),
        (
            1,
            "-:1:7: $.n: number above the maximum (keyword maximum at /properties/n/maximum)\n"
                .into()
        )
    );
    let out = jitson(
        &["validate", "--big-ints", "error", "--schema", &schema],
        br#"{"x": {"y": [18446744073709551616]}}"#,
    );
    assert_eq!(
        (status(&out), stdout(&out)),
        (1, "-:1:33: $.x.y[0]: number out of range\n".into())
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

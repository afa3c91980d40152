//! `jitson get` and `jitson set`, run as a process: exact outputs, standard input, exit
//! statuses (0 found, 1 absent or a bad document, 2 usage errors), and no panics.

mod common;

use common::{jitson, root, status, stderr, stdout};
use std::path::PathBuf;

/// (status, stdout, stderr)
fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let out = jitson(args, stdin);
    (status(&out), stdout(&out), stderr(&out))
}

fn twitter() -> PathBuf {
    root().join("testdata/bench/twitter.json")
}

const DOC: &[u8] = b"{\n  \"a\": { \"b\" : [1, 2.50, \"x y\"] },\n  \"k~/\": null\n}\n";

#[test]
fn get_prints_one_minified_line_per_pointer() {
    let (status, out, err) = run(&["get", "-", "/a", "/a/b/1", "/k~0~1", ""], DOC);
    assert_eq!(status, 0, "{err}");
    assert_eq!(
        out,
        "{\"b\":[1,2.50,\"x y\"]}\n2.50\nnull\n{\"a\":{\"b\":[1,2.50,\"x y\"]},\"k~/\":null}\n"
    );
    assert_eq!(err, "");
    let file = twitter();
    let file = file.to_str().unwrap();
    let (status, out, _) = run(
        &[
            "get",
            file,
            "/statuses/50/user/screen_name",
            "/search_metadata/count",
        ],
        b"",
    );
    assert_eq!((status, out.as_str()), (0, "\"IwiAlohomora\"\n100\n"));
    let (status, out, _) = run(&["get", "--unchecked", file, "/statuses/0/id"], b"");
    assert_eq!((status, out.as_str()), (0, "505874924095815700\n"));
}

#[test]
fn get_reports_absent_pointers_and_bad_documents() {
    let (status, out, err) = run(&["get", "-", "/a/b/3", "/a/b/0"], DOC);
    assert_eq!(status, 1);
    assert_eq!(out, "\n1\n");
    assert_eq!(err, "jitson: -: nothing at \"/a/b/3\"\n");
    let (status, out, _) = run(&["get", "-", "/b"], b"{\"a\": [1, 2,], \"b\": 3}");
    assert_eq!(status, 1);
    assert_eq!(out, "-:1:13: $.a: trailing comma\n");
}

#[test]
fn set_prints_the_spliced_document() {
    let (status, out, err) = run(&["set", "-", "/a/b/1", "{\"z\": true}"], DOC);
    assert_eq!(status, 0, "{err}");
    assert_eq!(
        out,
        "{\n  \"a\": { \"b\" : [1, {\"z\": true}, \"x y\"] },\n  \"k~/\": null\n}\n"
    );
    let (status, out, _) = run(&["set", "-", "", " 7 "], DOC);
    assert_eq!((status, out.as_str()), (0, "7\n"));
    let (status, out, err) = run(&["set", "-", "/a/c", "1"], DOC);
    assert_eq!((status, out.as_str()), (1, ""));
    assert_eq!(err, "jitson: -: nothing at \"/a/c\"\n");
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["get", "-"][..],
        &["get", "-", "a"],
        &["get", "-", "/a~2"],
        &["set", "-", "/a"],
        &["set", "-", "/a", "{"],
        &["set", "-", "a", "1"],
        &["get", "/nonexistent/file.json", "/a"],
    ] {
        let (status, _, err) = run(args, DOC);
        assert_eq!(status, 2, "{args:?}: {err}");
        assert!(!err.is_empty(), "{args:?}");
    }
    let (_, _, err) = run(&["set", "-", "/a", "[1,]"], DOC);
    assert_eq!(
        err,
        "jitson: VALUE is not JSON: trailing comma at line 1 column 4, path $\n"
    );
}

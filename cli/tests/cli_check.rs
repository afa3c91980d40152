//! `jitson check`, run as a process: JSONTestSuite verdicts, the output format, exit
//! statuses, standard input, unreadable files, the backend flag, and agreement with the
//! value parser on damaged documents. It must never panic.

mod common;

use std::path::PathBuf;

use common::{Rng, at_root, jitson, root, status, stderr, stdout};
use jitson::value::{self, BigNumbers, Bump, ParseOptions};

/// The suite files whose names start with `prefix`, as paths.
fn suite(prefix: &str) -> Vec<PathBuf> {
    let dir = root().join("testdata/jsontestsuite");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("suite")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            name.starts_with(prefix) && name.ends_with(".json")
        })
        .collect();
    paths.sort();
    paths
}

/// The parser's verdict with the options `check` uses.
fn parser_accepts(doc: &[u8]) -> bool {
    let arena = Bump::new();
    let options = ParseOptions::new().big_numbers(BigNumbers::Raw);
    value::parse_with(doc, &arena, &options).is_ok()
}

/// Checks a diagnostic line: `FILE:LINE:COL: PATH: message`.
fn assert_diagnostic(line: &str, file: &str) {
    let rest = line
        .strip_prefix(file)
        .and_then(|r| r.strip_prefix(':'))
        .unwrap_or_else(|| panic!("{line:?} does not start with {file}:"));
    let mut parts = rest.splitn(4, ": ");
    let position = parts.next().unwrap_or_default();
    let (l, c) = position.split_once(':').expect("LINE:COL");
    assert!(
        l.parse::<usize>().is_ok() && c.parse::<usize>().is_ok(),
        "{line}"
    );
    let path = parts.next().unwrap_or_default();
    assert!(path.starts_with('$'), "{line}");
    assert!(!parts.next().unwrap_or_default().is_empty(), "{line}");
}

#[test]
fn y_files_pass_silently() {
    for path in suite("y_") {
        let out = jitson(&["check", path.to_str().expect("path")], b"");
        assert_eq!(status(&out), 0, "{}: {}", path.display(), stdout(&out));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn n_files_fail_with_one_diagnostic_line() {
    for path in suite("n_") {
        let file = path.to_str().expect("path");
        let out = jitson(&["check", file], b"");
        assert_eq!(status(&out), 1, "{file}");
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1, "{file}: {text}");
        assert_diagnostic(lines[0], file);
    }
}

#[test]
fn i_files_behave_as_documented() {
    let doc = std::fs::read_to_string(root().join("docs/conformance.md")).expect("docs");
    for path in suite("i_") {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}`")))
            .unwrap_or_else(|| panic!("{name} missing from docs/conformance.md"));
        let check_cell = row.split(" | ").nth(4).expect("check column");
        let out = jitson(&["check", path.to_str().expect("path")], b"");
        let expected = if check_cell == "accept" { 0 } else { 1 };
        assert_eq!(status(&out), expected, "{name}: documented {check_cell:?}");
        let bytes = std::fs::read(&path).expect("read");
        assert_eq!(
            parser_accepts(&bytes),
            expected == 0,
            "{name}: parser and check"
        );
    }
}

#[test]
fn exact_diagnostics_and_standard_input() {
    let out = jitson(&["check"], b"{\n  \"a\": [1, 2,,]\n}");
    assert_eq!(status(&out), 1);
    assert_eq!(stdout(&out), "-:2:14: $.a[2]: expected value\n");
    let out = jitson(&["check", "-"], b"  [true]  ");
    assert_eq!((status(&out), stdout(&out)), (0, String::new()));
    let out = jitson(&["check", "-"], b"");
    assert_eq!(stdout(&out), "-:1:0: $: EOF while parsing a value\n");
    let out = jitson(&["check", "--max-depth", "1"], b"[[1]]");
    assert_eq!(stdout(&out), "-:1:2: $[0]: recursion limit exceeded\n");
}

#[test]
fn many_files_report_each_failure_and_the_worst_status() {
    let good = at_root("testdata/bench/book.json");
    let bad = at_root("testdata/jsontestsuite/n_array_extra_comma.json");
    let (good, bad) = (good.as_str(), bad.as_str());
    let out = jitson(&["check", good, bad, good, bad], b"");
    assert_eq!(status(&out), 1);
    assert_eq!(stdout(&out).lines().count(), 2);
    let out = jitson(&["check", good, "/nonexistent/file.json", bad], b"");
    assert_eq!(status(&out), 2);
    assert_eq!(stdout(&out).lines().count(), 1);
    let stderr = stderr(&out);
    assert!(
        stderr.starts_with("jitson: /nonexistent/file.json: "),
        "{stderr}"
    );
}

#[test]
fn usage_errors_and_backends() {
    assert_eq!(status(&jitson(&[], b"")), 2);
    assert_eq!(status(&jitson(&["frobnicate"], b"")), 2);
    assert_eq!(status(&jitson(&["check", "--max-depth", "x"], b"")), 2);
    assert_eq!(status(&jitson(&["--help"], b"")), 0);
    for backend in ["auto", "interp", "jit"] {
        assert_eq!(status(&jitson(&["--backend", backend, "check"], b"1")), 0);
        assert_eq!(status(&jitson(&["check", "--backend", backend], b"[")), 1);
    }
    assert_eq!(status(&jitson(&["--backend", "gpu", "check"], b"1")), 2);
}

#[test]
fn damaged_documents_agree_with_the_parser_and_never_crash() {
    let mut rng = Rng::new(0x5eed);
    let sources: Vec<Vec<u8>> = ["book", "twitter"]
        .iter()
        .map(|n| std::fs::read(root().join(format!("testdata/bench/{n}.json"))).expect("corpus"))
        .collect();
    let bytes = b"{}[],:\"\\0123456789-+.eE \n\x00\x1f\x80\xff";
    let dir = std::env::temp_dir().join(format!("jitson-cli-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut files = Vec::new();
    let mut verdicts = Vec::new();
    for i in 0..300 {
        let source = &sources[i % sources.len()];
        // A window of the document (the whole of book.json), then one to three edits.
        let start = if source.len() > 2000 {
            rng.below(source.len() - 2000)
        } else {
            0
        };
        let mut doc = source[start..(start + 2000).min(source.len())].to_vec();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(doc.len() + 1);
            match rng.below(3) {
                0 if at < doc.len() => doc[at] = bytes[rng.below(bytes.len())],
                1 => doc.insert(at, bytes[rng.below(bytes.len())]),
                _ => doc.truncate(at),
            }
        }
        let path = dir.join(format!("{i}.json"));
        std::fs::write(&path, &doc).expect("write");
        verdicts.push(parser_accepts(&doc));
        files.push(path.to_str().expect("path").to_owned());
    }
    let mut args = vec!["check"];
    args.extend(files.iter().map(String::as_str));
    let out = jitson(&args, b"");
    let text = stdout(&out);
    for (file, accepted) in files.iter().zip(&verdicts) {
        let reported = text.lines().any(|l| l.starts_with(&format!("{file}:")));
        assert_eq!(reported, !accepted, "{file}");
    }
    let expected = if verdicts.iter().all(|&ok| ok) { 0 } else { 1 };
    assert_eq!(status(&out), expected);
    std::fs::remove_dir_all(&dir).expect("clean up");
}

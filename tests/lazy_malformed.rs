//! `jitson::lazy` on malformed input: JSONTestSuite's `n_` files and truncated corpus
//! documents give errors in checked mode (unless the damage lies after the target, which
//! a lazy read never looks at), and neither mode ever panics.

#[path = "value_support/mod.rs"]
mod support;

use jitson::kernels::skip::validate_document;
use jitson::lazy::{Document, Mode, Options, Pointer};

const PATHS: [&str; 6] = ["", "/0", "/a", "/0/0", "/-", "/search_metadata/count"];

fn pointers() -> Vec<Pointer<'static>> {
    PATHS.iter().map(|p| Pointer::parse(p).unwrap()).collect()
}

/// Runs every operation in both modes; panics are the failure this looks for.
fn exercise(doc: &[u8], pointers: &[Pointer<'_>]) {
    for mode in [Mode::Checked, Mode::Unchecked] {
        let options = Options::new().mode(mode);
        for pointer in pointers {
            if let Ok(Some(value)) = options.get(doc, pointer) {
                let _ = value.to_serde_json();
                let _ = value.as_str();
                let _ = value.as_f64();
                if let Some(items) = value.array_iter() {
                    items.for_each(drop);
                }
                if let Some(members) = value.object_iter() {
                    members.for_each(drop);
                }
            }
            let _ = options.set(doc, pointer, b"1");
            let _ = options.insert(doc, pointer, b"[2]");
            let _ = options.remove(doc, pointer);
        }
        let _ = options.get_many(doc, pointers);
        let mut cached = Document::with_options(doc, options);
        for pointer in pointers.iter().chain(pointers) {
            let _ = cached.get(pointer);
        }
    }
}

#[test]
fn n_files_are_errors_in_checked_mode() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/jsontestsuite");
    let pointers = pointers();
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".json") {
            continue;
        }
        let doc = std::fs::read(&path).unwrap();
        exercise(&doc, &pointers);
        if !name.starts_with("n_") {
            continue;
        }
        checked += 1;
        // The root read checks the whole value; only bytes after it escape it.
        match jitson::lazy::get(&doc, &Pointer::root()) {
            Err(_) => {}
            Ok(Some(value)) => {
                let end = value.offset() + value.raw().len();
                assert!(
                    validate_document(&doc[..end], 128).is_ok()
                        && validate_document(&doc, 128).is_err(),
                    "{name}: accepted"
                );
            }
            Ok(None) => panic!("{name}: the root is never absent"),
        }
    }
    assert!(checked > 100, "{checked} n_ files");
}

#[test]
fn truncated_documents_are_errors_in_checked_mode() {
    let mut rng = support::Rng::new(3);
    let pointers = pointers();
    let last = Pointer::parse("/search_metadata/count").unwrap();
    for (name, doc) in support::corpus() {
        let step = doc.len() / 12 + 1;
        let mut cut = rng.below(step);
        while cut < doc.len() {
            let prefix = &doc[..cut];
            if rng.one_in(3) {
                exercise(prefix, &pointers[..5]);
            }
            if name.starts_with("twitter") {
                // The target is the document's last member: every cut is before it ends.
                let e = jitson::lazy::get(prefix, &last).unwrap_err();
                assert!(e.offset() <= cut, "{name} cut at {cut}: {e}");
            }
            assert!(
                jitson::lazy::get_many(prefix, &pointers).is_err(),
                "{name} {cut}"
            );
            cut += step;
        }
    }
    let twitter = support::read("testdata/bench/twitter.json");
    exercise(&twitter, &pointers);
}

//! `pattern` against ECMA-262 as Node implements it: the patterns and strings of
//! `testdata/ecma-patterns/cases.json` (written by `scripts/ecma_pattern_cases.js`: random
//! patterns made of the parts `Pattern` rewrites for the `regex` crate and of plain ones,
//! random strings of white space, line terminators, control characters, ASCII and
//! non-ASCII letters), with whether Node's `RegExp` (flag `u`) finds each pattern in each
//! string. Every pattern must load, and find exactly what Node finds: as a `Pattern`, and as
//! a schema's `pattern` (on string values) and `patternProperties` (on member names), on the
//! interpreter and in native code (which compares some patterns inline).

use jitson::engine::{Backend, BackendStatus, Options};
use jitson::schema::Pattern;
use jitson::{Codec, Schema};
use serde_json::{Value, json};

#[test]
fn patterns_find_what_ecma_262_finds() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/ecma-patterns/cases.json"
    );
    let cases: Vec<Value> = serde_json::from_slice(&std::fs::read(path).expect("cases")).unwrap();
    let mut failures = Vec::new();
    let (mut run, mut found) = (0, 0);
    for case in &cases {
        let source = case["pattern"].as_str().expect("pattern");
        let pattern = match Pattern::new(source) {
            Ok(pattern) => pattern,
            Err(e) => {
                failures.push(format!("{source:?} does not load: {e}"));
                continue;
            }
        };
        // The pattern on a string value, and on member names (`patternProperties` with a
        // `false` schema: an object with a member the pattern finds is invalid).
        let [on_values, on_names] = [
            json!({"pattern": source}),
            json!({"patternProperties": {source: false}}),
        ]
        .map(|schema| {
            let schema = Schema::from_value(&schema).expect("schema");
            let native = Options::new().backend(Backend::Native);
            let codecs = (Codec::new(&schema), Codec::with_options(&schema, native));
            assert_eq!(codecs.1.backend(), &BackendStatus::Native);
            codecs
        });
        for test in case["tests"].as_array().expect("tests") {
            let text = test["text"].as_str().expect("text");
            let want = test["matches"].as_bool().expect("matches");
            run += 1;
            found += usize::from(want);
            let value = serde_json::to_vec(text).unwrap();
            let object = serde_json::to_vec(&json!({ text: 1 })).unwrap();
            for (who, got) in [
                ("Pattern", pattern.is_match(text)),
                ("interpreter", on_values.0.validate(&value).is_ok()),
                ("native", on_values.1.validate(&value).is_ok()),
                ("interpreter, names", on_names.0.validate(&object).is_err()),
                ("native, names", on_names.1.validate(&object).is_err()),
            ] {
                if got != want {
                    failures.push(format!(
                        "{who}: {source:?} on {text:?}: ECMA-262 says {want}"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The test compares what it claims to: many patterns, both verdicts common.
    assert_eq!(cases.len(), 400, "patterns");
    assert!(
        found > run / 10 && found < run * 9 / 10,
        "{found} found of {run}"
    );
}

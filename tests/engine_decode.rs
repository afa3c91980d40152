//! Decode into documents: corpus documents against their schemas, the JSON-Schema-Test-Suite
//! and JSONTestSuite, random mutations; accessors, pointers and precompiled paths. Every
//! document is compared with `serde_json`'s parse.

mod engine_support;
#[path = "value_support/mod.rs"]
mod value_support;

use engine_support::{CORPUS, corpus_schema, suite_tests, testdata};
use jitson::{Codec, Schema};
use serde_json::Value;
use value_support::{Rng, compare, mutate};

/// Decodes `bytes` and checks the outcome against validate and the value against serde_json.
fn agree(codec: &Codec, bytes: &[u8]) -> Result<(), String> {
    let decoded = codec.decode(bytes);
    let validated = codec.validate(bytes);
    match (&decoded, &validated) {
        (Ok(doc), Ok(())) => {
            let theirs: Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
            compare(&doc.to_serde_json(), &theirs).map(|_| ())
        }
        (Err(d), Err(v)) if d == v => Ok(()),
        _ => Err(format!(
            "decode {:?} vs validate {validated:?} for {}",
            decoded.as_ref().map(|_| ()),
            String::from_utf8_lossy(bytes)
        )),
    }
}

#[test]
fn corpus_documents_decode_to_serde_json_values() {
    for (doc, schema) in CORPUS {
        let codec = Codec::new(&corpus_schema(schema));
        let bytes = testdata(&format!("bench/{doc}.json"));
        let ours = codec
            .decode(&bytes)
            .unwrap_or_else(|e| panic!("{doc}: {e}"));
        let theirs: Value = serde_json::from_slice(&bytes).unwrap();
        compare(&ours.to_serde_json(), &theirs).unwrap_or_else(|e| panic!("{doc}: {e}"));
    }
}

#[test]
fn corpus_mutations_decode_exactly_when_they_validate() {
    let mut rng = Rng::new(0xdec0de);
    let rounds = if cfg!(miri) { 2 } else { 40 };
    for (doc, schema) in CORPUS {
        let codec = Codec::new(&corpus_schema(schema));
        let bytes = testdata(&format!("bench/{doc}.json"));
        let small = &bytes[..bytes.len().min(1 << 20)];
        for _ in 0..rounds {
            let mutated = mutate(&mut rng, small);
            agree(&codec, &mutated).unwrap_or_else(|e| panic!("{doc}: {e}"));
        }
    }
}

#[test]
fn json_schema_test_suite_decodes_exactly_when_valid() {
    let mut failures = Vec::new();
    for test in suite_tests() {
        let Ok(schema) = Schema::from_value(&test.schema) else {
            continue;
        };
        let codec = Codec::new(&schema);
        for bytes in [
            serde_json::to_vec(&test.data).unwrap(),
            serde_json::to_vec_pretty(&test.data).unwrap(),
        ] {
            if codec.decode(&bytes).is_ok() != test.valid {
                failures.push(format!("{}: expected valid={}", test.name, test.valid));
            }
            if let Err(e) = agree(&codec, &bytes) {
                failures.push(format!("{}: {e}", test.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

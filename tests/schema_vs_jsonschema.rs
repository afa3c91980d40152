//! The loader's rewrites of keywords against an independent implementation: random schemas
//! built from the keywords the loader turns into other nodes (`unevaluatedProperties`,
//! `unevaluatedItems` and their cases beside `oneOf` / `if` / `dependentSchemas`,
//! `dependentSchemas`, `patternProperties`) and the ones they interact with (through `$ref`
//! to definitions too), random instances, and the `jsonschema` crate's verdict, which must
//! be jitson's reference validator's and the interpreter's on every instance of every schema
//! jitson loads, and native code's on every eighth schema.

#[path = "../kernels/tests/common/rng.rs"]
mod rng;

use jitson::engine::{Backend, BackendStatus, Options};
use jitson::schema::SchemaErrorKind;
use jitson::{Codec, Schema};
use rng::Rng;
use serde_json::{Map, Value, json};

/// Member names the schemas and instances share.
const NAMES: [&str; 4] = ["a", "b", "c", "ab"];
/// Patterns over [`NAMES`] (`^a` matches two of them).
const PATTERNS: [&str; 2] = ["^a", "b$"];

/// A leaf schema: what members and items are checked against.
fn leaf(rng: &mut Rng) -> Value {
    rng.pick(&[
        json!(true),
        json!(false),
        json!({"type": "integer"}),
        json!({"type": "string"}),
        json!({"minimum": 2}),
        json!({"const": 1}),
        json!({"type": ["boolean", "null"]}),
    ])
}

/// A schema of `depth` more levels of subschemas.
fn schema(rng: &mut Rng, depth: u32) -> Value {
    if depth == 0 || rng.chance(20) {
        return leaf(rng);
    }
    let sub = |rng: &mut Rng| schema(rng, depth - 1);
    let mut s = Map::new();
    if rng.chance(15) {
        s.insert("type".into(), json!(rng.pick(&["object", "array"])));
    }
    if rng.chance(45) {
        let mut properties = Map::new();
        for name in NAMES {
            if rng.chance(35) {
                properties.insert(name.into(), sub(rng));
            }
        }
        s.insert("properties".into(), Value::Object(properties));
    }
    if rng.chance(20) {
        s.insert(
            "patternProperties".into(),
            json!({rng.pick(&PATTERNS): sub(rng)}),
        );
    }
    if rng.chance(15) {
        s.insert("additionalProperties".into(), sub(rng));
    }
    if rng.chance(20) {
        let required: Vec<&str> = NAMES.iter().copied().filter(|_| rng.chance(30)).collect();
        s.insert("required".into(), json!(required));
    }
    if rng.chance(20) {
        s.insert(
            "dependentSchemas".into(),
            json!({rng.pick(&NAMES): sub(rng)}),
        );
    }
    if rng.chance(30) {
        let n = 1 + rng.below(2);
        let prefix: Vec<Value> = (0..n).map(|_| sub(rng)).collect();
        s.insert("prefixItems".into(), Value::Array(prefix));
    }
    if rng.chance(12) {
        s.insert("items".into(), sub(rng));
    }
    if rng.chance(8) {
        s.insert("contains".into(), sub(rng));
        if rng.chance(30) {
            s.insert("minContains".into(), json!(rng.below(2)));
        }
        if rng.chance(20) {
            s.insert("maxContains".into(), json!(1 + rng.below(2)));
        }
    }
    if rng.chance(6) {
        s.insert("propertyNames".into(), json!({"maxLength": 1}));
    }
    if rng.chance(6) {
        s.insert("maxProperties".into(), json!(1 + rng.below(2)));
    }
    if rng.chance(10) {
        s.insert(
            "$ref".into(),
            json!(rng.pick(&["#/$defs/d0", "#/$defs/d1"])),
        );
    }
    for keyword in ["allOf", "oneOf", "anyOf"] {
        if rng.chance(20) {
            let n = 1 + rng.below(2);
            let branches: Vec<Value> = (0..n).map(|_| sub(rng)).collect();
            s.insert(keyword.into(), Value::Array(branches));
        }
    }
    if rng.chance(15) {
        s.insert("if".into(), sub(rng));
        for keyword in ["then", "else"] {
            if rng.chance(60) {
                s.insert(keyword.into(), sub(rng));
            }
        }
    }
    if rng.chance(5) {
        s.insert("not".into(), sub(rng));
    }
    if rng.chance(35) {
        s.insert("unevaluatedProperties".into(), leaf(rng));
    }
    if rng.chance(25) {
        s.insert("unevaluatedItems".into(), leaf(rng));
    }
    Value::Object(s)
}

/// An instance: mostly objects over [`NAMES`] and short arrays, of small values.
fn instance(rng: &mut Rng, depth: u32) -> Value {
    let scalar = |rng: &mut Rng| {
        rng.pick(&[
            json!(1),
            json!(3),
            json!(-1),
            json!(2.5),
            json!("s"),
            json!(true),
            json!(null),
        ])
    };
    match rng.below(if depth == 0 { 1 } else { 5 }) {
        0 => scalar(rng),
        1 | 2 => {
            let mut members = Map::new();
            for name in NAMES {
                if rng.chance(40) {
                    members.insert(name.into(), instance(rng, depth - 1));
                }
            }
            Value::Object(members)
        }
        _ => {
            let n = rng.below(4);
            Value::Array((0..n).map(|_| instance(rng, depth - 1)).collect())
        }
    }
}

/// Whether `schema` uses a keyword the loader rewrites.
fn rewrites(schema: &Value) -> bool {
    let text = schema.to_string();
    ["unevaluated", "dependentSchemas", "patternProperties"]
        .iter()
        .any(|k| text.contains(k))
}

#[test]
fn rewritten_keywords_agree_with_jsonschema() {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let (mut loaded, mut with_cases, mut rejected, mut valid) = (0, 0, 0, 0);
    for _ in 0..4000 {
        let mut root = schema(&mut rng, 3);
        if !rewrites(&root) {
            continue;
        }
        if let Value::Object(members) = &mut root {
            members.insert(
                "$schema".into(),
                json!("https://json-schema.org/draft/2020-12/schema"),
            );
            let defs = json!({"d0": schema(&mut rng, 2), "d1": schema(&mut rng, 2)});
            members.insert("$defs".into(), defs);
        }
        let ours = match Schema::from_value(&root) {
            Ok(schema) => schema,
            Err(e) if matches!(e.kind(), SchemaErrorKind::UnevaluatedByBranch { .. }) => {
                rejected += 1;
                continue;
            }
            // A definition that applies itself in place: not a schema either validator runs.
            Err(e) if matches!(e.kind(), SchemaErrorKind::InfiniteRecursion) => continue,
            Err(e) => panic!("{e}: {root}"),
        };
        loaded += 1;
        let text = format!("{ours:?}");
        with_cases += usize::from(text.contains("Unevaluated }"));
        let theirs = jsonschema::validator_for(&root).expect("jsonschema compiles");
        let codec = Codec::new(&ours);
        // Native code for every eighth schema (each compiles a module).
        let native = (loaded % 8 == 0)
            .then(|| Codec::with_options(&ours, Options::new().backend(Backend::Native)));
        if let Some(native) = &native {
            assert_eq!(native.backend(), &BackendStatus::Native, "{root}");
        }
        for _ in 0..20 {
            let value = instance(&mut rng, 3);
            let want = theirs.is_valid(&value);
            valid += usize::from(want);
            let reference = ours.validate_value(&value);
            assert_eq!(
                reference.is_ok(),
                want,
                "{value} under {root}: {reference:?}"
            );
            let bytes = serde_json::to_vec(&value).unwrap();
            assert_eq!(codec.validate(&bytes).is_ok(), want, "{value} under {root}");
            if let Some(native) = &native {
                let got = native.validate(&bytes).is_ok();
                assert_eq!(got, want, "native: {value} under {root}");
            }
        }
    }
    eprintln!("loaded {loaded}, with cases {with_cases}, rejected {rejected}, valid {valid}");
    // The test compares what it claims to: many schemas load, some of them with cases, and
    // many instances pass.
    assert!(loaded > 2000, "{loaded} loaded");
    assert!(with_cases > 500, "{with_cases} with cases");
    assert!(
        rejected < loaded / 5,
        "{rejected} rejected, {loaded} loaded"
    );
    assert!(valid > loaded * 3, "{valid} valid of {loaded} × 20");
}

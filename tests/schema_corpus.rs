//! The benchmark corpus against the schemas written for it (`testdata/schemas/`): every
//! document validates, and targeted mutations fail at the right instance path and keyword.

use jitson::Schema;
use jitson::schema::{Kind, KindSet, ValidationErrorKind};
use serde_json::{Value, json};
use std::path::Path;

fn testdata(path: &str) -> Vec<u8> {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(path);
    std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

fn schema(name: &str) -> Schema {
    Schema::from_json_slice(&testdata(&format!("schemas/{name}.schema.json")))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn document(name: &str) -> Value {
    serde_json::from_slice(&testdata(&format!("bench/{name}.json"))).expect("corpus JSON")
}

/// Mutates a copy of `doc` at JSON Pointer `at` and returns the error it must cause.
fn rejects(
    schema: &Schema,
    doc: &Value,
    mutate: impl FnOnce(&mut Value),
) -> jitson::ValidationError {
    let mut doc = doc.clone();
    mutate(&mut doc);
    schema
        .validate_value(&doc)
        .expect_err("mutation must be rejected")
}

#[test]
fn every_document_validates() {
    for (doc, schema_name) in [
        ("twitter", "twitter"),
        ("twitterescaped", "twitter"),
        ("citm_catalog", "citm_catalog"),
        ("canada", "canada"),
        ("book", "book"),
    ] {
        let result = schema(schema_name).validate_value(&document(doc));
        assert_eq!(
            result,
            Ok(()),
            "{doc}.json against {schema_name}.schema.json"
        );
    }
}

#[test]
fn twitter_mutations() {
    let schema = schema("twitter");
    let doc = document("twitter");

    let e = rejects(&schema, &doc, |d| {
        d["statuses"][3]["user"]["id"] = json!("42")
    });
    assert_eq!(e.instance_path(), "$.statuses[3].user.id");
    assert_eq!(
        e.kind(),
        &ValidationErrorKind::Type {
            expected: KindSet::only(Kind::Integer),
            found: Kind::String
        }
    );
    assert_eq!(
        e.schema_pointer(),
        "/properties/statuses/items/properties/user/properties/id/type"
    );
    assert_eq!(
        e.to_string(),
        "$.statuses[3].user.id: expected integer, found string \
         (schema #/properties/statuses/items/properties/user/properties/id/type)"
    );

    let e = rejects(&schema, &doc, |d| {
        d["statuses"][0]["user"]
            .as_object_mut()
            .expect("user")
            .remove("screen_name");
    });
    assert_eq!(e.instance_path(), "$.statuses[0].user");
    assert_eq!(
        e.kind(),
        &ValidationErrorKind::Required {
            name: "screen_name".into()
        }
    );
    assert_eq!(
        e.schema_pointer(),
        "/properties/statuses/items/properties/user/required"
    );

    // Deep inside the recursive `tweet` definition.
    let (i, _) = doc["statuses"]
        .as_array()
        .expect("statuses")
        .iter()
        .enumerate()
        .find(|(_, s)| {
            !s["retweeted_status"]["entities"]["user_mentions"]
                .as_array()
                .is_none_or(Vec::is_empty)
        })
        .expect("a retweet with mentions");
    let e = rejects(&schema, &doc, |d| {
        d["statuses"][i]["retweeted_status"]["entities"]["user_mentions"][0]["indices"][1] =
            json!(-1);
    });
    assert_eq!(
        e.instance_path(),
        format!("$.statuses[{i}].retweeted_status.entities.user_mentions[0].indices[1]")
    );
    assert_eq!(
        e.kind(),
        &ValidationErrorKind::Minimum {
            limit: 0.into(),
            exclusive: false
        }
    );

    let e = rejects(&schema, &doc, |d| {
        d["statuses"][5]["surprise"] = json!(true)
    });
    assert_eq!(e.instance_path(), "$.statuses[5]");
    assert_eq!(
        e.kind(),
        &ValidationErrorKind::UnknownField {
            name: "surprise".into()
        }
    );

    let e = rejects(&schema, &doc, |d| {
        d["statuses"][7]["user"]["profile_text_color"] = json!("red")
    });
    assert_eq!(e.instance_path(), "$.statuses[7].user.profile_text_color");
    assert!(matches!(e.kind(), ValidationErrorKind::Pattern { .. }));

    let e = rejects(&schema, &doc, |d| {
        d["statuses"][2]["user"]["utc_offset"] = json!("UTC")
    });
    assert_eq!(
        e.kind(),
        &ValidationErrorKind::Type {
            expected: KindSet::only(Kind::Integer).with(Kind::Null),
            found: Kind::String
        }
    );
}

#[test]
fn citm_mutations() {
    let schema = schema("citm_catalog");
    let doc = document("citm_catalog");

    let e = rejects(&schema, &doc, |d| {
        d["performances"][10]["prices"][0]["amount"] = json!(1.5)
    });
    assert_eq!(e.instance_path(), "$.performances[10].prices[0].amount");
    assert_eq!(
        e.kind(),
        &ValidationErrorKind::Type {
            expected: KindSet::only(Kind::Integer),
            found: Kind::Number
        }
    );

    let e = rejects(&schema, &doc, |d| {
        d["events"]["138586341"]["name"] = Value::Null
    });
    assert_eq!(e.instance_path(), r#"$.events["138586341"].name"#);
    assert_eq!(
        e.schema_pointer(),
        "/properties/events/additionalProperties/properties/name/type"
    );

    let e = rejects(&schema, &doc, |d| d["areaNames"]["205705993"] = json!(7));
    assert_eq!(e.instance_path(), r#"$.areaNames["205705993"]"#);
    assert_eq!(
        e.schema_pointer(),
        "/properties/areaNames/additionalProperties/type"
    );

    let e = rejects(&schema, &doc, |d| {
        d.as_object_mut().expect("root").remove("venueNames");
    });
    assert_eq!(e.instance_path(), "$");
    assert_eq!(
        e.kind(),
        &ValidationErrorKind::Required {
            name: "venueNames".into()
        }
    );
}

#[test]
fn canada_mutations() {
    let schema = schema("canada");
    let doc = document("canada");

    let e = rejects(&schema, &doc, |d| {
        d["features"][0]["geometry"]["coordinates"][5][3][0] = json!(200.5);
    });
    assert_eq!(
        e.instance_path(),
        "$.features[0].geometry.coordinates[5][3][0]"
    );
    assert_eq!(
        e.kind(),
        &ValidationErrorKind::Maximum {
            limit: 180.into(),
            exclusive: false
        }
    );
    assert_eq!(
        e.schema_pointer(),
        "/properties/features/items/properties/geometry/properties/coordinates/items/items/prefixItems/0/maximum"
    );

    let e = rejects(&schema, &doc, |d| {
        d["features"][0]["geometry"]["coordinates"][1][0]
            .as_array_mut()
            .expect("position")
            .push(json!(0.0));
    });
    assert_eq!(
        e.instance_path(),
        "$.features[0].geometry.coordinates[1][0][2]"
    );
    assert_eq!(e.kind(), &ValidationErrorKind::False);
    assert_eq!(
        e.schema_pointer(),
        "/properties/features/items/properties/geometry/properties/coordinates/items/items/items"
    );

    let e = rejects(&schema, &doc, |d| {
        d["features"][0]["geometry"]["type"] = json!("Point")
    });
    assert_eq!(e.instance_path(), "$.features[0].geometry.type");
    assert_eq!(e.kind(), &ValidationErrorKind::Enum);
}

#[test]
fn book_mutations() {
    let schema = schema("book");
    let doc = document("book");

    let e = rejects(&schema, &doc, |d| d["ids"][1] = json!(2_147_483_648u64));
    assert_eq!(e.instance_path(), "$.ids[1]");
    assert_eq!(
        e.kind(),
        &ValidationErrorKind::Maximum {
            limit: 2_147_483_647.into(),
            exclusive: false
        }
    );

    let e = rejects(&schema, &doc, |d| {
        d["authors"][2]
            .as_object_mut()
            .expect("author")
            .remove("age");
    });
    assert_eq!(e.instance_path(), "$.authors[2]");
    assert_eq!(
        e.kind(),
        &ValidationErrorKind::Required { name: "age".into() }
    );

    let e = rejects(&schema, &doc, |d| d["weights"] = json!(["heavy"]));
    assert_eq!(e.instance_path(), "$.weights[0]");
}
